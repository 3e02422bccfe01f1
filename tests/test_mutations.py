"""Mutations that prove the checkers can fail, on generated programs.

Each mutation breaks a correct planned or lowered program in one place; the
checking flat interpreter must then stop on some branch-covering input set, and
without its checks the same program must compute something else or be caught
anyway. Mutations: corrupt one offset (two live tensors on the same bytes),
move one DMA wait after its consumer, drop one yield copy.
"""

from __future__ import annotations

import re

import pytest
from xdsl.dialects import memref, scf
from xdsl.dialects.builtin import DenseArrayBase, ModuleOp, i64
from xdsl.utils.exceptions import PassFailedException

from cfmem.dialects.nn_memref import ApplyOp
from cfmem.interp.flat import ClobberError, run_flat
from cfmem.interp.golden import find_function
from cfmem.passes.liveness import analyze_function
from cfmem.passes.lower_to_memref import TENSOR_ATTR, lower_module
from cfmem.passes.plan_memory import OFFSETS_ATTR
from cfmem.passes.stored_plan import declared_aliases
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
    """Top-level tensors without aliases (a, b): b is written while a is still to be read, by an op not reading a."""
    fn = find_function(module)
    info = analyze_function(fn, aliases=declared_aliases(fn))
    roots = {root for root, _ in info.aliases.values()}
    top = [(v, t) for v, t in info.tensor_of.items() if t in info.tree.tensors and v.owner is not None and v not in roots]
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
    assert f"reads %{a.name_hint} but %{b.name_hint} overwrote" in message, message


def moved_wait_site(module: ModuleOp) -> tuple[memref.DmaWaitOp, ApplyOp, str] | None:
    """The first DMA wait with a compute op after it in its block, that op, and the tensor the wait guards."""
    started: dict[tuple, str] = {}
    for op in find_function(module).walk():
        if isinstance(op, memref.DmaStartOp):
            started[(op.tag, *op.tag_indices)] = op.attributes[TENSOR_ATTR].data
        elif isinstance(op, memref.DmaWaitOp):
            consumer = next((later for later in _after(op) if isinstance(later, ApplyOp)), None)
            if consumer is not None:
                return op, consumer, started[(op.tag, *op.tag_indices)]
    return None


@pytest.mark.parametrize("seed", SEEDS)
def test_a_dma_wait_moved_after_its_consumer_is_caught(seed):
    model, module = planned(seed, "nn-insert-dma,nn-plan-memory")
    lower_module(module)
    site = moved_wait_site(module)
    if site is None:
        pytest.skip("no DMA wait with a consumer in its block")
    wait, consumer, weight = site
    wait.detach()
    consumer.parent_block().insert_op_after(wait, consumer)
    message = caught(model, module, seed)
    assert message is not None, f"seed {seed}: the wait for %{weight} moved after its consumer went unnoticed"
    assert f"reads %{weight} while the DMA of %{weight} into the same bytes has not been waited for" in message, message


def yield_copies_read_later(module: ModuleOp) -> list[memref.CopyOp]:
    """Copies of a yielded value into an if result that a compute op after the if reads."""
    return [
        copy
        for if_op in module.walk()
        if isinstance(if_op, scf.IfOp)
        for region in (if_op.true_region, if_op.false_region)
        for copy in region.block.ops
        if isinstance(copy, memref.CopyOp) and _read_later(if_op, copy)
    ]


@pytest.mark.parametrize("seed", SEEDS)
def test_a_dropped_yield_copy_is_caught(seed):
    model, module = planned(seed, "nn-plan-memory")
    lower_module(module)
    copies = yield_copies_read_later(module)
    if not copies:
        pytest.skip("no if result that is read after its if")
    copy = copies[0]
    result = copy.destination.owner.attributes[TENSOR_ATTR].data
    copy.detach()
    message = caught(model, module, seed)
    assert message is not None, f"seed {seed}: the dropped copy into %{result} went unnoticed"
    assert re.search(rf"reads %{re.escape(result)} but (nothing wrote|%\S+ overwrote)", message), message


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


def corruptible_offset(seed: int) -> bool:
    _, module = planned(seed, "nn-plan-memory")
    return next(clobbering_pairs(module), None) is not None


def movable_wait(seed: int) -> bool:
    _, module = planned(seed, "nn-insert-dma,nn-plan-memory")
    lower_module(module)
    return moved_wait_site(module) is not None


def droppable_yield_copy(seed: int) -> bool:
    _, module = planned(seed, "nn-plan-memory")
    lower_module(module)
    return bool(yield_copies_read_later(module))


@pytest.mark.parametrize(
    "applies, at_least",
    [(corruptible_offset, len(SEEDS) // 2), (movable_wait, 3 * len(SEEDS) // 4), (droppable_yield_copy, len(SEEDS) // 2)],
    ids=["corrupted offset", "moved DMA wait", "dropped yield copy"],
)
def test_each_mutation_applies_to_enough_generated_programs(applies, at_least):
    """Guard against the tests above skipping (nearly) every seed."""
    applicable = [seed for seed in SEEDS if applies(seed)]
    assert len(applicable) >= at_least, f"applies to seeds {applicable} only"
