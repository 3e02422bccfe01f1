"""The static tables of ``plan_search`` (cfmem.planning.search) for one problem.

``_Model`` is an index-based view of the buffers: their time sections (the
maximal sets of buffers live together), conflicting neighbours, the cliques
of cross-section inference (per execution path when buffers carry branch
paths) as flat pair arrays with one sentinel each, the cuts between
independent groups, the static preorders, and the greedy completion of a
partial plan. Every decision search of one problem shares it. Problems too
large for the tables raise ``_TooBig`` (the caller keeps its greedy plan).
Plain Python and numpy, no IR.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from cfmem.planning.problem import Buffer, paths_compatible

MAX_PATH_ASSIGNMENTS = 64
"""Execution paths used to build cross-section cliques (more only weakens pruning, never validity)."""
MAX_PAIRS = 3_000_000
"""Largest number of (clique, buffer) memberships the search builds tables for."""
MAX_OVERLAPS = 1_500_000
"""Largest number of time-overlapping buffer pairs the search builds neighbour lists for."""


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

