"""``nn-slice-weights``: compute a weighted op slice by slice, so one slice of its weight fits on chip.

An op is rewritten into several ops of the same kind, each reading one
contiguous byte range of its weight (a new ``nn.view`` of the same blob), and
their results are joined:

- ``nn.conv2d`` / ``nn.qconv2d`` (OIHW weight): output channels, joined by
  ``nn.concat`` / ``nn.qconcat`` on axis 1. With ``groups > 1`` a slice holds
  whole groups, reads its input channels through ``nn.slice`` and has the
  matching smaller ``groups``. A bias, per-channel weight scales and zero
  points (and TFLite's per-channel fixed-point multipliers) are sliced with the weight.
- ``nn.gemm`` with ``trans_b`` / ``nn.qgemm`` with ``trans_b = 1`` (weight
  [N, K]): rows N, joined on the last axis. A bias of N elements is sliced, a
  broadcasting one kept for every slice.
- ``nn.gemm`` without ``trans_b`` and ``nn.matmul`` of a 2-D weight [K, N]:
  rows K, each slice the product of an ``nn.slice`` of the lhs columns,
  summed with ``nn.add`` (the bias added once). This reorders the float sum, whatever
  ``sum_order`` the op has (every slice keeps it).

The ``qconcat`` joining quantized slices has every input's scale and zero
point equal to the result's, which requantizes each value to itself. A slice's
bytes are the sum of its weight operands' bytes, the bytes ``nn-insert-dma``
transfers for it (before alignment padding).
"""

from __future__ import annotations

import functools
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from math import prod

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, StringAttr, TensorType, i64
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from cfmem.dialects.nn_compute import AddOp, ConcatOp, Conv2dOp, GemmOp, MatmulOp, SliceOp, i64_array
from cfmem.dialects.nn_quant import QConcatOp, QConv2dOp, QGemmOp, f32_array, floats
from cfmem.dialects.nn_weights import ReshapeOp, ViewOp
from cfmem.dialects.types import element_bytes, tensor_bytes
from cfmem.passes.failures import OpFailure
from cfmem.passes.insert_dma import weight_operands
from cfmem.passes.liveness import functions, is_weight, op_position
from cfmem.passes.names import ValueNames
from cfmem.passes.options import checked_options
from cfmem.passes.placement import SLICE_OF_ATTR, SLICES_ATTR
from cfmem.planning.option_checks import check_int



class Unsliceable(Exception):
    """Why an op cannot be sliced (becomes a one-line pass failure when slicing was asked for)."""


def _shape(value: SSAValue) -> tuple[int, ...]:
    return tuple(value.type.get_shape())


@functools.lru_cache(maxsize=4096)
def _with_dim(ty: TensorType, axis: int, size: int) -> TensorType:
    """``ty`` with dimension ``axis`` set to ``size`` (cached: types are immutable, and
    ``nn-place`` slices the same ops again for every placement it measures)."""
    shape = list(ty.get_shape())
    shape[axis] = size
    return TensorType(ty.get_element_type(), shape)


def _hint(base: str | None, suffix: str) -> str | None:
    return f"{base}{suffix}" if base else None


def _root_view(value: SSAValue) -> ViewOp | None:
    op = value.owner
    while isinstance(op, ReshapeOp):
        op = op.input.owner
    return op if isinstance(op, ViewOp) else None


def contiguous_along(value: SSAValue, axis: int) -> bool:
    """A weight whose ranges along ``axis`` are contiguous bytes of a view (the axes before it are 1)."""
    return _root_view(value) is not None and all(d == 1 for d in _shape(value)[:axis])


def unit_bytes(value: SSAValue, axis: int) -> int:
    """Bytes of one index along ``axis`` of ``value``."""
    return prod(_shape(value)[axis + 1 :]) * element_bytes(value.type.get_element_type())


@dataclass
class _Builder:
    """Collects the new ops of one rewrite, inserted before ``op``; each slice is marked
    ``cfmem.slice_of = slice_of``, an id of ``op`` no other op of its function has."""

    op: Operation
    slice_of: str
    new_ops: list[Operation] = field(default_factory=list)

    def add(self, new: Operation, hint: str | None = None) -> SSAValue:
        """Collect ``new``; every new op but a weight view keeps ``op``'s discardable
        attributes (its placement: where its results live, how its weights come)."""
        self.new_ops.append(new)
        new.results[0].name_hint = hint
        if not isinstance(new, ViewOp):
            new.attributes.update({k: v for k, v in self.op.attributes.items() if k != SLICES_ATTR})
        return new.results[0]

    def weight_slice(self, value: SSAValue, axis: int, lo: int, hi: int, k: int) -> SSAValue:
        """A new view of indices [lo, hi) along ``axis`` of weight ``value`` (see ``contiguous_along``)."""
        root = _root_view(value)
        assert root is not None and contiguous_along(value, axis)
        offset = root.offset.value.data + lo * unit_bytes(value, axis)
        return self.add(ViewOp(root.source, offset, _with_dim(value.type, axis, hi - lo)), _hint(value.name_hint, f"_s{k}"))

    def data_slice(self, value: SSAValue, axis: int, lo: int, hi: int, hint: str | None) -> SSAValue:
        """``nn.slice`` of indices [lo, hi) along ``axis`` of a computed tensor."""
        props = {"starts": i64_array([lo]), "ends": i64_array([hi]), "axes": i64_array([axis])}
        new = SliceOp.create(operands=[value], result_types=[_with_dim(value.type, axis, hi - lo)], properties=props)
        return self.add(new, hint)

    def operand_slice(self, value: SSAValue, axis: int, lo: int, hi: int, k: int) -> SSAValue:
        """A weight sliced as a view, anything else through ``nn.slice``."""
        if is_weight(value):
            return self.weight_slice(value, axis, lo, hi, k)
        return self.data_slice(value, axis, lo, hi, _hint(value.name_hint, f"_s{k}"))

    def like(self, operands: list[SSAValue], result_type: TensorType, props: dict, hint: str | None) -> SSAValue:
        """An op of ``op``'s kind with new operands, result type and properties."""
        properties = dict(self.op.properties) | props
        new = type(self.op).create(operands=operands, result_types=[result_type], properties=properties)
        result = self.add(new, hint)
        new.attributes[SLICE_OF_ATTR] = StringAttr(self.slice_of)  # for the timing model and nn-roll-slices
        return result


@dataclass
class _Plan:
    """How an op is cut: ``units`` indices along the sliced axis, each ``per_unit`` bytes of
    weight, ``fixed`` bytes of weight every slice reads whole; ``build`` makes the new ops of
    the given [lo, hi) unit ranges and returns the value replacing the op's result."""

    units: int
    per_unit: int
    fixed: int
    unit_name: str
    build: Callable[[_Builder, list[tuple[int, int]]], SSAValue]


def _refuse_other_weights(op: Operation, allowed: set[SSAValue | None]) -> None:
    """Refuse ``op`` if it reads a weight other than ``allowed`` (which may hold non-weights)."""
    for k, v in enumerate(op.operands):
        if is_weight(v) and v not in allowed:
            raise Unsliceable(f"operand #{k} is a weight that is not sliced with it")


def _per_axis(props: dict, op: Operation, prefix: str, lo: int, hi: int) -> None:
    """Slice a per-axis ``<prefix>_scale``/``<prefix>_zero_point`` property to [lo, hi), and
    per-channel fixed-point multipliers and shifts (``y_multiplier``/``y_shift``) with it."""
    scale = floats(op.properties[f"{prefix}_scale"])
    if len(scale) > 1:
        zero = [int(v) for v in op.properties[f"{prefix}_zero_point"].get_values()]
        props[f"{prefix}_scale"] = f32_array(scale[lo:hi])
        props[f"{prefix}_zero_point"] = i64_array(zero[lo:hi])
    for name in ("y_multiplier", "y_shift"):
        values = [int(v) for v in op.properties[name].get_values()] if name in op.properties else []
        if len(values) > 1:
            props[name] = i64_array(values[lo:hi])


def _join(b: _Builder, parts: list[SSAValue], axis: int) -> SSAValue:
    """The slices' results concatenated along ``axis`` into the original result's type."""
    op, result = b.op, b.op.results[0]
    if isinstance(op, QConv2dOp | QGemmOp) and op.element is not None:
        y_scale = floats(op.y_scale) * len(parts)
        y_zero = [int(v) for v in op.y_zero_point.get_values()] * len(parts)
        props = {"x_scale": f32_array(y_scale), "x_zero_point": i64_array(y_zero), "y_scale": op.y_scale,
                 "y_zero_point": op.y_zero_point, "element": op.element, "axis": IntegerAttr(axis, i64)}  # fmt: skip
        return b.add(QConcatOp.create(operands=parts, result_types=[result.type], properties=props), result.name_hint)
    concat = ConcatOp.create(operands=parts, result_types=[result.type], properties={"axis": IntegerAttr(axis, i64)})
    return b.add(concat, result.name_hint)


def _conv_plan(op: Conv2dOp | QConv2dOp) -> _Plan:
    weight, bias, x = op.weight, op.bias, op.input
    if not contiguous_along(weight, 0):
        raise Unsliceable("its weight is not a view of a blob")
    groups = op.groups.value.data
    out_channels, in_per_group = _shape(weight)[0], _shape(weight)[1]
    per = out_channels // groups if groups > 1 else 1  # output channels of one unit
    sliced_bias = bias is not None and is_weight(bias)  # then a view: a bias is float or i32, a bare blob i8
    _refuse_other_weights(op, {weight, bias})

    def build(b: _Builder, ranges: list[tuple[int, int]]) -> SSAValue:
        parts = []
        name = op.results[0].name_hint
        for k, (u0, u1) in enumerate(ranges):
            c0, c1 = u0 * per, u1 * per
            data = x
            if groups > 1:
                data = b.data_slice(x, 1, u0 * in_per_group, u1 * in_per_group, _hint(name, f"_s{k}_in"))
            operands = [data, b.weight_slice(weight, 0, c0, c1, k)]
            if bias is not None:
                operands.append(b.operand_slice(bias, 0, c0, c1, k))
            props: dict = {"groups": IntegerAttr(u1 - u0, i64)} if groups > 1 else {}
            if isinstance(op, QConv2dOp):
                _per_axis(props, op, "w", c0, c1)
            parts.append(b.like(operands, _with_dim(op.results[0].type, 1, c1 - c0), props, _hint(name, f"_s{k}")))
        return _join(b, parts, 1)

    unit_weight = per * unit_bytes(weight, 0) + (per * unit_bytes(bias, 0) if sliced_bias else 0)
    return _Plan(out_channels // per, unit_weight, 0, "output channel" if per == 1 else "group", build)


def _rows_plan(op: GemmOp | QGemmOp) -> _Plan:
    """Gemm with a weight [N, K] (``trans_b``): slices of rows N, bias sliced along its last axis."""
    weight, c = op.b, op.c
    n = _shape(weight)[0]
    if not contiguous_along(weight, 0):
        raise Unsliceable("its weight is not a view of a blob")
    sliced_c = c is not None and prod(_shape(c)) > 1 and _shape(c)[-1] == n
    last = len(_shape(c)) - 1 if c is not None else 0
    if sliced_c and is_weight(c) and not contiguous_along(c, last):
        raise Unsliceable(f"its bias {list(_shape(c))} is a weight whose columns are not contiguous")
    c_weight = c is not None and is_weight(c)
    _refuse_other_weights(op, {weight, c})

    def build(b: _Builder, ranges: list[tuple[int, int]]) -> SSAValue:
        parts = []
        name = op.results[0].name_hint
        for k, (r0, r1) in enumerate(ranges):
            operands = [op.a, b.weight_slice(weight, 0, r0, r1, k)]
            if c is not None:
                operands.append(b.operand_slice(c, last, r0, r1, k) if sliced_c else c)
            props: dict = {}
            if isinstance(op, QGemmOp):
                _per_axis(props, op, "b", r0, r1)
            parts.append(b.like(operands, _with_dim(op.results[0].type, 1, r1 - r0), props, _hint(name, f"_s{k}")))
        return _join(b, parts, 1)

    per_unit = unit_bytes(weight, 0) + (unit_bytes(c, last) if sliced_c and c_weight else 0)
    fixed = tensor_bytes(c.type) if c_weight and not sliced_c else 0
    return _Plan(n, per_unit, fixed, "row", build)


def _reduction_plan(op: GemmOp | MatmulOp) -> _Plan:
    """Product with a weight [K, N]: slices of rows K, partial products summed with ``nn.add``."""
    lhs, weight = op.operands[0], op.operands[1]  # a view: the weight is float, a bare blob i8
    bias = op.c if isinstance(op, GemmOp) else None
    _refuse_other_weights(op, {weight, bias})
    axis = len(_shape(lhs)) - 1

    order = {"sum_order": op.sum_order} if op.sum_order is not None else {}

    def build(b: _Builder, ranges: list[tuple[int, int]]) -> SSAValue:
        name = op.results[0].name_hint
        result_type = op.results[0].type
        total = None
        for k, (r0, r1) in enumerate(ranges):
            part_lhs = b.data_slice(lhs, axis, r0, r1, _hint(name, f"_s{k}_in"))
            part_weight = b.weight_slice(weight, 0, r0, r1, k)
            if bias is not None and k == 0:
                part = b.like([part_lhs, part_weight, bias], result_type, {}, _hint(name, f"_s{k}"))
            else:
                product = MatmulOp.create(operands=[part_lhs, part_weight], result_types=[result_type], properties=dict(order))
                part = b.add(product, _hint(name, f"_s{k}"))
            last = k == len(ranges) - 1
            total = part if total is None else b.add(AddOp(total, part, result_type), name if last else _hint(name, f"_sum{k}"))
        assert total is not None
        return total

    fixed = tensor_bytes(bias.type) if bias is not None and is_weight(bias) else 0
    return _Plan(_shape(weight)[0], unit_bytes(weight, 0), fixed, "row", build)


def slice_plan(op: Operation) -> _Plan:
    """How ``op`` is sliced; ``Unsliceable`` says why it cannot be."""
    if isinstance(op, Conv2dOp | QConv2dOp):
        if not is_weight(op.weight):
            raise Unsliceable("its weight operand is not a weight")
        return _conv_plan(op)
    if isinstance(op, GemmOp):
        if not is_weight(op.b):
            raise Unsliceable("its b operand is not a weight")
        return _rows_plan(op) if op.trans_b.value.data else _reduction_plan(op)
    if isinstance(op, QGemmOp):
        if not op.trans_b.value.data:
            raise Unsliceable("its weight [K, N] is not trans_b: its N columns are not contiguous, and"
                              " K slices would need int32 partial sums before requantizing")  # fmt: skip
        if not is_weight(op.b):
            raise Unsliceable("its b operand is not a weight")
        return _rows_plan(op)
    if isinstance(op, MatmulOp):
        if len(_shape(op.rhs)) != 2 or not is_weight(op.rhs):
            raise Unsliceable("its rhs is not a 2-D weight")
        return _reduction_plan(op)
    raise Unsliceable("this op kind cannot be sliced")


def checked_plan(op: Operation, weights: list[SSAValue]) -> _Plan:
    """How ``op`` (reading ``weights``) is cut, or the one-line ``OpFailure`` saying why it cannot be."""
    try:
        if not weights:
            raise Unsliceable("it reads no weight")
        return slice_plan(op)
    except Unsliceable as why:
        raise OpFailure(op, f"'{op.name}' {op_position(op)}: cannot slice its weight: {why}") from None


def equal_ranges(units: int, n: int) -> list[tuple[int, int]]:
    """``units`` cut into ``n`` consecutive ranges whose sizes differ by at most one."""
    q, r = divmod(units, n)
    ranges, lo = [], 0
    for k in range(n):
        hi = lo + q + (1 if k < r else 0)
        ranges.append((lo, hi))
        lo = hi
    return ranges


def _erase_dead_weights(values: list[SSAValue]) -> None:
    for value in values:
        op = value.owner
        while isinstance(op, ViewOp | ReshapeOp) and not op.results[0].uses:
            source = op.operands[0]
            Rewriter.erase_op(op)
            op = source.owner


@dataclass(frozen=True)
class SliceWeightsPass(ModulePass):
    """Options: ``max-slice-bytes`` (an op whose weight operands total more is cut into the
    fewest equal-ish slices whose weights fit; absent = only ops marked ``cfmem.slices = N``)."""

    name = "nn-slice-weights"
    max_slice_bytes: int | None = None

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.max_slice_bytes is not None:
            with checked_options():
                check_int("max-slice-bytes", self.max_slice_bytes, 1)
        self.slice_module(op)

    def slice_module(self, op: ModuleOp, verified: bool = True) -> None:
        """Cut every op of ``op`` that asks for slices or is too big; ``verified`` False leaves
        out verifying each new op (for a caller that builds many copies and keeps none)."""
        for fn in functions(op):
            ids = ValueNames(scope=fn)  # before any rewrite: ids stay unique as slices are added
            for inner in list(fn.walk()):
                self.slice_op(inner, verified, ids)

    def slice_count(self, op: Operation, plan: _Plan) -> int:
        """The slices ``op`` asks for, else the fewest that fit ``max-slice-bytes`` (set
        whenever ``slice_op`` asks about an op that gives no count: it is over the budget)."""
        asked = op.attributes.get(SLICES_ATTR)
        if asked is not None:
            return min(asked.value.data, plan.units)
        assert self.max_slice_bytes is not None
        room = self.max_slice_bytes - plan.fixed
        per_slice = room // plan.per_unit if plan.per_unit else plan.units
        if per_slice < 1:
            print(
                f"warning: nn-slice-weights: '{op.name}' {op_position(op)}: one {plan.unit_name} needs"
                f" {plan.fixed + plan.per_unit} bytes of weights, more than max-slice-bytes"
                f" {self.max_slice_bytes}: one {plan.unit_name} per slice",
                file=sys.stderr,
            )
            return plan.units
        return math.ceil(plan.units / per_slice)

    def slice_op(self, op: Operation, verified: bool, ids: ValueNames) -> list[Operation]:
        """Cut ``op`` when it asks for slices or is too big; the new ops, in order (none when
        it is left as it is)."""
        asked = op.attributes.get(SLICES_ATTR)
        if asked is not None and not (isinstance(asked, IntegerAttr) and asked.value.data >= 1):
            raise OpFailure(op, f"'{op.name}' {op_position(op)}: {SLICES_ATTR} must be an integer of at least 1, not {asked}")
        weights = weight_operands(op)
        too_big = self.max_slice_bytes is not None and sum(tensor_bytes(w.type) for w in weights) > self.max_slice_bytes
        if asked is None and not too_big:
            return []
        plan = checked_plan(op, weights)
        n = self.slice_count(op, plan)
        if asked is not None:
            del op.attributes[SLICES_ATTR]
        if n <= 1:
            return []
        builder = _Builder(op, ids(op.results[0]))
        replacement = plan.build(builder, equal_ranges(plan.units, n))
        Rewriter.insert_op(builder.new_ops, InsertPoint.before(op))
        for new in builder.new_ops if verified else ():
            new.verify()
        old_operands = list(op.operands)
        op.results[0].replace_all_uses_with(replacement)
        Rewriter.erase_op(op)
        _erase_dead_weights(old_operands)
        return builder.new_ops
