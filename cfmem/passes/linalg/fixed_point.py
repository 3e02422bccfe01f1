"""TFLite's fixed-point arithmetic as ``arith`` ops on i32 scalars, for the bodies of the
generics ``nn-lower-to-linalg`` emits for TFLite's integer ops; the same steps, bit for bit, as the
numpy versions in :mod:`cfmem.interp.kernels.fixed_point`.

Additions, subtractions and left shifts wrap as two's complement int32 does (``arith`` ops
without overflow flags); the doubling high multiply works on the i64 product and divides it
with ``arith.divsi``, which truncates toward zero as C's division does. Shift amounts stay
below 32 (``arith.shli``/``shrsi`` of 32 or more would be poison): left shifts up to 30,
rounding right shifts up to 31, as the nn verifier allows.

- :func:`doubling_high_mul`: gemmlowp's ``SaturatingRoundingDoublingHighMul``;
- :func:`rounding_divide_by_pot`: gemmlowp's ``RoundingDivideByPOT`` (halves away from zero);
- :func:`multiply_by_quantized_multiplier`: TFLite's ``MultiplyByQuantizedMultiplier``;
- :func:`rescale`: gemmlowp's ``Rescale`` (a saturating left shift or a rounding division);
- :func:`exp_on_negative_values`, :func:`one_over_one_plus_x_for_x_in_0_1` and
  :func:`reciprocal` (TFLite's ``GetReciprocal``), which int8 SOFTMAX uses;
- :func:`saturate_with_zero_point`: ``value + zero_point`` saturated to a narrower type;
- :class:`FixedPointParams`: a multiplier and shift per tensor (constants in the body) or per
  channel (i32 constant globals read along an axis, as extra generic operands).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import AffineMapAttr, IntegerType, i32, i64
from xdsl.ir import SSAValue

from cfmem.interp.kernels.fixed_point import EXP_BARREL_SHIFTER, INT32_MAX, INT32_MIN
from cfmem.passes.linalg.helpers import affine_map, dims, int_const, integer_range
from cfmem.passes.linalg.op_lowering import OpLowering

Value = int | SSAValue
"""An i32 operand: a number (emitted as a constant) or a value."""


def as_i32(value: Value) -> SSAValue:
    return value if isinstance(value, SSAValue) else int_const(value, i32)


def is_negative(x: SSAValue) -> SSAValue:
    return arith.CmpiOp(x, int_const(0, i32), "slt").result


def doubling_high_mul(a: SSAValue, b: Value) -> SSAValue:
    """gemmlowp's ``SaturatingRoundingDoublingHighMul`` of i32 values: ``(a * b + nudge) / 2^31``
    in i64 (the nudge 2^30, or 1 - 2^30 for a negative product; the division truncating toward
    zero), INT32_MAX when both are INT32_MIN (a check left out for a constant ``b`` other than
    INT32_MIN)."""
    product = arith.MuliOp(arith.ExtSIOp(a, i64), arith.ExtSIOp(as_i32(b), i64)).result
    negative = arith.CmpiOp(product, int_const(0, i64), "slt").result
    nudge = arith.SelectOp(negative, int_const(1 - (1 << 30), i64), int_const(1 << 30, i64)).result
    high = arith.TruncIOp(arith.DivSIOp(arith.AddiOp(product, nudge), int_const(1 << 31, i64)), i32).result
    if isinstance(b, int) and b != INT32_MIN:
        return high
    lowest = int_const(INT32_MIN, i32)
    overflow = arith.AndIOp(arith.CmpiOp(a, lowest, "eq"), arith.CmpiOp(as_i32(b), lowest, "eq")).result
    return arith.SelectOp(overflow, int_const(INT32_MAX, i32), high).result


def rounding_divide_by_pot(x: SSAValue, exponent: Value) -> SSAValue:
    """gemmlowp's ``RoundingDivideByPOT``: ``x >> exponent`` (arithmetic), plus one where the
    remainder ``x & (2^exponent - 1)`` exceeds half the divisor's mask, plus one for negative
    ``x`` (so halves round away from zero); ``exponent`` from 0 to 31 (the mask folded for a
    constant one)."""
    if isinstance(exponent, int):
        if exponent == 0:
            return x
        mask, half_mask = int_const((1 << exponent) - 1, i32), int_const(((1 << exponent) - 1) >> 1, i32)
    else:
        one = int_const(1, i32)
        mask = arith.SubiOp(arith.ShLIOp(one, exponent), one).result
        half_mask = arith.ShRSIOp(mask, one).result
    threshold = arith.AddiOp(half_mask, arith.ExtUIOp(is_negative(x), i32)).result
    above = arith.CmpiOp(arith.AndIOp(x, mask), threshold, "sgt").result
    return arith.AddiOp(arith.ShRSIOp(x, as_i32(exponent)), arith.ExtUIOp(above, i32)).result


def shifted_left(x: SSAValue, amount: Value) -> SSAValue:
    """``x << amount``, wrapping as int32 (``amount`` from 0 to 30)."""
    return x if isinstance(amount, int) and amount == 0 else arith.ShLIOp(x, as_i32(amount)).result


def multiply_by_quantized_multiplier(x: SSAValue, multiplier: Value, left: Value, right: Value) -> SSAValue:
    """TFLite's ``MultiplyByQuantizedMultiplier`` of i32 ``x``, its shift split into ``left``
    (``max(shift, 0)``) and ``right`` (``max(-shift, 0)``): ``x`` shifted left (wrapping), the
    doubling high multiply by the Q31 ``multiplier``, a rounding division by ``2^right``."""
    return rounding_divide_by_pot(doubling_high_mul(shifted_left(x, left), multiplier), right)


def saturating_shift_left(x: SSAValue, exponent: int) -> SSAValue:
    """gemmlowp's ``SaturatingRoundingMultiplyByPOT<exponent>`` for ``exponent > 0``: ``x <<
    exponent`` in i64, saturated to int32."""
    wide = arith.ShLIOp(arith.ExtSIOp(x, i64), int_const(exponent, i64)).result
    clamped = arith.MinSIOp(arith.MaxSIOp(wide, int_const(INT32_MIN, i64)), int_const(INT32_MAX, i64)).result
    return arith.TruncIOp(clamped, i32).result


def rescale(x: SSAValue, integer_bits: int, to_integer_bits: int) -> SSAValue:
    """gemmlowp's ``Rescale<to_integer_bits>`` of a fixed-point number with ``integer_bits``."""
    exponent = integer_bits - to_integer_bits
    return saturating_shift_left(x, exponent) if exponent > 0 else rounding_divide_by_pot(x, -exponent)


def wrapping_add(a: Value, b: Value) -> SSAValue:
    return arith.AddiOp(as_i32(a), as_i32(b)).result


def exp_on_interval_between_negative_one_quarter_and_0_excl(a: SSAValue) -> SSAValue:
    """gemmlowp's exp of a Q0.31 value in [-1/4, 0): a Taylor expansion around -1/8."""
    constant_term, one_third = 1895147668, 715827883  # exp(-1/8), 1/3
    x = wrapping_add(a, 1 << 28)
    x2 = doubling_high_mul(x, x)
    x3 = doubling_high_mul(x2, x)
    x4_over_4 = rounding_divide_by_pot(doubling_high_mul(x2, x2), 2)
    cubic = wrapping_add(doubling_high_mul(wrapping_add(x4_over_4, x3), one_third), x2)
    polynomial = rounding_divide_by_pot(cubic, 1)
    return wrapping_add(constant_term, doubling_high_mul(as_i32(constant_term), wrapping_add(x, polynomial)))


def exp_on_negative_values(a: SSAValue, integer_bits: int) -> SSAValue:
    """gemmlowp's ``exp_on_negative_values`` of a fixed-point value ``a <= 0`` with
    ``integer_bits`` (at most 5), in Q0.31: the exp of ``a`` modulo 1/4, times ``exp(-2^k)``
    (:data:`~cfmem.interp.kernels.fixed_point.EXP_BARREL_SHIFTER`) for each bit k of the rest;
    1 (INT32_MAX) at 0."""
    assert integer_bits <= 5, "the clamp below -32 of more integer bits is not built"
    fractional_bits = 31 - integer_bits
    one_quarter = 1 << (fractional_bits - 2)
    a_mod_quarter_minus_one_quarter = arith.SubiOp(arith.AndIOp(a, as_i32(one_quarter - 1)), as_i32(one_quarter)).result
    result = exp_on_interval_between_negative_one_quarter_and_0_excl(rescale(a_mod_quarter_minus_one_quarter, integer_bits, 0))
    remainder = arith.SubiOp(a_mod_quarter_minus_one_quarter, a).result
    for exponent, multiplier in EXP_BARREL_SHIFTER:
        if integer_bits > exponent:
            bit = arith.AndIOp(remainder, as_i32(1 << (fractional_bits + exponent))).result
            taken = arith.CmpiOp(bit, as_i32(0), "ne").result
            result = arith.SelectOp(taken, doubling_high_mul(result, multiplier), result).result
    return arith.SelectOp(arith.CmpiOp(a, as_i32(0), "eq"), as_i32(INT32_MAX), result).result


def one_over_one_plus_x_for_x_in_0_1(a: SSAValue) -> SSAValue:
    """gemmlowp's ``1 / (1 + a)`` of a Q0.31 value in [0, 1), in Q0.31: three Newton-Raphson
    steps in Q2.29 from ``48/17 - 32/17 * d`` on the rounded half sum ``d = (a + 1) / 2``
    (taken in i64: ``(a + INT32_MAX + 1) >> 1``, the sum being positive)."""
    total = arith.AddiOp(arith.ExtSIOp(a, i64), int_const(INT32_MAX + 1, i64)).result
    half_denominator = arith.TruncIOp(arith.ShRSIOp(total, int_const(1, i64)), i32).result
    one = 1 << 29  # 1 in Q2.29
    x = wrapping_add(1515870810, doubling_high_mul(half_denominator, -1010580540))  # 48/17, -32/17
    for _ in range(3):
        one_minus_half_denominator_times_x = arith.SubiOp(as_i32(one), doubling_high_mul(half_denominator, x)).result
        x = wrapping_add(x, rescale(doubling_high_mul(x, one_minus_half_denominator_times_x), 4, 2))
    return rescale(x, 1, 0)


def reciprocal(x: SSAValue, integer_bits: int) -> tuple[SSAValue, SSAValue]:
    """TFLite's ``GetReciprocal`` of a positive fixed-point value with ``integer_bits``: the
    Q0.31 reciprocal of ``x`` shifted into [1, 2) by its leading zeros (``math.ctlz``), and
    ``num_bits_over_unit``, ``integer_bits`` less those zeros."""
    leading_zeros = math.CountLeadingZerosOp(x).result
    shifted_sum_minus_one = arith.SubiOp(arith.ShLIOp(x, leading_zeros), as_i32(INT32_MIN)).result
    return one_over_one_plus_x_for_x_in_0_1(shifted_sum_minus_one), arith.SubiOp(as_i32(integer_bits), leading_zeros).result


def saturate_with_zero_point(x: SSAValue, zero_point: int, element: IntegerType) -> SSAValue:
    """``x + zero_point`` saturated to ``element`` (i8, ui8 or i16): ``x`` is clamped to the
    range less the zero point first, so the sum cannot wrap, as the numpy kernels' int64 sum
    does not."""
    low, high = integer_range(element)
    clamped = arith.MinSIOp(arith.MaxSIOp(x, int_const(low - zero_point, i32)), int_const(high - zero_point, i32)).result
    shifted = arith.AddiOp(clamped, int_const(zero_point, i32)).result
    return arith.TruncIOp(shifted, element).result


@dataclass(frozen=True)
class FixedPointParams:
    """A TFLite multiplier and shift, per tensor or one per channel along an axis.

    Per channel, ``operands`` are the i32 constant globals of the multipliers and of the left
    and right shifts, read along the axis through ``maps``; ``scalars`` picks the values for one
    element out of the generic body's extra block arguments (numbers when per tensor)."""

    multiplier: np.ndarray
    shift: np.ndarray

    def per_channel(self) -> bool:
        return self.multiplier.size > 1

    def parts(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The multipliers, left shifts and right shifts, as int32."""
        return (self.multiplier.astype(np.int32), np.maximum(self.shift, 0).astype(np.int32),
                np.maximum(-self.shift, 0).astype(np.int32))  # fmt: skip

    def operands(self, lowering: OpLowering, prefix: str, axis: int, rank: int) -> tuple[list[SSAValue], list[AffineMapAttr]]:
        if not self.per_channel():
            return [], []
        names = (f"{prefix}_multiplier", f"{prefix}_left_shift", f"{prefix}_right_shift")
        along = affine_map(rank, [dims(rank)[axis]])
        return [lowering.globals.get(name, part) for name, part in zip(names, self.parts(), strict=True)], [along] * 3

    def scalars(self, args: Sequence[SSAValue]) -> tuple[Value, Value, Value]:
        if self.per_channel():
            return args[0], args[1], args[2]
        return tuple(int(part[0]) for part in self.parts())  # type: ignore[return-value]
