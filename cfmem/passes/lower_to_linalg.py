"""``nn-lower-to-linalg``: every ``nn.apply`` as upstream ops on its memrefs.

Runs after ``nn-lower-to-memref``. Each ``nn.apply`` becomes ops that read its
input buffers and write its output buffer with the numbers of the numpy
kernels in :mod:`cfmem.interp.kernels`, so the module holds no ``nn`` op and
is plain upstream MLIR (linalg, memref, arith, math, scf, func). Per op:

- ``add``, ``sub``, ``mul``, ``div``, ``pow`` (``math.powf``), ``max``/``min``
  (a select: ``a`` where it is NaN or beyond ``b``, else ``b``, so NaN wins and of
  0.0 and -0.0 the second operand, as onnxruntime): one
  ``linalg.generic`` (``add``, ``sub``, ``mul`` of integers: ``arith.addi``, ``subi``, ``muli``); numpy broadcasting lives in the input maps (operands
  aligned to the last dimension, a size-1 dimension of a larger result read
  at index 0).
- ``cmp``: the same with ``arith.cmpf`` (eq, ne, lt, le, gt, ge as oeq, une,
  olt, ole, ogt, oge, so NaN compares as in numpy) writing i1; on integers
  ``arith.cmpi`` (eq, ne, slt, sle, sgt, sge).
- ``relu`` ``maximumf(x, 0)``, ``sigmoid`` ``1 / (1 + exp(-x))``, ``tanh``
  ``math.tanh``, ``sqrt`` ``math.sqrt``, ``exp`` ``math.exp``, ``neg``
  ``arith.negf``, ``log``/``abs``/``floor``/``ceil``/``erf``/``sin``/``cos`` their
  ``math`` ops, ``round`` ``math.roundeven``, ``reciprocal`` ``1 / x``, ``sign``
  two selects (NaN kept), ``clamp`` ``minimumf(maximumf(x, min), max)``: one generic.
- ``and``/``or``/``xor`` ``arith.andi``/``ori``/``xori`` on i1, ``not`` ``xori`` with
  true, ``select`` ``arith.select``: one generic, broadcasting as above.
- ``fmod``: in f64, ``a - trunc(a / b) * b`` (the product taken as 0 where the
  quotient truncates to 0, so a finite ``a`` over an infinite ``b`` is ``a``),
  rounded to f32 and given ``a``'s sign; exact while ``|a / b| < 2**28`` (the f64
  quotient then truncates to the true integer, and the product and difference
  are exact). ``mod`` of integers: ``arith.remsi``, plus ``b`` where the
  remainder is not 0 and its sign differs from ``b``'s. One generic each.
- ``cumsum``: the output filled with 0, then one generic over the output's loops
  and a reduction loop ``k`` along the axis that adds input element ``k`` where
  ``k`` is at or before the output index (before: exclusive; at or after, after:
  reverse), by a select.
- ``cast``: one generic of ``arith`` conversions (``fptosi``, ``sitofp``, ``extsi``,
  ``trunci``, ``extui``/``uitofp`` from i1, ``cmpf une``/``cmpi ne`` 0 to i1).
- ``conv2d``: the output filled with the bias (broadcast over N, H, W) or 0,
  then one generic over (n, o, y, x, c, ky, kx) accumulating input channel
  ``(o floordiv og) * cg + c`` (og, cg: output and input channels per group) at
  row ``y * sh + ky * dh``, column ``x * sw + kx * dw``; with pads the input is no
  generic operand: each tap is loaded (``memref.load``) at that position less the top
  and left pads, clamped into the input, and replaced by the pad value where it falls
  outside (a select), so no padded copy is made.
- ``matmul``: ``linalg.fill`` 0 then ``linalg.matmul`` for 2-D operands, a
  generic with broadcast batch dimensions otherwise; ``gemm``: the output
  filled with ``c`` (broadcast), then the same contraction, ``b`` read
  transposed for ``trans_b``.
- ``max_pool2d``: NaN fill, then a generic folding each window's taps (tap ``ky`` at row
  ``y * sh + ky * dh``, columns alike; row by row) into it, a tap replacing the best so
  far unless it is NaN or the best is larger (NaN taps skipped, the later of 0.0 and
  -0.0; i8/ui8 data: ``maxsi``/``maxui``); ``avg_pool2d``: the sum over each window,
  divided by the number of unpadded elements in the window, read from a constant
  ``memref.global @avg_pool_count_K`` this pass adds. The window's loops take their range
  from a window operand whose values are not read: a ``1 x 1 x kh x kw`` subview of the
  input, or with pads (taps loaded as for ``conv2d``, padded with NaN, the integer minimum
  or 0) a constant ``@pool_window_K`` of zeros.
- ``global_avg_pool``, ``reduce_mean``: the sum into the zero-filled output,
  then a division by the number of summed elements; ``reduce_sum`` and
  ``reduce_prod``: the output filled with -0.0 or 1, then ``addf`` or ``mulf`` into
  it (``reduce_mean`` starts from -0.0 too, ``global_avg_pool`` from 0.0: a sum of -0.0
  alone is -0.0 in onnxruntime's ReduceSum and ReduceMean, not in its GlobalAveragePool);
  ``reduce_max``, ``reduce_min``: the output set to the first element of each reduced
  run, then each element replacing it where strictly larger (smaller): NaN only from
  the first element, the first of equal ones.
- ``arg_max``/``arg_min``: one generic over the input with two outputs, the
  best value so far (a scratch buffer filled with -inf or inf) and the output
  index (filled with 0); an element strictly beyond the best (or, with
  ``select_last_index``, not behind it) replaces both, its index from
  ``linalg.index`` of the axis.
- ``softmax``: max along the axis, ``exp(x - max)`` into the output, its sum
  along the axis, then a division; max and sum in scratch buffers.
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
- ``top_k``: each element's rank along the axis (the elements larger, or equal
  at a lower position; smaller for ``largest = false``) counted by a generic
  into an i64 scratch buffer, then a generic over (output, position) selecting
  into output slot ``j`` the position whose rank is ``j``.

Scratch buffers (softmax max and sum, arg_max's best values, top_k ranks, the i32 sums
of one output row of an int8 convolution or gemm, f16 widened copies) are planned like tensors: each ``nn.apply`` whose op
needs any takes its scratch bytes as an operand (a view of the arena where the plan put
them, live at that op only), and each buffer is a ``memref.view`` of it at the offset
``cfmem.dialects.scratch.scratch_buffers`` gives; the lowering checks that it asks for
exactly those buffers.

Quantized data is i8 or ui8; the lowering picks the unsigned ops for ui8 (``extui``,
``uitofp``, ``fptoui``, ``maxui``) and then reads every ui8 as i8 (the same bytes), as
upstream arith takes signless integers only.

f16 data: an ``nn.apply`` that reads or writes f16 widens each f16 input into an f32
scratch copy (``arith.extf``, exact), runs the op's f32 lowering into an f32 scratch output
and rounds it into the f16 output (``arith.truncf``, to nearest even): the kernels'
float32 computation and one rounding. Ops that only move elements (concat, transpose,
slice, the gathers, reshape copies) run on f16 as it is.

Assumes static shapes, f32 data (f16 widened as above; ``slice`` and the gathers take any element
type, ``cmp`` also signless integers, ``mod`` only them, the logical ops and
``select``'s condition i1) and an output buffer that overlaps none of
the inputs (the memory plan guarantees it; several lowerings write the output
before they have read every input).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import prod

import numpy as np
from xdsl.builder import ImplicitBuilder
from xdsl.context import Context
from xdsl.dialects import arith, func, math, memref, scf
from xdsl.dialects.builtin import (
    AffineMapAttr,
    BytesAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    Signedness,
    StringAttr,
    TensorType,
    UnitAttr,
    f16,
    f32,
    f64,
    i1,
    i8,
    i32,
    i64,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import CopyOp, FillOp, GenericOp, IndexOp, MatmulOp, TransposeOp, YieldOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import SymbolTable

from cfmem.dialects import nn_compute as nc
from cfmem.dialects import nn_quant as nq
from cfmem.dialects.nn_memref import ApplyOp
from cfmem.dialects.nn_quant import ui8 as UI8
from cfmem.dialects.nn_weights import ReshapeOp
from cfmem.dialects.scratch import Scratch, scratch_buffers, widens_f16
from cfmem.dialects.shapes import row_major_strides, window_counts
from cfmem.interp import kernels
from cfmem.interp.kernels import quant_params
from cfmem.passes.failures import OpFailure

Shape = tuple[int, ...]
Body = Callable[..., "SSAValue | tuple[SSAValue, ...]"]
"""Builds a generic's body from its block arguments (ins, then outs); returns the value to yield,
or one per output."""

FLOAT_BINARY = {
    nc.AddOp: arith.AddfOp,
    nc.SubOp: arith.SubfOp,
    nc.MulOp: arith.MulfOp,
    nc.DivOp: arith.DivfOp,
    nc.PowOp: math.PowFOp,
}
FLOAT_UNARY = {
    nc.SqrtOp: math.SqrtOp,
    nc.ExpOp: math.ExpOp,
    nc.NegOp: arith.NegfOp,
    nc.LogOp: math.LogOp,
    nc.AbsOp: math.AbsFOp,
    nc.FloorOp: math.FloorOp,
    nc.CeilOp: math.CeilOp,
    nc.RoundOp: math.RoundEvenOp,
    nc.ErfOp: math.ErfOp,
    nc.SinOp: math.SinOp,
    nc.CosOp: math.CosOp,
}
LOGICAL_BINARY = {nc.AndOp: arith.AndIOp, nc.OrOp: arith.OrIOp, nc.XorOp: arith.XOrIOp}
INTEGER_BINARY = {nc.AddOp: arith.AddiOp, nc.SubOp: arith.SubiOp, nc.MulOp: arith.MuliOp}
"""``nn.add``, ``nn.sub`` and ``nn.mul`` on integers: wrapping, as numpy."""
CUMSUM_PREDICATES = {(False, False): "sle", (True, False): "slt", (False, True): "sge", (True, True): "sgt"}
"""(exclusive, reverse) -> how an input index along the axis compares with each output
index whose sum counts it."""

REDUCTIONS: dict[type[Operation], tuple[float, type[Operation]]] = {
    nc.GlobalAvgPoolOp: (0.0, arith.AddfOp),
    nc.ReduceMeanOp: (-0.0, arith.AddfOp),
    nc.ReduceSumOp: (-0.0, arith.AddfOp),
    nc.ReduceProdOp: (1.0, arith.MulfOp),
}
"""Each sum's and product's starting value and the op combining an element into it."""
EXTREMES = {nc.MaxOp: "ogt", nc.MinOp: "olt", nc.ReduceMaxOp: "ogt", nc.ReduceMinOp: "olt"}
"""The ``arith.cmpf`` predicate of an element that beats another in a max or a min."""
CMP_PREDICATES = {"eq": "oeq", "ne": "une", "lt": "olt", "le": "ole", "gt": "ogt", "ge": "oge"}
CMPI_PREDICATES = {"eq": "eq", "ne": "ne", "lt": "slt", "le": "sle", "gt": "sgt", "ge": "sge"}


# --- building blocks -------------------------------------------------------------


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


def f32_const(value: float) -> SSAValue:
    return arith.ConstantOp(FloatAttr(value, f32)).result


def index_const(value: int) -> SSAValue:
    return arith.ConstantOp(IntegerAttr(value, IndexType())).result


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


def fill(value: float | SSAValue, out: SSAValue) -> FillOp:
    """``out`` filled with ``value`` (a number of its element type, f32 or an integer, or a
    value of that type computed at run time)."""
    element = out.type.get_element_type()
    if isinstance(value, SSAValue):
        constant = value
    else:
        constant = f32_const(value) if element == f32 else arith.ConstantOp(IntegerAttr(int(value), element)).result
    return FillOp([constant], [out], res=())


def reduce_into(
    x: SSAValue, out: SSAValue, axes: Sequence[int], keepdims: bool, combine: Callable[[SSAValue, SSAValue], Operation]
) -> GenericOp:
    """``out = combine(out, x)`` over ``axes`` of ``x``; ``out`` keeps them as size 1 or drops them."""
    rank = len(shape_of(x))
    return generic([x], [out], [identity(rank), affine_map(rank, reduced_results(rank, axes, keepdims))],
                   lambda v, acc: combine(acc, v).result, reduced=axes)


def reduced_results(rank: int, axes: Sequence[int], keepdims: bool) -> list[AffineExpr]:
    """The output index of each input element of a reduction over ``axes``."""
    if keepdims:
        return [AffineExpr.constant(0) if i in axes else d for i, d in enumerate(dims(rank))]
    return [d for i, d in enumerate(dims(rank)) if i not in axes]


def first_of_runs(x: SSAValue, out: SSAValue, axes: Sequence[int], keepdims: bool) -> GenericOp:
    """``out`` set to the first element (index 0 on ``axes``) of each run a reduction of ``x``
    over ``axes`` combines into it."""
    rank, out_rank = len(shape_of(x)), len(shape_of(out))
    kept = iter(dims(out_rank))
    source = [AffineExpr.constant(0) if i in axes else (d if keepdims else next(kept)) for i, d in enumerate(dims(rank))]
    return copy(x, out, affine_map(out_rank, source), identity(out_rank))


def reduction_of(op: nc.ReduceOp | nc.GlobalAvgPoolOp, rank: int) -> tuple[tuple[int, ...], bool]:
    """The axes ``op`` reduces, counted from the front and in order, and whether it keeps them."""
    if isinstance(op, nc.GlobalAvgPoolOp):
        return (2, 3), True
    return tuple(sorted(a % rank for a in ints(op.axes))), bool(op.keepdims.value.data)


def multiply_accumulate(lhs: SSAValue, rhs: SSAValue, acc: SSAValue) -> SSAValue:
    return arith.AddfOp(acc, arith.MulfOp(lhs, rhs)).result


def contract(a: SSAValue, b: SSAValue, out: SSAValue, trans_b: bool, body: Body | None = None) -> None:
    """``out += a @ b`` (``b.T`` if ``trans_b``), numpy matmul batch dims broadcast; ``body``
    (a, b, acc) accumulates each product when it is not the float multiply-add."""
    out_shape = shape_of(out)
    if len(out_shape) == 2 and not trans_b and body is None:
        MatmulOp([a, b], [out])
        return
    batch = len(out_shape) - 2
    loops = dims(batch + 3)
    m, n, k = loops[batch:]
    b_rows = [n, k] if trans_b else [k, n]
    maps = [
        affine_map(batch + 3, [*broadcast_exprs(shape_of(a)[:-2], out_shape[:-2]), m, k]),
        affine_map(batch + 3, [*broadcast_exprs(shape_of(b)[:-2], out_shape[:-2]), *b_rows]),
        affine_map(batch + 3, loops[: batch + 2]),
    ]
    generic([a, b], [out], maps, body or multiply_accumulate, reduced=(batch + 2,))


def data_index(index: SSAValue, size: int) -> SSAValue:
    """An integer gather index as a position along an axis of ``size``: a negative one
    counts from the end, and the result is clamped into ``[0, size)`` so that an index
    out of range (an error in the interpreters) never reads outside the data."""
    i = arith.IndexCastOp(index, IndexType()).result
    zero, n = index_const(0), index_const(size)
    i = arith.SelectOp(arith.CmpiOp(i, zero, "slt"), arith.AddiOp(i, n), i).result
    return arith.MinSIOp(arith.MaxSIOp(i, zero), index_const(size - 1)).result


def i1_const(value: bool) -> SSAValue:
    return arith.ConstantOp(IntegerAttr(int(value), i1)).result


def int_const(value: int, element: Attribute) -> SSAValue:
    return arith.ConstantOp(IntegerAttr(value, element)).result


def ratio_of(op: Operation, *prefixes: str, alpha: float = 1.0) -> np.ndarray:
    """The float32 requantization ratio the kernels use, one value or one per channel."""
    return np.asarray(kernels.requant_ratio(op, *prefixes, alpha=alpha), np.float32).reshape(-1)


def uniform_zero_point(op: Operation, prefix: str) -> int:
    """A per-channel weight zero point that is the same for every channel, as one value."""
    zero_points = quant_params(op, prefix)[1]
    if np.any(zero_points != zero_points[0]):
        raise OpFailure(op, f"nn-lower-to-linalg: '{op.name}' with differing {prefix} zero points per channel is not supported")
    return int(zero_points[0])


def is_unsigned(element: Attribute) -> bool:
    return isinstance(element, IntegerType) and element.signedness.data == Signedness.UNSIGNED


def widened(value: SSAValue) -> SSAValue:
    """An integer value extended to i32 (zero-extended if unsigned, as ui8 data); i32 as it is."""
    element = value.type
    if element == i32:
        return value
    return (arith.ExtUIOp if is_unsigned(element) else arith.ExtSIOp)(value, i32).result


def to_float(value: SSAValue) -> SSAValue:
    """An integer value as f32 (unsigned ones, ui8 data, as unsigned)."""
    return (arith.UIToFPOp if is_unsigned(value.type) else arith.SIToFPOp)(value, f32).result


def load_scalar(buffer: SSAValue) -> SSAValue:
    """The one element of a one-element memref (a zero point computed at run time)."""
    return memref.LoadOp.get(buffer, [index_const(0)] * len(shape_of(buffer))).res


def centered_product(a: SSAValue, a_zero: int | SSAValue, b: SSAValue, b_zero: int | SSAValue, acc: SSAValue) -> SSAValue:
    """``acc + (a - a_zero) * (b - b_zero)`` in i32, ``a`` and ``b`` sign-extended; a zero point
    is a number or an i32 value."""
    wide = [arith.SubiOp(widened(v), z if isinstance(z, SSAValue) else int_const(z, i32)).result for v, z in ((a, a_zero), (b, b_zero))]
    return arith.AddiOp(acc, arith.MuliOp(*wide)).result


def integer_range(element: IntegerType) -> tuple[int, int]:
    bits = element.width.data
    return (0, 2**bits - 1) if is_unsigned(element) else (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)


def to_quantized(value: SSAValue, zero_point: float | SSAValue, out: SSAValue) -> SSAValue:
    """``saturate(round_half_even(value) + zero_point)`` into ``out``'s element type (i8 or
    ui8); NaN gives the type's minimum, as in the kernels and onnxruntime."""
    element = out.type.get_element_type()
    z = zero_point if isinstance(zero_point, SSAValue) else f32_const(zero_point)
    shifted = arith.AddfOp(math.RoundEvenOp(value), z).result
    low, high = (f32_const(float(v)) for v in integer_range(element))
    clamped = arith.MinimumfOp(arith.MaximumfOp(shifted, low), high).result
    saturated = arith.SelectOp(arith.CmpfOp(value, value, "uno"), low, clamped).result
    convert = arith.FPToUIOp if is_unsigned(element) else arith.FPToSIOp
    return convert(saturated, element).result


def converted_and_packed(value: SSAValue, out: SSAValue) -> SSAValue:
    """``value`` rounded half to even and saturated into ``out``'s element type, except that
    NaN and values outside int32 give the type's minimum: x86's ``cvtps2dq`` followed by
    saturating packs, as :func:`cfmem.interp.kernels.convert_and_pack` computes it."""
    element = out.type.get_element_type()
    rounded = math.RoundEvenOp(value).result
    inside = arith.AndIOp(arith.CmpfOp(rounded, f32_const(-(2.0**31)), "oge"), arith.CmpfOp(rounded, f32_const(2.0**31), "olt")).result
    low, high = (f32_const(float(v)) for v in integer_range(element))
    clamped = arith.MinimumfOp(arith.MaximumfOp(rounded, low), high).result
    convert = arith.FPToUIOp if is_unsigned(element) else arith.FPToSIOp
    return convert(arith.SelectOp(inside, clamped, low).result, element).result


def beats(a: SSAValue, b: SSAValue, predicate: str) -> SSAValue:
    """i1: ``a`` is NaN or ``cmpf predicate (a, b)`` holds."""
    return arith.OrIOp(arith.CmpfOp(a, a, "uno"), arith.CmpfOp(a, b, predicate)).result


def ints(attr: DenseArrayBase) -> tuple[int, ...]:
    return tuple(int(v) for v in attr.get_values())


def window_position(out_index: SSAValue, tap: SSAValue, stride: int, dilation: int) -> SSAValue:
    """``out_index * stride + tap * dilation``: a window tap's position in the padded input."""
    return arith.AddiOp(arith.MuliOp(out_index, index_const(stride)), arith.MuliOp(tap, index_const(dilation))).result


def padded_load(x: SSAValue, n: SSAValue, c: SSAValue, row: SSAValue, col: SSAValue, pads: Sequence[int],
                pad_value: float | SSAValue) -> SSAValue:
    """Element (n, c, row, col) of NCHW ``x`` padded by ``pads`` (top, left, bottom, right) with
    ``pad_value`` (a number of ``x``'s element type, or a value of it): ``x`` is loaded at the
    position clamped into it, and the pad value taken where the position is outside."""
    _, _, height, width = shape_of(x)
    element = x.type.get_element_type()
    zero = index_const(0)
    inside: SSAValue | None = None
    clamped = []
    for position, before, size in ((row, pads[0], height), (col, pads[1], width)):
        at = arith.SubiOp(position, index_const(before)).result if before else position
        both = arith.AndIOp(arith.CmpiOp(at, zero, "sge"), arith.CmpiOp(at, index_const(size), "slt")).result
        inside = both if inside is None else arith.AndIOp(inside, both).result
        clamped.append(arith.MinSIOp(arith.MaxSIOp(at, zero), index_const(size - 1)).result)
    value = memref.LoadOp.get(x, [n, c, *clamped]).res
    if isinstance(pad_value, SSAValue):
        pad = pad_value
    else:
        pad = f32_const(pad_value) if element == f32 else int_const(int(pad_value), element)
    return arith.SelectOp(inside, value, pad).result


def window_of(x: SSAValue, kh: int, kw: int) -> SSAValue:
    """A ``1 x 1 x kh x kw`` subview of NCHW ``x`` (which is at least that large): a pooling
    generic's window operand, whose shape gives the window's loops and whose values are not read."""
    window = subview(x, [0, 0, 0, 0], [1, 1, kh, kw])
    window.name_hint = "window"
    return window


# --- the lowerings ---------------------------------------------------------------


def global_element(array: np.ndarray) -> Attribute:
    return {np.dtype(np.int8): i8, np.dtype(np.uint8): UI8}.get(array.dtype, f32)


class ConstantGlobals:
    """Constant f32 (or i8) ``memref.global``s this pass adds to ``module``, one per distinct content."""

    def __init__(self, module: ModuleOp):
        self.module = module
        self.names: dict[tuple[str, Shape, bytes], str] = {}
        self.pending: list[tuple[str, np.ndarray]] = []

    def get(self, prefix: str, array: np.ndarray) -> SSAValue:
        """A ``memref.get_global`` of ``array`` as f32 (int8 arrays as i8); ``insert_pending``
        adds a new global."""
        array = array if array.dtype in (np.int8, np.uint8) else array.astype(np.float32)
        key = (prefix, array.shape, array.tobytes())
        if key not in self.names:
            taken = set(self.names.values())
            k = 0
            while f"{prefix}_{k}" in taken or SymbolTable.lookup_symbol(self.module, f"{prefix}_{k}"):
                k += 1
            self.names[key] = f"{prefix}_{k}"
            self.pending.append((self.names[key], array))
        return memref.GetGlobalOp(self.names[key], MemRefType(global_element(array), array.shape)).memref

    def insert_pending(self, rewriter: PatternRewriter) -> None:
        """Add the globals ``get`` asked for at the top of the module."""
        for name, array in self.pending:
            element = global_element(array)
            value = DenseIntOrFPElementsAttr(TensorType(element, array.shape), BytesAttr(array.tobytes()))
            glob = memref.GlobalOp.get(
                StringAttr(name), MemRefType(element, array.shape), value, StringAttr("private"), constant=UnitAttr()
            )
            rewriter.insert(glob, InsertPoint.at_start(self.module.body.block))
        self.pending.clear()


class OpLowering:
    """Emits the ops for one compute op at the current implicit builder.

    Scratch buffers are views of ``scratch_base``, the op's scratch bytes (the
    ``nn.apply``'s scratch operand), laid out as ``layout`` says
    (``cfmem.dialects.scratch.scratch_buffers`` of the op).
    """

    def __init__(self, globals_: ConstantGlobals, scratch_base: SSAValue | None = None, layout: Sequence[Scratch] = ()):
        self.globals = globals_
        self.scratch_base = scratch_base
        self.layout = list(layout)
        self.scratch_used = 0
        """How many buffers of ``layout`` the lowering has taken."""

    def scratch(self, name: str, shape: Shape, value: float | SSAValue | None = None, element: Attribute = f32) -> SSAValue:
        """The next scratch buffer, of ``shape`` (f32 unless ``element`` says otherwise), filled
        with ``value`` unless None; it must be the next one of ``layout``."""
        assert self.scratch_used < len(self.layout), f"scratch {name} beyond the op's scratch layout"
        planned = self.layout[self.scratch_used]
        assert (planned.name, planned.shape, planned.element) == (name, tuple(shape), element), (planned, name, shape, element)
        assert self.scratch_base is not None
        self.scratch_used += 1
        space = self.scratch_base.type.memory_space
        buffer = memref.ViewOp(self.scratch_base, index_const(planned.offset), [], MemRefType(element, shape, memory_space=space)).result
        buffer.name_hint = name
        if value is not None:
            fill(value, buffer)
        return buffer

    def lower(self, op: Operation, ins: list[SSAValue], out: SSAValue) -> None:
        method = self.METHODS.get(type(op))
        if method is None:
            raise OpFailure(op, f"nn-lower-to-linalg cannot lower '{op.name}'")
        if not widens_f16(op) or not any(v.type.get_element_type() == f16 for v in (*ins, out)):
            method(self, op, ins, out)
            return
        wide = [self.widened(v) if v.type.get_element_type() == f16 else v for v in ins]
        wide_out = self.scratch("wide_out", shape_of(out)) if out.type.get_element_type() == f16 else out
        method(self, op, wide, wide_out)
        if wide_out is not out:
            elementwise([wide_out], out, lambda x, _: arith.TruncFOp(x, f16).result)

    def widened(self, x: SSAValue) -> SSAValue:
        """An f32 scratch copy of f16 ``x`` (``arith.extf``, exact)."""
        wide = self.scratch("wide", shape_of(x))
        elementwise([x], wide, lambda v, _: arith.ExtFOp(v, f32).result)
        return wide

    def binary(self, op: nc.ElementwiseBinaryOp, ins: list[SSAValue], out: SSAValue) -> None:
        if isinstance(op, nc.CmpOp) and ins[0].type.get_element_type() == f32:
            predicate = CMP_PREDICATES[op.predicate.data]
            elementwise(ins, out, lambda a, b, _: arith.CmpfOp(a, b, predicate).result)
        elif isinstance(op, nc.CmpOp):
            predicate = CMPI_PREDICATES[op.predicate.data]
            elementwise(ins, out, lambda a, b, _: arith.CmpiOp(a, b, predicate).result)
        elif isinstance(op.results[0].type.get_element_type(), IntegerType):
            elementwise(ins, out, lambda a, b, _: INTEGER_BINARY[type(op)](a, b).result)
        elif type(op) in EXTREMES:
            predicate = EXTREMES[type(op)]
            elementwise(ins, out, lambda a, b, _: arith.SelectOp(beats(a, b, predicate), a, b).result)
        else:
            elementwise(ins, out, lambda a, b, _: FLOAT_BINARY[type(op)](a, b).result)

    def unary(self, op: nc.ElementwiseUnaryOp, ins: list[SSAValue], out: SSAValue) -> None:
        elementwise(ins, out, lambda x, _: FLOAT_UNARY[type(op)](x).result)

    def relu(self, op: nc.ReluOp, ins: list[SSAValue], out: SSAValue) -> None:
        elementwise(ins, out, lambda x, _: arith.MaximumfOp(x, f32_const(0.0)).result)

    def sigmoid(self, op: nc.SigmoidOp, ins: list[SSAValue], out: SSAValue) -> None:
        def body(x: SSAValue, _: SSAValue) -> SSAValue:
            one = f32_const(1.0)
            return arith.DivfOp(one, arith.AddfOp(one, math.ExpOp(arith.NegfOp(x)))).result

        elementwise(ins, out, body)

    def tanh(self, op: nc.TanhOp, ins: list[SSAValue], out: SSAValue) -> None:
        elementwise(ins, out, lambda x, _: math.TanhOp(x).result)

    def reciprocal(self, op: nc.ReciprocalOp, ins: list[SSAValue], out: SSAValue) -> None:
        elementwise(ins, out, lambda x, _: arith.DivfOp(f32_const(1.0), x).result)

    def sign(self, op: nc.SignOp, ins: list[SSAValue], out: SSAValue) -> None:
        def body(x: SSAValue, _: SSAValue) -> SSAValue:
            zero = f32_const(0.0)
            positive = arith.SelectOp(arith.CmpfOp(x, zero, "ogt"), f32_const(1.0), zero)
            negative = arith.SelectOp(arith.CmpfOp(x, zero, "olt"), f32_const(-1.0), positive)
            return arith.SelectOp(arith.CmpfOp(x, x, "uno"), x, negative).result  # NaN stays NaN

        elementwise(ins, out, body)

    def clamp(self, op: nc.ClampOp, ins: list[SSAValue], out: SSAValue) -> None:
        lo, hi = op.min.value.data, op.max.value.data
        elementwise(ins, out, lambda x, _: arith.MinimumfOp(arith.MaximumfOp(x, f32_const(lo)), f32_const(hi)).result)

    def logical(self, op: nc.LogicalBinaryOp, ins: list[SSAValue], out: SSAValue) -> None:
        elementwise(ins, out, lambda a, b, _: LOGICAL_BINARY[type(op)](a, b).result)

    def logical_not(self, op: nc.NotOp, ins: list[SSAValue], out: SSAValue) -> None:
        elementwise(ins, out, lambda x, _: arith.XOrIOp(x, i1_const(True)).result)

    def select(self, op: nc.SelectOp, ins: list[SSAValue], out: SSAValue) -> None:
        elementwise(ins, out, lambda c, a, b, _: arith.SelectOp(c, a, b).result)

    def fmod(self, op: nc.FmodOp, ins: list[SSAValue], out: SSAValue) -> None:
        def body(a: SSAValue, b: SSAValue, _: SSAValue) -> SSAValue:
            wide_a, wide_b = arith.ExtFOp(a, f64).result, arith.ExtFOp(b, f64).result
            quotient = math.TruncOp(arith.DivfOp(wide_a, wide_b)).result
            zero = arith.ConstantOp(FloatAttr(0.0, f64)).result
            product = arith.SelectOp(arith.CmpfOp(quotient, zero, "oeq"), zero, arith.MulfOp(quotient, wide_b))
            remainder = arith.TruncFOp(arith.SubfOp(wide_a, product), f32)
            return math.CopySignOp(remainder, a).result

        elementwise(ins, out, body)

    def mod(self, op: nc.ModOp, ins: list[SSAValue], out: SSAValue) -> None:
        def body(a: SSAValue, b: SSAValue, _: SSAValue) -> SSAValue:
            zero = arith.ConstantOp(IntegerAttr(0, a.type)).result
            remainder = arith.RemSIOp(a, b).result
            signs_differ = arith.XOrIOp(arith.CmpiOp(remainder, zero, "slt"), arith.CmpiOp(b, zero, "slt"))
            adjust = arith.AndIOp(arith.CmpiOp(remainder, zero, "ne"), signs_differ)
            return arith.SelectOp(adjust, arith.AddiOp(remainder, b), remainder).result

        elementwise(ins, out, body)

    def cumsum(self, op: nc.CumsumOp, ins: list[SSAValue], out: SSAValue) -> None:
        (x,) = ins
        rank = len(shape_of(x))
        axis = op.axis.value.data
        loops = dims(rank + 1)  # the output's, then k along the axis
        x_map = affine_map(rank + 1, [loops[rank] if i == axis else d for i, d in enumerate(loops[:rank])])
        predicate = CUMSUM_PREDICATES[bool(op.exclusive.value.data), bool(op.reverse.value.data)]

        def body(v: SSAValue, acc: SSAValue) -> SSAValue:
            counted = arith.CmpiOp(IndexOp(rank).result, IndexOp(axis).result, predicate)
            return arith.SelectOp(counted, arith.AddfOp(acc, v), acc).result

        fill(0.0, out)
        generic([x], [out], [x_map, affine_map(rank + 1, loops[:rank])], body, reduced=(rank,))

    def convolve(self, op: nc.Conv2dOp | nq.QConv2dOp | nq.ConvIntegerOp, x: SSAValue, w: SSAValue,
                 bias: list[SSAValue], acc: SSAValue, pad_value: float | SSAValue, body: Body,
                 out_row: SSAValue | None = None) -> None:
        """``acc`` filled with the bias (broadcast over N, H, W) or 0, then ``body`` accumulating
        every tap of ``x`` (padded with ``pad_value``) and ``w`` into it: one generic over
        (n, o, y, x, c, ky, kx); with pads, or for the one output row ``out_row`` given
        (``acc`` of height 1), the taps are loaded (``padded_load``)."""
        (sh, sw), (dh, dw) = ints(op.strides), ints(op.dilations)
        groups = op.groups.value.data
        out_per_group, cg = shape_of(w)[0] // groups, shape_of(w)[1]
        if bias:
            copy(bias[0], acc, affine_map(4, [AffineExpr.dimension(1)]), identity(4))
        else:
            fill(0, acc)
        n, oc, y, xx, c, ky, kx = dims(7)
        pads = ints(op.pads)
        if any(pads) or out_row is not None:
            def tap(wv: SSAValue, a: SSAValue) -> SSAValue:
                i_n, i_o, i_y, i_x, i_c, i_ky, i_kx = (IndexOp(d).result for d in range(7))
                if out_row is not None:
                    i_y = out_row
                channel = i_c
                if groups != 1:
                    group = i_o if out_per_group == 1 else arith.DivUIOp(i_o, index_const(out_per_group)).result
                    channel = arith.AddiOp(arith.MuliOp(group, index_const(cg)), i_c).result
                row, col = window_position(i_y, i_ky, sh, dh), window_position(i_x, i_kx, sw, dw)
                return body(padded_load(x, i_n, channel, row, col, pads, pad_value), wv, a)

            maps = [affine_map(7, [oc, c, ky, kx]), affine_map(7, [n, oc, y, xx])]
            generic([w], [acc], maps, tap, reduced=(4, 5, 6))
            return
        group = oc if out_per_group == 1 else oc // out_per_group
        channel = c if groups == 1 else group * cg + c
        maps = [
            affine_map(7, [n, channel, y * sh + ky * dh, xx * sw + kx * dw]),
            affine_map(7, [oc, c, ky, kx]),
            affine_map(7, [n, oc, y, xx]),
        ]
        generic([x, w], [acc], maps, body, reduced=(4, 5, 6))

    def conv2d(self, op: nc.Conv2dOp, ins: list[SSAValue], out: SSAValue) -> None:
        x, w, *bias = ins
        self.convolve(op, x, w, bias, out, 0.0, multiply_accumulate)

    def matmul(self, op: nc.MatmulOp, ins: list[SSAValue], out: SSAValue) -> None:
        fill(0.0, out)
        contract(*ins, out, trans_b=False)

    def gemm(self, op: nc.GemmOp, ins: list[SSAValue], out: SSAValue) -> None:
        a, b, c = ins
        copy(c, out, broadcast_map(shape_of(c), shape_of(out)), identity(2))
        contract(a, b, out, trans_b=bool(op.trans_b.value.data))

    def pool(self, op: nc.Pool2dOp, ins: list[SSAValue], out: SSAValue) -> None:
        (x,) = ins
        (kh, kw), (sh, sw), (dh, dw) = ints(op.kernel), ints(op.strides), ints(op.dilations)
        is_max = isinstance(op, nc.MaxPool2dOp)
        element = x.type.get_element_type()
        quantized = isinstance(element, IntegerType)  # i8/ui8 max pooling: padding is the lowest value
        pad_value = (integer_range(element)[0] if quantized else float("nan")) if is_max else 0.0
        fill(pad_value, out)
        n, c, y, xx, ky, kx = dims(6)
        maps = [
            affine_map(6, [n, c, y * sh + ky * dh, xx * sw + kx * dw]),
            affine_map(6, [AffineExpr.constant(0), AffineExpr.constant(0), ky, kx]),
            affine_map(6, [n, c, y, xx]),
        ]
        if is_max and not quantized:  # the tap unless it is NaN or the best so far is larger
            def combine(v: SSAValue, _: SSAValue, acc: SSAValue) -> SSAValue:
                return arith.SelectOp(beats(v, acc, "olt"), acc, v).result
        else:
            op_type = ((arith.MaxUIOp if is_unsigned(element) else arith.MaxSIOp) if quantized else arith.MaximumfOp) if is_max else arith.AddfOp

            def combine(v: SSAValue, _: SSAValue, acc: SSAValue) -> SSAValue:
                return op_type(acc, v).result
        pads = ints(op.pads)
        if any(pads):  # the taps loaded, the window a constant global (only its shape is read)
            def tap(_: SSAValue, acc: SSAValue) -> SSAValue:
                i_n, i_c, i_y, i_x, i_ky, i_kx = (IndexOp(d).result for d in range(6))
                row, col = window_position(i_y, i_ky, sh, dh), window_position(i_x, i_kx, sw, dw)
                return combine(padded_load(x, i_n, i_c, row, col, pads, pad_value), _, acc)

            window = self.globals.get("pool_window", np.zeros((kh, kw), np.float32))
            generic([window], [out], [affine_map(6, [ky, kx]), maps[2]], tap, reduced=(4, 5))
        else:
            generic([x, window_of(x, kh, kw)], [out], maps, combine, reduced=(4, 5))
        if not is_max:
            counts = self.avg_pool_counts(op, shape_of(x), shape_of(out))
            generic([counts], [out], [affine_map(4, [y, xx]), identity(4)], lambda k, s: arith.DivfOp(s, k).result)

    def avg_pool_counts(self, op: nc.AvgPool2dOp, in_shape: Shape, out_shape: Shape) -> SSAValue:
        """A constant global [OH, OW]: the unpadded elements in each window."""
        (kh, kw), (sh, sw), (dh, dw) = ints(op.kernel), ints(op.strides), ints(op.dilations)
        top, left, _, _ = ints(op.pads)
        rows = window_counts(in_shape[2], kh, sh, top, out_shape[2], dh)
        cols = window_counts(in_shape[3], kw, sw, left, out_shape[3], dw)
        return self.globals.get("avg_pool_count", np.outer(rows, cols))

    def mean(self, op: nc.GlobalAvgPoolOp | nc.ReduceMeanOp, ins: list[SSAValue], out: SSAValue) -> None:
        self.reduce(op, ins, out)
        shape = shape_of(ins[0])
        count = float(prod(shape[a] for a in reduction_of(op, len(shape))[0]))
        update(out, lambda s: arith.DivfOp(s, f32_const(count)).result)

    def reduce(self, op: nc.ReduceOp | nc.GlobalAvgPoolOp, ins: list[SSAValue], out: SSAValue) -> None:
        """Sums and products: the output filled with the starting value, then each element
        combined into it. Max and min: the output set to the first element of each reduced
        run, then replaced by each strictly larger (smaller) element, in row-major order."""
        (x,) = ins
        rank = len(shape_of(x))
        axes, keepdims = reduction_of(op, rank)
        if type(op) in EXTREMES:
            predicate = EXTREMES[type(op)]
            first_of_runs(x, out, axes, keepdims)
            reduce_into(x, out, axes, keepdims, lambda acc, v: arith.SelectOp(arith.CmpfOp(v, acc, predicate), v, acc))
            return
        start, combine = REDUCTIONS[type(op)]
        fill(start, out)
        reduce_into(x, out, axes, keepdims, combine)

    def arg_extreme(self, op: nc.ArgExtremeOp, ins: list[SSAValue], out: SSAValue) -> None:
        (x,) = ins
        shape = shape_of(x)
        axis = op.axis.value.data % len(shape)
        is_max = isinstance(op, nc.ArgMaxOp)
        best = self.scratch("best", tuple(1 if i == axis else s for i, s in enumerate(shape)), float("-inf" if is_max else "inf"))
        FillOp([arith.ConstantOp(IntegerAttr(0, i64)).result], [out], res=())
        beyond = ("oge" if is_max else "ole") if op.select_last_index.value.data else ("ogt" if is_max else "olt")
        kept = [AffineExpr.constant(0) if i == axis else d for i, d in enumerate(dims(len(shape)))]
        dropped = kept if op.keepdims.value.data else [d for i, d in enumerate(dims(len(shape))) if i != axis]

        def body(value: SSAValue, best_value: SSAValue, index: SSAValue) -> tuple[SSAValue, SSAValue]:
            take = arith.CmpfOp(value, best_value, beyond).result
            here = arith.IndexCastOp(IndexOp(axis).result, i64).result
            return arith.SelectOp(take, value, best_value).result, arith.SelectOp(take, here, index).result

        maps = [identity(len(shape)), affine_map(len(shape), kept), affine_map(len(shape), dropped)]
        generic([x], [best, out], maps, body, reduced=(axis,))

    def softmax(self, op: nc.SoftmaxOp, ins: list[SSAValue], out: SSAValue) -> None:
        (x,) = ins
        shape = shape_of(x)
        axis = op.axis.value.data % len(shape)
        reduced = tuple(1 if i == axis else s for i, s in enumerate(shape))
        peak = self.scratch("peak", reduced, float("-inf"))
        reduce_into(x, peak, (axis,), True, arith.MaximumfOp)
        elementwise([x, peak], out, lambda v, m, _: math.ExpOp(arith.SubfOp(v, m)).result)
        total = self.scratch("total", reduced, 0.0)
        reduce_into(out, total, (axis,), True, arith.AddfOp)
        elementwise([total], out, lambda s, e: arith.DivfOp(e, s).result)

    def concat(self, op: nc.ConcatOp, ins: list[SSAValue], out: SSAValue) -> None:
        rank = len(shape_of(out))
        axis = op.axis.value.data % rank
        start = 0
        for x in ins:
            copy_into(x, out, [start if i == axis else 0 for i in range(rank)])
            start += shape_of(x)[axis]

    def transpose(self, op: nc.TransposeOp, ins: list[SSAValue], out: SSAValue) -> None:
        TransposeOp(ins[0], out, op.perm)

    def reshape(self, op: ReshapeOp, ins: list[SSAValue], out: SSAValue) -> None:
        (x,) = ins
        out_shape = shape_of(out)
        copy(x, out, row_major_map(shape_of(x), out_shape), identity(len(out_shape)))

    def slice(self, op: nc.SliceOp, ins: list[SSAValue], out: SSAValue) -> None:
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

    def pad(self, op: nc.PadOp, ins: list[SSAValue], out: SSAValue) -> None:
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

    def gather(self, op: nc.GatherOp, ins: list[SSAValue], out: SSAValue) -> None:
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

    def gather_elements(self, op: nc.GatherElementsOp, ins: list[SSAValue], out: SSAValue) -> None:
        data, indices = ins
        axis, rank = op.normalized_axis(), len(shape_of(out))

        def body(index: SSAValue, _: SSAValue) -> SSAValue:
            position = [IndexOp(d).result for d in range(rank)]
            position[axis] = data_index(index, shape_of(data)[axis])
            return memref.LoadOp.get(data, position).res

        generic([indices], [out], [identity(rank), identity(rank)], body)

    def top_k(self, op: nc.TopKOp, ins: list[SSAValue], out: SSAValue) -> None:
        """Each element's rank along the axis (how many elements beat it: larger, or equal
        at a lower position) into an i64 scratch; output position ``j`` then takes the
        position whose rank is ``j``."""
        (x,) = ins
        shape, axis = shape_of(x), op.normalized_axis()
        rank = len(shape)
        ranks = self.scratch("ranks", shape, 0, element=i64)
        beats = "ogt" if op.largest.value.data else "olt"
        loops = dims(rank + 1)  # the input's axes, then the position compared with
        other = [loops[rank] if d == axis else e for d, e in enumerate(loops[:rank])]

        def count(v: SSAValue, w: SSAValue, acc: SSAValue) -> SSAValue:
            earlier = arith.CmpiOp(IndexOp(rank).result, IndexOp(axis).result, "slt")
            tie = arith.AndIOp(arith.CmpfOp(w, v, "oeq"), earlier)
            wins = arith.OrIOp(arith.CmpfOp(w, v, beats), tie)
            return arith.AddiOp(acc, arith.ExtUIOp(wins, i64)).result

        generic([x, x], [ranks], [affine_map(rank + 1, loops[:rank]), affine_map(rank + 1, other),
                                  affine_map(rank + 1, loops[:rank])], count, reduced=(rank,))  # fmt: skip
        fill(0, out)

        def select(r: SSAValue, acc: SSAValue) -> SSAValue:
            position = arith.IndexCastOp(IndexOp(rank).result, i64)
            wanted = arith.IndexCastOp(IndexOp(axis).result, i64)
            return arith.SelectOp(arith.CmpiOp(r, wanted, "eq"), position, acc).result

        generic([ranks], [out], [affine_map(rank + 1, other), affine_map(rank + 1, loops[:rank])], select, reduced=(rank,))


    def cast(self, op: nc.CastOp, ins: list[SSAValue], out: SSAValue) -> None:
        source, target = ins[0].type.get_element_type(), out.type.get_element_type()

        def body(x: SSAValue, _: SSAValue) -> SSAValue:
            if target == i1:
                if source == f32:
                    return arith.CmpfOp(x, f32_const(0.0), "une").result
                return arith.CmpiOp(x, int_const(0, source), "ne").result
            if source == i1:
                return (arith.UIToFPOp(x, f32) if target == f32 else arith.ExtUIOp(x, target)).result
            if source == f32:
                return x if target == f32 else (arith.FPToUIOp if is_unsigned(target) else arith.FPToSIOp)(x, target).result
            if target == f32:
                return to_float(x)
            if target.width.data > source.width.data:
                return (arith.ExtUIOp if is_unsigned(source) else arith.ExtSIOp)(x, target).result
            if target.width.data < source.width.data:
                return arith.TruncIOp(x, target).result
            return x if target == source else arith.BitcastOp(x, target).result  # i8 and ui8: the same bits

        elementwise(ins, out, body)

    # --- quantized ops: i8 data, i32 accumulators, requantized in f32 as the kernels (onnxruntime's x86 MLAS paths) do ---

    def per_channel(self, prefix: str, values: np.ndarray, axis: int, rank: int) -> tuple[list[SSAValue], list[AffineMapAttr]]:
        """A parameter of more than one value as a constant global read along ``axis``
        (an extra generic operand and its map); one value needs neither."""
        if values.size == 1:
            return [], []
        return [self.globals.get(prefix, values)], [affine_map(rank, [dims(rank)[axis]])]

    def requantize(self, op: Operation, acc: SSAValue, out: SSAValue, ratio: np.ndarray, axis: int) -> None:
        """``out = saturate(round_half_even(acc * ratio) + y_zero_point)`` as MlasRequantizeOutput
        computes it, or the f32 ``acc * ratio`` for an f32 ``out``; ``ratio`` per tensor or
        along ``axis``."""
        rank = len(shape_of(out))
        extra, maps = self.per_channel("requant_ratio", ratio, axis, rank)
        zero_point = float(quant_params(op, "y")[1][0]) if out.type.get_element_type() != f32 else 0.0

        def body(a: SSAValue, *rest: SSAValue) -> SSAValue:
            r = rest[0] if extra else f32_const(float(ratio.reshape(-1)[0]))
            value = arith.MulfOp(to_float(a), r).result
            return value if out.type.get_element_type() == f32 else to_quantized(value, zero_point, out)

        generic([acc, *extra], [out], [identity(rank), *maps, identity(rank)], body)

    def with_params(self, op: nq.QuantizeOp | nq.DequantizeOp, prefix: str, x: SSAValue, out: SSAValue,
                    body: Callable[[SSAValue, SSAValue, SSAValue], SSAValue]) -> None:
        """``out = body(x, scale, zero_point)`` element by element, with ``op``'s parameters of
        ``prefix`` per tensor or along its ``axis`` (from constant globals)."""
        scale, zero_point = quant_params(op, prefix)
        rank = len(shape_of(out))
        axis = op.axis.value.data % max(rank, 1)
        extra, maps = self.per_channel(f"{prefix}_scale", scale, axis, rank)
        zero_extra, zero_maps = self.per_channel(f"{prefix}_zero_point", zero_point.astype(np.float32), axis, rank)

        def inner(v: SSAValue, *rest: SSAValue) -> SSAValue:
            s = rest[0] if extra else f32_const(float(scale[0]))
            z = rest[len(extra)] if zero_extra else f32_const(float(zero_point[0]))
            return body(v, s, z)

        generic([x, *extra, *zero_extra], [out], [identity(rank), *maps, *zero_maps, identity(rank)], inner)

    def quantize(self, op: nq.QuantizeOp, ins: list[SSAValue], out: SSAValue) -> None:
        self.with_params(op, "y", ins[0], out, lambda x, s, z: to_quantized(arith.DivfOp(x, s).result, z, out))

    def dequantize(self, op: nq.DequantizeOp, ins: list[SSAValue], out: SSAValue) -> None:
        self.with_params(op, "x", ins[0], out, lambda x, s, z: arith.MulfOp(arith.SubfOp(to_float(x), z), s).result)

    def qconv2d(self, op: nq.QConv2dOp, ins: list[SSAValue], out: SSAValue) -> None:
        """One output row at a time (an ``scf.for``): the row's i32 sums in scratch, then
        requantized into the row of ``out``, so the sums never take more than a row."""
        x, w, *bias = ins
        x_zero, w_zero = int(quant_params(op, "x")[1][0]), uniform_zero_point(op, "w")
        n, channels, height, width = shape_of(out)
        acc = self.scratch("acc", (n, channels, 1, width), None, i32)
        ratio = ratio_of(op, "x", "w")

        def one_row(row: SSAValue) -> None:
            self.convolve(op, x, w, bias, acc, x_zero, lambda a, b, s: centered_product(a, x_zero, b, w_zero, s), row)
            self.requantize(op, acc, rows_of(out, row, 2), ratio, 1)

        for_each(height, one_row)

    def qlookup(self, op: nq.QLookupOp, ins: list[SSAValue], out: SSAValue) -> None:
        element = out.type.get_element_type()
        table = self.globals.get("qlookup_table", np.array(ints(op.table), np.int64).astype(np.uint8 if is_unsigned(element) else np.int8))
        lowest = -integer_range(ins[0].type.get_element_type())[0]

        def body(x: SSAValue, _: SSAValue) -> SSAValue:
            position = arith.AddiOp(widened(x), int_const(lowest, i32)).result
            return memref.LoadOp.get(table, [arith.IndexCastOp(position, IndexType()).result]).res

        elementwise(ins, out, body)

    def conv_integer(self, op: nq.ConvIntegerOp, ins: list[SSAValue], out: SSAValue) -> None:
        x, w, x_zero, w_zero = ins
        x_zero_data = load_scalar(x_zero)
        zeros = (widened(x_zero_data), widened(load_scalar(w_zero)))
        self.convolve(op, x, w, [], out, x_zero_data, lambda a, b, s: centered_product(a, zeros[0], b, zeros[1], s))

    def matmul_integer(self, op: nq.MatmulIntegerOp, ins: list[SSAValue], out: SSAValue) -> None:
        a, b, a_zero, b_zero = ins
        zeros = (widened(load_scalar(a_zero)), widened(load_scalar(b_zero)))
        fill(0, out)
        contract(a, b, out, False, lambda x, y, s: centered_product(x, zeros[0], y, zeros[1], s))

    def qgemm(self, op: nq.QGemmOp, ins: list[SSAValue], out: SSAValue) -> None:
        a, b, *c = ins
        trans = bool(op.trans_b.value.data)
        a_zero, b_zero = int(quant_params(op, "a")[1][0]), uniform_zero_point(op, "b")
        rows, columns = shape_of(out)
        acc = self.scratch("acc", (1, columns), None, i32)
        ratio = ratio_of(op, "a", "b", alpha=op.alpha.value.data)
        m, n, k = dims(3)
        maps = [affine_map(3, [m, k]), affine_map(3, [n, k] if trans else [k, n]), affine_map(3, [m, n])]

        def one_row(row: SSAValue) -> None:
            if c:
                copy(c[0], acc, affine_map(2, [AffineExpr.dimension(1)]), identity(2))
            else:
                fill(0, acc)
            generic([rows_of(a, row, 0), b], [acc], maps, lambda x, y, s: centered_product(x, a_zero, y, b_zero, s), reduced=(2,))
            self.requantize(op, acc, rows_of(out, row, 0), ratio, 1)

        for_each(rows, one_row)

    def qadd(self, op: nq.QAddOp, ins: list[SSAValue], out: SSAValue) -> None:
        swap, ratio_1, ratio_2, fixed = kernels.qadd_terms(op)

        def body(a: SSAValue, b: SSAValue, _: SSAValue) -> SSAValue:
            first, second = (b, a) if swap else (a, b)
            partial = math.FmaOp(to_float(second), f32_const(float(ratio_2)), f32_const(float(fixed))).result
            value = math.FmaOp(to_float(first), f32_const(float(ratio_1)), partial).result
            return converted_and_packed(value, out)

        elementwise(ins, out, body)

    def qmul(self, op: nq.QMulOp, ins: list[SSAValue], out: SSAValue) -> None:
        a_zero, b_zero = (int(quant_params(op, p)[1][0]) for p in "ab")
        ratio, y_zero = float(ratio_of(op, "a", "b")[0]), float(quant_params(op, "y")[1][0])

        def body(a: SSAValue, b: SSAValue, _: SSAValue) -> SSAValue:
            product = centered_product(a, a_zero, b, b_zero, int_const(0, i32))
            scaled = arith.MulfOp(to_float(product), f32_const(ratio)).result
            return converted_and_packed(arith.AddfOp(scaled, f32_const(y_zero)).result, out)

        elementwise(ins, out, body)

    def qconcat(self, op: nq.QConcatOp, ins: list[SSAValue], out: SSAValue) -> None:
        axis = op.axis.value.data
        scales, zero_points = quant_params(op, "x")
        y_scale, y_zero = float(quant_params(op, "y")[0][0]), float(quant_params(op, "y")[1][0])
        offset = 0
        for x, scale, zero in zip(ins, scales, zero_points, strict=True):
            shape = shape_of(x)
            region = subview(out, [offset if k == axis else 0 for k in range(len(shape))], shape)

            def body(v: SSAValue, _: SSAValue, s: float = float(scale), z: float = float(zero)) -> SSAValue:
                real = arith.MulfOp(arith.SubfOp(to_float(v), f32_const(z)), f32_const(s)).result
                return to_quantized(arith.DivfOp(real, f32_const(y_scale)).result, y_zero, out)

            elementwise([x], region, body)
            offset += shape[axis]

    METHODS: dict[type[Operation], Callable[..., None]] = {
        nc.AddOp: binary,
        nc.SubOp: binary,
        nc.MulOp: binary,
        nc.DivOp: binary,
        nc.PowOp: binary,
        nc.MaxOp: binary,
        nc.MinOp: binary,
        nc.CmpOp: binary,
        nc.ReluOp: relu,
        nc.SigmoidOp: sigmoid,
        nc.TanhOp: tanh,
        nc.SqrtOp: unary,
        nc.ExpOp: unary,
        nc.NegOp: unary,
        nc.LogOp: unary,
        nc.AbsOp: unary,
        nc.FloorOp: unary,
        nc.CeilOp: unary,
        nc.RoundOp: unary,
        nc.ErfOp: unary,
        nc.SinOp: unary,
        nc.CosOp: unary,
        nc.ReciprocalOp: reciprocal,
        nc.SignOp: sign,
        nc.ClampOp: clamp,
        nc.AndOp: logical,
        nc.OrOp: logical,
        nc.XorOp: logical,
        nc.NotOp: logical_not,
        nc.SelectOp: select,
        nc.FmodOp: fmod,
        nc.ModOp: mod,
        nc.CumsumOp: cumsum,
        nc.Conv2dOp: conv2d,
        nc.MatmulOp: matmul,
        nc.GemmOp: gemm,
        nc.MaxPool2dOp: pool,
        nc.AvgPool2dOp: pool,
        nc.GlobalAvgPoolOp: mean,
        nc.ReduceMeanOp: mean,
        nc.ReduceSumOp: reduce,
        nc.ReduceMaxOp: reduce,
        nc.ReduceMinOp: reduce,
        nc.ReduceProdOp: reduce,
        nc.ArgMaxOp: arg_extreme,
        nc.ArgMinOp: arg_extreme,
        nc.SoftmaxOp: softmax,
        nc.ConcatOp: concat,
        nc.TransposeOp: transpose,
        nc.SliceOp: slice,
        nc.PadOp: pad,
        nc.GatherOp: gather,
        nc.GatherElementsOp: gather_elements,
        nc.TopKOp: top_k,
        ReshapeOp: reshape,
        nc.CastOp: cast,
        nq.QuantizeOp: quantize,
        nq.DequantizeOp: dequantize,
        nq.QConv2dOp: qconv2d,
        nq.QGemmOp: qgemm,
        nq.QAddOp: qadd,
        nq.QMulOp: qmul,
        nq.QConcatOp: qconcat,
        nq.QLookupOp: qlookup,
        nq.MatmulIntegerOp: matmul_integer,
        nq.ConvIntegerOp: conv_integer,
    }


class LowerApply(RewritePattern):
    """Replaces one ``nn.apply`` by the ops of its compute op's lowering."""

    def __init__(self, module: ModuleOp):
        self.globals = ConstantGlobals(module)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ApplyOp, rewriter: PatternRewriter) -> None:
        layout = scratch_buffers(op.compute)
        if layout and op.scratch is None:
            raise OpFailure(op, f"'{op.compute.name}' needs kernel scratch but its nn.apply has no scratch buffer")
        lowering = OpLowering(self.globals, op.scratch, layout)
        block = Block()
        with ImplicitBuilder(block):
            lowering.lower(op.compute, list(op.ins), op.outs[0])
        assert lowering.scratch_used == len(layout), f"'{op.compute.name}' used {lowering.scratch_used} of its {len(layout)} scratch buffers"
        self.globals.insert_pending(rewriter)
        ops = list(block.ops)
        for child in ops:
            child.detach()
        rewriter.replace(op, ops, [])


@dataclass(frozen=True)
class LowerToLinalgPass(ModulePass):
    """Replaces every ``nn.apply`` of a flat module by upstream linalg, memref, arith and math ops."""

    name = "nn-lower-to-linalg"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(LowerApply(op), apply_recursively=False).rewrite_module(op)
        erase_signedness(op)


def signless(ty: Attribute) -> Attribute:
    """``ty`` with ui8 (as element) read as i8: the same bytes."""
    if ty == UI8:
        return i8
    if isinstance(ty, MemRefType) and ty.get_element_type() == UI8:
        return MemRefType(i8, ty.get_shape(), ty.layout, ty.memory_space)
    if isinstance(ty, TensorType) and ty.get_element_type() == UI8:
        return TensorType(i8, ty.get_shape())
    return ty


def erase_signedness(module: ModuleOp) -> None:
    """Every ui8 in ``module`` as i8, since upstream arith takes signless integers only; the
    lowering chose the unsigned ops (extui, uitofp, fptoui, maxui) while the types still said
    ui8, so the numbers do not change."""
    for op in list(module.walk()):
        for value in [*op.results, *(arg for region in op.regions for block in region.blocks for arg in block.args)]:
            if signless(value.type) != value.type:
                Rewriter.replace_value_with_new_type(value, signless(value.type))
        if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr) and op.value.type == UI8:
            op.value = IntegerAttr(int(np.array(op.value.value.data, np.uint8).astype(np.int8)), i8)
        elif isinstance(op, memref.GlobalOp) and signless(op.type) != op.type:
            op.type = signless(op.type)
            if isinstance(op.initial_value, DenseIntOrFPElementsAttr):
                op.initial_value = DenseIntOrFPElementsAttr(signless(op.initial_value.type), op.initial_value.data)
        elif isinstance(op, func.FuncOp):
            kind = op.function_type
            op.function_type = FunctionType.from_lists([signless(t) for t in kind.inputs], [signless(t) for t in kind.outputs])
