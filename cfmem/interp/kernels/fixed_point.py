"""TFLite's fixed-point arithmetic, as TFLite Micro's reference kernels compute it: its
requantization and gemmlowp's fixed-point functions (``fixedpoint/fixedpoint.h``) that its int8
SOFTMAX uses, vectorized over numpy arrays.

Every value is an int32 held in an int64 array (intermediates never leave int64); additions
and subtractions of fixed-point numbers wrap as int32 arithmetic does, the products and shifts
round and saturate exactly as gemmlowp's scalar code does. Arrays broadcast: a per-channel
multiplier and shift apply along their axis.

- ``MultiplyByQuantizedMultiplier(x, multiplier, shift)`` with TFLite's default double
  rounding: ``x`` shifted left by ``max(shift, 0)`` (wrapping as int32), gemmlowp's
  ``SaturatingRoundingDoublingHighMul`` with the Q31 ``multiplier`` (the high 32 bits of the
  doubled 64-bit product, nudged by half and truncated toward zero), then gemmlowp's
  ``RoundingDivideByPOT`` by ``max(-shift, 0)`` (halves rounded away from zero);
- TFLite's ``QuantizeMultiplier``, which derives a multiplier and shift from a real scale, and
  ``PreprocessSoftmaxScaling`` and ``CalculateInputRadius``, which derive SOFTMAX's;
- gemmlowp's ``exp_on_negative_values`` (with the Taylor step on [-1/4, 0) and the barrel
  shifter of ``exp(-2^k)`` constants), ``one_over_one_plus_x_for_x_in_0_1`` (three
  Newton-Raphson steps), ``Rescale`` and ``SaturatingRoundingMultiplyByPOT``, and TFLite's
  ``GetReciprocal``. A fixed-point number with ``n`` integer bits is an int32 raw value over
  2^(31 - n).
"""

from __future__ import annotations

import math

import numpy as np
from xdsl.ir import Operation

from cfmem.interp.kernels.attributes import _ints

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1


class TfliteAbort(Exception):
    """A computation TFLite Micro stops on (a ``TFLITE_CHECK`` that fails aborts the program)."""


def wrap_int32(values: np.ndarray) -> np.ndarray:
    """int64 values wrapped to int32, as two's complement arithmetic does (kept as int64)."""
    return np.asarray(values, np.int64).astype(np.int32).astype(np.int64)


def saturating_rounding_doubling_high_mul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """gemmlowp's ``SaturatingRoundingDoublingHighMul`` of int32 values: ``(a * b + nudge) /
    2^31`` (C division, toward zero; the nudge is 2^30, or 1 - 2^30 for a negative product),
    INT32_MAX when both are INT32_MIN."""
    a, b = np.asarray(a, np.int64), np.asarray(b, np.int64)
    product = a * b
    nudged = product + np.where(product >= 0, np.int64(1 << 30), np.int64(1 - (1 << 30)))
    high = np.where(nudged >= 0, nudged >> 31, -((-nudged) >> 31))
    return np.where((a == INT32_MIN) & (b == INT32_MIN), np.int64(INT32_MAX), high)


def rounding_divide_by_pot(x: np.ndarray, exponent) -> np.ndarray:
    """gemmlowp's ``RoundingDivideByPOT``: ``x / 2^exponent`` rounded to nearest, halves away
    from zero (``exponent`` from 0 to 31)."""
    x, exponent = np.asarray(x, np.int64), np.asarray(exponent, np.int64)
    mask = (np.int64(1) << exponent) - 1
    threshold = (mask >> 1) + (x < 0)
    return (x >> exponent) + ((x & mask) > threshold)


def saturating_rounding_multiply_by_pot(x: np.ndarray, exponent: int) -> np.ndarray:
    """gemmlowp's ``SaturatingRoundingMultiplyByPOT<exponent>``: a left shift saturating to
    int32, or :func:`rounding_divide_by_pot` for a negative ``exponent``."""
    x = np.asarray(x, np.int64)
    if exponent >= 0:
        return np.clip(x << exponent, INT32_MIN, INT32_MAX)
    return rounding_divide_by_pot(x, -exponent)


def rescale(x: np.ndarray, integer_bits: int, to_integer_bits: int) -> np.ndarray:
    """gemmlowp's ``Rescale<to_integer_bits>`` of a fixed-point number with ``integer_bits``."""
    return saturating_rounding_multiply_by_pot(x, integer_bits - to_integer_bits)


def multiply_by_quantized_multiplier(x: np.ndarray, multiplier: np.ndarray, shift: np.ndarray) -> np.ndarray:
    """TFLite's ``MultiplyByQuantizedMultiplier`` of int32 values ``x`` (any integer array)."""
    shift = np.asarray(shift, np.int64)
    shifted = wrap_int32(np.asarray(x, np.int64) * (np.int64(1) << np.maximum(shift, 0)))
    return rounding_divide_by_pot(saturating_rounding_doubling_high_mul(shifted, multiplier), np.maximum(-shift, 0))


def _exp_on_interval_between_negative_one_quarter_and_0_excl(a: np.ndarray) -> np.ndarray:
    """gemmlowp's exp of a Q0.31 value in [-1/4, 0): a Taylor expansion around -1/8."""
    constant_term, one_third = 1895147668, 715827883  # exp(-1/8), 1/3
    x = wrap_int32(a + (1 << 28))
    x2 = saturating_rounding_doubling_high_mul(x, x)
    x3 = saturating_rounding_doubling_high_mul(x2, x)
    x4 = saturating_rounding_doubling_high_mul(x2, x2)
    x4_over_4 = rounding_divide_by_pot(x4, 2)
    cubic = wrap_int32(saturating_rounding_doubling_high_mul(wrap_int32(x4_over_4 + x3), one_third) + x2)
    polynomial = rounding_divide_by_pot(cubic, 1)
    return wrap_int32(constant_term + saturating_rounding_doubling_high_mul(constant_term, wrap_int32(x + polynomial)))


EXP_BARREL_SHIFTER = ((-2, 1672461947), (-1, 1302514674), (0, 790015084), (1, 290630308), (2, 39332535), (3, 720401), (4, 242))
"""gemmlowp's ``exp(-2^k)`` in Q0.31, for k from -2 to 4."""


def exp_on_negative_values(a: np.ndarray, integer_bits: int) -> np.ndarray:
    """gemmlowp's ``exp_on_negative_values`` of fixed-point values ``a <= 0`` with
    ``integer_bits``, in Q0.31: the exp of ``a`` modulo 1/4 (shifted into [-1/4, 0)), times
    ``exp(-2^k)`` for each bit k of the rest; 0 (below -32, with more than 5 integer bits)
    and 1 (INT32_MAX, at 0) exactly."""
    a = np.asarray(a, np.int64)
    fractional_bits = 31 - integer_bits
    one_quarter = 1 << (fractional_bits - 2)
    a_mod_quarter_minus_one_quarter = wrap_int32((a & (one_quarter - 1)) - one_quarter)
    result = _exp_on_interval_between_negative_one_quarter_and_0_excl(rescale(a_mod_quarter_minus_one_quarter, integer_bits, 0))
    remainder = wrap_int32(a_mod_quarter_minus_one_quarter - a)
    for exponent, multiplier in EXP_BARREL_SHIFTER:
        if integer_bits > exponent:
            bit = (remainder & (np.int64(1) << (fractional_bits + exponent))) != 0
            result = np.where(bit, saturating_rounding_doubling_high_mul(result, multiplier), result)
    if integer_bits > 5:
        result = np.where(a < -(1 << (36 - integer_bits)), 0, result)
    return np.where(a == 0, np.int64(INT32_MAX), result)


def one_over_one_plus_x_for_x_in_0_1(a: np.ndarray) -> np.ndarray:
    """gemmlowp's ``1 / (1 + a)`` of Q0.31 values in [0, 1), in Q0.31: three Newton-Raphson
    steps in Q2.29 from ``48/17 - 32/17 * d`` on the rounded half sum ``d = (a + 1) / 2``."""
    a = np.asarray(a, np.int64)
    total = a + INT32_MAX
    half_denominator = total + np.where(total >= 0, 1, -1)
    half_denominator = np.where(half_denominator >= 0, half_denominator >> 1, -((-half_denominator) >> 1))
    one = 1 << 29  # 1 in Q2.29
    x = wrap_int32(1515870810 + saturating_rounding_doubling_high_mul(half_denominator, -1010580540))  # 48/17, -32/17
    for _ in range(3):
        one_minus_half_denominator_times_x = wrap_int32(one - saturating_rounding_doubling_high_mul(half_denominator, x))
        x = wrap_int32(x + rescale(saturating_rounding_doubling_high_mul(x, one_minus_half_denominator_times_x), 4, 2))
    return rescale(x, 1, 0)


def get_reciprocal(x: np.ndarray, integer_bits: int) -> tuple[np.ndarray, np.ndarray]:
    """TFLite's ``GetReciprocal`` of positive fixed-point values with ``integer_bits``: the
    Q0.31 reciprocal of ``x`` shifted into [1, 2) (by its leading zeros) and the number of
    bits that shift took above the unit (``num_bits_over_unit``)."""
    unsigned = np.asarray(x, np.int64) & 0xFFFFFFFF
    leading_zeros = 32 - np.frexp(unsigned.astype(np.float64))[1].astype(np.int64)  # exact below 2^53
    shifted_sum_minus_one = wrap_int32(((unsigned << leading_zeros) & 0xFFFFFFFF) - (1 << 31))
    return one_over_one_plus_x_for_x_in_0_1(shifted_sum_minus_one), integer_bits - leading_zeros


def fixed_point(op: Operation, prefix: str) -> tuple[np.ndarray, np.ndarray] | None:
    """``<prefix>_multiplier`` and ``<prefix>_shift`` of ``op`` as int64 arrays, or None."""
    if f"{prefix}_multiplier" not in op.properties:
        return None
    return (np.array(_ints(op.properties[f"{prefix}_multiplier"]), np.int64),
            np.array(_ints(op.properties[f"{prefix}_shift"]), np.int64))  # fmt: skip


def requantize_fixed_point(acc: np.ndarray, multiplier: np.ndarray, shift: np.ndarray, zero_point: int,
                           dtype: np.dtype) -> np.ndarray:  # fmt: skip
    """An int32 sum (wrapped, as TFLite's accumulator wraps) scaled by ``multiplier`` and
    ``shift``, plus ``zero_point``, saturated to ``dtype``."""
    scaled = multiply_by_quantized_multiplier(wrap_int32(acc), multiplier, shift) + zero_point
    info = np.iinfo(dtype)
    return np.clip(scaled, info.min, info.max).astype(dtype)


def quantize_multiplier(real: float) -> tuple[int, int]:
    """TFLite's ``QuantizeMultiplier``: ``real`` as a Q31 multiplier and a shift (``real ~=
    multiplier * 2^(shift - 31)``): ``frexp``'s fraction times 2^31 rounded half away from
    zero, a fraction that rounds up to 2^31 halved, a shift below -31 flushed to zero."""
    if real == 0.0:
        return 0, 0
    fraction, shift = math.frexp(real)
    q_fixed = int(math.copysign(math.floor(abs(fraction) * 2**31 + 0.5), fraction))  # std::round of a double
    if q_fixed == 2**31:
        q_fixed //= 2
        shift += 1
    if shift < -31:
        return 0, 0
    return q_fixed, shift


SOFTMAX_DIFF_INTEGER_BITS = 5
"""The integer bits of int8 SOFTMAX's scaled differences (Q5.26), ``kScaledDiffIntegerBits``."""


def preprocess_softmax_scaling(beta: float, input_scale: float) -> tuple[int, int] | None:
    """TFLite's ``PreprocessSoftmaxScaling`` for int8 SOFTMAX: the multiplier and left shift of
    ``beta * input_scale * 2^26`` (capped at 2^31 - 1) in double, or None where TFLite Micro
    stops (``QuantizeMultiplierGreaterThanOne`` of a real not above 1)."""
    real = min(beta * input_scale * float(1 << (31 - SOFTMAX_DIFF_INTEGER_BITS)), float((1 << 31) - 1))
    if not real > 1.0:
        return None
    return quantize_multiplier(real)


def softmax_diff_min(left_shift: int) -> int:
    """TFLite's ``diff_min`` of int8 SOFTMAX: minus ``CalculateInputRadius(5, left_shift)``, the
    floor of ``31 * 2^26 / 2^left_shift`` (differences below it count as exp 0)."""
    radius = ((1 << SOFTMAX_DIFF_INTEGER_BITS) - 1) << (31 - SOFTMAX_DIFF_INTEGER_BITS)
    return -(radius >> left_shift)
