"""Quantized ONNX ops, and onnxruntime's com.microsoft ones that its quantizer writes:
QuantizeLinear, DequantizeLinear, QLinearConv, QLinearMatMul and QGemm, QLinearAdd and
QLinearMul, QLinearConcat, QLinearSigmoid, QLinearSoftmax, MatMulInteger, ConvInteger and
DynamicQuantizeLinear.

Scales and zero points are known; quantized data is int8 or uint8 (a bias int32); per-axis
parameters where nn's op takes them, one scale and zero point elsewhere (refused by name).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import onnx
from onnx import helper
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, TensorType, f32, i64
from xdsl.ir import Attribute, SSAValue

from cfmem.dialects import nn_compute as nc
from cfmem.dialects import nn_quant as nq
from cfmem.dialects.shapes import normalize_axis
from cfmem.importers.onnx.core import Importer, OnnxImportError, Value, constant
from cfmem.importers.onnx.helpers import (
    QUANT_ELEMENTS,
    attr,
    dtype_of,
    f32_operand,
    known,
    make,
    number,
    optional_input,
    out_name,
    shape_of,
)
from cfmem.importers.onnx.nn import as_nchw, conv_window, from_nchw
from cfmem.importers.onnx.reduce import softmax_along
from cfmem.interp import kernels


@dataclass(frozen=True)
class QuantParams:
    """A known scale and zero point: one element, or one per slice along an axis."""

    scale: np.ndarray
    zero_point: np.ndarray

    def props(self, prefix: str) -> dict:
        return {f"{prefix}_scale": nq.f32_array(self.scale), f"{prefix}_zero_point": nc.i64_array(self.zero_point)}

    @property
    def element(self) -> Attribute:
        return QUANT_ELEMENTS[self.zero_point.dtype]


def quant_params(node: onnx.NodeProto, inputs: list, k: int, what: str, default_type=np.uint8) -> QuantParams:
    """The scale at input ``k`` and the zero point after it (zeros of ``default_type``
    when omitted); both must be known; a zero point is int8 or uint8, except a bias's int32."""
    scale = known(optional_input(inputs, k), f"{node.op_type} {what} scale").astype(np.float32).reshape(-1)
    zero_point = optional_input(inputs, k + 1)
    if zero_point is None:
        zero_point = np.zeros(scale.shape, default_type)
    zero_point = known(zero_point, f"{node.op_type} {what} zero point").reshape(-1)
    if zero_point.dtype not in QUANT_ELEMENTS and zero_point.dtype != np.int32:
        raise OnnxImportError(f"{node.op_type} {what} zero point of type {zero_point.dtype} is not supported (int8, uint8)")
    return QuantParams(scale, zero_point)


def check_no_blocks(node: onnx.NodeProto) -> None:
    if attr(node, "block_size", 0):
        raise OnnxImportError(f"{node.op_type} with block_size {attr(node, 'block_size')} is not supported")


def quantized_operand(imp: Importer, value: Value, hint: str, params: QuantParams) -> SSAValue:
    """A quantized tensor as an SSA value, known ones stored in their own type."""
    if params.zero_point.dtype not in QUANT_ELEMENTS:
        raise OnnxImportError(f"{hint} has a zero point of type {params.zero_point.dtype} (int8 or uint8 expected)")
    if isinstance(value, np.ndarray):
        if value.dtype not in QUANT_ELEMENTS:
            raise OnnxImportError(f"expected an int8 or uint8 tensor for {hint}, got {value.dtype}")
        if value.dtype != params.zero_point.dtype:
            raise OnnxImportError(f"{hint} has type {value.dtype}, but its zero point is {params.zero_point.dtype}")
        return imp.runtime(value, hint, dtype=value.dtype)
    if value.type.get_element_type() != params.element:
        raise OnnxImportError(f"{hint} has type {value.type}, but its zero point is {params.zero_point.dtype}")
    return value


def quantize_linear(imp, node, inputs):
    check_no_blocks(node)
    output_dtype = attr(node, "output_dtype", 0)
    default = helper.tensor_dtype_to_np_dtype(output_dtype) if output_dtype else np.uint8
    params = quant_params(node, inputs, 1, "y", default)
    if params.zero_point.dtype not in QUANT_ELEMENTS:
        raise OnnxImportError(f"QuantizeLinear to {params.zero_point.dtype} is not supported (int8, uint8)")
    props = {"element": params.element, "axis": IntegerAttr(int(attr(node, "axis", 1)), i64), **params.props("y")}
    x = inputs[0]
    if isinstance(x, np.ndarray):
        return [run_quant_op(nq.QuantizeOp, x.astype(np.float32), props, params.element)]
    return [make(imp, nq.QuantizeOp, [f32_operand(imp, x, node.input[0])], props, out_name(imp, node))]


def dequantize_linear(imp, node, inputs):
    check_no_blocks(node)
    x = inputs[0]
    params = quant_params(node, inputs, 1, "x", dtype_of(x))
    props = {"axis": IntegerAttr(int(attr(node, "axis", 1)), i64), **params.props("x")}
    if isinstance(x, np.ndarray):
        return [run_quant_op(nq.DequantizeOp, x, props, f32)]
    return [make(imp, nq.DequantizeOp, [x], props, out_name(imp, node))]


def run_quant_op(cls: type[nc.ComputeOp], x: np.ndarray, props: dict, element: Attribute) -> np.ndarray:
    """A (de)quantize of known ``x`` by its reference kernel, as the run time computes it."""
    op = cls.create(result_types=[TensorType(element, list(x.shape))], properties=props)
    return kernels.KERNELS[cls](op, x)


def qlinear_conv(imp, node, inputs):
    x_params = quant_params(node, inputs, 1, "x")
    w = known(inputs[3], "QLinearConv weights", imp)
    w_params = quant_params(node, inputs, 4, "w")
    y_params = quant_params(node, inputs, 6, "y")
    x = quantized_operand(imp, inputs[0], node.input[0], x_params)
    x, props = conv_window(imp, node, x, w)
    operands = [x, quantized_operand(imp, w.reshape(as_nchw(w.shape)), node.input[3], w_params)]
    bias = optional_input(inputs, 8)
    if bias is not None:
        operands.append(imp.runtime(known(bias, "QLinearConv bias").astype(np.int32), node.input[8], dtype=np.int32))
    props |= {"element": y_params.element, **x_params.props("x"), **w_params.props("w"), **y_params.props("y")}
    name = out_name(imp, node)
    y = make(imp, nq.QConv2dOp, operands, props, name + ("_2d" if w.ndim == 3 else ""))
    return [from_nchw(imp, y, w.ndim - 2, name)]


def qgemm(imp, node, inputs):
    """onnxruntime QGemm (A, a_scale, a_zp, B, b_scale, b_zp, C, y_scale, y_zp); ONNX
    QLinearMatMul (a, a_scale, a_zp, b, b_scale, b_zp, y_scale, y_zp) on 2-D operands."""
    matmul_form = node.op_type == "QLinearMatMul"
    if attr(node, "transA", 0):
        raise OnnxImportError(f"{node.op_type} with transA is not supported")
    a_params, b_params = quant_params(node, inputs, 1, "a"), quant_params(node, inputs, 4, "b")
    a = quantized_operand(imp, inputs[0], node.input[0], a_params)
    b = quantized_operand(imp, inputs[3], node.input[3], b_params)
    if matmul_form and (len(shape_of(imp, inputs[0])) != 2 or len(shape_of(imp, inputs[3])) != 2):
        return [qlinear_matmul_batched(imp, node, inputs, a, b)]
    if len(shape_of(imp, inputs[0])) != 2 or len(shape_of(imp, inputs[3])) != 2:
        raise OnnxImportError(f"{node.op_type} of operands of rank other than 2 is not supported")
    props = {"trans_b": IntegerAttr(int(attr(node, "transB", 0)), i64), **a_params.props("a"), **b_params.props("b")}
    if attr(node, "alpha", 1.0) != 1.0:
        props["alpha"] = FloatAttr(float(attr(node, "alpha")), f32)
    operands = [a, b]
    c = None if matmul_form else optional_input(inputs, 6)
    if c is not None:
        operands.append(imp.runtime(known(c, "QGemm C").astype(np.int32), node.input[6], dtype=np.int32))
    k_y = 6 if matmul_form else 7
    if not matmul_form and optional_input(inputs, k_y) is not None and optional_input(inputs, k_y + 1) is None:
        raise OnnxImportError("QGemm with y_scale and no y_zero_point is not supported (onnxruntime gives float results over y_scale)")
    if optional_input(inputs, k_y) is not None:
        y_params = quant_params(node, inputs, k_y, "y")
        props |= {"element": y_params.element, **y_params.props("y")}
    return [make(imp, nq.QGemmOp, operands, props, out_name(imp, node))]


def qlinear_matmul_batched(imp, node, inputs, a: SSAValue, b: SSAValue) -> SSAValue:
    """QLinearMatMul of operands of other ranks (batched, broadcast): the i32 products
    (``nn.matmul_integer``), then requantized as ``nn.qgemm`` requantizes, the accumulator in
    f32 times ``a_scale * b_scale / y_scale`` rounded into y (a quantize of scale 1)."""
    params = [quant_params(node, inputs, k, p) for k, p in ((1, "a"), (4, "b"), (6, "y"))]
    if any(p.scale.size != 1 for p in params):
        raise OnnxImportError(f"{node.op_type} of operands of rank other than 2 with a per-axis scale is not supported")
    a_params, b_params, y_params = params
    name = out_name(imp, node)
    zeros = [constant(imp, p.zero_point.astype(dtype_of(v)).reshape(1), f"{name}_{k}_zero") for k, v, p in (("a", a, a_params), ("b", b, b_params))]
    products = make(imp, nq.MatmulIntegerOp, [a, b, *zeros], {}, imp.name(f"{name}_products"))
    ratio = np.float32(1.0) * a_params.scale[0] * b_params.scale[0] / y_params.scale[0]
    real = imp.b.mul(imp.b.cast(products, np.float32), number(imp, float(ratio), f"{name}_ratio"))
    unit = QuantParams(np.ones(1, np.float32), y_params.zero_point)
    return make(imp, nq.QuantizeOp, [real], {"element": y_params.element, **unit.props("y")}, name)


def qlinear_softmax(imp, node, inputs):
    """onnxruntime QLinearSoftmax (X, x_scale, x_zp, y_scale, y_zp; ``opset`` 13 or later: per
    axis): dequantized, the float softmax, quantized again."""
    if attr(node, "opset", 13) < 13:
        raise OnnxImportError(f"QLinearSoftmax with opset {attr(node, 'opset')} (the input coerced to 2-D) is not supported")
    x_params, y_params = quant_params(node, inputs, 1, "x"), quant_params(node, inputs, 3, "y")
    x = quantized_operand(imp, inputs[0], node.input[0], x_params)
    name = out_name(imp, node)
    real = make(imp, nq.DequantizeOp, [x], x_params.props("x"), f"{name}_real")
    y = softmax_along(imp, real, normalize_axis(attr(node, "axis", -1), len(imp.b.shape(real))), imp.name(f"{name}_softmax"))
    return [make(imp, nq.QuantizeOp, [y], {"element": y_params.element, **y_params.props("y")}, name)]


def per_tensor(node: onnx.NodeProto, *params: tuple[QuantParams, str]) -> None:
    """Refuse per-axis parameters where onnxruntime takes one scale and zero point."""
    for p, what in params:
        if p.scale.size != 1:
            raise OnnxImportError(f"{node.op_type} with a per-axis {what} scale is not supported")


def qlinear_binary(imp, node, inputs):
    """onnxruntime QLinearAdd and QLinearMul (A, a_scale, a_zp, B, b_scale, b_zp, y_scale, y_zp)."""
    a_params, b_params, y_params = (quant_params(node, inputs, k, p) for k, p in ((1, "a"), (4, "b"), (6, "y")))
    per_tensor(node, (a_params, "A"), (b_params, "B"), (y_params, "Y"))
    a = quantized_operand(imp, inputs[0], node.input[0], a_params)
    b = quantized_operand(imp, inputs[3], node.input[3], b_params)
    props = {"element": y_params.element, **a_params.props("a"), **b_params.props("b"), **y_params.props("y")}
    cls = nq.QAddOp if node.op_type == "QLinearAdd" else nq.QMulOp
    return [make(imp, cls, [a, b], props, out_name(imp, node))]


def integer_data(imp: Importer, value: Value, hint: str) -> SSAValue:
    """An int8 or uint8 operand of an integer product, known ones stored in their own type."""
    dtype = dtype_of(value)
    if dtype not in QUANT_ELEMENTS:
        raise OnnxImportError(f"{hint} must be an int8 or uint8 tensor, got {dtype}")
    return imp.runtime(value, hint, dtype=dtype) if isinstance(value, np.ndarray) else value


def integer_zero_point(imp: Importer, node: onnx.NodeProto, inputs: list, k: int, data: SSAValue) -> SSAValue:
    """Input ``k``, one zero point of ``data``'s type, known or computed at run time (0 when
    omitted); per-row or per-column zero points are refused by name."""
    dtype = dtype_of(data)
    zero_point = optional_input(inputs, k)
    if zero_point is None:
        zero_point = np.zeros((1,), dtype)
    if int(np.prod(shape_of(imp, zero_point))) != 1:
        raise OnnxImportError(f"{node.op_type} with a zero point of shape {list(shape_of(imp, zero_point))} is not supported (one value)")
    if dtype_of(zero_point) != dtype:
        raise OnnxImportError(f"{node.op_type} zero point of type {dtype_of(zero_point)} for {dtype} data")
    if isinstance(zero_point, np.ndarray):
        return constant(imp, zero_point.reshape(1), f"{node.input[k] if len(node.input) > k and node.input[k] else out_name(imp, node)}_zero_point")
    return zero_point


def matmul_integer(imp, node, inputs):
    """MatMulInteger: the i32 matmul of zero-point-centred int8/uint8 operands."""
    a, b = integer_data(imp, inputs[0], node.input[0]), integer_data(imp, inputs[1], node.input[1])
    zeros = [integer_zero_point(imp, node, inputs, k, v) for k, v in ((2, a), (3, b))]
    return [make(imp, nq.MatmulIntegerOp, [a, b, *zeros], {}, out_name(imp, node))]


def conv_integer(imp, node, inputs):
    """ConvInteger: the i32 convolution of zero-point-centred int8/uint8 data and known weights."""
    w = known(inputs[1], "ConvInteger weights", imp)
    x, props = conv_window(imp, node, integer_data(imp, inputs[0], node.input[0]), w)
    weight = integer_data(imp, w.reshape(as_nchw(w.shape)), node.input[1])
    zeros = [integer_zero_point(imp, node, inputs, k, v) for k, v in ((2, x), (3, weight))]
    name = out_name(imp, node)
    y = make(imp, nq.ConvIntegerOp, [x, weight, *zeros], props, name + ("_2d" if w.ndim == 3 else ""))
    return [from_nchw(imp, y, w.ndim - 2, name)]


def dynamic_quantize_linear(imp, node, inputs):
    """DynamicQuantizeLinear as onnxruntime computes it: the range of ``x`` widened to hold 0,
    ``scale = (max - min) / 255`` (1 when the range is empty), ``zero_point =
    round(clamp(-min / scale, 0, 255))``, ``y = clamp(round(x / scale) + zero_point, 0, 255)``
    in uint8; rounding half to even."""
    b = imp.b
    x = f32_operand(imp, inputs[0], node.input[0])
    axes, name = list(range(len(b.shape(x)))), out_name(imp, node)
    low = b.min(b.reduce_min(x, axes, keepdims=False), number(imp, 0.0, f"{name}_zero"))
    high = b.max(b.reduce_max(x, axes, keepdims=False), number(imp, 0.0, f"{name}_zero"))
    empty = b.cmp("eq", high, low)
    scale = b.select(empty, number(imp, 1.0, f"{name}_one"), b.div(b.sub(high, low), number(imp, 255.0, f"{name}_255")),
                     imp.name(out_name(imp, node, 1)))
    zero = b.clamp(b.round(b.neg(b.div(low, scale))), 0.0, 255.0)
    y = b.clamp(b.add(b.round(b.div(x, scale)), zero), 0.0, 255.0)
    return [b.cast(y, np.uint8, name), scale, b.cast(zero, np.uint8, imp.name(out_name(imp, node, 2)))]


def qlinear_sigmoid(imp, node, inputs):
    """onnxruntime QLinearSigmoid (X, x_scale, x_zp, y_scale, y_zp): dequantized, the float
    sigmoid, quantized again (onnxruntime tabulates the same per 8-bit value)."""
    x_params, y_params = quant_params(node, inputs, 1, "x"), quant_params(node, inputs, 3, "y")
    per_tensor(node, (x_params, "X"), (y_params, "Y"))
    x = quantized_operand(imp, inputs[0], node.input[0], x_params)
    name = out_name(imp, node)
    real = make(imp, nq.DequantizeOp, [x], x_params.props("x"), f"{name}_real")
    y = imp.b.sigmoid(real, name=f"{name}_sigmoid")
    props = {"element": y_params.element, **y_params.props("y")}
    return [make(imp, nq.QuantizeOp, [y], props, name)]


def qlinear_concat(imp, node, inputs):
    """onnxruntime QLinearConcat (y_scale, y_zp, then (X, x_scale, x_zp) per input)."""
    y_params = quant_params(node, inputs, 0, "y")
    if (len(inputs) - 2) % 3 or len(inputs) < 5:
        raise OnnxImportError(f"QLinearConcat needs y_scale, y_zero_point and triples of X, scale, zero point; got {len(inputs)} inputs")
    parts, scales, zero_points = [], [], []
    for k in range(2, len(inputs), 3):
        params = quant_params(node, inputs, k + 1, f"input {(k - 2) // 3}")
        per_tensor(node, (params, f"input {(k - 2) // 3}"))
        parts.append(quantized_operand(imp, inputs[k], node.input[k], params))
        scales.append(params.scale.item())
        zero_points.append(params.zero_point.item())
    rank = len(imp.b.shape(parts[0]))
    props = {"element": y_params.element, "axis": IntegerAttr(normalize_axis(int(attr(node, "axis")), rank), i64),
             "x_scale": nq.f32_array(scales), "x_zero_point": nc.i64_array(zero_points), **y_params.props("y")}  # fmt: skip
    return [make(imp, nq.QConcatOp, parts, props, out_name(imp, node))]
