"""ONNX sequences resolved at import (cfmem.importers.onnx.sequences): the ops against
onnxruntime are in test_onnx_opsets and the backend test data; here what is refused, in one
line each."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("onnx")
from onnx import TensorProto as T  # noqa: E402
from onnx import helper as h  # noqa: E402
from onnx import numpy_helper as nh  # noqa: E402
from test_onnx_ops_mapping import refusal, unchecked_model  # noqa: E402

X = h.make_tensor_value_info("x", T.FLOAT, [2, 3])
CONSTRUCT = h.make_node("SequenceConstruct", ["x", "x"], ["s"])


def position(name: str, value: int):
    return nh.from_array(np.array(value, np.int64), name)


@pytest.mark.parametrize(
    "nodes, inputs, outputs, inits, message",
    [
        ([CONSTRUCT, h.make_node("Relu", ["s"], ["y"])], [X], [h.make_tensor_value_info("y", T.FLOAT, None)], [],
         "node #1 (Relu): Relu reads a sequence; only the sequence ops do"),
        ([CONSTRUCT], [X], [h.make_value_info("s", h.make_sequence_type_proto(h.make_tensor_type_proto(T.FLOAT, None)))], [],
         "graph output 's' is a sequence; cfmem's outputs are tensors"),
        ([CONSTRUCT, h.make_node("SequenceAt", ["s", "p"], ["y"])], [X], [h.make_tensor_value_info("y", T.FLOAT, None)],
         [position("p", 2)], "node #1 (SequenceAt): SequenceAt position 2 is outside a sequence of 2"),
        ([CONSTRUCT, h.make_node("SequenceErase", ["s", "p"], ["t"]), h.make_node("SequenceLength", ["t"], ["y"])], [X],
         [h.make_tensor_value_info("y", T.INT64, None)], [position("p", -3)],
         "node #1 (SequenceErase): SequenceErase position -1 is outside a sequence of 2"),
        ([CONSTRUCT, h.make_node("SequenceAt", ["s", "p"], ["y"])], [X, h.make_tensor_value_info("p", T.INT64, [])],
         [h.make_tensor_value_info("y", T.FLOAT, None)], [],
         "node #1 (SequenceAt): SequenceAt position must be a constant (it is computed at run time; it is an input of"
         " the model: fix it with --input-value)"),
        ([h.make_node("SequenceAt", ["x", "p"], ["y"])], [X], [h.make_tensor_value_info("y", T.FLOAT, None)],
         [position("p", 0)], "node #0 (SequenceAt): SequenceAt reads a tensor where a sequence is expected"),
        ([h.make_node("SplitToSequence", ["x", "k"], ["s"], axis=1), h.make_node("SequenceLength", ["s"], ["y"])], [X],
         [h.make_tensor_value_info("y", T.INT64, None)], [position("k", 0)],
         "node #0 (SplitToSequence): SplitToSequence split 0 is not a positive size"),
        ([CONSTRUCT, h.make_node("ConcatFromSequence", ["s"], ["y"])], [X], [h.make_tensor_value_info("y", T.FLOAT, None)], [],
         "node #1 (ConcatFromSequence): ConcatFromSequence needs its axis attribute"),
    ],
    ids=["read-by-another-op", "graph-output", "position-past-the-end", "position-before-the-start",
         "run-time-position", "tensor-for-a-sequence", "split-of-zero", "concat-without-axis"],
)  # fmt: skip
def test_what_cannot_be_resolved_at_import_is_refused_in_one_line(nodes, inputs, outputs, inits, message):
    assert refusal(unchecked_model(nodes, inputs, outputs, inits)) == message
