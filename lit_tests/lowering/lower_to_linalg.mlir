// nn-lower-to-linalg: each nn.apply becomes upstream linalg on the same
// memrefs. Broadcasting lives in the indexing maps; a padded conv runs one
// generic over the weight that loads each tap of its input (the pad value
// where the tap falls outside), its channel from the output's group; softmax
// keeps its maxima and sums in views of its scratch bytes (the nn.apply's
// scratch operand, planned in the arena); a reshape reads the row-major position of each
// output element; avg-pool divides by a constant global of window counts.
// The second RUN line checks that the output parses back.
// RUN: xdsl-opt %s --split-input-file -p nn-lower-to-linalg | filecheck %s
// RUN: xdsl-opt %s --split-input-file -p nn-lower-to-linalg | xdsl-opt --split-input-file | filecheck %s

// Broadcasting: %y (3x1) is aligned to the last two loops and its size-1
// dimension read at index 0.
func.func @add_broadcast(%x: memref<2x3x4xf32, 1 : i64>, %y: memref<3x1xf32>, %out: memref<2x3x4xf32>) {
  nn.apply ins(%x, %y : memref<2x3x4xf32, 1 : i64>, memref<3x1xf32>) outs(%out : memref<2x3x4xf32>) {
  ^bb0(%a: tensor<2x3x4xf32>, %b: tensor<3x1xf32>):
    %r = nn.add %a, %b : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
    nn.yield %r : tensor<2x3x4xf32>
  }
  func.return
}

// CHECK-LABEL: func.func @add_broadcast(
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %y : memref<2x3x4xf32, 1 : i64>, memref<3x1xf32>) outs(%out : memref<2x3x4xf32>) {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[R:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT:      linalg.yield %[[R]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return

// -----

// Groups 2 (3 output, 2 input channels per group), stride 2, pads 1 and bias:
// the output starts as the broadcast bias.
func.func @padded_conv(%x: memref<1x4x5x5xf32, 1 : i64>, %w: memref<6x2x3x3xf32>, %b: memref<6xf32>, %out: memref<1x6x3x3xf32>) {
  nn.apply ins(%x, %w, %b : memref<1x4x5x5xf32, 1 : i64>, memref<6x2x3x3xf32>, memref<6xf32>) outs(%out : memref<1x6x3x3xf32>) {
  ^bb0(%i: tensor<1x4x5x5xf32>, %k: tensor<6x2x3x3xf32>, %c: tensor<6xf32>):
    %r = nn.conv2d %i, %k, %c {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, groups = 2 : i64} : (tensor<1x4x5x5xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<1x6x3x3xf32>
    nn.yield %r : tensor<1x6x3x3xf32>
  }
  func.return
}

// CHECK-LABEL: func.func @padded_conv(
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], {{.*}} ins(%b : memref<6xf32>) outs(%out : memref<1x6x3x3xf32>)
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%w : memref<6x2x3x3xf32>) outs(%out : memref<1x6x3x3xf32>) {
// CHECK-NEXT:    ^bb0(%[[W:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK:           %[[OC:.*]] = linalg.index 1 : index
// CHECK:           %[[C:.*]] = linalg.index 4 : index
// CHECK:           %[[GROUP:.*]] = arith.divui %[[OC]], %{{.*}} : index
// CHECK:           %[[ROW:.*]] = arith.subi %{{.*}}, %{{.*}} : index
// CHECK-NEXT:      %[[ABOVE:.*]] = arith.cmpi sge, %[[ROW]], %{{.*}} : index
// CHECK:           %[[X:.*]] = memref.load %x[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<1x4x5x5xf32, 1 : i64>
// CHECK-NEXT:      %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[TAP:.*]] = arith.select %{{.*}}, %[[X]], %[[ZERO]] : f32
// CHECK-NEXT:      %[[P:.*]] = arith.mulf %[[TAP]], %[[W]] : f32
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return

// -----

// Softmax along the last axis: maxima and sums (2x1 f32 each, 16 bytes apart) in its scratch.
func.func @softmax(%x: memref<2x3xf32, 1 : i64>, %out: memref<2x3xf32, 1 : i64>, %s: memref<32xi8, 1 : i64>) {
  nn.apply ins(%x : memref<2x3xf32, 1 : i64>) outs(%out : memref<2x3xf32, 1 : i64>) scratch(%s : memref<32xi8, 1 : i64>) {
  ^bb0(%a: tensor<2x3xf32>):
    %r = nn.softmax %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
    nn.yield %r : tensor<2x3xf32>
  }
  func.return
}

// CHECK-LABEL: func.func @softmax(
// CHECK-NEXT:    %[[AT0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %peak = memref.view %s[%[[AT0]]][] : memref<32xi8, 1 : i64> to memref<2x1xf32, 1 : i64>
// CHECK:         %[[AT16:.*]] = arith.constant 16 : index
// CHECK-NEXT:    %total = memref.view %s[%[[AT16]]][] : memref<32xi8, 1 : i64> to memref<2x1xf32, 1 : i64>
// CHECK-NOT:     memref.alloca

// -----

// Reshape 2x6 -> 3x4: input element at linear index 4 * d0 + d1.
func.func @reshape(%x: memref<2x6xf32, 1 : i64>, %out: memref<3x4xf32>) {
  nn.apply ins(%x : memref<2x6xf32, 1 : i64>) outs(%out : memref<3x4xf32>) {
  ^bb0(%a: tensor<2x6xf32>):
    %r = nn.reshape %a : tensor<2x6xf32> to tensor<3x4xf32>
    nn.yield %r : tensor<3x4xf32>
  }
  func.return
}

// CHECK-LABEL: func.func @reshape(
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ((((d0 * 4) + d1) floordiv 6), (((d0 * 4) + d1) mod 6))>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<2x6xf32, 1 : i64>) outs(%out : memref<3x4xf32>) {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      linalg.yield %[[A]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return

// -----

func.func @avg_pool(%x: memref<1x1x4x4xf32, 1 : i64>, %out: memref<1x1x2x2xf32>) {
  nn.apply ins(%x : memref<1x1x4x4xf32, 1 : i64>) outs(%out : memref<1x1x2x2xf32>) {
  ^bb0(%a: tensor<1x1x4x4xf32>):
    %r = nn.avg_pool2d %a {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 0, 0>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
    nn.yield %r : tensor<1x1x2x2xf32>
  }
  func.return
}

// Windows at rows (and columns) -1..1 and 1..3 of a 4x4 input hold 2 and 3
// unpadded taps: counts 4, 6, 6, 9.
// CHECK:       "memref.global"() <{sym_name = "avg_pool_count_0", type = memref<2x2xf32>, initial_value = dense<[[4.000000e+00, 6.000000e+00], [6.000000e+00, 9.000000e+00]]> : tensor<2x2xf32>, sym_visibility = "private", constant}> : () -> ()
// CHECK-NEXT:  "memref.global"() <{sym_name = "pool_window_0", type = memref<3x3xf32>, initial_value = dense<0.000000e+00> : tensor<3x3xf32>, sym_visibility = "private", constant}> : () -> ()
// CHECK-LABEL: func.func @avg_pool(
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    linalg.fill ins(%[[ZERO]] : f32) outs(%out : memref<1x1x2x2xf32>)
// CHECK-NEXT:    %[[WINDOW:.*]] = memref.get_global @pool_window_0 : memref<3x3xf32>
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>], {{.*}} ins(%[[WINDOW]] : memref<3x3xf32>) outs(%out : memref<1x1x2x2xf32>) {
// CHECK-NEXT:    ^bb0(%{{.*}}: f32, %[[ACC:.*]]: f32):
// CHECK:           %[[V:.*]] = memref.load %x[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<1x1x4x4xf32, 1 : i64>
// CHECK-NEXT:      %[[PAD:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[TAP:.*]] = arith.select %{{.*}}, %[[V]], %[[PAD]] : f32
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[ACC]], %[[TAP]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[COUNTS:.*]] = memref.get_global @avg_pool_count_0 : memref<2x2xf32>
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], {{.*}} ins(%[[COUNTS]] : memref<2x2xf32>) outs(%out : memref<1x1x2x2xf32>) {
// CHECK-NEXT:    ^bb0(%[[K:.*]]: f32, %[[SUM:.*]]: f32):
// CHECK-NEXT:      %[[AVG:.*]] = arith.divf %[[SUM]], %[[K]] : f32
// CHECK-NEXT:      linalg.yield %[[AVG]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
