"""float16 models: graph inputs, initializers, constants and outputs in float16, imported
as f16 tensors (2 bytes an element in the weight blob, the plan and the DMA), each op
computed in float32 and rounded to float16 once. On drawn shapes and values against
onnxruntime, the reference interpreter on the import and the planned flat form giving the
same bits; Cast to and from float16 bit for bit; a torch model exported in half precision
end to end; nn-lower-to-linalg on float16 through the upstream JIT; ops outside the float16
set refused by exact messages."""

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
from test_onnx_ops_linear import CAST_TYPES, cast_source  # noqa: E402
from test_lower_to_linalg import ATOL, RTOL, check_lowered, needs_mlir, to_linalg  # noqa: E402
from test_onnx_ops_mapping import refusal, three_runs  # noqa: E402

from cfmem.dialects import nn_dma  # noqa: E402
from cfmem.dialects.types import tensor_bytes  # noqa: E402
from cfmem.importers.onnx import onnx_importer  # noqa: E402
from cfmem.importers.onnx.registry import FLOAT16_OPS, FLOAT16_VIA_FLOAT32  # noqa: E402
from cfmem.passes.liveness import analyze_function  # noqa: E402
from cfmem.passes.plan_memory import BOUND_ATTR  # noqa: E402
from cfmem.passes.stored_plan import declared_aliases  # noqa: E402
from cfmem.planning.regions import cf_lower_bound  # noqa: E402
from cfmem.differential import run_mlir  # noqa: E402
from cfmem.interp.flat import run_flat  # noqa: E402
from cfmem.mlir_check.prepare import prepare_for_jit  # noqa: E402
from cfmem.pipeline import apply_pipeline, lower_model  # noqa: E402
from cfmem.testing.onnx_models import export_torch, torch_available  # noqa: E402

DRAWS = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
VALUES = st.floats(-4, 4, width=16)
F32_UNIT = 2.0**-24
"""float32's unit roundoff."""


def halves(data, shape, elements=VALUES, label: str = "x") -> np.ndarray:
    return data.draw(arrays(np.float16, tuple(shape), elements=elements), label=label)


def f16_model(nodes, inputs: dict[str, tuple], outputs: dict[str, tuple], inits: dict[str, np.ndarray] = {},
              opset: int = 17, output_type: int = T.FLOAT16) -> onnx.ModelProto:  # fmt: skip
    """``nodes`` reading float16 ``inputs`` (name: shape) and ``inits``, giving ``outputs``."""
    graph = h.make_graph(
        nodes,
        "g",
        [h.make_tensor_value_info(n, T.FLOAT16, s) for n, s in inputs.items()],
        [h.make_tensor_value_info(n, output_type, s) for n, s in outputs.items()],
        [nh.from_array(v, n) for n, v in inits.items()],
    )
    return h.make_model(graph, opset_imports=[h.make_opsetid("", opset)], ir_version=8)


def ulp16(values: np.ndarray) -> np.ndarray:
    """The float16 spacing at each magnitude (2**-24 below the normal range)."""
    with np.errstate(invalid="ignore"):  # (inf has no spacing: NaN, never compared)
        return np.spacing(np.abs(values).astype(np.float16)).astype(np.float64)


def check(tmp_path: Path, model: onnx.ModelProto, feeds: dict[str, np.ndarray], work: float = 0.0) -> dict:
    """Reference and flat outputs identical, of onnxruntime's shapes and dtypes, and within
    onnxruntime's by what two float32 computations rounded once to float16 may differ.

    Both sides (onnxruntime's CPU kernels upcast float16 to float32 too) compute each output
    element in float32 from the same float16 inputs, in their own order: the two float32
    results differ by at most each side's rounding, ``length * 2**-24`` times the sum of the
    magnitudes of the terms for a sum of ``length`` terms. ``work`` bounds ``length`` times
    that sum (0 for ops that only move, compare or round once, whose float32 result is exact
    or correctly rounded); 8 * 2**-24 * work allows both sides and the few float32 ulps of
    onnxruntime's approximated exp, tanh and logistic. Rounding to float16 is monotone, so the
    float16 results differ by at most that plus one float16 ulp where the float32 results
    straddle a rounding boundary. Non-finite results must match exactly."""
    want, got, ran = three_runs(tmp_path, model, feeds)
    for outputs in (got, ran):
        assert {k: (v.shape, v.dtype) for k, v in outputs.items()} == {k: (v.shape, v.dtype) for k, v in want.items()}
    for name, ref in want.items():
        np.testing.assert_array_equal(got[name], ran[name], err_msg=name)  # the plan changes no number
        a, b = got[name].astype(np.float64), ref.astype(np.float64)
        finite = np.isfinite(a) & np.isfinite(b)
        np.testing.assert_array_equal(np.where(finite, 0, a), np.where(finite, 0, b), err_msg=name)
        allowed = np.where(a == b, 0, ulp16(np.maximum(np.abs(a), np.abs(b)))) + 8 * F32_UNIT * work
        with np.errstate(invalid="ignore"):  # (inf - inf where both are infinite: not compared)
            excess = np.where(finite, np.abs(a - b) - allowed, 0)
        assert excess.max(initial=0) <= 0, f"{name}: {np.abs(a - b)[finite].max()} beyond {allowed.max()}"
    return got


def largest(*arrays_: np.ndarray) -> float:
    return max(float(np.abs(a.astype(np.float64)).max(initial=0)) for a in arrays_)


# --- elementwise --------------------------------------------------------------------------------


@given(data=st.data())
@DRAWS
@pytest.mark.parametrize("op", ["Add", "Sub", "Mul", "Div", "Max", "Min"])
def test_binary_ops_are_correctly_rounded_like_onnxruntime(tmp_path, op, data):
    """float32 holds a sum, difference, product or quotient of two float16 values closely
    enough that rounding it to float16 gives the correctly rounded result (Max and Min are
    exact): bit for bit."""
    shape = data.draw(st.lists(st.integers(1, 4), min_size=1, max_size=4), label="shape")
    other = shape[data.draw(st.integers(0, len(shape) - 1), label="broadcast from") :]
    x, b = halves(data, shape), halves(data, other, label="b")
    known = data.draw(st.booleans(), label="b known")
    node = h.make_node(op, ["x", "b"], ["y"])
    model = f16_model([node], {"x": shape, **({} if known else {"b": other})}, {"y": shape}, {"b": b} if known else {})
    want, got, ran = three_runs(tmp_path, model, {"x": x, **({} if known else {"b": b})})
    for outputs in (got, ran):
        assert outputs["y"].dtype == np.float16
        np.testing.assert_array_equal(outputs["y"], want["y"])


@given(data=st.data())
@DRAWS
@pytest.mark.parametrize("op", ["Relu", "Sigmoid", "Tanh", "Sqrt", "Exp", "Log", "Neg", "Abs", "Floor", "Ceil", "Reciprocal", "Clip"])
def test_unary_ops_match_onnxruntime(tmp_path, op, data):
    """Within one float16 ulp (Sqrt, Log of negative values NaN as onnxruntime's; Exp may
    overflow float16 to inf on both sides)."""
    shape = data.draw(st.lists(st.integers(1, 5), min_size=1, max_size=4), label="shape")
    x = halves(data, shape, st.floats(-12, 12, width=16))
    inits = {}
    if op == "Clip":
        lo = data.draw(st.floats(-4, 0, width=16), label="min")
        inits = {"lo": np.array(lo, np.float16), "hi": np.array(lo + data.draw(st.floats(0, 4, width=16)), np.float16)}
    node = h.make_node(op, ["x", *inits], ["y"])
    check(tmp_path, f16_model([node], {"x": shape}, {"y": shape}, inits), {"x": x}, work=1.0)


@given(data=st.data())
@DRAWS
@pytest.mark.parametrize("op", ["Equal", "Greater", "Less", "GreaterOrEqual", "LessOrEqual"])
def test_comparisons_of_float16_match_onnxruntime(tmp_path, op, data):
    shape = data.draw(st.lists(st.integers(1, 4), min_size=1, max_size=3), label="shape")
    x, b = halves(data, shape, st.sampled_from([-1.0, 0.0, 0.5, 2.0])), halves(data, shape[-1:], st.sampled_from([0.0, 0.5]), "b")
    model = f16_model([h.make_node(op, ["x", "b"], ["y"])], {"x": shape}, {"y": shape}, {"b": b}, output_type=T.BOOL)
    got = check(tmp_path, model, {"x": x})
    assert got["y"].dtype == np.bool_


# --- convolution and products ----------------------------------------------------------------------


@given(data=st.data())
@DRAWS
def test_conv_matches_onnxruntime(tmp_path, data):
    groups = data.draw(st.integers(1, 2), label="groups")
    n, c, o = data.draw(st.integers(1, 2), label="N"), groups * data.draw(st.integers(1, 3)), groups * data.draw(st.integers(1, 3))
    kh, kw = data.draw(st.integers(1, 3), label="kh"), data.draw(st.integers(1, 3), label="kw")
    hw = (data.draw(st.integers(kh, 7), label="H"), data.draw(st.integers(kw, 7), label="W"))
    pads = data.draw(st.lists(st.integers(0, 1), min_size=4, max_size=4), label="pads")
    strides = data.draw(st.lists(st.integers(1, 2), min_size=2, max_size=2), label="strides")
    x, w = halves(data, (n, c, *hw)), halves(data, (o, c // groups, kh, kw), label="w")
    inits = {"w": w}
    if data.draw(st.booleans(), label="bias"):
        inits["b"] = halves(data, (o,), label="b")
    node = h.make_node("Conv", ["x", *inits], ["y"], pads=pads, strides=strides, group=groups)
    out = [(hw[k] + pads[k] + pads[k + 2] - (kh, kw)[k]) // strides[k] + 1 for k in range(2)]
    length = c // groups * kh * kw
    work = length * (length * largest(x) * largest(w) + largest(*inits.values()))
    check(tmp_path, f16_model([node], {"x": x.shape}, {"y": (n, o, *out)}, inits), {"x": x}, work)


@given(data=st.data())
@DRAWS
def test_gemm_matches_onnxruntime(tmp_path, data):
    m, k, n = (data.draw(st.integers(1, 6), label=s) for s in "mkn")
    trans_b = data.draw(st.booleans(), label="transB")
    a, b = halves(data, (m, k), label="a"), halves(data, (n, k) if trans_b else (k, n), label="b")
    c = halves(data, data.draw(st.sampled_from([(n,), (1, n), (m, n)]), label="C shape"), label="c")
    node = h.make_node("Gemm", ["a", "b", "c"], ["y"], transB=int(trans_b))
    work = (k + 1) * ((k + 1) * largest(a) * largest(b) + largest(c))
    check(tmp_path, f16_model([node], {"a": (m, k)}, {"y": (m, n)}, {"b": b, "c": c}), {"a": a}, work)


@given(data=st.data())
@DRAWS
def test_matmul_matches_onnxruntime(tmp_path, data):
    batch = data.draw(st.lists(st.integers(1, 3), max_size=2), label="batch")
    m, k, n = (data.draw(st.integers(1, 6), label=s) for s in "mkn")
    a, b = halves(data, (*batch, m, k), label="a"), halves(data, (k, n), label="b")
    known = data.draw(st.booleans(), label="b known")
    model = f16_model([h.make_node("MatMul", ["a", "b"], ["y"])], {"a": a.shape, **({} if known else {"b": b.shape})},
                      {"y": (*batch, m, n)}, {"b": b} if known else {})  # fmt: skip
    check(tmp_path, model, {"a": a, **({} if known else {"b": b})}, k * k * largest(a) * largest(b))


# --- pooling, reductions, softmax -----------------------------------------------------------------


@given(data=st.data())
@DRAWS
@pytest.mark.parametrize("op", ["MaxPool", "AveragePool"])
def test_pools_match_onnxruntime(tmp_path, op, data):
    kernel = data.draw(st.lists(st.integers(1, 3), min_size=2, max_size=2), label="kernel")
    shape = (data.draw(st.integers(1, 2)), data.draw(st.integers(1, 3)), *(data.draw(st.integers(k, 6)) for k in kernel))
    pads = data.draw(st.lists(st.integers(0, 1), min_size=4, max_size=4), label="pads")
    pads = [min(p, kernel[i % 2] - 1) for i, p in enumerate(pads)]
    attrs = {"kernel_shape": kernel, "pads": pads, "strides": data.draw(st.lists(st.integers(1, 2), min_size=2, max_size=2))}
    if op == "AveragePool":
        attrs["count_include_pad"] = int(data.draw(st.booleans(), label="count_include_pad"))
    x = halves(data, shape)
    out = [(shape[2 + k] + pads[k] + pads[k + 2] - kernel[k]) // attrs["strides"][k] + 1 for k in range(2)]
    model = f16_model([h.make_node(op, ["x"], ["y"], **attrs)], {"x": shape}, {"y": (*shape[:2], *out)})
    check(tmp_path, model, {"x": x}, 9 * 9 * largest(x))


@given(data=st.data())
@DRAWS
@pytest.mark.parametrize("op", ["GlobalAveragePool", "GlobalMaxPool"])
def test_global_pools_match_onnxruntime(tmp_path, op, data):
    shape = (data.draw(st.integers(1, 2)), data.draw(st.integers(1, 4)), data.draw(st.integers(1, 6)), data.draw(st.integers(1, 6)))
    x = halves(data, shape)
    model = f16_model([h.make_node(op, ["x"], ["y"])], {"x": shape}, {"y": (*shape[:2], 1, 1)})
    check(tmp_path, model, {"x": x}, (shape[2] * shape[3]) ** 2 * largest(x))


@given(data=st.data())
@DRAWS
@pytest.mark.parametrize("op", ["ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin"])
def test_reductions_match_onnxruntime(tmp_path, op, data):
    shape = data.draw(st.lists(st.integers(1, 5), min_size=1, max_size=4), label="shape")
    axes = sorted(data.draw(st.sets(st.integers(0, len(shape) - 1), min_size=1), label="axes"))
    keepdims = data.draw(st.booleans(), label="keepdims")
    x = halves(data, shape)
    out = [1 if k in axes else d for k, d in enumerate(shape) if keepdims or k not in axes]
    model = f16_model([h.make_node(op, ["x", "axes"], ["y"], keepdims=int(keepdims))], {"x": shape}, {"y": out},
                      {"axes": np.array(axes, np.int64)}, opset=18)  # fmt: skip
    count = int(np.prod([shape[a] for a in axes]))
    check(tmp_path, model, {"x": x}, count * count * largest(x))


@given(data=st.data())
@DRAWS
def test_softmax_matches_onnxruntime(tmp_path, data):
    """The sum of ``exp(x - max)`` has terms of at most 1."""
    shape = data.draw(st.lists(st.integers(1, 5), min_size=1, max_size=4), label="shape")
    axis = data.draw(st.integers(-len(shape), len(shape) - 1), label="axis")
    x = halves(data, shape, st.floats(-8, 8, width=16))
    model = f16_model([h.make_node("Softmax", ["x"], ["y"], axis=axis)], {"x": shape}, {"y": shape}, opset=13)
    check(tmp_path, model, {"x": x}, shape[axis] ** 2)


VIA_FLOAT32 = {
    "LogSoftmax": ({"axis": -1}, {}, 5 * 5 + 8),
    "LeakyRelu": ({"alpha": 0.1}, {}, 16),
    "PRelu": ({}, {"slope": (1, 1)}, 16),
    "Elu": ({"alpha": 0.5}, {}, 16),
    "HardSigmoid": ({}, {}, 16),
    "HardSwish": ({}, {}, 16),
    "Softplus": ({}, {}, 16),
    "BatchNormalization": ({}, {"scale": (3,), "B": (3,), "mean": (3,), "var": (3,)}, 64),
    "LayerNormalization": ({"axis": -1}, {"scale": (5,), "B": (5,)}, 5 * 80 * 2 / np.sqrt(1e-5)),
    "ReduceL2": ({"keepdims": 1}, {}, 120 * 120 * 16),
    "ReduceLogSumExp": ({"keepdims": 1}, {}, 120 * 120 + 4),
    "Gemm": ({"alpha": 0.5, "beta": 2.0, "transB": 1}, {"B": (4, 5), "C": (4,)}, 6 * 24),
}
"""Ops computed on float32 copies and rounded to float16 once: attributes, known inputs (their
shapes, values drawn from [0.25, 2]) and the bound on the float32 work (see ``check``) for
(2, 3, 4, 5) inputs from [-4, 4] ((2, 5) for Gemm): a few elementwise operations on values
up to 16; LogSoftmax's sum of 5 exponentials at most 1 and ``x - max`` up to 8;
BatchNormalization's ``x * a + b`` with ``a`` up to 4; LayerNormalization's sums of 5
squares up to 16 over a standard deviation that may be as small as ``sqrt(epsilon)``;
ReduceL2's 120 squares and ReduceLogSumExp's 120 exponentials; the Gemm's 5 products of
``0.5 * x * B`` and ``2 * C``."""


@given(data=st.data())
@DRAWS
@pytest.mark.parametrize("op", list(VIA_FLOAT32))
def test_ops_of_several_nn_ops_round_to_float16_once_like_onnxruntime(tmp_path, op, data):
    attrs, known, work = VIA_FLOAT32[op]
    shape = (2, 5) if op == "Gemm" else (2, 3, 4, 5)
    x = halves(data, shape)
    inits = {name: halves(data, s, st.floats(0.25, 2, width=16), label=name) for name, s in known.items()}
    out = {"ReduceL2": (1, 1, 1, 1), "ReduceLogSumExp": (1, 1, 1, 1), "Gemm": (2, 4)}.get(op, shape)
    node = h.make_node(op, ["x", *inits], ["y"], **attrs)
    model = f16_model([node], {"x": shape}, {"y": out}, inits, opset=18 if op.startswith("Reduce") else 17)
    imported = onnx_importer(model, "w.bin").import_graph({}, {})
    casts = [o for o in imported.module.walk() if o.name == "nn.cast"]
    assert casts and casts[-1].results[0].type.get_element_type().bitwidth == 16  # one rounding, at the end
    got = check(tmp_path, model, {"x": x}, work)
    assert got["y"].dtype == np.float16


# --- data movement ---------------------------------------------------------------------------------


@given(data=st.data())
@DRAWS
def test_concat_and_shape_ops_move_float16_bits(tmp_path, data):
    """Concat of a run-time and a known part, Transpose, Reshape, Flatten, Unsqueeze,
    Squeeze, Pad (with a float16 value), Slice, Split and Gather (known and run-time indices)
    give onnxruntime's bits."""
    shape = tuple(data.draw(st.lists(st.integers(1, 4), min_size=2, max_size=3), label="shape"))
    x, part = halves(data, shape), halves(data, shape, label="part")
    perm = data.draw(st.permutations(range(len(shape))), label="perm")
    size = int(np.prod(shape))
    nodes = [
        h.make_node("Concat", ["x", "part"], ["c"], axis=0),
        h.make_node("Transpose", ["c"], ["t"], perm=perm),
        h.make_node("Reshape", ["t", "flat_shape"], ["r"]),
        h.make_node("Unsqueeze", ["r", "axes"], ["u"]),
        h.make_node("Squeeze", ["u", "axes"], ["s"]),
        h.make_node("Flatten", ["s"], ["f"], axis=0),
        h.make_node("Pad", ["f", "pads", "fill"], ["p"]),
        h.make_node("Slice", ["p", "starts", "ends", "axes1", "steps"], ["sl"]),
        h.make_node("Split", ["sl", "halves"], ["a", "b"], axis=1),
        h.make_node("Gather", ["b", "known"], ["g"], axis=1),
        h.make_node("Gather", ["x", "picked"], ["y"], axis=0),
    ]
    inits = {"part": part, "flat_shape": np.array([2 * size], np.int64), "axes": np.array([0], np.int64),
             "pads": np.array([1, 2, 0, 3], np.int64), "fill": np.array(-1.5, np.float16),
             "starts": np.array([2 * size + 4], np.int64), "ends": np.array([0], np.int64),
             "axes1": np.array([1], np.int64), "steps": np.array([-2], np.int64),
             "halves": np.array([1, size + 1], np.int64), "known": np.array([[0, -1], [1, 0]], np.int64)}  # fmt: skip
    picked = data.draw(arrays(np.int64, (3,), elements=st.integers(-shape[0], shape[0] - 1)), label="picked")
    outputs = {"a": (2, 1), "g": (2, 2, 2), "y": (3, *shape[1:])}
    model = f16_model(nodes, {"x": shape}, outputs, inits)
    model.graph.input.append(h.make_tensor_value_info("picked", T.INT64, (3,)))
    want, got, ran = three_runs(tmp_path, model, {"x": x, "picked": picked})
    for outputs in (got, ran):
        for name, value in want.items():
            assert outputs[name].dtype == np.float16
            np.testing.assert_array_equal(outputs[name], value, err_msg=name)


def test_float16_constant_nodes_become_f16_constants_and_weights(tmp_path):
    """A Constant scalar stays an ``nn.constant`` of f16, a Constant vector an f16 weight; both
    keep their float16 bits (onnxruntime's results bit for bit: one correctly rounded op each;
    a chain of the two could differ, as onnxruntime keeps the float32 result of one upcast
    node for the next)."""
    third, row = np.array(1 / 3, np.float16), np.array([0.1, -2.5, 7.0, 1e-3], np.float16)
    nodes = [
        h.make_node("Constant", [], ["k"], value=nh.from_array(third, "k")),
        h.make_node("Constant", [], ["r"], value=nh.from_array(row, "r")),
        h.make_node("Mul", ["x", "k"], ["y"]),
        h.make_node("Add", ["x", "r"], ["z"]),
    ]
    model = f16_model(nodes, {"x": (3, 4)}, {"y": (3, 4), "z": (3, 4)})
    imported = onnx_importer(model, "w.bin").import_graph({}, {})
    constants = [o for o in imported.module.walk() if o.name == "nn.constant"]
    assert [str(o.results[0].type) for o in constants] == ["tensor<f16>"]
    assert row.tobytes() in imported.blob and len(imported.blob) == 64  # one aligned 8-byte weight
    x = np.random.default_rng(3).standard_normal((3, 4)).astype(np.float16)
    want, got, ran = three_runs(tmp_path, model, {"x": x})
    for outputs in (got, ran):
        for name in "yz":
            np.testing.assert_array_equal(outputs[name], want[name])


# --- Cast ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("other", list(CAST_TYPES), ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("to_f16", [True, False], ids=["to_float16", "from_float16"])
def test_cast_to_and_from_float16_matches_onnxruntime_bit_for_bit(tmp_path, other, to_f16):
    """float32 values round to nearest even (beyond float16's range to infinity, below to
    subnormals); float16 values truncate toward zero into integers."""
    rng = np.random.default_rng(16)
    if not to_f16:  # fractions of both signs, zeros and halves, all float16 values
        x = cast_source(np.float32, rng).reshape(-1).astype(np.float16)
    elif other == np.float32:
        x = np.concatenate([cast_source(other, rng).reshape(-1),
                            np.array([70000.0, -65520.0, 65519.0, 1e-7, -3e-8, 2.0**-25, 1 + 2.0**-11, np.inf, -np.inf], np.float32),
                            (rng.standard_normal(64) * 10.0 ** rng.integers(-6, 5, 64)).astype(np.float32)])  # fmt: skip
    else:
        x = cast_source(other, rng).reshape(-1)
    source, target = (other, np.float16) if to_f16 else (np.float16, other)
    x = x.astype(source)
    graph = h.make_graph([h.make_node("Cast", ["x"], ["y"], to=h.np_dtype_to_tensor_dtype(np.dtype(target)))], "g",
                         [h.make_tensor_value_info("x", h.np_dtype_to_tensor_dtype(np.dtype(source)), x.shape)],
                         [h.make_tensor_value_info("y", h.np_dtype_to_tensor_dtype(np.dtype(target)), x.shape)])  # fmt: skip
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", 19)], ir_version=9)
    want, got, ran = three_runs(tmp_path, model, {"x": x})
    for outputs in (got, ran):
        assert outputs["y"].dtype == want["y"].dtype
        np.testing.assert_array_equal(outputs["y"], want["y"])


# --- a small network, its plan, and refusals -----------------------------------------------------------


def small_net(dtype) -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:
    """Conv, Relu, MaxPool, Reshape, Gemm, Sigmoid, Softmax in ``dtype``, every tensor a
    multiple of 32 elements (64 bytes in float16: no alignment padding)."""
    rng = np.random.default_rng(5)
    elem = h.np_dtype_to_tensor_dtype(np.dtype(dtype))
    inits = {
        "w": (rng.standard_normal((32, 4, 3, 3)) * 0.3).astype(dtype),
        "b": rng.standard_normal(32).astype(dtype),
        "fc": (rng.standard_normal((32, 512)) * 0.05).astype(dtype),
        "fc_b": rng.standard_normal(32).astype(dtype),
        "shape": np.array([1, 512], np.int64),
    }
    nodes = [
        h.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1]),
        h.make_node("Relu", ["c"], ["r"]),
        h.make_node("MaxPool", ["r"], ["p"], kernel_shape=[2, 2], strides=[2, 2]),
        h.make_node("Reshape", ["p", "shape"], ["f"]),
        h.make_node("Gemm", ["f", "fc", "fc_b"], ["g"], transB=1),
        h.make_node("Sigmoid", ["g"], ["s"]),
        h.make_node("Softmax", ["s"], ["y"], axis=1),
    ]
    graph = h.make_graph(nodes, "net", [h.make_tensor_value_info("x", elem, (1, 4, 8, 8))],
                         [h.make_tensor_value_info("y", elem, (1, 32))], [nh.from_array(v, n) for n, v in inits.items()])  # fmt: skip
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", 17)], ir_version=8)
    return model, {"x": rng.standard_normal((1, 4, 8, 8)).astype(dtype)}


def test_a_small_float16_network_matches_onnxruntime(tmp_path):
    """Seven ops, each rounded to float16: the softmax's outputs near 1/32 within a few ulps."""
    model, feeds = small_net(np.float16)
    want, got, ran = three_runs(tmp_path, model, feeds)
    np.testing.assert_array_equal(got["y"], ran["y"])
    assert got["y"].dtype == np.float16
    np.testing.assert_allclose(got["y"].astype(np.float32), want["y"].astype(np.float32), rtol=4 * 2.0**-10, atol=0)


def planned(model: onnx.ModelProto, tmp_path: Path):
    imported = onnx_importer(model, "w.bin").import_graph({}, {})
    (tmp_path / "w.bin").write_bytes(imported.blob)
    module = imported.module.clone()
    apply_pipeline(module, "nn-insert-dma,nn-plan-memory", None, tmp_path)
    fn = next(op for op in module.walk() if op.name == "func.func")
    dma = sum(tensor_bytes(op.results[0].type) for op in module.walk() if isinstance(op, nn_dma.DmaBufferOp))
    info = analyze_function(fn, aliases=declared_aliases(fn))
    scratch = {t.id for t in info.scratch_of.values()}
    for region in info.tree.walk():
        region.tensors = [t for t in region.tensors if t.id not in scratch]
    return imported, cf_lower_bound(info.tree), dma, fn.attributes[BOUND_ATTR].value.data


def test_a_float16_model_counts_2_bytes_per_element_in_blob_plan_and_dma(tmp_path):
    """The same network in float32 and float16: the float16 weight blob, DMA buffers and the
    lower bound of the plan's tensors are half as large; the blob holds the initializers' own
    bits. The float16 plan also holds the f32 copies its kernels widen into (scratch)."""
    half, full = (planned(small_net(t)[0], tmp_path) for t in (np.float16, np.float32))
    assert 2 * len(half[0].blob) == len(full[0].blob)
    assert 2 * half[1] == full[1] > 0
    assert 2 * half[2] == full[2] > 0
    assert full[3] == full[1] and half[3] > half[1]  # only the float16 kernels need scratch
    w = small_net(np.float16)[0].graph.initializer[0]
    assert nh.to_array(w).tobytes() in half[0].blob


def test_ops_outside_the_float16_set_are_refused_by_name():
    model = f16_model([h.make_node("Erf", ["x"], ["y"], name="n")], {"x": (2, 3)}, {"y": (2, 3)})
    assert refusal(model) == (
        "node n (Erf): Erf of float16 tensors is not supported"
        f" (float16 models may use {', '.join(FLOAT16_OPS + FLOAT16_VIA_FLOAT32)})"
    )


def test_a_float16_initializer_read_by_an_op_outside_the_set_is_refused_by_name():
    model = f16_model([h.make_node("GatherElements", ["table", "i"], ["y"], name="g")], {}, {"y": (2, 3)},
                      {"table": np.ones((4, 3), np.float16)})  # fmt: skip
    model.graph.input.append(h.make_tensor_value_info("i", T.INT64, (2, 3)))
    assert refusal(model).startswith(
        "node g (GatherElements): GatherElements of float16 tensors is not supported (float16 models may use Add, "
    )


def lowering_models() -> dict[str, tuple[onnx.ModelProto, dict[str, np.ndarray]]]:
    """float16 models covering every op the import takes on float16, and Cast both ways."""
    rng = np.random.default_rng(21)

    def r(*shape, scale=1.0):
        return (rng.standard_normal(shape) * scale).astype(np.float16)

    x = r(2, 4, 6, 6)
    one = {"x": x.shape}
    models = {"net": small_net(np.float16)}
    nodes = {
        "conv": ([h.make_node("Conv", ["x", "w", "b"], ["y"], pads=[1, 0, 1, 2], strides=[2, 1], group=2)],
                 {"y": (2, 6, 3, 6)}, {"w": r(6, 2, 3, 3, scale=0.3), "b": r(6)}),
        "pools": ([h.make_node("MaxPool", ["x"], ["m"], kernel_shape=[3, 2], pads=[1, 1, 1, 0]),
                   h.make_node("AveragePool", ["x"], ["a"], kernel_shape=[2, 3], pads=[0, 1, 1, 1], count_include_pad=1),
                   h.make_node("AveragePool", ["x"], ["e"], kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[2, 2]),
                   h.make_node("GlobalAveragePool", ["x"], ["g"]), h.make_node("GlobalMaxPool", ["x"], ["q"])],
                  {"m": (2, 4, 6, 6), "a": (2, 4, 7, 6), "e": (2, 4, 3, 3), "g": (2, 4, 1, 1), "q": (2, 4, 1, 1)}, {}),
        "elementwise": ([h.make_node("Add", ["x", "c"], ["s"]), h.make_node("Sub", ["x", "c"], ["d"]),
                         h.make_node("Mul", ["x", "c"], ["p"]), h.make_node("Div", ["x", "c"], ["q"]),
                         h.make_node("Relu", ["x"], ["r"]), h.make_node("Sigmoid", ["x"], ["g"]),
                         h.make_node("Tanh", ["x"], ["t"]), h.make_node("Clip", ["x", "lo", "hi"], ["k"])],
                        {n: x.shape for n in "sdpqrgtk"},
                        {"c": r(4, 1, 6), "lo": np.array(-0.5, np.float16), "hi": np.array(0.75, np.float16)}),
        "reductions": ([h.make_node(op, ["x", "axes"], [op], keepdims=k) for op, k in
                        (("ReduceMean", 1), ("ReduceSum", 0), ("ReduceMax", 1), ("ReduceMin", 0))]
                       + [h.make_node("Softmax", ["x"], ["sm"], axis=1)],
                       {"ReduceMean": (2, 1, 6, 1), "ReduceSum": (2, 6), "ReduceMax": (2, 1, 6, 1), "ReduceMin": (2, 6),
                        "sm": x.shape}, {"axes": np.array([1, 3], np.int64)}),
        "moves": ([h.make_node("Concat", ["x", "x2"], ["c"], axis=1), h.make_node("Transpose", ["c"], ["t"], perm=[3, 1, 0, 2]),
                   h.make_node("Flatten", ["t"], ["f"], axis=2), h.make_node("Unsqueeze", ["f", "zero"], ["u"]),
                   h.make_node("Squeeze", ["u", "zero"], ["y"])],
                  {"y": (48, 12)}, {"x2": r(2, 4, 6, 6), "zero": np.array([0], np.int64)}),
        "composed": ([h.make_node("LayerNormalization", ["x", "ls", "lb"], ["ln"], axis=-1),
                      h.make_node("LogSoftmax", ["x"], ["lsm"], axis=1), h.make_node("HardSwish", ["x"], ["hs"]),
                      h.make_node("BatchNormalization", ["x", "s4", "b4", "m4", "v4"], ["bn"]),
                      h.make_node("LeakyRelu", ["x"], ["lr"]), h.make_node("PRelu", ["x", "s4p"], ["pr"]),
                      h.make_node("Elu", ["x"], ["el"]), h.make_node("HardSigmoid", ["x"], ["hg"]),
                      h.make_node("Softplus", ["x"], ["sp"]), h.make_node("ReduceL2", ["x", "axes"], ["l2"]),
                      h.make_node("ReduceLogSumExp", ["x", "axes"], ["lse"])],
                     {**{n: x.shape for n in ("ln", "lsm", "hs", "bn", "lr", "pr", "el", "hg", "sp")},
                      "l2": (2, 1, 6, 1), "lse": (2, 1, 6, 1)},
                     {"ls": r(6), "lb": r(6), "s4": r(4), "b4": r(4), "m4": r(4), "v4": np.abs(r(4)) + 1,
                      "s4p": r(4, 1, 1), "axes": np.array([1, 3], np.int64)}),
    }  # fmt: skip
    nodes["unary_compare_move"] = (
        [h.make_node("Abs", ["x"], ["ab"]), h.make_node("Sqrt", ["ab"], ["sq"]), h.make_node("Log", ["ab"], ["lg"]),
         h.make_node("Exp", ["x"], ["ex"]), h.make_node("Neg", ["x"], ["ng"]), h.make_node("Floor", ["x"], ["fl"]),
         h.make_node("Ceil", ["x"], ["ce"]), h.make_node("Reciprocal", ["x"], ["rc"]), h.make_node("Max", ["x", "c"], ["mx"]),
         h.make_node("Min", ["x", "c"], ["mn"]),
         *(h.make_node(op, ["x", "c"], [op]) for op in ("Equal", "Greater", "Less", "GreaterOrEqual", "LessOrEqual")),
         h.make_node("Pad", ["x", "pads", "fill"], ["pd"]), h.make_node("Slice", ["x", "st", "en", "ax", "sp"], ["sl"]),
         h.make_node("Split", ["x", "parts"], ["s1", "s2"], axis=1), h.make_node("Gather", ["x", "idx"], ["gk"], axis=1)],
        {**{n: x.shape for n in ("ab", "sq", "lg", "ex", "ng", "fl", "ce", "rc", "mx", "mn")},
         **{op: x.shape for op in ("Equal", "Greater", "Less", "GreaterOrEqual", "LessOrEqual")},
         "pd": (2, 4, 9, 7), "sl": (2, 4, 6, 2), "s1": (2, 1, 6, 6), "s2": (2, 3, 6, 6), "gk": (2, 2, 6, 6)},
        {"c": np.round(r(4, 1, 6)), "pads": np.array([0, 0, 1, 1, 0, 0, 2, 0], np.int64), "fill": np.array(0.25, np.float16),
         "st": np.array([1], np.int64), "en": np.array([5], np.int64), "ax": np.array([3], np.int64),
         "sp": np.array([2], np.int64), "parts": np.array([1, 3], np.int64), "idx": np.array([3, 0], np.int64)},
    )  # fmt: skip
    for name, (graph_nodes, outputs, inits) in nodes.items():
        models[name] = (f16_model(graph_nodes, one, outputs, inits, opset=18), {"x": x})
    for output in models["unary_compare_move"][0].graph.output:
        if output.name in ("Equal", "Greater", "Less", "GreaterOrEqual", "LessOrEqual"):
            output.type.tensor_type.elem_type = T.BOOL
    a, b = r(3, 5, 4), r(4, 6)
    models["products"] = (f16_model([h.make_node("MatMul", ["a", "b"], ["m"]), h.make_node("Gemm", ["a2", "b", "c"], ["g"], alpha=0.5)],
                                    {"a": a.shape, "a2": (5, 4)}, {"m": (3, 5, 6), "g": (5, 6)}, {"b": b, "c": r(6)}),
                          {"a": a, "a2": r(5, 4)})  # fmt: skip
    casts = [h.make_node("Cast", ["x"], [f"to_{t}"], to=t) for t in (T.FLOAT, T.INT32, T.INT8, T.BOOL)]
    casts += [h.make_node("Cast", [f"to_{t}"], [f"back_{t}"], to=T.FLOAT16) for t in (T.FLOAT, T.INT32, T.INT8, T.BOOL)]
    casts += [h.make_node("Cast", ["w"], ["from_f32"], to=T.FLOAT16)]
    outputs = {**{f"to_{t}": x.shape for t in (T.FLOAT, T.INT32, T.INT8, T.BOOL)}, **{f"back_{t}": x.shape for t in (T.FLOAT, T.INT32, T.INT8, T.BOOL)}}
    graph = f16_model(casts, one, {}, {})
    graph.graph.output.extend([h.make_tensor_value_info(n, T.FLOAT16 if n.startswith("back") else int(n[3:]), s) for n, s in outputs.items()])
    graph.graph.output.append(h.make_tensor_value_info("from_f32", T.FLOAT16, (64,)))
    graph.graph.input.append(h.make_tensor_value_info("w", T.FLOAT, (64,)))
    wide = (rng.standard_normal(64) * 10.0 ** rng.integers(-8, 6, 64)).astype(np.float32)
    models["casts"] = (graph, {"x": np.clip(x * 30, -127, 127).astype(np.float16), "w": wide})  # in int8's range
    return models


LOWERING_MODELS = lowering_models()


def test_the_lowering_models_cover_every_op_taken_on_float16():
    ops = {node.op_type for model, _ in LOWERING_MODELS.values() for node in model.graph.node}
    assert set(FLOAT16_OPS + FLOAT16_VIA_FLOAT32) - ops == {"Identity", "Shape"}  # no nn op of their own


@needs_mlir
@pytest.mark.parametrize("name", sorted(LOWERING_MODELS))
def test_nn_lower_to_linalg_runs_float16_as_the_flat_interpreter(tmp_path, name):
    """f16 inputs widened into f32 scratch copies (exact), the f32 lowering, one arith.truncf:
    the upstream JIT gives the flat interpreter's float16 results where their float32 ones
    agree, else within the one float16 ulp between two float32 values near a rounding
    boundary (and the f32 lowering's own tolerance); integer and bool results exactly. Ops
    that only move elements ("moves") take f16 as it is: no widening, bit for bit."""
    model, feeds = LOWERING_MODELS[name]
    onnx.checker.check_model(model)
    imported = onnx_importer(model, "w.bin").import_graph({}, {})
    (tmp_path / "w.bin").write_bytes(imported.blob)
    flat = lower_model(imported.module, "nn-plan-memory", tmp_path)
    want = run_flat(flat, dict(feeds), check=True).outputs
    lowered = to_linalg(flat)
    check_lowered(lowered)
    widened = any(op.name in ("arith.extf", "arith.truncf") for op in lowered.walk())
    assert widened == (name != "moves")
    (got,) = run_mlir(str(prepare_for_jit(lowered)), flat, [feeds])
    assert got.keys() == want.keys()
    for key, value in want.items():
        assert got[key].dtype == value.dtype, key
        if value.dtype.kind != "f":
            np.testing.assert_array_equal(got[key], value, err_msg=key)
            continue
        a, b = got[key].astype(np.float64), value.astype(np.float64)
        allowed = ulp16(np.maximum(np.abs(a), np.abs(b))) * (value.dtype == np.float16) + RTOL * np.abs(b) + ATOL
        with np.errstate(invalid="ignore"):  # equal infinities pass as equal
            assert np.all((a == b) | (np.abs(a - b) <= allowed)), f"{key}: {np.abs(a - b).max()}"


def test_check_mlir_allows_a_float16_output_one_float16_ulp():
    """Two float32 results within the tolerance may round to neighbouring float16 values."""
    from cfmem.differential import scaled_error

    ref = {"y": np.array([1.0, -3.0, 0.0, np.inf], np.float16)}
    one_ulp = {"y": np.array([1.0 + 2.0**-10, -3.0 - 2.0**-9, 2.0**-24, np.inf], np.float16)}
    two_ulps = {"y": np.array([1.0 + 2.0**-9, -3.0, 0.0, np.inf], np.float16)}
    assert scaled_error(ref, one_ulp, 1e-5, 1e-6) <= 1
    assert scaled_error(ref, two_ulps, 1e-5, 1e-6) > 1
    assert scaled_error({"y": ref["y"].astype(np.float32)}, {"y": one_ulp["y"].astype(np.float32)}, 1e-5, 1e-6) > 1


# --- a torch model exported in half precision ---------------------------------------------------------------


def test_a_torch_conv_net_exported_in_half_precision_runs_end_to_end(tmp_path):
    """A small conv net, ``.half()``, exported by torch: float16 inputs, weights and outputs;
    cfmem's reference and flat runs agree bit for bit and stay within a few float16 ulps of
    onnxruntime's (each op rounds to float16; onnxruntime keeps some intermediates in float32)."""
    if not torch_available():
        pytest.skip("needs torch and onnxscript")
    import torch

    torch.manual_seed(0)
    net = torch.nn.Sequential(
        torch.nn.Conv2d(3, 8, 3, padding=1),
        torch.nn.ReLU(),
        torch.nn.MaxPool2d(2),
        torch.nn.Conv2d(8, 8, 3, padding=1, groups=2),
        torch.nn.Sigmoid(),
        torch.nn.AdaptiveAvgPool2d(1),
        torch.nn.Flatten(),
        torch.nn.Linear(8, 10),
        torch.nn.Softmax(dim=1),
    ).half().eval()
    x = torch.randn(1, 3, 16, 16).half()
    export_torch(net, (x,), tmp_path / "net.onnx", input_names=["x"], output_names=["y"])
    model = onnx.load(str(tmp_path / "net.onnx"))
    assert model.graph.input[0].type.tensor_type.elem_type == T.FLOAT16
    assert T.FLOAT16 in {i.data_type for i in model.graph.initializer}  # (and int64 shapes)
    want, got, ran = three_runs(tmp_path, model, {"x": x.numpy()})
    np.testing.assert_array_equal(got["y"], ran["y"])
    assert got["y"].dtype == np.float16
    np.testing.assert_allclose(got["y"].astype(np.float32), want["y"].astype(np.float32), rtol=4 * 2.0**-10, atol=0)
