// RUN: xdsl-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Verifier errors of nn.loop: a one-element i64 trip count and i1 condition, results
// that start with the carried types, a body taking the iteration number, the
// condition and the carried values, scan outputs of one static length, and a
// yield of the next condition, the carried values and one element per scan output.

func.func @trip_not_i64(%n: tensor<i32>, %t: tensor<i1>, %x: tensor<4xf32>) {
  %h = nn.loop %n, %t (%x) : (tensor<i32>, tensor<i1>, tensor<4xf32>) -> (tensor<4xf32>) {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %a: tensor<4xf32>):
    nn.yield %c, %a : tensor<i1>, tensor<4xf32>
  }
  func.return
}

// CHECK-LABEL: "trip_not_i64"
// CHECK:       %h = "nn.loop"(%n, %t, %x) ({
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: trip count must be a one-element i64 tensor, got tensor<i32>

// -----

func.func @cond_two_elements(%n: tensor<i64>, %t: tensor<2xi1>, %x: tensor<4xf32>) {
  %h = nn.loop %n, %t (%x) : (tensor<i64>, tensor<2xi1>, tensor<4xf32>) -> (tensor<4xf32>) {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %a: tensor<4xf32>):
    nn.yield %c, %a : tensor<i1>, tensor<4xf32>
  }
  func.return
}

// CHECK-LABEL: "cond_two_elements"
// CHECK:       %h = "nn.loop"(%n, %t, %x) ({
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: condition must be a one-element i1 tensor, got tensor<2xi1>

// -----

func.func @result_not_carried(%n: tensor<i64>, %t: tensor<i1>, %x: tensor<4xf32>) {
  %h = nn.loop %n, %t (%x) : (tensor<i64>, tensor<i1>, tensor<4xf32>) -> (tensor<8xf32>) {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %a: tensor<4xf32>):
    nn.yield %c, %a : tensor<i1>, tensor<4xf32>
  }
  func.return
}

// CHECK-LABEL: "result_not_carried"
// CHECK:       %h = "nn.loop"(%n, %t, %x) ({
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: the loop returns (tensor<8xf32>) but its results must start with the carried types (tensor<4xf32>)

// -----

func.func @body_args(%n: tensor<i64>, %t: tensor<i1>, %x: tensor<4xf32>) {
  %h = nn.loop %n, %t (%x) : (tensor<i64>, tensor<i1>, tensor<4xf32>) -> (tensor<4xf32>) {
  ^bb0(%c: tensor<i1>, %a: tensor<4xf32>):
    nn.yield %c, %a : tensor<i1>, tensor<4xf32>
  }
  func.return
}

// CHECK-LABEL: "body_args"
// CHECK:       %h = "nn.loop"(%n, %t, %x) ({
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: the body takes (tensor<i1>, tensor<4xf32>) but must take the iteration number (one-element i64), the condition (one-element i1) and the carried values (tensor<4xf32>)

// -----

func.func @scan_dynamic(%n: tensor<i64>, %t: tensor<i1>, %x: tensor<4xf32>) {
  %h, %ys = nn.loop %n, %t (%x) : (tensor<i64>, tensor<i1>, tensor<4xf32>) -> (tensor<4xf32>, tensor<?x4xf32>) {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %a: tensor<4xf32>):
    nn.yield %c, %a, %a : tensor<i1>, tensor<4xf32>, tensor<4xf32>
  }
  func.return
}

// CHECK-LABEL: "scan_dynamic"
// CHECK:       %h, %ys = "nn.loop"(%n, %t, %x) ({
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: scan output tensor<?x4xf32> needs a static leading axis (the trip count)

// -----

func.func @scan_lengths(%n: tensor<i64>, %t: tensor<i1>, %x: tensor<4xf32>) {
  %ys, %zs = nn.loop %n, %t () : (tensor<i64>, tensor<i1>) -> (tensor<3x4xf32>, tensor<2x4xf32>) {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>):
    nn.yield %c, %x, %x : tensor<i1>, tensor<4xf32>, tensor<4xf32>
  }
  func.return
}

// CHECK-LABEL: "scan_lengths"
// CHECK:       %ys, %zs = "nn.loop"(%n, %t) ({
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: scan outputs stack different trip counts [2, 3]

// -----

func.func @yield_types(%n: tensor<i64>, %t: tensor<i1>, %x: tensor<4xf32>) {
  %h = nn.loop %n, %t (%x) : (tensor<i64>, tensor<i1>, tensor<4xf32>) -> (tensor<4xf32>) {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %a: tensor<4xf32>):
    nn.yield %a : tensor<4xf32>
  }
  func.return
}

// CHECK-LABEL: "yield_types"
// CHECK:       %h = "nn.loop"(%n, %t, %x) ({
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: the body yields (tensor<4xf32>) but must yield the next condition, the carried values and one element per scan output (tensor<i1>, tensor<4xf32>)
