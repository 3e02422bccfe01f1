"""nn-lower-to-linalg on TFLite's int8 arithmetic, bit for bit with the interpreters' kernels.

The arith builders of :mod:`cfmem.passes.linalg.fixed_point` run under the JIT on int32 values
chosen to hit every edge (INT32_MIN times INT32_MIN, ties of the rounding division at every
exponent from 0 to 31, negative remainders, left shifts that wrap) and must equal the numpy
kernels of :mod:`cfmem.interp.kernels.fixed_point`; two wrong variants (a floor instead of C's
truncating division, a plain shift instead of the rounding one) are shown to differ on the same
values. Then one module holds every TFLite op kind the lowering covers: ``nn.qgemm`` with
per-channel multipliers and shifts from -31 to 30 (the accumulator wrapping past INT32_MAX,
rounding ties) and per tensor, a padded grouped ``nn.qconv2d`` per channel, ``nn.qadd`` with
broadcasting, ``nn.quantize`` rounding halves away from zero (NaN and infinities among the
inputs) and int8 ``nn.avg_pool2d`` with pads (sums of both signs a half count off a multiple);
the JIT-run lowering, the checking flat interpreter and the reference interpreter agree on every
input set, which is checked to hold those edges, and a lowering with a truncating shift in
place of the rounding division does not. (int8 SOFTMAX's lowering is tested with its hostile
rows in ``tests/test_tflite_softmax.py``, whole models through ``cfmem check-mlir`` in
``tests/test_tflite_int8.py``.)
"""

from __future__ import annotations

import numpy as np
import pytest
from test_lower_to_linalg import flat_form, needs_mlir, to_linalg
from xdsl.builder import ImplicitBuilder
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import FunctionType, MemRefType, ModuleOp, i32, i64
from xdsl.ir import Block, Region
from xdsl.parser import Parser

from cfmem.differential import run_mlir
from cfmem.interp.flat import run_flat
from cfmem.interp.golden import run_function
from cfmem.interp.kernels import fixed_point as kernel
from cfmem.ir_io import make_context
from cfmem.mlir_check.jit import run_many_with_mlir
from cfmem.mlir_check.prepare import prepare_for_jit
from cfmem.passes.linalg import fixed_point
from cfmem.passes.linalg.helpers import generic, identity, int_const

INT32_MIN, INT32_MAX = kernel.INT32_MIN, kernel.INT32_MAX

# --- the arith builders ------------------------------------------------------------------------


def builder_operands(rng: np.random.Generator) -> dict[str, np.ndarray]:
    """int32 operands: ``a``, ``b`` for the doubling high multiply (INT32_MIN with INT32_MIN,
    extremes, random), ``e`` exponents 0..31 with ``a`` on ties and off by one for some of them,
    and ``m``, ``s`` a multiplier and a shift for ``MultiplyByQuantizedMultiplier``."""
    count = 4096
    a = rng.integers(INT32_MIN, INT32_MAX, count, endpoint=True)
    b = rng.integers(INT32_MIN, INT32_MAX, count, endpoint=True)
    extremes = np.array([INT32_MIN, INT32_MIN, INT32_MAX, INT32_MAX, 0, 1, -1, INT32_MIN, 1 << 30, -(1 << 30)])
    a[: extremes.size] = extremes
    b[: extremes.size] = [INT32_MIN, INT32_MAX, INT32_MIN, INT32_MAX, INT32_MIN, INT32_MIN, INT32_MIN, -1, 1 << 30, 1 << 30]
    e = np.arange(count) % 32
    ties = slice(extremes.size, 2048)  # k * 2^e + 2^(e-1) (+ -1, 0, 1): halves of both signs, beside them
    k = rng.integers(-(2**20), 2**20, count) >> np.minimum(e, 20)
    near = (np.arange(count) % 3) - 1
    tie_values = (k << e) + np.where(e > 0, np.int64(1) << np.maximum(e - 1, 0), 0) + near
    a[ties] = np.clip(tie_values, INT32_MIN, INT32_MAX)[ties]
    m = rng.integers(0, 2**31, count)
    m[:8] = [0, 1, 1 << 30, INT32_MAX, 1 << 30, INT32_MAX, 1, 1 << 30]
    s = rng.integers(-31, 31, count)
    s[:8] = [0, -31, 30, 30, -1, 1, 0, -31]
    return {name: v.astype(np.int32) for name, v in dict(a=a, b=b, e=e, m=m, s=s).items()}


def floor_high_mul(a, b):
    """The doubling high multiply with an arithmetic shift (a floor) for C's division."""
    product = arith.MuliOp(arith.ExtSIOp(a, i64), arith.ExtSIOp(b, i64)).result
    negative = arith.CmpiOp(product, int_const(0, i64), "slt").result
    nudged = arith.AddiOp(product, arith.SelectOp(negative, int_const(1 - (1 << 30), i64), int_const(1 << 30, i64))).result
    return arith.TruncIOp(arith.ShRSIOp(nudged, int_const(31, i64)), i32).result


def builder_module(count: int) -> ModuleOp:
    """``main(a, b, e, m, left, right, 5 outputs)``: one generic yielding the doubling high
    multiply, the rounding division, MultiplyByQuantizedMultiplier, and the two wrong variants."""
    vector = MemRefType(i32, (count,))
    block = Block(arg_types=[vector] * 11)
    with ImplicitBuilder(block):
        def body(a, b, e, m, left, right, *_):
            return (fixed_point.doubling_high_mul(a, b), fixed_point.rounding_divide_by_pot(a, e),
                    fixed_point.multiply_by_quantized_multiplier(a, m, left, right),
                    floor_high_mul(a, b), arith.ShRSIOp(a, e).result)  # fmt: skip

        generic(block.args[:6], block.args[6:], [identity(1)] * 11, body)
        func.ReturnOp()
    return ModuleOp([func.FuncOp("main", FunctionType.from_lists([vector] * 11, []), Region(block))])


@needs_mlir
def test_fixed_point_builders_match_the_kernels_bit_for_bit():
    v = builder_operands(np.random.default_rng(0))
    count = v["a"].size
    left, right = np.maximum(v["s"], 0).astype(np.int32), np.maximum(-v["s"], 0).astype(np.int32)
    text = str(prepare_for_jit(builder_module(count)))
    ((high, divided, multiplied, floor_high, shifted),) = run_many_with_mlir(
        text, [[v["a"], v["b"], v["e"], v["m"], left, right]], [((count,), np.int32)] * 5)
    want_high = kernel.saturating_rounding_doubling_high_mul(v["a"], v["b"])
    want_divided = kernel.rounding_divide_by_pot(v["a"], v["e"])
    np.testing.assert_array_equal(high, want_high)
    np.testing.assert_array_equal(divided, want_divided)
    np.testing.assert_array_equal(multiplied, kernel.multiply_by_quantized_multiplier(v["a"], v["m"], v["s"]))
    assert high[0] == INT32_MAX  # INT32_MIN * INT32_MIN saturates
    a, e = v["a"].astype(np.int64), v["e"].astype(np.int64)
    remainder, half = a & ((1 << e) - 1), np.where(e > 0, np.int64(1) << np.maximum(e - 1, 0), -1)
    for sign in (a < 0, a > 0):  # ties of both signs at every exponent but 0
        assert set(e[(remainder == half) & sign]) == set(range(1, 32))
    assert np.any(floor_high != want_high) and np.any(shifted != want_divided)  # the wrong variants differ


# --- the ops, through the lowering ------------------------------------------------------------

COLUMN_SHIFTS = [-31, -20, -12, -5, -1, 0, 0, 1, 3, 10, 30, -3, -8, -1, 0, -16]
COLUMN_MULTIPLIERS = [1 << 30, 1 << 30, INT32_MAX, 1 << 30, 1518500250, 1 << 30, 0, 1,
                      1 << 30, 1234567, 7, 1 << 30, 1999999999, 1 << 30, INT32_MAX, 1 << 30]  # fmt: skip


def ints(values) -> str:
    return ", ".join(str(int(v)) for v in values)


def ops_module() -> ModuleOp:
    n = len(COLUMN_SHIFTS)
    gemm = ("a_scale = array<f32: 0.5>, a_zero_point = array<i64: 3>, b_scale = array<f32: {b_scale}>, b_zero_point = array<i64: {b_zero}>,"
            " trans_b = 1 : i64, y_scale = array<f32: 1.0>, y_zero_point = array<i64: -5>, element = i8, y_multiplier = array<i64: {m}>,"
            " y_shift = array<i64: {s}>")  # fmt: skip
    per_channel = gemm.format(b_scale=", ".join(["1.0"] * n), b_zero=ints([0] * n), m=ints(COLUMN_MULTIPLIERS), s=ints(COLUMN_SHIFTS))
    per_tensor = gemm.format(b_scale="1.0", b_zero="0", m=1 << 30, s=-4)
    conv = ("pads = array<i64: 1, 0, 1, 2>, strides = array<i64: 1, 2>, groups = 2 : i64, x_scale = array<f32: 1.0>, x_zero_point = array<i64: -7>,"
            " w_scale = array<f32: 1.0, 1.0, 1.0, 1.0>, w_zero_point = array<i64: 0, 0, 0, 0>, y_scale = array<f32: 1.0>, y_zero_point = array<i64: 9>,"
            " element = i8, y_multiplier = array<i64: 1073741824, 1518500250, 2147483647, 1288490189>, y_shift = array<i64: -7, -6, -9, 0>")  # fmt: skip
    add = ("a_scale = array<f32: 1.0>, a_zero_point = array<i64: 3>, b_scale = array<f32: 1.0>, b_zero_point = array<i64: -2>, y_scale = array<f32: 1.0>,"
           " y_zero_point = array<i64: -7>, element = i8, left_shift = 20 : i64, a_multiplier = array<i64: 1073741824>, a_shift = array<i64: 0>,"
           " b_multiplier = array<i64: 1858787270>, b_shift = array<i64: -3>, y_multiplier = array<i64: 1263225607>, y_shift = array<i64: -19>")  # fmt: skip
    text = f"""builtin.module {{
  func.func @main(%a: tensor<6x1xi8>, %b: tensor<{n}x1xi8>, %c: tensor<{n}xi32>, %x: tensor<1x4x5x6xi8>, %w: tensor<4x2x3x2xi8>,
                  %p: tensor<1x4x3x3xi8>, %q: tensor<1x4x1x1xi8>, %f: tensor<4x16xf32>, %v: tensor<1x3x5x5xi8>)
      -> (tensor<6x{n}xi8>, tensor<6x{n}xi8>, tensor<1x4x5x4xi8>, tensor<1x4x3x3xi8>, tensor<4x16xi8>, tensor<1x3x3x3xi8>, tensor<1x3x5x5xi8>)
      attributes {{cfmem.input_names = ["a", "b", "c", "x", "w", "p", "q", "f", "v"],
                  cfmem.result_names = ["gemm_pc", "gemm_pt", "conv", "add", "quant", "pool2", "pool3"]}} {{
    %0 = nn.qgemm %a, %b, %c {{{per_channel}}} : (tensor<6x1xi8>, tensor<{n}x1xi8>, tensor<{n}xi32>) -> tensor<6x{n}xi8>
    %1 = nn.qgemm %a, %b, %c {{{per_tensor}}} : (tensor<6x1xi8>, tensor<{n}x1xi8>, tensor<{n}xi32>) -> tensor<6x{n}xi8>
    %2 = nn.qconv2d %x, %w {{{conv}}} : (tensor<1x4x5x6xi8>, tensor<4x2x3x2xi8>) -> tensor<1x4x5x4xi8>
    %3 = nn.qadd %p, %q {{{add}}} : (tensor<1x4x3x3xi8>, tensor<1x4x1x1xi8>) -> tensor<1x4x3x3xi8>
    %4 = nn.quantize %f {{y_scale = array<f32: 0.25>, y_zero_point = array<i64: 3>, element = i8, rounding = "half_away_from_zero"}} : (tensor<4x16xf32>) -> tensor<4x16xi8>
    %5 = nn.avg_pool2d %v {{kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 1, 1>}} : (tensor<1x3x5x5xi8>) -> tensor<1x3x3x3xi8>
    %6 = nn.avg_pool2d %v {{kernel = array<i64: 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>}} : (tensor<1x3x5x5xi8>) -> tensor<1x3x5x5xi8>
    func.return %0, %1, %2, %3, %4, %5, %6 : tensor<6x{n}xi8>, tensor<6x{n}xi8>, tensor<1x4x5x4xi8>, tensor<1x4x3x3xi8>, tensor<4x16xi8>, tensor<1x3x3x3xi8>, tensor<1x3x5x5xi8>
  }}
}}"""
    return Parser(make_context(), text).parse_module()


def gemm_biases(rng: np.random.Generator) -> np.ndarray:
    """One bias per column that lands its requantized value in the int8 range, on a rounding tie
    for the columns that halve (multiplier 2^30) and shift right."""
    c = np.zeros(len(COLUMN_SHIFTS), np.int64)
    for j, (m, s) in enumerate(zip(COLUMN_MULTIPLIERS, COLUMN_SHIFTS, strict=True)):
        if m == 1 << 30 and s < 0:  # a doubled tie 2 * (k + 1/2) * 2^-s, before the a offsets
            c[j] = 2 * ((2 * int(rng.integers(-60, 60)) + 1) << (-s - 1))
        else:
            c[j] = int(np.clip(rng.uniform(-90, 90) / max(m * 2.0 ** (s - 31), 2.0**-31), INT32_MIN, INT32_MAX))
    return c


def op_inputs(rng: np.random.Generator, extreme: bool) -> dict[str, np.ndarray]:
    n = len(COLUMN_SHIFTS)
    a = np.array([3, 3, 4, 2, 5, 1], np.int8)  # centred: 0, 0, 1, -1, 2, -2
    b = np.ones((n, 1), np.int8)
    c = gemm_biases(rng)
    if extreme:  # the i32 sum wraps past INT32_MAX and INT32_MIN
        c[::2], c[1::2] = INT32_MAX, INT32_MIN
        b[:] = 2
    f = (rng.integers(-80, 80, (4, 16)) + 0.5).astype(np.float32) * np.float32(0.25)  # x / 0.25 on a half
    f[0, :6] = [np.nan, np.inf, -np.inf, 1e30, -1e30, -0.125]
    return {
        "a": a.reshape(6, 1), "b": b, "c": c.astype(np.int32),
        "x": rng.integers(-128, 128, (1, 4, 5, 6), dtype=np.int8), "w": rng.integers(-128, 128, (4, 2, 3, 2), dtype=np.int8),
        "p": rng.integers(-128, 128, (1, 4, 3, 3), dtype=np.int8), "q": rng.integers(-128, 128, (1, 4, 1, 1), dtype=np.int8),
        "f": f, "v": rng.integers(-128, 128, (1, 3, 5, 5), dtype=np.int8),
    }  # fmt: skip


@pytest.fixture(scope="module")
def lowered_ops():
    module = ops_module()
    rng = np.random.default_rng(1)
    sets = [op_inputs(rng, extreme=k == 0) for k in range(8)]
    sets[1]["p"][:], sets[1]["q"][:] = 127, -128  # qadd at the extremes
    return module, flat_form(module), sets


def test_op_inputs_reach_the_edges(lowered_ops):
    """The data sets hold the cases the comparison is for: rounding ties of the requantization,
    quantize halves, average pooling sums a half count off a multiple of both signs."""
    _, _, sets = lowered_ops
    requant_ties = 0
    for feeds in sets[1:]:
        acc = (feeds["a"].astype(np.int64) - 3) * (feeds["b"].astype(np.int64).T) + feeds["c"].astype(np.int64)
        for j, (m, s) in enumerate(zip(COLUMN_MULTIPLIERS, COLUMN_SHIFTS, strict=True)):
            high = kernel.saturating_rounding_doubling_high_mul(acc[:, j], m)
            if s < 0:
                requant_ties += int(np.sum((high & ((1 << -s) - 1)) == 1 << (-s - 1)))
    assert requant_ties > 20
    corner = np.concatenate([feeds["v"][0, :, :2, :2].astype(np.int64).sum(axis=(1, 2)) for feeds in sets])  # 4 taps
    tied = corner % 4 == 2
    assert np.any(tied & (corner < 0)) and np.any(tied & (corner > 0))
    quotients = sets[0]["f"][1:] / np.float32(0.25)
    assert np.all(quotients - np.floor(quotients) == 0.5)


@needs_mlir
def test_lowered_ops_match_both_interpreters_bit_for_bit(lowered_ops, monkeypatch):
    module, flat, sets = lowered_ops
    jit = run_mlir(str(prepare_for_jit(to_linalg(flat))), flat, [dict(s) for s in sets])
    for feeds, got in zip(sets, jit, strict=True):
        reference = run_function(module, dict(feeds)).outputs
        checked = run_flat(flat, dict(feeds), check=True).outputs
        for name, want in reference.items():
            np.testing.assert_array_equal(checked[name], want, err_msg=name)
            np.testing.assert_array_equal(got[name], want, err_msg=name)
    # the same comparison with the rounding division truncated (an arithmetic shift) fails
    monkeypatch.setattr(fixed_point, "rounding_divide_by_pot", lambda x, e: x if e == 0 else arith.ShRSIOp(x, fixed_point.as_i32(e)).result)
    wrong = run_mlir(str(prepare_for_jit(to_linalg(flat))), flat, [dict(s) for s in sets])
    reference = [run_function(module, dict(feeds)).outputs for feeds in sets]
    for name in ("gemm_pc", "gemm_pt", "conv", "add"):
        assert any(not np.array_equal(w[name], r[name]) for w, r in zip(wrong, reference, strict=True)), name
