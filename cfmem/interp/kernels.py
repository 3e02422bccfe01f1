"""numpy kernels for the nn compute ops, one function per op.

Each kernel takes the op (for its attributes) and its operand arrays and
returns a new array with the op's result shape and dtype. Both interpreters
(tensor-level and flat) call these, so a result differs between them only if
the memory plan is wrong.
"""

from __future__ import annotations

from collections.abc import Callable

import math

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view
from xdsl.ir import Operation

from cfmem.dialects import nn_compute as nc
from cfmem.dialects import nn_weights as nw
from cfmem.interp.weights import numpy_dtype

Kernel = Callable[..., np.ndarray]


def _ints(attr) -> tuple[int, ...]:
    return tuple(int(v) for v in attr.get_values())


def conv2d(op: nc.Conv2dOp, x: np.ndarray, w: np.ndarray, b: np.ndarray | None = None) -> np.ndarray:
    sh, sw = _ints(op.strides)
    pt, pl, pb, pr = _ints(op.pads)
    dh, dw = _ints(op.dilations)
    groups = op.groups.value.data
    n, c, _, _ = x.shape
    o, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pt, pb), (pl, pr)))
    # windows: [n, c, oh, ow, kh*dh.., kw*dw..] then take every dilation-th tap
    win = sliding_window_view(xp, ((kh - 1) * dh + 1, (kw - 1) * dw + 1), axis=(2, 3))
    win = win[:, :, ::sh, ::sw, ::dh, ::dw]
    og = o // groups
    out = np.empty((n, o, win.shape[2], win.shape[3]), dtype=np.float32)
    for g in range(groups):
        xg = win[:, g * cg : (g + 1) * cg]
        wg = w[g * og : (g + 1) * og]
        out[:, g * og : (g + 1) * og] = np.einsum("ncxykl,ockl->noxy", xg, wg, optimize=True)
    if b is not None:
        out += b.reshape(1, o, 1, 1)
    return out


def _pool_windows(op: nc.Pool2dOp, x: np.ndarray, fill: float) -> np.ndarray:
    kh, kw = _ints(op.kernel)
    sh, sw = _ints(op.strides)
    pt, pl, pb, pr = _ints(op.pads)
    xp = np.pad(x, ((0, 0), (0, 0), (pt, pb), (pl, pr)), constant_values=fill)
    return sliding_window_view(xp, (kh, kw), axis=(2, 3))[:, :, ::sh, ::sw]


def max_pool2d(op: nc.MaxPool2dOp, x: np.ndarray) -> np.ndarray:
    return _pool_windows(op, x, -np.inf).max(axis=(4, 5))


def avg_pool2d(op: nc.AvgPool2dOp, x: np.ndarray) -> np.ndarray:
    sums = _pool_windows(op, x, 0.0).sum(axis=(4, 5), dtype=np.float32)
    counts = _pool_windows(op, np.ones_like(x[:1, :1]), 0.0).sum(axis=(4, 5))
    return (sums / counts).astype(np.float32)


def mean(x: np.ndarray, axis: tuple[int, ...], keepdims: bool) -> np.ndarray:
    """float32 mean over ``axis``; over no elements it is NaN (0 / 0), as in the
    lowered loops, without numpy's empty-slice warning."""
    if all(x.shape[a] for a in axis):
        return x.mean(axis=axis, keepdims=keepdims, dtype=np.float32)
    return np.full(np.sum(x, axis=axis, keepdims=keepdims).shape, np.nan, np.float32)


def gemm(op: nc.GemmOp, a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    return a @ (b.T if op.trans_b.value.data else b) + c


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


def sigmoid(op: nc.SigmoidOp, x: np.ndarray) -> np.ndarray:
    return (1.0 / (1.0 + np.exp(-x))).astype(np.float32)


def slice_(op: nc.SliceOp, x: np.ndarray) -> np.ndarray:
    index = []
    for start, step, count in op.bounds():
        stop = start + step * count
        index.append(slice(start, stop if stop >= 0 else None, step))
    return x[tuple(index)]


def pad(op: nc.PadOp, x: np.ndarray) -> np.ndarray:
    widths = list(zip(*op.before_after()))
    mode = op.mode.data
    if mode == "constant":
        return np.pad(x, widths, constant_values=np.float32(op.value.value.data))
    return np.pad(x, widths, mode=mode)


_ERF = np.frompyfunc(math.erf, 1, 1)


def erf(op: Operation, x: np.ndarray) -> np.ndarray:
    """The error function, computed in double precision and rounded to ``x``'s type."""
    return np.asarray(_ERF(x.astype(np.float64)), np.float64).astype(x.dtype)


_CMP = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal}

KERNELS: dict[type[Operation], Kernel] = {
    nc.AddOp: lambda op, a, b: a + b,
    nc.SubOp: lambda op, a, b: a - b,
    nc.MulOp: lambda op, a, b: a * b,
    nc.DivOp: lambda op, a, b: a / b,
    nc.PowOp: lambda op, a, b: np.power(a, b),
    nc.MaxOp: lambda op, a, b: np.maximum(a, b),
    nc.MinOp: lambda op, a, b: np.minimum(a, b),
    nc.CmpOp: lambda op, a, b: _CMP[op.predicate.data](a, b),
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
    nc.ClampOp: lambda op, x: np.clip(x, np.float32(op.min.value.data), np.float32(op.max.value.data)),
    nc.Conv2dOp: conv2d,
    nc.MatmulOp: lambda op, a, b: np.matmul(a, b),
    nc.GemmOp: gemm,
    nc.MaxPool2dOp: max_pool2d,
    nc.AvgPool2dOp: avg_pool2d,
    nc.GlobalAvgPoolOp: lambda op, x: mean(x, (2, 3), True),
    nc.ReduceMeanOp: lambda op, x: mean(x, _ints(op.axes), bool(op.keepdims.value.data)),
    nc.ReduceSumOp: lambda op, x: np.sum(x, _ints(op.axes), np.float32, keepdims=bool(op.keepdims.value.data)),
    nc.ReduceMaxOp: lambda op, x: np.max(x, _ints(op.axes), keepdims=bool(op.keepdims.value.data)),
    nc.ReduceMinOp: lambda op, x: np.min(x, _ints(op.axes), keepdims=bool(op.keepdims.value.data)),
    nc.ReduceProdOp: lambda op, x: np.prod(x, _ints(op.axes), np.float32, keepdims=bool(op.keepdims.value.data)),
    nc.ArgMaxOp: arg_extreme,
    nc.ArgMinOp: arg_extreme,
    nc.SoftmaxOp: softmax,
    nc.ConcatOp: lambda op, *xs: np.concatenate(xs, axis=op.axis.value.data),
    nc.TransposeOp: lambda op, x: np.transpose(x, _ints(op.perm)),
    nc.SliceOp: slice_,
    nc.PadOp: pad,
    nw.ReshapeOp: lambda op, x: x.reshape(tuple(op.result.type.get_shape())),
}


def evaluate(op: Operation, args: list[np.ndarray]) -> np.ndarray:
    """Result of compute op ``op`` on ``args``, as a fresh contiguous array."""
    kernel = KERNELS.get(type(op))
    if kernel is None:
        raise NotImplementedError(f"no kernel for '{op.name}'")
    with np.errstate(all="ignore"):  # NaN and inf are IEEE results here, not errors
        result = np.asarray(kernel(op, *args))
    if not result.flags.c_contiguous:  # (np.ascontiguousarray would make a 0-d result 1-d)
        result = result.copy(order="C")
    result_type = op.results[0].type
    want = tuple(result_type.get_shape())
    assert result.shape == want, f"{op.name} produced {result.shape}, expected {want}"
    dtype = numpy_dtype(result_type.get_element_type())
    assert result.dtype == dtype, f"{op.name} produced {result.dtype}, expected {dtype}"
    return result
