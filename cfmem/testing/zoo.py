"""The model zoo: edge models of several families, made in the cache, each with input sets.

Nothing here is committed; every file is generated (or fetched) on first use by
:mod:`cfmem.testing.onnx_models`' cache and keyed by a hash of the sources and of the
torch and onnxscript versions.

Families:

* ``torchvision``: mobilenet_v2, mobilenet_v3_small, resnet18, squeezenet1_1,
  shufflenet_v2_x0_5, mnasnet0_5 and efficientnet_b0 with random weights at a 96x96
  input. Their batch norms get random affine parameters and statistics measured on
  random images (so every layer's activations stay of order one and the outputs are
  not vanishingly small), then the exporter folds them into the convolutions.
* ``kws``: a DS-CNN keyword spotter on 49x10 MFCC frames, exported with its
  ``BatchNormalization`` nodes kept, and a GRU keyword spotter over 20 frames.
* ``transformer``: one pre-norm transformer block (LayerNorm, attention with Softmax,
  an Erf Gelu MLP) over 16 tokens of width 32.
* ``silero``: silero-vad, both files, with the sample rate as an input (one If).
* ``torch.cond``: the models of :mod:`cfmem.testing.onnx_models` (nested Ifs).

The torchvision, DS-CNN and transformer models also come quantized to int8 by
``onnxruntime.quantization.quantize_static`` (per-channel weights, random calibration
inputs) in QDQ and QOperator formats; mobilenet_v2 and resnet18 also calibrated on
real-valued images (``*_int8_images_qoperator``: crops of the photographs matplotlib ships,
normalized as ImageNet preprocessing does, with eight other crops as their input sets), and the transformer block also by
``quantize_dynamic`` (int8 weights in 7 bits, ``reduce_range``, activations quantized at run
time: onnxruntime's uint8 x int8 kernel on x86 without VNNI saturates pairs of full-range
products in int16, so its reference would depend on the machine).

Every model has at least three input sets; between them they take every branch.
``representative`` marks the part of the zoo ``make test`` runs: a float model of every
family, and an int8 one (QDQ and QOperator between them) of every family that has them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from cfmem.testing import onnx_models

Feeds = dict[str, np.ndarray]

IMAGE = (1, 3, 96, 96)
MFCC = (1, 1, 49, 10)
FRAMES = (1, 20, 40)
TOKENS = (1, 16, 32)
TORCHVISION = ("mobilenet_v2", "mobilenet_v3_small", "resnet18", "squeezenet1_1",
               "shufflenet_v2_x0_5", "mnasnet0_5", "efficientnet_b0")  # fmt: skip
INT8_FORMATS = ("qdq", "qoperator")
INPUT_SETS = 3
IMAGE_CALIBRATED = ("mobilenet_v2", "resnet18")
IMAGE_SETS = 8
PHOTOS = ("grace_hopper.jpg", "Minduka_Present_Blue_Pack.png")
"""Photographs in matplotlib's sample data (a dependency of cfmem), the source of real-valued images."""
IMAGENET_MEAN, IMAGENET_STD = (0.485, 0.456, 0.406), (0.229, 0.224, 0.225)


@dataclass(frozen=True)
class ZooModel:
    """One zoo entry: where its ONNX file comes from and how to feed it.

    ``shapes`` fixes input shapes at import (as ``cfmem import --input-shape`` does);
    ``feeds()`` are the input sets, keyed by ONNX input name, which between them take
    ``branch_paths`` distinct paths through the model's Ifs.
    """

    name: str
    family: str
    precision: str
    path: Callable[[], Path]
    feeds: Callable[[], list[Feeds]]
    shapes: dict[str, tuple[int, ...]]
    branch_paths: int
    """How many distinct branch paths the input sets take."""
    representative: bool


def normal_feeds(name: str, shape: tuple[int, ...], count: int = INPUT_SETS) -> list[Feeds]:
    """``count`` standard-normal float32 inputs ``name`` of ``shape``, seeds 0, 1, ..."""
    return [{name: np.random.default_rng(seed).standard_normal(shape).astype(np.float32)} for seed in range(count)]


def image_feeds(count: int, first_seed: int = 0) -> list[Feeds]:
    """``count`` inputs ``x`` of shape ``IMAGE``: square crops of the ``PHOTOS`` (each crop
    a random side of 40 to 100 % of the shorter one, at a random place, mirrored at random,
    the photos taken in turn), resized bilinearly, scaled to [0, 1] and normalized with the
    ImageNet mean and standard deviation; seeds ``first_seed``, ``first_seed + 1``, ..."""
    from matplotlib import cbook
    from PIL import Image

    photos = [Image.open(cbook.get_sample_data(name)).convert("RGB") for name in PHOTOS]
    feeds = []
    for seed in range(first_seed, first_seed + count):
        rng = np.random.default_rng(seed)
        photo = photos[seed % len(photos)]
        side = int(min(photo.size) * rng.uniform(0.4, 1.0))
        left, top = (int(rng.integers(0, extent - side + 1)) for extent in photo.size)
        crop = photo.crop((left, top, left + side, top + side)).resize(IMAGE[2:], Image.BILINEAR)
        pixels = np.asarray(crop, np.float32) / 255.0
        if rng.random() < 0.5:
            pixels = pixels[:, ::-1]
        normalized = (pixels - np.array(IMAGENET_MEAN, np.float32)) / np.array(IMAGENET_STD, np.float32)
        feeds.append({"x": np.ascontiguousarray(normalized.transpose(2, 0, 1)[None], np.float32)})
    return feeds


# ---------------------------------------------------------------------------- torch modules

_TORCHVISION_OPS: Any = None


def _torchvision_models() -> Any:
    """``torchvision.models``, importable even when torchvision's compiled operators are not.

    A torchvision wheel built against another torch build fails to load its operator
    library, yet ``import torchvision`` registers meta kernels for ``nms`` and ``qnms``,
    which need the two operators declared. They are declared (and never run) if missing;
    the model definitions are plain torch.
    """
    global _TORCHVISION_OPS
    import torch

    try:
        torch.ops.torchvision.nms  # noqa: B018
    except (AttributeError, RuntimeError):
        if _TORCHVISION_OPS is None:
            _TORCHVISION_OPS = torch.library.Library("torchvision", "DEF")
            for op in ("nms", "qnms"):
                _TORCHVISION_OPS.define(f"{op}(Tensor dets, Tensor scores, float iou_threshold) -> Tensor")
    import torchvision.models

    return torchvision.models


def _recalibrated(net: Any, shape: tuple[int, ...], seed: int) -> Any:
    """``net`` in eval mode with random batch-norm affines and statistics measured on images."""
    import torch

    generator = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for m in net.modules():
            if isinstance(m, torch.nn.modules.batchnorm._BatchNorm):
                m.reset_running_stats()
                m.momentum = None  # cumulative average over the calibration batches
                m.weight.copy_(torch.rand(m.weight.shape, generator=generator) + 0.5)
                m.bias.copy_(torch.rand(m.bias.shape, generator=generator) * 0.4 - 0.2)
        net.train()
        for _ in range(2):
            net(torch.randn((8, *shape[1:]), generator=generator))
    return net.eval()


def _torchvision_module(name: str) -> Any:
    import torch

    torch.manual_seed(0)
    return _recalibrated(getattr(_torchvision_models(), name)(weights=None), IMAGE, seed=1)


def _dscnn_module() -> Any:
    """DS-CNN (Zhang et al., "Hello Edge"): a strided conv, four depthwise-separable blocks,
    average pooling and a 12-way classifier, each conv followed by BatchNorm and ReLU."""
    import torch
    from torch import nn

    torch.manual_seed(0)
    width = 64
    layers: list[Any] = [nn.Conv2d(1, width, (10, 4), (2, 2), (5, 1)), nn.BatchNorm2d(width), nn.ReLU()]
    for _ in range(4):
        layers += [nn.Conv2d(width, width, 3, 1, 1, groups=width), nn.BatchNorm2d(width), nn.ReLU(),
                   nn.Conv2d(width, width, 1), nn.BatchNorm2d(width), nn.ReLU()]  # fmt: skip

    class DSCNN(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.features = nn.Sequential(*layers)
            self.classifier = nn.Linear(width, 12)

        def forward(self, x):
            return self.classifier(self.features(x).mean((2, 3)))

    return _recalibrated(DSCNN(), MFCC, seed=1)


def _gru_module() -> Any:
    """A GRU keyword spotter: one GRU layer of 64 over 40-band frames, a 12-way classifier."""
    import torch
    from torch import nn

    torch.manual_seed(0)

    class GRUSpotter(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.gru = nn.GRU(FRAMES[2], 64, batch_first=True)
            self.classifier = nn.Linear(64, 12)

        def forward(self, x):
            _, h = self.gru(x)
            return self.classifier(h[-1])

    return GRUSpotter().eval()


def _transformer_module() -> Any:
    """A pre-norm transformer block: LayerNorm, 4-head attention, LayerNorm, Gelu MLP."""
    import torch
    from torch import nn

    torch.manual_seed(0)
    width = TOKENS[2]

    class Block(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.norm1 = nn.LayerNorm(width)
            self.attention = nn.MultiheadAttention(width, 4, batch_first=True)
            self.norm2 = nn.LayerNorm(width)
            self.mlp = nn.Sequential(nn.Linear(width, 4 * width), nn.GELU(), nn.Linear(4 * width, width))

        def forward(self, x):
            y = self.norm1(x)
            x = x + self.attention(y, y, y, need_weights=False)[0]
            return x + self.mlp(self.norm2(x))

    return Block().eval()


TORCH_MODELS: dict[str, tuple[Callable[[], Any], tuple[int, ...], bool]] = {
    **{name: ((lambda n=name: _torchvision_module(n)), IMAGE, True) for name in TORCHVISION},
    "dscnn": (_dscnn_module, MFCC, False),
    "gru_kws": (_gru_module, FRAMES, True),
    "transformer": (_transformer_module, TOKENS, True),
}
"""Module builder, input shape, and whether the exporter's optimizer runs (it folds
BatchNormalization into Conv, so the DS-CNN is exported without it)."""


# ---------------------------------------------------------------------------- ONNX files


def _key() -> str:
    return onnx_models.source_key(__file__)


def float_model(name: str) -> Path:
    """The cached float ONNX export of torch model ``name`` (input ``x``, output ``y``);
    only a cache miss imports torch."""
    build, shape, optimize = TORCH_MODELS[name]

    def make(out: Path) -> None:
        import torch

        example = torch.from_numpy(normal_feeds("x", shape, 1)[0]["x"])
        onnx_models.export_torch(build(), (example,), out, optimize=optimize, input_names=["x"], output_names=["y"])

    return onnx_models.cached_file("zoo", name, _key(), make)


class _Calibration:
    """onnxruntime's CalibrationDataReader protocol over a list of input sets."""

    def __init__(self, feeds: list[Feeds]) -> None:
        self._feeds = iter(feeds)

    def get_next(self) -> Feeds | None:
        return next(self._feeds, None)


def int8_model(name: str, fmt: str, images: bool = False) -> Path:
    """Torch model ``name`` quantized to int8 (activations and per-channel weights) in
    format ``fmt`` (``qdq`` or ``qoperator``), calibrated on eight random inputs, or with
    ``images`` on sixteen image crops (seeds 100 to 115, apart from the input sets')."""
    from onnxruntime.quantization import QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    source = float_model(name)
    shape = TORCH_MODELS[name][1]
    formats = {"qdq": QuantFormat.QDQ, "qoperator": QuantFormat.QOperator}

    def make(out: Path) -> None:
        prepared = out.with_suffix(".pre.onnx")
        quant_pre_process(str(source), str(prepared), skip_symbolic_shape=True)
        if images:
            calibration = image_feeds(16, first_seed=100)
        else:
            calibration = [{"x": x} for x in (f["x"] for f in normal_feeds("x", shape, 8 + INPUT_SETS)[INPUT_SETS:])]
        quantize_static(str(prepared), str(out), _Calibration(calibration), quant_format=formats[fmt],
                        activation_type=QuantType.QInt8, weight_type=QuantType.QInt8, per_channel=True)

    return onnx_models.cached_file("zoo", f"{name}_int8_{'images_' if images else ''}{fmt}", _key(), make)


def dynamic_model(name: str) -> Path:
    """Torch model ``name`` dynamically quantized by onnxruntime (int8 weights; activations
    quantized at run time by DynamicQuantizeLinear and multiplied by MatMulInteger)."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    source = float_model(name)
    return onnx_models.cached_file("zoo", f"{name}_int8_dynamic", _key(),
                                   lambda out: quantize_dynamic(str(source), str(out), weight_type=QuantType.QInt8,
                                                                  reduce_range=True))


# ---------------------------------------------------------------------------- the zoo


def _silero_feeds(samples: int) -> list[Feeds]:
    rng = np.random.default_rng(0)
    return [
        {"input": (rng.standard_normal((1, samples)) * 0.3).astype(np.float32),
         "state": (rng.standard_normal((2, 1, 128)) * 0.5).astype(np.float32),
         "sr": np.array(sr, np.int64)}
        for sr in (16000, 8000, 16000)
    ]  # fmt: skip


FAMILY = {**{name: "torchvision" for name in TORCHVISION}, "dscnn": "kws", "gru_kws": "kws", "transformer": "transformer"}
REPRESENTATIVE = {"mobilenet_v2", "mobilenet_v2_int8_qdq", "squeezenet1_1_int8_qoperator", "dscnn",
                  "dscnn_int8_qoperator", "gru_kws", "transformer", "transformer_int8_dynamic", "silero_vad.onnx",
                  "cond_conv"}  # fmt: skip


@cache
def models() -> tuple[ZooModel, ...]:
    """Every zoo model, torch-made ones only when torch and onnxscript are installed."""
    found: list[ZooModel] = []

    def add(name: str, family: str, precision: str, path, feeds, paths: int = 1, shapes=None) -> None:
        found.append(ZooModel(name, family, precision, path, feeds, shapes or {}, paths, name in REPRESENTATIVE))

    for name in onnx_models.SILERO_MODELS:  # two sample rates, two paths
        add(name, "silero", "float", lambda n=name: onnx_models.silero_model(n), lambda: _silero_feeds(256), 2,
            {"input": (1, 256), "state": (2, 1, 128)})
    if not onnx_models.torch_available():
        return tuple(found)
    for name in onnx_models.COND_MODELS:
        add(name, "torch.cond", "float", lambda n=name: onnx_models.cond_model(n),
            lambda n=name: list(onnx_models.cond_inputs(n).values()), len(onnx_models.cond_inputs(name)))
    for name, (_, shape, _) in TORCH_MODELS.items():
        add(name, FAMILY[name], "float", lambda n=name: float_model(n), lambda s=shape: normal_feeds("x", s))
        if FAMILY[name] == "torchvision" or name == "dscnn":
            for fmt in INT8_FORMATS:
                add(f"{name}_int8_{fmt}", FAMILY[name], f"int8 {fmt}", lambda n=name, f=fmt: int8_model(n, f),
                    lambda s=shape: normal_feeds("x", s))
        if name in IMAGE_CALIBRATED:
            add(f"{name}_int8_images_qoperator", FAMILY[name], "int8 qoperator, images",
                lambda n=name: int8_model(n, "qoperator", images=True), lambda: image_feeds(IMAGE_SETS))
        if name == "transformer":
            for fmt in INT8_FORMATS:
                add(f"{name}_int8_{fmt}", FAMILY[name], f"int8 {fmt}", lambda n=name, f=fmt: int8_model(n, f),
                    lambda s=shape: normal_feeds("x", s))
            add(f"{name}_int8_dynamic", FAMILY[name], "int8 dynamic", lambda n=name: dynamic_model(n),
                lambda s=shape: normal_feeds("x", s))
    return tuple(found)


def zoo_model(name: str) -> ZooModel:
    """The zoo model called ``name``."""
    for model in models():
        if model.name == name:
            return model
    raise KeyError(f"no zoo model {name!r}; known: {', '.join(m.name for m in models())}")
