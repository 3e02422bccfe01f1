"""ONNX Tile with known repeats, against onnxruntime on drawn shapes and repeats: the reference
interpreter and the planned flat form; repeats that do not fit the input are refused."""

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

from cfmem.importers.onnx import OnnxImportError, onnx_importer  # noqa: E402


def tile_model(shape, repeats, opset: int) -> onnx.ModelProto:
    out = [d * r for d, r in zip(shape, repeats)] if len(shape) == len(repeats) else None
    graph = h.make_graph(
        [h.make_node("Tile", ["x", "repeats"], ["y"], name="t")], "g",
        [h.make_tensor_value_info("x", T.FLOAT, shape)], [h.make_tensor_value_info("y", T.FLOAT, out)],
        [nh.from_array(np.array(repeats, np.int64), "repeats")],
    )  # fmt: skip
    return h.make_model(graph, opset_imports=[h.make_opsetid("", opset)], ir_version=8)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_matches_onnxruntime_on_drawn_shapes_and_repeats(tmp_path, data):
    shape = data.draw(st.lists(st.integers(1, 3), min_size=1, max_size=4).map(tuple), label="shape")
    repeats = data.draw(st.lists(st.integers(1, 3), min_size=len(shape), max_size=len(shape)), label="repeats")
    x = data.draw(arrays(np.float32, shape, elements=st.floats(-4, 4, width=32)), label="x")
    opset = data.draw(st.sampled_from([7, 13]), label="opset")
    want, got, ran = (outputs["y"] for outputs in three_runs(tmp_path, tile_model(shape, repeats, opset), {"x": x}))
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(ran, want)


@pytest.mark.parametrize("repeats", [[2], [2, 0, 1], [1, -1, 2]])
def test_repeats_that_do_not_fit_the_input_are_refused(repeats):
    model = tile_model((2, 3, 1), repeats, 13)
    with pytest.raises(OnnxImportError) as err:
        onnx_importer(model, "w.bin").import_graph({}, {})
    assert str(err.value) == f"node t (Tile): Tile repeats {repeats} must be 3 positive counts, one per axis of the input"
