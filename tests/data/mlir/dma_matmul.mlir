// Two DMA transfers of weight bytes into an on-chip buffer (a view of the
// arena), one tag element each, then linalg.matmul and a bias add from views
// of the buffer. Blob: W (8x4 f32) at byte 0, bias (4 f32) at byte 160.
builtin.module {
  "memref.global"() <{sym_name = "weights", type = memref<192xi8>, initial_value = dense<"0x000040BF000000BF000080BE000000000000803E0000003F0000403F000040BF000000BF000080BE000000000000803E0000003F0000403F000040BF000000BF000080BE000000000000803E0000003F0000403F000040BF000000BF000080BE000000000000803E0000003F0000403F000040BF000000BF000080BE0000000000000000000000000000000000000000000000000000000000000000000000000000803F000080BF0000003F0000004000000000000000000000000000000000"> : tensor<192xi8>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "arena_main", type = memref<512xi8, 1 : i64>, initial_value, sym_visibility = "private"}> : () -> ()
  func.func @main(%x: memref<2x8xf32>, %out_y: memref<2x4xf32>) attributes {cfmem.arena_size = 512 : i64, cfmem.output_names = ["y"], cfmem.outputs = 1 : i64} {
    %arena = memref.get_global @arena_main : memref<512xi8, 1 : i64>
    %weights = memref.get_global @weights : memref<192xi8>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c128 = arith.constant 128 : index
    %c160 = arith.constant 160 : index
    %c256 = arith.constant 256 : index
    %dma0 = memref.view %arena[%c256][] {cfmem.tensor = "dma0"} : memref<512xi8, 1 : i64> to memref<144xi8, 1 : i64>
    %tag = memref.alloca() : memref<2xi32>
    "memref.dma_start"(%weights, %c0, %dma0, %c0, %c128, %tag, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "w_sram"} : (memref<192xi8>, index, memref<144xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    "memref.dma_start"(%weights, %c160, %dma0, %c128, %c16, %tag, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "b_sram"} : (memref<192xi8>, index, memref<144xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
    "memref.dma_wait"(%tag, %c0, %c128) : (memref<2xi32>, index, index) -> ()
    "memref.dma_wait"(%tag, %c1, %c16) : (memref<2xi32>, index, index) -> ()
    %w = memref.view %dma0[%c0][] {cfmem.tensor = "w_sram"} : memref<144xi8, 1 : i64> to memref<8x4xf32, 1 : i64>
    %b = memref.view %dma0[%c128][] {cfmem.tensor = "b_sram"} : memref<144xi8, 1 : i64> to memref<4xf32, 1 : i64>
    %acc = memref.view %arena[%c0][] {cfmem.tensor = "acc"} : memref<512xi8, 1 : i64> to memref<2x4xf32, 1 : i64>
    %zero = arith.constant 0.000000e+00 : f32
    linalg.fill ins(%zero : f32) outs(%acc : memref<2x4xf32, 1 : i64>)
    linalg.matmul ins(%x, %w : memref<2x8xf32>, memref<8x4xf32, 1 : i64>) outs(%acc : memref<2x4xf32, 1 : i64>)
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%acc, %b : memref<2x4xf32, 1 : i64>, memref<4xf32, 1 : i64>) outs(%out_y : memref<2x4xf32>) {
    ^bb0(%a: f32, %bias: f32, %o: f32):
      %s = arith.addf %a, %bias : f32
      linalg.yield %s : f32
    }
    func.return
  }
}
