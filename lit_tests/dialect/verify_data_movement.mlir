// RUN: xdsl-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Verifier errors of nn.concat, nn.transpose and nn.constant: result shapes,
// operands that differ outside the concat axis, axes and permutations, and a
// constant whose value type is not its result type (generic form only: the
// custom form takes the result type from the value).

func.func @concat_shape(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>) {
  %r = nn.concat %a, %b {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<4x8xf32>
  func.return
}

// CHECK-LABEL: "concat_shape"
// CHECK:       %r = "nn.concat"(%a, %b)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result shape 4x8 does not match the inferred shape 2x8

// -----

func.func @concat_mismatched_dims(%a: tensor<2x3xf32>, %b: tensor<3x3xf32>) {
  %r = nn.concat %a, %b {axis = 1 : i64} : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<2x6xf32>
  func.return
}

// CHECK-LABEL: "concat_mismatched_dims"
// CHECK:       %r = "nn.concat"(%a, %b)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: concat operands 2x3, 3x3 differ outside axis 1

// -----

func.func @concat_mismatched_rank(%a: tensor<2x3xf32>, %b: tensor<2x3x1xf32>) {
  %r = nn.concat %a, %b {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2x3x1xf32>) -> tensor<4x3xf32>
  func.return
}

// CHECK-LABEL: "concat_mismatched_rank"
// CHECK:       %r = "nn.concat"(%a, %b)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: concat operands 2x3, 2x3x1 differ outside axis 0

// -----

func.func @concat_axis_range(%a: tensor<2x3xf32>) {
  %r = nn.concat %a, %a {axis = 2 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}

// CHECK-LABEL: "concat_axis_range"
// CHECK:       %r = "nn.concat"(%a, %a)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: axis 2 is out of range for rank 2

// -----

func.func @concat_no_operands() {
  %r = nn.concat {axis = 0 : i64} : () -> tensor<2xf32>
  func.return
}

// CHECK-LABEL: "concat_no_operands"
// CHECK:       %r = "nn.concat"()
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: concat needs at least one operand

// -----

func.func @transpose_shape(%x: tensor<1x8x4x6xf32>) {
  %r = nn.transpose %x {perm = array<i64: 0, 2, 3, 1>} : (tensor<1x8x4x6xf32>) -> tensor<1x6x4x8xf32>
  func.return
}

// CHECK-LABEL: "transpose_shape"
// CHECK:       %r = "nn.transpose"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result shape 1x6x4x8 does not match the inferred shape 1x4x6x8

// -----

func.func @transpose_repeated_axis(%x: tensor<2x3xf32>) {
  %r = nn.transpose %x {perm = array<i64: 0, 0>} : (tensor<2x3xf32>) -> tensor<2x2xf32>
  func.return
}

// CHECK-LABEL: "transpose_repeated_axis"
// CHECK:       %r = "nn.transpose"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: perm [0, 0] is not a permutation of the 2 axes

// -----

func.func @transpose_perm_length(%x: tensor<2x3xf32>) {
  %r = nn.transpose %x {perm = array<i64: 1, 0, 2>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  func.return
}

// CHECK-LABEL: "transpose_perm_length"
// CHECK:       %r = "nn.transpose"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: perm [1, 0, 2] is not a permutation of the 2 axes

// -----

func.func @transpose_perm_range(%x: tensor<2x3xf32>) {
  %r = nn.transpose %x {perm = array<i64: 1, 2>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  func.return
}

// CHECK-LABEL: "transpose_perm_range"
// CHECK:       %r = "nn.transpose"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: perm [1, 2] is not a permutation of the 2 axes

// -----

func.func @constant_shape_mismatch() {
  %r = "nn.constant"() <{value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>}> : () -> tensor<2x2xf32>
  func.return
}

// CHECK-LABEL: "constant_shape_mismatch"
// CHECK:       %r = "nn.constant"()
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: value type tensor<4xf32> differs from result type tensor<2x2xf32>

// -----

func.func @constant_element_mismatch() {
  %r = "nn.constant"() <{value = dense<1> : tensor<4xi32>}> : () -> tensor<4xf32>
  func.return
}

// CHECK-LABEL: "constant_element_mismatch"
// CHECK:       %r = "nn.constant"()
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: value type tensor<4xi32> differs from result type tensor<4xf32>
