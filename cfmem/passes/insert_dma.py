"""``nn-insert-dma``: load each op's weights into on-chip buffers by DMA.

Regions follow the paper: a block is cut by its ``nn.if`` and ``nn.loop`` ops
into segments (start to first cut, between cuts, after the last), and every
branch and loop body is a block of its own. Inside a segment, the ops that read weights are taken in
execution order:

``pingpong``
    op k uses buffer k mod 2 (each sized by the largest weight total of its
    parity); op k+1's transfer starts right after op k's wait and before op k
    computes, so it overlaps op k. The first transfer starts at the segment's
    start. No transfer is outstanding when a segment ends.
``sync``
    one buffer; every op loads, waits, then computes (the baseline).

``depth=N`` (pingpong only, default 2) generalises ping-pong to N buffers in
rotation: op k+N-1's transfer starts after op k's wait, so a long transfer
can hide behind several short computes. A function's ``cfmem.dma_depth``
(written by ``nn-place``) overrides ``mode`` and ``depth`` for it: 1 is sync.

The placement attributes of cfmem.passes.placement are honoured: an op marked
``cfmem.weights = "offchip"`` keeps reading its weights from off-chip memory;
the weights of ops marked ``"resident"`` are loaded by one transfer into one
buffer at the function's entry (buffer and transfer marked ``cfmem.resident``),
which liveness keeps for the whole function and lowering moves into a
function of its own, run once before the first inference. An op marked
``cfmem.evict`` computes on chip; a transfer right after it copies its result
into an off-chip buffer (an ``nn.dma_buffer`` placed off chip), waited for
just before the result's first reader or after the next op, whichever comes
first, and before an ``nn.if`` or ``nn.loop`` that follows (no transfer crosses
a region's edge); every reader then gets the off-chip copy, prefetched like a weight.

Loops (``loop-weights``): with ``hoist`` (the default) the weights streamed
by the ops of a loop's body (nested ifs and loops included) are loaded once,
by one transfer into one buffer right before the loop (``cfmem.hoisted``),
and read there by every iteration; with ``stream``, when they exceed
``dma-budget``, or when an op of the loop was cut into slices
(``cfmem.slice_of``: small transfers were asked for), each iteration loads
them again like any block's weights.

In a streamed loop body, the first op's weights cross the back edge where the
rotation allows (``_prefetching_loop``): the body's buffers are defined before
the loop, the first weights are loaded there once, and each iteration loads
them again (``cfmem.reload``) into the same bytes while its last op computes,
so the next iteration starts without waiting; nothing is outstanding at an
iteration's end.

Buffers are ``nn.dma_buffer`` tensors planned like any other: ``buffers=region``
defines them at the start of each segment (so a branch's buffers live inside
its hoisted block), ``buffers=fixed`` defines one set at the function's entry,
sized for every segment (the paper's fixed slots). Weight views are first
moved to the function's entry so every transfer can start early. An op whose
weights exceed ``dma-budget`` bytes keeps reading them from off-chip memory,
with a warning naming it.
"""

from __future__ import annotations

import functools
import math
import sys
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, TensorType, UnitAttr
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import IsTerminator
from xdsl.utils.exceptions import PassFailedException

from cfmem.dialects.nn_control import REGION_OPS, IfOp, LoopOp
from cfmem.dialects.nn_dma import RELOAD_ATTR, DmaBufferOp, DmaStartOp, DmaWaitOp
from cfmem.dialects.nn_weights import GetGlobalOp, ReshapeOp, ViewOp
from cfmem.dialects.types import element_bytes, tensor_bytes
from cfmem.dma.events import Block as EventBlock
from cfmem.dma.hazards import HazardError, check
from cfmem.passes.dma_events import function_events
from cfmem.passes.liveness import functions, is_weight, refuse_foreign_region
from cfmem.passes.options import checked_options
from cfmem.passes.placement import (
    DEPTH_ATTR,
    RESIDENT_ATTR,
    SLICE_OF_ATTR,
    function_int,
    is_evicted,
    is_prefetched,
    set_offchip,
    weight_place,
)
from cfmem.planning.option_checks import I64_MAX, MAX_DEPTH, check_align, check_budget, check_choice, check_depth, check_int
from cfmem.planning.problem import align_up

MODES = ("pingpong", "sync")
BUFFER_PLACEMENTS = ("region", "fixed")
LOOP_WEIGHTS = ("hoist", "stream")
HOISTED_ATTR = "cfmem.hoisted"
"""On the buffer, transfer and wait that load a loop's weights once before it."""


_READS_NO_WEIGHTS = frozenset({DmaStartOp, ViewOp, ReshapeOp, IfOp, LoopOp})
"""Ops whose operands are never weights to load, by exact type (``isinstance`` against xDSL's
ABC-based op classes is slow when it fails, and none of these has a subclass)."""


def weight_operands(op: Operation) -> list[SSAValue]:
    """The distinct off-chip weights ``op`` reads, in operand order."""
    if type(op) in _READS_NO_WEIGHTS:
        return []
    seen: list[SSAValue] = []
    for v in op.operands:
        if is_weight(v) and v not in seen:
            seen.append(v)
    return seen


_STREAMS_NOTHING = frozenset({DmaStartOp, IfOp, LoopOp})


def streamed_operands(op: Operation) -> list[SSAValue]:
    """What DMA brings on chip for ``op``: its weights when they are streamed, and the
    off-chip activations it reads that are prefetched (``cfmem.prefetch``)."""
    if type(op) in _STREAMS_NOTHING or op.has_trait(IsTerminator):
        return []
    streamed = weight_operands(op) if weight_place(op) == "stream" else []
    for v in op.operands:
        if is_prefetched(v) and v not in streamed:
            streamed.append(v)
    return streamed


def packed_offsets(values: list[SSAValue], align: int) -> tuple[list[int], int]:
    """Byte offsets of ``values`` packed in one buffer, and the bytes needed.

    Each offset is a multiple of ``align`` and of the value's element size, so
    an ``align`` such as 3 still gives every tensor an element-aligned place.
    """
    offsets, top = _packed(tuple(v.type for v in values), align)
    return list(offsets), top


@functools.lru_cache(maxsize=4096)
def _packed(types: tuple[TensorType, ...], align: int) -> tuple[tuple[int, ...], int]:
    """``packed_offsets`` of values of ``types`` (cached: it depends on the types alone)."""
    offsets, top = [], 0
    for ty in types:
        start = align_up(top, math.lcm(align, element_bytes(ty.get_element_type())))
        offsets.append(start)
        top = align_up(start + tensor_bytes(ty), align)
    if top > I64_MAX:
        raise PassFailedException(f"align {align} packs weights into {top} bytes, more than the i64 of a buffer's size holds")
    return tuple(offsets), top


def segments(block: Block) -> list[list[Operation]]:
    """The block's ops cut at each ``nn.if`` and ``nn.loop`` (the cuts themselves excluded)."""
    parts: list[list[Operation]] = [[]]
    for op in block.ops:
        if isinstance(op, REGION_OPS):
            parts.append([])
        elif not op.has_trait(IsTerminator):
            parts[-1].append(op)
    return parts


def all_blocks(block: Block) -> list[Block]:
    """``block`` and every branch and loop body nested in it, parents first."""
    result = [block]
    for op in block.ops:
        if isinstance(op, REGION_OPS):
            for region in op.branches:
                result.extend(all_blocks(region.block))
    return result


def hoist_weights(fn: func.FuncOp) -> None:
    """Move weight-defining ops to the top of ``fn``, keeping their order.

    ``anchor`` is the first op of the entry not yet passed; it runs off the end only when
    every op of the entry defines a weight, and then no op is left to move.
    """
    entry = fn.body.block
    movable = [op for op in fn.walk() if _defines_weight(op)]
    anchor = entry.first_op
    for op in movable:
        if op is anchor:
            anchor = op.next_op
            continue
        assert anchor is not None
        op.detach()
        entry.insert_op_before(op, anchor)


@dataclass
class _Segment:
    ops: list[Operation]
    """The ops whose weights are loaded, in execution order."""
    first: Operation
    """Where the segment's buffers and first transfer go."""
    sizes: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class InsertDmaPass(ModulePass):
    """Options: ``mode`` (pingpong, sync), ``depth`` (buffers in rotation for
    pingpong), ``buffers`` (region, fixed), ``align`` (bytes between weights
    in a buffer), ``dma-budget`` (bytes; an op needing more reads off-chip
    directly; absent = no limit), ``loop-weights`` (hoist: a loop's weights
    are loaded once before it when they fit the DMA budget; stream: every
    iteration loads them), ``loop-prefetch`` (default true: a streamed loop body loads its
    first weights for the next iteration during its last op)."""

    name = "nn-insert-dma"
    mode: str = "pingpong"
    buffers: str = "region"
    align: int = 64
    dma_budget: int | None = None
    depth: int = 2
    loop_weights: str = "hoist"
    loop_prefetch: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        with checked_options():
            check_choice("mode", self.mode, MODES)
            check_choice("buffer placement", self.buffers, BUFFER_PLACEMENTS)
            check_choice("loop-weights", self.loop_weights, LOOP_WEIGHTS)
            check_depth("depth", self.depth)
            check_align("align", self.align)
            check_budget("dma-budget", self.dma_budget)
        self.insert_module(op)

    def insert_module(self, op: ModuleOp, checked: bool = True) -> None:
        """The transfers of every function of ``op``; ``checked`` False leaves out the hazard
        check of the result (for a caller that checks the events it builds anyway)."""
        if any(isinstance(o, DmaStartOp) for o in op.walk()):
            raise PassFailedException("the module already has DMA transfers")
        for fn in functions(op):
            for inner in fn.body.walk():
                refuse_foreign_region(inner)
        for fn in functions(op):
            depth = function_int(fn, DEPTH_ATTR)
            if depth is not None:
                with checked_options():
                    check_int(f"function @{fn.sym_name.data}: {DEPTH_ATTR}", depth, 1, MAX_DEPTH, "1 is sync")
            else:
                depth = self.depth if self.mode == "pingpong" else 1
            self.insert(fn, depth, checked)

    def loaded_ops(self, ops: list[Operation]) -> list[Operation]:
        """The ops of a segment whose weights go through DMA."""
        loaded = []
        for o in ops:
            weights = streamed_operands(o)
            if not weights:
                continue
            need = packed_offsets(weights, self.align)[1]
            if self.dma_budget is not None and need > self.dma_budget:
                name = o.results[0].name_hint if o.results and o.results[0].name_hint else "?"
                print(
                    f"warning: nn-insert-dma: '{o.name}' (%{name}) needs {need} bytes of weights,"
                    f" more than the DMA budget of {self.dma_budget}: it reads them from off-chip memory",
                    file=sys.stderr,
                )
                continue
            loaded.append(o)
        return loaded

    def insert(self, fn: func.FuncOp, slots: int, checked: bool = True) -> None:
        hoist_weights(fn)
        _load_resident(fn, self.align)
        for op in [o for o in fn.walk() if o is not fn and is_evicted(o)]:
            _evict(op)
        if self.loop_weights == "hoist":
            for loop in [o for o in fn.walk() if isinstance(o, LoopOp)]:
                self.hoist_loop_weights(loop)
        plan: list[_Segment] = []
        for block in all_blocks(fn.body.block):
            for ops in segments(block):
                loaded = self.loaded_ops(ops)
                if not loaded:
                    continue
                first = next(o for o in ops if not _defines_weight(o))
                seg = _Segment(loaded, first, [0] * slots)
                for k, o in enumerate(loaded):
                    need = packed_offsets(streamed_operands(o), self.align)[1]
                    seg.sizes[k % slots] = max(seg.sizes[k % slots], need)
                plan.append(seg)
        fixed: list[SSAValue | None] = []
        if self.buffers == "fixed" and plan:
            sizes = [max(seg.sizes[s] for seg in plan) for s in range(slots)]
            entry_first = next(o for o in fn.body.block.ops if not _defines_weight(o))
            fixed = _insert_buffers(sizes, entry_first)
        for seg in plan:
            loop = _prefetching_loop(seg, slots) if self.loop_prefetch else None
            if loop is not None:
                buffers = fixed or _insert_buffers(seg.sizes, loop)
                self.insert_prefetched_transfers(seg.ops, buffers, loop)
                continue
            buffers = fixed or _insert_buffers(seg.sizes, seg.first)
            self.insert_transfers(seg.ops, buffers, seg.first, sync=slots == 1)
        if checked:
            check_inserted(function_events(fn))

    def hoist_loop_weights(self, loop: LoopOp) -> None:
        """Load the weights streamed inside ``loop`` once, right before it (if they fit)."""
        ops = [o for o in loop.body.walk() if weight_operands(o) and weight_place(o) == "stream"]
        if any(SLICE_OF_ATTR in o.attributes for o in ops):
            return  # sliced weights asked for small transfers: streamed every iteration
        _load_once(ops, self.align, loop, "loop_weights", "load_loop", HOISTED_ATTR, self.dma_budget)

    def transfers(self, ops: list[Operation], buffers: list[SSAValue | None]) -> list[DmaStartOp]:
        """One transfer per op, op k's into buffer k mod the rotation."""
        starts: list[DmaStartOp] = []
        for k, o in enumerate(ops):
            weights = streamed_operands(o)
            offsets, _ = packed_offsets(weights, self.align)
            buffer = buffers[k % len(buffers)]
            assert buffer is not None
            start = DmaStartOp(weights, buffer, offsets)
            start.token.name_hint = "load"
            starts.append(start)
        return starts

    def insert_prefetched_transfers(self, ops: list[Operation], buffers: list[SSAValue | None], loop: LoopOp) -> None:
        """Ping-pong over a loop body whose first weights cross the back edge: they are loaded
        before the loop into buffer 0 (defined there with the others), op 0 reads them there in
        every iteration, and each iteration reloads them (``cfmem.reload``) during its last op
        into the same bytes, waited at the iteration's end (see ``_prefetching_loop``)."""
        starts = self.transfers(ops, buffers)
        ahead = len(buffers) - 1
        first_wait = DmaWaitOp(starts[0])
        Rewriter.insert_op([starts[0], first_wait], InsertPoint.before(loop))
        _use_on_chip(ops[0], dict(zip(starts[0].sources, first_wait.results)))
        order = _positions(loop.body.block.first_op, ops[-1])
        for start in starts[1 : 1 + ahead]:
            _insert_start(start, ops[0], order)
        last = len(ops) - 1
        for k in range(1, len(ops)):
            wait = DmaWaitOp(starts[k])
            Rewriter.insert_op(wait, InsertPoint.before(ops[k]))
            if k + ahead <= last:
                _insert_start(starts[k + ahead], ops[k], order)
            _use_on_chip(ops[k], dict(zip(starts[k].sources, wait.results)))
        reload = DmaStartOp(list(starts[0].sources), starts[0].buffer, list(starts[0].byte_offsets))
        reload.token.name_hint = "reload"
        reload.attributes[RELOAD_ATTR] = UnitAttr()
        Rewriter.insert_op(reload, InsertPoint.before(ops[last]))
        reloaded = DmaWaitOp(reload)
        for result, source in zip(reloaded.results, reload.sources):
            result.name_hint = (source.name_hint or "w") + "_next"
        Rewriter.insert_op(reloaded, InsertPoint.before(loop.body.block.last_op))

    def insert_transfers(
        self, ops: list[Operation], buffers: list[SSAValue | None], first: Operation, sync: bool
    ) -> None:
        starts = self.transfers(ops, buffers)
        order = _positions(first, ops[-1])
        ahead = 0 if sync else len(buffers) - 1
        for start in starts[:ahead]:
            _insert_start(start, first, order)
        for k, o in enumerate(ops):
            if sync:
                Rewriter.insert_op(starts[k], InsertPoint.before(o))
            wait = DmaWaitOp(starts[k])
            Rewriter.insert_op(wait, InsertPoint.before(o))
            if ahead and k + ahead < len(ops):
                _insert_start(starts[k + ahead], o, order)
            _use_on_chip(o, dict(zip(starts[k].sources, wait.results)))


def _positions(first: Operation, last: Operation) -> dict[Operation, int]:
    """Positions of the ops from ``first`` to ``last`` in their block: a producer before them is
    before every op a transfer may be inserted at, as one left out is."""
    order: dict[Operation, int] = {}
    op: Operation | None = first
    while op is not None and op is not last:
        order[op] = len(order)
        op = op.next_op
    order[last] = len(order)
    return order


def _insert_start(start: DmaStartOp, before: Operation, order: dict[Operation, int]) -> None:
    """Before ``before``, or right after the last op of ``order`` producing what it transfers."""
    producers = [s.owner for s in start.sources if isinstance(s.owner, Operation) and s.owner in order]
    latest = max(producers, key=order.__getitem__, default=None)
    if latest is not None and order[latest] >= order[before]:
        Rewriter.insert_op(start, InsertPoint.after(latest))
    else:
        Rewriter.insert_op(start, InsertPoint.before(before))


def _prefetching_loop(seg: _Segment, slots: int) -> LoopOp | None:
    """The loop whose body ``seg`` is, when its first weights can cross the back edge: a
    ping-pong rotation (2 or more buffers), a body without ifs or loops (one segment), at
    least two loaded ops, op 0 reading weights only (they can be loaded before the loop), and
    the last op's buffer not buffer 0 (the reload overlaps that op)."""
    block = seg.first.parent_block()
    loop = block.parent_op() if block is not None else None
    if not isinstance(loop, LoopOp) or slots < 2 or len(seg.ops) < 2 or (len(seg.ops) - 1) % slots == 0:
        return None
    if any(isinstance(o, REGION_OPS) for o in block.ops):
        return None
    if not all(is_weight(v) for v in streamed_operands(seg.ops[0])):
        return None
    return loop


def _use_on_chip(op: Operation, on_chip: dict[SSAValue, SSAValue]) -> None:
    """Make ``op`` read the on-chip copies ``on_chip`` of its weights."""
    for value, replacement in on_chip.items():
        replacement.name_hint = (value.name_hint or "w") + "_sram"
    for i, operand in enumerate(op.operands):
        if operand in on_chip:
            op.operands[i] = on_chip[operand]


def _evict(op: Operation) -> None:
    """Copy ``op``'s result out by DMA into an off-chip buffer; its readers read the copy.

    The wait goes after the op that follows, so the copy overlaps it, unless that op
    (or an op nested in it) reads the result, or it is a terminator or an ``nn.if`` or
    ``nn.loop`` (no transfer may be outstanding where a region starts or ends): then right
    before it.
    """
    result = op.results[0]
    readers = [use.operation for use in result.uses]
    buffer = DmaBufferOp(tensor_bytes(result.type))
    buffer.result.name_hint = (result.name_hint or "t") + "_out"
    set_offchip(buffer, True)
    start = DmaStartOp([result], buffer.result, [0])
    start.token.name_hint = "evict"
    wait = DmaWaitOp(start)
    set_offchip(wait, True, prefetch=True)
    wait.results[0].name_hint = (result.name_hint or "t") + "_off"
    Rewriter.insert_op([buffer, start], InsertPoint.after(op))
    following = start.next_op
    assert following is not None  # every block ends with its terminator
    if (
        following.has_trait(IsTerminator)
        or isinstance(following, REGION_OPS)
        or any(following.is_ancestor(r) for r in readers)
    ):
        Rewriter.insert_op(wait, InsertPoint.before(following))
    else:
        Rewriter.insert_op(wait, InsertPoint.after(following))
    result.replace_uses_with_if(wait.results[0], lambda use: use.operation is not start)


def _load_resident(fn: func.FuncOp, align: int) -> None:
    """One buffer, transfer and wait at ``fn``'s entry for every weight a resident op reads."""
    ops = [o for o in fn.walk() if o is not fn and weight_operands(o) and weight_place(o) == "resident"]
    if not ops:
        return
    first = next(o for o in fn.body.block.ops if not _defines_weight(o))
    _load_once(ops, align, first, "resident", "load_resident", RESIDENT_ATTR)


def _load_once(
    ops: list[Operation], align: int, before: Operation, buffer_name: str, token_name: str, mark: str,
    budget: int | None = None,
) -> None:
    """One buffer, transfer and wait (each marked ``mark``) right before ``before`` for every
    weight ``ops`` read, which then read the on-chip copies; nothing when there are none or
    they need more than ``budget`` bytes."""
    weights: list[SSAValue] = []
    for o in ops:
        weights.extend(w for w in weight_operands(o) if w not in weights)
    offsets, size = packed_offsets(weights, align)
    if not weights or (budget is not None and size > budget):
        return
    buffer = DmaBufferOp(size)
    buffer.result.name_hint = buffer_name
    start = DmaStartOp(weights, buffer.result, offsets)
    start.token.name_hint = token_name
    wait = DmaWaitOp(start)
    for new in (buffer, start, wait):
        new.attributes[mark] = UnitAttr()
        Rewriter.insert_op(new, InsertPoint.before(before))
    on_chip = dict(zip(weights, wait.results))
    for o in ops:
        _use_on_chip(o, {w: on_chip[w] for w in weight_operands(o)})


def _defines_weight(op: Operation) -> bool:
    return isinstance(op, GetGlobalOp | ViewOp) or (isinstance(op, ReshapeOp) and is_weight(op.result))


def _insert_buffers(sizes: list[int], before: Operation) -> list[SSAValue | None]:
    """One ``nn.dma_buffer`` per slot that some transfer uses (size > 0)."""
    buffers: list[SSAValue | None] = []
    for slot, size in enumerate(sizes):
        if size == 0:
            buffers.append(None)
            continue
        buffer = DmaBufferOp(size)
        buffer.result.name_hint = f"dma{slot}"
        Rewriter.insert_op(buffer, InsertPoint.before(before))
        buffers.append(buffer.result)
    return buffers


def check_inserted(events: EventBlock) -> None:
    """Fail if the transfers nn-insert-dma placed (``events``) break a DMA rule."""
    try:
        check(events)
    except HazardError as err:  # a bug in this pass, never the input's fault
        raise PassFailedException(f"nn-insert-dma produced a DMA hazard: {err}") from err
