builtin.module {
  "memref.global"() <{sym_name = "cst_main_10", type = memref<1xf32>, initial_value = dense<2.000000e-01> : tensor<1xf32>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "cst_main_9", type = memref<1xf32>, initial_value = dense<8.000000e-01> : tensor<1xf32>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "cst_main_8", type = memref<1xf32>, initial_value = dense<5.000000e-02> : tensor<1xf32>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "cst_main_7", type = memref<i64>, initial_value = dense<16> : tensor<i64>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "cst_main_6", type = memref<1xf32>, initial_value = dense<2.000000e-01> : tensor<1xf32>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "cst_main_5", type = memref<1xf32>, initial_value = dense<1.200000e-01> : tensor<1xf32>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "cst_main_4", type = memref<1xf32>, initial_value = dense<9.000000e-01> : tensor<1xf32>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "cst_main_3", type = memref<1xf32>, initial_value = dense<5.000000e-01> : tensor<1xf32>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "cst_main_2", type = memref<i1>, initial_value = dense<true> : tensor<i1>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "cst_main_1", type = memref<1xf32>, initial_value = dense<3.200000e+01> : tensor<1xf32>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "cst_main_0", type = memref<i64>, initial_value = dense<0> : tensor<i64>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "weights", type = memref<87168xi8>, initial_value = dense<"0x~303f8a20ad38f3ea"> : tensor<87168xi8>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "arena_main", type = memref<89057xi8, 1 : i64>, initial_value, sym_visibility = "private"}> : () -> ()
  func.func @main(%feats: memref<32x1x40xf32>, %frames: memref<i64>, %out_out: memref<1x12xf32>) attributes {cfmem.dma_depth = 2 : i64, cfmem.arena_size = 89057 : i64, cfmem.lower_bound = 89041 : i64, cfmem.plan = "exact/auto", cfmem.aliases = "reshape,slice,inplace,concat,yield", cfmem.onchip_budget = 2097152 : i64, cfmem.init = "load_resident_main", cfmem.output_names = ["out"]} {
    %arena = memref.get_global @arena_main : memref<89057xi8, 1 : i64>
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
    %init_w = memref.view %weights[%c0][] : memref<87168xi8> to memref<64x40xf32>
    %init_b = memref.view %weights[%c10240][] : memref<87168xi8> to memref<64xf32>
    %gate_w = memref.view %weights[%c10496][] : memref<87168xi8> to memref<64x104xf32>
    %gate_b = memref.view %weights[%c37120][] : memref<87168xi8> to memref<64xf32>
    %cand_w = memref.view %weights[%c37376][] : memref<87168xi8> to memref<64x104xf32>
    %cand_b = memref.view %weights[%c64000][] : memref<87168xi8> to memref<64xf32>
    %cls_w = memref.view %weights[%c64256][] : memref<87168xi8> to memref<12x64xf32>
    %cls_b = memref.view %weights[%c67328][] : memref<87168xi8> to memref<12xf32>
    %ref_w = memref.view %weights[%c67392][] : memref<87168xi8> to memref<64x64xf32>
    %ref_b = memref.view %weights[%c83776][] : memref<87168xi8> to memref<64xf32>
    %ref_cls_w = memref.view %weights[%c84032][] : memref<87168xi8> to memref<12x64xf32>
    %ref_cls_b = memref.view %weights[%c87104][] : memref<87168xi8> to memref<12xf32>
    %resident = memref.view %arena[%c0][] {cfmem.tensor = "resident"} : memref<89057xi8, 1 : i64> to memref<87168xi8, 1 : i64>
    %init_w_sram = memref.view %resident[%c0][] {cfmem.tensor = "init_w_sram"} : memref<87168xi8, 1 : i64> to memref<64x40xf32, 1 : i64>
    %init_b_sram = memref.view %resident[%c10240][] {cfmem.tensor = "init_b_sram"} : memref<87168xi8, 1 : i64> to memref<64xf32, 1 : i64>
    %gate_w_sram = memref.view %resident[%c10496][] {cfmem.tensor = "gate_w_sram"} : memref<87168xi8, 1 : i64> to memref<64x104xf32, 1 : i64>
    %gate_b_sram = memref.view %resident[%c37120][] {cfmem.tensor = "gate_b_sram"} : memref<87168xi8, 1 : i64> to memref<64xf32, 1 : i64>
    %cand_w_sram = memref.view %resident[%c37376][] {cfmem.tensor = "cand_w_sram"} : memref<87168xi8, 1 : i64> to memref<64x104xf32, 1 : i64>
    %cand_b_sram = memref.view %resident[%c64000][] {cfmem.tensor = "cand_b_sram"} : memref<87168xi8, 1 : i64> to memref<64xf32, 1 : i64>
    %cls_w_sram = memref.view %resident[%c64256][] {cfmem.tensor = "cls_w_sram"} : memref<87168xi8, 1 : i64> to memref<12x64xf32, 1 : i64>
    %cls_b_sram = memref.view %resident[%c67328][] {cfmem.tensor = "cls_b_sram"} : memref<87168xi8, 1 : i64> to memref<12xf32, 1 : i64>
    %ref_w_sram = memref.view %resident[%c67392][] {cfmem.tensor = "ref_w_sram"} : memref<87168xi8, 1 : i64> to memref<64x64xf32, 1 : i64>
    %ref_b_sram = memref.view %resident[%c83776][] {cfmem.tensor = "ref_b_sram"} : memref<87168xi8, 1 : i64> to memref<64xf32, 1 : i64>
    %ref_cls_w_sram = memref.view %resident[%c84032][] {cfmem.tensor = "ref_cls_w_sram"} : memref<87168xi8, 1 : i64> to memref<12x64xf32, 1 : i64>
    %ref_cls_b_sram = memref.view %resident[%c87104][] {cfmem.tensor = "ref_cls_b_sram"} : memref<87168xi8, 1 : i64> to memref<12xf32, 1 : i64>
    %zero = memref.get_global @cst_main_0 : memref<i64>
    %first = memref.view %arena[%c87168][] {cfmem.tensor = "first"} : memref<89057xi8, 1 : i64> to memref<1x40xf32, 1 : i64>
    nn.apply ins(%feats, %zero : memref<32x1x40xf32>, memref<i64>) outs(%first : memref<1x40xf32, 1 : i64>) {
    ^bb0(%0: tensor<32x1x40xf32>, %1: tensor<i64>):
      %first_1 = nn.gather %0, %1 {axis = 0 : i64} : (tensor<32x1x40xf32>, tensor<i64>) -> tensor<1x40xf32>
      nn.yield %first_1 : tensor<1x40xf32>
    }
    %init = memref.view %arena[%c87840][] {cfmem.tensor = "init"} : memref<89057xi8, 1 : i64> to memref<1x64xf32, 1 : i64>
    nn.apply ins(%first, %init_w_sram, %init_b_sram : memref<1x40xf32, 1 : i64>, memref<64x40xf32, 1 : i64>, memref<64xf32, 1 : i64>) outs(%init : memref<1x64xf32, 1 : i64>) {
    ^bb0(%2: tensor<1x40xf32>, %3: tensor<64x40xf32>, %4: tensor<64xf32>):
      %init_1 = nn.gemm %2, %3, %4 {trans_b = true} : (tensor<1x40xf32>, tensor<64x40xf32>, tensor<64xf32>) -> tensor<1x64xf32>
      nn.yield %init_1 : tensor<1x64xf32>
    }
    %h0 = memref.view %arena[%c87840][] {cfmem.tensor = "h0"} : memref<89057xi8, 1 : i64> to memref<1x64xf32, 1 : i64>
    nn.apply ins(%init : memref<1x64xf32, 1 : i64>) outs(%h0 : memref<1x64xf32, 1 : i64>) attributes {cfmem.inplace} {
    ^bb0(%5: tensor<1x64xf32>):
      %h0_1 = nn.tanh %5 : (tensor<1x64xf32>) -> tensor<1x64xf32>
      nn.yield %h0_1 : tensor<1x64xf32>
    }
    %frames_f = memref.view %arena[%c87168][] {cfmem.tensor = "frames_f"} : memref<89057xi8, 1 : i64> to memref<f32, 1 : i64>
    nn.apply ins(%frames : memref<i64>) outs(%frames_f : memref<f32, 1 : i64>) {
    ^bb0(%6: tensor<i64>):
      %frames_f_1 = nn.cast %6 : (tensor<i64>) -> tensor<f32>
      nn.yield %frames_f_1 : tensor<f32>
    }
    %count_f_b = memref.get_global @cst_main_1 : memref<1xf32>
    %count_f = memref.view %arena[%c87184][] {cfmem.tensor = "count_f"} : memref<89057xi8, 1 : i64> to memref<1xf32, 1 : i64>
    nn.apply ins(%frames_f, %count_f_b : memref<f32, 1 : i64>, memref<1xf32>) outs(%count_f : memref<1xf32, 1 : i64>) {
    ^bb0(%7: tensor<f32>, %8: tensor<1xf32>):
      %count_f_1 = nn.min %7, %8 : (tensor<f32>, tensor<1xf32>) -> tensor<1xf32>
      nn.yield %count_f_1 : tensor<1xf32>
    }
    %count = memref.view %arena[%c89024][] {cfmem.tensor = "count"} : memref<89057xi8, 1 : i64> to memref<1xi64, 1 : i64>
    nn.apply ins(%count_f : memref<1xf32, 1 : i64>) outs(%count : memref<1xi64, 1 : i64>) {
    ^bb0(%9: tensor<1xf32>):
      %count_1 = nn.cast %9 : (tensor<1xf32>) -> tensor<1xi64>
      nn.yield %count_1 : tensor<1xi64>
    }
    %frames_loop_go = memref.get_global @cst_main_2 : memref<i1>
    %h_last = memref.view %arena[%c87584][] {cfmem.tensor = "h_last"} : memref<89057xi8, 1 : i64> to memref<1x64xf32, 1 : i64>
    "memref.copy"(%h0, %h_last) : (memref<1x64xf32, 1 : i64>, memref<1x64xf32, 1 : i64>) -> ()
    %i = memref.view %arena[%c89040][] {cfmem.tensor = "i"} : memref<89057xi8, 1 : i64> to memref<i64, 1 : i64>
    %10 = memref.load %count[%c0] : memref<1xi64, 1 : i64>
    %trips = arith.index_cast %10 : i64 to index
    scf.for %i_1 = %c0 to %trips step %c1 {
      %11 = arith.index_cast %i_1 : index to i64
      memref.store %11, %i[] : memref<i64, 1 : i64>
      %x_t = memref.view %arena[%c88864][] {cfmem.tensor = "x_t"} : memref<89057xi8, 1 : i64> to memref<1x40xf32, 1 : i64>
      nn.apply ins(%feats, %i : memref<32x1x40xf32>, memref<i64, 1 : i64>) outs(%x_t : memref<1x40xf32, 1 : i64>) {
      ^bb0(%12: tensor<32x1x40xf32>, %13: tensor<i64>):
        %x_t_1 = nn.gather %12, %13 {axis = 0 : i64} : (tensor<32x1x40xf32>, tensor<i64>) -> tensor<1x40xf32>
        nn.yield %x_t_1 : tensor<1x40xf32>
      }
      %x_sq = memref.view %arena[%c87168][] {cfmem.tensor = "x_sq"} : memref<89057xi8, 1 : i64> to memref<1x40xf32, 1 : i64>
      nn.apply ins(%x_t, %x_t : memref<1x40xf32, 1 : i64>, memref<1x40xf32, 1 : i64>) outs(%x_sq : memref<1x40xf32, 1 : i64>) {
      ^bb0(%14: tensor<1x40xf32>, %15: tensor<1x40xf32>):
        %x_sq_1 = nn.mul %14, %15 : (tensor<1x40xf32>, tensor<1x40xf32>) -> tensor<1x40xf32>
        nn.yield %x_sq_1 : tensor<1x40xf32>
      }
      %energy = memref.view %arena[%c87328][] {cfmem.tensor = "energy"} : memref<89057xi8, 1 : i64> to memref<1x1xf32, 1 : i64>
      nn.apply ins(%x_sq : memref<1x40xf32, 1 : i64>) outs(%energy : memref<1x1xf32, 1 : i64>) {
      ^bb0(%16: tensor<1x40xf32>):
        %energy_1 = nn.reduce_mean %16 {axes = array<i64: 0, 1>} : (tensor<1x40xf32>) -> tensor<1x1xf32>
        nn.yield %energy_1 : tensor<1x1xf32>
      }
      %loud_b = memref.get_global @cst_main_3 : memref<1xf32>
      %loud = memref.view %arena[%c89056][] {cfmem.tensor = "loud"} : memref<89057xi8, 1 : i64> to memref<1x1xi1, 1 : i64>
      nn.apply ins(%energy, %loud_b : memref<1x1xf32, 1 : i64>, memref<1xf32>) outs(%loud : memref<1x1xi1, 1 : i64>) {
      ^bb0(%17: tensor<1x1xf32>, %18: tensor<1xf32>):
        %loud_1 = nn.cmp %17, %18 {predicate = "gt"} : (tensor<1x1xf32>, tensor<1xf32>) -> tensor<1x1xi1>
        nn.yield %loud_1 : tensor<1x1xi1>
      }
      %h_next = memref.view %arena[%c88096][] {cfmem.tensor = "h_next", cfmem.reads = ["h_new", "h_decay"]} : memref<89057xi8, 1 : i64> to memref<1x64xf32, 1 : i64>
      %19 = memref.load %loud[%c0, %c0] : memref<1x1xi1, 1 : i64>
      scf.if %19 {
        %xh = memref.view %arena[%c87168][] {cfmem.tensor = "xh"} : memref<89057xi8, 1 : i64> to memref<1x104xf32, 1 : i64>
        nn.apply ins(%x_t, %h_last : memref<1x40xf32, 1 : i64>, memref<1x64xf32, 1 : i64>) outs(%xh : memref<1x104xf32, 1 : i64>) {
        ^bb0(%20: tensor<1x40xf32>, %21: tensor<1x64xf32>):
          %xh_1 = nn.concat %20, %21 {axis = 1 : i64} : (tensor<1x40xf32>, tensor<1x64xf32>) -> tensor<1x104xf32>
          nn.yield %xh_1 : tensor<1x104xf32>
        }
        %gate = memref.view %arena[%c88352][] {cfmem.tensor = "gate"} : memref<89057xi8, 1 : i64> to memref<1x64xf32, 1 : i64>
        nn.apply ins(%xh, %gate_w_sram, %gate_b_sram : memref<1x104xf32, 1 : i64>, memref<64x104xf32, 1 : i64>, memref<64xf32, 1 : i64>) outs(%gate : memref<1x64xf32, 1 : i64>) {
        ^bb0(%22: tensor<1x104xf32>, %23: tensor<64x104xf32>, %24: tensor<64xf32>):
          %gate_1 = nn.gemm %22, %23, %24 {trans_b = true} : (tensor<1x104xf32>, tensor<64x104xf32>, tensor<64xf32>) -> tensor<1x64xf32>
          nn.yield %gate_1 : tensor<1x64xf32>
        }
        %z = memref.view %arena[%c88352][] {cfmem.tensor = "z"} : memref<89057xi8, 1 : i64> to memref<1x64xf32, 1 : i64>
        nn.apply ins(%gate : memref<1x64xf32, 1 : i64>) outs(%z : memref<1x64xf32, 1 : i64>) attributes {cfmem.inplace} {
        ^bb0(%25: tensor<1x64xf32>):
          %z_1 = nn.sigmoid %25 : (tensor<1x64xf32>) -> tensor<1x64xf32>
          nn.yield %z_1 : tensor<1x64xf32>
        }
        %cand = memref.view %arena[%c88608][] {cfmem.tensor = "cand"} : memref<89057xi8, 1 : i64> to memref<1x64xf32, 1 : i64>
        nn.apply ins(%xh, %cand_w_sram, %cand_b_sram : memref<1x104xf32, 1 : i64>, memref<64x104xf32, 1 : i64>, memref<64xf32, 1 : i64>) outs(%cand : memref<1x64xf32, 1 : i64>) {
        ^bb0(%26: tensor<1x104xf32>, %27: tensor<64x104xf32>, %28: tensor<64xf32>):
          %cand_1 = nn.gemm %26, %27, %28 {trans_b = true} : (tensor<1x104xf32>, tensor<64x104xf32>, tensor<64xf32>) -> tensor<1x64xf32>
          nn.yield %cand_1 : tensor<1x64xf32>
        }
        %n = memref.view %arena[%c88608][] {cfmem.tensor = "n"} : memref<89057xi8, 1 : i64> to memref<1x64xf32, 1 : i64>
        nn.apply ins(%cand : memref<1x64xf32, 1 : i64>) outs(%n : memref<1x64xf32, 1 : i64>) attributes {cfmem.inplace} {
        ^bb0(%29: tensor<1x64xf32>):
          %n_1 = nn.tanh %29 : (tensor<1x64xf32>) -> tensor<1x64xf32>
          nn.yield %n_1 : tensor<1x64xf32>
        }
        %n_minus_h = memref.view %arena[%c88608][] {cfmem.tensor = "n_minus_h"} : memref<89057xi8, 1 : i64> to memref<1x64xf32, 1 : i64>
        nn.apply ins(%n, %h_last : memref<1x64xf32, 1 : i64>, memref<1x64xf32, 1 : i64>) outs(%n_minus_h : memref<1x64xf32, 1 : i64>) attributes {cfmem.inplace} {
        ^bb0(%30: tensor<1x64xf32>, %31: tensor<1x64xf32>):
          %n_minus_h_1 = nn.sub %30, %31 : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
          nn.yield %n_minus_h_1 : tensor<1x64xf32>
        }
        %z_step = memref.view %arena[%c88352][] {cfmem.tensor = "z_step"} : memref<89057xi8, 1 : i64> to memref<1x64xf32, 1 : i64>
        nn.apply ins(%z, %n_minus_h : memref<1x64xf32, 1 : i64>, memref<1x64xf32, 1 : i64>) outs(%z_step : memref<1x64xf32, 1 : i64>) attributes {cfmem.inplace} {
        ^bb0(%32: tensor<1x64xf32>, %33: tensor<1x64xf32>):
          %z_step_1 = nn.mul %32, %33 : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
          nn.yield %z_step_1 : tensor<1x64xf32>
        }
        %h_new = memref.view %arena[%c88096][] {cfmem.tensor = "h_new"} : memref<89057xi8, 1 : i64> to memref<1x64xf32, 1 : i64>
        nn.apply ins(%h_last, %z_step : memref<1x64xf32, 1 : i64>, memref<1x64xf32, 1 : i64>) outs(%h_new : memref<1x64xf32, 1 : i64>) {
        ^bb0(%34: tensor<1x64xf32>, %35: tensor<1x64xf32>):
          %h_new_1 = nn.add %34, %35 : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
          nn.yield %h_new_1 : tensor<1x64xf32>
        }
      } else {
        %h_decay_b = memref.get_global @cst_main_4 : memref<1xf32>
        %h_decay = memref.view %arena[%c88096][] {cfmem.tensor = "h_decay"} : memref<89057xi8, 1 : i64> to memref<1x64xf32, 1 : i64>
        nn.apply ins(%h_last, %h_decay_b : memref<1x64xf32, 1 : i64>, memref<1xf32>) outs(%h_decay : memref<1x64xf32, 1 : i64>) {
        ^bb0(%36: tensor<1x64xf32>, %37: tensor<1xf32>):
          %h_decay_1 = nn.mul %36, %37 : (tensor<1x64xf32>, tensor<1xf32>) -> tensor<1x64xf32>
          nn.yield %h_decay_1 : tensor<1x64xf32>
        }
      }
      "memref.copy"(%h_next, %h_last) : (memref<1x64xf32, 1 : i64>, memref<1x64xf32, 1 : i64>) -> ()
    } {cfmem.loop = "loop#0"}
    %cls = memref.view %arena[%c87168][] {cfmem.tensor = "cls"} : memref<89057xi8, 1 : i64> to memref<1x12xf32, 1 : i64>
    nn.apply ins(%h_last, %cls_w_sram, %cls_b_sram : memref<1x64xf32, 1 : i64>, memref<12x64xf32, 1 : i64>, memref<12xf32, 1 : i64>) outs(%cls : memref<1x12xf32, 1 : i64>) {
    ^bb0(%38: tensor<1x64xf32>, %39: tensor<12x64xf32>, %40: tensor<12xf32>):
      %cls_1 = nn.gemm %38, %39, %40 {trans_b = true} : (tensor<1x64xf32>, tensor<12x64xf32>, tensor<12xf32>) -> tensor<1x12xf32>
      nn.yield %cls_1 : tensor<1x12xf32>
    }
    %probs = memref.view %arena[%c87424][] {cfmem.tensor = "probs"} : memref<89057xi8, 1 : i64> to memref<1x12xf32, 1 : i64>
    %scratch = memref.view %arena[%c87216][] {cfmem.tensor = "probs#scratch"} : memref<89057xi8, 1 : i64> to memref<32xi8, 1 : i64>
    nn.apply ins(%cls : memref<1x12xf32, 1 : i64>) outs(%probs : memref<1x12xf32, 1 : i64>) scratch(%scratch : memref<32xi8, 1 : i64>) {
    ^bb0(%41: tensor<1x12xf32>):
      %probs_1 = nn.softmax %41 : (tensor<1x12xf32>) -> tensor<1x12xf32>
      nn.yield %probs_1 : tensor<1x12xf32>
    }
    %top = memref.view %arena[%c87168][] {cfmem.tensor = "top"} : memref<89057xi8, 1 : i64> to memref<1x1xf32, 1 : i64>
    nn.apply ins(%probs : memref<1x12xf32, 1 : i64>) outs(%top : memref<1x1xf32, 1 : i64>) {
    ^bb0(%42: tensor<1x12xf32>):
      %top_1 = nn.reduce_max %42 {axes = array<i64: 1>} : (tensor<1x12xf32>) -> tensor<1x1xf32>
      nn.yield %top_1 : tensor<1x1xf32>
    }
    %sure_b = memref.get_global @cst_main_5 : memref<1xf32>
    %sure = memref.view %arena[%c87520][] {cfmem.tensor = "sure"} : memref<89057xi8, 1 : i64> to memref<1x1xi1, 1 : i64>
    nn.apply ins(%top, %sure_b : memref<1x1xf32, 1 : i64>, memref<1xf32>) outs(%sure : memref<1x1xi1, 1 : i64>) {
    ^bb0(%43: tensor<1x1xf32>, %44: tensor<1xf32>):
      %sure_1 = nn.cmp %43, %44 {predicate = "gt"} : (tensor<1x1xf32>, tensor<1xf32>) -> tensor<1x1xi1>
      nn.yield %sure_1 : tensor<1x1xi1>
    }
    %45 = memref.load %sure[%c0, %c0] : memref<1x1xi1, 1 : i64>
    scf.if %45 {
      %unsettled_abs = memref.view %arena[%c87168][] {cfmem.tensor = "unsettled_abs"} : memref<89057xi8, 1 : i64> to memref<1x64xf32, 1 : i64>
      nn.apply ins(%h_last : memref<1x64xf32, 1 : i64>) outs(%unsettled_abs : memref<1x64xf32, 1 : i64>) {
      ^bb0(%46: tensor<1x64xf32>):
        %unsettled_abs_1 = nn.abs %46 : (tensor<1x64xf32>) -> tensor<1x64xf32>
        nn.yield %unsettled_abs_1 : tensor<1x64xf32>
      }
      %unsettled_size = memref.view %arena[%c87472][] {cfmem.tensor = "unsettled_size"} : memref<89057xi8, 1 : i64> to memref<1x1xf32, 1 : i64>
      nn.apply ins(%unsettled_abs : memref<1x64xf32, 1 : i64>) outs(%unsettled_size : memref<1x1xf32, 1 : i64>) {
      ^bb0(%47: tensor<1x64xf32>):
        %unsettled_size_1 = nn.reduce_mean %47 {axes = array<i64: 0, 1>} : (tensor<1x64xf32>) -> tensor<1x1xf32>
        nn.yield %unsettled_size_1 : tensor<1x1xf32>
      }
      %unsettled_b = memref.get_global @cst_main_6 : memref<1xf32>
      %unsettled = memref.view %arena[%c87488][] {cfmem.tensor = "unsettled"} : memref<89057xi8, 1 : i64> to memref<1x1xi1, 1 : i64>
      nn.apply ins(%unsettled_size, %unsettled_b : memref<1x1xf32, 1 : i64>, memref<1xf32>) outs(%unsettled : memref<1x1xi1, 1 : i64>) {
      ^bb0(%48: tensor<1x1xf32>, %49: tensor<1xf32>):
        %unsettled_1 = nn.cmp %48, %49 {predicate = "gt"} : (tensor<1x1xf32>, tensor<1xf32>) -> tensor<1x1xi1>
        nn.yield %unsettled_1 : tensor<1x1xi1>
      }
      %settle_loop_trips = memref.get_global @cst_main_7 : memref<i64>
      %r_last = memref.view %arena[%c87168][] {cfmem.tensor = "r_last"} : memref<89057xi8, 1 : i64> to memref<1x64xf32, 1 : i64>
      "memref.copy"(%h_last, %r_last) : (memref<1x64xf32, 1 : i64>, memref<1x64xf32, 1 : i64>) -> ()
      %c.1 = memref.view %arena[%c87504][] {cfmem.tensor = "c.1"} : memref<89057xi8, 1 : i64> to memref<i1, 1 : i64>
      %c.1_1 = memref.view %arena[%c87504][] {cfmem.tensor = "c.1"} : memref<89057xi8, 1 : i64> to memref<1x1xi1, 1 : i64>
      "memref.copy"(%unsettled, %c.1_1) : (memref<1x1xi1, 1 : i64>, memref<1x1xi1, 1 : i64>) -> ()
      %50 = memref.load %settle_loop_trips[] : memref<i64>
      %trips_1 = arith.index_cast %50 : i64 to index
      %51 = scf.while (%52 = %c0) : (index) -> index {
        %53 = arith.cmpi slt, %52, %trips_1 : index
        %54 = memref.load %c.1[] : memref<i1, 1 : i64>
        %55 = arith.andi %53, %54 : i1
        scf.condition(%55) %52 : index
      } do {
      ^bb0(%i_2: index):
        %ref = memref.view %arena[%c87840][] {cfmem.tensor = "ref"} : memref<89057xi8, 1 : i64> to memref<1x64xf32, 1 : i64>
        nn.apply ins(%r_last, %ref_w_sram, %ref_b_sram : memref<1x64xf32, 1 : i64>, memref<64x64xf32, 1 : i64>, memref<64xf32, 1 : i64>) outs(%ref : memref<1x64xf32, 1 : i64>) {
        ^bb0(%56: tensor<1x64xf32>, %57: tensor<64x64xf32>, %58: tensor<64xf32>):
          %ref_1 = nn.gemm %56, %57, %58 {trans_b = true} : (tensor<1x64xf32>, tensor<64x64xf32>, tensor<64xf32>) -> tensor<1x64xf32>
          nn.yield %ref_1 : tensor<1x64xf32>
        }
        %ref_out = memref.view %arena[%c87840][] {cfmem.tensor = "ref_out"} : memref<89057xi8, 1 : i64> to memref<1x64xf32, 1 : i64>
        nn.apply ins(%ref : memref<1x64xf32, 1 : i64>) outs(%ref_out : memref<1x64xf32, 1 : i64>) attributes {cfmem.inplace} {
        ^bb0(%59: tensor<1x64xf32>):
          %ref_out_1 = nn.tanh %59 : (tensor<1x64xf32>) -> tensor<1x64xf32>
          nn.yield %ref_out_1 : tensor<1x64xf32>
        }
        %pull_b = memref.get_global @cst_main_8 : memref<1xf32>
        %pull = memref.view %arena[%c87840][] {cfmem.tensor = "pull"} : memref<89057xi8, 1 : i64> to memref<1x64xf32, 1 : i64>
        nn.apply ins(%ref_out, %pull_b : memref<1x64xf32, 1 : i64>, memref<1xf32>) outs(%pull : memref<1x64xf32, 1 : i64>) attributes {cfmem.inplace} {
        ^bb0(%60: tensor<1x64xf32>, %61: tensor<1xf32>):
          %pull_1 = nn.mul %60, %61 : (tensor<1x64xf32>, tensor<1xf32>) -> tensor<1x64xf32>
          nn.yield %pull_1 : tensor<1x64xf32>
        }
        %r_decay_b = memref.get_global @cst_main_9 : memref<1xf32>
        %r_decay = memref.view %arena[%c88096][] {cfmem.tensor = "r_decay"} : memref<89057xi8, 1 : i64> to memref<1x64xf32, 1 : i64>
        nn.apply ins(%r_last, %r_decay_b : memref<1x64xf32, 1 : i64>, memref<1xf32>) outs(%r_decay : memref<1x64xf32, 1 : i64>) {
        ^bb0(%62: tensor<1x64xf32>, %63: tensor<1xf32>):
          %r_decay_1 = nn.mul %62, %63 : (tensor<1x64xf32>, tensor<1xf32>) -> tensor<1x64xf32>
          nn.yield %r_decay_1 : tensor<1x64xf32>
        }
        %r_next = memref.view %arena[%c88096][] {cfmem.tensor = "r_next"} : memref<89057xi8, 1 : i64> to memref<1x64xf32, 1 : i64>
        nn.apply ins(%r_decay, %pull : memref<1x64xf32, 1 : i64>, memref<1x64xf32, 1 : i64>) outs(%r_next : memref<1x64xf32, 1 : i64>) attributes {cfmem.inplace} {
        ^bb0(%64: tensor<1x64xf32>, %65: tensor<1x64xf32>):
          %r_next_1 = nn.add %64, %65 : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
          nn.yield %r_next_1 : tensor<1x64xf32>
        }
        %moving_abs = memref.view %arena[%c87840][] {cfmem.tensor = "moving_abs"} : memref<89057xi8, 1 : i64> to memref<1x64xf32, 1 : i64>
        nn.apply ins(%r_next : memref<1x64xf32, 1 : i64>) outs(%moving_abs : memref<1x64xf32, 1 : i64>) {
        ^bb0(%66: tensor<1x64xf32>):
          %moving_abs_1 = nn.abs %66 : (tensor<1x64xf32>) -> tensor<1x64xf32>
          nn.yield %moving_abs_1 : tensor<1x64xf32>
        }
        %moving_size = memref.view %arena[%c87472][] {cfmem.tensor = "moving_size"} : memref<89057xi8, 1 : i64> to memref<1x1xf32, 1 : i64>
        nn.apply ins(%moving_abs : memref<1x64xf32, 1 : i64>) outs(%moving_size : memref<1x1xf32, 1 : i64>) {
        ^bb0(%67: tensor<1x64xf32>):
          %moving_size_1 = nn.reduce_mean %67 {axes = array<i64: 0, 1>} : (tensor<1x64xf32>) -> tensor<1x1xf32>
          nn.yield %moving_size_1 : tensor<1x1xf32>
        }
        %moving_b = memref.get_global @cst_main_10 : memref<1xf32>
        %moving = memref.view %arena[%c87536][] {cfmem.tensor = "moving"} : memref<89057xi8, 1 : i64> to memref<1x1xi1, 1 : i64>
        nn.apply ins(%moving_size, %moving_b : memref<1x1xf32, 1 : i64>, memref<1xf32>) outs(%moving : memref<1x1xi1, 1 : i64>) {
        ^bb0(%68: tensor<1x1xf32>, %69: tensor<1xf32>):
          %moving_1 = nn.cmp %68, %69 {predicate = "gt"} : (tensor<1x1xf32>, tensor<1xf32>) -> tensor<1x1xi1>
          nn.yield %moving_1 : tensor<1x1xi1>
        }
        %c.1_2 = memref.view %arena[%c87504][] {cfmem.tensor = "c.1"} : memref<89057xi8, 1 : i64> to memref<1x1xi1, 1 : i64>
        "memref.copy"(%r_next, %r_last) : (memref<1x64xf32, 1 : i64>, memref<1x64xf32, 1 : i64>) -> ()
        "memref.copy"(%moving, %c.1_2) : (memref<1x1xi1, 1 : i64>, memref<1x1xi1, 1 : i64>) -> ()
        %70 = arith.addi %i_2, %c1 : index
        scf.yield %70 : index
      } attributes {cfmem.loop = "loop#1"}
      %ref_cls = memref.view %arena[%c87472][] {cfmem.tensor = "ref_cls"} : memref<89057xi8, 1 : i64> to memref<1x12xf32, 1 : i64>
      nn.apply ins(%r_last, %ref_cls_w_sram, %ref_cls_b_sram : memref<1x64xf32, 1 : i64>, memref<12x64xf32, 1 : i64>, memref<12xf32, 1 : i64>) outs(%ref_cls : memref<1x12xf32, 1 : i64>) {
      ^bb0(%71: tensor<1x64xf32>, %72: tensor<12x64xf32>, %73: tensor<12xf32>):
        %ref_cls_1 = nn.gemm %71, %72, %73 {trans_b = true} : (tensor<1x64xf32>, tensor<12x64xf32>, tensor<12xf32>) -> tensor<1x12xf32>
        nn.yield %ref_cls_1 : tensor<1x12xf32>
      }
      %ref_probs = memref.view %arena[%c87168][] {cfmem.tensor = "ref_probs"} : memref<89057xi8, 1 : i64> to memref<1x12xf32, 1 : i64>
      %scratch_1 = memref.view %arena[%c87216][] {cfmem.tensor = "ref_probs#scratch"} : memref<89057xi8, 1 : i64> to memref<32xi8, 1 : i64>
      nn.apply ins(%ref_cls : memref<1x12xf32, 1 : i64>) outs(%ref_probs : memref<1x12xf32, 1 : i64>) scratch(%scratch_1 : memref<32xi8, 1 : i64>) {
      ^bb0(%74: tensor<1x12xf32>):
        %ref_probs_1 = nn.softmax %74 : (tensor<1x12xf32>) -> tensor<1x12xf32>
        nn.yield %ref_probs_1 : tensor<1x12xf32>
      }
      "memref.copy"(%ref_probs, %out_out) : (memref<1x12xf32, 1 : i64>, memref<1x12xf32>) -> ()
    } else {
      "memref.copy"(%probs, %out_out) : (memref<1x12xf32, 1 : i64>, memref<1x12xf32>) -> ()
    }
    func.return
  }
  func.func @load_resident_main() attributes {cfmem.init_of = "main"} {
    %0 = memref.get_global @arena_main : memref<89057xi8, 1 : i64>
    %1 = arith.constant 0 : index
    %2 = memref.view %0[%1][] : memref<89057xi8, 1 : i64> to memref<87168xi8, 1 : i64>
    %3 = memref.alloca() : memref<12xi32>
    %4 = memref.get_global @weights : memref<87168xi8>
    %5 = arith.constant 10240 : index
    "memref.dma_start"(%4, %1, %2, %1, %5, %3, %1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "init_w_sram"} : (memref<87168xi8>, index, memref<87168xi8, 1 : i64>, index, index, memref<12xi32>, index) -> ()
    %6 = memref.get_global @weights : memref<87168xi8>
    %7 = arith.constant 256 : index
    %8 = arith.constant 1 : index
    "memref.dma_start"(%6, %5, %2, %5, %7, %3, %8) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "init_b_sram"} : (memref<87168xi8>, index, memref<87168xi8, 1 : i64>, index, index, memref<12xi32>, index) -> ()
    %9 = memref.get_global @weights : memref<87168xi8>
    %10 = arith.constant 10496 : index
    %11 = arith.constant 26624 : index
    %12 = arith.constant 2 : index
    "memref.dma_start"(%9, %10, %2, %10, %11, %3, %12) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "gate_w_sram"} : (memref<87168xi8>, index, memref<87168xi8, 1 : i64>, index, index, memref<12xi32>, index) -> ()
    %13 = memref.get_global @weights : memref<87168xi8>
    %14 = arith.constant 37120 : index
    %15 = arith.constant 3 : index
    "memref.dma_start"(%13, %14, %2, %14, %7, %3, %15) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "gate_b_sram"} : (memref<87168xi8>, index, memref<87168xi8, 1 : i64>, index, index, memref<12xi32>, index) -> ()
    %16 = memref.get_global @weights : memref<87168xi8>
    %17 = arith.constant 37376 : index
    %18 = arith.constant 4 : index
    "memref.dma_start"(%16, %17, %2, %17, %11, %3, %18) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "cand_w_sram"} : (memref<87168xi8>, index, memref<87168xi8, 1 : i64>, index, index, memref<12xi32>, index) -> ()
    %19 = memref.get_global @weights : memref<87168xi8>
    %20 = arith.constant 64000 : index
    %21 = arith.constant 5 : index
    "memref.dma_start"(%19, %20, %2, %20, %7, %3, %21) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "cand_b_sram"} : (memref<87168xi8>, index, memref<87168xi8, 1 : i64>, index, index, memref<12xi32>, index) -> ()
    %22 = memref.get_global @weights : memref<87168xi8>
    %23 = arith.constant 64256 : index
    %24 = arith.constant 3072 : index
    %25 = arith.constant 6 : index
    "memref.dma_start"(%22, %23, %2, %23, %24, %3, %25) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "cls_w_sram"} : (memref<87168xi8>, index, memref<87168xi8, 1 : i64>, index, index, memref<12xi32>, index) -> ()
    %26 = memref.get_global @weights : memref<87168xi8>
    %27 = arith.constant 67328 : index
    %28 = arith.constant 48 : index
    %29 = arith.constant 7 : index
    "memref.dma_start"(%26, %27, %2, %27, %28, %3, %29) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "cls_b_sram"} : (memref<87168xi8>, index, memref<87168xi8, 1 : i64>, index, index, memref<12xi32>, index) -> ()
    %30 = memref.get_global @weights : memref<87168xi8>
    %31 = arith.constant 67392 : index
    %32 = arith.constant 16384 : index
    %33 = arith.constant 8 : index
    "memref.dma_start"(%30, %31, %2, %31, %32, %3, %33) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "ref_w_sram"} : (memref<87168xi8>, index, memref<87168xi8, 1 : i64>, index, index, memref<12xi32>, index) -> ()
    %34 = memref.get_global @weights : memref<87168xi8>
    %35 = arith.constant 83776 : index
    %36 = arith.constant 9 : index
    "memref.dma_start"(%34, %35, %2, %35, %7, %3, %36) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "ref_b_sram"} : (memref<87168xi8>, index, memref<87168xi8, 1 : i64>, index, index, memref<12xi32>, index) -> ()
    %37 = memref.get_global @weights : memref<87168xi8>
    %38 = arith.constant 84032 : index
    %39 = arith.constant 10 : index
    "memref.dma_start"(%37, %38, %2, %38, %24, %3, %39) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "ref_cls_w_sram"} : (memref<87168xi8>, index, memref<87168xi8, 1 : i64>, index, index, memref<12xi32>, index) -> ()
    %40 = memref.get_global @weights : memref<87168xi8>
    %41 = arith.constant 87104 : index
    %42 = arith.constant 11 : index
    "memref.dma_start"(%40, %41, %2, %41, %28, %3, %42) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "ref_cls_b_sram"} : (memref<87168xi8>, index, memref<87168xi8, 1 : i64>, index, index, memref<12xi32>, index) -> ()
    "memref.dma_wait"(%3, %1, %5) : (memref<12xi32>, index, index) -> ()
    "memref.dma_wait"(%3, %8, %7) : (memref<12xi32>, index, index) -> ()
    "memref.dma_wait"(%3, %12, %11) : (memref<12xi32>, index, index) -> ()
    "memref.dma_wait"(%3, %15, %7) : (memref<12xi32>, index, index) -> ()
    "memref.dma_wait"(%3, %18, %11) : (memref<12xi32>, index, index) -> ()
    "memref.dma_wait"(%3, %21, %7) : (memref<12xi32>, index, index) -> ()
    "memref.dma_wait"(%3, %25, %24) : (memref<12xi32>, index, index) -> ()
    "memref.dma_wait"(%3, %29, %28) : (memref<12xi32>, index, index) -> ()
    "memref.dma_wait"(%3, %33, %32) : (memref<12xi32>, index, index) -> ()
    "memref.dma_wait"(%3, %36, %7) : (memref<12xi32>, index, index) -> ()
    "memref.dma_wait"(%3, %39, %24) : (memref<12xi32>, index, index) -> ()
    "memref.dma_wait"(%3, %42, %28) : (memref<12xi32>, index, index) -> ()
    func.return
  }
}
