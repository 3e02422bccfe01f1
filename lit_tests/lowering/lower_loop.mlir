// nn-lower-to-memref on nn.loop: a loop testing a condition its body computes
// becomes scf.while (i < trip count and the condition's slot), a counted loop
// scf.for from 0 to the loaded trip count; the initial values are copied into
// the carried results' bytes, which the body reads; each iteration ends by
// copying the next condition into its slot, the next carried values into the
// results' bytes and each scan element into row i of its result.
// RUN: xdsl-opt %s --split-input-file -p 'nn-plan-memory{aliases=false strategy=sequential},nn-lower-to-memref' | filecheck %s

func.func @wl(%x: tensor<4xf32>, %lim: tensor<1xf32>) -> tensor<4xf32> {
  %big = nn.constant dense<100> : tensor<i64>
  %t = nn.constant dense<true> : tensor<i1>
  %x1 = nn.relu %x : (tensor<4xf32>) -> tensor<4xf32>
  %h = nn.loop %big, %t (%x1) : (tensor<i64>, tensor<i1>, tensor<4xf32>) -> (tensor<4xf32>) {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %a: tensor<4xf32>):
    %b = nn.add %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %s = nn.reduce_sum %b {axes = array<i64: 0>} : (tensor<4xf32>) -> tensor<1xf32>
    %go = nn.cmp %s, %lim {predicate = "lt"} : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xi1>
    %g = nn.reshape %go : tensor<1xi1> to tensor<i1>
    nn.yield %g, %b : tensor<i1>, tensor<4xf32>
  }
  %y = nn.tanh %h : (tensor<4xf32>) -> tensor<4xf32>
  func.return %y : tensor<4xf32>
}

// CHECK-LABEL: func.func @wl(
// CHECK:         %h = memref.view %arena[%[[H:.*]]][] {cfmem.tensor = "h"}
// CHECK-NEXT:    "memref.copy"(%x1, %h)
// CHECK-NEXT:    %c = memref.view %arena[%{{.*}}][] {cfmem.tensor = "c"} {{.*}} to memref<i1, 1 : i64>
// CHECK-NEXT:    "memref.copy"(%t, %c)
// CHECK-NEXT:    %[[N:.*]] = memref.load %big[] : memref<i64>
// CHECK-NEXT:    %trips = arith.index_cast %[[N]] : i64 to index
// CHECK-NEXT:    %{{.*}} = scf.while (%[[I:.*]] = %c0) : (index) -> index {
// CHECK-NEXT:      %[[LT:.*]] = arith.cmpi slt, %[[I]], %trips : index
// CHECK-NEXT:      %[[GO:.*]] = memref.load %c[] : memref<i1, 1 : i64>
// CHECK-NEXT:      %[[AND:.*]] = arith.andi %[[LT]], %[[GO]] : i1
// CHECK-NEXT:      scf.condition(%[[AND]]) %[[I]] : index
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%i: index):
// CHECK-NEXT:      %b = memref.view
// CHECK-NEXT:      nn.apply ins(%h, %h : {{.*}}) outs(%b : {{.*}})
// CHECK:           "memref.copy"(%b, %h)
// CHECK-NEXT:      "memref.copy"(%g, %c)
// CHECK-NEXT:      %[[NEXT:.*]] = arith.addi %i, %c1 : index
// CHECK-NEXT:      scf.yield %[[NEXT]] : index
// CHECK-NEXT:    } attributes {cfmem.loop = "loop#0"}
// CHECK-NEXT:    nn.apply ins(%h : {{.*}}) outs(%out_y : memref<4xf32>)

// -----


func.func @scan(%n: tensor<i64>, %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<3x4xf32>) {
  %t = nn.constant dense<true> : tensor<i1>
  %h, %ys = nn.loop %n, %t (%x) : (tensor<i64>, tensor<i1>, tensor<4xf32>) -> (tensor<4xf32>, tensor<3x4xf32>) {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %a: tensor<4xf32>):
    %b = nn.tanh %a : (tensor<4xf32>) -> tensor<4xf32>
    nn.yield %c, %b, %b : tensor<i1>, tensor<4xf32>, tensor<4xf32>
  }
  func.return %h, %ys : tensor<4xf32>, tensor<3x4xf32>
}

// CHECK-LABEL: func.func @scan(
// CHECK:         %h = memref.view %arena[%c16][] {cfmem.tensor = "h"}
// CHECK-NEXT:    %ys = memref.view %arena[%c32][] {cfmem.tensor = "ys"} {{.*}} to memref<3x4xf32, 1 : i64>
// CHECK-NEXT:    "memref.copy"(%x, %h)
// CHECK-NEXT:    %[[N:.*]] = memref.load %n[] : memref<i64>
// CHECK-NEXT:    %trips = arith.index_cast %[[N]] : i64 to index
// CHECK-NEXT:    scf.for %i = %c0 to %trips step %c1 {
// CHECK-NEXT:      %b = memref.view
// CHECK-NEXT:      nn.apply ins(%h : {{.*}}) outs(%b : {{.*}})
// CHECK:           %[[ROW:.*]] = arith.muli %i, %c16 : index
// CHECK-NEXT:      %[[AT:.*]] = arith.addi %c32, %[[ROW]] : index
// CHECK-NEXT:      %[[DEST:.*]] = memref.view %arena[%[[AT]]][] {cfmem.tensor = "ys"} {{.*}} to memref<4xf32, 1 : i64>
// CHECK-NEXT:      "memref.copy"(%b, %[[DEST]])
// CHECK-NEXT:      "memref.copy"(%b, %h)
// CHECK-NEXT:    } {cfmem.loop = "loop#0"}
// CHECK-NEXT:    "memref.copy"(%h, %out_h)
// CHECK-NEXT:    "memref.copy"(%ys, %out_ys)
