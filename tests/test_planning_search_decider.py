"""The search's decision procedure, its driver and its schedule.

The decision search is checked against the brute-force optimum at every
capacity around it, with every preorder; after each decision its tables are
back where they started; its node limit, clock check, memory of refuted
states and deepest partial plan do what they document. The driver
(``_Optimizer.decide``) and the capacity schedule of ``plan_search`` are run
with scripted decisions and compared with the documented order of work.
"""

from __future__ import annotations

import random
import time

import pytest

from cfmem.planning import search, search_decider, search_tables
from cfmem.planning.greedy import plan_best_fit
from cfmem.planning.problem import Buffer, PlanOptions, Problem, conflicts, lower_bound, peak_of
from cfmem.planning.search import HEURISTICS, INCUMBENT_STRATEGIES, _Optimizer, plan_search
from cfmem.planning.search_decider import _Decider, _Stop
from cfmem.planning.search_tables import _Model
from cfmem.planning.verify import verify_plan
from test_planning_search import brute_force_peak, random_problem
from test_planning_search_parts import ABOVE_THE_BOUND

INF = float("inf")
HARD_SEED = 22
"""A random problem whose refutation one byte below the optimum takes a few hundred nodes."""


def hard_problem() -> Problem:
    return random_problem(HARD_SEED, 8, paths=HARD_SEED % 3 == 1, aligned=HARD_SEED % 4 == 2)


def decider(model: _Model, capacity: int, heuristic: str = "TWA", **kw) -> _Decider:
    kw.setdefault("node_limit", 10**9)
    kw.setdefault("deadline", INF)
    return _Decider(model, model.preorder(heuristic), capacity, kw.pop("node_limit"), kw.pop("deadline"), **kw)


def assert_restored(dec: _Decider, model: _Model, capacity: int) -> None:
    """Every table the search updates while it descends is back to its start."""
    assert dec.mo[: model.n].tolist() == [0] * model.n and dec.mo[model.n] == capacity
    assert dec.total.tolist() == model.total0.tolist()
    assert dec.cut.tolist() == model.cut0.tolist()
    assert dec.depth == 0


def decide(model: _Model, capacity: int, heuristic: str, rerank: bool = False) -> tuple[_Decider, bool]:
    dec = decider(model, capacity, heuristic, keys=heuristic if rerank else "")
    found = True
    for group in model.split():
        found = dec.run(group) and found
        assert_restored(dec, model, capacity)
    return dec, found


@pytest.mark.parametrize("rerank", [False, True], ids=["parts-keep-ranks", "parts-reranked"])
@pytest.mark.parametrize("seed", range(36))
def test_decisions_match_the_brute_force_optimum(seed, rerank):
    rng = random.Random(77 + seed)
    problem = random_problem(300 + seed, rng.randrange(2, 9), paths=seed % 3 == 1, aligned=seed % 4 == 2)
    buffers = problem.buffers
    model = _Model(buffers)
    best = brute_force_peak(buffers)
    for heuristic in HEURISTICS:
        for capacity in sorted({lower_bound(buffers) - 1, best - 1, best, best + 2}):
            dec, found = decide(model, capacity, heuristic, rerank)
            assert found == (capacity >= best), (heuristic, capacity, best)
            if found:
                verify_plan(buffers, {b.id: dec.sol[i] for i, b in enumerate(buffers)}, arena_size=capacity)


def test_a_clique_above_the_capacity_is_refused_without_a_node():
    model = _Model(ABOVE_THE_BOUND.buffers)
    dec, found = decide(model, lower_bound(ABOVE_THE_BOUND.buffers) - 1, "TWA")
    assert not found and dec.nodes == 0


def test_one_buffer_takes_two_nodes():
    # The root places it; the child finds every buffer placed.
    model = _Model([Buffer("a", 0, 1, 4)])
    dec, found = decide(model, 4, "TWA")
    assert found and dec.nodes == 2 and dec.sol == [0]
    # the smallest capacity there is: one byte for a one-byte buffer
    dec, found = decide(_Model([Buffer("b", 0, 1, 1)]), 1, "TWA")
    assert found and dec.nodes == 2


def test_a_buffer_spanning_two_sections_completes_through_decomposition():
    buffers = [Buffer("a", 0, 2, 2), Buffer("c", 2, 4, 2), Buffer("b", 0, 4, 3)]
    model = _Model(buffers)
    for heuristic in HEURISTICS:
        dec, found = decide(model, 5, heuristic)
        assert found
        verify_plan(buffers, {b.id: dec.sol[i] for i, b in enumerate(buffers)}, arena_size=5)


def refutation_nodes(model: _Model, capacity: int) -> int:
    dec, found = decide(model, capacity, "TWA")
    assert not found
    return dec.nodes


@pytest.mark.parametrize("limit", [1, 2, 7, 40])
def test_the_node_limit_stops_at_exactly_that_many_nodes(limit):
    problem = hard_problem()
    model = _Model(problem.buffers)
    capacity = brute_force_peak(problem.buffers) - 1
    assert refutation_nodes(model, capacity) > 40
    dec = decider(model, capacity, node_limit=limit)
    with pytest.raises(_Stop):
        for group in model.split():
            dec.run(group)
    assert dec.nodes == limit


def test_the_clock_is_read_every_32_nodes(monkeypatch):
    problem = hard_problem()
    model = _Model(problem.buffers)
    capacity = brute_force_peak(problem.buffers) - 1
    readings = []

    def clock():
        readings.append(1)
        return 5.0

    monkeypatch.setattr(search_decider.time, "perf_counter", clock)
    dec = decider(model, capacity, deadline=4.0)
    with pytest.raises(_Stop):
        for group in model.split():
            dec.run(group)
    assert dec.nodes == 32 and len(readings) == 1
    # At the deadline itself the search goes on.
    readings.clear()
    dec = decider(model, capacity, deadline=5.0)
    assert not any([dec.run(group) for group in model.split()])
    assert len(readings) == dec.nodes // 32


def test_refuted_states_are_remembered_and_shared():
    problem = hard_problem()
    model = _Model(problem.buffers)
    capacity = brute_force_peak(problem.buffers) - 1
    first_nodes = refutation_nodes(model, capacity)
    shared: dict[int, int] = {}
    dec = decider(model, capacity, failed=shared)
    assert not any([dec.run(group) for group in model.split()])
    assert dec.nodes == first_nodes and dec.failed is shared
    assert shared and all(isinstance(k, int) for k in shared) and set(shared.values()) == {capacity}
    # The same or a smaller capacity is refused at the root of each group.
    groups = len(model.split())
    for cap in (capacity, capacity - 1):
        again = decider(model, cap, failed=shared)
        assert not any([again.run(group) for group in model.split()])
        assert again.nodes <= groups
    # A larger capacity is searched afresh, and a decider without the memory starts empty.
    assert decider(model, capacity).failed == {}
    assert any(decider(model, capacity + 1, failed=shared).run(g) for g in model.split())


def test_the_memory_keeps_the_largest_refuted_capacity(monkeypatch):
    dec = decider(_Model([Buffer("a", 0, 1, 4)]), 4)
    dec._fail(11, 0)
    assert dec.failed == {11: 0}
    dec._fail(11, 5)
    dec._fail(11, 3)
    assert dec.failed == {11: 5}
    monkeypatch.setattr(search_decider, "MAX_MEMO", 2)
    dec._fail(12, 1)
    dec._fail(13, 1)  # full: not remembered
    assert dec.failed == {11: 5, 12: 1}


def test_the_deepest_partial_plan_is_kept_when_the_nodes_run_out():
    problem = hard_problem()
    buffers = problem.buffers
    model = _Model(buffers)
    capacity = brute_force_peak(buffers) - 1
    dec = decider(model, capacity, node_limit=1)
    with pytest.raises(_Stop):
        dec.run(model.split()[0])
    assert dec.best_partial == {} and dec.best_depth < 0
    for limit in (3, 9, 60):
        dec = decider(model, capacity, node_limit=limit)
        with pytest.raises(_Stop):
            for group in model.split():
                dec.run(group)
        partial = dec.best_partial
        assert partial and dec.best_depth == sum(model.area[i] for i in partial)
        assert all(o + buffers[i].size <= capacity for i, o in partial.items())
        for i, j in ((i, j) for i in partial for j in partial if i < j):
            if conflicts(buffers[i], buffers[j]):
                assert partial[i] + buffers[i].size <= partial[j] or partial[j] + buffers[j].size <= partial[i]


# -- the driver, with scripted decisions ---------------------------------------

TWO_GROUPS = [
    Buffer("a0", 0, 2, 4),
    Buffer("a1", 1, 3, 4),
    Buffer("b0", 5, 7, 3),
    Buffer("b1", 6, 8, 3),
]


class ScriptedDecider:
    """Stands in for ``_Decider``: records each decision and plays a scripted outcome."""

    script: dict[tuple[int, str], tuple] = {}
    calls: list[tuple[int, str, int, int, bool]] = []
    optimizer: _Optimizer | None = None

    def __init__(self, model, rank, capacity, node_limit, deadline, failed, keys=""):
        opt = ScriptedDecider.optimizer
        self.heuristic = next(h for h, r in opt.ranks.items() if r is rank)
        assert keys == self.heuristic
        self.capacity, self.node_limit = capacity, node_limit
        self.shared = failed is opt.failed[self.heuristic]
        self.nodes, self.best_depth, self.best_partial, self.sol = 0, -1, {}, [0] * model.n

    def run(self, group):
        first = int(group[0])
        ScriptedDecider.calls.append((first, self.heuristic, self.capacity, self.node_limit, self.shared))
        action, *args = ScriptedDecider.script[(first, self.heuristic)]
        if action == "found":
            self.nodes = 3
            for i, o in args[0].items():
                self.sol[i] = o
            return True
        if action == "fail":
            self.nodes = 5
            return False
        self.nodes = self.node_limit
        self.best_depth, self.best_partial = args
        raise _Stop


@pytest.fixture
def scripted(monkeypatch):
    monkeypatch.setattr(search, "_Decider", ScriptedDecider)
    ScriptedDecider.calls = []

    def make(offsets: list[int], script: dict, deadline: float = INF) -> _Optimizer:
        opt = _Optimizer(_Model(TWO_GROUPS), offsets, deadline)
        ScriptedDecider.optimizer, ScriptedDecider.script = opt, script
        return opt

    return make


def test_groups_at_or_below_the_capacity_are_skipped_and_the_winning_preorder_goes_first(scripted):
    opt = scripted([0, 4, 0, 3], {(0, "TWA"): ("stop", 1, {}), (0, "WAT"): ("found", {0: 0, 1: 4})})
    assert opt.group_peak == [8, 6]
    assert opt.decide(7, 40) is True
    assert ScriptedDecider.calls == [(0, "TWA", 7, 40, True), (0, "WAT", 7, 40, True)]
    assert opt.order == ["WAT", "TWA", "TAW"] and opt.nodes == 43 and opt.decisions == 1
    assert opt.offsets == [0, 4, 0, 3] and opt.group_peak == [8, 6]
    # the next decision starts with the preorder that won
    opt.script = ScriptedDecider.script = {(0, "WAT"): ("found", {0: 4, 1: 0})}
    assert opt.decide(6, 40) is True
    assert ScriptedDecider.calls[-1][:2] == (0, "WAT") and opt.offsets[:2] == [4, 0] and opt.decisions == 2
    # at a capacity every group already meets, nothing is searched
    assert opt.decide(8, 40) is True and len(ScriptedDecider.calls) == 3


def test_the_group_with_the_highest_peak_is_tried_first(scripted):
    opt = scripted([0, 4, 0, 6], {(0, "TWA"): ("found", {0: 0, 1: 4}), (2, "TWA"): ("found", {2: 0, 3: 3})})
    assert opt.group_peak == [8, 9]
    assert opt.decide(5, 40) is True
    assert [c[0] for c in ScriptedDecider.calls] == [2, 0]
    assert opt.group_peak == [8, 6] and opt.peak == 8


def test_an_exhaustive_refusal_ends_the_decision(scripted):
    opt = scripted([0, 4, 0, 3], {(0, "TWA"): ("fail",)})
    assert opt.decide(5, 40) is False
    assert ScriptedDecider.calls == [(0, "TWA", 5, 40, True)] and opt.nodes == 5


def test_unsettled_groups_complete_the_deepest_partial_plan(scripted):
    # Deepest first among equals: the first depth-5 partial wins.
    script = {
        (0, "TWA"): ("stop", 5, {1: 0}),
        (0, "WAT"): ("stop", 5, {0: 0}),
        (0, "TAW"): ("stop", 3, {0: 0}),
        (2, "TWA"): ("stop", 2, {}),
        (2, "WAT"): ("stop", 2, {}),
        (2, "TAW"): ("stop", 2, {}),
    }
    opt = scripted([0, 10, 3, 0], script)
    assert opt.decide(5, 40) is None
    assert [c[:2] for c in ScriptedDecider.calls] == [
        (0, "TWA"), (0, "WAT"), (0, "TAW"), (2, "TWA"), (2, "WAT"), (2, "TAW")
    ]
    assert opt.offsets[:2] == [4, 0] and opt.group_peak == [8, 6]  # completed from {a1: 0}
    assert opt.offsets[2:] == [3, 0]  # completing group b by first fit gives 6 again: not adopted
    assert opt.order == list(HEURISTICS) and opt.nodes == 6 * 40


def test_a_one_byte_deep_partial_plan_is_still_the_deepest(scripted):
    # Depth is area placed; a first partial plan of area 1 beats having none.
    tiny = [Buffer("u", 0, 1, 1), Buffer("v", 0, 1, 1)]
    script = {(0, h): ("stop", 1, {1: 0}) if h == "TWA" else ("stop", -1, {}) for h in HEURISTICS}
    ScriptedDecider.calls = []
    opt = _Optimizer(_Model(tiny), [0, 1], INF)
    ScriptedDecider.optimizer, ScriptedDecider.script = opt, script
    opt.offsets = [0, 5]
    opt.group_peak = [6]
    assert opt.decide(1, 40) is None
    assert opt.offsets == [1, 0]  # completed from {v: 0}, not from scratch (which gives u 0, v 1)


def test_the_node_budget_of_experiments_reaches_the_driver(monkeypatch):
    monkeypatch.setattr(search, "_NODE_BUDGET", 123)
    assert _Optimizer(_Model(TWO_GROUPS), [0, 4, 0, 3], INF).node_budget == 123


def test_a_node_budget_caps_each_decision(scripted):
    opt = scripted([0, 10, 0, 3], {(0, "TWA"): ("found", {0: 0, 1: 4})})
    opt.node_budget, opt.nodes = 50, 44
    assert opt.decide(7, 40) is True
    assert ScriptedDecider.calls == [(0, "TWA", 7, 6, True)]
    assert not opt.out_of_time()  # 47 nodes used
    opt.nodes = 49  # one node left: still a decision, with a limit of one
    assert opt.decide(7, 40) is True and ScriptedDecider.calls[-1][3] == 1
    opt.nodes = 50
    assert opt.out_of_time()
    calls = len(ScriptedDecider.calls)
    opt.group_peak[0] = 9
    assert opt.decide(7, 40) is None and len(ScriptedDecider.calls) == calls


def test_out_of_time_the_decision_stops_after_the_first_unsettled_group(scripted):
    script = {(0, "TWA"): ("stop", 1, {}), (2, "TWA"): ("stop", 1, {})}
    opt = scripted([0, 4, 0, 6], script, deadline=-INF)
    assert opt.decide(5, 40) is None
    assert [c[:2] for c in ScriptedDecider.calls] == [(2, "TWA")]
    assert opt.offsets[2:] == [0, 3] and opt.group_peak == [8, 6]  # completed by first fit


# -- plan_search: the capacity schedule ----------------------------------------


def reference_schedule(bound: int, greedy: int, n: int, optimum: int, enough: int) -> tuple[list, int, int]:
    """The documented rounds: probe the bound, then bisect; limits double per round."""
    calls = []
    lo, hi, limit = bound, greedy, 2 * n
    tolerance = max(1, bound // 256)
    while lo < hi:
        capacity, soft, node_limit = lo, lo, limit
        while True:
            calls.append((capacity, node_limit))
            if capacity >= optimum:
                hi, result = capacity, True
            elif node_limit >= enough:
                lo, result = capacity + 1, False
            else:
                result = None
            if result is not True:
                soft = max(soft, capacity + 1)
            if lo >= hi or hi - soft <= tolerance:
                break
            capacity = (soft + hi) // 2
            node_limit = max(2 * n, limit // 4)
        limit *= 2
    return calls, lo, hi


def scaled_problem(scale: int) -> Problem:
    return Problem([Buffer(b.id, b.start, b.end, b.size * scale) for b in ABOVE_THE_BOUND.buffers])


@pytest.mark.parametrize("scale,optimum_above,enough", [(100, 40, 64), (100, 0, 8), (1000, 333, 200), (3, 1, 1000)])
def test_capacity_schedule(monkeypatch, scale, optimum_above, enough):
    problem = scaled_problem(scale)
    bound = lower_bound(problem.buffers)
    calls = []

    def scripted_decide(self, capacity, node_limit):
        calls.append((capacity, node_limit))
        self.decisions += 1
        if capacity >= bound + optimum_above:
            self.group_peak = [capacity] * len(self.group_peak)
            return True
        return False if node_limit >= enough else None

    monkeypatch.setattr(_Optimizer, "decide", scripted_decide)
    began = time.perf_counter()
    placement = plan_search(problem, PlanOptions(time_limit=60.0))
    wall = time.perf_counter() - began
    greedy = int(placement.stats["greedy_peak"])
    expected, lo, hi = reference_schedule(bound, greedy, len(problem.buffers), bound + optimum_above, enough)
    assert greedy > bound and calls == expected
    assert all(type(limit) is int for _, limit in calls)
    assert placement.stats["proven_lower_bound"] == lo and placement.stats["decisions"] == len(calls)
    assert placement.proven_optimal == (lo >= hi)
    assert placement.stats["lower_bound"] == bound and placement.stats["nodes"] == 0
    assert 0 <= placement.stats["seconds"] <= wall


def test_no_time_means_no_decision_and_the_first_greedy_plan():
    problem = scaled_problem(10)
    placement = plan_search(problem, PlanOptions(time_limit=0.0))
    assert placement.stats["decisions"] == 0 and placement.stats["nodes"] == 0
    first = INCUMBENT_STRATEGIES[0](problem, PlanOptions()).offsets
    assert placement.offsets == first


def best_fit_wins() -> Problem:
    """A random problem on which best fit is strictly better than every other greedy order."""
    for seed in range(100):
        rng = random.Random(seed)
        buffers = []
        for k in range(60):
            start = rng.randrange(40)
            buffers.append(Buffer(f"b{k}", start, start + rng.randrange(1, 10), rng.randrange(1, 64)))
        problem = Problem(buffers)
        peaks = [peak_of(buffers, s(problem, PlanOptions()).offsets) for s in INCUMBENT_STRATEGIES]
        if peaks[1] < min(peaks[0], *peaks[2:]):
            return problem
    raise AssertionError("no problem where best fit wins")


def test_too_big_keeps_the_best_greedy_plan_and_says_so(monkeypatch):
    monkeypatch.setattr(search_tables, "MAX_PAIRS", 0)
    problem = best_fit_wins()
    bound = lower_bound(problem.buffers)
    placement = plan_search(problem, PlanOptions(time_limit=10.0))
    best = plan_best_fit(problem, PlanOptions())
    greedy = peak_of(problem.buffers, best.offsets)
    assert placement.offsets == best.offsets
    assert placement.stats == {
        "lower_bound": float(bound),
        "proven_lower_bound": float(bound),
        "nodes": 0.0,
        "greedy_peak": float(greedy),
        "too_big": 1.0,
    }
    assert placement.proven_optimal == (greedy == bound)
    tight = Problem([Buffer("z", 0, 1, 0), Buffer("a", 0, 2, 5), Buffer("b", 1, 3, 7)])
    placed = plan_search(tight, PlanOptions())
    assert placed.proven_optimal and placed.offsets["z"] == 0
    assert set(placed.offsets) == {"z", "a", "b"} and placed.stats["too_big"] == 1.0
