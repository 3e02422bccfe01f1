"""float32 sums in TFLite Micro's order: the kernels of ops with ``sum_order = "sequential"``.

TFLite Micro's reference kernels (``reference/conv.h``, ``depthwiseconv_float.h``,
``fully_connected.h``, ``batch_matmul.h``, ``reduce.h``, ``pooling.h``, ``softmax.h`` in its
repository) keep one float32 accumulator per result element, start it at 0.0 and add one term
at a time; built for x86 without fused multiply-add, each product is rounded to float32 before
it is added, and a bias is added to the finished sum. These kernels do the same for every result
element at once: the only Python loop runs over the reduction index, each step one rounded
multiply and one rounded add over arrays of the result's shape, so the bits are TFLite Micro's
(see :class:`cfmem.dialects.nn_compute.SumOrderOp` for each op's order of terms).

A padded tap adds a zero product, which TFLite Micro skips: the same sum, since an accumulator
started at +0.0 never holds -0.0 (weights that are not finite aside).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def conv2d(xp: np.ndarray, w: np.ndarray, out_hw: tuple[int, int], strides: tuple[int, int],
           dilations: tuple[int, int], groups: int) -> np.ndarray:  # fmt: skip
    """The sums of a grouped convolution of the zero-padded NCHW input ``xp`` with OIHW ``w``
    (no bias), over the window's rows, then its columns, then the group's input channels."""
    n = xp.shape[0]
    o, cg, kh, kw = w.shape
    (oh, ow), (sh, sw), (dh, dw) = out_hw, strides, dilations
    og = o // groups
    acc = np.zeros((n, groups, og, oh, ow), np.float32)
    product = np.empty_like(acc)
    taps = w.reshape(groups, og, cg, kh, kw)
    for ky in range(kh):
        rows = xp[:, :, ky * dh : ky * dh + (oh - 1) * sh + 1 : sh]
        for kx in range(kw):
            window = rows[:, :, :, kx * dw : kx * dw + (ow - 1) * sw + 1 : sw]  # [n, c, oh, ow]
            for c in range(cg):
                x_c = window[:, c::cg, None]  # channel c of every group: [n, groups, 1, oh, ow]
                np.multiply(x_c, taps[None, :, :, c, ky, kx, None, None], out=product)
                np.add(acc, product, out=acc)
    return acc.reshape(n, o, oh, ow)


def matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """numpy's ``a @ b`` (batch dimensions broadcast), each element summed over the contraction
    index in order."""
    shape = (*np.broadcast_shapes(a.shape[:-2], b.shape[:-2]), a.shape[-2], b.shape[-1])
    acc = np.zeros(shape, np.float32)
    product = np.empty_like(acc)
    for k in range(a.shape[-1]):
        np.multiply(a[..., :, k : k + 1], b[..., k : k + 1, :], out=product)
        np.add(acc, product, out=acc)
    return acc


def _rows(x: np.ndarray, axes: Sequence[int]) -> tuple[np.ndarray, tuple[int, ...]]:
    """``x`` with the kept axes first and ``axes`` (in the order given) flattened into the last,
    and the kept axes' shape."""
    kept = [a for a in range(x.ndim) if a not in axes]
    moved = np.transpose(x, [*kept, *axes])
    shape = tuple(x.shape[a] for a in kept)
    return moved.reshape(*shape, -1), shape


def reduce_sum(x: np.ndarray, axes: Sequence[int]) -> np.ndarray:
    """The float32 sum over ``axes`` (normalized), adding the elements in row-major order of
    ``axes`` taken in the order given, without the reduced axes. ``np.add.accumulate`` adds one
    element after the other; adding 0.0 to its last sum gives the +0.0 of a sum of -0.0 alone,
    as an accumulator started at 0.0 does."""
    rows, shape = _rows(x, axes)
    if not rows.shape[-1]:
        return np.zeros(shape, np.float32)
    return np.add.accumulate(rows, axis=-1, dtype=np.float32)[..., -1] + np.float32(0.0)


def reduce_prod(x: np.ndarray, axes: Sequence[int]) -> np.ndarray:
    """The float32 product over ``axes``, multiplying in :func:`reduce_sum`'s order from 1.0."""
    rows, shape = _rows(x, axes)
    if not rows.shape[-1]:
        return np.ones(shape, np.float32)
    return np.multiply.accumulate(rows, axis=-1, dtype=np.float32)[..., -1]


def window_sums(windows: np.ndarray) -> np.ndarray:
    """The float32 sum of each pooling window ``[..., kh, kw]``, row by row."""
    acc = np.zeros(windows.shape[:-2], np.float32)
    for ky in range(windows.shape[-2]):
        for kx in range(windows.shape[-1]):
            np.add(acc, windows[..., ky, kx], out=acc)
    return acc


def softmax(x: np.ndarray, axis: int) -> np.ndarray:
    """TFLite Micro's float softmax along ``axis``: the exponentials of the differences to the
    largest element, each divided by their sum added in order along the axis."""
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / np.expand_dims(reduce_sum(e, [axis % x.ndim]), axis)
