"""The shared evaluator of ``nn-place``'s searches: one placement (``Config``) of one
function, built and measured.

``Evaluator`` holds one function of a module whose ops carry ``KEY_ATTR``, the budget a
search aims at, what it spent and why it moved. ``measure`` gives a placement's on-chip need,
latency and the tensors at its peak (``Measure``): from the function's records when it has
no loop (cfmem.planning.placed_program), else by building it (``build``: the placement
attributes written, weights sliced, DMA inserted) and reading its liveness and DMA events.
Every search of one module and chip shares what was measured (``Measured``); past its share
of work (``max_placements``) a search is refused new placements like ones that cannot be
built. The search strategies (cfmem.passes.place_shrink, place_grow, place_fill) extend it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property

from xdsl.dialects import func
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i64
from xdsl.ir import Operation, SSAValue
from xdsl.utils.exceptions import PassFailedException

from cfmem.dialects.nn_compute import ComputeOp
from cfmem.dialects.nn_dma import DmaBufferOp, DmaStartOp
from cfmem.dialects.nn_weights import ReshapeOp
from cfmem.dialects.types import tensor_bytes
from cfmem.dma.events import Block as EventBlock
from cfmem.dma.timing import Chip, all_paths_compute, simulate
from cfmem.passes.aliases import find_aliases
from cfmem.passes.dma_events import function_events
from cfmem.passes.insert_dma import InsertDmaPass, check_inserted, weight_operands
from cfmem.passes.liveness import analyze_function, functions, is_read_only, memory_readers
from cfmem.passes.place_records import FunctionRecords, supports
from cfmem.passes.placement import (
    SLICES_ATTR,
    DEPTH_ATTR,
    is_resident,
    set_function_int,
    set_offchip,
    set_weight_place,
)
from cfmem.planning.placed_nodes import program_ops
from cfmem.planning.placed_program import measure_program
from cfmem.planning.regions import peak_tensors

MAX_DEPTH = 8
"""Deepest DMA rotation tried."""
PLACEMENT_OPS = 30_000
MIN_PLACEMENTS = 60
"""A search measures at most max(MIN_PLACEMENTS, PLACEMENT_OPS / ops in the function) placements'
worth of ops, plus what shrinking spent before growing (see ``place_search._Search.run``): a placement with its weights cut in slices counts its ops after slicing (one cut
in 8 slices costs about what 2 or 3 unsliced placements do). A fixed amount of work whatever the
model's size and however finely the search slices (measuring a placement costs time in
proportion to its ops), the same on every machine, so the result is deterministic."""
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


class Evaluator:
    """One function's placements measured against a budget, for the search strategies."""

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

    def floor_measure(self) -> Measure:
        return self.measure(self.floor())

    def floor(self) -> Config:
        """Everything that can leave the chip off it: weights read in place, results off chip."""
        weights = tuple((k, "offchip") for k in self.weighted)
        return Config(depth=1, weights=weights, offchip=frozenset(self.movable))

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

    def result_bytes(self, key: int) -> int:
        return sum(tensor_bytes(r.type) for r in self.ops[key].results)

    def weight_bytes(self, key: int) -> int:
        return sum(tensor_bytes(w.type) for w in weight_operands(self.ops[key]))

    def weights_read(self, key: int) -> frozenset:
        """The weight values op ``key`` reads: ops reading the same ones share a resident copy."""
        return frozenset(weight_operands(self.ops[key]))


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
