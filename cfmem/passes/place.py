"""``nn-place``: choose where every weight and activation lives so the function fits
an on-chip budget, at the lowest modeled latency.

The choices are the attributes of cfmem.passes.placement (plus ``cfmem.slices``
when a weight is computed slice by slice, see ``nn-slice-weights``). A
placement is judged by what building it gives: the function sliced, given its
DMA transfers (``nn-insert-dma``), and measured by

- its on-chip need: the path-exact lower bound of its on-chip tensors, DMA and
  resident buffers included (the real plan is checked afterwards, and the
  search repeated with the budget tightened by the planner's gap if it does
  not fit);
- its latency: cfmem.dma.timing's simulation, the one place costs live
  (off-chip access by compute, transfers, stalls), along the path its
  latency is reported on (``cfmem compile``'s timed path), or else along
  each placement's slower path.

A function without ``nn.loop`` is read once into plain records
(``cfmem.passes.place_records``), and each placement is measured from them
without building IR (``cfmem.planning.placed_program``: the same need, latency
and peak, several times faster); a function with loops is copied and built.

Five searches run: one that may slice weights, one that may not, and three
that may slice for 3/4, 9/16 and 1/2 of the budget; the fastest placement
wins. Each, per function:

1. everything on chip, weights streamed whole; the DMA depth (1 = sync, up
   to ``MAX_DEPTH`` buffers in rotation) that is fastest within the budget;
2. while the function does not fit: look at the tensors live at its peak and
   try, for each kind, the largest candidate: a shallower DMA rotation; the
   op whose weight sizes the largest DMA buffer there computed in twice as
   many slices, or reading its weights off chip; the largest activation
   there moved to the off-chip arena; the largest resident weight streamed
   again. The move with the least added latency per byte saved is kept;
   The search also grows from the floor (everything that can leave the chip
   off it: weights read in place, results off chip), taking moves back while
   they fit and are faster, in runs that double while they do (see
   ``GrowFromFloor.undo_moves``), in three orders (see ``GrowFromFloor.grow``); each
   result is finished by step 3 and the fastest kept; shrinking gives up
   after ``SHRINK_EVALUATIONS`` placements. Shrinking runs first, and
   growing then has a whole share of the cap of its own (on a model with
   hundreds of ops, growing could spend the cap before shrinking ran, while
   a few moves from the top fit far better: shufflenet at half its peak).
   A budget below the floor's need is an error at once;
3. with room left: weights made resident, smallest first, while they fit and
   the latency drops; then each earlier move undone if it now fits and is
   faster.

Each branch path decides on its own: the candidates are ops and tensors, and
the peak is found on one path. A budget below what the immovable tensors at
the peak need (an if's results, which stay on chip) is an error naming them.

This module holds the pass: the searches run for every function, their result
written and its placement table. The parts, one module each:
cfmem.passes.place_measure (the shared evaluator: a placement built and
measured, and what is measured), place_shrink (step 2's moves), place_grow
(growing from the floor, taking moves back), place_fill (step 3 and deeper
rotations), place_search (one search over them, and the five searches).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i64
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from cfmem.dialects.flat_form import BUDGET_ATTR
from cfmem.dialects.types import tensor_bytes
from cfmem.dma.timing import Chip
from cfmem.passes.liveness import functions
from cfmem.passes.options import checked_options
from cfmem.passes.place_measure import KEY_ATTR, Decision, Measure, Measured, _apply, _records
from cfmem.passes.place_search import _Search, _best_search
from cfmem.passes.placement import set_function_int
from cfmem.planning.option_checks import check_budget


def place_module(
    module: ModuleOp,
    chip: Chip,
    budget: int | None = None,
    paths: dict[str, dict[str, bool]] | None = None,
    measured: Measured | None = None,
) -> dict[str, Measure]:
    """Place every function of ``module`` in ``budget`` bytes (default: the chip's) and write
    the placement attributes; returns each function's chosen placement, measured. A function
    named in ``paths`` is timed along that path (the one its latency is reported on), any
    other along each placement's slower path. ``measured`` (filled in) holds the placements
    measured for earlier budgets of the same module, chip and ``paths``."""
    budget = chip.onchip_bytes if budget is None else budget
    chosen: dict[str, Measure] = {}
    with _keyed(module):
        for fn in functions(module):
            path = (paths or {}).get(fn.sym_name.data)
            search, best = _best_search(module, fn.sym_name.data, chip, budget, path, measured)
            best = replace(best, decisions=_decisions(search, best, chip))  # measured is shared
            chosen[fn.sym_name.data] = best
            _apply(best.config, fn, search.weighted)
            set_function_int(fn, BUDGET_ATTR, budget)
    return chosen


def floor_need(
    module: ModuleOp,
    chip: Chip,
    paths: dict[str, dict[str, bool]] | None = None,
    measured: Measured | None = None,
) -> int:
    """The least budget ``place_module`` places ``module`` in: the largest on-chip need of a
    function's floor (everything that can leave the chip off it). Below it every search fails;
    at it every function's floor fits. ``module`` is left as it was; ``paths`` and ``measured``
    as for ``place_module``."""
    with _keyed(module):
        return max(
            (
                _Search(module, fn.sym_name.data, chip, 0, None, (paths or {}).get(fn.sym_name.data), measured,
                        _records(module, fn.sym_name.data))
                .floor_measure()
                .need
                for fn in functions(module)
            ),
            default=0,
        )


@contextmanager
def _keyed(module: ModuleOp) -> Iterator[None]:
    """``KEY_ATTR`` on every op of every function while the block runs."""
    keyed = [op for fn in functions(module) for op in fn.walk() if op is not fn]
    for k, op in enumerate(keyed):
        op.attributes[KEY_ATTR] = IntegerAttr(k, i64)
    try:
        yield
    finally:
        for op in keyed:
            op.attributes.pop(KEY_ATTR, None)


@dataclass(frozen=True)
class PlacePass(ModulePass):
    """Chooses where weights and activations live so each function fits on chip.

    Options: ``budget`` (on-chip bytes; default: the chip's ``onchip_bytes``),
    ``chip`` (path of a chip JSON file; default: cfmem.dma.timing.Chip()).
    """

    name = "nn-place"
    budget: int | None = None
    chip: str = ""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        with checked_options():
            check_budget("budget", self.budget)
        try:
            chip = Chip.load(self.chip) if self.chip else Chip()
        except (OSError, ValueError) as err:
            raise PassFailedException(f"nn-place: cannot read chip '{self.chip}': {err}") from None
        place_module(op, chip, self.budget)


def _label(op: Operation) -> str:
    name = op.results[0].name_hint if op.results and op.results[0].name_hint else "?"
    return f"%{name}"


def _decisions(search: _Search, best: Measure, chip: Chip) -> list[Decision]:
    """The placement table of ``best``: every weighted op, every off-chip result, the DMA depth."""
    c = best.config
    fastest = search.reasons.get(("depth", 0), "the fastest that fits")
    rows = [Decision("DMA rotation", f"{c.depth} buffer(s)" if c.depth > 1 else "sync (1 buffer)", fastest, 0, 0.0)]
    for key in search.weighted:
        op = search.ops[key]
        nbytes = search.weight_bytes(key)
        transfer = chip.transfer_cycles(nbytes)
        place = c.weight_of(key)
        if place == "resident":
            where, why, cycles = "resident", "room left: loaded once, no transfer per inference", 0.0
        elif place == "offchip":
            where, why = "read off chip", search.reasons.get(("weights", key), "")
            cycles = nbytes / chip.offchip_bytes_per_cycle
        elif c.slices_of(key) > 1:
            count = c.slices_of(key)
            where, why = f"streamed in {count} slices", search.reasons.get(("weights", key), "")
            cycles = count * chip.transfer_cycles(nbytes / count)  # one transfer per slice, each waits the latency
        else:
            where, why, cycles = "streamed whole", "fits in the DMA rotation", transfer
        rows.append(Decision(f"weights of {op.name} {_label(op)}", where, why, nbytes, cycles))
    for key in sorted(c.offchip):
        op = search.ops[key]
        nbytes = sum(tensor_bytes(r.type) for r in op.results)
        uses = sum(len(list(r.uses)) for r in op.results)
        cycles = nbytes * (1 + uses) / chip.offchip_bytes_per_cycle
        why = search.reasons.get(("result", key), "")
        if key in c.evict:
            where = "evicted to the off-chip arena and prefetched by DMA"
            cycles = (1 + uses) * chip.transfer_cycles(nbytes)
        elif key in c.prefetch:
            where = "off-chip arena, prefetched by DMA"
            cycles = nbytes / chip.offchip_bytes_per_cycle + uses * chip.transfer_cycles(nbytes)
        else:
            where = "off-chip arena, read in place"
        rows.append(Decision(f"{op.name} {_label(op)}", where, why, nbytes, cycles))
    return rows
