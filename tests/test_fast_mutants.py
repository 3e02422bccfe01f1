"""Fast, targeted cases for code whose other tests take minutes: the QLinearConv weight zero
point's axis, where an evicted activation's copy is waited for, and nn-place's budget checks
for resident weights and its shrink step. Each builds a few ops and runs in about a second."""

from __future__ import annotations

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto as T  # noqa: E402
from onnx import helper as h  # noqa: E402
from onnx import numpy_helper as nh  # noqa: E402

from cfmem.importers.onnx_import import Importer  # noqa: E402
from cfmem.importers.onnx_qdq import fuse_qdq  # noqa: E402
from cfmem.interp.golden import run_function  # noqa: E402

# --- QLinearConv: a weight zero point per output channel ------------------------------------

RNG = np.random.default_rng(5)
X_SCALE, X_ZERO, Y_SCALE, Y_ZERO = np.float32(0.05), np.int8(3), np.float32(0.3), np.int8(-2)
W = RNG.integers(-100, 100, (3, 2, 3, 3)).astype(np.int8)  # 3 output channels, 2 input channels
W_SCALES = np.array([0.01, 0.02, 0.015], np.float32)
W_ZEROS = np.array([-20, 0, 35], np.int8)


def qdq_conv(w: np.ndarray, scales: np.ndarray, zeros: np.ndarray, axis: int | None) -> onnx.ModelProto:
    """x quantized and dequantized, a Conv with weights dequantized per channel (along ``axis``,
    None: ONNX's default, 1), its result quantized and dequantized: a QDQ group to fuse."""
    dq_w = {} if axis is None else {"axis": axis}
    inits = {"xs": X_SCALE, "xz": X_ZERO, "w": w, "ws": scales, "wz": zeros, "ys": Y_SCALE, "yz": Y_ZERO}
    nodes = [
        h.make_node("QuantizeLinear", ["x", "xs", "xz"], ["xq"]),
        h.make_node("DequantizeLinear", ["xq", "xs", "xz"], ["xd"]),
        h.make_node("DequantizeLinear", ["w", "ws", "wz"], ["wd"], **dq_w),
        h.make_node("Conv", ["xd", "wd"], ["c"], pads=[1, 1, 1, 1]),
        h.make_node("QuantizeLinear", ["c", "ys", "yz"], ["yq"]),
        h.make_node("DequantizeLinear", ["yq", "ys", "yz"], ["y"]),
    ]
    graph = h.make_graph(nodes, "g", [h.make_tensor_value_info("x", T.FLOAT, [1, w.shape[1], 4, 4])],
                         [h.make_tensor_value_info("y", T.FLOAT, None)],
                         [nh.from_array(np.asarray(v), n) for n, v in inits.items()])  # fmt: skip
    return h.make_model(graph, opset_imports=[h.make_opsetid("", 17)], ir_version=8)


def qlinear_conv_reference(x: np.ndarray) -> np.ndarray:
    """QLinearConv's numbers, the weight zero point and scale taken per output channel."""
    xq = np.clip(np.rint(x / X_SCALE).astype(np.int64) + X_ZERO, -128, 127)
    padded = np.pad(xq - X_ZERO, ((0, 0), (0, 0), (1, 1), (1, 1)))
    w = W.astype(np.int64) - W_ZEROS.astype(np.int64).reshape(3, 1, 1, 1)
    acc = np.zeros((1, 3, 4, 4), np.int64)
    for i in range(4):
        for j in range(4):
            acc[0, :, i, j] = np.einsum("chw,ochw->o", padded[0, :, i : i + 3, j : j + 3], w)
    ratio = (np.float32(1.0) * X_SCALE * W_SCALES / Y_SCALE).reshape(1, 3, 1, 1)
    yq = np.clip(np.rint(acc.astype(np.float32) * ratio).astype(np.int64) + Y_ZERO, -128, 127)
    return ((yq - Y_ZERO) * Y_SCALE).astype(np.float32)


def test_a_conv_with_a_zero_point_per_output_channel_fuses_and_centres_each_channel_by_its_own(tmp_path):
    model = qdq_conv(W, W_SCALES, W_ZEROS, axis=0)
    fused = fuse_qdq(model)
    conv = next(n for n in fused.graph.node if n.op_type == "QLinearConv")
    assert conv.input[4:6] == ["ws", "wz"]  # the weight's own scale and zero point, per channel
    imported = Importer(model, "w.bin").import_graph({}, {})
    (tmp_path / "w.bin").write_bytes(imported.blob)
    assert any(op.name == "nn.qconv2d" for op in imported.module.walk())
    x = (RNG.standard_normal((1, 2, 4, 4)) * 2).astype(np.float32)
    got = run_function(imported.module, {"x": x}, base_dir=tmp_path).outputs["y"]
    np.testing.assert_array_equal(got, qlinear_conv_reference(x))


@pytest.mark.parametrize(("axis", "fused"), [(0, True), (-4, True), (1, False), (None, False)])
def test_conv_weights_fuse_only_when_dequantized_along_output_channels(axis, fused):
    """Three output and three input channels, so every axis fits the scales; ONNX's default axis is 1."""
    w = RNG.integers(-100, 100, (3, 3, 3, 3)).astype(np.int8)
    types = [n.op_type for n in fuse_qdq(qdq_conv(w, W_SCALES, W_ZEROS, axis)).graph.node]
    assert ("QLinearConv" in types) == fused and ("Conv" in types) == (not fused)
