// RUN: xdsl-opt %s --split-input-file --verify-diagnostics | filecheck %s

// The float ops take f16 as they take f32, the result in the operands' type; nn.cast
// converts to and from f16. Float operands of one op mixing f16 and f32, or a result
// in the other float type, are verifier errors.

// CHECK-LABEL: func.func @f16_ops(
// CHECK-NEXT:    %c = nn.conv2d %x, %w, %b {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x4x4xf16>, tensor<3x2x3x3xf16>, tensor<3xf16>) -> tensor<1x3x4x4xf16>
// CHECK-NEXT:    %r = nn.relu %c : (tensor<1x3x4x4xf16>) -> tensor<1x3x4x4xf16>
// CHECK-NEXT:    %p = nn.avg_pool2d %r {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x3x4x4xf16>) -> tensor<1x3x2x2xf16>
// CHECK-NEXT:    %s = nn.softmax %p {axis = 1 : i64} : (tensor<1x3x2x2xf16>) -> tensor<1x3x2x2xf16>
// CHECK-NEXT:    %k = nn.constant dense<5.000000e-01> : tensor<1xf16>
// CHECK-NEXT:    %m = nn.mul %s, %k : (tensor<1x3x2x2xf16>, tensor<1xf16>) -> tensor<1x3x2x2xf16>
// CHECK-NEXT:    %j = nn.concat %m, %s {axis = 1 : i64} : (tensor<1x3x2x2xf16>, tensor<1x3x2x2xf16>) -> tensor<1x6x2x2xf16>
// CHECK-NEXT:    %q = nn.cmp %j, %j {predicate = "lt"} : (tensor<1x6x2x2xf16>, tensor<1x6x2x2xf16>) -> tensor<1x6x2x2xi1>
// CHECK-NEXT:    %y = nn.cast %j : (tensor<1x6x2x2xf16>) -> tensor<1x6x2x2xf32>
// CHECK-NEXT:    %h = nn.cast %y : (tensor<1x6x2x2xf32>) -> tensor<1x6x2x2xf16>
// CHECK-NEXT:    func.return
func.func @f16_ops(%x: tensor<1x2x4x4xf16>, %w: tensor<3x2x3x3xf16>, %b: tensor<3xf16>) {
  %c = nn.conv2d %x, %w, %b {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x4x4xf16>, tensor<3x2x3x3xf16>, tensor<3xf16>) -> tensor<1x3x4x4xf16>
  %r = nn.relu %c : (tensor<1x3x4x4xf16>) -> tensor<1x3x4x4xf16>
  %p = nn.avg_pool2d %r {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x3x4x4xf16>) -> tensor<1x3x2x2xf16>
  %s = nn.softmax %p {axis = 1 : i64} : (tensor<1x3x2x2xf16>) -> tensor<1x3x2x2xf16>
  %k = nn.constant dense<0.5> : tensor<1xf16>
  %m = nn.mul %s, %k : (tensor<1x3x2x2xf16>, tensor<1xf16>) -> tensor<1x3x2x2xf16>
  %j = nn.concat %m, %s {axis = 1 : i64} : (tensor<1x3x2x2xf16>, tensor<1x3x2x2xf16>) -> tensor<1x6x2x2xf16>
  %q = nn.cmp %j, %j {predicate = "lt"} : (tensor<1x6x2x2xf16>, tensor<1x6x2x2xf16>) -> tensor<1x6x2x2xi1>
  %y = nn.cast %j : (tensor<1x6x2x2xf16>) -> tensor<1x6x2x2xf32>
  %h = nn.cast %y : (tensor<1x6x2x2xf32>) -> tensor<1x6x2x2xf16>
  func.return
}

// -----

func.func @mixed_add(%a: tensor<4xf16>, %b: tensor<4xf32>) {
  %r = nn.add %a, %b : (tensor<4xf16>, tensor<4xf32>) -> tensor<4xf16>
  func.return
}

// CHECK-LABEL: "mixed_add"
// CHECK:       | Operation does not verify: operands must have one element type, got f16 and f32

// -----

func.func @mixed_conv_bias(%x: tensor<1x2x4x4xf16>, %w: tensor<3x2x3x3xf16>, %b: tensor<3xf32>) {
  %c = nn.conv2d %x, %w, %b : (tensor<1x2x4x4xf16>, tensor<3x2x3x3xf16>, tensor<3xf32>) -> tensor<1x3x2x2xf16>
  func.return
}

// CHECK-LABEL: "mixed_conv_bias"
// CHECK:       | Operation does not verify: float operands must have one element type, got f16 and f32

// -----

func.func @mixed_concat(%a: tensor<2xf32>, %b: tensor<2xf16>) {
  %r = nn.concat %a, %b {axis = 0 : i64} : (tensor<2xf32>, tensor<2xf16>) -> tensor<4xf32>
  func.return
}

// CHECK-LABEL: "mixed_concat"
// CHECK:       | Operation does not verify: float operands must have one element type, got f32 and f16

// -----

func.func @mixed_select(%c: tensor<2xi1>, %a: tensor<2xf16>, %b: tensor<2xf32>) {
  %r = nn.select %c, %a, %b : (tensor<2xi1>, tensor<2xf16>, tensor<2xf32>) -> tensor<2xf16>
  func.return
}

// CHECK-LABEL: "mixed_select"
// CHECK:       | Operation does not verify: float operands must have one element type, got f16 and f32

// -----

func.func @mixed_cmp(%a: tensor<2xf16>, %b: tensor<2xf32>) {
  %r = nn.cmp %a, %b {predicate = "eq"} : (tensor<2xf16>, tensor<2xf32>) -> tensor<2xi1>
  func.return
}

// CHECK-LABEL: "mixed_cmp"
// CHECK:       | Operation does not verify: operands must have one element type, got f16 and f32

// -----

func.func @f32_result_of_f16(%x: tensor<4xf16>) {
  %r = nn.sigmoid %x : (tensor<4xf16>) -> tensor<4xf32>
  func.return
}

// CHECK-LABEL: "f32_result_of_f16"
// CHECK:       | Operation does not verify: result element type must be f16, got f32

// -----

func.func @f16_result_of_f32(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) {
  %r = nn.matmul %a, %b : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf16>
  func.return
}

// CHECK-LABEL: "f16_result_of_f32"
// CHECK:       | Operation does not verify: result element type must be f32, got f16

// -----

func.func @f64_operand(%x: tensor<4xf64>) {
  %r = nn.relu %x : (tensor<4xf64>) -> tensor<4xf64>
  func.return
}

// CHECK: Unexpected attribute f64
