builtin.module {
  "memref.global"() <{sym_name = "cst_main_0", type = memref<1xf32>, initial_value = dense<5.000000e-01> : tensor<1xf32>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "weights", type = memref<172352xi8>, initial_value = dense<"0x~59124bd403fd0905"> : tensor<172352xi8>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "arena_main", type = memref<1318721xi8, 1 : i64>, initial_value, sym_visibility = "private"}> : () -> ()
  func.func @main(%image: memref<1x3x160x160xf32>, %mode: memref<1xf32>, %out_scores: memref<1x2x20x20xf32>, %out_boxes: memref<1x4x20x20xf32>) attributes {cfmem.dma_depth = 4 : i64, cfmem.arena_size = 1318721 : i64, cfmem.lower_bound = 1318721 : i64, cfmem.plan = "exact/auto", cfmem.aliases = "reshape,slice,inplace,concat,yield", cfmem.onchip_budget = 2097152 : i64, cfmem.init = "load_resident_main", cfmem.output_names = ["scores", "boxes"]} {
    %arena = memref.get_global @arena_main : memref<1318721xi8, 1 : i64>
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
    %stem_w = memref.view %weights[%c0][] : memref<172352xi8> to memref<16x3x3x3xf32>
    %stem_b = memref.view %weights[%c1728][] : memref<172352xi8> to memref<16xf32>
    %bb1_dw_w = memref.view %weights[%c1792][] : memref<172352xi8> to memref<16x1x3x3xf32>
    %bb1_dw_b = memref.view %weights[%c2368][] : memref<172352xi8> to memref<16xf32>
    %bb1_pw_w = memref.view %weights[%c2432][] : memref<172352xi8> to memref<32x16x1x1xf32>
    %bb1_pw_b = memref.view %weights[%c4480][] : memref<172352xi8> to memref<32xf32>
    %bb2_dw_w = memref.view %weights[%c4608][] : memref<172352xi8> to memref<32x1x3x3xf32>
    %bb2_dw_b = memref.view %weights[%c5760][] : memref<172352xi8> to memref<32xf32>
    %bb2_pw_w = memref.view %weights[%c5888][] : memref<172352xi8> to memref<48x32x1x1xf32>
    %bb2_pw_b = memref.view %weights[%c12032][] : memref<172352xi8> to memref<48xf32>
    %body1_dw_w = memref.view %weights[%c12224][] : memref<172352xi8> to memref<48x1x3x3xf32>
    %body1_dw_b = memref.view %weights[%c13952][] : memref<172352xi8> to memref<48xf32>
    %body1_pw_w = memref.view %weights[%c14144][] : memref<172352xi8> to memref<96x48x1x1xf32>
    %body1_pw_b = memref.view %weights[%c32576][] : memref<172352xi8> to memref<96xf32>
    %body2_dw_w = memref.view %weights[%c32960][] : memref<172352xi8> to memref<96x1x3x3xf32>
    %body2_dw_b = memref.view %weights[%c36416][] : memref<172352xi8> to memref<96xf32>
    %body2_pw_w = memref.view %weights[%c36800][] : memref<172352xi8> to memref<96x96x1x1xf32>
    %body2_pw_b = memref.view %weights[%c73664][] : memref<172352xi8> to memref<96xf32>
    %body3_dw_w = memref.view %weights[%c74048][] : memref<172352xi8> to memref<96x1x3x3xf32>
    %body3_dw_b = memref.view %weights[%c77504][] : memref<172352xi8> to memref<96xf32>
    %body3_pw_w = memref.view %weights[%c77888][] : memref<172352xi8> to memref<96x96x1x1xf32>
    %body3_pw_b = memref.view %weights[%c114752][] : memref<172352xi8> to memref<96xf32>
    %body4_dw_w = memref.view %weights[%c115136][] : memref<172352xi8> to memref<96x1x3x3xf32>
    %body4_dw_b = memref.view %weights[%c118592][] : memref<172352xi8> to memref<96xf32>
    %body4_pw_w = memref.view %weights[%c118976][] : memref<172352xi8> to memref<64x96x1x1xf32>
    %body4_pw_b = memref.view %weights[%c143552][] : memref<172352xi8> to memref<64xf32>
    %body_heat_w = memref.view %weights[%c143808][] : memref<172352xi8> to memref<2x64x3x3xf32>
    %body_heat_b = memref.view %weights[%c148416][] : memref<172352xi8> to memref<2xf32>
    %body_box_w = memref.view %weights[%c148480][] : memref<172352xi8> to memref<4x64x3x3xf32>
    %body_box_b = memref.view %weights[%c157696][] : memref<172352xi8> to memref<4xf32>
    %face1_dw_w = memref.view %weights[%c157760][] : memref<172352xi8> to memref<48x1x3x3xf32>
    %face1_dw_b = memref.view %weights[%c159488][] : memref<172352xi8> to memref<48xf32>
    %face1_pw_w = memref.view %weights[%c159680][] : memref<172352xi8> to memref<32x48x1x1xf32>
    %face1_pw_b = memref.view %weights[%c165824][] : memref<172352xi8> to memref<32xf32>
    %face2_dw_w = memref.view %weights[%c165952][] : memref<172352xi8> to memref<32x1x3x3xf32>
    %face2_dw_b = memref.view %weights[%c167104][] : memref<172352xi8> to memref<32xf32>
    %face2_pw_w = memref.view %weights[%c167232][] : memref<172352xi8> to memref<32x32x1x1xf32>
    %face2_pw_b = memref.view %weights[%c171328][] : memref<172352xi8> to memref<32xf32>
    %face_heat_w = memref.view %weights[%c171456][] : memref<172352xi8> to memref<2x32x1x1xf32>
    %face_heat_b = memref.view %weights[%c171712][] : memref<172352xi8> to memref<2xf32>
    %face_box_w = memref.view %weights[%c171776][] : memref<172352xi8> to memref<4x32x1x1xf32>
    %face_box_b = memref.view %weights[%c172288][] : memref<172352xi8> to memref<4xf32>
    %dma0 = memref.view %arena[%c409600][] {cfmem.tensor = "dma0"} : memref<1318721xi8, 1 : i64> to memref<640xi8, 1 : i64>
    %dma1 = memref.view %arena[%c1235136][] {cfmem.tensor = "dma1"} : memref<1318721xi8, 1 : i64> to memref<2176xi8, 1 : i64>
    %dma2 = memref.view %arena[%c1237312][] {cfmem.tensor = "dma2"} : memref<1318721xi8, 1 : i64> to memref<1280xi8, 1 : i64>
    %dma3 = memref.view %arena[%c1228800][] {cfmem.tensor = "dma3"} : memref<1318721xi8, 1 : i64> to memref<6336xi8, 1 : i64>
    %tag = memref.alloca() : memref<2xi32>
    "memref.dma_start"(%weights, %c1792, %dma0, %c0, %c576, %tag, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "bb1_dw_w_sram"} : (memref<172352xi8>, index, memref<640xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    "memref.dma_start"(%weights, %c2368, %dma0, %c576, %c64, %tag, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "bb1_dw_b_sram"} : (memref<172352xi8>, index, memref<640xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    %tag_1 = memref.alloca() : memref<2xi32>
    "memref.dma_start"(%weights, %c2432, %dma1, %c0, %c2048, %tag_1, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "bb1_pw_w_sram"} : (memref<172352xi8>, index, memref<2176xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    "memref.dma_start"(%weights, %c4480, %dma1, %c2048, %c128, %tag_1, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "bb1_pw_b_sram"} : (memref<172352xi8>, index, memref<2176xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    %tag_2 = memref.alloca() : memref<2xi32>
    "memref.dma_start"(%weights, %c4608, %dma2, %c0, %c1152, %tag_2, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "bb2_dw_w_sram"} : (memref<172352xi8>, index, memref<1280xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    "memref.dma_start"(%weights, %c5760, %dma2, %c1152, %c128, %tag_2, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "bb2_dw_b_sram"} : (memref<172352xi8>, index, memref<1280xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    %resident = memref.view %arena[%c1311808][] {cfmem.tensor = "resident"} : memref<1318721xi8, 1 : i64> to memref<3712xi8, 1 : i64>
    %stem_w_sram = memref.view %resident[%c0][] {cfmem.tensor = "stem_w_sram"} : memref<3712xi8, 1 : i64> to memref<16x3x3x3xf32, 1 : i64>
    %stem_b_sram = memref.view %resident[%c1728][] {cfmem.tensor = "stem_b_sram"} : memref<3712xi8, 1 : i64> to memref<16xf32, 1 : i64>
    %body1_dw_w_sram = memref.view %resident[%c1792][] {cfmem.tensor = "body1_dw_w_sram"} : memref<3712xi8, 1 : i64> to memref<48x1x3x3xf32, 1 : i64>
    %body1_dw_b_sram = memref.view %resident[%c3520][] {cfmem.tensor = "body1_dw_b_sram"} : memref<3712xi8, 1 : i64> to memref<48xf32, 1 : i64>
    %stem = memref.view %arena[%c0][] {cfmem.tensor = "stem"} : memref<1318721xi8, 1 : i64> to memref<1x16x80x80xf32, 1 : i64>
    nn.apply ins(%image, %stem_w_sram, %stem_b_sram : memref<1x3x160x160xf32>, memref<16x3x3x3xf32, 1 : i64>, memref<16xf32, 1 : i64>) outs(%stem : memref<1x16x80x80xf32, 1 : i64>) {
    ^bb0(%0: tensor<1x3x160x160xf32>, %1: tensor<16x3x3x3xf32>, %2: tensor<16xf32>):
      %stem_1 = nn.conv2d %0, %1, %2 {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x160x160xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x80x80xf32>
      nn.yield %stem_1 : tensor<1x16x80x80xf32>
    }
    %stem_out = memref.view %arena[%c0][] {cfmem.tensor = "stem_out"} : memref<1318721xi8, 1 : i64> to memref<1x16x80x80xf32, 1 : i64>
    nn.apply ins(%stem : memref<1x16x80x80xf32, 1 : i64>) outs(%stem_out : memref<1x16x80x80xf32, 1 : i64>) attributes {cfmem.inplace} {
    ^bb0(%3: tensor<1x16x80x80xf32>):
      %stem_out_1 = nn.relu %3 : (tensor<1x16x80x80xf32>) -> tensor<1x16x80x80xf32>
      nn.yield %stem_out_1 : tensor<1x16x80x80xf32>
    }
    "memref.dma_wait"(%tag, %c0, %c576) : (memref<2xi32>, index, index) -> ()
    "memref.dma_wait"(%tag, %c1, %c64) : (memref<2xi32>, index, index) -> ()
    %bb1_dw_w_sram = memref.view %dma0[%c0][] {cfmem.tensor = "bb1_dw_w_sram"} : memref<640xi8, 1 : i64> to memref<16x1x3x3xf32, 1 : i64>
    %bb1_dw_b_sram = memref.view %dma0[%c576][] {cfmem.tensor = "bb1_dw_b_sram"} : memref<640xi8, 1 : i64> to memref<16xf32, 1 : i64>
    %tag_3 = memref.alloca() : memref<2xi32>
    "memref.dma_start"(%weights, %c5888, %dma3, %c0, %c6144, %tag_3, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "bb2_pw_w_sram"} : (memref<172352xi8>, index, memref<6336xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    "memref.dma_start"(%weights, %c12032, %dma3, %c6144, %c192, %tag_3, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "bb2_pw_b_sram"} : (memref<172352xi8>, index, memref<6336xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    %bb1_dw = memref.view %arena[%c819200][] {cfmem.tensor = "bb1_dw"} : memref<1318721xi8, 1 : i64> to memref<1x16x80x80xf32, 1 : i64>
    nn.apply ins(%stem_out, %bb1_dw_w_sram, %bb1_dw_b_sram : memref<1x16x80x80xf32, 1 : i64>, memref<16x1x3x3xf32, 1 : i64>, memref<16xf32, 1 : i64>) outs(%bb1_dw : memref<1x16x80x80xf32, 1 : i64>) {
    ^bb0(%4: tensor<1x16x80x80xf32>, %5: tensor<16x1x3x3xf32>, %6: tensor<16xf32>):
      %bb1_dw_1 = nn.conv2d %4, %5, %6 {pads = array<i64: 1, 1, 1, 1>, groups = 16 : i64} : (tensor<1x16x80x80xf32>, tensor<16x1x3x3xf32>, tensor<16xf32>) -> tensor<1x16x80x80xf32>
      nn.yield %bb1_dw_1 : tensor<1x16x80x80xf32>
    }
    %bb1_dwr = memref.view %arena[%c819200][] {cfmem.tensor = "bb1_dwr"} : memref<1318721xi8, 1 : i64> to memref<1x16x80x80xf32, 1 : i64>
    nn.apply ins(%bb1_dw : memref<1x16x80x80xf32, 1 : i64>) outs(%bb1_dwr : memref<1x16x80x80xf32, 1 : i64>) attributes {cfmem.inplace} {
    ^bb0(%7: tensor<1x16x80x80xf32>):
      %bb1_dwr_1 = nn.relu %7 : (tensor<1x16x80x80xf32>) -> tensor<1x16x80x80xf32>
      nn.yield %bb1_dwr_1 : tensor<1x16x80x80xf32>
    }
    "memref.dma_wait"(%tag_1, %c0, %c2048) : (memref<2xi32>, index, index) -> ()
    "memref.dma_wait"(%tag_1, %c1, %c128) : (memref<2xi32>, index, index) -> ()
    %bb1_pw_w_sram = memref.view %dma1[%c0][] {cfmem.tensor = "bb1_pw_w_sram"} : memref<2176xi8, 1 : i64> to memref<32x16x1x1xf32, 1 : i64>
    %bb1_pw_b_sram = memref.view %dma1[%c2048][] {cfmem.tensor = "bb1_pw_b_sram"} : memref<2176xi8, 1 : i64> to memref<32xf32, 1 : i64>
    %bb1_pw = memref.view %arena[%c0][] {cfmem.tensor = "bb1_pw"} : memref<1318721xi8, 1 : i64> to memref<1x32x80x80xf32, 1 : i64>
    nn.apply ins(%bb1_dwr, %bb1_pw_w_sram, %bb1_pw_b_sram : memref<1x16x80x80xf32, 1 : i64>, memref<32x16x1x1xf32, 1 : i64>, memref<32xf32, 1 : i64>) outs(%bb1_pw : memref<1x32x80x80xf32, 1 : i64>) {
    ^bb0(%8: tensor<1x16x80x80xf32>, %9: tensor<32x16x1x1xf32>, %10: tensor<32xf32>):
      %bb1_pw_1 = nn.conv2d %8, %9, %10 : (tensor<1x16x80x80xf32>, tensor<32x16x1x1xf32>, tensor<32xf32>) -> tensor<1x32x80x80xf32>
      nn.yield %bb1_pw_1 : tensor<1x32x80x80xf32>
    }
    %bb1_out = memref.view %arena[%c0][] {cfmem.tensor = "bb1_out"} : memref<1318721xi8, 1 : i64> to memref<1x32x80x80xf32, 1 : i64>
    nn.apply ins(%bb1_pw : memref<1x32x80x80xf32, 1 : i64>) outs(%bb1_out : memref<1x32x80x80xf32, 1 : i64>) attributes {cfmem.inplace} {
    ^bb0(%11: tensor<1x32x80x80xf32>):
      %bb1_out_1 = nn.relu %11 : (tensor<1x32x80x80xf32>) -> tensor<1x32x80x80xf32>
      nn.yield %bb1_out_1 : tensor<1x32x80x80xf32>
    }
    "memref.dma_wait"(%tag_2, %c0, %c1152) : (memref<2xi32>, index, index) -> ()
    "memref.dma_wait"(%tag_2, %c1, %c128) : (memref<2xi32>, index, index) -> ()
    %bb2_dw_w_sram = memref.view %dma2[%c0][] {cfmem.tensor = "bb2_dw_w_sram"} : memref<1280xi8, 1 : i64> to memref<32x1x3x3xf32, 1 : i64>
    %bb2_dw_b_sram = memref.view %dma2[%c1152][] {cfmem.tensor = "bb2_dw_b_sram"} : memref<1280xi8, 1 : i64> to memref<32xf32, 1 : i64>
    %bb2_dw = memref.view %arena[%c921600][] {cfmem.tensor = "bb2_dw"} : memref<1318721xi8, 1 : i64> to memref<1x32x40x40xf32, 1 : i64>
    nn.apply ins(%bb1_out, %bb2_dw_w_sram, %bb2_dw_b_sram : memref<1x32x80x80xf32, 1 : i64>, memref<32x1x3x3xf32, 1 : i64>, memref<32xf32, 1 : i64>) outs(%bb2_dw : memref<1x32x40x40xf32, 1 : i64>) {
    ^bb0(%12: tensor<1x32x80x80xf32>, %13: tensor<32x1x3x3xf32>, %14: tensor<32xf32>):
      %bb2_dw_1 = nn.conv2d %12, %13, %14 {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, groups = 32 : i64} : (tensor<1x32x80x80xf32>, tensor<32x1x3x3xf32>, tensor<32xf32>) -> tensor<1x32x40x40xf32>
      nn.yield %bb2_dw_1 : tensor<1x32x40x40xf32>
    }
    %bb2_dwr = memref.view %arena[%c921600][] {cfmem.tensor = "bb2_dwr"} : memref<1318721xi8, 1 : i64> to memref<1x32x40x40xf32, 1 : i64>
    nn.apply ins(%bb2_dw : memref<1x32x40x40xf32, 1 : i64>) outs(%bb2_dwr : memref<1x32x40x40xf32, 1 : i64>) attributes {cfmem.inplace} {
    ^bb0(%15: tensor<1x32x40x40xf32>):
      %bb2_dwr_1 = nn.relu %15 : (tensor<1x32x40x40xf32>) -> tensor<1x32x40x40xf32>
      nn.yield %bb2_dwr_1 : tensor<1x32x40x40xf32>
    }
    "memref.dma_wait"(%tag_3, %c0, %c6144) : (memref<2xi32>, index, index) -> ()
    "memref.dma_wait"(%tag_3, %c1, %c192) : (memref<2xi32>, index, index) -> ()
    %bb2_pw_w_sram = memref.view %dma3[%c0][] {cfmem.tensor = "bb2_pw_w_sram"} : memref<6336xi8, 1 : i64> to memref<48x32x1x1xf32, 1 : i64>
    %bb2_pw_b_sram = memref.view %dma3[%c6144][] {cfmem.tensor = "bb2_pw_b_sram"} : memref<6336xi8, 1 : i64> to memref<48xf32, 1 : i64>
    %bb2_pw = memref.view %arena[%c614400][] {cfmem.tensor = "bb2_pw"} : memref<1318721xi8, 1 : i64> to memref<1x48x40x40xf32, 1 : i64>
    nn.apply ins(%bb2_dwr, %bb2_pw_w_sram, %bb2_pw_b_sram : memref<1x32x40x40xf32, 1 : i64>, memref<48x32x1x1xf32, 1 : i64>, memref<48xf32, 1 : i64>) outs(%bb2_pw : memref<1x48x40x40xf32, 1 : i64>) {
    ^bb0(%16: tensor<1x32x40x40xf32>, %17: tensor<48x32x1x1xf32>, %18: tensor<48xf32>):
      %bb2_pw_1 = nn.conv2d %16, %17, %18 : (tensor<1x32x40x40xf32>, tensor<48x32x1x1xf32>, tensor<48xf32>) -> tensor<1x48x40x40xf32>
      nn.yield %bb2_pw_1 : tensor<1x48x40x40xf32>
    }
    %bb2_out = memref.view %arena[%c614400][] {cfmem.tensor = "bb2_out"} : memref<1318721xi8, 1 : i64> to memref<1x48x40x40xf32, 1 : i64>
    nn.apply ins(%bb2_pw : memref<1x48x40x40xf32, 1 : i64>) outs(%bb2_out : memref<1x48x40x40xf32, 1 : i64>) attributes {cfmem.inplace} {
    ^bb0(%19: tensor<1x48x40x40xf32>):
      %bb2_out_1 = nn.relu %19 : (tensor<1x48x40x40xf32>) -> tensor<1x48x40x40xf32>
      nn.yield %bb2_out_1 : tensor<1x48x40x40xf32>
    }
    %is_body_b = memref.get_global @cst_main_0 : memref<1xf32>
    %is_body = memref.view %arena[%c1318720][] {cfmem.tensor = "is_body"} : memref<1318721xi8, 1 : i64> to memref<1xi1, 1 : i64>
    nn.apply ins(%mode, %is_body_b : memref<1xf32>, memref<1xf32>) outs(%is_body : memref<1xi1, 1 : i64>) {
    ^bb0(%20: tensor<1xf32>, %21: tensor<1xf32>):
      %is_body_1 = nn.cmp %20, %21 {predicate = "gt"} : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xi1>
      nn.yield %is_body_1 : tensor<1xi1>
    }
    %heat = memref.view %arena[%c1315520][] {cfmem.tensor = "heat"} : memref<1318721xi8, 1 : i64> to memref<1x2x20x20xf32, 1 : i64>
    %22 = memref.load %is_body[%c0] : memref<1xi1, 1 : i64>
    scf.if %22 {
      %dma0_1 = memref.view %arena[%c1228800][] {cfmem.tensor = "dma0_1"} : memref<1318721xi8, 1 : i64> to memref<37248xi8, 1 : i64>
      %dma1_1 = memref.view %arena[%c1307968][] {cfmem.tensor = "dma1_1"} : memref<1318721xi8, 1 : i64> to memref<3840xi8, 1 : i64>
      %dma2_1 = memref.view %arena[%c1266048][] {cfmem.tensor = "dma2_1"} : memref<1318721xi8, 1 : i64> to memref<37248xi8, 1 : i64>
      %dma3_1 = memref.view %arena[%c1303296][] {cfmem.tensor = "dma3_1"} : memref<1318721xi8, 1 : i64> to memref<4672xi8, 1 : i64>
      %tag_4 = memref.alloca() : memref<2xi32>
      "memref.dma_start"(%weights, %c14144, %dma0_1, %c0, %c18432, %tag_4, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "body1_pw_w_sram"} : (memref<172352xi8>, index, memref<37248xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      "memref.dma_start"(%weights, %c32576, %dma0_1, %c18432, %c384, %tag_4, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "body1_pw_b_sram"} : (memref<172352xi8>, index, memref<37248xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      %tag_5 = memref.alloca() : memref<2xi32>
      "memref.dma_start"(%weights, %c32960, %dma1_1, %c0, %c3456, %tag_5, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "body2_dw_w_sram"} : (memref<172352xi8>, index, memref<3840xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      "memref.dma_start"(%weights, %c36416, %dma1_1, %c3456, %c384, %tag_5, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "body2_dw_b_sram"} : (memref<172352xi8>, index, memref<3840xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      %tag_6 = memref.alloca() : memref<2xi32>
      "memref.dma_start"(%weights, %c36800, %dma2_1, %c0, %c36864, %tag_6, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "body2_pw_w_sram"} : (memref<172352xi8>, index, memref<37248xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      "memref.dma_start"(%weights, %c73664, %dma2_1, %c36864, %c384, %tag_6, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "body2_pw_b_sram"} : (memref<172352xi8>, index, memref<37248xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      %body1_dw = memref.view %arena[%c921600][] {cfmem.tensor = "body1_dw"} : memref<1318721xi8, 1 : i64> to memref<1x48x40x40xf32, 1 : i64>
      nn.apply ins(%bb2_out, %body1_dw_w_sram, %body1_dw_b_sram : memref<1x48x40x40xf32, 1 : i64>, memref<48x1x3x3xf32, 1 : i64>, memref<48xf32, 1 : i64>) outs(%body1_dw : memref<1x48x40x40xf32, 1 : i64>) {
      ^bb0(%23: tensor<1x48x40x40xf32>, %24: tensor<48x1x3x3xf32>, %25: tensor<48xf32>):
        %body1_dw_1 = nn.conv2d %23, %24, %25 {pads = array<i64: 1, 1, 1, 1>, groups = 48 : i64} : (tensor<1x48x40x40xf32>, tensor<48x1x3x3xf32>, tensor<48xf32>) -> tensor<1x48x40x40xf32>
        nn.yield %body1_dw_1 : tensor<1x48x40x40xf32>
      }
      %body1_dwr = memref.view %arena[%c921600][] {cfmem.tensor = "body1_dwr"} : memref<1318721xi8, 1 : i64> to memref<1x48x40x40xf32, 1 : i64>
      nn.apply ins(%body1_dw : memref<1x48x40x40xf32, 1 : i64>) outs(%body1_dwr : memref<1x48x40x40xf32, 1 : i64>) attributes {cfmem.inplace} {
      ^bb0(%26: tensor<1x48x40x40xf32>):
        %body1_dwr_1 = nn.relu %26 : (tensor<1x48x40x40xf32>) -> tensor<1x48x40x40xf32>
        nn.yield %body1_dwr_1 : tensor<1x48x40x40xf32>
      }
      "memref.dma_wait"(%tag_4, %c0, %c18432) : (memref<2xi32>, index, index) -> ()
      "memref.dma_wait"(%tag_4, %c1, %c384) : (memref<2xi32>, index, index) -> ()
      %body1_pw_w_sram = memref.view %dma0_1[%c0][] {cfmem.tensor = "body1_pw_w_sram"} : memref<37248xi8, 1 : i64> to memref<96x48x1x1xf32, 1 : i64>
      %body1_pw_b_sram = memref.view %dma0_1[%c18432][] {cfmem.tensor = "body1_pw_b_sram"} : memref<37248xi8, 1 : i64> to memref<96xf32, 1 : i64>
      %tag_7 = memref.alloca() : memref<2xi32>
      "memref.dma_start"(%weights, %c74048, %dma3_1, %c0, %c3456, %tag_7, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "body3_dw_w_sram"} : (memref<172352xi8>, index, memref<4672xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      "memref.dma_start"(%weights, %c77504, %dma3_1, %c3456, %c384, %tag_7, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "body3_dw_b_sram"} : (memref<172352xi8>, index, memref<4672xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      %body1_pw = memref.view %arena[%c0][] {cfmem.tensor = "body1_pw"} : memref<1318721xi8, 1 : i64> to memref<1x96x40x40xf32, 1 : i64>
      nn.apply ins(%body1_dwr, %body1_pw_w_sram, %body1_pw_b_sram : memref<1x48x40x40xf32, 1 : i64>, memref<96x48x1x1xf32, 1 : i64>, memref<96xf32, 1 : i64>) outs(%body1_pw : memref<1x96x40x40xf32, 1 : i64>) {
      ^bb0(%27: tensor<1x48x40x40xf32>, %28: tensor<96x48x1x1xf32>, %29: tensor<96xf32>):
        %body1_pw_1 = nn.conv2d %27, %28, %29 : (tensor<1x48x40x40xf32>, tensor<96x48x1x1xf32>, tensor<96xf32>) -> tensor<1x96x40x40xf32>
        nn.yield %body1_pw_1 : tensor<1x96x40x40xf32>
      }
      %body1_out = memref.view %arena[%c0][] {cfmem.tensor = "body1_out"} : memref<1318721xi8, 1 : i64> to memref<1x96x40x40xf32, 1 : i64>
      nn.apply ins(%body1_pw : memref<1x96x40x40xf32, 1 : i64>) outs(%body1_out : memref<1x96x40x40xf32, 1 : i64>) attributes {cfmem.inplace} {
      ^bb0(%30: tensor<1x96x40x40xf32>):
        %body1_out_1 = nn.relu %30 : (tensor<1x96x40x40xf32>) -> tensor<1x96x40x40xf32>
        nn.yield %body1_out_1 : tensor<1x96x40x40xf32>
      }
      "memref.dma_wait"(%tag_5, %c0, %c3456) : (memref<2xi32>, index, index) -> ()
      "memref.dma_wait"(%tag_5, %c1, %c384) : (memref<2xi32>, index, index) -> ()
      %body2_dw_w_sram = memref.view %dma1_1[%c0][] {cfmem.tensor = "body2_dw_w_sram"} : memref<3840xi8, 1 : i64> to memref<96x1x3x3xf32, 1 : i64>
      %body2_dw_b_sram = memref.view %dma1_1[%c3456][] {cfmem.tensor = "body2_dw_b_sram"} : memref<3840xi8, 1 : i64> to memref<96xf32, 1 : i64>
      %tag_8 = memref.alloca() : memref<2xi32>
      "memref.dma_start"(%weights, %c77888, %dma0_1, %c0, %c36864, %tag_8, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "body3_pw_w_sram"} : (memref<172352xi8>, index, memref<37248xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      "memref.dma_start"(%weights, %c114752, %dma0_1, %c36864, %c384, %tag_8, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "body3_pw_b_sram"} : (memref<172352xi8>, index, memref<37248xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      %body2_dw = memref.view %arena[%c921600][] {cfmem.tensor = "body2_dw"} : memref<1318721xi8, 1 : i64> to memref<1x96x20x20xf32, 1 : i64>
      nn.apply ins(%body1_out, %body2_dw_w_sram, %body2_dw_b_sram : memref<1x96x40x40xf32, 1 : i64>, memref<96x1x3x3xf32, 1 : i64>, memref<96xf32, 1 : i64>) outs(%body2_dw : memref<1x96x20x20xf32, 1 : i64>) {
      ^bb0(%31: tensor<1x96x40x40xf32>, %32: tensor<96x1x3x3xf32>, %33: tensor<96xf32>):
        %body2_dw_1 = nn.conv2d %31, %32, %33 {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, groups = 96 : i64} : (tensor<1x96x40x40xf32>, tensor<96x1x3x3xf32>, tensor<96xf32>) -> tensor<1x96x20x20xf32>
        nn.yield %body2_dw_1 : tensor<1x96x20x20xf32>
      }
      %body2_dwr = memref.view %arena[%c921600][] {cfmem.tensor = "body2_dwr"} : memref<1318721xi8, 1 : i64> to memref<1x96x20x20xf32, 1 : i64>
      nn.apply ins(%body2_dw : memref<1x96x20x20xf32, 1 : i64>) outs(%body2_dwr : memref<1x96x20x20xf32, 1 : i64>) attributes {cfmem.inplace} {
      ^bb0(%34: tensor<1x96x20x20xf32>):
        %body2_dwr_1 = nn.relu %34 : (tensor<1x96x20x20xf32>) -> tensor<1x96x20x20xf32>
        nn.yield %body2_dwr_1 : tensor<1x96x20x20xf32>
      }
      "memref.dma_wait"(%tag_6, %c0, %c36864) : (memref<2xi32>, index, index) -> ()
      "memref.dma_wait"(%tag_6, %c1, %c384) : (memref<2xi32>, index, index) -> ()
      %body2_pw_w_sram = memref.view %dma2_1[%c0][] {cfmem.tensor = "body2_pw_w_sram"} : memref<37248xi8, 1 : i64> to memref<96x96x1x1xf32, 1 : i64>
      %body2_pw_b_sram = memref.view %dma2_1[%c36864][] {cfmem.tensor = "body2_pw_b_sram"} : memref<37248xi8, 1 : i64> to memref<96xf32, 1 : i64>
      %tag_9 = memref.alloca() : memref<2xi32>
      "memref.dma_start"(%weights, %c115136, %dma1_1, %c0, %c3456, %tag_9, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "body4_dw_w_sram"} : (memref<172352xi8>, index, memref<3840xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      "memref.dma_start"(%weights, %c118592, %dma1_1, %c3456, %c384, %tag_9, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "body4_dw_b_sram"} : (memref<172352xi8>, index, memref<3840xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      %body2_pw = memref.view %arena[%c0][] {cfmem.tensor = "body2_pw"} : memref<1318721xi8, 1 : i64> to memref<1x96x20x20xf32, 1 : i64>
      nn.apply ins(%body2_dwr, %body2_pw_w_sram, %body2_pw_b_sram : memref<1x96x20x20xf32, 1 : i64>, memref<96x96x1x1xf32, 1 : i64>, memref<96xf32, 1 : i64>) outs(%body2_pw : memref<1x96x20x20xf32, 1 : i64>) {
      ^bb0(%35: tensor<1x96x20x20xf32>, %36: tensor<96x96x1x1xf32>, %37: tensor<96xf32>):
        %body2_pw_1 = nn.conv2d %35, %36, %37 : (tensor<1x96x20x20xf32>, tensor<96x96x1x1xf32>, tensor<96xf32>) -> tensor<1x96x20x20xf32>
        nn.yield %body2_pw_1 : tensor<1x96x20x20xf32>
      }
      %body2_out = memref.view %arena[%c0][] {cfmem.tensor = "body2_out"} : memref<1318721xi8, 1 : i64> to memref<1x96x20x20xf32, 1 : i64>
      nn.apply ins(%body2_pw : memref<1x96x20x20xf32, 1 : i64>) outs(%body2_out : memref<1x96x20x20xf32, 1 : i64>) attributes {cfmem.inplace} {
      ^bb0(%38: tensor<1x96x20x20xf32>):
        %body2_out_1 = nn.relu %38 : (tensor<1x96x20x20xf32>) -> tensor<1x96x20x20xf32>
        nn.yield %body2_out_1 : tensor<1x96x20x20xf32>
      }
      "memref.dma_wait"(%tag_7, %c0, %c3456) : (memref<2xi32>, index, index) -> ()
      "memref.dma_wait"(%tag_7, %c1, %c384) : (memref<2xi32>, index, index) -> ()
      %body3_dw_w_sram = memref.view %dma3_1[%c0][] {cfmem.tensor = "body3_dw_w_sram"} : memref<4672xi8, 1 : i64> to memref<96x1x3x3xf32, 1 : i64>
      %body3_dw_b_sram = memref.view %dma3_1[%c3456][] {cfmem.tensor = "body3_dw_b_sram"} : memref<4672xi8, 1 : i64> to memref<96xf32, 1 : i64>
      %tag_10 = memref.alloca() : memref<2xi32>
      "memref.dma_start"(%weights, %c118976, %dma2_1, %c0, %c24576, %tag_10, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "body4_pw_w_sram"} : (memref<172352xi8>, index, memref<37248xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      "memref.dma_start"(%weights, %c143552, %dma2_1, %c24576, %c256, %tag_10, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "body4_pw_b_sram"} : (memref<172352xi8>, index, memref<37248xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      %body3_dw = memref.view %arena[%c153600][] {cfmem.tensor = "body3_dw"} : memref<1318721xi8, 1 : i64> to memref<1x96x20x20xf32, 1 : i64>
      nn.apply ins(%body2_out, %body3_dw_w_sram, %body3_dw_b_sram : memref<1x96x20x20xf32, 1 : i64>, memref<96x1x3x3xf32, 1 : i64>, memref<96xf32, 1 : i64>) outs(%body3_dw : memref<1x96x20x20xf32, 1 : i64>) {
      ^bb0(%39: tensor<1x96x20x20xf32>, %40: tensor<96x1x3x3xf32>, %41: tensor<96xf32>):
        %body3_dw_1 = nn.conv2d %39, %40, %41 {pads = array<i64: 2, 2, 2, 2>, dilations = array<i64: 2, 2>, groups = 96 : i64} : (tensor<1x96x20x20xf32>, tensor<96x1x3x3xf32>, tensor<96xf32>) -> tensor<1x96x20x20xf32>
        nn.yield %body3_dw_1 : tensor<1x96x20x20xf32>
      }
      %body3_dwr = memref.view %arena[%c153600][] {cfmem.tensor = "body3_dwr"} : memref<1318721xi8, 1 : i64> to memref<1x96x20x20xf32, 1 : i64>
      nn.apply ins(%body3_dw : memref<1x96x20x20xf32, 1 : i64>) outs(%body3_dwr : memref<1x96x20x20xf32, 1 : i64>) attributes {cfmem.inplace} {
      ^bb0(%42: tensor<1x96x20x20xf32>):
        %body3_dwr_1 = nn.relu %42 : (tensor<1x96x20x20xf32>) -> tensor<1x96x20x20xf32>
        nn.yield %body3_dwr_1 : tensor<1x96x20x20xf32>
      }
      "memref.dma_wait"(%tag_8, %c0, %c36864) : (memref<2xi32>, index, index) -> ()
      "memref.dma_wait"(%tag_8, %c1, %c384) : (memref<2xi32>, index, index) -> ()
      %body3_pw_w_sram = memref.view %dma0_1[%c0][] {cfmem.tensor = "body3_pw_w_sram"} : memref<37248xi8, 1 : i64> to memref<96x96x1x1xf32, 1 : i64>
      %body3_pw_b_sram = memref.view %dma0_1[%c36864][] {cfmem.tensor = "body3_pw_b_sram"} : memref<37248xi8, 1 : i64> to memref<96xf32, 1 : i64>
      %tag_11 = memref.alloca() : memref<2xi32>
      "memref.dma_start"(%weights, %c143808, %dma3_1, %c0, %c4608, %tag_11, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "body_heat_w_sram"} : (memref<172352xi8>, index, memref<4672xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      "memref.dma_start"(%weights, %c148416, %dma3_1, %c4608, %c8, %tag_11, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "body_heat_b_sram"} : (memref<172352xi8>, index, memref<4672xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      %body3_pw = memref.view %arena[%c0][] {cfmem.tensor = "body3_pw"} : memref<1318721xi8, 1 : i64> to memref<1x96x20x20xf32, 1 : i64>
      nn.apply ins(%body3_dwr, %body3_pw_w_sram, %body3_pw_b_sram : memref<1x96x20x20xf32, 1 : i64>, memref<96x96x1x1xf32, 1 : i64>, memref<96xf32, 1 : i64>) outs(%body3_pw : memref<1x96x20x20xf32, 1 : i64>) {
      ^bb0(%43: tensor<1x96x20x20xf32>, %44: tensor<96x96x1x1xf32>, %45: tensor<96xf32>):
        %body3_pw_1 = nn.conv2d %43, %44, %45 : (tensor<1x96x20x20xf32>, tensor<96x96x1x1xf32>, tensor<96xf32>) -> tensor<1x96x20x20xf32>
        nn.yield %body3_pw_1 : tensor<1x96x20x20xf32>
      }
      %body3_out = memref.view %arena[%c0][] {cfmem.tensor = "body3_out"} : memref<1318721xi8, 1 : i64> to memref<1x96x20x20xf32, 1 : i64>
      nn.apply ins(%body3_pw : memref<1x96x20x20xf32, 1 : i64>) outs(%body3_out : memref<1x96x20x20xf32, 1 : i64>) attributes {cfmem.inplace} {
      ^bb0(%46: tensor<1x96x20x20xf32>):
        %body3_out_1 = nn.relu %46 : (tensor<1x96x20x20xf32>) -> tensor<1x96x20x20xf32>
        nn.yield %body3_out_1 : tensor<1x96x20x20xf32>
      }
      "memref.dma_wait"(%tag_9, %c0, %c3456) : (memref<2xi32>, index, index) -> ()
      "memref.dma_wait"(%tag_9, %c1, %c384) : (memref<2xi32>, index, index) -> ()
      %body4_dw_w_sram = memref.view %dma1_1[%c0][] {cfmem.tensor = "body4_dw_w_sram"} : memref<3840xi8, 1 : i64> to memref<96x1x3x3xf32, 1 : i64>
      %body4_dw_b_sram = memref.view %dma1_1[%c3456][] {cfmem.tensor = "body4_dw_b_sram"} : memref<3840xi8, 1 : i64> to memref<96xf32, 1 : i64>
      %tag_12 = memref.alloca() : memref<2xi32>
      "memref.dma_start"(%weights, %c148480, %dma0_1, %c0, %c9216, %tag_12, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "body_box_w_sram"} : (memref<172352xi8>, index, memref<37248xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      "memref.dma_start"(%weights, %c157696, %dma0_1, %c9216, %c16, %tag_12, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "body_box_b_sram"} : (memref<172352xi8>, index, memref<37248xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      %body4_dw = memref.view %arena[%c153600][] {cfmem.tensor = "body4_dw"} : memref<1318721xi8, 1 : i64> to memref<1x96x20x20xf32, 1 : i64>
      nn.apply ins(%body3_out, %body4_dw_w_sram, %body4_dw_b_sram : memref<1x96x20x20xf32, 1 : i64>, memref<96x1x3x3xf32, 1 : i64>, memref<96xf32, 1 : i64>) outs(%body4_dw : memref<1x96x20x20xf32, 1 : i64>) {
      ^bb0(%47: tensor<1x96x20x20xf32>, %48: tensor<96x1x3x3xf32>, %49: tensor<96xf32>):
        %body4_dw_1 = nn.conv2d %47, %48, %49 {pads = array<i64: 4, 4, 4, 4>, dilations = array<i64: 4, 4>, groups = 96 : i64} : (tensor<1x96x20x20xf32>, tensor<96x1x3x3xf32>, tensor<96xf32>) -> tensor<1x96x20x20xf32>
        nn.yield %body4_dw_1 : tensor<1x96x20x20xf32>
      }
      %body4_dwr = memref.view %arena[%c153600][] {cfmem.tensor = "body4_dwr"} : memref<1318721xi8, 1 : i64> to memref<1x96x20x20xf32, 1 : i64>
      nn.apply ins(%body4_dw : memref<1x96x20x20xf32, 1 : i64>) outs(%body4_dwr : memref<1x96x20x20xf32, 1 : i64>) attributes {cfmem.inplace} {
      ^bb0(%50: tensor<1x96x20x20xf32>):
        %body4_dwr_1 = nn.relu %50 : (tensor<1x96x20x20xf32>) -> tensor<1x96x20x20xf32>
        nn.yield %body4_dwr_1 : tensor<1x96x20x20xf32>
      }
      "memref.dma_wait"(%tag_10, %c0, %c24576) : (memref<2xi32>, index, index) -> ()
      "memref.dma_wait"(%tag_10, %c1, %c256) : (memref<2xi32>, index, index) -> ()
      %body4_pw_w_sram = memref.view %dma2_1[%c0][] {cfmem.tensor = "body4_pw_w_sram"} : memref<37248xi8, 1 : i64> to memref<64x96x1x1xf32, 1 : i64>
      %body4_pw_b_sram = memref.view %dma2_1[%c24576][] {cfmem.tensor = "body4_pw_b_sram"} : memref<37248xi8, 1 : i64> to memref<64xf32, 1 : i64>
      %body4_pw = memref.view %arena[%c0][] {cfmem.tensor = "body4_pw"} : memref<1318721xi8, 1 : i64> to memref<1x64x20x20xf32, 1 : i64>
      nn.apply ins(%body4_dwr, %body4_pw_w_sram, %body4_pw_b_sram : memref<1x96x20x20xf32, 1 : i64>, memref<64x96x1x1xf32, 1 : i64>, memref<64xf32, 1 : i64>) outs(%body4_pw : memref<1x64x20x20xf32, 1 : i64>) {
      ^bb0(%51: tensor<1x96x20x20xf32>, %52: tensor<64x96x1x1xf32>, %53: tensor<64xf32>):
        %body4_pw_1 = nn.conv2d %51, %52, %53 : (tensor<1x96x20x20xf32>, tensor<64x96x1x1xf32>, tensor<64xf32>) -> tensor<1x64x20x20xf32>
        nn.yield %body4_pw_1 : tensor<1x64x20x20xf32>
      }
      %body4_out = memref.view %arena[%c0][] {cfmem.tensor = "body4_out"} : memref<1318721xi8, 1 : i64> to memref<1x64x20x20xf32, 1 : i64>
      nn.apply ins(%body4_pw : memref<1x64x20x20xf32, 1 : i64>) outs(%body4_out : memref<1x64x20x20xf32, 1 : i64>) attributes {cfmem.inplace} {
      ^bb0(%54: tensor<1x64x20x20xf32>):
        %body4_out_1 = nn.relu %54 : (tensor<1x64x20x20xf32>) -> tensor<1x64x20x20xf32>
        nn.yield %body4_out_1 : tensor<1x64x20x20xf32>
      }
      "memref.dma_wait"(%tag_11, %c0, %c4608) : (memref<2xi32>, index, index) -> ()
      "memref.dma_wait"(%tag_11, %c1, %c8) : (memref<2xi32>, index, index) -> ()
      %body_heat_w_sram = memref.view %dma3_1[%c0][] {cfmem.tensor = "body_heat_w_sram"} : memref<4672xi8, 1 : i64> to memref<2x64x3x3xf32, 1 : i64>
      %body_heat_b_sram = memref.view %dma3_1[%c4608][] {cfmem.tensor = "body_heat_b_sram"} : memref<4672xi8, 1 : i64> to memref<2xf32, 1 : i64>
      %body_heat = memref.view %arena[%c108800][] {cfmem.tensor = "body_heat"} : memref<1318721xi8, 1 : i64> to memref<1x2x20x20xf32, 1 : i64>
      nn.apply ins(%body4_out, %body_heat_w_sram, %body_heat_b_sram : memref<1x64x20x20xf32, 1 : i64>, memref<2x64x3x3xf32, 1 : i64>, memref<2xf32, 1 : i64>) outs(%body_heat : memref<1x2x20x20xf32, 1 : i64>) {
      ^bb0(%55: tensor<1x64x20x20xf32>, %56: tensor<2x64x3x3xf32>, %57: tensor<2xf32>):
        %body_heat_1 = nn.conv2d %55, %56, %57 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x64x20x20xf32>, tensor<2x64x3x3xf32>, tensor<2xf32>) -> tensor<1x2x20x20xf32>
        nn.yield %body_heat_1 : tensor<1x2x20x20xf32>
      }
      "memref.dma_wait"(%tag_12, %c0, %c9216) : (memref<2xi32>, index, index) -> ()
      "memref.dma_wait"(%tag_12, %c1, %c16) : (memref<2xi32>, index, index) -> ()
      %body_box_w_sram = memref.view %dma0_1[%c0][] {cfmem.tensor = "body_box_w_sram"} : memref<37248xi8, 1 : i64> to memref<4x64x3x3xf32, 1 : i64>
      %body_box_b_sram = memref.view %dma0_1[%c9216][] {cfmem.tensor = "body_box_b_sram"} : memref<37248xi8, 1 : i64> to memref<4xf32, 1 : i64>
      %body_box = memref.view %arena[%c102400][] {cfmem.tensor = "body_box"} : memref<1318721xi8, 1 : i64> to memref<1x4x20x20xf32, 1 : i64>
      nn.apply ins(%body4_out, %body_box_w_sram, %body_box_b_sram : memref<1x64x20x20xf32, 1 : i64>, memref<4x64x3x3xf32, 1 : i64>, memref<4xf32, 1 : i64>) outs(%body_box : memref<1x4x20x20xf32, 1 : i64>) {
      ^bb0(%58: tensor<1x64x20x20xf32>, %59: tensor<4x64x3x3xf32>, %60: tensor<4xf32>):
        %body_box_1 = nn.conv2d %58, %59, %60 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x64x20x20xf32>, tensor<4x64x3x3xf32>, tensor<4xf32>) -> tensor<1x4x20x20xf32>
        nn.yield %body_box_1 : tensor<1x4x20x20xf32>
      }
      "memref.copy"(%body_heat, %heat) : (memref<1x2x20x20xf32, 1 : i64>, memref<1x2x20x20xf32, 1 : i64>) -> ()
      "memref.copy"(%body_box, %out_boxes) : (memref<1x4x20x20xf32, 1 : i64>, memref<1x4x20x20xf32>) -> ()
    } else {
      %dma0_2 = memref.view %arena[%c189696][] {cfmem.tensor = "dma0_2"} : memref<1318721xi8, 1 : i64> to memref<1920xi8, 1 : i64>
      %dma1_2 = memref.view %arena[%c179200][] {cfmem.tensor = "dma1_2"} : memref<1318721xi8, 1 : i64> to memref<6272xi8, 1 : i64>
      %dma2_2 = memref.view %arena[%c153600][] {cfmem.tensor = "dma2_2"} : memref<1318721xi8, 1 : i64> to memref<1280xi8, 1 : i64>
      %dma3_2 = memref.view %arena[%c185472][] {cfmem.tensor = "dma3_2"} : memref<1318721xi8, 1 : i64> to memref<4224xi8, 1 : i64>
      %tag_13 = memref.alloca() : memref<2xi32>
      "memref.dma_start"(%weights, %c157760, %dma0_2, %c0, %c1728, %tag_13, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "face1_dw_w_sram"} : (memref<172352xi8>, index, memref<1920xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      "memref.dma_start"(%weights, %c159488, %dma0_2, %c1728, %c192, %tag_13, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "face1_dw_b_sram"} : (memref<172352xi8>, index, memref<1920xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      %tag_14 = memref.alloca() : memref<2xi32>
      "memref.dma_start"(%weights, %c159680, %dma1_2, %c0, %c6144, %tag_14, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "face1_pw_w_sram"} : (memref<172352xi8>, index, memref<6272xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      "memref.dma_start"(%weights, %c165824, %dma1_2, %c6144, %c128, %tag_14, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "face1_pw_b_sram"} : (memref<172352xi8>, index, memref<6272xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      %tag_15 = memref.alloca() : memref<2xi32>
      "memref.dma_start"(%weights, %c165952, %dma2_2, %c0, %c1152, %tag_15, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "face2_dw_w_sram"} : (memref<172352xi8>, index, memref<1280xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      "memref.dma_start"(%weights, %c167104, %dma2_2, %c1152, %c128, %tag_15, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "face2_dw_b_sram"} : (memref<172352xi8>, index, memref<1280xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      %face_pool = memref.view %arena[%c76800][] {cfmem.tensor = "face_pool"} : memref<1318721xi8, 1 : i64> to memref<1x48x20x20xf32, 1 : i64>
      nn.apply ins(%bb2_out : memref<1x48x40x40xf32, 1 : i64>) outs(%face_pool : memref<1x48x20x20xf32, 1 : i64>) {
      ^bb0(%61: tensor<1x48x40x40xf32>):
        %face_pool_1 = nn.max_pool2d %61 {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x48x40x40xf32>) -> tensor<1x48x20x20xf32>
        nn.yield %face_pool_1 : tensor<1x48x20x20xf32>
      }
      "memref.dma_wait"(%tag_13, %c0, %c1728) : (memref<2xi32>, index, index) -> ()
      "memref.dma_wait"(%tag_13, %c1, %c192) : (memref<2xi32>, index, index) -> ()
      %face1_dw_w_sram = memref.view %dma0_2[%c0][] {cfmem.tensor = "face1_dw_w_sram"} : memref<1920xi8, 1 : i64> to memref<48x1x3x3xf32, 1 : i64>
      %face1_dw_b_sram = memref.view %dma0_2[%c1728][] {cfmem.tensor = "face1_dw_b_sram"} : memref<1920xi8, 1 : i64> to memref<48xf32, 1 : i64>
      %tag_16 = memref.alloca() : memref<2xi32>
      "memref.dma_start"(%weights, %c167232, %dma3_2, %c0, %c4096, %tag_16, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "face2_pw_w_sram"} : (memref<172352xi8>, index, memref<4224xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      "memref.dma_start"(%weights, %c171328, %dma3_2, %c4096, %c128, %tag_16, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "face2_pw_b_sram"} : (memref<172352xi8>, index, memref<4224xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      %face1_dw = memref.view %arena[%c0][] {cfmem.tensor = "face1_dw"} : memref<1318721xi8, 1 : i64> to memref<1x48x20x20xf32, 1 : i64>
      nn.apply ins(%face_pool, %face1_dw_w_sram, %face1_dw_b_sram : memref<1x48x20x20xf32, 1 : i64>, memref<48x1x3x3xf32, 1 : i64>, memref<48xf32, 1 : i64>) outs(%face1_dw : memref<1x48x20x20xf32, 1 : i64>) {
      ^bb0(%62: tensor<1x48x20x20xf32>, %63: tensor<48x1x3x3xf32>, %64: tensor<48xf32>):
        %face1_dw_1 = nn.conv2d %62, %63, %64 {pads = array<i64: 1, 1, 1, 1>, groups = 48 : i64} : (tensor<1x48x20x20xf32>, tensor<48x1x3x3xf32>, tensor<48xf32>) -> tensor<1x48x20x20xf32>
        nn.yield %face1_dw_1 : tensor<1x48x20x20xf32>
      }
      %face1_dwr = memref.view %arena[%c0][] {cfmem.tensor = "face1_dwr"} : memref<1318721xi8, 1 : i64> to memref<1x48x20x20xf32, 1 : i64>
      nn.apply ins(%face1_dw : memref<1x48x20x20xf32, 1 : i64>) outs(%face1_dwr : memref<1x48x20x20xf32, 1 : i64>) attributes {cfmem.inplace} {
      ^bb0(%65: tensor<1x48x20x20xf32>):
        %face1_dwr_1 = nn.relu %65 : (tensor<1x48x20x20xf32>) -> tensor<1x48x20x20xf32>
        nn.yield %face1_dwr_1 : tensor<1x48x20x20xf32>
      }
      "memref.dma_wait"(%tag_14, %c0, %c6144) : (memref<2xi32>, index, index) -> ()
      "memref.dma_wait"(%tag_14, %c1, %c128) : (memref<2xi32>, index, index) -> ()
      %face1_pw_w_sram = memref.view %dma1_2[%c0][] {cfmem.tensor = "face1_pw_w_sram"} : memref<6272xi8, 1 : i64> to memref<32x48x1x1xf32, 1 : i64>
      %face1_pw_b_sram = memref.view %dma1_2[%c6144][] {cfmem.tensor = "face1_pw_b_sram"} : memref<6272xi8, 1 : i64> to memref<32xf32, 1 : i64>
      %tag_17 = memref.alloca() : memref<2xi32>
      "memref.dma_start"(%weights, %c171456, %dma0_2, %c0, %c256, %tag_17, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "face_heat_w_sram"} : (memref<172352xi8>, index, memref<1920xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      "memref.dma_start"(%weights, %c171712, %dma0_2, %c256, %c8, %tag_17, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "face_heat_b_sram"} : (memref<172352xi8>, index, memref<1920xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      %face1_pw = memref.view %arena[%c76800][] {cfmem.tensor = "face1_pw"} : memref<1318721xi8, 1 : i64> to memref<1x32x20x20xf32, 1 : i64>
      nn.apply ins(%face1_dwr, %face1_pw_w_sram, %face1_pw_b_sram : memref<1x48x20x20xf32, 1 : i64>, memref<32x48x1x1xf32, 1 : i64>, memref<32xf32, 1 : i64>) outs(%face1_pw : memref<1x32x20x20xf32, 1 : i64>) {
      ^bb0(%66: tensor<1x48x20x20xf32>, %67: tensor<32x48x1x1xf32>, %68: tensor<32xf32>):
        %face1_pw_1 = nn.conv2d %66, %67, %68 : (tensor<1x48x20x20xf32>, tensor<32x48x1x1xf32>, tensor<32xf32>) -> tensor<1x32x20x20xf32>
        nn.yield %face1_pw_1 : tensor<1x32x20x20xf32>
      }
      %face1_out = memref.view %arena[%c76800][] {cfmem.tensor = "face1_out"} : memref<1318721xi8, 1 : i64> to memref<1x32x20x20xf32, 1 : i64>
      nn.apply ins(%face1_pw : memref<1x32x20x20xf32, 1 : i64>) outs(%face1_out : memref<1x32x20x20xf32, 1 : i64>) attributes {cfmem.inplace} {
      ^bb0(%69: tensor<1x32x20x20xf32>):
        %face1_out_1 = nn.relu %69 : (tensor<1x32x20x20xf32>) -> tensor<1x32x20x20xf32>
        nn.yield %face1_out_1 : tensor<1x32x20x20xf32>
      }
      "memref.dma_wait"(%tag_15, %c0, %c1152) : (memref<2xi32>, index, index) -> ()
      "memref.dma_wait"(%tag_15, %c1, %c128) : (memref<2xi32>, index, index) -> ()
      %face2_dw_w_sram = memref.view %dma2_2[%c0][] {cfmem.tensor = "face2_dw_w_sram"} : memref<1280xi8, 1 : i64> to memref<32x1x3x3xf32, 1 : i64>
      %face2_dw_b_sram = memref.view %dma2_2[%c1152][] {cfmem.tensor = "face2_dw_b_sram"} : memref<1280xi8, 1 : i64> to memref<32xf32, 1 : i64>
      %tag_18 = memref.alloca() : memref<2xi32>
      "memref.dma_start"(%weights, %c171776, %dma1_2, %c0, %c512, %tag_18, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "face_box_w_sram"} : (memref<172352xi8>, index, memref<6272xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      "memref.dma_start"(%weights, %c172288, %dma1_2, %c512, %c16, %tag_18, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "face_box_b_sram"} : (memref<172352xi8>, index, memref<6272xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      %face2_dw = memref.view %arena[%c0][] {cfmem.tensor = "face2_dw"} : memref<1318721xi8, 1 : i64> to memref<1x32x20x20xf32, 1 : i64>
      nn.apply ins(%face1_out, %face2_dw_w_sram, %face2_dw_b_sram : memref<1x32x20x20xf32, 1 : i64>, memref<32x1x3x3xf32, 1 : i64>, memref<32xf32, 1 : i64>) outs(%face2_dw : memref<1x32x20x20xf32, 1 : i64>) {
      ^bb0(%70: tensor<1x32x20x20xf32>, %71: tensor<32x1x3x3xf32>, %72: tensor<32xf32>):
        %face2_dw_1 = nn.conv2d %70, %71, %72 {pads = array<i64: 1, 1, 1, 1>, groups = 32 : i64} : (tensor<1x32x20x20xf32>, tensor<32x1x3x3xf32>, tensor<32xf32>) -> tensor<1x32x20x20xf32>
        nn.yield %face2_dw_1 : tensor<1x32x20x20xf32>
      }
      %face2_dwr = memref.view %arena[%c0][] {cfmem.tensor = "face2_dwr"} : memref<1318721xi8, 1 : i64> to memref<1x32x20x20xf32, 1 : i64>
      nn.apply ins(%face2_dw : memref<1x32x20x20xf32, 1 : i64>) outs(%face2_dwr : memref<1x32x20x20xf32, 1 : i64>) attributes {cfmem.inplace} {
      ^bb0(%73: tensor<1x32x20x20xf32>):
        %face2_dwr_1 = nn.relu %73 : (tensor<1x32x20x20xf32>) -> tensor<1x32x20x20xf32>
        nn.yield %face2_dwr_1 : tensor<1x32x20x20xf32>
      }
      "memref.dma_wait"(%tag_16, %c0, %c4096) : (memref<2xi32>, index, index) -> ()
      "memref.dma_wait"(%tag_16, %c1, %c128) : (memref<2xi32>, index, index) -> ()
      %face2_pw_w_sram = memref.view %dma3_2[%c0][] {cfmem.tensor = "face2_pw_w_sram"} : memref<4224xi8, 1 : i64> to memref<32x32x1x1xf32, 1 : i64>
      %face2_pw_b_sram = memref.view %dma3_2[%c4096][] {cfmem.tensor = "face2_pw_b_sram"} : memref<4224xi8, 1 : i64> to memref<32xf32, 1 : i64>
      %face2_pw = memref.view %arena[%c128000][] {cfmem.tensor = "face2_pw"} : memref<1318721xi8, 1 : i64> to memref<1x32x20x20xf32, 1 : i64>
      nn.apply ins(%face2_dwr, %face2_pw_w_sram, %face2_pw_b_sram : memref<1x32x20x20xf32, 1 : i64>, memref<32x32x1x1xf32, 1 : i64>, memref<32xf32, 1 : i64>) outs(%face2_pw : memref<1x32x20x20xf32, 1 : i64>) {
      ^bb0(%74: tensor<1x32x20x20xf32>, %75: tensor<32x32x1x1xf32>, %76: tensor<32xf32>):
        %face2_pw_1 = nn.conv2d %74, %75, %76 : (tensor<1x32x20x20xf32>, tensor<32x32x1x1xf32>, tensor<32xf32>) -> tensor<1x32x20x20xf32>
        nn.yield %face2_pw_1 : tensor<1x32x20x20xf32>
      }
      %face2_out = memref.view %arena[%c128000][] {cfmem.tensor = "face2_out"} : memref<1318721xi8, 1 : i64> to memref<1x32x20x20xf32, 1 : i64>
      nn.apply ins(%face2_pw : memref<1x32x20x20xf32, 1 : i64>) outs(%face2_out : memref<1x32x20x20xf32, 1 : i64>) attributes {cfmem.inplace} {
      ^bb0(%77: tensor<1x32x20x20xf32>):
        %face2_out_1 = nn.relu %77 : (tensor<1x32x20x20xf32>) -> tensor<1x32x20x20xf32>
        nn.yield %face2_out_1 : tensor<1x32x20x20xf32>
      }
      %face_res = memref.view %arena[%c76800][] {cfmem.tensor = "face_res"} : memref<1318721xi8, 1 : i64> to memref<1x32x20x20xf32, 1 : i64>
      nn.apply ins(%face1_out, %face2_out : memref<1x32x20x20xf32, 1 : i64>, memref<1x32x20x20xf32, 1 : i64>) outs(%face_res : memref<1x32x20x20xf32, 1 : i64>) attributes {cfmem.inplace} {
      ^bb0(%78: tensor<1x32x20x20xf32>, %79: tensor<1x32x20x20xf32>):
        %face_res_1 = nn.add %78, %79 : (tensor<1x32x20x20xf32>, tensor<1x32x20x20xf32>) -> tensor<1x32x20x20xf32>
        nn.yield %face_res_1 : tensor<1x32x20x20xf32>
      }
      "memref.dma_wait"(%tag_17, %c0, %c256) : (memref<2xi32>, index, index) -> ()
      "memref.dma_wait"(%tag_17, %c1, %c8) : (memref<2xi32>, index, index) -> ()
      %face_heat_w_sram = memref.view %dma0_2[%c0][] {cfmem.tensor = "face_heat_w_sram"} : memref<1920xi8, 1 : i64> to memref<2x32x1x1xf32, 1 : i64>
      %face_heat_b_sram = memref.view %dma0_2[%c256][] {cfmem.tensor = "face_heat_b_sram"} : memref<1920xi8, 1 : i64> to memref<2xf32, 1 : i64>
      %face_heat = memref.view %arena[%c6400][] {cfmem.tensor = "face_heat"} : memref<1318721xi8, 1 : i64> to memref<1x2x20x20xf32, 1 : i64>
      nn.apply ins(%face_res, %face_heat_w_sram, %face_heat_b_sram : memref<1x32x20x20xf32, 1 : i64>, memref<2x32x1x1xf32, 1 : i64>, memref<2xf32, 1 : i64>) outs(%face_heat : memref<1x2x20x20xf32, 1 : i64>) {
      ^bb0(%80: tensor<1x32x20x20xf32>, %81: tensor<2x32x1x1xf32>, %82: tensor<2xf32>):
        %face_heat_1 = nn.conv2d %80, %81, %82 : (tensor<1x32x20x20xf32>, tensor<2x32x1x1xf32>, tensor<2xf32>) -> tensor<1x2x20x20xf32>
        nn.yield %face_heat_1 : tensor<1x2x20x20xf32>
      }
      "memref.dma_wait"(%tag_18, %c0, %c512) : (memref<2xi32>, index, index) -> ()
      "memref.dma_wait"(%tag_18, %c1, %c16) : (memref<2xi32>, index, index) -> ()
      %face_box_w_sram = memref.view %dma1_2[%c0][] {cfmem.tensor = "face_box_w_sram"} : memref<6272xi8, 1 : i64> to memref<4x32x1x1xf32, 1 : i64>
      %face_box_b_sram = memref.view %dma1_2[%c512][] {cfmem.tensor = "face_box_b_sram"} : memref<6272xi8, 1 : i64> to memref<4xf32, 1 : i64>
      %face_box = memref.view %arena[%c0][] {cfmem.tensor = "face_box"} : memref<1318721xi8, 1 : i64> to memref<1x4x20x20xf32, 1 : i64>
      nn.apply ins(%face_res, %face_box_w_sram, %face_box_b_sram : memref<1x32x20x20xf32, 1 : i64>, memref<4x32x1x1xf32, 1 : i64>, memref<4xf32, 1 : i64>) outs(%face_box : memref<1x4x20x20xf32, 1 : i64>) {
      ^bb0(%83: tensor<1x32x20x20xf32>, %84: tensor<4x32x1x1xf32>, %85: tensor<4xf32>):
        %face_box_1 = nn.conv2d %83, %84, %85 : (tensor<1x32x20x20xf32>, tensor<4x32x1x1xf32>, tensor<4xf32>) -> tensor<1x4x20x20xf32>
        nn.yield %face_box_1 : tensor<1x4x20x20xf32>
      }
      "memref.copy"(%face_heat, %heat) : (memref<1x2x20x20xf32, 1 : i64>, memref<1x2x20x20xf32, 1 : i64>) -> ()
      "memref.copy"(%face_box, %out_boxes) : (memref<1x4x20x20xf32, 1 : i64>, memref<1x4x20x20xf32>) -> ()
    }
    nn.apply ins(%heat : memref<1x2x20x20xf32, 1 : i64>) outs(%out_scores : memref<1x2x20x20xf32>) {
    ^bb0(%86: tensor<1x2x20x20xf32>):
      %scores = nn.sigmoid %86 : (tensor<1x2x20x20xf32>) -> tensor<1x2x20x20xf32>
      nn.yield %scores : tensor<1x2x20x20xf32>
    }
    func.return
  }
  func.func @load_resident_main() attributes {cfmem.init_of = "main"} {
    %0 = memref.get_global @arena_main : memref<1318721xi8, 1 : i64>
    %1 = arith.constant 1311808 : index
    %2 = memref.view %0[%1][] : memref<1318721xi8, 1 : i64> to memref<3712xi8, 1 : i64>
    %3 = memref.alloca() : memref<4xi32>
    %4 = memref.get_global @weights : memref<172352xi8>
    %5 = arith.constant 0 : index
    %6 = arith.constant 1728 : index
    "memref.dma_start"(%4, %5, %2, %5, %6, %3, %5) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "stem_w_sram"} : (memref<172352xi8>, index, memref<3712xi8, 1 : i64>, index, index, memref<4xi32>, index) -> ()
    %7 = memref.get_global @weights : memref<172352xi8>
    %8 = arith.constant 64 : index
    %9 = arith.constant 1 : index
    "memref.dma_start"(%7, %6, %2, %6, %8, %3, %9) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "stem_b_sram"} : (memref<172352xi8>, index, memref<3712xi8, 1 : i64>, index, index, memref<4xi32>, index) -> ()
    %10 = memref.get_global @weights : memref<172352xi8>
    %11 = arith.constant 12224 : index
    %12 = arith.constant 1792 : index
    %13 = arith.constant 2 : index
    "memref.dma_start"(%10, %11, %2, %12, %6, %3, %13) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "body1_dw_w_sram"} : (memref<172352xi8>, index, memref<3712xi8, 1 : i64>, index, index, memref<4xi32>, index) -> ()
    %14 = memref.get_global @weights : memref<172352xi8>
    %15 = arith.constant 13952 : index
    %16 = arith.constant 3520 : index
    %17 = arith.constant 192 : index
    %18 = arith.constant 3 : index
    "memref.dma_start"(%14, %15, %2, %16, %17, %3, %18) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "body1_dw_b_sram"} : (memref<172352xi8>, index, memref<3712xi8, 1 : i64>, index, index, memref<4xi32>, index) -> ()
    "memref.dma_wait"(%3, %5, %6) : (memref<4xi32>, index, index) -> ()
    "memref.dma_wait"(%3, %9, %8) : (memref<4xi32>, index, index) -> ()
    "memref.dma_wait"(%3, %13, %6) : (memref<4xi32>, index, index) -> ()
    "memref.dma_wait"(%3, %18, %17) : (memref<4xi32>, index, index) -> ()
    func.return
  }
}
