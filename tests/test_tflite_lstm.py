"""TFLite's integer UNIDIRECTIONAL_SEQUENCE_LSTM with its hidden and cell states, against
TFLite Micro bit for bit.

TFLite Micro keeps the LSTM's hidden (int8) and cell (int16) states in variable tensors between
invocations; cfmem imports each as an extra function input and result. Each model runs four
invocations in a row in one TFLite Micro interpreter, and in the reference and the checking
flat interpreter fed their own previous state results: every output, the LSTM's own output
sequence and both states after every call are the same bytes as TFLite Micro's. The models:
TFLM's trained_lstm_int8 example (28 steps of 20 units, then FULLY_CONNECTED and SOFTMAX) and
single LSTMs written with the schema's object API (two batch rows batch- and time-major, a
hidden zero point, cell state scales 2^-11 and 2^-15, an active cell clip). TFLite's int16
sigmoid and tanh match a scalar transcription of TFLite's C++ on every int16 value. A state not
carried between calls and a tanh truncated instead of rounded differ, so these comparisons can fail.
What TFLite Micro does not run, the importer and the verifier refuse.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("tflite_micro")

from test_tflite_import import import_bytes, run_both  # noqa: E402
from test_tflite_svdf import assert_same_calls, cfmem_calls, tflm_calls, variables  # noqa: E402

from cfmem.dialects import nn_lstm as nl  # noqa: E402
from cfmem.importers.tflite import TfliteImportError, initial_state  # noqa: E402
from cfmem.interp.kernels import lstm  # noqa: E402
from cfmem.testing.tflite_writer import TfliteWriter, options  # noqa: E402
from cfmem.testing.tflm_models import example_models  # noqa: E402
from cfmem.tflite.model_file import FILE_IDENTIFIER, parse_tflite  # noqa: E402

SEQUENCE_OUTPUT = 23
"""trained_lstm_int8's tensor written by the LSTM (its output sequence)."""


def packed(model) -> bytes:
    """A model of the schema's object API as file bytes."""
    import flatbuffers

    builder = flatbuffers.Builder(1 << 16)
    builder.Finish(model.Pack(builder), file_identifier=FILE_IDENTIFIER)
    return bytes(builder.Output())


def with_outputs(data: bytes, outputs: list[int]) -> bytes:
    """The model ``data`` with the main subgraph's outputs set to ``outputs``."""
    model = parse_tflite(data)
    model.subgraphs[0].outputs = np.array(outputs, np.int32)
    return packed(model)


def image_like_inputs(seed: int) -> list[list[np.ndarray]]:
    """Four different int8 28x28 inputs: a dark image with a bright stroke, uniform noise over
    the whole range, a saturated image and a gradient."""
    rng = np.random.default_rng(seed)
    stroke = np.full((1, 28, 28), -128, np.int8)
    stroke[0, 4:24, 12:16] = rng.integers(60, 128, (20, 4))
    gradient = np.linspace(-128, 127, 28 * 28).round().astype(np.int8).reshape(1, 28, 28)
    return [[stroke], [rng.integers(-128, 128, (1, 28, 28)).astype(np.int8)], [np.full((1, 28, 28), 127, np.int8)], [gradient]]


# --- TFLM's trained_lstm_int8 --------------------------------------------------------------------


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("trained_lstm")
    data = with_outputs(example_models()["trained_lstm_int8"].read_bytes(), [26, SEQUENCE_OUTPUT])
    _, imported = import_bytes(data, tmp_path)
    inputs = image_like_inputs(11)
    return data, imported, tmp_path, inputs, tflm_calls(data, inputs)


def test_trained_lstm_matches_tflm_over_consecutive_calls(trained):
    data, imported, tmp_path, inputs, want = trained
    fn = next(op for op in imported.module.ops if op.name == "func.func")
    states = ["tfl.pseudo_qconst", "tfl.pseudo_qconst1"]
    assert variables(data) == [16, 17]
    assert [a.data for a in fn.attributes["cfmem.input_names"].data] == ["serving_default_fixed_input:0", *states]
    assert [a.data for a in fn.attributes["cfmem.result_names"].data] == ["StatefulPartitionedCall:0", "tfl.unidirectional_sequence_lstm",
                                                                          *(f"{s}_next" for s in states)]  # fmt: skip
    ops = list(imported.module.walk())
    assert sum(isinstance(op, nl.QLstmOp) for op in ops) == 1
    assert sorted(op.state.data for op in ops if isinstance(op, nl.QLstmStateOp)) == ["cell", "hidden"]
    calls = cfmem_calls(imported, tmp_path, data, inputs)
    assert_same_calls(calls, want)
    for (_, sequence, hidden, cell) in want:
        assert sequence.dtype == np.int8 and hidden.dtype == np.int8 and cell.dtype == np.int16
        np.testing.assert_array_equal(sequence.reshape(28, 20)[-1], hidden.reshape(20))  # the state is the last step
    assert len({call[3].tobytes() for call in want}) == len(want)  # the cell state moves on every call
    assert len(np.unique(np.concatenate([call[1].reshape(-1) for call in want]))) > 100


def test_trained_lstm_state_not_carried_differs(trained):
    data, imported, tmp_path, inputs, want = trained
    calls = cfmem_calls(imported, tmp_path, data, inputs, carry=False)
    assert_same_calls(calls[:1], want[:1])
    with pytest.raises(AssertionError):
        assert_same_calls(calls[1:2], want[1:2])


def tanh_truncated(x: np.ndarray, input_multiplier: int = 0, input_left_shift: int = 0) -> np.ndarray:
    """TFLite's int16 tanh without the half (``1 << 7``) it adds before its last shift."""
    data = lstm._scaled_input(x, input_multiplier, input_left_shift)
    magnitude = np.abs(data)
    index = np.minimum(magnitude >> 8, 254)
    low, high = lstm.SIGMOID_TABLE[index], lstm.SIGMOID_TABLE[index + 1]
    result = np.where(magnitude >> 8 >= 255, 0xFFFF << 8, (low << 8) + (magnitude & 0xFF) * (high - low))
    return (np.where(data >= 0, result - (1 << 23), -result + (1 << 23) - 1) >> 8).astype(np.int16)


def test_tanh_truncated_differs(trained, monkeypatch):
    """A tanh that truncates instead of rounding changes what the model computes."""
    data, imported, tmp_path, inputs, want = trained
    monkeypatch.setattr(lstm, "tanh_int16", tanh_truncated)
    golden = run_both(imported, tmp_path, [*inputs[0], *initial_state(parse_tflite(data))])[0]
    assert any((g != w.reshape(g.shape)).any() for g, w in zip(golden, want[0], strict=True))


# --- single LSTMs --------------------------------------------------------------------------------


def lstm_model(batch: int, time_major: bool, cell_power: int, cell_clip: float, hidden_zero: int, seed: int) -> bytes:
    """One LSTM of 6 time steps, 5 inputs and 7 units, its output the model's."""
    rng = np.random.default_rng(seed)
    time, features, units = 6, 5, 7
    w = TfliteWriter()
    sg = w.subgraph("main")
    shape = (time, batch, features) if time_major else (batch, time, features)
    x = sg.tensor("x", shape, np.int8, scale=0.02, zero_point=-5)
    inputs = [x]
    for gate in nl.GATES:
        inputs.append(sg.const(f"input_to_{gate}", rng.integers(-127, 128, (units, features)).astype(np.int8), scale=float(rng.uniform(0.004, 0.02))))
    for gate in nl.GATES:
        inputs.append(sg.const(f"recurrent_to_{gate}", rng.integers(-127, 128, (units, units)).astype(np.int8), scale=float(rng.uniform(0.004, 0.02))))
    inputs += [-1, -1, -1]
    for gate in nl.GATES:
        inputs.append(sg.const(f"{gate}_bias", rng.integers(-3000, 3000, units).astype(np.int32), scale=1e-5))
    inputs += [-1, -1]
    inputs.append(sg.tensor("hidden", (batch, units), np.int8, scale=0.008, zero_point=hidden_zero, variable=True))
    inputs.append(sg.tensor("cell", (batch, units), np.int16, scale=2.0**cell_power, variable=True))
    inputs += [-1, -1, -1, -1]
    out_shape = (time, batch, units) if time_major else (batch, time, units)
    y = sg.tensor("y", out_shape, np.int8, scale=0.008, zero_point=hidden_zero)
    opts = options("UnidirectionalSequenceLSTMOptions", fusedActivationFunction=4, cellClip=cell_clip, timeMajor=time_major)
    sg.op("UNIDIRECTIONAL_SEQUENCE_LSTM", inputs, [y], opts)
    sg.io([x], [y])
    return w.pack()


def lstm_inputs(shape: tuple[int, ...], seed: int) -> list[list[np.ndarray]]:
    rng = np.random.default_rng(seed)
    return [[rng.integers(-128, 128, shape).astype(np.int8)] for _ in range(4)]


@pytest.mark.parametrize(("batch", "time_major", "cell_power", "cell_clip", "hidden_zero"), [
    (1, False, -12, 0.0, 0),
    (2, False, -11, 1.5, 3),
    (2, True, -15, 0.0, -7),
    (3, True, -12, 0.25, 0),
])  # fmt: skip
def test_one_lstm_matches_tflm_over_consecutive_calls(tmp_path, batch, time_major, cell_power, cell_clip, hidden_zero):
    data = lstm_model(batch, time_major, cell_power, cell_clip, hidden_zero, seed=batch)
    _, imported = import_bytes(data, tmp_path)
    shape = (6, batch, 5) if time_major else (batch, 6, 5)
    inputs = lstm_inputs(shape, seed=batch + 10)
    want = tflm_calls(data, inputs)
    assert_same_calls(cfmem_calls(imported, tmp_path, data, inputs), want)
    clip = int(cell_clip / 2.0**cell_power)
    if clip:  # the clip bites
        assert any(np.abs(call[2]).max() == clip for call in want)


def lstm_without(change: str) -> bytes:
    """``lstm_model`` with one thing TFLite Micro's integer LSTM does not compute."""
    data = lstm_model(1, False, -12, 0.0, 0, seed=0)
    model = parse_tflite(data)
    sg = model.subgraphs[0]
    op = sg.operators[0]
    if change == "activation":
        op.builtinOptions.fusedActivationFunction = 1
    elif change == "peephole":
        op.inputs[9] = op.inputs[1]
    elif change == "cell scale":
        sg.tensors[op.inputs[19]].quantization.scale = np.array([3e-4], np.float32)
    elif change == "weight zero point":
        sg.tensors[op.inputs[2]].quantization.zeroPoint = np.array([1], np.int64)
    elif change == "int16 hidden state":
        sg.tensors[op.inputs[18]].type = sg.tensors[op.inputs[19]].type
    return packed(model)


@pytest.mark.parametrize(("change", "message"), [
    ("activation", "the cell activation must be TANH"),
    ("peephole", "input #9 must be absent"),
    ("cell scale", "the cell state's scale 0.0003 is not a power of two"),
    ("weight zero point", r"weights \(input #2\) have zero point 1"),
    ("int16 hidden state", r"input #18 \(the hidden state\) must be an int8 variable tensor"),
])  # fmt: skip
def test_lstm_tflite_micro_does_not_run_is_refused(tmp_path, change, message):
    with pytest.raises(TfliteImportError, match=message):
        import_bytes(lstm_without(change), tmp_path)


def test_linalg_lowering_refuses_the_lstm(tmp_path):
    from cfmem.errors import CfmemError
    from cfmem.pipeline import apply_pipeline, lower_model

    _, imported = import_bytes(lstm_model(1, False, -12, 0.0, 0, seed=0), tmp_path)
    with pytest.raises(CfmemError, match=r"nn-lower-to-linalg: 'nn.qlstm' \(TFLite's integer LSTM\) is not supported"):
        apply_pipeline(lower_model(imported.module, "nn-plan-memory", tmp_path), "nn-lower-to-linalg", "m.mlir", tmp_path)


@pytest.mark.parametrize(("old", "new", "message"), [
    (None, None, None),
    ("cell_clip = 0 : i64", "cell_clip = 40000 : i64", r"cell_clip must lie in \[0, 32767\]"),
    ("time_major = 0 : i64", "time_major = 2 : i64", "time_major must be 0 or 1"),
    ("cell_scale_power = -12 : i64", "cell_scale_power = 3 : i64", r"cell_scale_power must lie in \[-31, 0\]"),
    ("c_zero_point = array<i64: 0>", "c_zero_point = array<i64: 5>", "c_zero_point must be 0"),
    ("forget_multiplier = array<i64: 1073741824>", "forget_multiplier = array<i64: 1073741824, 1>",
     "forget_multiplier and forget_shift must have 1 element"),
    ("state = \"cell\"", "state = \"both\"", "state must be one of hidden, cell"),
    ("tensor<1x7xi16>", "tensor<1x8xi16>", "operand #14 must be an i16 tensor of 7 elements"),
])  # fmt: skip
def test_the_verifier_holds_the_lstm_ops_to_what_tflite_micro_computes(tmp_path, old, new, message):
    from cfmem.errors import CfmemError
    from cfmem.ir_io import parse_module

    _, imported = import_bytes(lstm_model(1, False, -12, 0.0, 0, seed=0), tmp_path)
    text = str(imported.module)
    if old is None:
        parse_module(text)
        return
    assert old in text
    with pytest.raises(CfmemError, match=message):
        parse_module(text.replace(old, new))


# --- TFLite's int16 sigmoid and tanh -------------------------------------------------------------


def scalar_logistic(value: int, input_multiplier: int, input_left_shift: int) -> int:
    """``reference_integer_ops::Logistic`` for int16, transcribed line by line (uint32 wraps)."""
    if input_multiplier == 0:
        input_multiplier, input_left_shift = 3 << input_left_shift, 0
    rounding = (1 << (input_left_shift - 1)) if input_left_shift > 0 else 0
    input_data = (value * input_multiplier + rounding) >> input_left_shift
    abs_input_data = abs(input_data)
    uh = abs_input_data >> 9
    if uh >= 255:
        result = 0x7FFF << 10
    else:
        ua, ub = int(lstm.SIGMOID_TABLE[uh]), int(lstm.SIGMOID_TABLE[uh + 1])
        ut = abs_input_data & 0x1FF
        result = ((ua << 9) + ut * (ub - ua)) & 0xFFFFFFFF
    result = (result + (1 << 9)) if input_data >= 0 else ((1 << (16 + 9)) - result + (1 << 9) - 1)
    result = (result & 0xFFFFFFFF) >> 10
    return (result + 2**15) % 2**16 - 2**15


def scalar_tanh(value: int, input_multiplier: int, input_left_shift: int) -> int:
    """``reference_integer_ops::Tanh`` for int16, transcribed line by line (int32 result)."""
    if input_multiplier == 0:
        input_multiplier, input_left_shift = 3 << input_left_shift, 0
    rounding = (1 << (input_left_shift - 1)) if input_left_shift > 0 else 0
    input_data = (value * input_multiplier + rounding) >> input_left_shift
    abs_input_data = abs(input_data)
    uh = abs_input_data >> 8
    if uh >= 255:
        result = 0xFFFF << 8
    else:
        ua, ub = int(lstm.SIGMOID_TABLE[uh]), int(lstm.SIGMOID_TABLE[uh + 1])
        ut = abs_input_data & 0xFF
        result = (ua << 8) + ut * (ub - ua)
    result = (result - (1 << (14 + 9)) + (1 << (9 - 2))) if input_data >= 0 else (-result + (1 << (14 + 9)) + (1 << (9 - 2)) - 1)
    result >>= 9 - 1
    return (result + 2**15) % 2**16 - 2**15


ALL_INT16 = np.arange(-(2**15), 2**15, dtype=np.int64)


@pytest.mark.parametrize(("multiplier", "shift"), [(0, 0)])
def test_int16_logistic_matches_tflite_on_every_value(multiplier, shift):
    got = lstm.logistic_int16(ALL_INT16.astype(np.int16), multiplier, shift)
    want = np.array([scalar_logistic(int(v), multiplier, shift) for v in ALL_INT16], np.int16)
    np.testing.assert_array_equal(got, want)
    assert got[2**15] == 16384 and 0 < got[0] < 16 and 32700 < got[-1] < 32768
    real = 1 / (1 + np.exp(-ALL_INT16 / 4096))
    assert np.abs(got / 32768 - real).max() < 2e-4


@pytest.mark.parametrize("cell_power", [-12, -11, -10, -15, -16])
def test_lstm_tanh_matches_tflite_on_every_value(cell_power):
    left_shift, multiplier = 15 + cell_power - 3, 0
    if left_shift < 0:
        left_shift, multiplier = -left_shift, 3
    got = lstm.lstm_tanh(cell_power, ALL_INT16.astype(np.int16))
    want = np.array([scalar_tanh(int(v), multiplier, left_shift) for v in ALL_INT16], np.int16)
    np.testing.assert_array_equal(got, want)
    assert got[2**15] == 0 and (got[-1] == 32767 or cell_power < -12)
    assert np.abs(got / 32768 - np.tanh(ALL_INT16 * 2.0**cell_power)).max() < 3e-4


def test_a_truncated_tanh_differs_from_tflite():
    """Without the half added before the last shift, a tanh is not TFLite's."""
    values = ALL_INT16.astype(np.int16)
    assert (tanh_truncated(values) != lstm.tanh_int16(values)).sum() > 10000
