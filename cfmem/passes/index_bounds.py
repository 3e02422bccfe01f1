"""Upper bounds of ``index`` values, for allocations of dynamic size (``memref-plan-arena``).

A value's bound is an interval ``(low, high)`` of Python ints, either end ``None``
when unknown. It is found from the op that defines the value, looking back through:
integer constants; ``arith`` add, sub, mul, div and rem (by a positive constant),
min, max, select, ``andi`` with a non-negative mask and the integer casts; the
induction variable of an ``scf.for`` (from its bounds); ``affine.apply`` /
``affine.min`` / ``affine.max`` on their map; ``memref.dim`` of a static dimension.
Anything else (a function argument, a loaded value, a loop-carried value) is
unknown. The usual way to give a size a bound is to clamp it:
``arith.minui %n, %c64``. A bound may overestimate, never underestimate, assuming
no index arithmetic overflows.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import IntegerAttr, IntegerType, MemRefType
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr, AffineDimExpr, AffineExpr, AffineSymExpr

Interval = tuple[int | None, int | None]
UNKNOWN: Interval = (None, None)
_DEPTH = 64
"""How many defining ops a bound looks back through (a chain longer than this is unknown)."""


class IndexBounds:
    """The intervals of index values, each worked out once per depth it is asked at (see the
    module docstring): a value's interval does not depend on what was asked before."""

    def __init__(self) -> None:
        self.known: dict[SSAValue, tuple[Interval, int]] = {}
        """Intervals found without reaching the depth: value -> its interval and the depth it needs."""
        self.cut_short: dict[tuple[SSAValue, int], Interval] = {}
        """Intervals that reached the depth: (value, depth asked) -> its interval."""

    def upper_bound(self, value: SSAValue) -> int | None:
        """The largest value ``value`` can take, or None when nothing bounds it."""
        return self.interval(value)[1]

    def interval(self, value: SSAValue, depth: int = _DEPTH) -> Interval:
        """The values ``value`` (an index or integer) can take; unknown past ``depth`` defining
        ops (never unsound: a longer look may only find a tighter interval)."""
        return self._look(value, depth)[0]

    def _look(self, value: SSAValue, depth: int) -> tuple[Interval, int | None]:
        """The interval of ``value`` looking back through at most ``depth`` defining ops, and
        the depth the look needed (None when it reached ``depth``)."""
        if value in self.known and self.known[value][1] <= depth:
            return self.known[value]
        if (value, depth) in self.cut_short:
            return self.cut_short[value, depth], None
        if depth == 0:
            return UNKNOWN, None
        needs: list[int | None] = []

        def of(operand: SSAValue) -> Interval:
            interval, needed = self._look(operand, depth - 1)
            needs.append(needed)
            return interval

        result = UNKNOWN
        if isinstance(value, BlockArgument):
            loop = value.block.parent_op()
            if loop is not None and loop.name == "scf.for" and value.index == 0:  # the induction variable
                low, high = of(loop.operands[0])[0], of(loop.operands[1])[1]
                result = low, None if high is None else high - 1
        else:
            assert isinstance(value.owner, Operation)
            rule = _RULES.get(value.owner.name)
            if rule is not None:
                result = _fits(rule(value.owner, of), value)
        if None in needs:
            self.cut_short[value, depth] = result
            return result, None
        needed = 1 + max((n for n in needs if n is not None), default=0)
        self.known[value] = result, needed
        return result, needed


def _fits(bounds: Interval, value: SSAValue) -> Interval:
    """``bounds``, or unknown when they leave the signed range of ``value``'s integer type."""
    if isinstance(value.type, IntegerType) and value.type.width.data < 64:
        half = 1 << (value.type.width.data - 1)
        if bounds[0] is None or bounds[1] is None or bounds[0] < -half or bounds[1] >= half:
            return UNKNOWN
    return bounds


Of = Callable[[SSAValue], Interval]


def _constant(op: Operation, of: Of) -> Interval:
    value = op.properties.get("value")
    return (value.value.data, value.value.data) if isinstance(value, IntegerAttr) else UNKNOWN


def _same(op: Operation, of: Of) -> Interval:
    return of(op.operands[0])


def _unsigned_cast(op: Operation, of: Of) -> Interval:
    low, high = of(op.operands[0])
    return (low, high) if low is not None and low >= 0 else UNKNOWN


def _add(op: Operation, of: Of) -> Interval:
    (a, b), (c, d) = of(op.operands[0]), of(op.operands[1])
    return _plus(a, c), _plus(b, d)


def _sub(op: Operation, of: Of) -> Interval:
    (a, b), (c, d) = of(op.operands[0]), of(op.operands[1])
    return _plus(a, None if d is None else -d), _plus(b, None if c is None else -c)


def _mul(op: Operation, of: Of) -> Interval:
    return _times(of(op.operands[0]), of(op.operands[1]))


def _div(op: Operation, of: Of) -> Interval:
    dividend = of(op.operands[0])
    if op.name.endswith("ui") and (dividend[0] is None or dividend[0] < 0):  # read as unsigned: huge
        return UNKNOWN
    return _divided(dividend, _positive_constant(of(op.operands[1])))


def _rem(op: Operation, of: Of) -> Interval:
    divisor = _positive_constant(of(op.operands[1]))
    if divisor is None:
        return UNKNOWN
    low, _ = of(op.operands[0])
    return (0 if op.name == "arith.remui" or (low is not None and low >= 0) else 1 - divisor), divisor - 1


def _min_signed(op: Operation, of: Of) -> Interval:
    (a, b), (c, d) = of(op.operands[0]), of(op.operands[1])
    return _lowest(a, c), _smallest_known(b, d)


def _max_signed(op: Operation, of: Of) -> Interval:
    (a, b), (c, d) = of(op.operands[0]), of(op.operands[1])
    return _smallest_known(a, c, pick=max), _lowest(b, d, pick=max)


def _below_a_non_negative_operand(op: Operation, of: Of) -> Interval:
    """``arith.minui`` and ``arith.andi``: as unsigned numbers the result is at most any
    non-negative bounded operand (for ``andi``, its bits are a subset of each operand's)."""
    highs = [high for low, high in map(of, op.operands) if low is not None and low >= 0 and high is not None]
    return (0, min(highs)) if highs else UNKNOWN


def _select(op: Operation, of: Of) -> Interval:
    (a, b), (c, d) = of(op.operands[1]), of(op.operands[2])
    return _lowest(a, c), _lowest(b, d, pick=max)


def _dim(op: Operation, of: Of) -> Interval:
    ty = op.operands[0].type
    low, high = of(op.operands[1])
    if isinstance(ty, MemRefType) and low is not None and low == high and 0 <= low < len(ty.get_shape()):
        size = ty.get_shape()[low]
        return (size, size) if size >= 0 else UNKNOWN
    return UNKNOWN


def _affine(op: Operation, of: Of) -> Interval:
    """``affine.apply`` (one result), ``affine.min`` / ``affine.max`` (the least / greatest result)."""
    affine_map = op.properties["map"].data
    operands = [of(v) for v in op.operands]
    dims, symbols = operands[: affine_map.num_dims], operands[affine_map.num_dims :]
    results = [_affine_expr(e, dims, symbols) for e in affine_map.results]
    if op.name == "affine.min":
        return _lowest(*(r[0] for r in results)), _smallest_known(*(r[1] for r in results))
    if op.name == "affine.max":
        return _smallest_known(*(r[0] for r in results), pick=max), _lowest(*(r[1] for r in results), pick=max)
    return results[0] if len(results) == 1 else UNKNOWN


def _affine_expr(expr: AffineExpr, dims: list[Interval], symbols: list[Interval]) -> Interval:
    if isinstance(expr, AffineConstantExpr):
        return expr.value, expr.value
    if isinstance(expr, AffineDimExpr):
        return dims[expr.position]
    if isinstance(expr, AffineSymExpr):
        return symbols[expr.position]
    assert isinstance(expr, AffineBinaryOpExpr)
    lhs, rhs = _affine_expr(expr.lhs, dims, symbols), _affine_expr(expr.rhs, dims, symbols)
    if expr.kind is AffineBinaryOpKind.Add:
        return _plus(lhs[0], rhs[0]), _plus(lhs[1], rhs[1])
    if expr.kind is AffineBinaryOpKind.Mul:
        return _times(lhs, rhs)
    divisor = _positive_constant(rhs)
    if expr.kind is AffineBinaryOpKind.Mod:
        return (0, divisor - 1) if divisor is not None else UNKNOWN
    return _divided(lhs, divisor)  # floordiv and ceildiv: both within floor(low / d) .. ceil(high / d)


def _plus(a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else a + b


def _times(x: Interval, y: Interval) -> Interval:
    if None in x or None in y:
        if x[0] is not None and y[0] is not None and x[0] >= 0 and y[0] >= 0:
            return x[0] * y[0], None if x[1] is None or y[1] is None else x[1] * y[1]
        return UNKNOWN
    corners = [a * b for a in x for b in y]  # type: ignore[operator]
    return min(corners), max(corners)


def _divided(x: Interval, divisor: int | None) -> Interval:
    if divisor is None:
        return UNKNOWN
    low, high = x
    return (None if low is None else low // divisor), (None if high is None else -(-high // divisor))


def _positive_constant(x: Interval) -> int | None:
    return x[0] if x[0] is not None and x[0] == x[1] and x[0] > 0 else None


def _lowest(*values: int | None, pick: Callable[..., int] = min) -> int | None:
    """``pick`` of ``values``, unknown when any is (the hull of intervals)."""
    return None if any(v is None for v in values) else pick(values)


def _smallest_known(*values: int | None, pick: Callable[..., int] = min) -> int | None:
    """``pick`` of the known ``values`` (the meet: each known one bounds the result)."""
    known = [v for v in values if v is not None]
    return pick(known) if known else None


_RULES: dict[str, Callable[[Operation, Of], Interval]] = {
    "arith.constant": _constant,
    "arith.index_cast": _same,
    "arith.extsi": _same,
    "arith.index_castui": _unsigned_cast,
    "arith.extui": _unsigned_cast,
    "arith.addi": _add,
    "arith.subi": _sub,
    "arith.muli": _mul,
    "arith.divui": _div,
    "arith.divsi": _div,
    "arith.floordivsi": _div,
    "arith.ceildivsi": _div,
    "arith.ceildivui": _div,
    "arith.remui": _rem,
    "arith.remsi": _rem,
    "arith.minsi": _min_signed,
    "arith.maxsi": _max_signed,
    "arith.minui": _below_a_non_negative_operand,
    "arith.andi": _below_a_non_negative_operand,
    "arith.select": _select,
    "memref.dim": _dim,
    "affine.apply": _affine,
    "affine.min": _affine,
    "affine.max": _affine,
}
