"""TFLite import against TFLite Micro's own runs: openwakeword 0.5.1's eight float models
(fetched with pip at test time), TFLM's sine example, and small models with IF and WHILE
written with the schema's object API. Each is imported, run by the reference interpreter and
by the checking flat interpreter (after nn-insert-dma and nn-plan-memory), and both must match
TFLite Micro element by element: bit for bit where no exponential or logarithm is computed
(the imported ops add their float32 sums in TFLite Micro's order, ``sum_order =
"sequential"``), else within 1e-5 of each element (numpy's float32 ``exp`` and ``log`` round
differently from the C library's in the last bit). A model whose products cancel shows that
numpy's order of the same sums is 1e-4 and more away. Also: NHWC handled without transposes
between convolutions, refusals and malformed files as one-line errors of the ``cfmem import``
command.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("tflite_micro")

from cfmem.importers.tflite import TfliteImportError, tflite_importer  # noqa: E402
from cfmem.interp.flat import run_flat  # noqa: E402
from cfmem.interp.golden import run_function  # noqa: E402
from cfmem.differential import run_mlir  # noqa: E402
from cfmem.ir_io import make_context, parse_module  # noqa: E402
from cfmem.mlir_check import mlir_available  # noqa: E402
from cfmem.mlir_check.prepare import prepare_for_jit  # noqa: E402
from cfmem.passes.linalg import LowerToLinalgPass  # noqa: E402
from cfmem.pipeline import lower_model  # noqa: E402
from cfmem.testing import tflite_models as tm  # noqa: E402
from cfmem.testing.tflite_writer import TfliteWriter, options  # noqa: E402
from cfmem.tflite.model_file import parse_tflite  # noqa: E402

TOLERANCE = 1e-5
"""Largest difference from TFLite Micro of an output element, relative to the element."""

INPUT_SHAPES = {"melspectrogram": {"serving_default_input:0": (1, 1280)}}
"""Models whose dynamic input dimensions need a size TFLite Micro cannot take from the file."""


def import_bytes(data: bytes, tmp_path: Path, shapes=None):
    """The importer after importing ``data`` and the imported model; the blob is written to ``tmp_path``."""
    importer = tflite_importer(parse_tflite(data), data, "w.bin")
    imported = importer.import_model(shapes or {})
    (tmp_path / "w.bin").write_bytes(imported.blob)
    return importer, imported


def feeds(module, inputs: list[np.ndarray]) -> dict[str, np.ndarray]:
    fn = next(op for op in module.ops if op.name == "func.func")
    names = [a.data for a in fn.attributes["cfmem.input_names"].data]
    return dict(zip(names, inputs, strict=True))


def run_both(imported, tmp_path: Path, inputs: list[np.ndarray], module=None):
    """The outputs of the reference interpreter and of the checking flat interpreter, in order,
    and the branches each took (of ``module``, by default the imported one)."""
    module = module or imported.module
    golden = run_function(module, feeds(module, inputs), base_dir=tmp_path)
    flat = run_flat(lower_model(module, "nn-insert-dma,nn-plan-memory", tmp_path), feeds(module, inputs), check=True)
    assert flat.branches == golden.branches
    return list(golden.outputs.values()), list(flat.outputs.values()), golden


def error(got: np.ndarray, want: np.ndarray) -> float:
    """The largest difference of an element over its magnitude (at least 1e-30); 0 where equal."""
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, got.dtype, want.shape, want.dtype)
    got64, want64 = got.astype(np.float64), want.astype(np.float64)
    relative = np.abs(got64 - want64) / np.maximum(np.abs(want64), 1e-30)
    return float(np.where(got64 == want64, 0.0, relative).max(initial=0.0))


def identical(got: np.ndarray, want: np.ndarray) -> bool:
    """The same bits (a float's sign of zero included)."""
    return got.shape == want.shape and got.dtype == want.dtype and got.tobytes() == want.tobytes()


def assert_matches_tflm(data: bytes, imported, tmp_path: Path, inputs: list[np.ndarray], tflm_model: bytes | None = None,
                        exact: bool | tuple[int, ...] = False):  # fmt: skip
    """Both interpreters' outputs within ``TOLERANCE`` of TFLite Micro's, element by element;
    bit for bit where ``exact`` (True: every output; else the outputs at those positions)."""
    want = tm.tflm_outputs(tflm_model or data, inputs)
    golden, flat, run = run_both(imported, tmp_path, inputs)
    for k, (g, f, w) in enumerate(zip(golden, flat, want, strict=True)):
        if exact is True or (exact and k in exact):
            assert identical(g, w) and identical(f, w), (k, error(g, w), error(f, w))
        assert error(g, w) <= TOLERANCE, (k, error(g, w))
        assert error(f, w) <= TOLERANCE, (k, error(f, w))
    return run


# --- openwakeword and TFLM's sine model ----------------------------------------------------


def openwakeword(name: str) -> Path:
    try:
        return tm.openwakeword_model(name)
    except RuntimeError as err:
        pytest.skip(f"openwakeword {tm.OPENWAKEWORD_VERSION} cannot be downloaded: {err}")


EXACT_MODELS = ("embedding_model",)
"""openwakeword models that compute no exponential or logarithm: TFLite Micro's bits."""


def model_inputs(name: str, shapes, seed: int) -> list[np.ndarray]:
    """Random inputs; the wake-word models' features at varied scales and offsets (so that
    hey_jarvis takes both branches of its IF), melspectrogram's audio as 16-bit samples."""
    rng = np.random.default_rng(seed)
    if name == "melspectrogram":
        return [rng.uniform(-2000, 2000, shapes).astype(np.float32)]
    return [(rng.standard_normal(shapes) * rng.uniform(0.1, 10) + rng.uniform(-5, 5)).astype(np.float32)]


@pytest.mark.parametrize("name", tm.OPENWAKEWORD_MODELS)
def test_openwakeword_model_matches_tflm(name, tmp_path):
    data = openwakeword(name).read_bytes()
    importer, imported = import_bytes(data, tmp_path, INPUT_SHAPES.get(name))
    tflm_model = tm.with_shapes(data, importer.shapes) if name in INPUT_SHAPES else data
    (input_index,) = parse_tflite(data).subgraphs[0].inputs
    shape = importer.shapes[(0, int(input_index))]
    branches = set()
    for seed in range(8 if name == "hey_jarvis_v0.1" else 2):
        run = assert_matches_tflm(data, imported, tmp_path, model_inputs(name, shape, seed), tflm_model, exact=name in EXACT_MODELS)
        branches.update(taken for _, taken in run.branches)
    if name == "hey_jarvis_v0.1":
        assert branches == {True, False}


def test_convolutions_read_nchw_without_transposes(tmp_path):
    """embedding_model: 20 convolutions, their activations and 5 poolings in NCHW; the NHWC input
    (one channel) and the 1x1 output become NCHW and back by reshapes, which move no element."""
    _, imported = import_bytes(openwakeword("embedding_model").read_bytes(), tmp_path)
    names = [op.name for op in imported.module.walk()]
    assert names.count("nn.conv2d") == 20 and names.count("nn.max_pool2d") == 5
    assert "nn.transpose" not in names and "nn.pad" not in names  # the PAD joined the first convolution
    assert names.count("nn.reshape") == 2


def test_dynamic_input_size_comes_from_the_file_unless_given(tmp_path):
    """melspectrogram's input is [-1, -1]: the file's [1, 1] is too short for its 512-sample
    window, and the error says how to fix it."""
    data = openwakeword("melspectrogram").read_bytes()
    with pytest.raises(TfliteImportError) as info:
        import_bytes(data, tmp_path)
    message = str(info.value)
    assert "\n" not in message and message.startswith("operator 3 (CONV_2D) of subgraph 0: ")
    assert "'serving_default_input:0' [1, 1]" in message and "--input-shape" in message


def test_sine_float_matches_tflm(tmp_path):
    data = tm.sine_float_model().read_bytes()
    _, imported = import_bytes(data, tmp_path)
    for x in np.linspace(0, 2 * np.pi, 7, dtype=np.float32):
        assert_matches_tflm(data, imported, tmp_path, [np.array([[x]], np.float32)], exact=True)


# --- IF and WHILE -------------------------------------------------------------------------


def conv_options(**fields):
    return options("Conv2DOptions", **{"padding": 0, "strideH": 1, "strideW": 1, "dilationHFactor": 1, "dilationWFactor": 1, **fields})


def if_model() -> bytes:
    """A convolution whose mean picks one of two subgraphs for its result (a convolution, or a
    pooling and a transpose), each yielding NHWC [1, 4, 4, 3]; another convolution after the IF."""
    rng = np.random.default_rng(3)
    w = TfliteWriter()
    main, then, other = w.subgraph("main"), w.subgraph("then"), w.subgraph("else")
    x = main.tensor("image", (1, 4, 4, 2))
    f = main.const("f", rng.standard_normal((3, 3, 3, 2)).astype(np.float32))
    c = main.tensor("c", (1, 4, 4, 3))
    main.op("CONV_2D", [x, f, -1], [c], conv_options(fusedActivationFunction=1))
    axes = main.const("axes", np.array([0, 1, 2, 3], np.int32))
    m, zero, cond = main.tensor("m", ()), main.const("threshold", np.array(1.0, np.float32)), main.tensor("cond", (), np.bool_)
    main.op("MEAN", [c, axes], [m], options("ReducerOptions", keepDims=False))
    main.op("GREATER", [m, zero], [cond])
    branch_out, y = main.tensor("branch_out", (1, 4, 4, 3)), main.tensor("y", (1, 4, 4, 2))
    main.op("IF", [cond, c, f], [branch_out], options("IfOptions", thenSubgraphIndex=1, elseSubgraphIndex=2))
    g = main.const("g", rng.standard_normal((2, 1, 1, 3)).astype(np.float32))
    main.op("CONV_2D", [branch_out, g, main.const("g_bias", np.array([0.5, -0.5], np.float32))], [y], conv_options())
    main.io([x], [y])
    tc, tf = then.tensor("c", (1, 4, 4, 3)), then.tensor("f", (3, 3, 3, 2))
    tw, ty = then.const("w", rng.standard_normal((3, 3, 3, 3)).astype(np.float32)), then.tensor("y", (1, 4, 4, 3))
    then.op("CONV_2D", [tc, tw, -1], [ty], conv_options(fusedActivationFunction=3))
    then.io([tc, tf], [ty])
    ec, ef = other.tensor("c", (1, 4, 4, 3)), other.tensor("f", (3, 3, 3, 2))
    pooled, perm, ey = other.tensor("pooled", (1, 4, 4, 3)), other.const("perm", np.array([0, 2, 1, 3], np.int32)), other.tensor("y", (1, 4, 4, 3))
    other.op("MAX_POOL_2D", [ec], [pooled], options("Pool2DOptions", padding=0, strideH=1, strideW=1, filterHeight=2, filterWidth=2))
    other.op("TRANSPOSE", [pooled, perm], [ey])
    other.io([ec, ef], [ey])
    return w.pack()


def test_if_with_convolutions_matches_tflm(tmp_path):
    data = if_model()
    _, imported = import_bytes(data, tmp_path)
    names = [op.name for op in imported.module.walk()]
    assert names.count("nn.if") == 1 and names.count("nn.conv2d") == 3
    branches = set()
    for seed, scale in enumerate((0.05, 0.2, 1.0, 3.0)):
        x = (np.random.default_rng(seed).standard_normal((1, 4, 4, 2)) * scale).astype(np.float32)
        run = assert_matches_tflm(data, imported, tmp_path, [x], exact=True)
        branches.update(taken for _, taken in run.branches)
    assert branches == {True, False}


def while_model(swap: bool = False) -> bytes:
    """``while i < 5: i += 1; x = relu(x * k + x)`` with x [2, 3]; ``swap`` carries two more
    values that the body exchanges each iteration."""
    w = TfliteWriter()
    main, cond, body = w.subgraph("main"), w.subgraph("cond"), w.subgraph("body")
    extra = 2 if swap else 0

    def loop_values(sg):
        return [sg.tensor("i", (1,)), sg.tensor("x", (2, 3))] + [sg.tensor(f"s{k}", (2,)) for k in range(extra)]

    x = main.tensor("x", (2, 3))
    inits = [main.const("i0", np.array([0.0], np.float32)), x]
    inits += [main.const(f"s{k}", np.array([k, 10 + k], np.float32)) for k in range(extra)]
    outs = [main.tensor("i_out", (1,)), main.tensor("x_out", (2, 3))] + [main.tensor(f"s{k}_out", (2,)) for k in range(extra)]
    main.op("WHILE", inits, outs, options("WhileOptions", condSubgraphIndex=1, bodySubgraphIndex=2))
    main.io([x], outs[1:] + outs[:1])
    cv = loop_values(cond)
    go = cond.tensor("go", (1,), np.bool_)
    cond.op("LESS", [cv[0], cond.const("limit", np.array([5.0], np.float32))], [go])
    cond.io(cv, [go])
    bv = loop_values(body)
    ni, t, nx = body.tensor("i_next", (1,)), body.tensor("t", (2, 3)), body.tensor("x_next", (2, 3))
    body.op("ADD", [bv[0], body.const("one", np.array([1.0], np.float32))], [ni], options("AddOptions"))
    body.op("MUL", [bv[1], body.const("k", np.full((3,), 0.5, np.float32))], [t], options("MulOptions"))
    body.op("ADD", [t, bv[1]], [nx], options("AddOptions", fusedActivationFunction=1))
    body.io(bv, [ni, nx] + bv[2:][::-1])
    return w.pack()


@pytest.mark.parametrize("swap", [False, True])
def test_while_matches_tflm(tmp_path, swap):
    data = while_model(swap)
    _, imported = import_bytes(data, tmp_path)
    assert [op.name for op in imported.module.walk()].count("nn.loop") == 1
    run = assert_matches_tflm(data, imported, tmp_path, [np.random.default_rng(1).standard_normal((2, 3)).astype(np.float32)], exact=True)
    assert run.loops == [("loop#0", 5)]


# --- refusals and malformed files -------------------------------------------------------------


def unsupported_model() -> bytes:
    w = TfliteWriter()
    main = w.subgraph("main")
    x, y = main.tensor("x", (4,)), main.tensor("y", (4,))
    main.op("RELU", [x], [y])
    z = main.tensor("z", (4,))
    main.op("REVERSE_V2", [y, main.const("axis", np.array([0], np.int32))], [z])
    main.io([x], [z])
    return w.pack()


def cfmem_import(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(Path(__file__).parents[1]), os.environ.get("PYTHONPATH")]))}
    return subprocess.run([sys.executable, "-m", "cfmem.tools.cli", "import", *args], capture_output=True, text=True, cwd=cwd, env=env)


def test_unsupported_operator_is_one_line_naming_it(tmp_path):
    (tmp_path / "m.tflite").write_bytes(unsupported_model())
    proc = cfmem_import("m.tflite", "-o", "m.mlir", cwd=tmp_path)
    assert proc.returncode == 1 and not (tmp_path / "m.mlir").exists()
    assert proc.stderr == "cfmem: m.tflite: error: operator 1 (REVERSE_V2) of subgraph 0: REVERSE_V2 is not supported by cfmem import\n"


def test_import_command_writes_module_and_weights(tmp_path):
    (tmp_path / "model.bin").write_bytes(if_model())  # recognized by its TFL3 identifier
    proc = cfmem_import("model.bin", "-o", "m.mlir", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == "cfmem: wrote m.mlir and m.weights.bin (768 bytes of weights); 1 if(s), 0 loop(s)\n"
    assert 'nn.global @weights size(768) file("m.weights.bin", 0)' in (tmp_path / "m.mlir").read_text()
    proc = cfmem_import("model.bin", "-o", "m.mlir", "--dim", "n=1", cwd=tmp_path)
    assert proc.returncode == 1 and proc.stderr.startswith("cfmem: --dim: error: --dim applies to ONNX models")


def malformed(data: bytes, how: str) -> bytes:
    if how == "truncated":
        return data[: len(data) // 2]
    if how == "wrong magic":
        return data[:4] + b"ONNX" + data[8:]
    if how == "root offset past the end":
        return (len(data) + 16).to_bytes(4, "little") + data[4:]
    root = int.from_bytes(data[:4], "little")  # "bad vector offset": the model's subgraphs (field 2) lie outside
    vtable = root - int.from_bytes(data[root : root + 4], "little", signed=True)
    field = root + int.from_bytes(data[vtable + 8 : vtable + 10], "little")
    return data[:field] + (len(data) * 4).to_bytes(4, "little") + data[field + 4 :]


@pytest.mark.parametrize("how, expected", [
    ("truncated", "malformed TFLite model: operatorCodes points past the end of the file (1582 bytes)"),
    ("wrong magic", "not a TFLite model: file identifier b'ONNX', expected b'TFL3'"),
    ("root offset past the end", "malformed TFLite model: root offset"),
    ("bad vector offset", "malformed TFLite model"),
])  # fmt: skip
def test_malformed_file_is_one_line_error(tmp_path, how, expected):
    data = malformed(tm.sine_float_model().read_bytes(), how)
    (tmp_path / "bad.tflite").write_bytes(data)
    proc = cfmem_import("bad.tflite", "-o", "m.mlir", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.startswith(f"cfmem: bad.tflite: error: {expected}") and proc.stderr.count("\n") == 1, proc.stderr


# --- float operators the openwakeword models lack ----------------------------------------------


def float_ops_model() -> bytes:
    """A PAD read by a convolution and a pooling, CONV_2D (SAME, stride 2, RELU6), a dilated
    DEPTHWISE_CONV_2D, LEAKY_RELU of a negative slope, CONCATENATION of NCHW values, MEAN and
    REDUCE_MAX over NCHW values, AVERAGE_POOL_2D (SAME), FULLY_CONNECTED on an NCHW value
    (a convolution over the whole image), SOFTMAX with beta (output 10), SUB of a broadcast constant, RESHAPE,
    HARD_SWISH and RSQRT; every intermediate tensor is an output too."""
    rng = np.random.default_rng(5)
    w = TfliteWriter()
    sg = w.subgraph("main")
    outs = []

    def t(name, shape, output=True):
        index = sg.tensor(name, shape)
        if output:
            outs.append(index)
        return index

    def const(name, shape):
        return sg.const(name, rng.standard_normal(shape).astype(np.float32) * 0.5)

    x = t("x", (1, 6, 6, 4), output=False)
    padded = t("padded", (1, 8, 8, 4))
    sg.op("PAD", [x, sg.const("pads", np.array([[0, 0], [1, 1], [1, 1], [0, 0]], np.int32))], [padded])
    c1 = t("c1", (1, 4, 4, 8))
    sg.op("CONV_2D", [padded, const("f1", (8, 3, 3, 4)), const("b1", (8,))], [c1],
          options("Conv2DOptions", padding=0, strideH=2, strideW=2, dilationHFactor=1, dilationWFactor=1, fusedActivationFunction=3))  # fmt: skip
    pooled = t("pooled", (1, 3, 3, 4))
    sg.op("MAX_POOL_2D", [padded], [pooled], options("Pool2DOptions", padding=1, strideH=2, strideW=2, filterHeight=3, filterWidth=3))
    d1 = t("d1", (1, 4, 4, 8))
    sg.op("DEPTHWISE_CONV_2D", [c1, const("f2", (1, 3, 3, 8)), const("b2", (8,))], [d1],
          options("DepthwiseConv2DOptions", padding=0, strideH=1, strideW=1, dilationHFactor=2, dilationWFactor=2, depthMultiplier=1))  # fmt: skip
    leaky = t("leaky", (1, 4, 4, 8))
    sg.op("LEAKY_RELU", [d1], [leaky], options("LeakyReluOptions", alpha=-0.1))
    joined = t("joined", (1, 4, 4, 16))
    sg.op("CONCATENATION", [c1, leaky], [joined], options("ConcatenationOptions", axis=3))
    mean = t("mean", (1, 16))
    sg.op("MEAN", [joined, sg.const("hw", np.array([1, 2], np.int32))], [mean], options("ReducerOptions", keepDims=False))
    peak = t("peak", (1, 4, 4, 1))
    sg.op("REDUCE_MAX", [joined, sg.const("c", np.array([3], np.int32))], [peak], options("ReducerOptions", keepDims=True))
    avg = t("avg", (1, 2, 2, 8))
    sg.op("AVERAGE_POOL_2D", [leaky], [avg], options("Pool2DOptions", padding=0, strideH=3, strideW=3, filterHeight=2, filterWidth=2))
    fc = t("fc", (1, 5))
    sg.op("FULLY_CONNECTED", [avg, const("w", (5, 32)), const("wb", (5,))], [fc], options("FullyConnectedOptions"))
    soft = t("soft", (1, 5))
    sg.op("SOFTMAX", [fc], [soft], options("SoftmaxOptions", beta=0.5))
    shifted = t("shifted", (1, 3, 3, 4))
    sg.op("SUB", [pooled, const("bias4", (4,))], [shifted], options("SubOptions"))
    flat = t("flat", (1, 36))
    sg.op("RESHAPE", [shifted, sg.const("shape", np.array([1, 36], np.int32))], [flat], options("ReshapeOptions", newShape=[1, 36]))
    swish = t("swish", (1, 36))
    sg.op("HARD_SWISH", [flat], [swish])
    square, one, root = t("square", (1, 16)), sg.const("one", np.array([1.0], np.float32)), t("root", (1, 16))
    sg.op("MUL", [mean, mean], [square], options("MulOptions"))
    plus = t("plus", (1, 16))
    sg.op("ADD", [square, one], [plus], options("AddOptions"))
    sg.op("RSQRT", [plus], [root])
    sg.io([x], outs)
    return w.pack()


def test_float_operators_match_tflm(tmp_path):
    data = float_ops_model()
    _, imported = import_bytes(data, tmp_path)
    names = [op.name for op in imported.module.walk()]
    assert names.count("nn.pad") == 1  # the pooling reads the padded tensor, so the pad is applied
    assert names.count("nn.conv2d") == 3 and "nn.gemm" not in names  # FULLY_CONNECTED on NCHW images
    outputs = len(parse_tflite(data).subgraphs[0].outputs)
    for seed in range(3):
        x = np.random.default_rng(seed).standard_normal((1, 6, 6, 4)).astype(np.float32)
        assert_matches_tflm(data, imported, tmp_path, [x], exact=tuple(k for k in range(outputs) if k != 10))


# --- TFLite Micro's order of float sums ---------------------------------------------------------


def cancelling_model() -> bytes:
    """Sums of large terms that cancel, for an input near 1000 everywhere: CONV_2D (SAME, stride
    2) and DEPTHWISE_CONV_2D (multiplier 2) with filters of mean 0, MEAN over H and C of an NCHW
    value (its reduced axes out of order as held), FULLY_CONNECTED of NCHW images of channels
    near +1000 and -1000 (a 1x1 CONV_2D of signs) and FULLY_CONNECTED with a bias and weights of
    mean 0 on the input's rows."""
    rng = np.random.default_rng(11)
    w = TfliteWriter()
    sg = w.subgraph("main")

    def zero_mean(shape, axes):
        f = rng.standard_normal(shape).astype(np.float32)
        return (f - f.mean(axis=axes, keepdims=True)).astype(np.float32)

    x, conv, depthwise = sg.tensor("x", (1, 6, 6, 8)), sg.tensor("conv", (1, 3, 3, 4)), sg.tensor("depthwise", (1, 4, 4, 16))
    sg.op("CONV_2D", [x, sg.const("f", zero_mean((4, 3, 3, 8), (1, 2, 3))), sg.const("b", rng.standard_normal(4).astype(np.float32))],
          [conv], conv_options(strideH=2, strideW=2))  # fmt: skip
    sg.op("DEPTHWISE_CONV_2D", [x, sg.const("d", zero_mean((1, 3, 3, 16), (1, 2))), sg.const("db", np.zeros(16, np.float32))],
          [depthwise], options("DepthwiseConv2DOptions", padding=1, strideH=1, strideW=1, dilationHFactor=1, dilationWFactor=1,
                               depthMultiplier=2))  # fmt: skip
    signs = np.diag(np.where(np.arange(8) % 2, 1.0, -1.0)).astype(np.float32).reshape(8, 1, 1, 8)
    signed, mean, fc = sg.tensor("signed", (1, 6, 6, 8)), sg.tensor("mean", (1, 6)), sg.tensor("fc", (1, 5))
    sg.op("CONV_2D", [x, sg.const("signs", signs), -1], [signed], conv_options(padding=1))
    sg.op("MEAN", [signed, sg.const("axes", np.array([1, 3], np.int32))], [mean], options("ReducerOptions", keepDims=False))
    weights = (1 + 0.001 * rng.standard_normal((5, 288))).astype(np.float32)
    sg.op("FULLY_CONNECTED", [signed, sg.const("fw", weights), -1], [fc], options("FullyConnectedOptions"))
    rows = sg.tensor("rows", (1, 3))
    sg.op("FULLY_CONNECTED", [x, sg.const("rw", zero_mean((3, 288), (1,))), sg.const("rb", (1000 * rng.standard_normal(3)).astype(np.float32))], [rows],
          options("FullyConnectedOptions"))  # fmt: skip
    sg.io([x], [conv, depthwise, mean, fc, rows])
    return w.pack()


def test_sums_in_tflm_order_are_tflm_bits_where_numpy_order_is_not(tmp_path):
    """Every output of the cancelling model is TFLite Micro's to the bit, also after printing and
    parsing the module (``sum_order`` is kept) and in the flat form; without ``sum_order`` the
    same ops add in numpy's order and each output misses TFLite Micro's by more than 1e-5."""
    data = cancelling_model()
    _, imported = import_bytes(data, tmp_path)
    ordered = [op.name for op in imported.module.walk() if "sum_order" in op.properties]
    assert ordered == ["nn.conv2d", "nn.conv2d", "nn.conv2d", "nn.reduce_mean", "nn.conv2d", "nn.gemm"]
    x = (1000 + np.random.default_rng(0).standard_normal((1, 6, 6, 8))).astype(np.float32)
    want = tm.tflm_outputs(data, [x])
    golden, flat, _ = run_both(imported, tmp_path, [x], parse_module(str(imported.module))[0])
    for g, f, w in zip(golden, flat, want, strict=True):
        assert identical(g, w) and identical(f, w), (error(g, w), error(f, w))
    for op in imported.module.walk():
        op.properties.pop("sum_order", None)
    numpy_order = run_function(imported.module, feeds(imported.module, [x]), base_dir=tmp_path).outputs.values()
    assert all(error(g, w) > TOLERANCE for g, w in zip(numpy_order, want, strict=True))


def logistic_model() -> bytes:
    w = TfliteWriter()
    sg = w.subgraph("main")
    x, y = sg.tensor("x", (1, 64)), sg.tensor("y", (1, 64))
    sg.op("LOGISTIC", [x], [y])
    sg.io([x], [y])
    return w.pack()


LOGISTIC_INPUT = np.linspace(-14, 20, 64, dtype=np.float32)[None]
"""Below TFLite Micro's cut-off of -9 (``exp(x)``), between, and above 16.619 (1.0)."""


def test_logistic_keeps_tflm_cutoffs(tmp_path):
    """TFLite Micro's LOGISTIC is ``exp(x)`` below -9, where ``1 / (1 + exp(-x))`` is up to
    1.2e-4 of the value away: the imported ``nn.sigmoid`` keeps the cut-offs, and without
    them the reference interpreter misses TFLite Micro by more than 1e-5."""
    data = logistic_model()
    _, imported = import_bytes(data, tmp_path)
    assert_matches_tflm(data, imported, tmp_path, [LOGISTIC_INPUT])
    (sigmoid,) = [op for op in imported.module.walk() if op.name == "nn.sigmoid"]
    del sigmoid.properties["exp_below"], sigmoid.properties["one_above"]
    (plain,) = run_function(imported.module, feeds(imported.module, [LOGISTIC_INPUT]), base_dir=tmp_path).outputs.values()
    assert error(plain, tm.tflm_outputs(data, [LOGISTIC_INPUT])[0]) > TOLERANCE


@pytest.mark.skipif(not mlir_available(), reason="upstream MLIR python bindings not installed")
def test_lowered_to_linalg_the_sums_stay_in_tflm_order(tmp_path):
    """``nn-lower-to-linalg`` honours ``sum_order`` and the sigmoid's cut-offs: upstream MLIR's
    JIT run of the cancelling model gives TFLite Micro's bits, of the logistic model its
    outputs within 1e-5 of each element."""
    x = (1000 + np.random.default_rng(0).standard_normal((1, 6, 6, 8))).astype(np.float32)
    for data, inputs, exact in ((cancelling_model(), [x], True), (logistic_model(), [LOGISTIC_INPUT], False)):
        _, imported = import_bytes(data, tmp_path)
        flat = lower_model(imported.module, "nn-insert-dma,nn-plan-memory", tmp_path)
        lowered = flat.clone()
        LowerToLinalgPass().apply(make_context(), lowered)
        (got,) = run_mlir(str(prepare_for_jit(lowered)), flat, [feeds(imported.module, inputs)])
        for g, w in zip(got.values(), tm.tflm_outputs(data, inputs), strict=True):
            assert identical(g, w) if exact else error(g, w) <= TOLERANCE, error(g, w)
