builtin.module {
  "memref.global"() <{sym_name = "cst_main_2", type = memref<1xf32>, initial_value = dense<2.000000e+00> : tensor<1xf32>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "cst_main_1", type = memref<1xf32>, initial_value = dense<1.000000e+01> : tensor<1xf32>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "cst_main_0", type = memref<1xf32>, initial_value = dense<5.000000e-01> : tensor<1xf32>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "weights", type = memref<152064xi8>, initial_value = dense<"0x~889e21c0f27b9af9"> : tensor<152064xi8>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "arena_main", type = memref<1420337xi8, 1 : i64>, initial_value, sym_visibility = "private"}> : () -> ()
  func.func @main(%spec: memref<1x1x64x64xf32>, %snr: memref<1xf32>, %out_clean: memref<1x1x64x64xf32>) attributes {cfmem.dma_depth = 2 : i64, cfmem.arena_size = 1420337 : i64, cfmem.lower_bound = 1420295 : i64, cfmem.plan = "exact/auto", cfmem.aliases = "reshape,slice,inplace,concat,yield", cfmem.onchip_budget = 2097152 : i64, cfmem.init = "load_resident_main", cfmem.output_names = ["clean"]} {
    %arena = memref.get_global @arena_main : memref<1420337xi8, 1 : i64>
    %c0 = arith.constant 0 : index
    %c576 = arith.constant 576 : index
    %c640 = arith.constant 640 : index
    %c19072 = arith.constant 19072 : index
    %c19200 = arith.constant 19200 : index
    %c56064 = arith.constant 56064 : index
    %c56192 = arith.constant 56192 : index
    %c93056 = arith.constant 93056 : index
    %c93184 = arith.constant 93184 : index
    %c130048 = arith.constant 130048 : index
    %c130176 = arith.constant 130176 : index
    %c131328 = arith.constant 131328 : index
    %c131392 = arith.constant 131392 : index
    %c140608 = arith.constant 140608 : index
    %c140672 = arith.constant 140672 : index
    %c149888 = arith.constant 149888 : index
    %c149952 = arith.constant 149952 : index
    %c150528 = arith.constant 150528 : index
    %c150592 = arith.constant 150592 : index
    %c151168 = arith.constant 151168 : index
    %c151232 = arith.constant 151232 : index
    %c151744 = arith.constant 151744 : index
    %c151808 = arith.constant 151808 : index
    %c151872 = arith.constant 151872 : index
    %c151936 = arith.constant 151936 : index
    %c152000 = arith.constant 152000 : index
    %c1384704 = arith.constant 1384704 : index
    %c1048576 = arith.constant 1048576 : index
    %c1420288 = arith.constant 1420288 : index
    %c1420304 = arith.constant 1420304 : index
    %c1403904 = arith.constant 1403904 : index
    %c1420320 = arith.constant 1420320 : index
    %c1420336 = arith.constant 1420336 : index
    %c1347712 = arith.constant 1347712 : index
    %c1310720 = arith.constant 1310720 : index
    %c36864 = arith.constant 36864 : index
    %c128 = arith.constant 128 : index
    %c1 = arith.constant 1 : index
    %c524288 = arith.constant 524288 : index
    %c1152 = arith.constant 1152 : index
    %c4 = arith.constant 4 : index
    %c533568 = arith.constant 533568 : index
    %c9216 = arith.constant 9216 : index
    %c64 = arith.constant 64 : index
    %c262144 = arith.constant 262144 : index
    %c393216 = arith.constant 393216 : index
    %c393856 = arith.constant 393856 : index
    %c512 = arith.constant 512 : index
    %c32 = arith.constant 32 : index
    %weights = memref.get_global @weights : memref<152064xi8>
    %enc_w = memref.view %weights[%c0][] : memref<152064xi8> to memref<16x1x3x3xf32>
    %enc_b = memref.view %weights[%c576][] : memref<152064xi8> to memref<16xf32>
    %heavy1_w = memref.view %weights[%c640][] : memref<152064xi8> to memref<32x16x3x3xf32>
    %heavy1_b = memref.view %weights[%c19072][] : memref<152064xi8> to memref<32xf32>
    %heavy2_w = memref.view %weights[%c19200][] : memref<152064xi8> to memref<32x32x3x3xf32>
    %heavy2_b = memref.view %weights[%c56064][] : memref<152064xi8> to memref<32xf32>
    %heavy3_w = memref.view %weights[%c56192][] : memref<152064xi8> to memref<32x32x3x3xf32>
    %heavy3_b = memref.view %weights[%c93056][] : memref<152064xi8> to memref<32xf32>
    %heavy4_w = memref.view %weights[%c93184][] : memref<152064xi8> to memref<32x32x3x3xf32>
    %heavy4_b = memref.view %weights[%c130048][] : memref<152064xi8> to memref<32xf32>
    %heavy_mask_w = memref.view %weights[%c130176][] : memref<152064xi8> to memref<1x32x3x3xf32>
    %heavy_mask_b = memref.view %weights[%c131328][] : memref<152064xi8> to memref<1xf32>
    %medium1_w = memref.view %weights[%c131392][] : memref<152064xi8> to memref<16x16x3x3xf32>
    %medium1_b = memref.view %weights[%c140608][] : memref<152064xi8> to memref<16xf32>
    %medium2_w = memref.view %weights[%c140672][] : memref<152064xi8> to memref<16x16x3x3xf32>
    %medium2_b = memref.view %weights[%c149888][] : memref<152064xi8> to memref<16xf32>
    %medium_mask_w = memref.view %weights[%c149952][] : memref<152064xi8> to memref<1x16x3x3xf32>
    %medium_mask_b = memref.view %weights[%c150528][] : memref<152064xi8> to memref<1xf32>
    %light_dw_w = memref.view %weights[%c150592][] : memref<152064xi8> to memref<16x1x3x3xf32>
    %light_dw_b = memref.view %weights[%c151168][] : memref<152064xi8> to memref<16xf32>
    %light_pw_w = memref.view %weights[%c151232][] : memref<152064xi8> to memref<8x16x1x1xf32>
    %light_pw_b = memref.view %weights[%c151744][] : memref<152064xi8> to memref<8xf32>
    %light_mask_w = memref.view %weights[%c151808][] : memref<152064xi8> to memref<1x8x1x1xf32>
    %light_mask_b = memref.view %weights[%c151872][] : memref<152064xi8> to memref<1xf32>
    %quiet_mask_w = memref.view %weights[%c151936][] : memref<152064xi8> to memref<1x16x1x1xf32>
    %quiet_mask_b = memref.view %weights[%c152000][] : memref<152064xi8> to memref<1xf32>
    %resident = memref.view %arena[%c1384704][] {cfmem.tensor = "resident"} : memref<1420337xi8, 1 : i64> to memref<19200xi8, 1 : i64>
    %enc_w_sram = memref.view %resident[%c0][] {cfmem.tensor = "enc_w_sram"} : memref<19200xi8, 1 : i64> to memref<16x1x3x3xf32, 1 : i64>
    %enc_b_sram = memref.view %resident[%c576][] {cfmem.tensor = "enc_b_sram"} : memref<19200xi8, 1 : i64> to memref<16xf32, 1 : i64>
    %heavy1_w_sram = memref.view %resident[%c640][] {cfmem.tensor = "heavy1_w_sram"} : memref<19200xi8, 1 : i64> to memref<32x16x3x3xf32, 1 : i64>
    %heavy1_b_sram = memref.view %resident[%c19072][] {cfmem.tensor = "heavy1_b_sram"} : memref<19200xi8, 1 : i64> to memref<32xf32, 1 : i64>
    %enc = memref.view %arena[%c1048576][] {cfmem.tensor = "enc"} : memref<1420337xi8, 1 : i64> to memref<1x16x64x64xf32, 1 : i64>
    nn.apply ins(%spec, %enc_w_sram, %enc_b_sram : memref<1x1x64x64xf32>, memref<16x1x3x3xf32, 1 : i64>, memref<16xf32, 1 : i64>) outs(%enc : memref<1x16x64x64xf32, 1 : i64>) {
    ^bb0(%0: tensor<1x1x64x64xf32>, %1: tensor<16x1x3x3xf32>, %2: tensor<16xf32>):
      %enc_1 = nn.conv2d %0, %1, %2 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x64x64xf32>, tensor<16x1x3x3xf32>, tensor<16xf32>) -> tensor<1x16x64x64xf32>
      nn.yield %enc_1 : tensor<1x16x64x64xf32>
    }
    %enc_out = memref.view %arena[%c1048576][] {cfmem.tensor = "enc_out"} : memref<1420337xi8, 1 : i64> to memref<1x16x64x64xf32, 1 : i64>
    nn.apply ins(%enc : memref<1x16x64x64xf32, 1 : i64>) outs(%enc_out : memref<1x16x64x64xf32, 1 : i64>) attributes {cfmem.inplace} {
    ^bb0(%3: tensor<1x16x64x64xf32>):
      %enc_out_1 = nn.relu %3 : (tensor<1x16x64x64xf32>) -> tensor<1x16x64x64xf32>
      nn.yield %enc_out_1 : tensor<1x16x64x64xf32>
    }
    %level = memref.view %arena[%c1420288][] {cfmem.tensor = "level"} : memref<1420337xi8, 1 : i64> to memref<1xf32, 1 : i64>
    nn.apply ins(%spec : memref<1x1x64x64xf32>) outs(%level : memref<1xf32, 1 : i64>) {
    ^bb0(%4: tensor<1x1x64x64xf32>):
      %level_1 = nn.reduce_mean %4 {axes = array<i64: 1, 2, 3>, keepdims = false} : (tensor<1x1x64x64xf32>) -> tensor<1xf32>
      nn.yield %level_1 : tensor<1xf32>
    }
    %loud_b = memref.get_global @cst_main_0 : memref<1xf32>
    %loud = memref.view %arena[%c1420304][] {cfmem.tensor = "loud"} : memref<1420337xi8, 1 : i64> to memref<1xi1, 1 : i64>
    nn.apply ins(%level, %loud_b : memref<1xf32, 1 : i64>, memref<1xf32>) outs(%loud : memref<1xi1, 1 : i64>) {
    ^bb0(%5: tensor<1xf32>, %6: tensor<1xf32>):
      %loud_1 = nn.cmp %5, %6 {predicate = "gt"} : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xi1>
      nn.yield %loud_1 : tensor<1xi1>
    }
    %mask = memref.view %arena[%c1403904][] {cfmem.tensor = "mask", cfmem.reads = ["loud_mask", "noisy_mask", "heavy_mask", "medium_mask", "light_mask", "quiet_mask"]} : memref<1420337xi8, 1 : i64> to memref<1x1x64x64xf32, 1 : i64>
    %7 = memref.load %loud[%c0] : memref<1xi1, 1 : i64>
    scf.if %7 {
      %low_snr_b = memref.get_global @cst_main_1 : memref<1xf32>
      %low_snr = memref.view %arena[%c1420320][] {cfmem.tensor = "low_snr"} : memref<1420337xi8, 1 : i64> to memref<1xi1, 1 : i64>
      nn.apply ins(%snr, %low_snr_b : memref<1xf32>, memref<1xf32>) outs(%low_snr : memref<1xi1, 1 : i64>) {
      ^bb0(%8: tensor<1xf32>, %9: tensor<1xf32>):
        %low_snr_1 = nn.cmp %8, %9 {predicate = "lt"} : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xi1>
        nn.yield %low_snr_1 : tensor<1xi1>
      }
      %loud_mask = memref.view %arena[%c1403904][] {cfmem.tensor = "loud_mask", cfmem.reads = ["noisy_mask", "heavy_mask", "medium_mask", "light_mask"]} : memref<1420337xi8, 1 : i64> to memref<1x1x64x64xf32, 1 : i64>
      %10 = memref.load %low_snr[%c0] : memref<1xi1, 1 : i64>
      scf.if %10 {
        %very_loud_b = memref.get_global @cst_main_2 : memref<1xf32>
        %very_loud = memref.view %arena[%c1420336][] {cfmem.tensor = "very_loud"} : memref<1420337xi8, 1 : i64> to memref<1xi1, 1 : i64>
        nn.apply ins(%level, %very_loud_b : memref<1xf32, 1 : i64>, memref<1xf32>) outs(%very_loud : memref<1xi1, 1 : i64>) {
        ^bb0(%11: tensor<1xf32>, %12: tensor<1xf32>):
          %very_loud_1 = nn.cmp %11, %12 {predicate = "gt"} : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xi1>
          nn.yield %very_loud_1 : tensor<1xi1>
        }
        %noisy_mask = memref.view %arena[%c1403904][] {cfmem.tensor = "noisy_mask", cfmem.reads = ["heavy_mask", "medium_mask"]} : memref<1420337xi8, 1 : i64> to memref<1x1x64x64xf32, 1 : i64>
        %13 = memref.load %very_loud[%c0] : memref<1xi1, 1 : i64>
        scf.if %13 {
          %dma0 = memref.view %arena[%c1347712][] {cfmem.tensor = "dma0"} : memref<1420337xi8, 1 : i64> to memref<36992xi8, 1 : i64>
          %dma1 = memref.view %arena[%c1310720][] {cfmem.tensor = "dma1"} : memref<1420337xi8, 1 : i64> to memref<36992xi8, 1 : i64>
          %tag = memref.alloca() : memref<2xi32>
          "memref.dma_start"(%weights, %c19200, %dma0, %c0, %c36864, %tag, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "heavy2_w_sram"} : (memref<152064xi8>, index, memref<36992xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
          "memref.dma_start"(%weights, %c56064, %dma0, %c36864, %c128, %tag, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "heavy2_b_sram"} : (memref<152064xi8>, index, memref<36992xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
          %heavy1 = memref.view %arena[%c0][] {cfmem.tensor = "heavy1"} : memref<1420337xi8, 1 : i64> to memref<1x32x64x64xf32, 1 : i64>
          nn.apply ins(%enc_out, %heavy1_w_sram, %heavy1_b_sram : memref<1x16x64x64xf32, 1 : i64>, memref<32x16x3x3xf32, 1 : i64>, memref<32xf32, 1 : i64>) outs(%heavy1 : memref<1x32x64x64xf32, 1 : i64>) {
          ^bb0(%14: tensor<1x16x64x64xf32>, %15: tensor<32x16x3x3xf32>, %16: tensor<32xf32>):
            %heavy1_1 = nn.conv2d %14, %15, %16 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x16x64x64xf32>, tensor<32x16x3x3xf32>, tensor<32xf32>) -> tensor<1x32x64x64xf32>
            nn.yield %heavy1_1 : tensor<1x32x64x64xf32>
          }
          %heavy1_out = memref.view %arena[%c0][] {cfmem.tensor = "heavy1_out"} : memref<1420337xi8, 1 : i64> to memref<1x32x64x64xf32, 1 : i64>
          nn.apply ins(%heavy1 : memref<1x32x64x64xf32, 1 : i64>) outs(%heavy1_out : memref<1x32x64x64xf32, 1 : i64>) attributes {cfmem.inplace} {
          ^bb0(%17: tensor<1x32x64x64xf32>):
            %heavy1_out_1 = nn.relu %17 : (tensor<1x32x64x64xf32>) -> tensor<1x32x64x64xf32>
            nn.yield %heavy1_out_1 : tensor<1x32x64x64xf32>
          }
          "memref.dma_wait"(%tag, %c0, %c36864) : (memref<2xi32>, index, index) -> ()
          "memref.dma_wait"(%tag, %c1, %c128) : (memref<2xi32>, index, index) -> ()
          %heavy2_w_sram = memref.view %dma0[%c0][] {cfmem.tensor = "heavy2_w_sram"} : memref<36992xi8, 1 : i64> to memref<32x32x3x3xf32, 1 : i64>
          %heavy2_b_sram = memref.view %dma0[%c36864][] {cfmem.tensor = "heavy2_b_sram"} : memref<36992xi8, 1 : i64> to memref<32xf32, 1 : i64>
          %tag_1 = memref.alloca() : memref<2xi32>
          "memref.dma_start"(%weights, %c56192, %dma1, %c0, %c36864, %tag_1, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "heavy3_w_sram"} : (memref<152064xi8>, index, memref<36992xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
          "memref.dma_start"(%weights, %c93056, %dma1, %c36864, %c128, %tag_1, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "heavy3_b_sram"} : (memref<152064xi8>, index, memref<36992xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
          %heavy2 = memref.view %arena[%c524288][] {cfmem.tensor = "heavy2"} : memref<1420337xi8, 1 : i64> to memref<1x32x64x64xf32, 1 : i64>
          nn.apply ins(%heavy1_out, %heavy2_w_sram, %heavy2_b_sram : memref<1x32x64x64xf32, 1 : i64>, memref<32x32x3x3xf32, 1 : i64>, memref<32xf32, 1 : i64>) outs(%heavy2 : memref<1x32x64x64xf32, 1 : i64>) {
          ^bb0(%18: tensor<1x32x64x64xf32>, %19: tensor<32x32x3x3xf32>, %20: tensor<32xf32>):
            %heavy2_1 = nn.conv2d %18, %19, %20 {pads = array<i64: 2, 2, 2, 2>, dilations = array<i64: 2, 2>} : (tensor<1x32x64x64xf32>, tensor<32x32x3x3xf32>, tensor<32xf32>) -> tensor<1x32x64x64xf32>
            nn.yield %heavy2_1 : tensor<1x32x64x64xf32>
          }
          %heavy2_out = memref.view %arena[%c524288][] {cfmem.tensor = "heavy2_out"} : memref<1420337xi8, 1 : i64> to memref<1x32x64x64xf32, 1 : i64>
          nn.apply ins(%heavy2 : memref<1x32x64x64xf32, 1 : i64>) outs(%heavy2_out : memref<1x32x64x64xf32, 1 : i64>) attributes {cfmem.inplace} {
          ^bb0(%21: tensor<1x32x64x64xf32>):
            %heavy2_out_1 = nn.relu %21 : (tensor<1x32x64x64xf32>) -> tensor<1x32x64x64xf32>
            nn.yield %heavy2_out_1 : tensor<1x32x64x64xf32>
          }
          "memref.dma_wait"(%tag_1, %c0, %c36864) : (memref<2xi32>, index, index) -> ()
          "memref.dma_wait"(%tag_1, %c1, %c128) : (memref<2xi32>, index, index) -> ()
          %heavy3_w_sram = memref.view %dma1[%c0][] {cfmem.tensor = "heavy3_w_sram"} : memref<36992xi8, 1 : i64> to memref<32x32x3x3xf32, 1 : i64>
          %heavy3_b_sram = memref.view %dma1[%c36864][] {cfmem.tensor = "heavy3_b_sram"} : memref<36992xi8, 1 : i64> to memref<32xf32, 1 : i64>
          %tag_2 = memref.alloca() : memref<2xi32>
          "memref.dma_start"(%weights, %c93184, %dma0, %c0, %c36864, %tag_2, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "heavy4_w_sram"} : (memref<152064xi8>, index, memref<36992xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
          "memref.dma_start"(%weights, %c130048, %dma0, %c36864, %c128, %tag_2, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "heavy4_b_sram"} : (memref<152064xi8>, index, memref<36992xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
          %heavy3 = memref.view %arena[%c0][] {cfmem.tensor = "heavy3"} : memref<1420337xi8, 1 : i64> to memref<1x32x64x64xf32, 1 : i64>
          nn.apply ins(%heavy2_out, %heavy3_w_sram, %heavy3_b_sram : memref<1x32x64x64xf32, 1 : i64>, memref<32x32x3x3xf32, 1 : i64>, memref<32xf32, 1 : i64>) outs(%heavy3 : memref<1x32x64x64xf32, 1 : i64>) {
          ^bb0(%22: tensor<1x32x64x64xf32>, %23: tensor<32x32x3x3xf32>, %24: tensor<32xf32>):
            %heavy3_1 = nn.conv2d %22, %23, %24 {pads = array<i64: 4, 4, 4, 4>, dilations = array<i64: 4, 4>} : (tensor<1x32x64x64xf32>, tensor<32x32x3x3xf32>, tensor<32xf32>) -> tensor<1x32x64x64xf32>
            nn.yield %heavy3_1 : tensor<1x32x64x64xf32>
          }
          %heavy3_out = memref.view %arena[%c0][] {cfmem.tensor = "heavy3_out"} : memref<1420337xi8, 1 : i64> to memref<1x32x64x64xf32, 1 : i64>
          nn.apply ins(%heavy3 : memref<1x32x64x64xf32, 1 : i64>) outs(%heavy3_out : memref<1x32x64x64xf32, 1 : i64>) attributes {cfmem.inplace} {
          ^bb0(%25: tensor<1x32x64x64xf32>):
            %heavy3_out_1 = nn.relu %25 : (tensor<1x32x64x64xf32>) -> tensor<1x32x64x64xf32>
            nn.yield %heavy3_out_1 : tensor<1x32x64x64xf32>
          }
          "memref.dma_wait"(%tag_2, %c0, %c36864) : (memref<2xi32>, index, index) -> ()
          "memref.dma_wait"(%tag_2, %c1, %c128) : (memref<2xi32>, index, index) -> ()
          %heavy4_w_sram = memref.view %dma0[%c0][] {cfmem.tensor = "heavy4_w_sram"} : memref<36992xi8, 1 : i64> to memref<32x32x3x3xf32, 1 : i64>
          %heavy4_b_sram = memref.view %dma0[%c36864][] {cfmem.tensor = "heavy4_b_sram"} : memref<36992xi8, 1 : i64> to memref<32xf32, 1 : i64>
          %tag_3 = memref.alloca() : memref<2xi32>
          "memref.dma_start"(%weights, %c130176, %dma1, %c0, %c1152, %tag_3, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "heavy_mask_w_sram"} : (memref<152064xi8>, index, memref<36992xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
          "memref.dma_start"(%weights, %c131328, %dma1, %c1152, %c4, %tag_3, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "heavy_mask_b_sram"} : (memref<152064xi8>, index, memref<36992xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
          %heavy4 = memref.view %arena[%c524288][] {cfmem.tensor = "heavy4"} : memref<1420337xi8, 1 : i64> to memref<1x32x64x64xf32, 1 : i64>
          nn.apply ins(%heavy3_out, %heavy4_w_sram, %heavy4_b_sram : memref<1x32x64x64xf32, 1 : i64>, memref<32x32x3x3xf32, 1 : i64>, memref<32xf32, 1 : i64>) outs(%heavy4 : memref<1x32x64x64xf32, 1 : i64>) {
          ^bb0(%26: tensor<1x32x64x64xf32>, %27: tensor<32x32x3x3xf32>, %28: tensor<32xf32>):
            %heavy4_1 = nn.conv2d %26, %27, %28 {pads = array<i64: 8, 8, 8, 8>, dilations = array<i64: 8, 8>} : (tensor<1x32x64x64xf32>, tensor<32x32x3x3xf32>, tensor<32xf32>) -> tensor<1x32x64x64xf32>
            nn.yield %heavy4_1 : tensor<1x32x64x64xf32>
          }
          %heavy4_out = memref.view %arena[%c524288][] {cfmem.tensor = "heavy4_out"} : memref<1420337xi8, 1 : i64> to memref<1x32x64x64xf32, 1 : i64>
          nn.apply ins(%heavy4 : memref<1x32x64x64xf32, 1 : i64>) outs(%heavy4_out : memref<1x32x64x64xf32, 1 : i64>) attributes {cfmem.inplace} {
          ^bb0(%29: tensor<1x32x64x64xf32>):
            %heavy4_out_1 = nn.relu %29 : (tensor<1x32x64x64xf32>) -> tensor<1x32x64x64xf32>
            nn.yield %heavy4_out_1 : tensor<1x32x64x64xf32>
          }
          "memref.dma_wait"(%tag_3, %c0, %c1152) : (memref<2xi32>, index, index) -> ()
          "memref.dma_wait"(%tag_3, %c1, %c4) : (memref<2xi32>, index, index) -> ()
          %heavy_mask_w_sram = memref.view %dma1[%c0][] {cfmem.tensor = "heavy_mask_w_sram"} : memref<36992xi8, 1 : i64> to memref<1x32x3x3xf32, 1 : i64>
          %heavy_mask_b_sram = memref.view %dma1[%c1152][] {cfmem.tensor = "heavy_mask_b_sram"} : memref<36992xi8, 1 : i64> to memref<1xf32, 1 : i64>
          %heavy_mask = memref.view %arena[%c1403904][] {cfmem.tensor = "heavy_mask"} : memref<1420337xi8, 1 : i64> to memref<1x1x64x64xf32, 1 : i64>
          nn.apply ins(%heavy4_out, %heavy_mask_w_sram, %heavy_mask_b_sram : memref<1x32x64x64xf32, 1 : i64>, memref<1x32x3x3xf32, 1 : i64>, memref<1xf32, 1 : i64>) outs(%heavy_mask : memref<1x1x64x64xf32, 1 : i64>) {
          ^bb0(%30: tensor<1x32x64x64xf32>, %31: tensor<1x32x3x3xf32>, %32: tensor<1xf32>):
            %heavy_mask_1 = nn.conv2d %30, %31, %32 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x32x64x64xf32>, tensor<1x32x3x3xf32>, tensor<1xf32>) -> tensor<1x1x64x64xf32>
            nn.yield %heavy_mask_1 : tensor<1x1x64x64xf32>
          }
        } else {
          %dma0_1 = memref.view %arena[%c524288][] {cfmem.tensor = "dma0_1"} : memref<1420337xi8, 1 : i64> to memref<9280xi8, 1 : i64>
          %dma1_1 = memref.view %arena[%c533568][] {cfmem.tensor = "dma1_1"} : memref<1420337xi8, 1 : i64> to memref<9280xi8, 1 : i64>
          %tag_4 = memref.alloca() : memref<2xi32>
          "memref.dma_start"(%weights, %c131392, %dma0_1, %c0, %c9216, %tag_4, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "medium1_w_sram"} : (memref<152064xi8>, index, memref<9280xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
          "memref.dma_start"(%weights, %c140608, %dma0_1, %c9216, %c64, %tag_4, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "medium1_b_sram"} : (memref<152064xi8>, index, memref<9280xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
          "memref.dma_wait"(%tag_4, %c0, %c9216) : (memref<2xi32>, index, index) -> ()
          "memref.dma_wait"(%tag_4, %c1, %c64) : (memref<2xi32>, index, index) -> ()
          %medium1_w_sram = memref.view %dma0_1[%c0][] {cfmem.tensor = "medium1_w_sram"} : memref<9280xi8, 1 : i64> to memref<16x16x3x3xf32, 1 : i64>
          %medium1_b_sram = memref.view %dma0_1[%c9216][] {cfmem.tensor = "medium1_b_sram"} : memref<9280xi8, 1 : i64> to memref<16xf32, 1 : i64>
          %tag_5 = memref.alloca() : memref<2xi32>
          "memref.dma_start"(%weights, %c140672, %dma1_1, %c0, %c9216, %tag_5, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "medium2_w_sram"} : (memref<152064xi8>, index, memref<9280xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
          "memref.dma_start"(%weights, %c149888, %dma1_1, %c9216, %c64, %tag_5, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "medium2_b_sram"} : (memref<152064xi8>, index, memref<9280xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
          %medium1 = memref.view %arena[%c0][] {cfmem.tensor = "medium1"} : memref<1420337xi8, 1 : i64> to memref<1x16x64x64xf32, 1 : i64>
          nn.apply ins(%enc_out, %medium1_w_sram, %medium1_b_sram : memref<1x16x64x64xf32, 1 : i64>, memref<16x16x3x3xf32, 1 : i64>, memref<16xf32, 1 : i64>) outs(%medium1 : memref<1x16x64x64xf32, 1 : i64>) {
          ^bb0(%33: tensor<1x16x64x64xf32>, %34: tensor<16x16x3x3xf32>, %35: tensor<16xf32>):
            %medium1_1 = nn.conv2d %33, %34, %35 {pads = array<i64: 2, 2, 2, 2>, dilations = array<i64: 2, 2>} : (tensor<1x16x64x64xf32>, tensor<16x16x3x3xf32>, tensor<16xf32>) -> tensor<1x16x64x64xf32>
            nn.yield %medium1_1 : tensor<1x16x64x64xf32>
          }
          %medium1_out = memref.view %arena[%c0][] {cfmem.tensor = "medium1_out"} : memref<1420337xi8, 1 : i64> to memref<1x16x64x64xf32, 1 : i64>
          nn.apply ins(%medium1 : memref<1x16x64x64xf32, 1 : i64>) outs(%medium1_out : memref<1x16x64x64xf32, 1 : i64>) attributes {cfmem.inplace} {
          ^bb0(%36: tensor<1x16x64x64xf32>):
            %medium1_out_1 = nn.relu %36 : (tensor<1x16x64x64xf32>) -> tensor<1x16x64x64xf32>
            nn.yield %medium1_out_1 : tensor<1x16x64x64xf32>
          }
          "memref.dma_wait"(%tag_5, %c0, %c9216) : (memref<2xi32>, index, index) -> ()
          "memref.dma_wait"(%tag_5, %c1, %c64) : (memref<2xi32>, index, index) -> ()
          %medium2_w_sram = memref.view %dma1_1[%c0][] {cfmem.tensor = "medium2_w_sram"} : memref<9280xi8, 1 : i64> to memref<16x16x3x3xf32, 1 : i64>
          %medium2_b_sram = memref.view %dma1_1[%c9216][] {cfmem.tensor = "medium2_b_sram"} : memref<9280xi8, 1 : i64> to memref<16xf32, 1 : i64>
          %tag_6 = memref.alloca() : memref<2xi32>
          "memref.dma_start"(%weights, %c149952, %dma0_1, %c0, %c576, %tag_6, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "medium_mask_w_sram"} : (memref<152064xi8>, index, memref<9280xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
          "memref.dma_start"(%weights, %c150528, %dma0_1, %c576, %c4, %tag_6, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "medium_mask_b_sram"} : (memref<152064xi8>, index, memref<9280xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
          %medium2 = memref.view %arena[%c262144][] {cfmem.tensor = "medium2"} : memref<1420337xi8, 1 : i64> to memref<1x16x64x64xf32, 1 : i64>
          nn.apply ins(%medium1_out, %medium2_w_sram, %medium2_b_sram : memref<1x16x64x64xf32, 1 : i64>, memref<16x16x3x3xf32, 1 : i64>, memref<16xf32, 1 : i64>) outs(%medium2 : memref<1x16x64x64xf32, 1 : i64>) {
          ^bb0(%37: tensor<1x16x64x64xf32>, %38: tensor<16x16x3x3xf32>, %39: tensor<16xf32>):
            %medium2_1 = nn.conv2d %37, %38, %39 {pads = array<i64: 4, 4, 4, 4>, dilations = array<i64: 4, 4>} : (tensor<1x16x64x64xf32>, tensor<16x16x3x3xf32>, tensor<16xf32>) -> tensor<1x16x64x64xf32>
            nn.yield %medium2_1 : tensor<1x16x64x64xf32>
          }
          %medium2_out = memref.view %arena[%c262144][] {cfmem.tensor = "medium2_out"} : memref<1420337xi8, 1 : i64> to memref<1x16x64x64xf32, 1 : i64>
          nn.apply ins(%medium2 : memref<1x16x64x64xf32, 1 : i64>) outs(%medium2_out : memref<1x16x64x64xf32, 1 : i64>) attributes {cfmem.inplace} {
          ^bb0(%40: tensor<1x16x64x64xf32>):
            %medium2_out_1 = nn.relu %40 : (tensor<1x16x64x64xf32>) -> tensor<1x16x64x64xf32>
            nn.yield %medium2_out_1 : tensor<1x16x64x64xf32>
          }
          "memref.dma_wait"(%tag_6, %c0, %c576) : (memref<2xi32>, index, index) -> ()
          "memref.dma_wait"(%tag_6, %c1, %c4) : (memref<2xi32>, index, index) -> ()
          %medium_mask_w_sram = memref.view %dma0_1[%c0][] {cfmem.tensor = "medium_mask_w_sram"} : memref<9280xi8, 1 : i64> to memref<1x16x3x3xf32, 1 : i64>
          %medium_mask_b_sram = memref.view %dma0_1[%c576][] {cfmem.tensor = "medium_mask_b_sram"} : memref<9280xi8, 1 : i64> to memref<1xf32, 1 : i64>
          %medium_mask = memref.view %arena[%c1403904][] {cfmem.tensor = "medium_mask"} : memref<1420337xi8, 1 : i64> to memref<1x1x64x64xf32, 1 : i64>
          nn.apply ins(%medium2_out, %medium_mask_w_sram, %medium_mask_b_sram : memref<1x16x64x64xf32, 1 : i64>, memref<1x16x3x3xf32, 1 : i64>, memref<1xf32, 1 : i64>) outs(%medium_mask : memref<1x1x64x64xf32, 1 : i64>) {
          ^bb0(%41: tensor<1x16x64x64xf32>, %42: tensor<1x16x3x3xf32>, %43: tensor<1xf32>):
            %medium_mask_1 = nn.conv2d %41, %42, %43 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x16x64x64xf32>, tensor<1x16x3x3xf32>, tensor<1xf32>) -> tensor<1x1x64x64xf32>
            nn.yield %medium_mask_1 : tensor<1x1x64x64xf32>
          }
        }
      } else {
        %dma0_2 = memref.view %arena[%c393216][] {cfmem.tensor = "dma0_2"} : memref<1420337xi8, 1 : i64> to memref<640xi8, 1 : i64>
        %dma1_2 = memref.view %arena[%c393856][] {cfmem.tensor = "dma1_2"} : memref<1420337xi8, 1 : i64> to memref<576xi8, 1 : i64>
        %tag_7 = memref.alloca() : memref<2xi32>
        "memref.dma_start"(%weights, %c150592, %dma0_2, %c0, %c576, %tag_7, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "light_dw_w_sram"} : (memref<152064xi8>, index, memref<640xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
        "memref.dma_start"(%weights, %c151168, %dma0_2, %c576, %c64, %tag_7, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "light_dw_b_sram"} : (memref<152064xi8>, index, memref<640xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
        "memref.dma_wait"(%tag_7, %c0, %c576) : (memref<2xi32>, index, index) -> ()
        "memref.dma_wait"(%tag_7, %c1, %c64) : (memref<2xi32>, index, index) -> ()
        %light_dw_w_sram = memref.view %dma0_2[%c0][] {cfmem.tensor = "light_dw_w_sram"} : memref<640xi8, 1 : i64> to memref<16x1x3x3xf32, 1 : i64>
        %light_dw_b_sram = memref.view %dma0_2[%c576][] {cfmem.tensor = "light_dw_b_sram"} : memref<640xi8, 1 : i64> to memref<16xf32, 1 : i64>
        %tag_8 = memref.alloca() : memref<2xi32>
        "memref.dma_start"(%weights, %c151232, %dma1_2, %c0, %c512, %tag_8, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "light_pw_w_sram"} : (memref<152064xi8>, index, memref<576xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
        "memref.dma_start"(%weights, %c151744, %dma1_2, %c512, %c32, %tag_8, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "light_pw_b_sram"} : (memref<152064xi8>, index, memref<576xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
        %light_dw = memref.view %arena[%c0][] {cfmem.tensor = "light_dw"} : memref<1420337xi8, 1 : i64> to memref<1x16x64x64xf32, 1 : i64>
        nn.apply ins(%enc_out, %light_dw_w_sram, %light_dw_b_sram : memref<1x16x64x64xf32, 1 : i64>, memref<16x1x3x3xf32, 1 : i64>, memref<16xf32, 1 : i64>) outs(%light_dw : memref<1x16x64x64xf32, 1 : i64>) {
        ^bb0(%44: tensor<1x16x64x64xf32>, %45: tensor<16x1x3x3xf32>, %46: tensor<16xf32>):
          %light_dw_1 = nn.conv2d %44, %45, %46 {pads = array<i64: 1, 1, 1, 1>, groups = 16 : i64} : (tensor<1x16x64x64xf32>, tensor<16x1x3x3xf32>, tensor<16xf32>) -> tensor<1x16x64x64xf32>
          nn.yield %light_dw_1 : tensor<1x16x64x64xf32>
        }
        %light_dwr = memref.view %arena[%c0][] {cfmem.tensor = "light_dwr"} : memref<1420337xi8, 1 : i64> to memref<1x16x64x64xf32, 1 : i64>
        nn.apply ins(%light_dw : memref<1x16x64x64xf32, 1 : i64>) outs(%light_dwr : memref<1x16x64x64xf32, 1 : i64>) attributes {cfmem.inplace} {
        ^bb0(%47: tensor<1x16x64x64xf32>):
          %light_dwr_1 = nn.relu %47 : (tensor<1x16x64x64xf32>) -> tensor<1x16x64x64xf32>
          nn.yield %light_dwr_1 : tensor<1x16x64x64xf32>
        }
        "memref.dma_wait"(%tag_8, %c0, %c512) : (memref<2xi32>, index, index) -> ()
        "memref.dma_wait"(%tag_8, %c1, %c32) : (memref<2xi32>, index, index) -> ()
        %light_pw_w_sram = memref.view %dma1_2[%c0][] {cfmem.tensor = "light_pw_w_sram"} : memref<576xi8, 1 : i64> to memref<8x16x1x1xf32, 1 : i64>
        %light_pw_b_sram = memref.view %dma1_2[%c512][] {cfmem.tensor = "light_pw_b_sram"} : memref<576xi8, 1 : i64> to memref<8xf32, 1 : i64>
        %tag_9 = memref.alloca() : memref<2xi32>
        "memref.dma_start"(%weights, %c151808, %dma0_2, %c0, %c32, %tag_9, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "light_mask_w_sram"} : (memref<152064xi8>, index, memref<640xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
        "memref.dma_start"(%weights, %c151872, %dma0_2, %c64, %c4, %tag_9, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "light_mask_b_sram"} : (memref<152064xi8>, index, memref<640xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
        %light_pw = memref.view %arena[%c262144][] {cfmem.tensor = "light_pw"} : memref<1420337xi8, 1 : i64> to memref<1x8x64x64xf32, 1 : i64>
        nn.apply ins(%light_dwr, %light_pw_w_sram, %light_pw_b_sram : memref<1x16x64x64xf32, 1 : i64>, memref<8x16x1x1xf32, 1 : i64>, memref<8xf32, 1 : i64>) outs(%light_pw : memref<1x8x64x64xf32, 1 : i64>) {
        ^bb0(%48: tensor<1x16x64x64xf32>, %49: tensor<8x16x1x1xf32>, %50: tensor<8xf32>):
          %light_pw_1 = nn.conv2d %48, %49, %50 : (tensor<1x16x64x64xf32>, tensor<8x16x1x1xf32>, tensor<8xf32>) -> tensor<1x8x64x64xf32>
          nn.yield %light_pw_1 : tensor<1x8x64x64xf32>
        }
        %light_out = memref.view %arena[%c262144][] {cfmem.tensor = "light_out"} : memref<1420337xi8, 1 : i64> to memref<1x8x64x64xf32, 1 : i64>
        nn.apply ins(%light_pw : memref<1x8x64x64xf32, 1 : i64>) outs(%light_out : memref<1x8x64x64xf32, 1 : i64>) attributes {cfmem.inplace} {
        ^bb0(%51: tensor<1x8x64x64xf32>):
          %light_out_1 = nn.relu %51 : (tensor<1x8x64x64xf32>) -> tensor<1x8x64x64xf32>
          nn.yield %light_out_1 : tensor<1x8x64x64xf32>
        }
        "memref.dma_wait"(%tag_9, %c0, %c32) : (memref<2xi32>, index, index) -> ()
        "memref.dma_wait"(%tag_9, %c1, %c4) : (memref<2xi32>, index, index) -> ()
        %light_mask_w_sram = memref.view %dma0_2[%c0][] {cfmem.tensor = "light_mask_w_sram"} : memref<640xi8, 1 : i64> to memref<1x8x1x1xf32, 1 : i64>
        %light_mask_b_sram = memref.view %dma0_2[%c64][] {cfmem.tensor = "light_mask_b_sram"} : memref<640xi8, 1 : i64> to memref<1xf32, 1 : i64>
        %light_mask = memref.view %arena[%c1403904][] {cfmem.tensor = "light_mask"} : memref<1420337xi8, 1 : i64> to memref<1x1x64x64xf32, 1 : i64>
        nn.apply ins(%light_out, %light_mask_w_sram, %light_mask_b_sram : memref<1x8x64x64xf32, 1 : i64>, memref<1x8x1x1xf32, 1 : i64>, memref<1xf32, 1 : i64>) outs(%light_mask : memref<1x1x64x64xf32, 1 : i64>) {
        ^bb0(%52: tensor<1x8x64x64xf32>, %53: tensor<1x8x1x1xf32>, %54: tensor<1xf32>):
          %light_mask_1 = nn.conv2d %52, %53, %54 : (tensor<1x8x64x64xf32>, tensor<1x8x1x1xf32>, tensor<1xf32>) -> tensor<1x1x64x64xf32>
          nn.yield %light_mask_1 : tensor<1x1x64x64xf32>
        }
      }
    } else {
      %dma0_3 = memref.view %arena[%c0][] {cfmem.tensor = "dma0_3"} : memref<1420337xi8, 1 : i64> to memref<128xi8, 1 : i64>
      %tag_10 = memref.alloca() : memref<2xi32>
      "memref.dma_start"(%weights, %c151936, %dma0_3, %c0, %c64, %tag_10, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "quiet_mask_w_sram"} : (memref<152064xi8>, index, memref<128xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      "memref.dma_start"(%weights, %c152000, %dma0_3, %c64, %c4, %tag_10, %c1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "quiet_mask_b_sram"} : (memref<152064xi8>, index, memref<128xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()
      "memref.dma_wait"(%tag_10, %c0, %c64) : (memref<2xi32>, index, index) -> ()
      "memref.dma_wait"(%tag_10, %c1, %c4) : (memref<2xi32>, index, index) -> ()
      %quiet_mask_w_sram = memref.view %dma0_3[%c0][] {cfmem.tensor = "quiet_mask_w_sram"} : memref<128xi8, 1 : i64> to memref<1x16x1x1xf32, 1 : i64>
      %quiet_mask_b_sram = memref.view %dma0_3[%c64][] {cfmem.tensor = "quiet_mask_b_sram"} : memref<128xi8, 1 : i64> to memref<1xf32, 1 : i64>
      %quiet_mask = memref.view %arena[%c1403904][] {cfmem.tensor = "quiet_mask"} : memref<1420337xi8, 1 : i64> to memref<1x1x64x64xf32, 1 : i64>
      nn.apply ins(%enc_out, %quiet_mask_w_sram, %quiet_mask_b_sram : memref<1x16x64x64xf32, 1 : i64>, memref<1x16x1x1xf32, 1 : i64>, memref<1xf32, 1 : i64>) outs(%quiet_mask : memref<1x1x64x64xf32, 1 : i64>) {
      ^bb0(%55: tensor<1x16x64x64xf32>, %56: tensor<1x16x1x1xf32>, %57: tensor<1xf32>):
        %quiet_mask_1 = nn.conv2d %55, %56, %57 : (tensor<1x16x64x64xf32>, tensor<1x16x1x1xf32>, tensor<1xf32>) -> tensor<1x1x64x64xf32>
        nn.yield %quiet_mask_1 : tensor<1x1x64x64xf32>
      }
    }
    %gate = memref.view %arena[%c1403904][] {cfmem.tensor = "gate"} : memref<1420337xi8, 1 : i64> to memref<1x1x64x64xf32, 1 : i64>
    nn.apply ins(%mask : memref<1x1x64x64xf32, 1 : i64>) outs(%gate : memref<1x1x64x64xf32, 1 : i64>) attributes {cfmem.inplace} {
    ^bb0(%58: tensor<1x1x64x64xf32>):
      %gate_1 = nn.sigmoid %58 : (tensor<1x1x64x64xf32>) -> tensor<1x1x64x64xf32>
      nn.yield %gate_1 : tensor<1x1x64x64xf32>
    }
    nn.apply ins(%spec, %gate : memref<1x1x64x64xf32>, memref<1x1x64x64xf32, 1 : i64>) outs(%out_clean : memref<1x1x64x64xf32>) {
    ^bb0(%59: tensor<1x1x64x64xf32>, %60: tensor<1x1x64x64xf32>):
      %clean = nn.mul %59, %60 : (tensor<1x1x64x64xf32>, tensor<1x1x64x64xf32>) -> tensor<1x1x64x64xf32>
      nn.yield %clean : tensor<1x1x64x64xf32>
    }
    func.return
  }
  func.func @load_resident_main() attributes {cfmem.init_of = "main"} {
    %0 = memref.get_global @arena_main : memref<1420337xi8, 1 : i64>
    %1 = arith.constant 1384704 : index
    %2 = memref.view %0[%1][] : memref<1420337xi8, 1 : i64> to memref<19200xi8, 1 : i64>
    %3 = memref.alloca() : memref<4xi32>
    %4 = memref.get_global @weights : memref<152064xi8>
    %5 = arith.constant 0 : index
    %6 = arith.constant 576 : index
    "memref.dma_start"(%4, %5, %2, %5, %6, %3, %5) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "enc_w_sram"} : (memref<152064xi8>, index, memref<19200xi8, 1 : i64>, index, index, memref<4xi32>, index) -> ()
    %7 = memref.get_global @weights : memref<152064xi8>
    %8 = arith.constant 64 : index
    %9 = arith.constant 1 : index
    "memref.dma_start"(%7, %6, %2, %6, %8, %3, %9) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "enc_b_sram"} : (memref<152064xi8>, index, memref<19200xi8, 1 : i64>, index, index, memref<4xi32>, index) -> ()
    %10 = memref.get_global @weights : memref<152064xi8>
    %11 = arith.constant 640 : index
    %12 = arith.constant 18432 : index
    %13 = arith.constant 2 : index
    "memref.dma_start"(%10, %11, %2, %11, %12, %3, %13) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "heavy1_w_sram"} : (memref<152064xi8>, index, memref<19200xi8, 1 : i64>, index, index, memref<4xi32>, index) -> ()
    %14 = memref.get_global @weights : memref<152064xi8>
    %15 = arith.constant 19072 : index
    %16 = arith.constant 128 : index
    %17 = arith.constant 3 : index
    "memref.dma_start"(%14, %15, %2, %15, %16, %3, %17) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "heavy1_b_sram"} : (memref<152064xi8>, index, memref<19200xi8, 1 : i64>, index, index, memref<4xi32>, index) -> ()
    "memref.dma_wait"(%3, %5, %6) : (memref<4xi32>, index, index) -> ()
    "memref.dma_wait"(%3, %9, %8) : (memref<4xi32>, index, index) -> ()
    "memref.dma_wait"(%3, %13, %12) : (memref<4xi32>, index, index) -> ()
    "memref.dma_wait"(%3, %17, %16) : (memref<4xi32>, index, index) -> ()
    func.return
  }
}
