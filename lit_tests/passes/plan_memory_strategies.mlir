// nn-plan-memory on a straight-line function, one RUN line per strategy:
// exact offsets and arena sizes. Intervals (closed steps, from nn-liveness):
// a[0,2] 1K, b[1,3] 2K, c[2,5] 1K, d[3,4] 4K, e[4,7] 4K, f[5,6] 2K, g[6,8] 2K,
// h[7,8] 4K, i[8,9] 4K, o[9,10] 2K, r[10,11] 2K. The lower bound is 10240
// (e + g + h at step 7). Sequential first-fit in execution order:
// a@0, b@1K, c@3K, d@4K, e@8K (0..3K is too small), f@0, g@2K, h@4K, i@8K,
// o@0, r@2K: peak 12288. Large-first places e, d, h, i, then b, g, f, o, r,
// then c, a and reaches the bound.
// aliases=false throughout: no tensor shares bytes with another (aliases.mlir covers that).
// RUN: xdsl-opt %s -p 'nn-plan-memory{aliases=false strategy=sequential}' | filecheck %s --check-prefix=SEQ
// RUN: xdsl-opt %s -p 'nn-plan-memory{aliases=false strategy=large-first}' | filecheck %s --check-prefix=LARGE
// RUN: xdsl-opt %s -p 'nn-plan-memory{aliases=false strategy=best-fit}' | filecheck %s --check-prefix=LARGE
// RUN: xdsl-opt %s -p 'nn-plan-memory{aliases=false strategy=auto}' | filecheck %s --check-prefix=LARGE
// RUN: xdsl-opt %s -p 'nn-plan-memory{aliases=false strategy=short-first}' | filecheck %s --check-prefix=SHORT
// beam and search reach the bound too (their offsets may differ: only the arena is pinned)
// RUN: xdsl-opt %s -p 'nn-plan-memory{aliases=false strategy=beam}' | filecheck %s --check-prefix=BOUND
// RUN: xdsl-opt %s -p 'nn-plan-memory{aliases=false strategy=search time_limit=2.0}' | filecheck %s --check-prefix=BOUND
// BOUND: func.func @chain(%x: tensor<1x256xf32>) -> tensor<1x256xf32> attributes {cfmem.arena_size = 10240 : i64, cfmem.lower_bound = 10240 : i64

func.func @chain(%x: tensor<1x256xf32>) -> tensor<1x256xf32> {
  %a = nn.relu %x : (tensor<1x256xf32>) -> tensor<1x256xf32>
  %b = nn.concat %a, %a {axis = 1 : i64} : (tensor<1x256xf32>, tensor<1x256xf32>) -> tensor<1x512xf32>
  %c = nn.tanh %a : (tensor<1x256xf32>) -> tensor<1x256xf32>
  %d = nn.concat %b, %b {axis = 1 : i64} : (tensor<1x512xf32>, tensor<1x512xf32>) -> tensor<1x1024xf32>
  %e = nn.reduce_mean %d {axes = array<i64: 0>} : (tensor<1x1024xf32>) -> tensor<1x1024xf32>
  %f = nn.concat %c, %c {axis = 1 : i64} : (tensor<1x256xf32>, tensor<1x256xf32>) -> tensor<1x512xf32>
  %g = nn.sigmoid %f : (tensor<1x512xf32>) -> tensor<1x512xf32>
  %h = nn.reshape %e : tensor<1x1024xf32> to tensor<2x512xf32>
  %i = nn.add %h, %g : (tensor<2x512xf32>, tensor<1x512xf32>) -> tensor<2x512xf32>
  %o = nn.reduce_mean %i {axes = array<i64: 0>, keepdims = false} : (tensor<2x512xf32>) -> tensor<512xf32>
  %r = nn.reshape %o : tensor<512xf32> to tensor<2x256xf32>
  %s = nn.reduce_mean %r {axes = array<i64: 0>} : (tensor<2x256xf32>) -> tensor<1x256xf32>
  func.return %s : tensor<1x256xf32>
}

// SEQ-LABEL: func.func @chain(%x: tensor<1x256xf32>) -> tensor<1x256xf32> attributes {cfmem.arena_size = 12288 : i64, cfmem.lower_bound = 10240 : i64
// SEQ-NEXT: %a = nn.relu %x {cfmem.offsets = array<i64: 0>}
// SEQ-NEXT: %b = nn.concat %a, %a {cfmem.offsets = array<i64: 1024>, axis = 1 : i64}
// SEQ-NEXT: %c = nn.tanh %a {cfmem.offsets = array<i64: 3072>}
// SEQ-NEXT: %d = nn.concat %b, %b {cfmem.offsets = array<i64: 4096>, axis = 1 : i64}
// SEQ-NEXT: %e = nn.reduce_mean %d {cfmem.offsets = array<i64: 8192>, axes = array<i64: 0>}
// SEQ-NEXT: %f = nn.concat %c, %c {cfmem.offsets = array<i64: 0>, axis = 1 : i64}
// SEQ-NEXT: %g = nn.sigmoid %f {cfmem.offsets = array<i64: 2048>}
// SEQ-NEXT: %h = nn.reshape %e {cfmem.offsets = array<i64: 4096>}
// SEQ-NEXT: %i = nn.add %h, %g {cfmem.offsets = array<i64: 8192>}
// SEQ-NEXT: %o = nn.reduce_mean %i {cfmem.offsets = array<i64: 0>, axes = array<i64: 0>, keepdims = false}
// SEQ-NEXT: %r = nn.reshape %o {cfmem.offsets = array<i64: 2048>}
// SEQ-NEXT: %s = nn.reduce_mean %r {axes = array<i64: 0>}

// LARGE-LABEL: func.func @chain(%x: tensor<1x256xf32>) -> tensor<1x256xf32> attributes {cfmem.arena_size = 10240 : i64, cfmem.lower_bound = 10240 : i64
// LARGE-NEXT: %a = nn.relu %x {cfmem.offsets = array<i64: 2048>}
// LARGE-NEXT: %b = nn.concat %a, %a {cfmem.offsets = array<i64: 0>, axis = 1 : i64}
// LARGE-NEXT: %c = nn.tanh %a {cfmem.offsets = array<i64: 8192>}
// LARGE-NEXT: %d = nn.concat %b, %b {cfmem.offsets = array<i64: 4096>, axis = 1 : i64}
// LARGE-NEXT: %e = nn.reduce_mean %d {cfmem.offsets = array<i64: 0>, axes = array<i64: 0>}
// LARGE-NEXT: %f = nn.concat %c, %c {cfmem.offsets = array<i64: 4096>, axis = 1 : i64}
// LARGE-NEXT: %g = nn.sigmoid %f {cfmem.offsets = array<i64: 8192>}
// LARGE-NEXT: %h = nn.reshape %e {cfmem.offsets = array<i64: 4096>}
// LARGE-NEXT: %i = nn.add %h, %g {cfmem.offsets = array<i64: 0>}
// LARGE-NEXT: %o = nn.reduce_mean %i {cfmem.offsets = array<i64: 4096>, axes = array<i64: 0>, keepdims = false}
// LARGE-NEXT: %r = nn.reshape %o {cfmem.offsets = array<i64: 0>}
// LARGE-NEXT: %s = nn.reduce_mean %r {axes = array<i64: 0>}

// SHORT-LABEL: func.func @chain(%x: tensor<1x256xf32>) -> tensor<1x256xf32> attributes {cfmem.arena_size = 10240 : i64, cfmem.lower_bound = 10240 : i64
// SHORT-NEXT: %a = nn.relu %x {cfmem.offsets = array<i64: 0>}
// SHORT-NEXT: %b = nn.concat %a, %a {cfmem.offsets = array<i64: 4096>, axis = 1 : i64}
// SHORT-NEXT: %c = nn.tanh %a {cfmem.offsets = array<i64: 8192>}
// SHORT-NEXT: %d = nn.concat %b, %b {cfmem.offsets = array<i64: 0>, axis = 1 : i64}
// SHORT-NEXT: %e = nn.reduce_mean %d {cfmem.offsets = array<i64: 4096>, axes = array<i64: 0>}
// SHORT-NEXT: %f = nn.concat %c, %c {cfmem.offsets = array<i64: 0>, axis = 1 : i64}
// SHORT-NEXT: %g = nn.sigmoid %f {cfmem.offsets = array<i64: 8192>}
// SHORT-NEXT: %h = nn.reshape %e {cfmem.offsets = array<i64: 0>}
// SHORT-NEXT: %i = nn.add %h, %g {cfmem.offsets = array<i64: 4096>}
// SHORT-NEXT: %o = nn.reduce_mean %i {cfmem.offsets = array<i64: 0>, axes = array<i64: 0>, keepdims = false}
// SHORT-NEXT: %r = nn.reshape %o {cfmem.offsets = array<i64: 2048>}
// SHORT-NEXT: %s = nn.reduce_mean %r {axes = array<i64: 0>}
