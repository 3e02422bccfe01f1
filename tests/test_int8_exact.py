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
from cfmem.importers.onnx import onnx_importer  # noqa: E402
from cfmem.importers.onnx.reference import onnxruntime_outputs, onnxruntime_runs  # noqa: E402
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
    imported = onnx_importer(onnx.load(str(path)), "w.bin").import_graph({}, {})
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


# --- elementwise: QLinearMul, QLinearAdd, QLinearConcat, QuantizeLinear --------------------


def all_values(dtype) -> np.ndarray:
    info = np.iinfo(dtype)
    return np.arange(info.min, info.max + 1).astype(dtype)


def qbinary(op: str, dtype, a: np.ndarray, b: np.ndarray, params) -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:
    (sa, za), (sb, zb), (sy, zy) = params
    inits = {"sa": sa, "za": np.array(za, dtype), "sb": sb, "zb": np.array(zb, dtype), "sy": sy, "zy": np.array(zy, dtype)}
    node = h.make_node(op, ["a", "sa", "za", "b", "sb", "zb", "sy", "zy"], ["y"], domain="com.microsoft")
    return model([node], {"a": a, "b": b}, inits, dtype), {"a": a, "b": b}


def drawn_params(rng, dtype, y_scale_factor: float):
    info = np.iinfo(dtype)
    scales = [f32(rng.uniform(0.005, 0.2)) for _ in range(3)]
    scales[2] = f32(scales[2] * y_scale_factor)
    return [(s, int(rng.integers(info.min, info.max + 1))) for s in scales]


def first_params(rng, dtype, y_scale_factor: float, differs) -> list:
    """The first drawn parameters on which ``differs(params)`` holds for some pair of values."""
    while True:
        params = drawn_params(rng, dtype, y_scale_factor)
        if differs(params):
            return params


def earlier_qmul(a, b, params, dtype) -> np.ndarray:
    """The arithmetic before: the float32 product rounded half to even, then the zero point."""
    (sa, za), (sb, zb), (sy, zy) = params
    product = ((a.astype(np.int64) - za) * (b.astype(np.int64) - zb)).astype(np.float32) * (f32(sa * sb) / sy)
    return np.clip(np.rint(product) + zy, np.iinfo(dtype).min, np.iinfo(dtype).max).astype(dtype)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8])
def test_qlinearmul_rounds_the_float32_sum_with_the_zero_point(tmp_path, dtype):
    """Every pair of values (a 256 x 1 by 1 x 256 broadcast): onnxruntime adds the y zero point
    to the float32 product in float32 and rounds that; where the sum is a half the product
    alone was not, rounding first and adding the zero point after gives another value."""
    rng = np.random.default_rng(3)
    a, b = all_values(dtype).reshape(256, 1), all_values(dtype).reshape(1, 256)

    def sums(params):
        (sa, za), (sb, zb), (sy, zy) = params
        product = ((a.astype(np.int64) - za) * (b.astype(np.int64) - zb)).astype(np.float32) * (f32(sa * sb) / sy)
        return product, product + f32(zy)

    def differs(params):
        product, shifted = sums(params)
        inside = np.abs(shifted) < 100
        return bool(np.any(inside & (np.rint(shifted) != np.rint(product) + params[2][1])))

    params = first_params(rng, dtype, 20.0, differs)
    got = runs(tmp_path, *qbinary("QLinearMul", dtype, a, b, params))
    earlier = earlier_qmul(a, b, params, dtype)
    product, shifted = sums(params)
    moved = got != earlier
    assert moved.any() and all(is_half(v) for v in shifted[moved]) and not any(is_half(v) for v in product[moved])


def earlier_qadd(a, b, params, dtype) -> np.ndarray:
    """The arithmetic before: always ``a * ratio_a + (b * ratio_b + fixed)``, whichever operand
    onnxruntime holds per span."""
    (sa, za), (sb, zb), (sy, zy) = params
    ra, rb = f32(sa) / sy, f32(sb) / sy
    fixed = f32(zy) - fma32(ra, f32(za), rb * f32(zb))
    value = fma32(a.astype(np.float32), ra, fma32(b.astype(np.float32), rb, fixed))
    return np.clip(np.rint(value), np.iinfo(dtype).min, np.iinfo(dtype).max).astype(dtype)


def fma32(a, b, c) -> np.ndarray:
    return (np.asarray(a, np.float64) * np.float64(b) + np.asarray(c, np.float64)).astype(np.float32)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8])
@pytest.mark.parametrize("shapes,swapped", [(((256, 1), (1, 256)), True), (((1, 256), (256, 1)), False),
                                             (((256, 256), (256, 256)), False), (((1,), (1,)), True)],
                         ids=["first-held", "second-held", "same-shape", "one-element"])  # fmt: skip
def test_qlinearadd_takes_the_operand_along_the_spans_first(tmp_path, dtype, shapes, swapped):
    """onnxruntime's broadcaster walks the output in spans along the innermost axis either
    operand is longer on; MlasQLinearAdd gets the operand that runs along a span first and
    the one held for it (if any) second, so the fused multiply-adds round in that order. Where
    the first operand is held (or both are one element), parameters are drawn until the
    earlier fixed order rounds some pair differently."""
    rng = np.random.default_rng(5)
    values = all_values(dtype)
    a = np.resize(values if shapes[0][-1] == 256 else values[rng.integers(0, 256, 256)], shapes[0]).astype(dtype)
    b = np.resize(values[::-1], shapes[1]).astype(dtype)
    if shapes[0] == (1,):
        a, b = np.array([values[rng.integers(0, 256)]], dtype), np.array([values[rng.integers(0, 256)]], dtype)
    a_full, b_full = np.broadcast_arrays(a, b)

    def differs(params):
        first, second = (b_full, a_full) if swapped else (a_full, b_full)
        flipped = [params[1], params[0], params[2]] if swapped else params
        return bool(np.any(earlier_qadd(first, second, flipped, dtype) != earlier_qadd(a_full, b_full, params, dtype)))

    params = first_params(rng, dtype, 1.0, differs) if swapped and shapes[0] != (1,) else drawn_params(rng, dtype, 1.0)
    got = runs(tmp_path, *qbinary("QLinearAdd", dtype, a, b, params))
    if swapped and shapes[0] != (1,):
        assert np.any(got != earlier_qadd(a_full, b_full, params, dtype))


@pytest.mark.parametrize("dtype", [np.int8, np.uint8])
def test_qlinearconcat_and_quantizelinear_round_float32_halves_to_even(tmp_path, dtype):
    """QLinearConcat's table (``x_scale * (q - zero_point)``, then divided by y_scale) and
    QuantizeLinear (``x / scale``) on scales drawn until some float32 quotients are halves
    whose real values lie off them."""
    rng = np.random.default_rng(9)
    values = all_values(dtype)
    info = np.iinfo(dtype)
    while True:
        sx, sy = f32(rng.uniform(0.01, 0.1)), f32(rng.uniform(0.01, 0.1))
        zx, zy = (int(rng.integers(info.min, info.max + 1)) for _ in range(2))
        quotients = (values.astype(np.int64) - zx).astype(np.float32) * sx / sy
        halves = [k for k, v in enumerate(quotients) if is_half(v) and abs(v) < 100
                  and (int(values[k]) - zx) * exact(sx) / exact(sy) != exact(v)]  # fmt: skip
        if halves:
            break
    x = values.reshape(1, 256)
    inits = {"sy": sy, "zy": np.array(zy, dtype), "sx": sx, "zx": np.array(zx, dtype), "sx2": sy, "zx2": np.array(zy, dtype)}
    node = h.make_node("QLinearConcat", ["sy", "zy", "x", "sx", "zx", "x2", "sx2", "zx2"], ["y"], domain="com.microsoft", axis=1)
    got = runs(tmp_path, model([node], {"x": x, "x2": x}, inits, dtype), {"x": x, "x2": x})
    for k in halves:
        assert int(got[0, k]) == int(np.clip(np.rint(quotients[k]) + zy, info.min, info.max))
    np.testing.assert_array_equal(got[:, 256:], x)

    real = quotients * sy  # float32 values whose quotients by sy are those halves again (or nearby)
    node = h.make_node("QuantizeLinear", ["r", "sy", "zy"], ["y"])
    proto = model([node], {}, {"sy": sy, "zy": np.array(zy, dtype)}, dtype)
    proto.graph.input.append(h.make_tensor_value_info("r", T.FLOAT, [256]))
    got = runs(tmp_path, proto, {"r": real})
    np.testing.assert_array_equal(got.astype(np.int64), np.clip(np.rint(real / sy) + zy, info.min, info.max))


# --- a model calibrated on real-valued images ----------------------------------------------


def test_image_calibrated_mobilenet_v2_is_bit_exact_on_eight_image_crops(tmp_path):
    """The zoo's mobilenet_v2 quantized by onnxruntime with calibration on photographs, run on
    eight other crops: every output element of the reference interpreter and of the checked
    flat form equals onnxruntime's (bench/int8_exact.py measures every int8 zoo model so)."""
    from cfmem.importers.onnx import import_onnx
    from cfmem.pipeline import lower_model
    from cfmem.testing import onnx_models, zoo

    if not onnx_models.torch_available():
        pytest.skip("torch and onnxscript are needed to make the model")
    model = zoo.zoo_model("mobilenet_v2_int8_images_qoperator")
    feeds = model.feeds()
    assert len(feeds) == 8 and len({float(f["x"].sum()) for f in feeds}) == 8
    imported = import_onnx(model.path(), blob_file="w.bin", input_shapes=model.shapes, input_values={})
    (tmp_path / "w.bin").write_bytes(imported.blob)
    flat = lower_model(imported.module, "nn-plan-memory", tmp_path)
    for feed, want in zip(feeds, onnxruntime_runs(model.path(), feeds), strict=True):
        np.testing.assert_array_equal(run_function(imported.module, feed, base_dir=tmp_path).outputs["y"], want["y"])
        np.testing.assert_array_equal(run_flat(flat, feed, check=True).outputs["y"], want["y"])
