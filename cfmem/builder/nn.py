"""Convolution, matrix products and pooling for :class:`cfmem.builder.GraphBuilder`, with new
weights for ``conv2d`` and ``dense``, and the window arguments (``_pair``, ``_pads``) they take."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import BoolAttr, IntegerAttr, i64
from xdsl.ir import Attribute, SSAValue

from cfmem.builder.core import GraphBuildError, GraphBuilderCore, Operand, _float, _float_dtype
from cfmem.dialects import nn_compute as nc
from cfmem.dialects import shapes


def _pair(value: int | Sequence[int], what: str) -> tuple[int, int]:
    if isinstance(value, int | np.integer):
        return (int(value), int(value))
    if len(value) != 2:
        raise GraphBuildError(f"{what} must be an int or a pair, got {value!r}")
    return (int(value[0]), int(value[1]))


def _pads(value: int | Sequence[int]) -> tuple[int, int, int, int]:
    """``p``, ``(ph, pw)`` or ``(top, left, bottom, right)``."""
    if isinstance(value, int | np.integer):
        return (int(value),) * 4
    if len(value) == 2:
        return (int(value[0]), int(value[1]), int(value[0]), int(value[1]))
    if len(value) == 4:
        return tuple(int(v) for v in value)  # type: ignore[return-value]
    raise GraphBuildError(f"pad must be an int, a pair or 4 values, got {value!r}")


class NnOps(GraphBuilderCore):
    """``nn.conv2d``, ``nn.gemm``, ``nn.matmul`` and the pooling ops."""

    def conv2d(
        self,
        x: SSAValue,
        out_channels: int,
        kernel: int | Sequence[int],
        stride: int | Sequence[int] = 1,
        pad: int | Sequence[int] = 0,
        dilation: int | Sequence[int] = 1,
        groups: int = 1,
        bias: bool = True,
        name: str | None = None,
    ) -> SSAValue:
        """Convolution with new weights ``<name>_w`` (OIHW) and ``<name>_b``."""
        self._check_visible(x, "conv2d input")
        name = self._name(name, "conv")
        xs = self.shape(x)
        kh, kw = _pair(kernel, "kernel")
        strides, pads, dilations = _pair(stride, "stride"), _pads(pad), _pair(dilation, "dilation")
        in_per_group = xs[1] // groups if len(xs) == 4 and groups > 0 else 0
        w_shape = (out_channels, in_per_group, kh, kw)
        out = self._infer(
            "nn.conv2d", name, shapes.conv2d, xs, w_shape, strides, pads, dilations, groups
        )
        w = self.weight(f"{name}_w", w_shape)
        b = self.weight(f"{name}_b", (out_channels,)) if bias else None
        props: dict[str, Attribute] = {}
        if strides != (1, 1):
            props["strides"] = nc.i64_array(strides)
        if pads != (0, 0, 0, 0):
            props["pads"] = nc.i64_array(pads)
        if dilations != (1, 1):
            props["dilations"] = nc.i64_array(dilations)
        if groups != 1:
            props["groups"] = IntegerAttr(groups, i64)
        op = nc.Conv2dOp(operands=[x, w, b], result_types=[_float(out, x)], properties=props)
        return self._emit(op, name)

    def dense(
        self, x: SSAValue, out_features: int, *, bias: bool = True, name: str | None = None
    ) -> SSAValue:
        """``x @ W.T + b`` (nn.gemm, trans_b) with new ``<name>_w`` [out, in] and ``<name>_b``.

        Without ``bias`` the gemm adds a zero constant.
        """
        self._check_visible(x, "dense input")
        name = self._name(name, "fc")
        xs = self.shape(x)
        w_shape = (out_features, xs[-1] if xs else 0)
        c_shape = (out_features,)
        self._infer("nn.gemm", name, shapes.gemm, xs, w_shape, c_shape, True)
        w = self.weight(f"{name}_w", w_shape)
        c = (
            self.weight(f"{name}_b", c_shape)
            if bias
            else self.constant(np.zeros(c_shape), f"{name}_zero")
        )
        return self._gemm(x, w, c, True, name)

    def gemm(
        self,
        a: SSAValue,
        b: SSAValue,
        c: Operand,
        *,
        trans_b: bool = False,
        name: str | None = None,
    ) -> SSAValue:
        """``a @ (b.T if trans_b else b) + c`` on existing values (see ``dense``)."""
        if not isinstance(b, SSAValue):
            raise GraphBuildError(
                "gemm takes existing values; use dense(x, out_features) for new weights"
            )
        self._check_visible(a, "gemm a")
        self._check_visible(b, "gemm b")
        name = self._name(name, "gemm")
        return self._gemm(a, b, self._operand(c, "gemm c", _float_dtype(a, b)), trans_b, name)

    def _gemm(
        self, a: SSAValue, b: SSAValue, c: SSAValue | np.ndarray, trans_b: bool, name: str
    ) -> SSAValue:
        c_shape = self._operand_shape(c)
        out = self._infer(
            "nn.gemm", name, shapes.gemm, self.shape(a), self.shape(b), c_shape, trans_b
        )
        c = self._materialize(c, f"{name}_c")
        props = {"trans_b": BoolAttr.from_bool(True)} if trans_b else {}
        op = nc.GemmOp(operands=[a, b, c], result_types=[_float(out, a, b, c)], properties=props)
        return self._emit(op, name)

    def matmul(self, a: SSAValue, b: SSAValue, name: str | None = None) -> SSAValue:
        """numpy ``a @ b`` for operands of rank >= 2."""
        self._check_visible(a, "matmul lhs")
        self._check_visible(b, "matmul rhs")
        name = self._name(name, "matmul")
        out = self._infer("nn.matmul", name, shapes.matmul, self.shape(a), self.shape(b))
        return self._emit(nc.MatmulOp(operands=[a, b], result_types=[_float(out, a, b)]), name)

    def _pool(
        self,
        cls: type[nc.Pool2dOp],
        kind: str,
        x: SSAValue,
        kernel: int | Sequence[int],
        stride: int | Sequence[int] | None,
        pad: int | Sequence[int],
        name: str | None,
        dilation: int | Sequence[int] = 1,
    ) -> SSAValue:
        self._check_visible(x, f"{kind} input")
        name = self._name(name, kind)
        kernel = _pair(kernel, "kernel")
        strides = kernel if stride is None else _pair(stride, "stride")
        pads = _pads(pad)
        dilations = _pair(dilation, "dilation")
        out = self._infer(cls.name, name, shapes.pool2d, self.shape(x), kernel, strides, pads, dilations)
        props: dict[str, Attribute] = {"kernel": nc.i64_array(kernel)}
        if strides != (1, 1):
            props["strides"] = nc.i64_array(strides)
        if pads != (0, 0, 0, 0):
            props["pads"] = nc.i64_array(pads)
        if dilations != (1, 1):
            props["dilations"] = nc.i64_array(dilations)
        return self._emit(cls(operands=[x], result_types=[_float(out, x)], properties=props), name)

    def max_pool2d(
        self, x: SSAValue, kernel, stride=None, pad=0, name: str | None = None, dilation=1
    ) -> SSAValue:
        """Max pooling; ``stride`` defaults to the kernel."""
        return self._pool(nc.MaxPool2dOp, "maxpool", x, kernel, stride, pad, name, dilation)

    def avg_pool2d(
        self, x: SSAValue, kernel, stride=None, pad=0, name: str | None = None, dilation=1
    ) -> SSAValue:
        """Average pooling (padding not counted); ``stride`` defaults to the kernel."""
        return self._pool(nc.AvgPool2dOp, "avgpool", x, kernel, stride, pad, name, dilation)

    def global_avg_pool(self, x: SSAValue, name: str | None = None) -> SSAValue:
        """Mean over H and W of an NCHW tensor, giving N x C x 1 x 1."""
        self._check_visible(x, "global_avg_pool input")
        name = self._name(name, "gap")
        xs = self.shape(x)
        if len(xs) != 4:
            raise GraphBuildError(
                f"nn.global_avg_pool %{name}: expects a rank-4 input, got {list(xs)}"
            )
        out = self._infer(
            "nn.global_avg_pool", name, shapes.pool2d, xs, xs[2:], (1, 1), (0, 0, 0, 0)
        )
        return self._emit(nc.GlobalAvgPoolOp(operands=[x], result_types=[_float(out, x)]), name)
