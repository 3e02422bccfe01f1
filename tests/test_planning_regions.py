"""The control-flow lower bound and the path that reaches it, on trees worked out by hand."""

from __future__ import annotations

import pytest

from cfmem.planning.regions import IfNode, RegionTree, Tensor, cf_lower_bound, peak_path


def test_a_region_with_nothing_live_has_a_zero_bound_and_no_path():
    assert cf_lower_bound(RegionTree(3)) == 0
    assert peak_path(RegionTree(3)) == (0, "")


def test_the_bound_of_a_straight_region_is_its_busiest_step():
    region = RegionTree(4, [Tensor("a", 10, 0, 1), Tensor("b", 20, 1, 2), Tensor("c", 25, 3, 3)])
    assert peak_path(region) == (30, "step 1")  # a and b; c alone is 25


def test_a_tensor_stops_counting_after_its_last_step():
    region = RegionTree(3, [Tensor("a", 10, 0, 0), Tensor("b", 8, 1, 2), Tensor("c", 3, 2, 2)])
    assert peak_path(region) == (11, "step 2")


def test_the_first_step_reaching_the_bound_is_named():
    region = RegionTree(5, [Tensor("a", 7, 1, 1), Tensor("b", 7, 3, 4)])
    assert peak_path(region) == (7, "step 1")


def branchy(then: RegionTree, other: RegionTree) -> RegionTree:
    """x (5 bytes) lives from step 0 through the if at step 1; r (2 bytes), its result, to step 2."""
    return RegionTree(3, [Tensor("x", 5, 0, 1), Tensor("r", 2, 1, 2)], [IfNode(0, 1, [then, other])])


def test_at_an_if_the_parents_live_bytes_add_to_the_larger_branch():
    tree = branchy(RegionTree(2, [Tensor("t", 4, 0, 1)]), RegionTree(2, [Tensor("e", 9, 1, 1)]))
    assert peak_path(tree) == (5 + 2 + 9, "step 1 > if#0.else > step 1")
    tree = branchy(RegionTree(2, [Tensor("t", 9, 0, 1)]), RegionTree(2, [Tensor("e", 4, 1, 1)]))
    assert peak_path(tree) == (16, "step 1 > if#0.then > step 0")


def test_on_equal_branches_the_then_branch_is_named():
    tree = branchy(RegionTree(1, [Tensor("t", 4, 0, 0)]), RegionTree(1, [Tensor("e", 4, 0, 0)]))
    assert peak_path(tree) == (11, "step 1 > if#0.then > step 0")


def test_an_if_with_empty_branches_counts_the_parent_alone():
    assert peak_path(branchy(RegionTree(1), RegionTree(1))) == (7, "step 1")


def test_nested_ifs_name_every_level_of_the_path():
    inner = IfNode(1, 0, [RegionTree(1, [Tensor("i", 3, 0, 0)]), RegionTree(1, [Tensor("j", 6, 0, 0)])])
    then = RegionTree(2, [Tensor("t", 1, 0, 1)], [inner])
    tree = branchy(then, RegionTree(1, [Tensor("e", 4, 0, 0)]))
    assert peak_path(tree) == (7 + 1 + 6, "step 1 > if#0.then > step 0 > if#1.else > step 0")
    assert cf_lower_bound(tree) == 14


def test_a_busier_step_outside_the_if_wins_over_it():
    tree = RegionTree(3, [Tensor("x", 5, 0, 1), Tensor("big", 40, 2, 2)],
                      [IfNode(0, 1, [RegionTree(1, [Tensor("t", 4, 0, 0)]), RegionTree(1)])])  # fmt: skip
    assert peak_path(tree) == (40, "step 2")


def test_an_if_has_exactly_two_branches():
    with pytest.raises(ValueError):
        cf_lower_bound(RegionTree(2, [], [IfNode(0, 0, [RegionTree(1), RegionTree(1), RegionTree(1)])]))


def test_walk_visits_parents_first_and_live_at_sums_one_step():
    then, other = RegionTree(1, [Tensor("t", 4, 0, 0)]), RegionTree(1, [Tensor("e", 9, 0, 0)])
    tree = branchy(then, other)
    assert list(tree.walk()) == [tree, then, other]
    assert [t.id for t in tree.all_tensors()] == ["x", "r", "t", "e"]
    assert [tree.live_at(step) for step in range(3)] == [5, 7, 2]
