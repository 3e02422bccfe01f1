"""Quantized ops on values that land on a half step, bit for bit against onnxruntime's x86
kernels (QOperator models run as they are): the reference interpreter, the planned flat form
and, where MLIR is installed, the JIT-run linalg lowering.

Each data set is searched for (with a fixed seed) so that the float32 operations onnxruntime
performs put a value exactly on ``k + 1/2`` while the real-valued result lies off it (or the
other way round), and each test asserts that its data does: the requantizing product of
QLinearConv, QLinearMatMul and QGemm is such a half (rounded to even, where the exact value
rounds the other way); QLinearMul's float32 sum with the zero point is such a half where
the earlier arithmetic (round, then add the zero point) rounded differently; QLinearAdd
with its first operand held per broadcast span differs from the unswapped order."""

from __future__ import annotations

import os
from fractions import Fraction

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")


@pytest.fixture(autouse=True)
def _return_to_the_working_directory(monkeypatch):
    monkeypatch.chdir(os.getcwd())  # restored after each test
pytest.importorskip("onnxruntime")
from onnx import TensorProto as T  # noqa: E402
from onnx import helper as h  # noqa: E402
from onnx import numpy_helper as nh  # noqa: E402
from test_lower_to_linalg import flat_form, needs_mlir, to_linalg  # noqa: E402

from cfmem.differential import run_mlir  # noqa: E402
from cfmem.importers.onnx_import import Importer  # noqa: E402
from cfmem.importers.onnx_reference import onnxruntime_outputs  # noqa: E402
from cfmem.interp.flat import run_flat  # noqa: E402
from cfmem.interp.golden import run_function  # noqa: E402
from cfmem.mlir_check.prepare import prepare_for_jit  # noqa: E402

f32 = np.float32
ELEMENT = {np.int8: T.INT8, np.uint8: T.UINT8}


def exact(value) -> Fraction:
    return Fraction(float(value))


def is_half(value) -> bool:
    return float(value) * 2 == np.rint(float(value) * 2) and float(value) != np.rint(float(value))


def model(nodes, inputs: dict[str, np.ndarray], inits: dict[str, np.ndarray], out_dtype) -> onnx.ModelProto:
    graph = h.make_graph(
        nodes, "g", [h.make_tensor_value_info(n, ELEMENT[v.dtype.type], v.shape) for n, v in inputs.items()],
        [h.make_tensor_value_info("y", ELEMENT[out_dtype], None)], [nh.from_array(np.asarray(v), n) for n, v in inits.items()])  # fmt: skip
    return h.make_model(graph, opset_imports=[h.make_opsetid("", 13), h.make_opsetid("com.microsoft", 1)], ir_version=8)


def runs(tmp_path, proto: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> np.ndarray:
    """onnxruntime's ``y``, asserted equal to the reference interpreter's, the checked flat
    form's and (with MLIR) the JIT-run linalg lowering's; the weights file is read from the
    working directory, which becomes ``tmp_path``."""
    os.chdir(tmp_path)
    path = tmp_path / "m.onnx"
    onnx.save(proto, str(path))
    want = onnxruntime_outputs(path, feeds)["y"]
    imported = Importer(onnx.load(str(path)), "w.bin").import_graph({}, {})
    (tmp_path / "w.bin").write_bytes(imported.blob)
    np.testing.assert_array_equal(run_function(imported.module, dict(feeds), base_dir=tmp_path).outputs["y"], want)
    flat = flat_form(imported.module)
    np.testing.assert_array_equal(run_flat(flat, dict(feeds), check=True).outputs["y"], want)
    if needs_mlir.args[0] is False:
        (jit,) = run_mlir(str(prepare_for_jit(to_linalg(flat))), flat, [dict(feeds)])
        np.testing.assert_array_equal(jit["y"], want)
    return want


# --- requantized sums: QLinearConv, QLinearMatMul, QGemm ------------------------------------


def half_step_scale(acc: int, target: float, first: np.float32, last: np.float32, above: bool) -> np.float32 | None:
    """A float32 middle scale ``s`` with ``float32(float32(acc) * float32(float32(first * s) /
    last))`` exactly ``target`` while ``acc * first * s / last`` lies above it (``above``) or
    below; None if none is within 300 ulps of the real solution."""
    guess = f32(target * float(last) / (acc * float(first)))
    candidates = guess.view(np.int32) + np.arange(-300, 301, dtype=np.int32)
    scales = candidates.view(np.float32)
    products = f32(acc) * ((first * scales) / last)
    for s in scales[products == f32(target)]:
        real = acc * exact(first) * exact(s) / exact(last)
        if real != exact(target) and (real > exact(target)) == above:
            return s
    return None


def half_steps(rng, count: int, sx: np.float32, sy: np.float32) -> tuple[list[int], list[np.float32]]:
    """``count`` accumulators (both signs, halves above even and odd integers, so real values
    above and below them) and a middle scale for each putting its float32 requantized value on
    the half while its real value rounds the other way."""
    accs, scales = [], []
    while len(accs) < count:
        sign = 1 if len(accs) % 2 else -1
        acc = int(rng.integers(200, 3000)) * sign
        target = sign * (2 * int(rng.integers(3, 30)) + len(accs) // 2 % 2 + 0.5)
        s = half_step_scale(acc, target, sx, sy, above=bool(np.rint(target) < target))
        if s is not None:
            accs.append(acc)
            scales.append(s)
    return accs, scales


def check_half_steps(got: np.ndarray, accs, first: np.float32, scales, last: np.float32, zero_point: int) -> None:
    """``got`` (one value per accumulator) is the float32 product ``float32(acc) * ratio``
    rounded half to even, on data whose float32 products are halves and whose real values
    ``acc * first * scale / last`` round the other way."""
    products = [f32(f32(a) * (f32(first * s) / last)) for a, s in zip(accs, scales, strict=True)]
    assert all(is_half(p) for p in products)
    np.testing.assert_array_equal(got.astype(np.int64), [int(np.rint(p)) + zero_point for p in products])
    real = [round(a * exact(first) * exact(s) / exact(last)) for a, s in zip(accs, scales, strict=True)]
    assert all(int(g) - zero_point != r for g, r in zip(got.astype(np.int64), real, strict=True))


CONV_PATHS = [  # activation, weight type, weight zero point, depthwise: MlasConvSym (uint8 x int8, symmetric),
    (np.uint8, np.int8, 0, False), (np.uint8, np.int8, 0, True),  # its depthwise kernel, MlasGemm and
    (np.uint8, np.int8, 3, False), (np.uint8, np.uint8, 131, False),  # MlasConvDepthwise with
    (np.int8, np.int8, 0, False), (np.int8, np.int8, -5, True),  # MlasRequantizeOutput
]


@pytest.mark.parametrize("per_channel", [False, True], ids=["per-tensor", "per-channel"])
@pytest.mark.parametrize("x_type,w_type,w_zero,depthwise", CONV_PATHS)
def test_qlinearconv_rounds_the_float32_product_on_half_steps(tmp_path, x_type, w_type, w_zero, depthwise, per_channel):
    """16 output channels over 4 input channels (or 16 groups), a 1x1 kernel on 2x2 pixels,
    an i32 bias: every path onnxruntime takes on x86 rounds ``float32(acc) * ratio`` half
    to even, the real product the other way."""
    rng = np.random.default_rng(7)
    channels, inputs = 16, (1 if depthwise else 4)
    sx, sy = f32(0.0173), f32(0.0419)
    count = channels if per_channel else 1
    accs, scales = half_steps(rng, count, sx, sy)
    accs = accs * (channels // count)
    x_zero = 10 if x_type == np.uint8 else -3
    y_zero = 128 if x_type == np.uint8 else 0
    a = rng.integers(-3, 4, (1, channels if depthwise else inputs))
    b = rng.integers(-4, 5, (channels, inputs))
    x = np.broadcast_to((a + x_zero).reshape(1, -1, 1, 1), (1, a.shape[1], 2, 2)).astype(x_type)
    w = (b + w_zero).astype(w_type).reshape(channels, inputs, 1, 1)
    sums = (b * a.reshape(-1, 1)).sum(1) if depthwise else b @ a[0]
    bias = (np.array(accs) - sums).astype(np.int32)
    w_scale = np.array(scales, np.float32)
    inits = {"sx": sx, "zx": np.array(x_zero, x_type), "w": w, "sw": w_scale, "zw": np.full(count, w_zero, w_type),
             "sy": sy, "zy": np.array(y_zero, x_type), "b": bias}  # fmt: skip
    node = h.make_node("QLinearConv", ["x", "sx", "zx", "w", "sw", "zw", "sy", "zy", "b"], ["y"], group=channels if depthwise else 1)
    got = runs(tmp_path, model([node], {"x": x}, inits, x_type), {"x": x})
    check_half_steps(got[0, :, 0, 0], accs, sx, np.resize(w_scale, channels), sy, y_zero)
    assert (got == got[:, :, :1, :1]).all()


@pytest.mark.parametrize("dtype", [np.int8, np.uint8])
@pytest.mark.parametrize("op", ["QLinearMatMul", "QGemm"])
def test_qlinearmatmul_and_qgemm_round_the_float32_product_on_half_steps(tmp_path, op, dtype):
    """A [1, 2] by B [2, 16] (QGemm: per-column scales, B transposed, a bias C): each
    accumulator ``100 * u + v`` from the two products."""
    rng = np.random.default_rng(11)
    sa, sy = f32(0.0231), f32(0.0547)
    per_column = op == "QGemm"
    accs, scales = half_steps(rng, 16 if per_column else 1, sa, sy)
    accs = accs * (1 if per_column else 16)
    a_zero, y_zero = (7, 120) if dtype == np.uint8 else (-2, 3)
    b_type, b_zero = (np.int8, 0) if per_column else (dtype, 128 if dtype == np.uint8 else 1)
    bias = rng.integers(-50, 50, 16) if per_column else np.zeros(16, np.int64)
    rest = np.array(accs) - bias
    b = np.stack([np.sign(rest) * (np.abs(rest) // 100), np.sign(rest) * (np.abs(rest) % 100)])
    x = (np.array([[100, 1]]) + a_zero).astype(dtype)
    inits = {"sa": sa, "za": np.array(a_zero, dtype), "b": (b + b_zero).astype(b_type), "sb": np.array(scales, np.float32),
             "zb": np.full(len(scales), b_zero, b_type), "sy": sy, "zy": np.array(y_zero, dtype)}  # fmt: skip
    if per_column:
        inits["b"], inits["c"] = inits["b"].T.copy(), bias.astype(np.int32)
        node = h.make_node("QGemm", ["a", "sa", "za", "b", "sb", "zb", "c", "sy", "zy"], ["y"], domain="com.microsoft", transB=1)
    else:
        inits["sb"], inits["zb"] = inits["sb"][0], inits["zb"][0]
        node = h.make_node("QLinearMatMul", ["a", "sa", "za", "b", "sb", "zb", "sy", "zy"], ["y"])
    got = runs(tmp_path, model([node], {"a": x}, inits, dtype), {"a": x})
    check_half_steps(got[0], accs, sa, np.resize(np.array(scales, np.float32), 16), sy, y_zero)
