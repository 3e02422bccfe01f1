// RUN: xdsl-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Verifier errors of nn.gather, nn.gather_elements and nn.top_k: result shapes
// and element types, axes out of range, indices that are not i32 or i64,
// GatherElements indices of another rank or larger than the data off the axis,
// and a k the axis cannot give.

func.func @gather_shape(%x: tensor<3x4xf32>, %i: tensor<2xi64>) {
  %r = nn.gather %x, %i {axis = 1 : i64} : (tensor<3x4xf32>, tensor<2xi64>) -> tensor<2x4xf32>
  func.return
}

// CHECK-LABEL: "gather_shape"
// CHECK:       %r = "nn.gather"(%x, %i)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result shape 2x4 does not match the inferred shape 3x2

// -----

// The result keeps the data's element type.

func.func @gather_element_type(%x: tensor<3xi64>, %i: tensor<2xi64>) {
  %r = nn.gather %x, %i {axis = 0 : i64} : (tensor<3xi64>, tensor<2xi64>) -> tensor<2xf32>
  func.return
}

// CHECK-LABEL: "gather_element_type"
// CHECK:       %r = "nn.gather"(%x, %i)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result element type must be i64, got f32

// -----

func.func @gather_axis(%x: tensor<3x4xf32>, %i: tensor<2xi64>) {
  %r = nn.gather %x, %i {axis = 2 : i64} : (tensor<3x4xf32>, tensor<2xi64>) -> tensor<3x4xf32>
  func.return
}

// CHECK-LABEL: "gather_axis"
// CHECK:       %r = "nn.gather"(%x, %i)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: axis 2 is out of range for rank 2

// -----

func.func @gather_float_indices(%x: tensor<3x4xf32>, %i: tensor<2xf32>) {
  %r = nn.gather %x, %i {axis = 0 : i64} : (tensor<3x4xf32>, tensor<2xf32>) -> tensor<2x4xf32>
  func.return
}

// CHECK-LABEL: "gather_float_indices"
// CHECK:       %r = "nn.gather"(%x, %i)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: indices must be signless integers of 32 or 64 bits, got f32

// -----

func.func @gather_i8_indices(%x: tensor<3x4xf32>, %i: tensor<2xi8>) {
  %r = nn.gather_elements %x, %i {axis = 0 : i64} : (tensor<3x4xf32>, tensor<2xi8>) -> tensor<2xf32>
  func.return
}

// CHECK-LABEL: "gather_i8_indices"
// CHECK:       %r = "nn.gather_elements"(%x, %i)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: indices must be signless integers of 32 or 64 bits, got i8

// -----

func.func @gather_elements_rank(%x: tensor<3x4xf32>, %i: tensor<2xi64>) {
  %r = nn.gather_elements %x, %i {axis = 0 : i64} : (tensor<3x4xf32>, tensor<2xi64>) -> tensor<2xf32>
  func.return
}

// CHECK-LABEL: "gather_elements_rank"
// CHECK:       %r = "nn.gather_elements"(%x, %i)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: indices of rank 1 must have the rank of the data, 2

// -----

// Along the axis the indices may be longer than the data; off it, not.

func.func @gather_elements_wider(%x: tensor<3x4xf32>, %i: tensor<5x5xi64>) {
  %r = nn.gather_elements %x, %i {axis = 0 : i64} : (tensor<3x4xf32>, tensor<5x5xi64>) -> tensor<5x5xf32>
  func.return
}

// CHECK-LABEL: "gather_elements_wider"
// CHECK:       %r = "nn.gather_elements"(%x, %i)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: indices have 5 elements on axis 1, more than the data's 4

// -----

func.func @top_k_too_many(%x: tensor<3x4xf32>) {
  %r = nn.top_k %x {k = 5 : i64} : (tensor<3x4xf32>) -> tensor<3x5xi64>
  func.return
}

// CHECK-LABEL: "top_k_too_many"
// CHECK:       %r = "nn.top_k"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: k 5 must be in [1, 4], the size of axis 1

// -----

func.func @top_k_element_type(%x: tensor<3x4xf32>) {
  %r = nn.top_k %x {k = 2 : i64} : (tensor<3x4xf32>) -> tensor<3x2xf32>
  func.return
}

// CHECK-LABEL: "top_k_element_type"
// CHECK:       %r = "nn.top_k"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result element type must be i64, got f32
