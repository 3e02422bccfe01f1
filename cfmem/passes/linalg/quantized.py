"""The quantized ops of ``nn-lower-to-linalg``: i8 (or ui8) data, i32 accumulators,
requantized in f32 as the kernels of :mod:`cfmem.interp.kernels` (onnxruntime's x86 MLAS
paths) do, or in TFLite's fixed point where the op carries its multipliers.

- ``quantize``, ``dequantize``: one generic each, the scale and zero point per tensor or
  along the axis (constant globals read as extra operands); ``quantize`` rounds halves to
  even, or away from zero (``math.round``) with TFLite's rounding.
- ``qconv2d``, ``qgemm``: one output row at a time in an ``scf.for``; the row's i32 sums of
  ``(x - x_zero) * (w - w_zero)`` in a scratch buffer, then requantized into the output row
  (``round_half_even(acc * ratio) + y_zero``, saturated; with ``y_multiplier``/``y_shift``,
  TFLite's ``MultiplyByQuantizedMultiplier`` per tensor or per channel, from
  :mod:`cfmem.passes.linalg.fixed_point`), so the sums never take more than a row.
  ``conv_integer``, ``matmul_integer``: the i32 sums straight into the output, the zero
  points loaded at run time.
- ``qadd``, ``qmul``: the fused multiply-adds and products of MLAS's QLinearAdd and
  QLinearMul in f32, converted and packed as x86's ``cvtps2dq`` and saturating packs do
  (``qadd`` with ``left_shift``: TFLite's int8 ADD in i32 fixed point);
  ``qconcat``: each input dequantized and requantized into its region of the output;
  ``qlookup``: a 256-entry table loaded at each element.
- ``qsoftmax``: TFLite's int8 SOFTMAX (to int8 or int16), gemmlowp's fixed-point exponential
  and TFLite's reciprocal on i32, the row maxima and sums in scratch buffers; ``qrequantize``:
  TFLite's integer QUANTIZE between i8, ui8, i16 and i32, elementwise in fixed point.

The unsigned ops (``extui``, ``uitofp``, ``fptoui``, ``maxui``) are picked here for ui8 data,
while the types still say ui8. Assumes one weight zero point for every channel (per-channel
scales are fine). TFLite's integer SVDF is lowered in :mod:`cfmem.passes.linalg.svdf`; its integer
LSTM and TFLite Micro's signal library ops (``TFLITE_ONLY_OPS``) are refused.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from xdsl.dialects import arith, math, memref
from xdsl.dialects.builtin import AffineMapAttr, IndexType, f32, i32
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineExpr

from cfmem.dialects import nn_lstm as nl
from cfmem.dialects import nn_quant as nq
from cfmem.dialects import nn_signal as ns
from cfmem.interp import kernels
from cfmem.interp.kernels import quant_params
from cfmem.interp.kernels.fixed_point import SOFTMAX_DIFF_INTEGER_BITS, fixed_point, softmax_diff_min
from cfmem.interp.kernels.quantized import ACCUMULATION_INTEGER_BITS
from cfmem.passes.failures import OpFailure
from cfmem.passes.linalg.fixed_point import (
    FixedPointParams,
    doubling_high_mul,
    exp_on_negative_values,
    multiply_by_quantized_multiplier,
    reciprocal,
    rescale,
    rounding_divide_by_pot,
    saturate_with_zero_point,
    shifted_left,
)
from cfmem.passes.linalg.helpers import (
    affine_map,
    copy,
    dims,
    elementwise,
    f32_const,
    fill,
    for_each,
    generic,
    identity,
    index_const,
    int_const,
    integer_range,
    ints,
    is_unsigned,
    rows_of,
    shape_of,
    subview,
    to_float,
    widened,
)
from cfmem.passes.linalg.named import contract, convolve
from cfmem.passes.linalg.op_lowering import OpLowering


def ratio_of(op: Operation, *prefixes: str, alpha: float = 1.0) -> np.ndarray:
    """The float32 requantization ratio the kernels use, one value or one per channel."""
    return np.asarray(kernels.requant_ratio(op, *prefixes, alpha=alpha), np.float32).reshape(-1)


TFLITE_ONLY_OPS = {nl.QLstmOp: "TFLite's integer LSTM", nl.QLstmStateOp: "TFLite's integer LSTM state",
                   **{op: "TFLite Micro's signal library" for op in ns.SIGNAL_OPS}}  # fmt: skip
"""The ops only TFLite's fixed-point arithmetic defines that have no lowering yet."""


def refuse_tflite_only(op: Operation) -> None:
    """An op of ``TFLITE_ONLY_OPS``: a one-line failure."""
    raise OpFailure(op, f"nn-lower-to-linalg: '{op.name}' ({TFLITE_ONLY_OPS[type(op)]}) is not supported")


def uniform_zero_point(op: Operation, prefix: str) -> int:
    """A per-channel weight zero point that is the same for every channel, as one value."""
    zero_points = quant_params(op, prefix)[1]
    if np.any(zero_points != zero_points[0]):
        raise OpFailure(op, f"nn-lower-to-linalg: '{op.name}' with differing {prefix} zero points per channel is not supported")
    return int(zero_points[0])


def load_scalar(buffer: SSAValue) -> SSAValue:
    """The one element of a one-element memref (a zero point computed at run time)."""
    return memref.LoadOp.get(buffer, [index_const(0)] * len(shape_of(buffer))).res


def centered_product(a: SSAValue, a_zero: int | SSAValue, b: SSAValue, b_zero: int | SSAValue, acc: SSAValue) -> SSAValue:
    """``acc + (a - a_zero) * (b - b_zero)`` in i32, ``a`` and ``b`` sign-extended; a zero point
    is a number or an i32 value."""
    wide = [arith.SubiOp(widened(v), z if isinstance(z, SSAValue) else int_const(z, i32)).result for v, z in ((a, a_zero), (b, b_zero))]
    return arith.AddiOp(acc, arith.MuliOp(*wide)).result


def to_quantized(value: SSAValue, zero_point: float | SSAValue, out: SSAValue, half_away: bool = False) -> SSAValue:
    """``saturate(round_half_even(value) + zero_point)`` into ``out``'s element type (i8 or
    ui8); NaN gives the type's minimum, as in the kernels and onnxruntime. With ``half_away``,
    halves round away from zero (``math.round``), as TFLite's QUANTIZE does."""
    element = out.type.get_element_type()
    z = zero_point if isinstance(zero_point, SSAValue) else f32_const(zero_point)
    rounded = (math.RoundOp if half_away else math.RoundEvenOp)(value).result
    shifted = arith.AddfOp(rounded, z).result
    low, high = (f32_const(float(v)) for v in integer_range(element))
    clamped = arith.MinimumfOp(arith.MaximumfOp(shifted, low), high).result
    saturated = arith.SelectOp(arith.CmpfOp(value, value, "uno"), low, clamped).result
    convert = arith.FPToUIOp if is_unsigned(element) else arith.FPToSIOp
    return convert(saturated, element).result


def converted_and_packed(value: SSAValue, out: SSAValue) -> SSAValue:
    """``value`` rounded half to even and saturated into ``out``'s element type, except that
    NaN and values outside int32 give the type's minimum: x86's ``cvtps2dq`` followed by
    saturating packs, as :func:`cfmem.interp.kernels.convert_and_pack` computes it."""
    element = out.type.get_element_type()
    rounded = math.RoundEvenOp(value).result
    inside = arith.AndIOp(arith.CmpfOp(rounded, f32_const(-(2.0**31)), "oge"), arith.CmpfOp(rounded, f32_const(2.0**31), "olt")).result
    low, high = (f32_const(float(v)) for v in integer_range(element))
    clamped = arith.MinimumfOp(arith.MaximumfOp(rounded, low), high).result
    convert = arith.FPToUIOp if is_unsigned(element) else arith.FPToSIOp
    return convert(arith.SelectOp(inside, clamped, low).result, element).result


def per_channel(lowering: OpLowering, prefix: str, values: np.ndarray, axis: int, rank: int) -> tuple[list[SSAValue], list[AffineMapAttr]]:
    """A parameter of more than one value as a constant global read along ``axis``
    (an extra generic operand and its map); one value needs neither."""
    if values.size == 1:
        return [], []
    return [lowering.globals.get(prefix, values)], [affine_map(rank, [dims(rank)[axis]])]


def requantize(lowering: OpLowering, op: Operation, acc: SSAValue, out: SSAValue, ratio: np.ndarray, axis: int) -> None:
    """``out = saturate(round_half_even(acc * ratio) + y_zero_point)`` as MlasRequantizeOutput
    computes it, or the f32 ``acc * ratio`` for an f32 ``out``; ``ratio`` per tensor or
    along ``axis``. An op with ``y_multiplier``/``y_shift`` requantizes in TFLite's fixed point
    (:func:`requantize_fixed_point`) instead."""
    rank = len(shape_of(out))
    fixed = fixed_point(op, "y")
    if fixed is not None:
        requantize_fixed_point(lowering, FixedPointParams(*fixed), int(quant_params(op, "y")[1][0]), acc, out, axis)
        return
    extra, maps = per_channel(lowering, "requant_ratio", ratio, axis, rank)
    zero_point = float(quant_params(op, "y")[1][0]) if out.type.get_element_type() != f32 else 0.0

    def body(a: SSAValue, *rest: SSAValue) -> SSAValue:
        r = rest[0] if extra else f32_const(float(ratio.reshape(-1)[0]))
        value = arith.MulfOp(to_float(a), r).result
        return value if out.type.get_element_type() == f32 else to_quantized(value, zero_point, out)

    generic([acc, *extra], [out], [identity(rank), *maps, identity(rank)], body)


def requantize_fixed_point(lowering: OpLowering, params: FixedPointParams, zero_point: int, acc: SSAValue, out: SSAValue,
                           axis: int) -> None:  # fmt: skip
    """``out = saturate(MultiplyByQuantizedMultiplier(acc) + zero_point)``: TFLite's
    requantization of the i32 sums ``acc``, the multiplier and shift per tensor or along ``axis``."""
    rank = len(shape_of(out))
    extra, maps = params.operands(lowering, "y", axis, rank)
    element = out.type.get_element_type()

    def body(a: SSAValue, *rest: SSAValue) -> SSAValue:
        scaled = multiply_by_quantized_multiplier(a, *params.scalars(rest))
        return saturate_with_zero_point(scaled, zero_point, element)

    generic([acc, *extra], [out], [identity(rank), *maps, identity(rank)], body)


def with_params(lowering: OpLowering, op: nq.QuantizeOp | nq.DequantizeOp, prefix: str, x: SSAValue, out: SSAValue,
                body: Callable[[SSAValue, SSAValue, SSAValue], SSAValue]) -> None:
    """``out = body(x, scale, zero_point)`` element by element, with ``op``'s parameters of
    ``prefix`` per tensor or along its ``axis`` (from constant globals)."""
    scale, zero_point = quant_params(op, prefix)
    rank = len(shape_of(out))
    axis = op.axis.value.data % max(rank, 1)
    extra, maps = per_channel(lowering, f"{prefix}_scale", scale, axis, rank)
    zero_extra, zero_maps = per_channel(lowering, f"{prefix}_zero_point", zero_point.astype(np.float32), axis, rank)

    def inner(v: SSAValue, *rest: SSAValue) -> SSAValue:
        s = rest[0] if extra else f32_const(float(scale[0]))
        z = rest[len(extra)] if zero_extra else f32_const(float(zero_point[0]))
        return body(v, s, z)

    generic([x, *extra, *zero_extra], [out], [identity(rank), *maps, *zero_maps, identity(rank)], inner)


def quantize(lowering: OpLowering, op: nq.QuantizeOp, ins: list[SSAValue], out: SSAValue) -> None:
    half_away = op.rounding.data == "half_away_from_zero"
    with_params(lowering, op, "y", ins[0], out, lambda x, s, z: to_quantized(arith.DivfOp(x, s).result, z, out, half_away))


def dequantize(lowering: OpLowering, op: nq.DequantizeOp, ins: list[SSAValue], out: SSAValue) -> None:
    with_params(lowering, op, "x", ins[0], out, lambda x, s, z: arith.MulfOp(arith.SubfOp(to_float(x), z), s).result)


def qconv2d(lowering: OpLowering, op: nq.QConv2dOp, ins: list[SSAValue], out: SSAValue) -> None:
    """One output row at a time (an ``scf.for``): the row's i32 sums in scratch, then
    requantized into the row of ``out``, so the sums never take more than a row."""
    x, w, *bias = ins
    x_zero, w_zero = int(quant_params(op, "x")[1][0]), uniform_zero_point(op, "w")
    n, channels, height, width = shape_of(out)
    acc = lowering.scratch("acc", (n, channels, 1, width), None, i32)
    ratio = ratio_of(op, "x", "w")

    def one_row(row: SSAValue) -> None:
        convolve(lowering, op, x, w, bias, acc, x_zero, lambda a, b, s: centered_product(a, x_zero, b, w_zero, s), row)
        requantize(lowering, op, acc, rows_of(out, row, 2), ratio, 1)

    for_each(height, one_row)


def qsoftmax(lowering: OpLowering, op: nq.QSoftmaxOp, ins: list[SSAValue], out: SSAValue) -> None:
    """TFLite's int8 SOFTMAX to int8 or int16 (:func:`cfmem.interp.kernels.qsoftmax`) in three
    generics: the row maxima into ``peak`` (i8), the Q12.19 sum of the counted exponentials into
    ``total`` (i32, wrapping), then each element from its exponential (computed again, the same
    bits) and its row's reciprocal, divided by ``2^(bits over unit + 31 - B)`` (``B`` the
    result's bits) plus the result type's minimum. A row whose divisor exponent leaves [0, 31]
    stops TFLite Micro and the interpreters; here the exponent is capped at 31 so that the shift
    stays defined."""
    (x,) = ins
    shape = shape_of(x)
    rank, axis = len(shape), op.axis.value.data % len(shape)
    multiplier, shift = (int(v[0]) for v in fixed_point(op, "x"))
    diff_min = softmax_diff_min(shift)
    peak = lowering.scratch("peak", tuple(1 if i == axis else s for i, s in enumerate(shape)), -128, x.type.get_element_type())
    total = lowering.scratch("total", shape_of(peak), 0, i32)
    row = affine_map(rank, [AffineExpr.constant(0) if i == axis else d for i, d in enumerate(dims(rank))])
    maps = [identity(rank), row]
    generic([x], [peak], maps, lambda v, best: arith.MaxSIOp(best, v).result, reduced=(axis,))

    def exponential(v: SSAValue, best: SSAValue) -> tuple[SSAValue, SSAValue]:
        """The Q0.31 exponential of ``v - best`` and whether the difference counts."""
        diff = arith.SubiOp(widened(v), widened(best)).result
        counted = arith.CmpiOp(diff, int_const(diff_min, i32), "sge").result
        scaled = doubling_high_mul(shifted_left(diff, shift), multiplier)
        return exp_on_negative_values(scaled, SOFTMAX_DIFF_INTEGER_BITS), counted

    def summed(v: SSAValue, best: SSAValue, acc: SSAValue) -> SSAValue:
        exp, counted = exponential(v, best)
        term = rescale(exp, 0, ACCUMULATION_INTEGER_BITS)
        return arith.AddiOp(acc, arith.SelectOp(counted, term, int_const(0, i32))).result

    generic([x, peak], [total], [*maps, row], summed, reduced=(axis,))

    element = out.type.get_element_type()
    lowest = integer_range(element)[0]

    def normalized(v: SSAValue, best: SSAValue, sum_: SSAValue, _: SSAValue) -> SSAValue:
        exp, counted = exponential(v, best)
        inverse, bits_over_unit = reciprocal(sum_, ACCUMULATION_INTEGER_BITS)
        exponent = arith.MinSIOp(arith.AddiOp(bits_over_unit, int_const(31 - element.width.data, i32)), int_const(31, i32)).result
        value = rounding_divide_by_pot(doubling_high_mul(inverse, exp), exponent)
        result = saturate_with_zero_point(value, lowest, element)
        return arith.SelectOp(counted, result, int_const(lowest, element)).result

    generic([x, peak, total], [out], [*maps, row, identity(rank)], normalized)


def tflite_only(lowering: OpLowering, op: Operation, ins: list[SSAValue], out: SSAValue) -> None:
    """The lowering of each op of ``TFLITE_ONLY_OPS``: a one-line refusal."""
    refuse_tflite_only(op)


def qrequantize(lowering: OpLowering, op: nq.QRequantizeOp, ins: list[SSAValue], out: SSAValue) -> None:
    """TFLite's integer QUANTIZE (:func:`cfmem.interp.kernels.qrequantize`): ``x - x_zero_point``
    (i32, wrapping) through ``MultiplyByQuantizedMultiplier``, plus ``y_zero_point`` wrapping
    as int32, saturated to the result's type (i8, ui8, i16 or i32)."""
    (x_zero,), (y_zero,) = ints(op.x_zero_point), ints(op.y_zero_point)
    scalars = FixedPointParams(*fixed_point(op, "y")).scalars(())
    element = out.type.get_element_type()
    low, high = integer_range(element)

    def body(x: SSAValue, _: SSAValue) -> SSAValue:
        scaled = multiply_by_quantized_multiplier(arith.SubiOp(widened(x), int_const(x_zero, i32)).result, *scalars)
        shifted = arith.AddiOp(scaled, int_const(y_zero, i32)).result
        if element.width.data == 32:
            return shifted
        clamped = arith.MinSIOp(arith.MaxSIOp(shifted, int_const(low, i32)), int_const(high, i32)).result
        return arith.TruncIOp(clamped, element).result

    elementwise(ins, out, body)


def qlookup(lowering: OpLowering, op: nq.QLookupOp, ins: list[SSAValue], out: SSAValue) -> None:
    element = out.type.get_element_type()
    table = lowering.globals.get("qlookup_table", np.array(ints(op.table), np.int64).astype(np.uint8 if is_unsigned(element) else np.int8))
    lowest = -integer_range(ins[0].type.get_element_type())[0]

    def body(x: SSAValue, _: SSAValue) -> SSAValue:
        position = arith.AddiOp(widened(x), int_const(lowest, i32)).result
        return memref.LoadOp.get(table, [arith.IndexCastOp(position, IndexType()).result]).res

    elementwise(ins, out, body)


def conv_integer(lowering: OpLowering, op: nq.ConvIntegerOp, ins: list[SSAValue], out: SSAValue) -> None:
    x, w, x_zero, w_zero = ins
    x_zero_data = load_scalar(x_zero)
    zeros = (widened(x_zero_data), widened(load_scalar(w_zero)))
    convolve(lowering, op, x, w, [], out, x_zero_data, lambda a, b, s: centered_product(a, zeros[0], b, zeros[1], s))


def matmul_integer(lowering: OpLowering, op: nq.MatmulIntegerOp, ins: list[SSAValue], out: SSAValue) -> None:
    a, b, a_zero, b_zero = ins
    zeros = (widened(load_scalar(a_zero)), widened(load_scalar(b_zero)))
    fill(0, out)
    contract(a, b, out, False, lambda x, y, s: centered_product(x, zeros[0], y, zeros[1], s))


def qgemm(lowering: OpLowering, op: nq.QGemmOp, ins: list[SSAValue], out: SSAValue) -> None:
    a, b, *c = ins
    trans = bool(op.trans_b.value.data)
    a_zero, b_zero = int(quant_params(op, "a")[1][0]), uniform_zero_point(op, "b")
    rows, columns = shape_of(out)
    acc = lowering.scratch("acc", (1, columns), None, i32)
    ratio = ratio_of(op, "a", "b", alpha=op.alpha.value.data)
    m, n, k = dims(3)
    maps = [affine_map(3, [m, k]), affine_map(3, [n, k] if trans else [k, n]), affine_map(3, [m, n])]

    def one_row(row: SSAValue) -> None:
        if c:
            copy(c[0], acc, affine_map(2, [AffineExpr.dimension(1)]), identity(2))
        else:
            fill(0, acc)
        generic([rows_of(a, row, 0), b], [acc], maps, lambda x, y, s: centered_product(x, a_zero, y, b_zero, s), reduced=(2,))
        requantize(lowering, op, acc, rows_of(out, row, 0), ratio, 1)

    for_each(rows, one_row)


def qadd(lowering: OpLowering, op: nq.QAddOp, ins: list[SSAValue], out: SSAValue) -> None:
    if op.left_shift is not None:
        tflite_qadd(op, ins, out)
        return
    swap, ratio_1, ratio_2, fixed = kernels.qadd_terms(op)

    def body(a: SSAValue, b: SSAValue, _: SSAValue) -> SSAValue:
        first, second = (b, a) if swap else (a, b)
        partial = math.FmaOp(to_float(second), f32_const(float(ratio_2)), f32_const(float(fixed))).result
        value = math.FmaOp(to_float(first), f32_const(float(ratio_1)), partial).result
        return converted_and_packed(value, out)

    elementwise(ins, out, body)


def tflite_qadd(op: nq.QAddOp, ins: list[SSAValue], out: SSAValue) -> None:
    """TFLite's int8 ADD: each centred operand shifted left by ``left_shift`` and scaled by its
    multiplier, the sum (wrapping as int32) scaled by ``y_multiplier``, plus the zero point,
    saturated."""
    left_shift = op.left_shift.value.data
    zero_points = [int(quant_params(op, p)[1][0]) for p in ("a", "b", "y")]
    scalars = [FixedPointParams(*fixed_point(op, p)).scalars(()) for p in ("a", "b", "y")]
    element = out.type.get_element_type()

    def body(a: SSAValue, b: SSAValue, _: SSAValue) -> SSAValue:
        scaled = [multiply_by_quantized_multiplier(shifted_left(arith.SubiOp(widened(v), int_const(z, i32)).result, left_shift), *s)
                  for v, z, s in ((a, zero_points[0], scalars[0]), (b, zero_points[1], scalars[1]))]  # fmt: skip
        total = multiply_by_quantized_multiplier(arith.AddiOp(*scaled).result, *scalars[2])
        return saturate_with_zero_point(total, zero_points[2], element)

    elementwise(ins, out, body)


def qmul(lowering: OpLowering, op: nq.QMulOp, ins: list[SSAValue], out: SSAValue) -> None:
    a_zero, b_zero = (int(quant_params(op, p)[1][0]) for p in "ab")
    ratio, y_zero = float(ratio_of(op, "a", "b")[0]), float(quant_params(op, "y")[1][0])

    def body(a: SSAValue, b: SSAValue, _: SSAValue) -> SSAValue:
        product = centered_product(a, a_zero, b, b_zero, int_const(0, i32))
        scaled = arith.MulfOp(to_float(product), f32_const(ratio)).result
        return converted_and_packed(arith.AddfOp(scaled, f32_const(y_zero)).result, out)

    elementwise(ins, out, body)


def qconcat(lowering: OpLowering, op: nq.QConcatOp, ins: list[SSAValue], out: SSAValue) -> None:
    axis = op.axis.value.data
    scales, zero_points = quant_params(op, "x")
    y_scale, y_zero = float(quant_params(op, "y")[0][0]), float(quant_params(op, "y")[1][0])
    offset = 0
    for x, scale, zero in zip(ins, scales, zero_points, strict=True):
        shape = shape_of(x)
        region = subview(out, [offset if k == axis else 0 for k in range(len(shape))], shape)

        def body(v: SSAValue, _: SSAValue, s: float = float(scale), z: float = float(zero)) -> SSAValue:
            real = arith.MulfOp(arith.SubfOp(to_float(v), f32_const(z)), f32_const(s)).result
            return to_quantized(arith.DivfOp(real, f32_const(y_scale)).result, y_zero, out)

        elementwise([x], region, body)
        offset += shape[axis]
