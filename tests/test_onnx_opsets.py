"""Every operator version the importer accepts, on a tiny model, against onnxruntime;
versions it does not implement are refused by op, node and version."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")
from onnx import TensorProto as T  # noqa: E402
from onnx import helper as h  # noqa: E402
from onnx import numpy_helper as nh  # noqa: E402

from cfmem.importers.onnx import OnnxImportError, onnx_importer, registry  # noqa: E402
from cfmem.importers.onnx.helpers import operator_version  # noqa: E402
from cfmem.importers.onnx.registry import OPERATOR_VERSIONS  # noqa: E402
from cfmem.importers.onnx.reference import max_abs_error, onnxruntime_outputs  # noqa: E402
from cfmem.interp.golden import run_function  # noqa: E402

RNG = np.random.default_rng(7)


@pytest.fixture(autouse=True)
def fresh_rng():
    """Each test draws the same numbers whichever tests ran before it."""
    global RNG
    RNG = np.random.default_rng(7)
def sequence_cases() -> dict:
    """Each sequence op in a small graph from tensors to a tensor (a sequence is never a
    model's input or output in cfmem), its positions known."""
    a, b, c = floats(2, 3), floats(2, 3), floats(2, 3)
    abc = {"a": a, "b": b, "c": c}

    def case(nodes, inits=None, out=T.FLOAT, unchecked=False):
        return lambda opset: Case(nodes, abc, {"y": out}, inits or {}, unchecked)

    construct = h.make_node("SequenceConstruct", ["a", "b", "c"], ["s"])
    return {
        "SequenceEmpty": case([h.make_node("SequenceEmpty", [], ["e"], dtype=T.FLOAT), h.make_node("SequenceInsert", ["e", "b"], ["s"]),
                               h.make_node("SequenceAt", ["s", "zero"], ["y"])], {"zero": i64(0).reshape(())},
                              unchecked=True),  # onnx infers no element shape for an empty sequence
        "SequenceConstruct": case([construct, h.make_node("SequenceAt", ["s", "one"], ["y"])], {"one": i64(1).reshape(())}),
        "SequenceInsert": case([construct, h.make_node("SequenceInsert", ["s", "a", "minus1"], ["t"]),
                                h.make_node("SequenceAt", ["t", "two"], ["y"])], {"minus1": i64(-1).reshape(()), "two": i64(2).reshape(())}),
        "SequenceErase": case([construct, h.make_node("SequenceErase", ["s", "zero"], ["t"]),
                               h.make_node("SequenceAt", ["t", "zero"], ["y"])], {"zero": i64(0).reshape(())}),
        "SequenceAt": case([construct, h.make_node("SequenceAt", ["s", "minus1"], ["y"])], {"minus1": i64(-1).reshape(())}),
        "SequenceLength": case([construct, h.make_node("SequenceLength", ["s"], ["y"])], out=T.INT64),
        "ConcatFromSequence": case([construct, h.make_node("ConcatFromSequence", ["s"], ["y"], axis=-1, new_axis=1)]),
        "SplitToSequence": lambda opset: Case(
            [h.make_node("SplitToSequence", ["a", "sizes"], ["s"], axis=1), h.make_node("SequenceAt", ["s", "one"], ["y"])],
            {"a": a}, {"y": T.FLOAT}, {"sizes": i64(1, 2), "one": i64(1).reshape(())}),
    }  # fmt: skip


OLDEST_OPSET = 7
"""The oldest opset onnxruntime runs."""


def floats(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


def i64(*values: int) -> np.ndarray:
    return np.array(values, np.int64)


@dataclass
class Case:
    """One node ``op`` (plus helpers) reading run-time ``inputs`` and known ``inits``."""

    nodes: list
    inputs: dict[str, np.ndarray]
    outputs: dict[str, int]
    """Output name -> ONNX element type."""
    inits: dict[str, np.ndarray] = field(default_factory=dict)
    unchecked: bool = False
    """Left to onnxruntime alone: onnx infers no output shape for it (GroupNormalization),
    and its checker refuses version 18 of GroupNormalization as deprecated."""


def unary(op: str, x: np.ndarray, **attrs) -> Case:
    return Case([h.make_node(op, ["x"], ["y"], **attrs)], {"x": x}, {"y": T.FLOAT})


def with_known(op: str, x: np.ndarray, known: dict[str, np.ndarray], out: int = T.FLOAT, **attrs) -> Case:
    """``op(x, *known)``; an empty name in ``known`` is an omitted input."""
    names = ["x", *known]
    node = h.make_node(op, [n if not n.startswith("_") else "" for n in names], ["y"], **attrs)
    return Case([node], {"x": x}, {"y": out}, {n: v for n, v in known.items() if not n.startswith("_")})


def binary(op: str, opset: int) -> Case:
    a, b = floats(2, 3), floats(3)
    if op == "Div":
        b = np.sign(b) * (np.abs(b) + 0.5)
    if op == "Pow":
        a = np.abs(a) + 0.5
    return Case([h.make_node(op, ["a", "b"], ["y"])], {"a": a, "b": b}, {"y": T.FLOAT})


def compare(op: str, opset: int) -> Case:
    if op == "Equal":  # floats only from version 11
        a, b = RNG.integers(0, 3, (2, 3)), RNG.integers(0, 3, (3,))
    else:
        a, b = floats(2, 3), floats(3)
    return Case([h.make_node(op, ["a", "b"], ["y"])], {"a": a, "b": b}, {"y": T.BOOL})


def axes_case(op: str, opset: int, x: np.ndarray, axes: list[int], input_since: int, **attrs) -> Case:
    """``axes`` as an attribute before version ``input_since`` of ``op``, as an input from it on."""
    if operator_version(op, opset) >= input_since:
        return with_known(op, x, {"axes": i64(*axes)}, **attrs)
    return unary(op, x, axes=axes, **attrs)


def clip(opset: int) -> Case:
    if opset < 11:
        return unary("Clip", floats(2, 3), min=-0.5, max=0.5)
    return with_known("Clip", floats(2, 3), {"lo": np.array(-0.5, np.float32), "hi": np.array(0.5, np.float32)})


def slice_case(opset: int) -> Case:
    x = floats(4, 6)
    if opset < 10:
        return unary("Slice", x, starts=[1, 0], ends=[3, 5], axes=[0, 1])
    return with_known("Slice", x, {"starts": i64(1, 0), "ends": i64(3, 5), "axes": i64(0, 1), "steps": i64(1, 2)})


def split(opset: int) -> Case:
    x = floats(2, 7)
    version = operator_version("Split", opset)
    if version >= 18:
        node = h.make_node("Split", ["x"], ["y0", "y1", "y2"], axis=1, num_outputs=3)
        return Case([node], {"x": x}, {"y0": T.FLOAT, "y1": T.FLOAT, "y2": T.FLOAT})
    if version >= 13:
        node = h.make_node("Split", ["x", "sizes"], ["y0", "y1"], axis=1)
        return Case([node], {"x": x}, {"y0": T.FLOAT, "y1": T.FLOAT}, {"sizes": i64(2, 5)})
    node = h.make_node("Split", ["x"], ["y0", "y1"], axis=1, split=[2, 5])
    return Case([node], {"x": x}, {"y0": T.FLOAT, "y1": T.FLOAT})


def pad(opset: int) -> Case:
    x = floats(2, 3)
    version = operator_version("Pad", opset)
    if version < 11:
        return unary("Pad", x, pads=[0, 1, 1, 0], value=1.5)
    known = {"pads": i64(0, 1, 1, 0), "value": np.array(1.5, np.float32)}
    if version >= 18:
        known = {"pads": i64(1, 2), "value": np.array(1.5, np.float32), "axes": i64(1)}
    return with_known("Pad", x, known)


def lstm(opset: int) -> Case:
    hidden = 4
    inits = {"W": floats(1, 4 * hidden, 2), "R": floats(1, 4 * hidden, hidden), "B": floats(1, 8 * hidden)}
    node = h.make_node("LSTM", ["x", "W", "R", "B"], ["y", "y_h"], hidden_size=hidden)
    return Case([node], {"x": floats(3, 1, 2)}, {"y": T.FLOAT, "y_h": T.FLOAT}, inits)


def gru(opset: int) -> Case:
    hidden = 3
    inits = {"W": floats(1, 3 * hidden, 2), "R": floats(1, 3 * hidden, hidden), "B": floats(1, 6 * hidden)}
    node = h.make_node("GRU", ["x", "W", "R", "B"], ["y", "y_h"], hidden_size=hidden)
    return Case([node], {"x": floats(3, 1, 2)}, {"y": T.FLOAT, "y_h": T.FLOAT}, inits)


def if_case(opset: int) -> Case:
    def branch(op: str) -> onnx.GraphProto:
        return h.make_graph([h.make_node(op, ["x"], [op])], op, [], [h.make_tensor_value_info(op, T.FLOAT, [2, 3])])

    node = h.make_node("If", ["c"], ["y"], then_branch=branch("Relu"), else_branch=branch("Neg"))
    return Case([node], {"c": np.array([False]), "x": floats(2, 3)}, {"y": T.FLOAT})


def loop_case(opset: int) -> Case:
    """A while loop: h <- tanh(h + x) while sum(h) < 2.5, at most M times (unchecked: onnx
    infers no shape for the output y)."""
    body = h.make_graph(
        [h.make_node("Add", ["h_in", "x"], ["hx"]), h.make_node("Tanh", ["hx"], ["h_out"]),
         h.make_node("ReduceSum", ["h_out"], ["s"], keepdims=0), h.make_node("Less", ["s", "limit"], ["c_out"])],
        "body", [h.make_tensor_value_info("i", T.INT64, []), h.make_tensor_value_info("c_in", T.BOOL, []),
                 h.make_tensor_value_info("h_in", T.FLOAT, [2, 3])],
        [h.make_tensor_value_info("c_out", T.BOOL, []), h.make_tensor_value_info("h_out", T.FLOAT, [2, 3])],
    )  # fmt: skip
    node = h.make_node("Loop", ["M", "go", "x"], ["y"], body=body)
    inits = {"go": np.array(True), "limit": np.array(2.5, np.float32)}
    return Case([node], {"x": np.abs(floats(2, 3)) / 4, "M": np.array(5, np.int64)}, {"y": T.FLOAT}, inits, unchecked=True)


def scan_case(opset: int) -> Case:
    """A running sum over axis 1 of x[2, 4], read in reverse, stacked on axis 1."""
    body = h.make_graph(
        [h.make_node("Add", ["s_in", "xt"], ["s_out"]), h.make_node("Neg", ["s_out"], ["n"])],
        "body", [h.make_tensor_value_info("s_in", T.FLOAT, [2]), h.make_tensor_value_info("xt", T.FLOAT, [2])],
        [h.make_tensor_value_info("s_out", T.FLOAT, [2]), h.make_tensor_value_info("n", T.FLOAT, [2])],
    )  # fmt: skip
    node = h.make_node("Scan", ["s0", "x"], ["s", "ys"], body=body, num_scan_inputs=1, scan_input_axes=[1],
                       scan_input_directions=[1], scan_output_axes=[1])  # fmt: skip
    return Case([node], {"s0": floats(2), "x": floats(2, 4)}, {"s": T.FLOAT, "ys": T.FLOAT})


def dropout(opset: int) -> Case:
    version = operator_version("Dropout", opset)
    node_inputs = ["x", "ratio", "training"] if version >= 12 else ["x"]
    attrs = {} if version >= 12 else {"ratio": 0.3}
    outputs = {"y": T.FLOAT, "mask": T.BOOL} if version >= 12 else {"y": T.FLOAT}
    node = h.make_node("Dropout", node_inputs, list(outputs), **attrs)
    inits = {"ratio": np.array(0.3, np.float32), "training": np.array(False)} if version >= 12 else {}
    return Case([node], {"x": floats(2, 3)}, outputs, inits)


def top_k(opset: int) -> Case:
    x = np.array([[1.0, 3.0, 3.0, -2.0], [0.5, 0.5, 2.0, 0.5]], np.float32)  # ties: the lower position first
    outputs = {"values": T.FLOAT, "indices": T.INT64}
    if operator_version("TopK", opset) < 10:
        return Case([h.make_node("TopK", ["x"], list(outputs), k=3)], {"x": x}, outputs)
    attrs = {"largest": 0} if operator_version("TopK", opset) >= 11 else {}
    return Case([h.make_node("TopK", ["x", "k"], list(outputs), **attrs)], {"x": x}, outputs, {"k": i64(3)})


def bools(*shape: int) -> np.ndarray:
    return RNG.random(shape) < 0.5


def logical(op: str) -> Case:
    inputs = {"a": bools(2, 3)} if op == "Not" else {"a": bools(2, 3), "b": bools(3)}
    return Case([h.make_node(op, list(inputs), ["y"])], inputs, {"y": T.BOOL})


def depth_to_space(opset: int) -> Case:
    mode = {"mode": "CRD"} if operator_version("DepthToSpace", opset) >= 11 else {}
    return unary("DepthToSpace", floats(1, 8, 2, 3), blocksize=2, **mode)


def resize(opset: int) -> Case:
    """Bilinear over the two innermost axes (Resize 10 has no roi input)."""
    scales = np.array([1, 1, 2, 1.5], np.float32)
    known = {"scales": scales} if opset < 11 else {"roi": np.array([], np.float32), "scales": scales}
    return with_known("Resize", floats(1, 2, 3, 4), known, mode="linear")


def upsample(opset: int) -> Case:
    """Nearest; scales an attribute before 9."""
    if opset < 9:
        return unary("Upsample", floats(1, 2, 3, 4), scales=[1.0, 2.0, 2.0, 1.5])
    return with_known("Upsample", floats(1, 2, 3, 4), {"scales": np.array([1, 2, 2, 1.5], np.float32)})


def batch_normalization(opset: int) -> Case:
    stats = {"scale": floats(3), "B": floats(3), "mean": floats(3), "var": np.abs(floats(3)) + 0.1}
    return with_known("BatchNormalization", floats(2, 3, 4), stats, epsilon=1e-3)


def group_normalization(opset: int) -> Case:
    per = 2 if operator_version("GroupNormalization", opset) < 21 else 4
    case = with_known("GroupNormalization", floats(2, 4, 3), {"scale": floats(per), "B": floats(per)}, num_groups=2)
    case.unchecked = True
    return case


def reduction(op: str, opset: int) -> Case:
    x = np.abs(floats(2, 3, 4)) + 0.1 if op == "ReduceLogSum" else floats(2, 3, 4)
    return axes_case(op, opset, x, [-1, 0], 18, keepdims=0)


def shape(opset: int) -> Case:
    attrs = {"start": 1} if operator_version("Shape", opset) >= 15 else {}
    return Case([h.make_node("Shape", ["x"], ["y"], **attrs)], {"x": floats(2, 3, 4)}, {"y": T.INT64})


def int8s(*shape: int) -> np.ndarray:
    return RNG.integers(-128, 128, shape).astype(np.int8)


def qlinear_conv(opset: int) -> Case:
    names = ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "b"]
    known = {"xs": np.float32(0.05), "xz": np.int8(3), "w": int8s(3, 2, 3, 3), "ws": np.array([0.01, 0.02, 0.015], np.float32),
             "wz": np.zeros(3, np.int8), "ys": np.float32(0.2), "yz": np.int8(-1), "b": RNG.integers(-500, 500, 3).astype(np.int32)}
    node = h.make_node("QLinearConv", names, ["y"], pads=[1, 1, 1, 1])
    return Case([node], {"x": int8s(1, 2, 5, 5)}, {"y": T.INT8}, known)


def qlinear_matmul(opset: int) -> Case:
    names = ["a", "as", "az", "b", "bs", "bz", "ys", "yz"]
    known = {"as": np.float32(0.05), "az": np.int8(3), "b": int8s(3, 4), "bs": np.float32(0.02), "bz": np.int8(0),
             "ys": np.float32(0.1), "yz": np.int8(2)}
    return Case([h.make_node("QLinearMatMul", names, ["y"])], {"a": int8s(2, 3)}, {"y": T.INT8}, known)


CASES = {
    **{op: (lambda op: lambda opset: binary(op, opset))(op) for op in ("Add", "Sub", "Mul", "Div", "Pow")},
    **{op: (lambda op: lambda opset: unary(op, floats(2, 3)))(op) for op in ("Exp", "Neg", "Sigmoid", "Tanh", "Relu")},
    "Sqrt": lambda opset: unary("Sqrt", np.abs(floats(2, 3)) + 0.1),
    **{op: (lambda op: lambda opset: unary(op, floats(2, 3) * 3))(op) for op in ("Abs", "Floor", "Ceil", "Sign", "Erf", "Sin", "Cos")},
    "Log": lambda opset: unary("Log", np.abs(floats(2, 3)) + 0.1),
    **{
        op: (lambda op: lambda opset: Case([h.make_node(op, ["a", "b", "c"], ["y"])],
                                           {"a": floats(2, 3), "b": floats(2, 3), "c": floats(2, 3)}, {"y": T.FLOAT}))(op)
        for op in ("Max", "Min", "Sum", "Mean")
    },  # fmt: skip
    **{
        op: (lambda op: lambda opset: unary(op, floats(2, 3) * 3))(op)
        for op in ("LeakyRelu", "Elu", "Selu", "Celu", "HardSigmoid", "HardSwish", "Softplus", "Softsign", "Mish")
    },
    "Gelu": lambda opset: unary("Gelu", floats(2, 3) * 3, approximate="tanh"),
    "ThresholdedRelu": lambda opset: unary("ThresholdedRelu", floats(2, 3) * 3, alpha=0.5),
    "Shrink": lambda opset: unary("Shrink", floats(2, 3) * 3, lambd=0.7, bias=0.3),
    **sequence_cases(),
    "LRN": lambda opset: unary("LRN", floats(1, 5, 2, 3) * 2, size=3, alpha=0.5, beta=0.6, bias=1.5),
    "PRelu": lambda opset: with_known("PRelu", floats(2, 3, 4) * 3, {"slope": floats(3, 1)}),
    "Reciprocal": lambda opset: unary("Reciprocal", np.sign(floats(2, 3)) * (np.abs(floats(2, 3)) + 0.5)),
    "Round": lambda opset: unary("Round", np.array([[-2.5, -1.5, -0.5], [0.5, 1.5, 2.4]], np.float32)),
    "Clip": clip,
    **{op: (lambda op: lambda opset: compare(op, opset))(op) for op in ("Equal", "Greater", "Less", "GreaterOrEqual", "LessOrEqual")},
    "Mod": lambda opset: Case([h.make_node("Mod", ["a", "b"], ["y"], fmod=1)], {"a": floats(2, 3) * 8, "b": floats(3)}, {"y": T.FLOAT}),
    **{op: (lambda op: lambda opset: logical(op))(op) for op in ("Not", "And", "Or", "Xor")},
    "Where": lambda opset: Case([h.make_node("Where", ["c", "a", "b"], ["y"])],
                                {"c": bools(2, 3), "a": floats(2, 3), "b": floats(3)}, {"y": T.FLOAT}),
    "Conv": lambda opset: with_known("Conv", floats(1, 2, 5, 5), {"w": floats(3, 2, 3, 3), "b": floats(3)}, pads=[1, 1, 1, 1]),
    "ConvTranspose": lambda opset: with_known("ConvTranspose", floats(1, 2, 4, 3), {"w": floats(2, 3, 3, 2), "b": floats(3)},
                                              strides=[2, 1], pads=[1, 0, 0, 1], output_padding=[1, 0]),
    "Gemm": lambda opset: with_known("Gemm", floats(2, 4), {"B": floats(3, 4), "C": floats(3)}, transB=1),
    "MatMul": lambda opset: with_known("MatMul", floats(2, 4), {"B": floats(4, 3)}),
    "Einsum": lambda opset: with_known("Einsum", floats(2, 3, 4), {"B": floats(2, 5, 4)}, equation="bij,bkj->bki"),
    "MaxPool": lambda opset: unary("MaxPool", floats(1, 2, 4, 4), kernel_shape=[2, 2], strides=[2, 2]),
    "AveragePool": lambda opset: unary("AveragePool", floats(1, 2, 4, 4), kernel_shape=[2, 2], strides=[2, 2]),
    "GlobalAveragePool": lambda opset: unary("GlobalAveragePool", floats(1, 2, 4, 4)),
    "GlobalMaxPool": lambda opset: unary("GlobalMaxPool", floats(1, 2, 4, 4)),
    "CumSum": lambda opset: with_known("CumSum", floats(2, 3, 4), {"axis": np.array(1, np.int64)}, exclusive=1),
    "ReduceMean": lambda opset: axes_case("ReduceMean", opset, floats(2, 3, 4), [1], 18, keepdims=0),
    "ReduceSum": lambda opset: axes_case("ReduceSum", opset, floats(2, 3, 4), [1], 13, keepdims=0),
    "Softmax": lambda opset: unary("Softmax", floats(2, 3, 4), axis=1),
    "Resize": resize,
    "Upsample": upsample,
    "LogSoftmax": lambda opset: unary("LogSoftmax", floats(2, 3, 4), axis=1),
    "Hardmax": lambda opset: unary("Hardmax", floats(2, 3, 4), axis=1),
    **{
        op: (lambda op: lambda opset: reduction(op, opset))(op)
        for op in ("ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare")
    },
    **{op: (lambda op: lambda opset: Case([h.make_node(op, ["x"], ["y"], axis=1, keepdims=0)], {"x": floats(2, 3, 4)}, {"y": T.INT64}))(op)
       for op in ("ArgMax", "ArgMin")},
    "BatchNormalization": batch_normalization,
    "InstanceNormalization": lambda opset: with_known("InstanceNormalization", floats(2, 3, 4), {"scale": floats(3), "B": floats(3)}),
    "LayerNormalization": lambda opset: with_known("LayerNormalization", floats(2, 3, 4), {"scale": floats(3, 4), "B": floats(4)}, axis=-2),
    "GroupNormalization": group_normalization,
    "LpNormalization": lambda opset: unary("LpNormalization", floats(2, 3, 4), axis=1, p=1),
    "Concat": lambda opset: with_known("Concat", floats(2, 3), {"b": floats(2, 2)}, axis=1),
    "Transpose": lambda opset: unary("Transpose", floats(2, 3, 4), perm=[2, 0, 1]),
    "Tile": lambda opset: with_known("Tile", floats(2, 3), {"repeats": i64(2, 3)}),
    "Expand": lambda opset: with_known("Expand", floats(3, 1), {"shape": i64(2, 1, 4)}),
    "DepthToSpace": depth_to_space,
    "SpaceToDepth": lambda opset: unary("SpaceToDepth", floats(1, 2, 4, 6), blocksize=2),
    "Reshape": lambda opset: with_known("Reshape", floats(2, 3, 4), {"shape": i64(4, -1)}),
    "Flatten": lambda opset: unary("Flatten", floats(2, 3, 4), axis=2),
    "Squeeze": lambda opset: axes_case("Squeeze", opset, floats(2, 1, 4), [1], 13),
    "Unsqueeze": lambda opset: axes_case("Unsqueeze", opset, floats(2, 4), [1], 13),
    "Slice": slice_case,
    "Split": split,
    "Gather": lambda opset: with_known("Gather", floats(4, 3), {"idx": i64(2, 0)}, axis=0),
    "GatherElements": lambda opset: Case([h.make_node("GatherElements", ["x", "idx"], ["y"], axis=1)],
                                         {"x": floats(3, 4), "idx": i64(3, -1, 0, 2, 1, -4).reshape(3, 2)}, {"y": T.FLOAT}),
    "Pad": pad,
    "LSTM": lstm,
    "GRU": gru,
    "If": if_case,
    "Loop": loop_case,
    "Scan": scan_case,
    "Identity": lambda opset: unary("Identity", floats(2, 3)),
    "Dropout": dropout,
    "Cast": lambda opset: unary("Cast", floats(2, 3), to=T.FLOAT),
    "Shape": shape,
    "TopK": top_k,
    "Size": lambda opset: Case([h.make_node("Size", ["x"], ["y"])], {"x": floats(2, 3)}, {"y": T.INT64}),
    "QuantizeLinear": lambda opset: with_known("QuantizeLinear", floats(2, 3), {"s": np.float32(0.05), "z": np.int8(3)}, T.INT8),
    "DequantizeLinear": lambda opset: with_known("DequantizeLinear", int8s(2, 3), {"s": np.float32(0.05), "z": np.int8(-2)}),
    "QLinearConv": qlinear_conv,
    "MatMulInteger": lambda opset: Case([h.make_node("MatMulInteger", ["a", "b", "az"], ["y"])], {"a": int8s(2, 3)}, {"y": T.INT32},
                                        {"b": int8s(3, 4), "az": np.int8(3)}),
    "ConvInteger": lambda opset: Case([h.make_node("ConvInteger", ["x", "w", "xz"], ["y"], pads=[1, 1, 1, 1])], {"x": int8s(1, 2, 4, 4)},
                                      {"y": T.INT32}, {"w": int8s(3, 2, 3, 3), "xz": np.int8(-5)}),
    "DynamicQuantizeLinear": lambda opset: Case([h.make_node("DynamicQuantizeLinear", ["x"], ["y", "s", "z"])], {"x": floats(2, 3)},
                                                {"y": T.UINT8, "s": T.FLOAT, "z": T.UINT8}),
    "QLinearMatMul": qlinear_matmul,
}


def model_of(case: Case, opset: int) -> onnx.ModelProto:
    inputs = [h.make_tensor_value_info(n, h.np_dtype_to_tensor_dtype(v.dtype), v.shape) for n, v in case.inputs.items()]
    outputs = [h.make_tensor_value_info(n, ty, None) for n, ty in case.outputs.items()]
    inits = [nh.from_array(v, n) for n, v in case.inits.items()]
    graph = h.make_graph(case.nodes, "g", inputs, outputs, inits)
    ir_version = 8 if opset < 19 else 9 if opset < 21 else 10
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", opset)], ir_version=ir_version)
    if case.unchecked:
        return model
    model = onnx.shape_inference.infer_shapes(model, strict_mode=True)  # output shapes, as exporters write them
    onnx.checker.check_model(model)
    return model


def versions() -> list[tuple[str, int]]:
    return [(op, v) for op, accepted in OPERATOR_VERSIONS.items() for v in accepted]


def test_every_handled_op_has_a_version_table_entry_and_a_case():
    from cfmem.importers.onnx.sequences import SEQUENCE_OPS

    default_domain = set(registry.HANDLERS) - set(registry.MICROSOFT_OPS)
    assert default_domain | {"If", "Loop", "Scan", *SEQUENCE_OPS} == set(OPERATOR_VERSIONS) == set(CASES)


@pytest.mark.parametrize("op, version", versions(), ids=[f"{op}-{v}" for op, v in versions()])
def test_each_accepted_version_matches_onnxruntime(tmp_path, op, version):
    opset = max(version, OLDEST_OPSET)
    assert operator_version(op, opset) == version
    case = CASES[op](opset)
    path = tmp_path / "m.onnx"
    onnx.save(model_of(case, opset), str(path))
    imported = onnx_importer(onnx.load(str(path)), "w.bin").import_graph({}, {})
    (tmp_path / "w.bin").write_bytes(imported.blob)
    got = run_function(imported.module, dict(case.inputs), base_dir=tmp_path).outputs
    want = onnxruntime_outputs(path, case.inputs)
    assert {k: v.dtype for k, v in got.items()} == {k: v.dtype for k, v in want.items()}
    assert max_abs_error(want, got) <= 1e-5


@pytest.mark.parametrize("op", ["Softmax", "LogSoftmax", "Hardmax"])
@pytest.mark.parametrize("opset", [11, 13])
def test_folding_on_known_inputs_follows_the_models_opset(tmp_path, op, opset):
    """onnx's reference evaluator knows only version 13 of these (no coercion to 2-D)."""
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 7
    case = Case([h.make_node(op, ["x"], ["y"], axis=1)], {}, {"y": T.FLOAT}, {"x": x})
    path = tmp_path / "m.onnx"
    onnx.save(model_of(case, opset), str(path))
    imported = onnx_importer(onnx.load(str(path)), "w.bin").import_graph({}, {})
    (tmp_path / "w.bin").write_bytes(imported.blob)
    got = run_function(imported.module, {}, base_dir=tmp_path).outputs
    assert max_abs_error(onnxruntime_outputs(path, {}), got) <= 1e-6


@pytest.mark.parametrize("op, opset, version", [("Add", 6, 6), ("Relu", 5, 1), ("Clip", 5, 1)])
def test_an_unimplemented_version_is_refused_by_op_node_and_version(op, opset, version):
    node = h.make_node(op, ["x", "x"] if op == "Add" else ["x"], ["y"], name="n1")
    graph = h.make_graph([node], "g", [h.make_tensor_value_info("x", T.FLOAT, [2])], [h.make_tensor_value_info("y", T.FLOAT, [2])])
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", opset)], ir_version=8)
    with pytest.raises(OnnxImportError) as err:
        onnx_importer(model, "w.bin").import_graph({}, {})
    supported = ", ".join(map(str, OPERATOR_VERSIONS[op]))
    assert str(err.value) == (
        f"node n1 ({op}): {op} version {version} (the model's opset {opset}) is not supported; supported versions: {supported}"
    )
