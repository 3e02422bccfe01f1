"""TFLite's fixed-point requantization, as TFLite Micro's reference kernels compute it.

``MultiplyByQuantizedMultiplier(x, multiplier, shift)`` with TFLite's default double rounding:
``x`` shifted left by ``max(shift, 0)`` (wrapping as int32), gemmlowp's
``SaturatingRoundingDoublingHighMul`` with the Q31 ``multiplier`` (the high 32 bits of the
doubled 64-bit product, nudged by half and truncated toward zero), then gemmlowp's
``RoundingDivideByPOT`` by ``max(-shift, 0)`` (halves rounded away from zero). Arrays
broadcast: a per-channel multiplier and shift apply along their axis. Also TFLite's
``QuantizeMultiplier``, which derives a multiplier and shift from a real scale.
"""

from __future__ import annotations

import math

import numpy as np
from xdsl.ir import Operation

from cfmem.interp.kernels.attributes import _ints

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1


def wrap_int32(values: np.ndarray) -> np.ndarray:
    """int64 values wrapped to int32, as two's complement arithmetic does (kept as int64)."""
    return np.asarray(values, np.int64).astype(np.int32).astype(np.int64)


def multiply_by_quantized_multiplier(x: np.ndarray, multiplier: np.ndarray, shift: np.ndarray) -> np.ndarray:
    """TFLite's ``MultiplyByQuantizedMultiplier`` of int32 values ``x`` (any integer array)."""
    x = np.asarray(x, np.int64)
    multiplier, shift = np.asarray(multiplier, np.int64), np.asarray(shift, np.int64)
    left, right = np.maximum(shift, 0), np.maximum(-shift, 0)
    shifted = wrap_int32(x * (np.int64(1) << left))
    product = shifted * multiplier
    nudged = product + np.where(product >= 0, np.int64(1 << 30), np.int64(1 - (1 << 30)))
    high = np.where(nudged >= 0, nudged >> 31, -((-nudged) >> 31))  # C division by 2^31, toward zero
    overflow = (shifted == INT32_MIN) & (multiplier == INT32_MIN)
    high = np.where(overflow, INT32_MAX, high)
    mask = (np.int64(1) << right) - 1
    remainder = high & mask
    threshold = (mask >> 1) + (high < 0)
    return (high >> right) + (remainder > threshold)


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
