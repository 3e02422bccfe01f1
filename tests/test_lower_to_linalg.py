"""nn-lower-to-linalg: every compute op as upstream linalg, with the kernels' numbers.

Small graphs cover each op kind and its variants (broadcasting, pads, strides,
dilations, groups, bias, trans_b, keepdims, axes, reshapes, backwards and
clamped slices, pad modes, gathers at negative and 0-d indices, top-k with
ties, integer compares deciding an if). Each is planned,
lowered to the flat form and then to linalg; the result must hold no nn op,
verify in xDSL and print and parse back unchanged. Where the upstream MLIR
bindings are installed, upstream JIT-runs the lowered modules (the cases
batched into a few modules, the integer-decided if on both branches, and the
four examples on inputs that take both branches of every if) and must agree with the flat interpreter on the same
inputs within rtol 1e-5, atol 1e-6 (its loops sum in another order).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg.ops import GenericOp, MatmulOp, TransposeOp
from xdsl.ir import SSAValue
from xdsl.parser import Parser

from cfmem.builder import GraphBuilder
from cfmem.dialects.nn_memref import ApplyOp
from cfmem.dialects.scratch import scratch_bytes
from cfmem.differential import run_mlir
from cfmem.interp.flat import run_flat
from cfmem.interp.golden import find_function, random_inputs, run_function
from cfmem.ir_io import load_module, make_context
from cfmem.mlir_check import mlir_available
from cfmem.mlir_check.prepare import prepare_for_jit
from cfmem.passes.insert_dma import InsertDmaPass
from cfmem.dialects.shapes import window_counts
from cfmem.passes.linalg import LowerToLinalgPass
from cfmem.passes.lower_to_memref import LowerToMemrefPass
from cfmem.passes.plan_memory import PlanMemoryPass
from conftest import EXAMPLES

RTOL, ATOL = 1e-5, 1e-6
needs_mlir = pytest.mark.skipif(not mlir_available(), reason="upstream MLIR python bindings not installed")

Case = Callable[[GraphBuilder, str], list[SSAValue]]


def _binary(b: GraphBuilder, n: str) -> list[SSAValue]:
    x = b.input(f"{n}_x", (2, 3, 4))
    return [
        b.add(x, b.input(f"{n}_col", (3, 1))),
        b.sub(b.input(f"{n}_row", (4,)), x),
        b.mul(b.input(f"{n}_mid", (2, 1, 4)), x),
        b.div(x, b.input(f"{n}_one", (1,))),
    ]


def _cmp(b: GraphBuilder, n: str) -> list[SSAValue]:
    x, y = b.input(f"{n}_x", (2, 3, 4)), b.input(f"{n}_y", (3, 1))
    r = b.relu(x)
    return [b.cmp(p, x, y) for p in ("lt", "le", "gt", "ge")] + [b.cmp("eq", x, r), b.cmp("ne", r, x)]


def _unary(b: GraphBuilder, n: str) -> list[SSAValue]:
    x = b.input(f"{n}_x", (2, 5))
    return [b.relu(x), b.sigmoid(x), b.tanh(x), b.clamp(x, -0.5, 0.75)]


def _conv_plain(b: GraphBuilder, n: str) -> list[SSAValue]:
    x = b.input(f"{n}_x", (2, 3, 7, 6))
    return [b.conv2d(x, 4, 3), b.conv2d(x, 5, 1, bias=False)]


def _conv_strided(b: GraphBuilder, n: str) -> list[SSAValue]:
    x = b.input(f"{n}_x", (1, 4, 9, 8))
    return [b.conv2d(x, 6, (3, 2), stride=(2, 1), pad=(1, 0, 2, 1), dilation=(2, 1), groups=2)]


def _conv_depthwise(b: GraphBuilder, n: str) -> list[SSAValue]:
    x = b.input(f"{n}_x", (1, 4, 6, 6))
    return [
        b.conv2d(x, 4, 3, pad=1, groups=4, bias=False),
        b.conv2d(x, 8, 3, stride=2, pad=(0, 1, 1, 0), dilation=2, groups=4),
    ]


def _matmul(b: GraphBuilder, n: str) -> list[SSAValue]:
    a = b.input(f"{n}_a", (3, 4))
    return [
        b.matmul(a, b.input(f"{n}_b", (4, 5))),
        b.matmul(b.input(f"{n}_batched", (2, 1, 3, 4)), b.input(f"{n}_bb", (5, 4, 2))),
        b.matmul(a, b.input(f"{n}_stack", (2, 4, 5))),
    ]


def _gemm(b: GraphBuilder, n: str) -> list[SSAValue]:
    a = b.input(f"{n}_a", (2, 6))
    return [
        b.dense(a, 5),
        b.gemm(a, b.input(f"{n}_b", (6, 3)), b.input(f"{n}_c", (2, 1))),
        b.gemm(a, b.input(f"{n}_bt", (3, 6)), 0.5, trans_b=True),
    ]


def _pool(b: GraphBuilder, n: str) -> list[SSAValue]:
    x = b.input(f"{n}_x", (1, 2, 7, 6))
    return [
        b.max_pool2d(x, 3, stride=2, pad=(1, 1, 1, 0)),
        b.max_pool2d(x, (2, 3), stride=1),
        b.avg_pool2d(x, 3, stride=2, pad=1),
        b.avg_pool2d(x, (3, 2), stride=(1, 2), pad=(2, 0, 1, 1)),
        b.avg_pool2d(x, 2),
        b.max_pool2d(x, 2, stride=(1, 2), pad=(1, 0, 2, 2), dilation=(3, 2)),
        b.avg_pool2d(x, (2, 3), stride=(2, 1), pad=(3, 1, 0, 2), dilation=(4, 2)),
    ]


def _mean(b: GraphBuilder, n: str) -> list[SSAValue]:
    x = b.input(f"{n}_x", (2, 3, 4, 5))
    return [
        b.global_avg_pool(x),
        b.reduce_mean(x, (1,)),
        b.reduce_mean(x, (-1, 0), keepdims=False),
        b.reduce_mean(x, (1, 2, 3), keepdims=False),
    ]


def _reduce(b: GraphBuilder, n: str) -> list[SSAValue]:
    x = b.input(f"{n}_x", (2, 3, 4))
    return [
        b.reduce_sum(x, (1,)),
        b.reduce_max(x, (-1, 0), keepdims=False),
        b.reduce_min(x, (0, 1, 2)),
        b.reduce_prod(x, (2,), keepdims=False),
    ]


def _arg(b: GraphBuilder, n: str) -> list[SSAValue]:
    """Ties (a rounded input) to the first and to the last index."""
    x = b.floor(b.input(f"{n}_x", (3, 4, 5)))
    return [
        b.arg_max(x, 1),
        b.arg_min(x, -1, keepdims=False),
        b.arg_max(x, 2, select_last_index=True),
        b.arg_min(x, 0, keepdims=False, select_last_index=True),
    ]


def _softmax(b: GraphBuilder, n: str) -> list[SSAValue]:
    x = b.input(f"{n}_x", (2, 3, 4))
    return [b.softmax(x), b.softmax(x, axis=1), b.softmax(x, axis=0)]


def _concat(b: GraphBuilder, n: str) -> list[SSAValue]:
    x = b.input(f"{n}_x", (2, 3, 4))
    y, z = b.input(f"{n}_y", (2, 1, 4)), b.input(f"{n}_z", (2, 2, 4))
    return [b.concat([x, y, z], axis=1), b.concat([x, x], axis=-1), b.concat([y, y, y], axis=0)]


def _transpose(b: GraphBuilder, n: str) -> list[SSAValue]:
    x = b.input(f"{n}_x", (2, 3, 4))
    return [b.transpose(x, (2, 0, 1)), b.transpose(x, (1, 0, 2))]


def _reshape(b: GraphBuilder, n: str) -> list[SSAValue]:
    x = b.input(f"{n}_x", (2, 3, 4))
    return [b.reshape(x, (4, 6)), b.reshape(x, (24,)), b.reshape(b.relu(x), (3, 2, 1, 4))]


def _slice(b: GraphBuilder, n: str) -> list[SSAValue]:
    x = b.input(f"{n}_x", (4, 6))
    ints = b.input(f"{n}_ints", (5,), dtype=np.int64)
    end = 2**63 - 1
    return [
        b.slice(x, [1, 2], [3, 5]),
        b.slice(x, [-1, 10], [-end, -10], axes=[0, 1], steps=[-2, -1]),  # backwards, clamped
        b.slice(x, [-1], [-end], axes=[-1], steps=[-1]),  # the last axis reversed
        b.slice(ints, [-2], [end]),
        b.slice(b.cmp("gt", x, 0.0), [0, 1], [end, end], steps=[3, 2]),  # i1
    ]


def _pad(b: GraphBuilder, n: str) -> list[SSAValue]:
    x = b.input(f"{n}_x", (2, 3, 5))
    return [
        b.pad(x, [0, 1, 2, 0, 2, 4], mode="reflect"),
        b.pad(x, [1, 0, 3, 0, 2, 1], mode="edge"),
        b.pad(x, [0, 2, 1, 1, 0, 2], value=-1.5),
        b.pad(x, [0, 0, 1, 0, 0, 0]),
    ]


def _math(b: GraphBuilder, n: str) -> list[SSAValue]:
    x, y = b.input(f"{n}_x", (2, 5)), b.input(f"{n}_y", (5,))
    return [b.pow(x, y), b.pow(x, 2.0), b.pow(b.sqrt(b.mul(x, x)), y), b.sqrt(x), b.exp(x), b.neg(x)]


def _math_more(b: GraphBuilder, n: str) -> list[SSAValue]:
    x = b.input(f"{n}_x", (2, 5))
    y = b.input(f"{n}_y", (5,))
    ops = (b.abs, b.floor, b.ceil, b.round, b.sign, b.erf, b.sin, b.cos, b.reciprocal)
    return [b.log(b.abs(x)), *(op(x) for op in ops), b.max(x, y), b.min(x, y)]


def _logic(b: GraphBuilder, n: str) -> list[SSAValue]:
    x, y = b.input(f"{n}_x", (2, 3, 4)), b.input(f"{n}_y", (3, 1))
    p, q = b.cmp("gt", x, 0.0), b.cmp("lt", y, 0.5)
    logic = [b.logical_and(p, q), b.logical_or(q, p), b.logical_xor(p, q), b.logical_not(p)]
    cumsums = [b.cumsum(x, 1), b.cumsum(x, 2, exclusive=True), b.cumsum(x, 0, reverse=True),
               b.cumsum(x, -1, exclusive=True, reverse=True)]  # fmt: skip
    return [*logic, b.select(p, x, y), b.select(q, 1.5, x), *cumsums]


def _remainders(b: GraphBuilder, n: str) -> list[SSAValue]:
    x, y = b.input(f"{n}_x", (2, 5)), b.input(f"{n}_y", (5,))
    ints = b.input(f"{n}_ints", (2, 5), dtype=np.int64)
    small = b.input(f"{n}_small", (2, 1), dtype=np.int32)
    odd = b.constant(np.array([3, -3, 7, -7, 1]), dtype=np.int64)  # random inputs may hold 0, not divisors
    return [b.fmod(b.mul(x, 10.0), y), b.fmod(x, 0.0), b.fmod(x, b.div(y, 0.0)), b.mod(ints, odd), b.mod(small, -4)]


def _integer_if(b: GraphBuilder, n: str) -> list[SSAValue]:
    x = b.input(f"{n}_x", (2, 3))
    count = b.input(f"{n}_count", (1,), dtype=np.int64)
    row = b.input(f"{n}_row", (2, 3), dtype=np.int32)
    (chosen,) = b.if_(b.cmp("gt", count, 0), lambda b: [b.exp(x)], lambda b: [b.neg(x)])
    return [chosen, b.cmp("le", row, b.constant([5, -5, 0], dtype=np.int32)), b.cmp("ne", count, count)]


def _gather(b: GraphBuilder, n: str) -> list[SSAValue]:
    x = b.input(f"{n}_x", (3, 4, 2))
    ints = b.input(f"{n}_ints", (5,), dtype=np.int64)
    rows = b.constant([[2, -1, 0], [-3, 1, 1]], dtype=np.int64)  # negative: from the end
    row = b.constant(np.array(-2), dtype=np.int32)  # rank 0: the axis disappears
    elements = b.constant([[[1, 0], [0, 1], [-1, 2]]], dtype=np.int64)  # 1x3x2 of 3x4x2 on axis 1
    return [
        b.gather(x, rows),
        b.gather(x, rows, axis=1),
        b.gather(x, row, axis=-1),
        b.gather(ints, row),
        b.gather_elements(x, elements, axis=1),
        b.gather_elements(x, b.constant([[[0, 2]]], dtype=np.int32), axis=0),
    ]


def _top_k(b: GraphBuilder, n: str) -> list[SSAValue]:
    x = b.input(f"{n}_x", (3, 5, 4))
    ties = b.floor(b.mul(x, 2.0))  # few distinct values: ties, broken by position
    return [b.top_k(x, 2), b.top_k(x, 5, axis=1, largest=False), b.top_k(ties, 3, axis=0), b.top_k(ties, 4, axis=-2, largest=False)]


def _cast(b: GraphBuilder, n: str) -> list[SSAValue]:
    x = b.mul(b.input(f"{n}_x", (2, 5)), 30.0)  # fractions of both signs, in int8's range mostly
    ints = b.input(f"{n}_ints", (2, 5), dtype=np.int64)
    flags = b.cmp("gt", x, 0.0)
    return [b.cast(x, np.int32), b.cast(x, np.bool_), b.cast(flags, np.float32), b.cast(flags, np.int64),
            b.cast(ints, np.int8), b.cast(b.cast(ints, np.int8), np.int32), b.cast(ints, np.float32), b.cast(ints, np.bool_)]


GROUPS: dict[str, dict[str, Case]] = {
    "elementwise": {"binary": _binary, "cmp": _cmp, "unary": _unary},
    "conv": {"conv_plain": _conv_plain, "conv_strided": _conv_strided, "conv_depthwise": _conv_depthwise},
    "other": {
        "matmul": _matmul,
        "gemm": _gemm,
        "pool": _pool,
        "mean": _mean,
        "reduce": _reduce,
        "arg": _arg,
        "softmax": _softmax,
        "concat": _concat,
        "transpose": _transpose,
        "reshape": _reshape,
    },
    "import": {"slice": _slice, "gather": _gather, "top_k": _top_k, "pad": _pad, "math": _math, "math_more": _math_more,
               "logic": _logic, "remainders": _remainders, "integer_if": _integer_if, "cast": _cast},
}
CASES: dict[str, Case] = {name: case for group in GROUPS.values() for name, case in group.items()}
MODELS = ["wakeword", "denoise", "facedetect", "fusiondetect"]


def build(cases: dict[str, Case]) -> ModuleOp:
    """One function computing every case, its outputs named ``<case>_out<k>``."""
    b = GraphBuilder("main", seed=3, scale=0.5)
    outputs: list[SSAValue] = []
    names: list[str] = []
    for name, case in cases.items():
        values = case(b, name)
        outputs += values
        names += [f"{name}_out{k}" for k in range(len(values))]
    b.output(*outputs, names=names)
    return b.build()


def flat_form(module: ModuleOp, dma: bool = False) -> ModuleOp:
    module = module.clone()
    ctx = make_context()
    if dma:
        InsertDmaPass().apply(ctx, module)
    PlanMemoryPass().apply(ctx, module)
    LowerToMemrefPass().apply(ctx, module)
    return module


def to_linalg(flat: ModuleOp) -> ModuleOp:
    module = flat.clone()
    LowerToLinalgPass().apply(make_context(), module)
    return module


def check_lowered(module: ModuleOp) -> None:
    """No nn op left; verifies; prints and parses back to the same text."""
    left = sorted({op.name for op in module.walk() if op.name.startswith("nn.")})
    assert not left, f"nn ops left after lowering: {left}"
    module.verify()
    text = str(module)
    assert str(Parser(make_context(), text).parse_module()) == text  # linalg and math included


def assert_outputs_close(got: dict[str, np.ndarray], want: dict[str, np.ndarray]) -> None:
    assert got.keys() == want.keys()
    for key, value in want.items():
        assert got[key].shape == value.shape and got[key].dtype == value.dtype, key
        if value.dtype == np.bool_:
            np.testing.assert_array_equal(got[key], value, err_msg=key)
        else:
            np.testing.assert_allclose(got[key], value, rtol=RTOL, atol=ATOL, err_msg=key)


# --- structure, in xDSL ------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_op_kind_lowers_to_verified_upstream_ops(name):
    check_lowered(to_linalg(flat_form(build({name: CASES[name]}))))


def ops_of(module: ModuleOp, kind: type) -> list:
    return [op for op in module.walk() if isinstance(op, kind)]


def test_padded_conv_is_one_generic_over_seven_loops_loading_its_taps_without_scratch():
    module = to_linalg(flat_form(build({"conv_strided": _conv_strided})))
    convs = [op for op in ops_of(module, GenericOp) if len(op.iterator_types) == 7]
    assert len(convs) == 1
    assert len(convs[0].inputs) == 1  # the weight; the input is loaded tap by tap
    body = list(convs[0].body.block.ops)
    assert any(isinstance(op, arith.DivUIOp) for op in body)  # groups: input channel from the output channel's group
    (load,) = [op for op in body if isinstance(op, memref.LoadOp)]
    assert load.memref.name_hint == "conv_strided_x"
    assert any(isinstance(op, arith.SelectOp) for op in body)  # the pad value outside the input
    assert not ops_of(module, memref.AllocaOp)
    assert not [op for op in ops_of(module, memref.ViewOp) if op.attributes.get("cfmem.tensor", None) is not None
                and op.attributes["cfmem.tensor"].data.endswith("#scratch")]


def test_scratch_is_planned_in_the_arena_at_each_op_not_allocated():
    """Each op's scratch is its own view of the arena, at the offset the plan gave it, of the
    bytes ``scratch_bytes`` says; nothing is allocated outside the arena."""
    flat = flat_form(build({"conv_depthwise": _conv_depthwise, "softmax": _softmax, "pool": _pool, "arg": _arg}))
    module = to_linalg(flat)
    assert not ops_of(module, memref.AllocaOp)
    applies = [op for op in ops_of(flat, ApplyOp) if op.scratch is not None]
    assert len(applies) == 3 + 4  # the softmaxes and the arg_max/arg_min (padded convs and pools need none)
    arena = find_function(flat).attributes["cfmem.arena_size"].value.data
    for apply in applies:
        view = apply.scratch.owner
        assert isinstance(view, memref.ViewOp) and view.source.owner.name_.string_value() == "arena_main"
        size = view.result.type.get_shape()[0]
        assert size == scratch_bytes(apply.compute) > 0
        at = view.byte_shift.owner.value.value.data
        assert at + size <= arena
    lowered_views = [op for op in ops_of(module, memref.ViewOp) if "cfmem.tensor" in op.attributes
                     and op.attributes["cfmem.tensor"].data.endswith("#scratch")]
    assert len(lowered_views) == len(applies)


def test_named_ops_where_they_match():
    module = to_linalg(flat_form(build({"matmul": _matmul, "transpose": _transpose})))
    assert len(ops_of(module, MatmulOp)) == 1  # only the plain 2-D matmul
    assert len(ops_of(module, TransposeOp)) == 2


def test_avg_pool_divides_by_the_unpadded_window_sizes():
    module = to_linalg(flat_form(build({"pool": _pool})))
    counts = {op.sym_name.data: op for op in module.ops if isinstance(op, memref.GlobalOp)
              and op.sym_name.data.startswith("avg_pool_count")}
    assert sorted(counts) == [f"avg_pool_count_{k}" for k in range(4)]
    # brute force: the taps of each window that land inside the input
    for size, kernel, stride, pad, out, dilation in [(7, 3, 2, 1, 4, 1), (6, 2, 2, 1, 4, 1), (7, 3, 1, 2, 8, 1),
                                                     (7, 2, 2, 3, 4, 4), (6, 3, 1, 1, 3, 2)]:  # fmt: skip
        want = [sum(0 <= i * stride - pad + k * dilation < size for k in range(kernel)) for i in range(out)]
        assert window_counts(size, kernel, stride, pad, out, dilation) == want


@pytest.mark.parametrize("name", MODELS)
def test_examples_lower_and_verify(name):
    module, _ = load_module(EXAMPLES / f"{name}.mlir")
    check_lowered(to_linalg(flat_form(module, dma=True)))


# --- numbers, against upstream MLIR ------------------------------------------------


@needs_mlir
@pytest.mark.parametrize("group", sorted(GROUPS))
def test_upstream_jit_matches_the_flat_interpreter(group):
    flat = flat_form(build(GROUPS[group]))
    module = to_linalg(flat)
    inputs = random_inputs(find_function(flat), seed=5)
    for name in ("cmp_x", "unary_x", "math_more_x", "logic_x", "remainders_x", "reduce_x"):  # NaN: unordered compares, max/min, sign, sums
        if name in inputs:
            inputs[name].flat[1] = np.nan
    want = run_flat(flat, inputs).outputs
    (got,) = run_mlir(str(prepare_for_jit(module)), flat, [inputs])
    assert_outputs_close(got, want)


@needs_mlir
def test_integer_condition_takes_both_branches_under_upstream_jit():
    model = build({"integer_if": _integer_if})
    flat = flat_form(model)
    base = random_inputs(find_function(model), seed=1)
    input_sets = [{**base, "integer_if_count": np.array([count], np.int64)} for count in (1, 0)]
    taken = []
    for inputs, got in zip(input_sets, run_mlir(str(prepare_for_jit(to_linalg(flat))), flat, input_sets), strict=True):
        want = run_flat(flat, inputs)
        taken += want.branches
        assert_outputs_close(run_function(model, inputs).outputs, want.outputs)
        assert_outputs_close(got, want.outputs)
    assert taken == [("if#0", True), ("if#0", False)]


@needs_mlir
@pytest.mark.parametrize("name", MODELS)
def test_examples_under_upstream_jit_match_the_flat_interpreter_on_every_branch(name, shared_examples):
    example = shared_examples(name)
    flat = flat_form(example.module, dma=True)
    text = str(prepare_for_jit(to_linalg(flat)))
    if_count = sum(isinstance(op, scf.IfOp) for op in flat.walk())
    input_sets = example.inputs
    taken = set()
    for inputs, got in zip(input_sets, run_mlir(text, flat, input_sets), strict=True):
        want = run_flat(flat, inputs)
        taken |= set(want.branches)
        assert_outputs_close(got, want.outputs)
    assert taken == {(f"if#{k}", t) for k in range(if_count) for t in (True, False)}
