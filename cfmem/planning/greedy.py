"""Greedy placement: take the buffers in some order, give each the best offset left.

Six strategies share one engine and differ in order and in the choice of gap:

- ``plan_sequential``: execution order (start, then id), first fit.
- ``plan_large_first``: size descending (ties: longer lifetime, earlier start,
  id), first fit; the paper's large-tensor-first ordering.
- ``plan_short_first``: lifetime ascending (ties: larger size, earlier start,
  id), first fit; the paper's short-lifetime-first ordering.
- ``plan_best_fit``: the order of ``plan_large_first``, but each buffer goes to
  the smallest free gap that holds it (lowest on ties), else on top of
  everything it conflicts with: the "greedy by size" offset planner of
  Pisarchyk and Lee (TFLite GPU).
- ``plan_tflm``: TFLite Micro's ``GreedyMemoryPlanner``: size descending, ties
  in reverse problem order (it fills its sort array from the tail and
  bubble-sorts it stably), first fit.
- ``plan_by_size``: size descending, ties in problem order, first fit: the
  same rule with the opposite tie, as omnimalloc's ``greedy_by_size`` and
  other stable-sort ports of TFLite Micro's planner break it. On traces with
  many equal sizes the tie decides: 0.76 % vs 14.5 % above the bound on
  idealloc's pangu_2.6B trace.

First fit is the paper's Algorithm 1: the lowest offset, a multiple of the
buffer's alignment, at which the buffer overlaps none of the already placed
buffers it conflicts with. Ids compare in natural order ("t2" < "t10").
Zero-size buffers get offset 0.

A buffer must only be compared with the placed buffers whose lifetimes overlap
its own; comparing with all of them is quadratic. ``_TimeIndex`` finds the
overlapping ones as two runs of numpy arrays (see there), and the gap searches
run on those arrays in numpy.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from cfmem.gc_pause import cyclic_gc_paused
from cfmem.planning.problem import Buffer, Placement, PlanOptions, Problem, paths_compatible

_DIGITS = re.compile(r"(\d+)")


def natural_key(text: str) -> tuple:
    """Sort key that compares runs of digits as numbers."""
    if text.isdigit():
        return ("", int(text), "")  # what the general case gives, faster
    parts: list = _DIGITS.split(text)
    parts[1::2] = [int(p) for p in parts[1::2]]
    return tuple(parts)


# --------------------------------------------------------------------------
# Gap searches over the byte ranges [lo[k], hi[k]) a buffer must miss


def _gap_search(starts: np.ndarray, ends: np.ndarray, size: int, align: int, best_fit: bool, never: int) -> int:
    """Offset for ``size`` bytes next to byte ranges given by their starts and
    their ends, each sorted on its own (not as pairs).

    First fit: the lowest multiple of ``align`` where the bytes miss every
    range. Best fit: the aligned start of the smallest free gap that holds
    them, lowest on ties. Either way the aligned top of all ranges if no gap
    below holds them. ``never`` is larger than any gap.

    With the starts ``s`` and the ends ``e`` of the ranges sorted on their
    own, the free gaps of their union are ``[0, s[0])`` and the non-empty
    ``[e[k], s[k+1])``: below ``s[k+1]`` at most k + 1 ranges start, and by
    ``e[k]`` at least k + 1 have ended. So a gap search needs two sorts.
    """
    if align > 1:
        ends = -(-ends // align) * align
    below = starts[0]  # the gap [0, s[0]), from 0, which every alignment divides
    room = starts[1:] - ends[:-1]
    if best_fit:
        room[room < size] = never
        k = int(room.argmin()) if room.size else 0  # argmin: the first, lowest, of the smallest
        smallest = room[k] if room.size else never
        if size <= below <= smallest:
            return 0
        return int(ends[k] if smallest < never else ends[-1])
    if below >= size:
        return 0
    fits = room >= size
    k = int(fits.argmax()) if room.size else 0
    return int(ends[k] if room.size and fits[k] else ends[-1])


# --------------------------------------------------------------------------
# The time index

_BLOCK_MIN = 512
"""Fewest compressed steps in one block of ``_TimeIndex``."""
_COPIES_PER_BUFFER = 8
"""Blocks grow until the copies at block boundaries are at most this many per buffer."""
_INT64_SAFE = 1 << 62


class _TimeIndex:
    """The placed buffers in numpy arrays, found by time with a few slices.

    Steps are compressed to slots and cut into blocks of ``block`` slots. The
    placed buffers that overlap a lifetime ``[s, e)`` in block ``k`` are

    - those starting in ``[first slot of k, e)`` and ending after ``s``: a run
      of the buffers sorted by start (all buffers have their place there, the
      unplaced ones end at -1 and so never count), and
    - those that started before block ``k`` and end after ``s``: each block
      keeps, in a row of its own, a copy of every placed buffer live across
      its first slot (a long buffer is copied into every block it spans).

    Both runs are filtered by end, and by branch path when there are several,
    in numpy. Bytes are int64 unless the sizes could overflow it, then
    Python integers (object arrays).
    """

    def __init__(self, order: list[Buffer]):
        count = len(order)
        self._placed = 0
        starts = np.fromiter((b.start for b in order), np.int64, count)
        ends = np.fromiter((b.end for b in order), np.int64, count)
        times, slots = np.unique(np.concatenate([starts, ends]), return_inverse=True)
        first, last = slots[:count], slots[count:]
        by_start = np.argsort(first, kind="stable")
        rank = np.empty(count, np.int64)
        rank[by_start] = np.arange(count)
        first_sorted = first[by_start]

        block = _BLOCK_MIN
        while True:  # boundary copies: buffer j sits in blocks first[j] // block + 1 .. (last[j] - 1) // block
            lo_block = first // block + 1
            hi_block = (last - 1) // block
            copies = np.maximum(hi_block - lo_block + 1, 0)
            if int(copies.sum()) <= _COPIES_PER_BUFFER * count + len(times) // block:
                break
            block *= 2
        blocks = len(times) // block + 1
        per_block = np.zeros(blocks + 1, np.int64)
        spans = copies > 0
        np.add.at(per_block, lo_block[spans], 1)
        np.add.at(per_block, hi_block[spans] + 1, -1)
        row_base = np.zeros(blocks + 1, np.int64)
        np.cumsum(np.cumsum(per_block)[:blocks], out=row_base[1:])

        bound = sum(b.size + b.align for b in order)
        dtype = np.int64 if 2 * bound + 2 < _INT64_SAFE else object
        self._never = 2 * bound + 1

        self._paths = list({b.path: None for b in order})
        self._path_ids = {p: k for k, p in enumerate(self._paths)}
        self._compatible: dict[int, np.ndarray] = {}

        # per buffer, in order: its slots, its run of the start-sorted arrays, its block and rows
        own_block = first // block
        self._first = first.tolist()
        self._last = last.tolist()
        self._rank = rank.tolist()
        self._run_lo = np.searchsorted(first_sorted, own_block * block).tolist()
        self._run_hi = np.searchsorted(first_sorted, last).tolist()
        self._row = own_block.tolist()
        self._copies_from = lo_block.tolist()
        self._copies_to = hi_block.tolist()
        self._row_base = row_base.tolist()
        self._row_len = [0] * blocks
        self._block = block

        # the start-sorted arrays and the rows of copies
        total = int(row_base[-1])
        self._end = np.full(count, -1, np.int64)
        self._span = np.zeros((2, count), dtype)
        self._path = np.zeros(count, np.int64)
        self._copy_end = np.zeros(total, np.int64)
        self._copy_span = np.zeros((2, total), dtype)
        self._copy_path = np.zeros(total, np.int64)
        aligns = {b.align for b in order if b.size}
        self._common_align = aligns.pop() if len(aligns) == 1 else 1
        """When every buffer has the same alignment, the recorded tops are rounded up to it
        once (a gap search rounds them anyway) and the searches skip the rounding."""

    def place(self, b: Buffer, best_fit: bool) -> int:
        """Choose the offset of the next buffer in order, ``b``, record it, return it."""
        i = self._placed
        self._placed = i + 1
        size = b.size
        if size == 0:
            return 0  # occupies no bytes, collides with nothing
        s = self._first[i]
        run_lo, run_hi = self._run_lo[i], self._run_hi[i]
        row = self._row[i]
        base = self._row_base[row]
        row_hi = base + self._row_len[row]
        several_paths = len(self._paths) > 1
        if several_paths:
            path = self._path_ids[b.path]
            compatible = self._compatible.get(path)
            if compatible is None:
                compatible = np.array([paths_compatible(b.path, p) for p in self._paths])
                self._compatible[path] = compatible
            in_run = (self._end[run_lo:run_hi] > s) & compatible[self._path[run_lo:run_hi]]
        else:
            in_run = self._end[run_lo:run_hi] > s
        spans = self._span[:, run_lo:run_hi].compress(in_run, axis=1)  # rows: starts, tops
        if base != row_hi:  # buffers copied into this block
            in_row = self._copy_end[base:row_hi] > s
            if several_paths:
                in_row &= compatible[self._copy_path[base:row_hi]]
            spans = np.concatenate((spans, self._copy_span[:, base:row_hi].compress(in_row, axis=1)), axis=1)
        common = self._common_align
        if spans.shape[1]:
            spans.sort(axis=1)
            align = 1 if common > 1 else b.align
            offset = _gap_search(spans[0], spans[1], size, align, best_fit, self._never)
        else:
            offset = 0

        end = self._last[i]
        r = self._rank[i]
        top = offset + size
        if common > 1:
            top = -(-top // common) * common
        self._end[r] = end
        self._span[:, r] = (offset, top)
        if several_paths:
            self._path[r] = path
        first, last = self._copies_from[i], self._copies_to[i]
        if first == last:  # most buffers are copied once or never
            at = self._row_base[first] + self._row_len[first]
            self._row_len[first] += 1
            self._copy_end[at] = end
            self._copy_span[:, at] = (offset, top)
            if several_paths:
                self._copy_path[at] = path
        elif first < last:
            lengths = self._row_len
            at = [self._row_base[k] + lengths[k] for k in range(first, last + 1)]
            for k in range(first, last + 1):
                lengths[k] += 1
            self._copy_end[at] = end
            self._copy_span[0, at] = offset
            self._copy_span[1, at] = top
            if several_paths:
                self._copy_path[at] = path
        return offset


def place_in_order(order: list[Buffer], best_fit: bool = False, give_up_at: int | None = None) -> dict[str, int] | None:
    """Place buffers one by one in ``order``: first fit, or best fit.

    With ``give_up_at``, None as soon as a buffer would end at or above that many
    bytes (the plan could not have a smaller peak)."""
    index = _TimeIndex(order)
    if give_up_at is None:
        return {b.id: index.place(b, best_fit) for b in order}
    offsets: dict[str, int] = {}
    for b in order:
        offset = offsets[b.id] = index.place(b, best_fit)
        if b.size and offset + b.size >= give_up_at:
            return None
    return offsets


# --------------------------------------------------------------------------
# Strategies


def sequential_key(b: Buffer) -> tuple:
    return (b.start, natural_key(b.id))


def large_first_key(b: Buffer) -> tuple:
    return (-b.size, b.start - b.end, b.start, natural_key(b.id))


def short_first_key(b: Buffer) -> tuple:
    return (b.end - b.start, -b.size, b.start, natural_key(b.id))


def tflm_order(buffers: list[Buffer]) -> list[Buffer]:
    """TFLite Micro's order: size descending, ties in reverse problem order.

    ``GreedyMemoryPlanner::CalculateOffsetsIfNeeded`` fills its sort array
    from the tail (the first buffer added ends up last), and
    ``ReverseSortInPlace`` bubble-sorts it by size, descending and stable.
    """
    return sorted(reversed(buffers), key=lambda b: -b.size)


def by_size_order(buffers: list[Buffer]) -> list[Buffer]:
    """Size descending, ties in problem order (a stable sort)."""
    return sorted(buffers, key=lambda b: -b.size)


def _plan(order: list[Buffer], best_fit: bool = False, give_up_at: int | None = None) -> Placement | None:
    # Sorting and placing allocate many small objects that live to the end:
    # the cyclic garbage collector would rescan them over and over for nothing.
    with cyclic_gc_paused():
        offsets = place_in_order(order, best_fit, give_up_at)
    return None if offsets is None else Placement(offsets)


@dataclass(frozen=True)
class GreedyOrder:
    """A greedy strategy: an order of the buffers and a fit rule (first or best).

    ``auto`` reads ``order`` to skip an order another candidate already placed."""

    order: Callable[[list[Buffer]], list[Buffer]]
    best_fit: bool = False

    def __call__(self, problem: Problem, options: PlanOptions) -> Placement:
        placement = self.place(self.order(problem.buffers))
        assert placement is not None
        return placement

    def place(self, order: list[Buffer], give_up_at: int | None = None) -> Placement | None:
        """The placement of ``order`` (None once a buffer would end at or above ``give_up_at``)."""
        return _plan(order, self.best_fit, give_up_at)


plan_sequential = GreedyOrder(lambda buffers: sorted(buffers, key=sequential_key))
"""First fit in execution order."""
plan_large_first = GreedyOrder(lambda buffers: sorted(buffers, key=large_first_key))
"""First fit, largest buffer first."""
plan_short_first = GreedyOrder(lambda buffers: sorted(buffers, key=short_first_key))
"""First fit, shortest lifetime first."""
plan_best_fit = GreedyOrder(lambda buffers: sorted(buffers, key=large_first_key), best_fit=True)
"""Smallest fitting gap, largest buffer first (greedy by size)."""
plan_tflm = GreedyOrder(tflm_order)
"""First fit in TFLite Micro's order (see ``tflm_order``)."""
plan_by_size = GreedyOrder(by_size_order)
"""First fit, size descending, ties in problem order (see ``by_size_order``)."""
