builtin.module {
  "memref.global"() <{sym_name = "cst_main_0", type = memref<1xf32>, initial_value = dense<5.000000e-01> : tensor<1xf32>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "weights", type = memref<771392xi8>, initial_value = dense<"0x~a692a54b932b180b"> : tensor<771392xi8>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "arena_main", type = memref<802272xi8, 1 : i64>, initial_value, sym_visibility = "private"}> : () -> ()
  func.func @main(%mfcc: memref<1x1x49x40xf32>, %out_score: memref<1x1xf32>, %out_probs: memref<1x12xf32>) attributes {cfmem.dma_depth = 2 : i64, cfmem.arena_size = 802272 : i64, cfmem.lower_bound = 802272 : i64, cfmem.plan = "exact/auto", cfmem.aliases = "reshape,slice,inplace,concat,yield", cfmem.onchip_budget = 2097152 : i64, cfmem.init = "load_resident_main", cfmem.output_names = ["score", "probs"]} {
    %arena = memref.get_global @arena_main : memref<802272xi8, 1 : i64>
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
    %conv_w = memref.view %weights[%c0][] : memref<771392xi8> to memref<16x1x3x3xf32>
    %conv_b = memref.view %weights[%c576][] : memref<771392xi8> to memref<16xf32>
    %fc_w = memref.view %weights[%c640][] : memref<771392xi8> to memref<24x8000xf32>
    %fc_b = memref.view %weights[%c768640][] : memref<771392xi8> to memref<24xf32>
    %gate_w = memref.view %weights[%c768768][] : memref<771392xi8> to memref<1x24xf32>
    %gate_b = memref.view %weights[%c768896][] : memref<771392xi8> to memref<1xf32>
    %cls_fc_w = memref.view %weights[%c768960][] : memref<771392xi8> to memref<12x24xf32>
    %cls_fc_b = memref.view %weights[%c770112][] : memref<771392xi8> to memref<12xf32>
    %bg_fc_w = memref.view %weights[%c770176][] : memref<771392xi8> to memref<12x24xf32>
    %bg_fc_b = memref.view %weights[%c771328][] : memref<771392xi8> to memref<12xf32>
    %dma0 = memref.view %arena[%c801984][] {cfmem.tensor = "dma0"} : memref<802272xi8, 1 : i64> to memref<192xi8, 1 : i64>
    %tag = memref.alloca() : memref<2xi32>
    "memref.dma_start"(%weights, %c768768, %dma0, %c0, %c96, %tag, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "gate_w_sram"} : (memref<771392xi8>, index, memref<192xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    "memref.dma_start"(%weights, %c768896, %dma0, %c128, %c4, %tag, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "gate_b_sram"} : (memref<771392xi8>, index, memref<192xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    %resident = memref.view %arena[%c0][] {cfmem.tensor = "resident"} : memref<802272xi8, 1 : i64> to memref<769984xi8, 1 : i64>
    %conv_w_sram = memref.view %resident[%c0][] {cfmem.tensor = "conv_w_sram"} : memref<769984xi8, 1 : i64> to memref<16x1x3x3xf32, 1 : i64>
    %conv_b_sram = memref.view %resident[%c576][] {cfmem.tensor = "conv_b_sram"} : memref<769984xi8, 1 : i64> to memref<16xf32, 1 : i64>
    %fc_w_sram = memref.view %resident[%c640][] {cfmem.tensor = "fc_w_sram"} : memref<769984xi8, 1 : i64> to memref<24x8000xf32, 1 : i64>
    %fc_b_sram = memref.view %resident[%c768640][] {cfmem.tensor = "fc_b_sram"} : memref<769984xi8, 1 : i64> to memref<24xf32, 1 : i64>
    %cls_fc_w_sram = memref.view %resident[%c768768][] {cfmem.tensor = "cls_fc_w_sram"} : memref<769984xi8, 1 : i64> to memref<12x24xf32, 1 : i64>
    %cls_fc_b_sram = memref.view %resident[%c769920][] {cfmem.tensor = "cls_fc_b_sram"} : memref<769984xi8, 1 : i64> to memref<12xf32, 1 : i64>
    %conv = memref.view %arena[%c769984][] {cfmem.tensor = "conv"} : memref<802272xi8, 1 : i64> to memref<1x16x25x20xf32, 1 : i64>
    nn.apply ins(%mfcc, %conv_w_sram, %conv_b_sram : memref<1x1x49x40xf32>, memref<16x1x3x3xf32, 1 : i64>, memref<16xf32, 1 : i64>) outs(%conv : memref<1x16x25x20xf32, 1 : i64>) {
    ^bb0(%0: tensor<1x1x49x40xf32>, %1: tensor<16x1x3x3xf32>, %2: tensor<16xf32>):
      %conv_1 = nn.conv2d %0, %1, %2 {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x49x40xf32>, tensor<16x1x3x3xf32>, tensor<16xf32>) -> tensor<1x16x25x20xf32>
      nn.yield %conv_1 : tensor<1x16x25x20xf32>
    }
    %conv_out = memref.view %arena[%c769984][] {cfmem.tensor = "conv_out"} : memref<802272xi8, 1 : i64> to memref<1x16x25x20xf32, 1 : i64>
    nn.apply ins(%conv : memref<1x16x25x20xf32, 1 : i64>) outs(%conv_out : memref<1x16x25x20xf32, 1 : i64>) attributes {cfmem.inplace} {
    ^bb0(%3: tensor<1x16x25x20xf32>):
      %conv_out_1 = nn.relu %3 : (tensor<1x16x25x20xf32>) -> tensor<1x16x25x20xf32>
      nn.yield %conv_out_1 : tensor<1x16x25x20xf32>
    }
    %feat = memref.view %arena[%c769984][] {cfmem.tensor = "feat", cfmem.reads = ["conv_out"]} : memref<802272xi8, 1 : i64> to memref<1x8000xf32, 1 : i64>
    %fc = memref.view %arena[%c802176][] {cfmem.tensor = "fc"} : memref<802272xi8, 1 : i64> to memref<1x24xf32, 1 : i64>
    nn.apply ins(%feat, %fc_w_sram, %fc_b_sram : memref<1x8000xf32, 1 : i64>, memref<24x8000xf32, 1 : i64>, memref<24xf32, 1 : i64>) outs(%fc : memref<1x24xf32, 1 : i64>) {
    ^bb0(%4: tensor<1x8000xf32>, %5: tensor<24x8000xf32>, %6: tensor<24xf32>):
      %fc_1 = nn.gemm %4, %5, %6 {trans_b = true} : (tensor<1x8000xf32>, tensor<24x8000xf32>, tensor<24xf32>) -> tensor<1x24xf32>
      nn.yield %fc_1 : tensor<1x24xf32>
    }
    %fc_out = memref.view %arena[%c802176][] {cfmem.tensor = "fc_out"} : memref<802272xi8, 1 : i64> to memref<1x24xf32, 1 : i64>
    nn.apply ins(%fc : memref<1x24xf32, 1 : i64>) outs(%fc_out : memref<1x24xf32, 1 : i64>) attributes {cfmem.inplace} {
    ^bb0(%7: tensor<1x24xf32>):
      %fc_out_1 = nn.relu %7 : (tensor<1x24xf32>) -> tensor<1x24xf32>
      nn.yield %fc_out_1 : tensor<1x24xf32>
    }
    "memref.dma_wait"(%tag, %c0, %c96) : (memref<2xi32>, index, index) -> ()
    "memref.dma_wait"(%tag, %c1, %c4) : (memref<2xi32>, index, index) -> ()
    %gate_w_sram = memref.view %dma0[%c0][] {cfmem.tensor = "gate_w_sram"} : memref<192xi8, 1 : i64> to memref<1x24xf32, 1 : i64>
    %gate_b_sram = memref.view %dma0[%c128][] {cfmem.tensor = "gate_b_sram"} : memref<192xi8, 1 : i64> to memref<1xf32, 1 : i64>
    %gate = memref.view %arena[%c769984][] {cfmem.tensor = "gate"} : memref<802272xi8, 1 : i64> to memref<1x1xf32, 1 : i64>
    nn.apply ins(%fc_out, %gate_w_sram, %gate_b_sram : memref<1x24xf32, 1 : i64>, memref<1x24xf32, 1 : i64>, memref<1xf32, 1 : i64>) outs(%gate : memref<1x1xf32, 1 : i64>) {
    ^bb0(%8: tensor<1x24xf32>, %9: tensor<1x24xf32>, %10: tensor<1xf32>):
      %gate_1 = nn.gemm %8, %9, %10 {trans_b = true} : (tensor<1x24xf32>, tensor<1x24xf32>, tensor<1xf32>) -> tensor<1x1xf32>
      nn.yield %gate_1 : tensor<1x1xf32>
    }
    nn.apply ins(%gate : memref<1x1xf32, 1 : i64>) outs(%out_score : memref<1x1xf32>) {
    ^bb0(%11: tensor<1x1xf32>):
      %score = nn.sigmoid %11 : (tensor<1x1xf32>) -> tensor<1x1xf32>
      nn.yield %score : tensor<1x1xf32>
    }
    %keyword_b = memref.get_global @cst_main_0 : memref<1xf32>
    %keyword = memref.view %arena[%c771248][] {cfmem.tensor = "keyword"} : memref<802272xi8, 1 : i64> to memref<1x1xi1, 1 : i64>
    nn.apply ins(%out_score, %keyword_b : memref<1x1xf32>, memref<1xf32>) outs(%keyword : memref<1x1xi1, 1 : i64>) {
    ^bb0(%12: tensor<1x1xf32>, %13: tensor<1xf32>):
      %keyword_1 = nn.cmp %12, %13 {predicate = "gt"} : (tensor<1x1xf32>, tensor<1xf32>) -> tensor<1x1xi1>
      nn.yield %keyword_1 : tensor<1x1xi1>
    }
    %14 = memref.load %keyword[%c0, %c0] : memref<1x1xi1, 1 : i64>
    scf.if %14 {
      %cls_fc = memref.view %arena[%c769984][] {cfmem.tensor = "cls_fc"} : memref<802272xi8, 1 : i64> to memref<1x12xf32, 1 : i64>
      nn.apply ins(%fc_out, %cls_fc_w_sram, %cls_fc_b_sram : memref<1x24xf32, 1 : i64>, memref<12x24xf32, 1 : i64>, memref<12xf32, 1 : i64>) outs(%cls_fc : memref<1x12xf32, 1 : i64>) {
      ^bb0(%15: tensor<1x24xf32>, %16: tensor<12x24xf32>, %17: tensor<12xf32>):
        %cls_fc_1 = nn.gemm %15, %16, %17 {trans_b = true} : (tensor<1x24xf32>, tensor<12x24xf32>, tensor<12xf32>) -> tensor<1x12xf32>
        nn.yield %cls_fc_1 : tensor<1x12xf32>
      }
      %cls_probs = memref.view %arena[%c770032][] {cfmem.tensor = "cls_probs"} : memref<802272xi8, 1 : i64> to memref<1x12xf32, 1 : i64>
      %scratch = memref.view %arena[%c770080][] {cfmem.tensor = "cls_probs#scratch"} : memref<802272xi8, 1 : i64> to memref<32xi8, 1 : i64>
      nn.apply ins(%cls_fc : memref<1x12xf32, 1 : i64>) outs(%cls_probs : memref<1x12xf32, 1 : i64>) scratch(%scratch : memref<32xi8, 1 : i64>) {
      ^bb0(%18: tensor<1x12xf32>):
        %cls_probs_1 = nn.softmax %18 : (tensor<1x12xf32>) -> tensor<1x12xf32>
        nn.yield %cls_probs_1 : tensor<1x12xf32>
      }
      "memref.copy"(%cls_probs, %out_probs) : (memref<1x12xf32, 1 : i64>, memref<1x12xf32>) -> ()
    } else {
      %dma0_1 = memref.view %arena[%c769984][] {cfmem.tensor = "dma0_1"} : memref<802272xi8, 1 : i64> to memref<1216xi8, 1 : i64>
      %tag_1 = memref.alloca() : memref<2xi32>
      "memref.dma_start"(%weights, %c770176, %dma0_1, %c0, %c1152, %tag_1, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "bg_fc_w_sram"} : (memref<771392xi8>, index, memref<1216xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      "memref.dma_start"(%weights, %c771328, %dma0_1, %c1152, %c48, %tag_1, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "bg_fc_b_sram"} : (memref<771392xi8>, index, memref<1216xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      "memref.dma_wait"(%tag_1, %c0, %c1152) : (memref<2xi32>, index, index) -> ()
      "memref.dma_wait"(%tag_1, %c1, %c48) : (memref<2xi32>, index, index) -> ()
      %bg_fc_w_sram = memref.view %dma0_1[%c0][] {cfmem.tensor = "bg_fc_w_sram"} : memref<1216xi8, 1 : i64> to memref<12x24xf32, 1 : i64>
      %bg_fc_b_sram = memref.view %dma0_1[%c1152][] {cfmem.tensor = "bg_fc_b_sram"} : memref<1216xi8, 1 : i64> to memref<12xf32, 1 : i64>
      %bg_fc = memref.view %arena[%c771200][] {cfmem.tensor = "bg_fc"} : memref<802272xi8, 1 : i64> to memref<1x12xf32, 1 : i64>
      nn.apply ins(%fc_out, %bg_fc_w_sram, %bg_fc_b_sram : memref<1x24xf32, 1 : i64>, memref<12x24xf32, 1 : i64>, memref<12xf32, 1 : i64>) outs(%bg_fc : memref<1x12xf32, 1 : i64>) {
      ^bb0(%19: tensor<1x24xf32>, %20: tensor<12x24xf32>, %21: tensor<12xf32>):
        %bg_fc_1 = nn.gemm %19, %20, %21 {trans_b = true} : (tensor<1x24xf32>, tensor<12x24xf32>, tensor<12xf32>) -> tensor<1x12xf32>
        nn.yield %bg_fc_1 : tensor<1x12xf32>
      }
      %bg_probs = memref.view %arena[%c769984][] {cfmem.tensor = "bg_probs"} : memref<802272xi8, 1 : i64> to memref<1x12xf32, 1 : i64>
      %scratch_1 = memref.view %arena[%c770032][] {cfmem.tensor = "bg_probs#scratch"} : memref<802272xi8, 1 : i64> to memref<32xi8, 1 : i64>
      nn.apply ins(%bg_fc : memref<1x12xf32, 1 : i64>) outs(%bg_probs : memref<1x12xf32, 1 : i64>) scratch(%scratch_1 : memref<32xi8, 1 : i64>) {
      ^bb0(%22: tensor<1x12xf32>):
        %bg_probs_1 = nn.softmax %22 : (tensor<1x12xf32>) -> tensor<1x12xf32>
        nn.yield %bg_probs_1 : tensor<1x12xf32>
      }
      "memref.copy"(%bg_probs, %out_probs) : (memref<1x12xf32, 1 : i64>, memref<1x12xf32>) -> ()
    }
    func.return
  }
  func.func @load_resident_main() attributes {cfmem.init_of = "main"} {
    %0 = memref.get_global @arena_main : memref<802272xi8, 1 : i64>
    %1 = arith.constant 0 : index
    %2 = memref.view %0[%1][] : memref<802272xi8, 1 : i64> to memref<769984xi8, 1 : i64>
    %3 = memref.alloca() : memref<6xi32>
    %4 = memref.get_global @weights : memref<771392xi8>
    %5 = arith.constant 576 : index
    "memref.dma_start"(%4, %1, %2, %1, %5, %3, %1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "conv_w_sram"} : (memref<771392xi8>, index, memref<769984xi8, 1 : i64>, index, index, memref<6xi32>, index) -> ()
    %6 = memref.get_global @weights : memref<771392xi8>
    %7 = arith.constant 64 : index
    %8 = arith.constant 1 : index
    "memref.dma_start"(%6, %5, %2, %5, %7, %3, %8) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "conv_b_sram"} : (memref<771392xi8>, index, memref<769984xi8, 1 : i64>, index, index, memref<6xi32>, index) -> ()
    %9 = memref.get_global @weights : memref<771392xi8>
    %10 = arith.constant 640 : index
    %11 = arith.constant 768000 : index
    %12 = arith.constant 2 : index
    "memref.dma_start"(%9, %10, %2, %10, %11, %3, %12) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "fc_w_sram"} : (memref<771392xi8>, index, memref<769984xi8, 1 : i64>, index, index, memref<6xi32>, index) -> ()
    %13 = memref.get_global @weights : memref<771392xi8>
    %14 = arith.constant 768640 : index
    %15 = arith.constant 96 : index
    %16 = arith.constant 3 : index
    "memref.dma_start"(%13, %14, %2, %14, %15, %3, %16) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "fc_b_sram"} : (memref<771392xi8>, index, memref<769984xi8, 1 : i64>, index, index, memref<6xi32>, index) -> ()
    %17 = memref.get_global @weights : memref<771392xi8>
    %18 = arith.constant 768960 : index
    %19 = arith.constant 768768 : index
    %20 = arith.constant 1152 : index
    %21 = arith.constant 4 : index
    "memref.dma_start"(%17, %18, %2, %19, %20, %3, %21) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "cls_fc_w_sram"} : (memref<771392xi8>, index, memref<769984xi8, 1 : i64>, index, index, memref<6xi32>, index) -> ()
    %22 = memref.get_global @weights : memref<771392xi8>
    %23 = arith.constant 770112 : index
    %24 = arith.constant 769920 : index
    %25 = arith.constant 48 : index
    %26 = arith.constant 5 : index
    "memref.dma_start"(%22, %23, %2, %24, %25, %3, %26) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "cls_fc_b_sram"} : (memref<771392xi8>, index, memref<769984xi8, 1 : i64>, index, index, memref<6xi32>, index) -> ()
    "memref.dma_wait"(%3, %1, %5) : (memref<6xi32>, index, index) -> ()
    "memref.dma_wait"(%3, %8, %7) : (memref<6xi32>, index, index) -> ()
    "memref.dma_wait"(%3, %12, %11) : (memref<6xi32>, index, index) -> ()
    "memref.dma_wait"(%3, %16, %15) : (memref<6xi32>, index, index) -> ()
    "memref.dma_wait"(%3, %21, %20) : (memref<6xi32>, index, index) -> ()
    "memref.dma_wait"(%3, %26, %25) : (memref<6xi32>, index, index) -> ()
    func.return
  }
}
