// nn-slice-weights: an op marked cfmem.slices = N becomes N ops, each reading a
// contiguous slice of its weight through a new nn.view at the slice's byte
// offset, joined by nn.concat under the original name. A depthwise conv reads
// its input channels through nn.slice and gets the smaller groups count.
// RUN: xdsl-opt %s -p nn-slice-weights | filecheck %s

nn.global @w size(4096) seed(1)
// CHECK-LABEL: func.func @main
func.func @main(%x: tensor<1x16xf32>, %img: tensor<1x4x5x5xf32>) -> (tensor<1x6xf32>, tensor<1x4x5x5xf32>) {
  %blob = nn.get_global @w : tensor<4096xi8>
  // rows of [6, 16] f32: 64 bytes each; bias elements 4 bytes each
  %k = nn.view %blob[0] bytes(384) : tensor<4096xi8> to tensor<6x16xf32>
  %b = nn.view %blob[384] bytes(24) : tensor<4096xi8> to tensor<6xf32>
  // CHECK-NEXT: %blob = nn.get_global @w
  // CHECK-NEXT: %k_s0 = nn.view %blob[0] bytes(192) : tensor<4096xi8> to tensor<3x16xf32>
  // CHECK-NEXT: %b_s0 = nn.view %blob[384] bytes(12) : tensor<4096xi8> to tensor<3xf32>
  // CHECK-NEXT: %fc_s0 = nn.gemm %x, %k_s0, %b_s0 {cfmem.slice_of = "fc", trans_b = true} : (tensor<1x16xf32>, tensor<3x16xf32>, tensor<3xf32>) -> tensor<1x3xf32>
  // CHECK-NEXT: %k_s1 = nn.view %blob[192] bytes(192) : tensor<4096xi8> to tensor<3x16xf32>
  // CHECK-NEXT: %b_s1 = nn.view %blob[396] bytes(12) : tensor<4096xi8> to tensor<3xf32>
  // CHECK-NEXT: %fc_s1 = nn.gemm %x, %k_s1, %b_s1 {cfmem.slice_of = "fc", trans_b = true} : (tensor<1x16xf32>, tensor<3x16xf32>, tensor<3xf32>) -> tensor<1x3xf32>
  // CHECK-NEXT: %fc = nn.concat %fc_s0, %fc_s1 {axis = 1 : i64} : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x6xf32>
  %fc = nn.gemm %x, %k, %b {trans_b = true, cfmem.slices = 2 : i64} : (tensor<1x16xf32>, tensor<6x16xf32>, tensor<6xf32>) -> tensor<1x6xf32>
  // depthwise [4, 1, 3, 3]: 36 bytes a channel, cut into 3 slices of 2, 1 and 1 channels
  %dw = nn.view %blob[448] bytes(144) : tensor<4096xi8> to tensor<4x1x3x3xf32>
  // CHECK-NEXT: %conv_s0_in = nn.slice %img {starts = array<i64: 0>, ends = array<i64: 2>, axes = array<i64: 1>} : (tensor<1x4x5x5xf32>) -> tensor<1x2x5x5xf32>
  // CHECK-NEXT: %dw_s0 = nn.view %blob[448] bytes(72) : tensor<4096xi8> to tensor<2x1x3x3xf32>
  // CHECK-NEXT: %conv_s0 = nn.conv2d %conv_s0_in, %dw_s0 {cfmem.slice_of = "conv", pads = array<i64: 1, 1, 1, 1>, groups = 2 : i64} : (tensor<1x2x5x5xf32>, tensor<2x1x3x3xf32>) -> tensor<1x2x5x5xf32>
  // CHECK-NEXT: %conv_s1_in = nn.slice %img {starts = array<i64: 2>, ends = array<i64: 3>, axes = array<i64: 1>}
  // CHECK-NEXT: %dw_s1 = nn.view %blob[520] bytes(36) : tensor<4096xi8> to tensor<1x1x3x3xf32>
  // CHECK-NEXT: %conv_s1 = nn.conv2d %conv_s1_in, %dw_s1 {cfmem.slice_of = "conv", pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x5x5xf32>, tensor<1x1x3x3xf32>)
  // CHECK-NEXT: %conv_s2_in = nn.slice %img {starts = array<i64: 3>, ends = array<i64: 4>, axes = array<i64: 1>}
  // CHECK-NEXT: %dw_s2 = nn.view %blob[556] bytes(36) : tensor<4096xi8> to tensor<1x1x3x3xf32>
  // CHECK-NEXT: %conv_s2 = nn.conv2d %conv_s2_in, %dw_s2
  // CHECK-NEXT: %conv = nn.concat %conv_s0, %conv_s1, %conv_s2 {axis = 1 : i64} : (tensor<1x2x5x5xf32>, tensor<1x1x5x5xf32>, tensor<1x1x5x5xf32>) -> tensor<1x4x5x5xf32>
  %conv = nn.conv2d %img, %dw {pads = array<i64: 1, 1, 1, 1>, groups = 4 : i64, cfmem.slices = 3 : i64} : (tensor<1x4x5x5xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x5x5xf32>
  // CHECK-NEXT: func.return %fc, %conv
  func.return %fc, %conv : tensor<1x6xf32>, tensor<1x4x5x5xf32>
}
