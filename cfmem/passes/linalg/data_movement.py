"""The ops of ``nn-lower-to-linalg`` that move elements without computing on them.

- ``concat``: per input, a ``linalg.copy`` into the ``memref.subview`` of the
  output at its offset along the axis; ``transpose``: ``linalg.transpose``;
  ``reshape``: a copy generic reading the input at each output element's
  row-major position (``floordiv``/``mod`` of the linear index).
- ``slice``: a generic over the output that loads input index
  ``start + i * step`` on each axis with ``memref.load`` (a negative step
  reads backwards); as a generic operand the input's map would not be a
  permutation, which the linalg verifiers reject when the slice does not
  cover the input.
- ``pad``: constant mode fills the output with the value and copies the
  input into its interior; edge and reflect modes are one generic over the
  output that computes each element's source index from ``linalg.index``
  (clamped for edge; ``(n-1) - |(n-1) - |i||`` for reflect, valid as each pad
  is smaller than its dimension) and loads it with ``memref.load``.
- ``gather``, ``gather_elements``: one generic over the output reading the
  indices (Gather's over the output axes they fill, GatherElements' at the same
  position), each index cast to ``index``, a negative one counted from the end,
  clamped into the axis, and the data loaded there with ``memref.load``.

Concat, transpose, reshape, slice and the gathers take any element type, f16 as it is
(``cfmem.dialects.scratch.MOVES_ELEMENTS``); ``pad`` runs on f32, f16 widened.
"""

from __future__ import annotations

from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import AffineMapAttr, IndexType
from xdsl.dialects.linalg.ops import IndexOp, TransposeOp
from xdsl.ir import SSAValue
from xdsl.ir.affine import AffineExpr

from cfmem.dialects import nn_compute as nc
from cfmem.dialects.nn_weights import ReshapeOp
from cfmem.dialects.shapes import row_major_strides
from cfmem.passes.linalg.helpers import (
    Shape,
    affine_map,
    copy,
    copy_into,
    dims,
    fill,
    generic,
    identity,
    index_const,
    shape_of,
    update,
)
from cfmem.passes.linalg.op_lowering import OpLowering


def row_major_map(in_shape: Shape, out_shape: Shape) -> AffineMapAttr:
    """Over the loops of ``out_shape``: the input element at the same row-major position."""
    linear = AffineExpr.constant(0)
    for d, stride in zip(dims(len(out_shape)), row_major_strides(out_shape)):
        linear = linear + d * stride
    exprs = []
    for axis, (size, stride) in enumerate(zip(in_shape, row_major_strides(in_shape))):
        expr = linear // stride if stride != 1 else linear
        exprs.append(expr % size if axis else expr)
    return affine_map(len(out_shape), exprs)


def data_index(index: SSAValue, size: int) -> SSAValue:
    """An integer gather index as a position along an axis of ``size``: a negative one
    counts from the end, and the result is clamped into ``[0, size)`` so that an index
    out of range (an error in the interpreters) never reads outside the data."""
    i = arith.IndexCastOp(index, IndexType()).result
    zero, n = index_const(0), index_const(size)
    i = arith.SelectOp(arith.CmpiOp(i, zero, "slt"), arith.AddiOp(i, n), i).result
    return arith.MinSIOp(arith.MaxSIOp(i, zero), index_const(size - 1)).result


def concat(lowering: OpLowering, op: nc.ConcatOp, ins: list[SSAValue], out: SSAValue) -> None:
    rank = len(shape_of(out))
    axis = op.axis.value.data % rank
    start = 0
    for x in ins:
        copy_into(x, out, [start if i == axis else 0 for i in range(rank)])
        start += shape_of(x)[axis]


def transpose(lowering: OpLowering, op: nc.TransposeOp, ins: list[SSAValue], out: SSAValue) -> None:
    TransposeOp(ins[0], out, op.perm)


def reshape(lowering: OpLowering, op: ReshapeOp, ins: list[SSAValue], out: SSAValue) -> None:
    (x,) = ins
    out_shape = shape_of(out)
    copy(x, out, row_major_map(shape_of(x), out_shape), identity(len(out_shape)))


def slice(lowering: OpLowering, op: nc.SliceOp, ins: list[SSAValue], out: SSAValue) -> None:
    (x,) = ins
    bounds = op.bounds()

    def body(_: SSAValue) -> SSAValue:
        indices = []
        for axis, (start, step, _) in enumerate(bounds):
            i = IndexOp(axis).result
            if step != 1:
                i = arith.MuliOp(i, index_const(step)).result
            if start:
                i = arith.AddiOp(i, index_const(start)).result
            indices.append(i)
        return memref.LoadOp.get(x, indices).res

    update(out, body)  # the input is loaded, not a generic operand: its map is not a permutation


def pad(lowering: OpLowering, op: nc.PadOp, ins: list[SSAValue], out: SSAValue) -> None:
    (x,) = ins
    before, after = op.before_after()
    mode = op.mode.data
    if mode == "constant":
        fill(op.value.value.data, out)
        copy_into(x, out, before)
        return

    def source(axis: int, size: int) -> SSAValue:
        """The index into ``x`` of output index ``linalg.index axis``."""
        i = IndexOp(axis).result
        if not before[axis] and not after[axis]:
            return i
        if before[axis]:
            i = arith.SubiOp(i, index_const(before[axis])).result
        zero, last = index_const(0), index_const(size - 1)
        if mode == "edge":
            return arith.MinSIOp(arith.MaxSIOp(i, zero), last).result
        mirrored = arith.MaxSIOp(i, arith.SubiOp(zero, i)).result  # |i|
        back = arith.SubiOp(last, mirrored).result  # (n-1) - |i|
        return arith.SubiOp(last, arith.MaxSIOp(back, arith.SubiOp(zero, back))).result

    def body(_: SSAValue) -> SSAValue:
        indices = [source(axis, size) for axis, size in enumerate(shape_of(x))]
        return memref.LoadOp.get(x, indices).res

    update(out, body)


def gather(lowering: OpLowering, op: nc.GatherOp, ins: list[SSAValue], out: SSAValue) -> None:
    data, indices = ins
    axis, count = op.normalized_axis(), len(shape_of(indices))
    rank = len(shape_of(out))
    index_map = affine_map(rank, dims(rank)[axis : axis + count])

    def body(index: SSAValue, _: SSAValue) -> SSAValue:
        position = [IndexOp(d).result for d in range(axis)]
        position.append(data_index(index, shape_of(data)[axis]))
        position += [IndexOp(d).result for d in range(axis + count, rank)]
        return memref.LoadOp.get(data, position).res

    generic([indices], [out], [index_map, identity(rank)], body)


def gather_elements(lowering: OpLowering, op: nc.GatherElementsOp, ins: list[SSAValue], out: SSAValue) -> None:
    data, indices = ins
    axis, rank = op.normalized_axis(), len(shape_of(out))

    def body(index: SSAValue, _: SSAValue) -> SSAValue:
        position = [IndexOp(d).result for d in range(rank)]
        position[axis] = data_index(index, shape_of(data)[axis])
        return memref.LoadOp.get(data, position).res

    generic([indices], [out], [identity(rank), identity(rank)], body)
