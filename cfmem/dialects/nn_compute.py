"""Tensor-level compute ops of the nn dialect.

All ops take and return statically shaped ``tensor`` values of float data: the
float ops take f32 or f16 operands of one type and give a result of that type, except that ``nn.cmp`` compares floats or signless integers into i1, the logical
ops (``nn.and``, ``nn.or``, ``nn.xor``, ``nn.not``) work on i1, ``nn.select``
takes an i1 condition, ``nn.mod`` works on signless integers, ``nn.top_k``,
``nn.arg_max`` and ``nn.arg_min`` give i64 positions, ``nn.cast`` converts
between element types, and ``nn.slice``, ``nn.transpose``, ``nn.max_pool2d`` (float
or quantized), ``nn.gather`` and ``nn.gather_elements`` keep their data's element
type (the gathers read positions from an integer index tensor). Each op knows
its output shape (checked by the verifier), its multiply-accumulate count and
the bytes it reads and writes; the DMA cost model relies on these numbers.
"""

from __future__ import annotations

import difflib
from abc import ABC, abstractmethod
from collections.abc import Sequence
from math import prod
from typing import ClassVar

from xdsl.dialects.builtin import (
    I64,
    BoolAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    FloatAttr,
    IntegerAttr,
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
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import ConstantLike, Pure
from xdsl.utils.exceptions import VerifyException

from cfmem.dialects import shapes
from cfmem.dialects.types import as_verify_error, tensor_bytes, static_shape

F32_TENSOR = TensorType.constr(Float32Type)
FLOAT_TENSOR = TensorType.constr(Float32Type | Float16Type)
"""An f32 or f16 tensor; a float op's float operands share one of the two types."""
FLOAT_TYPES = (f32, f16)


class ComputeOp(IRDLOperation, ABC):
    """An op whose single result is computed from its tensor operands.

    Subclasses give ``infer_shape``; the verifier checks the declared result
    type against it, so a printed module always carries consistent shapes.
    """

    RESULT_ELEMENT_TYPE: ClassVar[Attribute] = f32
    """The result's element type, unless ``result_element_type`` says otherwise."""
    FLOAT_OP: ClassVar[bool] = False
    """A float op: its float operands have one element type (f32 or f16), the result's."""
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "operands attr-dict `:` functional-type(operands, results)"
    traits = traits_def(Pure())

    @abstractmethod
    def infer_shape(self) -> shapes.Shape:
        """Output shape from the operand shapes and the op's attributes."""

    def result_element_type(self) -> Attribute:
        return self.float_element_type() if self.FLOAT_OP else self.RESULT_ELEMENT_TYPE

    def float_element_type(self) -> Attribute:
        """The element type (f32 or f16) of the float operands, which must all have it."""
        types = [v.type.get_element_type() for v in self.operands if isinstance(v.type, TensorType)]
        floats = list(dict.fromkeys(t for t in types if t in FLOAT_TYPES))
        if len(floats) > 1:
            raise ValueError(f"float operands must have one element type, got {floats[0]} and {floats[1]}")
        return floats[0] if floats else f32

    def macs(self) -> int:
        """Multiply-accumulates (or elementary operations) the op performs."""
        return prod(self.out_shape)

    def bytes_read(self) -> int:
        return sum(tensor_bytes(v.type) for v in self.operands)

    def bytes_written(self) -> int:
        return sum(tensor_bytes(r.type) for r in self.results)

    @property
    def out_shape(self) -> shapes.Shape:
        return static_shape(self.results[0].type)

    def operand_shape(self, index: int) -> shapes.Shape:
        return static_shape(self.operands[index].type)

    def verify_(self) -> None:
        _refuse_unknown_attributes(self)
        for value in (*self.operands, *self.results):
            if not isinstance(value.type, TensorType):
                raise VerifyException(f"expected tensor types, got {value.type}")
            with as_verify_error():
                static_shape(value.type)
        result_type = self.results[0].type
        with as_verify_error():
            element = self.result_element_type()
        if result_type.get_element_type() != element:
            raise VerifyException(f"result element type must be {element}, got {result_type.get_element_type()}")
        with as_verify_error():
            expected = self.infer_shape()
        if expected != self.out_shape:
            raise VerifyException(
                f"result shape {shapes.format_shape(self.out_shape)} does not match the"
                f" inferred shape {shapes.format_shape(expected)}"
            )


def _refuse_unknown_attributes(op: IRDLOperation) -> None:
    """An attribute the op does not define whose name is close to one it does is a misspelling
    (``group`` for ``groups``), which would be ignored: refused. Other extra attributes are kept,
    as MLIR keeps discardable attributes."""
    definition = type(op).get_irdl_definition()
    known = sorted({*definition.attributes, *definition.properties})
    for name in sorted(op.attributes):
        if name in known:
            continue
        close = difflib.get_close_matches(name, known, n=1, cutoff=0.8)
        if close:
            raise VerifyException(f"unknown attribute {name} (did you mean {close[0]}? it takes {', '.join(known)})")


def _ints(attr: DenseArrayBase) -> tuple[int, ...]:
    return tuple(int(v) for v in attr.get_values())


def i64_array(values: Sequence[int]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, list(values))


# --- elementwise --------------------------------------------------------------


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
class DivOp(ElementwiseBinaryOp):
    """Elementwise ``lhs / rhs``."""

    name = "nn.div"


@irdl_op_definition
class PowOp(ElementwiseBinaryOp):
    """Elementwise ``lhs ** rhs`` (NaN for a negative base and a non-integer exponent)."""

    name = "nn.pow"


@irdl_op_definition
class MaxOp(ElementwiseBinaryOp):
    """Elementwise ``max(lhs, rhs)`` (NaN if either is NaN)."""

    name = "nn.max"


@irdl_op_definition
class MinOp(ElementwiseBinaryOp):
    """Elementwise ``min(lhs, rhs)`` (NaN if either is NaN)."""

    name = "nn.min"


CMP_PREDICATES = ("eq", "ne", "lt", "le", "gt", "ge")


def number_operand_type(op: Operation) -> Attribute:
    """The one element type of ``op``'s two operands, f32, f16 or a signless integer of 8,
    16, 32 or 64 bits (``nn.cmp``, and ``nn.add``/``sub``/``mul``); ValueError otherwise."""
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
    """``1 / (1 + exp(-x))``."""

    name = "nn.sigmoid"


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


# --- logic, selection, remainders, scans ------------------------------------------


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


CAST_TYPES = (f32, f16, i1, IntegerType(8), IntegerType(8, Signedness.UNSIGNED), IntegerType(32), i64)
"""Element types ``nn.cast`` converts between."""


@irdl_op_definition
class CastOp(ComputeOp):
    """ONNX Cast at run time: each element converted to the result's element type (f32, f16,
    i1, i8, ui8, i32 or i64). To f16, floats round to nearest even and integers convert
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
                raise ValueError(f"{what} must be f32, f16, i1, i8, ui8, i32 or i64, got {value.type}")
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


# --- linear algebra -----------------------------------------------------------


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
class Conv2dOp(ConvWindowOp):
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
class MatmulOp(ComputeOp):
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
class GemmOp(ComputeOp):
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


@irdl_op_definition
class MaxPool2dOp(Pool2dOp):
    """Max pooling over NCHW; padding never wins the max. Takes f32, f16 or quantized
    (i8, ui8) data and keeps its element type (the max commutes with dequantizing)."""

    name = "nn.max_pool2d"
    input = operand_def(TensorType)

    def result_element_type(self) -> Attribute:
        return self.input.type.get_element_type()

    def infer_shape(self) -> shapes.Shape:
        element = self.input.type.get_element_type()
        if element not in FLOAT_TYPES and not (isinstance(element, IntegerType) and element.width.data == 8):
            raise ValueError(f"input must be f32, f16, i8 or ui8, got {element}")
        return super().infer_shape()


@irdl_op_definition
class AvgPool2dOp(Pool2dOp):
    """Average pooling over NCHW; padded positions are not counted."""

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


class ReduceOp(ComputeOp, ABC):
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
class SoftmaxOp(ComputeOp):
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


# --- data movement --------------------------------------------------------------


@irdl_op_definition
class ConcatOp(ComputeOp):
    """Concatenation of its operands along ``axis``."""

    name = "nn.concat"
    FLOAT_OP: ClassVar[bool] = True
    inputs = var_operand_def(FLOAT_TENSOR)
    result = result_def(TensorType)
    axis = prop_def(IntegerAttr[I64])

    def infer_shape(self) -> shapes.Shape:
        return shapes.concat(
            [self.operand_shape(i) for i in range(len(self.operands))], self.axis.value.data
        )

    def macs(self) -> int:
        return 0


@irdl_op_definition
class TransposeOp(ComputeOp):
    """Axis permutation: result axis ``i`` is input axis ``perm[i]``; keeps the input's
    element type, whatever it is."""

    name = "nn.transpose"
    input = operand_def(TensorType)
    result = result_def(TensorType)
    perm = prop_def(DenseArrayBase[I64])

    def result_element_type(self) -> Attribute:
        return self.input.type.get_element_type()

    def infer_shape(self) -> shapes.Shape:
        return shapes.transpose(self.operand_shape(0), _ints(self.perm))

    def macs(self) -> int:
        return 0


@irdl_op_definition
class SliceOp(ComputeOp):
    """ONNX Slice with static ``starts``, ``ends``, ``axes`` and ``steps``.

    Bounds are clamped and may count from the end; ``axes`` defaults to the
    first ``len(starts)`` axes, ``steps`` to ones (see ``shapes.slice_bounds``).
    Keeps the input's element type, whatever it is.
    """

    name = "nn.slice"
    input = operand_def(TensorType)
    result = result_def(TensorType)
    starts = prop_def(DenseArrayBase[I64])
    ends = prop_def(DenseArrayBase[I64])
    axes = opt_prop_def(DenseArrayBase[I64])
    steps = opt_prop_def(DenseArrayBase[I64])

    def result_element_type(self) -> Attribute:
        return self.input.type.get_element_type()

    def _slice_args(self) -> tuple:
        return (
            self.operand_shape(0),
            _ints(self.starts),
            _ints(self.ends),
            None if self.axes is None else _ints(self.axes),
            None if self.steps is None else _ints(self.steps),
        )

    def bounds(self) -> tuple[tuple[int, int, int], ...]:
        """``(start, step, count)`` of every input axis."""
        return shapes.slice_bounds(*self._slice_args())

    def infer_shape(self) -> shapes.Shape:
        return shapes.slice_(*self._slice_args())

    def macs(self) -> int:
        return 0


@irdl_op_definition
class PadOp(ComputeOp):
    """ONNX Pad: ``pads`` holds every axis' begin pad, then every axis' end pad.

    ``mode`` is constant (fill with ``value``), reflect (numpy's "reflect",
    each pad smaller than its dimension) or edge.
    """

    name = "nn.pad"
    FLOAT_OP: ClassVar[bool] = True
    input = operand_def(FLOAT_TENSOR)
    result = result_def(TensorType)
    pads = prop_def(DenseArrayBase[I64])
    mode = opt_prop_def(StringAttr, default_value=StringAttr("constant"))
    value = opt_prop_def(FloatAttr, default_value=FloatAttr(0.0, f32))

    def before_after(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The begin pads and the end pads, one per axis."""
        pads = _ints(self.pads)
        return pads[: len(pads) // 2], pads[len(pads) // 2 :]

    def infer_shape(self) -> shapes.Shape:
        return shapes.pad(self.operand_shape(0), _ints(self.pads), self.mode.data)

    def macs(self) -> int:
        return 0


INDEX_WIDTHS = (32, 64)
"""Bit widths of the signless integer index tensors ``nn.gather`` and ``nn.gather_elements`` read."""


class IndexedReadOp(ComputeOp, ABC):
    """Reads elements of ``data`` (any element type, which the result keeps) at positions
    along ``axis`` given by the run-time integers in ``indices``.

    An index ``i`` in ``[-n, n)`` (``n`` the size of ``axis``) counts from the end when
    negative, as in ONNX; an index out of that range is an error when interpreted.
    """

    data = operand_def(TensorType)
    indices = operand_def(TensorType)
    result = result_def(TensorType)
    axis = prop_def(IntegerAttr[I64])

    def result_element_type(self) -> Attribute:
        return self.data.type.get_element_type()

    def normalized_axis(self) -> int:
        return shapes.normalize_axis(self.axis.value.data, len(self.operand_shape(0)))

    def verify_(self) -> None:
        element = self.indices.type.get_element_type()
        if not (
            isinstance(element, IntegerType)
            and element.signedness.data == Signedness.SIGNLESS
            and element.width.data in INDEX_WIDTHS
        ):
            raise VerifyException(f"indices must be signless integers of 32 or 64 bits, got {element}")
        super().verify_()

    def macs(self) -> int:
        return 0

    def bytes_read(self) -> int:
        """The indices, and one data element per result element (not the whole data)."""
        return tensor_bytes(self.indices.type) + tensor_bytes(self.result.type)


@irdl_op_definition
class GatherOp(IndexedReadOp):
    """ONNX Gather: ``result[a..., i..., b...] = data[a..., indices[i...], b...]`` with
    ``a`` the axes before ``axis``."""

    name = "nn.gather"

    def infer_shape(self) -> shapes.Shape:
        return shapes.gather(self.operand_shape(0), self.operand_shape(1), self.axis.value.data)


@irdl_op_definition
class GatherElementsOp(IndexedReadOp):
    """ONNX GatherElements: ``result[p] = data[p with its axis coordinate replaced by
    indices[p]]``; the result has the indices' shape."""

    name = "nn.gather_elements"

    def infer_shape(self) -> shapes.Shape:
        return shapes.gather_elements(self.operand_shape(0), self.operand_shape(1), self.axis.value.data)


@irdl_op_definition
class TopKOp(ComputeOp):
    """The positions (i64) of the ``k`` largest elements along ``axis`` (the smallest unless
    ``largest``), best first, equal elements in the order of their positions; ONNX TopK's
    Indices (its Values are the input gathered there). Assumes no NaN in the input."""

    name = "nn.top_k"
    RESULT_ELEMENT_TYPE: ClassVar[Attribute] = i64
    input = operand_def(FLOAT_TENSOR)
    result = result_def(TensorType)
    k = prop_def(IntegerAttr[I64])
    axis = opt_prop_def(IntegerAttr[I64], default_value=IntegerAttr(-1, i64))
    largest = opt_prop_def(BoolAttr, default_value=BoolAttr.from_bool(True))

    def normalized_axis(self) -> int:
        return shapes.normalize_axis(self.axis.value.data, len(self.operand_shape(0)))

    def infer_shape(self) -> shapes.Shape:
        return shapes.top_k(self.operand_shape(0), self.k.value.data, self.axis.value.data)

    def macs(self) -> int:
        """Every element compared with every other along the axis (its rank), and each rank
        compared with each of the ``k`` positions."""
        x = self.operand_shape(0)
        return prod(x) * (x[self.normalized_axis()] + self.k.value.data)


@irdl_op_definition
class ConstantOp(IRDLOperation):
    """A small constant tensor held in the IR (read-only, never planned)."""

    name = "nn.constant"
    value = prop_def(DenseIntOrFPElementsAttr)
    result = result_def(TensorType)
    traits = traits_def(Pure(), ConstantLike())

    def __init__(self, value: DenseIntOrFPElementsAttr):
        super().__init__(properties={"value": value}, result_types=[value.type])

    @classmethod
    def parse(cls, parser: Parser) -> ConstantOp:
        value = parser.parse_attribute()
        if not isinstance(value, DenseIntOrFPElementsAttr):
            parser.raise_error("expected a dense<...> : tensor<...> constant")
        op = cls(value)
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.value)
        if self.attributes:
            printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        if self.value.type != self.result.type:
            raise VerifyException(
                f"value type {self.value.type} differs from result type {self.result.type}"
            )
        with as_verify_error():
            static_shape(self.result.type)

    def macs(self) -> int:
        return 0

    def bytes_read(self) -> int:
        return 0

    def bytes_written(self) -> int:
        return tensor_bytes(self.result.type)


COMPUTE_OPS: tuple[type[IRDLOperation], ...] = (
    CastOp,
    AddOp,
    SubOp,
    MulOp,
    DivOp,
    PowOp,
    MaxOp,
    MinOp,
    CmpOp,
    ReluOp,
    SigmoidOp,
    TanhOp,
    SqrtOp,
    ExpOp,
    NegOp,
    LogOp,
    AbsOp,
    FloorOp,
    CeilOp,
    RoundOp,
    SignOp,
    ErfOp,
    SinOp,
    CosOp,
    ReciprocalOp,
    ClampOp,
    AndOp,
    OrOp,
    XorOp,
    NotOp,
    SelectOp,
    FmodOp,
    ModOp,
    CumsumOp,
    Conv2dOp,
    MatmulOp,
    GemmOp,
    MaxPool2dOp,
    AvgPool2dOp,
    GlobalAvgPoolOp,
    ReduceMeanOp,
    ReduceSumOp,
    ReduceMaxOp,
    ReduceMinOp,
    ReduceProdOp,
    ArgMaxOp,
    ArgMinOp,
    SoftmaxOp,
    ConcatOp,
    TransposeOp,
    SliceOp,
    PadOp,
    GatherOp,
    GatherElementsOp,
    TopKOp,
    ConstantOp,
)
