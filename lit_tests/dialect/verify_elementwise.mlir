// RUN: xdsl-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Verifier errors of the elementwise ops (nn.add/sub/mul/div, nn.cmp,
// nn.relu/sigmoid/tanh/clamp): the result shape must be the numpy broadcast of
// the operand shapes, result elements are f32 (i1 for nn.cmp), operands are
// static f32 tensors, nn.cmp takes a known predicate and nn.clamp min <= max.

func.func @add_shape(%a: tensor<2x3xf32>, %b: tensor<3xf32>) {
  %r = nn.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x4xf32>
  func.return
}

// CHECK-LABEL: "add_shape"
// CHECK:       %r = "nn.add"(%a, %b)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result shape 2x4 does not match the inferred shape 2x3

// -----

func.func @sub_shape(%a: tensor<1x3xf32>, %b: tensor<2x1xf32>) {
  %r = nn.sub %a, %b : (tensor<1x3xf32>, tensor<2x1xf32>) -> tensor<1x3xf32>
  func.return
}

// CHECK-LABEL: "sub_shape"
// CHECK:       %r = "nn.sub"(%a, %b)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result shape 1x3 does not match the inferred shape 2x3

// -----

func.func @mul_shape(%a: tensor<2x3xf32>, %s: tensor<f32>) {
  %r = nn.mul %a, %s : (tensor<2x3xf32>, tensor<f32>) -> tensor<6xf32>
  func.return
}

// CHECK-LABEL: "mul_shape"
// CHECK:       %r = "nn.mul"(%a, %s)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result shape 6 does not match the inferred shape 2x3

// -----

func.func @div_shape(%a: tensor<4xf32>, %b: tensor<4xf32>) {
  %r = nn.div %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<1x4xf32>
  func.return
}

// CHECK-LABEL: "div_shape"
// CHECK:       %r = "nn.div"(%a, %b)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result shape 1x4 does not match the inferred shape 4

// -----

func.func @add_no_broadcast(%a: tensor<2x3xf32>, %b: tensor<4xf32>) {
  %r = nn.add %a, %b : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  func.return
}

// CHECK-LABEL: "add_no_broadcast"
// CHECK:       %r = "nn.add"(%a, %b)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: shapes 2x3, 4 do not broadcast

// -----

func.func @mul_no_broadcast(%a: tensor<2x3x4xf32>, %b: tensor<3x3x1xf32>) {
  %r = nn.mul %a, %b : (tensor<2x3x4xf32>, tensor<3x3x1xf32>) -> tensor<2x3x4xf32>
  func.return
}

// CHECK-LABEL: "mul_no_broadcast"
// CHECK:       %r = "nn.mul"(%a, %b)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: shapes 2x3x4, 3x3x1 do not broadcast

// -----

func.func @cmp_shape(%a: tensor<2x3xf32>, %b: tensor<3xf32>) {
  %r = nn.cmp %a, %b {predicate = "eq"} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<3xi1>
  func.return
}

// CHECK-LABEL: "cmp_shape"
// CHECK:       %r = "nn.cmp"(%a, %b)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result shape 3 does not match the inferred shape 2x3

// -----

func.func @cmp_result_f32(%a: tensor<3xf32>, %b: tensor<3xf32>) {
  %r = nn.cmp %a, %b {predicate = "lt"} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return
}

// CHECK-LABEL: "cmp_result_f32"
// CHECK:       %r = "nn.cmp"(%a, %b)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result element type must be i1, got f32

// -----

func.func @cmp_bad_predicate(%a: tensor<3xf32>, %b: tensor<3xf32>) {
  %r = nn.cmp %a, %b {predicate = "gte"} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  func.return
}

// CHECK-LABEL: "cmp_bad_predicate"
// CHECK:       %r = "nn.cmp"(%a, %b)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: unknown predicate 'gte', expected one of eq, ne, lt, le, gt, ge

// -----

func.func @add_result_i1(%a: tensor<3xf32>, %b: tensor<3xf32>) {
  %r = nn.add %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  func.return
}

// CHECK-LABEL: "add_result_i1"
// CHECK:       %r = "nn.add"(%a, %b)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result element type must be f32, got i1

// -----

func.func @relu_shape(%x: tensor<1x8x4x4xf32>) {
  %r = nn.relu %x : (tensor<1x8x4x4xf32>) -> tensor<1x8x4x5xf32>
  func.return
}

// CHECK-LABEL: "relu_shape"
// CHECK:       %r = "nn.relu"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result shape 1x8x4x5 does not match the inferred shape 1x8x4x4

// -----

func.func @sigmoid_shape(%x: tensor<2x3xf32>) {
  %r = nn.sigmoid %x : (tensor<2x3xf32>) -> tensor<3x2xf32>
  func.return
}

// CHECK-LABEL: "sigmoid_shape"
// CHECK:       %r = "nn.sigmoid"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result shape 3x2 does not match the inferred shape 2x3

// -----

func.func @tanh_shape(%x: tensor<2x3xf32>) {
  %r = nn.tanh %x : (tensor<2x3xf32>) -> tensor<f32>
  func.return
}

// CHECK-LABEL: "tanh_shape"
// CHECK:       %r = "nn.tanh"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result shape scalar does not match the inferred shape 2x3

// -----

func.func @clamp_shape(%x: tensor<8xf32>) {
  %r = nn.clamp %x {min = 0.0 : f32, max = 6.0 : f32} : (tensor<8xf32>) -> tensor<4xf32>
  func.return
}

// CHECK-LABEL: "clamp_shape"
// CHECK:       %r = "nn.clamp"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result shape 4 does not match the inferred shape 8

// -----

func.func @relu_result_f16(%x: tensor<2x3xf32>) {
  %r = nn.relu %x : (tensor<2x3xf32>) -> tensor<2x3xf16>
  func.return
}

// CHECK-LABEL: "relu_result_f16"
// CHECK:       %r = "nn.relu"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result element type must be f32, got f16

// -----

func.func @clamp_min_above_max(%x: tensor<8xf32>) {
  %r = nn.clamp %x {min = 6.0 : f32, max = 0.0 : f32} : (tensor<8xf32>) -> tensor<8xf32>
  func.return
}

// CHECK-LABEL: "clamp_min_above_max"
// CHECK:       %r = "nn.clamp"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: clamp min must not exceed max

// -----

// Operands must be f32 or f16 tensors (an IRDL constraint; xDSL reports it without
// an annotated dump).

func.func @relu_i32_operand(%x: tensor<2x3xi32>) {
  %r = nn.relu %x : (tensor<2x3xi32>) -> tensor<2x3xf32>
  func.return
}

// CHECK: Unexpected attribute i32

// -----

// Dynamic shapes are rejected on operands and on results.

func.func @add_dynamic_operand(%a: tensor<?x4xf32>, %b: tensor<4xf32>) {
  %r = nn.add %a, %b : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  func.return
}

// CHECK-LABEL: "add_dynamic_operand"
// CHECK:       %r = "nn.add"(%a, %b)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: dynamic shape tensor<?x4xf32> is not supported: fix every dimension

// -----

func.func @relu_dynamic_result(%x: tensor<2x4xf32>) {
  %r = nn.relu %x : (tensor<2x4xf32>) -> tensor<?x4xf32>
  func.return
}

// CHECK-LABEL: "relu_dynamic_result"
// CHECK:       %r = "nn.relu"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: dynamic shape tensor<?x4xf32> is not supported: fix every dimension

// -----

// nn.add, nn.sub and nn.mul also take signless integers (a loop's counter), one type for both.

func.func @int_add_mixed(%a: tensor<2xi64>, %b: tensor<2xi32>) {
  %r = nn.add %a, %b : (tensor<2xi64>, tensor<2xi32>) -> tensor<2xi64>
  func.return
}

// CHECK-LABEL: "int_add_mixed"
// CHECK:       | Operation does not verify: operands must have one element type, got i64 and i32

// -----

func.func @int_add_bool(%a: tensor<2xi1>, %b: tensor<2xi1>) {
  %r = nn.add %a, %b : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  func.return
}

// CHECK-LABEL: "int_add_bool"
// CHECK:       | Operation does not verify: operands must be f32, f16 or signless integers of 8, 16, 32 or 64 bits, got i1
