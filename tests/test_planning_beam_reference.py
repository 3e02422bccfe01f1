"""Beam search against a slow reference written from its docstring.

The reference recomputes everything from scratch at every step: conflicts
pairwise with ``conflicts``, candidate offsets as the set {0} and the aligned
tops of the placed conflicting buffers that fit, each child's peak and
low-mass score from its whole placement, duplicates by the placement itself.
The beam must choose exactly the same offsets, expand the same number of
states, and switch to first fit exactly where its clock runs out.
"""

import itertools
import random

import pytest

from cfmem.planning import beam as beam_module
from cfmem.planning.beam import CANDIDATES, _earlier_conflicts, _fits, plan_beam
from cfmem.planning.problem import Buffer, PlanOptions, Problem, conflicts

PATHS = [(), ((0, 0),), ((0, 1),), ((0, 0), (1, 0)), ((0, 0), (1, 1)), ((2, 0),), ((2, 1),)]


def align_up(x: int, align: int) -> int:
    return (x + align - 1) // align * align


def reference_fits(busy: list[tuple[int, int]], size: int, align: int, limit: int) -> list[int]:
    """The lowest ``limit`` of 0 and the aligned range tops where ``size`` bytes overlap nothing."""
    candidates = sorted({0} | {align_up(hi, align) for _, hi in busy})
    fitting = [x for x in candidates if all(x + size <= lo or hi <= x for lo, hi in busy)]
    return fitting[:limit]


def reference_order(buffers: list[Buffer]) -> list[Buffer]:
    """Large first: size descending, then longer lifetime, earlier start, id (ids are zero-padded)."""
    return sorted(buffers, key=lambda b: (-b.size, -(b.end - b.start), b.start, b.id))


def reference_beam(problem: Problem, width: int, out_of_time_at: int | None = None, trace: list | None = None):
    """Offsets and number of expanded states of the documented beam search.

    ``trace`` receives the position of the greedy's state when the clock runs out.
    """
    order = reference_order([b for b in problem.buffers if b.size > 0])
    states = [((), True)]  # (offsets of the placed prefix, on the greedy's branch)
    candidates, expanded = CANDIDATES, 0
    for k, b in enumerate(order):
        if k == out_of_time_at:
            if trace is not None:
                trace.append(next(i for i, s in enumerate(states) if s[1]))
            states = [states[0], *[s for s in states[1:] if s[1]]]
            width, candidates = len(states), 1
        children = []
        for offsets, on_greedy in states:
            busy = sorted((offsets[j], offsets[j] + order[j].size) for j in range(k) if conflicts(order[j], b))
            for rank, x in enumerate(reference_fits(busy, b.size, b.align, candidates)):
                placed = (*offsets, x)
                peak = max(o + order[j].size for j, o in enumerate(placed))
                mass = sum(o * order[j].size for j, o in enumerate(placed))
                children.append(((peak, mass, len(children)), placed, on_greedy and rank == 0))
        expanded += len(children)
        children.sort(key=lambda c: c[0])
        unique: dict[tuple[int, ...], list] = {}
        for rank_key, placed, on_greedy in children:
            if placed in unique:
                unique[placed][2] |= on_greedy
            else:
                unique[placed] = [rank_key, placed, on_greedy]
        ranked = list(unique.values())
        kept = ranked[:width]
        if not any(c[2] for c in kept):
            kept[-1] = next(c for c in ranked if c[2])
        states = [(placed, on_greedy) for _, placed, on_greedy in kept]

    def score(offsets):
        return (
            max((o + order[j].size for j, o in enumerate(offsets)), default=0),
            sum(o * order[j].size for j, o in enumerate(offsets)),
        )

    best = min(states, key=lambda s: score(s[0]))[0]
    result = {b.id: 0 for b in problem.buffers if b.size == 0}
    result.update({b.id: best[k] for k, b in enumerate(order)})
    return result, expanded


def random_problem(rng: random.Random, n: int, span: int = 16) -> Problem:
    buffers = []
    for k in range(n):
        start = rng.randrange(0, span)
        buffers.append(
            Buffer(
                f"t{k:03d}",
                start,
                start + rng.randrange(1, 8),
                rng.choice([0, 1, 3, 8, 8, 16, 24, 40, 64, 100]) if rng.random() < 0.5 else rng.randrange(1, 120),
                align=rng.choice([1, 1, 2, 4, 8, 16]),
                path=rng.choice(PATHS),
            )
        )
    return Problem(buffers)


@pytest.mark.parametrize("seed", range(40))
def test_fits_matches_the_reference(seed):
    rng = random.Random(seed)
    for _ in range(50):
        busy = []
        for _ in range(rng.randrange(0, 7)):
            lo = rng.randrange(0, 60)
            busy.append((lo, lo + rng.randrange(1, 20)))
        busy.sort()
        size, align, limit = rng.randrange(1, 25), rng.choice([1, 2, 4, 8, 16]), rng.randrange(1, 5)
        assert _fits(busy, size, align, limit) == reference_fits(busy, size, align, limit), (busy, size, align)


@pytest.mark.parametrize("seed", range(20))
def test_earlier_conflicts_are_the_conflicting_earlier_positions(seed):
    rng = random.Random(seed)
    order = reference_order(random_problem(rng, 25).buffers)
    expected = [[j for j in range(k) if conflicts(order[j], order[k])] for k in range(len(order))]
    assert [sorted(c) for c in _earlier_conflicts(order)] == expected


@pytest.mark.parametrize("seed", range(60))
def test_beam_matches_the_reference(seed):
    rng = random.Random(1000 + seed)
    problem = random_problem(rng, rng.randrange(1, 16), span=rng.choice([6, 16]))
    for width in (1, 2, 3, 5, 8):
        placement = plan_beam(problem, PlanOptions(beam_width=width, time_limit=1e9))
        offsets, expanded = reference_beam(problem, width)
        assert placement.offsets == offsets, width
        assert placement.stats["states"] == expanded


def test_zero_width_is_width_one():
    problem = random_problem(random.Random(5), 12)
    assert plan_beam(problem, PlanOptions(beam_width=0)).offsets == reference_beam(problem, 1)[0]


def test_empty_and_zero_size_problems():
    assert plan_beam(Problem([]), PlanOptions()).offsets == {}
    only_empty = Problem([Buffer("a", 0, 2, 0), Buffer("b", 1, 3, 0)])
    placement = plan_beam(only_empty, PlanOptions())
    assert placement.offsets == {"a": 0, "b": 0}
    assert placement.stats["states"] == 0


def test_running_out_of_time_keeps_the_greedy_state_behind_the_leader(monkeypatch):
    # On this problem the greedy's state is second when the clock runs out before buffer 6.
    rng = random.Random(190)
    problem = random_problem(rng, rng.randrange(6, 14), span=rng.choice([4, 8, 16]))
    trace: list[int] = []
    offsets, expanded = reference_beam(problem, 2, out_of_time_at=6, trace=trace)
    assert trace == [1]
    monkeypatch.setattr(beam_module.time, "perf_counter", StepClock())
    placement = plan_beam(problem, PlanOptions(beam_width=2, time_limit=6.0))
    assert placement.offsets == offsets and placement.stats["states"] == expanded


class StepClock:
    """A clock that advances one second per reading."""

    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


@pytest.mark.parametrize("seed", range(25))
def test_running_out_of_time_finishes_the_leader_and_the_greedy_by_first_fit(seed, monkeypatch):
    rng = random.Random(5000 + seed)
    problem = random_problem(rng, rng.randrange(4, 16), span=6)
    positive = sum(1 for b in problem.buffers if b.size > 0)
    for cut, width in itertools.product(range(1, positive), (2, 3, 4)):
        clock = StepClock()
        monkeypatch.setattr(beam_module.time, "perf_counter", clock)
        # readings: 1 at the start, then k + 2 before buffer k: elapsed k + 1 > cut first at k = cut
        placement = plan_beam(problem, PlanOptions(beam_width=width, time_limit=float(cut)))
        offsets, expanded = reference_beam(problem, width, out_of_time_at=cut)
        assert placement.offsets == offsets, cut
        assert placement.stats["states"] == expanded
        # one reading per buffer until the cut, none after it, one for the reported time
        assert clock.now == cut + 3
        assert placement.stats["seconds"] == clock.now - 1


def test_narrow_beams_on_crowded_problems():
    # Narrow beams on short spans: the greedy's own branch must be kept
    # whenever the ranking would drop it, and the beam never ends above it.
    for seed in range(120):
        problem = random_problem(random.Random(seed), 14, span=5)
        for width in (1, 2, 3, 4):
            assert plan_beam(problem, PlanOptions(beam_width=width)).offsets == reference_beam(problem, width)[0]
