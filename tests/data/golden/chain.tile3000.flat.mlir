builtin.module {
  "memref.global"() <{sym_name = "w", type = memref<4096xi8>, initial_value = dense<"0x~0319ea70b01fe83c"> : tensor<4096xi8>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "arena_main", type = memref<2944xi8, 1 : i64>, initial_value, sym_visibility = "private"}> : () -> ()
  func.func @main(%x: memref<1x2x17x6xf32>, %out_a: memref<1x4x4x6xf32>) attributes {cfmem.dma_depth = 1 : i64, cfmem.arena_size = 2944 : i64, cfmem.lower_bound = 2944 : i64, cfmem.plan = "exact/auto", cfmem.aliases = "reshape,slice,inplace,concat,yield", cfmem.onchip_budget = 3000 : i64, cfmem.init = "load_resident_main", cfmem.output_names = ["a"]} {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %arena = memref.get_global @arena_main : memref<2944xi8, 1 : i64>
    %c576 = arith.constant 576 : index
    %c0 = arith.constant 0 : index
    %c288 = arith.constant 288 : index
    %c2496 = arith.constant 2496 : index
    %c2816 = arith.constant 2816 : index
    %c1536 = arith.constant 1536 : index
    %c768 = arith.constant 768 : index
    %c2304 = arith.constant 2304 : index
    %c1344 = arith.constant 1344 : index
    %c672 = arith.constant 672 : index
    %blob = memref.get_global @w : memref<4096xi8>
    %w2 = memref.view %blob[%c576][] : memref<4096xi8> to memref<4x8x1x1xf32>
    %w1_s0 = memref.view %blob[%c0][] : memref<4096xi8> to memref<4x2x3x3xf32>
    %w1_s1 = memref.view %blob[%c288][] : memref<4096xi8> to memref<4x2x3x3xf32>
    %w1_s0_1 = memref.view %blob[%c0][] : memref<4096xi8> to memref<4x2x3x3xf32>
    %w1_s1_1 = memref.view %blob[%c288][] : memref<4096xi8> to memref<4x2x3x3xf32>
    %dma0 = memref.view %arena[%c2496][] {cfmem.tensor = "dma0"} : memref<2944xi8, 1 : i64> to memref<320xi8, 1 : i64>
    %resident = memref.view %arena[%c2816][] {cfmem.tensor = "resident"} : memref<2944xi8, 1 : i64> to memref<128xi8, 1 : i64>
    %w2_sram = memref.view %resident[%c0][] {cfmem.tensor = "w2_sram"} : memref<128xi8, 1 : i64> to memref<4x8x1x1xf32, 1 : i64>
    %x_rows0 = memref.view %arena[%c0][] {cfmem.tensor = "x_rows0"} : memref<2944xi8, 1 : i64> to memref<1x2x15x6xf32, 1 : i64>
    nn.apply ins(%x : memref<1x2x17x6xf32>) outs(%x_rows0 : memref<1x2x15x6xf32, 1 : i64>) {
    ^bb0(%0: tensor<1x2x17x6xf32>):
      %x_rows0_1 = nn.slice %0 {starts = array<i64: 0>, ends = array<i64: 15>, axes = array<i64: 2>} : (tensor<1x2x17x6xf32>) -> tensor<1x2x15x6xf32>
      nn.yield %x_rows0_1 : tensor<1x2x15x6xf32>
    }
    %p_tile0 = memref.view %arena[%c1536][] {cfmem.tensor = "p_tile0"} : memref<2944xi8, 1 : i64> to memref<1x2x16x6xf32, 1 : i64>
    nn.apply ins(%x_rows0 : memref<1x2x15x6xf32, 1 : i64>) outs(%p_tile0 : memref<1x2x16x6xf32, 1 : i64>) {
    ^bb0(%1: tensor<1x2x15x6xf32>):
      %p_tile0_1 = nn.pad %1 {pads = array<i64: 0, 0, 1, 0, 0, 0, 0, 0>} : (tensor<1x2x15x6xf32>) -> tensor<1x2x16x6xf32>
      nn.yield %p_tile0_1 : tensor<1x2x16x6xf32>
    }
    scf.for %trip = %c0 to %c2 step %c1 {
      %tag = memref.alloca() : memref<1xi32>
      %2 = arith.muli %trip, %c288 : index
      %3 = arith.addi %2, %c0 : index
      "memref.dma_start"(%blob, %3, %dma0, %c0, %c288, %tag, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "w1_s{}_sram", cfmem.tensor_index = array<i64: 0, 1>} : (memref<4096xi8>, index, memref<320xi8, 1 : i64>, index, index, memref<1xi32>, index) -> ()
      "memref.dma_wait"(%tag, %c0, %c288) : (memref<1xi32>, index, index) -> ()
      %w1_s_sram = memref.view %dma0[%c0][] {cfmem.tensor = "w1_s{}_sram", cfmem.tensor_index = array<i64: 0, 1>} : memref<320xi8, 1 : i64> to memref<4x2x3x3xf32, 1 : i64>
      %4 = arith.muli %trip, %c768 : index
      %5 = arith.addi %4, %c0 : index
      %c1_tile0_s = memref.view %arena[%5][] {cfmem.tensor = "c1_tile0_s{}", cfmem.tensor_index = array<i64: 0, 1>} : memref<2944xi8, 1 : i64> to memref<1x4x8x6xf32, 1 : i64>
      nn.apply ins(%p_tile0, %w1_s_sram : memref<1x2x16x6xf32, 1 : i64>, memref<4x2x3x3xf32, 1 : i64>) outs(%c1_tile0_s : memref<1x4x8x6xf32, 1 : i64>) attributes {cfmem.slice_of = "c1_tile0"} {
      ^bb0(%6: tensor<1x2x16x6xf32>, %7: tensor<4x2x3x3xf32>):
        %c1_tile0_s0 = nn.conv2d %6, %7 {strides = array<i64: 2, 1>, pads = array<i64: 1, 1, 0, 1>} : (tensor<1x2x16x6xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x8x6xf32>
        nn.yield %c1_tile0_s0 : tensor<1x4x8x6xf32>
      }
    }
    %c1_tile0 = memref.view %arena[%c0][] {cfmem.tensor = "c1_tile0", cfmem.reads = ["c1_tile0_s0", "c1_tile0_s1"]} : memref<2944xi8, 1 : i64> to memref<1x8x8x6xf32, 1 : i64>
    %r_tile0 = memref.view %arena[%c0][] {cfmem.tensor = "r_tile0"} : memref<2944xi8, 1 : i64> to memref<1x8x8x6xf32, 1 : i64>
    nn.apply ins(%c1_tile0 : memref<1x8x8x6xf32, 1 : i64>) outs(%r_tile0 : memref<1x8x8x6xf32, 1 : i64>) attributes {cfmem.inplace} {
    ^bb0(%8: tensor<1x8x8x6xf32>):
      %r_tile0_1 = nn.relu %8 : (tensor<1x8x8x6xf32>) -> tensor<1x8x8x6xf32>
      nn.yield %r_tile0_1 : tensor<1x8x8x6xf32>
    }
    %m_tile0 = memref.view %arena[%c1536][] {cfmem.tensor = "m_tile0"} : memref<2944xi8, 1 : i64> to memref<1x8x5x6xf32, 1 : i64>
    nn.apply ins(%r_tile0 : memref<1x8x8x6xf32, 1 : i64>) outs(%m_tile0 : memref<1x8x5x6xf32, 1 : i64>) {
    ^bb0(%9: tensor<1x8x8x6xf32>):
      %m_tile0_1 = nn.max_pool2d %9 {kernel = array<i64: 3, 1>, dilations = array<i64: 2, 1>, pads = array<i64: 1, 0, 0, 0>} : (tensor<1x8x8x6xf32>) -> tensor<1x8x5x6xf32>
      nn.yield %m_tile0_1 : tensor<1x8x5x6xf32>
    }
    %c2_tile0 = memref.view %arena[%c0][] {cfmem.tensor = "c2_tile0"} : memref<2944xi8, 1 : i64> to memref<1x4x3x6xf32, 1 : i64>
    nn.apply ins(%m_tile0, %w2_sram : memref<1x8x5x6xf32, 1 : i64>, memref<4x8x1x1xf32, 1 : i64>) outs(%c2_tile0 : memref<1x4x3x6xf32, 1 : i64>) {
    ^bb0(%10: tensor<1x8x5x6xf32>, %11: tensor<4x8x1x1xf32>):
      %c2_tile0_1 = nn.conv2d %10, %11 {strides = array<i64: 2, 1>} : (tensor<1x8x5x6xf32>, tensor<4x8x1x1xf32>) -> tensor<1x4x3x6xf32>
      nn.yield %c2_tile0_1 : tensor<1x4x3x6xf32>
    }
    %a_tile0 = memref.view %arena[%c2304][] {cfmem.tensor = "a_tile0"} : memref<2944xi8, 1 : i64> to memref<1x4x2x6xf32, 1 : i64>
    nn.apply ins(%c2_tile0 : memref<1x4x3x6xf32, 1 : i64>) outs(%a_tile0 : memref<1x4x2x6xf32, 1 : i64>) {
    ^bb0(%12: tensor<1x4x3x6xf32>):
      %a_tile0_1 = nn.avg_pool2d %12 {kernel = array<i64: 2, 1>} : (tensor<1x4x3x6xf32>) -> tensor<1x4x2x6xf32>
      nn.yield %a_tile0_1 : tensor<1x4x2x6xf32>
    }
    %x_rows1 = memref.view %arena[%c0][] {cfmem.tensor = "x_rows1"} : memref<2944xi8, 1 : i64> to memref<1x2x13x6xf32, 1 : i64>
    nn.apply ins(%x : memref<1x2x17x6xf32>) outs(%x_rows1 : memref<1x2x13x6xf32, 1 : i64>) {
    ^bb0(%13: tensor<1x2x17x6xf32>):
      %x_rows1_1 = nn.slice %13 {starts = array<i64: 4>, ends = array<i64: 17>, axes = array<i64: 2>} : (tensor<1x2x17x6xf32>) -> tensor<1x2x13x6xf32>
      nn.yield %x_rows1_1 : tensor<1x2x13x6xf32>
    }
    %p_tile1 = memref.view %arena[%c1344][] {cfmem.tensor = "p_tile1"} : memref<2944xi8, 1 : i64> to memref<1x2x15x6xf32, 1 : i64>
    nn.apply ins(%x_rows1 : memref<1x2x13x6xf32, 1 : i64>) outs(%p_tile1 : memref<1x2x15x6xf32, 1 : i64>) {
    ^bb0(%14: tensor<1x2x13x6xf32>):
      %p_tile1_1 = nn.pad %14 {pads = array<i64: 0, 0, 0, 0, 0, 0, 2, 0>} : (tensor<1x2x13x6xf32>) -> tensor<1x2x15x6xf32>
      nn.yield %p_tile1_1 : tensor<1x2x15x6xf32>
    }
    scf.for %trip_1 = %c0 to %c2 step %c1 {
      %tag_1 = memref.alloca() : memref<1xi32>
      %15 = arith.muli %trip_1, %c288 : index
      %16 = arith.addi %15, %c0 : index
      "memref.dma_start"(%blob, %16, %dma0, %c0, %c288, %tag_1, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "w1_s{}_sram_1", cfmem.tensor_index = array<i64: 0, 1>} : (memref<4096xi8>, index, memref<320xi8, 1 : i64>, index, index, memref<1xi32>, index) -> ()
      "memref.dma_wait"(%tag_1, %c0, %c288) : (memref<1xi32>, index, index) -> ()
      %w1_s_sram_1 = memref.view %dma0[%c0][] {cfmem.tensor = "w1_s{}_sram_1", cfmem.tensor_index = array<i64: 0, 1>} : memref<320xi8, 1 : i64> to memref<4x2x3x3xf32, 1 : i64>
      %17 = arith.muli %trip_1, %c672 : index
      %18 = arith.addi %17, %c0 : index
      %c1_tile1_s = memref.view %arena[%18][] {cfmem.tensor = "c1_tile1_s{}", cfmem.tensor_index = array<i64: 0, 1>} : memref<2944xi8, 1 : i64> to memref<1x4x7x6xf32, 1 : i64>
      nn.apply ins(%p_tile1, %w1_s_sram_1 : memref<1x2x15x6xf32, 1 : i64>, memref<4x2x3x3xf32, 1 : i64>) outs(%c1_tile1_s : memref<1x4x7x6xf32, 1 : i64>) attributes {cfmem.slice_of = "c1_tile1"} {
      ^bb0(%19: tensor<1x2x15x6xf32>, %20: tensor<4x2x3x3xf32>):
        %c1_tile1_s0 = nn.conv2d %19, %20 {strides = array<i64: 2, 1>, pads = array<i64: 0, 1, 0, 1>} : (tensor<1x2x15x6xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x7x6xf32>
        nn.yield %c1_tile1_s0 : tensor<1x4x7x6xf32>
      }
    }
    %c1_tile1 = memref.view %arena[%c0][] {cfmem.tensor = "c1_tile1", cfmem.reads = ["c1_tile1_s0", "c1_tile1_s1"]} : memref<2944xi8, 1 : i64> to memref<1x8x7x6xf32, 1 : i64>
    %r_tile1 = memref.view %arena[%c0][] {cfmem.tensor = "r_tile1"} : memref<2944xi8, 1 : i64> to memref<1x8x7x6xf32, 1 : i64>
    nn.apply ins(%c1_tile1 : memref<1x8x7x6xf32, 1 : i64>) outs(%r_tile1 : memref<1x8x7x6xf32, 1 : i64>) attributes {cfmem.inplace} {
    ^bb0(%21: tensor<1x8x7x6xf32>):
      %r_tile1_1 = nn.relu %21 : (tensor<1x8x7x6xf32>) -> tensor<1x8x7x6xf32>
      nn.yield %r_tile1_1 : tensor<1x8x7x6xf32>
    }
    %m_tile1 = memref.view %arena[%c1344][] {cfmem.tensor = "m_tile1"} : memref<2944xi8, 1 : i64> to memref<1x8x5x6xf32, 1 : i64>
    nn.apply ins(%r_tile1 : memref<1x8x7x6xf32, 1 : i64>) outs(%m_tile1 : memref<1x8x5x6xf32, 1 : i64>) {
    ^bb0(%22: tensor<1x8x7x6xf32>):
      %m_tile1_1 = nn.max_pool2d %22 {kernel = array<i64: 3, 1>, dilations = array<i64: 2, 1>, pads = array<i64: 0, 0, 2, 0>} : (tensor<1x8x7x6xf32>) -> tensor<1x8x5x6xf32>
      nn.yield %m_tile1_1 : tensor<1x8x5x6xf32>
    }
    %c2_tile1 = memref.view %arena[%c0][] {cfmem.tensor = "c2_tile1"} : memref<2944xi8, 1 : i64> to memref<1x4x3x6xf32, 1 : i64>
    nn.apply ins(%m_tile1, %w2_sram : memref<1x8x5x6xf32, 1 : i64>, memref<4x8x1x1xf32, 1 : i64>) outs(%c2_tile1 : memref<1x4x3x6xf32, 1 : i64>) {
    ^bb0(%23: tensor<1x8x5x6xf32>, %24: tensor<4x8x1x1xf32>):
      %c2_tile1_1 = nn.conv2d %23, %24 {strides = array<i64: 2, 1>} : (tensor<1x8x5x6xf32>, tensor<4x8x1x1xf32>) -> tensor<1x4x3x6xf32>
      nn.yield %c2_tile1_1 : tensor<1x4x3x6xf32>
    }
    %a_tile1 = memref.view %arena[%c288][] {cfmem.tensor = "a_tile1"} : memref<2944xi8, 1 : i64> to memref<1x4x2x6xf32, 1 : i64>
    nn.apply ins(%c2_tile1 : memref<1x4x3x6xf32, 1 : i64>) outs(%a_tile1 : memref<1x4x2x6xf32, 1 : i64>) {
    ^bb0(%25: tensor<1x4x3x6xf32>):
      %a_tile1_1 = nn.avg_pool2d %25 {kernel = array<i64: 2, 1>} : (tensor<1x4x3x6xf32>) -> tensor<1x4x2x6xf32>
      nn.yield %a_tile1_1 : tensor<1x4x2x6xf32>
    }
    nn.apply ins(%a_tile0, %a_tile1 : memref<1x4x2x6xf32, 1 : i64>, memref<1x4x2x6xf32, 1 : i64>) outs(%out_a : memref<1x4x4x6xf32>) {
    ^bb0(%26: tensor<1x4x2x6xf32>, %27: tensor<1x4x2x6xf32>):
      %a = nn.concat %26, %27 {axis = 2 : i64} : (tensor<1x4x2x6xf32>, tensor<1x4x2x6xf32>) -> tensor<1x4x4x6xf32>
      nn.yield %a : tensor<1x4x4x6xf32>
    }
    func.return
  }
  func.func @load_resident_main() attributes {cfmem.init_of = "main"} {
    %0 = memref.get_global @arena_main : memref<2944xi8, 1 : i64>
    %1 = arith.constant 2816 : index
    %2 = memref.view %0[%1][] : memref<2944xi8, 1 : i64> to memref<128xi8, 1 : i64>
    %3 = memref.alloca() : memref<1xi32>
    %4 = memref.get_global @w : memref<4096xi8>
    %5 = arith.constant 576 : index
    %6 = arith.constant 0 : index
    %7 = arith.constant 128 : index
    "memref.dma_start"(%4, %5, %2, %6, %7, %3, %6) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "w2_sram"} : (memref<4096xi8>, index, memref<128xi8, 1 : i64>, index, index, memref<1xi32>, index) -> ()
    "memref.dma_wait"(%3, %6, %7) : (memref<1xi32>, index, index) -> ()
    func.return
  }
}
