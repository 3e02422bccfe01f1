"""ONNX sequence ops, resolved while importing: a sequence is a list of tensors the importer
holds (``TensorList``), never a value of the nn dialect.

Its length and every position given to it must be known at import time (a position given as a
model input is fixed with ``--input-value``); its elements may be run-time tensors. So
SequenceConstruct, SequenceEmpty, SequenceInsert, SequenceErase and SplitToSequence build the
list, SequenceAt picks an element, SequenceLength is a known number, and ConcatFromSequence
is one ``nn.concat``. A sequence that is a model's input or output, or that another op reads,
is refused by name.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import onnx

from cfmem.dialects.shapes import normalize_axis
from cfmem.importers.onnx.core import Importer, OnnxImportError, Value
from cfmem.importers.onnx.helpers import attr, ints, out_name, reshape, shape_of


@dataclass(frozen=True)
class TensorList:
    """An ONNX sequence as the import holds it: its tensors, known arrays or SSA values."""

    items: tuple[Value, ...]


SEQUENCE_OPS = (
    "SequenceEmpty", "SequenceConstruct", "SequenceInsert", "SequenceErase", "SequenceAt", "SequenceLength",
    "ConcatFromSequence", "SplitToSequence",
)  # fmt: skip


def translate_sequence(imp: Importer, node: onnx.NodeProto, inputs: list) -> list:
    """The sequence op ``node`` on ``inputs`` (see the module docstring)."""
    op = node.op_type
    if op == "SequenceEmpty":
        return [TensorList(())]
    if op == "SequenceConstruct":
        return [TensorList(tuple(inputs))]
    if op == "SplitToSequence":
        return [TensorList(tuple(_split(imp, node, inputs)))]
    items = list(_sequence(inputs[0], node))
    if op == "SequenceLength":
        return [np.array(len(items), np.int64)]
    if op == "ConcatFromSequence":
        if not items:
            raise OnnxImportError("ConcatFromSequence of an empty sequence")
        axis, new_axis = attr(node, "axis"), attr(node, "new_axis", 0)
        if axis is None:
            raise OnnxImportError("ConcatFromSequence needs its axis attribute")
        rank = len(shape_of(imp, items[0])) + (1 if new_axis else 0)
        axis = normalize_axis(axis, rank)
        values = [imp.runtime(v, f"{node.output[0]}_item") if isinstance(v, np.ndarray) else v for v in items]
        if new_axis:
            values = [reshape(imp, v, (*imp.b.shape(v)[:axis], 1, *imp.b.shape(v)[axis:])) for v in values]
        return [imp.b.concat(values, axis, out_name(imp, node))]
    if op == "SequenceInsert":
        at = len(items) if len(inputs) < 3 or inputs[2] is None else _position(inputs[2], node, imp, len(items))
        if not 0 <= at <= len(items):
            raise OnnxImportError(f"SequenceInsert position {at} is outside a sequence of {len(items)}")
        items.insert(at, inputs[1])
        return [TensorList(tuple(items))]
    if op == "SequenceAt":
        return [items[_in_range(_position(inputs[1], node, imp, len(items)), len(items), node)]]
    given = len(inputs) > 1 and inputs[1] is not None  # SequenceErase: the last when not
    at = _position(inputs[1], node, imp, len(items)) if given else len(items) - 1
    del items[_in_range(at, len(items), node)]
    return [TensorList(tuple(items))]


def _sequence(value, node: onnx.NodeProto) -> tuple:
    if not isinstance(value, TensorList):
        raise OnnxImportError(f"{node.op_type} reads a tensor where a sequence is expected")
    return value.items


def _position(value, node: onnx.NodeProto, imp: Importer, length: int) -> int:
    """A known position, a negative one counted from the end of a sequence of ``length``."""
    (position,) = ints(value, f"{node.op_type} position", imp)
    return position + length if position < 0 else position


def _in_range(position: int, length: int, node: onnx.NodeProto) -> int:
    if not 0 <= position < length:
        raise OnnxImportError(f"{node.op_type} position {position} is outside a sequence of {length}")
    return position


def _split(imp: Importer, node: onnx.NodeProto, inputs: list) -> list[Value]:
    """SplitToSequence: pieces of the given sizes along ``axis``, or pieces of one element
    (each squeezed unless ``keepdims`` is 1 when no sizes are given)."""
    x = inputs[0]
    xs = shape_of(imp, x)
    axis = normalize_axis(attr(node, "axis", 0), len(xs))
    sizes_given = len(inputs) > 1 and inputs[1] is not None
    if sizes_given:
        split = ints(inputs[1], "SplitToSequence split", imp)
        if np.ndim(inputs[1]) != 1 and split[0] < 1:
            raise OnnxImportError(f"SplitToSequence split {split[0]} is not a positive size")
        sizes = split if np.ndim(inputs[1]) == 1 else [split[0]] * (xs[axis] // split[0]) + ([xs[axis] % split[0]] if xs[axis] % split[0] else [])
    else:
        sizes = [1] * xs[axis]
    if sum(sizes) != xs[axis] or min(sizes, default=1) < 1:
        raise OnnxImportError(f"SplitToSequence sizes {sizes} do not split an axis of {xs[axis]}")
    keep = sizes_given or attr(node, "keepdims", 1)
    pieces, start = [], 0
    for k, size in enumerate(sizes):
        if isinstance(x, np.ndarray):
            piece = np.take(x, range(start, start + size), axis=axis)
        else:
            piece = imp.b.slice(x, [start], [start + size], [axis], name=imp.name(f"{node.output[0]}_{k}", "slice"))
        if not keep:
            shape = [d for i, d in enumerate(shape_of(imp, piece)) if i != axis]
            piece = piece.reshape(shape) if isinstance(piece, np.ndarray) else reshape(imp, piece, shape)
        pieces.append(piece)
        start += size
    return pieces
