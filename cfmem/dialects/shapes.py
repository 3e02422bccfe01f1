"""Shape arithmetic for the nn ops, free of xDSL.

Every function takes plain tuples of ints and raises ``ValueError`` with a
message meant for a user when the shapes do not fit together. Layouts follow
ONNX: activations are NCHW, convolution weights OIHW, padding is
(top, left, bottom, right).
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

Shape = tuple[int, ...]


def broadcast(*shapes: Sequence[int]) -> Shape:
    """numpy/ONNX multidirectional broadcasting of ``shapes``."""
    rank = max(len(s) for s in shapes)
    out: list[int] = []
    for axis in range(rank):
        dims = {s[axis - rank + len(s)] for s in shapes if axis - rank + len(s) >= 0}
        dims.discard(1)
        if len(dims) > 1:
            raise ValueError(
                "shapes " + ", ".join(format_shape(s) for s in shapes) + " do not broadcast"
            )
        out.append(dims.pop() if dims else 1)
    return tuple(out)


def _window_out(size: int, kernel: int, stride: int, pad: int, dilation: int) -> int:
    effective = dilation * (kernel - 1) + 1
    out = (size + pad - effective) // stride + 1
    if out <= 0:
        raise ValueError(
            f"window {kernel} (dilation {dilation}) does not fit an input of {size}"
            f" with padding {pad}"
        )
    return out


def _check_window_params(
    strides: Sequence[int], pads: Sequence[int], dilations: Sequence[int]
) -> None:
    if len(strides) != 2 or len(dilations) != 2 or len(pads) != 4:
        raise ValueError("expected 2 strides, 2 dilations and 4 pads")
    if min(strides) < 1 or min(dilations) < 1 or min(pads) < 0:
        raise ValueError("strides and dilations must be >= 1 and pads >= 0")


def conv2d(
    x: Sequence[int],
    w: Sequence[int],
    strides: Sequence[int],
    pads: Sequence[int],
    dilations: Sequence[int],
    groups: int,
) -> Shape:
    """Output shape of a grouped 2-D convolution, input NCHW, weight OIHW."""
    if len(x) != 4 or len(w) != 4:
        raise ValueError(f"conv2d expects rank-4 input and weight, got {format_shape(x)} and {format_shape(w)}")
    _check_window_params(strides, pads, dilations)
    n, c, h, wd = x
    o, i, kh, kw = w
    if groups < 1 or c % groups or o % groups:
        raise ValueError(f"groups={groups} must divide input channels {c} and output channels {o}")
    if i * groups != c:
        raise ValueError(
            f"weight {format_shape(w)} with groups={groups} expects an input with {i * groups} channels, not {c}"
        )
    oh = _window_out(h, kh, strides[0], pads[0] + pads[2], dilations[0])
    ow = _window_out(wd, kw, strides[1], pads[1] + pads[3], dilations[1])
    return (n, o, oh, ow)


def pool2d(
    x: Sequence[int],
    kernel: Sequence[int],
    strides: Sequence[int],
    pads: Sequence[int],
    dilations: Sequence[int] = (1, 1),
) -> Shape:
    """Output shape of a max or average pooling window over NCHW; each pad must be
    smaller than the kernel's extent along its axis (``(kernel - 1) * dilation + 1``)."""
    if len(x) != 4:
        raise ValueError(f"pooling expects a rank-4 input, got {format_shape(x)}")
    if len(kernel) != 2 or min(kernel) < 1:
        raise ValueError("expected a kernel of 2 positive sizes")
    _check_window_params(strides, pads, dilations)
    spans = [(k - 1) * d + 1 for k, d in zip(kernel, dilations)]
    if pads[0] >= spans[0] or pads[2] >= spans[0] or pads[1] >= spans[1] or pads[3] >= spans[1]:
        raise ValueError("pooling pads must be smaller than the kernel")
    oh = _window_out(x[2], kernel[0], strides[0], pads[0] + pads[2], dilations[0])
    ow = _window_out(x[3], kernel[1], strides[1], pads[1] + pads[3], dilations[1])
    return (x[0], x[1], oh, ow)


def matmul(a: Sequence[int], b: Sequence[int]) -> Shape:
    """numpy ``matmul`` for operands of rank >= 2 (batch dims broadcast)."""
    if len(a) < 2 or len(b) < 2:
        raise ValueError(f"matmul expects operands of rank >= 2, got {format_shape(a)} and {format_shape(b)}")
    if a[-1] != b[-2]:
        raise ValueError(f"matmul inner dimensions differ: {format_shape(a)} x {format_shape(b)}")
    batch = broadcast(a[:-2], b[:-2]) if len(a) > 2 or len(b) > 2 else ()
    return (*batch, a[-2], b[-1])


def gemm(a: Sequence[int], b: Sequence[int], c: Sequence[int], trans_b: bool) -> Shape:
    """ONNX Gemm: ``a @ (b.T if trans_b else b) + c`` with 2-D a and b."""
    if len(a) != 2 or len(b) != 2:
        raise ValueError(f"gemm expects 2-D operands, got {format_shape(a)} and {format_shape(b)}")
    k, n = (b[1], b[0]) if trans_b else (b[0], b[1])
    if a[1] != k:
        raise ValueError(
            f"gemm inner dimensions differ: {format_shape(a)} x {format_shape(b)}"
            + (" (b transposed)" if trans_b else "")
        )
    out = (a[0], n)
    if broadcast(out, c) != out:
        raise ValueError(f"gemm bias {format_shape(c)} does not broadcast to {format_shape(out)}")
    return out


def normalize_axis(axis: int, rank: int) -> int:
    if not -rank <= axis < rank:
        raise ValueError(f"axis {axis} is out of range for rank {rank}")
    return axis % rank


def concat(shapes: Sequence[Sequence[int]], axis: int) -> Shape:
    if not shapes:
        raise ValueError("concat needs at least one operand")
    rank = len(shapes[0])
    axis = normalize_axis(axis, rank)
    for s in shapes:
        if len(s) != rank or any(s[d] != shapes[0][d] for d in range(rank) if d != axis):
            raise ValueError(
                f"concat operands {', '.join(format_shape(s) for s in shapes)} differ outside axis {axis}"
            )
    out = list(shapes[0])
    out[axis] = sum(s[axis] for s in shapes)
    return tuple(out)


def transpose(x: Sequence[int], perm: Sequence[int]) -> Shape:
    if sorted(perm) != list(range(len(x))):
        raise ValueError(f"perm {list(perm)} is not a permutation of the {len(x)} axes")
    return tuple(x[p] for p in perm)


def reduce(x: Sequence[int], axes: Sequence[int], keepdims: bool) -> Shape:
    norm = {normalize_axis(a, len(x)) for a in axes}
    if len(norm) != len(axes):
        raise ValueError(f"axes {list(axes)} repeat an axis")
    if keepdims:
        return tuple(1 if d in norm else s for d, s in enumerate(x))
    return tuple(s for d, s in enumerate(x) if d not in norm)


INT64_MAX = 2**63 - 1
"""ONNX's "to the end" for a slice bound (and ``-INT64_MAX`` for "from the start")."""


def slice_bounds(
    x: Sequence[int],
    starts: Sequence[int],
    ends: Sequence[int],
    axes: Sequence[int] | None = None,
    steps: Sequence[int] | None = None,
) -> tuple[tuple[int, int, int], ...]:
    """ONNX Slice on static bounds: ``(start, step, count)`` for every axis of ``x``.

    Axis ``a`` of the result takes ``count`` elements ``start + k * step`` of
    ``x``. Negative starts and ends count from the end; out-of-range bounds
    are clamped (to ``[0, dim]`` for a positive step, ``[-1, dim - 1]`` for a
    negative one). Axes not named keep every element; ``axes`` defaults to
    ``0..len(starts)-1`` and ``steps`` to ones. A slice that selects nothing
    is refused (cfmem has no empty tensors).
    """
    axes = list(range(len(starts))) if axes is None else list(axes)
    steps = [1] * len(starts) if steps is None else list(steps)
    if not len(starts) == len(ends) == len(axes) == len(steps):
        raise ValueError(
            f"slice needs as many starts, ends, axes and steps, got {len(starts)}, {len(ends)},"
            f" {len(axes)} and {len(steps)}"
        )
    norm = [normalize_axis(a, len(x)) for a in axes]
    if len(set(norm)) != len(norm):
        raise ValueError(f"slice axes {axes} repeat an axis")
    bounds = [(0, 1, d) for d in x]
    for axis, start, end, step in zip(norm, starts, ends, steps):
        dim = x[axis]
        if step == 0:
            raise ValueError(f"slice step on axis {axis} must not be 0")
        start = start + dim if start < 0 else start
        end = end + dim if end < 0 else end
        if step > 0:
            start, end = min(max(start, 0), dim), min(max(end, 0), dim)
        else:
            start, end = min(max(start, 0), dim - 1), min(max(end, -1), dim - 1)
        count = max(0, -(-(end - start) // step))
        if count == 0:
            raise ValueError(f"slice selects no element on axis {axis} (size {dim})")
        bounds[axis] = (start, step, count)
    return tuple(bounds)


def slice_(
    x: Sequence[int],
    starts: Sequence[int],
    ends: Sequence[int],
    axes: Sequence[int] | None = None,
    steps: Sequence[int] | None = None,
) -> Shape:
    """Output shape of an ONNX Slice (see ``slice_bounds``)."""
    return tuple(count for _, _, count in slice_bounds(x, starts, ends, axes, steps))


def gather(data: Sequence[int], indices: Sequence[int], axis: int) -> Shape:
    """Output shape of an ONNX Gather: ``data``'s axis replaced by the indices' shape."""
    axis = normalize_axis(axis, len(data))
    return (*data[:axis], *indices, *data[axis + 1 :])


def gather_elements(data: Sequence[int], indices: Sequence[int], axis: int) -> Shape:
    """Output shape of an ONNX GatherElements: the indices' shape, which has ``data``'s
    rank and on every other axis than ``axis`` no more elements than ``data``."""
    axis = normalize_axis(axis, len(data))
    if len(indices) != len(data):
        raise ValueError(f"indices of rank {len(indices)} must have the rank of the data, {len(data)}")
    for k, (d, i) in enumerate(zip(data, indices)):
        if k != axis and i > d:
            raise ValueError(f"indices have {i} elements on axis {k}, more than the data's {d}")
    return tuple(indices)


def top_k(x: Sequence[int], k: int, axis: int) -> Shape:
    """Output shape of an ONNX TopK: ``x`` with ``k`` elements along ``axis``, 1 <= k <= its size."""
    axis = normalize_axis(axis, len(x))
    if not 1 <= k <= x[axis]:
        raise ValueError(f"k {k} must be in [1, {x[axis]}], the size of axis {axis}")
    return (*x[:axis], k, *x[axis + 1 :])


PAD_MODES = ("constant", "reflect", "edge")


def pad(x: Sequence[int], pads: Sequence[int], mode: str = "constant") -> Shape:
    """Output shape of an ONNX Pad; ``pads`` is every axis' begin, then every axis' end.

    Pads must be non-negative. ``reflect`` mirrors without repeating the edge
    (numpy's "reflect"), once: each pad must be smaller than its dimension.
    """
    if mode not in PAD_MODES:
        raise ValueError(f"unknown pad mode '{mode}', expected one of {', '.join(PAD_MODES)}")
    rank = len(x)
    if len(pads) != 2 * rank:
        raise ValueError(f"pad of a rank-{rank} input needs {2 * rank} pads, got {len(pads)}")
    if min(pads, default=0) < 0:
        raise ValueError(f"pads {list(pads)} must not be negative")
    before, after = pads[:rank], pads[rank:]
    if mode == "reflect":
        for axis, (dim, b, e) in enumerate(zip(x, before, after)):
            if max(b, e) >= dim:
                raise ValueError(
                    f"reflect pad of {max(b, e)} on axis {axis} needs a dimension larger than"
                    f" the pad, got {dim}"
                )
    return tuple(d + b + e for d, b, e in zip(x, before, after))


def row_major_strides(shape: Sequence[int]) -> list[int]:
    """Element strides of a contiguous row-major array of ``shape``."""
    return [prod(shape[i + 1 :]) for i in range(len(shape))]


def num_elements(shape: Sequence[int]) -> int:
    return prod(shape)


def format_shape(shape: Sequence[int]) -> str:
    """``2x3x4``, or ``scalar`` for rank 0."""
    return "x".join(str(d) for d in shape) if shape else "scalar"


def window_counts(size: int, kernel: int, stride: int, pad_before: int, out: int, dilation: int = 1) -> list[int]:
    """For each of ``out`` window positions along an axis of ``size`` padded by ``pad_before``
    at its start, how many of the ``kernel`` taps (``dilation`` apart) fall inside the axis."""
    return [sum(0 <= k * stride - pad_before + t * dilation < size for t in range(kernel)) for k in range(out)]
