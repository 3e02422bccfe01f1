"""nn-slice-weights in detail: why it refuses an op (word for word), the bytes of weight one unit
of an op needs (shown when that unit is over max-slice-bytes), the names and blob offsets of the
slices, and how a bias and per-axis weight parameters are cut with the weight."""

import re

import pytest

from cfmem.dialects.nn_compute import SliceOp
from cfmem.dialects.nn_weights import ViewOp
from cfmem.ir_io import CfmemError
from cfmem.pipeline import apply_pipeline
from test_slice_weights import Q, _bias32, _float, _ints8, _module, assert_close, outputs, parse

SLICES = "cfmem.slices = 2 : i64"
QGEMM = "a_scale = array<f32: 0.05>, a_zero_point = array<i64: 3>, b_zero_point = array<i64: 0>, trans_b = 1 : i64"


def _bare_blob(size: int, weight: str, op: str, arg: str, result: str) -> str:
    """``op`` on ``%x : arg`` and ``%k``, the whole blob reshaped to ``weight`` (a weight that is no view)."""
    return (f"nn.global @w size({size}) seed(1)\nfunc.func @main(%x: {arg}) -> {result} {{\n"
            f"  %blob = nn.get_global @w : tensor<{size}xi8>\n"
            f"  %k = nn.reshape %blob : tensor<{size}xi8> to {weight}\n  {op}\n  func.return %y : {result}\n}}")  # fmt: skip


REFUSED = {
    "qconv2d weight no view": (
        _bare_blob(36, "tensor<4x1x3x3xi8>",
                   f"%y = nn.qconv2d %x, %k {{groups = 4 : i64, {Q}, w_scale = array<f32: 0.01>, w_zero_point = array<i64: 0>, {SLICES}}} : (tensor<1x4x5x5xi8>, tensor<4x1x3x3xi8>) -> tensor<1x4x3x3xi8>",
                   "tensor<1x4x5x5xi8>", "tensor<1x4x3x3xi8>"),
        "nn.qconv2d", "its weight is not a view of a blob"),  # fmt: skip
    "qgemm weight no view": (
        _bare_blob(30, "tensor<5x6xi8>",
                   f"%y = nn.qgemm %x, %k {{{QGEMM}, b_scale = array<f32: 0.01>, {SLICES}}} : (tensor<2x6xi8>, tensor<5x6xi8>) -> tensor<2x5xf32>",
                   "tensor<2x6xi8>", "tensor<2x5xf32>"),
        "nn.qgemm", "its weight is not a view of a blob"),  # fmt: skip
    "conv2d weight an input": (
        _module([("b", _float(5), "f32")], [("x", (1, 3, 4, 4), "f32"), ("k", (5, 3, 1, 1), "f32")],
                f"%y = nn.conv2d %x, %k, %b {{{SLICES}}} : (tensor<1x3x4x4xf32>, tensor<5x3x1x1xf32>, tensor<5xf32>) -> tensor<1x5x4x4xf32>",
                "tensor<1x5x4x4xf32>"),
        "nn.conv2d", "its weight operand is not a weight"),  # fmt: skip
    "gemm b an input": (
        _module([("b", _float(4), "f32")], [("x", (3, 9), "f32"), ("k", (9, 4), "f32")],
                f"%y = nn.gemm %x, %k, %b {{{SLICES}}} : (tensor<3x9xf32>, tensor<9x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>",
                "tensor<3x4xf32>"),
        "nn.gemm", "its b operand is not a weight"),  # fmt: skip
    "qgemm b an input": (
        _module([("b", _bias32(5), "i32")], [("x", (2, 6), "i8"), ("k", (5, 6), "i8")],
                f"%y = nn.qgemm %x, %k, %b {{{QGEMM}, b_scale = array<f32: 0.01>, {SLICES}}} : (tensor<2x6xi8>, tensor<5x6xi8>, tensor<5xi32>) -> tensor<2x5xf32>",
                "tensor<2x5xf32>"),
        "nn.qgemm", "its b operand is not a weight"),  # fmt: skip
    "qgemm without trans_b": (
        _module([("k", _ints8(6, 5), "i8")], [("x", (2, 6), "i8")],
                f"%y = nn.qgemm %x, %k {{{QGEMM.replace('1 : i64', '0 : i64')}, b_scale = array<f32: 0.01>, {SLICES}}} : (tensor<2x6xi8>, tensor<6x5xi8>) -> tensor<2x5xf32>",
                "tensor<2x5xf32>"),
        "nn.qgemm", "its weight [K, N] is not trans_b: its N columns are not contiguous, and K slices would need"
                    " int32 partial sums before requantizing"),  # fmt: skip
    "matmul of a 3-D weight": (
        _module([("k", _float(2, 4, 5), "f32")], [("x", (2, 3, 4), "f32")],
                f"%y = nn.matmul %x, %k {{{SLICES}}} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>",
                "tensor<2x3x5xf32>"),
        "nn.matmul", "its rhs is not a 2-D weight"),  # fmt: skip
    "gemm bias rows of a weight": (
        _module([("k", _float(5, 9), "f32"), ("b", _float(2, 5), "f32")], [("x", (2, 9), "f32")],
                f"%y = nn.gemm %x, %k, %b {{trans_b = true, {SLICES}}} : (tensor<2x9xf32>, tensor<5x9xf32>, tensor<2x5xf32>) -> tensor<2x5xf32>",
                "tensor<2x5xf32>"),
        "nn.gemm", "its bias [2, 5] is a weight whose columns are not contiguous"),  # fmt: skip
}


@pytest.mark.parametrize("case", REFUSED)
def test_the_reason_an_op_is_not_sliced(case):
    text, op, why = REFUSED[case]
    with pytest.raises(CfmemError) as err:
        apply_pipeline(parse(text), "nn-slice-weights")
    assert str(err.value) == f"error: '{op}' defining %y in @main: cannot slice its weight: {why}"


def _gemm_t(bias: tuple[int, ...], bias_weight: bool = True) -> str:
    """A gemm with trans_b of a weight [5, 9] (36 bytes a row) and a bias of shape ``bias``,
    a weight or an input."""
    ty = f"tensor<{'x'.join(map(str, bias))}xf32>"
    weights, args = [("k", _float(5, 9), "f32")], [("x", (2, 9), "f32")]
    if bias_weight:
        weights.append(("b", _float(*bias), "f32"))
    else:
        args.append(("b", bias, "f32"))
    body = f"%y = nn.gemm %x, %k, %b {{trans_b = true}} : (tensor<2x9xf32>, tensor<5x9xf32>, {ty}) -> tensor<2x5xf32>"
    return _module(weights, args, body, "tensor<2x5xf32>")


OVER_BUDGET = {
    "conv2d groups": (
        _module([("k", _float(6, 2, 3, 3), "f32")], [("x", (1, 6, 5, 5), "f32")],
                "%y = nn.conv2d %x, %k {groups = 3 : i64} : (tensor<1x6x5x5xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x3x3xf32>",
                "tensor<1x6x3x3xf32>"),
        "nn.conv2d", "group", 2 * 2 * 3 * 3 * 4, 3),  # fmt: skip
    "matmul": (
        _module([("k", _float(8, 5), "f32")], [("x", (2, 3, 8), "f32")],
                "%y = nn.matmul %x, %k : (tensor<2x3x8xf32>, tensor<8x5xf32>) -> tensor<2x3x5xf32>", "tensor<2x3x5xf32>"),
        "nn.matmul", "row", 5 * 4, 8),  # fmt: skip
    "gemm with a weight bias": (  # the bias is read whole by the first slice
        _module([("k", _float(9, 4), "f32"), ("b", _float(4), "f32")], [("x", (3, 9), "f32")],
                "%y = nn.gemm %x, %k, %b : (tensor<3x9xf32>, tensor<9x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>",
                "tensor<3x4xf32>"),
        "nn.gemm", "row", 4 * 4 + 4 * 4, 9),  # fmt: skip
    "gemm trans_b, bias of a row each": (_gemm_t((5,)), "nn.gemm", "row", 36 + 4, 5),
    "gemm trans_b, bias broadcast to every row": (_gemm_t((1,)), "nn.gemm", "row", 36 + 4, 5),
    "gemm trans_b, bias an input": (_gemm_t((2, 5), bias_weight=False), "nn.gemm", "row", 36, 5),
    "qgemm without bias": (
        _module([("k", _ints8(5, 6), "i8")], [("x", (2, 6), "i8")],
                f"%y = nn.qgemm %x, %k {{{QGEMM}, b_scale = array<f32: 0.01>}} : (tensor<2x6xi8>, tensor<5x6xi8>) -> tensor<2x5xf32>",
                "tensor<2x5xf32>"),
        "nn.qgemm", "row", 6, 5),  # fmt: skip
}


def _slices(module) -> list[str]:
    """The names of the slices of ``%y``, in order."""
    return [o.results[0].name_hint for o in module.walk() if o.results and re.fullmatch(r"y_s\d+", o.results[0].name_hint or "")]


@pytest.mark.parametrize("case", OVER_BUDGET)
def test_a_unit_over_the_budget_is_named_with_its_bytes(case, capfd):
    """One unit's bytes are its weight operands' bytes: a sliced bias's share, or all of a bias
    every slice reads; an input bias is no weight and counts nothing."""
    text, op, unit, needs, units = OVER_BUDGET[case]
    module = parse(text)
    apply_pipeline(module, f"nn-slice-weights{{max-slice-bytes={needs - 1}}}")
    assert capfd.readouterr().err == (
        f"warning: nn-slice-weights: '{op}' defining %y in @main: one {unit} needs {needs} bytes of weights,"
        f" more than max-slice-bytes {needs - 1}: one {unit} per slice\n"
    )
    assert _slices(module) == [f"y_s{k}" for k in range(units)]
    module = parse(text)
    apply_pipeline(module, f"nn-slice-weights{{max-slice-bytes={needs}}}")  # one unit a slice, no warning
    assert capfd.readouterr().err == ""
    assert _slices(module) == [f"y_s{k}" for k in range(units)]


SAME_NUMBERS = {
    "qgemm of two per-row weight scales": (  # both scales cut with the rows
        _module([("k", _ints8(2, 6), "i8"), ("b", _bias32(2), "i32")], [("x", (3, 6), "i8")],
                f"%y = nn.qgemm %x, %k, %b {{{QGEMM.replace('b_zero_point = array<i64: 0>', 'b_zero_point = array<i64: 1, -2>')}, b_scale = array<f32: 0.01, 0.03>, element = i8, y_scale = array<f32: 0.3>, y_zero_point = array<i64: 1>, {SLICES}}} : (tensor<3x6xi8>, tensor<2x6xi8>, tensor<2xi32>) -> tensor<3x2xi8>",
                "tensor<3x2xi8>"), True),  # fmt: skip
    "qconv2d of two per-channel weight scales": (
        _module([("k", _ints8(2, 3, 3, 3), "i8"), ("b", _bias32(2), "i32")], [("x", (1, 3, 5, 5), "i8")],
                f"%y = nn.qconv2d %x, %k, %b {{{Q}, w_scale = array<f32: 0.01, 0.02>, w_zero_point = array<i64: 2, -1>, {SLICES}}} : (tensor<1x3x5x5xi8>, tensor<2x3x3x3xi8>, tensor<2xi32>) -> tensor<1x2x3x3xi8>",
                "tensor<1x2x3x3xi8>"), True),  # fmt: skip
    "gemm trans_b, bias of two rows": (
        _module([("k", _float(2, 9), "f32"), ("b", _float(2), "f32")], [("x", (3, 9), "f32")],
                f"%y = nn.gemm %x, %k, %b {{trans_b = true, {SLICES}}} : (tensor<3x9xf32>, tensor<2x9xf32>, tensor<2xf32>) -> tensor<3x2xf32>",
                "tensor<3x2xf32>"), False),  # fmt: skip
    "gemm trans_b, bias [1, N]": (
        _module([("k", _float(5, 9), "f32"), ("b", _float(1, 5), "f32")], [("x", (3, 9), "f32")],
                f"%y = nn.gemm %x, %k, %b {{trans_b = true, {SLICES}}} : (tensor<3x9xf32>, tensor<5x9xf32>, tensor<1x5xf32>) -> tensor<3x5xf32>",
                "tensor<3x5xf32>"), False),  # fmt: skip
    "gemm trans_b, scalar bias": (
        _module([("k", _float(5, 9), "f32"), ("b", _float(1), "f32")], [("x", (3, 9), "f32")],
                f"%y = nn.gemm %x, %k, %b {{trans_b = true, {SLICES}}} : (tensor<3x9xf32>, tensor<5x9xf32>, tensor<1xf32>) -> tensor<3x5xf32>",
                "tensor<3x5xf32>").replace("tensor<1xf32>", "tensor<f32>"), False),  # fmt: skip
}


@pytest.mark.parametrize("case", SAME_NUMBERS)
def test_sliced_bias_and_scales_compute_what_the_op_computes(case):
    text, exact = SAME_NUMBERS[case]
    original = parse(text.replace(f", {SLICES}", ""))
    module = parse(text)
    apply_pipeline(module, "nn-slice-weights")
    assert _slices(module) == ["y_s0", "y_s1"]
    for seed in (1, 2):
        want, got = outputs(original, seed), outputs(module, seed)
        for key in want:
            assert_close(got[key], want[key], exact)


def _views(module) -> dict[str, tuple[int, tuple[int, ...]]]:
    return {o.result.name_hint: (o.offset.value.data, tuple(o.result.type.get_shape())) for o in module.walk() if isinstance(o, ViewOp)}


def test_slices_are_named_for_their_op_and_weight_and_read_their_bytes():
    """Names show in the printed module and in reports, and nn-roll-slices counts their slice
    numbers to name a rolled loop's tensors."""
    text = _module([("k", _float(6, 2, 3, 3), "f32"), ("b", _float(6), "f32")], [("x", (1, 6, 5, 5), "f32")],
                   f"%y = nn.conv2d %x, %k, %b {{groups = 3 : i64, {SLICES}}} : (tensor<1x6x5x5xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<1x6x3x3xf32>",
                   "tensor<1x6x3x3xf32>")  # fmt: skip
    module = parse(text)
    apply_pipeline(module, "nn-slice-weights")
    group = 2 * 2 * 3 * 3 * 4  # bytes of one group's weight; the bias at 448, the next 64-byte boundary
    assert _views(module) == {"k_s0": (0, (4, 2, 3, 3)), "k_s1": (2 * group, (2, 2, 3, 3)),
                              "b_s0": (448, (4,)), "b_s1": (448 + 4 * 4, (2,))}  # fmt: skip
    assert [o.result.name_hint for o in module.walk() if isinstance(o, SliceOp)] == ["y_s0_in", "y_s1_in"]
    text = _module([("k", _float(9, 4), "f32"), ("b", _float(4), "f32")], [("x", (3, 9), "f32")],
                   f"%y = nn.gemm %x, %k, %b {{cfmem.slices = 3 : i64}} : (tensor<3x9xf32>, tensor<9x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>",
                   "tensor<3x4xf32>")  # fmt: skip
    module = parse(text)
    apply_pipeline(module, "nn-slice-weights")
    row = 4 * 4
    assert _views(module) == {"k_s0": (0, (3, 4)), "k_s1": (3 * row, (3, 4)), "k_s2": (6 * row, (3, 4)), "b": (192, (4,))}
    assert [o.result.name_hint for o in module.walk() if isinstance(o, SliceOp)] == ["y_s0_in", "y_s1_in", "y_s2_in"]
    # the bias is added once, by the first slice: the partial sums run (x0 k0 + b) + x1 k1 + x2 k2
    parts = [(o.name, [v.name_hint for v in o.operands]) for o in module.walk() if o.results and o.results[0].name_hint in ("y_s0", "y_s1", "y_s2")]
    assert parts == [("nn.gemm", ["y_s0_in", "k_s0", "b"]), ("nn.matmul", ["y_s1_in", "k_s1"]), ("nn.matmul", ["y_s2_in", "k_s2"])]
