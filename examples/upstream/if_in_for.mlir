// cfmem.testing.upstream_programs' if_in_for program (an scf.if chosen per iteration of an scf.for),
// bufferized by upstream MLIR 22 (upstream_programs.BUFFERIZE) and printed in the generic form.
// Plan it with: cfmem opt examples/upstream/if_in_for.mlir -p 'memref-plan-arena{align=64}'
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
"builtin.module"() ({
  "func.func"() <{function_type = (memref<4x8xf32>, memref<8x8xf32>, memref<4x8xf32>, memref<8xf32>, memref<1xi32>, memref<4x8xf32>) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: memref<4x8xf32>, %arg1: memref<8x8xf32>, %arg2: memref<4x8xf32>, %arg3: memref<8xf32>, %arg4: memref<1xi32>, %arg5: memref<4x8xf32>):
    %0 = "arith.constant"() <{value = true}> : () -> i1
    %1 = "arith.constant"() <{value = false}> : () -> i1
    %2 = "arith.constant"() <{value = 0.000000e+00 : f32}> : () -> f32
    %3 = "arith.constant"() <{value = 0 : index}> : () -> index
    %4 = "arith.constant"() <{value = 1 : index}> : () -> index
    %5 = "memref.load"(%arg4, %3) <{nontemporal = false}> : (memref<1xi32>, index) -> i32
    %6 = "arith.index_cast"(%5) : (i32) -> index
    %7:2 = "scf.for"(%3, %6, %4, %arg0, %1) ({
    ^bb0(%arg6: index, %arg7: memref<4x8xf32>, %arg8: i1):
      %9 = "memref.load"(%arg3, %arg6) <{nontemporal = false}> : (memref<8xf32>, index) -> f32
      %10 = "arith.cmpf"(%9, %2) <{fastmath = #arith.fastmath<none>, predicate = 2 : i64}> : (f32, f32) -> i1
      %11 = "scf.if"(%10) ({
        %21 = "memref.alloc"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4x8xf32>
        "linalg.fill"(%2, %21) <{operandSegmentSizes = array<i32: 1, 1>}> ({
        ^bb0(%arg21: f32, %arg22: f32):
          "linalg.yield"(%arg21) : (f32) -> ()
        }) : (f32, memref<4x8xf32>) -> ()
        "linalg.matmul"(%arg7, %arg1, %21) <{indexing_maps = [#map, #map1, #map2], operandSegmentSizes = array<i32: 2, 1>}> ({
        ^bb0(%arg18: f32, %arg19: f32, %arg20: f32):
          %24 = "arith.mulf"(%arg18, %arg19) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
          %25 = "arith.addf"(%arg20, %24) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
          "linalg.yield"(%25) : (f32) -> ()
        }) : (memref<4x8xf32>, memref<8x8xf32>, memref<4x8xf32>) -> ()
        %22 = "memref.alloc"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4x8xf32>
        "linalg.generic"(%21, %arg2, %22) <{indexing_maps = [#map3, #map3, #map3], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 2, 1>}> ({
        ^bb0(%arg15: f32, %arg16: f32, %arg17: f32):
          %23 = "arith.addf"(%arg15, %arg16) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
          "linalg.yield"(%23) : (f32) -> ()
        }) : (memref<4x8xf32>, memref<4x8xf32>, memref<4x8xf32>) -> ()
        "memref.dealloc"(%21) : (memref<4x8xf32>) -> ()
        "scf.yield"(%22) : (memref<4x8xf32>) -> ()
      }, {
        %17 = "memref.alloc"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4x8xf32>
        "linalg.generic"(%arg7, %arg2, %17) <{indexing_maps = [#map3, #map3, #map3], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 2, 1>}> ({
        ^bb0(%arg12: f32, %arg13: f32, %arg14: f32):
          %20 = "arith.mulf"(%arg12, %arg13) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
          "linalg.yield"(%20) : (f32) -> ()
        }) : (memref<4x8xf32>, memref<4x8xf32>, memref<4x8xf32>) -> ()
        %18 = "memref.alloc"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4x8xf32>
        "linalg.generic"(%17, %arg2, %18) <{indexing_maps = [#map3, #map3, #map3], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 2, 1>}> ({
        ^bb0(%arg9: f32, %arg10: f32, %arg11: f32):
          %19 = "arith.subf"(%arg9, %arg10) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
          "linalg.yield"(%19) : (f32) -> ()
        }) : (memref<4x8xf32>, memref<4x8xf32>, memref<4x8xf32>) -> ()
        "memref.dealloc"(%17) : (memref<4x8xf32>) -> ()
        "scf.yield"(%18) : (memref<4x8xf32>) -> ()
      }) : (i1) -> memref<4x8xf32>
      %12:6 = "memref.extract_strided_metadata"(%arg7) : (memref<4x8xf32>) -> (memref<f32>, index, index, index, index, index)
      %13 = "memref.extract_aligned_pointer_as_index"(%12#0) : (memref<f32>) -> index
      %14 = "memref.extract_aligned_pointer_as_index"(%11) : (memref<4x8xf32>) -> index
      %15 = "arith.cmpi"(%13, %14) <{predicate = 1 : i64}> : (index, index) -> i1
      %16 = "arith.andi"(%15, %arg8) : (i1, i1) -> i1
      "scf.if"(%16) ({
        "memref.dealloc"(%12#0) : (memref<f32>) -> ()
        "scf.yield"() : () -> ()
      }, {
      }) : (i1) -> ()
      "scf.yield"(%11, %0) : (memref<4x8xf32>, i1) -> ()
    }) : (index, index, index, memref<4x8xf32>, i1) -> (memref<4x8xf32>, i1)
    "memref.copy"(%7#0, %arg5) : (memref<4x8xf32>, memref<4x8xf32>) -> ()
    %8:6 = "memref.extract_strided_metadata"(%7#0) : (memref<4x8xf32>) -> (memref<f32>, index, index, index, index, index)
    "scf.if"(%7#1) ({
      "memref.dealloc"(%8#0) : (memref<f32>) -> ()
      "scf.yield"() : () -> ()
    }, {
    }) : (i1) -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
