"""Growing from the floor, a strategy of ``nn-place``'s search: from the placement with
everything that can leave the chip off it, moves taken back while they fit and are faster.

The moves are taken back in runs that double while they fit and are faster, in passes until
one changes nothing, in three orders (``grow``); a weight read in place comes back streamed
whole or in ever finer slices. ``undo_moves`` also finishes every placement the search keeps.
Measured by the shared evaluator (cfmem.passes.place_measure).
"""

from __future__ import annotations

from dataclasses import replace

from xdsl.utils.exceptions import PassFailedException

from cfmem.passes.place_measure import MAX_DEPTH, Config, Evaluator, Measure, _faster

UNDO_SLICE_DOUBLINGS = 6
"""Growing from the floor tries a weight read in place streamed in up to 2**6 slices."""
UNDO_PASSES = 3
"""Passes over the moves taken back (a move that did not fit may fit after others)."""


class GrowFromFloor(Evaluator):
    """Moves taken back from a placement while they fit the budget and are faster."""

    def back_on_chip_order(self, keys) -> list[int]:
        """Off-chip results in the order growing brings them back: the most read first (each
        read in place costs its bytes again), then the smallest (more of them fit)."""
        def reads(k: int) -> int:
            return sum(len(list(r.uses)) for r in self.ops[k].results)

        return sorted(keys, key=lambda k: (-reads(k), self.result_bytes(k), k))

    def grow(self, floor: Measure) -> list[Measure]:
        """Grow from the floor three ways: weights streamed again first; results on chip
        again first, the most read and smallest first; and results first, the latest first.
        Which fills the budget best depends on the model (DMA buffers taken first can leave
        no room for any result, as in dscnn; a chain's early results brought back first can
        keep every later one off chip, as in denoise), and which ends fastest depends on the
        steps after, so every way is finished and the fastest kept."""
        return [
            self.undo_moves(floor),
            self.undo_moves(floor, results_first=True),
            self.undo_moves(floor, results_first=True, order=lambda keys: sorted(keys, reverse=True)),
        ]

    def undo_moves(self, m: Measure, results_first: bool = False, order=None) -> Measure:
        """Take back each move that is no longer needed and now only costs time, in passes
        over the moves (at most ``UNDO_PASSES``) until one changes nothing; results come back
        in ``order`` (default ``back_on_chip_order``), before weights with ``results_first``. A weight read in
        place is tried streamed whole, then in 2, 4, ... slices, so growing from the floor
        reaches the slices a weight too large for the budget needs.

        Moves are taken back in runs: after a move is taken back, the next two are tried
        together (a weight streamed whole), then four, and so on while each run fits and is
        faster; a run that does not is tried again one move at a time. Growing from the floor
        of a model with hundreds of ops takes back most moves, and measuring each alone would
        spend the search's placements on the first ones. The deeper rotations are always tried
        one at a time (each must beat the one before)."""
        for _ in range(UNDO_PASSES):
            before = m
            undos = _undos(m.config, order or self.back_on_chip_order, results_first)
            movable = len(undos) - (MAX_DEPTH - m.config.depth)  # the deeper rotations come last
            i, chunk = 0, 1
            while i < len(undos):
                if chunk > 1 and i + 1 < movable:
                    group = undos[i:min(i + chunk, movable)]
                    config = m.config
                    for undo in group:
                        config = undo(config)[0]
                    try:
                        candidate = self.measure(config)
                    except PassFailedException:
                        candidate = None
                    if candidate is not None and self.fits(candidate) and _faster(candidate, m):
                        m, i, chunk = candidate, i + len(group), chunk * 2
                        continue
                    chunk = 1
                taken = False
                for config in undos[i](m.config):
                    try:
                        candidate = self.measure(config)
                    except PassFailedException:
                        break  # no finer slices
                    if self.fits(candidate):
                        if _faster(candidate, m):
                            m, taken = candidate, True
                        break
                i += 1
                chunk = 2 if taken else 1
            if m is before:
                break
        return m


def _undos(c: Config, order=sorted, results_first: bool = False) -> list:
    """Functions each giving the ways to take one of ``c``'s moves back from a placement, in
    the order tried: weights streamed again (four times faster than read in place; whole, then
    in ever finer slices), half the slices, a result on chip again, a deeper rotation. With
    ``results_first`` the results come first: a result read in place costs its bytes at every
    read and write, and DMA buffers taken by weights first can leave no room for any result."""
    def stream(x: Config, k: int) -> list[Config]:
        whole = x.with_weight(k, "stream")
        return [whole] + [whole.with_slices(k, 2**n) for n in range(1, UNDO_SLICE_DOUBLINGS + 1)]

    weights = [lambda x, k=k: stream(x, k) for k, p in c.weights if p == "offchip"]
    weights += [lambda x, k=k: [x.with_slices(k, x.slices_of(k) // 2)] for k, _ in c.slices]
    results = [
        lambda x, k=k: [replace(x, offchip=x.offchip - {k}, prefetch=x.prefetch - {k}, evict=x.evict - {k})]
        for k in order(c.offchip)
    ]
    undos = results + weights if results_first else weights + results
    undos += [lambda x, d=d: [replace(x, depth=max(x.depth, d))] for d in range(c.depth + 1, MAX_DEPTH + 1)]
    return undos
