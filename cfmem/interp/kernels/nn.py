"""Convolution, pooling, gemm, matmul and softmax.

A convolution contracts windows of its zero-padded input with its weights by ``np.einsum``;
the contraction plan numpy would find is found once per operand layout and kept for the
process, and run with the same numpy calls (transpose, reshape, matmul), so the same bits.
Pooling windows are strided views of the padded input. An op with ``sum_order =
"sequential"`` adds its sums in TFLite Micro's order instead
(:mod:`~cfmem.interp.kernels.sequential`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.lib.stride_tricks import as_strided, sliding_window_view

from cfmem.dialects import nn_compute as nc
from cfmem.interp.kernels import sequential
from cfmem.interp.kernels.attributes import _ints


try:  # numpy >= 2.3 contracts every pair of operands of an optimized einsum with bmm_einsum
    from numpy._core.einsumfunc import _parse_eq_to_batch_matmul as _bmm_plan
    from numpy._core.einsumfunc import _parse_output_order as _bmm_order
    from numpy._core.einsumfunc import bmm_einsum as _bmm_einsum
    from numpy._core.einsumfunc import c_einsum as _c_einsum
except ImportError:  # pragma: no cover
    _bmm_einsum = None


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


def prepare_conv2d(op: nc.ConvWindowOp) -> Callable[..., np.ndarray]:
    """Grouped, strided, dilated 2-D convolution: windows of the zero-padded input contracted
    with the weights by ``np.einsum`` (the contraction order found once per operand layout), or
    summed in TFLite Micro's order for ``sum_order = "sequential"``; then the bias is added.
    The quantized convolutions run it on their integer sums."""
    sh, sw = _ints(op.strides)
    pt, pl, pb, pr = _ints(op.pads)
    dh, dw = _ints(op.dilations)
    groups = op.groups.value.data
    in_order = isinstance(op, nc.SumOrderOp) and op.sums_sequentially()

    def run(x: np.ndarray, w: np.ndarray, b: np.ndarray | None = None) -> np.ndarray:
        n, c, h, wd = x.shape
        o, cg, kh, kw = w.shape
        xp = x
        if pt or pl or pb or pr:  # the same zeros np.pad would put around x
            xp = np.zeros((n, c, h + pt + pb, wd + pl + pr), x.dtype)
            xp[:, :, pt : pt + h, pl : pl + wd] = x
        oh = (xp.shape[2] - (kh - 1) * dh - 1) // sh + 1
        ow = (xp.shape[3] - (kw - 1) * dw - 1) // sw + 1
        if in_order:
            out = sequential.conv2d(xp, w, (oh, ow), (sh, sw), (dh, dw), groups)
        else:
            out = _einsum_conv2d(xp, w, (oh, ow), (sh, sw), (dh, dw), groups)
        if b is not None:
            out += b.reshape(1, o, 1, 1)
        return out

    return run


def _einsum_conv2d(xp: np.ndarray, w: np.ndarray, out_hw: tuple[int, int], strides: tuple[int, int],
                   dilations: tuple[int, int], groups: int) -> np.ndarray:  # fmt: skip
    """The sums of a grouped convolution of the zero-padded NCHW input ``xp`` with OIHW ``w``,
    group by group by ``_planned_einsum``."""
    (oh, ow), (sh, sw), (dh, dw) = out_hw, strides, dilations
    n = xp.shape[0]
    o, cg, kh, kw = w.shape
    # windows: [n, c, oh, ow, kh, kw], every dilation-th tap of each window
    s0, s1, s2, s3 = xp.strides
    shape, window_strides = (n, xp.shape[1], oh, ow, kh, kw), (s0, s1, s2 * sh, s3 * sw, s2 * dh, s3 * dw)
    if xp.flags.c_contiguous:
        win = np.ndarray(shape, xp.dtype, xp, 0, window_strides)
    else:
        win = as_strided(xp, shape, window_strides, writeable=False)
    og = o // groups
    out = np.empty((n, o, oh, ow), dtype=np.result_type(xp, w))
    for g in range(groups):
        xg = win[:, g * cg : (g + 1) * cg]
        wg = w[g * og : (g + 1) * og]
        out[:, g * og : (g + 1) * og] = _planned_einsum("ncxykl,ockl->noxy", xg, wg)(xg, wg)
    return out


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
    """Floats: the float32 sum over the unpadded taps (numpy's, or row by row for ``sum_order =
    "sequential"``), divided by their count. Integers (i8, ui8): the exact sum divided by the
    count, halves rounded away from zero (TFLite's ``(acc + count / 2) / count`` toward zero,
    negated for a negative sum)."""
    if x.dtype.kind != "f":
        sums = _pool_windows(op, x.astype(np.int64), 0).sum(axis=(4, 5))
        counts = _pool_windows(op, np.ones_like(x[:1, :1], np.int64), 0).sum(axis=(4, 5))
        rounded = np.sign(sums) * ((np.abs(sums) + counts // 2) // counts)
        return rounded.astype(x.dtype)
    windows = _pool_windows(op, x, 0.0)
    sums = sequential.window_sums(windows) if op.sums_sequentially() else windows.sum(axis=(4, 5), dtype=np.float32)
    counts = _pool_windows(op, np.ones_like(x[:1, :1]), 0.0).sum(axis=(4, 5))
    return (sums / counts).astype(np.float32)


def global_avg_pool(x: np.ndarray) -> np.ndarray:
    """float32 mean of each (N, C) plane, numpy's sum divided by H * W (onnxruntime's MLAS
    kernel adds in an order of its own, followed by neither this nor :func:`float_sum`)."""
    return np.asarray(np.sum(x, (2, 3), np.float32, keepdims=True) / np.float32(x.shape[2] * x.shape[3]), np.float32)


def prepare_gemm(op: nc.GemmOp) -> Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]:
    """``a @ b + c`` (``b.T`` for ``trans_b``): numpy's product, or the sums in TFLite Micro's
    order for ``sum_order = "sequential"``; then ``c`` is added."""
    product = sequential.matmul if op.sums_sequentially() else np.matmul
    if op.trans_b.value.data:
        return lambda a, b, c: product(a, b.T) + c
    return lambda a, b, c: product(a, b) + c


def matmul(op: nc.MatmulOp, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """numpy's ``a @ b``, or the sums in TFLite Micro's order for ``sum_order = "sequential"``."""
    return sequential.matmul(a, b) if op.sums_sequentially() else np.matmul(a, b)


def softmax(op: nc.SoftmaxOp, x: np.ndarray) -> np.ndarray:
    """The exponentials of the differences to the largest element along the axis, each divided
    by their sum (numpy's, or in order along the axis for ``sum_order = "sequential"``)."""
    axis = op.axis.value.data
    if op.sums_sequentially():
        return sequential.softmax(x, axis)
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)
