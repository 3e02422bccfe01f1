"""The search's static tables against brute-force definitions.

Time sections, cliques (with and without branch paths), the clique pair
arrays and their sentinels, neighbours, cuts, independent groups, the static
preorders, the greedy completion of a partial plan and the state-hash
weights, each recomputed here from its definition on random problems.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from cfmem.planning import search_tables
from cfmem.planning.problem import Buffer, conflicts, paths_compatible
from cfmem.planning.search import HEURISTICS
from cfmem.planning.search_tables import _hash_weights, _Model, _path_choices

MASK = (1 << 64) - 1
PATHS = [(), ((0, 0),), ((0, 1),), ((0, 0), (1, 0)), ((0, 0), (1, 1)), ((2, 0),), ((2, 1),), ((2, 2),)]


def align_up(x: int, align: int) -> int:
    return -(-x // align) * align


def random_buffers(rng: random.Random, n: int, paths: bool, aligned: bool, span: int = 12) -> list[Buffer]:
    buffers = []
    for k in range(n):
        start = rng.randrange(span)
        buffers.append(
            Buffer(
                f"b{k}",
                start,
                start + rng.randrange(1, 6),
                rng.randrange(1, 40),
                align=rng.choice([1, 2, 4, 8]) if aligned else 1,
                path=rng.choice(PATHS) if paths else (),
            )
        )
    return buffers


CASES = [(seed, paths, aligned) for seed in range(12) for paths in (False, True) for aligned in (False, True)]


def case_buffers(seed: int, paths: bool, aligned: bool) -> list[Buffer]:
    rng = random.Random(seed * 7 + paths * 3 + aligned)
    return random_buffers(rng, rng.randrange(1, 18), paths, aligned, span=rng.choice([4, 12, 30]))


def reference_sections(buffers: list[Buffer]) -> list[frozenset[int]]:
    """The maximal sets of buffers live together, in time order (each taken just before a death)."""
    deaths = sorted({b.end for b in buffers})
    live = [frozenset(i for i, b in enumerate(buffers) if b.start < t <= b.end) for t in deaths]
    return [s for s in live if not any(s < other for other in live)]


def reference_path_choices(buffers: list[Buffer], cap: int) -> list[dict[int, int]]:
    branches: dict[int, set[int]] = {}
    for b in buffers:
        for if_id, branch in b.path:
            branches.setdefault(if_id, set()).add(branch)
    ifs = sorted(branches)
    combos = itertools.product(*(sorted(branches[f]) for f in ifs))
    return [dict(zip(ifs, combo)) for combo in itertools.islice(combos, cap)]


def reference_cliques(buffers: list[Buffer]) -> list[set[frozenset[int]]]:
    """Per time section, the maximal sets of its buffers that one choice of branches runs together."""
    choices = reference_path_choices(buffers, 10**6)
    out = []
    for section in reference_sections(buffers):
        sets = {
            frozenset(i for i in section if all(choice[f] == br for f, br in buffers[i].path)) for choice in choices
        }
        sets.discard(frozenset())
        out.append({s for s in sets if not any(s < other for other in sets)})
    return out


def model_cliques(model: _Model) -> list[list[int]]:
    members = []
    for c in range(model.n_cliques):
        chunk = model.pair_buf[model.pair_start[c] : model.pair_start[c + 1]].tolist()
        assert chunk[-1] == model.n  # the sentinel closes every clique
        members.append(chunk[:-1])
    return members


def splitmix64(k: int) -> int:
    z = (k * 0x9E3779B97F4A7C15 + 0x243F6A8885A308D3) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


@pytest.mark.parametrize("n", [1, 2, 5, 33])
def test_hash_weights_are_splitmix64_of_the_positions(n):
    weights = _hash_weights(n)
    assert weights.shape == (2, n) and weights.dtype == np.int64
    assert weights.view(np.uint64).ravel().tolist() == [splitmix64(k) for k in range(1, 2 * n + 1)]


@pytest.mark.parametrize("cap", [1, 2, 3, 5, 64])
def test_path_choices_are_the_first_branch_combinations(cap):
    buffers = [
        Buffer("a", 0, 1, 1, path=((3, 1),)),
        Buffer("b", 0, 1, 1, path=((3, 0), (5, 2))),
        Buffer("c", 0, 1, 1, path=((5, 0),)),
        Buffer("d", 0, 1, 1, path=((1, 1),)),
        Buffer("e", 0, 1, 1),
    ]
    assert _path_choices(buffers, cap) == reference_path_choices(buffers, cap)
    assert _path_choices([Buffer("x", 0, 1, 1)], cap) == [{}]


@pytest.mark.parametrize("seed,paths,aligned", CASES)
def test_sections_neighbours_and_cuts(seed, paths, aligned):
    buffers = case_buffers(seed, paths, aligned)
    model = _Model(buffers)
    n = len(buffers)
    sections = reference_sections(buffers)
    assert model.t_count == len(sections)
    for t, section in enumerate(sections):
        assert {i for i in range(n) if model.ts0[i] <= t < model.ts1[i]} == section
    assert model.ts0_np.tolist() == model.ts0
    for i, b in enumerate(buffers):
        expected = sorted(j for j in range(n) if j != i and conflicts(b, buffers[j]))
        assert model.nbrs[i].tolist() == expected
        assert model.degree[i] == len(expected)
    both = [len(sections[t] & sections[t + 1]) if t + 1 < len(sections) else 0 for t in range(len(sections))]
    assert model.cut0.tolist() == [*both, 0]
    assert model.size == [b.size for b in buffers] == model.size_np.tolist()
    assert model.align_np.tolist() == [b.align for b in buffers]
    assert model.area == [b.size * (b.end - b.start) for b in buffers]
    assert model.has_paths == any(b.path for b in buffers)
    assert model.has_align == any(b.align > 1 for b in buffers)
    # Every canonical top stays below ``big`` (offsets of placed buffers are set to it).
    assert model.big > sum(model.size) + sum(model.align)
    assert model.radix > n


@pytest.mark.parametrize("seed,paths,aligned", CASES)
def test_cliques_pairs_and_totals(seed, paths, aligned):
    buffers = case_buffers(seed, paths, aligned)
    model = _Model(buffers)
    members = model_cliques(model)
    expected = reference_cliques(buffers)
    assert model.pair_start[0] == 0 and len(model.pair_buf) == model.pair_start[-1]
    assert len(model.clique_start) == model.t_count + 1 and model.clique_start[0] == 0
    for t, cliques in enumerate(expected):
        found = members[model.clique_start[t] : model.clique_start[t + 1]]
        assert {frozenset(c) for c in found} == cliques and len(found) == len(cliques)
        assert all(c == sorted(c) for c in found)
    assert model.n_cliques == sum(len(c) for c in expected) == model.clique_start[-1]
    assert model.total0.tolist() == [sum(buffers[i].size for i in c) for c in members]
    for i in range(len(buffers)):
        of = np.arange(model.n_cliques)[model.cliques_of[i]].tolist()
        assert of == [c for c, m in enumerate(members) if i in m]
        assert model.clique_max_total[i] == max(model.total0[c] for c in of)
    # Members of one clique are pairwise compatible and live together.
    for c in members:
        for i, j in itertools.combinations(c, 2):
            assert paths_compatible(buffers[i].path, buffers[j].path)


def test_cliques_of_a_buffer_that_skips_cliques_are_listed_one_by_one():
    # "then" spans both sections under branch 0 of if 0; each section also
    # has the else branch's clique, so its cliques (0 and 2) are not contiguous.
    buffers = [
        Buffer("a", 0, 4, 5),
        Buffer("then", 0, 4, 3, path=((0, 0),)),
        Buffer("t1", 0, 2, 1, path=((0, 0),)),
        Buffer("e1", 0, 2, 4, path=((0, 1),)),
        Buffer("t2", 2, 4, 2, path=((0, 0),)),
        Buffer("e2", 2, 4, 6, path=((0, 1),)),
    ]
    model = _Model(buffers)
    assert model_cliques(model) == [[0, 1, 2], [0, 3], [0, 1, 4], [0, 5]]
    assert isinstance(model.cliques_of[1], np.ndarray) and model.cliques_of[1].tolist() == [0, 2]
    assert model.cliques_of[0] == slice(0, 4) and model.cliques_of[2] == slice(0, 1)
    assert model.total0.tolist() == [9, 9, 10, 11]
    assert model.clique_max_total == [11, 10, 9, 9, 10, 11]


def reference_groups(buffers: list[Buffer]) -> list[list[int]]:
    """Buffers in start order, cut wherever no earlier buffer outlives the next start."""
    groups: list[list[int]] = []
    reach = None
    for i in sorted(range(len(buffers)), key=lambda i: (buffers[i].start, i)):
        if reach is None or buffers[i].start >= reach:
            groups.append([])
            reach = buffers[i].end
        groups[-1].append(i)
        reach = max(reach, buffers[i].end)
    return [sorted(g) for g in groups]


@pytest.mark.parametrize("seed,paths,aligned", CASES)
def test_split_into_independent_groups(seed, paths, aligned):
    buffers = case_buffers(seed, paths, aligned)
    groups = _Model(buffers).split()
    assert [g.tolist() for g in groups] == reference_groups(buffers)
    assert all(g.dtype == np.int64 for g in groups)


def test_split_of_a_chain_and_of_disjoint_runs():
    chain = [Buffer(f"c{k}", k, k + 2, 1) for k in range(5)]
    assert [g.tolist() for g in _Model(chain).split()] == [[0, 1, 2, 3, 4]]
    runs = [Buffer(f"r{k}", k, k + 1, 1) for k in range(4)]
    assert [g.tolist() for g in _Model(runs).split()] == [[0], [1], [2], [3]]


@pytest.mark.parametrize("keys", [*HEURISTICS, "Z", "O", "ZO", "W"])
@pytest.mark.parametrize("seed", range(6))
def test_preorders_sort_by_their_keys_descending(keys, seed):
    buffers = case_buffers(seed, seed % 2 == 1, False)
    model = _Model(buffers)
    cliques = model_cliques(model)
    totals = [max(sum(buffers[j].size for j in c) for c in cliques if i in c) for i in range(len(buffers))]
    degree = [sum(1 for j, other in enumerate(buffers) if j != i and conflicts(b, other)) for i, b in enumerate(buffers)]

    def key(i: int):
        b = buffers[i]
        parts = {"W": b.end - b.start, "A": (b.end - b.start) * b.size, "T": totals[i], "Z": b.size, "O": degree[i]}
        return (*(-parts[c] for c in keys), i)

    order = sorted(range(len(buffers)), key=key)
    rank = model.preorder(keys)
    assert rank.dtype == np.int64
    assert [int(rank[i]) for i in order] == list(range(len(buffers)))


@pytest.mark.parametrize("keys", [*HEURISTICS, "ZO"])
@pytest.mark.parametrize("seed", range(8))
def test_preorders_of_a_subset_take_t_from_the_given_totals(keys, seed):
    """A part ranked afresh: T is the largest of its cliques' totals given, ranks run 0.. over the part."""
    buffers = case_buffers(seed, seed % 2 == 1, False)
    model = _Model(buffers)
    cliques = model_cliques(model)
    rng = random.Random(seed)
    idx = np.array(sorted(rng.sample(range(len(buffers)), rng.randrange(1, len(buffers) + 1))), dtype=np.int64)
    total = np.array([rng.randrange(0, 50) for _ in cliques], dtype=np.int64)
    degree = [sum(1 for j, other in enumerate(buffers) if j != i and conflicts(b, other)) for i, b in enumerate(buffers)]

    def key(i: int):
        b = buffers[i]
        t = max((int(total[c]) for c, members in enumerate(cliques) if i in members), default=0)
        parts = {"W": b.end - b.start, "A": (b.end - b.start) * b.size, "T": t, "Z": b.size, "O": degree[i]}
        return (*(-parts[c] for c in keys), i)

    order = sorted(idx.tolist(), key=key)
    rank = dict(zip(idx.tolist(), model.preorder(keys, idx, total).tolist()))
    assert [rank[i] for i in order] == list(range(len(idx)))


def reference_complete(buffers: list[Buffer], members: list[int], partial: dict[int, int]) -> dict[int, int]:
    offsets = dict(partial)
    rest = sorted(
        (i for i in members if i not in offsets),
        key=lambda i: (-buffers[i].size, -buffers[i].size * (buffers[i].end - buffers[i].start), i),
    )
    for i in rest:
        b = buffers[i]
        placed = [(offsets[j], buffers[j].size) for j in offsets if j != i and conflicts(b, buffers[j])]
        spots = sorted({0} | {align_up(o + s, b.align) for o, s in placed})
        offsets[i] = next(x for x in spots if all(x + b.size <= o or o + s <= x for o, s in placed))
    return offsets


@pytest.mark.parametrize("seed,paths,aligned", CASES)
def test_complete_extends_a_partial_plan_by_first_fit_largest_first(seed, paths, aligned):
    buffers = case_buffers(seed, paths, aligned)
    model = _Model(buffers)
    rng = random.Random(seed)
    n = len(buffers)
    chosen = rng.sample(range(n), rng.randrange(0, n + 1))
    partial = {i: rng.randrange(0, 60) for i in chosen}
    assert model.complete(list(range(n)), partial) == reference_complete(buffers, list(range(n)), partial)
    # Only the listed members are added; the partial plan is kept as given.
    some = sorted(rng.sample(range(n), rng.randrange(0, n + 1)))
    done = model.complete(some, partial)
    assert set(done) == set(some) | set(partial)
    assert all(done[i] == o for i, o in partial.items())


def test_complete_places_the_larger_buffer_first_and_ties_by_area():
    buffers = [Buffer("short", 0, 2, 8), Buffer("long", 0, 5, 8), Buffer("big", 1, 3, 9)]
    offsets = _Model(buffers).complete([0, 1, 2], {})
    assert offsets == {2: 0, 1: 9, 0: 17}


def test_sizes_too_large_for_the_keys_are_refused():
    with pytest.raises(search_tables._TooBig, match="64-bit keys"):
        _Model([Buffer("a", 0, 2, 1 << 61), Buffer("b", 1, 3, 1 << 61)])
    _Model([Buffer("a", 0, 2, 1 << 40), Buffer("b", 1, 3, 1 << 40)])  # large but within the keys


def test_too_many_memberships_are_refused(monkeypatch):
    buffers = [Buffer(f"b{k}", 0, 3, 1) for k in range(4)]
    monkeypatch.setattr(search_tables, "MAX_PAIRS", 3)
    with pytest.raises(search_tables._TooBig, match="4 section memberships, 6 overlapping pairs"):
        _Model(buffers)
    monkeypatch.setattr(search_tables, "MAX_PAIRS", 4)
    _Model(buffers)
    monkeypatch.setattr(search_tables, "MAX_OVERLAPS", 5)
    with pytest.raises(search_tables._TooBig, match="6 overlapping pairs"):
        _Model(buffers)


def test_too_many_execution_paths_are_refused(monkeypatch):
    # 4 memberships and 4 branch choices: 16 path-clique entries to build.
    buffers = [
        Buffer("a", 0, 3, 1, path=((0, 0),)),
        Buffer("b", 0, 3, 1, path=((0, 1),)),
        Buffer("c", 0, 3, 1, path=((1, 0),)),
        Buffer("d", 0, 3, 1, path=((1, 1),)),
    ]
    monkeypatch.setattr(search_tables, "MAX_PAIRS", 15)
    with pytest.raises(search_tables._TooBig, match="too many execution paths"):
        _Model(buffers)
    monkeypatch.setattr(search_tables, "MAX_PAIRS", 16)
    assert _Model(buffers).n_cliques == 4


def test_path_cliques_use_at_most_the_capped_choices(monkeypatch):
    buffers = [
        Buffer("a", 0, 3, 1, path=((0, 0),)),
        Buffer("b", 0, 3, 2, path=((0, 1),)),
        Buffer("c", 0, 3, 4, path=((1, 0),)),
        Buffer("d", 0, 3, 8, path=((1, 1),)),
    ]
    monkeypatch.setattr(search_tables, "MAX_PATH_ASSIGNMENTS", 2)
    model = _Model(buffers)
    # Only {if 0: 0, if 1: 0} and {if 0: 0, if 1: 1} are used.
    assert {frozenset(c) for c in model_cliques(model)} == {frozenset({0, 2}), frozenset({0, 3})}
