"""Compute ops along axes: the reductions ``nn.reduce_*`` over ``axes``, ``nn.arg_max`` and
``nn.arg_min`` (i64 positions), ``nn.softmax`` and the running sums of ``nn.cumsum``. The
reductions and ``nn.softmax`` take a ``sum_order`` (``SumOrderOp``)."""

from __future__ import annotations

from abc import ABC
from math import prod
from typing import ClassVar

from xdsl.dialects.builtin import I64, BoolAttr, DenseArrayBase, IntegerAttr, TensorType, i64
from xdsl.ir import Attribute
from xdsl.irdl import irdl_op_definition, operand_def, opt_prop_def, prop_def, result_def

from cfmem.dialects import shapes
from cfmem.dialects.nn_compute.base import FLOAT_TENSOR, ComputeOp, SumOrderOp, _ints


class ReduceOp(SumOrderOp, ABC):
    """A reduction over ``axes``; ``keepdims`` keeps them with size 1."""

    FLOAT_OP: ClassVar[bool] = True
    input = operand_def(FLOAT_TENSOR)
    result = result_def(TensorType)
    axes = prop_def(DenseArrayBase[I64])
    keepdims = opt_prop_def(BoolAttr, default_value=BoolAttr.from_bool(True))

    def infer_shape(self) -> shapes.Shape:
        return shapes.reduce(self.operand_shape(0), _ints(self.axes), bool(self.keepdims.value.data))

    def macs(self) -> int:
        return prod(self.operand_shape(0))


@irdl_op_definition
class ReduceMeanOp(ReduceOp):
    """Mean over ``axes``."""

    name = "nn.reduce_mean"


@irdl_op_definition
class ReduceSumOp(ReduceOp):
    """Sum over ``axes``."""

    name = "nn.reduce_sum"


@irdl_op_definition
class ReduceMaxOp(ReduceOp):
    """Maximum over ``axes`` (NaN if any element is NaN)."""

    name = "nn.reduce_max"


@irdl_op_definition
class ReduceMinOp(ReduceOp):
    """Minimum over ``axes`` (NaN if any element is NaN)."""

    name = "nn.reduce_min"


@irdl_op_definition
class ReduceProdOp(ReduceOp):
    """Product over ``axes``."""

    name = "nn.reduce_prod"


class ArgExtremeOp(ComputeOp, ABC):
    """The i64 index along ``axis`` of the extreme element; ties go to the first, or to the
    last with ``select_last_index``; ``keepdims`` keeps the axis with size 1."""

    RESULT_ELEMENT_TYPE: ClassVar[Attribute] = i64
    input = operand_def(FLOAT_TENSOR)
    result = result_def(TensorType)
    axis = prop_def(IntegerAttr[I64])
    keepdims = opt_prop_def(BoolAttr, default_value=BoolAttr.from_bool(True))
    select_last_index = opt_prop_def(BoolAttr, default_value=BoolAttr.from_bool(False))

    def infer_shape(self) -> shapes.Shape:
        return shapes.reduce(self.operand_shape(0), (self.axis.value.data,), bool(self.keepdims.value.data))

    def macs(self) -> int:
        return prod(self.operand_shape(0))


@irdl_op_definition
class ArgMaxOp(ArgExtremeOp):
    """Index of the largest element along ``axis`` (inputs without NaN)."""

    name = "nn.arg_max"


@irdl_op_definition
class ArgMinOp(ArgExtremeOp):
    """Index of the smallest element along ``axis`` (inputs without NaN)."""

    name = "nn.arg_min"


@irdl_op_definition
class SoftmaxOp(SumOrderOp):
    """Softmax along ``axis``."""

    name = "nn.softmax"
    FLOAT_OP: ClassVar[bool] = True
    input = operand_def(FLOAT_TENSOR)
    result = result_def(TensorType)
    axis = opt_prop_def(IntegerAttr[I64], default_value=IntegerAttr(-1, i64))

    def infer_shape(self) -> shapes.Shape:
        x = self.operand_shape(0)
        shapes.normalize_axis(self.axis.value.data, len(x))
        return x

    def macs(self) -> int:
        return 3 * prod(self.out_shape)



@irdl_op_definition
class CumsumOp(ComputeOp):
    """Running sums along ``axis``; ``exclusive`` leaves each element out of its own
    sum (the first is 0), ``reverse`` sums from the end (ONNX CumSum)."""

    name = "nn.cumsum"
    FLOAT_OP: ClassVar[bool] = True
    input = operand_def(FLOAT_TENSOR)
    result = result_def(TensorType)
    axis = prop_def(IntegerAttr[I64])
    exclusive = opt_prop_def(BoolAttr, default_value=BoolAttr.from_bool(False))
    reverse = opt_prop_def(BoolAttr, default_value=BoolAttr.from_bool(False))

    def infer_shape(self) -> shapes.Shape:
        x = self.operand_shape(0)
        shapes.normalize_axis(self.axis.value.data, len(x))
        return x

