// memref-plan-arena: allocations of a bufferized function become views of one arena.
// RUN: xdsl-opt %s --split-input-file -p 'memref-plan-arena{strategy=sequential}' --verify-diagnostics | filecheck %s
// RUN: xdsl-opt %s --split-input-file -p 'memref-plan-arena{strategy=sequential arena=argument}' --verify-diagnostics | filecheck %s --check-prefix=ARG

// A buffer built in a branch and yielded out lives in the parent from the if on; the two
// branches' buffers yielded as the same result share one slot (one of them exists); the
// branch's own temporary shares nothing with them. Deallocs are gone.
func.func @branches(%c: i1, %x: memref<4xf32>, %out: memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  "memref.copy"(%x, %a) : (memref<4xf32>, memref<4xf32>) -> ()
  %r = scf.if %c -> (memref<4xf32>) {
    %b = memref.alloc() : memref<4xf32>
    "memref.copy"(%a, %b) : (memref<4xf32>, memref<4xf32>) -> ()
    %t = memref.alloc() : memref<4xf32>
    "memref.copy"(%b, %t) : (memref<4xf32>, memref<4xf32>) -> ()
    memref.dealloc %b : memref<4xf32>
    scf.yield %t : memref<4xf32>
  } else {
    %e = memref.alloc() : memref<4xf32>
    "memref.copy"(%a, %e) : (memref<4xf32>, memref<4xf32>) -> ()
    scf.yield %e : memref<4xf32>
  }
  memref.dealloc %a : memref<4xf32>
  "memref.copy"(%r, %out) : (memref<4xf32>, memref<4xf32>) -> ()
  memref.dealloc %r : memref<4xf32>
  func.return
}

// CHECK:      "memref.global"() <{sym_name = "arena_branches", type = memref<48xi8>, initial_value, sym_visibility = "private", alignment = 16 : i64}>
// CHECK:      func.func @branches(%c: i1, %x: memref<4xf32>, %out: memref<4xf32>) attributes {cfmem.arena_size = 48 : i64, cfmem.lower_bound = 48 : i64, cfmem.plan = "exact/sequential"}
// CHECK-NEXT:   %arena = memref.get_global @arena_branches : memref<48xi8>
// CHECK:        %a = memref.view %arena[%{{.*}}][] : memref<48xi8> to memref<4xf32>
// CHECK:          %b = memref.view %arena
// CHECK:          %t = memref.view %arena[%[[SLOT:.*]]][]
// CHECK:          %e = memref.view %arena[%[[SLOT]]][]
// CHECK-NOT:    memref.dealloc
// CHECK-NOT:    memref.alloc
// CHECK:        func.return

// ARG:        func.func @branches(%c: i1, %x: memref<4xf32>, %out: memref<4xf32>, %arena: memref<48xi8> {cfmem.arena})
// ARG-NOT:    memref.global
// ARG:        %a = memref.view %arena

// -----

// A temporary of a loop's body reuses its bytes on every iteration; the accumulator,
// allocated before the loop and read after it, lives through the loop.
func.func @loop(%x: memref<4xf32>, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %acc = memref.alloc() : memref<4xf32>
  "memref.copy"(%x, %acc) : (memref<4xf32>, memref<4xf32>) -> ()
  scf.for %i = %c0 to %c3 step %c1 {
    %t = memref.alloc() : memref<4xf32>
    "memref.copy"(%acc, %t) : (memref<4xf32>, memref<4xf32>) -> ()
    "memref.copy"(%t, %acc) : (memref<4xf32>, memref<4xf32>) -> ()
    memref.dealloc %t : memref<4xf32>
  }
  %s = memref.subview %acc[0] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1]>>
  %o = memref.subview %out[0] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1]>>
  "memref.copy"(%s, %o) : (memref<2xf32, strided<[1]>>, memref<2xf32, strided<[1]>>) -> ()
  memref.dealloc %acc : memref<4xf32>
  func.return
}

// CHECK:      func.func @loop({{.*}}) attributes {cfmem.arena_size = 32 : i64, cfmem.lower_bound = 32 : i64
// CHECK:        %acc = memref.view %arena[%c0{{.*}}][] : memref<32xi8> to memref<4xf32>
// CHECK:          %t = memref.view %arena[%c16][] : memref<32xi8> to memref<4xf32>

// -----

func.func @dynamic(%n: index) {
  // CHECK: 'memref.alloc' defining %d in @dynamic: memref<?xf32> has a dynamic size %n with no upper bound to plan it with (clamp it, e.g. arith.minui %n, %c64)
  %d = memref.alloc(%n) : memref<?xf32>
  func.return
}

// -----

// A dynamic size with a bound: the allocation takes the bytes of its largest size and its
// view keeps the size.
func.func @bounded(%n: index, %out: memref<16xf32>) {
  %c10 = arith.constant 10 : index
  %m = arith.minui %n, %c10 : index
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %d = memref.alloc(%m) : memref<?xf32>
  %e = memref.alloc() : memref<4xf32>
  linalg.fill ins(%one : f32) outs(%d : memref<?xf32>)
  linalg.fill ins(%one : f32) outs(%e : memref<4xf32>)
  %x = memref.load %d[%c0] : memref<?xf32>
  %y = memref.load %e[%c0] : memref<4xf32>
  %z = arith.addf %x, %y : f32
  memref.store %z, %out[%c0] : memref<16xf32>
  memref.dealloc %e : memref<4xf32>
  memref.dealloc %d : memref<?xf32>
  func.return
}

// CHECK:      func.func @bounded({{.*}}) attributes {cfmem.arena_size = 64 : i64, cfmem.lower_bound = 56 : i64
// CHECK:        %d = memref.view %arena[%c{{[0-9]+}}][%m] : memref<64xi8> to memref<?xf32>

// -----

func.func @escapes() -> memref<4xf32> {
  %r = memref.alloc() : memref<4xf32>
  // CHECK: 'func.return' after %r in @escapes: %r escapes the function (return results through out-params to plan them)
  func.return %r : memref<4xf32>
}

// -----

func.func private @opaque(memref<4xf32>)

func.func @called() {
  %r = memref.alloc() : memref<4xf32>
  // CHECK: 'func.call' after %r in @called uses %r: its aliasing cannot be seen (memref-plan-arena plans memref, linalg and scf ops)
  func.call @opaque(%r) : (memref<4xf32>) -> ()
  func.return
}

// -----

// A buffer an scf.for carries into its next iteration gets two slots: iteration k writes
// one while it reads iteration k-1's in the other; (iv - lb) / step modulo 2 picks the slot.
func.func @carried(%x: memref<4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = memref.alloc() : memref<4xf32>
  "memref.copy"(%x, %init) : (memref<4xf32>, memref<4xf32>) -> ()
  %last = scf.for %i = %c0 to %n step %c1 iter_args(%prev = %init) -> (memref<4xf32>) {
    %next = memref.alloc() : memref<4xf32>
    "memref.copy"(%prev, %next) : (memref<4xf32>, memref<4xf32>) -> ()
    scf.yield %next : memref<4xf32>
  }
  "memref.copy"(%last, %x) : (memref<4xf32>, memref<4xf32>) -> ()
  func.return
}

// CHECK:      func.func @carried({{.*}}) attributes {cfmem.arena_size = 48 : i64, cfmem.lower_bound = 48 : i64
// CHECK:        %last = scf.for %i = %c0_{{.*}} to %n step %c1 iter_args(%prev = %init) -> (memref<4xf32>) {
// CHECK-NEXT:     %{{.*}} = arith.constant 2 : index
// CHECK-NEXT:     %{{.*}} = arith.constant 0 : index
// CHECK-NEXT:     %[[K:.*]] = arith.subi %i, %c0_{{.*}} : index
// CHECK-NEXT:     %[[T:.*]] = arith.divui %[[K]], %c1 : index
// CHECK-NEXT:     %[[P:.*]] = arith.remui %[[T]], %{{.*}} : index
// CHECK-NEXT:     %[[ODD:.*]] = arith.cmpi ne, %[[P]], %{{.*}} : index
// CHECK-NEXT:     %[[OFF:.*]] = arith.select %[[ODD]], %c{{[0-9]+}}, %c{{[0-9]+}} : index
// CHECK-NEXT:     %next = memref.view %arena[%[[OFF]]][] : memref<48xi8> to memref<4xf32>

// -----

// In an scf.while, an i1 threaded through the loop (false at first, flipped at the end of
// each iteration) picks the slot.
func.func @carried_by_while(%x: memref<4xf32>) {
  %init = memref.alloc() : memref<4xf32>
  %last = scf.while (%prev = %init) : (memref<4xf32>) -> memref<4xf32> {
    %go = arith.constant false
    scf.condition(%go) %prev : memref<4xf32>
  } do {
  ^bb0(%cur: memref<4xf32>):
    %next = memref.alloc() : memref<4xf32>
    "memref.copy"(%cur, %next) : (memref<4xf32>, memref<4xf32>) -> ()
    scf.yield %next : memref<4xf32>
  }
  "memref.copy"(%last, %x) : (memref<4xf32>, memref<4xf32>) -> ()
  func.return
}

// CHECK:      func.func @carried_by_while(%x: memref<4xf32>) attributes {cfmem.arena_size = 48 : i64
// CHECK:        %[[FALSE:.*]] = arith.constant false
// CHECK-NEXT:   %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT:   %last, %{{.*}} = scf.while (%prev = %init, %[[P:.*]] = %[[FALSE]]) : (memref<4xf32>, i1) -> (memref<4xf32>, i1) {
// CHECK:          scf.condition(%go) %prev, %[[P]] : memref<4xf32>, i1
// CHECK:        ^bb0(%cur: memref<4xf32>, %[[Q:.*]]: i1):
// CHECK-NEXT:     %[[OFF:.*]] = arith.select %[[Q]], %c{{[0-9]+}}, %c{{[0-9]+}} : index
// CHECK-NEXT:     %next = memref.view %arena[%[[OFF]]][] : memref<48xi8> to memref<4xf32>
// CHECK:          %[[FLIP:.*]] = arith.xori %[[Q]], %[[TRUE]] : i1
// CHECK-NEXT:     scf.yield %next, %[[FLIP]] : memref<4xf32>, i1

// -----

func.func @carried_twice(%x: memref<4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = memref.alloc() : memref<4xf32>
  %a, %b = scf.for %i = %c0 to %n step %c1 iter_args(%p = %init, %q = %init) -> (memref<4xf32>, memref<4xf32>) {
    // CHECK: 'memref.alloc' defining %next in @carried_twice: the buffer is carried into the next iteration of 'scf.for' defining %a in @carried_twice more than once, or with the previous iteration's buffer (two slots are not enough)
    %next = memref.alloc() : memref<4xf32>
    "memref.copy"(%p, %next) : (memref<4xf32>, memref<4xf32>) -> ()
    scf.yield %next, %p : memref<4xf32>, memref<4xf32>
  }
  "memref.copy"(%b, %x) : (memref<4xf32>, memref<4xf32>) -> ()
  func.return
}

// -----

// Calls: with arena=global each function has its own arena; with arena=argument the callee is
// planned first and each call passes it an allocation of its arena's size, which the caller
// plans with its own buffers (the first call's overlaps nothing %keep needs, the second's reuses
// %keep's bytes).
func.func private @scaled(%x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %t = memref.alloc() : memref<4xf32>
  memref.store %x, %t[%c0] : memref<4xf32>
  %y = memref.load %t[%c0] : memref<4xf32>
  memref.dealloc %t : memref<4xf32>
  func.return %y : f32
}

func.func @twice(%x: f32, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %keep = memref.alloc() : memref<8xf32>
  memref.store %x, %keep[%c0] : memref<8xf32>
  %a = func.call @scaled(%x) : (f32) -> f32
  %k = memref.load %keep[%c0] : memref<8xf32>
  memref.dealloc %keep : memref<8xf32>
  %b = func.call @scaled(%k) : (f32) -> f32
  %s = arith.addf %a, %b : f32
  memref.store %s, %out[%c0] : memref<4xf32>
  func.return
}

// CHECK:      "memref.global"() <{sym_name = "arena_scaled", type = memref<16xi8>
// CHECK:      func.func private @scaled(%x: f32) -> f32 attributes {cfmem.arena_size = 16 : i64
// CHECK:      "memref.global"() <{sym_name = "arena_twice", type = memref<32xi8>
// CHECK:      func.func @twice(%x: f32, %out: memref<4xf32>) attributes {cfmem.arena_size = 32 : i64
// CHECK:        func.call @scaled(%x) : (f32) -> f32

// ARG:        func.func private @scaled(%x: f32, %arena: memref<16xi8> {cfmem.arena}) -> f32 attributes {cfmem.arena_size = 16 : i64
// ARG:        func.func @twice(%x: f32, %out: memref<4xf32>, %arena: memref<48xi8> {cfmem.arena}) attributes {cfmem.arena_size = 48 : i64
// ARG:          %keep = memref.view %arena[%[[KEEP:.*]]][] : memref<48xi8> to memref<8xf32>
// ARG:          %arena_scaled = memref.view %arena[%[[FIRST:.*]]][] : memref<48xi8> to memref<16xi8>
// ARG-NEXT:     %a = func.call @scaled(%x, %arena_scaled) : (f32, memref<16xi8>) -> f32
// ARG:          %arena_scaled_1 = memref.view %arena[%[[KEEP]]][] : memref<48xi8> to memref<16xi8>
// ARG-NEXT:     %b = func.call @scaled(%k, %arena_scaled_1) : (f32, memref<16xi8>) -> f32

// -----

func.func @recursive(%n: index, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = memref.alloc() : memref<4xf32>
  "memref.copy"(%out, %t) : (memref<4xf32>, memref<4xf32>) -> ()
  %more = arith.cmpi ugt, %n, %c0 : index
  scf.if %more {
    %m = arith.subi %n, %c1 : index
    // CHECK: 'func.call' after %m in @recursive: the call is recursive (@recursive -> @recursive); a recursive function's buffers cannot have fixed addresses
    // ARG: 'func.call' after %m in @recursive: the call is recursive (@recursive -> @recursive); its arena would have to hold itself
    func.call @recursive(%m, %out) : (index, memref<4xf32>) -> ()
  }
  "memref.copy"(%t, %out) : (memref<4xf32>, memref<4xf32>) -> ()
  memref.dealloc %t : memref<4xf32>
  func.return
}

// -----

// Upstream's deallocation pipeline stores buffer addresses into a buffer and passes it to a
// helper defined in the module, which writes "free this?" flags that only decide frees. The
// helper keeps no pointer: the call is a use of the buffers passed to it, the frees go, the
// helper is left alone. An index takes 8 bytes (index-bitwidth=64).
func.func @frees_by_address(%x: memref<4xf32>, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4xf32>
  "memref.copy"(%x, %a) : (memref<4xf32>, memref<4xf32>) -> ()
  "memref.copy"(%a, %out) : (memref<4xf32>, memref<4xf32>) -> ()
  %p = memref.alloc() : memref<1xindex>
  %f = memref.alloc() : memref<1xi1>
  %addr = "memref.extract_aligned_pointer_as_index"(%a) : (memref<4xf32>) -> index
  memref.store %addr, %p[%c0] : memref<1xindex>
  %pc = "memref.cast"(%p) : (memref<1xindex>) -> memref<?xindex>
  %fc = "memref.cast"(%f) : (memref<1xi1>) -> memref<?xi1>
  func.call @helper(%pc, %fc) : (memref<?xindex>, memref<?xi1>) -> ()
  %free = memref.load %f[%c0] : memref<1xi1>
  scf.if %free {
    memref.dealloc %a : memref<4xf32>
  }
  memref.dealloc %p : memref<1xindex>
  memref.dealloc %f : memref<1xi1>
  func.return
}
func.func private @helper(%ptrs: memref<?xindex>, %flags: memref<?xi1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %ptrs, %c0 : memref<?xindex>
  scf.for %i = %c0 to %n step %c1 {
    %ptr = memref.load %ptrs[%i] : memref<?xindex>
    %nonnull = arith.cmpi ne, %ptr, %c0 : index
    memref.store %nonnull, %flags[%i] : memref<?xi1>
  }
  func.return
}

// CHECK:      func.func @frees_by_address({{.*}}) attributes {cfmem.arena_size = 33 : i64
// CHECK:        %p = memref.view %arena[%{{.*}}][] : memref<33xi8> to memref<1xindex>
// CHECK:        func.call @helper(%pc, %fc) : (memref<?xindex>, memref<?xi1>) -> ()
// CHECK-NEXT:   %free = memref.load %f[%{{.*}}] : memref<1xi1>
// CHECK-NEXT:   scf.if %free {
// CHECK-NEXT:   }
// CHECK-NEXT:   func.return
// CHECK:      func.func private @helper(%ptrs: memref<?xindex>, %flags: memref<?xi1>) {
// CHECK-NOT:    cfmem.arena_size
// CHECK:        memref.store %nonnull, %flags[%i] : memref<?xi1>

// -----

func.func private @declared(memref<?xindex>)

func.func @address_to_a_declared_function() {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4xf32>
  %p = memref.alloc() : memref<1xindex>
  %addr = "memref.extract_aligned_pointer_as_index"(%a) : (memref<4xf32>) -> index
  memref.store %addr, %p[%c0] : memref<1xindex>
  %pc = "memref.cast"(%p) : (memref<1xindex>) -> memref<?xindex>
  // CHECK: 'func.call' after %pc in @address_to_a_declared_function passes values that depend on buffer addresses to @declared, which is not defined in the module (its body must show it keeps no pointer)
  func.call @declared(%pc) : (memref<?xindex>) -> ()
  func.return
}
