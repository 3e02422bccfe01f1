"""Reductions and softmax of float32 tensors: MEAN, SUM, REDUCE_MAX, REDUCE_MIN, REDUCE_PROD
and SOFTMAX, each along the axes the value is held in (see
:mod:`~cfmem.importers.tflite.layout`), so no element moves before it.

Sums, products and softmax's sum follow TFLite Micro's order (``sum_order = "sequential"``):
the reduced axes are listed in TFLite's order, so their elements are added in TFLite's
row-major order whatever the order the value is held in. SOFTMAX's ``beta`` other than 1
scales the input first (TFLite Micro scales the difference to the maximum, so the two round
differently in the last bit).

Assumptions: the axes are constants of the file.
"""

from __future__ import annotations

import numpy as np

from cfmem.importers.tflite.core import Importer, Operator, Value
from cfmem.importers.tflite.helpers import axes_of, float_tensor, in_tflm_order, out_name
from cfmem.importers.tflite.layout import Tensor, after_reduction, physical_axes

REDUCTIONS = {"MEAN": "reduce_mean", "SUM": "reduce_sum", "REDUCE_MAX": "reduce_max", "REDUCE_MIN": "reduce_min",
              "REDUCE_PROD": "reduce_prod"}  # fmt: skip
"""Reducing operators and the GraphBuilder methods computing them."""


def reduce(imp: Importer, op: Operator, inputs: list[Value]) -> list[Value]:
    x = float_tensor(imp, inputs[0], "input")
    rank = len(imp.logical_shape(x))
    axes = sorted(set(axes_of(inputs[1], rank, "axis")))
    keepdims = bool(op.option("keepDims", False))
    value = imp.held(x, x.perm, op.output_name())
    method = getattr(imp.b, REDUCTIONS[op.builtin])
    result = method(value, physical_axes(axes, x.perm), keepdims, out_name(imp, op))
    if op.builtin in ("MEAN", "SUM", "REDUCE_PROD"):
        in_tflm_order(result)
    return [Tensor(result, after_reduction(x.perm, axes, keepdims))]


def softmax(imp: Importer, op: Operator, inputs: list[Value]) -> list[Value]:
    x = float_tensor(imp, inputs[0], "input")
    rank = len(imp.logical_shape(x))
    value = imp.held(x, x.perm, op.output_name())
    beta = np.float32(op.option("beta", 1.0))
    if beta != 1:
        value = imp.b.mul(value, beta)
    (axis,) = physical_axes([rank - 1], x.perm)
    return [Tensor(in_tflm_order(imp.b.softmax(value, axis, out_name(imp, op))), x.perm)]
