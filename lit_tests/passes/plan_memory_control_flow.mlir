// nn-plan-memory on ifs. Conditions are function inputs so only tensors of
// 1 KiB multiples are planned; large-first, align 1.
// hoist: each branch is planned on its own, the if reserves one block of
// max(branch peaks) at its step in the parent (cfmem.block = [offset, size]),
// and branch offsets land inside it; the if's result is a parent tensor,
// never inside the block. The other modes are pinned by their arena sizes.
// aliases=false throughout: the intervals below are those of tensors on bytes of their own.
// RUN: xdsl-opt %s -p 'nn-plan-memory{aliases=false mode=hoist strategy=large-first align=1}' | filecheck %s --check-prefix=HOIST
// RUN: xdsl-opt %s -p 'nn-plan-memory{aliases=false mode=exact strategy=large-first align=1}' | filecheck %s --check-prefix=EXACT
// RUN: xdsl-opt %s -p 'nn-plan-memory{aliases=false mode=linearize strategy=large-first align=1}' | filecheck %s --check-prefix=LIN
// RUN: xdsl-opt %s -p 'nn-plan-memory{aliases=false mode=conservative strategy=large-first align=1}' | filecheck %s --check-prefix=CONS
// RUN: xdsl-opt %s -p 'nn-plan-memory{aliases=false mode=naive align=1}' | filecheck %s --check-prefix=NAIVE

func.func @two_branch(%x: tensor<1x256xf32>, %c: tensor<1xi1>) -> tensor<1x256xf32> {
  %a = nn.relu %x : (tensor<1x256xf32>) -> tensor<1x256xf32>
  %r = nn.if %c : tensor<1xi1> -> (tensor<1x256xf32>) {
    %t1 = nn.tanh %a : (tensor<1x256xf32>) -> tensor<1x256xf32>
    %t2 = nn.concat %t1, %t1 {axis = 0 : i64} : (tensor<1x256xf32>, tensor<1x256xf32>) -> tensor<2x256xf32>
    %t3 = nn.reduce_mean %t2 {axes = array<i64: 0>} : (tensor<2x256xf32>) -> tensor<1x256xf32>
    nn.yield %t3 : tensor<1x256xf32>
  } else {
    %e1 = nn.concat %a, %a {axis = 0 : i64} : (tensor<1x256xf32>, tensor<1x256xf32>) -> tensor<2x256xf32>
    %e2 = nn.concat %e1, %e1 {axis = 0 : i64} : (tensor<2x256xf32>, tensor<2x256xf32>) -> tensor<4x256xf32>
    %e3 = nn.reduce_mean %e2 {axes = array<i64: 0>} : (tensor<4x256xf32>) -> tensor<1x256xf32>
    nn.yield %e3 : tensor<1x256xf32>
  }
  %o = nn.add %r, %a : (tensor<1x256xf32>, tensor<1x256xf32>) -> tensor<1x256xf32>
  func.return %o : tensor<1x256xf32>
}

func.func @nested3(%x: tensor<1x256xf32>, %c1: tensor<1xi1>, %c2: tensor<1xi1>, %c3: tensor<1xi1>) -> tensor<1x256xf32> {
  %a = nn.relu %x : (tensor<1x256xf32>) -> tensor<1x256xf32>
  %r = nn.if %c1 : tensor<1xi1> -> (tensor<1x256xf32>) {
    %p = nn.concat %a, %a {axis = 0 : i64} : (tensor<1x256xf32>, tensor<1x256xf32>) -> tensor<2x256xf32>
    %q = nn.if %c2 : tensor<1xi1> -> (tensor<1x256xf32>) {
      %s = nn.concat %p, %p {axis = 0 : i64} : (tensor<2x256xf32>, tensor<2x256xf32>) -> tensor<4x256xf32>
      %u = nn.if %c3 : tensor<1xi1> -> (tensor<1x256xf32>) {
        %v = nn.tanh %a : (tensor<1x256xf32>) -> tensor<1x256xf32>
        nn.yield %v : tensor<1x256xf32>
      } else {
        %w1 = nn.concat %a, %a {axis = 0 : i64} : (tensor<1x256xf32>, tensor<1x256xf32>) -> tensor<2x256xf32>
        %w2 = nn.reduce_mean %w1 {axes = array<i64: 0>} : (tensor<2x256xf32>) -> tensor<1x256xf32>
        nn.yield %w2 : tensor<1x256xf32>
      }
      %m = nn.reduce_mean %s {axes = array<i64: 0>} : (tensor<4x256xf32>) -> tensor<1x256xf32>
      %n = nn.add %m, %u : (tensor<1x256xf32>, tensor<1x256xf32>) -> tensor<1x256xf32>
      nn.yield %n : tensor<1x256xf32>
    } else {
      %k = nn.reduce_mean %p {axes = array<i64: 0>} : (tensor<2x256xf32>) -> tensor<1x256xf32>
      nn.yield %k : tensor<1x256xf32>
    }
    nn.yield %q : tensor<1x256xf32>
  } else {
    nn.yield %a : tensor<1x256xf32>
  }
  %o = nn.add %r, %a : (tensor<1x256xf32>, tensor<1x256xf32>) -> tensor<1x256xf32>
  func.return %o : tensor<1x256xf32>
}

func.func @lopsided(%x: tensor<1x256xf32>, %c: tensor<1xi1>) -> tensor<1x256xf32> {
  %a = nn.relu %x : (tensor<1x256xf32>) -> tensor<1x256xf32>
  %r = nn.if %c : tensor<1xi1> -> (tensor<1x256xf32>) {
    %t = nn.tanh %a : (tensor<1x256xf32>) -> tensor<1x256xf32>
    nn.yield %t : tensor<1x256xf32>
  } else {
    %e1 = nn.concat %a, %a, %a, %a {axis = 0 : i64} : (tensor<1x256xf32>, tensor<1x256xf32>, tensor<1x256xf32>, tensor<1x256xf32>) -> tensor<4x256xf32>
    %e2 = nn.concat %e1, %e1, %e1, %e1 {axis = 0 : i64} : (tensor<4x256xf32>, tensor<4x256xf32>, tensor<4x256xf32>, tensor<4x256xf32>) -> tensor<16x256xf32>
    %e3 = nn.reduce_mean %e2 {axes = array<i64: 0>} : (tensor<16x256xf32>) -> tensor<1x256xf32>
    nn.yield %e3 : tensor<1x256xf32>
  }
  %o = nn.add %r, %a : (tensor<1x256xf32>, tensor<1x256xf32>) -> tensor<1x256xf32>
  func.return %o : tensor<1x256xf32>
}

func.func @late_result(%x: tensor<1x256xf32>, %c: tensor<1xi1>) -> tensor<1x256xf32> {
  %a = nn.relu %x : (tensor<1x256xf32>) -> tensor<1x256xf32>
  %r = nn.if %c : tensor<1xi1> -> (tensor<1x256xf32>) {
    %t = nn.tanh %a : (tensor<1x256xf32>) -> tensor<1x256xf32>
    nn.yield %t : tensor<1x256xf32>
  } else {
    %e = nn.sigmoid %a : (tensor<1x256xf32>) -> tensor<1x256xf32>
    nn.yield %e : tensor<1x256xf32>
  }
  %b1 = nn.concat %a, %a {axis = 0 : i64} : (tensor<1x256xf32>, tensor<1x256xf32>) -> tensor<2x256xf32>
  %b2 = nn.concat %b1, %b1 {axis = 0 : i64} : (tensor<2x256xf32>, tensor<2x256xf32>) -> tensor<4x256xf32>
  %b3 = nn.reduce_mean %b2 {axes = array<i64: 0>} : (tensor<4x256xf32>) -> tensor<1x256xf32>
  %o = nn.add %r, %b3 : (tensor<1x256xf32>, tensor<1x256xf32>) -> tensor<1x256xf32>
  func.return %o : tensor<1x256xf32>
}

func.func @above_in_one_branch(%x: tensor<1x256xf32>, %c: tensor<1xi1>) -> tensor<1x256xf32> {
  %big = nn.concat %x, %x, %x, %x {axis = 0 : i64} : (tensor<1x256xf32>, tensor<1x256xf32>, tensor<1x256xf32>, tensor<1x256xf32>) -> tensor<4x256xf32>
  %r = nn.if %c : tensor<1xi1> -> (tensor<1x256xf32>) {
    %t = nn.reduce_mean %big {axes = array<i64: 0>} : (tensor<4x256xf32>) -> tensor<1x256xf32>
    nn.yield %t : tensor<1x256xf32>
  } else {
    %e1 = nn.concat %x, %x, %x, %x {axis = 0 : i64} : (tensor<1x256xf32>, tensor<1x256xf32>, tensor<1x256xf32>, tensor<1x256xf32>) -> tensor<4x256xf32>
    %e2 = nn.reduce_mean %e1 {axes = array<i64: 0>} : (tensor<4x256xf32>) -> tensor<1x256xf32>
    nn.yield %e2 : tensor<1x256xf32>
  }
  func.return %r : tensor<1x256xf32>
}


// HOIST-LABEL: func.func @two_branch(
// HOIST-SAME: cfmem.arena_size = 8192 : i64, cfmem.lower_bound = 8192 : i64
// HOIST-NEXT: %a = nn.relu %x {cfmem.offsets = array<i64: 6144>}
// HOIST-NEXT: %r = nn.if %c : tensor<1xi1> -> (tensor<1x256xf32>) {
// HOIST-NEXT: %t1 = nn.tanh %a {cfmem.offsets = array<i64: 2048>}
// HOIST-NEXT: %t2 = nn.concat %t1, %t1 {cfmem.offsets = array<i64: 0>, axis = 0 : i64}
// HOIST-NEXT: %t3 = nn.reduce_mean %t2 {cfmem.offsets = array<i64: 2048>, axes = array<i64: 0>}
// HOIST-NEXT: nn.yield %t3
// HOIST-NEXT: } else {
// HOIST-NEXT: %e1 = nn.concat %a, %a {cfmem.offsets = array<i64: 4096>, axis = 0 : i64}
// HOIST-NEXT: %e2 = nn.concat %e1, %e1 {cfmem.offsets = array<i64: 0>, axis = 0 : i64}
// HOIST-NEXT: %e3 = nn.reduce_mean %e2 {cfmem.offsets = array<i64: 4096>, axes = array<i64: 0>}
// HOIST-NEXT: nn.yield %e3
// HOIST-NEXT: } {cfmem.offsets = array<i64: 7168>, cfmem.block = array<i64: 0, 6144>}
// HOIST-NEXT: %o = nn.add %r, %a
// HOIST-NEXT: func.return %o

// HOIST-LABEL: func.func @nested3(
// HOIST-SAME: cfmem.arena_size = 13312 : i64, cfmem.lower_bound = 13312 : i64
// HOIST-NEXT: %a = nn.relu %x {cfmem.offsets = array<i64: 11264>}
// HOIST-NEXT: %r = nn.if %c1 : tensor<1xi1> -> (tensor<1x256xf32>) {
// HOIST-NEXT: %p = nn.concat %a, %a {cfmem.offsets = array<i64: 8192>, axis = 0 : i64}
// HOIST-NEXT: %q = nn.if %c2 : tensor<1xi1> -> (tensor<1x256xf32>) {
// HOIST-NEXT: %s = nn.concat %p, %p {cfmem.offsets = array<i64: 0>, axis = 0 : i64}
// HOIST-NEXT: %u = nn.if %c3 : tensor<1xi1> -> (tensor<1x256xf32>) {
// HOIST-NEXT: %v = nn.tanh %a {cfmem.offsets = array<i64: 4096>}
// HOIST-NEXT: nn.yield %v
// HOIST-NEXT: } else {
// HOIST-NEXT: %w1 = nn.concat %a, %a {cfmem.offsets = array<i64: 4096>, axis = 0 : i64}
// HOIST-NEXT: %w2 = nn.reduce_mean %w1 {cfmem.offsets = array<i64: 6144>, axes = array<i64: 0>}
// HOIST-NEXT: nn.yield %w2
// HOIST-NEXT: } {cfmem.offsets = array<i64: 7168>, cfmem.block = array<i64: 4096, 3072>}
// HOIST-NEXT: %m = nn.reduce_mean %s {cfmem.offsets = array<i64: 4096>, axes = array<i64: 0>}
// HOIST-NEXT: %n = nn.add %m, %u {cfmem.offsets = array<i64: 0>}
// HOIST-NEXT: nn.yield %n
// HOIST-NEXT: } else {
// HOIST-NEXT: %k = nn.reduce_mean %p {cfmem.offsets = array<i64: 0>, axes = array<i64: 0>}
// HOIST-NEXT: nn.yield %k
// HOIST-NEXT: } {cfmem.offsets = array<i64: 10240>, cfmem.block = array<i64: 0, 8192>}
// HOIST-NEXT: nn.yield %q
// HOIST-NEXT: } else {
// HOIST-NEXT: nn.yield %a
// HOIST-NEXT: } {cfmem.offsets = array<i64: 12288>, cfmem.block = array<i64: 0, 11264>}
// HOIST-NEXT: %o = nn.add %r, %a
// HOIST-NEXT: func.return %o

// HOIST-LABEL: func.func @lopsided(
// HOIST-SAME: cfmem.arena_size = 22528 : i64, cfmem.lower_bound = 22528 : i64
// HOIST-NEXT: %a = nn.relu %x {cfmem.offsets = array<i64: 20480>}
// HOIST-NEXT: %r = nn.if %c : tensor<1xi1> -> (tensor<1x256xf32>) {
// HOIST-NEXT: %t = nn.tanh %a {cfmem.offsets = array<i64: 0>}
// HOIST-NEXT: nn.yield %t
// HOIST-NEXT: } else {
// HOIST-NEXT: %e1 = nn.concat %a, %a, %a, %a {cfmem.offsets = array<i64: 16384>, axis = 0 : i64}
// HOIST-NEXT: %e2 = nn.concat %e1, %e1, %e1, %e1 {cfmem.offsets = array<i64: 0>, axis = 0 : i64}
// HOIST-NEXT: %e3 = nn.reduce_mean %e2 {cfmem.offsets = array<i64: 16384>, axes = array<i64: 0>}
// HOIST-NEXT: nn.yield %e3
// HOIST-NEXT: } {cfmem.offsets = array<i64: 21504>, cfmem.block = array<i64: 0, 20480>}
// HOIST-NEXT: %o = nn.add %r, %a
// HOIST-NEXT: func.return %o

// HOIST-LABEL: func.func @late_result(
// HOIST-SAME: cfmem.arena_size = 7168 : i64, cfmem.lower_bound = 7168 : i64
// HOIST-NEXT: %a = nn.relu %x {cfmem.offsets = array<i64: 0>}
// HOIST-NEXT: %r = nn.if %c : tensor<1xi1> -> (tensor<1x256xf32>) {
// HOIST-NEXT: %t = nn.tanh %a {cfmem.offsets = array<i64: 1024>}
// HOIST-NEXT: nn.yield %t
// HOIST-NEXT: } else {
// HOIST-NEXT: %e = nn.sigmoid %a {cfmem.offsets = array<i64: 1024>}
// HOIST-NEXT: nn.yield %e
// HOIST-NEXT: } {cfmem.offsets = array<i64: 6144>, cfmem.block = array<i64: 1024, 1024>}
// HOIST-NEXT: %b1 = nn.concat %a, %a {cfmem.offsets = array<i64: 4096>, axis = 0 : i64}
// HOIST-NEXT: %b2 = nn.concat %b1, %b1 {cfmem.offsets = array<i64: 0>, axis = 0 : i64}
// HOIST-NEXT: %b3 = nn.reduce_mean %b2 {cfmem.offsets = array<i64: 4096>, axes = array<i64: 0>}
// HOIST-NEXT: %o = nn.add %r, %b3
// HOIST-NEXT: func.return %o

// HOIST-LABEL: func.func @above_in_one_branch(
// HOIST-SAME: cfmem.arena_size = 9216 : i64, cfmem.lower_bound = 9216 : i64
// HOIST-NEXT: %big = nn.concat %x, %x, %x, %x {cfmem.offsets = array<i64: 5120>, axis = 0 : i64}
// HOIST-NEXT: %r = nn.if %c : tensor<1xi1> -> (tensor<1x256xf32>) {
// HOIST-NEXT: %t = nn.reduce_mean %big {cfmem.offsets = array<i64: 0>, axes = array<i64: 0>}
// HOIST-NEXT: nn.yield %t
// HOIST-NEXT: } else {
// HOIST-NEXT: %e1 = nn.concat %x, %x, %x, %x {cfmem.offsets = array<i64: 0>, axis = 0 : i64}
// HOIST-NEXT: %e2 = nn.reduce_mean %e1 {cfmem.offsets = array<i64: 4096>, axes = array<i64: 0>}
// HOIST-NEXT: nn.yield %e2
// HOIST-NEXT: } {cfmem.block = array<i64: 0, 5120>}
// HOIST-NEXT: func.return %r

// EXACT-LABEL: func.func @two_branch(
// EXACT-SAME: cfmem.arena_size = 8192 : i64, cfmem.lower_bound = 8192 : i64
// EXACT-LABEL: func.func @nested3(
// EXACT-SAME: cfmem.arena_size = 13312 : i64, cfmem.lower_bound = 13312 : i64
// EXACT-LABEL: func.func @lopsided(
// EXACT-SAME: cfmem.arena_size = 22528 : i64, cfmem.lower_bound = 22528 : i64
// EXACT-LABEL: func.func @late_result(
// EXACT-SAME: cfmem.arena_size = 7168 : i64, cfmem.lower_bound = 7168 : i64
// EXACT-LABEL: func.func @above_in_one_branch(
// EXACT-SAME: cfmem.arena_size = 9216 : i64, cfmem.lower_bound = 9216 : i64

// LIN-LABEL: func.func @two_branch(
// LIN-SAME: cfmem.arena_size = 8192 : i64, cfmem.lower_bound = 8192 : i64
// LIN-LABEL: func.func @nested3(
// LIN-SAME: cfmem.arena_size = 13312 : i64, cfmem.lower_bound = 13312 : i64
// LIN-LABEL: func.func @lopsided(
// LIN-SAME: cfmem.arena_size = 22528 : i64, cfmem.lower_bound = 22528 : i64
// LIN-LABEL: func.func @late_result(
// LIN-SAME: cfmem.arena_size = 7168 : i64, cfmem.lower_bound = 7168 : i64
// LIN-LABEL: func.func @above_in_one_branch(
// LIN-SAME: cfmem.arena_size = 9216 : i64, cfmem.lower_bound = 9216 : i64

// CONS-LABEL: func.func @two_branch(
// CONS-SAME: cfmem.arena_size = 13312 : i64, cfmem.lower_bound = 8192 : i64
// CONS-LABEL: func.func @nested3(
// CONS-SAME: cfmem.arena_size = 17408 : i64, cfmem.lower_bound = 13312 : i64
// CONS-LABEL: func.func @lopsided(
// CONS-SAME: cfmem.arena_size = 24576 : i64, cfmem.lower_bound = 22528 : i64
// CONS-LABEL: func.func @late_result(
// CONS-SAME: cfmem.arena_size = 7168 : i64, cfmem.lower_bound = 7168 : i64
// CONS-LABEL: func.func @above_in_one_branch(
// CONS-SAME: cfmem.arena_size = 10240 : i64, cfmem.lower_bound = 9216 : i64

// NAIVE-LABEL: func.func @two_branch(
// NAIVE-SAME: cfmem.arena_size = 13312 : i64, cfmem.lower_bound = 8192 : i64
// NAIVE-LABEL: func.func @nested3(
// NAIVE-SAME: cfmem.arena_size = 17408 : i64, cfmem.lower_bound = 13312 : i64
// NAIVE-LABEL: func.func @lopsided(
// NAIVE-SAME: cfmem.arena_size = 24576 : i64, cfmem.lower_bound = 22528 : i64
// NAIVE-LABEL: func.func @late_result(
// NAIVE-SAME: cfmem.arena_size = 11264 : i64, cfmem.lower_bound = 7168 : i64
// NAIVE-LABEL: func.func @above_in_one_branch(
// NAIVE-SAME: cfmem.arena_size = 10240 : i64, cfmem.lower_bound = 9216 : i64
