"""A ``.tflite`` model planned for TFLite Micro, and the plan checked in TFLM itself.

``plan_for_tflm`` goes from the model's object tree to the bytes of the planned model:
TFLM's tensors and lifetimes (``lifetimes``), the scratch blocks its kernels ask for
(``scratch_probe``, when a ``TflmWorker`` is given), one of cfmem's strategies on that buffer
problem and on the same problem with each RESHAPE output on its input's bytes (``aliases``;
the plan with fewer bytes is kept, the plain one on a tie; both are verified by ``solve``),
TFLM's own greedy planner on the plain buffers for comparison, and the written offline plan
(``offline_plan``).

``compare_in_tflm`` loads the original and the planned model in TFLM (``tflm_runtime``):
the smallest arena each allocates in, the recording allocator's head and tail there, and
whether both give the same outputs, bit for bit, on the same inputs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from cfmem.planning.problem import PlanOptions, Problem, Solution
from cfmem.planning.strategies import solve
from cfmem.tflite.aliases import aliased_problem, reshape_aliases, with_aliases
from cfmem.tflite.lifetimes import ArenaTensor, arena_problem, arena_tensors
from cfmem.tflite.offline_plan import planned_model
from cfmem.tflite.scratch_probe import ScratchSizes, measure_scratch
from cfmem.tflite.tflm_runtime import AllocationReport, TflmWorker, identical


@dataclass
class TflmPlan:
    tensors: list[ArenaTensor]
    scratch: ScratchSizes
    problem: Problem
    """The buffers as TFLM sees them, each tensor on bytes of its own."""
    solution: Solution
    """The plan written; with ``aliases``, a plan of ``aliased_problem(problem, aliases)``
    whose offsets also name each aliased tensor."""
    aliases: dict[str, str]
    """``tensor -> root`` of the RESHAPE outputs the plan puts on their inputs' bytes
    (empty when the plain plan was no larger)."""
    plain_peak: int
    """The peak of the plan without aliases."""
    tflm_peak: int
    """The head TFLM's ``GreedyMemoryPlanner`` gives the plain buffers (its own plan)."""
    planned: bytes
    """The model with cfmem's offline plan."""


@dataclass
class TflmComparison:
    own_arena: int
    """Smallest arena TFLM allocates the original model in."""
    planned_arena: int
    own: AllocationReport
    planned: AllocationReport
    identical: bool
    """Whether every input set gave both models the same outputs, bit for bit."""


def plan_for_tflm(model: Any, tflm: TflmWorker | None, strategy: str = "auto",
                  options: PlanOptions | None = None) -> TflmPlan:  # fmt: skip
    """Plan ``model`` (a ``ModelT``); scratch buffers are measured only with a ``TflmWorker``."""
    tensors = arena_tensors(model)
    scratch = measure_scratch(model, tflm) if tflm is not None else ScratchSizes()
    problem = arena_problem(tensors, scratch.blocks)
    solution = plain = solve(problem, strategy, options)
    roots = reshape_aliases(model, tensors)
    aliases: dict[str, str] = {}
    if roots:
        aliased = solve(aliased_problem(problem, roots), strategy, options)
        if aliased.peak < plain.peak:
            aliased.offsets = with_aliases(aliased.offsets, roots)
            solution, aliases = aliased, roots
        else:  # the bound of every plan, with or without the aliases
            solution.lower_bound = min(plain.lower_bound, aliased.lower_bound)
    tflm_peak = solve(problem, "tflm").peak
    planned = planned_model(model, tensors, solution.offsets)
    return TflmPlan(tensors, scratch, problem, solution, aliases, plain.peak, tflm_peak, planned)


def compare_in_tflm(tflm: TflmWorker, original: bytes, planned: bytes,
                    inputs: list[list[np.ndarray]] | None = None, own_arena: int | None = None) -> TflmComparison:  # fmt: skip
    """Both models in TFLM; ``inputs`` default to three random input sets (seeds 0, 1, 2)."""
    own = tflm.smallest_arena(original) if own_arena is None else own_arena
    mine = tflm.smallest_arena(planned)
    own_report, my_report = tflm.allocate(original, own), tflm.allocate(planned, mine)
    assert own_report is not None and my_report is not None  # they allocated at these sizes before
    sets = inputs if inputs is not None else [tflm.random_inputs(original, own, seed) for seed in range(3)]
    same = all(identical(tflm.run(original, own, values), tflm.run(planned, mine, values)) for values in sets)
    return TflmComparison(own, mine, own_report, my_report, same)
