// RUN: xdsl-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Verifier errors of the weight ops: nn.global needs a positive size and
// exactly one byte source (scale only with seed, file with an offset, data of
// exactly `size` bytes); nn.get_global must name an nn.global and return it as
// tensor<SIZExi8>; nn.view must read a 1-D i8 blob within bounds, at an offset
// aligned to the element size, with a length matching its static result type;
// nn.reshape must keep the element type and count of a static shape.

nn.global @two_sources size(16) seed(1) data(dense<0.0> : tensor<4xf32>)

// CHECK-LABEL: "nn.global"() <{sym_name = "two_sources"
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: blob @two_sources needs exactly one of seed(...), file(...), data(...)

// -----

nn.global @seed_and_file size(16) seed(1) file("w.bin", 0)

// CHECK-LABEL: "nn.global"() <{sym_name = "seed_and_file"
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: blob @seed_and_file needs exactly one of seed(...), file(...), data(...)

// -----

nn.global @no_source size(16)

// CHECK-LABEL: "nn.global"() <{sym_name = "no_source"
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: blob @no_source needs exactly one of seed(...), file(...), data(...)

// -----

nn.global @data_size size(12) data(dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>)

// CHECK-LABEL: "nn.global"() <{sym_name = "data_size"
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: blob @data_size has size 12 but its data holds 16 bytes

// -----

nn.global @scale_no_seed size(16) scale(0.5) file("w.bin", 0)

// CHECK-LABEL: "nn.global"() <{sym_name = "scale_no_seed"
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: scale(...) only applies to seed(...) blobs

// -----

nn.global @zero_size size(0) seed(1)

// CHECK-LABEL: "nn.global"() <{sym_name = "zero_size"
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: blob @zero_size must have a positive size

// -----

// Only the generic form can give a file without an offset.

"nn.global"() <{sym_name = "file_no_offset", size = 16 : i64, file = "w.bin"}> : () -> ()

// CHECK-LABEL: "nn.global"() <{sym_name = "file_no_offset"
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: file(...) needs a file name and a byte offset

// -----

func.func @get_unknown() {
  %b = nn.get_global @missing : tensor<16xi8>
  func.return
}

// CHECK-LABEL: "get_unknown"
// CHECK:       %b = "nn.get_global"() <{name = @missing}> : () -> tensor<16xi8>
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: @missing does not name an nn.global

// -----

func.func @not_a_blob() {
  func.return
}

func.func @get_a_function() {
  %b = nn.get_global @not_a_blob : tensor<16xi8>
  func.return
}

// CHECK-LABEL: "get_a_function"
// CHECK:       %b = "nn.get_global"() <{name = @not_a_blob}> : () -> tensor<16xi8>
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: @not_a_blob does not name an nn.global

// -----

nn.global @w size(64) seed(1)

func.func @get_wrong_size() {
  %b = nn.get_global @w : tensor<32xi8>
  func.return
}

// CHECK-LABEL: "get_wrong_size"
// CHECK:       %b = "nn.get_global"() <{name = @w}> : () -> tensor<32xi8>
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: @w has type tensor<64xi8>, not tensor<32xi8>

// -----

nn.global @w size(64) seed(1)

func.func @get_wrong_element_type() {
  %b = nn.get_global @w : tensor<16xf32>
  func.return
}

// CHECK-LABEL: "get_wrong_element_type"
// CHECK:       %b = "nn.get_global"() <{name = @w}> : () -> tensor<16xf32>
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: @w has type tensor<64xi8>, not tensor<16xf32>

// -----

func.func @view_out_of_bounds(%b: tensor<64xi8>) {
  %v = nn.view %b[52] bytes(16) : tensor<64xi8> to tensor<4xf32>
  func.return
}

// CHECK-LABEL: "view_out_of_bounds"
// CHECK:       %v = "nn.view"(%b) <{offset = 52 : i64, length = 16 : i64}> : (tensor<64xi8>) -> tensor<4xf32>
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: bytes [52, 68) are outside the blob of 64 bytes

// -----

func.func @view_negative_offset(%b: tensor<64xi8>) {
  %v = nn.view %b[-4] bytes(16) : tensor<64xi8> to tensor<4xf32>
  func.return
}

// CHECK-LABEL: "view_negative_offset"
// CHECK:       %v = "nn.view"(%b) <{offset = -4 : i64, length = 16 : i64}> : (tensor<64xi8>) -> tensor<4xf32>
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: bytes [-4, 12) are outside the blob of 64 bytes

// -----

func.func @view_length_mismatch(%b: tensor<64xi8>) {
  %v = nn.view %b[0] bytes(12) : tensor<64xi8> to tensor<4xf32>
  func.return
}

// CHECK-LABEL: "view_length_mismatch"
// CHECK:       %v = "nn.view"(%b) <{offset = 0 : i64, length = 12 : i64}> : (tensor<64xi8>) -> tensor<4xf32>
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: length 12 does not match tensor<4xf32> (16 bytes)

// -----

func.func @view_misaligned_f32(%b: tensor<64xi8>) {
  %v = nn.view %b[6] bytes(16) : tensor<64xi8> to tensor<2x2xf32>
  func.return
}

// CHECK-LABEL: "view_misaligned_f32"
// CHECK:       %v = "nn.view"(%b) <{offset = 6 : i64, length = 16 : i64}> : (tensor<64xi8>) -> tensor<2x2xf32>
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: offset 6 is not aligned to the element size

// -----

func.func @view_misaligned_f16(%b: tensor<64xi8>) {
  %v = nn.view %b[3] bytes(8) : tensor<64xi8> to tensor<4xf16>
  func.return
}

// CHECK-LABEL: "view_misaligned_f16"
// CHECK:       %v = "nn.view"(%b) <{offset = 3 : i64, length = 8 : i64}> : (tensor<64xi8>) -> tensor<4xf16>
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: offset 3 is not aligned to the element size

// -----

func.func @view_of_f32(%x: tensor<16xf32>) {
  %v = nn.view %x[0] bytes(16) : tensor<16xf32> to tensor<4xf32>
  func.return
}

// CHECK-LABEL: "view_of_f32"
// CHECK:       %v = "nn.view"(%x) <{offset = 0 : i64, length = 16 : i64}> : (tensor<16xf32>) -> tensor<4xf32>
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: source must be a blob tensor<Nxi8>, got tensor<16xf32>

// -----

func.func @view_of_2d_bytes(%x: tensor<4x16xi8>) {
  %v = nn.view %x[0] bytes(16) : tensor<4x16xi8> to tensor<4xf32>
  func.return
}

// CHECK-LABEL: "view_of_2d_bytes"
// CHECK:       %v = "nn.view"(%x) <{offset = 0 : i64, length = 16 : i64}> : (tensor<4x16xi8>) -> tensor<4xf32>
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: source must be a blob tensor<Nxi8>, got tensor<4x16xi8>

// -----

func.func @view_dynamic_result(%b: tensor<64xi8>) {
  %v = nn.view %b[0] bytes(16) : tensor<64xi8> to tensor<?xf32>
  func.return
}

// CHECK-LABEL: "view_dynamic_result"
// CHECK:       %v = "nn.view"(%b) <{offset = 0 : i64, length = 16 : i64}> : (tensor<64xi8>) -> tensor<?xf32>
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: dynamic shape tensor<?xf32> is not supported: fix every dimension

// -----

func.func @reshape_count(%x: tensor<2x3xf32>) {
  %r = nn.reshape %x : tensor<2x3xf32> to tensor<4x2xf32>
  func.return
}

// CHECK-LABEL: "reshape_count"
// CHECK:       %r = "nn.reshape"(%x) : (tensor<2x3xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: reshape from tensor<2x3xf32> to tensor<4x2xf32> changes the element count

// -----

func.func @reshape_element_type(%x: tensor<2x3xf32>) {
  %r = nn.reshape %x : tensor<2x3xf32> to tensor<6xi32>
  func.return
}

// CHECK-LABEL: "reshape_element_type"
// CHECK:       %r = "nn.reshape"(%x) : (tensor<2x3xf32>) -> tensor<6xi32>
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: reshape must keep the element type

// -----

func.func @reshape_dynamic(%x: tensor<?x4xf32>) {
  %r = nn.reshape %x : tensor<?x4xf32> to tensor<8xf32>
  func.return
}

// CHECK-LABEL: "reshape_dynamic"
// CHECK:       %r = "nn.reshape"(%x) : (tensor<?x4xf32>) -> tensor<8xf32>
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: dynamic shape tensor<?x4xf32> is not supported: fix every dimension

// -----

func.func @view_dynamic_blob(%b: tensor<?xi8>) {
  %v = nn.view %b[0] bytes(16) : tensor<?xi8> to tensor<4xf32>
  func.return
}

// CHECK-LABEL: "view_dynamic_blob"
// CHECK:       %v = "nn.view"(%b)
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: dynamic shape tensor<?xi8> is not supported: fix every dimension

// -----

nn.global @index_data size(16) data(dense<[1, 2]> : tensor<2xindex>)

// CHECK-LABEL: "nn.global"() <{sym_name = "index_data"
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: unsupported element type index

// -----

nn.global @negative_file_offset size(16) file("w.bin", -4)

// CHECK-LABEL: "nn.global"() <{sym_name = "negative_file_offset"
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: the file offset must not be negative

// -----

nn.global @negative_scale size(16) seed(1) scale(-1.0)

// CHECK-LABEL: "nn.global"() <{sym_name = "negative_scale"
// CHECK-NEXT:  ^^^
// CHECK-NEXT:  | Operation does not verify: scale(...) must be positive
