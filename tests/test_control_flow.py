"""Control-flow planning modes on region trees: validity, ordering, bounds.

Random nested trees stand in for programs: a tree only fixes which tensors
exist in which region and on which steps, which is all the planners see.
"""

import random

import pytest

from cfmem.planning.control_flow import MODES, plan_tree, timeline
from cfmem.planning.problem import lower_bound
from cfmem.planning.regions import IfNode, RegionTree, Tensor, cf_lower_bound
from cfmem.planning.verify import PlanError, verify_plan

GREEDY = ("sequential", "large-first", "short-first", "best-fit", "tflm", "by-size", "auto")


def random_tree(rng: random.Random, depth: int = 0, counter=None, if_ids=None) -> RegionTree:
    counter = counter if counter is not None else [0]
    if_ids = if_ids if if_ids is not None else [0]
    steps = rng.randint(1, 5)
    tree = RegionTree(steps)
    for step in range(steps):
        if depth < 4 and rng.random() < 0.25:
            node = IfNode(if_ids[0], step, [])
            if_ids[0] += 1
            node.branches = [random_tree(rng, depth + 1, counter, if_ids) for _ in range(2)]
            tree.ifs.append(node)
        for _ in range(rng.randint(0, 2)):
            counter[0] += 1
            size = rng.choice([4, 64, 100, 1024, 4096, 40000])
            tree.tensors.append(Tensor(f"t{counter[0]}", size, step, rng.randint(step, steps - 1)))
    return tree


def two_branch_tree() -> RegionTree:
    """x (from above, used in then), if at step 1 with branches a|b, result r."""
    then = RegionTree(2, [Tensor("a", 1000, 0, 1)])
    other = RegionTree(2, [Tensor("b", 3000, 0, 1)])
    return RegionTree(3, [Tensor("x", 500, 0, 1), Tensor("r", 200, 1, 2)], [IfNode(0, 1, [then, other])])


@pytest.mark.parametrize("seed", range(30))
def test_modes_on_random_nested_trees(seed):
    rng = random.Random(seed)
    tree = random_tree(rng)
    bound = cf_lower_bound(tree)
    for strategy in GREEDY:
        peaks = {}
        align = rng.choice([1, 16])
        for mode in MODES:
            plan = plan_tree(tree, mode, strategy, align=align)
            # plan_tree verifies; check again here, independently of its choice of buffers
            verify_plan(timeline(tree, "exact", 1), plan.offsets)
            assert plan.peak >= plan.lower_bound == bound
            peaks[mode] = plan.peak
        # exact keeps the best of its candidates, so it never loses to another mode
        assert peaks["exact"] <= min(peaks[m] for m in MODES), (strategy, peaks)
        if strategy == "auto":
            # one block per if beats spreading branch tensors over the whole if; with a
            # single greedy ordering fragmentation can rarely reverse this by a few bytes
            assert peaks["hoist"] <= peaks["conservative"], peaks


@pytest.mark.parametrize("seed", range(20))
def test_tree_bound_equals_per_path_sweep(seed):
    tree = random_tree(random.Random(100 + seed))
    assert cf_lower_bound(tree) == lower_bound(timeline(tree, "exact"))


def test_two_branch_if_shares_one_block():
    tree = two_branch_tree()
    hoist = plan_tree(tree, "hoist", "large-first")
    # block = max(1000, 3000); both branches start at the block's base
    base, size = hoist.blocks[0]
    assert size == 3000 and hoist.offsets["a"] == hoist.offsets["b"] == base
    assert hoist.peak == hoist.lower_bound == 500 + 200 + 3000
    assert plan_tree(tree, "conservative", "large-first").peak == 500 + 200 + 1000 + 3000
    assert plan_tree(tree, "naive", "large-first").peak == 4700


def test_verifier_rejects_branch_tensor_over_value_from_above():
    tree = two_branch_tree()
    buffers = timeline(tree, "exact")
    good = {"x": 0, "r": 500, "a": 700, "b": 700}
    verify_plan(buffers, good)
    # the two branches may share bytes; a branch tensor may not overlap x
    with pytest.raises(PlanError, match=r"'x'.*'a'|'a'.*'x'"):
        verify_plan(buffers, {**good, "a": 400})
    with pytest.raises(PlanError, match=r"'r'.*'b'|'b'.*'r'"):
        verify_plan(buffers, {**good, "b": 600})
