"""``nn-place``: choose where every weight and activation lives so the function fits
an on-chip budget, at the lowest modeled latency.

The choices are the attributes of cfmem.passes.placement (plus ``cfmem.slices``
when a weight is computed slice by slice, see ``nn-slice-weights``). A
placement is judged by what building it gives: the function sliced, given its
DMA transfers (``nn-insert-dma``), and measured by

- its on-chip need: the path-exact lower bound of its on-chip tensors, DMA and
  resident buffers included (the real plan is checked afterwards, and the
  search repeated with the budget tightened by the planner's gap if it does
  not fit);
- its latency: cfmem.dma.timing's simulation, the one place costs live
  (off-chip access by compute, transfers, stalls), along the path its
  latency is reported on (``cfmem compile``'s timed path), or else along
  each placement's slower path.

A function without ``nn.loop`` is read once into plain records
(``cfmem.passes.place_records``), and each placement is measured from them
without building IR (``cfmem.planning.placed_program``: the same need, latency
and peak, several times faster); a function with loops is copied and built.

Five searches run: one that may slice weights, one that may not, and three
that may slice for 3/4, 9/16 and 1/2 of the budget; the fastest placement
wins. Each, per function:

1. everything on chip, weights streamed whole; the DMA depth (1 = sync, up
   to ``MAX_DEPTH`` buffers in rotation) that is fastest within the budget;
2. while the function does not fit: look at the tensors live at its peak and
   try, for each kind, the largest candidate: a shallower DMA rotation; the
   op whose weight sizes the largest DMA buffer there computed in twice as
   many slices, or reading its weights off chip; the largest activation
   there moved to the off-chip arena; the largest resident weight streamed
   again. The move with the least added latency per byte saved is kept;
   The search also grows from the floor (everything that can leave the chip
   off it: weights read in place, results off chip), taking moves back while
   they fit and are faster, in runs that double while they do (see
   ``_Search.undo_moves``), in three orders (see ``_Search.grow``); each
   result is finished by step 3 and the fastest kept; shrinking gives up
   after ``SHRINK_EVALUATIONS`` placements. Shrinking runs first, and
   growing then has a whole share of the cap of its own (on a model with
   hundreds of ops, growing could spend the cap before shrinking ran, while
   a few moves from the top fit far better: shufflenet at half its peak).
   A budget below the floor's need is an error at once;
3. with room left: weights made resident, smallest first, while they fit and
   the latency drops; then each earlier move undone if it now fits and is
   faster.

Each branch path decides on its own: the candidates are ops and tensors, and
the peak is found on one path. A budget below what the immovable tensors at
the peak need (an if's results, which stay on chip) is an error naming them.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import cached_property

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i64
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from cfmem.dialects.nn_compute import ComputeOp
from cfmem.dialects.nn_dma import DmaBufferOp, DmaStartOp
from cfmem.dialects.nn_weights import ReshapeOp
from cfmem.dialects.types import tensor_bytes
from cfmem.dma.events import Block as EventBlock
from cfmem.dma.timing import Chip, all_paths_compute, simulate
from cfmem.passes.aliases import find_aliases
from cfmem.dialects.flat_form import BUDGET_ATTR
from cfmem.passes.dma_events import function_events
from cfmem.passes.insert_dma import InsertDmaPass, check_inserted, weight_operands
from cfmem.passes.liveness import analyze_function, functions, is_read_only, memory_readers
from cfmem.passes.options import checked_options
from cfmem.passes.place_records import FunctionRecords, supports
from cfmem.passes.placement import (
    SLICES_ATTR,
    DEPTH_ATTR,
    is_resident,
    set_function_int,
    set_offchip,
    set_weight_place,
)
from cfmem.planning.option_checks import check_budget
from cfmem.planning.placed_nodes import program_ops
from cfmem.planning.placed_program import measure_program
from cfmem.planning.regions import peak_tensors

MAX_DEPTH = 8
"""Deepest DMA rotation tried."""
DEEPEN_DOUBLINGS = 3
"""How many times ``deepen`` may double every slice count for one more DMA buffer."""
PLACEMENT_OPS = 30_000
MIN_PLACEMENTS = 60
"""A search measures at most max(MIN_PLACEMENTS, PLACEMENT_OPS / ops in the function) placements'
worth of ops, plus what shrinking spent before growing (see ``_Search.run``): a placement with its weights cut in slices counts its ops after slicing (one cut
in 8 slices costs about what 2 or 3 unsliced placements do). A fixed amount of work whatever the
model's size and however finely the search slices (measuring a placement costs time in
proportion to its ops), the same on every machine, so the result is deterministic."""
SHRINK_EVALUATIONS = 150
"""Placements shrinking may build before it gives way to growing from the floor (far below
the need of everything on chip, one move at a time is slow)."""
UNDO_SLICE_DOUBLINGS = 6
"""Growing from the floor tries a weight read in place streamed in up to 2**6 slices."""
UNDO_PASSES = 3
"""Passes over the moves taken back (a move that did not fit may fit after others)."""
ACTIVATION_CANDIDATES = 3
"""Largest activations at the peak tried as off-chip moves each step."""
KEY_ATTR = "cfmem.place_key"
"""Marks ops while the search runs, so copies can be traced back to them."""


@dataclass(frozen=True)
class Config:
    """One placement: a DMA depth and, by op key, weight places, slices and off-chip results."""

    depth: int = 2
    weights: tuple[tuple[int, str], ...] = ()
    slices: tuple[tuple[int, int], ...] = ()
    offchip: frozenset[int] = frozenset()
    prefetch: frozenset[int] = frozenset()
    """Off-chip results read back by DMA (a subset of ``offchip``)."""
    evict: frozenset[int] = frozenset()
    """Off-chip results also written out by DMA from on chip (a subset of ``prefetch``)."""

    @cached_property
    def _places(self) -> dict[int, str]:
        return dict(self.weights)

    @cached_property
    def _slice_counts(self) -> dict[int, int]:
        return dict(self.slices)

    def weight_of(self, key: int) -> str:
        return self._places.get(key, "stream")

    def slices_of(self, key: int) -> int:
        return self._slice_counts.get(key, 1)

    def with_weight(self, key: int, place: str) -> Config:
        weights = {**dict(self.weights), key: place}
        return replace(self, weights=tuple(sorted((k, p) for k, p in weights.items() if p != "stream")))

    def with_slices(self, key: int, count: int) -> Config:
        slices = {**dict(self.slices), key: count}
        return replace(self, slices=tuple(sorted((k, n) for k, n in slices.items() if n > 1)))


@dataclass
class Decision:
    """One line of the placement table: what, where it lives, why, bytes, cycles."""

    what: str
    where: str
    why: str
    nbytes: int
    cycles: float


@dataclass
class Measure:
    config: Config
    need: int
    """On-chip lower bound of the placed function, in bytes."""
    cycles: float
    """Modeled latency on the slowest path."""
    work: float
    """Compute cycles on every path: among equally fast placements, the one better off the slowest path."""
    peak: list[tuple[str, int, int | None]] = field(default_factory=list)
    """Tensors live at the peak: (kind, bytes, op key), kind 'dma', 'resident', 'activation', 'fixed'
    or 'scratch' (an op's kernel scratch)."""
    peak_ops: dict[int, list[int]] = field(default_factory=dict)
    """For each DMA buffer at the peak (by index into ``peak``), the keys of the ops it serves."""
    decisions: list[Decision] = field(default_factory=list)
    """The placement table, filled in for the placement chosen."""
    ops: int = 0
    """Ops of the placed function after slicing, before DMA insertion: what measuring it cost."""


Measured = dict[tuple[str, tuple | None, Config], "Measure | PassFailedException"]
"""Placements measured, by function name, timed path and config, or why one cannot be built.
A placement's need and latency do not depend on the budget a search aims at, so the searches
for one module and chip share them: the five searches of a budget, and the searches of every
budget tried for that module (``place_module``'s ``measured``)."""


class PlacementError(PassFailedException):
    """No placement fits the budget; the message names what cannot move, ``need`` the
    on-chip bytes the best placement found still needs."""

    def __init__(self, message: str, need: int):
        super().__init__(message)
        self.need = need


class _Search:
    """Placement search for one function of a module whose ops carry ``KEY_ATTR``."""

    def __init__(
        self,
        module: ModuleOp,
        fn_name: str,
        chip: Chip,
        budget: int,
        slicer,
        path: dict[str, bool] | None = None,
        measured: Measured | None = None,
        records: FunctionRecords | None = None,
    ):
        self.module = module
        self.records = records
        """The function read as plain records, when it has no loop (``place_records.supports``):
        placements are then measured without building them."""
        self.path = path
        """The branch each if takes when timing; None: each placement's slower path."""
        self.fn_name = fn_name
        self.chip = chip
        self.budget = budget
        self.slicer = slicer
        self.cache: dict[Config, Measure] = {}
        """The placements this search measured (its own count, whoever built them)."""
        self.spent = 0.0
        """Placements' worth of ops measured: each placement in ``cache`` counts its ops over the function's."""
        self.measured: Measured = {} if measured is None else measured
        fn = self.function(module)
        self.function_ops = sum(1 for _ in fn.walk())
        self.max_placements = max(MIN_PLACEMENTS, PLACEMENT_OPS // self.function_ops)
        self.reasons: dict[tuple[str, int], str] = {}
        """Why each move the search made was made: by ("weights" or "result", op key), or ("depth", 0)."""
        self.ops: dict[int, Operation] = {_key(op): op for op in fn.walk() if KEY_ATTR in op.attributes}
        self.weighted = [k for k, op in self.ops.items() if weight_operands(op)]
        returned = set(fn.body.block.last_op.operands) if fn.body.block.last_op else set()
        self.movable = [k for k, op in self.ops.items() if _movable(op) and not set(op.results) & returned]
        """Ops whose results may move off chip (a function's results are not planned at all)."""

    def function(self, module: ModuleOp) -> func.FuncOp:
        return next(f for f in functions(module) if f.sym_name.data == self.fn_name)

    # --- measuring a placement ---------------------------------------------------

    def build(self, config: Config) -> tuple[ModuleOp, int]:
        """A copy of the module with ``config`` applied and DMA inserted (other functions
        untouched), and the ops of the function before DMA insertion."""
        module = self.module.clone()
        _apply(config, self.function(module), self.weighted)
        if config.slices:
            self.slicer(module)
        ops = sum(1 for _ in self.function(module).walk())
        InsertDmaPass().insert_module(module, checked=False)  # measure checks the events it builds
        return module, ops

    def measure(self, config: Config) -> Measure:
        """``config`` built and measured (once). Past ``self.max_placements`` placements' worth
        of ops a new placement is refused like one that cannot be built, so every phase ends
        with what it has."""
        if config in self.cache:
            return self.cache[config]
        if self.spent >= self.max_placements:
            raise PassFailedException(f"the search measured its {self.max_placements} placements' worth of ops")
        if config.slices and self.slicer is None:
            raise PassFailedException("this search does not slice")
        key = (self.fn_name, None if self.path is None else tuple(sorted(self.path.items())), config)
        known = self.measured.get(key)
        if isinstance(known, PassFailedException):
            raise known
        if known is None:
            try:
                known = self._measure_new(config)
            except PassFailedException as err:
                self.measured[key] = err
                raise
            self.measured[key] = known
        self.cache[config] = known
        self.spent += known.ops / self.function_ops
        return known

    def _measure_new(self, config: Config) -> Measure:
        """``config`` measured for the first time: from the records when there are some, else built."""
        return self._measure_records(config) if self.records is not None else self._measure_built(config)

    def _measure_records(self, config: Config) -> Measure:
        """``config`` measured from the function's records (``cfmem.planning.placed_program``):
        the same need, latency and peak as ``_measure_built``, without building IR."""
        records = self.records.program(dict(config.slices))
        flags = self.records.flags(dict(config.weights), config.offchip, config.prefetch, config.evict)
        placed = measure_program(records, self.records.values, flags, config.depth, self.records.events)
        measure = Measure(config, placed.need, *self.latency(placed.events), placed.peak, placed.peak_ops)
        measure.ops = self.function_ops + program_ops(records) - self.records.ops
        return measure

    def latency(self, events: EventBlock) -> tuple[float, float]:
        """A placement's cycles on the timed path and its compute on every path (``Measure``'s)."""
        return simulate(events, self.chip, self.path, lanes=False).cycles, all_paths_compute(events, self.chip)

    def _measure_built(self, config: Config) -> Measure:
        module, ops = self.build(config)
        fn = self.function(module)
        info = analyze_function(fn, aliases=find_aliases(fn))  # as nn-plan-memory will share bytes
        need, tensors = peak_tensors(info.tree)
        value_of = {t.id: v for v, t in info.tensor_of.items()}
        scratch_of = {t.id: op for op, t in info.scratch_of.items()}
        events = function_events(fn)
        check_inserted(events)
        result = Measure(config, need, *self.latency(events), ops=ops)
        for tensor in tensors:
            if tensor.id in scratch_of:
                op = scratch_of[tensor.id]
                result.peak.append(("scratch", tensor.size, _key(op) if KEY_ATTR in op.attributes else None))
                continue
            value = value_of[tensor.id]
            owner = value.owner
            if isinstance(owner, DmaBufferOp):
                kind = "resident" if is_resident(owner) else "dma"
                result.peak_ops[len(result.peak)] = _served_keys(value)
                result.peak.append((kind, tensor.size, None))
            elif isinstance(owner, Operation) and KEY_ATTR in owner.attributes and _movable(owner):
                result.peak.append(("activation", tensor.size, _key(owner)))
            else:
                result.peak.append(("fixed", tensor.size, _key(owner) if isinstance(owner, Operation) and KEY_ATTR in owner.attributes else None))
        return result

    def fits(self, m: Measure) -> bool:
        return m.need <= self.budget

    # --- the search ----------------------------------------------------------------

    def floor_measure(self) -> Measure:
        return self.measure(self.floor())

    def run(self) -> Measure:
        floor = self.floor_measure()
        if not self.fits(floor):
            raise PlacementError(self.stuck_message(floor), floor.need)
        streamed = [self.measure(Config(depth=d)) for d in range(1, MAX_DEPTH + 1)]
        fitting = [m for m in streamed if self.fits(m)]
        smallest = min(streamed, key=lambda m: (m.need, m.cycles))
        if fitting:
            starts = [min(fitting, key=lambda m: (m.cycles, m.work, m.need))]
        else:
            starts, spent = [], self.spent
            try:  # shrink from the top first: a few moves, where growing a model with hundreds of ops takes many
                starts.append(self.shrink(smallest))
            except PlacementError:
                pass  # greedy moves can stall, or take too long, where growing from the floor does not
            self.max_placements += self.spent - spent  # growing keeps a whole share of its own
            starts = self.grow(floor) + starts
        finished = [self.finish(m) for m in {m.config: m for m in starts}.values()]
        return min(finished, key=lambda m: (m.cycles, m.work, m.need))

    def finish(self, m: Measure) -> Measure:
        """Resident weights, needless moves taken back, deeper rotations, resident weights again."""
        m = self.deepen(self.undo_moves(self.add_resident(m)))
        return self.add_resident(m)  # deeper rotations with finer slices may leave room

    def floor(self) -> Config:
        """Everything that can leave the chip off it: weights read in place, results off chip."""
        weights = tuple((k, "offchip") for k in self.weighted)
        return Config(depth=1, weights=weights, offchip=frozenset(self.movable))

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

    def stuck_message(self, m: Measure) -> str:
        fixed = [(size, key, kind) for kind, size, key in m.peak if kind in ("fixed", "scratch")]
        named = ", ".join(
            f"{'the scratch of ' if kind == 'scratch' else ''}'{self.ops[key].name}' %{self.ops[key].results[0].name_hint or '?'}"
            f" ({size} bytes)" if key is not None else f"{size} bytes"
            for size, key, kind in sorted(fixed, key=lambda f: f[0], reverse=True)[:3]
        )
        return (
            f"function @{self.fn_name} needs at least {m.need} bytes of on-chip memory, more than the budget"
            f" of {self.budget}: what stays on chip at its peak ({named or 'nothing movable'}) cannot move"
        )

    def back_on_chip_order(self, keys) -> list[int]:
        """Off-chip results in the order growing brings them back: the most read first (each
        read in place costs its bytes again), then the smallest (more of them fit)."""
        def reads(k: int) -> int:
            return sum(len(list(r.uses)) for r in self.ops[k].results)

        return sorted(keys, key=lambda k: (-reads(k), self.result_bytes(k), k))

    def result_bytes(self, key: int) -> int:
        return sum(tensor_bytes(r.type) for r in self.ops[key].results)

    def weight_bytes(self, key: int) -> int:
        return sum(tensor_bytes(w.type) for w in weight_operands(self.ops[key]))

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

    def weights_read(self, key: int) -> frozenset:
        """The weight values op ``key`` reads: ops reading the same ones share a resident copy."""
        return frozenset(weight_operands(self.ops[key]))

    def grow(self, floor: Measure) -> list[Measure]:
        """Grow from the floor three ways: weights streamed again first; results on chip
        again first, the most read and smallest first; and results first, the latest first.
        Which fills the budget best depends on the model (DMA buffers taken first can leave
        no room for any result, as in dscnn; a chain's early results brought back first can
        keep every later one off chip, as in denoise), and which ends fastest depends on the
        steps after, so every way is finished and the fastest kept."""
        return [
            self.undo_moves(floor),
            self.undo_moves(floor, results_first=True),
            self.undo_moves(floor, results_first=True, order=lambda keys: sorted(keys, reverse=True)),
        ]

    def undo_moves(self, m: Measure, results_first: bool = False, order=None) -> Measure:
        """Take back each move that is no longer needed and now only costs time, in passes
        over the moves (at most ``UNDO_PASSES``) until one changes nothing; results come back
        in ``order`` (default ``back_on_chip_order``), before weights with ``results_first``. A weight read in
        place is tried streamed whole, then in 2, 4, ... slices, so growing from the floor
        reaches the slices a weight too large for the budget needs.

        Moves are taken back in runs: after a move is taken back, the next two are tried
        together (a weight streamed whole), then four, and so on while each run fits and is
        faster; a run that does not is tried again one move at a time. Growing from the floor
        of a model with hundreds of ops takes back most moves, and measuring each alone would
        spend the search's placements on the first ones. The deeper rotations are always tried
        one at a time (each must beat the one before)."""
        for _ in range(UNDO_PASSES):
            before = m
            undos = _undos(m.config, order or self.back_on_chip_order, results_first)
            movable = len(undos) - (MAX_DEPTH - m.config.depth)  # the deeper rotations come last
            i, chunk = 0, 1
            while i < len(undos):
                if chunk > 1 and i + 1 < movable:
                    group = undos[i:min(i + chunk, movable)]
                    config = m.config
                    for undo in group:
                        config = undo(config)[0]
                    try:
                        candidate = self.measure(config)
                    except PassFailedException:
                        candidate = None
                    if candidate is not None and self.fits(candidate) and _faster(candidate, m):
                        m, i, chunk = candidate, i + len(group), chunk * 2
                        continue
                    chunk = 1
                taken = False
                for config in undos[i](m.config):
                    try:
                        candidate = self.measure(config)
                    except PassFailedException:
                        break  # no finer slices
                    if self.fits(candidate):
                        if _faster(candidate, m):
                            m, taken = candidate, True
                        break
                i += 1
                chunk = 2 if taken else 1
            if m is before:
                break
        return m


def _undos(c: Config, order=sorted, results_first: bool = False) -> list:
    """Functions each giving the ways to take one of ``c``'s moves back from a placement, in
    the order tried: weights streamed again (four times faster than read in place; whole, then
    in ever finer slices), half the slices, a result on chip again, a deeper rotation. With
    ``results_first`` the results come first: a result read in place costs its bytes at every
    read and write, and DMA buffers taken by weights first can leave no room for any result."""
    def stream(x: Config, k: int) -> list[Config]:
        whole = x.with_weight(k, "stream")
        return [whole] + [whole.with_slices(k, 2**n) for n in range(1, UNDO_SLICE_DOUBLINGS + 1)]

    weights = [lambda x, k=k: stream(x, k) for k, p in c.weights if p == "offchip"]
    weights += [lambda x, k=k: [x.with_slices(k, x.slices_of(k) // 2)] for k, _ in c.slices]
    results = [
        lambda x, k=k: [replace(x, offchip=x.offchip - {k}, prefetch=x.prefetch - {k}, evict=x.evict - {k})]
        for k in order(c.offchip)
    ]
    undos = results + weights if results_first else weights + results
    undos += [lambda x, d=d: [replace(x, depth=max(x.depth, d))] for d in range(c.depth + 1, MAX_DEPTH + 1)]
    return undos


def _apply(config: Config, fn: func.FuncOp, weighted: list[int]) -> None:
    """Write ``config`` onto ``fn``'s keyed ops as placement attributes (one lookup per op:
    this runs for every placement measured)."""
    has_weights = set(weighted)
    for op in fn.walk():
        if KEY_ATTR not in op.attributes:
            continue
        key = _key(op)
        if key in has_weights:
            set_weight_place(op, config.weight_of(key))
            if config.slices_of(key) > 1:
                op.attributes[SLICES_ATTR] = IntegerAttr(config.slices_of(key), i64)
        set_offchip(op, key in config.offchip, key in config.prefetch, key in config.evict)
    set_function_int(fn, DEPTH_ATTR, config.depth)


def _faster(a: Measure, b: Measure) -> bool:
    """Whether ``a`` beats ``b``: less latency, or as much and less compute off the slowest path."""
    return (a.cycles, a.work) < (b.cycles, b.work)


def _reads(reader: Operation, producer: Operation) -> bool:
    return any(v.owner is producer for v in reader.operands)


def _key(op: Operation) -> int:
    attr = op.attributes[KEY_ATTR]
    assert isinstance(attr, IntegerAttr)
    return attr.value.data


def _movable(op: Operation) -> bool:
    """Ops whose results may live off chip: compute ops (and copies of reshapes)."""
    return isinstance(op, ComputeOp) or (isinstance(op, ReshapeOp) and not is_read_only(op.result))


def _served_keys(buffer: SSAValue) -> list[int]:
    """Keys of the ops reading weights a DMA buffer holds."""
    keys: list[int] = []
    for reader in memory_readers(buffer):
        if KEY_ATTR in reader.attributes and not isinstance(reader, DmaStartOp) and _key(reader) not in keys:
            keys.append(_key(reader))
    return keys


def _slicer():
    """``nn-slice-weights`` as a function of a module, or None where it is not available."""
    try:
        from cfmem.passes.slice_weights import SliceWeightsPass
    except ImportError:
        return None
    return lambda module: SliceWeightsPass().slice_module(module, verified=False)


def _records(module: ModuleOp, fn_name: str) -> FunctionRecords | None:
    """Function ``fn_name`` of the keyed ``module`` read as records, when it can be
    (``place_records.supports``); else None, and placements are built as IR."""
    fn = next(f for f in functions(module) if f.sym_name.data == fn_name)
    return FunctionRecords(module, fn_name, KEY_ATTR, _slicer() is not None) if supports(fn) else None


def _best_search(
    module: ModuleOp,
    fn_name: str,
    chip: Chip,
    budget: int,
    path: dict[str, bool] | None = None,
    measured: Measured | None = None,
) -> tuple[_Search, Measure]:
    """The fastest of five searches: with and without slicing, and with slicing for 3/4, 9/16
    (3/4 of 3/4) and 1/2 of the budget (their placements fit this one too). The greedy moves
    differ, and none is always ahead; the last three keep a larger budget from doing worse
    than a smaller one at those ratios (the best at 3/4 of a budget often comes from its own
    search at 3/4, squeezenet1_1's), which greedy moves alone do not promise. Raises
    the ``PlacementError`` of the smallest need if the searches for the whole budget fail."""
    found: list[tuple[_Search, Measure]] = []
    errors: list[PlacementError] = []
    measured = {} if measured is None else measured
    records = _records(module, fn_name)
    for slicer, share in ((_slicer(), 1.0), (None, 1.0), (_slicer(), 0.75), (_slicer(), 0.5625), (_slicer(), 0.5)):
        search = _Search(module, fn_name, chip, int(budget * share), slicer, path, measured, records)
        try:
            found.append((search, search.run()))
        except PlacementError as err:
            if share == 1.0:
                errors.append(err)
    if not found:
        raise min(errors, key=lambda e: e.need)
    return min(found, key=lambda pair: (pair[1].cycles, pair[1].work, pair[1].need))


def place_module(
    module: ModuleOp,
    chip: Chip,
    budget: int | None = None,
    paths: dict[str, dict[str, bool]] | None = None,
    measured: Measured | None = None,
) -> dict[str, Measure]:
    """Place every function of ``module`` in ``budget`` bytes (default: the chip's) and write
    the placement attributes; returns each function's chosen placement, measured. A function
    named in ``paths`` is timed along that path (the one its latency is reported on), any
    other along each placement's slower path. ``measured`` (filled in) holds the placements
    measured for earlier budgets of the same module, chip and ``paths``."""
    budget = chip.onchip_bytes if budget is None else budget
    chosen: dict[str, Measure] = {}
    with _keyed(module):
        for fn in functions(module):
            path = (paths or {}).get(fn.sym_name.data)
            search, best = _best_search(module, fn.sym_name.data, chip, budget, path, measured)
            best = replace(best, decisions=_decisions(search, best, chip))  # measured is shared
            chosen[fn.sym_name.data] = best
            _apply(best.config, fn, search.weighted)
            set_function_int(fn, BUDGET_ATTR, budget)
    return chosen


def floor_need(
    module: ModuleOp,
    chip: Chip,
    paths: dict[str, dict[str, bool]] | None = None,
    measured: Measured | None = None,
) -> int:
    """The least budget ``place_module`` places ``module`` in: the largest on-chip need of a
    function's floor (everything that can leave the chip off it). Below it every search fails;
    at it every function's floor fits. ``module`` is left as it was; ``paths`` and ``measured``
    as for ``place_module``."""
    with _keyed(module):
        return max(
            (
                _Search(module, fn.sym_name.data, chip, 0, None, (paths or {}).get(fn.sym_name.data), measured,
                        _records(module, fn.sym_name.data))
                .floor_measure()
                .need
                for fn in functions(module)
            ),
            default=0,
        )


@contextmanager
def _keyed(module: ModuleOp) -> Iterator[None]:
    """``KEY_ATTR`` on every op of every function while the block runs."""
    keyed = [op for fn in functions(module) for op in fn.walk() if op is not fn]
    for k, op in enumerate(keyed):
        op.attributes[KEY_ATTR] = IntegerAttr(k, i64)
    try:
        yield
    finally:
        for op in keyed:
            op.attributes.pop(KEY_ATTR, None)


@dataclass(frozen=True)
class PlacePass(ModulePass):
    """Chooses where weights and activations live so each function fits on chip.

    Options: ``budget`` (on-chip bytes; default: the chip's ``onchip_bytes``),
    ``chip`` (path of a chip JSON file; default: cfmem.dma.timing.Chip()).
    """

    name = "nn-place"
    budget: int | None = None
    chip: str = ""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        with checked_options():
            check_budget("budget", self.budget)
        try:
            chip = Chip.load(self.chip) if self.chip else Chip()
        except (OSError, ValueError) as err:
            raise PassFailedException(f"nn-place: cannot read chip '{self.chip}': {err}") from None
        place_module(op, chip, self.budget)


def _label(op: Operation) -> str:
    name = op.results[0].name_hint if op.results and op.results[0].name_hint else "?"
    return f"%{name}"


def _decisions(search: _Search, best: Measure, chip: Chip) -> list[Decision]:
    """The placement table of ``best``: every weighted op, every off-chip result, the DMA depth."""
    c = best.config
    fastest = search.reasons.get(("depth", 0), "the fastest that fits")
    rows = [Decision("DMA rotation", f"{c.depth} buffer(s)" if c.depth > 1 else "sync (1 buffer)", fastest, 0, 0.0)]
    for key in search.weighted:
        op = search.ops[key]
        nbytes = search.weight_bytes(key)
        transfer = chip.transfer_cycles(nbytes)
        place = c.weight_of(key)
        if place == "resident":
            where, why, cycles = "resident", "room left: loaded once, no transfer per inference", 0.0
        elif place == "offchip":
            where, why = "read off chip", search.reasons.get(("weights", key), "")
            cycles = nbytes / chip.offchip_bytes_per_cycle
        elif c.slices_of(key) > 1:
            count = c.slices_of(key)
            where, why = f"streamed in {count} slices", search.reasons.get(("weights", key), "")
            cycles = count * chip.transfer_cycles(nbytes / count)  # one transfer per slice, each waits the latency
        else:
            where, why, cycles = "streamed whole", "fits in the DMA rotation", transfer
        rows.append(Decision(f"weights of {op.name} {_label(op)}", where, why, nbytes, cycles))
    for key in sorted(c.offchip):
        op = search.ops[key]
        nbytes = sum(tensor_bytes(r.type) for r in op.results)
        uses = sum(len(list(r.uses)) for r in op.results)
        cycles = nbytes * (1 + uses) / chip.offchip_bytes_per_cycle
        why = search.reasons.get(("result", key), "")
        if key in c.evict:
            where = "evicted to the off-chip arena and prefetched by DMA"
            cycles = (1 + uses) * chip.transfer_cycles(nbytes)
        elif key in c.prefetch:
            where = "off-chip arena, prefetched by DMA"
            cycles = nbytes / chip.offchip_bytes_per_cycle + uses * chip.transfer_cycles(nbytes)
        else:
            where = "off-chip arena, read in place"
        rows.append(Decision(f"{op.name} {_label(op)}", where, why, nbytes, cycles))
    return rows
