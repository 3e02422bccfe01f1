"""The IR building blocks every lowering of ``nn-lower-to-linalg`` shares.

Affine maps (identity, numpy broadcasting), constants, ``linalg.generic`` from a Python body,
element-by-element generics, fills and copies, ``memref.subview`` regions, an ``scf.for`` over a
count (with or without a carried value), integer widening to i32, and the integer-type and NaN-aware comparison rules several op
families use. Each builder emits at the current implicit builder (:class:`xdsl.builder.ImplicitBuilder`).

Assumes static shapes: every memref has a known shape (``shape_of``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.builder import ImplicitBuilder
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import (
    AffineMapAttr,
    DenseArrayBase,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    Signedness,
    f32,
    i1,
    i32,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import CopyOp, FillOp, GenericOp, YieldOp
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from cfmem.dialects import nn_compute as nc

Shape = tuple[int, ...]
Body = Callable[..., "SSAValue | tuple[SSAValue, ...]"]
"""Builds a generic's body from its block arguments (ins, then outs); returns the value to yield,
or one per output."""


EXTREMES = {nc.MaxOp: "ogt", nc.MinOp: "olt", nc.ReduceMaxOp: "ogt", nc.ReduceMinOp: "olt"}
"""The ``arith.cmpf`` predicate of an element that beats another in a max or a min."""


def shape_of(value: SSAValue) -> Shape:
    assert isinstance(value.type, MemRefType)
    return tuple(value.type.get_shape())


def dims(count: int) -> list[AffineExpr]:
    return [AffineExpr.dimension(i) for i in range(count)]


def affine_map(num_dims: int, results: Sequence[AffineExpr]) -> AffineMapAttr:
    return AffineMapAttr(AffineMap(num_dims, 0, tuple(results)))


def identity(rank: int) -> AffineMapAttr:
    return affine_map(rank, dims(rank))


def broadcast_map(shape: Shape, out_shape: Shape) -> AffineMapAttr:
    """numpy broadcasting of ``shape`` to ``out_shape``, over the result's loops."""
    return affine_map(len(out_shape), broadcast_exprs(shape, out_shape))


def broadcast_exprs(shape: Shape, out_shape: Shape) -> list[AffineExpr]:
    """Index exprs into ``shape`` over loops 0.. of ``out_shape`` (right-aligned)."""
    lead = len(out_shape) - len(shape)
    return [
        AffineExpr.dimension(lead + i) if size == out_shape[lead + i] else AffineExpr.constant(0)
        for i, size in enumerate(shape)
    ]


def f32_const(value: float) -> SSAValue:
    return arith.ConstantOp(FloatAttr(value, f32)).result


def index_const(value: int) -> SSAValue:
    return arith.ConstantOp(IntegerAttr(value, IndexType())).result


def i1_const(value: bool) -> SSAValue:
    return arith.ConstantOp(IntegerAttr(int(value), i1)).result


def int_const(value: int, element: Attribute) -> SSAValue:
    return arith.ConstantOp(IntegerAttr(value, element)).result


def generic(
    ins: Sequence[SSAValue],
    outs: Sequence[SSAValue],
    maps: Sequence[AffineMapAttr],
    body: Body,
    reduced: Sequence[int] = (),
) -> GenericOp:
    """A ``linalg.generic`` over the loops of ``maps``; the loops in ``reduced`` are reductions.
    ``body`` returns the value to yield, or a tuple of them for several outputs."""
    num_loops = maps[0].data.num_dims
    iterators = [
        IteratorTypeAttr.reduction() if i in reduced else IteratorTypeAttr.parallel() for i in range(num_loops)
    ]
    operands = [*ins, *outs]
    block = Block(arg_types=[v.type.get_element_type() for v in operands])
    with ImplicitBuilder(block):
        yielded = body(*block.args)
        YieldOp(*(yielded if isinstance(yielded, tuple) else (yielded,)))
    return GenericOp(ins, outs, Region(block), maps, iterators)


def elementwise(ins: Sequence[SSAValue], out: SSAValue, body: Body) -> GenericOp:
    """``out = body(ins...)`` element by element, the ins broadcast to ``out``."""
    out_shape = shape_of(out)
    maps = [broadcast_map(shape_of(v), out_shape) for v in ins]
    return generic(ins, [out], [*maps, identity(len(out_shape))], body)


def update(out: SSAValue, body: Body) -> GenericOp:
    """``out = body(out)`` in place."""
    return generic([], [out], [identity(len(shape_of(out)))], body)


def copy(src: SSAValue, dst: SSAValue, src_map: AffineMapAttr, dst_map: AffineMapAttr) -> GenericOp:
    """``dst[dst_map(i)] = src[src_map(i)]`` over the loops of the maps."""
    return generic([src], [dst], [src_map, dst_map], lambda x, _: x)


def subview(x: SSAValue, offsets: Sequence[SSAValue | int], sizes: Sequence[int]) -> SSAValue:
    """The unit-stride region of memref ``x`` of ``sizes`` at ``offsets`` (numbers, or
    indices computed at run time)."""
    assert isinstance(x.type, MemRefType)
    ones = [1] * len(sizes)
    region_type = memref.SubviewOp.infer_result_type(x.type, list(offsets), list(sizes), ones)
    return memref.SubviewOp.get(x, list(offsets), list(sizes), ones, region_type).result


def copy_into(src: SSAValue, dst: SSAValue, offsets: Sequence[int]) -> None:
    """``src`` into the region of ``dst`` starting at ``offsets`` (a subview and ``linalg.copy``)."""
    CopyOp([src], [subview(dst, offsets, shape_of(src))], res=())


def rows_of(x: SSAValue, row: SSAValue, axis: int) -> SSAValue:
    """The subview of ``x`` that is index ``row`` (a run-time index) of ``axis``, the axis kept
    with size 1."""
    shape = shape_of(x)
    return subview(x, [row if i == axis else 0 for i in range(len(shape))], [1 if i == axis else s for i, s in enumerate(shape)])


def for_each(count: int, body: Callable[[SSAValue], None]) -> None:
    """An ``scf.for`` over ``0 .. count``, ``body`` emitting one iteration's ops given its index."""
    block = Block(arg_types=[IndexType()])
    with ImplicitBuilder(block):
        body(block.args[0])
        scf.YieldOp()
    scf.ForOp(index_const(0), index_const(count), index_const(1), [], block)


def accumulate(count: int, initial: SSAValue, step: Callable[[SSAValue, SSAValue], SSAValue]) -> SSAValue:
    """An ``scf.for`` over ``0 .. count`` carrying one value from ``initial``: ``step`` emits one
    iteration's ops given its index and the value so far, and returns the next value; the
    value after the last iteration."""
    block = Block(arg_types=[IndexType(), initial.type])
    with ImplicitBuilder(block):
        scf.YieldOp(step(*block.args))
    return scf.ForOp(index_const(0), index_const(count), index_const(1), [initial], block).results[0]


def fill(value: float | SSAValue, out: SSAValue) -> FillOp:
    """``out`` filled with ``value`` (a number of its element type, f32 or an integer, or a
    value of that type computed at run time)."""
    element = out.type.get_element_type()
    if isinstance(value, SSAValue):
        constant = value
    else:
        constant = f32_const(value) if element == f32 else arith.ConstantOp(IntegerAttr(int(value), element)).result
    return FillOp([constant], [out], res=())


def is_unsigned(element: Attribute) -> bool:
    return isinstance(element, IntegerType) and element.signedness.data == Signedness.UNSIGNED


def to_float(value: SSAValue) -> SSAValue:
    """An integer value as f32 (unsigned ones, ui8 data, as unsigned)."""
    return (arith.UIToFPOp if is_unsigned(value.type) else arith.SIToFPOp)(value, f32).result


def widened(value: SSAValue) -> SSAValue:
    """An integer value extended to i32 (zero-extended if unsigned, as ui8 data); i32 as it is."""
    if value.type == i32:
        return value
    return (arith.ExtUIOp if is_unsigned(value.type) else arith.ExtSIOp)(value, i32).result


def integer_range(element: IntegerType) -> tuple[int, int]:
    bits = element.width.data
    return (0, 2**bits - 1) if is_unsigned(element) else (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)


def beats(a: SSAValue, b: SSAValue, predicate: str) -> SSAValue:
    """i1: ``a`` is NaN or ``cmpf predicate (a, b)`` holds."""
    return arith.OrIOp(arith.CmpfOp(a, a, "uno"), arith.CmpfOp(a, b, predicate)).result


def ints(attr: DenseArrayBase) -> tuple[int, ...]:
    return tuple(int(v) for v in attr.get_values())
