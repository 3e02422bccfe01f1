"""Weight bytes kept in a binary file beside a module, checked to belong to it.

A flat module does not embed its weights: each blob is a ``memref.global`` that
names the file, the byte offset and the SHA-256 of its bytes (see
``cfmem.interp.weights.external_global``). Whoever runs the module maps the file
(numpy, copy-on-write) after checking that it holds those bytes, so a module is
never run with the weights of another model, an older import or a short file.

Free of xDSL: the upstream-MLIR worker reads weights through this module too.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numpy as np

FILE_ATTR = "cfmem.weights_file"
"""The weight file, relative to the directory of the module that names it."""
OFFSET_ATTR = "cfmem.weights_offset"
"""Where the global's bytes start in the file."""
SHA256_ATTR = "cfmem.weights_sha256"
"""The SHA-256 (hex) of the global's bytes."""

_CHUNK = 1 << 24

_verified: set[tuple] = set()
"""Files already hashed in this process, by identity and modification time (a rewrite rehashes)."""


class WeightFileError(Exception):
    """A weight file that cannot be read or does not hold the bytes its module expects."""

    def __init__(self, message: str, path: str):
        super().__init__(f"{path}: {message}")
        self.message = message
        self.path = path


def sha256_of(data: np.ndarray | bytes | memoryview) -> str:
    """The SHA-256 (hex) of ``data``'s bytes, hashed in chunks (no copy of a big array)."""
    view = memoryview(data).cast("B")
    digest = hashlib.sha256()
    for start in range(0, len(view), _CHUNK):
        digest.update(view[start : start + _CHUNK])
    return digest.hexdigest()


def map_checked(path: str | os.PathLike, offset: int, size: int, sha256: str) -> np.ndarray:
    """The ``size`` bytes of ``path`` at ``offset`` as a writable, copy-on-write uint8 map.

    Raises WeightFileError (one line, naming the file) when the file cannot be
    read, is too short, or its bytes there do not hash to ``sha256``. Writes to
    the array never reach the file.
    """
    shown = os.fspath(path)
    try:
        st = os.stat(shown)
    except OSError as err:
        raise WeightFileError(f"cannot read the weight file: {err.strerror}", shown) from None
    length = st.st_size
    if length < offset + size:
        raise WeightFileError(
            f"the weight file holds {length:,} bytes, the module needs {size:,} at offset {offset:,}"
            " (is it the weight file of this module?)",
            shown,
        )
    if size == 0:
        return np.zeros(0, np.uint8)
    try:
        data = np.memmap(shown, dtype=np.uint8, mode="c", offset=offset, shape=(size,))
    except OSError as err:
        raise WeightFileError(f"cannot map the weight file: {err.strerror}", shown) from None
    data = data.view(np.ndarray)
    key = (st.st_dev, st.st_ino, st.st_mtime_ns, length, offset, size, sha256)
    if key in _verified:
        return data
    found = sha256_of(data)
    if found == sha256:
        _verified.add(key)
    else:
        raise WeightFileError(
            f"the weight file's {size:,} bytes at offset {offset:,} are not the module's"
            f" (SHA-256 {found[:12]}..., the module expects {sha256[:12]}...): it belongs to another model or import",
            shown,
        )
    return data


def resolve(name: str, base_dir: str | os.PathLike | None) -> Path:
    """Where a module in ``base_dir`` (None: the current directory) finds weight file ``name``."""
    return Path(base_dir or ".") / name
