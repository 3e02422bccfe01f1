// nn-lower-to-memref: one i8 arena per function (memory space 1), every
// planned tensor a memref.view of it at its planned offset, compute ops as
// nn.apply into their result's buffer, results as trailing output arguments.
// (aliases=false: every tensor on bytes of its own; aliases.mlir covers aliasing.)
// RUN: xdsl-opt %s --split-input-file -p 'nn-plan-memory{aliases=false strategy=sequential},nn-lower-to-memref' | filecheck %s

// Straight line: %a at 0, %r at 64 (both live at the matmul), %o is the
// result and is computed straight into the output buffer.
nn.global @w size(1088) data(dense<1> : tensor<1088xi8>)
func.func @straight(%x: tensor<1x16xf32>) -> tensor<1x16xf32> {
  %blob = nn.get_global @w : tensor<1088xi8>
  %w1 = nn.view %blob[0] bytes(1024) : tensor<1088xi8> to tensor<16x16xf32>
  %w2 = nn.view %blob[1024] bytes(64) : tensor<1088xi8> to tensor<1x16xf32>
  %a = nn.matmul %x, %w1 : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>
  %r = nn.relu %a : (tensor<1x16xf32>) -> tensor<1x16xf32>
  %o = nn.mul %r, %w2 : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
  func.return %o : tensor<1x16xf32>
}

// CHECK:       "memref.global"() <{sym_name = "w", type = memref<1088xi8>, initial_value = dense<1> : tensor<1088xi8>, sym_visibility = "private", constant}> : () -> ()
// CHECK-NEXT:  "memref.global"() <{sym_name = "arena_straight", type = memref<128xi8, 1 : i64>, initial_value, sym_visibility = "private"}> : () -> ()
// CHECK-LABEL: func.func @straight(%x: memref<1x16xf32>, %out_o: memref<1x16xf32>)
// CHECK-SAME:    cfmem.output_names = ["o"]
// CHECK-NEXT:    %arena = memref.get_global @arena_straight : memref<128xi8, 1 : i64>
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1024 = arith.constant 1024 : index
// CHECK-NEXT:    %c64 = arith.constant 64 : index
// CHECK-NEXT:    %blob = memref.get_global @w : memref<1088xi8>
// CHECK-NEXT:    %w1 = memref.view %blob[%c0][] : memref<1088xi8> to memref<16x16xf32>
// CHECK-NEXT:    %w2 = memref.view %blob[%c1024][] : memref<1088xi8> to memref<1x16xf32>
// CHECK-NEXT:    %a = memref.view %arena[%c0][] {cfmem.tensor = "a"} : memref<128xi8, 1 : i64> to memref<1x16xf32, 1 : i64>
// CHECK-NEXT:    nn.apply ins(%x, %w1 : memref<1x16xf32>, memref<16x16xf32>) outs(%a : memref<1x16xf32, 1 : i64>) {
// CHECK-NEXT:    ^bb0(%{{.*}}: tensor<1x16xf32>, %{{.*}}: tensor<16x16xf32>):
// CHECK-NEXT:      %{{.*}} = nn.matmul
// CHECK-NEXT:      nn.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    %r = memref.view %arena[%c64][] {cfmem.tensor = "r"} : memref<128xi8, 1 : i64> to memref<1x16xf32, 1 : i64>
// CHECK-NEXT:    nn.apply ins(%a : memref<1x16xf32, 1 : i64>) outs(%r : memref<1x16xf32, 1 : i64>) {
// CHECK:         nn.apply ins(%r, %w2 : memref<1x16xf32, 1 : i64>, memref<1x16xf32>) outs(%out_o : memref<1x16xf32>) {
// CHECK:         func.return
// CHECK-NEXT:  }

// -----

// An if with a result: the result buffer is planned in the parent and viewed
// before the scf.if; each branch copies its yielded value into it.
func.func @with_if(%x: tensor<1x16xf32>, %c: tensor<1xi1>) -> tensor<1x16xf32> {
  %a = nn.relu %x : (tensor<1x16xf32>) -> tensor<1x16xf32>
  %r = nn.if %c : tensor<1xi1> -> (tensor<1x16xf32>) {
    %t = nn.add %a, %a : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    nn.yield %t : tensor<1x16xf32>
  } else {
    nn.yield %a : tensor<1x16xf32>
  }
  %o = nn.tanh %r : (tensor<1x16xf32>) -> tensor<1x16xf32>
  func.return %o : tensor<1x16xf32>
}

// CHECK-LABEL: func.func @with_if(%x: memref<1x16xf32>, %c: memref<1xi1>, %out_o: memref<1x16xf32>)
// CHECK-SAME:    cfmem.arena_size = 192
// CHECK:         %a = memref.view %arena[%c0][] {cfmem.tensor = "a"}
// CHECK:         %r = memref.view %arena[%c64][] {cfmem.tensor = "r"}
// CHECK-NEXT:    %[[COND:.*]] = memref.load %c[%c0] : memref<1xi1>
// CHECK-NEXT:    scf.if %[[COND]] {
// CHECK-NEXT:      %t = memref.view %arena[%c128][] {cfmem.tensor = "t"}
// CHECK-NEXT:      nn.apply ins(%a, %a : {{.*}}) outs(%t : memref<1x16xf32, 1 : i64>)
// CHECK:           "memref.copy"(%t, %r)
// CHECK-NEXT:    } else {
// CHECK-NEXT:      "memref.copy"(%a, %r)
// CHECK-NEXT:    }
// CHECK-NEXT:    nn.apply ins(%r : memref<1x16xf32, 1 : i64>) outs(%out_o : memref<1x16xf32>)

// -----

// A nested if: the inner if's result buffer is viewed inside the outer then
// branch; every offset stays absolute in the one arena.
func.func @nested(%x: tensor<1x16xf32>, %c1: tensor<1xi1>, %c2: tensor<1xi1>) -> tensor<1x16xf32> {
  %r = nn.if %c1 : tensor<1xi1> -> (tensor<1x16xf32>) {
    %p = nn.relu %x : (tensor<1x16xf32>) -> tensor<1x16xf32>
    %q = nn.if %c2 : tensor<1xi1> -> (tensor<1x16xf32>) {
      %i = nn.add %p, %p : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
      nn.yield %i : tensor<1x16xf32>
    } else {
      nn.yield %p : tensor<1x16xf32>
    }
    nn.yield %q : tensor<1x16xf32>
  } else {
    nn.yield %x : tensor<1x16xf32>
  }
  func.return %r : tensor<1x16xf32>
}

// CHECK-LABEL: func.func @nested(%x: memref<1x16xf32>, %c1: memref<1xi1>, %c2: memref<1xi1>, %out_r: memref<1x16xf32>)
// CHECK-SAME:    cfmem.arena_size = 192
// CHECK-SAME:    cfmem.output_names = ["r"]
// CHECK:         %{{.*}} = memref.load %c1[%c0] : memref<1xi1>
// CHECK-NEXT:    scf.if %{{.*}} {
// CHECK-NEXT:      %p = memref.view %arena[%c0][] {cfmem.tensor = "p"}
// CHECK-NEXT:      nn.apply ins(%x : memref<1x16xf32>) outs(%p : memref<1x16xf32, 1 : i64>)
// CHECK:           %q = memref.view %arena[%c128][] {cfmem.tensor = "q"}
// CHECK-NEXT:      %{{.*}} = memref.load %c2[%c0] : memref<1xi1>
// CHECK-NEXT:      scf.if %{{.*}} {
// CHECK-NEXT:        %i = memref.view %arena[%c64][] {cfmem.tensor = "i"}
// CHECK-NEXT:        nn.apply ins(%p, %p : {{.*}}) outs(%i : memref<1x16xf32, 1 : i64>)
// CHECK:             "memref.copy"(%i, %q)
// CHECK-NEXT:      } else {
// CHECK-NEXT:        "memref.copy"(%p, %q)
// CHECK-NEXT:      }
// CHECK-NEXT:      "memref.copy"(%q, %out_r)
// CHECK-NEXT:    } else {
// CHECK-NEXT:      "memref.copy"(%x, %out_r)
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
