"""``tflm``: TFLite Micro's GreedyMemoryPlanner, against a line-by-line
transliteration of its C++ (tensorflow/lite/micro/memory_planner/
greedy_memory_planner.cc: ``ReverseSortInPlace`` and
``CalculateOffsetsIfNeeded``, online buffers only), and ``auto`` never worse.
"""

from __future__ import annotations

import random

import pytest

from cfmem.planning import greedy
from cfmem.planning.problem import Buffer, PlanOptions, Problem, peak_of
from cfmem.planning.strategies import AUTO_CANDIDATES, get_strategy
from cfmem.planning.verify import verify_plan
from test_planning_greedy import CSV_FILES, benchmark
from test_planning_orders import TIES


def reverse_sort_in_place(values: list[int], ids: list[int]) -> None:
    """The C++ bubble sort: descending, swapping only strictly smaller neighbours."""
    any_swapped = True
    while any_swapped:
        any_swapped = False
        for i in range(1, len(values)):
            if values[i - 1] < values[i]:
                values[i - 1], values[i] = values[i], values[i - 1]
                ids[i - 1], ids[i] = ids[i], ids[i - 1]
                any_swapped = True


def tflm_offsets(buffers: list[Buffer]) -> dict[str, int]:
    """CalculateOffsetsIfNeeded: buffers added in list order, lifetimes
    ``[first_time_used, last_time_used]`` = ``[start, end - 1]``."""
    n = len(buffers)
    sizes, ids = [0] * n, [0] * n
    tail = n
    for i, b in enumerate(buffers):  # online buffers fill the arrays from the tail
        tail -= 1
        sizes[tail], ids[tail] = b.size, i
    reverse_sort_in_place(sizes, ids)
    offsets = [-1] * n
    by_offset: list[int] = []  # buffer indices in offset order (the linked list)
    for k, i in enumerate(ids):
        want = buffers[i]
        candidate = 0
        if k:
            prior = None
            active = [j for j in by_offset if buffers[j].start <= want.end - 1 and want.start <= buffers[j].end - 1]
            for nxt in [*active, None]:
                if prior is not None:
                    candidate = max(candidate, offsets[prior] + buffers[prior].size)
                if nxt is None or offsets[nxt] - candidate >= want.size:
                    break
                prior = nxt
        offsets[i] = candidate
        at = next((p for p, j in enumerate(by_offset) if offsets[j] > candidate), len(by_offset))
        by_offset.insert(at, i)  # after every entry at the same offset
    return {b.id: offsets[i] for i, b in enumerate(buffers)}


def plan(name: str, buffers: list[Buffer]) -> dict[str, int]:
    return get_strategy(name)(Problem(buffers), PlanOptions()).offsets


def test_equal_sizes_go_in_reverse_problem_order():
    # a and b need the same bytes at once; TFLite Micro takes b (added last) first
    tie = [Buffer("a", 0, 2, 4), Buffer("b", 1, 3, 4)]
    assert plan("tflm", tie) == tflm_offsets(tie) == {"b": 0, "a": 4}
    assert plan("large-first", tie) == {"a": 0, "b": 4}  # the other tie rule
    assert [b.id for b in greedy.tflm_order(tie)] == ["b", "a"]


def test_the_sort_is_the_bubble_sort_of_the_tail_filled_array():
    rng = random.Random(1)
    for _ in range(50):
        buffers = [Buffer(f"t{i}", 0, 1, rng.choice([1, 2, 2, 3])) for i in range(rng.randint(1, 30))]
        sizes = [b.size for b in reversed(buffers)]
        ids = list(range(len(buffers)))[::-1]
        reverse_sort_in_place(sizes, ids)
        assert [b.id for b in greedy.tflm_order(buffers)] == [buffers[i].id for i in ids]


@pytest.mark.parametrize("seed", range(8))
def test_offsets_match_the_transliteration(seed):
    rng = random.Random(seed)
    buffers = []
    for i in range(rng.randint(1, 120)):
        start = rng.randrange(30)
        size = rng.choice([0, 4, 8, 8, 16, 16, 16]) if seed % 2 else rng.randint(1, 500)
        buffers.append(Buffer(f"b{i}", start, start + rng.randint(1, 8), size))
    rng.shuffle(buffers)
    offsets = plan("tflm", buffers)
    verify_plan(buffers, offsets)
    assert offsets == tflm_offsets(buffers)


def test_auto_runs_tflm():
    assert "tflm" in AUTO_CANDIDATES


@pytest.mark.parametrize("path", CSV_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_auto_is_never_worse_than_tflm_on_the_benchmarks(path):
    problem, _ = benchmark(path)
    tflm = get_strategy("tflm")(problem, PlanOptions()).offsets
    by_size = get_strategy("by-size")(problem, PlanOptions()).offsets
    auto = get_strategy("auto")(problem, PlanOptions()).offsets
    assert peak_of(problem.buffers, auto) <= peak_of(problem.buffers, tflm)
    assert peak_of(problem.buffers, auto) <= peak_of(problem.buffers, by_size)
    if len(problem.buffers) <= 500:
        assert tflm == tflm_offsets(problem.buffers)


def test_stacked_ties_come_out_in_tflite_micros_order():
    # every buffer of TIES is live at step 5, so the offsets spell out the order
    offsets = plan("tflm", TIES)
    stacked = sorted(TIES, key=lambda b: offsets[b.id])
    assert [b.id for b in stacked] == ["big", "t9", "t10", "late", "early", "long", "wee", "small", "mid"]
    assert offsets == tflm_offsets(TIES)


def test_by_size_stacks_ties_in_problem_order():
    offsets = plan("by-size", TIES)
    stacked = sorted(TIES, key=lambda b: offsets[b.id])
    sizes = [b.size for b in stacked]
    assert sizes == sorted(sizes, reverse=True)
    for size in set(sizes):
        tied = [b.id for b in stacked if b.size == size]
        assert tied == [b.id for b in TIES if b.size == size]
    assert [b.id for b in stacked] != [b.id for b in sorted(TIES, key=lambda b: plan("tflm", TIES)[b.id])]
