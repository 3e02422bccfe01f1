"""Greedy placement: take the buffers in some order, give each the best offset left.

Four strategies share one engine and differ in order and in the choice of gap:

- ``plan_sequential``: execution order (start, then id), first fit.
- ``plan_large_first``: size descending (ties: longer lifetime, earlier start,
  id), first fit; the paper's large-tensor-first ordering and TFLite Micro's
  ``GreedyMemoryPlanner``.
- ``plan_short_first``: lifetime ascending (ties: larger size, earlier start,
  id), first fit; the paper's short-lifetime-first ordering.
- ``plan_best_fit``: the order of ``plan_large_first``, but each buffer goes to
  the smallest free gap that holds it (lowest on ties), else on top of
  everything it conflicts with: the "greedy by size" offset planner of
  Pisarchyk and Lee (TFLite GPU).

First fit is the paper's Algorithm 1: the lowest offset, a multiple of the
buffer's alignment, at which the buffer overlaps none of the already placed
buffers it conflicts with. Ids compare in natural order ("t2" < "t10").
Zero-size buffers get offset 0.

A buffer must only be compared with the placed buffers whose lifetimes overlap
its own, and in large traces a long-lived buffer overlaps thousands of others,
so comparing one by one is quadratic. Instead, the placed buffers of each
branch path sit in a segment tree over the compressed time axis whose nodes
hold *unions* of byte ranges (merged into disjoint ranges): the bytes in use
during a lifetime are the union of a few such sets (see ``_TimeIndex``), the
lowest free offset is the fixpoint of "skip the range in the way" over them,
and the smallest free gap comes from their sorted starts and ends.
"""

from __future__ import annotations

import gc
import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from itertools import chain
from operator import sub

import numpy as np

from cfmem.planning.problem import Buffer, Path, Placement, PlanOptions, Problem, paths_compatible

Ranges = tuple[list[int], list[int]]
"""Disjoint byte ranges ``[starts[i], ends[i])`` in address order; touching ranges are merged."""

_DIGITS = re.compile(r"(\d+)")


def natural_key(text: str) -> tuple:
    """Sort key that compares runs of digits as numbers."""
    if text.isdigit():
        return ("", int(text), "")  # what the general case gives, faster
    parts: list = _DIGITS.split(text)
    parts[1::2] = [int(p) for p in parts[1::2]]
    return tuple(parts)


# --------------------------------------------------------------------------
# Unions of byte ranges


def _add_range(ranges: Ranges, lo: int, hi: int) -> None:
    """Add ``[lo, hi)`` to the union ``ranges``."""
    starts, ends = ranges
    i = bisect_left(ends, lo)  # first range ending at or after lo: touches or overlaps
    j = bisect_right(starts, hi, i)  # ranges i..j-1 touch or overlap [lo, hi)
    if i == j:
        starts.insert(i, lo)
        ends.insert(i, hi)
        return
    if starts[i] < lo:
        lo = starts[i]
    if ends[j - 1] > hi:
        hi = ends[j - 1]
    if j == i + 1:
        starts[i] = lo
        ends[i] = hi
    else:
        starts[i:j] = [lo]
        ends[i:j] = [hi]


def _merge_into(ranges: Ranges, los: list[int], his: list[int]) -> None:
    """Add the byte ranges ``[los[i], his[i])`` to the union ``ranges``."""
    if len(los) <= 8:
        for lo, hi in zip(los, his):
            _add_range(ranges, lo, hi)
        return
    starts, ends = ranges
    pairs = sorted([*zip(starts, ends), *zip(los, his)])
    starts.clear()
    ends.clear()
    cur_lo, cur_hi = pairs[0]
    for lo, hi in pairs:
        if lo > cur_hi:
            starts.append(cur_lo)
            ends.append(cur_hi)
            cur_lo, cur_hi = lo, hi
        elif hi > cur_hi:
            cur_hi = hi
    starts.append(cur_lo)
    ends.append(cur_hi)


def _first_free(sets: list[Ranges], size: int, align: int) -> int:
    """Lowest multiple of ``align`` where ``[offset, offset + size)`` misses
    every range of every set."""
    x = 0
    n = len(sets)
    k = 0
    stable = 0
    while stable < n:
        starts, ends = sets[k]
        i = bisect_right(ends, x)  # first range ending above x
        if i < len(starts) and starts[i] < x + size:
            m = len(starts)
            while True:  # skip ranges until a gap holds the buffer
                e = ends[i]
                if e > x:
                    x = e if align == 1 else -(-e // align) * align
                i += 1
                if i == m or starts[i] >= x + size:
                    break
            stable = 1
        else:
            stable += 1
        k += 1
        if k == n:
            k = 0
    return x


_NUMPY_FROM = 48
"""Gap searches over at least this many ranges run in numpy."""
_INT64_SAFE = 1 << 61


def _best_free(sets: list[Ranges], size: int, align: int) -> int:
    """Aligned offset in the smallest free gap that holds ``size`` bytes,
    lowest on ties; the top of the used space if no gap holds it.

    With the starts ``s`` and the ends ``e`` of all ranges sorted on their
    own, the free gaps of the union are the non-empty ``[e[k-1], s[k])``
    (``e[-1]`` read as 0): below ``s[k]`` at most k ranges start, and by
    ``e[k-1]`` at least k have ended. Many ranges go through numpy.
    """
    count = sum(len(s) for s, _ in sets)
    if count >= _NUMPY_FROM and max(e[-1] for _, e in sets) + size + align < _INT64_SAFE:
        starts_a = np.fromiter(chain.from_iterable(s for s, _ in sets), np.int64, count)
        starts_a.sort()
        ends_a = np.empty(count + 1, np.int64)
        ends_a[0] = 0
        ends_a[1:] = np.fromiter(chain.from_iterable(e for _, e in sets), np.int64, count)
        ends_a[1:].sort()
        if align > 1:
            ends_a = -(-ends_a // align) * align
        gaps = np.empty(count + 1, np.int64)
        np.subtract(starts_a, ends_a[:-1], out=gaps[:-1])
        gaps[-1] = _INT64_SAFE  # the space above everything: larger than any gap below
        gaps[gaps < size] = _INT64_SAFE + 1
        return int(ends_a[int(np.argmin(gaps))])  # argmin: the first, lowest, of the smallest
    starts = sorted(chain.from_iterable(s for s, _ in sets))
    ends = sorted(chain.from_iterable(e for _, e in sets))
    ends.insert(0, 0)
    if align > 1:
        ends = [-(-e // align) * align for e in ends]
    starts.append(ends[-1] + starts[-1] + size)  # the space above everything, larger than any gap
    gaps = list(map(sub, starts, ends))  # in address order; negative where there is no gap
    return ends[gaps.index(min(filter(size.__le__, gaps)))]


# --------------------------------------------------------------------------
# The time index


class _Node:
    """What one segment-tree node knows about the placed buffers of one path.

    ``covering``: union of the buffers whose lifetime decomposes into this
    node (they are live through all of its time range); ``version`` counts
    its changes. ``touching``: union over this node and its descendants, i.e.
    every byte used during the node's range by a buffer that does not cover
    its parent; new ranges wait in ``pending_lo``/``pending_hi`` until the
    union is read. ``above``: cached union of ``covering`` over this node and
    its ancestors, valid while ``above_parent`` is the parent's current union
    (unions are replaced, never changed, once cached) and
    ``above_version == version``.
    """

    __slots__ = (
        "covering", "version", "touching", "pending_lo", "pending_hi",
        "above", "above_parent", "above_version",
    )  # fmt: skip

    def __init__(self) -> None:
        self.covering: Ranges | None = None
        self.version = 0
        self.touching: Ranges = ([], [])
        self.pending_lo: list[int] = []
        self.pending_hi: list[int] = []
        self.above: Ranges = _EMPTY
        self.above_parent: Ranges | None = None
        self.above_version = -1


_EMPTY: Ranges = ([], [])

_DIRECT_LEVELS = 2
"""A canonical node less than this many levels above the leaves is read
through the ``covering`` sets of its small subtree, not a ``touching`` union."""

_CACHED_LEVELS = 3
"""Unions over ancestors are cached from this many levels above the leaves
up; below, where short buffers change them all the time, the ancestors'
``covering`` sets are read one by one."""


def _union_above(get: Callable[[int], _Node | None], n: int) -> Ranges:
    """Union of ``covering`` over node ``n`` and all its ancestors."""
    union = _EMPTY
    for shift in range(n.bit_length() - 1, -1, -1):
        node = get(n >> shift)
        if node is None or node.covering is None:
            continue
        if node.above_parent is union and node.above_version == node.version:
            union = node.above
            continue
        own = node.covering
        new = (union[0].copy(), union[1].copy())
        _merge_into(new, own[0], own[1])
        node.above_parent = union
        node.above_version = node.version
        node.above = union = new
    return union


def _grouped(owner: np.ndarray, nodes: np.ndarray, count: int) -> list[list[int]]:
    """``nodes`` split into one list per owner ``0 .. count-1``."""
    order = np.argsort(owner, kind="stable")
    bounds = np.searchsorted(owner[order], np.arange(count + 1)).tolist()
    flat = nodes[order].tolist()
    return [flat[bounds[i] : bounds[i + 1]] for i in range(count)]


class _TimeIndex:
    """Placed byte ranges in segment trees over compressed time, one tree per branch path.

    A lifetime splits into O(log T) canonical nodes. The bytes used during it
    by placed buffers are the ``touching`` unions of those nodes plus the
    ``covering`` sets of their proper ancestors, which all lie on the root
    paths of two nodes, the parents of the first and of the last canonical
    node (a proper ancestor holds the first or the last step of the lifetime
    without lying inside it). Near the leaves, sets are read one by one;
    higher up, through cached unions. The order of placement is known in
    advance, so all of this is worked out for every buffer at once, with
    numpy, and a ``touching`` union only takes ranges that a later read needs.
    """

    def __init__(self, order: list[Buffer]):
        count = len(order)
        self._trees: dict[Path, dict[int, _Node]] = {}
        self._compatible: dict[Path, list[dict[int, _Node]]] = {}
        self._placed = 0
        if not count:
            return
        starts = np.fromiter((b.start for b in order), np.int64, count)
        ends = np.fromiter((b.end for b in order), np.int64, count)
        times, slots = np.unique(np.concatenate([starts, ends]), return_inverse=True)
        height = max(0, int(len(times) - 2).bit_length())  # leaves = 2**height >= slots
        leaves = 1 << height
        lo = slots[:count].astype(np.int64) + leaves
        hi = slots[count:].astype(np.int64) + leaves
        owner = np.arange(count)

        # canonical nodes, level by level, and the leftmost and rightmost of each lifetime
        canon_owner: list[np.ndarray] = []
        canon_node: list[np.ndarray] = []
        canon_level: list[np.ndarray] = []
        leftmost = np.zeros(count, np.int64)  # first left node taken
        leftmost_level = np.zeros(count, np.int64)
        left_top = np.zeros(count, np.int64)  # last left node taken
        left_top_level = np.zeros(count, np.int64)
        rightmost = np.zeros(count, np.int64)  # first right node taken
        rightmost_level = np.zeros(count, np.int64)
        right_top = np.zeros(count, np.int64)  # last right node taken
        right_top_level = np.zeros(count, np.int64)
        level = 0
        active = owner
        while active.size:
            alo, ahi = lo[active], hi[active]
            take = (alo & 1) == 1
            who, node = active[take], alo[take]
            canon_owner.append(who), canon_node.append(node), canon_level.append(np.full(who.size, level))
            fresh = leftmost[who] == 0
            leftmost[who[fresh]], leftmost_level[who[fresh]] = node[fresh], level
            left_top[who], left_top_level[who] = node, level
            alo = alo + take
            take = (ahi & 1) == 1
            ahi = ahi - take
            who, node = active[take], ahi[take]
            canon_owner.append(who), canon_node.append(node), canon_level.append(np.full(who.size, level))
            fresh = rightmost[who] == 0
            rightmost[who[fresh]], rightmost_level[who[fresh]] = node[fresh], level
            right_top[who], right_top_level[who] = node, level
            lo[active], hi[active] = alo >> 1, ahi >> 1
            active = active[(alo >> 1) < (ahi >> 1)]
            level += 1
        c_owner = np.concatenate(canon_owner)
        c_node = np.concatenate(canon_node)
        c_level = np.concatenate(canon_level)
        no_left = leftmost == 0
        leftmost[no_left], leftmost_level[no_left] = right_top[no_left], right_top_level[no_left]
        no_right = rightmost == 0
        rightmost[no_right], rightmost_level[no_right] = left_top[no_right], left_top_level[no_right]
        first, first_level = leftmost >> 1, leftmost_level + 1
        last, last_level = rightmost >> 1, rightmost_level + 1

        # proper ancestors: the root path of first, then that of last until it meets it
        a_owner: list[np.ndarray] = []
        a_node: list[np.ndarray] = []
        a_level: list[np.ndarray] = []
        for s in range(height + 1):
            node = first >> s
            keep = node > 0
            a_owner.append(owner[keep]), a_node.append(node[keep]), a_level.append(first_level[keep] + s)
            node = last >> s
            lev = last_level + s
            shift = np.maximum(lev - first_level, 0)
            met = (lev >= first_level) & ((first >> shift) == node)
            keep = (node > 0) & ~met
            a_owner.append(owner[keep]), a_node.append(node[keep]), a_level.append(lev[keep])
        anc_owner = np.concatenate(a_owner)
        anc_node = np.concatenate(a_node)
        anc_level = np.concatenate(a_level)

        # reads: covering sets of low canonical nodes' subtrees and of low
        # ancestors; touching unions of higher canonical nodes; cached unions
        # above the first ancestor at a cached level on each path
        cov_owner = [anc_owner[anc_level < _CACHED_LEVELS]]
        cov_node = [anc_node[anc_level < _CACHED_LEVELS]]
        for lev in range(_DIRECT_LEVELS):
            pick = c_level == lev
            base, who = c_node[pick], c_owner[pick]
            for depth in range(lev + 1):
                for j in range(1 << depth):
                    cov_owner.append(who)
                    cov_node.append((base << depth) + j)
        touch = c_level >= _DIRECT_LEVELS
        tops_owner: list[np.ndarray] = []
        tops_node: list[np.ndarray] = []
        for path_node, path_level in ((first, first_level), (last, last_level)):
            shift = np.maximum(_CACHED_LEVELS - path_level, 0)
            node = path_node >> shift
            keep = node > 0
            if path_node is last:  # unless the path of last has met that of first below
                lev = path_level + shift
                back = np.maximum(lev - first_level, 0)
                keep &= ~((lev >= first_level) & ((first >> back) == node))
            tops_owner.append(owner[keep])
            tops_node.append(node[keep])

        # a touching union keeps only ranges placed before its last read
        last_read = np.full(2 * leaves, -1, np.int64)
        np.maximum.at(last_read, c_node[touch], c_owner[touch])
        p_owner = np.concatenate([c_owner[touch], anc_owner])
        p_node = np.concatenate([c_node[touch], anc_node])
        wanted = last_read[p_node] > p_owner

        self._leaves = leaves
        self._canonical = _grouped(c_owner, c_node, count)
        self._covering = _grouped(np.concatenate(cov_owner), np.concatenate(cov_node), count)
        self._touching = _grouped(c_owner[touch], c_node[touch], count)
        self._tops = _grouped(np.concatenate(tops_owner), np.concatenate(tops_node), count)
        self._pending = _grouped(p_owner[wanted], p_node[wanted], count)

    def _trees_for(self, path: Path) -> list[dict[int, _Node]]:
        trees = self._compatible.get(path)
        if trees is None:
            trees = [t for p, t in self._trees.items() if paths_compatible(p, path)]
            self._compatible[path] = trees
        return trees

    def place(self, b: Buffer, best_fit: bool) -> int:
        """Choose the offset of the next buffer in order, ``b``, record it, return it."""
        i = self._placed
        self._placed = i + 1
        size = b.size
        if size == 0:
            return 0  # occupies no bytes, collides with nothing
        sets: list[Ranges] = []
        for tree in self._trees_for(b.path):
            get = tree.get
            for n in self._covering[i]:
                node = get(n)
                if node is not None and node.covering is not None:
                    sets.append(node.covering)
            for n in self._touching[i]:
                node = get(n)
                if node is None:
                    continue
                if node.pending_lo:
                    _merge_into(node.touching, node.pending_lo, node.pending_hi)
                    node.pending_lo.clear()
                    node.pending_hi.clear()
                if node.touching[0]:
                    sets.append(node.touching)
            above = None
            for n in self._tops[i]:
                union = _union_above(get, n)
                if union[0] and union is not above:
                    sets.append(union)
                above = union

        if not sets:
            offset = 0
        elif best_fit:
            offset = _best_free(sets, size, b.align)
        else:
            offset = _first_free(sets, size, b.align)

        tree = self._trees.get(b.path)
        if tree is None:
            tree = self._trees[b.path] = {}
            self._compatible.clear()
        get = tree.get
        lo = offset
        hi = offset + size
        for n in self._canonical[i]:
            node = get(n)
            if node is None:
                node = tree[n] = _Node()
            if node.covering is None:
                node.covering = ([lo], [hi])
            else:
                _add_range(node.covering, lo, hi)
            node.version += 1
        for n in self._pending[i]:
            node = get(n)
            if node is None:
                node = tree[n] = _Node()
            node.pending_lo.append(lo)
            node.pending_hi.append(hi)
        return offset


def place_in_order(order: list[Buffer], best_fit: bool = False) -> dict[str, int]:
    """Place buffers one by one in ``order``: first fit, or best fit."""
    index = _TimeIndex(order)
    return {b.id: index.place(b, best_fit) for b in order}


# --------------------------------------------------------------------------
# Strategies


def sequential_key(b: Buffer) -> tuple:
    return (b.start, natural_key(b.id))


def large_first_key(b: Buffer) -> tuple:
    return (-b.size, b.start - b.end, b.start, natural_key(b.id))


def short_first_key(b: Buffer) -> tuple:
    return (b.end - b.start, -b.size, b.start, natural_key(b.id))


def _plan(problem: Problem, key: Callable[[Buffer], tuple], best_fit: bool = False) -> Placement:
    # The index holds many small lists that live to the end: the cyclic
    # garbage collector would rescan them over and over for nothing.
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        return Placement(place_in_order(sorted(problem.buffers, key=key), best_fit))
    finally:
        if gc_was_enabled:
            gc.enable()


def plan_sequential(problem: Problem, options: PlanOptions) -> Placement:
    """First fit in execution order."""
    return _plan(problem, sequential_key)


def plan_large_first(problem: Problem, options: PlanOptions) -> Placement:
    """First fit, largest buffer first."""
    return _plan(problem, large_first_key)


def plan_short_first(problem: Problem, options: PlanOptions) -> Placement:
    """First fit, shortest lifetime first."""
    return _plan(problem, short_first_key)


def plan_best_fit(problem: Problem, options: PlanOptions) -> Placement:
    """Smallest fitting gap, largest buffer first (greedy by size)."""
    return _plan(problem, large_first_key, best_fit=True)
