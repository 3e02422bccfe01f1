builtin.module {
  "memref.global"() <{sym_name = "cst_main_0", type = memref<1xf32>, initial_value = dense<6.000000e-01> : tensor<1xf32>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "weights", type = memref<449728xi8>, initial_value = dense<"0x~9bd23074e3d4684d"> : tensor<449728xi8>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "arena_main", type = memref<1377793xi8>, initial_value, sym_visibility = "private"}> : () -> ()
  func.func @main(%mfcc: memref<1x1x49x40xf32>, %out_score: memref<1x1xf32>, %out_probs: memref<1x12xf32>) attributes {cfmem.dma_depth = 3 : i64, cfmem.arena_size = 1377793 : i64, cfmem.lower_bound = 1377793 : i64, cfmem.plan = "exact/auto", cfmem.aliases = "reshape,slice,inplace,concat,yield", cfmem.onchip_budget = 2097152 : i64, cfmem.init = "load_resident_main", cfmem.output_names = ["score", "probs"], llvm.emit_c_interface} {
    %arena = memref.get_global @arena_main : memref<1377793xi8>
    %c0 = arith.constant 0 : index
    %c320 = arith.constant 320 : index
    %c384 = arith.constant 384 : index
    %c4992 = arith.constant 4992 : index
    %c5056 = arith.constant 5056 : index
    %c5120 = arith.constant 5120 : index
    %c5184 = arith.constant 5184 : index
    %c7488 = arith.constant 7488 : index
    %c7744 = arith.constant 7744 : index
    %c10048 = arith.constant 10048 : index
    %c10304 = arith.constant 10304 : index
    %c26688 = arith.constant 26688 : index
    %c26944 = arith.constant 26944 : index
    %c29248 = arith.constant 29248 : index
    %c29504 = arith.constant 29504 : index
    %c45888 = arith.constant 45888 : index
    %c46144 = arith.constant 46144 : index
    %c341056 = arith.constant 341056 : index
    %c341568 = arith.constant 341568 : index
    %c346176 = arith.constant 346176 : index
    %c346688 = arith.constant 346688 : index
    %c412224 = arith.constant 412224 : index
    %c412736 = arith.constant 412736 : index
    %c445504 = arith.constant 445504 : index
    %c445760 = arith.constant 445760 : index
    %c448832 = arith.constant 448832 : index
    %c448896 = arith.constant 448896 : index
    %c449664 = arith.constant 449664 : index
    %c24320 = arith.constant 24320 : index
    %c64 = arith.constant 64 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %c1364992 = arith.constant 1364992 : index
    %c7360 = arith.constant 7360 : index
    %c16000 = arith.constant 16000 : index
    %c1377728 = arith.constant 1377728 : index
    %c1377792 = arith.constant 1377792 : index
    %c1298944 = arith.constant 1298944 : index
    %c1003520 = arith.constant 1003520 : index
    %c1372608 = arith.constant 1372608 : index
    %c2304 = arith.constant 2304 : index
    %c256 = arith.constant 256 : index
    %c16384 = arith.constant 16384 : index
    %c501760 = arith.constant 501760 : index
    %c294912 = arith.constant 294912 : index
    %c512 = arith.constant 512 : index
    %c4608 = arith.constant 4608 : index
    %c65536 = arith.constant 65536 : index
    %c32768 = arith.constant 32768 : index
    %c3072 = arith.constant 3072 : index
    %c48 = arith.constant 48 : index
    %c256000 = arith.constant 256000 : index
    %c96 = arith.constant 96 : index
    %c768 = arith.constant 768 : index
    %c832 = arith.constant 832 : index
    %weights = memref.get_global @weights : memref<449728xi8>
    %dma0 = memref.view %arena[%c24320][] {cfmem.tensor = "dma0"} : memref<1377793xi8> to memref<128xi8>
    %0 = memref.view %weights[%c5056][] : memref<449728xi8> to memref<64xi8>
    %1 = memref.view %dma0[%c0][] : memref<128xi8> to memref<64xi8>
    "memref.copy"(%0, %1) : (memref<64xi8>, memref<64xi8>) -> ()
    %2 = memref.view %weights[%c5120][] : memref<449728xi8> to memref<4xi8>
    %3 = memref.view %dma0[%c64][] : memref<128xi8> to memref<4xi8>
    "memref.copy"(%2, %3) : (memref<4xi8>, memref<4xi8>) -> ()
    %resident = memref.view %arena[%c1364992][] {cfmem.tensor = "resident"} : memref<1377793xi8> to memref<7616xi8>
    %det1_w_sram = memref.view %resident[%c0][] {cfmem.tensor = "det1_w_sram"} : memref<7616xi8> to memref<8x1x3x3xf32>
    %det1_b_sram = memref.view %resident[%c320][] {cfmem.tensor = "det1_b_sram"} : memref<7616xi8> to memref<8xf32>
    %det2_w_sram = memref.view %resident[%c384][] {cfmem.tensor = "det2_w_sram"} : memref<7616xi8> to memref<16x8x3x3xf32>
    %det2_b_sram = memref.view %resident[%c4992][] {cfmem.tensor = "det2_b_sram"} : memref<7616xi8> to memref<16xf32>
    %ver1_w_sram = memref.view %resident[%c5056][] {cfmem.tensor = "ver1_w_sram"} : memref<7616xi8> to memref<64x1x3x3xf32>
    %ver1_b_sram = memref.view %resident[%c7360][] {cfmem.tensor = "ver1_b_sram"} : memref<7616xi8> to memref<64xf32>
    %det1 = memref.view %arena[%c0][] {cfmem.tensor = "det1"} : memref<1377793xi8> to memref<1x8x25x20xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%det1_b_sram : memref<8xf32>) outs(%det1 : memref<1x8x25x20xf32>) {
    ^bb0(%4: f32, %5: f32):
      linalg.yield %4 : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%det1_w_sram : memref<8x1x3x3xf32>) outs(%det1 : memref<1x8x25x20xf32>) {
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
    %det1_out = memref.view %arena[%c0][] {cfmem.tensor = "det1_out"} : memref<1377793xi8> to memref<1x8x25x20xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%det1 : memref<1x8x25x20xf32>) outs(%det1_out : memref<1x8x25x20xf32>) {
    ^bb0(%50: f32, %51: f32):
      %52 = arith.constant 0.000000e+00 : f32
      %53 = arith.maximumf %50, %52 : f32
      linalg.yield %53 : f32
    }
    %det2 = memref.view %arena[%c16000][] {cfmem.tensor = "det2"} : memref<1377793xi8> to memref<1x16x13x10xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%det2_b_sram : memref<16xf32>) outs(%det2 : memref<1x16x13x10xf32>) {
    ^bb0(%54: f32, %55: f32):
      linalg.yield %54 : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%det2_w_sram : memref<16x8x3x3xf32>) outs(%det2 : memref<1x16x13x10xf32>) {
    ^bb0(%56: f32, %57: f32):
      %58 = linalg.index 0 : index
      %59 = linalg.index 1 : index
      %60 = linalg.index 2 : index
      %61 = linalg.index 3 : index
      %62 = linalg.index 4 : index
      %63 = linalg.index 5 : index
      %64 = linalg.index 6 : index
      %65 = arith.constant 2 : index
      %66 = arith.muli %60, %65 : index
      %67 = arith.constant 1 : index
      %68 = arith.muli %63, %67 : index
      %69 = arith.addi %66, %68 : index
      %70 = arith.constant 2 : index
      %71 = arith.muli %61, %70 : index
      %72 = arith.constant 1 : index
      %73 = arith.muli %64, %72 : index
      %74 = arith.addi %71, %73 : index
      %75 = arith.constant 0 : index
      %76 = arith.constant 1 : index
      %77 = arith.subi %69, %76 : index
      %78 = arith.cmpi sge, %77, %75 : index
      %79 = arith.constant 25 : index
      %80 = arith.cmpi slt, %77, %79 : index
      %81 = arith.andi %78, %80 : i1
      %82 = arith.maxsi %77, %75 : index
      %83 = arith.constant 24 : index
      %84 = arith.minsi %82, %83 : index
      %85 = arith.constant 1 : index
      %86 = arith.subi %74, %85 : index
      %87 = arith.cmpi sge, %86, %75 : index
      %88 = arith.constant 20 : index
      %89 = arith.cmpi slt, %86, %88 : index
      %90 = arith.andi %87, %89 : i1
      %91 = arith.andi %81, %90 : i1
      %92 = arith.maxsi %86, %75 : index
      %93 = arith.constant 19 : index
      %94 = arith.minsi %92, %93 : index
      %95 = memref.load %det1_out[%58, %62, %84, %94] : memref<1x8x25x20xf32>
      %96 = arith.constant 0.000000e+00 : f32
      %97 = arith.select %91, %95, %96 : f32
      %98 = arith.mulf %97, %56 : f32
      %99 = arith.addf %57, %98 : f32
      linalg.yield %99 : f32
    }
    %det2_out = memref.view %arena[%c16000][] {cfmem.tensor = "det2_out"} : memref<1377793xi8> to memref<1x16x13x10xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%det2 : memref<1x16x13x10xf32>) outs(%det2_out : memref<1x16x13x10xf32>) {
    ^bb0(%100: f32, %101: f32):
      %102 = arith.constant 0.000000e+00 : f32
      %103 = arith.maximumf %100, %102 : f32
      linalg.yield %103 : f32
    }
    %det_pool = memref.view %arena[%c1377728][] {cfmem.tensor = "det_pool"} : memref<1377793xi8> to memref<1x16x1x1xf32>
    %104 = arith.constant 0.000000e+00 : f32
    linalg.fill ins(%104 : f32) outs(%det_pool : memref<1x16x1x1xf32>)
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%det2_out : memref<1x16x13x10xf32>) outs(%det_pool : memref<1x16x1x1xf32>) {
    ^bb0(%105: f32, %106: f32):
      %107 = arith.addf %106, %105 : f32
      linalg.yield %107 : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%det_pool : memref<1x16x1x1xf32>) {
    ^bb0(%108: f32):
      %109 = arith.constant 1.300000e+02 : f32
      %110 = arith.divf %108, %109 : f32
      linalg.yield %110 : f32
    }
    %det_feat = memref.view %arena[%c1377728][] {cfmem.tensor = "det_feat", cfmem.reads = ["det_pool"]} : memref<1377793xi8> to memref<1x16xf32>
    %det_fc_w_sram = memref.view %dma0[%c0][] {cfmem.tensor = "det_fc_w_sram"} : memref<128xi8> to memref<1x16xf32>
    %det_fc_b_sram = memref.view %dma0[%c64][] {cfmem.tensor = "det_fc_b_sram"} : memref<128xi8> to memref<1xf32>
    %det_fc = memref.view %arena[%c0][] {cfmem.tensor = "det_fc"} : memref<1377793xi8> to memref<1x1xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%det_fc_b_sram : memref<1xf32>) outs(%det_fc : memref<1x1xf32>) {
    ^bb0(%111: f32, %112: f32):
      linalg.yield %111 : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%det_feat, %det_fc_w_sram : memref<1x16xf32>, memref<1x16xf32>) outs(%det_fc : memref<1x1xf32>) {
    ^bb0(%113: f32, %114: f32, %115: f32):
      %116 = arith.mulf %113, %114 : f32
      %117 = arith.addf %115, %116 : f32
      linalg.yield %117 : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%det_fc : memref<1x1xf32>) outs(%out_score : memref<1x1xf32>) {
    ^bb0(%118: f32, %119: f32):
      %120 = arith.constant 1.000000e+00 : f32
      %121 = arith.negf %118 : f32
      %122 = math.exp %121 : f32
      %123 = arith.addf %120, %122 : f32
      %124 = arith.divf %120, %123 : f32
      linalg.yield %124 : f32
    }
    %hit_b = memref.get_global @cst_main_0 : memref<1xf32>
    %hit = memref.view %arena[%c1377792][] {cfmem.tensor = "hit"} : memref<1377793xi8> to memref<1x1xi8>
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%out_score, %hit_b : memref<1x1xf32>, memref<1xf32>) outs(%hit : memref<1x1xi8>) {
    ^bb0(%125: f32, %126: f32, %127: i8):
      %128 = arith.cmpf ogt, %125, %126 : f32
      %129 = arith.extui %128 : i1 to i8
      linalg.yield %129 : i8
    }
    %130 = memref.load %hit[%c0, %c0] : memref<1x1xi8>
    %131 = arith.trunci %130 : i8 to i1
    scf.if %131 {
      %dma0_1 = memref.view %arena[%c1298944][] {cfmem.tensor = "dma0_1"} : memref<1377793xi8> to memref<66048xi8>
      %dma1 = memref.view %arena[%c1003520][] {cfmem.tensor = "dma1"} : memref<1377793xi8> to memref<295424xi8>
      %dma2 = memref.view %arena[%c1372608][] {cfmem.tensor = "dma2"} : memref<1377793xi8> to memref<5120xi8>
      %132 = memref.view %weights[%c7744][] : memref<449728xi8> to memref<2304xi8>
      %133 = memref.view %dma0_1[%c0][] : memref<66048xi8> to memref<2304xi8>
      "memref.copy"(%132, %133) : (memref<2304xi8>, memref<2304xi8>) -> ()
      %134 = memref.view %weights[%c10048][] : memref<449728xi8> to memref<256xi8>
      %135 = memref.view %dma0_1[%c2304][] : memref<66048xi8> to memref<256xi8>
      "memref.copy"(%134, %135) : (memref<256xi8>, memref<256xi8>) -> ()
      %136 = memref.view %weights[%c10304][] : memref<449728xi8> to memref<16384xi8>
      %137 = memref.view %dma1[%c0][] : memref<295424xi8> to memref<16384xi8>
      "memref.copy"(%136, %137) : (memref<16384xi8>, memref<16384xi8>) -> ()
      %138 = memref.view %weights[%c26688][] : memref<449728xi8> to memref<256xi8>
      %139 = memref.view %dma1[%c16384][] : memref<295424xi8> to memref<256xi8>
      "memref.copy"(%138, %139) : (memref<256xi8>, memref<256xi8>) -> ()
      %ver1 = memref.view %arena[%c0][] {cfmem.tensor = "ver1"} : memref<1377793xi8> to memref<1x64x49x40xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ver1_b_sram : memref<64xf32>) outs(%ver1 : memref<1x64x49x40xf32>) {
      ^bb0(%140: f32, %141: f32):
        linalg.yield %140 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%ver1_w_sram : memref<64x1x3x3xf32>) outs(%ver1 : memref<1x64x49x40xf32>) {
      ^bb0(%142: f32, %143: f32):
        %144 = linalg.index 0 : index
        %145 = linalg.index 1 : index
        %146 = linalg.index 2 : index
        %147 = linalg.index 3 : index
        %148 = linalg.index 4 : index
        %149 = linalg.index 5 : index
        %150 = linalg.index 6 : index
        %151 = arith.constant 1 : index
        %152 = arith.muli %146, %151 : index
        %153 = arith.constant 1 : index
        %154 = arith.muli %149, %153 : index
        %155 = arith.addi %152, %154 : index
        %156 = arith.constant 1 : index
        %157 = arith.muli %147, %156 : index
        %158 = arith.constant 1 : index
        %159 = arith.muli %150, %158 : index
        %160 = arith.addi %157, %159 : index
        %161 = arith.constant 0 : index
        %162 = arith.constant 1 : index
        %163 = arith.subi %155, %162 : index
        %164 = arith.cmpi sge, %163, %161 : index
        %165 = arith.constant 49 : index
        %166 = arith.cmpi slt, %163, %165 : index
        %167 = arith.andi %164, %166 : i1
        %168 = arith.maxsi %163, %161 : index
        %169 = arith.constant 48 : index
        %170 = arith.minsi %168, %169 : index
        %171 = arith.constant 1 : index
        %172 = arith.subi %160, %171 : index
        %173 = arith.cmpi sge, %172, %161 : index
        %174 = arith.constant 40 : index
        %175 = arith.cmpi slt, %172, %174 : index
        %176 = arith.andi %173, %175 : i1
        %177 = arith.andi %167, %176 : i1
        %178 = arith.maxsi %172, %161 : index
        %179 = arith.constant 39 : index
        %180 = arith.minsi %178, %179 : index
        %181 = memref.load %mfcc[%144, %148, %170, %180] : memref<1x1x49x40xf32>
        %182 = arith.constant 0.000000e+00 : f32
        %183 = arith.select %177, %181, %182 : f32
        %184 = arith.mulf %183, %142 : f32
        %185 = arith.addf %143, %184 : f32
        linalg.yield %185 : f32
      }
      %ver1_out = memref.view %arena[%c0][] {cfmem.tensor = "ver1_out"} : memref<1377793xi8> to memref<1x64x49x40xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ver1 : memref<1x64x49x40xf32>) outs(%ver1_out : memref<1x64x49x40xf32>) {
      ^bb0(%186: f32, %187: f32):
        %188 = arith.constant 0.000000e+00 : f32
        %189 = arith.maximumf %186, %188 : f32
        linalg.yield %189 : f32
      }
      %ver2_dw_w_sram = memref.view %dma0_1[%c0][] {cfmem.tensor = "ver2_dw_w_sram"} : memref<66048xi8> to memref<64x1x3x3xf32>
      %ver2_dw_b_sram = memref.view %dma0_1[%c2304][] {cfmem.tensor = "ver2_dw_b_sram"} : memref<66048xi8> to memref<64xf32>
      %190 = memref.view %weights[%c26944][] : memref<449728xi8> to memref<2304xi8>
      %191 = memref.view %dma2[%c0][] : memref<5120xi8> to memref<2304xi8>
      "memref.copy"(%190, %191) : (memref<2304xi8>, memref<2304xi8>) -> ()
      %192 = memref.view %weights[%c29248][] : memref<449728xi8> to memref<256xi8>
      %193 = memref.view %dma2[%c2304][] : memref<5120xi8> to memref<256xi8>
      "memref.copy"(%192, %193) : (memref<256xi8>, memref<256xi8>) -> ()
      %ver2_dw = memref.view %arena[%c501760][] {cfmem.tensor = "ver2_dw"} : memref<1377793xi8> to memref<1x64x49x40xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ver2_dw_b_sram : memref<64xf32>) outs(%ver2_dw : memref<1x64x49x40xf32>) {
      ^bb0(%194: f32, %195: f32):
        linalg.yield %194 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%ver2_dw_w_sram : memref<64x1x3x3xf32>) outs(%ver2_dw : memref<1x64x49x40xf32>) {
      ^bb0(%196: f32, %197: f32):
        %198 = linalg.index 0 : index
        %199 = linalg.index 1 : index
        %200 = linalg.index 2 : index
        %201 = linalg.index 3 : index
        %202 = linalg.index 4 : index
        %203 = linalg.index 5 : index
        %204 = linalg.index 6 : index
        %205 = arith.constant 1 : index
        %206 = arith.muli %199, %205 : index
        %207 = arith.addi %206, %202 : index
        %208 = arith.constant 1 : index
        %209 = arith.muli %200, %208 : index
        %210 = arith.constant 1 : index
        %211 = arith.muli %203, %210 : index
        %212 = arith.addi %209, %211 : index
        %213 = arith.constant 1 : index
        %214 = arith.muli %201, %213 : index
        %215 = arith.constant 1 : index
        %216 = arith.muli %204, %215 : index
        %217 = arith.addi %214, %216 : index
        %218 = arith.constant 0 : index
        %219 = arith.constant 1 : index
        %220 = arith.subi %212, %219 : index
        %221 = arith.cmpi sge, %220, %218 : index
        %222 = arith.constant 49 : index
        %223 = arith.cmpi slt, %220, %222 : index
        %224 = arith.andi %221, %223 : i1
        %225 = arith.maxsi %220, %218 : index
        %226 = arith.constant 48 : index
        %227 = arith.minsi %225, %226 : index
        %228 = arith.constant 1 : index
        %229 = arith.subi %217, %228 : index
        %230 = arith.cmpi sge, %229, %218 : index
        %231 = arith.constant 40 : index
        %232 = arith.cmpi slt, %229, %231 : index
        %233 = arith.andi %230, %232 : i1
        %234 = arith.andi %224, %233 : i1
        %235 = arith.maxsi %229, %218 : index
        %236 = arith.constant 39 : index
        %237 = arith.minsi %235, %236 : index
        %238 = memref.load %ver1_out[%198, %207, %227, %237] : memref<1x64x49x40xf32>
        %239 = arith.constant 0.000000e+00 : f32
        %240 = arith.select %234, %238, %239 : f32
        %241 = arith.mulf %240, %196 : f32
        %242 = arith.addf %197, %241 : f32
        linalg.yield %242 : f32
      }
      %ver2_dwr = memref.view %arena[%c501760][] {cfmem.tensor = "ver2_dwr"} : memref<1377793xi8> to memref<1x64x49x40xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ver2_dw : memref<1x64x49x40xf32>) outs(%ver2_dwr : memref<1x64x49x40xf32>) {
      ^bb0(%243: f32, %244: f32):
        %245 = arith.constant 0.000000e+00 : f32
        %246 = arith.maximumf %243, %245 : f32
        linalg.yield %246 : f32
      }
      %ver2_pw_w_sram = memref.view %dma1[%c0][] {cfmem.tensor = "ver2_pw_w_sram"} : memref<295424xi8> to memref<64x64x1x1xf32>
      %ver2_pw_b_sram = memref.view %dma1[%c16384][] {cfmem.tensor = "ver2_pw_b_sram"} : memref<295424xi8> to memref<64xf32>
      %247 = memref.view %weights[%c29504][] : memref<449728xi8> to memref<16384xi8>
      %248 = memref.view %dma0_1[%c0][] : memref<66048xi8> to memref<16384xi8>
      "memref.copy"(%247, %248) : (memref<16384xi8>, memref<16384xi8>) -> ()
      %249 = memref.view %weights[%c45888][] : memref<449728xi8> to memref<256xi8>
      %250 = memref.view %dma0_1[%c16384][] : memref<66048xi8> to memref<256xi8>
      "memref.copy"(%249, %250) : (memref<256xi8>, memref<256xi8>) -> ()
      %ver2_pw = memref.view %arena[%c0][] {cfmem.tensor = "ver2_pw"} : memref<1377793xi8> to memref<1x64x49x40xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ver2_pw_b_sram : memref<64xf32>) outs(%ver2_pw : memref<1x64x49x40xf32>) {
      ^bb0(%251: f32, %252: f32):
        linalg.yield %251 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, (d2 + d5), (d3 + d6))>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%ver2_dwr, %ver2_pw_w_sram : memref<1x64x49x40xf32>, memref<64x64x1x1xf32>) outs(%ver2_pw : memref<1x64x49x40xf32>) {
      ^bb0(%253: f32, %254: f32, %255: f32):
        %256 = arith.mulf %253, %254 : f32
        %257 = arith.addf %255, %256 : f32
        linalg.yield %257 : f32
      }
      %ver2_out = memref.view %arena[%c0][] {cfmem.tensor = "ver2_out"} : memref<1377793xi8> to memref<1x64x49x40xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ver2_pw : memref<1x64x49x40xf32>) outs(%ver2_out : memref<1x64x49x40xf32>) {
      ^bb0(%258: f32, %259: f32):
        %260 = arith.constant 0.000000e+00 : f32
        %261 = arith.maximumf %258, %260 : f32
        linalg.yield %261 : f32
      }
      %ver3_dw_w_sram = memref.view %dma2[%c0][] {cfmem.tensor = "ver3_dw_w_sram"} : memref<5120xi8> to memref<64x1x3x3xf32>
      %ver3_dw_b_sram = memref.view %dma2[%c2304][] {cfmem.tensor = "ver3_dw_b_sram"} : memref<5120xi8> to memref<64xf32>
      %262 = memref.view %weights[%c46144][] : memref<449728xi8> to memref<294912xi8>
      %263 = memref.view %dma1[%c0][] : memref<295424xi8> to memref<294912xi8>
      "memref.copy"(%262, %263) : (memref<294912xi8>, memref<294912xi8>) -> ()
      %264 = memref.view %weights[%c341056][] : memref<449728xi8> to memref<512xi8>
      %265 = memref.view %dma1[%c294912][] : memref<295424xi8> to memref<512xi8>
      "memref.copy"(%264, %265) : (memref<512xi8>, memref<512xi8>) -> ()
      %ver3_dw = memref.view %arena[%c501760][] {cfmem.tensor = "ver3_dw"} : memref<1377793xi8> to memref<1x64x49x40xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ver3_dw_b_sram : memref<64xf32>) outs(%ver3_dw : memref<1x64x49x40xf32>) {
      ^bb0(%266: f32, %267: f32):
        linalg.yield %266 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%ver3_dw_w_sram : memref<64x1x3x3xf32>) outs(%ver3_dw : memref<1x64x49x40xf32>) {
      ^bb0(%268: f32, %269: f32):
        %270 = linalg.index 0 : index
        %271 = linalg.index 1 : index
        %272 = linalg.index 2 : index
        %273 = linalg.index 3 : index
        %274 = linalg.index 4 : index
        %275 = linalg.index 5 : index
        %276 = linalg.index 6 : index
        %277 = arith.constant 1 : index
        %278 = arith.muli %271, %277 : index
        %279 = arith.addi %278, %274 : index
        %280 = arith.constant 1 : index
        %281 = arith.muli %272, %280 : index
        %282 = arith.constant 1 : index
        %283 = arith.muli %275, %282 : index
        %284 = arith.addi %281, %283 : index
        %285 = arith.constant 1 : index
        %286 = arith.muli %273, %285 : index
        %287 = arith.constant 1 : index
        %288 = arith.muli %276, %287 : index
        %289 = arith.addi %286, %288 : index
        %290 = arith.constant 0 : index
        %291 = arith.constant 1 : index
        %292 = arith.subi %284, %291 : index
        %293 = arith.cmpi sge, %292, %290 : index
        %294 = arith.constant 49 : index
        %295 = arith.cmpi slt, %292, %294 : index
        %296 = arith.andi %293, %295 : i1
        %297 = arith.maxsi %292, %290 : index
        %298 = arith.constant 48 : index
        %299 = arith.minsi %297, %298 : index
        %300 = arith.constant 1 : index
        %301 = arith.subi %289, %300 : index
        %302 = arith.cmpi sge, %301, %290 : index
        %303 = arith.constant 40 : index
        %304 = arith.cmpi slt, %301, %303 : index
        %305 = arith.andi %302, %304 : i1
        %306 = arith.andi %296, %305 : i1
        %307 = arith.maxsi %301, %290 : index
        %308 = arith.constant 39 : index
        %309 = arith.minsi %307, %308 : index
        %310 = memref.load %ver2_out[%270, %279, %299, %309] : memref<1x64x49x40xf32>
        %311 = arith.constant 0.000000e+00 : f32
        %312 = arith.select %306, %310, %311 : f32
        %313 = arith.mulf %312, %268 : f32
        %314 = arith.addf %269, %313 : f32
        linalg.yield %314 : f32
      }
      %ver3_dwr = memref.view %arena[%c501760][] {cfmem.tensor = "ver3_dwr"} : memref<1377793xi8> to memref<1x64x49x40xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ver3_dw : memref<1x64x49x40xf32>) outs(%ver3_dwr : memref<1x64x49x40xf32>) {
      ^bb0(%315: f32, %316: f32):
        %317 = arith.constant 0.000000e+00 : f32
        %318 = arith.maximumf %315, %317 : f32
        linalg.yield %318 : f32
      }
      %ver3_pw_w_sram = memref.view %dma0_1[%c0][] {cfmem.tensor = "ver3_pw_w_sram"} : memref<66048xi8> to memref<64x64x1x1xf32>
      %ver3_pw_b_sram = memref.view %dma0_1[%c16384][] {cfmem.tensor = "ver3_pw_b_sram"} : memref<66048xi8> to memref<64xf32>
      %319 = memref.view %weights[%c341568][] : memref<449728xi8> to memref<4608xi8>
      %320 = memref.view %dma2[%c0][] : memref<5120xi8> to memref<4608xi8>
      "memref.copy"(%319, %320) : (memref<4608xi8>, memref<4608xi8>) -> ()
      %321 = memref.view %weights[%c346176][] : memref<449728xi8> to memref<512xi8>
      %322 = memref.view %dma2[%c4608][] : memref<5120xi8> to memref<512xi8>
      "memref.copy"(%321, %322) : (memref<512xi8>, memref<512xi8>) -> ()
      %ver3_pw = memref.view %arena[%c0][] {cfmem.tensor = "ver3_pw"} : memref<1377793xi8> to memref<1x64x49x40xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ver3_pw_b_sram : memref<64xf32>) outs(%ver3_pw : memref<1x64x49x40xf32>) {
      ^bb0(%323: f32, %324: f32):
        linalg.yield %323 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, (d2 + d5), (d3 + d6))>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%ver3_dwr, %ver3_pw_w_sram : memref<1x64x49x40xf32>, memref<64x64x1x1xf32>) outs(%ver3_pw : memref<1x64x49x40xf32>) {
      ^bb0(%325: f32, %326: f32, %327: f32):
        %328 = arith.mulf %325, %326 : f32
        %329 = arith.addf %327, %328 : f32
        linalg.yield %329 : f32
      }
      %ver3_out = memref.view %arena[%c0][] {cfmem.tensor = "ver3_out"} : memref<1377793xi8> to memref<1x64x49x40xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ver3_pw : memref<1x64x49x40xf32>) outs(%ver3_out : memref<1x64x49x40xf32>) {
      ^bb0(%330: f32, %331: f32):
        %332 = arith.constant 0.000000e+00 : f32
        %333 = arith.maximumf %330, %332 : f32
        linalg.yield %333 : f32
      }
      %ver4_w_sram = memref.view %dma1[%c0][] {cfmem.tensor = "ver4_w_sram"} : memref<295424xi8> to memref<128x64x3x3xf32>
      %ver4_b_sram = memref.view %dma1[%c294912][] {cfmem.tensor = "ver4_b_sram"} : memref<295424xi8> to memref<128xf32>
      %334 = memref.view %weights[%c346688][] : memref<449728xi8> to memref<65536xi8>
      %335 = memref.view %dma0_1[%c0][] : memref<66048xi8> to memref<65536xi8>
      "memref.copy"(%334, %335) : (memref<65536xi8>, memref<65536xi8>) -> ()
      %336 = memref.view %weights[%c412224][] : memref<449728xi8> to memref<512xi8>
      %337 = memref.view %dma0_1[%c65536][] : memref<66048xi8> to memref<512xi8>
      "memref.copy"(%336, %337) : (memref<512xi8>, memref<512xi8>) -> ()
      %ver4 = memref.view %arena[%c501760][] {cfmem.tensor = "ver4"} : memref<1377793xi8> to memref<1x128x25x20xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ver4_b_sram : memref<128xf32>) outs(%ver4 : memref<1x128x25x20xf32>) {
      ^bb0(%338: f32, %339: f32):
        linalg.yield %338 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%ver4_w_sram : memref<128x64x3x3xf32>) outs(%ver4 : memref<1x128x25x20xf32>) {
      ^bb0(%340: f32, %341: f32):
        %342 = linalg.index 0 : index
        %343 = linalg.index 1 : index
        %344 = linalg.index 2 : index
        %345 = linalg.index 3 : index
        %346 = linalg.index 4 : index
        %347 = linalg.index 5 : index
        %348 = linalg.index 6 : index
        %349 = arith.constant 2 : index
        %350 = arith.muli %344, %349 : index
        %351 = arith.constant 1 : index
        %352 = arith.muli %347, %351 : index
        %353 = arith.addi %350, %352 : index
        %354 = arith.constant 2 : index
        %355 = arith.muli %345, %354 : index
        %356 = arith.constant 1 : index
        %357 = arith.muli %348, %356 : index
        %358 = arith.addi %355, %357 : index
        %359 = arith.constant 0 : index
        %360 = arith.constant 1 : index
        %361 = arith.subi %353, %360 : index
        %362 = arith.cmpi sge, %361, %359 : index
        %363 = arith.constant 49 : index
        %364 = arith.cmpi slt, %361, %363 : index
        %365 = arith.andi %362, %364 : i1
        %366 = arith.maxsi %361, %359 : index
        %367 = arith.constant 48 : index
        %368 = arith.minsi %366, %367 : index
        %369 = arith.constant 1 : index
        %370 = arith.subi %358, %369 : index
        %371 = arith.cmpi sge, %370, %359 : index
        %372 = arith.constant 40 : index
        %373 = arith.cmpi slt, %370, %372 : index
        %374 = arith.andi %371, %373 : i1
        %375 = arith.andi %365, %374 : i1
        %376 = arith.maxsi %370, %359 : index
        %377 = arith.constant 39 : index
        %378 = arith.minsi %376, %377 : index
        %379 = memref.load %ver3_out[%342, %346, %368, %378] : memref<1x64x49x40xf32>
        %380 = arith.constant 0.000000e+00 : f32
        %381 = arith.select %375, %379, %380 : f32
        %382 = arith.mulf %381, %340 : f32
        %383 = arith.addf %341, %382 : f32
        linalg.yield %383 : f32
      }
      %ver4_out = memref.view %arena[%c501760][] {cfmem.tensor = "ver4_out"} : memref<1377793xi8> to memref<1x128x25x20xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ver4 : memref<1x128x25x20xf32>) outs(%ver4_out : memref<1x128x25x20xf32>) {
      ^bb0(%384: f32, %385: f32):
        %386 = arith.constant 0.000000e+00 : f32
        %387 = arith.maximumf %384, %386 : f32
        linalg.yield %387 : f32
      }
      %ver5_dw_w_sram = memref.view %dma2[%c0][] {cfmem.tensor = "ver5_dw_w_sram"} : memref<5120xi8> to memref<128x1x3x3xf32>
      %ver5_dw_b_sram = memref.view %dma2[%c4608][] {cfmem.tensor = "ver5_dw_b_sram"} : memref<5120xi8> to memref<128xf32>
      %388 = memref.view %weights[%c412736][] : memref<449728xi8> to memref<32768xi8>
      %389 = memref.view %dma1[%c0][] : memref<295424xi8> to memref<32768xi8>
      "memref.copy"(%388, %389) : (memref<32768xi8>, memref<32768xi8>) -> ()
      %390 = memref.view %weights[%c445504][] : memref<449728xi8> to memref<256xi8>
      %391 = memref.view %dma1[%c32768][] : memref<295424xi8> to memref<256xi8>
      "memref.copy"(%390, %391) : (memref<256xi8>, memref<256xi8>) -> ()
      %ver5_dw = memref.view %arena[%c0][] {cfmem.tensor = "ver5_dw"} : memref<1377793xi8> to memref<1x128x25x20xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ver5_dw_b_sram : memref<128xf32>) outs(%ver5_dw : memref<1x128x25x20xf32>) {
      ^bb0(%392: f32, %393: f32):
        linalg.yield %392 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%ver5_dw_w_sram : memref<128x1x3x3xf32>) outs(%ver5_dw : memref<1x128x25x20xf32>) {
      ^bb0(%394: f32, %395: f32):
        %396 = linalg.index 0 : index
        %397 = linalg.index 1 : index
        %398 = linalg.index 2 : index
        %399 = linalg.index 3 : index
        %400 = linalg.index 4 : index
        %401 = linalg.index 5 : index
        %402 = linalg.index 6 : index
        %403 = arith.constant 1 : index
        %404 = arith.muli %397, %403 : index
        %405 = arith.addi %404, %400 : index
        %406 = arith.constant 1 : index
        %407 = arith.muli %398, %406 : index
        %408 = arith.constant 1 : index
        %409 = arith.muli %401, %408 : index
        %410 = arith.addi %407, %409 : index
        %411 = arith.constant 1 : index
        %412 = arith.muli %399, %411 : index
        %413 = arith.constant 1 : index
        %414 = arith.muli %402, %413 : index
        %415 = arith.addi %412, %414 : index
        %416 = arith.constant 0 : index
        %417 = arith.constant 1 : index
        %418 = arith.subi %410, %417 : index
        %419 = arith.cmpi sge, %418, %416 : index
        %420 = arith.constant 25 : index
        %421 = arith.cmpi slt, %418, %420 : index
        %422 = arith.andi %419, %421 : i1
        %423 = arith.maxsi %418, %416 : index
        %424 = arith.constant 24 : index
        %425 = arith.minsi %423, %424 : index
        %426 = arith.constant 1 : index
        %427 = arith.subi %415, %426 : index
        %428 = arith.cmpi sge, %427, %416 : index
        %429 = arith.constant 20 : index
        %430 = arith.cmpi slt, %427, %429 : index
        %431 = arith.andi %428, %430 : i1
        %432 = arith.andi %422, %431 : i1
        %433 = arith.maxsi %427, %416 : index
        %434 = arith.constant 19 : index
        %435 = arith.minsi %433, %434 : index
        %436 = memref.load %ver4_out[%396, %405, %425, %435] : memref<1x128x25x20xf32>
        %437 = arith.constant 0.000000e+00 : f32
        %438 = arith.select %432, %436, %437 : f32
        %439 = arith.mulf %438, %394 : f32
        %440 = arith.addf %395, %439 : f32
        linalg.yield %440 : f32
      }
      %ver5_dwr = memref.view %arena[%c0][] {cfmem.tensor = "ver5_dwr"} : memref<1377793xi8> to memref<1x128x25x20xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ver5_dw : memref<1x128x25x20xf32>) outs(%ver5_dwr : memref<1x128x25x20xf32>) {
      ^bb0(%441: f32, %442: f32):
        %443 = arith.constant 0.000000e+00 : f32
        %444 = arith.maximumf %441, %443 : f32
        linalg.yield %444 : f32
      }
      %ver5_pw_w_sram = memref.view %dma0_1[%c0][] {cfmem.tensor = "ver5_pw_w_sram"} : memref<66048xi8> to memref<128x128x1x1xf32>
      %ver5_pw_b_sram = memref.view %dma0_1[%c65536][] {cfmem.tensor = "ver5_pw_b_sram"} : memref<66048xi8> to memref<128xf32>
      %445 = memref.view %weights[%c445760][] : memref<449728xi8> to memref<3072xi8>
      %446 = memref.view %dma2[%c0][] : memref<5120xi8> to memref<3072xi8>
      "memref.copy"(%445, %446) : (memref<3072xi8>, memref<3072xi8>) -> ()
      %447 = memref.view %weights[%c448832][] : memref<449728xi8> to memref<48xi8>
      %448 = memref.view %dma2[%c3072][] : memref<5120xi8> to memref<48xi8>
      "memref.copy"(%447, %448) : (memref<48xi8>, memref<48xi8>) -> ()
      %ver5_pw = memref.view %arena[%c256000][] {cfmem.tensor = "ver5_pw"} : memref<1377793xi8> to memref<1x128x25x20xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ver5_pw_b_sram : memref<128xf32>) outs(%ver5_pw : memref<1x128x25x20xf32>) {
      ^bb0(%449: f32, %450: f32):
        linalg.yield %449 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, (d2 + d5), (d3 + d6))>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%ver5_dwr, %ver5_pw_w_sram : memref<1x128x25x20xf32>, memref<128x128x1x1xf32>) outs(%ver5_pw : memref<1x128x25x20xf32>) {
      ^bb0(%451: f32, %452: f32, %453: f32):
        %454 = arith.mulf %451, %452 : f32
        %455 = arith.addf %453, %454 : f32
        linalg.yield %455 : f32
      }
      %ver5_out = memref.view %arena[%c256000][] {cfmem.tensor = "ver5_out"} : memref<1377793xi8> to memref<1x128x25x20xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ver5_pw : memref<1x128x25x20xf32>) outs(%ver5_out : memref<1x128x25x20xf32>) {
      ^bb0(%456: f32, %457: f32):
        %458 = arith.constant 0.000000e+00 : f32
        %459 = arith.maximumf %456, %458 : f32
        linalg.yield %459 : f32
      }
      %ver_pool = memref.view %arena[%c0][] {cfmem.tensor = "ver_pool"} : memref<1377793xi8> to memref<1x128x1x1xf32>
      %460 = arith.constant 0.000000e+00 : f32
      linalg.fill ins(%460 : f32) outs(%ver_pool : memref<1x128x1x1xf32>)
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%ver5_out : memref<1x128x25x20xf32>) outs(%ver_pool : memref<1x128x1x1xf32>) {
      ^bb0(%461: f32, %462: f32):
        %463 = arith.addf %462, %461 : f32
        linalg.yield %463 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%ver_pool : memref<1x128x1x1xf32>) {
      ^bb0(%464: f32):
        %465 = arith.constant 5.000000e+02 : f32
        %466 = arith.divf %464, %465 : f32
        linalg.yield %466 : f32
      }
      %ver_feat = memref.view %arena[%c0][] {cfmem.tensor = "ver_feat", cfmem.reads = ["ver_pool"]} : memref<1377793xi8> to memref<1x128xf32>
      %ver_fc1_w_sram = memref.view %dma1[%c0][] {cfmem.tensor = "ver_fc1_w_sram"} : memref<295424xi8> to memref<64x128xf32>
      %ver_fc1_b_sram = memref.view %dma1[%c32768][] {cfmem.tensor = "ver_fc1_b_sram"} : memref<295424xi8> to memref<64xf32>
      %ver_fc1 = memref.view %arena[%c512][] {cfmem.tensor = "ver_fc1"} : memref<1377793xi8> to memref<1x64xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%ver_fc1_b_sram : memref<64xf32>) outs(%ver_fc1 : memref<1x64xf32>) {
      ^bb0(%467: f32, %468: f32):
        linalg.yield %467 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ver_feat, %ver_fc1_w_sram : memref<1x128xf32>, memref<64x128xf32>) outs(%ver_fc1 : memref<1x64xf32>) {
      ^bb0(%469: f32, %470: f32, %471: f32):
        %472 = arith.mulf %469, %470 : f32
        %473 = arith.addf %471, %472 : f32
        linalg.yield %473 : f32
      }
      %ver_fc1_out = memref.view %arena[%c512][] {cfmem.tensor = "ver_fc1_out"} : memref<1377793xi8> to memref<1x64xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%ver_fc1 : memref<1x64xf32>) outs(%ver_fc1_out : memref<1x64xf32>) {
      ^bb0(%474: f32, %475: f32):
        %476 = arith.constant 0.000000e+00 : f32
        %477 = arith.maximumf %474, %476 : f32
        linalg.yield %477 : f32
      }
      %ver_fc2_w_sram = memref.view %dma2[%c0][] {cfmem.tensor = "ver_fc2_w_sram"} : memref<5120xi8> to memref<12x64xf32>
      %ver_fc2_b_sram = memref.view %dma2[%c3072][] {cfmem.tensor = "ver_fc2_b_sram"} : memref<5120xi8> to memref<12xf32>
      %ver_fc2 = memref.view %arena[%c0][] {cfmem.tensor = "ver_fc2"} : memref<1377793xi8> to memref<1x12xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%ver_fc2_b_sram : memref<12xf32>) outs(%ver_fc2 : memref<1x12xf32>) {
      ^bb0(%478: f32, %479: f32):
        linalg.yield %478 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ver_fc1_out, %ver_fc2_w_sram : memref<1x64xf32>, memref<12x64xf32>) outs(%ver_fc2 : memref<1x12xf32>) {
      ^bb0(%480: f32, %481: f32, %482: f32):
        %483 = arith.mulf %480, %481 : f32
        %484 = arith.addf %482, %483 : f32
        linalg.yield %484 : f32
      }
      %ver_probs = memref.view %arena[%c48][] {cfmem.tensor = "ver_probs"} : memref<1377793xi8> to memref<1x12xf32>
      %scratch = memref.view %arena[%c96][] {cfmem.tensor = "ver_probs#scratch"} : memref<1377793xi8> to memref<32xi8>
      %485 = arith.constant 0 : index
      %peak = memref.view %scratch[%485][] : memref<32xi8> to memref<1x1xf32>
      %486 = arith.constant 0xff800000 : f32
      linalg.fill ins(%486 : f32) outs(%peak : memref<1x1xf32>)
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%ver_fc2 : memref<1x12xf32>) outs(%peak : memref<1x1xf32>) {
      ^bb0(%487: f32, %488: f32):
        %489 = arith.maximumf %488, %487 : f32
        linalg.yield %489 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%ver_fc2, %peak : memref<1x12xf32>, memref<1x1xf32>) outs(%ver_probs : memref<1x12xf32>) {
      ^bb0(%490: f32, %491: f32, %492: f32):
        %493 = arith.subf %490, %491 : f32
        %494 = math.exp %493 : f32
        linalg.yield %494 : f32
      }
      %495 = arith.constant 16 : index
      %total = memref.view %scratch[%495][] : memref<32xi8> to memref<1x1xf32>
      %496 = arith.constant 0.000000e+00 : f32
      linalg.fill ins(%496 : f32) outs(%total : memref<1x1xf32>)
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%ver_probs : memref<1x12xf32>) outs(%total : memref<1x1xf32>) {
      ^bb0(%497: f32, %498: f32):
        %499 = arith.addf %498, %497 : f32
        linalg.yield %499 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%total : memref<1x1xf32>) outs(%ver_probs : memref<1x12xf32>) {
      ^bb0(%500: f32, %501: f32):
        %502 = arith.divf %501, %500 : f32
        linalg.yield %502 : f32
      }
      "memref.copy"(%ver_probs, %out_probs) : (memref<1x12xf32>, memref<1x12xf32>) -> ()
    } else {
      %dma0_2 = memref.view %arena[%c0][] {cfmem.tensor = "dma0_2"} : memref<1377793xi8> to memref<832xi8>
      %503 = memref.view %weights[%c448896][] : memref<449728xi8> to memref<768xi8>
      %504 = memref.view %dma0_2[%c0][] : memref<832xi8> to memref<768xi8>
      "memref.copy"(%503, %504) : (memref<768xi8>, memref<768xi8>) -> ()
      %505 = memref.view %weights[%c449664][] : memref<449728xi8> to memref<48xi8>
      %506 = memref.view %dma0_2[%c768][] : memref<832xi8> to memref<48xi8>
      "memref.copy"(%505, %506) : (memref<48xi8>, memref<48xi8>) -> ()
      %rej_fc_w_sram = memref.view %dma0_2[%c0][] {cfmem.tensor = "rej_fc_w_sram"} : memref<832xi8> to memref<12x16xf32>
      %rej_fc_b_sram = memref.view %dma0_2[%c768][] {cfmem.tensor = "rej_fc_b_sram"} : memref<832xi8> to memref<12xf32>
      %rej_fc = memref.view %arena[%c832][] {cfmem.tensor = "rej_fc"} : memref<1377793xi8> to memref<1x12xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%rej_fc_b_sram : memref<12xf32>) outs(%rej_fc : memref<1x12xf32>) {
      ^bb0(%507: f32, %508: f32):
        linalg.yield %507 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%det_feat, %rej_fc_w_sram : memref<1x16xf32>, memref<12x16xf32>) outs(%rej_fc : memref<1x12xf32>) {
      ^bb0(%509: f32, %510: f32, %511: f32):
        %512 = arith.mulf %509, %510 : f32
        %513 = arith.addf %511, %512 : f32
        linalg.yield %513 : f32
      }
      %rej_probs = memref.view %arena[%c0][] {cfmem.tensor = "rej_probs"} : memref<1377793xi8> to memref<1x12xf32>
      %scratch_1 = memref.view %arena[%c48][] {cfmem.tensor = "rej_probs#scratch"} : memref<1377793xi8> to memref<32xi8>
      %514 = arith.constant 0 : index
      %peak_1 = memref.view %scratch_1[%514][] : memref<32xi8> to memref<1x1xf32>
      %515 = arith.constant 0xff800000 : f32
      linalg.fill ins(%515 : f32) outs(%peak_1 : memref<1x1xf32>)
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%rej_fc : memref<1x12xf32>) outs(%peak_1 : memref<1x1xf32>) {
      ^bb0(%516: f32, %517: f32):
        %518 = arith.maximumf %517, %516 : f32
        linalg.yield %518 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%rej_fc, %peak_1 : memref<1x12xf32>, memref<1x1xf32>) outs(%rej_probs : memref<1x12xf32>) {
      ^bb0(%519: f32, %520: f32, %521: f32):
        %522 = arith.subf %519, %520 : f32
        %523 = math.exp %522 : f32
        linalg.yield %523 : f32
      }
      %524 = arith.constant 16 : index
      %total_1 = memref.view %scratch_1[%524][] : memref<32xi8> to memref<1x1xf32>
      %525 = arith.constant 0.000000e+00 : f32
      linalg.fill ins(%525 : f32) outs(%total_1 : memref<1x1xf32>)
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%rej_probs : memref<1x12xf32>) outs(%total_1 : memref<1x1xf32>) {
      ^bb0(%526: f32, %527: f32):
        %528 = arith.addf %527, %526 : f32
        linalg.yield %528 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%total_1 : memref<1x1xf32>) outs(%rej_probs : memref<1x12xf32>) {
      ^bb0(%529: f32, %530: f32):
        %531 = arith.divf %530, %529 : f32
        linalg.yield %531 : f32
      }
      "memref.copy"(%rej_probs, %out_probs) : (memref<1x12xf32>, memref<1x12xf32>) -> ()
    }
    func.return
  }
  func.func @load_resident_main() attributes {cfmem.init_of = "main", llvm.emit_c_interface} {
    %0 = memref.get_global @arena_main : memref<1377793xi8>
    %1 = arith.constant 1364992 : index
    %2 = memref.view %0[%1][] : memref<1377793xi8> to memref<7616xi8>
    %3 = memref.get_global @weights : memref<449728xi8>
    %4 = arith.constant 0 : index
    %5 = arith.constant 288 : index
    %6 = memref.view %3[%4][] : memref<449728xi8> to memref<288xi8>
    %7 = memref.view %2[%4][] : memref<7616xi8> to memref<288xi8>
    "memref.copy"(%6, %7) : (memref<288xi8>, memref<288xi8>) -> ()
    %8 = memref.get_global @weights : memref<449728xi8>
    %9 = arith.constant 320 : index
    %10 = arith.constant 32 : index
    %11 = arith.constant 1 : index
    %12 = memref.view %8[%9][] : memref<449728xi8> to memref<32xi8>
    %13 = memref.view %2[%9][] : memref<7616xi8> to memref<32xi8>
    "memref.copy"(%12, %13) : (memref<32xi8>, memref<32xi8>) -> ()
    %14 = memref.get_global @weights : memref<449728xi8>
    %15 = arith.constant 384 : index
    %16 = arith.constant 4608 : index
    %17 = arith.constant 2 : index
    %18 = memref.view %14[%15][] : memref<449728xi8> to memref<4608xi8>
    %19 = memref.view %2[%15][] : memref<7616xi8> to memref<4608xi8>
    "memref.copy"(%18, %19) : (memref<4608xi8>, memref<4608xi8>) -> ()
    %20 = memref.get_global @weights : memref<449728xi8>
    %21 = arith.constant 4992 : index
    %22 = arith.constant 64 : index
    %23 = arith.constant 3 : index
    %24 = memref.view %20[%21][] : memref<449728xi8> to memref<64xi8>
    %25 = memref.view %2[%21][] : memref<7616xi8> to memref<64xi8>
    "memref.copy"(%24, %25) : (memref<64xi8>, memref<64xi8>) -> ()
    %26 = memref.get_global @weights : memref<449728xi8>
    %27 = arith.constant 5184 : index
    %28 = arith.constant 5056 : index
    %29 = arith.constant 2304 : index
    %30 = arith.constant 4 : index
    %31 = memref.view %26[%27][] : memref<449728xi8> to memref<2304xi8>
    %32 = memref.view %2[%28][] : memref<7616xi8> to memref<2304xi8>
    "memref.copy"(%31, %32) : (memref<2304xi8>, memref<2304xi8>) -> ()
    %33 = memref.get_global @weights : memref<449728xi8>
    %34 = arith.constant 7488 : index
    %35 = arith.constant 7360 : index
    %36 = arith.constant 256 : index
    %37 = arith.constant 5 : index
    %38 = memref.view %33[%34][] : memref<449728xi8> to memref<256xi8>
    %39 = memref.view %2[%35][] : memref<7616xi8> to memref<256xi8>
    "memref.copy"(%38, %39) : (memref<256xi8>, memref<256xi8>) -> ()
    func.return
  }
}