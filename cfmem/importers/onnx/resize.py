"""ONNX Resize and Upsample with known scales or sizes, as onnxruntime runs them: one matmul
with a known interpolation matrix per resized axis.

Input coordinates are computed as onnxruntime computes them (in float32), so a nearest
rounding ties where onnxruntime's does. Modes nearest and linear; linear along the two
innermost axes of a rank 2 to 5 input only; no antialias.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import onnx
from xdsl.ir import SSAValue

from cfmem.dialects import nn_compute as nc
from cfmem.dialects.shapes import normalize_axis
from cfmem.importers.onnx.core import Importer, OnnxImportError
from cfmem.importers.onnx.helpers import (
    attr,
    f32_operand,
    ints,
    known,
    make,
    optional_input,
    out_name,
    reshape,
    text_attr,
    version,
)

Coordinates = Callable[[np.ndarray, np.float32, int, int], np.ndarray]


def _half_pixel(x: np.ndarray, scale: np.float32, out: int, size: int) -> np.ndarray:
    return (x + np.float32(0.5)) / scale - np.float32(0.5)


def _half_pixel_symmetric(x: np.ndarray, scale: np.float32, out: int, size: int) -> np.ndarray:
    adjustment = np.float32(out) / (scale * np.float32(size))
    offset = np.float32(size) / np.float32(2) * (np.float32(1) - adjustment)
    return (np.float64(offset) + (x.astype(np.float64) + 0.5) / np.float64(scale) - 0.5).astype(np.float32)


def _align_corners(x: np.ndarray, scale: np.float32, out: int, size: int) -> np.ndarray:
    return np.zeros_like(x) if out == 1 else x * np.float32(size - 1) / np.float32(out - 1)


RESIZE_COORDINATES: dict[str, Coordinates] = {
    "half_pixel": _half_pixel,
    "half_pixel_symmetric": _half_pixel_symmetric,
    "pytorch_half_pixel": lambda x, scale, out, size: _half_pixel(x, scale, out, size) if out > 1 else np.zeros_like(x),
    "align_corners": _align_corners,
    "asymmetric": lambda x, scale, out, size: x / scale,
    "tf_half_pixel_for_nn": lambda x, scale, out, size: (x + np.float32(0.5)) / scale,
}
"""``coordinate_transformation_mode`` -> the input coordinate of each output index ``x``
along an axis of ``size`` resized to ``out`` by ``scale``, in float32 (half_pixel_symmetric's
last steps in double) as onnxruntime computes it, so a nearest rounding ties where
onnxruntime's does."""


def _round_half_away(c: np.ndarray) -> np.ndarray:
    return np.sign(c) * np.floor(np.abs(c) + np.float32(0.5))


NEAREST_ROUNDINGS: dict[str, Callable[[np.ndarray, np.float32], np.ndarray]] = {
    "round_prefer_floor": lambda c, scale: np.where(c - np.floor(c) == np.float32(0.5), np.floor(c), _round_half_away(c)),
    "round_prefer_ceil": lambda c, scale: _round_half_away(c),
    "floor": lambda c, scale: np.floor(c),
    "ceil": lambda c, scale: np.ceil(c),
    "simple": lambda c, scale: np.ceil(c) if scale < 1 else np.trunc(c),
}
"""``nearest_mode`` -> the input index a coordinate rounds to (clamped to the axis after);
``simple`` is Upsample's and Resize 10's: truncation, up when downsampling."""


@dataclass(frozen=True)
class Resampling:
    """How Resize or Upsample reads the input: ``mode`` nearest or linear, a
    ``RESIZE_COORDINATES`` key and a ``NEAREST_ROUNDINGS`` key."""

    mode: str
    coordinates: str
    nearest: str

    def matrix(self, size: int, out: int, scale: np.float32) -> np.ndarray:
        """The (out, size) matrix taking an axis of the input to the output's: one 1 per
        row for nearest, the two neighbours' weights (coordinates clamped to the axis) for linear."""
        source = RESIZE_COORDINATES[self.coordinates](np.arange(out, dtype=np.float32), scale, out, size)
        weights = np.zeros((out, size), np.float32)
        rows = np.arange(out)
        if self.mode == "nearest":
            weights[rows, np.clip(NEAREST_ROUNDINGS[self.nearest](source, scale), 0, size - 1).astype(np.int64)] = 1
            return weights
        source = np.clip(source, np.float32(0), np.float32(size - 1))
        low = np.minimum(source.astype(np.int64), size - 1)
        high = np.minimum(low + 1, size - 1)
        np.add.at(weights, (rows, low), np.where(low == high, np.float32(0.5), np.abs(source - high.astype(np.float32))))
        np.add.at(weights, (rows, high), np.where(low == high, np.float32(0.5), np.abs(source - low.astype(np.float32))))
        return weights


def resampling_of(imp: Importer, node: onnx.NodeProto) -> Resampling:
    """The node's mode, coordinate transform and rounding; Upsample and Resize 10 map
    output to input coordinates as ``x / scale`` and round the ``simple`` way."""
    mode = text_attr(node, "mode", "nearest")
    if mode not in ("nearest", "linear"):
        raise OnnxImportError(f"{node.op_type} mode {mode!r} is not supported (nearest, linear)")
    if node.op_type == "Upsample" or version(imp, node) < 11:
        return Resampling(mode, "asymmetric", "simple")
    coordinates = text_attr(node, "coordinate_transformation_mode", "half_pixel")
    if coordinates not in RESIZE_COORDINATES:
        raise OnnxImportError(f"Resize coordinate_transformation_mode {coordinates!r} is not supported ({', '.join(RESIZE_COORDINATES)})")
    nearest = text_attr(node, "nearest_mode", "round_prefer_floor")
    if nearest not in NEAREST_ROUNDINGS or nearest == "simple":
        raise OnnxImportError(f"Resize nearest_mode {nearest!r} is not one of round_prefer_floor, round_prefer_ceil, floor, ceil")
    if attr(node, "antialias", 0):
        raise OnnxImportError("Resize antialias is not supported")
    return Resampling(mode, coordinates, nearest)


def resize_targets(imp: Importer, node: onnx.NodeProto, inputs: list, xs: Sequence[int]) -> tuple[list[np.float32], list[int]]:
    """Each axis' scale and output size, from known ``scales`` (output ``floor(size * scale)``)
    or ``sizes`` (scale ``out / size``), over ``axes`` (from 18, with
    ``keep_aspect_ratio_policy`` for sizes); every other axis keeps its size."""
    rank = len(xs)
    if node.op_type == "Upsample" and version(imp, node) < 9:
        given_scales, given_sizes = list(attr(node, "scales")), None
    elif node.op_type == "Upsample" or version(imp, node) < 11:
        given_scales, given_sizes = [float(v) for v in known(inputs[1], f"{node.op_type} scales", imp).reshape(-1)], None
    else:
        scales_in, sizes_in = optional_input(inputs, 2), optional_input(inputs, 3)
        given_scales = [float(v) for v in known(scales_in, "Resize scales").reshape(-1)] if scales_in is not None else []
        given_sizes = ints(sizes_in, "Resize sizes") if sizes_in is not None else None
        if given_scales and given_sizes is not None:
            raise OnnxImportError("Resize takes scales or sizes, not both")
    axes = [normalize_axis(int(a), rank) for a in attr(node, "axes", range(rank))]
    given = given_scales if given_sizes is None else given_sizes
    if len(given) != len(axes):
        raise OnnxImportError(f"{node.op_type} has {len(given)} {'scales' if given_sizes is None else 'sizes'} for {len(axes)} axes")
    scales, sizes = [np.float32(1)] * rank, list(xs)
    if given_sizes is None:
        for axis, scale in zip(axes, given_scales):
            scales[axis] = np.float32(scale)
            sizes[axis] = int(np.float32(scale) * np.float32(xs[axis]))
        return scales, sizes
    policy = text_attr(node, "keep_aspect_ratio_policy", "stretch")
    ratios = [np.float32(out) / np.float32(xs[axis]) for axis, out in zip(axes, given_sizes)]
    if policy == "stretch":
        for axis, out, ratio in zip(axes, given_sizes, ratios):
            scales[axis], sizes[axis] = ratio, int(out)
        return scales, sizes
    if policy not in ("not_larger", "not_smaller"):
        raise OnnxImportError(f"Resize keep_aspect_ratio_policy {policy!r} is not one of stretch, not_larger, not_smaller")
    ratio = min(ratios) if policy == "not_larger" else max(ratios)
    for axis in axes:
        scales[axis], sizes[axis] = ratio, int(_round_half_away(ratio * np.float32(xs[axis])))
    return scales, sizes


def resize_axis(imp: Importer, x: SSAValue, axis: int, weights: np.ndarray, name: str) -> SSAValue:
    """``x`` resized along ``axis`` by multiplying with the known (out, size) ``weights``,
    the result named ``name``: the innermost axis as ``x @ weights.T``, any other as
    ``weights @ x`` over ``x`` viewed as (before, size, after)."""
    xs = imp.b.shape(x)
    out_shape = (*xs[:axis], weights.shape[0], *xs[axis + 1 :])
    hint = f"{name}_weights"
    if axis == len(xs) - 1:
        operands = [reshape(imp, x, (1, xs[0])) if len(xs) == 1 else x, imp.runtime(np.ascontiguousarray(weights.T), hint)]
    else:
        viewed = x if axis == len(xs) - 2 else reshape(imp, x, (int(np.prod(xs[:axis])), xs[axis], int(np.prod(xs[axis + 1 :]))))
        operands = [imp.runtime(weights, hint), viewed]
    if len(xs) >= 2 and axis >= len(xs) - 2:
        return make(imp, nc.MatmulOp, operands, {}, name)
    return reshape(imp, make(imp, nc.MatmulOp, operands, {}, imp.name(f"{name}_rows")), out_shape, name)


def resize(imp, node, inputs):
    """Resize and Upsample with known scales or sizes, as onnxruntime runs them: the input
    itself when the output has its shape, else one matmul with a known interpolation matrix
    per axis whose scale is not 1 (exact for nearest, whose rows hold a single 1, on finite
    inputs: an infinity or NaN would spread along its row; linear along the two innermost
    axes of a rank 2 to 5 input, one after the other)."""
    x = f32_operand(imp, inputs[0], node.input[0])
    xs = imp.b.shape(x)
    sampling = resampling_of(imp, node)
    scales, sizes = resize_targets(imp, node, inputs, xs)
    if 0 in sizes:
        raise OnnxImportError(f"{node.op_type} to the empty shape {sizes} is not supported")
    if min(sizes) < 0:
        raise OnnxImportError(f"{node.op_type} to the shape {sizes} is not supported (every size must be positive)")
    moved = [] if tuple(sizes) == tuple(xs) else [axis for axis, scale in enumerate(scales) if scale != 1]
    if sampling.mode == "linear" and not 2 <= len(xs) <= 5:
        raise OnnxImportError(f"{node.op_type} linear of a rank-{len(xs)} input is not supported (ranks 2 to 5)")
    if sampling.mode == "linear" and moved and min(moved) < len(xs) - 2:
        raise OnnxImportError(f"{node.op_type} linear along axes {moved} is not supported (only the two innermost axes)")
    name = out_name(imp, node)
    for axis in reversed(moved):
        weights = sampling.matrix(xs[axis], sizes[axis], scales[axis])
        x = resize_axis(imp, x, axis, weights, name if axis == moved[0] else imp.name(f"{name}_axis{axis}"))
    return [x]
