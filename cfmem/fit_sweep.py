"""Latency against on-chip budget: one model compiled at a series of budgets, with or
without row tiling, beside the two baselines (everything off chip, whole-weight ping-pong).

It sits above ``cfmem.fit`` and ``cfmem.fit_tiled``, the two compiles it sweeps.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp

from cfmem.dma.timing import Chip
from cfmem.fit import (
    BudgetError,
    Compiled,
    baseline_offchip,
    baseline_pingpong,
    compile_for_budget,
    latency_bound,
    smallest_budget,
    timing_path,
)
from cfmem.fit_tiled import compile_tiled
from cfmem.passes.place_measure import Measured


SWEEP_FRACTIONS = (1.0, 0.875, 0.75, 0.625, 0.5, 0.375, 0.25, 0.125)
"""Budgets of a sweep, as fractions of the unconstrained ping-pong peak (the smallest feasible is added)."""


@dataclass
class SweepRow:
    """One budget of a sweep: what cfmem achieves and the two baselines on the same path."""

    budget: int
    feasible: bool
    ms: float | None
    onchip_peak: int | None
    bound_ms: float
    gap_to_bound_pct: float | None
    offchip_arena_ms: float
    """Baseline (a): the whole arena off chip."""
    pingpong_ms: float | None
    """Baseline (b): today's whole-weight ping-pong, where its peak fits the budget."""
    error: str = ""
    placement_of: int | None = None
    """The budget whose placement this row uses: its own, or a smaller one's that was faster."""
    untiled_ms: float | None = None
    """With tiling (``budget_sweep(tile=True)``): the untiled compile's latency, None if it did not fit."""
    tile_rows: int | None = None
    """With tiling: output rows per tile of the compile kept, None when untiled."""
    branching: bool = True
    """With tiling: whether the kept compile's chains may branch and join (False: runs only)."""

    def speedup_over_offchip(self) -> float | None:
        return None if not self.ms else self.offchip_arena_ms / self.ms


def budget_sweep(
    module: ModuleOp,
    chip: Chip,
    base_dir: Path | None = None,
    fractions: tuple[float, ...] = SWEEP_FRACTIONS,
    measured: Measured | None = None,
    tile: bool = False,
) -> list[SweepRow]:
    """Latency against on-chip budget, from the unconstrained ping-pong peak down to the
    smallest budget that compiles, largest budget first; every budget share ``measured``.
    With ``tile``, each budget is compiled as ``compile --tile`` does (cfmem.fit_tiled), and
    its row also gives the untiled latency and the tile size kept."""
    path = timing_path(module, chip)
    peak, pingpong_cycles = baseline_pingpong(module, chip, path)
    offchip_cycles = baseline_offchip(module, chip, path)[1]
    budgets = sorted({int(peak * f) for f in fractions}, reverse=True)
    rows: list[SweepRow] = []

    def row(budget: int, compiled: Compiled | None, error: str = "") -> SweepRow:
        bound = compiled.bound_cycles if compiled else latency_bound(module, chip, budget, path)
        return SweepRow(
            budget=budget,
            feasible=compiled is not None,
            ms=compiled.ms(chip) if compiled else None,
            onchip_peak=compiled.onchip_peak if compiled else None,
            bound_ms=chip.milliseconds(bound),
            gap_to_bound_pct=compiled.gap_pct() if compiled else None,
            offchip_arena_ms=chip.milliseconds(offchip_cycles),
            pingpong_ms=chip.milliseconds(pingpong_cycles) if peak <= budget else None,
            error=error,
            placement_of=budget if compiled else None,
        )

    measured = {} if measured is None else measured
    for budget in budgets:
        try:
            if not tile:
                rows.append(row(budget, compile_for_budget(module, chip, budget, base_dir, path=path, measured=measured)))
                continue
            chosen = compile_tiled(module, chip, budget, base_dir, None, "exact", "auto", path, True, measured)
            untiled = chosen.untiled_cycles
            rows.append(replace(row(budget, chosen.compiled), tile_rows=chosen.tile_rows, branching=chosen.branching,
                                untiled_ms=None if untiled is None else chip.milliseconds(untiled)))  # fmt: skip
        except BudgetError as err:
            rows.append(row(budget, None, err.message))
    smallest = smallest_budget(module, chip, base_dir, path=path, measured=measured)
    if smallest.budget not in budgets:
        rows.append(row(smallest.budget, smallest))
    return _monotone(sorted(rows, key=lambda r: -r.budget))


def _monotone(rows: list[SweepRow]) -> list[SweepRow]:
    """Rows (largest budget first) where a budget whose own placement is slower than a smaller
    budget's takes that placement instead: it fits, so latency never rises with the budget."""
    best: SweepRow | None = None
    for r in reversed(rows):
        if not r.feasible:
            continue
        if best is not None and best.ms is not None and r.ms is not None and best.ms < r.ms:
            r.ms, r.onchip_peak, r.placement_of = best.ms, best.onchip_peak, best.placement_of
            r.tile_rows, r.branching = best.tile_rows, best.branching
            r.gap_to_bound_pct = 100.0 * (r.ms - r.bound_ms) / r.bound_ms if r.bound_ms > 0 else 0.0
        else:
            best = r
    return rows
