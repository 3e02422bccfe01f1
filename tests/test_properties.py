"""Property: every generated program, under any strategy, control-flow mode and DMA
setting, plans, passes the DMA hazard check, lowers, and runs bit-identically to
the unplanned reference down both branches of every if, with every checker on.

Every drawn program has an if, and one chain of ifs nested ``min_depth`` (1 to 3)
deep. Each program is planned under every strategy and mode, and lowered and run
under the two strategies it drew (one with DMA, one without); ``FIXED_CASES`` are
lowered and run under every strategy. The property test (on the cases it ran) and
a meta-test (on the draw alone) fail if the draw thins out: programs without ifs,
too little nesting, a strategy rarely lowered.

The draw is derandomized and bounded for CI; set CFMEM_PROPERTY_EXAMPLES (e.g. 500)
for a longer hunt. A failure shrinks (hypothesis) to a small case that is printed;
keep it in ``FIXED_CASES``.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from itertools import count

import numpy as np
import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from xdsl.dialects.builtin import ModuleOp  # noqa: E402

from cfmem.dialects.nn_control import IfOp  # noqa: E402
from cfmem.interp.coverage import branch_outcomes, missing_outcomes  # noqa: E402
from cfmem.interp.flat import run_flat  # noqa: E402
from cfmem.interp.golden import find_function, run_function  # noqa: E402
from cfmem.passes.lower_to_memref import lower_module  # noqa: E402
from cfmem.pipeline import apply_pipeline  # noqa: E402
from cfmem.planning.control_flow import MODES  # noqa: E402
from cfmem.planning.strategies import STRATEGY_NAMES  # noqa: E402
from cfmem.testing.random_graphs import GraphShape, covering_input_sets, random_graph  # noqa: E402

EXAMPLES = int(os.environ.get("CFMEM_PROPERTY_EXAMPLES", "70"))
"""The CI draw: 70 programs run every line and branch of cfmem that a draw of 100 runs (but the
flat interpreter's check of a read whose bytes several tensors own, which its own tests run),
and 34 more, with fewer one-if programs."""
SEARCH_SECONDS = 0.002
"""Time limit of the ``search`` strategy: enough for these small problems to be
searched, short enough for the CI draw."""


@dataclass(frozen=True)
class Case:
    """One drawn program (``random_graph(Random(seed), limits)``) and how to plan it."""

    seed: int
    limits: GraphShape
    strategy: str
    """The strategy it is lowered and run under with DMA (all of them plan it)."""
    plain_strategy: str
    """The strategy it is lowered and run under without DMA."""
    dma: str
    dma_depth: int
    buffers: str


@st.composite
def graph_shapes(draw: st.DrawFn) -> GraphShape:
    """Small programs (a CI budget) with one chain of ifs 1 to 3 deep."""
    nesting = draw(st.integers(1, 3))
    return GraphShape(
        ops=draw(st.integers(1, 4)),
        ifs=draw(st.integers(nesting, 5)),
        depth=draw(st.integers(nesting, 4)),
        branch_ops=draw(st.integers(0, 3)),
        min_depth=nesting,
    )


@st.composite
def cases(draw: st.DrawFn) -> Case:
    """A program and its planning; the two lowered strategies differ (the first two of
    a shuffled list, which spreads the draw over all of them)."""
    seed, limits = draw(st.integers(0, 2**32 - 1)), draw(graph_shapes())
    strategy, plain_strategy = draw(st.permutations(STRATEGY_NAMES))[:2]
    return Case(
        seed=seed,
        limits=limits,
        strategy=strategy,
        plain_strategy=plain_strategy,
        dma=draw(st.sampled_from(["pingpong", "sync"])),
        dma_depth=draw(st.integers(2, 4)),
        buffers=draw(st.sampled_from(["region", "fixed"])),
    )


def over_the_draw(body: Callable[[Case], object]) -> None:
    """``body(case)`` for each case of the CI draw: the same cases, in the same order,
    whatever ``body`` is (derandomized: the seed hashes this function's source)."""

    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
    @given(case=cases())
    def each(case: Case) -> None:
        body(case)

    each()


def dma_pass(case: Case) -> str:
    return f"nn-insert-dma{{mode={case.dma} depth={case.dma_depth} buffers={case.buffers}}}"


def plan_pass(mode: str, strategy: str) -> str:
    return f"nn-plan-memory{{mode={mode} strategy={strategy} time-limit={SEARCH_SECONDS}}}"


def if_depth(op: IfOp) -> int:
    """How many ifs ``op`` is nested in, itself included."""
    depth = 0
    while op is not None:
        depth += isinstance(op, IfOp)
        op = op.parent_op()
    return depth


def shape_of(case: Case) -> tuple[int, int]:
    """The number of ifs of ``case``'s program and their deepest nesting."""
    model = random_graph(random.Random(case.seed), case.limits)
    depths = [if_depth(op) for op in model.walk() if isinstance(op, IfOp)]
    return len(depths), max(depths, default=0)


def check_program(case: Case, every_strategy: bool = False) -> None:
    """Every strategy x mode plans (the plan verifier runs inside) and passes the DMA
    hazard check. Every mode, with the case's DMA under ``case.strategy`` and without
    DMA under ``case.plain_strategy`` (or both under every strategy), lowers and runs
    bit-identically to the reference on input sets whose traces take both branches
    of every if."""
    with_dma_lowered = STRATEGY_NAMES if every_strategy else (case.strategy,)
    plain_lowered = STRATEGY_NAMES if every_strategy else (case.plain_strategy,)
    model = random_graph(random.Random(case.seed), case.limits)
    with_dma = model.clone()
    apply_pipeline(with_dma, dma_pass(case))
    input_sets = covering_input_sets(model, case.seed % 1000, limit=None)
    wanted = [run_function(model, inputs) for inputs in input_sets]
    outcomes = branch_outcomes(model, find_function(model))
    assert outcomes, "a drawn program has no if"
    assert not missing_outcomes(outcomes, [tuple(want.branches) for want in wanted])

    def lower_and_run(planned: ModuleOp, what: str) -> None:
        lower_module(planned)
        for inputs, want in zip(input_sets, wanted):
            got = run_flat(planned, inputs, check=True)
            assert got.branches == want.branches, what
            for name, value in want.outputs.items():
                np.testing.assert_array_equal(got.outputs[name], value, err_msg=f"output {name}, {what}")

    for mode in MODES:
        for strategy in STRATEGY_NAMES:
            planned = with_dma.clone()
            apply_pipeline(planned, f"{plan_pass(mode, strategy)},nn-check-dma")
            if strategy in with_dma_lowered:
                lower_and_run(planned, f"mode {mode}, strategy {strategy}, {case.dma} DMA")
        for strategy in plain_lowered:
            planned = model.clone()
            apply_pipeline(planned, plan_pass(mode, strategy))
            lower_and_run(planned, f"mode {mode}, strategy {strategy}, no DMA")


def assert_the_draw_is_rich(drawn: list[Case]) -> None:
    """Every program has an if, at least a third nest ifs two deep, a tenth three deep
    and a twentieth have four ifs or more, and every strategy is drawn to be lowered and
    run (three times or more)."""
    assert len(drawn) >= min(EXAMPLES, 70), f"only {len(drawn)} programs drawn"
    shapes = [shape_of(case) for case in drawn]
    ifs = Counter(count for count, _ in shapes)
    deepest = Counter(depth for _, depth in shapes)
    summary = f"of {len(drawn)} programs, by number of ifs {sorted(ifs.items())}, by deepest if {sorted(deepest.items())}"
    assert ifs[0] == 0, summary
    assert sum(n for depth, n in deepest.items() if depth >= 2) >= len(drawn) / 3, summary
    assert sum(n for depth, n in deepest.items() if depth >= 3) >= len(drawn) / 10, summary
    assert sum(n for count, n in ifs.items() if count >= 4) >= len(drawn) / 20, summary
    lowered = Counter(case.strategy for case in drawn) + Counter(case.plain_strategy for case in drawn)
    assert set(lowered) == set(STRATEGY_NAMES) and min(lowered.values()) >= 3, lowered
    assert set(Counter(case.dma for case in drawn)) == {"pingpong", "sync"}


@pytest.mark.parametrize("part", [0, 1], ids=["even", "odd"])
def test_every_generated_program_plans_lowers_and_runs_bit_identically(part):
    """Half the draw each (the cases at even or at odd positions), so that two workers share
    it; together they check every case, and the draw is checked rich on its own below."""
    position = count()
    checked = 0

    def check_half(case: Case) -> None:
        nonlocal checked
        if next(position) % 2 == part:
            check_program(case)
            checked += 1

    over_the_draw(check_half)
    assert checked >= EXAMPLES // 2


FIXED_CASES = [
    Case(10, GraphShape(ops=3, ifs=4, depth=3, branch_ops=2, min_depth=3), "beam", "auto", "pingpong", 2, "region"),
    Case(3, GraphShape(ops=5, ifs=3, depth=1, branch_ops=3, min_depth=1), "search", "sequential", "sync", 3, "fixed"),
    Case(5, GraphShape(ops=4, ifs=4, depth=4, branch_ops=2, min_depth=2), "auto", "best-fit", "pingpong", 4, "fixed"),
]
"""Programs lowered and run under every strategy (and shrunk failures, kept)."""


@pytest.mark.parametrize("case", FIXED_CASES, ids=lambda case: f"seed{case.seed}")
def test_fixed_programs_lower_and_run_under_every_strategy(case):
    check_program(case, every_strategy=True)


def test_the_draw_has_ifs_nested_ifs_and_every_strategy():
    """The CI draw, drawn without running it (the property test checks the draw it
    ran the same way)."""
    drawn: list[Case] = []
    over_the_draw(drawn.append)
    assert_the_draw_is_rich(drawn)


def test_fixed_cases_include_deeply_nested_and_unnested_ifs():
    shapes = [shape_of(case) for case in FIXED_CASES]
    assert max(deepest for _, deepest in shapes) >= 4
    assert min(deepest for _, deepest in shapes) == 1
    assert min(ifs for ifs, _ in shapes) >= 2
