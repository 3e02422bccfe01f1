builtin.module {
  "memref.global"() <{sym_name = "weights", type = memref<191808xi8>, initial_value = dense<"0x~0b3acfcfb24f14f2"> : tensor<191808xi8>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "arena_main", type = memref<828352xi8, 1 : i64>, initial_value, sym_visibility = "private"}> : () -> ()
  func.func @main(%image: memref<1x3x128x128xf32>, %out_scores: memref<1x896xf32>, %out_boxes: memref<1x3584xf32>) attributes {cfmem.dma_depth = 7 : i64, cfmem.arena_size = 828352 : i64, cfmem.lower_bound = 828352 : i64, cfmem.plan = "exact/auto", cfmem.aliases = "reshape,slice,inplace,concat,yield", cfmem.onchip_budget = 2097152 : i64, cfmem.init = "load_resident_main", cfmem.output_names = ["scores", "boxes"]} {
    %arena = memref.get_global @arena_main : memref<828352xi8, 1 : i64>
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
    %stem_w = memref.view %weights[%c0][] : memref<191808xi8> to memref<16x3x3x3xf32>
    %stem_b = memref.view %weights[%c1728][] : memref<191808xi8> to memref<16xf32>
    %b1_dw_w = memref.view %weights[%c1792][] : memref<191808xi8> to memref<16x1x3x3xf32>
    %b1_dw_b = memref.view %weights[%c2368][] : memref<191808xi8> to memref<16xf32>
    %b1_pw_w = memref.view %weights[%c2432][] : memref<191808xi8> to memref<24x16x1x1xf32>
    %b1_pw_b = memref.view %weights[%c3968][] : memref<191808xi8> to memref<24xf32>
    %b2_dw_w = memref.view %weights[%c4096][] : memref<191808xi8> to memref<24x1x3x3xf32>
    %b2_dw_b = memref.view %weights[%c4992][] : memref<191808xi8> to memref<24xf32>
    %b2_pw_w = memref.view %weights[%c5120][] : memref<191808xi8> to memref<32x24x1x1xf32>
    %b2_pw_b = memref.view %weights[%c8192][] : memref<191808xi8> to memref<32xf32>
    %b3_dw_w = memref.view %weights[%c8320][] : memref<191808xi8> to memref<32x1x3x3xf32>
    %b3_dw_b = memref.view %weights[%c9472][] : memref<191808xi8> to memref<32xf32>
    %b3_pw_w = memref.view %weights[%c9600][] : memref<191808xi8> to memref<64x32x1x1xf32>
    %b3_pw_b = memref.view %weights[%c17792][] : memref<191808xi8> to memref<64xf32>
    %b4_dw_w = memref.view %weights[%c18048][] : memref<191808xi8> to memref<64x1x3x3xf32>
    %b4_dw_b = memref.view %weights[%c20352][] : memref<191808xi8> to memref<64xf32>
    %b4_pw_w = memref.view %weights[%c20608][] : memref<191808xi8> to memref<64x64x1x1xf32>
    %b4_pw_b = memref.view %weights[%c36992][] : memref<191808xi8> to memref<64xf32>
    %b5_dw_w = memref.view %weights[%c37248][] : memref<191808xi8> to memref<64x1x3x3xf32>
    %b5_dw_b = memref.view %weights[%c39552][] : memref<191808xi8> to memref<64xf32>
    %b5_pw_w = memref.view %weights[%c39808][] : memref<191808xi8> to memref<96x64x1x1xf32>
    %b5_pw_b = memref.view %weights[%c64384][] : memref<191808xi8> to memref<96xf32>
    %cls16_w = memref.view %weights[%c64768][] : memref<191808xi8> to memref<2x64x3x3xf32>
    %cls16_b = memref.view %weights[%c69376][] : memref<191808xi8> to memref<2xf32>
    %cls8_w = memref.view %weights[%c69440][] : memref<191808xi8> to memref<6x96x3x3xf32>
    %cls8_b = memref.view %weights[%c90176][] : memref<191808xi8> to memref<6xf32>
    %box16_w = memref.view %weights[%c90240][] : memref<191808xi8> to memref<8x64x3x3xf32>
    %box16_b = memref.view %weights[%c108672][] : memref<191808xi8> to memref<8xf32>
    %box8_w = memref.view %weights[%c108736][] : memref<191808xi8> to memref<24x96x3x3xf32>
    %box8_b = memref.view %weights[%c191680][] : memref<191808xi8> to memref<24xf32>
    %dma0 = memref.view %arena[%c802688][] {cfmem.tensor = "dma0"} : memref<828352xi8, 1 : i64> to memref<16640xi8, 1 : i64>
    %dma1 = memref.view %arena[%c824000][] {cfmem.tensor = "dma1"} : memref<828352xi8, 1 : i64> to memref<2560xi8, 1 : i64>
    %dma2 = memref.view %arena[%c738432][] {cfmem.tensor = "dma2"} : memref<828352xi8, 1 : i64> to memref<24960xi8, 1 : i64>
    %dma3 = memref.view %arena[%c819328][] {cfmem.tensor = "dma3"} : memref<828352xi8, 1 : i64> to memref<4672xi8, 1 : i64>
    %dma4 = memref.view %arena[%c763392][] {cfmem.tensor = "dma4"} : memref<828352xi8, 1 : i64> to memref<20800xi8, 1 : i64>
    %dma5 = memref.view %arena[%c784192][] {cfmem.tensor = "dma5"} : memref<828352xi8, 1 : i64> to memref<18496xi8, 1 : i64>
    %dma6 = memref.view %arena[%c655360][] {cfmem.tensor = "dma6"} : memref<828352xi8, 1 : i64> to memref<83072xi8, 1 : i64>
    %tag = memref.alloca() : memref<2xi32>
    "memref.dma_start"(%weights, %c1792, %dma0, %c0, %c576, %tag, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "b1_dw_w_sram"} : (memref<191808xi8>, index, memref<16640xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    "memref.dma_start"(%weights, %c2368, %dma0, %c576, %c64, %tag, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "b1_dw_b_sram"} : (memref<191808xi8>, index, memref<16640xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    %tag_1 = memref.alloca() : memref<2xi32>
    "memref.dma_start"(%weights, %c2432, %dma1, %c0, %c1536, %tag_1, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "b1_pw_w_sram"} : (memref<191808xi8>, index, memref<2560xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    "memref.dma_start"(%weights, %c3968, %dma1, %c1536, %c96, %tag_1, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "b1_pw_b_sram"} : (memref<191808xi8>, index, memref<2560xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    %tag_2 = memref.alloca() : memref<2xi32>
    "memref.dma_start"(%weights, %c4096, %dma2, %c0, %c864, %tag_2, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "b2_dw_w_sram"} : (memref<191808xi8>, index, memref<24960xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    "memref.dma_start"(%weights, %c4992, %dma2, %c896, %c96, %tag_2, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "b2_dw_b_sram"} : (memref<191808xi8>, index, memref<24960xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    %tag_3 = memref.alloca() : memref<2xi32>
    "memref.dma_start"(%weights, %c5120, %dma3, %c0, %c3072, %tag_3, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "b2_pw_w_sram"} : (memref<191808xi8>, index, memref<4672xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    "memref.dma_start"(%weights, %c8192, %dma3, %c3072, %c128, %tag_3, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "b2_pw_b_sram"} : (memref<191808xi8>, index, memref<4672xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    %tag_4 = memref.alloca() : memref<2xi32>
    "memref.dma_start"(%weights, %c8320, %dma4, %c0, %c1152, %tag_4, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "b3_dw_w_sram"} : (memref<191808xi8>, index, memref<20800xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    "memref.dma_start"(%weights, %c9472, %dma4, %c1152, %c128, %tag_4, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "b3_dw_b_sram"} : (memref<191808xi8>, index, memref<20800xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    %tag_5 = memref.alloca() : memref<2xi32>
    "memref.dma_start"(%weights, %c9600, %dma5, %c0, %c8192, %tag_5, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "b3_pw_w_sram"} : (memref<191808xi8>, index, memref<18496xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    "memref.dma_start"(%weights, %c17792, %dma5, %c8192, %c256, %tag_5, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "b3_pw_b_sram"} : (memref<191808xi8>, index, memref<18496xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    %resident = memref.view %arena[%c826560][] {cfmem.tensor = "resident"} : memref<828352xi8, 1 : i64> to memref<1792xi8, 1 : i64>
    %stem_w_sram = memref.view %resident[%c0][] {cfmem.tensor = "stem_w_sram"} : memref<1792xi8, 1 : i64> to memref<16x3x3x3xf32, 1 : i64>
    %stem_b_sram = memref.view %resident[%c1728][] {cfmem.tensor = "stem_b_sram"} : memref<1792xi8, 1 : i64> to memref<16xf32, 1 : i64>
    %stem = memref.view %arena[%c0][] {cfmem.tensor = "stem"} : memref<828352xi8, 1 : i64> to memref<1x16x64x64xf32, 1 : i64>
    nn.apply ins(%image, %stem_w_sram, %stem_b_sram : memref<1x3x128x128xf32>, memref<16x3x3x3xf32, 1 : i64>, memref<16xf32, 1 : i64>) outs(%stem : memref<1x16x64x64xf32, 1 : i64>) {
    ^bb0(%0: tensor<1x3x128x128xf32>, %1: tensor<16x3x3x3xf32>, %2: tensor<16xf32>):
      %stem_1 = nn.conv2d %0, %1, %2 {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x128x128xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x64x64xf32>
      nn.yield %stem_1 : tensor<1x16x64x64xf32>
    }
    %stem_out = memref.view %arena[%c0][] {cfmem.tensor = "stem_out"} : memref<828352xi8, 1 : i64> to memref<1x16x64x64xf32, 1 : i64>
    nn.apply ins(%stem : memref<1x16x64x64xf32, 1 : i64>) outs(%stem_out : memref<1x16x64x64xf32, 1 : i64>) attributes {cfmem.inplace} {
    ^bb0(%3: tensor<1x16x64x64xf32>):
      %stem_out_1 = nn.relu %3 : (tensor<1x16x64x64xf32>) -> tensor<1x16x64x64xf32>
      nn.yield %stem_out_1 : tensor<1x16x64x64xf32>
    }
    "memref.dma_wait"(%tag, %c0, %c576) : (memref<2xi32>, index, index) -> ()
    "memref.dma_wait"(%tag, %c1, %c64) : (memref<2xi32>, index, index) -> ()
    %b1_dw_w_sram = memref.view %dma0[%c0][] {cfmem.tensor = "b1_dw_w_sram"} : memref<16640xi8, 1 : i64> to memref<16x1x3x3xf32, 1 : i64>
    %b1_dw_b_sram = memref.view %dma0[%c576][] {cfmem.tensor = "b1_dw_b_sram"} : memref<16640xi8, 1 : i64> to memref<16xf32, 1 : i64>
    %tag_6 = memref.alloca() : memref<2xi32>
    "memref.dma_start"(%weights, %c18048, %dma6, %c0, %c2304, %tag_6, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "b4_dw_w_sram"} : (memref<191808xi8>, index, memref<83072xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    "memref.dma_start"(%weights, %c20352, %dma6, %c2304, %c256, %tag_6, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "b4_dw_b_sram"} : (memref<191808xi8>, index, memref<83072xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    %b1_dw = memref.view %arena[%c393216][] {cfmem.tensor = "b1_dw"} : memref<828352xi8, 1 : i64> to memref<1x16x64x64xf32, 1 : i64>
    nn.apply ins(%stem_out, %b1_dw_w_sram, %b1_dw_b_sram : memref<1x16x64x64xf32, 1 : i64>, memref<16x1x3x3xf32, 1 : i64>, memref<16xf32, 1 : i64>) outs(%b1_dw : memref<1x16x64x64xf32, 1 : i64>) {
    ^bb0(%4: tensor<1x16x64x64xf32>, %5: tensor<16x1x3x3xf32>, %6: tensor<16xf32>):
      %b1_dw_1 = nn.conv2d %4, %5, %6 {pads = array<i64: 1, 1, 1, 1>, groups = 16 : i64} : (tensor<1x16x64x64xf32>, tensor<16x1x3x3xf32>, tensor<16xf32>) -> tensor<1x16x64x64xf32>
      nn.yield %b1_dw_1 : tensor<1x16x64x64xf32>
    }
    %b1_dwr = memref.view %arena[%c393216][] {cfmem.tensor = "b1_dwr"} : memref<828352xi8, 1 : i64> to memref<1x16x64x64xf32, 1 : i64>
    nn.apply ins(%b1_dw : memref<1x16x64x64xf32, 1 : i64>) outs(%b1_dwr : memref<1x16x64x64xf32, 1 : i64>) attributes {cfmem.inplace} {
    ^bb0(%7: tensor<1x16x64x64xf32>):
      %b1_dwr_1 = nn.relu %7 : (tensor<1x16x64x64xf32>) -> tensor<1x16x64x64xf32>
      nn.yield %b1_dwr_1 : tensor<1x16x64x64xf32>
    }
    "memref.dma_wait"(%tag_1, %c0, %c1536) : (memref<2xi32>, index, index) -> ()
    "memref.dma_wait"(%tag_1, %c1, %c96) : (memref<2xi32>, index, index) -> ()
    %b1_pw_w_sram = memref.view %dma1[%c0][] {cfmem.tensor = "b1_pw_w_sram"} : memref<2560xi8, 1 : i64> to memref<24x16x1x1xf32, 1 : i64>
    %b1_pw_b_sram = memref.view %dma1[%c1536][] {cfmem.tensor = "b1_pw_b_sram"} : memref<2560xi8, 1 : i64> to memref<24xf32, 1 : i64>
    %tag_7 = memref.alloca() : memref<2xi32>
    "memref.dma_start"(%weights, %c20608, %dma0, %c0, %c16384, %tag_7, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "b4_pw_w_sram"} : (memref<191808xi8>, index, memref<16640xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    "memref.dma_start"(%weights, %c36992, %dma0, %c16384, %c256, %tag_7, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "b4_pw_b_sram"} : (memref<191808xi8>, index, memref<16640xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    %b1_pw = memref.view %arena[%c0][] {cfmem.tensor = "b1_pw"} : memref<828352xi8, 1 : i64> to memref<1x24x64x64xf32, 1 : i64>
    nn.apply ins(%b1_dwr, %b1_pw_w_sram, %b1_pw_b_sram : memref<1x16x64x64xf32, 1 : i64>, memref<24x16x1x1xf32, 1 : i64>, memref<24xf32, 1 : i64>) outs(%b1_pw : memref<1x24x64x64xf32, 1 : i64>) {
    ^bb0(%8: tensor<1x16x64x64xf32>, %9: tensor<24x16x1x1xf32>, %10: tensor<24xf32>):
      %b1_pw_1 = nn.conv2d %8, %9, %10 : (tensor<1x16x64x64xf32>, tensor<24x16x1x1xf32>, tensor<24xf32>) -> tensor<1x24x64x64xf32>
      nn.yield %b1_pw_1 : tensor<1x24x64x64xf32>
    }
    %b1_out = memref.view %arena[%c0][] {cfmem.tensor = "b1_out"} : memref<828352xi8, 1 : i64> to memref<1x24x64x64xf32, 1 : i64>
    nn.apply ins(%b1_pw : memref<1x24x64x64xf32, 1 : i64>) outs(%b1_out : memref<1x24x64x64xf32, 1 : i64>) attributes {cfmem.inplace} {
    ^bb0(%11: tensor<1x24x64x64xf32>):
      %b1_out_1 = nn.relu %11 : (tensor<1x24x64x64xf32>) -> tensor<1x24x64x64xf32>
      nn.yield %b1_out_1 : tensor<1x24x64x64xf32>
    }
    %pool1 = memref.view %arena[%c393216][] {cfmem.tensor = "pool1"} : memref<828352xi8, 1 : i64> to memref<1x24x32x32xf32, 1 : i64>
    nn.apply ins(%b1_out : memref<1x24x64x64xf32, 1 : i64>) outs(%pool1 : memref<1x24x32x32xf32, 1 : i64>) {
    ^bb0(%12: tensor<1x24x64x64xf32>):
      %pool1_1 = nn.max_pool2d %12 {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x24x64x64xf32>) -> tensor<1x24x32x32xf32>
      nn.yield %pool1_1 : tensor<1x24x32x32xf32>
    }
    "memref.dma_wait"(%tag_2, %c0, %c864) : (memref<2xi32>, index, index) -> ()
    "memref.dma_wait"(%tag_2, %c1, %c96) : (memref<2xi32>, index, index) -> ()
    %b2_dw_w_sram = memref.view %dma2[%c0][] {cfmem.tensor = "b2_dw_w_sram"} : memref<24960xi8, 1 : i64> to memref<24x1x3x3xf32, 1 : i64>
    %b2_dw_b_sram = memref.view %dma2[%c896][] {cfmem.tensor = "b2_dw_b_sram"} : memref<24960xi8, 1 : i64> to memref<24xf32, 1 : i64>
    %tag_8 = memref.alloca() : memref<2xi32>
    "memref.dma_start"(%weights, %c37248, %dma1, %c0, %c2304, %tag_8, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "b5_dw_w_sram"} : (memref<191808xi8>, index, memref<2560xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    "memref.dma_start"(%weights, %c39552, %dma1, %c2304, %c256, %tag_8, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "b5_dw_b_sram"} : (memref<191808xi8>, index, memref<2560xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    %b2_dw = memref.view %arena[%c131072][] {cfmem.tensor = "b2_dw"} : memref<828352xi8, 1 : i64> to memref<1x24x32x32xf32, 1 : i64>
    nn.apply ins(%pool1, %b2_dw_w_sram, %b2_dw_b_sram : memref<1x24x32x32xf32, 1 : i64>, memref<24x1x3x3xf32, 1 : i64>, memref<24xf32, 1 : i64>) outs(%b2_dw : memref<1x24x32x32xf32, 1 : i64>) {
    ^bb0(%13: tensor<1x24x32x32xf32>, %14: tensor<24x1x3x3xf32>, %15: tensor<24xf32>):
      %b2_dw_1 = nn.conv2d %13, %14, %15 {pads = array<i64: 1, 1, 1, 1>, groups = 24 : i64} : (tensor<1x24x32x32xf32>, tensor<24x1x3x3xf32>, tensor<24xf32>) -> tensor<1x24x32x32xf32>
      nn.yield %b2_dw_1 : tensor<1x24x32x32xf32>
    }
    %b2_dwr = memref.view %arena[%c131072][] {cfmem.tensor = "b2_dwr"} : memref<828352xi8, 1 : i64> to memref<1x24x32x32xf32, 1 : i64>
    nn.apply ins(%b2_dw : memref<1x24x32x32xf32, 1 : i64>) outs(%b2_dwr : memref<1x24x32x32xf32, 1 : i64>) attributes {cfmem.inplace} {
    ^bb0(%16: tensor<1x24x32x32xf32>):
      %b2_dwr_1 = nn.relu %16 : (tensor<1x24x32x32xf32>) -> tensor<1x24x32x32xf32>
      nn.yield %b2_dwr_1 : tensor<1x24x32x32xf32>
    }
    "memref.dma_wait"(%tag_3, %c0, %c3072) : (memref<2xi32>, index, index) -> ()
    "memref.dma_wait"(%tag_3, %c1, %c128) : (memref<2xi32>, index, index) -> ()
    %b2_pw_w_sram = memref.view %dma3[%c0][] {cfmem.tensor = "b2_pw_w_sram"} : memref<4672xi8, 1 : i64> to memref<32x24x1x1xf32, 1 : i64>
    %b2_pw_b_sram = memref.view %dma3[%c3072][] {cfmem.tensor = "b2_pw_b_sram"} : memref<4672xi8, 1 : i64> to memref<32xf32, 1 : i64>
    %tag_9 = memref.alloca() : memref<2xi32>
    "memref.dma_start"(%weights, %c39808, %dma2, %c0, %c24576, %tag_9, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "b5_pw_w_sram"} : (memref<191808xi8>, index, memref<24960xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    "memref.dma_start"(%weights, %c64384, %dma2, %c24576, %c384, %tag_9, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "b5_pw_b_sram"} : (memref<191808xi8>, index, memref<24960xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    %b2_pw = memref.view %arena[%c0][] {cfmem.tensor = "b2_pw"} : memref<828352xi8, 1 : i64> to memref<1x32x32x32xf32, 1 : i64>
    nn.apply ins(%b2_dwr, %b2_pw_w_sram, %b2_pw_b_sram : memref<1x24x32x32xf32, 1 : i64>, memref<32x24x1x1xf32, 1 : i64>, memref<32xf32, 1 : i64>) outs(%b2_pw : memref<1x32x32x32xf32, 1 : i64>) {
    ^bb0(%17: tensor<1x24x32x32xf32>, %18: tensor<32x24x1x1xf32>, %19: tensor<32xf32>):
      %b2_pw_1 = nn.conv2d %17, %18, %19 : (tensor<1x24x32x32xf32>, tensor<32x24x1x1xf32>, tensor<32xf32>) -> tensor<1x32x32x32xf32>
      nn.yield %b2_pw_1 : tensor<1x32x32x32xf32>
    }
    %b2_out = memref.view %arena[%c0][] {cfmem.tensor = "b2_out"} : memref<828352xi8, 1 : i64> to memref<1x32x32x32xf32, 1 : i64>
    nn.apply ins(%b2_pw : memref<1x32x32x32xf32, 1 : i64>) outs(%b2_out : memref<1x32x32x32xf32, 1 : i64>) attributes {cfmem.inplace} {
    ^bb0(%20: tensor<1x32x32x32xf32>):
      %b2_out_1 = nn.relu %20 : (tensor<1x32x32x32xf32>) -> tensor<1x32x32x32xf32>
      nn.yield %b2_out_1 : tensor<1x32x32x32xf32>
    }
    "memref.dma_wait"(%tag_4, %c0, %c1152) : (memref<2xi32>, index, index) -> ()
    "memref.dma_wait"(%tag_4, %c1, %c128) : (memref<2xi32>, index, index) -> ()
    %b3_dw_w_sram = memref.view %dma4[%c0][] {cfmem.tensor = "b3_dw_w_sram"} : memref<20800xi8, 1 : i64> to memref<32x1x3x3xf32, 1 : i64>
    %b3_dw_b_sram = memref.view %dma4[%c1152][] {cfmem.tensor = "b3_dw_b_sram"} : memref<20800xi8, 1 : i64> to memref<32xf32, 1 : i64>
    %tag_10 = memref.alloca() : memref<2xi32>
    "memref.dma_start"(%weights, %c64768, %dma3, %c0, %c4608, %tag_10, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "cls16_w_sram"} : (memref<191808xi8>, index, memref<4672xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    "memref.dma_start"(%weights, %c69376, %dma3, %c4608, %c8, %tag_10, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "cls16_b_sram"} : (memref<191808xi8>, index, memref<4672xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    %b3_dw = memref.view %arena[%c131072][] {cfmem.tensor = "b3_dw"} : memref<828352xi8, 1 : i64> to memref<1x32x16x16xf32, 1 : i64>
    nn.apply ins(%b2_out, %b3_dw_w_sram, %b3_dw_b_sram : memref<1x32x32x32xf32, 1 : i64>, memref<32x1x3x3xf32, 1 : i64>, memref<32xf32, 1 : i64>) outs(%b3_dw : memref<1x32x16x16xf32, 1 : i64>) {
    ^bb0(%21: tensor<1x32x32x32xf32>, %22: tensor<32x1x3x3xf32>, %23: tensor<32xf32>):
      %b3_dw_1 = nn.conv2d %21, %22, %23 {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, groups = 32 : i64} : (tensor<1x32x32x32xf32>, tensor<32x1x3x3xf32>, tensor<32xf32>) -> tensor<1x32x16x16xf32>
      nn.yield %b3_dw_1 : tensor<1x32x16x16xf32>
    }
    %b3_dwr = memref.view %arena[%c131072][] {cfmem.tensor = "b3_dwr"} : memref<828352xi8, 1 : i64> to memref<1x32x16x16xf32, 1 : i64>
    nn.apply ins(%b3_dw : memref<1x32x16x16xf32, 1 : i64>) outs(%b3_dwr : memref<1x32x16x16xf32, 1 : i64>) attributes {cfmem.inplace} {
    ^bb0(%24: tensor<1x32x16x16xf32>):
      %b3_dwr_1 = nn.relu %24 : (tensor<1x32x16x16xf32>) -> tensor<1x32x16x16xf32>
      nn.yield %b3_dwr_1 : tensor<1x32x16x16xf32>
    }
    "memref.dma_wait"(%tag_5, %c0, %c8192) : (memref<2xi32>, index, index) -> ()
    "memref.dma_wait"(%tag_5, %c1, %c256) : (memref<2xi32>, index, index) -> ()
    %b3_pw_w_sram = memref.view %dma5[%c0][] {cfmem.tensor = "b3_pw_w_sram"} : memref<18496xi8, 1 : i64> to memref<64x32x1x1xf32, 1 : i64>
    %b3_pw_b_sram = memref.view %dma5[%c8192][] {cfmem.tensor = "b3_pw_b_sram"} : memref<18496xi8, 1 : i64> to memref<64xf32, 1 : i64>
    %tag_11 = memref.alloca() : memref<2xi32>
    "memref.dma_start"(%weights, %c69440, %dma4, %c0, %c20736, %tag_11, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "cls8_w_sram"} : (memref<191808xi8>, index, memref<20800xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    "memref.dma_start"(%weights, %c90176, %dma4, %c20736, %c24, %tag_11, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "cls8_b_sram"} : (memref<191808xi8>, index, memref<20800xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    %b3_pw = memref.view %arena[%c0][] {cfmem.tensor = "b3_pw"} : memref<828352xi8, 1 : i64> to memref<1x64x16x16xf32, 1 : i64>
    nn.apply ins(%b3_dwr, %b3_pw_w_sram, %b3_pw_b_sram : memref<1x32x16x16xf32, 1 : i64>, memref<64x32x1x1xf32, 1 : i64>, memref<64xf32, 1 : i64>) outs(%b3_pw : memref<1x64x16x16xf32, 1 : i64>) {
    ^bb0(%25: tensor<1x32x16x16xf32>, %26: tensor<64x32x1x1xf32>, %27: tensor<64xf32>):
      %b3_pw_1 = nn.conv2d %25, %26, %27 : (tensor<1x32x16x16xf32>, tensor<64x32x1x1xf32>, tensor<64xf32>) -> tensor<1x64x16x16xf32>
      nn.yield %b3_pw_1 : tensor<1x64x16x16xf32>
    }
    %b3_out = memref.view %arena[%c0][] {cfmem.tensor = "b3_out"} : memref<828352xi8, 1 : i64> to memref<1x64x16x16xf32, 1 : i64>
    nn.apply ins(%b3_pw : memref<1x64x16x16xf32, 1 : i64>) outs(%b3_out : memref<1x64x16x16xf32, 1 : i64>) attributes {cfmem.inplace} {
    ^bb0(%28: tensor<1x64x16x16xf32>):
      %b3_out_1 = nn.relu %28 : (tensor<1x64x16x16xf32>) -> tensor<1x64x16x16xf32>
      nn.yield %b3_out_1 : tensor<1x64x16x16xf32>
    }
    "memref.dma_wait"(%tag_6, %c0, %c2304) : (memref<2xi32>, index, index) -> ()
    "memref.dma_wait"(%tag_6, %c1, %c256) : (memref<2xi32>, index, index) -> ()
    %b4_dw_w_sram = memref.view %dma6[%c0][] {cfmem.tensor = "b4_dw_w_sram"} : memref<83072xi8, 1 : i64> to memref<64x1x3x3xf32, 1 : i64>
    %b4_dw_b_sram = memref.view %dma6[%c2304][] {cfmem.tensor = "b4_dw_b_sram"} : memref<83072xi8, 1 : i64> to memref<64xf32, 1 : i64>
    %tag_12 = memref.alloca() : memref<2xi32>
    "memref.dma_start"(%weights, %c90240, %dma5, %c0, %c18432, %tag_12, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "box16_w_sram"} : (memref<191808xi8>, index, memref<18496xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    "memref.dma_start"(%weights, %c108672, %dma5, %c18432, %c32, %tag_12, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "box16_b_sram"} : (memref<191808xi8>, index, memref<18496xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    %b4_dw = memref.view %arena[%c65536][] {cfmem.tensor = "b4_dw"} : memref<828352xi8, 1 : i64> to memref<1x64x16x16xf32, 1 : i64>
    nn.apply ins(%b3_out, %b4_dw_w_sram, %b4_dw_b_sram : memref<1x64x16x16xf32, 1 : i64>, memref<64x1x3x3xf32, 1 : i64>, memref<64xf32, 1 : i64>) outs(%b4_dw : memref<1x64x16x16xf32, 1 : i64>) {
    ^bb0(%29: tensor<1x64x16x16xf32>, %30: tensor<64x1x3x3xf32>, %31: tensor<64xf32>):
      %b4_dw_1 = nn.conv2d %29, %30, %31 {pads = array<i64: 1, 1, 1, 1>, groups = 64 : i64} : (tensor<1x64x16x16xf32>, tensor<64x1x3x3xf32>, tensor<64xf32>) -> tensor<1x64x16x16xf32>
      nn.yield %b4_dw_1 : tensor<1x64x16x16xf32>
    }
    %b4_dwr = memref.view %arena[%c65536][] {cfmem.tensor = "b4_dwr"} : memref<828352xi8, 1 : i64> to memref<1x64x16x16xf32, 1 : i64>
    nn.apply ins(%b4_dw : memref<1x64x16x16xf32, 1 : i64>) outs(%b4_dwr : memref<1x64x16x16xf32, 1 : i64>) attributes {cfmem.inplace} {
    ^bb0(%32: tensor<1x64x16x16xf32>):
      %b4_dwr_1 = nn.relu %32 : (tensor<1x64x16x16xf32>) -> tensor<1x64x16x16xf32>
      nn.yield %b4_dwr_1 : tensor<1x64x16x16xf32>
    }
    "memref.dma_wait"(%tag_7, %c0, %c16384) : (memref<2xi32>, index, index) -> ()
    "memref.dma_wait"(%tag_7, %c1, %c256) : (memref<2xi32>, index, index) -> ()
    %b4_pw_w_sram = memref.view %dma0[%c0][] {cfmem.tensor = "b4_pw_w_sram"} : memref<16640xi8, 1 : i64> to memref<64x64x1x1xf32, 1 : i64>
    %b4_pw_b_sram = memref.view %dma0[%c16384][] {cfmem.tensor = "b4_pw_b_sram"} : memref<16640xi8, 1 : i64> to memref<64xf32, 1 : i64>
    %tag_13 = memref.alloca() : memref<2xi32>
    "memref.dma_start"(%weights, %c108736, %dma6, %c0, %c82944, %tag_13, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "box8_w_sram"} : (memref<191808xi8>, index, memref<83072xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    "memref.dma_start"(%weights, %c191680, %dma6, %c82944, %c96, %tag_13, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "box8_b_sram"} : (memref<191808xi8>, index, memref<83072xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    %b4_pw = memref.view %arena[%c131072][] {cfmem.tensor = "b4_pw"} : memref<828352xi8, 1 : i64> to memref<1x64x16x16xf32, 1 : i64>
    nn.apply ins(%b4_dwr, %b4_pw_w_sram, %b4_pw_b_sram : memref<1x64x16x16xf32, 1 : i64>, memref<64x64x1x1xf32, 1 : i64>, memref<64xf32, 1 : i64>) outs(%b4_pw : memref<1x64x16x16xf32, 1 : i64>) {
    ^bb0(%33: tensor<1x64x16x16xf32>, %34: tensor<64x64x1x1xf32>, %35: tensor<64xf32>):
      %b4_pw_1 = nn.conv2d %33, %34, %35 : (tensor<1x64x16x16xf32>, tensor<64x64x1x1xf32>, tensor<64xf32>) -> tensor<1x64x16x16xf32>
      nn.yield %b4_pw_1 : tensor<1x64x16x16xf32>
    }
    %b4_out = memref.view %arena[%c131072][] {cfmem.tensor = "b4_out"} : memref<828352xi8, 1 : i64> to memref<1x64x16x16xf32, 1 : i64>
    nn.apply ins(%b4_pw : memref<1x64x16x16xf32, 1 : i64>) outs(%b4_out : memref<1x64x16x16xf32, 1 : i64>) attributes {cfmem.inplace} {
    ^bb0(%36: tensor<1x64x16x16xf32>):
      %b4_out_1 = nn.relu %36 : (tensor<1x64x16x16xf32>) -> tensor<1x64x16x16xf32>
      nn.yield %b4_out_1 : tensor<1x64x16x16xf32>
    }
    %res4 = memref.view %arena[%c0][] {cfmem.tensor = "res4"} : memref<828352xi8, 1 : i64> to memref<1x64x16x16xf32, 1 : i64>
    nn.apply ins(%b3_out, %b4_out : memref<1x64x16x16xf32, 1 : i64>, memref<1x64x16x16xf32, 1 : i64>) outs(%res4 : memref<1x64x16x16xf32, 1 : i64>) attributes {cfmem.inplace} {
    ^bb0(%37: tensor<1x64x16x16xf32>, %38: tensor<1x64x16x16xf32>):
      %res4_1 = nn.add %37, %38 : (tensor<1x64x16x16xf32>, tensor<1x64x16x16xf32>) -> tensor<1x64x16x16xf32>
      nn.yield %res4_1 : tensor<1x64x16x16xf32>
    }
    "memref.dma_wait"(%tag_8, %c0, %c2304) : (memref<2xi32>, index, index) -> ()
    "memref.dma_wait"(%tag_8, %c1, %c256) : (memref<2xi32>, index, index) -> ()
    %b5_dw_w_sram = memref.view %dma1[%c0][] {cfmem.tensor = "b5_dw_w_sram"} : memref<2560xi8, 1 : i64> to memref<64x1x3x3xf32, 1 : i64>
    %b5_dw_b_sram = memref.view %dma1[%c2304][] {cfmem.tensor = "b5_dw_b_sram"} : memref<2560xi8, 1 : i64> to memref<64xf32, 1 : i64>
    %b5_dw = memref.view %arena[%c90112][] {cfmem.tensor = "b5_dw"} : memref<828352xi8, 1 : i64> to memref<1x64x8x8xf32, 1 : i64>
    nn.apply ins(%res4, %b5_dw_w_sram, %b5_dw_b_sram : memref<1x64x16x16xf32, 1 : i64>, memref<64x1x3x3xf32, 1 : i64>, memref<64xf32, 1 : i64>) outs(%b5_dw : memref<1x64x8x8xf32, 1 : i64>) {
    ^bb0(%39: tensor<1x64x16x16xf32>, %40: tensor<64x1x3x3xf32>, %41: tensor<64xf32>):
      %b5_dw_1 = nn.conv2d %39, %40, %41 {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, groups = 64 : i64} : (tensor<1x64x16x16xf32>, tensor<64x1x3x3xf32>, tensor<64xf32>) -> tensor<1x64x8x8xf32>
      nn.yield %b5_dw_1 : tensor<1x64x8x8xf32>
    }
    %b5_dwr = memref.view %arena[%c90112][] {cfmem.tensor = "b5_dwr"} : memref<828352xi8, 1 : i64> to memref<1x64x8x8xf32, 1 : i64>
    nn.apply ins(%b5_dw : memref<1x64x8x8xf32, 1 : i64>) outs(%b5_dwr : memref<1x64x8x8xf32, 1 : i64>) attributes {cfmem.inplace} {
    ^bb0(%42: tensor<1x64x8x8xf32>):
      %b5_dwr_1 = nn.relu %42 : (tensor<1x64x8x8xf32>) -> tensor<1x64x8x8xf32>
      nn.yield %b5_dwr_1 : tensor<1x64x8x8xf32>
    }
    "memref.dma_wait"(%tag_9, %c0, %c24576) : (memref<2xi32>, index, index) -> ()
    "memref.dma_wait"(%tag_9, %c1, %c384) : (memref<2xi32>, index, index) -> ()
    %b5_pw_w_sram = memref.view %dma2[%c0][] {cfmem.tensor = "b5_pw_w_sram"} : memref<24960xi8, 1 : i64> to memref<96x64x1x1xf32, 1 : i64>
    %b5_pw_b_sram = memref.view %dma2[%c24576][] {cfmem.tensor = "b5_pw_b_sram"} : memref<24960xi8, 1 : i64> to memref<96xf32, 1 : i64>
    %b5_pw = memref.view %arena[%c65536][] {cfmem.tensor = "b5_pw"} : memref<828352xi8, 1 : i64> to memref<1x96x8x8xf32, 1 : i64>
    nn.apply ins(%b5_dwr, %b5_pw_w_sram, %b5_pw_b_sram : memref<1x64x8x8xf32, 1 : i64>, memref<96x64x1x1xf32, 1 : i64>, memref<96xf32, 1 : i64>) outs(%b5_pw : memref<1x96x8x8xf32, 1 : i64>) {
    ^bb0(%43: tensor<1x64x8x8xf32>, %44: tensor<96x64x1x1xf32>, %45: tensor<96xf32>):
      %b5_pw_1 = nn.conv2d %43, %44, %45 : (tensor<1x64x8x8xf32>, tensor<96x64x1x1xf32>, tensor<96xf32>) -> tensor<1x96x8x8xf32>
      nn.yield %b5_pw_1 : tensor<1x96x8x8xf32>
    }
    %b5_out = memref.view %arena[%c65536][] {cfmem.tensor = "b5_out"} : memref<828352xi8, 1 : i64> to memref<1x96x8x8xf32, 1 : i64>
    nn.apply ins(%b5_pw : memref<1x96x8x8xf32, 1 : i64>) outs(%b5_out : memref<1x96x8x8xf32, 1 : i64>) attributes {cfmem.inplace} {
    ^bb0(%46: tensor<1x96x8x8xf32>):
      %b5_out_1 = nn.relu %46 : (tensor<1x96x8x8xf32>) -> tensor<1x96x8x8xf32>
      nn.yield %b5_out_1 : tensor<1x96x8x8xf32>
    }
    "memref.dma_wait"(%tag_10, %c0, %c4608) : (memref<2xi32>, index, index) -> ()
    "memref.dma_wait"(%tag_10, %c1, %c8) : (memref<2xi32>, index, index) -> ()
    %cls16_w_sram = memref.view %dma3[%c0][] {cfmem.tensor = "cls16_w_sram"} : memref<4672xi8, 1 : i64> to memref<2x64x3x3xf32, 1 : i64>
    %cls16_b_sram = memref.view %dma3[%c4608][] {cfmem.tensor = "cls16_b_sram"} : memref<4672xi8, 1 : i64> to memref<2xf32, 1 : i64>
    %cls16 = memref.view %arena[%c98304][] {cfmem.tensor = "cls16"} : memref<828352xi8, 1 : i64> to memref<1x2x16x16xf32, 1 : i64>
    nn.apply ins(%res4, %cls16_w_sram, %cls16_b_sram : memref<1x64x16x16xf32, 1 : i64>, memref<2x64x3x3xf32, 1 : i64>, memref<2xf32, 1 : i64>) outs(%cls16 : memref<1x2x16x16xf32, 1 : i64>) {
    ^bb0(%47: tensor<1x64x16x16xf32>, %48: tensor<2x64x3x3xf32>, %49: tensor<2xf32>):
      %cls16_1 = nn.conv2d %47, %48, %49 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x64x16x16xf32>, tensor<2x64x3x3xf32>, tensor<2xf32>) -> tensor<1x2x16x16xf32>
      nn.yield %cls16_1 : tensor<1x2x16x16xf32>
    }
    "memref.dma_wait"(%tag_11, %c0, %c20736) : (memref<2xi32>, index, index) -> ()
    "memref.dma_wait"(%tag_11, %c1, %c24) : (memref<2xi32>, index, index) -> ()
    %cls8_w_sram = memref.view %dma4[%c0][] {cfmem.tensor = "cls8_w_sram"} : memref<20800xi8, 1 : i64> to memref<6x96x3x3xf32, 1 : i64>
    %cls8_b_sram = memref.view %dma4[%c20736][] {cfmem.tensor = "cls8_b_sram"} : memref<20800xi8, 1 : i64> to memref<6xf32, 1 : i64>
    %cls8 = memref.view %arena[%c100352][] {cfmem.tensor = "cls8"} : memref<828352xi8, 1 : i64> to memref<1x6x8x8xf32, 1 : i64>
    nn.apply ins(%b5_out, %cls8_w_sram, %cls8_b_sram : memref<1x96x8x8xf32, 1 : i64>, memref<6x96x3x3xf32, 1 : i64>, memref<6xf32, 1 : i64>) outs(%cls8 : memref<1x6x8x8xf32, 1 : i64>) {
    ^bb0(%50: tensor<1x96x8x8xf32>, %51: tensor<6x96x3x3xf32>, %52: tensor<6xf32>):
      %cls8_1 = nn.conv2d %50, %51, %52 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x96x8x8xf32>, tensor<6x96x3x3xf32>, tensor<6xf32>) -> tensor<1x6x8x8xf32>
      nn.yield %cls8_1 : tensor<1x6x8x8xf32>
    }
    "memref.dma_wait"(%tag_12, %c0, %c18432) : (memref<2xi32>, index, index) -> ()
    "memref.dma_wait"(%tag_12, %c1, %c32) : (memref<2xi32>, index, index) -> ()
    %box16_w_sram = memref.view %dma5[%c0][] {cfmem.tensor = "box16_w_sram"} : memref<18496xi8, 1 : i64> to memref<8x64x3x3xf32, 1 : i64>
    %box16_b_sram = memref.view %dma5[%c18432][] {cfmem.tensor = "box16_b_sram"} : memref<18496xi8, 1 : i64> to memref<8xf32, 1 : i64>
    %box16 = memref.view %arena[%c90112][] {cfmem.tensor = "box16"} : memref<828352xi8, 1 : i64> to memref<1x8x16x16xf32, 1 : i64>
    nn.apply ins(%res4, %box16_w_sram, %box16_b_sram : memref<1x64x16x16xf32, 1 : i64>, memref<8x64x3x3xf32, 1 : i64>, memref<8xf32, 1 : i64>) outs(%box16 : memref<1x8x16x16xf32, 1 : i64>) {
    ^bb0(%53: tensor<1x64x16x16xf32>, %54: tensor<8x64x3x3xf32>, %55: tensor<8xf32>):
      %box16_1 = nn.conv2d %53, %54, %55 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x64x16x16xf32>, tensor<8x64x3x3xf32>, tensor<8xf32>) -> tensor<1x8x16x16xf32>
      nn.yield %box16_1 : tensor<1x8x16x16xf32>
    }
    "memref.dma_wait"(%tag_13, %c0, %c82944) : (memref<2xi32>, index, index) -> ()
    "memref.dma_wait"(%tag_13, %c1, %c96) : (memref<2xi32>, index, index) -> ()
    %box8_w_sram = memref.view %dma6[%c0][] {cfmem.tensor = "box8_w_sram"} : memref<83072xi8, 1 : i64> to memref<24x96x3x3xf32, 1 : i64>
    %box8_b_sram = memref.view %dma6[%c82944][] {cfmem.tensor = "box8_b_sram"} : memref<83072xi8, 1 : i64> to memref<24xf32, 1 : i64>
    %box8 = memref.view %arena[%c0][] {cfmem.tensor = "box8"} : memref<828352xi8, 1 : i64> to memref<1x24x8x8xf32, 1 : i64>
    nn.apply ins(%b5_out, %box8_w_sram, %box8_b_sram : memref<1x96x8x8xf32, 1 : i64>, memref<24x96x3x3xf32, 1 : i64>, memref<24xf32, 1 : i64>) outs(%box8 : memref<1x24x8x8xf32, 1 : i64>) {
    ^bb0(%56: tensor<1x96x8x8xf32>, %57: tensor<24x96x3x3xf32>, %58: tensor<24xf32>):
      %box8_1 = nn.conv2d %56, %57, %58 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x96x8x8xf32>, tensor<24x96x3x3xf32>, tensor<24xf32>) -> tensor<1x24x8x8xf32>
      nn.yield %box8_1 : tensor<1x24x8x8xf32>
    }
    %cls16_flat = memref.view %arena[%c98304][] {cfmem.tensor = "cls16_flat", cfmem.reads = ["cls16"]} : memref<828352xi8, 1 : i64> to memref<1x512xf32, 1 : i64>
    %cls8_flat = memref.view %arena[%c100352][] {cfmem.tensor = "cls8_flat", cfmem.reads = ["cls8"]} : memref<828352xi8, 1 : i64> to memref<1x384xf32, 1 : i64>
    %cls = memref.view %arena[%c6144][] {cfmem.tensor = "cls"} : memref<828352xi8, 1 : i64> to memref<1x896xf32, 1 : i64>
    nn.apply ins(%cls16_flat, %cls8_flat : memref<1x512xf32, 1 : i64>, memref<1x384xf32, 1 : i64>) outs(%cls : memref<1x896xf32, 1 : i64>) {
    ^bb0(%59: tensor<1x512xf32>, %60: tensor<1x384xf32>):
      %cls_1 = nn.concat %59, %60 {axis = 1 : i64} : (tensor<1x512xf32>, tensor<1x384xf32>) -> tensor<1x896xf32>
      nn.yield %cls_1 : tensor<1x896xf32>
    }
    %box16_flat = memref.view %arena[%c90112][] {cfmem.tensor = "box16_flat", cfmem.reads = ["box16"]} : memref<828352xi8, 1 : i64> to memref<1x2048xf32, 1 : i64>
    %box8_flat = memref.view %arena[%c0][] {cfmem.tensor = "box8_flat", cfmem.reads = ["box8"]} : memref<828352xi8, 1 : i64> to memref<1x1536xf32, 1 : i64>
    nn.apply ins(%box16_flat, %box8_flat : memref<1x2048xf32, 1 : i64>, memref<1x1536xf32, 1 : i64>) outs(%out_boxes : memref<1x3584xf32>) {
    ^bb0(%61: tensor<1x2048xf32>, %62: tensor<1x1536xf32>):
      %boxes = nn.concat %61, %62 {axis = 1 : i64} : (tensor<1x2048xf32>, tensor<1x1536xf32>) -> tensor<1x3584xf32>
      nn.yield %boxes : tensor<1x3584xf32>
    }
    nn.apply ins(%cls : memref<1x896xf32, 1 : i64>) outs(%out_scores : memref<1x896xf32>) {
    ^bb0(%63: tensor<1x896xf32>):
      %scores = nn.sigmoid %63 : (tensor<1x896xf32>) -> tensor<1x896xf32>
      nn.yield %scores : tensor<1x896xf32>
    }
    func.return
  }
  func.func @load_resident_main() attributes {cfmem.init_of = "main"} {
    %0 = memref.get_global @arena_main : memref<828352xi8, 1 : i64>
    %1 = arith.constant 826560 : index
    %2 = memref.view %0[%1][] : memref<828352xi8, 1 : i64> to memref<1792xi8, 1 : i64>
    %3 = memref.alloca() : memref<2xi32>
    %4 = memref.get_global @weights : memref<191808xi8>
    %5 = arith.constant 0 : index
    %6 = arith.constant 1728 : index
    "memref.dma_start"(%4, %5, %2, %5, %6, %3, %5) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "stem_w_sram"} : (memref<191808xi8>, index, memref<1792xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    %7 = memref.get_global @weights : memref<191808xi8>
    %8 = arith.constant 64 : index
    %9 = arith.constant 1 : index
    "memref.dma_start"(%7, %6, %2, %6, %8, %3, %9) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "stem_b_sram"} : (memref<191808xi8>, index, memref<1792xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    "memref.dma_wait"(%3, %5, %6) : (memref<2xi32>, index, index) -> ()
    "memref.dma_wait"(%3, %9, %8) : (memref<2xi32>, index, index) -> ()
    func.return
  }
}
