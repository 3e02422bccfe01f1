"""The importer's shape and data-movement ops on tiny models, checked against onnxruntime:
attributes left at their defaults and given non-default values (Pad's mode and value, Gather's
and Split's and Flatten's axis, Slice's axes before version 10, Shape's end, Transpose without
perm, Reshape's 0 and 1 dims), each opset branch where inputs replaced attributes, negative
axes and indices; and the exact one-line refusals of inputs that must be known but are
computed at run time."""

from __future__ import annotations

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")
from onnx import TensorProto as T  # noqa: E402
from onnx import helper as h  # noqa: E402
from onnx import numpy_helper as nh  # noqa: E402
from test_onnx_ops_mapping import case_matches_onnxruntime, info, matches_onnxruntime, refusal, unchecked_model  # noqa: E402
from test_onnx_opsets import Case, with_known  # noqa: E402


@pytest.fixture
def rng():
    return np.random.default_rng(23)


def floats(rng, *shape: int) -> np.ndarray:
    return rng.standard_normal(shape).astype(np.float32)


def i64(*values: int) -> np.ndarray:
    return np.array(values, np.int64)


def node(op: str, inputs: list[str], outputs: list[str] | None = None, **attrs) -> onnx.NodeProto:
    return h.make_node(op, inputs, outputs or ["y"], name="n", **attrs)


def runtime_input_refusal(op: str, names: list[str], runtime: dict[str, tuple[int, list[int]]],
                          known: dict[str, np.ndarray], opset: int, **attrs) -> str:
    """The refusal of ``op(*names)`` whose ``runtime`` inputs are graph inputs and whose
    ``known`` inputs are initializers."""
    model = unchecked_model(
        [node(op, names, **attrs)],
        [info(n, elem, shape) for n, (elem, shape) in runtime.items()],
        [info("y", T.FLOAT, None)],
        [nh.from_array(v, n) for n, v in known.items()],
        opset=opset,
    )
    return refusal(model)


RUNTIME = "must be a constant (it is computed at run time; it is an input of the model: fix it with --input-value)"
"""The refusal of a value the import must know, given as an input of the model."""


# --- Shape ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("attrs", [{"end": 2}, {"start": 1, "end": -1}, {"end": -2}, {"start": -2}], ids=str)
def test_shape_takes_its_start_and_end_attributes(tmp_path, rng, attrs):
    case = Case([h.make_node("Shape", ["x"], ["y"], **attrs)], {"x": floats(rng, 2, 3, 4, 5)}, {"y": T.INT64})
    case_matches_onnxruntime(tmp_path, case, 15)


def test_shape_of_a_rank_0_input_is_an_empty_int64_tensor(tmp_path):
    case = Case([h.make_node("Shape", ["x"], ["y"])], {"x": np.array(1.5, np.float32)}, {"y": T.INT64})
    case_matches_onnxruntime(tmp_path, case, 13)


# --- Concat --------------------------------------------------------------------------------------


def test_concat_of_one_input_is_that_input(tmp_path, rng):
    case = Case([h.make_node("Concat", ["x"], ["y"], axis=1)], {"x": floats(rng, 2, 3)}, {"y": T.FLOAT})
    case_matches_onnxruntime(tmp_path, case, 13)


@pytest.mark.parametrize("axis", [1, -1])
def test_concat_keeps_a_known_part_of_one_element(tmp_path, rng, axis):
    case_matches_onnxruntime(tmp_path, with_known("Concat", floats(rng, 1, 3), {"b": floats(rng, 1, 1)}, axis=axis), 13)


def test_concat_drops_a_known_empty_part(tmp_path, rng):
    case = with_known("Concat", floats(rng, 2, 3), {"e": np.zeros((2, 0), np.float32), "b": floats(rng, 2, 2)}, axis=-1)
    case_matches_onnxruntime(tmp_path, case, 13)


def test_concat_of_one_input_and_a_known_empty_part(tmp_path, rng):
    case = with_known("Concat", floats(rng, 2, 3), {"e": np.zeros((0, 3), np.float32)}, axis=0)
    case_matches_onnxruntime(tmp_path, case, 13)


# --- Transpose -----------------------------------------------------------------------------------


def test_transpose_without_perm_reverses_the_axes(tmp_path, rng):
    case = Case([h.make_node("Transpose", ["x"], ["y"])], {"x": floats(rng, 2, 3, 4)}, {"y": T.FLOAT})
    case_matches_onnxruntime(tmp_path, case, 13)


# --- Reshape -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "shape, opset, attrs",
    [
        ((0, -1), 13, {}),
        ((2, 0, 2, 2), 13, {}),
        ((1, -1), 13, {}),
        ((1, 3, 8), 13, {}),
        ((0, 12), 14, {"allowzero": 0}),
        ((4, 1, 6), 14, {"allowzero": 1}),
    ],
    ids=str,
)
def test_reshape_copies_zero_dims_unless_allowzero_and_keeps_ones(tmp_path, rng, shape, opset, attrs):
    case_matches_onnxruntime(tmp_path, with_known("Reshape", floats(rng, 2, 3, 4), {"shape": i64(*shape)}, **attrs), opset)


def test_reshape_with_allowzero_keeps_a_zero_dim_which_a_nonempty_input_cannot_fill():
    """With allowzero=1 a 0 is a dimension of size 0, not a copy of the input's."""
    message = runtime_input_refusal("Reshape", ["x", "s"], {"x": (T.FLOAT, [2, 6])}, {"s": i64(0, 6)}, 14, allowzero=1)
    assert message == "node n (Reshape): nn.reshape %y: bad target shape [0, 6]"


# --- Flatten -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "axis",
    [None, 0, 2, 3, -1, -2, -3],
    ids=str,
)
def test_flatten_at_the_default_and_given_axis(tmp_path, rng, axis):
    attrs = {} if axis is None else {"axis": axis}
    case = Case([h.make_node("Flatten", ["x"], ["y"], **attrs)], {"x": floats(rng, 2, 3, 4)}, {"y": T.FLOAT})
    case_matches_onnxruntime(tmp_path, case, 13)


# --- Squeeze and Unsqueeze -----------------------------------------------------------------------


def test_squeezing_an_axis_larger_than_1_is_refused_with_the_axes_and_shape():
    message = runtime_input_refusal("Squeeze", ["x"], {"x": (T.FLOAT, [1, 3, 1, 4])}, {}, 11, axes=[-3, 0])
    assert message == "node n (Squeeze): Squeeze of axes [0, 1] of shape [1, 3, 1, 4]: not all have size 1"


def test_unsqueeze_axes_computed_at_run_time_are_refused_by_name():
    message = runtime_input_refusal("Unsqueeze", ["x", "axes"], {"x": (T.FLOAT, [2, 3]), "axes": (T.INT64, [1])}, {}, 13)
    assert message == f"node n (Unsqueeze): Unsqueeze axes {RUNTIME}"


# --- Slice ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "attrs",
    [
        {"starts": [1, 2], "ends": [3, 5]},
        {"starts": [1], "ends": [4]},
        {"starts": [2], "ends": [5], "axes": [1]},
        {"starts": [-4, 1], "ends": [100, -1], "axes": [1, 0]},
    ],
    ids=["no-axes", "one-start-no-axes", "axes-1", "axes-1-0-negative-and-clamped"],
)
def test_slice_before_version_10_reads_starts_ends_and_axes_attributes(tmp_path, rng, attrs):
    """Not shape-inferred: onnx's inference of Slice 1 leaves axes out of order unshaped."""
    model = unchecked_model([node("Slice", ["x"], **attrs)], [info("x", T.FLOAT, [4, 6])], [info("y", T.FLOAT, None)], opset=9)
    matches_onnxruntime(tmp_path, model, {"x": floats(rng, 4, 6)})


@pytest.mark.parametrize(
    "known",
    [
        {"starts": i64(-1), "ends": i64(-100), "axes": i64(-1), "steps": i64(-2)},
        {"starts": i64(5, 0), "ends": i64(-100, 100), "axes": i64(0, 1), "steps": i64(-3, 2)},
    ],
    ids=["negative-step", "two-axes"],
)
def test_slice_with_negative_steps_and_clamped_bounds(tmp_path, rng, known):
    case_matches_onnxruntime(tmp_path, with_known("Slice", floats(rng, 4, 6), known), 13)


SLICE_INPUTS = {"starts": i64(1), "ends": i64(3), "axes": i64(1), "steps": i64(1)}


@pytest.mark.parametrize("which", ["starts", "ends", "axes", "steps"])
def test_slice_inputs_computed_at_run_time_are_refused_by_name(which):
    known = {k: v for k, v in SLICE_INPUTS.items() if k != which}
    message = runtime_input_refusal(
        "Slice", ["x", *SLICE_INPUTS], {"x": (T.FLOAT, [4, 6]), which: (T.INT64, [1])}, known, 13
    )
    assert message == f"node n (Slice): Slice {which} {RUNTIME}"


# --- Split ---------------------------------------------------------------------------------------


def split_case(opset: int, x: np.ndarray, outputs: int, sizes=None, how: str = "none", **attrs) -> Case:
    names = [f"y{k}" for k in range(outputs)]
    if how == "input":
        node_ = h.make_node("Split", ["x", "sizes"], names, **attrs)
        return Case([node_], {"x": x}, {n: T.FLOAT for n in names}, {"sizes": i64(*sizes)})
    if how == "attribute":
        attrs["split"] = list(sizes)
    return Case([h.make_node("Split", ["x"], names, **attrs)], {"x": x}, {n: T.FLOAT for n in names})


@pytest.mark.parametrize(
    "opset, outputs, sizes, how, attrs",
    [
        (11, 2, (1, 3), "attribute", {}),
        (13, 2, (3, 1), "input", {}),
        (18, 3, (1, 1, 2), "input", {}),
        (11, 2, None, "none", {}),
        (13, 4, None, "none", {}),
        (13, 2, (2, 4), "input", {"axis": -1}),
        (18, 4, None, "none", {"num_outputs": 4}),
        (18, 2, None, "none", {"num_outputs": 2, "axis": 1}),
    ],
    ids=str,
)
def test_split_along_the_default_or_given_axis_by_sizes_or_evenly(tmp_path, rng, opset, outputs, sizes, how, attrs):
    """The input (4, 6) is split along axis 0 unless an axis is given."""
    case_matches_onnxruntime(tmp_path, split_case(opset, floats(rng, 4, 6), outputs, sizes, how, **attrs), opset)


def test_split_18_into_uneven_parts_along_axis_0(tmp_path, rng):
    case_matches_onnxruntime(tmp_path, split_case(18, floats(rng, 7, 2), 3, num_outputs=3), 18)


def test_split_sizes_computed_at_run_time_are_refused_by_name():
    model = unchecked_model(
        [node("Split", ["x", "s"], ["y0", "y1"])],
        [info("x", T.FLOAT, [4, 6]), info("s", T.INT64, [2])],
        [info("y0", T.FLOAT, None), info("y1", T.FLOAT, None)],
        opset=13,
    )
    assert refusal(model) == f"node n (Split): Split sizes {RUNTIME}"


# --- Gather --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "index, attrs",
    [
        (i64(2, 0), {}),
        (i64(3, -4, -1), {}),
        (np.array(-2, np.int64), {}),
        (i64(1), {}),
        (np.array([[0, -1], [2, 2]], np.int64), {}),
        (i64(1, -1), {"axis": 1}),
        (np.array([[2], [-3]], np.int64), {"axis": -1}),
        (np.array(-3, np.int64), {"axis": 1}),
        (i64(0, 2), {"axis": 2}),
    ],
    ids=["default", "negative", "scalar", "one", "2d", "axis-1", "axis-minus-1-2d", "axis-1-scalar", "axis-2"],
)
def test_gather_along_the_default_or_given_axis_with_negative_indices(tmp_path, rng, index, attrs):
    case_matches_onnxruntime(tmp_path, with_known("Gather", floats(rng, 4, 5, 3), {"idx": index}, **attrs), 13)


# --- Pad -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "attrs",
    [
        {"pads": [0, 1, 2, 1]},
        {"pads": [1, 0, 0, 2], "value": -2.5},
        {"pads": [1, 2, 1, 1], "mode": "reflect"},
        {"pads": [2, 0, 1, 3], "mode": "edge"},
    ],
    ids=["default-value", "value", "reflect", "edge"],
)
def test_pad_before_version_11_reads_pads_value_and_mode_attributes(tmp_path, rng, attrs):
    case = Case([h.make_node("Pad", ["x"], ["y"], **attrs)], {"x": floats(rng, 3, 4)}, {"y": T.FLOAT})
    case_matches_onnxruntime(tmp_path, case, 9)


@pytest.mark.parametrize(
    "known, attrs",
    [
        ({"pads": i64(1, 0, 2, 1)}, {}),
        ({"pads": i64(1, 0, 2, 1), "_value": None}, {"mode": "edge"}),
        ({"pads": i64(0, 2, 1, 1), "value": np.array(3.5, np.float32)}, {}),
        ({"pads": i64(1, 1, 2, 2)}, {"mode": "reflect"}),
    ],
    ids=["pads-only", "omitted-value-edge", "value", "reflect"],
)
def test_pad_from_version_11_reads_pads_and_value_inputs(tmp_path, rng, known, attrs):
    case_matches_onnxruntime(tmp_path, with_known("Pad", floats(rng, 3, 4), known, **attrs), 13)


@pytest.mark.parametrize(
    "pads, axes",
    [((1, 2, 0, 3), (0, 2)), ((2, 0, 1, 1), (-1, 1)), ((1, 3), (-2,))],
    ids=["axes-0-2", "axes-negative", "one-axis"],
)
def test_pad_18_spreads_pads_over_the_given_axes(tmp_path, rng, pads, axes):
    known = {"pads": i64(*pads), "value": np.array(0.75, np.float32), "axes": i64(*axes)}
    case_matches_onnxruntime(tmp_path, with_known("Pad", floats(rng, 2, 3, 4), known), 18)


def test_pad_of_a_known_input_by_run_time_pads_is_refused_by_name(rng):
    message = runtime_input_refusal("Pad", ["x", "p"], {"p": (T.INT64, [4])}, {"x": floats(rng, 2, 3)}, 13)
    assert message == f"node n (Pad): Pad pads {RUNTIME}"


def test_pad_value_computed_at_run_time_is_refused_by_name():
    message = runtime_input_refusal(
        "Pad", ["x", "p", "v"], {"x": (T.FLOAT, [2, 3]), "v": (T.FLOAT, [])}, {"p": i64(0, 1, 0, 1)}, 13
    )
    assert message == f"node n (Pad): Pad value {RUNTIME}"


def test_pad_axes_computed_at_run_time_are_refused_by_name():
    message = runtime_input_refusal(
        "Pad", ["x", "p", "", "a"], {"x": (T.FLOAT, [2, 3]), "a": (T.INT64, [1])}, {"p": i64(1, 1)}, 18
    )
    assert message == f"node n (Pad): Pad axes {RUNTIME}"
