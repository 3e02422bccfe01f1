// RUN: xdsl-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Verifier errors of nn.if and nn.yield: the condition must be a one-element
// i1 tensor, each branch is one block without arguments that ends in nn.yield,
// and both branches yield exactly the if's result types.

func.func @cond_not_i1(%c: tensor<1xf32>, %x: tensor<4xf32>) {
  nn.if %c : tensor<1xf32> {
    nn.yield
  } else {
    nn.yield
  }
  func.return
}

// CHECK-LABEL: "cond_not_i1"
// CHECK:       "nn.if"(%c) ({
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: condition must be a one-element i1 tensor, got tensor<1xf32>

// -----

func.func @cond_two_elements(%c: tensor<2xi1>) {
  nn.if %c : tensor<2xi1> {
    nn.yield
  } else {
    nn.yield
  }
  func.return
}

// CHECK-LABEL: "cond_two_elements"
// CHECK:       "nn.if"(%c) ({
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: condition must be a one-element i1 tensor, got tensor<2xi1>

// -----

func.func @cond_dynamic(%c: tensor<?xi1>) {
  nn.if %c : tensor<?xi1> {
    nn.yield
  } else {
    nn.yield
  }
  func.return
}

// CHECK-LABEL: "cond_dynamic"
// CHECK:       "nn.if"(%c) ({
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: condition must be a one-element i1 tensor, got tensor<?xi1>

// -----

func.func @cond_empty(%c: tensor<0xi1>) {
  nn.if %c : tensor<0xi1> {
    nn.yield
  } else {
    nn.yield
  }
  func.return
}

// CHECK-LABEL: "cond_empty"
// CHECK:       "nn.if"(%c) ({
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: condition must be a one-element i1 tensor, got tensor<0xi1>

// -----

func.func @then_yield_type(%c: tensor<1xi1>, %x: tensor<4xf32>, %y: tensor<8xf32>) {
  %r = nn.if %c : tensor<1xi1> -> (tensor<4xf32>) {
    nn.yield %y : tensor<8xf32>
  } else {
    nn.yield %x : tensor<4xf32>
  }
  func.return
}

// CHECK-LABEL: "then_yield_type"
// CHECK:       %r = "nn.if"(%c) ({
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: the then region yields (tensor<8xf32>) but the if returns (tensor<4xf32>)

// -----

func.func @else_yield_type(%c: tensor<1xi1>, %x: tensor<4xf32>, %y: tensor<4xf16>) {
  %r = nn.if %c : tensor<1xi1> -> (tensor<4xf32>) {
    nn.yield %x : tensor<4xf32>
  } else {
    nn.yield %y : tensor<4xf16>
  }
  func.return
}

// CHECK-LABEL: "else_yield_type"
// CHECK:       %r = "nn.if"(%c) ({
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: the else region yields (tensor<4xf16>) but the if returns (tensor<4xf32>)

// -----

func.func @yield_too_few(%c: tensor<1xi1>, %x: tensor<4xf32>) {
  %a, %b = nn.if %c : tensor<1xi1> -> (tensor<4xf32>, tensor<4xf32>) {
    nn.yield %x, %x : tensor<4xf32>, tensor<4xf32>
  } else {
    nn.yield %x : tensor<4xf32>
  }
  func.return
}

// CHECK-LABEL: "yield_too_few"
// CHECK:       %a, %b = "nn.if"(%c) ({
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: the else region yields (tensor<4xf32>) but the if returns (tensor<4xf32>, tensor<4xf32>)

// -----

func.func @yield_into_no_results(%c: tensor<1xi1>, %x: tensor<4xf32>) {
  nn.if %c : tensor<1xi1> {
    nn.yield %x : tensor<4xf32>
  } else {
    nn.yield
  }
  func.return
}

// CHECK-LABEL: "yield_into_no_results"
// CHECK:       "nn.if"(%c) ({
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: the then region yields (tensor<4xf32>) but the if returns ()

// -----

// A branch that forgets its nn.yield ends in a non-terminator; xDSL's block
// verifier reports it before nn.if is checked.

func.func @then_missing_yield(%c: tensor<1xi1>, %x: tensor<4xf32>) {
  nn.if %c : tensor<1xi1> {
    %t = nn.relu %x : (tensor<4xf32>) -> tensor<4xf32>
  } else {
    nn.yield
  }
  func.return
}

// CHECK: Operation nn.relu terminates block in single-block region but is not a terminator

// -----

func.func @else_missing_yield(%c: tensor<1xi1>, %x: tensor<4xf32>) {
  %r = nn.if %c : tensor<1xi1> -> (tensor<4xf32>) {
    nn.yield %x : tensor<4xf32>
  } else {
    %e = nn.sigmoid %x : (tensor<4xf32>) -> tensor<4xf32>
  }
  func.return
}

// CHECK: Operation nn.sigmoid terminates block in single-block region but is not a terminator

// -----

// A branch ending in some other terminator.

func.func @then_foreign_terminator(%c: tensor<1xi1>) {
  nn.if %c : tensor<1xi1> {
    "test.termop"() : () -> ()
  } else {
    nn.yield
  }
  func.return
}

// CHECK-LABEL: "then_foreign_terminator"
// CHECK:       "nn.if"(%c) ({
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: the then region must end in nn.yield

// -----

func.func @else_foreign_terminator(%c: tensor<1xi1>, %x: tensor<4xf32>) {
  %r = nn.if %c : tensor<1xi1> -> (tensor<4xf32>) {
    nn.yield %x : tensor<4xf32>
  } else {
    "test.termop"(%x) : (tensor<4xf32>) -> ()
  }
  func.return
}

// CHECK-LABEL: "else_foreign_terminator"
// CHECK:       %r = "nn.if"(%c) ({
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: the else region must end in nn.yield

// -----

// An empty block (generic form) and an empty region (`{ }`).

func.func @empty_then_block(%c: tensor<1xi1>) {
  "nn.if"(%c) ({
  ^bb0:
  }, {
    "nn.yield"() : () -> ()
  }) : (tensor<1xi1>) -> ()
  func.return
}

// CHECK: Operation nn.if contains empty block in single-block region that expects at least a terminator

// -----

func.func @empty_then_region(%c: tensor<1xi1>) {
  nn.if %c : tensor<1xi1> {
  } else {
    nn.yield
  }
  func.return
}

// CHECK-LABEL: "empty_then_region"
// CHECK:       "nn.if"(%c) ({
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: Region 'then_region' at position 0 expected a single block, but got 0 blocks

// -----

// Only the generic form can give a branch block arguments.

func.func @branch_block_args(%c: tensor<1xi1>, %x: tensor<4xf32>) {
  %r = "nn.if"(%c) ({
  ^bb0(%arg: tensor<4xf32>):
    "nn.yield"(%arg) : (tensor<4xf32>) -> ()
  }, {
    "nn.yield"(%x) : (tensor<4xf32>) -> ()
  }) : (tensor<1xi1>) -> tensor<4xf32>
  func.return
}

// CHECK-LABEL: "branch_block_args"
// CHECK:       %r = "nn.if"(%c) ({
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: the then region must not have block arguments

// -----

func.func @yield_outside_if(%x: tensor<4xf32>) {
  nn.yield %x : tensor<4xf32>
}

// CHECK-LABEL: "yield_outside_if"
// CHECK:       "nn.yield"(%x) : (tensor<4xf32>) -> ()
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: 'nn.yield' expects parent op to be one of 'nn.if', 'nn.loop', 'nn.apply'
