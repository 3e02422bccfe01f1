"""MaxPool and AveragePool (dilated, every ``auto_pad``, ``ceil_mode`` and
``count_include_pad``), Conv, Resize and Upsample, and ConvTranspose against onnxruntime on
drawn shapes, values and attributes, at every version cfmem accepts: the reference
interpreter and the planned flat form; every refusal by its exact message."""

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
from cfmem.importers.onnx.registry import OPERATOR_VERSIONS  # noqa: E402
from cfmem.importers.onnx.reference import onnxruntime_outputs  # noqa: E402

OLDEST_OPSET = 7
DRAWN = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
VALUES = st.floats(-8, 8, width=32)


def model(op: str, x_shape, attrs: dict, opset: int, known: dict[str, np.ndarray] | None = None) -> onnx.ModelProto:
    """One node ``n`` of ``op`` on a run-time input ``x`` and known inputs (None for an
    omitted one), its output shape inferred as exporters write it."""
    known = known or {}
    node = h.make_node(op, ["x", *(name if v is not None else "" for name, v in known.items())], ["y"], name="n", **attrs)
    inits = [nh.from_array(v, name) for name, v in known.items() if v is not None]
    graph = h.make_graph([node], "g", [h.make_tensor_value_info("x", T.FLOAT, x_shape)],
                         [h.make_tensor_value_info("y", T.FLOAT, None)], inits)  # fmt: skip
    ir_version = 8 if opset < 19 else 9 if opset < 21 else 10
    return onnx.shape_inference.infer_shapes(h.make_model(graph, opset_imports=[h.make_opsetid("", opset)], ir_version=ir_version))


def check(tmp_path, onnx_model: onnx.ModelProto, x: np.ndarray) -> None:
    """onnxruntime, the reference interpreter and the flat form agree: the last two exactly,
    the first two within 1e-5 scaled by the magnitude."""
    want, got, ran = (outputs["y"] for outputs in three_runs(tmp_path, onnx_model, {"x": x}))
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(got, ran)  # the plan changes no number


def refusal(onnx_model: onnx.ModelProto) -> str:
    with pytest.raises(OnnxImportError) as err:
        onnx_importer(onnx_model, "w.bin").import_graph({}, {})
    return str(err.value)


def opset_of(op: str, data, since: int = 1) -> int:
    """A drawn accepted version of ``op`` from ``since`` on, as the opset that introduced it."""
    return max(OLDEST_OPSET, data.draw(st.sampled_from([v for v in OPERATOR_VERSIONS[op] if v >= since]), label="version"))


def floats(data, shape) -> np.ndarray:
    return data.draw(arrays(np.float32, tuple(shape), elements=VALUES), label="x")


# --- MaxPool, AveragePool -------------------------------------------------------------------

DILATIONS_SINCE = {"MaxPool": 10, "AveragePool": 19}
CEIL_MODE_SINCE = 10


@pytest.mark.parametrize("op", ["MaxPool", "AveragePool"])
@DRAWN
@given(data=st.data())
def test_dilated_pooling_matches_onnxruntime(tmp_path, op, data):
    """Dilations with explicit or VALID padding, ceil_mode (whose last window must start in
    the input or its begin padding) and count_include_pad, 1-D and 2-D."""
    spatial = data.draw(st.sampled_from((1, 2)), label="spatial")

    def per_axis(low: int, high: int, label: str) -> list[int]:
        return data.draw(st.lists(st.integers(low, high), min_size=spatial, max_size=spatial), label=label)

    kernel, dilations, strides = per_axis(1, 3, "kernel"), per_axis(1, 3, "dilations"), per_axis(1, 3, "strides")
    attrs = {"kernel_shape": kernel, "strides": strides, "dilations": dilations, "ceil_mode": data.draw(st.sampled_from((0, 1)))}
    if data.draw(st.booleans(), label="VALID"):
        attrs["auto_pad"] = "VALID"
    else:  # onnxruntime wants each pad below the kernel size
        attrs["pads"] = [data.draw(st.integers(0, k - 1)) for k in kernel * 2]
    if op == "AveragePool":
        attrs["count_include_pad"] = data.draw(st.sampled_from((0, 1)), label="count_include_pad")
    spans = [(k - 1) * d + 1 for k, d in zip(kernel, dilations)]
    x = floats(data, (data.draw(st.integers(1, 2)), 2, *(data.draw(st.integers(s, s + 4)) for s in spans)))
    check(tmp_path, model(op, x.shape, attrs, opset_of(op, data, DILATIONS_SINCE[op])), x)


@pytest.mark.parametrize("op", ["MaxPool", "AveragePool"])
@DRAWN
@given(data=st.data())
def test_undilated_pooling_at_every_version_matches_onnxruntime(tmp_path, op, data):
    """Every auto_pad (SAME with strides up to the kernel: beyond, onnxruntime refuses the
    negative padding), ceil_mode from version 10."""
    spatial = data.draw(st.sampled_from((1, 2)), label="spatial")
    kernel = data.draw(st.lists(st.integers(1, 3), min_size=spatial, max_size=spatial), label="kernel")
    auto_pad = data.draw(st.sampled_from(("NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID")), label="auto_pad")
    opset = opset_of(op, data)
    attrs = {"kernel_shape": kernel, "strides": [data.draw(st.integers(1, k if auto_pad.startswith("SAME") else 3)) for k in kernel]}
    if auto_pad == "NOTSET":
        attrs["pads"] = [data.draw(st.integers(0, k - 1)) for k in kernel * 2]
    else:
        attrs["auto_pad"] = auto_pad
    if opset >= CEIL_MODE_SINCE:
        attrs["ceil_mode"] = data.draw(st.sampled_from((0, 1)), label="ceil_mode")
    if op == "AveragePool":
        attrs["count_include_pad"] = data.draw(st.sampled_from((0, 1)), label="count_include_pad")
    x = floats(data, (1, 2, *(data.draw(st.integers(k, k + 4)) for k in kernel)))
    check(tmp_path, model(op, x.shape, attrs, opset), x)


@pytest.mark.parametrize(
    "x_shape, attrs, want_shape",
    [
        # the last window would start in the end padding: dropped
        ((1, 1, 6), {"kernel_shape": [2], "dilations": [2], "strides": [3], "pads": [0, 1], "ceil_mode": 1}, (1, 1, 2)),
        # ceil_mode adds a window reaching past the end padding
        ((1, 1, 8), {"kernel_shape": [2], "dilations": [3], "strides": [2], "pads": [1, 0], "ceil_mode": 1}, (1, 1, 4)),
        ((1, 1, 7, 6), {"kernel_shape": [3, 2], "dilations": [2, 3], "strides": [2, 2], "pads": [0, 1, 1, 0], "ceil_mode": 1}, (1, 1, 3, 3)),
    ],
)
@pytest.mark.parametrize("op", ["MaxPool", "AveragePool"])
def test_dilated_ceil_mode_edges_match_onnxruntime(tmp_path, op, x_shape, attrs, want_shape):
    x = np.random.default_rng(3).standard_normal(x_shape).astype(np.float32)
    onnx_model = model(op, x_shape, {**attrs, **({"count_include_pad": 1} if op == "AveragePool" else {})}, 19)
    assert onnxruntime_outputs_of(tmp_path, onnx_model, x).shape == want_shape
    check(tmp_path, onnx_model, x)


def onnxruntime_outputs_of(tmp_path, onnx_model: onnx.ModelProto, x: np.ndarray) -> np.ndarray:
    path = tmp_path / "ort.onnx"
    onnx.save(onnx_model, str(path))
    return onnxruntime_outputs(path, {"x": x})["y"]


@pytest.mark.parametrize("auto_pad", ["SAME_UPPER", "SAME_LOWER"])
@pytest.mark.parametrize("op", ["MaxPool", "AveragePool"])
def test_same_padding_with_a_dilation_is_refused(op, auto_pad):
    attrs = {"kernel_shape": [3, 2], "dilations": [2, 1], "auto_pad": auto_pad}
    assert refusal(model(op, (1, 1, 9, 4), attrs, 19)) == (
        f"node n ({op}): {op} with auto_pad {auto_pad} and dilations [2, 1] is not supported"
        " (onnxruntime pads for the undilated kernel, against the ONNX spec)"
    )


def test_onnxruntime_pads_a_dilated_same_pooling_for_the_undilated_kernel(tmp_path):
    """Why it is refused: the spec's SAME output has ceil(9 / 1) = 9 rows, onnxruntime's 7."""
    x = np.zeros((1, 1, 9), np.float32)
    onnx_model = model("MaxPool", x.shape, {"kernel_shape": [3], "dilations": [2], "auto_pad": "SAME_UPPER"}, 19)
    assert onnxruntime_outputs_of(tmp_path, onnx_model, x).shape == (1, 1, 7)


@DRAWN
@given(data=st.data())
def test_conv_at_every_version_matches_onnxruntime(tmp_path, data):
    """Groups (depthwise among them), strides, dilations and every auto_pad, 1-D and 2-D; SAME
    only undilated, as onnxruntime runs no dilated SAME Conv."""
    spatial = data.draw(st.sampled_from((1, 2)), label="spatial")
    groups, in_per_group, out_per_group = data.draw(st.integers(1, 3)), data.draw(st.integers(1, 2)), data.draw(st.integers(1, 2))
    kernel = data.draw(st.lists(st.integers(1, 3), min_size=spatial, max_size=spatial), label="kernel")
    auto_pad = data.draw(st.sampled_from(("NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID")), label="auto_pad")
    top = 1 if auto_pad.startswith("SAME") else 3
    dilations = [data.draw(st.integers(1, top)) for _ in kernel]
    attrs = {"strides": [data.draw(st.integers(1, 3)) for _ in kernel], "dilations": dilations, "group": groups}
    if auto_pad == "NOTSET":
        attrs["pads"] = [data.draw(st.integers(0, 2)) for _ in range(2 * spatial)]
    else:
        attrs["auto_pad"] = auto_pad
    spans = [(k - 1) * d + 1 for k, d in zip(kernel, dilations)]
    x = floats(data, (data.draw(st.integers(1, 2)), groups * in_per_group, *(data.draw(st.integers(s, s + 3)) for s in spans)))
    known = {"w": floats(data, (groups * out_per_group, in_per_group, *kernel))}
    if data.draw(st.booleans(), label="bias"):
        known["b"] = floats(data, (groups * out_per_group,))
    check(tmp_path, model("Conv", x.shape, attrs, opset_of("Conv", data), known), x)


# --- Resize, Upsample -----------------------------------------------------------------------

SCALES = st.sampled_from((0.5, 0.6, 0.75, 1.0, 1.3, 1.5, 2.0, 2.5, 3.0))
COORDINATES = ("half_pixel", "asymmetric", "align_corners", "pytorch_half_pixel", "tf_half_pixel_for_nn")
NEAREST_MODES = ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil")


def drawn_resize_input(data, mode: str) -> np.ndarray:
    """Nearest of any rank from 1 to 4; linear of rank 2 to 4."""
    rank = data.draw(st.integers(2 if mode == "linear" else 1, 4), label="rank")
    return floats(data, data.draw(st.lists(st.integers(1, 5), min_size=rank, max_size=rank), label="shape"))


def drawn_scales(data, shape, mode: str, at_least: float = 0.0) -> list[float]:
    """A scale per axis, 1 where linear may not resize (outside the two innermost axes), none
    giving an empty output."""
    resizable = range(len(shape) - 2 if mode == "linear" else 0, len(shape))
    drawn = [data.draw(SCALES.filter(lambda s: s >= at_least)) if axis in resizable else 1.0 for axis in range(len(shape))]
    return [s if int(np.float32(s) * np.float32(n)) > 0 else 1.0 for s, n in zip(drawn, shape)]


@DRAWN
@given(data=st.data())
def test_resize_matches_onnxruntime(tmp_path, data):
    """Every accepted version: scales or sizes (from 11), on some axes (from 18, with
    keep_aspect_ratio_policy), each coordinate transformation and nearest_mode."""
    mode = data.draw(st.sampled_from(("nearest", "linear")), label="mode")
    x = drawn_resize_input(data, mode)
    opset = opset_of("Resize", data)
    scales = drawn_scales(data, x.shape, mode)
    attrs = {"mode": mode}
    if opset == 10:
        check(tmp_path, model("Resize", x.shape, attrs, opset, {"scales": np.array(scales, np.float32)}), x)
        return
    coordinates = COORDINATES + (("half_pixel_symmetric",) if opset >= 19 else ())
    attrs["coordinate_transformation_mode"] = data.draw(st.sampled_from(coordinates), label="coordinates")
    if mode == "nearest":
        attrs["nearest_mode"] = data.draw(st.sampled_from(NEAREST_MODES), label="nearest_mode")
    axes = list(range(x.ndim))
    if opset >= 18 and data.draw(st.booleans(), label="axes"):
        axes = sorted(data.draw(st.sets(st.sampled_from(axes), min_size=1), label="axes"))
        attrs["axes"] = axes
    known = {"roi": np.array([], np.float32) if opset < 13 else None}
    if data.draw(st.booleans(), label="sizes"):
        sizes = [int(np.float32(scales[a]) * np.float32(x.shape[a])) for a in axes]
        if opset >= 18 and (mode == "nearest" or x.ndim == 2):  # a policy may resize every axis in axes
            attrs["keep_aspect_ratio_policy"] = data.draw(st.sampled_from(("stretch", "not_larger", "not_smaller")))
        known = {**known, "scales": np.array([], np.float32) if opset < 13 else None, "sizes": np.array(sizes, np.int64)}
    else:
        known["scales"] = np.array([scales[a] for a in axes], np.float32)
    check(tmp_path, model("Resize", x.shape, attrs, opset, known), x)


@DRAWN
@given(data=st.data())
def test_upsample_matches_onnxruntime(tmp_path, data):
    """Scales of at least 1, an attribute at version 7 and an input at 9."""
    mode = data.draw(st.sampled_from(("nearest", "linear")), label="mode")
    x = drawn_resize_input(data, mode)
    opset = opset_of("Upsample", data)
    scales = drawn_scales(data, x.shape, mode, at_least=1.0)
    if opset < 9:
        check(tmp_path, model("Upsample", x.shape, {"mode": mode, "scales": scales}, opset), x)
    else:
        check(tmp_path, model("Upsample", x.shape, {"mode": mode}, opset, {"scales": np.array(scales, np.float32)}), x)


def test_resize_keeps_the_input_when_the_output_has_its_shape(tmp_path):
    """onnxruntime copies the input whatever the scale (1.3 of 2 rows is still 2 rows)."""
    x = np.arange(8, dtype=np.float32).reshape(1, 1, 2, 4)
    onnx_model = model("Resize", x.shape, {"mode": "linear"}, 13, {"roi": np.array([], np.float32), "scales": np.array([1, 1, 1.3, 1], np.float32)})
    np.testing.assert_array_equal(onnxruntime_outputs_of(tmp_path, onnx_model, x), x)
    check(tmp_path, onnx_model, x)


def test_resize_rounds_a_nearest_tie_as_onnxruntime(tmp_path):
    """half_pixel coordinates of a 2x downscale land on .5 exactly: floor and ceil differ."""
    x = np.arange(8, dtype=np.float32).reshape(1, 8)
    for nearest_mode, want in (("round_prefer_floor", [0, 2, 4, 6]), ("round_prefer_ceil", [1, 3, 5, 7])):
        attrs = {"mode": "nearest", "nearest_mode": nearest_mode}
        onnx_model = model("Resize", x.shape, attrs, 13, {"roi": None, "scales": np.array([1, 0.5], np.float32)})
        assert onnxruntime_outputs_of(tmp_path, onnx_model, x).reshape(-1).tolist() == want
        check(tmp_path, onnx_model, x)


SCALES_1D = {"roi": np.array([], np.float32), "scales": np.array([2], np.float32)}

RESIZE_REFUSED = {
    "cubic": ({"mode": "cubic"}, SCALES_1D, "Resize mode 'cubic' is not supported (nearest, linear)"),
    "tf_crop_and_resize": (
        {"coordinate_transformation_mode": "tf_crop_and_resize"},
        SCALES_1D,
        "Resize coordinate_transformation_mode 'tf_crop_and_resize' is not supported"
        " (half_pixel, half_pixel_symmetric, pytorch_half_pixel, align_corners, asymmetric, tf_half_pixel_for_nn)",
    ),
    "nearest_mode": (
        {"nearest_mode": "simple"},
        SCALES_1D,
        "Resize nearest_mode 'simple' is not one of round_prefer_floor, round_prefer_ceil, floor, ceil",
    ),
    "antialias": ({"mode": "linear", "antialias": 1}, SCALES_1D, "Resize antialias is not supported"),
    "linear-1d": ({"mode": "linear"}, SCALES_1D, "Resize linear of a rank-1 input is not supported (ranks 2 to 5)"),
    "scales-and-sizes": (
        {},
        {"roi": np.array([], np.float32), "scales": np.array([2], np.float32), "sizes": np.array([3], np.int64)},
        "Resize takes scales or sizes, not both",
    ),
    "empty": ({}, {"roi": np.array([], np.float32), "scales": np.array([0.1], np.float32)}, "Resize to the empty shape [0] is not supported"),
    "count": ({}, {"roi": np.array([], np.float32), "scales": np.array([2, 2], np.float32)}, "Resize has 2 scales for 1 axes"),
    "policy": (
        {"keep_aspect_ratio_policy": "fit"},
        {"roi": np.array([], np.float32), "scales": np.array([], np.float32), "sizes": np.array([3], np.int64)},
        "Resize keep_aspect_ratio_policy 'fit' is not one of stretch, not_larger, not_smaller",
    ),
}


@pytest.mark.parametrize("attrs, known, message", list(RESIZE_REFUSED.values()), ids=list(RESIZE_REFUSED))
def test_unsupported_resizes_are_refused(attrs, known, message):
    assert refusal(model("Resize", (4,), attrs, 19, known)) == f"node n (Resize): {message}"


def test_linear_resize_outside_the_two_innermost_axes_is_refused():
    onnx_model = model("Resize", (2, 3, 4), {"mode": "linear"}, 13, {"roi": None, "scales": np.array([2, 1, 2], np.float32)})
    assert refusal(onnx_model) == "node n (Resize): Resize linear along axes [0, 2] is not supported (only the two innermost axes)"


@pytest.mark.parametrize("what, index", [("scales", 2), ("sizes", 3)])
def test_resize_targets_computed_at_run_time_are_refused(what, index):
    node = h.make_node("Resize", ["x", "", *([""] * (index - 2)), "t"], ["y"], name="n")
    dtype = T.FLOAT if what == "scales" else T.INT64
    graph = h.make_graph([node], "g", [h.make_tensor_value_info("x", T.FLOAT, (1, 4)), h.make_tensor_value_info("t", dtype, (2,))],
                         [h.make_tensor_value_info("y", T.FLOAT, None)])  # fmt: skip
    onnx_model = h.make_model(graph, opset_imports=[h.make_opsetid("", 13)], ir_version=8)
    assert refusal(onnx_model) == f"node n (Resize): Resize {what} must be a constant (it is computed at run time)"


def test_upsample_10_is_refused_by_version():
    onnx_model = model("Upsample", (1, 4), {}, 10, {"scales": np.array([1, 2], np.float32)})
    assert refusal(onnx_model) == "node n (Upsample): Upsample version 10 (the model's opset 10) is not supported; supported versions: 7, 9"


# --- ConvTranspose --------------------------------------------------------------------------


def conv_transpose_model(x_shape, w: np.ndarray, bias: np.ndarray | None, attrs: dict, opset: int) -> onnx.ModelProto:
    known = {"w": w, **({"b": bias} if bias is not None else {})}
    return model("ConvTranspose", x_shape, attrs, opset, known)


def unpadded_output(sizes, strides, kernel, dilations, extra) -> list[int]:
    return [s * (n - 1) + e + (k - 1) * d + 1 for n, s, k, d, e in zip(sizes, strides, kernel, dilations, extra)]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_conv_transpose_matches_onnxruntime(tmp_path, data):
    """1-D and 2-D, groups (depthwise among them), strides, dilations, output_padding below
    the strides, and pads given, from auto_pad, or from output_shape (with or without
    auto_pad, up to a stride past the unpadded output), bias or none, at every version."""
    spatial = data.draw(st.sampled_from((1, 2)), label="spatial")

    def per_axis(low: int, high: int, label: str) -> list[int]:
        return data.draw(st.lists(st.integers(low, high), min_size=spatial, max_size=spatial), label=label)

    groups, in_per_group, out_per_group = (data.draw(st.integers(1, 2)) for _ in range(3))
    kernel, dilations, sizes = per_axis(1, 3, "kernel"), per_axis(1, 2, "dilations"), per_axis(1, 4, "sizes")
    how = data.draw(st.sampled_from(("pads", "VALID", "SAME_UPPER", "SAME_LOWER", "output_shape")), label="padding")
    # SAME: strides up to the dilated kernel, whose size * stride outputs onnxruntime gives as the spec says
    spans = [(k - 1) * d + 1 if how.startswith("SAME") else 3 for k, d in zip(kernel, dilations)]
    strides = [data.draw(st.integers(1, min(3, span))) for span in spans]
    extra = [data.draw(st.integers(0, s - 1)) for s in strides]
    attrs = {"strides": strides, "dilations": dilations, "group": groups, "output_padding": extra}
    full = unpadded_output(sizes, strides, kernel, dilations, extra)
    if how == "pads":
        begins = [data.draw(st.integers(0, f - 1)) for f in full]
        attrs["pads"] = begins + [data.draw(st.integers(0, f - 1 - b)) for f, b in zip(full, begins)]
    elif how == "output_shape":
        attrs["output_shape"] = [data.draw(st.integers(1, f - e + s - 1)) for f, e, s in zip(full, extra, strides)]
        if data.draw(st.booleans(), label="with auto_pad"):
            attrs["auto_pad"] = data.draw(st.sampled_from(("SAME_UPPER", "SAME_LOWER")))
    else:
        attrs["auto_pad"] = how
    w = floats(data, (groups * in_per_group, out_per_group, *kernel))
    bias = floats(data, (groups * out_per_group,)) if data.draw(st.booleans(), label="bias") else None
    x = floats(data, (data.draw(st.integers(1, 2)), groups * in_per_group, *sizes))
    check(tmp_path, conv_transpose_model(x.shape, w, bias, attrs, opset_of("ConvTranspose", data)), x)


def test_conv_transpose_fills_an_output_shape_past_the_unpadded_output_at_the_end(tmp_path):
    """Stride 3 of 4 elements with a kernel of 3 reaches 12; an output_shape of 13 adds a bias-only element."""
    x, w, bias = np.ones((1, 1, 4), np.float32), np.ones((1, 1, 3), np.float32), np.full(1, 0.5, np.float32)
    onnx_model = conv_transpose_model(x.shape, w, bias, {"strides": [3], "output_shape": [13]}, 22)
    assert onnxruntime_outputs_of(tmp_path, onnx_model, x).reshape(-1).tolist() == [1.5] * 12 + [0.5]
    check(tmp_path, onnx_model, x)


W_1D = np.ones((1, 1, 2), np.float32)

CONV_TRANSPOSE_REFUSED = {
    "output_padding": (
        (1, 1, 4), W_1D, {"strides": [2], "dilations": [2], "output_padding": [2]},
        "ConvTranspose output_padding [2] is not below the strides [2]; not supported, as onnxruntime does not run it",
    ),
    "same-beyond": (
        (1, 1, 4), W_1D, {"strides": [3], "auto_pad": "SAME_UPPER"},
        "ConvTranspose with auto_pad SAME_UPPER and output [12] beyond its unpadded output [11] is not supported"
        " (onnxruntime gives the unpadded output, against the ONNX spec)",
    ),
    "output_shape-beyond": (
        (1, 1, 4), W_1D, {"strides": [2], "output_shape": [10]},
        "ConvTranspose output_shape [10] reaches a stride [2] or more past its unpadded output without output_padding [8];"
        " not supported, as onnxruntime does not run it",
    ),
    "empty": ((1, 1, 1), W_1D, {"pads": [1, 1]}, "ConvTranspose output [0] is empty"),
    "channels": (
        (1, 3, 4), W_1D, {}, "ConvTranspose weights [1, 1, 2] with group 1 do not fit an input of 3 channels"
    ),
    "3d": (
        (1, 1, 2, 2, 2), np.ones((1, 1, 2, 2, 2), np.float32), {},
        "ConvTranspose with 3 spatial dimensions is not supported (1 or 2)",
    ),
}  # fmt: skip


@pytest.mark.parametrize("x_shape, w, attrs, message", list(CONV_TRANSPOSE_REFUSED.values()), ids=list(CONV_TRANSPOSE_REFUSED))
def test_unsupported_conv_transposes_are_refused(x_shape, w, attrs, message):
    assert refusal(conv_transpose_model(x_shape, w, None, attrs, 22)) == f"node n (ConvTranspose): {message}"


def test_onnxruntime_gives_the_unpadded_output_for_same_beyond_it(tmp_path):
    """Why it is refused: SAME_UPPER of 4 elements at stride 3 is 12 in the spec, 11 in onnxruntime."""
    x = np.ones((1, 1, 4), np.float32)
    onnx_model = conv_transpose_model(x.shape, W_1D, None, {"strides": [3], "auto_pad": "SAME_UPPER"}, 22)
    assert onnxruntime_outputs_of(tmp_path, onnx_model, x).shape == (1, 1, 11)


def test_conv_transpose_weights_computed_at_run_time_are_refused():
    node = h.make_node("ConvTranspose", ["x", "w"], ["y"], name="n")
    inputs = [h.make_tensor_value_info("x", T.FLOAT, (1, 1, 4)), h.make_tensor_value_info("w", T.FLOAT, (1, 1, 2))]
    graph = h.make_graph([node], "g", inputs, [h.make_tensor_value_info("y", T.FLOAT, None)])
    onnx_model = h.make_model(graph, opset_imports=[h.make_opsetid("", 22)], ir_version=10)
    assert refusal(onnx_model) == "node n (ConvTranspose): ConvTranspose weights must be a constant (it is computed at run time)"
