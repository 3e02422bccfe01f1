"""plan_function (through ``plan_smallest``) keeps the plan the documented rule picks among alias kinds,
also when it leaves unplanned the kinds whose lower bound rules them out."""

from __future__ import annotations

import random

import pytest

from cfmem.passes import plan_memory
from cfmem.passes.aliases import ALIAS_KINDS, SAFE_KINDS, find_aliases
from cfmem.passes.liveness import analyze_function, functions
from cfmem.pipeline import apply_pipeline
from cfmem.planning import control_flow
from cfmem.planning.control_flow import plan_tree
from cfmem.testing.random_graphs import GraphShape, random_graph


def reference(fn, mode: str) -> tuple[tuple[str, ...], dict[str, int]]:
    """Every kind planned: the first of all kinds, then safe kinds, no larger than the plain
    plan, else the plain plan; its kinds and offsets."""
    plain = plan_tree(analyze_function(fn).tree, mode, "auto", None, 16)
    for kinds in (ALIAS_KINDS, SAFE_KINDS):
        alias_map = find_aliases(fn, kinds)
        if alias_map:
            plan = plan_tree(analyze_function(fn, aliases=alias_map).tree, mode, "auto", None, 16)
            if plan.peak <= plain.peak:
                return kinds, plan.offsets
    return (), plain.offsets


def graphs():
    for seed in range(12):
        rng = random.Random(seed)
        shape = GraphShape(ops=rng.randint(10, 60), ifs=rng.randint(1, 8), depth=3, loops=rng.randint(0, 2))
        model = random_graph(rng, shape)
        apply_pipeline(model, "nn-insert-dma")
        yield functions(model)[0]


@pytest.mark.parametrize("mode", ["exact", "hoist"])
def test_the_kept_plan_is_the_one_every_kind_planned_would_give(mode):
    kept = set()
    for fn in graphs():
        info, plan = plan_memory.plan_function(fn, mode, align=16)
        assert (info.kinds, plan.offsets) == reference(fn, mode)
        kept.add(info.kinds)
    assert len(kept) >= 2  # the graphs cover more than one outcome


def test_a_bound_that_rules_out_too_much_is_seen(monkeypatch):
    monkeypatch.setattr(control_flow, "cf_lower_bound", lambda tree: 1 << 60)  # (plan_smallest's check)
    outcomes = [(plan_memory.plan_function(fn, "exact", align=16)[0].kinds, reference(fn, "exact")[0]) for fn in graphs()]
    assert any(got != want for got, want in outcomes)
