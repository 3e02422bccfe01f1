"""nn-lower-to-memref in detail: resident weights load once, in a function of their own
(``@load_resident_<fn>``) that copies each weight from its blob to its planned arena bytes;
every planned tensor is a view at its planned offset (on chip, or in the off-chip arena), aliases
(in place, slices, reshapes, concat parts) copy nothing and only a concat's other inputs are
copied into their parts; a plan taken as it is (``check_plan=False``) is lowered as it says,
so that the flat interpreter can catch it; every lowered form computes the reference's numbers."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    IntegerAttr,
    MemRefType,
    NoneAttr,
    StringAttr,
    TensorType,
    UnitAttr,
    f32,
    i8,
    i64,
)
from xdsl.utils.exceptions import PassFailedException

from cfmem.dialects.nn_dma import DmaStartOp
from cfmem.dialects.nn_memref import ApplyOp
from cfmem.interp.flat import ClobberError, run_flat
from cfmem.interp.golden import run_function
from cfmem.ir_io import parse_module
from cfmem.passes.failures import OpFailure
from cfmem.passes.lower_to_memref import ON_CHIP, TENSOR_ATTR, lower_module, memref_of
from cfmem.passes.placement import RESIDENT_ATTR, WEIGHTS_ATTR, set_offchip
from cfmem.passes.plan_memory import OFFCHIP_OFFSETS_ATTR, OFFSETS_ATTR, planned_offset
from cfmem.pipeline import apply_pipeline
from test_loops import RECURRENT  # a loop body of a gemm (weight and bias) and a matmul


def _planned(text: str, strategy: str):
    module, _ = parse_module(text)
    for op in module.walk():
        if op.name in ("nn.gemm", "nn.matmul"):
            op.attributes[WEIGHTS_ATTR] = StringAttr("resident")
    apply_pipeline(module, f"nn-insert-dma,nn-plan-memory{{strategy={strategy}}}")
    return module


def _index(value) -> int:
    owner = value.owner
    assert isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr)
    return owner.value.value.data


def _function(module, name: str) -> func.FuncOp:
    return next(op for op in module.ops if isinstance(op, func.FuncOp) and op.sym_name.data == name)


@pytest.mark.parametrize("strategy", ["sequential", "large-first"])
def test_resident_weights_are_copied_once_from_their_blob_to_their_planned_bytes(strategy):
    text = RECURRENT
    planned = _planned(text, strategy)
    load = next(op for op in planned.walk() if isinstance(op, DmaStartOp) and RESIDENT_ATTR in op.attributes)
    base = planned_offset(load.buffer)
    assert base is not None
    want = [
        (source.owner.offset.value.data, slot, source.owner.length.value.data, k)
        for k, (source, slot) in enumerate(zip(load.sources, load.byte_offsets))
    ]
    wait = next(use.operation for use in load.token.uses)
    names = [r.name_hint for r in wait.results]
    lowered = planned.clone()
    apply_pipeline(lowered, "nn-lower-to-memref")
    main = _function(lowered, "main")
    init = _function(lowered, "load_resident_main")
    assert main.attributes["cfmem.init"] == StringAttr("load_resident_main")
    assert init.attributes["cfmem.init_of"] == StringAttr("main")
    assert not init.function_type.inputs.data and not init.function_type.outputs.data
    ops = list(init.body.block.ops)
    starts = [op for op in ops if isinstance(op, memref.DmaStartOp)]
    waits = [op for op in ops if isinstance(op, memref.DmaWaitOp)]
    got = [
        (_index(s.src_indices[0]), _index(s.dest_indices[0]), _index(s.num_elements), _index(s.tag_indices[0]))
        for s in starts
    ]
    assert got == want
    assert [s.attributes["cfmem.tensor"] for s in starts] == [StringAttr(n) for n in names]
    for s in starts:
        assert isinstance(s.src.owner, memref.GetGlobalOp) and s.src.owner.name_.string_value() == "weights"
        view = s.dest.owner
        assert isinstance(view, memref.ViewOp) and _index(view.byte_shift) == base
        assert view.source.owner.name_.string_value() == "arena_main"
        assert s.tag is starts[0].tag and s.tag.type.get_shape() == (len(want),)
    assert [(_index(w.tag_indices[0]), _index(w.num_elements)) for w in waits] == [(k, n) for _, _, n, k in want]
    assert all(w.tag is starts[0].tag for w in waits)
    assert isinstance(ops[-1], func.ReturnOp) and ops.index(waits[0]) > ops.index(starts[-1])
    x = np.linspace(-1, 1, 8, dtype=np.float32).reshape(1, 8)
    reference, _ = parse_module(text)
    for n in (0, 1, 3):
        inputs = {"n": np.array(n, dtype=np.int64), "x": x}
        want_y = run_function(reference, inputs).outputs["y"]
        np.testing.assert_array_equal(run_flat(lowered, inputs).outputs["y"], want_y)
    buffer_name = load.buffer.name_hint
    read_through = {  # the views the function reads the resident weights through: the wait's names at their slots
        view.attributes["cfmem.tensor"].data: (_index(view.byte_shift), view.result.type.memory_space)
        for view in main.walk()
        if isinstance(view, memref.ViewOp) and view.source.owner.attributes.get("cfmem.tensor") == StringAttr(buffer_name)
    }
    assert read_through == {name: (slot, ON_CHIP) for name, (_, slot, _, _) in zip(names, want)}


# --- views, copies and aliases at their planned bytes ------------------------------------------

MIXED = """
builtin.module {
  nn.global @weights size(512) seed(3) scale(3.000000e-01 : f64)
  func.func @main(%x: tensor<1x8xf32>) -> (tensor<2x4xf32>, tensor<1x8xf32>) {
    %weights = nn.get_global @weights : tensor<512xi8>
    %w = nn.view %weights[256] bytes(256) : tensor<512xi8> to tensor<64xf32>
    %w8 = nn.reshape %w : tensor<64xf32> to tensor<8x8xf32>
    %m = nn.matmul %x, %w8 {cfmem.slice_of = "mm"} : (tensor<1x8xf32>, tensor<8x8xf32>) -> tensor<1x8xf32>
    %t = nn.tanh %x : (tensor<1x8xf32>) -> tensor<1x8xf32>
    %j = nn.concat %m, %x, %t {axis = 1 : i64} : (tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x24xf32>
    %r = nn.relu %j : (tensor<1x24xf32>) -> tensor<1x24xf32>
    %s = nn.slice %r {starts = array<i64: 8>, ends = array<i64: 16>, axes = array<i64: 1>} : (tensor<1x24xf32>) -> tensor<1x8xf32>
    %q = nn.reshape %s : tensor<1x8xf32> to tensor<2x4xf32>
    %y = nn.sigmoid %q : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %0 = nn.sub %x, %s : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
    func.return %y, %0 : tensor<2x4xf32>, tensor<1x8xf32>
  }
}
"""
"""A weight reshaped (a view of the blob), a concat whose matmul and tanh inputs are computed into
their parts and whose argument input is copied into the middle one, an in-place relu, a slice and a
reshape of it (views at the relu's bytes + 32), and two results, the second unnamed."""

X = np.linspace(-1, 1, 8, dtype=np.float32).reshape(1, 8)


def _planned_mixed(pipeline: str, offchip: tuple[str, ...] = ()):
    module, _ = parse_module(MIXED)
    for op in module.walk():
        if op.name in offchip:
            set_offchip(op, True)
    apply_pipeline(module, pipeline)
    return module


def _offsets(module, attr: str = OFFSETS_ATTR) -> dict[str, int]:
    """Each named value's planned offset, by name."""
    values = [r for op in module.walk() for r in op.results] + list(_function(module, "main").body.block.args)
    return {v.name_hint: o for v in values if v.name_hint and (o := planned_offset(v, attr)) is not None}


def _lowered(planned):
    lowered = planned.clone()
    apply_pipeline(lowered, "nn-lower-to-memref")
    return lowered, _function(lowered, "main")


def _globals(module) -> dict[str, memref.GlobalOp]:
    return {op.sym_name.data: op for op in module.ops if isinstance(op, memref.GlobalOp)}


def _applies(main) -> dict[str, ApplyOp]:
    return {op.compute.name: op for op in main.walk() if isinstance(op, ApplyOp)}


def _views(main) -> dict[str, list[memref.ViewOp]]:
    views: dict[str, list[memref.ViewOp]] = {}
    for op in main.walk():
        if isinstance(op, memref.ViewOp) and "cfmem.tensor" in op.attributes:
            views.setdefault(op.attributes["cfmem.tensor"].data, []).append(op)
    return views


def _assert_same_numbers(lowered):
    reference, _ = parse_module(MIXED)
    want = run_function(reference, {"x": X}).outputs
    got = run_flat(lowered, {"x": X}).outputs
    assert want.keys() == got.keys() == {"y", "result1"}
    for key in want:
        np.testing.assert_array_equal(got[key], want[key])


def test_mixed_graph_lowers_to_views_at_planned_offsets_copying_only_what_is_not_in_place():
    planned = _planned_mixed("nn-plan-memory{strategy=sequential}")
    at = _offsets(planned)
    lowered, main = _lowered(planned)
    args = main.body.block.args
    assert [a.name_hint for a in args] == ["x", "out_y", "out1"]  # results: out_<name>, else out<position>
    views = _views(main)
    arena = next(op for op in main.body.block.ops if isinstance(op, memref.GetGlobalOp)).memref
    assert arena.name_hint == "arena" and arena.owner.name_.string_value() == "arena_main"
    assert _globals(lowered).keys() == {"weights", "arena_main"}  # nothing off chip: no off-chip arena
    for name in ("m", "t", "j", "r", "s", "q"):
        view = views[name][0]
        assert view.source is arena and _index(view.byte_shift) == at[name], name
        assert view.result.type.memory_space == ON_CHIP
    assert at["s"] == at["r"] + 32 and at["q"] == at["s"]  # the slice's bytes inside the relu's
    assert at["m"] == at["j"] and at["t"] == at["j"] + 64  # computed into their parts
    applies = _applies(main)
    assert "nn.slice" not in applies and "nn.reshape" not in applies  # views, no copies
    assert applies["nn.relu"].attributes.keys() >= {"cfmem.inplace"}
    relu = applies["nn.relu"]
    assert _index(relu.outs[0].owner.byte_shift) == _index(relu.ins[0].owner.byte_shift) == at["j"]
    for name in ("nn.matmul", "nn.tanh", "nn.sub", "nn.sigmoid"):  # aliases or not, none of these in place
        assert "cfmem.inplace" not in applies[name].attributes, name
    assert applies["nn.matmul"].attributes["cfmem.slice_of"] == StringAttr("mm")
    assert applies["nn.sub"].outs[0] is args[2] and applies["nn.sigmoid"].outs[0] is args[1]
    assert views["j"][0].attributes["cfmem.reads"] == ArrayAttr([StringAttr("m"), StringAttr("t")])
    assert views["s"][0].attributes["cfmem.reads"] == ArrayAttr([StringAttr("r")])
    (copy,) = [op for op in main.walk() if isinstance(op, memref.CopyOp)]  # only the argument into its part
    part = copy.destination.owner
    assert copy.source is args[0] and part is views["j"][1]
    assert part.source is arena and _index(part.byte_shift) == at["j"] + 32
    assert part.result.type == memref_of(TensorType(f32, [1, 8]), ON_CHIP)
    weights = next(op for op in main.walk() if isinstance(op, memref.GetGlobalOp) and op.name_.string_value() == "weights")
    assert weights.memref.name_hint == "weights"
    w, w8 = [op for op in main.walk() if isinstance(op, memref.ViewOp) and op.source is weights.memref]
    assert (w.result.name_hint, _index(w.byte_shift)) == ("w", 256)
    assert (w8.result.name_hint, _index(w8.byte_shift), w8.result.type) == ("w8", 256, memref_of(TensorType(f32, [8, 8])))
    assert applies["nn.matmul"].ins[1] is w8.result
    _assert_same_numbers(lowered)


def test_offchip_result_and_transferred_weight_reshape_lower_to_their_planned_bytes():
    planned = _planned_mixed("nn-insert-dma,nn-plan-memory{strategy=sequential}", offchip=("nn.tanh",))
    off = _offsets(planned, OFFCHIP_OFFSETS_ATTR)
    assert off.keys() == {"t"}
    lowered, main = _lowered(planned)
    (t,) = _views(main)["t"]
    assert t.source.owner.name_.string_value() == "offchip_arena_main" and _index(t.byte_shift) == off["t"]
    assert t.source.name_hint == "offchip_arena"
    fn = _function(planned, "main")
    arena, offchip_arena = fn.attributes["cfmem.arena_size"].value.data, fn.attributes["cfmem.offchip_arena_size"].value.data
    globals_ = _globals(lowered)
    assert globals_.keys() == {"weights", "arena_main", "offchip_arena_main"}
    for name, size, space in (("arena_main", arena, ON_CHIP), ("offchip_arena_main", offchip_arena, NoneAttr())):
        glob = globals_[name]  # uninitialised, writable bytes
        assert glob.type == MemRefType(i8, [size], memory_space=space), name
        assert glob.sym_visibility == StringAttr("private") and glob.constant is None, name
        assert isinstance(glob.initial_value, UnitAttr), name
    weights = globals_["weights"]
    assert weights.type == MemRefType(i8, [512]) and weights.constant is not None
    assert t.result.type.memory_space == NoneAttr()
    (start,) = [op for op in main.walk() if isinstance(op, memref.DmaStartOp)]
    assert start.src.owner.name_.string_value() == "weights" and _index(start.src_indices[0]) == 256  # the reshape's bytes
    assert _index(start.num_elements) == 256
    _assert_same_numbers(lowered)


BLOB_READ = """
builtin.module {
  nn.global @weights size(16) seed(3) scale(3.000000e-01 : f64)
  func.func @main(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
    %weights = nn.get_global @weights : tensor<16xi8>
    %whole = nn.view %weights[0] bytes(16) : tensor<16xi8> to tensor<16xi8>
    %c = nn.cast %weights : (tensor<16xi8>) -> tensor<16xf32>
    %v = nn.cast %whole : (tensor<16xi8>) -> tensor<16xf32>
    %y = nn.add %c, %x : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %z = nn.add %v, %x : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    func.return %y, %z : tensor<16xf32>, tensor<16xf32>
  }
}
"""


@pytest.mark.parametrize("pipeline", ["nn-plan-memory", "nn-insert-dma,nn-plan-memory"])
def test_a_blob_read_whole_holds_its_signed_bytes_in_both_interpreters(pipeline):
    """``nn.get_global`` is a tensor of i8, signed as every i8 is: the same numbers as a view of
    the whole blob (the reference read it as unsigned bytes); the flat form reads the global itself."""
    module, _ = parse_module(BLOB_READ)
    apply_pipeline(module, f"{pipeline},nn-lower-to-memref")
    main = _function(module, "main")
    (get,) = [op for op in main.walk() if isinstance(op, memref.GetGlobalOp) and op.name_.string_value() == "weights"]
    if "dma" not in pipeline:
        casts = [op for op in main.walk() if isinstance(op, ApplyOp) and op.compute.name == "nn.cast"]
        assert casts[0].ins[0] is get.memref
    x = np.linspace(-1, 1, 16, dtype=np.float32)
    reference, _ = parse_module(BLOB_READ)
    want = run_function(reference, {"x": x}).outputs
    assert (want["y"] < x).any()  # some byte is negative
    np.testing.assert_array_equal(want["y"], want["z"])
    got = run_flat(module, {"x": x}).outputs
    for key in ("y", "z"):
        np.testing.assert_array_equal(got[key], want[key])


# --- plans the lowering takes as they are (check_plan=False) -----------------------------------


def _q(fn):
    return next(op for op in fn.walk() if op.results and op.results[0].name_hint == "q")


def test_an_alias_planned_off_its_source_is_computed_into_its_own_bytes():
    """A reshape marked ``cfmem.alias`` whose stored offset is not its source's: not a view of
    bytes nobody wrote there, but an ``nn.apply`` into its own."""
    planned = _planned_mixed("nn-plan-memory{strategy=sequential}")
    fn = _function(planned, "main")
    size = fn.attributes["cfmem.arena_size"].value.data
    q = _q(fn)
    assert "cfmem.alias" in q.attributes
    q.attributes[OFFSETS_ATTR] = DenseArrayBase.from_list(i64, [size])  # fresh bytes past the arena
    fn.attributes["cfmem.arena_size"] = IntegerAttr(size + 32, i64)
    lower_module(planned, check_plan=False)
    main = _function(planned, "main")
    reshape = _applies(main)["nn.reshape"]
    assert _index(reshape.outs[0].owner.byte_shift) == size and reshape.ins[0] is _views(main)["s"][0].result
    _assert_same_numbers(planned)


def test_a_reshape_not_declared_an_alias_is_computed_even_on_its_source_bytes():
    """A wrong plan puts a reshape that is no alias on its source's bytes: it stays an ``nn.apply``
    (a view would hide the plan's error), and the checking flat run names it."""
    planned = _planned_mixed("nn-plan-memory{strategy=sequential}")
    fn = _function(planned, "main")
    del _q(fn).attributes["cfmem.alias"]
    lower_module(planned, check_plan=False)
    main = _function(planned, "main")
    reshape = _applies(main)["nn.reshape"]
    assert _index(reshape.outs[0].owner.byte_shift) == _index(reshape.ins[0].owner.byte_shift)
    with pytest.raises(ClobberError, match="'nn.reshape' writes %q over its own input %s"):
        run_flat(planned, {"x": X})


def test_a_value_without_a_planned_offset_is_named():
    planned = _planned_mixed("nn-plan-memory{strategy=sequential}")
    tanh = next(op for op in _function(planned, "main").walk() if op.name == "nn.tanh")
    del tanh.attributes[OFFSETS_ATTR]
    with pytest.raises(PassFailedException, match=r"^'nn.tanh' result %t has no planned offset: plan the function first$"):
        lower_module(planned, check_plan=False)


def test_an_op_the_lowering_does_not_know_is_refused_naming_it():
    planned = _planned_mixed("nn-plan-memory{strategy=sequential}")
    fn = _function(planned, "main")
    stray = arith.ConstantOp(IntegerAttr(1, i64))
    fn.body.block.insert_op_before(stray, fn.body.block.last_op)
    with pytest.raises(OpFailure, match="nn-lower-to-memref cannot lower 'arith.constant'") as failure:
        lower_module(planned)
    assert failure.value.op is stray  # for its place in the source

def test_a_function_without_a_memory_plan_lowered_unchecked_is_refused_at_the_function():
    module, _ = parse_module(
        "func.func @main(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {\n"
        "  %t = nn.tanh %x : (tensor<1x4xf32>) -> tensor<1x4xf32>\n  func.return %t : tensor<1x4xf32>\n}\n"
    )
    with pytest.raises(OpFailure) as failure:
        lower_module(module, check_plan=False)
    assert str(failure.value) == "function @main has no memory plan: run nn-plan-memory first"
    assert failure.value.op is _function(module, "main")


def test_a_transfer_waits_on_a_tag_per_tensor_it_moves():
    """Every nn.dma_start lowers to one memref.dma_start per tensor it moves, each signalling its
    own element of an i32 tag buffer of that many elements (RECURRENT's loop body loads its three
    weights, the gemm's weight and bias and the matmul's, in one transfer)."""
    module, _ = parse_module(RECURRENT)
    apply_pipeline(module, "nn-insert-dma,nn-plan-memory{strategy=sequential}")
    moved = sorted(len(op.sources) for op in module.walk() if isinstance(op, DmaStartOp))
    lower_module(module)
    tags = [op.memref for op in module.walk() if op.name == "memref.alloca"]
    assert sorted(t.type.get_shape()[0] for t in tags) == moved and moved[-1] > 1
    assert all(len(t.type.get_shape()) == 1 for t in tags)


# --- loops carrying several values, or their condition; the globals' visibility -----------------

CARRIES_ITS_CONDITION = """
func.func @cc(%n: tensor<i64>, %x: tensor<4xf32>, %f: tensor<i1>) -> (tensor<4xf32>, tensor<i1>) {
  %t = nn.constant dense<true> : tensor<i1>
  %a, %b = nn.loop %n, %t (%x, %f) : (tensor<i64>, tensor<i1>, tensor<4xf32>, tensor<i1>) -> (tensor<4xf32>, tensor<i1>) {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %p: tensor<4xf32>, %q: tensor<i1>):
    %r = nn.relu %p : (tensor<4xf32>) -> tensor<4xf32>
    nn.yield %q, %r, %c : tensor<i1>, tensor<4xf32>, tensor<i1>
  }
  func.return %a, %b : tensor<4xf32>, tensor<i1>
}
"""
"""The condition argument %c carried into the position of %q, whose value becomes the next condition."""

TWO_CARRIED = """
func.func @two(%n: tensor<i64>, %x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %t = nn.constant dense<true> : tensor<i1>
  %a, %b = nn.loop %n, %t (%x, %y) : (tensor<i64>, tensor<i1>, tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %p: tensor<4xf32>, %q: tensor<4xf32>):
    %r = nn.relu %p : (tensor<4xf32>) -> tensor<4xf32>
    %s = nn.add %q, %p : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    nn.yield %c, %r, %s : tensor<i1>, tensor<4xf32>, tensor<4xf32>
  }
  func.return %a, %b : tensor<4xf32>, tensor<4xf32>
}
"""


def test_a_loop_carrying_its_condition_into_another_position_is_refused_at_the_loop():
    from cfmem.ir_io import make_context
    from cfmem.passes.failures import OpFailure
    from cfmem.passes.lower_to_memref import LowerToMemrefPass

    module, _ = parse_module(CARRIES_ITS_CONDITION)
    apply_pipeline(module, "nn-plan-memory{aliases=false strategy=sequential}")
    with pytest.raises(OpFailure) as err:
        LowerToMemrefPass().apply(make_context(), module)
    assert str(err.value) == (
        "loop#0 in @cc carries argument %c into another position: copy it first"
        " (the iteration's copies would overwrite each other)"
    )
    assert err.value.op is next(op for op in module.walk() if op.name == "nn.loop")


@pytest.mark.parametrize("trips", [0, 1, 3])
def test_a_loop_carrying_two_values_computes_the_reference_numbers(trips):
    module, _ = parse_module(TWO_CARRIED)
    flat = module.clone()
    apply_pipeline(flat, "nn-plan-memory,nn-lower-to-memref,nn-check-dma")
    inputs = {"n": np.array(trips, np.int64), "x": np.linspace(-1, 1, 4, dtype=np.float32),
              "y": np.arange(4, dtype=np.float32)}
    want = run_function(module, inputs).outputs
    got = run_flat(flat, inputs).outputs
    for name in want:
        np.testing.assert_array_equal(got[name], want[name])


def test_every_global_of_the_flat_form_is_private():
    """Seeded blobs become constant globals of their bytes, arenas uninitialized ones: none is
    visible outside the module (MLIR may drop one nothing uses)."""
    module, _ = parse_module("""
nn.global @w size(64) seed(1)
func.func @main(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %blob = nn.get_global @w : tensor<64xi8>
  %w1 = nn.view %blob[0] bytes(64) : tensor<64xi8> to tensor<4x4xf32>
  %a = nn.matmul %x, %w1 : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32>
  %b = nn.relu %a : (tensor<1x4xf32>) -> tensor<1x4xf32>
  func.return %b : tensor<1x4xf32>
}
""")
    apply_pipeline(module, "nn-insert-dma,nn-plan-memory,nn-lower-to-memref")
    globals_ = [op for op in module.ops if isinstance(op, memref.GlobalOp)]
    assert len(globals_) >= 2
    assert all(g.sym_visibility == StringAttr("private") for g in globals_), [str(g) for g in globals_]


UNWAITED = """
nn.global @w size(64) seed(1)
func.func @main(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %blob = nn.get_global @w : tensor<64xi8>
  %w1 = nn.view %blob[0] bytes(64) : tensor<64xi8> to tensor<4x4xf32>
  %dma0 = nn.dma_buffer : tensor<64xi8>
  %load = nn.dma_start %w1 into %dma0 at [0] : tensor<4x4xf32> into tensor<64xi8>
  %a = nn.matmul %x, %w1 : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32>
  func.return %a : tensor<1x4xf32>
}
"""
"""A transfer nothing waits for (nn-check-dma refuses it; the lowering does not need the wait)."""


def test_a_transfer_nothing_waits_for_is_lowered_under_its_sources_name():
    module, _ = parse_module(UNWAITED)
    apply_pipeline(module, "nn-plan-memory,nn-lower-to-memref")
    [start] = [op for op in module.walk() if isinstance(op, memref.DmaStartOp)]
    assert start.attributes[TENSOR_ATTR] == StringAttr("w1")
