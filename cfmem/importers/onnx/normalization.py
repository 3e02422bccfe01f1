"""ONNX normalizations: BatchNormalization (inference: a known scale and shift per channel),
InstanceNormalization, LayerNormalization, GroupNormalization, LpNormalization and LRN, as
nn reductions and elementwise ops in onnxruntime's order of operations (so they round as
onnxruntime's kernels do).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import onnx
from xdsl.ir import SSAValue

from cfmem.dialects import nn_compute as nc
from cfmem.dialects.shapes import normalize_axis
from cfmem.importers.onnx.core import OnnxImportError, Value
from cfmem.importers.onnx.helpers import attr, f32_operand, known, number, optional_input, out_name, reshape, version
from cfmem.importers.onnx.reduce import reduced


def lrn(imp, node, inputs):
    """LRN over the channels of an NCHW tensor: ``x / (bias + alpha / size * s) ** beta``, ``s``
    the sum of squares over ``size`` channels around each (``(size - 1) // 2`` before it). The
    sum is a mean: the squares as one image of channels x pixels, zero-padded along the
    channels and average-pooled ``size`` channels at a time."""
    b = imp.b
    x = f32_operand(imp, inputs[0], node.output[0])
    xs = b.shape(x)
    if len(xs) != 4:
        raise OnnxImportError(f"LRN of a rank-{len(xs)} input is not supported (NCHW only)")
    size = attr(node, "size")
    if not isinstance(size, int) or size < 1:
        raise OnnxImportError(f"LRN size must be a positive integer, not {size!r}")
    alpha, beta, bias = attr(node, "alpha", 1e-4), attr(node, "beta", 0.75), attr(node, "bias", 1.0)
    out = out_name(imp, node)
    n, c, height, width = xs
    squares = b.reshape(b.mul(x, x), [n, 1, c, height * width])
    before = (size - 1) // 2
    padded = b.pad(squares, [0, 0, before, 0, 0, 0, size - 1 - before, 0])
    mean = b.reshape(b.avg_pool2d(padded, (size, 1), stride=1), xs)
    scale = b.add(b.mul(mean, number(imp, alpha, f"{out}_alpha")), number(imp, bias, f"{out}_bias"))
    return [b.div(x, b.pow(scale, number(imp, beta, f"{out}_beta")), out)]


def broadcast_operand(imp, value: Value, shape: Sequence[int], hint: str) -> SSAValue:
    """A known or run-time f32 operand reshaped to ``shape`` (same elements), to broadcast."""
    if isinstance(value, np.ndarray):
        return imp.runtime(value.astype(np.float32).reshape(shape), hint)
    return reshape(imp, f32_operand(imp, value, hint), shape)


def moments(imp, x: SSAValue, axes: list[int], epsilon: float) -> tuple[SSAValue, SSAValue]:
    """The mean over ``axes`` (kept as 1) and ``1 / sqrt(var + epsilon)``, the variance taken
    about the mean."""
    b = imp.b
    mean = reduced(imp, nc.ReduceMeanOp, x, axes, True)
    centered = b.sub(x, mean)
    variance = reduced(imp, nc.ReduceMeanOp, b.mul(centered, centered), axes, True)
    return mean, b.reciprocal(b.sqrt(b.add(variance, number(imp, epsilon, "epsilon"))))


def scaled(imp, y: SSAValue, scale: SSAValue, bias: SSAValue | None, name: str) -> SSAValue:
    """``y * scale + bias`` (no bias: ``y * scale``), the result named ``name``."""
    if bias is None:
        return imp.b.mul(y, scale, name)
    return imp.b.add(imp.b.mul(y, scale), bias, name)


def check_stash_type(node: onnx.NodeProto) -> None:
    stash_type = attr(node, "stash_type", 1)
    if stash_type != 1:
        raise OnnxImportError(f"{node.op_type} stash_type {stash_type} is not supported (only 1: float32)")


def channels_first_shape(node: onnx.NodeProto, x: SSAValue, imp, min_rank: int) -> tuple[int, ...]:
    """The (N, C, ...) shape of ``x``; a one-line error below ``min_rank``."""
    xs = imp.b.shape(x)
    if len(xs) < min_rank:
        raise OnnxImportError(f"{node.op_type} needs an (N, C, ...) input of rank {min_rank} or more, not {len(xs)}")
    return xs


def per_channel_shape(xs: Sequence[int]) -> tuple[int, ...]:
    """The shape of one value per channel broadcasting over an (N, C, ...) input."""
    return (xs[1],) + (1,) * (len(xs) - 2)


def batch_normalization(imp, node, inputs):
    """Inference: ``x * a + b`` per channel with known ``a = (1 / sqrt(var + epsilon)) * scale``
    and ``b = B - mean * a``, folded in float32 in onnxruntime's order (which it matches bit for bit).
    Version 7's ``spatial = 0`` has one statistic per element of a sample, not per channel."""
    if attr(node, "training_mode", 0):
        raise OnnxImportError("BatchNormalization with training_mode 1 is not supported (only inference)")
    if any(node.output[1:]):
        raise OnnxImportError("the training outputs of BatchNormalization (running or saved mean and variance) are not supported")
    x = f32_operand(imp, inputs[0], node.input[0])
    xs = channels_first_shape(node, x, imp, 2)
    scale, bias, mean, var = (
        known(v, f"BatchNormalization {what}").astype(np.float32)
        for v, what in zip(inputs[1:5], ("scale", "B", "input_mean", "input_var"))
    )
    a = np.float32(1) / np.sqrt(var + np.float32(attr(node, "epsilon", 1e-5))) * scale
    shift = bias - mean * a
    shape = xs[1:] if attr(node, "spatial", 1) == 0 else per_channel_shape(xs)
    name = out_name(imp, node)
    factor = imp.runtime(a.reshape(shape), f"{name}_a")
    return [imp.b.add(imp.b.mul(x, factor), imp.runtime(shift.reshape(shape), f"{name}_b"), name)]


def instance_normalization(imp, node, inputs):
    """Each channel of each sample normalized over its spatial axes, then scaled per channel,
    in onnxruntime's order: ``x * a + (B - mean * a)`` with ``a = inv_std_dev * scale``."""
    b = imp.b
    x = f32_operand(imp, inputs[0], node.input[0])
    xs = channels_first_shape(node, x, imp, 3)
    mean, inv_std_dev = moments(imp, x, list(range(2, len(xs))), attr(node, "epsilon", 1e-5))
    scale, bias = (broadcast_operand(imp, inputs[k], per_channel_shape(xs), node.input[k]) for k in (1, 2))
    a = b.mul(inv_std_dev, scale)
    return [b.add(b.mul(x, a), b.sub(bias, b.mul(mean, a)), out_name(imp, node))]


def layer_normalization(imp, node, inputs):
    """Normalized over the axes from ``axis`` on, then scaled (and shifted); the optional
    Mean and InvStdDev outputs keep the normalized axes as 1. The variance is onnxruntime's
    ``mean(x * x) - mean(x) ** 2`` (the ONNX function takes it about the mean, which rounds
    differently where the mean is large against the spread)."""
    check_stash_type(node)
    b = imp.b
    x = f32_operand(imp, inputs[0], node.input[0])
    rank = len(b.shape(x))
    axes = list(range(normalize_axis(attr(node, "axis", -1), rank), rank))
    mean = reduced(imp, nc.ReduceMeanOp, x, axes, True)
    mean_square = reduced(imp, nc.ReduceMeanOp, b.mul(x, x), axes, True)
    variance = b.sub(mean_square, b.mul(mean, mean))
    std_dev = b.sqrt(b.add(variance, number(imp, attr(node, "epsilon", 1e-5), "epsilon")))
    scale = f32_operand(imp, inputs[1], node.input[1])
    bias = optional_input(inputs, 2)
    bias = None if bias is None else f32_operand(imp, bias, node.input[2])
    y = scaled(imp, b.div(b.sub(x, mean), std_dev), scale, bias, out_name(imp, node))
    return [y, mean, b.reciprocal(std_dev)]


def group_normalization(imp, node, inputs):
    """Each of ``num_groups`` channel groups of each sample normalized over its channels and
    spatial axes; version 18 scales and shifts per group, version 21 per channel."""
    check_stash_type(node)
    x = f32_operand(imp, inputs[0], node.input[0])
    xs = channels_first_shape(node, x, imp, 2)
    groups = attr(node, "num_groups")
    if xs[1] % groups:
        raise OnnxImportError(f"GroupNormalization of {xs[1]} channels into {groups} groups: not a divisor")
    grouped = reshape(imp, x, (xs[0], groups, -1))
    mean, inv_std_dev = moments(imp, grouped, [2], attr(node, "epsilon", 1e-5))
    y = imp.b.mul(imp.b.sub(grouped, mean), inv_std_dev)
    name = out_name(imp, node)
    if version(imp, node) < 21:
        scale, bias = (broadcast_operand(imp, inputs[k], (groups, 1), node.input[k]) for k in (1, 2))
        return [reshape(imp, scaled(imp, y, scale, bias, imp.name(f"{name}_grouped")), xs, name)]
    scale, bias = (broadcast_operand(imp, inputs[k], per_channel_shape(xs), node.input[k]) for k in (1, 2))
    return [scaled(imp, reshape(imp, y, xs), scale, bias, name)]


def lp_normalization(imp, node, inputs):
    """``x`` divided by its L1 or L2 norm along ``axis`` (default -1); 0 where the norm is 0,
    as in onnxruntime, also where it underflows to 0 for a nonzero ``x``."""
    b = imp.b
    p = attr(node, "p", 2)
    if p not in (1, 2):
        raise OnnxImportError(f"LpNormalization p {p} is not supported (only 1 and 2)")
    x = f32_operand(imp, inputs[0], node.input[0])
    axis = normalize_axis(attr(node, "axis", -1), len(b.shape(x)))
    name = out_name(imp, node)
    if p == 1:
        norm = reduced(imp, nc.ReduceSumOp, b.abs(x), [axis], True)
    else:
        norm = b.sqrt(reduced(imp, nc.ReduceSumOp, b.mul(x, x), [axis], True))
    positive = b.sign(norm)  # 1 where the norm is positive, 0 where it is 0
    divisor = b.add(norm, b.sub(number(imp, 1.0, f"{name}_one"), positive))  # 1 where the norm is 0
    return [b.mul(b.div(x, divisor), positive, name)]
