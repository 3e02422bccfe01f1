"""Convolution, matrix products and pooling: ``nn.conv2d`` (NCHW input, OIHW weights),
``nn.matmul``, ``nn.gemm``, ``nn.max_pool2d``, ``nn.avg_pool2d`` and ``nn.global_avg_pool``;
each counts its multiply-accumulates from its window or inner dimension. ``nn.conv2d``,
``nn.matmul``, ``nn.gemm`` and ``nn.avg_pool2d`` take a ``sum_order`` (``SumOrderOp``)."""

from __future__ import annotations

from abc import ABC
from math import prod
from typing import ClassVar

from xdsl.dialects.builtin import (
    I64,
    BoolAttr,
    DenseArrayBase,
    IntegerAttr,
    IntegerType,
    TensorType,
    i64,
)
from xdsl.ir import Attribute
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
)

from cfmem.dialects import shapes
from cfmem.dialects.nn_compute.base import FLOAT_TENSOR, FLOAT_TYPES, ComputeOp, SumOrderOp, _ints, i64_array
from cfmem.dialects.types import static_shape


class ConvWindowOp(ComputeOp, ABC):
    """A 2-D convolution over an NCHW operand 0 with OIHW weights (operand 1): ``strides``,
    ``pads`` (top, left, bottom, right), ``dilations`` and ``groups`` (the input channels:
    depthwise)."""

    strides = opt_prop_def(DenseArrayBase[I64], default_value=i64_array([1, 1]))
    pads = opt_prop_def(DenseArrayBase[I64], default_value=i64_array([0, 0, 0, 0]))
    dilations = opt_prop_def(DenseArrayBase[I64], default_value=i64_array([1, 1]))
    groups = opt_prop_def(IntegerAttr[I64], default_value=IntegerAttr(1, i64))

    def window_shape(self) -> shapes.Shape:
        """The output shape the window gives."""
        return shapes.conv2d(self.operand_shape(0), self.operand_shape(1), _ints(self.strides), _ints(self.pads),
                             _ints(self.dilations), self.groups.value.data)  # fmt: skip

    def macs(self) -> int:
        _, i, kh, kw = self.operand_shape(1)
        return prod(self.out_shape) * i * kh * kw


@irdl_op_definition
class Conv2dOp(ConvWindowOp, SumOrderOp):
    """Grouped 2-D convolution, input NCHW, weight OIHW, optional bias [O]."""

    name = "nn.conv2d"
    FLOAT_OP: ClassVar[bool] = True
    input = operand_def(FLOAT_TENSOR)
    weight = operand_def(FLOAT_TENSOR)
    bias = opt_operand_def(FLOAT_TENSOR)
    result = result_def(TensorType)

    def infer_shape(self) -> shapes.Shape:
        out = self.window_shape()
        if self.bias is not None and static_shape(self.bias.type) != (out[1],):
            raise ValueError(f"bias must have shape [{out[1]}]")
        return out


@irdl_op_definition
class MatmulOp(SumOrderOp):
    """numpy ``matmul`` of operands of rank >= 2."""

    name = "nn.matmul"
    FLOAT_OP: ClassVar[bool] = True
    lhs = operand_def(FLOAT_TENSOR)
    rhs = operand_def(FLOAT_TENSOR)
    result = result_def(TensorType)

    def infer_shape(self) -> shapes.Shape:
        return shapes.matmul(self.operand_shape(0), self.operand_shape(1))

    def macs(self) -> int:
        return prod(self.out_shape) * self.operand_shape(0)[-1]


@irdl_op_definition
class GemmOp(SumOrderOp):
    """``a @ b + c`` (ONNX Gemm, alpha = beta = 1); ``trans_b`` uses ``b.T``."""

    name = "nn.gemm"
    FLOAT_OP: ClassVar[bool] = True
    a = operand_def(FLOAT_TENSOR)
    b = operand_def(FLOAT_TENSOR)
    c = operand_def(FLOAT_TENSOR)
    result = result_def(TensorType)
    trans_b = opt_prop_def(BoolAttr, default_value=BoolAttr.from_bool(False))

    def infer_shape(self) -> shapes.Shape:
        return shapes.gemm(
            self.operand_shape(0),
            self.operand_shape(1),
            self.operand_shape(2),
            bool(self.trans_b.value.data),
        )

    def macs(self) -> int:
        return prod(self.out_shape) * self.operand_shape(0)[1]


# --- pooling and reductions ---------------------------------------------------


class Pool2dOp(ComputeOp, ABC):
    FLOAT_OP: ClassVar[bool] = True
    input = operand_def(FLOAT_TENSOR)
    result = result_def(TensorType)
    kernel = prop_def(DenseArrayBase[I64])
    strides = opt_prop_def(DenseArrayBase[I64], default_value=i64_array([1, 1]))
    pads = opt_prop_def(DenseArrayBase[I64], default_value=i64_array([0, 0, 0, 0]))
    dilations = opt_prop_def(DenseArrayBase[I64], default_value=i64_array([1, 1]))

    def infer_shape(self) -> shapes.Shape:
        return shapes.pool2d(
            self.operand_shape(0), _ints(self.kernel), _ints(self.strides), _ints(self.pads), _ints(self.dilations)
        )

    def macs(self) -> int:
        return prod(self.out_shape) * prod(_ints(self.kernel))


class ByteOrFloatPool2dOp(Pool2dOp, ABC):
    """A pooling that takes f32, f16 or quantized (i8, ui8) data and keeps its element type."""

    input = operand_def(TensorType)

    def result_element_type(self) -> Attribute:
        return self.input.type.get_element_type()

    def infer_shape(self) -> shapes.Shape:
        element = self.input.type.get_element_type()
        if element not in FLOAT_TYPES and not (isinstance(element, IntegerType) and element.width.data == 8):
            raise ValueError(f"input must be f32, f16, i8 or ui8, got {element}")
        return super().infer_shape()


@irdl_op_definition
class MaxPool2dOp(ByteOrFloatPool2dOp):
    """Max pooling over NCHW; padding never wins the max. Takes f32, f16 or quantized
    (i8, ui8) data and keeps its element type (the max commutes with dequantizing)."""

    name = "nn.max_pool2d"


@irdl_op_definition
class AvgPool2dOp(ByteOrFloatPool2dOp, SumOrderOp):
    """Average pooling over NCHW; padded positions are not counted. Quantized (i8, ui8) data
    keeps its element type and quantization: the mean of the window's elements rounded half
    away from zero (TFLite's int8 AVERAGE_POOL_2D)."""

    name = "nn.avg_pool2d"


@irdl_op_definition
class GlobalAvgPoolOp(ComputeOp):
    """Mean over H and W of an NCHW tensor, keeping them as 1x1."""

    name = "nn.global_avg_pool"
    FLOAT_OP: ClassVar[bool] = True
    input = operand_def(FLOAT_TENSOR)
    result = result_def(TensorType)

    def infer_shape(self) -> shapes.Shape:
        x = self.operand_shape(0)
        if len(x) != 4:
            raise ValueError(f"global_avg_pool expects a rank-4 input, got rank {len(x)}")
        return (x[0], x[1], 1, 1)

    def macs(self) -> int:
        return prod(self.operand_shape(0))
