builtin.module {
  "memref.global"() <{sym_name = "weights", type = memref<191808xi8>, initial_value = dense<"0x~0b3acfcfb24f14f2"> : tensor<191808xi8>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "arena_main", type = memref<828352xi8>, initial_value, sym_visibility = "private"}> : () -> ()
  func.func @main(%image: memref<1x3x128x128xf32>, %out_scores: memref<1x896xf32>, %out_boxes: memref<1x3584xf32>) attributes {cfmem.dma_depth = 7 : i64, cfmem.arena_size = 828352 : i64, cfmem.lower_bound = 828352 : i64, cfmem.plan = "exact/auto", cfmem.aliases = "reshape,slice,inplace,concat,yield", cfmem.onchip_budget = 2097152 : i64, cfmem.init = "load_resident_main", cfmem.output_names = ["scores", "boxes"], llvm.emit_c_interface} {
    %arena = memref.get_global @arena_main : memref<828352xi8>
    %c0 = arith.constant 0 : index
    %c1728 = arith.constant 1728 : index
    %c1792 = arith.constant 1792 : index
    %c2368 = arith.constant 2368 : index
    %c2432 = arith.constant 2432 : index
    %c3968 = arith.constant 3968 : index
    %c4096 = arith.constant 4096 : index
    %c4992 = arith.constant 4992 : index
    %c5120 = arith.constant 5120 : index
    %c8192 = arith.constant 8192 : index
    %c8320 = arith.constant 8320 : index
    %c9472 = arith.constant 9472 : index
    %c9600 = arith.constant 9600 : index
    %c17792 = arith.constant 17792 : index
    %c18048 = arith.constant 18048 : index
    %c20352 = arith.constant 20352 : index
    %c20608 = arith.constant 20608 : index
    %c36992 = arith.constant 36992 : index
    %c37248 = arith.constant 37248 : index
    %c39552 = arith.constant 39552 : index
    %c39808 = arith.constant 39808 : index
    %c64384 = arith.constant 64384 : index
    %c64768 = arith.constant 64768 : index
    %c69376 = arith.constant 69376 : index
    %c69440 = arith.constant 69440 : index
    %c90176 = arith.constant 90176 : index
    %c90240 = arith.constant 90240 : index
    %c108672 = arith.constant 108672 : index
    %c108736 = arith.constant 108736 : index
    %c191680 = arith.constant 191680 : index
    %c802688 = arith.constant 802688 : index
    %c824000 = arith.constant 824000 : index
    %c738432 = arith.constant 738432 : index
    %c819328 = arith.constant 819328 : index
    %c763392 = arith.constant 763392 : index
    %c784192 = arith.constant 784192 : index
    %c655360 = arith.constant 655360 : index
    %c576 = arith.constant 576 : index
    %c64 = arith.constant 64 : index
    %c1 = arith.constant 1 : index
    %c1536 = arith.constant 1536 : index
    %c96 = arith.constant 96 : index
    %c864 = arith.constant 864 : index
    %c896 = arith.constant 896 : index
    %c3072 = arith.constant 3072 : index
    %c128 = arith.constant 128 : index
    %c1152 = arith.constant 1152 : index
    %c256 = arith.constant 256 : index
    %c826560 = arith.constant 826560 : index
    %c2304 = arith.constant 2304 : index
    %c393216 = arith.constant 393216 : index
    %c16384 = arith.constant 16384 : index
    %c131072 = arith.constant 131072 : index
    %c24576 = arith.constant 24576 : index
    %c384 = arith.constant 384 : index
    %c4608 = arith.constant 4608 : index
    %c8 = arith.constant 8 : index
    %c20736 = arith.constant 20736 : index
    %c24 = arith.constant 24 : index
    %c18432 = arith.constant 18432 : index
    %c32 = arith.constant 32 : index
    %c65536 = arith.constant 65536 : index
    %c82944 = arith.constant 82944 : index
    %c90112 = arith.constant 90112 : index
    %c98304 = arith.constant 98304 : index
    %c100352 = arith.constant 100352 : index
    %c6144 = arith.constant 6144 : index
    %weights = memref.get_global @weights : memref<191808xi8>
    %dma0 = memref.view %arena[%c802688][] {cfmem.tensor = "dma0"} : memref<828352xi8> to memref<16640xi8>
    %dma1 = memref.view %arena[%c824000][] {cfmem.tensor = "dma1"} : memref<828352xi8> to memref<2560xi8>
    %dma2 = memref.view %arena[%c738432][] {cfmem.tensor = "dma2"} : memref<828352xi8> to memref<24960xi8>
    %dma3 = memref.view %arena[%c819328][] {cfmem.tensor = "dma3"} : memref<828352xi8> to memref<4672xi8>
    %dma4 = memref.view %arena[%c763392][] {cfmem.tensor = "dma4"} : memref<828352xi8> to memref<20800xi8>
    %dma5 = memref.view %arena[%c784192][] {cfmem.tensor = "dma5"} : memref<828352xi8> to memref<18496xi8>
    %dma6 = memref.view %arena[%c655360][] {cfmem.tensor = "dma6"} : memref<828352xi8> to memref<83072xi8>
    %0 = memref.view %weights[%c1792][] : memref<191808xi8> to memref<576xi8>
    %1 = memref.view %dma0[%c0][] : memref<16640xi8> to memref<576xi8>
    "memref.copy"(%0, %1) : (memref<576xi8>, memref<576xi8>) -> ()
    %2 = memref.view %weights[%c2368][] : memref<191808xi8> to memref<64xi8>
    %3 = memref.view %dma0[%c576][] : memref<16640xi8> to memref<64xi8>
    "memref.copy"(%2, %3) : (memref<64xi8>, memref<64xi8>) -> ()
    %4 = memref.view %weights[%c2432][] : memref<191808xi8> to memref<1536xi8>
    %5 = memref.view %dma1[%c0][] : memref<2560xi8> to memref<1536xi8>
    "memref.copy"(%4, %5) : (memref<1536xi8>, memref<1536xi8>) -> ()
    %6 = memref.view %weights[%c3968][] : memref<191808xi8> to memref<96xi8>
    %7 = memref.view %dma1[%c1536][] : memref<2560xi8> to memref<96xi8>
    "memref.copy"(%6, %7) : (memref<96xi8>, memref<96xi8>) -> ()
    %8 = memref.view %weights[%c4096][] : memref<191808xi8> to memref<864xi8>
    %9 = memref.view %dma2[%c0][] : memref<24960xi8> to memref<864xi8>
    "memref.copy"(%8, %9) : (memref<864xi8>, memref<864xi8>) -> ()
    %10 = memref.view %weights[%c4992][] : memref<191808xi8> to memref<96xi8>
    %11 = memref.view %dma2[%c896][] : memref<24960xi8> to memref<96xi8>
    "memref.copy"(%10, %11) : (memref<96xi8>, memref<96xi8>) -> ()
    %12 = memref.view %weights[%c5120][] : memref<191808xi8> to memref<3072xi8>
    %13 = memref.view %dma3[%c0][] : memref<4672xi8> to memref<3072xi8>
    "memref.copy"(%12, %13) : (memref<3072xi8>, memref<3072xi8>) -> ()
    %14 = memref.view %weights[%c8192][] : memref<191808xi8> to memref<128xi8>
    %15 = memref.view %dma3[%c3072][] : memref<4672xi8> to memref<128xi8>
    "memref.copy"(%14, %15) : (memref<128xi8>, memref<128xi8>) -> ()
    %16 = memref.view %weights[%c8320][] : memref<191808xi8> to memref<1152xi8>
    %17 = memref.view %dma4[%c0][] : memref<20800xi8> to memref<1152xi8>
    "memref.copy"(%16, %17) : (memref<1152xi8>, memref<1152xi8>) -> ()
    %18 = memref.view %weights[%c9472][] : memref<191808xi8> to memref<128xi8>
    %19 = memref.view %dma4[%c1152][] : memref<20800xi8> to memref<128xi8>
    "memref.copy"(%18, %19) : (memref<128xi8>, memref<128xi8>) -> ()
    %20 = memref.view %weights[%c9600][] : memref<191808xi8> to memref<8192xi8>
    %21 = memref.view %dma5[%c0][] : memref<18496xi8> to memref<8192xi8>
    "memref.copy"(%20, %21) : (memref<8192xi8>, memref<8192xi8>) -> ()
    %22 = memref.view %weights[%c17792][] : memref<191808xi8> to memref<256xi8>
    %23 = memref.view %dma5[%c8192][] : memref<18496xi8> to memref<256xi8>
    "memref.copy"(%22, %23) : (memref<256xi8>, memref<256xi8>) -> ()
    %resident = memref.view %arena[%c826560][] {cfmem.tensor = "resident"} : memref<828352xi8> to memref<1792xi8>
    %stem_w_sram = memref.view %resident[%c0][] {cfmem.tensor = "stem_w_sram"} : memref<1792xi8> to memref<16x3x3x3xf32>
    %stem_b_sram = memref.view %resident[%c1728][] {cfmem.tensor = "stem_b_sram"} : memref<1792xi8> to memref<16xf32>
    %stem = memref.view %arena[%c0][] {cfmem.tensor = "stem"} : memref<828352xi8> to memref<1x16x64x64xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%stem_b_sram : memref<16xf32>) outs(%stem : memref<1x16x64x64xf32>) {
    ^bb0(%24: f32, %25: f32):
      linalg.yield %24 : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%stem_w_sram : memref<16x3x3x3xf32>) outs(%stem : memref<1x16x64x64xf32>) {
    ^bb0(%26: f32, %27: f32):
      %28 = linalg.index 0 : index
      %29 = linalg.index 1 : index
      %30 = linalg.index 2 : index
      %31 = linalg.index 3 : index
      %32 = linalg.index 4 : index
      %33 = linalg.index 5 : index
      %34 = linalg.index 6 : index
      %35 = arith.constant 2 : index
      %36 = arith.muli %30, %35 : index
      %37 = arith.constant 1 : index
      %38 = arith.muli %33, %37 : index
      %39 = arith.addi %36, %38 : index
      %40 = arith.constant 2 : index
      %41 = arith.muli %31, %40 : index
      %42 = arith.constant 1 : index
      %43 = arith.muli %34, %42 : index
      %44 = arith.addi %41, %43 : index
      %45 = arith.constant 0 : index
      %46 = arith.constant 1 : index
      %47 = arith.subi %39, %46 : index
      %48 = arith.cmpi sge, %47, %45 : index
      %49 = arith.constant 128 : index
      %50 = arith.cmpi slt, %47, %49 : index
      %51 = arith.andi %48, %50 : i1
      %52 = arith.maxsi %47, %45 : index
      %53 = arith.constant 127 : index
      %54 = arith.minsi %52, %53 : index
      %55 = arith.constant 1 : index
      %56 = arith.subi %44, %55 : index
      %57 = arith.cmpi sge, %56, %45 : index
      %58 = arith.constant 128 : index
      %59 = arith.cmpi slt, %56, %58 : index
      %60 = arith.andi %57, %59 : i1
      %61 = arith.andi %51, %60 : i1
      %62 = arith.maxsi %56, %45 : index
      %63 = arith.constant 127 : index
      %64 = arith.minsi %62, %63 : index
      %65 = memref.load %image[%28, %32, %54, %64] : memref<1x3x128x128xf32>
      %66 = arith.constant 0.000000e+00 : f32
      %67 = arith.select %61, %65, %66 : f32
      %68 = arith.mulf %67, %26 : f32
      %69 = arith.addf %27, %68 : f32
      linalg.yield %69 : f32
    }
    %stem_out = memref.view %arena[%c0][] {cfmem.tensor = "stem_out"} : memref<828352xi8> to memref<1x16x64x64xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%stem : memref<1x16x64x64xf32>) outs(%stem_out : memref<1x16x64x64xf32>) {
    ^bb0(%70: f32, %71: f32):
      %72 = arith.constant 0.000000e+00 : f32
      %73 = arith.maximumf %70, %72 : f32
      linalg.yield %73 : f32
    }
    %b1_dw_w_sram = memref.view %dma0[%c0][] {cfmem.tensor = "b1_dw_w_sram"} : memref<16640xi8> to memref<16x1x3x3xf32>
    %b1_dw_b_sram = memref.view %dma0[%c576][] {cfmem.tensor = "b1_dw_b_sram"} : memref<16640xi8> to memref<16xf32>
    %74 = memref.view %weights[%c18048][] : memref<191808xi8> to memref<2304xi8>
    %75 = memref.view %dma6[%c0][] : memref<83072xi8> to memref<2304xi8>
    "memref.copy"(%74, %75) : (memref<2304xi8>, memref<2304xi8>) -> ()
    %76 = memref.view %weights[%c20352][] : memref<191808xi8> to memref<256xi8>
    %77 = memref.view %dma6[%c2304][] : memref<83072xi8> to memref<256xi8>
    "memref.copy"(%76, %77) : (memref<256xi8>, memref<256xi8>) -> ()
    %b1_dw = memref.view %arena[%c393216][] {cfmem.tensor = "b1_dw"} : memref<828352xi8> to memref<1x16x64x64xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b1_dw_b_sram : memref<16xf32>) outs(%b1_dw : memref<1x16x64x64xf32>) {
    ^bb0(%78: f32, %79: f32):
      linalg.yield %78 : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%b1_dw_w_sram : memref<16x1x3x3xf32>) outs(%b1_dw : memref<1x16x64x64xf32>) {
    ^bb0(%80: f32, %81: f32):
      %82 = linalg.index 0 : index
      %83 = linalg.index 1 : index
      %84 = linalg.index 2 : index
      %85 = linalg.index 3 : index
      %86 = linalg.index 4 : index
      %87 = linalg.index 5 : index
      %88 = linalg.index 6 : index
      %89 = arith.constant 1 : index
      %90 = arith.muli %83, %89 : index
      %91 = arith.addi %90, %86 : index
      %92 = arith.constant 1 : index
      %93 = arith.muli %84, %92 : index
      %94 = arith.constant 1 : index
      %95 = arith.muli %87, %94 : index
      %96 = arith.addi %93, %95 : index
      %97 = arith.constant 1 : index
      %98 = arith.muli %85, %97 : index
      %99 = arith.constant 1 : index
      %100 = arith.muli %88, %99 : index
      %101 = arith.addi %98, %100 : index
      %102 = arith.constant 0 : index
      %103 = arith.constant 1 : index
      %104 = arith.subi %96, %103 : index
      %105 = arith.cmpi sge, %104, %102 : index
      %106 = arith.constant 64 : index
      %107 = arith.cmpi slt, %104, %106 : index
      %108 = arith.andi %105, %107 : i1
      %109 = arith.maxsi %104, %102 : index
      %110 = arith.constant 63 : index
      %111 = arith.minsi %109, %110 : index
      %112 = arith.constant 1 : index
      %113 = arith.subi %101, %112 : index
      %114 = arith.cmpi sge, %113, %102 : index
      %115 = arith.constant 64 : index
      %116 = arith.cmpi slt, %113, %115 : index
      %117 = arith.andi %114, %116 : i1
      %118 = arith.andi %108, %117 : i1
      %119 = arith.maxsi %113, %102 : index
      %120 = arith.constant 63 : index
      %121 = arith.minsi %119, %120 : index
      %122 = memref.load %stem_out[%82, %91, %111, %121] : memref<1x16x64x64xf32>
      %123 = arith.constant 0.000000e+00 : f32
      %124 = arith.select %118, %122, %123 : f32
      %125 = arith.mulf %124, %80 : f32
      %126 = arith.addf %81, %125 : f32
      linalg.yield %126 : f32
    }
    %b1_dwr = memref.view %arena[%c393216][] {cfmem.tensor = "b1_dwr"} : memref<828352xi8> to memref<1x16x64x64xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b1_dw : memref<1x16x64x64xf32>) outs(%b1_dwr : memref<1x16x64x64xf32>) {
    ^bb0(%127: f32, %128: f32):
      %129 = arith.constant 0.000000e+00 : f32
      %130 = arith.maximumf %127, %129 : f32
      linalg.yield %130 : f32
    }
    %b1_pw_w_sram = memref.view %dma1[%c0][] {cfmem.tensor = "b1_pw_w_sram"} : memref<2560xi8> to memref<24x16x1x1xf32>
    %b1_pw_b_sram = memref.view %dma1[%c1536][] {cfmem.tensor = "b1_pw_b_sram"} : memref<2560xi8> to memref<24xf32>
    %131 = memref.view %weights[%c20608][] : memref<191808xi8> to memref<16384xi8>
    %132 = memref.view %dma0[%c0][] : memref<16640xi8> to memref<16384xi8>
    "memref.copy"(%131, %132) : (memref<16384xi8>, memref<16384xi8>) -> ()
    %133 = memref.view %weights[%c36992][] : memref<191808xi8> to memref<256xi8>
    %134 = memref.view %dma0[%c16384][] : memref<16640xi8> to memref<256xi8>
    "memref.copy"(%133, %134) : (memref<256xi8>, memref<256xi8>) -> ()
    %b1_pw = memref.view %arena[%c0][] {cfmem.tensor = "b1_pw"} : memref<828352xi8> to memref<1x24x64x64xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b1_pw_b_sram : memref<24xf32>) outs(%b1_pw : memref<1x24x64x64xf32>) {
    ^bb0(%135: f32, %136: f32):
      linalg.yield %135 : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, (d2 + d5), (d3 + d6))>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%b1_dwr, %b1_pw_w_sram : memref<1x16x64x64xf32>, memref<24x16x1x1xf32>) outs(%b1_pw : memref<1x24x64x64xf32>) {
    ^bb0(%137: f32, %138: f32, %139: f32):
      %140 = arith.mulf %137, %138 : f32
      %141 = arith.addf %139, %140 : f32
      linalg.yield %141 : f32
    }
    %b1_out = memref.view %arena[%c0][] {cfmem.tensor = "b1_out"} : memref<828352xi8> to memref<1x24x64x64xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b1_pw : memref<1x24x64x64xf32>) outs(%b1_out : memref<1x24x64x64xf32>) {
    ^bb0(%142: f32, %143: f32):
      %144 = arith.constant 0.000000e+00 : f32
      %145 = arith.maximumf %142, %144 : f32
      linalg.yield %145 : f32
    }
    %pool1 = memref.view %arena[%c393216][] {cfmem.tensor = "pool1"} : memref<828352xi8> to memref<1x24x32x32xf32>
    %146 = arith.constant 0x7fc00000 : f32
    linalg.fill ins(%146 : f32) outs(%pool1 : memref<1x24x32x32xf32>)
    %window = memref.subview %b1_out[0, 0, 0, 0] [1, 1, 2, 2] [1, 1, 1, 1] : memref<1x24x64x64xf32> to memref<1x1x2x2xf32, strided<[98304, 4096, 64, 1]>>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, ((d2 * 2) + d4), ((d3 * 2) + d5))>, affine_map<(d0, d1, d2, d3, d4, d5) -> (0, 0, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%b1_out, %window : memref<1x24x64x64xf32>, memref<1x1x2x2xf32, strided<[98304, 4096, 64, 1]>>) outs(%pool1 : memref<1x24x32x32xf32>) {
    ^bb0(%147: f32, %148: f32, %149: f32):
      %150 = arith.cmpf uno, %147, %147 : f32
      %151 = arith.cmpf olt, %147, %149 : f32
      %152 = arith.ori %150, %151 : i1
      %153 = arith.select %152, %149, %147 : f32
      linalg.yield %153 : f32
    }
    %b2_dw_w_sram = memref.view %dma2[%c0][] {cfmem.tensor = "b2_dw_w_sram"} : memref<24960xi8> to memref<24x1x3x3xf32>
    %b2_dw_b_sram = memref.view %dma2[%c896][] {cfmem.tensor = "b2_dw_b_sram"} : memref<24960xi8> to memref<24xf32>
    %154 = memref.view %weights[%c37248][] : memref<191808xi8> to memref<2304xi8>
    %155 = memref.view %dma1[%c0][] : memref<2560xi8> to memref<2304xi8>
    "memref.copy"(%154, %155) : (memref<2304xi8>, memref<2304xi8>) -> ()
    %156 = memref.view %weights[%c39552][] : memref<191808xi8> to memref<256xi8>
    %157 = memref.view %dma1[%c2304][] : memref<2560xi8> to memref<256xi8>
    "memref.copy"(%156, %157) : (memref<256xi8>, memref<256xi8>) -> ()
    %b2_dw = memref.view %arena[%c131072][] {cfmem.tensor = "b2_dw"} : memref<828352xi8> to memref<1x24x32x32xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b2_dw_b_sram : memref<24xf32>) outs(%b2_dw : memref<1x24x32x32xf32>) {
    ^bb0(%158: f32, %159: f32):
      linalg.yield %158 : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%b2_dw_w_sram : memref<24x1x3x3xf32>) outs(%b2_dw : memref<1x24x32x32xf32>) {
    ^bb0(%160: f32, %161: f32):
      %162 = linalg.index 0 : index
      %163 = linalg.index 1 : index
      %164 = linalg.index 2 : index
      %165 = linalg.index 3 : index
      %166 = linalg.index 4 : index
      %167 = linalg.index 5 : index
      %168 = linalg.index 6 : index
      %169 = arith.constant 1 : index
      %170 = arith.muli %163, %169 : index
      %171 = arith.addi %170, %166 : index
      %172 = arith.constant 1 : index
      %173 = arith.muli %164, %172 : index
      %174 = arith.constant 1 : index
      %175 = arith.muli %167, %174 : index
      %176 = arith.addi %173, %175 : index
      %177 = arith.constant 1 : index
      %178 = arith.muli %165, %177 : index
      %179 = arith.constant 1 : index
      %180 = arith.muli %168, %179 : index
      %181 = arith.addi %178, %180 : index
      %182 = arith.constant 0 : index
      %183 = arith.constant 1 : index
      %184 = arith.subi %176, %183 : index
      %185 = arith.cmpi sge, %184, %182 : index
      %186 = arith.constant 32 : index
      %187 = arith.cmpi slt, %184, %186 : index
      %188 = arith.andi %185, %187 : i1
      %189 = arith.maxsi %184, %182 : index
      %190 = arith.constant 31 : index
      %191 = arith.minsi %189, %190 : index
      %192 = arith.constant 1 : index
      %193 = arith.subi %181, %192 : index
      %194 = arith.cmpi sge, %193, %182 : index
      %195 = arith.constant 32 : index
      %196 = arith.cmpi slt, %193, %195 : index
      %197 = arith.andi %194, %196 : i1
      %198 = arith.andi %188, %197 : i1
      %199 = arith.maxsi %193, %182 : index
      %200 = arith.constant 31 : index
      %201 = arith.minsi %199, %200 : index
      %202 = memref.load %pool1[%162, %171, %191, %201] : memref<1x24x32x32xf32>
      %203 = arith.constant 0.000000e+00 : f32
      %204 = arith.select %198, %202, %203 : f32
      %205 = arith.mulf %204, %160 : f32
      %206 = arith.addf %161, %205 : f32
      linalg.yield %206 : f32
    }
    %b2_dwr = memref.view %arena[%c131072][] {cfmem.tensor = "b2_dwr"} : memref<828352xi8> to memref<1x24x32x32xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b2_dw : memref<1x24x32x32xf32>) outs(%b2_dwr : memref<1x24x32x32xf32>) {
    ^bb0(%207: f32, %208: f32):
      %209 = arith.constant 0.000000e+00 : f32
      %210 = arith.maximumf %207, %209 : f32
      linalg.yield %210 : f32
    }
    %b2_pw_w_sram = memref.view %dma3[%c0][] {cfmem.tensor = "b2_pw_w_sram"} : memref<4672xi8> to memref<32x24x1x1xf32>
    %b2_pw_b_sram = memref.view %dma3[%c3072][] {cfmem.tensor = "b2_pw_b_sram"} : memref<4672xi8> to memref<32xf32>
    %211 = memref.view %weights[%c39808][] : memref<191808xi8> to memref<24576xi8>
    %212 = memref.view %dma2[%c0][] : memref<24960xi8> to memref<24576xi8>
    "memref.copy"(%211, %212) : (memref<24576xi8>, memref<24576xi8>) -> ()
    %213 = memref.view %weights[%c64384][] : memref<191808xi8> to memref<384xi8>
    %214 = memref.view %dma2[%c24576][] : memref<24960xi8> to memref<384xi8>
    "memref.copy"(%213, %214) : (memref<384xi8>, memref<384xi8>) -> ()
    %b2_pw = memref.view %arena[%c0][] {cfmem.tensor = "b2_pw"} : memref<828352xi8> to memref<1x32x32x32xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b2_pw_b_sram : memref<32xf32>) outs(%b2_pw : memref<1x32x32x32xf32>) {
    ^bb0(%215: f32, %216: f32):
      linalg.yield %215 : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, (d2 + d5), (d3 + d6))>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%b2_dwr, %b2_pw_w_sram : memref<1x24x32x32xf32>, memref<32x24x1x1xf32>) outs(%b2_pw : memref<1x32x32x32xf32>) {
    ^bb0(%217: f32, %218: f32, %219: f32):
      %220 = arith.mulf %217, %218 : f32
      %221 = arith.addf %219, %220 : f32
      linalg.yield %221 : f32
    }
    %b2_out = memref.view %arena[%c0][] {cfmem.tensor = "b2_out"} : memref<828352xi8> to memref<1x32x32x32xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b2_pw : memref<1x32x32x32xf32>) outs(%b2_out : memref<1x32x32x32xf32>) {
    ^bb0(%222: f32, %223: f32):
      %224 = arith.constant 0.000000e+00 : f32
      %225 = arith.maximumf %222, %224 : f32
      linalg.yield %225 : f32
    }
    %b3_dw_w_sram = memref.view %dma4[%c0][] {cfmem.tensor = "b3_dw_w_sram"} : memref<20800xi8> to memref<32x1x3x3xf32>
    %b3_dw_b_sram = memref.view %dma4[%c1152][] {cfmem.tensor = "b3_dw_b_sram"} : memref<20800xi8> to memref<32xf32>
    %226 = memref.view %weights[%c64768][] : memref<191808xi8> to memref<4608xi8>
    %227 = memref.view %dma3[%c0][] : memref<4672xi8> to memref<4608xi8>
    "memref.copy"(%226, %227) : (memref<4608xi8>, memref<4608xi8>) -> ()
    %228 = memref.view %weights[%c69376][] : memref<191808xi8> to memref<8xi8>
    %229 = memref.view %dma3[%c4608][] : memref<4672xi8> to memref<8xi8>
    "memref.copy"(%228, %229) : (memref<8xi8>, memref<8xi8>) -> ()
    %b3_dw = memref.view %arena[%c131072][] {cfmem.tensor = "b3_dw"} : memref<828352xi8> to memref<1x32x16x16xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b3_dw_b_sram : memref<32xf32>) outs(%b3_dw : memref<1x32x16x16xf32>) {
    ^bb0(%230: f32, %231: f32):
      linalg.yield %230 : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%b3_dw_w_sram : memref<32x1x3x3xf32>) outs(%b3_dw : memref<1x32x16x16xf32>) {
    ^bb0(%232: f32, %233: f32):
      %234 = linalg.index 0 : index
      %235 = linalg.index 1 : index
      %236 = linalg.index 2 : index
      %237 = linalg.index 3 : index
      %238 = linalg.index 4 : index
      %239 = linalg.index 5 : index
      %240 = linalg.index 6 : index
      %241 = arith.constant 1 : index
      %242 = arith.muli %235, %241 : index
      %243 = arith.addi %242, %238 : index
      %244 = arith.constant 2 : index
      %245 = arith.muli %236, %244 : index
      %246 = arith.constant 1 : index
      %247 = arith.muli %239, %246 : index
      %248 = arith.addi %245, %247 : index
      %249 = arith.constant 2 : index
      %250 = arith.muli %237, %249 : index
      %251 = arith.constant 1 : index
      %252 = arith.muli %240, %251 : index
      %253 = arith.addi %250, %252 : index
      %254 = arith.constant 0 : index
      %255 = arith.constant 1 : index
      %256 = arith.subi %248, %255 : index
      %257 = arith.cmpi sge, %256, %254 : index
      %258 = arith.constant 32 : index
      %259 = arith.cmpi slt, %256, %258 : index
      %260 = arith.andi %257, %259 : i1
      %261 = arith.maxsi %256, %254 : index
      %262 = arith.constant 31 : index
      %263 = arith.minsi %261, %262 : index
      %264 = arith.constant 1 : index
      %265 = arith.subi %253, %264 : index
      %266 = arith.cmpi sge, %265, %254 : index
      %267 = arith.constant 32 : index
      %268 = arith.cmpi slt, %265, %267 : index
      %269 = arith.andi %266, %268 : i1
      %270 = arith.andi %260, %269 : i1
      %271 = arith.maxsi %265, %254 : index
      %272 = arith.constant 31 : index
      %273 = arith.minsi %271, %272 : index
      %274 = memref.load %b2_out[%234, %243, %263, %273] : memref<1x32x32x32xf32>
      %275 = arith.constant 0.000000e+00 : f32
      %276 = arith.select %270, %274, %275 : f32
      %277 = arith.mulf %276, %232 : f32
      %278 = arith.addf %233, %277 : f32
      linalg.yield %278 : f32
    }
    %b3_dwr = memref.view %arena[%c131072][] {cfmem.tensor = "b3_dwr"} : memref<828352xi8> to memref<1x32x16x16xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b3_dw : memref<1x32x16x16xf32>) outs(%b3_dwr : memref<1x32x16x16xf32>) {
    ^bb0(%279: f32, %280: f32):
      %281 = arith.constant 0.000000e+00 : f32
      %282 = arith.maximumf %279, %281 : f32
      linalg.yield %282 : f32
    }
    %b3_pw_w_sram = memref.view %dma5[%c0][] {cfmem.tensor = "b3_pw_w_sram"} : memref<18496xi8> to memref<64x32x1x1xf32>
    %b3_pw_b_sram = memref.view %dma5[%c8192][] {cfmem.tensor = "b3_pw_b_sram"} : memref<18496xi8> to memref<64xf32>
    %283 = memref.view %weights[%c69440][] : memref<191808xi8> to memref<20736xi8>
    %284 = memref.view %dma4[%c0][] : memref<20800xi8> to memref<20736xi8>
    "memref.copy"(%283, %284) : (memref<20736xi8>, memref<20736xi8>) -> ()
    %285 = memref.view %weights[%c90176][] : memref<191808xi8> to memref<24xi8>
    %286 = memref.view %dma4[%c20736][] : memref<20800xi8> to memref<24xi8>
    "memref.copy"(%285, %286) : (memref<24xi8>, memref<24xi8>) -> ()
    %b3_pw = memref.view %arena[%c0][] {cfmem.tensor = "b3_pw"} : memref<828352xi8> to memref<1x64x16x16xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b3_pw_b_sram : memref<64xf32>) outs(%b3_pw : memref<1x64x16x16xf32>) {
    ^bb0(%287: f32, %288: f32):
      linalg.yield %287 : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, (d2 + d5), (d3 + d6))>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%b3_dwr, %b3_pw_w_sram : memref<1x32x16x16xf32>, memref<64x32x1x1xf32>) outs(%b3_pw : memref<1x64x16x16xf32>) {
    ^bb0(%289: f32, %290: f32, %291: f32):
      %292 = arith.mulf %289, %290 : f32
      %293 = arith.addf %291, %292 : f32
      linalg.yield %293 : f32
    }
    %b3_out = memref.view %arena[%c0][] {cfmem.tensor = "b3_out"} : memref<828352xi8> to memref<1x64x16x16xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b3_pw : memref<1x64x16x16xf32>) outs(%b3_out : memref<1x64x16x16xf32>) {
    ^bb0(%294: f32, %295: f32):
      %296 = arith.constant 0.000000e+00 : f32
      %297 = arith.maximumf %294, %296 : f32
      linalg.yield %297 : f32
    }
    %b4_dw_w_sram = memref.view %dma6[%c0][] {cfmem.tensor = "b4_dw_w_sram"} : memref<83072xi8> to memref<64x1x3x3xf32>
    %b4_dw_b_sram = memref.view %dma6[%c2304][] {cfmem.tensor = "b4_dw_b_sram"} : memref<83072xi8> to memref<64xf32>
    %298 = memref.view %weights[%c90240][] : memref<191808xi8> to memref<18432xi8>
    %299 = memref.view %dma5[%c0][] : memref<18496xi8> to memref<18432xi8>
    "memref.copy"(%298, %299) : (memref<18432xi8>, memref<18432xi8>) -> ()
    %300 = memref.view %weights[%c108672][] : memref<191808xi8> to memref<32xi8>
    %301 = memref.view %dma5[%c18432][] : memref<18496xi8> to memref<32xi8>
    "memref.copy"(%300, %301) : (memref<32xi8>, memref<32xi8>) -> ()
    %b4_dw = memref.view %arena[%c65536][] {cfmem.tensor = "b4_dw"} : memref<828352xi8> to memref<1x64x16x16xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b4_dw_b_sram : memref<64xf32>) outs(%b4_dw : memref<1x64x16x16xf32>) {
    ^bb0(%302: f32, %303: f32):
      linalg.yield %302 : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%b4_dw_w_sram : memref<64x1x3x3xf32>) outs(%b4_dw : memref<1x64x16x16xf32>) {
    ^bb0(%304: f32, %305: f32):
      %306 = linalg.index 0 : index
      %307 = linalg.index 1 : index
      %308 = linalg.index 2 : index
      %309 = linalg.index 3 : index
      %310 = linalg.index 4 : index
      %311 = linalg.index 5 : index
      %312 = linalg.index 6 : index
      %313 = arith.constant 1 : index
      %314 = arith.muli %307, %313 : index
      %315 = arith.addi %314, %310 : index
      %316 = arith.constant 1 : index
      %317 = arith.muli %308, %316 : index
      %318 = arith.constant 1 : index
      %319 = arith.muli %311, %318 : index
      %320 = arith.addi %317, %319 : index
      %321 = arith.constant 1 : index
      %322 = arith.muli %309, %321 : index
      %323 = arith.constant 1 : index
      %324 = arith.muli %312, %323 : index
      %325 = arith.addi %322, %324 : index
      %326 = arith.constant 0 : index
      %327 = arith.constant 1 : index
      %328 = arith.subi %320, %327 : index
      %329 = arith.cmpi sge, %328, %326 : index
      %330 = arith.constant 16 : index
      %331 = arith.cmpi slt, %328, %330 : index
      %332 = arith.andi %329, %331 : i1
      %333 = arith.maxsi %328, %326 : index
      %334 = arith.constant 15 : index
      %335 = arith.minsi %333, %334 : index
      %336 = arith.constant 1 : index
      %337 = arith.subi %325, %336 : index
      %338 = arith.cmpi sge, %337, %326 : index
      %339 = arith.constant 16 : index
      %340 = arith.cmpi slt, %337, %339 : index
      %341 = arith.andi %338, %340 : i1
      %342 = arith.andi %332, %341 : i1
      %343 = arith.maxsi %337, %326 : index
      %344 = arith.constant 15 : index
      %345 = arith.minsi %343, %344 : index
      %346 = memref.load %b3_out[%306, %315, %335, %345] : memref<1x64x16x16xf32>
      %347 = arith.constant 0.000000e+00 : f32
      %348 = arith.select %342, %346, %347 : f32
      %349 = arith.mulf %348, %304 : f32
      %350 = arith.addf %305, %349 : f32
      linalg.yield %350 : f32
    }
    %b4_dwr = memref.view %arena[%c65536][] {cfmem.tensor = "b4_dwr"} : memref<828352xi8> to memref<1x64x16x16xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b4_dw : memref<1x64x16x16xf32>) outs(%b4_dwr : memref<1x64x16x16xf32>) {
    ^bb0(%351: f32, %352: f32):
      %353 = arith.constant 0.000000e+00 : f32
      %354 = arith.maximumf %351, %353 : f32
      linalg.yield %354 : f32
    }
    %b4_pw_w_sram = memref.view %dma0[%c0][] {cfmem.tensor = "b4_pw_w_sram"} : memref<16640xi8> to memref<64x64x1x1xf32>
    %b4_pw_b_sram = memref.view %dma0[%c16384][] {cfmem.tensor = "b4_pw_b_sram"} : memref<16640xi8> to memref<64xf32>
    %355 = memref.view %weights[%c108736][] : memref<191808xi8> to memref<82944xi8>
    %356 = memref.view %dma6[%c0][] : memref<83072xi8> to memref<82944xi8>
    "memref.copy"(%355, %356) : (memref<82944xi8>, memref<82944xi8>) -> ()
    %357 = memref.view %weights[%c191680][] : memref<191808xi8> to memref<96xi8>
    %358 = memref.view %dma6[%c82944][] : memref<83072xi8> to memref<96xi8>
    "memref.copy"(%357, %358) : (memref<96xi8>, memref<96xi8>) -> ()
    %b4_pw = memref.view %arena[%c131072][] {cfmem.tensor = "b4_pw"} : memref<828352xi8> to memref<1x64x16x16xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b4_pw_b_sram : memref<64xf32>) outs(%b4_pw : memref<1x64x16x16xf32>) {
    ^bb0(%359: f32, %360: f32):
      linalg.yield %359 : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, (d2 + d5), (d3 + d6))>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%b4_dwr, %b4_pw_w_sram : memref<1x64x16x16xf32>, memref<64x64x1x1xf32>) outs(%b4_pw : memref<1x64x16x16xf32>) {
    ^bb0(%361: f32, %362: f32, %363: f32):
      %364 = arith.mulf %361, %362 : f32
      %365 = arith.addf %363, %364 : f32
      linalg.yield %365 : f32
    }
    %b4_out = memref.view %arena[%c131072][] {cfmem.tensor = "b4_out"} : memref<828352xi8> to memref<1x64x16x16xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b4_pw : memref<1x64x16x16xf32>) outs(%b4_out : memref<1x64x16x16xf32>) {
    ^bb0(%366: f32, %367: f32):
      %368 = arith.constant 0.000000e+00 : f32
      %369 = arith.maximumf %366, %368 : f32
      linalg.yield %369 : f32
    }
    %res4 = memref.view %arena[%c0][] {cfmem.tensor = "res4"} : memref<828352xi8> to memref<1x64x16x16xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b3_out, %b4_out : memref<1x64x16x16xf32>, memref<1x64x16x16xf32>) outs(%res4 : memref<1x64x16x16xf32>) {
    ^bb0(%370: f32, %371: f32, %372: f32):
      %373 = arith.addf %370, %371 : f32
      linalg.yield %373 : f32
    }
    %b5_dw_w_sram = memref.view %dma1[%c0][] {cfmem.tensor = "b5_dw_w_sram"} : memref<2560xi8> to memref<64x1x3x3xf32>
    %b5_dw_b_sram = memref.view %dma1[%c2304][] {cfmem.tensor = "b5_dw_b_sram"} : memref<2560xi8> to memref<64xf32>
    %b5_dw = memref.view %arena[%c90112][] {cfmem.tensor = "b5_dw"} : memref<828352xi8> to memref<1x64x8x8xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b5_dw_b_sram : memref<64xf32>) outs(%b5_dw : memref<1x64x8x8xf32>) {
    ^bb0(%374: f32, %375: f32):
      linalg.yield %374 : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%b5_dw_w_sram : memref<64x1x3x3xf32>) outs(%b5_dw : memref<1x64x8x8xf32>) {
    ^bb0(%376: f32, %377: f32):
      %378 = linalg.index 0 : index
      %379 = linalg.index 1 : index
      %380 = linalg.index 2 : index
      %381 = linalg.index 3 : index
      %382 = linalg.index 4 : index
      %383 = linalg.index 5 : index
      %384 = linalg.index 6 : index
      %385 = arith.constant 1 : index
      %386 = arith.muli %379, %385 : index
      %387 = arith.addi %386, %382 : index
      %388 = arith.constant 2 : index
      %389 = arith.muli %380, %388 : index
      %390 = arith.constant 1 : index
      %391 = arith.muli %383, %390 : index
      %392 = arith.addi %389, %391 : index
      %393 = arith.constant 2 : index
      %394 = arith.muli %381, %393 : index
      %395 = arith.constant 1 : index
      %396 = arith.muli %384, %395 : index
      %397 = arith.addi %394, %396 : index
      %398 = arith.constant 0 : index
      %399 = arith.constant 1 : index
      %400 = arith.subi %392, %399 : index
      %401 = arith.cmpi sge, %400, %398 : index
      %402 = arith.constant 16 : index
      %403 = arith.cmpi slt, %400, %402 : index
      %404 = arith.andi %401, %403 : i1
      %405 = arith.maxsi %400, %398 : index
      %406 = arith.constant 15 : index
      %407 = arith.minsi %405, %406 : index
      %408 = arith.constant 1 : index
      %409 = arith.subi %397, %408 : index
      %410 = arith.cmpi sge, %409, %398 : index
      %411 = arith.constant 16 : index
      %412 = arith.cmpi slt, %409, %411 : index
      %413 = arith.andi %410, %412 : i1
      %414 = arith.andi %404, %413 : i1
      %415 = arith.maxsi %409, %398 : index
      %416 = arith.constant 15 : index
      %417 = arith.minsi %415, %416 : index
      %418 = memref.load %res4[%378, %387, %407, %417] : memref<1x64x16x16xf32>
      %419 = arith.constant 0.000000e+00 : f32
      %420 = arith.select %414, %418, %419 : f32
      %421 = arith.mulf %420, %376 : f32
      %422 = arith.addf %377, %421 : f32
      linalg.yield %422 : f32
    }
    %b5_dwr = memref.view %arena[%c90112][] {cfmem.tensor = "b5_dwr"} : memref<828352xi8> to memref<1x64x8x8xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b5_dw : memref<1x64x8x8xf32>) outs(%b5_dwr : memref<1x64x8x8xf32>) {
    ^bb0(%423: f32, %424: f32):
      %425 = arith.constant 0.000000e+00 : f32
      %426 = arith.maximumf %423, %425 : f32
      linalg.yield %426 : f32
    }
    %b5_pw_w_sram = memref.view %dma2[%c0][] {cfmem.tensor = "b5_pw_w_sram"} : memref<24960xi8> to memref<96x64x1x1xf32>
    %b5_pw_b_sram = memref.view %dma2[%c24576][] {cfmem.tensor = "b5_pw_b_sram"} : memref<24960xi8> to memref<96xf32>
    %b5_pw = memref.view %arena[%c65536][] {cfmem.tensor = "b5_pw"} : memref<828352xi8> to memref<1x96x8x8xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b5_pw_b_sram : memref<96xf32>) outs(%b5_pw : memref<1x96x8x8xf32>) {
    ^bb0(%427: f32, %428: f32):
      linalg.yield %427 : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, (d2 + d5), (d3 + d6))>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%b5_dwr, %b5_pw_w_sram : memref<1x64x8x8xf32>, memref<96x64x1x1xf32>) outs(%b5_pw : memref<1x96x8x8xf32>) {
    ^bb0(%429: f32, %430: f32, %431: f32):
      %432 = arith.mulf %429, %430 : f32
      %433 = arith.addf %431, %432 : f32
      linalg.yield %433 : f32
    }
    %b5_out = memref.view %arena[%c65536][] {cfmem.tensor = "b5_out"} : memref<828352xi8> to memref<1x96x8x8xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b5_pw : memref<1x96x8x8xf32>) outs(%b5_out : memref<1x96x8x8xf32>) {
    ^bb0(%434: f32, %435: f32):
      %436 = arith.constant 0.000000e+00 : f32
      %437 = arith.maximumf %434, %436 : f32
      linalg.yield %437 : f32
    }
    %cls16_w_sram = memref.view %dma3[%c0][] {cfmem.tensor = "cls16_w_sram"} : memref<4672xi8> to memref<2x64x3x3xf32>
    %cls16_b_sram = memref.view %dma3[%c4608][] {cfmem.tensor = "cls16_b_sram"} : memref<4672xi8> to memref<2xf32>
    %cls16 = memref.view %arena[%c98304][] {cfmem.tensor = "cls16"} : memref<828352xi8> to memref<1x2x16x16xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cls16_b_sram : memref<2xf32>) outs(%cls16 : memref<1x2x16x16xf32>) {
    ^bb0(%438: f32, %439: f32):
      linalg.yield %438 : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%cls16_w_sram : memref<2x64x3x3xf32>) outs(%cls16 : memref<1x2x16x16xf32>) {
    ^bb0(%440: f32, %441: f32):
      %442 = linalg.index 0 : index
      %443 = linalg.index 1 : index
      %444 = linalg.index 2 : index
      %445 = linalg.index 3 : index
      %446 = linalg.index 4 : index
      %447 = linalg.index 5 : index
      %448 = linalg.index 6 : index
      %449 = arith.constant 1 : index
      %450 = arith.muli %444, %449 : index
      %451 = arith.constant 1 : index
      %452 = arith.muli %447, %451 : index
      %453 = arith.addi %450, %452 : index
      %454 = arith.constant 1 : index
      %455 = arith.muli %445, %454 : index
      %456 = arith.constant 1 : index
      %457 = arith.muli %448, %456 : index
      %458 = arith.addi %455, %457 : index
      %459 = arith.constant 0 : index
      %460 = arith.constant 1 : index
      %461 = arith.subi %453, %460 : index
      %462 = arith.cmpi sge, %461, %459 : index
      %463 = arith.constant 16 : index
      %464 = arith.cmpi slt, %461, %463 : index
      %465 = arith.andi %462, %464 : i1
      %466 = arith.maxsi %461, %459 : index
      %467 = arith.constant 15 : index
      %468 = arith.minsi %466, %467 : index
      %469 = arith.constant 1 : index
      %470 = arith.subi %458, %469 : index
      %471 = arith.cmpi sge, %470, %459 : index
      %472 = arith.constant 16 : index
      %473 = arith.cmpi slt, %470, %472 : index
      %474 = arith.andi %471, %473 : i1
      %475 = arith.andi %465, %474 : i1
      %476 = arith.maxsi %470, %459 : index
      %477 = arith.constant 15 : index
      %478 = arith.minsi %476, %477 : index
      %479 = memref.load %res4[%442, %446, %468, %478] : memref<1x64x16x16xf32>
      %480 = arith.constant 0.000000e+00 : f32
      %481 = arith.select %475, %479, %480 : f32
      %482 = arith.mulf %481, %440 : f32
      %483 = arith.addf %441, %482 : f32
      linalg.yield %483 : f32
    }
    %cls8_w_sram = memref.view %dma4[%c0][] {cfmem.tensor = "cls8_w_sram"} : memref<20800xi8> to memref<6x96x3x3xf32>
    %cls8_b_sram = memref.view %dma4[%c20736][] {cfmem.tensor = "cls8_b_sram"} : memref<20800xi8> to memref<6xf32>
    %cls8 = memref.view %arena[%c100352][] {cfmem.tensor = "cls8"} : memref<828352xi8> to memref<1x6x8x8xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cls8_b_sram : memref<6xf32>) outs(%cls8 : memref<1x6x8x8xf32>) {
    ^bb0(%484: f32, %485: f32):
      linalg.yield %484 : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%cls8_w_sram : memref<6x96x3x3xf32>) outs(%cls8 : memref<1x6x8x8xf32>) {
    ^bb0(%486: f32, %487: f32):
      %488 = linalg.index 0 : index
      %489 = linalg.index 1 : index
      %490 = linalg.index 2 : index
      %491 = linalg.index 3 : index
      %492 = linalg.index 4 : index
      %493 = linalg.index 5 : index
      %494 = linalg.index 6 : index
      %495 = arith.constant 1 : index
      %496 = arith.muli %490, %495 : index
      %497 = arith.constant 1 : index
      %498 = arith.muli %493, %497 : index
      %499 = arith.addi %496, %498 : index
      %500 = arith.constant 1 : index
      %501 = arith.muli %491, %500 : index
      %502 = arith.constant 1 : index
      %503 = arith.muli %494, %502 : index
      %504 = arith.addi %501, %503 : index
      %505 = arith.constant 0 : index
      %506 = arith.constant 1 : index
      %507 = arith.subi %499, %506 : index
      %508 = arith.cmpi sge, %507, %505 : index
      %509 = arith.constant 8 : index
      %510 = arith.cmpi slt, %507, %509 : index
      %511 = arith.andi %508, %510 : i1
      %512 = arith.maxsi %507, %505 : index
      %513 = arith.constant 7 : index
      %514 = arith.minsi %512, %513 : index
      %515 = arith.constant 1 : index
      %516 = arith.subi %504, %515 : index
      %517 = arith.cmpi sge, %516, %505 : index
      %518 = arith.constant 8 : index
      %519 = arith.cmpi slt, %516, %518 : index
      %520 = arith.andi %517, %519 : i1
      %521 = arith.andi %511, %520 : i1
      %522 = arith.maxsi %516, %505 : index
      %523 = arith.constant 7 : index
      %524 = arith.minsi %522, %523 : index
      %525 = memref.load %b5_out[%488, %492, %514, %524] : memref<1x96x8x8xf32>
      %526 = arith.constant 0.000000e+00 : f32
      %527 = arith.select %521, %525, %526 : f32
      %528 = arith.mulf %527, %486 : f32
      %529 = arith.addf %487, %528 : f32
      linalg.yield %529 : f32
    }
    %box16_w_sram = memref.view %dma5[%c0][] {cfmem.tensor = "box16_w_sram"} : memref<18496xi8> to memref<8x64x3x3xf32>
    %box16_b_sram = memref.view %dma5[%c18432][] {cfmem.tensor = "box16_b_sram"} : memref<18496xi8> to memref<8xf32>
    %box16 = memref.view %arena[%c90112][] {cfmem.tensor = "box16"} : memref<828352xi8> to memref<1x8x16x16xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%box16_b_sram : memref<8xf32>) outs(%box16 : memref<1x8x16x16xf32>) {
    ^bb0(%530: f32, %531: f32):
      linalg.yield %530 : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%box16_w_sram : memref<8x64x3x3xf32>) outs(%box16 : memref<1x8x16x16xf32>) {
    ^bb0(%532: f32, %533: f32):
      %534 = linalg.index 0 : index
      %535 = linalg.index 1 : index
      %536 = linalg.index 2 : index
      %537 = linalg.index 3 : index
      %538 = linalg.index 4 : index
      %539 = linalg.index 5 : index
      %540 = linalg.index 6 : index
      %541 = arith.constant 1 : index
      %542 = arith.muli %536, %541 : index
      %543 = arith.constant 1 : index
      %544 = arith.muli %539, %543 : index
      %545 = arith.addi %542, %544 : index
      %546 = arith.constant 1 : index
      %547 = arith.muli %537, %546 : index
      %548 = arith.constant 1 : index
      %549 = arith.muli %540, %548 : index
      %550 = arith.addi %547, %549 : index
      %551 = arith.constant 0 : index
      %552 = arith.constant 1 : index
      %553 = arith.subi %545, %552 : index
      %554 = arith.cmpi sge, %553, %551 : index
      %555 = arith.constant 16 : index
      %556 = arith.cmpi slt, %553, %555 : index
      %557 = arith.andi %554, %556 : i1
      %558 = arith.maxsi %553, %551 : index
      %559 = arith.constant 15 : index
      %560 = arith.minsi %558, %559 : index
      %561 = arith.constant 1 : index
      %562 = arith.subi %550, %561 : index
      %563 = arith.cmpi sge, %562, %551 : index
      %564 = arith.constant 16 : index
      %565 = arith.cmpi slt, %562, %564 : index
      %566 = arith.andi %563, %565 : i1
      %567 = arith.andi %557, %566 : i1
      %568 = arith.maxsi %562, %551 : index
      %569 = arith.constant 15 : index
      %570 = arith.minsi %568, %569 : index
      %571 = memref.load %res4[%534, %538, %560, %570] : memref<1x64x16x16xf32>
      %572 = arith.constant 0.000000e+00 : f32
      %573 = arith.select %567, %571, %572 : f32
      %574 = arith.mulf %573, %532 : f32
      %575 = arith.addf %533, %574 : f32
      linalg.yield %575 : f32
    }
    %box8_w_sram = memref.view %dma6[%c0][] {cfmem.tensor = "box8_w_sram"} : memref<83072xi8> to memref<24x96x3x3xf32>
    %box8_b_sram = memref.view %dma6[%c82944][] {cfmem.tensor = "box8_b_sram"} : memref<83072xi8> to memref<24xf32>
    %box8 = memref.view %arena[%c0][] {cfmem.tensor = "box8"} : memref<828352xi8> to memref<1x24x8x8xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%box8_b_sram : memref<24xf32>) outs(%box8 : memref<1x24x8x8xf32>) {
    ^bb0(%576: f32, %577: f32):
      linalg.yield %576 : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%box8_w_sram : memref<24x96x3x3xf32>) outs(%box8 : memref<1x24x8x8xf32>) {
    ^bb0(%578: f32, %579: f32):
      %580 = linalg.index 0 : index
      %581 = linalg.index 1 : index
      %582 = linalg.index 2 : index
      %583 = linalg.index 3 : index
      %584 = linalg.index 4 : index
      %585 = linalg.index 5 : index
      %586 = linalg.index 6 : index
      %587 = arith.constant 1 : index
      %588 = arith.muli %582, %587 : index
      %589 = arith.constant 1 : index
      %590 = arith.muli %585, %589 : index
      %591 = arith.addi %588, %590 : index
      %592 = arith.constant 1 : index
      %593 = arith.muli %583, %592 : index
      %594 = arith.constant 1 : index
      %595 = arith.muli %586, %594 : index
      %596 = arith.addi %593, %595 : index
      %597 = arith.constant 0 : index
      %598 = arith.constant 1 : index
      %599 = arith.subi %591, %598 : index
      %600 = arith.cmpi sge, %599, %597 : index
      %601 = arith.constant 8 : index
      %602 = arith.cmpi slt, %599, %601 : index
      %603 = arith.andi %600, %602 : i1
      %604 = arith.maxsi %599, %597 : index
      %605 = arith.constant 7 : index
      %606 = arith.minsi %604, %605 : index
      %607 = arith.constant 1 : index
      %608 = arith.subi %596, %607 : index
      %609 = arith.cmpi sge, %608, %597 : index
      %610 = arith.constant 8 : index
      %611 = arith.cmpi slt, %608, %610 : index
      %612 = arith.andi %609, %611 : i1
      %613 = arith.andi %603, %612 : i1
      %614 = arith.maxsi %608, %597 : index
      %615 = arith.constant 7 : index
      %616 = arith.minsi %614, %615 : index
      %617 = memref.load %b5_out[%580, %584, %606, %616] : memref<1x96x8x8xf32>
      %618 = arith.constant 0.000000e+00 : f32
      %619 = arith.select %613, %617, %618 : f32
      %620 = arith.mulf %619, %578 : f32
      %621 = arith.addf %579, %620 : f32
      linalg.yield %621 : f32
    }
    %cls16_flat = memref.view %arena[%c98304][] {cfmem.tensor = "cls16_flat", cfmem.reads = ["cls16"]} : memref<828352xi8> to memref<1x512xf32>
    %cls8_flat = memref.view %arena[%c100352][] {cfmem.tensor = "cls8_flat", cfmem.reads = ["cls8"]} : memref<828352xi8> to memref<1x384xf32>
    %cls = memref.view %arena[%c6144][] {cfmem.tensor = "cls"} : memref<828352xi8> to memref<1x896xf32>
    %622 = memref.subview %cls[0, 0] [1, 512] [1, 1] : memref<1x896xf32> to memref<1x512xf32, strided<[896, 1]>>
    linalg.copy ins(%cls16_flat : memref<1x512xf32>) outs(%622 : memref<1x512xf32, strided<[896, 1]>>)
    %623 = memref.subview %cls[0, 512] [1, 384] [1, 1] : memref<1x896xf32> to memref<1x384xf32, strided<[896, 1], offset: 512>>
    linalg.copy ins(%cls8_flat : memref<1x384xf32>) outs(%623 : memref<1x384xf32, strided<[896, 1], offset: 512>>)
    %box16_flat = memref.view %arena[%c90112][] {cfmem.tensor = "box16_flat", cfmem.reads = ["box16"]} : memref<828352xi8> to memref<1x2048xf32>
    %box8_flat = memref.view %arena[%c0][] {cfmem.tensor = "box8_flat", cfmem.reads = ["box8"]} : memref<828352xi8> to memref<1x1536xf32>
    %624 = memref.subview %out_boxes[0, 0] [1, 2048] [1, 1] : memref<1x3584xf32> to memref<1x2048xf32, strided<[3584, 1]>>
    linalg.copy ins(%box16_flat : memref<1x2048xf32>) outs(%624 : memref<1x2048xf32, strided<[3584, 1]>>)
    %625 = memref.subview %out_boxes[0, 2048] [1, 1536] [1, 1] : memref<1x3584xf32> to memref<1x1536xf32, strided<[3584, 1], offset: 2048>>
    linalg.copy ins(%box8_flat : memref<1x1536xf32>) outs(%625 : memref<1x1536xf32, strided<[3584, 1], offset: 2048>>)
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cls : memref<1x896xf32>) outs(%out_scores : memref<1x896xf32>) {
    ^bb0(%626: f32, %627: f32):
      %628 = arith.constant 1.000000e+00 : f32
      %629 = arith.negf %626 : f32
      %630 = math.exp %629 : f32
      %631 = arith.addf %628, %630 : f32
      %632 = arith.divf %628, %631 : f32
      linalg.yield %632 : f32
    }
    func.return
  }
  func.func @load_resident_main() attributes {cfmem.init_of = "main", llvm.emit_c_interface} {
    %0 = memref.get_global @arena_main : memref<828352xi8>
    %1 = arith.constant 826560 : index
    %2 = memref.view %0[%1][] : memref<828352xi8> to memref<1792xi8>
    %3 = memref.get_global @weights : memref<191808xi8>
    %4 = arith.constant 0 : index
    %5 = arith.constant 1728 : index
    %6 = memref.view %3[%4][] : memref<191808xi8> to memref<1728xi8>
    %7 = memref.view %2[%4][] : memref<1792xi8> to memref<1728xi8>
    "memref.copy"(%6, %7) : (memref<1728xi8>, memref<1728xi8>) -> ()
    %8 = memref.get_global @weights : memref<191808xi8>
    %9 = arith.constant 64 : index
    %10 = arith.constant 1 : index
    %11 = memref.view %8[%5][] : memref<191808xi8> to memref<64xi8>
    %12 = memref.view %2[%5][] : memref<1792xi8> to memref<64xi8>
    "memref.copy"(%11, %12) : (memref<64xi8>, memref<64xi8>) -> ()
    func.return
  }
}