builtin.module {
  "memref.global"() <{sym_name = "cst_main_10", type = memref<1xf32>, initial_value = dense<2.000000e-01> : tensor<1xf32>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "cst_main_9", type = memref<1xf32>, initial_value = dense<8.000000e-01> : tensor<1xf32>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "cst_main_8", type = memref<1xf32>, initial_value = dense<5.000000e-02> : tensor<1xf32>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "cst_main_7", type = memref<i64>, initial_value = dense<16> : tensor<i64>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "cst_main_6", type = memref<1xf32>, initial_value = dense<2.000000e-01> : tensor<1xf32>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "cst_main_5", type = memref<1xf32>, initial_value = dense<1.200000e-01> : tensor<1xf32>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "cst_main_4", type = memref<1xf32>, initial_value = dense<9.000000e-01> : tensor<1xf32>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "cst_main_3", type = memref<1xf32>, initial_value = dense<5.000000e-01> : tensor<1xf32>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "cst_main_2", type = memref<i8>, initial_value = dense<1> : tensor<i8>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "cst_main_1", type = memref<1xf32>, initial_value = dense<3.200000e+01> : tensor<1xf32>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "cst_main_0", type = memref<i64>, initial_value = dense<0> : tensor<i64>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "weights", type = memref<87168xi8>, initial_value = dense<"0x~303f8a20ad38f3ea"> : tensor<87168xi8>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "arena_main", type = memref<89057xi8>, initial_value, sym_visibility = "private"}> : () -> ()
  func.func @main(%feats: memref<32x1x40xf32>, %frames: memref<i64>, %out_out: memref<1x12xf32>) attributes {cfmem.dma_depth = 2 : i64, cfmem.arena_size = 89057 : i64, cfmem.lower_bound = 89041 : i64, cfmem.plan = "exact/auto", cfmem.aliases = "reshape,slice,inplace,concat,yield", cfmem.onchip_budget = 2097152 : i64, cfmem.init = "load_resident_main", cfmem.output_names = ["out"], llvm.emit_c_interface} {
    %arena = memref.get_global @arena_main : memref<89057xi8>
    %c0 = arith.constant 0 : index
    %c10240 = arith.constant 10240 : index
    %c10496 = arith.constant 10496 : index
    %c37120 = arith.constant 37120 : index
    %c37376 = arith.constant 37376 : index
    %c64000 = arith.constant 64000 : index
    %c64256 = arith.constant 64256 : index
    %c67328 = arith.constant 67328 : index
    %c67392 = arith.constant 67392 : index
    %c83776 = arith.constant 83776 : index
    %c84032 = arith.constant 84032 : index
    %c87104 = arith.constant 87104 : index
    %c87168 = arith.constant 87168 : index
    %c87840 = arith.constant 87840 : index
    %c87184 = arith.constant 87184 : index
    %c89024 = arith.constant 89024 : index
    %c87584 = arith.constant 87584 : index
    %c89040 = arith.constant 89040 : index
    %c88864 = arith.constant 88864 : index
    %c87328 = arith.constant 87328 : index
    %c89056 = arith.constant 89056 : index
    %c88096 = arith.constant 88096 : index
    %c88352 = arith.constant 88352 : index
    %c88608 = arith.constant 88608 : index
    %c1 = arith.constant 1 : index
    %c87424 = arith.constant 87424 : index
    %c87216 = arith.constant 87216 : index
    %c87520 = arith.constant 87520 : index
    %c87472 = arith.constant 87472 : index
    %c87488 = arith.constant 87488 : index
    %c87504 = arith.constant 87504 : index
    %c87536 = arith.constant 87536 : index
    %weights = memref.get_global @weights : memref<87168xi8>
    %resident = memref.view %arena[%c0][] {cfmem.tensor = "resident"} : memref<89057xi8> to memref<87168xi8>
    %init_w_sram = memref.view %resident[%c0][] {cfmem.tensor = "init_w_sram"} : memref<87168xi8> to memref<64x40xf32>
    %init_b_sram = memref.view %resident[%c10240][] {cfmem.tensor = "init_b_sram"} : memref<87168xi8> to memref<64xf32>
    %gate_w_sram = memref.view %resident[%c10496][] {cfmem.tensor = "gate_w_sram"} : memref<87168xi8> to memref<64x104xf32>
    %gate_b_sram = memref.view %resident[%c37120][] {cfmem.tensor = "gate_b_sram"} : memref<87168xi8> to memref<64xf32>
    %cand_w_sram = memref.view %resident[%c37376][] {cfmem.tensor = "cand_w_sram"} : memref<87168xi8> to memref<64x104xf32>
    %cand_b_sram = memref.view %resident[%c64000][] {cfmem.tensor = "cand_b_sram"} : memref<87168xi8> to memref<64xf32>
    %cls_w_sram = memref.view %resident[%c64256][] {cfmem.tensor = "cls_w_sram"} : memref<87168xi8> to memref<12x64xf32>
    %cls_b_sram = memref.view %resident[%c67328][] {cfmem.tensor = "cls_b_sram"} : memref<87168xi8> to memref<12xf32>
    %ref_w_sram = memref.view %resident[%c67392][] {cfmem.tensor = "ref_w_sram"} : memref<87168xi8> to memref<64x64xf32>
    %ref_b_sram = memref.view %resident[%c83776][] {cfmem.tensor = "ref_b_sram"} : memref<87168xi8> to memref<64xf32>
    %ref_cls_w_sram = memref.view %resident[%c84032][] {cfmem.tensor = "ref_cls_w_sram"} : memref<87168xi8> to memref<12x64xf32>
    %ref_cls_b_sram = memref.view %resident[%c87104][] {cfmem.tensor = "ref_cls_b_sram"} : memref<87168xi8> to memref<12xf32>
    %zero = memref.get_global @cst_main_0 : memref<i64>
    %first = memref.view %arena[%c87168][] {cfmem.tensor = "first"} : memref<89057xi8> to memref<1x40xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%zero : memref<i64>) outs(%first : memref<1x40xf32>) {
    ^bb0(%0: i64, %1: f32):
      %2 = arith.index_cast %0 : i64 to index
      %3 = arith.constant 0 : index
      %4 = arith.constant 32 : index
      %5 = arith.cmpi slt, %2, %3 : index
      %6 = arith.addi %2, %4 : index
      %7 = arith.select %5, %6, %2 : index
      %8 = arith.maxsi %7, %3 : index
      %9 = arith.constant 31 : index
      %10 = arith.minsi %8, %9 : index
      %11 = linalg.index 0 : index
      %12 = linalg.index 1 : index
      %13 = memref.load %feats[%10, %11, %12] : memref<32x1x40xf32>
      linalg.yield %13 : f32
    }
    %init = memref.view %arena[%c87840][] {cfmem.tensor = "init"} : memref<89057xi8> to memref<1x64xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%init_b_sram : memref<64xf32>) outs(%init : memref<1x64xf32>) {
    ^bb0(%14: f32, %15: f32):
      linalg.yield %14 : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%first, %init_w_sram : memref<1x40xf32>, memref<64x40xf32>) outs(%init : memref<1x64xf32>) {
    ^bb0(%16: f32, %17: f32, %18: f32):
      %19 = arith.mulf %16, %17 : f32
      %20 = arith.addf %18, %19 : f32
      linalg.yield %20 : f32
    }
    %h0 = memref.view %arena[%c87840][] {cfmem.tensor = "h0"} : memref<89057xi8> to memref<1x64xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%init : memref<1x64xf32>) outs(%h0 : memref<1x64xf32>) {
    ^bb0(%21: f32, %22: f32):
      %23 = math.tanh %21 : f32
      linalg.yield %23 : f32
    }
    %frames_f = memref.view %arena[%c87168][] {cfmem.tensor = "frames_f"} : memref<89057xi8> to memref<f32>
    linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%frames : memref<i64>) outs(%frames_f : memref<f32>) {
    ^bb0(%24: i64, %25: f32):
      %26 = arith.sitofp %24 : i64 to f32
      linalg.yield %26 : f32
    }
    %count_f_b = memref.get_global @cst_main_1 : memref<1xf32>
    %count_f = memref.view %arena[%c87184][] {cfmem.tensor = "count_f"} : memref<89057xi8> to memref<1xf32>
    linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%frames_f, %count_f_b : memref<f32>, memref<1xf32>) outs(%count_f : memref<1xf32>) {
    ^bb0(%27: f32, %28: f32, %29: f32):
      %30 = arith.cmpf uno, %27, %27 : f32
      %31 = arith.cmpf olt, %27, %28 : f32
      %32 = arith.ori %30, %31 : i1
      %33 = arith.select %32, %27, %28 : f32
      linalg.yield %33 : f32
    }
    %count = memref.view %arena[%c89024][] {cfmem.tensor = "count"} : memref<89057xi8> to memref<1xi64>
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%count_f : memref<1xf32>) outs(%count : memref<1xi64>) {
    ^bb0(%34: f32, %35: i64):
      %36 = arith.fptosi %34 : f32 to i64
      linalg.yield %36 : i64
    }
    %h_last = memref.view %arena[%c87584][] {cfmem.tensor = "h_last"} : memref<89057xi8> to memref<1x64xf32>
    "memref.copy"(%h0, %h_last) : (memref<1x64xf32>, memref<1x64xf32>) -> ()
    %i = memref.view %arena[%c89040][] {cfmem.tensor = "i"} : memref<89057xi8> to memref<i64>
    %37 = memref.load %count[%c0] : memref<1xi64>
    %trips = arith.index_cast %37 : i64 to index
    scf.for %i_1 = %c0 to %trips step %c1 {
      %38 = arith.index_cast %i_1 : index to i64
      memref.store %38, %i[] : memref<i64>
      %x_t = memref.view %arena[%c88864][] {cfmem.tensor = "x_t"} : memref<89057xi8> to memref<1x40xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%i : memref<i64>) outs(%x_t : memref<1x40xf32>) {
      ^bb0(%39: i64, %40: f32):
        %41 = arith.index_cast %39 : i64 to index
        %42 = arith.constant 0 : index
        %43 = arith.constant 32 : index
        %44 = arith.cmpi slt, %41, %42 : index
        %45 = arith.addi %41, %43 : index
        %46 = arith.select %44, %45, %41 : index
        %47 = arith.maxsi %46, %42 : index
        %48 = arith.constant 31 : index
        %49 = arith.minsi %47, %48 : index
        %50 = linalg.index 0 : index
        %51 = linalg.index 1 : index
        %52 = memref.load %feats[%49, %50, %51] : memref<32x1x40xf32>
        linalg.yield %52 : f32
      }
      %x_sq = memref.view %arena[%c87168][] {cfmem.tensor = "x_sq"} : memref<89057xi8> to memref<1x40xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x_t, %x_t : memref<1x40xf32>, memref<1x40xf32>) outs(%x_sq : memref<1x40xf32>) {
      ^bb0(%53: f32, %54: f32, %55: f32):
        %56 = arith.mulf %53, %54 : f32
        linalg.yield %56 : f32
      }
      %energy = memref.view %arena[%c87328][] {cfmem.tensor = "energy"} : memref<89057xi8> to memref<1x1xf32>
      %57 = arith.constant -0.000000e+00 : f32
      linalg.fill ins(%57 : f32) outs(%energy : memref<1x1xf32>)
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0, 0)>], iterator_types = ["reduction", "reduction"]} ins(%x_sq : memref<1x40xf32>) outs(%energy : memref<1x1xf32>) {
      ^bb0(%58: f32, %59: f32):
        %60 = arith.addf %59, %58 : f32
        linalg.yield %60 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%energy : memref<1x1xf32>) {
      ^bb0(%61: f32):
        %62 = arith.constant 4.000000e+01 : f32
        %63 = arith.divf %61, %62 : f32
        linalg.yield %63 : f32
      }
      %loud_b = memref.get_global @cst_main_3 : memref<1xf32>
      %loud = memref.view %arena[%c89056][] {cfmem.tensor = "loud"} : memref<89057xi8> to memref<1x1xi8>
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%energy, %loud_b : memref<1x1xf32>, memref<1xf32>) outs(%loud : memref<1x1xi8>) {
      ^bb0(%64: f32, %65: f32, %66: i8):
        %67 = arith.cmpf ogt, %64, %65 : f32
        %68 = arith.extui %67 : i1 to i8
        linalg.yield %68 : i8
      }
      %h_next = memref.view %arena[%c88096][] {cfmem.tensor = "h_next", cfmem.reads = ["h_new", "h_decay"]} : memref<89057xi8> to memref<1x64xf32>
      %69 = memref.load %loud[%c0, %c0] : memref<1x1xi8>
      %70 = arith.trunci %69 : i8 to i1
      scf.if %70 {
        %xh = memref.view %arena[%c87168][] {cfmem.tensor = "xh"} : memref<89057xi8> to memref<1x104xf32>
        %71 = memref.subview %xh[0, 0] [1, 40] [1, 1] : memref<1x104xf32> to memref<1x40xf32, strided<[104, 1]>>
        linalg.copy ins(%x_t : memref<1x40xf32>) outs(%71 : memref<1x40xf32, strided<[104, 1]>>)
        %72 = memref.subview %xh[0, 40] [1, 64] [1, 1] : memref<1x104xf32> to memref<1x64xf32, strided<[104, 1], offset: 40>>
        linalg.copy ins(%h_last : memref<1x64xf32>) outs(%72 : memref<1x64xf32, strided<[104, 1], offset: 40>>)
        %gate = memref.view %arena[%c88352][] {cfmem.tensor = "gate"} : memref<89057xi8> to memref<1x64xf32>
        linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%gate_b_sram : memref<64xf32>) outs(%gate : memref<1x64xf32>) {
        ^bb0(%73: f32, %74: f32):
          linalg.yield %73 : f32
        }
        linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%xh, %gate_w_sram : memref<1x104xf32>, memref<64x104xf32>) outs(%gate : memref<1x64xf32>) {
        ^bb0(%75: f32, %76: f32, %77: f32):
          %78 = arith.mulf %75, %76 : f32
          %79 = arith.addf %77, %78 : f32
          linalg.yield %79 : f32
        }
        %z = memref.view %arena[%c88352][] {cfmem.tensor = "z"} : memref<89057xi8> to memref<1x64xf32>
        linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%gate : memref<1x64xf32>) outs(%z : memref<1x64xf32>) {
        ^bb0(%80: f32, %81: f32):
          %82 = arith.constant 1.000000e+00 : f32
          %83 = arith.negf %80 : f32
          %84 = math.exp %83 : f32
          %85 = arith.addf %82, %84 : f32
          %86 = arith.divf %82, %85 : f32
          linalg.yield %86 : f32
        }
        %cand = memref.view %arena[%c88608][] {cfmem.tensor = "cand"} : memref<89057xi8> to memref<1x64xf32>
        linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cand_b_sram : memref<64xf32>) outs(%cand : memref<1x64xf32>) {
        ^bb0(%87: f32, %88: f32):
          linalg.yield %87 : f32
        }
        linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%xh, %cand_w_sram : memref<1x104xf32>, memref<64x104xf32>) outs(%cand : memref<1x64xf32>) {
        ^bb0(%89: f32, %90: f32, %91: f32):
          %92 = arith.mulf %89, %90 : f32
          %93 = arith.addf %91, %92 : f32
          linalg.yield %93 : f32
        }
        %n = memref.view %arena[%c88608][] {cfmem.tensor = "n"} : memref<89057xi8> to memref<1x64xf32>
        linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cand : memref<1x64xf32>) outs(%n : memref<1x64xf32>) {
        ^bb0(%94: f32, %95: f32):
          %96 = math.tanh %94 : f32
          linalg.yield %96 : f32
        }
        %n_minus_h = memref.view %arena[%c88608][] {cfmem.tensor = "n_minus_h"} : memref<89057xi8> to memref<1x64xf32>
        linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%n, %h_last : memref<1x64xf32>, memref<1x64xf32>) outs(%n_minus_h : memref<1x64xf32>) {
        ^bb0(%97: f32, %98: f32, %99: f32):
          %100 = arith.subf %97, %98 : f32
          linalg.yield %100 : f32
        }
        %z_step = memref.view %arena[%c88352][] {cfmem.tensor = "z_step"} : memref<89057xi8> to memref<1x64xf32>
        linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%z, %n_minus_h : memref<1x64xf32>, memref<1x64xf32>) outs(%z_step : memref<1x64xf32>) {
        ^bb0(%101: f32, %102: f32, %103: f32):
          %104 = arith.mulf %101, %102 : f32
          linalg.yield %104 : f32
        }
        %h_new = memref.view %arena[%c88096][] {cfmem.tensor = "h_new"} : memref<89057xi8> to memref<1x64xf32>
        linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%h_last, %z_step : memref<1x64xf32>, memref<1x64xf32>) outs(%h_new : memref<1x64xf32>) {
        ^bb0(%105: f32, %106: f32, %107: f32):
          %108 = arith.addf %105, %106 : f32
          linalg.yield %108 : f32
        }
      } else {
        %h_decay_b = memref.get_global @cst_main_4 : memref<1xf32>
        %h_decay = memref.view %arena[%c88096][] {cfmem.tensor = "h_decay"} : memref<89057xi8> to memref<1x64xf32>
        linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%h_last, %h_decay_b : memref<1x64xf32>, memref<1xf32>) outs(%h_decay : memref<1x64xf32>) {
        ^bb0(%109: f32, %110: f32, %111: f32):
          %112 = arith.mulf %109, %110 : f32
          linalg.yield %112 : f32
        }
      }
      "memref.copy"(%h_next, %h_last) : (memref<1x64xf32>, memref<1x64xf32>) -> ()
    } {cfmem.loop = "loop#0"}
    %cls = memref.view %arena[%c87168][] {cfmem.tensor = "cls"} : memref<89057xi8> to memref<1x12xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cls_b_sram : memref<12xf32>) outs(%cls : memref<1x12xf32>) {
    ^bb0(%113: f32, %114: f32):
      linalg.yield %113 : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%h_last, %cls_w_sram : memref<1x64xf32>, memref<12x64xf32>) outs(%cls : memref<1x12xf32>) {
    ^bb0(%115: f32, %116: f32, %117: f32):
      %118 = arith.mulf %115, %116 : f32
      %119 = arith.addf %117, %118 : f32
      linalg.yield %119 : f32
    }
    %probs = memref.view %arena[%c87424][] {cfmem.tensor = "probs"} : memref<89057xi8> to memref<1x12xf32>
    %scratch = memref.view %arena[%c87216][] {cfmem.tensor = "probs#scratch"} : memref<89057xi8> to memref<32xi8>
    %120 = arith.constant 0 : index
    %peak = memref.view %scratch[%120][] : memref<32xi8> to memref<1x1xf32>
    %121 = arith.constant 0xff800000 : f32
    linalg.fill ins(%121 : f32) outs(%peak : memref<1x1xf32>)
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%cls : memref<1x12xf32>) outs(%peak : memref<1x1xf32>) {
    ^bb0(%122: f32, %123: f32):
      %124 = arith.maximumf %123, %122 : f32
      linalg.yield %124 : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cls, %peak : memref<1x12xf32>, memref<1x1xf32>) outs(%probs : memref<1x12xf32>) {
    ^bb0(%125: f32, %126: f32, %127: f32):
      %128 = arith.subf %125, %126 : f32
      %129 = math.exp %128 : f32
      linalg.yield %129 : f32
    }
    %130 = arith.constant 16 : index
    %total = memref.view %scratch[%130][] : memref<32xi8> to memref<1x1xf32>
    %131 = arith.constant 0.000000e+00 : f32
    linalg.fill ins(%131 : f32) outs(%total : memref<1x1xf32>)
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%probs : memref<1x12xf32>) outs(%total : memref<1x1xf32>) {
    ^bb0(%132: f32, %133: f32):
      %134 = arith.addf %133, %132 : f32
      linalg.yield %134 : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%total : memref<1x1xf32>) outs(%probs : memref<1x12xf32>) {
    ^bb0(%135: f32, %136: f32):
      %137 = arith.divf %136, %135 : f32
      linalg.yield %137 : f32
    }
    %top = memref.view %arena[%c87168][] {cfmem.tensor = "top"} : memref<89057xi8> to memref<1x1xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%probs : memref<1x12xf32>) outs(%top : memref<1x1xf32>) {
    ^bb0(%138: f32, %139: f32):
      linalg.yield %138 : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%probs : memref<1x12xf32>) outs(%top : memref<1x1xf32>) {
    ^bb0(%140: f32, %141: f32):
      %142 = arith.cmpf ogt, %140, %141 : f32
      %143 = arith.select %142, %140, %141 : f32
      linalg.yield %143 : f32
    }
    %sure_b = memref.get_global @cst_main_5 : memref<1xf32>
    %sure = memref.view %arena[%c87520][] {cfmem.tensor = "sure"} : memref<89057xi8> to memref<1x1xi8>
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%top, %sure_b : memref<1x1xf32>, memref<1xf32>) outs(%sure : memref<1x1xi8>) {
    ^bb0(%144: f32, %145: f32, %146: i8):
      %147 = arith.cmpf ogt, %144, %145 : f32
      %148 = arith.extui %147 : i1 to i8
      linalg.yield %148 : i8
    }
    %149 = memref.load %sure[%c0, %c0] : memref<1x1xi8>
    %150 = arith.trunci %149 : i8 to i1
    scf.if %150 {
      %unsettled_abs = memref.view %arena[%c87168][] {cfmem.tensor = "unsettled_abs"} : memref<89057xi8> to memref<1x64xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%h_last : memref<1x64xf32>) outs(%unsettled_abs : memref<1x64xf32>) {
      ^bb0(%151: f32, %152: f32):
        %153 = math.absf %151 : f32
        linalg.yield %153 : f32
      }
      %unsettled_size = memref.view %arena[%c87472][] {cfmem.tensor = "unsettled_size"} : memref<89057xi8> to memref<1x1xf32>
      %154 = arith.constant -0.000000e+00 : f32
      linalg.fill ins(%154 : f32) outs(%unsettled_size : memref<1x1xf32>)
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0, 0)>], iterator_types = ["reduction", "reduction"]} ins(%unsettled_abs : memref<1x64xf32>) outs(%unsettled_size : memref<1x1xf32>) {
      ^bb0(%155: f32, %156: f32):
        %157 = arith.addf %156, %155 : f32
        linalg.yield %157 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%unsettled_size : memref<1x1xf32>) {
      ^bb0(%158: f32):
        %159 = arith.constant 6.400000e+01 : f32
        %160 = arith.divf %158, %159 : f32
        linalg.yield %160 : f32
      }
      %unsettled_b = memref.get_global @cst_main_6 : memref<1xf32>
      %unsettled = memref.view %arena[%c87488][] {cfmem.tensor = "unsettled"} : memref<89057xi8> to memref<1x1xi8>
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%unsettled_size, %unsettled_b : memref<1x1xf32>, memref<1xf32>) outs(%unsettled : memref<1x1xi8>) {
      ^bb0(%161: f32, %162: f32, %163: i8):
        %164 = arith.cmpf ogt, %161, %162 : f32
        %165 = arith.extui %164 : i1 to i8
        linalg.yield %165 : i8
      }
      %settle_loop_trips = memref.get_global @cst_main_7 : memref<i64>
      %r_last = memref.view %arena[%c87168][] {cfmem.tensor = "r_last"} : memref<89057xi8> to memref<1x64xf32>
      "memref.copy"(%h_last, %r_last) : (memref<1x64xf32>, memref<1x64xf32>) -> ()
      %c.1 = memref.view %arena[%c87504][] {cfmem.tensor = "c.1"} : memref<89057xi8> to memref<i8>
      %c.1_1 = memref.view %arena[%c87504][] {cfmem.tensor = "c.1"} : memref<89057xi8> to memref<1x1xi8>
      "memref.copy"(%unsettled, %c.1_1) : (memref<1x1xi8>, memref<1x1xi8>) -> ()
      %166 = memref.load %settle_loop_trips[] : memref<i64>
      %trips_1 = arith.index_cast %166 : i64 to index
      %167 = scf.while (%168 = %c0) : (index) -> index {
        %169 = arith.cmpi slt, %168, %trips_1 : index
        %170 = memref.load %c.1[] : memref<i8>
        %171 = arith.trunci %170 : i8 to i1
        %172 = arith.andi %169, %171 : i1
        scf.condition(%172) %168 : index
      } do {
      ^bb0(%i_2: index):
        %ref = memref.view %arena[%c87840][] {cfmem.tensor = "ref"} : memref<89057xi8> to memref<1x64xf32>
        linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%ref_b_sram : memref<64xf32>) outs(%ref : memref<1x64xf32>) {
        ^bb0(%173: f32, %174: f32):
          linalg.yield %173 : f32
        }
        linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%r_last, %ref_w_sram : memref<1x64xf32>, memref<64x64xf32>) outs(%ref : memref<1x64xf32>) {
        ^bb0(%175: f32, %176: f32, %177: f32):
          %178 = arith.mulf %175, %176 : f32
          %179 = arith.addf %177, %178 : f32
          linalg.yield %179 : f32
        }
        %ref_out = memref.view %arena[%c87840][] {cfmem.tensor = "ref_out"} : memref<89057xi8> to memref<1x64xf32>
        linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%ref : memref<1x64xf32>) outs(%ref_out : memref<1x64xf32>) {
        ^bb0(%180: f32, %181: f32):
          %182 = math.tanh %180 : f32
          linalg.yield %182 : f32
        }
        %pull_b = memref.get_global @cst_main_8 : memref<1xf32>
        %pull = memref.view %arena[%c87840][] {cfmem.tensor = "pull"} : memref<89057xi8> to memref<1x64xf32>
        linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%ref_out, %pull_b : memref<1x64xf32>, memref<1xf32>) outs(%pull : memref<1x64xf32>) {
        ^bb0(%183: f32, %184: f32, %185: f32):
          %186 = arith.mulf %183, %184 : f32
          linalg.yield %186 : f32
        }
        %r_decay_b = memref.get_global @cst_main_9 : memref<1xf32>
        %r_decay = memref.view %arena[%c88096][] {cfmem.tensor = "r_decay"} : memref<89057xi8> to memref<1x64xf32>
        linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r_last, %r_decay_b : memref<1x64xf32>, memref<1xf32>) outs(%r_decay : memref<1x64xf32>) {
        ^bb0(%187: f32, %188: f32, %189: f32):
          %190 = arith.mulf %187, %188 : f32
          linalg.yield %190 : f32
        }
        %r_next = memref.view %arena[%c88096][] {cfmem.tensor = "r_next"} : memref<89057xi8> to memref<1x64xf32>
        linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r_decay, %pull : memref<1x64xf32>, memref<1x64xf32>) outs(%r_next : memref<1x64xf32>) {
        ^bb0(%191: f32, %192: f32, %193: f32):
          %194 = arith.addf %191, %192 : f32
          linalg.yield %194 : f32
        }
        %moving_abs = memref.view %arena[%c87840][] {cfmem.tensor = "moving_abs"} : memref<89057xi8> to memref<1x64xf32>
        linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r_next : memref<1x64xf32>) outs(%moving_abs : memref<1x64xf32>) {
        ^bb0(%195: f32, %196: f32):
          %197 = math.absf %195 : f32
          linalg.yield %197 : f32
        }
        %moving_size = memref.view %arena[%c87472][] {cfmem.tensor = "moving_size"} : memref<89057xi8> to memref<1x1xf32>
        %198 = arith.constant -0.000000e+00 : f32
        linalg.fill ins(%198 : f32) outs(%moving_size : memref<1x1xf32>)
        linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0, 0)>], iterator_types = ["reduction", "reduction"]} ins(%moving_abs : memref<1x64xf32>) outs(%moving_size : memref<1x1xf32>) {
        ^bb0(%199: f32, %200: f32):
          %201 = arith.addf %200, %199 : f32
          linalg.yield %201 : f32
        }
        linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%moving_size : memref<1x1xf32>) {
        ^bb0(%202: f32):
          %203 = arith.constant 6.400000e+01 : f32
          %204 = arith.divf %202, %203 : f32
          linalg.yield %204 : f32
        }
        %moving_b = memref.get_global @cst_main_10 : memref<1xf32>
        %moving = memref.view %arena[%c87536][] {cfmem.tensor = "moving"} : memref<89057xi8> to memref<1x1xi8>
        linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%moving_size, %moving_b : memref<1x1xf32>, memref<1xf32>) outs(%moving : memref<1x1xi8>) {
        ^bb0(%205: f32, %206: f32, %207: i8):
          %208 = arith.cmpf ogt, %205, %206 : f32
          %209 = arith.extui %208 : i1 to i8
          linalg.yield %209 : i8
        }
        %c.1_2 = memref.view %arena[%c87504][] {cfmem.tensor = "c.1"} : memref<89057xi8> to memref<1x1xi8>
        "memref.copy"(%r_next, %r_last) : (memref<1x64xf32>, memref<1x64xf32>) -> ()
        "memref.copy"(%moving, %c.1_2) : (memref<1x1xi8>, memref<1x1xi8>) -> ()
        %210 = arith.addi %i_2, %c1 : index
        scf.yield %210 : index
      } attributes {cfmem.loop = "loop#1"}
      %ref_cls = memref.view %arena[%c87472][] {cfmem.tensor = "ref_cls"} : memref<89057xi8> to memref<1x12xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%ref_cls_b_sram : memref<12xf32>) outs(%ref_cls : memref<1x12xf32>) {
      ^bb0(%211: f32, %212: f32):
        linalg.yield %211 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%r_last, %ref_cls_w_sram : memref<1x64xf32>, memref<12x64xf32>) outs(%ref_cls : memref<1x12xf32>) {
      ^bb0(%213: f32, %214: f32, %215: f32):
        %216 = arith.mulf %213, %214 : f32
        %217 = arith.addf %215, %216 : f32
        linalg.yield %217 : f32
      }
      %ref_probs = memref.view %arena[%c87168][] {cfmem.tensor = "ref_probs"} : memref<89057xi8> to memref<1x12xf32>
      %scratch_1 = memref.view %arena[%c87216][] {cfmem.tensor = "ref_probs#scratch"} : memref<89057xi8> to memref<32xi8>
      %218 = arith.constant 0 : index
      %peak_1 = memref.view %scratch_1[%218][] : memref<32xi8> to memref<1x1xf32>
      %219 = arith.constant 0xff800000 : f32
      linalg.fill ins(%219 : f32) outs(%peak_1 : memref<1x1xf32>)
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%ref_cls : memref<1x12xf32>) outs(%peak_1 : memref<1x1xf32>) {
      ^bb0(%220: f32, %221: f32):
        %222 = arith.maximumf %221, %220 : f32
        linalg.yield %222 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%ref_cls, %peak_1 : memref<1x12xf32>, memref<1x1xf32>) outs(%ref_probs : memref<1x12xf32>) {
      ^bb0(%223: f32, %224: f32, %225: f32):
        %226 = arith.subf %223, %224 : f32
        %227 = math.exp %226 : f32
        linalg.yield %227 : f32
      }
      %228 = arith.constant 16 : index
      %total_1 = memref.view %scratch_1[%228][] : memref<32xi8> to memref<1x1xf32>
      %229 = arith.constant 0.000000e+00 : f32
      linalg.fill ins(%229 : f32) outs(%total_1 : memref<1x1xf32>)
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%ref_probs : memref<1x12xf32>) outs(%total_1 : memref<1x1xf32>) {
      ^bb0(%230: f32, %231: f32):
        %232 = arith.addf %231, %230 : f32
        linalg.yield %232 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%total_1 : memref<1x1xf32>) outs(%ref_probs : memref<1x12xf32>) {
      ^bb0(%233: f32, %234: f32):
        %235 = arith.divf %234, %233 : f32
        linalg.yield %235 : f32
      }
      "memref.copy"(%ref_probs, %out_out) : (memref<1x12xf32>, memref<1x12xf32>) -> ()
    } else {
      "memref.copy"(%probs, %out_out) : (memref<1x12xf32>, memref<1x12xf32>) -> ()
    }
    func.return
  }
  func.func @load_resident_main() attributes {cfmem.init_of = "main", llvm.emit_c_interface} {
    %0 = memref.get_global @arena_main : memref<89057xi8>
    %1 = arith.constant 0 : index
    %2 = memref.view %0[%1][] : memref<89057xi8> to memref<87168xi8>
    %3 = memref.get_global @weights : memref<87168xi8>
    %4 = arith.constant 10240 : index
    %5 = memref.view %3[%1][] : memref<87168xi8> to memref<10240xi8>
    %6 = memref.view %2[%1][] : memref<87168xi8> to memref<10240xi8>
    "memref.copy"(%5, %6) : (memref<10240xi8>, memref<10240xi8>) -> ()
    %7 = memref.get_global @weights : memref<87168xi8>
    %8 = arith.constant 256 : index
    %9 = arith.constant 1 : index
    %10 = memref.view %7[%4][] : memref<87168xi8> to memref<256xi8>
    %11 = memref.view %2[%4][] : memref<87168xi8> to memref<256xi8>
    "memref.copy"(%10, %11) : (memref<256xi8>, memref<256xi8>) -> ()
    %12 = memref.get_global @weights : memref<87168xi8>
    %13 = arith.constant 10496 : index
    %14 = arith.constant 26624 : index
    %15 = arith.constant 2 : index
    %16 = memref.view %12[%13][] : memref<87168xi8> to memref<26624xi8>
    %17 = memref.view %2[%13][] : memref<87168xi8> to memref<26624xi8>
    "memref.copy"(%16, %17) : (memref<26624xi8>, memref<26624xi8>) -> ()
    %18 = memref.get_global @weights : memref<87168xi8>
    %19 = arith.constant 37120 : index
    %20 = arith.constant 3 : index
    %21 = memref.view %18[%19][] : memref<87168xi8> to memref<256xi8>
    %22 = memref.view %2[%19][] : memref<87168xi8> to memref<256xi8>
    "memref.copy"(%21, %22) : (memref<256xi8>, memref<256xi8>) -> ()
    %23 = memref.get_global @weights : memref<87168xi8>
    %24 = arith.constant 37376 : index
    %25 = arith.constant 4 : index
    %26 = memref.view %23[%24][] : memref<87168xi8> to memref<26624xi8>
    %27 = memref.view %2[%24][] : memref<87168xi8> to memref<26624xi8>
    "memref.copy"(%26, %27) : (memref<26624xi8>, memref<26624xi8>) -> ()
    %28 = memref.get_global @weights : memref<87168xi8>
    %29 = arith.constant 64000 : index
    %30 = arith.constant 5 : index
    %31 = memref.view %28[%29][] : memref<87168xi8> to memref<256xi8>
    %32 = memref.view %2[%29][] : memref<87168xi8> to memref<256xi8>
    "memref.copy"(%31, %32) : (memref<256xi8>, memref<256xi8>) -> ()
    %33 = memref.get_global @weights : memref<87168xi8>
    %34 = arith.constant 64256 : index
    %35 = arith.constant 3072 : index
    %36 = arith.constant 6 : index
    %37 = memref.view %33[%34][] : memref<87168xi8> to memref<3072xi8>
    %38 = memref.view %2[%34][] : memref<87168xi8> to memref<3072xi8>
    "memref.copy"(%37, %38) : (memref<3072xi8>, memref<3072xi8>) -> ()
    %39 = memref.get_global @weights : memref<87168xi8>
    %40 = arith.constant 67328 : index
    %41 = arith.constant 48 : index
    %42 = arith.constant 7 : index
    %43 = memref.view %39[%40][] : memref<87168xi8> to memref<48xi8>
    %44 = memref.view %2[%40][] : memref<87168xi8> to memref<48xi8>
    "memref.copy"(%43, %44) : (memref<48xi8>, memref<48xi8>) -> ()
    %45 = memref.get_global @weights : memref<87168xi8>
    %46 = arith.constant 67392 : index
    %47 = arith.constant 16384 : index
    %48 = arith.constant 8 : index
    %49 = memref.view %45[%46][] : memref<87168xi8> to memref<16384xi8>
    %50 = memref.view %2[%46][] : memref<87168xi8> to memref<16384xi8>
    "memref.copy"(%49, %50) : (memref<16384xi8>, memref<16384xi8>) -> ()
    %51 = memref.get_global @weights : memref<87168xi8>
    %52 = arith.constant 83776 : index
    %53 = arith.constant 9 : index
    %54 = memref.view %51[%52][] : memref<87168xi8> to memref<256xi8>
    %55 = memref.view %2[%52][] : memref<87168xi8> to memref<256xi8>
    "memref.copy"(%54, %55) : (memref<256xi8>, memref<256xi8>) -> ()
    %56 = memref.get_global @weights : memref<87168xi8>
    %57 = arith.constant 84032 : index
    %58 = arith.constant 10 : index
    %59 = memref.view %56[%57][] : memref<87168xi8> to memref<3072xi8>
    %60 = memref.view %2[%57][] : memref<87168xi8> to memref<3072xi8>
    "memref.copy"(%59, %60) : (memref<3072xi8>, memref<3072xi8>) -> ()
    %61 = memref.get_global @weights : memref<87168xi8>
    %62 = arith.constant 87104 : index
    %63 = arith.constant 11 : index
    %64 = memref.view %61[%62][] : memref<87168xi8> to memref<48xi8>
    %65 = memref.view %2[%62][] : memref<87168xi8> to memref<48xi8>
    "memref.copy"(%64, %65) : (memref<48xi8>, memref<48xi8>) -> ()
    func.return
  }
}