"""ONNX reductions and the ops built on them: ReduceMean, ReduceSum, ReduceMax, ReduceMin and
ReduceProd as one nn reduction each, ReduceL1, ReduceL2, ReduceLogSum, ReduceLogSumExp and
ReduceSumSquare composed with elementwise ops; ArgMax and ArgMin; Softmax, LogSoftmax and
Hardmax (along an axis from version 13, over the input coerced to 2-D before); CumSum.

Axes are known at import time.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from xdsl.dialects.builtin import BoolAttr, IntegerAttr, i64
from xdsl.ir import SSAValue

from cfmem.dialects import nn_compute as nc
from cfmem.dialects.shapes import normalize_axis
from cfmem.importers.onnx.core import Importer, OnnxImportError
from cfmem.importers.onnx.helpers import (
    attr,
    f32_operand,
    ints,
    make,
    number,
    optional_input,
    out_name,
    reshape,
    version,
)

REDUCE_OPS: dict[str, type[nc.ReduceOp]] = {
    "ReduceMean": nc.ReduceMeanOp,
    "ReduceSum": nc.ReduceSumOp,
    "ReduceMax": nc.ReduceMaxOp,
    "ReduceMin": nc.ReduceMinOp,
    "ReduceProd": nc.ReduceProdOp,
}
"""ONNX reductions that are one nn reduction; the others combine ``nn.reduce_sum`` (and
``nn.reduce_max``) with elementwise ops."""

AXES_INPUT_SINCE = {"ReduceSum": 13}
"""The version from which a reduction reads ``axes`` from an input; 18 for the others."""


def reduction_axes(imp, node, inputs, rank: int) -> list[int]:
    """The axes a reduction node reduces, from the front and in order: the ``axes`` attribute
    before version 18 (13 for ReduceSum), the ``axes`` input from it on. No axes means every
    axis, or none with ``noop_with_empty_axes``."""
    if version(imp, node) < AXES_INPUT_SINCE.get(node.op_type, 18):
        axes = list(attr(node, "axes", []))
    else:
        axes = ints(inputs[1], f"{node.op_type} axes", imp) if optional_input(inputs, 1) is not None else []
    if not axes:
        return [] if attr(node, "noop_with_empty_axes", 0) else list(range(rank))
    return sorted(normalize_axis(int(a), rank) for a in axes)


def reduced(imp, cls: type[nc.ReduceOp], x: SSAValue, axes: list[int], keepdims: bool, name: str | None = None) -> SSAValue:
    """``cls`` over ``axes`` of ``x``; over no axis, ``x`` itself."""
    if not axes:
        return x
    props = {"axes": nc.i64_array(axes)}
    if not keepdims:
        props["keepdims"] = BoolAttr.from_bool(False)
    return make(imp, cls, [x], props, name or imp.name(cls.name[3:]))


def reduce(imp, node, inputs):
    """ONNX reductions as nn reductions and elementwise ops; over no axis each is its
    elementwise part alone (ReduceL1 ``|x|``, ReduceSumSquare ``x * x``), as onnxruntime
    computes them. ReduceLogSumExp subtracts the maximum before ``exp`` and adds it back, as
    onnxruntime does, an infinite maximum taken as 0 (so all -inf gives -inf, an inf gives inf)."""
    b, op = imp.b, node.op_type
    x = f32_operand(imp, inputs[0], node.input[0])
    axes = reduction_axes(imp, node, inputs, len(b.shape(x)))
    keepdims = bool(attr(node, "keepdims", 1))
    out = out_name(imp, node)
    if op in REDUCE_OPS:
        return [reduced(imp, REDUCE_OPS[op], x, axes, keepdims, out)]

    def total(value: SSAValue, name: str | None = None) -> SSAValue:
        return reduced(imp, nc.ReduceSumOp, value, axes, keepdims, name)

    if op == "ReduceL1":
        return [total(b.abs(x), out)] if axes else [b.abs(x, out)]
    if op == "ReduceSumSquare":
        return [total(b.mul(x, x), out)] if axes else [b.mul(x, x, out)]
    if op == "ReduceL2":
        return [b.sqrt(total(b.mul(x, x)), out)]
    if op == "ReduceLogSum":
        return [b.log(total(x), out)]
    peak = reduced(imp, nc.ReduceMaxOp, x, axes, True)  # ReduceLogSumExp
    peak = b.select(b.cmp("ne", b.sub(peak, peak), 0.0), 0.0, peak)  # inf (or NaN, whose sum is NaN anyway): 0
    sums = total(b.exp(b.sub(x, peak)))
    return [b.add(b.log(sums), reshape(imp, peak, b.shape(sums)), out)]


ARG_OPS: dict[str, type[nc.ArgExtremeOp]] = {"ArgMax": nc.ArgMaxOp, "ArgMin": nc.ArgMinOp}


def arg_extreme(imp, node, inputs):
    """ArgMax and ArgMin along ``axis`` (default 0): int64 indices, the first of tied extremes
    or, with ``select_last_index`` (from version 12), the last. Inputs without NaN (onnxruntime
    picks a NaN's index by rules of its own). The indices can feed comparisons and shape ops;
    ops that read indices (Gather) take known ones only."""
    x = f32_operand(imp, inputs[0], node.input[0])
    axis = normalize_axis(attr(node, "axis", 0), len(imp.b.shape(x)))
    props = {"axis": IntegerAttr(axis, i64)}
    if not attr(node, "keepdims", 1):
        props["keepdims"] = BoolAttr.from_bool(False)
    if attr(node, "select_last_index", 0):
        props["select_last_index"] = BoolAttr.from_bool(True)
    return [make(imp, ARG_OPS[node.op_type], [x], props, out_name(imp, node))]


def softmax(imp, node, inputs):
    """Softmax, LogSoftmax and Hardmax. From version 13, along ``axis`` (default -1); before,
    over the input coerced to 2-D at ``axis`` (default 1): every dimension from ``axis`` on is
    one row."""
    x = f32_operand(imp, inputs[0], node.input[0])
    xs = imp.b.shape(x)
    along = ALONG_AXIS[node.op_type]
    name = out_name(imp, node)
    if version(imp, node) >= 13:
        return [along(imp, x, normalize_axis(attr(node, "axis", -1), len(xs)), name)]
    axis = normalize_axis(attr(node, "axis", 1), len(xs))
    rows = (int(np.prod(xs[:axis])), int(np.prod(xs[axis:])))
    if rows == tuple(xs):
        return [along(imp, x, 1, name)]
    y = along(imp, reshape(imp, x, rows, imp.name(f"{name}_2d")), 1, imp.name(f"{name}_rows"))
    return [reshape(imp, y, xs, name)]


def cumsum(imp, node, inputs):
    """CumSum along a known axis (one integer), ``exclusive`` and ``reverse`` as attributes."""
    x = f32_operand(imp, inputs[0], node.input[0])
    axis = ints(inputs[1], "CumSum axis", imp)
    if len(axis) != 1:
        raise OnnxImportError(f"CumSum axis {axis} must be one integer")
    exclusive, reverse = bool(attr(node, "exclusive", 0)), bool(attr(node, "reverse", 0))
    return [imp.b.cumsum(x, axis[0], exclusive, reverse, out_name(imp, node))]


def softmax_along(imp, x: SSAValue, axis: int, name: str) -> SSAValue:
    return make(imp, nc.SoftmaxOp, [x], {"axis": IntegerAttr(axis, i64)}, name)


def log_softmax_along(imp, x: SSAValue, axis: int, name: str) -> SSAValue:
    """``(x - max) - log(sum(exp(x - max)))``, onnxruntime's stable order."""
    b = imp.b
    shifted = b.sub(x, reduced(imp, nc.ReduceMaxOp, x, [axis], True))
    return b.sub(shifted, b.log(reduced(imp, nc.ReduceSumOp, b.exp(shifted), [axis], True)), name)


def hardmax_along(imp, x: SSAValue, axis: int, name: str) -> SSAValue:
    """1 at the first maximum along ``axis``, else 0, for inputs without NaN or infinities:
    ``sign(x - max) + 1`` marks every maximum; weighted by ``size - index`` along the axis,
    the first maximum weighs most, and the same marking picks it out."""
    b = imp.b
    rank, size = len(b.shape(x)), b.shape(x)[axis]
    one = number(imp, 1.0, f"{name}_one")
    at_max = b.add(b.sign(b.sub(x, reduced(imp, nc.ReduceMaxOp, x, [axis], True))), one)
    weights = np.arange(size, 0, -1, dtype=np.float32).reshape((size,) + (1,) * (rank - axis - 1))
    score = b.mul(at_max, imp.runtime(weights, f"{name}_weights"))
    return b.add(b.sign(b.sub(score, reduced(imp, nc.ReduceMaxOp, score, [axis], True))), one, name)


ALONG_AXIS: dict[str, Callable[[Importer, SSAValue, int, str], SSAValue]] = {
    "Softmax": softmax_along,
    "LogSoftmax": log_softmax_along,
    "Hardmax": hardmax_along,
}
"""Each softmax-like op along one axis of its input."""
