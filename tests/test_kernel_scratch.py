"""Kernel scratch in the plan: the bytes each op's lowering needs besides its operands
(``cfmem.dialects.scratch``), planned as a tensor live at the op's step only, counted by the
lower bound, given to the flat form's ``nn.apply`` as a view of the arena, and checked: a plan
that puts scratch on a live tensor fails the plan verifier, and the checking flat interpreter
finds the tensor overwritten (or the op's scratch on its own operand)."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import IntegerAttr, i64
from xdsl.utils.exceptions import PassFailedException

from cfmem.builder import GraphBuilder
from cfmem.dialects import nn_compute as nc
from cfmem.dialects.nn_memref import ApplyOp
from cfmem.dialects.scratch import SCRATCH_ALIGN, scratch_buffers, scratch_bytes
from cfmem.interp.flat import ClobberError, run_flat
from cfmem.interp.golden import find_function, random_inputs, run_function
from cfmem.ir_io import make_context
from cfmem.passes.liveness import analyze_function
from cfmem.passes.lower_to_memref import lower_module
from cfmem.passes.plan_memory import OFFSETS_ATTR, SCRATCH_ATTR, PlanMemoryPass


def _graph() -> tuple:
    """``b`` lives across the softmax of ``a`` (read after it), and is no operand of it."""
    g = GraphBuilder("main", seed=1)
    x = g.input("x", (4, 8))
    b = g.relu(x, name="b")
    a = g.sigmoid(x, name="a")
    s = g.softmax(a, name="s")
    g.output(g.add(b, s), names=["y"])
    return g.build()


def _planned():
    module = _graph()
    PlanMemoryPass(aliases=False).apply(make_context(), module)
    return module


def _op(module, name: str):
    return next(op for op in module.walk() if op.results and op.results[0].name_hint == name)


def _round(nbytes: int) -> int:
    return -(-nbytes // SCRATCH_ALIGN) * SCRATCH_ALIGN


def test_scratch_sizes_follow_the_ops_shapes_and_types():
    g = GraphBuilder("main", seed=1)
    x = g.input("x", (2, 3, 5))
    ops = {
        "softmax": g.softmax(x, axis=1),  # maxima and sums, 2x1x5 f32 each
        "arg": g.arg_max(x, 2),  # the best values, 2x3x1 f32
        "top": g.top_k(x, 2),  # the ranks of every element, i64
        "conv": g.conv2d(g.input("img", (1, 2, 5, 5)), 3, 3, pad=1),  # padded taps are loaded: none
        "pool": g.max_pool2d(g.input("map", (1, 2, 5, 5)), 3, pad=1),
        "relu": g.relu(x),
    }
    sizes = {k: scratch_bytes(v.owner) for k, v in ops.items()}
    assert sizes == {
        "softmax": 2 * _round(2 * 5 * 4),
        "arg": _round(2 * 3 * 4),
        "top": _round(2 * 3 * 5 * 8),
        "conv": 0,
        "pool": 0,
        "relu": 0,
    }
    assert [b.name for b in scratch_buffers(ops["softmax"].owner)] == ["peak", "total"]
    assert [b.offset for b in scratch_buffers(ops["softmax"].owner)] == [0, _round(2 * 5 * 4)]


def test_f16_ops_widen_into_scratch_before_their_own_buffers():
    g = GraphBuilder("main", seed=1)
    x = g.input("x", (2, 3), np.float16)
    s = g.softmax(x).owner
    names = [(b.name, b.shape, b.offset) for b in scratch_buffers(s)]
    assert names == [("wide", (2, 3), 0), ("wide_out", (2, 3), 32), ("peak", (2, 1), 64), ("total", (2, 1), 80)]
    assert scratch_bytes(s) == 96


def test_scratch_is_a_tensor_at_its_ops_step_and_the_lower_bound_counts_it():
    module = _graph()
    fn = find_function(module)
    info = analyze_function(fn)
    softmax = _op(module, "s")
    (only,) = info.scratch_of.items()
    assert only[0] is softmax
    scratch = only[1]
    step = list(softmax.parent_block().ops).index(softmax)
    assert (scratch.start, scratch.end, scratch.size) == (step, step, scratch_bytes(softmax)) == (step, step, 2 * 16)
    assert scratch.id == "s#scratch"
    PlanMemoryPass(aliases=False).apply(make_context(), module)
    # at the softmax: b, a, s (4x8 f32 each) and the scratch; nothing larger is live elsewhere
    assert fn.attributes["cfmem.lower_bound"].value.data == 3 * 128 + 32
    offset = softmax.attributes[SCRATCH_ATTR].value.data
    assert offset + 32 <= fn.attributes["cfmem.arena_size"].value.data


def test_the_flat_form_gives_each_op_its_planned_scratch_and_computes_the_reference():
    module = _planned()
    reference = run_function(module.clone(), random_inputs(find_function(module), 0)).outputs
    at = _op(module, "s").attributes[SCRATCH_ATTR].value.data
    lower_module(module)
    (apply,) = [op for op in module.walk() if isinstance(op, ApplyOp) and op.scratch is not None]
    assert isinstance(apply.compute, nc.SoftmaxOp)
    view = apply.scratch.owner
    assert view.attributes["cfmem.tensor"].data == "s#scratch"
    assert view.byte_shift.owner.value.value.data == at
    outputs = run_flat(module, random_inputs(find_function(module), 0)).outputs
    np.testing.assert_array_equal(outputs["y"], reference["y"])


def _move_scratch_onto(module, name: str) -> None:
    """The softmax's scratch put on the bytes of tensor ``name``."""
    offset = int(_op(module, name).attributes[OFFSETS_ATTR].get_values()[0])
    _op(module, "s").attributes[SCRATCH_ATTR] = IntegerAttr(offset, i64)


@pytest.mark.parametrize("victim", ["b", "a"])
def test_scratch_on_a_live_tensor_fails_the_plan_verifier(victim):
    module = _planned()
    _move_scratch_onto(module, victim)
    with pytest.raises(PassFailedException, match=rf"the stored plan is wrong: buffers '{victim}' .* and 's#scratch' \[2, 3\) .* are live together and overlap"):
        lower_module(module)


def test_scratch_on_a_tensor_live_across_the_op_is_found_overwritten_by_the_checking_interpreter():
    module = _planned()
    _move_scratch_onto(module, "b")
    lower_module(module, check_plan=False)
    inputs = random_inputs(find_function(module), 0)
    with pytest.raises(ClobberError, match=r"reads %b but %s#scratch overwrote 32 of its 128 bytes"):
        run_flat(module, inputs)
    unchecked = run_flat(module, inputs, check=False).outputs["y"]  # the clobbered bytes change the numbers
    assert np.isnan(unchecked).any()


def test_scratch_on_the_ops_own_operand_is_refused_by_the_checking_interpreter():
    module = _planned()
    _move_scratch_onto(module, "a")
    lower_module(module, check_plan=False)
    with pytest.raises(ClobberError, match=r"'nn.softmax' has its scratch %s#scratch on bytes of its operand %a"):
        run_flat(module, random_inputs(find_function(module), 0))


def test_an_op_planned_without_its_scratch_is_a_one_line_error():
    module = _planned()
    del _op(module, "s").attributes[SCRATCH_ATTR]
    with pytest.raises(PassFailedException, match=r"'nn.softmax' defining %s in @main has no cfmem.scratch_offset for its 32 bytes of kernel scratch: plan the function again"):
        lower_module(module)


def test_a_scratch_offset_on_an_op_that_needs_none_is_refused():
    module = _planned()
    _op(module, "a").attributes[SCRATCH_ATTR] = IntegerAttr(0, i64)
    with pytest.raises(PassFailedException, match=r"'nn.sigmoid' defining %a in @main has cfmem.scratch_offset but its kernel needs no scratch"):
        lower_module(module)
