"""TFLite's integer UNIDIRECTIONAL_SEQUENCE_LSTM as nn ops: ``nn.qlstm`` (the hidden state of
every time step, the operator's output) and ``nn.qlstm_state`` (the hidden or the cell state
after the last step).

TFLite Micro's kernel (``EvalLstm<int8_t, int8_t, int16_t, int32_t>``) updates its two
variable tensors, the int8 hidden state and the int16 cell state, in place. nn ops have one
result, so the update is split by what it yields: each op takes the same operands (the
sequence, the gates' weights and biases, the states before the call) and runs the whole
recurrence, ``nn.qlstm`` keeping every step's hidden state, ``nn.qlstm_state`` the state it
names after the last step. The arithmetic (``interp/kernels/lstm.py``) is TFLite Micro's bit
for bit: per gate an int8 fully connected of the input step (with the gate's int32 bias) and
one of the hidden state (no bias), each requantized to int16 at scale 2^-12 and saturated,
their saturating sum, TFLite's int16 sigmoid (the input, forget and output gates) or tanh (the
cell gate: the operator's ``fused_activation_function``, which must be TANH); the cell state
``forget * cell + input * cell_gate`` in int16, clipped to ``cell_clip``; the hidden state
``tanh(cell) * output`` requantized to int8.

Operands, in TFLite's order: the i8 ``input`` [batch, time, input] (``time_major``: [time,
batch, input]), the i8 weights from the input [units, input] and from the hidden state [units,
units] of the input, forget, cell and output gates, their i32 biases [units], the i8 hidden
state and the i16 cell state (``batch * units`` elements each). Properties: the input's and
the hidden state's scale and zero point (``x_``, ``h_``), the cell state's (``c_``, zero
point 0: TFLite Micro's cell arithmetic has none), the fixed-point multipliers and shifts of
the four gates' input and hidden products (``gate_x_``, ``gate_h_``, in the order input,
forget, cell, output), of ``forget * cell`` (``forget_``), of ``input * cell_gate``
(``update_``) and of ``tanh(cell) * output`` (``y_``), the quantized ``cell_clip`` (0: none),
``cell_scale_power`` (the cell state's scale is 2^cell_scale_power) and ``time_major``.
"""

from __future__ import annotations

from math import prod

from xdsl.dialects.builtin import I64, DenseArrayBase, IntegerAttr, StringAttr, TensorType, i8, i16, i32
from xdsl.ir import Attribute
from xdsl.irdl import irdl_op_definition, operand_def, prop_def, result_def

from cfmem.dialects import shapes
from cfmem.dialects.nn_compute.base import ComputeOp, _ints
from cfmem.dialects.nn_quant import check_fixed_point, check_params, element_of

GATES = ("input", "forget", "cell", "output")
"""The LSTM's gates, in TFLite's operand order (and the order of ``gate_x_``/``gate_h_``)."""

STATES = ("hidden", "cell")
"""The states ``nn.qlstm_state`` yields."""


class QLstmBase(ComputeOp):
    """The operands, properties and checks ``nn.qlstm`` and ``nn.qlstm_state`` share."""

    input = operand_def(TensorType)
    input_to_input_weights = operand_def(TensorType)
    input_to_forget_weights = operand_def(TensorType)
    input_to_cell_weights = operand_def(TensorType)
    input_to_output_weights = operand_def(TensorType)
    recurrent_to_input_weights = operand_def(TensorType)
    recurrent_to_forget_weights = operand_def(TensorType)
    recurrent_to_cell_weights = operand_def(TensorType)
    recurrent_to_output_weights = operand_def(TensorType)
    input_gate_bias = operand_def(TensorType)
    forget_gate_bias = operand_def(TensorType)
    cell_gate_bias = operand_def(TensorType)
    output_gate_bias = operand_def(TensorType)
    hidden_state = operand_def(TensorType)
    cell_state = operand_def(TensorType)
    result = result_def(TensorType)
    x_scale = prop_def(DenseArrayBase)
    x_zero_point = prop_def(DenseArrayBase[I64])
    h_scale = prop_def(DenseArrayBase)
    h_zero_point = prop_def(DenseArrayBase[I64])
    c_scale = prop_def(DenseArrayBase)
    c_zero_point = prop_def(DenseArrayBase[I64])
    gate_x_multiplier = prop_def(DenseArrayBase[I64])
    gate_x_shift = prop_def(DenseArrayBase[I64])
    gate_h_multiplier = prop_def(DenseArrayBase[I64])
    gate_h_shift = prop_def(DenseArrayBase[I64])
    forget_multiplier = prop_def(DenseArrayBase[I64])
    forget_shift = prop_def(DenseArrayBase[I64])
    update_multiplier = prop_def(DenseArrayBase[I64])
    update_shift = prop_def(DenseArrayBase[I64])
    y_multiplier = prop_def(DenseArrayBase[I64])
    y_shift = prop_def(DenseArrayBase[I64])
    cell_clip = prop_def(IntegerAttr[I64])
    cell_scale_power = prop_def(IntegerAttr[I64])
    time_major = prop_def(IntegerAttr[I64])

    def sizes(self) -> tuple[int, int, int, int]:
        """The batch, time steps, input size and units, after checking every operand and
        property against them."""
        x = self.operand_shape(0)
        if element_of(self.input) != i8 or len(x) != 3:
            raise ValueError(f"input must be an i8 tensor [batch, time, input], got {self.input.type}")
        time_major = self.time_major.value.data
        if time_major not in (0, 1):
            raise ValueError(f"time_major must be 0 or 1, got {time_major}")
        time, batch = (x[0], x[1]) if time_major else (x[1], x[0])
        units = self.operand_shape(1)[0] if len(self.operand_shape(1)) == 2 else 0
        for k in range(1, 9):
            expected = (units, x[2]) if k < 5 else (units, units)
            if element_of(self.operands[k]) != i8 or self.operand_shape(k) != expected:
                raise ValueError(f"operand #{k} must be an i8 tensor of shape {shapes.format_shape(expected)}, got {self.operands[k].type}")
        for k in range(9, 13):
            if element_of(self.operands[k]) != i32 or self.operand_shape(k) != (units,):
                raise ValueError(f"operand #{k} (a gate's bias) must be an i32 tensor of shape [{units}], got {self.operands[k].type}")
        for k, element in ((13, i8), (14, i16)):
            if element_of(self.operands[k]) != element or prod(self.operand_shape(k)) != batch * units:
                raise ValueError(f"operand #{k} must be an {element} tensor of {batch * units} elements, got {self.operands[k].type}")
        check_params(self, "x", i8)
        check_params(self, "h", i8)
        check_params(self, "c", i16)
        if _ints(self.c_zero_point) != (0,):
            raise ValueError("c_zero_point must be 0")
        for prefix, count in (("gate_x", 4), ("gate_h", 4), ("forget", 1), ("update", 1), ("y", 1)):
            check_fixed_point(self, prefix, count if count > 1 else None)
            if len(_ints(self.properties[f"{prefix}_multiplier"])) != count:
                raise ValueError(f"{prefix}_multiplier and {prefix}_shift must have {count} element(s)")
        if not 0 <= self.cell_clip.value.data <= 32767:
            raise ValueError(f"cell_clip must lie in [0, 32767], got {self.cell_clip.value.data}")
        if not -31 <= self.cell_scale_power.value.data <= 0:
            raise ValueError(f"cell_scale_power must lie in [-31, 0], got {self.cell_scale_power.value.data}")
        return batch, time, x[2], units

    def macs(self) -> int:
        batch, time, inputs, units = self.sizes()
        return batch * time * 4 * units * (inputs + units)


@irdl_op_definition
class QLstmOp(QLstmBase):
    """The hidden state of every time step of TFLite's integer LSTM (its output): i8 [batch,
    time, units] ([time, batch, units] when ``time_major``)."""

    name = "nn.qlstm"

    def result_element_type(self) -> Attribute:
        return i8

    def infer_shape(self) -> shapes.Shape:
        batch, time, _, units = self.sizes()
        return (time, batch, units) if self.time_major.value.data else (batch, time, units)


@irdl_op_definition
class QLstmStateOp(QLstmBase):
    """The hidden (i8) or cell (i16) state after the last step of TFLite's integer LSTM, as
    ``state`` says, in the shape of that state's operand."""

    name = "nn.qlstm_state"
    state = prop_def(StringAttr)

    def result_element_type(self) -> Attribute:
        return i8 if self.state.data == "hidden" else i16

    def infer_shape(self) -> shapes.Shape:
        if self.state.data not in STATES:
            raise ValueError(f"state must be one of {', '.join(STATES)}, got {self.state.data!r}")
        self.sizes()
        return self.operand_shape(13 if self.state.data == "hidden" else 14)


LSTM_OPS = (QLstmOp, QLstmStateOp)
