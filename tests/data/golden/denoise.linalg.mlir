builtin.module {
  "memref.global"() <{sym_name = "cst_main_2", type = memref<1xf32>, initial_value = dense<2.000000e+00> : tensor<1xf32>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "cst_main_1", type = memref<1xf32>, initial_value = dense<1.000000e+01> : tensor<1xf32>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "cst_main_0", type = memref<1xf32>, initial_value = dense<5.000000e-01> : tensor<1xf32>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "weights", type = memref<152064xi8>, initial_value = dense<"0x~889e21c0f27b9af9"> : tensor<152064xi8>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "arena_main", type = memref<1420337xi8>, initial_value, sym_visibility = "private"}> : () -> ()
  func.func @main(%spec: memref<1x1x64x64xf32>, %snr: memref<1xf32>, %out_clean: memref<1x1x64x64xf32>) attributes {cfmem.dma_depth = 2 : i64, cfmem.arena_size = 1420337 : i64, cfmem.lower_bound = 1420295 : i64, cfmem.plan = "exact/auto", cfmem.aliases = "reshape,slice,inplace,concat,yield", cfmem.onchip_budget = 2097152 : i64, cfmem.init = "load_resident_main", cfmem.output_names = ["clean"], llvm.emit_c_interface} {
    %arena = memref.get_global @arena_main : memref<1420337xi8>
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
    %resident = memref.view %arena[%c1384704][] {cfmem.tensor = "resident"} : memref<1420337xi8> to memref<19200xi8>
    %enc_w_sram = memref.view %resident[%c0][] {cfmem.tensor = "enc_w_sram"} : memref<19200xi8> to memref<16x1x3x3xf32>
    %enc_b_sram = memref.view %resident[%c576][] {cfmem.tensor = "enc_b_sram"} : memref<19200xi8> to memref<16xf32>
    %heavy1_w_sram = memref.view %resident[%c640][] {cfmem.tensor = "heavy1_w_sram"} : memref<19200xi8> to memref<32x16x3x3xf32>
    %heavy1_b_sram = memref.view %resident[%c19072][] {cfmem.tensor = "heavy1_b_sram"} : memref<19200xi8> to memref<32xf32>
    %enc = memref.view %arena[%c1048576][] {cfmem.tensor = "enc"} : memref<1420337xi8> to memref<1x16x64x64xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%enc_b_sram : memref<16xf32>) outs(%enc : memref<1x16x64x64xf32>) {
    ^bb0(%0: f32, %1: f32):
      linalg.yield %0 : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%enc_w_sram : memref<16x1x3x3xf32>) outs(%enc : memref<1x16x64x64xf32>) {
    ^bb0(%2: f32, %3: f32):
      %4 = linalg.index 0 : index
      %5 = linalg.index 1 : index
      %6 = linalg.index 2 : index
      %7 = linalg.index 3 : index
      %8 = linalg.index 4 : index
      %9 = linalg.index 5 : index
      %10 = linalg.index 6 : index
      %11 = arith.constant 1 : index
      %12 = arith.muli %6, %11 : index
      %13 = arith.constant 1 : index
      %14 = arith.muli %9, %13 : index
      %15 = arith.addi %12, %14 : index
      %16 = arith.constant 1 : index
      %17 = arith.muli %7, %16 : index
      %18 = arith.constant 1 : index
      %19 = arith.muli %10, %18 : index
      %20 = arith.addi %17, %19 : index
      %21 = arith.constant 0 : index
      %22 = arith.constant 1 : index
      %23 = arith.subi %15, %22 : index
      %24 = arith.cmpi sge, %23, %21 : index
      %25 = arith.constant 64 : index
      %26 = arith.cmpi slt, %23, %25 : index
      %27 = arith.andi %24, %26 : i1
      %28 = arith.maxsi %23, %21 : index
      %29 = arith.constant 63 : index
      %30 = arith.minsi %28, %29 : index
      %31 = arith.constant 1 : index
      %32 = arith.subi %20, %31 : index
      %33 = arith.cmpi sge, %32, %21 : index
      %34 = arith.constant 64 : index
      %35 = arith.cmpi slt, %32, %34 : index
      %36 = arith.andi %33, %35 : i1
      %37 = arith.andi %27, %36 : i1
      %38 = arith.maxsi %32, %21 : index
      %39 = arith.constant 63 : index
      %40 = arith.minsi %38, %39 : index
      %41 = memref.load %spec[%4, %8, %30, %40] : memref<1x1x64x64xf32>
      %42 = arith.constant 0.000000e+00 : f32
      %43 = arith.select %37, %41, %42 : f32
      %44 = arith.mulf %43, %2 : f32
      %45 = arith.addf %3, %44 : f32
      linalg.yield %45 : f32
    }
    %enc_out = memref.view %arena[%c1048576][] {cfmem.tensor = "enc_out"} : memref<1420337xi8> to memref<1x16x64x64xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%enc : memref<1x16x64x64xf32>) outs(%enc_out : memref<1x16x64x64xf32>) {
    ^bb0(%46: f32, %47: f32):
      %48 = arith.constant 0.000000e+00 : f32
      %49 = arith.maximumf %46, %48 : f32
      linalg.yield %49 : f32
    }
    %level = memref.view %arena[%c1420288][] {cfmem.tensor = "level"} : memref<1420337xi8> to memref<1xf32>
    %50 = arith.constant -0.000000e+00 : f32
    linalg.fill ins(%50 : f32) outs(%level : memref<1xf32>)
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0)>], iterator_types = ["parallel", "reduction", "reduction", "reduction"]} ins(%spec : memref<1x1x64x64xf32>) outs(%level : memref<1xf32>) {
    ^bb0(%51: f32, %52: f32):
      %53 = arith.addf %52, %51 : f32
      linalg.yield %53 : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%level : memref<1xf32>) {
    ^bb0(%54: f32):
      %55 = arith.constant 4.096000e+03 : f32
      %56 = arith.divf %54, %55 : f32
      linalg.yield %56 : f32
    }
    %loud_b = memref.get_global @cst_main_0 : memref<1xf32>
    %loud = memref.view %arena[%c1420304][] {cfmem.tensor = "loud"} : memref<1420337xi8> to memref<1xi8>
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%level, %loud_b : memref<1xf32>, memref<1xf32>) outs(%loud : memref<1xi8>) {
    ^bb0(%57: f32, %58: f32, %59: i8):
      %60 = arith.cmpf ogt, %57, %58 : f32
      %61 = arith.extui %60 : i1 to i8
      linalg.yield %61 : i8
    }
    %mask = memref.view %arena[%c1403904][] {cfmem.tensor = "mask", cfmem.reads = ["loud_mask", "noisy_mask", "heavy_mask", "medium_mask", "light_mask", "quiet_mask"]} : memref<1420337xi8> to memref<1x1x64x64xf32>
    %62 = memref.load %loud[%c0] : memref<1xi8>
    %63 = arith.trunci %62 : i8 to i1
    scf.if %63 {
      %low_snr_b = memref.get_global @cst_main_1 : memref<1xf32>
      %low_snr = memref.view %arena[%c1420320][] {cfmem.tensor = "low_snr"} : memref<1420337xi8> to memref<1xi8>
      linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%snr, %low_snr_b : memref<1xf32>, memref<1xf32>) outs(%low_snr : memref<1xi8>) {
      ^bb0(%64: f32, %65: f32, %66: i8):
        %67 = arith.cmpf olt, %64, %65 : f32
        %68 = arith.extui %67 : i1 to i8
        linalg.yield %68 : i8
      }
      %69 = memref.load %low_snr[%c0] : memref<1xi8>
      %70 = arith.trunci %69 : i8 to i1
      scf.if %70 {
        %very_loud_b = memref.get_global @cst_main_2 : memref<1xf32>
        %very_loud = memref.view %arena[%c1420336][] {cfmem.tensor = "very_loud"} : memref<1420337xi8> to memref<1xi8>
        linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%level, %very_loud_b : memref<1xf32>, memref<1xf32>) outs(%very_loud : memref<1xi8>) {
        ^bb0(%71: f32, %72: f32, %73: i8):
          %74 = arith.cmpf ogt, %71, %72 : f32
          %75 = arith.extui %74 : i1 to i8
          linalg.yield %75 : i8
        }
        %76 = memref.load %very_loud[%c0] : memref<1xi8>
        %77 = arith.trunci %76 : i8 to i1
        scf.if %77 {
          %dma0 = memref.view %arena[%c1347712][] {cfmem.tensor = "dma0"} : memref<1420337xi8> to memref<36992xi8>
          %dma1 = memref.view %arena[%c1310720][] {cfmem.tensor = "dma1"} : memref<1420337xi8> to memref<36992xi8>
          %78 = memref.view %weights[%c19200][] : memref<152064xi8> to memref<36864xi8>
          %79 = memref.view %dma0[%c0][] : memref<36992xi8> to memref<36864xi8>
          "memref.copy"(%78, %79) : (memref<36864xi8>, memref<36864xi8>) -> ()
          %80 = memref.view %weights[%c56064][] : memref<152064xi8> to memref<128xi8>
          %81 = memref.view %dma0[%c36864][] : memref<36992xi8> to memref<128xi8>
          "memref.copy"(%80, %81) : (memref<128xi8>, memref<128xi8>) -> ()
          %heavy1 = memref.view %arena[%c0][] {cfmem.tensor = "heavy1"} : memref<1420337xi8> to memref<1x32x64x64xf32>
          linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%heavy1_b_sram : memref<32xf32>) outs(%heavy1 : memref<1x32x64x64xf32>) {
          ^bb0(%82: f32, %83: f32):
            linalg.yield %82 : f32
          }
          linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%heavy1_w_sram : memref<32x16x3x3xf32>) outs(%heavy1 : memref<1x32x64x64xf32>) {
          ^bb0(%84: f32, %85: f32):
            %86 = linalg.index 0 : index
            %87 = linalg.index 1 : index
            %88 = linalg.index 2 : index
            %89 = linalg.index 3 : index
            %90 = linalg.index 4 : index
            %91 = linalg.index 5 : index
            %92 = linalg.index 6 : index
            %93 = arith.constant 1 : index
            %94 = arith.muli %88, %93 : index
            %95 = arith.constant 1 : index
            %96 = arith.muli %91, %95 : index
            %97 = arith.addi %94, %96 : index
            %98 = arith.constant 1 : index
            %99 = arith.muli %89, %98 : index
            %100 = arith.constant 1 : index
            %101 = arith.muli %92, %100 : index
            %102 = arith.addi %99, %101 : index
            %103 = arith.constant 0 : index
            %104 = arith.constant 1 : index
            %105 = arith.subi %97, %104 : index
            %106 = arith.cmpi sge, %105, %103 : index
            %107 = arith.constant 64 : index
            %108 = arith.cmpi slt, %105, %107 : index
            %109 = arith.andi %106, %108 : i1
            %110 = arith.maxsi %105, %103 : index
            %111 = arith.constant 63 : index
            %112 = arith.minsi %110, %111 : index
            %113 = arith.constant 1 : index
            %114 = arith.subi %102, %113 : index
            %115 = arith.cmpi sge, %114, %103 : index
            %116 = arith.constant 64 : index
            %117 = arith.cmpi slt, %114, %116 : index
            %118 = arith.andi %115, %117 : i1
            %119 = arith.andi %109, %118 : i1
            %120 = arith.maxsi %114, %103 : index
            %121 = arith.constant 63 : index
            %122 = arith.minsi %120, %121 : index
            %123 = memref.load %enc_out[%86, %90, %112, %122] : memref<1x16x64x64xf32>
            %124 = arith.constant 0.000000e+00 : f32
            %125 = arith.select %119, %123, %124 : f32
            %126 = arith.mulf %125, %84 : f32
            %127 = arith.addf %85, %126 : f32
            linalg.yield %127 : f32
          }
          %heavy1_out = memref.view %arena[%c0][] {cfmem.tensor = "heavy1_out"} : memref<1420337xi8> to memref<1x32x64x64xf32>
          linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%heavy1 : memref<1x32x64x64xf32>) outs(%heavy1_out : memref<1x32x64x64xf32>) {
          ^bb0(%128: f32, %129: f32):
            %130 = arith.constant 0.000000e+00 : f32
            %131 = arith.maximumf %128, %130 : f32
            linalg.yield %131 : f32
          }
          %heavy2_w_sram = memref.view %dma0[%c0][] {cfmem.tensor = "heavy2_w_sram"} : memref<36992xi8> to memref<32x32x3x3xf32>
          %heavy2_b_sram = memref.view %dma0[%c36864][] {cfmem.tensor = "heavy2_b_sram"} : memref<36992xi8> to memref<32xf32>
          %132 = memref.view %weights[%c56192][] : memref<152064xi8> to memref<36864xi8>
          %133 = memref.view %dma1[%c0][] : memref<36992xi8> to memref<36864xi8>
          "memref.copy"(%132, %133) : (memref<36864xi8>, memref<36864xi8>) -> ()
          %134 = memref.view %weights[%c93056][] : memref<152064xi8> to memref<128xi8>
          %135 = memref.view %dma1[%c36864][] : memref<36992xi8> to memref<128xi8>
          "memref.copy"(%134, %135) : (memref<128xi8>, memref<128xi8>) -> ()
          %heavy2 = memref.view %arena[%c524288][] {cfmem.tensor = "heavy2"} : memref<1420337xi8> to memref<1x32x64x64xf32>
          linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%heavy2_b_sram : memref<32xf32>) outs(%heavy2 : memref<1x32x64x64xf32>) {
          ^bb0(%136: f32, %137: f32):
            linalg.yield %136 : f32
          }
          linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%heavy2_w_sram : memref<32x32x3x3xf32>) outs(%heavy2 : memref<1x32x64x64xf32>) {
          ^bb0(%138: f32, %139: f32):
            %140 = linalg.index 0 : index
            %141 = linalg.index 1 : index
            %142 = linalg.index 2 : index
            %143 = linalg.index 3 : index
            %144 = linalg.index 4 : index
            %145 = linalg.index 5 : index
            %146 = linalg.index 6 : index
            %147 = arith.constant 1 : index
            %148 = arith.muli %142, %147 : index
            %149 = arith.constant 2 : index
            %150 = arith.muli %145, %149 : index
            %151 = arith.addi %148, %150 : index
            %152 = arith.constant 1 : index
            %153 = arith.muli %143, %152 : index
            %154 = arith.constant 2 : index
            %155 = arith.muli %146, %154 : index
            %156 = arith.addi %153, %155 : index
            %157 = arith.constant 0 : index
            %158 = arith.constant 2 : index
            %159 = arith.subi %151, %158 : index
            %160 = arith.cmpi sge, %159, %157 : index
            %161 = arith.constant 64 : index
            %162 = arith.cmpi slt, %159, %161 : index
            %163 = arith.andi %160, %162 : i1
            %164 = arith.maxsi %159, %157 : index
            %165 = arith.constant 63 : index
            %166 = arith.minsi %164, %165 : index
            %167 = arith.constant 2 : index
            %168 = arith.subi %156, %167 : index
            %169 = arith.cmpi sge, %168, %157 : index
            %170 = arith.constant 64 : index
            %171 = arith.cmpi slt, %168, %170 : index
            %172 = arith.andi %169, %171 : i1
            %173 = arith.andi %163, %172 : i1
            %174 = arith.maxsi %168, %157 : index
            %175 = arith.constant 63 : index
            %176 = arith.minsi %174, %175 : index
            %177 = memref.load %heavy1_out[%140, %144, %166, %176] : memref<1x32x64x64xf32>
            %178 = arith.constant 0.000000e+00 : f32
            %179 = arith.select %173, %177, %178 : f32
            %180 = arith.mulf %179, %138 : f32
            %181 = arith.addf %139, %180 : f32
            linalg.yield %181 : f32
          }
          %heavy2_out = memref.view %arena[%c524288][] {cfmem.tensor = "heavy2_out"} : memref<1420337xi8> to memref<1x32x64x64xf32>
          linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%heavy2 : memref<1x32x64x64xf32>) outs(%heavy2_out : memref<1x32x64x64xf32>) {
          ^bb0(%182: f32, %183: f32):
            %184 = arith.constant 0.000000e+00 : f32
            %185 = arith.maximumf %182, %184 : f32
            linalg.yield %185 : f32
          }
          %heavy3_w_sram = memref.view %dma1[%c0][] {cfmem.tensor = "heavy3_w_sram"} : memref<36992xi8> to memref<32x32x3x3xf32>
          %heavy3_b_sram = memref.view %dma1[%c36864][] {cfmem.tensor = "heavy3_b_sram"} : memref<36992xi8> to memref<32xf32>
          %186 = memref.view %weights[%c93184][] : memref<152064xi8> to memref<36864xi8>
          %187 = memref.view %dma0[%c0][] : memref<36992xi8> to memref<36864xi8>
          "memref.copy"(%186, %187) : (memref<36864xi8>, memref<36864xi8>) -> ()
          %188 = memref.view %weights[%c130048][] : memref<152064xi8> to memref<128xi8>
          %189 = memref.view %dma0[%c36864][] : memref<36992xi8> to memref<128xi8>
          "memref.copy"(%188, %189) : (memref<128xi8>, memref<128xi8>) -> ()
          %heavy3 = memref.view %arena[%c0][] {cfmem.tensor = "heavy3"} : memref<1420337xi8> to memref<1x32x64x64xf32>
          linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%heavy3_b_sram : memref<32xf32>) outs(%heavy3 : memref<1x32x64x64xf32>) {
          ^bb0(%190: f32, %191: f32):
            linalg.yield %190 : f32
          }
          linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%heavy3_w_sram : memref<32x32x3x3xf32>) outs(%heavy3 : memref<1x32x64x64xf32>) {
          ^bb0(%192: f32, %193: f32):
            %194 = linalg.index 0 : index
            %195 = linalg.index 1 : index
            %196 = linalg.index 2 : index
            %197 = linalg.index 3 : index
            %198 = linalg.index 4 : index
            %199 = linalg.index 5 : index
            %200 = linalg.index 6 : index
            %201 = arith.constant 1 : index
            %202 = arith.muli %196, %201 : index
            %203 = arith.constant 4 : index
            %204 = arith.muli %199, %203 : index
            %205 = arith.addi %202, %204 : index
            %206 = arith.constant 1 : index
            %207 = arith.muli %197, %206 : index
            %208 = arith.constant 4 : index
            %209 = arith.muli %200, %208 : index
            %210 = arith.addi %207, %209 : index
            %211 = arith.constant 0 : index
            %212 = arith.constant 4 : index
            %213 = arith.subi %205, %212 : index
            %214 = arith.cmpi sge, %213, %211 : index
            %215 = arith.constant 64 : index
            %216 = arith.cmpi slt, %213, %215 : index
            %217 = arith.andi %214, %216 : i1
            %218 = arith.maxsi %213, %211 : index
            %219 = arith.constant 63 : index
            %220 = arith.minsi %218, %219 : index
            %221 = arith.constant 4 : index
            %222 = arith.subi %210, %221 : index
            %223 = arith.cmpi sge, %222, %211 : index
            %224 = arith.constant 64 : index
            %225 = arith.cmpi slt, %222, %224 : index
            %226 = arith.andi %223, %225 : i1
            %227 = arith.andi %217, %226 : i1
            %228 = arith.maxsi %222, %211 : index
            %229 = arith.constant 63 : index
            %230 = arith.minsi %228, %229 : index
            %231 = memref.load %heavy2_out[%194, %198, %220, %230] : memref<1x32x64x64xf32>
            %232 = arith.constant 0.000000e+00 : f32
            %233 = arith.select %227, %231, %232 : f32
            %234 = arith.mulf %233, %192 : f32
            %235 = arith.addf %193, %234 : f32
            linalg.yield %235 : f32
          }
          %heavy3_out = memref.view %arena[%c0][] {cfmem.tensor = "heavy3_out"} : memref<1420337xi8> to memref<1x32x64x64xf32>
          linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%heavy3 : memref<1x32x64x64xf32>) outs(%heavy3_out : memref<1x32x64x64xf32>) {
          ^bb0(%236: f32, %237: f32):
            %238 = arith.constant 0.000000e+00 : f32
            %239 = arith.maximumf %236, %238 : f32
            linalg.yield %239 : f32
          }
          %heavy4_w_sram = memref.view %dma0[%c0][] {cfmem.tensor = "heavy4_w_sram"} : memref<36992xi8> to memref<32x32x3x3xf32>
          %heavy4_b_sram = memref.view %dma0[%c36864][] {cfmem.tensor = "heavy4_b_sram"} : memref<36992xi8> to memref<32xf32>
          %240 = memref.view %weights[%c130176][] : memref<152064xi8> to memref<1152xi8>
          %241 = memref.view %dma1[%c0][] : memref<36992xi8> to memref<1152xi8>
          "memref.copy"(%240, %241) : (memref<1152xi8>, memref<1152xi8>) -> ()
          %242 = memref.view %weights[%c131328][] : memref<152064xi8> to memref<4xi8>
          %243 = memref.view %dma1[%c1152][] : memref<36992xi8> to memref<4xi8>
          "memref.copy"(%242, %243) : (memref<4xi8>, memref<4xi8>) -> ()
          %heavy4 = memref.view %arena[%c524288][] {cfmem.tensor = "heavy4"} : memref<1420337xi8> to memref<1x32x64x64xf32>
          linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%heavy4_b_sram : memref<32xf32>) outs(%heavy4 : memref<1x32x64x64xf32>) {
          ^bb0(%244: f32, %245: f32):
            linalg.yield %244 : f32
          }
          linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%heavy4_w_sram : memref<32x32x3x3xf32>) outs(%heavy4 : memref<1x32x64x64xf32>) {
          ^bb0(%246: f32, %247: f32):
            %248 = linalg.index 0 : index
            %249 = linalg.index 1 : index
            %250 = linalg.index 2 : index
            %251 = linalg.index 3 : index
            %252 = linalg.index 4 : index
            %253 = linalg.index 5 : index
            %254 = linalg.index 6 : index
            %255 = arith.constant 1 : index
            %256 = arith.muli %250, %255 : index
            %257 = arith.constant 8 : index
            %258 = arith.muli %253, %257 : index
            %259 = arith.addi %256, %258 : index
            %260 = arith.constant 1 : index
            %261 = arith.muli %251, %260 : index
            %262 = arith.constant 8 : index
            %263 = arith.muli %254, %262 : index
            %264 = arith.addi %261, %263 : index
            %265 = arith.constant 0 : index
            %266 = arith.constant 8 : index
            %267 = arith.subi %259, %266 : index
            %268 = arith.cmpi sge, %267, %265 : index
            %269 = arith.constant 64 : index
            %270 = arith.cmpi slt, %267, %269 : index
            %271 = arith.andi %268, %270 : i1
            %272 = arith.maxsi %267, %265 : index
            %273 = arith.constant 63 : index
            %274 = arith.minsi %272, %273 : index
            %275 = arith.constant 8 : index
            %276 = arith.subi %264, %275 : index
            %277 = arith.cmpi sge, %276, %265 : index
            %278 = arith.constant 64 : index
            %279 = arith.cmpi slt, %276, %278 : index
            %280 = arith.andi %277, %279 : i1
            %281 = arith.andi %271, %280 : i1
            %282 = arith.maxsi %276, %265 : index
            %283 = arith.constant 63 : index
            %284 = arith.minsi %282, %283 : index
            %285 = memref.load %heavy3_out[%248, %252, %274, %284] : memref<1x32x64x64xf32>
            %286 = arith.constant 0.000000e+00 : f32
            %287 = arith.select %281, %285, %286 : f32
            %288 = arith.mulf %287, %246 : f32
            %289 = arith.addf %247, %288 : f32
            linalg.yield %289 : f32
          }
          %heavy4_out = memref.view %arena[%c524288][] {cfmem.tensor = "heavy4_out"} : memref<1420337xi8> to memref<1x32x64x64xf32>
          linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%heavy4 : memref<1x32x64x64xf32>) outs(%heavy4_out : memref<1x32x64x64xf32>) {
          ^bb0(%290: f32, %291: f32):
            %292 = arith.constant 0.000000e+00 : f32
            %293 = arith.maximumf %290, %292 : f32
            linalg.yield %293 : f32
          }
          %heavy_mask_w_sram = memref.view %dma1[%c0][] {cfmem.tensor = "heavy_mask_w_sram"} : memref<36992xi8> to memref<1x32x3x3xf32>
          %heavy_mask_b_sram = memref.view %dma1[%c1152][] {cfmem.tensor = "heavy_mask_b_sram"} : memref<36992xi8> to memref<1xf32>
          %heavy_mask = memref.view %arena[%c1403904][] {cfmem.tensor = "heavy_mask"} : memref<1420337xi8> to memref<1x1x64x64xf32>
          linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%heavy_mask_b_sram : memref<1xf32>) outs(%heavy_mask : memref<1x1x64x64xf32>) {
          ^bb0(%294: f32, %295: f32):
            linalg.yield %294 : f32
          }
          linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%heavy_mask_w_sram : memref<1x32x3x3xf32>) outs(%heavy_mask : memref<1x1x64x64xf32>) {
          ^bb0(%296: f32, %297: f32):
            %298 = linalg.index 0 : index
            %299 = linalg.index 1 : index
            %300 = linalg.index 2 : index
            %301 = linalg.index 3 : index
            %302 = linalg.index 4 : index
            %303 = linalg.index 5 : index
            %304 = linalg.index 6 : index
            %305 = arith.constant 1 : index
            %306 = arith.muli %300, %305 : index
            %307 = arith.constant 1 : index
            %308 = arith.muli %303, %307 : index
            %309 = arith.addi %306, %308 : index
            %310 = arith.constant 1 : index
            %311 = arith.muli %301, %310 : index
            %312 = arith.constant 1 : index
            %313 = arith.muli %304, %312 : index
            %314 = arith.addi %311, %313 : index
            %315 = arith.constant 0 : index
            %316 = arith.constant 1 : index
            %317 = arith.subi %309, %316 : index
            %318 = arith.cmpi sge, %317, %315 : index
            %319 = arith.constant 64 : index
            %320 = arith.cmpi slt, %317, %319 : index
            %321 = arith.andi %318, %320 : i1
            %322 = arith.maxsi %317, %315 : index
            %323 = arith.constant 63 : index
            %324 = arith.minsi %322, %323 : index
            %325 = arith.constant 1 : index
            %326 = arith.subi %314, %325 : index
            %327 = arith.cmpi sge, %326, %315 : index
            %328 = arith.constant 64 : index
            %329 = arith.cmpi slt, %326, %328 : index
            %330 = arith.andi %327, %329 : i1
            %331 = arith.andi %321, %330 : i1
            %332 = arith.maxsi %326, %315 : index
            %333 = arith.constant 63 : index
            %334 = arith.minsi %332, %333 : index
            %335 = memref.load %heavy4_out[%298, %302, %324, %334] : memref<1x32x64x64xf32>
            %336 = arith.constant 0.000000e+00 : f32
            %337 = arith.select %331, %335, %336 : f32
            %338 = arith.mulf %337, %296 : f32
            %339 = arith.addf %297, %338 : f32
            linalg.yield %339 : f32
          }
        } else {
          %dma0_1 = memref.view %arena[%c524288][] {cfmem.tensor = "dma0_1"} : memref<1420337xi8> to memref<9280xi8>
          %dma1_1 = memref.view %arena[%c533568][] {cfmem.tensor = "dma1_1"} : memref<1420337xi8> to memref<9280xi8>
          %340 = memref.view %weights[%c131392][] : memref<152064xi8> to memref<9216xi8>
          %341 = memref.view %dma0_1[%c0][] : memref<9280xi8> to memref<9216xi8>
          "memref.copy"(%340, %341) : (memref<9216xi8>, memref<9216xi8>) -> ()
          %342 = memref.view %weights[%c140608][] : memref<152064xi8> to memref<64xi8>
          %343 = memref.view %dma0_1[%c9216][] : memref<9280xi8> to memref<64xi8>
          "memref.copy"(%342, %343) : (memref<64xi8>, memref<64xi8>) -> ()
          %medium1_w_sram = memref.view %dma0_1[%c0][] {cfmem.tensor = "medium1_w_sram"} : memref<9280xi8> to memref<16x16x3x3xf32>
          %medium1_b_sram = memref.view %dma0_1[%c9216][] {cfmem.tensor = "medium1_b_sram"} : memref<9280xi8> to memref<16xf32>
          %344 = memref.view %weights[%c140672][] : memref<152064xi8> to memref<9216xi8>
          %345 = memref.view %dma1_1[%c0][] : memref<9280xi8> to memref<9216xi8>
          "memref.copy"(%344, %345) : (memref<9216xi8>, memref<9216xi8>) -> ()
          %346 = memref.view %weights[%c149888][] : memref<152064xi8> to memref<64xi8>
          %347 = memref.view %dma1_1[%c9216][] : memref<9280xi8> to memref<64xi8>
          "memref.copy"(%346, %347) : (memref<64xi8>, memref<64xi8>) -> ()
          %medium1 = memref.view %arena[%c0][] {cfmem.tensor = "medium1"} : memref<1420337xi8> to memref<1x16x64x64xf32>
          linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%medium1_b_sram : memref<16xf32>) outs(%medium1 : memref<1x16x64x64xf32>) {
          ^bb0(%348: f32, %349: f32):
            linalg.yield %348 : f32
          }
          linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%medium1_w_sram : memref<16x16x3x3xf32>) outs(%medium1 : memref<1x16x64x64xf32>) {
          ^bb0(%350: f32, %351: f32):
            %352 = linalg.index 0 : index
            %353 = linalg.index 1 : index
            %354 = linalg.index 2 : index
            %355 = linalg.index 3 : index
            %356 = linalg.index 4 : index
            %357 = linalg.index 5 : index
            %358 = linalg.index 6 : index
            %359 = arith.constant 1 : index
            %360 = arith.muli %354, %359 : index
            %361 = arith.constant 2 : index
            %362 = arith.muli %357, %361 : index
            %363 = arith.addi %360, %362 : index
            %364 = arith.constant 1 : index
            %365 = arith.muli %355, %364 : index
            %366 = arith.constant 2 : index
            %367 = arith.muli %358, %366 : index
            %368 = arith.addi %365, %367 : index
            %369 = arith.constant 0 : index
            %370 = arith.constant 2 : index
            %371 = arith.subi %363, %370 : index
            %372 = arith.cmpi sge, %371, %369 : index
            %373 = arith.constant 64 : index
            %374 = arith.cmpi slt, %371, %373 : index
            %375 = arith.andi %372, %374 : i1
            %376 = arith.maxsi %371, %369 : index
            %377 = arith.constant 63 : index
            %378 = arith.minsi %376, %377 : index
            %379 = arith.constant 2 : index
            %380 = arith.subi %368, %379 : index
            %381 = arith.cmpi sge, %380, %369 : index
            %382 = arith.constant 64 : index
            %383 = arith.cmpi slt, %380, %382 : index
            %384 = arith.andi %381, %383 : i1
            %385 = arith.andi %375, %384 : i1
            %386 = arith.maxsi %380, %369 : index
            %387 = arith.constant 63 : index
            %388 = arith.minsi %386, %387 : index
            %389 = memref.load %enc_out[%352, %356, %378, %388] : memref<1x16x64x64xf32>
            %390 = arith.constant 0.000000e+00 : f32
            %391 = arith.select %385, %389, %390 : f32
            %392 = arith.mulf %391, %350 : f32
            %393 = arith.addf %351, %392 : f32
            linalg.yield %393 : f32
          }
          %medium1_out = memref.view %arena[%c0][] {cfmem.tensor = "medium1_out"} : memref<1420337xi8> to memref<1x16x64x64xf32>
          linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%medium1 : memref<1x16x64x64xf32>) outs(%medium1_out : memref<1x16x64x64xf32>) {
          ^bb0(%394: f32, %395: f32):
            %396 = arith.constant 0.000000e+00 : f32
            %397 = arith.maximumf %394, %396 : f32
            linalg.yield %397 : f32
          }
          %medium2_w_sram = memref.view %dma1_1[%c0][] {cfmem.tensor = "medium2_w_sram"} : memref<9280xi8> to memref<16x16x3x3xf32>
          %medium2_b_sram = memref.view %dma1_1[%c9216][] {cfmem.tensor = "medium2_b_sram"} : memref<9280xi8> to memref<16xf32>
          %398 = memref.view %weights[%c149952][] : memref<152064xi8> to memref<576xi8>
          %399 = memref.view %dma0_1[%c0][] : memref<9280xi8> to memref<576xi8>
          "memref.copy"(%398, %399) : (memref<576xi8>, memref<576xi8>) -> ()
          %400 = memref.view %weights[%c150528][] : memref<152064xi8> to memref<4xi8>
          %401 = memref.view %dma0_1[%c576][] : memref<9280xi8> to memref<4xi8>
          "memref.copy"(%400, %401) : (memref<4xi8>, memref<4xi8>) -> ()
          %medium2 = memref.view %arena[%c262144][] {cfmem.tensor = "medium2"} : memref<1420337xi8> to memref<1x16x64x64xf32>
          linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%medium2_b_sram : memref<16xf32>) outs(%medium2 : memref<1x16x64x64xf32>) {
          ^bb0(%402: f32, %403: f32):
            linalg.yield %402 : f32
          }
          linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%medium2_w_sram : memref<16x16x3x3xf32>) outs(%medium2 : memref<1x16x64x64xf32>) {
          ^bb0(%404: f32, %405: f32):
            %406 = linalg.index 0 : index
            %407 = linalg.index 1 : index
            %408 = linalg.index 2 : index
            %409 = linalg.index 3 : index
            %410 = linalg.index 4 : index
            %411 = linalg.index 5 : index
            %412 = linalg.index 6 : index
            %413 = arith.constant 1 : index
            %414 = arith.muli %408, %413 : index
            %415 = arith.constant 4 : index
            %416 = arith.muli %411, %415 : index
            %417 = arith.addi %414, %416 : index
            %418 = arith.constant 1 : index
            %419 = arith.muli %409, %418 : index
            %420 = arith.constant 4 : index
            %421 = arith.muli %412, %420 : index
            %422 = arith.addi %419, %421 : index
            %423 = arith.constant 0 : index
            %424 = arith.constant 4 : index
            %425 = arith.subi %417, %424 : index
            %426 = arith.cmpi sge, %425, %423 : index
            %427 = arith.constant 64 : index
            %428 = arith.cmpi slt, %425, %427 : index
            %429 = arith.andi %426, %428 : i1
            %430 = arith.maxsi %425, %423 : index
            %431 = arith.constant 63 : index
            %432 = arith.minsi %430, %431 : index
            %433 = arith.constant 4 : index
            %434 = arith.subi %422, %433 : index
            %435 = arith.cmpi sge, %434, %423 : index
            %436 = arith.constant 64 : index
            %437 = arith.cmpi slt, %434, %436 : index
            %438 = arith.andi %435, %437 : i1
            %439 = arith.andi %429, %438 : i1
            %440 = arith.maxsi %434, %423 : index
            %441 = arith.constant 63 : index
            %442 = arith.minsi %440, %441 : index
            %443 = memref.load %medium1_out[%406, %410, %432, %442] : memref<1x16x64x64xf32>
            %444 = arith.constant 0.000000e+00 : f32
            %445 = arith.select %439, %443, %444 : f32
            %446 = arith.mulf %445, %404 : f32
            %447 = arith.addf %405, %446 : f32
            linalg.yield %447 : f32
          }
          %medium2_out = memref.view %arena[%c262144][] {cfmem.tensor = "medium2_out"} : memref<1420337xi8> to memref<1x16x64x64xf32>
          linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%medium2 : memref<1x16x64x64xf32>) outs(%medium2_out : memref<1x16x64x64xf32>) {
          ^bb0(%448: f32, %449: f32):
            %450 = arith.constant 0.000000e+00 : f32
            %451 = arith.maximumf %448, %450 : f32
            linalg.yield %451 : f32
          }
          %medium_mask_w_sram = memref.view %dma0_1[%c0][] {cfmem.tensor = "medium_mask_w_sram"} : memref<9280xi8> to memref<1x16x3x3xf32>
          %medium_mask_b_sram = memref.view %dma0_1[%c576][] {cfmem.tensor = "medium_mask_b_sram"} : memref<9280xi8> to memref<1xf32>
          %medium_mask = memref.view %arena[%c1403904][] {cfmem.tensor = "medium_mask"} : memref<1420337xi8> to memref<1x1x64x64xf32>
          linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%medium_mask_b_sram : memref<1xf32>) outs(%medium_mask : memref<1x1x64x64xf32>) {
          ^bb0(%452: f32, %453: f32):
            linalg.yield %452 : f32
          }
          linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%medium_mask_w_sram : memref<1x16x3x3xf32>) outs(%medium_mask : memref<1x1x64x64xf32>) {
          ^bb0(%454: f32, %455: f32):
            %456 = linalg.index 0 : index
            %457 = linalg.index 1 : index
            %458 = linalg.index 2 : index
            %459 = linalg.index 3 : index
            %460 = linalg.index 4 : index
            %461 = linalg.index 5 : index
            %462 = linalg.index 6 : index
            %463 = arith.constant 1 : index
            %464 = arith.muli %458, %463 : index
            %465 = arith.constant 1 : index
            %466 = arith.muli %461, %465 : index
            %467 = arith.addi %464, %466 : index
            %468 = arith.constant 1 : index
            %469 = arith.muli %459, %468 : index
            %470 = arith.constant 1 : index
            %471 = arith.muli %462, %470 : index
            %472 = arith.addi %469, %471 : index
            %473 = arith.constant 0 : index
            %474 = arith.constant 1 : index
            %475 = arith.subi %467, %474 : index
            %476 = arith.cmpi sge, %475, %473 : index
            %477 = arith.constant 64 : index
            %478 = arith.cmpi slt, %475, %477 : index
            %479 = arith.andi %476, %478 : i1
            %480 = arith.maxsi %475, %473 : index
            %481 = arith.constant 63 : index
            %482 = arith.minsi %480, %481 : index
            %483 = arith.constant 1 : index
            %484 = arith.subi %472, %483 : index
            %485 = arith.cmpi sge, %484, %473 : index
            %486 = arith.constant 64 : index
            %487 = arith.cmpi slt, %484, %486 : index
            %488 = arith.andi %485, %487 : i1
            %489 = arith.andi %479, %488 : i1
            %490 = arith.maxsi %484, %473 : index
            %491 = arith.constant 63 : index
            %492 = arith.minsi %490, %491 : index
            %493 = memref.load %medium2_out[%456, %460, %482, %492] : memref<1x16x64x64xf32>
            %494 = arith.constant 0.000000e+00 : f32
            %495 = arith.select %489, %493, %494 : f32
            %496 = arith.mulf %495, %454 : f32
            %497 = arith.addf %455, %496 : f32
            linalg.yield %497 : f32
          }
        }
      } else {
        %dma0_2 = memref.view %arena[%c393216][] {cfmem.tensor = "dma0_2"} : memref<1420337xi8> to memref<640xi8>
        %dma1_2 = memref.view %arena[%c393856][] {cfmem.tensor = "dma1_2"} : memref<1420337xi8> to memref<576xi8>
        %498 = memref.view %weights[%c150592][] : memref<152064xi8> to memref<576xi8>
        %499 = memref.view %dma0_2[%c0][] : memref<640xi8> to memref<576xi8>
        "memref.copy"(%498, %499) : (memref<576xi8>, memref<576xi8>) -> ()
        %500 = memref.view %weights[%c151168][] : memref<152064xi8> to memref<64xi8>
        %501 = memref.view %dma0_2[%c576][] : memref<640xi8> to memref<64xi8>
        "memref.copy"(%500, %501) : (memref<64xi8>, memref<64xi8>) -> ()
        %light_dw_w_sram = memref.view %dma0_2[%c0][] {cfmem.tensor = "light_dw_w_sram"} : memref<640xi8> to memref<16x1x3x3xf32>
        %light_dw_b_sram = memref.view %dma0_2[%c576][] {cfmem.tensor = "light_dw_b_sram"} : memref<640xi8> to memref<16xf32>
        %502 = memref.view %weights[%c151232][] : memref<152064xi8> to memref<512xi8>
        %503 = memref.view %dma1_2[%c0][] : memref<576xi8> to memref<512xi8>
        "memref.copy"(%502, %503) : (memref<512xi8>, memref<512xi8>) -> ()
        %504 = memref.view %weights[%c151744][] : memref<152064xi8> to memref<32xi8>
        %505 = memref.view %dma1_2[%c512][] : memref<576xi8> to memref<32xi8>
        "memref.copy"(%504, %505) : (memref<32xi8>, memref<32xi8>) -> ()
        %light_dw = memref.view %arena[%c0][] {cfmem.tensor = "light_dw"} : memref<1420337xi8> to memref<1x16x64x64xf32>
        linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%light_dw_b_sram : memref<16xf32>) outs(%light_dw : memref<1x16x64x64xf32>) {
        ^bb0(%506: f32, %507: f32):
          linalg.yield %506 : f32
        }
        linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%light_dw_w_sram : memref<16x1x3x3xf32>) outs(%light_dw : memref<1x16x64x64xf32>) {
        ^bb0(%508: f32, %509: f32):
          %510 = linalg.index 0 : index
          %511 = linalg.index 1 : index
          %512 = linalg.index 2 : index
          %513 = linalg.index 3 : index
          %514 = linalg.index 4 : index
          %515 = linalg.index 5 : index
          %516 = linalg.index 6 : index
          %517 = arith.constant 1 : index
          %518 = arith.muli %511, %517 : index
          %519 = arith.addi %518, %514 : index
          %520 = arith.constant 1 : index
          %521 = arith.muli %512, %520 : index
          %522 = arith.constant 1 : index
          %523 = arith.muli %515, %522 : index
          %524 = arith.addi %521, %523 : index
          %525 = arith.constant 1 : index
          %526 = arith.muli %513, %525 : index
          %527 = arith.constant 1 : index
          %528 = arith.muli %516, %527 : index
          %529 = arith.addi %526, %528 : index
          %530 = arith.constant 0 : index
          %531 = arith.constant 1 : index
          %532 = arith.subi %524, %531 : index
          %533 = arith.cmpi sge, %532, %530 : index
          %534 = arith.constant 64 : index
          %535 = arith.cmpi slt, %532, %534 : index
          %536 = arith.andi %533, %535 : i1
          %537 = arith.maxsi %532, %530 : index
          %538 = arith.constant 63 : index
          %539 = arith.minsi %537, %538 : index
          %540 = arith.constant 1 : index
          %541 = arith.subi %529, %540 : index
          %542 = arith.cmpi sge, %541, %530 : index
          %543 = arith.constant 64 : index
          %544 = arith.cmpi slt, %541, %543 : index
          %545 = arith.andi %542, %544 : i1
          %546 = arith.andi %536, %545 : i1
          %547 = arith.maxsi %541, %530 : index
          %548 = arith.constant 63 : index
          %549 = arith.minsi %547, %548 : index
          %550 = memref.load %enc_out[%510, %519, %539, %549] : memref<1x16x64x64xf32>
          %551 = arith.constant 0.000000e+00 : f32
          %552 = arith.select %546, %550, %551 : f32
          %553 = arith.mulf %552, %508 : f32
          %554 = arith.addf %509, %553 : f32
          linalg.yield %554 : f32
        }
        %light_dwr = memref.view %arena[%c0][] {cfmem.tensor = "light_dwr"} : memref<1420337xi8> to memref<1x16x64x64xf32>
        linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%light_dw : memref<1x16x64x64xf32>) outs(%light_dwr : memref<1x16x64x64xf32>) {
        ^bb0(%555: f32, %556: f32):
          %557 = arith.constant 0.000000e+00 : f32
          %558 = arith.maximumf %555, %557 : f32
          linalg.yield %558 : f32
        }
        %light_pw_w_sram = memref.view %dma1_2[%c0][] {cfmem.tensor = "light_pw_w_sram"} : memref<576xi8> to memref<8x16x1x1xf32>
        %light_pw_b_sram = memref.view %dma1_2[%c512][] {cfmem.tensor = "light_pw_b_sram"} : memref<576xi8> to memref<8xf32>
        %559 = memref.view %weights[%c151808][] : memref<152064xi8> to memref<32xi8>
        %560 = memref.view %dma0_2[%c0][] : memref<640xi8> to memref<32xi8>
        "memref.copy"(%559, %560) : (memref<32xi8>, memref<32xi8>) -> ()
        %561 = memref.view %weights[%c151872][] : memref<152064xi8> to memref<4xi8>
        %562 = memref.view %dma0_2[%c64][] : memref<640xi8> to memref<4xi8>
        "memref.copy"(%561, %562) : (memref<4xi8>, memref<4xi8>) -> ()
        %light_pw = memref.view %arena[%c262144][] {cfmem.tensor = "light_pw"} : memref<1420337xi8> to memref<1x8x64x64xf32>
        linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%light_pw_b_sram : memref<8xf32>) outs(%light_pw : memref<1x8x64x64xf32>) {
        ^bb0(%563: f32, %564: f32):
          linalg.yield %563 : f32
        }
        linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, (d2 + d5), (d3 + d6))>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%light_dwr, %light_pw_w_sram : memref<1x16x64x64xf32>, memref<8x16x1x1xf32>) outs(%light_pw : memref<1x8x64x64xf32>) {
        ^bb0(%565: f32, %566: f32, %567: f32):
          %568 = arith.mulf %565, %566 : f32
          %569 = arith.addf %567, %568 : f32
          linalg.yield %569 : f32
        }
        %light_out = memref.view %arena[%c262144][] {cfmem.tensor = "light_out"} : memref<1420337xi8> to memref<1x8x64x64xf32>
        linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%light_pw : memref<1x8x64x64xf32>) outs(%light_out : memref<1x8x64x64xf32>) {
        ^bb0(%570: f32, %571: f32):
          %572 = arith.constant 0.000000e+00 : f32
          %573 = arith.maximumf %570, %572 : f32
          linalg.yield %573 : f32
        }
        %light_mask_w_sram = memref.view %dma0_2[%c0][] {cfmem.tensor = "light_mask_w_sram"} : memref<640xi8> to memref<1x8x1x1xf32>
        %light_mask_b_sram = memref.view %dma0_2[%c64][] {cfmem.tensor = "light_mask_b_sram"} : memref<640xi8> to memref<1xf32>
        %light_mask = memref.view %arena[%c1403904][] {cfmem.tensor = "light_mask"} : memref<1420337xi8> to memref<1x1x64x64xf32>
        linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%light_mask_b_sram : memref<1xf32>) outs(%light_mask : memref<1x1x64x64xf32>) {
        ^bb0(%574: f32, %575: f32):
          linalg.yield %574 : f32
        }
        linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, (d2 + d5), (d3 + d6))>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%light_out, %light_mask_w_sram : memref<1x8x64x64xf32>, memref<1x8x1x1xf32>) outs(%light_mask : memref<1x1x64x64xf32>) {
        ^bb0(%576: f32, %577: f32, %578: f32):
          %579 = arith.mulf %576, %577 : f32
          %580 = arith.addf %578, %579 : f32
          linalg.yield %580 : f32
        }
      }
    } else {
      %dma0_3 = memref.view %arena[%c0][] {cfmem.tensor = "dma0_3"} : memref<1420337xi8> to memref<128xi8>
      %581 = memref.view %weights[%c151936][] : memref<152064xi8> to memref<64xi8>
      %582 = memref.view %dma0_3[%c0][] : memref<128xi8> to memref<64xi8>
      "memref.copy"(%581, %582) : (memref<64xi8>, memref<64xi8>) -> ()
      %583 = memref.view %weights[%c152000][] : memref<152064xi8> to memref<4xi8>
      %584 = memref.view %dma0_3[%c64][] : memref<128xi8> to memref<4xi8>
      "memref.copy"(%583, %584) : (memref<4xi8>, memref<4xi8>) -> ()
      %quiet_mask_w_sram = memref.view %dma0_3[%c0][] {cfmem.tensor = "quiet_mask_w_sram"} : memref<128xi8> to memref<1x16x1x1xf32>
      %quiet_mask_b_sram = memref.view %dma0_3[%c64][] {cfmem.tensor = "quiet_mask_b_sram"} : memref<128xi8> to memref<1xf32>
      %quiet_mask = memref.view %arena[%c1403904][] {cfmem.tensor = "quiet_mask"} : memref<1420337xi8> to memref<1x1x64x64xf32>
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%quiet_mask_b_sram : memref<1xf32>) outs(%quiet_mask : memref<1x1x64x64xf32>) {
      ^bb0(%585: f32, %586: f32):
        linalg.yield %585 : f32
      }
      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, (d2 + d5), (d3 + d6))>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%enc_out, %quiet_mask_w_sram : memref<1x16x64x64xf32>, memref<1x16x1x1xf32>) outs(%quiet_mask : memref<1x1x64x64xf32>) {
      ^bb0(%587: f32, %588: f32, %589: f32):
        %590 = arith.mulf %587, %588 : f32
        %591 = arith.addf %589, %590 : f32
        linalg.yield %591 : f32
      }
    }
    %gate = memref.view %arena[%c1403904][] {cfmem.tensor = "gate"} : memref<1420337xi8> to memref<1x1x64x64xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%mask : memref<1x1x64x64xf32>) outs(%gate : memref<1x1x64x64xf32>) {
    ^bb0(%592: f32, %593: f32):
      %594 = arith.constant 1.000000e+00 : f32
      %595 = arith.negf %592 : f32
      %596 = math.exp %595 : f32
      %597 = arith.addf %594, %596 : f32
      %598 = arith.divf %594, %597 : f32
      linalg.yield %598 : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%spec, %gate : memref<1x1x64x64xf32>, memref<1x1x64x64xf32>) outs(%out_clean : memref<1x1x64x64xf32>) {
    ^bb0(%599: f32, %600: f32, %601: f32):
      %602 = arith.mulf %599, %600 : f32
      linalg.yield %602 : f32
    }
    func.return
  }
  func.func @load_resident_main() attributes {cfmem.init_of = "main", llvm.emit_c_interface} {
    %0 = memref.get_global @arena_main : memref<1420337xi8>
    %1 = arith.constant 1384704 : index
    %2 = memref.view %0[%1][] : memref<1420337xi8> to memref<19200xi8>
    %3 = memref.get_global @weights : memref<152064xi8>
    %4 = arith.constant 0 : index
    %5 = arith.constant 576 : index
    %6 = memref.view %3[%4][] : memref<152064xi8> to memref<576xi8>
    %7 = memref.view %2[%4][] : memref<19200xi8> to memref<576xi8>
    "memref.copy"(%6, %7) : (memref<576xi8>, memref<576xi8>) -> ()
    %8 = memref.get_global @weights : memref<152064xi8>
    %9 = arith.constant 64 : index
    %10 = arith.constant 1 : index
    %11 = memref.view %8[%5][] : memref<152064xi8> to memref<64xi8>
    %12 = memref.view %2[%5][] : memref<19200xi8> to memref<64xi8>
    "memref.copy"(%11, %12) : (memref<64xi8>, memref<64xi8>) -> ()
    %13 = memref.get_global @weights : memref<152064xi8>
    %14 = arith.constant 640 : index
    %15 = arith.constant 18432 : index
    %16 = arith.constant 2 : index
    %17 = memref.view %13[%14][] : memref<152064xi8> to memref<18432xi8>
    %18 = memref.view %2[%14][] : memref<19200xi8> to memref<18432xi8>
    "memref.copy"(%17, %18) : (memref<18432xi8>, memref<18432xi8>) -> ()
    %19 = memref.get_global @weights : memref<152064xi8>
    %20 = arith.constant 19072 : index
    %21 = arith.constant 128 : index
    %22 = arith.constant 3 : index
    %23 = memref.view %19[%20][] : memref<152064xi8> to memref<128xi8>
    %24 = memref.view %2[%20][] : memref<19200xi8> to memref<128xi8>
    "memref.copy"(%23, %24) : (memref<128xi8>, memref<128xi8>) -> ()
    func.return
  }
}