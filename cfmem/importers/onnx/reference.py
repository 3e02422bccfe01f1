"""onnxruntime as the reference for imported models.

Feeds and outputs are keyed by ONNX tensor names, as the imported function's
inputs and results are; :func:`cfmem_inputs` leaves out the inputs that
``--input-value`` fixed. onnxruntime is an optional dependency (the
``test`` extra); it is imported only when called.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import numpy as np


def onnxruntime_session(path: str | Path, fusions: bool = True):
    """A quiet CPU onnxruntime session for the model at ``path``; ``fusions=False`` keeps its
    graph optimizations to the basic ones, which keep every op's own rounding (the extended
    ones fuse float subgraphs such as Gelu into kernels that round differently)."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.log_severity_level = 3
    if not fusions:
        options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_BASIC
    return onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def onnxruntime_runs(path: str | Path, feed_sets: list[Mapping[str, np.ndarray]], fusions: bool = True) -> list[dict[str, np.ndarray]]:
    """The model's outputs under onnxruntime (CPU) on each input set, from one session, keyed
    by their names (see :func:`onnxruntime_session` for ``fusions``)."""
    session = onnxruntime_session(path, fusions)
    names = [o.name for o in session.get_outputs()]
    return [{name: np.asarray(value) for name, value in zip(names, session.run(names, dict(feeds)))} for feeds in feed_sets]


def onnxruntime_outputs(path: str | Path, feeds: Mapping[str, np.ndarray], fusions: bool = True) -> dict[str, np.ndarray]:
    """The model's outputs under onnxruntime (CPU) on one input set, keyed by their names."""
    return onnxruntime_runs(path, [feeds], fusions)[0]


def cfmem_inputs(feeds: Mapping[str, np.ndarray], fixed: Mapping[str, float] = {}) -> dict[str, np.ndarray]:
    """``feeds`` as inputs of the imported function: fixed inputs left out."""
    return {name: np.asarray(value) for name, value in feeds.items() if name not in fixed}


def max_abs_error(reference: Mapping[str, np.ndarray], outputs: Mapping[str, np.ndarray]) -> float:
    """Largest absolute difference over all outputs: inf on a shape mismatch or where one
    side is NaN and the other is not; equal infinities and NaN against NaN count as 0."""
    worst = 0.0
    for name, ref in reference.items():
        got = np.asarray(outputs[name])
        if got.shape != ref.shape:
            return float("inf")
        a, b = got.astype(np.float64), ref.astype(np.float64)
        with np.errstate(invalid="ignore"):
            diff = np.where(a == b, 0.0, np.abs(a - b))
        diff = np.where(np.isnan(a) & np.isnan(b), 0.0, np.where(np.isnan(diff), np.inf, diff))
        worst = max(worst, float(np.max(diff, initial=0.0)))
    return worst
