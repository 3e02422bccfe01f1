"""Writing a model's object tree back to a ``.tflite`` flatbuffer, and comparing two trees.

``pack_model`` serializes a ``ModelT`` with the schema's object API (``ModelT.Pack`` into a
``flatbuffers.Builder``), except that every buffer's data starts at a multiple of 16 bytes
in the file, as the schema asks (``Buffer.data: [ubyte] (force_align: 16)``) and as TFLite
Micro's kernels assume of constant tensors; Python's generated ``BufferT.Pack`` ignores
``force_align``. Fields the schema of the installed ``tflite-micro`` package does not know
cannot be carried over: the object tree holds only the fields it has.

``tree_differences`` compares two object trees field by field (numpy vectors by dtype,
shape and bytes; floats by value, NaN equal to NaN) and names where they differ.
"""

from __future__ import annotations

import copy
import math
from typing import Any

import flatbuffers
import numpy as np

from cfmem.tflite.model_file import FILE_IDENTIFIER, schema

BUFFER_ALIGNMENT = 16
"""The schema's ``force_align`` of ``Buffer.data``."""


def pack_model(model: Any) -> bytes:
    """``model`` (a ``ModelT``) as the bytes of a ``.tflite`` file."""
    packing = copy.copy(model)  # the caller's tree keeps its own buffer objects
    packing.buffers = None if model.buffers is None else [_AlignedBuffer(b) for b in model.buffers]
    size = sum(0 if b.data is None else len(b.data) for b in model.buffers or [])
    builder = flatbuffers.Builder(size + 1024 * 1024)
    builder.Finish(packing.Pack(builder), file_identifier=FILE_IDENTIFIER)
    return bytes(builder.Output())


class _AlignedBuffer:
    """A ``BufferT`` packed with its data 16-byte aligned in the file."""

    def __init__(self, buffer: Any):
        self.buffer = buffer

    def Pack(self, builder: flatbuffers.Builder) -> int:  # noqa: N802 - the object API's name
        s = schema()
        data = None
        if self.buffer.data is not None:
            data = _aligned_bytes(builder, np.asarray(self.buffer.data, dtype=np.uint8).tobytes())
        s.BufferStart(builder)
        if data is not None:
            s.BufferAddData(builder, data)
        s.BufferAddOffset(builder, self.buffer.offset)
        s.BufferAddSize(builder, self.buffer.size)
        return s.BufferEnd(builder)


def _aligned_bytes(builder: flatbuffers.Builder, payload: bytes) -> int:
    """A ``[ubyte]`` vector whose first byte lies at a multiple of ``BUFFER_ALIGNMENT``
    (what ``CreateNumpyVector`` does, with the alignment the schema asks for)."""
    builder.StartVector(1, len(payload), BUFFER_ALIGNMENT)
    builder.head -= len(payload)
    builder.Bytes[builder.head : builder.head + len(payload)] = payload
    return builder.EndVector()


def tree_differences(expected: Any, actual: Any, where: str = "model", limit: int = 10) -> list[str]:
    """Where ``actual`` differs from ``expected``, field by field (at most ``limit`` places)."""
    found: list[str] = []
    _compare(expected, actual, where, found, limit)
    return found


def _compare(a: Any, b: Any, where: str, found: list[str], limit: int) -> None:
    if len(found) >= limit:
        return
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a_array, b_array = np.asarray(a), np.asarray(b)
        if a_array.shape != b_array.shape or a_array.tobytes() != b_array.tobytes():
            found.append(f"{where}: {_short(a)} != {_short(b)}")
        return
    if type(a) is not type(b):
        found.append(f"{where}: {type(a).__name__} != {type(b).__name__}")
        return
    if isinstance(a, list):
        if len(a) != len(b):
            found.append(f"{where}: {len(a)} entries != {len(b)} entries")
            return
        for i, (x, y) in enumerate(zip(a, b)):
            _compare(x, y, f"{where}[{i}]", found, limit)
        return
    if hasattr(a, "__dict__"):
        for field in sorted(set(vars(a)) | set(vars(b))):
            _compare(getattr(a, field, None), getattr(b, field, None), f"{where}.{field}", found, limit)
        return
    if isinstance(a, float) and math.isnan(a) and math.isnan(b):
        return
    if a != b:
        found.append(f"{where}: {_short(a)} != {_short(b)}")


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
