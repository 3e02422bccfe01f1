"""What every importer shares: the imported model it hands back (:class:`ImportedModel`), the
SSA names it derives from the model's tensor names (:func:`ssa_name`), the weight blob's bytes
and the ``nn.global`` that reads them from a file next to the module, and when a loop body must
yield a copy of one of its arguments.

Assumptions: the module holds one ``nn.global`` blob (the :class:`~cfmem.builder.GraphBuilder`'s),
and the blob's parts are arrays of little-endian-storable dtypes at offsets inside it.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, StringAttr, i64
from xdsl.ir import BlockArgument, SSAValue

from cfmem.dialects.nn_weights import GlobalOp


@dataclass
class ImportedModel:
    module: ModuleOp
    blob: bytes
    """The weight blob's bytes (the module's ``nn.global`` reads them from ``blob_file``)."""
    blob_file: str
    folded_ifs: int
    kept_ifs: int


def ssa_name(model_name: str, fallback: str = "t") -> str:
    """The SSA name cfmem gives a model's tensor: its ASCII letters, digits and ``$.-``, others ``_``."""
    base = re.sub(r"[^\w$.-]", "_", model_name, flags=re.ASCII).strip("_.") or fallback
    if base[0].isdigit():
        base = f"t{base}"
    while re.search(r"_\d+$", base):  # printers treat _<digits> as their own suffix
        base = re.sub(r"_(\d+)$", r"\1", base)
    return base


def unused_ssa_name(model_name: str, taken: set[str], also_taken: Collection[str], fallback: str = "t") -> str:
    """``ssa_name(model_name)``, suffixed ``v1``, ``v2``... until it is in neither ``taken``
    nor ``also_taken``; added to ``taken``."""
    base = ssa_name(model_name, fallback)
    candidate, k = base, 1
    while candidate in taken or candidate in also_taken:
        candidate, k = f"{base}v{k}", k + 1
    taken.add(candidate)
    return candidate


def blob_bytes(size: int, parts: Sequence[tuple[int, np.ndarray]]) -> bytes:
    """A blob of ``size`` bytes holding each array of ``parts`` at its offset, little-endian."""
    data = bytearray(size)
    for offset, array in parts:
        raw = np.ascontiguousarray(array, dtype=array.dtype.newbyteorder("<")).tobytes()
        data[offset : offset + len(raw)] = raw
    return bytes(data)


def point_blob_at_file(module: ModuleOp, blob_file: str) -> None:
    """Make the module's ``nn.global`` read ``blob_file`` (a path relative to the module file)
    from its start, instead of the builder's seeded random values; the module is verified."""
    for op in module.ops:
        if isinstance(op, GlobalOp):
            for prop in ("seed", "scale"):
                op.properties.pop(prop, None)
            op.properties["file"] = StringAttr(blob_file)
            op.properties["file_offset"] = IntegerAttr(0, i64)
    module.verify()


def moves_argument(value: SSAValue, arg: SSAValue) -> bool:
    """Whether a loop body yielding ``value`` in place of its argument ``arg`` moves another
    argument of the same body to that position: nn-lower-to-memref refuses values carried
    between positions, so the body must yield a copy (a same-type ``nn.cast``) instead."""
    return value is not arg and isinstance(value, BlockArgument) and value.owner is arg.owner
