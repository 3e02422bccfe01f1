// memref.copy out of a subview (a strided layout): upstream lowers it to a
// call of the runtime library's memrefCopy unless it becomes a linalg.copy.
builtin.module {
  func.func @main(%x: memref<4x4xf32>, %out_y: memref<2x2xf32>) attributes {cfmem.outputs = 1 : i64} {
    %s = memref.subview %x[1, 2] [2, 2] [1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1], offset: 6>>
    "memref.copy"(%s, %out_y) : (memref<2x2xf32, strided<[4, 1], offset: 6>>, memref<2x2xf32>) -> ()
    func.return
  }
}
