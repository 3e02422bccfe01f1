// RUN: xdsl-opt %s --split-input-file --verify-diagnostics | filecheck %s

// nn.cast between f32, i1, i8, ui8, i32 and i64 prints and parses back (f16 in f16.mlir); an
// element type outside those (f64) or a changed shape is a verifier error.

// CHECK-LABEL: func.func @casts(
// CHECK-NEXT:    %a = nn.cast %x : (tensor<2x3xf32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %b = nn.cast %x : (tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %c = nn.cast %b : (tensor<2x3xi1>) -> tensor<2x3xf32>
// CHECK-NEXT:    %d = nn.cast %n : (tensor<2x3xi64>) -> tensor<2x3xi8>
// CHECK-NEXT:    func.return
func.func @casts(%x: tensor<2x3xf32>, %n: tensor<2x3xi64>) {
  %a = nn.cast %x : (tensor<2x3xf32>) -> tensor<2x3xi32>
  %b = nn.cast %x : (tensor<2x3xf32>) -> tensor<2x3xi1>
  %c = nn.cast %b : (tensor<2x3xi1>) -> tensor<2x3xf32>
  %d = nn.cast %n : (tensor<2x3xi64>) -> tensor<2x3xi8>
  func.return
}

// -----

func.func @to_f64(%x: tensor<3xf32>) {
  %r = nn.cast %x : (tensor<3xf32>) -> tensor<3xf64>
  func.return
}

// CHECK-LABEL: "to_f64"
// CHECK:       | Operation does not verify: result must be f32, f16, i1, i8, ui8, i16, i32, ui32, i64 or ui64, got tensor<3xf64>

// -----

func.func @reshaping(%x: tensor<2x3xf32>) {
  %r = nn.cast %x : (tensor<2x3xf32>) -> tensor<6xi32>
  func.return
}

// CHECK-LABEL: "reshaping"
// CHECK:       | Operation does not verify: result shape 6 does not match the inferred shape 2x3
