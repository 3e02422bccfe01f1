"""Anytime exact search for the smallest peak (MiniMalloc-style branch and bound).

``plan_search`` starts from the best greedy plan and answers decision problems
"do all buffers fit below capacity C?" for capacities between the lower bound
and the best peak found. Each decision problem is a depth-first search in the
spirit of MiniMalloc (Moffitt, ASPLOS'24):

- Only *canonical* placements: buffers are placed in non-decreasing order of
  offset (ties by a static preorder), each at the lowest offset its placed
  conflicting buffers allow (0, or the aligned top of one of them). Any plan
  can be compacted into such a sequence without raising its peak.
- Dynamic ordering: the unplaced buffers are tried in order of that lowest
  offset, so the first dive is a "skyline" heuristic.
- Dominance: nothing is placed at or above the top another unplaced buffer
  could reach below it (that buffer could always be moved down).
- Cross-section inference: in every *clique* of mutually conflicting buffers
  (the buffers live together just before one dies; with branch paths, those
  of them on one execution path) the unplaced members stack above the lowest
  offset any of them may take and above the next placement, and must fit
  below C.
- Lifting: a buffer whose key is below the last placement's can only be
  placed on top of an unplaced neighbour placed later (at or above the next
  placement), so its lowest offset is raised to the lowest top such a
  neighbour can reach before the cliques are checked (not in MiniMalloc).
- Monotonic floor: every clique's unplaced members (the next placement
  included) stack above the next placement's offset. This is checked for
  each candidate before descending; as the candidates come in increasing
  offset, the first that fails ends the node. The candidates it rejects are
  most of the children the inference would refute, and cost no node.
- Decomposition: where no unplaced buffer spans a time boundary the two sides
  are independent and are solved one after the other, once the inference
  has passed on the whole. As in MiniMalloc, each side is then ranked afresh
  by the preorder with T taken from the clique totals left, and its canonical
  order starts over. At the top level each independent group keeps its own
  best plan.
- Memory: search states (unplaced buffers, their lowest offsets, their
  ranks, the last placement) whose every branch failed are remembered with the capacity,
  so a restart with a larger node limit skips what it already refuted
  (states the inference refutes without branching are cheaper to refute
  again than to look up, and are not remembered).

Schedule: rounds with doubling node limits (starting at two per buffer) and
three static preorders tried in turn, as MiniMalloc's round robin. Each round
first probes the lower bound (the search is strongest on tight problems),
then binary-searches between the lower bound and the best peak with smaller
limits. When a probe runs out of nodes, its deepest partial placement is
completed by first fit, which sometimes still lowers the peak.

``proven_optimal`` is set only when the peak equals the lower bound or the
capacity one below the peak was refuted exhaustively. ``stats`` has
``lower_bound``, ``proven_lower_bound``, ``nodes``, ``decisions``,
``greedy_peak`` and ``seconds``. Everything is deterministic except where the
wall-clock ``options.time_limit`` cuts the search short. Problems too large
for the tables (millions of section memberships) keep the greedy plan.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence

import numpy as np

from cfmem.planning.greedy import plan_best_fit, plan_large_first, plan_sequential, plan_short_first
from cfmem.planning.problem import (
    Buffer,
    Placement,
    PlanOptions,
    Problem,
    lower_bound,
    paths_compatible,
    peak_of,
)

MAX_PATH_ASSIGNMENTS = 64
"""Execution paths used to build cross-section cliques (more only weakens pruning, never validity)."""
HEURISTICS = ("TWA", "WAT", "TAW")
"""Static preorders tried in turn (MiniMalloc's: T = largest cross-section
total, W = lifetime length, A = lifetime x size; all descending)."""
TOLERANCE = 256
"""The binary search stops when the gap left is below lower_bound / TOLERANCE."""
SEARCH_SHARE = 4
"""Node limit of a binary-search probe: that of the lower-bound probe / SEARCH_SHARE."""
_NODE_BUDGET: int | None = None
"""Experiments only: a total node budget, which makes runs independent of the clock."""
MAX_PAIRS = 3_000_000
"""Largest number of (clique, buffer) memberships the search builds tables for."""
MAX_OVERLAPS = 1_500_000
"""Largest number of time-overlapping buffer pairs the search builds neighbour lists for."""
MAX_MEMO = 1_000_000
"""Failed search states remembered per preorder (about 100 bytes each)."""


class _Stop(Exception):
    """Node budget or deadline reached: the current decision search is abandoned."""


_min = np.minimum.reduce
_max = np.maximum.reduce


def _path_choices(buffers: Sequence[Buffer], cap: int) -> list[dict[int, int]]:
    """Up to ``cap`` choices of one branch per if (each a set of paths run together).

    Buffers whose paths agree with one choice are pairwise compatible. When
    there are more choices than ``cap`` the rest are left out: cliques built
    from the ones kept are still cliques, so pruning stays valid, only weaker.
    """
    ifs: dict[int, set[int]] = {}
    for b in buffers:
        for if_id, branch in b.path:
            ifs.setdefault(if_id, set()).add(branch)
    choices: list[dict[int, int]] = [{}]
    for if_id, branches in sorted(ifs.items()):
        choices = [{**c, if_id: br} for c in choices for br in sorted(branches)][:cap]
    return choices


def _hash_weights(n: int) -> np.ndarray:
    """Two fixed pseudo-random 64-bit words per buffer (splitmix64), for state hashing."""
    with np.errstate(over="ignore"):
        z = np.arange(1, 2 * n + 1, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
        z += np.uint64(0x243F6A8885A308D3)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return z.reshape(2, n).view(np.int64)


class _TooBig(Exception):
    """The problem is too large for the search's tables; keep the greedy plan."""


class _Model:
    """Index-based view of the buffers of one problem, shared by all searches."""

    def __init__(self, buffers: Sequence[Buffer]):
        self.buffers = list(buffers)
        n = self.n = len(buffers)
        self.size = [b.size for b in buffers]
        self.align = [b.align for b in buffers]
        self.has_align = any(a > 1 for a in self.align)
        self.has_paths = any(b.path for b in buffers)
        self.size_np = np.array(self.size, dtype=np.int64)
        self.align_np = np.array(self.align, dtype=np.int64)
        self.area = [b.size * (b.end - b.start) for b in buffers]
        self.big = int(sum(self.size) + sum(self.align)) + 1
        """Above any top a canonical placement can reach; marks placed buffers."""
        self.radix = n + 1
        if self.big * self.radix >= 1 << 62:
            raise _TooBig("sizes too large for the search's 64-bit keys")
        if max(max(self.area), max(b.end - b.start for b in buffers)) >= 1 << 63:
            raise _TooBig("lifetimes too long for the search's 64-bit areas")

        # Time sections: the set of live buffers just before some buffer dies
        # (the maximal sets of buffers live together). Every buffer lives in
        # a contiguous range [ts0, ts1) of them, and two buffers overlap in
        # time exactly when they share a section.
        starts: dict[int, list[int]] = {}
        ends: dict[int, list[int]] = {}
        for i, b in enumerate(buffers):
            starts.setdefault(b.start, []).append(i)
            ends.setdefault(b.end, []).append(i)
        times = sorted(starts.keys() | ends.keys())
        ts0 = [0] * n
        ts1 = [0] * n
        count = live = overlaps = 0
        dirty = False
        for t in times:
            if t in ends:
                if dirty:
                    count += 1
                    dirty = False
                for i in ends[t]:
                    ts1[i] = count
                live -= len(ends[t])
            for i in starts.get(t, ()):
                ts0[i] = count
                overlaps += live
                live += 1
                dirty = True
        t_count = self.t_count = count
        self.ts0, self.ts1 = ts0, ts1
        self.ts0_np = np.array(ts0, dtype=np.int64)
        ts1_np = self.ts1_np = np.array(ts1, dtype=np.int64)
        self.width_np = np.array([b.end - b.start for b in buffers], dtype=np.int64)
        self.area_np = np.array(self.area, dtype=np.int64)
        spans = ts1_np - self.ts0_np
        pairs = int(spans.sum())
        if pairs > MAX_PAIRS or overlaps > MAX_OVERLAPS:
            raise _TooBig(f"{pairs} section memberships, {overlaps} overlapping pairs")
        cut = np.zeros(t_count + 1, dtype=np.int64)
        np.add.at(cut, self.ts0_np, 1)
        np.add.at(cut, ts1_np - 1, -1)
        self.cut0 = np.cumsum(cut)  # cut0[t]: buffers live in both section t and t + 1

        # Conflicting neighbours (time overlap and compatible paths).
        nbrs: list[list[int]] = [[] for _ in range(n)]
        active: dict[int, None] = {}
        for t in times:
            for i in ends.get(t, ()):
                del active[i]
            for i in starts.get(t, ()):
                for j in active:
                    if not self.has_paths or paths_compatible(buffers[i].path, buffers[j].path):
                        nbrs[i].append(j)
                        nbrs[j].append(i)
                active[i] = None
        self.nbrs = [np.array(sorted(x), dtype=np.int64) for x in nbrs]
        self.degree = [len(x) for x in nbrs]

        # Cliques for cross-section inference, ordered by time section so
        # that a range of sections maps to a contiguous range of cliques.
        # Membership is kept as (clique, buffer) pairs sorted by clique, for
        # vectorised per-clique minima over the unplaced members; each clique
        # also lists a sentinel (index n) whose lowest offset is the capacity,
        # so a clique with no unplaced member never fails.
        member = np.repeat(np.arange(n, dtype=np.int64), spans)
        section = np.arange(pairs, dtype=np.int64) - np.repeat(np.cumsum(spans) - spans - self.ts0_np, spans)
        if self.has_paths:
            self._path_cliques(member, section)
        else:
            self.n_cliques = t_count
            self.clique_start = list(range(t_count + 1))
            self.cliques_of = [slice(ts0[i], ts1[i]) for i in range(n)]
            order = np.lexsort((member, section))
            member, section = member[order], section[order]
            total0 = np.zeros(t_count, dtype=np.int64)
            np.add.at(total0, section, self.size_np[member])
            self.total0 = total0
            self._pairs(member, section)
        self.weights = _hash_weights(n)
        # Neighbour lists flattened, each closed by index n + 1 (whose lowest
        # offset is always ``big``), for minima over a buffer's neighbours.
        self.nb_flat = np.concatenate([np.append(x, n + 1) for x in self.nbrs]) if n else np.zeros(0, dtype=np.int64)
        self.nb_len = np.array([len(x) + 1 for x in self.nbrs], dtype=np.int64)
        self.nb_start = np.cumsum(self.nb_len) - self.nb_len
        self.size_ext = np.array(self.size + [0, 0], dtype=np.int64)
        total0 = self.total0
        self.clique_max_total = [int(total0[self.cliques_of[i]].max(initial=0)) for i in range(n)]

    def _pairs(self, member: np.ndarray, clique: np.ndarray) -> None:
        """Pair arrays from memberships sorted by clique, plus one sentinel per clique."""
        c_count = self.n_cliques
        starts = np.searchsorted(clique, np.arange(c_count + 1))
        sizes = np.diff(starts) + 1
        self.pair_start = np.concatenate(([0], np.cumsum(sizes))).astype(np.int64)
        pair_buf = np.full(int(self.pair_start[-1]), self.n, dtype=np.int64)
        keep = np.ones(len(pair_buf), dtype=bool)
        keep[self.pair_start[1:] - 1] = False  # the sentinel slots
        pair_buf[keep] = member
        self.pair_buf = pair_buf

    def _path_cliques(self, member: np.ndarray, section: np.ndarray) -> None:
        """Per time section, one clique per choice of branches (deduplicated, maximal)."""
        buffers, n = self.buffers, self.n
        sections: list[list[int]] = [[] for _ in range(self.t_count)]
        for i, t in zip(member.tolist(), section.tolist()):
            sections[t].append(i)
        choices = _path_choices(buffers, MAX_PATH_ASSIGNMENTS)
        if len(choices) * len(member) > MAX_PAIRS:
            raise _TooBig("too many execution paths for the clique tables")
        cliques: list[list[int]] = []
        clique_start = [0] * (self.t_count + 1)
        for t, members in enumerate(sections):
            clique_start[t] = len(cliques)
            found: list[frozenset[int]] = []
            for choice in choices:
                sel = frozenset(i for i in members if all(choice.get(f) == br for f, br in buffers[i].path))
                if sel and sel not in found:
                    found.append(sel)
            for sel in found:
                if not any(sel < other for other in found):
                    cliques.append(sorted(sel))
        clique_start[self.t_count] = len(cliques)
        self.n_cliques = len(cliques)
        self.clique_start = clique_start
        of: list[list[int]] = [[] for _ in range(n)]
        for c, members in enumerate(cliques):
            for i in members:
                of[i].append(c)
        self.cliques_of = []
        for cs in of:
            if cs and cs == list(range(cs[0], cs[-1] + 1)):
                self.cliques_of.append(slice(cs[0], cs[-1] + 1))
            else:
                self.cliques_of.append(np.array(cs, dtype=np.int64))
        self.total0 = np.array([sum(self.size[i] for i in members) for members in cliques], dtype=np.int64)
        flat_member = np.array([i for members in cliques for i in members], dtype=np.int64)
        flat_clique = np.repeat(np.arange(len(cliques), dtype=np.int64), [len(c) for c in cliques])
        self._pairs(flat_member, flat_clique)

    # -- preorders (MiniMalloc's W/A/T keys, all descending) ----------------

    def preorder(self, keys: str, idx: np.ndarray | None = None, total: np.ndarray | None = None) -> np.ndarray:
        """Ranks of the buffers ``idx`` (all by default) in the preorder ``keys``.

        T is the largest total of a buffer's cliques in ``total`` (by default
        the initial totals); ties go to the lower index.
        """
        if idx is None:
            idx = np.arange(self.n, dtype=np.int64)
        if total is None:
            t = np.array(self.clique_max_total, dtype=np.int64)[idx]
        elif self.has_paths:
            t = np.array([int(total[self.cliques_of[i]].max(initial=0)) for i in idx.tolist()], dtype=np.int64)
        else:
            bounds = np.stack((self.ts0_np[idx], self.ts1_np[idx]), axis=1).ravel()
            t = np.maximum.reduceat(np.append(total, 0), bounds)[::2]
        columns = {
            "W": self.width_np[idx],
            "A": self.area_np[idx],
            "T": t,
            "Z": self.size_np[idx],
            "O": np.array(self.degree, dtype=np.int64)[idx],
        }
        order = np.lexsort((idx, *(-columns[c] for c in reversed(keys))))
        ranks = np.empty(len(idx), dtype=np.int64)
        ranks[order] = np.arange(len(idx), dtype=np.int64)
        return ranks

    def complete(self, members: list[int], partial: dict[int, int]) -> dict[int, int]:
        """Extend a partial placement to ``members`` by first fit, largest first."""
        offsets = dict(partial)
        at = np.full(self.n, -1, dtype=np.int64)
        for i, o in partial.items():
            at[i] = o
        size = self.size_np
        rest = [i for i in members if i not in offsets]
        rest.sort(key=lambda i: (-self.size[i], -self.area[i], i))
        for i in rest:
            nb = self.nbrs[i]
            lo = at[nb]
            placed = lo >= 0
            lo = lo[placed]
            hi = lo + size[nb][placed]
            align = self.align[i]
            starts = np.concatenate(([0], -(-hi // align) * align))  # 0 or an aligned top
            ends = starts + self.size[i]
            clear = ~((lo[None, :] < ends[:, None]) & (hi[None, :] > starts[:, None])).any(axis=1)
            offsets[i] = int(starts[clear].min())
            at[i] = offsets[i]
        return offsets

    def split(self) -> list[np.ndarray]:
        """Groups of buffers that share no time: independent sub-problems."""
        boundaries = np.concatenate(([0], np.flatnonzero(self.cut0[: max(self.t_count - 1, 0)] == 0) + 1))
        where = np.searchsorted(boundaries, self.ts0_np, side="right")
        order = np.argsort(where, kind="stable")
        cuts = np.searchsorted(where[order], np.arange(2, len(boundaries) + 1))
        return [g for g in np.split(order.astype(np.int64), cuts) if g.size]


class _Part:
    """A set of buffers searched together, with its slices of the clique data."""

    __slots__ = ("idx", "sizes", "ranks", "weights", "c0", "c1", "pairs", "rel", "total")

    def __init__(self, dec: _Decider, idx: np.ndarray, c0: int, c1: int, ranks: np.ndarray | None = None):
        m = dec.model
        self.idx = idx
        self.sizes = m.size_np[idx]
        self.ranks = dec.rank_np[idx] if ranks is None else ranks
        self.weights = m.weights[:, idx]
        self.c0, self.c1 = c0, c1
        p0, p1 = int(m.pair_start[c0]), int(m.pair_start[c1])
        self.pairs = m.pair_buf[p0:p1]
        self.rel = m.pair_start[c0:c1] - p0
        self.total = dec.total[c0:c1]  # a view: it follows the decider's updates


class _Decider:
    """Depth-first search for a placement below a capacity (one decision problem).

    Placed buffers carry the lowest offset ``big`` so that one gather over a
    part yields both the unplaced set and the offsets. ``failed`` maps a
    search state to the largest capacity at which it was shown to have no
    completion; it may be shared between searches with the same preorder.
    ``keys`` names the preorder of ``rank``; given, independent parts found
    while searching are ranked afresh by it (see ``_decompose``).
    """

    def __init__(
        self,
        model: _Model,
        rank: np.ndarray,
        capacity: int,
        node_limit: int,
        deadline: float,
        failed: dict[int, int] | None = None,
        keys: str = "",
    ):
        m = self.model = model
        self.keys = keys
        self.rank_np = rank
        self.capacity = capacity
        self.node_limit = node_limit
        self.deadline = deadline
        self.failed = {} if failed is None else failed
        self.nodes = 0
        self.mo = np.zeros(m.n + 2, dtype=np.int64)  # lowest offset allowed by placed neighbours
        self.mo[m.n] = capacity
        self.mo[m.n + 1] = m.big
        self.total = m.total0.copy()
        self.cut = m.cut0.copy()
        self.sol = [0] * m.n
        self.depth = 0  # area (size x lifetime) placed on the current branch
        self.best_depth = -1
        self._best: tuple[list[int], np.ndarray] = ([], np.zeros(0, dtype=np.int64))

    def _snapshot(self) -> None:
        """Remember the deepest partial placement (completed greedily later)."""
        self.best_depth = self.depth
        self._best = (self.sol.copy(), self.mo[: self.model.n] == self.model.big)

    @property
    def best_partial(self) -> dict[int, int]:
        """The deepest partial placement seen: offsets by buffer index."""
        sol, placed = self._best
        return {i: sol[i] for i in np.flatnonzero(placed).tolist()}

    def run(self, group: np.ndarray) -> bool:
        """Place the buffers of ``group`` (one independent part); raises _Stop."""
        m = self.model
        members = group.tolist()
        t0 = min(m.ts0[i] for i in members)
        t1 = max(m.ts1[i] for i in members)
        c0, c1 = m.clique_start[t0], m.clique_start[t1]
        if int(self.total[c0:c1].max(initial=0)) > self.capacity:
            return False
        return self._search(_Part(self, group, c0, c1), -1, -1)

    def _search(self, part: _Part, last_off: int, last_rank: int) -> bool:
        self.nodes += 1
        if self.nodes >= self.node_limit:
            raise _Stop
        if not self.nodes & 31 and time.perf_counter() > self.deadline:
            raise _Stop
        m = self.model
        mo = self.mo
        big, radix, capacity = m.big, m.radix, self.capacity
        offs = mo[part.idx]
        tops = offs + part.sizes
        min_height = int(_min(tops))
        if min_height >= big:
            return True  # every buffer of the part is placed
        keys = offs * radix + part.ranks
        last_key = last_off * radix + last_rank
        movable = keys > last_key
        if self._refuted(part, offs, movable, last_off):
            return False  # cheap to refute again: not remembered
        h0, h1 = (part.weights @ keys).tolist()
        state = (h0 << 64) ^ (h1 & 0xFFFFFFFFFFFFFFFF) ^ (last_key * 0x9E3779B97F4A7C15)
        if self.failed.get(state, -1) >= capacity:
            return False
        # Canonical order: (offset, rank) increases along a branch. Dominance:
        # nothing goes at or above the top another buffer could reach below it.
        pick = ((offs < min_height) & movable).nonzero()[0]
        if pick.size > 1:
            pick = pick[keys[pick].argsort(kind="stable")]
        size, nbrs, cliques_of, ts0, ts1 = m.size, m.nbrs, m.cliques_of, m.ts0, m.ts1
        tot, cut = self.total, self.cut
        weight = m.area
        # Monotonic floor, checked before descending; the candidates come in
        # increasing offset, so the first one above the room ends the loop.
        room = self._floor_room(part)
        for b, o, r in zip(part.idx[pick].tolist(), offs[pick].tolist(), part.ranks[pick].tolist()):
            if o > room:
                break
            sz = size[b]
            h = o + sz
            if h > capacity:
                continue
            mo[b] = big
            self.sol[b] = o
            self.depth += weight[b]
            if self.depth > self.best_depth:
                self._snapshot()
            nb = nbrs[b]
            old_mo = mo[nb]
            if m.has_align:
                al = m.align_np[nb]
                mo[nb] = np.maximum(old_mo, -(-h // al) * al)
            else:
                mo[nb] = np.maximum(old_mo, h)
            cl = cliques_of[b]
            tot[cl] -= sz
            a, e = ts0[b], ts1[b] - 1
            if e > a:
                seg = cut[a:e]
                seg -= 1
                if _min(seg) == 0:
                    found = self._decompose(part, (a + 1 + (seg == 0).nonzero()[0]).tolist(), o, r)
                else:
                    found = self._search(part, o, r)
                cut[a:e] += 1
            else:
                found = self._search(part, o, r)
            tot[cl] += sz
            mo[nb] = old_mo
            mo[b] = o
            self.depth -= weight[b]
            if found:
                return True
        self._fail(state, capacity)
        return False

    def _floor_room(self, part: _Part) -> int:
        """The highest offset the next placement may take (monotonic floor).

        Later placements are at or above it, those conflicting with it above
        its top, so every clique's unplaced members (itself included) stack
        above its offset.
        """
        return self.capacity - int(_max(part.total))

    def _refuted(self, part: _Part, offs: np.ndarray, movable: np.ndarray, last_off: int) -> bool:
        """Whether no canonical completion fits below the capacity (inference only).

        ``offs`` are the lowest offsets of the part's buffers (``big`` once
        placed), ``movable`` marks those whose key is above the last
        placement's, which was at ``last_off``.
        """
        m = self.model
        mo, big, capacity = self.mo, m.big, self.capacity
        # Every later placement is at or above the next one, which is at the
        # lowest offset of a buffer that may still go where it is now.
        last_off = max(last_off, int(_min(np.where(movable, offs, big))))
        total = part.total
        if last_off + int(_max(total)) > capacity:
            return True
        # Cross-section inference: in every clique the unplaced members stack
        # above the lowest offset any of them may take (which is above every
        # placed member, all of them neighbours) and must fit below the
        # capacity. A clique with nothing unplaced has the capacity (its
        # sentinel) as lowest offset and nothing to stack.
        low = np.minimum.reduceat(mo[part.pairs], part.rel)
        if int(_max(low + total)) > capacity:
            return True
        # Lifting: an unplaced buffer below the last placement (not movable)
        # can only be placed on top of an unplaced neighbour placed later,
        # so at or above the lowest top such a neighbour reaches; with those
        # offsets the cliques are checked again.
        if _min(movable):
            return False
        stuck = ~movable  # placed buffers have the largest keys: all movable
        who = part.idx[stuck]
        lens = m.nb_len[who]
        ends = np.add.accumulate(lens)
        firsts = ends - lens
        nb = m.nb_flat[np.arange(int(ends[-1])) + (m.nb_start[who] - firsts).repeat(lens)]
        lifted = np.minimum.reduceat(np.maximum(mo[nb], last_off) + m.size_ext[nb], firsts)
        if int(_max(lifted + part.sizes[stuck])) > capacity:
            return True
        saved = mo[who]
        mo[who] = lifted
        low = np.minimum.reduceat(mo[part.pairs], part.rel)
        mo[who] = saved
        return int(_max(low + total)) > capacity

    def _fail(self, state: int, capacity: int) -> None:
        if len(self.failed) < MAX_MEMO:
            self.failed[state] = max(self.failed.get(state, -1), capacity)

    def _decompose(self, part: _Part, cuts: list[int], off: int, rank: int) -> bool:
        """Solve the independent parts left of, between and right of ``cuts``.

        The inference runs on the whole part first, so that a part that cannot
        fit is not found out only after the parts before it were solved. With
        ``keys`` each part is then ranked afresh (T from the clique totals
        left) and its canonical order starts over, as in MiniMalloc; without,
        the parts keep their ranks and go on after the last placement.
        """
        m = self.model
        offs = self.mo[part.idx]
        rest = part.idx[offs < m.big]
        if not rest.size:
            return True
        if self._refuted(part, offs, offs * m.radix + part.ranks > off * m.radix + rank, off):
            return False
        where = np.searchsorted(np.array(cuts, dtype=np.int64), m.ts0_np[rest], side="right")
        bounds = [part.c0, *(m.clique_start[t] for t in cuts), part.c1]
        for k in range(len(cuts) + 1):
            sub = rest[where == k]
            if not sub.size:
                continue
            if self.keys:
                sub_part = _Part(self, sub, bounds[k], bounds[k + 1], m.preorder(self.keys, sub, self.total))
                found = self._search(sub_part, -1, -1)
            else:
                found = self._search(_Part(self, sub, bounds[k], bounds[k + 1]), off, rank)
            if not found:
                return False
        return True


INCUMBENT_STRATEGIES = (plan_large_first, plan_best_fit, plan_short_first, plan_sequential)
"""The greedy plans the search starts from, fastest first."""


def _greedy_incumbent(problem: Problem, options: PlanOptions, deadline: float) -> dict[str, int]:
    """The best plan among the greedy strategies that fit in the time (the first always runs)."""
    candidates = [INCUMBENT_STRATEGIES[0](problem, options).offsets]
    for strategy in INCUMBENT_STRATEGIES[1:]:
        if time.perf_counter() < deadline:
            candidates.append(strategy(problem, options).offsets)
    return min(candidates, key=lambda offsets: peak_of(problem.buffers, offsets))


class _Optimizer:
    """Capacity descent over the independent groups of one problem."""

    def __init__(self, model: _Model, offsets: list[int], deadline: float):
        self.model = model
        self.deadline = deadline
        self.groups = model.split()
        self.offsets = list(offsets)
        self.group_peak = [self._peak(g.tolist()) for g in self.groups]
        self.ranks = {h: model.preorder(h) for h in HEURISTICS}
        self.failed: dict[str, dict[int, int]] = {h: {} for h in HEURISTICS}
        self.order = list(HEURISTICS)
        self.nodes = 0
        self.decisions = 0
        self.node_budget = _NODE_BUDGET

    def out_of_time(self) -> bool:
        if self.node_budget is not None and self.nodes >= self.node_budget:
            return True
        return time.perf_counter() > self.deadline

    def _peak(self, members: list[int]) -> int:
        return max(self.offsets[i] + self.model.size[i] for i in members)

    @property
    def peak(self) -> int:
        return max(self.group_peak)

    def _adopt(self, g: int, offsets: dict[int, int]) -> None:
        """Keep ``offsets`` for group ``g`` if they lower its peak."""
        size = self.model.size
        peak = max(o + size[i] for i, o in offsets.items())
        if peak < self.group_peak[g]:
            for i, o in offsets.items():
                self.offsets[i] = o
            self.group_peak[g] = peak

    def decide(self, capacity: int, node_limit: int) -> bool | None:
        """Try to fit every group below ``capacity``: True (found, kept),
        False (proven impossible) or None (not settled within the limits)."""
        self.decisions += 1
        outcome: bool | None = True
        # Highest peak first; every group is tried, as each is independent.
        for g in sorted(range(len(self.groups)), key=lambda g: -self.group_peak[g]):
            group = self.groups[g]
            if self.group_peak[g] <= capacity:
                continue
            settled = False
            deepest: tuple[int, dict[int, int]] = (-1, {})
            for h in list(self.order):
                limit = node_limit
                if self.node_budget is not None:
                    limit = min(limit, self.node_budget - self.nodes)
                    if limit <= 0:
                        return None
                dec = _Decider(self.model, self.ranks[h], capacity, limit, self.deadline, self.failed[h], keys=h)
                try:
                    found = dec.run(group)
                except _Stop:
                    self.nodes += dec.nodes
                    if dec.best_depth > deepest[0]:
                        deepest = (dec.best_depth, dec.best_partial)
                    if self.out_of_time():
                        break
                    continue
                self.nodes += dec.nodes
                if not found:
                    return False  # exhaustive: no heuristic can do better
                members = group.tolist()
                for i in members:
                    self.offsets[i] = dec.sol[i]
                self.group_peak[g] = self._peak(members)
                self.order.remove(h)
                self.order.insert(0, h)
                settled = True
                break
            if not settled:
                # Not placed below the capacity: complete the deepest partial
                # placement greedily, which sometimes still lowers the peak.
                self._adopt(g, self.model.complete(group.tolist(), deepest[1]))
                outcome = None
                if self.out_of_time():
                    break
        return outcome


def plan_search(problem: Problem, options: PlanOptions) -> Placement:
    """Anytime branch and bound for the smallest peak; see the module docstring."""
    began = time.perf_counter()
    deadline = began + max(0.0, options.time_limit)
    offsets = {b.id: 0 for b in problem.buffers if b.size == 0}
    live = [b for b in problem.buffers if b.size > 0]
    if not live:
        return Placement(offsets, proven_optimal=True, stats={"lower_bound": 0.0, "nodes": 0.0})
    bound = lower_bound(live)
    incumbent = _greedy_incumbent(Problem(live, problem.name), options, began + 0.25 * options.time_limit)
    greedy_peak = peak_of(live, incumbent)
    try:
        model = _Model(live)
    except _TooBig:
        offsets.update(incumbent)
        stats = {
            "lower_bound": float(bound),
            "proven_lower_bound": float(bound),
            "nodes": 0.0,
            "greedy_peak": float(greedy_peak),
            "too_big": 1.0,
        }
        return Placement(offsets, proven_optimal=greedy_peak == bound, stats=stats)
    opt = _Optimizer(model, [incumbent[b.id] for b in live], deadline)
    lo, hi = bound, opt.peak  # lo: proven lower bound, hi: best peak found
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 4 * model.n + 1000))
    try:
        limit = 2 * model.n
        tolerance = max(1, bound // TOLERANCE)
        while lo < hi and not opt.out_of_time():
            # One round at this node limit: the bound itself first (tight
            # decision problems are where this search shines, and its failed
            # states are remembered, so the rounds add up), then a binary
            # search between the bound and the best peak with a smaller limit.
            capacity, soft, node_limit = lo, lo, limit
            while not opt.out_of_time():
                result = opt.decide(capacity, node_limit)
                hi = opt.peak
                if result is False:
                    lo = capacity + 1
                soft = max(soft, capacity + 1) if result is not True else soft
                if lo >= hi or hi - soft <= tolerance:
                    break
                capacity = (soft + hi) // 2
                node_limit = max(2 * model.n, limit // SEARCH_SHARE)
            limit *= 2
    finally:
        sys.setrecursionlimit(old_limit)
    offsets.update({b.id: opt.offsets[i] for i, b in enumerate(live)})
    stats = {
        "lower_bound": float(bound),
        "proven_lower_bound": float(lo),
        "nodes": float(opt.nodes),
        "decisions": float(opt.decisions),
        "greedy_peak": float(greedy_peak),
        "seconds": time.perf_counter() - began,
    }
    return Placement(offsets, proven_optimal=lo >= hi, stats=stats)
