// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s

// Round-trip of nn.gather (ONNX Gather: the axis replaced by the indices' shape,
// a rank-0 index dropping it) and nn.gather_elements (ONNX GatherElements: the
// indices' shape, no larger than the data off the axis), on data of any element
// type and indices of i32 or i64; a negative axis counts from the end. And
// nn.top_k (ONNX TopK's Indices, i64): axis -1 and largest are defaults and not
// printed.

// CHECK-LABEL: func.func @gathers(
// CHECK-NEXT:    %rows = nn.gather %x, %i {axis = 0 : i64} : (tensor<3x4xf32>, tensor<2xi64>) -> tensor<2x4xf32>
// CHECK-NEXT:    %grid = nn.gather %x, %m {axis = 1 : i64} : (tensor<3x4xf32>, tensor<2x2xi32>) -> tensor<3x2x2xf32>
// CHECK-NEXT:    %last = nn.gather %x, %s {axis = -1 : i64} : (tensor<3x4xf32>, tensor<i64>) -> tensor<3xf32>
// CHECK-NEXT:    %ints = nn.gather %n, %i {axis = 0 : i64} : (tensor<5xi64>, tensor<2xi64>) -> tensor<2xi64>
// CHECK-NEXT:    %picked = nn.gather_elements %x, %e {axis = 0 : i64} : (tensor<3x4xf32>, tensor<2x4xi32>) -> tensor<2x4xf32>
// CHECK-NEXT:    %fewer = nn.gather_elements %x, %m {axis = -1 : i64} : (tensor<3x4xf32>, tensor<2x2xi32>) -> tensor<2x2xf32>
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
func.func @gathers(%x: tensor<3x4xf32>, %i: tensor<2xi64>, %m: tensor<2x2xi32>, %e: tensor<2x4xi32>, %s: tensor<i64>, %n: tensor<5xi64>) {
  %rows = nn.gather %x, %i {axis = 0 : i64} : (tensor<3x4xf32>, tensor<2xi64>) -> tensor<2x4xf32>
  %grid = nn.gather %x, %m {axis = 1 : i64} : (tensor<3x4xf32>, tensor<2x2xi32>) -> tensor<3x2x2xf32>
  %last = nn.gather %x, %s {axis = -1 : i64} : (tensor<3x4xf32>, tensor<i64>) -> tensor<3xf32>
  %ints = nn.gather %n, %i {axis = 0 : i64} : (tensor<5xi64>, tensor<2xi64>) -> tensor<2xi64>
  %picked = nn.gather_elements %x, %e {axis = 0 : i64} : (tensor<3x4xf32>, tensor<2x4xi32>) -> tensor<2x4xf32>
  %fewer = nn.gather_elements %x, %m {axis = -1 : i64} : (tensor<3x4xf32>, tensor<2x2xi32>) -> tensor<2x2xf32>
  func.return
}

// CHECK-LABEL: func.func @top_k(
// CHECK-NEXT:    %best = nn.top_k %x {k = 2 : i64} : (tensor<3x4xf32>) -> tensor<3x2xi64>
// CHECK-NEXT:    %least = nn.top_k %x {k = 3 : i64, axis = 0 : i64, largest = false} : (tensor<3x4xf32>) -> tensor<3x4xi64>
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
func.func @top_k(%x: tensor<3x4xf32>) {
  %best = nn.top_k %x {k = 2 : i64, axis = -1 : i64, largest = true} : (tensor<3x4xf32>) -> tensor<3x2xi64>
  %least = nn.top_k %x {k = 3 : i64, axis = 0 : i64, largest = false} : (tensor<3x4xf32>) -> tensor<3x4xi64>
  func.return
}
