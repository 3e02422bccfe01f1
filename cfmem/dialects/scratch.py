"""The scratch buffers a compute op's kernel needs while it runs, from its types and attributes.

``nn-lower-to-linalg`` lowers some ops through buffers of their own besides their inputs and
output (softmax's maxima and sums, an int8 convolution's i32 sums, ...); padded
convolutions and poolings need none (they load each tap, the pad value outside the input). They are
live only while the op runs. The planner gives each op that needs any one tensor of
``scratch_bytes(op)`` bytes, live at the op's step only; the lowering lays the buffers of
``scratch_buffers(op)`` out in it, in order, each at a multiple of ``SCRATCH_ALIGN``, and
checks that it asks for exactly these.

Per op (its element types as they are, f16 ones read as f32, see below):

- ``nn.qconv2d`` and ``nn.qgemm``: an i32 accumulator of one output row (``acc``: the
  lowering computes and requantizes the output a row at a time);
- ``nn.arg_max``/``nn.arg_min``: the best value so far, the input's shape with the axis 1 (``best``);
- ``nn.softmax``: the maxima and the sums along the axis (``peak``, ``total``);
- ``nn.qsoftmax``: the same, the maxima i8 and the fixed-point sums i32;
- ``nn.top_k``: each input element's rank, i64 (``ranks``).

An op reading or writing f16 first widens each f16 input into an f32 copy (``wide``, in
operand order) and computes into an f32 copy of an f16 output (``wide_out``); its own
buffers follow, computed on the widened types. Ops that only move elements
(``MOVES_ELEMENTS``: concat, transpose, slice, gathers, reshape) take f16 as it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.dialects.builtin import MemRefType, TensorType, f16, f32, i8, i32, i64
from xdsl.ir import Attribute, Operation

from cfmem.dialects import nn_compute as nc
from cfmem.dialects import nn_quant as nq
from cfmem.dialects.nn_weights import ReshapeOp
from cfmem.dialects.types import element_bytes

SCRATCH_ALIGN = 16
"""Byte alignment of each scratch buffer within its op's scratch bytes (the tensor holding
them is placed at the plan's alignment)."""

Shape = tuple[int, ...]


@dataclass(frozen=True)
class Scratch:
    """One scratch buffer: ``shape`` x ``element`` at byte ``offset`` of its op's scratch."""

    name: str
    shape: Shape
    element: Attribute
    offset: int

    @property
    def nbytes(self) -> int:
        return prod(self.shape) * element_bytes(self.element)


def _shape(ty: Attribute) -> Shape:
    assert isinstance(ty, TensorType | MemRefType)
    return tuple(ty.get_shape())


def _element(ty: Attribute) -> Attribute:
    assert isinstance(ty, TensorType | MemRefType)
    element = ty.get_element_type()
    return f32 if element == f16 else element


def _reduced(op: nc.ArgExtremeOp | nc.SoftmaxOp | nq.QSoftmaxOp) -> Shape:
    """The input's shape with the op's axis 1."""
    shape = _shape(op.operands[0].type)
    axis = op.axis.value.data % len(shape)
    return tuple(1 if i == axis else s for i, s in enumerate(shape))


def _own(op: Operation) -> list[tuple[str, Shape, Attribute]]:
    """The buffers of ``op``'s own lowering, in the order it asks for them."""
    if isinstance(op, nq.QConv2dOp):  # one output row's sums (N, C, 1, W)
        n, c, _, w = _shape(op.results[0].type)
        return [("acc", (n, c, 1, w), i32)]
    if isinstance(op, nq.QGemmOp):  # one output row's sums (1, N)
        return [("acc", (1, _shape(op.results[0].type)[1]), i32)]
    if isinstance(op, nc.ArgExtremeOp):
        return [("best", _reduced(op), f32)]
    if isinstance(op, nc.SoftmaxOp):
        return [("peak", _reduced(op), f32), ("total", _reduced(op), f32)]
    if isinstance(op, nq.QSoftmaxOp):  # the int8 maxima, the Q12.19 sums
        return [("peak", _reduced(op), i8), ("total", _reduced(op), i32)]
    if isinstance(op, nc.TopKOp):
        return [("ranks", _shape(op.operands[0].type), i64)]
    return []


MOVES_ELEMENTS = (nc.ConcatOp, nc.TransposeOp, nc.SliceOp, nc.GatherOp, nc.GatherElementsOp, ReshapeOp)
"""Ops that only move elements: lowered on any element type, f16 as it is (no widening)."""


def widens_f16(op: Operation) -> bool:
    """Whether ``op``'s lowering runs on f32 copies of its f16 operands and result."""
    return not isinstance(op, MOVES_ELEMENTS)


def scratch_buffers(op: Operation) -> tuple[Scratch, ...]:
    """The scratch buffers of ``op``'s kernel, in the order its lowering lays them out."""
    wanted: list[tuple[str, Shape, Attribute]] = []
    if widens_f16(op):
        wanted += [("wide", _shape(v.type), f32) for v in op.operands if _is_f16(v.type)]
        if op.results and _is_f16(op.results[0].type):
            wanted.append(("wide_out", _shape(op.results[0].type), f32))
    wanted += _own(op)
    buffers, offset = [], 0
    for name, shape, element in wanted:
        buffer = Scratch(name, shape, element, offset)
        buffers.append(buffer)
        offset += -(-buffer.nbytes // SCRATCH_ALIGN) * SCRATCH_ALIGN
    return tuple(buffers)


def _is_f16(ty: Attribute) -> bool:
    return isinstance(ty, TensorType | MemRefType) and ty.get_element_type() == f16


def scratch_bytes(op: Operation) -> int:
    """The bytes of scratch ``op`` needs while it runs (0: none); each buffer rounded up to
    ``SCRATCH_ALIGN``."""
    buffers = scratch_buffers(op)
    if not buffers:
        return 0
    last = buffers[-1]
    return last.offset + -(-last.nbytes // SCRATCH_ALIGN) * SCRATCH_ALIGN
