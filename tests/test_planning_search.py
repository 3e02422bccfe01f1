"""The anytime exact search: optimal on small problems, never worse than greedy, on time."""

import random
import time

import pytest

from cfmem.planning.csvio import read_problem_csv
from cfmem.planning.greedy import plan_best_fit, plan_large_first
from cfmem.planning.problem import Buffer, PlanOptions, Problem, conflicts, lower_bound, peak_of
from cfmem.planning.search import plan_search
from cfmem.planning.strategies import solve
from cfmem.planning.verify import verify_plan
from conftest import ROOT

BENCHMARKS = ROOT / "benchmarks"
SMALL = sorted((BENCHMARKS / "omnimalloc-small").glob("*.csv"))


def brute_force_peak(buffers: list[Buffer]) -> int:
    """The optimum by enumerating compacted plans, independently of the search.

    Sorted by offset, every buffer of a compacted plan sits at 0 or at the
    aligned top of a conflicting buffer that comes earlier; any plan can be
    compacted without raising its peak. Offsets are enumerated in that order
    (non-decreasing, ties by index), pruned only by the best peak found.
    """
    n = len(buffers)
    offsets: list[int | None] = [None] * n
    best = [sum(b.size for b in buffers) + 1]

    def rec(count: int, peak: int, last: tuple[int, int]) -> None:
        if count == n:
            best[0] = min(best[0], peak)
            return
        for i, b in enumerate(buffers):
            if offsets[i] is not None:
                continue
            placed = [
                (offsets[j], buffers[j])
                for j in range(n)
                if offsets[j] is not None and conflicts(b, buffers[j])
            ]
            spots = {0} | {-(-(o + p.size) // b.align) * b.align for o, p in placed}
            for x in sorted(spots):
                if (x, i) < last or max(peak, x + b.size) >= best[0]:
                    continue
                if any(x < o + p.size and o < x + b.size for o, p in placed):
                    continue
                offsets[i] = x
                rec(count + 1, max(peak, x + b.size), (x, i))
                offsets[i] = None

    rec(0, 0, (-1, -1))
    return best[0]


def random_problem(seed: int, n: int, paths: bool = False, aligned: bool = False) -> Problem:
    rng = random.Random(seed)
    choices = [(), ((0, 0),), ((0, 1),), ((0, 0), (1, 0)), ((0, 0), (1, 1))]
    buffers = []
    for k in range(n):
        start = rng.randrange(0, 8)
        buffers.append(
            Buffer(
                id=f"t{k}",
                start=start,
                end=start + rng.randrange(1, 5),
                size=rng.choice([1, 2, 3, 4, 5, 8, 12]),
                align=rng.choice([1, 2, 4]) if aligned else 1,
                path=rng.choice(choices) if paths else (),
            )
        )
    return Problem(buffers, name=f"random{seed}")


def check(problem: Problem, time_limit: float = 5.0):
    placement = plan_search(problem, PlanOptions(time_limit=time_limit))
    peak = peak_of(problem.buffers, placement.offsets)
    verify_plan(problem.buffers, placement.offsets, arena_size=peak)
    return placement, peak


@pytest.mark.parametrize("path", SMALL, ids=lambda p: p.name)
def test_optimal_on_small_benchmarks(path):
    problem = read_problem_csv(path)
    placement, peak = check(problem)
    assert peak == brute_force_peak(problem.buffers)
    assert placement.proven_optimal


@pytest.mark.parametrize("seed", range(40))
def test_optimal_on_random_tiny_problems(seed):
    rng = random.Random(1000 + seed)
    problem = random_problem(seed, n=rng.randrange(2, 9), paths=seed % 3 == 1, aligned=seed % 4 == 2)
    placement, peak = check(problem)
    assert peak == brute_force_peak(problem.buffers)
    assert placement.proven_optimal
    assert placement.stats["proven_lower_bound"] == peak


def test_proves_optimality_above_the_lower_bound():
    # Three pairwise-overlapping buffers of 2 and a 3 that overlaps two of
    # them in a chain: the cross sections allow 6, the geometry needs more.
    problem = Problem(
        [Buffer("a", 0, 4, 2), Buffer("b", 0, 2, 2), Buffer("c", 2, 4, 3), Buffer("d", 1, 3, 2)]
    )
    placement, peak = check(problem)
    assert peak == brute_force_peak(problem.buffers)
    assert placement.proven_optimal


def test_never_worse_than_greedy_and_on_time():
    problem = read_problem_csv(BENCHMARKS / "minimalloc" / "B.1048576.csv")
    greedy = min(
        peak_of(problem.buffers, plan(problem, PlanOptions()).offsets)
        for plan in (plan_large_first, plan_best_fit)
    )
    began = time.perf_counter()
    placement, peak = check(problem, time_limit=0.5)
    assert time.perf_counter() - began < 1.5
    assert peak <= greedy
    assert peak >= lower_bound(problem.buffers)
    assert placement.stats["nodes"] > 0


def test_zero_time_still_gives_a_valid_plan():
    problem = read_problem_csv(BENCHMARKS / "minimalloc" / "A.1048576.csv")
    placement, peak = check(problem, time_limit=0.0)
    assert peak <= peak_of(problem.buffers, plan_large_first(problem, PlanOptions()).offsets)


def test_deterministic_when_it_finishes():
    problem = read_problem_csv(BENCHMARKS / "minimalloc" / "C.1048576.csv")
    first = plan_search(problem, PlanOptions(time_limit=10.0))
    second = plan_search(problem, PlanOptions(time_limit=10.0))
    assert first.proven_optimal and first.offsets == second.offsets


def test_branches_of_one_if_share_memory():
    # Two large buffers on different branches of if 0 overlap in time; so do
    # a small buffer on every path and one nested in the first branch.
    problem = Problem(
        [
            Buffer("x", 0, 3, 100),
            Buffer("then", 1, 5, 700, path=((0, 0),)),
            Buffer("else", 2, 6, 500, path=((0, 1),)),
            Buffer("deep", 1, 4, 50, path=((0, 0), (1, 1))),
            Buffer("deep_else", 2, 4, 60, path=((0, 1), (2, 0))),
        ]
    )
    placement, peak = check(problem)
    assert peak == 850 == lower_bound(problem.buffers)
    assert placement.proven_optimal
    two = Problem([Buffer("a", 0, 4, 640, path=((0, 0),)), Buffer("b", 0, 4, 512, path=((0, 1),))])
    assert check(two)[1] == 640


def test_zero_sized_and_single_buffers():
    problem = Problem([Buffer("z", 0, 3, 0), Buffer("a", 1, 2, 16, align=8), Buffer("b", 0, 5, 0)])
    placement, peak = check(problem)
    assert peak == 16 and placement.proven_optimal
    assert check(Problem([]))[0].offsets == {}


def test_registered_strategy_solves_and_verifies():
    problem = read_problem_csv(BENCHMARKS / "minimalloc" / "input.12.csv")
    solution = solve(problem, "search", PlanOptions(time_limit=2.0))
    assert solution.peak == solution.lower_bound and solution.proven_optimal


@pytest.mark.parametrize("strategy", ["search", "auto", "beam", "tflm", "best-fit"])
def test_int64_extremes_plan_without_overflow(strategy):
    """Lifetimes of 2**60 steps make size x lifetime overflow the search's int64 areas (it keeps
    the greedy plan then); the widest int64 lifetimes and sizes plan in every strategy."""
    top = 2**63 - 1
    buffers = [Buffer("a", 0, 2**60, 8), Buffer("b", 2**60 - 1, 2**61, 8), Buffer("c", 5, 9, 1),
               Buffer("d", -top - 1, top, 2**62), Buffer("e", 3, 4, top)]  # fmt: skip
    solution = solve(Problem(buffers), strategy, PlanOptions(time_limit=1))
    verify_plan(buffers, solution.offsets)
    assert solution.peak == peak_of(buffers, solution.offsets) >= lower_bound(buffers)
