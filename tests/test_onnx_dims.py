"""Symbolic input dimensions: ``--dim NAME=SIZE`` fixes one by name in every input that has
it, and an import with dimensions left unfixed lists all of them in one line with options
that, pasted as they are, import the model."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")
from onnx import TensorProto as T  # noqa: E402
from onnx import helper as h  # noqa: E402

from cfmem.importers.onnx import OnnxImportError, import_onnx  # noqa: E402
from cfmem.importers.onnx.reference import max_abs_error, onnxruntime_outputs  # noqa: E402
from cfmem.interp.golden import run_function  # noqa: E402


def two_input_model(tmp_path: Path, x_dims, y_dims, z_dims=None) -> Path:
    """out = relu(x) + y (+ z): x and y share their symbolic dimensions by name."""
    nodes = [h.make_node("Relu", ["x"], ["r"]), h.make_node("Add", ["r", "y"], ["out"])]
    inputs = [h.make_tensor_value_info("x", T.FLOAT, x_dims), h.make_tensor_value_info("y", T.FLOAT, y_dims)]
    if z_dims is not None:
        nodes[-1] = h.make_node("Add", ["r", "y"], ["s"])
        nodes.append(h.make_node("Add", ["s", "z"], ["out"]))
        inputs.append(h.make_tensor_value_info("z", T.FLOAT, z_dims))
    graph = h.make_graph(nodes, "g", inputs, [h.make_tensor_value_info("out", T.FLOAT, [None] * len(x_dims))])
    path = tmp_path / "m.onnx"
    onnx.save(h.make_model(graph, opset_imports=[h.make_opsetid("", 17)], ir_version=8), str(path))
    return path


def function_input_shapes(imported) -> list[tuple[int, ...]]:
    fn = next(op for op in imported.module.walk() if op.name == "func.func")
    return [tuple(arg.type.get_shape()) for arg in fn.body.block.args]


def test_one_dim_option_fixes_a_name_in_every_input(tmp_path):
    path = two_input_model(tmp_path, ["batch", 3, "time"], ["batch", 3, "time"])
    imported = import_onnx(path, blob_file="w.bin", dims={"batch": 2, "time": 5})
    assert function_input_shapes(imported) == [(2, 3, 5), (2, 3, 5)]
    rng = np.random.default_rng(3)
    feeds = {k: rng.standard_normal((2, 3, 5)).astype(np.float32) for k in ("x", "y")}
    got = run_function(imported.module, feeds, base_dir=tmp_path).outputs
    assert max_abs_error(onnxruntime_outputs(path, feeds), got) <= 1e-6


def test_a_whole_input_shape_wins_where_given_and_must_agree_with_the_dims(tmp_path):
    path = two_input_model(tmp_path, ["batch", 3], ["batch", 3], ["n", 1])
    imported = import_onnx(path, blob_file="w.bin", dims={"batch": 4}, input_shapes={"z": (4, 1)})
    assert function_input_shapes(imported) == [(4, 3), (4, 3), (4, 1)]
    with pytest.raises(OnnxImportError, match=r"--input-shape x: dimension 0 is 'batch', which --dim batch=4 fixes, not 2"):
        import_onnx(path, blob_file="w.bin", dims={"batch": 4, "n": 4}, input_shapes={"x": (2, 3)})


def test_a_dim_the_inputs_do_not_have_is_refused_with_the_names_they_have(tmp_path):
    path = two_input_model(tmp_path, ["batch", 3], ["batch", "feat"])
    with pytest.raises(OnnxImportError) as err:
        import_onnx(path, blob_file="w.bin", dims={"Batch": 1})
    assert str(err.value) == "--dim Batch: the model's inputs have no symbolic dimension 'Batch' (symbolic: batch, feat)"


def cfmem(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    from conftest import run_cfmem

    return run_cfmem(*args, cwd=cwd)


def test_every_unfixed_dimension_is_listed_once_with_a_fix_that_works(tmp_path):
    # x and y share 'batch'; y also has 'feat'; z has a dimension of unknown size.
    path = two_input_model(tmp_path, ["batch", 3], ["batch", "feat"], [None, 3])
    model = onnx.load(str(path))
    model.graph.input[2].type.tensor_type.shape.dim[0].Clear()
    onnx.save(model, str(path))
    done = cfmem("import", "m.onnx", "-o", "m.mlir", cwd=tmp_path)
    assert done.returncode == 1 and not (tmp_path / "m.mlir").exists()
    line = done.stderr.strip()
    assert line == (
        "cfmem: m.onnx: error: input 'x' has a symbolic dimension 'batch' at position 0,"
        " input 'y' has a symbolic dimension 'batch' at position 0,"
        " input 'y' has a symbolic dimension 'feat' at position 1,"
        " input 'z' has a dimension of unknown size at position 0:"
        " fix them with --dim batch=1 --dim feat=1 --input-shape z=1,3 (or any other positive sizes)"
    )
    fix = line.split("fix them with ")[1].split(" (")[0].split()
    done = cfmem("import", "m.onnx", "-o", "m.mlir", *fix, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    # 'feat' fixed to 1 broadcasts against x's 3, as onnxruntime does
    rng = np.random.default_rng(5)
    feeds = {"x": rng.standard_normal((1, 3)).astype(np.float32), "y": rng.standard_normal((1, 1)).astype(np.float32),
             "z": rng.standard_normal((1, 3)).astype(np.float32)}  # fmt: skip
    np.savez(tmp_path / "in.npz", **feeds)
    done = cfmem("run", "m.mlir", "--inputs", "in.npz", "-o", "out.npz", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert max_abs_error(onnxruntime_outputs(path, feeds), dict(np.load(tmp_path / "out.npz"))) <= 1e-6


def test_dims_already_fixed_are_not_listed_and_keep_their_size_in_the_suggestion(tmp_path):
    path = two_input_model(tmp_path, ["batch", "n"], ["batch", "n"])
    model = onnx.load(str(path))
    model.graph.input[1].type.tensor_type.shape.dim[1].Clear()  # y: [batch, ?]
    onnx.save(model, str(path))
    with pytest.raises(OnnxImportError) as err:
        import_onnx(path, blob_file="w.bin", dims={"batch": 2})
    assert str(err.value) == (
        "input 'x' has a symbolic dimension 'n' at position 1, input 'y' has a dimension of unknown size at position 1:"
        " fix them with --dim n=1 --input-shape y=2,1 (or any other positive sizes)"
    )
