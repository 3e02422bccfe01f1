"""Elementwise TFLite operators on float32 (and, for arithmetic and comparisons, integer)
tensors: arithmetic with broadcasting and fused activations, comparisons, unary math and
activations.

The operands are taken in the axis order of the first run-time operand of the result's rank
(an NCHW convolution result stays NCHW), known ones transposed to match at import; operands
of lower rank are taken in TFLite's order. Each operator computes what TFLite Micro's
reference kernel computes, in float32: LEAKY_RELU is ``max(x, alpha * x)`` for ``0 <= alpha
<= 1`` (``min`` above 1; a select below 0), RSQRT ``1 / sqrt(x)``, HARD_SWISH
``x * relu6(x + 3) / 6``, LOGISTIC an ``nn.sigmoid`` with TFLite Micro's cut-offs (``exp(x)``
below -9, 1.0 above 16.619047).
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import FloatAttr, f32
from xdsl.ir import SSAValue

from cfmem.importers.tflite.core import Importer, Operator, TfliteImportError, Value
from cfmem.importers.tflite.helpers import activated, float_tensor, out_name, pre_activation_name
from cfmem.importers.tflite.layout import Perm, Tensor, along

ARITHMETIC = {"ADD": "add", "SUB": "sub", "MUL": "mul", "DIV": "div", "MAXIMUM": "max", "MINIMUM": "min"}
"""Binary operators and the GraphBuilder methods computing them."""
WITH_ACTIVATION = ("ADD", "SUB", "MUL", "DIV")
"""Binary operators with a fused activation."""
INTEGER_ARITHMETIC = ("ADD", "SUB", "MUL", "DIV", "MAXIMUM", "MINIMUM")
"""Binary operators that also take int32 and int64 tensors (DIV truncating, as C's ``/``)."""
COMPARISONS = {"EQUAL": "eq", "NOT_EQUAL": "ne", "LESS": "lt", "LESS_EQUAL": "le", "GREATER": "gt", "GREATER_EQUAL": "ge"}
UNARY = {"LOGISTIC": "sigmoid", "TANH": "tanh", "EXP": "exp", "LOG": "log", "SQRT": "sqrt", "ABS": "abs", "NEG": "neg",
         "RELU": "relu", "FLOOR": "floor", "CEIL": "ceil", "SIN": "sin", "COS": "cos", "ROUND": "round"}  # fmt: skip
"""Unary float operators and the GraphBuilder methods computing them."""
LOGISTIC_CUTOFFS = {"exp_below": -9.0, "one_above": 16.619047164916992188}
"""TFLite Micro's reference LOGISTIC (``reference/logistic.h``): ``exp(x)`` below the first,
1.0 above the second, ``1 / (1 + exp(-x))`` between."""


def common_operands(imp: Importer, op: Operator, values: list[Value]) -> tuple[list[SSAValue], Perm | None]:
    """``values`` as SSA values in one axis order (see the module docstring) and that order."""
    shapes = [imp.logical_shape(v) for v in values]
    rank = max(len(s) for s in shapes)
    runtime = [v for v in values if isinstance(v, Tensor)]
    if not runtime:
        raise TfliteImportError("every input is a constant; cfmem folds no constant operators")
    def full(v: Tensor) -> bool:
        return len(imp.logical_shape(v)) == rank

    def single(v: Value) -> bool:  # one element broadcasts alike in every order
        return int(np.prod(imp.logical_shape(v))) == 1

    ordered = all(full(v) or single(v) for v in runtime)
    perm = next((v.perm for v in runtime if full(v) and v.perm is not None), None) if ordered else None
    dtype = imp.dtype(runtime[0])
    result = []
    for k, v in enumerate(values):
        hint = f"{op.output_name()}_in{k}"
        if isinstance(v, Tensor):
            if imp.dtype(v) != dtype:
                raise TfliteImportError(f"input #{k} is {imp.dtype(v)}, input #0 {dtype}")
            result.append(imp.held(v, perm if full(v) else v.perm if single(v) else None, hint))
            continue
        converted = v.astype(dtype)
        if not np.array_equal(converted, v) and not (dtype.kind == "f" and v.dtype.kind == "f"):
            raise TfliteImportError(f"constant input #{k} ({v.dtype}) does not convert exactly to {dtype}")
        result.append(imp.runtime(along(converted if converted.dtype != v.dtype else v, rank, perm), hint))
    return result, perm


def binary(imp: Importer, op: Operator, inputs: list[Value]) -> list[Value]:
    (a, b), perm = common_operands(imp, op, inputs[:2])
    dtype = imp.b._dtype(a)
    if dtype != np.float32 and not (dtype.kind == "i" and op.builtin in INTEGER_ARITHMETIC):
        raise TfliteImportError(f"{op.builtin} of {dtype} tensors is not supported")
    method = getattr(imp.b, ARITHMETIC[op.builtin])
    if op.builtin not in WITH_ACTIVATION:
        return [Tensor(method(a, b, out_name(imp, op)), perm)]
    return [Tensor(activated(imp, op, method(a, b, pre_activation_name(imp, op))), perm)]


def squared_difference(imp: Importer, op: Operator, inputs: list[Value]) -> list[Value]:
    (a, b), perm = common_operands(imp, op, inputs[:2])
    difference = imp.b.sub(a, b)
    return [Tensor(imp.b.mul(difference, difference, out_name(imp, op)), perm)]


def compare(imp: Importer, op: Operator, inputs: list[Value]) -> list[Value]:
    (a, b), perm = common_operands(imp, op, inputs[:2])
    return [Tensor(imp.b.cmp(COMPARISONS[op.builtin], a, b, out_name(imp, op)), perm)]


def unary(imp: Importer, op: Operator, inputs: list[Value]) -> list[Value]:
    x = float_tensor(imp, inputs[0], "input")
    value = imp.held(x, x.perm, op.output_name())
    result = getattr(imp.b, UNARY[op.builtin])(value, out_name(imp, op))
    if op.builtin == "LOGISTIC":
        result.owner.properties.update({k: FloatAttr(v, f32) for k, v in LOGISTIC_CUTOFFS.items()})
    return [Tensor(result, x.perm)]


def activation(imp: Importer, op: Operator, inputs: list[Value]) -> list[Value]:
    """RSQRT, RELU6, RELU_N1_TO_1, RELU_0_TO_1, LEAKY_RELU and HARD_SWISH."""
    x = float_tensor(imp, inputs[0], "input")
    value, b, name = imp.held(x, x.perm, op.output_name()), imp.b, out_name(imp, op)
    if op.builtin == "RSQRT":
        return [Tensor(b.reciprocal(b.sqrt(value), name), x.perm)]
    bounds = {"RELU6": (0.0, 6.0), "RELU_N1_TO_1": (-1.0, 1.0), "RELU_0_TO_1": (0.0, 1.0)}
    if op.builtin in bounds:
        return [Tensor(b.clamp(value, *bounds[op.builtin], name), x.perm)]
    if op.builtin == "HARD_SWISH":
        gate = b.clamp(b.add(value, np.float32(3.0)), 0.0, 6.0)
        return [Tensor(b.div(b.mul(value, gate), np.float32(6.0), name), x.perm)]
    alpha = np.float32(op.option("alpha", 0.2))
    scaled = b.mul(value, alpha)
    if 0 <= alpha <= 1:
        return [Tensor(b.max(value, scaled, name), x.perm)]
    if alpha > 1:
        return [Tensor(b.min(value, scaled, name), x.perm)]
    return [Tensor(b.select(b.cmp("gt", value, np.float32(0.0)), value, scaled, name), x.perm)]
