"""fuse_qdq on hand-built QDQ graphs: each DequantizeLinear -> op -> QuantizeLinear group it
fuses becomes its QLinear node (or the data-movement op on the int8 data), and each group
it must leave alone stays as it was. A fused model passes onnx.checker, and cfmem's import
of the QDQ model (reference and planned flat form) gives exactly the numbers onnxruntime
computes for the fused model; a model left alone matches onnxruntime's run of it within
one output quantization step of onnxruntime's unoptimized run, the model's own meaning
(float ops may round differently, and onnxruntime's optimizer fuses some of these groups
anyway: per-axis weights along the wrong axis, by which it changes the numbers)."""

from __future__ import annotations

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")
from onnx import TensorProto as T  # noqa: E402
from onnx import helper as h  # noqa: E402
from onnx import numpy_helper as nh  # noqa: E402
from test_onnx_ops_mapping import cfmem_runs  # noqa: E402

from cfmem.importers.onnx.qdq import fuse_qdq, has_qdq  # noqa: E402
from cfmem.importers.onnx.reference import onnxruntime_outputs  # noqa: E402


def unoptimized_outputs(path, feeds: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """onnxruntime's outputs with its graph optimizations (its own QDQ fusion) off."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.log_severity_level = 3
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_DISABLE_ALL
    session = onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    return dict(zip([o.name for o in session.get_outputs()], session.run(None, feeds)))

RNG = np.random.default_rng(7)
Y_SCALE = 0.07
"""The scale of the quantizer before each model's output."""


class QDQ:
    """A QDQ model as it is put together: float input ``x``, known tensors, nodes."""

    def __init__(self, x_shape: tuple[int, ...]) -> None:
        self.nodes: list = []
        self.inits: dict[str, np.ndarray] = {}
        self.feeds = {"x": (RNG.standard_normal(x_shape) * 2).astype(np.float32)}
        self.count = 0

    def name(self, stem: str) -> str:
        self.count += 1
        return f"{stem}{self.count}"

    def known(self, value: np.ndarray, stem: str = "c") -> str:
        name = self.name(stem)
        self.inits[name] = np.asarray(value)
        return name

    def node(self, op: str, inputs: list[str], outputs: int = 1, **attrs) -> list[str]:
        names = [self.name(op.lower()) for _ in range(outputs)]
        self.nodes.append(h.make_node(op, inputs, names, name=self.name(f"{op}_node"), **attrs))
        return names

    def q(self, x: str, scale, zero_point, **attrs) -> str:
        return self.node("QuantizeLinear", [x, self.known(np.asarray(scale, np.float32), "s"), self.known(zero_point, "z")], **attrs)[0]

    def dq(self, xq: str, scale, zero_point, **attrs) -> str:
        return self.node("DequantizeLinear", [xq, self.known(np.asarray(scale, np.float32), "s"), self.known(zero_point, "z")], **attrs)[0]

    def qdq(self, x: str, scale=0.05, zero_point=np.int8(3)) -> str:
        return self.dq(self.q(x, scale, zero_point), scale, zero_point)

    def weight(self, values: np.ndarray, scale, zero_point, **attrs) -> str:
        return self.dq(self.known(values, "w"), scale, zero_point, **attrs)

    def model(self, *outputs: str) -> onnx.ModelProto:
        """The model with ``outputs`` renamed y0, y1... through Identity nodes."""
        nodes = [*self.nodes, *(h.make_node("Identity", [o], [f"y{k}"]) for k, o in enumerate(outputs))]
        graph = h.make_graph(nodes, "g", [h.make_tensor_value_info("x", T.FLOAT, self.feeds["x"].shape)],
                             [h.make_tensor_value_info(f"y{k}", T.FLOAT, None) for k in range(len(outputs))],
                             [nh.from_array(v, n) for n, v in self.inits.items()])  # fmt: skip
        model = h.make_model(graph, opset_imports=[h.make_opsetid("", 17)], ir_version=8)
        model = onnx.shape_inference.infer_shapes(model, strict_mode=True)
        onnx.checker.check_model(model)
        return model

    def output(self, y: str) -> str:
        """``y`` quantized with Y_SCALE and dequantized, as a QDQ model's output is."""
        return self.dq(self.q(y, Y_SCALE, np.int8(-2)), Y_SCALE, np.int8(-2))


def op_types(model: onnx.ModelProto) -> list[str]:
    return [n.op_type for n in model.graph.node]


def check_fused(tmp_path, graph: QDQ, *outputs: str) -> list[str]:
    """fuse_qdq's model passes the checker; cfmem's runs of the QDQ model equal each other
    and onnxruntime's run of the fused model exactly. Returns the fused model's op types."""
    model = graph.model(*outputs)
    fused = fuse_qdq(model)
    onnx.checker.check_model(fused)
    onnx.save(fused, str(tmp_path / "fused.onnx"))
    want = onnxruntime_outputs(tmp_path / "fused.onnx", graph.feeds)
    _, got, ran = cfmem_runs(tmp_path, model, graph.feeds)
    for name, expected in want.items():
        np.testing.assert_array_equal(got[name], ran[name])
        np.testing.assert_array_equal(got[name], expected)
    return op_types(fused)


def check_left_alone(tmp_path, graph: QDQ, *outputs: str, step: float = Y_SCALE) -> list[str]:
    """fuse_qdq changes nothing; cfmem's runs equal each other and onnxruntime's unoptimized
    run within a ``step`` of the output's quantizer. Returns the op types."""
    model = graph.model(*outputs)
    fused = fuse_qdq(model)
    assert [(n.op_type, list(n.input), list(n.output)) for n in fused.graph.node] == [
        (n.op_type, list(n.input), list(n.output)) for n in model.graph.node]
    path, got, ran = cfmem_runs(tmp_path, model, graph.feeds)
    want = unoptimized_outputs(path, graph.feeds)
    for name, expected in want.items():
        np.testing.assert_array_equal(got[name], ran[name])
        np.testing.assert_allclose(got[name], expected, rtol=0, atol=step * 1.0001)
    return op_types(fused)


# --- groups that are fused ---------------------------------------------------------------------


def conv_group(graph: QDQ, bias_scale_factor: float | None = 1.0) -> str:
    """DQ(x), DQ(per-channel int8 weights) and DQ(int32 bias of scale x_scale * w_scale
    times ``bias_scale_factor``; None: no bias) into a Conv; its float output."""
    x = graph.qdq("x", 0.05, np.int8(3))
    w_scale = np.array([0.01, 0.02, 0.015], np.float32)
    w = graph.weight(RNG.integers(-127, 128, (3, 2, 3, 3)).astype(np.int8), w_scale, np.zeros(3, np.int8), axis=0)
    inputs = [x, w]
    if bias_scale_factor is not None:
        bias_scale = np.float32(0.05) * w_scale * np.float32(bias_scale_factor)
        inputs.append(graph.dq(graph.known(RNG.integers(-300, 300, 3).astype(np.int32), "b"), bias_scale, np.zeros(3, np.int32), axis=0))
    return graph.node("Conv", inputs, pads=[1, 1, 1, 1])[0]


@pytest.mark.parametrize("bias", [True, False], ids=["bias", "no-bias"])
def test_conv_group_becomes_qlinear_conv(tmp_path, bias):
    graph = QDQ((1, 2, 5, 5))
    y = graph.output(conv_group(graph, 1.0 if bias else None))
    assert check_fused(tmp_path, graph, y) == ["QuantizeLinear", "QLinearConv", "DequantizeLinear", "Identity"]


def test_matmul_group_becomes_qlinear_matmul(tmp_path):
    graph = QDQ((2, 3))
    w = graph.weight(RNG.integers(-127, 128, (3, 4)).astype(np.int8), 0.02, np.int8(0))
    y = graph.output(graph.node("MatMul", [graph.qdq("x"), w])[0])
    assert check_fused(tmp_path, graph, y) == ["QuantizeLinear", "QLinearMatMul", "DequantizeLinear", "Identity"]


@pytest.mark.parametrize("trans_b", [0, 1])
@pytest.mark.parametrize("quantized", [True, False], ids=["quantized", "float-output"])
def test_gemm_group_becomes_qgemm(tmp_path, trans_b, quantized):
    """With an int32 bias of scale x_scale * w_scale; a Gemm whose output is not quantized
    becomes a float QGemm (no y_scale)."""
    graph = QDQ((2, 3))
    w_values = RNG.integers(-127, 128, (4, 3) if trans_b else (3, 4)).astype(np.int8)
    w = graph.weight(w_values, 0.02, np.int8(0))
    bias = graph.dq(graph.known(RNG.integers(-300, 300, 4).astype(np.int32), "b"), np.float32(0.05) * np.float32(0.02), np.int32(0))
    y = graph.node("Gemm", [graph.qdq("x"), w, bias], transB=trans_b)[0]
    fused = check_fused(tmp_path, graph, graph.output(y) if quantized else y)
    assert fused == ["QuantizeLinear", "QGemm", *(["DequantizeLinear"] if quantized else []), "Identity"]


@pytest.mark.parametrize("trans_b", [0, 1])
def test_gemm_of_per_column_weights_becomes_qgemm(tmp_path, trans_b):
    """B dequantized along N: axis 1 of B, or axis 0 of a transposed B."""
    graph = QDQ((2, 3))
    scales = np.array([0.01, 0.02, 0.03, 0.04], np.float32)
    values = RNG.integers(-127, 128, (4, 3) if trans_b else (3, 4)).astype(np.int8)
    w = graph.weight(values, scales, np.zeros(4, np.int8), axis=0 if trans_b else -1)
    y = graph.output(graph.node("Gemm", [graph.qdq("x"), w], transB=trans_b)[0])
    assert check_fused(tmp_path, graph, y) == ["QuantizeLinear", "QGemm", "DequantizeLinear", "Identity"]


def test_gemm_with_alpha_and_no_bias_becomes_qgemm_with_alpha(tmp_path):
    graph = QDQ((2, 3))
    w = graph.weight(RNG.integers(-127, 128, (3, 4)).astype(np.int8), 0.02, np.int8(0))
    y = graph.output(graph.node("Gemm", [graph.qdq("x"), w], alpha=0.5)[0])
    assert check_fused(tmp_path, graph, y) == ["QuantizeLinear", "QGemm", "DequantizeLinear", "Identity"]


@pytest.mark.parametrize("op", ["Add", "Mul"])
def test_add_and_mul_groups_become_qlinear_ops_with_broadcasting(tmp_path, op):
    graph = QDQ((2, 3, 4))
    other = graph.weight(RNG.integers(-128, 128, (3, 1)).astype(np.int8), 0.03, np.int8(-5))
    y = graph.output(graph.node(op, [graph.qdq("x"), other])[0])
    assert check_fused(tmp_path, graph, y) == ["QuantizeLinear", f"QLinear{op}", "DequantizeLinear", "Identity"]


def test_concat_group_of_inputs_of_their_own_scales_becomes_qlinear_concat(tmp_path):
    graph = QDQ((2, 3))
    a = graph.qdq("x", 0.05, np.int8(3))
    b = graph.weight(RNG.integers(-128, 128, (2, 2)).astype(np.int8), 0.11, np.int8(-9))
    y = graph.output(graph.node("Concat", [a, b], axis=1)[0])
    assert check_fused(tmp_path, graph, y) == ["QuantizeLinear", "QLinearConcat", "DequantizeLinear", "Identity"]


MOVEMENT = {
    "MaxPool": ((1, 2, 4, 4), lambda g, x: g.node("MaxPool", [x], kernel_shape=[2, 2], strides=[2, 2])),
    "Reshape": ((2, 3, 4), lambda g, x: g.node("Reshape", [x, g.known(np.array([6, 4], np.int64))])),
    "Transpose": ((2, 3, 4), lambda g, x: g.node("Transpose", [x], perm=[2, 0, 1])),
    "Flatten": ((2, 3, 4), lambda g, x: g.node("Flatten", [x], axis=2)),
    "Squeeze": ((2, 1, 4), lambda g, x: g.node("Squeeze", [x, g.known(np.array([1], np.int64))])),
    "Unsqueeze": ((2, 4), lambda g, x: g.node("Unsqueeze", [x, g.known(np.array([0], np.int64))])),
    "Split": ((2, 6), lambda g, x: g.node("Split", [x, g.known(np.array([2, 4], np.int64))], outputs=2, axis=1)),
}


@pytest.mark.parametrize("op", list(MOVEMENT))
def test_data_movement_between_equal_quantizers_runs_on_the_int8_data(tmp_path, op):
    shape, build = MOVEMENT[op]
    graph = QDQ(shape)
    x = graph.qdq("x", Y_SCALE, np.int8(-2))
    outputs = [graph.output(y) for y in build(graph, x)]
    fused = check_fused(tmp_path, graph, *outputs)
    assert fused == ["QuantizeLinear", op, *["DequantizeLinear"] * len(outputs), *["Identity"] * len(outputs)]


def test_chained_groups_pass_int8_from_one_to_the_next(tmp_path):
    """Conv -> MaxPool -> Add: only the first quantizer and the last dequantizer stay."""
    graph = QDQ((1, 2, 4, 4))
    conv = graph.qdq(conv_group(graph), 0.09, np.int8(1))
    pooled = graph.qdq(graph.node("MaxPool", [conv], kernel_shape=[2, 2])[0], 0.09, np.int8(1))
    other = graph.weight(RNG.integers(-128, 128, (3, 1, 1)).astype(np.int8), 0.04, np.int8(0))
    y = graph.output(graph.node("Add", [pooled, other])[0])
    fused = check_fused(tmp_path, graph, y)
    assert fused == ["QuantizeLinear", "QLinearConv", "MaxPool", "QLinearAdd", "DequantizeLinear", "Identity"]


# --- groups that must stay as they are -----------------------------------------------------------


def test_an_op_output_with_a_second_consumer_is_not_fused(tmp_path):
    graph = QDQ((1, 2, 5, 5))
    y = conv_group(graph)
    relu = graph.node("Relu", [y])[0]
    types = check_left_alone(tmp_path, graph, graph.output(y), relu)
    assert "Conv" in types and "QLinearConv" not in types


def test_an_op_output_that_is_a_graph_output_is_not_fused(tmp_path):
    """The Conv's output feeds its quantizer and is also read as a graph output (through
    the Identity model() adds)."""
    graph = QDQ((1, 2, 5, 5))
    y = conv_group(graph)
    types = check_left_alone(tmp_path, graph, graph.output(y), y)
    assert "Conv" in types and "QLinearConv" not in types


def test_an_op_output_named_as_a_graph_output_is_not_fused(tmp_path):
    """A graph output between the op and its quantizer (the op's output itself)."""
    graph = QDQ((2, 3))
    w = graph.weight(RNG.integers(-127, 128, (3, 4)).astype(np.int8), 0.02, np.int8(0))
    y = graph.node("MatMul", [graph.qdq("x"), w])[0]
    q = graph.output(y)
    model = graph.model(q)
    model.graph.output.append(h.make_tensor_value_info(y, T.FLOAT, [2, 4]))
    assert op_types(fuse_qdq(model)) == op_types(model)
    path, got, ran = cfmem_runs(tmp_path, model, graph.feeds)
    want = unoptimized_outputs(path, graph.feeds)
    for name, expected in want.items():
        np.testing.assert_array_equal(got[name], ran[name])
        np.testing.assert_allclose(got[name], expected, rtol=1e-5, atol=Y_SCALE * 1.0001)


def test_a_bias_whose_scale_is_not_x_scale_times_w_scale_is_not_fused(tmp_path):
    graph = QDQ((1, 2, 5, 5))
    types = check_left_alone(tmp_path, graph, graph.output(conv_group(graph, 1.5)))
    assert "Conv" in types and "QLinearConv" not in types


def test_per_axis_activation_scales_are_not_fused(tmp_path):
    """An Add whose run-time operand is dequantized per channel."""
    graph = QDQ((2, 3))
    scales, zeros = np.array([0.05, 0.1, 0.2], np.float32), np.zeros(3, np.int8)
    x = graph.dq(graph.q("x", scales, zeros, axis=1), scales, zeros, axis=1)
    other = graph.weight(RNG.integers(-128, 128, (3,)).astype(np.int8), 0.03, np.int8(0))
    types = check_left_alone(tmp_path, graph, graph.output(graph.node("Add", [x, other])[0]))
    assert "Add" in types and "QLinearAdd" not in types


@pytest.mark.parametrize("change", ["scale", "zero point", "zero point type"])
def test_data_movement_between_different_quantizers_is_not_fused(tmp_path, change):
    graph = QDQ((2, 3, 4))
    x = graph.qdq("x", Y_SCALE, np.int8(-2))
    y = graph.node("Transpose", [x], perm=[1, 0, 2])[0]
    scale = Y_SCALE * 2 if change == "scale" else Y_SCALE
    zero = {"scale": np.int8(-2), "zero point": np.int8(0), "zero point type": np.uint8(0)}[change]
    out = graph.dq(graph.q(y, scale, zero), scale, zero)
    types = check_left_alone(tmp_path, graph, out, step=scale)
    assert types.count("QuantizeLinear") == 2 and types.count("DequantizeLinear") == 2


def test_a_batched_matmul_becomes_qlinear_matmul(tmp_path):
    """A 3-D MatMul against 2-D weights: QLinearMatMul of any rank imports (as the i32 products
    requantized), and matches onnxruntime on the fused model exactly."""
    graph = QDQ((2, 2, 3))
    w = graph.weight(RNG.integers(-127, 128, (3, 4)).astype(np.int8), 0.02, np.int8(0))
    y = graph.output(graph.node("MatMul", [graph.qdq("x"), w])[0])
    assert "QLinearMatMul" in check_fused(tmp_path, graph, y)


@pytest.mark.parametrize("attrs", [{"alpha": 0.5}, {"beta": 2.0}], ids=["alpha", "beta"])
def test_gemm_with_a_bias_and_alpha_or_beta_is_not_fused(tmp_path, attrs):
    graph = QDQ((2, 3))
    w = graph.weight(RNG.integers(-127, 128, (3, 4)).astype(np.int8), 0.02, np.int8(0))
    bias = graph.dq(graph.known(RNG.integers(-300, 300, 4).astype(np.int32), "b"), np.float32(0.05) * np.float32(0.02), np.int32(0))
    types = check_left_alone(tmp_path, graph, graph.output(graph.node("Gemm", [graph.qdq("x"), w, bias], **attrs)[0]))
    assert "Gemm" in types and "QGemm" not in types


def per_channel_output(graph: QDQ, y: str, channels: int = 3) -> str:
    scales, zeros = np.linspace(0.05, 0.09, channels).astype(np.float32), np.zeros(channels, np.int8)
    return graph.dq(graph.q(y, scales, zeros, axis=1), scales, zeros, axis=1)


def test_an_op_quantized_per_channel_is_not_fused(tmp_path):
    """A Conv or Add whose output quantizer is per channel: the QLinear ops take one output
    scale (the import refused the QLinearConv and QLinearAdd they became)."""
    graph = QDQ((1, 2, 5, 5))
    x = graph.qdq("x", 0.05, np.int8(3))
    w = graph.weight(RNG.integers(-127, 128, (3, 2, 3, 3)).astype(np.int8), 0.02, np.int8(0))
    conv = graph.node("Conv", [x, w], pads=[1, 1, 1, 1])[0]
    other = graph.weight(RNG.integers(-128, 128, (1, 2, 1, 1)).astype(np.int8), 0.03, np.int8(0))
    added = graph.node("Add", [graph.qdq("x"), other])[0]
    types = check_left_alone(tmp_path, graph, per_channel_output(graph, conv), per_channel_output(graph, added, 2))
    assert "Conv" in types and "Add" in types and not [t for t in types if t.startswith("QLinear")]


def test_a_gemm_quantized_per_channel_becomes_a_float_qgemm(tmp_path):
    graph = QDQ((2, 3))
    w = graph.weight(RNG.integers(-127, 128, (3, 3)).astype(np.int8), 0.02, np.int8(0))
    y = per_channel_output(graph, graph.node("Gemm", [graph.qdq("x"), w])[0])
    assert check_fused(tmp_path, graph, y) == ["QuantizeLinear", "QGemm", "QuantizeLinear", "DequantizeLinear", "Identity"]


def test_conv_weights_dequantized_along_input_channels_are_not_fused(tmp_path):
    """QLinearConv's weight scales run along output channels; with as many input channels
    the group was fused, scaling each output channel by an input channel's scale
    (onnxruntime's optimizer does the same, so the check is against its unoptimized run)."""
    graph = QDQ((1, 3, 5, 5))
    x = graph.qdq("x", 0.05, np.int8(3))
    scales = np.array([0.01, 0.05, 0.2], np.float32)
    w = graph.weight(RNG.integers(-127, 128, (3, 3, 3, 3)).astype(np.int8), scales, np.zeros(3, np.int8), axis=1)
    types = check_left_alone(tmp_path, graph, graph.output(graph.node("Conv", [x, w], pads=[1, 1, 1, 1])[0]))
    assert "Conv" in types and "QLinearConv" not in types


@pytest.mark.parametrize("trans_b", [0, 1])
def test_gemm_weights_dequantized_along_k_are_not_fused(tmp_path, trans_b):
    graph = QDQ((2, 4))
    scales = np.array([0.01, 0.05, 0.2, 0.02], np.float32)
    w = graph.weight(RNG.integers(-127, 128, (4, 4)).astype(np.int8), scales, np.zeros(4, np.int8), axis=1 if trans_b else 0)
    types = check_left_alone(tmp_path, graph, graph.output(graph.node("Gemm", [graph.qdq("x"), w], transB=trans_b)[0]))
    assert "Gemm" in types and "QGemm" not in types
