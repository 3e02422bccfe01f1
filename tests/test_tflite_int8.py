"""int8 TFLite models, written with the schema's object API, against TFLite Micro bit for bit.

Each model is imported, run by the reference interpreter and the checking flat interpreter,
and every output (every intermediate tensor is an output too) must equal TFLite Micro's exactly:
CONV_2D and DEPTHWISE_CONV_2D with per-channel and per-tensor filter scales and fused
activations, FULLY_CONNECTED per tensor and per channel, ADD with broadcasting, MAX_POOL_2D and
AVERAGE_POOL_2D, RESHAPE, a zero PAD taken into a convolution, QUANTIZE from float32 and from
int8 (requantization), DEQUANTIZE. Scales are picked so that sums land across the int8 range,
and the float32 requantization onnxruntime's kernels use is shown to differ from TFLite's on
these models (so the fixed-point path is what matches). ``cfmem check-mlir`` passes on these
models and on TFLM's hello_world_int8 and micro_speech_quantized (the JIT-run linalg lowering bit-identical to the flat
interpreter; the lowering's edge cases are in ``tests/test_tflite_linalg.py``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("tflite_micro")

from test_lower_to_linalg import needs_mlir  # noqa: E402
from test_tflite_import import import_bytes, run_both  # noqa: E402

from cfmem.dialects import nn_quant as nq  # noqa: E402
from cfmem.importers.tflite import TfliteImportError  # noqa: E402
from cfmem.interp.golden import run_function  # noqa: E402
from cfmem.testing import tflite_models as tm  # noqa: E402
from cfmem.testing.tflm_models import example_models  # noqa: E402
from cfmem.testing.tflite_writer import SubgraphWriter, TfliteWriter, options  # noqa: E402

WIDTH = 73.6  # the standard deviation of integers uniform in [-127, 127]
SPREAD = 1.0
"""An output scale covers this many standard deviations of its sum (of full-range operands)."""


class Net:
    """A subgraph of int8 tensors whose output scales follow the spread of their sums."""

    def __init__(self, sg: SubgraphWriter, seed: int):
        self.sg = sg
        self.rng = np.random.default_rng(seed)
        self.outputs: list[int] = []

    def q(self, name: str, shape, scale: float, zero: int = 0, output: bool = True) -> int:
        t = self.sg.tensor(name, shape, np.int8, scale=scale, zero_point=zero)
        if output:
            self.outputs.append(t)
        return t

    def scale_of(self, t: int) -> float:
        return float(self.sg.sg.tensors[t].quantization.scale[0])

    def filt(self, name: str, shape, channels_axis: int | None) -> tuple[int, np.ndarray]:
        data = self.rng.integers(-127, 128, shape).astype(np.int8)
        count = shape[channels_axis] if channels_axis is not None else 1
        scales = self.rng.uniform(0.005, 0.02, count).astype(np.float32)
        t = self.sg.const(name, data, scale=scales, zero_point=[0] * count, axis=channels_axis or 0)
        return t, scales

    def bias(self, name: str, count: int, in_scale: float, w_scales: np.ndarray) -> int:
        data = self.rng.integers(-2000, 2000, count).astype(np.int32)
        scales = (np.float32(in_scale) * np.resize(w_scales, count)).astype(np.float32)
        return self.sg.const(name, data, scale=scales, zero_point=[0] * count)

    def out_scale(self, in_scale: float, w_scales: np.ndarray, depth: int, spread: float = SPREAD) -> float:
        return float(in_scale * float(np.mean(w_scales)) * np.sqrt(depth) * WIDTH * WIDTH * spread / 127)


def conv_opts(kind: str, stride: int, padding: int, act: int, **more):
    return options(kind, padding=padding, strideH=stride, strideW=stride, dilationHFactor=1, dilationWFactor=1,
                   fusedActivationFunction=act, **more)  # fmt: skip


def int8_model(per_channel: bool, seed: int = 0) -> bytes:
    """float [1, 9, 9, 3] -> QUANTIZE -> PAD -> CONV_2D (RELU) -> DEPTHWISE_CONV_2D x2 (RELU6) ->
    AVERAGE_POOL_2D and MAX_POOL_2D -> ADD -> ADD of a constant (broadcast) -> RESHAPE ->
    FULLY_CONNECTED (RELU) -> FULLY_CONNECTED -> QUANTIZE (requantize) -> DEQUANTIZE."""
    w = TfliteWriter()
    net = Net(w.subgraph("main"), seed)
    sg = net.sg
    x = sg.tensor("image", (1, 9, 9, 3))
    xq = net.q("image_q", (1, 9, 9, 3), 0.02, 5)
    sg.op("QUANTIZE", [x], [xq])
    padded = net.q("padded", (1, 11, 11, 3), 0.02, 5, output=False)
    sg.op("PAD", [xq, sg.const("paddings", np.array([[0, 0], [1, 1], [1, 1], [0, 0]], np.int32))], [padded])
    f1, s1 = net.filt("f1", (8, 3, 3, 3), 0 if per_channel else None)
    c1 = net.q("c1", (1, 9, 9, 8), net.out_scale(0.02, s1, 27), -20)
    sg.op("CONV_2D", [padded, f1, net.bias("b1", 8, 0.02, s1)], [c1], conv_opts("Conv2DOptions", 1, 1, 1))
    f2, s2 = net.filt("f2", (1, 3, 3, 16), 3 if per_channel else None)
    c2 = net.q("c2", (1, 5, 5, 16), net.out_scale(net.scale_of(c1), s2, 9), 3)
    sg.op("DEPTHWISE_CONV_2D", [c1, f2, net.bias("b2", 16, net.scale_of(c1), s2)], [c2],
          conv_opts("DepthwiseConv2DOptions", 2, 0, 3, depthMultiplier=2))  # fmt: skip
    avg, mx = net.q("avg", (1, 3, 3, 16), net.scale_of(c2), 3), net.q("max", (1, 3, 3, 16), net.scale_of(c2), 3)
    pool = dict(padding=0, strideH=2, strideW=2, filterHeight=2, filterWidth=2, fusedActivationFunction=0)
    sg.op("AVERAGE_POOL_2D", [c2], [avg], options("Pool2DOptions", **pool))
    sg.op("MAX_POOL_2D", [c2], [mx], options("Pool2DOptions", **pool))
    total = net.q("sum", (1, 3, 3, 16), net.scale_of(c2) * 1.7, -7)
    sg.op("ADD", [avg, mx], [total], options("AddOptions", fusedActivationFunction=0))
    shift = sg.const("shift", net.rng.integers(-127, 128, (16,)).astype(np.int8), scale=0.03, zero_point=2)
    shifted = net.q("shifted", (1, 3, 3, 16), net.scale_of(total) * 1.3, 4)
    sg.op("ADD", [total, shift], [shifted], options("AddOptions", fusedActivationFunction=1))
    flat = net.q("flat", (1, 144), net.scale_of(shifted), 4)
    sg.op("RESHAPE", [shifted, sg.const("shape", np.array([1, 144], np.int32))], [flat], options("ReshapeOptions", newShape=[1, 144]))
    w1, sw1 = net.filt("w1", (24, 144), 0 if per_channel else None)
    h1 = net.q("h1", (1, 24), net.out_scale(net.scale_of(flat), sw1, 144, 0.4), -30)
    sg.op("FULLY_CONNECTED", [flat, w1, net.bias("fb1", 24, net.scale_of(flat), sw1)], [h1], options("FullyConnectedOptions", fusedActivationFunction=1))
    w2, sw2 = net.filt("w2", (10, 24), None)
    h2 = net.q("h2", (1, 10), net.out_scale(net.scale_of(h1), sw2, 24, 3.0), 1)
    sg.op("FULLY_CONNECTED", [h1, w2, -1], [h2], options("FullyConnectedOptions"))
    h3 = net.q("h3", (1, 10), net.scale_of(h2) * 1.9, -11)
    sg.op("QUANTIZE", [h2], [h3])
    y = sg.tensor("y", (1, 10))
    sg.op("DEQUANTIZE", [h3], [y])
    sg.io([x], [y, *net.outputs])
    return w.pack()


def strip_fixed_point(module) -> None:
    """Make every quantized op requantize as onnxruntime does (float32 ratio, half to even)."""
    for op in module.walk():
        for name in ("y_multiplier", "y_shift", "a_multiplier", "a_shift", "b_multiplier", "b_shift", "left_shift"):
            op.properties.pop(name, None)
        if isinstance(op, nq.QuantizeOp):
            op.properties.pop("rounding", None)


@pytest.mark.parametrize("per_channel", [True, False])
def test_int8_model_is_bit_exact(tmp_path, per_channel):
    data = int8_model(per_channel)
    _, imported = import_bytes(data, tmp_path)
    names = [op.name for op in imported.module.walk()]
    assert names.count("nn.qconv2d") == 2 and names.count("nn.qgemm") == 2 and names.count("nn.qadd") == 2
    assert "nn.pad" not in names  # the PAD joined the convolution
    differs = False
    for seed in range(3):
        x = np.random.default_rng(seed).uniform(-2.5, 2.5, (1, 9, 9, 3)).astype(np.float32)
        x.reshape(-1)[:4] = np.float32(0.02) * np.array([0.5, -0.5, 1.5, -2.5], np.float32)  # ties of QUANTIZE
        want = tm.tflm_outputs(data, [x])
        golden, flat, _ = run_both(imported, tmp_path, [x])
        for g, f, w in zip(golden, flat, want, strict=True):
            np.testing.assert_array_equal(g, w)
            np.testing.assert_array_equal(f, w)
        assert len(np.unique(want[1])) > 50  # the conv's output spreads over the int8 range
        stripped = imported.module.clone()
        strip_fixed_point(stripped)
        other = run_function(stripped, {"image": x}, base_dir=tmp_path).outputs.values()
        differs |= any(not np.array_equal(o, w) for o, w in zip(other, want))
    assert differs


def int8_io_model() -> bytes:
    """int8 in, int8 out: a per-channel 1x1 convolution without bias, then RESHAPE."""
    w = TfliteWriter()
    net = Net(w.subgraph("main"), 7)
    sg = net.sg
    x = net.q("x", (1, 4, 4, 6), 0.05, -3, output=False)
    f, s = net.filt("f", (5, 1, 1, 6), 0)
    c = net.q("c", (1, 4, 4, 5), net.out_scale(0.05, s, 6), 9, output=False)
    sg.op("CONV_2D", [x, f, -1], [c], conv_opts("Conv2DOptions", 1, 1, 0))
    y = net.q("y", (1, 80), net.scale_of(c), 9, output=False)
    sg.op("RESHAPE", [c, sg.const("shape", np.array([1, 80], np.int32))], [y], options("ReshapeOptions", newShape=[1, 80]))
    sg.io([x], [y])
    return w.pack()


def test_int8_inputs_and_outputs(tmp_path):
    data = int8_io_model()
    _, imported = import_bytes(data, tmp_path)
    x = np.random.default_rng(2).integers(-128, 128, (1, 4, 4, 6)).astype(np.int8)
    (want,) = tm.tflm_outputs(data, [x])
    golden, flat, _ = run_both(imported, tmp_path, [x])
    np.testing.assert_array_equal(golden[0], want)
    np.testing.assert_array_equal(flat[0], want)


def test_int16_softmax_is_refused(tmp_path):
    """int8 SOFTMAX to int8 and int16 is imported (``tests/test_tflite_softmax.py``,
    ``tests/test_tflite_svdf.py``); of int16, which TFLite Micro computes with lookup tables,
    is refused in one line."""
    w = TfliteWriter()
    net = Net(w.subgraph("main"), 1)
    x = net.sg.tensor("x", (1, 10), np.int16, scale=0.001, zero_point=0)
    y = net.sg.tensor("y", (1, 10), np.int16, scale=1 / 32768, zero_point=0)
    net.sg.op("SOFTMAX", [x], [y], options("SoftmaxOptions", beta=1.0))
    net.sg.io([x], [y])
    with pytest.raises(TfliteImportError, match=r"^operator 0 \(SOFTMAX\) of subgraph 0: input is int16, expected int8 or uint8$"):
        import_bytes(w.pack(), Path(tmp_path))


def reference_multiply(x: int, multiplier: int, shift: int) -> int:
    """TFLite's MultiplyByQuantizedMultiplier (double rounding), one int32 at a time, as C computes it."""
    left, right = max(shift, 0), max(-shift, 0)
    a = ((x * (1 << left) + 2**31) % 2**32) - 2**31  # int32 wrap
    if a == multiplier == -(2**31):
        high = 2**31 - 1
    else:
        ab = a * multiplier
        nudge = (1 << 30) if ab >= 0 else 1 - (1 << 30)
        total = ab + nudge
        high = abs(total) // 2**31 * (1 if total >= 0 else -1)  # C division truncates toward zero
    mask = (1 << right) - 1
    threshold = (mask >> 1) + (1 if high < 0 else 0)
    return (high >> right) + (1 if (high & mask) > threshold else 0)


def test_fixed_point_multiply_matches_the_scalar_definition():
    from cfmem.interp.kernels.fixed_point import multiply_by_quantized_multiplier, quantize_multiplier

    rng = np.random.default_rng(0)
    xs = np.concatenate([rng.integers(-(2**31), 2**31, 2000), [0, 1, -1, 2**31 - 1, -(2**31), 3 << 20, -(3 << 20)]])
    for real in (0.5, 0.25, 1 / 3, 0.0123, 1e-6, 1.5, 3.999, 7e-10):
        multiplier, shift = quantize_multiplier(real)
        assert abs(multiplier * 2.0 ** (shift - 31) - real) <= real * 2**-30
        got = multiply_by_quantized_multiplier(xs, multiplier, shift)
        assert [int(v) for v in got] == [reference_multiply(int(x), multiplier, shift) for x in xs]
    halves = np.arange(-40, 41) * 2**26  # products landing on halves after the shift
    got = multiply_by_quantized_multiplier(halves, 1 << 30, -3)
    assert [int(v) for v in got] == [reference_multiply(int(x), 1 << 30, -3) for x in halves]


@pytest.mark.parametrize("per_channel", [True, False])
def test_sliced_weights_keep_the_fixed_point_results(tmp_path, per_channel):
    """nn-slice-weights cuts the int8 convolutions and fully connected layers in two, per-channel
    multipliers and shifts sliced with the weights: the same bytes come out."""
    from xdsl.dialects.builtin import IntegerAttr, i64

    from cfmem.pipeline import rewritten_graph

    _, imported = import_bytes(int8_model(per_channel), tmp_path)
    marked = imported.module.clone()
    for op in marked.walk():
        if isinstance(op, nq.QConv2dOp | nq.QGemmOp):
            op.attributes["cfmem.slices"] = IntegerAttr(2, i64)
    sliced = rewritten_graph(marked, "nn-slice-weights")
    assert sum(isinstance(op, nq.QConcatOp) for op in sliced.walk()) == 4
    x = np.random.default_rng(4).uniform(-2.5, 2.5, (1, 9, 9, 3)).astype(np.float32)
    whole = run_function(imported.module, {"image": x}, base_dir=tmp_path).outputs.values()
    parts = run_function(sliced, {"image": x}, base_dir=tmp_path).outputs.values()
    for a, b in zip(whole, parts, strict=True):
        np.testing.assert_array_equal(a, b)


COMMAND_MODELS = {"hello_world_int8": lambda: example_models()["hello_world_int8"].read_bytes(),
                  "micro_speech_quantized": lambda: example_models()["micro_speech_quantized"].read_bytes(),
                  "int8_per_channel": lambda: int8_model(True), "int8_io": int8_io_model}  # fmt: skip
"""The models ``cfmem check-mlir`` is run on: TFLM's examples (micro_speech with an int8 SOFTMAX;
person_detect and keyword_scrambled_8bit pass too but take some 20 s each) and the ones built
here (per tensor as well as per channel: ``tests/test_tflite_linalg.py``)."""


@needs_mlir
@pytest.mark.parametrize("name", COMMAND_MODELS)
def test_check_mlir_passes_on_int8_models(tmp_path, cfmem, name):
    """``cfmem check-mlir`` lowers TFLite's fixed-point arithmetic (nn-lower-to-linalg), JIT-runs
    it and finds it bit-identical to the flat interpreter, which matches the reference."""
    source = tmp_path / f"{name}.tflite"
    source.write_bytes(COMMAND_MODELS[name]())
    assert cfmem("import", str(source), "-o", str(tmp_path / "m.mlir")).returncode == 0
    res = cfmem("check-mlir", str(tmp_path / "m.mlir"))
    assert res.returncode == 0, res.stderr
    assert "#0   bit-identical      0 of bound" in res.stdout and "every run agrees" in res.stdout
