"""How far two correct float32 implementations of one nn compute op may be apart.

``prepare_bound(op)`` gives a function ``(args, bounds, result) -> bound``: ``args`` are
the op's arguments as one run (the flat interpreter) computed them, ``bounds`` a bound per
element on how far another run's arguments may be from them, ``result`` this run's
result; ``bound`` (float64, ``result``'s shape) bounds how far the other run's result may
be from ``result`` when it evaluates the same op, in another order or with other libm
functions. Propagated from the inputs (exact in both runs) through every op, it is the
tolerance of ``cfmem check-mlir`` for each output element.

Assumptions, per op:

- Rounding errors are independent random variables, each at most ``u = 2**-24`` times its
  result (Higham and Mary's probabilistic model), so bounds are taken at ``LAMBDA``
  standard deviations rather than in the worst case (which grows by the sum of ``|w|``
  per layer, beyond any use in a deep network): a sum of ``n`` float32 products, in any
  order, with or without fused multiply-adds (convolutions, matmul, gemm, reductions,
  pooling, cumsum, softmax's sum), is within ``gamma(n) * sum |x_i * w_i|`` of the exact
  sum of its own operands in each run (a bias and a division by the count each one more
  term; ``2**-149`` per term for underflow); the differences of its operands add in
  quadrature, weighted by the other operand (``sqrt(sum w_i**2 d_i**2)``), as do the
  independent roundings of the two runs. Differences of elements that share an upstream
  error are taken as independent too. An elementwise op's own rounding adds to the bound
  it propagates.
- ``+ - * /``, ``sqrt``, ``reciprocal`` and casts to float are correctly rounded (IEEE):
  on the same arguments both runs give the same bits, so they add a rounding of each run
  (``u |y|``) only where an argument may differ.
- ``exp``, ``log``, ``tanh``, ``erf``, ``sin``, ``cos``, ``pow`` are within
  ``ELEMENTARY`` units of ``u |y|`` (about 2 to 4 ulps) of the exact function in each run
  (numpy's SIMD float32 functions and libm's), ``sigmoid`` (``1 / (1 + exp(-x))``) two
  units more; they add that even on the same arguments.
- Moves, max, min, relu, clamp, floor, ceil, round, sign, abs, neg are exact.
- Where an argument may differ, the change of the exact function is taken at the corners
  of the box of possible arguments (every function here is monotone in each argument
  there, ``pow`` with the base's 0 added when its interval holds it): that covers the
  steps of floor, round, casts to integers and quantization. ``abs``, ``sin`` and ``cos``
  are 1-Lipschitz. A division or reciprocal whose divisor interval holds 0, or ``pow`` of
  a negative exponent over an interval that holds 0, is unbounded (inf).
- Integers and booleans: exact on the same arguments. A comparison, logical op or cast to
  bool whose arguments may differ enough to flip it has bound 1; an argmax/argmin the
  largest distance to an index that could win; top_k's indices the axis length; a gather
  whose indices may differ, and a quantized op other than quantize/dequantize whose inputs
  may differ, the whole range of its result type (inf for a float result).
- Quantized ops compute the kernels' float32 steps in the same order in both runs
  (``nn-lower-to-linalg`` mirrors :mod:`cfmem.interp.kernels`), so they are exact on the
  same arguments.
- An f16 result is the float32 result rounded once in each run: one f16 spacing more
  where the float32 results may differ.
- Branch conditions and loop counts are taken the same way in both runs (a run that goes
  the other way shows as a failure, not as a bound).

The magnitudes are this run's values widened by their bounds, and every sum of them is
taken in float64 (or float32 and enlarged by its own rounding).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from itertools import product

import numpy as np
from xdsl.ir import Operation

from cfmem.dialects import nn_compute as nc
from cfmem.dialects import nn_lstm as nl
from cfmem.dialects import nn_quant as nq
from cfmem.dialects import nn_signal as ns
from cfmem.dialects import nn_weights as nw
from cfmem.interp import kernels
from cfmem.interp.kernels.attributes import _ints
from cfmem.interp.kernels.quantized import _along
from cfmem.interp.weights import numpy_dtype

U = 2.0**-24
"""Unit roundoff of float32."""
TINY = 2.0**-149
"""Smallest float32 subnormal: the absolute error a rounding may add on underflow."""
ELEMENTARY = 4.0
"""Error of one run's float32 exp, log, tanh, erf, sin, cos and pow, in units of ``u |y|``."""
LAMBDA = 8.0
"""Standard deviations of a sum's rounding error that its bound allows (see :func:`gamma`)."""
SLACK = 1.0 + 2.0**-20
"""Enlarges a magnitude summed in float32 (or float64) beyond its own rounding."""

Bound = Callable[[list[np.ndarray], list[np.ndarray], np.ndarray], np.ndarray]


class NoBoundError(Exception):
    """An op for which no error bound is known."""


def gamma(n: int) -> float:
    """Higham and Mary's probabilistic bound on the relative error of a float32 sum of ``n``
    products: ``exp(LAMBDA sqrt(n) u + n u**2 / (1 - u)) - 1``, about ``LAMBDA sqrt(n) u``."""
    return math.expm1(LAMBDA * math.sqrt(n) * U + n * U * U / (1.0 - U))


def _sum_bound(magnitude: np.ndarray, moved: np.ndarray, terms: int) -> np.ndarray:
    """A sum's bound: the difference ``moved`` its operands make and each run's rounding,
    ``gamma(terms)`` times its sum of magnitudes (this run's, and the other's at most
    ``magnitude + moved``), independent, so in quadrature."""
    rounding = gamma(terms) * np.hypot(magnitude, magnitude + moved)
    return SLACK * np.hypot(moved, rounding) + 2.0 * terms * TINY


def combined(spread: np.ndarray, rounding: np.ndarray) -> np.ndarray:
    """A propagated bound ``spread`` and an op's own rounding, at most ``rounding`` (both
    runs): their sum. (Adding them in quadrature would be smaller, but an elementwise op's
    rounding is not independent of where its argument moved: ``log`` near 1 broke it.)"""
    return spread + rounding


def _f64(a: np.ndarray) -> np.ndarray:
    return np.asarray(a, np.float64)


def _mag(a: np.ndarray) -> np.ndarray:
    """|a| in float64, 0 where it is not finite (an infinity must match exactly)."""
    m = np.abs(_f64(a))
    return np.where(np.isfinite(m), m, 0.0)


def _is_float(a: np.ndarray) -> bool:
    return a.dtype.kind == "f"


def _rounding(result: np.ndarray, spread: np.ndarray, units: float) -> np.ndarray:
    """Both runs' own rounding: ``units`` of ``u`` times the result's magnitude, each."""
    return 2.0 * units * (U * (_mag(result) + spread) + TINY)


def _differ(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """|a - b| in float64, 0 where equal (infinities and NaN included), inf where only one is NaN."""
    same = (a == b) | (np.isnan(a) & np.isnan(b))
    with np.errstate(invalid="ignore"):
        diff = np.where(same, 0.0, np.abs(a - b))
    return np.where(np.isnan(diff), np.inf, diff)


def corner_spread(f: Callable[..., np.ndarray], args: list[np.ndarray], bounds: list[np.ndarray],
                  extra: Callable[[list[np.ndarray]], list[list[np.ndarray]]] | None = None) -> np.ndarray:
    """The largest change of ``f`` (in float64) from its value at ``args`` to its value at a
    corner of the box ``args +- bounds`` (and at the points ``extra`` adds)."""
    center_args = [_f64(a) for a in args]
    center = _f64(f(*center_args))
    varied = [k for k, b in enumerate(bounds) if np.any(b)]
    spread = np.zeros(center.shape)
    if not varied:
        return spread
    corners = []
    for signs in product((-1.0, 1.0), repeat=len(varied)):
        point = list(center_args)
        for k, sign in zip(varied, signs):
            point[k] = center_args[k] + sign * bounds[k]
        corners.append(point)
    if extra is not None:
        corners += extra(center_args)
    for point in corners:
        spread = np.maximum(spread, _differ(np.broadcast_to(_f64(f(*point)), center.shape), center))
    return spread


def _any_bound(bounds: list[np.ndarray], shape: tuple[int, ...]) -> np.ndarray:
    """Where some argument (broadcast to ``shape``) may differ."""
    moved = np.zeros(shape, bool)
    for b in bounds:
        moved |= np.broadcast_to(b > 0, shape) if np.ndim(b) <= len(shape) else False
    return moved


# --- elementwise ----------------------------------------------------------------------------


def _elementwise(f: Callable[..., np.ndarray], units: float, always: bool = False,
                 extra: Callable | None = None) -> Bound:
    """The corner spread of ``f`` plus the rounding of each run: ``units`` of ``u |y|`` where an
    argument may differ, or everywhere if ``always`` (a float result only)."""

    def bound(args, bounds, result):
        spread = corner_spread(f, args, bounds, extra)
        if not _is_float(result) or units == 0.0:
            return spread
        rounding = _rounding(result, spread, units)
        return combined(spread, rounding if always else np.where(_any_bound(bounds, result.shape), rounding, 0.0))

    return bound


def _kernel_f64(op: Operation) -> Callable[..., np.ndarray]:
    """``op``'s own kernel, given float64 arguments (it then computes in float64)."""
    kernel = kernels.KERNELS[type(op)]
    return lambda *args: kernel(op, *args)


def _lipschitz(cap: float, units: float, always: bool) -> Callable[[Operation], Bound]:
    def prepare(op: Operation) -> Bound:
        def bound(args, bounds, result):
            spread = np.minimum(np.broadcast_to(bounds[0], result.shape), cap)
            if not always and not np.any(bounds[0]):
                return spread
            return combined(spread, _rounding(result, spread, units))

        return bound

    return prepare


def _divisor_unbounded(bound: Bound, divisor: int) -> Bound:
    """``bound``, inf where the divisor's interval holds 0 (and may differ)."""

    def guarded(args, bounds, result):
        value = bound(args, bounds, result)
        d = bounds[divisor]
        holds_zero = np.broadcast_to((d > 0) & (np.abs(_f64(args[divisor])) <= d), result.shape)
        return np.where(holds_zero, np.inf, value)

    return guarded


def _pow(op: Operation) -> Bound:
    kernel = _kernel_f64(op)

    def bound(args, bounds, result):
        a, b = _f64(args[0]), _f64(args[1])
        da, db = bounds
        straddles = np.broadcast_to((da > 0) & (np.abs(a) <= da), result.shape)
        if not np.any(straddles):
            return _elementwise(kernel, ELEMENTARY, always=True)(args, bounds, result)
        # the base's interval holds 0: with a positive exponent the extreme is at an end or at 0
        at_zero = lambda c: [[np.where(straddles, 0.0, c[0]), c[1] + s * db] for s in (-1.0, 1.0)]  # noqa: E731
        value = _elementwise(kernel, ELEMENTARY, always=True, extra=at_zero)(args, bounds, result)
        return np.where(straddles & ((b - db) <= 0), np.inf, value)

    return bound


def _sigmoid64(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def _cmp(op: Operation) -> Bound:
    def bound(args, bounds, result):
        a, b = _f64(args[0]), _f64(args[1])
        width = bounds[0] + bounds[1]
        with np.errstate(invalid="ignore"):
            flips = (width > 0) & ~(np.abs(a - b) > width)
        return np.broadcast_to(flips, result.shape).astype(np.float64)

    return bound


def _logical(op: Operation) -> Bound:
    def bound(args, bounds, result):
        out = np.zeros(result.shape)
        for b in bounds:
            out = np.maximum(out, b)
        return out

    return bound


def _select(op: Operation) -> Bound:
    def bound(args, bounds, result):
        dc, da, db = bounds
        chosen = np.where(args[0], da, db)
        switched = _differ(_f64(args[1]), _f64(args[2])) + np.maximum(da, db)
        return np.broadcast_to(np.where(dc > 0, switched, chosen), result.shape).astype(np.float64)

    return bound


def _cast(op: nc.CastOp) -> Bound:
    target = numpy_dtype(op.result.type.get_element_type())
    if target == np.bool_:
        def to_bool(args, bounds, result):
            d = bounds[0]
            return ((d > 0) & ~(np.abs(_f64(args[0])) > d)).astype(np.float64)

        return to_bool
    return _elementwise(_kernel_f64(op), 1.0)


def _mod(op: Operation) -> Bound:
    """fmod and integer mod jump by a whole divisor where the quotient's integer part may change."""

    def bound(args, bounds, result):
        moved = _any_bound(bounds, result.shape)
        jump = np.broadcast_to(_mag(args[1]) + bounds[1], result.shape)
        return np.where(moved, jump, 0.0)

    return bound


# --- sums ---------------------------------------------------------------------------------


def _contraction(contract: Callable[[np.ndarray, np.ndarray], np.ndarray], terms: int,
                 args: list[np.ndarray], bounds: list[np.ndarray], bias: np.ndarray | None = None,
                 bias_bound: np.ndarray | None = None) -> np.ndarray:
    """The bound of ``contract(x, w) (+ bias)``, bilinear, summing ``terms`` products per element:
    the arguments' differences combine as a root sum of squares (independent roundings)."""
    x, w = _mag(args[0]), _mag(args[1])
    dx, dw = bounds[0], bounds[1]
    magnitude = contract(x, w + dw)
    squares = np.zeros(magnitude.shape)
    if np.any(dx):
        squares = squares + contract(np.square(np.broadcast_to(dx, x.shape)), np.square(w + dw))
    if np.any(dw):
        squares = squares + contract(np.square(x), np.square(np.broadcast_to(dw, w.shape)))
    moved = np.sqrt(squares)
    if bias is not None:
        magnitude = magnitude + _mag(bias)
        moved = np.hypot(moved, bias_bound)
        terms += 1
    return _sum_bound(magnitude, moved, terms)


def _conv2d(op: nc.Conv2dOp) -> Bound:
    contract = kernels.prepare_conv2d(op)

    def bound(args, bounds, result):
        w = args[1]
        terms = w.shape[1] * w.shape[2] * w.shape[3]
        if len(args) > 2:
            shape = (1, -1, 1, 1)
            return _contraction(contract, terms, args, bounds, args[2].reshape(shape), bounds[2].reshape(shape))
        return _contraction(contract, terms, args, bounds)

    return bound


def _gemm(op: nc.GemmOp) -> Bound:
    trans = bool(op.trans_b.value.data)

    def bound(args, bounds, result):
        contract = (lambda a, b: a @ b.T) if trans else (lambda a, b: a @ b)
        return _contraction(contract, args[0].shape[-1], args, bounds, args[2], bounds[2])

    return bound


def _matmul(op: nc.MatmulOp) -> Bound:
    def bound(args, bounds, result):
        return _contraction(np.matmul, args[0].shape[-1], args, bounds)

    return bound


def _summed(x: np.ndarray, dx: np.ndarray, axes: tuple[int, ...], keepdims: bool, extra_terms: int) -> np.ndarray:
    """The bound of a float32 sum of ``x`` over ``axes`` (``extra_terms`` more roundings: a division)."""
    terms = math.prod(x.shape[a] for a in axes) + extra_terms
    magnitude = np.sum(_mag(x), axis=axes, keepdims=keepdims)
    moved = np.sqrt(np.sum(np.square(dx), axis=axes, keepdims=keepdims))
    return _sum_bound(magnitude, moved, terms)


def _reduce_axes(op: nc.ReduceOp, rank: int) -> tuple[int, ...]:
    return tuple(sorted(a % rank for a in _ints(op.axes)))


def _reduce_sum(op: nc.ReduceOp) -> Bound:
    keepdims, mean = bool(op.keepdims.value.data), isinstance(op, nc.ReduceMeanOp)

    def bound(args, bounds, result):
        x = args[0]
        axes = _reduce_axes(op, x.ndim)
        count = math.prod(x.shape[a] for a in axes)
        total = _summed(x, np.broadcast_to(bounds[0], x.shape), axes, keepdims, int(mean))
        return (total / count if mean and count else total).reshape(result.shape)

    return bound


def _global_avg_pool(op: nc.GlobalAvgPoolOp) -> Bound:
    def bound(args, bounds, result):
        x = args[0]
        count = x.shape[2] * x.shape[3]
        return _summed(x, np.broadcast_to(bounds[0], x.shape), (2, 3), True, 1) / max(count, 1)

    return bound


def _reduce_prod(op: nc.ReduceProdOp) -> Bound:
    keepdims = bool(op.keepdims.value.data)

    def bound(args, bounds, result):
        x = args[0]
        axes = _reduce_axes(op, x.ndim)
        terms = math.prod(x.shape[a] for a in axes)
        low = np.prod(_mag(x), axis=axes, keepdims=keepdims)
        high = np.prod(_mag(x) + bounds[0], axis=axes, keepdims=keepdims)
        return (SLACK * ((high - low) + gamma(terms) * (low + high)) + 2.0 * terms * TINY).reshape(result.shape)

    return bound


def _avg_pool(op: nc.AvgPool2dOp) -> Bound:
    kh, kw = _ints(op.kernel)
    terms = kh * kw + 1

    def bound(args, bounds, result):
        x = args[0]
        magnitude = _f64(kernels.avg_pool2d(op, _mag(x)))  # window means, in float32
        moved = _f64(kernels.avg_pool2d(op, np.broadcast_to(bounds[0], x.shape).astype(np.float64)))  # at most
        return _sum_bound(magnitude, moved, terms)

    return bound


def _cumsum(op: nc.CumsumOp) -> Bound:
    def bound(args, bounds, result):
        x = args[0]
        terms = x.shape[op.axis.value.data]
        magnitude = _f64(kernels.cumsum(op, _mag(x)))
        moved = np.sqrt(_f64(kernels.cumsum(op, np.square(np.broadcast_to(bounds[0], x.shape)))))
        return (1.0 + 2.0 * terms * U) * _sum_bound(magnitude, moved, terms)  # magnitude summed in float32

    return bound


def _softmax(op: nc.SoftmaxOp) -> Bound:
    """``exp(x - max) / sum``, step by step as the kernel and the lowering compute it."""
    axis = op.axis.value.data

    def bound(args, bounds, result):
        x = _f64(args[0])
        dx = np.broadcast_to(bounds[0], x.shape)
        shifted = x - x.max(axis=axis, keepdims=True)
        d_shift = dx + dx.max(axis=axis, keepdims=True)
        d_shift = d_shift + np.where(d_shift > 0, 2.0 * (U * (np.abs(shifted) + d_shift) + TINY), 0.0)
        e = np.exp(shifted)
        d_e = corner_spread(np.exp, [shifted], [d_shift]) + _rounding(e, 0.0, ELEMENTARY)
        total = e.sum(axis=axis, keepdims=True)
        d_total = _summed(e, d_e, (axis % x.ndim,), True, 0)
        # the quotient: corners of e / total with e and total in their intervals
        high = (e + d_e) / np.maximum(total - d_total, 0.0)
        low = np.maximum(e - d_e, 0.0) / (total + d_total)
        y = e / total
        spread = np.maximum(high - y, y - low)
        return np.where(total - d_total > 0, combined(spread, _rounding(result, spread, 1.0)), np.inf)

    return bound


# --- extremes and moves -------------------------------------------------------------------


def _max_pool(op: nc.MaxPool2dOp) -> Bound:
    def bound(args, bounds, result):
        return _f64(kernels.max_pool2d(op, np.broadcast_to(bounds[0], args[0].shape).astype(np.float64)))

    return bound


def _reduce_extreme(op: nc.ReduceOp) -> Bound:
    keepdims = bool(op.keepdims.value.data)

    def bound(args, bounds, result):
        x = args[0]
        axes = _reduce_axes(op, x.ndim)
        return np.max(np.broadcast_to(bounds[0], x.shape), axis=axes, keepdims=keepdims).reshape(result.shape)

    return bound


def _moved(data: tuple[int, ...] | None = None, indices: tuple[int, ...] = ()) -> Callable[[Operation], Bound]:
    """An op that only moves elements (or puts constants): its kernel run on the bounds (less its
    run on zeros, for a pad's constant). Arguments ``indices`` are index arrays, kept; where one
    may differ the result is unbounded."""

    def prepare(op: Operation) -> Bound:
        kernel = _kernel_f64(op)

        def bound(args, bounds, result):
            if any(np.any(bounds[k]) for k in indices):
                return np.full(result.shape, np.inf)
            on = [args[k] if k in indices else np.broadcast_to(b, a.shape).astype(np.float64)
                  for k, (a, b) in enumerate(zip(args, bounds))]
            if not any(np.any(on[k]) for k in range(len(on)) if k not in indices):
                return np.zeros(result.shape)
            off = [args[k] if k in indices else np.zeros(a.shape) for k, a in enumerate(args)]
            return np.abs(_f64(kernel(*on)) - _f64(kernel(*off)))

        return bound

    return prepare


def _arg_extreme(op: nc.ArgExtremeOp) -> Bound:
    largest = isinstance(op, nc.ArgMaxOp)
    keepdims = bool(op.keepdims.value.data)

    def bound(args, bounds, result):
        d = np.broadcast_to(bounds[0], args[0].shape)
        if not np.any(d):
            return np.zeros(result.shape)
        x = _f64(args[0]) * (1.0 if largest else -1.0)
        axis = op.axis.value.data % x.ndim
        index = result if keepdims else np.expand_dims(result, axis)
        best = np.take_along_axis(x, index, axis)
        d_best = np.take_along_axis(d, index, axis)
        with np.errstate(invalid="ignore"):
            rival = ((d + d_best) > 0) & (x + d >= best - d_best)
        shape = [1] * x.ndim
        shape[axis] = x.shape[axis]
        positions = np.arange(x.shape[axis]).reshape(shape)
        reach = np.max(np.where(rival, np.abs(positions - index), 0), axis=axis, keepdims=True)
        return (reach if keepdims else np.squeeze(reach, axis)).astype(np.float64)

    return bound


def _top_k(op: nc.TopKOp) -> Bound:
    def bound(args, bounds, result):
        axis = op.normalized_axis()
        d = np.broadcast_to(bounds[0], args[0].shape)
        moved = np.any(d > 0, axis=axis, keepdims=True)
        return np.broadcast_to(np.where(moved, args[0].shape[axis] - 1, 0), result.shape).astype(np.float64)

    return bound


# --- quantized ----------------------------------------------------------------------------


def _quantize(op: nq.QuantizeOp) -> Bound:
    return _elementwise(_kernel_f64(op), 0.0)


def _dequantize(op: nq.DequantizeOp) -> Bound:
    scale = np.abs(kernels.quant_params(op, "x")[0]).astype(np.float64)

    def bound(args, bounds, result):
        d = np.broadcast_to(bounds[0], args[0].shape)
        if not np.any(d):
            return np.zeros(result.shape)
        scaled = d * _along(scale, op.axis.value.data, d.ndim)
        return combined(scaled, np.where(d > 0, _rounding(result, scaled, 1.0), 0.0))

    return bound


def _exact_unless_moved(op: Operation) -> Bound:
    """Exact on the same arguments; else anything in the result type's range."""
    dtype = numpy_dtype(op.results[0].type.get_element_type())
    anything = float(np.iinfo(dtype).max) - float(np.iinfo(dtype).min) if dtype.kind in "iu" else math.inf

    def bound(args, bounds, result):
        return np.where(_any_bound_any(bounds), anything, 0.0) * np.ones(result.shape)

    return bound


def _any_bound_any(bounds: list[np.ndarray]) -> bool:
    return any(np.any(b) for b in bounds)


# --- the table ----------------------------------------------------------------------------


def _unary(f: Callable[[np.ndarray], np.ndarray] | None, units: float, always: bool = False) -> Callable[[Operation], Bound]:
    """An elementwise op of exact function ``f`` (None: the op's kernel in float64)."""
    return lambda op: _elementwise(f or _kernel_f64(op), units, always)


RULES: dict[type[Operation], Callable[[Operation], Bound]] = {
    nc.AddOp: _unary(None, 1.0),
    nc.SubOp: _unary(None, 1.0),
    nc.MulOp: _unary(None, 1.0),
    nc.DivOp: lambda op: _divisor_unbounded(_elementwise(_kernel_f64(op), 1.0), 1),
    nc.ReciprocalOp: lambda op: _divisor_unbounded(_elementwise(_kernel_f64(op), 1.0), 0),
    nc.SqrtOp: _unary(None, 1.0),
    nc.PowOp: _pow,
    nc.MaxOp: _unary(None, 0.0),
    nc.MinOp: _unary(None, 0.0),
    nc.ReluOp: _unary(None, 0.0),
    nc.ClampOp: _unary(None, 0.0),
    nc.NegOp: _unary(None, 0.0),
    nc.FloorOp: _unary(None, 0.0),
    nc.CeilOp: _unary(None, 0.0),
    nc.RoundOp: _unary(None, 0.0),
    nc.SignOp: _unary(None, 0.0),
    nc.AbsOp: _lipschitz(math.inf, 0.0, False),
    nc.SinOp: _lipschitz(2.0, ELEMENTARY, True),
    nc.CosOp: _lipschitz(2.0, ELEMENTARY, True),
    nc.ExpOp: _unary(None, ELEMENTARY, always=True),
    nc.LogOp: _unary(None, ELEMENTARY, always=True),
    nc.TanhOp: _unary(None, ELEMENTARY, always=True),
    nc.ErfOp: _unary(None, ELEMENTARY, always=True),
    nc.SigmoidOp: _unary(_sigmoid64, ELEMENTARY + 2.0, always=True),
    nc.CmpOp: _cmp,
    nc.AndOp: _logical,
    nc.OrOp: _logical,
    nc.XorOp: _logical,
    nc.NotOp: _logical,
    nc.SelectOp: _select,
    nc.CastOp: _cast,
    nc.FmodOp: _mod,
    nc.ModOp: _mod,
    nc.CumsumOp: _cumsum,
    nc.Conv2dOp: _conv2d,
    nc.GemmOp: _gemm,
    nc.MatmulOp: _matmul,
    nc.ReduceSumOp: _reduce_sum,
    nc.ReduceMeanOp: _reduce_sum,
    nc.ReduceProdOp: _reduce_prod,
    nc.ReduceMaxOp: _reduce_extreme,
    nc.ReduceMinOp: _reduce_extreme,
    nc.GlobalAvgPoolOp: _global_avg_pool,
    nc.AvgPool2dOp: _avg_pool,
    nc.MaxPool2dOp: _max_pool,
    nc.SoftmaxOp: _softmax,
    nc.ArgMaxOp: _arg_extreme,
    nc.ArgMinOp: _arg_extreme,
    nc.TopKOp: _top_k,
    nc.ConcatOp: _moved(),
    nc.TransposeOp: _moved(),
    nc.SliceOp: _moved(),
    nc.PadOp: _moved(),
    nw.ReshapeOp: _moved(),
    nc.GatherOp: _moved(indices=(1,)),
    nc.GatherElementsOp: _moved(indices=(1,)),
    nq.QuantizeOp: _quantize,
    nq.DequantizeOp: _dequantize,
    nq.QConv2dOp: _exact_unless_moved,
    nq.QGemmOp: _exact_unless_moved,
    nq.QAddOp: _exact_unless_moved,
    nq.QMulOp: _exact_unless_moved,
    nq.QConcatOp: _exact_unless_moved,
    nq.QLookupOp: _exact_unless_moved,
    nq.QSoftmaxOp: _exact_unless_moved,
    nq.QRequantizeOp: _exact_unless_moved,
    nq.QSvdfStateOp: _exact_unless_moved,
    nq.QSvdfOp: _exact_unless_moved,
    nl.QLstmOp: _exact_unless_moved,
    nl.QLstmStateOp: _exact_unless_moved,
    nq.MatmulIntegerOp: _exact_unless_moved,
    nq.ConvIntegerOp: _exact_unless_moved,
    **{op: _exact_unless_moved for op in ns.SIGNAL_OPS},
}
"""How each op's bound is made from the op (its attributes)."""


def prepare_bound(op: Operation) -> Bound:
    """The bound function of compute op ``op`` (see the module docstring); an f16 result adds
    one f16 spacing where its float32 value may differ. Raises ``NoBoundError`` for an op
    without a rule."""
    rule = RULES.get(type(op))
    if rule is None:
        raise NoBoundError(f"no error bound is known for '{op.name}'")
    bound = rule(op)
    if numpy_dtype(op.results[0].type.get_element_type()) != np.float16:
        return bound

    def rounded_to_f16(args, bounds, result):
        value = bound(args, bounds, result)
        spacing = np.spacing((_mag(result) + value).astype(np.float16)).astype(np.float64)
        return value + np.where(value > 0, spacing, 0.0)

    return rounded_to_f16
