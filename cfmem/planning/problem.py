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
from itertools import groupby
from operator import itemgetter

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


def align_up(value: int, align: int) -> int:
    """The smallest multiple of ``align`` that is >= ``value``."""
    return -(-value // align) * align


def peak_of(buffers: Iterable[Buffer], offsets: dict[str, int]) -> int:
    return max((offsets[b.id] + b.size for b in buffers), default=0)


def _best_path_total(live: dict[Path, int]) -> int:
    """Largest total of ``live`` (bytes per branch path) on one execution path.

    Paths come from nesting, so they form a tree: a path's total is its own
    bytes plus, for each if directly under it, the best of that if's branches.
    """
    prefixes: set[Path] = {()}
    for path, size in live.items():
        while size and path not in prefixes:
            prefixes.add(path)
            path = path[:-1]
    value: dict[Path, int] = {}
    branch_values: dict[Path, dict[int, list[int]]] = {}
    for path in sorted(prefixes, reverse=True):  # a path sorts before its prefixes
        value[path] = live.get(path, 0) + sum(max(v) for v in branch_values.get(path, {}).values())
        if path:
            parent, (if_id, _) = path[:-1], path[-1]
            branch_values.setdefault(parent, {}).setdefault(if_id, []).append(value[path])
    return value[()]


def lower_bound(buffers: Sequence[Buffer]) -> int:
    """Largest byte total live at one step on one execution path.

    No plan can use less memory. A sweep over time; at each step where a
    buffer starts, the live bytes are summed per branch path and the best
    consistent choice of branches is taken (plain max of live bytes when no
    buffer has a path).
    """
    events = sorted(
        [(b.start, True, i) for i, b in enumerate(buffers)] + [(b.end, False, i) for i, b in enumerate(buffers)]
    )  # at equal steps, ends come before starts
    has_paths = any(b.path for b in buffers)
    live: dict[Path, int] = {}
    total = best = 0
    for _, at_step in groupby(events, key=itemgetter(0)):
        started = False
        for _, is_start, i in at_step:
            b = buffers[i]
            delta = b.size if is_start else -b.size
            total += delta
            live[b.path] = live.get(b.path, 0) + delta
            started = started or is_start
        if started:  # the live total only grows at a step where something starts
            best = max(best, _best_path_total(live) if has_paths else total)
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
