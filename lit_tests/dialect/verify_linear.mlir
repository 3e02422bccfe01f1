// RUN: xdsl-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Verifier errors of nn.conv2d, nn.matmul and nn.gemm: result shapes, group
// and channel counts, bias sizes, window parameters, inner dimensions, batch
// broadcasting and operand ranks.

func.func @conv_shape(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf32>) {
  %r = nn.conv2d %x, %w : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x8x8xf32>
  func.return
}

// CHECK-LABEL: "conv_shape"
// CHECK:       %r = "nn.conv2d"(%x, %w)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result shape 1x8x8x8 does not match the inferred shape 1x8x6x6

// -----

// Stride 2 with padding 1: (8 + 2 - 3) / 2 + 1 = 4, not 5.

func.func @conv_strided_shape(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf32>) {
  %r = nn.conv2d %x, %w {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x5x5xf32>
  func.return
}

// CHECK-LABEL: "conv_strided_shape"
// CHECK:       %r = "nn.conv2d"(%x, %w)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result shape 1x8x5x5 does not match the inferred shape 1x8x4x4

// -----

func.func @conv_groups_input_channels(%x: tensor<1x6x8x8xf32>, %w: tensor<4x2x3x3xf32>) {
  %r = nn.conv2d %x, %w {groups = 4 : i64} : (tensor<1x6x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// CHECK-LABEL: "conv_groups_input_channels"
// CHECK:       %r = "nn.conv2d"(%x, %w)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: groups=4 must divide input channels 6 and output channels 4

// -----

func.func @conv_groups_output_channels(%x: tensor<1x4x8x8xf32>, %w: tensor<6x1x3x3xf32>) {
  %r = nn.conv2d %x, %w {groups = 4 : i64} : (tensor<1x4x8x8xf32>, tensor<6x1x3x3xf32>) -> tensor<1x6x6x6xf32>
  func.return
}

// CHECK-LABEL: "conv_groups_output_channels"
// CHECK:       %r = "nn.conv2d"(%x, %w)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: groups=4 must divide input channels 4 and output channels 6

// -----

func.func @conv_groups_zero(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf32>) {
  %r = nn.conv2d %x, %w {groups = 0 : i64} : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x6x6xf32>
  func.return
}

// CHECK-LABEL: "conv_groups_zero"
// CHECK:       %r = "nn.conv2d"(%x, %w)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: groups=0 must divide input channels 4 and output channels 8

// -----

// A depthwise weight (Cx1xKxK) without groups = C.

func.func @conv_weight_channels(%x: tensor<1x4x8x8xf32>, %w: tensor<4x1x3x3xf32>) {
  %r = nn.conv2d %x, %w : (tensor<1x4x8x8xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// CHECK-LABEL: "conv_weight_channels"
// CHECK:       %r = "nn.conv2d"(%x, %w)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: weight 4x1x3x3 with groups=1 expects an input with 1 channels, not 4

// -----

func.func @conv_bias_size(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf32>, %b: tensor<4xf32>) {
  %r = nn.conv2d %x, %w, %b : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>, tensor<4xf32>) -> tensor<1x8x6x6xf32>
  func.return
}

// CHECK-LABEL: "conv_bias_size"
// CHECK:       %r = "nn.conv2d"(%x, %w, %b)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: bias must have shape [8]

// -----

func.func @conv_bias_rank(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf32>, %b: tensor<1x8xf32>) {
  %r = nn.conv2d %x, %w, %b : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>, tensor<1x8xf32>) -> tensor<1x8x6x6xf32>
  func.return
}

// CHECK-LABEL: "conv_bias_rank"
// CHECK:       %r = "nn.conv2d"(%x, %w, %b)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: bias must have shape [8]

// -----

func.func @conv_window_too_large(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x9x9xf32>) {
  %r = nn.conv2d %x, %w : (tensor<1x4x8x8xf32>, tensor<8x4x9x9xf32>) -> tensor<1x8x1x1xf32>
  func.return
}

// CHECK-LABEL: "conv_window_too_large"
// CHECK:       %r = "nn.conv2d"(%x, %w)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: window 9 (dilation 1) does not fit an input of 8 with padding 0

// -----

func.func @conv_dilated_too_large(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf32>) {
  %r = nn.conv2d %x, %w {dilations = array<i64: 4, 4>} : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x1x1xf32>
  func.return
}

// CHECK-LABEL: "conv_dilated_too_large"
// CHECK:       %r = "nn.conv2d"(%x, %w)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: window 3 (dilation 4) does not fit an input of 8 with padding 0

// -----

func.func @conv_strides_length(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf32>) {
  %r = nn.conv2d %x, %w {strides = array<i64: 2>} : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x3x3xf32>
  func.return
}

// CHECK-LABEL: "conv_strides_length"
// CHECK:       %r = "nn.conv2d"(%x, %w)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: expected 2 strides, 2 dilations and 4 pads

// -----

func.func @conv_zero_stride(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf32>) {
  %r = nn.conv2d %x, %w {strides = array<i64: 0, 1>} : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x6x6xf32>
  func.return
}

// CHECK-LABEL: "conv_zero_stride"
// CHECK:       %r = "nn.conv2d"(%x, %w)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: strides and dilations must be >= 1 and pads >= 0

// -----

func.func @conv_negative_pad(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf32>) {
  %r = nn.conv2d %x, %w {pads = array<i64: -1, 0, 0, 0>} : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x5x6xf32>
  func.return
}

// CHECK-LABEL: "conv_negative_pad"
// CHECK:       %r = "nn.conv2d"(%x, %w)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: strides and dilations must be >= 1 and pads >= 0

// -----

func.func @conv_input_rank(%x: tensor<4x8x8xf32>, %w: tensor<8x4x3x3xf32>) {
  %r = nn.conv2d %x, %w : (tensor<4x8x8xf32>, tensor<8x4x3x3xf32>) -> tensor<8x6x6xf32>
  func.return
}

// CHECK-LABEL: "conv_input_rank"
// CHECK:       %r = "nn.conv2d"(%x, %w)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: conv2d expects rank-4 input and weight, got 4x8x8 and 8x4x3x3

// -----

func.func @matmul_shape(%a: tensor<4x8xf32>, %b: tensor<8x3xf32>) {
  %r = nn.matmul %a, %b : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x8xf32>
  func.return
}

// CHECK-LABEL: "matmul_shape"
// CHECK:       %r = "nn.matmul"(%a, %b)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result shape 4x8 does not match the inferred shape 4x3

// -----

func.func @matmul_inner_dim(%a: tensor<4x8xf32>, %b: tensor<7x3xf32>) {
  %r = nn.matmul %a, %b : (tensor<4x8xf32>, tensor<7x3xf32>) -> tensor<4x3xf32>
  func.return
}

// CHECK-LABEL: "matmul_inner_dim"
// CHECK:       %r = "nn.matmul"(%a, %b)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: matmul inner dimensions differ: 4x8 x 7x3

// -----

func.func @matmul_rank1(%a: tensor<8xf32>, %b: tensor<8x3xf32>) {
  %r = nn.matmul %a, %b : (tensor<8xf32>, tensor<8x3xf32>) -> tensor<3xf32>
  func.return
}

// CHECK-LABEL: "matmul_rank1"
// CHECK:       %r = "nn.matmul"(%a, %b)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: matmul expects operands of rank >= 2, got 8 and 8x3

// -----

func.func @matmul_batched_shape(%a: tensor<2x4x8xf32>, %b: tensor<8x3xf32>) {
  %r = nn.matmul %a, %b : (tensor<2x4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  func.return
}

// CHECK-LABEL: "matmul_batched_shape"
// CHECK:       %r = "nn.matmul"(%a, %b)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result shape 4x3 does not match the inferred shape 2x4x3

// -----

func.func @matmul_batch_mismatch(%a: tensor<2x4x8xf32>, %b: tensor<3x8x5xf32>) {
  %r = nn.matmul %a, %b : (tensor<2x4x8xf32>, tensor<3x8x5xf32>) -> tensor<2x4x5xf32>
  func.return
}

// CHECK-LABEL: "matmul_batch_mismatch"
// CHECK:       %r = "nn.matmul"(%a, %b)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: shapes 2, 3 do not broadcast

// -----

func.func @gemm_shape(%a: tensor<4x8xf32>, %b: tensor<8x3xf32>, %c: tensor<3xf32>) {
  %r = nn.gemm %a, %b, %c : (tensor<4x8xf32>, tensor<8x3xf32>, tensor<3xf32>) -> tensor<3x4xf32>
  func.return
}

// CHECK-LABEL: "gemm_shape"
// CHECK:       %r = "nn.gemm"(%a, %b, %c)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result shape 3x4 does not match the inferred shape 4x3

// -----

// b given as N x K without trans_b.

func.func @gemm_inner_dim(%a: tensor<4x8xf32>, %b: tensor<3x8xf32>, %c: tensor<3xf32>) {
  %r = nn.gemm %a, %b, %c : (tensor<4x8xf32>, tensor<3x8xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  func.return
}

// CHECK-LABEL: "gemm_inner_dim"
// CHECK:       %r = "nn.gemm"(%a, %b, %c)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: gemm inner dimensions differ: 4x8 x 3x8

// -----

// b given as K x N with trans_b.

func.func @gemm_trans_b_inner_dim(%a: tensor<4x8xf32>, %b: tensor<8x3xf32>, %c: tensor<3xf32>) {
  %r = nn.gemm %a, %b, %c {trans_b = true} : (tensor<4x8xf32>, tensor<8x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  func.return
}

// CHECK-LABEL: "gemm_trans_b_inner_dim"
// CHECK:       %r = "nn.gemm"(%a, %b, %c)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: gemm inner dimensions differ: 4x8 x 8x3 (b transposed)

// -----

func.func @gemm_bias_no_broadcast(%a: tensor<4x8xf32>, %b: tensor<8x3xf32>, %c: tensor<4xf32>) {
  %r = nn.gemm %a, %b, %c : (tensor<4x8xf32>, tensor<8x3xf32>, tensor<4xf32>) -> tensor<4x3xf32>
  func.return
}

// CHECK-LABEL: "gemm_bias_no_broadcast"
// CHECK:       %r = "nn.gemm"(%a, %b, %c)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: shapes 4x3, 4 do not broadcast

// -----

// A bias that broadcasts only by growing the result.

func.func @gemm_bias_grows_result(%a: tensor<4x8xf32>, %b: tensor<8x3xf32>, %c: tensor<2x4x3xf32>) {
  %r = nn.gemm %a, %b, %c : (tensor<4x8xf32>, tensor<8x3xf32>, tensor<2x4x3xf32>) -> tensor<4x3xf32>
  func.return
}

// CHECK-LABEL: "gemm_bias_grows_result"
// CHECK:       %r = "nn.gemm"(%a, %b, %c)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: gemm bias 2x4x3 does not broadcast to 4x3

// -----

func.func @gemm_rank3(%a: tensor<2x4x8xf32>, %b: tensor<8x3xf32>, %c: tensor<3xf32>) {
  %r = nn.gemm %a, %b, %c : (tensor<2x4x8xf32>, tensor<8x3xf32>, tensor<3xf32>) -> tensor<2x4x3xf32>
  func.return
}

// CHECK-LABEL: "gemm_rank3"
// CHECK:       %r = "nn.gemm"(%a, %b, %c)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: gemm expects 2-D operands, got 2x4x8 and 8x3
