// RUN: xdsl-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Verifier errors of nn.apply's scratch operand: an op whose kernel needs
// scratch (here softmax's maxima and sums, 32 bytes) must have one of at least
// that many bytes, a 1-D memref of i8.

func.func @softmax_without_scratch(%x: memref<2x3xf32, 1 : i64>, %out: memref<2x3xf32, 1 : i64>) {
  nn.apply ins(%x : memref<2x3xf32, 1 : i64>) outs(%out : memref<2x3xf32, 1 : i64>) {
  ^bb0(%a: tensor<2x3xf32>):
    %r = nn.softmax %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
    nn.yield %r : tensor<2x3xf32>
  }
  func.return
}

// CHECK-LABEL: "softmax_without_scratch"
// CHECK:       Operation does not verify: 'nn.softmax' needs 32 bytes of scratch but the op has no scratch buffer

// -----

func.func @softmax_short_scratch(%x: memref<2x3xf32, 1 : i64>, %out: memref<2x3xf32, 1 : i64>, %s: memref<16xi8, 1 : i64>) {
  nn.apply ins(%x : memref<2x3xf32, 1 : i64>) outs(%out : memref<2x3xf32, 1 : i64>) scratch(%s : memref<16xi8, 1 : i64>) {
  ^bb0(%a: tensor<2x3xf32>):
    %r = nn.softmax %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
    nn.yield %r : tensor<2x3xf32>
  }
  func.return
}

// CHECK-LABEL: "softmax_short_scratch"
// CHECK:       Operation does not verify: 'nn.softmax' needs 32 bytes of scratch, its scratch buffer has 16

// -----

func.func @scratch_of_f32(%x: memref<2x3xf32, 1 : i64>, %out: memref<2x3xf32, 1 : i64>, %s: memref<8xf32, 1 : i64>) {
  nn.apply ins(%x : memref<2x3xf32, 1 : i64>) outs(%out : memref<2x3xf32, 1 : i64>) scratch(%s : memref<8xf32, 1 : i64>) {
  ^bb0(%a: tensor<2x3xf32>):
    %r = nn.softmax %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
    nn.yield %r : tensor<2x3xf32>
  }
  func.return
}

// CHECK-LABEL: "scratch_of_f32"
// CHECK:       Operation does not verify: the scratch buffer must be a 1-D memref of i8, got memref<8xf32, 1 : i64>
