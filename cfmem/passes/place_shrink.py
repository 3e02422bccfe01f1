"""Shrinking from the top, a strategy of ``nn-place``'s search: from a placement over the
budget, the move that lowers its on-chip peak at the least added latency per byte saved,
until it fits.

The moves, each at the tensors live at the peak: a shallower DMA rotation; the ops whose
weights size the largest DMA buffer there cut in twice as many slices, or reading their
weights off chip; the largest prefetched result the ops that buffer serves read, read in
place instead; the largest activations there moved to the off-chip arena (read in place,
prefetched, or evicted and prefetched); the largest resident weight streamed again.
Measured by the shared evaluator (cfmem.passes.place_measure).
"""

from __future__ import annotations

from dataclasses import replace

from xdsl.ir import Operation
from xdsl.utils.exceptions import PassFailedException

from cfmem.passes.place_measure import Config, Evaluator, Measure, PlacementError

SHRINK_EVALUATIONS = 150
"""Placements shrinking may build before it gives way to growing from the floor (far below
the need of everything on chip, one move at a time is slow)."""
ACTIVATION_CANDIDATES = 3
"""Largest activations at the peak tried as off-chip moves each step."""


class ShrinkFromTop(Evaluator):
    """Moves that lower a placement's peak, taken until it fits the budget."""

    def moves(self, m: Measure) -> list[tuple[Config, tuple[str, int] | None, str]]:
        """Placements that may lower ``m``'s peak, one per kind of move, with the op key
        each concerns and why it is tried."""
        c = m.config
        at_peak = f"at the on-chip peak of {m.need} bytes"
        out: list[tuple[Config, tuple[str, int] | None, str]] = []
        if c.depth > 1:
            out.append((replace(c, depth=c.depth - 1), None, f"fewer DMA buffers {at_peak}"))
        dma = [(size, i) for i, (kind, size, _) in enumerate(m.peak) if kind == "dma"]
        if dma:
            _, index = max(dma)
            served = m.peak_ops[index]  # every DMA buffer at the peak has its readers
            prefetched = [k for k in c.prefetch if any(_reads(self.ops[s], self.ops[k]) for s in served)]
            if prefetched:
                key = max(prefetched, key=lambda k: (self.result_bytes(k), -k))
                why = f"it sizes the largest DMA buffer {at_peak}"
                out.append((replace(c, prefetch=c.prefetch - {key}, evict=c.evict - {key}), ("result", key), why))
            keys = [k for k in served if c.weight_of(k) == "stream" and k in self.weighted]
            if keys:
                largest = max(self.weight_bytes(k) // c.slices_of(k) for k in keys)
                tied = [k for k in keys if self.weight_bytes(k) // c.slices_of(k) == largest]  # all size the buffer
                why = f"its weights size the largest DMA buffer {at_peak}"
                if self.slicer is not None:
                    sliced = c
                    for k in tied:
                        sliced = sliced.with_slices(k, c.slices_of(k) * 2)
                    out.append((sliced, ("weights", tied[0]), why))
                offchip = c
                for k in tied:
                    offchip = offchip.with_slices(k, 1).with_weight(k, "offchip")
                out.append((offchip, ("weights", tied[0]), why))
        activations = [(size, key) for kind, size, key in m.peak if kind == "activation" and key not in c.offchip]
        for _, key in sorted(activations, reverse=True)[:ACTIVATION_CANDIDATES]:
            out.append((replace(c, offchip=c.offchip | {key}), ("result", key), f"live {at_peak}"))
            prefetched = replace(c, offchip=c.offchip | {key}, prefetch=c.prefetch | {key})
            out.append((prefetched, ("result", key), f"live {at_peak}, idle until read"))
            evicted = replace(prefetched, evict=c.evict | {key})
            out.append((evicted, ("result", key), f"live {at_peak}, idle between its write and its reads"))
        if len(activations) > ACTIVATION_CANDIDATES:  # far over the budget: clear the peak in one move
            every = replace(c, offchip=c.offchip | {key for _, key in activations})
            out.append((every, ("result", activations[0][1]), f"live {at_peak} with {len(activations) - 1} more"))
        resident = [k for k, p in c.weights if p == "resident"]
        if any(kind == "resident" for kind, _, _ in m.peak) and resident:
            key = max(resident, key=self.weight_bytes)
            out.append((c.with_weight(key, "stream"), ("weights", key), f"resident bytes {at_peak}"))
        return out

    def shrink(self, m: Measure) -> Measure:
        """Apply moves until ``m`` fits. A move that lowers the peak is chosen by the least
        added latency per byte saved; when none does (several equal peaks, as along a chain
        of same-sized activations), the cheapest move that keeps the peak is taken, which
        clears one of them. Moves only add, so this ends."""
        spent = len(self.cache)
        while not self.fits(m):
            if len(self.cache) - spent > SHRINK_EVALUATIONS:
                raise PlacementError(f"shrinking took more than {SHRINK_EVALUATIONS} placements", m.need)
            best, best_rank, best_why = None, None, None
            for config, key, why in self.moves(m):
                try:
                    candidate = self.measure(config)
                except PassFailedException:
                    continue  # e.g. an op that cannot be sliced further
                saved = m.need - candidate.need
                if saved < 0 or (saved == 0 and (key is None or key[0] != "result")):
                    continue  # on a plateau only moving an activation off chip clears a peak
                added = candidate.cycles - m.cycles
                rank = (0, added / saved) if saved > 0 else (1, added)
                if best_rank is None or rank < best_rank:
                    best, best_rank, best_why = candidate, rank, (key, why)
            if best is None:
                raise PlacementError(self.stuck_message(m), m.need)
            key, why = best_why
            self.reasons[key if key is not None else ("depth", 0)] = why
            m = best
        return m


def _reads(reader: Operation, producer: Operation) -> bool:
    return any(v.owner is producer for v in reader.operands)
