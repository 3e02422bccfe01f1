"""Elementwise ONNX ops: arithmetic with broadcasting, unary math, activations, Clip,
comparisons, Mod, logic, Where and Cast.

Operands are float32 tensors (float16 for the registry's ``FLOAT16_OPS``), known ones
converted to the node's float type; Add, Sub and Mul also take signed integers (a loop's
counter, index arithmetic), comparisons and Mod two operands of one type, logic ops bool
tensors. Activations nn has no op for are composed of nn ops, each the ONNX formula rounded
as float32 ops.
"""

from __future__ import annotations

import math

import numpy as np
import onnx
from xdsl.dialects.builtin import StringAttr, TensorType, i1
from xdsl.ir import SSAValue

from cfmem.dialects import nn_compute as nc
from cfmem.importers.onnx.core import Importer, OnnxImportError, Value
from cfmem.importers.onnx.helpers import attr, bool_operand, dtype_of, f32_operand, known, make, number, out_name

BINARY = {"Add": nc.AddOp, "Sub": nc.SubOp, "Mul": nc.MulOp, "Div": nc.DivOp}
UNARY = {"Relu": nc.ReluOp, "Sigmoid": nc.SigmoidOp, "Tanh": nc.TanhOp}
COMPARE = {"Equal": "eq", "Greater": "gt", "Less": "lt", "GreaterOrEqual": "ge", "LessOrEqual": "le"}


INTEGER_ARITHMETIC = ("Add", "Sub", "Mul")
"""The binary ops that also take signed integers (a loop's counter, index arithmetic)."""


def binary(imp, node, inputs):
    cls = getattr(nc, "PowOp") if node.op_type == "Pow" else BINARY[node.op_type]
    integer = [dtype_of(v) for v in inputs[:2] if not isinstance(v, np.ndarray) and dtype_of(v).kind == "i"]
    if integer and node.op_type in INTEGER_ARITHMETIC:
        a, b = (integer_operand(imp, v, node.input[k], integer[0]) for k, v in enumerate(inputs[:2]))
    else:
        a, b = (f32_operand(imp, v, node.input[k]) for k, v in enumerate(inputs[:2]))
    return [make(imp, cls, [a, b], {}, out_name(imp, node))]


def integer_operand(imp: Importer, value: Value, hint: str, dtype: np.dtype) -> SSAValue:
    """A signed-integer operand of ``dtype``; a known one is converted to it when every
    element survives the conversion."""
    if isinstance(value, np.ndarray):
        converted = value.astype(dtype)
        if not np.array_equal(converted, value):
            raise OnnxImportError(f"'{hint}' does not fit {dtype} exactly")
        return imp.runtime(converted, hint)
    if dtype_of(value) != dtype:
        raise OnnxImportError(f"expected a {dtype} tensor like the other operand, got {value.type}")
    return value


def unary(imp, node, inputs):
    x = f32_operand(imp, inputs[0], node.output[0])
    cls = UNARY.get(node.op_type) or getattr(nc, f"{node.op_type}Op")
    return [make(imp, cls, [x], {}, out_name(imp, node))]


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
    """Activations as nn ops: ``min(x, 0)`` is ``-relu(-x)``, a stable softplus is
    ``relu(x) + log(1 + exp(-|x|))`` and ThresholdedRelu selects ``x`` where ``x > alpha``.
    Each is the ONNX formula, rounded as float32 ops."""
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
    if op == "ThresholdedRelu":
        return [b.select(b.cmp("gt", x, k(attr(node, "alpha", 1.0))), x, k(0.0), out)]
    if op == "Softplus":
        return [softplus(out)]
    if op == "Softsign":
        return [b.div(x, b.add(b.abs(x), k(1.0)), out)]
    if op == "Mish":
        return [b.mul(x, b.tanh(softplus()), out)]
    if op == "Shrink":  # x + bias below -lambd, x - bias above lambd, 0 between
        lambd, bias = attr(node, "lambd", 0.5), attr(node, "bias", 0.0)
        low = b.select(b.cmp("lt", x, k(-lambd)), b.add(x, k(bias)), k(0.0))
        return [b.select(b.cmp("gt", x, k(lambd)), b.sub(x, k(bias)), low, out)]
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
    lo = float(known(inputs[1], "Clip min", imp)) if len(inputs) > 1 and inputs[1] is not None else attr(node, "min", -np.inf)
    hi = float(known(inputs[2], "Clip max", imp)) if len(inputs) > 2 and inputs[2] is not None else attr(node, "max", np.inf)
    return [imp.b.clamp(x, float(lo), float(hi), out_name(imp, node))]


def same_type_operands(imp, node, inputs) -> list[SSAValue]:
    """The first two inputs as SSA values, a known one in the type of the run-time one."""
    a, b = inputs[:2]
    dtype = dtype_of(a if isinstance(a, SSAValue) else b)
    return [v if isinstance(v, SSAValue) else imp.runtime(v, node.input[k], dtype=dtype) for k, v in enumerate((a, b))]


def compare(imp, node, inputs):
    operands = same_type_operands(imp, node, inputs)
    op = nc.CmpOp.create(
        operands=operands,
        result_types=[TensorType(i1, list(np.broadcast_shapes(imp.b.shape(operands[0]), imp.b.shape(operands[1]))))],
        properties={"predicate": StringAttr(COMPARE[node.op_type])},
    )
    return [imp.b._emit(op, out_name(imp, node))]


def mod(imp, node, inputs):
    """Mod with broadcasting: C fmod (the sign of the dividend) of float32 tensors with
    fmod=1; the remainder of floor division (the sign of the divisor) of integer tensors with
    fmod=0, the default. ONNX defines fmod=0 for integers only."""
    operands = same_type_operands(imp, node, inputs)
    dtype, fmod = dtype_of(operands[0]), attr(node, "fmod", 0)
    if dtype == np.float32 and fmod:
        return [imp.b.fmod(*operands, out_name(imp, node))]
    if dtype == np.float32:
        raise OnnxImportError("Mod of float tensors needs fmod=1 (fmod=0 is defined for integers only)")
    if fmod:
        raise OnnxImportError(f"Mod with fmod=1 of {dtype} tensors is not supported (only fmod=0)")
    if not np.issubdtype(dtype, np.signedinteger):
        raise OnnxImportError(f"Mod of {dtype} tensors is not supported (float32 or signed integers)")
    return [imp.b.mod(*operands, out_name(imp, node))]


# --- logic and selection --------------------------------------------------------------------

LOGICAL = {"And": "logical_and", "Or": "logical_or", "Xor": "logical_xor"}


def logical(imp, node, inputs):
    """Not, And, Or and Xor of bool tensors (comparison results or known), with broadcasting."""
    operands = [bool_operand(imp, v, node.input[k]) for k, v in enumerate(inputs)]
    if node.op_type == "Not":
        return [imp.b.logical_not(operands[0], out_name(imp, node))]
    return [getattr(imp.b, LOGICAL[node.op_type])(*operands, out_name(imp, node))]


def where(imp, node, inputs):
    """Where: a bool condition (computed or known) choosing between float32 tensors, the
    three broadcast together."""
    cond, *values = inputs
    for value in values:
        if dtype_of(value) != np.float32:
            raise OnnxImportError(f"Where choosing between {dtype_of(value)} tensors is not supported (only float32)")
    on_true, on_false = (f32_operand(imp, v, node.input[k + 1]) for k, v in enumerate(values))
    return [imp.b.select(bool_operand(imp, cond, node.input[0]), on_true, on_false, out_name(imp, node))]


CAST_DTYPES = tuple(np.dtype(t) for t in (np.float32, np.float16, np.bool_, np.int8, np.uint8, np.int32, np.int64))


def cast(imp, node, inputs):
    """Cast at run time between float32, float16, bool, int8, uint8, int32 and int64 (``nn.cast``)."""
    to = attr(node, "to")
    x = inputs[0]
    if to not in onnx.TensorProto.DataType.values():
        raise OnnxImportError(f"Cast to element type {to} is not supported")
    target = np.dtype(onnx.helper.tensor_dtype_to_np_dtype(to))
    if target == dtype_of(x):
        return [x]
    if target not in CAST_DTYPES or dtype_of(x) not in CAST_DTYPES:
        raise OnnxImportError(
            f"Cast of a run-time {dtype_of(x)} tensor to {onnx.TensorProto.DataType.Name(to)} is not supported"
            " (float32, float16, bool, int8, uint8, int32 and int64 are)"
        )
    return [imp.b.cast(x, target, out_name(imp, node))]
