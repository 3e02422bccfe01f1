"""Compute ops on booleans: ``nn.and``, ``nn.or``, ``nn.xor`` and ``nn.not`` on i1 tensors, and
``nn.select``, which picks between two float tensors by an i1 condition."""

from __future__ import annotations

from abc import ABC
from typing import ClassVar

from xdsl.dialects.builtin import TensorType, i1
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import irdl_op_definition, operand_def, result_def
from xdsl.utils.exceptions import VerifyException

from cfmem.dialects import shapes
from cfmem.dialects.nn_compute.base import FLOAT_TENSOR, ComputeOp


class LogicalOp(ComputeOp, ABC):
    """An op on i1 tensors giving i1 (the booleans ``nn.cmp`` produces)."""

    RESULT_ELEMENT_TYPE: ClassVar[Attribute] = i1

    def verify_(self) -> None:
        for value in self.operands:
            if isinstance(value.type, TensorType) and value.type.get_element_type() != i1:
                raise VerifyException(f"operands must be i1 tensors, got {value.type}")
        super().verify_()


class LogicalBinaryOp(LogicalOp, ABC):
    """``lhs <op> rhs`` on i1 tensors with numpy broadcasting."""

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)

    def __init__(self, lhs: SSAValue, rhs: SSAValue, result_type: Attribute):
        super().__init__(operands=[lhs, rhs], result_types=[result_type])

    def infer_shape(self) -> shapes.Shape:
        return shapes.broadcast(self.operand_shape(0), self.operand_shape(1))


@irdl_op_definition
class AndOp(LogicalBinaryOp):
    """Elementwise ``lhs and rhs``."""

    name = "nn.and"


@irdl_op_definition
class OrOp(LogicalBinaryOp):
    """Elementwise ``lhs or rhs``."""

    name = "nn.or"


@irdl_op_definition
class XorOp(LogicalBinaryOp):
    """Elementwise ``lhs xor rhs``."""

    name = "nn.xor"


@irdl_op_definition
class NotOp(LogicalOp):
    """Elementwise ``not x``."""

    name = "nn.not"
    input = operand_def(TensorType)
    result = result_def(TensorType)

    def __init__(self, input: SSAValue):
        super().__init__(operands=[input], result_types=[input.type])

    def infer_shape(self) -> shapes.Shape:
        return self.operand_shape(0)


@irdl_op_definition
class SelectOp(ComputeOp):
    """``on_true`` where ``cond`` holds, else ``on_false`` (ONNX Where): an i1
    condition and two float tensors of one type, all three broadcast together."""

    name = "nn.select"
    FLOAT_OP: ClassVar[bool] = True
    cond = operand_def(TensorType)
    on_true = operand_def(FLOAT_TENSOR)
    on_false = operand_def(FLOAT_TENSOR)
    result = result_def(TensorType)

    def __init__(self, cond: SSAValue, on_true: SSAValue, on_false: SSAValue, result_type: Attribute):
        super().__init__(operands=[cond, on_true, on_false], result_types=[result_type])

    def verify_(self) -> None:
        if isinstance(self.cond.type, TensorType) and self.cond.type.get_element_type() != i1:
            raise VerifyException(f"the condition must be an i1 tensor, got {self.cond.type}")
        super().verify_()

    def infer_shape(self) -> shapes.Shape:
        return shapes.broadcast(*(self.operand_shape(k) for k in range(3)))

