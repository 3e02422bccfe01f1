"""BatchNormalization, InstanceNormalization, LayerNormalization, GroupNormalization,
LpNormalization, the reductions, Softmax, LogSoftmax and Hardmax, and ArgMax and ArgMin,
imported at every version cfmem accepts, on drawn shapes, values and attributes, against
onnxruntime: the reference interpreter on the import and the planned flat form, which must
compute the same numbers. Forms cfmem does not support are refused by their exact one-line
messages."""

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
from onnx import numpy_helper as nh  # noqa: E402
from test_onnx_ops_mapping import refusal, three_runs  # noqa: E402

from cfmem.importers.onnx.helpers import operator_version  # noqa: E402
from cfmem.importers.onnx.registry import OPERATOR_VERSIONS  # noqa: E402
from cfmem.importers.onnx.reference import max_abs_error  # noqa: E402

OLDEST_OPSET = 7  # the oldest onnxruntime runs
TOLERANCE = 1e-5
"""Largest difference from onnxruntime, relative to the largest output magnitude (at least 1)."""
DRAWS = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
VALUES = st.floats(-12, 12, width=32) | st.just(0.0)
EPSILONS = st.floats(2**-20, 0.125, width=32)


def model(op: str, opset: int, x_shape, attrs: dict, known: dict[str, np.ndarray | None] = {},
          outputs: dict[str, tuple | None] | None = None, runtime: dict[str, np.ndarray] = {},
          out_type: int = T.FLOAT) -> onnx.ModelProto:  # fmt: skip
    """One ``op`` node reading run-time ``x`` (and ``runtime``), then ``known`` initializers in
    order (None: an omitted input); ``outputs`` maps names to shapes (default one ``y`` like x),
    all of ``out_type``."""
    outputs = {"y": tuple(x_shape)} if outputs is None else outputs
    names = ["x", *runtime, *(name if value is not None else "" for name, value in known.items())]
    node = h.make_node(op, names, list(outputs), name="n", **attrs)
    inputs = [h.make_tensor_value_info("x", T.FLOAT, x_shape)]
    inputs += [h.make_tensor_value_info(n, h.np_dtype_to_tensor_dtype(v.dtype), v.shape) for n, v in runtime.items()]
    inits = [nh.from_array(value, name) for name, value in known.items() if value is not None]
    graph = h.make_graph([node], "g", inputs, [h.make_tensor_value_info(n, out_type, s) for n, s in outputs.items()], inits)
    ir_version = 8 if opset < 19 else 9 if opset < 21 else 10
    return h.make_model(graph, opset_imports=[h.make_opsetid("", opset)], ir_version=ir_version)


def check(tmp_path: Path, m: onnx.ModelProto, feeds: dict[str, np.ndarray], checked: bool = True) -> None:
    """Reference and flat outputs identical, both within TOLERANCE of onnxruntime's (scaled by
    its largest finite magnitude; infinities and NaNs must match exactly), plus the rounding a
    normalization amplifies: the mean's last bits, ``max|x| * 2**-23``, times ``1 / sqrt(epsilon)``
    at most (a channel of equal values normalizes rounding noise alone); LayerNormalization's
    InvStdDev, from the one-pass variance ``mean(x * x) - mean ** 2``, moves by up to half the
    relative change of ``var + epsilon``, whose rounding is a few last bits of ``max|x| ** 2``."""
    want, got, ran = three_runs(tmp_path, m, feeds, checked)
    scale = max([1.0, *(float(np.abs(v[np.isfinite(v)]).max(initial=0)) for v in want.values())])
    attrs = {a.name: h.get_attribute_value(a) for a in m.graph.node[0].attribute}
    amplified = 0.0
    if m.graph.node[0].op_type.endswith("Normalization") and m.graph.node[0].op_type != "LpNormalization":
        largest = float(np.abs(feeds["x"][np.isfinite(feeds["x"])]).max(initial=0))
        epsilon = attrs.get("epsilon", 1e-5)
        amplified = 8 * largest * 2.0**-23 / np.sqrt(epsilon) * scale
        if "inv_std_dev" in want:
            amplified += 8 * largest**2 * 2.0**-23 / epsilon / np.sqrt(epsilon)
    for outputs in (got, ran):
        assert {k: (v.shape, v.dtype) for k, v in outputs.items()} == {k: (v.shape, v.dtype) for k, v in want.items()}
        assert max_abs_error(want, outputs) <= TOLERANCE * scale + amplified
    for name in got:
        np.testing.assert_array_equal(got[name], ran[name])  # the plan changes no number


def opset_of(op: str, data, versions=None) -> int:
    """A drawn accepted version of ``op``, as the oldest opset onnxruntime runs that has it."""
    return max(OLDEST_OPSET, data.draw(st.sampled_from(versions or OPERATOR_VERSIONS[op]), label="version"))


def floats(data, shape, elements=VALUES, label: str = "x") -> np.ndarray:
    return data.draw(arrays(np.float32, tuple(shape), elements=elements), label=label)


def channels_first(data, min_rank: int, max_rank: int = 4, channels=st.integers(1, 4)) -> tuple[int, ...]:
    """An (N, C, ...) shape."""
    rank = data.draw(st.integers(min_rank, max_rank), label="rank")
    rest = data.draw(st.lists(st.integers(1, 4), min_size=rank - 2, max_size=rank - 2), label="spatial")
    return (data.draw(st.integers(1, 3), label="N"), data.draw(channels, label="C"), *rest)


def maybe(data, name: str, strategy) -> dict:
    """``{name: drawn}`` or, as often, nothing (the attribute's default)."""
    return {name: data.draw(strategy, label=name)} if data.draw(st.booleans(), label=f"set {name}") else {}


# --- BatchNormalization -----------------------------------------------------------------------------


@DRAWS
@given(data=st.data())
def test_batch_normalization_matches_onnxruntime(tmp_path, data):
    opset = opset_of("BatchNormalization", data)
    attrs = maybe(data, "epsilon", EPSILONS)
    if opset == 7:
        attrs |= maybe(data, "spatial", st.sampled_from([0, 1]))
    if opset >= 14:
        attrs |= maybe(data, "training_mode", st.just(0))
    shape = channels_first(data, 2)
    stats = shape[1:] if attrs.get("spatial") == 0 else shape[1:2]
    known = {name: floats(data, stats, label=name) for name in ("scale", "B", "mean")}
    known["var"] = floats(data, stats, st.floats(0, 8, width=32), "var")
    x = floats(data, shape)
    check(tmp_path, model("BatchNormalization", opset, shape, attrs, known), {"x": x})


def batch_norm_refusal(opset: int = 15, outputs=("y",), known=("scale", "B", "mean", "var"), **attrs) -> str:
    stats = {name: np.ones(3, np.float32) if name in known else None for name in ("scale", "B", "mean", "var")}
    runtime = {name: np.ones(3, np.float32) for name in ("scale", "B", "mean", "var") if name not in known}
    node = h.make_node("BatchNormalization", ["x", "scale", "B", "mean", "var"], list(outputs), name="n", **attrs)
    graph = h.make_graph(
        [node], "g", [h.make_tensor_value_info(n, T.FLOAT, v) for n, v in {"x": [2, 3, 4], **{k: [3] for k in runtime}}.items()],
        [h.make_tensor_value_info(o, T.FLOAT, None) for o in outputs],
        [nh.from_array(v, k) for k, v in stats.items() if v is not None],
    )  # fmt: skip
    return refusal(h.make_model(graph, opset_imports=[h.make_opsetid("", opset)], ir_version=8))


@pytest.mark.parametrize("opset", [14, 15])
def test_batch_normalization_in_training_mode_is_refused(opset):
    assert batch_norm_refusal(opset, training_mode=1) == (
        "node n (BatchNormalization): BatchNormalization with training_mode 1 is not supported (only inference)"
    )


def test_the_training_outputs_of_batch_normalization_are_refused():
    assert batch_norm_refusal(15, outputs=("y", "running_mean", "running_var")) == (
        "node n (BatchNormalization): the training outputs of BatchNormalization (running or saved mean"
        " and variance) are not supported"
    )


@pytest.mark.parametrize("name, what", [("scale", "scale"), ("B", "B"), ("mean", "input_mean"), ("var", "input_var")])
def test_batch_normalization_statistics_computed_at_run_time_are_refused_by_name(name, what):
    known = tuple(k for k in ("scale", "B", "mean", "var") if k != name)
    assert batch_norm_refusal(15, known=known) == (
        f"node n (BatchNormalization): BatchNormalization {what} must be a constant (it is computed at run time)"
    )


# --- InstanceNormalization, LayerNormalization, GroupNormalization --------------------------------


def scale_and_bias(data, shape, known: bool) -> tuple[dict, dict]:
    """Scale and B of ``shape``: as initializers, or as run-time inputs."""
    values = {name: floats(data, shape, st.floats(-3, 3, width=32), name) for name in ("scale", "B")}
    return (values, {}) if known else ({}, values)


@DRAWS
@given(data=st.data())
def test_instance_normalization_matches_onnxruntime(tmp_path, data):
    opset = opset_of("InstanceNormalization", data)
    shape = channels_first(data, 3)
    known, runtime = scale_and_bias(data, shape[1:2], data.draw(st.booleans(), label="known scale"))
    attrs = maybe(data, "epsilon", EPSILONS)
    x = floats(data, shape)
    check(tmp_path, model("InstanceNormalization", opset, shape, attrs, known, runtime=runtime), {"x": x, **runtime})


@DRAWS
@given(data=st.data())
def test_layer_normalization_matches_onnxruntime(tmp_path, data):
    """Scale has the normalized shape, leading 1s maybe left out (onnxruntime takes no other
    broadcast); B may be omitted; Mean and InvStdDev, when asked for, keep the normalized
    axes as 1."""
    shape = tuple(data.draw(st.lists(st.integers(1, 4), min_size=1, max_size=4), label="shape"))
    axis = data.draw(st.integers(-len(shape), len(shape) - 1), label="axis")
    normalized = shape[axis:]
    leading_ones = next((k for k, d in enumerate(normalized) if d != 1), len(normalized) - 1)
    scale_shape = normalized[data.draw(st.integers(0, leading_ones), label="leading 1s left out"):]
    known = {"scale": floats(data, scale_shape, st.floats(-3, 3, width=32), "scale")}
    if data.draw(st.booleans(), label="B"):
        known["B"] = floats(data, scale_shape, st.floats(-3, 3, width=32), "B")
    attrs = {"axis": axis} | maybe(data, "epsilon", EPSILONS) | maybe(data, "stash_type", st.just(1))
    stats = shape[:axis % len(shape)] + (1,) * len(normalized)
    outputs = {"y": shape, "mean": stats, "inv_std_dev": stats} if data.draw(st.booleans(), label="statistics") else None
    x = floats(data, shape)
    check(tmp_path, model("LayerNormalization", 17, shape, attrs, known, outputs), {"x": x})


@DRAWS
@given(data=st.data())
def test_group_normalization_matches_onnxruntime(tmp_path, data):
    """Version 18 scales per group, 21 per channel. onnx's checker refuses version 18 as
    deprecated, though onnxruntime runs it."""
    opset = opset_of("GroupNormalization", data)
    groups = data.draw(st.integers(1, 3), label="groups")
    shape = channels_first(data, 3, channels=st.integers(1, 2).map(lambda k: k * groups))
    per = groups if opset < 21 else shape[1]
    known, runtime = scale_and_bias(data, (per,), data.draw(st.booleans(), label="known scale"))
    attrs = {"num_groups": groups} | maybe(data, "epsilon", EPSILONS)
    x = floats(data, shape)
    m = model("GroupNormalization", opset, shape, attrs, known, runtime=runtime)
    check(tmp_path, m, {"x": x, **runtime}, checked=opset >= 21)


@pytest.mark.parametrize("opset", [18, 21])
def test_group_normalization_scales_per_group_at_18_and_per_channel_at_21(tmp_path, opset):
    """Two channels per group, so per-group and per-channel scales differ."""
    x = np.arange(48, dtype=np.float32).reshape(2, 4, 6) % 7
    per = 2 if opset == 18 else 4
    known = {"scale": np.arange(1, per + 1, dtype=np.float32), "B": -np.arange(per, dtype=np.float32)}
    check(tmp_path, model("GroupNormalization", opset, x.shape, {"num_groups": 2}, known), {"x": x}, checked=opset >= 21)


@pytest.mark.parametrize("op, opset", [("LayerNormalization", 17), ("GroupNormalization", 21)])
def test_a_stash_type_other_than_float_is_refused(op, opset):
    attrs = {"stash_type": 11} | ({"num_groups": 1} if op == "GroupNormalization" else {})
    known = {"scale": np.ones(3, np.float32), "B": np.zeros(3, np.float32)}
    assert refusal(model(op, opset, (2, 3, 3), attrs, known)) == (
        f"node n ({op}): {op} stash_type 11 is not supported (only 1: float32)"
    )


def test_group_normalization_into_groups_that_do_not_divide_the_channels_is_refused():
    known = {"scale": np.ones(3, np.float32), "B": np.zeros(3, np.float32)}
    assert refusal(model("GroupNormalization", 21, (2, 3, 4), {"num_groups": 2}, known)) == (
        "node n (GroupNormalization): GroupNormalization of 3 channels into 2 groups: not a divisor"
    )


@pytest.mark.parametrize("op, rank, least", [("BatchNormalization", 1, 2), ("InstanceNormalization", 2, 3), ("GroupNormalization", 1, 2)])
def test_an_input_without_channels_is_refused(op, rank, least):
    """A rank onnxruntime refuses too: no (N, C, ...) layout, or no spatial axis to normalize."""
    stats = {"scale": np.ones(2, np.float32), "B": np.zeros(2, np.float32)}
    if op == "BatchNormalization":
        stats |= {"mean": np.zeros(2, np.float32), "var": np.ones(2, np.float32)}
    attrs = {"num_groups": 1} if op == "GroupNormalization" else {}
    assert refusal(model(op, 21 if op == "GroupNormalization" else 15, (2,) * rank, attrs, stats)) == (
        f"node n ({op}): {op} needs an (N, C, ...) input of rank {least} or more, not {rank}"
    )


# --- LpNormalization ----------------------------------------------------------------------------------


@DRAWS
@given(data=st.data())
def test_lp_normalization_matches_onnxruntime_zero_norms_included(tmp_path, data):
    shape = tuple(data.draw(st.lists(st.integers(1, 4), min_size=1, max_size=4), label="shape"))
    attrs = maybe(data, "p", st.sampled_from([1, 2])) | maybe(data, "axis", st.integers(-len(shape), len(shape) - 1))
    x = floats(data, shape, st.floats(-12, 12, width=32) | st.just(0.0) | st.just(0.0))
    check(tmp_path, model("LpNormalization", opset_of("LpNormalization", data), shape, attrs), {"x": x})


def test_lp_normalization_of_an_all_zero_input_is_zero(tmp_path):
    x = np.zeros((2, 3), np.float32)
    for p in (1, 2):
        check(tmp_path, model("LpNormalization", 22, x.shape, {"p": p, "axis": 0}), {"x": x})


def test_lp_normalization_with_p_other_than_1_or_2_is_refused():
    assert refusal(model("LpNormalization", 22, (2, 3), {"p": 3})) == (
        "node n (LpNormalization): LpNormalization p 3 is not supported (only 1 and 2)"
    )


# --- reductions --------------------------------------------------------------------------------------

REDUCTIONS = ("ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2", "ReduceLogSum",
              "ReduceLogSumExp", "ReduceSumSquare", "ReduceMean", "ReduceSum")  # fmt: skip
AXES_INPUT_SINCE = {"ReduceSum": 13}


def reduction_model(op: str, opset: int, shape, axes: list[int] | None, keepdims: int | None, noop: int | None) -> onnx.ModelProto:
    """``axes`` as the attribute before the version that made it an input, as an input from it."""
    attrs = {k: v for k, v in (("keepdims", keepdims), ("noop_with_empty_axes", noop)) if v is not None}
    as_input = operator_version(op, opset) >= AXES_INPUT_SINCE.get(op, 18)
    known = {"axes": np.array(axes, np.int64)} if as_input and axes is not None else {}
    if not as_input and axes is not None:
        attrs["axes"] = axes
    rank = len(shape)
    reduced = {a % rank for a in axes} if axes else set() if noop else set(range(rank))
    out = [1 if k in reduced else d for k, d in enumerate(shape) if keepdims != 0 or k not in reduced]
    return model(op, opset, shape, attrs, known, {"y": tuple(out)})


@pytest.mark.parametrize("op", REDUCTIONS)
@DRAWS
@given(data=st.data())
def test_reductions_match_onnxruntime(tmp_path, op, data):
    """Axes drawn (negative ones too) or left out (every axis; none with noop_with_empty_axes,
    from the version that takes axes as an input); positive inputs for ReduceLogSum."""
    opset = opset_of(op, data)
    shape = tuple(data.draw(st.lists(st.integers(1, 4), min_size=1, max_size=4), label="shape"))
    rank = len(shape)
    axes = data.draw(st.none() | st.lists(st.integers(0, rank - 1), min_size=1, max_size=rank, unique=True), label="axes")
    if axes is not None:
        axes = [a - rank if data.draw(st.booleans(), label="from the end") else a for a in axes]
    keepdims = data.draw(st.none() | st.sampled_from([0, 1]), label="keepdims")
    noop = data.draw(st.none() | st.sampled_from([0, 1]), label="noop") if operator_version(op, opset) >= AXES_INPUT_SINCE.get(op, 18) else None
    elements = st.floats(0.125, 12, width=32) if op == "ReduceLogSum" else st.floats(-3, 3, width=32) | st.just(0.0)
    x = floats(data, shape, elements)
    check(tmp_path, reduction_model(op, opset, shape, axes, keepdims, noop), {"x": x})


@pytest.mark.parametrize("op, opset", [(op, 18) for op in REDUCTIONS if op != "ReduceSum"] + [("ReduceSum", 13)])
def test_reductions_over_no_axis_with_noop_are_their_elementwise_part(tmp_path, op, opset):
    """As onnxruntime: ReduceL1 and ReduceL2 give |x|, ReduceSumSquare x * x, ReduceLogSum
    log(x), the others x itself."""
    x = np.array([[0.5, -2.0, 3.0], [1.5, 4.0, -0.25]], np.float32)
    m = model(op, opset, x.shape, {"noop_with_empty_axes": 1}, {"axes": np.zeros(0, np.int64)})
    check(tmp_path, m, {"x": np.abs(x) if op == "ReduceLogSum" else x})


def test_reduce_log_sum_exp_stays_finite_on_large_inputs(tmp_path):
    x = np.array([[1000.0, 999.0, -1000.0], [-500.0, -501.0, 88.0]], np.float32)
    check(tmp_path, reduction_model("ReduceLogSumExp", 18, x.shape, [1], 0, None), {"x": x})


@pytest.mark.parametrize("op", ["ReduceMax", "ReduceL2", "ReduceLogSumExp"])
def test_reduction_axes_computed_at_run_time_are_refused_by_name(op):
    m = model(op, 18, (2, 3), {}, runtime={"axes": np.zeros(1, np.int64)}, outputs={"y": None})
    assert refusal(m) == f"node n ({op}): {op} axes must be a constant (it is computed at run time; it is an input of the model: fix it with --input-value)"


# --- Softmax, LogSoftmax, Hardmax ----------------------------------------------------------------


@pytest.mark.parametrize("op", ["Softmax", "LogSoftmax", "Hardmax"])
@DRAWS
@given(data=st.data())
def test_softmax_family_matches_onnxruntime(tmp_path, op, data):
    """Before version 13 the input is coerced to 2-D at ``axis`` (default 1), from 13 each op
    works along ``axis`` (default -1). Hardmax draws from a few values so maxima tie (the
    first wins)."""
    opset = opset_of(op, data)
    shape = tuple(data.draw(st.lists(st.integers(1, 4), min_size=1, max_size=4), label="shape"))
    attrs = maybe(data, "axis", st.integers(-len(shape), len(shape) - 1))
    if "axis" not in attrs and operator_version(op, opset) < 13 and len(shape) < 2:
        shape = (2, *shape)  # the default axis 1 needs rank 2
    elements = st.sampled_from([-1.0, 0.0, 2.0, 2.5]) if op == "Hardmax" else VALUES
    x = floats(data, shape, elements)
    check(tmp_path, model(op, opset, shape, attrs), {"x": x})


def test_log_softmax_stays_finite_where_softmax_underflows(tmp_path):
    x = np.array([[0.0, -120.0, 50.0], [-1000.0, 0.0, 1000.0]], np.float32)
    check(tmp_path, model("LogSoftmax", 13, x.shape, {}), {"x": x})


# --- ArgMax, ArgMin ------------------------------------------------------------------------------


@pytest.mark.parametrize("op", ["ArgMax", "ArgMin"])
@DRAWS
@given(data=st.data())
def test_arg_max_and_min_match_onnxruntime(tmp_path, op, data):
    """Drawn from a few values so extremes tie: the first wins, or the last with
    select_last_index (from version 12)."""
    opset = opset_of(op, data)
    shape = tuple(data.draw(st.lists(st.integers(1, 4), min_size=1, max_size=4), label="shape"))
    attrs = maybe(data, "axis", st.integers(-len(shape), len(shape) - 1)) | maybe(data, "keepdims", st.sampled_from([0, 1]))
    if operator_version(op, opset) >= 12:
        attrs |= maybe(data, "select_last_index", st.sampled_from([0, 1]))
    x = floats(data, shape, st.sampled_from([-1.5, 0.0, 2.0, 7.0]))
    out = np.argmax(x, axis=attrs.get("axis", 0), keepdims=bool(attrs.get("keepdims", 1))).shape
    check(tmp_path, model(op, opset, shape, attrs, outputs={"y": out}, out_type=T.INT64), {"x": x})


@pytest.mark.parametrize("op", ["ArgMax", "ArgMin"])
@pytest.mark.parametrize("select_last_index", [0, 1])
def test_tied_extremes_go_to_the_first_or_the_last_index(tmp_path, op, select_last_index):
    x = np.array([[2.0, -1.0, 2.0, -1.0], [0.0, 0.0, 0.0, 0.0]], np.float32)
    attrs = {"axis": 1, "select_last_index": select_last_index}
    check(tmp_path, model(op, 13, x.shape, attrs, outputs={"y": (2, 1)}, out_type=T.INT64), {"x": x})


def test_arg_max_indices_feed_a_comparison(tmp_path):
    """Run-time int64 indices compare like any integer tensor (here with known indices)."""
    x = np.array([[0.5, 3.0, -1.0], [4.0, 2.0, 4.0]], np.float32)
    nodes = [h.make_node("ArgMax", ["x"], ["i"], axis=1, keepdims=0), h.make_node("Equal", ["i", "want"], ["y"])]
    graph = h.make_graph(nodes, "g", [h.make_tensor_value_info("x", T.FLOAT, x.shape)],
                         [h.make_tensor_value_info("y", T.BOOL, [2])], [nh.from_array(np.array([1, 2], np.int64), "want")])  # fmt: skip
    want, got, ran = three_runs(tmp_path, h.make_model(graph, opset_imports=[h.make_opsetid("", 13)], ir_version=8), {"x": x})
    assert want["y"].tolist() == [True, False]
    for outputs in (got, ran):
        np.testing.assert_array_equal(outputs["y"], want["y"])


def test_arg_max_indices_feed_a_gather(tmp_path):
    """The i64 indices of ArgMax select by a run-time Gather, as in onnxruntime."""
    nodes = [h.make_node("ArgMax", ["x"], ["i"], axis=1), h.make_node("Gather", ["x", "i"], ["y"], axis=1, name="g")]
    graph = h.make_graph(nodes, "g", [h.make_tensor_value_info("x", T.FLOAT, [2, 3])], [h.make_tensor_value_info("y", T.FLOAT, [2, 2, 1])])
    model_ = h.make_model(graph, opset_imports=[h.make_opsetid("", 13)], ir_version=8)
    x = np.array([[0.5, 2.0, -1.0], [3.0, 1.0, 3.0]], np.float32)
    want, got, ran = three_runs(tmp_path, model_, {"x": x})
    np.testing.assert_array_equal(want["y"], [[[2.0], [0.5]], [[1.0], [3.0]]])  # x[r, argmax of row k]
    for outputs in (got, ran):
        np.testing.assert_array_equal(outputs["y"], want["y"])
