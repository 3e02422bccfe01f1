"""The random program generator, and a few generated programs through the whole pipeline."""

from __future__ import annotations

import random

import numpy as np
import pytest

from cfmem.interp.flat import run_flat
from cfmem.interp.golden import run_function
from cfmem.passes.lower_to_memref import lower_module
from cfmem.pipeline import apply_pipeline
from cfmem.testing.random_graphs import GraphShape, covering_input_sets, random_graph


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


@pytest.mark.parametrize("seed", range(5))
def test_covering_input_sets_take_both_branches_of_every_if(seed):
    module = random_graph(seed)
    if_count = sum(op.name == "nn.if" for op in module.walk())
    taken = set()
    for inputs in covering_input_sets(module, seed):
        taken |= set(run_function(module, inputs).branches)
    assert taken == {(f"if#{k}", t) for k in range(if_count) for t in (True, False)}


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
