"""Models of opset 6 and older are converted to opset 7 by onnx's version converter before
import (cfmem.importers.onnx.legacy): their legacy broadcasting and per-channel PRelu slopes
compute what opset 6 defines, and a model the converter cannot convert is a one-line refusal."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from cfmem.importers.onnx import OnnxImportError, load_onnx, onnx_importer
from cfmem.interp.golden import run_function


def _model(nodes, inputs, output_shape, initializers=(), opset=6) -> onnx.ModelProto:
    graph = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info(n, TensorProto.FLOAT, s) for n, s in inputs],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, output_shape)], list(initializers),
    )  # fmt: skip
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=4)


def _run(tmp_path, model: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> np.ndarray:
    path = tmp_path / "m.onnx"
    onnx.save(model, str(path))
    imported = onnx_importer(load_onnx(path), "w.bin").import_graph({}, {})
    (tmp_path / "w.bin").write_bytes(imported.blob)
    (y,) = run_function(imported.module, feeds, base_dir=tmp_path).outputs.values()
    return y


def test_legacy_broadcast_of_an_opset_6_add_runs_along_its_axis(tmp_path):
    """Add-6 with ``broadcast=1, axis=1`` adds a [C] tensor along axis 1, which opset 7's
    numpy broadcasting would put along the last axis."""
    rng = np.random.default_rng(0)
    x, b = rng.standard_normal((2, 3, 4, 3)).astype(np.float32), rng.standard_normal(3).astype(np.float32)
    model = _model([helper.make_node("Add", ["x", "b"], ["y"], broadcast=1, axis=1)], [("x", x.shape), ("b", b.shape)], x.shape)
    got = _run(tmp_path, model, {"x": x, "b": b})
    np.testing.assert_array_equal(got, x + b.reshape(1, 3, 1, 1))
    assert not np.array_equal(got, x + b)


def test_an_opset_6_prelu_slope_of_one_per_channel_is_per_channel(tmp_path):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((1, 3, 2, 3)).astype(np.float32)
    slope = np.array([0.1, 0.5, 2.0], np.float32)
    weights = [numpy_helper.from_array(slope, "slope")]
    model = _model([helper.make_node("PRelu", ["x", "slope"], ["y"])], [("x", x.shape)], x.shape, weights)
    got = _run(tmp_path, model, {"x": x})
    np.testing.assert_array_equal(got, np.where(x < 0, x * slope.reshape(1, 3, 1, 1), x))
    assert not np.array_equal(got, np.where(x < 0, x * slope, x))


def test_an_opset_7_model_is_imported_as_it_is(tmp_path):
    """Opset 7 broadcasts a [3] slope along the last axis; no reshaping there."""
    x = np.linspace(-1, 1, 18, dtype=np.float32).reshape(1, 3, 2, 3)
    slope = np.array([0.1, 0.5, 2.0], np.float32)
    model = _model([helper.make_node("PRelu", ["x", "slope"], ["y"])], [("x", x.shape)], x.shape,
                   [numpy_helper.from_array(slope, "slope")], opset=7)  # fmt: skip
    np.testing.assert_array_equal(_run(tmp_path, model, {"x": x}), np.where(x < 0, x * slope, x))


def test_a_model_the_converter_cannot_convert_is_a_one_line_refusal(tmp_path):
    model = _model([helper.make_node("Split", ["x"], ["y", "z"], axis=1)], [("x", (1, 4))], (1, 2), opset=1)
    model.graph.output.append(helper.make_tensor_value_info("z", TensorProto.FLOAT, (1, 2)))
    path = tmp_path / "m.onnx"
    onnx.save(model, str(path))
    with pytest.raises(OnnxImportError) as err:
        load_onnx(path)
    message = str(err.value)
    assert message.startswith("opset 1 model: onnx's version converter cannot bring it to opset 7 (")
    assert "\n" not in message and "/project" not in message and "Split" in message
