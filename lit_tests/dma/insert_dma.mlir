// nn-insert-dma: where transfers start and are waited on. Ping-pong: op k's
// weights go to buffer k mod 2; op k+1's transfer starts right after op k's
// wait, before op k computes; each region (before, between and after ifs,
// each branch) runs its own ping-pong and ends with nothing outstanding.
// RUN: xdsl-opt %s --split-input-file -p 'nn-insert-dma,nn-check-dma' | filecheck %s
// RUN: xdsl-opt %s --split-input-file -p 'nn-insert-dma{mode=sync},nn-check-dma' | filecheck %s --check-prefix=SYNC
// RUN: xdsl-opt %s --split-input-file -p 'nn-insert-dma{buffers=fixed},nn-check-dma' | filecheck %s --check-prefix=FIXED
// Three weighted ops in one region.
nn.global @w size(4096) seed(1) scale(0.1)
func.func @straight(%x: tensor<1x16xf32>) -> tensor<1x16xf32> {
  %blob = nn.get_global @w : tensor<4096xi8>
  %w1 = nn.view %blob[0] bytes(1024) : tensor<4096xi8> to tensor<16x16xf32>
  %b1 = nn.view %blob[1024] bytes(64) : tensor<4096xi8> to tensor<16xf32>
  %w2 = nn.view %blob[1088] bytes(1024) : tensor<4096xi8> to tensor<16x16xf32>
  %w3 = nn.view %blob[2112] bytes(64) : tensor<4096xi8> to tensor<1x16xf32>
  %a = nn.gemm %x, %w1, %b1 : (tensor<1x16xf32>, tensor<16x16xf32>, tensor<16xf32>) -> tensor<1x16xf32>
  %r = nn.relu %a : (tensor<1x16xf32>) -> tensor<1x16xf32>
  %m = nn.matmul %r, %w2 : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>
  %o = nn.mul %m, %w3 : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
  func.return %o : tensor<1x16xf32>
}

// -----

// One weighted op before the if, a two-branch if, one after: four regions.
nn.global @w size(4096) seed(1) scale(0.1)
func.func @two_branch(%x: tensor<1x16xf32>, %c: tensor<1xi1>) -> tensor<1x16xf32> {
  %blob = nn.get_global @w : tensor<4096xi8>
  %w1 = nn.view %blob[0] bytes(1024) : tensor<4096xi8> to tensor<16x16xf32>
  %w2 = nn.view %blob[1024] bytes(1024) : tensor<4096xi8> to tensor<16x16xf32>
  %w3 = nn.view %blob[2048] bytes(64) : tensor<4096xi8> to tensor<1x16xf32>
  %a = nn.matmul %x, %w1 : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>
  %r = nn.if %c : tensor<1xi1> -> (tensor<1x16xf32>) {
    %t1 = nn.matmul %a, %w2 : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>
    %t2 = nn.add %t1, %w3 : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    nn.yield %t2 : tensor<1x16xf32>
  } else {
    %e = nn.sub %a, %w3 : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    nn.yield %e : tensor<1x16xf32>
  }
  %o = nn.mul %r, %w3 : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
  func.return %o : tensor<1x16xf32>
}

// -----

// A nested if: the inner branches are regions of their own; the outer then
// branch is cut into two regions by the inner if.
nn.global @w size(4096) seed(1) scale(0.1)
func.func @nested(%x: tensor<1x16xf32>, %c1: tensor<1xi1>, %c2: tensor<1xi1>) -> tensor<1x16xf32> {
  %blob = nn.get_global @w : tensor<4096xi8>
  %w1 = nn.view %blob[0] bytes(1024) : tensor<4096xi8> to tensor<16x16xf32>
  %w2 = nn.view %blob[1024] bytes(64) : tensor<4096xi8> to tensor<1x16xf32>
  %r = nn.if %c1 : tensor<1xi1> -> (tensor<1x16xf32>) {
    %p = nn.matmul %x, %w1 : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>
    %q = nn.if %c2 : tensor<1xi1> -> (tensor<1x16xf32>) {
      %i = nn.add %p, %w2 : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
      nn.yield %i : tensor<1x16xf32>
    } else {
      nn.yield %p : tensor<1x16xf32>
    }
    %s = nn.mul %q, %w2 : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    nn.yield %s : tensor<1x16xf32>
  } else {
    nn.yield %x : tensor<1x16xf32>
  }
  func.return %r : tensor<1x16xf32>
}

// -----

// No weights at all: nothing is inserted.
func.func @none(%x: tensor<1x16xf32>) -> tensor<1x16xf32> {
  %r = nn.relu %x : (tensor<1x16xf32>) -> tensor<1x16xf32>
  func.return %r : tensor<1x16xf32>
}

// The weight views are first moved to the function's entry. Buffers are sized
// by the largest packed weight total (64-byte aligned) of their parity.
// CHECK-LABEL: func.func @straight(
// CHECK-NEXT: %blob = nn.get_global @w
// CHECK-NEXT: %w1 = nn.view %blob[0] bytes(1024)
// CHECK-NEXT: %b1 = nn.view %blob[1024] bytes(64)
// CHECK-NEXT: %w2 = nn.view %blob[1088] bytes(1024)
// CHECK-NEXT: %w3 = nn.view %blob[2112] bytes(64)
// CHECK-NEXT: %dma0 = nn.dma_buffer : tensor<1088xi8>
// CHECK-NEXT: %dma1 = nn.dma_buffer : tensor<1024xi8>
// CHECK-NEXT: %load = nn.dma_start %w1, %b1 into %dma0 at [0, 1024]
// CHECK-NEXT: %w1_sram, %b1_sram = nn.dma_wait %load
// CHECK-NEXT: %load_1 = nn.dma_start %w2 into %dma1 at [0]
// CHECK-NEXT: %a = nn.gemm %x, %w1_sram, %b1_sram
// CHECK-NEXT: %r = nn.relu %a
// CHECK-NEXT: %w2_sram = nn.dma_wait %load_1
// CHECK-NEXT: %load_2 = nn.dma_start %w3 into %dma0 at [0]
// CHECK-NEXT: %m = nn.matmul %r, %w2_sram
// CHECK-NEXT: %w3_sram = nn.dma_wait %load_2
// CHECK-NEXT: %o = nn.mul %m, %w3_sram
// CHECK-NEXT: func.return %o
// CHECK-NEXT: }
// CHECK-NEXT: }

// CHECK-LABEL: func.func @two_branch(
// CHECK-NEXT: %blob = nn.get_global @w
// CHECK-NEXT: %w1 = nn.view %blob[0] bytes(1024)
// CHECK-NEXT: %w2 = nn.view %blob[1024] bytes(1024)
// CHECK-NEXT: %w3 = nn.view %blob[2048] bytes(64)
// CHECK-NEXT: %dma0 = nn.dma_buffer : tensor<1024xi8>
// CHECK-NEXT: %load = nn.dma_start %w1 into %dma0 at [0]
// CHECK-NEXT: %w1_sram = nn.dma_wait %load
// CHECK-NEXT: %a = nn.matmul %x, %w1_sram
// CHECK-NEXT: %r = nn.if %c
// CHECK-NEXT: %dma0_1 = nn.dma_buffer : tensor<1024xi8>
// CHECK-NEXT: %dma1 = nn.dma_buffer : tensor<64xi8>
// CHECK-NEXT: %load_1 = nn.dma_start %w2 into %dma0_1 at [0]
// CHECK-NEXT: %w2_sram = nn.dma_wait %load_1
// CHECK-NEXT: %load_2 = nn.dma_start %w3 into %dma1 at [0]
// CHECK-NEXT: %t1 = nn.matmul %a, %w2_sram
// CHECK-NEXT: %w3_sram = nn.dma_wait %load_2
// CHECK-NEXT: %t2 = nn.add %t1, %w3_sram
// CHECK-NEXT: nn.yield %t2
// CHECK-NEXT: } else {
// CHECK-NEXT: %dma0_2 = nn.dma_buffer : tensor<64xi8>
// CHECK-NEXT: %load_3 = nn.dma_start %w3 into %dma0_2 at [0]
// CHECK-NEXT: %w3_sram_1 = nn.dma_wait %load_3
// CHECK-NEXT: %e = nn.sub %a, %w3_sram_1
// CHECK-NEXT: nn.yield %e
// CHECK-NEXT: }
// CHECK-NEXT: %dma0_3 = nn.dma_buffer : tensor<64xi8>
// CHECK-NEXT: %load_4 = nn.dma_start %w3 into %dma0_3 at [0]
// CHECK-NEXT: %w3_sram_2 = nn.dma_wait %load_4
// CHECK-NEXT: %o = nn.mul %r, %w3_sram_2
// CHECK-NEXT: func.return %o
// CHECK-NEXT: }
// CHECK-NEXT: }

// CHECK-LABEL: func.func @nested(
// CHECK-NEXT: %blob = nn.get_global @w
// CHECK-NEXT: %w1 = nn.view %blob[0] bytes(1024)
// CHECK-NEXT: %w2 = nn.view %blob[1024] bytes(64)
// CHECK-NEXT: %r = nn.if %c1
// CHECK-NEXT: %dma0 = nn.dma_buffer : tensor<1024xi8>
// CHECK-NEXT: %load = nn.dma_start %w1 into %dma0 at [0]
// CHECK-NEXT: %w1_sram = nn.dma_wait %load
// CHECK-NEXT: %p = nn.matmul %x, %w1_sram
// CHECK-NEXT: %q = nn.if %c2
// CHECK-NEXT: %dma0_1 = nn.dma_buffer : tensor<64xi8>
// CHECK-NEXT: %load_1 = nn.dma_start %w2 into %dma0_1 at [0]
// CHECK-NEXT: %w2_sram = nn.dma_wait %load_1
// CHECK-NEXT: %i = nn.add %p, %w2_sram
// CHECK-NEXT: nn.yield %i
// CHECK-NEXT: } else {
// CHECK-NEXT: nn.yield %p
// CHECK-NEXT: }
// CHECK-NEXT: %dma0_2 = nn.dma_buffer : tensor<64xi8>
// CHECK-NEXT: %load_2 = nn.dma_start %w2 into %dma0_2 at [0]
// CHECK-NEXT: %w2_sram_1 = nn.dma_wait %load_2
// CHECK-NEXT: %s = nn.mul %q, %w2_sram_1
// CHECK-NEXT: nn.yield %s
// CHECK-NEXT: } else {
// CHECK-NEXT: nn.yield %x
// CHECK-NEXT: }
// CHECK-NEXT: func.return %r
// CHECK-NEXT: }
// CHECK-NEXT: }

// CHECK-LABEL: func.func @none(
// CHECK-NEXT: %r = nn.relu %x
// CHECK-NEXT: func.return %r
// CHECK-NEXT: }
// CHECK-NEXT: }

// SYNC-LABEL: func.func @straight(
// SYNC-NEXT: %blob = nn.get_global @w
// SYNC-NEXT: %w1 = nn.view %blob[0] bytes(1024)
// SYNC-NEXT: %b1 = nn.view %blob[1024] bytes(64)
// SYNC-NEXT: %w2 = nn.view %blob[1088] bytes(1024)
// SYNC-NEXT: %w3 = nn.view %blob[2112] bytes(64)
// SYNC-NEXT: %dma0 = nn.dma_buffer : tensor<1088xi8>
// SYNC-NEXT: %load = nn.dma_start %w1, %b1 into %dma0 at [0, 1024]
// SYNC-NEXT: %w1_sram, %b1_sram = nn.dma_wait %load
// SYNC-NEXT: %a = nn.gemm %x, %w1_sram, %b1_sram
// SYNC-NEXT: %r = nn.relu %a
// SYNC-NEXT: %load_1 = nn.dma_start %w2 into %dma0 at [0]
// SYNC-NEXT: %w2_sram = nn.dma_wait %load_1
// SYNC-NEXT: %m = nn.matmul %r, %w2_sram
// SYNC-NEXT: %load_2 = nn.dma_start %w3 into %dma0 at [0]
// SYNC-NEXT: %w3_sram = nn.dma_wait %load_2
// SYNC-NEXT: %o = nn.mul %m, %w3_sram
// SYNC-NEXT: func.return %o
// SYNC-NEXT: }
// SYNC-NEXT: }

// SYNC-LABEL: func.func @two_branch(
// SYNC-NEXT: %blob = nn.get_global @w
// SYNC-NEXT: %w1 = nn.view %blob[0] bytes(1024)
// SYNC-NEXT: %w2 = nn.view %blob[1024] bytes(1024)
// SYNC-NEXT: %w3 = nn.view %blob[2048] bytes(64)
// SYNC-NEXT: %dma0 = nn.dma_buffer : tensor<1024xi8>
// SYNC-NEXT: %load = nn.dma_start %w1 into %dma0 at [0]
// SYNC-NEXT: %w1_sram = nn.dma_wait %load
// SYNC-NEXT: %a = nn.matmul %x, %w1_sram
// SYNC-NEXT: %r = nn.if %c
// SYNC-NEXT: %dma0_1 = nn.dma_buffer : tensor<1024xi8>
// SYNC-NEXT: %load_1 = nn.dma_start %w2 into %dma0_1 at [0]
// SYNC-NEXT: %w2_sram = nn.dma_wait %load_1
// SYNC-NEXT: %t1 = nn.matmul %a, %w2_sram
// SYNC-NEXT: %load_2 = nn.dma_start %w3 into %dma0_1 at [0]
// SYNC-NEXT: %w3_sram = nn.dma_wait %load_2
// SYNC-NEXT: %t2 = nn.add %t1, %w3_sram
// SYNC-NEXT: nn.yield %t2
// SYNC-NEXT: } else {
// SYNC-NEXT: %dma0_2 = nn.dma_buffer : tensor<64xi8>
// SYNC-NEXT: %load_3 = nn.dma_start %w3 into %dma0_2 at [0]
// SYNC-NEXT: %w3_sram_1 = nn.dma_wait %load_3
// SYNC-NEXT: %e = nn.sub %a, %w3_sram_1
// SYNC-NEXT: nn.yield %e
// SYNC-NEXT: }
// SYNC-NEXT: %dma0_3 = nn.dma_buffer : tensor<64xi8>
// SYNC-NEXT: %load_4 = nn.dma_start %w3 into %dma0_3 at [0]
// SYNC-NEXT: %w3_sram_2 = nn.dma_wait %load_4
// SYNC-NEXT: %o = nn.mul %r, %w3_sram_2
// SYNC-NEXT: func.return %o
// SYNC-NEXT: }
// SYNC-NEXT: }

// SYNC-LABEL: func.func @nested(
// SYNC-NEXT: %blob = nn.get_global @w
// SYNC-NEXT: %w1 = nn.view %blob[0] bytes(1024)
// SYNC-NEXT: %w2 = nn.view %blob[1024] bytes(64)
// SYNC-NEXT: %r = nn.if %c1
// SYNC-NEXT: %dma0 = nn.dma_buffer : tensor<1024xi8>
// SYNC-NEXT: %load = nn.dma_start %w1 into %dma0 at [0]
// SYNC-NEXT: %w1_sram = nn.dma_wait %load
// SYNC-NEXT: %p = nn.matmul %x, %w1_sram
// SYNC-NEXT: %q = nn.if %c2
// SYNC-NEXT: %dma0_1 = nn.dma_buffer : tensor<64xi8>
// SYNC-NEXT: %load_1 = nn.dma_start %w2 into %dma0_1 at [0]
// SYNC-NEXT: %w2_sram = nn.dma_wait %load_1
// SYNC-NEXT: %i = nn.add %p, %w2_sram
// SYNC-NEXT: nn.yield %i
// SYNC-NEXT: } else {
// SYNC-NEXT: nn.yield %p
// SYNC-NEXT: }
// SYNC-NEXT: %dma0_2 = nn.dma_buffer : tensor<64xi8>
// SYNC-NEXT: %load_2 = nn.dma_start %w2 into %dma0_2 at [0]
// SYNC-NEXT: %w2_sram_1 = nn.dma_wait %load_2
// SYNC-NEXT: %s = nn.mul %q, %w2_sram_1
// SYNC-NEXT: nn.yield %s
// SYNC-NEXT: } else {
// SYNC-NEXT: nn.yield %x
// SYNC-NEXT: }
// SYNC-NEXT: func.return %r
// SYNC-NEXT: }
// SYNC-NEXT: }

// SYNC-LABEL: func.func @none(
// SYNC-NEXT: %r = nn.relu %x
// SYNC-NEXT: func.return %r
// SYNC-NEXT: }
// SYNC-NEXT: }

// FIXED-LABEL: func.func @straight(
// FIXED-NEXT: %blob = nn.get_global @w
// FIXED-NEXT: %w1 = nn.view %blob[0] bytes(1024)
// FIXED-NEXT: %b1 = nn.view %blob[1024] bytes(64)
// FIXED-NEXT: %w2 = nn.view %blob[1088] bytes(1024)
// FIXED-NEXT: %w3 = nn.view %blob[2112] bytes(64)
// FIXED-NEXT: %dma0 = nn.dma_buffer : tensor<1088xi8>
// FIXED-NEXT: %dma1 = nn.dma_buffer : tensor<1024xi8>
// FIXED-NEXT: %load = nn.dma_start %w1, %b1 into %dma0 at [0, 1024]
// FIXED-NEXT: %w1_sram, %b1_sram = nn.dma_wait %load
// FIXED-NEXT: %load_1 = nn.dma_start %w2 into %dma1 at [0]
// FIXED-NEXT: %a = nn.gemm %x, %w1_sram, %b1_sram
// FIXED-NEXT: %r = nn.relu %a
// FIXED-NEXT: %w2_sram = nn.dma_wait %load_1
// FIXED-NEXT: %load_2 = nn.dma_start %w3 into %dma0 at [0]
// FIXED-NEXT: %m = nn.matmul %r, %w2_sram
// FIXED-NEXT: %w3_sram = nn.dma_wait %load_2
// FIXED-NEXT: %o = nn.mul %m, %w3_sram
// FIXED-NEXT: func.return %o
// FIXED-NEXT: }
// FIXED-NEXT: }

// FIXED-LABEL: func.func @two_branch(
// FIXED-NEXT: %blob = nn.get_global @w
// FIXED-NEXT: %w1 = nn.view %blob[0] bytes(1024)
// FIXED-NEXT: %w2 = nn.view %blob[1024] bytes(1024)
// FIXED-NEXT: %w3 = nn.view %blob[2048] bytes(64)
// FIXED-NEXT: %dma0 = nn.dma_buffer : tensor<1024xi8>
// FIXED-NEXT: %dma1 = nn.dma_buffer : tensor<64xi8>
// FIXED-NEXT: %load = nn.dma_start %w1 into %dma0 at [0]
// FIXED-NEXT: %w1_sram = nn.dma_wait %load
// FIXED-NEXT: %a = nn.matmul %x, %w1_sram
// FIXED-NEXT: %r = nn.if %c
// FIXED-NEXT: %load_1 = nn.dma_start %w2 into %dma0 at [0]
// FIXED-NEXT: %w2_sram = nn.dma_wait %load_1
// FIXED-NEXT: %load_2 = nn.dma_start %w3 into %dma1 at [0]
// FIXED-NEXT: %t1 = nn.matmul %a, %w2_sram
// FIXED-NEXT: %w3_sram = nn.dma_wait %load_2
// FIXED-NEXT: %t2 = nn.add %t1, %w3_sram
// FIXED-NEXT: nn.yield %t2
// FIXED-NEXT: } else {
// FIXED-NEXT: %load_3 = nn.dma_start %w3 into %dma0 at [0]
// FIXED-NEXT: %w3_sram_1 = nn.dma_wait %load_3
// FIXED-NEXT: %e = nn.sub %a, %w3_sram_1
// FIXED-NEXT: nn.yield %e
// FIXED-NEXT: }
// FIXED-NEXT: %load_4 = nn.dma_start %w3 into %dma0 at [0]
// FIXED-NEXT: %w3_sram_2 = nn.dma_wait %load_4
// FIXED-NEXT: %o = nn.mul %r, %w3_sram_2
// FIXED-NEXT: func.return %o
// FIXED-NEXT: }
// FIXED-NEXT: }

// FIXED-LABEL: func.func @nested(
// FIXED-NEXT: %blob = nn.get_global @w
// FIXED-NEXT: %w1 = nn.view %blob[0] bytes(1024)
// FIXED-NEXT: %w2 = nn.view %blob[1024] bytes(64)
// FIXED-NEXT: %dma0 = nn.dma_buffer : tensor<1024xi8>
// FIXED-NEXT: %r = nn.if %c1
// FIXED-NEXT: %load = nn.dma_start %w1 into %dma0 at [0]
// FIXED-NEXT: %w1_sram = nn.dma_wait %load
// FIXED-NEXT: %p = nn.matmul %x, %w1_sram
// FIXED-NEXT: %q = nn.if %c2
// FIXED-NEXT: %load_1 = nn.dma_start %w2 into %dma0 at [0]
// FIXED-NEXT: %w2_sram = nn.dma_wait %load_1
// FIXED-NEXT: %i = nn.add %p, %w2_sram
// FIXED-NEXT: nn.yield %i
// FIXED-NEXT: } else {
// FIXED-NEXT: nn.yield %p
// FIXED-NEXT: }
// FIXED-NEXT: %load_2 = nn.dma_start %w2 into %dma0 at [0]
// FIXED-NEXT: %w2_sram_1 = nn.dma_wait %load_2
// FIXED-NEXT: %s = nn.mul %q, %w2_sram_1
// FIXED-NEXT: nn.yield %s
// FIXED-NEXT: } else {
// FIXED-NEXT: nn.yield %x
// FIXED-NEXT: }
// FIXED-NEXT: func.return %r
// FIXED-NEXT: }
// FIXED-NEXT: }

// FIXED-LABEL: func.func @none(
// FIXED-NEXT: %r = nn.relu %x
// FIXED-NEXT: func.return %r
// FIXED-NEXT: }
// FIXED-NEXT: }
