// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s

// The quantized ops print and parse back: nn.quantize and nn.dequantize per tensor
// and per axis (a negative axis too; the default axis 1 is not printed), to and from
// i8 and ui8, and an i32 dequantized; nn.qconv2d with per-channel weight scales and a
// bias, and without; nn.qgemm with c, trans_b, alpha and a quantized result, and with
// a float result; nn.qadd and nn.qmul broadcasting; nn.qconcat of inputs with their
// own parameters.

// CHECK-LABEL: func.func @quant(
// CHECK-NEXT:    %a = nn.quantize %x {element = i8, y_scale = array<f32: 5.000000e-02>, y_zero_point = array<i64: 3>} : (tensor<2x3xf32>) -> tensor<2x3xi8>
// CHECK-NEXT:    %b = nn.quantize %x {element = ui8, y_scale = array<f32: 5.000000e-02, 1.000000e-01>, y_zero_point = array<i64: 128, 0>, axis = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xui8>
// CHECK-NEXT:    %c = nn.quantize %x {element = i8, y_scale = array<f32: 5.000000e-02, 1.000000e-01, 2.000000e-01>, y_zero_point = array<i64: 0, -1, 2>, axis = -1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xi8>
// CHECK-NEXT:    %d = nn.dequantize %q {x_scale = array<f32: 2.500000e-01>, x_zero_point = array<i64: -4>} : (tensor<2x3xi8>) -> tensor<2x3xf32>
// CHECK-NEXT:    %e = nn.dequantize %u {x_scale = array<f32: 5.000000e-01, 2.500000e-01, 1.250000e-01>, x_zero_point = array<i64: 1, 2, 3>} : (tensor<2x3xui8>) -> tensor<2x3xf32>
// CHECK-NEXT:    %f = nn.dequantize %acc {x_scale = array<f32: 1.000000e-03>, x_zero_point = array<i64: 0>} : (tensor<3xi32>) -> tensor<3xf32>
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
func.func @quant(%x: tensor<2x3xf32>, %q: tensor<2x3xi8>, %u: tensor<2x3xui8>, %acc: tensor<3xi32>) {
  %a = nn.quantize %x {element = i8, y_scale = array<f32: 0.05>, y_zero_point = array<i64: 3>} : (tensor<2x3xf32>) -> tensor<2x3xi8>
  %b = nn.quantize %x {element = ui8, y_scale = array<f32: 0.05, 0.1>, y_zero_point = array<i64: 128, 0>, axis = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xui8>
  %c = nn.quantize %x {element = i8, y_scale = array<f32: 0.05, 0.1, 0.2>, y_zero_point = array<i64: 0, -1, 2>, axis = -1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xi8>
  %d = nn.dequantize %q {x_scale = array<f32: 0.25>, x_zero_point = array<i64: -4>} : (tensor<2x3xi8>) -> tensor<2x3xf32>
  %e = nn.dequantize %u {x_scale = array<f32: 0.5, 0.25, 0.125>, x_zero_point = array<i64: 1, 2, 3>, axis = 1 : i64} : (tensor<2x3xui8>) -> tensor<2x3xf32>
  %f = nn.dequantize %acc {x_scale = array<f32: 0.001>, x_zero_point = array<i64: 0>} : (tensor<3xi32>) -> tensor<3xf32>
  func.return
}

// CHECK-LABEL: func.func @qlinear(
// CHECK-NEXT:    %conv = nn.qconv2d %x, %w, %bias {strides = array<i64: 2, 1>, pads = array<i64: 1, 0, 1, 0>, dilations = array<i64: 1, 2>, groups = 2 : i64, element = ui8, x_scale = array<f32: 5.000000e-02>, x_zero_point = array<i64: 128>, w_scale = array<f32: 1.000000e-02, 2.000000e-02, 3.000000e-02, 4.000000e-02, 5.000000e-02, 6.000000e-02>, w_zero_point = array<i64: 0, 0, 0, 0, 0, 0>, y_scale = array<f32: 2.000000e-01>, y_zero_point = array<i64: 100>} : (tensor<1x4x5x5xui8>, tensor<6x2x3x3xi8>, tensor<6xi32>) -> tensor<1x6x3x1xui8>
// CHECK-NEXT:    %conv0 = nn.qconv2d %x, %w {groups = 2 : i64, element = ui8, x_scale = array<f32: 5.000000e-02>, x_zero_point = array<i64: 128>, w_scale = array<f32: 1.000000e-02>, w_zero_point = array<i64: 0>, y_scale = array<f32: 2.000000e-01>, y_zero_point = array<i64: 100>} : (tensor<1x4x5x5xui8>, tensor<6x2x3x3xi8>) -> tensor<1x6x3x3xui8>
// CHECK-NEXT:    %gemm = nn.qgemm %a, %bm, %c {a_scale = array<f32: 1.000000e-01>, a_zero_point = array<i64: 1>, b_scale = array<f32: 2.000000e-02>, b_zero_point = array<i64: 0>, alpha = 5.000000e-01 : f32, trans_b = 1 : i64, element = i8, y_scale = array<f32: 3.000000e-01>, y_zero_point = array<i64: -3>} : (tensor<2x3xi8>, tensor<4x3xi8>, tensor<4xi32>) -> tensor<2x4xi8>
// CHECK-NEXT:    %real = nn.qgemm %a, %a {a_scale = array<f32: 1.000000e-01>, a_zero_point = array<i64: 1>, b_scale = array<f32: 2.000000e-02, 3.000000e-02>, b_zero_point = array<i64: 0, 0>, trans_b = 1 : i64} : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x2xf32>
// CHECK-NEXT:    %add = nn.qadd %s, %p {element = i8, a_scale = array<f32: 1.000000e-01>, a_zero_point = array<i64: 0>, b_scale = array<f32: 2.000000e-01>, b_zero_point = array<i64: 5>, y_scale = array<f32: 3.000000e-01>, y_zero_point = array<i64: -1>} : (tensor<3xi8>, tensor<2x1xi8>) -> tensor<2x3xi8>
// CHECK-NEXT:    %mul = nn.qmul %p, %s {element = i8, a_scale = array<f32: 1.000000e-01>, a_zero_point = array<i64: 0>, b_scale = array<f32: 2.000000e-01>, b_zero_point = array<i64: 5>, y_scale = array<f32: 3.000000e-01>, y_zero_point = array<i64: -1>} : (tensor<2x1xi8>, tensor<3xi8>) -> tensor<2x3xi8>
// CHECK-NEXT:    %cat = nn.qconcat %a, %p {element = i8, axis = 1 : i64, x_scale = array<f32: 1.000000e-01, 2.000000e-01>, x_zero_point = array<i64: 0, 4>, y_scale = array<f32: 1.500000e-01>, y_zero_point = array<i64: 2>} : (tensor<2x3xi8>, tensor<2x1xi8>) -> tensor<2x4xi8>
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
func.func @qlinear(%x: tensor<1x4x5x5xui8>, %w: tensor<6x2x3x3xi8>, %bias: tensor<6xi32>, %a: tensor<2x3xi8>, %bm: tensor<4x3xi8>, %c: tensor<4xi32>, %s: tensor<3xi8>, %p: tensor<2x1xi8>) {
  %conv = nn.qconv2d %x, %w, %bias {strides = array<i64: 2, 1>, pads = array<i64: 1, 0, 1, 0>, dilations = array<i64: 1, 2>, groups = 2 : i64, element = ui8, x_scale = array<f32: 0.05>, x_zero_point = array<i64: 128>, w_scale = array<f32: 0.01, 0.02, 0.03, 0.04, 0.05, 0.06>, w_zero_point = array<i64: 0, 0, 0, 0, 0, 0>, y_scale = array<f32: 0.2>, y_zero_point = array<i64: 100>} : (tensor<1x4x5x5xui8>, tensor<6x2x3x3xi8>, tensor<6xi32>) -> tensor<1x6x3x1xui8>
  %conv0 = nn.qconv2d %x, %w {groups = 2 : i64, element = ui8, x_scale = array<f32: 0.05>, x_zero_point = array<i64: 128>, w_scale = array<f32: 0.01>, w_zero_point = array<i64: 0>, y_scale = array<f32: 0.2>, y_zero_point = array<i64: 100>} : (tensor<1x4x5x5xui8>, tensor<6x2x3x3xi8>) -> tensor<1x6x3x3xui8>
  %gemm = nn.qgemm %a, %bm, %c {a_scale = array<f32: 0.1>, a_zero_point = array<i64: 1>, b_scale = array<f32: 0.02>, b_zero_point = array<i64: 0>, alpha = 5.000000e-01 : f32, trans_b = 1 : i64, element = i8, y_scale = array<f32: 0.3>, y_zero_point = array<i64: -3>} : (tensor<2x3xi8>, tensor<4x3xi8>, tensor<4xi32>) -> tensor<2x4xi8>
  %real = nn.qgemm %a, %a {a_scale = array<f32: 0.1>, a_zero_point = array<i64: 1>, b_scale = array<f32: 0.02, 0.03>, b_zero_point = array<i64: 0, 0>, trans_b = 1 : i64} : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x2xf32>
  %add = nn.qadd %s, %p {element = i8, a_scale = array<f32: 0.1>, a_zero_point = array<i64: 0>, b_scale = array<f32: 0.2>, b_zero_point = array<i64: 5>, y_scale = array<f32: 0.3>, y_zero_point = array<i64: -1>} : (tensor<3xi8>, tensor<2x1xi8>) -> tensor<2x3xi8>
  %mul = nn.qmul %p, %s {element = i8, a_scale = array<f32: 0.1>, a_zero_point = array<i64: 0>, b_scale = array<f32: 0.2>, b_zero_point = array<i64: 5>, y_scale = array<f32: 0.3>, y_zero_point = array<i64: -1>} : (tensor<2x1xi8>, tensor<3xi8>) -> tensor<2x3xi8>
  %cat = nn.qconcat %a, %p {element = i8, axis = 1 : i64, x_scale = array<f32: 0.1, 0.2>, x_zero_point = array<i64: 0, 4>, y_scale = array<f32: 0.15>, y_zero_point = array<i64: 2>} : (tensor<2x3xi8>, tensor<2x1xi8>) -> tensor<2x4xi8>
  func.return
}
