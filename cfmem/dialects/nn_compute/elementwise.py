"""Elementwise compute ops with numpy broadcasting: arithmetic (float, or signless integer for
``nn.add``/``sub``/``mul``), ``nn.cmp`` into i1, unary float math and ``nn.clamp``, ``nn.cast``
between element types, and the remainders ``nn.fmod`` (floats) and ``nn.mod`` (integers)."""

from __future__ import annotations

from abc import ABC
from typing import ClassVar

from xdsl.dialects.builtin import (
    FloatAttr,
    IntegerType,
    Signedness,
    StringAttr,
    TensorType,
    f16,
    f32,
    i1,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, opt_prop_def, prop_def, result_def
from xdsl.utils.exceptions import VerifyException

from cfmem.dialects import shapes
from cfmem.dialects.nn_compute.base import FLOAT_TENSOR, FLOAT_TYPES, ComputeOp
from cfmem.dialects.types import as_verify_error


class ElementwiseBinaryOp(ComputeOp, ABC):
    """``lhs <op> rhs`` with numpy broadcasting."""

    FLOAT_OP: ClassVar[bool] = True
    lhs = operand_def(FLOAT_TENSOR)
    rhs = operand_def(FLOAT_TENSOR)
    result = result_def(TensorType)

    def __init__(self, lhs: SSAValue, rhs: SSAValue, result_type: Attribute):
        super().__init__(operands=[lhs, rhs], result_types=[result_type])

    def infer_shape(self) -> shapes.Shape:
        return shapes.broadcast(self.operand_shape(0), self.operand_shape(1))


class ArithmeticBinaryOp(ElementwiseBinaryOp, ABC):
    """``lhs <op> rhs`` on floats (f32, f16) or signless integers of 8, 16, 32 or 64 bits
    (wrapping, two's complement, as numpy): both operands and the result share one element
    type. Integers are what counters and index arithmetic (a loop's ``i + 1``) need."""

    FLOAT_OP: ClassVar[bool] = False
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)

    def result_element_type(self) -> Attribute:
        return number_operand_type(self)


@irdl_op_definition
class AddOp(ArithmeticBinaryOp):
    """Elementwise ``lhs + rhs``."""

    name = "nn.add"


@irdl_op_definition
class SubOp(ArithmeticBinaryOp):
    """Elementwise ``lhs - rhs``."""

    name = "nn.sub"


@irdl_op_definition
class MulOp(ArithmeticBinaryOp):
    """Elementwise ``lhs * rhs``."""

    name = "nn.mul"


@irdl_op_definition
class DivOp(ArithmeticBinaryOp):
    """Elementwise ``lhs / rhs``; integers truncate toward zero (C's ``/``)."""

    name = "nn.div"


@irdl_op_definition
class PowOp(ElementwiseBinaryOp):
    """Elementwise ``lhs ** rhs`` (NaN for a negative base and a non-integer exponent)."""

    name = "nn.pow"


@irdl_op_definition
class MaxOp(ArithmeticBinaryOp):
    """Elementwise ``max(lhs, rhs)`` (NaN if either is NaN)."""

    name = "nn.max"


@irdl_op_definition
class MinOp(ArithmeticBinaryOp):
    """Elementwise ``min(lhs, rhs)`` (NaN if either is NaN)."""

    name = "nn.min"


CMP_PREDICATES = ("eq", "ne", "lt", "le", "gt", "ge")


def number_operand_type(op: Operation) -> Attribute:
    """The one element type of ``op``'s two operands, f32, f16 or a signless integer of 8,
    16, 32 or 64 bits (``nn.cmp``, and ``nn.add``/``sub``/``mul``/``div``/``max``/``min``); ValueError otherwise."""
    types = [v.type.get_element_type() for v in op.operands]
    if types[0] != types[1]:
        raise ValueError(f"operands must have one element type, got {types[0]} and {types[1]}")
    if not is_cmp_element_type(types[0]):
        raise ValueError(f"operands must be f32, f16 or signless integers of 8, 16, 32 or 64 bits, got {types[0]}")
    return types[0]


def is_cmp_element_type(element_type: Attribute) -> bool:
    """f32, f16, or a signless integer of 8, 16, 32 or 64 bits (compared as signed)."""
    return element_type in FLOAT_TYPES or (
        isinstance(element_type, IntegerType)
        and element_type.signedness.data == Signedness.SIGNLESS
        and element_type.width.data in (8, 16, 32, 64)
    )


@irdl_op_definition
class CmpOp(ElementwiseBinaryOp):
    """Elementwise comparison producing i1; feeds ``nn.if`` conditions.

    ``predicate`` is one of eq, ne, lt, le, gt, ge. Both operands have one
    element type: f32, f16 or a signless integer (compared as signed).
    """

    name = "nn.cmp"
    FLOAT_OP: ClassVar[bool] = False
    RESULT_ELEMENT_TYPE: ClassVar[Attribute] = i1
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    predicate = prop_def(StringAttr)

    def __init__(self, predicate: str, lhs: SSAValue, rhs: SSAValue, result_type: Attribute):
        IRDLOperation.__init__(
            self,
            operands=[lhs, rhs],
            result_types=[result_type],
            properties={"predicate": StringAttr(predicate)},
        )

    def verify_(self) -> None:
        if self.predicate.data not in CMP_PREDICATES:
            raise VerifyException(
                f"unknown predicate '{self.predicate.data}', expected one of"
                f" {', '.join(CMP_PREDICATES)}"
            )
        with as_verify_error():
            number_operand_type(self)
        super().verify_()


class ElementwiseUnaryOp(ComputeOp, ABC):
    FLOAT_OP: ClassVar[bool] = True
    input = operand_def(FLOAT_TENSOR)
    result = result_def(TensorType)

    def __init__(self, input: SSAValue, properties: dict[str, Attribute] | None = None):
        super().__init__(operands=[input], result_types=[input.type], properties=properties or {})

    def infer_shape(self) -> shapes.Shape:
        return self.operand_shape(0)


@irdl_op_definition
class ReluOp(ElementwiseUnaryOp):
    """``max(x, 0)``."""

    name = "nn.relu"


@irdl_op_definition
class SigmoidOp(ElementwiseUnaryOp):
    """``1 / (1 + exp(-x))``; below ``exp_below`` it is ``exp(x)`` and above ``one_above`` it
    is 1.0 where they are given (TFLite Micro's LOGISTIC: -9 and 16.619047)."""

    name = "nn.sigmoid"
    exp_below = opt_prop_def(FloatAttr)
    one_above = opt_prop_def(FloatAttr)

    def cutoffs(self) -> tuple[float | None, float | None]:
        """``exp_below`` and ``one_above``, None where not given."""
        return tuple(None if a is None else a.value.data for a in (self.exp_below, self.one_above))


@irdl_op_definition
class TanhOp(ElementwiseUnaryOp):
    """``tanh(x)``."""

    name = "nn.tanh"


@irdl_op_definition
class SqrtOp(ElementwiseUnaryOp):
    """``sqrt(x)`` (NaN for negative x)."""

    name = "nn.sqrt"


@irdl_op_definition
class ExpOp(ElementwiseUnaryOp):
    """``exp(x)``."""

    name = "nn.exp"


@irdl_op_definition
class NegOp(ElementwiseUnaryOp):
    """``-x``."""

    name = "nn.neg"


@irdl_op_definition
class LogOp(ElementwiseUnaryOp):
    """``log(x)`` (-inf at 0, NaN below)."""

    name = "nn.log"


@irdl_op_definition
class AbsOp(ElementwiseUnaryOp):
    """``|x|``."""

    name = "nn.abs"


@irdl_op_definition
class FloorOp(ElementwiseUnaryOp):
    """``floor(x)``."""

    name = "nn.floor"


@irdl_op_definition
class CeilOp(ElementwiseUnaryOp):
    """``ceil(x)``."""

    name = "nn.ceil"


@irdl_op_definition
class RoundOp(ElementwiseUnaryOp):
    """``x`` rounded to the nearest integer, halves to even (ONNX Round)."""

    name = "nn.round"


@irdl_op_definition
class SignOp(ElementwiseUnaryOp):
    """``-1``, ``0`` or ``1`` by the sign of ``x`` (NaN stays NaN)."""

    name = "nn.sign"


@irdl_op_definition
class ErfOp(ElementwiseUnaryOp):
    """The error function of ``x``."""

    name = "nn.erf"


@irdl_op_definition
class SinOp(ElementwiseUnaryOp):
    """``sin(x)``."""

    name = "nn.sin"


@irdl_op_definition
class CosOp(ElementwiseUnaryOp):
    """``cos(x)``."""

    name = "nn.cos"


@irdl_op_definition
class ReciprocalOp(ElementwiseUnaryOp):
    """``1 / x``."""

    name = "nn.reciprocal"


@irdl_op_definition
class ClampOp(ElementwiseUnaryOp):
    """``min(max(x, min), max)``; relu6 is ``{min = 0.0, max = 6.0}``."""

    name = "nn.clamp"
    min = prop_def(FloatAttr)
    max = prop_def(FloatAttr)

    def __init__(self, input: SSAValue, lo: float, hi: float):
        super().__init__(input, {"min": FloatAttr(lo, f32), "max": FloatAttr(hi, f32)})

    def verify_(self) -> None:
        if not self.min.value.data <= self.max.value.data:
            raise VerifyException("clamp min must not exceed max (and neither may be NaN)")
        super().verify_()



CAST_TYPES = (f32, f16, i1, IntegerType(8), IntegerType(8, Signedness.UNSIGNED), IntegerType(16), IntegerType(32),
              IntegerType(32, Signedness.UNSIGNED), i64, IntegerType(64, Signedness.UNSIGNED))
"""Element types ``nn.cast`` converts between."""


@irdl_op_definition
class CastOp(ComputeOp):
    """ONNX Cast at run time: each element converted to the result's element type (f32, f16,
    i1, i8, ui8, i16, i32, ui32, i64 or ui64). To f16, floats round to nearest even and integers convert
    directly. Floats become integers truncated toward zero (out of the range of the
    type the value is undefined, as in ONNX), integers narrow by keeping their low bits,
    any number becomes i1 as ``x != 0`` (NaN is true) and i1 becomes 0 or 1."""

    name = "nn.cast"
    input = operand_def(TensorType)
    result = result_def(TensorType)

    def __init__(self, input: SSAValue, result_type: Attribute):
        super().__init__(operands=[input], result_types=[result_type])

    def result_element_type(self) -> Attribute:
        return self.result.type.get_element_type()

    def infer_shape(self) -> shapes.Shape:
        for what, value in (("input", self.input), ("result", self.result)):
            if value.type.get_element_type() not in CAST_TYPES:
                raise ValueError(f"{what} must be f32, f16, i1, i8, ui8, i16, i32, ui32, i64 or ui64, got {value.type}")
        return self.operand_shape(0)


@irdl_op_definition
class FmodOp(ElementwiseBinaryOp):
    """Elementwise C ``fmod(lhs, rhs)``: the remainder of the quotient truncated toward
    zero, with the sign of ``lhs`` (NaN for ``rhs = 0`` or an infinite ``lhs``)."""

    name = "nn.fmod"


def is_integer_element_type(element_type: Attribute) -> bool:
    """A signless integer of 8, 16, 32 or 64 bits."""
    return element_type not in FLOAT_TYPES and is_cmp_element_type(element_type)


@irdl_op_definition
class ModOp(ComputeOp):
    """Elementwise ``lhs mod rhs`` of signless integers (as signed) with broadcasting: the
    remainder of floor division, with the sign of ``rhs`` (ONNX Mod with fmod=0). Both
    operands and the result have one element type; ``rhs`` holds no 0 (undefined)."""

    name = "nn.mod"
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)

    def __init__(self, lhs: SSAValue, rhs: SSAValue, result_type: Attribute):
        super().__init__(operands=[lhs, rhs], result_types=[result_type])

    def result_element_type(self) -> Attribute:
        return self.lhs.type.get_element_type()

    def infer_shape(self) -> shapes.Shape:
        return shapes.broadcast(self.operand_shape(0), self.operand_shape(1))

    def verify_(self) -> None:
        types = [v.type.get_element_type() for v in self.operands]
        if types[0] != types[1]:
            raise VerifyException(f"operands must have one element type, got {types[0]} and {types[1]}")
        if not is_integer_element_type(types[0]):
            raise VerifyException(f"operands must be signless integers of 8, 16, 32 or 64 bits, got {types[0]}")
        super().verify_()


