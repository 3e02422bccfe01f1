"""Fast, targeted cases for code whose other tests take minutes: the QLinearConv weight zero
point's axis, where an evicted activation's copy is waited for, and nn-place's budget checks
for resident weights and its shrink step. Each builds a few ops and runs in about a second."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

from cfmem.importers.onnx import onnx_importer
from cfmem.importers.onnx.qdq import fuse_qdq
from cfmem.interp.golden import run_function

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
    imported = onnx_importer(model, "w.bin").import_graph({}, {})
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


# --- nn-insert-dma: where an evicted activation's copy is waited for --------------------------

EVICTIONS = """
func.func @main(%x: tensor<1x64xf32>, %c: tensor<1xi1>) -> tensor<1x64xf32> {
  %a = nn.relu %x : (tensor<1x64xf32>) -> tensor<1x64xf32>
  %b = nn.tanh %x : (tensor<1x64xf32>) -> tensor<1x64xf32>
  %d = nn.add %a, %b : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
  %e = nn.sigmoid %d : (tensor<1x64xf32>) -> tensor<1x64xf32>
  %f = nn.mul %e, %d : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
  %g = nn.tanh %f : (tensor<1x64xf32>) -> tensor<1x64xf32>
  %r = nn.if %c : tensor<1xi1> -> (tensor<1x64xf32>) {
    %h = nn.relu %g : (tensor<1x64xf32>) -> tensor<1x64xf32>
    nn.yield %h : tensor<1x64xf32>
  } else {
    nn.yield %f : tensor<1x64xf32>
  }
  %y = nn.add %r, %b : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
  func.return %y : tensor<1x64xf32>
}
"""
"""%a is read two ops on (its copy can overlap %b), %e by the next op, %g inside the next op (an if)."""


def test_an_evicted_copy_is_waited_for_after_the_next_op_unless_that_op_reads_it(tmp_path):
    from cfmem.dialects.nn_dma import DmaWaitOp
    from cfmem.interp.flat import run_flat
    from cfmem.ir_io import make_context, parse_module
    from cfmem.passes.insert_dma import InsertDmaPass
    from cfmem.passes.placement import set_offchip
    from cfmem.pipeline import apply_pipeline, lower_model

    module, _ = parse_module(EVICTIONS)
    named = {op.results[0].name_hint: op for op in module.walk() if op.results and op.results[0].name_hint}
    for name in ("a", "e", "g"):
        set_offchip(named[name], True, evict=True)
    placed = module.clone()
    InsertDmaPass().apply(make_context(), placed)
    waits = {w.results[0].name_hint.removesuffix("_off"): w for w in placed.walk() if isinstance(w, DmaWaitOp)
             and w.results[0].name_hint and w.results[0].name_hint.endswith("_off")}  # fmt: skip
    assert set(waits) == {"a", "e", "g"}
    around = {name: _computing_around(wait) for name, wait in waits.items()}
    assert around["a"] == ("b", "d")  # the copy of %a overlaps %b, and is waited for before %d reads it
    assert around["e"] == ("e", "f")  # %f reads %e: waited for right before it
    assert around["g"] == ("g", "r")  # the if's then branch reads %g: waited for before the if
    apply_pipeline(placed, "nn-check-dma")
    flat = lower_model(module, "nn-insert-dma,nn-plan-memory,nn-check-dma", tmp_path)
    x = np.linspace(-2, 2, 64, dtype=np.float32).reshape(1, 64)
    for taken in (True, False):
        inputs = {"x": x, "c": np.array([taken])}
        np.testing.assert_array_equal(run_flat(flat, inputs).outputs["y"], run_function(module, inputs).outputs["y"])


def _computing_around(op) -> tuple[str, str]:
    """The nearest ops before and after ``op`` in its block that are no DMA op, by result name."""

    def nearest(step) -> str:
        other = step(op)
        while other.name.startswith("nn.dma"):
            other = step(other)
        return other.results[0].name_hint

    return nearest(lambda o: o.prev_op), nearest(lambda o: o.next_op)


# --- nn-place: resident weights within the budget, and the shrink step -------------------------

THREE_LAYERS = """
nn.global @w size(8192) seed(1)
func.func @main(%x: tensor<1x16xf32>) -> tensor<1x16xf32> {
  %blob = nn.get_global @w : tensor<8192xi8>
  %w1 = nn.view %blob[0] bytes(1024) : tensor<8192xi8> to tensor<16x16xf32>
  %w2 = nn.view %blob[1024] bytes(2048) : tensor<8192xi8> to tensor<16x32xf32>
  %w3 = nn.view %blob[3072] bytes(2048) : tensor<8192xi8> to tensor<32x16xf32>
  %a = nn.matmul %x, %w1 : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>
  %b = nn.matmul %a, %w2 : (tensor<1x16xf32>, tensor<16x32xf32>) -> tensor<1x32xf32>
  %c = nn.matmul %b, %w3 : (tensor<1x32xf32>, tensor<32x16xf32>) -> tensor<1x16xf32>
  func.return %c : tensor<1x16xf32>
}
"""
"""Weights of 1, 2 and 2 KiB: streamed whole through one buffer the function needs 2240 bytes."""

CHAIN = """
func.func @main(%x: tensor<1x256xf32>) -> tensor<1x256xf32> {
  %a = nn.relu %x : (tensor<1x256xf32>) -> tensor<1x256xf32>
  %b = nn.tanh %a : (tensor<1x256xf32>) -> tensor<1x256xf32>
  %c = nn.sigmoid %b : (tensor<1x256xf32>) -> tensor<1x256xf32>
  %d = nn.relu %c : (tensor<1x256xf32>) -> tensor<1x256xf32>
  %e = nn.tanh %d : (tensor<1x256xf32>) -> tensor<1x256xf32>
  func.return %e : tensor<1x256xf32>
}
"""
"""Four 1 KiB activations, one live at each step: every step is a peak of 1024 bytes."""


def placement_search(text: str, budget: int):
    """nn-place's search for @main of ``text`` in ``budget`` bytes, slicing allowed; and the key
    of each op by its result's name."""
    from xdsl.dialects.builtin import IntegerAttr, i64

    from cfmem.dma.timing import Chip
    from cfmem.ir_io import parse_module
    from cfmem.passes.liveness import functions
    from cfmem.passes.place_measure import KEY_ATTR, _slicer
    from cfmem.passes.place_search import _Search

    module, _ = parse_module(text)
    keyed = [op for fn in functions(module) for op in fn.walk() if op is not fn]
    for k, op in enumerate(keyed):
        op.attributes[KEY_ATTR] = IntegerAttr(k, i64)
    keys = {op.results[0].name_hint: k for k, op in enumerate(keyed) if op.results and op.results[0].name_hint}
    return _Search(module, "main", Chip(), budget, _slicer()), keys


def test_weights_are_made_resident_only_while_they_fit_the_budget():
    """In 3500 bytes, %w1 resident (1 KiB more than streamed) fits; %w2 or %w3 as well would
    hold 2 KiB more while a 2 KiB buffer still streams the other: that is over the budget,
    though faster."""
    from cfmem.passes.place_measure import Config

    search, keys = placement_search(THREE_LAYERS, 3500)
    streamed = search.measure(Config(depth=1))
    assert streamed.need == 2240
    placed = search.add_resident(streamed)
    assert placed.need <= 3500
    assert placed.config.weights == ((keys["a"], "resident"),)
    assert placed.cycles < streamed.cycles
    more = search.measure(placed.config.with_weight(keys["b"], "resident"))
    assert more.need > 3500 and more.cycles < placed.cycles  # faster: only the budget keeps it out
    exact, _ = placement_search(THREE_LAYERS, placed.need)  # a budget of exactly what it needs
    assert exact.add_resident(exact.measure(Config(depth=1))).config == placed.config
    roomy, _ = placement_search(THREE_LAYERS, 6000)
    assert len(roomy.add_resident(roomy.measure(Config(depth=1))).config.weights) == 3


def test_shrinking_takes_the_move_with_the_least_latency_per_byte_saved():
    """2240 bytes into 2000: halving the two 2 KiB weights' transfers saves 896 bytes for a few
    hundred cycles; reading them off chip or moving an activation off costs more per byte."""
    from cfmem.passes.place_measure import Config

    search, keys = placement_search(THREE_LAYERS, 2000)
    shrunk = search.shrink(search.measure(Config(depth=1)))
    assert shrunk.need <= 2000
    assert shrunk.config == Config(depth=1, slices=((keys["b"], 2), (keys["c"], 2)))
    assert list(search.reasons) == [("weights", keys["b"])] or list(search.reasons) == [("weights", keys["c"])]
    assert search.shrink(shrunk) is shrunk  # it fits: nothing more to do


def test_shrinking_clears_a_plateau_of_equal_peaks_one_activation_at_a_time():
    """Moving one of the chain's activations off chip leaves the other peaks: no move lowers the
    need until the last one goes, and each is taken all the same."""
    from cfmem.passes.place_measure import Config

    search, keys = placement_search(CHAIN, 1000)
    start = search.measure(Config(depth=1))
    assert start.need == 1024
    shrunk = search.shrink(start)
    assert shrunk.need <= 1000
    assert shrunk.config.offchip == {keys[n] for n in "abcd"}
    assert {key for _, key in search.reasons} == {keys[n] for n in "abcd"}


# --- the pipeline checks dominance after its passes ---------------------------------------------


def test_a_pass_that_moves_a_use_before_its_definition_is_caught_after_the_pipeline(monkeypatch):
    """xDSL's verifier accepts a use ahead of its definition; a pass that makes one (as a
    transfer started before the op making what it copies once did) must not go unnoticed."""
    from dataclasses import dataclass

    from xdsl.passes import ModulePass

    import cfmem.pipeline as pipeline
    from cfmem.ir_io import CfmemError, parse_module

    @dataclass(frozen=True)
    class MoveLastOpFirst(ModulePass):
        name = "test-move-last-op-first"

        def apply(self, ctx, op) -> None:
            body = next(o for o in op.walk() if o.name == "func.func").body.block
            last = body.last_op.prev_op
            last.detach()
            body.insert_op_before(last, body.first_op)

    monkeypatch.setitem(pipeline.PASSES, MoveLastOpFirst.name, lambda: MoveLastOpFirst)
    module, _ = parse_module(
        "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  %a = nn.relu %x : (tensor<4xf32>) -> tensor<4xf32>\n"
        "  %b = nn.tanh %a : (tensor<4xf32>) -> tensor<4xf32>\n"
        "  func.return %b : tensor<4xf32>\n}\n"
    )
    with pytest.raises(CfmemError, match=r"'nn.tanh' uses %a where its definition does not dominate the use \(after 'test-move-last-op-first'\)"):
        pipeline.apply_pipeline(module, MoveLastOpFirst.name)
