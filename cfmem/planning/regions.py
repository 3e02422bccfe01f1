"""The region tree of a function: what liveness hands to the planners.

Plain data, no xDSL. A region (a function body or one branch of an if) numbers
its ops 0..num_steps-1 in block order. A tensor lives on the closed step
interval ``[start, end]`` of the region that defines it; a use inside a nested
region counts at the step of the if that contains it, so values from above
stay live through that if's step. An if's results are tensors of the parent
region defined at the if's step.

A loop is a node with one branch, its body: iterations run one after another
and a body tensor never outlives its iteration, so one iteration's timeline
is every iteration's, and the body's bytes are reused on each. What crosses
iterations (the carried values, the condition, the iteration number) lives
in the parent at the loop's step, so it is live through every iteration.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field


@dataclass
class Tensor:
    id: str
    size: int
    start: int
    end: int
    """Closed interval of steps in the defining region."""


@dataclass
class Alias:
    """A tensor planned inside another's bytes: ``[offset, offset + size)`` of tensor ``root``."""

    id: str
    root: str
    offset: int
    size: int


@dataclass
class IfNode:
    """An if (two branches, one runs) or a loop (``kind="loop"``, one branch: the body)."""

    id: int
    step: int
    branches: list[RegionTree]
    kind: str = "if"
    label: str = ""
    """How messages name it (``if#2``, ``loop#0``); ``if#<id>`` when empty."""

    @property
    def name(self) -> str:
        return self.label or f"{self.kind}#{self.id}"

    def branch_labels(self) -> tuple[str, ...]:
        return ("body",) if self.kind == "loop" else ("then", "else")


@dataclass
class RegionTree:
    num_steps: int
    tensors: list[Tensor] = field(default_factory=list)
    ifs: list[IfNode] = field(default_factory=list)
    aliases: list[Alias] = field(default_factory=list)
    """Function level only: tensors that take no bytes of their own; their roots'
    lifetimes already cover their uses."""

    def walk(self) -> Iterator[RegionTree]:
        """This region and every nested one, parents first."""
        yield self
        for node in self.ifs:
            for branch in node.branches:
                yield from branch.walk()

    def all_tensors(self) -> Iterator[Tensor]:
        for region in self.walk():
            yield from region.tensors

    def live_at(self, step: int) -> int:
        return sum(t.size for t in self.tensors if t.start <= step <= t.end)


def cf_lower_bound(region: RegionTree) -> int:
    return _bound_and_path(region)[0]


def peak_path(region: RegionTree) -> tuple[int, str]:
    """The lower bound and where it is reached, e.g. ``step 3 > if#0.then > step 1``."""
    bound, where = _bound_and_path(region)
    return bound, " > ".join(where)


def peak_tensors(region: RegionTree) -> tuple[int, list[Tensor]]:
    """The lower bound and the tensors live where it is reached (one step, one path)."""
    bound, _, tensors = _bound_path_tensors(region)
    return bound, tensors


def path_peak(region: RegionTree, runs: Callable[[IfNode], int | None]) -> int:
    """The largest byte total live at one step of the one execution path ``runs`` names: for
    each if or loop, the index of the branch that runs (a loop's body is 0), None when none
    does (a loop that runs no iteration)."""
    return _bound_path_tensors(region, runs)[0]


def _bound_and_path(region: RegionTree) -> tuple[int, list[str]]:
    bound, where, _ = _bound_path_tensors(region)
    return bound, where


def _bound_path_tensors(
    region: RegionTree, runs: Callable[[IfNode], int | None] | None = None
) -> tuple[int, list[str], list[Tensor]]:
    """Largest byte total live at one step on one execution path (the one ``runs`` names;
    when None, the path where that total is largest).

    At an if's step the parent's live tensors (values from above, the if's
    results) coexist with whichever branch runs, so the bound is the parent's
    live total plus the larger branch bound. Linear in the tree size.
    """
    if_at = {node.step: node for node in region.ifs}
    best, where, best_step, best_inner = 0, [], None, []
    events: dict[int, int] = {}
    for t in region.tensors:
        events[t.start] = events.get(t.start, 0) + t.size
        events[t.end + 1] = events.get(t.end + 1, 0) - t.size
    live = 0
    for step in sorted(events.keys() | if_at.keys()):  # live changes only at these steps
        live += events.get(step, 0)
        inner, inner_where, inner_tensors = 0, [], []
        if step in if_at:
            node = if_at[step]
            branches = list(zip(node.branch_labels(), node.branches, strict=True))  # an if has two
            taken = branches if runs is None else [branches[k] for k in [runs(node)] if k is not None]
            for label, branch in taken:
                sub, sub_where, sub_tensors = _bound_path_tensors(branch, runs)
                if sub > inner:
                    inner, inner_where, inner_tensors = sub, [f"{node.name}.{label}", *sub_where], sub_tensors
        if live + inner > best:
            best, where, best_step, best_inner = live + inner, [f"step {step}", *inner_where], step, inner_tensors
    if best_step is None:
        return best, where, []
    return best, where, [t for t in region.tensors if t.start <= best_step <= t.end] + best_inner
