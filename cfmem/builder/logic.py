"""Boolean ops for :class:`cfmem.builder.GraphBuilder`: and, or, xor and not of i1 tensors, and
``select`` between two float operands by an i1 condition."""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType, i1
from xdsl.ir import SSAValue

from cfmem.builder.core import GraphBuilderCore, Operand, _float, _float_dtype
from cfmem.dialects import nn_compute as nc
from cfmem.dialects import shapes


class LogicOps(GraphBuilderCore):
    """``nn.and``, ``nn.or``, ``nn.xor``, ``nn.not`` and ``nn.select``."""

    def _logical(self, cls: type[nc.LogicalBinaryOp], kind: str, a: SSAValue, b: SSAValue, name: str | None) -> SSAValue:
        name = self._name(name, kind)
        self._check_visible(a, f"{kind} lhs")
        self._check_visible(b, f"{kind} rhs")
        out = self._infer(cls.name, name, shapes.broadcast, self.shape(a), self.shape(b))
        return self._emit(cls(a, b, TensorType(i1, list(out))), name)

    def logical_and(self, a: SSAValue, b: SSAValue, name: str | None = None) -> SSAValue:
        """Elementwise ``a and b`` of i1 tensors, with broadcasting."""
        return self._logical(nc.AndOp, "and", a, b, name)

    def logical_or(self, a: SSAValue, b: SSAValue, name: str | None = None) -> SSAValue:
        return self._logical(nc.OrOp, "or", a, b, name)

    def logical_xor(self, a: SSAValue, b: SSAValue, name: str | None = None) -> SSAValue:
        return self._logical(nc.XorOp, "xor", a, b, name)

    def logical_not(self, x: SSAValue, name: str | None = None) -> SSAValue:
        self._check_visible(x, "not input")
        return self._emit(nc.NotOp(x), self._name(name, "not"))

    def select(self, cond: SSAValue, on_true: Operand, on_false: Operand, name: str | None = None) -> SSAValue:
        """``on_true`` where the i1 ``cond`` holds, else ``on_false``; all three broadcast
        together, and a number becomes an f32 constant."""
        name = self._name(name, "select")
        self._check_visible(cond, "select condition")
        dtype = _float_dtype(on_true, on_false)
        a, b = self._operand(on_true, "select on_true", dtype), self._operand(on_false, "select on_false", dtype)
        out = self._infer(
            "nn.select", name, shapes.broadcast, self.shape(cond), self._operand_shape(a), self._operand_shape(b)
        )
        a, b = self._materialize(a, f"{name}_t"), self._materialize(b, f"{name}_f")
        return self._emit(nc.SelectOp(cond, a, b, _float(out, a, b)), name)
