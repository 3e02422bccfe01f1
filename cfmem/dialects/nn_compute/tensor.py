"""Data movement compute ops, which compute no arithmetic: ``nn.concat``, ``nn.transpose``,
``nn.slice``, ``nn.pad``, the indexed reads ``nn.gather`` and ``nn.gather_elements`` (positions
from a run-time integer tensor) and ``nn.top_k`` (the positions of the k best elements)."""

from __future__ import annotations

from abc import ABC
from math import prod
from typing import ClassVar

from xdsl.dialects.builtin import (
    I64,
    BoolAttr,
    DenseArrayBase,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    Signedness,
    StringAttr,
    TensorType,
    f32,
    i64,
)
from xdsl.ir import Attribute
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.utils.exceptions import VerifyException

from cfmem.dialects import shapes
from cfmem.dialects.nn_compute.base import FLOAT_TENSOR, FLOAT_TYPES, ComputeOp, _ints
from cfmem.dialects.types import tensor_bytes


@irdl_op_definition
class ConcatOp(ComputeOp):
    """Concatenation of its operands (float, or integers of one element type) along ``axis``."""

    name = "nn.concat"
    inputs = var_operand_def(TensorType)
    result = result_def(TensorType)
    axis = prop_def(IntegerAttr[I64])

    def result_element_type(self) -> Attribute:
        elements = list(dict.fromkeys(v.type.get_element_type() for v in self.operands))
        if elements and elements[0] not in FLOAT_TYPES:
            if len(elements) > 1:
                raise ValueError(f"operands must have one element type, got {elements[0]} and {elements[1]}")
            return elements[0]
        return self.float_element_type()

    def infer_shape(self) -> shapes.Shape:
        self.result_element_type()
        if len({v.type.get_element_type() in FLOAT_TYPES for v in self.operands}) > 1:
            raise ValueError("operands must all be float or all of one integer type")
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

