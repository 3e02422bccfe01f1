"""The ops of ``nn-lower-to-linalg`` that reduce or scan along axes.

- ``cumsum``: the output filled with 0, then one generic over the output's loops
  and a reduction loop ``k`` along the axis that adds input element ``k`` where
  ``k`` is at or before the output index (before: exclusive; at or after, after:
  reverse), by a select.
- ``global_avg_pool``, ``reduce_mean``: the sum into the zero-filled output,
  then a division by the number of summed elements; ``reduce_sum`` and
  ``reduce_prod``: the output filled with -0.0 or 1, then ``addf`` or ``mulf`` into
  it (``reduce_mean`` starts from -0.0 too, ``global_avg_pool`` from 0.0: a sum of -0.0
  alone is -0.0 in onnxruntime's ReduceSum and ReduceMean, not in its GlobalAveragePool);
  with ``sum_order = "sequential"`` (TFLite Micro's order) sums start from 0.0 and the
  reduced loops are nested in the order ``axes`` lists them, the first outermost;
  ``reduce_max``, ``reduce_min``: the output set to the first element of each reduced
  run, then each element replacing it where strictly larger (smaller): NaN only from
  the first element, the first of equal ones.
- ``arg_max``/``arg_min``: one generic over the input with two outputs, the
  best value so far (a scratch buffer filled with -inf or inf) and the output
  index (filled with 0); an element strictly beyond the best (or, with
  ``select_last_index``, not behind it) replaces both, its index from
  ``linalg.index`` of the axis.
- ``softmax``: max along the axis, ``exp(x - max)`` into the output, its sum
  along the axis (from 0.0, element after element: TFLite Micro's order, so ``sum_order``
  asks for nothing more), then a division; max and sum in scratch buffers.
- ``top_k``: each element's rank along the axis (the elements larger, or equal
  at a lower position; smaller for ``largest = false``) counted by a generic
  into an i64 scratch buffer, then a generic over (output, position) selecting
  into output slot ``j`` the position whose rank is ``j``.

Assumes f32 data and an output that overlaps no input (several of these write the output
before they have read all of the input).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import prod

from xdsl.dialects import arith, math
from xdsl.dialects.builtin import IntegerAttr, i64
from xdsl.dialects.linalg.ops import FillOp, GenericOp, IndexOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineExpr

from cfmem.dialects import nn_compute as nc
from cfmem.passes.linalg.helpers import (
    EXTREMES,
    affine_map,
    copy,
    dims,
    elementwise,
    f32_const,
    fill,
    generic,
    identity,
    ints,
    shape_of,
    update,
)
from cfmem.passes.linalg.op_lowering import OpLowering

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


def cumsum(lowering: OpLowering, op: nc.CumsumOp, ins: list[SSAValue], out: SSAValue) -> None:
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


def mean(lowering: OpLowering, op: nc.GlobalAvgPoolOp | nc.ReduceMeanOp, ins: list[SSAValue], out: SSAValue) -> None:
    reduce(lowering, op, ins, out)
    shape = shape_of(ins[0])
    count = float(prod(shape[a] for a in reduction_of(op, len(shape))[0]))
    update(out, lambda s: arith.DivfOp(s, f32_const(count)).result)


def reduce(lowering: OpLowering, op: nc.ReduceOp | nc.GlobalAvgPoolOp, ins: list[SSAValue], out: SSAValue) -> None:
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
    if isinstance(op, nc.ReduceOp) and op.sums_sequentially():
        fill(1.0 if isinstance(op, nc.ReduceProdOp) else 0.0, out)
        reduce_in_order(x, out, [a % rank for a in ints(op.axes)], keepdims, combine)
        return
    fill(start, out)
    reduce_into(x, out, axes, keepdims, combine)


def reduce_in_order(x: SSAValue, out: SSAValue, axes: Sequence[int], keepdims: bool,
                    combine: Callable[[SSAValue, SSAValue], Operation]) -> GenericOp:  # fmt: skip
    """``reduce_into`` with the reduced loops innermost and nested in the order of ``axes``
    (the first outermost), so each output combines its elements in row-major order of ``axes``
    as listed."""
    rank = len(shape_of(x))
    kept = [a for a in range(rank) if a not in axes]
    loop_of = {axis: AffineExpr.dimension(k) for k, axis in enumerate([*kept, *axes])}
    if keepdims:
        results = [AffineExpr.constant(0) if a in axes else loop_of[a] for a in range(rank)]
    else:
        results = [loop_of[a] for a in kept]
    maps = [affine_map(rank, [loop_of[a] for a in range(rank)]), affine_map(rank, results)]
    return generic([x], [out], maps, lambda v, acc: combine(acc, v).result, reduced=range(len(kept), rank))


def arg_extreme(lowering: OpLowering, op: nc.ArgExtremeOp, ins: list[SSAValue], out: SSAValue) -> None:
    (x,) = ins
    shape = shape_of(x)
    axis = op.axis.value.data % len(shape)
    is_max = isinstance(op, nc.ArgMaxOp)
    best = lowering.scratch("best", tuple(1 if i == axis else s for i, s in enumerate(shape)), float("-inf" if is_max else "inf"))
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


def softmax(lowering: OpLowering, op: nc.SoftmaxOp, ins: list[SSAValue], out: SSAValue) -> None:
    (x,) = ins
    shape = shape_of(x)
    axis = op.axis.value.data % len(shape)
    reduced = tuple(1 if i == axis else s for i, s in enumerate(shape))
    peak = lowering.scratch("peak", reduced, float("-inf"))
    reduce_into(x, peak, (axis,), True, arith.MaximumfOp)
    elementwise([x, peak], out, lambda v, m, _: math.ExpOp(arith.SubfOp(v, m)).result)
    total = lowering.scratch("total", reduced, 0.0)
    reduce_into(out, total, (axis,), True, arith.AddfOp)
    elementwise([total], out, lambda s, e: arith.DivfOp(e, s).result)


def top_k(lowering: OpLowering, op: nc.TopKOp, ins: list[SSAValue], out: SSAValue) -> None:
    """Each element's rank along the axis (how many elements beat it: larger, or equal
    at a lower position) into an i64 scratch; output position ``j`` then takes the
    position whose rank is ``j``."""
    (x,) = ins
    shape, axis = shape_of(x), op.normalized_axis()
    rank = len(shape)
    ranks = lowering.scratch("ranks", shape, 0, element=i64)
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
