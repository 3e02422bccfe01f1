"""Planning a region tree under each control-flow mode (no xDSL).

Modes, all checked against the same path-exact conflicts at the end:

``naive``
    no reuse: every tensor gets its own bytes.
``conservative``
    every tensor inside an if is live for the whole if in the parent, on every
    path (the paper's "before").
``linearize``
    one timeline: then-branch steps, then else-branch steps (TFLite Micro,
    tpu-mlir).
``hoist``
    the paper's method: plan each branch on its own, innermost first; the if
    reserves one block of max(branch peaks) at its step in the parent, and the
    parent is planned with that block as one of its tensors.
``exact``
    path-exact conflicts: both branches of an if share one stretch of time and
    two tensors conflict only if some execution has both live. The direct plan
    is compared with the hoist, linearize and conservative plans (all valid
    under the same conflicts) and the smallest is kept, so it is never worse
    than any of them; a candidate whose lower bound is not below the best
    peak so far could not be kept and is not planned.
"""

from __future__ import annotations

import time
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field

from cfmem.planning.problem import Buffer, Path, PlanOptions, Problem, align_up, lower_bound, peak_of
from cfmem.planning.regions import RegionTree, cf_lower_bound
from cfmem.planning.strategies import solve
from cfmem.planning.verify import verify_plan

MODES = ("naive", "conservative", "linearize", "hoist", "exact")
TIMELINES = ("exact", "linearize", "conservative")
"""The modes planned as one flat problem on a global timeline."""


@dataclass
class TreePlan:
    """Absolute offsets for every tensor of a region tree, with its measures."""

    offsets: dict[str, int]
    peak: int
    lower_bound: int
    mode: str
    strategy: str
    seconds: float = 0.0
    proven_optimal: bool = False
    blocks: dict[int, tuple[int, int]] = field(default_factory=dict)
    """Hoist mode: if id -> (offset, size) of the block its branches share."""
    chosen: str = ""
    """Exact mode: which candidate plan won (exact, hoist, linearize, conservative)."""
    unaliased_peak: int | None = None
    """The peak of the same function planned without aliases, when aliases were used."""

    @property
    def gap_pct(self) -> float:
        return 0.0 if self.lower_bound == 0 else 100.0 * (self.peak - self.lower_bound) / self.lower_bound


def timeline(tree: RegionTree, mode: str = "exact", align: int = 1) -> list[Buffer]:
    """The tree's tensors as buffers on one global timeline.

    ``exact``: branches of an if overlap in time and carry their branch path.
    ``linearize``: branches follow each other, no paths.
    ``conservative``: as exact, but every tensor inside an if spans the whole
    outermost if and has no path.
    """
    if mode not in TIMELINES:
        raise ValueError(f"no timeline for mode '{mode}' (choose from {', '.join(TIMELINES)})")
    buffers: list[Buffer] = []

    def visit(region: RegionTree, t0: int, path: Path, outer: tuple[int, int] | None) -> int:
        if_at = {node.step: node for node in region.ifs}
        starts: list[int] = []
        t = t0
        for step in range(region.num_steps):
            starts.append(t)
            node = if_at.get(step)
            if node is None:
                t += 1
                continue
            if mode == "linearize":
                for branch in node.branches:
                    t += visit(branch, t, path, None)
                t = max(t, starts[-1] + 1)
            else:
                extent = outer
                durations = []
                for b, branch in enumerate(node.branches):
                    if outer is None:
                        extent = (t, t + _duration(node))
                    durations.append(visit(branch, t, (*path, (node.id, b)), extent))
                t += max(1, *durations)
        starts.append(t)
        for tensor in region.tensors:
            start, end = starts[tensor.start], starts[tensor.end + 1]
            tensor_path = path
            if mode == "conservative" and outer is not None:
                (start, end), tensor_path = outer, ()
            buffers.append(Buffer(tensor.id, start, end, tensor.size, align, tensor_path))
        return t - t0

    visit(tree, 0, (), None)
    return buffers


OUTSIDE = 2
"""The branch number :func:`compact_paths` gives a buffer that lives outside every
if nested in its region (ifs have branches 0 and 1, loops 0)."""


def compact_paths(buffers: list[Buffer]) -> list[Buffer]:
    """The same buffers and conflicts, in a few branch paths: what a planner is given.

    Assumes ``buffers`` come from ``timeline(tree, "exact")``: a buffer of a
    branch lives within its if's time, and the ifs of one region follow each
    other. So two buffers live at a common step lie, depth by depth, in the
    same ifs down to the first where they take different branches, and naming
    each if by its depth (``(0, b0), (1, b1), ...``) keeps every conflict.
    Then a buffer that shares no step with the buffers nested deeper in its
    region (when it has some) is put in branch ``OUTSIDE`` of the next depth:
    it still conflicts with the buffers of its region and above, and with no
    nested one, as before, but a planner no longer compares it with every
    nested path.
    """
    renamed: dict[Path, Path] = {(): ()}
    for b in buffers:
        if b.path not in renamed:
            renamed[b.path] = tuple((depth, branch) for depth, (_, branch) in enumerate(b.path))
    nested: dict[Path, list[tuple[int, int]]] = {}  # path -> steps of buffers nested deeper
    for b in buffers:
        path = renamed[b.path]
        for k in range(len(path)):
            nested.setdefault(path[:k], []).append((b.start, b.end))
    windows = {path: _merged(spans) for path, spans in nested.items()}
    out: list[Buffer] = []
    for b in buffers:
        path = renamed[b.path]
        if path in windows:
            starts, ends = windows[path]
            k = bisect_right(ends, b.start)  # the first window ending after b starts
            if k == len(starts) or starts[k] >= b.end:
                path = (*path, (len(path), OUTSIDE))
        out.append(b if path == b.path else Buffer(b.id, b.start, b.end, b.size, b.align, path))
    return out


def _merged(spans: list[tuple[int, int]]) -> tuple[list[int], list[int]]:
    """The union of half-open ``spans`` as sorted disjoint starts and ends."""
    starts: list[int] = []
    ends: list[int] = []
    for lo, hi in sorted(spans):
        if ends and lo <= ends[-1]:
            ends[-1] = max(ends[-1], hi)
        else:
            starts.append(lo)
            ends.append(hi)
    return starts, ends


def _duration(node) -> int:
    """Global time an if occupies when its branches overlap."""

    def length(region: RegionTree) -> int:
        inner = {n.step: max(1, *(length(b) for b in n.branches)) for n in region.ifs}
        return sum(inner.get(step, 1) for step in range(region.num_steps))

    return max(length(b) for b in node.branches)


def _naive(tree: RegionTree, align: int) -> dict[str, int]:
    offsets: dict[str, int] = {}
    top = 0
    for tensor in tree.all_tensors():
        offsets[tensor.id] = top
        top = align_up(top + tensor.size, align)
    return offsets


def _hoist(
    region: RegionTree, strategy: str, options: PlanOptions, align: int
) -> tuple[dict[str, int], int, dict[int, tuple[int, int]]]:
    """Offsets and hoisted blocks relative to the region's own base, and its peak."""
    inner: dict[int, list[tuple[dict[str, int], int, dict[int, tuple[int, int]]]]] = {}
    buffers = [Buffer(t.id, t.start, t.end + 1, t.size, align) for t in region.tensors]
    for node in region.ifs:
        inner[node.id] = [_hoist(b, strategy, options, align) for b in node.branches]
        size = max(peak for _, peak, _ in inner[node.id])
        buffers.append(Buffer(f"@if{node.id}", node.step, node.step + 1, size, align))
    solution = solve(Problem(buffers), strategy, options)
    offsets = {t.id: solution.offsets[t.id] for t in region.tensors}
    blocks: dict[int, tuple[int, int]] = {}
    for node in region.ifs:
        base = solution.offsets[f"@if{node.id}"]
        blocks[node.id] = (base, max(peak for _, peak, _ in inner[node.id]))
        for branch_offsets, _, branch_blocks in inner[node.id]:
            offsets.update({k: base + v for k, v in branch_offsets.items()})
            blocks.update({k: (base + off, size) for k, (off, size) in branch_blocks.items()})
    return offsets, solution.peak, blocks


def _flat(tree: RegionTree, mode: str, strategy: str, options: PlanOptions, align: int) -> tuple[dict[str, int], bool]:
    return _solve(timeline(tree, mode, align), mode, strategy, options)


def _solve(buffers: list[Buffer], mode: str, strategy: str, options: PlanOptions) -> tuple[dict[str, int], bool]:
    """Offsets for the timeline ``buffers`` of ``mode``, and whether they are proven optimal."""
    solution = solve(Problem(compact_paths(buffers) if mode == "exact" else buffers), strategy, options)
    return solution.offsets, solution.proven_optimal


def plan_tree(
    tree: RegionTree,
    mode: str = "exact",
    strategy: str = "auto",
    options: PlanOptions | None = None,
    align: int = 1,
) -> TreePlan:
    """Plan ``tree`` and verify the result under path-exact conflicts."""
    if mode not in MODES:
        raise ValueError(f"unknown control-flow mode '{mode}' (choose from {', '.join(MODES)})")
    options = options or PlanOptions()
    began = time.perf_counter()
    exact_buffers = timeline(tree, "exact", align)
    bound = cf_lower_bound(tree)
    blocks: dict[int, tuple[int, int]] = {}
    proven: dict[str, bool] = {}  # candidate -> the strategy proved its plan optimal
    chosen = mode
    if mode == "naive":
        offsets = _naive(tree, align)
    elif mode == "hoist":
        offsets, _, blocks = _hoist(tree, strategy, options, align)
    elif mode in ("conservative", "linearize"):
        offsets, _ = _flat(tree, mode, strategy, options, align)
    else:
        candidates: dict[str, dict[str, int]] = {}
        candidates["exact"], proven["exact"] = _solve(exact_buffers, "exact", strategy, options)
        peaks = {"exact": peak_of(exact_buffers, candidates["exact"])}
        for other in ("hoist", "linearize", "conservative") if tree.ifs else ():
            buffers = [] if other == "hoist" else timeline(tree, other, align)
            floor = bound if other == "hoist" else lower_bound(buffers)  # hoist's timeline is exact's
            if floor >= min(peaks.values()):
                continue  # none of its plans is smaller, and ties go to the earlier candidate
            if other == "hoist":
                candidates[other], _, blocks = _hoist(tree, strategy, options, align)
            else:
                candidates[other], _ = _solve(buffers, other, strategy, options)
            peaks[other] = peak_of(exact_buffers, candidates[other])
        chosen = min(peaks, key=peaks.__getitem__)  # the first smallest: exact wins its ties
        offsets = candidates[chosen]
        if chosen != "hoist":
            blocks = {}
    peak = peak_of(exact_buffers, offsets)
    verify_plan(exact_buffers, offsets)
    return TreePlan(
        offsets=offsets,
        peak=peak,
        lower_bound=bound,
        mode=mode,
        strategy=strategy,
        seconds=time.perf_counter() - began,
        proven_optimal=proven.get(chosen, False) or peak == bound,
        blocks=blocks,
        chosen=chosen,
    )


def plan_smallest(
    plain: RegionTree,
    aliased: Iterable[RegionTree],
    mode: str = "exact",
    strategy: str = "auto",
    options: PlanOptions | None = None,
    align: int = 1,
) -> tuple[int, TreePlan]:
    """The plan of ``plain`` (tensors on bytes of their own) or of one of the ``aliased``
    trees of the same tensors (read lazily, in order of preference), whichever needs the
    fewest bytes (on a tie an aliased tree, the earlier one), and its index (0: ``plain``,
    k: the k-th of ``aliased``). A tree whose lower bound is above the plain plan's peak is
    not planned, and none is planned after one that is no larger than the plain plan."""
    plan = plan_tree(plain, mode, strategy, options, align)
    plan.unaliased_peak = plan.peak
    best: tuple[int, TreePlan] | None = None
    for k, tree in enumerate(aliased, start=1):
        if cf_lower_bound(tree) > plan.peak:
            continue  # every plan of it is larger than the plain one
        candidate = plan_tree(tree, mode, strategy, options, align)
        if best is None or candidate.peak < best[1].peak:
            best = k, candidate
        if candidate.peak <= plan.peak:
            break
    if best is None or best[1].peak > plan.peak:
        return 0, plan
    best[1].unaliased_peak = plan.peak
    return best
