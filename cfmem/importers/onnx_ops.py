"""Translation of single ONNX nodes for :mod:`cfmem.importers.onnx_import`.

``translate`` folds a node whose inputs are all known with onnx's reference
evaluator, and otherwise emits nn ops through the importer's GraphBuilder.
Each handler receives the importer, the node, its input values (``None`` for
an omitted optional input) and returns one value per node output.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import math

import numpy as np
import onnx
from onnx import helper, numpy_helper
from onnx.reference import ReferenceEvaluator
from xdsl.dialects.builtin import (
    BoolAttr,
    BytesAttr,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    TensorType,
    f32,
    i1,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue

from cfmem.dialects import nn_compute as nc
from cfmem.dialects.shapes import normalize_axis
from cfmem.importers.onnx_import import Importer, OnnxImportError, Scope, Value, add_initializers, check_known_size
from cfmem.importers.onnx_opsets import check_operator_version, operator_version

Handler = Callable[[Importer, onnx.NodeProto, list], list]

NOT_FOLDED = {"If", "Loop", "Scan", "RandomNormal", "RandomUniform", "RandomNormalLike", "RandomUniformLike", "Multinomial"}


def translate(imp: Importer, node: onnx.NodeProto, inputs: list, scope: Scope) -> list[Value]:
    if node.domain not in ("", "ai.onnx"):
        raise OnnxImportError(f"unsupported op domain {node.domain!r}")
    present = [v for v in inputs if v is not None]
    if node.op_type not in NOT_FOLDED and all(isinstance(v, np.ndarray) for v in present):
        return fold(imp, node, inputs)
    check_operator_version(node.op_type, imp.opset)
    if node.op_type == "If":
        return translate_if(imp, node, inputs, scope)
    return HANDLERS[node.op_type](imp, node, inputs)


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


# --- helpers -------------------------------------------------------------------------------


def version(imp: Importer, node: onnx.NodeProto) -> int:
    """The schema version of ``node``'s op at the model's opset."""
    return operator_version(node.op_type, imp.opset)


def optional_input(inputs: list, k: int) -> Value | None:
    """Input ``k``, or None when it is omitted."""
    return inputs[k] if len(inputs) > k else None


def attr(node: onnx.NodeProto, name: str, default=None):
    for a in node.attribute:
        if a.name == name:
            return helper.get_attribute_value(a)
    return default


def known(value: Value | None, what: str) -> np.ndarray:
    if not isinstance(value, np.ndarray):
        raise OnnxImportError(f"{what} must be a constant (it is computed at run time)")
    return value


def ints(value: Value | None, what: str) -> list[int]:
    return [int(v) for v in known(value, what).reshape(-1)]


def shape_of(imp: Importer, value: Value) -> tuple[int, ...]:
    return tuple(value.shape) if isinstance(value, np.ndarray) else imp.b.shape(value)


def dtype_of(value: Value) -> np.dtype:
    if isinstance(value, np.ndarray):
        return value.dtype
    element = value.type.get_element_type()
    if element == f32:
        return np.dtype(np.float32)
    if element == i1:
        return np.dtype(np.bool_)
    assert isinstance(element, IntegerType)
    return np.dtype(f"int{element.width.data}")


def out_name(imp: Importer, node: onnx.NodeProto, k: int = 0) -> str:
    return imp.name(node.output[k] if k < len(node.output) else node.name, node.op_type.lower())


def f32_operand(imp: Importer, value: Value, hint: str) -> SSAValue:
    if isinstance(value, np.ndarray):
        return imp.runtime(value.astype(np.float32), hint)
    if dtype_of(value) != np.float32:
        raise OnnxImportError(f"expected a float tensor, got {value.type}")
    return value


def element_type(dtype: np.dtype) -> Attribute:
    if dtype == np.bool_:
        return i1
    if dtype == np.float32:
        return f32
    if np.issubdtype(dtype, np.integer):
        return IntegerType(dtype.itemsize * 8)
    raise OnnxImportError(f"unsupported element type {dtype}")


def constant(imp: Importer, array: np.ndarray, hint: str) -> SSAValue:
    """An ``nn.constant`` of any supported element type."""
    ty = TensorType(element_type(array.dtype), list(array.shape))
    if array.dtype == np.bool_:
        attr_ = DenseIntOrFPElementsAttr.from_list(ty, [int(v) for v in array.reshape(-1)])
    else:
        data = np.ascontiguousarray(array, dtype=array.dtype.newbyteorder("<")).tobytes()
        attr_ = DenseIntOrFPElementsAttr(ty, BytesAttr(data))
    return imp.b._emit(nc.ConstantOp(attr_), imp.name(hint, "cst"))


def function_input(imp: Importer, name: str, shape: Sequence[int], dtype: np.dtype) -> SSAValue:
    return imp.b.input(name, shape, dtype=dtype)


def make(imp: Importer, cls: type[nc.ComputeOp], operands: list[SSAValue], props: dict, name: str) -> SSAValue:
    """Emit a compute op, its result shape inferred by the op's own rule."""
    probe = cls.create(operands=operands, properties=props)  # infer_shape reads operands and properties only
    try:
        shape = probe.infer_shape()
    except ValueError as err:
        raise OnnxImportError(f"{cls.name}: {err}") from None
    finally:
        probe.drop_all_references()
    op: Operation = cls.create(
        operands=operands, result_types=[TensorType(cls.RESULT_ELEMENT_TYPE, list(shape))], properties=props
    )
    return imp.b._emit(op, name)


def reshape(imp: Importer, x: SSAValue, shape: Sequence[int], name: str | None = None) -> SSAValue:
    if tuple(shape) == imp.b.shape(x):
        return x
    return imp.b.reshape(x, [int(d) for d in shape], name or imp.name("reshape"))


# --- aliases ---------------------------------------------------------------------------------


def identity(imp, node, inputs):
    return [inputs[0]]


def dropout(imp, node, inputs):
    """Inference only: the identity, and a mask of ones. From version 12 on, ``training_mode``
    is an input; it must be omitted or a known false. Before 12 the mask outside training is
    undefined (onnxruntime gives zeros, onnx's reference evaluator ones), so it is refused."""
    training = optional_input(inputs, 2)
    if training is not None:
        if not isinstance(training, np.ndarray):
            raise OnnxImportError("Dropout training_mode is computed at run time; only inference (a known false) is supported")
        if training.size != 1 or bool(training.reshape(-1)[0]):
            raise OnnxImportError("Dropout with training_mode true is not supported (only inference)")
    wants_mask = len(node.output) > 1 and node.output[1]
    if wants_mask and version(imp, node) < 12:
        raise OnnxImportError(
            f"the mask output of Dropout version {version(imp, node)} is undefined outside training; not supported"
        )
    x = inputs[0]
    return [x, np.ones(shape_of(imp, x), np.bool_)]


def cast(imp, node, inputs):
    to = attr(node, "to")
    x = inputs[0]
    if onnx.helper.tensor_dtype_to_np_dtype(to) == dtype_of(x):
        return [x]
    raise OnnxImportError(f"Cast of a run-time {dtype_of(x)} tensor to {onnx.TensorProto.DataType.Name(to)} is not supported")


def shape_op(imp, node, inputs):
    dims = np.array(shape_of(imp, inputs[0]), dtype=np.int64)
    start, end = attr(node, "start", 0), attr(node, "end", None)
    return [dims[start:end]]


def size_op(imp, node, inputs):
    return [np.array(int(np.prod(shape_of(imp, inputs[0]))), dtype=np.int64)]


# --- elementwise ---------------------------------------------------------------------------

BINARY = {"Add": nc.AddOp, "Sub": nc.SubOp, "Mul": nc.MulOp, "Div": nc.DivOp}
UNARY = {"Relu": nc.ReluOp, "Sigmoid": nc.SigmoidOp, "Tanh": nc.TanhOp}
COMPARE = {"Equal": "eq", "Greater": "gt", "Less": "lt", "GreaterOrEqual": "ge", "LessOrEqual": "le"}


def binary(imp, node, inputs):
    a, b = (f32_operand(imp, v, node.input[k]) for k, v in enumerate(inputs[:2]))
    cls = getattr(nc, "PowOp") if node.op_type == "Pow" else BINARY[node.op_type]
    return [make(imp, cls, [a, b], {}, out_name(imp, node))]


def unary(imp, node, inputs):
    x = f32_operand(imp, inputs[0], node.output[0])
    cls = UNARY.get(node.op_type) or getattr(nc, f"{node.op_type}Op")
    return [make(imp, cls, [x], {}, out_name(imp, node))]


def number(imp, value: float, hint: str) -> SSAValue:
    """``value`` as a rank-0 f32 constant, which broadcasts to any shape, rank 0 included."""
    return imp.runtime(np.array(value, np.float32), hint)


def variadic(imp, node, inputs):
    """Max, Min, Sum and Mean of one or more inputs with broadcasting, combined left to right."""
    b, op = imp.b, node.op_type
    values = [f32_operand(imp, v, node.input[k]) for k, v in enumerate(inputs)]  # at least one at run time
    out = out_name(imp, node)
    combine = {"Max": b.max, "Min": b.min, "Sum": b.add, "Mean": b.add}[op]
    result = values[0]
    for k, value in enumerate(values[1:], start=2):
        last = k == len(values) and op != "Mean"
        result = combine(result, value, out if last else None)
    if op == "Mean" and len(values) > 1:
        result = b.div(result, number(imp, len(values), f"{out}_count"), out)
    return [result]


SELU_ALPHA, SELU_GAMMA = 1.67326319217681884765625, 1.05070102214813232421875
"""The ONNX defaults of Selu's alpha and gamma (float32 values)."""


def activation(imp, node, inputs):
    """Activations as nn ops: ``min(x, 0)`` is ``-relu(-x)``, and a stable softplus is
    ``relu(x) + log(1 + exp(-|x|))``. Each is the ONNX formula, rounded as float32 ops."""
    b, op = imp.b, node.op_type
    x = f32_operand(imp, inputs[0], node.output[0])
    out = out_name(imp, node)

    def k(value: float) -> SSAValue:
        return number(imp, value, f"{out}_k")

    def below_zero() -> SSAValue:  # min(x, 0)
        return b.neg(b.relu(b.neg(x)))

    def exp_linear(alpha: float, scale: float = 1.0) -> SSAValue:  # alpha * (exp(min(x, 0) / scale) - 1)
        low = below_zero() if scale == 1.0 else b.div(below_zero(), k(scale))
        return b.mul(b.sub(b.exp(low), k(1.0)), k(alpha))

    def softplus(name: str | None = None) -> SSAValue:
        tail = b.log(b.add(b.exp(b.neg(b.abs(x))), k(1.0)))
        return b.add(b.relu(x), tail, name)

    if op in ("LeakyRelu", "PRelu"):
        slope = k(attr(node, "alpha", 0.01)) if op == "LeakyRelu" else f32_operand(imp, inputs[1], node.input[1])
        return [b.add(b.relu(x), b.mul(below_zero(), slope), out)]
    if op == "Elu":
        return [b.add(b.relu(x), exp_linear(attr(node, "alpha", 1.0)), out)]
    if op == "Celu":
        alpha = attr(node, "alpha", 1.0)
        return [b.add(b.relu(x), exp_linear(alpha, alpha), out)]
    if op == "Selu":
        elu = b.add(b.relu(x), exp_linear(attr(node, "alpha", SELU_ALPHA)))
        return [b.mul(elu, k(attr(node, "gamma", SELU_GAMMA)), out)]
    if op in ("HardSigmoid", "HardSwish"):
        alpha, beta = (attr(node, "alpha", 0.2), attr(node, "beta", 0.5)) if op == "HardSigmoid" else (1 / 6, 0.5)
        line = b.add(b.mul(x, k(alpha)), k(beta))
        if op == "HardSigmoid":
            return [b.clamp(line, 0.0, 1.0, out)]
        return [b.mul(x, b.clamp(line, 0.0, 1.0), out)]
    if op == "Softplus":
        return [softplus(out)]
    if op == "Softsign":
        return [b.div(x, b.add(b.abs(x), k(1.0)), out)]
    if op == "Mish":
        return [b.mul(x, b.tanh(softplus()), out)]
    approximate = attr(node, "approximate", b"none")
    approximate = approximate.decode() if isinstance(approximate, bytes) else approximate
    if approximate == "tanh":  # 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3)))
        cube = b.mul(b.mul(x, x), x)
        inner = b.mul(b.add(x, b.mul(cube, k(0.044715))), k(math.sqrt(2 / math.pi)))
        gate = b.tanh(inner)
    elif approximate == "none":  # 0.5 x (1 + erf(x / sqrt(2)))
        gate = b.erf(b.mul(x, k(1 / math.sqrt(2))))
    else:
        raise OnnxImportError(f"Gelu approximate {approximate!r} is not one of none, tanh")
    return [b.mul(b.mul(x, k(0.5)), b.add(gate, k(1.0)), out)]


def clip(imp, node, inputs):
    x = f32_operand(imp, inputs[0], node.output[0])
    lo = float(known(inputs[1], "Clip min")) if len(inputs) > 1 and inputs[1] is not None else attr(node, "min", -np.inf)
    hi = float(known(inputs[2], "Clip max")) if len(inputs) > 2 and inputs[2] is not None else attr(node, "max", np.inf)
    return [imp.b.clamp(x, float(lo), float(hi), out_name(imp, node))]


def compare(imp, node, inputs):
    a, b = inputs[:2]
    dtype = dtype_of(a if isinstance(a, SSAValue) else b)
    operands = [v if isinstance(v, SSAValue) else imp.runtime(v, node.input[k], dtype=dtype) for k, v in enumerate((a, b))]
    op = nc.CmpOp.create(
        operands=operands,
        result_types=[TensorType(i1, list(np.broadcast_shapes(imp.b.shape(operands[0]), imp.b.shape(operands[1]))))],
        properties={"predicate": StringAttr(COMPARE[node.op_type])},
    )
    return [imp.b._emit(op, out_name(imp, node))]


# --- sliding windows (Conv, pooling) -----------------------------------------------------------

SPATIAL_DIMENSIONS = (1, 2)
"""Spatial ranks of Conv and pooling; 1-D runs as 2-D over a height of 1."""

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


def check_spatial(node: onnx.NodeProto, spatial: int, input_rank: int) -> None:
    """A one-line error unless ``spatial`` is supported and the input is (N, C, *spatial)."""
    if spatial not in SPATIAL_DIMENSIONS:
        supported = " or ".join(map(str, SPATIAL_DIMENSIONS))
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


def conv(imp, node, inputs):
    x, w, bias = (inputs + [None])[:3]
    w = known(w, "Conv weights")
    spatial = w.ndim - 2
    x = f32_operand(imp, x, node.input[0])
    xs = imp.b.shape(x)
    check_spatial(node, spatial, len(xs))
    win = window(node, xs[2:], list(w.shape[2:])).as_2d()
    props = {
        "strides": nc.i64_array(win.strides),
        "pads": nc.i64_array(win.pads),
        "dilations": nc.i64_array(win.dilations),
        "groups": IntegerAttr(int(attr(node, "group", 1)), i64),
    }
    operands = [reshape(imp, x, as_nchw(xs)), imp.runtime(w.reshape(as_nchw(w.shape)).astype(np.float32), node.input[1])]
    if bias is not None:
        operands.append(f32_operand(imp, bias, node.input[2]))
    name = out_name(imp, node)
    y = make(imp, nc.Conv2dOp, operands, props, name + ("_2d" if spatial == 1 else ""))
    return [from_nchw(imp, y, spatial, name)]


def gemm(imp, node, inputs):
    a, b, c = (inputs + [None])[:3]
    alpha, beta = attr(node, "alpha", 1.0), attr(node, "beta", 1.0)
    trans_a, trans_b = attr(node, "transA", 0), attr(node, "transB", 0)
    if trans_a:
        if not isinstance(a, np.ndarray):
            raise OnnxImportError("Gemm with transA on a run-time tensor is not supported")
        a = a.T
    if alpha != 1.0:
        b = known(b, "Gemm B with alpha != 1") * np.float32(alpha)
    n = shape_of(imp, b)[0 if trans_b else 1]
    if c is None:
        c = np.zeros((n,), np.float32)
    elif beta != 1.0:
        c = known(c, "Gemm C with beta != 1") * np.float32(beta)
    hints = [*node.input, f"{node.output[0]}_c"]
    operands = [f32_operand(imp, v, hints[k]) for k, v in enumerate((a, b, c))]
    props = {"trans_b": BoolAttr.from_bool(True)} if trans_b else {}
    return [make(imp, nc.GemmOp, operands, props, out_name(imp, node))]


def matmul(imp, node, inputs):
    a, b = (f32_operand(imp, v, node.input[k]) for k, v in enumerate(inputs[:2]))
    return [make(imp, nc.MatmulOp, [a, b], {}, out_name(imp, node))]


# --- pooling, reductions ---------------------------------------------------------------------


def pool(imp, node, inputs):
    """1-D and 2-D pooling. ``ceil_mode`` is extra end padding, which neither nn op counts;
    AveragePool's ``count_include_pad`` is an explicit zero Pad of the input."""
    x = f32_operand(imp, inputs[0], node.input[0])
    kernel = list(attr(node, "kernel_shape"))
    spatial = len(kernel)
    xs = imp.b.shape(x)
    check_spatial(node, spatial, len(xs))
    if len(node.output) > 1 and node.output[1]:
        raise OnnxImportError(f"the Indices output of {node.op_type} is not supported")
    win = window(node, xs[2:], kernel)
    if any(d != 1 for d in win.dilations):
        raise OnnxImportError(f"{node.op_type} with dilations {win.dilations} is not supported (only 1)")
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
    cls = nc.MaxPool2dOp if node.op_type == "MaxPool" else nc.AvgPool2dOp
    name = out_name(imp, node)
    y = make(imp, cls, [x], props, name + ("_2d" if spatial == 1 else ""))
    return [from_nchw(imp, y, spatial, name)]


def global_avg_pool(imp, node, inputs):
    x = f32_operand(imp, inputs[0], node.input[0])
    xs = imp.b.shape(x)
    check_spatial(node, len(xs) - 2, len(xs))
    name = out_name(imp, node)
    y = make(imp, nc.GlobalAvgPoolOp, [reshape(imp, x, as_nchw(xs))], {}, name + ("_2d" if len(xs) == 3 else ""))
    return [from_nchw(imp, y, len(xs) - 2, name)]


REDUCE_OPS: dict[str, type[nc.ReduceOp]] = {
    "ReduceMean": nc.ReduceMeanOp,
    "ReduceSum": nc.ReduceSumOp,
    "ReduceMax": nc.ReduceMaxOp,
    "ReduceMin": nc.ReduceMinOp,
    "ReduceProd": nc.ReduceProdOp,
}
"""ONNX reductions that are one nn reduction; the others combine ``nn.reduce_sum`` (and
``nn.reduce_max``) with elementwise ops."""

AXES_INPUT_SINCE = {"ReduceSum": 13}
"""The version from which a reduction reads ``axes`` from an input; 18 for the others."""


def reduction_axes(imp, node, inputs, rank: int) -> list[int]:
    """The axes a reduction node reduces, from the front and in order: the ``axes`` attribute
    before version 18 (13 for ReduceSum), the ``axes`` input from it on. No axes means every
    axis, or none with ``noop_with_empty_axes``."""
    if version(imp, node) < AXES_INPUT_SINCE.get(node.op_type, 18):
        axes = list(attr(node, "axes", []))
    else:
        axes = ints(inputs[1], f"{node.op_type} axes") if optional_input(inputs, 1) is not None else []
    if not axes:
        return [] if attr(node, "noop_with_empty_axes", 0) else list(range(rank))
    return sorted(normalize_axis(int(a), rank) for a in axes)


def reduced(imp, cls: type[nc.ReduceOp], x: SSAValue, axes: list[int], keepdims: bool, name: str | None = None) -> SSAValue:
    """``cls`` over ``axes`` of ``x``; over no axis, ``x`` itself."""
    if not axes:
        return x
    props = {"axes": nc.i64_array(axes)}
    if not keepdims:
        props["keepdims"] = BoolAttr.from_bool(False)
    return make(imp, cls, [x], props, name or imp.name(cls.name[3:]))


def reduce(imp, node, inputs):
    """ONNX reductions as nn reductions and elementwise ops; over no axis each is its
    elementwise part alone (ReduceL1 ``|x|``, ReduceSumSquare ``x * x``), as onnxruntime
    computes them. ReduceLogSumExp subtracts the maximum before ``exp``, as onnxruntime does."""
    b, op = imp.b, node.op_type
    x = f32_operand(imp, inputs[0], node.input[0])
    axes = reduction_axes(imp, node, inputs, len(b.shape(x)))
    keepdims = bool(attr(node, "keepdims", 1))
    out = out_name(imp, node)
    if op in REDUCE_OPS:
        return [reduced(imp, REDUCE_OPS[op], x, axes, keepdims, out)]

    def total(value: SSAValue, name: str | None = None) -> SSAValue:
        return reduced(imp, nc.ReduceSumOp, value, axes, keepdims, name)

    if op == "ReduceL1":
        return [total(b.abs(x), out)] if axes else [b.abs(x, out)]
    if op == "ReduceSumSquare":
        return [total(b.mul(x, x), out)] if axes else [b.mul(x, x, out)]
    if op == "ReduceL2":
        return [b.sqrt(total(b.mul(x, x)), out)]
    if op == "ReduceLogSum":
        return [b.log(total(x), out)]
    peak = reduced(imp, nc.ReduceMaxOp, x, axes, True)  # ReduceLogSumExp
    sums = total(b.exp(b.sub(x, peak)))
    return [b.add(b.log(sums), reshape(imp, peak, b.shape(sums)), out)]


ARG_OPS: dict[str, type[nc.ArgExtremeOp]] = {"ArgMax": nc.ArgMaxOp, "ArgMin": nc.ArgMinOp}


def arg_extreme(imp, node, inputs):
    """ArgMax and ArgMin along ``axis`` (default 0): int64 indices, the first of tied extremes
    or, with ``select_last_index`` (from version 12), the last. Inputs without NaN (onnxruntime
    picks a NaN's index by rules of its own). The indices can feed comparisons and shape ops;
    ops that read indices (Gather) take known ones only."""
    x = f32_operand(imp, inputs[0], node.input[0])
    axis = normalize_axis(attr(node, "axis", 0), len(imp.b.shape(x)))
    props = {"axis": IntegerAttr(axis, i64)}
    if not attr(node, "keepdims", 1):
        props["keepdims"] = BoolAttr.from_bool(False)
    if attr(node, "select_last_index", 0):
        props["select_last_index"] = BoolAttr.from_bool(True)
    return [make(imp, ARG_OPS[node.op_type], [x], props, out_name(imp, node))]


def softmax(imp, node, inputs):
    """Softmax, LogSoftmax and Hardmax. From version 13, along ``axis`` (default -1); before,
    over the input coerced to 2-D at ``axis`` (default 1): every dimension from ``axis`` on is
    one row."""
    x = f32_operand(imp, inputs[0], node.input[0])
    xs = imp.b.shape(x)
    along = ALONG_AXIS[node.op_type]
    name = out_name(imp, node)
    if version(imp, node) >= 13:
        return [along(imp, x, normalize_axis(attr(node, "axis", -1), len(xs)), name)]
    axis = normalize_axis(attr(node, "axis", 1), len(xs))
    rows = (int(np.prod(xs[:axis])), int(np.prod(xs[axis:])))
    if rows == tuple(xs):
        return [along(imp, x, 1, name)]
    y = along(imp, reshape(imp, x, rows, imp.name(f"{name}_2d")), 1, imp.name(f"{name}_rows"))
    return [reshape(imp, y, xs, name)]


def softmax_along(imp, x: SSAValue, axis: int, name: str) -> SSAValue:
    return make(imp, nc.SoftmaxOp, [x], {"axis": IntegerAttr(axis, i64)}, name)


def log_softmax_along(imp, x: SSAValue, axis: int, name: str) -> SSAValue:
    """``(x - max) - log(sum(exp(x - max)))``, onnxruntime's stable order."""
    b = imp.b
    shifted = b.sub(x, reduced(imp, nc.ReduceMaxOp, x, [axis], True))
    return b.sub(shifted, b.log(reduced(imp, nc.ReduceSumOp, b.exp(shifted), [axis], True)), name)


def hardmax_along(imp, x: SSAValue, axis: int, name: str) -> SSAValue:
    """1 at the first maximum along ``axis``, else 0, for inputs without NaN or infinities:
    ``sign(x - max) + 1`` marks every maximum; weighted by ``size - index`` along the axis,
    the first maximum weighs most, and the same marking picks it out."""
    b = imp.b
    rank, size = len(b.shape(x)), b.shape(x)[axis]
    one = number(imp, 1.0, f"{name}_one")
    at_max = b.add(b.sign(b.sub(x, reduced(imp, nc.ReduceMaxOp, x, [axis], True))), one)
    weights = np.arange(size, 0, -1, dtype=np.float32).reshape((size,) + (1,) * (rank - axis - 1))
    score = b.mul(at_max, imp.runtime(weights, f"{name}_weights"))
    return b.add(b.sign(b.sub(score, reduced(imp, nc.ReduceMaxOp, score, [axis], True))), one, name)


ALONG_AXIS: dict[str, Callable[[Importer, SSAValue, int, str], SSAValue]] = {
    "Softmax": softmax_along,
    "LogSoftmax": log_softmax_along,
    "Hardmax": hardmax_along,
}
"""Each softmax-like op along one axis of its input."""


# --- normalization ----------------------------------------------------------------------------


def broadcast_operand(imp, value: Value, shape: Sequence[int], hint: str) -> SSAValue:
    """A known or run-time f32 operand reshaped to ``shape`` (same elements), to broadcast."""
    if isinstance(value, np.ndarray):
        return imp.runtime(value.astype(np.float32).reshape(shape), hint)
    return reshape(imp, f32_operand(imp, value, hint), shape)


def moments(imp, x: SSAValue, axes: list[int], epsilon: float) -> tuple[SSAValue, SSAValue]:
    """The mean over ``axes`` (kept as 1) and ``1 / sqrt(var + epsilon)``, the variance taken
    about the mean."""
    b = imp.b
    mean = reduced(imp, nc.ReduceMeanOp, x, axes, True)
    centered = b.sub(x, mean)
    variance = reduced(imp, nc.ReduceMeanOp, b.mul(centered, centered), axes, True)
    return mean, b.reciprocal(b.sqrt(b.add(variance, number(imp, epsilon, "epsilon"))))


def scaled(imp, y: SSAValue, scale: SSAValue, bias: SSAValue | None, name: str) -> SSAValue:
    """``y * scale + bias`` (no bias: ``y * scale``), the result named ``name``."""
    if bias is None:
        return imp.b.mul(y, scale, name)
    return imp.b.add(imp.b.mul(y, scale), bias, name)


def check_stash_type(node: onnx.NodeProto) -> None:
    stash_type = attr(node, "stash_type", 1)
    if stash_type != 1:
        raise OnnxImportError(f"{node.op_type} stash_type {stash_type} is not supported (only 1: float32)")


def channels_first_shape(node: onnx.NodeProto, x: SSAValue, imp, min_rank: int) -> tuple[int, ...]:
    """The (N, C, ...) shape of ``x``; a one-line error below ``min_rank``."""
    xs = imp.b.shape(x)
    if len(xs) < min_rank:
        raise OnnxImportError(f"{node.op_type} needs an (N, C, ...) input of rank {min_rank} or more, not {len(xs)}")
    return xs


def per_channel_shape(xs: Sequence[int]) -> tuple[int, ...]:
    """The shape of one value per channel broadcasting over an (N, C, ...) input."""
    return (xs[1],) + (1,) * (len(xs) - 2)


def batch_normalization(imp, node, inputs):
    """Inference: ``x * a + b`` per channel with known ``a = (1 / sqrt(var + epsilon)) * scale``
    and ``b = B - mean * a``, folded in float32 in onnxruntime's order (which it matches bit for bit).
    Version 7's ``spatial = 0`` has one statistic per element of a sample, not per channel."""
    if attr(node, "training_mode", 0):
        raise OnnxImportError("BatchNormalization with training_mode 1 is not supported (only inference)")
    if any(node.output[1:]):
        raise OnnxImportError("the training outputs of BatchNormalization (running or saved mean and variance) are not supported")
    x = f32_operand(imp, inputs[0], node.input[0])
    xs = channels_first_shape(node, x, imp, 2)
    scale, bias, mean, var = (
        known(v, f"BatchNormalization {what}").astype(np.float32)
        for v, what in zip(inputs[1:5], ("scale", "B", "input_mean", "input_var"))
    )
    a = np.float32(1) / np.sqrt(var + np.float32(attr(node, "epsilon", 1e-5))) * scale
    shift = bias - mean * a
    shape = xs[1:] if attr(node, "spatial", 1) == 0 else per_channel_shape(xs)
    name = out_name(imp, node)
    factor = imp.runtime(a.reshape(shape), f"{name}_a")
    return [imp.b.add(imp.b.mul(x, factor), imp.runtime(shift.reshape(shape), f"{name}_b"), name)]


def instance_normalization(imp, node, inputs):
    """Each channel of each sample normalized over its spatial axes, then scaled per channel,
    in onnxruntime's order: ``x * a + (B - mean * a)`` with ``a = inv_std_dev * scale``."""
    b = imp.b
    x = f32_operand(imp, inputs[0], node.input[0])
    xs = channels_first_shape(node, x, imp, 3)
    mean, inv_std_dev = moments(imp, x, list(range(2, len(xs))), attr(node, "epsilon", 1e-5))
    scale, bias = (broadcast_operand(imp, inputs[k], per_channel_shape(xs), node.input[k]) for k in (1, 2))
    a = b.mul(inv_std_dev, scale)
    return [b.add(b.mul(x, a), b.sub(bias, b.mul(mean, a)), out_name(imp, node))]


def layer_normalization(imp, node, inputs):
    """Normalized over the axes from ``axis`` on, then scaled (and shifted); the optional
    Mean and InvStdDev outputs keep the normalized axes as 1. The variance is onnxruntime's
    ``mean(x * x) - mean(x) ** 2`` (the ONNX function takes it about the mean, which rounds
    differently where the mean is large against the spread)."""
    check_stash_type(node)
    b = imp.b
    x = f32_operand(imp, inputs[0], node.input[0])
    rank = len(b.shape(x))
    axes = list(range(normalize_axis(attr(node, "axis", -1), rank), rank))
    mean = reduced(imp, nc.ReduceMeanOp, x, axes, True)
    mean_square = reduced(imp, nc.ReduceMeanOp, b.mul(x, x), axes, True)
    variance = b.sub(mean_square, b.mul(mean, mean))
    std_dev = b.sqrt(b.add(variance, number(imp, attr(node, "epsilon", 1e-5), "epsilon")))
    scale = f32_operand(imp, inputs[1], node.input[1])
    bias = optional_input(inputs, 2)
    bias = None if bias is None else f32_operand(imp, bias, node.input[2])
    y = scaled(imp, b.div(b.sub(x, mean), std_dev), scale, bias, out_name(imp, node))
    return [y, mean, b.reciprocal(std_dev)]


def group_normalization(imp, node, inputs):
    """Each of ``num_groups`` channel groups of each sample normalized over its channels and
    spatial axes; version 18 scales and shifts per group, version 21 per channel."""
    check_stash_type(node)
    x = f32_operand(imp, inputs[0], node.input[0])
    xs = channels_first_shape(node, x, imp, 2)
    groups = attr(node, "num_groups")
    if xs[1] % groups:
        raise OnnxImportError(f"GroupNormalization of {xs[1]} channels into {groups} groups: not a divisor")
    grouped = reshape(imp, x, (xs[0], groups, -1))
    mean, inv_std_dev = moments(imp, grouped, [2], attr(node, "epsilon", 1e-5))
    y = imp.b.mul(imp.b.sub(grouped, mean), inv_std_dev)
    name = out_name(imp, node)
    if version(imp, node) < 21:
        scale, bias = (broadcast_operand(imp, inputs[k], (groups, 1), node.input[k]) for k in (1, 2))
        return [reshape(imp, scaled(imp, y, scale, bias, imp.name(f"{name}_grouped")), xs, name)]
    scale, bias = (broadcast_operand(imp, inputs[k], per_channel_shape(xs), node.input[k]) for k in (1, 2))
    return [scaled(imp, reshape(imp, y, xs), scale, bias, name)]


def lp_normalization(imp, node, inputs):
    """``x`` divided by its L1 or L2 norm along ``axis`` (default -1); 0 where the norm is 0,
    as in onnxruntime, also where it underflows to 0 for a nonzero ``x``."""
    b = imp.b
    p = attr(node, "p", 2)
    if p not in (1, 2):
        raise OnnxImportError(f"LpNormalization p {p} is not supported (only 1 and 2)")
    x = f32_operand(imp, inputs[0], node.input[0])
    axis = normalize_axis(attr(node, "axis", -1), len(b.shape(x)))
    name = out_name(imp, node)
    if p == 1:
        norm = reduced(imp, nc.ReduceSumOp, b.abs(x), [axis], True)
    else:
        norm = b.sqrt(reduced(imp, nc.ReduceSumOp, b.mul(x, x), [axis], True))
    positive = b.sign(norm)  # 1 where the norm is positive, 0 where it is 0
    divisor = b.add(norm, b.sub(number(imp, 1.0, f"{name}_one"), positive))  # 1 where the norm is 0
    return [b.mul(b.div(x, divisor), positive, name)]


# --- data movement --------------------------------------------------------------------------


def concat(imp, node, inputs):
    values = [v for v in inputs if isinstance(v, SSAValue) or (v is not None and v.size > 0)]
    operands = [f32_operand(imp, v, f"{node.output[0]}_part") for v in values]
    rank = len(imp.b.shape(operands[0]))
    axis = normalize_axis(attr(node, "axis"), rank)
    if len(operands) == 1:
        return [operands[0]]
    return [make(imp, nc.ConcatOp, operands, {"axis": IntegerAttr(axis, i64)}, out_name(imp, node))]


def tile(imp, node, inputs):
    """Tile with known repeats: the input concatenated with itself along each repeated axis."""
    x = f32_operand(imp, inputs[0], node.input[0])
    repeats = ints(inputs[1], "Tile repeats")
    rank = len(imp.b.shape(x))
    if len(repeats) != rank or any(r < 1 for r in repeats):
        raise OnnxImportError(f"Tile repeats {repeats} must be {rank} positive counts, one per axis of the input")
    tiled = [axis for axis, r in enumerate(repeats) if r > 1]
    for axis in tiled:
        name = out_name(imp, node) if axis == tiled[-1] else None
        x = make(imp, nc.ConcatOp, [x] * repeats[axis], {"axis": IntegerAttr(axis, i64)}, name)
    return [x]


def transpose(imp, node, inputs):
    x = f32_operand(imp, inputs[0], node.input[0])
    rank = len(imp.b.shape(x))
    perm = list(attr(node, "perm", list(reversed(range(rank)))))
    if perm == list(range(rank)):
        return [x]
    return [make(imp, nc.TransposeOp, [x], {"perm": nc.i64_array(perm)}, out_name(imp, node))]


def reshape_op(imp, node, inputs):
    x = inputs[0]
    xs = imp.b.shape(x)
    dims = ints(inputs[1], "Reshape shape")
    if not attr(node, "allowzero", 0):
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
    raw = ints(inputs[1], "Unsqueeze axes") if raw is None else list(raw)
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
        starts, ends = ints(inputs[1], "Slice starts"), ints(inputs[2], "Slice ends")
        axes = ints(inputs[3], "Slice axes") if optional_input(inputs, 3) is not None else list(range(len(starts)))
        steps = ints(inputs[4], "Slice steps") if optional_input(inputs, 4) is not None else [1] * len(starts)
    axes = [normalize_axis(a, rank) for a in axes]
    return [imp.b.slice(x, starts, ends, axes, steps, name=out_name(imp, node))]


def split(imp, node, inputs):
    x = inputs[0]
    xs = imp.b.shape(x)
    axis = normalize_axis(attr(node, "axis", 0), len(xs))
    sizes = ints(inputs[1], "Split sizes") if len(inputs) > 1 and inputs[1] is not None else attr(node, "split")
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
    x, index = inputs[0], known(inputs[1], "Gather indices")
    xs = imp.b.shape(x)
    axis = normalize_axis(attr(node, "axis", 0), len(xs))
    flat = [int(i) + (xs[axis] if i < 0 else 0) for i in index.reshape(-1)]
    name = out_name(imp, node)
    parts = [imp.b.slice(x, [i], [i + 1], [axis], [1], name=imp.name(f"{name}_{i}")) for i in flat]
    joined = parts[0] if len(parts) == 1 else make(imp, nc.ConcatOp, parts, {"axis": IntegerAttr(axis, i64)}, imp.name(f"{name}_all"))
    return [reshape(imp, joined, (*xs[:axis], *index.shape, *xs[axis + 1 :]), name)]


def pad(imp, node, inputs):
    x = f32_operand(imp, inputs[0], node.input[0])
    rank = len(imp.b.shape(x))
    pads = ints(inputs[1], "Pad pads") if len(inputs) > 1 and inputs[1] is not None else list(attr(node, "pads"))
    value = float(known(inputs[2], "Pad value")) if len(inputs) > 2 and inputs[2] is not None else float(attr(node, "value", 0.0))
    if len(inputs) > 3 and inputs[3] is not None:
        axes = [normalize_axis(a, rank) for a in ints(inputs[3], "Pad axes")]
        full = [0] * (2 * rank)
        for k, a in enumerate(axes):
            full[a], full[rank + a] = pads[k], pads[len(axes) + k]
        pads = full
    mode = attr(node, "mode", b"constant")
    mode = mode.decode() if isinstance(mode, bytes) else mode
    return [imp.b.pad(x, pads, mode=mode, value=value, name=out_name(imp, node))]


# --- recurrent ------------------------------------------------------------------------------


def lstm(imp, node, inputs):
    """Forward LSTM, default activations, no peepholes: unrolled over the sequence."""
    x, w, r, bias, seq_lens, h0, c0 = (inputs + [None] * 7)[:7]
    if attr(node, "direction", b"forward") not in (b"forward", "forward") or attr(node, "layout", 0):
        raise OnnxImportError("only forward LSTMs with layout 0 are supported")
    if attr(node, "activations") is not None or attr(node, "clip") is not None or attr(node, "input_forget", 0):
        raise OnnxImportError("LSTM activations, clip and input_forget are not supported")
    if len(inputs) > 7 and inputs[7] is not None:
        raise OnnxImportError("LSTM peepholes are not supported")
    w, r = known(w, "LSTM W")[0], known(r, "LSTM R")[0]
    hidden = r.shape[1]
    if len(imp.b.shape(x)) != 3:
        raise OnnxImportError(f"LSTM input X has shape {list(imp.b.shape(x))}, expected [seq_length, batch_size, input_size]")
    seq, batch, _ = imp.b.shape(x)
    if seq_lens is not None and np.any(known(seq_lens, "LSTM sequence_lens") != seq):
        raise OnnxImportError("LSTM sequence_lens shorter than the sequence are not supported")
    b_all = known(bias, "LSTM B")[0] if bias is not None else np.zeros(8 * hidden, np.float32)
    name = out_name(imp, node)
    wv = imp.runtime(w.astype(np.float32), f"{name}_W")
    rv = imp.runtime(r.astype(np.float32), f"{name}_R")
    bv = imp.runtime((b_all[: 4 * hidden] + b_all[4 * hidden :]).astype(np.float32), f"{name}_B")
    zero = imp.runtime(np.zeros(4 * hidden, np.float32), f"{name}_zero")
    h = reshape(imp, f32_operand(imp, h0, f"{name}_h0"), (batch, hidden)) if h0 is not None else imp.runtime(np.zeros((batch, hidden), np.float32), f"{name}_h0")
    c = reshape(imp, f32_operand(imp, c0, f"{name}_c0"), (batch, hidden)) if c0 is not None else imp.runtime(np.zeros((batch, hidden), np.float32), f"{name}_c0")
    b = imp.b
    ys = []
    for t in range(seq):
        xt = reshape(imp, b.slice(x, [t], [t + 1], [0], [1], name=imp.name(f"{name}_x{t}")), (batch, -1))
        gates = b.add(
            make(imp, nc.GemmOp, [xt, wv, bv], {"trans_b": BoolAttr.from_bool(True)}, imp.name(f"{name}_xw{t}")),
            make(imp, nc.GemmOp, [h, rv, zero], {"trans_b": BoolAttr.from_bool(True)}, imp.name(f"{name}_hr{t}")),
            imp.name(f"{name}_gates{t}"),
        )
        i, o, f, g = (b.slice(gates, [k * hidden], [(k + 1) * hidden], [1], [1], name=imp.name(f"{name}_{gate}{t}")) for k, gate in enumerate("iofc"))
        i, o, f = (b.sigmoid(v, imp.name(f"{name}_s{k}{t}")) for k, v in enumerate((i, o, f)))
        g = b.tanh(g, imp.name(f"{name}_g{t}"))
        c = b.add(b.mul(f, c, imp.name(f"{name}_fc{t}")), b.mul(i, g, imp.name(f"{name}_ig{t}")), imp.name(f"{name}_c{t}"))
        h = b.mul(o, b.tanh(c, imp.name(f"{name}_tc{t}")), imp.name(f"{name}_h{t}"))
        ys.append(reshape(imp, h, (1, 1, batch, hidden)))
    y = ys[0] if seq == 1 else make(imp, nc.ConcatOp, ys, {"axis": IntegerAttr(0, i64)}, imp.name(f"{name}_Y"))
    return [y, reshape(imp, h, (1, batch, hidden)), reshape(imp, c, (1, batch, hidden))]


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


def run_branch(imp: Importer, graph: onnx.GraphProto, scope: Scope) -> list[Value]:
    inner = Scope(parent=scope)
    add_initializers(inner, graph)
    imp.run_nodes(graph.node, inner)
    results = []
    for out in graph.output:
        value = inner.lookup(out.name)
        if value is None:
            raise OnnxImportError(f"branch {graph.name!r} output {out.name!r} is never computed")
        results.append(value)
    return results


HANDLER_OPS: tuple[tuple[tuple[str, ...], Handler], ...] = (
    (("Identity",), identity),
    (("Dropout",), dropout),
    (("Cast",), cast),
    (("Shape",), shape_op),
    (("Size",), size_op),
    ((*BINARY, "Pow"), binary),
    ((*UNARY, "Sqrt", "Exp", "Neg", "Log", "Abs", "Floor", "Ceil", "Round", "Sign", "Erf", "Sin", "Cos", "Reciprocal"), unary),
    (("LeakyRelu", "PRelu", "Elu", "Selu", "Celu", "HardSigmoid", "HardSwish", "Softplus", "Softsign", "Gelu", "Mish"), activation),
    (("Max", "Min", "Sum", "Mean"), variadic),
    (("Clip",), clip),
    ((*COMPARE,), compare),
    (("Conv",), conv),
    (("Gemm",), gemm),
    (("MatMul",), matmul),
    (("MaxPool", "AveragePool"), pool),
    (("GlobalAveragePool",), global_avg_pool),
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
    (("Reshape",), reshape_op),
    (("Flatten",), flatten),
    (("Squeeze",), squeeze),
    (("Unsqueeze",), unsqueeze),
    (("Slice",), slice_op),
    (("Split",), split),
    (("Gather",), gather),
    (("Pad",), pad),
    (("LSTM",), lstm),
)
"""Which ops each handler translates (a table, not decorators, so the handlers are
plain functions that mutation testing reaches)."""
HANDLERS: dict[str, Handler] = {op: fn for ops, fn in HANDLER_OPS for op in ops}
