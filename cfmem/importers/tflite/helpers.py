"""What the TFLite operator handlers share: reading constant inputs, naming results, fused
activations, the SAME/VALID padding of a window, and TFLite Micro's order of float sums.

A handler receives the :class:`~cfmem.importers.tflite.core.Importer`, the
:class:`~cfmem.importers.tflite.core.Operator` and its input values (``None`` for an omitted
optional input), and returns one value per operator output.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import StringAttr
from xdsl.ir import SSAValue

from cfmem.dialects import nn_compute as nc
from cfmem.importers.tflite.core import Importer, Operator, TfliteImportError, Value
from cfmem.importers.tflite.layout import Tensor
from cfmem.tflite.model_file import schema


def known(value: Value | None, what: str) -> np.ndarray:
    """``value`` when the file holds it as a constant; else a one-line error."""
    if not isinstance(value, np.ndarray):
        raise TfliteImportError(f"{what} must be a constant tensor of the file (it is computed at run time)")
    return value


def ints(value: Value | None, what: str) -> list[int]:
    return [int(v) for v in known(value, what).reshape(-1)]


def axes_of(value: Value | None, rank: int, what: str) -> list[int]:
    """Axes given as a constant tensor, normalized for rank ``rank``, in the order given."""
    axes = []
    for axis in ints(value, what):
        if not -rank <= axis < max(rank, 1):
            raise TfliteImportError(f"{what} {axis} is out of range for a tensor of rank {rank}")
        axes.append(axis % rank if rank else 0)
    return axes


def out_name(imp: Importer, op: Operator, k: int = 0) -> str:
    """A new SSA name for output ``k`` of ``op``, from its tensor name."""
    return imp.name(op.output_name(k), op.builtin.lower())


def float_tensor(imp: Importer, value: Value, what: str) -> Tensor:
    """A run-time float32 input (known ones are left to the caller)."""
    if not isinstance(value, Tensor):
        raise TfliteImportError(f"{what} must be computed at run time")
    if imp.dtype(value) != np.float32:
        raise TfliteImportError(f"{what} is a {imp.dtype(value)} tensor; this operator takes float32")
    return value


def activation_kind(op: Operator) -> str:
    """The name of ``op``'s fused activation (``NONE``, ``RELU``, ...)."""
    code = op.option("fusedActivationFunction", 0)
    names = {v: k for k, v in vars(schema().ActivationFunctionType).items() if not k.startswith("_")}
    return names.get(code, str(code))


def fused(imp: Importer, op: Operator, value: SSAValue, name: str) -> SSAValue:
    """``value`` through ``op``'s fused activation, as the nn op that follows it (float)."""
    kind = activation_kind(op)
    b = imp.b
    if kind == "NONE":
        return value
    if kind == "RELU":
        return b.relu(value, name)
    if kind == "RELU6":
        return b.clamp(value, 0.0, 6.0, name)
    if kind == "RELU_N1_TO_1":
        return b.clamp(value, -1.0, 1.0, name)
    if kind == "TANH":
        return b.tanh(value, name)
    raise TfliteImportError(f"fused activation {kind} is not supported")


def activated(imp: Importer, op: Operator, value: SSAValue) -> SSAValue:
    """``value``, the result of ``op`` before its fused activation, through the activation,
    which takes the output tensor's name (see :func:`pre_activation_name`)."""
    return value if activation_kind(op) == "NONE" else fused(imp, op, value, out_name(imp, op))


def pre_activation_name(imp: Importer, op: Operator) -> str | None:
    """The result name of an op followed by its fused activation: none of its own then (the
    activation takes the tensor's name)."""
    return None if activation_kind(op) != "NONE" else out_name(imp, op)


def same_padding(size: int, kernel: int, stride: int, dilation: int) -> tuple[int, int]:
    """TFLite's SAME padding of one axis (``ComputePaddingWithOffset``): the output is
    ``ceil(size / stride)`` long, the extra pad element goes after."""
    out = -(-size // stride)
    total = max((out - 1) * stride + (kernel - 1) * dilation + 1 - size, 0)
    return total // 2, total - total // 2


def window_pads(op: Operator, hw: Sequence[int], kernel: Sequence[int], strides: Sequence[int],
                dilations: Sequence[int] = (1, 1)) -> tuple[int, int, int, int]:  # fmt: skip
    """(top, left, bottom, right) of ``op``'s ``padding`` option (SAME or VALID)."""
    padding = op.option("padding", 0)
    if padding == schema().Padding.VALID:
        return (0, 0, 0, 0)
    if padding != schema().Padding.SAME:
        raise TfliteImportError(f"padding {padding} is neither SAME nor VALID")
    (top, bottom), (left, right) = (same_padding(s, k, st, d) for s, k, st, d in zip(hw, kernel, strides, dilations))
    return (top, left, bottom, right)


def in_tflm_order(value: SSAValue) -> SSAValue:
    """``value``, the result of an op that adds float32 terms, with its sums asked to follow
    TFLite Micro's reference kernels (``sum_order = "sequential"``), so the interpreters compute
    TFLite Micro's bits."""
    op = value.owner
    assert isinstance(op, nc.SumOrderOp), op
    op.properties["sum_order"] = StringAttr(nc.SEQUENTIAL)
    return value
