"""Planning problems and solutions on plain buffers (no xDSL).

A buffer needs ``size`` bytes on the half-open step interval ``[start, end)``
(the liveness pass turns its closed intervals ``[def, last use]`` into
``[def, last use + 1)``). Two buffers *conflict*, and so must not overlap in
memory, when their intervals overlap and their branch paths are compatible.

A branch path is the chain of ``(if_id, branch)`` choices under which a buffer
exists, outermost first; ``()`` means "on every path". Buffers whose paths take
different branches of the same if never run together, so they may share bytes
even where their step intervals overlap (path-exact planning). With all paths
empty this is the classic interval problem of the minimalloc CSV format.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

Path = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Buffer:
    id: str
    start: int
    end: int
    size: int
    align: int = 1
    path: Path = ()

    def __post_init__(self) -> None:
        if self.end <= self.start:
            raise ValueError(f"buffer {self.id}: end {self.end} must be after start {self.start}")
        if self.size < 0:
            raise ValueError(f"buffer {self.id}: negative size {self.size}")
        if self.align < 1:
            raise ValueError(f"buffer {self.id}: alignment must be >= 1")


def paths_compatible(a: Path, b: Path) -> bool:
    """True unless the two paths choose different branches of one if."""
    choice = dict(a)
    return all(choice.get(if_id, branch) == branch for if_id, branch in b)


def conflicts(a: Buffer, b: Buffer) -> bool:
    """Whether ``a`` and ``b`` may be live at once on some execution path."""
    return a.start < b.end and b.start < a.end and paths_compatible(a.path, b.path)


@dataclass
class Problem:
    buffers: list[Buffer]
    name: str = ""

    def __post_init__(self) -> None:
        ids = [b.id for b in self.buffers]
        if len(set(ids)) != len(ids):
            raise ValueError("buffer ids must be unique")


@dataclass
class Solution:
    """Offsets for a problem's buffers, and what is known about their quality."""

    offsets: dict[str, int]
    peak: int
    lower_bound: int
    strategy: str = ""
    proven_optimal: bool = False
    seconds: float = 0.0
    stats: dict[str, float] = field(default_factory=dict)

    @property
    def gap_pct(self) -> float:
        """How far the peak is above the lower bound, in percent."""
        return 0.0 if self.lower_bound == 0 else 100.0 * (self.peak - self.lower_bound) / self.lower_bound


def peak_of(buffers: Iterable[Buffer], offsets: dict[str, int]) -> int:
    return max((offsets[b.id] + b.size for b in buffers), default=0)


def _path_assignments(buffers: Sequence[Buffer]) -> list[dict[int, int]]:
    """Every maximal consistent choice of branches that the buffers' paths mention.

    Each execution path of the program corresponds to one assignment of a
    branch to every if reached; only ifs named in some path matter.
    """
    ifs: dict[int, set[int]] = {}
    for b in buffers:
        for if_id, branch in b.path:
            ifs.setdefault(if_id, set()).add(branch)
    assignments: list[dict[int, int]] = [{}]
    for if_id, branches in sorted(ifs.items()):
        assignments = [{**a, if_id: br} for a in assignments for br in sorted(branches)]
        if len(assignments) > 4096:
            break  # bound the enumeration; the per-step bound below stays valid
    return assignments


def lower_bound(buffers: Sequence[Buffer]) -> int:
    """Largest byte total live at one step on one execution path.

    No plan can use less memory. Without branch paths this is the classic
    max-over-steps of live sizes; with them, each execution path is summed on
    its own (for deep nesting the enumeration is capped and the largest
    per-path total found so far is returned, still a valid bound).
    """
    if not buffers:
        return 0
    best = 0
    for assignment in _path_assignments(buffers):
        events: list[tuple[int, int]] = []
        for b in buffers:
            if all(assignment.get(i) == br for i, br in b.path):
                events.append((b.start, b.size))
                events.append((b.end, -b.size))
        events.sort()  # at equal steps, ends (negative) come before starts
        live = 0
        for _, delta in events:
            live += delta
            best = max(best, live)
    return best


@dataclass(frozen=True)
class PlanOptions:
    """Knobs shared by the strategies; each strategy reads the ones it needs."""

    time_limit: float = 10.0
    """Seconds an anytime strategy (``search``) may spend."""
    beam_width: int = 8
    """States kept per step by ``beam``."""


@dataclass
class Placement:
    """What a strategy returns: offsets, plus whether it proved them optimal."""

    offsets: dict[str, int]
    proven_optimal: bool = False
    stats: dict[str, float] = field(default_factory=dict)
