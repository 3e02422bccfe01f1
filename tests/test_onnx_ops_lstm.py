"""ONNX LSTM: every input and output cfmem takes, against onnxruntime, and every form it
refuses, by its exact message."""

from __future__ import annotations

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")
from onnx import TensorProto as T  # noqa: E402
from onnx import helper as h  # noqa: E402
from onnx import numpy_helper as nh  # noqa: E402
from test_onnx_ops_mapping import matches_onnxruntime, refusal  # noqa: E402

HIDDEN, INPUT = 3, 2


def lstm_model(seq: int, batch: int, *, bias=True, h0="input", c0="input", seq_lens=None, outputs=("y", "y_h", "y_c"),
               opset=14, extra_inputs=(), **attrs) -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:  # fmt: skip
    """An LSTM over x[seq, batch, INPUT]; h0 and c0 are run-time inputs, known, or omitted."""
    rng = np.random.default_rng(seq * 10 + batch)
    inits = [
        nh.from_array(rng.standard_normal((1, 4 * HIDDEN, INPUT)).astype(np.float32), "W"),
        nh.from_array(rng.standard_normal((1, 4 * HIDDEN, HIDDEN)).astype(np.float32), "R"),
    ]
    names = ["x", "W", "R", "B" if bias else "", "lens" if seq_lens is not None else "", "", ""]
    if bias:
        inits.append(nh.from_array(rng.standard_normal((1, 8 * HIDDEN)).astype(np.float32), "B"))
    if seq_lens is not None:
        inits.append(nh.from_array(np.array(seq_lens, np.int32), "lens"))
    feeds = {"x": rng.standard_normal((seq, batch, INPUT)).astype(np.float32)}
    inputs = [h.make_tensor_value_info("x", T.FLOAT, [seq, batch, INPUT])]
    for k, (state, how) in enumerate((("h0", h0), ("c0", c0)), start=5):
        value = rng.standard_normal((1, batch, HIDDEN)).astype(np.float32)
        if how == "input":
            feeds[state] = value
            inputs.append(h.make_tensor_value_info(state, T.FLOAT, [1, batch, HIDDEN]))
        elif how == "known":
            inits.append(nh.from_array(value, state))
        names[k] = state if how else ""
    names += list(extra_inputs)
    while names and not names[-1]:
        names.pop()
    node = h.make_node("LSTM", names, list(outputs), hidden_size=HIDDEN, name="lstm", **attrs)
    shapes = {"y": [seq, 1, batch, HIDDEN], "y_h": [1, batch, HIDDEN], "y_c": [1, batch, HIDDEN]}
    outs = [h.make_tensor_value_info(o, T.FLOAT, shapes[o]) for o in outputs if o]
    graph = h.make_graph([node], "g", inputs, outs, inits)
    return h.make_model(graph, opset_imports=[h.make_opsetid("", opset)], ir_version=8), feeds


@pytest.mark.parametrize("seq", [1, 2, 3])
@pytest.mark.parametrize("h0, c0", [("input", "input"), ("known", None), (None, "known"), (None, None)])
@pytest.mark.parametrize("bias", [True, False])
def test_initial_states_bias_and_every_output_match_onnxruntime(tmp_path, seq, h0, c0, bias):
    model, feeds = lstm_model(seq, 2, bias=bias, h0=h0, c0=c0, seq_lens=[seq, seq])
    onnx.checker.check_model(model)
    matches_onnxruntime(tmp_path, model, feeds)


def test_only_the_outputs_asked_for_at_older_opsets(tmp_path):
    model, feeds = lstm_model(2, 1, outputs=("", "y_h"), opset=7)
    matches_onnxruntime(tmp_path, model, feeds)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"activations": ["Sigmoid", "Relu", "Tanh"]},
         "LSTM activations Sigmoid, Relu, Tanh are not supported (only Sigmoid, Tanh, Tanh per direction)"),
        ({"clip": 3.0}, "LSTM clip is not supported"),
        ({"input_forget": 1}, "LSTM input_forget is not supported"),
        ({"extra_inputs": ["P"]}, "LSTM peepholes are not supported"),
        ({"seq_lens": [3, 2]}, "LSTM sequence_lens shorter than the sequence are not supported"),
    ],
)  # fmt: skip
def test_unsupported_forms_are_refused_by_name(kwargs, message):
    model, _ = lstm_model(3, 2, **kwargs)
    if "extra_inputs" in kwargs:
        model.graph.initializer.append(nh.from_array(np.zeros((1, 3 * HIDDEN), np.float32), "P"))
    assert refusal(model) == f"node lstm (LSTM): {message}"


@pytest.mark.parametrize("which", ["W", "R", "B", "lens"])
def test_weights_computed_at_run_time_are_refused_by_input(which):
    model, _ = lstm_model(2, 1, seq_lens=[2])
    init = next(i for i in model.graph.initializer if i.name == which)
    model.graph.initializer.remove(init)
    elem = T.INT32 if which == "lens" else T.FLOAT
    model.graph.input.append(h.make_tensor_value_info(which, elem, list(init.dims)))
    what = {"W": "LSTM W", "R": "LSTM R", "B": "LSTM B", "lens": "LSTM sequence_lens"}[which]
    assert refusal(model) == f"node lstm (LSTM): {what} must be a constant (it is computed at run time)"


def test_an_input_of_the_wrong_rank_is_refused_with_its_shape():
    model, _ = lstm_model(2, 1, h0=None, c0=None)
    model.graph.input[0].type.tensor_type.shape.ClearField("dim")
    for d in (2, INPUT):
        model.graph.input[0].type.tensor_type.shape.dim.add().dim_value = d
    assert refusal(model) == (
        f"node lstm (LSTM): LSTM input X has shape [2, {INPUT}], expected [seq_length, batch_size, input_size]"
    )
