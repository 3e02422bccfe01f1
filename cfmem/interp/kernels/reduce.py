"""Reductions over axes, running sums, and indices chosen along an axis.

float32 sums follow onnxruntime's order where it is known (each row as Eigen's vectorized
sum adds it, :func:`eigen_row_sums`), or TFLite Micro's for an op with ``sum_order =
"sequential"`` (:mod:`~cfmem.interp.kernels.sequential`), the largest and smallest element are found as a
row-major scan finds them (:func:`first_extreme`), and ArgMax, ArgMin and TopK give numpy's
indices (TopK's by a stable sort).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from cfmem.dialects import nn_compute as nc
from cfmem.dialects.shapes import normalize_axis
from cfmem.dialects.shapes import reduce as reduced_shape
from cfmem.interp.kernels import sequential
from cfmem.interp.kernels.attributes import _ints


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


def top_k(op: nc.TopKOp, x: np.ndarray) -> np.ndarray:
    """Stable argsort (of ``-x`` for the largest): equal elements keep their order."""
    axis = op.normalized_axis()
    order = np.argsort(-x if op.largest.value.data else x, axis=axis, kind="stable")
    return np.take(order, np.arange(op.k.value.data), axis=axis).astype(np.int64)


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
    float32, both in TFLite Micro's order for ``sum_order = "sequential"``; the extremes by
    :func:`first_extreme`)."""
    axes, keepdims = _ints(op.axes), bool(op.keepdims.value.data)
    if op.sums_sequentially() and isinstance(op, nc.ReduceMeanOp | nc.ReduceSumOp | nc.ReduceProdOp):
        return _prepare_sequential(op, axes, keepdims)
    if isinstance(op, nc.ReduceMeanOp):
        return lambda x: mean(x, axes, keepdims)
    if isinstance(op, nc.ReduceSumOp):
        return lambda x: float_sum(x, axes, keepdims)
    if isinstance(op, nc.ReduceProdOp):
        return lambda x: np.prod(x, axes, np.float32, keepdims=keepdims)
    largest = isinstance(op, nc.ReduceMaxOp)
    return lambda x: first_extreme(x, axes, keepdims, largest)


def _prepare_sequential(op: nc.ReduceOp, axes: tuple[int, ...], keepdims: bool) -> Callable[[np.ndarray], np.ndarray]:
    """ReduceMean/Sum/Prod with TFLite Micro's order (``sequential.reduce_sum``, ``reduce_prod``);
    the mean divides the sum by the count in float32, as TFLite Micro's MEAN."""
    combine = sequential.reduce_prod if isinstance(op, nc.ReduceProdOp) else sequential.reduce_sum
    is_mean = isinstance(op, nc.ReduceMeanOp)

    def run(x: np.ndarray) -> np.ndarray:
        normalized = [normalize_axis(a, x.ndim) for a in axes]
        result = combine(x, normalized)
        if is_mean:
            result = result / np.float32(math.prod(x.shape[a] for a in normalized))
        return np.asarray(result, np.float32).reshape(reduced_shape(x.shape, axes, keepdims))

    return run
