"""A placement of a function without loops measured without building it: plain data, no xDSL.

``nn-place`` judges a placement by its on-chip need, its modeled latency and the tensors at its
peak. Building each placement as IR (copy, slice, ``nn-insert-dma``, liveness, aliases, events)
costs time in proportion to the model for every placement tried; this module computes the same
three things from records of the function's ops, read once (``cfmem.passes.place_records``;
the records, values and nodes are ``cfmem.planning.placed_nodes``'s):
``measure_program`` takes the ops of one placement (slices already substituted) and the
placement's flags per op key, inserts the transfers ``nn-insert-dma`` would, and hands the
program to ``cfmem.planning.placed_liveness`` for its need, events and peak.

Assumptions (``place_records`` falls back to building the IR otherwise): no ``nn.loop`` (an
``nn.if``'s branches are blocks of records); DMA inserted with ``nn-insert-dma``'s defaults
(ping-pong per region, buffers per region, 64-byte alignment, no DMA budget) at the
placement's depth; aliases of every kind. Each step mirrors one step of the IR passes, in the
same order, so that ties (the first step at the peak, the order of tensors) come out the same;
the tests compare both on random graphs with and without ifs and on real models.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from cfmem.planning.placed_liveness import measure
from cfmem.planning.placed_nodes import (
    OFF_CHIP,
    PREFETCHED,
    STAY,
    Flags,
    Node,
    OpRecord,
    Placed,
    ValueInfo,
    Values,
    all_heads,
    block_nodes,
    in_block,
    is_terminator,
    walk,
)
from cfmem.planning.problem import align_up

ALIGN = 64
"""``nn-insert-dma``'s default alignment of weights in a buffer."""


@dataclass
class _Program:
    """The ops of one placement as linked lists, one per block (transfers are inserted before
    and after ops)."""

    values: dict[int, ValueInfo]
    weights: frozenset[int]
    read_only: frozenset[int]
    head: Node
    """The sentinel heading the function's body."""
    owner: dict[int, Node] = field(default_factory=dict)
    next_id: int = 0
    offchip: set[int] = field(default_factory=set)
    """Values in the off-chip activation arena (``is_offchip_activation``)."""
    prefetched: set[int] = field(default_factory=set)
    """Off-chip values their readers get by DMA (``is_prefetched``)."""
    readers: dict[int, list[Node]] = field(default_factory=dict)
    """The ops reading each value before transfers are inserted (an evicted result's)."""

    def place(self, node: Node) -> None:
        """Note where ``node``'s results live (its flags)."""
        f = node.flags
        if f.offchip and not f.evict:
            self.offchip.update(node.results)
            if f.prefetch:
                self.prefetched.update(node.results)

    @property
    def nodes(self) -> list[Node]:
        """The nodes of the function's body."""
        return block_nodes(self.head)

    def new_value(self, info: ValueInfo, owner: Node) -> int:
        v = self.next_id
        self.next_id += 1
        self.values[v] = info
        self.owner[v] = owner
        return v

    def weight_operands(self, node: Node) -> tuple[int, ...]:
        """The op's distinct weights (its record's: only a resident op's are ever replaced,
        after its weights were read here)."""
        return node.rec.weights if node.kind == "op" else ()

    def streamed_operands(self, node: Node) -> list[int]:
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

    def defines_weight(self, node: Node) -> bool:
        return node.kind == "op" and node.rec.defines_weight

    def insert_before(self, new: list[Node], anchor: Node) -> None:
        self.insert_after(new, anchor.prev)

    def insert_after(self, new: list[Node], anchor: Node) -> None:
        block = anchor.block
        for node in new:
            node.block = block
            node.prev, node.next = anchor, anchor.next
            if anchor.next is not None:
                anchor.next.prev = node
            anchor.next = node
            anchor = node

    @staticmethod
    def unlink(node: Node) -> None:
        node.prev.next = node.next
        if node.next is not None:
            node.next.prev = node.prev
        node.prev = node.next = None

    # --- nn-insert-dma -------------------------------------------------------------

    def buffer(self, size: int, name: str, offchip: bool = False) -> Node:
        node = Node("buffer", None, [], (), OFF_CHIP if offchip else STAY)
        node.name = name
        node.results = (self.new_value(ValueInfo(size, 1, (size,)), node),)
        self.place(node)
        return node

    def start(self, sources: list[int], buffer: int, offsets: list[int], name: str) -> Node:
        node = Node("start", None, [*sources, buffer], ())
        node.name = name
        node.sources, node.buffer, node.offsets = sources, buffer, offsets
        node.token = self.new_value(ValueInfo(0), node)
        node.results = (node.token,)
        return node

    def wait_for(self, start: Node) -> Node:
        node = Node("wait", None, [start.token], ())
        node.name = start.name
        node.results = tuple(self.new_value(self.values[s], node) for s in start.sources)  # data: not in ``weights``
        start.wait = node
        return node

    def use_on_chip(self, node: Node, on_chip: dict[int, int]) -> None:
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

    def evict(self, node: Node) -> None:
        result = node.results[0]
        readers = self.readers.get(result, [])
        buffer = self.buffer(self.values[result].size, f"out{node.rec.index}", offchip=True)
        start = self.start([result], buffer.results[0], [0], f"evict{node.rec.index}")
        wait = self.wait_for(start)
        wait.flags = PREFETCHED
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

    def insert_segment(self, ops: list[Node], slots: int) -> None:
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
        made: list[Node] = []
        for slot, size in enumerate(sizes):
            if size == 0:
                buffers.append(None)
                continue
            made.append(self.buffer(size, f"dma{slot}"))
            buffers.append(made[-1].results[0])
        self.insert_before(made, first)
        self.insert_transfers(loaded, buffers, first, sync=slots == 1)

    def insert_transfers(self, ops: list[Node], buffers: list[int | None], first: Node, sync: bool) -> None:
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

    def insert_start(self, start: Node, before: Node, order: dict[int, int]) -> None:
        producers = [self.owner[s] for s in start.sources if s in self.owner and id(self.owner[s]) in order]
        latest = max(producers, key=lambda n: order[id(n)], default=None)
        if latest is not None and order[id(latest)] >= order[id(before)]:
            self.insert_after([start], latest)
        else:
            self.insert_before([start], before)


def _segments(nodes: list[Node]) -> list[list[Node]]:
    """A block's ops cut at each if (the ifs and the terminator left out: ``insert_dma.segments``)."""
    parts: list[list[Node]] = [[]]
    for node in nodes:
        if node.branches:
            parts.append([])
        elif not is_terminator(node):
            parts[-1].append(node)
    return parts


def measure_program(
    records: list[OpRecord], values: Values, flags: dict[int, Flags], depth: int, cache: dict | None = None
) -> Placed:
    """The on-chip need, events and peak of ``records`` (the function's body, in order, slices
    substituted) placed by ``flags`` (per op key) with a DMA rotation of ``depth``.
    ``cache`` (kept by the caller between placements of the same records) holds compute
    events to hand out again."""
    program = _Program(dict(values.info), values.weights, values.read_only, _head(None), next_id=len(values.info))
    _fill(program, program.head, records, flags)
    program.insert_dma(depth)
    return measure(program, {} if cache is None else cache)


def _head(parent_op: Node | None) -> Node:
    head = Node("head", None, [], ())
    head.block = head
    head.parent_op = parent_op
    return head


def _fill(program: _Program, head: Node, records, flags: dict[int, Flags]) -> None:
    """Nodes for ``records`` in the block ``head`` heads (linked here: this runs for every op
    of every placement measured)."""
    owner, prev = program.owner, head
    for rec in records:
        f = flags.get(rec.key, STAY) if rec.key is not None else STAY
        node = Node("op", rec, list(rec.operands), rec.results, f)
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
