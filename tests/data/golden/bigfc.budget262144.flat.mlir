builtin.module {
  "memref.global"() <{sym_name = "cst_main_0", type = memref<1xf32>, initial_value = dense<5.000000e-01> : tensor<1xf32>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "weights", type = memref<771392xi8>, initial_value = dense<"0x~a692a54b932b180b"> : tensor<771392xi8>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "arena_main", type = memref<226272xi8, 1 : i64>, initial_value, sym_visibility = "private"}> : () -> ()
  func.func @main(%mfcc: memref<1x1x49x40xf32>, %out_score: memref<1x1xf32>, %out_probs: memref<1x12xf32>) attributes {cfmem.dma_depth = 2 : i64, cfmem.arena_size = 226272 : i64, cfmem.lower_bound = 226272 : i64, cfmem.plan = "exact/auto", cfmem.aliases = "reshape,slice,inplace,concat,yield", cfmem.onchip_budget = 262144 : i64, cfmem.init = "load_resident_main", cfmem.output_names = ["score", "probs"]} {
    %c24 = arith.constant 24 : index
    %c192000 = arith.constant 192000 : index
    %c3 = arith.constant 3 : index
    %arena = memref.get_global @arena_main : memref<226272xi8, 1 : i64>
    %c0 = arith.constant 0 : index
    %c576 = arith.constant 576 : index
    %c640 = arith.constant 640 : index
    %c768640 = arith.constant 768640 : index
    %c96640 = arith.constant 96640 : index
    %c768652 = arith.constant 768652 : index
    %c192640 = arith.constant 192640 : index
    %c768664 = arith.constant 768664 : index
    %c288640 = arith.constant 288640 : index
    %c768676 = arith.constant 768676 : index
    %c384640 = arith.constant 384640 : index
    %c768688 = arith.constant 768688 : index
    %c480640 = arith.constant 480640 : index
    %c768700 = arith.constant 768700 : index
    %c576640 = arith.constant 576640 : index
    %c768712 = arith.constant 768712 : index
    %c672640 = arith.constant 672640 : index
    %c768724 = arith.constant 768724 : index
    %c768768 = arith.constant 768768 : index
    %c768896 = arith.constant 768896 : index
    %c768960 = arith.constant 768960 : index
    %c770112 = arith.constant 770112 : index
    %c770176 = arith.constant 770176 : index
    %c771328 = arith.constant 771328 : index
    %c96064 = arith.constant 96064 : index
    %c96000 = arith.constant 96000 : index
    %c12 = arith.constant 12 : index
    %c1 = arith.constant 1 : index
    %c224128 = arith.constant 224128 : index
    %c768 = arith.constant 768 : index
    %c832 = arith.constant 832 : index
    %c1984 = arith.constant 1984 : index
    %c192128 = arith.constant 192128 : index
    %c226176 = arith.constant 226176 : index
    %c226188 = arith.constant 226188 : index
    %c226248 = arith.constant 226248 : index
    %c226260 = arith.constant 226260 : index
    %c1264 = arith.constant 1264 : index
    %c48 = arith.constant 48 : index
    %c96 = arith.constant 96 : index
    %c1152 = arith.constant 1152 : index
    %c1216 = arith.constant 1216 : index
    %weights = memref.get_global @weights : memref<771392xi8>
    %conv_w = memref.view %weights[%c0][] : memref<771392xi8> to memref<16x1x3x3xf32>
    %conv_b = memref.view %weights[%c576][] : memref<771392xi8> to memref<16xf32>
    %fc_w_s0 = memref.view %weights[%c640][] : memref<771392xi8> to memref<3x8000xf32>
    %fc_b_s0 = memref.view %weights[%c768640][] : memref<771392xi8> to memref<3xf32>
    %fc_w_s1 = memref.view %weights[%c96640][] : memref<771392xi8> to memref<3x8000xf32>
    %fc_b_s1 = memref.view %weights[%c768652][] : memref<771392xi8> to memref<3xf32>
    %fc_w_s2 = memref.view %weights[%c192640][] : memref<771392xi8> to memref<3x8000xf32>
    %fc_b_s2 = memref.view %weights[%c768664][] : memref<771392xi8> to memref<3xf32>
    %fc_w_s3 = memref.view %weights[%c288640][] : memref<771392xi8> to memref<3x8000xf32>
    %fc_b_s3 = memref.view %weights[%c768676][] : memref<771392xi8> to memref<3xf32>
    %fc_w_s4 = memref.view %weights[%c384640][] : memref<771392xi8> to memref<3x8000xf32>
    %fc_b_s4 = memref.view %weights[%c768688][] : memref<771392xi8> to memref<3xf32>
    %fc_w_s5 = memref.view %weights[%c480640][] : memref<771392xi8> to memref<3x8000xf32>
    %fc_b_s5 = memref.view %weights[%c768700][] : memref<771392xi8> to memref<3xf32>
    %fc_w_s6 = memref.view %weights[%c576640][] : memref<771392xi8> to memref<3x8000xf32>
    %fc_b_s6 = memref.view %weights[%c768712][] : memref<771392xi8> to memref<3xf32>
    %fc_w_s7 = memref.view %weights[%c672640][] : memref<771392xi8> to memref<3x8000xf32>
    %fc_b_s7 = memref.view %weights[%c768724][] : memref<771392xi8> to memref<3xf32>
    %gate_w = memref.view %weights[%c768768][] : memref<771392xi8> to memref<1x24xf32>
    %gate_b = memref.view %weights[%c768896][] : memref<771392xi8> to memref<1xf32>
    %cls_fc_w = memref.view %weights[%c768960][] : memref<771392xi8> to memref<12x24xf32>
    %cls_fc_b = memref.view %weights[%c770112][] : memref<771392xi8> to memref<12xf32>
    %bg_fc_w = memref.view %weights[%c770176][] : memref<771392xi8> to memref<12x24xf32>
    %bg_fc_b = memref.view %weights[%c771328][] : memref<771392xi8> to memref<12xf32>
    %dma0 = memref.view %arena[%c96064][] {cfmem.tensor = "dma0"} : memref<226272xi8, 1 : i64> to memref<96064xi8, 1 : i64>
    %dma1 = memref.view %arena[%c0][] {cfmem.tensor = "dma1"} : memref<226272xi8, 1 : i64> to memref<96064xi8, 1 : i64>
    %tag = memref.alloca() : memref<2xi32>
    "memref.dma_start"(%weights, %c640, %dma0, %c0, %c96000, %tag, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "fc_w_s0_sram"} : (memref<771392xi8>, index, memref<96064xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    "memref.dma_start"(%weights, %c768640, %dma0, %c96000, %c12, %tag, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "fc_b_s0_sram"} : (memref<771392xi8>, index, memref<96064xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    %resident = memref.view %arena[%c224128][] {cfmem.tensor = "resident"} : memref<226272xi8, 1 : i64> to memref<2048xi8, 1 : i64>
    %conv_w_sram = memref.view %resident[%c0][] {cfmem.tensor = "conv_w_sram"} : memref<2048xi8, 1 : i64> to memref<16x1x3x3xf32, 1 : i64>
    %conv_b_sram = memref.view %resident[%c576][] {cfmem.tensor = "conv_b_sram"} : memref<2048xi8, 1 : i64> to memref<16xf32, 1 : i64>
    %gate_w_sram = memref.view %resident[%c640][] {cfmem.tensor = "gate_w_sram"} : memref<2048xi8, 1 : i64> to memref<1x24xf32, 1 : i64>
    %gate_b_sram = memref.view %resident[%c768][] {cfmem.tensor = "gate_b_sram"} : memref<2048xi8, 1 : i64> to memref<1xf32, 1 : i64>
    %cls_fc_w_sram = memref.view %resident[%c832][] {cfmem.tensor = "cls_fc_w_sram"} : memref<2048xi8, 1 : i64> to memref<12x24xf32, 1 : i64>
    %cls_fc_b_sram = memref.view %resident[%c1984][] {cfmem.tensor = "cls_fc_b_sram"} : memref<2048xi8, 1 : i64> to memref<12xf32, 1 : i64>
    %conv = memref.view %arena[%c192128][] {cfmem.tensor = "conv"} : memref<226272xi8, 1 : i64> to memref<1x16x25x20xf32, 1 : i64>
    nn.apply ins(%mfcc, %conv_w_sram, %conv_b_sram : memref<1x1x49x40xf32>, memref<16x1x3x3xf32, 1 : i64>, memref<16xf32, 1 : i64>) outs(%conv : memref<1x16x25x20xf32, 1 : i64>) {
    ^bb0(%0: tensor<1x1x49x40xf32>, %1: tensor<16x1x3x3xf32>, %2: tensor<16xf32>):
      %conv_1 = nn.conv2d %0, %1, %2 {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x49x40xf32>, tensor<16x1x3x3xf32>, tensor<16xf32>) -> tensor<1x16x25x20xf32>
      nn.yield %conv_1 : tensor<1x16x25x20xf32>
    }
    %conv_out = memref.view %arena[%c192128][] {cfmem.tensor = "conv_out"} : memref<226272xi8, 1 : i64> to memref<1x16x25x20xf32, 1 : i64>
    nn.apply ins(%conv : memref<1x16x25x20xf32, 1 : i64>) outs(%conv_out : memref<1x16x25x20xf32, 1 : i64>) attributes {cfmem.inplace} {
    ^bb0(%3: tensor<1x16x25x20xf32>):
      %conv_out_1 = nn.relu %3 : (tensor<1x16x25x20xf32>) -> tensor<1x16x25x20xf32>
      nn.yield %conv_out_1 : tensor<1x16x25x20xf32>
    }
    %feat = memref.view %arena[%c192128][] {cfmem.tensor = "feat", cfmem.reads = ["conv_out"]} : memref<226272xi8, 1 : i64> to memref<1x8000xf32, 1 : i64>
    scf.for %trip = %c0 to %c3 step %c1 {
      "memref.dma_wait"(%tag, %c0, %c96000) : (memref<2xi32>, index, index) -> ()
      "memref.dma_wait"(%tag, %c1, %c12) : (memref<2xi32>, index, index) -> ()
      %fc_w_s_sram = memref.view %dma0[%c0][] {cfmem.tensor = "fc_w_s{}_sram", cfmem.tensor_index = array<i64: 0, 2>} : memref<96064xi8, 1 : i64> to memref<3x8000xf32, 1 : i64>
      %fc_b_s_sram = memref.view %dma0[%c96000][] {cfmem.tensor = "fc_b_s{}_sram", cfmem.tensor_index = array<i64: 0, 2>} : memref<96064xi8, 1 : i64> to memref<3xf32, 1 : i64>
      %tag_1 = memref.alloca() : memref<2xi32>
      %4 = arith.muli %trip, %c192000 : index
      %5 = arith.addi %4, %c96640 : index
      "memref.dma_start"(%weights, %5, %dma1, %c0, %c96000, %tag_1, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "fc_w_s{}_sram", cfmem.tensor_index = array<i64: 1, 2>} : (memref<771392xi8>, index, memref<96064xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      %6 = arith.muli %trip, %c24 : index
      %7 = arith.addi %6, %c768652 : index
      "memref.dma_start"(%weights, %7, %dma1, %c96000, %c12, %tag_1, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "fc_b_s{}_sram", cfmem.tensor_index = array<i64: 1, 2>} : (memref<771392xi8>, index, memref<96064xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      %8 = arith.addi %6, %c226176 : index
      %fc_s = memref.view %arena[%8][] {cfmem.tensor = "fc_s{}", cfmem.tensor_index = array<i64: 0, 2>} : memref<226272xi8, 1 : i64> to memref<1x3xf32, 1 : i64>
      nn.apply ins(%feat, %fc_w_s_sram, %fc_b_s_sram : memref<1x8000xf32, 1 : i64>, memref<3x8000xf32, 1 : i64>, memref<3xf32, 1 : i64>) outs(%fc_s : memref<1x3xf32, 1 : i64>) attributes {cfmem.slice_of = "fc"} {
      ^bb0(%9: tensor<1x8000xf32>, %10: tensor<3x8000xf32>, %11: tensor<3xf32>):
        %fc_s0 = nn.gemm %9, %10, %11 {trans_b = true} : (tensor<1x8000xf32>, tensor<3x8000xf32>, tensor<3xf32>) -> tensor<1x3xf32>
        nn.yield %fc_s0 : tensor<1x3xf32>
      }
      "memref.dma_wait"(%tag_1, %c0, %c96000) : (memref<2xi32>, index, index) -> ()
      "memref.dma_wait"(%tag_1, %c1, %c12) : (memref<2xi32>, index, index) -> ()
      %fc_w_s_sram_1 = memref.view %dma1[%c0][] {cfmem.tensor = "fc_w_s{}_sram", cfmem.tensor_index = array<i64: 1, 2>} : memref<96064xi8, 1 : i64> to memref<3x8000xf32, 1 : i64>
      %fc_b_s_sram_1 = memref.view %dma1[%c96000][] {cfmem.tensor = "fc_b_s{}_sram", cfmem.tensor_index = array<i64: 1, 2>} : memref<96064xi8, 1 : i64> to memref<3xf32, 1 : i64>
      %12 = arith.addi %4, %c192640 : index
      "memref.dma_start"(%weights, %12, %dma0, %c0, %c96000, %tag, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "fc_w_s{}_sram", cfmem.tensor_index = array<i64: 2, 2>} : (memref<771392xi8>, index, memref<96064xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      %13 = arith.addi %6, %c768664 : index
      "memref.dma_start"(%weights, %13, %dma0, %c96000, %c12, %tag, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "fc_b_s{}_sram", cfmem.tensor_index = array<i64: 2, 2>} : (memref<771392xi8>, index, memref<96064xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      %14 = arith.addi %6, %c226188 : index
      %fc_s_1 = memref.view %arena[%14][] {cfmem.tensor = "fc_s{}", cfmem.tensor_index = array<i64: 1, 2>} : memref<226272xi8, 1 : i64> to memref<1x3xf32, 1 : i64>
      nn.apply ins(%feat, %fc_w_s_sram_1, %fc_b_s_sram_1 : memref<1x8000xf32, 1 : i64>, memref<3x8000xf32, 1 : i64>, memref<3xf32, 1 : i64>) outs(%fc_s_1 : memref<1x3xf32, 1 : i64>) attributes {cfmem.slice_of = "fc"} {
      ^bb0(%15: tensor<1x8000xf32>, %16: tensor<3x8000xf32>, %17: tensor<3xf32>):
        %fc_s1 = nn.gemm %15, %16, %17 {trans_b = true} : (tensor<1x8000xf32>, tensor<3x8000xf32>, tensor<3xf32>) -> tensor<1x3xf32>
        nn.yield %fc_s1 : tensor<1x3xf32>
      }
    }
    "memref.dma_wait"(%tag, %c0, %c96000) : (memref<2xi32>, index, index) -> ()
    "memref.dma_wait"(%tag, %c1, %c12) : (memref<2xi32>, index, index) -> ()
    %fc_w_s6_sram = memref.view %dma0[%c0][] {cfmem.tensor = "fc_w_s6_sram"} : memref<96064xi8, 1 : i64> to memref<3x8000xf32, 1 : i64>
    %fc_b_s6_sram = memref.view %dma0[%c96000][] {cfmem.tensor = "fc_b_s6_sram"} : memref<96064xi8, 1 : i64> to memref<3xf32, 1 : i64>
    %tag_2 = memref.alloca() : memref<2xi32>
    "memref.dma_start"(%weights, %c672640, %dma1, %c0, %c96000, %tag_2, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "fc_w_s7_sram"} : (memref<771392xi8>, index, memref<96064xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    "memref.dma_start"(%weights, %c768724, %dma1, %c96000, %c12, %tag_2, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "fc_b_s7_sram"} : (memref<771392xi8>, index, memref<96064xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    %fc_s6 = memref.view %arena[%c226248][] {cfmem.tensor = "fc_s6"} : memref<226272xi8, 1 : i64> to memref<1x3xf32, 1 : i64>
    nn.apply ins(%feat, %fc_w_s6_sram, %fc_b_s6_sram : memref<1x8000xf32, 1 : i64>, memref<3x8000xf32, 1 : i64>, memref<3xf32, 1 : i64>) outs(%fc_s6 : memref<1x3xf32, 1 : i64>) attributes {cfmem.slice_of = "fc"} {
    ^bb0(%18: tensor<1x8000xf32>, %19: tensor<3x8000xf32>, %20: tensor<3xf32>):
      %fc_s6_1 = nn.gemm %18, %19, %20 {trans_b = true} : (tensor<1x8000xf32>, tensor<3x8000xf32>, tensor<3xf32>) -> tensor<1x3xf32>
      nn.yield %fc_s6_1 : tensor<1x3xf32>
    }
    "memref.dma_wait"(%tag_2, %c0, %c96000) : (memref<2xi32>, index, index) -> ()
    "memref.dma_wait"(%tag_2, %c1, %c12) : (memref<2xi32>, index, index) -> ()
    %fc_w_s7_sram = memref.view %dma1[%c0][] {cfmem.tensor = "fc_w_s7_sram"} : memref<96064xi8, 1 : i64> to memref<3x8000xf32, 1 : i64>
    %fc_b_s7_sram = memref.view %dma1[%c96000][] {cfmem.tensor = "fc_b_s7_sram"} : memref<96064xi8, 1 : i64> to memref<3xf32, 1 : i64>
    %fc_s7 = memref.view %arena[%c226260][] {cfmem.tensor = "fc_s7"} : memref<226272xi8, 1 : i64> to memref<1x3xf32, 1 : i64>
    nn.apply ins(%feat, %fc_w_s7_sram, %fc_b_s7_sram : memref<1x8000xf32, 1 : i64>, memref<3x8000xf32, 1 : i64>, memref<3xf32, 1 : i64>) outs(%fc_s7 : memref<1x3xf32, 1 : i64>) attributes {cfmem.slice_of = "fc"} {
    ^bb0(%21: tensor<1x8000xf32>, %22: tensor<3x8000xf32>, %23: tensor<3xf32>):
      %fc_s7_1 = nn.gemm %21, %22, %23 {trans_b = true} : (tensor<1x8000xf32>, tensor<3x8000xf32>, tensor<3xf32>) -> tensor<1x3xf32>
      nn.yield %fc_s7_1 : tensor<1x3xf32>
    }
    %fc = memref.view %arena[%c226176][] {cfmem.tensor = "fc", cfmem.reads = ["fc_s0", "fc_s1", "fc_s2", "fc_s3", "fc_s4", "fc_s5", "fc_s6", "fc_s7"]} : memref<226272xi8, 1 : i64> to memref<1x24xf32, 1 : i64>
    %fc_out = memref.view %arena[%c226176][] {cfmem.tensor = "fc_out"} : memref<226272xi8, 1 : i64> to memref<1x24xf32, 1 : i64>
    nn.apply ins(%fc : memref<1x24xf32, 1 : i64>) outs(%fc_out : memref<1x24xf32, 1 : i64>) attributes {cfmem.inplace} {
    ^bb0(%24: tensor<1x24xf32>):
      %fc_out_1 = nn.relu %24 : (tensor<1x24xf32>) -> tensor<1x24xf32>
      nn.yield %fc_out_1 : tensor<1x24xf32>
    }
    %gate = memref.view %arena[%c0][] {cfmem.tensor = "gate"} : memref<226272xi8, 1 : i64> to memref<1x1xf32, 1 : i64>
    nn.apply ins(%fc_out, %gate_w_sram, %gate_b_sram : memref<1x24xf32, 1 : i64>, memref<1x24xf32, 1 : i64>, memref<1xf32, 1 : i64>) outs(%gate : memref<1x1xf32, 1 : i64>) {
    ^bb0(%25: tensor<1x24xf32>, %26: tensor<1x24xf32>, %27: tensor<1xf32>):
      %gate_1 = nn.gemm %25, %26, %27 {trans_b = true} : (tensor<1x24xf32>, tensor<1x24xf32>, tensor<1xf32>) -> tensor<1x1xf32>
      nn.yield %gate_1 : tensor<1x1xf32>
    }
    nn.apply ins(%gate : memref<1x1xf32, 1 : i64>) outs(%out_score : memref<1x1xf32>) {
    ^bb0(%28: tensor<1x1xf32>):
      %score = nn.sigmoid %28 : (tensor<1x1xf32>) -> tensor<1x1xf32>
      nn.yield %score : tensor<1x1xf32>
    }
    %keyword_b = memref.get_global @cst_main_0 : memref<1xf32>
    %keyword = memref.view %arena[%c1264][] {cfmem.tensor = "keyword"} : memref<226272xi8, 1 : i64> to memref<1x1xi1, 1 : i64>
    nn.apply ins(%out_score, %keyword_b : memref<1x1xf32>, memref<1xf32>) outs(%keyword : memref<1x1xi1, 1 : i64>) {
    ^bb0(%29: tensor<1x1xf32>, %30: tensor<1xf32>):
      %keyword_1 = nn.cmp %29, %30 {predicate = "gt"} : (tensor<1x1xf32>, tensor<1xf32>) -> tensor<1x1xi1>
      nn.yield %keyword_1 : tensor<1x1xi1>
    }
    %31 = memref.load %keyword[%c0, %c0] : memref<1x1xi1, 1 : i64>
    scf.if %31 {
      %cls_fc = memref.view %arena[%c0][] {cfmem.tensor = "cls_fc"} : memref<226272xi8, 1 : i64> to memref<1x12xf32, 1 : i64>
      nn.apply ins(%fc_out, %cls_fc_w_sram, %cls_fc_b_sram : memref<1x24xf32, 1 : i64>, memref<12x24xf32, 1 : i64>, memref<12xf32, 1 : i64>) outs(%cls_fc : memref<1x12xf32, 1 : i64>) {
      ^bb0(%32: tensor<1x24xf32>, %33: tensor<12x24xf32>, %34: tensor<12xf32>):
        %cls_fc_1 = nn.gemm %32, %33, %34 {trans_b = true} : (tensor<1x24xf32>, tensor<12x24xf32>, tensor<12xf32>) -> tensor<1x12xf32>
        nn.yield %cls_fc_1 : tensor<1x12xf32>
      }
      %cls_probs = memref.view %arena[%c48][] {cfmem.tensor = "cls_probs"} : memref<226272xi8, 1 : i64> to memref<1x12xf32, 1 : i64>
      %scratch = memref.view %arena[%c96][] {cfmem.tensor = "cls_probs#scratch"} : memref<226272xi8, 1 : i64> to memref<32xi8, 1 : i64>
      nn.apply ins(%cls_fc : memref<1x12xf32, 1 : i64>) outs(%cls_probs : memref<1x12xf32, 1 : i64>) scratch(%scratch : memref<32xi8, 1 : i64>) {
      ^bb0(%35: tensor<1x12xf32>):
        %cls_probs_1 = nn.softmax %35 : (tensor<1x12xf32>) -> tensor<1x12xf32>
        nn.yield %cls_probs_1 : tensor<1x12xf32>
      }
      "memref.copy"(%cls_probs, %out_probs) : (memref<1x12xf32, 1 : i64>, memref<1x12xf32>) -> ()
    } else {
      %dma0_1 = memref.view %arena[%c0][] {cfmem.tensor = "dma0_1"} : memref<226272xi8, 1 : i64> to memref<1216xi8, 1 : i64>
      %tag_3 = memref.alloca() : memref<2xi32>
      "memref.dma_start"(%weights, %c770176, %dma0_1, %c0, %c1152, %tag_3, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "bg_fc_w_sram"} : (memref<771392xi8>, index, memref<1216xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      "memref.dma_start"(%weights, %c771328, %dma0_1, %c1152, %c48, %tag_3, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "bg_fc_b_sram"} : (memref<771392xi8>, index, memref<1216xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      "memref.dma_wait"(%tag_3, %c0, %c1152) : (memref<2xi32>, index, index) -> ()
      "memref.dma_wait"(%tag_3, %c1, %c48) : (memref<2xi32>, index, index) -> ()
      %bg_fc_w_sram = memref.view %dma0_1[%c0][] {cfmem.tensor = "bg_fc_w_sram"} : memref<1216xi8, 1 : i64> to memref<12x24xf32, 1 : i64>
      %bg_fc_b_sram = memref.view %dma0_1[%c1152][] {cfmem.tensor = "bg_fc_b_sram"} : memref<1216xi8, 1 : i64> to memref<12xf32, 1 : i64>
      %bg_fc = memref.view %arena[%c1216][] {cfmem.tensor = "bg_fc"} : memref<226272xi8, 1 : i64> to memref<1x12xf32, 1 : i64>
      nn.apply ins(%fc_out, %bg_fc_w_sram, %bg_fc_b_sram : memref<1x24xf32, 1 : i64>, memref<12x24xf32, 1 : i64>, memref<12xf32, 1 : i64>) outs(%bg_fc : memref<1x12xf32, 1 : i64>) {
      ^bb0(%36: tensor<1x24xf32>, %37: tensor<12x24xf32>, %38: tensor<12xf32>):
        %bg_fc_1 = nn.gemm %36, %37, %38 {trans_b = true} : (tensor<1x24xf32>, tensor<12x24xf32>, tensor<12xf32>) -> tensor<1x12xf32>
        nn.yield %bg_fc_1 : tensor<1x12xf32>
      }
      %bg_probs = memref.view %arena[%c0][] {cfmem.tensor = "bg_probs"} : memref<226272xi8, 1 : i64> to memref<1x12xf32, 1 : i64>
      %scratch_1 = memref.view %arena[%c48][] {cfmem.tensor = "bg_probs#scratch"} : memref<226272xi8, 1 : i64> to memref<32xi8, 1 : i64>
      nn.apply ins(%bg_fc : memref<1x12xf32, 1 : i64>) outs(%bg_probs : memref<1x12xf32, 1 : i64>) scratch(%scratch_1 : memref<32xi8, 1 : i64>) {
      ^bb0(%39: tensor<1x12xf32>):
        %bg_probs_1 = nn.softmax %39 : (tensor<1x12xf32>) -> tensor<1x12xf32>
        nn.yield %bg_probs_1 : tensor<1x12xf32>
      }
      "memref.copy"(%bg_probs, %out_probs) : (memref<1x12xf32, 1 : i64>, memref<1x12xf32>) -> ()
    }
    func.return
  }
  func.func @load_resident_main() attributes {cfmem.init_of = "main"} {
    %0 = memref.get_global @arena_main : memref<226272xi8, 1 : i64>
    %1 = arith.constant 224128 : index
    %2 = memref.view %0[%1][] : memref<226272xi8, 1 : i64> to memref<2048xi8, 1 : i64>
    %3 = memref.alloca() : memref<6xi32>
    %4 = memref.get_global @weights : memref<771392xi8>
    %5 = arith.constant 0 : index
    %6 = arith.constant 576 : index
    "memref.dma_start"(%4, %5, %2, %5, %6, %3, %5) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "conv_w_sram"} : (memref<771392xi8>, index, memref<2048xi8, 1 : i64>, index, index, memref<6xi32>, index) -> ()
    %7 = memref.get_global @weights : memref<771392xi8>
    %8 = arith.constant 64 : index
    %9 = arith.constant 1 : index
    "memref.dma_start"(%7, %6, %2, %6, %8, %3, %9) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "conv_b_sram"} : (memref<771392xi8>, index, memref<2048xi8, 1 : i64>, index, index, memref<6xi32>, index) -> ()
    %10 = memref.get_global @weights : memref<771392xi8>
    %11 = arith.constant 768768 : index
    %12 = arith.constant 640 : index
    %13 = arith.constant 96 : index
    %14 = arith.constant 2 : index
    "memref.dma_start"(%10, %11, %2, %12, %13, %3, %14) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "gate_w_sram"} : (memref<771392xi8>, index, memref<2048xi8, 1 : i64>, index, index, memref<6xi32>, index) -> ()
    %15 = memref.get_global @weights : memref<771392xi8>
    %16 = arith.constant 768896 : index
    %17 = arith.constant 768 : index
    %18 = arith.constant 4 : index
    %19 = arith.constant 3 : index
    "memref.dma_start"(%15, %16, %2, %17, %18, %3, %19) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "gate_b_sram"} : (memref<771392xi8>, index, memref<2048xi8, 1 : i64>, index, index, memref<6xi32>, index) -> ()
    %20 = memref.get_global @weights : memref<771392xi8>
    %21 = arith.constant 768960 : index
    %22 = arith.constant 832 : index
    %23 = arith.constant 1152 : index
    "memref.dma_start"(%20, %21, %2, %22, %23, %3, %18) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "cls_fc_w_sram"} : (memref<771392xi8>, index, memref<2048xi8, 1 : i64>, index, index, memref<6xi32>, index) -> ()
    %24 = memref.get_global @weights : memref<771392xi8>
    %25 = arith.constant 770112 : index
    %26 = arith.constant 1984 : index
    %27 = arith.constant 48 : index
    %28 = arith.constant 5 : index
    "memref.dma_start"(%24, %25, %2, %26, %27, %3, %28) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "cls_fc_b_sram"} : (memref<771392xi8>, index, memref<2048xi8, 1 : i64>, index, index, memref<6xi32>, index) -> ()
    "memref.dma_wait"(%3, %5, %6) : (memref<6xi32>, index, index) -> ()
    "memref.dma_wait"(%3, %9, %8) : (memref<6xi32>, index, index) -> ()
    "memref.dma_wait"(%3, %14, %13) : (memref<6xi32>, index, index) -> ()
    "memref.dma_wait"(%3, %19, %18) : (memref<6xi32>, index, index) -> ()
    "memref.dma_wait"(%3, %18, %23) : (memref<6xi32>, index, index) -> ()
    "memref.dma_wait"(%3, %28, %27) : (memref<6xi32>, index, index) -> ()
    func.return
  }
}
