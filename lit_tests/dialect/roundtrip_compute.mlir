// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s

// Round-trip of the compute ops: elementwise ops with numpy broadcasting, every
// nn.cmp predicate, activations, convolutions (bias, stride, padding,
// dilation, groups), matmul and gemm, pooling, reductions, softmax, concat,
// transpose and constants. Properties left at their default value (conv2d
// strides/pads/dilations/groups, pool strides/pads/dilations, gemm trans_b, reduce_mean
// keepdims, softmax axis) are not printed.

// Broadcasting: trailing dims, both sides, rank-0 scalar, unit dims on both sides.

// CHECK-LABEL: func.func @elementwise_binary(
// CHECK-NEXT:    %add = nn.add %a, %row : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:    %sub = nn.sub %col, %row : (tensor<3x1xf32>, tensor<4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:    %mul = nn.mul %a, %s : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:    %div = nn.div %p, %q : (tensor<1x3x1xf32>, tensor<2x1x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:    %same = nn.add %a, %a {note = "x"} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
func.func @elementwise_binary(%a: tensor<2x3x4xf32>, %row: tensor<4xf32>, %col: tensor<3x1xf32>, %s: tensor<f32>, %p: tensor<1x3x1xf32>, %q: tensor<2x1x4xf32>) {
  %add = nn.add %a, %row : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  %sub = nn.sub %col, %row : (tensor<3x1xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  %mul = nn.mul %a, %s : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3x4xf32>
  %div = nn.div %p, %q : (tensor<1x3x1xf32>, tensor<2x1x4xf32>) -> tensor<2x3x4xf32>
  %same = nn.add %a, %a {note = "x"} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  func.return
}

// Each predicate once; results are i1 tensors of the broadcast shape.

// CHECK-LABEL: func.func @compare(
// CHECK-NEXT:    %eq = nn.cmp %a, %b {predicate = "eq"} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %ne = nn.cmp %a, %row {predicate = "ne"} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %lt = nn.cmp %row, %a {predicate = "lt"} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %le = nn.cmp %a, %s {predicate = "le"} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %gt = nn.cmp %s, %s {predicate = "gt"} : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK-NEXT:    %ge = nn.cmp %row, %row {predicate = "ge"} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
func.func @compare(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>, %row: tensor<3xf32>, %s: tensor<f32>) {
  %eq = nn.cmp %a, %b {predicate = "eq"} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %ne = nn.cmp %a, %row {predicate = "ne"} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %lt = nn.cmp %row, %a {predicate = "lt"} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %le = nn.cmp %a, %s {predicate = "le"} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
  %gt = nn.cmp %s, %s {predicate = "gt"} : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %ge = nn.cmp %row, %row {predicate = "ge"} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  func.return
}

// Activations keep the operand type; clamp allows min == max; a sigmoid with TFLite Micro's
// cut-offs.

// CHECK-LABEL: func.func @elementwise_unary(
// CHECK-NEXT:    %relu = nn.relu %x : (tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
// CHECK-NEXT:    %sigmoid = nn.sigmoid %x : (tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
// CHECK-NEXT:    %tanh = nn.tanh %x : (tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
// CHECK-NEXT:    %relu6 = nn.clamp %x {min = 0.000000e+00 : f32, max = 6.000000e+00 : f32} : (tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
// CHECK-NEXT:    %hard = nn.clamp %x {min = -1.000000e+00 : f32, max = 1.000000e+00 : f32} : (tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
// CHECK-NEXT:    %fixed = nn.clamp %x {min = 2.500000e+00 : f32, max = 2.500000e+00 : f32} : (tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
// CHECK-NEXT:    %logistic = nn.sigmoid %x {exp_below = -9.000000e+00 : f32, one_above = 16.6190472 : f32} : (tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
func.func @elementwise_unary(%x: tensor<1x8x4x4xf32>) {
  %relu = nn.relu %x : (tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %sigmoid = nn.sigmoid %x : (tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %tanh = nn.tanh %x : (tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %relu6 = nn.clamp %x {min = 0.0 : f32, max = 6.0 : f32} : (tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %hard = nn.clamp %x {min = -1.0 : f32, max = 1.0 : f32} : (tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %fixed = nn.clamp %x {min = 2.5 : f32, max = 2.5 : f32} : (tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %logistic = nn.sigmoid %x {exp_below = -9.0 : f32, one_above = 16.619047164916992 : f32} : (tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  func.return
}

// NCHW input, OIHW weight. Output H = (16 + pad_total - dil*(k-1) - 1) / stride + 1:
// plain 14, strided+padded 8, asymmetric pads (bottom/right only) 8, dilated 12,
// depthwise (groups = C = 8, weight 8x1x3x3) keeps 16, grouped (2 groups of 4),
// rectangular kernel with stride 1x2 gives 16x6, TFLite Micro's order of sums. Explicit
// defaults are elided.

// CHECK-LABEL: func.func @conv2d(
// CHECK-NEXT:    %plain = nn.conv2d %x, %w : (tensor<1x3x16x16xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x14x14xf32>
// CHECK-NEXT:    %bias = nn.conv2d %x, %w, %b : (tensor<1x3x16x16xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>) -> tensor<1x8x14x14xf32>
// CHECK-NEXT:    %strided = nn.conv2d %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x16x16xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>) -> tensor<1x8x8x8xf32>
// CHECK-NEXT:    %asym = nn.conv2d %x, %w {strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 1, 1>} : (tensor<1x3x16x16xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x8x8xf32>
// CHECK-NEXT:    %dilated = nn.conv2d %x, %w {dilations = array<i64: 2, 2>} : (tensor<1x3x16x16xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x12x12xf32>
// CHECK-NEXT:    %depthwise = nn.conv2d %y, %dw, %b {pads = array<i64: 1, 1, 1, 1>, groups = 8 : i64} : (tensor<1x8x16x16xf32>, tensor<8x1x3x3xf32>, tensor<8xf32>) -> tensor<1x8x16x16xf32>
// CHECK-NEXT:    %grouped = nn.conv2d %y, %gw {groups = 2 : i64} : (tensor<1x8x16x16xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x16x16xf32>
// CHECK-NEXT:    %defaults = nn.conv2d %x, %w : (tensor<1x3x16x16xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x14x14xf32>
// CHECK-NEXT:    %rect = nn.conv2d %x, %rw {strides = array<i64: 1, 2>} : (tensor<1x3x16x16xf32>, tensor<8x3x1x5xf32>) -> tensor<1x8x16x6xf32>
// CHECK-NEXT:    %tflm = nn.conv2d %x, %w, %b {sum_order = "sequential"} : (tensor<1x3x16x16xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>) -> tensor<1x8x14x14xf32>
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
func.func @conv2d(%x: tensor<1x3x16x16xf32>, %w: tensor<8x3x3x3xf32>, %b: tensor<8xf32>, %y: tensor<1x8x16x16xf32>, %dw: tensor<8x1x3x3xf32>, %gw: tensor<4x4x1x1xf32>, %rw: tensor<8x3x1x5xf32>) {
  %plain = nn.conv2d %x, %w : (tensor<1x3x16x16xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x14x14xf32>
  %bias = nn.conv2d %x, %w, %b : (tensor<1x3x16x16xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>) -> tensor<1x8x14x14xf32>
  %strided = nn.conv2d %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x16x16xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>) -> tensor<1x8x8x8xf32>
  %asym = nn.conv2d %x, %w {strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 1, 1>} : (tensor<1x3x16x16xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x8x8xf32>
  %dilated = nn.conv2d %x, %w {dilations = array<i64: 2, 2>} : (tensor<1x3x16x16xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x12x12xf32>
  %depthwise = nn.conv2d %y, %dw, %b {pads = array<i64: 1, 1, 1, 1>, groups = 8 : i64} : (tensor<1x8x16x16xf32>, tensor<8x1x3x3xf32>, tensor<8xf32>) -> tensor<1x8x16x16xf32>
  %grouped = nn.conv2d %y, %gw {groups = 2 : i64} : (tensor<1x8x16x16xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x16x16xf32>
  %defaults = nn.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x16x16xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x14x14xf32>
  %rect = nn.conv2d %x, %rw {strides = array<i64: 1, 2>} : (tensor<1x3x16x16xf32>, tensor<8x3x1x5xf32>) -> tensor<1x8x16x6xf32>
  %tflm = nn.conv2d %x, %w, %b {sum_order = "sequential"} : (tensor<1x3x16x16xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>) -> tensor<1x8x14x14xf32>
  func.return
}

// matmul: 2-D, batched, batched x 2-D, and broadcast batch dims (2x1 with 3).
// gemm: bias broadcast from [N], [1,N] and [M,N]; trans_b reads b as N x K.

// CHECK-LABEL: func.func @matmul_gemm(
// CHECK-NEXT:    %mm = nn.matmul %a, %b : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:    %batched = nn.matmul %ba, %bb : (tensor<2x4x8xf32>, tensor<2x8x3xf32>) -> tensor<2x4x3xf32>
// CHECK-NEXT:    %shared = nn.matmul %ba, %b : (tensor<2x4x8xf32>, tensor<8x3xf32>) -> tensor<2x4x3xf32>
// CHECK-NEXT:    %bcast = nn.matmul %p, %q : (tensor<2x1x4x8xf32>, tensor<3x8x5xf32>) -> tensor<2x3x4x5xf32>
// CHECK-NEXT:    %gemm = nn.gemm %a, %b, %c : (tensor<4x8xf32>, tensor<8x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:    %gemm_t = nn.gemm %a, %bt, %c2 {trans_b = true} : (tensor<4x8xf32>, tensor<3x8xf32>, tensor<1x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:    %gemm_f = nn.gemm %a, %b, %c : (tensor<4x8xf32>, tensor<8x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:    %gemm_full = nn.gemm %a, %b, %c4 : (tensor<4x8xf32>, tensor<8x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
func.func @matmul_gemm(%a: tensor<4x8xf32>, %b: tensor<8x3xf32>, %ba: tensor<2x4x8xf32>, %bb: tensor<2x8x3xf32>, %p: tensor<2x1x4x8xf32>, %q: tensor<3x8x5xf32>, %bt: tensor<3x8xf32>, %c: tensor<3xf32>, %c2: tensor<1x3xf32>, %c4: tensor<4x3xf32>) {
  %mm = nn.matmul %a, %b : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  %batched = nn.matmul %ba, %bb : (tensor<2x4x8xf32>, tensor<2x8x3xf32>) -> tensor<2x4x3xf32>
  %shared = nn.matmul %ba, %b : (tensor<2x4x8xf32>, tensor<8x3xf32>) -> tensor<2x4x3xf32>
  %bcast = nn.matmul %p, %q : (tensor<2x1x4x8xf32>, tensor<3x8x5xf32>) -> tensor<2x3x4x5xf32>
  %gemm = nn.gemm %a, %b, %c : (tensor<4x8xf32>, tensor<8x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %gemm_t = nn.gemm %a, %bt, %c2 {trans_b = true} : (tensor<4x8xf32>, tensor<3x8xf32>, tensor<1x3xf32>) -> tensor<4x3xf32>
  %gemm_f = nn.gemm %a, %b, %c {trans_b = false} : (tensor<4x8xf32>, tensor<8x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %gemm_full = nn.gemm %a, %b, %c4 : (tensor<4x8xf32>, tensor<8x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  func.return
}

// Windows with and without stride and padding; explicit defaults are elided.

// CHECK-LABEL: func.func @pooling(
// CHECK-NEXT:    %max = nn.max_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x8x16x16xf32>) -> tensor<1x8x8x8xf32>
// CHECK-NEXT:    %max_pad = nn.max_pool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x8x16x16xf32>) -> tensor<1x8x8x8xf32>
// CHECK-NEXT:    %avg = nn.avg_pool2d %x {kernel = array<i64: 2, 2>} : (tensor<1x8x16x16xf32>) -> tensor<1x8x15x15xf32>
// CHECK-NEXT:    %avg_same = nn.avg_pool2d %x {kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x8x16x16xf32>) -> tensor<1x8x16x16xf32>
// CHECK-NEXT:    %avg_defaults = nn.avg_pool2d %x {kernel = array<i64: 2, 2>} : (tensor<1x8x16x16xf32>) -> tensor<1x8x15x15xf32>
// CHECK-NEXT:    %max_dilated = nn.max_pool2d %x {kernel = array<i64: 2, 2>, pads = array<i64: 2, 0, 0, 0>, dilations = array<i64: 3, 1>} : (tensor<1x8x16x16xf32>) -> tensor<1x8x15x15xf32>
// CHECK-NEXT:    %avg_dilated = nn.avg_pool2d %x {kernel = array<i64: 3, 2>, strides = array<i64: 2, 1>, dilations = array<i64: 2, 4>} : (tensor<1x8x16x16xf32>) -> tensor<1x8x6x12xf32>
// CHECK-NEXT:    %gap = nn.global_avg_pool %x : (tensor<1x8x16x16xf32>) -> tensor<1x8x1x1xf32>
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
func.func @pooling(%x: tensor<1x8x16x16xf32>) {
  %max = nn.max_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x8x16x16xf32>) -> tensor<1x8x8x8xf32>
  %max_pad = nn.max_pool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x8x16x16xf32>) -> tensor<1x8x8x8xf32>
  %avg = nn.avg_pool2d %x {kernel = array<i64: 2, 2>} : (tensor<1x8x16x16xf32>) -> tensor<1x8x15x15xf32>
  %avg_same = nn.avg_pool2d %x {kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x8x16x16xf32>) -> tensor<1x8x16x16xf32>
  %avg_defaults = nn.avg_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>} : (tensor<1x8x16x16xf32>) -> tensor<1x8x15x15xf32>
  %max_dilated = nn.max_pool2d %x {kernel = array<i64: 2, 2>, pads = array<i64: 2, 0, 0, 0>, dilations = array<i64: 3, 1>} : (tensor<1x8x16x16xf32>) -> tensor<1x8x15x15xf32>
  %avg_dilated = nn.avg_pool2d %x {kernel = array<i64: 3, 2>, strides = array<i64: 2, 1>, dilations = array<i64: 2, 4>} : (tensor<1x8x16x16xf32>) -> tensor<1x8x6x12xf32>
  %gap = nn.global_avg_pool %x : (tensor<1x8x16x16xf32>) -> tensor<1x8x1x1xf32>
  func.return
}

// Reductions keep reduced axes by default; negative axes count from the end.

// CHECK-LABEL: func.func @reductions(
// CHECK-NEXT:    %keep = nn.reduce_mean %x {axes = array<i64: 2, 3>} : (tensor<1x8x16x16xf32>) -> tensor<1x8x1x1xf32>
// CHECK-NEXT:    %drop = nn.reduce_mean %x {axes = array<i64: 2, 3>, keepdims = false} : (tensor<1x8x16x16xf32>) -> tensor<1x8xf32>
// CHECK-NEXT:    %neg = nn.reduce_mean %x {axes = array<i64: -1>} : (tensor<1x8x16x16xf32>) -> tensor<1x8x16x1xf32>
// CHECK-NEXT:    %keep_explicit = nn.reduce_mean %x {axes = array<i64: 1>} : (tensor<1x8x16x16xf32>) -> tensor<1x1x16x16xf32>
// CHECK-NEXT:    %sum = nn.reduce_sum %x {axes = array<i64: 1>} : (tensor<1x8x16x16xf32>) -> tensor<1x1x16x16xf32>
// CHECK-NEXT:    %rmax = nn.reduce_max %x {axes = array<i64: -1, 0>, keepdims = false} : (tensor<1x8x16x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT:    %rmin = nn.reduce_min %x {axes = array<i64: 0, 1, 2, 3>} : (tensor<1x8x16x16xf32>) -> tensor<1x1x1x1xf32>
// CHECK-NEXT:    %prod = nn.reduce_prod %x {axes = array<i64: 2>, keepdims = false} : (tensor<1x8x16x16xf32>) -> tensor<1x8x16xf32>
// CHECK-NEXT:    %first_max = nn.arg_max %x {axis = 1 : i64} : (tensor<1x8x16x16xf32>) -> tensor<1x1x16x16xi64>
// CHECK-NEXT:    %last_min = nn.arg_min %x {axis = -1 : i64, keepdims = false, select_last_index = true} : (tensor<1x8x16x16xf32>) -> tensor<1x8x16xi64>
// CHECK-NEXT:    %soft = nn.softmax %logits : (tensor<2x10xf32>) -> tensor<2x10xf32>
// CHECK-NEXT:    %soft_last = nn.softmax %logits : (tensor<2x10xf32>) -> tensor<2x10xf32>
// CHECK-NEXT:    %soft0 = nn.softmax %logits {axis = 0 : i64} : (tensor<2x10xf32>) -> tensor<2x10xf32>
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
func.func @reductions(%x: tensor<1x8x16x16xf32>, %logits: tensor<2x10xf32>) {
  %keep = nn.reduce_mean %x {axes = array<i64: 2, 3>} : (tensor<1x8x16x16xf32>) -> tensor<1x8x1x1xf32>
  %drop = nn.reduce_mean %x {axes = array<i64: 2, 3>, keepdims = false} : (tensor<1x8x16x16xf32>) -> tensor<1x8xf32>
  %neg = nn.reduce_mean %x {axes = array<i64: -1>} : (tensor<1x8x16x16xf32>) -> tensor<1x8x16x1xf32>
  %keep_explicit = nn.reduce_mean %x {axes = array<i64: 1>, keepdims = true} : (tensor<1x8x16x16xf32>) -> tensor<1x1x16x16xf32>
  %sum = nn.reduce_sum %x {axes = array<i64: 1>} : (tensor<1x8x16x16xf32>) -> tensor<1x1x16x16xf32>
  %rmax = nn.reduce_max %x {axes = array<i64: -1, 0>, keepdims = false} : (tensor<1x8x16x16xf32>) -> tensor<8x16xf32>
  %rmin = nn.reduce_min %x {axes = array<i64: 0, 1, 2, 3>} : (tensor<1x8x16x16xf32>) -> tensor<1x1x1x1xf32>
  %prod = nn.reduce_prod %x {axes = array<i64: 2>, keepdims = false} : (tensor<1x8x16x16xf32>) -> tensor<1x8x16xf32>
  %first_max = nn.arg_max %x {axis = 1 : i64, select_last_index = false} : (tensor<1x8x16x16xf32>) -> tensor<1x1x16x16xi64>
  %last_min = nn.arg_min %x {axis = -1 : i64, keepdims = false, select_last_index = true} : (tensor<1x8x16x16xf32>) -> tensor<1x8x16xi64>
  %soft = nn.softmax %logits : (tensor<2x10xf32>) -> tensor<2x10xf32>
  %soft_last = nn.softmax %logits {axis = -1 : i64} : (tensor<2x10xf32>) -> tensor<2x10xf32>
  %soft0 = nn.softmax %logits {axis = 0 : i64} : (tensor<2x10xf32>) -> tensor<2x10xf32>
  func.return
}

// concat along a positive and a negative axis, of three and of one operand; transposes.

// CHECK-LABEL: func.func @data_movement(
// CHECK-NEXT:    %cat = nn.concat %x, %y {axis = 1 : i64} : (tensor<1x8x4x6xf32>, tensor<1x4x4x6xf32>) -> tensor<1x12x4x6xf32>
// CHECK-NEXT:    %cat_neg = nn.concat %a, %b, %a {axis = -1 : i64} : (tensor<2x3xf32>, tensor<2x5xf32>, tensor<2x3xf32>) -> tensor<2x11xf32>
// CHECK-NEXT:    %cat_one = nn.concat %a {axis = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %nhwc = nn.transpose %x {perm = array<i64: 0, 2, 3, 1>} : (tensor<1x8x4x6xf32>) -> tensor<1x4x6x8xf32>
// CHECK-NEXT:    %t = nn.transpose %a {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:    %id = nn.transpose %a {perm = array<i64: 0, 1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
func.func @data_movement(%x: tensor<1x8x4x6xf32>, %y: tensor<1x4x4x6xf32>, %a: tensor<2x3xf32>, %b: tensor<2x5xf32>) {
  %cat = nn.concat %x, %y {axis = 1 : i64} : (tensor<1x8x4x6xf32>, tensor<1x4x4x6xf32>) -> tensor<1x12x4x6xf32>
  %cat_neg = nn.concat %a, %b, %a {axis = -1 : i64} : (tensor<2x3xf32>, tensor<2x5xf32>, tensor<2x3xf32>) -> tensor<2x11xf32>
  %cat_one = nn.concat %a {axis = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %nhwc = nn.transpose %x {perm = array<i64: 0, 2, 3, 1>} : (tensor<1x8x4x6xf32>) -> tensor<1x4x6x8xf32>
  %t = nn.transpose %a {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %id = nn.transpose %a {perm = array<i64: 0, 1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}

// Splat and element-list constants of f32, i1 and i64, and a discardable attribute.

// CHECK-LABEL: func.func @constants(
// CHECK-NEXT:    %splat = nn.constant dense<5.000000e-01> : tensor<2x2xf32>
// CHECK-NEXT:    %vec = nn.constant dense<[1.000000e+00, -2.000000e+00, 3.000000e+00]> : tensor<3xf32>
// CHECK-NEXT:    %mat = nn.constant dense<[[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
// CHECK-NEXT:    %flag = nn.constant dense<true> : tensor<i1>
// CHECK-NEXT:    %mask = nn.constant dense<[true, false]> : tensor<2xi1>
// CHECK-NEXT:    %idx = nn.constant dense<[0, 2]> : tensor<2xi64>
// CHECK-NEXT:    %tagged = nn.constant dense<1.000000e+00> : tensor<1xf32> {note = "one"}
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
func.func @constants() {
  %splat = nn.constant dense<0.5> : tensor<2x2xf32>
  %vec = nn.constant dense<[1.0, -2.0, 3.0]> : tensor<3xf32>
  %mat = nn.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %flag = nn.constant dense<true> : tensor<i1>
  %mask = nn.constant dense<[true, false]> : tensor<2xi1>
  %idx = nn.constant dense<[0, 2]> : tensor<2xi64>
  %tagged = nn.constant dense<1.0> : tensor<1xf32> {note = "one"}
  func.return
}
