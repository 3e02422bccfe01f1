// RUN: xdsl-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Verifier errors of nn.slice, nn.pad, nn.pow, nn.sqrt, nn.exp, nn.neg and of
// nn.cmp on integers: result shapes and element types, slice steps, axes and
// bound lists and slices that select nothing, negative or miscounted pads,
// reflect pads wider than the input, unknown pad modes, and compares of mixed
// or unsupported element types. Other compute ops stay f32-only.

// Result shape must be the selected counts.

func.func @slice_shape(%x: tensor<4x6xf32>) {
  %r = nn.slice %x {starts = array<i64: 1>, ends = array<i64: 3>} : (tensor<4x6xf32>) -> tensor<3x6xf32>
  func.return
}

// CHECK-LABEL: "slice_shape"
// CHECK:       %r = "nn.slice"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result shape 3x6 does not match the inferred shape 2x6

// -----

// The result keeps the input's element type.

func.func @slice_element_type(%x: tensor<4x6xi64>) {
  %r = nn.slice %x {starts = array<i64: 1>, ends = array<i64: 3>} : (tensor<4x6xi64>) -> tensor<2x6xf32>
  func.return
}

// CHECK-LABEL: "slice_element_type"
// CHECK:       %r = "nn.slice"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result element type must be i64, got f32

// -----

func.func @slice_zero_step(%x: tensor<4x6xf32>) {
  %r = nn.slice %x {starts = array<i64: 0>, ends = array<i64: 4>, steps = array<i64: 0>} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  func.return
}

// CHECK-LABEL: "slice_zero_step"
// CHECK:       %r = "nn.slice"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: slice step on axis 0 must not be 0

// -----

// Bounds that select nothing (after clamping) are refused.

func.func @slice_empty(%x: tensor<4x6xf32>) {
  %r = nn.slice %x {starts = array<i64: -1>, ends = array<i64: 100>, axes = array<i64: 1>, steps = array<i64: -1>} : (tensor<4x6xf32>) -> tensor<4x1xf32>
  func.return
}

// CHECK-LABEL: "slice_empty"
// CHECK:       %r = "nn.slice"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: slice selects no element on axis 1 (size 6)

// -----

func.func @slice_repeated_axis(%x: tensor<4x6xf32>) {
  %r = nn.slice %x {starts = array<i64: 0, 0>, ends = array<i64: 1, 1>, axes = array<i64: 1, -1>} : (tensor<4x6xf32>) -> tensor<4x1xf32>
  func.return
}

// CHECK-LABEL: "slice_repeated_axis"
// CHECK:       %r = "nn.slice"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: slice axes [1, -1] repeat an axis

// -----

func.func @slice_axis_range(%x: tensor<4x6xf32>) {
  %r = nn.slice %x {starts = array<i64: 0>, ends = array<i64: 1>, axes = array<i64: -3>} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  func.return
}

// CHECK-LABEL: "slice_axis_range"
// CHECK:       %r = "nn.slice"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: axis -3 is out of range for rank 2

// -----

func.func @slice_lengths(%x: tensor<4x6xf32>) {
  %r = nn.slice %x {starts = array<i64: 0, 0>, ends = array<i64: 1, 1>, steps = array<i64: 1>} : (tensor<4x6xf32>) -> tensor<1x1xf32>
  func.return
}

// CHECK-LABEL: "slice_lengths"
// CHECK:       %r = "nn.slice"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: slice needs as many starts, ends, axes and steps, got 2, 2, 2 and 1

// -----

func.func @pad_shape(%x: tensor<4x6xf32>) {
  %r = nn.pad %x {pads = array<i64: 1, 2, 0, 3>} : (tensor<4x6xf32>) -> tensor<5x10xf32>
  func.return
}

// CHECK-LABEL: "pad_shape"
// CHECK:       %r = "nn.pad"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result shape 5x10 does not match the inferred shape 5x11

// -----

func.func @pad_negative(%x: tensor<4x6xf32>) {
  %r = nn.pad %x {pads = array<i64: 1, -2, 0, 3>} : (tensor<4x6xf32>) -> tensor<5x7xf32>
  func.return
}

// CHECK-LABEL: "pad_negative"
// CHECK:       %r = "nn.pad"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: pads [1, -2, 0, 3] must not be negative

// -----

func.func @pad_count(%x: tensor<4x6xf32>) {
  %r = nn.pad %x {pads = array<i64: 1, 2>} : (tensor<4x6xf32>) -> tensor<7x6xf32>
  func.return
}

// CHECK-LABEL: "pad_count"
// CHECK:       %r = "nn.pad"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: pad of a rank-2 input needs 4 pads, got 2

// -----

// reflect mirrors once: each pad must be smaller than its dimension.

func.func @pad_reflect_too_wide(%x: tensor<4x6xf32>) {
  %r = nn.pad %x {pads = array<i64: 0, 0, 4, 0>, mode = "reflect"} : (tensor<4x6xf32>) -> tensor<8x6xf32>
  func.return
}

// CHECK-LABEL: "pad_reflect_too_wide"
// CHECK:       %r = "nn.pad"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: reflect pad of 4 on axis 0 needs a dimension larger than the pad, got 4

// -----

func.func @pad_mode(%x: tensor<4x6xf32>) {
  %r = nn.pad %x {pads = array<i64: 0, 0, 1, 0>, mode = "wrap"} : (tensor<4x6xf32>) -> tensor<5x6xf32>
  func.return
}

// CHECK-LABEL: "pad_mode"
// CHECK:       %r = "nn.pad"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: unknown pad mode 'wrap', expected one of constant, reflect, edge

// -----

func.func @pow_shape(%a: tensor<2x3xf32>, %b: tensor<3xf32>) {
  %r = nn.pow %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return
}

// CHECK-LABEL: "pow_shape"
// CHECK:       %r = "nn.pow"(%a, %b)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result shape 3 does not match the inferred shape 2x3

// -----

func.func @pow_no_broadcast(%a: tensor<2x3xf32>, %b: tensor<2xf32>) {
  %r = nn.pow %a, %b : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  func.return
}

// CHECK-LABEL: "pow_no_broadcast"
// CHECK:       %r = "nn.pow"(%a, %b)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: shapes 2x3, 2 do not broadcast

// -----

func.func @sqrt_shape(%x: tensor<4x6xf32>) {
  %r = nn.sqrt %x : (tensor<4x6xf32>) -> tensor<6x4xf32>
  func.return
}

// CHECK-LABEL: "sqrt_shape"
// CHECK:       %r = "nn.sqrt"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result shape 6x4 does not match the inferred shape 4x6

// -----

func.func @exp_result_i1(%x: tensor<4xf32>) {
  %r = nn.exp %x : (tensor<4xf32>) -> tensor<4xi1>
  func.return
}

// CHECK-LABEL: "exp_result_i1"
// CHECK:       %r = "nn.exp"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result element type must be f32, got i1

// -----

func.func @neg_shape(%x: tensor<4xf32>) {
  %r = nn.neg %x : (tensor<4xf32>) -> tensor<1x4xf32>
  func.return
}

// CHECK-LABEL: "neg_shape"
// CHECK:       %r = "nn.neg"(%x)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result shape 1x4 does not match the inferred shape 4

// -----

// nn.cmp compares one element type: f32 or a signless integer of 8 to 64 bits.

func.func @cmp_mixed_types(%a: tensor<3xi64>, %b: tensor<3xf32>) {
  %r = nn.cmp %a, %b {predicate = "lt"} : (tensor<3xi64>, tensor<3xf32>) -> tensor<3xi1>
  func.return
}

// CHECK-LABEL: "cmp_mixed_types"
// CHECK:       %r = "nn.cmp"(%a, %b)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: operands must have one element type, got i64 and f32

// -----

func.func @cmp_widths(%a: tensor<3xi32>, %b: tensor<3xi64>) {
  %r = nn.cmp %a, %b {predicate = "eq"} : (tensor<3xi32>, tensor<3xi64>) -> tensor<3xi1>
  func.return
}

// CHECK-LABEL: "cmp_widths"
// CHECK:       %r = "nn.cmp"(%a, %b)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: operands must have one element type, got i32 and i64

// -----

func.func @cmp_i1(%a: tensor<3xi1>) {
  %r = nn.cmp %a, %a {predicate = "eq"} : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
  func.return
}

// CHECK-LABEL: "cmp_i1"
// CHECK:       %r = "nn.cmp"(%a, %a)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: operands must be f32, f16 or signless integers of 8, 16, 32 or 64 bits, got i1

// -----

func.func @cmp_unsigned(%a: tensor<3xui32>) {
  %r = nn.cmp %a, %a {predicate = "ge"} : (tensor<3xui32>, tensor<3xui32>) -> tensor<3xi1>
  func.return
}

// CHECK-LABEL: "cmp_unsigned"
// CHECK:       %r = "nn.cmp"(%a, %a)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: operands must be f32, f16 or signless integers of 8, 16, 32 or 64 bits, got ui32

// -----

func.func @cmp_f64(%a: tensor<3xf64>) {
  %r = nn.cmp %a, %a {predicate = "ge"} : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xi1>
  func.return
}

// CHECK-LABEL: "cmp_f64"
// CHECK:       %r = "nn.cmp"(%a, %a)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: operands must be f32, f16 or signless integers of 8, 16, 32 or 64 bits, got f64

// -----

func.func @cmp_int_result(%a: tensor<3xi64>) {
  %r = nn.cmp %a, %a {predicate = "ge"} : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  func.return
}

// CHECK-LABEL: "cmp_int_result"
// CHECK:       %r = "nn.cmp"(%a, %a)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: result element type must be i1, got i64

// -----

// nn.pad and the float unary ops take f32 or f16 operands only (an IRDL constraint;
// xDSL reports it without an annotated dump).

func.func @pad_i64_operand(%x: tensor<4xi64>) {
  %r = nn.pad %x {pads = array<i64: 1, 1>} : (tensor<4xi64>) -> tensor<6xi64>
  func.return
}

// CHECK: Unexpected attribute i64

// -----

func.func @sqrt_i32_operand(%x: tensor<4xi32>) {
  %r = nn.sqrt %x : (tensor<4xi32>) -> tensor<4xf32>
  func.return
}

// CHECK: Unexpected attribute i32
