"""Mutations that prove the checkers can fail, on generated programs.

Each mutation breaks a correct planned or lowered program in one place; the
checking flat interpreter must then stop on some branch-covering input set, and
without its checks the same program must compute something else or be caught
anyway. Mutations: corrupt one offset (two live tensors on the same bytes),
move one DMA wait after its consumer, drop one yield copy.
"""

from __future__ import annotations

import pytest
from xdsl.dialects import memref, scf
from xdsl.dialects.builtin import DenseArrayBase, ModuleOp, i64
from xdsl.utils.exceptions import PassFailedException

from cfmem.dialects.nn_memref import ApplyOp
from cfmem.interp.flat import ClobberError, run_flat
from cfmem.interp.golden import find_function
from cfmem.passes.liveness import analyze_function
from cfmem.passes.lower_to_memref import lower_module
from cfmem.passes.plan_memory import OFFSETS_ATTR
from cfmem.pipeline import apply_pipeline
from cfmem.testing.random_graphs import GraphShape, covering_input_sets, random_graph

SEEDS = range(12)
LIMITS = GraphShape(ops=10, ifs=3, depth=3, branch_ops=5)


def planned(seed: int, spec: str) -> tuple[ModuleOp, ModuleOp]:
    model = random_graph(seed, LIMITS)
    module = model.clone()
    apply_pipeline(module, spec)
    return model, module


def caught(model: ModuleOp, flat: ModuleOp, seed: int) -> str | None:
    """The first clobber report over the covering input sets, or None."""
    for inputs in covering_input_sets(model, seed):
        try:
            run_flat(flat, inputs, check=True)
        except ClobberError as err:
            return str(err)
    return None


def clobbering_pairs(module: ModuleOp):
    """Top-level tensors (a, b): b is written while a is still to be read, by an op not reading a."""
    info = analyze_function(find_function(module))
    top = [(v, t) for v, t in info.tensor_of.items() if t in info.tree.tensors and v.owner is not None]
    for va, a in top:
        for vb, b in top:
            if a.start < b.start < a.end and not hasattr(vb.owner, "branches") and va not in vb.owner.operands:
                yield va, vb


@pytest.mark.parametrize("seed", SEEDS)
def test_a_corrupted_offset_is_caught_naming_both_tensors(seed):
    model, module = planned(seed, "nn-plan-memory")
    pair = next(clobbering_pairs(module), None)
    if pair is None:
        pytest.skip("no two top-level tensors overlap in time")
    a, b = pair
    a_offset = a.owner.attributes[OFFSETS_ATTR].get_values()[a.index]
    offsets = list(b.owner.attributes[OFFSETS_ATTR].get_values())
    offsets[b.index] = a_offset
    b.owner.attributes[OFFSETS_ATTR] = DenseArrayBase.from_list(i64, offsets)
    with pytest.raises(PassFailedException, match="the stored plan is wrong"):
        lower_module(module.clone())
    lower_module(module, check_plan=False)
    message = caught(model, module, seed)
    assert message is not None, f"seed {seed}: %{b.name_hint} placed on %{a.name_hint} went unnoticed"
    assert f"%{a.name_hint}" in message


@pytest.mark.parametrize("seed", SEEDS)
def test_a_dma_wait_moved_after_its_consumer_is_caught(seed):
    model, module = planned(seed, "nn-insert-dma,nn-plan-memory")
    lower_module(module)
    fn = find_function(module)
    for wait in [op for op in fn.walk() if isinstance(op, memref.DmaWaitOp)]:
        # the first compute op after the wait in its block reads what the wait guards
        consumer = next((op for op in _after(wait) if isinstance(op, ApplyOp)), None)
        if consumer is not None:
            break
    else:
        pytest.skip("no DMA wait with a consumer in its block")
    wait.detach()
    consumer.parent_block().insert_op_after(wait, consumer)
    message = caught(model, module, seed)
    assert message is not None and "not been waited for" in message, message


@pytest.mark.parametrize("seed", SEEDS)
def test_a_dropped_yield_copy_is_caught(seed):
    model, module = planned(seed, "nn-plan-memory")
    lower_module(module)
    candidates = [
        (if_op, copy)
        for if_op in module.walk()
        if isinstance(if_op, scf.IfOp)
        for region in (if_op.true_region, if_op.false_region)
        for copy in region.block.ops
        if isinstance(copy, memref.CopyOp) and _read_later(if_op, copy)
    ]
    if not candidates:
        pytest.skip("no if result that is read after its if")
    _, copy = candidates[0]
    copy.detach()
    message = caught(model, module, seed)
    assert message is not None, f"seed {seed}: a dropped yield copy went unnoticed"


def _after(op):
    op = op.next_op
    while op is not None:
        yield op
        op = op.next_op


def _read_later(if_op: scf.IfOp, copy: memref.CopyOp) -> bool:
    """The copy's destination is a view that a compute op after the if reads."""
    dest = copy.destination
    return any(
        isinstance(use.operation, ApplyOp) and use.operation in list(_after(if_op)) and use.index < len(use.operation.ins)
        for use in dest.uses
    )


def test_the_mutations_apply_to_most_generated_programs():
    """Guard against the tests above skipping everything."""
    applicable = 0
    for seed in SEEDS:
        _, module = planned(seed, "nn-plan-memory")
        applicable += next(clobbering_pairs(module), None) is not None
    assert applicable >= len(SEEDS) // 2
