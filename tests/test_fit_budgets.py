"""Budgets are monotone: a budget at least as large as one that compiles compiles too, from
the smallest the budget sweep names up, however the placement search decides for each."""

import pytest

from cfmem.dma.timing import Chip
from cfmem.fit import BudgetError, compile_for_budget, smallest_budget, timing_path
from cfmem.fit_sweep import budget_sweep
from cfmem.ir_io import load_module, parse_module
from cfmem.passes.place import floor_need

from conftest import EXAMPLES
from test_loops import SCAN

CHIP = Chip()


def test_every_budget_from_the_smallest_the_sweep_names_up_compiles_a_scan():
    """SCAN's search aims some budgets at placements whose plan overshoots by more than the
    room left above the floor (76 bytes of need planned in 84): tightening must end at the floor."""
    module, _ = parse_module(SCAN)
    rows = budget_sweep(module, CHIP)
    feasible = sorted(r.budget for r in rows if r.feasible)
    smallest = feasible[0]
    assert all(r.feasible for r in rows if r.budget >= smallest)
    assert smallest == smallest_budget(module, CHIP).budget == floor_need(module, CHIP)
    with pytest.raises(BudgetError, match="needs at least"):
        compile_for_budget(module, CHIP, smallest - 1)
    path, measured = timing_path(module, CHIP), {}
    for budget in range(smallest, 2 * feasible[1] - smallest):  # up to past the next row
        assert compile_for_budget(module, CHIP, budget, path=path, measured=measured).onchip_peak <= budget


def test_every_budget_from_the_smallest_up_compiles_denoise():
    """denoise fits its floor (16,384 bytes); a few bytes more, the search picks a faster
    placement whose plan needs 16,433 and whose tightened target lies below the floor."""
    model = EXAMPLES / "denoise.mlir"
    module, _ = load_module(model)
    path, measured = timing_path(module, CHIP), {}
    smallest = smallest_budget(module, CHIP, model.parent, path=path, measured=measured).budget
    with pytest.raises(BudgetError, match="needs at least"):
        compile_for_budget(module, CHIP, smallest - 1, model.parent, path=path, measured=measured)
    for budget in sorted({*range(smallest, smallest + 64, 7), 16_400}):
        compiled = compile_for_budget(module, CHIP, budget, model.parent, path=path, measured=measured)
        assert compiled.onchip_peak <= budget
