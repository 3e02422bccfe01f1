"""Kernels that move elements without computing on them: slices, pads, gathers,
concatenation, transposes and reshapes."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from cfmem.dialects import nn_compute as nc
from cfmem.dialects import nn_weights as nw
from cfmem.interp.kernels.attributes import _ints


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


def _prepare_concat(op: nc.ConcatOp) -> Callable[..., np.ndarray]:
    axis = op.axis.value.data
    return lambda *xs: np.concatenate(xs, axis=axis)


def _prepare_transpose(op: nc.TransposeOp) -> Callable[[np.ndarray], np.ndarray]:
    perm = _ints(op.perm)
    return lambda x: np.transpose(x, perm)


def _prepare_reshape(op: nw.ReshapeOp) -> Callable[[np.ndarray], np.ndarray]:
    shape = tuple(op.result.type.get_shape())
    return lambda x: x.reshape(shape)
