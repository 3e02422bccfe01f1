"""Bytes of ``nn.global`` weight blobs, and typed arrays of views into them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    Signedness,
    TensorType,
)
from xdsl.ir import Attribute

from cfmem.dialects.nn_weights import GlobalOp
from cfmem.errors import CfmemError
from cfmem.files import note_input


class WeightError(CfmemError):
    """A blob's bytes cannot be had (missing or short file)."""


def numpy_dtype(element_type: Attribute) -> np.dtype:
    """Little-endian numpy dtype of an element type; i1 is stored as bool; signless and
    signed integers are signed, unsigned ones (ui8) unsigned."""
    if isinstance(element_type, Float32Type):
        return np.dtype("<f4")
    if isinstance(element_type, Float16Type):
        return np.dtype("<f2")
    if isinstance(element_type, Float64Type):
        return np.dtype("<f8")
    if isinstance(element_type, IntegerType):
        width = element_type.width.data
        if width == 1:
            return np.dtype(np.bool_)
        kind = "u" if element_type.signedness.data == Signedness.UNSIGNED else "i"
        return np.dtype(f"<{kind}{max(1, width // 8)}")
    raise ValueError(f"unsupported element type {element_type}")


def dense_to_array(attr: DenseIntOrFPElementsAttr) -> np.ndarray:
    """A dense elements attribute as an array of its own shape and dtype."""
    ty = attr.type
    assert isinstance(ty, TensorType)
    dtype = numpy_dtype(ty.get_element_type())
    values = attr.get_values()
    shape = tuple(ty.get_shape())
    return np.array(values, dtype=dtype).reshape(shape) if len(values) != 1 else np.full(shape, values[0], dtype=dtype)


def seeded_bytes(seed: int, scale: float, size: int) -> bytes:
    """The deterministic content of a ``seed(S) scale(X)`` blob.

    f32 values uniform in [-scale, scale] from numpy's default generator,
    padded with zero bytes to ``size``.
    """
    values = np.random.default_rng(seed).uniform(-scale, scale, size // 4).astype("<f4")
    return values.tobytes().ljust(size, b"\0")


def blob_bytes(glob: GlobalOp, base_dir: Path | None) -> np.ndarray:
    """The ``size`` bytes of blob ``glob`` as a read-only uint8 array.

    ``file(...)`` names are resolved relative to ``base_dir`` (the directory
    of the model file).
    """
    size = glob.size.value.data
    name = glob.sym_name.data
    if glob.seed is not None:
        scale = glob.scale.value.data if glob.scale is not None else 1.0
        raw = seeded_bytes(glob.seed.value.data, scale, size)
    elif glob.data is not None:
        raw = dense_to_array(glob.data).tobytes()
    else:
        assert glob.file is not None and glob.file_offset is not None
        path = (base_dir or Path(".")) / glob.file.data
        offset = glob.file_offset.value.data
        note_input(path)
        try:
            with open(path, "rb") as f:
                f.seek(offset)
                raw = f.read(size)
        except OSError as err:
            raise WeightError(f"blob @{name}: cannot read: {err.strerror}", str(path)) from err
        if len(raw) != size:
            raise WeightError(
                f"blob @{name}: the file holds {len(raw)} bytes at offset {offset}, expected {size}", str(path)
            )
    array = np.frombuffer(raw, dtype=np.uint8)
    array.flags.writeable = False
    return array


def view_array(blob: np.ndarray, offset: int, result_type: TensorType) -> np.ndarray:
    """The typed tensor ``result_type`` read from ``blob`` at byte ``offset``."""
    dtype = numpy_dtype(result_type.get_element_type())
    shape = tuple(result_type.get_shape())
    count = int(np.prod(shape))
    return np.frombuffer(blob, dtype=dtype, count=count, offset=offset).reshape(shape)
