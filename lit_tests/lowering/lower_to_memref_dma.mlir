// nn-lower-to-memref on a DMA region: each nn.dma_start becomes one
// memref.dma_start per weight (blob bytes at the weight's offset into the
// planned buffer at its slot, tag element k), each nn.dma_wait the matching
// waits, and the waited weights views of the buffer.
// RUN: xdsl-opt %s -p 'nn-insert-dma,nn-plan-memory{strategy=sequential},nn-lower-to-memref' | filecheck %s

nn.global @w size(2112) data(dense<1> : tensor<2112xi8>)
func.func @dma(%x: tensor<1x16xf32>) -> tensor<1x16xf32> {
  %blob = nn.get_global @w : tensor<2112xi8>
  %w1 = nn.view %blob[0] bytes(1024) : tensor<2112xi8> to tensor<16x16xf32>
  %b1 = nn.view %blob[1024] bytes(64) : tensor<2112xi8> to tensor<16xf32>
  %w2 = nn.view %blob[1088] bytes(1024) : tensor<2112xi8> to tensor<16x16xf32>
  %a = nn.gemm %x, %w1, %b1 : (tensor<1x16xf32>, tensor<16x16xf32>, tensor<16xf32>) -> tensor<1x16xf32>
  %o = nn.matmul %a, %w2 : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>
  func.return %o : tensor<1x16xf32>
}

// CHECK:       "memref.global"() <{sym_name = "arena_dma", type = memref<2176xi8, 1 : i64>, initial_value, sym_visibility = "private"}>
// CHECK-LABEL: func.func @dma(%x: memref<1x16xf32>, %out_o: memref<1x16xf32>)
// CHECK:         %blob = memref.get_global @w : memref<2112xi8>
// CHECK:         %[[BUF0:.*]] = memref.view %arena[%c0][] {cfmem.tensor = "dma0"} : memref<2176xi8, 1 : i64> to memref<1088xi8, 1 : i64>
// CHECK-NEXT:    %[[BUF1:.*]] = memref.view %arena[%c1088][] {cfmem.tensor = "dma1"} : memref<2176xi8, 1 : i64> to memref<1024xi8, 1 : i64>
// CHECK-NEXT:    %[[TAG0:.*]] = memref.alloca() : memref<2xi32>
// CHECK-NEXT:    "memref.dma_start"(%blob, %c0, %[[BUF0]], %c0, %c1024, %[[TAG0]], %c0) {{.*}}cfmem.tensor = "w1_sram"
// CHECK-NEXT:    "memref.dma_start"(%blob, %c1024, %[[BUF0]], %c1024, %c64, %[[TAG0]], %c1) {{.*}}cfmem.tensor = "b1_sram"
// CHECK-NEXT:    "memref.dma_wait"(%[[TAG0]], %c0, %c1024)
// CHECK-NEXT:    "memref.dma_wait"(%[[TAG0]], %c1, %c64)
// CHECK-NEXT:    %w1_sram = memref.view %[[BUF0]][%c0][] {cfmem.tensor = "w1_sram"} : memref<1088xi8, 1 : i64> to memref<16x16xf32, 1 : i64>
// CHECK-NEXT:    %b1_sram = memref.view %[[BUF0]][%c1024][] {cfmem.tensor = "b1_sram"} : memref<1088xi8, 1 : i64> to memref<16xf32, 1 : i64>
// The second transfer starts before the gemm computes: it overlaps it.
// CHECK-NEXT:    %[[TAG1:.*]] = memref.alloca() : memref<1xi32>
// CHECK-NEXT:    "memref.dma_start"(%blob, %c1088, %[[BUF1]], %c0, %c1024, %[[TAG1]], %c0) {{.*}}cfmem.tensor = "w2_sram"
// CHECK-NEXT:    %a = memref.view %arena[%c2112][] {cfmem.tensor = "a"}
// CHECK-NEXT:    nn.apply ins(%x, %w1_sram, %b1_sram : {{.*}}) outs(%a : memref<1x16xf32, 1 : i64>)
// CHECK:         "memref.dma_wait"(%[[TAG1]], %c0, %c1024)
// CHECK-NEXT:    %w2_sram = memref.view %[[BUF1]][%c0][] {cfmem.tensor = "w2_sram"} : memref<1024xi8, 1 : i64> to memref<16x16xf32, 1 : i64>
// CHECK-NEXT:    nn.apply ins(%a, %w2_sram : {{.*}}) outs(%out_o : memref<1x16xf32>)
