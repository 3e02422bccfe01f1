"""Axis orders of run-time tensors: a TFLite tensor held by cfmem in another order.

TFLite's images are NHWC and nn's convolutions and pooling read NCHW. A run-time value of the
import (:class:`Tensor`) holds the TFLite tensor's elements transposed by ``perm``: axis ``i``
of the SSA value is axis ``perm[i]`` of the TFLite tensor (``None``: the TFLite order). A
convolution's result stays NCHW (``NCHW``), the ops after it (activations, elementwise ops,
pooling, reductions, TFLite's TRANSPOSE) keep or compose the order, and the value returns to the
TFLite order only where an op needs it (a reshape, a model output, a control-flow boundary).

A change of order whose axes longer than 1 keep their relative order moves no element: it is an
``nn.reshape``; any other is an ``nn.transpose``.

Assumptions: ``perm`` is a permutation of the tensor's axes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.ir import SSAValue

from cfmem.builder import GraphBuilder

Perm = tuple[int, ...]

NCHW: Perm = (0, 3, 1, 2)
"""An NHWC tensor held as NCHW."""


@dataclass(frozen=True)
class Tensor:
    """A TFLite tensor computed at run time: ``value`` holds its elements in the order ``perm``
    (see the module docstring); ``pads`` are zero pads (top, left, bottom, right) of an NHWC
    tensor's H and W not yet applied, which a convolution reading the tensor takes into its own
    padding (any other reader applies them)."""

    value: SSAValue
    perm: Perm | None = None
    pads: tuple[int, int, int, int] | None = None


def inverse(perm: Sequence[int]) -> Perm:
    result = [0] * len(perm)
    for i, p in enumerate(perm):
        result[p] = i
    return tuple(result)


def logical_shape(b: GraphBuilder, t: Tensor) -> tuple[int, ...]:
    """The TFLite shape of ``t`` (its pending pads not applied)."""
    shape = b.shape(t.value)
    if t.perm is None:
        return shape
    return tuple(shape[i] for i in inverse(t.perm))


def moving(perm_from: Perm | None, perm_to: Perm | None, rank: int) -> Perm:
    """The transpose that takes a value held in order ``perm_from`` to order ``perm_to``."""
    source = inverse(perm_from) if perm_from is not None else tuple(range(rank))
    target = perm_to if perm_to is not None else tuple(range(rank))
    return tuple(source[t] for t in target)


def moves_elements(shape: Sequence[int], perm: Sequence[int]) -> bool:
    """Whether transposing a tensor of ``shape`` by ``perm`` changes its elements' order (the
    axes longer than 1 change their relative order)."""
    long_axes = [axis for axis in perm if shape[axis] != 1]
    return long_axes != sorted(long_axes)


def reorder(b: GraphBuilder, value: SSAValue, perm: Sequence[int], name: str | None) -> SSAValue:
    """``value`` transposed by ``perm``: nothing, an ``nn.reshape`` or an ``nn.transpose``."""
    shape = b.shape(value)
    if tuple(perm) == tuple(range(len(shape))):
        return value
    if not moves_elements(shape, perm):
        return b.reshape(value, [shape[p] for p in perm], name)
    return b.transpose(value, perm, name)


def composed(perm: Perm | None, transpose: Sequence[int]) -> Perm | None:
    """The order in which a value held in order ``perm`` holds TFLite's TRANSPOSE of it by
    ``transpose`` (no element moves); ``None`` when that is the TFLite order."""
    rank = len(transpose)
    held = perm if perm is not None else tuple(range(rank))
    position = inverse(transpose)
    result = tuple(position[axis] for axis in held)
    return None if result == tuple(range(rank)) else result


def along(array: np.ndarray, rank: int, perm: Perm | None) -> np.ndarray:
    """A known operand of an elementwise op broadcast against a rank-``rank`` tensor held in order
    ``perm`` (``array`` of rank ``rank`` at most): brought to that rank (leading ones) and
    transposed the same way; one element broadcasts alike in every order."""
    if perm is None or array.size == 1:
        return array
    return np.ascontiguousarray(array.reshape((1,) * (rank - array.ndim) + array.shape).transpose(perm))


def physical_axes(axes: Sequence[int], perm: Perm | None) -> list[int]:
    """Where the TFLite axes ``axes`` (normalized) lie in a value held in order ``perm``."""
    if perm is None:
        return list(axes)
    return [perm.index(a) for a in axes]


def after_reduction(perm: Perm | None, axes: Sequence[int], keepdims: bool) -> Perm | None:
    """The order of a reduction's result over TFLite ``axes`` of a value held in order ``perm``."""
    if perm is None or keepdims:
        return perm
    kept = [a for a in range(len(perm)) if a not in axes]
    result = tuple(kept.index(a) for a in perm if a not in axes)
    return None if result == tuple(range(len(result))) else result
