// nn-roll-slices: a gemm computed in 8 slices with ping-pong DMA becomes one
// scf.for over pairs of slices (one pair per trip, so each trip's two DMA
// buffers are the same), the weight offsets and output offsets stepping with
// the trip, the tag the first wait uses reused for every pair, and the slice
// names kept as templates counted by cfmem.tensor_index. The last two slices
// differ (the last one starts no transfer) and stay unrolled. nn-check-dma
// checks the loop trip by trip.
// RUN: xdsl-opt %s -p 'nn-slice-weights,nn-insert-dma,nn-plan-memory{strategy=sequential},nn-lower-to-memref,nn-roll-slices,nn-check-dma' | filecheck %s

nn.global @w size(4096) seed(1)
func.func @main(%x: tensor<1x16xf32>) -> tensor<1x8xf32> {
  %blob = nn.get_global @w : tensor<4096xi8>
  %k = nn.view %blob[0] bytes(512) : tensor<4096xi8> to tensor<8x16xf32>
  %b = nn.view %blob[512] bytes(32) : tensor<4096xi8> to tensor<8xf32>
  %fc = nn.gemm %x, %k, %b {trans_b = true, cfmem.slices = 8 : i64} : (tensor<1x16xf32>, tensor<8x16xf32>, tensor<8xf32>) -> tensor<1x8xf32>
  %y = nn.relu %fc : (tensor<1x8xf32>) -> tensor<1x8xf32>
  func.return %y : tensor<1x8xf32>
}

// CHECK:      %tag = memref.alloca() : memref<2xi32>
// CHECK-NEXT: "memref.dma_start"(%blob, %c0, %dma0, %c0, %c64, %tag, %c0) {{.*}}cfmem.tensor = "k_s0_sram"
// CHECK-NEXT: "memref.dma_start"(%blob, %c512, %dma0, %c64, %c4, %tag, %c1) {{.*}}cfmem.tensor = "b_s0_sram"
// CHECK-NEXT: scf.for %trip = %c0 to %c3 step %c1 {
// CHECK-NEXT:   "memref.dma_wait"(%tag, %c0, %c64)
// CHECK-NEXT:   "memref.dma_wait"(%tag, %c1, %c4)
// CHECK-NEXT:   %k_s_sram = memref.view %dma0[%c0][] {cfmem.tensor = "k_s{}_sram", cfmem.tensor_index = array<i64: 0, 2>}
// CHECK-NEXT:   %b_s_sram = memref.view %dma0[%c64][] {cfmem.tensor = "b_s{}_sram", cfmem.tensor_index = array<i64: 0, 2>}
// CHECK-NEXT:   %tag_1 = memref.alloca() : memref<2xi32>
// CHECK-NEXT:   %[[W_ROWS:.*]] = arith.muli %trip, %c128 : index
// CHECK-NEXT:   %[[W1:.*]] = arith.addi %[[W_ROWS]], %c64 : index
// CHECK-NEXT:   "memref.dma_start"(%blob, %[[W1]], %dma1, %c0, %c64, %tag_1, %c0) {{.*}}cfmem.tensor = "k_s{}_sram", cfmem.tensor_index = array<i64: 1, 2>
// CHECK-NEXT:   %[[B_ROWS:.*]] = arith.muli %trip, %c8 : index
// CHECK-NEXT:   %[[B1:.*]] = arith.addi %[[B_ROWS]], %c516 : index
// CHECK-NEXT:   "memref.dma_start"(%blob, %[[B1]], %dma1, %c64, %c4, %tag_1, %c1)
// CHECK-NEXT:   %[[OUT0:.*]] = arith.addi %[[B_ROWS]], %c256 : index
// CHECK-NEXT:   %fc_s = memref.view %arena[%[[OUT0]]][] {cfmem.tensor = "fc_s{}", cfmem.tensor_index = array<i64: 0, 2>}
// CHECK-NEXT:   nn.apply ins(%x, %k_s_sram, %b_s_sram : {{.*}}) outs(%fc_s : {{.*}}) attributes {cfmem.slice_of = "fc"}
// CHECK:        "memref.dma_wait"(%tag_1, %c0, %c64)
// CHECK:        "memref.dma_start"(%blob, %{{.*}}, %dma0, %c0, %c64, %tag, %c0) {{.*}}cfmem.tensor_index = array<i64: 2, 2>
// CHECK:        nn.apply ins(%x, %k_s_sram_1, %b_s_sram_1 : {{.*}}) outs(%fc_s_1 : {{.*}})
// CHECK:          nn.yield %fc_s1
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NEXT: "memref.dma_wait"(%tag, %c0, %c64)
// CHECK-NEXT: "memref.dma_wait"(%tag, %c1, %c4)
// CHECK-NEXT: %k_s6_sram = memref.view %dma0[%c0][] {cfmem.tensor = "k_s6_sram"}
// CHECK-NOT:  scf.for
// CHECK:      %fc = memref.view %arena[%c256][] {cfmem.tensor = "fc", cfmem.reads = ["fc_s0", "fc_s1", "fc_s2", "fc_s3", "fc_s4", "fc_s5", "fc_s6", "fc_s7"]}
