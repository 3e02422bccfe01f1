"""The ONNX op registry: which handler translates each op (``HANDLERS``), at which schema
versions (``OPERATOR_VERSIONS``), which ops take float16 tensors, and ``translate``, which
takes one node to its handler.

``translate`` is what :class:`~cfmem.importers.onnx.core.Importer` is given to run each node:
it refuses other domains than ONNX's (and onnxruntime's ``com.microsoft`` ops its quantizer
writes), resolves sequence ops (:mod:`~cfmem.importers.onnx.sequences`), folds a node whose
inputs are all known (:mod:`~cfmem.importers.onnx.folding`), checks the op's version, and
hands the node to ``If``/``Loop``/``Scan`` (:mod:`~cfmem.importers.onnx.control_flow`) or
to its handler in a family module (elementwise, tensor, nn, matmul, reduce, normalization,
resize, recurrent, quantized). Each handler receives the importer, the node and its input
values (``None`` for an omitted optional input) and returns one value per node output.

A model imports one opset of the default domain; each op in it follows the schema version in
force at that opset (the newest ``since_version`` not above it, as ``onnx.defs`` resolves it).
The handlers implement the semantics of the versions listed in ``OPERATOR_VERSIONS``, each
checked against onnxruntime (``tests/test_onnx_opsets.py``); any other version is refused.
Ops folded on known inputs are evaluated by onnx's reference evaluator at the model's opset
and are not limited by this table.

A new op: its handler in the module of its family, its entry in ``HANDLER_OPS`` and its
versions in ``OPERATOR_VERSIONS``. No handler module imports this one.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import onnx

from cfmem.importers.onnx.control_flow import translate_if, translate_loop, translate_scan
from cfmem.importers.onnx.core import Importer, OnnxImportError, Scope, Value
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
from cfmem.importers.onnx.helpers import attr, dtype_of, operator_version
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
from cfmem.importers.onnx.sequences import SEQUENCE_OPS, TensorList, translate_sequence
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

MICROSOFT = "com.microsoft"
MICROSOFT_OPS = ("QGemm", "QLinearAdd", "QLinearMul", "QLinearConcat", "QLinearSigmoid", "QLinearSoftmax")
"""onnxruntime's contrib ops that its quantizer writes (version 1 of their domain)."""

Handler = Callable[[Importer, onnx.NodeProto, list], list]

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


_UNARY = (6, 13)
_BINARY = (7, 13, 14)
_SHAPE_ONLY = (1, 13, 21, 23, 24, 25)

OPERATOR_VERSIONS: dict[str, tuple[int, ...]] = {
    "Add": _BINARY,
    "Sub": _BINARY,
    "Mul": _BINARY,
    "Div": _BINARY,
    "Pow": (7, 12, 13, 15),
    "Max": (6, 8, 12, 13),
    "Min": (6, 8, 12, 13),
    "Sum": (6, 8, 13),
    "Mean": (6, 8, 13),
    "Mod": (10, 13),
    "Sqrt": _UNARY,
    "Exp": _UNARY,
    "Neg": _UNARY,
    "Log": _UNARY,
    "Abs": _UNARY,
    "Floor": _UNARY,
    "Ceil": _UNARY,
    "Reciprocal": _UNARY,
    "Round": (11, 22),
    "Sign": (9, 13),
    "Erf": (9, 13),
    "Sin": (7, 22),
    "Cos": (7, 22),
    "Sigmoid": _UNARY,
    "Tanh": _UNARY,
    "Relu": (6, 13, 14),
    "LeakyRelu": (6, 16),
    "PRelu": (7, 9, 16),
    "Elu": (6, 22),
    "Selu": (6, 22),
    "Celu": (12,),
    "HardSigmoid": (6, 22),
    "HardSwish": (14, 22),
    "Softplus": (1, 22),
    "Softsign": (1, 22),
    "Gelu": (20,),
    "Mish": (18, 22),
    "ThresholdedRelu": (10, 22),
    "Shrink": (9,),
    "SequenceEmpty": (11,),
    "SequenceConstruct": (11,),
    "SequenceInsert": (11,),
    "SequenceErase": (11,),
    "SequenceAt": (11,),
    "SequenceLength": (11,),
    "ConcatFromSequence": (11,),
    "SplitToSequence": (11, 24),
    "LRN": (1, 13),
    "Clip": (6, 11, 12, 13),
    "Equal": (7, 11, 13, 19),
    "Greater": (7, 9, 13),
    "Less": (7, 9, 13),
    "GreaterOrEqual": (12, 16),
    "LessOrEqual": (12, 16),
    "Not": (1,),
    "And": (7,),
    "Or": (7,),
    "Xor": (7,),
    "Where": (9, 16),
    "Conv": (1, 11, 22),
    "ConvTranspose": (1, 11, 22),
    "Gemm": (7, 9, 11, 13),
    "MatMul": (1, 9, 13),
    "Einsum": (12,),
    "MaxPool": (1, 8, 10, 11, 12, 22),
    "AveragePool": (7, 10, 11, 19, 22),
    "GlobalAveragePool": (1, 22),
    "GlobalMaxPool": (1, 22),
    "ReduceMean": (1, 11, 13, 18),
    "ReduceSum": (1, 11, 13),
    "ReduceMax": (1, 11, 12, 13, 18, 20),
    "ReduceMin": (1, 11, 12, 13, 18, 20),
    "ReduceProd": (1, 11, 13, 18),
    "ReduceL1": (1, 11, 13, 18),
    "ReduceL2": (1, 11, 13, 18),
    "ReduceLogSum": (1, 11, 13, 18),
    "ReduceLogSumExp": (1, 11, 13, 18),
    "ReduceSumSquare": (1, 11, 13, 18),
    "ArgMax": (1, 11, 12, 13),
    "ArgMin": (1, 11, 12, 13),
    "Softmax": (1, 11, 13),
    "CumSum": (11, 14),
    "Resize": (10, 11, 13, 18, 19),
    "Upsample": (7, 9),
    "LogSoftmax": (1, 11, 13),
    "Hardmax": (1, 11, 13),
    "BatchNormalization": (7, 9, 14, 15),
    "InstanceNormalization": (6, 22),
    "LayerNormalization": (17,),
    "GroupNormalization": (18, 21),
    "LpNormalization": (1, 22),
    "Concat": (4, 11, 13),
    "Tile": (6, 13),
    "Expand": (8, 13),
    "DepthToSpace": (1, 11, 13),
    "SpaceToDepth": (1, 13),
    "Transpose": _SHAPE_ONLY,
    "Reshape": (5, 13, 14, 19, 21, 23, 24, 25),
    "Flatten": (1, 9, 11, 13, 21, 23, 24, 25),
    "Squeeze": (1, 11, 13, 21, 23, 24, 25),
    "Unsqueeze": (1, 11, 13, 21, 23, 24, 25),
    "Slice": (1, 10, 11, 13),
    "Split": (2, 11, 13, 18),
    "Gather": (1, 11, 13),
    "GatherElements": (11, 13),
    "TopK": (1, 10, 11, 24),
    "Pad": (2, 11, 13, 18, 19, 21, 23, 24, 25),
    "LSTM": (7, 14, 22),
    "GRU": (7, 14, 22),
    "If": (1, 11, 13, 16, 19, 21, 23, 24, 25),
    "Loop": (1, 11, 13, 16, 19, 21, 23, 24, 25),
    "Scan": (9, 11, 16, 19, 21, 23, 24, 25),
    "Identity": (1, 13, 14, 16, 19, 21, 23, 24, 25),
    "Dropout": (7, 10, 12, 13, 22),
    "Cast": (6, 9, 13, 19, 21, 23, 24, 25),
    "Shape": (1, 13, 15, 19, 21, 23, 24, 25),
    "Size": (1, 13, 19, 21, 23, 24, 25),
    "QuantizeLinear": (10, 13, 19, 21),
    "DequantizeLinear": (10, 13, 19, 21),
    "QLinearConv": (10,),
    "QLinearMatMul": (10, 21),
    "MatMulInteger": (10,),
    "ConvInteger": (10,),
    "DynamicQuantizeLinear": (11,),
}
"""Op type -> the schema versions (``since_version``) its handler implements."""


def check_operator_version(op_type: str, opset: int) -> int:
    """The version of ``op_type`` at ``opset`` if the importer implements it; else a one-line error."""
    supported = OPERATOR_VERSIONS.get(op_type)
    if supported is None:
        raise OnnxImportError(f"unsupported ONNX op {op_type}")
    version = operator_version(op_type, opset)
    if version not in supported:
        raise OnnxImportError(
            f"{op_type} version {version} (the model's opset {opset}) is not supported;"
            f" supported versions: {', '.join(map(str, supported))}"
        )
    return version


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


def translate(imp: Importer, node: onnx.NodeProto, inputs: list, scope: Scope) -> list[Value]:
    if node.domain == MICROSOFT and node.op_type in MICROSOFT_OPS:
        return HANDLERS[node.op_type](imp, node, inputs)
    if node.domain not in ("", "ai.onnx"):
        raise OnnxImportError(f"unsupported op domain {node.domain!r}")
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
        return (translate_loop if node.op_type == "Loop" else translate_scan)(imp, node, inputs, scope)
    return HANDLERS[node.op_type](imp, node, inputs)


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
