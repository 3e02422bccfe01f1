"""The random program generator, and a few generated programs through the whole pipeline."""

from __future__ import annotations

import random

import numpy as np
import pytest

from xdsl.dialects import func

from cfmem.builder import GraphBuilder
from cfmem.dialects.nn_control import LoopOp
from cfmem.interp.coverage import branch_outcomes, missing_outcomes
from cfmem.interp.flat import run_flat
from cfmem.interp.golden import find_function, run_function
from cfmem.passes.lower_to_memref import lower_module
from cfmem.pipeline import apply_pipeline
from cfmem.testing.random_graphs import TRIP_COUNTS, GraphShape, covering_input_sets, random_graph


def if_depth(op) -> int:
    depth, parent = 0, op.parent_op()
    while parent is not None:
        depth += parent.name == "nn.if"
        parent = parent.parent_op()
    return depth


def test_the_same_seed_gives_the_same_program():
    assert str(random_graph(7)) == str(random_graph(7))
    assert str(random_graph(7)) != str(random_graph(8))
    assert str(random_graph(random.Random(7))) == str(random_graph(7))


def test_programs_nest_ifs_read_outer_values_and_leave_results_unused():
    deepest, outer_reads, unused = 0, 0, 0
    for seed in range(20):
        module = random_graph(seed, GraphShape(ifs=4, depth=4))
        module.verify()
        for op in module.walk():
            if op.name == "nn.if":
                deepest = max(deepest, if_depth(op) + 1)
            if op.parent_op() is not None and op.parent_op().name == "nn.if":
                outer_reads += any(o.owner.parent_block() is not op.parent_block() for o in op.operands
                                   if hasattr(o.owner, "parent_block"))
            unused += any(not r.uses for r in op.results)
    assert deepest >= 3
    assert outer_reads > 0
    assert unused > 0


def deepest_if(module) -> int:
    return max((if_depth(op) + 1 for op in module.walk() if op.name == "nn.if"), default=0)


@pytest.mark.parametrize("min_depth", [1, 2, 3])
def test_min_depth_nests_a_chain_of_ifs_within_the_limits(min_depth):
    for seed in range(30):
        for ops, ifs, depth, branch_ops in [(1, min_depth, min_depth, 0), (4, 5, 4, 3), (0, 3, 3, 6)]:
            module = random_graph(seed, GraphShape(ops=ops, ifs=ifs, depth=depth, branch_ops=branch_ops, min_depth=min_depth))
            module.verify()
            assert min_depth <= deepest_if(module) <= depth
            assert sum(op.name == "nn.if" for op in module.walk()) <= ifs


def test_min_depth_is_capped_by_the_if_and_depth_limits():
    assert deepest_if(random_graph(0, GraphShape(ifs=1, depth=4, min_depth=3))) == 1
    assert deepest_if(random_graph(0, GraphShape(ifs=4, depth=2, min_depth=3))) == 2
    assert deepest_if(random_graph(0, GraphShape(ifs=0, min_depth=3))) == 0


def taken_outcomes(module, input_sets) -> tuple[list[str], list[str]]:
    """Every outcome of ``module``'s ifs, and those no input set ran (by the reference traces)."""
    outcomes = branch_outcomes(module, find_function(module))
    traces = [tuple(run_function(module, inputs).branches) for inputs in input_sets]
    return outcomes, missing_outcomes(outcomes, traces)


def pattern(inputs) -> dict[str, bool]:
    """Which condition inputs an input set makes true."""
    return {name: bool(value[0] > 0) for name, value in inputs.items() if name.startswith("c")}


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("limits", [GraphShape(), GraphShape(ifs=4, depth=1, min_depth=1),
                                    GraphShape(ops=6, ifs=8, depth=4, branch_ops=4, min_depth=3)], ids=["default", "4-flat", "8-nested"])
def test_covering_input_sets_take_both_branches_of_every_if(seed, limits):
    module = random_graph(seed, limits)
    cover = covering_input_sets(module, seed, limit=None)
    outcomes, missing = taken_outcomes(module, cover)
    assert not missing
    assert len(cover) <= max(1, len(outcomes) // 2 + 1)
    more = covering_input_sets(module, seed)
    assert [pattern(inputs) for inputs in more[: len(cover)]] == [pattern(inputs) for inputs in cover]
    assert len(more) <= 16
    assert len({tuple(run_function(module, inputs).branches) for inputs in more}) == len(more)


def test_four_unnested_ifs_run_both_branches_of_each_in_two_sets():
    module = random_graph(20, GraphShape(ops=8, ifs=4, depth=1, min_depth=1))
    assert sum(op.name == "nn.if" for op in module.walk()) == 4
    cover = covering_input_sets(module, 0, limit=None)
    assert len(cover) == 2
    assert not taken_outcomes(module, cover)[1]


def test_a_limit_below_the_cover_cuts_it_short_and_a_program_without_ifs_has_one_set():
    module = random_graph(1, GraphShape(ifs=5, depth=3, min_depth=3))
    assert len(covering_input_sets(module, 0, limit=1)) == 1
    assert len(covering_input_sets(random_graph(1, GraphShape(ifs=0)), 0)) == 1


def test_an_if_not_decided_by_its_own_condition_input_is_refused():
    b = GraphBuilder("main")
    x = b.input("x", (1, 4))
    (y,) = b.if_(b.cmp("gt", b.input("c0", (1,)), 0.5), lambda b: [b.relu(x)], lambda b: [x])
    b.output(y)
    with pytest.raises(ValueError, match="cmp gt c<k>, 0"):
        covering_input_sets(b.build())


def test_ifs_sharing_a_condition_input_are_refused():
    b = GraphBuilder("main")
    x = b.input("x", (1, 4))
    take = b.cmp("gt", b.input("c0", (1,)), 0.0)
    (y,) = b.if_(take, lambda b: [b.relu(x)], lambda b: [x])
    (z,) = b.if_(take, lambda b: [b.sigmoid(y)], lambda b: [y])
    b.output(z)
    with pytest.raises(ValueError, match="same condition input"):
        covering_input_sets(b.build())


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize(
    "spec",
    ["nn-insert-dma,nn-plan-memory{mode=exact}", "nn-insert-dma{mode=sync},nn-plan-memory{mode=hoist strategy=best-fit}"],
)
def test_generated_programs_run_bit_identically_after_planning_and_lowering(seed, spec):
    model = random_graph(seed)
    flat = model.clone()
    apply_pipeline(flat, spec)
    lower_module(flat)
    for inputs in covering_input_sets(model, seed):
        want = run_function(model, inputs)
        got = run_flat(flat, inputs, check=True)
        assert got.branches == want.branches
        for name, value in want.outputs.items():
            np.testing.assert_array_equal(got.outputs[name], value)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize(
    "spec",
    ["nn-insert-dma,nn-plan-memory{mode=exact}",
     "nn-insert-dma{loop-weights=stream},nn-plan-memory{mode=hoist strategy=best-fit}",
     "nn-insert-dma{mode=sync},nn-plan-memory{mode=conservative}"],
)
def test_generated_programs_with_loops_run_bit_identically_every_iteration_count(seed, spec):
    """Loops nested in ifs and loops, ifs in loops: each loop run 0, 1, 2 and 3 times
    (seed 0 with streamed weights nests a prefetching loop in an if in a loop)."""
    model = random_graph(seed, GraphShape(loops=2, ifs=3))
    loops = [op for op in model.walk() if isinstance(op, LoopOp)]
    top = {f"loop#{k}" for k, op in enumerate(loops) if isinstance(op.parent_op(), func.FuncOp)}
    assert top  # the first loop is placed at the top level
    flat = model.clone()
    apply_pipeline(flat, spec + ",nn-lower-to-memref,nn-check-dma")
    sets = covering_input_sets(model, seed)
    assert len(sets) >= len(TRIP_COUNTS)
    for j, inputs in enumerate(sets):
        want = run_function(model, inputs)
        got = run_flat(flat, inputs, check=True)
        assert got.branches == want.branches and got.loops == want.loops
        assert {n for label, n in want.loops if label in top} == {TRIP_COUNTS[j % len(TRIP_COUNTS)]}
        for name, value in want.outputs.items():
            np.testing.assert_array_equal(got.outputs[name], value)
