"""Greedy planners: exact offsets on hand-made problems, agreement with a
brute-force reference, validity on every benchmark CSV, determinism."""

import random
import time
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from cfmem.planning import greedy
from cfmem.planning.csvio import read_problem_csv
from cfmem.planning.problem import Buffer, PlanOptions, Problem, conflicts, lower_bound, peak_of
from cfmem.planning.strategies import solve
from cfmem.planning.verify import verify_plan
from conftest import ROOT

BENCHMARKS = ROOT / "benchmarks"
CSV_FILES = sorted(BENCHMARKS.glob("*/*.csv"))

STRATEGIES = {
    "sequential": greedy.plan_sequential,
    "large-first": greedy.plan_large_first,
    "short-first": greedy.plan_short_first,
    "best-fit": greedy.plan_best_fit,
}


def offsets_of(strategy: str, buffers: list[Buffer]) -> dict[str, int]:
    placement = STRATEGIES[strategy](Problem(buffers), PlanOptions())
    verify_plan(buffers, placement.offsets)
    return placement.offsets


# --------------------------------------------------------------------------
# Hand-made problems, offsets worked out by hand

# Two gaps open up during [5, 10): [10, 19) (9 bytes) and [27, 34) (7 bytes).
GAPS = [
    Buffer("A", 0, 10, 10),
    Buffer("B", 0, 5, 9),
    Buffer("C", 0, 10, 8),
    Buffer("D", 0, 5, 7),
    Buffer("E", 0, 10, 6),
    Buffer("F", 5, 10, 5),
]

# Alignment: a needs 8, b 4, c 1.
ALIGNED = [Buffer("a", 0, 2, 5, align=8), Buffer("b", 0, 2, 3, align=4), Buffer("c", 1, 3, 2)]

# Branches: t and e are on the two branches of if 0, o is outside it.
BRANCHES = [
    Buffer("t", 1, 3, 8, path=((0, 0),)),
    Buffer("e", 1, 3, 8, path=((0, 1),)),
    Buffer("o", 0, 4, 4),
]

SMALL = [Buffer("a", 0, 2, 4), Buffer("b", 1, 3, 2), Buffer("c", 2, 4, 4), Buffer("d", 0, 4, 1)]


def test_sequential_by_hand():
    # order a, d (start 0), b (1), c (2)
    # a -> 0 [0,4); d meets a -> 4 [4,5); b meets a, d -> 5 [5,7);
    # c (from 2, a is gone) meets d [4,5), b [5,7): [0,4) is free -> 0
    assert offsets_of("sequential", SMALL) == {"a": 0, "d": 4, "b": 5, "c": 0}
    # all start at 0 but F: A 0, B 10, C 19, D 27, E 34 stacked;
    # F during [5,10) meets A [0,10), C [19,27), E [34,40): lowest gap is 10
    assert offsets_of("sequential", GAPS) == {"A": 0, "B": 10, "C": 19, "D": 27, "E": 34, "F": 10}
    # o -> 0 [0,4); e meets o -> 4; t meets o but not e (other branch) -> 4
    assert offsets_of("sequential", BRANCHES) == {"o": 0, "e": 4, "t": 4}


def test_large_first_by_hand():
    # order a, c (size 4; a starts first), b, d
    # a -> 0; c does not meet a ([0,2) vs [2,4)) -> 0; b meets a and c -> 4 [4,6);
    # d meets a [0,4), c [0,4), b [4,6) -> 6
    assert offsets_of("large-first", SMALL) == {"a": 0, "c": 0, "b": 4, "d": 6}
    # sizes descend A..F, the same stacking as sequential; F takes the lowest gap, 10
    assert offsets_of("large-first", GAPS) == {"A": 0, "B": 10, "C": 19, "D": 27, "E": 34, "F": 10}
    # a -> 0 [0,5); b meets a: 5 rounded up to 4s -> 8 [8,11);
    # c meets a [0,5), b [8,11): 5 is free up to 8 -> 5
    assert offsets_of("large-first", ALIGNED) == {"a": 0, "b": 8, "c": 5}
    # order e, t (same size, lifetime, start: id), o
    # e -> 0; t shares no execution with e -> 0; o meets both -> 8 (peak 12 = lower bound)
    assert offsets_of("large-first", BRANCHES) == {"e": 0, "t": 0, "o": 8}


def test_short_first_by_hand():
    # lifetimes B, D, F = 5 (larger first), then A, C, E = 10 (larger first)
    # B -> 0 [0,9); D meets B -> 9 [9,16); F [5,10) meets neither -> 0 [0,5);
    # A meets B, D, F: used [0,16) -> 16; C -> 26; E -> 34
    assert offsets_of("short-first", GAPS) == {"B": 0, "D": 9, "F": 0, "A": 16, "C": 26, "E": 34}
    # lifetimes: a, b, c = 2, d = 4; order a (4 bytes, start 0), c (4 bytes, start 2), b, d
    assert offsets_of("short-first", SMALL) == {"a": 0, "c": 0, "b": 4, "d": 6}
    # lifetimes t, e = 2 (e first by id), then o = 4: e 0, t 0, o 8
    assert offsets_of("short-first", BRANCHES) == {"e": 0, "t": 0, "o": 8}


def test_best_fit_by_hand():
    # as large-first up to E; F (5 bytes) fits the 9-byte gap [10,19) and the
    # 7-byte gap [27,34): best fit takes the smaller -> 27
    assert offsets_of("best-fit", GAPS) == {"A": 0, "B": 10, "C": 19, "D": 27, "E": 34, "F": 27}
    # b: no gap below a's 5 bytes, top rounded up -> 8; c: gap [5,8) holds 2 bytes -> 5
    assert offsets_of("best-fit", ALIGNED) == {"a": 0, "b": 8, "c": 5}
    # gap choice between [0,4)... none: d (1 byte) during [0,4) sees a/c [0,4), b [4,6) -> top 6
    assert offsets_of("best-fit", SMALL) == {"a": 0, "c": 0, "b": 4, "d": 6}


def test_ids_compare_in_natural_order():
    buffers = [Buffer("b10", 0, 1, 4), Buffer("b9", 0, 1, 4)]
    assert offsets_of("sequential", buffers) == {"b9": 0, "b10": 4}
    assert greedy.natural_key("t2") < greedy.natural_key("t10") < greedy.natural_key("u1")
    assert greedy.natural_key("7") < greedy.natural_key("12")


def test_zero_size_buffers_sit_at_zero():
    buffers = [Buffer("big", 0, 9, 64), Buffer("empty", 2, 5, 0), Buffer("other", 3, 4, 8)]
    for strategy in STRATEGIES:
        offsets = offsets_of(strategy, buffers)  # verified: other does not meet big
        assert offsets["empty"] == 0
        assert peak_of(buffers, offsets) == 72


def test_empty_problem():
    for strategy in STRATEGIES:
        assert offsets_of(strategy, []) == {}


# --------------------------------------------------------------------------
# Against a brute-force reference: the obvious quadratic algorithms


def _align_up(value: int, align: int) -> int:
    return -(-value // align) * align


def reference(order: list[Buffer], best_fit: bool) -> dict[str, int]:
    offsets: dict[str, int] = {}
    placed: list[Buffer] = []
    for b in order:
        if b.size == 0:
            offsets[b.id] = 0
            continue
        used = sorted((offsets[p.id], offsets[p.id] + p.size) for p in placed if conflicts(p, b))
        if best_fit:
            top, best, best_gap = 0, None, None
            for lo, hi in used:
                if lo > top:
                    x = _align_up(top, b.align)
                    if x + b.size <= lo and (best_gap is None or lo - x < best_gap):
                        best, best_gap = x, lo - x
                top = max(top, hi)
            offsets[b.id] = _align_up(top, b.align) if best is None else best
        else:
            x = 0
            for lo, hi in used:
                if lo >= x + b.size:
                    break
                if hi > x:
                    x = _align_up(hi, b.align)
            offsets[b.id] = x
        placed.append(b)
    return offsets


KEYS = {
    "sequential": (greedy.sequential_key, False),
    "large-first": (greedy.large_first_key, False),
    "short-first": (greedy.short_first_key, False),
    "best-fit": (greedy.large_first_key, True),
}

PATHS = [(), (), (), ((1, 0),), ((1, 1),), ((1, 0), (2, 0)), ((1, 0), (2, 1)), ((1, 1), (3, 0)), ((4, 1),)]


def random_buffers(rng: random.Random, n: int, horizon: int, paths: bool, align: bool) -> list[Buffer]:
    buffers = []
    for i in range(n):
        start = rng.randrange(horizon)
        r = rng.random()
        length = rng.randint(1, 4) if r < 0.7 else rng.randint(5, max(5, horizon // 2))
        buffers.append(
            Buffer(
                f"t{i}",
                start * 7 + 3,  # sparse, shifted step numbers: exercise time compression
                (start + length) * 7 + 3,
                rng.choice([0, 1, 3, 8, 16, 24, 64, 100, 256]) if rng.random() < 0.9 else rng.randint(1, 5000),
                align=rng.choice([1, 1, 2, 4, 8, 16, 64]) if align else 1,
                path=rng.choice(PATHS) if paths else (),
            )
        )
    return buffers


@pytest.mark.parametrize("strategy", list(STRATEGIES))
@pytest.mark.parametrize("seed", range(12))
def test_matches_the_reference_on_random_problems(strategy, seed):
    rng = random.Random(seed * 101 + len(strategy))
    key, best_fit = KEYS[strategy]
    n = rng.choice([1, 5, 30, 120, 400])
    buffers = random_buffers(rng, n, horizon=rng.choice([3, 20, 200]), paths=seed % 3 != 0, align=seed % 2 == 0)
    offsets = offsets_of(strategy, buffers)
    assert offsets == reference(sorted(buffers, key=key), best_fit)


def brute_force_gap(ranges: list[tuple[int, int]], size: int, align: int, best_fit: bool) -> int:
    """Every aligned offset up to the top, tried one by one."""
    top = max((hi for _, hi in ranges), default=0)
    free = [x for x in range(0, _align_up(top, align) + 1, align) if all(x + size <= lo or hi <= x for lo, hi in ranges)]
    if not best_fit:
        return free[0]

    def room(x: int) -> int:  # bytes free from x up to the next range
        return min((lo for lo, _ in ranges if lo >= x + size), default=None) - x if x < top else 1 << 80

    starts = [x for x in free if x == 0 or any(hi <= x < hi + align for _, hi in ranges)]  # gaps' aligned starts
    return min(starts, key=lambda x: (room(x), x))


@pytest.mark.parametrize("dtype", [np.int64, object])
@pytest.mark.parametrize("best_fit", [False, True])
def test_gap_search_against_brute_force(dtype, best_fit):
    rng = random.Random(11)
    for _ in range(300):
        ranges = []
        for _ in range(rng.randint(1, 12)):
            lo = rng.randrange(60)
            ranges.append((lo, lo + rng.randint(1, 9)))
        size, align = rng.randint(1, 12), rng.choice([1, 2, 4, 8])
        lo, hi = (np.array([r[k] for r in ranges], dtype) for k in (0, 1))
        got = greedy._gap_search(np.sort(lo), np.sort(hi), size, align, best_fit, never=1 << 40)
        assert got == brute_force_gap(ranges, size, align, best_fit), (ranges, size, align)


def test_huge_offsets_stay_exact():
    # beyond int64: the index must hold Python integers
    big = 1 << 70
    buffers = [Buffer(f"b{i}", 0, 2, big + i) for i in range(60)] + [Buffer("late", 1, 3, 5)]
    for strategy in STRATEGIES:
        key, best_fit = KEYS[strategy]
        assert offsets_of(strategy, buffers) == reference(sorted(buffers, key=key), best_fit)


@pytest.mark.parametrize("strategy", list(STRATEGIES))
def test_valid_on_random_problems_with_paths_and_alignment(strategy):
    rng = random.Random(7)
    for _ in range(30):
        buffers = random_buffers(rng, rng.randint(1, 200), horizon=50, paths=True, align=True)
        offsets = offsets_of(strategy, buffers)  # verifies
        assert all(offsets[b.id] % b.align == 0 for b in buffers)


# --------------------------------------------------------------------------
# Benchmarks


@cache
def benchmark(path: Path) -> tuple[Problem, int]:
    problem = read_problem_csv(path)
    return problem, lower_bound(problem.buffers)


@pytest.mark.parametrize("strategy", list(STRATEGIES))
@pytest.mark.parametrize("path", CSV_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_valid_on_every_benchmark(strategy, path):
    problem, bound = benchmark(path)
    began = time.perf_counter()
    placement = STRATEGIES[strategy](problem, PlanOptions())
    seconds = time.perf_counter() - began
    peak = peak_of(problem.buffers, placement.offsets)
    verify_plan(problem.buffers, placement.offsets, arena_size=peak)
    assert peak >= bound
    # a quadratic slip would take minutes on S_1 (28,526 buffers); ~1 s is expected
    assert seconds < 30


@pytest.mark.parametrize("strategy", list(STRATEGIES))
def test_matches_the_reference_on_a_real_trace(strategy):
    problem, _ = benchmark(BENCHMARKS / "idealloc" / "G_1.csv")  # 816 buffers
    key, best_fit = KEYS[strategy]
    offsets = STRATEGIES[strategy](problem, PlanOptions()).offsets
    assert offsets == reference(sorted(problem.buffers, key=key), best_fit)


def test_solve_reports_the_bound_and_checks_the_plan():
    problem = read_problem_csv(BENCHMARKS / "minimalloc" / "input.12.csv")
    for strategy in STRATEGIES:
        solution = solve(problem, strategy)
        assert solution.peak == peak_of(problem.buffers, solution.offsets)
        assert solution.lower_bound == 12
        assert solution.peak >= 12


# --------------------------------------------------------------------------
# Determinism


@pytest.mark.parametrize("strategy", list(STRATEGIES))
def test_deterministic_and_independent_of_input_order(strategy):
    rng = random.Random(3)
    buffers = random_buffers(rng, 300, horizon=40, paths=True, align=True)
    first = offsets_of(strategy, buffers)
    assert offsets_of(strategy, buffers) == first
    shuffled = buffers[:]
    rng.shuffle(shuffled)
    assert offsets_of(strategy, shuffled) == first
