"""Translation of single ONNX nodes for :mod:`cfmem.importers.onnx.core`.

``translate`` folds a node whose inputs are all known with onnx's reference
evaluator, and otherwise emits nn ops through the importer's GraphBuilder.
Each handler receives the importer, the node, its input values (``None`` for
an omitted optional input) and returns one value per node output.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import onnx

from cfmem.importers.onnx.core import Importer, OnnxImportError, Scope, Value, add_initializers
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
from cfmem.importers.onnx.helpers import attr, dtype_of, out_name
from cfmem.importers.onnx.matmul import einsum, gemm, matmul
from cfmem.importers.onnx.nn import conv, conv_transpose, global_avg_pool, global_max_pool, pool
from cfmem.importers.onnx.normalization import (
    batch_normalization,
    group_normalization,
    instance_normalization,
    layer_normalization,
    lp_normalization,
    lrn,
)
from cfmem.importers.onnx.quantized import (
    conv_integer,
    dequantize_linear,
    dynamic_quantize_linear,
    matmul_integer,
    qgemm,
    qlinear_binary,
    qlinear_concat,
    qlinear_conv,
    qlinear_sigmoid,
    qlinear_softmax,
    quantize_linear,
)
from cfmem.importers.onnx.recurrent import gru, lstm
from cfmem.importers.onnx.reduce import ALONG_AXIS, ARG_OPS, REDUCE_OPS, arg_extreme, cumsum, reduce, softmax
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


# --- logic and selection --------------------------------------------------------------------


# --- sliding windows (Conv, pooling) -----------------------------------------------------------


# --- linear algebra ----------------------------------------------------------------------------


# --- pooling, reductions ---------------------------------------------------------------------


# --- resizing ----------------------------------------------------------------------------------


# --- normalization ----------------------------------------------------------------------------


# --- data movement --------------------------------------------------------------------------


# --- recurrent ------------------------------------------------------------------------------


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
