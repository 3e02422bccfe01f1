"""Translation of single ONNX nodes for :mod:`cfmem.importers.onnx.core`.

``translate`` folds a node whose inputs are all known with onnx's reference
evaluator, and otherwise emits nn ops through the importer's GraphBuilder.
Each handler receives the importer, the node, its input values (``None`` for
an omitted optional input) and returns one value per node output.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np
import onnx
from onnx import helper
from xdsl.dialects.builtin import BoolAttr, FloatAttr, IntegerAttr, TensorType, f32, i64
from xdsl.ir import Attribute, SSAValue

from cfmem.dialects import nn_compute as nc
from cfmem.dialects import nn_quant as nq
from cfmem.dialects.shapes import normalize_axis, window_counts
from cfmem.importers.onnx.core import Importer, OnnxImportError, Scope, Value, add_initializers, constant
from cfmem.importers.onnx.elementwise import (
    BINARY,
    COMPARE,
    LOGICAL,
    UNARY,
    activation,
    binary,
    cast,
    clip,
    compare,
    logical,
    mod,
    unary,
    variadic,
    where,
)
from cfmem.importers.onnx.folding import FOLDED_BY_HANDLER, NOT_FOLDED, fold
from cfmem.importers.onnx.helpers import (
    QUANT_ELEMENTS,
    attr,
    dtype_of,
    f32_operand,
    ints,
    known,
    make,
    number,
    optional_input,
    out_name,
    reshape,
    shape_of,
    version,
)
from cfmem.importers.onnx.resize import resize
from cfmem.importers.onnx.tensor import (
    concat,
    depth_to_space,
    dropout,
    expand,
    flatten,
    gather,
    gather_elements,
    identity,
    pad,
    reshape_op,
    shape_op,
    size_op,
    slice_op,
    space_to_depth,
    split,
    squeeze,
    tile,
    top_k,
    transpose,
    unsqueeze,
)
from cfmem.importers.onnx_opsets import check_operator_version
from cfmem.interp import kernels

Handler = Callable[[Importer, onnx.NodeProto, list], list]


MICROSOFT = "com.microsoft"
MICROSOFT_OPS = ("QGemm", "QLinearAdd", "QLinearMul", "QLinearConcat", "QLinearSigmoid", "QLinearSoftmax")
"""onnxruntime's contrib ops that its quantizer writes (version 1 of their domain)."""


def translate(imp: Importer, node: onnx.NodeProto, inputs: list, scope: Scope) -> list[Value]:
    if node.domain == MICROSOFT and node.op_type in MICROSOFT_OPS:
        return HANDLERS[node.op_type](imp, node, inputs)
    if node.domain not in ("", "ai.onnx"):
        raise OnnxImportError(f"unsupported op domain {node.domain!r}")
    from cfmem.importers.onnx_sequences import SEQUENCE_OPS, TensorList, translate_sequence

    if node.op_type in SEQUENCE_OPS:
        check_operator_version(node.op_type, imp.opset)
        return translate_sequence(imp, node, inputs)
    if any(isinstance(v, TensorList) for v in inputs):
        raise OnnxImportError(f"{node.op_type} reads a sequence; only the sequence ops do")
    present = [v for v in inputs if v is not None]
    folded = node.op_type in NOT_FOLDED or node.op_type in FOLDED_BY_HANDLER
    if not folded and all(isinstance(v, np.ndarray) for v in present):
        return fold(imp, node, inputs)
    check_operator_version(node.op_type, imp.opset)
    imp.float_dtype = np.dtype(np.float16 if any(dtype_of(v) == np.float16 for v in present) else np.float32)
    if imp.float_dtype == np.float16 and (node.op_type in FLOAT16_VIA_FLOAT32 or scaled_gemm(node)):
        return via_float32(imp, node, inputs)
    if imp.float_dtype == np.float16 and node.op_type not in FLOAT16_OPS:
        supported = ", ".join((*FLOAT16_OPS, *FLOAT16_VIA_FLOAT32))
        raise OnnxImportError(f"{node.op_type} of float16 tensors is not supported (float16 models may use {supported})")
    if node.op_type == "If":
        return translate_if(imp, node, inputs, scope)
    if node.op_type in ("Loop", "Scan"):
        from cfmem.importers import onnx_loops  # it imports this module's helpers

        translate_loop = onnx_loops.translate_loop if node.op_type == "Loop" else onnx_loops.translate_scan
        return translate_loop(imp, node, inputs, scope)
    return HANDLERS[node.op_type](imp, node, inputs)


FLOAT16_OPS = (
    "Add", "Sub", "Mul", "Div", "Max", "Min", "Relu", "Sigmoid", "Tanh", "Sqrt", "Exp", "Log", "Neg", "Abs",
    "Floor", "Ceil", "Reciprocal", "Clip", "Equal", "Greater", "Less", "GreaterOrEqual", "LessOrEqual",
    "Conv", "Gemm", "MatMul", "MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool", "ReduceMean",
    "ReduceSum", "ReduceMax", "ReduceMin", "Softmax", "Concat", "Reshape", "Flatten", "Transpose", "Squeeze",
    "Unsqueeze", "Slice", "Split", "Pad", "Gather", "Identity", "Shape", "Cast",
)  # fmt: skip
"""Ops that take float16 tensors as nn ops on f16: each nn op computes in float32 and rounds
its result to float16 once (onnxruntime's CPU kernels upcast likewise); these ops are one nn
op each, or only move values. Others are refused by name, but ``FLOAT16_VIA_FLOAT32``."""

FLOAT16_VIA_FLOAT32 = (
    "LogSoftmax", "LeakyRelu", "PRelu", "Elu", "HardSigmoid", "HardSwish", "Softplus",
    "BatchNormalization", "LayerNormalization", "ReduceL2", "ReduceLogSumExp",
)  # fmt: skip
"""Ops that become several nn ops: on float16 tensors their inputs are cast to f32, the
float32 ops computed and the first result cast back to f16, so the op rounds to float16
once, as onnxruntime's upcasting kernels do (and not after every nn op it becomes)."""


def scaled_gemm(node: onnx.NodeProto) -> bool:
    """A Gemm with alpha or beta other than 1, whose operands the import scales in float32
    (on float16 tensors the scaled operands would otherwise round to float16 a second time)."""
    return node.op_type == "Gemm" and (attr(node, "alpha", 1.0) != 1.0 or attr(node, "beta", 1.0) != 1.0)


def via_float32(imp: Importer, node: onnx.NodeProto, inputs: list) -> list[Value]:
    """``node`` translated on float32 copies of its float16 inputs, its first result cast
    back to float16 (LayerNormalization's Mean and InvStdDev are float32 in ONNX already)."""
    widened = []
    for k, value in enumerate(inputs):
        if isinstance(value, np.ndarray) and value.dtype == np.float16:
            value = value.astype(np.float32)
        elif value is not None and dtype_of(value) == np.float16:
            value = imp.b.cast(value, np.float32, imp.name(f"{node.input[k]}_f32"))
        widened.append(value)
    imp.float_dtype = np.dtype(np.float32)
    results = HANDLERS[node.op_type](imp, node, widened)
    first = results[0]
    if isinstance(first, np.ndarray):
        return [first.astype(np.float16), *results[1:]]
    return [imp.b.cast(first, np.float16, imp.name(node.output[0])), *results[1:]]


# --- helpers -------------------------------------------------------------------------------


# --- aliases ---------------------------------------------------------------------------------


# --- elementwise ---------------------------------------------------------------------------


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


# --- logic and selection --------------------------------------------------------------------


# --- sliding windows (Conv, pooling) -----------------------------------------------------------

SPATIAL_DIMENSIONS = (1, 2)
"""Spatial ranks of Conv and pooling; 1-D runs as 2-D over a height of 1."""
SPATIAL_DIMENSIONS_CONV = (1, 2, 3)
"""Conv and float pooling also take 3 (as 2-D ops, one per tap of the kernel along the depth)."""

SAME_PAD_SPLIT: dict[str, Callable[[int], tuple[int, int]]] = {
    "SAME_UPPER": lambda total: (total // 2, total - total // 2),
    "SAME_LOWER": lambda total: (total - total // 2, total // 2),
}
"""``auto_pad`` -> (begin, end) share of the padding an axis needs for ``ceil(size / stride)``
outputs: an odd element goes at the end for SAME_UPPER, at the beginning for SAME_LOWER."""

AUTO_PADS = ("NOTSET", "VALID", *SAME_PAD_SPLIT)


@dataclass(frozen=True)
class Window:
    """A Conv or pooling window over the spatial axes of an (N, C, *spatial) tensor;
    ``pads`` in ONNX order: every axis' begin, then every axis' end."""

    kernel: list[int]
    strides: list[int]
    dilations: list[int]
    pads: list[int]

    def spans(self) -> list[int]:
        """Extent of the dilated kernel along each axis."""
        return [(k - 1) * d + 1 for k, d in zip(self.kernel, self.dilations)]

    def ceil_mode_overhang(self, sizes: Sequence[int]) -> list[int]:
        """Padding past each axis' end that ``ceil_mode`` adds: windows are kept up to the
        last one starting inside the input or its begin padding (onnxruntime's rule)."""
        spatial = len(sizes)
        overhang = []
        for size, span, stride, begin, end in zip(sizes, self.spans(), self.strides, self.pads[:spatial], self.pads[spatial:]):
            padded = size + begin + end
            outputs = -(-(padded - span) // stride) + 1
            if (outputs - 1) * stride >= size + begin:
                outputs -= 1
            overhang.append(max(0, (outputs - 1) * stride + span - padded))
        return overhang

    def as_2d(self) -> Window:
        """The window as nn's 2-D ops take it: a 1-D window runs over a height of 1. ONNX's
        2-D pads (top, left, bottom, right) are nn's order already."""
        if len(self.kernel) == 2:
            return self
        (begin, end) = self.pads
        return Window([1, *self.kernel], [1, *self.strides], [1, *self.dilations], [0, begin, 0, end])


def window(node: onnx.NodeProto, sizes: Sequence[int], kernel: Sequence[int]) -> Window:
    """``node``'s window over spatial ``sizes``, its ``auto_pad`` resolved into explicit pads."""
    spatial = len(kernel)
    strides = list(attr(node, "strides", [1] * spatial))
    dilations = list(attr(node, "dilations", [1] * spatial))
    explicit = list(attr(node, "pads", [0] * 2 * spatial))
    for what, values, count in (("strides", strides, spatial), ("dilations", dilations, spatial), ("pads", explicit, 2 * spatial)):
        if len(values) != count:
            raise OnnxImportError(f"{node.op_type} {what} {values} should have {count} values for {spatial} spatial dimensions")
    auto_pad = auto_pad_of(node)
    win = Window(list(kernel), strides, dilations, explicit if auto_pad == "NOTSET" else [0] * 2 * spatial)
    if auto_pad in SAME_PAD_SPLIT:
        shares = [SAME_PAD_SPLIT[auto_pad](max(0, total)) for total in same_padding(win, sizes)]
        win = replace(win, pads=[begin for begin, _ in shares] + [end for _, end in shares])
    return win


def auto_pad_of(node: onnx.NodeProto) -> str:
    auto_pad = attr(node, "auto_pad", b"NOTSET")
    auto_pad = auto_pad.decode() if isinstance(auto_pad, bytes) else auto_pad
    if auto_pad not in AUTO_PADS:
        raise OnnxImportError(f"{node.op_type} auto_pad {auto_pad!r} is not one of {', '.join(AUTO_PADS)}")
    return auto_pad


def same_padding(win: Window, sizes: Sequence[int]) -> list[int]:
    """The padding each axis needs for ``ceil(size / stride)`` outputs; negative where a
    stride longer than the kernel leaves input over."""
    return [(-(-size // stride) - 1) * stride + span - size for size, span, stride in zip(sizes, win.spans(), win.strides)]


def check_spatial(node: onnx.NodeProto, spatial: int, input_rank: int, dimensions: tuple[int, ...] = SPATIAL_DIMENSIONS) -> None:
    """A one-line error unless ``spatial`` is one of ``dimensions`` and the input is (N, C,
    *spatial)."""
    if spatial not in dimensions:
        supported = ", ".join(map(str, dimensions[:-1])) + f" or {dimensions[-1]}"
        raise OnnxImportError(f"{node.op_type} with {spatial} spatial dimensions is not supported ({supported})")
    if input_rank != spatial + 2:
        raise OnnxImportError(f"{node.op_type} over {spatial} spatial dimensions needs an input of rank {spatial + 2}, not {input_rank}")


def as_nchw(shape: Sequence[int]) -> tuple[int, ...]:
    """An (N, C, W) shape as (N, C, 1, W); (N, C, H, W) as it is."""
    return tuple(shape) if len(shape) == 4 else (shape[0], shape[1], 1, shape[2])


def from_nchw(imp: Importer, y: SSAValue, spatial: int, name: str) -> SSAValue:
    """A 2-D op's (N, C, 1, W) result back as (N, C, W) for a 1-D node."""
    if spatial == 2:
        return y
    n, c, _, w = imp.b.shape(y)
    return reshape(imp, y, (n, c, w), name)


# --- linear algebra ----------------------------------------------------------------------------


def conv_window(imp: Importer, node: onnx.NodeProto, x: SSAValue, w: np.ndarray) -> tuple[SSAValue, dict]:
    """A Conv-like node's input as NCHW and the window properties of nn's 2-D convolutions."""
    xs = imp.b.shape(x)
    check_spatial(node, w.ndim - 2, len(xs), SPATIAL_DIMENSIONS_CONV)
    win = window(node, xs[2:], list(w.shape[2:])).as_2d()
    props = {
        "strides": nc.i64_array(win.strides),
        "pads": nc.i64_array(win.pads),
        "dilations": nc.i64_array(win.dilations),
        "groups": IntegerAttr(int(attr(node, "group", 1)), i64),
    }
    return reshape(imp, x, as_nchw(xs)), props


def conv(imp, node, inputs):
    x, w, bias = (inputs + [None])[:3]
    w = known(w, "Conv weights")
    if w.ndim == 5:
        return [conv3d(imp, node, f32_operand(imp, x, node.input[0]), w, bias)]
    x, props = conv_window(imp, node, f32_operand(imp, x, node.input[0]), w)
    operands = [x, imp.runtime(w.reshape(as_nchw(w.shape)).astype(imp.float_dtype), node.input[1])]
    if bias is not None:
        operands.append(f32_operand(imp, bias, node.input[2]))
    name = out_name(imp, node)
    y = make(imp, nc.Conv2dOp, operands, props, name + ("_2d" if w.ndim == 3 else ""))
    return [from_nchw(imp, y, w.ndim - 2, name)]


def depth_taps(imp: Importer, x: SSAValue, win: Window, fill: float, name: str) -> tuple[list[SSAValue], int]:
    """For a 3-D window over an (N, C, D, H, W) tensor: per tap of the kernel along D, the
    input rows that tap reads for every output depth, as one (N * D_out, C, H, W) batch (the
    depth padded with ``fill``); and D_out."""
    b = imp.b
    n, c, d, h, w = b.shape(x)
    begin, end = win.pads[0], win.pads[3]
    if begin or end:
        x = b.pad(x, [0, 0, begin, 0, 0, 0, 0, end, 0, 0], value=fill, name=imp.name(f"{name}_depth_padded", "pad"))
    span, stride, dilation = win.spans()[0], win.strides[0], win.dilations[0]
    depth = (d + begin + end - span) // stride + 1
    if depth < 1:
        raise OnnxImportError(f"a 3-D window of depth {span} does not fit an input of depth {d} padded by {begin} and {end}")
    by_depth = b.transpose(x, [0, 2, 1, 3, 4], imp.name(f"{name}_by_depth", "transpose"))
    taps = []
    for k in range(win.kernel[0]):
        first = k * dilation
        rows = b.slice(by_depth, [first], [first + (depth - 1) * stride + 1], [1], [stride], imp.name(f"{name}_tap{k}", "slice"))
        taps.append(reshape(imp, rows, (n * depth, c, h, w)))
    return taps, depth


def from_depth_batch(imp: Importer, y: SSAValue, n: int, depth: int, name: str) -> SSAValue:
    """An (N * D_out, C, H, W) batch back as (N, C, D_out, H, W)."""
    _, c, h, w = imp.b.shape(y)
    return imp.b.transpose(reshape(imp, y, (n, depth, c, h, w)), [0, 2, 1, 3, 4], name)


def window_2d_props(win: Window, groups: int | None) -> dict:
    """nn's 2-D window properties for the H and W axes of a 3-D window."""
    props = {
        "strides": nc.i64_array(win.strides[1:]),
        "pads": nc.i64_array([win.pads[1], win.pads[2], win.pads[4], win.pads[5]]),
        "dilations": nc.i64_array(win.dilations[1:]),
    }
    if groups is not None:
        props["groups"] = IntegerAttr(groups, i64)
    return props


def conv3d(imp: Importer, node: onnx.NodeProto, x: SSAValue, w: np.ndarray, bias) -> SSAValue:
    """A 3-D Conv as 2-D convolutions, one per tap of the kernel along the depth: each reads,
    for every output depth, the input depth its tap meets (``depth_taps``), and their sum is
    the 3-D result."""
    xs = imp.b.shape(x)
    check_spatial(node, 3, len(xs), SPATIAL_DIMENSIONS_CONV)
    win = window(node, xs[2:], list(w.shape[2:]))
    name = out_name(imp, node)
    taps, depth = depth_taps(imp, x, win, 0.0, name)
    props = window_2d_props(win, int(attr(node, "group", 1)))
    total = None
    for k, tap in enumerate(taps):
        kernel = imp.runtime(np.ascontiguousarray(w[:, :, k]).astype(imp.float_dtype), f"{node.input[1]}_tap{k}")
        y = make(imp, nc.Conv2dOp, [tap, kernel], props, imp.name(f"{name}_tap{k}_conv", "conv"))
        total = y if total is None else imp.b.add(total, y)
    if bias is not None:
        b = f32_operand(imp, bias, node.input[2])
        total = imp.b.add(total, reshape(imp, b, (imp.b.shape(b)[0], 1, 1)))
    return from_depth_batch(imp, total, xs[0], depth, name)


def conv_transpose(imp, node, inputs):
    """ConvTranspose with known weights as a Conv (stride 1, the node's dilations and groups)
    of the flipped, per-group transposed kernel over the input with ``stride - 1`` zeros after
    each element, padded by ``span - 1 - pads`` (``output_padding`` more at the end) where
    that is positive and cropped where it is negative."""
    x, w, bias = (inputs + [None])[:3]
    w = known(w, "ConvTranspose weights")
    spatial = w.ndim - 2
    x = f32_operand(imp, x, node.input[0])
    xs = imp.b.shape(x)
    check_spatial(node, spatial, len(xs))
    groups = int(attr(node, "group", 1))
    if w.shape[0] != xs[1] or xs[1] % groups:
        raise OnnxImportError(f"ConvTranspose weights {list(w.shape)} with group {groups} do not fit an input of {xs[1]} channels")
    win = window(node, xs[2:], list(w.shape[2:]))
    extra = list(attr(node, "output_padding", [0] * spatial))
    if any(e >= s for e, s in zip(extra, win.strides)):
        raise OnnxImportError(f"ConvTranspose output_padding {extra} is not below the strides {win.strides}; not supported, as onnxruntime does not run it")
    pads = transposed_padding(node, xs[2:], win, extra)
    output = [f - b - a for f, b, a in zip(unpadded_transposed_output(xs[2:], win, extra), pads[:spatial], pads[spatial:])]
    if min(output) < 1:
        raise OnnxImportError(f"ConvTranspose output {output} is empty")
    name = out_name(imp, node)
    spread = interleave_zeros(imp, reshape(imp, x, as_nchw(xs)), as_nchw((0, 0, *win.strides))[2:], name)
    # around the spread input, which ends in stride - 1 zeros already
    begins = [span - 1 - p for span, p in zip(win.spans(), pads[:spatial])]
    ends = [span - 1 - p + e - (s - 1) for span, p, e, s in zip(win.spans(), pads[spatial:], extra, win.strides)]
    cropped = crop(imp, spread, [max(0, -b) for b in begins], [max(0, -e) for e in ends], name)
    conv_win = Window(win.kernel, [1] * spatial, win.dilations, [max(0, b) for b in begins] + [max(0, e) for e in ends]).as_2d()
    props = {
        "pads": nc.i64_array(conv_win.pads),
        "dilations": nc.i64_array(conv_win.dilations),
        "groups": IntegerAttr(groups, i64),
    }
    kernel = transposed_weights(w.astype(np.float32), groups)
    operands = [cropped, imp.runtime(kernel.reshape(as_nchw(kernel.shape)), f"{name}_kernel")]
    if bias is not None:
        operands.append(f32_operand(imp, bias, node.input[2]))
    y = make(imp, nc.Conv2dOp, operands, props, name + ("_2d" if spatial == 1 else ""))
    return [from_nchw(imp, y, spatial, name)]


def unpadded_transposed_output(sizes: Sequence[int], win: Window, extra: Sequence[int]) -> list[int]:
    """A ConvTranspose's output size along each axis before its pads are taken off."""
    return [s * (n - 1) + e + span for n, s, e, span in zip(sizes, win.strides, extra, win.spans())]


def transposed_padding(node: onnx.NodeProto, sizes: Sequence[int], win: Window, extra: Sequence[int]) -> list[int]:
    """A ConvTranspose's pads (every axis' begin, then every end): ``win``'s for NOTSET, none
    for VALID; for ``output_shape`` or SAME (``size * stride`` outputs) the padding that gives
    that output, split as the ONNX spec says (the odd element at the end for SAME_UPPER, at
    the beginning otherwise). An ``output_shape`` beyond the unpadded output (less than a
    stride beyond it without ``output_padding``) adds its extra elements at the end, as
    onnxruntime does."""
    spatial = len(sizes)
    auto_pad, output_shape = auto_pad_of(node), attr(node, "output_shape")
    if output_shape is None and auto_pad not in SAME_PAD_SPLIT:
        return win.pads if auto_pad == "NOTSET" else [0] * 2 * spatial
    full = unpadded_transposed_output(sizes, win, extra)
    if output_shape is None:
        targets = [n * s for n, s in zip(sizes, win.strides)]
        if any(t > f for t, f in zip(targets, full)):
            raise OnnxImportError(
                f"ConvTranspose with auto_pad {auto_pad} and output {targets} beyond its unpadded output {full} is not"
                " supported (onnxruntime gives the unpadded output, against the ONNX spec)"
            )
    else:
        targets = list(output_shape)[-spatial:]
        bare = [f - e for f, e in zip(full, extra)]
        if any(t - b >= s for t, b, s in zip(targets, bare, win.strides)):
            raise OnnxImportError(
                f"ConvTranspose output_shape {targets} reaches a stride {win.strides} or more past its unpadded output"
                f" without output_padding {bare}; not supported, as onnxruntime does not run it"
            )
    split = SAME_PAD_SPLIT["SAME_UPPER" if auto_pad == "SAME_UPPER" else "SAME_LOWER"]
    shares = [split(f - t) if f >= t else (0, f - t) for f, t in zip(full, targets)]
    return [begin for begin, _ in shares] + [end for _, end in shares]


def interleave_zeros(imp: Importer, x: SSAValue, strides: Sequence[int], name: str) -> SSAValue:
    """An (N, C, H, W) tensor with ``stride - 1`` zeros after each element along H and W:
    each axis padded at the end of a unit axis inserted after it."""
    if all(s == 1 for s in strides):
        return x
    n, c, h, w = imp.b.shape(x)
    (sh, sw) = strides
    units = reshape(imp, x, (n, c, h, 1, w, 1))
    spread = imp.b.pad(units, [0] * 6 + [0, 0, 0, sh - 1, 0, sw - 1], name=imp.name(f"{name}_spread", "pad"))
    return reshape(imp, spread, (n, c, h * sh, w * sw))


def crop(imp: Importer, x: SSAValue, begins: Sequence[int], ends: Sequence[int], name: str) -> SSAValue:
    """``x`` without ``begins[k]`` and ``ends[k]`` elements at either end of its last
    ``len(begins)`` axes (a 1-D crop acts on W)."""
    xs = imp.b.shape(x)
    axes = [len(xs) - len(begins) + k for k in range(len(begins))]
    if not any(begins) and not any(ends):
        return x
    return imp.b.slice(x, list(begins), [xs[a] - e for a, e in zip(axes, ends)], axes, [1] * len(axes), name=imp.name(f"{name}_cropped"))


def transposed_weights(w: np.ndarray, groups: int) -> np.ndarray:
    """ConvTranspose weights (C_in, C_out / groups, *kernel) as the equivalent Conv's
    (C_out, C_in / groups, *kernel): in and out channels swapped within each group, the
    kernel flipped along every spatial axis."""
    c_in, out_per_group, *kernel = w.shape
    per_group = w.reshape(groups, c_in // groups, out_per_group, *kernel).swapaxes(1, 2)
    swapped = per_group.reshape(groups * out_per_group, c_in // groups, *kernel)
    return np.ascontiguousarray(np.flip(swapped, axis=tuple(range(2, swapped.ndim))))


def gemm(imp, node, inputs):
    a, b, c = (inputs + [None])[:3]
    alpha, beta = attr(node, "alpha", 1.0), attr(node, "beta", 1.0)
    trans_a, trans_b = attr(node, "transA", 0), attr(node, "transB", 0)
    if trans_a:
        if not isinstance(a, np.ndarray):
            raise OnnxImportError("Gemm with transA on a run-time tensor is not supported")
        a = a.T
    if alpha != 1.0:
        b = known(b, "Gemm B with alpha != 1") * np.float32(alpha)
    n = shape_of(imp, b)[0 if trans_b else 1]
    if c is None or beta == 0.0:  # onnxruntime does not read C then: its NaNs do not propagate
        c = np.zeros((n,), imp.float_dtype)
    elif beta != 1.0:
        c = known(c, "Gemm C with beta != 1") * np.float32(beta)
    hints = [*node.input, f"{node.output[0]}_c"]
    operands = [f32_operand(imp, v, hints[k]) for k, v in enumerate((a, b, c))]
    props = {"trans_b": BoolAttr.from_bool(True)} if trans_b else {}
    return [make(imp, nc.GemmOp, operands, props, out_name(imp, node))]


def matmul(imp, node, inputs):
    a, b = (f32_operand(imp, v, node.input[k]) for k, v in enumerate(inputs[:2]))
    return [make(imp, nc.MatmulOp, [a, b], {}, out_name(imp, node))]


EINSUM_FORMS = "only matmul-like products of two operands and transposes of one are supported"


@dataclass(frozen=True)
class EinsumTerms:
    """An Einsum equation's index letters: one string per operand, and the output's."""

    equation: str
    operands: tuple[str, ...]
    output: str

    def refusal(self, reason: str) -> OnnxImportError:
        return einsum_refusal(self.equation, reason)


def einsum_refusal(equation: str, reason: str) -> OnnxImportError:
    return OnnxImportError(f"Einsum {equation!r}: {reason}; {EINSUM_FORMS}")


def einsum_terms(equation: str) -> EinsumTerms:
    """The terms of ``equation`` (spaces ignored); without ``->`` the output is every letter
    that occurs once, in alphabetical order. Refuses ellipses, other than one or two
    operands, and letters repeated in one term (diagonals)."""
    lhs, arrow, output = equation.replace(" ", "").partition("->")
    operands = tuple(lhs.split(","))
    if "." in lhs + output:
        raise einsum_refusal(equation, "an ellipsis")
    if len(operands) not in (1, 2):
        raise einsum_refusal(equation, f"{len(operands)} operands")
    letters = "".join(operands)
    if not arrow:
        output = "".join(sorted(c for c in set(letters) if letters.count(c) == 1))
    for term in (*operands, output):
        repeated = sorted({c for c in term if term.count(c) > 1})
        if repeated:
            raise einsum_refusal(equation, f"index {repeated[0]!r} repeated in the term {term!r}")
    return EinsumTerms(equation, operands, output)


def einsum_sizes(terms: EinsumTerms, shapes: Sequence[Sequence[int]]) -> dict[str, int]:
    """The size of each index letter; refuses terms that do not match their operand's rank,
    letters of unequal sizes, output letters no operand has, and letters summed over one
    operand only (not a matmul)."""
    sizes: dict[str, int] = {}
    for k, (term, shape) in enumerate(zip(terms.operands, shapes)):
        if len(term) != len(shape):
            raise terms.refusal(f"operand {k} has rank {len(shape)}, not the {len(term)} of {term!r}")
        for c, d in zip(term, shape):
            if sizes.setdefault(c, d) != d:
                raise terms.refusal(f"index {c!r} has sizes {sizes[c]} and {d}")
    for c in terms.output:
        if c not in sizes:
            raise terms.refusal(f"output index {c!r} is in no operand")
    for c in sizes:
        if c not in terms.output and sum(c in term for term in terms.operands) == 1:
            raise terms.refusal(f"index {c!r} is summed over one operand only")
    return sizes


def permuted(imp: Importer, x: SSAValue, have: str, want: str, name: str) -> SSAValue:
    """``x``, whose axes are the letters of ``have``, with its axes in the order of ``want``."""
    perm = [have.index(c) for c in want]
    if perm == list(range(len(perm))):
        return x
    return make(imp, nc.TransposeOp, [x], {"perm": nc.i64_array(perm)}, name)


def einsum(imp, node, inputs):
    """Einsum as Transpose, Reshape and MatMul: one operand is transposed; of two, each is
    transposed to (batch, free, summed) letters, resp. (batch, summed, free), and flattened to
    one axis per group, the matmul's result unflattened and transposed to the output."""
    equation = attr(node, "equation")
    terms = einsum_terms(equation.decode() if isinstance(equation, bytes) else equation)
    operands = [f32_operand(imp, v, node.input[k]) for k, v in enumerate(inputs)]
    sizes = einsum_sizes(terms, [imp.b.shape(v) for v in operands])
    name = out_name(imp, node)
    if len(operands) == 1:
        return [permuted(imp, operands[0], terms.operands[0], terms.output, name)]
    (a, b), (a_term, b_term), out = operands, terms.operands, terms.output
    batch = "".join(c for c in out if c in a_term and c in b_term)
    rows = "".join(c for c in out if c not in b_term)
    cols = "".join(c for c in out if c not in a_term)
    summed = "".join(c for c in a_term if c not in out)

    def grouped(x: SSAValue, term: str, matrix: tuple[str, str], hint: str) -> SSAValue:
        """``x`` transposed to the batch letters, then ``matrix``'s two groups, and flattened
        to one axis per group (no batch axis without batch letters)."""
        groups = [batch, *matrix] if batch else list(matrix)
        x = permuted(imp, x, term, "".join(groups), imp.name(f"{node.output[0]}_{hint}"))
        dims = [math.prod(sizes[c] for c in group) for group in groups]
        return reshape(imp, x, dims, imp.name(f"{node.output[0]}_{hint}_flat"))

    lhs, rhs = grouped(a, a_term, (rows, summed), "a"), grouped(b, b_term, (summed, cols), "b")
    product = make(imp, nc.MatmulOp, [lhs, rhs], {}, imp.name(f"{node.output[0]}_matmul"))
    order = batch + rows + cols
    unflat_name = name if order == out else imp.name(f"{node.output[0]}_unflat")
    return [permuted(imp, reshape(imp, product, [sizes[c] for c in order], unflat_name), order, out, name)]


# --- pooling, reductions ---------------------------------------------------------------------


def pool(imp, node, inputs):
    """1-D and 2-D pooling, dilated or not (3-D: :func:`pool3d`). ``ceil_mode`` is extra end
    padding, which neither nn op counts; AveragePool's ``count_include_pad`` is an explicit
    zero Pad of the input. MaxPool also takes quantized (int8, uint8) data."""
    quantized = node.op_type == "MaxPool" and dtype_of(inputs[0]) in QUANT_ELEMENTS
    x = inputs[0] if quantized else f32_operand(imp, inputs[0], node.input[0])
    kernel = list(attr(node, "kernel_shape"))
    spatial = len(kernel)
    xs = imp.b.shape(x)
    check_spatial(node, spatial, len(xs), SPATIAL_DIMENSIONS if quantized else SPATIAL_DIMENSIONS_CONV)
    if len(node.output) > 1 and node.output[1]:
        raise OnnxImportError(f"the Indices output of {node.op_type} is not supported")
    if spatial == 3:
        return [pool3d(imp, node, x, kernel)]
    win = window(node, xs[2:], kernel)
    if auto_pad_of(node) in SAME_PAD_SPLIT and any(d != 1 for d in win.dilations):
        raise OnnxImportError(
            f"{node.op_type} with auto_pad {auto_pad_of(node)} and dilations {win.dilations} is not supported"
            " (onnxruntime pads for the undilated kernel, against the ONNX spec)"
        )
    if auto_pad_of(node) in SAME_PAD_SPLIT and min(same_padding(win, xs[2:])) < 0:
        raise OnnxImportError(
            f"{node.op_type} with auto_pad {auto_pad_of(node)} needs a negative padding {same_padding(win, xs[2:])}"
            " (a stride past the kernel); not supported, as onnxruntime does not run it"
        )
    overhang = win.ceil_mode_overhang(xs[2:]) if attr(node, "ceil_mode", 0) else [0] * spatial
    x = reshape(imp, x, as_nchw(xs))
    if node.op_type == "AveragePool" and attr(node, "count_include_pad", 0) and any(win.pads):
        top, left, bottom, right = win.as_2d().pads
        x = imp.b.pad(x, [0, 0, top, left, 0, 0, bottom, right], name=imp.name(f"{node.output[0]}_padded", "pad"))
        win = replace(win, pads=[0] * 2 * spatial)
    begins, ends = win.pads[:spatial], win.pads[spatial:]
    win = replace(win, pads=[*begins, *(e + o for e, o in zip(ends, overhang))]).as_2d()
    props = {"kernel": nc.i64_array(win.kernel), "strides": nc.i64_array(win.strides), "pads": nc.i64_array(win.pads)}
    if any(d != 1 for d in win.dilations):
        props["dilations"] = nc.i64_array(win.dilations)
    cls = nc.MaxPool2dOp if node.op_type == "MaxPool" else nc.AvgPool2dOp
    name = out_name(imp, node)
    y = make(imp, cls, [x], props, name + ("_2d" if spatial == 1 else ""))
    return [from_nchw(imp, y, spatial, name)]


def pool3d(imp: Importer, node: onnx.NodeProto, x: SSAValue, kernel: list[int]) -> SSAValue:
    """A 3-D MaxPool or AveragePool as 2-D pools, one per tap of the kernel along the depth
    (``depth_taps``), combined across the taps. MaxPool takes their largest, the depth padded
    with -inf, which no window takes. AveragePool takes their mean, the depth padded with 0:
    with ``count_include_pad`` every window counts all its kernel's elements (the height and
    width padded with 0 too); without it, the 2-D pools count the valid ones of their height
    and width and the sum over the taps is divided by the valid taps of each output depth.
    ``pool`` checked the input's rank and the outputs."""
    xs = imp.b.shape(x)
    win = window(node, xs[2:], kernel)
    if attr(node, "ceil_mode", 0) or auto_pad_of(node) != "NOTSET":
        raise OnnxImportError(f"a 3-D {node.op_type} with ceil_mode or auto_pad is not supported")
    name = out_name(imp, node)
    is_max = node.op_type == "MaxPool"
    taps, depth = depth_taps(imp, x, win, -np.inf if is_max else 0.0, name)
    props = {"kernel": nc.i64_array(win.kernel[1:]), **window_2d_props(win, None)}
    if all(d == 1 for d in win.dilations[1:]):
        del props["dilations"]
    top, left, bottom, right = win.pads[1], win.pads[2], win.pads[4], win.pads[5]
    include_pad = not is_max and bool(attr(node, "count_include_pad", 0))
    if include_pad and any((top, left, bottom, right)):
        taps = [imp.b.pad(tap, [0, 0, top, left, 0, 0, bottom, right], name=imp.name(f"{name}_tap{k}_padded", "pad"))
                for k, tap in enumerate(taps)]  # fmt: skip
        props["pads"] = nc.i64_array([0, 0, 0, 0])
    combined = None
    for k, tap in enumerate(taps):
        cls, hint = (nc.MaxPool2dOp, "maxpool") if is_max else (nc.AvgPool2dOp, "avgpool")
        y = make(imp, cls, [tap], props, imp.name(f"{name}_tap{k}_pool", hint))
        combined = y if combined is None else (imp.b.max if is_max else imp.b.add)(combined, y)
    if not is_max:
        if include_pad:
            divisors = np.full(depth, win.kernel[0])
        else:  # the taps of each output depth that meet the input rather than its padding
            divisors = np.array(window_counts(xs[2], win.kernel[0], win.strides[0], win.pads[0], depth, win.dilations[0]))
        scale = np.tile(1.0 / divisors, xs[0]).astype(np.float32).reshape(-1, 1, 1, 1)
        combined = imp.b.mul(combined, imp.runtime(scale, f"{name}_depth_divisors"))
    return from_depth_batch(imp, combined, xs[0], depth, name)


def global_avg_pool(imp, node, inputs):
    """GlobalAveragePool over any number of spatial axes: nn's 2-D pool over the input as
    NCHW, or (N, C, 1, the product of the spatial sizes) for 3 or more."""
    x = f32_operand(imp, inputs[0], node.input[0])
    xs = imp.b.shape(x)
    if len(xs) < 3:
        raise OnnxImportError(f"GlobalAveragePool needs an input (N, C, spatial...) of rank 3 or more, not {len(xs)}")
    name = out_name(imp, node)
    as_2d = tuple(xs) if len(xs) == 4 else (xs[0], xs[1], 1, math.prod(xs[2:]))
    y = make(imp, nc.GlobalAvgPoolOp, [reshape(imp, x, as_2d)], {}, name if len(xs) == 4 else imp.name(f"{name}_2d"))
    return [reshape(imp, y, (xs[0], xs[1], *[1] * (len(xs) - 2)), name)]


def global_max_pool(imp, node, inputs):
    """GlobalMaxPool over any number of spatial axes: one max-pool window over the input
    seen as (N, C, 1, the product of the spatial sizes)."""
    x = f32_operand(imp, inputs[0], node.input[0])
    xs = imp.b.shape(x)
    if len(xs) < 3:
        raise OnnxImportError(f"GlobalMaxPool needs an input (N, C, spatial...) of rank 3 or more, not {len(xs)}")
    n, c, size = xs[0], xs[1], math.prod(xs[2:])
    name = out_name(imp, node)
    pooled_shape = (n, c, *[1] * (len(xs) - 2))
    window = reshape(imp, x, (n, c, 1, size))
    pooled = imp.b.max_pool2d(window, (1, size), name=name if len(xs) == 4 else imp.name(f"{name}_2d"))
    return [reshape(imp, pooled, pooled_shape, name)]


REDUCE_OPS: dict[str, type[nc.ReduceOp]] = {
    "ReduceMean": nc.ReduceMeanOp,
    "ReduceSum": nc.ReduceSumOp,
    "ReduceMax": nc.ReduceMaxOp,
    "ReduceMin": nc.ReduceMinOp,
    "ReduceProd": nc.ReduceProdOp,
}
"""ONNX reductions that are one nn reduction; the others combine ``nn.reduce_sum`` (and
``nn.reduce_max``) with elementwise ops."""

AXES_INPUT_SINCE = {"ReduceSum": 13}
"""The version from which a reduction reads ``axes`` from an input; 18 for the others."""


def reduction_axes(imp, node, inputs, rank: int) -> list[int]:
    """The axes a reduction node reduces, from the front and in order: the ``axes`` attribute
    before version 18 (13 for ReduceSum), the ``axes`` input from it on. No axes means every
    axis, or none with ``noop_with_empty_axes``."""
    if version(imp, node) < AXES_INPUT_SINCE.get(node.op_type, 18):
        axes = list(attr(node, "axes", []))
    else:
        axes = ints(inputs[1], f"{node.op_type} axes", imp) if optional_input(inputs, 1) is not None else []
    if not axes:
        return [] if attr(node, "noop_with_empty_axes", 0) else list(range(rank))
    return sorted(normalize_axis(int(a), rank) for a in axes)


def reduced(imp, cls: type[nc.ReduceOp], x: SSAValue, axes: list[int], keepdims: bool, name: str | None = None) -> SSAValue:
    """``cls`` over ``axes`` of ``x``; over no axis, ``x`` itself."""
    if not axes:
        return x
    props = {"axes": nc.i64_array(axes)}
    if not keepdims:
        props["keepdims"] = BoolAttr.from_bool(False)
    return make(imp, cls, [x], props, name or imp.name(cls.name[3:]))


def reduce(imp, node, inputs):
    """ONNX reductions as nn reductions and elementwise ops; over no axis each is its
    elementwise part alone (ReduceL1 ``|x|``, ReduceSumSquare ``x * x``), as onnxruntime
    computes them. ReduceLogSumExp subtracts the maximum before ``exp`` and adds it back, as
    onnxruntime does, an infinite maximum taken as 0 (so all -inf gives -inf, an inf gives inf)."""
    b, op = imp.b, node.op_type
    x = f32_operand(imp, inputs[0], node.input[0])
    axes = reduction_axes(imp, node, inputs, len(b.shape(x)))
    keepdims = bool(attr(node, "keepdims", 1))
    out = out_name(imp, node)
    if op in REDUCE_OPS:
        return [reduced(imp, REDUCE_OPS[op], x, axes, keepdims, out)]

    def total(value: SSAValue, name: str | None = None) -> SSAValue:
        return reduced(imp, nc.ReduceSumOp, value, axes, keepdims, name)

    if op == "ReduceL1":
        return [total(b.abs(x), out)] if axes else [b.abs(x, out)]
    if op == "ReduceSumSquare":
        return [total(b.mul(x, x), out)] if axes else [b.mul(x, x, out)]
    if op == "ReduceL2":
        return [b.sqrt(total(b.mul(x, x)), out)]
    if op == "ReduceLogSum":
        return [b.log(total(x), out)]
    peak = reduced(imp, nc.ReduceMaxOp, x, axes, True)  # ReduceLogSumExp
    peak = b.select(b.cmp("ne", b.sub(peak, peak), 0.0), 0.0, peak)  # inf (or NaN, whose sum is NaN anyway): 0
    sums = total(b.exp(b.sub(x, peak)))
    return [b.add(b.log(sums), reshape(imp, peak, b.shape(sums)), out)]


ARG_OPS: dict[str, type[nc.ArgExtremeOp]] = {"ArgMax": nc.ArgMaxOp, "ArgMin": nc.ArgMinOp}


def arg_extreme(imp, node, inputs):
    """ArgMax and ArgMin along ``axis`` (default 0): int64 indices, the first of tied extremes
    or, with ``select_last_index`` (from version 12), the last. Inputs without NaN (onnxruntime
    picks a NaN's index by rules of its own). The indices can feed comparisons and shape ops;
    ops that read indices (Gather) take known ones only."""
    x = f32_operand(imp, inputs[0], node.input[0])
    axis = normalize_axis(attr(node, "axis", 0), len(imp.b.shape(x)))
    props = {"axis": IntegerAttr(axis, i64)}
    if not attr(node, "keepdims", 1):
        props["keepdims"] = BoolAttr.from_bool(False)
    if attr(node, "select_last_index", 0):
        props["select_last_index"] = BoolAttr.from_bool(True)
    return [make(imp, ARG_OPS[node.op_type], [x], props, out_name(imp, node))]


def softmax(imp, node, inputs):
    """Softmax, LogSoftmax and Hardmax. From version 13, along ``axis`` (default -1); before,
    over the input coerced to 2-D at ``axis`` (default 1): every dimension from ``axis`` on is
    one row."""
    x = f32_operand(imp, inputs[0], node.input[0])
    xs = imp.b.shape(x)
    along = ALONG_AXIS[node.op_type]
    name = out_name(imp, node)
    if version(imp, node) >= 13:
        return [along(imp, x, normalize_axis(attr(node, "axis", -1), len(xs)), name)]
    axis = normalize_axis(attr(node, "axis", 1), len(xs))
    rows = (int(np.prod(xs[:axis])), int(np.prod(xs[axis:])))
    if rows == tuple(xs):
        return [along(imp, x, 1, name)]
    y = along(imp, reshape(imp, x, rows, imp.name(f"{name}_2d")), 1, imp.name(f"{name}_rows"))
    return [reshape(imp, y, xs, name)]


def cumsum(imp, node, inputs):
    """CumSum along a known axis (one integer), ``exclusive`` and ``reverse`` as attributes."""
    x = f32_operand(imp, inputs[0], node.input[0])
    axis = ints(inputs[1], "CumSum axis", imp)
    if len(axis) != 1:
        raise OnnxImportError(f"CumSum axis {axis} must be one integer")
    exclusive, reverse = bool(attr(node, "exclusive", 0)), bool(attr(node, "reverse", 0))
    return [imp.b.cumsum(x, axis[0], exclusive, reverse, out_name(imp, node))]


# --- resizing ----------------------------------------------------------------------------------

def softmax_along(imp, x: SSAValue, axis: int, name: str) -> SSAValue:
    return make(imp, nc.SoftmaxOp, [x], {"axis": IntegerAttr(axis, i64)}, name)


def log_softmax_along(imp, x: SSAValue, axis: int, name: str) -> SSAValue:
    """``(x - max) - log(sum(exp(x - max)))``, onnxruntime's stable order."""
    b = imp.b
    shifted = b.sub(x, reduced(imp, nc.ReduceMaxOp, x, [axis], True))
    return b.sub(shifted, b.log(reduced(imp, nc.ReduceSumOp, b.exp(shifted), [axis], True)), name)


def hardmax_along(imp, x: SSAValue, axis: int, name: str) -> SSAValue:
    """1 at the first maximum along ``axis``, else 0, for inputs without NaN or infinities:
    ``sign(x - max) + 1`` marks every maximum; weighted by ``size - index`` along the axis,
    the first maximum weighs most, and the same marking picks it out."""
    b = imp.b
    rank, size = len(b.shape(x)), b.shape(x)[axis]
    one = number(imp, 1.0, f"{name}_one")
    at_max = b.add(b.sign(b.sub(x, reduced(imp, nc.ReduceMaxOp, x, [axis], True))), one)
    weights = np.arange(size, 0, -1, dtype=np.float32).reshape((size,) + (1,) * (rank - axis - 1))
    score = b.mul(at_max, imp.runtime(weights, f"{name}_weights"))
    return b.add(b.sign(b.sub(score, reduced(imp, nc.ReduceMaxOp, score, [axis], True))), one, name)


ALONG_AXIS: dict[str, Callable[[Importer, SSAValue, int, str], SSAValue]] = {
    "Softmax": softmax_along,
    "LogSoftmax": log_softmax_along,
    "Hardmax": hardmax_along,
}
"""Each softmax-like op along one axis of its input."""


# --- normalization ----------------------------------------------------------------------------


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


# --- data movement --------------------------------------------------------------------------


# --- recurrent ------------------------------------------------------------------------------

DEFAULT_ACTIVATIONS = {"LSTM": ("Sigmoid", "Tanh", "Tanh"), "GRU": ("Sigmoid", "Tanh")}
"""Each recurrent op's activations per direction when none are given: the only ones supported."""

GATES = {"LSTM": 4, "GRU": 3}
"""How many gates each recurrent op stacks in its W, R and (twice) B."""


def string_attr(node: onnx.NodeProto, name: str, default: str) -> str:
    """A string attribute as text (onnx gives bytes)."""
    value = attr(node, name, default)
    return value.decode() if isinstance(value, bytes) else value


@dataclass(frozen=True)
class Recurrence:
    """One recurrent node's static shape: ``directions`` run in order (forward first when
    bidirectional), ``batch_major`` is layout 1 (X ``[batch, seq, input]``, states
    ``[batch, directions, hidden]``) rather than layout 0 (``[seq, batch, input]``,
    ``[directions, batch, hidden]``)."""

    directions: tuple[str, ...]
    batch_major: bool
    seq: int
    batch: int
    hidden: int


def recurrent_directions(node: onnx.NodeProto) -> tuple[str, ...]:
    direction = string_attr(node, "direction", "forward")
    if direction == "bidirectional":
        return ("forward", "reverse")
    if direction not in ("forward", "reverse"):
        raise OnnxImportError(f"{node.op_type} direction {direction!r} is not one of forward, reverse, bidirectional")
    return (direction,)


def check_recurrent_attributes(node: onnx.NodeProto, directions: int) -> None:
    """Refuse clip and any activations but the defaults (spelled out or not)."""
    op = node.op_type
    if attr(node, "clip") is not None:
        raise OnnxImportError(f"{op} clip is not supported")
    given = [a.decode() if isinstance(a, bytes) else a for a in attr(node, "activations", [])]
    defaults = DEFAULT_ACTIVATIONS[op]
    if given and given != list(defaults) * directions:
        raise OnnxImportError(f"{op} activations {', '.join(given)} are not supported (only {', '.join(defaults)} per direction)")


def recurrence(imp, node, x: Value, w: Value, seq_lens: Value | None) -> Recurrence:
    """The node's directions, layout and sizes; refuses what the unrolling cannot follow."""
    op = node.op_type
    directions = recurrent_directions(node)
    check_recurrent_attributes(node, len(directions))
    layout = attr(node, "layout", 0)
    if layout not in (0, 1):
        raise OnnxImportError(f"{op} layout {layout} is not 0 or 1")
    xs = shape_of(imp, x)
    if len(xs) != 3:
        expected = "batch_size, seq_length" if layout else "seq_length, batch_size"
        raise OnnxImportError(f"{op} input X has shape {list(xs)}, expected [{expected}, input_size]")
    batch, seq = (xs[0], xs[1]) if layout else (xs[1], xs[0])
    if seq_lens is not None and np.any(known(seq_lens, f"{op} sequence_lens") != seq):
        raise OnnxImportError(f"{op} sequence_lens shorter than the sequence are not supported")
    hidden = known(w, f"{op} W").shape[1] // GATES[op]
    return Recurrence(directions, bool(layout), seq, batch, hidden)


def direction_weights(node, rec: Recurrence, value: Value, what: str, direction: int) -> np.ndarray:
    """Known weights ``what`` (W, R or B) of one direction, as float32."""
    weights = known(value, f"{node.op_type} {what}")
    if weights.shape[0] != len(rec.directions):
        raise OnnxImportError(f"{node.op_type} {what} holds {weights.shape[0]} direction(s), the node runs {len(rec.directions)}")
    return weights[direction].astype(np.float32)


def recurrent_weights(node, rec: Recurrence, w: Value, r: Value, bias: Value | None, direction: int) -> tuple[np.ndarray, ...]:
    """W, R and the input and recurrence biases of one direction (no B: zeros)."""
    w_d, r_d = direction_weights(node, rec, w, "W", direction), direction_weights(node, rec, r, "R", direction)
    rows = w_d.shape[0]
    b_d = direction_weights(node, rec, bias, "B", direction) if bias is not None else np.zeros(2 * rows, np.float32)
    return w_d, r_d, b_d[:rows], b_d[rows:]


def initial_state(imp, rec: Recurrence, state: Value | None, direction: int, hint: str) -> SSAValue:
    """Direction ``direction`` of an initial state as ``[batch, hidden]`` (omitted: zeros). A
    known state is cut in numpy: the flat lowering cannot reshape a one-element ``nn.constant``."""
    axis = int(rec.batch_major)
    if state is None or isinstance(state, np.ndarray):
        value = np.zeros((rec.batch, rec.hidden)) if state is None else np.take(state, direction, axis)
        return imp.runtime(value.astype(np.float32), hint)
    value = f32_operand(imp, state, hint)
    if len(rec.directions) > 1:
        value = imp.b.slice(value, [direction], [direction + 1], [axis], [1])
    return reshape(imp, value, (rec.batch, rec.hidden))


def step_input(imp, rec: Recurrence, x: SSAValue, t: int) -> SSAValue:
    """X at time step ``t`` as ``[batch, input]``."""
    return reshape(imp, imp.b.slice(x, [t], [t + 1], [int(rec.batch_major)], [1]), (rec.batch, -1))


Step = Callable[[SSAValue, tuple[SSAValue, ...]], tuple[SSAValue, ...]]
"""One time step of a cell: (X at that step, states) -> new states, the hidden state first."""


def unroll(imp, rec: Recurrence, x: SSAValue, step: Step, states: tuple[SSAValue, ...], reverse: bool):
    """``step`` over every time step, last to first when ``reverse``; the hidden state of each
    time step in time order, and the final states."""
    hs: list[SSAValue] = [states[0]] * rec.seq
    for t in reversed(range(rec.seq)) if reverse else range(rec.seq):
        states = step(step_input(imp, rec, x, t), states)
        hs[t] = states[0]
    return hs, states


def loop_over(imp, rec: Recurrence, x: SSAValue, step: Step, states: tuple[SSAValue, ...], reverse: bool, hint: str):
    """``step`` as the body of an ``nn.loop`` over the time steps (last to first when
    ``reverse``), reading the weights defined before it; the hidden states stacked in time
    order as ``[seq, batch, hidden]``, and the final states."""
    b = imp.b
    backwards = imp.runtime(np.arange(rec.seq - 1, -1, -1, dtype=np.int64), f"{hint}_back") if reverse else None

    def body(b, i: SSAValue, go: SSAValue, *carried: SSAValue) -> list[SSAValue]:
        t = b.gather(backwards, i, 0, imp.name(f"{hint}_t")) if reverse else i
        new = step(b.gather(x, t, int(rec.batch_major), imp.name(f"{hint}_x")), carried)
        return [go, *new, new[0]]

    *finals, hs = b.loop(rec.seq, list(states), body, scan_length=rec.seq, name=imp.name(hint))
    if reverse:
        hs = b.gather(hs, backwards, 0, imp.name(f"{hint}_hs"))
    return hs, tuple(finals)


def stacked_y(imp, rec: Recurrence, stacks: list[SSAValue], shape: Sequence[int], name: str) -> SSAValue:
    """Y from each direction's ``[seq, batch, hidden]`` hidden states: ``[seq, directions,
    batch, hidden]``, transposed to ``[batch, seq, directions, hidden]`` when batch-major."""
    parts = [reshape(imp, s, (rec.seq, 1, rec.batch, rec.hidden)) for s in stacks]
    joined = parts[0] if len(parts) == 1 else imp.b.concat(parts, 1, None if rec.batch_major else name)
    if rec.batch_major:
        return imp.b.transpose(joined, (2, 0, 1, 3), name)
    return reshape(imp, joined, shape, name)


def gate(imp, gates: SSAValue, k: int, hidden: int, count: int = 1) -> SSAValue:
    """Gates ``k`` to ``k + count`` of stacked ``[batch, gates * hidden]`` values."""
    return imp.b.slice(gates, [k * hidden], [(k + count) * hidden], [1], [1])


def lstm_step(imp, hidden: int, w: SSAValue, r: SSAValue, bias: SSAValue, zero: SSAValue) -> Step:
    """ONNX LSTM gates i, o, f, c; no peepholes: c' = f c + i g, h' = o tanh(c')."""
    b = imp.b

    def step(xt: SSAValue, states: tuple[SSAValue, ...]) -> tuple[SSAValue, ...]:
        h, c = states
        gates = b.add(b.gemm(xt, w, bias, trans_b=True), b.gemm(h, r, zero, trans_b=True))
        iof = b.sigmoid(gate(imp, gates, 0, hidden, 3))
        i, o, f = (gate(imp, iof, k, hidden) for k in range(3))
        c = b.add(b.mul(f, c), b.mul(i, b.tanh(gate(imp, gates, 3, hidden))))
        return b.mul(o, b.tanh(c)), c

    return step


def gru_step(imp, hidden: int, w: SSAValue, r_zr: SSAValue, r_h: SSAValue, bias: SSAValue, bias_rh: SSAValue | None,
             zero: SSAValue) -> Step:  # fmt: skip
    """ONNX GRU gates z, r, h: h' = (1 - z) n + z h with n = tanh(x Wh + (r h) Rh + Rbh + Wbh),
    or with ``bias_rh`` (linear_before_reset) n = tanh(x Wh + r (h Rh + Rbh) + Wbh); ``bias``
    holds every other bias."""
    b = imp.b

    def step(xt: SSAValue, states: tuple[SSAValue, ...]) -> tuple[SSAValue, ...]:
        (h,) = states
        xw = b.gemm(xt, w, bias, trans_b=True)
        zr = b.sigmoid(b.add(gate(imp, xw, 0, hidden, 2), b.gemm(h, r_zr, zero, trans_b=True)))
        z, reset = gate(imp, zr, 0, hidden), gate(imp, zr, 1, hidden)
        if bias_rh is None:
            recurrent = b.gemm(b.mul(reset, h), r_h, zero, trans_b=True)
        else:
            recurrent = b.mul(reset, b.gemm(h, r_h, bias_rh, trans_b=True))
        n = b.tanh(b.add(gate(imp, xw, 2, hidden), recurrent))
        return (b.add(n, b.mul(z, b.sub(h, n))),)

    return step


def stack_states(imp, rec: Recurrence, states: list[SSAValue], shape: Sequence[int], name: str) -> SSAValue:
    """``[batch, hidden]`` states joined along the directions axis of the layout (0, or 1 when
    batch-major), as ``shape``."""
    axis = int(rec.batch_major)
    piece = (rec.batch, 1, rec.hidden) if rec.batch_major else (1, rec.batch, rec.hidden)
    parts = [reshape(imp, s, piece) for s in states]
    joined_shape = list(piece)
    joined_shape[axis] = len(parts)
    joined = parts[0] if len(parts) == 1 else imp.b.concat(parts, axis, name if tuple(joined_shape) == tuple(shape) else None)
    return reshape(imp, joined, shape, name)


def recurrent_outputs(imp, node, rec: Recurrence, y: Callable[[Sequence[int], str], SSAValue],
                      finals: list[tuple[SSAValue, ...]]) -> list:  # fmt: skip
    """Y (every hidden state, built by ``y`` as the given shape), then one output per final
    state (Y_h, Y_c), each only if asked for."""
    directions = len(rec.directions)
    per_direction = (rec.batch, directions, rec.hidden) if rec.batch_major else (directions, rec.batch, rec.hidden)
    results: list[SSAValue | None] = []
    for k in range(1 + len(finals[0])):
        if k >= len(node.output) or not node.output[k]:
            results.append(None)
        elif k == 0:
            shape = (rec.batch, rec.seq, directions, rec.hidden) if rec.batch_major else (rec.seq, directions, rec.batch, rec.hidden)
            results.append(y(shape, out_name(imp, node, 0)))
        else:
            states = [final[k - 1] for final in finals]
            results.append(stack_states(imp, rec, states, per_direction, out_name(imp, node, k)))
    return results


def run_recurrence(imp, node, rec: Recurrence, x: Value, cells: list[tuple[Step, tuple[SSAValue, ...]]]) -> list:
    """Each direction's cell (its step and initial states) over X, unrolled or as a loop
    (``imp.recurrence``), then the outputs."""
    x = f32_operand(imp, x, node.input[0])
    finals = []
    if imp.recurrence == "loop" and rec.seq > 1:
        stacks = []
        for direction, (step, states) in zip(rec.directions, cells):
            hs, final = loop_over(imp, rec, x, step, states, direction == "reverse", f"{node.name or node.op_type.lower()}_{direction}")
            stacks.append(hs)
            finals.append(final)
        return recurrent_outputs(imp, node, rec, lambda shape, name: stacked_y(imp, rec, stacks, shape, name), finals)
    hs = []
    for direction, (step, states) in zip(rec.directions, cells):
        h_all, final = unroll(imp, rec, x, step, states, direction == "reverse")
        hs.append(h_all)
        finals.append(final)

    def y(shape: Sequence[int], name: str) -> SSAValue:
        states = [hs[d][t] for t in range(rec.seq) for d in range(len(rec.directions))]
        return stack_states(imp, rec, states, shape, name)

    return recurrent_outputs(imp, node, rec, y, finals)


def lstm(imp, node, inputs):
    """LSTM with the default activations, no peepholes, clip or input_forget: unrolled over
    the sequence, in each direction."""
    x, w, r, bias, seq_lens, h0, c0, peepholes = (inputs + [None] * 8)[:8]
    if attr(node, "input_forget", 0):
        raise OnnxImportError("LSTM input_forget is not supported")
    if peepholes is not None:
        raise OnnxImportError("LSTM peepholes are not supported")
    rec = recurrence(imp, node, x, w, seq_lens)
    name = node.name or "lstm"  # a hint for the weights' names; the outputs take the ONNX ones
    zero = number(imp, 0.0, f"{name}_zero")
    cells = []
    for d in range(len(rec.directions)):
        w_d, r_d, wb, rb = recurrent_weights(node, rec, w, r, bias, d)
        step = lstm_step(imp, rec.hidden, imp.runtime(w_d, f"{name}_W"), imp.runtime(r_d, f"{name}_R"),
                         imp.runtime(wb + rb, f"{name}_B"), zero)  # fmt: skip
        states = (initial_state(imp, rec, h0, d, f"{name}_h0"), initial_state(imp, rec, c0, d, f"{name}_c0"))
        cells.append((step, states))
    return run_recurrence(imp, node, rec, x, cells)


def gru(imp, node, inputs):
    """GRU with the default activations and no clip, either linear_before_reset: unrolled
    over the sequence, in each direction."""
    x, w, r, bias, seq_lens, h0 = (inputs + [None] * 6)[:6]
    rec = recurrence(imp, node, x, w, seq_lens)
    name = node.name or "gru"  # a hint for the weights' names; the outputs take the ONNX ones
    zero = number(imp, 0.0, f"{name}_zero")
    before_reset = bool(attr(node, "linear_before_reset", 0))
    hidden, cells = rec.hidden, []
    for d in range(len(rec.directions)):
        w_d, r_d, wb, rb = recurrent_weights(node, rec, w, r, bias, d)
        x_bias = np.concatenate([wb[: 2 * hidden] + rb[: 2 * hidden], wb[2 * hidden :] + (0 if before_reset else rb[2 * hidden :])])
        step = gru_step(
            imp, hidden, imp.runtime(w_d, f"{name}_W"), imp.runtime(r_d[: 2 * hidden], f"{name}_Rzr"),
            imp.runtime(r_d[2 * hidden :], f"{name}_Rh"), imp.runtime(x_bias, f"{name}_B"),
            imp.runtime(rb[2 * hidden :], f"{name}_Rbh") if before_reset else None, zero,
        )  # fmt: skip
        cells.append((step, (initial_state(imp, rec, h0, d, f"{name}_h0"),)))
    return run_recurrence(imp, node, rec, x, cells)


# --- control flow ------------------------------------------------------------------------------


def translate_if(imp: Importer, node: onnx.NodeProto, inputs: list, scope: Scope) -> list[Value]:
    cond = inputs[0]
    then_graph, else_graph = attr(node, "then_branch"), attr(node, "else_branch")
    if isinstance(cond, np.ndarray):
        if cond.size != 1:
            raise OnnxImportError(f"If condition has {cond.size} elements, not 1")
        imp.folded_ifs += 1
        return run_branch(imp, then_graph if bool(cond.reshape(-1)[0]) else else_graph, scope)
    if imp.b.shape(cond) and int(np.prod(imp.b.shape(cond))) != 1:
        raise OnnxImportError(f"If condition has shape {list(imp.b.shape(cond))}, not one element")
    if dtype_of(cond) != np.bool_:
        raise OnnxImportError(f"If condition must be bool, got {cond.type}")
    imp.kept_ifs += 1
    names = [out_name(imp, node, k) for k in range(len(node.output))]

    def branch(graph):
        def build(_):
            values = run_branch(imp, graph, scope)
            return [imp.runtime(v, f"{graph.name}_{k}") for k, v in enumerate(values)]

        return build

    return list(imp.b.if_(cond, branch(then_graph), branch(else_graph), names=names))


def run_branch(imp: Importer, graph: onnx.GraphProto, scope: Scope, args: Sequence[Value] = (),
               what: str = "branch") -> list[Value]:  # fmt: skip
    """The outputs of subgraph ``graph`` (an If branch, a Loop or Scan body) run in a scope
    below ``scope``, its inputs bound to ``args``. An initializer of ``graph`` may not reuse a
    name of the enclosing graphs: onnxruntime resolves such a name to the enclosing tensor in
    an If branch but to the subgraph's own in a Loop body."""
    for init in graph.initializer:
        if scope.lookup(init.name) is not None:
            raise OnnxImportError(f"{what} {graph.name!r} initializer {init.name!r} shadows a tensor of an enclosing graph")
    inner = Scope(parent=scope)
    add_initializers(inner, graph)
    for graph_input, value in zip(graph.input, args):
        inner.values[graph_input.name] = value
    imp.run_nodes(graph.node, inner)
    results = []
    for out in graph.output:
        value = inner.lookup(out.name)
        if value is None:
            raise OnnxImportError(f"{what} {graph.name!r} output {out.name!r} is never computed")
        results.append(value)
    return results


# --- quantized ops ----------------------------------------------------------------------------


@dataclass(frozen=True)
class QuantParams:
    """A known scale and zero point: one element, or one per slice along an axis."""

    scale: np.ndarray
    zero_point: np.ndarray

    def props(self, prefix: str) -> dict:
        return {f"{prefix}_scale": nq.f32_array(self.scale), f"{prefix}_zero_point": nc.i64_array(self.zero_point)}

    @property
    def element(self) -> Attribute:
        return QUANT_ELEMENTS[self.zero_point.dtype]


def quant_params(node: onnx.NodeProto, inputs: list, k: int, what: str, default_type=np.uint8) -> QuantParams:
    """The scale at input ``k`` and the zero point after it (zeros of ``default_type``
    when omitted); both must be known; a zero point is int8 or uint8, except a bias's int32."""
    scale = known(optional_input(inputs, k), f"{node.op_type} {what} scale").astype(np.float32).reshape(-1)
    zero_point = optional_input(inputs, k + 1)
    if zero_point is None:
        zero_point = np.zeros(scale.shape, default_type)
    zero_point = known(zero_point, f"{node.op_type} {what} zero point").reshape(-1)
    if zero_point.dtype not in QUANT_ELEMENTS and zero_point.dtype != np.int32:
        raise OnnxImportError(f"{node.op_type} {what} zero point of type {zero_point.dtype} is not supported (int8, uint8)")
    return QuantParams(scale, zero_point)


def check_no_blocks(node: onnx.NodeProto) -> None:
    if attr(node, "block_size", 0):
        raise OnnxImportError(f"{node.op_type} with block_size {attr(node, 'block_size')} is not supported")


def quantized_operand(imp: Importer, value: Value, hint: str, params: QuantParams) -> SSAValue:
    """A quantized tensor as an SSA value, known ones stored in their own type."""
    if params.zero_point.dtype not in QUANT_ELEMENTS:
        raise OnnxImportError(f"{hint} has a zero point of type {params.zero_point.dtype} (int8 or uint8 expected)")
    if isinstance(value, np.ndarray):
        if value.dtype not in QUANT_ELEMENTS:
            raise OnnxImportError(f"expected an int8 or uint8 tensor for {hint}, got {value.dtype}")
        if value.dtype != params.zero_point.dtype:
            raise OnnxImportError(f"{hint} has type {value.dtype}, but its zero point is {params.zero_point.dtype}")
        return imp.runtime(value, hint, dtype=value.dtype)
    if value.type.get_element_type() != params.element:
        raise OnnxImportError(f"{hint} has type {value.type}, but its zero point is {params.zero_point.dtype}")
    return value


def quantize_linear(imp, node, inputs):
    check_no_blocks(node)
    output_dtype = attr(node, "output_dtype", 0)
    default = helper.tensor_dtype_to_np_dtype(output_dtype) if output_dtype else np.uint8
    params = quant_params(node, inputs, 1, "y", default)
    if params.zero_point.dtype not in QUANT_ELEMENTS:
        raise OnnxImportError(f"QuantizeLinear to {params.zero_point.dtype} is not supported (int8, uint8)")
    props = {"element": params.element, "axis": IntegerAttr(int(attr(node, "axis", 1)), i64), **params.props("y")}
    x = inputs[0]
    if isinstance(x, np.ndarray):
        return [run_quant_op(nq.QuantizeOp, x.astype(np.float32), props, params.element)]
    return [make(imp, nq.QuantizeOp, [f32_operand(imp, x, node.input[0])], props, out_name(imp, node))]


def dequantize_linear(imp, node, inputs):
    check_no_blocks(node)
    x = inputs[0]
    params = quant_params(node, inputs, 1, "x", dtype_of(x))
    props = {"axis": IntegerAttr(int(attr(node, "axis", 1)), i64), **params.props("x")}
    if isinstance(x, np.ndarray):
        return [run_quant_op(nq.DequantizeOp, x, props, f32)]
    return [make(imp, nq.DequantizeOp, [x], props, out_name(imp, node))]


def run_quant_op(cls: type[nc.ComputeOp], x: np.ndarray, props: dict, element: Attribute) -> np.ndarray:
    """A (de)quantize of known ``x`` by its reference kernel, as the run time computes it."""
    op = cls.create(result_types=[TensorType(element, list(x.shape))], properties=props)
    return kernels.KERNELS[cls](op, x)


def qlinear_conv(imp, node, inputs):
    x_params = quant_params(node, inputs, 1, "x")
    w = known(inputs[3], "QLinearConv weights", imp)
    w_params = quant_params(node, inputs, 4, "w")
    y_params = quant_params(node, inputs, 6, "y")
    x = quantized_operand(imp, inputs[0], node.input[0], x_params)
    x, props = conv_window(imp, node, x, w)
    operands = [x, quantized_operand(imp, w.reshape(as_nchw(w.shape)), node.input[3], w_params)]
    bias = optional_input(inputs, 8)
    if bias is not None:
        operands.append(imp.runtime(known(bias, "QLinearConv bias").astype(np.int32), node.input[8], dtype=np.int32))
    props |= {"element": y_params.element, **x_params.props("x"), **w_params.props("w"), **y_params.props("y")}
    name = out_name(imp, node)
    y = make(imp, nq.QConv2dOp, operands, props, name + ("_2d" if w.ndim == 3 else ""))
    return [from_nchw(imp, y, w.ndim - 2, name)]


def qgemm(imp, node, inputs):
    """onnxruntime QGemm (A, a_scale, a_zp, B, b_scale, b_zp, C, y_scale, y_zp); ONNX
    QLinearMatMul (a, a_scale, a_zp, b, b_scale, b_zp, y_scale, y_zp) on 2-D operands."""
    matmul_form = node.op_type == "QLinearMatMul"
    if attr(node, "transA", 0):
        raise OnnxImportError(f"{node.op_type} with transA is not supported")
    a_params, b_params = quant_params(node, inputs, 1, "a"), quant_params(node, inputs, 4, "b")
    a = quantized_operand(imp, inputs[0], node.input[0], a_params)
    b = quantized_operand(imp, inputs[3], node.input[3], b_params)
    if matmul_form and (len(shape_of(imp, inputs[0])) != 2 or len(shape_of(imp, inputs[3])) != 2):
        return [qlinear_matmul_batched(imp, node, inputs, a, b)]
    if len(shape_of(imp, inputs[0])) != 2 or len(shape_of(imp, inputs[3])) != 2:
        raise OnnxImportError(f"{node.op_type} of operands of rank other than 2 is not supported")
    props = {"trans_b": IntegerAttr(int(attr(node, "transB", 0)), i64), **a_params.props("a"), **b_params.props("b")}
    if attr(node, "alpha", 1.0) != 1.0:
        props["alpha"] = FloatAttr(float(attr(node, "alpha")), f32)
    operands = [a, b]
    c = None if matmul_form else optional_input(inputs, 6)
    if c is not None:
        operands.append(imp.runtime(known(c, "QGemm C").astype(np.int32), node.input[6], dtype=np.int32))
    k_y = 6 if matmul_form else 7
    if not matmul_form and optional_input(inputs, k_y) is not None and optional_input(inputs, k_y + 1) is None:
        raise OnnxImportError("QGemm with y_scale and no y_zero_point is not supported (onnxruntime gives float results over y_scale)")
    if optional_input(inputs, k_y) is not None:
        y_params = quant_params(node, inputs, k_y, "y")
        props |= {"element": y_params.element, **y_params.props("y")}
    return [make(imp, nq.QGemmOp, operands, props, out_name(imp, node))]


def qlinear_matmul_batched(imp, node, inputs, a: SSAValue, b: SSAValue) -> SSAValue:
    """QLinearMatMul of operands of other ranks (batched, broadcast): the i32 products
    (``nn.matmul_integer``), then requantized as ``nn.qgemm`` requantizes, the accumulator in
    f32 times ``a_scale * b_scale / y_scale`` rounded into y (a quantize of scale 1)."""
    params = [quant_params(node, inputs, k, p) for k, p in ((1, "a"), (4, "b"), (6, "y"))]
    if any(p.scale.size != 1 for p in params):
        raise OnnxImportError(f"{node.op_type} of operands of rank other than 2 with a per-axis scale is not supported")
    a_params, b_params, y_params = params
    name = out_name(imp, node)
    zeros = [constant(imp, p.zero_point.astype(dtype_of(v)).reshape(1), f"{name}_{k}_zero") for k, v, p in (("a", a, a_params), ("b", b, b_params))]
    products = make(imp, nq.MatmulIntegerOp, [a, b, *zeros], {}, imp.name(f"{name}_products"))
    ratio = np.float32(1.0) * a_params.scale[0] * b_params.scale[0] / y_params.scale[0]
    real = imp.b.mul(imp.b.cast(products, np.float32), number(imp, float(ratio), f"{name}_ratio"))
    unit = QuantParams(np.ones(1, np.float32), y_params.zero_point)
    return make(imp, nq.QuantizeOp, [real], {"element": y_params.element, **unit.props("y")}, name)


def qlinear_softmax(imp, node, inputs):
    """onnxruntime QLinearSoftmax (X, x_scale, x_zp, y_scale, y_zp; ``opset`` 13 or later: per
    axis): dequantized, the float softmax, quantized again."""
    if attr(node, "opset", 13) < 13:
        raise OnnxImportError(f"QLinearSoftmax with opset {attr(node, 'opset')} (the input coerced to 2-D) is not supported")
    x_params, y_params = quant_params(node, inputs, 1, "x"), quant_params(node, inputs, 3, "y")
    x = quantized_operand(imp, inputs[0], node.input[0], x_params)
    name = out_name(imp, node)
    real = make(imp, nq.DequantizeOp, [x], x_params.props("x"), f"{name}_real")
    y = softmax_along(imp, real, normalize_axis(attr(node, "axis", -1), len(imp.b.shape(real))), imp.name(f"{name}_softmax"))
    return [make(imp, nq.QuantizeOp, [y], {"element": y_params.element, **y_params.props("y")}, name)]


def per_tensor(node: onnx.NodeProto, *params: tuple[QuantParams, str]) -> None:
    """Refuse per-axis parameters where onnxruntime takes one scale and zero point."""
    for p, what in params:
        if p.scale.size != 1:
            raise OnnxImportError(f"{node.op_type} with a per-axis {what} scale is not supported")


def qlinear_binary(imp, node, inputs):
    """onnxruntime QLinearAdd and QLinearMul (A, a_scale, a_zp, B, b_scale, b_zp, y_scale, y_zp)."""
    a_params, b_params, y_params = (quant_params(node, inputs, k, p) for k, p in ((1, "a"), (4, "b"), (6, "y")))
    per_tensor(node, (a_params, "A"), (b_params, "B"), (y_params, "Y"))
    a = quantized_operand(imp, inputs[0], node.input[0], a_params)
    b = quantized_operand(imp, inputs[3], node.input[3], b_params)
    props = {"element": y_params.element, **a_params.props("a"), **b_params.props("b"), **y_params.props("y")}
    cls = nq.QAddOp if node.op_type == "QLinearAdd" else nq.QMulOp
    return [make(imp, cls, [a, b], props, out_name(imp, node))]


def integer_data(imp: Importer, value: Value, hint: str) -> SSAValue:
    """An int8 or uint8 operand of an integer product, known ones stored in their own type."""
    dtype = dtype_of(value)
    if dtype not in QUANT_ELEMENTS:
        raise OnnxImportError(f"{hint} must be an int8 or uint8 tensor, got {dtype}")
    return imp.runtime(value, hint, dtype=dtype) if isinstance(value, np.ndarray) else value


def integer_zero_point(imp: Importer, node: onnx.NodeProto, inputs: list, k: int, data: SSAValue) -> SSAValue:
    """Input ``k``, one zero point of ``data``'s type, known or computed at run time (0 when
    omitted); per-row or per-column zero points are refused by name."""
    dtype = dtype_of(data)
    zero_point = optional_input(inputs, k)
    if zero_point is None:
        zero_point = np.zeros((1,), dtype)
    if int(np.prod(shape_of(imp, zero_point))) != 1:
        raise OnnxImportError(f"{node.op_type} with a zero point of shape {list(shape_of(imp, zero_point))} is not supported (one value)")
    if dtype_of(zero_point) != dtype:
        raise OnnxImportError(f"{node.op_type} zero point of type {dtype_of(zero_point)} for {dtype} data")
    if isinstance(zero_point, np.ndarray):
        return constant(imp, zero_point.reshape(1), f"{node.input[k] if len(node.input) > k and node.input[k] else out_name(imp, node)}_zero_point")
    return zero_point


def matmul_integer(imp, node, inputs):
    """MatMulInteger: the i32 matmul of zero-point-centred int8/uint8 operands."""
    a, b = integer_data(imp, inputs[0], node.input[0]), integer_data(imp, inputs[1], node.input[1])
    zeros = [integer_zero_point(imp, node, inputs, k, v) for k, v in ((2, a), (3, b))]
    return [make(imp, nq.MatmulIntegerOp, [a, b, *zeros], {}, out_name(imp, node))]


def conv_integer(imp, node, inputs):
    """ConvInteger: the i32 convolution of zero-point-centred int8/uint8 data and known weights."""
    w = known(inputs[1], "ConvInteger weights", imp)
    x, props = conv_window(imp, node, integer_data(imp, inputs[0], node.input[0]), w)
    weight = integer_data(imp, w.reshape(as_nchw(w.shape)), node.input[1])
    zeros = [integer_zero_point(imp, node, inputs, k, v) for k, v in ((2, x), (3, weight))]
    name = out_name(imp, node)
    y = make(imp, nq.ConvIntegerOp, [x, weight, *zeros], props, name + ("_2d" if w.ndim == 3 else ""))
    return [from_nchw(imp, y, w.ndim - 2, name)]


def dynamic_quantize_linear(imp, node, inputs):
    """DynamicQuantizeLinear as onnxruntime computes it: the range of ``x`` widened to hold 0,
    ``scale = (max - min) / 255`` (1 when the range is empty), ``zero_point =
    round(clamp(-min / scale, 0, 255))``, ``y = clamp(round(x / scale) + zero_point, 0, 255)``
    in uint8; rounding half to even."""
    b = imp.b
    x = f32_operand(imp, inputs[0], node.input[0])
    axes, name = list(range(len(b.shape(x)))), out_name(imp, node)
    low = b.min(b.reduce_min(x, axes, keepdims=False), number(imp, 0.0, f"{name}_zero"))
    high = b.max(b.reduce_max(x, axes, keepdims=False), number(imp, 0.0, f"{name}_zero"))
    empty = b.cmp("eq", high, low)
    scale = b.select(empty, number(imp, 1.0, f"{name}_one"), b.div(b.sub(high, low), number(imp, 255.0, f"{name}_255")),
                     imp.name(out_name(imp, node, 1)))
    zero = b.clamp(b.round(b.neg(b.div(low, scale))), 0.0, 255.0)
    y = b.clamp(b.add(b.round(b.div(x, scale)), zero), 0.0, 255.0)
    return [b.cast(y, np.uint8, name), scale, b.cast(zero, np.uint8, imp.name(out_name(imp, node, 2)))]


def qlinear_sigmoid(imp, node, inputs):
    """onnxruntime QLinearSigmoid (X, x_scale, x_zp, y_scale, y_zp): dequantized, the float
    sigmoid, quantized again (onnxruntime tabulates the same per 8-bit value)."""
    x_params, y_params = quant_params(node, inputs, 1, "x"), quant_params(node, inputs, 3, "y")
    per_tensor(node, (x_params, "X"), (y_params, "Y"))
    x = quantized_operand(imp, inputs[0], node.input[0], x_params)
    name = out_name(imp, node)
    real = make(imp, nq.DequantizeOp, [x], x_params.props("x"), f"{name}_real")
    y = imp.b.sigmoid(real, name=f"{name}_sigmoid")
    props = {"element": y_params.element, **y_params.props("y")}
    return [make(imp, nq.QuantizeOp, [y], props, name)]


def qlinear_concat(imp, node, inputs):
    """onnxruntime QLinearConcat (y_scale, y_zp, then (X, x_scale, x_zp) per input)."""
    y_params = quant_params(node, inputs, 0, "y")
    if (len(inputs) - 2) % 3 or len(inputs) < 5:
        raise OnnxImportError(f"QLinearConcat needs y_scale, y_zero_point and triples of X, scale, zero point; got {len(inputs)} inputs")
    parts, scales, zero_points = [], [], []
    for k in range(2, len(inputs), 3):
        params = quant_params(node, inputs, k + 1, f"input {(k - 2) // 3}")
        per_tensor(node, (params, f"input {(k - 2) // 3}"))
        parts.append(quantized_operand(imp, inputs[k], node.input[k], params))
        scales.append(params.scale.item())
        zero_points.append(params.zero_point.item())
    rank = len(imp.b.shape(parts[0]))
    props = {"element": y_params.element, "axis": IntegerAttr(normalize_axis(int(attr(node, "axis")), rank), i64),
             "x_scale": nq.f32_array(scales), "x_zero_point": nc.i64_array(zero_points), **y_params.props("y")}  # fmt: skip
    return [make(imp, nq.QConcatOp, parts, props, out_name(imp, node))]


HANDLER_OPS: tuple[tuple[tuple[str, ...], Handler], ...] = (
    (("Identity",), identity),
    (("Dropout",), dropout),
    (("Cast",), cast),
    (("Shape",), shape_op),
    (("Size",), size_op),
    ((*BINARY, "Pow"), binary),
    ((*UNARY, "Sqrt", "Exp", "Neg", "Log", "Abs", "Floor", "Ceil", "Round", "Sign", "Erf", "Sin", "Cos", "Reciprocal"), unary),
    (("LeakyRelu", "PRelu", "Elu", "Selu", "Celu", "HardSigmoid", "HardSwish", "Softplus", "Softsign", "Gelu", "Mish", "ThresholdedRelu", "Shrink"), activation),
    (("LRN",), lrn),
    (("Max", "Min", "Sum", "Mean"), variadic),
    (("Clip",), clip),
    ((*COMPARE,), compare),
    (("Mod",), mod),
    (("Not", *LOGICAL), logical),
    (("Where",), where),
    (("Conv",), conv),
    (("ConvTranspose",), conv_transpose),
    (("Gemm",), gemm),
    (("MatMul",), matmul),
    (("Einsum",), einsum),
    (("MaxPool", "AveragePool"), pool),
    (("GlobalAveragePool",), global_avg_pool),
    (("GlobalMaxPool",), global_max_pool),
    (("CumSum",), cumsum),
    (("Resize", "Upsample"), resize),
    ((*REDUCE_OPS, "ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare"), reduce),
    ((*ALONG_AXIS,), softmax),
    ((*ARG_OPS,), arg_extreme),
    (("BatchNormalization",), batch_normalization),
    (("InstanceNormalization",), instance_normalization),
    (("LayerNormalization",), layer_normalization),
    (("GroupNormalization",), group_normalization),
    (("LpNormalization",), lp_normalization),
    (("Concat",), concat),
    (("Transpose",), transpose),
    (("Tile",), tile),
    (("Expand",), expand),
    (("DepthToSpace",), depth_to_space),
    (("SpaceToDepth",), space_to_depth),
    (("Reshape",), reshape_op),
    (("Flatten",), flatten),
    (("Squeeze",), squeeze),
    (("Unsqueeze",), unsqueeze),
    (("Slice",), slice_op),
    (("Split",), split),
    (("Gather",), gather),
    (("GatherElements",), gather_elements),
    (("TopK",), top_k),
    (("Pad",), pad),
    (("LSTM",), lstm),
    (("GRU",), gru),
    (("QuantizeLinear",), quantize_linear),
    (("DequantizeLinear",), dequantize_linear),
    (("QLinearConv",), qlinear_conv),
    (("QGemm", "QLinearMatMul"), qgemm),
    (("QLinearAdd", "QLinearMul"), qlinear_binary),
    (("QLinearConcat",), qlinear_concat),
    (("QLinearSigmoid",), qlinear_sigmoid),
    (("QLinearSoftmax",), qlinear_softmax),
    (("MatMulInteger",), matmul_integer),
    (("ConvInteger",), conv_integer),
    (("DynamicQuantizeLinear",), dynamic_quantize_linear),
)
"""Which ops each handler translates (a table, not decorators, so the handlers are
plain functions that mutation testing reaches)."""
HANDLERS: dict[str, Handler] = {op: fn for ops, fn in HANDLER_OPS for op in ops}
