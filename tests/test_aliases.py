"""Aliases: which tensors share bytes, plans that never get worse, and checkers that catch wrong ones.

Decisions are pinned on small functions (the slice contiguity rule, in-place
only at a last use, concat parts, yields). Every example and imported test
model is planned in every control-flow mode with ping-pong DMA, with and
without aliases: the peak never rises and the checking flat run is
bit-identical to the reference interpreter. Hand-broken plans (an in-place
write over a tensor read later, an alias at a wrong offset) are refused by
the stored-plan verifier and, lowered anyway, stopped by the flat interpreter.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import arith
from xdsl.dialects.builtin import DenseArrayBase, IndexType, IntegerAttr, StringAttr, i64
from xdsl.utils.exceptions import PassFailedException

from cfmem.dialects.nn_memref import ApplyOp
from cfmem.interp.flat import ClobberError, run_flat
from cfmem.interp.golden import find_function, run_function
from cfmem.ir_io import make_context, parse_module
from cfmem.passes.aliases import find_aliases
from cfmem.passes.insert_dma import InsertDmaPass
from cfmem.passes.lower_to_memref import INPLACE_ATTR, lower_module
from cfmem.passes.plan_memory import ALIAS_ATTR, ARENA_ATTR, OFFSETS_ATTR, PlanMemoryPass
from cfmem.planning.control_flow import MODES

F = "tensor<1x16xf32>"


def fn_of(text: str):
    module, _ = parse_module(text, "m.mlir")
    return module, find_function(module)


def aliases_by_name(text: str, kinds=None) -> dict[str, tuple[str, int]]:
    _, fn = fn_of(text)
    found = find_aliases(fn) if kinds is None else find_aliases(fn, kinds)
    return {v.name_hint: (root.name_hint, offset) for v, (root, offset) in found.items()}


# --- decisions -----------------------------------------------------------------------


SLICES = """func.func @main(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %a = nn.relu %x : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %row = nn.slice %a {starts = array<i64: 1>, ends = array<i64: 2>, axes = array<i64: 0>} : (tensor<2x3x4xf32>) -> tensor<1x3x4xf32>
  %mid = nn.slice %row {starts = array<i64: 1>, ends = array<i64: 3>, axes = array<i64: 1>} : (tensor<1x3x4xf32>) -> tensor<1x2x4xf32>
  %one = nn.slice %row {starts = array<i64: 2, 1>, ends = array<i64: 3, 3>, axes = array<i64: 1, 2>} : (tensor<1x3x4xf32>) -> tensor<1x1x2xf32>
  %cols = nn.slice %a {starts = array<i64: 1>, ends = array<i64: 3>, axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x2x4xf32>
  %inner = nn.slice %row {starts = array<i64: 1>, ends = array<i64: 3>, axes = array<i64: 2>} : (tensor<1x3x4xf32>) -> tensor<1x3x2xf32>
  %step = nn.slice %row {starts = array<i64: 0>, ends = array<i64: 4>, axes = array<i64: 2>, steps = array<i64: 2>} : (tensor<1x3x4xf32>) -> tensor<1x3x2xf32>
  %back = nn.slice %a {starts = array<i64: 1>, ends = array<i64: -3>, axes = array<i64: 0>, steps = array<i64: -1>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %s1 = nn.reduce_sum %mid {axes = array<i64: 0, 1, 2>} : (tensor<1x2x4xf32>) -> tensor<1x1x1xf32>
  %s2 = nn.reduce_sum %one {axes = array<i64: 0, 1, 2>} : (tensor<1x1x2xf32>) -> tensor<1x1x1xf32>
  %s3 = nn.reduce_sum %cols {axes = array<i64: 0, 1, 2>} : (tensor<2x2x4xf32>) -> tensor<1x1x1xf32>
  %s4 = nn.reduce_sum %inner {axes = array<i64: 0, 1, 2>} : (tensor<1x3x2xf32>) -> tensor<1x1x1xf32>
  %s5 = nn.reduce_sum %step {axes = array<i64: 0, 1, 2>} : (tensor<1x3x2xf32>) -> tensor<1x1x1xf32>
  %t1 = nn.add %s1, %s2 : (tensor<1x1x1xf32>, tensor<1x1x1xf32>) -> tensor<1x1x1xf32>
  %t2 = nn.add %s3, %s4 : (tensor<1x1x1xf32>, tensor<1x1x1xf32>) -> tensor<1x1x1xf32>
  %t3 = nn.add %t1, %t2 : (tensor<1x1x1xf32>, tensor<1x1x1xf32>) -> tensor<1x1x1xf32>
  %t4 = nn.add %t3, %s5 : (tensor<1x1x1xf32>, tensor<1x1x1xf32>) -> tensor<1x1x1xf32>
  %o = nn.add %back, %t4 : (tensor<2x3x4xf32>, tensor<1x1x1xf32>) -> tensor<2x3x4xf32>
  func.return %o : tensor<2x3x4xf32>
}
"""


def test_a_slice_is_an_alias_exactly_when_it_is_one_contiguous_byte_range():
    found = aliases_by_name(SLICES, ["slice"])
    assert found["row"] == ("a", 48)  # second of two 3x4 rows
    assert found["mid"] == ("a", 48 + 16)  # rows 1..2 of that row, whole
    assert found["one"] == ("a", 48 + 2 * 16 + 4)  # one row, two columns
    for strided in ("cols", "inner", "step", "back"):  # gaps between the parts, or reversed
        assert strided not in found


def test_slices_as_views_keep_the_numbers():
    module, fn = fn_of(SLICES)
    flat = module.clone()
    PlanMemoryPass().apply(make_context(), flat)
    assert {op.results[0].name_hint for op in find_function(flat).walk() if ALIAS_ATTR in op.attributes} >= {"row", "mid", "one"}
    lower_module(flat)
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    want = run_function(module, {"x": x}).outputs
    got = run_flat(flat, {"x": x}).outputs
    assert all(np.array_equal(want[k], got[k]) for k in want)


INPLACE = f"""func.func @main(%x: {F}, %c: tensor<1xi1>) -> {F} {{
  %a = nn.relu %x : ({F}) -> {F}
  %b = nn.tanh %a : ({F}) -> {F}
  %c2 = nn.sigmoid %b : ({F}) -> {F}
  %d = nn.add %c2, %b : ({F}, {F}) -> {F}
  %e = nn.exp %d : ({F}) -> {F}
  %r = nn.if %c : tensor<1xi1> -> ({F}) {{
    %t = nn.neg %d : ({F}) -> {F}
    nn.yield %t : {F}
  }} else {{
    nn.yield %e : {F}
  }}
  %o = nn.add %r, %e : ({F}, {F}) -> {F}
  func.return %o : {F}
}}
"""


def test_in_place_only_over_a_tensor_that_dies_at_the_op():
    found = aliases_by_name(INPLACE, ["inplace"])
    assert "a" not in found  # %x is a function argument
    assert found["b"] == ("a", 0)  # %a dies at tanh
    assert "c2" not in found  # %b is added later
    assert found["d"] == ("c2", 0)  # %c2 and %b both die at the add: the first is overwritten
    assert "e" not in found  # %d is read again inside the if
    assert "t" not in found  # %d lives in the parent
    assert "o" not in found  # the function's result


def test_a_value_only_yielded_is_computed_into_the_ifs_result():
    found = aliases_by_name(INPLACE, ["yield"])
    assert found == {"t": ("r", 0)}  # %e is also read after the if


CONCAT = f"""func.func @main(%x: {F}) -> tensor<1x48xf32> {{
  %a = nn.relu %x : ({F}) -> {F}
  %b = nn.tanh %x : ({F}) -> {F}
  %m = nn.exp %x : ({F}) -> {F}
  %j = nn.concat %a, %b, %m {{axis = 1 : i64}} : ({F}, {F}, {F}) -> tensor<1x48xf32>
  %k = nn.concat %x, %m {{axis = 1 : i64}} : ({F}, {F}) -> tensor<1x32xf32>
  %u = nn.reshape %j : tensor<1x48xf32> to tensor<3x16xf32>
  %p = nn.sigmoid %u : (tensor<3x16xf32>) -> tensor<3x16xf32>
  %q = nn.neg %u : (tensor<3x16xf32>) -> tensor<3x16xf32>
  %rows = nn.concat %p, %q {{axis = 1 : i64}} : (tensor<3x16xf32>, tensor<3x16xf32>) -> tensor<3x32xf32>
  %s0 = nn.reduce_sum %rows {{axes = array<i64: 0>}} : (tensor<3x32xf32>) -> tensor<1x32xf32>
  %s = nn.add %s0, %k : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
  %o = nn.concat %s, %a {{axis = 1 : i64}} : (tensor<1x32xf32>, {F}) -> tensor<1x48xf32>
  func.return %o : tensor<1x48xf32>
}}
"""


def test_concat_inputs_used_only_by_it_are_computed_into_their_parts():
    found = aliases_by_name(CONCAT, ["concat"])
    assert found["b"] == ("j", 64)
    assert "a" not in found  # also concatenated into %o
    assert "m" not in found  # used by two concats
    assert "p" not in found and "q" not in found  # %rows has 3 rows: parts are not contiguous
    assert "s" not in found  # %o is the function's result


def qconcat(y_scale: str) -> str:
    q = "{element = i8, y_scale = array<f32: 0.5>, y_zero_point = array<i64: 1>}"
    return f"""func.func @main(%x: tensor<1x4xf32>) -> tensor<1x8xi8> {{
  %a = nn.quantize %x {q} : (tensor<1x4xf32>) -> tensor<1x4xi8>
  %b = nn.quantize %x {q} : (tensor<1x4xf32>) -> tensor<1x4xi8>
  %j = nn.qconcat %a, %b {{element = i8, axis = 1 : i64, x_scale = array<f32: 0.5, 0.5>, x_zero_point = array<i64: 1, 1>, y_scale = array<f32: {y_scale}>, y_zero_point = array<i64: 1>}} : (tensor<1x4xi8>, tensor<1x4xi8>) -> tensor<1x8xi8>
  %o = nn.qlookup %j {{table = array<i64: {", ".join(str(v) for v in range(-128, 128))}>, element = i8}} : (tensor<1x8xi8>) -> tensor<1x8xi8>
  func.return %o : tensor<1x8xi8>
}}
"""


def test_a_qconcat_takes_its_inputs_in_place_only_when_it_does_not_requantize():
    assert aliases_by_name(qconcat("0.5"), ["concat"]) == {"a": ("j", 0), "b": ("j", 4)}
    assert aliases_by_name(qconcat("0.25"), ["concat"]) == {}
    module, _ = fn_of(qconcat("0.5"))
    flat = module.clone()
    PlanMemoryPass().apply(make_context(), flat)
    lower_module(flat)
    x = np.linspace(-2, 2, 4, dtype=np.float32).reshape(1, 4)
    assert np.array_equal(run_flat(flat, {"x": x}).outputs["o"], run_function(module, {"x": x}).outputs["o"])


# --- plans never get worse; the numbers stay -----------------------------------------


def plan_and_run(module, mode: str, aliases: bool, cases, base_dir=None):
    """Plan ``module`` (not changed) with ping-pong DMA, lower it, and check the flat run on
    each ``(inputs, reference outputs)`` of ``cases`` is bit-identical; the peak and the
    number of declared aliases."""
    planned = module.clone()
    ctx = make_context()
    InsertDmaPass(mode="pingpong").apply(ctx, planned)
    PlanMemoryPass(mode=mode, aliases=aliases).apply(ctx, planned)
    fn = find_function(planned)
    peak = fn.attributes[ARENA_ATTR].value.data
    declared = sum(ALIAS_ATTR in op.attributes for op in fn.walk())
    lower_module(planned, base_dir)
    planned.verify()
    for inputs, want in cases:
        got = run_flat(planned, inputs, check=True).outputs
        for name in want:
            assert np.array_equal(want[name], got[name], equal_nan=True), (mode, aliases, name)
    return peak, declared


@pytest.mark.parametrize("name", ["facedetect", "fusiondetect", "denoise", "wakeword"])
def test_examples_never_need_more_with_aliases_and_run_bit_identically(name, shared_examples):
    example = shared_examples(name)
    module, cases = example.module, [(case.inputs, case.reference.outputs) for case in example.cases]
    saved = 0
    for mode in MODES:
        without, none = plan_and_run(module, mode, False, cases)
        with_aliases, declared = plan_and_run(module, mode, True, cases)
        assert none == 0 and with_aliases <= without, mode
        saved += without - with_aliases
    assert declared > 0 and saved > 0


def imported_models():
    from cfmem.importers.onnx import import_onnx
    from cfmem.importers.onnx.reference import cfmem_inputs
    from cfmem.testing import onnx_models as om
    from test_onnx_real_models import SHARED_SAMPLES, silero_feeds, silero_shapes

    try:
        models = [(n, om.silero_model(n), silero_shapes(SHARED_SAMPLES),
                   [cfmem_inputs(silero_feeds(SHARED_SAMPLES, sr, 1)) for sr in (16000, 8000)])
                  for n in om.SILERO_MODELS]  # fmt: skip
    except RuntimeError as err:
        pytest.skip(str(err))
    if om.torch_available():
        models += [(n, om.cond_model(n), {}, [cfmem_inputs(f) for f in om.cond_inputs(n).values()])
                   for n in ("cond_mlp", "cond_conv", "cond_chain")]  # fmt: skip
    for name, path, shapes, cases in models:
        imported = import_onnx(path, blob_file="model.weights.bin", input_shapes=shapes)
        yield name, imported, cases


def test_imported_models_never_need_more_with_aliases_and_run_bit_identically():
    pytest.importorskip("onnx")
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        for name, imported, cases in imported_models():
            (base / "model.weights.bin").write_bytes(imported.blob)
            runs = [(inputs, run_function(imported.module, inputs, base_dir=base).outputs) for inputs in cases]
            for mode in MODES:
                without, _ = plan_and_run(imported.module, mode, False, runs, base)
                with_aliases, _ = plan_and_run(imported.module, mode, True, runs, base)
                assert with_aliases <= without, (name, mode)


# --- wrong aliases are caught ----------------------------------------------------------


LOOP_YIELDED = """func.func @main(%n: tensor<i64>, %x: tensor<4xf32>, %m: tensor<1xf32>) -> tensor<4xf32> {
  %t = nn.constant dense<true> : tensor<i1>
  %z = nn.constant dense<0.0> : tensor<1xf32>
  %x0 = nn.relu %x : (tensor<4xf32>) -> tensor<4xf32>
  %cc = nn.cmp %m, %z {predicate = "gt"} : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xi1>
  %r = nn.if %cc : tensor<1xi1> -> (tensor<4xf32>) {
    %a = nn.loop %n, %t (%x0) : (tensor<i64>, tensor<i1>, tensor<4xf32>) -> (tensor<4xf32>) {
    ^bb0(%i: tensor<i64>, %c: tensor<i1>, %p: tensor<4xf32>):
      %q = nn.tanh %p : (tensor<4xf32>) -> tensor<4xf32>
      %q2 = nn.add %q, %x0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      nn.yield %c, %q2 : tensor<i1>, tensor<4xf32>
    }
    nn.yield %a : tensor<4xf32>
  } else {
    nn.yield %x0 : tensor<4xf32>
  }
  %o = nn.add %r, %x0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %o : tensor<4xf32>
}"""


@pytest.mark.parametrize("mode", MODES)
def test_a_loop_whose_result_a_branch_only_yields_carries_in_the_ifs_result(mode):
    assert aliases_by_name(LOOP_YIELDED, ["yield"]) == {"a": ("r", 0)}
    module, fn = fn_of(LOOP_YIELDED)
    x = np.linspace(-1, 1, 4, dtype=np.float32)
    inputs = [{"n": np.array(n), "x": x, "m": np.array([m], np.float32)} for n in (0, 1, 3) for m in (1, -1)]
    cases = [(i, run_function(module, i).outputs) for i in inputs]
    _, declared = plan_and_run(module, mode, True, cases)
    assert declared >= 1


READ_LATER = f"""func.func @main(%x: {F}) -> {F} {{
  %a = nn.relu %x : ({F}) -> {F}
  %b = nn.tanh %a : ({F}) -> {F}
  %c = nn.add %a, %b : ({F}, {F}) -> {F}
  func.return %c : {F}
}}
"""

RESHAPES = f"""func.func @main(%x: {F}) -> tensor<4x4xf32> {{
  %a = nn.relu %x : ({F}) -> {F}
  %q = nn.sigmoid %x : ({F}) -> {F}
  %r = nn.reshape %a : {F} to tensor<4x4xf32>
  %p = nn.reshape %q : {F} to tensor<4x4xf32>
  %o = nn.add %r, %p : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  func.return %o : tensor<4x4xf32>
}}
"""


def planned(text: str):
    module, _ = parse_module(text, "m.mlir")
    PlanMemoryPass(strategy="sequential").apply(make_context(), module)
    fn = find_function(module)
    return module, {op.results[0].name_hint: op for op in fn.walk() if op.results and OFFSETS_ATTR in op.attributes}


def set_offset(op, offset: int) -> None:
    op.attributes[OFFSETS_ATTR] = DenseArrayBase.from_list(i64, [offset])


def offset_of(op) -> int:
    return int(op.attributes[OFFSETS_ATTR].get_values()[0])


def run_checked(module):
    lower_module(module, check_plan=False)
    run_flat(module, {"x": np.linspace(-1, 1, 16, dtype=np.float32).reshape(1, 16)})


def test_an_in_place_write_over_a_tensor_read_later_is_caught():
    module, ops = planned(READ_LATER)
    assert ALIAS_ATTR not in ops["b"].attributes
    run_checked(module.clone())  # the valid plan runs
    set_offset(ops["b"], offset_of(ops["a"]))
    ops["b"].attributes[ALIAS_ATTR] = StringAttr("a")
    with pytest.raises(PassFailedException, match=r"the stored plan is wrong: 'nn.tanh' defining %b in @main declares an alias of \"a\" that is not allowed"):
        lower_module(module.clone())
    with pytest.raises(ClobberError, match="'nn.apply' reads %a but %b overwrote 64 of its 64 bytes"):
        run_checked(module.clone())
    del ops["b"].attributes[ALIAS_ATTR]  # the same bytes, undeclared: an overlap, not an in-place write
    with pytest.raises(PassFailedException, match="the stored plan is wrong: buffers .* are live together and overlap"):
        lower_module(module.clone())
    with pytest.raises(ClobberError, match="'nn.tanh' writes %b over its own input %a"):
        run_checked(module.clone())


def test_an_alias_at_a_wrong_offset_is_caught():
    module, ops = planned(RESHAPES)
    assert ops["r"].attributes[ALIAS_ATTR] == StringAttr("a") and offset_of(ops["r"]) == offset_of(ops["a"])
    run_checked(module.clone())
    set_offset(ops["r"], offset_of(ops["q"]))
    with pytest.raises(PassFailedException, match=r"'nn.reshape' result %r defining %r in @main has offset 64 but as an alias of \"a\" at byte 0 it must be at 0"):
        lower_module(module.clone())
    with pytest.raises(ClobberError, match="reads %p but %r overwrote 64 of its 64 bytes"):  # %r copied onto %q's bytes
        run_checked(module.clone())


def test_an_alias_naming_the_wrong_root_or_missing_its_mark_is_caught():
    module, ops = planned(RESHAPES)
    ops["r"].attributes[ALIAS_ATTR] = StringAttr("q")
    with pytest.raises(PassFailedException, match=r"declares an alias of \"q\", but its root is \"a\""):
        lower_module(module.clone())
    del ops["r"].attributes[ALIAS_ATTR]
    with pytest.raises(PassFailedException, match=r"is an alias but has no cfmem.alias"):
        lower_module(module.clone())


def test_an_in_place_apply_may_only_write_exactly_over_its_input():
    module, _ = planned(INPLACE)
    lower_module(module)
    inputs = {"x": np.ones((1, 16), np.float32), "c": np.array([True])}
    run_flat(module, inputs)
    apply = next(op for op in find_function(module).walk() if isinstance(op, ApplyOp) and INPLACE_ATTR in op.attributes)
    view = apply.outs[0].owner
    at = view.byte_shift.owner.value.value.data
    shift = arith.ConstantOp(IntegerAttr(at + 4, IndexType()))
    view.parent_block().insert_op_before(shift, view)
    view.operands[1] = shift.result  # four bytes past its input: overlapping, not the same bytes
    with pytest.raises(ClobberError, match=r"'nn.tanh' writes %b over its own input %a"):
        run_flat(module, inputs)
