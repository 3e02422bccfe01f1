// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s

// nn.and/or/xor/not on i1 tensors with numpy broadcasting, nn.select of an i1
// condition between two f32 tensors (all three broadcast), nn.fmod of f32 and
// nn.mod of integers with broadcasting, and nn.cumsum (axis, exclusive and
// reverse; false flags are not printed) print and parse back.

// CHECK-LABEL: func.func @logic(
// CHECK-NEXT:    %and = nn.and %p, %q : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
// CHECK-NEXT:    %or = nn.or %q, %p : (tensor<3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
// CHECK-NEXT:    %xor = nn.xor %p, %s : (tensor<2x3xi1>, tensor<i1>) -> tensor<2x3xi1>
// CHECK-NEXT:    %not = nn.not %p : (tensor<2x3xi1>) -> tensor<2x3xi1>
// CHECK-NEXT:    %sel = nn.select %q, %x, %col : (tensor<3xi1>, tensor<2x1x3xf32>, tensor<4x1xf32>) -> tensor<2x4x3xf32>
// CHECK-NEXT:    %fm = nn.fmod %x, %col : (tensor<2x1x3xf32>, tensor<4x1xf32>) -> tensor<2x4x3xf32>
// CHECK-NEXT:    %md = nn.mod %i, %j : (tensor<2x3xi64>, tensor<3xi64>) -> tensor<2x3xi64>
// CHECK-NEXT:    %md32 = nn.mod %k, %k : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK-NEXT:    %sum = nn.cumsum %x {axis = 2 : i64} : (tensor<2x1x3xf32>) -> tensor<2x1x3xf32>
// CHECK-NEXT:    %back = nn.cumsum %x {axis = 0 : i64, exclusive = true, reverse = true} : (tensor<2x1x3xf32>) -> tensor<2x1x3xf32>
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
func.func @logic(%p: tensor<2x3xi1>, %q: tensor<3xi1>, %s: tensor<i1>, %x: tensor<2x1x3xf32>, %col: tensor<4x1xf32>, %i: tensor<2x3xi64>, %j: tensor<3xi64>, %k: tensor<i32>) {
  %and = nn.and %p, %q : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  %or = nn.or %q, %p : (tensor<3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  %xor = nn.xor %p, %s : (tensor<2x3xi1>, tensor<i1>) -> tensor<2x3xi1>
  %not = nn.not %p : (tensor<2x3xi1>) -> tensor<2x3xi1>
  %sel = nn.select %q, %x, %col : (tensor<3xi1>, tensor<2x1x3xf32>, tensor<4x1xf32>) -> tensor<2x4x3xf32>
  %fm = nn.fmod %x, %col : (tensor<2x1x3xf32>, tensor<4x1xf32>) -> tensor<2x4x3xf32>
  %md = nn.mod %i, %j : (tensor<2x3xi64>, tensor<3xi64>) -> tensor<2x3xi64>
  %md32 = nn.mod %k, %k : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %sum = nn.cumsum %x {axis = 2 : i64} : (tensor<2x1x3xf32>) -> tensor<2x1x3xf32>
  %back = nn.cumsum %x {axis = 0 : i64, exclusive = true, reverse = true} : (tensor<2x1x3xf32>) -> tensor<2x1x3xf32>
  func.return
}
