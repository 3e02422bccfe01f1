"""Ops along axes for :class:`cfmem.builder.GraphBuilder`: reductions, arg max and min, softmax
and cumulative sums."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import BoolAttr, IntegerAttr, TensorType, i64
from xdsl.ir import Attribute, SSAValue

from cfmem.builder.core import GraphBuildError, GraphBuilderCore, Shape, _float
from cfmem.dialects import nn_compute as nc
from cfmem.dialects import shapes


class ReduceOps(GraphBuilderCore):
    """``nn.reduce_*``, ``nn.arg_max``, ``nn.arg_min``, ``nn.softmax`` and ``nn.cumsum``."""

    def _reduce(
        self, cls: type[nc.ReduceOp], kind: str, x: SSAValue, axes: Sequence[int], keepdims: bool, name: str | None
    ) -> SSAValue:
        self._check_visible(x, f"{cls.name[3:]} input")
        name = self._name(name, kind)
        axes = [int(a) for a in axes]
        out = self._infer(cls.name, name, shapes.reduce, self.shape(x), axes, keepdims)
        props: dict[str, Attribute] = {"axes": nc.i64_array(axes)}
        if not keepdims:
            props["keepdims"] = BoolAttr.from_bool(False)
        return self._emit(cls(operands=[x], result_types=[_float(out, x)], properties=props), name)

    def reduce_mean(
        self, x: SSAValue, axes: Sequence[int], keepdims: bool = True, name: str | None = None
    ) -> SSAValue:
        return self._reduce(nc.ReduceMeanOp, "mean", x, axes, keepdims, name)

    def reduce_sum(
        self, x: SSAValue, axes: Sequence[int], keepdims: bool = True, name: str | None = None
    ) -> SSAValue:
        return self._reduce(nc.ReduceSumOp, "sum", x, axes, keepdims, name)

    def reduce_max(
        self, x: SSAValue, axes: Sequence[int], keepdims: bool = True, name: str | None = None
    ) -> SSAValue:
        """Maximum over ``axes``, scanned from the first element in row-major order (NaN only
        from a first element that is NaN; of equal elements, the first)."""
        return self._reduce(nc.ReduceMaxOp, "rmax", x, axes, keepdims, name)

    def reduce_min(
        self, x: SSAValue, axes: Sequence[int], keepdims: bool = True, name: str | None = None
    ) -> SSAValue:
        """Minimum over ``axes``, scanned as :meth:`reduce_max` (NaN only from a first element
        that is NaN; of equal elements, the first)."""
        return self._reduce(nc.ReduceMinOp, "rmin", x, axes, keepdims, name)

    def reduce_prod(
        self, x: SSAValue, axes: Sequence[int], keepdims: bool = True, name: str | None = None
    ) -> SSAValue:
        return self._reduce(nc.ReduceProdOp, "prod", x, axes, keepdims, name)

    def _arg_extreme(
        self, cls: type[nc.ArgExtremeOp], kind: str, x: SSAValue, axis: int, keepdims: bool, select_last_index: bool,
        name: str | None,
    ) -> SSAValue:
        self._check_visible(x, f"{cls.name[3:]} input")
        name = self._name(name, kind)
        out = self._infer(cls.name, name, shapes.reduce, self.shape(x), [int(axis)], keepdims)
        props: dict[str, Attribute] = {"axis": IntegerAttr(int(axis), i64)}
        if not keepdims:
            props["keepdims"] = BoolAttr.from_bool(False)
        if select_last_index:
            props["select_last_index"] = BoolAttr.from_bool(True)
        return self._emit(cls(operands=[x], result_types=[TensorType(i64, list(out))], properties=props), name)

    def arg_max(
        self, x: SSAValue, axis: int, keepdims: bool = True, select_last_index: bool = False, name: str | None = None
    ) -> SSAValue:
        """The i64 index of the largest element along ``axis`` (the first of ties, or the last)."""
        return self._arg_extreme(nc.ArgMaxOp, "argmax", x, axis, keepdims, select_last_index, name)

    def arg_min(
        self, x: SSAValue, axis: int, keepdims: bool = True, select_last_index: bool = False, name: str | None = None
    ) -> SSAValue:
        """The i64 index of the smallest element along ``axis`` (the first of ties, or the last)."""
        return self._arg_extreme(nc.ArgMinOp, "argmin", x, axis, keepdims, select_last_index, name)

    def softmax(self, x: SSAValue, axis: int = -1, name: str | None = None) -> SSAValue:
        self._check_visible(x, "softmax input")
        name = self._name(name, "softmax")

        def check_axis(shape: Shape, axis: int) -> Shape:
            shapes.normalize_axis(axis, len(shape))
            return shape

        self._infer("nn.softmax", name, check_axis, self.shape(x), axis)
        props = {"axis": IntegerAttr(axis, i64)} if axis != -1 else {}
        return self._emit(nc.SoftmaxOp(operands=[x], result_types=[x.type], properties=props), name)

    def cumsum(
        self, x: SSAValue, axis: int, exclusive: bool = False, reverse: bool = False, name: str | None = None
    ) -> SSAValue:
        """Running sums of ``x`` along ``axis`` (ONNX CumSum)."""
        self._check_visible(x, "cumsum input")
        name = self._name(name, "cumsum")
        try:
            axis = shapes.normalize_axis(axis, len(self.shape(x)))
        except ValueError as err:
            raise GraphBuildError(f"nn.cumsum %{name}: {err}") from None
        props = {"axis": IntegerAttr(axis, i64)}
        if exclusive:
            props["exclusive"] = BoolAttr.from_bool(True)
        if reverse:
            props["reverse"] = BoolAttr.from_bool(True)
        return self._emit(nc.CumsumOp(operands=[x], result_types=[x.type], properties=props), name)
