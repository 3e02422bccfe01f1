"""The base of the nn dialect's compute ops: ``ComputeOp`` (a single tensor result whose
element type and shape the verifier checks against the op's own rules), ``SumOrderOp`` (an op
whose float32 sums may be asked to follow TFLite Micro's order), the float tensor constraints,
and the helpers for dense i64 array properties."""

from __future__ import annotations

import difflib
from abc import ABC, abstractmethod
from collections.abc import Sequence
from math import prod
from typing import ClassVar

from xdsl.dialects.builtin import (
    DenseArrayBase,
    StringAttr,
    Float16Type,
    Float32Type,
    TensorType,
    f16,
    f32,
    i64,
)
from xdsl.ir import Attribute
from xdsl.irdl import IRDLOperation, ParsePropInAttrDict, opt_prop_def, traits_def
from xdsl.traits import Pure
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


SEQUENTIAL = "sequential"
"""The ``sum_order`` of TFLite Micro's reference kernels (see :class:`SumOrderOp`)."""
SUM_ORDERS = (SEQUENTIAL,)


class SumOrderOp(ComputeOp, ABC):
    """A float op that adds float32 terms, with the order it adds them in.

    Without ``sum_order`` the order is the interpreter's own: onnxruntime's where cfmem knows
    it (``nn.reduce_sum`` and ``nn.reduce_mean``), numpy's elsewhere. ``sum_order =
    "sequential"`` is the order of TFLite Micro's reference kernels, which the TFLite importer
    asks for: each result element is one float32 accumulator that starts at 0.0 and adds one
    term at a time, every product rounded to float32 before it is added (no fused
    multiply-add), a bias added to the finished sum. The terms come in the order of the op's
    reduction loops, the last innermost: a convolution's window rows, columns, then input
    channels; a matrix product's contraction index; a reduction's elements in row-major order
    of its axes taken in the order ``axes`` lists them; a pooling window's rows, then columns;
    a softmax's exponentials along its axis. ``nn.reduce_prod`` multiplies in that order from
    1.0; ``nn.reduce_max`` and ``nn.reduce_min`` do not depend on it."""

    sum_order = opt_prop_def(StringAttr)

    def sums_sequentially(self) -> bool:
        """Whether the op's sums follow TFLite Micro's order (``sum_order = "sequential"``)."""
        return self.sum_order is not None and self.sum_order.data == SEQUENTIAL

    def verify_(self) -> None:
        if self.sum_order is not None and self.sum_order.data not in SUM_ORDERS:
            raise VerifyException(f"sum_order must be one of {', '.join(repr(o) for o in SUM_ORDERS)}, got {self.sum_order.data!r}")
        super().verify_()


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
