"""cfmem import on small hand-written ONNX models: If kept or folded, weights, numerics, errors."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")
from onnx import TensorProto as T  # noqa: E402
from onnx import helper as h  # noqa: E402
from onnx import numpy_helper as nh  # noqa: E402

from cfmem.importers.onnx import OnnxImportError, core, import_onnx, onnx_importer, parse_value_spec  # noqa: E402
from cfmem.importers.onnx.reference import cfmem_inputs, max_abs_error, onnxruntime_outputs  # noqa: E402
from cfmem.interp.flat import run_flat  # noqa: E402
from cfmem.interp.golden import run_function  # noqa: E402
from cfmem.pipeline import lower_model  # noqa: E402

RNG = np.random.default_rng(0)


@pytest.fixture(autouse=True)
def fresh_rng():
    """Each test draws the same numbers whichever tests ran before it."""
    global RNG
    RNG = np.random.default_rng(0)


def weight(name: str, *shape: int) -> onnx.TensorProto:
    return nh.from_array(RNG.standard_normal(shape).astype(np.float32), name)


def save(tmp_path: Path, nodes, inputs, outputs, inits, name="model.onnx", opset=17) -> Path:
    graph = h.make_graph(nodes, "g", inputs, outputs, inits)
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", opset)], ir_version=8)
    onnx.checker.check_model(model)
    path = tmp_path / name
    onnx.save(model, str(path))
    return path


def branch(name: str, nodes, out: str, shape) -> onnx.GraphProto:
    return h.make_graph(nodes, name, [], [h.make_tensor_value_info(out, T.FLOAT, shape)])


def nested_if_model(tmp_path: Path) -> Path:
    """x -> fc; if mean > 0: (if mean square > 1: relu(fc @ A) else tanh(fc @ B)) else sigmoid(fc @ C); + fc."""
    inner = h.make_node(
        "If", ["c2"], ["inner"],
        then_branch=branch("t2", [h.make_node("MatMul", ["y", "A"], ["a1"]), h.make_node("Relu", ["a1"], ["ta"])], "ta", [1, 8]),
        else_branch=branch("e2", [h.make_node("MatMul", ["y", "B"], ["b1"]), h.make_node("Tanh", ["b1"], ["tb"])], "tb", [1, 8]),
    )  # fmt: skip
    then = h.make_graph(
        [h.make_node("Mul", ["y", "y"], ["sq"]), h.make_node("ReduceMean", ["sq"], ["mx"], keepdims=0),
         h.make_node("Greater", ["mx", "one"], ["c2"]), inner],
        "t1", [], [h.make_tensor_value_info("inner", T.FLOAT, [1, 8])],
    )  # fmt: skip
    els = branch("e1", [h.make_node("MatMul", ["y", "C"], ["c1"]), h.make_node("Sigmoid", ["c1"], ["tc"])], "tc", [1, 8])
    nodes = [
        h.make_node("Gemm", ["x", "W", "bias"], ["y"], transB=1),
        h.make_node("ReduceMean", ["y"], ["m"], keepdims=0),
        h.make_node("Greater", ["m", "zero"], ["c1cond"]),
        h.make_node("If", ["c1cond"], ["z"], then_branch=then, else_branch=els),
        h.make_node("Add", ["z", "y"], ["out"]),
    ]
    inits = [weight("W", 8, 4), weight("bias", 8), weight("A", 8, 8), weight("B", 8, 8), weight("C", 8, 8),
             nh.from_array(np.array(0, np.float32), "zero"), nh.from_array(np.array(1, np.float32), "one")]  # fmt: skip
    return save(tmp_path, nodes, [h.make_tensor_value_info("x", T.FLOAT, ["N", 4])],
                [h.make_tensor_value_info("out", T.FLOAT, [1, 8])], inits)  # fmt: skip


def shape_folded_model(tmp_path: Path) -> Path:
    """An If on Shape(x)[1] == 4, as exporters write for rank/shape checks, plus a sample-rate If."""
    nodes = [
        h.make_node("Shape", ["x"], ["s"]),
        h.make_node("Gather", ["s", "one_i"], ["d1"], axis=0),
        h.make_node("Equal", ["d1", "four"], ["is4"]),
        h.make_node("If", ["is4"], ["y"],
                    then_branch=branch("t", [h.make_node("Relu", ["x"], ["r"])], "r", [1, 4]),
                    else_branch=branch("e", [h.make_node("Neg", ["x"], ["n"])], "n", [1, 4])),
        h.make_node("Equal", ["sr", "rate"], ["fast"]),
        h.make_node("If", ["fast"], ["out"],
                    then_branch=branch("t16", [h.make_node("Mul", ["y", "W"], ["m"])], "m", [1, 4]),
                    else_branch=branch("t8", [h.make_node("Sub", ["y", "W"], ["d"])], "d", [1, 4])),
    ]  # fmt: skip
    inits = [nh.from_array(np.array(1, np.int64), "one_i"), nh.from_array(np.array(4, np.int64), "four"),
             nh.from_array(np.array(16000, np.int64), "rate"), weight("W", 1, 4)]  # fmt: skip
    inputs = [h.make_tensor_value_info("x", T.FLOAT, [1, 4]), h.make_tensor_value_info("sr", T.INT64, [])]
    return save(tmp_path, nodes, inputs, [h.make_tensor_value_info("out", T.FLOAT, [1, 4])], inits)


def ifs(module) -> int:
    return sum(op.name == "nn.if" for op in module.walk())


def check_against_onnxruntime(path: Path, feeds_list, fixed=None, shapes=None):
    imported = import_onnx(path, blob_file="model.weights.bin", input_shapes=shapes or {}, input_values=fixed or {})
    (path.parent / "model.weights.bin").write_bytes(imported.blob)
    flat = lower_model(imported.module, "nn-insert-dma,nn-plan-memory", path.parent)
    branches = set()
    for feeds in feeds_list:
        want = onnxruntime_outputs(path, feeds)
        inputs = cfmem_inputs(feeds, fixed or {})
        golden = run_function(imported.module, inputs, base_dir=path.parent)
        got = run_flat(flat, inputs, check=True)
        assert max_abs_error(want, golden.outputs) <= 1e-4
        assert max_abs_error(want, got.outputs) <= 1e-4
        assert got.branches == golden.branches
        branches.add(tuple(golden.branches))
    return imported, branches


def test_nested_data_dependent_ifs_are_kept_and_match_onnxruntime_on_every_path(tmp_path):
    path = nested_if_model(tmp_path)
    feeds = [{"x": (RNG.standard_normal((1, 4)) * s).astype(np.float32)} for s in (0.1, 1, 3, -3, 10, -10) for _ in range(4)]
    imported, paths = check_against_onnxruntime(path, feeds, shapes={"x": (1, 4)})
    assert ifs(imported.module) == 2 and imported.kept_ifs == 2
    outcomes = {step for p in paths for step in p}
    assert outcomes == {("if#0", True), ("if#0", False), ("if#1", True), ("if#1", False)}


def test_shape_conditions_fold_and_a_fixed_input_value_folds_its_if(tmp_path):
    path = shape_folded_model(tmp_path)
    x = RNG.standard_normal((1, 4)).astype(np.float32)
    imported, paths = check_against_onnxruntime(
        path, [{"x": x, "sr": np.array(16000, np.int64)}, {"x": x, "sr": np.array(8000, np.int64)}]
    )
    assert imported.folded_ifs == 1 and imported.kept_ifs == 1  # the shape If folded, the sample-rate If kept
    assert paths == {(("if#0", True),), (("if#0", False),)}
    fixed, _ = check_against_onnxruntime(path, [{"x": x, "sr": np.array(8000, np.int64)}], fixed={"sr": 8000})
    assert ifs(fixed.module) == 0 and fixed.folded_ifs == 2
    assert "nn.sub" in str(fixed.module) and "nn.mul" not in str(fixed.module)


def test_weights_go_to_the_blob_in_execution_order_with_their_bytes(tmp_path):
    path = nested_if_model(tmp_path)
    imported = import_onnx(path, blob_file="w.bin", input_shapes={"x": (1, 4)})
    model = onnx.load(str(path))
    arrays = {i.name: nh.to_array(i) for i in model.graph.initializer}
    views = [op for op in imported.module.walk() if op.name == "nn.view"]
    names = [op.results[0].name_hint for op in views]
    assert names == ["W", "bias", "A", "B", "C"]  # the order ops use them in
    offsets = [op.offset.value.data for op in views]
    assert offsets == sorted(offsets)
    for name, offset in zip(names, offsets):
        raw = arrays[name].astype("<f4").tobytes()
        assert imported.blob[offset : offset + len(raw)] == raw


# --- the command line -------------------------------------------------------------------------


def cfmem(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    from conftest import run_cfmem

    return run_cfmem(*args, cwd=cwd)


def test_cfmem_import_then_cfmem_run_reproduce_onnxruntime(tmp_path):
    path = nested_if_model(tmp_path)
    done = cfmem("import", str(path), "-o", "m.mlir", "--input-shape", "x=1,4", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "m.weights.bin").is_file()
    x = RNG.standard_normal((1, 4)).astype(np.float32)
    np.savez(tmp_path / "in.npz", x=x)
    done = cfmem("run", "m.mlir", "--inputs", "in.npz", "-o", "out.npz", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    got = dict(np.load(tmp_path / "out.npz"))
    assert max_abs_error(onnxruntime_outputs(path, {"x": x}), got) <= 1e-4


def unsupported_model(tmp_path: Path) -> Path:
    nodes = [h.make_node("Relu", ["x"], ["r"]), h.make_node("Bernoulli", ["r"], ["out"], name="the_bernoulli")]
    return save(tmp_path, nodes, [h.make_tensor_value_info("x", T.FLOAT, [1, 4])],
                [h.make_tensor_value_info("out", T.FLOAT, [1, 4])], [])  # fmt: skip


def mistyped_model(tmp_path: Path) -> Path:
    """A float16 input added to a float32 initializer: onnx's checker passes it, onnxruntime
    refuses to load it."""
    nodes = [h.make_node("Add", ["x", "w"], ["out"])]
    return save(tmp_path, nodes, [h.make_tensor_value_info("x", T.FLOAT16, [1, 4])],
                [h.make_tensor_value_info("out", T.FLOAT16, [1, 4])], [nh.from_array(np.ones((1, 4), np.float32), "w")])  # fmt: skip


@pytest.mark.parametrize(
    "case, args, message",
    [
        ("unsupported", [], "node the_bernoulli (Bernoulli): unsupported ONNX op Bernoulli"),
        ("mistyped", [], "invalid ONNX model: [ShapeInferenceError] (op_type:Add): B has inconsistent type tensor(float)"),
        ("symbolic", [], "input 'x' has a symbolic dimension 'N' at position 0: fix it with --dim N=1"),
        ("symbolic", ["--dim", "M=2"], "--dim M: the model's inputs have no symbolic dimension 'M' (symbolic: N)"),
        ("symbolic", ["--dim", "N=0"], "bad --dim 'N=0': expected name=size with a positive size"),
        ("symbolic", ["--dim", "N=2", "--input-shape", "x=3,4"], "--input-shape x: dimension 0 is 'N', which --dim N=2 fixes, not 3"),
        ("corrupt", [], "not a readable ONNX model"),
        ("missing", [], "no such file"),
        ("symbolic", ["--input-shape", "x=1"], "--input-shape x: the model's input has rank 2, not 1"),
        ("symbolic", ["--input-shape", "y=1,4"], "the model has no input 'y' (inputs: x)"),
        ("symbolic", ["--input-shape", "x=1,a"], "bad --input-shape 'x=1,a'"),
    ],
)
def test_bad_models_and_options_give_one_line_and_write_nothing(tmp_path, case, args, message):
    path = {
        "unsupported": lambda: unsupported_model(tmp_path),
        "mistyped": lambda: mistyped_model(tmp_path),
        "symbolic": lambda: nested_if_model(tmp_path),
        "corrupt": lambda: (tmp_path / "bad.onnx").write_bytes(b"\x08\x07garbage" * 10) and tmp_path / "bad.onnx",
        "missing": lambda: tmp_path / "absent.onnx",
    }[case]()
    before = set(tmp_path.iterdir())
    done = cfmem("import", str(path), "-o", "out.mlir", *args, cwd=tmp_path)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cfmem: ") and message in lines[0], done.stderr
    assert set(tmp_path.iterdir()) == before


# --- names, identity outputs, input shapes and values, sizes ------------------------------------


def float_info(name: str, shape) -> onnx.ValueInfoProto:
    return h.make_tensor_value_info(name, T.FLOAT, shape)


def test_cfmem_run_reads_and_writes_the_models_own_names(tmp_path):
    names = {"a": "input_1", "b": "a b", "c": "日本", "y": "53", "z": "出力/0"}
    nodes = [h.make_node("Add", [names["a"], names["b"]], ["s"]), h.make_node("Mul", ["s", names["c"]], [names["y"]]),
             h.make_node("Relu", [names["y"]], [names["z"]])]  # fmt: skip
    path = save(tmp_path, nodes, [float_info(names[k], [2, 3]) for k in "abc"],
                [float_info(names["y"], [2, 3]), float_info(names["z"], [2, 3])], [])  # fmt: skip
    assert cfmem("import", str(path), "-o", "m.mlir", cwd=tmp_path).returncode == 0
    feeds = {names[k]: RNG.standard_normal((2, 3)).astype(np.float32) for k in "abc"}
    np.savez(tmp_path / "in.npz", **feeds)
    done = cfmem("run", "m.mlir", "--inputs", "in.npz", "-o", "out.npz", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    got = dict(np.load(tmp_path / "out.npz"))
    want = onnxruntime_outputs(path, feeds)
    assert set(got) == {"53", "出力/0"} and max_abs_error(want, got) <= 1e-6


@pytest.mark.parametrize(
    "nodes, output",
    [
        ([h.make_node("Identity", ["x"], ["y"])], "y"),
        ([], "x"),
        ([h.make_node("ReduceSum", ["x"], ["y"], noop_with_empty_axes=1)], "y"),
        ([h.make_node("ReduceSum", ["x", "no_axes"], ["y"], noop_with_empty_axes=1)], "y"),
        ([h.make_node("Identity", ["x"], ["y"]), h.make_node("Relu", ["y"], ["r"])], "y"),
    ],
)
def test_an_output_that_is_an_input_is_imported(tmp_path, nodes, output):
    inits = [nh.from_array(np.zeros(0, np.int64), "no_axes")] if "no_axes" in str(nodes) else []
    path = save(tmp_path, nodes, [float_info("x", [2, 3])], [float_info(output, [2, 3])], inits)
    check_against_onnxruntime(path, [{"x": RNG.standard_normal((2, 3)).astype(np.float32)}])


@pytest.mark.parametrize("cast", [False, True], ids=["initializer", "folded-cast"])
def test_a_float64_output_is_refused_not_narrowed_to_float32(tmp_path, cast):
    """onnxruntime gives such an output in double precision; cfmem has no float64 tensors."""
    c = np.array([1.1, 2.2], np.float64 if not cast else np.float32)
    nodes = [h.make_node("Relu", ["x"], ["y"])] + ([h.make_node("Cast", ["c"], ["d"], to=T.DOUBLE)] if cast else [])
    out = "d" if cast else "c"
    path = save(tmp_path, nodes, [float_info("x", [2, 3])],
                [float_info("y", [2, 3]), h.make_tensor_value_info(out, T.DOUBLE, [2])], [nh.from_array(c, "c")])  # fmt: skip
    with pytest.raises(OnnxImportError) as err:
        import_onnx(path, blob_file="model.weights.bin")
    assert str(err.value) == f"graph output {out!r} is a known float64 tensor; cfmem computes in float32 at most"


@pytest.mark.parametrize("dim", [0, -1])
def test_a_non_positive_input_dimension_suggests_an_option_that_works(tmp_path, dim):
    model = h.make_model(h.make_graph([h.make_node("Relu", ["x"], ["y"])], "g", [float_info("x", [dim, 4])],
                                      [float_info("y", [dim, 4])]), opset_imports=[h.make_opsetid("", 17)], ir_version=8)  # fmt: skip
    onnx.save(model, str(tmp_path / "m.onnx"))
    done = cfmem("import", "m.onnx", "-o", "m.mlir", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.strip() == (
        f"cfmem: m.onnx: error: input 'x' has a dimension of size {dim} at position 0:"
        " fix it with --input-shape x=1,4 (or any other positive size)"
    )
    done = cfmem("import", "m.onnx", "-o", "m.mlir", "--input-shape", "x=3,4", cwd=tmp_path)
    assert done.returncode == 0, done.stderr


def test_input_value_fills_a_tensor_input_and_must_fit_its_type(tmp_path):
    nodes = [h.make_node("Add", ["x", "state"], ["y"])]
    inputs = [float_info("x", [2, 3]), float_info("state", [2, 3])]
    path = save(tmp_path, nodes, inputs, [float_info("y", [2, 3])], [])
    x = RNG.standard_normal((2, 3)).astype(np.float32)
    check_against_onnxruntime(path, [{"x": x, "state": np.full((2, 3), 0.25, np.float32)}], fixed={"state": 0.25})
    done = cfmem("import", str(path), "-o", "m.mlir", "--input-value", "state=1e50", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.strip().endswith("error: --input-value state: 1e+50 does not fit the input's type float32")


def test_a_huge_known_tensor_is_refused_by_name_and_size_before_it_is_made(tmp_path):
    one = nh.from_array(np.array([1.0], np.float32))
    nodes = [h.make_node("ConstantOfShape", ["shape"], ["big"], value=one, name="fill"), h.make_node("Add", ["x", "big"], ["y"])]
    path = save(tmp_path, nodes, [float_info("x", [1])], [float_info("y", [50000, 50000])],
                [nh.from_array(np.array([50000, 50000], np.int64), "shape")])  # fmt: skip
    done = cfmem("import", str(path), "-o", "m.mlir", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.strip() == (
        f"cfmem: {path}: error: node fill (ConstantOfShape): tensor 'big' of shape [50000, 50000] (float32)"
        " takes 9.3 GiB; cfmem import holds known tensors and weights of at most 2.0 GiB"
    )


def test_a_huge_initializer_is_refused_before_it_is_read():
    big = onnx.TensorProto(name="w", data_type=T.FLOAT, dims=[50000, 50000], raw_data=b"\0" * 4)
    graph = h.make_graph([h.make_node("Add", ["x", "w"], ["y"])], "g", [float_info("x", [1])], [float_info("y", None)], [big])
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", 17)], ir_version=8)
    with pytest.raises(OnnxImportError, match=r"^initializer 'w' of shape \[50000, 50000\] \(float32\) takes 9.3 GiB"):
        onnx_importer(model, "w.bin").import_graph({}, {})


def test_the_weight_blob_is_capped(tmp_path, monkeypatch):
    monkeypatch.setattr(core, "MAX_WEIGHT_BYTES", 300)
    nodes = [h.make_node("MatMul", ["x", "W"], ["h"]), h.make_node("MatMul", ["h", "V"], ["y"])]
    path = save(tmp_path, nodes, [float_info("x", [1, 8])], [float_info("y", [1, 8])], [weight("W", 8, 8), weight("V", 8, 8)])
    with pytest.raises(OnnxImportError, match=r"^node #1 \(MatMul\): weight 'V' \(256 bytes\) would grow the weight blob past 300 bytes"):
        import_onnx(path, blob_file="w.bin")


def dropout_model(tmp_path: Path, training, opset=17, outputs=("y",)) -> Path:
    inits = [nh.from_array(np.array(0.5, np.float32), "ratio")]
    inputs = [float_info("x", [2, 3])]
    if isinstance(training, bool):
        inits.append(nh.from_array(np.array(training), "training"))
    else:
        inputs.append(h.make_tensor_value_info("training", T.BOOL, []))
    node_inputs = ["x", "ratio", "training"] if opset >= 12 else ["x"]
    node = h.make_node("Dropout", node_inputs, list(outputs), name="drop")
    out_infos = [float_info("y", [2, 3])] + [h.make_tensor_value_info("mask", T.BOOL, [2, 3])] * (len(outputs) > 1)
    return save(tmp_path, [node], inputs, out_infos, inits if opset >= 12 else [], opset=opset)


@pytest.mark.parametrize(
    "training, opset, outputs, message",
    [
        (True, 17, ("y",), "node drop (Dropout): Dropout with training_mode true is not supported (only inference)"),
        (None, 17, ("y",), "node drop (Dropout): Dropout training_mode is computed at run time; only inference (a known false) is supported"),
        (False, 10, ("y", "mask"), "node drop (Dropout): the mask output of Dropout version 10 is undefined outside training; not supported"),
    ],
)
def test_dropout_in_training_mode_is_refused(tmp_path, training, opset, outputs, message):
    path = dropout_model(tmp_path, training, opset, outputs)
    with pytest.raises(OnnxImportError) as err:
        import_onnx(path, blob_file="w.bin")
    assert str(err.value) == message


def test_dropout_with_training_mode_false_is_the_identity(tmp_path):
    path = dropout_model(tmp_path, False, outputs=("y", "mask"))
    check_against_onnxruntime(path, [{"x": RNG.standard_normal((2, 3)).astype(np.float32)}])


@pytest.mark.parametrize("value", [123456789012345678, 2**63 - 1, -(2**63)])
def test_an_integer_input_value_is_taken_exactly(tmp_path, value):
    """A float holds 53 bits: an int64 input fixed through one would come out rounded."""
    inputs = [h.make_tensor_value_info("n", T.INT64, [2]), h.make_tensor_value_info("z", T.INT64, [2])]
    path = save(tmp_path, [h.make_node("Add", ["n", "z"], ["y"])], inputs, [h.make_tensor_value_info("y", T.INT64, [2])], [])
    name, parsed = parse_value_spec(f"n={value}")
    imported = import_onnx(path, blob_file="model.weights.bin", input_values={name: parsed})
    got = run_function(imported.module, {"z": np.zeros(2, np.int64)}, base_dir=tmp_path).outputs
    assert next(iter(got.values())).tolist() == [value, value]


def test_a_shape_given_as_an_input_is_fixed_by_a_list_of_input_values(tmp_path):
    """Expand's shape is an input: the import says to fix it, and ``--input-value shape=2,1,3``
    does (one number per element of the 1-D input); a list of the wrong length is refused."""
    inputs = [h.make_tensor_value_info("x", T.FLOAT, [1, 3]), h.make_tensor_value_info("shape", T.INT64, [3])]
    path = save(tmp_path, [h.make_node("Expand", ["x", "shape"], ["y"])], inputs, [h.make_tensor_value_info("y", T.FLOAT, [2, 1, 3])], [])
    refused = cfmem("import", str(path), "-o", "m.mlir", cwd=tmp_path)
    assert refused.returncode == 1 and "it is an input of the model: fix it with --input-value" in refused.stderr
    assert parse_value_spec("shape=2,1,3") == ("shape", (2, 1, 3))
    imported = import_onnx(path, blob_file="model.weights.bin", input_values={"shape": (2, 1, 3)})
    x = RNG.standard_normal((1, 3)).astype(np.float32)
    got = run_function(imported.module, {"x": x}, base_dir=tmp_path).outputs["y"]
    np.testing.assert_array_equal(got, np.broadcast_to(x, (2, 1, 3)))
    short = cfmem("import", str(path), "-o", "m.mlir", "--input-value", "shape=2,3", cwd=tmp_path)
    assert short.returncode == 1 and short.stderr.count("\n") == 1
    assert "--input-value shape: 2 numbers for an input of shape [3]" in short.stderr


@pytest.mark.parametrize(
    ("dtype", "text"),
    [(T.INT64, "9223372036854775808"), (T.INT64, "-9223372036854775809"), (T.INT32, "2147483648"), (T.INT8, "-129"),
     (T.UINT8, "-1"), (T.UINT8, "256"), (T.INT64, "1.5"), (T.INT64, "1e+19"), (T.BOOL, "2"), (T.FLOAT, "1" + "0" * 400)],
)  # fmt: skip
def test_an_input_value_outside_its_type_is_refused_in_one_line(tmp_path, dtype, text):
    path = save(tmp_path, [h.make_node("Identity", ["n"], ["y"])], [h.make_tensor_value_info("n", dtype, [2])],
                [h.make_tensor_value_info("y", dtype, [2])], [])  # fmt: skip
    done = cfmem("import", str(path), "-o", "m.mlir", "--input-value", f"n={text}", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert done.stderr.count("\n") == 1 and f"error: --input-value n: {text} does not fit the input's type" in done.stderr
