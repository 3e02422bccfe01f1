"""Real ONNX models for importer tests and benchmarks, fetched or generated into a cache.

Nothing here is committed: files live under :func:`cache_dir` and are made on first use.

* :func:`silero_model` extracts a Silero VAD model from the ``silero-vad`` wheel
  (downloaded with pip, no dependencies installed).
* :func:`cond_mlp`, :func:`cond_conv` and :func:`cond_chain` export small PyTorch modules
  with nested data-dependent ``torch.cond`` through ``torch.onnx.export(dynamo=True)``
  at opset 18; each ``torch.cond`` becomes an ONNX ``If``. They need the ``torch`` extra
  (see :func:`torch_available`). The file name carries a hash of this source file and
  of the torch and onnxscript versions, so a change to either regenerates the model.

Every predicate is a statistic of the input ``x``, so :func:`cond_inputs` can pick an
input for each branch path. With ``x = s * (1 + a * p)``, ``p`` a fixed zero-mean,
unit-variance pattern:

* ``x.mean() > 0`` (or ``x.sum() > 0``) holds when ``s > 0``,
* ``(x * x).mean() > 1`` holds when ``s**2 * (1 + a**2) > 1``,
* ``x.mean() ** 2 > 0.5 * (x * x).mean()`` holds when ``a < 1``.

A branch path is the string of predicate outcomes (``T``/``F``) in the order eager
execution evaluates them; :func:`branch_path` records it by running the module eagerly.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
import importlib.util
import io
import logging
import os
import subprocess
import sys
import tempfile
import time
import warnings
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from cfmem.files import atomic_write_bytes

SILERO_VERSION = "6.2.3"
SILERO_MODELS = ("silero_vad_op18_ifless.onnx", "silero_vad.onnx")
OPSET = 18


def cache_dir() -> Path:
    """``$CFMEM_CACHE`` if set, else ``~/.cache/cfmem``; created if missing."""
    root = os.environ.get("CFMEM_CACHE")
    path = Path(root) if root else Path.home() / ".cache" / "cfmem"
    path.mkdir(parents=True, exist_ok=True)
    return path


# ---------------------------------------------------------------------------- Silero VAD


def silero_model(name: str) -> Path:
    """Path of the cached Silero VAD model ``name``, one of :data:`SILERO_MODELS`.

    On a cache miss, downloads the ``silero-vad`` wheel with pip (network access to
    the package index assumed) and extracts ``silero_vad/data/<name>``.
    """
    if name not in SILERO_MODELS:
        raise ValueError(f"unknown Silero model {name!r}; expected one of {SILERO_MODELS}")
    target = cache_dir() / "silero" / SILERO_VERSION / name
    if target.exists():
        return target
    member = f"silero_vad/data/{name}"
    target.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(target, wheel_members("silero-vad", SILERO_VERSION, [member])[member])
    return target


def wheel_members(distribution: str, version: str, members: Sequence[str]) -> dict[str, bytes]:
    """The files ``members`` of the wheel of ``distribution==version``, downloaded once with
    ``pip download --no-deps`` into a temporary directory (network access to the package
    index assumed); a RuntimeError naming the reason when that fails."""
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--disable-pip-version-check",
               f"{distribution}=={version}", "-d", tmp]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        wheels = sorted(Path(tmp).glob(f"{distribution.replace('-', '_')}-*.whl"))
        if proc.returncode != 0 or not wheels:
            lines = (proc.stderr or proc.stdout).strip().splitlines()
            reason = lines[-1] if lines else f"exit code {proc.returncode}"
            raise RuntimeError(f"could not download {distribution}=={version}: {reason}")
        with zipfile.ZipFile(wheels[0]) as wheel:
            missing = [m for m in members if m not in wheel.namelist()]
            if missing:
                raise RuntimeError(f"{distribution}=={version} wheel has no {missing[0]}")
            return {m: wheel.read(m) for m in members}


# ---------------------------------------------------------------------------- torch.cond models


def torch_available() -> bool:
    """Whether torch and onnxscript (needed by the dynamo ONNX exporter) are importable."""
    return all(importlib.util.find_spec(m) is not None for m in ("torch", "onnxscript"))


_RECORD: list[bool] | None = None


def _cond(pred: Any, true_fn: Callable, false_fn: Callable, operands: tuple) -> Any:
    """``torch.cond``, or a plain Python branch that logs ``pred`` while :func:`branch_path` runs."""
    import torch

    if _RECORD is None:
        return torch.cond(pred, true_fn, false_fn, operands)
    taken = bool(pred)
    _RECORD.append(taken)
    return (true_fn if taken else false_fn)(*operands)


def _sign(x: Any) -> Any:
    return x.mean() > 0


def _large(x: Any) -> Any:
    return (x * x).mean() > 1.0


def _flat(x: Any) -> Any:
    m = x.mean()
    return m * m > 0.5 * (x * x).mean()


def _build_cond_mlp() -> Any:
    """Linear/ReLU/Sigmoid/Tanh on ``x[1, 16]``; paths ``TT``, ``TF``, ``F``.

    Outer ``x.sum() > 0``: the then branch holds an inner cond on ``(x * x).mean()``
    (Sigmoid vs Tanh head), the else branch a wider two-layer MLP. A Linear follows the cond.
    """
    import torch
    from torch import nn

    class CondMLP(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.fc0 = nn.Linear(16, 32)
            self.small_sig = nn.Linear(32, 32)
            self.small_tanh = nn.Linear(32, 32)
            self.wide1 = nn.Linear(32, 128)
            self.wide2 = nn.Linear(128, 32)
            self.head = nn.Linear(32, 8)

        def forward(self, x):
            h = torch.relu(self.fc0(x))

            def sig(x, h):
                return torch.sigmoid(self.small_sig(h))

            def tanh(x, h):
                return torch.tanh(self.small_tanh(h))

            def small(x, h):
                return _cond(_large(x), sig, tanh, (x, h))

            def wide(x, h):
                return self.wide2(torch.relu(self.wide1(h)))

            y = _cond(x.sum() > 0, small, wide, (x, h))
            return self.head(y)

    return CondMLP()


def _build_cond_conv() -> Any:
    """Conv2d/ReLU/pooling on ``x[1, 3, 8, 8]``, cond nested 3 deep; paths ``TTT``, ``TTF``, ``TF``, ``F``.

    ``f = relu(conv(x))`` is computed before the outer cond; the ``TTF`` leaf reads it
    again (its spatial mean). Every branch yields ``[1, 16]``; a Linear and Softmax follow.
    """
    import torch
    from torch import nn

    class CondConv(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.stem = nn.Conv2d(3, 8, 3, padding=1)
            self.pos = nn.Conv2d(8, 16, 3, padding=1)
            self.deep_a = nn.Conv2d(16, 16, 3, padding=1)
            self.deep_b = nn.Conv2d(16, 8, 1)
            self.mid = nn.Conv2d(16, 16, 1)
            self.neg = nn.Conv2d(8, 16, 3, padding=1)
            self.fc_a = nn.Linear(64, 16)
            self.fc_b = nn.Linear(16, 16)
            self.head = nn.Linear(16, 10)

        def forward(self, x):
            f = torch.relu(self.stem(x))  # [1, 8, 8, 8]

            def deep_a(x, f, g):
                a = nn.functional.avg_pool2d(torch.relu(self.deep_a(g)), 2)  # [1, 16, 2, 2]
                return self.fc_a(a.reshape(1, 64))

            def deep_b(x, f, g):
                b = torch.relu(self.deep_b(g)).mean(dim=(2, 3))  # [1, 8]
                return self.fc_b(torch.cat([b, f.mean(dim=(2, 3))], dim=1))

            def big(x, f, g):
                return _cond(_flat(x), deep_a, deep_b, (x, f, g))

            def small(x, f, g):
                return torch.sigmoid(self.mid(g)).mean(dim=(2, 3))

            def pos(x, f):
                g = nn.functional.max_pool2d(torch.relu(self.pos(f)), 2)  # [1, 16, 4, 4]
                return _cond(_large(x), big, small, (x, f, g))

            def neg(x, f):
                n = torch.relu(self.neg(nn.functional.avg_pool2d(f, 2)))  # [1, 16, 4, 4]
                return n.mean(dim=(2, 3))

            y = _cond(_sign(x), pos, neg, (x, f))
            return torch.softmax(self.head(y), dim=1)

    return CondConv()


def _build_cond_chain() -> Any:
    """Two conds in sequence on ``x[1, 16]``; paths ``{T, FT, FF} x {T, F}``.

    The first cond (``F`` branch nested on ``(x * x).mean()``) returns two tensors; both
    feed compute after it (Concat with a pre-cond value, Linear, residual Add), whose
    result the second cond reads, transposed in one branch. Softmax on the output.
    """
    import torch
    from torch import nn

    class CondChain(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.fc0 = nn.Linear(16, 24)
            self.pos = nn.Linear(24, 24)
            self.neg_big = nn.Linear(24, 64)
            self.neg_big2 = nn.Linear(64, 24)
            self.neg_small = nn.Linear(24, 24)
            self.mix = nn.Linear(48, 24)
            self.w = nn.Parameter(torch.randn(24, 24) * 0.2)
            self.after_a = nn.Linear(24, 12)
            self.after_b = nn.Linear(24, 12)

        def forward(self, x):
            h = torch.tanh(self.fc0(x))  # [1, 24]

            def pos(x, h):
                return torch.relu(self.pos(h)), torch.sigmoid(h)

            def neg_big(x, h):
                t = torch.relu(self.neg_big(h))
                return self.neg_big2(t), h * 2.0

            def neg_small(x, h):
                return torch.tanh(self.neg_small(h)), h - 1.0

            def neg(x, h):
                return _cond(_large(x), neg_big, neg_small, (x, h))

            y, r = _cond(_sign(x), pos, neg, (x, h))
            z = torch.relu(self.mix(torch.cat([y, h], dim=1))) + r  # [1, 24]

            def flat(x, z):
                return self.after_a(torch.matmul(z, self.w.t()))

            def rough(x, z):
                return self.after_b(torch.sigmoid(z) * z)

            out = _cond(_flat(x), flat, rough, (x, z))
            return torch.softmax(out, dim=1)

    return CondChain()


@dataclass(frozen=True)
class CondModel:
    """A torch.cond model: its builder, input shape and the ``(s, a)`` knobs per path."""

    name: str
    build: Callable[[], Any]
    input_shape: tuple[int, ...]
    seed: int
    knobs: dict[str, tuple[float, float]]


# (s, a): sign and scale of s, and contrast a; see the module docstring.
_POS_LARGE_FLAT = (2.0, 0.5)
_POS_LARGE_ROUGH = (2.0, 2.0)
_POS_SMALL_FLAT = (0.3, 0.5)
_POS_SMALL_ROUGH = (0.3, 2.0)
_NEG_LARGE_FLAT = (-2.0, 0.5)
_NEG_LARGE_ROUGH = (-2.0, 2.0)
_NEG_SMALL_FLAT = (-0.3, 0.5)
_NEG_SMALL_ROUGH = (-0.3, 2.0)

COND_MODELS: dict[str, CondModel] = {
    m.name: m
    for m in (
        CondModel("cond_mlp", _build_cond_mlp, (1, 16), 0,
                  {"TT": _POS_LARGE_ROUGH, "TF": _POS_SMALL_ROUGH, "F": _NEG_LARGE_ROUGH}),
        CondModel("cond_conv", _build_cond_conv, (1, 3, 8, 8), 1,
                  {"TTT": _POS_LARGE_FLAT, "TTF": _POS_LARGE_ROUGH,
                   "TF": _POS_SMALL_FLAT, "F": _NEG_LARGE_FLAT}),
        CondModel("cond_chain", _build_cond_chain, (1, 16), 2,
                  {"TT": _POS_LARGE_FLAT, "TF": _POS_LARGE_ROUGH,
                   "FTT": _NEG_LARGE_FLAT, "FTF": _NEG_LARGE_ROUGH,
                   "FFT": _NEG_SMALL_FLAT, "FFF": _NEG_SMALL_ROUGH}),
    )
}


def _pattern(shape: tuple[int, ...]) -> np.ndarray:
    """A fixed zero-mean, unit-variance pattern of ``shape``."""
    p = np.random.default_rng(1234).standard_normal(shape)
    p = p - p.mean()
    return p / np.sqrt((p * p).mean())


def cond_inputs(name: str) -> dict[str, dict[str, np.ndarray]]:
    """One input dict ``{"x": array}`` per branch path of model ``name``, keyed by the path."""
    spec = COND_MODELS[name]
    p = _pattern(spec.input_shape)
    return {path: {"x": (s * (1.0 + a * p)).astype(np.float32)}
            for path, (s, a) in spec.knobs.items()}


def _module(name: str) -> Any:
    """The eval-mode module ``name`` with weights from its fixed seed."""
    import torch

    spec = COND_MODELS[name]
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(spec.seed)
        return spec.build().eval()


def branch_path(name: str, x: np.ndarray) -> tuple[str, np.ndarray]:
    """Run model ``name`` eagerly in PyTorch on ``x``: the branch path taken and the output."""
    import torch

    global _RECORD
    module = _module(name)
    _RECORD = []
    try:
        with torch.no_grad():
            out = module(torch.from_numpy(x)).numpy()
        path = "".join("T" if t else "F" for t in _RECORD)
    finally:
        _RECORD = None
    return path, out


@cache
def source_key(*files: str) -> str:
    """A short hash of this file, the given source files and the torch and onnxscript versions.

    The versions are the installed distributions' (``importlib.metadata``, the same strings
    as ``torch.__version__`` and ``onnxscript.__version__``), so a cache hit imports no torch.
    """
    h = hashlib.sha256(Path(__file__).read_bytes())
    for name in files:
        h.update(Path(name).read_bytes())
    versions = {m: importlib.metadata.version(m) for m in ("torch", "onnxscript")}
    h.update(f"torch={versions['torch']} onnxscript={versions['onnxscript']}".encode())
    return h.hexdigest()[:16]


@contextlib.contextmanager
def _quiet_export():
    """Silence the exporter's progress lines, warnings and log records below ERROR."""
    loggers = [logging.getLogger(n) for n in ("torch.onnx", "torch.__trace")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.ERROR)
    try:
        with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
            warnings.simplefilter("ignore")
            yield
    finally:
        for logger, level in zip(loggers, levels):
            logger.setLevel(level)


STALE_DAYS = 7
"""How long a cached model of other sources is kept after its last use."""


def cached_file(folder: str, name: str, key: str, make: Callable[[Path], None]) -> Path:
    """``<cache>/<folder>/<name>-<key>.onnx``, made by ``make(path)`` on a miss.

    ``make`` writes into a temporary file that is renamed into place, so a failed or
    interrupted run leaves no partial model. A hit marks the file as used; files of
    ``name`` with another key that no run has used for ``STALE_DAYS`` are removed (a
    checkout of other sources, running at the same time, may still be reading the rest).
    """
    where = cache_dir() / folder
    where.mkdir(parents=True, exist_ok=True)
    target = where / f"{name}-{key}.onnx"
    if target.exists():
        os.utime(target)
        return target
    with tempfile.TemporaryDirectory(dir=where) as tmp:
        out = Path(tmp) / target.name
        make(out)
        os.replace(out, target)
    unused_since = time.time() - STALE_DAYS * 86400
    for stale in where.glob(f"{name}-{'?' * len(key)}.onnx"):
        try:
            if stale != target and stale.stat().st_mtime < unused_since:
                stale.unlink()
        except FileNotFoundError:  # another run removed it first
            pass
    return target


def export_torch(module: Any, examples: tuple, path: Path, optimize: bool = True, **names: Any) -> None:
    """Export eval-mode ``module`` on ``examples`` to ONNX at :data:`OPSET` (dynamo exporter).

    ``optimize=False`` keeps ops the exporter's optimizer would fold (BatchNormalization
    after Conv); ``names`` passes ``input_names``/``output_names``.
    """
    import torch

    with _quiet_export():
        torch.onnx.export(module, examples, path, dynamo=True, opset_version=OPSET, external_data=False,
                          verbose=False, optimize=optimize, **names)


def cond_model(name: str) -> Path:
    """Path of the cached ONNX export of torch.cond model ``name``; exported on a miss
    (only a miss imports torch)."""
    if not torch_available():
        raise RuntimeError("torch.cond models need torch and onnxscript: pip install -e '.[torch]'")
    if name not in COND_MODELS:
        raise ValueError(f"unknown torch.cond model {name!r}; known: {', '.join(COND_MODELS)}")

    def make(out: Path) -> None:
        import torch

        example = torch.from_numpy(next(iter(cond_inputs(name).values()))["x"])
        export_torch(_module(name), (example,), out, input_names=["x"], output_names=["y"])

    return cached_file("torch_cond", name, source_key(), make)


def cond_mlp() -> Path:
    """ONNX file of :func:`_build_cond_mlp` (If nested 2 deep)."""
    return cond_model("cond_mlp")


def cond_conv() -> Path:
    """ONNX file of :func:`_build_cond_conv` (If nested 3 deep)."""
    return cond_model("cond_conv")


def cond_chain() -> Path:
    """ONNX file of :func:`_build_cond_chain` (two Ifs in sequence, the first nested 2 deep)."""
    return cond_model("cond_chain")
