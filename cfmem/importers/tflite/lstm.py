"""TFLite's integer UNIDIRECTIONAL_SEQUENCE_LSTM, as TFLite Micro's kernel computes it, bit
for bit (:mod:`cfmem.dialects.nn_lstm`).

The operator updates two variable tensors in place, the hidden state (input 18) and the cell
state (input 19). Here its output is ``nn.qlstm`` and each state after the call an
``nn.qlstm_state`` of the same operands, written back to its variable
(:meth:`~cfmem.importers.tflite.core.Importer.write_variable`).

Accepted as TFLite Micro's ``UnidirectionalSequenceLstmPrepare`` and ``ValidateTensorStatus``
accept an integer LSTM (the 8x8->16 variant): int8 input, output and hidden state, int16 cell
state, int8 weights quantized per tensor with zero point 0 for all four gates (no CIFG), int32
biases, no peephole, projection or layer-normalisation tensors, and a TANH cell activation.
The multipliers are TFLite Micro's (``PrepareGateParametersInteger``): each gate's products
``QuantizeMultiplier`` of the float32 product of the scales over 2^-12 (in double), the
products of gates over 2^-15 scales in double, the cell clip ``cell_clip / cell_scale``
truncated to int16. The cell state's scale must be a power of two (TFLite Micro's int16 tanh
of the cell state assumes one). The float LSTM and the int16-activation variant are refused.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import IntegerAttr, StringAttr, i64

from cfmem.dialects import nn_compute as nc
from cfmem.dialects import nn_lstm as nl
from cfmem.importers.tflite.core import Importer, Operator, TfliteImportError, Value
from cfmem.importers.tflite.helpers import known, out_name
from cfmem.importers.tflite.layout import Tensor
from cfmem.importers.tflite.quantized import params, quant_props
from cfmem.interp.kernels.fixed_point import quantize_multiplier

GATE_INPUT_SCALE = 2.0**-12
"""The scale TFLite Micro requantizes each gate's products to (Q3.12, the activations' input)."""

GATE_OUTPUT_SCALE = 2.0**-15
"""The scale of a gate's activation (Q0.15)."""

ABSENT = (9, 10, 11, 16, 17, 20, 21, 22, 23)
"""Inputs TFLite Micro's LSTM requires absent: peepholes, projection, layer normalisation."""

HIDDEN, CELL = 18, 19


def fixed_points(prefix: str, reals: list[float]) -> dict:
    pairs = [quantize_multiplier(r) for r in reals]
    return {f"{prefix}_multiplier": nc.i64_array([m for m, _ in pairs]), f"{prefix}_shift": nc.i64_array([s for _, s in pairs])}


def product_over(a: np.float32, b: np.float32, scale: float) -> float:
    """``GetQuantizedConvolutionMultipler``: the float32 product of two scales, over ``scale``,
    in double."""
    return float(np.float32(a) * np.float32(b)) / scale


def cell_scale_power(scale: float) -> int:
    """The power of two the cell state's scale is, or a one-line refusal."""
    power = int(np.round(np.log2(scale)))
    if 2.0**power != scale or power > 0:
        raise TfliteImportError(f"the cell state's scale {scale:.6g} is not a power of two at most 1 (TFLite Micro's int16 tanh assumes one)")
    return power


def quantized_cell_clip(cell_clip: float, scale: float) -> int:
    """``CreateLstmCellStateInfo``'s clip: ``cell_clip / scale`` in double, clamped to int16 and
    truncated; 0 (no clipping) unless ``cell_clip`` is positive."""
    if not cell_clip > 0:
        return 0
    clip = int(min(max(float(cell_clip) / scale, -32768.0), 32767.0))
    if clip <= 0:
        raise TfliteImportError(f"cell_clip {cell_clip:.6g} is below the cell state's scale (it would clip every cell to 0)")
    return clip


def unidirectional_sequence_lstm(imp: Importer, op: Operator, inputs: list[Value]) -> list[Value]:
    """int8 LSTM: ``nn.qlstm`` (the output) and an ``nn.qlstm_state`` per variable."""
    if len(inputs) != 24:
        raise TfliteImportError(f"UNIDIRECTIONAL_SEQUENCE_LSTM takes 24 inputs in TFLite Micro, not {len(inputs)}")
    x, hidden, cell = inputs[0], inputs[HIDDEN], inputs[CELL]
    if not isinstance(x, Tensor) or imp.dtype(x) != np.int8:
        raise TfliteImportError("the input must be a run-time int8 tensor (the float and int16 LSTMs are not supported)")
    if present := [k for k in ABSENT if inputs[k] is not None]:
        raise TfliteImportError(f"input #{present[0]} must be absent: TFLite Micro's LSTM has no peephole, projection or layer normalisation")
    for k, dtype, what in ((HIDDEN, np.int8, "hidden"), (CELL, np.int16, "cell")):
        if not isinstance(inputs[k], Tensor) or op.input_indices[k] not in imp.variables or imp.dtype(inputs[k]) != dtype:
            raise TfliteImportError(f"input #{k} (the {what} state) must be an {np.dtype(dtype)} variable tensor of the main subgraph")
    weights = [known(inputs[k], f"weights (input #{k})") for k in range(1, 9)]
    biases = [known(inputs[k], f"bias (input #{k})") for k in range(12, 16)]
    if any(w.dtype != np.int8 for w in weights) or any(b.dtype != np.int32 for b in biases):
        raise TfliteImportError("the weights must be int8 and the biases int32 (TFLite Micro's 8x8->16 LSTM)")
    if imp.tensor_dtype(op.outputs[0]) != np.int8:
        raise TfliteImportError(f"the output must be int8, not {imp.tensor_dtype(op.outputs[0])}")
    if op.option("fusedActivationFunction") != 4:
        raise TfliteImportError("the cell activation must be TANH (TFLite Micro's integer LSTM computes no other)")
    if len(imp.logical_shape(x)) != 3:
        raise TfliteImportError(f"the input must have rank 3, got {list(imp.logical_shape(x))}")
    x_scale, x_zero, _ = params(op.inputs[0], "input")
    h_scale, h_zero, _ = params(op.inputs[HIDDEN], "hidden state")
    c_scale, _, _ = params(op.inputs[CELL], "cell state")
    weight_scales = []
    for k in range(1, 9):
        scale, zero, _ = params(op.inputs[k], "weights")
        if zero[0] != 0:
            raise TfliteImportError(f"weights (input #{k}) have zero point {zero[0]}; TFLite Micro requires 0")
        weight_scales.append(scale[0])
    cell_scale = float(c_scale[0])
    props = {**quant_props("x", x_scale, x_zero), **quant_props("h", h_scale, h_zero), **quant_props("c", c_scale, [0]),
             **fixed_points("gate_x", [product_over(x_scale[0], s, GATE_INPUT_SCALE) for s in weight_scales[:4]]),
             **fixed_points("gate_h", [product_over(h_scale[0], s, GATE_INPUT_SCALE) for s in weight_scales[4:]]),
             **fixed_points("forget", [GATE_OUTPUT_SCALE * cell_scale / cell_scale]),
             **fixed_points("update", [GATE_OUTPUT_SCALE * GATE_OUTPUT_SCALE / cell_scale]),
             **fixed_points("y", [GATE_OUTPUT_SCALE * GATE_OUTPUT_SCALE / float(h_scale[0])]),
             "cell_clip": IntegerAttr(quantized_cell_clip(float(op.option("cellClip", 0.0)), cell_scale), i64),
             "cell_scale_power": IntegerAttr(cell_scale_power(cell_scale), i64),
             "time_major": IntegerAttr(int(bool(op.option("timeMajor", False))), i64)}  # fmt: skip
    hint = op.output_name()
    names = ("input_to_input", "input_to_forget", "input_to_cell", "input_to_output",
             "recurrent_to_input", "recurrent_to_forget", "recurrent_to_cell", "recurrent_to_output")  # fmt: skip
    operands = [imp.held(x, None, hint),
                *(imp.runtime(w, f"{hint}_{name}_weights") for w, name in zip(weights, names)),
                *(imp.runtime(b, f"{hint}_{gate}_gate_bias") for b, gate in zip(biases, nl.GATES)),
                imp.held(hidden, None, hint), imp.held(cell, None, hint)]  # fmt: skip
    output = imp.b.compute(nl.QLstmOp, operands, props, out_name(imp, op))
    for k, state in ((HIDDEN, "hidden"), (CELL, "cell")):
        props_state = {**props, "state": StringAttr(state)}
        updated = imp.b.compute(nl.QLstmStateOp, operands, props_state, imp.name(f"{hint}_{state}_state", f"lstm_{state}_state"))
        imp.write_variable(op, k, Tensor(updated))
    return [Tensor(output)]
