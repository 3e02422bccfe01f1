"""The bytes the flat interpreter runs on, and the errors a run of a wrong plan raises.

A ``Memory`` is one buffer of bytes (a global's, an argument's, an alloca's) with, in
checking mode, the id of the tensor that owns each byte; a ``Ref`` is a memref value, a typed
numpy view at a byte offset of a memory, so two tensors a plan puts on the same bytes really
overwrite each other; a ``Transfer`` is a DMA transfer started and not yet waited for. A
global's bytes come from its initial value or its weight file, or are ``ARENA_FILL``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from xdsl.dialects import memref
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerAttr, MemRefType, StringAttr

from cfmem.interp.footprint import type_bytes
from cfmem.interp.golden import InterpError
from cfmem.interp.weights import WeightError, numpy_dtype
from cfmem.weight_file import FILE_ATTR, OFFSET_ATTR, SHA256_ATTR, WeightFileError, map_checked

UNWRITTEN = -1
ARENA_FILL = 0xFF
"""Fresh arena bytes: all-ones, so an f32 read of never-written bytes is NaN."""
FILLED = np.uint8(ARENA_FILL).view(np.int8)
"""``ARENA_FILL`` as an element of a scratch buffer (i8)."""


class ClobberError(InterpError):
    """The plan let one tensor's bytes be overwritten while still needed."""


class CapacityError(InterpError):
    """The flat module needs more on-chip memory than its function's budget."""


@dataclass(eq=False)
class Memory:
    """One buffer of bytes; ``owner`` (checking mode) holds a tensor id per byte."""

    name: str
    data: np.ndarray
    owner: np.ndarray | None = None
    on_chip: bool = False
    touched: int = 0
    """One past the highest byte written."""
    initial: Callable[[], np.ndarray] | None = None
    """A global's bytes before any run, made again when ``reset`` needs them."""
    written: bool = False
    """Some run wrote into the memory since its last reset."""
    constant: bool = False
    """A constant global: transfers read its bytes in place until something writes it."""

    def reset(self) -> None:
        """Back to the bytes (and owners) a run starts with."""
        if self.written and self.initial is not None:
            self.data[...] = self.initial()
        if self.owner is not None:
            self.owner.fill(UNWRITTEN)
        self.touched, self.written = 0, False


@dataclass(eq=False)
class Ref:
    """A memref value: ``shape`` x ``dtype`` at byte ``offset`` of ``memory``."""

    memory: Memory
    offset: int
    shape: tuple[int, ...]
    dtype: np.dtype
    tensor: str | None = None
    reads: tuple[str, ...] = ()
    """Other tensors whose bytes this view may hold."""
    nbytes: int = field(init=False)
    end: int = field(init=False)
    _array: np.ndarray | None = field(default=None, init=False, repr=False)
    owner_ids: tuple[int, ...] = field(default=(), init=False, repr=False)
    """Checking mode: the ids of ``tensor`` and ``reads`` (set by the interpreter)."""

    def __post_init__(self) -> None:
        self.nbytes = math.prod(self.shape) * self.dtype.itemsize
        self.end = self.offset + self.nbytes

    def array(self) -> np.ndarray:
        """The typed numpy view of the bytes (made once: a memory keeps its buffer)."""
        if self._array is None:
            raw = self.memory.data[self.offset : self.end]
            self._array = raw.view(self.dtype).reshape(self.shape)
        return self._array

    def overlaps(self, other: Ref) -> bool:
        return self.memory is other.memory and self.offset < other.end and other.offset < self.end


@dataclass
class Transfer:
    """A DMA transfer started but not yet waited for."""

    source: np.ndarray
    dest: Ref
    source_memory: Memory | None = None
    source_start: int = 0
    source_owners: np.ndarray | None = None
    """Checking mode, a writable source (a prefetched activation): who owned its bytes at the start."""
    viewed: Memory | None = None
    """The constant memory ``source`` is a view of (copied before anything writes that memory)."""


def _shape_dtype(ty) -> tuple[tuple[int, ...], np.dtype]:
    assert isinstance(ty, MemRefType)
    return tuple(ty.get_shape()), numpy_dtype(ty.get_element_type())


def _global_bytes(op: memref.GlobalOp) -> np.ndarray:
    """The bytes a run finds in global ``op``: its initial value, its weight file
    (mapped copy-on-write, after checking the file holds the module's bytes) or,
    uninitialized, ``ARENA_FILL``."""
    file = op.attributes.get(FILE_ATTR)
    if isinstance(file, StringAttr):
        offset, digest = op.attributes.get(OFFSET_ATTR), op.attributes.get(SHA256_ATTR)
        if not isinstance(offset, IntegerAttr) or not isinstance(digest, StringAttr):
            raise InterpError(f"memref.global @{op.sym_name.data} names a weight file without"
                              f" {OFFSET_ATTR} and {SHA256_ATTR}", op)
        try:
            return map_checked(file.data, offset.value.data, type_bytes(op.type), digest.data)
        except WeightFileError as err:
            raise WeightError(f"weights of @{op.sym_name.data}: {err.message}", err.path) from None
    value = op.initial_value
    if isinstance(value, DenseIntOrFPElementsAttr):
        shape, dtype = _shape_dtype(op.type)
        raw = np.frombuffer(value.data.data, np.uint8)
        if dtype == np.bool_:  # xDSL stores true as 0xff, numpy as 1
            raw = (raw != 0).astype(np.uint8)
        if raw.size == dtype.itemsize and int(np.prod(shape)) != 1:  # a splat
            return np.tile(raw, int(np.prod(shape)))
        return raw.copy()
    shape, dtype = _shape_dtype(op.type)
    return np.full(int(np.prod(shape)) * dtype.itemsize, ARENA_FILL, np.uint8)
