// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s

// Round-trip of nn.loop: a counted loop with a scan output, a while loop whose
// condition the body computes, a loop inside an if and an if inside a loop,
// no carried values, and discardable attributes.

// CHECK-LABEL: func.func @scan(
// CHECK-NEXT:    %t = nn.constant dense<true> : tensor<i1>
// CHECK-NEXT:    %h, %ys = nn.loop %n, %t (%x) : (tensor<i64>, tensor<i1>, tensor<4xf32>) -> (tensor<4xf32>, tensor<3x4xf32>) {
// CHECK-NEXT:    ^bb0(%i: tensor<i64>, %c: tensor<i1>, %a: tensor<4xf32>):
// CHECK-NEXT:      %b = nn.tanh %a : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:      nn.yield %c, %b, %b : tensor<i1>, tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %h, %ys : tensor<4xf32>, tensor<3x4xf32>
func.func @scan(%n: tensor<i64>, %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<3x4xf32>) {
  %t = nn.constant dense<true> : tensor<i1>
  %h, %ys = nn.loop %n, %t (%x) : (tensor<i64>, tensor<i1>, tensor<4xf32>) -> (tensor<4xf32>, tensor<3x4xf32>) {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %a: tensor<4xf32>):
    %b = nn.tanh %a : (tensor<4xf32>) -> tensor<4xf32>
    nn.yield %c, %b, %b : tensor<i1>, tensor<4xf32>, tensor<4xf32>
  }
  func.return %h, %ys : tensor<4xf32>, tensor<3x4xf32>
}

// CHECK-LABEL: func.func @while_in_if(
// CHECK:         %r = nn.if %p : tensor<1xi1> -> (tensor<4xf32>) {
// CHECK-NEXT:      %w = nn.loop %n, %go (%x) : (tensor<1xi64>, tensor<1x1xi1>, tensor<4xf32>) -> (tensor<4xf32>) {
// CHECK-NEXT:      ^bb0(%i: tensor<i64>, %c: tensor<i1>, %a: tensor<4xf32>):
// CHECK-NEXT:        %b = nn.sigmoid %a : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:        %more = nn.if %c : tensor<i1> -> (tensor<1xi1>) {
// CHECK-NEXT:          %s = nn.reduce_sum %b {axes = array<i64: 0>} : (tensor<4xf32>) -> tensor<1xf32>
// CHECK-NEXT:          %k = nn.cmp %s, %s {predicate = "eq"} : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xi1>
// CHECK-NEXT:          nn.yield %k : tensor<1xi1>
// CHECK-NEXT:        } else {
// CHECK-NEXT:          nn.yield %p : tensor<1xi1>
// CHECK-NEXT:        }
// CHECK-NEXT:        nn.yield %more, %b : tensor<1xi1>, tensor<4xf32>
// CHECK-NEXT:      } {note = "refine"}
// CHECK-NEXT:      nn.yield %w : tensor<4xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      nn.yield %x : tensor<4xf32>
// CHECK-NEXT:    }
func.func @while_in_if(%p: tensor<1xi1>, %n: tensor<1xi64>, %go: tensor<1x1xi1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r = nn.if %p : tensor<1xi1> -> (tensor<4xf32>) {
    %w = nn.loop %n, %go (%x) : (tensor<1xi64>, tensor<1x1xi1>, tensor<4xf32>) -> (tensor<4xf32>) {
    ^bb0(%i: tensor<i64>, %c: tensor<i1>, %a: tensor<4xf32>):
      %b = nn.sigmoid %a : (tensor<4xf32>) -> tensor<4xf32>
      %more = nn.if %c : tensor<i1> -> (tensor<1xi1>) {
        %s = nn.reduce_sum %b {axes = array<i64: 0>} : (tensor<4xf32>) -> tensor<1xf32>
        %k = nn.cmp %s, %s {predicate = "eq"} : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xi1>
        nn.yield %k : tensor<1xi1>
      } else {
        nn.yield %p : tensor<1xi1>
      }
      nn.yield %more, %b : tensor<1xi1>, tensor<4xf32>
    } {note = "refine"}
    nn.yield %w : tensor<4xf32>
  } else {
    nn.yield %x : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}

// CHECK-LABEL: func.func @no_carried(
// CHECK-NEXT:    %t = nn.constant dense<true> : tensor<i1>
// CHECK-NEXT:    %ys = nn.loop %n, %t () : (tensor<i64>, tensor<i1>) -> (tensor<2x3xf32>) {
// CHECK-NEXT:    ^bb0(%i: tensor<i64>, %c: tensor<i1>):
// CHECK-NEXT:      %v = nn.relu %x : (tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:      nn.yield %t, %v : tensor<i1>, tensor<3xf32>
// CHECK-NEXT:    }
func.func @no_carried(%n: tensor<i64>, %x: tensor<3xf32>) -> tensor<2x3xf32> {
  %t = nn.constant dense<true> : tensor<i1>
  %ys = nn.loop %n, %t () : (tensor<i64>, tensor<i1>) -> (tensor<2x3xf32>) {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>):
    %v = nn.relu %x : (tensor<3xf32>) -> tensor<3xf32>
    nn.yield %t, %v : tensor<i1>, tensor<3xf32>
  }
  func.return %ys : tensor<2x3xf32>
}
