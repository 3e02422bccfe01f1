"""The ONNX operator versions the importer translates into nn ops.

A model imports one opset of the default domain; each op in it follows the
schema version in force at that opset (the newest ``since_version`` not above
it, as ``onnx.defs`` resolves it). The handlers implement the semantics of the
versions listed in :data:`OPERATOR_VERSIONS`, each checked against onnxruntime
(``tests/test_onnx_opsets.py``); any other version is refused. Ops folded on
known inputs are evaluated by onnx's reference evaluator at the model's opset
and are not limited by this table.
"""

from __future__ import annotations

from cfmem.importers.onnx.core import OnnxImportError
from cfmem.importers.onnx.helpers import operator_version

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
