// nn-liveness: closed step intervals per region. Steps count every op of a
// block, terminator included; weights, constants, inputs and outputs are not
// planned; a use inside an nn.if counts at the if's step.
// RUN: xdsl-opt %s --split-input-file -p nn-liveness | filecheck %s

// CHECK-LABEL: func.func @straight
func.func @straight(%x: tensor<1x64xf32>) -> tensor<1x64xf32> {
  // CHECK-NEXT: %a = nn.relu %x {cfmem.live = array<i64: 0, 3>}
  %a = nn.relu %x : (tensor<1x64xf32>) -> tensor<1x64xf32>
  // CHECK-NEXT: %b = nn.tanh %a {cfmem.live = array<i64: 1, 2>}
  %b = nn.tanh %a : (tensor<1x64xf32>) -> tensor<1x64xf32>
  // the output is off chip: no interval
  // CHECK-NEXT: %c = nn.add %a, %b :
  %c = nn.add %a, %b : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
  // CHECK-NEXT: %unused = nn.sigmoid %a {cfmem.live = array<i64: 3, 3>}
  %unused = nn.sigmoid %a : (tensor<1x64xf32>) -> tensor<1x64xf32>
  func.return %c : tensor<1x64xf32>
}

// -----

// CHECK-LABEL: func.func @branches
func.func @branches(%x: tensor<1x64xf32>, %s: tensor<1xf32>) -> tensor<1x64xf32> {
  // CHECK-NEXT: %zero = nn.constant
  %zero = nn.constant dense<0.0> : tensor<1xf32>
  // CHECK-NEXT: %c = nn.cmp %s, %zero {cfmem.live = array<i64: 1, 3>
  %c = nn.cmp %s, %zero {predicate = "gt"} : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xi1>
  // %above is used only inside the then branch: live through the if's step
  // CHECK-NEXT: %above = nn.relu %x {cfmem.live = array<i64: 2, 3>}
  %above = nn.relu %x : (tensor<1x64xf32>) -> tensor<1x64xf32>
  // the if's result is defined at the if's step and used late
  // CHECK-NEXT: %r = nn.if %c : tensor<1xi1> -> (tensor<1x64xf32>) {
  %r = nn.if %c : tensor<1xi1> -> (tensor<1x64xf32>) {
    // CHECK-NEXT: %t = nn.tanh %above {cfmem.live = array<i64: 0, 1>}
    %t = nn.tanh %above : (tensor<1x64xf32>) -> tensor<1x64xf32>
    nn.yield %t : tensor<1x64xf32>
  } else {
    // CHECK: %e1 = nn.sigmoid %x {cfmem.live = array<i64: 0, 1>}
    %e1 = nn.sigmoid %x : (tensor<1x64xf32>) -> tensor<1x64xf32>
    // CHECK-NEXT: %e2 = nn.relu %e1 {cfmem.live = array<i64: 1, 3>}
    %e2 = nn.relu %e1 : (tensor<1x64xf32>) -> tensor<1x64xf32>
    // CHECK-NEXT: %e3 = nn.relu %e2 {cfmem.live = array<i64: 2, 3>}
    %e3 = nn.relu %e2 : (tensor<1x64xf32>) -> tensor<1x64xf32>
    // CHECK-NEXT: %e4 = nn.add %e2, %e3 {cfmem.live = array<i64: 3, 4>}
    %e4 = nn.add %e2, %e3 : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
    nn.yield %e4 : tensor<1x64xf32>
  // CHECK: } {cfmem.live = array<i64: 3, 5>}
  }
  // CHECK-NEXT: %late = nn.relu %x {cfmem.live = array<i64: 4, 5>}
  %late = nn.relu %x : (tensor<1x64xf32>) -> tensor<1x64xf32>
  %out = nn.add %late, %r : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
  func.return %out : tensor<1x64xf32>
}

// -----

// weights and reshapes of weights are never planned; reshapes of activations are
// CHECK-LABEL: func.func @weights
nn.global @w size(256) seed(1)
func.func @weights(%x: tensor<1x64xf32>) -> tensor<1x1xf32> {
  // CHECK-NEXT: %blob = nn.get_global @w : tensor<256xi8>
  %blob = nn.get_global @w : tensor<256xi8>
  // CHECK-NEXT: %v = nn.view %blob[0] bytes(256) : tensor<256xi8> to tensor<64xf32>
  %v = nn.view %blob[0] bytes(256) : tensor<256xi8> to tensor<64xf32>
  // CHECK-NEXT: %k = nn.reshape %v : tensor<64xf32> to tensor<1x64xf32>
  %k = nn.reshape %v : tensor<64xf32> to tensor<1x64xf32>
  // CHECK-NEXT: %m = nn.mul %x, %k {cfmem.live = array<i64: 3, 4>}
  %m = nn.mul %x, %k : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
  // CHECK-NEXT: %mt = nn.reshape %m {cfmem.live = array<i64: 4, 5>}
  %mt = nn.reshape %m : tensor<1x64xf32> to tensor<64x1xf32>
  %s = nn.matmul %x, %mt : (tensor<1x64xf32>, tensor<64x1xf32>) -> tensor<1x1xf32>
  func.return %s : tensor<1x1xf32>
}
