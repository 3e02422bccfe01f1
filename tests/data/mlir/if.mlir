// scf.if on an i1 loaded from the arena (copied there from an i1 input): the
// then-branch writes 2*x, the else-branch -1. Then an i1 mask x > 0 in the
// arena, copied to an i1 output and read by a select: r = x where x > 0, else 0.
builtin.module {
  "memref.global"() <{sym_name = "arena_main", type = memref<64xi8, 1 : i64>, initial_value, sym_visibility = "private"}> : () -> ()
  func.func @main(%cond: memref<1xi1>, %x: memref<4xf32>, %out_y: memref<4xf32>, %out_pos: memref<4xi1>, %out_r: memref<4xf32>) attributes {cfmem.arena_size = 64 : i64, cfmem.output_names = ["y", "pos", "r"], cfmem.outputs = 3 : i64} {
    %arena = memref.get_global @arena_main : memref<64xi8, 1 : i64>
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %flag = memref.view %arena[%c0][] {cfmem.tensor = "flag"} : memref<64xi8, 1 : i64> to memref<1xi1, 1 : i64>
    %t = memref.view %arena[%c16][] {cfmem.tensor = "t"} : memref<64xi8, 1 : i64> to memref<4xf32, 1 : i64>
    %mask = memref.view %arena[%c32][] {cfmem.tensor = "mask"} : memref<64xi8, 1 : i64> to memref<4xi1, 1 : i64>
    "memref.copy"(%cond, %flag) : (memref<1xi1>, memref<1xi1, 1 : i64>) -> ()
    %b = memref.load %flag[%c0] : memref<1xi1, 1 : i64>
    scf.if %b {
      linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : memref<4xf32>) outs(%t : memref<4xf32, 1 : i64>) attrs =  {cfmem.tensor = "t"} {
      ^bb0(%a: f32, %acc: f32):
        %s = arith.addf %a, %a : f32
        linalg.yield %s : f32
      }
      "memref.copy"(%t, %out_y) : (memref<4xf32, 1 : i64>, memref<4xf32>) -> ()
      scf.yield
    } else {
      %minus_one = arith.constant -1.000000e+00 : f32
      linalg.fill ins(%minus_one : f32) outs(%out_y : memref<4xf32>)
      scf.yield
    }
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : memref<4xf32>) outs(%mask : memref<4xi1, 1 : i64>) attrs =  {cfmem.tensor = "mask"} {
    ^bb0(%a: f32, %acc: i1):
      %zero = arith.constant 0.000000e+00 : f32
      %p = arith.cmpf ogt, %a, %zero : f32
      linalg.yield %p : i1
    }
    "memref.copy"(%mask, %out_pos) : (memref<4xi1, 1 : i64>, memref<4xi1>) -> ()
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%mask, %x : memref<4xi1, 1 : i64>, memref<4xf32>) outs(%out_r : memref<4xf32>) {
    ^bb0(%m: i1, %a: f32, %acc: f32):
      %zero = arith.constant 0.000000e+00 : f32
      %r = arith.select %m, %a, %zero : f32
      linalg.yield %r : f32
    }
    func.return
  }
}
