"""Documented orders, checked from outside: each greedy strategy's buffer
order and exact mode's choice among tied candidate plans.

The orders are written here from the docstrings (``cfmem.planning.greedy``,
``cfmem.planning.control_flow``), not taken from the planners' key functions.
"""

from __future__ import annotations

import random
import re
from functools import cmp_to_key

import pytest

from cfmem.planning import greedy
from cfmem.planning.control_flow import plan_tree, timeline
from cfmem.planning.problem import Buffer, PlanOptions, Problem, peak_of
from cfmem.planning.regions import IfNode, RegionTree, Tensor
from cfmem.planning.strategies import solve
from cfmem.planning.verify import verify_plan
from test_planning_greedy import random_buffers, reference

# --------------------------------------------------------------------------
# The documented orders, as comparisons


def compare_ids(x: str, y: str) -> int:
    """Natural order: runs of digits compare as numbers ("t2" < "t10")."""
    xs, ys = re.findall(r"\d+|\D+", x), re.findall(r"\d+|\D+", y)
    for a, b in zip(xs, ys):
        if a.isdigit() and b.isdigit():
            a, b = int(a), int(b)
        if a != b:
            return -1 if a < b else 1
    return (len(xs) > len(ys)) - (len(xs) < len(ys))


def by(*rules):
    """Order by the first rule that tells two buffers apart, then by id."""

    def compare(a: Buffer, b: Buffer) -> int:
        for rule in rules:
            if rule(a) != rule(b):
                return -1 if rule(a) < rule(b) else 1
        return compare_ids(a.id, b.id)

    return cmp_to_key(compare)


def lifetime(b: Buffer) -> int:
    return b.end - b.start


def start(b: Buffer) -> int:
    return b.start


def larger_first(b: Buffer) -> int:
    return -b.size


def longer_first(b: Buffer) -> int:
    return -lifetime(b)


DOCUMENTED_ORDER = {
    # execution order (start, then id)
    "sequential": by(start),
    # size descending (ties: longer lifetime, earlier start, id)
    "large-first": by(larger_first, longer_first, start),
    # lifetime ascending (ties: larger size, earlier start, id)
    "short-first": by(lifetime, larger_first, start),
    # the order of large-first
    "best-fit": by(larger_first, longer_first, start),
}

PLANNERS = {
    "sequential": greedy.plan_sequential,
    "large-first": greedy.plan_large_first,
    "short-first": greedy.plan_short_first,
    "best-fit": greedy.plan_best_fit,
}


def placement_order(strategy: str, buffers: list[Buffer]) -> list[str]:
    """The order the planner took buffers that all conflict: each lands on top of the ones before."""
    offsets = PLANNERS[strategy](Problem(buffers), PlanOptions()).offsets
    verify_plan(buffers, offsets)
    order = sorted((b for b in buffers if b.size), key=lambda b: offsets[b.id])
    top = 0
    for b in order:
        assert offsets[b.id] == top, f"{b.id} is not stacked on the buffers before it"
        top += b.size
    return [b.id for b in order]


def documented(strategy: str, buffers: list[Buffer]) -> list[str]:
    return [b.id for b in sorted(buffers, key=DOCUMENTED_ORDER[strategy]) if b.size]


def test_natural_id_order_of_the_reference():
    ids = ["t10", "t9", "u1", "t2", "t1", "s100", "t2x", "7", "12"]
    assert sorted(ids, key=cmp_to_key(compare_ids)) == ["7", "12", "s100", "t1", "t2", "t2x", "t9", "t10", "u1"]


# --------------------------------------------------------------------------
# Hand-made: every buffer is live at step 5, so each one lands on top of the
# ones placed before it and the offsets spell out the order.

TIES = [
    Buffer("big", 5, 6, 8),  # largest, shortest
    Buffer("long", 4, 14, 4),  # 4 bytes, longest, starts late
    Buffer("early", 2, 6, 4),  # 4 bytes, lifetime 4, starts at 2
    Buffer("late", 3, 7, 4),  # 4 bytes, lifetime 4, starts at 3
    Buffer("t10", 5, 9, 4),  # 4 bytes, lifetime 4, starts at 5: by id, t9 first
    Buffer("t9", 5, 9, 4),
    Buffer("mid", 2, 6, 2),  # 2 bytes, lifetime 4, starts at 2
    Buffer("small", 1, 6, 2),  # 2 bytes, lifetime 5, starts first
    Buffer("wee", 5, 7, 2),  # 2 bytes, lifetime 2
]

TIES_ORDER = {
    "sequential": ["small", "early", "mid", "late", "long", "big", "t9", "t10", "wee"],
    "large-first": ["big", "long", "early", "late", "t9", "t10", "small", "mid", "wee"],
    "short-first": ["big", "wee", "early", "late", "t9", "t10", "mid", "small", "long"],
    "best-fit": ["big", "long", "early", "late", "t9", "t10", "small", "mid", "wee"],
}


@pytest.mark.parametrize("strategy", list(PLANNERS))
def test_order_on_ties_by_hand(strategy):
    assert placement_order(strategy, TIES) == TIES_ORDER[strategy]
    assert documented(strategy, TIES) == TIES_ORDER[strategy]


@pytest.mark.parametrize("strategy", list(PLANNERS))
def test_order_by_hand_does_not_depend_on_input_order(strategy):
    for shuffled in (TIES[::-1], TIES[3:] + TIES[:3]):
        assert placement_order(strategy, shuffled) == TIES_ORDER[strategy]


def all_conflicting(rng: random.Random, n: int) -> list[Buffer]:
    """Buffers that all hold step 10, with many equal sizes, lifetimes and starts."""
    ids = rng.sample([f"{p}{k}" for p in ("t", "u", "x") for k in range(1, 25)], n)
    buffers = []
    for name in ids:
        first = rng.choice([4, 8, 10]) if rng.random() < 0.8 else rng.randint(0, 10)
        last = rng.choice([11, 13]) if rng.random() < 0.8 else rng.randint(11, 20)
        buffers.append(Buffer(name, first, last, rng.choice([0, 1, 2, 2, 4, 4, 4, 8])))
    return buffers


@pytest.mark.parametrize("strategy", list(PLANNERS))
@pytest.mark.parametrize("seed", range(25))
def test_order_on_random_ties(strategy, seed):
    buffers = all_conflicting(random.Random(seed), random.Random(seed).randint(2, 40))
    assert placement_order(strategy, buffers) == documented(strategy, buffers)


@pytest.mark.parametrize("strategy", list(PLANNERS))
@pytest.mark.parametrize("seed", range(8))
def test_offsets_are_the_reference_in_the_documented_order(strategy, seed):
    """On problems with gaps and branch paths too, not only stacks."""
    rng = random.Random(seed * 31 + 5)
    buffers = random_buffers(rng, rng.choice([20, 80]), horizon=rng.choice([5, 30]), paths=seed % 2 == 0, align=seed % 3 == 0)
    offsets = PLANNERS[strategy](Problem(buffers), PlanOptions()).offsets
    assert offsets == reference(sorted(buffers, key=DOCUMENTED_ORDER[strategy]), strategy == "best-fit")


# --------------------------------------------------------------------------
# Exact mode keeps the smallest candidate; on ties, the first of this list


CANDIDATES = ("exact", "hoist", "linearize", "conservative")
GREEDY = tuple(PLANNERS)


def candidate_peaks(tree: RegionTree, strategy: str) -> dict[str, int]:
    """Each candidate's peak, planned on its own."""
    peaks = {"exact": solve(Problem(timeline(tree, "exact")), strategy).peak}
    for mode in CANDIDATES[1:]:
        peaks[mode] = plan_tree(tree, mode, strategy).peak
    return peaks


def expected_choice(peaks: dict[str, int]) -> str:
    smallest = min(peaks.values())
    return next(mode for mode in CANDIDATES if peaks[mode] == smallest)


def candidate_offsets(tree: RegionTree, mode: str, strategy: str) -> dict[str, int]:
    if mode == "exact":
        return solve(Problem(timeline(tree, "exact")), strategy).offsets
    return plan_tree(tree, mode, strategy).offsets


# x lives across an if whose then-branch holds y: every candidate needs 8 bytes
ALL_TIED = RegionTree(3, [Tensor("x", 4, 0, 1)], [IfNode(0, 1, [RegionTree(1, [Tensor("y", 4, 0, 0)]), RegionTree(1)])])

# three tensors at the if's step; short-first's direct plan needs 27 bytes,
# hoist and linearize reach the lower bound 26 (14 + the larger branch, 12)
HOIST_AND_LINEARIZE_TIED = RegionTree(
    1,
    [Tensor("t1", 2, 0, 0), Tensor("t2", 8, 0, 0), Tensor("t3", 4, 0, 0)],
    [
        IfNode(
            1,
            0,
            [
                RegionTree(1, [Tensor("t4", 8, 0, 0), Tensor("t5", 3, 0, 0)]),
                RegionTree(1, [Tensor("t6", 2, 0, 0), Tensor("t7", 2, 0, 0), Tensor("t8", 8, 0, 0)]),
            ],
        )
    ],
)


@pytest.mark.parametrize("strategy", GREEDY)
def test_exact_keeps_its_own_plan_when_all_candidates_tie(strategy):
    assert candidate_peaks(ALL_TIED, strategy) == {"exact": 8, "hoist": 8, "linearize": 8, "conservative": 8}
    plan = plan_tree(ALL_TIED, "exact", strategy)
    assert plan.chosen == "exact"
    assert plan.offsets == candidate_offsets(ALL_TIED, "exact", strategy)
    assert plan.blocks == {}


def test_exact_prefers_hoist_to_linearize_on_a_tie():
    peaks = candidate_peaks(HOIST_AND_LINEARIZE_TIED, "short-first")
    assert peaks == {"exact": 27, "hoist": 26, "linearize": 26, "conservative": 37}
    plan = plan_tree(HOIST_AND_LINEARIZE_TIED, "exact", "short-first")
    assert plan.chosen == "hoist"
    assert plan.peak == plan.lower_bound == 26
    assert plan.offsets == candidate_offsets(HOIST_AND_LINEARIZE_TIED, "hoist", "short-first")
    assert plan.blocks == plan_tree(HOIST_AND_LINEARIZE_TIED, "hoist", "short-first").blocks != {}


# with sequential, only the conservative candidate reaches the lower bound (12 bytes)
CONSERVATIVE_SMALLEST = RegionTree(
    4,
    [Tensor("t1", 1, 2, 3), Tensor("t2", 2, 2, 2), Tensor("t3", 8, 0, 0), Tensor("t4", 2, 0, 3)],
    [IfNode(1, 1, [RegionTree(4, [Tensor("t5", 8, 3, 3), Tensor("t6", 2, 2, 3)]), RegionTree(4)])],
)


def test_exact_keeps_the_conservative_plan_when_it_alone_is_smallest():
    peaks = candidate_peaks(CONSERVATIVE_SMALLEST, "sequential")
    assert peaks == {"exact": 18, "hoist": 20, "linearize": 18, "conservative": 12}
    plan = plan_tree(CONSERVATIVE_SMALLEST, "exact", "sequential")
    assert plan.chosen == "conservative"
    assert plan.peak == plan.lower_bound == 12
    assert plan.offsets == candidate_offsets(CONSERVATIVE_SMALLEST, "conservative", "sequential")
    assert plan.blocks == {}


def random_tree(rng: random.Random, depth: int, counts: dict[str, int]) -> RegionTree:
    """A small region tree; tensor ids and if ids are unique in the tree."""
    steps = rng.randint(1, 5)
    tensors = []
    for _ in range(rng.randint(0, 4)):
        counts["tensors"] += 1
        first = rng.randrange(steps)
        tensors.append(Tensor(f"t{counts['tensors']}", rng.choice([1, 2, 3, 4, 8]), first, rng.randrange(first, steps)))
    ifs = []
    if depth and rng.random() < 0.8:
        counts["ifs"] += 1
        if_id = counts["ifs"]
        branches = [random_tree(rng, depth - 1, counts), random_tree(rng, depth - 1, counts)]
        ifs.append(IfNode(if_id, rng.randrange(steps), branches))
    return RegionTree(steps, tensors, ifs)


@pytest.mark.parametrize("seed", range(40))
def test_exact_keeps_the_first_smallest_candidate_on_random_trees(seed):
    tree = random_tree(random.Random(seed), 2, {"tensors": 0, "ifs": 0})
    exact_buffers = timeline(tree, "exact")
    for strategy in GREEDY:
        peaks = candidate_peaks(tree, strategy)
        plan = plan_tree(tree, "exact", strategy)
        chosen = expected_choice(peaks) if tree.ifs else "exact"
        assert plan.chosen == chosen, peaks
        assert plan.offsets == candidate_offsets(tree, chosen, strategy)
        assert plan.peak == peak_of(exact_buffers, plan.offsets) == min(peaks.values())
