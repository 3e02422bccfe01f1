"""Compiling a model into a given on-chip budget, and the latency it costs.

``compile_for_budget`` runs the budgeted pipeline on a copy of a tensor-level
module: ``nn-place`` (cfmem.passes.place), ``nn-slice-weights`` where the
placement sliced a weight, ``nn-insert-dma``, ``nn-plan-memory`` under the
budget, ``nn-check-dma``, ``nn-lower-to-memref`` and ``nn-roll-slices`` (sliced compute as
loops; its trips are DMA-checked again). The placement search
measures a placement by its on-chip lower bound; when the real plan comes out
above the budget (alignment, or a bound the planner does not reach), the
placement is searched again for a target below that placement's need by the
overshoot, then by half of what is left above the floor (the least need of
any placement, cfmem.passes.place.floor_need), and at last for the floor
itself. So every budget at least the floor's plan compiles: budgets are
monotone from there up, and ``smallest_budget`` never names one below which
a larger budget is refused.

Latency is cfmem.dma.timing's simulation of one path: the one whose ifs take
the branch with more compute in the model with every weight streamed, so every
placement of a model is timed on the same path. Its lower bound under a budget
``B`` (``latency_bound``): compute cannot be faster than with every operand on
chip (``C``). Weights the path reads that are not resident, and activations
that cannot be on chip, cost traffic ``V``: with ``R`` bytes of resident
weights, at the step where the graph's activations peak at ``A`` bytes (all on
chip, as nn-plan-memory shares bytes) at least ``A - (B - R)`` of them are off
chip, each written out and read back; so ``V >= W - R + 2 max(0, A - B + R)``,
least at ``R = max(0, B - A)``. Traffic goes over the DMA engine (``dma`` bytes a
cycle, beside compute) or the compute unit's off-chip port (``offchip`` bytes a
cycle, which stalls compute): latency >= max(C, (C * offchip + V) / (dma +
offchip)), the best split of ``V`` between the two. In a function with an if or
a loop ``A`` is the peak along the timed path: the branch each if takes there,
and a loop's body when the loop runs at least once (counting that peak's
traffic once, though it may recur in every iteration).

Two baselines time the same path: the whole arena off chip with weights read
in place (what TFLite Micro users do when a model does not fit), and today's
whole-weight ping-pong with everything on chip (where it fits).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

from cfmem.dialects.nn_control import LoopOp
from cfmem.dma.events import Block, Compute, IfEvent, LoopEvent, Start
from cfmem.dma.timing import ASSUMED_TRIPS, Chip, loop_trips, simulate, slower_path
from cfmem.errors import CfmemError
from cfmem.interp.golden import find_function
from cfmem.passes.dma_events import function_events
from cfmem.passes.insert_dma import InsertDmaPass, weight_operands
from cfmem.passes.aliases import find_aliases
from cfmem.passes.liveness import analyze_function, functions
from cfmem.passes.place import floor_need, place_module
from cfmem.passes.place_measure import Measure, Measured, PlacementError
from cfmem.dialects.flat_form import BUDGET_ATTR
from cfmem.passes.placement import SLICES_ATTR, set_function_int, set_offchip, set_weight_place
from cfmem.passes.plan_memory import ARENA_ATTR, PlanMemoryPass
from cfmem.pipeline import apply_pipeline
from cfmem.planning.regions import IfNode, path_peak, peak_tensors

RETRIES = 4
"""Placement searches for a budget tightened by the plan's overshoot, then as many for half
of what is left above the floor each time; the last is always for the floor itself."""


class BudgetError(CfmemError):
    """No placement fits the budget; ``need`` is the fewest on-chip bytes one was found for."""

    def __init__(self, message: str, where: str | None, need: int):
        super().__init__(message, where)
        self.need = need


@dataclass
class Compiled:
    """A model compiled for one budget: the placed and planned module, its flat form, numbers."""

    budget: int
    graph: ModuleOp
    """Tensor level, placed and sliced: the graph the flat form computes bit for bit."""
    planned: ModuleOp
    """Tensor level, placed, DMA inserted and planned (before lowering)."""
    flat: ModuleOp
    onchip_peak: int
    """The on-chip arena the plan needs (``cfmem.arena_size`` of the function)."""
    cycles: float
    bound_cycles: float
    placement: dict[str, Measure] = field(default_factory=dict)

    def ms(self, chip: Chip) -> float:
        return chip.milliseconds(self.cycles)

    def gap_pct(self) -> float:
        return 0.0 if self.bound_cycles <= 0 else 100.0 * (self.cycles - self.bound_cycles) / self.bound_cycles


def _streamed_events(module: ModuleOp, func_name: str | None) -> Block:
    """The events of a copy of ``module`` with every weight streamed where it is read (a
    loop's in every iteration)."""
    streamed = module.clone()
    InsertDmaPass(loop_weights="stream").apply(Context(), streamed)
    return function_events(find_function(streamed, func_name))


def timing_path(
    module: ModuleOp, chip: Chip, func_name: str | None = None, assumed_trips: int = ASSUMED_TRIPS
) -> dict:
    """The timed path: the branch with more compute at every if (every weight streamed), and
    each loop's iterations (fixed by the IR, else ``assumed_trips``)."""
    return slower_path(_streamed_events(module, func_name), chip, assumed_trips)


def latency_bound(module: ModuleOp, chip: Chip, budget: int, path: dict[str, bool], func_name: str | None = None) -> float:
    """max(C, (C * offchip + V) / (dma + offchip)) on ``path`` (see the module docstring)."""
    trips: dict[str, int] = {}

    def walk(block: Block) -> tuple[float, int]:
        """Compute cycles and off-chip weight bytes of ``block`` on ``path``. A loop of ``n``
        iterations with ``L`` bytes of weights reads at least ``L + (n - 1) * (L - budget)``:
        at most ``budget`` of them can stay on chip from one iteration to the next."""
        compute, weights = 0.0, 0
        for event in block.events:
            if isinstance(event, Compute):
                compute += chip.compute_cycles(Compute(event.name, event.macs, event.bytes_moved))
                weights += event.offchip_bytes  # weights no transfer carries
            elif isinstance(event, Start):
                weights += event.nbytes
            elif isinstance(event, IfEvent):
                c, w = walk(event.branches[0 if path.get(event.label, True) else 1])
                compute, weights = compute + c, weights + w
            elif isinstance(event, LoopEvent):
                n = trips[event.label] = loop_trips(event, path)
                c, w = walk(event.body)
                compute += n * c
                weights += 0 if n == 0 else w + (n - 1) * max(0, w - budget)
        return compute, weights

    compute, weights = walk(_streamed_events(module, func_name))
    peak = activation_peak(find_function(module, func_name), path, trips)
    traffic = max(0, weights - (budget - peak)) if budget >= peak else weights + 2 * (peak - budget)
    offchip, rates = chip.offchip_bytes_per_cycle, chip.dma_bytes_per_cycle + chip.offchip_bytes_per_cycle
    return max(compute, (compute * offchip + traffic) / rates)


def activation_peak(fn: func.FuncOp, path: dict | None = None, trips: dict[str, int] | None = None) -> int:
    """The most on-chip activation bytes live at one step of ``fn`` with every activation on
    chip (nn-plan-memory's lower bound, its aliases shared), on ``path``: each if's branch as
    ``path`` says (then when it is silent), each loop's body when ``trips`` (by loop label)
    runs it at least once. Without a path, ``fn`` must have no if or loop."""
    tree = analyze_function(fn, aliases=find_aliases(fn)).tree
    if path is None:
        if tree.ifs:
            raise ValueError("a function with an if or a loop has an activation peak per path")
        return peak_tensors(tree)[0]
    trips = trips or {}

    def runs(node: IfNode) -> int | None:
        if node.kind == "loop":
            return 0 if trips.get(node.label, 0) > 0 else None
        return 0 if path.get(node.label, True) else 1

    return path_peak(tree, runs)


def cycles_of(planned: ModuleOp, chip: Chip, path: dict[str, bool], func_name: str | None = None) -> float:
    """Modeled cycles of a module with its DMA inserted, along ``path``."""
    return simulate(function_events(find_function(planned, func_name)), chip, path).cycles


def compile_for_budget(
    module: ModuleOp,
    chip: Chip,
    budget: int | None = None,
    base_dir: Path | None = None,
    where: str | None = None,
    mode: str = "exact",
    strategy: str = "auto",
    path: dict[str, bool] | None = None,
    roll: bool = True,
    measured: Measured | None = None,
) -> Compiled:
    """The budgeted pipeline on a copy of ``module`` (default budget: the chip's ``onchip_bytes``),
    timed on ``path`` (default: ``timing_path``); ``roll`` False leaves sliced compute unrolled.
    ``measured`` carries the placements measured from one budget of ``module`` to the next
    (same chip and path).

    Raises ``CfmemError`` (at ``where``) when no placement fits, naming what
    needs the bytes.
    """
    budget = chip.onchip_bytes if budget is None else budget
    path = timing_path(module, chip) if path is None else path
    paths = {find_function(module).sym_name.data: path}
    measured = {} if measured is None else measured

    def attempt(target: int) -> tuple[dict[str, Measure], ModuleOp, ModuleOp, int]:
        placed = module.clone()
        chosen = place_module(placed, chip, target, paths, measured)
        for fn in functions(placed):
            set_function_int(fn, BUDGET_ATTR, None)  # planned unconstrained, to measure any overshoot
        if any(SLICES_ATTR in op.attributes for op in placed.walk()):
            apply_pipeline(placed, "nn-slice-weights", where, base_dir)
        graph = placed.clone()
        return (chosen, graph, *_insert_and_plan(graph, mode, strategy, budget, where, base_dir))

    target = budget
    try:
        chosen, graph, placed, peak = attempt(target)
    except PlacementError as err:
        raise BudgetError(err.args[0], where, err.need) from None
    closest, floor = peak, None
    for tries in range(1, 2 * RETRIES + 1):
        if peak <= budget:
            break
        floor = floor_need(module, chip, paths, measured) if floor is None else floor
        if target <= floor:
            break
        below = min(target, max(m.need for m in chosen.values()))
        # the same placement again would miss again: aim below its need, by the overshoot,
        # then by half of what is left above the floor; the floor last of all
        target = below - (peak - budget) if tries <= RETRIES else floor + (below - floor) // 2
        target = floor if tries == 2 * RETRIES else max(target, floor)
        chosen, graph, placed, peak = attempt(target)
        closest = min(closest, peak)
    if peak > budget:
        raise BudgetError(
            f"no placement found whose plan fits the budget of {budget} bytes (the closest plan needs {closest})",
            where,
            closest,
        )
    flat = placed.clone()
    apply_pipeline(flat, "nn-check-dma,nn-lower-to-memref" + (",nn-roll-slices,nn-check-dma" if roll else ""), where, base_dir)
    return Compiled(
        budget=budget,
        graph=graph,
        planned=placed,
        flat=flat,
        onchip_peak=peak,
        cycles=cycles_of(placed, chip, path),
        bound_cycles=latency_bound(module, chip, budget, path),
        placement=chosen,
    )


def _insert_and_plan(
    graph: ModuleOp, mode: str, strategy: str, budget: int, where: str | None, base_dir: Path | None
) -> tuple[ModuleOp, int]:
    """DMA and a plan for a placed ``graph``, and its on-chip peak: loops load their weights
    once (nn-insert-dma's loop-weights=hoist), or every iteration when only that fits."""
    has_loops = any(isinstance(op, LoopOp) for op in graph.walk())
    for loop_weights in ("hoist", "stream") if has_loops else ("hoist",):
        placed = graph.clone()
        apply_pipeline(placed, f"nn-insert-dma{{loop-weights={loop_weights}}},"
                               f"nn-plan-memory{{mode={mode} strategy={strategy}}}", where, base_dir)
        for fn in functions(placed):
            set_function_int(fn, BUDGET_ATTR, budget)
        peak = max(_arena(fn) for fn in functions(placed))
        if peak <= budget:
            break
    return placed, peak


def smallest_budget(
    module: ModuleOp,
    chip: Chip,
    base_dir: Path | None = None,
    where: str | None = None,
    path: dict[str, bool] | None = None,
    measured: Measured | None = None,
) -> Compiled:
    """The model compiled for the smallest budget the placement search fits it in: the
    floor's need, or else the peak of the plan for it (which every larger budget falls back
    on, see ``compile_for_budget``)."""
    path = timing_path(module, chip) if path is None else path
    measured = {} if measured is None else measured
    budget = 0
    for _ in range(RETRIES + 1):
        try:
            return compile_for_budget(module, chip, budget, base_dir, where, path=path, measured=measured)
        except BudgetError as err:
            if err.need <= budget:
                raise
            budget = err.need
    return compile_for_budget(module, chip, budget, base_dir, where, path=path, measured=measured)


def _arena(fn: func.FuncOp) -> int:
    return fn.attributes[ARENA_ATTR].value.data  # type: ignore[union-attr]


def _measure_config(module: ModuleOp, chip: Chip, path: dict[str, bool], *, offchip: bool) -> tuple[int, float]:
    """On-chip need and cycles of a baseline: everything streamed ping-pong on chip, or
    every movable activation off chip with weights read in place."""
    from cfmem.passes.place_measure import _movable  # the same rule the search uses

    copy = module.clone()
    if offchip:
        for fn in functions(copy):
            for op in fn.walk():
                if op is fn:
                    continue
                if weight_operands(op):
                    set_weight_place(op, "offchip")
                if _movable(op):
                    set_offchip(op, True)
    InsertDmaPass().apply(Context(), copy)
    PlanMemoryPass().apply(Context(), copy)
    fn = find_function(copy)
    return _arena(fn), cycles_of(copy, chip, path)


def baseline_offchip(module: ModuleOp, chip: Chip, path: dict[str, bool]) -> tuple[int, float]:
    """Baseline (a): the whole arena off chip, weights read in place: (on-chip bytes left, cycles)."""
    return _measure_config(module, chip, path, offchip=True)


def baseline_pingpong(module: ModuleOp, chip: Chip, path: dict[str, bool]) -> tuple[int, float]:
    """Baseline (b): today's whole-weight ping-pong, everything on chip: (on-chip peak, cycles)."""
    return _measure_config(module, chip, path, offchip=False)
