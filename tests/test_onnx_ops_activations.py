"""LeakyRelu, PRelu, Elu, Selu, Celu, HardSigmoid, HardSwish, Softplus, Softsign, Gelu, Mish,
Shrink and LRN, decomposed into nn ops, against onnxruntime on drawn shapes, values and attributes, at
every version cfmem accepts: the reference interpreter and the planned flat form."""

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

OLDEST_OPSET = 7
POSITIVE = st.floats(0.125, 4, width=32)
ATTRIBUTES = {
    "LeakyRelu": {"alpha": st.floats(0, 1, width=32)},
    "Elu": {"alpha": POSITIVE},
    "Selu": {"alpha": POSITIVE, "gamma": POSITIVE},
    "Celu": {"alpha": POSITIVE},
    "HardSigmoid": {"alpha": POSITIVE, "beta": st.floats(-1, 1, width=32)},
    "HardSwish": {},
    "Softplus": {},
    "Softsign": {},
    "Gelu": {"approximate": st.sampled_from(["none", "tanh"])},
    "Mish": {},
    "PRelu": {},
    "Shrink": {"lambd": st.floats(0, 2, width=32), "bias": st.floats(-1, 1, width=32)},
}
"""Each op's attributes and how they are drawn (an attribute may also be left out)."""


def check(tmp_path, op: str, x: np.ndarray, attrs: dict, opset: int, slope: np.ndarray | None = None) -> None:
    inits = [] if slope is None else [nh.from_array(slope, "slope")]
    node = h.make_node(op, ["x"] + (["slope"] if slope is not None else []), ["y"], **attrs)
    graph = h.make_graph([node], "g", [h.make_tensor_value_info("x", T.FLOAT, x.shape)],
                         [h.make_tensor_value_info("y", T.FLOAT, x.shape)], inits)  # fmt: skip
    ir_version = 8 if opset < 19 else 9 if opset < 21 else 10
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", opset)], ir_version=ir_version)
    want, got, ran = (outputs["y"] for outputs in three_runs(tmp_path, model, {"x": x}))
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=2e-6, atol=2e-6)
    np.testing.assert_array_equal(got, ran)  # the plan changes no number


@pytest.mark.parametrize("op", sorted(ATTRIBUTES))
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_matches_onnxruntime_on_drawn_shapes_values_and_attributes(tmp_path, op, data):
    shape = data.draw(st.lists(st.integers(1, 4), min_size=0, max_size=4).map(tuple), label="shape")
    x = data.draw(arrays(np.float32, shape, elements=st.floats(-12, 12, width=32) | st.just(0.0)), label="x")
    attrs = {k: data.draw(v, label=k) for k, v in ATTRIBUTES[op].items() if data.draw(st.booleans(), label=f"set {k}")}
    opset = max(OLDEST_OPSET, data.draw(st.sampled_from(OPERATOR_VERSIONS[op]), label="version"))
    slope = None
    if op == "PRelu":  # broadcast to x from the right, any dimension may be 1
        tail = data.draw(st.integers(0, len(shape)), label="slope rank")
        slope_shape = tuple(d if data.draw(st.booleans()) else 1 for d in shape[len(shape) - tail :])
        slope = data.draw(arrays(np.float32, slope_shape, elements=st.floats(-2, 2, width=32)), label="slope")
    check(tmp_path, op, x, attrs, opset, slope)


def test_large_inputs_stay_finite_where_the_formula_does(tmp_path):
    x = np.array([-100.0, -30.0, 0.0, 30.0, 100.0], np.float32)
    for op in ("Softplus", "Mish", "Elu", "Selu", "Celu"):
        check(tmp_path, op, x, {}, 22 if op != "Celu" else 12)


def test_an_unknown_gelu_approximation_is_refused(tmp_path):
    node = h.make_node("Gelu", ["x"], ["y"], approximate="fast", name="g")
    graph = h.make_graph([node], "g", [h.make_tensor_value_info("x", T.FLOAT, [2])], [h.make_tensor_value_info("y", T.FLOAT, [2])])
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", 20)], ir_version=9)
    with pytest.raises(OnnxImportError) as err:
        onnx_importer(model, "w.bin").import_graph({}, {})
    assert str(err.value) == "node g (Gelu): Gelu approximate 'fast' is not one of none, tanh"


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_lrn_matches_onnxruntime_on_drawn_shapes_and_attributes(tmp_path, data):
    """onnxruntime takes odd sizes only; a size above the channel count sums them all."""
    shape = data.draw(st.tuples(st.integers(1, 2), st.integers(1, 9), st.integers(1, 3), st.integers(1, 3)), label="shape")
    x = data.draw(arrays(np.float32, shape, elements=st.floats(-6, 6, width=32)), label="x")
    attrs = {"size": data.draw(st.sampled_from([1, 3, 5, 11]), label="size")}
    for name, values in (("alpha", st.floats(2**-13, 1, width=32)), ("beta", st.floats(0.5, 1, width=32)), ("bias", POSITIVE)):
        if data.draw(st.booleans(), label=f"set {name}"):
            attrs[name] = data.draw(values, label=name)
    check(tmp_path, "LRN", x, attrs, max(OLDEST_OPSET, data.draw(st.sampled_from(OPERATOR_VERSIONS["LRN"]), label="version")))


@pytest.mark.parametrize("size", [2, 4])
def test_lrn_of_an_even_size_sums_one_more_channel_after_than_before(tmp_path, size):
    """The ONNX formula (onnxruntime refuses even sizes): channels c - floor((size - 1) / 2) to
    c + ceil((size - 1) / 2)."""
    from test_onnx_ops_mapping import cfmem_runs

    x = np.random.default_rng(size).standard_normal((1, 6, 2, 3)).astype(np.float32)
    node = h.make_node("LRN", ["x"], ["y"], size=size, alpha=0.5, beta=0.75, bias=1.0)
    graph = h.make_graph([node], "g", [h.make_tensor_value_info("x", T.FLOAT, x.shape)], [h.make_tensor_value_info("y", T.FLOAT, x.shape)])
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", 13)], ir_version=8)
    _, got, flat = cfmem_runs(tmp_path, model, {"x": x})
    before, after = (size - 1) // 2, size // 2
    sums = np.stack([(x[:, max(0, c - before) : c + after + 1] ** 2).sum(axis=1) for c in range(6)], axis=1)
    want = x / (1.0 + 0.5 / size * sums) ** 0.75
    np.testing.assert_allclose(got["y"], want, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(flat["y"], got["y"])
