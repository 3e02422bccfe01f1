"""Beam search over placements: several greedy plans grown side by side.

The buffers are taken in the order of the large-first greedy (size
descending). A state is a placement of the first ``k`` of them. Each state is
expanded by the few lowest *canonical* offsets that fit the next buffer (0,
or the top of a placed buffer it conflicts with, rounded up to its
alignment: first fit is always the lowest of them) and the ``beam_width``
best children survive, ranked by their peak so far, then by how low their
bytes sit (the sum of size times offset), then by creation order. The child
that repeats the greedy's choice on the greedy's own branch is always kept,
so the result is never worse than large-first first fit. Everything is
deterministic.

The width is ``PlanOptions.beam_width``. Should the search run past
``PlanOptions.time_limit`` it finishes the leading state (and the greedy's)
by first fit.
"""

from __future__ import annotations

import time

from cfmem.planning.greedy import large_first_key
from cfmem.planning.problem import Buffer, Placement, PlanOptions, Problem, paths_compatible

CANDIDATES = 3
"""Offsets tried per state and buffer (the lowest canonical ones that fit)."""


def _earlier_conflicts(order: list[Buffer]) -> list[list[int]]:
    """For each position, the earlier positions whose buffers conflict with it."""
    n = len(order)
    out: list[list[int]] = [[] for _ in range(n)]
    by_start = sorted(range(n), key=lambda k: (order[k].start, k))
    live: list[int] = []
    for k in by_start:
        b = order[k]
        live = [j for j in live if order[j].end > b.start]
        for j in live:
            if paths_compatible(order[j].path, b.path):
                if j < k:
                    out[k].append(j)
                else:
                    out[j].append(k)
        live.append(k)
    return out


def _fits(busy: list[tuple[int, int]], size: int, align: int, limit: int) -> list[int]:
    """Up to ``limit`` lowest canonical offsets where ``size`` bytes fit.

    ``busy`` holds the byte ranges of the placed conflicting buffers, sorted.
    Touching or overlapping ranges merge into blocks; the candidates are 0 and
    the aligned end of every block, each kept if it clears the next block.
    """
    found: list[int] = []
    x = 0
    i, count = 0, len(busy)
    while i < count:
        lo, hi = busy[i]
        if x + size <= lo:
            found.append(x)
            if len(found) == limit:
                return found
        # merge the block starting here, then try just above it
        i += 1
        while i < count and busy[i][0] <= hi:
            hi = max(hi, busy[i][1])
            i += 1
        x = max(x, -(-hi // align) * align)
        while i < count and busy[i][1] <= x:
            i += 1  # ranges wholly below the candidate
    found.append(x)
    return found[:limit]


def plan_beam(problem: Problem, options: PlanOptions) -> Placement:
    """Beam search of width ``options.beam_width`` over canonical placements."""
    began = time.perf_counter()
    offsets = {b.id: 0 for b in problem.buffers if b.size == 0}
    order = sorted((b for b in problem.buffers if b.size > 0), key=large_first_key)
    n = len(order)
    if not n:
        return Placement(offsets, stats={"states": 0.0})
    width = max(1, options.beam_width)
    before = _earlier_conflicts(order)

    # A state: (offsets of the placed prefix, peak, low-mass score, on greedy branch).
    # Children of one state differ in their last offset and states differ in
    # their prefix, so no placement is ever reached twice.
    states: list[tuple[list[int], int, int, bool]] = [([], 0, 0, True)]
    expanded = 0
    candidates = CANDIDATES
    for k, b in enumerate(order):
        if candidates > 1 and time.perf_counter() - began > options.time_limit:
            # Out of time: finish the leading state and the greedy's by first fit.
            states = states[:1] + [s for s in states[1:] if s[3]]
            width, candidates = len(states), 1
        children: list[tuple[int, int, int, int, int, bool]] = []
        for s_idx, (offs, peak, mass, greedy) in enumerate(states):
            busy = sorted((offs[j], offs[j] + order[j].size) for j in before[k])
            choices = _fits(busy, b.size, b.align, candidates)
            for c_idx, x in enumerate(choices):
                child = (max(peak, x + b.size), mass + x * b.size, len(children), s_idx, x, greedy and c_idx == 0)
                children.append(child)
        expanded += len(children)
        children.sort()
        kept = children[:width]
        if not any(child[5] for child in kept):
            kept[-1] = next(child for child in children[width:] if child[5])  # keep the greedy's branch alive
        states = [([*states[s_idx][0], x], peak, mass, greedy) for peak, mass, _, s_idx, x, greedy in kept]
    best = min(states, key=lambda s: (s[1], s[2]))
    offsets.update({b.id: best[0][k] for k, b in enumerate(order)})
    return Placement(
        offsets,
        stats={"states": float(expanded), "seconds": time.perf_counter() - began},
    )
