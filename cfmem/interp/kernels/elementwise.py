"""Element-by-element kernels that are more than one numpy call: C's ``powf``, the sigmoid,
``erf``, ONNX Cast, and the comparisons and clamp whose attributes are read once. The one-call
kernels (``a + b``, ``np.tanh`` and the like) are written in the table of
:mod:`cfmem.interp.kernels.registry`."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from xdsl.ir import Operation

from cfmem.dialects import nn_compute as nc
from cfmem.interp.weights import numpy_dtype


def power(op: nc.PowOp, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """C's ``powf`` on each pair, as onnxruntime and the lowered loops compute it. numpy
    takes a square root where the exponent 0.5 is one element broadcast over the bases
    (``sqrt(-inf)`` is NaN and ``sqrt(-0.0)`` is -0.0 where ``powf`` gives inf and 0.0), so
    each base is given its own exponent element."""
    shape = np.broadcast_shapes(a.shape, b.shape)
    exponents = np.array(np.broadcast_to(b, shape)).reshape(-1)
    return np.power(np.broadcast_to(a, shape).reshape(-1), exponents).reshape(shape)


def sigmoid(op: nc.SigmoidOp, x: np.ndarray) -> np.ndarray:
    """``1 / (1 + exp(-x))`` in float32; ``exp(x)`` below ``exp_below`` and 1.0 above
    ``one_above`` where the op gives them."""
    y = (1.0 / (1.0 + np.exp(-x))).astype(np.float32)
    exp_below, one_above = op.cutoffs()
    if exp_below is not None:
        y = np.where(x < np.float32(exp_below), np.exp(x), y)
    if one_above is not None:
        y = np.where(x > np.float32(one_above), np.float32(1.0), y)
    return y


_ERF = np.frompyfunc(math.erf, 1, 1)


def erf(op: Operation, x: np.ndarray) -> np.ndarray:
    """The error function, computed in double precision and rounded to ``x``'s type."""
    return np.asarray(_ERF(x.astype(np.float64)), np.float64).astype(x.dtype)


def cast(op: nc.CastOp, x: np.ndarray) -> np.ndarray:
    """ONNX Cast: floats truncate toward zero, integers keep their low bits, ``!= 0`` to bool."""
    dtype = numpy_dtype(op.result.type.get_element_type())
    return x != 0 if dtype == np.bool_ else x.astype(dtype)


def divide(op: nc.DivOp, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a / b``; integers truncate toward zero, as C's ``/`` (TFLite's int32 DIV), and a zero
    divisor gives 0."""
    if a.dtype.kind == "f":
        return a / b
    safe = np.where(b == 0, 1, b)
    quotient = np.abs(a.astype(np.int64)) // np.abs(safe.astype(np.int64))
    return np.where(b == 0, 0, np.where((a < 0) != (safe < 0), -quotient, quotient)).astype(a.dtype)


_CMP = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal}


def _prepare_clamp(op: nc.ClampOp) -> Callable[[np.ndarray], np.ndarray]:
    low, high = np.float32(op.min.value.data), np.float32(op.max.value.data)
    return lambda x: np.clip(x, low, high)
