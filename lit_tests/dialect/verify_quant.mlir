// RUN: xdsl-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Verifier errors of the quantized ops: result elements other than i8 or ui8 (and a
// result type that is not the element), scales and zero points of different lengths or
// of a length other than one or the axis's size, an axis out of range for a per-axis
// scale, zero and negative scales, inputs that are not quantized, biases and c of the
// wrong type or shape, nn.qgemm's element, y_scale and y_zero_point apart, per-axis
// parameters where only per-tensor ones are allowed, shapes that do not broadcast, and
// nn.qconcat's parameters not one per input.

func.func @quantize_to_i16(%x: tensor<2x3xf32>) {
  %r = nn.quantize %x {element = i16, y_scale = array<f32: 0.1>, y_zero_point = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<2x3xi16>
  func.return
}

// CHECK-LABEL: "quantize_to_i16"
// CHECK:       %r = "nn.quantize"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: element must be i8 or ui8, got i16

// -----

func.func @quantize_result_element(%x: tensor<2x3xf32>) {
  %r = nn.quantize %x {element = ui8, y_scale = array<f32: 0.1>, y_zero_point = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<2x3xi8>
  func.return
}

// CHECK-LABEL: "quantize_result_element"
// CHECK:       %r = "nn.quantize"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result element type must be ui8, got i8

// -----

func.func @quantize_lengths(%x: tensor<2x3xf32>) {
  %r = nn.quantize %x {element = i8, y_scale = array<f32: 0.1, 0.2, 0.3>, y_zero_point = array<i64: 0, 0>} : (tensor<2x3xf32>) -> tensor<2x3xi8>
  func.return
}

// CHECK-LABEL: "quantize_lengths"
// CHECK:       %r = "nn.quantize"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: y_scale and y_zero_point must have 1 or 3 element(s), got 3 and 2

// -----

func.func @quantize_axis_length(%x: tensor<2x3xf32>) {
  %r = nn.quantize %x {element = i8, y_scale = array<f32: 0.1, 0.2>, y_zero_point = array<i64: 0, 0>, axis = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xi8>
  func.return
}

// CHECK-LABEL: "quantize_axis_length"
// CHECK:       %r = "nn.quantize"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: y_scale and y_zero_point must have 1 or 3 element(s), got 2 and 2

// -----

func.func @quantize_axis_out_of_range(%x: tensor<2x3xf32>) {
  %r = nn.quantize %x {element = i8, y_scale = array<f32: 0.1, 0.2>, y_zero_point = array<i64: 0, 0>, axis = 2 : i64} : (tensor<2x3xf32>) -> tensor<2x3xi8>
  func.return
}

// CHECK-LABEL: "quantize_axis_out_of_range"
// CHECK:       %r = "nn.quantize"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: axis 2 is out of range for a per-axis y_scale on a tensor of rank 2

// -----

func.func @quantize_zero_scale(%x: tensor<2x3xf32>) {
  %r = nn.quantize %x {element = i8, y_scale = array<f32: 0.0>, y_zero_point = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<2x3xi8>
  func.return
}

// CHECK-LABEL: "quantize_zero_scale"
// CHECK:       %r = "nn.quantize"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: y_scale must be positive, got [0.0]

// -----

func.func @dequantize_f32(%x: tensor<2x3xf32>) {
  %r = nn.dequantize %x {x_scale = array<f32: 0.1>, x_zero_point = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}

// CHECK-LABEL: "dequantize_f32"
// CHECK:       %r = "nn.dequantize"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: input must be an i8, ui8 or i32 tensor, got tensor<2x3xf32>

// -----

func.func @dequantize_negative_scale(%x: tensor<2x3xi8>) {
  %r = nn.dequantize %x {x_scale = array<f32: 0.1, -0.2, 0.3>, x_zero_point = array<i64: 0, 0, 0>} : (tensor<2x3xi8>) -> tensor<2x3xf32>
  func.return
}

// CHECK-LABEL: "dequantize_negative_scale"
// CHECK:       %r = "nn.dequantize"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: x_scale must be positive, got [0.10000000149011612, -0.20000000298023224, 0.30000001192092896]

// -----

func.func @dequantize_result_element(%x: tensor<2x3xi8>) {
  %r = nn.dequantize %x {x_scale = array<f32: 0.1>, x_zero_point = array<i64: 0>} : (tensor<2x3xi8>) -> tensor<2x3xi8>
  func.return
}

// CHECK-LABEL: "dequantize_result_element"
// CHECK:       %r = "nn.dequantize"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result element type must be f32, got i8

// -----

func.func @qconv2d_f32_input(%x: tensor<1x2x5x5xf32>, %w: tensor<3x2x3x3xi8>) {
  %r = nn.qconv2d %x, %w {element = i8, x_scale = array<f32: 0.1>, x_zero_point = array<i64: 0>, w_scale = array<f32: 0.1>, w_zero_point = array<i64: 0>, y_scale = array<f32: 0.1>, y_zero_point = array<i64: 0>} : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xi8>) -> tensor<1x3x3x3xi8>
  func.return
}

// CHECK-LABEL: "qconv2d_f32_input"
// CHECK:       %r = "nn.qconv2d"(%x, %w)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: operand #0 must be an i8 or ui8 tensor, got tensor<1x2x5x5xf32>

// -----

func.func @qconv2d_f32_bias(%x: tensor<1x2x5x5xi8>, %w: tensor<3x2x3x3xi8>, %b: tensor<3xf32>) {
  %r = nn.qconv2d %x, %w, %b {element = i8, x_scale = array<f32: 0.1>, x_zero_point = array<i64: 0>, w_scale = array<f32: 0.1>, w_zero_point = array<i64: 0>, y_scale = array<f32: 0.1>, y_zero_point = array<i64: 0>} : (tensor<1x2x5x5xi8>, tensor<3x2x3x3xi8>, tensor<3xf32>) -> tensor<1x3x3x3xi8>
  func.return
}

// CHECK-LABEL: "qconv2d_f32_bias"
// CHECK:       %r = "nn.qconv2d"(%x, %w, %b)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: bias must be an i32 tensor of shape [3]

// -----

func.func @qconv2d_bias_shape(%x: tensor<1x2x5x5xi8>, %w: tensor<3x2x3x3xi8>, %b: tensor<2xi32>) {
  %r = nn.qconv2d %x, %w, %b {element = i8, x_scale = array<f32: 0.1>, x_zero_point = array<i64: 0>, w_scale = array<f32: 0.1>, w_zero_point = array<i64: 0>, y_scale = array<f32: 0.1>, y_zero_point = array<i64: 0>} : (tensor<1x2x5x5xi8>, tensor<3x2x3x3xi8>, tensor<2xi32>) -> tensor<1x3x3x3xi8>
  func.return
}

// CHECK-LABEL: "qconv2d_bias_shape"
// CHECK:       %r = "nn.qconv2d"(%x, %w, %b)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: bias must be an i32 tensor of shape [3]

// -----

func.func @qconv2d_weight_scales(%x: tensor<1x2x5x5xi8>, %w: tensor<3x2x3x3xi8>) {
  %r = nn.qconv2d %x, %w {element = i8, x_scale = array<f32: 0.1>, x_zero_point = array<i64: 0>, w_scale = array<f32: 0.1, 0.2>, w_zero_point = array<i64: 0, 0>, y_scale = array<f32: 0.1>, y_zero_point = array<i64: 0>} : (tensor<1x2x5x5xi8>, tensor<3x2x3x3xi8>) -> tensor<1x3x3x3xi8>
  func.return
}

// CHECK-LABEL: "qconv2d_weight_scales"
// CHECK:       %r = "nn.qconv2d"(%x, %w)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: w_scale and w_zero_point must have 1 or 3 element(s), got 2 and 2

// -----

func.func @qconv2d_per_axis_input(%x: tensor<1x2x5x5xi8>, %w: tensor<3x2x3x3xi8>) {
  %r = nn.qconv2d %x, %w {element = i8, x_scale = array<f32: 0.1, 0.2>, x_zero_point = array<i64: 0, 0>, w_scale = array<f32: 0.1>, w_zero_point = array<i64: 0>, y_scale = array<f32: 0.1>, y_zero_point = array<i64: 0>} : (tensor<1x2x5x5xi8>, tensor<3x2x3x3xi8>) -> tensor<1x3x3x3xi8>
  func.return
}

// CHECK-LABEL: "qconv2d_per_axis_input"
// CHECK:       %r = "nn.qconv2d"(%x, %w)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: x_scale and x_zero_point must have 1 element(s), got 2 and 2

// -----

func.func @qconv2d_element_i32(%x: tensor<1x2x5x5xi8>, %w: tensor<3x2x3x3xi8>) {
  %r = nn.qconv2d %x, %w {element = i32, x_scale = array<f32: 0.1>, x_zero_point = array<i64: 0>, w_scale = array<f32: 0.1>, w_zero_point = array<i64: 0>, y_scale = array<f32: 0.1>, y_zero_point = array<i64: 0>} : (tensor<1x2x5x5xi8>, tensor<3x2x3x3xi8>) -> tensor<1x3x3x3xi32>
  func.return
}

// CHECK-LABEL: "qconv2d_element_i32"
// CHECK:       %r = "nn.qconv2d"(%x, %w)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: element must be i8 or ui8, got i32

// -----

func.func @qgemm_element_without_y_scale(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>) {
  %r = nn.qgemm %a, %b {a_scale = array<f32: 0.1>, a_zero_point = array<i64: 0>, b_scale = array<f32: 0.1>, b_zero_point = array<i64: 0>, element = i8} : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi8>
  func.return
}

// CHECK-LABEL: "qgemm_element_without_y_scale"
// CHECK:       %r = "nn.qgemm"(%a, %b)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: element, y_scale and y_zero_point come together

// -----

func.func @qgemm_y_scale_without_element(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>) {
  %r = nn.qgemm %a, %b {a_scale = array<f32: 0.1>, a_zero_point = array<i64: 0>, b_scale = array<f32: 0.1>, b_zero_point = array<i64: 0>, y_scale = array<f32: 0.1>, y_zero_point = array<i64: 0>} : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xf32>
  func.return
}

// CHECK-LABEL: "qgemm_y_scale_without_element"
// CHECK:       %r = "nn.qgemm"(%a, %b)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: element, y_scale and y_zero_point come together

// -----

func.func @qgemm_element_i32(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>) {
  %r = nn.qgemm %a, %b {a_scale = array<f32: 0.1>, a_zero_point = array<i64: 0>, b_scale = array<f32: 0.1>, b_zero_point = array<i64: 0>, element = i32, y_scale = array<f32: 0.1>, y_zero_point = array<i64: 0>} : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi32>
  func.return
}

// CHECK-LABEL: "qgemm_element_i32"
// CHECK:       %r = "nn.qgemm"(%a, %b)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: element must be i8 or ui8, got i32

// -----

func.func @qgemm_c_type(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>, %c: tensor<4xf32>) {
  %r = nn.qgemm %a, %b, %c {a_scale = array<f32: 0.1>, a_zero_point = array<i64: 0>, b_scale = array<f32: 0.1>, b_zero_point = array<i64: 0>} : (tensor<2x3xi8>, tensor<3x4xi8>, tensor<4xf32>) -> tensor<2x4xf32>
  func.return
}

// CHECK-LABEL: "qgemm_c_type"
// CHECK:       %r = "nn.qgemm"(%a, %b, %c)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: c must be an i32 tensor of shape [4]

// -----

func.func @qgemm_c_shape(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>, %c: tensor<2x4xi32>) {
  %r = nn.qgemm %a, %b, %c {a_scale = array<f32: 0.1>, a_zero_point = array<i64: 0>, b_scale = array<f32: 0.1>, b_zero_point = array<i64: 0>} : (tensor<2x3xi8>, tensor<3x4xi8>, tensor<2x4xi32>) -> tensor<2x4xf32>
  func.return
}

// CHECK-LABEL: "qgemm_c_shape"
// CHECK:       %r = "nn.qgemm"(%a, %b, %c)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: c must be an i32 tensor of shape [4]

// -----

func.func @qgemm_f32_b(%a: tensor<2x3xi8>, %b: tensor<3x4xf32>) {
  %r = nn.qgemm %a, %b {a_scale = array<f32: 0.1>, a_zero_point = array<i64: 0>, b_scale = array<f32: 0.1>, b_zero_point = array<i64: 0>} : (tensor<2x3xi8>, tensor<3x4xf32>) -> tensor<2x4xf32>
  func.return
}

// CHECK-LABEL: "qgemm_f32_b"
// CHECK:       %r = "nn.qgemm"(%a, %b)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: operand #1 must be an i8 or ui8 tensor, got tensor<3x4xf32>

// -----

func.func @qadd_per_axis(%a: tensor<2x3xi8>, %b: tensor<3xi8>) {
  %r = nn.qadd %a, %b {element = i8, a_scale = array<f32: 0.1, 0.2>, a_zero_point = array<i64: 0, 0>, b_scale = array<f32: 0.1>, b_zero_point = array<i64: 0>, y_scale = array<f32: 0.1>, y_zero_point = array<i64: 0>} : (tensor<2x3xi8>, tensor<3xi8>) -> tensor<2x3xi8>
  func.return
}

// CHECK-LABEL: "qadd_per_axis"
// CHECK:       %r = "nn.qadd"(%a, %b)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: a_scale and a_zero_point must have 1 element(s), got 2 and 2

// -----

func.func @qmul_element_i1(%a: tensor<2x3xi8>, %b: tensor<3xi8>) {
  %r = nn.qmul %a, %b {element = i1, a_scale = array<f32: 0.1>, a_zero_point = array<i64: 0>, b_scale = array<f32: 0.1>, b_zero_point = array<i64: 0>, y_scale = array<f32: 0.1>, y_zero_point = array<i64: 0>} : (tensor<2x3xi8>, tensor<3xi8>) -> tensor<2x3xi1>
  func.return
}

// CHECK-LABEL: "qmul_element_i1"
// CHECK:       %r = "nn.qmul"(%a, %b)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: element must be i8 or ui8, got i1

// -----

func.func @qmul_shape(%a: tensor<2x3xi8>, %b: tensor<2xi8>) {
  %r = nn.qmul %a, %b {element = i8, a_scale = array<f32: 0.1>, a_zero_point = array<i64: 0>, b_scale = array<f32: 0.1>, b_zero_point = array<i64: 0>, y_scale = array<f32: 0.1>, y_zero_point = array<i64: 0>} : (tensor<2x3xi8>, tensor<2xi8>) -> tensor<2x3xi8>
  func.return
}

// CHECK-LABEL: "qmul_shape"
// CHECK:       %r = "nn.qmul"(%a, %b)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: shapes 2x3, 2 do not broadcast

// -----

func.func @qconcat_parameters_per_input(%a: tensor<2x3xi8>, %b: tensor<2x1xi8>) {
  %r = nn.qconcat %a, %b {element = i8, axis = 1 : i64, x_scale = array<f32: 0.1>, x_zero_point = array<i64: 0>, y_scale = array<f32: 0.1>, y_zero_point = array<i64: 0>} : (tensor<2x3xi8>, tensor<2x1xi8>) -> tensor<2x4xi8>
  func.return
}

// CHECK-LABEL: "qconcat_parameters_per_input"
// CHECK:       %r = "nn.qconcat"(%a, %b)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: x_scale and x_zero_point must have one element per input (2)

// -----

func.func @qadd_mixed_types(%a: tensor<2x3xi8>, %b: tensor<3xui8>) {
  %r = nn.qadd %a, %b {element = i8, a_scale = array<f32: 0.1>, a_zero_point = array<i64: 0>, b_scale = array<f32: 0.1>, b_zero_point = array<i64: 0>, y_scale = array<f32: 0.1>, y_zero_point = array<i64: 0>} : (tensor<2x3xi8>, tensor<3xui8>) -> tensor<2x3xi8>
  func.return
}

// CHECK-LABEL: "qadd_mixed_types"
// CHECK:       %r = "nn.qadd"(%a, %b)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: operands must share one element type, got i8, ui8

// -----

func.func @qconcat_mixed_types(%a: tensor<2x3xi8>, %b: tensor<2x1xui8>) {
  %r = nn.qconcat %a, %b {element = i8, axis = 1 : i64, x_scale = array<f32: 0.1, 0.1>, x_zero_point = array<i64: 0, 0>, y_scale = array<f32: 0.1>, y_zero_point = array<i64: 0>} : (tensor<2x3xi8>, tensor<2x1xui8>) -> tensor<2x4xi8>
  func.return
}

// CHECK-LABEL: "qconcat_mixed_types"
// CHECK:       %r = "nn.qconcat"(%a, %b)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: operands must share one element type, got i8, ui8
