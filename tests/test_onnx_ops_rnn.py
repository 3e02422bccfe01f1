"""GRU and LSTM in every direction and layout, with and without their optional inputs and
outputs, imported at every version cfmem accepts, on drawn sizes and values, against
onnxruntime: the reference interpreter on the import and the planned flat form, which must
compute the same numbers. Every form they refuse, by its exact message."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from onnx import TensorProto as T  # noqa: E402
from onnx import helper as h  # noqa: E402
from onnx import numpy_helper as nh  # noqa: E402
from test_onnx_ops_mapping import cfmem_runs, refusal  # noqa: E402

from cfmem.importers.onnx.registry import OPERATOR_VERSIONS  # noqa: E402
from cfmem.importers.onnx.reference import max_abs_error, onnxruntime_outputs  # noqa: E402

OLDEST_OPSET = 7  # the oldest onnxruntime runs
GATES = {"GRU": 3, "LSTM": 4}
STATES = {"GRU": ("initial_h",), "LSTM": ("initial_h", "initial_c")}
OUTPUTS = {"GRU": ("Y", "Y_h"), "LSTM": ("Y", "Y_h", "Y_c")}


@dataclass
class Rnn:
    """One GRU or LSTM node; an initial state is ``"input"`` (fed at run time), ``"known"``
    (an initializer) or None (omitted); ``outputs`` may leave some out (empty names)."""

    op: str
    seq: int = 2
    batch: int = 2
    input_size: int = 3
    hidden: int = 2
    direction: str = "forward"
    layout: int = 0
    bias: bool = True
    states: dict[str, str | None] = field(default_factory=dict)
    seq_lens: list[int] | None = None
    outputs: tuple[str, ...] = ()
    opset: int = 14
    attrs: dict = field(default_factory=dict)
    seed: int = 0

    @property
    def directions(self) -> int:
        return 2 if self.direction == "bidirectional" else 1


def model_of(rnn: Rnn) -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:
    """The node in a one-node model, with its feeds; weights are initializers. Whatever
    the layout, the same seed draws the same numbers (layout 1 holds them transposed)."""
    rng = np.random.default_rng(rnn.seed)
    dirs, gates, hidden = rnn.directions, GATES[rnn.op], rnn.hidden

    def floats(*shape: int) -> np.ndarray:
        return rng.standard_normal(shape).astype(np.float32)

    def batch_first(layout_0: np.ndarray) -> np.ndarray:
        return layout_0.swapaxes(0, 1) if rnn.layout else layout_0

    inits = [nh.from_array(floats(dirs, gates * hidden, rnn.input_size), "W"), nh.from_array(floats(dirs, gates * hidden, hidden), "R")]
    names = ["x", "W", "R", "", "", *[""] * len(STATES[rnn.op])]
    if rnn.bias:
        inits.append(nh.from_array(floats(dirs, 2 * gates * hidden), "B"))
        names[3] = "B"
    if rnn.seq_lens is not None:
        inits.append(nh.from_array(np.array(rnn.seq_lens, np.int32), "lens"))
        names[4] = "lens"
    x_shape = [rnn.batch, rnn.seq, rnn.input_size] if rnn.layout else [rnn.seq, rnn.batch, rnn.input_size]
    feeds = {"x": batch_first(floats(rnn.seq, rnn.batch, rnn.input_size))}
    inputs = [h.make_tensor_value_info("x", T.FLOAT, x_shape)]
    state_shape = [rnn.batch, dirs, hidden] if rnn.layout else [dirs, rnn.batch, hidden]
    for k, state in enumerate(STATES[rnn.op], start=5):
        how, value = rnn.states.get(state), batch_first(floats(dirs, rnn.batch, hidden))
        if how == "input":
            feeds[state] = value
            inputs.append(h.make_tensor_value_info(state, T.FLOAT, state_shape))
        elif how == "known":
            inits.append(nh.from_array(value, state))
        names[k] = state if how else ""
    while not names[-1]:
        names.pop()
    outputs = rnn.outputs or OUTPUTS[rnn.op]
    attrs = dict(rnn.attrs, direction=rnn.direction, **({"layout": rnn.layout} if rnn.layout else {}))
    node = h.make_node(rnn.op, names, list(outputs), hidden_size=hidden, name="rnn", **attrs)
    y_shape = [rnn.batch, rnn.seq, dirs, hidden] if rnn.layout else [rnn.seq, dirs, rnn.batch, hidden]
    shapes = {"Y": y_shape, "Y_h": state_shape, "Y_c": state_shape}
    outs = [h.make_tensor_value_info(o, T.FLOAT, shapes[o]) for o in outputs if o]
    ir_version = 8 if rnn.opset < 19 else 9 if rnn.opset < 21 else 10
    graph = h.make_graph([node], "g", inputs, outs, inits)
    return h.make_model(graph, opset_imports=[h.make_opsetid("", rnn.opset)], ir_version=ir_version), feeds


def onnxruntime_reference(tmp_path: Path, rnn: Rnn) -> dict[str, np.ndarray]:
    """The outputs under onnxruntime; for layout 1, which onnxruntime refuses, those of the
    same node in layout 0 on the same numbers, made batch-first."""
    model, feeds = model_of(replace(rnn, layout=0))
    path = tmp_path / "layout0.onnx"
    onnx.save(model, str(path))
    outputs = onnxruntime_outputs(path, feeds)
    if rnn.layout:  # Y [seq, directions, batch, hidden] -> [batch, seq, directions, hidden]
        outputs = {k: v.transpose(2, 0, 1, 3) if k == "Y" else v.swapaxes(0, 1) for k, v in outputs.items()}
    return outputs


def check(tmp_path: Path, rnn: Rnn) -> None:
    """onnxruntime, the reference interpreter and the flat form agree on every output."""
    _, got, ran = cfmem_runs(tmp_path, *model_of(rnn))
    want = onnxruntime_reference(tmp_path, rnn)
    assert want  # at least one output compared
    for outputs in (got, ran):
        assert {k: (v.shape, v.dtype) for k, v in outputs.items()} == {k: (v.shape, v.dtype) for k, v in want.items()}
        assert max_abs_error(want, outputs) <= 1e-5 * max(1.0, max(float(np.abs(v).max()) for v in want.values()))
    for name in want:
        np.testing.assert_array_equal(got[name], ran[name])  # the plan changes no number


@st.composite
def rnns(draw, op: str) -> Rnn:
    """Drawn sizes, direction, layout (from version 14), optional inputs and outputs, at any
    accepted version."""
    opset = max(OLDEST_OPSET, draw(st.sampled_from(OPERATOR_VERSIONS[op]), label="version"))
    seq, batch = draw(st.integers(1, 4), label="seq"), draw(st.integers(1, 3), label="batch")
    names = OUTPUTS[op]
    outputs = draw(st.integers(1, 2 ** len(names) - 1).map(lambda bits: {n for k, n in enumerate(names) if bits >> k & 1}), label="outputs")
    attrs = {"linear_before_reset": draw(st.integers(0, 1), label="linear_before_reset")} if op == "GRU" else {}
    return Rnn(
        op, seq, batch, draw(st.integers(1, 5), label="input"), draw(st.integers(1, 5), label="hidden"),
        direction=draw(st.sampled_from(["forward", "reverse", "bidirectional"]), label="direction"),
        layout=draw(st.integers(0, 1), label="layout") if opset >= 14 else 0,
        bias=draw(st.booleans(), label="bias"),
        states={s: draw(st.sampled_from(["input", "known", None]), label=s) for s in STATES[op]},
        seq_lens=[seq] * batch if draw(st.booleans(), label="sequence_lens") else None,
        outputs=tuple(name if name in outputs else "" for name in names),
        opset=opset, attrs=attrs, seed=draw(st.integers(0, 2**32 - 1), label="seed"),
    )  # fmt: skip


@pytest.mark.parametrize("op", ["GRU", "LSTM"])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_matches_onnxruntime_on_drawn_sizes_directions_layouts_and_optional_inputs(tmp_path, op, data):
    check(tmp_path, data.draw(rnns(op), label="rnn"))


@pytest.mark.parametrize("op", ["GRU", "LSTM"])
@pytest.mark.parametrize("direction", ["forward", "reverse", "bidirectional"])
@pytest.mark.parametrize("layout", [0, 1])
def test_every_direction_and_layout_with_every_output(tmp_path, op, direction, layout):
    states = {s: "input" for s in STATES[op]}
    attrs = {"linear_before_reset": 1} if op == "GRU" else {}
    check(tmp_path, Rnn(op, seq=3, direction=direction, layout=layout, states=states, attrs=attrs))


@pytest.mark.parametrize("op", ["GRU", "LSTM"])
def test_the_default_activations_spelled_out_are_accepted(tmp_path, op):
    defaults = {"GRU": ["Sigmoid", "Tanh"], "LSTM": ["Sigmoid", "Tanh", "Tanh"]}[op]
    check(tmp_path, Rnn(op, direction="bidirectional", attrs={"activations": defaults * 2}))


def gru_refusal(**kwargs) -> str:
    model, _ = model_of(Rnn("GRU", **kwargs))
    return refusal(model)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"attrs": {"clip": 3.0}}, "GRU clip is not supported"),
        ({"attrs": {"activations": ["Relu", "Tanh"]}}, "GRU activations Relu, Tanh are not supported (only Sigmoid, Tanh per direction)"),
        ({"direction": "bidirectional", "attrs": {"activations": ["Sigmoid", "Tanh"]}},
         "GRU activations Sigmoid, Tanh are not supported (only Sigmoid, Tanh per direction)"),
        ({"seq_lens": [2, 1]}, "GRU sequence_lens shorter than the sequence are not supported"),
    ],
)  # fmt: skip
def test_unsupported_gru_forms_are_refused_by_name(kwargs, message):
    assert gru_refusal(**kwargs) == f"node rnn (GRU): {message}"


@pytest.mark.parametrize("which, what", [("W", "W"), ("R", "R"), ("B", "B"), ("lens", "sequence_lens")])
def test_gru_weights_computed_at_run_time_are_refused_by_input(which, what):
    model, _ = model_of(Rnn("GRU", seq_lens=[2, 2]))
    init = next(i for i in model.graph.initializer if i.name == which)
    model.graph.initializer.remove(init)
    model.graph.input.append(h.make_tensor_value_info(which, init.data_type, list(init.dims)))
    assert refusal(model) == f"node rnn (GRU): GRU {what} must be a constant (it is computed at run time)"


@pytest.mark.parametrize("op", ["GRU", "LSTM"])
def test_an_unknown_direction_or_layout_is_refused_by_value(op):
    model, _ = model_of(Rnn(op, direction="sideways"))
    assert refusal(model) == f"node rnn ({op}): {op} direction 'sideways' is not one of forward, reverse, bidirectional"
    model, _ = model_of(Rnn(op, attrs={"layout": 2}))
    assert refusal(model) == f"node rnn ({op}): {op} layout 2 is not 0 or 1"


@pytest.mark.parametrize("op", ["GRU", "LSTM"])
@pytest.mark.parametrize("which", ["W", "R", "B"])
def test_weights_for_another_number_of_directions_are_refused(op, which):
    model, _ = model_of(Rnn(op, direction="bidirectional"))
    init = next(i for i in model.graph.initializer if i.name == which)
    init.CopyFrom(nh.from_array(nh.to_array(init)[:1], which))
    assert refusal(model) == f"node rnn ({op}): {op} {which} holds 1 direction(s), the node runs 2"


@pytest.mark.parametrize("op", ["GRU", "LSTM"])
@pytest.mark.parametrize("direction", ["forward", "bidirectional"])
@pytest.mark.parametrize("layout", [0, 1])
def test_known_initial_states_of_one_element_per_direction(tmp_path, op, direction, layout):
    """Each is cut in numpy: the flat lowering cannot reshape a one-element constant."""
    check(tmp_path, Rnn(op, batch=1, hidden=1, direction=direction, layout=layout, states={s: "known" for s in STATES[op]}))


@pytest.mark.parametrize("op", ["GRU", "LSTM"])
@pytest.mark.parametrize("layout, expected", [(0, "seq_length, batch_size"), (1, "batch_size, seq_length")])
def test_an_input_of_the_wrong_rank_is_refused_with_its_shape(op, layout, expected):
    model, _ = model_of(Rnn(op, layout=layout))
    dims = model.graph.input[0].type.tensor_type.shape
    dims.ClearField("dim")
    for d in (2, 3):
        dims.dim.add().dim_value = d
    assert refusal(model) == f"node rnn ({op}): {op} input X has shape [2, 3], expected [{expected}, input_size]"
