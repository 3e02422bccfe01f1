// nn-plan-memory options: alignment, the budget error, and a plan that
// survives printing in generic form and parsing again (so later passes can run
// in another xdsl-opt call).
// c[0,3] 1 byte, a[1,3] 40, b[2,4] 40, r[3,4] 40 (the if's result); at step 3
// all four are live, so the lower bound is 121.
// RUN: xdsl-opt %s -p 'nn-plan-memory{strategy=sequential align=1}' | filecheck %s --check-prefix=A1
// RUN: xdsl-opt %s -p 'nn-plan-memory{strategy=sequential align=64}' | filecheck %s --check-prefix=A64
// RUN: xdsl-opt %s -p 'nn-plan-memory{strategy=sequential align=64}' --print-op-generic | xdsl-opt | filecheck %s --check-prefix=A64
// RUN: xdsl-opt %s -p 'nn-plan-memory{budget=120 align=1}' --verify-diagnostics | filecheck %s --check-prefix=BUDGET

func.func @align(%x: tensor<1x10xf32>, %s: tensor<1xf32>) -> tensor<1x10xf32> {
  %c = nn.cmp %s, %s {predicate = "ge"} : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xi1>
  %a = nn.relu %x : (tensor<1x10xf32>) -> tensor<1x10xf32>
  %b = nn.tanh %a : (tensor<1x10xf32>) -> tensor<1x10xf32>
  %r = nn.if %c : tensor<1xi1> -> (tensor<1x10xf32>) {
    nn.yield %b : tensor<1x10xf32>
  } else {
    nn.yield %a : tensor<1x10xf32>
  }
  %o = nn.add %r, %b : (tensor<1x10xf32>, tensor<1x10xf32>) -> tensor<1x10xf32>
  func.return %o : tensor<1x10xf32>
}

// A1-LABEL: func.func @align
// A1-SAME: attributes {cfmem.arena_size = 121 : i64, cfmem.lower_bound = 121 : i64, cfmem.plan = "exact/sequential"}
// A1-NEXT: %c = nn.cmp %s, %s {cfmem.offsets = array<i64: 0>, predicate = "ge"}
// A1-NEXT: %a = nn.relu %x {cfmem.offsets = array<i64: 1>}
// A1-NEXT: %b = nn.tanh %a {cfmem.offsets = array<i64: 41>}
// A1:      } {cfmem.offsets = array<i64: 81>}

// A64-LABEL: func.func @align
// A64-SAME: attributes {cfmem.arena_size = 232 : i64, cfmem.lower_bound = 121 : i64, cfmem.plan = "exact/sequential"}
// A64-NEXT: %c = nn.cmp %s, %s {cfmem.offsets = array<i64: 0>, predicate = "ge"}
// A64-NEXT: %a = nn.relu %x {cfmem.offsets = array<i64: 64>}
// A64-NEXT: %b = nn.tanh %a {cfmem.offsets = array<i64: 128>}
// A64:      } {cfmem.offsets = array<i64: 192>}

// BUDGET: function @align needs 121 bytes of on-chip memory (lower bound 121, reached at step 3) but the budget is 120
