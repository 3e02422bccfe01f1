// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s

// Round-trip of the weight ops: nn.global with each byte source (seed with and
// without scale, file, inline data), nn.get_global, typed nn.view slices of a
// blob, and nn.reshape of views and of activations.

// CHECK:      builtin.module {
// CHECK-NEXT:   nn.global @conv_w size(1152) seed(7)
// CHECK-NEXT:   nn.global @fc_w size(96) seed(42) scale(2.500000e-01 : f64)
// CHECK-NEXT:   nn.global @from_file size(4096) file("weights.bin", 1024)
// CHECK-NEXT:   nn.global @inline_f32 size(16) data(dense<[1.000000e+00, -2.000000e+00, 5.000000e-01, 0.000000e+00]> : tensor<4xf32>)
// CHECK-NEXT:   nn.global @inline_i8 size(6) data(dense<[[1, 2, 3], [-4, 5, 127]]> : tensor<2x3xi8>)
nn.global @conv_w size(1152) seed(7)
nn.global @fc_w size(96) seed(42) scale(0.25)
nn.global @from_file size(4096) file("weights.bin", 1024)
nn.global @inline_f32 size(16) data(dense<[1.0, -2.0, 0.5, 0.0]> : tensor<4xf32>)
nn.global @inline_i8 size(6) data(dense<[[1, 2, 3], [-4, 5, 127]]> : tensor<2x3xi8>)

// Slices of one 1152-byte blob: a 7x4x3x3 weight at 0 (1008 bytes), its bias
// right after it, the last f32 of the blob as a rank-0 tensor, a byte slice
// at an odd offset (i8 needs no alignment) and the whole blob.

// CHECK-LABEL: func.func @views(
// CHECK-NEXT:    %blob = nn.get_global @conv_w : tensor<1152xi8>
// CHECK-NEXT:    %w = nn.view %blob[0] bytes(1008) : tensor<1152xi8> to tensor<7x4x3x3xf32>
// CHECK-NEXT:    %b = nn.view %blob[1008] bytes(28) : tensor<1152xi8> to tensor<7xf32>
// CHECK-NEXT:    %last = nn.view %blob[1148] bytes(4) : tensor<1152xi8> to tensor<f32>
// CHECK-NEXT:    %raw = nn.view %blob[1037] bytes(3) : tensor<1152xi8> to tensor<3xi8>
// CHECK-NEXT:    %whole = nn.view %blob[0] bytes(1152) : tensor<1152xi8> to tensor<1152xi8>
// CHECK-NEXT:    func.return %w, %b : tensor<7x4x3x3xf32>, tensor<7xf32>
// CHECK-NEXT:  }
func.func @views() -> (tensor<7x4x3x3xf32>, tensor<7xf32>) {
  %blob = nn.get_global @conv_w : tensor<1152xi8>
  %w = nn.view %blob[0] bytes(1008) : tensor<1152xi8> to tensor<7x4x3x3xf32>
  %b = nn.view %blob[1008] bytes(28) : tensor<1152xi8> to tensor<7xf32>
  %last = nn.view %blob[1148] bytes(4) : tensor<1152xi8> to tensor<f32>
  %raw = nn.view %blob[1037] bytes(3) : tensor<1152xi8> to tensor<3xi8>
  %whole = nn.view %blob[0] bytes(1152) : tensor<1152xi8> to tensor<1152xi8>
  func.return %w, %b : tensor<7x4x3x3xf32>, tensor<7xf32>
}

// CHECK-LABEL: func.func @other_sources(
// CHECK-NEXT:    %f = nn.get_global @from_file : tensor<4096xi8>
// CHECK-NEXT:    %fv = nn.view %f[4080] bytes(16) : tensor<4096xi8> to tensor<2x2xf32>
// CHECK-NEXT:    %d = nn.get_global @inline_f32 : tensor<16xi8>
// CHECK-NEXT:    %dv = nn.view %d[4] bytes(8) : tensor<16xi8> to tensor<2xf32>
// CHECK-NEXT:    %s = nn.get_global @fc_w {note = "fc"} : tensor<96xi8>
// CHECK-NEXT:    %sv = nn.view %s[0] bytes(96) {note = "fc"} : tensor<96xi8> to tensor<8x3xf32>
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
func.func @other_sources() {
  %f = nn.get_global @from_file : tensor<4096xi8>
  %fv = nn.view %f[4080] bytes(16) : tensor<4096xi8> to tensor<2x2xf32>
  %d = nn.get_global @inline_f32 : tensor<16xi8>
  %dv = nn.view %d[4] bytes(8) : tensor<16xi8> to tensor<2xf32>
  %s = nn.get_global @fc_w {note = "fc"} : tensor<96xi8>
  %sv = nn.view %s[0] bytes(96) {note = "fc"} : tensor<96xi8> to tensor<8x3xf32>
  func.return
}

// nn.reshape keeps the elements: flatten a weight view, add and drop unit
// dims, go to and from rank 0, and reshape an activation.

// CHECK-LABEL: func.func @reshapes(
// CHECK-NEXT:    %blob = nn.get_global @fc_w : tensor<96xi8>
// CHECK-NEXT:    %w = nn.view %blob[0] bytes(96) : tensor<96xi8> to tensor<2x3x4xf32>
// CHECK-NEXT:    %flat = nn.reshape %w : tensor<2x3x4xf32> to tensor<24xf32>
// CHECK-NEXT:    %mat = nn.reshape %flat : tensor<24xf32> to tensor<4x6xf32>
// CHECK-NEXT:    %nchw = nn.reshape %x : tensor<1x16xf32> to tensor<1x16x1x1xf32>
// CHECK-NEXT:    %back = nn.reshape %nchw : tensor<1x16x1x1xf32> to tensor<1x16xf32>
// CHECK-NEXT:    %scalar = nn.reshape %one : tensor<1x1xf32> to tensor<f32>
// CHECK-NEXT:    %unit = nn.reshape %scalar {note = "r"} : tensor<f32> to tensor<1xf32>
// CHECK-NEXT:    func.return %mat, %back : tensor<4x6xf32>, tensor<1x16xf32>
// CHECK-NEXT:  }
func.func @reshapes(%x: tensor<1x16xf32>, %one: tensor<1x1xf32>) -> (tensor<4x6xf32>, tensor<1x16xf32>) {
  %blob = nn.get_global @fc_w : tensor<96xi8>
  %w = nn.view %blob[0] bytes(96) : tensor<96xi8> to tensor<2x3x4xf32>
  %flat = nn.reshape %w : tensor<2x3x4xf32> to tensor<24xf32>
  %mat = nn.reshape %flat : tensor<24xf32> to tensor<4x6xf32>
  %nchw = nn.reshape %x : tensor<1x16xf32> to tensor<1x16x1x1xf32>
  %back = nn.reshape %nchw : tensor<1x16x1x1xf32> to tensor<1x16xf32>
  %scalar = nn.reshape %one : tensor<1x1xf32> to tensor<f32>
  %unit = nn.reshape %scalar {note = "r"} : tensor<f32> to tensor<1xf32>
  func.return %mat, %back : tensor<4x6xf32>, tensor<1x16xf32>
}
