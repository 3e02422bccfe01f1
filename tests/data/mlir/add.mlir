// Elementwise add of an input and a weight view, through two views of the
// on-chip arena (one of them a view of a view); the result is copied out.
builtin.module {
  "memref.global"() <{sym_name = "weights", type = memref<64xi8>, initial_value = dense<"0x000000C00000C0BF000080BF000000BF000000000000003F0000803F0000C03F0000004000002040000040400000604000008040000090400000A0400000B040"> : tensor<64xi8>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "arena_main", type = memref<256xi8, 1 : i64>, initial_value, sym_visibility = "private"}> : () -> ()
  func.func @main(%x: memref<2x8xf32>, %out_y: memref<2x8xf32>) attributes {cfmem.arena_size = 256 : i64, cfmem.output_names = ["y"], cfmem.outputs = 1 : i64} {
    %arena = memref.get_global @arena_main : memref<256xi8, 1 : i64>
    %weights = memref.get_global @weights : memref<64xi8>
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %w = memref.view %weights[%c0][] {cfmem.tensor = "w"} : memref<64xi8> to memref<2x8xf32>
    %x_chip = memref.view %arena[%c0][] {cfmem.tensor = "x_chip"} : memref<256xi8, 1 : i64> to memref<2x8xf32, 1 : i64>
    %upper = memref.view %arena[%c128][] : memref<256xi8, 1 : i64> to memref<128xi8, 1 : i64>
    %y = memref.view %upper[%c0][] {cfmem.tensor = "y"} : memref<128xi8, 1 : i64> to memref<2x8xf32, 1 : i64>
    "memref.copy"(%x, %x_chip) : (memref<2x8xf32>, memref<2x8xf32, 1 : i64>) -> ()
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x_chip, %w : memref<2x8xf32, 1 : i64>, memref<2x8xf32>) outs(%y : memref<2x8xf32, 1 : i64>) attrs =  {cfmem.tensor = "y"} {
    ^bb0(%a: f32, %b: f32, %acc: f32):
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    }
    "memref.copy"(%y, %out_y) : (memref<2x8xf32, 1 : i64>, memref<2x8xf32>) -> ()
    func.return
  }
}
