"""Float32 convolutions, pooling and matrix products: CONV_2D, DEPTHWISE_CONV_2D, MAX_POOL_2D,
AVERAGE_POOL_2D, FULLY_CONNECTED and BATCH_MATMUL.

Convolutions and pooling read their NHWC input as NCHW (see
:mod:`~cfmem.importers.tflite.layout`) and leave their result NCHW; the filters are transposed
to OIHW at import (CONV_2D's OHWI, DEPTHWISE_CONV_2D's 1HW(C*M) with the input channels as
groups). Zero pads still pending on the input (a PAD the convolution alone reads) join the
convolution's own. FULLY_CONNECTED flattens its input in TFLite's order; an input held in
another order is flattened as it is held and the filter's columns are permuted to match at
import, when that order keeps each row's elements together, except that rows of whole NHWC
images held as NCHW become a convolution whose window is the image. The window's SAME padding
is TFLite's (the extra element after); pooling counts no padded position. A fused activation
becomes the nn op after.

Convolutions, products and average pooling add their float32 sums in TFLite Micro's order
(``sum_order = "sequential"``; see :class:`~cfmem.dialects.nn_compute.SumOrderOp`). That is why
FULLY_CONNECTED on NCHW images is a convolution: its window's rows, columns, then channels are
TFLite's order of the flattened row, where a product with permuted columns would add in the
order the input is held (as it still does for the other orders).

Assumptions: filters are constants of the file.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import IntegerAttr, i64
from xdsl.ir import Attribute, SSAValue

from cfmem.dialects import nn_compute as nc
from cfmem.importers.tflite.core import Importer, Operator, TfliteImportError, Value
from cfmem.importers.tflite.helpers import (
    activated, float_tensor, in_tflm_order, known, out_name, pre_activation_name, window_pads,
)
from cfmem.importers.tflite.layout import NCHW, Perm, Tensor


def window_properties(strides, pads, dilations=(1, 1), groups: int = 1) -> dict[str, Attribute]:
    """The window properties of an nn convolution or pooling op that differ from their defaults."""
    props: dict[str, Attribute] = {}
    if tuple(strides) != (1, 1):
        props["strides"] = nc.i64_array(strides)
    if tuple(pads) != (0, 0, 0, 0):
        props["pads"] = nc.i64_array(pads)
    if tuple(dilations) != (1, 1):
        props["dilations"] = nc.i64_array(dilations)
    if groups != 1:
        props["groups"] = IntegerAttr(groups, i64)
    return props


def conv_filter(imp: Importer, op: Operator, x: Tensor, w: np.ndarray) -> tuple[np.ndarray, int]:
    """The OIHW filter and the group count of a CONV_2D or DEPTHWISE_CONV_2D on ``x``."""
    channels = imp.logical_shape(x)[3]
    if w.ndim != 4:
        raise TfliteImportError(f"filter has shape {list(w.shape)}, expected rank 4")
    if op.builtin == "DEPTHWISE_CONV_2D":
        multiplier = w.shape[3] // channels if channels else 0
        if w.shape[0] != 1 or multiplier < 1 or w.shape[3] != channels * multiplier:
            raise TfliteImportError(f"depthwise filter {list(w.shape)} does not fit {channels} input channels")
        return np.ascontiguousarray(w.transpose(3, 0, 1, 2)), channels
    if w.shape[3] < 1 or channels % w.shape[3]:
        raise TfliteImportError(f"filter {list(w.shape)} does not fit {channels} input channels")
    return np.ascontiguousarray(w.transpose(0, 3, 1, 2)), channels // w.shape[3]


def conv_window(imp: Importer, op: Operator, x: Tensor, kernel: tuple[int, int]) -> dict[str, Attribute]:
    """Strides, pads (the input's pending pads and the SAME padding) and dilations of a convolution."""
    strides = (op.option("strideH", 1), op.option("strideW", 1))
    dilations = (op.option("dilationHFactor", 1), op.option("dilationWFactor", 1))
    _, h, w, _ = imp.logical_shape(x)
    pads = window_pads(op, (h, w), kernel, strides, dilations)
    if x.pads is not None:
        pads = tuple(a + b for a, b in zip(pads, x.pads))
    return window_properties(strides, pads, dilations)


def nchw_input(imp: Importer, x: Tensor, hint: str) -> SSAValue:
    """A convolution's input as NCHW, its pending pads left to the convolution."""
    return imp.held(Tensor(x.value, x.perm), NCHW, hint)


def conv(imp: Importer, op: Operator, inputs: list[Value]) -> list[Value]:
    x = float_tensor(imp, inputs[0], "input")
    if len(imp.logical_shape(x)) != 4:
        raise TfliteImportError(f"input has shape {list(imp.logical_shape(x))}, expected NHWC")
    weight, groups = conv_filter(imp, op, x, known(inputs[1], "filter"))
    props = conv_window(imp, op, x, weight.shape[2:])
    if groups != 1:
        props["groups"] = IntegerAttr(groups, i64)
    bias = inputs[2] if len(inputs) > 2 else None
    operands = [nchw_input(imp, x, op.output_name()), imp.runtime(weight, f"{op.output_name()}_filter"),
                None if bias is None else imp.runtime(bias, f"{op.output_name()}_bias")]  # fmt: skip
    result = in_tflm_order(imp.b.compute(nc.Conv2dOp, operands, props, pre_activation_name(imp, op)))
    return [Tensor(activated(imp, op, result), NCHW)]


def pool(imp: Importer, op: Operator, inputs: list[Value]) -> list[Value]:
    x = float_tensor(imp, inputs[0], "input")
    if len(imp.logical_shape(x)) != 4:
        raise TfliteImportError(f"input has shape {list(imp.logical_shape(x))}, expected NHWC")
    kernel = (op.option("filterHeight", 1), op.option("filterWidth", 1))
    strides = (op.option("strideH", 1), op.option("strideW", 1))
    value = imp.held(x, NCHW, op.output_name())
    pads = window_pads(op, imp.b.shape(value)[2:], kernel, strides)
    name = pre_activation_name(imp, op)
    if op.builtin == "MAX_POOL_2D":
        result = imp.b.max_pool2d(value, kernel, strides, pads, name)
    else:
        result = in_tflm_order(imp.b.avg_pool2d(value, kernel, strides, pads, name))
    return [Tensor(activated(imp, op, result), NCHW)]


def flatten_order(shape: tuple[int, ...], perm: Perm, depth: int) -> np.ndarray | None:
    """For a tensor of TFLite ``shape`` held in order ``perm`` and flattened as held to rows of
    ``depth``: which TFLite column each held column is, when every row holds the elements of
    the same TFLite row (else None)."""
    count = int(np.prod(shape))
    index = np.arange(count).reshape(shape).transpose(perm).reshape(count // depth, depth)
    rows, columns = np.divmod(index, depth)
    if not (rows == np.arange(count // depth)[:, None]).all() or not (columns == columns[0]).all():
        return None
    return columns[0]


def fully_connected(imp: Importer, op: Operator, inputs: list[Value]) -> list[Value]:
    x = float_tensor(imp, inputs[0], "input")
    w = known(inputs[1], "weights")
    if op.option("weightsFormat", 0) != 0:
        raise TfliteImportError("shuffled weights (weights_format SHUFFLED4x16INT8) are not supported")
    if w.ndim != 2:
        raise TfliteImportError(f"weights have shape {list(w.shape)}, expected [outputs, depth]")
    shape = imp.logical_shape(x)
    count, depth = int(np.prod(shape)), w.shape[1]
    if depth == 0 or count % depth:
        raise TfliteImportError(f"input of shape {list(shape)} does not split into rows of the weights' depth {depth}")
    order = flatten_order(shape, x.perm, depth) if x.perm is not None and x.pads is None else None
    hint = op.output_name()
    bias = inputs[2] if len(inputs) > 2 else None
    keep = op.option("keepNumDims", False)
    if order is not None and x.perm == NCHW and depth == count // shape[0] and not keep and (order != np.arange(depth)).any():
        return [Tensor(activated(imp, op, image_product(imp, op, x, w, bias)))]
    if order is not None:
        value, w = x.value, np.ascontiguousarray(w[:, order])
    else:
        value = imp.held(x, None, hint)
    rows = imp.b.reshape(value, (count // depth, depth), imp.name(f"{hint}_rows")) if imp.b.shape(value) != (count // depth, depth) else value
    name = pre_activation_name(imp, op) if not keep else None
    if bias is None:
        result = imp.b.matmul(rows, imp.runtime(np.ascontiguousarray(w.T), f"{hint}_weights"), name)
    else:
        result = imp.b.gemm(rows, imp.runtime(w, f"{hint}_weights"), imp.runtime(bias, f"{hint}_bias"), trans_b=True, name=name)
    in_tflm_order(result)
    if keep:
        result = imp.b.reshape(result, (*shape[:-1], w.shape[0]), pre_activation_name(imp, op))
    return [Tensor(activated(imp, op, result))]


def image_product(imp: Importer, op: Operator, x: Tensor, w: np.ndarray, bias: Value | None) -> SSAValue:
    """FULLY_CONNECTED of whole NHWC images ``x`` held as NCHW: a convolution whose window is the
    image (the weights' rows as OHWI filters, transposed to OIHW), which adds each row's products
    in TFLite's order and moves no element; its [N, O, 1, 1] result reshaped to [N, O]."""
    n, h, wd, c = imp.logical_shape(x)
    hint = op.output_name()
    filters = np.ascontiguousarray(w.reshape(-1, h, wd, c).transpose(0, 3, 1, 2))
    operands = [x.value, imp.runtime(filters, f"{hint}_filter"), None if bias is None else imp.runtime(bias, f"{hint}_bias")]
    result = in_tflm_order(imp.b.compute(nc.Conv2dOp, operands, {}, imp.name(f"{hint}_conv")))
    return imp.b.reshape(result, (n, w.shape[0]), pre_activation_name(imp, op))


def batch_matmul(imp: Importer, op: Operator, inputs: list[Value]) -> list[Value]:
    hint = op.output_name()
    operands = []
    for k, (value, adjoint) in enumerate(zip(inputs[:2], (op.option("adjX", False), op.option("adjY", False)))):
        if isinstance(value, np.ndarray):
            if value.dtype != np.float32:
                raise TfliteImportError(f"input #{k} is {value.dtype}; BATCH_MATMUL takes float32")
            operands.append(imp.runtime(np.ascontiguousarray(np.swapaxes(value, -1, -2)) if adjoint else value, f"{hint}_in{k}"))
            continue
        v = imp.held(float_tensor(imp, value, f"input #{k}"), None, f"{hint}_in{k}")
        if adjoint:
            rank = len(imp.b.shape(v))
            v = imp.b.transpose(v, [*range(rank - 2), rank - 1, rank - 2], imp.name(f"{hint}_adj{k}"))
        operands.append(v)
    return [Tensor(in_tflm_order(imp.b.matmul(*operands, out_name(imp, op))))]
