"""Data movement for :class:`cfmem.builder.GraphBuilder`: concat, transpose, reshape, slice,
the gathers, top-k positions, pad and flatten."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import prod

from xdsl.dialects.builtin import BoolAttr, FloatAttr, IntegerAttr, StringAttr, TensorType, f32, i64
from xdsl.ir import Attribute, SSAValue

from cfmem.builder.core import GraphBuildError, GraphBuilderCore, Shape, _float
from cfmem.dialects import nn_compute as nc
from cfmem.dialects import shapes
from cfmem.dialects.nn_weights import ReshapeOp


class TensorOps(GraphBuilderCore):
    """Ops that move or select elements without arithmetic."""

    def concat(self, values: Sequence[SSAValue], axis: int, name: str | None = None) -> SSAValue:
        for v in values:
            self._check_visible(v, "concat operand")
        name = self._name(name, "concat")
        out = self._infer("nn.concat", name, shapes.concat, [self.shape(v) for v in values], axis)
        props = {"axis": IntegerAttr(axis, i64)}
        element = values[0].type.get_element_type() if values else None
        result = _float(out, *values) if element is None or element in nc.FLOAT_TYPES else TensorType(element, list(out))
        return self._emit(nc.ConcatOp(operands=[list(values)], result_types=[result], properties=props), name)

    def transpose(self, x: SSAValue, perm: Sequence[int], name: str | None = None) -> SSAValue:
        self._check_visible(x, "transpose input")
        name = self._name(name, "transpose")
        perm = [int(p) for p in perm]
        out = self._infer("nn.transpose", name, shapes.transpose, self.shape(x), perm)
        props = {"perm": nc.i64_array(perm)}
        return self._emit(
            nc.TransposeOp(operands=[x], result_types=[TensorType(x.type.get_element_type(), list(out))], properties=props), name
        )

    def reshape(self, x: SSAValue, shape: Sequence[int], name: str | None = None) -> SSAValue:
        """Same elements in a new shape; one dimension may be -1 (inferred)."""
        self._check_visible(x, "reshape input")
        name = self._name(name, "reshape")
        count = prod(self.shape(x))
        dims = [int(d) for d in shape]
        if dims.count(-1) > 1 or any(d == 0 or d < -1 for d in dims):
            raise GraphBuildError(f"nn.reshape %{name}: bad target shape {dims}")
        if -1 in dims:
            known = prod(d for d in dims if d != -1)
            if count % known:
                raise GraphBuildError(
                    f"nn.reshape %{name}: cannot reshape {list(self.shape(x))} to {dims}"
                )
            dims[dims.index(-1)] = count // known
        if prod(dims) != count:
            raise GraphBuildError(
                f"nn.reshape %{name}: {list(self.shape(x))} has {count} elements,"
                f" {dims} has {prod(dims)}"
            )
        ty = TensorType(x.type.get_element_type(), dims)
        return self._emit(ReshapeOp(x, ty), name)

    def slice(
        self,
        x: SSAValue,
        starts: Sequence[int],
        ends: Sequence[int],
        axes: Sequence[int] | None = None,
        steps: Sequence[int] | None = None,
        name: str | None = None,
    ) -> SSAValue:
        """ONNX Slice of ``x`` (any element type); see ``shapes.slice_bounds``.

        ``axes`` and ``steps`` are recorded only where they differ from their
        defaults (the first ``len(starts)`` axes, steps of 1).
        """
        self._check_visible(x, "slice input")
        name = self._name(name, "slice")
        starts, ends = [int(v) for v in starts], [int(v) for v in ends]
        axes = None if axes is None else [int(a) for a in axes]
        steps = None if steps is None else [int(s) for s in steps]
        out = self._infer("nn.slice", name, shapes.slice_, self.shape(x), starts, ends, axes, steps)
        props: dict[str, Attribute] = {"starts": nc.i64_array(starts), "ends": nc.i64_array(ends)}
        if axes is not None and axes != list(range(len(starts))):
            props["axes"] = nc.i64_array(axes)
        if steps is not None and any(s != 1 for s in steps):
            props["steps"] = nc.i64_array(steps)
        ty = TensorType(x.type.get_element_type(), list(out))
        return self._emit(nc.SliceOp(operands=[x], result_types=[ty], properties=props), name)

    def _indexed_read(
        self, cls: type[nc.IndexedReadOp], kind: str, shape_rule: Callable[..., Shape],
        data: SSAValue, indices: SSAValue, axis: int, name: str | None,
    ) -> SSAValue:  # fmt: skip
        self._check_visible(data, f"{kind} data")
        self._check_visible(indices, f"{kind} indices")
        name = self._name(name, kind)
        out = self._infer(cls.name, name, shape_rule, self.shape(data), self.shape(indices), int(axis))
        ty = TensorType(data.type.get_element_type(), list(out))
        props = {"axis": IntegerAttr(int(axis), i64)}
        return self._emit(cls(operands=[data, indices], result_types=[ty], properties=props), name)

    def gather(self, data: SSAValue, indices: SSAValue, axis: int = 0, name: str | None = None) -> SSAValue:
        """ONNX Gather of ``data`` (any element type) at the run-time integer ``indices`` along ``axis``."""
        return self._indexed_read(nc.GatherOp, "gather", shapes.gather, data, indices, axis, name)

    def gather_elements(self, data: SSAValue, indices: SSAValue, axis: int = 0, name: str | None = None) -> SSAValue:
        """ONNX GatherElements of ``data`` at the run-time integer ``indices`` along ``axis``."""
        return self._indexed_read(nc.GatherElementsOp, "gather_elements", shapes.gather_elements, data, indices, axis, name)

    def top_k(self, x: SSAValue, k: int, axis: int = -1, largest: bool = True, name: str | None = None) -> SSAValue:
        """The i64 positions of the ``k`` largest (smallest) elements of ``x`` along ``axis``,
        best first, ties by position (ONNX TopK's Indices)."""
        self._check_visible(x, "top_k input")
        name = self._name(name, "top_k")
        out = self._infer("nn.top_k", name, shapes.top_k, self.shape(x), int(k), int(axis))
        props: dict[str, Attribute] = {"k": IntegerAttr(int(k), i64), "axis": IntegerAttr(int(axis), i64)}
        if not largest:
            props["largest"] = BoolAttr.from_bool(False)
        return self._emit(nc.TopKOp(operands=[x], result_types=[TensorType(i64, list(out))], properties=props), name)

    def pad(
        self,
        x: SSAValue,
        pads: Sequence[int],
        mode: str = "constant",
        value: float = 0.0,
        name: str | None = None,
    ) -> SSAValue:
        """ONNX Pad: ``pads`` holds every axis' begin pad, then every axis' end pad;
        ``mode`` is constant (``value``), reflect (numpy's) or edge."""
        self._check_visible(x, "pad input")
        name = self._name(name, "pad")
        pads = [int(p) for p in pads]
        out = self._infer("nn.pad", name, shapes.pad, self.shape(x), pads, mode)
        props: dict[str, Attribute] = {"pads": nc.i64_array(pads)}
        if mode != "constant":
            props["mode"] = StringAttr(mode)
        elif value != 0.0:
            props["value"] = FloatAttr(float(value), f32)
        return self._emit(nc.PadOp(operands=[x], result_types=[_float(out, x)], properties=props), name)

    def flatten(self, x: SSAValue, name: str | None = None) -> SSAValue:
        """``N x ...`` to ``N x (product of the rest)``."""
        return self.reshape(x, (self.shape(x)[0], -1), name)
