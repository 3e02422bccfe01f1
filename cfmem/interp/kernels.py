"""numpy kernels for the nn compute ops, one function per op.

Each kernel takes the op (for its attributes) and its operand arrays and
returns a new array with the op's result shape and dtype. Quantized kernels compute
what onnxruntime's x86 CPU kernels compute, bit for bit: integer sums in int32 (two's
complement, as MLAS accumulates), and the float32 operations of each op's MLAS kernel in
the same order, each rounded once (see the quantized kernels for which path each
follows). Both interpreters (tensor-level and flat) call these, so a result differs
between them only if the memory plan is wrong.

float16 follows onnxruntime's CPU kernels, most of which upcast to float32: a float op
with f16 operands runs its float32 kernel on them (the upcast is exact) and its result
is rounded to float16 once, to nearest even (see :func:`evaluate`). Ops that only move
or compare values give the same bits either way.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import math

import numpy as np
from numpy.lib.stride_tricks import as_strided, sliding_window_view
from xdsl.dialects.builtin import Float16Type, ShapedType
from xdsl.ir import Operation

from cfmem.dialects import nn_compute as nc
from cfmem.dialects import nn_quant as nq
from cfmem.dialects import nn_weights as nw
from cfmem.dialects.shapes import normalize_axis
from cfmem.dialects.shapes import reduce as reduced_shape
from cfmem.interp.weights import numpy_dtype

Kernel = Callable[..., np.ndarray]

try:  # numpy >= 2.3 contracts every pair of operands of an optimized einsum with bmm_einsum
    from numpy._core.einsumfunc import _parse_eq_to_batch_matmul as _bmm_plan
    from numpy._core.einsumfunc import _parse_output_order as _bmm_order
    from numpy._core.einsumfunc import bmm_einsum as _bmm_einsum
    from numpy._core.einsumfunc import c_einsum as _c_einsum
except ImportError:  # pragma: no cover
    _bmm_einsum = None


def _ints(attr) -> tuple[int, ...]:
    return tuple(int(v) for v in attr.get_values())


_CONTRACTIONS: dict[tuple, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {}
"""``_pairwise_einsum``'s plans by subscripts and operand layouts, for the whole process:
finding one takes milliseconds (``np.einsum_path``), and a model repeats few shapes."""


def _planned_einsum(subscripts: str, a: np.ndarray, b: np.ndarray) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """``_pairwise_einsum`` for these operands' layouts, planned once per process."""
    key = (subscripts, a.shape, a.strides, a.dtype, b.shape, b.strides, b.dtype)
    contract = _CONTRACTIONS.get(key)
    if contract is None:
        contract = _CONTRACTIONS[key] = _pairwise_einsum(subscripts, a, b)
    return contract


def _pairwise_einsum(subscripts: str, a: np.ndarray, b: np.ndarray) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """``np.einsum(subscripts, a, b, optimize=True)`` for arrays of ``a``'s and ``b``'s shapes,
    strides and dtypes, with numpy's contraction plan found once: the same numpy calls
    (transpose, reshape, matmul), so the same bits."""
    fallback = lambda x, y: np.einsum(subscripts, x, y, optimize=True)  # noqa: E731
    if _bmm_einsum is None:
        return fallback
    _, contractions = np.einsum_path(subscripts, a, b, optimize=True, einsum_call=True)
    if len(contractions) != 1 or tuple(contractions[0][0]) != (1, 0):
        return fallback
    equation = contractions[0][1]  # numpy pops operand 1, then operand 0
    eq_a, eq_b, shape_a, shape_b, shape_ab, perm_ab, pure = _bmm_plan(equation, b.shape, a.shape)
    if pure or _bmm_order("K", b.flags.f_contiguous, a.flags.f_contiguous) is not None:
        return lambda x, y: _bmm_einsum(equation, y, x)

    def contract(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        left = y if eq_a is None else _c_einsum(eq_a, y)
        if shape_a is not None:
            left = left.reshape(shape_a)
        right = x if eq_b is None else _c_einsum(eq_b, x)
        if shape_b is not None:
            right = right.reshape(shape_b)
        product = np.matmul(left, right)
        if shape_ab is not None:
            product = product.reshape(shape_ab)
        return product if perm_ab is None else product.transpose(perm_ab)

    return contract


def prepare_conv2d(op: nc.Conv2dOp) -> Callable[..., np.ndarray]:
    """Grouped, strided, dilated 2-D convolution: windows of the zero-padded input contracted
    with the weights by ``np.einsum``; the contraction order is found once per operand layout."""
    sh, sw = _ints(op.strides)
    pt, pl, pb, pr = _ints(op.pads)
    dh, dw = _ints(op.dilations)
    groups = op.groups.value.data

    def run(x: np.ndarray, w: np.ndarray, b: np.ndarray | None = None) -> np.ndarray:
        n, c, h, wd = x.shape
        o, cg, kh, kw = w.shape
        xp = x
        if pt or pl or pb or pr:  # the same zeros np.pad would put around x
            xp = np.zeros((n, c, h + pt + pb, wd + pl + pr), x.dtype)
            xp[:, :, pt : pt + h, pl : pl + wd] = x
        # windows: [n, c, oh, ow, kh, kw], every dilation-th tap of each window
        oh = (xp.shape[2] - (kh - 1) * dh - 1) // sh + 1
        ow = (xp.shape[3] - (kw - 1) * dw - 1) // sw + 1
        s0, s1, s2, s3 = xp.strides
        shape, strides = (n, c, oh, ow, kh, kw), (s0, s1, s2 * sh, s3 * sw, s2 * dh, s3 * dw)
        if xp.flags.c_contiguous:
            win = np.ndarray(shape, xp.dtype, xp, 0, strides)
        else:
            win = as_strided(xp, shape, strides, writeable=False)
        og = o // groups
        out = np.empty((n, o, oh, ow), dtype=np.result_type(x, w))
        for g in range(groups):
            xg = win[:, g * cg : (g + 1) * cg]
            wg = w[g * og : (g + 1) * og]
            out[:, g * og : (g + 1) * og] = _planned_einsum("ncxykl,ockl->noxy", xg, wg)(xg, wg)
        if b is not None:
            out += b.reshape(1, o, 1, 1)
        return out

    return run


def conv2d(op: nc.Conv2dOp, x: np.ndarray, w: np.ndarray, b: np.ndarray | None = None) -> np.ndarray:
    return prepare_conv2d(op)(x, w, b)


def _pool_windows(op: nc.Pool2dOp, x: np.ndarray, fill: float) -> np.ndarray:
    """[n, c, oh, ow, kh, kw]: each window's taps (every dilation-th element of its extent)."""
    kh, kw = _ints(op.kernel)
    sh, sw = _ints(op.strides)
    dh, dw = _ints(op.dilations)
    pt, pl, pb, pr = _ints(op.pads)
    xp = np.pad(x, ((0, 0), (0, 0), (pt, pb), (pl, pr)), constant_values=fill)
    win = sliding_window_view(xp, ((kh - 1) * dh + 1, (kw - 1) * dw + 1), axis=(2, 3))
    return win[:, :, ::sh, ::sw, ::dh, ::dw]


def max_pool2d(op: nc.MaxPool2dOp, x: np.ndarray) -> np.ndarray:
    """Integers: the largest tap of each window (padding is the type's minimum). Floats: NaN
    taps are skipped (a window of NaN alone gives NaN) and the taps are taken row by row, a
    later one replacing the best so far unless smaller, so of 0.0 and -0.0 the later wins,
    as onnxruntime's MaxPool on windows whose NaN taps are followed by a number."""
    if x.dtype.kind != "f":
        return _pool_windows(op, x, np.iinfo(x.dtype).min).max(axis=(4, 5))
    windows = _pool_windows(op, x, np.nan)
    kh, kw = windows.shape[4:]
    best = windows[..., 0, 0].copy()
    for k in range(1, kh * kw):
        tap = windows[..., k // kw, k % kw]
        np.copyto(best, tap, where=~((best > tap) | np.isnan(tap)))
    return best


def avg_pool2d(op: nc.AvgPool2dOp, x: np.ndarray) -> np.ndarray:
    sums = _pool_windows(op, x, 0.0).sum(axis=(4, 5), dtype=np.float32)
    counts = _pool_windows(op, np.ones_like(x[:1, :1]), 0.0).sum(axis=(4, 5))
    return (sums / counts).astype(np.float32)


EIGEN_PACKET = 4
"""float32 lanes of the packets onnxruntime's Eigen sums rows with on x86 (SSE, 16-byte
aligned; its buffers start aligned, so a row's alignment follows from where it starts)."""


def float_sum(x: np.ndarray, axis: tuple[int, ...], keepdims: bool) -> np.ndarray:
    """float32 sum over ``axis`` in onnxruntime's order where it is known: over the trailing
    axes (size-1 axes aside; its fast "KR" path, or all axes), each row as Eigen's vectorized
    sum adds it (:func:`eigen_row_sums`); otherwise numpy's. A sum of -0.0 alone is -0.0.
    Negative axes count from the end."""
    norm = {normalize_axis(a, x.ndim) for a in axis}
    kept = [a for a in range(x.ndim) if a not in norm and x.shape[a] > 1]
    reduced = [a for a in norm if x.shape[a] > 1]
    if not x.size or not reduced or (kept and max(kept) > min(reduced)):
        return np.asarray(np.sum(x, axis, np.float32, keepdims=keepdims, initial=-0.0), np.float32)
    rows = np.ascontiguousarray(x, np.float32).reshape(-1, math.prod(x.shape[a] for a in norm))
    return eigen_row_sums(rows).reshape(reduced_shape(x.shape, axis, keepdims))


def eigen_row_sums(rows: np.ndarray) -> np.ndarray:
    """The float32 sum of each row of a C-contiguous (R, N) array as Eigen's redux adds a
    row starting at element ``r * N`` of a 16-byte aligned buffer: the elements before the
    first aligned one and after the last whole packet aside, two packet accumulators take
    alternate packets, are added, take the odd packet left, and are reduced as ``(p0 + p2) +
    (p1 + p3)``; then the elements before, then the elements after, are added one by one. A
    row too short for one aligned packet is added from its first element on."""
    count, n = rows.shape
    sums = np.empty(count, np.float32)
    heads = np.minimum((-(np.arange(count) * n)) % EIGEN_PACKET, n)
    for head in np.unique(heads):
        which = np.nonzero(heads == head)[0]
        sums[which] = _eigen_sums(rows[which], int(head))
    return sums


def _eigen_sums(rows: np.ndarray, head: int) -> np.ndarray:
    """:func:`eigen_row_sums` for rows that all start ``head`` elements before an aligned one."""
    p = EIGEN_PACKET
    n = rows.shape[1]
    whole = (n - head) // p * p
    if not whole:
        return np.add.accumulate(rows, axis=1, dtype=np.float32)[:, -1]
    pairs = (n - head) // (2 * p) * (2 * p)
    if whole > p:
        packets = rows[:, head : head + pairs].reshape(len(rows), -1, 2, p)
        acc = np.add.accumulate(packets, axis=1, dtype=np.float32)[:, -1]  # one after the other
        packet = acc[:, 0] + acc[:, 1]
        if whole > pairs:
            packet = packet + rows[:, head + pairs : head + whole]
    else:
        packet = rows[:, head : head + p]
    total = (packet[:, 0] + packet[:, 2]) + (packet[:, 1] + packet[:, 3])
    for k in (*range(head), *range(head + whole, n)):
        total = total + rows[:, k]
    return total


def mean(x: np.ndarray, axis: tuple[int, ...], keepdims: bool) -> np.ndarray:
    """float32 mean over ``axis``: :func:`float_sum` divided by the count, as onnxruntime's
    ReduceMean divides; over no elements it is NaN (0 / 0), as in the lowered loops, without
    numpy's empty-slice warning."""
    if all(x.shape[a] for a in axis):
        count = math.prod(x.shape[a] for a in axis)
        return np.asarray(float_sum(x, axis, keepdims) / np.float32(count), np.float32)
    return np.full(np.sum(x, axis=axis, keepdims=keepdims).shape, np.nan, np.float32)


def global_avg_pool(x: np.ndarray) -> np.ndarray:
    """float32 mean of each (N, C) plane, numpy's sum divided by H * W (onnxruntime's MLAS
    kernel adds in an order of its own, followed by neither this nor :func:`float_sum`)."""
    return np.asarray(np.sum(x, (2, 3), np.float32, keepdims=True) / np.float32(x.shape[2] * x.shape[3]), np.float32)


def prepare_gemm(op: nc.GemmOp) -> Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]:
    if op.trans_b.value.data:
        return lambda a, b, c: a @ b.T + c
    return lambda a, b, c: a @ b + c


def softmax(op: nc.SoftmaxOp, x: np.ndarray) -> np.ndarray:
    axis = op.axis.value.data
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def arg_extreme(op: nc.ArgExtremeOp, x: np.ndarray) -> np.ndarray:
    """numpy's argmax or argmin along the axis; the last tie from the far end, reversed."""
    axis = op.axis.value.data % x.ndim
    pick = np.argmax if isinstance(op, nc.ArgMaxOp) else np.argmin
    if op.select_last_index.value.data:
        index = x.shape[axis] - 1 - pick(np.flip(x, axis), axis=axis)
    else:
        index = pick(x, axis=axis)
    if op.keepdims.value.data:
        index = np.expand_dims(index, axis)
    return np.asarray(index, np.int64)


def power(op: nc.PowOp, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """C's ``powf`` on each pair, as onnxruntime and the lowered loops compute it. numpy
    takes a square root where the exponent 0.5 is one element broadcast over the bases
    (``sqrt(-inf)`` is NaN and ``sqrt(-0.0)`` is -0.0 where ``powf`` gives inf and 0.0), so
    each base is given its own exponent element."""
    shape = np.broadcast_shapes(a.shape, b.shape)
    exponents = np.array(np.broadcast_to(b, shape)).reshape(-1)
    return np.power(np.broadcast_to(a, shape).reshape(-1), exponents).reshape(shape)


def sigmoid(op: nc.SigmoidOp, x: np.ndarray) -> np.ndarray:
    return (1.0 / (1.0 + np.exp(-x))).astype(np.float32)


def prepare_slice(op: nc.SliceOp) -> Callable[[np.ndarray], np.ndarray]:
    index = []
    for start, step, count in op.bounds():
        stop = start + step * count
        index.append(slice(start, stop if stop >= 0 else None, step))
    index = tuple(index)
    return lambda x: x[index]


def prepare_pad(op: nc.PadOp) -> Callable[[np.ndarray], np.ndarray]:
    widths = list(zip(*op.before_after()))
    mode = op.mode.data
    if mode == "constant":
        value = np.float32(op.value.value.data)
        return lambda x: np.pad(x, widths, constant_values=value)
    if mode == "reflect":
        return lambda x: _reflect(x, widths) if _reflects(x, widths) else np.pad(x, widths, mode=mode)
    return lambda x: np.pad(x, widths, mode=mode)


def _reflects(x: np.ndarray, widths: list[tuple[int, int]]) -> bool:
    """Every pad of ``x`` is one reflection, shorter than its axis (np.pad's simple case)."""
    return all(0 <= a < n and 0 <= b < n for (a, b), n in zip(widths, x.shape))


def _reflect(x: np.ndarray, widths: list[tuple[int, int]]) -> np.ndarray:
    """``np.pad(x, widths, mode="reflect")`` for pads shorter than their axes: the elements
    next to each edge, mirrored, the edge itself not repeated."""
    for axis, (before, after) in enumerate(widths):
        if before or after:
            parts = np.moveaxis(x, axis, -1)
            last = parts.shape[-1] - 1
            stop = last - 1 - after
            # (the last slice keeps an axis of one element from reading itself backwards)
            left, right = parts[..., before:0:-1], parts[..., last - 1 : stop if stop >= 0 else None : -1][..., :after]
            x = np.moveaxis(np.concatenate([left, parts, right], axis=-1), -1, axis)
    return np.ascontiguousarray(x)


def gather(op: nc.GatherOp, data: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """numpy ``take``: negative indices count from the end, others out of range raise IndexError."""
    return np.take(data, indices, axis=op.normalized_axis())


def gather_elements(op: nc.GatherElementsOp, data: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """``take_along_axis`` on the part of ``data`` the indices cover on the other axes."""
    axis = op.normalized_axis()
    covered = tuple(slice(None) if k == axis else slice(0, n) for k, n in enumerate(indices.shape))
    return np.take_along_axis(data[covered], indices, axis=axis)


def top_k(op: nc.TopKOp, x: np.ndarray) -> np.ndarray:
    """Stable argsort (of ``-x`` for the largest): equal elements keep their order."""
    axis = op.normalized_axis()
    order = np.argsort(-x if op.largest.value.data else x, axis=axis, kind="stable")
    return np.take(order, np.arange(op.k.value.data), axis=axis).astype(np.int64)


_ERF = np.frompyfunc(math.erf, 1, 1)


def erf(op: Operation, x: np.ndarray) -> np.ndarray:
    """The error function, computed in double precision and rounded to ``x``'s type."""
    return np.asarray(_ERF(x.astype(np.float64)), np.float64).astype(x.dtype)


def cast(op: nc.CastOp, x: np.ndarray) -> np.ndarray:
    """ONNX Cast: floats truncate toward zero, integers keep their low bits, ``!= 0`` to bool."""
    dtype = numpy_dtype(op.result.type.get_element_type())
    return x != 0 if dtype == np.bool_ else x.astype(dtype)


# --- quantized ops -----------------------------------------------------------------------


def quant_params(op: Operation, prefix: str) -> tuple[np.ndarray, np.ndarray]:
    """``<prefix>_scale`` as float32 and ``<prefix>_zero_point`` as int64 arrays."""
    scale = np.array(nq.floats(op.properties[f"{prefix}_scale"]), np.float32)
    return scale, np.array(_ints(op.properties[f"{prefix}_zero_point"]), np.int64)


def _along(values: np.ndarray, axis: int, rank: int) -> np.ndarray:
    """A per-axis parameter shaped to broadcast along ``axis`` of a rank-``rank`` tensor
    (a one-element parameter is a scalar)."""
    if values.size == 1:
        return values.reshape(())
    shape = [1] * rank
    shape[normalize_axis(axis, rank)] = values.size
    return values.reshape(shape)


def saturate(values: np.ndarray, zero_point: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """``round_half_even(values) + zero_point``, clamped to ``dtype``'s range (values past
    any integer, infinities included, first clamped in float; NaN comes out as the minimum):
    MLAS's QuantizeLinear and MlasRequantizeOutput, which clamp the float to the range less
    the zero point before converting (``_mm_max_ps`` keeps the clamp bound for NaN)."""
    info = np.iinfo(dtype)
    rounded = np.clip(np.nan_to_num(np.rint(values), nan=-(2.0**31)), -(2.0**31), 2.0**31)
    return np.clip(rounded.astype(np.int64) + zero_point, info.min, info.max).astype(dtype)


def convert_and_pack(values: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """float32 ``values`` converted as x86's ``cvtps2dq`` converts (round half to even; NaN
    and values outside int32 give INT32_MIN), then narrowed to ``dtype`` by saturating packs
    (int32 to int16 to 8 bits): the MLAS QLinearAdd and QLinearMul kernels, which add the
    zero point in float and clamp nothing before the conversion."""
    values = np.asarray(values, np.float32)
    inside = (values >= -(2.0**31)) & (values < 2.0**31)  # False for NaN
    converted = np.where(inside, np.rint(np.where(inside, values, 0)), -(2.0**31)).astype(np.int64)
    info = np.iinfo(dtype)
    return np.clip(converted, info.min, info.max).astype(dtype)


def _result_dtype(op: Operation) -> np.dtype:
    return numpy_dtype(op.results[0].type.get_element_type())


def quantize(op: nq.QuantizeOp, x: np.ndarray) -> np.ndarray:
    """onnxruntime QuantizeLinear (MlasQuantizeLinear): ``x / scale`` in float32, then
    :func:`saturate`."""
    scale, zero_point = (_along(p, op.axis.value.data, x.ndim) for p in quant_params(op, "y"))
    return saturate(x / scale, zero_point, _result_dtype(op))


def dequantize(op: nq.DequantizeOp, x: np.ndarray) -> np.ndarray:
    scale, zero_point = (_along(p, op.axis.value.data, x.ndim) for p in quant_params(op, "x"))
    return (x.astype(np.int64) - zero_point).astype(np.float32) * scale


def qlookup(op: nq.QLookupOp, x: np.ndarray) -> np.ndarray:
    table = np.array(_ints(op.table), np.int64).astype(_result_dtype(op))
    return table[x.astype(np.int64) - np.iinfo(x.dtype).min]


def matmul_integer(op: nq.MatmulIntegerOp, a: np.ndarray, b: np.ndarray, a_zero: np.ndarray, b_zero: np.ndarray) -> np.ndarray:
    centered = [x.astype(np.int64) - z.astype(np.int64).reshape(()) for x, z in ((a, a_zero), (b, b_zero))]
    return np.matmul(*centered).astype(np.int32)


def conv_integer(op: nq.ConvIntegerOp, x: np.ndarray, w: np.ndarray, x_zero: np.ndarray, w_zero: np.ndarray) -> np.ndarray:
    centered = [v.astype(np.int64) - z.astype(np.int64).reshape(()) for v, z in ((x, x_zero), (w, w_zero))]
    return conv2d(op, *centered).astype(np.int32)  # padding the centred input with 0 pads it with its zero point


def _centered(op: Operation, prefix: str, x: np.ndarray, axis: int = 0) -> np.ndarray:
    """``x - zero_point`` as int64 (a per-axis zero point runs along ``axis``)."""
    return x.astype(np.int64) - _along(quant_params(op, prefix)[1], axis, x.ndim)


def requant_ratio(op: Operation, *prefixes: str, alpha: float = 1.0) -> np.ndarray:
    """The float32 product of the scales of ``prefixes`` (times ``alpha``, first) over
    ``y_scale``, one rounding per operation from the left: onnxruntime's
    ``X_scale * W_scale[i] / Y_scale`` (QLinearConv, QLinearMatMul),
    ``alpha * A_scale * B_scale[i] / Y_scale`` (QGemm) and ``ScaleA * ScaleB / ScaleC``
    (MlasQLinearMul)."""
    product = np.float32(alpha)
    for prefix in prefixes:
        product = product * quant_params(op, prefix)[0]
    return product / quant_params(op, "y")[0] if "y_scale" in op.properties else product


def _requantize_output(acc: np.ndarray, ratio: np.ndarray, op: Operation) -> np.ndarray:
    """MlasRequantizeOutput (and the same steps in MlasConvSym's kernels): the int32 sum
    (bias included, wrapping as int32 does) converted to float32, times the float32 ratio,
    then :func:`saturate` with the y zero point."""
    scaled = acc.astype(np.int32).astype(np.float32) * ratio
    return saturate(scaled, quant_params(op, "y")[1], _result_dtype(op))


def qconv2d(op: nq.QConv2dOp, x: np.ndarray, w: np.ndarray, bias: np.ndarray | None = None) -> np.ndarray:
    """onnxruntime QLinearConv on x86, every path alike (MlasGemm or MlasConvDepthwise, then
    MlasRequantizeOutput; MlasConvSym and MlasConvSymDepthwise requantize with the same
    steps): the i32 sum plus the i32 bias, requantized by :func:`requant_ratio` per tensor or
    per output channel. Not followed: the AVX2 uint8 x int8 kernels without VNNI
    (``vpmaddubsw``) saturate a pair of products past int16, which these exact sums do not."""
    acc = conv2d(op, _centered(op, "x", x), _centered(op, "w", w))
    if bias is not None:
        acc = acc + bias.astype(np.int64).reshape(1, -1, 1, 1)
    ratio = requant_ratio(op, "x", "w")
    return _requantize_output(acc, ratio.reshape(1, -1, 1, 1) if ratio.size > 1 else ratio.reshape(()), op)


def qgemm(op: nq.QGemmOp, a: np.ndarray, b: np.ndarray, c: np.ndarray | None = None) -> np.ndarray:
    """onnxruntime QGemm and QLinearMatMul (MlasGemm with C added into the int32 sum, then
    MlasRequantizeOutput, or for a float result MLAS_QGEMM_SCALE_BIAS_OUTPUT_PROCESSOR:
    the float32 sum times the ratio)."""
    trans = bool(op.trans_b.value.data)
    acc = _centered(op, "a", a) @ (_centered(op, "b", b, 0).T if trans else _centered(op, "b", b, 1))
    if c is not None:
        acc = acc + c.astype(np.int64)
    ratio = requant_ratio(op, "a", "b", alpha=op.alpha.value.data)
    ratio = ratio if ratio.size > 1 else ratio.reshape(())
    if op.element is None:
        return acc.astype(np.int32).astype(np.float32) * ratio
    return _requantize_output(acc, ratio, op)


def _fma32(a: np.ndarray, b: np.ndarray | np.float32, c: np.ndarray | np.float32) -> np.ndarray:
    """float32 ``a * b + c`` rounded once, as a fused multiply-add (exact in float64 for
    the 8-bit-times-float32 products it is used on)."""
    return (np.asarray(a, np.float64) * np.float64(b) + np.asarray(c, np.float64)).astype(np.float32)


def span_scalar(lhs: tuple[int, ...], rhs: tuple[int, ...]) -> int | None:
    """Which operand (0 or 1) onnxruntime's broadcaster (``Broadcaster`` in
    element_wise_ops.h) holds at one value across each span of the output, or None when
    both run along it: the innermost axis, right-aligned, at which either operand is longer
    than 1 (the outermost common axis if none is; a rank-0 operand counts as one element
    there) decides, the first operand before the second when both are 1 there."""
    common = min(len(lhs), len(rhs))
    if common == 0:
        return 0 if not lhs or lhs[-1] == 1 else 1
    for k in range(1, common + 1):
        first, second = lhs[-k], rhs[-k]
        if max(first, second) > 1 or k == common:
            return 0 if first == 1 else 1 if second == 1 else None
    raise AssertionError("unreachable")


def qadd_terms(op: nq.QAddOp) -> tuple[bool, np.float32, np.float32, np.float32]:
    """The constants of onnxruntime's x86 QLinearAdd (MlasQLinearAddKernelAvx2Helper), which
    takes the operand that runs along the spans first: whether that is ``rhs`` (when
    :func:`span_scalar` holds ``lhs`` fixed), then the ratios of the first and second
    operands' scales to ``y_scale`` and the fixed part ``y_zero_point - (ratio_1 *
    zero_point_1 + ratio_2 * zero_point_2)``, contracted to a fused multiply-add as the
    compiler does."""
    swap = span_scalar(*(tuple(v.type.get_shape()) for v in op.operands)) == 0
    first, second = ("b", "a") if swap else ("a", "b")
    y_scale = quant_params(op, "y")[0][0]
    ratio_1, ratio_2 = quant_params(op, first)[0][0] / y_scale, quant_params(op, second)[0][0] / y_scale
    zp_1, zp_2, zp_y = (np.float32(quant_params(op, p)[1][0]) for p in (first, second, "y"))
    return swap, ratio_1, ratio_2, zp_y - _fma32(ratio_1, zp_1, ratio_2 * zp_2)


def qadd(op: nq.QAddOp, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """onnxruntime's x86 QLinearAdd (the AVX2 kernel): ``first * ratio_1 + (second * ratio_2
    + fixed)`` in fused float32 multiply-adds (see :func:`qadd_terms`; a second operand held
    at one value per span has its product folded into the fixed part the same way), then
    :func:`convert_and_pack`."""
    swap, ratio_1, ratio_2, fixed = qadd_terms(op)
    first, second = (b, a) if swap else (a, b)
    value = _fma32(first.astype(np.float32), ratio_1, _fma32(second.astype(np.float32), ratio_2, fixed))
    return convert_and_pack(value, _result_dtype(op))


def qmul(op: nq.QMulOp, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """onnxruntime's x86 QLinearMul (MlasQLinearMulKernel, SSE2): the exact product of the
    centred operands as float32, times the ratio (:func:`requant_ratio`), plus the y zero
    point as float32 (so a sum that float32 rounds onto a half is what rounds), then
    :func:`convert_and_pack`."""
    product = (_centered(op, "a", a) * _centered(op, "b", b)).astype(np.float32)
    shifted = product * requant_ratio(op, "a", "b").reshape(()) + np.float32(quant_params(op, "y")[1][0])
    return convert_and_pack(shifted, _result_dtype(op))


def qconcat(op: nq.QConcatOp, *xs: np.ndarray) -> np.ndarray:
    """onnxruntime QLinearConcat: each input through its lookup table (QlinearBuildLookupTable:
    ``x_scale * (q - x_zero_point)`` in float32, then MlasQuantizeLinear to y), joined."""
    scales, zero_points = quant_params(op, "x")
    y_scale, y_zero_point = quant_params(op, "y")
    dtype = _result_dtype(op)
    parts = [saturate((x.astype(np.int64) - zp).astype(np.float32) * s / y_scale, y_zero_point, dtype)
             for x, s, zp in zip(xs, scales, zero_points, strict=True)]  # fmt: skip
    return np.concatenate(parts, axis=op.axis.value.data)


def cumsum(op: nc.CumsumOp, x: np.ndarray) -> np.ndarray:
    """float32 running sums, added one element after the other from the start (or the
    end, for ``reverse``); ``exclusive`` shifts them by one, 0 first."""
    axis = op.axis.value.data
    ordered = np.flip(x, axis) if op.reverse.value.data else x
    sums = np.cumsum(ordered, axis=axis, dtype=np.float32)
    if op.exclusive.value.data:
        shifted = np.zeros_like(sums)
        np.moveaxis(shifted, axis, 0)[1:] = np.moveaxis(sums, axis, 0)[:-1]
        sums = shifted
    return np.flip(sums, axis) if op.reverse.value.data else sums


def first_extreme(x: np.ndarray, axes: tuple[int, ...], keepdims: bool, largest: bool) -> np.ndarray:
    """The largest (smallest) element over ``axes`` as a row-major scan from the first element
    finds it, replacing the best so far only by a strictly larger (smaller) one: NaN only
    when the first element is NaN, and of equal elements (0.0 and -0.0) the first. That is
    onnxruntime's ReduceMax / ReduceMin on an axis too short for its vector loop. Over no
    elements it raises ValueError, as ``np.max``."""
    axes = tuple(sorted(a % x.ndim for a in axes))
    kept = [a for a in range(x.ndim) if a not in axes]
    rows = np.transpose(x, kept + list(axes)).reshape(*(x.shape[a] for a in kept), -1)
    value = (np.fmax if largest else np.fmin).reduce(rows, axis=-1, keepdims=True)
    best = np.take_along_axis(rows, np.argmax(rows == value, axis=-1, keepdims=True), -1)  # all NaN: no match, 0
    head = rows[..., :1]
    best = np.where(head != head, head, best)[..., 0]
    return np.expand_dims(best, axes) if keepdims else best


def prepare_reduce(op: nc.ReduceOp) -> Callable[[np.ndarray], np.ndarray]:
    """ReduceMean/Sum/Max/Min/Prod over the op's axes (sums by :func:`float_sum`, products in
    float32; the extremes by :func:`first_extreme`)."""
    axes, keepdims = _ints(op.axes), bool(op.keepdims.value.data)
    if isinstance(op, nc.ReduceMeanOp):
        return lambda x: mean(x, axes, keepdims)
    if isinstance(op, nc.ReduceSumOp):
        return lambda x: float_sum(x, axes, keepdims)
    if isinstance(op, nc.ReduceProdOp):
        return lambda x: np.prod(x, axes, np.float32, keepdims=keepdims)
    largest = isinstance(op, nc.ReduceMaxOp)
    return lambda x: first_extreme(x, axes, keepdims, largest)


def _with_op(prepare_kernel: Callable[[Operation], Callable[..., np.ndarray]]) -> Kernel:
    """The ``kernel(op, *args)`` form of a kernel that resolves its attributes first."""
    return lambda op, *args: prepare_kernel(op)(*args)


_CMP = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal}


def _prepare_clamp(op: nc.ClampOp) -> Callable[[np.ndarray], np.ndarray]:
    low, high = np.float32(op.min.value.data), np.float32(op.max.value.data)
    return lambda x: np.clip(x, low, high)


def _prepare_concat(op: nc.ConcatOp) -> Callable[..., np.ndarray]:
    axis = op.axis.value.data
    return lambda *xs: np.concatenate(xs, axis=axis)


def _prepare_transpose(op: nc.TransposeOp) -> Callable[[np.ndarray], np.ndarray]:
    perm = _ints(op.perm)
    return lambda x: np.transpose(x, perm)


def _prepare_reshape(op: nw.ReshapeOp) -> Callable[[np.ndarray], np.ndarray]:
    shape = tuple(op.result.type.get_shape())
    return lambda x: x.reshape(shape)


PREPARERS: dict[type[Operation], Callable[[Operation], Callable[..., np.ndarray]]] = {
    nc.CmpOp: lambda op: _CMP[op.predicate.data],
    nc.ClampOp: _prepare_clamp,
    nc.Conv2dOp: prepare_conv2d,
    nc.GemmOp: prepare_gemm,
    nc.ReduceMeanOp: prepare_reduce,
    nc.ReduceSumOp: prepare_reduce,
    nc.ReduceMaxOp: prepare_reduce,
    nc.ReduceMinOp: prepare_reduce,
    nc.ReduceProdOp: prepare_reduce,
    nc.ConcatOp: _prepare_concat,
    nc.TransposeOp: _prepare_transpose,
    nc.SliceOp: prepare_slice,
    nc.PadOp: prepare_pad,
    nw.ReshapeOp: _prepare_reshape,
}
"""Kernels that read their op's attributes once: ``PREPARERS[type](op)`` computes on arrays alone."""

KERNELS: dict[type[Operation], Kernel] = {
    **{op_type: _with_op(prepare_kernel) for op_type, prepare_kernel in PREPARERS.items()},
    nc.CastOp: cast,
    nc.AddOp: lambda op, a, b: a + b,
    nc.SubOp: lambda op, a, b: a - b,
    nc.MulOp: lambda op, a, b: a * b,
    nc.DivOp: lambda op, a, b: a / b,
    nc.PowOp: power,
    nc.MaxOp: lambda op, a, b: np.where((a > b) | (a != a), a, b),  # NaN wins; of equals, b
    nc.MinOp: lambda op, a, b: np.where((a < b) | (a != a), a, b),
    nc.ReluOp: lambda op, x: np.maximum(x, np.float32(0)),
    nc.SigmoidOp: sigmoid,
    nc.TanhOp: lambda op, x: np.tanh(x),
    nc.SqrtOp: lambda op, x: np.sqrt(x),
    nc.ExpOp: lambda op, x: np.exp(x),
    nc.NegOp: lambda op, x: np.negative(x),
    nc.LogOp: lambda op, x: np.log(x),
    nc.AbsOp: lambda op, x: np.abs(x),
    nc.FloorOp: lambda op, x: np.floor(x),
    nc.CeilOp: lambda op, x: np.ceil(x),
    nc.RoundOp: lambda op, x: np.round(x),  # halves to even, as ONNX Round
    nc.SignOp: lambda op, x: np.sign(x),
    nc.ErfOp: erf,
    nc.SinOp: lambda op, x: np.sin(x),
    nc.CosOp: lambda op, x: np.cos(x),
    nc.ReciprocalOp: lambda op, x: np.reciprocal(x),
    nc.AndOp: lambda op, a, b: np.logical_and(a, b),
    nc.OrOp: lambda op, a, b: np.logical_or(a, b),
    nc.XorOp: lambda op, a, b: np.logical_xor(a, b),
    nc.NotOp: lambda op, x: np.logical_not(x),
    nc.SelectOp: lambda op, c, a, b: np.where(c, a, b),
    nc.FmodOp: lambda op, a, b: np.fmod(a, b),
    nc.ModOp: lambda op, a, b: np.mod(a, b),
    nc.CumsumOp: cumsum,
    nc.MatmulOp: lambda op, a, b: np.matmul(a, b),
    nc.MaxPool2dOp: max_pool2d,
    nc.AvgPool2dOp: avg_pool2d,
    nc.GlobalAvgPoolOp: lambda op, x: global_avg_pool(x),
    nc.ArgMaxOp: arg_extreme,
    nc.ArgMinOp: arg_extreme,
    nc.SoftmaxOp: softmax,
    nc.GatherOp: gather,
    nc.GatherElementsOp: gather_elements,
    nc.TopKOp: top_k,
    nq.QuantizeOp: quantize,
    nq.DequantizeOp: dequantize,
    nq.QConv2dOp: qconv2d,
    nq.QGemmOp: qgemm,
    nq.QAddOp: qadd,
    nq.QMulOp: qmul,
    nq.QConcatOp: qconcat,
    nq.QLookupOp: qlookup,
    nq.MatmulIntegerOp: matmul_integer,
    nq.ConvIntegerOp: conv_integer,
}


def prepare(op: Operation, index_error: Callable[[IndexError], Exception] | None = None
            ) -> Callable[[list[np.ndarray]], np.ndarray]:
    """A function from ``op``'s arguments to its result as a fresh contiguous array, with
    the kernel, the op's attributes and its result type resolved once; the caller runs it
    under ``np.errstate(all="ignore")``. An index out of range (a gather's) raises
    ``index_error(err)`` when given.

    float16 arguments are given to the kernel as float32 and a float32 result of an op
    whose result type is f16 is rounded to float16 once: float32 computation, one
    rounding (``nn.cast`` to f16 rounds its own input directly)."""
    op_type = type(op)
    if op_type in PREPARERS:
        kernel = PREPARERS[op_type](op)
    elif op_type in KERNELS:
        kernel = partial(KERNELS[op_type], op)
    else:
        raise NotImplementedError(f"no kernel for '{op.name}'")
    result_type = op.results[0].type
    want = tuple(result_type.get_shape())
    dtype = numpy_dtype(result_type.get_element_type())
    round_to_f16 = dtype == np.float16
    widen = any(isinstance(v.type, ShapedType) and isinstance(v.type.get_element_type(), Float16Type) for v in op.operands)
    name = op.name

    def run(args: list[np.ndarray]) -> np.ndarray:
        if widen:
            args = [a.astype(np.float32) if a.dtype == np.float16 else a for a in args]
        try:
            result = kernel(*args)
        except IndexError as err:
            if index_error is None:
                raise
            raise index_error(err) from None
        if type(result) is not np.ndarray:
            result = np.asarray(result)
        if round_to_f16 and result.dtype == np.float32:
            result = result.astype(np.float16)
        if not result.flags.c_contiguous:  # (np.ascontiguousarray would make a 0-d result 1-d)
            result = result.copy(order="C")
        assert result.shape == want, f"{name} produced {result.shape}, expected {want}"
        assert result.dtype == dtype, f"{name} produced {result.dtype}, expected {dtype}"
        return result

    return run

