// math.exp and math.tanh in one linalg.generic with two outputs.
builtin.module {
  "memref.global"() <{sym_name = "arena_main", type = memref<64xi8, 1 : i64>, initial_value, sym_visibility = "private"}> : () -> ()
  func.func @main(%x: memref<3x5xf32>, %out_e: memref<3x5xf32>, %out_t: memref<3x5xf32>) attributes {cfmem.arena_size = 64 : i64, cfmem.output_names = ["e", "t"], cfmem.outputs = 2 : i64} {
    %arena = memref.get_global @arena_main : memref<64xi8, 1 : i64>
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<3x5xf32>) outs(%out_e, %out_t : memref<3x5xf32>, memref<3x5xf32>) {
    ^bb0(%a: f32, %e: f32, %t: f32):
      %ea = math.exp %a : f32
      %ta = math.tanh %a : f32
      linalg.yield %ea, %ta : f32, f32
    }
    func.return
  }
}
