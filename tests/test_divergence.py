"""The error bounds of check-mlir (``cfmem.interp.divergence``) against what float32
actually does: arguments moved anywhere in their bound's box, sums added in other orders,
exact sums in fractions. A bound must hold every time, and not be orders of magnitude
beyond what it bounds."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from cfmem.interp import kernels
from cfmem.interp.divergence import RULES, U, gamma, prepare_bound
from cfmem.ir_io import parse_module

@pytest.fixture
def rng():
    """A generator of its own for each test, so that a test draws the same numbers however
    the tests are shared out between workers."""
    return np.random.default_rng(7)


def nn_op(op: str, operand_types: list[str], result_type: str):
    args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(operand_types))
    text = f"func.func @f({args}) {{\n  %r = {op} : ({', '.join(operand_types)}) -> {result_type}\n  func.return\n}}"
    module, _ = parse_module(text)
    return next(o for o in module.walk() if o.name.startswith("nn."))


def moved(x: np.ndarray, d: np.ndarray, rng) -> np.ndarray:
    """``x`` moved to a random float32 point within ``d`` (the box's corners among them)."""
    step = rng.choice([-1.0, 1.0, 0.0, -0.5, 0.5, 0.9], x.shape) * d
    y = (x.astype(np.float64) + step).astype(np.float32)
    inside = np.abs(y.astype(np.float64) - x) <= d  # rounding may step outside: back off one ulp
    return np.where(inside, y, np.nextafter(y, x))


def test_every_op_with_a_kernel_has_a_bound():
    assert set(kernels.KERNELS) <= set(RULES)


UNARY = [("nn.exp", 3.0), ("nn.tanh", 3.0), ("nn.sigmoid", 8.0), ("nn.sqrt", None), ("nn.log", None),
         ("nn.floor", 4.0), ("nn.round", 4.0), ("nn.relu", 2.0), ("nn.erf", 2.0), ("nn.sin", 4.0),
         ("nn.neg", 2.0), ("nn.abs", 2.0), ("nn.reciprocal", None), ("nn.sign", 1e-5)]  # fmt: skip


@pytest.mark.parametrize("name, scale", UNARY)
def test_a_unary_op_moves_within_its_bound_wherever_its_argument_moves(name, scale, rng):
    t = "tensor<4096xf32>"
    op = nn_op(f"{name} %a0", [t], t)
    kernel, bound = kernels.prepare(op), prepare_bound(op)
    x = (rng.standard_normal(4096) * (scale or 1.0)).astype(np.float32)
    if scale is None:
        x = np.abs(x) + np.float32(0.01)
    d = np.abs(x) * rng.uniform(0, 3e-6, x.shape) * rng.integers(0, 2, x.shape)  # some exact
    y = kernel([x])
    limit = bound([x], [d], y)
    for _ in range(8):
        other = kernel([moved(x, d, rng)]).astype(np.float64)
        assert np.all(np.abs(other - y) <= limit), name


@pytest.mark.parametrize("name", ["nn.add", "nn.sub", "nn.mul", "nn.div", "nn.pow", "nn.max"])
def test_a_binary_op_moves_within_its_bound_wherever_its_arguments_move(name, rng):
    t = "tensor<64x64xf32>"
    op = nn_op(f"{name} %a0, %a1", [t, "tensor<64xf32>"], t)
    kernel, bound = kernels.prepare(op), prepare_bound(op)
    a = rng.standard_normal((64, 64)).astype(np.float32)
    b = rng.standard_normal(64).astype(np.float32)
    if name == "nn.pow":
        b = rng.choice([2.0, 0.5, 3.0, -1.0], 64).astype(np.float32)
        a = np.abs(a) + np.float32(0.1) if True else a
    da, db = np.abs(a) * 1e-6, np.abs(b) * rng.uniform(0, 1e-6, b.shape)
    y = kernel([a, b])
    limit = bound([a, b], [da, db], y)
    assert np.all(np.isfinite(limit))
    for _ in range(8):
        other = kernel([moved(a, da, rng), moved(b, db, rng)]).astype(np.float64)
        assert np.all(np.abs(other - y) <= limit), name


def test_a_correctly_rounded_op_on_exact_arguments_has_no_room_at_all(rng):
    t = "tensor<16xf32>"
    for name in ("nn.add %a0, %a1", "nn.mul %a0, %a1", "nn.div %a0, %a1"):
        op = nn_op(name, [t, t], t)
        x = rng.standard_normal((2, 16)).astype(np.float32)
        zero = np.zeros(16)
        assert not np.any(prepare_bound(op)([x[0], x[1]], [zero, zero], kernels.prepare(op)([x[0], x[1]])))
    op = nn_op("nn.exp %a0", [t], t)  # two libm's may differ by some ulps even on the same argument
    y = kernels.prepare(op)([x[0]])
    assert np.all(prepare_bound(op)([x[0]], [zero], y) >= 4 * U * np.abs(y))


def sequential(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b`` added one product after the other in float32, as an upstream loop does."""
    acc = np.zeros((a.shape[0], b.shape[1]), np.float32)
    for k in range(a.shape[1]):
        acc = acc + a[:, k : k + 1] * b[k : k + 1, :]
    return acc


def exact_matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.array([[float(sum(Fraction(float(x)) * Fraction(float(y)) for x, y in zip(row, col)))
                      for col in b.T] for row in a])  # fmt: skip


def cancelling(m: int, n: int, k: int, rng) -> tuple[np.ndarray, np.ndarray]:
    """``a`` (m x n) and ``b`` (n x k, of +-1) whose products, of order 100, cancel to about 1:
    the last column of ``a`` takes back the sum of the others for column 0 of ``b``."""
    a = rng.standard_normal((m, n)) * 100
    b = rng.choice([-1.0, 1.0], (n, k))
    a[:, -1] = -(a[:, :-1] @ b[:-1, 0]) * b[-1, 0] + rng.standard_normal(m)
    return a.astype(np.float32), b.astype(np.float32)


def test_a_long_sum_with_cancellation_stays_within_its_bound_in_any_order(rng):
    n = 3000
    a, b = cancelling(2, n, 3, rng)
    op = nn_op("nn.matmul %a0, %a1", [f"tensor<2x{n}xf32>", f"tensor<{n}x3xf32>"], "tensor<2x3xf32>")
    y = kernels.prepare(op)([a, b])
    limit = prepare_bound(op)([a, b], [np.zeros(a.shape), np.zeros(b.shape)], y)
    loop = sequential(a, b).astype(np.float64)
    exact = exact_matmul(a, b)
    assert np.all(np.abs(loop - y) <= limit)
    # each run within its gamma(n) sum |a b| of the exact sum; the two runs' roundings in quadrature
    magnitude = np.abs(a).astype(np.float64) @ np.abs(b)
    assert np.all(np.abs(exact - y) <= gamma(n) * magnitude) and np.all(np.abs(exact - loop) <= gamma(n) * magnitude)
    assert np.allclose(limit, np.sqrt(2) * gamma(n) * magnitude, rtol=1e-5, atol=0)
    assert np.any(np.abs(loop - y) > 1e-5 * np.abs(y) + 1e-6)  # beyond the old fixed tolerance


def test_a_conv_bound_counts_its_window_and_bias_and_propagates_its_input_bound(rng):
    op = nn_op('nn.conv2d %a0, %a1, %a2 {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, '
               'dilations = array<i64: 1, 1>, groups = 1 : i64}',
               ["tensor<1x8x6x6xf32>", "tensor<4x8x3x3xf32>", "tensor<4xf32>"], "tensor<1x4x6x6xf32>")  # fmt: skip
    kernel, bound = kernels.prepare(op), prepare_bound(op)
    x, w, c = (rng.standard_normal(s).astype(np.float32) for s in ((1, 8, 6, 6), (4, 8, 3, 3), (4,)))
    dx = np.abs(x) * 1e-5
    y = kernel([x, w, c])
    limit = bound([x, w, c], [dx, np.zeros(w.shape), np.zeros(4)], y)
    for _ in range(8):
        assert np.all(np.abs(kernel([moved(x, dx, rng), w, c]) - y) <= limit)
    exact_only = bound([x, w, c], [np.zeros(x.shape), np.zeros(w.shape), np.zeros(4)], y)
    assert np.all(limit > exact_only) and np.all(exact_only > 0)


def test_an_argmax_that_an_argument_bound_could_change_is_bounded_by_the_distance_to_its_rival():
    op = nn_op("nn.arg_max %a0 {axis = 1 : i64, keepdims = false, select_last_index = false}",
               ["tensor<2x5xf32>"], "tensor<2xi64>")
    x = np.array([[0.0, 1.0, 0.5, 0.999999, 0.2], [3.0, 1.0, 0.0, 0.0, 2.0]], np.float32)
    d = np.full(x.shape, 1e-5)
    y = kernels.prepare(op)([x])
    assert list(y) == [1, 0]
    assert list(prepare_bound(op)([x], [d], y)) == [2.0, 0.0]
    assert list(prepare_bound(op)([x], [np.zeros(x.shape)], y)) == [0.0, 0.0]


def test_a_comparison_that_may_flip_has_bound_one():
    op = nn_op('nn.cmp %a0, %a1 {predicate = "lt"}', ["tensor<3xf32>", "tensor<3xf32>"], "tensor<3xi1>")
    a, b = np.array([1.0, 1.0, 1.0], np.float32), np.array([1.0 + 1e-6, 2.0, 1.0], np.float32)
    d = np.full(3, 1e-6)
    y = kernels.prepare(op)([a, b])
    assert list(prepare_bound(op)([a, b], [d, d], y)) == [1.0, 0.0, 1.0]
    assert list(prepare_bound(op)([a, b], [np.zeros(3), np.zeros(3)], y)) == [0.0, 0.0, 0.0]


def test_a_divisor_that_may_be_zero_is_unbounded():
    t = "tensor<2xf32>"
    op = nn_op("nn.div %a0, %a1", [t, t], t)
    a, b = np.ones(2, np.float32), np.array([1e-7, 1.0], np.float32)
    y = kernels.prepare(op)([a, b])
    limit = prepare_bound(op)([a, b], [np.zeros(2), np.full(2, 1e-6)], y)
    assert limit[0] == np.inf and np.isfinite(limit[1])


def test_an_f16_result_adds_one_f16_spacing_where_its_float32_value_may_differ():
    t, h = "tensor<3xf32>", "tensor<3xf16>"
    op = nn_op("nn.add %a0, %a1", [h, h], h)
    a = np.array([1.0, 2.0, 3.0], np.float16)
    y = kernels.prepare(op)([a, a])
    assert list(prepare_bound(op)([a, a], [np.zeros(3), np.zeros(3)], y)) == [0.0, 0.0, 0.0]
    limit = prepare_bound(op)([a, a], [np.array([0.0, 1e-7, 0.0]), np.zeros(3)], y)
    assert limit[0] == 0.0 and limit[1] >= float(np.spacing(np.float16(4.0)))
    del t


def test_a_quantize_moves_by_a_step_only_where_its_argument_may_cross_a_half():
    op = nn_op("nn.quantize %a0 {element = i8, y_scale = array<f32: 0.5>, y_zero_point = array<i64: 0>}",
               ["tensor<3xf32>"], "tensor<3xi8>")
    x = np.array([0.2499999, 1.0, 0.75], np.float32)  # 0.5 steps: near a half, on a step, on a half
    d = np.full(3, 1e-6)
    y = kernels.prepare(op)([x])
    assert list(prepare_bound(op)([x], [d], y)) == [1.0, 0.0, 1.0]
