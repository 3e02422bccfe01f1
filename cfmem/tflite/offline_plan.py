"""TFLite Micro's offline memory plan: the ``OfflineMemoryAllocation`` metadata entry.

The entry names a buffer of little-endian int32: ``[version, subgraphs, n, offset_0, ...,
offset_{n-1}]``, one offset per tensor of every subgraph in TFLM's order (subgraph by
subgraph), each a byte offset from the start of the arena's head or ``-1`` for "plan this
tensor online". TFLM ignores the first two words; it refuses a plan whose ``n`` is not the
model's tensor count, takes the offsets of the tensors it places in the arena as they are,
without checking them, and plans the rest (the ``-1`` entries and every scratch buffer its
kernels ask for) online around them. If several entries carry the name, the last one counts.

``planned_model`` writes a plan into a model, and refuses, before anything is written, a
plan cfmem's verifier rejects: one whose tensors overlap while live, or are misaligned. The
one overlap it accepts is a RESHAPE's output at its input's offset (``aliases``).
Everything but the entry and its buffer is left as it was, which the written bytes are
checked for by reading them back.

Variable tensors keep ``-1``: TFLM gives them a persistent place of their own. Its
``AllocateVariables`` reads a variable's entry at the tensor's index *within its
subgraph*, so a variable of a later subgraph would see another tensor's entry; such a
model is refused rather than written into a plan TFLM would misread.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

from cfmem.errors import CfmemError
from cfmem.planning.verify import PlanError, verify_plan
from cfmem.tflite.aliases import aliased_problem, reshape_aliases, taken_aliases
from cfmem.tflite.lifetimes import ArenaTensor, arena_problem
from cfmem.tflite.model_file import parse_tflite, schema
from cfmem.tflite.repack import pack_model, tree_differences

METADATA_NAME = b"OfflineMemoryAllocation"
FORMAT_VERSION = 1
ONLINE = -1
"""``kOnlinePlannedBuffer``: the entry of a tensor TFLM plans itself."""
INT32_MAX = 2**31 - 1


class OfflinePlanError(CfmemError):
    """A plan cfmem will not write into a model, or an entry it cannot read."""


def plan_entries(tensors: list[ArenaTensor], offsets: dict[str, int]) -> list[int]:
    """One entry per tensor: its offset if TFLM places it in the arena, else ``-1``."""
    return [offsets[t.buffer_id] if t.planned else ONLINE for t in tensors]


def encode_plan(entries: list[int], subgraphs: int) -> bytes:
    """The buffer of the metadata entry."""
    return np.array([FORMAT_VERSION, subgraphs, len(entries), *entries], dtype="<i4").tobytes()


def decode_plan(data: bytes | np.ndarray) -> list[int]:
    """The offsets of an entry's buffer (one-line error if it is malformed)."""
    raw = np.asarray(data, dtype=np.uint8).tobytes() if not isinstance(data, bytes) else data
    if len(raw) % 4 or len(raw) < 12:
        raise OfflinePlanError(f"offline plan of {len(raw)} bytes: not a header of three int32 and offsets")
    words = np.frombuffer(raw, dtype="<i4")
    count = int(words[2])
    if count != len(words) - 3:
        raise OfflinePlanError(f"offline plan announces {count} offsets but holds {len(words) - 3}")
    return [int(w) for w in words[3:]]


def plan_metadata(model: Any) -> list[int]:
    """Indices (into ``model.metadata``) of the entries named ``OfflineMemoryAllocation``."""
    return [k for k, entry in enumerate(model.metadata or []) if _name(entry.name) == METADATA_NAME]


def read_plan(model: Any) -> list[int] | None:
    """The offsets of the model's offline plan as TFLM reads them (the last entry), or None."""
    entries = plan_metadata(model)
    if not entries:
        return None
    buffer = model.metadata[entries[-1]].buffer
    if not 0 <= buffer < len(model.buffers or []) or model.buffers[buffer].data is None:
        raise OfflinePlanError(f"the OfflineMemoryAllocation entry names buffer {buffer}, which holds no data")
    return decode_plan(model.buffers[buffer].data)


def planned_model(model: Any, tensors: list[ArenaTensor], offsets: dict[str, int]) -> bytes:
    """The bytes of ``model`` with ``offsets`` as its offline plan, replacing any plan it had.

    ``tensors`` are ``arena_tensors(model)``. Nothing is returned for a plan the verifier
    rejects or TFLM would misread: ``OfflinePlanError``, one line. A RESHAPE's output at
    its input's offset is checked as one buffer with it (``aliases``); any other overlap of
    live tensors is refused.
    """
    problem = aliased_problem(arena_problem(tensors), taken_aliases(offsets, reshape_aliases(model, tensors)))
    try:
        verify_plan(problem.buffers, offsets)
    except PlanError as err:
        raise OfflinePlanError(f"refusing to write a wrong plan: {_named(err, tensors)}") from None
    entries = plan_entries(tensors, offsets)
    too_far = [e for e in entries if e > INT32_MAX]
    if too_far:
        raise OfflinePlanError(f"offset {too_far[0]} does not fit the plan's int32 entries")
    _check_variable_entries(tensors, entries)

    written = with_plan(model, encode_plan(entries, len(model.subgraphs)))
    data = pack_model(written)
    differences = tree_differences(written, parse_tflite(data, "the planned model"))
    if differences:
        raise OfflinePlanError(f"the written model does not read back as planned (a bug in cfmem): {differences[0]}")
    return data


def with_plan(model: Any, plan: bytes) -> Any:
    """A copy of ``model`` (sharing what is unchanged) whose one ``OfflineMemoryAllocation``
    entry holds ``plan``: an existing entry's buffer is reused when nothing else names it,
    else the plan takes a new buffer at the end; other entries of the name are dropped."""
    s = schema()
    written = copy.copy(model)
    written.buffers = list(model.buffers or [])
    written.metadata = list(model.metadata or [])
    old = plan_metadata(model)
    keep = old[-1] if old and not _shared(model, model.metadata[old[-1]].buffer, old) else None
    buffer = s.BufferT()
    buffer.data = np.frombuffer(plan, dtype=np.uint8).copy()
    entry = s.MetadataT()
    entry.name = METADATA_NAME
    if keep is not None:
        entry.buffer = model.metadata[keep].buffer
        written.buffers[entry.buffer] = buffer
        written.metadata[keep] = entry
    else:
        entry.buffer = len(written.buffers)
        written.buffers.append(buffer)
        written.metadata.append(entry)
    written.metadata = [m for k, m in enumerate(written.metadata) if k == keep or k not in old]
    return written


def _shared(model: Any, buffer: int, plan_entries_at: list[int]) -> bool:
    """Whether anything but the plan entries names ``buffer``."""
    if not 0 <= buffer < len(model.buffers or []) or buffer == 0:
        return True
    named = {int(b) for b in model.metadataBuffer} if model.metadataBuffer is not None else set()
    named |= {m.buffer for k, m in enumerate(model.metadata or []) if k not in plan_entries_at}
    named |= {t.buffer for sg in model.subgraphs for t in sg.tensors or []}
    return buffer in named


def _check_variable_entries(tensors: list[ArenaTensor], entries: list[int]) -> None:
    for t in tensors:
        if t.kind == "variable" and t.subgraph > 0 and entries[t.index] != ONLINE:
            other = tensors[t.index]
            raise OfflinePlanError(
                f"variable tensor {t.index} '{t.name}' of subgraph {t.subgraph}: TFLite Micro reads a variable's"
                f" plan entry at its index within its subgraph, which is the entry of tensor {other.index}"
                f" '{other.name}' of subgraph {other.subgraph}, and would misplace the variable"
            )


def _named(err: PlanError, tensors: list[ArenaTensor]) -> str:
    """The verifier's message with each buffer id followed by its tensor's name."""
    text = str(err)
    for t in tensors:
        text = text.replace(f"'{t.buffer_id}'", f"'{t.buffer_id}' ({t.name})")
    return text


def _name(name: Any) -> bytes:
    return name if isinstance(name, bytes) else str(name or "").encode()
