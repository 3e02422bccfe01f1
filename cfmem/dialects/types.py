"""Byte sizes and static shapes of the tensor and memref types cfmem handles."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from contextlib import contextmanager
from math import prod

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    IntegerType,
    MemRefType,
    TensorType,
)
from xdsl.ir import Attribute
from xdsl.utils.exceptions import VerifyException


@functools.cache
def element_bytes(element_type: Attribute) -> int:
    """Storage size of one element; i1 is stored as one byte (computed once per type)."""
    if isinstance(element_type, IntegerType):
        return max(1, (element_type.width.data + 7) // 8)
    if isinstance(element_type, AnyFloat):
        return max(1, (element_type.bitwidth + 7) // 8)
    raise ValueError(f"unsupported element type {element_type}")


def static_shape(ty: Attribute) -> tuple[int, ...]:
    """The shape of a ranked tensor or memref; raises ValueError if dynamic."""
    if not isinstance(ty, TensorType | MemRefType):
        raise ValueError(f"expected a ranked tensor type, got {ty}")
    shape = tuple(ty.get_shape())
    if any(d == DYNAMIC_INDEX or d < 0 for d in shape):
        raise ValueError(f"dynamic shape {ty} is not supported: fix every dimension")
    return shape


@functools.cache
def tensor_bytes(ty: Attribute) -> int:
    """Bytes a value of a static tensor or memref type occupies (types are
    immutable: computed once per type; a dynamic shape raises every time)."""
    assert isinstance(ty, TensorType | MemRefType)
    return prod(static_shape(ty)) * element_bytes(ty.get_element_type())


@contextmanager
def as_verify_error() -> Iterator[None]:
    """Turn the ValueError of a shape or size rule into a verifier error."""
    try:
        yield
    except ValueError as err:
        raise VerifyException(str(err)) from err
