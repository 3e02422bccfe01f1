"""Each control-flow mode's timeline and plan on small trees worked out by hand."""

from __future__ import annotations

import time

import pytest

from cfmem.planning import strategies
from cfmem.planning.control_flow import MODES, TIMELINES, plan_tree, timeline
from cfmem.planning.problem import Buffer, Placement, PlanOptions
from cfmem.planning.regions import IfNode, RegionTree, Tensor


def one_if() -> RegionTree:
    """x [0, 1] from above the if at step 1; then: a on 2 steps; else: b on 1 step; r [1, 2] the result."""
    then = RegionTree(2, [Tensor("a", 8, 0, 1)])
    other = RegionTree(1, [Tensor("b", 16, 0, 0)])
    return RegionTree(3, [Tensor("x", 4, 0, 1), Tensor("r", 2, 1, 2)], [IfNode(0, 1, [then, other])])


def nested() -> RegionTree:
    """An if (step 0) whose then branch holds an if (step 1) with an empty and a 3-step branch."""
    inner = IfNode(1, 1, [RegionTree(1), RegionTree(3, [Tensor("i", 4, 0, 2)])])
    then = RegionTree(3, [Tensor("t", 8, 0, 2)], [inner])
    other = RegionTree(1, [Tensor("e", 32, 0, 0)])
    return RegionTree(2, [Tensor("y", 2, 0, 1)], [IfNode(0, 0, [then, other])])


def by_id(buffers: list[Buffer]) -> dict[str, tuple[int, int, tuple]]:
    return {b.id: (b.start, b.end, b.path) for b in buffers}


def test_exact_overlaps_the_branches_in_time_and_gives_them_paths():
    # step 0 -> [0, 1); the if occupies [1, 3) (its longer branch); step 2 -> [3, 4)
    assert by_id(timeline(one_if())) == {
        "a": (1, 3, ((0, 0),)),
        "b": (1, 2, ((0, 1),)),
        "x": (0, 3, ()),
        "r": (1, 4, ()),
    }


def test_linearize_puts_the_else_branch_after_the_then_branch():
    assert by_id(timeline(one_if(), "linearize")) == {"a": (1, 3, ()), "b": (3, 4, ()), "x": (0, 4, ()), "r": (1, 5, ())}


def test_conservative_stretches_every_branch_tensor_over_the_whole_if():
    assert by_id(timeline(one_if(), "conservative")) == {"a": (1, 3, ()), "b": (1, 3, ()), "x": (0, 3, ()), "r": (1, 4, ())}


def test_nested_ifs_take_the_time_of_their_longest_path():
    # the outer if: then = t's step, the inner if (3 steps), one more step = 5 steps from time 0
    assert by_id(timeline(nested())) == {
        "i": (1, 4, ((0, 0), (1, 1))),
        "t": (0, 5, ((0, 0),)),
        "e": (0, 1, ((0, 1),)),
        "y": (0, 6, ()),
    }
    conservative = by_id(timeline(nested(), "conservative"))
    assert conservative["i"] == conservative["e"] == conservative["t"] == (0, 5, ())


def test_an_empty_inner_if_still_takes_a_step_of_the_outer_ifs_time():
    """then: an if of two empty branches, then one more step (2 steps); else: 1 step."""
    then = RegionTree(2, [], [IfNode(1, 0, [RegionTree(0), RegionTree(0)])])
    other = RegionTree(1, [Tensor("e", 4, 0, 0)])
    tree = RegionTree(1, [], [IfNode(0, 0, [then, other])])
    assert by_id(timeline(tree, "conservative")) == {"e": (0, 2, ())}


def test_an_if_with_empty_branches_still_takes_one_step():
    empty = RegionTree(2, [Tensor("y", 2, 0, 1)], [IfNode(0, 0, [RegionTree(0), RegionTree(0)])])
    assert by_id(timeline(empty, "conservative")) == {"y": (0, 2, ())}
    inside = RegionTree(1, [Tensor("z", 4, 0, 0)], [IfNode(1, 0, [RegionTree(0), RegionTree(0)])])
    tree = RegionTree(1, [], [IfNode(0, 0, [inside, RegionTree(1, [Tensor("w", 4, 0, 0)])])])
    assert by_id(timeline(tree, "conservative")) == {"z": (0, 1, ()), "w": (0, 1, ())}


def test_a_linearized_if_takes_its_branches_steps_and_at_least_one():
    def with_branches(then_steps: int, else_steps: int) -> RegionTree:
        branches = [RegionTree(then_steps), RegionTree(else_steps)]
        return RegionTree(2, [Tensor("y", 2, 0, 1)], [IfNode(0, 0, branches)])

    assert by_id(timeline(with_branches(0, 0), "linearize")) == {"y": (0, 2, ())}
    assert by_id(timeline(with_branches(1, 0), "linearize")) == {"y": (0, 2, ())}
    assert by_id(timeline(with_branches(2, 1), "linearize")) == {"y": (0, 4, ())}


def test_the_alignment_is_given_to_every_buffer():
    assert {b.align for b in timeline(one_if(), "exact", 16)} == {16}


@pytest.mark.parametrize("mode", ["naive", "hoist", "fast"])
def test_a_mode_without_a_timeline_is_refused(mode):
    with pytest.raises(ValueError) as err:
        timeline(one_if(), mode)
    assert str(err.value) == f"no timeline for mode '{mode}' (choose from exact, linearize, conservative)"
    assert mode not in TIMELINES


def test_an_unknown_mode_is_refused_by_plan_tree():
    with pytest.raises(ValueError) as err:
        plan_tree(one_if(), "fast")
    assert str(err.value) == "unknown control-flow mode 'fast' (choose from naive, conservative, linearize, hoist, exact)"


def test_plan_tree_defaults_to_exact_mode_and_auto():
    began = time.perf_counter()
    plan = plan_tree(one_if())
    assert 0 < plan.seconds <= time.perf_counter() - began
    assert (plan.mode, plan.strategy) == ("exact", "auto")
    assert plan.peak == plan.lower_bound == 4 + 2 + 16


def test_a_heuristic_plan_at_the_bound_is_called_optimal():
    plan = plan_tree(one_if(), "hoist", "large-first")
    assert plan.peak == plan.lower_bound and plan.proven_optimal is True


@pytest.mark.parametrize("mode", [m for m in MODES if m != "exact"])
def test_other_modes_report_themselves_as_chosen_and_keep_blocks_only_when_hoisting(mode):
    plan = plan_tree(one_if(), mode, "large-first")
    assert plan.chosen == mode
    assert plan.blocks == ({0: (plan.offsets["a"], 16)} if mode == "hoist" else {})


def test_naive_gives_every_tensor_its_own_aligned_bytes_in_tree_order():
    plan = plan_tree(one_if(), "naive", align=16)
    assert plan.offsets == {"x": 0, "r": 16, "a": 32, "b": 48}
    assert plan.peak == 64 and not plan.proven_optimal


def test_hoisted_blocks_of_nested_ifs_are_absolute():
    """The inner if's block sits inside the outer one's, above the then branch's own tensor."""
    plan = plan_tree(nested(), "hoist", "large-first")
    outer_base, outer_size = plan.blocks[0]
    inner_base, inner_size = plan.blocks[1]
    assert outer_size == 32 and inner_size == 4
    assert plan.offsets["i"] == inner_base
    assert outer_base <= inner_base and inner_base + inner_size <= outer_base + outer_size
    assert inner_base != plan.offsets["t"] and plan.offsets["t"] >= outer_base
    assert plan.offsets["y"] + 2 <= outer_base or plan.offsets["y"] >= outer_base + outer_size


def test_hoisted_blocks_below_a_parent_tensor_are_offset_by_the_parents_base():
    """y (64 bytes) is placed first by large-first, so the outer block starts at 64 and its inner block above t."""
    tree = nested()
    tree.tensors[0] = Tensor("y", 64, 0, 1)
    plan = plan_tree(tree, "hoist", "large-first")
    assert plan.offsets["y"] == 0
    assert plan.blocks[0] == (64, 32)
    assert plan.blocks[1] == (64 + 8, 4)  # t takes the first 8 bytes of the then branch
    assert plan.offsets["i"] == 72 and plan.offsets["t"] == 64 and plan.offsets["e"] == 64


def test_exact_is_proven_optimal_only_by_its_own_plan_or_by_reaching_the_bound():
    plan = plan_tree(one_if(), "exact", "search", PlanOptions(time_limit=2.0))
    assert plan.chosen == "exact" and plan.proven_optimal
    assert plan_tree(one_if(), "conservative", "large-first").proven_optimal is False  # 4+2+8+16 > 22


def test_a_tree_without_ifs_plans_only_the_exact_candidate():
    plain = RegionTree(3, [Tensor("a", 4, 0, 1), Tensor("b", 4, 1, 2), Tensor("c", 4, 2, 2)])
    plan = plan_tree(plain)
    assert plan.chosen == "exact" and plan.blocks == {} and plan.peak == 8


def test_a_strategy_breaking_the_alignment_is_caught(monkeypatch):
    def misaligned(problem, options):
        offsets, top = {}, 1
        for b in problem.buffers:
            offsets[b.id], top = top, top + b.size + 16
        return Placement(offsets)

    monkeypatch.setitem(strategies._REGISTRY, "misaligned", ("m", "misaligned"))
    monkeypatch.setattr(strategies.importlib, "import_module", lambda name: type("M", (), {"misaligned": staticmethod(misaligned)}))
    with pytest.raises(ValueError, match="is not aligned to 16 bytes"):
        plan_tree(one_if(), "exact", "misaligned", align=16)


def test_the_options_reach_the_strategy_in_every_mode(monkeypatch):
    seen = []

    def spy(problem, options):
        seen.append(options)
        offsets, top = {}, 0
        for b in problem.buffers:
            offsets[b.id], top = top, top + b.size
        return Placement(offsets)

    monkeypatch.setitem(strategies._REGISTRY, "spy", ("spy_module", "spy"))
    monkeypatch.setattr(strategies.importlib, "import_module", lambda name: type("M", (), {"spy": staticmethod(spy)}))
    options = PlanOptions(time_limit=1.5, beam_width=3)
    for mode in MODES:
        plan_tree(nested(), mode, "spy", options)
    assert seen and all(o is options for o in seen)
    # conservative 1, linearize 1, hoist 5 (two inner branches, the then and else branches, the top),
    # exact 6 (its own, 46 bytes stacked, and hoist's 5, which reach the lower bound of 34: linearize
    # and conservative cannot do better and are not planned); naive plans nothing
    assert len(seen) == 1 + 1 + 5 + 6


def test_a_proof_of_optimality_above_the_bound_is_reported():
    # Two 3-byte tensors aligned to 4 need 7 bytes, one more than the 6 live at once:
    # only the exhaustive search can say that 7 is optimal.
    tree = RegionTree(1, [Tensor("a", 3, 0, 0), Tensor("b", 3, 0, 0)])
    proved = plan_tree(tree, "exact", "search", PlanOptions(time_limit=5.0), align=4)
    assert (proved.lower_bound, proved.peak, proved.chosen) == (6, 7, "exact")
    assert proved.proven_optimal
    assert not plan_tree(tree, "exact", "best-fit", align=4).proven_optimal
