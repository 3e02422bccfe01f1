"""TFLite's integer SVDF, as TFLite Micro's reference kernel computes it, bit for bit.

An SVDF reads its state from a variable tensor (input 4) and updates it in place. Here the
update is ``nn.qsvdf_state`` (the state before the call -> the state after it), written back
to the variable (:meth:`~cfmem.importers.tflite.core.Importer.write_variable`, which makes it
a result of the function), and the output is ``nn.qsvdf`` of the state after the call, as
TFLite Micro computes the output from the updated state.

The multipliers are TFLite Micro's (``PrepareSvdf``): ``QuantizeMultiplier`` of the float32
``input_scale * weights_feature_scale / state_scale`` for the state and of the float32
``state_scale * weights_time_scale / output_scale`` for the output. Accepted as TFLite Micro
prepares it: int8 input, feature weights and output, int8 or int16 time weights with a state
of the same type, an int32 bias of scale ``state_scale * weights_time_scale`` (within 1e-5),
per-tensor quantization. TFLite Micro's integer SVDF applies no fused activation, so none is
applied here either. The float SVDF is refused.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import IntegerAttr, i64

from cfmem.dialects import nn_compute as nc
from cfmem.dialects import nn_quant as nq
from cfmem.importers.tflite.core import Importer, Operator, TfliteImportError, Value
from cfmem.importers.tflite.helpers import known, out_name
from cfmem.importers.tflite.layout import Tensor
from cfmem.importers.tflite.quantized import INTEGER_ELEMENTS, params, quant_props
from cfmem.interp.kernels.fixed_point import quantize_multiplier


def float32_ratio(a: np.float32, b: np.float32, c: np.float32) -> float:
    """``a * b / c`` in float32 arithmetic, as C++ evaluates it on floats, as a double."""
    return float(np.float32(np.float32(a * b) / c))


def fixed_point(prefix: str, real: float) -> dict:
    multiplier, shift = quantize_multiplier(real)
    return {f"{prefix}_multiplier": nc.i64_array([multiplier]), f"{prefix}_shift": nc.i64_array([shift])}


def svdf(imp: Importer, op: Operator, inputs: list[Value]) -> list[Value]:
    """int8 SVDF: ``nn.qsvdf_state`` updating the variable state, ``nn.qsvdf`` reading it."""
    if len(inputs) != 5:
        raise TfliteImportError(f"SVDF takes 5 inputs in TFLite Micro, not {len(inputs)}")
    x, state = inputs[0], inputs[4]
    if not isinstance(x, Tensor) or imp.dtype(x) != np.int8:
        raise TfliteImportError("the input must be a run-time int8 tensor (the float SVDF is not supported)")
    if not isinstance(state, Tensor) or op.input_indices[4] not in imp.variables:
        raise TfliteImportError("the state (input #4) must be a variable tensor of the main subgraph")
    weights_feature, weights_time = known(inputs[1], "weights_feature"), known(inputs[2], "weights_time")
    if inputs[3] is None:
        raise TfliteImportError("SVDF without a bias is not supported (TFLite Micro's Prepare reads the bias's scale)")
    state_type = imp.dtype(state)
    if weights_feature.dtype != np.int8 or weights_time.dtype not in (np.int8, np.int16) or state_type != weights_time.dtype:
        raise TfliteImportError(f"weights_feature must be int8 and weights_time and the state int8 or int16 alike, got"
                                f" {weights_feature.dtype}, {weights_time.dtype} and {state_type}")  # fmt: skip
    if imp.tensor_dtype(op.outputs[0]) != np.int8:
        raise TfliteImportError(f"the output must be int8, not {imp.tensor_dtype(op.outputs[0])}")
    shape = imp.logical_shape(x)
    if len(shape) != 2:
        raise TfliteImportError(f"the input must be [batch, input], got {list(shape)}")
    x_scale, x_zero, _ = params(op.inputs[0], "input")
    wf_scale, wf_zero, _ = params(op.inputs[1], "weights_feature")
    wt_scale, wt_zero, _ = params(op.inputs[2], "weights_time")
    s_scale, s_zero, _ = params(op.inputs[4], "state")
    y_scale, y_zero, _ = params(op.outputs[0], "output")
    bias_scale = params(op.inputs[3], "bias")[0][0] if op.inputs[3].quantization is not None else np.float32(0)
    if abs(float(bias_scale) - float(np.float32(s_scale[0] * wt_scale[0]))) >= 1e-5:
        raise TfliteImportError(f"the bias's scale {float(bias_scale):.6g} is not the state's times weights_time's, as TFLite Micro requires")
    hint = op.output_name()
    state_props = {**quant_props("x", x_scale, x_zero), **quant_props("w", wf_scale, wf_zero), **quant_props("state", s_scale, s_zero),
                   **fixed_point("state", float32_ratio(x_scale[0], wf_scale[0], s_scale[0]))}  # fmt: skip
    operands = [imp.held(x, None, hint), imp.runtime(weights_feature, f"{hint}_weights_feature"), imp.held(state, None, hint)]
    updated = imp.b.compute(nq.QSvdfStateOp, operands, state_props, imp.name(f"{hint}_state", "svdf_state"))
    imp.write_variable(op, 4, Tensor(updated))
    props = {**quant_props("state", s_scale, s_zero), **quant_props("w", wt_scale, wt_zero), **quant_props("y", y_scale, y_zero),
             "element": INTEGER_ELEMENTS[np.dtype(np.int8)], "rank": IntegerAttr(int(op.option("rank", 1)), i64),
             **fixed_point("y", float32_ratio(s_scale[0], wt_scale[0], y_scale[0]))}  # fmt: skip
    bias = known(inputs[3], "bias")
    if bias.dtype != np.int32:
        raise TfliteImportError(f"bias is {bias.dtype}; the integer SVDF takes an int32 bias")
    operands = [updated, imp.runtime(weights_time, f"{hint}_weights_time"), imp.runtime(bias, f"{hint}_bias")]
    return [Tensor(imp.b.compute(nq.QSvdfOp, operands, props, out_name(imp, op)))]
