"""Nodes whose inputs are all known, computed at import time by onnx's reference evaluator.

A node folds unless its op is in ``NOT_FOLDED`` (control flow, random ops) or
``FOLDED_BY_HANDLER``; its results' sizes are checked (by onnx's shape inference) against
the cap on known tensors before anything is computed, and it runs at the model's opset.
"""

from __future__ import annotations

import numpy as np
import onnx
from onnx import helper, numpy_helper
from onnx.reference import ReferenceEvaluator

from cfmem.dialects.shapes import normalize_axis
from cfmem.importers.onnx.core import Importer, OnnxImportError, check_known_size
from cfmem.importers.onnx.helpers import attr, version

NOT_FOLDED = {"If", "Loop", "Scan", "RandomNormal", "RandomUniform", "RandomNormalLike", "RandomUniformLike", "Multinomial"}

FOLDED_BY_HANDLER = {"QuantizeLinear", "DequantizeLinear"}
"""Ops whose handler computes known inputs itself (onnx's reference evaluator lacks
their versions before 19)."""


SHAPE_DATA_MAX_ELEMENTS = 64
"""Known inputs up to this size are given to shape inference as data (shapes, axes, repeats)."""


def check_fold_sizes(imp: Importer, node: onnx.NodeProto, feeds: dict[str, np.ndarray]) -> None:
    """Refuse a fold whose results onnx's shape inference says are too large to hold."""
    types = {name: helper.make_tensor_type_proto(helper.np_dtype_to_tensor_dtype(v.dtype), v.shape) for name, v in feeds.items()}
    # shape inference looks data up by input name (the key), not by the tensor's own name
    data = {name: numpy_helper.from_array(v) for name, v in feeds.items() if v.size <= SHAPE_DATA_MAX_ELEMENTS}
    try:
        schema = onnx.defs.get_schema(node.op_type, imp.opset)
        outputs = onnx.shape_inference.infer_node_outputs(schema, node, types, data)
    except Exception:  # no schema or no inference: the evaluator reports the problem, if any
        return
    for name, ty in outputs.items():
        tensor = ty.tensor_type
        dims = tensor.shape.dim
        if tensor.HasField("shape") and all(d.HasField("dim_value") for d in dims) and tensor.elem_type:
            check_known_size(name, [d.dim_value for d in dims], helper.tensor_dtype_to_np_dtype(tensor.elem_type))


COERCED_TO_2D_BEFORE_13 = ("Softmax", "LogSoftmax", "Hardmax")
"""Ops that before version 13 work on their input coerced to 2-D at ``axis`` (default 1);
onnx's reference evaluator implements only version 13."""


def fold(imp: Importer, node: onnx.NodeProto, inputs: list) -> list[np.ndarray]:
    """Evaluate a node on known inputs with onnx's reference evaluator, once its results'
    sizes are known to fit."""
    feeds = {name: value for name, value in zip(node.input, inputs) if name}
    check_fold_sizes(imp, node, feeds)
    if node.op_type in COERCED_TO_2D_BEFORE_13 and version(imp, node) < 13:
        x = feeds[node.input[0]]
        axis = normalize_axis(attr(node, "axis", 1), x.ndim)
        rows = helper.make_node(node.op_type, ["x"], ["y"], axis=1)
        (y,) = evaluate(rows, {"x": x.reshape(int(np.prod(x.shape[:axis])), -1)}, 13)
        return [y.reshape(x.shape)]
    return evaluate(node, feeds, imp.opset)


def evaluate(node: onnx.NodeProto, feeds: dict[str, np.ndarray], opset: int) -> list[np.ndarray]:
    """``node`` on ``feeds`` at ``opset`` with onnx's reference evaluator; one-line errors.

    The node is wrapped in a one-node model that imports ``opset``: given a bare
    node, the evaluator would run the newest version of its op.
    """
    inputs = [
        helper.make_tensor_value_info(name, helper.np_dtype_to_tensor_dtype(v.dtype), v.shape)
        for name, v in feeds.items()
    ]
    outputs = [helper.make_empty_tensor_value_info(name) for name in node.output if name]
    graph = helper.make_graph([node], "fold", inputs, outputs)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    try:
        results = ReferenceEvaluator(model).run(None, feeds)
    except Exception as err:
        raise OnnxImportError(f"cannot evaluate on constant inputs: {str(err).splitlines()[0] if str(err) else type(err).__name__}") from None
    return [np.asarray(r) for r in results]
