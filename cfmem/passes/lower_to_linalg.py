"""``nn-lower-to-linalg``: every ``nn.apply`` as upstream ops on its memrefs.

Runs after ``nn-lower-to-memref``. Each ``nn.apply`` becomes ops that read its
input buffers and write its output buffer with the numbers of the numpy
kernels in :mod:`cfmem.interp.kernels`, so the module holds no ``nn`` op and
is plain upstream MLIR (linalg, memref, arith, math, scf, func). Per op:

- ``add``, ``sub``, ``mul``, ``div``, ``pow`` (``math.powf``), ``max``/``min``
  (``arith.maximumf``/``minimumf``, NaN-propagating): one
  ``linalg.generic``; numpy broadcasting lives in the input maps (operands
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
- ``conv2d``: the output filled with the bias (broadcast over N, H, W) or 0,
  then one generic over (n, o, y, x, c, ky, kx) accumulating input channel
  ``(o floordiv og) * cg + c`` (og, cg: output and input channels per group) at
  row ``y * sh + ky * dh``, column ``x * sw + kx * dw``; with pads it reads a
  zero-filled scratch buffer instead, the input copied into its interior
  (a ``memref.subview`` and ``linalg.copy``).
- ``matmul``: ``linalg.fill`` 0 then ``linalg.matmul`` for 2-D operands, a
  generic with broadcast batch dimensions otherwise; ``gemm``: the output
  filled with ``c`` (broadcast), then the same contraction, ``b`` read
  transposed for ``trans_b``.
- ``max_pool2d``: -inf fill, then a generic taking the max over each window
  of a -inf-padded copy; ``avg_pool2d``: the sum over each window of a
  zero-padded copy, divided by the number of unpadded elements in the window,
  read from a constant ``memref.global @avg_pool_count_K`` this pass adds.
- ``global_avg_pool``, ``reduce_mean``: the sum into the zero-filled output,
  then a division by the number of summed elements; ``reduce_sum``,
  ``reduce_max``, ``reduce_min``, ``reduce_prod``: the output filled with 0,
  -inf, inf or 1, then ``addf``, ``maximumf``, ``minimumf`` or ``mulf`` into it.
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

Scratch buffers (padded inputs, softmax max and sum, and the shape-only
window operand of pooling) live outside the planned arena, on the stack: each
function that needs any gets one ``memref.alloca() : memref<Nxi8>`` (64-byte
aligned) at the top of its body, and every op's scratch buffers are
``memref.view``s of it from byte 0. An op's scratch is dead once the op is
done, so N is the most any single op needs, and the stack it takes is the
same wherever the op sits (no ``alloca`` runs inside control flow).

Assumes static shapes, f32 data (``slice`` takes any element type, ``cmp``
also signless integers) and an output buffer that overlaps none of
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
from xdsl.dialects import arith, func, math, memref
from xdsl.dialects.builtin import (
    AffineMapAttr,
    BytesAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    TensorType,
    UnitAttr,
    f32,
    i8,
    i64,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import CopyOp, FillOp, GenericOp, IndexOp, MatmulOp, TransposeOp, YieldOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.traits import SymbolTable
from xdsl.utils.exceptions import PassFailedException

from cfmem.dialects import nn_compute as nc
from cfmem.dialects.nn_memref import ApplyOp
from cfmem.dialects.nn_weights import ReshapeOp
from cfmem.planning.problem import align_up

Shape = tuple[int, ...]
Body = Callable[..., "SSAValue | tuple[SSAValue, ...]"]
"""Builds a generic's body from its block arguments (ins, then outs); returns the value to yield,
or one per output."""

SCRATCH_ALIGN = 64
"""Byte alignment of the scratch alloca and of each scratch buffer in it."""
FLOAT_BINARY = {
    nc.AddOp: arith.AddfOp,
    nc.SubOp: arith.SubfOp,
    nc.MulOp: arith.MulfOp,
    nc.DivOp: arith.DivfOp,
    nc.PowOp: math.PowFOp,
    nc.MaxOp: arith.MaximumfOp,
    nc.MinOp: arith.MinimumfOp,
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
REDUCTIONS: dict[type[Operation], tuple[float, type[Operation]]] = {
    nc.GlobalAvgPoolOp: (0.0, arith.AddfOp),
    nc.ReduceMeanOp: (0.0, arith.AddfOp),
    nc.ReduceSumOp: (0.0, arith.AddfOp),
    nc.ReduceMaxOp: (float("-inf"), arith.MaximumfOp),
    nc.ReduceMinOp: (float("inf"), arith.MinimumfOp),
    nc.ReduceProdOp: (1.0, arith.MulfOp),
}
"""Each reduction's starting value (its identity) and the op combining an element into it."""
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
    for d, stride in zip(dims(len(out_shape)), strides(out_shape)):
        linear = linear + d * stride
    exprs = []
    for axis, (size, stride) in enumerate(zip(in_shape, strides(in_shape))):
        expr = linear // stride if stride != 1 else linear
        exprs.append(expr % size if axis else expr)
    return affine_map(len(out_shape), exprs)


def strides(shape: Shape) -> list[int]:
    return [prod(shape[i + 1 :]) for i in range(len(shape))]


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


def copy_into(src: SSAValue, dst: SSAValue, offsets: Sequence[int]) -> None:
    """``src`` into the region of ``dst`` starting at ``offsets`` (a subview and ``linalg.copy``)."""
    assert isinstance(dst.type, MemRefType)
    shape = shape_of(src)
    ones = [1] * len(shape)
    region_type = memref.SubviewOp.infer_result_type(dst.type, list(offsets), list(shape), ones)
    region = memref.SubviewOp.get(dst, list(offsets), list(shape), ones, region_type).result
    CopyOp([src], [region], res=())


def fill(value: float, out: SSAValue) -> FillOp:
    return FillOp([f32_const(value)], [out], res=())


def reduce_into(
    x: SSAValue, out: SSAValue, axes: Sequence[int], keepdims: bool, combine: Callable[[SSAValue, SSAValue], Operation]
) -> GenericOp:
    """``out = combine(out, x)`` over ``axes`` of ``x``; ``out`` keeps them as size 1 or drops them."""
    rank = len(shape_of(x))
    if keepdims:
        results = [AffineExpr.constant(0) if i in axes else d for i, d in enumerate(dims(rank))]
    else:
        results = [d for i, d in enumerate(dims(rank)) if i not in axes]
    return generic([x], [out], [identity(rank), affine_map(rank, results)],
                   lambda v, acc: combine(acc, v).result, reduced=axes)


def reduction_of(op: nc.ReduceOp | nc.GlobalAvgPoolOp, rank: int) -> tuple[tuple[int, ...], bool]:
    """The axes ``op`` reduces, counted from the front and in order, and whether it keeps them."""
    if isinstance(op, nc.GlobalAvgPoolOp):
        return (2, 3), True
    return tuple(sorted(a % rank for a in ints(op.axes))), bool(op.keepdims.value.data)


def multiply_accumulate(lhs: SSAValue, rhs: SSAValue, acc: SSAValue) -> SSAValue:
    return arith.AddfOp(acc, arith.MulfOp(lhs, rhs)).result


def contract(a: SSAValue, b: SSAValue, out: SSAValue, trans_b: bool) -> None:
    """``out += a @ b`` (``b.T`` if ``trans_b``), numpy matmul batch dims broadcast."""
    out_shape = shape_of(out)
    if len(out_shape) == 2 and not trans_b:
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
    generic([a, b], [out], maps, multiply_accumulate, reduced=(batch + 2,))


def ints(attr: DenseArrayBase) -> tuple[int, ...]:
    return tuple(int(v) for v in attr.get_values())


def window_counts(size: int, kernel: int, stride: int, pad_before: int, out: int) -> np.ndarray:
    """How many of the ``kernel`` taps of each output position fall inside ``size``."""
    starts = np.arange(out) * stride - pad_before
    return np.clip(starts + kernel, 0, size) - np.clip(starts, 0, size)


# --- the lowerings ---------------------------------------------------------------


class ConstantGlobals:
    """Constant f32 ``memref.global``s this pass adds to ``module``, one per distinct content."""

    def __init__(self, module: ModuleOp):
        self.module = module
        self.names: dict[tuple[str, Shape, bytes], str] = {}
        self.pending: list[tuple[str, np.ndarray]] = []

    def get(self, prefix: str, array: np.ndarray) -> SSAValue:
        """A ``memref.get_global`` of ``array`` as f32; ``insert_pending`` adds a new global."""
        array = array.astype(np.float32)
        key = (prefix, array.shape, array.tobytes())
        if key not in self.names:
            taken = set(self.names.values())
            k = 0
            while f"{prefix}_{k}" in taken or SymbolTable.lookup_symbol(self.module, f"{prefix}_{k}"):
                k += 1
            self.names[key] = f"{prefix}_{k}"
            self.pending.append((self.names[key], array))
        return memref.GetGlobalOp(self.names[key], MemRefType(f32, array.shape)).memref

    def insert_pending(self, rewriter: PatternRewriter) -> None:
        """Add the globals ``get`` asked for at the top of the module."""
        for name, array in self.pending:
            value = DenseIntOrFPElementsAttr(TensorType(f32, array.shape), BytesAttr(array.tobytes()))
            glob = memref.GlobalOp.get(
                StringAttr(name), MemRefType(f32, array.shape), value, StringAttr("private"), constant=UnitAttr()
            )
            rewriter.insert(glob, InsertPoint.at_start(self.module.body.block))
        self.pending.clear()


class FunctionScratch:
    """The scratch bytes of one function: a ``memref.alloca`` of i8 at the top of its body."""

    def __init__(self, fn: func.FuncOp):
        self.fn = fn
        self.alloca: memref.AllocaOp | None = None

    def provide(self, placeholder: SSAValue, nbytes: int, rewriter: PatternRewriter) -> None:
        """Make the uses of ``placeholder`` use this function's scratch, grown to ``nbytes`` if smaller."""
        if self.alloca is None or self.alloca.memref.type.get_shape()[0] < nbytes:
            grown = memref.AllocaOp.get(i8, SCRATCH_ALIGN, shape=[nbytes])
            grown.memref.name_hint = "scratch"
            if self.alloca is None:
                rewriter.insert(grown, InsertPoint.at_start(self.fn.body.block))
            else:
                rewriter.replace(self.alloca, grown)
            self.alloca = grown
        placeholder.replace_all_uses_with(self.alloca.memref)


class OpLowering:
    """Emits the ops for one compute op at the current implicit builder.

    Scratch buffers are views of ``scratch_base``, a placeholder for the
    function's scratch bytes; ``scratch_used`` says how many the op needs.
    """

    def __init__(self, globals_: ConstantGlobals):
        self.globals = globals_
        self.scratch_base: SSAValue = Block(arg_types=[MemRefType(i8, [0])]).args[0]
        self.scratch_used = 0

    def scratch(self, name: str, shape: Shape, value: float | None = None) -> SSAValue:
        """An f32 scratch buffer of ``shape``, filled with ``value`` unless None."""
        offset = self.scratch_used
        self.scratch_used += align_up(prod(shape) * 4, SCRATCH_ALIGN)
        buffer = memref.ViewOp(self.scratch_base, index_const(offset), [], MemRefType(f32, shape)).result
        buffer.name_hint = name
        if value is not None:
            fill(value, buffer)
        return buffer

    def padded(self, x: SSAValue, pads: Sequence[int], value: float) -> SSAValue:
        """NCHW ``x``, or a scratch copy with ``pads`` (top, left, bottom, right) of ``value``."""
        if not any(pads):
            return x
        top, left, bottom, right = pads
        n, c, h, w = shape_of(x)
        buffer = self.scratch("padded", (n, c, h + top + bottom, w + left + right), value)
        copy_into(x, buffer, (0, 0, top, left))
        return buffer

    def lower(self, op: Operation, ins: list[SSAValue], out: SSAValue) -> None:
        method = self.METHODS.get(type(op))
        if method is None:
            raise PassFailedException(f"nn-lower-to-linalg cannot lower '{op.name}'")
        method(self, op, ins, out)

    def binary(self, op: nc.ElementwiseBinaryOp, ins: list[SSAValue], out: SSAValue) -> None:
        if isinstance(op, nc.CmpOp) and op.lhs.type.get_element_type() == f32:
            predicate = CMP_PREDICATES[op.predicate.data]
            elementwise(ins, out, lambda a, b, _: arith.CmpfOp(a, b, predicate).result)
        elif isinstance(op, nc.CmpOp):
            predicate = CMPI_PREDICATES[op.predicate.data]
            elementwise(ins, out, lambda a, b, _: arith.CmpiOp(a, b, predicate).result)
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

    def conv2d(self, op: nc.Conv2dOp, ins: list[SSAValue], out: SSAValue) -> None:
        x, w, *bias = ins
        (sh, sw), (dh, dw) = ints(op.strides), ints(op.dilations)
        groups = op.groups.value.data
        out_per_group, cg = shape_of(w)[0] // groups, shape_of(w)[1]
        if bias:
            copy(bias[0], out, affine_map(4, [AffineExpr.dimension(1)]), identity(4))
        else:
            fill(0.0, out)
        n, oc, y, xx, c, ky, kx = dims(7)
        group = oc if out_per_group == 1 else oc // out_per_group
        channel = c if groups == 1 else group * cg + c
        maps = [
            affine_map(7, [n, channel, y * sh + ky * dh, xx * sw + kx * dw]),
            affine_map(7, [oc, c, ky, kx]),
            affine_map(7, [n, oc, y, xx]),
        ]
        generic([self.padded(x, ints(op.pads), 0.0), w], [out], maps, multiply_accumulate, reduced=(4, 5, 6))

    def matmul(self, op: nc.MatmulOp, ins: list[SSAValue], out: SSAValue) -> None:
        fill(0.0, out)
        contract(*ins, out, trans_b=False)

    def gemm(self, op: nc.GemmOp, ins: list[SSAValue], out: SSAValue) -> None:
        a, b, c = ins
        copy(c, out, broadcast_map(shape_of(c), shape_of(out)), identity(2))
        contract(a, b, out, trans_b=bool(op.trans_b.value.data))

    def pool(self, op: nc.Pool2dOp, ins: list[SSAValue], out: SSAValue) -> None:
        (x,) = ins
        (kh, kw), (sh, sw) = ints(op.kernel), ints(op.strides)
        is_max = isinstance(op, nc.MaxPool2dOp)
        pad_value = float("-inf") if is_max else 0.0
        fill(pad_value, out)
        n, c, y, xx, ky, kx = dims(6)
        maps = [
            affine_map(6, [n, c, y * sh + ky, xx * sw + kx]),
            affine_map(6, [ky, kx]),
            affine_map(6, [n, c, y, xx]),
        ]
        combine = arith.MaximumfOp if is_max else arith.AddfOp
        window = self.scratch("window", (kh, kw))
        generic([self.padded(x, ints(op.pads), pad_value), window], [out], maps,
                lambda v, _, acc: combine(acc, v).result, reduced=(4, 5))
        if not is_max:
            counts = self.avg_pool_counts(op, shape_of(x), shape_of(out))
            generic([counts], [out], [affine_map(4, [y, xx]), identity(4)], lambda k, s: arith.DivfOp(s, k).result)

    def avg_pool_counts(self, op: nc.AvgPool2dOp, in_shape: Shape, out_shape: Shape) -> SSAValue:
        """A constant global [OH, OW]: the unpadded elements in each window."""
        (kh, kw), (sh, sw) = ints(op.kernel), ints(op.strides)
        top, left, _, _ = ints(op.pads)
        rows = window_counts(in_shape[2], kh, sh, top, out_shape[2])
        cols = window_counts(in_shape[3], kw, sw, left, out_shape[3])
        return self.globals.get("avg_pool_count", np.outer(rows, cols))

    def mean(self, op: nc.GlobalAvgPoolOp | nc.ReduceMeanOp, ins: list[SSAValue], out: SSAValue) -> None:
        self.reduce(op, ins, out)
        shape = shape_of(ins[0])
        count = float(prod(shape[a] for a in reduction_of(op, len(shape))[0]))
        update(out, lambda s: arith.DivfOp(s, f32_const(count)).result)

    def reduce(self, op: nc.ReduceOp | nc.GlobalAvgPoolOp, ins: list[SSAValue], out: SSAValue) -> None:
        """The output filled with the reduction's identity, then each element combined into it."""
        (x,) = ins
        start, combine = REDUCTIONS[type(op)]
        fill(start, out)
        reduce_into(x, out, *reduction_of(op, len(shape_of(x))), combine)

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
        ReshapeOp: reshape,
    }


class LowerApply(RewritePattern):
    """Replaces one ``nn.apply`` by the ops of its compute op's lowering."""

    def __init__(self, module: ModuleOp):
        self.globals = ConstantGlobals(module)
        self.scratch: dict[func.FuncOp, FunctionScratch] = {}

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ApplyOp, rewriter: PatternRewriter) -> None:
        lowering = OpLowering(self.globals)
        block = Block()
        with ImplicitBuilder(block):
            lowering.lower(op.compute, list(op.ins), op.outs[0])
        if lowering.scratch_used:
            fn = enclosing_function(op)
            scratch = self.scratch.setdefault(fn, FunctionScratch(fn))
            scratch.provide(lowering.scratch_base, lowering.scratch_used, rewriter)
        self.globals.insert_pending(rewriter)
        ops = list(block.ops)
        for child in ops:
            child.detach()
        rewriter.replace(op, ops, [])


def enclosing_function(op: Operation) -> func.FuncOp:
    parent = op.parent_op()
    while not isinstance(parent, func.FuncOp):
        if parent is None:
            raise PassFailedException(f"'{op.name}' is not inside a func.func")
        parent = parent.parent_op()
    return parent


@dataclass(frozen=True)
class LowerToLinalgPass(ModulePass):
    """Replaces every ``nn.apply`` of a flat module by upstream linalg, memref, arith and math ops."""

    name = "nn-lower-to-linalg"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(LowerApply(op), apply_recursively=False).rewrite_module(op)
