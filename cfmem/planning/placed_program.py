"""A placement of a straight-line function measured without building it: plain data, no xDSL.

``nn-place`` judges a placement by its on-chip need, its modeled latency and the tensors at its
peak. Building each placement as IR (copy, slice, ``nn-insert-dma``, liveness, aliases, events)
costs time in proportion to the model for every placement tried; this module computes the same
three things from records of the function's ops, read once (``cfmem.passes.place_records``):

- ``OpRecord``: one op of the function, or of the slices ``nn-slice-weights`` cuts an op into,
  with what the passes read of it (operands, results, costs, how it may alias);
- ``ValueInfo``: one value's bytes, element size, shape and whether it is read-only;
- ``measure_program``: the ops of one placement (slices already substituted) and the placement's
  flags per op key, turned into the event tree (``cfmem.dma.events``) and the liveness region
  tree (``cfmem.planning.regions``) exactly as the IR pipeline builds them.

Assumptions (``place_records`` falls back to building the IR otherwise): no ``nn.loop`` (an
``nn.if``'s branches are blocks of records); DMA inserted with ``nn-insert-dma``'s defaults
(ping-pong per region, buffers per region, 64-byte alignment, no DMA budget) at the
placement's depth; aliases of every kind. Each step mirrors one step of the IR passes, in the
same order, so that ties (the first step at the peak, the order of tensors) come out the same;
the tests compare both on random graphs with and without ifs and on real models. Liveness,
aliases and events are ``cfmem.planning.placed_liveness``'s.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from cfmem.dma.events import Block
from cfmem.planning.problem import align_up
from cfmem.planning.regions import RegionTree

ALIGN = 64
"""``nn-insert-dma``'s default alignment of weights in a buffer."""


@dataclass(frozen=True)
class ValueInfo:
    size: int
    """Bytes (0 for what is no tensor)."""
    elem: int = 1
    """Bytes per element: a packed tensor starts at a multiple of it."""
    shape: tuple[int, ...] = ()
    source: str = "data"
    """``weight`` (read-only, off chip), ``const`` (read-only, in the IR) or ``data``."""
    arg: bool = False
    """A function argument."""


@dataclass(frozen=True)
class OpRecord:
    """One op, as the placement passes see it."""

    key: int | None
    """The op key of ``nn-place`` (slices carry their op's key; new weight views none)."""
    label: str
    """Its compute event's name."""
    operands: tuple[int, ...]
    results: tuple[int, ...]
    macs: int = 0
    moved: int = 0
    sliced: bool = False
    defines_weight: bool = False
    """A weight view, global or reshape of one: hoisted to the top, no event, never planned."""
    event: bool = True
    """Whether it is a compute event (not a constant, view, global or terminator)."""
    terminator: bool = False
    movable: bool = False
    """A compute op or an activation reshape: its result may live off chip."""
    compute: bool = False
    """A compute op (an operand of a concat may be computed into its part)."""
    reshape: bool = False
    slice_offset: int | None = None
    """An ``nn.slice`` of one contiguous byte range: where it starts in its input."""
    inplace: bool = False
    concat_parts: tuple[int, ...] | None = None
    """A concat whose inputs may be computed into their parts: each part's byte offset."""
    weights: tuple[int, ...] = ()
    """The distinct weights it reads, in operand order (none for views and reshapes)."""
    index: int = -1
    """Its number, unique among the records measured together: names its transfers, keys ``cache``."""
    branches: tuple[tuple[OpRecord, ...], ...] = ()
    """An ``nn.if``'s then and else blocks (each ending with its ``nn.yield``)."""


@dataclass(frozen=True)
class Flags:
    """The placement of one op key."""

    weights: str = "stream"
    offchip: bool = False
    prefetch: bool = False
    evict: bool = False


_STAY = Flags()
_OFF_CHIP = Flags(offchip=True)
_PREFETCHED = Flags(offchip=True, prefetch=True)


@dataclass
class Placed:
    """What ``nn-place`` reads of a placement: the same fields as its ``Measure``."""

    need: int
    """The path-exact lower bound of the on-chip tensors (``regions.peak_tensors``)."""
    tree: RegionTree
    events: Block
    peak: list[tuple[str, int, int | None]]
    """The tensors at the peak: (kind, bytes, op key), kind ``dma``, ``resident``, ``activation`` or ``fixed``."""
    peak_ops: dict[int, list[int]]
    """For each DMA buffer at the peak (by index into ``peak``), the keys of the ops it serves."""


class _Node:
    """An op of the program being built: a record's op, a transfer's buffer, start or wait, or
    the sentinel heading a block. What most nodes leave at its default is a class attribute
    (one node is made per op of every placement measured)."""

    resident = False
    buffer = -1
    """A transfer's destination."""
    sources: list[int] = []
    offsets: list[int] = []
    token = -1
    wait: _Node | None = None
    """A transfer's wait."""
    step = -1
    """Its position in its block."""
    streamed: list[int] = []
    """What DMA brings on chip for it (``streamed_operands`` once the evictions are in place)."""
    name = ""
    """A transfer's (and its wait's) token name, a buffer's name: the same in every placement."""
    prev: _Node | None = None
    next: _Node | None = None
    block: _Node | None = None
    """The sentinel heading its block."""
    branches: list[_Node] = []
    """An if's blocks (their sentinels)."""
    parent_op: _Node | None = None
    """A sentinel's: the if whose branch it heads (None for the function's body)."""

    def __init__(self, kind: str, rec: OpRecord | None, operands: list[int], results: tuple[int, ...], flags: Flags = _STAY):
        self.kind = kind
        self.rec = rec
        self.operands = operands
        self.results = results
        self.flags = flags


def block_nodes(head: _Node) -> list[_Node]:
    """The nodes of the block ``head`` heads, in order."""
    out = []
    node = head.next
    while node is not None:
        out.append(node)
        node = node.next
    return out


def walk(head: _Node) -> list[_Node]:
    """Every node of the block ``head`` heads and of the blocks nested in it, in pre-order (an if
    before its branches' nodes), as ``Operation.walk`` goes."""
    out: list[_Node] = []
    stack: list[_Node | None] = [head.next]
    while stack:
        node = stack.pop()
        while node is not None:
            out.append(node)
            if node.branches:
                stack.append(node.next)
                stack.extend(b.next for b in reversed(node.branches))
                break
            node = node.next
    return out


def all_heads(head: _Node) -> list[_Node]:
    """``head`` and every block nested in its block, parents first (``insert_dma.all_blocks``)."""
    out = [head]
    for node in block_nodes(head):
        for branch in node.branches:
            out.extend(all_heads(branch))
    return out


def in_block(node: _Node, head: _Node) -> _Node:
    """The node of block ``head`` that is ``node`` or holds it."""
    while node.block is not head:
        node = node.block.parent_op
    return node


def is_terminator(node: _Node) -> bool:
    return node.kind == "op" and node.rec.terminator


@dataclass
class _Program:
    """The ops of one placement as linked lists, one per block (transfers are inserted before
    and after ops)."""

    values: dict[int, ValueInfo]
    weights: frozenset[int]
    read_only: frozenset[int]
    head: _Node
    """The sentinel heading the function's body."""
    owner: dict[int, _Node] = field(default_factory=dict)
    next_id: int = 0
    offchip: set[int] = field(default_factory=set)
    """Values in the off-chip activation arena (``is_offchip_activation``)."""
    prefetched: set[int] = field(default_factory=set)
    """Off-chip values their readers get by DMA (``is_prefetched``)."""
    readers: dict[int, list[_Node]] = field(default_factory=dict)
    """The ops reading each value before transfers are inserted (an evicted result's)."""

    def place(self, node: _Node) -> None:
        """Note where ``node``'s results live (its flags)."""
        f = node.flags
        if f.offchip and not f.evict:
            self.offchip.update(node.results)
            if f.prefetch:
                self.prefetched.update(node.results)

    @property
    def nodes(self) -> list[_Node]:
        """The nodes of the function's body."""
        return block_nodes(self.head)

    def new_value(self, info: ValueInfo, owner: _Node) -> int:
        v = self.next_id
        self.next_id += 1
        self.values[v] = info
        self.owner[v] = owner
        return v

    def weight_operands(self, node: _Node) -> tuple[int, ...]:
        """The op's distinct weights (its record's: only a resident op's are ever replaced,
        after its weights were read here)."""
        return node.rec.weights if node.kind == "op" else ()

    def streamed_operands(self, node: _Node) -> list[int]:
        if node.kind == "start" or is_terminator(node) or node.branches:
            return []
        streamed = list(self.weight_operands(node)) if node.flags.weights == "stream" else []
        prefetched = self.prefetched
        for v in node.operands:
            if v in prefetched and v not in streamed:
                streamed.append(v)
        return streamed

    def packed(self, values: list[int]) -> tuple[list[int], int]:
        offsets, top = [], 0
        for v in values:
            info = self.values[v]
            start = align_up(top, math.lcm(ALIGN, info.elem))
            offsets.append(start)
            top = align_up(start + info.size, ALIGN)
        return offsets, top

    def defines_weight(self, node: _Node) -> bool:
        return node.kind == "op" and node.rec.defines_weight

    def insert_before(self, new: list[_Node], anchor: _Node) -> None:
        self.insert_after(new, anchor.prev)

    def insert_after(self, new: list[_Node], anchor: _Node) -> None:
        block = anchor.block
        for node in new:
            node.block = block
            node.prev, node.next = anchor, anchor.next
            if anchor.next is not None:
                anchor.next.prev = node
            anchor.next = node
            anchor = node

    @staticmethod
    def unlink(node: _Node) -> None:
        node.prev.next = node.next
        if node.next is not None:
            node.next.prev = node.prev
        node.prev = node.next = None

    # --- nn-insert-dma -------------------------------------------------------------

    def buffer(self, size: int, name: str, offchip: bool = False) -> _Node:
        node = _Node("buffer", None, [], (), _OFF_CHIP if offchip else _STAY)
        node.name = name
        node.results = (self.new_value(ValueInfo(size, 1, (size,)), node),)
        self.place(node)
        return node

    def start(self, sources: list[int], buffer: int, offsets: list[int], name: str) -> _Node:
        node = _Node("start", None, [*sources, buffer], ())
        node.name = name
        node.sources, node.buffer, node.offsets = sources, buffer, offsets
        node.token = self.new_value(ValueInfo(0), node)
        node.results = (node.token,)
        return node

    def wait_for(self, start: _Node) -> _Node:
        node = _Node("wait", None, [start.token], ())
        node.name = start.name
        node.results = tuple(self.new_value(self.values[s], node) for s in start.sources)  # data: not in ``weights``
        start.wait = node
        return node

    def use_on_chip(self, node: _Node, on_chip: dict[int, int]) -> None:
        node.operands = [on_chip.get(v, v) for v in node.operands]

    def hoist_weights(self) -> None:
        """Every weight-defining op, in walk order, to the top of the function's body."""
        moved = [n for n in walk(self.head) if self.defines_weight(n)]
        for node in moved:
            self.unlink(node)
        self.insert_after(moved, self.head)

    def load_resident(self) -> None:
        ops = [n for n in walk(self.head) if self.weight_operands(n) and n.flags.weights == "resident"]
        if not ops:
            return
        first = next(n for n in self.nodes if not self.defines_weight(n))
        weights: list[int] = []
        for n in ops:
            weights.extend(w for w in self.weight_operands(n) if w not in weights)
        offsets, size = self.packed(weights)
        buffer = self.buffer(size, "resident")
        start = self.start(weights, buffer.results[0], offsets, "resident")
        wait = self.wait_for(start)
        for new in (buffer, start, wait):
            new.resident = True
        self.insert_before([buffer, start, wait], first)
        on_chip = dict(zip(weights, wait.results))
        for n in ops:
            self.use_on_chip(n, {w: on_chip[w] for w in self.weight_operands(n)})

    def evict(self, node: _Node) -> None:
        result = node.results[0]
        readers = self.readers.get(result, [])
        buffer = self.buffer(self.values[result].size, f"out{node.rec.index}", offchip=True)
        start = self.start([result], buffer.results[0], [0], f"evict{node.rec.index}")
        wait = self.wait_for(start)
        wait.flags = _PREFETCHED
        self.place(wait)
        self.insert_after([buffer, start], node)
        following = start.next
        if is_terminator(following) or following.branches or any(in_block(r, following.block) is following for r in readers):
            self.insert_before([wait], following)
        else:
            self.insert_after([wait], following)
        copy = wait.results[0]
        for n in readers:
            n.operands = [copy if v == result else v for v in n.operands]

    def insert_dma(self, slots: int) -> None:
        self.hoist_weights()
        self.load_resident()
        everything = walk(self.head)
        evicted = [n for n in everything if n.kind == "op" and n.flags.evict and n.flags.offchip]
        for n in everything if evicted else ():
            for v in dict.fromkeys(n.operands):
                self.readers.setdefault(v, []).append(n)
        for node in evicted:
            self.evict(node)
        for head in all_heads(self.head):
            for ops in _segments(block_nodes(head)):
                self.insert_segment(ops, slots)

    def insert_segment(self, ops: list[_Node], slots: int) -> None:
        """The buffers and transfers of one segment (ops between ifs of one block)."""
        for n in ops:
            n.streamed = self.streamed_operands(n)
        loaded = [n for n in ops if n.streamed]
        if not loaded:
            return
        first = next(n for n in ops if not self.defines_weight(n))
        sizes = [0] * slots
        for k, n in enumerate(loaded):
            need = self.packed(n.streamed)[1]
            sizes[k % slots] = max(sizes[k % slots], need)
        buffers: list[int | None] = []
        made: list[_Node] = []
        for slot, size in enumerate(sizes):
            if size == 0:
                buffers.append(None)
                continue
            made.append(self.buffer(size, f"dma{slot}"))
            buffers.append(made[-1].results[0])
        self.insert_before(made, first)
        self.insert_transfers(loaded, buffers, first, sync=slots == 1)

    def insert_transfers(self, ops: list[_Node], buffers: list[int | None], first: _Node, sync: bool) -> None:
        starts = []
        for k, n in enumerate(ops):
            weights = n.streamed
            offsets, _ = self.packed(weights)
            buffer = buffers[k % len(buffers)]
            assert buffer is not None
            starts.append(self.start(weights, buffer, offsets, f"load{n.rec.index}"))
        order: dict[int, int] = {}
        node = first
        while node is not ops[-1]:
            order[id(node)] = len(order)
            node = node.next
        order[id(node)] = len(order)
        ahead = 0 if sync else len(buffers) - 1
        for start in starts[:ahead]:
            self.insert_start(start, first, order)
        for k, n in enumerate(ops):
            if sync:
                self.insert_before([starts[k]], n)
            wait = self.wait_for(starts[k])
            self.insert_before([wait], n)
            if ahead and k + ahead < len(ops):
                self.insert_start(starts[k + ahead], n, order)
            self.use_on_chip(n, dict(zip(starts[k].sources, wait.results)))

    def insert_start(self, start: _Node, before: _Node, order: dict[int, int]) -> None:
        producers = [self.owner[s] for s in start.sources if s in self.owner and id(self.owner[s]) in order]
        latest = max(producers, key=lambda n: order[id(n)], default=None)
        if latest is not None and order[id(latest)] >= order[id(before)]:
            self.insert_after([start], latest)
        else:
            self.insert_before([start], before)


def _segments(nodes: list[_Node]) -> list[list[_Node]]:
    """A block's ops cut at each if (the ifs and the terminator left out: ``insert_dma.segments``)."""
    parts: list[list[_Node]] = [[]]
    for node in nodes:
        if node.branches:
            parts.append([])
        elif not is_terminator(node):
            parts[-1].append(node)
    return parts


@dataclass
class Values:
    """The values records refer to, by id, with the sets the passes test them against."""

    info: dict[int, ValueInfo] = field(default_factory=dict)
    weights: set[int] = field(default_factory=set)
    read_only: set[int] = field(default_factory=set)

    def add(self, info: ValueInfo) -> int:
        v = len(self.info)
        self.info[v] = info
        if info.source != "data":
            self.read_only.add(v)
            if info.source == "weight":
                self.weights.add(v)
        return v


def measure_program(
    records: list[OpRecord], values: Values, flags: dict[int, Flags], depth: int, cache: dict | None = None
) -> Placed:
    """The on-chip need, events and peak of ``records`` (the function's body, in order, slices
    substituted) placed by ``flags`` (per op key) with a DMA rotation of ``depth``.
    ``cache`` (kept by the caller between placements of the same records) holds compute
    events to hand out again."""
    from cfmem.planning.placed_liveness import measure

    program = _Program(dict(values.info), values.weights, values.read_only, _head(None), next_id=len(values.info))
    _fill(program, program.head, records, flags)
    program.insert_dma(depth)
    return measure(program, {} if cache is None else cache)


def _head(parent_op: _Node | None) -> _Node:
    head = _Node("head", None, [], ())
    head.block = head
    head.parent_op = parent_op
    return head


def _fill(program: _Program, head: _Node, records, flags: dict[int, Flags]) -> None:
    """Nodes for ``records`` in the block ``head`` heads (linked here: this runs for every op
    of every placement measured)."""
    owner, prev = program.owner, head
    for rec in records:
        f = flags.get(rec.key, _STAY) if rec.key is not None else _STAY
        node = _Node("op", rec, list(rec.operands), rec.results, f)
        node.block, node.prev, prev.next = head, prev, node
        prev = node
        for r in rec.results:
            owner[r] = node
        if f.offchip:
            program.place(node)
        if rec.branches:
            node.branches = [_head(node) for _ in rec.branches]
            for branch, block in zip(node.branches, rec.branches):
                _fill(program, branch, block, flags)
