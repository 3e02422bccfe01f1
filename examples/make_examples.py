"""Generate the example models (``*.mlir`` next to this file).

Run ``python examples/make_examples.py`` to rewrite them; the output is
deterministic. Each model mirrors one case of the paper (FaceDetect,
FusionDetect, denoise) plus a wake-word cascade and a recurrent keyword
spotter with loops (seqkws); all are f32, NCHW, batch 1,
with weights from a ``seed(...)`` blob so no binary file is needed.

Every model's header comment says which inputs take which branch of each
``nn.if`` (``if#k`` counts ifs in pre-order, as the golden interpreter does).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import SSAValue

from cfmem.builder import GraphBuilder
from cfmem.dialects.nn_compute import ConstantOp
from cfmem.dialects.nn_control import IfOp, LoopOp
from cfmem.dialects.nn_weights import GetGlobalOp, ReshapeOp, ViewOp
from cfmem.dialects.types import tensor_bytes

HERE = Path(__file__).resolve().parent


def dw_block(
    b: GraphBuilder, x: SSAValue, out: int, name: str, stride: int = 1, dilation: int = 1
) -> SSAValue:
    """Depthwise 3x3 + relu, pointwise 1x1 + relu (MobileNet/BlazeFace style)."""
    channels = b.shape(x)[1]
    y = b.conv2d(
        x,
        channels,
        3,
        stride=stride,
        pad=dilation,
        dilation=dilation,
        groups=channels,
        name=f"{name}_dw",
    )
    y = b.relu(y, name=f"{name}_dwr")
    return b.relu(b.conv2d(y, out, 1, name=f"{name}_pw"), name=f"{name}_out")


# --- FaceDetect: a BlazeFace-like single-shot detector, no control flow --------


def facedetect() -> tuple[GraphBuilder, list[str]]:
    b = GraphBuilder("main", seed=1, scale=0.25)
    x = b.input("image", (1, 3, 128, 128))
    y = b.relu(b.conv2d(x, 16, 3, stride=2, pad=1, name="stem"), name="stem_out")  # 16x64x64
    y = dw_block(b, y, 24, "b1")  # 24x64x64
    y = b.max_pool2d(y, 2, name="pool1")  # 24x32x32
    y = dw_block(b, y, 32, "b2")  # 32x32x32
    y = dw_block(b, y, 64, "b3", stride=2)  # 64x16x16
    z = dw_block(b, y, 64, "b4")
    y16 = b.add(y, z, name="res4")  # 64x16x16
    y8 = dw_block(b, y16, 96, "b5", stride=2)  # 96x8x8
    # Two anchor grids, 16x16x2 + 8x8x6 = 896 anchors, as in BlazeFace.
    cls16 = b.conv2d(y16, 2, 3, pad=1, name="cls16")
    cls8 = b.conv2d(y8, 6, 3, pad=1, name="cls8")
    box16 = b.conv2d(y16, 8, 3, pad=1, name="box16")
    box8 = b.conv2d(y8, 24, 3, pad=1, name="box8")
    logits = b.concat(
        [b.flatten(cls16, name="cls16_flat"), b.flatten(cls8, name="cls8_flat")], 1, name="cls"
    )
    boxes = b.concat(
        [b.flatten(box16, name="box16_flat"), b.flatten(box8, name="box8_flat")], 1, name="boxes"
    )
    b.output(b.sigmoid(logits), boxes, names=["scores", "boxes"])
    return b, ["No control flow: every input runs the same ops."]


# --- FusionDetect: shared backbone, then body or face detection -----------------


def fusiondetect() -> tuple[GraphBuilder, list[str]]:
    b = GraphBuilder("main", seed=2, scale=0.25)
    x = b.input("image", (1, 3, 160, 160))
    mode = b.input("mode", (1,))
    y = b.relu(b.conv2d(x, 16, 3, stride=2, pad=1, name="stem"), name="stem_out")  # 16x80x80
    y = dw_block(b, y, 32, "bb1")  # 32x80x80
    feat = dw_block(b, y, 48, "bb2", stride=2)  # 48x40x40
    body = b.cmp("gt", mode, 0.5, name="is_body")

    def body_detect(b: GraphBuilder) -> list[SSAValue]:
        y = dw_block(b, feat, 96, "body1")  # 96x40x40
        y = dw_block(b, y, 96, "body2", stride=2)  # 96x20x20
        y = dw_block(b, y, 96, "body3", dilation=2)
        y = dw_block(b, y, 64, "body4", dilation=4)
        heat = b.conv2d(y, 2, 3, pad=1, name="body_heat")
        box = b.conv2d(y, 4, 3, pad=1, name="body_box")
        return [heat, box]

    def face_detect(b: GraphBuilder) -> list[SSAValue]:
        y = b.max_pool2d(feat, 2, name="face_pool")  # 48x20x20
        y = dw_block(b, y, 32, "face1")
        z = dw_block(b, y, 32, "face2")
        y = b.add(y, z, name="face_res")
        heat = b.conv2d(y, 2, 1, name="face_heat")
        box = b.conv2d(y, 4, 1, name="face_box")
        return [heat, box]

    heat, box = b.if_(body, body_detect, face_detect, names=["heat", "det_boxes"])
    b.output(b.sigmoid(heat, name="scores"), box, names=["scores", "boxes"])
    return b, [
        "if#0 (is_body = mode > 0.5): mode = [1.0] runs the body detector (then),",
        "  mode = [0.0] runs the face detector (else); image is any 1x3x160x160.",
    ]


# --- denoise: three nested levels of denoiser size ------------------------------


def denoise() -> tuple[GraphBuilder, list[str]]:
    b = GraphBuilder("main", seed=3, scale=0.15)
    spec = b.input("spec", (1, 1, 64, 64))
    snr = b.input("snr", (1,))
    enc = b.relu(b.conv2d(spec, 16, 3, pad=1, name="enc"), name="enc_out")  # 16x64x64
    level = b.reduce_mean(spec, (1, 2, 3), keepdims=False, name="level")  # [1]
    loud = b.cmp("gt", level, 0.5, name="loud")

    def heavy(b: GraphBuilder) -> list[SSAValue]:
        y = b.relu(b.conv2d(enc, 32, 3, pad=1, name="heavy1"), name="heavy1_out")  # 32x64x64
        for i, d in enumerate((2, 4, 8), start=2):
            y = b.relu(
                b.conv2d(y, 32, 3, pad=d, dilation=d, name=f"heavy{i}"), name=f"heavy{i}_out"
            )
        return [b.conv2d(y, 1, 3, pad=1, name="heavy_mask")]

    def medium(b: GraphBuilder) -> list[SSAValue]:
        y = b.relu(b.conv2d(enc, 16, 3, pad=2, dilation=2, name="medium1"), name="medium1_out")
        y = b.relu(b.conv2d(y, 16, 3, pad=4, dilation=4, name="medium2"), name="medium2_out")
        return [b.conv2d(y, 1, 3, pad=1, name="medium_mask")]

    def noisy(b: GraphBuilder) -> list[SSAValue]:
        very_loud = b.cmp("gt", level, 2.0, name="very_loud")
        return b.if_(very_loud, heavy, medium, names=["noisy_mask"])

    def clean(b: GraphBuilder) -> list[SSAValue]:
        y = dw_block(b, enc, 8, "light")
        return [b.conv2d(y, 1, 1, name="light_mask")]

    def loud_branch(b: GraphBuilder) -> list[SSAValue]:
        low_snr = b.cmp("lt", snr, 10.0, name="low_snr")
        return b.if_(low_snr, noisy, clean, names=["loud_mask"])

    def quiet_branch(b: GraphBuilder) -> list[SSAValue]:
        return [b.conv2d(enc, 1, 1, name="quiet_mask")]

    (mask,) = b.if_(loud, loud_branch, quiet_branch, names=["mask"])
    gate = b.sigmoid(mask, name="gate")
    b.output(b.mul(spec, gate, name="clean"), names=["clean"])
    return b, [
        "level = mean(spec). spec is a 1x1x64x64 magnitude spectrogram, snr a dB estimate.",
        "if#0 (loud = level > 0.5): then for level > 0.5, else (tiny 1x1 mask) otherwise.",
        "if#1 (low_snr = snr < 10, inside if#0 then): then runs if#2, else a light dw/pw net.",
        "if#2 (very_loud = level > 2.0, inside if#1 then): then a 5-layer 32-channel dilated",
        "  net (32x64x64 activations), else a 3-layer 16-channel one.",
        "Branch choices: spec mean 0.2 -> else#0; mean 1.0, snr 20 -> then#0 else#1;",
        "  mean 1.0, snr 3 -> then#0 then#1 else#2; mean 3.0, snr 3 -> then#0 then#1 then#2.",
    ]


# --- wake word: cheap detector, expensive verifier on a hit -----------------------


def wakeword() -> tuple[GraphBuilder, list[str]]:
    b = GraphBuilder("main", seed=4, scale=0.3)
    mfcc = b.input("mfcc", (1, 1, 49, 40))
    y = b.relu(b.conv2d(mfcc, 8, 3, stride=2, pad=1, name="det1"), name="det1_out")  # 8x25x20
    y = b.relu(b.conv2d(y, 16, 3, stride=2, pad=1, name="det2"), name="det2_out")  # 16x13x10
    pooled = b.flatten(b.global_avg_pool(y, name="det_pool"), name="det_feat")  # 1x16
    score = b.sigmoid(b.dense(pooled, 1, name="det_fc"), name="score")  # 1x1
    hit = b.cmp("gt", score, 0.6, name="hit")

    def verify(b: GraphBuilder) -> list[SSAValue]:
        y = b.relu(b.conv2d(mfcc, 64, 3, pad=1, name="ver1"), name="ver1_out")  # 64x49x40
        y = dw_block(b, y, 64, "ver2")
        y = dw_block(b, y, 64, "ver3")
        y = b.relu(b.conv2d(y, 128, 3, stride=2, pad=1, name="ver4"), name="ver4_out")  # 128x25x20
        y = dw_block(b, y, 128, "ver5")
        f = b.flatten(b.global_avg_pool(y, name="ver_pool"), name="ver_feat")  # 1x128
        f = b.relu(b.dense(f, 64, name="ver_fc1"), name="ver_fc1_out")
        return [b.softmax(b.dense(f, 12, name="ver_fc2"), name="ver_probs")]

    def reject(b: GraphBuilder) -> list[SSAValue]:
        return [b.softmax(b.dense(pooled, 12, name="rej_fc"), name="rej_probs")]

    (probs,) = b.if_(hit, verify, reject, names=["probs"])
    b.output(score, probs, names=["score", "probs"])
    return b, [
        "if#0 (hit = score > 0.6, score = sigmoid(det_fc(...)) from the cheap detector):",
        "  silence, mfcc = 0, gives score 0.514 -> else (one 16x12 dense on the detector output);",
        "  loud input, mfcc = 3 * standard normal noise (score ~0.75) or mfcc filled with 2.0",
        "  (score 0.725) -> then (the 12-class verifier, 64x49x40 activations).",
    ]


# --- bigfc: a keyword spotter whose one dense weight outgrows a small chip --------


def bigfc() -> tuple[GraphBuilder, list[str]]:
    b = GraphBuilder("main", seed=5, scale=0.05)
    mfcc = b.input("mfcc", (1, 1, 49, 40))
    y = b.relu(b.conv2d(mfcc, 16, 3, stride=2, pad=1, name="conv"), name="conv_out")  # 16x25x20
    f = b.flatten(y, name="feat")  # 1x8000
    h = b.relu(b.dense(f, 24, name="fc"), name="fc_out")  # weight 24x8000: 768,000 bytes
    score = b.sigmoid(b.dense(h, 1, name="gate"), name="score")
    keyword = b.cmp("gt", score, 0.5, name="keyword")

    def classify(b: GraphBuilder) -> list[SSAValue]:
        return [b.softmax(b.dense(h, 12, name="cls_fc"), name="cls_probs")]

    def background(b: GraphBuilder) -> list[SSAValue]:
        return [b.softmax(b.dense(h, 12, name="bg_fc"), name="bg_probs")]

    (probs,) = b.if_(keyword, classify, background, names=["probs"])
    b.output(score, probs, names=["score", "probs"])
    return b, [
        "The fc weight (24x8000 f32, 768,000 bytes) is larger than a 512 KiB chip's whole memory:",
        "cfmem compile streams it in slices or reads it in place.",
        "if#0 (keyword = score > 0.5): mfcc = 0 or 1 (score 0.505, 0.507) -> then (classify);",
        "  mfcc = -1 (score 0.497) -> else (background).",
    ]


# --- seqkws: a recurrent keyword spotter, an if inside its loop, a loop inside an if ---


SURE = 0.12
SETTLED = 0.2


def seqkws() -> tuple[GraphBuilder, list[str]]:
    b = GraphBuilder("main", seed=6, scale=0.2)
    feats = b.input("feats", (32, 1, 40))
    frames = b.input("frames", (), np.int64)
    first = b.gather(feats, b.constant(np.array(0), name="zero", dtype=np.int64), name="first")  # 1x40
    h0 = b.tanh(b.dense(first, 64, name="init"), name="h0")

    def step(b: GraphBuilder, i: SSAValue, c: SSAValue, h: SSAValue) -> list[SSAValue]:
        x = b.gather(feats, i, name="x_t")  # 1x40
        loud = b.cmp("gt", b.reduce_mean(b.mul(x, x, name="x_sq"), [0, 1], name="energy"), 0.5, name="loud")

        def update(b: GraphBuilder) -> list[SSAValue]:
            xh = b.concat([x, h], axis=1, name="xh")  # 1x104
            z = b.sigmoid(b.dense(xh, 64, name="gate"), name="z")
            n = b.tanh(b.dense(xh, 64, name="cand"), name="n")
            return [b.add(h, b.mul(z, b.sub(n, h, name="n_minus_h"), name="z_step"), name="h_new")]

        def decay(b: GraphBuilder) -> list[SSAValue]:
            return [b.mul(h, 0.9, name="h_decay")]

        (h_next,) = b.if_(loud, update, decay, names=["h_next"])
        return [c, h_next]

    count = b.cast(b.min(b.cast(frames, np.float32, name="frames_f"), 32.0, name="count_f"), np.int64, name="count")
    (h,) = b.loop(count, [h0], step, names=["h_last"], name="frames_loop")
    probs = b.softmax(b.dense(h, 12, name="cls"), name="probs")
    sure = b.cmp("gt", b.reduce_max(probs, [1], name="top"), SURE, name="sure")

    def refine(b: GraphBuilder) -> list[SSAValue]:
        def unsettled(b: GraphBuilder, r: SSAValue, name: str) -> SSAValue:
            size = b.reduce_mean(b.abs(r, name=f"{name}_abs"), [0, 1], name=f"{name}_size")
            return b.cmp("gt", size, SETTLED, name=name)

        def settle(b: GraphBuilder, i: SSAValue, c: SSAValue, r: SSAValue) -> list[SSAValue]:
            pull = b.mul(b.tanh(b.dense(r, 64, name="ref"), name="ref_out"), 0.05, name="pull")
            r_next = b.add(b.mul(r, 0.8, name="r_decay"), pull, name="r_next")
            return [unsettled(b, r_next, "moving"), r_next]

        (r,) = b.loop(16, [h], settle, cond=unsettled(b, h, "unsettled"), names=["r_last"], name="settle_loop")
        return [b.softmax(b.dense(r, 12, name="ref_cls"), name="ref_probs")]

    def keep(b: GraphBuilder) -> list[SSAValue]:
        return [probs]

    (out,) = b.if_(sure, refine, keep, names=["out"])
    b.output(out, names=["out"])
    return b, [
        "loop#0 runs over the first `frames` frames (none if frames <= 0, at most 32); in each, if#0 (loud: the frame's",
        "  mean square > 0.5) updates the state with a gated cell, else decays it.",
        "if#1 (sure: top class probability > 0.12) -> then runs loop#1, a while loop that refines the",
        "  state (r = 0.8 r + tanh(ref(r)) / 20) while its mean magnitude is above 0.2 (none if it",
        "  already is, at most 16 iterations); else keeps the probabilities.",
        "frames = 0 runs no iteration; feats = 2 * standard normal makes most frames loud.",
    ]


MODELS: dict[str, Callable[[], tuple[GraphBuilder, list[str]]]] = {
    "facedetect": facedetect,
    "fusiondetect": fusiondetect,
    "denoise": denoise,
    "wakeword": wakeword,
    "bigfc": bigfc,
    "seqkws": seqkws,
}


# --- statistics and output ------------------------------------------------------


def activation_stats(module: ModuleOp) -> dict[str, int]:
    """Largest and total bytes of the intermediate tensors (not inputs, outputs,
    weights or constants), plus the number of ops."""
    fn = next(op for op in module.ops if isinstance(op, func.FuncOp))
    ret = fn.body.block.last_op
    outputs = set(ret.operands) if ret is not None else set()
    read_only = (GetGlobalOp, ViewOp, ConstantOp)
    sizes: list[int] = []
    ops = 0
    for op in fn.walk():
        if isinstance(op, func.FuncOp | func.ReturnOp) or op.name == "nn.yield":
            continue
        ops += 1
        if isinstance(op, read_only) or (
            isinstance(op, ReshapeOp) and isinstance(op.input.owner, read_only)
        ):
            continue
        sizes.extend(tensor_bytes(r.type) for r in op.results if r not in outputs)
    ifs = sum(isinstance(op, IfOp) for op in fn.walk())
    loops = sum(isinstance(op, LoopOp) for op in fn.walk())
    return {"ops": ops, "ifs": ifs, "loops": loops, "largest": max(sizes), "sum": sum(sizes)}


def render(name: str) -> str:
    builder, notes = MODELS[name]()
    module = builder.build()
    stats = activation_stats(module)
    header = [
        f"{name}.mlir: generated by examples/make_examples.py, do not edit.",
        f"{stats['ops']} ops, {stats['ifs']} nn.if" + (f", {stats['loops']} nn.loop" if stats["loops"] else "")
        + f"; weight blob {builder.blob_size} bytes"
        f" (seed {builder.seed}, scale {builder.scale}); intermediate tensors:"
        f" largest {stats['largest']} bytes, sum {stats['sum']} bytes.",
        *notes,
    ]
    return "".join(f"// {line}\n" for line in header) + "\n" + str(module) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE, help="directory to write to")
    parser.add_argument("names", nargs="*", default=list(MODELS), help="models to write")
    args = parser.parse_args(argv)
    for name in args.names:
        if name not in MODELS:
            parser.error(f"unknown model {name!r}; choose from {', '.join(MODELS)}")
        path = args.out / f"{name}.mlir"
        path.write_text(render(name))
        print(f"wrote {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
