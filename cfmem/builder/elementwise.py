"""Elementwise ops for :class:`cfmem.builder.GraphBuilder`: arithmetic and comparisons with
broadcasting (a number becomes a constant), casts, remainders and unary math."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from xdsl.dialects.builtin import TensorType, f32, i1
from xdsl.ir import SSAValue

from cfmem.builder.core import (
    GraphBuildError,
    GraphBuilderCore,
    Operand,
    _element_type,
    _float,
    _float_dtype,
)
from cfmem.dialects import nn_compute as nc
from cfmem.dialects import shapes


class ElementwiseOps(GraphBuilderCore):
    """Broadcasting binary ops, ``nn.cmp``, ``nn.cast`` and the unary float ops."""

    def _binary(
        self, cls: type[nc.ElementwiseBinaryOp], kind: str, a: Operand, b: Operand, name: str | None
    ) -> SSAValue:
        name = self._name(name, kind)
        dtype = _float_dtype(a, b)
        a, b = self._operand(a, f"{kind} lhs", dtype), self._operand(b, f"{kind} rhs", dtype)
        out = self._infer(
            cls.name, name, shapes.broadcast, self._operand_shape(a), self._operand_shape(b)
        )
        a, b = self._materialize(a, f"{name}_a"), self._materialize(b, f"{name}_b")
        element = a.type.get_element_type()
        integer = issubclass(cls, nc.ArithmeticBinaryOp) and element not in nc.FLOAT_TYPES
        return self._emit(cls(a, b, TensorType(element, list(out)) if integer else _float(out, a, b)), name)

    def add(self, a: Operand, b: Operand, name: str | None = None) -> SSAValue:
        """Elementwise ``a + b`` with broadcasting; a number becomes a constant."""
        return self._binary(nc.AddOp, "add", a, b, name)

    def sub(self, a: Operand, b: Operand, name: str | None = None) -> SSAValue:
        return self._binary(nc.SubOp, "sub", a, b, name)

    def mul(self, a: Operand, b: Operand, name: str | None = None) -> SSAValue:
        return self._binary(nc.MulOp, "mul", a, b, name)

    def div(self, a: Operand, b: Operand, name: str | None = None) -> SSAValue:
        return self._binary(nc.DivOp, "div", a, b, name)

    def pow(self, a: Operand, b: Operand, name: str | None = None) -> SSAValue:
        """Elementwise ``a ** b`` with broadcasting."""
        return self._binary(nc.PowOp, "pow", a, b, name)

    def max(self, a: Operand, b: Operand, name: str | None = None) -> SSAValue:
        """Elementwise ``max(a, b)`` with broadcasting (NaN wins; of equal values, ``b``)."""
        return self._binary(nc.MaxOp, "max", a, b, name)

    def min(self, a: Operand, b: Operand, name: str | None = None) -> SSAValue:
        """Elementwise ``min(a, b)`` with broadcasting (NaN wins; of equal values, ``b``)."""
        return self._binary(nc.MinOp, "min", a, b, name)

    def cmp(self, predicate: str, a: Operand, b: Operand, name: str | None = None) -> SSAValue:
        """Elementwise comparison (eq, ne, lt, le, gt, ge) giving an i1 tensor.

        Values compare as f32 or as signed integers (both of one type); a
        number or array becomes a constant of the other operand's type.
        """
        if predicate not in nc.CMP_PREDICATES:
            raise GraphBuildError(
                f"unknown predicate {predicate!r}, expected one of {', '.join(nc.CMP_PREDICATES)}"
            )
        name = self._name(name, "cond")
        like = next((v for v in (a, b) if isinstance(v, SSAValue)), None)
        dtype = np.float32 if like is None else self._dtype(like)
        a, b = self._operand(a, "cmp lhs", dtype), self._operand(b, "cmp rhs", dtype)
        out = self._infer(
            "nn.cmp", name, shapes.broadcast, self._operand_shape(a), self._operand_shape(b)
        )
        a, b = self._materialize(a, f"{name}_a"), self._materialize(b, f"{name}_b")
        return self._emit(nc.CmpOp(predicate, a, b, TensorType(i1, list(out))), name)

    def cast(self, x: SSAValue, dtype: npt.DTypeLike, name: str | None = None) -> SSAValue:
        """``x`` converted to ``dtype`` (float32, float16, bool, int8, uint8, int32 or int64) as ONNX Cast does."""
        self._check_visible(x, "cast input")
        result = TensorType(_element_type(np.dtype(dtype)) if np.dtype(dtype) != np.float32 else f32, self.shape(x))
        return self._emit(nc.CastOp(x, result), self._name(name, "cast"))

    def fmod(self, a: Operand, b: Operand, name: str | None = None) -> SSAValue:
        """Elementwise C ``fmod(a, b)`` (the sign of ``a``) with broadcasting."""
        return self._binary(nc.FmodOp, "fmod", a, b, name)

    def mod(self, a: SSAValue, b: Operand, name: str | None = None) -> SSAValue:
        """Elementwise ``a mod b`` of integer tensors (the sign of ``b``) with broadcasting;
        a number or array becomes a constant of ``a``'s type."""
        name = self._name(name, "mod")
        self._check_visible(a, "mod lhs")
        dtype = self._dtype(a)
        b = self._operand(b, "mod rhs", dtype)
        out = self._infer("nn.mod", name, shapes.broadcast, self.shape(a), self._operand_shape(b))
        b = self._materialize(b, f"{name}_b")
        return self._emit(nc.ModOp(a, b, TensorType(a.type.get_element_type(), list(out))), name)

    def _unary(
        self,
        cls: type[nc.ElementwiseUnaryOp],
        kind: str,
        x: SSAValue,
        name: str | None,
        *args: float,
    ) -> SSAValue:
        self._check_visible(x, f"{kind} input")
        return self._emit(cls(x, *args), self._name(name, kind))

    def relu(self, x: SSAValue, name: str | None = None) -> SSAValue:
        return self._unary(nc.ReluOp, "relu", x, name)

    def sigmoid(self, x: SSAValue, name: str | None = None) -> SSAValue:
        return self._unary(nc.SigmoidOp, "sigmoid", x, name)

    def tanh(self, x: SSAValue, name: str | None = None) -> SSAValue:
        return self._unary(nc.TanhOp, "tanh", x, name)

    def sqrt(self, x: SSAValue, name: str | None = None) -> SSAValue:
        return self._unary(nc.SqrtOp, "sqrt", x, name)

    def exp(self, x: SSAValue, name: str | None = None) -> SSAValue:
        return self._unary(nc.ExpOp, "exp", x, name)

    def neg(self, x: SSAValue, name: str | None = None) -> SSAValue:
        return self._unary(nc.NegOp, "neg", x, name)

    def log(self, x: SSAValue, name: str | None = None) -> SSAValue:
        return self._unary(nc.LogOp, "log", x, name)

    def abs(self, x: SSAValue, name: str | None = None) -> SSAValue:
        return self._unary(nc.AbsOp, "abs", x, name)

    def floor(self, x: SSAValue, name: str | None = None) -> SSAValue:
        return self._unary(nc.FloorOp, "floor", x, name)

    def ceil(self, x: SSAValue, name: str | None = None) -> SSAValue:
        return self._unary(nc.CeilOp, "ceil", x, name)

    def round(self, x: SSAValue, name: str | None = None) -> SSAValue:
        return self._unary(nc.RoundOp, "round", x, name)

    def sign(self, x: SSAValue, name: str | None = None) -> SSAValue:
        return self._unary(nc.SignOp, "sign", x, name)

    def erf(self, x: SSAValue, name: str | None = None) -> SSAValue:
        return self._unary(nc.ErfOp, "erf", x, name)

    def sin(self, x: SSAValue, name: str | None = None) -> SSAValue:
        return self._unary(nc.SinOp, "sin", x, name)

    def cos(self, x: SSAValue, name: str | None = None) -> SSAValue:
        return self._unary(nc.CosOp, "cos", x, name)

    def reciprocal(self, x: SSAValue, name: str | None = None) -> SSAValue:
        return self._unary(nc.ReciprocalOp, "reciprocal", x, name)

    def clamp(self, x: SSAValue, lo: float, hi: float, name: str | None = None) -> SSAValue:
        """``min(max(x, lo), hi)``; ``clamp(x, 0, 6)`` is relu6."""
        if lo > hi:
            raise GraphBuildError(f"clamp: min {lo} exceeds max {hi}")
        return self._unary(nc.ClampOp, "clamp", x, name, lo, hi)
