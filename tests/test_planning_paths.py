"""compact_paths: the exact timeline handed to a planner in a few branch paths, same conflicts."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from cfmem.planning.control_flow import OUTSIDE, compact_paths, timeline
from cfmem.planning.problem import Buffer, Problem, conflicts, lower_bound
from cfmem.planning.regions import IfNode, RegionTree, Tensor
from cfmem.planning.strategies import solve


def random_tree(rng: random.Random, depth: int, counter: list[int]) -> RegionTree:
    """A region with several ifs and loops (one branch) at distinct steps, nested up to ``depth``."""
    steps = rng.randint(1, 6)
    tensors = []
    for _ in range(rng.randint(0, 4)):
        counter[0] += 1
        first = rng.randrange(steps)
        tensors.append(Tensor(f"t{counter[0]}", rng.choice([1, 2, 4, 8]), first, rng.randrange(first, steps)))
    ifs = []
    for step in sorted(rng.sample(range(steps), rng.randint(0, min(steps, 3)))) if depth else []:
        counter[1] += 1
        if_id, kind = counter[1], rng.choice(["if", "if", "loop"])
        branches = [random_tree(rng, depth - 1, counter) for _ in range(2 if kind == "if" else 1)]
        ifs.append(IfNode(if_id, step, branches, kind))
    return RegionTree(steps, tensors, ifs)


def conflict_pairs(buffers: list[Buffer]) -> set[tuple[str, str]]:
    return {(a.id, b.id) for a, b in combinations(buffers, 2) if conflicts(a, b)}


@pytest.mark.parametrize("seed", range(60))
def test_the_conflicts_and_the_plans_are_those_of_the_exact_timeline(seed):
    tree = random_tree(random.Random(seed), 3, [0, 0])
    buffers = timeline(tree, "exact")
    compact = compact_paths(buffers)
    assert [(b.id, b.start, b.end, b.size) for b in compact] == [(b.id, b.start, b.end, b.size) for b in buffers]
    assert conflict_pairs(compact) == conflict_pairs(buffers)
    assert lower_bound(compact) == lower_bound(buffers)
    for strategy in ("auto", "best-fit"):
        assert solve(Problem(compact), strategy).offsets == solve(Problem(buffers), strategy).offsets


def test_ifs_are_named_by_depth_and_buffers_outside_nested_ifs_leave_them():
    # x lives before the if, y across it; a and b in its branches; c in the then branch before the inner if
    inner = IfNode(7, 1, [RegionTree(1, [Tensor("i", 4, 0, 0)]), RegionTree(1)])
    then = RegionTree(2, [Tensor("c", 2, 0, 0), Tensor("a", 8, 0, 1)], [inner])
    other = RegionTree(1, [Tensor("b", 16, 0, 0)])
    tree = RegionTree(3, [Tensor("x", 4, 0, 0), Tensor("y", 4, 0, 2)], [IfNode(5, 1, [then, other])])
    paths = {b.id: b.path for b in compact_paths(timeline(tree, "exact"))}
    assert paths == {
        "x": ((0, OUTSIDE),),
        "y": (),
        "c": ((0, 0), (1, OUTSIDE)),
        "a": ((0, 0),),
        "i": ((0, 0), (1, 0)),
        "b": ((0, 1),),
    }


def test_the_check_sees_conflicts_change_on_buffers_that_break_the_assumption():
    # two ifs at the same time (no timeline puts them there): depth names would merge them
    a = Buffer("a", 0, 2, 4, path=((0, 0),))
    b = Buffer("b", 0, 2, 4, path=((1, 1),))
    assert conflict_pairs([a, b]) == {("a", "b")}
    assert conflict_pairs(compact_paths([a, b])) == set()
