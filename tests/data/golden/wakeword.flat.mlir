builtin.module {
  "memref.global"() <{sym_name = "cst_main_0", type = memref<1xf32>, initial_value = dense<6.000000e-01> : tensor<1xf32>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "weights", type = memref<449728xi8>, initial_value = dense<"0x~9bd23074e3d4684d"> : tensor<449728xi8>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "arena_main", type = memref<1377793xi8, 1 : i64>, initial_value, sym_visibility = "private"}> : () -> ()
  func.func @main(%mfcc: memref<1x1x49x40xf32>, %out_score: memref<1x1xf32>, %out_probs: memref<1x12xf32>) attributes {cfmem.dma_depth = 3 : i64, cfmem.arena_size = 1377793 : i64, cfmem.lower_bound = 1377793 : i64, cfmem.plan = "exact/auto", cfmem.aliases = "reshape,slice,inplace,concat,yield", cfmem.onchip_budget = 2097152 : i64, cfmem.init = "load_resident_main", cfmem.output_names = ["score", "probs"]} {
    %arena = memref.get_global @arena_main : memref<1377793xi8, 1 : i64>
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
    %det1_w = memref.view %weights[%c0][] : memref<449728xi8> to memref<8x1x3x3xf32>
    %det1_b = memref.view %weights[%c320][] : memref<449728xi8> to memref<8xf32>
    %det2_w = memref.view %weights[%c384][] : memref<449728xi8> to memref<16x8x3x3xf32>
    %det2_b = memref.view %weights[%c4992][] : memref<449728xi8> to memref<16xf32>
    %det_fc_w = memref.view %weights[%c5056][] : memref<449728xi8> to memref<1x16xf32>
    %det_fc_b = memref.view %weights[%c5120][] : memref<449728xi8> to memref<1xf32>
    %ver1_w = memref.view %weights[%c5184][] : memref<449728xi8> to memref<64x1x3x3xf32>
    %ver1_b = memref.view %weights[%c7488][] : memref<449728xi8> to memref<64xf32>
    %ver2_dw_w = memref.view %weights[%c7744][] : memref<449728xi8> to memref<64x1x3x3xf32>
    %ver2_dw_b = memref.view %weights[%c10048][] : memref<449728xi8> to memref<64xf32>
    %ver2_pw_w = memref.view %weights[%c10304][] : memref<449728xi8> to memref<64x64x1x1xf32>
    %ver2_pw_b = memref.view %weights[%c26688][] : memref<449728xi8> to memref<64xf32>
    %ver3_dw_w = memref.view %weights[%c26944][] : memref<449728xi8> to memref<64x1x3x3xf32>
    %ver3_dw_b = memref.view %weights[%c29248][] : memref<449728xi8> to memref<64xf32>
    %ver3_pw_w = memref.view %weights[%c29504][] : memref<449728xi8> to memref<64x64x1x1xf32>
    %ver3_pw_b = memref.view %weights[%c45888][] : memref<449728xi8> to memref<64xf32>
    %ver4_w = memref.view %weights[%c46144][] : memref<449728xi8> to memref<128x64x3x3xf32>
    %ver4_b = memref.view %weights[%c341056][] : memref<449728xi8> to memref<128xf32>
    %ver5_dw_w = memref.view %weights[%c341568][] : memref<449728xi8> to memref<128x1x3x3xf32>
    %ver5_dw_b = memref.view %weights[%c346176][] : memref<449728xi8> to memref<128xf32>
    %ver5_pw_w = memref.view %weights[%c346688][] : memref<449728xi8> to memref<128x128x1x1xf32>
    %ver5_pw_b = memref.view %weights[%c412224][] : memref<449728xi8> to memref<128xf32>
    %ver_fc1_w = memref.view %weights[%c412736][] : memref<449728xi8> to memref<64x128xf32>
    %ver_fc1_b = memref.view %weights[%c445504][] : memref<449728xi8> to memref<64xf32>
    %ver_fc2_w = memref.view %weights[%c445760][] : memref<449728xi8> to memref<12x64xf32>
    %ver_fc2_b = memref.view %weights[%c448832][] : memref<449728xi8> to memref<12xf32>
    %rej_fc_w = memref.view %weights[%c448896][] : memref<449728xi8> to memref<12x16xf32>
    %rej_fc_b = memref.view %weights[%c449664][] : memref<449728xi8> to memref<12xf32>
    %dma0 = memref.view %arena[%c24320][] {cfmem.tensor = "dma0"} : memref<1377793xi8, 1 : i64> to memref<128xi8, 1 : i64>
    %tag = memref.alloca() : memref<2xi32>
    "memref.dma_start"(%weights, %c5056, %dma0, %c0, %c64, %tag, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "det_fc_w_sram"} : (memref<449728xi8>, index, memref<128xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    "memref.dma_start"(%weights, %c5120, %dma0, %c64, %c4, %tag, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "det_fc_b_sram"} : (memref<449728xi8>, index, memref<128xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    %resident = memref.view %arena[%c1364992][] {cfmem.tensor = "resident"} : memref<1377793xi8, 1 : i64> to memref<7616xi8, 1 : i64>
    %det1_w_sram = memref.view %resident[%c0][] {cfmem.tensor = "det1_w_sram"} : memref<7616xi8, 1 : i64> to memref<8x1x3x3xf32, 1 : i64>
    %det1_b_sram = memref.view %resident[%c320][] {cfmem.tensor = "det1_b_sram"} : memref<7616xi8, 1 : i64> to memref<8xf32, 1 : i64>
    %det2_w_sram = memref.view %resident[%c384][] {cfmem.tensor = "det2_w_sram"} : memref<7616xi8, 1 : i64> to memref<16x8x3x3xf32, 1 : i64>
    %det2_b_sram = memref.view %resident[%c4992][] {cfmem.tensor = "det2_b_sram"} : memref<7616xi8, 1 : i64> to memref<16xf32, 1 : i64>
    %ver1_w_sram = memref.view %resident[%c5056][] {cfmem.tensor = "ver1_w_sram"} : memref<7616xi8, 1 : i64> to memref<64x1x3x3xf32, 1 : i64>
    %ver1_b_sram = memref.view %resident[%c7360][] {cfmem.tensor = "ver1_b_sram"} : memref<7616xi8, 1 : i64> to memref<64xf32, 1 : i64>
    %det1 = memref.view %arena[%c0][] {cfmem.tensor = "det1"} : memref<1377793xi8, 1 : i64> to memref<1x8x25x20xf32, 1 : i64>
    nn.apply ins(%mfcc, %det1_w_sram, %det1_b_sram : memref<1x1x49x40xf32>, memref<8x1x3x3xf32, 1 : i64>, memref<8xf32, 1 : i64>) outs(%det1 : memref<1x8x25x20xf32, 1 : i64>) {
    ^bb0(%0: tensor<1x1x49x40xf32>, %1: tensor<8x1x3x3xf32>, %2: tensor<8xf32>):
      %det1_1 = nn.conv2d %0, %1, %2 {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x49x40xf32>, tensor<8x1x3x3xf32>, tensor<8xf32>) -> tensor<1x8x25x20xf32>
      nn.yield %det1_1 : tensor<1x8x25x20xf32>
    }
    %det1_out = memref.view %arena[%c0][] {cfmem.tensor = "det1_out"} : memref<1377793xi8, 1 : i64> to memref<1x8x25x20xf32, 1 : i64>
    nn.apply ins(%det1 : memref<1x8x25x20xf32, 1 : i64>) outs(%det1_out : memref<1x8x25x20xf32, 1 : i64>) attributes {cfmem.inplace} {
    ^bb0(%3: tensor<1x8x25x20xf32>):
      %det1_out_1 = nn.relu %3 : (tensor<1x8x25x20xf32>) -> tensor<1x8x25x20xf32>
      nn.yield %det1_out_1 : tensor<1x8x25x20xf32>
    }
    %det2 = memref.view %arena[%c16000][] {cfmem.tensor = "det2"} : memref<1377793xi8, 1 : i64> to memref<1x16x13x10xf32, 1 : i64>
    nn.apply ins(%det1_out, %det2_w_sram, %det2_b_sram : memref<1x8x25x20xf32, 1 : i64>, memref<16x8x3x3xf32, 1 : i64>, memref<16xf32, 1 : i64>) outs(%det2 : memref<1x16x13x10xf32, 1 : i64>) {
    ^bb0(%4: tensor<1x8x25x20xf32>, %5: tensor<16x8x3x3xf32>, %6: tensor<16xf32>):
      %det2_1 = nn.conv2d %4, %5, %6 {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x8x25x20xf32>, tensor<16x8x3x3xf32>, tensor<16xf32>) -> tensor<1x16x13x10xf32>
      nn.yield %det2_1 : tensor<1x16x13x10xf32>
    }
    %det2_out = memref.view %arena[%c16000][] {cfmem.tensor = "det2_out"} : memref<1377793xi8, 1 : i64> to memref<1x16x13x10xf32, 1 : i64>
    nn.apply ins(%det2 : memref<1x16x13x10xf32, 1 : i64>) outs(%det2_out : memref<1x16x13x10xf32, 1 : i64>) attributes {cfmem.inplace} {
    ^bb0(%7: tensor<1x16x13x10xf32>):
      %det2_out_1 = nn.relu %7 : (tensor<1x16x13x10xf32>) -> tensor<1x16x13x10xf32>
      nn.yield %det2_out_1 : tensor<1x16x13x10xf32>
    }
    %det_pool = memref.view %arena[%c1377728][] {cfmem.tensor = "det_pool"} : memref<1377793xi8, 1 : i64> to memref<1x16x1x1xf32, 1 : i64>
    nn.apply ins(%det2_out : memref<1x16x13x10xf32, 1 : i64>) outs(%det_pool : memref<1x16x1x1xf32, 1 : i64>) {
    ^bb0(%8: tensor<1x16x13x10xf32>):
      %det_pool_1 = nn.global_avg_pool %8 : (tensor<1x16x13x10xf32>) -> tensor<1x16x1x1xf32>
      nn.yield %det_pool_1 : tensor<1x16x1x1xf32>
    }
    %det_feat = memref.view %arena[%c1377728][] {cfmem.tensor = "det_feat", cfmem.reads = ["det_pool"]} : memref<1377793xi8, 1 : i64> to memref<1x16xf32, 1 : i64>
    "memref.dma_wait"(%tag, %c0, %c64) : (memref<2xi32>, index, index) -> ()
    "memref.dma_wait"(%tag, %c1, %c4) : (memref<2xi32>, index, index) -> ()
    %det_fc_w_sram = memref.view %dma0[%c0][] {cfmem.tensor = "det_fc_w_sram"} : memref<128xi8, 1 : i64> to memref<1x16xf32, 1 : i64>
    %det_fc_b_sram = memref.view %dma0[%c64][] {cfmem.tensor = "det_fc_b_sram"} : memref<128xi8, 1 : i64> to memref<1xf32, 1 : i64>
    %det_fc = memref.view %arena[%c0][] {cfmem.tensor = "det_fc"} : memref<1377793xi8, 1 : i64> to memref<1x1xf32, 1 : i64>
    nn.apply ins(%det_feat, %det_fc_w_sram, %det_fc_b_sram : memref<1x16xf32, 1 : i64>, memref<1x16xf32, 1 : i64>, memref<1xf32, 1 : i64>) outs(%det_fc : memref<1x1xf32, 1 : i64>) {
    ^bb0(%9: tensor<1x16xf32>, %10: tensor<1x16xf32>, %11: tensor<1xf32>):
      %det_fc_1 = nn.gemm %9, %10, %11 {trans_b = true} : (tensor<1x16xf32>, tensor<1x16xf32>, tensor<1xf32>) -> tensor<1x1xf32>
      nn.yield %det_fc_1 : tensor<1x1xf32>
    }
    nn.apply ins(%det_fc : memref<1x1xf32, 1 : i64>) outs(%out_score : memref<1x1xf32>) {
    ^bb0(%12: tensor<1x1xf32>):
      %score = nn.sigmoid %12 : (tensor<1x1xf32>) -> tensor<1x1xf32>
      nn.yield %score : tensor<1x1xf32>
    }
    %hit_b = memref.get_global @cst_main_0 : memref<1xf32>
    %hit = memref.view %arena[%c1377792][] {cfmem.tensor = "hit"} : memref<1377793xi8, 1 : i64> to memref<1x1xi1, 1 : i64>
    nn.apply ins(%out_score, %hit_b : memref<1x1xf32>, memref<1xf32>) outs(%hit : memref<1x1xi1, 1 : i64>) {
    ^bb0(%13: tensor<1x1xf32>, %14: tensor<1xf32>):
      %hit_1 = nn.cmp %13, %14 {predicate = "gt"} : (tensor<1x1xf32>, tensor<1xf32>) -> tensor<1x1xi1>
      nn.yield %hit_1 : tensor<1x1xi1>
    }
    %15 = memref.load %hit[%c0, %c0] : memref<1x1xi1, 1 : i64>
    scf.if %15 {
      %dma0_1 = memref.view %arena[%c1298944][] {cfmem.tensor = "dma0_1"} : memref<1377793xi8, 1 : i64> to memref<66048xi8, 1 : i64>
      %dma1 = memref.view %arena[%c1003520][] {cfmem.tensor = "dma1"} : memref<1377793xi8, 1 : i64> to memref<295424xi8, 1 : i64>
      %dma2 = memref.view %arena[%c1372608][] {cfmem.tensor = "dma2"} : memref<1377793xi8, 1 : i64> to memref<5120xi8, 1 : i64>
      %tag_1 = memref.alloca() : memref<2xi32>
      "memref.dma_start"(%weights, %c7744, %dma0_1, %c0, %c2304, %tag_1, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "ver2_dw_w_sram"} : (memref<449728xi8>, index, memref<66048xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      "memref.dma_start"(%weights, %c10048, %dma0_1, %c2304, %c256, %tag_1, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "ver2_dw_b_sram"} : (memref<449728xi8>, index, memref<66048xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      %tag_2 = memref.alloca() : memref<2xi32>
      "memref.dma_start"(%weights, %c10304, %dma1, %c0, %c16384, %tag_2, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "ver2_pw_w_sram"} : (memref<449728xi8>, index, memref<295424xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      "memref.dma_start"(%weights, %c26688, %dma1, %c16384, %c256, %tag_2, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "ver2_pw_b_sram"} : (memref<449728xi8>, index, memref<295424xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      %ver1 = memref.view %arena[%c0][] {cfmem.tensor = "ver1"} : memref<1377793xi8, 1 : i64> to memref<1x64x49x40xf32, 1 : i64>
      nn.apply ins(%mfcc, %ver1_w_sram, %ver1_b_sram : memref<1x1x49x40xf32>, memref<64x1x3x3xf32, 1 : i64>, memref<64xf32, 1 : i64>) outs(%ver1 : memref<1x64x49x40xf32, 1 : i64>) {
      ^bb0(%16: tensor<1x1x49x40xf32>, %17: tensor<64x1x3x3xf32>, %18: tensor<64xf32>):
        %ver1_1 = nn.conv2d %16, %17, %18 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x49x40xf32>, tensor<64x1x3x3xf32>, tensor<64xf32>) -> tensor<1x64x49x40xf32>
        nn.yield %ver1_1 : tensor<1x64x49x40xf32>
      }
      %ver1_out = memref.view %arena[%c0][] {cfmem.tensor = "ver1_out"} : memref<1377793xi8, 1 : i64> to memref<1x64x49x40xf32, 1 : i64>
      nn.apply ins(%ver1 : memref<1x64x49x40xf32, 1 : i64>) outs(%ver1_out : memref<1x64x49x40xf32, 1 : i64>) attributes {cfmem.inplace} {
      ^bb0(%19: tensor<1x64x49x40xf32>):
        %ver1_out_1 = nn.relu %19 : (tensor<1x64x49x40xf32>) -> tensor<1x64x49x40xf32>
        nn.yield %ver1_out_1 : tensor<1x64x49x40xf32>
      }
      "memref.dma_wait"(%tag_1, %c0, %c2304) : (memref<2xi32>, index, index) -> ()
      "memref.dma_wait"(%tag_1, %c1, %c256) : (memref<2xi32>, index, index) -> ()
      %ver2_dw_w_sram = memref.view %dma0_1[%c0][] {cfmem.tensor = "ver2_dw_w_sram"} : memref<66048xi8, 1 : i64> to memref<64x1x3x3xf32, 1 : i64>
      %ver2_dw_b_sram = memref.view %dma0_1[%c2304][] {cfmem.tensor = "ver2_dw_b_sram"} : memref<66048xi8, 1 : i64> to memref<64xf32, 1 : i64>
      %tag_3 = memref.alloca() : memref<2xi32>
      "memref.dma_start"(%weights, %c26944, %dma2, %c0, %c2304, %tag_3, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "ver3_dw_w_sram"} : (memref<449728xi8>, index, memref<5120xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      "memref.dma_start"(%weights, %c29248, %dma2, %c2304, %c256, %tag_3, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "ver3_dw_b_sram"} : (memref<449728xi8>, index, memref<5120xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      %ver2_dw = memref.view %arena[%c501760][] {cfmem.tensor = "ver2_dw"} : memref<1377793xi8, 1 : i64> to memref<1x64x49x40xf32, 1 : i64>
      nn.apply ins(%ver1_out, %ver2_dw_w_sram, %ver2_dw_b_sram : memref<1x64x49x40xf32, 1 : i64>, memref<64x1x3x3xf32, 1 : i64>, memref<64xf32, 1 : i64>) outs(%ver2_dw : memref<1x64x49x40xf32, 1 : i64>) {
      ^bb0(%20: tensor<1x64x49x40xf32>, %21: tensor<64x1x3x3xf32>, %22: tensor<64xf32>):
        %ver2_dw_1 = nn.conv2d %20, %21, %22 {pads = array<i64: 1, 1, 1, 1>, groups = 64 : i64} : (tensor<1x64x49x40xf32>, tensor<64x1x3x3xf32>, tensor<64xf32>) -> tensor<1x64x49x40xf32>
        nn.yield %ver2_dw_1 : tensor<1x64x49x40xf32>
      }
      %ver2_dwr = memref.view %arena[%c501760][] {cfmem.tensor = "ver2_dwr"} : memref<1377793xi8, 1 : i64> to memref<1x64x49x40xf32, 1 : i64>
      nn.apply ins(%ver2_dw : memref<1x64x49x40xf32, 1 : i64>) outs(%ver2_dwr : memref<1x64x49x40xf32, 1 : i64>) attributes {cfmem.inplace} {
      ^bb0(%23: tensor<1x64x49x40xf32>):
        %ver2_dwr_1 = nn.relu %23 : (tensor<1x64x49x40xf32>) -> tensor<1x64x49x40xf32>
        nn.yield %ver2_dwr_1 : tensor<1x64x49x40xf32>
      }
      "memref.dma_wait"(%tag_2, %c0, %c16384) : (memref<2xi32>, index, index) -> ()
      "memref.dma_wait"(%tag_2, %c1, %c256) : (memref<2xi32>, index, index) -> ()
      %ver2_pw_w_sram = memref.view %dma1[%c0][] {cfmem.tensor = "ver2_pw_w_sram"} : memref<295424xi8, 1 : i64> to memref<64x64x1x1xf32, 1 : i64>
      %ver2_pw_b_sram = memref.view %dma1[%c16384][] {cfmem.tensor = "ver2_pw_b_sram"} : memref<295424xi8, 1 : i64> to memref<64xf32, 1 : i64>
      %tag_4 = memref.alloca() : memref<2xi32>
      "memref.dma_start"(%weights, %c29504, %dma0_1, %c0, %c16384, %tag_4, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "ver3_pw_w_sram"} : (memref<449728xi8>, index, memref<66048xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      "memref.dma_start"(%weights, %c45888, %dma0_1, %c16384, %c256, %tag_4, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "ver3_pw_b_sram"} : (memref<449728xi8>, index, memref<66048xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      %ver2_pw = memref.view %arena[%c0][] {cfmem.tensor = "ver2_pw"} : memref<1377793xi8, 1 : i64> to memref<1x64x49x40xf32, 1 : i64>
      nn.apply ins(%ver2_dwr, %ver2_pw_w_sram, %ver2_pw_b_sram : memref<1x64x49x40xf32, 1 : i64>, memref<64x64x1x1xf32, 1 : i64>, memref<64xf32, 1 : i64>) outs(%ver2_pw : memref<1x64x49x40xf32, 1 : i64>) {
      ^bb0(%24: tensor<1x64x49x40xf32>, %25: tensor<64x64x1x1xf32>, %26: tensor<64xf32>):
        %ver2_pw_1 = nn.conv2d %24, %25, %26 : (tensor<1x64x49x40xf32>, tensor<64x64x1x1xf32>, tensor<64xf32>) -> tensor<1x64x49x40xf32>
        nn.yield %ver2_pw_1 : tensor<1x64x49x40xf32>
      }
      %ver2_out = memref.view %arena[%c0][] {cfmem.tensor = "ver2_out"} : memref<1377793xi8, 1 : i64> to memref<1x64x49x40xf32, 1 : i64>
      nn.apply ins(%ver2_pw : memref<1x64x49x40xf32, 1 : i64>) outs(%ver2_out : memref<1x64x49x40xf32, 1 : i64>) attributes {cfmem.inplace} {
      ^bb0(%27: tensor<1x64x49x40xf32>):
        %ver2_out_1 = nn.relu %27 : (tensor<1x64x49x40xf32>) -> tensor<1x64x49x40xf32>
        nn.yield %ver2_out_1 : tensor<1x64x49x40xf32>
      }
      "memref.dma_wait"(%tag_3, %c0, %c2304) : (memref<2xi32>, index, index) -> ()
      "memref.dma_wait"(%tag_3, %c1, %c256) : (memref<2xi32>, index, index) -> ()
      %ver3_dw_w_sram = memref.view %dma2[%c0][] {cfmem.tensor = "ver3_dw_w_sram"} : memref<5120xi8, 1 : i64> to memref<64x1x3x3xf32, 1 : i64>
      %ver3_dw_b_sram = memref.view %dma2[%c2304][] {cfmem.tensor = "ver3_dw_b_sram"} : memref<5120xi8, 1 : i64> to memref<64xf32, 1 : i64>
      %tag_5 = memref.alloca() : memref<2xi32>
      "memref.dma_start"(%weights, %c46144, %dma1, %c0, %c294912, %tag_5, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "ver4_w_sram"} : (memref<449728xi8>, index, memref<295424xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      "memref.dma_start"(%weights, %c341056, %dma1, %c294912, %c512, %tag_5, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "ver4_b_sram"} : (memref<449728xi8>, index, memref<295424xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      %ver3_dw = memref.view %arena[%c501760][] {cfmem.tensor = "ver3_dw"} : memref<1377793xi8, 1 : i64> to memref<1x64x49x40xf32, 1 : i64>
      nn.apply ins(%ver2_out, %ver3_dw_w_sram, %ver3_dw_b_sram : memref<1x64x49x40xf32, 1 : i64>, memref<64x1x3x3xf32, 1 : i64>, memref<64xf32, 1 : i64>) outs(%ver3_dw : memref<1x64x49x40xf32, 1 : i64>) {
      ^bb0(%28: tensor<1x64x49x40xf32>, %29: tensor<64x1x3x3xf32>, %30: tensor<64xf32>):
        %ver3_dw_1 = nn.conv2d %28, %29, %30 {pads = array<i64: 1, 1, 1, 1>, groups = 64 : i64} : (tensor<1x64x49x40xf32>, tensor<64x1x3x3xf32>, tensor<64xf32>) -> tensor<1x64x49x40xf32>
        nn.yield %ver3_dw_1 : tensor<1x64x49x40xf32>
      }
      %ver3_dwr = memref.view %arena[%c501760][] {cfmem.tensor = "ver3_dwr"} : memref<1377793xi8, 1 : i64> to memref<1x64x49x40xf32, 1 : i64>
      nn.apply ins(%ver3_dw : memref<1x64x49x40xf32, 1 : i64>) outs(%ver3_dwr : memref<1x64x49x40xf32, 1 : i64>) attributes {cfmem.inplace} {
      ^bb0(%31: tensor<1x64x49x40xf32>):
        %ver3_dwr_1 = nn.relu %31 : (tensor<1x64x49x40xf32>) -> tensor<1x64x49x40xf32>
        nn.yield %ver3_dwr_1 : tensor<1x64x49x40xf32>
      }
      "memref.dma_wait"(%tag_4, %c0, %c16384) : (memref<2xi32>, index, index) -> ()
      "memref.dma_wait"(%tag_4, %c1, %c256) : (memref<2xi32>, index, index) -> ()
      %ver3_pw_w_sram = memref.view %dma0_1[%c0][] {cfmem.tensor = "ver3_pw_w_sram"} : memref<66048xi8, 1 : i64> to memref<64x64x1x1xf32, 1 : i64>
      %ver3_pw_b_sram = memref.view %dma0_1[%c16384][] {cfmem.tensor = "ver3_pw_b_sram"} : memref<66048xi8, 1 : i64> to memref<64xf32, 1 : i64>
      %tag_6 = memref.alloca() : memref<2xi32>
      "memref.dma_start"(%weights, %c341568, %dma2, %c0, %c4608, %tag_6, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "ver5_dw_w_sram"} : (memref<449728xi8>, index, memref<5120xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      "memref.dma_start"(%weights, %c346176, %dma2, %c4608, %c512, %tag_6, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "ver5_dw_b_sram"} : (memref<449728xi8>, index, memref<5120xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      %ver3_pw = memref.view %arena[%c0][] {cfmem.tensor = "ver3_pw"} : memref<1377793xi8, 1 : i64> to memref<1x64x49x40xf32, 1 : i64>
      nn.apply ins(%ver3_dwr, %ver3_pw_w_sram, %ver3_pw_b_sram : memref<1x64x49x40xf32, 1 : i64>, memref<64x64x1x1xf32, 1 : i64>, memref<64xf32, 1 : i64>) outs(%ver3_pw : memref<1x64x49x40xf32, 1 : i64>) {
      ^bb0(%32: tensor<1x64x49x40xf32>, %33: tensor<64x64x1x1xf32>, %34: tensor<64xf32>):
        %ver3_pw_1 = nn.conv2d %32, %33, %34 : (tensor<1x64x49x40xf32>, tensor<64x64x1x1xf32>, tensor<64xf32>) -> tensor<1x64x49x40xf32>
        nn.yield %ver3_pw_1 : tensor<1x64x49x40xf32>
      }
      %ver3_out = memref.view %arena[%c0][] {cfmem.tensor = "ver3_out"} : memref<1377793xi8, 1 : i64> to memref<1x64x49x40xf32, 1 : i64>
      nn.apply ins(%ver3_pw : memref<1x64x49x40xf32, 1 : i64>) outs(%ver3_out : memref<1x64x49x40xf32, 1 : i64>) attributes {cfmem.inplace} {
      ^bb0(%35: tensor<1x64x49x40xf32>):
        %ver3_out_1 = nn.relu %35 : (tensor<1x64x49x40xf32>) -> tensor<1x64x49x40xf32>
        nn.yield %ver3_out_1 : tensor<1x64x49x40xf32>
      }
      "memref.dma_wait"(%tag_5, %c0, %c294912) : (memref<2xi32>, index, index) -> ()
      "memref.dma_wait"(%tag_5, %c1, %c512) : (memref<2xi32>, index, index) -> ()
      %ver4_w_sram = memref.view %dma1[%c0][] {cfmem.tensor = "ver4_w_sram"} : memref<295424xi8, 1 : i64> to memref<128x64x3x3xf32, 1 : i64>
      %ver4_b_sram = memref.view %dma1[%c294912][] {cfmem.tensor = "ver4_b_sram"} : memref<295424xi8, 1 : i64> to memref<128xf32, 1 : i64>
      %tag_7 = memref.alloca() : memref<2xi32>
      "memref.dma_start"(%weights, %c346688, %dma0_1, %c0, %c65536, %tag_7, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "ver5_pw_w_sram"} : (memref<449728xi8>, index, memref<66048xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      "memref.dma_start"(%weights, %c412224, %dma0_1, %c65536, %c512, %tag_7, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "ver5_pw_b_sram"} : (memref<449728xi8>, index, memref<66048xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      %ver4 = memref.view %arena[%c501760][] {cfmem.tensor = "ver4"} : memref<1377793xi8, 1 : i64> to memref<1x128x25x20xf32, 1 : i64>
      nn.apply ins(%ver3_out, %ver4_w_sram, %ver4_b_sram : memref<1x64x49x40xf32, 1 : i64>, memref<128x64x3x3xf32, 1 : i64>, memref<128xf32, 1 : i64>) outs(%ver4 : memref<1x128x25x20xf32, 1 : i64>) {
      ^bb0(%36: tensor<1x64x49x40xf32>, %37: tensor<128x64x3x3xf32>, %38: tensor<128xf32>):
        %ver4_1 = nn.conv2d %36, %37, %38 {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x64x49x40xf32>, tensor<128x64x3x3xf32>, tensor<128xf32>) -> tensor<1x128x25x20xf32>
        nn.yield %ver4_1 : tensor<1x128x25x20xf32>
      }
      %ver4_out = memref.view %arena[%c501760][] {cfmem.tensor = "ver4_out"} : memref<1377793xi8, 1 : i64> to memref<1x128x25x20xf32, 1 : i64>
      nn.apply ins(%ver4 : memref<1x128x25x20xf32, 1 : i64>) outs(%ver4_out : memref<1x128x25x20xf32, 1 : i64>) attributes {cfmem.inplace} {
      ^bb0(%39: tensor<1x128x25x20xf32>):
        %ver4_out_1 = nn.relu %39 : (tensor<1x128x25x20xf32>) -> tensor<1x128x25x20xf32>
        nn.yield %ver4_out_1 : tensor<1x128x25x20xf32>
      }
      "memref.dma_wait"(%tag_6, %c0, %c4608) : (memref<2xi32>, index, index) -> ()
      "memref.dma_wait"(%tag_6, %c1, %c512) : (memref<2xi32>, index, index) -> ()
      %ver5_dw_w_sram = memref.view %dma2[%c0][] {cfmem.tensor = "ver5_dw_w_sram"} : memref<5120xi8, 1 : i64> to memref<128x1x3x3xf32, 1 : i64>
      %ver5_dw_b_sram = memref.view %dma2[%c4608][] {cfmem.tensor = "ver5_dw_b_sram"} : memref<5120xi8, 1 : i64> to memref<128xf32, 1 : i64>
      %tag_8 = memref.alloca() : memref<2xi32>
      "memref.dma_start"(%weights, %c412736, %dma1, %c0, %c32768, %tag_8, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "ver_fc1_w_sram"} : (memref<449728xi8>, index, memref<295424xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      "memref.dma_start"(%weights, %c445504, %dma1, %c32768, %c256, %tag_8, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "ver_fc1_b_sram"} : (memref<449728xi8>, index, memref<295424xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      %ver5_dw = memref.view %arena[%c0][] {cfmem.tensor = "ver5_dw"} : memref<1377793xi8, 1 : i64> to memref<1x128x25x20xf32, 1 : i64>
      nn.apply ins(%ver4_out, %ver5_dw_w_sram, %ver5_dw_b_sram : memref<1x128x25x20xf32, 1 : i64>, memref<128x1x3x3xf32, 1 : i64>, memref<128xf32, 1 : i64>) outs(%ver5_dw : memref<1x128x25x20xf32, 1 : i64>) {
      ^bb0(%40: tensor<1x128x25x20xf32>, %41: tensor<128x1x3x3xf32>, %42: tensor<128xf32>):
        %ver5_dw_1 = nn.conv2d %40, %41, %42 {pads = array<i64: 1, 1, 1, 1>, groups = 128 : i64} : (tensor<1x128x25x20xf32>, tensor<128x1x3x3xf32>, tensor<128xf32>) -> tensor<1x128x25x20xf32>
        nn.yield %ver5_dw_1 : tensor<1x128x25x20xf32>
      }
      %ver5_dwr = memref.view %arena[%c0][] {cfmem.tensor = "ver5_dwr"} : memref<1377793xi8, 1 : i64> to memref<1x128x25x20xf32, 1 : i64>
      nn.apply ins(%ver5_dw : memref<1x128x25x20xf32, 1 : i64>) outs(%ver5_dwr : memref<1x128x25x20xf32, 1 : i64>) attributes {cfmem.inplace} {
      ^bb0(%43: tensor<1x128x25x20xf32>):
        %ver5_dwr_1 = nn.relu %43 : (tensor<1x128x25x20xf32>) -> tensor<1x128x25x20xf32>
        nn.yield %ver5_dwr_1 : tensor<1x128x25x20xf32>
      }
      "memref.dma_wait"(%tag_7, %c0, %c65536) : (memref<2xi32>, index, index) -> ()
      "memref.dma_wait"(%tag_7, %c1, %c512) : (memref<2xi32>, index, index) -> ()
      %ver5_pw_w_sram = memref.view %dma0_1[%c0][] {cfmem.tensor = "ver5_pw_w_sram"} : memref<66048xi8, 1 : i64> to memref<128x128x1x1xf32, 1 : i64>
      %ver5_pw_b_sram = memref.view %dma0_1[%c65536][] {cfmem.tensor = "ver5_pw_b_sram"} : memref<66048xi8, 1 : i64> to memref<128xf32, 1 : i64>
      %tag_9 = memref.alloca() : memref<2xi32>
      "memref.dma_start"(%weights, %c445760, %dma2, %c0, %c3072, %tag_9, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "ver_fc2_w_sram"} : (memref<449728xi8>, index, memref<5120xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      "memref.dma_start"(%weights, %c448832, %dma2, %c3072, %c48, %tag_9, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "ver_fc2_b_sram"} : (memref<449728xi8>, index, memref<5120xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      %ver5_pw = memref.view %arena[%c256000][] {cfmem.tensor = "ver5_pw"} : memref<1377793xi8, 1 : i64> to memref<1x128x25x20xf32, 1 : i64>
      nn.apply ins(%ver5_dwr, %ver5_pw_w_sram, %ver5_pw_b_sram : memref<1x128x25x20xf32, 1 : i64>, memref<128x128x1x1xf32, 1 : i64>, memref<128xf32, 1 : i64>) outs(%ver5_pw : memref<1x128x25x20xf32, 1 : i64>) {
      ^bb0(%44: tensor<1x128x25x20xf32>, %45: tensor<128x128x1x1xf32>, %46: tensor<128xf32>):
        %ver5_pw_1 = nn.conv2d %44, %45, %46 : (tensor<1x128x25x20xf32>, tensor<128x128x1x1xf32>, tensor<128xf32>) -> tensor<1x128x25x20xf32>
        nn.yield %ver5_pw_1 : tensor<1x128x25x20xf32>
      }
      %ver5_out = memref.view %arena[%c256000][] {cfmem.tensor = "ver5_out"} : memref<1377793xi8, 1 : i64> to memref<1x128x25x20xf32, 1 : i64>
      nn.apply ins(%ver5_pw : memref<1x128x25x20xf32, 1 : i64>) outs(%ver5_out : memref<1x128x25x20xf32, 1 : i64>) attributes {cfmem.inplace} {
      ^bb0(%47: tensor<1x128x25x20xf32>):
        %ver5_out_1 = nn.relu %47 : (tensor<1x128x25x20xf32>) -> tensor<1x128x25x20xf32>
        nn.yield %ver5_out_1 : tensor<1x128x25x20xf32>
      }
      %ver_pool = memref.view %arena[%c0][] {cfmem.tensor = "ver_pool"} : memref<1377793xi8, 1 : i64> to memref<1x128x1x1xf32, 1 : i64>
      nn.apply ins(%ver5_out : memref<1x128x25x20xf32, 1 : i64>) outs(%ver_pool : memref<1x128x1x1xf32, 1 : i64>) {
      ^bb0(%48: tensor<1x128x25x20xf32>):
        %ver_pool_1 = nn.global_avg_pool %48 : (tensor<1x128x25x20xf32>) -> tensor<1x128x1x1xf32>
        nn.yield %ver_pool_1 : tensor<1x128x1x1xf32>
      }
      %ver_feat = memref.view %arena[%c0][] {cfmem.tensor = "ver_feat", cfmem.reads = ["ver_pool"]} : memref<1377793xi8, 1 : i64> to memref<1x128xf32, 1 : i64>
      "memref.dma_wait"(%tag_8, %c0, %c32768) : (memref<2xi32>, index, index) -> ()
      "memref.dma_wait"(%tag_8, %c1, %c256) : (memref<2xi32>, index, index) -> ()
      %ver_fc1_w_sram = memref.view %dma1[%c0][] {cfmem.tensor = "ver_fc1_w_sram"} : memref<295424xi8, 1 : i64> to memref<64x128xf32, 1 : i64>
      %ver_fc1_b_sram = memref.view %dma1[%c32768][] {cfmem.tensor = "ver_fc1_b_sram"} : memref<295424xi8, 1 : i64> to memref<64xf32, 1 : i64>
      %ver_fc1 = memref.view %arena[%c512][] {cfmem.tensor = "ver_fc1"} : memref<1377793xi8, 1 : i64> to memref<1x64xf32, 1 : i64>
      nn.apply ins(%ver_feat, %ver_fc1_w_sram, %ver_fc1_b_sram : memref<1x128xf32, 1 : i64>, memref<64x128xf32, 1 : i64>, memref<64xf32, 1 : i64>) outs(%ver_fc1 : memref<1x64xf32, 1 : i64>) {
      ^bb0(%49: tensor<1x128xf32>, %50: tensor<64x128xf32>, %51: tensor<64xf32>):
        %ver_fc1_1 = nn.gemm %49, %50, %51 {trans_b = true} : (tensor<1x128xf32>, tensor<64x128xf32>, tensor<64xf32>) -> tensor<1x64xf32>
        nn.yield %ver_fc1_1 : tensor<1x64xf32>
      }
      %ver_fc1_out = memref.view %arena[%c512][] {cfmem.tensor = "ver_fc1_out"} : memref<1377793xi8, 1 : i64> to memref<1x64xf32, 1 : i64>
      nn.apply ins(%ver_fc1 : memref<1x64xf32, 1 : i64>) outs(%ver_fc1_out : memref<1x64xf32, 1 : i64>) attributes {cfmem.inplace} {
      ^bb0(%52: tensor<1x64xf32>):
        %ver_fc1_out_1 = nn.relu %52 : (tensor<1x64xf32>) -> tensor<1x64xf32>
        nn.yield %ver_fc1_out_1 : tensor<1x64xf32>
      }
      "memref.dma_wait"(%tag_9, %c0, %c3072) : (memref<2xi32>, index, index) -> ()
      "memref.dma_wait"(%tag_9, %c1, %c48) : (memref<2xi32>, index, index) -> ()
      %ver_fc2_w_sram = memref.view %dma2[%c0][] {cfmem.tensor = "ver_fc2_w_sram"} : memref<5120xi8, 1 : i64> to memref<12x64xf32, 1 : i64>
      %ver_fc2_b_sram = memref.view %dma2[%c3072][] {cfmem.tensor = "ver_fc2_b_sram"} : memref<5120xi8, 1 : i64> to memref<12xf32, 1 : i64>
      %ver_fc2 = memref.view %arena[%c0][] {cfmem.tensor = "ver_fc2"} : memref<1377793xi8, 1 : i64> to memref<1x12xf32, 1 : i64>
      nn.apply ins(%ver_fc1_out, %ver_fc2_w_sram, %ver_fc2_b_sram : memref<1x64xf32, 1 : i64>, memref<12x64xf32, 1 : i64>, memref<12xf32, 1 : i64>) outs(%ver_fc2 : memref<1x12xf32, 1 : i64>) {
      ^bb0(%53: tensor<1x64xf32>, %54: tensor<12x64xf32>, %55: tensor<12xf32>):
        %ver_fc2_1 = nn.gemm %53, %54, %55 {trans_b = true} : (tensor<1x64xf32>, tensor<12x64xf32>, tensor<12xf32>) -> tensor<1x12xf32>
        nn.yield %ver_fc2_1 : tensor<1x12xf32>
      }
      %ver_probs = memref.view %arena[%c48][] {cfmem.tensor = "ver_probs"} : memref<1377793xi8, 1 : i64> to memref<1x12xf32, 1 : i64>
      %scratch = memref.view %arena[%c96][] {cfmem.tensor = "ver_probs#scratch"} : memref<1377793xi8, 1 : i64> to memref<32xi8, 1 : i64>
      nn.apply ins(%ver_fc2 : memref<1x12xf32, 1 : i64>) outs(%ver_probs : memref<1x12xf32, 1 : i64>) scratch(%scratch : memref<32xi8, 1 : i64>) {
      ^bb0(%56: tensor<1x12xf32>):
        %ver_probs_1 = nn.softmax %56 : (tensor<1x12xf32>) -> tensor<1x12xf32>
        nn.yield %ver_probs_1 : tensor<1x12xf32>
      }
      "memref.copy"(%ver_probs, %out_probs) : (memref<1x12xf32, 1 : i64>, memref<1x12xf32>) -> ()
    } else {
      %dma0_2 = memref.view %arena[%c0][] {cfmem.tensor = "dma0_2"} : memref<1377793xi8, 1 : i64> to memref<832xi8, 1 : i64>
      %tag_10 = memref.alloca() : memref<2xi32>
      "memref.dma_start"(%weights, %c448896, %dma0_2, %c0, %c768, %tag_10, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "rej_fc_w_sram"} : (memref<449728xi8>, index, memref<832xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      "memref.dma_start"(%weights, %c449664, %dma0_2, %c768, %c48, %tag_10, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "rej_fc_b_sram"} : (memref<449728xi8>, index, memref<832xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      "memref.dma_wait"(%tag_10, %c0, %c768) : (memref<2xi32>, index, index) -> ()
      "memref.dma_wait"(%tag_10, %c1, %c48) : (memref<2xi32>, index, index) -> ()
      %rej_fc_w_sram = memref.view %dma0_2[%c0][] {cfmem.tensor = "rej_fc_w_sram"} : memref<832xi8, 1 : i64> to memref<12x16xf32, 1 : i64>
      %rej_fc_b_sram = memref.view %dma0_2[%c768][] {cfmem.tensor = "rej_fc_b_sram"} : memref<832xi8, 1 : i64> to memref<12xf32, 1 : i64>
      %rej_fc = memref.view %arena[%c832][] {cfmem.tensor = "rej_fc"} : memref<1377793xi8, 1 : i64> to memref<1x12xf32, 1 : i64>
      nn.apply ins(%det_feat, %rej_fc_w_sram, %rej_fc_b_sram : memref<1x16xf32, 1 : i64>, memref<12x16xf32, 1 : i64>, memref<12xf32, 1 : i64>) outs(%rej_fc : memref<1x12xf32, 1 : i64>) {
      ^bb0(%57: tensor<1x16xf32>, %58: tensor<12x16xf32>, %59: tensor<12xf32>):
        %rej_fc_1 = nn.gemm %57, %58, %59 {trans_b = true} : (tensor<1x16xf32>, tensor<12x16xf32>, tensor<12xf32>) -> tensor<1x12xf32>
        nn.yield %rej_fc_1 : tensor<1x12xf32>
      }
      %rej_probs = memref.view %arena[%c0][] {cfmem.tensor = "rej_probs"} : memref<1377793xi8, 1 : i64> to memref<1x12xf32, 1 : i64>
      %scratch_1 = memref.view %arena[%c48][] {cfmem.tensor = "rej_probs#scratch"} : memref<1377793xi8, 1 : i64> to memref<32xi8, 1 : i64>
      nn.apply ins(%rej_fc : memref<1x12xf32, 1 : i64>) outs(%rej_probs : memref<1x12xf32, 1 : i64>) scratch(%scratch_1 : memref<32xi8, 1 : i64>) {
      ^bb0(%60: tensor<1x12xf32>):
        %rej_probs_1 = nn.softmax %60 : (tensor<1x12xf32>) -> tensor<1x12xf32>
        nn.yield %rej_probs_1 : tensor<1x12xf32>
      }
      "memref.copy"(%rej_probs, %out_probs) : (memref<1x12xf32, 1 : i64>, memref<1x12xf32>) -> ()
    }
    func.return
  }
  func.func @load_resident_main() attributes {cfmem.init_of = "main"} {
    %0 = memref.get_global @arena_main : memref<1377793xi8, 1 : i64>
    %1 = arith.constant 1364992 : index
    %2 = memref.view %0[%1][] : memref<1377793xi8, 1 : i64> to memref<7616xi8, 1 : i64>
    %3 = memref.alloca() : memref<6xi32>
    %4 = memref.get_global @weights : memref<449728xi8>
    %5 = arith.constant 0 : index
    %6 = arith.constant 288 : index
    "memref.dma_start"(%4, %5, %2, %5, %6, %3, %5) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "det1_w_sram"} : (memref<449728xi8>, index, memref<7616xi8, 1 : i64>, index, index, memref<6xi32>, index) -> ()
    %7 = memref.get_global @weights : memref<449728xi8>
    %8 = arith.constant 320 : index
    %9 = arith.constant 32 : index
    %10 = arith.constant 1 : index
    "memref.dma_start"(%7, %8, %2, %8, %9, %3, %10) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "det1_b_sram"} : (memref<449728xi8>, index, memref<7616xi8, 1 : i64>, index, index, memref<6xi32>, index) -> ()
    %11 = memref.get_global @weights : memref<449728xi8>
    %12 = arith.constant 384 : index
    %13 = arith.constant 4608 : index
    %14 = arith.constant 2 : index
    "memref.dma_start"(%11, %12, %2, %12, %13, %3, %14) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "det2_w_sram"} : (memref<449728xi8>, index, memref<7616xi8, 1 : i64>, index, index, memref<6xi32>, index) -> ()
    %15 = memref.get_global @weights : memref<449728xi8>
    %16 = arith.constant 4992 : index
    %17 = arith.constant 64 : index
    %18 = arith.constant 3 : index
    "memref.dma_start"(%15, %16, %2, %16, %17, %3, %18) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "det2_b_sram"} : (memref<449728xi8>, index, memref<7616xi8, 1 : i64>, index, index, memref<6xi32>, index) -> ()
    %19 = memref.get_global @weights : memref<449728xi8>
    %20 = arith.constant 5184 : index
    %21 = arith.constant 5056 : index
    %22 = arith.constant 2304 : index
    %23 = arith.constant 4 : index
    "memref.dma_start"(%19, %20, %2, %21, %22, %3, %23) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "ver1_w_sram"} : (memref<449728xi8>, index, memref<7616xi8, 1 : i64>, index, index, memref<6xi32>, index) -> ()
    %24 = memref.get_global @weights : memref<449728xi8>
    %25 = arith.constant 7488 : index
    %26 = arith.constant 7360 : index
    %27 = arith.constant 256 : index
    %28 = arith.constant 5 : index
    "memref.dma_start"(%24, %25, %2, %26, %27, %3, %28) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "ver1_b_sram"} : (memref<449728xi8>, index, memref<7616xi8, 1 : i64>, index, index, memref<6xi32>, index) -> ()
    "memref.dma_wait"(%3, %5, %6) : (memref<6xi32>, index, index) -> ()
    "memref.dma_wait"(%3, %10, %9) : (memref<6xi32>, index, index) -> ()
    "memref.dma_wait"(%3, %14, %13) : (memref<6xi32>, index, index) -> ()
    "memref.dma_wait"(%3, %18, %17) : (memref<6xi32>, index, index) -> ()
    "memref.dma_wait"(%3, %23, %22) : (memref<6xi32>, index, index) -> ()
    "memref.dma_wait"(%3, %28, %27) : (memref<6xi32>, index, index) -> ()
    func.return
  }
}
