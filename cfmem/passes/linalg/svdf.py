"""TFLite's integer SVDF in ``nn-lower-to-linalg`` (``nn.qsvdf_state``, ``nn.qsvdf``), bit for
bit with :mod:`cfmem.interp.kernels` (TFLite Micro's ``EvalIntegerSvdfReference``), with no
scratch: each dot product is summed in the body of its generic (an ``scf.for`` carrying the i32
sum, wrapping as TFLite's int32 accumulator does).

- ``qsvdf_state``: the state shifted one place toward the oldest (one generic over the result,
  each element loading the next one of the state, the index held at the last), then each
  filter's newest value (a generic over the strided view of the result's last memory
  positions): the dot product of the input less its zero point with the filter's feature
  weights, ``MultiplyByQuantizedMultiplier``, saturated to the state's type, plus the state's
  zero point, truncated (so wrapping) into the state's type;
- ``qsvdf``: one generic over the output: the bias plus, for each of the unit's ``rank``
  filters, the dot product of its memory less the state's zero point with its time weights,
  requantized, plus ``y_zero_point``, saturated to i8.

Weight zero points are 0 (TFLite's SVDF has none); the kernels read none either.
"""

from __future__ import annotations

from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import i32
from xdsl.dialects.linalg.ops import IndexOp
from xdsl.ir import SSAValue
from xdsl.ir.affine import AffineExpr

from cfmem.dialects import nn_quant as nq
from cfmem.interp.kernels.fixed_point import fixed_point
from cfmem.passes.linalg.fixed_point import FixedPointParams, multiply_by_quantized_multiplier, saturate_with_zero_point
from cfmem.passes.linalg.helpers import (
    accumulate,
    affine_map,
    generic,
    identity,
    index_const,
    int_const,
    integer_range,
    ints,
    shape_of,
    update,
    widened,
)
from cfmem.passes.linalg.op_lowering import OpLowering


def centered_dot(count: int, lhs: SSAValue, lhs_at, lhs_zero: int, rhs: SSAValue, rhs_at, start: SSAValue) -> SSAValue:
    """``start + sum_k (lhs[lhs_at(k)] - lhs_zero) * rhs[rhs_at(k)]`` over ``k < count`` in i32
    (wrapping), the indices built from the loop's index by ``lhs_at`` and ``rhs_at``."""
    def term(k: SSAValue, total: SSAValue) -> SSAValue:
        a = arith.SubiOp(widened(memref.LoadOp.get(lhs, lhs_at(k)).res), int_const(lhs_zero, i32)).result
        b = widened(memref.LoadOp.get(rhs, rhs_at(k)).res)
        return arith.AddiOp(total, arith.MuliOp(a, b)).result

    return accumulate(count, start, term)


def qsvdf_state(lowering: OpLowering, op: nq.QSvdfStateOp, ins: list[SSAValue], out: SSAValue) -> None:
    x, weights, state = ins
    batch, inputs = shape_of(x)
    filters, size = shape_of(weights)[0], shape_of(state)[1]
    memory = size // filters
    (x_zero,), (state_zero,) = ints(op.x_zero_point), ints(op.state_zero_point)
    scalars = FixedPointParams(*fixed_point(op, "state")).scalars(())
    element = out.type.get_element_type()
    low, high = integer_range(element)

    def older(_: SSAValue) -> SSAValue:
        b, j = IndexOp(0).result, IndexOp(1).result
        following = arith.MinSIOp(arith.AddiOp(j, index_const(1)), index_const(size - 1)).result
        return memref.LoadOp.get(state, [b, following]).res

    update(out, older)
    ones = [1, memory]
    newest_type = memref.SubviewOp.infer_result_type(out.type, [0, memory - 1], [batch, filters], ones)
    newest = memref.SubviewOp.get(out, [0, memory - 1], [batch, filters], ones, newest_type).result

    def newest_value(_: SSAValue) -> SSAValue:
        b, f = IndexOp(0).result, IndexOp(1).result
        dot = centered_dot(inputs, x, lambda i: [b, i], x_zero, weights, lambda i: [f, i], int_const(0, i32))
        scaled = multiply_by_quantized_multiplier(dot, *scalars)
        clamped = arith.MinSIOp(arith.MaxSIOp(scaled, int_const(low, i32)), int_const(high, i32)).result
        return arith.TruncIOp(arith.AddiOp(clamped, int_const(state_zero, i32)), element).result

    update(newest, newest_value)


def qsvdf(lowering: OpLowering, op: nq.QSvdfOp, ins: list[SSAValue], out: SSAValue) -> None:
    state, weights, *bias = ins
    memory = shape_of(weights)[1]
    rank = op.rank.value.data
    (state_zero,), (y_zero,) = ints(op.state_zero_point), ints(op.y_zero_point)
    scalars = FixedPointParams(*fixed_point(op, "y")).scalars(())
    element = out.type.get_element_type()

    def unit(*args: SSAValue) -> SSAValue:
        b, u = IndexOp(0).result, IndexOp(1).result
        start = args[0] if bias else int_const(0, i32)

        def with_filter(r: SSAValue, total: SSAValue) -> SSAValue:
            f = arith.AddiOp(arith.MuliOp(u, index_const(rank)), r).result
            first = arith.MuliOp(f, index_const(memory)).result
            return centered_dot(memory, state, lambda t: [b, arith.AddiOp(first, t).result], state_zero, weights, lambda t: [f, t], total)

        total = accumulate(rank, start, with_filter)
        return saturate_with_zero_point(multiply_by_quantized_multiplier(total, *scalars), y_zero, element)

    if bias:
        generic(bias, [out], [affine_map(2, [AffineExpr.dimension(1)]), identity(2)], unit)
    else:
        update(out, unit)
