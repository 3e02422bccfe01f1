"""Anytime exact search for the smallest peak (MiniMalloc-style branch and bound).

``plan_search`` starts from the best greedy plan and answers decision problems
"do all buffers fit below capacity C?" for capacities between the lower bound
and the best peak found. Each decision problem is a depth-first search in the
spirit of MiniMalloc (Moffitt, ASPLOS'24):

- Only *canonical* placements: buffers are placed in non-decreasing order of
  offset (ties by a static preorder), each at the lowest offset its placed
  conflicting buffers allow (0, or the aligned top of one of them). Any plan
  can be compacted into such a sequence without raising its peak.
- Dynamic ordering: the unplaced buffers are tried in order of that lowest
  offset, so the first dive is a "skyline" heuristic.
- Dominance: nothing is placed at or above the top another unplaced buffer
  could reach below it (that buffer could always be moved down).
- Cross-section inference: in every *clique* of mutually conflicting buffers
  (the buffers live together just before one dies; with branch paths, those
  of them on one execution path) the unplaced members stack above the lowest
  offset any of them may take and above the next placement, and must fit
  below C.
- Lifting: a buffer whose key is below the last placement's can only be
  placed on top of an unplaced neighbour placed later (at or above the next
  placement), so its lowest offset is raised to the lowest top such a
  neighbour can reach before the cliques are checked (not in MiniMalloc).
- Monotonic floor: every clique's unplaced members (the next placement
  included) stack above the next placement's offset. This is checked for
  each candidate before descending; as the candidates come in increasing
  offset, the first that fails ends the node. The candidates it rejects are
  most of the children the inference would refute, and cost no node.
- Decomposition: where no unplaced buffer spans a time boundary the two sides
  are independent and are solved one after the other, once the inference
  has passed on the whole. As in MiniMalloc, each side is then ranked afresh
  by the preorder with T taken from the clique totals left, and its canonical
  order starts over. At the top level each independent group keeps its own
  best plan.
- Memory: search states (unplaced buffers, their lowest offsets, their
  ranks, the last placement) whose every branch failed are remembered with the capacity,
  so a restart with a larger node limit skips what it already refuted
  (states the inference refutes without branching are cheaper to refute
  again than to look up, and are not remembered).

Schedule: rounds with doubling node limits (starting at two per buffer) and
three static preorders tried in turn, as MiniMalloc's round robin. Each round
first probes the lower bound (the search is strongest on tight problems),
then binary-searches between the lower bound and the best peak with smaller
limits. When a probe runs out of nodes, its deepest partial placement is
completed by first fit, which sometimes still lowers the peak.

``proven_optimal`` is set only when the peak equals the lower bound or the
capacity one below the peak was refuted exhaustively. ``stats`` has
``lower_bound``, ``proven_lower_bound``, ``nodes``, ``decisions``,
``greedy_peak`` and ``seconds``. Everything is deterministic except where the
wall-clock ``options.time_limit`` cuts the search short. Problems too large
for the tables (millions of section memberships) keep the greedy plan.

The static tables are in cfmem.planning.search_tables, the decision search in
cfmem.planning.search_decider; this module holds the schedule (``_Optimizer``, ``plan_search``).
"""

from __future__ import annotations

import sys
import time

from cfmem.planning.greedy import plan_best_fit, plan_large_first, plan_sequential, plan_short_first
from cfmem.planning.problem import Placement, PlanOptions, Problem, lower_bound, peak_of
from cfmem.planning.search_decider import _Decider, _Stop
from cfmem.planning.search_tables import _Model, _TooBig

HEURISTICS = ("TWA", "WAT", "TAW")
"""Static preorders tried in turn (MiniMalloc's: T = largest cross-section
total, W = lifetime length, A = lifetime x size; all descending)."""
TOLERANCE = 256
"""The binary search stops when the gap left is below lower_bound / TOLERANCE."""
SEARCH_SHARE = 4
"""Node limit of a binary-search probe: that of the lower-bound probe / SEARCH_SHARE."""
_NODE_BUDGET: int | None = None
"""Experiments only: a total node budget, which makes runs independent of the clock."""
INCUMBENT_STRATEGIES = (plan_large_first, plan_best_fit, plan_short_first, plan_sequential)
"""The greedy plans the search starts from, fastest first."""


def _greedy_incumbent(problem: Problem, options: PlanOptions, deadline: float) -> dict[str, int]:
    """The best plan among the greedy strategies that fit in the time (the first always runs)."""
    candidates = [INCUMBENT_STRATEGIES[0](problem, options).offsets]
    for strategy in INCUMBENT_STRATEGIES[1:]:
        if time.perf_counter() < deadline:
            candidates.append(strategy(problem, options).offsets)
    return min(candidates, key=lambda offsets: peak_of(problem.buffers, offsets))


class _Optimizer:
    """Capacity descent over the independent groups of one problem."""

    def __init__(self, model: _Model, offsets: list[int], deadline: float):
        self.model = model
        self.deadline = deadline
        self.groups = model.split()
        self.offsets = list(offsets)
        self.group_peak = [self._peak(g.tolist()) for g in self.groups]
        self.ranks = {h: model.preorder(h) for h in HEURISTICS}
        self.failed: dict[str, dict[int, int]] = {h: {} for h in HEURISTICS}
        self.order = list(HEURISTICS)
        self.nodes = 0
        self.decisions = 0
        self.node_budget = _NODE_BUDGET

    def out_of_time(self) -> bool:
        if self.node_budget is not None and self.nodes >= self.node_budget:
            return True
        return time.perf_counter() > self.deadline

    def _peak(self, members: list[int]) -> int:
        return max(self.offsets[i] + self.model.size[i] for i in members)

    @property
    def peak(self) -> int:
        return max(self.group_peak)

    def _adopt(self, g: int, offsets: dict[int, int]) -> None:
        """Keep ``offsets`` for group ``g`` if they lower its peak."""
        size = self.model.size
        peak = max(o + size[i] for i, o in offsets.items())
        if peak < self.group_peak[g]:
            for i, o in offsets.items():
                self.offsets[i] = o
            self.group_peak[g] = peak

    def decide(self, capacity: int, node_limit: int) -> bool | None:
        """Try to fit every group below ``capacity``: True (found, kept),
        False (proven impossible) or None (not settled within the limits)."""
        self.decisions += 1
        outcome: bool | None = True
        # Highest peak first; every group is tried, as each is independent.
        for g in sorted(range(len(self.groups)), key=lambda g: -self.group_peak[g]):
            group = self.groups[g]
            if self.group_peak[g] <= capacity:
                continue
            settled = False
            deepest: tuple[int, dict[int, int]] = (-1, {})
            for h in list(self.order):
                limit = node_limit
                if self.node_budget is not None:
                    limit = min(limit, self.node_budget - self.nodes)
                    if limit <= 0:
                        return None
                dec = _Decider(self.model, self.ranks[h], capacity, limit, self.deadline, self.failed[h], keys=h)
                try:
                    found = dec.run(group)
                except _Stop:
                    self.nodes += dec.nodes
                    if dec.best_depth > deepest[0]:
                        deepest = (dec.best_depth, dec.best_partial)
                    if self.out_of_time():
                        break
                    continue
                self.nodes += dec.nodes
                if not found:
                    return False  # exhaustive: no heuristic can do better
                members = group.tolist()
                for i in members:
                    self.offsets[i] = dec.sol[i]
                self.group_peak[g] = self._peak(members)
                self.order.remove(h)
                self.order.insert(0, h)
                settled = True
                break
            if not settled:
                # Not placed below the capacity: complete the deepest partial
                # placement greedily, which sometimes still lowers the peak.
                self._adopt(g, self.model.complete(group.tolist(), deepest[1]))
                outcome = None
                if self.out_of_time():
                    break
        return outcome


def plan_search(problem: Problem, options: PlanOptions) -> Placement:
    """Anytime branch and bound for the smallest peak; see the module docstring."""
    began = time.perf_counter()
    deadline = began + max(0.0, options.time_limit)
    offsets = {b.id: 0 for b in problem.buffers if b.size == 0}
    live = [b for b in problem.buffers if b.size > 0]
    if not live:
        return Placement(offsets, proven_optimal=True, stats={"lower_bound": 0.0, "nodes": 0.0})
    bound = lower_bound(live)
    incumbent = _greedy_incumbent(Problem(live, problem.name), options, began + 0.25 * options.time_limit)
    greedy_peak = peak_of(live, incumbent)
    try:
        model = _Model(live)
    except _TooBig:
        offsets.update(incumbent)
        stats = {
            "lower_bound": float(bound),
            "proven_lower_bound": float(bound),
            "nodes": 0.0,
            "greedy_peak": float(greedy_peak),
            "too_big": 1.0,
        }
        return Placement(offsets, proven_optimal=greedy_peak == bound, stats=stats)
    opt = _Optimizer(model, [incumbent[b.id] for b in live], deadline)
    lo, hi = bound, opt.peak  # lo: proven lower bound, hi: best peak found
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 4 * model.n + 1000))
    try:
        limit = 2 * model.n
        tolerance = max(1, bound // TOLERANCE)
        while lo < hi and not opt.out_of_time():
            # One round at this node limit: the bound itself first (tight
            # decision problems are where this search shines, and its failed
            # states are remembered, so the rounds add up), then a binary
            # search between the bound and the best peak with a smaller limit.
            capacity, soft, node_limit = lo, lo, limit
            while not opt.out_of_time():
                result = opt.decide(capacity, node_limit)
                hi = opt.peak
                if result is False:
                    lo = capacity + 1
                soft = max(soft, capacity + 1) if result is not True else soft
                if lo >= hi or hi - soft <= tolerance:
                    break
                capacity = (soft + hi) // 2
                node_limit = max(2 * model.n, limit // SEARCH_SHARE)
            limit *= 2
    finally:
        sys.setrecursionlimit(old_limit)
    offsets.update({b.id: opt.offsets[i] for i, b in enumerate(live)})
    stats = {
        "lower_bound": float(bound),
        "proven_lower_bound": float(lo),
        "nodes": float(opt.nodes),
        "decisions": float(opt.decisions),
        "greedy_peak": float(greedy_peak),
        "seconds": time.perf_counter() - began,
    }
    return Placement(offsets, proven_optimal=lo >= hi, stats=stats)
