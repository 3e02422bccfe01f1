// RUN: xdsl-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Verifier errors of the pooling and reduction ops (nn.max_pool2d,
// nn.avg_pool2d, nn.global_avg_pool, nn.reduce_mean and the other reductions, nn.arg_max,
// nn.arg_min, nn.softmax): result
// shapes, window parameters, input ranks, and axes.

func.func @max_pool_shape(%x: tensor<1x8x16x16xf32>) {
  %r = nn.max_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x8x16x16xf32>) -> tensor<1x8x16x16xf32>
  func.return
}

// CHECK-LABEL: "max_pool_shape"
// CHECK:       %r = "nn.max_pool2d"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result shape 1x8x16x16 does not match the inferred shape 1x8x8x8

// -----

func.func @avg_pool_shape(%x: tensor<1x8x16x16xf32>) {
  %r = nn.avg_pool2d %x {kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x8x16x16xf32>) -> tensor<1x8x14x14xf32>
  func.return
}

// CHECK-LABEL: "avg_pool_shape"
// CHECK:       %r = "nn.avg_pool2d"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result shape 1x8x14x14 does not match the inferred shape 1x8x16x16

// -----

func.func @pool_pad_not_below_kernel(%x: tensor<1x8x16x16xf32>) {
  %r = nn.max_pool2d %x {kernel = array<i64: 2, 2>, pads = array<i64: 0, 0, 2, 0>} : (tensor<1x8x16x16xf32>) -> tensor<1x8x17x15xf32>
  func.return
}

// CHECK-LABEL: "pool_pad_not_below_kernel"
// CHECK:       %r = "nn.max_pool2d"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: pooling pads must be smaller than the kernel

// -----

func.func @pool_pad_not_below_dilated_kernel(%x: tensor<1x8x16x16xf32>) {
  %r = nn.avg_pool2d %x {kernel = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 4>, dilations = array<i64: 1, 3>} : (tensor<1x8x16x16xf32>) -> tensor<1x8x15x17xf32>
  func.return
}

// CHECK-LABEL: "pool_pad_not_below_dilated_kernel"
// CHECK:       %r = "nn.avg_pool2d"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: pooling pads must be smaller than the kernel

// -----

func.func @pool_kernel_length(%x: tensor<1x8x16x16xf32>) {
  %r = nn.avg_pool2d %x {kernel = array<i64: 2>} : (tensor<1x8x16x16xf32>) -> tensor<1x8x15x15xf32>
  func.return
}

// CHECK-LABEL: "pool_kernel_length"
// CHECK:       %r = "nn.avg_pool2d"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: expected a kernel of 2 positive sizes

// -----

func.func @pool_zero_kernel(%x: tensor<1x8x16x16xf32>) {
  %r = nn.avg_pool2d %x {kernel = array<i64: 0, 2>} : (tensor<1x8x16x16xf32>) -> tensor<1x8x17x15xf32>
  func.return
}

// CHECK-LABEL: "pool_zero_kernel"
// CHECK:       %r = "nn.avg_pool2d"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: expected a kernel of 2 positive sizes

// -----

func.func @pool_zero_stride(%x: tensor<1x8x16x16xf32>) {
  %r = nn.max_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 0>} : (tensor<1x8x16x16xf32>) -> tensor<1x8x8x8xf32>
  func.return
}

// CHECK-LABEL: "pool_zero_stride"
// CHECK:       %r = "nn.max_pool2d"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: strides and dilations must be >= 1 and pads >= 0

// -----

func.func @pool_input_rank(%x: tensor<8x16x16xf32>) {
  %r = nn.max_pool2d %x {kernel = array<i64: 2, 2>} : (tensor<8x16x16xf32>) -> tensor<8x15x15xf32>
  func.return
}

// CHECK-LABEL: "pool_input_rank"
// CHECK:       %r = "nn.max_pool2d"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: pooling expects a rank-4 input, got 8x16x16

// -----

func.func @global_avg_pool_shape(%x: tensor<1x8x16x16xf32>) {
  %r = nn.global_avg_pool %x : (tensor<1x8x16x16xf32>) -> tensor<1x8xf32>
  func.return
}

// CHECK-LABEL: "global_avg_pool_shape"
// CHECK:       %r = "nn.global_avg_pool"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result shape 1x8 does not match the inferred shape 1x8x1x1

// -----

func.func @global_avg_pool_rank(%x: tensor<8x16xf32>) {
  %r = nn.global_avg_pool %x : (tensor<8x16xf32>) -> tensor<8x16x1x1xf32>
  func.return
}

// CHECK-LABEL: "global_avg_pool_rank"
// CHECK:       %r = "nn.global_avg_pool"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: global_avg_pool expects a rank-4 input, got rank 2

// -----

// keepdims defaults to true.

func.func @reduce_mean_shape(%x: tensor<1x8x16x16xf32>) {
  %r = nn.reduce_mean %x {axes = array<i64: 2, 3>} : (tensor<1x8x16x16xf32>) -> tensor<1x8xf32>
  func.return
}

// CHECK-LABEL: "reduce_mean_shape"
// CHECK:       %r = "nn.reduce_mean"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result shape 1x8 does not match the inferred shape 1x8x1x1

// -----

func.func @reduce_mean_repeated_axis(%x: tensor<1x8x16x16xf32>) {
  %r = nn.reduce_mean %x {axes = array<i64: 2, 2>} : (tensor<1x8x16x16xf32>) -> tensor<1x8x1x16xf32>
  func.return
}

// CHECK-LABEL: "reduce_mean_repeated_axis"
// CHECK:       %r = "nn.reduce_mean"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: axes [2, 2] repeat an axis

// -----

// The same axis written once from the front and once from the back.

func.func @reduce_mean_repeated_negative_axis(%x: tensor<1x8x16x16xf32>) {
  %r = nn.reduce_mean %x {axes = array<i64: 3, -1>, keepdims = false} : (tensor<1x8x16x16xf32>) -> tensor<1x8x16xf32>
  func.return
}

// CHECK-LABEL: "reduce_mean_repeated_negative_axis"
// CHECK:       %r = "nn.reduce_mean"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: axes [3, -1] repeat an axis

// -----

func.func @reduce_mean_axis_range(%x: tensor<1x8x16x16xf32>) {
  %r = nn.reduce_mean %x {axes = array<i64: 4>} : (tensor<1x8x16x16xf32>) -> tensor<1x8x16x16xf32>
  func.return
}

// CHECK-LABEL: "reduce_mean_axis_range"
// CHECK:       %r = "nn.reduce_mean"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: axis 4 is out of range for rank 4

// -----

// The other reductions share reduce_mean's shape rule.

func.func @reduce_max_shape(%x: tensor<2x3x4xf32>) {
  %r = nn.reduce_max %x {axes = array<i64: 1>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  func.return
}

// CHECK-LABEL: "reduce_max_shape"
// CHECK:       %r = "nn.reduce_max"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result shape 2x1x4 does not match the inferred shape 2x4

// -----

func.func @reduce_prod_axis_range(%x: tensor<2x3x4xf32>) {
  %r = nn.reduce_prod %x {axes = array<i64: -4>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  func.return
}

// CHECK-LABEL: "reduce_prod_axis_range"
// CHECK:       %r = "nn.reduce_prod"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: axis -4 is out of range for rank 3

// -----

// Indices are i64.

func.func @arg_max_element_type(%x: tensor<2x3x4xf32>) {
  %r = nn.arg_max %x {axis = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  func.return
}

// CHECK-LABEL: "arg_max_element_type"
// CHECK:       %r = "nn.arg_max"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result element type must be i64, got f32

// -----

func.func @arg_min_shape(%x: tensor<2x3x4xf32>) {
  %r = nn.arg_min %x {axis = -1 : i64, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<2x3x1xi64>
  func.return
}

// CHECK-LABEL: "arg_min_shape"
// CHECK:       %r = "nn.arg_min"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result shape 2x3x1 does not match the inferred shape 2x3

// -----

func.func @softmax_shape(%x: tensor<2x10xf32>) {
  %r = nn.softmax %x : (tensor<2x10xf32>) -> tensor<2x1xf32>
  func.return
}

// CHECK-LABEL: "softmax_shape"
// CHECK:       %r = "nn.softmax"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result shape 2x1 does not match the inferred shape 2x10

// -----

func.func @softmax_axis_range(%x: tensor<2x10xf32>) {
  %r = nn.softmax %x {axis = -3 : i64} : (tensor<2x10xf32>) -> tensor<2x10xf32>
  func.return
}

// CHECK-LABEL: "softmax_axis_range"
// CHECK:       %r = "nn.softmax"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: axis -3 is out of range for rank 2
