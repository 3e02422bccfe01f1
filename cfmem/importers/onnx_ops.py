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


def conv_transpose(imp, node, inputs):
    """ConvTranspose with known weights as a Conv (stride 1, the node's dilations and groups)
    of the flipped, per-group transposed kernel over the input with ``stride - 1`` zeros after
    each element, padded by ``span - 1 - pads`` (``output_padding`` more at the end) where
    that is positive and cropped where it is negative."""
    x, w, bias = (inputs + [None])[:3]
    w = known(w, "ConvTranspose weights")
    spatial = w.ndim - 2
    x = f32_operand(imp, x, node.input[0])
    xs = imp.b.shape(x)
    check_spatial(node, spatial, len(xs))
    groups = int(attr(node, "group", 1))
    if w.shape[0] != xs[1] or xs[1] % groups:
        raise OnnxImportError(f"ConvTranspose weights {list(w.shape)} with group {groups} do not fit an input of {xs[1]} channels")
    win = window(node, xs[2:], list(w.shape[2:]))
    extra = list(attr(node, "output_padding", [0] * spatial))
    if any(e >= s for e, s in zip(extra, win.strides)):
        raise OnnxImportError(f"ConvTranspose output_padding {extra} is not below the strides {win.strides}; not supported, as onnxruntime does not run it")
    pads = transposed_padding(node, xs[2:], win, extra)
    output = [f - b - a for f, b, a in zip(unpadded_transposed_output(xs[2:], win, extra), pads[:spatial], pads[spatial:])]
    if min(output) < 1:
        raise OnnxImportError(f"ConvTranspose output {output} is empty")
    name = out_name(imp, node)
    spread = interleave_zeros(imp, reshape(imp, x, as_nchw(xs)), as_nchw((0, 0, *win.strides))[2:], name)
    # around the spread input, which ends in stride - 1 zeros already
    begins = [span - 1 - p for span, p in zip(win.spans(), pads[:spatial])]
    ends = [span - 1 - p + e - (s - 1) for span, p, e, s in zip(win.spans(), pads[spatial:], extra, win.strides)]
    cropped = crop(imp, spread, [max(0, -b) for b in begins], [max(0, -e) for e in ends], name)
    conv_win = Window(win.kernel, [1] * spatial, win.dilations, [max(0, b) for b in begins] + [max(0, e) for e in ends]).as_2d()
    props = {
        "pads": nc.i64_array(conv_win.pads),
        "dilations": nc.i64_array(conv_win.dilations),
        "groups": IntegerAttr(groups, i64),
    }
    kernel = transposed_weights(w.astype(np.float32), groups)
    operands = [cropped, imp.runtime(kernel.reshape(as_nchw(kernel.shape)), f"{name}_kernel")]
    if bias is not None:
        operands.append(f32_operand(imp, bias, node.input[2]))
    y = make(imp, nc.Conv2dOp, operands, props, name + ("_2d" if spatial == 1 else ""))
    return [from_nchw(imp, y, spatial, name)]


def unpadded_transposed_output(sizes: Sequence[int], win: Window, extra: Sequence[int]) -> list[int]:
    """A ConvTranspose's output size along each axis before its pads are taken off."""
    return [s * (n - 1) + e + span for n, s, e, span in zip(sizes, win.strides, extra, win.spans())]


def transposed_padding(node: onnx.NodeProto, sizes: Sequence[int], win: Window, extra: Sequence[int]) -> list[int]:
    """A ConvTranspose's pads (every axis' begin, then every end): ``win``'s for NOTSET, none
    for VALID; for ``output_shape`` or SAME (``size * stride`` outputs) the padding that gives
    that output, split as the ONNX spec says (the odd element at the end for SAME_UPPER, at
    the beginning otherwise). An ``output_shape`` beyond the unpadded output (less than a
    stride beyond it without ``output_padding``) adds its extra elements at the end, as
    onnxruntime does."""
    spatial = len(sizes)
    auto_pad, output_shape = auto_pad_of(node), attr(node, "output_shape")
    if output_shape is None and auto_pad not in SAME_PAD_SPLIT:
        return win.pads if auto_pad == "NOTSET" else [0] * 2 * spatial
    full = unpadded_transposed_output(sizes, win, extra)
    if output_shape is None:
        targets = [n * s for n, s in zip(sizes, win.strides)]
        if any(t > f for t, f in zip(targets, full)):
            raise OnnxImportError(
                f"ConvTranspose with auto_pad {auto_pad} and output {targets} beyond its unpadded output {full} is not"
                " supported (onnxruntime gives the unpadded output, against the ONNX spec)"
            )
    else:
        targets = list(output_shape)[-spatial:]
        bare = [f - e for f, e in zip(full, extra)]
        if any(t - b >= s for t, b, s in zip(targets, bare, win.strides)):
            raise OnnxImportError(
                f"ConvTranspose output_shape {targets} reaches a stride {win.strides} or more past its unpadded output"
                f" without output_padding {bare}; not supported, as onnxruntime does not run it"
            )
    split = SAME_PAD_SPLIT["SAME_UPPER" if auto_pad == "SAME_UPPER" else "SAME_LOWER"]
    shares = [split(f - t) if f >= t else (0, f - t) for f, t in zip(full, targets)]
    return [begin for begin, _ in shares] + [end for _, end in shares]


def interleave_zeros(imp: Importer, x: SSAValue, strides: Sequence[int], name: str) -> SSAValue:
    """An (N, C, H, W) tensor with ``stride - 1`` zeros after each element along H and W:
    each axis padded at the end of a unit axis inserted after it."""
    if all(s == 1 for s in strides):
        return x
    n, c, h, w = imp.b.shape(x)
    (sh, sw) = strides
    units = reshape(imp, x, (n, c, h, 1, w, 1))
    spread = imp.b.pad(units, [0] * 6 + [0, 0, 0, sh - 1, 0, sw - 1], name=imp.name(f"{name}_spread", "pad"))
    return reshape(imp, spread, (n, c, h * sh, w * sw))


def crop(imp: Importer, x: SSAValue, begins: Sequence[int], ends: Sequence[int], name: str) -> SSAValue:
    """``x`` without ``begins[k]`` and ``ends[k]`` elements at either end of its last
    ``len(begins)`` axes (a 1-D crop acts on W)."""
    xs = imp.b.shape(x)
    axes = [len(xs) - len(begins) + k for k in range(len(begins))]
    if not any(begins) and not any(ends):
        return x
    return imp.b.slice(x, list(begins), [xs[a] - e for a, e in zip(axes, ends)], axes, [1] * len(axes), name=imp.name(f"{name}_cropped"))


def transposed_weights(w: np.ndarray, groups: int) -> np.ndarray:
    """ConvTranspose weights (C_in, C_out / groups, *kernel) as the equivalent Conv's
    (C_out, C_in / groups, *kernel): in and out channels swapped within each group, the
    kernel flipped along every spatial axis."""
    c_in, out_per_group, *kernel = w.shape
    per_group = w.reshape(groups, c_in // groups, out_per_group, *kernel).swapaxes(1, 2)
    swapped = per_group.reshape(groups * out_per_group, c_in // groups, *kernel)
    return np.ascontiguousarray(np.flip(swapped, axis=tuple(range(2, swapped.ndim))))


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
    """1-D and 2-D pooling, dilated or not. ``ceil_mode`` is extra end padding, which neither
    nn op counts; AveragePool's ``count_include_pad`` is an explicit zero Pad of the input."""
    x = f32_operand(imp, inputs[0], node.input[0])
    kernel = list(attr(node, "kernel_shape"))
    spatial = len(kernel)
    xs = imp.b.shape(x)
    check_spatial(node, spatial, len(xs))
    if len(node.output) > 1 and node.output[1]:
        raise OnnxImportError(f"the Indices output of {node.op_type} is not supported")
    win = window(node, xs[2:], kernel)
    if auto_pad_of(node) in SAME_PAD_SPLIT and any(d != 1 for d in win.dilations):
        raise OnnxImportError(
            f"{node.op_type} with auto_pad {auto_pad_of(node)} and dilations {win.dilations} is not supported"
            " (onnxruntime pads for the undilated kernel, against the ONNX spec)"
        )
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
    if any(d != 1 for d in win.dilations):
        props["dilations"] = nc.i64_array(win.dilations)
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


def reduce_mean(imp, node, inputs):
    """ReduceMean; ReduceSum as the mean times the element count (rounds slightly differently)."""
    x = f32_operand(imp, inputs[0], node.input[0])
    rank = len(imp.b.shape(x))
    axes = attr(node, "axes")
    if axes is None and len(inputs) > 1 and inputs[1] is not None:
        axes = ints(inputs[1], "ReduceMean axes")
    if not axes:
        if attr(node, "noop_with_empty_axes", 0):
            return [x]
        axes = list(range(rank))
    axes = [normalize_axis(int(a), rank) for a in axes]
    props = {"axes": nc.i64_array(axes)}
    if not attr(node, "keepdims", 1):
        props["keepdims"] = BoolAttr.from_bool(False)
    if node.op_type == "ReduceMean":
        return [make(imp, nc.ReduceMeanOp, [x], props, out_name(imp, node))]
    mean = make(imp, nc.ReduceMeanOp, [x], props, imp.name(f"{node.output[0]}_mean"))
    count = np.array(np.prod([imp.b.shape(x)[a] for a in axes]), np.float32)
    return [make(imp, nc.MulOp, [mean, imp.runtime(count, f"{node.output[0]}_count")], {}, out_name(imp, node))]


def softmax(imp, node, inputs):
    """From version 13, along ``axis`` (default -1); before, over the input coerced to 2-D
    at ``axis`` (default 1): every dimension from ``axis`` on is one row."""
    x = f32_operand(imp, inputs[0], node.input[0])
    xs = imp.b.shape(x)
    if version(imp, node) >= 13:
        axis = normalize_axis(attr(node, "axis", -1), len(xs))
        return [make(imp, nc.SoftmaxOp, [x], {"axis": IntegerAttr(axis, i64)}, out_name(imp, node))]
    axis = normalize_axis(attr(node, "axis", 1), len(xs))
    rows = (int(np.prod(xs[:axis])), int(np.prod(xs[axis:])))
    name = out_name(imp, node)
    props = {"axis": IntegerAttr(1, i64)}
    if rows == tuple(xs):
        return [make(imp, nc.SoftmaxOp, [x], props, name)]
    y = make(imp, nc.SoftmaxOp, [reshape(imp, x, rows, imp.name(f"{name}_2d"))], props, imp.name(f"{name}_rows"))
    return [reshape(imp, y, xs, name)]


# --- resizing ----------------------------------------------------------------------------------

Coordinates = Callable[[np.ndarray, np.float32, int, int], np.ndarray]


def _half_pixel(x: np.ndarray, scale: np.float32, out: int, size: int) -> np.ndarray:
    return (x + np.float32(0.5)) / scale - np.float32(0.5)


def _half_pixel_symmetric(x: np.ndarray, scale: np.float32, out: int, size: int) -> np.ndarray:
    adjustment = np.float32(out) / (scale * np.float32(size))
    offset = np.float32(size) / np.float32(2) * (np.float32(1) - adjustment)
    return (np.float64(offset) + (x.astype(np.float64) + 0.5) / np.float64(scale) - 0.5).astype(np.float32)


def _align_corners(x: np.ndarray, scale: np.float32, out: int, size: int) -> np.ndarray:
    return np.zeros_like(x) if out == 1 else x * np.float32(size - 1) / np.float32(out - 1)


RESIZE_COORDINATES: dict[str, Coordinates] = {
    "half_pixel": _half_pixel,
    "half_pixel_symmetric": _half_pixel_symmetric,
    "pytorch_half_pixel": lambda x, scale, out, size: _half_pixel(x, scale, out, size) if out > 1 else np.zeros_like(x),
    "align_corners": _align_corners,
    "asymmetric": lambda x, scale, out, size: x / scale,
    "tf_half_pixel_for_nn": lambda x, scale, out, size: (x + np.float32(0.5)) / scale,
}
"""``coordinate_transformation_mode`` -> the input coordinate of each output index ``x``
along an axis of ``size`` resized to ``out`` by ``scale``, in float32 (half_pixel_symmetric's
last steps in double) as onnxruntime computes it, so a nearest rounding ties where
onnxruntime's does."""


def _round_half_away(c: np.ndarray) -> np.ndarray:
    return np.sign(c) * np.floor(np.abs(c) + np.float32(0.5))


NEAREST_ROUNDINGS: dict[str, Callable[[np.ndarray, np.float32], np.ndarray]] = {
    "round_prefer_floor": lambda c, scale: np.where(c - np.floor(c) == np.float32(0.5), np.floor(c), _round_half_away(c)),
    "round_prefer_ceil": lambda c, scale: _round_half_away(c),
    "floor": lambda c, scale: np.floor(c),
    "ceil": lambda c, scale: np.ceil(c),
    "simple": lambda c, scale: np.ceil(c) if scale < 1 else np.trunc(c),
}
"""``nearest_mode`` -> the input index a coordinate rounds to (clamped to the axis after);
``simple`` is Upsample's and Resize 10's: truncation, up when downsampling."""


@dataclass(frozen=True)
class Resampling:
    """How Resize or Upsample reads the input: ``mode`` nearest or linear, a
    ``RESIZE_COORDINATES`` key and a ``NEAREST_ROUNDINGS`` key."""

    mode: str
    coordinates: str
    nearest: str

    def matrix(self, size: int, out: int, scale: np.float32) -> np.ndarray:
        """The (out, size) matrix taking an axis of the input to the output's: one 1 per
        row for nearest, the two neighbours' weights (coordinates clamped to the axis) for linear."""
        source = RESIZE_COORDINATES[self.coordinates](np.arange(out, dtype=np.float32), scale, out, size)
        weights = np.zeros((out, size), np.float32)
        rows = np.arange(out)
        if self.mode == "nearest":
            weights[rows, np.clip(NEAREST_ROUNDINGS[self.nearest](source, scale), 0, size - 1).astype(np.int64)] = 1
            return weights
        source = np.clip(source, np.float32(0), np.float32(size - 1))
        low = np.minimum(source.astype(np.int64), size - 1)
        high = np.minimum(low + 1, size - 1)
        np.add.at(weights, (rows, low), np.where(low == high, np.float32(0.5), np.abs(source - high.astype(np.float32))))
        np.add.at(weights, (rows, high), np.where(low == high, np.float32(0.5), np.abs(source - low.astype(np.float32))))
        return weights


def text_attr(node: onnx.NodeProto, name: str, default: str) -> str:
    value = attr(node, name, default)
    return value.decode() if isinstance(value, bytes) else value


def resampling_of(imp: Importer, node: onnx.NodeProto) -> Resampling:
    """The node's mode, coordinate transform and rounding; Upsample and Resize 10 map
    output to input coordinates as ``x / scale`` and round the ``simple`` way."""
    mode = text_attr(node, "mode", "nearest")
    if mode not in ("nearest", "linear"):
        raise OnnxImportError(f"{node.op_type} mode {mode!r} is not supported (nearest, linear)")
    if node.op_type == "Upsample" or version(imp, node) < 11:
        return Resampling(mode, "asymmetric", "simple")
    coordinates = text_attr(node, "coordinate_transformation_mode", "half_pixel")
    if coordinates not in RESIZE_COORDINATES:
        raise OnnxImportError(f"Resize coordinate_transformation_mode {coordinates!r} is not supported ({', '.join(RESIZE_COORDINATES)})")
    nearest = text_attr(node, "nearest_mode", "round_prefer_floor")
    if nearest not in NEAREST_ROUNDINGS or nearest == "simple":
        raise OnnxImportError(f"Resize nearest_mode {nearest!r} is not one of round_prefer_floor, round_prefer_ceil, floor, ceil")
    if attr(node, "antialias", 0):
        raise OnnxImportError("Resize antialias is not supported")
    return Resampling(mode, coordinates, nearest)


def resize_targets(imp: Importer, node: onnx.NodeProto, inputs: list, xs: Sequence[int]) -> tuple[list[np.float32], list[int]]:
    """Each axis' scale and output size, from known ``scales`` (output ``floor(size * scale)``)
    or ``sizes`` (scale ``out / size``), over ``axes`` (from 18, with
    ``keep_aspect_ratio_policy`` for sizes); every other axis keeps its size."""
    rank = len(xs)
    if node.op_type == "Upsample" and version(imp, node) < 9:
        given_scales, given_sizes = list(attr(node, "scales")), None
    elif node.op_type == "Upsample" or version(imp, node) < 11:
        given_scales, given_sizes = [float(v) for v in known(inputs[1], f"{node.op_type} scales").reshape(-1)], None
    else:
        scales_in, sizes_in = optional_input(inputs, 2), optional_input(inputs, 3)
        given_scales = [float(v) for v in known(scales_in, "Resize scales").reshape(-1)] if scales_in is not None else []
        given_sizes = ints(sizes_in, "Resize sizes") if sizes_in is not None else None
        if given_scales and given_sizes is not None:
            raise OnnxImportError("Resize takes scales or sizes, not both")
    axes = [normalize_axis(int(a), rank) for a in attr(node, "axes", range(rank))]
    given = given_scales if given_sizes is None else given_sizes
    if len(given) != len(axes):
        raise OnnxImportError(f"{node.op_type} has {len(given)} {'scales' if given_sizes is None else 'sizes'} for {len(axes)} axes")
    scales, sizes = [np.float32(1)] * rank, list(xs)
    if given_sizes is None:
        for axis, scale in zip(axes, given_scales):
            scales[axis] = np.float32(scale)
            sizes[axis] = int(np.float32(scale) * np.float32(xs[axis]))
        return scales, sizes
    policy = text_attr(node, "keep_aspect_ratio_policy", "stretch")
    ratios = [np.float32(out) / np.float32(xs[axis]) for axis, out in zip(axes, given_sizes)]
    if policy == "stretch":
        for axis, out, ratio in zip(axes, given_sizes, ratios):
            scales[axis], sizes[axis] = ratio, int(out)
        return scales, sizes
    if policy not in ("not_larger", "not_smaller"):
        raise OnnxImportError(f"Resize keep_aspect_ratio_policy {policy!r} is not one of stretch, not_larger, not_smaller")
    ratio = min(ratios) if policy == "not_larger" else max(ratios)
    for axis in axes:
        scales[axis], sizes[axis] = ratio, int(_round_half_away(ratio * np.float32(xs[axis])))
    return scales, sizes


def resize_axis(imp: Importer, x: SSAValue, axis: int, weights: np.ndarray, name: str) -> SSAValue:
    """``x`` resized along ``axis`` by multiplying with the known (out, size) ``weights``,
    the result named ``name``: the innermost axis as ``x @ weights.T``, any other as
    ``weights @ x`` over ``x`` viewed as (before, size, after)."""
    xs = imp.b.shape(x)
    out_shape = (*xs[:axis], weights.shape[0], *xs[axis + 1 :])
    hint = f"{name}_weights"
    if axis == len(xs) - 1:
        operands = [reshape(imp, x, (1, xs[0])) if len(xs) == 1 else x, imp.runtime(np.ascontiguousarray(weights.T), hint)]
    else:
        viewed = x if axis == len(xs) - 2 else reshape(imp, x, (int(np.prod(xs[:axis])), xs[axis], int(np.prod(xs[axis + 1 :]))))
        operands = [imp.runtime(weights, hint), viewed]
    if len(xs) >= 2 and axis >= len(xs) - 2:
        return make(imp, nc.MatmulOp, operands, {}, name)
    return reshape(imp, make(imp, nc.MatmulOp, operands, {}, imp.name(f"{name}_rows")), out_shape, name)


def resize(imp, node, inputs):
    """Resize and Upsample with known scales or sizes, as onnxruntime runs them: the input
    itself when the output has its shape, else one matmul with a known interpolation matrix
    per axis whose scale is not 1 (exact for nearest, whose rows hold a single 1, on finite
    inputs: an infinity or NaN would spread along its row; linear along the two innermost
    axes of a rank 2 to 5 input, one after the other)."""
    x = f32_operand(imp, inputs[0], node.input[0])
    xs = imp.b.shape(x)
    sampling = resampling_of(imp, node)
    scales, sizes = resize_targets(imp, node, inputs, xs)
    if 0 in sizes:
        raise OnnxImportError(f"{node.op_type} to the empty shape {sizes} is not supported")
    moved = [] if tuple(sizes) == tuple(xs) else [axis for axis, scale in enumerate(scales) if scale != 1]
    if sampling.mode == "linear" and not 2 <= len(xs) <= 5:
        raise OnnxImportError(f"{node.op_type} linear of a rank-{len(xs)} input is not supported (ranks 2 to 5)")
    if sampling.mode == "linear" and moved and min(moved) < len(xs) - 2:
        raise OnnxImportError(f"{node.op_type} linear along axes {moved} is not supported (only the two innermost axes)")
    name = out_name(imp, node)
    for axis in reversed(moved):
        weights = sampling.matrix(xs[axis], sizes[axis], scales[axis])
        x = resize_axis(imp, x, axis, weights, name if axis == moved[0] else imp.name(f"{name}_axis{axis}"))
    return [x]


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
    (("ConvTranspose",), conv_transpose),
    (("Gemm",), gemm),
    (("MatMul",), matmul),
    (("MaxPool", "AveragePool"), pool),
    (("GlobalAveragePool",), global_avg_pool),
    (("ReduceMean", "ReduceSum"), reduce_mean),
    (("Softmax",), softmax),
    (("Resize", "Upsample"), resize),
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
