"""The quantized kernels against independent computations: Python integers for the exact
parts and float32 roundings done exactly on fractions (nearest, ties to even) for the
others, on the corners that models do not reach: rank-0 tensors, accumulators past int32
and past 2**24, values far outside the element type, zero points at the type's limits
and of unusual rank, products whose float32 rounding decides a half."""

from __future__ import annotations

import itertools
import math
import re
from fractions import Fraction

import numpy as np
import pytest

from cfmem.interp import kernels
from cfmem.interp.kernels.quantized import _fma32
from cfmem.ir_io import parse_module


def nn_op(op: str, operand_types: list[str], result_type: str):
    """The op ``op`` (name, operands %a0, %a1 ..., properties) verified in a function of
    arguments of ``operand_types``."""
    args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(operand_types))
    text = f"func.func @f({args}) {{\n  %r = {op} : ({', '.join(operand_types)}) -> {result_type}\n  func.return\n}}"
    module, _ = parse_module(text)
    return next(o for o in module.walk() if o.name.startswith("nn."))


def f32s(*values: float) -> str:
    """An ``array<f32: ...>`` of float32 values, printed so that they parse back exactly."""
    return "array<f32: " + ", ".join(repr(float(np.float32(v))) for v in values) + ">"


def exact(value) -> Fraction:
    return Fraction(float(value))


def f32(q: Fraction) -> Fraction:
    """``q`` rounded to float32 (nearest, ties to even), exactly; no overflow to infinity."""
    if q == 0:
        return Fraction(0)
    mag = abs(q)
    e = mag.numerator.bit_length() - mag.denominator.bit_length()
    if Fraction(2) ** e > mag:
        e -= 1  # 2**e <= |q| < 2**(e+1)
    ulp = Fraction(2) ** (max(e, -126) - 23)
    return (1 if q > 0 else -1) * round(mag / ulp) * ulp


def saturated(q: Fraction | float, zero_point: int, dtype) -> int:
    """round_half_even(q) + zero_point clamped to ``dtype``, in Python integers (±inf clamp)."""
    info = np.iinfo(dtype)
    if isinstance(q, float) and math.isinf(q):
        return info.min if q < 0 else info.max
    return min(max(round(Fraction(q)) + zero_point, info.min), info.max)


def int32_wrap(value: int) -> int:
    """``value`` in a two's complement int32 accumulator."""
    return (value + 2**31) % 2**32 - 2**31


def all_values(dtype) -> np.ndarray:
    info = np.iinfo(dtype)
    return np.arange(info.min, info.max + 1).astype(dtype)


def test_the_float32_reference_rounds_as_numpy():
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal(200).astype(np.float32), rng.standard_normal(200).astype(np.float32)
    for x, y in zip(a, b):
        assert f32(exact(x) * exact(y)) == exact(x * y)
        assert f32(exact(x) / exact(y)) == exact(x / y)


# --- conversions ----------------------------------------------------------------------------


def test_rank_zero_tensors_stay_rank_zero():
    """One-element parameters broadcast as scalars: a rank-0 tensor keeps its shape ()."""
    x = np.array(-7.25, np.float32)
    quantize = nn_op(f"nn.quantize %a0 {{element = i8, y_scale = {f32s(0.5)}, y_zero_point = array<i64: 3>}}",
                     ["tensor<f32>"], "tensor<i8>")  # fmt: skip
    got = kernels.quantize(quantize, x)
    assert got.shape == () and got.dtype == np.int8 and int(got) == saturated(f32(exact(x) / Fraction(1, 2)), 3, np.int8)

    q = np.array(-100, np.int8)
    dequantize = nn_op(f"nn.dequantize %a0 {{x_scale = {f32s(0.1)}, x_zero_point = array<i64: 27>}}",
                       ["tensor<i8>"], "tensor<f32>")  # fmt: skip
    got = kernels.dequantize(dequantize, q)
    assert got.shape == () and got.dtype == np.float32 and exact(got) == f32(-127 * exact(np.float32(0.1)))

    a, b = np.array(100, np.int8), np.array(-90, np.int8)
    params = f"a_scale = {f32s(0.5)}, a_zero_point = array<i64: 4>, b_scale = {f32s(0.25)}, b_zero_point = array<i64: -6>"
    qmul = nn_op(f"nn.qmul %a0, %a1 {{element = i8, {params}, y_scale = {f32s(16)}, y_zero_point = array<i64: -5>}}",
                 ["tensor<i8>", "tensor<i8>"], "tensor<i8>")  # fmt: skip
    got = kernels.qmul(qmul, a, b)
    assert got.shape == () and got.dtype == np.int8
    assert int(got) == saturated(f32(96 * -84 * f32(Fraction(1, 8) / 16)), -5, np.int8)


@pytest.mark.parametrize("element,zero_points", [("i8", (-128, -1, 0, 127)), ("ui8", (0, 1, 255))])
def test_quantize_saturates_values_past_every_integer(element, zero_points):
    """Infinities, values past int32 and int64, and NaN (the minimum) saturate for zero points
    at the type's limits too."""
    dtype = np.int8 if element == "i8" else np.uint8
    big = [np.inf, 1e30, 2.0**63, 2.0**31 + 5, 3e9, 2.0**31, 1e6, 300.0, 130.5, 127.5, 0.5]
    values = [0.0, -0.0, 1.5, -1.5, 2.5, -2.5, *big, *(-v for v in big)]
    x = np.array(values, np.float32)
    for zp in zero_points:
        op = nn_op(f"nn.quantize %a0 {{element = {element}, y_scale = {f32s(1)}, y_zero_point = array<i64: {zp}>}}",
                   [f"tensor<{len(values)}xf32>"], f"tensor<{len(values)}x{element}>")  # fmt: skip
        got = kernels.quantize(op, x)
        assert got.dtype == dtype
        assert got.tolist() == [saturated(float(v), zp, dtype) for v in x], zp
        nan = kernels.quantize(op, np.array([np.nan], np.float32))
        assert nan.tolist() == [np.iinfo(dtype).min]


# --- table lookups --------------------------------------------------------------------------


@pytest.mark.parametrize("source,element", list(itertools.product(["i8", "ui8"], repeat=2)))
def test_qlookup_reads_the_entry_of_each_input_counted_from_the_lowest(source, element):
    """Element q becomes table[q - lowest], lowest -128 for i8 and 0 for ui8 inputs."""
    rng = np.random.default_rng(5)
    src, dst = (np.int8 if t == "i8" else np.uint8 for t in (source, element))
    info = np.iinfo(dst)
    table = [int(v) for v in rng.integers(info.min, info.max + 1, 256)]
    x = rng.permutation(all_values(src)).reshape(16, 16)
    op = nn_op(f"nn.qlookup %a0 {{table = array<i64: {', '.join(map(str, table))}>, element = {element}}}",
               [f"tensor<16x16x{source}>"], f"tensor<16x16x{element}>")  # fmt: skip
    got = kernels.qlookup(op, x)
    assert got.dtype == dst and got.shape == x.shape
    lowest = -128 if source == "i8" else 0
    assert got.tolist() == [[table[int(q) - lowest] for q in row] for row in x]


# --- integer products -----------------------------------------------------------------------


def matmul_ints(a, b, za: int, zb: int) -> list[list[int]]:
    return [[int32_wrap(sum((int(p) - za) * (int(q) - zb) for p, q in zip(row, col))) for col in b.T] for row in a]


@pytest.mark.parametrize("zero_shape", [(), (1,), (1, 1, 1)])
def test_matmul_integer_centres_both_operands_by_zero_points_of_any_rank(zero_shape):
    """A one-element zero point of any rank is a scalar: the result keeps the operands' rank."""
    rng = np.random.default_rng(6)
    a, b = all_values(np.int8)[rng.integers(0, 256, (3, 5))], all_values(np.uint8)[rng.integers(0, 256, (5, 4))]
    shape = "x".join(map(str, zero_shape))
    za, zb = np.full(zero_shape, -128, np.int8), np.full(zero_shape, 255, np.uint8)
    op = nn_op("nn.matmul_integer %a0, %a1, %a2, %a3",
               ["tensor<3x5xi8>", "tensor<5x4xui8>", f"tensor<{shape}{'x' if shape else ''}i8>",
                f"tensor<{shape}{'x' if shape else ''}ui8>"], "tensor<3x4xi32>")  # fmt: skip
    got = kernels.matmul_integer(op, a, b, za, zb)
    assert got.dtype == np.int32 and got.tolist() == matmul_ints(a, b, -128, 255)


@pytest.mark.parametrize("element,value,zero_point", [("ui8", 255, 0), ("i8", -128, 127)])
def test_matmul_integer_wraps_an_accumulator_past_int32(element, value, zero_point):
    """33027 products of 255 * 255 (or -255 * 255) pass int32's range by a little: the int32
    accumulator wraps around, as a two's complement sum."""
    k = 33027
    dtype = np.int8 if element == "i8" else np.uint8
    a = np.full((1, k), value, dtype)
    b = np.full((k, 2), 255, np.uint8)
    b[:, 1] = 0
    za, zb = np.array([zero_point], dtype), np.array([0], np.uint8)
    op = nn_op("nn.matmul_integer %a0, %a1, %a2, %a3",
               [f"tensor<1x{k}x{element}>", f"tensor<{k}x2xui8>", f"tensor<1x{element}>", "tensor<1xui8>"],
               "tensor<1x2xi32>")  # fmt: skip
    centred = value - zero_point
    want = [[int32_wrap(k * centred * 255), 0]]
    assert abs(k * centred * 255) > 2**31 and want[0][0] != k * centred * 255
    with np.errstate(all="ignore"):
        got = kernels.matmul_integer(op, a, b, za, zb)
    assert got.dtype == np.int32 and got.tolist() == want


def conv_ints(x, w, zx: int, zw: int, strides, pads, dilations, groups) -> list:
    """ONNX ConvInteger in Python integers: padding is the input's zero point (0 once centred)."""
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    (sh, sw), (pt, pl, pb, pr), (dh, dw) = strides, pads, dilations
    oh, ow = (h + pt + pb - dh * (kh - 1) - 1) // sh + 1, (wd + pl + pr - dw * (kw - 1) - 1) // sw + 1
    og = o // groups

    def centred(ch, i, j):
        return int(x[0, ch, i, j]) - zx if 0 <= i < h and 0 <= j < wd else 0

    return [[[[int32_wrap(sum(centred((oc // og) * cg + ci, r * sh + p * dh - pt, s * sw + q * dw - pl)
                              * (int(w[oc, ci, p, q]) - zw)
                              for ci, p, q in itertools.product(range(cg), range(kh), range(kw))))
               for s in range(ow)] for r in range(oh)] for oc in range(o)]]  # fmt: skip


@pytest.mark.parametrize("source", ["i8", "ui8"])
def test_conv_integer_pads_with_the_input_zero_point(source):
    rng = np.random.default_rng(7)
    dtype = np.int8 if source == "i8" else np.uint8
    x, w = all_values(dtype)[rng.integers(0, 256, (1, 4, 5, 6))], all_values(np.int8)[rng.integers(0, 256, (6, 2, 3, 2))]
    zx = 127 if source == "i8" else 255
    strides, pads, dilations, groups = (2, 1), (1, 2, 0, 1), (1, 2), 2
    op = nn_op("nn.conv_integer %a0, %a1, %a2, %a3 {strides = array<i64: 2, 1>, pads = array<i64: 1, 2, 0, 1>,"
               " dilations = array<i64: 1, 2>, groups = 2 : i64}",
               [f"tensor<1x4x5x6x{source}>", "tensor<6x2x3x2xi8>", f"tensor<{source}>", "tensor<i8>"],
               "tensor<1x6x2x7xi32>")  # fmt: skip
    got = kernels.conv_integer(op, x, w, np.array(zx, dtype), np.array(-128, np.int8))
    assert got.dtype == np.int32
    assert got.tolist() == conv_ints(x, w, zx, -128, strides, pads, dilations, groups)


def test_conv_integer_takes_zero_points_of_any_rank():
    x, w = np.arange(9, dtype=np.uint8).reshape(1, 1, 3, 3), np.array([[[[1, -1], [2, -2]]]], np.int8)
    op = nn_op("nn.conv_integer %a0, %a1, %a2, %a3",
               ["tensor<1x1x3x3xui8>", "tensor<1x1x2x2xi8>", "tensor<1x1x1x1x1xui8>", "tensor<1xi8>"],
               "tensor<1x1x2x2xi32>")  # fmt: skip
    got = kernels.conv_integer(op, x, w, np.full((1, 1, 1, 1, 1), 4, np.uint8), np.array([1], np.int8))
    assert got.tolist() == conv_ints(x, w, 4, 1, (1, 1), (0, 0, 0, 0), (1, 1), 1)


def test_conv_integer_wraps_an_accumulator_past_int32():
    k = 33027
    x, w = np.full((1, k, 1, 1), 255, np.uint8), np.full((1, k, 1, 1), 255, np.uint8)
    op = nn_op("nn.conv_integer %a0, %a1, %a2, %a3",
               [f"tensor<1x{k}x1x1xui8>", f"tensor<1x{k}x1x1xui8>", "tensor<1xui8>", "tensor<1xui8>"],
               "tensor<1x1x1x1xi32>")  # fmt: skip
    with np.errstate(all="ignore"):
        got = kernels.conv_integer(op, x, w, np.array([0], np.uint8), np.array([0], np.uint8))
    assert got.dtype == np.int32 and got.tolist() == [[[[int32_wrap(k * 255 * 255)]]]]


# --- requantization -------------------------------------------------------------------------

RATIO = np.float32(0.7287581562995911)
"""A scale whose float32 product with the accumulators ±153 rounds onto a half (111.5 rounded
to even, 111), while its exact product lies above it."""


def requantized(acc: int, ratio: Fraction, zero_point: int, dtype) -> int:
    """float32(acc) times the float32 ratio, rounded to float32, then saturated."""
    return saturated(f32(f32(Fraction(acc)) * ratio), zero_point, dtype)


def test_the_requantizing_product_is_rounded_to_float32_before_rounding_to_an_integer():
    """QLinearConv, QGemm and QLinearMul multiply the accumulator by the ratio of scales in
    float32; a product just above a half that float32 rounds onto it rounds to even."""
    assert exact(np.float32(153) * RATIO) == Fraction(223, 2) != 153 * exact(RATIO)
    x = all_values(np.int8)
    ratio = f32(f32(exact(RATIO) * 1) / 1)
    want = [[requantized(m * int(v), ratio, 0, np.int8) for v in x] for m in (1, 2, 3)]  # acc x, 2x, 3x

    conv = nn_op(f"nn.qconv2d %a0, %a1 {{element = i8, x_scale = {f32s(1)}, x_zero_point = array<i64: 0>,"
                 f" w_scale = {f32s(RATIO)}, w_zero_point = array<i64: 0>, y_scale = {f32s(1)}, y_zero_point = array<i64: 0>}}",
                 ["tensor<1x1x1x256xi8>", "tensor<3x1x1x1xi8>"], "tensor<1x3x1x256xi8>")  # fmt: skip
    got = kernels.qconv2d(conv, x.reshape(1, 1, 1, 256), np.array([1, 2, 3], np.int8).reshape(3, 1, 1, 1))
    assert got.dtype == np.int8 and got.reshape(3, 256).tolist() == want

    gemm = nn_op(f"nn.qgemm %a0, %a1 {{a_scale = {f32s(RATIO)}, a_zero_point = array<i64: 0>, b_scale = {f32s(1)},"
                 f" b_zero_point = array<i64: 0>, element = i8, y_scale = {f32s(1)}, y_zero_point = array<i64: 0>}}",
                 ["tensor<256x1xi8>", "tensor<1x3xi8>"], "tensor<256x3xi8>")  # fmt: skip
    got = kernels.qgemm(gemm, x.reshape(256, 1), np.array([[1, 2, 3]], np.int8))
    assert got.dtype == np.int8 and got.T.tolist() == want

    params = f"a_scale = {f32s(RATIO)}, a_zero_point = array<i64: 0>, b_scale = {f32s(1)}, b_zero_point = array<i64: 0>"
    mul = nn_op(f"nn.qmul %a0, %a1 {{element = i8, {params}, y_scale = {f32s(1)}, y_zero_point = array<i64: 0>}}",
                ["tensor<256x1xi8>", "tensor<1x3xi8>"], "tensor<256x3xi8>")  # fmt: skip
    got = kernels.qmul(mul, x.reshape(256, 1), np.array([[1, 2, 3]], np.int8))
    assert got.dtype == np.int8 and got.T.tolist() == want


@pytest.mark.parametrize("channels", [2, 3])
def test_qconv2d_scales_each_output_channel_by_its_own_ratio(channels):
    """Per-channel weight scales (two channels too), a bias and zero points at the type's limits."""
    rng = np.random.default_rng(8)
    x, w = all_values(np.uint8)[rng.integers(0, 256, (1, 2, 4, 4))], all_values(np.int8)[rng.integers(0, 256, (channels, 2, 3, 3))]
    bias = rng.integers(-(2**16), 2**16, channels).astype(np.int32)
    w_scales = [np.float32(s) for s in rng.uniform(0.001, 0.005, channels)]
    op = nn_op(f"nn.qconv2d %a0, %a1, %a2 {{pads = array<i64: 1, 1, 1, 1>, element = ui8, x_scale = {f32s(0.05)},"
               f" x_zero_point = array<i64: 255>, w_scale = {f32s(*w_scales)}, w_zero_point = array<i64: {', '.join(['0'] * channels)}>,"
               f" y_scale = {f32s(0.3)}, y_zero_point = array<i64: 128>}}",
               ["tensor<1x2x4x4xui8>", f"tensor<{channels}x2x3x3xi8>", f"tensor<{channels}xi32>"],
               f"tensor<1x{channels}x4x4xui8>")  # fmt: skip
    got = kernels.qconv2d(op, x, w, bias)
    acc = conv_ints(x, w, 255, 0, (1, 1), (1, 1, 1, 1), (1, 1), 1)[0]
    ratios = [f32(f32(exact(np.float32(0.05)) * exact(s)) / exact(np.float32(0.3))) for s in w_scales]
    want = [[[requantized(v + int(bias[c]), ratios[c], 128, np.uint8) for v in row] for row in acc[c]] for c in range(channels)]
    assert got.dtype == np.uint8 and got[0].tolist() == want
    assert len({v for plane in want for row in plane for v in row}) > 20  # not all saturated


def test_qgemm_with_a_float_result_rounds_the_accumulator_to_float32_first():
    """Past 2**24 the accumulator itself is rounded to float32 before it is scaled (onnxruntime
    converts the int32 sum); the exact product rounded once differs."""
    c = np.array([2**24 + 1, 2**24 + 3, -(2**25) - 5, 1000], np.int32)
    op = nn_op(f"nn.qgemm %a0, %a1, %a2 {{a_scale = {f32s(1.5)}, a_zero_point = array<i64: -128>, b_scale = {f32s(2)},"
               f" b_zero_point = array<i64: 127>}}",
               ["tensor<2x1xi8>", "tensor<1x4xi8>", "tensor<4xi32>"], "tensor<2x4xf32>")  # fmt: skip
    a, b = np.array([[-128], [127]], np.int8), np.array([[127, 127, 127, -128]], np.int8)
    got = kernels.qgemm(op, a, b, c)
    acc = [[(int(p) + 128) * (int(q) - 127) + int(r) for q, r in zip(b[0], c)] for p in a[:, 0]]
    want = [[f32(f32(Fraction(v)) * 3) for v in row] for row in acc]
    assert got.dtype == np.float32 and [[exact(v) for v in row] for row in got] == want
    assert f32(f32(Fraction(2**24 + 1)) * 3) != f32(Fraction(2**24 + 1) * 3)


# --- elementwise ----------------------------------------------------------------------------


def test_fma32_rounds_once_to_float32():
    """a * b + c exactly, then one rounding to float32 (not two)."""
    a = np.array([1 + 2.0**-12, 3.0, -7.0], np.float32)
    b, c = np.float32(1 + 2.0**-12), np.float32(-1.0)
    got = _fma32(a, b, c)
    want = [f32(exact(v) * exact(b) + exact(c)) for v in a]
    assert got.dtype == np.float32 and [exact(v) for v in got] == want
    assert want[0] != f32(f32(exact(a[0]) * exact(b)) + exact(c))


def qadd_reference(params: dict, dtype):
    """onnxruntime's x86 QLinearAdd as a function of the two inputs: a * ratio_a + (b * ratio_b
    + fixed) in fused float32 multiply-adds, fixed = zp_y - (ratio_a * zp_a + ratio_b * zp_b)."""
    s = {p: exact(np.float32(params[f"{p}_scale"])) for p in "aby"}
    z = {p: params[f"{p}_zero_point"] for p in "aby"}
    ratio_a, ratio_b = f32(s["a"] / s["y"]), f32(s["b"] / s["y"])
    fixed = f32(z["y"] - f32(ratio_a * z["a"] + f32(ratio_b * z["b"])))
    return lambda a, b: saturated(f32(a * ratio_a + f32(b * ratio_b + fixed)), 0, dtype)


@pytest.mark.parametrize("element,zero_points", [("i8", (-128, 127, 0)), ("ui8", (255, 0, 128))])
def test_qadd_saturates_at_both_ends(element, zero_points):
    dtype = np.int8 if element == "i8" else np.uint8
    params = {"a_scale": 0.2, "b_scale": 0.3, "y_scale": 0.05,
              "a_zero_point": zero_points[0], "b_zero_point": zero_points[1], "y_zero_point": zero_points[2]}  # fmt: skip
    props = ", ".join(f"{k} = {f32s(v) if k.endswith('scale') else f'array<i64: {v}>'}" for k, v in params.items())
    a = all_values(dtype)[::3].reshape(-1, 1)
    b = all_values(dtype)[::17].reshape(1, -1)
    m, n = a.shape[0], b.shape[1]
    op = nn_op(f"nn.qadd %a0, %a1 {{element = {element}, {props}}}",
               [f"tensor<{m}x1x{element}>", f"tensor<1x{n}x{element}>"], f"tensor<{m}x{n}x{element}>")  # fmt: skip
    got = kernels.qadd(op, a, b)
    reference = qadd_reference(params, dtype)
    want = [[reference(int(p), int(q)) for q in b[0]] for p in a[:, 0]]
    assert got.dtype == dtype and got.tolist() == want
    flat = [v for row in want for v in row]
    assert np.iinfo(dtype).min in flat and np.iinfo(dtype).max in flat


QCONCAT_SCALE, QCONCAT_Y_SCALE = np.float32(0.6972295045852661), np.float32(0.6828040480613708)
"""Scales for which (x - zp) * s / y_scale of x - zp = ±71 rounds onto 72.5 in float32 only."""


def test_qconcat_requantizes_each_input_in_float32():
    """Each input's (x - zp) * x_scale / y_scale in float32 operations, rounded to even."""
    x = all_values(np.int8)
    op = nn_op(f"nn.qconcat %a0, %a1 {{element = i8, axis = 0 : i64, x_scale = {f32s(QCONCAT_SCALE, 0.5)},"
               f" x_zero_point = array<i64: 0, -128>, y_scale = {f32s(QCONCAT_Y_SCALE)}, y_zero_point = array<i64: 1>}}",
               ["tensor<256xi8>", "tensor<256xi8>"], "tensor<512xi8>")  # fmt: skip
    got = kernels.qconcat(op, x, x)
    y = exact(QCONCAT_Y_SCALE)
    want = [saturated(f32(f32((int(v) - zp) * exact(s)) / y), 1, np.int8)
            for zp, s in ((0, QCONCAT_SCALE), (-128, np.float32(0.5))) for v in x]  # fmt: skip
    assert got.dtype == np.int8 and got.tolist() == want
    assert f32(f32(71 * exact(QCONCAT_SCALE)) / y) == Fraction(145, 2)


def test_qconcat_refuses_a_number_of_inputs_other_than_its_parameters():
    op = nn_op(f"nn.qconcat %a0, %a1 {{element = i8, axis = 0 : i64, x_scale = {f32s(0.1, 0.2)},"
               f" x_zero_point = array<i64: 0, 0>, y_scale = {f32s(0.1)}, y_zero_point = array<i64: 0>}}",
               ["tensor<2xi8>", "tensor<2xi8>"], "tensor<4xi8>")  # fmt: skip
    with pytest.raises(ValueError):
        kernels.qconcat(op, np.zeros(2, np.int8))


@pytest.mark.parametrize(
    ("op", "types", "result", "message"),
    [
        ("nn.quantize %a0 {element = i8, y_scale = array<f32: 0.5>, y_zero_point = array<i64: 128>}",
         ["tensor<4xf32>"], "tensor<4xi8>", "y_zero_point 128 is not a value of i8 (-128 to 127)"),
        ("nn.quantize %a0 {element = ui8, y_scale = array<f32: 0.5>, y_zero_point = array<i64: -1>}",
         ["tensor<4xf32>"], "tensor<4xui8>", "y_zero_point -1 is not a value of ui8 (0 to 255)"),
        ("nn.dequantize %a0 {x_scale = array<f32: 0.5>, x_zero_point = array<i64: 2147483648>}",
         ["tensor<4xi32>"], "tensor<4xf32>", "x_zero_point 2147483648 is not a value of i32"),
        ("nn.qadd %a0, %a1 {element = i8, a_scale = array<f32: 0.5>, a_zero_point = array<i64: 0>, b_scale = array<f32: 0.5>,"
         " b_zero_point = array<i64: -129>, y_scale = array<f32: 0.5>, y_zero_point = array<i64: 0>}",
         ["tensor<4xi8>", "tensor<4xi8>"], "tensor<4xi8>", "b_zero_point -129 is not a value of i8"),
        ("nn.qconcat %a0, %a1 {element = ui8, axis = 0 : i64, x_scale = array<f32: 0.5, 0.5>, x_zero_point = array<i64: 0, 256>,"
         " y_scale = array<f32: 0.5>, y_zero_point = array<i64: 0>}",
         ["tensor<4xui8>", "tensor<4xui8>"], "tensor<8xui8>", "x_zero_point 256 is not a value of ui8"),
    ],
    ids=["quantize-i8", "quantize-ui8", "dequantize-i32", "qadd", "qconcat"],
)
def test_a_zero_point_outside_its_tensors_type_is_refused(op, types, result, message):
    """A zero point is a value of the quantized tensor's type (ONNX stores it as one); the
    kernels saturate around it and would compute something else for one outside."""
    with pytest.raises(Exception, match=re.escape(message)):
        nn_op(op, types, result)
