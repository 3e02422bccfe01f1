"""QuantizeLinear, DequantizeLinear, QLinearConv, QLinearMatMul and onnxruntime's QGemm,
QLinearAdd, QLinearMul, QLinearConcat and QLinearSigmoid against onnxruntime on drawn
shapes, values, scales, zero points and attributes: the reference interpreter on the import
and the planned flat form (ownership checked) must compute the same numbers, and those of
onnxruntime exactly: integer results, and the float ones of DequantizeLinear and a float
QGemm too, since cfmem computes them in onnxruntime's float32 operations (one rounding
each, in the same order). The exception is QLinearSigmoid, within one step (see its
test). Each refusal of the handlers is checked by its exact message, and the plan of an
int8 model by its bytes."""

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
from test_onnx_ops_mapping import refusal, three_runs  # noqa: E402

from cfmem.importers.onnx import onnx_importer  # noqa: E402
from cfmem.importers.onnx.reference import onnxruntime_outputs  # noqa: E402
from cfmem.pipeline import lower_model  # noqa: E402

DRAWN = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
QTYPES = (np.int8, np.uint8)
ELEMENT = {np.dtype(np.float32): T.FLOAT, np.dtype(np.int8): T.INT8, np.dtype(np.uint8): T.UINT8, np.dtype(np.int32): T.INT32, np.dtype(np.int16): T.INT16}


@dataclass
class Graph:
    """Nodes, run-time inputs and known tensors of a test model as it is put together."""

    nodes: list = field(default_factory=list)
    inputs: dict[str, np.ndarray] = field(default_factory=dict)
    inits: dict[str, np.ndarray] = field(default_factory=dict)

    def tensor(self, name: str, value: np.ndarray, known: bool = False) -> str:
        (self.inits if known else self.inputs)[name] = np.asarray(value)
        return name

    def params(self, prefix: str, scale, zero_point) -> list[str]:
        """Known scale and zero point inputs (``zero_point`` None: omitted)."""
        names = [self.tensor(f"{prefix}_scale", np.asarray(scale, np.float32), True)]
        if zero_point is not None:
            names.append(self.tensor(f"{prefix}_zero_point", np.asarray(zero_point), True))
        return names

    def model(self, node: onnx.NodeProto, outputs: dict[str, int], opset: int = 21, tmp_path=None) -> onnx.ModelProto:
        """The model of the nodes and ``node``, with ONNX and com.microsoft opsets; output
        shapes (which onnx cannot infer for com.microsoft ops) are taken from onnxruntime."""
        graph = h.make_graph(
            [*self.nodes, node],
            "g",
            [h.make_tensor_value_info(n, ELEMENT[v.dtype], v.shape) for n, v in self.inputs.items()],
            [h.make_tensor_value_info(n, ty, None) for n, ty in outputs.items()],
            [nh.from_array(v, n) for n, v in self.inits.items()],
        )
        opsets = [h.make_opsetid("", opset), h.make_opsetid("com.microsoft", 1)]
        model = h.make_model(graph, opset_imports=opsets, ir_version=8 if opset < 19 else 9 if opset < 21 else 10)
        if tmp_path is not None:
            onnx.save(model, str(tmp_path / "shapes.onnx"))
            for out, value in zip(model.graph.output, onnxruntime_outputs(tmp_path / "shapes.onnx", self.inputs).values()):
                out.CopyFrom(h.make_tensor_value_info(out.name, ELEMENT[value.dtype], value.shape))
        return model


def check(tmp_path, graph: Graph, node: onnx.NodeProto, out: int, opset: int = 21, steps: int = 0) -> np.ndarray:
    """onnxruntime, the reference interpreter and the flat form agree on the output ``y``:
    reference and flat bit for bit, onnxruntime exactly (or within ``steps`` quantization
    steps). Returns onnxruntime's output."""
    model = graph.model(node, {"y": out}, opset, tmp_path)
    want, got, ran = three_runs(tmp_path, model, graph.inputs)
    expected = want["y"]
    assert (got["y"].shape, got["y"].dtype) == (expected.shape, expected.dtype)
    np.testing.assert_array_equal(got["y"], ran["y"])
    if steps:
        assert np.abs(got["y"].astype(np.int64) - expected.astype(np.int64)).max(initial=0) <= steps
    else:
        np.testing.assert_array_equal(got["y"], expected)
    return expected


def qtype(data, label="element") -> type:
    return data.draw(st.sampled_from(QTYPES), label=label)


def scale(data, label: str, count: int | None = None):
    """A positive float32 scale (``count`` of them for a per-axis one)."""
    values = st.floats(2.0**-10, 4.0, width=32)
    if count is None:
        return np.float32(data.draw(values, label=label))
    return np.array(data.draw(st.lists(values, min_size=count, max_size=count), label=label), np.float32)


def zero_point(data, dtype, label: str, count: int | None = None):
    info = np.iinfo(dtype)
    values = st.integers(int(info.min), int(info.max))
    if count is None:
        return dtype(data.draw(values, label=label))
    return np.array(data.draw(st.lists(values, min_size=count, max_size=count), label=label), dtype)


def qdata(data, dtype, shape, label: str, bits: int | None = None) -> np.ndarray:
    """Values of ``dtype``; with ``bits``, only those a signed ``bits``-bit integer holds."""
    info = np.iinfo(dtype)
    low, high = (int(info.min), int(info.max)) if bits is None else (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)
    return data.draw(arrays(dtype, shape, elements=st.integers(low, high)), label=label)


def shape(data, label: str, min_dims=1, max_dims=4) -> tuple[int, ...]:
    return tuple(data.draw(st.lists(st.integers(1, 4), min_size=min_dims, max_size=max_dims), label=label))


# --- QuantizeLinear and DequantizeLinear ----------------------------------------------------


@DRAWN
@given(data=st.data())
def test_quantize_linear_matches_onnxruntime(tmp_path, data):
    """Per tensor or per axis (a negative axis too), int8 or uint8, the zero point omitted
    (uint8) or given; values drawn near the quantized range and on exact halves of a step,
    which round to even; rank 0 and 1 under the default axis 1 too."""
    x_shape = shape(data, "shape", min_dims=0)
    per_axis = len(x_shape) > 0 and data.draw(st.booleans(), label="per axis")
    dtype = qtype(data) if data.draw(st.booleans(), label="zero point given") else None
    axis = data.draw(st.integers(-len(x_shape), len(x_shape) - 1), label="axis") if per_axis else None
    count = x_shape[axis] if per_axis else None
    s = scale(data, "scale", count)
    graph = Graph()
    names = graph.params("y", s, None if dtype is None else zero_point(data, dtype, "zero point", count))
    steps = data.draw(arrays(np.int32, x_shape, elements=st.integers(-300, 300)), label="steps")
    halves = data.draw(st.booleans(), label="halves")
    along = s if count is None else s.reshape([-1 if k == axis % len(x_shape) else 1 for k in range(len(x_shape))])
    x = ((steps + np.float32(0.5 if halves else 0.25)) * along).astype(np.float32)
    attrs = {} if axis is None else {"axis": axis}
    node = h.make_node("QuantizeLinear", [graph.tensor("x", x), *names], ["y"], **attrs)
    check(tmp_path, graph, node, T.UINT8 if dtype in (None, np.uint8) else T.INT8)


@DRAWN
@given(data=st.data())
def test_dequantize_linear_matches_onnxruntime(tmp_path, data):
    """Per tensor or per axis (a negative axis too), int8 or uint8, the zero point omitted
    or given; float results, exactly onnxruntime's ``(x - zero_point) * scale``; rank 0
    and 1 under the default axis 1 too."""
    dtype = qtype(data)
    x_shape = shape(data, "shape", min_dims=0)
    per_axis = len(x_shape) > 0 and data.draw(st.booleans(), label="per axis")
    axis = data.draw(st.integers(-len(x_shape), len(x_shape) - 1), label="axis") if per_axis else None
    count = x_shape[axis] if per_axis else None
    graph = Graph()
    given_zp = data.draw(st.booleans(), label="zero point given") or dtype == np.int8
    names = graph.params("x", scale(data, "scale", count), zero_point(data, dtype, "zero point", count) if given_zp else None)
    attrs = {} if axis is None else {"axis": axis}
    node = h.make_node("DequantizeLinear", [graph.tensor("x", qdata(data, dtype, x_shape, "x")), *names], ["y"], **attrs)
    check(tmp_path, graph, node, T.FLOAT)


@pytest.mark.parametrize("per_axis", [False, True])
def test_quantize_and_dequantize_of_known_tensors_fold_to_onnxruntimes_numbers(tmp_path, per_axis):
    """A known x is quantized (and dequantized) by the handler; the folded values feed a
    run-time Add, so the import holds no nn.quantize or nn.dequantize."""
    rng = np.random.default_rng(5)
    graph = Graph()
    s = np.array([0.05, 0.013, 0.2], np.float32) if per_axis else np.float32(0.05)
    zp = np.array([3, -7, 0], np.int8) if per_axis else np.int8(-4)
    x = graph.tensor("x", (rng.standard_normal((2, 3)) * 4).astype(np.float32), True)
    graph.nodes.append(h.make_node("QuantizeLinear", [x, *graph.params("q", s, zp)], ["xq"], axis=-1))
    graph.nodes.append(h.make_node("DequantizeLinear", ["xq", "q_scale", "q_zero_point"], ["xd"], axis=-1))
    node = h.make_node("Add", ["xd", graph.tensor("a", np.zeros((2, 3), np.float32))], ["y"])
    check(tmp_path, graph, node, T.FLOAT)
    imported = onnx_importer(graph.model(node, {"y": T.FLOAT}, 21, tmp_path), "w.bin").import_graph({}, {})
    assert not [op.name for op in imported.module.walk() if op.name in ("nn.quantize", "nn.dequantize")]


# --- QLinearConv ------------------------------------------------------------------------------


@DRAWN
@given(data=st.data())
def test_qlinear_conv_matches_onnxruntime(tmp_path, data):
    """1-D or 2-D, strides, pads or auto_pad, dilations, groups (depthwise included), a per
    tensor or per output channel weight scale, with or without bias; uint8 activations with
    uint8 or int8 weights, int8 activations with int8 weights (onnxruntime's kernels)."""
    spatial = data.draw(st.sampled_from([1, 2]), label="spatial")
    x_type = qtype(data, "x element")
    w_type = np.int8 if x_type == np.int8 else qtype(data, "w element")
    groups = data.draw(st.sampled_from([1, 2, 3]), label="groups")
    per_group_in = data.draw(st.integers(1, 2), label="channels per group")
    depthwise = data.draw(st.booleans(), label="depthwise")
    per_group_out = 1 if depthwise else data.draw(st.integers(1, 2), label="outputs per group")
    if depthwise:
        per_group_in = 1
    c_in, c_out = groups * per_group_in, groups * per_group_out
    kernel = [data.draw(st.integers(1, 3), label="kernel") for _ in range(spatial)]
    strides = [data.draw(st.integers(1, 3), label="stride") for _ in range(spatial)]
    auto_pad = data.draw(st.sampled_from(["NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"]), label="auto_pad")
    # onnxruntime refuses dilations with SAME padding
    dilations = [1 if auto_pad.startswith("SAME") else data.draw(st.integers(1, 2), label="dilation") for _ in range(spatial)]
    spans = [(k - 1) * d + 1 for k, d in zip(kernel, dilations)]
    sizes = [data.draw(st.integers(span, span + 4), label="size") for span in spans]
    attrs = {"group": groups, "strides": strides, "dilations": dilations, "kernel_shape": kernel}
    if auto_pad == "NOTSET":
        attrs["pads"] = [data.draw(st.integers(0, 2), label="pad") for _ in range(2 * spatial)]
    else:
        attrs["auto_pad"] = auto_pad
    per_channel = data.draw(st.booleans(), label="per channel")
    graph = Graph()
    x = graph.tensor("x", qdata(data, x_type, (data.draw(st.integers(1, 2), label="batch"), c_in, *sizes), "x"))
    xs = graph.params("x", scale(data, "x scale"), zero_point(data, x_type, "x zero point"))
    w = graph.tensor("w", qdata(data, w_type, (c_out, per_group_in, *kernel), "w"), True)
    # onnxruntime takes one weight zero point for every channel
    w_zp = zero_point(data, w_type, "w zero point")
    ws = graph.params("w", scale(data, "w scale", c_out if per_channel else None),
                      np.full(c_out, w_zp, w_type) if per_channel else w_zp)  # fmt: skip
    y_type = x_type
    ys = graph.params("y", scale(data, "y scale"), zero_point(data, y_type, "y zero point"))
    inputs = [x, *xs, w, *ws, *ys]
    if data.draw(st.booleans(), label="bias"):
        inputs.append(graph.tensor("b", data.draw(arrays(np.int32, (c_out,), elements=st.integers(-5000, 5000)), label="b"), True))
    check(tmp_path, graph, h.make_node("QLinearConv", inputs, ["y"], **attrs), ELEMENT[np.dtype(y_type)], opset=10)


# --- QLinearMatMul and QGemm --------------------------------------------------------------------


@DRAWN
@given(data=st.data())
def test_qlinear_matmul_matches_onnxruntime(tmp_path, data):
    """2-D operands, either known or both at run time; uint8 a with uint8 or int8 b, int8 a
    with int8 b (onnxruntime's kernels); b per tensor or per column."""
    m, k, n = (data.draw(st.integers(1, 5), label=d) for d in "mkn")
    a_type = qtype(data, "a element")
    b_type = np.int8 if a_type == np.int8 else qtype(data, "b element")
    y_type = a_type
    per_column = data.draw(st.booleans(), label="per column")
    a_known, b_known = data.draw(st.sampled_from([(False, False), (True, False), (False, True)]), label="known")
    graph = Graph()
    a = graph.tensor("a", qdata(data, a_type, (m, k), "a"), a_known)
    a_p = graph.params("a", scale(data, "a scale"), zero_point(data, a_type, "a zero point"))
    b = graph.tensor("b", qdata(data, b_type, (k, n), "b"), b_known)
    b_p = graph.params("b", scale(data, "b scale", n if per_column else None),
                       zero_point(data, b_type, "b zero point", n if per_column else None))  # fmt: skip
    y_p = graph.params("y", scale(data, "y scale"), zero_point(data, y_type, "y zero point"))
    check(tmp_path, graph, h.make_node("QLinearMatMul", [a, *a_p, b, *b_p, *y_p], ["y"]), ELEMENT[np.dtype(y_type)])


@DRAWN
@given(data=st.data())
def test_batched_qlinear_matmul_matches_onnxruntime(tmp_path, data):
    """Operands of rank 3 (either or both, batches broadcast), per-tensor parameters: the i32
    products requantized as the 2-D form requantizes them."""
    m, k, n, batch = (data.draw(st.integers(1, 4), label=d) for d in ("m", "k", "n", "batch"))
    a_type = qtype(data, "a element")
    b_type = np.int8 if a_type == np.int8 else qtype(data, "b element")
    a_shape, b_shape = data.draw(st.sampled_from([((batch, m, k), (k, n)), ((m, k), (batch, k, n)),
                                                  ((batch, m, k), (1, k, n))]), label="shapes")  # fmt: skip
    graph = Graph()
    a = graph.tensor("a", qdata(data, a_type, a_shape, "a"), False)
    a_p = graph.params("a", scale(data, "a scale"), zero_point(data, a_type, "a zero point"))
    b = graph.tensor("b", qdata(data, b_type, b_shape, "b"), data.draw(st.booleans(), label="b known"))
    b_p = graph.params("b", scale(data, "b scale"), zero_point(data, b_type, "b zero point"))
    y_p = graph.params("y", scale(data, "y scale"), zero_point(data, a_type, "y zero point"))
    check(tmp_path, graph, h.make_node("QLinearMatMul", [a, *a_p, b, *b_p, *y_p], ["y"]), ELEMENT[np.dtype(a_type)])


@DRAWN
@given(data=st.data())
def test_qgemm_matches_onnxruntime(tmp_path, data):
    """com.microsoft QGemm with and without C, transB, alpha, and a float result when
    y_scale is left out; B known, per tensor or per column; uint8 A with uint8 or int8 B,
    int8 A with int8 B (onnxruntime's kernels). uint8 A with int8 B takes 7-bit B values, as
    onnxruntime's reduce_range does: its u8s8 kernel on x86 without VNNI adds pairs of products
    in int16 with saturation, so with full-range B its result depends on the machine."""
    m, k, n = (data.draw(st.integers(1, 5), label=d) for d in "mkn")
    a_type = qtype(data, "a element")
    b_type = np.int8 if a_type == np.int8 else qtype(data, "b element")
    trans_b = data.draw(st.integers(0, 1), label="transB")
    alpha = data.draw(st.one_of(st.just(1.0), st.floats(0.125, 8, width=32)), label="alpha")
    quantized = data.draw(st.booleans(), label="quantized result")
    per_column = data.draw(st.booleans(), label="per column")
    graph = Graph()
    a = graph.tensor("a", qdata(data, a_type, (m, k), "a"))
    a_p = graph.params("a", scale(data, "a scale"), zero_point(data, a_type, "a zero point"))
    u8s8 = a_type == np.uint8 and b_type == np.int8
    b = graph.tensor("b", qdata(data, b_type, (n, k) if trans_b else (k, n), "b", 7 if u8s8 else None), True)
    b_zp = zero_point(data, b_type, "b zero point")
    b_p = graph.params("b", scale(data, "b scale", n if per_column else None), np.full(n, b_zp, b_type) if per_column else b_zp)
    inputs = [a, *a_p, b, *b_p]
    if data.draw(st.booleans(), label="C"):
        inputs.append(graph.tensor("c", data.draw(arrays(np.int32, (n,), elements=st.integers(-5000, 5000)), label="c"), True))
    else:
        inputs.append("")
    if quantized:
        inputs += graph.params("y", scale(data, "y scale"), zero_point(data, a_type, "y zero point"))
    node = h.make_node("QGemm", inputs, ["y"], domain="com.microsoft", transB=trans_b, alpha=alpha)
    check(tmp_path, graph, node, ELEMENT[np.dtype(a_type)] if quantized else T.FLOAT)


# --- QLinearAdd, QLinearMul, QLinearConcat, QLinearSigmoid --------------------------------------


@pytest.mark.parametrize("op", ["QLinearAdd", "QLinearMul"])
@DRAWN
@given(data=st.data())
def test_qlinear_add_and_mul_match_onnxruntime(tmp_path, op, data):
    """Broadcast operands (scalars too), int8 or uint8, either operand known."""
    dtype = qtype(data)
    shapes = data.draw(mutually_broadcastable_shapes(num_shapes=2, max_dims=4, max_side=4), label="shapes").input_shapes
    known = data.draw(st.sampled_from([(False, False), (True, False), (False, True)]), label="known")
    graph = Graph()
    inputs = []
    for k, p in enumerate("ab"):
        inputs.append(graph.tensor(p, qdata(data, dtype, shapes[k], p), known[k]))
        inputs += graph.params(p, scale(data, f"{p} scale"), zero_point(data, dtype, f"{p} zero point"))
    y = graph.params("y", scale(data, "y scale"), zero_point(data, dtype, "y zero point"))
    node = h.make_node(op, [*inputs, *y], ["y"], domain="com.microsoft")
    check(tmp_path, graph, node, ELEMENT[np.dtype(dtype)])


@DRAWN
@given(data=st.data())
def test_qlinear_concat_matches_onnxruntime(tmp_path, data):
    """Two to four inputs of their own scales and zero points (some equal to the output's,
    which onnxruntime copies), joined along a drawn axis, negative too."""
    dtype = qtype(data)
    base = list(shape(data, "shape"))
    axis = data.draw(st.integers(-len(base), len(base) - 1), label="axis")
    y_scale, y_zp = scale(data, "y scale"), zero_point(data, dtype, "y zero point")
    graph = Graph()
    inputs = graph.params("y", y_scale, y_zp)
    for k in range(data.draw(st.integers(2, 4), label="count")):
        part = list(base)
        part[axis] = data.draw(st.integers(1, 3), label=f"size {k}")
        inputs.append(graph.tensor(f"x{k}", qdata(data, dtype, tuple(part), f"x{k}")))
        same = data.draw(st.booleans(), label=f"same parameters {k}")
        inputs += graph.params(f"x{k}", y_scale if same else scale(data, f"scale {k}"),
                               y_zp if same else zero_point(data, dtype, f"zero point {k}"))  # fmt: skip
    check(tmp_path, graph, h.make_node("QLinearConcat", inputs, ["y"], domain="com.microsoft", axis=axis), ELEMENT[np.dtype(dtype)])


@DRAWN
@given(data=st.data())
def test_qlinear_sigmoid_matches_onnxruntime_within_one_step(tmp_path, data):
    """cfmem dequantizes, takes numpy's float32 sigmoid and quantizes; onnxruntime tabulates
    its own float sigmoid (MLAS's logistic approximation) for each of the 256 values, so a
    value whose scaled sigmoid lies within an ulp of a rounding boundary can land one step
    away: the comparison allows one step (none has been seen in a thousand draws), while
    reference and flat stay identical."""
    dtype = qtype(data)
    graph = Graph()
    x = graph.tensor("x", qdata(data, dtype, shape(data, "shape"), "x"))
    inputs = [x, *graph.params("x", scale(data, "x scale"), zero_point(data, dtype, "x zero point"))]
    inputs += graph.params("y", np.float32(data.draw(st.floats(2.0**-9, 2.0**-6, width=32), label="y scale")),
                           zero_point(data, dtype, "y zero point"))  # fmt: skip
    check(tmp_path, graph, h.make_node("QLinearSigmoid", inputs, ["y"], domain="com.microsoft"), ELEMENT[np.dtype(dtype)], steps=1)


# --- plans count one byte per element --------------------------------------------------------


def test_the_plan_of_an_int8_convolution_counts_one_byte_per_element(tmp_path):
    """Q -> QLinearConv -> DQ: while the convolution runs, its int8 input (1x3x8x8), its
    int8 output (1x4x8x8), its weights (4x3x3x3 int8, 108 bytes in a 128-byte DMA
    buffer) and the i32 sums of one output row (1x4x1x8, its kernel scratch) are live,
    and the arena holds exactly those bytes."""
    rng = np.random.default_rng(3)
    graph = Graph()
    x = graph.tensor("x", rng.standard_normal((1, 3, 8, 8)).astype(np.float32))
    graph.nodes.append(h.make_node("QuantizeLinear", [x, *graph.params("x", 0.05, np.int8(3))], ["xq"]))
    w = graph.tensor("w", rng.integers(-128, 128, (4, 3, 3, 3)).astype(np.int8), True)
    conv = ["xq", "x_scale", "x_zero_point", w, *graph.params("w", 0.02, np.int8(0)), *graph.params("yq", 0.1, np.int8(-2))]
    graph.nodes.append(h.make_node("QLinearConv", conv, ["yq"], pads=[1, 1, 1, 1]))
    node = h.make_node("DequantizeLinear", ["yq", "yq_scale", "yq_zero_point"], ["y"])
    check(tmp_path, graph, node, T.FLOAT)
    imported = onnx_importer(graph.model(node, {"y": T.FLOAT}, 21, tmp_path), "w.bin").import_graph({}, {})
    (tmp_path / "w.bin").write_bytes(imported.blob)
    flat = lower_model(imported.module, "nn-insert-dma,nn-plan-memory", tmp_path)
    main = next(op for op in flat.walk() if op.name == "func.func")
    assert main.attributes["cfmem.arena_size"].value.data == 1 * 3 * 8 * 8 + 1 * 4 * 8 * 8 + 128 + 1 * 4 * 1 * 8 * 4
    views = {str(op.attributes["cfmem.tensor"].data): str(op.results[0].type) for op in flat.walk()
             if op.name == "memref.view" and "cfmem.tensor" in op.attributes}  # fmt: skip
    assert views["xq"] == "memref<1x3x8x8xi8, 1 : i64>" and views["yq"] == "memref<1x4x8x8xi8, 1 : i64>"


# --- what the draws found ---------------------------------------------------------------------


@pytest.mark.parametrize("x_shape", [(), (5,)], ids=["rank-0", "rank-1"])
def test_a_per_tensor_quantizer_ignores_the_default_axis_1_of_a_low_rank_tensor(tmp_path, x_shape):
    """axis (default 1) matters only to a per-axis scale; the ops' shape rules indexed the
    shape by it and failed with an IndexError on rank 0 and 1."""
    graph = Graph()
    x = graph.tensor("x", np.linspace(-3, 3, int(np.prod(x_shape))).astype(np.float32).reshape(x_shape))
    graph.nodes.append(h.make_node("QuantizeLinear", [x, *graph.params("q", 0.05, np.int8(3))], ["xq"]))
    check(tmp_path, graph, h.make_node("DequantizeLinear", ["xq", "q_scale", "q_zero_point"], ["y"]), T.FLOAT)


@pytest.mark.parametrize("dtype", QTYPES, ids=["int8", "uint8"])
@pytest.mark.parametrize("known", [False, True], ids=["run-time", "folded"])
def test_quantize_linear_saturates_values_past_any_integer_and_nan_as_onnxruntime(tmp_path, dtype, known):
    """Values whose quotient leaves int64 (1e30, infinities) saturated to the wrong end: the
    kernel converted them to int64 before clamping. NaN comes out as the minimum, as in
    onnxruntime's x86 kernel."""
    graph = Graph()
    x = graph.tensor("x", np.array([1e30, -1e30, np.inf, -np.inf, 3e9, -3e9, 1e19, np.nan, 2.5], np.float32), known)
    q = graph.params("q", 0.5, dtype(3))
    if known:  # the folded quantizer's result added to a run-time zero
        graph.nodes.append(h.make_node("QuantizeLinear", [x, *q], ["xq"]))
        graph.nodes.append(h.make_node("DequantizeLinear", ["xq", *q], ["xd"]))
        node = h.make_node("Add", ["xd", graph.tensor("zero", np.zeros(9, np.float32))], ["y"])
        check(tmp_path, graph, node, T.FLOAT)
    else:
        check(tmp_path, graph, h.make_node("QuantizeLinear", [x, *q], ["y"]), ELEMENT[np.dtype(dtype)])


def test_qlinear_mul_of_two_scalars_is_a_scalar(tmp_path):
    """The kernel added the one-element y zero point as a 1-D array, so the result of rank-0
    operands came out of shape (1,)."""
    graph = Graph()
    inputs = [graph.tensor("a", np.array(-7, np.int8)), *graph.params("a", 0.5, np.int8(2)),
              graph.tensor("b", np.array(9, np.int8)), *graph.params("b", 0.25, np.int8(-1)),
              *graph.params("y", 0.125, np.int8(5))]  # fmt: skip
    assert check(tmp_path, graph, h.make_node("QLinearMul", inputs, ["y"], domain="com.microsoft"), T.INT8).shape == ()


def test_dequantize_linear_of_int32_matches_onnxruntime(tmp_path):
    """An int32 tensor (a bias, as QDQ models hold them) dequantizes with zero point 0."""
    graph = Graph()
    x = graph.tensor("x", np.array([[-70000, 3, 0], [2**30, -(2**31), 12345]], np.int32))
    check(tmp_path, graph, h.make_node("DequantizeLinear", [x, *graph.params("x", 0.0007, np.int32(0))], ["y"]), T.FLOAT)


# --- refusals -----------------------------------------------------------------------------------


def refused(graph: Graph, op: str, inputs: list[str], opset: int = 21, domain: str = "", **attrs) -> str:
    """The importer's message for the one-node model ``op(inputs)`` (named n)."""
    node = h.make_node(op, inputs, ["y"], name="n", domain=domain, **attrs)
    return refusal(graph.model(node, {"y": T.FLOAT}, opset))


def conv_graph(**change) -> tuple[Graph, list[str]]:
    """QLinearConv's inputs: x (1, 2, 5, 5) int8 at run time and the rest known, with
    ``change`` replacing a named value (a None value: that input computed at run time)."""
    rng = np.random.default_rng(2)
    values = {"x": rng.integers(-128, 128, (1, 2, 5, 5)).astype(np.int8), "xs": np.float32(0.05), "xz": np.int8(1),
              "w": rng.integers(-128, 128, (3, 2, 3, 3)).astype(np.int8), "ws": np.float32(0.02), "wz": np.int8(0),
              "ys": np.float32(0.2), "yz": np.int8(-1), "b": np.arange(3, dtype=np.int32)}  # fmt: skip
    graph = Graph()
    for name, value in values.items():
        value = change.get(name, value)
        if value is None:
            graph.tensor(f"{name}_in", values[name] if name != "ys" else np.float32(0.2))
            graph.nodes.append(h.make_node("Identity", [f"{name}_in"], [name]))
        else:
            graph.tensor(name, value, name != "x")
    return graph, list(values)


@pytest.mark.parametrize("op", ["QuantizeLinear", "DequantizeLinear"])
def test_block_quantization_is_refused(op):
    graph = Graph()
    x = graph.tensor("x", np.zeros((2, 4), np.float32 if op == "QuantizeLinear" else np.int8))
    params = graph.params("s", np.full((2, 2), 0.1, np.float32), np.zeros((2, 2), np.int8))
    assert refused(graph, op, [x, *params], axis=1, block_size=2) == f"node n ({op}): {op} with block_size 2 is not supported"


@pytest.mark.parametrize(
    "zero_point, attrs, message",
    [
        (np.int16(0), {}, "QuantizeLinear y zero point of type int16 is not supported (int8, uint8)"),
        (None, {"output_dtype": T.INT16}, "QuantizeLinear y zero point of type int16 is not supported (int8, uint8)"),
        (np.int32(0), {}, "QuantizeLinear to int32 is not supported (int8, uint8)"),
    ],
    ids=["int16-zero-point", "int16-output_dtype", "int32-zero-point"],
)
def test_quantize_linear_to_other_types_is_refused(zero_point, attrs, message):
    graph = Graph()
    x = graph.tensor("x", np.zeros((2, 3), np.float32))
    assert refused(graph, "QuantizeLinear", [x, *graph.params("y", 0.1, zero_point)], **attrs) == f"node n (QuantizeLinear): {message}"


def test_dequantize_linear_of_int16_is_refused():
    graph = Graph()
    x = graph.tensor("x", np.zeros((2, 3), np.int16), True)  # (an int16 graph input is refused as such)
    assert refused(graph, "DequantizeLinear", [x, *graph.params("x", 0.1, None)]) == (
        "node n (DequantizeLinear): DequantizeLinear x zero point of type int16 is not supported (int8, uint8)")


@pytest.mark.parametrize("op", ["QuantizeLinear", "DequantizeLinear"])
@pytest.mark.parametrize("what", ["scale", "zero point"])
def test_quantizer_parameters_computed_at_run_time_are_refused(op, what):
    graph = Graph()
    x = graph.tensor("x", np.zeros((2, 3), np.float32 if op == "QuantizeLinear" else np.int8))
    scale = graph.tensor("s", np.float32(0.1), what != "scale")
    zero = graph.tensor("z", np.int8(0), what != "zero point")
    prefix = "y" if op == "QuantizeLinear" else "x"
    assert refused(graph, op, [x, scale, zero]) == f"node n ({op}): {op} {prefix} {what} must be a constant (it is computed at run time)"


def test_a_per_axis_scale_along_an_axis_the_tensor_lacks_is_refused():
    graph = Graph()
    x = graph.tensor("x", np.zeros((2, 3), np.float32))
    assert refused(graph, "QuantizeLinear", [x, *graph.params("y", [0.1, 0.2, 0.3], np.zeros(3, np.int8))], axis=2) == (
        "node n (QuantizeLinear): nn.quantize: axis 2 is out of range for a per-axis y_scale on a tensor of rank 2")


@pytest.mark.parametrize(
    "change, message",
    [
        ({"w": None}, "QLinearConv weights must be a constant (it is computed at run time; it is an input of the model: fix it with --input-value)"),
        ({"b": None}, "QLinearConv bias must be a constant (it is computed at run time)"),
        ({"ys": None}, "QLinearConv y scale must be a constant (it is computed at run time)"),
        ({"xz": np.int32(1)}, "x has a zero point of type int32 (int8 or uint8 expected)"),
        ({"wz": np.int16(0)}, "QLinearConv w zero point of type int16 is not supported (int8, uint8)"),
        ({"xz": np.uint8(1)}, "x has type tensor<1x2x5x5xi8>, but its zero point is uint8"),
        ({"xs": np.array([0.1, 0.2], np.float32), "xz": np.array([1, 1], np.int8)},
         "nn.qconv2d: x_scale and x_zero_point must have 1 element(s), got 2 and 2"),
        ({"ys": np.array([0.1, 0.2, 0.3], np.float32), "yz": np.zeros(3, np.int8)},
         "nn.qconv2d: y_scale and y_zero_point must have 1 element(s), got 3 and 3"),
        ({"ws": np.array([0.1, 0.2], np.float32), "wz": np.zeros(2, np.int8)},
         "nn.qconv2d: w_scale and w_zero_point must have 1 or 3 element(s), got 2 and 2"),
        ({"ws": np.float32(0)}, "nn.qconv2d: w_scale must be positive, got [0.0]"),
        ({"b": np.arange(2, dtype=np.int32)}, "nn.qconv2d: bias must be an i32 tensor of shape [3]"),
    ],
    ids=["run-time-weights", "run-time-bias", "run-time-y-scale", "int32-x-zero-point", "int16-w-zero-point",
         "zero-point-of-another-type", "per-axis-x", "per-axis-y", "w-scale-length", "zero-scale", "bias-shape"],
)
def test_qlinear_conv_refusals(change, message):
    graph, names = conv_graph(**change)
    assert refused(graph, "QLinearConv", names, opset=10) == f"node n (QLinearConv): {message}"


def gemm_graph(a_shape=(2, 3), b_shape=(3, 4), **change) -> tuple[Graph, list[str]]:
    """QGemm's or QLinearMatMul's operands and parameters, int8, ``change`` replacing one
    (None: computed at run time)."""
    graph = Graph()
    values = {"a": np.zeros(a_shape, np.int8), "as": np.float32(0.1), "az": np.int8(0),
              "b": np.zeros(b_shape, np.int8), "bs": np.float32(0.1), "bz": np.int8(0)}  # fmt: skip
    for name, value in {**values, **change}.items():
        if value is None:
            graph.tensor(f"{name}_in", values.get(name, np.zeros(b_shape[-1], np.int32)))
            graph.nodes.append(h.make_node("Identity", [f"{name}_in"], [name]))
        else:
            graph.tensor(name, value, name != "a")
    return graph, list(values)


def test_qgemm_refusals():
    """transA, a run-time or 2-D C, a per-axis y_scale, and y_scale without y_zero_point,
    which onnxruntime types as a float result (the y_scale still divides it), where cfmem
    quantized to uint8 with zero point 0."""
    graph, names = gemm_graph()
    assert refused(graph, "QGemm", [*names, "", *graph.params("y", 0.1, np.int8(0))], domain="com.microsoft", transA=1) == (
        "node n (QGemm): QGemm with transA is not supported")
    graph, names = gemm_graph(c=None)
    assert refused(graph, "QGemm", [*names, "c"], domain="com.microsoft") == (
        "node n (QGemm): QGemm C must be a constant (it is computed at run time)")
    graph, names = gemm_graph(c=np.zeros((2, 4), np.int32))
    assert refused(graph, "QGemm", [*names, "c"], domain="com.microsoft") == (
        "node n (QGemm): nn.qgemm: c must be an i32 tensor of shape [4]")
    graph, names = gemm_graph()
    assert refused(graph, "QGemm", [*names, "", graph.tensor("ys", np.float32(0.1), True)], domain="com.microsoft") == (
        "node n (QGemm): QGemm with y_scale and no y_zero_point is not supported (onnxruntime gives float results over y_scale)")
    graph, names = gemm_graph()
    per_axis_y = graph.params("y", [0.1, 0.2, 0.3, 0.4], np.zeros(4, np.int8))
    assert refused(graph, "QGemm", [*names, "", *per_axis_y], domain="com.microsoft") == (
        "node n (QGemm): nn.qgemm: y_scale and y_zero_point must have 1 element(s), got 4 and 4")


@pytest.mark.parametrize(
    "a_shape, b_shape, change, message",
    [
        ((2, 2, 3), (3, 4), {"bs": np.array([0.1] * 4, np.float32), "bz": np.zeros(4, np.int8)},
         "QLinearMatMul of operands of rank other than 2 with a per-axis scale is not supported"),
        ((2, 3), (3, 4), {"as": np.array([0.1, 0.2], np.float32), "az": np.zeros(2, np.int8)},
         "nn.qgemm: a_scale and a_zero_point must have 1 element(s), got 2 and 2"),
        ((2, 3), (3, 4), {"az": np.uint8(0)}, "a has type tensor<2x3xi8>, but its zero point is uint8"),
        ((2, 3), (3, 4), {"bz": np.uint8(0)}, "b has type int8, but its zero point is uint8"),
        ((2, 3), (3, 4), {"b": np.zeros((3, 4), np.float32)}, "expected an int8 or uint8 tensor for b, got float32"),
    ],
    ids=["rank-3-per-column-b", "per-row-a", "zero-point-of-another-type", "known-b-of-another-type", "float-b"],
)
def test_qlinear_matmul_refusals(a_shape, b_shape, change, message):
    graph, names = gemm_graph(a_shape, b_shape, **change)
    assert refused(graph, "QLinearMatMul", [*names, *graph.params("y", 0.1, np.int8(0))]) == f"node n (QLinearMatMul): {message}"


@pytest.mark.parametrize("op", ["QLinearAdd", "QLinearMul"])
@pytest.mark.parametrize("which", ["A", "B", "Y"])
def test_qlinear_add_and_mul_refuse_per_axis_scales(op, which):
    graph = Graph()
    inputs = []
    for p in "ab":
        inputs.append(graph.tensor(p, np.zeros((2, 3), np.int8)))
        inputs += graph.params(p, [0.1, 0.2, 0.3] if p == which.lower() else 0.1, np.zeros(3 if p == which.lower() else (), np.int8))
    inputs += graph.params("y", [0.1, 0.2, 0.3] if which == "Y" else 0.1, np.zeros(3 if which == "Y" else (), np.int8))
    assert refused(graph, op, inputs, domain="com.microsoft") == f"node n ({op}): {op} with a per-axis {which} scale is not supported"


def test_qlinear_concat_refusals():
    graph = Graph()
    y = graph.params("y", 0.1, np.int8(0))
    x = graph.tensor("x", np.zeros((2, 3), np.int8))
    assert refused(graph, "QLinearConcat", [*y, x, "y_scale"], domain="com.microsoft", axis=0) == (
        "node n (QLinearConcat): QLinearConcat needs y_scale, y_zero_point and triples of X, scale, zero point; got 4 inputs")
    per_axis = graph.params("x", [0.1, 0.2], np.zeros(2, np.int8))
    assert refused(graph, "QLinearConcat", [*y, x, *y, x, *per_axis], domain="com.microsoft", axis=0) == (
        "node n (QLinearConcat): QLinearConcat with a per-axis input 1 scale is not supported")
    per_axis_y = graph.params("z", [0.1, 0.2], np.zeros(2, np.int8))
    assert refused(graph, "QLinearConcat", [*per_axis_y, x, *y, x, *y], domain="com.microsoft", axis=0) == (
        "node n (QLinearConcat): nn.qconcat: y_scale and y_zero_point must have 1 element(s), got 2 and 2")


@pytest.mark.parametrize("which", ["X", "Y"])
def test_qlinear_sigmoid_refuses_per_axis_scales(which):
    """onnxruntime takes one scale for each; a per-axis X scale along the default axis 1
    would otherwise pass as a per-channel dequantization."""
    graph = Graph()
    x = graph.tensor("x", np.zeros((2, 3), np.int8))
    three = ([0.1, 0.2, 0.3], np.zeros(3, np.int8))
    inputs = [x, *graph.params("x", *(three if which == "X" else (0.1, np.int8(0)))),
              *graph.params("y", *(three if which == "Y" else (0.1, np.int8(0))))]  # fmt: skip
    assert refused(graph, "QLinearSigmoid", inputs, domain="com.microsoft") == (
        f"node n (QLinearSigmoid): QLinearSigmoid with a per-axis {which} scale is not supported")
