// xDSL accepts this module; upstream MLIR does not: the weight blob's initial
// value has 32 bytes, its global 64.
builtin.module {
  "memref.global"() <{sym_name = "weights", type = memref<64xi8>, initial_value = dense<0> : tensor<32xi8>, sym_visibility = "private", constant}> : () -> ()
  func.func @main(%x: memref<2x8xf32>, %out_y: memref<2x8xf32>) attributes {cfmem.outputs = 1 : i64} {
    %weights = memref.get_global @weights : memref<64xi8>
    %c0 = arith.constant 0 : index
    %w = memref.view %weights[%c0][] : memref<64xi8> to memref<2x8xf32>
    "memref.copy"(%w, %out_y) : (memref<2x8xf32>, memref<2x8xf32>) -> ()
    func.return
  }
}
