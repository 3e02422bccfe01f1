builtin.module {
  "memref.global"() <{sym_name = "cst_main_0", type = memref<1xf32>, initial_value = dense<5.000000e-01> : tensor<1xf32>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "weights", type = memref<771392xi8>, initial_value = dense<"0x~a692a54b932b180b"> : tensor<771392xi8>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "arena_main", type = memref<802272xi8>, initial_value, sym_visibility = "private"}> : () -> ()
  func.func @main(%mfcc: memref<1x1x49x40xf32>, %out_score: memref<1x1xf32>, %out_probs: memref<1x12xf32>) attributes {cfmem.dma_depth = 2 : i64, cfmem.arena_size = 802272 : i64, cfmem.lower_bound = 802272 : i64, cfmem.plan = "exact/auto", cfmem.aliases = "reshape,slice,inplace,concat,yield", cfmem.onchip_budget = 2097152 : i64, cfmem.init = "load_resident_main", cfmem.output_names = ["score", "probs"], llvm.emit_c_interface} {
    %arena = memref.get_global @arena_main : memref<802272xi8>
    %c0 = arith.constant 0 : index
    %c576 = arith.constant 576 : index
    %c640 = arith.constant 640 : index
    %c768640 = arith.constant 768640 : index
    %c768768 = arith.constant 768768 : index
    %c768896 = arith.constant 768896 : index
    %c768960 = arith.constant 768960 : index
    %c770112 = arith.constant 770112 : index
    %c770176 = arith.constant 770176 : index
    %c771328 = arith.constant 771328 : index
    %c801984 = arith.constant 801984 : index
    %c96 = arith.constant 96 : index
    %c128 = arith.constant 128 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %c769920 = arith.constant 769920 : index
    %c769984 = arith.constant 769984 : index
    %c802176 = arith.constant 802176 : index
    %c771248 = arith.constant 771248 : index
    %c770032 = arith.constant 770032 : index
    %c770080 = arith.constant 770080 : index
    %c1152 = arith.constant 1152 : index
    %c48 = arith.constant 48 : index
    %c771200 = arith.constant 771200 : index
    %weights = memref.get_global @weights : memref<771392xi8>
    %dma0 = memref.view %arena[%c801984][] {cfmem.tensor = "dma0"} : memref<802272xi8> to memref<192xi8>
    %0 = memref.view %weights[%c768768][] : memref<771392xi8> to memref<96xi8>
    %1 = memref.view %dma0[%c0][] : memref<192xi8> to memref<96xi8>
    "memref.copy"(%0, %1) : (memref<96xi8>, memref<96xi8>) -> ()
    %2 = memref.view %weights[%c768896][] : memref<771392xi8> to memref<4xi8>
    %3 = memref.view %dma0[%c128][] : memref<192xi8> to memref<4xi8>
    "memref.copy"(%2, %3) : (memref<4xi8>, memref<4xi8>) -> ()
    %resident = memref.view %arena[%c0][] {cfmem.tensor = "resident"} : memref<802272xi8> to memref<769984xi8>
    %conv_w_sram = memref.view %resident[%c0][] {cfmem.tensor = "conv_w_sram"} : memref<769984xi8> to memref<16x1x3x3xf32>
    %conv_b_sram = memref.view %resident[%c576][] {cfmem.tensor = "conv_b_sram"} : memref<769984xi8> to memref<16xf32>
    %fc_w_sram = memref.view %resident[%c640][] {cfmem.tensor = "fc_w_sram"} : memref<769984xi8> to memref<24x8000xf32>
    %fc_b_sram = memref.view %resident[%c768640][] {cfmem.tensor = "fc_b_sram"} : memref<769984xi8> to memref<24xf32>
    %cls_fc_w_sram = memref.view %resident[%c768768][] {cfmem.tensor = "cls_fc_w_sram"} : memref<769984xi8> to memref<12x24xf32>
    %cls_fc_b_sram = memref.view %resident[%c769920][] {cfmem.tensor = "cls_fc_b_sram"} : memref<769984xi8> to memref<12xf32>
    %conv = memref.view %arena[%c769984][] {cfmem.tensor = "conv"} : memref<802272xi8> to memref<1x16x25x20xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%conv_b_sram : memref<16xf32>) outs(%conv : memref<1x16x25x20xf32>) {
    ^bb0(%4: f32, %5: f32):
      linalg.yield %4 : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%conv_w_sram : memref<16x1x3x3xf32>) outs(%conv : memref<1x16x25x20xf32>) {
    ^bb0(%6: f32, %7: f32):
      %8 = linalg.index 0 : index
      %9 = linalg.index 1 : index
      %10 = linalg.index 2 : index
      %11 = linalg.index 3 : index
      %12 = linalg.index 4 : index
      %13 = linalg.index 5 : index
      %14 = linalg.index 6 : index
      %15 = arith.constant 2 : index
      %16 = arith.muli %10, %15 : index
      %17 = arith.constant 1 : index
      %18 = arith.muli %13, %17 : index
      %19 = arith.addi %16, %18 : index
      %20 = arith.constant 2 : index
      %21 = arith.muli %11, %20 : index
      %22 = arith.constant 1 : index
      %23 = arith.muli %14, %22 : index
      %24 = arith.addi %21, %23 : index
      %25 = arith.constant 0 : index
      %26 = arith.constant 1 : index
      %27 = arith.subi %19, %26 : index
      %28 = arith.cmpi sge, %27, %25 : index
      %29 = arith.constant 49 : index
      %30 = arith.cmpi slt, %27, %29 : index
      %31 = arith.andi %28, %30 : i1
      %32 = arith.maxsi %27, %25 : index
      %33 = arith.constant 48 : index
      %34 = arith.minsi %32, %33 : index
      %35 = arith.constant 1 : index
      %36 = arith.subi %24, %35 : index
      %37 = arith.cmpi sge, %36, %25 : index
      %38 = arith.constant 40 : index
      %39 = arith.cmpi slt, %36, %38 : index
      %40 = arith.andi %37, %39 : i1
      %41 = arith.andi %31, %40 : i1
      %42 = arith.maxsi %36, %25 : index
      %43 = arith.constant 39 : index
      %44 = arith.minsi %42, %43 : index
      %45 = memref.load %mfcc[%8, %12, %34, %44] : memref<1x1x49x40xf32>
      %46 = arith.constant 0.000000e+00 : f32
      %47 = arith.select %41, %45, %46 : f32
      %48 = arith.mulf %47, %6 : f32
      %49 = arith.addf %7, %48 : f32
      linalg.yield %49 : f32
    }
    %conv_out = memref.view %arena[%c769984][] {cfmem.tensor = "conv_out"} : memref<802272xi8> to memref<1x16x25x20xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%conv : memref<1x16x25x20xf32>) outs(%conv_out : memref<1x16x25x20xf32>) {
    ^bb0(%50: f32, %51: f32):
      %52 = arith.constant 0.000000e+00 : f32
      %53 = arith.maximumf %50, %52 : f32
      linalg.yield %53 : f32
    }
    %feat = memref.view %arena[%c769984][] {cfmem.tensor = "feat", cfmem.reads = ["conv_out"]} : memref<802272xi8> to memref<1x8000xf32>
    %fc = memref.view %arena[%c802176][] {cfmem.tensor = "fc"} : memref<802272xi8> to memref<1x24xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%fc_b_sram : memref<24xf32>) outs(%fc : memref<1x24xf32>) {
    ^bb0(%54: f32, %55: f32):
      linalg.yield %54 : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%feat, %fc_w_sram : memref<1x8000xf32>, memref<24x8000xf32>) outs(%fc : memref<1x24xf32>) {
    ^bb0(%56: f32, %57: f32, %58: f32):
      %59 = arith.mulf %56, %57 : f32
      %60 = arith.addf %58, %59 : f32
      linalg.yield %60 : f32
    }
    %fc_out = memref.view %arena[%c802176][] {cfmem.tensor = "fc_out"} : memref<802272xi8> to memref<1x24xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%fc : memref<1x24xf32>) outs(%fc_out : memref<1x24xf32>) {
    ^bb0(%61: f32, %62: f32):
      %63 = arith.constant 0.000000e+00 : f32
      %64 = arith.maximumf %61, %63 : f32
      linalg.yield %64 : f32
    }
    %gate_w_sram = memref.view %dma0[%c0][] {cfmem.tensor = "gate_w_sram"} : memref<192xi8> to memref<1x24xf32>
    %gate_b_sram = memref.view %dma0[%c128][] {cfmem.tensor = "gate_b_sram"} : memref<192xi8> to memref<1xf32>
    %gate = memref.view %arena[%c769984][] {cfmem.tensor = "gate"} : memref<802272xi8> to memref<1x1xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%gate_b_sram : memref<1xf32>) outs(%gate : memref<1x1xf32>) {
    ^bb0(%65: f32, %66: f32):
      linalg.yield %65 : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%fc_out, %gate_w_sram : memref<1x24xf32>, memref<1x24xf32>) outs(%gate : memref<1x1xf32>) {
    ^bb0(%67: f32, %68: f32, %69: f32):
      %70 = arith.mulf %67, %68 : f32
      %71 = arith.addf %69, %70 : f32
      linalg.yield %71 : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%gate : memref<1x1xf32>) outs(%out_score : memref<1x1xf32>) {
    ^bb0(%72: f32, %73: f32):
      %74 = arith.constant 1.000000e+00 : f32
      %75 = arith.negf %72 : f32
      %76 = math.exp %75 : f32
      %77 = arith.addf %74, %76 : f32
      %78 = arith.divf %74, %77 : f32
      linalg.yield %78 : f32
    }
    %keyword_b = memref.get_global @cst_main_0 : memref<1xf32>
    %keyword = memref.view %arena[%c771248][] {cfmem.tensor = "keyword"} : memref<802272xi8> to memref<1x1xi8>
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%out_score, %keyword_b : memref<1x1xf32>, memref<1xf32>) outs(%keyword : memref<1x1xi8>) {
    ^bb0(%79: f32, %80: f32, %81: i8):
      %82 = arith.cmpf ogt, %79, %80 : f32
      %83 = arith.extui %82 : i1 to i8
      linalg.yield %83 : i8
    }
    %84 = memref.load %keyword[%c0, %c0] : memref<1x1xi8>
    %85 = arith.trunci %84 : i8 to i1
    scf.if %85 {
      %cls_fc = memref.view %arena[%c769984][] {cfmem.tensor = "cls_fc"} : memref<802272xi8> to memref<1x12xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cls_fc_b_sram : memref<12xf32>) outs(%cls_fc : memref<1x12xf32>) {
      ^bb0(%86: f32, %87: f32):
        linalg.yield %86 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%fc_out, %cls_fc_w_sram : memref<1x24xf32>, memref<12x24xf32>) outs(%cls_fc : memref<1x12xf32>) {
      ^bb0(%88: f32, %89: f32, %90: f32):
        %91 = arith.mulf %88, %89 : f32
        %92 = arith.addf %90, %91 : f32
        linalg.yield %92 : f32
      }
      %cls_probs = memref.view %arena[%c770032][] {cfmem.tensor = "cls_probs"} : memref<802272xi8> to memref<1x12xf32>
      %scratch = memref.view %arena[%c770080][] {cfmem.tensor = "cls_probs#scratch"} : memref<802272xi8> to memref<32xi8>
      %93 = arith.constant 0 : index
      %peak = memref.view %scratch[%93][] : memref<32xi8> to memref<1x1xf32>
      %94 = arith.constant 0xff800000 : f32
      linalg.fill ins(%94 : f32) outs(%peak : memref<1x1xf32>)
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%cls_fc : memref<1x12xf32>) outs(%peak : memref<1x1xf32>) {
      ^bb0(%95: f32, %96: f32):
        %97 = arith.maximumf %96, %95 : f32
        linalg.yield %97 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cls_fc, %peak : memref<1x12xf32>, memref<1x1xf32>) outs(%cls_probs : memref<1x12xf32>) {
      ^bb0(%98: f32, %99: f32, %100: f32):
        %101 = arith.subf %98, %99 : f32
        %102 = math.exp %101 : f32
        linalg.yield %102 : f32
      }
      %103 = arith.constant 16 : index
      %total = memref.view %scratch[%103][] : memref<32xi8> to memref<1x1xf32>
      %104 = arith.constant 0.000000e+00 : f32
      linalg.fill ins(%104 : f32) outs(%total : memref<1x1xf32>)
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%cls_probs : memref<1x12xf32>) outs(%total : memref<1x1xf32>) {
      ^bb0(%105: f32, %106: f32):
        %107 = arith.addf %106, %105 : f32
        linalg.yield %107 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%total : memref<1x1xf32>) outs(%cls_probs : memref<1x12xf32>) {
      ^bb0(%108: f32, %109: f32):
        %110 = arith.divf %109, %108 : f32
        linalg.yield %110 : f32
      }
      "memref.copy"(%cls_probs, %out_probs) : (memref<1x12xf32>, memref<1x12xf32>) -> ()
    } else {
      %dma0_1 = memref.view %arena[%c769984][] {cfmem.tensor = "dma0_1"} : memref<802272xi8> to memref<1216xi8>
      %111 = memref.view %weights[%c770176][] : memref<771392xi8> to memref<1152xi8>
      %112 = memref.view %dma0_1[%c0][] : memref<1216xi8> to memref<1152xi8>
      "memref.copy"(%111, %112) : (memref<1152xi8>, memref<1152xi8>) -> ()
      %113 = memref.view %weights[%c771328][] : memref<771392xi8> to memref<48xi8>
      %114 = memref.view %dma0_1[%c1152][] : memref<1216xi8> to memref<48xi8>
      "memref.copy"(%113, %114) : (memref<48xi8>, memref<48xi8>) -> ()
      %bg_fc_w_sram = memref.view %dma0_1[%c0][] {cfmem.tensor = "bg_fc_w_sram"} : memref<1216xi8> to memref<12x24xf32>
      %bg_fc_b_sram = memref.view %dma0_1[%c1152][] {cfmem.tensor = "bg_fc_b_sram"} : memref<1216xi8> to memref<12xf32>
      %bg_fc = memref.view %arena[%c771200][] {cfmem.tensor = "bg_fc"} : memref<802272xi8> to memref<1x12xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%bg_fc_b_sram : memref<12xf32>) outs(%bg_fc : memref<1x12xf32>) {
      ^bb0(%115: f32, %116: f32):
        linalg.yield %115 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%fc_out, %bg_fc_w_sram : memref<1x24xf32>, memref<12x24xf32>) outs(%bg_fc : memref<1x12xf32>) {
      ^bb0(%117: f32, %118: f32, %119: f32):
        %120 = arith.mulf %117, %118 : f32
        %121 = arith.addf %119, %120 : f32
        linalg.yield %121 : f32
      }
      %bg_probs = memref.view %arena[%c769984][] {cfmem.tensor = "bg_probs"} : memref<802272xi8> to memref<1x12xf32>
      %scratch_1 = memref.view %arena[%c770032][] {cfmem.tensor = "bg_probs#scratch"} : memref<802272xi8> to memref<32xi8>
      %122 = arith.constant 0 : index
      %peak_1 = memref.view %scratch_1[%122][] : memref<32xi8> to memref<1x1xf32>
      %123 = arith.constant 0xff800000 : f32
      linalg.fill ins(%123 : f32) outs(%peak_1 : memref<1x1xf32>)
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%bg_fc : memref<1x12xf32>) outs(%peak_1 : memref<1x1xf32>) {
      ^bb0(%124: f32, %125: f32):
        %126 = arith.maximumf %125, %124 : f32
        linalg.yield %126 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%bg_fc, %peak_1 : memref<1x12xf32>, memref<1x1xf32>) outs(%bg_probs : memref<1x12xf32>) {
      ^bb0(%127: f32, %128: f32, %129: f32):
        %130 = arith.subf %127, %128 : f32
        %131 = math.exp %130 : f32
        linalg.yield %131 : f32
      }
      %132 = arith.constant 16 : index
      %total_1 = memref.view %scratch_1[%132][] : memref<32xi8> to memref<1x1xf32>
      %133 = arith.constant 0.000000e+00 : f32
      linalg.fill ins(%133 : f32) outs(%total_1 : memref<1x1xf32>)
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%bg_probs : memref<1x12xf32>) outs(%total_1 : memref<1x1xf32>) {
      ^bb0(%134: f32, %135: f32):
        %136 = arith.addf %135, %134 : f32
        linalg.yield %136 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%total_1 : memref<1x1xf32>) outs(%bg_probs : memref<1x12xf32>) {
      ^bb0(%137: f32, %138: f32):
        %139 = arith.divf %138, %137 : f32
        linalg.yield %139 : f32
      }
      "memref.copy"(%bg_probs, %out_probs) : (memref<1x12xf32>, memref<1x12xf32>) -> ()
    }
    func.return
  }
  func.func @load_resident_main() attributes {cfmem.init_of = "main", llvm.emit_c_interface} {
    %0 = memref.get_global @arena_main : memref<802272xi8>
    %1 = arith.constant 0 : index
    %2 = memref.view %0[%1][] : memref<802272xi8> to memref<769984xi8>
    %3 = memref.get_global @weights : memref<771392xi8>
    %4 = arith.constant 576 : index
    %5 = memref.view %3[%1][] : memref<771392xi8> to memref<576xi8>
    %6 = memref.view %2[%1][] : memref<769984xi8> to memref<576xi8>
    "memref.copy"(%5, %6) : (memref<576xi8>, memref<576xi8>) -> ()
    %7 = memref.get_global @weights : memref<771392xi8>
    %8 = arith.constant 64 : index
    %9 = arith.constant 1 : index
    %10 = memref.view %7[%4][] : memref<771392xi8> to memref<64xi8>
    %11 = memref.view %2[%4][] : memref<769984xi8> to memref<64xi8>
    "memref.copy"(%10, %11) : (memref<64xi8>, memref<64xi8>) -> ()
    %12 = memref.get_global @weights : memref<771392xi8>
    %13 = arith.constant 640 : index
    %14 = arith.constant 768000 : index
    %15 = arith.constant 2 : index
    %16 = memref.view %12[%13][] : memref<771392xi8> to memref<768000xi8>
    %17 = memref.view %2[%13][] : memref<769984xi8> to memref<768000xi8>
    "memref.copy"(%16, %17) : (memref<768000xi8>, memref<768000xi8>) -> ()
    %18 = memref.get_global @weights : memref<771392xi8>
    %19 = arith.constant 768640 : index
    %20 = arith.constant 96 : index
    %21 = arith.constant 3 : index
    %22 = memref.view %18[%19][] : memref<771392xi8> to memref<96xi8>
    %23 = memref.view %2[%19][] : memref<769984xi8> to memref<96xi8>
    "memref.copy"(%22, %23) : (memref<96xi8>, memref<96xi8>) -> ()
    %24 = memref.get_global @weights : memref<771392xi8>
    %25 = arith.constant 768960 : index
    %26 = arith.constant 768768 : index
    %27 = arith.constant 1152 : index
    %28 = arith.constant 4 : index
    %29 = memref.view %24[%25][] : memref<771392xi8> to memref<1152xi8>
    %30 = memref.view %2[%26][] : memref<769984xi8> to memref<1152xi8>
    "memref.copy"(%29, %30) : (memref<1152xi8>, memref<1152xi8>) -> ()
    %31 = memref.get_global @weights : memref<771392xi8>
    %32 = arith.constant 770112 : index
    %33 = arith.constant 769920 : index
    %34 = arith.constant 48 : index
    %35 = arith.constant 5 : index
    %36 = memref.view %31[%32][] : memref<771392xi8> to memref<48xi8>
    %37 = memref.view %2[%33][] : memref<769984xi8> to memref<48xi8>
    "memref.copy"(%36, %37) : (memref<48xi8>, memref<48xi8>) -> ()
    func.return
  }
}