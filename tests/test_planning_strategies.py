"""``solve`` and ``auto``: the strategy registry, what a Solution reports, and auto's choice."""

from __future__ import annotations

import time
import types

import pytest

from cfmem.planning import strategies
from cfmem.planning.problem import Buffer, Placement, PlanOptions, Problem, lower_bound, peak_of
from cfmem.planning.strategies import AUTO_CANDIDATES, STRATEGY_NAMES, get_strategy, plan_auto, solve

ONE = Problem([Buffer("a", 0, 1, 8)])
ABOVE_THE_BOUND = Problem([Buffer("b0", 3, 6, 4), Buffer("b1", 2, 5, 3), Buffer("b2", 0, 3, 2), Buffer("b3", 0, 1, 4)])
"""Every fast heuristic ends above the lower bound here (found by a seeded random search)."""


def test_an_unknown_strategy_is_refused_with_the_known_ones():
    with pytest.raises(ValueError) as err:
        get_strategy("fastest")
    assert str(err.value) == (
        "unknown strategy 'fastest' (choose from sequential, large-first, short-first, best-fit, tflm, by-size, beam, search, auto)"
    )


@pytest.mark.parametrize("name", STRATEGY_NAMES)
def test_every_named_strategy_is_found_and_plans(name):
    placement = get_strategy(name)(ONE, PlanOptions(time_limit=1.0))
    assert placement.offsets == {"a": 0}


def test_solve_defaults_to_auto_and_reports_its_choice():
    solution = solve(ONE)
    assert solution.strategy == "auto"
    assert solution.stats["auto_choice"] == 0  # all tie; the first listed is kept
    assert (solution.offsets, solution.peak, solution.lower_bound) == ({"a": 0}, 8, 8)


def test_solve_passes_default_options_to_a_strategy_that_reads_them():
    solution = solve(ONE, "search")
    assert solution.strategy == "search" and solution.proven_optimal


def test_a_plan_at_the_lower_bound_is_called_optimal_even_from_a_heuristic():
    solution = solve(ONE, "sequential")
    assert solution.proven_optimal and solution.peak == solution.lower_bound == 8


def test_a_heuristic_plan_above_the_bound_is_not_called_optimal():
    solution = solve(ABOVE_THE_BOUND, "large-first")
    assert solution.lower_bound == lower_bound(ABOVE_THE_BOUND.buffers) == 7
    assert solution.peak == peak_of(ABOVE_THE_BOUND.buffers, solution.offsets) == 9
    assert not solution.proven_optimal


def test_solve_reports_the_strategy_run_and_how_long_it_took():
    began = time.perf_counter()
    solution = solve(ABOVE_THE_BOUND, "best-fit")
    wall = time.perf_counter() - began
    assert solution.strategy == "best-fit"
    assert 0 < solution.seconds <= wall
    assert solution.stats == get_strategy("best-fit")(ABOVE_THE_BOUND, PlanOptions()).stats


def test_solve_refuses_a_strategy_whose_plan_overlaps(monkeypatch):
    overlapping = types.SimpleNamespace(plan=lambda problem, options: Placement({"b0": 0, "b1": 0, "b2": 0, "b3": 0}))
    monkeypatch.setitem(strategies._REGISTRY, "broken", ("broken_module", "plan"))
    monkeypatch.setattr(strategies.importlib, "import_module", lambda name: overlapping)
    with pytest.raises(ValueError, match="live together and overlap"):
        solve(ABOVE_THE_BOUND, "broken")


def fake_candidates(monkeypatch, peaks: dict[str, int]) -> list:
    """Replace auto's candidates with plans of the given peaks; returns the options each saw."""
    seen = []

    def make(name):
        def plan(problem, options):
            seen.append(options)
            return Placement({"a": peaks[name] - 8}, stats={"name": AUTO_CANDIDATES.index(name)})
        return plan

    module = types.SimpleNamespace(**{name.replace("-", "_"): make(name) for name in AUTO_CANDIDATES})
    for name in AUTO_CANDIDATES:
        monkeypatch.setitem(strategies._REGISTRY, name, ("fake", name.replace("-", "_")))
    monkeypatch.setattr(strategies.importlib, "import_module", lambda name: module)
    return seen


def test_auto_keeps_the_smallest_peak_and_passes_its_options_on(monkeypatch):
    seen = fake_candidates(monkeypatch, {"large-first": 30, "best-fit": 20, "short-first": 10, "sequential": 40, "tflm": 50, "by-size": 60})
    options = PlanOptions(time_limit=3.0)
    placement = plan_auto(ONE, options)
    assert placement.offsets == {"a": 2}
    assert placement.stats == {"name": 2, "auto_choice": 2}  # short-first
    assert seen == [options] * len(AUTO_CANDIDATES)


def test_auto_keeps_the_first_listed_of_equal_peaks(monkeypatch):
    fake_candidates(monkeypatch, {"large-first": 30, "best-fit": 20, "short-first": 20, "sequential": 20, "tflm": 20, "by-size": 20})
    assert plan_auto(ONE, PlanOptions()).stats["auto_choice"] == 1  # best-fit


@pytest.mark.parametrize("alone", ["tflm", "by-size"])
def test_auto_takes_a_tie_rule_of_tflite_micro_when_it_alone_is_best(monkeypatch, alone):
    peaks = {"large-first": 30, "best-fit": 20, "short-first": 20, "sequential": 20, "tflm": 20, "by-size": 20}
    fake_candidates(monkeypatch, peaks | {alone: 19})
    assert AUTO_CANDIDATES[int(plan_auto(ONE, PlanOptions()).stats["auto_choice"])] == alone


def every_candidate(problem: Problem) -> tuple[dict[str, int], str]:
    """What auto chose before its shortcuts: every candidate run, the first smallest kept."""
    runs = [(name, get_strategy(name)(problem, PlanOptions()).offsets) for name in AUTO_CANDIDATES]
    name, offsets = min(runs, key=lambda run: peak_of(problem.buffers, run[1]))
    return offsets, name


def random_problem(seed: int) -> Problem:
    import random

    rng = random.Random(seed)
    buffers = []
    for i in range(rng.randint(1, 40)):
        start = rng.randrange(20)
        size = rng.choice([4, 8, 8, 16, 16, 32]) if seed % 2 else rng.randint(1, 300)
        path = rng.choice([(), (), ((0, 0),), ((0, 1),), ((0, 1), (1, 0))]) if seed % 3 == 0 else ()
        buffers.append(Buffer(f"t{i}", start, start + rng.randint(1, 6), size, path=path))
    return Problem(buffers)


@pytest.mark.parametrize("seed", range(40))
def test_auto_chooses_what_running_every_candidate_chooses(seed):
    problem = random_problem(seed)
    placement = plan_auto(problem, PlanOptions())
    offsets, name = every_candidate(problem)
    assert placement.offsets == offsets
    assert AUTO_CANDIDATES[int(placement.stats["auto_choice"])] == name


def test_auto_stops_once_a_peak_reaches_the_bound(monkeypatch):
    # ONE's bound is 8: the second candidate reaches it, so no later one runs
    seen = fake_candidates(monkeypatch, {"large-first": 30, "best-fit": 8, "short-first": 8, "sequential": 1,
                                         "tflm": 1, "by-size": 1})  # fmt: skip
    assert plan_auto(ONE, PlanOptions()).stats["auto_choice"] == 1
    assert len(seen) == 2


def test_auto_places_an_order_once(monkeypatch):
    from cfmem.planning import greedy

    placed = []
    original = greedy.GreedyOrder.place
    monkeypatch.setattr(greedy.GreedyOrder, "place",
                        lambda self, order, give_up_at=None: placed.append(self) or original(self, order, give_up_at))
    # distinct sizes: large-first, tflm and by-size give one order; every peak is 17, the bound 16
    distinct = Problem([Buffer("b0", 4, 7, 5), Buffer("b1", 2, 3, 7), Buffer("b2", 3, 5, 1), Buffer("b3", 4, 7, 4),
                        Buffer("b4", 2, 5, 6)])  # fmt: skip
    assert lower_bound(distinct.buffers) == 16
    assert plan_auto(distinct, PlanOptions()).stats["auto_choice"] == 0
    assert placed == [greedy.plan_large_first, greedy.plan_best_fit, greedy.plan_short_first, greedy.plan_sequential]


def test_a_greedy_candidate_gives_up_once_it_reaches_the_best_peak(monkeypatch):
    from cfmem.planning import greedy

    # every candidate ends at 17 (the bound is 15): the ones after large-first stop
    # at the buffer that reaches 17, so fewer buffers are placed than without giving up
    problem = Problem([Buffer("t0", 3, 5, 6), Buffer("t1", 1, 4, 8), Buffer("t2", 4, 7, 6), Buffer("t3", 4, 5, 3)])
    placed: list[str] = []
    index_place = greedy._TimeIndex.place
    monkeypatch.setattr(greedy._TimeIndex, "place", lambda self, b, best: placed.append(b.id) or index_place(self, b, best))
    placement = plan_auto(problem, PlanOptions())
    with_giving_up = len(placed)
    assert placement.offsets == every_candidate(problem)[0]

    order_place = greedy.GreedyOrder.place
    monkeypatch.setattr(greedy.GreedyOrder, "place", lambda self, order, give_up_at=None: order_place(self, order))
    placed.clear()
    assert plan_auto(problem, PlanOptions()).offsets == placement.offsets
    assert with_giving_up < len(placed)


@pytest.mark.parametrize("best_fit", [False, True])
def test_place_in_order_gives_up_at_a_peak_it_reaches(best_fit):
    from cfmem.planning.greedy import place_in_order

    order = [Buffer("a", 0, 2, 8), Buffer("b", 1, 3, 4), Buffer("c", 0, 3, 2)]
    full = place_in_order(order, best_fit)
    peak = peak_of(order, full)
    assert place_in_order(order, best_fit, give_up_at=peak + 1) == full
    assert place_in_order(order, best_fit, give_up_at=peak) is None
