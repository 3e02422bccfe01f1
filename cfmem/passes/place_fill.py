"""Filling the room left, a strategy of ``nn-place``'s search: from a placement that fits,
weights made resident and deeper DMA rotations (with finer slices) while they fit and are
faster. Measured by the shared evaluator (cfmem.passes.place_measure).
"""

from __future__ import annotations

from dataclasses import replace

from xdsl.utils.exceptions import PassFailedException

from cfmem.passes.place_measure import MAX_DEPTH, Evaluator, Measure, _faster

DEEPEN_DOUBLINGS = 3
"""How many times ``deepen`` may double every slice count for one more DMA buffer."""


class FillRoomLeft(Evaluator):
    """Speed bought with the room a placement that fits leaves under the budget."""

    def deepen(self, m: Measure) -> Measure:
        """Trade finer slices for a deeper DMA rotation, so that more transfers overlap
        compute: at each deeper rotation, the sliced ops (or, with none, the op with the
        largest streamed weights) cut in up to ``2**DEEPEN_DOUBLINGS`` times more slices."""
        best = m
        streamed = [k for k in self.weighted if m.config.weight_of(k) == "stream"]
        largest = max(streamed, key=lambda k: (self.weight_bytes(k), -k), default=None)
        for depth in range(m.config.depth + 1, MAX_DEPTH + 1):
            config = replace(m.config, depth=depth)
            for _ in range(DEEPEN_DOUBLINGS + 1):
                try:
                    candidate = self.measure(config)
                except PassFailedException:
                    break
                if self.fits(candidate):
                    if _faster(candidate, best):
                        best = candidate
                    break
                if config.slices:
                    for key, count in config.slices:
                        config = config.with_slices(key, count * 2)
                elif largest is not None and self.slicer is not None:
                    config = config.with_slices(largest, 2)
                else:
                    break
        if best is not m:
            self.reasons[("depth", 0)] = f"deeper rotation with finer slices: {best.cycles:,.0f} cycles instead of {m.cycles:,.0f}"
        return best

    def add_resident(self, m: Measure) -> Measure:
        """Weights made resident, smallest first, while they fit and are faster: every op
        reading the same weights at once (one resident copy serves them all, as the tiles of
        a tiled chain)."""
        streamed = [k for k in self.weighted if m.config.weight_of(k) == "stream" and m.config.slices_of(k) == 1]
        groups: dict[frozenset, list[int]] = {}
        for key in streamed:
            groups.setdefault(self.weights_read(key), []).append(key)
        for keys in sorted(groups.values(), key=lambda ks: (self.weight_bytes(ks[0]), ks[0])):
            config = m.config
            for key in keys:
                config = config.with_weight(key, "resident")
            try:
                candidate = self.measure(config)
            except PassFailedException:
                continue
            if self.fits(candidate) and _faster(candidate, m):
                m = candidate
        return m
