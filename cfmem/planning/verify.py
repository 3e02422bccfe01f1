"""An independent check of a memory plan, sharing no code with the planners.

``verify_plan`` accepts a plan only if every buffer has an offset that is a
non-negative multiple of its alignment, ends inside the arena (when its size is
given), and shares no byte with any buffer it conflicts with (see
``problem.conflicts``: live at a common step on some execution path).
Zero-size buffers occupy no bytes and never collide.

The overlap check is a sweep over time. At each step the buffers that stop
being live are removed first (lifetimes are half-open), then each buffer that
becomes live is compared with the live buffers next to it in address order.
Live buffers are kept in groups by branch path; the buffers of one group are
pairwise conflicting, so in a valid plan each group is a set of disjoint byte
ranges in which only the two address neighbours of a new range can overlap
it. A new buffer is checked against every group whose path is compatible with
its own. Without branch paths there is one group and the sweep costs
O(n log n) comparisons.
"""

from __future__ import annotations

import functools
from bisect import bisect_left, insort
from collections.abc import Mapping, Sequence
from operator import index

from cfmem.planning.problem import Buffer, Path, paths_compatible


class PlanError(ValueError):
    """A plan breaks a rule; the message names the buffers involved."""


def _describe(b: Buffer, offset: int) -> str:
    return f"'{b.id}' [{b.start}, {b.end}) bytes [{offset}, {offset + b.size})"


def _check_offsets(buffers: Sequence[Buffer], offsets: Mapping[str, int], arena_size: int | None) -> list[int]:
    seen: set[str] = set()
    resolved: list[int] = []
    for b in buffers:
        if b.id in seen:
            raise PlanError(f"buffer id '{b.id}' appears twice")
        seen.add(b.id)
        if b.id not in offsets:
            raise PlanError(f"buffer '{b.id}' [{b.start}, {b.end}) has no offset")
        try:
            offset = index(offsets[b.id])
        except TypeError:
            raise PlanError(f"buffer '{b.id}' has a non-integer offset {offsets[b.id]!r}") from None
        if offset < 0:
            raise PlanError(f"buffer '{b.id}' has negative offset {offset}")
        if offset % b.align:
            raise PlanError(f"buffer '{b.id}' at offset {offset} is not aligned to {b.align} bytes")
        if arena_size is not None and offset + b.size > arena_size:
            raise PlanError(
                f"buffer {_describe(b, offset)} does not fit in the arena of {arena_size} bytes"
            )
        resolved.append(offset)
    return resolved


def verify_plan(buffers: Sequence[Buffer], offsets: Mapping[str, int], arena_size: int | None = None) -> None:
    """Raise ``PlanError`` unless ``offsets`` is a valid plan for ``buffers``."""
    resolved = _check_offsets(buffers, offsets, arena_size)
    live = [i for i, b in enumerate(buffers) if b.size > 0]
    starts = sorted(live, key=lambda i: buffers[i].start)
    ends = sorted(live, key=lambda i: buffers[i].end)

    # branch path -> its live buffers as sorted (offset, index) pairs; disjoint if all is well
    groups: dict[Path, list[tuple[int, int]]] = {}
    compatible = functools.cache(paths_compatible)
    e = 0
    for i in starts:
        b = buffers[i]
        # stops at the latest at b itself, which is in ``ends`` and ends after it starts
        while buffers[ends[e]].end <= b.start:
            j = ends[e]
            group = groups[buffers[j].path]
            del group[bisect_left(group, (resolved[j], j))]
            if not group:
                del groups[buffers[j].path]
            e += 1
        lo, hi = resolved[i], resolved[i] + b.size
        for path, group in groups.items():
            if path != b.path and not compatible(path, b.path):
                continue
            k = bisect_left(group, (lo, i))
            # the live neighbour below may reach into [lo, hi); the one above may start inside it
            for pos in (k - 1, k):
                if 0 <= pos < len(group):
                    off, j = group[pos]
                    if off < hi and lo < off + buffers[j].size:
                        raise PlanError(
                            f"buffers {_describe(buffers[j], off)} and {_describe(b, lo)}"
                            " are live together and overlap"
                        )
        insort(groups.setdefault(b.path, []), (lo, i))
