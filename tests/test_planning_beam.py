"""Beam search over placements: valid, never worse than large-first, deterministic."""

import random

import pytest

from cfmem.planning.beam import _fits, plan_beam
from cfmem.planning.csvio import read_problem_csv
from cfmem.planning.greedy import plan_large_first
from cfmem.planning.problem import Buffer, PlanOptions, Problem, lower_bound, peak_of
from cfmem.planning.strategies import solve
from cfmem.planning.verify import verify_plan
from conftest import ROOT

BENCHMARKS = ROOT / "benchmarks"
FILES = [
    *sorted((BENCHMARKS / "omnimalloc-small").glob("*.csv")),
    BENCHMARKS / "minimalloc" / "input.12.csv",
    BENCHMARKS / "minimalloc" / "A.1048576.csv",
    BENCHMARKS / "minimalloc" / "F.1048576.csv",
]


def random_problem(seed: int, n: int) -> Problem:
    rng = random.Random(seed)
    paths = [(), ((0, 0),), ((0, 1),), ((0, 0), (1, 0)), ((0, 0), (1, 1))]
    buffers = []
    for k in range(n):
        start = rng.randrange(0, 40)
        buffers.append(
            Buffer(
                f"t{k}",
                start,
                start + rng.randrange(1, 12),
                rng.randrange(0, 300),
                align=rng.choice([1, 1, 4, 16]),
                path=rng.choice(paths) if seed % 2 else (),
            )
        )
    return Problem(buffers)


def peaks(problem: Problem, width: int) -> tuple[int, int]:
    placement = plan_beam(problem, PlanOptions(beam_width=width))
    peak = peak_of(problem.buffers, placement.offsets)
    verify_plan(problem.buffers, placement.offsets, arena_size=peak)
    greedy = peak_of(problem.buffers, plan_large_first(problem, PlanOptions()).offsets)
    return peak, greedy


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
@pytest.mark.parametrize("width", [1, 8])
def test_valid_and_never_worse_than_large_first(path, width):
    problem = read_problem_csv(path)
    peak, greedy = peaks(problem, width)
    assert lower_bound(problem.buffers) <= peak <= greedy
    if width == 1:
        assert peak == greedy  # width one is the greedy itself


@pytest.mark.parametrize("seed", range(12))
def test_random_problems_with_paths_and_alignment(seed):
    problem = random_problem(seed, n=60)
    for width in (1, 4):
        peak, greedy = peaks(problem, width)
        assert peak <= greedy
        if width == 1:
            assert peak == greedy


def test_wider_beam_finds_better_plans_on_a_benchmark():
    problem = read_problem_csv(BENCHMARKS / "minimalloc" / "B.1048576.csv")
    narrow, greedy = peaks(problem, 1)
    wide, _ = peaks(problem, 8)
    assert wide < greedy


def test_deterministic():
    problem = random_problem(7, n=80)
    first = plan_beam(problem, PlanOptions(beam_width=8)).offsets
    assert plan_beam(problem, PlanOptions(beam_width=8)).offsets == first


def test_candidate_offsets_are_canonical_and_fit():
    busy = [(0, 10), (8, 20), (24, 30), (40, 41)]
    assert _fits(busy, 4, 1, 10) == [20, 30, 41]
    assert _fits(busy, 3, 8, 10) == [32, 48]  # aligned ends: 24 clashes, 32 fits before 40
    assert _fits([], 5, 4, 3) == [0]
    assert _fits([(6, 9)], 5, 1, 3) == [0, 9]


def test_branches_share_memory():
    problem = Problem([Buffer("a", 0, 4, 640, path=((0, 0),)), Buffer("b", 0, 4, 512, path=((0, 1),))])
    peak, _ = peaks(problem, 4)
    assert peak == 640


def test_registered_strategy():
    problem = read_problem_csv(BENCHMARKS / "minimalloc" / "input.12.csv")
    solution = solve(problem, "beam", PlanOptions(beam_width=4))
    assert solution.peak >= solution.lower_bound


def test_out_of_time_finishes_greedily_and_stays_valid():
    problem = read_problem_csv(BENCHMARKS / "minimalloc" / "D.1048576.csv")
    placement = plan_beam(problem, PlanOptions(beam_width=32, time_limit=0.0))
    peak = peak_of(problem.buffers, placement.offsets)
    verify_plan(problem.buffers, placement.offsets, arena_size=peak)
    assert peak <= peak_of(problem.buffers, plan_large_first(problem, PlanOptions()).offsets)
