"""MatMulInteger, ConvInteger and DynamicQuantizeLinear against onnxruntime, on drawn shapes,
int8/uint8 data and zero points (known, omitted, or computed at run time by a
DynamicQuantizeLinear), reference and flat: integer results equal onnxruntime's exactly,
and so do DynamicQuantizeLinear's scale and zero point; refusals by their messages.

MatMulInteger of uint8 data and int8 weights is held to the exact integer product instead:
onnxruntime's u8s8 kernel on x86 processors without VNNI adds pairs of products in int16
with saturation (``vpmaddubsw``), so its result depends on the machine."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from onnx import TensorProto as T  # noqa: E402
from onnx import helper as h  # noqa: E402
from onnx import numpy_helper as nh  # noqa: E402
from test_onnx_ops_mapping import refusal, three_runs  # noqa: E402

DRAWS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
ELEMENT = {np.int8: T.INT8, np.uint8: T.UINT8}


def model(nodes, inputs: dict[str, np.ndarray], outputs: dict[str, int], inits: dict[str, np.ndarray], opset: int = 13):
    graph = h.make_graph(
        nodes, "g", [h.make_tensor_value_info(n, h.np_dtype_to_tensor_dtype(v.dtype), v.shape) for n, v in inputs.items()],
        [h.make_tensor_value_info(n, t, None) for n, t in outputs.items()], [nh.from_array(v, n) for n, v in inits.items()],
    )  # fmt: skip
    return onnx.shape_inference.infer_shapes(h.make_model(graph, opset_imports=[h.make_opsetid("", opset)], ir_version=8))


def ints(rng: np.random.Generator, dtype, shape) -> np.ndarray:
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max + 1, shape).astype(dtype)


def assert_exact(want: dict, *runs: dict) -> None:
    for outputs in runs:
        assert outputs.keys() == want.keys()
        for key, value in want.items():
            assert (outputs[key].dtype, outputs[key].shape) == (value.dtype, value.shape), key
            np.testing.assert_array_equal(outputs[key], value, err_msg=key)


@DRAWS
@given(data=st.data())
def test_matmul_integer_matches_onnxruntime(tmp_path: Path, data):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**16), label="seed"))
    a_type, b_type = (data.draw(st.sampled_from([np.int8, np.uint8]), label=n) for n in ("A type", "B type"))
    m, k, n = (data.draw(st.integers(1, 5), label=n) for n in "mkn")
    batch = data.draw(st.lists(st.integers(1, 3), max_size=2), label="batch")
    a, b = ints(rng, a_type, (*batch, m, k)), ints(rng, b_type, (k, n))
    zeros = data.draw(st.sampled_from(["omitted", "known", "run time"]), label="zero points")
    inputs, inits, names = {"a": a}, {"b": b}, ["a", "b"]
    if zeros != "omitted":
        a_zero, b_zero = ints(rng, a_type, ()), ints(rng, b_type, (1,))
        (inputs if zeros == "run time" else inits).update({"az": a_zero})
        inits["bz"] = b_zero
        names += ["az", "bz"]
    want, got, ran = three_runs(tmp_path, model([h.make_node("MatMulInteger", names, ["y"])], inputs, {"y": T.INT32}, inits), inputs)
    exact = {"y": exact_product(a, b, *((a_zero, b_zero) if zeros != "omitted" else ()))}
    assert_exact(exact, got, ran)
    if not (a_type == np.uint8 and b_type == np.int8):
        assert_exact(want, got)


def exact_product(a: np.ndarray, b: np.ndarray, a_zero=0, b_zero=0) -> np.ndarray:
    """MatMulInteger's definition: (a - a_zero) @ (b - b_zero) in exact integers, as int32."""
    product = (a.astype(np.int64) - np.int64(a_zero)) @ (b.astype(np.int64) - np.asarray(b_zero, np.int64))
    return product.astype(np.int32)


@DRAWS
@given(data=st.data())
def test_conv_integer_matches_onnxruntime(tmp_path: Path, data):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**16), label="seed"))
    x_type = data.draw(st.sampled_from([np.int8, np.uint8]), label="X type")
    groups = data.draw(st.integers(1, 2), label="groups")
    c_per, out_per = data.draw(st.integers(1, 2), label="C per group"), data.draw(st.integers(1, 2), label="M per group")
    kh, kw = data.draw(st.integers(1, 3), label="kh"), data.draw(st.integers(1, 3), label="kw")
    x = ints(rng, x_type, (1, groups * c_per, kh + data.draw(st.integers(0, 3)), kw + data.draw(st.integers(0, 3))))
    w = ints(rng, np.uint8 if x_type == np.uint8 else np.int8, (groups * out_per, c_per, kh, kw))
    attrs = {"group": groups, "strides": [data.draw(st.integers(1, 2), label="stride")] * 2,
             "pads": data.draw(st.lists(st.integers(0, 1), min_size=4, max_size=4), label="pads")}  # fmt: skip
    inits = {"w": w, "xz": ints(rng, x_type, ()), "wz": ints(rng, w.dtype.type, ())}
    node = h.make_node("ConvInteger", ["x", "w", "xz", "wz"], ["y"], **attrs)
    want, got, ran = three_runs(tmp_path, model([node], {"x": x}, {"y": T.INT32}, inits), {"x": x})
    assert_exact(want, got, ran)


@DRAWS
@given(data=st.data())
def test_dynamic_quantize_linear_matches_onnxruntime(tmp_path: Path, data):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**16), label="seed"))
    shape = tuple(data.draw(st.lists(st.integers(1, 4), min_size=1, max_size=3), label="shape"))
    kind = data.draw(st.sampled_from(["mixed", "positive", "negative", "zeros", "halves"]), label="values")
    x = {"mixed": rng.standard_normal(shape) * 3, "positive": rng.random(shape) + 0.5, "negative": -rng.random(shape) - 0.5,
         "zeros": np.zeros(shape), "halves": rng.integers(-20, 20, shape) / 2}[kind].astype(np.float32)  # fmt: skip
    node = h.make_node("DynamicQuantizeLinear", ["x"], ["y", "scale", "zero"])
    outputs = {"y": T.UINT8, "scale": T.FLOAT, "zero": T.UINT8}
    want, got, ran = three_runs(tmp_path, model([node], {"x": x}, outputs, {}, opset=11), {"x": x})
    assert_exact(want, got, ran)


@pytest.mark.parametrize("values", [[-1.0, 1.2, 0.3], [-2.0, 0.5, 0.25], [0.7, 0.1, 0.35], [-0.4, -0.1, -0.25]],
                         ids=["zero point rounds up", "zero point rounds down", "all positive", "all negative"])
def test_dynamic_quantize_linear_rounds_scale_zero_point_and_values_as_onnxruntime(tmp_path: Path, values):
    x = np.array(values, np.float32)
    node = h.make_node("DynamicQuantizeLinear", ["x"], ["y", "scale", "zero"])
    outputs = {"y": T.UINT8, "scale": T.FLOAT, "zero": T.UINT8}
    want, got, ran = three_runs(tmp_path, model([node], {"x": x}, outputs, {}, opset=11), {"x": x})
    assert_exact(want, got, ran)


def test_dynamic_quantization_feeds_matmul_integer_at_run_time(tmp_path: Path):
    """The dynamic-quantization pattern: run-time scale and zero point into MatMulInteger."""
    rng = np.random.default_rng(5)
    x, w = rng.standard_normal((3, 6)).astype(np.float32), ints(rng, np.int8, (6, 4))
    nodes = [
        h.make_node("DynamicQuantizeLinear", ["x"], ["xq", "xs", "xz"]),
        h.make_node("MatMulInteger", ["xq", "w", "xz"], ["acc"]),
        h.make_node("Cast", ["acc"], ["accf"], to=T.FLOAT),
        h.make_node("Mul", ["accf", "xs"], ["y"]),
    ]
    # uint8 data times int8 weights: onnxruntime's u8s8 kernel, which may saturate (see above), so
    # the product is checked against the exact one of onnxruntime's own quantized data
    outputs = {"y": T.FLOAT, "xq": T.UINT8, "xs": T.FLOAT, "xz": T.UINT8}
    want, got, ran = three_runs(tmp_path, model(nodes, {"x": x}, outputs, {"w": w}, opset=13), {"x": x})
    exact = exact_product(want["xq"], w, want["xz"]).astype(np.float32) * want["xs"]
    assert_exact({**want, "y": exact}, got, ran)


def test_per_row_zero_points_are_refused_by_name():
    a = np.zeros((2, 3), np.int8)
    node = h.make_node("MatMulInteger", ["a", "b", "az"], ["y"], name="mm")
    m = model([node], {"a": a}, {"y": T.INT32}, {"b": np.zeros((3, 4), np.int8), "az": np.zeros((2,), np.int8)})
    assert refusal(m) == "node mm (MatMulInteger): MatMulInteger with a zero point of shape [2] is not supported (one value)"


def test_float_data_is_refused_by_name():
    node = h.make_node("MatMulInteger", ["a", "b"], ["y"], name="mm")
    m = h.make_model(h.make_graph([node], "g", [h.make_tensor_value_info("a", T.FLOAT, [2, 3])],
                                  [h.make_tensor_value_info("y", T.INT32, None)], [nh.from_array(np.zeros((3, 4), np.int8), "b")]),
                     opset_imports=[h.make_opsetid("", 13)], ir_version=8)  # fmt: skip
    assert refusal(m) == "node mm (MatMulInteger): a must be an int8 or uint8 tensor, got float32"
