"""ONNX ops over sliding windows: Conv, ConvTranspose, MaxPool, AveragePool, GlobalAveragePool
and GlobalMaxPool, and the window arithmetic they share with QLinearConv and ConvInteger.

nn's convolutions and pools are 2-D over NCHW tensors: a 1-D node runs over a height of 1,
a 3-D one as 2-D ops, one per tap of its kernel along the depth, combined. ``auto_pad``
becomes explicit pads and ``ceil_mode`` extra padding at the end. Conv and ConvTranspose
weights are known.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np
import onnx
from xdsl.dialects.builtin import IntegerAttr, i64
from xdsl.ir import SSAValue

from cfmem.dialects import nn_compute as nc
from cfmem.dialects.shapes import window_counts
from cfmem.importers.onnx.core import Importer, OnnxImportError
from cfmem.importers.onnx.helpers import QUANT_ELEMENTS, attr, dtype_of, f32_operand, known, make, out_name, reshape

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
