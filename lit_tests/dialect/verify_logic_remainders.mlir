// RUN: xdsl-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Verifier errors of nn.and/or/xor/not (i1 operands and result, the broadcast
// shape), nn.select (an i1 condition, f32 values, the three-way broadcast),
// nn.fmod (f32), nn.mod (integers of one type, the result of that type) and
// nn.cumsum (an axis within the rank).

func.func @and_f32(%a: tensor<3xf32>, %b: tensor<3xi1>) {
  %r = nn.and %a, %b : (tensor<3xf32>, tensor<3xi1>) -> tensor<3xi1>
  func.return
}

// CHECK-LABEL: "and_f32"
// CHECK:       %r = "nn.and"(%a, %b)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: operands must be i1 tensors, got tensor<3xf32>

// -----

func.func @or_shape(%a: tensor<2x3xi1>, %b: tensor<2xi1>) {
  %r = nn.or %a, %b : (tensor<2x3xi1>, tensor<2xi1>) -> tensor<2x3xi1>
  func.return
}

// CHECK-LABEL: "or_shape"
// CHECK:       %r = "nn.or"(%a, %b)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: shapes 2x3, 2 do not broadcast

// -----

func.func @xor_result_f32(%a: tensor<3xi1>, %b: tensor<3xi1>) {
  %r = nn.xor %a, %b : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xf32>
  func.return
}

// CHECK-LABEL: "xor_result_f32"
// CHECK:       %r = "nn.xor"(%a, %b)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result element type must be i1, got f32

// -----

func.func @not_shape(%a: tensor<2x3xi1>) {
  %r = nn.not %a : (tensor<2x3xi1>) -> tensor<3x2xi1>
  func.return
}

// CHECK-LABEL: "not_shape"
// CHECK:       %r = "nn.not"(%a)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result shape 3x2 does not match the inferred shape 2x3

// -----

func.func @select_f32_condition(%c: tensor<3xf32>, %a: tensor<3xf32>) {
  %r = nn.select %c, %a, %a : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return
}

// CHECK-LABEL: "select_f32_condition"
// CHECK:       %r = "nn.select"(%c, %a, %a)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: the condition must be an i1 tensor, got tensor<3xf32>

// -----

func.func @select_shape(%c: tensor<2x1xi1>, %a: tensor<3xf32>, %b: tensor<4x1x1xf32>) {
  %r = nn.select %c, %a, %b : (tensor<2x1xi1>, tensor<3xf32>, tensor<4x1x1xf32>) -> tensor<2x3xf32>
  func.return
}

// CHECK-LABEL: "select_shape"
// CHECK:       %r = "nn.select"(%c, %a, %b)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result shape 2x3 does not match the inferred shape 4x2x3

// -----

func.func @cumsum_axis(%x: tensor<2x3xf32>) {
  %r = nn.cumsum %x {axis = 2 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}

// CHECK-LABEL: "cumsum_axis"
// CHECK:       %r = "nn.cumsum"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: axis 2 is out of range for rank 2

// -----

// nn.fmod takes f32 or f16 operands only (an IRDL constraint; xDSL reports it without an
// annotated dump).

func.func @fmod_i64(%a: tensor<3xi64>) {
  %r = nn.fmod %a, %a : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xf32>
  func.return
}

// CHECK: Unexpected attribute i64

// -----

func.func @mod_f32(%a: tensor<3xf32>) {
  %r = nn.mod %a, %a : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return
}

// CHECK-LABEL: "mod_f32"
// CHECK:       %r = "nn.mod"(%a, %a)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: operands must be signless integers of 8, 16, 32 or 64 bits, got f32

// -----

func.func @mod_mixed(%a: tensor<3xi64>, %b: tensor<3xi32>) {
  %r = nn.mod %a, %b : (tensor<3xi64>, tensor<3xi32>) -> tensor<3xi64>
  func.return
}

// CHECK-LABEL: "mod_mixed"
// CHECK:       %r = "nn.mod"(%a, %b)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: operands must have one element type, got i64 and i32

// -----

func.func @mod_result_type(%a: tensor<3xi64>) {
  %r = nn.mod %a, %a : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi32>
  func.return
}

// CHECK-LABEL: "mod_result_type"
// CHECK:       %r = "nn.mod"(%a, %a)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result element type must be i64, got i32
