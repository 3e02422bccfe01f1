"""int8 operators, as TFLite Micro's reference kernels compute them, bit for bit.

The requantizations are TFLite's fixed-point ones: each op's multipliers and shifts are derived
from the file's scales at import exactly as TFLite Micro derives them (``QuantizeMultiplier``
of the double ``input_scale * filter_scale[c] / output_scale`` for convolutions and per-channel
FULLY_CONNECTED, of the float32 product ``input_scale * filter_scale`` over the output scale for
per-tensor FULLY_CONNECTED, ADD's ``left_shift`` of 20 and its three multipliers below one) and
carried by the nn op (``y_multiplier``/``y_shift``, see :mod:`cfmem.dialects.nn_quant`).

- CONV_2D, DEPTHWISE_CONV_2D: ``nn.qconv2d`` (per-tensor or per-channel filter scales; filter
  zero points must be 0, which TFLite Micro assumes); FULLY_CONNECTED: ``nn.qgemm``; ADD:
  ``nn.qadd``; MAX_POOL_2D, AVERAGE_POOL_2D: ``nn.max_pool2d``, ``nn.avg_pool2d`` on the int8
  data (input and output quantized alike, as TFLite requires);
- a fused RELU, RELU6 or RELU_N1_TO_1: an ``nn.qlookup`` clamping to TFLite's activation range
  (the quantized 0, 6 or +-1, ``std::round``-ed);
- QUANTIZE from float32: ``nn.quantize`` rounding half away from zero; between 8-bit types:
  an ``nn.qlookup`` of TFLite's ``Requantize``; from or to int16 or int32 (the pairs TFLite
  Micro computes): ``nn.qrequantize``; DEQUANTIZE: ``nn.dequantize`` (a constant input
  is dequantized at import, float16 ones too);
- SOFTMAX from int8 to int8 or int16: ``nn.qsoftmax`` (gemmlowp's fixed-point exponential and
  reciprocal), with the multiplier and left shift of TFLite's ``PreprocessSoftmaxScaling``;
- RESHAPE, SQUEEZE, EXPAND_DIMS, TRANSPOSE and a zero PAD read by convolutions move int8 data
  as they move floats.

Refused: SOFTMAX of int16 (TFLite Micro's lookup tables), QUANTIZE between types TFLite Micro
does not convert, and every other int8 operator.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import IntegerAttr, StringAttr, i8, i16, i32, i64
from xdsl.ir import Attribute, SSAValue

from cfmem.dialects import nn_compute as nc
from cfmem.dialects import nn_quant as nq
from cfmem.dialects.nn_quant import ui8
from cfmem.importers.tflite.core import Importer, Operator, TfliteImportError, Value, text
from cfmem.importers.tflite.elementwise import common_operands
from cfmem.importers.tflite.helpers import activation_kind, known, out_name, window_pads
from cfmem.importers.tflite.layout import NCHW, Tensor, physical_axes
from cfmem.importers.tflite.nn import conv_filter, conv_window, flatten_order, nchw_input, window_properties
from cfmem.interp.kernels.fixed_point import multiply_by_quantized_multiplier, preprocess_softmax_scaling, quantize_multiplier

QUANT_DTYPES = {np.dtype(np.int8): i8, np.dtype(np.uint8): ui8}


def params(tensor, what: str, per_channel: bool = False) -> tuple[np.ndarray, np.ndarray, int]:
    """A tensor's scales (float32), zero points (int64) and quantized axis; one of each unless
    ``per_channel``."""
    q = tensor.quantization if tensor is not None else None
    if q is None or q.scale is None or len(q.scale) == 0:
        raise TfliteImportError(f"{what} {text(tensor.name)!r} has no quantization parameters")
    scale = np.asarray(q.scale, np.float32).reshape(-1)
    zero = np.asarray(q.zeroPoint if q.zeroPoint is not None else [0] * scale.size, np.int64).reshape(-1)
    if zero.size == 1 and scale.size > 1:
        zero = np.repeat(zero, scale.size)
    if scale.size != zero.size or (scale.size > 1 and not per_channel):
        raise TfliteImportError(f"{what} {text(tensor.name)!r} must be quantized per tensor (it has {scale.size} scales)")
    if not (scale > 0).all():
        raise TfliteImportError(f"{what} {text(tensor.name)!r} has a scale that is not positive")
    return scale, zero, int(q.quantizedDimension)


def quant_props(prefix: str, scale, zero) -> dict[str, Attribute]:
    return {f"{prefix}_scale": nq.f32_array(scale), f"{prefix}_zero_point": nc.i64_array([int(z) for z in zero])}


def output_props(imp: Importer, op: Operator) -> dict[str, Attribute]:
    """The result's parameters and element type (int8 or uint8)."""
    scale, zero, _ = params(op.outputs[0], "output")
    dtype = imp.tensor_dtype(op.outputs[0])
    if dtype not in QUANT_DTYPES:
        raise TfliteImportError(f"output {op.output_name()!r} is {dtype}; quantized operators write int8 or uint8")
    return {**quant_props("y", scale, zero), "element": QUANT_DTYPES[dtype]}


def fixed_point_props(prefix: str, reals) -> dict[str, Attribute]:
    pairs = [quantize_multiplier(float(r)) for r in reals]
    return {f"{prefix}_multiplier": nc.i64_array([m for m, _ in pairs]), f"{prefix}_shift": nc.i64_array([s for _, s in pairs])}


def quantized_tensor(imp: Importer, value: Value, what: str) -> Tensor:
    if not isinstance(value, Tensor):
        raise TfliteImportError(f"{what} is a constant; cfmem folds no constant operators")
    if imp.dtype(value) not in QUANT_DTYPES:
        raise TfliteImportError(f"{what} is {imp.dtype(value)}, expected int8 or uint8")
    return value


def activation_range(imp: Importer, op: Operator) -> tuple[int, int]:
    """TFLite's ``CalculateActivationRangeQuantized`` for ``op``'s fused activation."""
    dtype = imp.tensor_dtype(op.outputs[0])
    low, high = int(np.iinfo(dtype).min), int(np.iinfo(dtype).max)
    kind = activation_kind(op)
    scale, zero, _ = params(op.outputs[0], "output")

    def quantized(value: float) -> int:  # zero_point + std::round(value / scale), in float32
        quotient = float(np.float32(value) / scale[0])
        return int(zero[0]) + int(np.copysign(np.floor(abs(quotient) + 0.5), quotient))

    bounds = {"RELU": (0.0, None), "RELU6": (0.0, 6.0), "RELU_N1_TO_1": (-1.0, 1.0)}
    if kind == "NONE":
        return low, high
    if kind not in bounds:
        raise TfliteImportError(f"fused activation {kind} of a quantized result is not supported")
    lo, hi = bounds[kind]
    return max(low, quantized(lo)), high if hi is None else min(high, quantized(hi))


def clamped(imp: Importer, op: Operator, value: SSAValue, perm) -> Tensor:
    """``value`` through ``op``'s fused activation: an ``nn.qlookup`` clamping to its range."""
    dtype = imp.tensor_dtype(op.outputs[0])
    low, high = int(np.iinfo(dtype).min), int(np.iinfo(dtype).max)
    lo, hi = activation_range(imp, op)
    if (lo, hi) == (low, high):
        return Tensor(value, perm)
    return Tensor(lookup(imp, value, np.clip(np.arange(low, high + 1), lo, hi), dtype, out_name(imp, op)), perm)


def lookup(imp: Importer, value: SSAValue, table: np.ndarray, dtype: np.dtype, name: str) -> SSAValue:
    return imp.b.compute(nq.QLookupOp, [value], {"table": nc.i64_array([int(v) for v in table]),
                                                 "element": QUANT_DTYPES[np.dtype(dtype)]}, name)  # fmt: skip


def pre_clamp_name(imp: Importer, op: Operator) -> str | None:
    low, high = (int(v) for v in (np.iinfo(imp.tensor_dtype(op.outputs[0])).min, np.iinfo(imp.tensor_dtype(op.outputs[0])).max))
    return out_name(imp, op) if activation_range(imp, op) == (low, high) else None


# --- convolutions and fully connected ---------------------------------------------------------


def filter_params(imp: Importer, op: Operator, w: np.ndarray, channels_axis: int, out_channels: int):
    """The filter's scales and zero points, per output channel or one; refused unless int8 of
    zero points 0 and quantized along ``channels_axis`` when per channel."""
    scale, zero, axis = params(op.inputs[1], "filter", per_channel=True)
    if w.dtype != np.int8:
        raise TfliteImportError(f"filter is {w.dtype}; int8 operators take int8 filters")
    if (zero != 0).any():
        raise TfliteImportError("filter zero points must be 0 (TFLite Micro ignores them)")
    if scale.size > 1 and (axis != channels_axis or scale.size != out_channels):
        raise TfliteImportError(f"filter is quantized along axis {axis} with {scale.size} scales, expected {out_channels} along axis {channels_axis}")
    return scale, zero


def bias_value(imp: Importer, op: Operator, inputs: list[Value], hint: str) -> SSAValue | None:
    bias = inputs[2] if len(inputs) > 2 else None
    if bias is None:
        return None
    if known(bias, "bias").dtype != np.int32:
        raise TfliteImportError(f"bias is {bias.dtype}; int8 operators take int32 biases")
    return imp.runtime(bias, f"{hint}_bias")


def qconv(imp: Importer, op: Operator, inputs: list[Value]) -> list[Value]:
    x = quantized_tensor(imp, inputs[0], "input")
    w = known(inputs[1], "filter")
    weight, groups = conv_filter(imp, op, x, w)
    depthwise = op.builtin == "DEPTHWISE_CONV_2D"
    w_scale, w_zero = filter_params(imp, op, w, 3 if depthwise else 0, weight.shape[0])
    x_scale, x_zero, _ = params(op.inputs[0], "input")
    y = output_props(imp, op)
    y_scale = np.float32(nq.floats(y["y_scale"])[0])
    reals = [float(x_scale[0]) * float(s) / float(y_scale) for s in w_scale]
    props = {**conv_window(imp, op, x, weight.shape[2:]), **quant_props("x", x_scale, x_zero), **quant_props("w", w_scale, w_zero),
             **y, **fixed_point_props("y", reals)}  # fmt: skip
    if groups != 1:
        props["groups"] = IntegerAttr(groups, i64)
    hint = op.output_name()
    operands = [nchw_input(imp, x, hint), imp.runtime(weight, f"{hint}_filter"), bias_value(imp, op, inputs, hint)]
    result = imp.b.compute(nq.QConv2dOp, operands, props, pre_clamp_name(imp, op))
    return [clamped(imp, op, result, NCHW)]


def qfully_connected(imp: Importer, op: Operator, inputs: list[Value]) -> list[Value]:
    x = quantized_tensor(imp, inputs[0], "input")
    w = known(inputs[1], "weights")
    if w.ndim != 2 or op.option("weightsFormat", 0) != 0:
        raise TfliteImportError(f"weights of shape {list(w.shape)} (format {op.option('weightsFormat', 0)}) are not supported")
    w_scale, w_zero, axis = params(op.inputs[1], "weights", per_channel=True)
    if w.dtype != np.int8 or (w_scale.size > 1 and (axis != 0 or w_scale.size != w.shape[0])):
        raise TfliteImportError("weights must be int8, per tensor or per output row")
    x_scale, x_zero, _ = params(op.inputs[0], "input")
    y = output_props(imp, op)
    y_scale = np.float32(nq.floats(y["y_scale"])[0])
    if w_scale.size > 1:  # per channel: the double product, as for convolutions
        reals = [float(x_scale[0]) * float(s) / float(y_scale) for s in w_scale]
    else:  # GetQuantizedConvolutionMultipler: the float32 product
        reals = [float(np.float32(x_scale[0] * w_scale[0])) / float(y_scale)]
    shape = imp.logical_shape(x)
    count, depth = int(np.prod(shape)), w.shape[1]
    if depth == 0 or count % depth:
        raise TfliteImportError(f"input of shape {list(shape)} does not split into rows of the weights' depth {depth}")
    order = flatten_order(shape, x.perm, depth) if x.perm is not None and x.pads is None else None
    hint = op.output_name()
    value = x.value if order is not None else imp.held(x, None, hint)
    if order is not None:
        w = np.ascontiguousarray(w[:, order])
    rows = imp.b.reshape(value, (count // depth, depth), imp.name(f"{hint}_rows")) if imp.b.shape(value) != (count // depth, depth) else value
    props = {**quant_props("a", x_scale, x_zero), **quant_props("b", w_scale, w_zero), "trans_b": IntegerAttr(1, i64),
             **y, **fixed_point_props("y", reals)}  # fmt: skip
    keep = op.option("keepNumDims", False)
    name = pre_clamp_name(imp, op) if not keep else None
    result = imp.b.compute(nq.QGemmOp, [rows, imp.runtime(w, f"{hint}_weights"), bias_value(imp, op, inputs, hint)], props, name)
    if keep:
        result = imp.b.reshape(result, (*shape[:-1], w.shape[0]), pre_clamp_name(imp, op))
    return [clamped(imp, op, result, None)]


# --- elementwise and pooling -------------------------------------------------------------------


def qadd(imp: Importer, op: Operator, inputs: list[Value]) -> list[Value]:
    (a, b), perm = common_operands(imp, op, inputs[:2])
    if imp.b._dtype(a) not in QUANT_DTYPES:
        raise TfliteImportError(f"inputs are {imp.b._dtype(a)}, expected int8 or uint8")
    (s1, z1, _), (s2, z2, _) = params(op.inputs[0], "input"), params(op.inputs[1], "input")
    y = output_props(imp, op)
    y_scale = float(np.float32(nq.floats(y["y_scale"])[0]))
    left_shift = 20
    twice_max = 2 * float(max(s1[0], s2[0]))
    reals = {"a": float(s1[0]) / twice_max, "b": float(s2[0]) / twice_max, "y": twice_max / ((1 << left_shift) * y_scale)}
    if not all(0 < r < 1 for r in reals.values()):
        raise TfliteImportError(f"the scales give multipliers {sorted(reals.values())}, which TFLite requires below 1")
    props = {**quant_props("a", s1, z1), **quant_props("b", s2, z2), **y, "left_shift": IntegerAttr(left_shift, i64)}
    for prefix, real in reals.items():
        props.update(fixed_point_props(prefix, [real]))
    return [clamped(imp, op, imp.b.compute(nq.QAddOp, [a, b], props, pre_clamp_name(imp, op)), perm)]


def qpool(imp: Importer, op: Operator, inputs: list[Value]) -> list[Value]:
    x = quantized_tensor(imp, inputs[0], "input")
    (s_in, z_in, _), (s_out, z_out, _) = params(op.inputs[0], "input"), params(op.outputs[0], "output")
    if s_in[0] != s_out[0] or z_in[0] != z_out[0] or imp.dtype(x) != imp.tensor_dtype(op.outputs[0]):
        raise TfliteImportError("input and output must be quantized alike (TFLite Micro does not rescale in pooling)")
    kernel = (op.option("filterHeight", 1), op.option("filterWidth", 1))
    strides = (op.option("strideH", 1), op.option("strideW", 1))
    value = imp.held(x, NCHW, op.output_name())
    props = {"kernel": nc.i64_array(kernel), **window_properties(strides, window_pads(op, imp.b.shape(value)[2:], kernel, strides))}
    cls = nc.MaxPool2dOp if op.builtin == "MAX_POOL_2D" else nc.AvgPool2dOp
    return [clamped(imp, op, imp.b.compute(cls, [value], props, pre_clamp_name(imp, op)), NCHW)]


# --- conversions --------------------------------------------------------------------------------


REQUANTIZED = {(np.dtype(a), np.dtype(b)) for a, b in (
    (np.int16, np.int8), (np.int8, np.int8), (np.int8, np.uint8), (np.uint8, np.int8), (np.int8, np.int16), (np.int8, np.int32),
    (np.int16, np.int16), (np.int16, np.int32), (np.int32, np.int8), (np.int32, np.int16))}  # fmt: skip
"""The (input, output) types of the integer QUANTIZE TFLite Micro computes (``Requantize``)."""

INTEGER_ELEMENTS = {np.dtype(np.int8): i8, np.dtype(np.uint8): ui8, np.dtype(np.int16): i16, np.dtype(np.int32): i32}


def quantize(imp: Importer, op: Operator, inputs: list[Value]) -> list[Value]:
    x = inputs[0]
    if not isinstance(x, Tensor):
        raise TfliteImportError("input is a constant; cfmem folds no constant operators")
    hint = out_name(imp, op)
    source, target = imp.dtype(x), imp.tensor_dtype(op.outputs[0])
    if source == np.float32:
        value = imp.held(x, x.perm, op.output_name())
        props = {**output_props(imp, op), "rounding": StringAttr("half_away_from_zero")}
        return [Tensor(imp.b.compute(nq.QuantizeOp, [value], props, hint), x.perm)]
    if (source, target) not in REQUANTIZED:
        raise TfliteImportError(f"QUANTIZE of {source} to {target} is not supported (TFLite Micro does not compute it)")
    (s_in, z_in, _), (s_out, z_out, _) = params(op.inputs[0], "input"), params(op.outputs[0], "output")
    multiplier, shift = quantize_multiplier(float(s_in[0]) / float(s_out[0]))
    value = imp.held(x, x.perm, op.output_name())
    if source.itemsize == 1 and target.itemsize == 1:  # a table of the 256 inputs
        values = np.arange(np.iinfo(source).min, np.iinfo(source).max + 1, dtype=np.int64)
        table = multiply_by_quantized_multiplier(values - z_in[0], multiplier, shift) + z_out[0]
        table = np.clip(table, np.iinfo(target).min, np.iinfo(target).max)
        return [Tensor(lookup(imp, value, table, target, hint), x.perm)]
    props = {**quant_props("x", s_in, z_in), **quant_props("y", s_out, z_out), "element": INTEGER_ELEMENTS[target],
             "y_multiplier": nc.i64_array([multiplier]), "y_shift": nc.i64_array([shift])}  # fmt: skip
    return [Tensor(imp.b.compute(nq.QRequantizeOp, [value], props, hint), x.perm)]


def dequantize(imp: Importer, op: Operator, inputs: list[Value]) -> list[Value]:
    x = inputs[0]
    if isinstance(x, np.ndarray):  # a constant (int8 weights, float16 weights): dequantized here
        if x.dtype == np.float16:
            return [x.astype(np.float32)]
        scale, zero, axis = params(op.inputs[0], "input", per_channel=True)
        shape = [1] * x.ndim
        if scale.size > 1:
            shape[axis] = scale.size
        return [((x.astype(np.int64) - zero.reshape(shape)).astype(np.float32) * scale.reshape(shape)).astype(np.float32)]
    quantized_tensor(imp, x, "input")
    scale, zero, _ = params(op.inputs[0], "input")
    value = imp.held(x, x.perm, op.output_name())
    return [Tensor(imp.b.compute(nq.DequantizeOp, [value], quant_props("x", scale, zero), out_name(imp, op)), x.perm)]


# --- softmax ------------------------------------------------------------------------------------


def qsoftmax(imp: Importer, op: Operator, inputs: list[Value]) -> list[Value]:
    """int8 SOFTMAX to int8 or int16 along the last axis (held where it is): ``nn.qsoftmax``
    with the multiplier and left shift of TFLite's ``PreprocessSoftmaxScaling`` of the double
    ``beta * input_scale``; TFLite Micro requires the output's scale 1/256 and zero point -128
    (int8), or a scale within 0.1 % of 1/65536 and zero point -32768 (int16)."""
    x = quantized_tensor(imp, inputs[0], "input")
    source, target = imp.dtype(x), imp.tensor_dtype(op.outputs[0])
    if source != np.int8 or target not in (np.int8, np.int16):
        raise TfliteImportError(f"SOFTMAX of {source} to {target} is not supported (int8 to int8 or int16 is)")
    x_scale, x_zero, _ = params(op.inputs[0], "input")
    y_scale, y_zero, _ = params(op.outputs[0], "output")
    if target == np.int8 and (y_scale[0] != np.float32(1 / 256) or y_zero[0] != -128):
        raise TfliteImportError(f"int8 SOFTMAX writes scale 1/256 and zero point -128 in TFLite Micro, not {float(y_scale[0]):.6g} and {y_zero[0]}")
    if target == np.int16 and (abs(y_scale[0] - np.float32(1 / 65536)) > np.float32(0.001 / 65536) or y_zero[0] != -32768):
        raise TfliteImportError(f"int8 SOFTMAX to int16 writes scale 1/65536 and zero point -32768 in TFLite Micro, not {float(y_scale[0]):.6g} and {y_zero[0]}")
    scaling = preprocess_softmax_scaling(float(np.float32(op.option("beta", 1.0))), float(x_scale[0]))
    if scaling is None:
        raise TfliteImportError(f"beta times the input scale {float(x_scale[0]):.6g} is at most 2^-26, which TFLite Micro refuses")
    value = imp.held(x, x.perm, op.output_name())
    (axis,) = physical_axes([len(imp.logical_shape(x)) - 1], x.perm)
    props = {**quant_props("x", x_scale, x_zero), **quant_props("y", y_scale, y_zero), "element": INTEGER_ELEMENTS[target],
             "x_multiplier": nc.i64_array([scaling[0]]), "x_shift": nc.i64_array([scaling[1]]), "axis": IntegerAttr(axis, i64)}  # fmt: skip
    return [Tensor(imp.b.compute(nq.QSoftmaxOp, [value], props, out_name(imp, op)), x.perm)]
