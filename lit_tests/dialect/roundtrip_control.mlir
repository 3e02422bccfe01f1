// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s

// Round-trip of the control-flow ops nn.if and nn.yield: one, two and no
// results, conditions of rank 0, 1 and 2, values from above used in branches,
// discardable attributes, and ifs nested two deep.

// CHECK-LABEL: func.func @if_one_result(
// CHECK-NEXT:    %r = nn.if %c : tensor<1xi1> -> (tensor<2x4xf32>) {
// CHECK-NEXT:      %t = nn.relu %x : (tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:      nn.yield %t : tensor<2x4xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %e = nn.tanh %x : (tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:      nn.yield %e : tensor<2x4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %r : tensor<2x4xf32>
// CHECK-NEXT:  }
func.func @if_one_result(%c: tensor<1xi1>, %x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %r = nn.if %c : tensor<1xi1> -> (tensor<2x4xf32>) {
    %t = nn.relu %x : (tensor<2x4xf32>) -> tensor<2x4xf32>
    nn.yield %t : tensor<2x4xf32>
  } else {
    %e = nn.tanh %x : (tensor<2x4xf32>) -> tensor<2x4xf32>
    nn.yield %e : tensor<2x4xf32>
  }
  func.return %r : tensor<2x4xf32>
}

// A branch may yield a value defined above the if unchanged.

// CHECK-LABEL: func.func @if_two_results(
// CHECK-NEXT:    %a, %b = nn.if %c : tensor<i1> -> (tensor<4xf32>, tensor<1x8xf32>) {
// CHECK-NEXT:      %s = nn.sigmoid %x : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:      nn.yield %s, %y : tensor<4xf32>, tensor<1x8xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %n = nn.relu %y : (tensor<1x8xf32>) -> tensor<1x8xf32>
// CHECK-NEXT:      nn.yield %x, %n : tensor<4xf32>, tensor<1x8xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %a, %b : tensor<4xf32>, tensor<1x8xf32>
// CHECK-NEXT:  }
func.func @if_two_results(%c: tensor<i1>, %x: tensor<4xf32>, %y: tensor<1x8xf32>) -> (tensor<4xf32>, tensor<1x8xf32>) {
  %a, %b = nn.if %c : tensor<i1> -> (tensor<4xf32>, tensor<1x8xf32>) {
    %s = nn.sigmoid %x : (tensor<4xf32>) -> tensor<4xf32>
    nn.yield %s, %y : tensor<4xf32>, tensor<1x8xf32>
  } else {
    %n = nn.relu %y : (tensor<1x8xf32>) -> tensor<1x8xf32>
    nn.yield %x, %n : tensor<4xf32>, tensor<1x8xf32>
  }
  func.return %a, %b : tensor<4xf32>, tensor<1x8xf32>
}

// No results: no `->` clause, and both branches end in a bare nn.yield.

// CHECK-LABEL: func.func @if_no_results(
// CHECK-NEXT:    nn.if %c : tensor<1x1xi1> {
// CHECK-NEXT:      %t = nn.relu %x : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:      nn.yield
// CHECK-NEXT:    } else {
// CHECK-NEXT:      nn.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
func.func @if_no_results(%c: tensor<1x1xi1>, %x: tensor<4xf32>) {
  nn.if %c : tensor<1x1xi1> {
    %t = nn.relu %x : (tensor<4xf32>) -> tensor<4xf32>
    nn.yield
  } else {
    nn.yield
  }
  func.return
}

// The condition is usually computed by the graph itself with nn.cmp.
// Discardable attributes are printed after the else region.

// CHECK-LABEL: func.func @if_on_cmp_with_attrs(
// CHECK-NEXT:    %c = nn.cmp %x, %zero {predicate = "gt"} : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xi1>
// CHECK-NEXT:    %r = nn.if %c : tensor<1xi1> -> (tensor<1xf32>) {
// CHECK-NEXT:      nn.yield %x : tensor<1xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      nn.yield %zero : tensor<1xf32>
// CHECK-NEXT:    } {branch_hint = "then"}
// CHECK-NEXT:    func.return %r : tensor<1xf32>
// CHECK-NEXT:  }
func.func @if_on_cmp_with_attrs(%x: tensor<1xf32>, %zero: tensor<1xf32>) -> tensor<1xf32> {
  %c = nn.cmp %x, %zero {predicate = "gt"} : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xi1>
  %r = nn.if %c : tensor<1xi1> -> (tensor<1xf32>) {
    nn.yield %x : tensor<1xf32>
  } else {
    nn.yield %zero : tensor<1xf32>
  } {branch_hint = "then"}
  func.return %r : tensor<1xf32>
}

// Nesting depth 2: an if in each branch of the outer if; the inner ifs use a
// value of the function (%x) and one of the enclosing branch (%t, %e).

// CHECK-LABEL: func.func @if_nested(
// CHECK-NEXT:    %r = nn.if %c0 : tensor<1xi1> -> (tensor<8xf32>) {
// CHECK-NEXT:      %t = nn.relu %x : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:      %tt = nn.if %c1 : tensor<1xi1> -> (tensor<8xf32>) {
// CHECK-NEXT:        %u = nn.add %t, %x : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:        nn.yield %u : tensor<8xf32>
// CHECK-NEXT:      } else {
// CHECK-NEXT:        nn.yield %t : tensor<8xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      nn.yield %tt : tensor<8xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %e = nn.sigmoid %x : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:      %ee = nn.if %c1 : tensor<1xi1> -> (tensor<8xf32>) {
// CHECK-NEXT:        nn.yield %x : tensor<8xf32>
// CHECK-NEXT:      } else {
// CHECK-NEXT:        %v = nn.mul %e, %e : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:        nn.yield %v : tensor<8xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      nn.yield %ee : tensor<8xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %r : tensor<8xf32>
// CHECK-NEXT:  }
func.func @if_nested(%c0: tensor<1xi1>, %c1: tensor<1xi1>, %x: tensor<8xf32>) -> tensor<8xf32> {
  %r = nn.if %c0 : tensor<1xi1> -> (tensor<8xf32>) {
    %t = nn.relu %x : (tensor<8xf32>) -> tensor<8xf32>
    %tt = nn.if %c1 : tensor<1xi1> -> (tensor<8xf32>) {
      %u = nn.add %t, %x : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
      nn.yield %u : tensor<8xf32>
    } else {
      nn.yield %t : tensor<8xf32>
    }
    nn.yield %tt : tensor<8xf32>
  } else {
    %e = nn.sigmoid %x : (tensor<8xf32>) -> tensor<8xf32>
    %ee = nn.if %c1 : tensor<1xi1> -> (tensor<8xf32>) {
      nn.yield %x : tensor<8xf32>
    } else {
      %v = nn.mul %e, %e : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
      nn.yield %v : tensor<8xf32>
    }
    nn.yield %ee : tensor<8xf32>
  }
  func.return %r : tensor<8xf32>
}
