"""Every state the search's inference refutes really has no completion.

The decision search refutes a state without branching when its inference
(the next placement's floor, lifting of buffers left below it, the
cross-section totals) shows that no canonical completion fits. Each such
refusal is checked here by an independent brute force: the unplaced buffers
of the part, placed one at a time at the aligned top of their placed
conflicting buffers (or 0), keys (offset, rank) increasing, below the
capacity. A rule that refuted a completable state (pruning a feasible
optimum) fails this test even when the search finds another solution.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from cfmem.planning.problem import Buffer, conflicts, lower_bound
from cfmem.planning.search import HEURISTICS
from cfmem.planning.search_decider import _Decider, _Part
from cfmem.planning.search_tables import _Model
from test_planning_search import brute_force_peak, random_problem

INF = float("inf")
MAX_CHECKED = 400
"""Refused states checked per decision (the brute force is exponential)."""


def completes(
    buffers: list[Buffer],
    rank: list[int],
    capacity: int,
    placed: dict[int, int],
    todo: list[int],
    last: tuple[int, int],
) -> bool:
    """Whether ``todo`` can be placed canonically after ``placed`` (brute force)."""
    if not todo:
        return True
    for i in todo:
        b = buffers[i]
        top = max((o + buffers[j].size for j, o in placed.items() if conflicts(b, buffers[j])), default=0)
        lo = -(-top // b.align) * b.align
        if (lo, rank[i]) <= last or lo + b.size > capacity:
            continue
        placed[i] = lo
        ok = completes(buffers, rank, capacity, placed, [j for j in todo if j != i], (lo, rank[i]))
        del placed[i]
        if ok:
            return True
    return False


def traced_decider(buffers: list[Buffer], capacity: int, heuristic: str, rerank: bool, monkeypatch) -> tuple:
    """A decider whose ``last`` and ``part_rank`` follow the state being searched.

    ``last`` is the key (offset, rank) of the last placement and ``part_rank``
    the ranks of the current part's buffers (reranked parts have their own).
    """
    model = _Model(buffers)
    dec = _Decider(model, model.preorder(heuristic), capacity, 10**6, INF, keys=heuristic if rerank else "")
    search, decompose = _Decider._search, _Decider._decompose

    def traced_search(self, part, last_off, last_rank):
        self.last, self.part_rank = (last_off, last_rank), dict(zip(part.idx.tolist(), part.ranks.tolist()))
        return search(self, part, last_off, last_rank)

    def traced_decompose(self, part, cuts, off, rank):
        self.last, self.part_rank = (off, rank), dict(zip(part.idx.tolist(), part.ranks.tolist()))
        return decompose(self, part, cuts, off, rank)

    monkeypatch.setattr(_Decider, "_search", traced_search)
    monkeypatch.setattr(_Decider, "_decompose", traced_decompose)
    return model, dec


def placed_of(dec: _Decider) -> dict[int, int]:
    big = dec.model.big
    return {i: dec.sol[i] for i in range(dec.model.n) if dec.mo[i] == big}


def refused_states(buffers: list[Buffer], capacity: int, heuristic: str, rerank: bool, monkeypatch) -> list[tuple]:
    """(placed offsets, unplaced buffers of the part, last key, part ranks) of every state refuted by inference."""
    model, dec = traced_decider(buffers, capacity, heuristic, rerank, monkeypatch)
    refused: list[tuple] = []
    refuted = _Decider._refuted

    def traced_refuted(self, part, offs, movable, last_off):
        out = refuted(self, part, offs, movable, last_off)
        if out and len(refused) < MAX_CHECKED:
            todo = [int(i) for i in part.idx if self.mo[i] < self.model.big]
            refused.append((placed_of(self), todo, self.last, self.part_rank))
        return out

    monkeypatch.setattr(_Decider, "_refuted", traced_refuted)
    for group in model.split():
        dec.run(group)
    monkeypatch.undo()
    return refused


def floor_skipped(buffers: list[Buffer], capacity: int, heuristic: str, rerank: bool, monkeypatch) -> list[tuple]:
    """(placed offsets, unplaced buffers of the part, skipped (buffer, offset), part ranks) for every
    candidate above the room the monotonic floor leaves at a searched state."""
    model, dec = traced_decider(buffers, capacity, heuristic, rerank, monkeypatch)
    skipped: list[tuple] = []
    floor_room = _Decider._floor_room

    def traced_floor_room(self, part):
        room = floor_room(self, part)
        offs = self.mo[part.idx]
        todo = [int(i) for i in part.idx[offs < self.model.big]]
        last = self.last
        for i, o, r in zip(part.idx.tolist(), offs.tolist(), part.ranks.tolist()):
            if o < self.model.big and (o, r) > last and o > room and len(skipped) < MAX_CHECKED:
                skipped.append((placed_of(self), todo, (i, o), self.part_rank))
        return room

    monkeypatch.setattr(_Decider, "_floor_room", traced_floor_room)
    for group in model.split():
        dec.run(group)
    monkeypatch.undo()
    return skipped


CHUNKS = 8
SEEDS_PER_CHUNK = 25
"""200 random problems of 6 to 9 buffers (every third with branch paths, every
fourth aligned); about one in five has states that the inference refutes."""


def decision_cases(chunk: int):
    """(seed, buffers, capacity, heuristic) of chunk ``chunk`` of the random problems: every
    capacity from the lower bound to one above the best peak, under every heuristic."""
    for seed in range(chunk * SEEDS_PER_CHUNK, (chunk + 1) * SEEDS_PER_CHUNK):
        rng = random.Random(seed)
        buffers = random_problem(seed, rng.randrange(6, 10), paths=seed % 3 == 1, aligned=seed % 4 == 2).buffers
        for capacity in range(lower_bound(buffers), brute_force_peak(buffers) + 2):
            for heuristic in HEURISTICS:
                yield seed, buffers, capacity, heuristic


@pytest.mark.parametrize("rerank", [False, True], ids=["parts-keep-ranks", "parts-reranked"])
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_every_refused_state_has_no_completion(chunk, rerank, monkeypatch):
    checked = 0
    for seed, buffers, capacity, heuristic in decision_cases(chunk):
        for placed, todo, last, rank in refused_states(buffers, capacity, heuristic, rerank, monkeypatch):
            assert not completes(buffers, rank, capacity, dict(placed), todo, last), (
                seed, capacity, heuristic, placed, todo, last,
            )
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("rerank", [False, True], ids=["parts-keep-ranks", "parts-reranked"])
@pytest.mark.parametrize("chunk", range(4))
def test_every_candidate_above_the_floor_room_has_no_completion(chunk, rerank, monkeypatch):
    """A candidate placed above the room, then completed canonically, never fits."""
    checked = 0
    for seed, buffers, capacity, heuristic in decision_cases(chunk):
        for placed, todo, (i, o), rank in floor_skipped(buffers, capacity, heuristic, rerank, monkeypatch):
            placed[i] = o
            rest = [j for j in todo if j != i]
            assert not completes(buffers, rank, capacity, placed, rest, (o, rank[i])), (
                seed, capacity, heuristic, placed, rest,
            )
            checked += 1
    assert checked > 0


def decider_at(model: _Model, rank, capacity: int, placed: list[tuple[int, int]]) -> _Decider:
    """A decider whose tables hold ``placed`` ((buffer, offset) in placement order), built from scratch."""
    dec = _Decider(model, np.array(rank, dtype=np.int64), capacity, 10**6, INF)
    for i, o in placed:
        top = o + model.size[i]
        for j in model.nbrs[i].tolist():
            dec.mo[j] = max(dec.mo[j], -(-top // model.align[j]) * model.align[j])
        dec.total[model.cliques_of[i]] -= model.size[i]
    for i, o in placed:
        dec.mo[i] = model.big
        dec.sol[i] = o
    return dec


def random_prefix(rng: random.Random, buffers, rank, capacity) -> list[tuple[int, int]]:
    """A random canonical partial placement: each buffer at the aligned top of its placed conflicting ones."""
    placed: list[tuple[int, int]] = []
    last = (-1, -1)
    for _ in range(rng.randrange(1, len(buffers))):
        at = dict(placed)
        spots = []
        for i, b in enumerate(buffers):
            if i in at:
                continue
            top = max((o + buffers[j].size for j, o in at.items() if conflicts(b, buffers[j])), default=0)
            lo = -(-top // b.align) * b.align
            if (lo, rank[i]) > last and lo + b.size <= capacity:
                spots.append((i, lo))
        if not spots:
            break
        i, lo = rng.choice(spots)
        placed.append((i, lo))
        last = (lo, rank[i])
    return placed


@pytest.mark.parametrize("chunk", range(4))
def test_random_states_refused_only_without_completion(chunk):
    """Random prefixes reach states with buffers left below the last placement that still complete."""
    lifted_and_complete = 0
    for seed in range(chunk * 150, (chunk + 1) * 150):
        rng = random.Random(seed)
        buffers = random_problem(seed, rng.randrange(5, 9), paths=seed % 3 == 1, aligned=seed % 4 == 2).buffers
        model = _Model(buffers)
        rank = list(range(len(buffers)))
        rng.shuffle(rank)
        capacity = lower_bound(buffers) + rng.randrange(0, 4)
        placed = random_prefix(rng, buffers, rank, capacity)
        if not placed:
            continue
        dec = decider_at(model, rank, capacity, placed)
        last_i, last_off = placed[-1]
        last_key = last_off * model.radix + rank[last_i]
        for group in model.split():
            todo = [i for i in group.tolist() if dec.mo[i] < model.big]
            if not todo:
                continue
            part = _Part(dec, group, model.clique_start[min(model.ts0[i] for i in group.tolist())],
                         model.clique_start[max(model.ts1[i] for i in group.tolist())])
            offs = dec.mo[part.idx]
            movable = offs * model.radix + part.ranks > last_key
            refused = dec._refuted(part, offs, movable, last_off)
            complete = completes(buffers, rank, capacity, dict(placed), todo, (last_off, rank[last_i]))
            assert not (refused and complete), (seed, placed, todo, capacity)
            stuck = any(not movable[k] and offs[k] < model.big for k in range(len(offs)))
            lifted_and_complete += stuck and complete
    assert lifted_and_complete > 0
