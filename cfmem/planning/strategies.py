"""The planning strategies by name, and ``solve``: plan, verify, measure.

A strategy is a function ``(Problem, PlanOptions) -> Placement`` that gives
every buffer an offset that is a multiple of the buffer's ``align`` such that
conflicting buffers (see ``problem.conflicts``) do not overlap. ``solve`` runs
one, checks the result with the independent verifier and reports the peak
against the lower bound. Results are deterministic for the same input.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable

from cfmem.planning.problem import Placement, PlanOptions, Problem, Solution, lower_bound, peak_of
from cfmem.planning.verify import verify_plan

Strategy = Callable[[Problem, PlanOptions], Placement]

# name -> (module, function); imported on first use
_REGISTRY: dict[str, tuple[str, str]] = {
    "sequential": ("cfmem.planning.greedy", "plan_sequential"),
    "large-first": ("cfmem.planning.greedy", "plan_large_first"),
    "short-first": ("cfmem.planning.greedy", "plan_short_first"),
    "best-fit": ("cfmem.planning.greedy", "plan_best_fit"),
    "tflm": ("cfmem.planning.greedy", "plan_tflm"),
    "by-size": ("cfmem.planning.greedy", "plan_by_size"),
    "beam": ("cfmem.planning.beam", "plan_beam"),
    "search": ("cfmem.planning.search", "plan_search"),
}
AUTO_CANDIDATES = ("large-first", "best-fit", "short-first", "sequential", "tflm", "by-size")
"""What ``auto`` runs; with ``tflm`` and ``by-size`` among them, auto is never worse than
TFLite Micro's planner with either tie rule among equal sizes."""
STRATEGY_NAMES = (*_REGISTRY, "auto")


def get_strategy(name: str) -> Strategy:
    if name == "auto":
        return plan_auto
    if name not in _REGISTRY:
        raise ValueError(f"unknown strategy '{name}' (choose from {', '.join(STRATEGY_NAMES)})")
    module, function = _REGISTRY[name]
    return getattr(importlib.import_module(module), function)


def plan_auto(problem: Problem, options: PlanOptions, bound: int | None = None) -> Placement:
    """Run the fast heuristics and keep the smallest peak (ties: first listed).

    The same result as running every candidate, sooner: a greedy candidate whose
    order and fit rule an earlier one already placed is skipped (same offsets); a
    greedy candidate gives up once a buffer ends at or above the best peak so far
    (it could only tie, and ties go to the earlier one); and the run stops once a
    peak reaches the lower bound (no later one can be smaller; ``bound``, when the
    caller has it, must be ``lower_bound(problem.buffers)``).
    """
    from cfmem.planning.greedy import GreedyOrder  # (numpy: imported when a plan is made)

    bound = lower_bound(problem.buffers) if bound is None else bound
    placed: set[tuple[bool, tuple[str, ...]]] = set()
    best: tuple[int, str, Placement] | None = None
    for name in AUTO_CANDIDATES:
        strategy = get_strategy(name)
        if isinstance(strategy, GreedyOrder):
            order = strategy.order(problem.buffers)
            key = (strategy.best_fit, tuple(b.id for b in order))
            if key in placed:
                continue
            placed.add(key)
            placement = strategy.place(order, None if best is None else best[0])
            if placement is None:
                continue
        else:
            placement = strategy(problem, options)
        peak = peak_of(problem.buffers, placement.offsets)
        if best is None or peak < best[0]:
            best = (peak, name, placement)
        if peak <= bound:
            break
    assert best is not None
    best[2].stats["auto_choice"] = AUTO_CANDIDATES.index(best[1])
    return best[2]


def solve(problem: Problem, strategy: str = "auto", options: PlanOptions | None = None) -> Solution:
    """Plan ``problem`` with ``strategy`` and verify the result before returning it."""
    options = options or PlanOptions()
    bound = lower_bound(problem.buffers)
    began = time.perf_counter()
    if strategy == "auto":
        placement = plan_auto(problem, options, bound)
    else:
        placement = get_strategy(strategy)(problem, options)
    seconds = time.perf_counter() - began
    peak = peak_of(problem.buffers, placement.offsets)
    verify_plan(problem.buffers, placement.offsets)  # the peak is where the plan ends, so it fits
    return Solution(
        offsets=placement.offsets,
        peak=peak,
        lower_bound=bound,
        strategy=strategy,
        proven_optimal=placement.proven_optimal or peak == bound,
        seconds=seconds,
        stats=placement.stats,
    )
