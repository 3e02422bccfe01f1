"""ONNX ops that move or pick values, or read shapes: Identity, Dropout (inference), Shape
and Size (known results), Concat, Tile, Expand, DepthToSpace, SpaceToDepth, Transpose,
Reshape, Flatten, Squeeze, Unsqueeze, Slice, Split, Gather, GatherElements, TopK and Pad.

Shapes, axes, repeats, pads and slice bounds are known at import time (one that a model
input gives is fixed with ``--input-value``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import onnx
from xdsl.dialects.builtin import BoolAttr, IntegerAttr, i64
from xdsl.ir import SSAValue

from cfmem.dialects import nn_compute as nc
from cfmem.dialects.shapes import broadcast, normalize_axis
from cfmem.importers.onnx.core import Importer, OnnxImportError
from cfmem.importers.onnx.helpers import (
    attr,
    dtype_of,
    f32_operand,
    ints,
    known,
    make,
    optional_input,
    out_name,
    reshape,
    shape_of,
    text_attr,
    version,
)


def identity(imp, node, inputs):
    return [inputs[0]]


def dropout(imp, node, inputs):
    """Inference only: the identity, and a mask of ones. From version 12 on, ``training_mode``
    is an input; it must be omitted or a known false. Before 12 the mask outside training is
    undefined (onnxruntime gives zeros, onnx's reference evaluator ones), so a mask that the
    model reads (a node, a subgraph or a graph output) is refused; an unread one is ignored."""
    training = optional_input(inputs, 2)
    if training is not None:
        if not isinstance(training, np.ndarray):
            raise OnnxImportError("Dropout training_mode is computed at run time; only inference (a known false) is supported")
        if training.size != 1 or bool(training.reshape(-1)[0]):
            raise OnnxImportError("Dropout with training_mode true is not supported (only inference)")
    wants_mask = len(node.output) > 1 and node.output[1] in imp.read_names
    if wants_mask and version(imp, node) < 12:
        raise OnnxImportError(
            f"the mask output of Dropout version {version(imp, node)} is undefined outside training; not supported"
        )
    x = inputs[0]
    return [x, np.ones(shape_of(imp, x), np.bool_)]


def shape_op(imp, node, inputs):
    dims = np.array(shape_of(imp, inputs[0]), dtype=np.int64)
    start, end = attr(node, "start", 0), attr(node, "end", None)
    return [dims[start:end]]


def size_op(imp, node, inputs):
    return [np.array(int(np.prod(shape_of(imp, inputs[0]))), dtype=np.int64)]


def concat(imp, node, inputs):
    values = [v for v in inputs if isinstance(v, SSAValue) or (v is not None and v.size > 0)]
    operands = [f32_operand(imp, v, f"{node.output[0]}_part") for v in values]
    rank = len(imp.b.shape(operands[0]))
    axis = normalize_axis(attr(node, "axis"), rank)
    if len(operands) == 1:
        return [operands[0]]
    return [make(imp, nc.ConcatOp, operands, {"axis": IntegerAttr(axis, i64)}, out_name(imp, node))]


def repeat(imp: Importer, x: SSAValue, repeats: Sequence[int], name: str) -> SSAValue:
    """``x`` concatenated with itself ``repeats[axis]`` (positive) times along each axis; the
    last concatenation is named ``name``."""
    tiled = [axis for axis, r in enumerate(repeats) if r > 1]
    for axis in tiled:
        x = make(imp, nc.ConcatOp, [x] * repeats[axis], {"axis": IntegerAttr(axis, i64)}, name if axis == tiled[-1] else None)
    return x


def tile(imp, node, inputs):
    """Tile with known repeats: the input concatenated with itself along each repeated axis."""
    x = f32_operand(imp, inputs[0], node.input[0])
    repeats = ints(inputs[1], "Tile repeats", imp)
    rank = len(imp.b.shape(x))
    if len(repeats) != rank or any(r < 1 for r in repeats):
        raise OnnxImportError(f"Tile repeats {repeats} must be {rank} positive counts, one per axis of the input")
    return [repeat(imp, x, repeats, out_name(imp, node))]


def expand(imp, node, inputs):
    """Expand to a known shape, broadcast with the input's both ways as ONNX defines it: the
    input gets the result's rank, then each of its size-1 axes is repeated to the result's size."""
    x = f32_operand(imp, inputs[0], node.input[0])
    xs, shape = imp.b.shape(x), ints(inputs[1], "Expand shape", imp)
    try:
        out = broadcast(xs, shape)
    except ValueError:
        raise OnnxImportError(f"Expand of shape {list(xs)} to {shape}: the shapes do not broadcast") from None
    if 0 in out:
        raise OnnxImportError(f"Expand to an empty shape {list(out)} is not supported")
    name = out_name(imp, node)
    x = reshape(imp, x, (1,) * (len(out) - len(xs)) + tuple(xs), imp.name(f"{name}_ranked"))
    return [repeat(imp, x, [size // d for size, d in zip(out, imp.b.shape(x))], name)]


def rearrange(imp: Importer, x: SSAValue, split: Sequence[int], perm: Sequence[int], shape: Sequence[int], name: str) -> SSAValue:
    """``x`` reshaped to ``split``, transposed by ``perm`` and reshaped to ``shape`` (named ``name``)."""
    parts = reshape(imp, x, split, imp.name(f"{name}_split"))
    moved = make(imp, nc.TransposeOp, [parts], {"perm": nc.i64_array(perm)}, imp.name(f"{name}_moved"))
    return reshape(imp, moved, shape, name)


def block_input(imp: Importer, node: onnx.NodeProto, inputs: list) -> tuple[SSAValue, int]:
    """DepthToSpace's or SpaceToDepth's (N, C, H, W) input and its positive blocksize."""
    x = f32_operand(imp, inputs[0], node.input[0])
    rank, blocksize = len(imp.b.shape(x)), attr(node, "blocksize")
    if rank != 4:
        raise OnnxImportError(f"{node.op_type} needs an input (N, C, H, W) of rank 4, not {rank}")
    if blocksize < 1:
        raise OnnxImportError(f"{node.op_type} blocksize {blocksize} must be positive")
    return x, blocksize


DEPTH_TO_SPACE_MODES = ("DCR", "CRD")


def depth_to_space(imp, node, inputs):
    """DepthToSpace: (N, C, H, W) to (N, C / b², H b, W b). In DCR mode (the default) the
    block offsets come from the outer channel positions, in CRD mode from the inner ones."""
    x, b = block_input(imp, node, inputs)
    n, c, h, w = imp.b.shape(x)
    mode = text_attr(node, "mode", "DCR")
    if mode not in DEPTH_TO_SPACE_MODES:
        raise OnnxImportError(f"DepthToSpace mode {mode!r} is not one of {', '.join(DEPTH_TO_SPACE_MODES)}")
    if c % (b * b):
        raise OnnxImportError(f"DepthToSpace blocksize {b}: {c} channels are not a multiple of {b * b}")
    depth = c // (b * b)
    split, perm = ((n, b, b, depth, h, w), (0, 3, 4, 1, 5, 2)) if mode == "DCR" else ((n, depth, b, b, h, w), (0, 1, 4, 2, 5, 3))
    return [rearrange(imp, x, split, perm, (n, depth, h * b, w * b), out_name(imp, node))]


def space_to_depth(imp, node, inputs):
    """SpaceToDepth: (N, C, H, W) to (N, C b², H / b, W / b), the block offsets outermost in
    the channels (the inverse of DepthToSpace's DCR mode)."""
    x, b = block_input(imp, node, inputs)
    n, c, h, w = imp.b.shape(x)
    if h % b or w % b:
        raise OnnxImportError(f"SpaceToDepth blocksize {b} does not divide the height {h} and width {w}")
    split = (n, c, h // b, b, w // b, b)
    return [rearrange(imp, x, split, (0, 3, 5, 1, 2, 4), (n, c * b * b, h // b, w // b), out_name(imp, node))]


def transpose(imp, node, inputs):
    x = inputs[0]
    rank = len(imp.b.shape(x))
    perm = list(attr(node, "perm", list(reversed(range(rank)))))
    if perm == list(range(rank)):
        return [x]
    return [make(imp, nc.TransposeOp, [x], {"perm": nc.i64_array(perm)}, out_name(imp, node))]


def reshape_op(imp, node, inputs):
    x = inputs[0]
    xs = imp.b.shape(x)
    dims = ints(inputs[1], "Reshape shape", imp)
    if not attr(node, "allowzero", 0):
        beyond = [k for k in range(len(xs), len(dims)) if dims[k] == 0]
        if beyond:
            raise OnnxImportError(f"Reshape shape {dims} copies dimension {beyond[0]} of an input of rank {len(xs)}")
        dims = [xs[k] if d == 0 else d for k, d in enumerate(dims)]
    return [reshape(imp, x, dims, out_name(imp, node))]


def flatten(imp, node, inputs):
    xs = imp.b.shape(inputs[0])
    axis = attr(node, "axis", 1)  # in [-rank, rank]: a negative axis counts from the rank
    axis = normalize_axis(axis, len(xs)) if axis < 0 else normalize_axis(axis, len(xs) + 1)
    return [reshape(imp, inputs[0], (int(np.prod(xs[:axis])), int(np.prod(xs[axis:]))), out_name(imp, node))]


def _axes(node: onnx.NodeProto, inputs: list, rank: int) -> list[int] | None:
    axes = attr(node, "axes")
    if axes is None and len(inputs) > 1 and inputs[1] is not None:
        axes = ints(inputs[1], f"{node.op_type} axes")
    return None if axes is None else sorted(normalize_axis(int(a), rank) for a in axes)


def squeeze(imp, node, inputs):
    xs = imp.b.shape(inputs[0])
    axes = _axes(node, inputs, len(xs))
    axes = [k for k, d in enumerate(xs) if d == 1] if axes is None else axes
    if any(xs[a] != 1 for a in axes):
        raise OnnxImportError(f"Squeeze of axes {axes} of shape {list(xs)}: not all have size 1")
    return [reshape(imp, inputs[0], [d for k, d in enumerate(xs) if k not in axes], out_name(imp, node))]


def unsqueeze(imp, node, inputs):
    xs = list(imp.b.shape(inputs[0]))
    raw = attr(node, "axes")
    raw = ints(inputs[1], "Unsqueeze axes", imp) if raw is None else list(raw)
    for a in sorted(normalize_axis(int(a), len(xs) + len(raw)) for a in raw):
        xs.insert(a, 1)
    return [reshape(imp, inputs[0], xs, out_name(imp, node))]


def slice_op(imp, node, inputs):
    """Before version 10, starts, ends and axes are attributes; from 10 on, inputs (with steps)."""
    x = inputs[0]
    rank = len(imp.b.shape(x))
    if version(imp, node) < 10:
        starts, ends = list(attr(node, "starts")), list(attr(node, "ends"))
        axes, steps = list(attr(node, "axes", range(len(starts)))), [1] * len(starts)
    else:
        starts, ends = ints(inputs[1], "Slice starts", imp), ints(inputs[2], "Slice ends", imp)
        axes = ints(inputs[3], "Slice axes", imp) if optional_input(inputs, 3) is not None else list(range(len(starts)))
        steps = ints(inputs[4], "Slice steps", imp) if optional_input(inputs, 4) is not None else [1] * len(starts)
    axes = [normalize_axis(a, rank) for a in axes]
    return [imp.b.slice(x, starts, ends, axes, steps, name=out_name(imp, node))]


def split(imp, node, inputs):
    x = inputs[0]
    xs = imp.b.shape(x)
    axis = normalize_axis(attr(node, "axis", 0), len(xs))
    sizes = ints(inputs[1], "Split sizes", imp) if len(inputs) > 1 and inputs[1] is not None else attr(node, "split")
    if sizes is None:
        n = attr(node, "num_outputs", len(node.output))
        chunk = -(-xs[axis] // n)
        sizes = [min(chunk, xs[axis] - k * chunk) for k in range(n)]
    results, start = [], 0
    for k, size in enumerate(sizes):
        results.append(imp.b.slice(x, [start], [start + size], [axis], [1], name=out_name(imp, node, k)))
        start += size
    return results


def gather(imp, node, inputs):
    """Gather along ``axis``: run-time indices, or any into data that is not float (which
    ``nn.concat`` does not join), as ``nn.gather``; known ones as slices of the data joined
    along the axis."""
    if isinstance(inputs[1], SSAValue) or dtype_of(inputs[0]).kind != "f":
        return [indexed_read(imp, node, inputs, nc.GatherOp)]
    x, index = inputs[0], inputs[1]
    xs = imp.b.shape(x)
    axis = normalize_axis(attr(node, "axis", 0), len(xs))
    flat = [int(i) + (xs[axis] if i < 0 else 0) for i in index.reshape(-1)]
    name = out_name(imp, node)
    parts = [imp.b.slice(x, [i], [i + 1], [axis], [1], name=imp.name(f"{name}_{i}")) for i in flat]
    joined = parts[0] if len(parts) == 1 else make(imp, nc.ConcatOp, parts, {"axis": IntegerAttr(axis, i64)}, imp.name(f"{name}_all"))
    return [reshape(imp, joined, (*xs[:axis], *index.shape, *xs[axis + 1 :]), name)]


def gather_elements(imp, node, inputs):
    """GatherElements along ``axis`` (default 0), its indices run-time or known."""
    return [indexed_read(imp, node, inputs, nc.GatherElementsOp)]


def indexed_read(imp: Importer, node: onnx.NodeProto, inputs: list, cls: type[nc.IndexedReadOp]) -> SSAValue:
    """``cls`` reading ``inputs[0]`` at ``inputs[1]`` along the node's ``axis`` (default 0);
    known operands become constants or weights (float data as f32, as every float tensor)."""
    data, indices = (imp.runtime(v, node.input[k]) for k, v in enumerate(inputs[:2]))
    props = {"axis": IntegerAttr(attr(node, "axis", 0), i64)}
    return make(imp, cls, [data, indices], props, out_name(imp, node))


def top_k(imp, node, inputs):
    """TopK with a known k (an attribute before version 10, an input of one value from it):
    Indices as ``nn.top_k``, Values the input gathered there. ``largest`` and ``sorted`` exist
    from 11; unsorted results, whose order ONNX leaves open, come sorted too."""
    x = f32_operand(imp, inputs[0], node.input[0])
    k = [attr(node, "k")] if version(imp, node) < 10 else ints(inputs[1], "TopK K", imp)
    if len(k) != 1:
        raise OnnxImportError(f"TopK K {k} must hold one value")
    axis = IntegerAttr(attr(node, "axis", -1), i64)
    props = {"k": IntegerAttr(k[0], i64), "axis": axis, "largest": BoolAttr.from_bool(bool(attr(node, "largest", 1)))}
    values_name, indices_name = out_name(imp, node, 0), out_name(imp, node, 1)
    indices = make(imp, nc.TopKOp, [x], props, indices_name)
    return [make(imp, nc.GatherElementsOp, [x, indices], {"axis": axis}, values_name), indices]


def pad(imp, node, inputs):
    x = f32_operand(imp, inputs[0], node.input[0])
    rank = len(imp.b.shape(x))
    pads = ints(inputs[1], "Pad pads", imp) if len(inputs) > 1 and inputs[1] is not None else list(attr(node, "pads"))
    value = float(known(inputs[2], "Pad value", imp)) if len(inputs) > 2 and inputs[2] is not None else float(attr(node, "value", 0.0))
    if len(inputs) > 3 and inputs[3] is not None:
        axes = [normalize_axis(a, rank) for a in ints(inputs[3], "Pad axes", imp)]
        full = [0] * (2 * rank)
        for k, a in enumerate(axes):
            full[a], full[rank + a] = pads[k], pads[len(axes) + k]
        pads = full
    mode = attr(node, "mode", b"constant")
    mode = mode.decode() if isinstance(mode, bytes) else mode
    return [imp.b.pad(x, pads, mode=mode, value=value, name=out_name(imp, node))]
