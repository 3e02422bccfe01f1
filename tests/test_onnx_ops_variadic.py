"""Max, Min, Sum and Mean of one to four inputs with broadcasting, against onnxruntime on
drawn shapes and values: the reference interpreter and the planned flat form."""

from __future__ import annotations

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.extra.numpy import arrays  # noqa: E402
from onnx import TensorProto as T  # noqa: E402
from onnx import helper as h  # noqa: E402
from onnx import numpy_helper as nh  # noqa: E402
from test_onnx_ops_mapping import three_runs  # noqa: E402

from cfmem.importers.onnx.registry import OPERATOR_VERSIONS  # noqa: E402

BROADCASTING_SINCE = 8
"""Version 6 of these ops takes inputs of one shape only."""


def check(tmp_path, op: str, feeds: dict[str, np.ndarray], opset: int) -> None:
    names = list(feeds)
    out_shape = np.broadcast_shapes(*(v.shape for v in feeds.values()))
    graph = h.make_graph(
        [h.make_node(op, names, ["y"])], "g",
        [h.make_tensor_value_info(n, T.FLOAT, v.shape) for n, v in feeds.items()],
        [h.make_tensor_value_info("y", T.FLOAT, out_shape)],
    )  # fmt: skip
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", opset)], ir_version=8)
    want, got, ran = (outputs["y"] for outputs in three_runs(tmp_path, model, feeds))
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
    np.testing.assert_array_equal(got, ran)


@st.composite
def broadcast_inputs(draw):
    shape = draw(st.lists(st.integers(1, 4), min_size=0, max_size=4))
    count = draw(st.integers(1, 4))
    feeds = {}
    for k in range(count):
        rank = draw(st.integers(0, len(shape)))
        own = tuple(d if draw(st.booleans()) else 1 for d in shape[len(shape) - rank :])
        feeds[f"x{k}"] = draw(arrays(np.float32, own, elements=st.floats(-8, 8, width=32)))
    return feeds


@pytest.mark.parametrize("op", ["Max", "Min", "Sum", "Mean"])
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_matches_onnxruntime_on_drawn_broadcasts(tmp_path, op, data):
    feeds = data.draw(broadcast_inputs(), label="inputs")
    versions = [v for v in OPERATOR_VERSIONS[op] if v >= BROADCASTING_SINCE]
    check(tmp_path, op, feeds, data.draw(st.sampled_from(versions), label="opset"))


def test_nan_wins_in_max_and_min(tmp_path):
    feeds = {"a": np.array([1.0, np.nan, 3.0], np.float32), "b": np.array([np.nan, 2.0, 1.0], np.float32)}
    check(tmp_path, "Max", feeds, 13)
    check(tmp_path, "Min", feeds, 13)


def test_known_operands_join_run_time_ones(tmp_path):
    """A known operand among run-time ones becomes a constant of the combined op."""
    for op in ("Max", "Sum", "Mean"):
        known = np.array([[0.5, -1.0, 2.0]], np.float32)
        graph = h.make_graph(
            [h.make_node(op, ["x", "c", "y"], ["out"])], "g",
            [h.make_tensor_value_info("x", T.FLOAT, [2, 3]), h.make_tensor_value_info("y", T.FLOAT, [3])],
            [h.make_tensor_value_info("out", T.FLOAT, [2, 3])], [nh.from_array(known, "c")],
        )  # fmt: skip
        model = h.make_model(graph, opset_imports=[h.make_opsetid("", 13)], ir_version=8)
        feeds = {"x": np.arange(6, dtype=np.float32).reshape(2, 3) - 2, "y": np.array([1, -3, 0.25], np.float32)}
        want, got, ran = (outputs["out"] for outputs in three_runs(tmp_path, model, feeds))
        np.testing.assert_allclose(got, want, rtol=1e-6)
        np.testing.assert_array_equal(got, ran)

