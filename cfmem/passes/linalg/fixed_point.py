"""TFLite's fixed-point arithmetic as ``arith`` ops on i32 scalars, for the bodies of the
generics ``nn-lower-to-linalg`` emits for TFLite's int8 ops; the same steps, bit for bit, as the
numpy versions in :mod:`cfmem.interp.kernels.fixed_point`.

Additions, subtractions and left shifts wrap as two's complement int32 does (``arith`` ops
without overflow flags); the doubling high multiply works on the i64 product and divides it
with ``arith.divsi``, which truncates toward zero as C's division does. Shift amounts stay
below 32 (``arith.shli``/``shrsi`` of 32 or more would be poison): left shifts up to 30,
rounding right shifts up to 31, as the nn verifier allows.

- :func:`doubling_high_mul`: gemmlowp's ``SaturatingRoundingDoublingHighMul``;
- :func:`rounding_divide_by_pot`: gemmlowp's ``RoundingDivideByPOT`` (halves away from zero);
- :func:`multiply_by_quantized_multiplier`: TFLite's ``MultiplyByQuantizedMultiplier``;
- :func:`saturate_with_zero_point`: ``value + zero_point`` saturated to an 8-bit type;
- :class:`FixedPointParams`: a multiplier and shift per tensor (constants in the body) or per
  channel (i32 constant globals read along an axis, as extra generic operands).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import AffineMapAttr, IntegerType, i32, i64
from xdsl.ir import SSAValue

from cfmem.interp.kernels.fixed_point import INT32_MAX, INT32_MIN
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
    zero), INT32_MAX when both are INT32_MIN."""
    b = as_i32(b)
    product = arith.MuliOp(arith.ExtSIOp(a, i64), arith.ExtSIOp(b, i64)).result
    negative = arith.CmpiOp(product, int_const(0, i64), "slt").result
    nudge = arith.SelectOp(negative, int_const(1 - (1 << 30), i64), int_const(1 << 30, i64)).result
    high = arith.TruncIOp(arith.DivSIOp(arith.AddiOp(product, nudge), int_const(1 << 31, i64)), i32).result
    lowest = int_const(INT32_MIN, i32)
    overflow = arith.AndIOp(arith.CmpiOp(a, lowest, "eq"), arith.CmpiOp(b, lowest, "eq")).result
    return arith.SelectOp(overflow, int_const(INT32_MAX, i32), high).result


def rounding_divide_by_pot(x: SSAValue, exponent: Value) -> SSAValue:
    """gemmlowp's ``RoundingDivideByPOT``: ``x >> exponent`` (arithmetic), plus one where the
    remainder ``x & (2^exponent - 1)`` exceeds half the divisor's mask, plus one for negative
    ``x`` (so halves round away from zero); ``exponent`` from 0 to 31."""
    if isinstance(exponent, int) and exponent == 0:
        return x
    exponent = as_i32(exponent)
    one = int_const(1, i32)
    mask = arith.SubiOp(arith.ShLIOp(one, exponent), one).result
    threshold = arith.AddiOp(arith.ShRSIOp(mask, one), arith.ExtUIOp(is_negative(x), i32)).result
    above = arith.CmpiOp(arith.AndIOp(x, mask), threshold, "sgt").result
    return arith.AddiOp(arith.ShRSIOp(x, exponent), arith.ExtUIOp(above, i32)).result


def shifted_left(x: SSAValue, amount: Value) -> SSAValue:
    """``x << amount``, wrapping as int32 (``amount`` from 0 to 30)."""
    return x if isinstance(amount, int) and amount == 0 else arith.ShLIOp(x, as_i32(amount)).result


def multiply_by_quantized_multiplier(x: SSAValue, multiplier: Value, left: Value, right: Value) -> SSAValue:
    """TFLite's ``MultiplyByQuantizedMultiplier`` of i32 ``x``, its shift split into ``left``
    (``max(shift, 0)``) and ``right`` (``max(-shift, 0)``): ``x`` shifted left (wrapping), the
    doubling high multiply by the Q31 ``multiplier``, a rounding division by ``2^right``."""
    return rounding_divide_by_pot(doubling_high_mul(shifted_left(x, left), multiplier), right)


def saturate_with_zero_point(x: SSAValue, zero_point: int, element: IntegerType) -> SSAValue:
    """``x + zero_point`` saturated to the 8-bit ``element`` (i8 or ui8): ``x`` is clamped to the
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
