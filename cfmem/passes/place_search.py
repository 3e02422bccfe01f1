"""The search of ``nn-place`` for one function: the strategies over the shared evaluator,
and the five searches of a budget.

``_Search.run`` measures the floor (an error if even it does not fit), then starts from the
fastest streamed placement that fits, or else shrinks from the smallest one
(cfmem.passes.place_shrink) and grows from the floor (cfmem.passes.place_grow); each start
is finished by filling the room left (cfmem.passes.place_fill) and taking needless moves
back, and the fastest kept. ``_best_search`` runs five such searches (with and without
slicing, and for shares of the budget) over one store of measured placements.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp

from cfmem.dma.timing import Chip
from cfmem.passes.place_fill import FillRoomLeft
from cfmem.passes.place_grow import GrowFromFloor
from cfmem.passes.place_measure import MAX_DEPTH, Config, Measure, Measured, PlacementError, _records, _slicer
from cfmem.passes.place_shrink import ShrinkFromTop


class _Search(ShrinkFromTop, GrowFromFloor, FillRoomLeft):
    """Placement search for one function of a module whose ops carry ``KEY_ATTR``."""

    def run(self) -> Measure:
        floor = self.floor_measure()
        if not self.fits(floor):
            raise PlacementError(self.stuck_message(floor), floor.need)
        streamed = [self.measure(Config(depth=d)) for d in range(1, MAX_DEPTH + 1)]
        fitting = [m for m in streamed if self.fits(m)]
        smallest = min(streamed, key=lambda m: (m.need, m.cycles))
        if fitting:
            starts = [min(fitting, key=lambda m: (m.cycles, m.work, m.need))]
        else:
            starts, spent = [], self.spent
            try:  # shrink from the top first: a few moves, where growing a model with hundreds of ops takes many
                starts.append(self.shrink(smallest))
            except PlacementError:
                pass  # greedy moves can stall, or take too long, where growing from the floor does not
            self.max_placements += self.spent - spent  # growing keeps a whole share of its own
            starts = self.grow(floor) + starts
        finished = [self.finish(m) for m in {m.config: m for m in starts}.values()]
        return min(finished, key=lambda m: (m.cycles, m.work, m.need))

    def finish(self, m: Measure) -> Measure:
        """Resident weights, needless moves taken back, deeper rotations, resident weights again."""
        m = self.deepen(self.undo_moves(self.add_resident(m)))
        return self.add_resident(m)  # deeper rotations with finer slices may leave room


def _best_search(
    module: ModuleOp,
    fn_name: str,
    chip: Chip,
    budget: int,
    path: dict[str, bool] | None = None,
    measured: Measured | None = None,
) -> tuple[_Search, Measure]:
    """The fastest of five searches: with and without slicing, and with slicing for 3/4, 9/16
    (3/4 of 3/4) and 1/2 of the budget (their placements fit this one too). The greedy moves
    differ, and none is always ahead; the last three keep a larger budget from doing worse
    than a smaller one at those ratios (the best at 3/4 of a budget often comes from its own
    search at 3/4, squeezenet1_1's), which greedy moves alone do not promise. Raises
    the ``PlacementError`` of the smallest need if the searches for the whole budget fail."""
    found: list[tuple[_Search, Measure]] = []
    errors: list[PlacementError] = []
    measured = {} if measured is None else measured
    records = _records(module, fn_name)
    for slicer, share in ((_slicer(), 1.0), (None, 1.0), (_slicer(), 0.75), (_slicer(), 0.5625), (_slicer(), 0.5)):
        search = _Search(module, fn_name, chip, int(budget * share), slicer, path, measured, records)
        try:
            found.append((search, search.run()))
        except PlacementError as err:
            if share == 1.0:
                errors.append(err)
    if not found:
        raise min(errors, key=lambda e: e.need)
    return min(found, key=lambda pair: (pair[1].cycles, pair[1].work, pair[1].need))
