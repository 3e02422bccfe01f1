"""The importer's op mappings on tiny models: axes given as attribute, input or not at all;
optional inputs left out; folding of known inputs at older opsets; the size check before a
fold; SSA names taken from ONNX names; ``If`` outputs and branches; and the one-line
refusals of what cannot be imported, each naming the op and the offending value."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")
from onnx import TensorProto as T  # noqa: E402
from onnx import helper as h  # noqa: E402
from onnx import numpy_helper as nh  # noqa: E402
from test_onnx_conv_pool import Node, pool  # noqa: E402
from test_onnx_opsets import Case, model_of, with_known  # noqa: E402

from cfmem.importers.onnx import Importer, OnnxImportError, core, onnx_importer  # noqa: E402
from cfmem.importers.onnx.reference import max_abs_error, onnxruntime_outputs  # noqa: E402
from cfmem.interp.footprint import format_bytes  # noqa: E402
from cfmem.interp.flat import run_flat  # noqa: E402
from cfmem.interp.golden import run_function  # noqa: E402
from cfmem.pipeline import lower_model  # noqa: E402


@pytest.fixture
def rng():
    return np.random.default_rng(11)


def floats(rng, *shape: int) -> np.ndarray:
    return rng.standard_normal(shape).astype(np.float32)


def i64(*values: int) -> np.ndarray:
    return np.array(values, np.int64)


def matches_onnxruntime(tmp_path: Path, model: onnx.ModelProto, feeds: dict[str, np.ndarray]):
    """Import ``model``, run it with cfmem's reference interpreter and with onnxruntime;
    the outputs must agree in names, shapes, element types and values."""
    path = tmp_path / "m.onnx"
    onnx.save(model, str(path))
    imported = onnx_importer(onnx.load(str(path)), "w.bin").import_graph({}, {})
    (tmp_path / "w.bin").write_bytes(imported.blob)
    got = run_function(imported.module, dict(feeds), base_dir=tmp_path).outputs
    want = onnxruntime_outputs(path, feeds)
    assert {k: (v.shape, v.dtype) for k, v in got.items()} == {k: (v.shape, v.dtype) for k, v in want.items()}
    assert max_abs_error(want, got) <= 1e-5
    return imported


def cfmem_runs(tmp_path: Path, model: onnx.ModelProto, feeds: dict[str, np.ndarray], checked: bool = True) -> tuple[Path, dict, dict]:
    """``model`` checked, saved and imported; where it was saved, and its outputs under the
    reference interpreter on the import and in the planned flat form (ownership checked).
    ``checked=False`` skips onnx's checker, which refuses deprecated op versions that
    onnxruntime still runs (GroupNormalization 18)."""
    if checked:
        onnx.checker.check_model(model)
    path = tmp_path / "m.onnx"
    onnx.save(model, str(path))
    imported = onnx_importer(onnx.load(str(path)), "w.bin").import_graph({}, {})
    (tmp_path / "w.bin").write_bytes(imported.blob)
    got = run_function(imported.module, dict(feeds), base_dir=tmp_path).outputs
    flat = lower_model(imported.module, "nn-insert-dma,nn-plan-memory", tmp_path)
    return path, got, run_flat(flat, dict(feeds), check=True).outputs


def three_runs(tmp_path: Path, model: onnx.ModelProto, feeds: dict[str, np.ndarray], checked: bool = True) -> tuple[dict, dict, dict]:
    """``model``'s outputs under onnxruntime, under the reference interpreter on the import,
    and in the planned flat form (see ``cfmem_runs``)."""
    path, got, flat = cfmem_runs(tmp_path, model, feeds, checked)
    return onnxruntime_outputs(path, feeds), got, flat


def case_matches_onnxruntime(tmp_path: Path, case: Case, opset: int = 17):
    return matches_onnxruntime(tmp_path, model_of(case, opset), case.inputs)


def unchecked_model(nodes, inputs, outputs, inits=(), opset: int = 17) -> onnx.ModelProto:
    """A model as written, not checked or shape-inferred (the importer sees invalid ones too)."""
    graph = h.make_graph(nodes, "g", inputs, outputs, list(inits))
    return h.make_model(graph, opset_imports=[h.make_opsetid("", opset)], ir_version=8)


def refusal(model: onnx.ModelProto) -> str:
    with pytest.raises(OnnxImportError) as err:
        onnx_importer(model, "w.bin").import_graph({}, {})
    return str(err.value)


def info(name: str, elem: int, shape) -> onnx.ValueInfoProto:
    return h.make_tensor_value_info(name, elem, shape)


def result_names(imported) -> list[str]:
    """SSA names of every op result in the module, in order."""
    return [r.name_hint for op in imported.module.walk() for r in op.results]


# --- Squeeze axes: attribute, input, or none ----------------------------------------------------


@pytest.mark.parametrize(
    "opset, axes, how",
    [
        (11, [0], "attribute"),
        (11, [-2, 0], "attribute"),
        (11, None, "none"),
        (13, [2], "input"),
        (13, [-4, -2], "input"),
        (13, None, "none"),
    ],
)
def test_squeeze_takes_its_axes_from_the_attribute_or_the_input_or_squeezes_every_1(tmp_path, rng, opset, axes, how):
    """(1, 3, 1, 4) has two axes of size 1, so squeezing the wrong set changes the shape."""
    x = floats(rng, 1, 3, 1, 4)
    if how == "attribute":
        case = Case([h.make_node("Squeeze", ["x"], ["y"], axes=axes)], {"x": x}, {"y": T.FLOAT})
    elif how == "input":
        case = with_known("Squeeze", x, {"axes": i64(*axes)})
    else:
        case = Case([h.make_node("Squeeze", ["x"], ["y"])], {"x": x}, {"y": T.FLOAT})
    case_matches_onnxruntime(tmp_path, case, opset)


def test_squeeze_axes_computed_at_run_time_are_refused_by_name():
    model = unchecked_model(
        [h.make_node("Squeeze", ["x", "axes"], ["y"], name="n")],
        [info("x", T.FLOAT, [1, 3, 1, 4]), info("axes", T.INT64, [1])],
        [info("y", T.FLOAT, None)],
        opset=13,
    )
    assert refusal(model) == "node n (Squeeze): Squeeze axes must be a constant (it is computed at run time)"


def test_reshape_to_a_shape_computed_at_run_time_is_refused_by_name():
    model = unchecked_model(
        [h.make_node("Reshape", ["x", "s"], ["y"], name="n")],
        [info("x", T.FLOAT, [2, 3]), info("s", T.INT64, [2])],
        [info("y", T.FLOAT, None)],
    )
    assert refusal(model) == "node n (Reshape): Reshape shape must be a constant (it is computed at run time; it is an input of the model: fix it with --input-value)"


def test_unsqueeze_takes_a_scalar_axes_input_as_onnxruntime_does(tmp_path, rng):
    model = unchecked_model(
        [h.make_node("Unsqueeze", ["x", "axes"], ["y"])],
        [info("x", T.FLOAT, [2, 1, 3])],
        [info("y", T.FLOAT, None)],
        [nh.from_array(np.array(-2, np.int64), "axes")],
        opset=13,
    )
    matches_onnxruntime(tmp_path, model, {"x": floats(rng, 2, 1, 3)})


# --- optional inputs left out --------------------------------------------------------------------


@pytest.mark.parametrize(
    "known",
    [
        {"starts": i64(1, 0), "ends": i64(3, 5)},
        {"starts": i64(1, 1), "ends": i64(4, 5), "axes": i64(1, 0)},
        {"starts": i64(0, 2), "ends": i64(2, 5), "_axes": None, "_steps": None},
    ],
    ids=["starts-ends", "no-steps", "both-omitted"],
)
def test_slice_without_its_trailing_optional_inputs(tmp_path, rng, known):
    case_matches_onnxruntime(tmp_path, with_known("Slice", floats(rng, 4, 6), known), 13)


# --- folding known inputs --------------------------------------------------------------------------


@pytest.mark.parametrize("op", ["Softmax", "LogSoftmax", "Hardmax"])
@pytest.mark.parametrize("axis", [None, 2, -3])
def test_folding_before_opset_13_coerces_to_2d_at_the_given_or_default_axis(tmp_path, rng, op, axis):
    """Before version 13, axis (default 1) splits the input into rows and columns."""
    attrs = {} if axis is None else {"axis": axis}
    case = Case([h.make_node(op, ["x"], ["y"], **attrs)], {}, {"y": T.FLOAT}, {"x": floats(rng, 2, 3, 4)})
    case_matches_onnxruntime(tmp_path, case, 11)


@pytest.mark.parametrize(
    "case, opset",
    [
        (Case([h.make_node("ReduceSum", ["x"], ["y"], axes=[1], keepdims=0)], {}, {"y": T.FLOAT}, {"x": np.arange(24, dtype=np.float32).reshape(2, 3, 4)}), 11),
        (Case([h.make_node("ReduceMean", ["x"], ["y"], axes=[0, 2])], {}, {"y": T.FLOAT}, {"x": np.arange(24, dtype=np.float32).reshape(2, 3, 4)}), 17),
    ],
    ids=["ReduceSum-11", "ReduceMean-17"],
)
def test_folding_uses_the_models_opset_not_the_newest(tmp_path, case, opset):
    """Each op's attributes became inputs later; at the newest opset they would be ignored."""
    case_matches_onnxruntime(tmp_path, case, opset)


@pytest.fixture
def small_cap(monkeypatch):
    """Known tensors of at most 1000 bytes, so a refused fold is tiny."""
    monkeypatch.setattr(core, "MAX_WEIGHT_BYTES", 1000)
    return 1000


def fold_too_large_cases():
    shape64 = [2] * 9 + [1] * 55
    return {
        # the result's shape follows the known input's shape and a shape input
        "Expand": (
            [h.make_node("Expand", ["x", "s"], ["big"], name="n")],
            [nh.from_array(np.ones((80, 1), np.float32), "x"), nh.from_array(i64(1, 80), "s")],
            17,
            [80, 80],
        ),
        # a shape of 64 dimensions is still given to shape inference as data
        "ConstantOfShape-64-dims": (
            [h.make_node("ConstantOfShape", ["s"], ["big"], name="n")],
            [nh.from_array(i64(*shape64), "s")],
            17,
            shape64,
        ),
        # Pad's pads are an attribute at opset 10: inferred with the opset's own schema
        "Pad-10": (
            [h.make_node("Pad", ["x"], ["big"], name="n", pads=[0, 0, 16, 16])],
            [nh.from_array(np.ones((4, 4), np.float32), "x")],
            10,
            [20, 20],
        ),
    }


@pytest.mark.parametrize("which", list(fold_too_large_cases()))
def test_a_fold_whose_result_would_be_too_large_is_refused_before_it_is_computed(small_cap, which):
    nodes, inits, opset, shape = fold_too_large_cases()[which]
    model = unchecked_model(nodes, [], [info("big", T.FLOAT, None)], inits, opset)
    size = int(np.prod(shape)) * 4
    assert size > small_cap
    assert refusal(model) == (
        f"node n ({nodes[0].op_type}): tensor 'big' of shape {shape} (float32) takes {format_bytes(size)};"
        f" cfmem import holds known tensors and weights of at most {format_bytes(small_cap)}"
    )


def test_a_fold_within_the_cap_goes_ahead(tmp_path, small_cap):
    """(15, 16) float32 is 960 bytes, just under the cap."""
    nodes = [h.make_node("Expand", ["x", "s"], ["y"]), h.make_node("Relu", ["y"], ["out"])]
    case = Case(nodes, {}, {"out": T.FLOAT}, {"x": np.linspace(-1, 1, 15, dtype=np.float32).reshape(15, 1), "s": i64(1, 16)})
    case_matches_onnxruntime(tmp_path, case)


def test_a_fold_the_evaluator_cannot_do_is_reported_in_its_first_line():
    model = unchecked_model(
        [h.make_node("Reshape", ["x", "s"], ["y"], name="n")],
        [],
        [info("y", T.FLOAT, None)],
        [nh.from_array(np.ones((2, 3), np.float32), "x"), nh.from_array(i64(4, 4), "s")],
    )
    message = refusal(model)
    assert message.startswith("node n (Reshape): cannot evaluate on constant inputs: cannot reshape array of size 6 into shape")
    assert "\n" not in message


def test_an_evaluator_error_without_text_is_reported_by_its_type():
    """onnx's AffineGrid asserts theta is (N, 2, 3) for a 2-D grid; the assertion has no message."""
    model = unchecked_model(
        [h.make_node("AffineGrid", ["theta", "size"], ["y"], name="n")],
        [],
        [info("y", T.FLOAT, None)],
        [nh.from_array(np.ones((1, 3, 3), np.float32), "theta"), nh.from_array(i64(1, 1, 2, 2), "size")],
        opset=20,
    )
    assert refusal(model) == "node n (AffineGrid): cannot evaluate on constant inputs: AssertionError"


# --- constants ---------------------------------------------------------------------------------------


def empty_importer() -> Importer:
    model = unchecked_model([h.make_node("Relu", ["x"], ["y"])], [info("x", T.FLOAT, [1])], [info("y", T.FLOAT, [1])])
    return onnx_importer(model, "w.bin")


@pytest.mark.parametrize(
    "array",
    [np.array([1, -2, 300], ">i8"), np.array([[70000, -3]], ">i4"), np.array([7, -8], "<i4"), np.array([[1.5, -2.25]], "<f4")],
    ids=["big-endian-int64", "big-endian-int32", "little-endian-int32", "float32"],
)
def test_a_constant_holds_its_values_whatever_their_byte_order(array):
    imp = empty_importer()
    value = core.constant(imp, array, "c")
    attr = value.owner.value
    assert list(attr.get_shape()) == list(array.shape)
    assert [v for v in attr.get_values()] == array.reshape(-1).tolist()


def test_a_bool_constant_holds_its_values():
    imp = empty_importer()
    value = core.constant(imp, np.array([[True, False, True]]), "c")
    attr = value.owner.value
    assert list(attr.get_shape()) == [1, 3]
    assert [v != 0 for v in attr.get_values()] == [True, False, True]


def test_an_unsupported_element_type_is_refused_by_name():
    with pytest.raises(OnnxImportError) as err:
        core.element_type(np.dtype(np.complex64))
    assert str(err.value) == "unsupported element type complex64"


# --- names ---------------------------------------------------------------------------------------


def test_results_are_named_after_their_onnx_outputs_not_their_nodes(tmp_path, rng):
    """A 1-D MaxPool runs as a 2-D one between two reshapes: the last one carries the ONNX
    name, the 2-D op that name plus ``_2d``, the added input reshape is ``reshape``; an
    output named without ASCII letters is named after its op; a scalar known operand is a
    constant named after its initializer, or ``cst``."""
    nodes = [
        h.make_node("MaxPool", ["x"], ["pooled"], name="mp", kernel_shape=[3]),
        h.make_node("Relu", ["pooled"], ["出力"], name="act"),
        h.make_node("Mul", ["出力", "half"], ["scaled"], name="mul"),
        h.make_node("Add", ["scaled", "日本"], ["out"], name="add"),
    ]
    inits = {"half": np.array(0.5, np.float32), "日本": np.array(-0.25, np.float32)}
    case = Case(nodes, {"x": floats(rng, 1, 2, 7)}, {"out": T.FLOAT}, inits)
    imported = case_matches_onnxruntime(tmp_path, case)
    names = result_names(imported)
    for expected in ("reshape", "pooled_2d", "pooled", "relu", "half", "scaled", "cst", "out"):
        assert names.count(expected) == 1, (expected, names)
    assert not {"mp", "act", "mul", "add"} & set(names)
    assert None not in names


def test_the_results_of_a_kept_if_are_named_after_its_outputs(tmp_path, rng):
    def branch(name, ops):
        nodes = [h.make_node(op, ["x"], [f"{name}{k}"]) for k, op in enumerate(ops)]
        return h.make_graph(nodes, name, [], [info(f"{name}{k}", T.FLOAT, [2, 3]) for k in range(len(ops))])

    node = h.make_node("If", ["c"], ["first", "second"], name="choice",
                       then_branch=branch("t", ["Relu", "Neg"]), else_branch=branch("e", ["Tanh", "Sigmoid"]))  # fmt: skip
    x = floats(rng, 2, 3)
    case = Case([node], {"c": np.array([True]), "x": x}, {"first": T.FLOAT, "second": T.FLOAT})
    model = model_of(case, 17)
    for c in (True, False):
        imported = matches_onnxruntime(tmp_path, model, {"c": np.array([c]), "x": x})
    assert imported.kept_ifs == 1
    (if_op,) = [op for op in imported.module.walk() if op.name == "nn.if"]
    assert [r.name_hint for r in if_op.results] == ["first", "second"]


def test_a_kept_if_whose_branch_yields_its_own_initializer(tmp_path, rng):
    """The then branch has an initializer of its own and yields it as it is, and a sum with it."""
    k = floats(rng, 2, 3)
    then = h.make_graph(
        [h.make_node("Add", ["x", "k"], ["tsum"]), h.make_node("Identity", ["k"], ["tk"])],
        "then", [], [info("tsum", T.FLOAT, [2, 3]), info("tk", T.FLOAT, [2, 3])], [nh.from_array(k, "k")],
    )  # fmt: skip
    els = h.make_graph(
        [h.make_node("Neg", ["x"], ["en"]), h.make_node("Relu", ["x"], ["er"])],
        "else", [], [info("en", T.FLOAT, [2, 3]), info("er", T.FLOAT, [2, 3])],
    )  # fmt: skip
    node = h.make_node("If", ["c"], ["a", "b"], then_branch=then, else_branch=els)
    x = floats(rng, 2, 3)
    model = model_of(Case([node], {"c": np.array([True]), "x": x}, {"a": T.FLOAT, "b": T.FLOAT}), 17)
    for c in (True, False):
        imported = matches_onnxruntime(tmp_path, model, {"c": np.array([c]), "x": x})
    assert imported.kept_ifs == 1


@pytest.mark.parametrize("cond", [True, False])
def test_a_branch_initializer_that_shadows_an_enclosing_name_is_refused(rng, cond):
    """onnxruntime resolves such a name to the enclosing initializer in an If branch but to
    the branch's own in a Loop body, and onnx's reference evaluator agrees with neither
    consistently: whichever one cfmem took would differ from onnxruntime somewhere."""
    then = h.make_graph([h.make_node("Add", ["x", "w"], ["t"])], "then", [], [info("t", T.FLOAT, [2, 3])],
                        [nh.from_array(np.full((2, 3), 10, np.float32), "w")])  # fmt: skip
    els = h.make_graph([h.make_node("Add", ["x", "w"], ["e"])], "else", [], [info("e", T.FLOAT, [2, 3])])
    node = h.make_node("If", ["c"], ["y"], name="n", then_branch=then, else_branch=els)
    inits = [nh.from_array(np.ones((2, 3), np.float32), "w")]
    inputs = [info("x", T.FLOAT, [2, 3])]
    if cond:  # folded: the branch runs in the enclosing scope
        inits.append(nh.from_array(np.array(True), "c"))
    else:
        inputs.append(info("c", T.BOOL, []))
    model = unchecked_model([node], inputs, [info("y", T.FLOAT, [2, 3])], inits)
    onnx.checker.check_model(model)
    assert refusal(model) == "node n (If): branch 'then' initializer 'w' shadows a tensor of an enclosing graph"


# --- refusals -------------------------------------------------------------------------------------


def test_a_node_of_the_default_domain_spelled_ai_onnx_is_imported(tmp_path, rng):
    node = h.make_node("Relu", ["x"], ["y"], domain="ai.onnx")
    model = unchecked_model([node], [info("x", T.FLOAT, [2, 3])], [info("y", T.FLOAT, [2, 3])])
    matches_onnxruntime(tmp_path, model, {"x": floats(rng, 2, 3)})


def test_a_node_of_another_domain_is_refused_by_domain():
    node = h.make_node("Relu", ["x"], ["y"], name="n", domain="com.example")
    model = unchecked_model([node], [info("x", T.FLOAT, [2, 3])], [info("y", T.FLOAT, [2, 3])])
    assert refusal(model) == "node n (Relu): unsupported op domain 'com.example'"


AUTO_PAD_VALUES = "NOTSET, VALID, SAME_UPPER, SAME_LOWER"


@pytest.mark.parametrize(
    "node, message",
    [
        (pool("MaxPool", (1, 1, 4, 4), kernel_shape=[2, 2], auto_pad="SAME"),
         f"node n (MaxPool): MaxPool auto_pad 'SAME' is not one of {AUTO_PAD_VALUES}"),
        (Node("Conv", (1, 2, 5), {"auto_pad": "same_upper"}, (2, 2, 3)),
         f"node n (Conv): Conv auto_pad 'same_upper' is not one of {AUTO_PAD_VALUES}"),
        (pool("AveragePool", (1, 1, 4, 4), kernel_shape=[2, 2], auto_pad=1),
         f"node n (AveragePool): AveragePool auto_pad 1 is not one of {AUTO_PAD_VALUES}"),
        (Node("Conv", (1, 2, 5, 5), {"strides": [1]}, (2, 2, 3, 3)),
         "node n (Conv): Conv strides [1] should have 2 values for 2 spatial dimensions"),
        (Node("Conv", (1, 2, 5), {"dilations": [1, 2]}, (2, 2, 3)),
         "node n (Conv): Conv dilations [1, 2] should have 1 values for 1 spatial dimensions"),
        (pool("MaxPool", (1, 1, 4, 4), kernel_shape=[2, 2], pads=[0, 1]),
         "node n (MaxPool): MaxPool pads [0, 1] should have 4 values for 2 spatial dimensions"),
    ],
    ids=["SAME", "lower-case", "int", "strides", "dilations", "pads"],
)  # fmt: skip
def test_a_bad_window_attribute_is_refused_by_op_attribute_and_value(node, message):
    model, _ = node.model()
    assert refusal(model) == message


@pytest.mark.parametrize("op", ["MaxPool", "AveragePool"])
def test_pooling_with_auto_pad_valid_ignores_stray_pads_as_onnxruntime_does(tmp_path, rng, op):
    node = h.make_node(op, ["x"], ["y"], auto_pad="VALID", pads=[1, 0, 1, 2], kernel_shape=[2, 3])
    model = unchecked_model([node], [info("x", T.FLOAT, [1, 2, 5, 6])], [info("y", T.FLOAT, None)])
    matches_onnxruntime(tmp_path, model, {"x": floats(rng, 1, 2, 5, 6)})


def test_a_float_op_on_an_integer_tensor_is_refused_with_its_type():
    model = unchecked_model(
        [h.make_node("Relu", ["x"], ["y"], name="n")], [info("x", T.INT64, [2, 3])], [info("y", T.INT64, [2, 3])]
    )
    assert refusal(model) == "node n (Relu): expected a float tensor, got tensor<2x3xi64>"


def test_an_op_on_shapes_it_cannot_take_is_refused_by_the_nn_ops_rule():
    model = unchecked_model(
        [h.make_node("MatMul", ["x", "w"], ["y"], name="n")],
        [info("x", T.FLOAT, [2, 3])],
        [info("y", T.FLOAT, None)],
        [nh.from_array(np.ones((4, 5), np.float32), "w")],
    )
    message = refusal(model)
    assert message.startswith("node n (MatMul): nn.matmul: ") and "3" in message and "4" in message, message


def invalid_node(op: str, known: dict[str, np.ndarray] = {}, opset: int = 17, **attrs) -> onnx.ModelProto:
    """``op(x, *known)`` on a run-time (2, 3, 4) input, as written (onnx's checker does not
    look at axes or shapes)."""
    node = h.make_node(op, ["x", *known], ["y"], name="n", **attrs)
    inits = [nh.from_array(v, k) for k, v in known.items()]
    model = unchecked_model([node], [info("x", T.FLOAT, [2, 3, 4])], [info("y", T.FLOAT, ["d"])], inits, opset)
    onnx.checker.check_model(model)
    return model


@pytest.mark.parametrize(
    "model, message",
    [
        (invalid_node("Softmax", axis=5), "node n (Softmax): axis 5 is out of range for rank 3"),
        (invalid_node("Concat", axis=3), "node n (Concat): axis 3 is out of range for rank 3"),
        (invalid_node("Gather", {"i": i64(0)}, axis=-4), "node n (Gather): axis -4 is out of range for rank 3"),
        (invalid_node("Flatten", axis=4), "node n (Flatten): axis 4 is out of range for rank 4"),
        (invalid_node("ReduceSum", {"a": i64(3)}), "node n (ReduceSum): axis 3 is out of range for rank 3"),
        (invalid_node("ArgMax", axis=-4), "node n (ArgMax): axis -4 is out of range for rank 3"),
        (invalid_node("LayerNormalization", {"s": np.ones(4, np.float32)}, axis=3),
         "node n (LayerNormalization): axis 3 is out of range for rank 3"),
        (invalid_node("Unsqueeze", {"a": i64(5)}), "node n (Unsqueeze): axis 5 is out of range for rank 4"),
        (invalid_node("Slice", {"s": i64(0), "e": i64(1), "a": i64(5)}), "node n (Slice): axis 5 is out of range for rank 3"),
        (invalid_node("BatchNormalization", {k: np.ones(n, np.float32) for k, n in zip("sbmv", (2, 3, 3, 3))}, 15),
         "node n (BatchNormalization): operands could not be broadcast together with shapes (3,) (2,)"),
        (invalid_node("Reshape", {"s": i64(0, 1, 2, -1, 0)}),
         "node n (Reshape): Reshape shape [0, 1, 2, -1, 0] copies dimension 4 of an input of rank 3"),
        (invalid_node("Cast", to=99), "node n (Cast): Cast to element type 99 is not supported"),
        (invalid_node("Resize", {"_r": np.array([], np.float32), "s": np.array([1, -1, 2], np.float32)}, 19),
         "node n (Resize): Resize to the shape [2, -3, 8] is not supported (every size must be positive)"),
    ],
    ids=["Softmax", "Concat", "Gather", "Flatten", "ReduceSum", "ArgMax", "LayerNormalization", "Unsqueeze", "Slice",
         "BatchNormalization", "Reshape", "Cast", "Resize"],
)  # fmt: skip
def test_an_axis_or_shape_the_input_cannot_take_is_refused_naming_the_node(model, message):
    assert refusal(model) == message


def if_model(cond: onnx.ValueInfoProto | None, cond_init: np.ndarray | None = None, then_out: str = "r"):
    then = h.make_graph([h.make_node("Relu", ["x"], ["r"])], "then", [], [info(then_out, T.FLOAT, [2, 3])])
    els = h.make_graph([h.make_node("Neg", ["x"], ["e"])], "else", [], [info("e", T.FLOAT, [2, 3])])
    node = h.make_node("If", ["c"], ["y"], name="n", then_branch=then, else_branch=els)
    inputs = [info("x", T.FLOAT, [2, 3])] + ([cond] if cond is not None else [])
    inits = [nh.from_array(cond_init, "c")] if cond_init is not None else []
    return unchecked_model([node], inputs, [info("y", T.FLOAT, [2, 3])], inits)


@pytest.mark.parametrize(
    "model, message",
    [
        (if_model(None, np.array([True, False])), "node n (If): If condition has 2 elements, not 1"),
        (if_model(info("c", T.BOOL, [2])), "node n (If): If condition has shape [2], not one element"),
        (if_model(info("c", T.FLOAT, [1])), "node n (If): If condition must be bool, got tensor<1xf32>"),
        (if_model(None, np.array([True]), then_out="zz"), "node n (If): branch 'then' output 'zz' is never computed"),
    ],
    ids=["known-two-elements", "run-time-two-elements", "float", "branch-output-missing"],
)
def test_a_bad_if_is_refused_in_one_line(model, message):
    assert refusal(model) == message


# --- folds of known tensors run the op version of the model's opset ------------------------------


@pytest.mark.parametrize(
    "opset, node, c_shape",
    [
        (11, h.make_node("Squeeze", ["c"], ["k"], axes=[2]), (1, 6, 1)),
        (11, h.make_node("Unsqueeze", ["c"], ["k"], axes=[0]), (6,)),
        (6, h.make_node("Clip", ["c"], ["k"], min=-0.5, max=0.5), (1, 6)),
        (10, h.make_node("Pad", ["c"], ["k"], pads=[0, 1, 0, 1], mode="constant", value=2.0), (1, 4)),
    ],
    ids=["squeeze-11", "unsqueeze-11", "clip-6", "pad-10"],
)
def test_folds_of_known_tensors_use_the_models_opset(tmp_path, rng, opset, node, c_shape):
    """The folded result is concatenated with a (2, 6) input, so a wrong shape fails the import."""
    c = floats(rng, *c_shape)
    concat = h.make_node("Concat", ["k", "x"], ["y"], axis=0)
    case = Case([node, concat], {"x": floats(rng, 2, 6)}, {"y": T.FLOAT}, {"c": c})
    case_matches_onnxruntime(tmp_path, case, opset)


# --- comparing with onnxruntime ------------------------------------------------------------------


def test_max_abs_error_counts_a_nan_against_a_number_as_infinite():
    nan, inf = np.float32(np.nan), np.float32(np.inf)
    same = {"y": np.array([1, nan, inf, -inf], np.float32)}
    assert max_abs_error(same, {"y": same["y"].copy()}) == 0.0
    assert max_abs_error({"y": np.array([1, 2], np.float32)}, {"y": np.array([1, nan], np.float32)}) == np.inf
    assert max_abs_error({"y": np.array([nan], np.float32)}, {"y": np.array([0], np.float32)}) == np.inf
    assert max_abs_error({"y": np.array([inf], np.float32)}, {"y": np.array([-inf], np.float32)}) == np.inf
    assert max_abs_error({"y": np.array([1, 2], np.float32)}, {"y": np.array([1.5, 2], np.float32)}) == 0.5
    assert max_abs_error({"y": np.zeros(2, np.float32)}, {"y": np.zeros(3, np.float32)}) == np.inf
