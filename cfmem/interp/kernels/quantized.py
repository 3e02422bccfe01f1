"""The quantized ops, as onnxruntime's x86 CPU kernels compute them, bit for bit.

Integer sums are exact and wrap to int32 as MLAS accumulates them (two's complement); the
float32 operations of each op's MLAS kernel run in the same order, each rounded once (each
kernel's docstring names the onnxruntime path it follows). Zero points are of their element
type, as the nn verifier requires. The ops with TFLite's fixed-point parameters,
``nn.qsoftmax``, ``nn.qrequantize``, ``nn.qsvdf_state`` and ``nn.qsvdf``, compute what TFLite
Micro's reference kernels compute instead
(:mod:`~cfmem.interp.kernels.fixed_point`).
"""

from __future__ import annotations

import numpy as np
from xdsl.ir import Operation

from cfmem.dialects import nn_quant as nq
from cfmem.dialects.shapes import normalize_axis
from cfmem.interp.kernels.attributes import _ints
from cfmem.interp.kernels.fixed_point import (
    SOFTMAX_DIFF_INTEGER_BITS,
    TfliteAbort,
    exp_on_negative_values,
    fixed_point,
    get_reciprocal,
    multiply_by_quantized_multiplier,
    requantize_fixed_point,
    rescale,
    rounding_divide_by_pot,
    saturating_rounding_doubling_high_mul,
    softmax_diff_min,
    wrap_int32,
)
from cfmem.interp.kernels.nn import conv2d
from cfmem.interp.weights import numpy_dtype


def quant_params(op: Operation, prefix: str) -> tuple[np.ndarray, np.ndarray]:
    """``<prefix>_scale`` as float32 and ``<prefix>_zero_point`` as int64 arrays."""
    scale = np.array(nq.floats(op.properties[f"{prefix}_scale"]), np.float32)
    return scale, np.array(_ints(op.properties[f"{prefix}_zero_point"]), np.int64)


def _along(values: np.ndarray, axis: int, rank: int) -> np.ndarray:
    """A per-axis parameter shaped to broadcast along ``axis`` of a rank-``rank`` tensor
    (a one-element parameter is a scalar)."""
    if values.size == 1:
        return values.reshape(())
    shape = [1] * rank
    shape[normalize_axis(axis, rank)] = values.size
    return values.reshape(shape)


def saturate(values: np.ndarray, zero_point: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """``round_half_even(values) + zero_point``, clamped to ``dtype``'s range (values past
    any integer, infinities included, first clamped in float; NaN comes out as the minimum):
    MLAS's QuantizeLinear and MlasRequantizeOutput, which clamp the float to the range less
    the zero point before converting (``_mm_max_ps`` keeps the clamp bound for NaN)."""
    info = np.iinfo(dtype)
    rounded = np.clip(np.nan_to_num(np.rint(values), nan=-(2.0**31)), -(2.0**31), 2.0**31)
    return np.clip(rounded.astype(np.int64) + zero_point, info.min, info.max).astype(dtype)


def convert_and_pack(values: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """float32 ``values`` converted as x86's ``cvtps2dq`` converts (round half to even; NaN
    and values outside int32 give INT32_MIN), then narrowed to ``dtype`` by saturating packs
    (int32 to int16 to 8 bits): the MLAS QLinearAdd and QLinearMul kernels, which add the
    zero point in float and clamp nothing before the conversion."""
    values = np.asarray(values, np.float32)
    inside = (values >= -(2.0**31)) & (values < 2.0**31)  # False for NaN
    converted = np.where(inside, np.rint(np.where(inside, values, 0)), -(2.0**31)).astype(np.int64)
    info = np.iinfo(dtype)
    return np.clip(converted, info.min, info.max).astype(dtype)


def _result_dtype(op: Operation) -> np.dtype:
    return numpy_dtype(op.results[0].type.get_element_type())


def quantize(op: nq.QuantizeOp, x: np.ndarray) -> np.ndarray:
    """onnxruntime QuantizeLinear (MlasQuantizeLinear): ``x / scale`` in float32, then
    :func:`saturate`; with ``rounding = "half_away_from_zero"``, TFLite's AffineQuantize
    (``std::round`` of the float32 quotient)."""
    scale, zero_point = (_along(p, op.axis.value.data, x.ndim) for p in quant_params(op, "y"))
    quotient = x / scale
    if op.rounding.data == "half_away_from_zero":  # exact in float64: a float32 plus a half
        wide = quotient.astype(np.float64)
        quotient = np.copysign(np.floor(np.abs(wide) + 0.5), wide)
    return saturate(quotient, zero_point, _result_dtype(op))


def dequantize(op: nq.DequantizeOp, x: np.ndarray) -> np.ndarray:
    scale, zero_point = (_along(p, op.axis.value.data, x.ndim) for p in quant_params(op, "x"))
    return (x.astype(np.int64) - zero_point).astype(np.float32) * scale


def qlookup(op: nq.QLookupOp, x: np.ndarray) -> np.ndarray:
    table = np.array(_ints(op.table), np.int64).astype(_result_dtype(op))
    return table[x.astype(np.int64) - np.iinfo(x.dtype).min]


def matmul_integer(op: nq.MatmulIntegerOp, a: np.ndarray, b: np.ndarray, a_zero: np.ndarray, b_zero: np.ndarray) -> np.ndarray:
    centered = [x.astype(np.int64) - z.astype(np.int64).reshape(()) for x, z in ((a, a_zero), (b, b_zero))]
    return np.matmul(*centered).astype(np.int32)


def conv_integer(op: nq.ConvIntegerOp, x: np.ndarray, w: np.ndarray, x_zero: np.ndarray, w_zero: np.ndarray) -> np.ndarray:
    centered = [v.astype(np.int64) - z.astype(np.int64).reshape(()) for v, z in ((x, x_zero), (w, w_zero))]
    return conv2d(op, *centered).astype(np.int32)  # padding the centred input with 0 pads it with its zero point


def _centered(op: Operation, prefix: str, x: np.ndarray, axis: int = 0) -> np.ndarray:
    """``x - zero_point`` as int64 (a per-axis zero point runs along ``axis``)."""
    return x.astype(np.int64) - _along(quant_params(op, prefix)[1], axis, x.ndim)


def requant_ratio(op: Operation, *prefixes: str, alpha: float = 1.0) -> np.ndarray:
    """The float32 product of the scales of ``prefixes`` (times ``alpha``, first) over
    ``y_scale``, one rounding per operation from the left: onnxruntime's
    ``X_scale * W_scale[i] / Y_scale`` (QLinearConv, QLinearMatMul),
    ``alpha * A_scale * B_scale[i] / Y_scale`` (QGemm) and ``ScaleA * ScaleB / ScaleC``
    (MlasQLinearMul)."""
    product = np.float32(alpha)
    for prefix in prefixes:
        product = product * quant_params(op, prefix)[0]
    return product / quant_params(op, "y")[0] if "y_scale" in op.properties else product


def _requantize_output(acc: np.ndarray, ratio: np.ndarray, op: Operation) -> np.ndarray:
    """MlasRequantizeOutput (and the same steps in MlasConvSym's kernels): the int32 sum
    (bias included, wrapping as int32 does) converted to float32, times the float32 ratio,
    then :func:`saturate` with the y zero point. With ``y_multiplier``/``y_shift``, TFLite's
    fixed-point requantization instead (:mod:`~cfmem.interp.kernels.fixed_point`), along the
    same axis as a per-channel ratio."""
    fixed = fixed_point(op, "y")
    if fixed is not None:
        multiplier, shift = (v.reshape(ratio.shape) if v.size > 1 else v.reshape(()) for v in fixed)
        return requantize_fixed_point(acc, multiplier, shift, int(quant_params(op, "y")[1][0]), _result_dtype(op))
    scaled = acc.astype(np.int32).astype(np.float32) * ratio
    return saturate(scaled, quant_params(op, "y")[1], _result_dtype(op))


def qconv2d(op: nq.QConv2dOp, x: np.ndarray, w: np.ndarray, bias: np.ndarray | None = None) -> np.ndarray:
    """onnxruntime QLinearConv on x86, every path alike (MlasGemm or MlasConvDepthwise, then
    MlasRequantizeOutput; MlasConvSym and MlasConvSymDepthwise requantize with the same
    steps): the i32 sum plus the i32 bias, requantized by :func:`requant_ratio` per tensor or
    per output channel. Not followed: the AVX2 uint8 x int8 kernels without VNNI
    (``vpmaddubsw``) saturate a pair of products past int16, which these exact sums do not."""
    acc = conv2d(op, _centered(op, "x", x), _centered(op, "w", w))
    if bias is not None:
        acc = acc + bias.astype(np.int64).reshape(1, -1, 1, 1)
    ratio = requant_ratio(op, "x", "w")
    return _requantize_output(acc, ratio.reshape(1, -1, 1, 1) if ratio.size > 1 else ratio.reshape(()), op)


def qgemm(op: nq.QGemmOp, a: np.ndarray, b: np.ndarray, c: np.ndarray | None = None) -> np.ndarray:
    """onnxruntime QGemm and QLinearMatMul (MlasGemm with C added into the int32 sum, then
    MlasRequantizeOutput, or for a float result MLAS_QGEMM_SCALE_BIAS_OUTPUT_PROCESSOR:
    the float32 sum times the ratio)."""
    trans = bool(op.trans_b.value.data)
    acc = _centered(op, "a", a) @ (_centered(op, "b", b, 0).T if trans else _centered(op, "b", b, 1))
    if c is not None:
        acc = acc + c.astype(np.int64)
    ratio = requant_ratio(op, "a", "b", alpha=op.alpha.value.data)
    ratio = ratio if ratio.size > 1 else ratio.reshape(())
    if op.element is None:
        return acc.astype(np.int32).astype(np.float32) * ratio
    return _requantize_output(acc, ratio, op)


def _fma32(a: np.ndarray, b: np.ndarray | np.float32, c: np.ndarray | np.float32) -> np.ndarray:
    """float32 ``a * b + c`` rounded once, as a fused multiply-add (exact in float64 for
    the 8-bit-times-float32 products it is used on)."""
    return (np.asarray(a, np.float64) * np.float64(b) + np.asarray(c, np.float64)).astype(np.float32)


def span_scalar(lhs: tuple[int, ...], rhs: tuple[int, ...]) -> int | None:
    """Which operand (0 or 1) onnxruntime's broadcaster (``Broadcaster`` in
    element_wise_ops.h) holds at one value across each span of the output, or None when
    both run along it: the innermost axis, right-aligned, at which either operand is longer
    than 1 (the outermost common axis if none is; a rank-0 operand counts as one element
    there) decides, the first operand before the second when both are 1 there."""
    common = min(len(lhs), len(rhs))
    if common == 0:
        return 0 if not lhs or lhs[-1] == 1 else 1
    for k in range(1, common + 1):
        first, second = lhs[-k], rhs[-k]
        if max(first, second) > 1 or k == common:
            return 0 if first == 1 else 1 if second == 1 else None
    raise AssertionError("unreachable")


def qadd_terms(op: nq.QAddOp) -> tuple[bool, np.float32, np.float32, np.float32]:
    """The constants of onnxruntime's x86 QLinearAdd (MlasQLinearAddKernelAvx2Helper), which
    takes the operand that runs along the spans first: whether that is ``rhs`` (when
    :func:`span_scalar` holds ``lhs`` fixed), then the ratios of the first and second
    operands' scales to ``y_scale`` and the fixed part ``y_zero_point - (ratio_1 *
    zero_point_1 + ratio_2 * zero_point_2)``, contracted to a fused multiply-add as the
    compiler does."""
    swap = span_scalar(*(tuple(v.type.get_shape()) for v in op.operands)) == 0
    first, second = ("b", "a") if swap else ("a", "b")
    y_scale = quant_params(op, "y")[0][0]
    ratio_1, ratio_2 = quant_params(op, first)[0][0] / y_scale, quant_params(op, second)[0][0] / y_scale
    zp_1, zp_2, zp_y = (np.float32(quant_params(op, p)[1][0]) for p in (first, second, "y"))
    return swap, ratio_1, ratio_2, zp_y - _fma32(ratio_1, zp_1, ratio_2 * zp_2)


def qadd(op: nq.QAddOp, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """onnxruntime's x86 QLinearAdd (the AVX2 kernel): ``first * ratio_1 + (second * ratio_2
    + fixed)`` in fused float32 multiply-adds (see :func:`qadd_terms`; a second operand held
    at one value per span has its product folded into the fixed part the same way), then
    :func:`convert_and_pack`. (With the fixed-point parameters, :func:`tflite_qadd`.)"""
    swap, ratio_1, ratio_2, fixed = qadd_terms(op)
    first, second = (b, a) if swap else (a, b)
    value = _fma32(first.astype(np.float32), ratio_1, _fma32(second.astype(np.float32), ratio_2, fixed))
    return convert_and_pack(value, _result_dtype(op))


def tflite_qadd(op: nq.QAddOp, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``nn.qadd`` with its fixed-point parameters: TFLite's int8 ADD (``AddFunc`` of TFLite
    Micro's reference kernel): each centred operand shifted left by ``left_shift`` and scaled
    by its multiplier, the sum scaled by ``y_multiplier``, plus the zero point, saturated."""
    left = np.int64(1) << op.left_shift.value.data
    scaled = [multiply_by_quantized_multiplier(_centered(op, p, v) * left, *fixed_point(op, p)) for p, v in (("a", a), ("b", b))]
    return requantize_fixed_point(scaled[0] + scaled[1], *fixed_point(op, "y"), int(quant_params(op, "y")[1][0]), _result_dtype(op))


def qmul(op: nq.QMulOp, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """onnxruntime's x86 QLinearMul (MlasQLinearMulKernel, SSE2): the exact product of the
    centred operands as float32, times the ratio (:func:`requant_ratio`), plus the y zero
    point as float32 (so a sum that float32 rounds onto a half is what rounds), then
    :func:`convert_and_pack`."""
    product = (_centered(op, "a", a) * _centered(op, "b", b)).astype(np.float32)
    shifted = product * requant_ratio(op, "a", "b").reshape(()) + np.float32(quant_params(op, "y")[1][0])
    return convert_and_pack(shifted, _result_dtype(op))


def qconcat(op: nq.QConcatOp, *xs: np.ndarray) -> np.ndarray:
    """onnxruntime QLinearConcat: each input through its lookup table (QlinearBuildLookupTable:
    ``x_scale * (q - x_zero_point)`` in float32, then MlasQuantizeLinear to y), joined."""
    scales, zero_points = quant_params(op, "x")
    y_scale, y_zero_point = quant_params(op, "y")
    dtype = _result_dtype(op)
    parts = [saturate((x.astype(np.int64) - zp).astype(np.float32) * s / y_scale, y_zero_point, dtype)
             for x, s, zp in zip(xs, scales, zero_points, strict=True)]  # fmt: skip
    return np.concatenate(parts, axis=op.axis.value.data)


ACCUMULATION_INTEGER_BITS = 12
"""The integer bits of int8 SOFTMAX's sum of exponentials (Q12.19), ``kAccumulationIntegerBits``."""


def qsoftmax(op: nq.QSoftmaxOp, x: np.ndarray) -> np.ndarray:
    """TFLite's int8 SOFTMAX (``reference_ops::Softmax`` of TFLite Micro, int8 in, int8 or
    int16 out) along ``axis``: each difference ``d`` from the row's largest element that is at
    least ``diff_min`` (:func:`~cfmem.interp.kernels.fixed_point.softmax_diff_min`) scaled into
    Q5.26 (``MultiplyByQuantizedMultiplierGreaterThanOne``: ``d * 2^x_shift``, then the doubling
    high multiply by ``x_multiplier``) and taken through gemmlowp's ``exp_on_negative_values``;
    the exponentials rescaled to Q12.19 and summed (wrapping as int32); the sum's reciprocal
    (``GetReciprocal``) times each exponential, divided by ``2^(bits over unit + 31 - B)``
    with rounding (``B`` the result's bits, 8 or 16), plus the result type's minimum,
    saturated; an element below ``diff_min`` gives the minimum. A row whose divisor exponent
    leaves [0, 31] (for int8, a sum of at least 2^9 with the largest count) stops TFLite
    Micro (``TFLITE_CHECK``): :class:`~cfmem.interp.kernels.fixed_point.TfliteAbort`."""
    multiplier, shift = (int(v[0]) for v in fixed_point(op, "x"))
    dtype = numpy_dtype(op.element)
    bits, lowest, highest = 8 * dtype.itemsize, int(np.iinfo(dtype).min), int(np.iinfo(dtype).max)
    rows = np.moveaxis(x.astype(np.int64), op.axis.value.data, -1)
    diff = rows - rows.max(axis=-1, keepdims=True, initial=-128)
    counted = diff >= softmax_diff_min(shift)
    scaled = saturating_rounding_doubling_high_mul(wrap_int32(diff << shift), multiplier)
    exps = exp_on_negative_values(scaled, SOFTMAX_DIFF_INTEGER_BITS)
    terms = np.where(counted, rescale(exps, 0, ACCUMULATION_INTEGER_BITS), 0)
    reciprocal, bits_over_unit = get_reciprocal(wrap_int32(terms.sum(axis=-1, keepdims=True)), ACCUMULATION_INTEGER_BITS)
    exponent = bits_over_unit + 31 - bits
    if exponent.size and not (0 <= exponent.min() and exponent.max() <= 31):
        raise TfliteAbort(f"TFLite Micro's int8 SOFTMAX stops on a row whose sum of exponentials takes"
                          f" {int(bits_over_unit.max())} bits above one (at most {bits})")  # fmt: skip
    unsaturated = rounding_divide_by_pot(saturating_rounding_doubling_high_mul(reciprocal, exps), exponent)
    result = np.where(counted, np.clip(unsaturated + lowest, lowest, highest), lowest)
    return np.moveaxis(result, -1, op.axis.value.data).astype(dtype)


def qrequantize(op: nq.QRequantizeOp, x: np.ndarray) -> np.ndarray:
    """TFLite's ``reference_ops::Requantize``: ``MultiplyByQuantizedMultiplier(x -
    x_zero_point)`` plus ``y_zero_point`` (int32 arithmetic, wrapping), saturated to the
    result's type."""
    multiplier, shift = fixed_point(op, "y")
    (x_zero,), (y_zero,) = _ints(op.x_zero_point), _ints(op.y_zero_point)
    dtype = numpy_dtype(op.element)
    scaled = multiply_by_quantized_multiplier(wrap_int32(x.astype(np.int64) - x_zero), multiplier, shift)
    return np.clip(wrap_int32(scaled + y_zero), np.iinfo(dtype).min, np.iinfo(dtype).max).astype(dtype)


def qsvdf_state(op: nq.QSvdfStateOp, x: np.ndarray, weights_feature: np.ndarray, state: np.ndarray) -> np.ndarray:
    """The state after TFLite Micro's integer SVDF (``EvalIntegerSvdfReference``): each
    filter's memory shifted one place toward the oldest, its newest value the int32 product of
    the input (less its zero point) with the filter's feature weights, requantized with
    ``state_multiplier``/``state_shift``, saturated to the state's type, plus the state's zero
    point, stored as the state's type (wrapping as C's conversion does)."""
    batch, filters = x.shape[0], weights_feature.shape[0]
    memory = state.shape[1] // filters
    multiplier, shift = fixed_point(op, "state")
    (x_zero,), (state_zero,) = _ints(op.x_zero_point), _ints(op.state_zero_point)
    info = np.iinfo(state.dtype)
    acc = wrap_int32((x.astype(np.int64) - x_zero) @ weights_feature.astype(np.int64).T)
    newest = np.clip(multiply_by_quantized_multiplier(acc, multiplier, shift), info.min, info.max) + state_zero
    memories = state.reshape(batch, filters, memory)
    shifted = np.concatenate([memories[:, :, 1:], newest.astype(state.dtype)[:, :, None]], axis=2)
    return shifted.reshape(state.shape)


def qsvdf(op: nq.QSvdfOp, state: np.ndarray, weights_time: np.ndarray, bias: np.ndarray | None = None) -> np.ndarray:
    """TFLite Micro's integer SVDF output from the state after the call: each filter's memory
    (less the state's zero point) times its time weights, summed in int32; the bias plus the
    sums of each unit's ``rank`` filters (wrapping as int32), requantized with
    ``y_multiplier``/``y_shift``, plus ``y_zero_point``, saturated to int8."""
    batch = state.shape[0]
    filters, memory = weights_time.shape
    rank = op.rank.value.data
    (state_zero,), (y_zero,) = _ints(op.state_zero_point), _ints(op.y_zero_point)
    products = (state.reshape(batch, filters, memory).astype(np.int64) - state_zero) * weights_time.astype(np.int64)
    per_filter = wrap_int32(products.sum(axis=2))
    acc = per_filter.reshape(batch, filters // rank, rank).sum(axis=2)
    if bias is not None:
        acc = acc + bias.astype(np.int64)
    multiplier, shift = fixed_point(op, "y")
    return requantize_fixed_point(acc, multiplier, shift, y_zero, np.dtype(np.int8))
