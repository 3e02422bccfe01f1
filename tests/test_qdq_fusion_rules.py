"""fuse_qdq's rules, one graph each and no runtime: which groups become which QLinear node,
with which inputs in which order, and which stay as they are. tests/test_onnx_qdq.py runs
the fused models against onnxruntime; these check the rewrite itself, fast enough to decide
each planted bug of the fusing in a second."""

from __future__ import annotations

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto as T  # noqa: E402
from onnx import helper as h  # noqa: E402
from onnx import numpy_helper as nh  # noqa: E402

from cfmem.importers.onnx.qdq import fuse_qdq, has_qdq  # noqa: E402

X_SCALE, W_SCALE, Y_SCALE = np.float32(0.05), np.float32(0.02), np.float32(0.07)


class Graph:
    """A graph as it is put together: float input ``x`` of ``shape``, named known tensors, nodes."""

    def __init__(self, shape=(2, 3), opset: int = 17) -> None:
        self.shape, self.opset = shape, opset
        self.nodes: list[onnx.NodeProto] = []
        self.inits: dict[str, np.ndarray] = {}
        self.constants: set[str] = set()

    def known(self, name: str, value, constant: bool = False) -> str:
        """``value`` under ``name``, as an initializer or (``constant``) a Constant node's output."""
        if constant:
            self.nodes.append(h.make_node("Constant", [], [name], value=nh.from_array(np.asarray(value), name)))
        else:
            self.inits[name] = np.asarray(value)
        return name

    def node(self, op: str, inputs: list[str], outputs: list[str], domain: str = "", **attrs) -> onnx.NodeProto:
        node = h.make_node(op, inputs, outputs, name=f"{outputs[0] or op}_node", domain=domain, **attrs)
        self.nodes.append(node)
        return node

    def dq(self, src: str, out: str, scale, zero=None, domain: str = "", constant: bool = False, **attrs) -> str:
        """``out`` = DequantizeLinear(src) with its scale ``out_s`` and zero point ``out_z`` (omitted: None)."""
        inputs = [src, self.known(f"{out}_s", np.asarray(scale, np.float32), constant)]
        if zero is not None:
            inputs.append(self.known(f"{out}_z", zero, constant))
        self.node("DequantizeLinear", inputs, [out], domain=domain, **attrs)
        return out

    def q(self, src: str, out: str, scale, zero=None, domain: str = "", constant: bool = False, **attrs) -> str:
        inputs = [src, self.known(f"{out}_s", np.asarray(scale, np.float32), constant)]
        if zero is not None:
            inputs.append(self.known(f"{out}_z", zero, constant))
        self.node("QuantizeLinear", inputs, [out], domain=domain, **attrs)
        return out

    def quantized_x(self, zero=np.int8(3), **kw) -> str:
        """x quantized and dequantized: the float ``xd`` from the int8 ``xq``."""
        return self.dq(self.q("x", "xq", X_SCALE, zero, **kw), "xd", X_SCALE, zero, **kw)

    def weight(self, out: str, values, scale, zero=None, **attrs) -> str:
        return self.dq(self.known(f"{out}_q", values), out, scale, zero, **attrs)

    def model(self, outputs: list[str]) -> onnx.ModelProto:
        graph = h.make_graph(self.nodes, "g", [h.make_tensor_value_info("x", T.FLOAT, self.shape)],
                             [h.make_tensor_value_info(o, T.UNDEFINED, None) for o in outputs],
                             [nh.from_array(v, n) for n, v in self.inits.items()])  # fmt: skip
        return h.make_model(graph, opset_imports=[h.make_opsetid("", self.opset)], ir_version=10)


def fused_nodes(model: onnx.ModelProto) -> list[tuple[str, str, list[str], list[str], str]]:
    """(op type, domain, inputs, outputs, name) of each node but the Constants, after fuse_qdq."""
    fused = fuse_qdq(model)
    return [(n.op_type, n.domain, list(n.input), list(n.output), n.name) for n in fused.graph.node if n.op_type != "Constant"]


def op_types(model: onnx.ModelProto) -> list[str]:
    return [node[0] for node in fused_nodes(model)]


def unchanged(model: onnx.ModelProto) -> bool:
    before = [(n.op_type, list(n.input), list(n.output)) for n in model.graph.node if n.op_type != "Constant"]
    return [(t, i, o) for t, _, i, o, _ in fused_nodes(model)] == before


INT8_W = np.arange(-6, 6, dtype=np.int8).reshape(3, 4)


def matmul_graph(**kw) -> Graph:
    """DQ(x) @ DQ(w) -> Q(y) -> DQ: the plainest fusable group, with ``kw`` for its dequantizers."""
    g = Graph(**{k: kw.pop(k) for k in ("opset",) if k in kw})
    x = g.quantized_x(**kw)
    w = g.weight("w", INT8_W, W_SCALE, np.int8(0), **kw)
    g.node("MatMul", [x, w], ["y"])
    g.dq(g.q("y", "yq", Y_SCALE, np.int8(-2), **kw), "out", Y_SCALE, np.int8(-2), **kw)
    return g


# --- the fused nodes: inputs in QLinear order, the op's name, domain and attributes -------------


def test_a_fused_matmul_takes_each_operand_with_its_own_scale_and_zero_point_and_keeps_the_name():
    nodes = fused_nodes(matmul_graph().model(["out"]))
    assert nodes[1] == ("QLinearMatMul", "", ["xq", "xd_s", "xd_z", "w_q", "w_s", "w_z", "yq_s", "yq_z"], ["yq"], "y_node")


@pytest.mark.parametrize("op", ["Add", "Mul"])
def test_a_fused_binary_op_takes_each_operand_with_its_own_parameters(op):
    g = Graph()
    g.node(op, [g.quantized_x(), g.weight("w", INT8_W[0, :3], np.float32(0.03), np.int8(-5))], ["y"])
    g.q("y", "yq", Y_SCALE, np.int8(1))
    nodes = fused_nodes(g.model(["yq"]))
    assert nodes == [("QuantizeLinear", "", ["x", "xq_s", "xq_z"], ["xq"], "xq_node"),
                     (f"QLinear{op}", "com.microsoft", ["xq", "xd_s", "xd_z", "w_q", "w_s", "w_z", "yq_s", "yq_z"], ["yq"], "y_node")]  # fmt: skip


def test_a_fused_concat_takes_the_output_parameters_first_then_each_input_with_its_own():
    g = Graph()
    g.node("Concat", [g.quantized_x(), g.weight("w", INT8_W[:2, :3], np.float32(0.11), np.int8(-9))], ["y"], axis=0)
    g.q("y", "yq", Y_SCALE, np.int8(1))
    concat = fused_nodes(g.model(["yq"]))[1]
    assert concat == ("QLinearConcat", "com.microsoft", ["yq_s", "yq_z", "xq", "xd_s", "xd_z", "w_q", "w_s", "w_z"], ["yq"], "y_node")
    assert [a.name for a in fuse_qdq(g.model(["yq"])).graph.node[1].attribute] == ["axis"]


def conv_graph(bias=True, bias_values=None, bias_scale=None, bias_zero=None, weight_axis=0, weight_zero=True) -> Graph:
    """DQ(x) * DQ(per-channel w) (+ DQ(int32 bias)) -> Q(y)."""
    g = Graph((1, 2, 4, 4))
    x = g.quantized_x()
    w_scales = np.array([0.01, 0.02, 0.03], np.float32)
    zero = np.zeros(3, np.int8) if weight_zero else None
    w = g.weight("w", np.ones((3, 3, 1, 1), np.int8), w_scales, zero, axis=weight_axis)
    inputs = [x, w]
    if bias:
        scale = X_SCALE * w_scales if bias_scale is None else bias_scale
        values = np.array([5, -7, 9], np.int32) if bias_values is None else bias_values
        inputs.append(g.dq(g.known("b_q", values), "b", scale, bias_zero if bias_zero is not None else np.zeros(3, np.int32), axis=0))
    g.node("Conv", inputs, ["y"], pads=[0, 0, 0, 0])
    g.q("y", "yq", Y_SCALE, np.int8(0))
    return g


def test_a_fused_conv_takes_x_w_y_parameters_then_the_int32_bias_in_the_default_domain():
    model = conv_graph().model(["yq"])
    conv = fused_nodes(model)[1]
    assert conv == ("QLinearConv", "", ["xq", "xd_s", "xd_z", "w_q", "w_s", "w_z", "yq_s", "yq_z", "b_q"], ["yq"], "y_node")
    assert [o.domain for o in fuse_qdq(model).opset_import] == [""]  # nothing of com.microsoft


def test_a_fused_gemm_keeps_alpha_and_trans_b_and_names_its_bias_and_output_parameters():
    g = Graph()
    w = g.weight("w", INT8_W.T.copy(), W_SCALE, np.int8(0))
    g.node("Gemm", [g.quantized_x(), w], ["y"], alpha=0.5, transB=1)
    g.q("y", "yq", Y_SCALE, np.int8(0))
    fused = fuse_qdq(g.model(["yq"]))
    gemm = fused.graph.node[1]
    assert (gemm.op_type, gemm.domain, list(gemm.input), gemm.name) == (
        "QGemm", "com.microsoft", ["xq", "xd_s", "xd_z", "w_q", "w_s", "w_z", "", "yq_s", "yq_z"], "y_node")
    assert {a.name: h.get_attribute_value(a) for a in gemm.attribute} == {"alpha": 0.5, "transB": 1}
    assert [(o.domain, o.version) for o in fused.opset_import] == [("", 17), ("com.microsoft", 1)]


def test_a_fused_gemm_without_attributes_has_alpha_one_and_weights_along_columns():
    """ONNX's defaults: alpha 1, transB 0, and a DequantizeLinear's axis 1, the columns of B."""
    g = Graph()
    w = g.weight("w", INT8_W, np.array([0.01, 0.02, 0.03, 0.04], np.float32), np.zeros(4, np.int8))
    g.node("Gemm", [g.quantized_x(), w], ["y"])
    g.q("y", "yq", Y_SCALE, np.int8(0))
    gemm = fuse_qdq(g.model(["yq"])).graph.node[1]
    assert gemm.op_type == "QGemm"
    assert {a.name: h.get_attribute_value(a) for a in gemm.attribute} == {"alpha": 1.0, "transB": 0}


def test_a_fused_data_movement_op_keeps_its_name_and_an_omitted_output_stays_omitted():
    g = Graph((1, 1, 4, 4))
    g.node("MaxPool", [g.quantized_x()], ["y", ""], kernel_shape=[2, 2])
    g.q("y", "yq", X_SCALE, np.int8(3))
    assert fused_nodes(g.model(["yq"]))[1] == ("MaxPool", "", ["xq"], ["yq", ""], "y_node")


def test_dequantizers_in_the_ai_onnx_domain_and_a_microsoft_opset_already_there_are_kept_once():
    g = matmul_graph(domain="ai.onnx")
    model = g.model(["out"])
    assert op_types(model) == ["QuantizeLinear", "QLinearMatMul", "DequantizeLinear"]
    g = Graph()
    g.node("Add", [g.quantized_x(domain="ai.onnx"), g.weight("w", INT8_W[0, :3], W_SCALE, np.int8(0))], ["y"], domain="ai.onnx")
    g.q("y", "yq", Y_SCALE, np.int8(0), domain="ai.onnx")
    model = g.model(["yq"])
    model.opset_import.append(h.make_opsetid("com.microsoft", 1))
    fused = fuse_qdq(model)
    assert [n.op_type for n in fused.graph.node] == ["QuantizeLinear", "QLinearAdd"]
    assert [o.domain for o in fused.opset_import] == ["", "com.microsoft"]


def test_scales_and_zero_points_from_constant_nodes_are_known():
    model = matmul_graph(constant=True).model(["out"])
    assert op_types(model) == ["QuantizeLinear", "QLinearMatMul", "DequantizeLinear"]


def test_omitted_zero_points_are_uint8_zero_and_fuse():
    """Every quantizer without a zero point (two inputs): a MatMul and a Transpose fuse, and
    a Transpose between an omitted and an explicit uint8 0 zero point fuses too."""
    g = Graph()
    x = g.dq(g.q("x", "xq", X_SCALE), "xd", X_SCALE)
    g.node("MatMul", [x, g.weight("w", INT8_W, W_SCALE)], ["y"])
    y = g.dq(g.q("y", "yq", Y_SCALE), "yd", Y_SCALE)
    g.node("Transpose", [y], ["t"], perm=[1, 0])
    g.q("t", "tq", Y_SCALE, np.uint8(0))
    assert fused_nodes(g.model(["tq"]))[1:] == [
        ("QLinearMatMul", "", ["xq", "xd_s", "", "w_q", "w_s", "", "yq_s", ""], ["yq"], "y_node"),
        ("Transpose", "", ["yq"], ["tq"], "t_node")]  # fmt: skip


def test_a_transpose_between_an_omitted_and_an_int8_zero_zero_point_is_not_fused():
    """An omitted zero point is uint8: int8 0 is another type, so the int8 data would change meaning."""
    g = Graph()
    g.node("Transpose", [g.dq(g.q("x", "xq", X_SCALE), "xd", X_SCALE)], ["t"], perm=[1, 0])
    g.q("t", "tq", X_SCALE, np.int8(0))
    assert unchanged(g.model(["tq"]))


def test_has_qdq_finds_a_lone_quantizer_or_dequantizer_and_nothing_else():
    plain = Graph()
    plain.node("Relu", ["x"], ["y"])
    assert not has_qdq(plain.model(["y"]))
    lone_q, lone_dq = Graph(), Graph()
    lone_q.q("x", "xq", X_SCALE, np.int8(0))
    lone_dq.node("Relu", ["x"], ["r"])
    lone_dq.dq(lone_dq.known("c", np.int8(4)), "d", X_SCALE, np.int8(0))
    assert has_qdq(lone_q.model(["xq"])) and has_qdq(lone_dq.model(["d", "r"]))


# --- groups that stay as they are ---------------------------------------------------------------


def test_an_op_whose_input_is_not_dequantized_stays():
    """An operand straight from the graph input or from a float op (Relu), for each op family."""
    for make in (
        lambda g, a: g.node("MatMul", [a, g.weight("w", INT8_W, W_SCALE, np.int8(0))], ["y"]),
        lambda g, a: g.node("Add", [a, g.weight("w", INT8_W[0, :3], W_SCALE, np.int8(0))], ["y"]),
        lambda g, a: g.node("Concat", [a, g.weight("w", INT8_W[:1, :3], W_SCALE, np.int8(0))], ["y"], axis=0),
        lambda g, a: g.node("Gemm", [a, g.weight("w", INT8_W, W_SCALE, np.int8(0))], ["y"]),
        lambda g, a: g.node("Transpose", [a], ["y"], perm=[1, 0]),
    ):
        for via_relu in (False, True):
            g = Graph()
            a = g.node("Relu", ["x"], ["r"]).output[0] if via_relu else "x"
            make(g, a)
            g.q("y", "yq", Y_SCALE, np.int8(0))
            assert unchanged(g.model(["yq"])), (make, via_relu)


def test_a_conv_whose_input_is_not_dequantized_stays():
    g = Graph((1, 2, 4, 4))
    g.node("Conv", ["x", g.weight("w", np.ones((3, 2, 1, 1), np.int8), W_SCALE, np.int8(0))], ["y"])
    g.q("y", "yq", Y_SCALE, np.int8(0))
    assert unchanged(g.model(["yq"]))


def test_weights_computed_at_run_time_stay():
    """A Conv and a Gemm whose dequantized weights come from a Cast, not a known tensor."""
    g = Graph((1, 2, 4, 4))
    w = g.dq(g.node("Cast", [g.known("wf", np.ones((3, 2, 1, 1), np.float32))], ["wc"], to=T.INT8).output[0], "w", W_SCALE, np.int8(0))
    g.node("Conv", [g.quantized_x(), w], ["y"])
    g.q("y", "yq", Y_SCALE, np.int8(0))
    assert unchanged(g.model(["yq"]))
    g = Graph()
    w = g.dq(g.node("Cast", [g.known("wf", INT8_W.astype(np.float32))], ["wc"], to=T.INT8).output[0], "w", W_SCALE, np.int8(0))
    g.node("Gemm", [g.quantized_x(), w], ["y"])
    g.q("y", "yq", Y_SCALE, np.int8(0))
    assert unchanged(g.model(["yq"]))


def test_a_gemm_with_trans_a_stays():
    g = Graph((3, 2))
    g.node("Gemm", [g.quantized_x(), g.weight("w", INT8_W, W_SCALE, np.int8(0))], ["y"], transA=1)
    g.q("y", "yq", Y_SCALE, np.int8(0))
    assert unchanged(g.model(["yq"]))


def test_a_dequantizer_with_a_scale_computed_at_run_time_stays():
    """An activation scale from a Relu of a known tensor: not known, so nothing is fused."""
    g = Graph()
    g.node("Relu", [g.known("s0", np.float32(0.05))], ["s"])
    g.node("QuantizeLinear", ["x", "s", g.known("z", np.int8(0))], ["xq"])
    g.node("DequantizeLinear", ["xq", "s", "z"], ["xd"])
    g.node("MatMul", ["xd", g.weight("w", INT8_W, W_SCALE, np.int8(0))], ["y"])
    g.q("y", "yq", Y_SCALE, np.int8(0))
    assert unchanged(g.model(["yq"]))


def test_an_output_quantizer_with_a_scale_computed_at_run_time_stays():
    g = Graph()
    g.node("MatMul", [g.quantized_x(), g.weight("w", INT8_W, W_SCALE, np.int8(0))], ["y"])
    g.node("Relu", [g.known("s0", np.float32(0.07))], ["s"])
    g.node("QuantizeLinear", ["y", "s", g.known("z", np.int8(0))], ["yq"])
    assert unchanged(g.model(["yq"]))


def test_a_blocked_dequantizer_stays():
    """Opset 21's block_size: scales per block of the weights, which no QLinear op takes."""
    g = Graph(opset=21)
    w = g.weight("w", INT8_W, np.full((1, 4), 0.02, np.float32), np.zeros((1, 4), np.int8), axis=0, block_size=3)
    g.node("MatMul", [g.quantized_x(), w], ["y"])
    g.q("y", "yq", Y_SCALE, np.int8(0))
    assert unchanged(g.model(["yq"]))


def test_per_axis_parameters_without_zero_points_stay():
    """Per-axis activation scales (no zero point) into a MatMul, an Add, a Transpose, a Gemm
    and a Conv, or out of a MatMul, and conv weights per input channel without zero points."""
    scales = np.array([0.05, 0.1, 0.2], np.float32)
    for op in ("MatMul", "Add", "Transpose", "Gemm"):
        g = Graph()
        x = g.dq(g.q("x", "xq", scales, axis=1), "xd", scales, axis=1)
        weights = {"MatMul": INT8_W, "Gemm": INT8_W, "Add": INT8_W[0, :3]}
        other = [g.weight("w", weights[op], W_SCALE)] if op in weights else []
        g.node(op, [x, *other], ["y"], **({"perm": [1, 0]} if op == "Transpose" else {}))
        g.q("y", "yq", X_SCALE)
        assert unchanged(g.model(["yq"])), op
    g = Graph()
    g.node("MatMul", [g.quantized_x(), g.weight("w", INT8_W, W_SCALE)], ["y"])
    g.q("y", "yq", np.array([0.1, 0.2, 0.3, 0.4], np.float32), axis=1)
    assert unchanged(g.model(["yq"]))
    assert unchanged(conv_graph(weight_axis=1, weight_zero=False).model(["yq"]))
    g = Graph((1, 3, 4, 4))
    x = g.dq(g.q("x", "xq", scales, axis=1), "xd", scales, axis=1)
    g.node("Conv", [x, g.weight("w", np.ones((2, 3, 1, 1), np.int8), W_SCALE, np.int8(0))], ["y"])
    g.q("y", "yq", Y_SCALE, np.int8(0))
    assert unchanged(g.model(["yq"]))


@pytest.mark.parametrize(
    "bias",
    [
        {"bias_values": np.array([5, -7, 9], np.int8)},  # not int32
        {"bias_zero": np.array([0, 1, 0], np.int32)},  # a zero point other than 0
        {"bias_scale": X_SCALE * np.array([0.01, 0.02, 0.03], np.float32) * np.float32(1 + 4e-6)},  # 4e-6 off
    ],
    ids=["int8", "zero-point", "scale-off-by-4e-6"],
)
def test_a_conv_bias_that_is_not_int32_of_scale_x_times_w_and_zero_point_0_stays(bias):
    assert op_types(conv_graph(**bias).model(["yq"])) == ["QuantizeLinear", "DequantizeLinear", "DequantizeLinear",
                                                         "DequantizeLinear", "Conv", "QuantizeLinear"]  # fmt: skip


def test_a_conv_bias_within_1e6_of_x_scale_times_w_scale_fuses():
    scale = X_SCALE * np.array([0.01, 0.02, 0.03], np.float32) * np.float32(1 + 5e-7)
    assert "QLinearConv" in op_types(conv_graph(bias_scale=scale).model(["yq"]))


def test_a_conv_bias_that_is_float_or_computed_at_run_time_stays():
    g = conv_graph(bias=False)
    conv = next(n for n in g.nodes if n.op_type == "Conv")
    conv.input.append(g.known("bf", np.zeros(3, np.float32)))
    assert unchanged(g.model(["yq"]))
    g = conv_graph(bias=False)
    conv = next(n for n in g.nodes if n.op_type == "Conv")
    g.node("Cast", [g.known("bf", np.zeros(3, np.float32))], ["bc"], to=T.INT32)
    conv.input.append(g.dq("bc", "b", X_SCALE * np.array([0.01, 0.02, 0.03], np.float32), np.zeros(3, np.int32), axis=0))
    assert unchanged(g.model(["yq"]))


def test_a_data_movement_op_whose_output_is_not_quantized_stays():
    g = Graph()
    g.node("Transpose", [g.quantized_x()], ["t"], perm=[1, 0])
    g.node("Relu", ["t"], ["r"])
    assert unchanged(g.model(["r"]))


def test_an_op_in_another_domain_stays():
    g = Graph()
    g.node("Add", [g.quantized_x(), g.weight("w", INT8_W[0, :3], W_SCALE, np.int8(0))], ["y"], domain="example.custom")
    g.q("y", "yq", Y_SCALE, np.int8(0))
    model = g.model(["yq"])
    model.opset_import.append(h.make_opsetid("example.custom", 1))
    assert unchanged(model)


def test_values_known_only_from_constant_nodes_named_value():
    """A ConstantOfShape also has a first attribute named value; its output is not a known
    scale (its shape comes at run time), so a dequantizer taking it stays."""
    g = Graph()
    g.node("ConstantOfShape", [g.known("shape", np.array([], np.int64))], ["s"], value=nh.from_array(np.array([0.05], np.float32)))
    g.node("QuantizeLinear", ["x", "s", g.known("z", np.int8(0))], ["xq"])
    g.node("DequantizeLinear", ["xq", "s", "z"], ["xd"])
    g.node("Transpose", ["xd"], ["t"], perm=[1, 0])
    g.node("QuantizeLinear", ["t", "s", "z"], ["tq"])
    assert unchanged(g.model(["tq"]))


def subgraph_reading(name: str) -> onnx.GraphProto:
    """A branch whose one node reads ``name`` from the graph around it."""
    return h.make_graph([h.make_node("Identity", [name], ["inner"])], "branch", [],
                        [h.make_tensor_value_info("inner", T.UNDEFINED, None)])  # fmt: skip


def test_an_op_output_also_read_inside_a_branch_is_not_fused():
    """The MatMul's output feeds its quantizer and an If's branch: both need the float value."""
    g = matmul_graph()
    g.node("If", [g.known("c", np.array(True))], ["branch_out"], then_branch=subgraph_reading("y"), else_branch=subgraph_reading("y"))
    assert unchanged(g.model(["out", "branch_out"]))


def test_an_op_output_read_only_inside_a_branch_is_not_fused():
    """Read by one branch only: its one use is not a quantizer."""
    g = Graph()
    g.node("MatMul", [g.quantized_x(), g.weight("w", INT8_W, W_SCALE, np.int8(0))], ["y"])
    g.node("If", [g.known("c", np.array(True))], ["branch_out"], then_branch=subgraph_reading("y"), else_branch=subgraph_reading("x"))
    assert unchanged(g.model(["branch_out"]))


def test_an_op_output_read_inside_a_graph_list_attribute_is_not_fused():
    """A node of another domain carrying a list of graphs (an attribute of type GRAPHS): each
    graph's reads count as uses too."""
    g = matmul_graph()
    g.node("Bodies", ["x"], ["bodies_out"], domain="example.custom", bodies=[subgraph_reading("x"), subgraph_reading("y")])
    model = g.model(["out", "bodies_out"])
    model.opset_import.append(h.make_opsetid("example.custom", 1))
    assert unchanged(model)


def test_a_blocked_gemm_weight_along_its_output_axis_stays():
    """Blocks along B's N axis (transB: axis 0) have a scale per block and column, which no QGemm takes."""
    g = Graph(opset=21)
    w = g.weight("w", INT8_W.T.copy(), np.full((2, 3), 0.02, np.float32), np.zeros((2, 3), np.int8), axis=0, block_size=2)
    g.node("Gemm", [g.quantized_x(), w], ["y"], transB=1)
    g.q("y", "yq", Y_SCALE, np.int8(0))
    assert unchanged(g.model(["yq"]))


def test_a_dequantizer_read_inside_a_nested_branch_is_kept():
    """A dequantizer whose fused op no longer reads it stays while a branch of a branch does."""
    g = matmul_graph()
    inner_if = h.make_node("If", ["c"], ["inner"], then_branch=subgraph_reading("xd"), else_branch=subgraph_reading("xd"))
    outer = h.make_graph([inner_if], "outer", [], [h.make_tensor_value_info("inner", T.UNDEFINED, None)])
    g.node("If", [g.known("c", np.array(True))], ["branch_out"], then_branch=outer, else_branch=outer)
    types = op_types(g.model(["out", "branch_out"]))
    assert types == ["QuantizeLinear", "DequantizeLinear", "QLinearMatMul", "DequantizeLinear", "If"]
