// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s

// Round-trip of the ops ONNX imports need: nn.slice (ONNX Slice on static
// bounds, any element type), nn.pad (constant, reflect, edge), nn.pow,
// nn.sqrt, nn.exp, nn.neg, and nn.cmp and nn.constant on integers. Slice axes
// and steps are optional; pad mode "constant" and value 0.0 are defaults and
// not printed.

// Bounds past the ends are clamped (INT64_MAX: to the end, -INT64_MAX: from
// the start); negative bounds and axes count from the end; steps may be negative.

// CHECK-LABEL: func.func @slices(
// CHECK-NEXT:    %plain = nn.slice %x {starts = array<i64: 1>, ends = array<i64: 3>} : (tensor<4x6xf32>) -> tensor<2x6xf32>
// CHECK-NEXT:    %tail = nn.slice %x {starts = array<i64: -2>, ends = array<i64: 9223372036854775807>, axes = array<i64: -1>} : (tensor<4x6xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:    %strided = nn.slice %x {starts = array<i64: 0, 1>, ends = array<i64: 100, 6>, axes = array<i64: 1, 0>, steps = array<i64: 4, 2>} : (tensor<4x6xf32>) -> tensor<2x2xf32>
// CHECK-NEXT:    %reversed = nn.slice %x {starts = array<i64: -1>, ends = array<i64: -9223372036854775807>, axes = array<i64: 1>, steps = array<i64: -1>} : (tensor<4x6xf32>) -> tensor<4x6xf32>
// CHECK-NEXT:    %back2 = nn.slice %x {starts = array<i64: 10>, ends = array<i64: 0>, steps = array<i64: -2>} : (tensor<4x6xf32>) -> tensor<2x6xf32>
// CHECK-NEXT:    %ints = nn.slice %n {starts = array<i64: 0>, ends = array<i64: 1>} : (tensor<3xi64>) -> tensor<1xi64>
// CHECK-NEXT:    %bits = nn.slice %m {starts = array<i64: 1>, ends = array<i64: 2>, axes = array<i64: 1>} : (tensor<2x3xi1>) -> tensor<2x1xi1>
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
func.func @slices(%x: tensor<4x6xf32>, %n: tensor<3xi64>, %m: tensor<2x3xi1>) {
  %plain = nn.slice %x {starts = array<i64: 1>, ends = array<i64: 3>} : (tensor<4x6xf32>) -> tensor<2x6xf32>
  %tail = nn.slice %x {starts = array<i64: -2>, ends = array<i64: 9223372036854775807>, axes = array<i64: -1>} : (tensor<4x6xf32>) -> tensor<4x2xf32>
  %strided = nn.slice %x {starts = array<i64: 0, 1>, ends = array<i64: 100, 6>, axes = array<i64: 1, 0>, steps = array<i64: 4, 2>} : (tensor<4x6xf32>) -> tensor<2x2xf32>
  %reversed = nn.slice %x {starts = array<i64: -1>, ends = array<i64: -9223372036854775807>, axes = array<i64: 1>, steps = array<i64: -1>} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %back2 = nn.slice %x {starts = array<i64: 10>, ends = array<i64: 0>, steps = array<i64: -2>} : (tensor<4x6xf32>) -> tensor<2x6xf32>
  %ints = nn.slice %n {starts = array<i64: 0>, ends = array<i64: 1>} : (tensor<3xi64>) -> tensor<1xi64>
  %bits = nn.slice %m {starts = array<i64: 1>, ends = array<i64: 2>, axes = array<i64: 1>} : (tensor<2x3xi1>) -> tensor<2x1xi1>
  func.return
}

// pads: every axis' begin, then every axis' end.

// CHECK-LABEL: func.func @pads(
// CHECK-NEXT:    %zero = nn.pad %x {pads = array<i64: 1, 2, 0, 3>} : (tensor<4x6xf32>) -> tensor<5x11xf32>
// CHECK-NEXT:    %zero_explicit = nn.pad %x {pads = array<i64: 1, 2, 0, 3>} : (tensor<4x6xf32>) -> tensor<5x11xf32>
// CHECK-NEXT:    %filled = nn.pad %x {pads = array<i64: 0, 0, 2, 0>, value = -1.500000e+00 : f32} : (tensor<4x6xf32>) -> tensor<6x6xf32>
// CHECK-NEXT:    %mirror = nn.pad %x {pads = array<i64: 3, 5, 3, 5>, mode = "reflect"} : (tensor<4x6xf32>) -> tensor<10x16xf32>
// CHECK-NEXT:    %edge = nn.pad %x {pads = array<i64: 0, 7, 9, 0>, mode = "edge"} : (tensor<4x6xf32>) -> tensor<13x13xf32>
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
func.func @pads(%x: tensor<4x6xf32>) {
  %zero = nn.pad %x {pads = array<i64: 1, 2, 0, 3>} : (tensor<4x6xf32>) -> tensor<5x11xf32>
  %zero_explicit = nn.pad %x {pads = array<i64: 1, 2, 0, 3>, mode = "constant", value = 0.0 : f32} : (tensor<4x6xf32>) -> tensor<5x11xf32>
  %filled = nn.pad %x {pads = array<i64: 0, 0, 2, 0>, value = -1.5 : f32} : (tensor<4x6xf32>) -> tensor<6x6xf32>
  %mirror = nn.pad %x {pads = array<i64: 3, 5, 3, 5>, mode = "reflect"} : (tensor<4x6xf32>) -> tensor<10x16xf32>
  %edge = nn.pad %x {pads = array<i64: 0, 7, 9, 0>, mode = "edge"} : (tensor<4x6xf32>) -> tensor<13x13xf32>
  func.return
}

// pow broadcasts like the other binary ops; sqrt, exp and neg keep the type.

// CHECK-LABEL: func.func @math(
// CHECK-NEXT:    %pow = nn.pow %x, %row : (tensor<4x6xf32>, tensor<6xf32>) -> tensor<4x6xf32>
// CHECK-NEXT:    %pow_s = nn.pow %s, %x : (tensor<f32>, tensor<4x6xf32>) -> tensor<4x6xf32>
// CHECK-NEXT:    %sqrt = nn.sqrt %x : (tensor<4x6xf32>) -> tensor<4x6xf32>
// CHECK-NEXT:    %exp = nn.exp %x : (tensor<4x6xf32>) -> tensor<4x6xf32>
// CHECK-NEXT:    %neg = nn.neg %x : (tensor<4x6xf32>) -> tensor<4x6xf32>
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
func.func @math(%x: tensor<4x6xf32>, %row: tensor<6xf32>, %s: tensor<f32>) {
  %pow = nn.pow %x, %row : (tensor<4x6xf32>, tensor<6xf32>) -> tensor<4x6xf32>
  %pow_s = nn.pow %s, %x : (tensor<f32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  %sqrt = nn.sqrt %x : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %exp = nn.exp %x : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %neg = nn.neg %x : (tensor<4x6xf32>) -> tensor<4x6xf32>
  func.return
}

// Integer compares (signed) against integer constants decide an nn.if.

// CHECK-LABEL: func.func @integers(
// CHECK-NEXT:    %zero = nn.constant dense<0> : tensor<1xi64>
// CHECK-NEXT:    %lim = nn.constant dense<[1, -2, 3]> : tensor<3xi32>
// CHECK-NEXT:    %pos = nn.cmp %n, %zero {predicate = "gt"} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi1>
// CHECK-NEXT:    %under = nn.cmp %k, %lim {predicate = "lt"} : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %y = nn.if %pos : tensor<1xi1> -> (tensor<4xf32>) {
// CHECK-NEXT:      %e = nn.exp %x : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:      nn.yield %e : tensor<4xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %m = nn.neg %x : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:      nn.yield %m : tensor<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
func.func @integers(%n: tensor<1xi64>, %k: tensor<2x3xi32>, %x: tensor<4xf32>) {
  %zero = nn.constant dense<0> : tensor<1xi64>
  %lim = nn.constant dense<[1, -2, 3]> : tensor<3xi32>
  %pos = nn.cmp %n, %zero {predicate = "gt"} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi1>
  %under = nn.cmp %k, %lim {predicate = "lt"} : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi1>
  %y = nn.if %pos : tensor<1xi1> -> (tensor<4xf32>) {
    %e = nn.exp %x : (tensor<4xf32>) -> tensor<4xf32>
    nn.yield %e : tensor<4xf32>
  } else {
    %m = nn.neg %x : (tensor<4xf32>) -> tensor<4xf32>
    nn.yield %m : tensor<4xf32>
  }
  func.return
}
