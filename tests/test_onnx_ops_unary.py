"""Log, Abs, Floor, Ceil, Round, Sign, Erf, Sin, Cos and Reciprocal, imported at every
version cfmem accepts, on drawn shapes and values, against onnxruntime: the reference
interpreter on the import and the planned flat form, which must compute the same numbers."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.extra.numpy import arrays  # noqa: E402
from onnx import TensorProto as T  # noqa: E402
from onnx import helper as h  # noqa: E402
from test_onnx_ops_mapping import three_runs  # noqa: E402

from cfmem.importers.onnx.registry import OPERATOR_VERSIONS  # noqa: E402
from cfmem.importers.onnx.reference import max_abs_error  # noqa: E402

OPS = ("Log", "Abs", "Floor", "Ceil", "Round", "Sign", "Erf", "Sin", "Cos", "Reciprocal")
OLDEST_OPSET = 7  # the oldest onnxruntime runs


def values(op: str):
    """float32 inputs of any rank up to 4: halves for Round (ties go to even), positive for Log,
    away from 0 for Reciprocal, and zeros among the others (Sign of 0)."""
    if op == "Round":
        elements = st.integers(-20, 20).map(lambda k: k / 2)
    elif op == "Log":
        elements = st.floats(0.0625, 48, width=32)
    elif op == "Reciprocal":
        elements = st.floats(0.0625, 48, width=32) | st.floats(-48, -0.0625, width=32)
    else:
        elements = st.floats(-20, 20, width=32) | st.just(0.0)
    shapes = st.lists(st.integers(1, 4), min_size=0, max_size=4).map(tuple)
    return shapes.flatmap(lambda shape: arrays(np.float32, shape, elements=elements))


def model(op: str, x: np.ndarray, opset: int) -> onnx.ModelProto:
    graph = h.make_graph(
        [h.make_node(op, ["x"], ["y"])], "g", [h.make_tensor_value_info("x", T.FLOAT, x.shape)],
        [h.make_tensor_value_info("y", T.FLOAT, x.shape)],
    )  # fmt: skip
    ir_version = 8 if opset < 19 else 9 if opset < 21 else 10
    return h.make_model(graph, opset_imports=[h.make_opsetid("", opset)], ir_version=ir_version)


def check(tmp_path: Path, op: str, x: np.ndarray, opset: int) -> None:
    want, got, ran = three_runs(tmp_path, model(op, x, opset), {"x": x})
    for outputs in (got, ran):
        assert {k: (v.shape, v.dtype) for k, v in outputs.items()} == {k: (v.shape, v.dtype) for k, v in want.items()}
        assert max_abs_error(want, outputs) <= 1e-6 * max(1.0, float(np.abs(want["y"]).max(initial=0)))
    np.testing.assert_array_equal(got["y"], ran["y"])  # the plan changes no number


@pytest.mark.parametrize("op", OPS)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_matches_onnxruntime_on_drawn_shapes_and_values(tmp_path, op, data):
    x = data.draw(values(op), label="x")
    opset = max(OLDEST_OPSET, data.draw(st.sampled_from(OPERATOR_VERSIONS[op]), label="version"))
    check(tmp_path, op, x, opset)


def test_round_sends_halves_to_even_and_sign_keeps_zero_and_nan(tmp_path):
    check(tmp_path, "Round", np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.5], np.float32), 11)
    check(tmp_path, "Sign", np.array([-3.0, -0.0, 0.0, 2.0, np.nan], np.float32), 13)
