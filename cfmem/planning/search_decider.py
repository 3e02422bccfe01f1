"""The decision problem of ``plan_search`` (cfmem.planning.search): do all buffers fit
below a capacity?

``_Decider`` is the depth-first search over canonical placements described in
cfmem.planning.search's docstring (dynamic order, dominance, cross-section
inference, lifting, the monotonic floor, decomposition into independent parts,
memory of refuted states); ``_Part`` is the set of buffers one call searches,
with its slices of the clique tables of ``_Model`` (cfmem.planning.search_tables).
A node limit or the deadline abandons the search by raising ``_Stop``.
"""

from __future__ import annotations

import time

import numpy as np

from cfmem.planning.search_tables import _Model

MAX_MEMO = 1_000_000
"""Failed search states remembered per preorder (about 100 bytes each)."""


class _Stop(Exception):
    """Node budget or deadline reached: the current decision search is abandoned."""


_min = np.minimum.reduce
_max = np.maximum.reduce


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
