"""Where, Not, And, Or, Xor, ThresholdedRelu, Mod, Expand, CumSum, DepthToSpace, SpaceToDepth and
GlobalMaxPool against onnxruntime on drawn shapes, values and attributes, at every version
cfmem accepts: the reference interpreter on the import and the planned flat form, which must
compute the same numbers. Bool operands come from graph inputs, from comparisons computed at
run time and from known tensors. Each refused form is checked by its exact message."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.extra.numpy import arrays, mutually_broadcastable_shapes  # noqa: E402
from onnx import TensorProto as T  # noqa: E402
from onnx import helper as h  # noqa: E402
from onnx import numpy_helper as nh  # noqa: E402
from test_onnx_ops_mapping import info, refusal, three_runs, unchecked_model  # noqa: E402
from test_onnx_opsets import Case, model_of  # noqa: E402

from cfmem.importers.onnx.registry import OPERATOR_VERSIONS  # noqa: E402

OLDEST_OPSET = 7
"""The oldest opset onnxruntime runs."""
BOOL_SOURCES = ("input", "compare", "known")
"""Where a bool operand comes from: a graph input, ``Greater(x, 0)`` of a float input, a known tensor."""
DRAWN = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
FLOATS = st.floats(-8, 8, width=32)


@dataclass
class Graph:
    """The nodes, run-time inputs and known tensors of a test model as it is put together."""

    nodes: list = field(default_factory=list)
    inputs: dict[str, np.ndarray] = field(default_factory=dict)
    inits: dict[str, np.ndarray] = field(default_factory=dict)

    def floats(self, name: str, values: np.ndarray, known: bool) -> str:
        (self.inits if known else self.inputs)[name] = values
        return name

    def bools(self, name: str, values: np.ndarray, source: str) -> str:
        """A bool operand holding ``values > 0`` (``values`` are floats)."""
        if source == "compare":
            self.inputs[f"{name}_x"] = values
            self.inits["zero"] = np.array(0, np.float32)
            self.nodes.append(h.make_node("Greater", [f"{name}_x", "zero"], [name]))
        else:
            (self.inits if source == "known" else self.inputs)[name] = np.asarray(values > 0)
        return name

    def case(self, node: onnx.NodeProto, output: int) -> Case:
        return Case([*self.nodes, node], self.inputs, {node.output[0]: output}, self.inits)


def opset_of(data: st.DataObject, op: str) -> int:
    """An opset at which a drawn accepted version of ``op`` is in force."""
    return max(OLDEST_OPSET, data.draw(st.sampled_from(OPERATOR_VERSIONS[op]), label="version"))


def values(data: st.DataObject, shape: tuple[int, ...], label: str, elements=FLOATS) -> np.ndarray:
    return data.draw(arrays(np.float32, shape, elements=elements), label=label)


def check(tmp_path, case: Case, opset: int) -> None:
    """onnxruntime, the reference interpreter and the flat form agree on every output: bools
    exactly, floats within 1e-5 scaled by their magnitude; the plan changes no number."""
    want, got, ran = three_runs(tmp_path, model_of(case, opset), case.inputs)
    for name, expected in want.items():
        assert (got[name].shape, got[name].dtype) == (expected.shape, expected.dtype)
        if expected.dtype == np.bool_:
            np.testing.assert_array_equal(got[name], expected)
        else:
            scale = max(1.0, float(np.abs(expected[np.isfinite(expected)]).max(initial=0)))
            np.testing.assert_allclose(got[name], expected, rtol=0, atol=1e-5 * scale)
        np.testing.assert_array_equal(got[name], ran[name])


# --- Not, And, Or, Xor, Where ---------------------------------------------------------------------


@pytest.mark.parametrize("op", ["Not", "And", "Or", "Xor"])
@DRAWN
@given(data=st.data())
def test_logical_ops_match_onnxruntime(tmp_path, op, data):
    count = 1 if op == "Not" else 2
    shapes = data.draw(mutually_broadcastable_shapes(num_shapes=count, max_dims=4, max_side=3), label="shapes").input_shapes
    sources = [data.draw(st.sampled_from(BOOL_SOURCES), label=f"source {k}") for k in range(count)]
    if all(s == "known" for s in sources):
        sources[0] = "input"  # with every operand known the node folds
    graph = Graph()
    names = [graph.bools(f"b{k}", values(data, shape, f"b{k}"), s) for k, (shape, s) in enumerate(zip(shapes, sources))]
    check(tmp_path, graph.case(h.make_node(op, names, ["y"]), T.BOOL), opset_of(data, op))


@DRAWN
@given(data=st.data())
def test_where_matches_onnxruntime(tmp_path, data):
    shapes = data.draw(mutually_broadcastable_shapes(num_shapes=3, max_dims=4, max_side=3), label="shapes").input_shapes
    source = data.draw(st.sampled_from(BOOL_SOURCES), label="condition source")
    known = [data.draw(st.booleans(), label=f"value {k} known") for k in (1, 2)]
    if source == "known" and all(known):
        known[0] = False  # with every operand known the node folds
    graph = Graph()
    cond = graph.bools("c", values(data, shapes[0], "c"), source)
    chosen = [graph.floats(n, values(data, shapes[k], n), known[k - 1]) for k, n in ((1, "a"), (2, "b"))]
    check(tmp_path, graph.case(h.make_node("Where", [cond, *chosen], ["y"]), T.FLOAT), opset_of(data, "Where"))


def test_where_passes_a_nan_it_chooses_and_only_that_one(tmp_path):
    graph = Graph()
    cond = graph.bools("c", np.array([1, -1, 1, -1], np.float32), "input")
    a = graph.floats("a", np.array([np.nan, 1, np.nan, 2], np.float32), False)
    b = graph.floats("b", np.array([3, np.nan, 4, 5], np.float32), False)
    case = graph.case(h.make_node("Where", [cond, a, b], ["y"]), T.FLOAT)
    want, got, ran = three_runs(tmp_path, model_of(case, 16), case.inputs)
    np.testing.assert_array_equal(want["y"], [np.nan, np.nan, np.nan, 5])
    np.testing.assert_array_equal(got["y"], want["y"])
    np.testing.assert_array_equal(ran["y"], want["y"])


# --- ThresholdedRelu --------------------------------------------------------------------------------


@DRAWN
@given(data=st.data())
def test_thresholded_relu_matches_onnxruntime(tmp_path, data):
    shape = data.draw(st.lists(st.integers(1, 4), max_size=4).map(tuple), label="shape")
    alpha = data.draw(st.none() | st.floats(-2, 2, width=32), label="alpha")
    at_alpha = st.just(1.0 if alpha is None else alpha)  # x == alpha is not above it
    x = values(data, shape, "x", FLOATS | at_alpha)
    attrs = {} if alpha is None else {"alpha": alpha}
    check(tmp_path, Case([h.make_node("ThresholdedRelu", ["x"], ["y"], **attrs)], {"x": x}, {"y": T.FLOAT}),
          opset_of(data, "ThresholdedRelu"))  # fmt: skip


# --- Mod ----------------------------------------------------------------------------------------------


@DRAWN
@given(data=st.data())
def test_mod_matches_onnxruntime(tmp_path, data):
    """fmod=1 on floats (the sign of the dividend, NaN for a 0 divisor); fmod=0 on int64 or
    int32 (the sign of the divisor; no 0 divisor, which ONNX leaves undefined). Either operand
    may be known, and they broadcast."""
    shapes = data.draw(mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=3), label="shapes").input_shapes
    dtype = data.draw(st.sampled_from([np.float32, np.int64, np.int32]), label="dtype")
    if dtype == np.float32:
        elements = [st.floats(-1e4, 1e4, width=32), st.floats(-20, 20, width=32) | st.just(0.0)]
    else:
        elements = [st.integers(-1000, 1000), st.integers(-9, 9).filter(bool)]
    a, b = (data.draw(arrays(dtype, shape, elements=e), label=n) for shape, e, n in zip(shapes, elements, "ab"))
    known = data.draw(st.sampled_from([None, "a", "b"]), label="known operand")
    inputs, inits = {"a": a, "b": b}, {}
    if known:
        inits[known] = inputs.pop(known)
    attrs = {"fmod": 1} if dtype == np.float32 else data.draw(st.sampled_from([{}, {"fmod": 0}]), label="fmod")
    out = T.FLOAT if dtype == np.float32 else h.np_dtype_to_tensor_dtype(np.dtype(dtype))
    check(tmp_path, Case([h.make_node("Mod", ["a", "b"], ["y"], **attrs)], inputs, {"y": out}, inits), opset_of(data, "Mod"))


def test_mod_keeps_the_sign_of_the_divisor_on_integers_and_of_the_dividend_on_floats(tmp_path):
    a, b = np.array([7, -7, 7, -7, 6, -6]), np.array([3, 3, -3, -3, 3, -3])
    ints = Case([h.make_node("Mod", ["a", "b"], ["y"])], {"a": a, "b": b}, {"y": T.INT64})
    want, got, ran = three_runs(tmp_path, model_of(ints, 13), ints.inputs)
    np.testing.assert_array_equal(want["y"], [1, 2, -2, -1, 0, 0])
    np.testing.assert_array_equal(got["y"], want["y"])
    np.testing.assert_array_equal(ran["y"], want["y"])
    floats = Case([h.make_node("Mod", ["a", "b"], ["y"], fmod=1)], {"a": a.astype(np.float32), "b": b.astype(np.float32)}, {"y": T.FLOAT})
    want, got, ran = three_runs(tmp_path, model_of(floats, 13), floats.inputs)
    np.testing.assert_array_equal(want["y"], [1, -1, 1, -1, 0, -0.0])
    np.testing.assert_array_equal(np.signbit(got["y"]), np.signbit(want["y"]))  # -6 fmod -3 is -0
    np.testing.assert_array_equal(got["y"], want["y"])
    np.testing.assert_array_equal(ran["y"], want["y"])


# --- Expand, CumSum ------------------------------------------------------------------------------------


@DRAWN
@given(data=st.data())
def test_expand_matches_onnxruntime(tmp_path, data):
    """The input and the shape broadcast both ways: either may hold the 1 of an axis, or lack it."""
    x_shape, shape = data.draw(mutually_broadcastable_shapes(num_shapes=2, max_dims=4, max_side=3), label="shapes").input_shapes
    x = values(data, x_shape, "x")
    case = Case([h.make_node("Expand", ["x", "shape"], ["y"])], {"x": x}, {"y": T.FLOAT}, {"shape": np.array(shape, np.int64)})
    check(tmp_path, case, opset_of(data, "Expand"))


@DRAWN
@given(data=st.data())
def test_cumsum_matches_onnxruntime(tmp_path, data):
    shape = data.draw(st.lists(st.integers(1, 5), min_size=1, max_size=4).map(tuple), label="shape")
    axis = data.draw(st.integers(-len(shape), len(shape) - 1), label="axis")
    axis_tensor = np.array(axis if data.draw(st.booleans(), label="rank-0 axis") else [axis], data.draw(st.sampled_from([np.int64, np.int32])))
    attrs = {flag: data.draw(st.integers(0, 1), label=flag) for flag in ("exclusive", "reverse") if data.draw(st.booleans(), label=f"set {flag}")}
    x = values(data, shape, "x", st.floats(-100, 100, width=32))
    case = Case([h.make_node("CumSum", ["x", "axis"], ["y"], **attrs)], {"x": x}, {"y": T.FLOAT}, {"axis": axis_tensor})
    check(tmp_path, case, opset_of(data, "CumSum"))


# --- DepthToSpace, SpaceToDepth, GlobalMaxPool ------------------------------------------------------------

SIDES = st.integers(1, 3)


@DRAWN
@given(data=st.data())
def test_depth_to_space_matches_onnxruntime(tmp_path, data):
    n, depth, h_, w, block = (data.draw(SIDES, label=k) for k in ("n", "depth", "h", "w", "blocksize"))
    opset = opset_of(data, "DepthToSpace")
    modes = [None, "DCR", "CRD"] if opset >= 11 else [None]  # version 1 has no mode
    mode = data.draw(st.sampled_from(modes), label="mode")
    x = values(data, (n, depth * block * block, h_, w), "x")
    node = h.make_node("DepthToSpace", ["x"], ["y"], blocksize=block, **({} if mode is None else {"mode": mode}))
    check(tmp_path, Case([node], {"x": x}, {"y": T.FLOAT}), opset)


@DRAWN
@given(data=st.data())
def test_space_to_depth_matches_onnxruntime(tmp_path, data):
    n, c, h_, w, block = (data.draw(SIDES, label=k) for k in ("n", "c", "h", "w", "blocksize"))
    x = values(data, (n, c, h_ * block, w * block), "x")
    node = h.make_node("SpaceToDepth", ["x"], ["y"], blocksize=block)
    check(tmp_path, Case([node], {"x": x}, {"y": T.FLOAT}), opset_of(data, "SpaceToDepth"))


@DRAWN
@given(data=st.data())
def test_global_max_pool_matches_onnxruntime(tmp_path, data):
    """Over one, two or three spatial axes."""
    shape = data.draw(st.lists(st.integers(1, 4), min_size=3, max_size=5).map(tuple), label="shape")
    x = values(data, shape, "x")
    check(tmp_path, Case([h.make_node("GlobalMaxPool", ["x"], ["y"])], {"x": x}, {"y": T.FLOAT}), opset_of(data, "GlobalMaxPool"))


# --- refusals ----------------------------------------------------------------------------------------------


def refused(op: str, inputs: list[tuple[str, int, list[int]]], inits: dict[str, np.ndarray] | None = None, opset: int = 17, **attrs) -> str:
    """The import's error for one node ``n`` of ``op`` reading run-time ``inputs`` (name, type,
    shape) and known ``inits``; the model is not checked, as the importer sees invalid ones too."""
    names = [name for name, _, _ in inputs] + list(inits or {})
    model = unchecked_model(
        [h.make_node(op, names, ["y"], name="n", **attrs)],
        [info(name, ty, shape) for name, ty, shape in inputs],
        [info("y", T.FLOAT, None)],
        [nh.from_array(v, k) for k, v in (inits or {}).items()],
        opset=opset,
    )
    return refusal(model)


def test_logical_ops_refuse_operands_that_are_not_bool():
    assert refused("Not", [("x", T.INT64, [2])]) == "node n (Not): expected a bool tensor, got tensor<2xi64>"
    message = refused("And", [("a", T.BOOL, [2]), ("x", T.FLOAT, [2])])
    assert message == "node n (And): expected a bool tensor, got tensor<2xf32>"


def test_where_refuses_a_condition_that_is_not_bool_and_values_that_are_not_float32():
    message = refused("Where", [("c", T.FLOAT, [2]), ("a", T.FLOAT, [2]), ("b", T.FLOAT, [2])])
    assert message == "node n (Where): expected a bool tensor, got tensor<2xf32>"
    message = refused("Where", [("c", T.BOOL, [2]), ("a", T.INT64, [2]), ("b", T.INT64, [2])])
    assert message == "node n (Where): Where choosing between int64 tensors is not supported (only float32)"
    message = refused("Where", [("c", T.BOOL, [2]), ("a", T.FLOAT, [2])], {"b": np.array([1.0, 2.0])})
    assert message == "node n (Where): Where choosing between float64 tensors is not supported (only float32)"


def test_mod_refuses_fmod_0_on_floats_fmod_1_on_integers_and_other_types():
    assert refused("Mod", [("a", T.FLOAT, [2]), ("b", T.FLOAT, [2])]) == (
        "node n (Mod): Mod of float tensors needs fmod=1 (fmod=0 is defined for integers only)"
    )
    message = refused("Mod", [("a", T.INT64, [2]), ("b", T.INT64, [2])], fmod=1)
    assert message == "node n (Mod): Mod with fmod=1 of int64 tensors is not supported (only fmod=0)"
    message = refused("Mod", [("a", T.BOOL, [2])], {"b": np.array([True, False])})
    assert message == "node n (Mod): Mod of bool tensors is not supported (float32 or signed integers)"


def test_expand_refuses_a_shape_computed_at_run_time_and_one_that_does_not_broadcast():
    message = refused("Expand", [("x", T.FLOAT, [2, 1]), ("s", T.INT64, [2])])
    assert message == "node n (Expand): Expand shape must be a constant (it is computed at run time; it is an input of the model: fix it with --input-value)"
    message = refused("Expand", [("x", T.FLOAT, [2, 3])], {"s": np.array([4], np.int64)})
    assert message == "node n (Expand): Expand of shape [2, 3] to [4]: the shapes do not broadcast"
    message = refused("Expand", [("x", T.FLOAT, [2, 1])], {"s": np.array([0], np.int64)})
    assert message == "node n (Expand): Expand to an empty shape [2, 0] is not supported"


def test_cumsum_refuses_an_axis_computed_at_run_time_of_two_values_or_out_of_range():
    message = refused("CumSum", [("x", T.FLOAT, [2, 3]), ("a", T.INT64, [])])
    assert message == "node n (CumSum): CumSum axis must be a constant (it is computed at run time; it is an input of the model: fix it with --input-value)"
    message = refused("CumSum", [("x", T.FLOAT, [2, 3])], {"a": np.array([0, 1], np.int64)})
    assert message == "node n (CumSum): CumSum axis [0, 1] must be one integer"
    message = refused("CumSum", [("x", T.FLOAT, [2, 3])], {"a": np.array(-3, np.int64)})
    assert message == "node n (CumSum): nn.cumsum %y: axis -3 is out of range for rank 2"


@pytest.mark.parametrize(
    "op, shape, attrs, message",
    [
        ("DepthToSpace", [1, 4, 2], {"blocksize": 2}, "DepthToSpace needs an input (N, C, H, W) of rank 4, not 3"),
        ("DepthToSpace", [1, 4, 2, 2], {"blocksize": 0}, "DepthToSpace blocksize 0 must be positive"),
        ("DepthToSpace", [1, 4, 2, 2], {"blocksize": 2, "mode": "RCD"}, "DepthToSpace mode 'RCD' is not one of DCR, CRD"),
        ("DepthToSpace", [1, 6, 2, 2], {"blocksize": 2}, "DepthToSpace blocksize 2: 6 channels are not a multiple of 4"),
        ("SpaceToDepth", [1, 2, 4, 3], {"blocksize": 2}, "SpaceToDepth blocksize 2 does not divide the height 4 and width 3"),
        ("SpaceToDepth", [1, 2, 4], {"blocksize": 2}, "SpaceToDepth needs an input (N, C, H, W) of rank 4, not 3"),
        ("GlobalMaxPool", [2, 3], {}, "GlobalMaxPool needs an input (N, C, spatial...) of rank 3 or more, not 2"),
    ],
)
def test_block_and_pool_ops_refuse_what_does_not_fit(op, shape, attrs, message):
    assert refused(op, [("x", T.FLOAT, shape)], **attrs) == f"node n ({op}): {message}"


# --- Range and ConstantOfShape fold; Dropout at inference ------------------------------------------


@DRAWN
@given(data=st.data())
def test_range_of_known_bounds_folds_and_feeds_a_run_time_op(tmp_path, data):
    """A float Range added to an input, an int64 Range gathering from it."""
    start, delta = data.draw(st.integers(-5, 5), label="start"), data.draw(st.integers(-3, 3).filter(bool), label="delta")
    count = data.draw(st.integers(1, 5), label="count")
    bounds = {"start": start, "limit": start + delta * count - np.sign(delta) * data.draw(st.integers(0, abs(delta) - 1), label="short"), "delta": delta}
    inits = {f"f_{k}": np.array(v / 2, np.float32) for k, v in bounds.items()} | {f"i_{k}": np.array(v, np.int64) for k, v in bounds.items()}
    x = values(data, (count,), "x")
    table = values(data, (abs(start) + abs(delta) * count + 1,), "table")
    nodes = [
        h.make_node("Range", ["f_start", "f_limit", "f_delta"], ["fr"]),
        h.make_node("Add", ["x", "fr"], ["y"]),
        h.make_node("Range", ["i_start", "i_limit", "i_delta"], ["ir"]),
        h.make_node("Gather", ["table", "ir"], ["z"]),
    ]
    case = Case(nodes, {"x": x, "table": table}, {"y": T.FLOAT, "z": T.FLOAT}, inits)
    check(tmp_path, case, data.draw(st.sampled_from([11, 17, 22]), label="opset"))


@DRAWN
@given(data=st.data())
def test_constant_of_shape_folds_and_feeds_a_run_time_op(tmp_path, data):
    """Of a known shape or of the Shape of a run-time input, with or without a value."""
    shape = data.draw(st.lists(st.integers(1, 3), max_size=3).map(tuple), label="shape")
    value = data.draw(st.none() | FLOATS, label="value")
    attrs = {} if value is None else {"value": nh.from_array(np.array([value], np.float32))}
    x = values(data, shape, "x")
    of_input = data.draw(st.booleans(), label="shape of the input") and len(shape) > 0
    nodes = [h.make_node("Shape", ["x"], ["s"])] if of_input else []
    inits = {} if of_input else {"s": np.array(shape, np.int64)}
    nodes += [h.make_node("ConstantOfShape", ["s"], ["c"], **attrs), h.make_node("Mul", ["x", "c"], ["y"])]
    check(tmp_path, Case(nodes, {"x": x}, {"y": T.FLOAT}, inits), data.draw(st.sampled_from([9, 17, 20, 21, 23]), label="opset"))


DROPOUT_FORMS = [(opset, "x", False) for opset in (7, 10)] + [
    (opset, given_inputs, mask)
    for opset in (12, 13, 22)
    for given_inputs in ("x", "x ratio", "x ratio training", "x - training", "x run-time-ratio")
    for mask in (False, True)
]
"""(opset, the node's inputs, whether it has a mask output): before version 12, ``ratio`` is an
attribute and there is no defined mask outside training; from 12 on, ``ratio`` and
``training_mode`` are optional inputs and the mask an optional output."""


@pytest.mark.parametrize("opset, given_inputs, mask", DROPOUT_FORMS)
def test_dropout_at_inference_is_the_identity_and_its_mask_all_true(tmp_path, opset, given_inputs, mask):
    """A known false training_mode, a ratio known or computed at run time (and ignored)."""
    x = np.arange(-3, 3, dtype=np.float32).reshape(2, 3) / 2
    known = {"ratio": np.array(0.25, np.float32), "training": np.array(False)}
    names = {"x": "x", "ratio": "ratio", "training": "training", "-": "", "run-time-ratio": "r"}
    node_inputs = [names[k] for k in given_inputs.split()]
    attrs = {"ratio": 0.25} if opset < 12 else {}
    outputs = {"y": T.FLOAT, "mask": T.BOOL} if mask else {"y": T.FLOAT}
    inputs = {"x": x, "r": np.array(0.5, np.float32)} if "r" in node_inputs else {"x": x}
    inits = {k: v for k, v in known.items() if k in node_inputs}
    check(tmp_path, Case([h.make_node("Dropout", node_inputs, list(outputs), **attrs)], inputs, outputs, inits), opset)


@pytest.mark.parametrize("opset", [7, 10])
def test_dropout_before_12_ignores_a_mask_nothing_reads(tmp_path, opset):
    """The mask is named but read by no node and is no graph output (as in exported VGG and
    SqueezeNet): the Dropout is the identity."""
    x = np.arange(-3, 3, dtype=np.float32).reshape(2, 3) / 2
    nodes = [h.make_node("Dropout", ["x"], ["d", "mask"], ratio=0.25), h.make_node("Relu", ["d"], ["y"])]
    check(tmp_path, Case(nodes, {"x": x}, {"y": T.FLOAT}), opset)


def if_reading(name: str) -> onnx.NodeProto:
    """An ``If`` on run-time ``c`` whose branches output outer tensor ``name`` as it is."""
    branch = h.make_graph([], "branch", [], [info(name, T.BOOL, None)])
    return h.make_node("If", ["c"], ["z"], then_branch=branch, else_branch=branch)


MASK_READERS = {
    "a node": ([h.make_node("Not", ["mask"], ["z"])], ["y", "z"]),
    "a graph output": ([], ["y", "mask"]),
    "a subgraph": ([if_reading("mask")], ["y", "z"]),
}
"""Ways a model reads a Dropout's mask: the nodes after the Dropout and the graph outputs."""


def test_dropout_refuses_training_and_a_run_time_training_mode():
    message = refused("Dropout", [("x", T.FLOAT, [2])], {"ratio": np.array(0.5, np.float32), "training": np.array(True)})
    assert message == "node n (Dropout): Dropout with training_mode true is not supported (only inference)"
    message = refused("Dropout", [("x", T.FLOAT, [2]), ("ratio", T.FLOAT, []), ("training", T.BOOL, [])])
    assert message == "node n (Dropout): Dropout training_mode is computed at run time; only inference (a known false) is supported"


@pytest.mark.parametrize("reader", MASK_READERS)
def test_dropout_before_12_refuses_a_mask_the_model_reads(reader):
    """Before version 12 the mask outside training is undefined, whoever reads it."""
    nodes, outputs = MASK_READERS[reader]
    model = unchecked_model(
        [h.make_node("Dropout", ["x"], ["y", "mask"], name="n"), *nodes],
        [info("x", T.FLOAT, [2]), info("c", T.BOOL, [])],
        [info(name, T.BOOL if name != "y" else T.FLOAT, None) for name in outputs],
        opset=10,
    )
    assert refusal(model) == "node n (Dropout): the mask output of Dropout version 10 is undefined outside training; not supported"
