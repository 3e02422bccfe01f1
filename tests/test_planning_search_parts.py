"""The search's edges: nothing to place, its greedy starting plan, and what it reports."""

from __future__ import annotations

import random

import pytest

from cfmem.planning.greedy import plan_best_fit, plan_large_first, plan_sequential, plan_short_first
from cfmem.planning.problem import Buffer, PlanOptions, Problem, lower_bound, peak_of
from cfmem.planning.search import INCUMBENT_STRATEGIES, plan_search

ABOVE_THE_BOUND = Problem([Buffer("b0", 3, 6, 4), Buffer("b1", 2, 5, 3), Buffer("b2", 0, 3, 2), Buffer("b3", 0, 1, 4)])


def test_only_zero_sized_buffers_are_placed_at_zero_and_proven():
    placement = plan_search(Problem([Buffer("a", 0, 2, 0), Buffer("b", 1, 3, 0)]), PlanOptions())
    assert placement.offsets == {"a": 0, "b": 0}
    assert placement.proven_optimal
    assert placement.stats == {"lower_bound": 0.0, "nodes": 0.0}


def test_zero_sized_buffers_sit_at_zero_beside_a_searched_plan():
    problem = Problem([Buffer("z", 0, 3, 0), *ABOVE_THE_BOUND.buffers])
    placement = plan_search(problem, PlanOptions(time_limit=2.0))
    assert placement.offsets["z"] == 0 and set(placement.offsets) == {b.id for b in problem.buffers}


def test_the_search_starts_from_the_best_greedy_plan_and_reports_it():
    assert INCUMBENT_STRATEGIES == (plan_large_first, plan_best_fit, plan_short_first, plan_sequential)
    rng = random.Random(3)
    buffers = []
    for k in range(40):
        start = rng.randrange(30)
        buffers.append(Buffer(f"b{k}", start, start + rng.randrange(1, 8), rng.randrange(1, 64)))
    problem = Problem(buffers)
    greedy_peaks = [peak_of(buffers, s(problem, PlanOptions()).offsets) for s in INCUMBENT_STRATEGIES]
    placement = plan_search(problem, PlanOptions(time_limit=2.0))
    assert placement.stats["greedy_peak"] == min(greedy_peaks)
    assert placement.stats["lower_bound"] == lower_bound(buffers)
    assert placement.stats["lower_bound"] <= placement.stats["proven_lower_bound"]
    assert peak_of(buffers, placement.offsets) <= min(greedy_peaks)
    assert placement.proven_optimal == (placement.stats["proven_lower_bound"] >= peak_of(buffers, placement.offsets))


def test_out_of_time_it_keeps_the_first_greedy_plan_at_least():
    placement = plan_search(ABOVE_THE_BOUND, PlanOptions(time_limit=1e-9))
    assert placement.stats["greedy_peak"] == peak_of(ABOVE_THE_BOUND.buffers, plan_large_first(ABOVE_THE_BOUND, PlanOptions()).offsets)
    assert peak_of(ABOVE_THE_BOUND.buffers, placement.offsets) <= placement.stats["greedy_peak"]


@pytest.mark.parametrize("time_limit", [0.5, 2.0])
def test_it_reaches_the_bound_every_greedy_plan_misses(time_limit):
    placement = plan_search(ABOVE_THE_BOUND, PlanOptions(time_limit=time_limit))
    assert peak_of(ABOVE_THE_BOUND.buffers, placement.offsets) == 7 < placement.stats["greedy_peak"]
    assert placement.proven_optimal and placement.stats["proven_lower_bound"] == placement.stats["lower_bound"] == 7
