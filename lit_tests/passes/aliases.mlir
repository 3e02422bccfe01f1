// nn-plan-memory with aliases (the default): a reshape and a contiguous slice
// are views of their source, an elementwise op whose operand dies there writes
// over it, concat inputs are computed into their parts and a branch's value
// straight into the if's result. Lowering copies none of them.
// RUN: xdsl-opt %s -p 'nn-plan-memory{strategy=sequential}' | filecheck %s --check-prefix=PLAN
// RUN: xdsl-opt %s -p 'nn-plan-memory{strategy=sequential},nn-lower-to-memref' | filecheck %s --check-prefix=FLAT
// RUN: xdsl-opt %s -p 'nn-plan-memory{strategy=sequential aliases=false}' | filecheck %s --check-prefix=NONE

func.func @main(%x: tensor<1x64xf32>, %c: tensor<1xi1>) -> tensor<1x32xf32> {
  %a = nn.relu %x : (tensor<1x64xf32>) -> tensor<1x64xf32>
  %b = nn.tanh %a : (tensor<1x64xf32>) -> tensor<1x64xf32>
  %r = nn.reshape %b : tensor<1x64xf32> to tensor<2x32xf32>
  %s = nn.slice %r {starts = array<i64: 1>, ends = array<i64: 2>, axes = array<i64: 0>} : (tensor<2x32xf32>) -> tensor<1x32xf32>
  %p = nn.sigmoid %s : (tensor<1x32xf32>) -> tensor<1x32xf32>
  %q = nn.exp %s : (tensor<1x32xf32>) -> tensor<1x32xf32>
  %j = nn.concat %p, %q {axis = 1 : i64} : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x64xf32>
  %y = nn.if %c : tensor<1xi1> -> (tensor<1x64xf32>) {
    %t = nn.neg %j : (tensor<1x64xf32>) -> tensor<1x64xf32>
    nn.yield %t : tensor<1x64xf32>
  } else {
    nn.yield %j : tensor<1x64xf32>
  }
  %o = nn.slice %y {starts = array<i64: 0>, ends = array<i64: 32>, axes = array<i64: 1>} : (tensor<1x64xf32>) -> tensor<1x32xf32>
  func.return %o : tensor<1x32xf32>
}

// %b overwrites %a (its last use); %r and %s are views of %a's bytes (%s the
// second row, 128 bytes in); %p and %q are computed into the halves of %j;
// %t into %y. %j is also read by the then branch, so the else branch copies it.
// PLAN: cfmem.arena_size = 512 : i64, cfmem.lower_bound = 512 : i64, cfmem.plan = "exact/sequential", cfmem.aliases = "reshape,slice,inplace,concat,yield"
// PLAN: %a = nn.relu %x {cfmem.offsets = array<i64: 0>}
// PLAN: %b = nn.tanh %a {cfmem.offsets = array<i64: 0>, cfmem.alias = "a"}
// PLAN: %r = nn.reshape %b {cfmem.offsets = array<i64: 0>, cfmem.alias = "a"}
// PLAN: %s = nn.slice %r {cfmem.offsets = array<i64: 128>, cfmem.alias = "a"
// PLAN: %p = nn.sigmoid %s {cfmem.offsets = array<i64: 256>, cfmem.alias = "j"}
// PLAN: %q = nn.exp %s {cfmem.offsets = array<i64: 384>, cfmem.alias = "j"}
// PLAN: %j = nn.concat %p, %q {cfmem.offsets = array<i64: 256>, axis = 1 : i64}
// PLAN: %t = nn.neg %j {cfmem.offsets = array<i64: 0>, cfmem.alias = "y"}
// PLAN: } {cfmem.offsets = array<i64: 0>}
// PLAN: %o = nn.slice %y {starts

// FLAT: %b = memref.view %arena[%c0][] {cfmem.tensor = "b"}
// FLAT-NEXT: nn.apply ins(%a : memref<1x64xf32, 1 : i64>) outs(%b : memref<1x64xf32, 1 : i64>) attributes {cfmem.inplace}
// FLAT: %r = memref.view %arena[%c0][] {cfmem.tensor = "r", cfmem.reads = ["b"]}
// FLAT-NEXT: %s = memref.view %arena[%c128][] {cfmem.tensor = "s", cfmem.reads = ["r", "b"]}
// FLAT-NEXT: %p = memref.view %arena[%c256][]
// FLAT-NEXT: nn.apply ins(%s : {{.*}}) outs(%p :
// FLAT: %j = memref.view %arena[%c256][] {cfmem.tensor = "j", cfmem.reads = ["p", "q"]}
// FLAT-NEXT: %y = memref.view %arena[%c0][] {cfmem.tensor = "y", cfmem.reads = ["t"]}
// FLAT: scf.if
// FLAT-NEXT: %t = memref.view %arena[%c0][] {cfmem.tensor = "t"}
// FLAT-NEXT: nn.apply ins(%j : {{.*}}) outs(%t :
// FLAT-NOT: memref.copy
// FLAT: } else {
// FLAT-NEXT: "memref.copy"(%j, %y)

// NONE: cfmem.arena_size = 768 : i64
// NONE-NOT: cfmem.alias
