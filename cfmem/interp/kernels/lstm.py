"""TFLite's integer LSTM (``nn.qlstm``, ``nn.qlstm_state``) as TFLite Micro's reference kernel
computes it (``EvalLstm<int8_t, int8_t, int16_t, int32_t>`` in ``lstm_eval.h``), bit for bit,
and TFLite's int16 sigmoid and tanh it calls.

Each time step runs, for every batch row at once (the rows are independent, so TFLite Micro's
batch-major loop over rows and its time-major loop over steps compute the same values):

- each gate: the input step (less its zero point) times the gate's input weights plus its
  bias, and the hidden state (less its zero point) times its recurrent weights, each summed in
  int32, requantized with ``MultiplyByQuantizedMultiplier`` and saturated to int16
  (``FullyConnected`` to int16 at scale 2^-12), added with int16 saturation
  (``AddElementWise``), then :func:`logistic_int16` (input, forget and output gates) or
  :func:`lstm_tanh` at scale 2^-12 (the cell gate);
- the cell state: ``forget * cell`` and ``input * cell_gate`` (``MulElementwise``: the int32
  product requantized, saturated to int16), their saturating sum, clipped to ``[-cell_clip,
  cell_clip]`` when ``cell_clip`` is not 0;
- the hidden state: :func:`lstm_tanh` of the cell state at its scale, times the output gate,
  requantized, plus the hidden zero point, saturated to int8. It is also the step's output.

The forget, input and cell gates and the output gate all read the hidden state of the step
before. All intermediates are int64 arrays holding int32 values.
"""

from __future__ import annotations

import numpy as np

from cfmem.dialects import nn_lstm as nl
from cfmem.interp.kernels.attributes import _ints
from cfmem.interp.kernels.fixed_point import fixed_point, multiply_by_quantized_multiplier, wrap_int32

SIGMOID_TABLE = np.array([
    32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841, 39498, 40149, 40794, 41432, 42064, 42688,
    43304, 43912, 44511, 45102, 45683, 46255, 46817, 47369, 47911, 48443, 48964, 49475, 49975, 50464, 50942, 51409,
    51865, 52311, 52745, 53169, 53581, 53983, 54374, 54755, 55125, 55485, 55834, 56174, 56503, 56823, 57133, 57433,
    57724, 58007, 58280, 58544, 58800, 59048, 59288, 59519, 59743, 59959, 60168, 60370, 60565, 60753, 60935, 61110,
    61279, 61441, 61599, 61750, 61896, 62036, 62172, 62302, 62428, 62549, 62666, 62778, 62886, 62990, 63090, 63186,
    63279, 63368, 63454, 63536, 63615, 63691, 63765, 63835, 63903, 63968, 64030, 64090, 64148, 64204, 64257, 64308,
    64357, 64405, 64450, 64494, 64536, 64576, 64614, 64652, 64687, 64721, 64754, 64786, 64816, 64845, 64873, 64900,
    64926, 64950, 64974, 64997, 65019, 65039, 65060, 65079, 65097, 65115, 65132, 65149, 65164, 65179, 65194, 65208,
    65221, 65234, 65246, 65258, 65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337, 65345, 65352, 65360, 65367,
    65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415, 65420, 65425, 65429, 65433, 65438, 65442, 65445, 65449,
    65453, 65456, 65459, 65462, 65465, 65468, 65471, 65474, 65476, 65479, 65481, 65483, 65485, 65488, 65489, 65491,
    65493, 65495, 65497, 65498, 65500, 65501, 65503, 65504, 65505, 65507, 65508, 65509, 65510, 65511, 65512, 65513,
    65514, 65515, 65516, 65517, 65517, 65518, 65519, 65520, 65520, 65521, 65522, 65522, 65523, 65523, 65524, 65524,
    65525, 65525, 65526, 65526, 65526, 65527, 65527, 65528, 65528, 65528, 65529, 65529, 65529, 65529, 65530, 65530,
    65530, 65530, 65531, 65531, 65531, 65531, 65531, 65532, 65532, 65532, 65532, 65532, 65532, 65533, 65533, 65533,
    65533, 65533, 65533, 65533, 65533, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65535,
], np.int64)  # fmt: skip
"""TFLite's ``sigmoid_table_uint16``: sigmoid(i / 24) in 0.16 fixed point, i from 0 to 255."""

INT16_MIN, INT16_MAX = -(2**15), 2**15 - 1


def _scaled_input(x: np.ndarray, input_multiplier: int, input_left_shift: int) -> np.ndarray:
    """The scaled input both int16 activations interpolate from: a multiplier of 0 means the
    power-of-two case (``3 << input_left_shift``, no shift), else ``(x * input_multiplier +
    round) >> input_left_shift``."""
    if input_multiplier == 0:
        input_multiplier, input_left_shift = 3 << input_left_shift, 0
    rounding = 1 << (input_left_shift - 1) if input_left_shift > 0 else 0
    return (np.asarray(x, np.int64) * input_multiplier + rounding) >> input_left_shift


def logistic_int16(x: np.ndarray, input_multiplier: int = 0, input_left_shift: int = 0) -> np.ndarray:
    """TFLite's int16 ``reference_integer_ops::Logistic``: Q3.12 in, Q0.15 out, a linear
    interpolation of ``SIGMOID_TABLE`` at |input| / 2^9 (saturating from entry 255), mirrored
    for negative inputs, in uint32 arithmetic, stored to int16."""
    data = _scaled_input(x, input_multiplier, input_left_shift)
    magnitude = np.abs(data)
    upper = magnitude >> 9
    index = np.minimum(upper, 254)
    low, high = SIGMOID_TABLE[index], SIGMOID_TABLE[index + 1]
    result = np.where(upper >= 255, np.int64(0x7FFF << 10), (low << 9) + (magnitude & 0x1FF) * (high - low))
    result = np.where(data >= 0, result + (1 << 9), (1 << 25) - result + (1 << 9) - 1)
    return ((result & 0xFFFFFFFF) >> 10).astype(np.int16)


def tanh_int16(x: np.ndarray, input_multiplier: int = 0, input_left_shift: int = 0) -> np.ndarray:
    """TFLite's int16 ``reference_integer_ops::Tanh``: a linear interpolation of
    ``SIGMOID_TABLE`` at |input| / 2^8 (tanh(x) = 2 sigmoid(2x) - 1, saturating from entry
    255), mirrored for negative inputs, in int32 arithmetic, shifted right by 8 (rounding
    toward minus infinity), stored to int16."""
    data = _scaled_input(x, input_multiplier, input_left_shift)
    magnitude = np.abs(data)
    upper = magnitude >> 8
    index = np.minimum(upper, 254)
    low, high = SIGMOID_TABLE[index], SIGMOID_TABLE[index + 1]
    result = np.where(upper >= 255, np.int64(0xFFFF << 8), (low << 8) + (magnitude & 0xFF) * (high - low))
    result = np.where(data >= 0, result - (1 << 23) + (1 << 7), -result + (1 << 23) + (1 << 7) - 1)
    return (result >> 8).astype(np.int16)


def lstm_tanh(cell_scale_power: int, x: np.ndarray) -> np.ndarray:
    """TFLite Micro's ``lstm_internal::Tanh`` of int16 values at scale 2^cell_scale_power: the
    input's left shift to Q3.12 ``15 + power - 3``, or for a negative one a multiplier of 3
    and a right shift by its magnitude."""
    left_shift, multiplier = 15 + cell_scale_power - 3, 0
    if left_shift < 0:
        left_shift, multiplier = -left_shift, 3
    return tanh_int16(x, multiplier, left_shift)


def _saturate(values: np.ndarray, low: int = INT16_MIN, high: int = INT16_MAX) -> np.ndarray:
    return np.clip(values, low, high)


def _mul(a: np.ndarray, b: np.ndarray, multiplier: np.ndarray, shift: np.ndarray) -> np.ndarray:
    """``MulElementwise`` of int16 values without offsets: the int32 product requantized."""
    return multiply_by_quantized_multiplier(a * b, multiplier, shift)


def run_lstm(op: nl.QLstmBase, x: np.ndarray, *operands: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every step's hidden state (in the input's layout), and the hidden and cell states after
    the last step (in their operands' shapes)."""
    input_weights = [w.astype(np.int64) for w in operands[0:4]]
    recurrent_weights = [w.astype(np.int64) for w in operands[4:8]]
    biases = [b.astype(np.int64) for b in operands[8:12]]
    hidden_in, cell_in = operands[12], operands[13]
    time_major = op.time_major.value.data == 1
    steps = x.astype(np.int64) if time_major else np.swapaxes(x.astype(np.int64), 0, 1)
    batch, units = steps.shape[1], input_weights[0].shape[0]
    (x_zero,), (h_zero,) = _ints(op.x_zero_point), _ints(op.h_zero_point)
    x_multipliers, x_shifts = fixed_point(op, "gate_x")
    h_multipliers, h_shifts = fixed_point(op, "gate_h")
    forget_fixed, update_fixed, y_fixed = fixed_point(op, "forget"), fixed_point(op, "update"), fixed_point(op, "y")
    clip, power = op.cell_clip.value.data, op.cell_scale_power.value.data
    activations = (logistic_int16, logistic_int16, lambda v: lstm_tanh(-12, v), logistic_int16)
    hidden = hidden_in.reshape(batch, units).astype(np.int64)
    cell = cell_in.reshape(batch, units).astype(np.int64)
    outputs = []
    for step in steps:
        gates = []
        for k in range(4):
            from_input = wrap_int32((step - x_zero) @ input_weights[k].T + biases[k])
            from_hidden = wrap_int32((hidden - h_zero) @ recurrent_weights[k].T)
            total = (_saturate(multiply_by_quantized_multiplier(from_input, x_multipliers[k], x_shifts[k]))
                     + _saturate(multiply_by_quantized_multiplier(from_hidden, h_multipliers[k], h_shifts[k])))  # fmt: skip
            gates.append(activations[k](_saturate(total)).astype(np.int64))
        input_gate, forget_gate, cell_gate, output_gate = gates
        cell = _saturate(_saturate(_mul(forget_gate, cell, *forget_fixed)) + _saturate(_mul(input_gate, cell_gate, *update_fixed)))
        if clip > 0:
            cell = np.clip(cell, -clip, clip)
        hidden = _saturate(_mul(lstm_tanh(power, cell).astype(np.int64), output_gate, *y_fixed) + h_zero, -128, 127)
        outputs.append(hidden)
    sequence = np.stack(outputs).astype(np.int8)
    return (sequence if time_major else np.swapaxes(sequence, 0, 1),
            hidden.astype(np.int8).reshape(hidden_in.shape), cell.astype(np.int16).reshape(cell_in.shape))  # fmt: skip


def qlstm(op: nl.QLstmOp, x: np.ndarray, *operands: np.ndarray) -> np.ndarray:
    """Every step's hidden state of TFLite Micro's integer LSTM."""
    return run_lstm(op, x, *operands)[0]


def qlstm_state(op: nl.QLstmStateOp, x: np.ndarray, *operands: np.ndarray) -> np.ndarray:
    """The hidden or cell state after TFLite Micro's integer LSTM's last step."""
    _, hidden, cell = run_lstm(op, x, *operands)
    return hidden if op.state.data == "hidden" else cell
