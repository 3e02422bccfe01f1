"""Gemm, MatMul, Softmax, Clip, ReduceMean/ReduceSum, Conv, comparisons and Cast on tiny
models against onnxruntime: every Gemm attribute away from its default and at it, with and
without C, known and run-time operands; Softmax's default axis at each opset and both of its
pre-13 paths; Clip's bounds as inputs (each one alone) and as attributes; keepdims at its
default; and the one-line refusals of operands that must be known, each quoted exactly."""

from __future__ import annotations

import numpy as np
import onnx
import pytest

onnx = pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")
from onnx import TensorProto as T  # noqa: E402
from onnx import helper as h  # noqa: E402
from onnx import numpy_helper as nh  # noqa: E402
from test_onnx_ops_mapping import case_matches_onnxruntime, info, refusal, three_runs, unchecked_model  # noqa: E402
from test_onnx_opsets import Case, with_known  # noqa: E402



def floats(seed: int, *shape: int) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def f32(value: float) -> np.ndarray:
    return np.array(value, np.float32)


# --- Gemm --------------------------------------------------------------------------------------


def gemm(runtime: dict, known: dict, **attrs) -> Case:
    """``Gemm(A, B[, C])``, each operand run-time or known as given."""
    operands = {**runtime, **known}
    names = [n for n in ("A", "B", "C") if n in operands]
    node = h.make_node("Gemm", names, ["y"], **attrs)
    return Case([node], runtime, {"y": T.FLOAT}, known)


GEMMS = {
    # all defaults, every operand at run time: alpha, beta 1, no transposition
    "defaults-run-time": gemm({"A": floats(1, 2, 4), "B": floats(2, 4, 3), "C": floats(3, 3)}, {}),
    # no C: a zero bias as wide as B's columns (B not square, so the wrong side of B fails)
    "no-c-run-time-b": gemm({"A": floats(4, 2, 4), "B": floats(5, 4, 3)}, {}),
    "no-c-trans-b-run-time-b": gemm({"A": floats(6, 2, 4), "B": floats(7, 3, 4)}, {}, transB=1),
    "no-c-known-b": gemm({"A": floats(8, 2, 4)}, {"B": floats(9, 4, 5)}),
    "alpha-known-b": gemm({"A": floats(10, 2, 4), "C": floats(11, 3)}, {"B": floats(12, 4, 3)}, alpha=0.5),
    "alpha-2-trans-b": gemm({"A": floats(13, 2, 4)}, {"B": floats(14, 3, 4), "C": floats(15, 2, 3)}, alpha=2.0, transB=1),
    "beta-known-c": gemm({"A": floats(16, 2, 4), "B": floats(17, 4, 3)}, {"C": floats(18, 2, 3)}, beta=2.0),
    "beta-negative-row-c": gemm({"A": floats(19, 3, 4)}, {"B": floats(20, 4, 2), "C": floats(21, 1, 2)}, beta=-0.75),
    "trans-a-known-a": gemm({"B": floats(22, 4, 3), "C": floats(23, 3)}, {"A": floats(24, 4, 2)}, transA=1),
    # alpha needs a known B, transA a known A, beta a known C: any two of them at once
    "trans-a-trans-b-beta": gemm({"B": floats(25, 3, 4)}, {"A": floats(26, 4, 2), "C": floats(27, 3)}, transA=1, transB=1, beta=0.5),
    "trans-a-alpha": gemm({"C": floats(28, 2, 3)}, {"A": floats(29, 4, 2), "B": floats(30, 4, 3)}, transA=1, alpha=-1.25),
    # beta 0: onnxruntime does not read C, so its NaN and infinity do not reach the result
    "beta-0-known-c": gemm({"A": floats(31, 2, 4)}, {"B": floats(32, 4, 3), "C": np.array([np.nan, np.inf, 1], np.float32)}, beta=0.0),
    "beta-0-run-time-c": gemm({"A": floats(33, 2, 4), "C": np.array([[np.nan], [-np.inf]], np.float32)}, {"B": floats(34, 4, 3)}, beta=0.0),
}


@pytest.mark.parametrize("opset", [11, 13])
@pytest.mark.parametrize("case", list(GEMMS.values()), ids=list(GEMMS))
def test_gemm_attributes_and_operands_match_onnxruntime(tmp_path, case, opset):
    case_matches_onnxruntime(tmp_path, case, opset)


def test_gemm_before_opset_11_with_its_c_matches_onnxruntime(tmp_path):
    """C is required before version 11."""
    case_matches_onnxruntime(tmp_path, GEMMS["alpha-known-b"], 9)


def gemm_refusal(runtime: list[str], **attrs) -> str:
    """The refusal of a Gemm named n whose ``runtime`` operands are model inputs."""
    shapes = {"A": [2, 4], "B": [4, 3], "C": [3]}
    inits = [nh.from_array(floats(30, *shapes[n]), n) for n in shapes if n not in runtime]
    model = unchecked_model(
        [h.make_node("Gemm", ["A", "B", "C"], ["y"], name="n", **attrs)],
        [info(n, T.FLOAT, shapes[n]) for n in runtime],
        [info("y", T.FLOAT, None)],
        inits,
    )
    return refusal(model)


def test_gemm_with_trans_a_on_a_run_time_a_is_refused():
    assert gemm_refusal(["A"], transA=1) == "node n (Gemm): Gemm with transA on a run-time tensor is not supported"


def test_gemm_with_alpha_on_a_run_time_b_is_refused_by_operand():
    assert gemm_refusal(["A", "B"], alpha=0.5) == (
        "node n (Gemm): Gemm B with alpha != 1 must be a constant (it is computed at run time)"
    )


def test_gemm_with_beta_on_a_run_time_c_is_refused_by_operand():
    assert gemm_refusal(["A", "C"], beta=2.0) == (
        "node n (Gemm): Gemm C with beta != 1 must be a constant (it is computed at run time)"
    )


def test_matmul_of_two_run_time_operands_matches_onnxruntime(tmp_path):
    case = Case([h.make_node("MatMul", ["a", "b"], ["y"])], {"a": floats(31, 2, 3, 4), "b": floats(32, 4, 5)}, {"y": T.FLOAT})
    case_matches_onnxruntime(tmp_path, case, 13)


# --- Softmax -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "opset, shape, axis",
    [
        (13, (2, 3, 4), None),  # along the last axis
        (13, (2, 3, 4), 0),
        (11, (2, 3, 4), None),  # rows of 3 * 4
        (11, (2, 3, 4), 2),  # rows of 4
        (11, (2, 3, 4), -2),
        (11, (3, 5), None),  # already rows: no reshape
        (9, (3, 5), None),
        (11, (3, 5), 0),  # one row of everything
    ],
)
def test_softmax_default_and_given_axes_at_each_opset_match_onnxruntime(tmp_path, opset, shape, axis):
    attrs = {} if axis is None else {"axis": axis}
    x = floats(40, *shape) * 2
    case_matches_onnxruntime(tmp_path, Case([h.make_node("Softmax", ["x"], ["y"], **attrs)], {"x": x}, {"y": T.FLOAT}), opset)


# --- Clip ----------------------------------------------------------------------------------------

CLIPS = {
    "min-input-only": ({"lo": f32(-0.3)}, {}),
    "max-input-only": ({"_lo": None, "hi": f32(0.2)}, {}),
    "both-inputs": ({"lo": f32(-0.4), "hi": f32(0.6)}, {}),
    "no-bounds": ({}, {}),
}


@pytest.mark.parametrize("opset", [11, 13])
@pytest.mark.parametrize("bounds", list(CLIPS.values()), ids=list(CLIPS))
def test_clip_bounds_given_as_inputs_each_alone_match_onnxruntime(tmp_path, bounds, opset):
    known, attrs = bounds
    case_matches_onnxruntime(tmp_path, with_known("Clip", floats(41, 3, 4), known, **attrs), opset)


@pytest.mark.parametrize("attrs", [{"min": -0.3}, {"max": 0.2}, {"min": -0.4, "max": 0.6}, {}], ids=["min", "max", "both", "none"])
def test_clip_bounds_given_as_attributes_before_opset_11_match_onnxruntime(tmp_path, attrs):
    case_matches_onnxruntime(tmp_path, Case([h.make_node("Clip", ["x"], ["y"], **attrs)], {"x": floats(42, 3, 4)}, {"y": T.FLOAT}), 6)


@pytest.mark.parametrize("x_known", [False, True], ids=["run-time-x", "known-x"])
@pytest.mark.parametrize("bound, inputs", [("min", ["x", "b"]), ("max", ["x", "", "b"])])
def test_clip_bound_computed_at_run_time_is_refused_by_name(bound, inputs, x_known):
    inits = [nh.from_array(floats(43, 2, 3), "x")] if x_known else []
    model = unchecked_model(
        [h.make_node("Clip", inputs, ["y"], name="n")],
        [info("b", T.FLOAT, [])] + ([] if x_known else [info("x", T.FLOAT, [2, 3])]),
        [info("y", T.FLOAT, None)],
        inits,
        opset=13,
    )
    assert refusal(model) == f"node n (Clip): Clip {bound} must be a constant (it is computed at run time; it is an input of the model: fix it with --input-value)"


# --- ReduceMean, ReduceSum -------------------------------------------------------------------------


@pytest.mark.parametrize("op", ["ReduceMean", "ReduceSum"])
@pytest.mark.parametrize("axes", [[1], [0, 2], None], ids=["axis-1", "axes-0-2", "all"])
def test_reductions_keep_their_dims_by_default_as_onnxruntime_does(tmp_path, op, axes):
    x = floats(50, 2, 3, 4)
    case = Case([h.make_node(op, ["x"], ["y"], **({} if axes is None else {"axes": axes}))], {"x": x}, {"y": T.FLOAT})
    case_matches_onnxruntime(tmp_path, case, 11)


@pytest.mark.parametrize("op, opset", [("ReduceMean", 18), ("ReduceSum", 13)])
def test_reduction_axes_given_as_an_input_match_onnxruntime(tmp_path, op, opset):
    case = with_known(op, floats(51, 2, 3, 4), {"axes": np.array([-1, 0], np.int64)})
    case_matches_onnxruntime(tmp_path, case, opset)


@pytest.mark.parametrize("x_known", [False, True], ids=["run-time-x", "known-x"])
@pytest.mark.parametrize("op, opset", [("ReduceMean", 18), ("ReduceSum", 13)])
def test_reduction_axes_computed_at_run_time_are_refused_by_name(op, opset, x_known):
    inits = [nh.from_array(floats(52, 2, 3), "x")] if x_known else []
    model = unchecked_model(
        [h.make_node(op, ["x", "axes"], ["y"], name="n")],
        [info("axes", T.INT64, [1])] + ([] if x_known else [info("x", T.FLOAT, [2, 3])]),
        [info("y", T.FLOAT, None)],
        inits,
        opset=opset,
    )
    assert refusal(model) == f"node n ({op}): {op} axes must be a constant (it is computed at run time; it is an input of the model: fix it with --input-value)"


@pytest.mark.parametrize(
    "op, shape, axes",
    [("ReduceMean", (1, 1000, 13, 13), [2, 3]), ("ReduceSum", (3, 5, 7), [1, 2]), ("ReduceMean", (7, 9, 11), None),
     ("ReduceSum", (6, 1, 37), [1, 2]), ("ReduceMean", (2, 9, 5), [2]), ("ReduceMean", (1, 1000, 13, 13), [-2, -1])],
    ids=["squeezenet-head", "trailing-2", "all", "size-1-axis", "odd-rows", "negative-axes"],
)  # fmt: skip
def test_sums_over_trailing_axes_add_in_onnxruntimes_order_bit_for_bit(tmp_path, op, shape, axes):
    """Over trailing axes onnxruntime sums each row in Eigen's vectorized order; numpy's
    pairwise order gives other bits on these inputs, so the test sees the order."""
    x = floats(53, *shape) * np.float32(10)
    node = h.make_node(op, ["x"], ["y"], **({} if axes is None else {"axes": axes}))
    model = onnx.shape_inference.infer_shapes(unchecked_model([node], [info("x", T.FLOAT, shape)], [info("y", T.FLOAT, None)], opset=11))
    want, got, flat = three_runs(tmp_path, model, {"x": x})
    np.testing.assert_array_equal(got["y"], want["y"])
    np.testing.assert_array_equal(flat["y"], want["y"])
    over = tuple(range(len(shape))) if axes is None else tuple(a % len(shape) for a in axes)
    numpy_order = np.sum(x, over, np.float32, keepdims=True) / np.float32(1 if op == "ReduceSum" else np.prod([shape[a] for a in over]))
    if shape[-1] > 8:  # long enough rows for the orders to part
        assert not np.array_equal(numpy_order.astype(np.float32), want["y"])


# --- Conv ------------------------------------------------------------------------------------------


def test_conv_of_a_known_input_with_a_run_time_bias_matches_onnxruntime(tmp_path):
    case = Case(
        [h.make_node("Conv", ["x", "w", "b"], ["y"], pads=[1, 0, 0, 1])],
        {"b": floats(60, 3)},
        {"y": T.FLOAT},
        {"x": floats(61, 1, 2, 4, 5), "w": floats(62, 3, 2, 2, 3)},
    )
    case_matches_onnxruntime(tmp_path, case, 13)


def test_conv_with_run_time_weights_is_refused_by_name():
    model = unchecked_model(
        [h.make_node("Conv", ["x", "w"], ["y"], name="n")],
        [info("x", T.FLOAT, [1, 2, 4, 4]), info("w", T.FLOAT, [3, 2, 3, 3])],
        [info("y", T.FLOAT, None)],
    )
    assert refusal(model) == "node n (Conv): Conv weights must be a constant (it is computed at run time)"


# --- comparisons, Cast ------------------------------------------------------------------------------


@pytest.mark.parametrize("op", ["Less", "Greater", "Equal"])
def test_a_comparison_broadcasting_its_first_operand_matches_onnxruntime(tmp_path, op):
    """The result takes the larger second operand's shape."""
    a, b = floats(70, 3).round(), floats(71, 2, 3).round()
    case_matches_onnxruntime(tmp_path, Case([h.make_node(op, ["a", "b"], ["y"])], {"a": a, "b": b}, {"y": T.BOOL}), 13)


@pytest.mark.parametrize("known", ["a", "b"])
def test_a_comparison_of_a_known_and_a_run_time_integer_operand_matches_onnxruntime(tmp_path, known):
    rng = np.random.default_rng(72)
    values = {"a": rng.integers(0, 3, (3,)), "b": rng.integers(0, 3, (2, 3))}
    runtime = {n: v for n, v in values.items() if n != known}
    case = Case([h.make_node("Equal", ["a", "b"], ["y"])], runtime, {"y": T.BOOL}, {known: values[known]})
    case_matches_onnxruntime(tmp_path, case, 13)


def test_cast_of_a_run_time_tensor_to_an_unsupported_type_is_refused_by_both_types():
    model = unchecked_model(
        [h.make_node("Cast", ["x"], ["y"], name="n", to=T.DOUBLE)], [info("x", T.FLOAT, [2, 3])], [info("y", T.DOUBLE, None)]
    )
    assert refusal(model) == (
        "node n (Cast): Cast of a run-time float32 tensor to DOUBLE is not supported"
        " (float32, float16, bool, int8, uint8, int32 and int64 are)"
    )


CAST_TYPES = {np.float32: T.FLOAT, np.bool_: T.BOOL, np.int8: T.INT8, np.uint8: T.UINT8, np.int32: T.INT32, np.int64: T.INT64}


def cast_source(dtype, rng: np.random.Generator) -> np.ndarray:
    """Values each cast of ``dtype`` defines: floats with fractions of both signs, zeros and
    halves (truncated toward zero, in every integer type's range); integers that wrap in int8."""
    if dtype == np.float32:
        values = rng.integers(-250, 250, (3, 4)) / 2 - rng.random((3, 4)) * (rng.random((3, 4)) < 0.5)
        values = np.clip(values, -127.5, 127.5)
        values.flat[:2] = [0.0, -0.0]
        return values.astype(np.float32)
    if dtype == np.bool_:
        return rng.random((3, 4)) < 0.5
    if dtype == np.uint8:
        return rng.integers(0, 256, (3, 4)).astype(np.uint8)
    return rng.integers(-300, 300, (3, 4)).astype(dtype) if dtype != np.int8 else rng.integers(-128, 128, (3, 4)).astype(np.int8)


@pytest.mark.parametrize("source", list(CAST_TYPES), ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("target", list(CAST_TYPES), ids=lambda t: np.dtype(t).name)
def test_cast_at_run_time_between_supported_types_matches_onnxruntime(tmp_path, source, target):
    x = cast_source(source, np.random.default_rng(9))
    model = h.make_model(h.make_graph([h.make_node("Cast", ["x"], ["y"], to=CAST_TYPES[target])], "g",
                                      [info("x", CAST_TYPES[source], x.shape)], [info("y", CAST_TYPES[target], x.shape)]),
                         opset_imports=[h.make_opsetid("", 19)], ir_version=9)  # fmt: skip
    want, got, ran = three_runs(tmp_path, model, {"x": x})
    for outputs in (got, ran):
        assert outputs["y"].dtype == want["y"].dtype
        np.testing.assert_array_equal(outputs["y"], want["y"])
