"""A timing model: one compute unit and one DMA engine running concurrently.

The control processor issues the program's events in order. A transfer starts
on the DMA engine when it is issued and the engine is free, and finishes
``latency + bytes / dma_bytes_per_cycle`` cycles later; transfers are served
one at a time in issue order. A wait stalls compute until its transfer is
done. An op computes for ``max(macs / macs_per_cycle, bytes written /
move_bytes_per_cycle)`` cycles, plus ``bytes / offchip_bytes_per_cycle`` for
what it reads or writes straight in off-chip memory (weights read in place,
activations placed off chip), plus ``slice_overhead_cycles`` when it is one
slice of an op computed slice by slice (setting up each slice's kernel).

For every region (the paper's: start to first if, each branch, between ifs,
after the last if) the model also gives the overlap lower bound: a region
cannot finish faster than the larger of its total compute and its total
transfer time.

A loop is not unrolled. Its iterations are simulated until one starts in the
same state as the one before: where the DMA engine and every transfer stand
relative to compute (anything finished counts as finished now, since a time is
only ever used through ``max(now, t)``). Every event's time is a ``max`` of
sums of such times and constant costs, so that iteration and all later ones
repeat the previous one shifted by its length, and the loop costs the
iterations simulated plus the rest times that length, exactly what simulating
each would give. Programs that pass ``nn-check-dma`` leave nothing outstanding
at an iteration's end, so their second iteration already repeats the first. A
loop still changing after ``SAMPLED_ITERATIONS`` (transfers running on across
iterations) is estimated as if its last sampled iteration repeated.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from cfmem.dma.events import Block, Compute, IfEvent, LoopEvent, Start, Wait


@dataclass(frozen=True)
class Chip:
    """What the model needs to know about a chip (rates are per cycle)."""

    name: str = "edge-npu"
    onchip_bytes: int = 2 * 1024 * 1024
    macs_per_cycle: int = 64
    move_bytes_per_cycle: int = 32
    dma_bytes_per_cycle: float = 2.0
    dma_latency_cycles: int = 200
    offchip_bytes_per_cycle: float = 0.5
    clock_mhz: float = 200.0
    slice_overhead_cycles: int = 64

    @classmethod
    def load(cls, path: str | Path) -> Chip:
        """A chip from a JSON object whose keys are this class's fields. Each count is checked
        by the rule of every integer option (``check_int``), each rate by ``check_rate``;
        a broken one raises ``OptionError`` (a ``ValueError``) naming the key."""
        from cfmem.planning.option_checks import OptionError, check_int, check_rate

        data = json.loads(Path(path).read_text())
        if not isinstance(data, dict):
            raise ValueError("a chip description is a JSON object of chip keys")
        known = {f.name: f.type for f in fields(cls)}
        unknown = set(data) - set(known)
        if unknown:
            raise ValueError(f"unknown chip keys {', '.join(sorted(unknown))} (known: {', '.join(sorted(known))})")
        for key, value in data.items():
            if key == "name":
                if not isinstance(value, str):
                    raise OptionError(key, f"must be a string, not {value!r}")
            elif known[key] == "int":
                check_int(key, value, 0 if key == "slice_overhead_cycles" else 1)
            else:
                check_rate(key, value)
        return cls(**data)

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2)

    def milliseconds(self, cycles: float) -> float:
        return cycles / (self.clock_mhz * 1000.0)

    def transfer_cycles(self, nbytes: float) -> float:
        return self.dma_latency_cycles + nbytes / self.dma_bytes_per_cycle

    def compute_cycles(self, op: Compute) -> float:
        busy = max(op.macs / self.macs_per_cycle, op.bytes_moved / self.move_bytes_per_cycle)
        return busy + op.offchip_bytes / self.offchip_bytes_per_cycle + (self.slice_overhead_cycles if op.slice else 0)


@dataclass
class RegionTime:
    """One run of a region; with ``repeats`` above 1, the first of that many identical runs
    (loop iterations in their steady state), each from ``start`` to ``end`` shifted."""

    label: str
    start: float
    end: float = 0.0
    compute: float = 0.0
    transfer: float = 0.0
    repeats: int = 1

    @property
    def bound(self) -> float:
        """The overlap lower bound of one run of this region."""
        return max(self.compute, self.transfer)


@dataclass
class Lane:
    """One busy interval of the compute unit or the DMA engine."""

    lane: str
    start: float
    end: float
    label: str


@dataclass
class Timeline:
    cycles: float = 0.0
    regions: list[RegionTime] = field(default_factory=list)
    lanes: list[Lane] = field(default_factory=list)

    @property
    def bound(self) -> float:
        """Sum of the regions' overlap bounds (regions run one after another)."""
        return sum(r.bound * r.repeats for r in self.regions)

    def milliseconds(self, chip: Chip) -> float:
        return chip.milliseconds(self.cycles)


ASSUMED_TRIPS = 1
"""Iterations a loop is timed with when neither the IR nor the path fixes them."""
SAMPLED_ITERATIONS = 16
"""Iterations of a loop simulated at most while looking for its steady state."""


def loop_trips(event: LoopEvent, path: dict, assumed: int = ASSUMED_TRIPS) -> int:
    """How many times ``event`` runs on ``path``: the path's count (a run's own), the
    count the IR fixes, or ``assumed`` (at most the loop's constant limit)."""
    count = path.get(event.label)
    if isinstance(count, int) and not isinstance(count, bool):
        return count
    if event.trips is not None:
        return event.trips
    return assumed if event.limit is None else min(assumed, event.limit)


def simulate(
    program: Block,
    chip: Chip,
    branches: dict | None = None,
    assumed_trips: int = ASSUMED_TRIPS,
    steady_state: bool = True,
    lanes: bool = True,
) -> Timeline:
    """Run ``program`` on ``chip`` along one path (``lanes`` False leaves the timeline's
    lanes empty, for a caller that reads only the cycles).

    ``branches`` maps an if label to True for its then branch and a loop label
    to its iteration count; ifs not named take the branch with the larger total
    compute (the slower path), loops not named run ``loop_trips`` times (``assumed_trips``
    when the IR does not fix them). Loops stop being simulated at their steady state (see
    the module docstring; ``steady_state`` False simulates every iteration), so the
    timeline's lanes show only the iterations simulated.
    """
    branches = branches or {}
    now = 0.0
    dma_free = 0.0
    done: dict[str, float] = {}
    timeline = Timeline()

    def relative_state() -> tuple:
        """What the rest of the program's timing depends on besides ``now``."""
        running = tuple(sorted((token, t - now) for token, t in done.items() if t > now))
        return max(0.0, dma_free - now), running

    def run_loop(loop: LoopEvent, trips: int) -> None:
        nonlocal now, dma_free
        previous: tuple | None = None
        for iteration in range(trips):
            if iteration:  # the body's waits on a reloaded transfer wait on the last reload
                done.update({first: done[reload] for first, reload in loop.reloads.items() if reload in done})
            state = relative_state()
            steady = previous is not None and (state == previous[0] or iteration >= SAMPLED_ITERATIONS)
            if steady_state and steady:
                _, started, first_region = previous
                rest = trips - iteration
                shift = rest * (now - started)
                for region in timeline.regions[first_region:]:
                    region.repeats *= rest + 1
                now += shift
                dma_free += shift
                for token in done:
                    done[token] += shift
                return
            previous = (state, now, len(timeline.regions))
            run(loop.body)

    def run(block: Block) -> None:
        nonlocal now, dma_free
        region = RegionTime(block.label, now)
        part = 0

        def close() -> None:
            region.end = now
            if region.compute or region.transfer:
                timeline.regions.append(region)

        for event in block.events:
            if isinstance(event, Start):
                begin = max(now, dma_free)
                dma_free = begin + chip.transfer_cycles(event.nbytes)
                done[event.token] = dma_free
                region.transfer += dma_free - begin
                if lanes:
                    timeline.lanes.append(Lane("dma", begin, dma_free, event.token))
            elif isinstance(event, Wait):
                now = max(now, done[event.token])
            elif isinstance(event, Compute):
                cycles = chip.compute_cycles(event)
                if lanes:
                    timeline.lanes.append(Lane("compute", now, now + cycles, event.name))
                now += cycles
                region.compute += cycles
            elif isinstance(event, IfEvent):
                close()
                taken = branches.get(event.label)
                if taken is None:
                    taken = _work(event.branches[0], chip) >= _work(event.branches[1], chip)
                run(event.branches[0 if taken else 1])
                part += 1
                region = RegionTime(f"{block.label}[{part}]", now)
            elif isinstance(event, LoopEvent):
                close()
                run_loop(event, loop_trips(event, branches, assumed_trips))
                part += 1
                region = RegionTime(f"{block.label}[{part}]", now)
        close()

    run(program)
    timeline.cycles = now
    return timeline


def slower_path(program: Block, chip: Chip, assumed_trips: int = ASSUMED_TRIPS) -> dict:
    """The branch ``simulate`` takes at every if it is not told about (the one with more
    compute), and the iterations of every loop (``loop_trips`` with ``assumed_trips``)."""
    choices: dict = {}

    def walk(block: Block) -> None:
        for event in block.events:
            if isinstance(event, IfEvent):
                taken = _work(event.branches[0], chip) >= _work(event.branches[1], chip)
                choices[event.label] = taken
                walk(event.branches[0 if taken else 1])
            elif isinstance(event, LoopEvent):
                choices[event.label] = loop_trips(event, {}, assumed_trips)
                walk(event.body)

    walk(program)
    return choices


def all_paths_compute(block: Block, chip: Chip) -> float:
    """Compute cycles of every op on every branch: a tie-breaker that sees what happens on
    the paths a simulation does not take."""
    return _work(block, chip, sum)


def _work(block: Block, chip: Chip, branches=max) -> float:
    """Compute cycles of ``block``; an if counts ``branches`` of its branches' (the larger by default)."""
    total = 0.0
    for event in block.events:
        if isinstance(event, Compute):
            total += chip.compute_cycles(event)
        elif isinstance(event, IfEvent):
            total += branches(_work(b, chip, branches) for b in event.branches)
        elif isinstance(event, LoopEvent):
            total += loop_trips(event, {}) * _work(event.body, chip, branches)
    return total
