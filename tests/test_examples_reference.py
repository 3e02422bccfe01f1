"""The example models against hand-written numpy versions of the same networks.

Each model is re-implemented here in plain numpy, independently of cfmem's
interpreter and kernels: convolution, pooling and the rest are written out
below, the architecture is written again by hand, and only the weights are
taken from the module (by the SSA name of each ``nn.view``, from the bytes the
``seed(S) scale(X)`` rule gives). The golden interpreter must agree with it
on inputs that take both branches of every ``nn.if``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.dialects.func import Func
from xdsl.parser import Parser

from cfmem.dialects.nn import NN, GetGlobalOp, GlobalOp, IfOp, ViewOp

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
RTOL, ATOL = 1e-4, 1e-5

# --- loading -----------------------------------------------------------------------


def parse(name: str) -> ModuleOp:
    ctx = Context()
    for dialect in (Builtin, Func, NN):
        ctx.load_dialect(dialect)
    module = Parser(ctx, (EXAMPLES / f"{name}.mlir").read_text()).parse_module()
    module.verify()
    return module


def seed_blob(seed: int, scale: float, size: int) -> bytes:
    values = np.random.default_rng(seed).uniform(-scale, scale, size // 4).astype("<f4")
    return values.tobytes() + bytes(size - 4 * (size // 4))


def load_weights(module: ModuleOp) -> dict[str, np.ndarray]:
    """Every ``nn.view`` of the module as an f64 array, keyed by its SSA name."""
    blobs: dict[str, bytes] = {}
    for op in module.walk():
        if isinstance(op, GlobalOp):
            assert op.seed is not None and op.scale is not None
            blobs[op.sym_name.data] = seed_blob(
                op.seed.value.data, op.scale.value.data, op.size.value.data
            )
    weights: dict[str, np.ndarray] = {}
    for op in module.walk():
        if isinstance(op, ViewOp):
            source = op.source.owner
            assert isinstance(source, GetGlobalOp)
            data = blobs[source.global_name.root_reference.data]
            offset, length = op.offset.value.data, op.length.value.data
            shape = tuple(op.result.type.get_shape())
            assert op.result.name_hint not in weights, f"two views named {op.result.name_hint}"
            array = np.frombuffer(data[offset : offset + length], dtype="<f4").reshape(shape)
            weights[op.result.name_hint] = array.astype(np.float64)
    return weights


# --- numpy kernels --------------------------------------------------------------------


def conv2d(x, w, b=None, stride=1, pad=0, dilation=1, groups=1):
    """Grouped NCHW/OIHW convolution as a sum over kernel taps."""
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    assert cg * groups == c
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh = (h + 2 * pad - dilation * (kh - 1) - 1) // stride + 1
    ow = (wd + 2 * pad - dilation * (kw - 1) - 1) // stride + 1
    xg = xp.reshape(n, groups, cg, *xp.shape[2:])
    wg = w.reshape(groups, o // groups, cg, kh, kw)
    out = np.zeros((n, groups, o // groups, oh, ow))
    for i in range(kh):
        for j in range(kw):
            r, s = i * dilation, j * dilation
            patch = xg[
                :,
                :,
                :,
                r : r + stride * (oh - 1) + 1 : stride,
                s : s + stride * (ow - 1) + 1 : stride,
            ]
            out += np.einsum("ngchw,goc->ngohw", patch, wg[:, :, :, i, j])
    out = out.reshape(n, o, oh, ow)
    return out if b is None else out + b.reshape(1, o, 1, 1)


def max_pool(x, k):
    n, c, h, w = x.shape
    return x[:, :, : h // k * k, : w // k * k].reshape(n, c, h // k, k, w // k, k).max(axis=(3, 5))


def relu(x):
    return np.maximum(x, 0.0)


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def dense(x, w, b):
    return x @ w.T + b


class Net:
    """The weights of one model with the layer helpers of its builder code."""

    def __init__(self, weights: dict[str, np.ndarray]):
        self.w = weights
        self.used: set[str] = set()

    def __getitem__(self, name: str) -> np.ndarray:
        self.used.add(name)
        return self.w[name]

    def conv(self, name, x, stride=1, pad=0, dilation=1, groups=1, bias=True):
        b = self[f"{name}_b"] if bias else None
        return conv2d(x, self[f"{name}_w"], b, stride, pad, dilation, groups)

    def dw_block(self, name, x, stride=1, dilation=1):
        c = x.shape[1]
        y = relu(self.conv(f"{name}_dw", x, stride, dilation, dilation, groups=c))
        return relu(self.conv(f"{name}_pw", y))

    def dense(self, name, x):
        return dense(x, self[f"{name}_w"], self[f"{name}_b"])


# --- the models, by hand ----------------------------------------------------------------


def facedetect_ref(net: Net, image):
    y = relu(net.conv("stem", image, stride=2, pad=1))
    y = net.dw_block("b1", y)
    y = max_pool(y, 2)
    y = net.dw_block("b2", y)
    y = net.dw_block("b3", y, stride=2)
    y16 = y + net.dw_block("b4", y)
    y8 = net.dw_block("b5", y16, stride=2)
    heads = {
        k: net.conv(k, y16 if k.endswith("16") else y8, pad=1)
        for k in ("cls16", "cls8", "box16", "box8")
    }
    flat = {k: v.reshape(1, -1) for k, v in heads.items()}
    scores = sigmoid(np.concatenate([flat["cls16"], flat["cls8"]], axis=1))
    boxes = np.concatenate([flat["box16"], flat["box8"]], axis=1)
    return {"scores": scores, "boxes": boxes}, []


def fusiondetect_ref(net: Net, image, mode):
    y = relu(net.conv("stem", image, stride=2, pad=1))
    y = net.dw_block("bb1", y)
    feat = net.dw_block("bb2", y, stride=2)
    is_body = bool(mode[0] > 0.5)
    if is_body:
        y = net.dw_block("body1", feat)
        y = net.dw_block("body2", y, stride=2)
        y = net.dw_block("body3", y, dilation=2)
        y = net.dw_block("body4", y, dilation=4)
        heat, box = net.conv("body_heat", y, pad=1), net.conv("body_box", y, pad=1)
    else:
        y = max_pool(feat, 2)
        y = net.dw_block("face1", y)
        y = y + net.dw_block("face2", y)
        heat, box = net.conv("face_heat", y), net.conv("face_box", y)
    return {"scores": sigmoid(heat), "boxes": box}, [("if#0", is_body)]


def denoise_ref(net: Net, spec, snr):
    enc = relu(net.conv("enc", spec, pad=1))
    level = spec.mean()
    branches = [("if#0", bool(level > 0.5))]
    if level > 0.5:
        branches.append(("if#1", bool(snr[0] < 10.0)))
        if snr[0] < 10.0:
            branches.append(("if#2", bool(level > 2.0)))
            if level > 2.0:
                y = relu(net.conv("heavy1", enc, pad=1))
                for i, d in ((2, 2), (3, 4), (4, 8)):
                    y = relu(net.conv(f"heavy{i}", y, pad=d, dilation=d))
                mask = net.conv("heavy_mask", y, pad=1)
            else:
                y = relu(net.conv("medium1", enc, pad=2, dilation=2))
                y = relu(net.conv("medium2", y, pad=4, dilation=4))
                mask = net.conv("medium_mask", y, pad=1)
        else:
            mask = net.conv("light_mask", net.dw_block("light", enc))
    else:
        mask = net.conv("quiet_mask", enc)
    return {"clean": spec * sigmoid(mask)}, branches


def wakeword_ref(net: Net, mfcc):
    y = relu(net.conv("det1", mfcc, stride=2, pad=1))
    y = relu(net.conv("det2", y, stride=2, pad=1))
    pooled = y.mean(axis=(2, 3))
    score = sigmoid(net.dense("det_fc", pooled))
    hit = bool(score[0, 0] > 0.6)
    if hit:
        y = relu(net.conv("ver1", mfcc, pad=1))
        y = net.dw_block("ver2", y)
        y = net.dw_block("ver3", y)
        y = relu(net.conv("ver4", y, stride=2, pad=1))
        y = net.dw_block("ver5", y)
        f = relu(net.dense("ver_fc1", y.mean(axis=(2, 3))))
        probs = softmax(net.dense("ver_fc2", f))
    else:
        probs = softmax(net.dense("rej_fc", pooled))
    return {"score": score, "probs": probs}, [("if#0", hit)]


# --- inputs that take every branch ---------------------------------------------------------


def _rng(k: int) -> np.random.Generator:
    return np.random.default_rng(1000 + k)


def facedetect_inputs():
    return [{"image": _rng(0).uniform(0.0, 1.0, (1, 3, 128, 128))}]


def fusiondetect_inputs():
    image = _rng(1).uniform(0.0, 1.0, (1, 3, 160, 160))
    return [{"image": image, "mode": np.array([m])} for m in (1.0, 0.0)]


def denoise_inputs():
    cases = [(0.2, 20.0), (1.0, 20.0), (1.0, 3.0), (3.0, 3.0)]
    return [
        {"spec": _rng(2 + i).uniform(0.0, 2 * mean, (1, 1, 64, 64)), "snr": np.array([snr])}
        for i, (mean, snr) in enumerate(cases)
    ]


def wakeword_inputs():
    loud = 3.0 * _rng(6).standard_normal((1, 1, 49, 40))
    return [
        {"mfcc": np.zeros((1, 1, 49, 40))},
        {"mfcc": loud},
        {"mfcc": np.full((1, 1, 49, 40), 2.0)},
    ]


MODELS: dict[str, tuple[Callable, Callable]] = {
    "facedetect": (facedetect_ref, facedetect_inputs),
    "fusiondetect": (fusiondetect_ref, fusiondetect_inputs),
    "denoise": (denoise_ref, denoise_inputs),
    "wakeword": (wakeword_ref, wakeword_inputs),
}


def run_reference(name: str):
    """(module, [(inputs as f32, reference outputs, reference branches)], views used)."""
    ref, make_inputs = MODELS[name]
    module = parse(name)
    net = Net(load_weights(module))
    runs = []
    for inputs in make_inputs():
        inputs = {k: np.asarray(v, dtype=np.float32) for k, v in inputs.items()}
        outputs, branches = ref(net, **{k: v.astype(np.float64) for k, v in inputs.items()})
        runs.append((inputs, outputs, branches))
    return module, runs, net


def if_labels(module: ModuleOp) -> list[str]:
    return [f"if#{k}" for k, _ in enumerate(op for op in module.walk() if isinstance(op, IfOp))]


def covered(branch_lists) -> set[tuple[str, bool]]:
    return {taken for branches in branch_lists for taken in branches}


# --- tests ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", MODELS)
def test_reference_uses_every_weight_and_every_branch(name):
    module, runs, net = run_reference(name)
    assert net.used == set(net.w), f"views not used by the reference: {set(net.w) - net.used}"
    want = {(label, taken) for label in if_labels(module) for taken in (True, False)}
    assert covered(b for _, _, b in runs) == want
    for _, outputs, _ in runs:
        for key, value in outputs.items():
            assert np.all(np.isfinite(value)), key
            assert np.abs(value).max() > 1e-2, f"{key} has (nearly) vanished"
            assert value.size == 1 or np.std(value) > 1e-3, f"{key} is (nearly) constant"


@pytest.mark.parametrize("name", MODELS)
def test_golden_matches_reference(name):
    from cfmem.interp.golden import run_function

    module, runs, _ = run_reference(name)
    seen = []
    for inputs, expected, branches in runs:
        result = run_function(module, inputs, base_dir=EXAMPLES)
        assert result.branches == branches
        seen.append(result.branches)
        assert set(result.outputs) == set(expected)
        for key, want in expected.items():
            got = result.outputs[key]
            assert got.shape == want.shape, key
            np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL, err_msg=f"{name}: {key}")
    want = {(label, taken) for label in if_labels(module) for taken in (True, False)}
    assert covered(seen) == want
