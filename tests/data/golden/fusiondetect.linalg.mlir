builtin.module {
  "memref.global"() <{sym_name = "cst_main_0", type = memref<1xf32>, initial_value = dense<5.000000e-01> : tensor<1xf32>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "weights", type = memref<172352xi8>, initial_value = dense<"0x~59124bd403fd0905"> : tensor<172352xi8>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "arena_main", type = memref<1318721xi8>, initial_value, sym_visibility = "private"}> : () -> ()
  func.func @main(%image: memref<1x3x160x160xf32>, %mode: memref<1xf32>, %out_scores: memref<1x2x20x20xf32>, %out_boxes: memref<1x4x20x20xf32>) attributes {cfmem.dma_depth = 4 : i64, cfmem.arena_size = 1318721 : i64, cfmem.lower_bound = 1318721 : i64, cfmem.plan = "exact/auto", cfmem.aliases = "reshape,slice,inplace,concat,yield", cfmem.onchip_budget = 2097152 : i64, cfmem.init = "load_resident_main", cfmem.output_names = ["scores", "boxes"], llvm.emit_c_interface} {
    %arena = memref.get_global @arena_main : memref<1318721xi8>
    %c0 = arith.constant 0 : index
    %c1728 = arith.constant 1728 : index
    %c1792 = arith.constant 1792 : index
    %c2368 = arith.constant 2368 : index
    %c2432 = arith.constant 2432 : index
    %c4480 = arith.constant 4480 : index
    %c4608 = arith.constant 4608 : index
    %c5760 = arith.constant 5760 : index
    %c5888 = arith.constant 5888 : index
    %c12032 = arith.constant 12032 : index
    %c12224 = arith.constant 12224 : index
    %c13952 = arith.constant 13952 : index
    %c14144 = arith.constant 14144 : index
    %c32576 = arith.constant 32576 : index
    %c32960 = arith.constant 32960 : index
    %c36416 = arith.constant 36416 : index
    %c36800 = arith.constant 36800 : index
    %c73664 = arith.constant 73664 : index
    %c74048 = arith.constant 74048 : index
    %c77504 = arith.constant 77504 : index
    %c77888 = arith.constant 77888 : index
    %c114752 = arith.constant 114752 : index
    %c115136 = arith.constant 115136 : index
    %c118592 = arith.constant 118592 : index
    %c118976 = arith.constant 118976 : index
    %c143552 = arith.constant 143552 : index
    %c143808 = arith.constant 143808 : index
    %c148416 = arith.constant 148416 : index
    %c148480 = arith.constant 148480 : index
    %c157696 = arith.constant 157696 : index
    %c157760 = arith.constant 157760 : index
    %c159488 = arith.constant 159488 : index
    %c159680 = arith.constant 159680 : index
    %c165824 = arith.constant 165824 : index
    %c165952 = arith.constant 165952 : index
    %c167104 = arith.constant 167104 : index
    %c167232 = arith.constant 167232 : index
    %c171328 = arith.constant 171328 : index
    %c171456 = arith.constant 171456 : index
    %c171712 = arith.constant 171712 : index
    %c171776 = arith.constant 171776 : index
    %c172288 = arith.constant 172288 : index
    %c409600 = arith.constant 409600 : index
    %c1235136 = arith.constant 1235136 : index
    %c1237312 = arith.constant 1237312 : index
    %c1228800 = arith.constant 1228800 : index
    %c576 = arith.constant 576 : index
    %c64 = arith.constant 64 : index
    %c1 = arith.constant 1 : index
    %c2048 = arith.constant 2048 : index
    %c128 = arith.constant 128 : index
    %c1152 = arith.constant 1152 : index
    %c1311808 = arith.constant 1311808 : index
    %c3520 = arith.constant 3520 : index
    %c6144 = arith.constant 6144 : index
    %c192 = arith.constant 192 : index
    %c819200 = arith.constant 819200 : index
    %c921600 = arith.constant 921600 : index
    %c614400 = arith.constant 614400 : index
    %c1318720 = arith.constant 1318720 : index
    %c1315520 = arith.constant 1315520 : index
    %c1307968 = arith.constant 1307968 : index
    %c1266048 = arith.constant 1266048 : index
    %c1303296 = arith.constant 1303296 : index
    %c18432 = arith.constant 18432 : index
    %c384 = arith.constant 384 : index
    %c3456 = arith.constant 3456 : index
    %c36864 = arith.constant 36864 : index
    %c24576 = arith.constant 24576 : index
    %c256 = arith.constant 256 : index
    %c153600 = arith.constant 153600 : index
    %c8 = arith.constant 8 : index
    %c9216 = arith.constant 9216 : index
    %c16 = arith.constant 16 : index
    %c108800 = arith.constant 108800 : index
    %c102400 = arith.constant 102400 : index
    %c189696 = arith.constant 189696 : index
    %c179200 = arith.constant 179200 : index
    %c185472 = arith.constant 185472 : index
    %c76800 = arith.constant 76800 : index
    %c4096 = arith.constant 4096 : index
    %c512 = arith.constant 512 : index
    %c128000 = arith.constant 128000 : index
    %c6400 = arith.constant 6400 : index
    %weights = memref.get_global @weights : memref<172352xi8>
    %dma0 = memref.view %arena[%c409600][] {cfmem.tensor = "dma0"} : memref<1318721xi8> to memref<640xi8>
    %dma1 = memref.view %arena[%c1235136][] {cfmem.tensor = "dma1"} : memref<1318721xi8> to memref<2176xi8>
    %dma2 = memref.view %arena[%c1237312][] {cfmem.tensor = "dma2"} : memref<1318721xi8> to memref<1280xi8>
    %dma3 = memref.view %arena[%c1228800][] {cfmem.tensor = "dma3"} : memref<1318721xi8> to memref<6336xi8>
    %0 = memref.view %weights[%c1792][] : memref<172352xi8> to memref<576xi8>
    %1 = memref.view %dma0[%c0][] : memref<640xi8> to memref<576xi8>
    "memref.copy"(%0, %1) : (memref<576xi8>, memref<576xi8>) -> ()
    %2 = memref.view %weights[%c2368][] : memref<172352xi8> to memref<64xi8>
    %3 = memref.view %dma0[%c576][] : memref<640xi8> to memref<64xi8>
    "memref.copy"(%2, %3) : (memref<64xi8>, memref<64xi8>) -> ()
    %4 = memref.view %weights[%c2432][] : memref<172352xi8> to memref<2048xi8>
    %5 = memref.view %dma1[%c0][] : memref<2176xi8> to memref<2048xi8>
    "memref.copy"(%4, %5) : (memref<2048xi8>, memref<2048xi8>) -> ()
    %6 = memref.view %weights[%c4480][] : memref<172352xi8> to memref<128xi8>
    %7 = memref.view %dma1[%c2048][] : memref<2176xi8> to memref<128xi8>
    "memref.copy"(%6, %7) : (memref<128xi8>, memref<128xi8>) -> ()
    %8 = memref.view %weights[%c4608][] : memref<172352xi8> to memref<1152xi8>
    %9 = memref.view %dma2[%c0][] : memref<1280xi8> to memref<1152xi8>
    "memref.copy"(%8, %9) : (memref<1152xi8>, memref<1152xi8>) -> ()
    %10 = memref.view %weights[%c5760][] : memref<172352xi8> to memref<128xi8>
    %11 = memref.view %dma2[%c1152][] : memref<1280xi8> to memref<128xi8>
    "memref.copy"(%10, %11) : (memref<128xi8>, memref<128xi8>) -> ()
    %resident = memref.view %arena[%c1311808][] {cfmem.tensor = "resident"} : memref<1318721xi8> to memref<3712xi8>
    %stem_w_sram = memref.view %resident[%c0][] {cfmem.tensor = "stem_w_sram"} : memref<3712xi8> to memref<16x3x3x3xf32>
    %stem_b_sram = memref.view %resident[%c1728][] {cfmem.tensor = "stem_b_sram"} : memref<3712xi8> to memref<16xf32>
    %body1_dw_w_sram = memref.view %resident[%c1792][] {cfmem.tensor = "body1_dw_w_sram"} : memref<3712xi8> to memref<48x1x3x3xf32>
    %body1_dw_b_sram = memref.view %resident[%c3520][] {cfmem.tensor = "body1_dw_b_sram"} : memref<3712xi8> to memref<48xf32>
    %stem = memref.view %arena[%c0][] {cfmem.tensor = "stem"} : memref<1318721xi8> to memref<1x16x80x80xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%stem_b_sram : memref<16xf32>) outs(%stem : memref<1x16x80x80xf32>) {
    ^bb0(%12: f32, %13: f32):
      linalg.yield %12 : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%stem_w_sram : memref<16x3x3x3xf32>) outs(%stem : memref<1x16x80x80xf32>) {
    ^bb0(%14: f32, %15: f32):
      %16 = linalg.index 0 : index
      %17 = linalg.index 1 : index
      %18 = linalg.index 2 : index
      %19 = linalg.index 3 : index
      %20 = linalg.index 4 : index
      %21 = linalg.index 5 : index
      %22 = linalg.index 6 : index
      %23 = arith.constant 2 : index
      %24 = arith.muli %18, %23 : index
      %25 = arith.constant 1 : index
      %26 = arith.muli %21, %25 : index
      %27 = arith.addi %24, %26 : index
      %28 = arith.constant 2 : index
      %29 = arith.muli %19, %28 : index
      %30 = arith.constant 1 : index
      %31 = arith.muli %22, %30 : index
      %32 = arith.addi %29, %31 : index
      %33 = arith.constant 0 : index
      %34 = arith.constant 1 : index
      %35 = arith.subi %27, %34 : index
      %36 = arith.cmpi sge, %35, %33 : index
      %37 = arith.constant 160 : index
      %38 = arith.cmpi slt, %35, %37 : index
      %39 = arith.andi %36, %38 : i1
      %40 = arith.maxsi %35, %33 : index
      %41 = arith.constant 159 : index
      %42 = arith.minsi %40, %41 : index
      %43 = arith.constant 1 : index
      %44 = arith.subi %32, %43 : index
      %45 = arith.cmpi sge, %44, %33 : index
      %46 = arith.constant 160 : index
      %47 = arith.cmpi slt, %44, %46 : index
      %48 = arith.andi %45, %47 : i1
      %49 = arith.andi %39, %48 : i1
      %50 = arith.maxsi %44, %33 : index
      %51 = arith.constant 159 : index
      %52 = arith.minsi %50, %51 : index
      %53 = memref.load %image[%16, %20, %42, %52] : memref<1x3x160x160xf32>
      %54 = arith.constant 0.000000e+00 : f32
      %55 = arith.select %49, %53, %54 : f32
      %56 = arith.mulf %55, %14 : f32
      %57 = arith.addf %15, %56 : f32
      linalg.yield %57 : f32
    }
    %stem_out = memref.view %arena[%c0][] {cfmem.tensor = "stem_out"} : memref<1318721xi8> to memref<1x16x80x80xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%stem : memref<1x16x80x80xf32>) outs(%stem_out : memref<1x16x80x80xf32>) {
    ^bb0(%58: f32, %59: f32):
      %60 = arith.constant 0.000000e+00 : f32
      %61 = arith.maximumf %58, %60 : f32
      linalg.yield %61 : f32
    }
    %bb1_dw_w_sram = memref.view %dma0[%c0][] {cfmem.tensor = "bb1_dw_w_sram"} : memref<640xi8> to memref<16x1x3x3xf32>
    %bb1_dw_b_sram = memref.view %dma0[%c576][] {cfmem.tensor = "bb1_dw_b_sram"} : memref<640xi8> to memref<16xf32>
    %62 = memref.view %weights[%c5888][] : memref<172352xi8> to memref<6144xi8>
    %63 = memref.view %dma3[%c0][] : memref<6336xi8> to memref<6144xi8>
    "memref.copy"(%62, %63) : (memref<6144xi8>, memref<6144xi8>) -> ()
    %64 = memref.view %weights[%c12032][] : memref<172352xi8> to memref<192xi8>
    %65 = memref.view %dma3[%c6144][] : memref<6336xi8> to memref<192xi8>
    "memref.copy"(%64, %65) : (memref<192xi8>, memref<192xi8>) -> ()
    %bb1_dw = memref.view %arena[%c819200][] {cfmem.tensor = "bb1_dw"} : memref<1318721xi8> to memref<1x16x80x80xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%bb1_dw_b_sram : memref<16xf32>) outs(%bb1_dw : memref<1x16x80x80xf32>) {
    ^bb0(%66: f32, %67: f32):
      linalg.yield %66 : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%bb1_dw_w_sram : memref<16x1x3x3xf32>) outs(%bb1_dw : memref<1x16x80x80xf32>) {
    ^bb0(%68: f32, %69: f32):
      %70 = linalg.index 0 : index
      %71 = linalg.index 1 : index
      %72 = linalg.index 2 : index
      %73 = linalg.index 3 : index
      %74 = linalg.index 4 : index
      %75 = linalg.index 5 : index
      %76 = linalg.index 6 : index
      %77 = arith.constant 1 : index
      %78 = arith.muli %71, %77 : index
      %79 = arith.addi %78, %74 : index
      %80 = arith.constant 1 : index
      %81 = arith.muli %72, %80 : index
      %82 = arith.constant 1 : index
      %83 = arith.muli %75, %82 : index
      %84 = arith.addi %81, %83 : index
      %85 = arith.constant 1 : index
      %86 = arith.muli %73, %85 : index
      %87 = arith.constant 1 : index
      %88 = arith.muli %76, %87 : index
      %89 = arith.addi %86, %88 : index
      %90 = arith.constant 0 : index
      %91 = arith.constant 1 : index
      %92 = arith.subi %84, %91 : index
      %93 = arith.cmpi sge, %92, %90 : index
      %94 = arith.constant 80 : index
      %95 = arith.cmpi slt, %92, %94 : index
      %96 = arith.andi %93, %95 : i1
      %97 = arith.maxsi %92, %90 : index
      %98 = arith.constant 79 : index
      %99 = arith.minsi %97, %98 : index
      %100 = arith.constant 1 : index
      %101 = arith.subi %89, %100 : index
      %102 = arith.cmpi sge, %101, %90 : index
      %103 = arith.constant 80 : index
      %104 = arith.cmpi slt, %101, %103 : index
      %105 = arith.andi %102, %104 : i1
      %106 = arith.andi %96, %105 : i1
      %107 = arith.maxsi %101, %90 : index
      %108 = arith.constant 79 : index
      %109 = arith.minsi %107, %108 : index
      %110 = memref.load %stem_out[%70, %79, %99, %109] : memref<1x16x80x80xf32>
      %111 = arith.constant 0.000000e+00 : f32
      %112 = arith.select %106, %110, %111 : f32
      %113 = arith.mulf %112, %68 : f32
      %114 = arith.addf %69, %113 : f32
      linalg.yield %114 : f32
    }
    %bb1_dwr = memref.view %arena[%c819200][] {cfmem.tensor = "bb1_dwr"} : memref<1318721xi8> to memref<1x16x80x80xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%bb1_dw : memref<1x16x80x80xf32>) outs(%bb1_dwr : memref<1x16x80x80xf32>) {
    ^bb0(%115: f32, %116: f32):
      %117 = arith.constant 0.000000e+00 : f32
      %118 = arith.maximumf %115, %117 : f32
      linalg.yield %118 : f32
    }
    %bb1_pw_w_sram = memref.view %dma1[%c0][] {cfmem.tensor = "bb1_pw_w_sram"} : memref<2176xi8> to memref<32x16x1x1xf32>
    %bb1_pw_b_sram = memref.view %dma1[%c2048][] {cfmem.tensor = "bb1_pw_b_sram"} : memref<2176xi8> to memref<32xf32>
    %bb1_pw = memref.view %arena[%c0][] {cfmem.tensor = "bb1_pw"} : memref<1318721xi8> to memref<1x32x80x80xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%bb1_pw_b_sram : memref<32xf32>) outs(%bb1_pw : memref<1x32x80x80xf32>) {
    ^bb0(%119: f32, %120: f32):
      linalg.yield %119 : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, (d2 + d5), (d3 + d6))>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%bb1_dwr, %bb1_pw_w_sram : memref<1x16x80x80xf32>, memref<32x16x1x1xf32>) outs(%bb1_pw : memref<1x32x80x80xf32>) {
    ^bb0(%121: f32, %122: f32, %123: f32):
      %124 = arith.mulf %121, %122 : f32
      %125 = arith.addf %123, %124 : f32
      linalg.yield %125 : f32
    }
    %bb1_out = memref.view %arena[%c0][] {cfmem.tensor = "bb1_out"} : memref<1318721xi8> to memref<1x32x80x80xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%bb1_pw : memref<1x32x80x80xf32>) outs(%bb1_out : memref<1x32x80x80xf32>) {
    ^bb0(%126: f32, %127: f32):
      %128 = arith.constant 0.000000e+00 : f32
      %129 = arith.maximumf %126, %128 : f32
      linalg.yield %129 : f32
    }
    %bb2_dw_w_sram = memref.view %dma2[%c0][] {cfmem.tensor = "bb2_dw_w_sram"} : memref<1280xi8> to memref<32x1x3x3xf32>
    %bb2_dw_b_sram = memref.view %dma2[%c1152][] {cfmem.tensor = "bb2_dw_b_sram"} : memref<1280xi8> to memref<32xf32>
    %bb2_dw = memref.view %arena[%c921600][] {cfmem.tensor = "bb2_dw"} : memref<1318721xi8> to memref<1x32x40x40xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%bb2_dw_b_sram : memref<32xf32>) outs(%bb2_dw : memref<1x32x40x40xf32>) {
    ^bb0(%130: f32, %131: f32):
      linalg.yield %130 : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%bb2_dw_w_sram : memref<32x1x3x3xf32>) outs(%bb2_dw : memref<1x32x40x40xf32>) {
    ^bb0(%132: f32, %133: f32):
      %134 = linalg.index 0 : index
      %135 = linalg.index 1 : index
      %136 = linalg.index 2 : index
      %137 = linalg.index 3 : index
      %138 = linalg.index 4 : index
      %139 = linalg.index 5 : index
      %140 = linalg.index 6 : index
      %141 = arith.constant 1 : index
      %142 = arith.muli %135, %141 : index
      %143 = arith.addi %142, %138 : index
      %144 = arith.constant 2 : index
      %145 = arith.muli %136, %144 : index
      %146 = arith.constant 1 : index
      %147 = arith.muli %139, %146 : index
      %148 = arith.addi %145, %147 : index
      %149 = arith.constant 2 : index
      %150 = arith.muli %137, %149 : index
      %151 = arith.constant 1 : index
      %152 = arith.muli %140, %151 : index
      %153 = arith.addi %150, %152 : index
      %154 = arith.constant 0 : index
      %155 = arith.constant 1 : index
      %156 = arith.subi %148, %155 : index
      %157 = arith.cmpi sge, %156, %154 : index
      %158 = arith.constant 80 : index
      %159 = arith.cmpi slt, %156, %158 : index
      %160 = arith.andi %157, %159 : i1
      %161 = arith.maxsi %156, %154 : index
      %162 = arith.constant 79 : index
      %163 = arith.minsi %161, %162 : index
      %164 = arith.constant 1 : index
      %165 = arith.subi %153, %164 : index
      %166 = arith.cmpi sge, %165, %154 : index
      %167 = arith.constant 80 : index
      %168 = arith.cmpi slt, %165, %167 : index
      %169 = arith.andi %166, %168 : i1
      %170 = arith.andi %160, %169 : i1
      %171 = arith.maxsi %165, %154 : index
      %172 = arith.constant 79 : index
      %173 = arith.minsi %171, %172 : index
      %174 = memref.load %bb1_out[%134, %143, %163, %173] : memref<1x32x80x80xf32>
      %175 = arith.constant 0.000000e+00 : f32
      %176 = arith.select %170, %174, %175 : f32
      %177 = arith.mulf %176, %132 : f32
      %178 = arith.addf %133, %177 : f32
      linalg.yield %178 : f32
    }
    %bb2_dwr = memref.view %arena[%c921600][] {cfmem.tensor = "bb2_dwr"} : memref<1318721xi8> to memref<1x32x40x40xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%bb2_dw : memref<1x32x40x40xf32>) outs(%bb2_dwr : memref<1x32x40x40xf32>) {
    ^bb0(%179: f32, %180: f32):
      %181 = arith.constant 0.000000e+00 : f32
      %182 = arith.maximumf %179, %181 : f32
      linalg.yield %182 : f32
    }
    %bb2_pw_w_sram = memref.view %dma3[%c0][] {cfmem.tensor = "bb2_pw_w_sram"} : memref<6336xi8> to memref<48x32x1x1xf32>
    %bb2_pw_b_sram = memref.view %dma3[%c6144][] {cfmem.tensor = "bb2_pw_b_sram"} : memref<6336xi8> to memref<48xf32>
    %bb2_pw = memref.view %arena[%c614400][] {cfmem.tensor = "bb2_pw"} : memref<1318721xi8> to memref<1x48x40x40xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%bb2_pw_b_sram : memref<48xf32>) outs(%bb2_pw : memref<1x48x40x40xf32>) {
    ^bb0(%183: f32, %184: f32):
      linalg.yield %183 : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, (d2 + d5), (d3 + d6))>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%bb2_dwr, %bb2_pw_w_sram : memref<1x32x40x40xf32>, memref<48x32x1x1xf32>) outs(%bb2_pw : memref<1x48x40x40xf32>) {
    ^bb0(%185: f32, %186: f32, %187: f32):
      %188 = arith.mulf %185, %186 : f32
      %189 = arith.addf %187, %188 : f32
      linalg.yield %189 : f32
    }
    %bb2_out = memref.view %arena[%c614400][] {cfmem.tensor = "bb2_out"} : memref<1318721xi8> to memref<1x48x40x40xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%bb2_pw : memref<1x48x40x40xf32>) outs(%bb2_out : memref<1x48x40x40xf32>) {
    ^bb0(%190: f32, %191: f32):
      %192 = arith.constant 0.000000e+00 : f32
      %193 = arith.maximumf %190, %192 : f32
      linalg.yield %193 : f32
    }
    %is_body_b = memref.get_global @cst_main_0 : memref<1xf32>
    %is_body = memref.view %arena[%c1318720][] {cfmem.tensor = "is_body"} : memref<1318721xi8> to memref<1xi8>
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%mode, %is_body_b : memref<1xf32>, memref<1xf32>) outs(%is_body : memref<1xi8>) {
    ^bb0(%194: f32, %195: f32, %196: i8):
      %197 = arith.cmpf ogt, %194, %195 : f32
      %198 = arith.extui %197 : i1 to i8
      linalg.yield %198 : i8
    }
    %heat = memref.view %arena[%c1315520][] {cfmem.tensor = "heat"} : memref<1318721xi8> to memref<1x2x20x20xf32>
    %199 = memref.load %is_body[%c0] : memref<1xi8>
    %200 = arith.trunci %199 : i8 to i1
    scf.if %200 {
      %dma0_1 = memref.view %arena[%c1228800][] {cfmem.tensor = "dma0_1"} : memref<1318721xi8> to memref<37248xi8>
      %dma1_1 = memref.view %arena[%c1307968][] {cfmem.tensor = "dma1_1"} : memref<1318721xi8> to memref<3840xi8>
      %dma2_1 = memref.view %arena[%c1266048][] {cfmem.tensor = "dma2_1"} : memref<1318721xi8> to memref<37248xi8>
      %dma3_1 = memref.view %arena[%c1303296][] {cfmem.tensor = "dma3_1"} : memref<1318721xi8> to memref<4672xi8>
      %201 = memref.view %weights[%c14144][] : memref<172352xi8> to memref<18432xi8>
      %202 = memref.view %dma0_1[%c0][] : memref<37248xi8> to memref<18432xi8>
      "memref.copy"(%201, %202) : (memref<18432xi8>, memref<18432xi8>) -> ()
      %203 = memref.view %weights[%c32576][] : memref<172352xi8> to memref<384xi8>
      %204 = memref.view %dma0_1[%c18432][] : memref<37248xi8> to memref<384xi8>
      "memref.copy"(%203, %204) : (memref<384xi8>, memref<384xi8>) -> ()
      %205 = memref.view %weights[%c32960][] : memref<172352xi8> to memref<3456xi8>
      %206 = memref.view %dma1_1[%c0][] : memref<3840xi8> to memref<3456xi8>
      "memref.copy"(%205, %206) : (memref<3456xi8>, memref<3456xi8>) -> ()
      %207 = memref.view %weights[%c36416][] : memref<172352xi8> to memref<384xi8>
      %208 = memref.view %dma1_1[%c3456][] : memref<3840xi8> to memref<384xi8>
      "memref.copy"(%207, %208) : (memref<384xi8>, memref<384xi8>) -> ()
      %209 = memref.view %weights[%c36800][] : memref<172352xi8> to memref<36864xi8>
      %210 = memref.view %dma2_1[%c0][] : memref<37248xi8> to memref<36864xi8>
      "memref.copy"(%209, %210) : (memref<36864xi8>, memref<36864xi8>) -> ()
      %211 = memref.view %weights[%c73664][] : memref<172352xi8> to memref<384xi8>
      %212 = memref.view %dma2_1[%c36864][] : memref<37248xi8> to memref<384xi8>
      "memref.copy"(%211, %212) : (memref<384xi8>, memref<384xi8>) -> ()
      %body1_dw = memref.view %arena[%c921600][] {cfmem.tensor = "body1_dw"} : memref<1318721xi8> to memref<1x48x40x40xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%body1_dw_b_sram : memref<48xf32>) outs(%body1_dw : memref<1x48x40x40xf32>) {
      ^bb0(%213: f32, %214: f32):
        linalg.yield %213 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%body1_dw_w_sram : memref<48x1x3x3xf32>) outs(%body1_dw : memref<1x48x40x40xf32>) {
      ^bb0(%215: f32, %216: f32):
        %217 = linalg.index 0 : index
        %218 = linalg.index 1 : index
        %219 = linalg.index 2 : index
        %220 = linalg.index 3 : index
        %221 = linalg.index 4 : index
        %222 = linalg.index 5 : index
        %223 = linalg.index 6 : index
        %224 = arith.constant 1 : index
        %225 = arith.muli %218, %224 : index
        %226 = arith.addi %225, %221 : index
        %227 = arith.constant 1 : index
        %228 = arith.muli %219, %227 : index
        %229 = arith.constant 1 : index
        %230 = arith.muli %222, %229 : index
        %231 = arith.addi %228, %230 : index
        %232 = arith.constant 1 : index
        %233 = arith.muli %220, %232 : index
        %234 = arith.constant 1 : index
        %235 = arith.muli %223, %234 : index
        %236 = arith.addi %233, %235 : index
        %237 = arith.constant 0 : index
        %238 = arith.constant 1 : index
        %239 = arith.subi %231, %238 : index
        %240 = arith.cmpi sge, %239, %237 : index
        %241 = arith.constant 40 : index
        %242 = arith.cmpi slt, %239, %241 : index
        %243 = arith.andi %240, %242 : i1
        %244 = arith.maxsi %239, %237 : index
        %245 = arith.constant 39 : index
        %246 = arith.minsi %244, %245 : index
        %247 = arith.constant 1 : index
        %248 = arith.subi %236, %247 : index
        %249 = arith.cmpi sge, %248, %237 : index
        %250 = arith.constant 40 : index
        %251 = arith.cmpi slt, %248, %250 : index
        %252 = arith.andi %249, %251 : i1
        %253 = arith.andi %243, %252 : i1
        %254 = arith.maxsi %248, %237 : index
        %255 = arith.constant 39 : index
        %256 = arith.minsi %254, %255 : index
        %257 = memref.load %bb2_out[%217, %226, %246, %256] : memref<1x48x40x40xf32>
        %258 = arith.constant 0.000000e+00 : f32
        %259 = arith.select %253, %257, %258 : f32
        %260 = arith.mulf %259, %215 : f32
        %261 = arith.addf %216, %260 : f32
        linalg.yield %261 : f32
      }
      %body1_dwr = memref.view %arena[%c921600][] {cfmem.tensor = "body1_dwr"} : memref<1318721xi8> to memref<1x48x40x40xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%body1_dw : memref<1x48x40x40xf32>) outs(%body1_dwr : memref<1x48x40x40xf32>) {
      ^bb0(%262: f32, %263: f32):
        %264 = arith.constant 0.000000e+00 : f32
        %265 = arith.maximumf %262, %264 : f32
        linalg.yield %265 : f32
      }
      %body1_pw_w_sram = memref.view %dma0_1[%c0][] {cfmem.tensor = "body1_pw_w_sram"} : memref<37248xi8> to memref<96x48x1x1xf32>
      %body1_pw_b_sram = memref.view %dma0_1[%c18432][] {cfmem.tensor = "body1_pw_b_sram"} : memref<37248xi8> to memref<96xf32>
      %266 = memref.view %weights[%c74048][] : memref<172352xi8> to memref<3456xi8>
      %267 = memref.view %dma3_1[%c0][] : memref<4672xi8> to memref<3456xi8>
      "memref.copy"(%266, %267) : (memref<3456xi8>, memref<3456xi8>) -> ()
      %268 = memref.view %weights[%c77504][] : memref<172352xi8> to memref<384xi8>
      %269 = memref.view %dma3_1[%c3456][] : memref<4672xi8> to memref<384xi8>
      "memref.copy"(%268, %269) : (memref<384xi8>, memref<384xi8>) -> ()
      %body1_pw = memref.view %arena[%c0][] {cfmem.tensor = "body1_pw"} : memref<1318721xi8> to memref<1x96x40x40xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%body1_pw_b_sram : memref<96xf32>) outs(%body1_pw : memref<1x96x40x40xf32>) {
      ^bb0(%270: f32, %271: f32):
        linalg.yield %270 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, (d2 + d5), (d3 + d6))>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%body1_dwr, %body1_pw_w_sram : memref<1x48x40x40xf32>, memref<96x48x1x1xf32>) outs(%body1_pw : memref<1x96x40x40xf32>) {
      ^bb0(%272: f32, %273: f32, %274: f32):
        %275 = arith.mulf %272, %273 : f32
        %276 = arith.addf %274, %275 : f32
        linalg.yield %276 : f32
      }
      %body1_out = memref.view %arena[%c0][] {cfmem.tensor = "body1_out"} : memref<1318721xi8> to memref<1x96x40x40xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%body1_pw : memref<1x96x40x40xf32>) outs(%body1_out : memref<1x96x40x40xf32>) {
      ^bb0(%277: f32, %278: f32):
        %279 = arith.constant 0.000000e+00 : f32
        %280 = arith.maximumf %277, %279 : f32
        linalg.yield %280 : f32
      }
      %body2_dw_w_sram = memref.view %dma1_1[%c0][] {cfmem.tensor = "body2_dw_w_sram"} : memref<3840xi8> to memref<96x1x3x3xf32>
      %body2_dw_b_sram = memref.view %dma1_1[%c3456][] {cfmem.tensor = "body2_dw_b_sram"} : memref<3840xi8> to memref<96xf32>
      %281 = memref.view %weights[%c77888][] : memref<172352xi8> to memref<36864xi8>
      %282 = memref.view %dma0_1[%c0][] : memref<37248xi8> to memref<36864xi8>
      "memref.copy"(%281, %282) : (memref<36864xi8>, memref<36864xi8>) -> ()
      %283 = memref.view %weights[%c114752][] : memref<172352xi8> to memref<384xi8>
      %284 = memref.view %dma0_1[%c36864][] : memref<37248xi8> to memref<384xi8>
      "memref.copy"(%283, %284) : (memref<384xi8>, memref<384xi8>) -> ()
      %body2_dw = memref.view %arena[%c921600][] {cfmem.tensor = "body2_dw"} : memref<1318721xi8> to memref<1x96x20x20xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%body2_dw_b_sram : memref<96xf32>) outs(%body2_dw : memref<1x96x20x20xf32>) {
      ^bb0(%285: f32, %286: f32):
        linalg.yield %285 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%body2_dw_w_sram : memref<96x1x3x3xf32>) outs(%body2_dw : memref<1x96x20x20xf32>) {
      ^bb0(%287: f32, %288: f32):
        %289 = linalg.index 0 : index
        %290 = linalg.index 1 : index
        %291 = linalg.index 2 : index
        %292 = linalg.index 3 : index
        %293 = linalg.index 4 : index
        %294 = linalg.index 5 : index
        %295 = linalg.index 6 : index
        %296 = arith.constant 1 : index
        %297 = arith.muli %290, %296 : index
        %298 = arith.addi %297, %293 : index
        %299 = arith.constant 2 : index
        %300 = arith.muli %291, %299 : index
        %301 = arith.constant 1 : index
        %302 = arith.muli %294, %301 : index
        %303 = arith.addi %300, %302 : index
        %304 = arith.constant 2 : index
        %305 = arith.muli %292, %304 : index
        %306 = arith.constant 1 : index
        %307 = arith.muli %295, %306 : index
        %308 = arith.addi %305, %307 : index
        %309 = arith.constant 0 : index
        %310 = arith.constant 1 : index
        %311 = arith.subi %303, %310 : index
        %312 = arith.cmpi sge, %311, %309 : index
        %313 = arith.constant 40 : index
        %314 = arith.cmpi slt, %311, %313 : index
        %315 = arith.andi %312, %314 : i1
        %316 = arith.maxsi %311, %309 : index
        %317 = arith.constant 39 : index
        %318 = arith.minsi %316, %317 : index
        %319 = arith.constant 1 : index
        %320 = arith.subi %308, %319 : index
        %321 = arith.cmpi sge, %320, %309 : index
        %322 = arith.constant 40 : index
        %323 = arith.cmpi slt, %320, %322 : index
        %324 = arith.andi %321, %323 : i1
        %325 = arith.andi %315, %324 : i1
        %326 = arith.maxsi %320, %309 : index
        %327 = arith.constant 39 : index
        %328 = arith.minsi %326, %327 : index
        %329 = memref.load %body1_out[%289, %298, %318, %328] : memref<1x96x40x40xf32>
        %330 = arith.constant 0.000000e+00 : f32
        %331 = arith.select %325, %329, %330 : f32
        %332 = arith.mulf %331, %287 : f32
        %333 = arith.addf %288, %332 : f32
        linalg.yield %333 : f32
      }
      %body2_dwr = memref.view %arena[%c921600][] {cfmem.tensor = "body2_dwr"} : memref<1318721xi8> to memref<1x96x20x20xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%body2_dw : memref<1x96x20x20xf32>) outs(%body2_dwr : memref<1x96x20x20xf32>) {
      ^bb0(%334: f32, %335: f32):
        %336 = arith.constant 0.000000e+00 : f32
        %337 = arith.maximumf %334, %336 : f32
        linalg.yield %337 : f32
      }
      %body2_pw_w_sram = memref.view %dma2_1[%c0][] {cfmem.tensor = "body2_pw_w_sram"} : memref<37248xi8> to memref<96x96x1x1xf32>
      %body2_pw_b_sram = memref.view %dma2_1[%c36864][] {cfmem.tensor = "body2_pw_b_sram"} : memref<37248xi8> to memref<96xf32>
      %338 = memref.view %weights[%c115136][] : memref<172352xi8> to memref<3456xi8>
      %339 = memref.view %dma1_1[%c0][] : memref<3840xi8> to memref<3456xi8>
      "memref.copy"(%338, %339) : (memref<3456xi8>, memref<3456xi8>) -> ()
      %340 = memref.view %weights[%c118592][] : memref<172352xi8> to memref<384xi8>
      %341 = memref.view %dma1_1[%c3456][] : memref<3840xi8> to memref<384xi8>
      "memref.copy"(%340, %341) : (memref<384xi8>, memref<384xi8>) -> ()
      %body2_pw = memref.view %arena[%c0][] {cfmem.tensor = "body2_pw"} : memref<1318721xi8> to memref<1x96x20x20xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%body2_pw_b_sram : memref<96xf32>) outs(%body2_pw : memref<1x96x20x20xf32>) {
      ^bb0(%342: f32, %343: f32):
        linalg.yield %342 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, (d2 + d5), (d3 + d6))>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%body2_dwr, %body2_pw_w_sram : memref<1x96x20x20xf32>, memref<96x96x1x1xf32>) outs(%body2_pw : memref<1x96x20x20xf32>) {
      ^bb0(%344: f32, %345: f32, %346: f32):
        %347 = arith.mulf %344, %345 : f32
        %348 = arith.addf %346, %347 : f32
        linalg.yield %348 : f32
      }
      %body2_out = memref.view %arena[%c0][] {cfmem.tensor = "body2_out"} : memref<1318721xi8> to memref<1x96x20x20xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%body2_pw : memref<1x96x20x20xf32>) outs(%body2_out : memref<1x96x20x20xf32>) {
      ^bb0(%349: f32, %350: f32):
        %351 = arith.constant 0.000000e+00 : f32
        %352 = arith.maximumf %349, %351 : f32
        linalg.yield %352 : f32
      }
      %body3_dw_w_sram = memref.view %dma3_1[%c0][] {cfmem.tensor = "body3_dw_w_sram"} : memref<4672xi8> to memref<96x1x3x3xf32>
      %body3_dw_b_sram = memref.view %dma3_1[%c3456][] {cfmem.tensor = "body3_dw_b_sram"} : memref<4672xi8> to memref<96xf32>
      %353 = memref.view %weights[%c118976][] : memref<172352xi8> to memref<24576xi8>
      %354 = memref.view %dma2_1[%c0][] : memref<37248xi8> to memref<24576xi8>
      "memref.copy"(%353, %354) : (memref<24576xi8>, memref<24576xi8>) -> ()
      %355 = memref.view %weights[%c143552][] : memref<172352xi8> to memref<256xi8>
      %356 = memref.view %dma2_1[%c24576][] : memref<37248xi8> to memref<256xi8>
      "memref.copy"(%355, %356) : (memref<256xi8>, memref<256xi8>) -> ()
      %body3_dw = memref.view %arena[%c153600][] {cfmem.tensor = "body3_dw"} : memref<1318721xi8> to memref<1x96x20x20xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%body3_dw_b_sram : memref<96xf32>) outs(%body3_dw : memref<1x96x20x20xf32>) {
      ^bb0(%357: f32, %358: f32):
        linalg.yield %357 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%body3_dw_w_sram : memref<96x1x3x3xf32>) outs(%body3_dw : memref<1x96x20x20xf32>) {
      ^bb0(%359: f32, %360: f32):
        %361 = linalg.index 0 : index
        %362 = linalg.index 1 : index
        %363 = linalg.index 2 : index
        %364 = linalg.index 3 : index
        %365 = linalg.index 4 : index
        %366 = linalg.index 5 : index
        %367 = linalg.index 6 : index
        %368 = arith.constant 1 : index
        %369 = arith.muli %362, %368 : index
        %370 = arith.addi %369, %365 : index
        %371 = arith.constant 1 : index
        %372 = arith.muli %363, %371 : index
        %373 = arith.constant 2 : index
        %374 = arith.muli %366, %373 : index
        %375 = arith.addi %372, %374 : index
        %376 = arith.constant 1 : index
        %377 = arith.muli %364, %376 : index
        %378 = arith.constant 2 : index
        %379 = arith.muli %367, %378 : index
        %380 = arith.addi %377, %379 : index
        %381 = arith.constant 0 : index
        %382 = arith.constant 2 : index
        %383 = arith.subi %375, %382 : index
        %384 = arith.cmpi sge, %383, %381 : index
        %385 = arith.constant 20 : index
        %386 = arith.cmpi slt, %383, %385 : index
        %387 = arith.andi %384, %386 : i1
        %388 = arith.maxsi %383, %381 : index
        %389 = arith.constant 19 : index
        %390 = arith.minsi %388, %389 : index
        %391 = arith.constant 2 : index
        %392 = arith.subi %380, %391 : index
        %393 = arith.cmpi sge, %392, %381 : index
        %394 = arith.constant 20 : index
        %395 = arith.cmpi slt, %392, %394 : index
        %396 = arith.andi %393, %395 : i1
        %397 = arith.andi %387, %396 : i1
        %398 = arith.maxsi %392, %381 : index
        %399 = arith.constant 19 : index
        %400 = arith.minsi %398, %399 : index
        %401 = memref.load %body2_out[%361, %370, %390, %400] : memref<1x96x20x20xf32>
        %402 = arith.constant 0.000000e+00 : f32
        %403 = arith.select %397, %401, %402 : f32
        %404 = arith.mulf %403, %359 : f32
        %405 = arith.addf %360, %404 : f32
        linalg.yield %405 : f32
      }
      %body3_dwr = memref.view %arena[%c153600][] {cfmem.tensor = "body3_dwr"} : memref<1318721xi8> to memref<1x96x20x20xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%body3_dw : memref<1x96x20x20xf32>) outs(%body3_dwr : memref<1x96x20x20xf32>) {
      ^bb0(%406: f32, %407: f32):
        %408 = arith.constant 0.000000e+00 : f32
        %409 = arith.maximumf %406, %408 : f32
        linalg.yield %409 : f32
      }
      %body3_pw_w_sram = memref.view %dma0_1[%c0][] {cfmem.tensor = "body3_pw_w_sram"} : memref<37248xi8> to memref<96x96x1x1xf32>
      %body3_pw_b_sram = memref.view %dma0_1[%c36864][] {cfmem.tensor = "body3_pw_b_sram"} : memref<37248xi8> to memref<96xf32>
      %410 = memref.view %weights[%c143808][] : memref<172352xi8> to memref<4608xi8>
      %411 = memref.view %dma3_1[%c0][] : memref<4672xi8> to memref<4608xi8>
      "memref.copy"(%410, %411) : (memref<4608xi8>, memref<4608xi8>) -> ()
      %412 = memref.view %weights[%c148416][] : memref<172352xi8> to memref<8xi8>
      %413 = memref.view %dma3_1[%c4608][] : memref<4672xi8> to memref<8xi8>
      "memref.copy"(%412, %413) : (memref<8xi8>, memref<8xi8>) -> ()
      %body3_pw = memref.view %arena[%c0][] {cfmem.tensor = "body3_pw"} : memref<1318721xi8> to memref<1x96x20x20xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%body3_pw_b_sram : memref<96xf32>) outs(%body3_pw : memref<1x96x20x20xf32>) {
      ^bb0(%414: f32, %415: f32):
        linalg.yield %414 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, (d2 + d5), (d3 + d6))>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%body3_dwr, %body3_pw_w_sram : memref<1x96x20x20xf32>, memref<96x96x1x1xf32>) outs(%body3_pw : memref<1x96x20x20xf32>) {
      ^bb0(%416: f32, %417: f32, %418: f32):
        %419 = arith.mulf %416, %417 : f32
        %420 = arith.addf %418, %419 : f32
        linalg.yield %420 : f32
      }
      %body3_out = memref.view %arena[%c0][] {cfmem.tensor = "body3_out"} : memref<1318721xi8> to memref<1x96x20x20xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%body3_pw : memref<1x96x20x20xf32>) outs(%body3_out : memref<1x96x20x20xf32>) {
      ^bb0(%421: f32, %422: f32):
        %423 = arith.constant 0.000000e+00 : f32
        %424 = arith.maximumf %421, %423 : f32
        linalg.yield %424 : f32
      }
      %body4_dw_w_sram = memref.view %dma1_1[%c0][] {cfmem.tensor = "body4_dw_w_sram"} : memref<3840xi8> to memref<96x1x3x3xf32>
      %body4_dw_b_sram = memref.view %dma1_1[%c3456][] {cfmem.tensor = "body4_dw_b_sram"} : memref<3840xi8> to memref<96xf32>
      %425 = memref.view %weights[%c148480][] : memref<172352xi8> to memref<9216xi8>
      %426 = memref.view %dma0_1[%c0][] : memref<37248xi8> to memref<9216xi8>
      "memref.copy"(%425, %426) : (memref<9216xi8>, memref<9216xi8>) -> ()
      %427 = memref.view %weights[%c157696][] : memref<172352xi8> to memref<16xi8>
      %428 = memref.view %dma0_1[%c9216][] : memref<37248xi8> to memref<16xi8>
      "memref.copy"(%427, %428) : (memref<16xi8>, memref<16xi8>) -> ()
      %body4_dw = memref.view %arena[%c153600][] {cfmem.tensor = "body4_dw"} : memref<1318721xi8> to memref<1x96x20x20xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%body4_dw_b_sram : memref<96xf32>) outs(%body4_dw : memref<1x96x20x20xf32>) {
      ^bb0(%429: f32, %430: f32):
        linalg.yield %429 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%body4_dw_w_sram : memref<96x1x3x3xf32>) outs(%body4_dw : memref<1x96x20x20xf32>) {
      ^bb0(%431: f32, %432: f32):
        %433 = linalg.index 0 : index
        %434 = linalg.index 1 : index
        %435 = linalg.index 2 : index
        %436 = linalg.index 3 : index
        %437 = linalg.index 4 : index
        %438 = linalg.index 5 : index
        %439 = linalg.index 6 : index
        %440 = arith.constant 1 : index
        %441 = arith.muli %434, %440 : index
        %442 = arith.addi %441, %437 : index
        %443 = arith.constant 1 : index
        %444 = arith.muli %435, %443 : index
        %445 = arith.constant 4 : index
        %446 = arith.muli %438, %445 : index
        %447 = arith.addi %444, %446 : index
        %448 = arith.constant 1 : index
        %449 = arith.muli %436, %448 : index
        %450 = arith.constant 4 : index
        %451 = arith.muli %439, %450 : index
        %452 = arith.addi %449, %451 : index
        %453 = arith.constant 0 : index
        %454 = arith.constant 4 : index
        %455 = arith.subi %447, %454 : index
        %456 = arith.cmpi sge, %455, %453 : index
        %457 = arith.constant 20 : index
        %458 = arith.cmpi slt, %455, %457 : index
        %459 = arith.andi %456, %458 : i1
        %460 = arith.maxsi %455, %453 : index
        %461 = arith.constant 19 : index
        %462 = arith.minsi %460, %461 : index
        %463 = arith.constant 4 : index
        %464 = arith.subi %452, %463 : index
        %465 = arith.cmpi sge, %464, %453 : index
        %466 = arith.constant 20 : index
        %467 = arith.cmpi slt, %464, %466 : index
        %468 = arith.andi %465, %467 : i1
        %469 = arith.andi %459, %468 : i1
        %470 = arith.maxsi %464, %453 : index
        %471 = arith.constant 19 : index
        %472 = arith.minsi %470, %471 : index
        %473 = memref.load %body3_out[%433, %442, %462, %472] : memref<1x96x20x20xf32>
        %474 = arith.constant 0.000000e+00 : f32
        %475 = arith.select %469, %473, %474 : f32
        %476 = arith.mulf %475, %431 : f32
        %477 = arith.addf %432, %476 : f32
        linalg.yield %477 : f32
      }
      %body4_dwr = memref.view %arena[%c153600][] {cfmem.tensor = "body4_dwr"} : memref<1318721xi8> to memref<1x96x20x20xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%body4_dw : memref<1x96x20x20xf32>) outs(%body4_dwr : memref<1x96x20x20xf32>) {
      ^bb0(%478: f32, %479: f32):
        %480 = arith.constant 0.000000e+00 : f32
        %481 = arith.maximumf %478, %480 : f32
        linalg.yield %481 : f32
      }
      %body4_pw_w_sram = memref.view %dma2_1[%c0][] {cfmem.tensor = "body4_pw_w_sram"} : memref<37248xi8> to memref<64x96x1x1xf32>
      %body4_pw_b_sram = memref.view %dma2_1[%c24576][] {cfmem.tensor = "body4_pw_b_sram"} : memref<37248xi8> to memref<64xf32>
      %body4_pw = memref.view %arena[%c0][] {cfmem.tensor = "body4_pw"} : memref<1318721xi8> to memref<1x64x20x20xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%body4_pw_b_sram : memref<64xf32>) outs(%body4_pw : memref<1x64x20x20xf32>) {
      ^bb0(%482: f32, %483: f32):
        linalg.yield %482 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, (d2 + d5), (d3 + d6))>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%body4_dwr, %body4_pw_w_sram : memref<1x96x20x20xf32>, memref<64x96x1x1xf32>) outs(%body4_pw : memref<1x64x20x20xf32>) {
      ^bb0(%484: f32, %485: f32, %486: f32):
        %487 = arith.mulf %484, %485 : f32
        %488 = arith.addf %486, %487 : f32
        linalg.yield %488 : f32
      }
      %body4_out = memref.view %arena[%c0][] {cfmem.tensor = "body4_out"} : memref<1318721xi8> to memref<1x64x20x20xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%body4_pw : memref<1x64x20x20xf32>) outs(%body4_out : memref<1x64x20x20xf32>) {
      ^bb0(%489: f32, %490: f32):
        %491 = arith.constant 0.000000e+00 : f32
        %492 = arith.maximumf %489, %491 : f32
        linalg.yield %492 : f32
      }
      %body_heat_w_sram = memref.view %dma3_1[%c0][] {cfmem.tensor = "body_heat_w_sram"} : memref<4672xi8> to memref<2x64x3x3xf32>
      %body_heat_b_sram = memref.view %dma3_1[%c4608][] {cfmem.tensor = "body_heat_b_sram"} : memref<4672xi8> to memref<2xf32>
      %body_heat = memref.view %arena[%c108800][] {cfmem.tensor = "body_heat"} : memref<1318721xi8> to memref<1x2x20x20xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%body_heat_b_sram : memref<2xf32>) outs(%body_heat : memref<1x2x20x20xf32>) {
      ^bb0(%493: f32, %494: f32):
        linalg.yield %493 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%body_heat_w_sram : memref<2x64x3x3xf32>) outs(%body_heat : memref<1x2x20x20xf32>) {
      ^bb0(%495: f32, %496: f32):
        %497 = linalg.index 0 : index
        %498 = linalg.index 1 : index
        %499 = linalg.index 2 : index
        %500 = linalg.index 3 : index
        %501 = linalg.index 4 : index
        %502 = linalg.index 5 : index
        %503 = linalg.index 6 : index
        %504 = arith.constant 1 : index
        %505 = arith.muli %499, %504 : index
        %506 = arith.constant 1 : index
        %507 = arith.muli %502, %506 : index
        %508 = arith.addi %505, %507 : index
        %509 = arith.constant 1 : index
        %510 = arith.muli %500, %509 : index
        %511 = arith.constant 1 : index
        %512 = arith.muli %503, %511 : index
        %513 = arith.addi %510, %512 : index
        %514 = arith.constant 0 : index
        %515 = arith.constant 1 : index
        %516 = arith.subi %508, %515 : index
        %517 = arith.cmpi sge, %516, %514 : index
        %518 = arith.constant 20 : index
        %519 = arith.cmpi slt, %516, %518 : index
        %520 = arith.andi %517, %519 : i1
        %521 = arith.maxsi %516, %514 : index
        %522 = arith.constant 19 : index
        %523 = arith.minsi %521, %522 : index
        %524 = arith.constant 1 : index
        %525 = arith.subi %513, %524 : index
        %526 = arith.cmpi sge, %525, %514 : index
        %527 = arith.constant 20 : index
        %528 = arith.cmpi slt, %525, %527 : index
        %529 = arith.andi %526, %528 : i1
        %530 = arith.andi %520, %529 : i1
        %531 = arith.maxsi %525, %514 : index
        %532 = arith.constant 19 : index
        %533 = arith.minsi %531, %532 : index
        %534 = memref.load %body4_out[%497, %501, %523, %533] : memref<1x64x20x20xf32>
        %535 = arith.constant 0.000000e+00 : f32
        %536 = arith.select %530, %534, %535 : f32
        %537 = arith.mulf %536, %495 : f32
        %538 = arith.addf %496, %537 : f32
        linalg.yield %538 : f32
      }
      %body_box_w_sram = memref.view %dma0_1[%c0][] {cfmem.tensor = "body_box_w_sram"} : memref<37248xi8> to memref<4x64x3x3xf32>
      %body_box_b_sram = memref.view %dma0_1[%c9216][] {cfmem.tensor = "body_box_b_sram"} : memref<37248xi8> to memref<4xf32>
      %body_box = memref.view %arena[%c102400][] {cfmem.tensor = "body_box"} : memref<1318721xi8> to memref<1x4x20x20xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%body_box_b_sram : memref<4xf32>) outs(%body_box : memref<1x4x20x20xf32>) {
      ^bb0(%539: f32, %540: f32):
        linalg.yield %539 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%body_box_w_sram : memref<4x64x3x3xf32>) outs(%body_box : memref<1x4x20x20xf32>) {
      ^bb0(%541: f32, %542: f32):
        %543 = linalg.index 0 : index
        %544 = linalg.index 1 : index
        %545 = linalg.index 2 : index
        %546 = linalg.index 3 : index
        %547 = linalg.index 4 : index
        %548 = linalg.index 5 : index
        %549 = linalg.index 6 : index
        %550 = arith.constant 1 : index
        %551 = arith.muli %545, %550 : index
        %552 = arith.constant 1 : index
        %553 = arith.muli %548, %552 : index
        %554 = arith.addi %551, %553 : index
        %555 = arith.constant 1 : index
        %556 = arith.muli %546, %555 : index
        %557 = arith.constant 1 : index
        %558 = arith.muli %549, %557 : index
        %559 = arith.addi %556, %558 : index
        %560 = arith.constant 0 : index
        %561 = arith.constant 1 : index
        %562 = arith.subi %554, %561 : index
        %563 = arith.cmpi sge, %562, %560 : index
        %564 = arith.constant 20 : index
        %565 = arith.cmpi slt, %562, %564 : index
        %566 = arith.andi %563, %565 : i1
        %567 = arith.maxsi %562, %560 : index
        %568 = arith.constant 19 : index
        %569 = arith.minsi %567, %568 : index
        %570 = arith.constant 1 : index
        %571 = arith.subi %559, %570 : index
        %572 = arith.cmpi sge, %571, %560 : index
        %573 = arith.constant 20 : index
        %574 = arith.cmpi slt, %571, %573 : index
        %575 = arith.andi %572, %574 : i1
        %576 = arith.andi %566, %575 : i1
        %577 = arith.maxsi %571, %560 : index
        %578 = arith.constant 19 : index
        %579 = arith.minsi %577, %578 : index
        %580 = memref.load %body4_out[%543, %547, %569, %579] : memref<1x64x20x20xf32>
        %581 = arith.constant 0.000000e+00 : f32
        %582 = arith.select %576, %580, %581 : f32
        %583 = arith.mulf %582, %541 : f32
        %584 = arith.addf %542, %583 : f32
        linalg.yield %584 : f32
      }
      "memref.copy"(%body_heat, %heat) : (memref<1x2x20x20xf32>, memref<1x2x20x20xf32>) -> ()
      "memref.copy"(%body_box, %out_boxes) : (memref<1x4x20x20xf32>, memref<1x4x20x20xf32>) -> ()
    } else {
      %dma0_2 = memref.view %arena[%c189696][] {cfmem.tensor = "dma0_2"} : memref<1318721xi8> to memref<1920xi8>
      %dma1_2 = memref.view %arena[%c179200][] {cfmem.tensor = "dma1_2"} : memref<1318721xi8> to memref<6272xi8>
      %dma2_2 = memref.view %arena[%c153600][] {cfmem.tensor = "dma2_2"} : memref<1318721xi8> to memref<1280xi8>
      %dma3_2 = memref.view %arena[%c185472][] {cfmem.tensor = "dma3_2"} : memref<1318721xi8> to memref<4224xi8>
      %585 = memref.view %weights[%c157760][] : memref<172352xi8> to memref<1728xi8>
      %586 = memref.view %dma0_2[%c0][] : memref<1920xi8> to memref<1728xi8>
      "memref.copy"(%585, %586) : (memref<1728xi8>, memref<1728xi8>) -> ()
      %587 = memref.view %weights[%c159488][] : memref<172352xi8> to memref<192xi8>
      %588 = memref.view %dma0_2[%c1728][] : memref<1920xi8> to memref<192xi8>
      "memref.copy"(%587, %588) : (memref<192xi8>, memref<192xi8>) -> ()
      %589 = memref.view %weights[%c159680][] : memref<172352xi8> to memref<6144xi8>
      %590 = memref.view %dma1_2[%c0][] : memref<6272xi8> to memref<6144xi8>
      "memref.copy"(%589, %590) : (memref<6144xi8>, memref<6144xi8>) -> ()
      %591 = memref.view %weights[%c165824][] : memref<172352xi8> to memref<128xi8>
      %592 = memref.view %dma1_2[%c6144][] : memref<6272xi8> to memref<128xi8>
      "memref.copy"(%591, %592) : (memref<128xi8>, memref<128xi8>) -> ()
      %593 = memref.view %weights[%c165952][] : memref<172352xi8> to memref<1152xi8>
      %594 = memref.view %dma2_2[%c0][] : memref<1280xi8> to memref<1152xi8>
      "memref.copy"(%593, %594) : (memref<1152xi8>, memref<1152xi8>) -> ()
      %595 = memref.view %weights[%c167104][] : memref<172352xi8> to memref<128xi8>
      %596 = memref.view %dma2_2[%c1152][] : memref<1280xi8> to memref<128xi8>
      "memref.copy"(%595, %596) : (memref<128xi8>, memref<128xi8>) -> ()
      %face_pool = memref.view %arena[%c76800][] {cfmem.tensor = "face_pool"} : memref<1318721xi8> to memref<1x48x20x20xf32>
      %597 = arith.constant 0x7fc00000 : f32
      linalg.fill ins(%597 : f32) outs(%face_pool : memref<1x48x20x20xf32>)
      %window = memref.subview %bb2_out[0, 0, 0, 0] [1, 1, 2, 2] [1, 1, 1, 1] : memref<1x48x40x40xf32> to memref<1x1x2x2xf32, strided<[76800, 1600, 40, 1]>>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, ((d2 * 2) + d4), ((d3 * 2) + d5))>, affine_map<(d0, d1, d2, d3, d4, d5) -> (0, 0, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%bb2_out, %window : memref<1x48x40x40xf32>, memref<1x1x2x2xf32, strided<[76800, 1600, 40, 1]>>) outs(%face_pool : memref<1x48x20x20xf32>) {
      ^bb0(%598: f32, %599: f32, %600: f32):
        %601 = arith.cmpf uno, %598, %598 : f32
        %602 = arith.cmpf olt, %598, %600 : f32
        %603 = arith.ori %601, %602 : i1
        %604 = arith.select %603, %600, %598 : f32
        linalg.yield %604 : f32
      }
      %face1_dw_w_sram = memref.view %dma0_2[%c0][] {cfmem.tensor = "face1_dw_w_sram"} : memref<1920xi8> to memref<48x1x3x3xf32>
      %face1_dw_b_sram = memref.view %dma0_2[%c1728][] {cfmem.tensor = "face1_dw_b_sram"} : memref<1920xi8> to memref<48xf32>
      %605 = memref.view %weights[%c167232][] : memref<172352xi8> to memref<4096xi8>
      %606 = memref.view %dma3_2[%c0][] : memref<4224xi8> to memref<4096xi8>
      "memref.copy"(%605, %606) : (memref<4096xi8>, memref<4096xi8>) -> ()
      %607 = memref.view %weights[%c171328][] : memref<172352xi8> to memref<128xi8>
      %608 = memref.view %dma3_2[%c4096][] : memref<4224xi8> to memref<128xi8>
      "memref.copy"(%607, %608) : (memref<128xi8>, memref<128xi8>) -> ()
      %face1_dw = memref.view %arena[%c0][] {cfmem.tensor = "face1_dw"} : memref<1318721xi8> to memref<1x48x20x20xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%face1_dw_b_sram : memref<48xf32>) outs(%face1_dw : memref<1x48x20x20xf32>) {
      ^bb0(%609: f32, %610: f32):
        linalg.yield %609 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%face1_dw_w_sram : memref<48x1x3x3xf32>) outs(%face1_dw : memref<1x48x20x20xf32>) {
      ^bb0(%611: f32, %612: f32):
        %613 = linalg.index 0 : index
        %614 = linalg.index 1 : index
        %615 = linalg.index 2 : index
        %616 = linalg.index 3 : index
        %617 = linalg.index 4 : index
        %618 = linalg.index 5 : index
        %619 = linalg.index 6 : index
        %620 = arith.constant 1 : index
        %621 = arith.muli %614, %620 : index
        %622 = arith.addi %621, %617 : index
        %623 = arith.constant 1 : index
        %624 = arith.muli %615, %623 : index
        %625 = arith.constant 1 : index
        %626 = arith.muli %618, %625 : index
        %627 = arith.addi %624, %626 : index
        %628 = arith.constant 1 : index
        %629 = arith.muli %616, %628 : index
        %630 = arith.constant 1 : index
        %631 = arith.muli %619, %630 : index
        %632 = arith.addi %629, %631 : index
        %633 = arith.constant 0 : index
        %634 = arith.constant 1 : index
        %635 = arith.subi %627, %634 : index
        %636 = arith.cmpi sge, %635, %633 : index
        %637 = arith.constant 20 : index
        %638 = arith.cmpi slt, %635, %637 : index
        %639 = arith.andi %636, %638 : i1
        %640 = arith.maxsi %635, %633 : index
        %641 = arith.constant 19 : index
        %642 = arith.minsi %640, %641 : index
        %643 = arith.constant 1 : index
        %644 = arith.subi %632, %643 : index
        %645 = arith.cmpi sge, %644, %633 : index
        %646 = arith.constant 20 : index
        %647 = arith.cmpi slt, %644, %646 : index
        %648 = arith.andi %645, %647 : i1
        %649 = arith.andi %639, %648 : i1
        %650 = arith.maxsi %644, %633 : index
        %651 = arith.constant 19 : index
        %652 = arith.minsi %650, %651 : index
        %653 = memref.load %face_pool[%613, %622, %642, %652] : memref<1x48x20x20xf32>
        %654 = arith.constant 0.000000e+00 : f32
        %655 = arith.select %649, %653, %654 : f32
        %656 = arith.mulf %655, %611 : f32
        %657 = arith.addf %612, %656 : f32
        linalg.yield %657 : f32
      }
      %face1_dwr = memref.view %arena[%c0][] {cfmem.tensor = "face1_dwr"} : memref<1318721xi8> to memref<1x48x20x20xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%face1_dw : memref<1x48x20x20xf32>) outs(%face1_dwr : memref<1x48x20x20xf32>) {
      ^bb0(%658: f32, %659: f32):
        %660 = arith.constant 0.000000e+00 : f32
        %661 = arith.maximumf %658, %660 : f32
        linalg.yield %661 : f32
      }
      %face1_pw_w_sram = memref.view %dma1_2[%c0][] {cfmem.tensor = "face1_pw_w_sram"} : memref<6272xi8> to memref<32x48x1x1xf32>
      %face1_pw_b_sram = memref.view %dma1_2[%c6144][] {cfmem.tensor = "face1_pw_b_sram"} : memref<6272xi8> to memref<32xf32>
      %662 = memref.view %weights[%c171456][] : memref<172352xi8> to memref<256xi8>
      %663 = memref.view %dma0_2[%c0][] : memref<1920xi8> to memref<256xi8>
      "memref.copy"(%662, %663) : (memref<256xi8>, memref<256xi8>) -> ()
      %664 = memref.view %weights[%c171712][] : memref<172352xi8> to memref<8xi8>
      %665 = memref.view %dma0_2[%c256][] : memref<1920xi8> to memref<8xi8>
      "memref.copy"(%664, %665) : (memref<8xi8>, memref<8xi8>) -> ()
      %face1_pw = memref.view %arena[%c76800][] {cfmem.tensor = "face1_pw"} : memref<1318721xi8> to memref<1x32x20x20xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%face1_pw_b_sram : memref<32xf32>) outs(%face1_pw : memref<1x32x20x20xf32>) {
      ^bb0(%666: f32, %667: f32):
        linalg.yield %666 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, (d2 + d5), (d3 + d6))>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%face1_dwr, %face1_pw_w_sram : memref<1x48x20x20xf32>, memref<32x48x1x1xf32>) outs(%face1_pw : memref<1x32x20x20xf32>) {
      ^bb0(%668: f32, %669: f32, %670: f32):
        %671 = arith.mulf %668, %669 : f32
        %672 = arith.addf %670, %671 : f32
        linalg.yield %672 : f32
      }
      %face1_out = memref.view %arena[%c76800][] {cfmem.tensor = "face1_out"} : memref<1318721xi8> to memref<1x32x20x20xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%face1_pw : memref<1x32x20x20xf32>) outs(%face1_out : memref<1x32x20x20xf32>) {
      ^bb0(%673: f32, %674: f32):
        %675 = arith.constant 0.000000e+00 : f32
        %676 = arith.maximumf %673, %675 : f32
        linalg.yield %676 : f32
      }
      %face2_dw_w_sram = memref.view %dma2_2[%c0][] {cfmem.tensor = "face2_dw_w_sram"} : memref<1280xi8> to memref<32x1x3x3xf32>
      %face2_dw_b_sram = memref.view %dma2_2[%c1152][] {cfmem.tensor = "face2_dw_b_sram"} : memref<1280xi8> to memref<32xf32>
      %677 = memref.view %weights[%c171776][] : memref<172352xi8> to memref<512xi8>
      %678 = memref.view %dma1_2[%c0][] : memref<6272xi8> to memref<512xi8>
      "memref.copy"(%677, %678) : (memref<512xi8>, memref<512xi8>) -> ()
      %679 = memref.view %weights[%c172288][] : memref<172352xi8> to memref<16xi8>
      %680 = memref.view %dma1_2[%c512][] : memref<6272xi8> to memref<16xi8>
      "memref.copy"(%679, %680) : (memref<16xi8>, memref<16xi8>) -> ()
      %face2_dw = memref.view %arena[%c0][] {cfmem.tensor = "face2_dw"} : memref<1318721xi8> to memref<1x32x20x20xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%face2_dw_b_sram : memref<32xf32>) outs(%face2_dw : memref<1x32x20x20xf32>) {
      ^bb0(%681: f32, %682: f32):
        linalg.yield %681 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%face2_dw_w_sram : memref<32x1x3x3xf32>) outs(%face2_dw : memref<1x32x20x20xf32>) {
      ^bb0(%683: f32, %684: f32):
        %685 = linalg.index 0 : index
        %686 = linalg.index 1 : index
        %687 = linalg.index 2 : index
        %688 = linalg.index 3 : index
        %689 = linalg.index 4 : index
        %690 = linalg.index 5 : index
        %691 = linalg.index 6 : index
        %692 = arith.constant 1 : index
        %693 = arith.muli %686, %692 : index
        %694 = arith.addi %693, %689 : index
        %695 = arith.constant 1 : index
        %696 = arith.muli %687, %695 : index
        %697 = arith.constant 1 : index
        %698 = arith.muli %690, %697 : index
        %699 = arith.addi %696, %698 : index
        %700 = arith.constant 1 : index
        %701 = arith.muli %688, %700 : index
        %702 = arith.constant 1 : index
        %703 = arith.muli %691, %702 : index
        %704 = arith.addi %701, %703 : index
        %705 = arith.constant 0 : index
        %706 = arith.constant 1 : index
        %707 = arith.subi %699, %706 : index
        %708 = arith.cmpi sge, %707, %705 : index
        %709 = arith.constant 20 : index
        %710 = arith.cmpi slt, %707, %709 : index
        %711 = arith.andi %708, %710 : i1
        %712 = arith.maxsi %707, %705 : index
        %713 = arith.constant 19 : index
        %714 = arith.minsi %712, %713 : index
        %715 = arith.constant 1 : index
        %716 = arith.subi %704, %715 : index
        %717 = arith.cmpi sge, %716, %705 : index
        %718 = arith.constant 20 : index
        %719 = arith.cmpi slt, %716, %718 : index
        %720 = arith.andi %717, %719 : i1
        %721 = arith.andi %711, %720 : i1
        %722 = arith.maxsi %716, %705 : index
        %723 = arith.constant 19 : index
        %724 = arith.minsi %722, %723 : index
        %725 = memref.load %face1_out[%685, %694, %714, %724] : memref<1x32x20x20xf32>
        %726 = arith.constant 0.000000e+00 : f32
        %727 = arith.select %721, %725, %726 : f32
        %728 = arith.mulf %727, %683 : f32
        %729 = arith.addf %684, %728 : f32
        linalg.yield %729 : f32
      }
      %face2_dwr = memref.view %arena[%c0][] {cfmem.tensor = "face2_dwr"} : memref<1318721xi8> to memref<1x32x20x20xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%face2_dw : memref<1x32x20x20xf32>) outs(%face2_dwr : memref<1x32x20x20xf32>) {
      ^bb0(%730: f32, %731: f32):
        %732 = arith.constant 0.000000e+00 : f32
        %733 = arith.maximumf %730, %732 : f32
        linalg.yield %733 : f32
      }
      %face2_pw_w_sram = memref.view %dma3_2[%c0][] {cfmem.tensor = "face2_pw_w_sram"} : memref<4224xi8> to memref<32x32x1x1xf32>
      %face2_pw_b_sram = memref.view %dma3_2[%c4096][] {cfmem.tensor = "face2_pw_b_sram"} : memref<4224xi8> to memref<32xf32>
      %face2_pw = memref.view %arena[%c128000][] {cfmem.tensor = "face2_pw"} : memref<1318721xi8> to memref<1x32x20x20xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%face2_pw_b_sram : memref<32xf32>) outs(%face2_pw : memref<1x32x20x20xf32>) {
      ^bb0(%734: f32, %735: f32):
        linalg.yield %734 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, (d2 + d5), (d3 + d6))>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%face2_dwr, %face2_pw_w_sram : memref<1x32x20x20xf32>, memref<32x32x1x1xf32>) outs(%face2_pw : memref<1x32x20x20xf32>) {
      ^bb0(%736: f32, %737: f32, %738: f32):
        %739 = arith.mulf %736, %737 : f32
        %740 = arith.addf %738, %739 : f32
        linalg.yield %740 : f32
      }
      %face2_out = memref.view %arena[%c128000][] {cfmem.tensor = "face2_out"} : memref<1318721xi8> to memref<1x32x20x20xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%face2_pw : memref<1x32x20x20xf32>) outs(%face2_out : memref<1x32x20x20xf32>) {
      ^bb0(%741: f32, %742: f32):
        %743 = arith.constant 0.000000e+00 : f32
        %744 = arith.maximumf %741, %743 : f32
        linalg.yield %744 : f32
      }
      %face_res = memref.view %arena[%c76800][] {cfmem.tensor = "face_res"} : memref<1318721xi8> to memref<1x32x20x20xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%face1_out, %face2_out : memref<1x32x20x20xf32>, memref<1x32x20x20xf32>) outs(%face_res : memref<1x32x20x20xf32>) {
      ^bb0(%745: f32, %746: f32, %747: f32):
        %748 = arith.addf %745, %746 : f32
        linalg.yield %748 : f32
      }
      %face_heat_w_sram = memref.view %dma0_2[%c0][] {cfmem.tensor = "face_heat_w_sram"} : memref<1920xi8> to memref<2x32x1x1xf32>
      %face_heat_b_sram = memref.view %dma0_2[%c256][] {cfmem.tensor = "face_heat_b_sram"} : memref<1920xi8> to memref<2xf32>
      %face_heat = memref.view %arena[%c6400][] {cfmem.tensor = "face_heat"} : memref<1318721xi8> to memref<1x2x20x20xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%face_heat_b_sram : memref<2xf32>) outs(%face_heat : memref<1x2x20x20xf32>) {
      ^bb0(%749: f32, %750: f32):
        linalg.yield %749 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, (d2 + d5), (d3 + d6))>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%face_res, %face_heat_w_sram : memref<1x32x20x20xf32>, memref<2x32x1x1xf32>) outs(%face_heat : memref<1x2x20x20xf32>) {
      ^bb0(%751: f32, %752: f32, %753: f32):
        %754 = arith.mulf %751, %752 : f32
        %755 = arith.addf %753, %754 : f32
        linalg.yield %755 : f32
      }
      %face_box_w_sram = memref.view %dma1_2[%c0][] {cfmem.tensor = "face_box_w_sram"} : memref<6272xi8> to memref<4x32x1x1xf32>
      %face_box_b_sram = memref.view %dma1_2[%c512][] {cfmem.tensor = "face_box_b_sram"} : memref<6272xi8> to memref<4xf32>
      %face_box = memref.view %arena[%c0][] {cfmem.tensor = "face_box"} : memref<1318721xi8> to memref<1x4x20x20xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%face_box_b_sram : memref<4xf32>) outs(%face_box : memref<1x4x20x20xf32>) {
      ^bb0(%756: f32, %757: f32):
        linalg.yield %756 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, (d2 + d5), (d3 + d6))>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%face_res, %face_box_w_sram : memref<1x32x20x20xf32>, memref<4x32x1x1xf32>) outs(%face_box : memref<1x4x20x20xf32>) {
      ^bb0(%758: f32, %759: f32, %760: f32):
        %761 = arith.mulf %758, %759 : f32
        %762 = arith.addf %760, %761 : f32
        linalg.yield %762 : f32
      }
      "memref.copy"(%face_heat, %heat) : (memref<1x2x20x20xf32>, memref<1x2x20x20xf32>) -> ()
      "memref.copy"(%face_box, %out_boxes) : (memref<1x4x20x20xf32>, memref<1x4x20x20xf32>) -> ()
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%heat : memref<1x2x20x20xf32>) outs(%out_scores : memref<1x2x20x20xf32>) {
    ^bb0(%763: f32, %764: f32):
      %765 = arith.constant 1.000000e+00 : f32
      %766 = arith.negf %763 : f32
      %767 = math.exp %766 : f32
      %768 = arith.addf %765, %767 : f32
      %769 = arith.divf %765, %768 : f32
      linalg.yield %769 : f32
    }
    func.return
  }
  func.func @load_resident_main() attributes {cfmem.init_of = "main", llvm.emit_c_interface} {
    %0 = memref.get_global @arena_main : memref<1318721xi8>
    %1 = arith.constant 1311808 : index
    %2 = memref.view %0[%1][] : memref<1318721xi8> to memref<3712xi8>
    %3 = memref.get_global @weights : memref<172352xi8>
    %4 = arith.constant 0 : index
    %5 = arith.constant 1728 : index
    %6 = memref.view %3[%4][] : memref<172352xi8> to memref<1728xi8>
    %7 = memref.view %2[%4][] : memref<3712xi8> to memref<1728xi8>
    "memref.copy"(%6, %7) : (memref<1728xi8>, memref<1728xi8>) -> ()
    %8 = memref.get_global @weights : memref<172352xi8>
    %9 = arith.constant 64 : index
    %10 = arith.constant 1 : index
    %11 = memref.view %8[%5][] : memref<172352xi8> to memref<64xi8>
    %12 = memref.view %2[%5][] : memref<3712xi8> to memref<64xi8>
    "memref.copy"(%11, %12) : (memref<64xi8>, memref<64xi8>) -> ()
    %13 = memref.get_global @weights : memref<172352xi8>
    %14 = arith.constant 12224 : index
    %15 = arith.constant 1792 : index
    %16 = arith.constant 2 : index
    %17 = memref.view %13[%14][] : memref<172352xi8> to memref<1728xi8>
    %18 = memref.view %2[%15][] : memref<3712xi8> to memref<1728xi8>
    "memref.copy"(%17, %18) : (memref<1728xi8>, memref<1728xi8>) -> ()
    %19 = memref.get_global @weights : memref<172352xi8>
    %20 = arith.constant 13952 : index
    %21 = arith.constant 3520 : index
    %22 = arith.constant 192 : index
    %23 = arith.constant 3 : index
    %24 = memref.view %19[%20][] : memref<172352xi8> to memref<192xi8>
    %25 = memref.view %2[%21][] : memref<3712xi8> to memref<192xi8>
    "memref.copy"(%24, %25) : (memref<192xi8>, memref<192xi8>) -> ()
    func.return
  }
}