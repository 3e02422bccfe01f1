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

Assumptions (``place_records`` falls back to building the IR otherwise): one block, no
``nn.if`` or ``nn.loop``; DMA inserted with ``nn-insert-dma``'s defaults (ping-pong per region,
buffers per region, 64-byte alignment, no DMA budget) at the placement's depth; aliases of
every kind but ``yield`` (only found in branches). Each step below mirrors one step of the IR
passes, in the same order, so that ties (the first step at the peak, the order of tensors) come
out the same; the tests compare both on every example and zoo model.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from cfmem.dma.events import Block, Compute, Start, Wait
from cfmem.planning.problem import align_up
from cfmem.planning.regions import RegionTree, Tensor, peak_tensors

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
    need: int
    tree: RegionTree
    events: Block
    peak: list[tuple[str, int, int | None]]
    peak_ops: dict[int, list[int]]


class _Node:
    """An op of the program being built: a record's op or a transfer's buffer, start or wait.
    What most nodes leave at its default is a class attribute (one node is made per op of
    every placement measured)."""

    resident = False
    buffer = -1
    """A transfer's destination."""
    sources: list[int] = []
    offsets: list[int] = []
    token = -1
    wait: _Node | None = None
    """A transfer's wait."""
    step = -1
    """Its position in the built program."""
    streamed: list[int] = []
    """What DMA brings on chip for it (``streamed_operands`` once the evictions are in place)."""
    name = ""
    """A transfer's (and its wait's) token name, a buffer's name: the same in every placement."""
    prev: _Node | None = None
    next: _Node | None = None

    def __init__(self, kind: str, rec: OpRecord | None, operands: list[int], results: tuple[int, ...], flags: Flags = _STAY):
        self.kind = kind
        self.rec = rec
        self.operands = operands
        self.results = results
        self.flags = flags


@dataclass
class _Program:
    """The ops of one placement as a linked list (transfers are inserted before and after ops)."""

    values: dict[int, ValueInfo]
    weights: frozenset[int]
    read_only: frozenset[int]
    head: _Node
    """A sentinel before the first op."""
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
        out = []
        node = self.head.next
        while node is not None:
            out.append(node)
            node = node.next
        return out

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
        if node.kind == "start" or (node.kind == "op" and node.rec.terminator):
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
        for node in new:
            node.prev, node.next = anchor, anchor.next
            if anchor.next is not None:
                anchor.next.prev = node
            anchor.next = node
            anchor = node

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
        nodes = self.nodes
        self.head.next = None
        self.insert_after([n for n in nodes if self.defines_weight(n)] + [n for n in nodes if not self.defines_weight(n)], self.head)

    def load_resident(self) -> None:
        ops = [n for n in self.nodes if self.weight_operands(n) and n.flags.weights == "resident"]
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
        if (following.kind == "op" and following.rec.terminator) or following in readers:
            self.insert_before([wait], following)
        else:
            self.insert_after([wait], following)
        copy = wait.results[0]
        for n in readers:
            n.operands = [copy if v == result else v for v in n.operands]

    def insert_dma(self, slots: int) -> None:
        self.hoist_weights()
        self.load_resident()
        evicted = [n for n in self.nodes if n.kind == "op" and n.flags.evict and n.flags.offchip]
        for n in self.nodes if evicted else ():
            for v in dict.fromkeys(n.operands):
                self.readers.setdefault(v, []).append(n)
        for node in evicted:
            self.evict(node)
        ops = [n for n in self.nodes if not (n.kind == "op" and n.rec.terminator)]
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
    """The on-chip need, events and peak of ``records`` (one block, in order, slices
    substituted) placed by ``flags`` (per op key) with a DMA rotation of ``depth``.
    ``cache`` (kept by the caller between placements of the same records) holds compute
    events to hand out again."""
    program = _Program(dict(values.info), values.weights, values.read_only, _Node("head", None, [], ()), next_id=len(values.info))
    nodes = []
    for rec in records:
        node = _Node("op", rec, list(rec.operands), rec.results, flags.get(rec.key, _STAY) if rec.key is not None else _STAY)
        nodes.append(node)
        for r in rec.results:
            program.owner[r] = node
        program.place(node)
    program.insert_after(nodes, program.head)
    program.insert_dma(depth)
    return _measure(program, {} if cache is None else cache)


def _measure(p: _Program, cache: dict) -> Placed:
    nodes = p.nodes
    for i, n in enumerate(nodes):
        n.step = i
    uses: dict[int, list[_Node]] = {}
    for n in nodes:
        for v in n.operands:
            uses.setdefault(v, []).append(n)
    terminator = nodes[-1]
    outputs = set(terminator.operands)

    read_until: dict[int, int] = {}

    def last_read(v: int) -> int:
        """The step of the last op reading ``v`` or the bytes it lives in (``memory_readers``)."""
        end = read_until.get(v)
        if end is not None:
            return end
        end = -1
        for reader in uses.get(v, ()):
            at = reader.step
            if at > end:
                end = at
            if reader.kind == "start":
                wait = reader.wait
                end = max(end, wait.step)
                if reader.buffer == v:
                    for r in wait.results:
                        end = max(end, last_read(r))
        read_until[v] = end
        return end

    values, read_only, offchip = p.values, p.read_only, p.offchip

    def aliasable(v: int) -> bool:
        node = p.owner.get(v)
        return (
            node is not None and node.kind == "op" and len(node.results) == 1 and values[v].size > 0
            and v not in outputs and v not in read_only and v not in offchip
        )

    aliases = _aliases(p, nodes, uses, aliasable, last_read)
    members: dict[int, list[int]] = {}
    for v, (root, _) in aliases.items():
        members.setdefault(root, []).append(v)

    def planned(v: int) -> bool:
        node = p.owner.get(v)
        if node is None or node.kind in ("start", "wait") or v in read_only or v in outputs:
            return False
        return v not in offchip

    tree = RegionTree(len(nodes))
    value_of: dict[str, int] = {}
    for k, node in enumerate(nodes):
        for v in node.results:
            if not planned(v) or v in aliases:
                continue
            first, end = k, max(k, last_read(v))
            for member in members.get(v, ()):
                defined = p.owner[member].step
                first, end = min(first, defined), max(end, defined, last_read(member))
            if node.resident:
                end = len(nodes) - 1
            tree.tensors.append(Tensor(str(v), p.values[v].size, first, end))
            value_of[str(v)] = v
    need, tensors = peak_tensors(tree)
    peak: list[tuple[str, int, int | None]] = []
    peak_ops: dict[int, list[int]] = {}
    for t in tensors:
        v = value_of[t.id]
        node = p.owner[v]
        if node.kind == "buffer":
            peak_ops[len(peak)] = _served_keys(v, uses)
            peak.append(("resident" if node.resident else "dma", t.size, None))
        elif node.rec.key is not None and node.rec.movable:
            peak.append(("activation", t.size, node.rec.key))
        else:
            peak.append(("fixed", t.size, node.rec.key))
    return Placed(need, tree, _events(p, nodes, cache), peak, peak_ops)


def _served_keys(buffer: int, uses: dict[int, list[_Node]]) -> list[int]:
    """Keys of the ops reading what ``buffer`` holds, in the order the IR lists its readers
    (its transfers latest first: a value's uses iterate newest first)."""
    keys: list[int] = []
    for start in reversed(uses.get(buffer, [])):
        for r in start.wait.results:
            for reader in reversed(uses.get(r, [])):
                if reader.kind == "op" and reader.rec.key is not None and reader.rec.key not in keys:
                    keys.append(reader.rec.key)
    return keys


def _aliases(p: _Program, nodes, uses, aliasable, last_read) -> dict[int, tuple[int, int]]:
    """``cfmem.passes.aliases.find_aliases`` of the built program (no ``yield`` kind: one block).

    Each alias's root and offset are kept as links are made: a value taking part in a
    reshape, slice or in-place link is never itself a root then (only concat links, made
    first, give a value members), so a root once found stays the root."""
    parent: dict[int, tuple[int, int]] = {}

    def free(v: int) -> bool:
        return v not in parent and aliasable(v)

    def chain(v: int) -> tuple[int, int]:
        offset = 0
        while v in parent:
            v, delta = parent[v]
            offset += delta
        return v, offset

    for node in nodes:
        rec = node.rec
        if node.kind != "op" or rec.concat_parts is None or not aliasable(node.results[0]):
            continue
        for v, offset in zip(node.operands, rec.concat_parts):
            producer = p.owner.get(v)
            if producer is not None and producer.kind == "op" and producer.rec.compute and free(v) and len(uses.get(v, ())) == 1:
                parent[v] = (node.results[0], offset)
    roots = {v: chain(v) for v in parent}
    members: dict[int, list[int]] = {}
    for v, (r, _) in roots.items():
        members.setdefault(r, [r]).append(v)

    def root(v: int) -> int:
        found = roots.get(v)
        return v if found is None else found[0]

    def join(v: int, target: int, offset: int) -> None:
        parent[v] = (target, offset)
        r, base = roots.get(target, (target, 0))
        roots[v] = (r, base + offset)
        members.setdefault(r, [r]).append(v)

    ends: dict[int, tuple[int, int]] = {}

    def members_end(r: int) -> int:
        """The last step reading ``r`` or a member of it, from the members added since last asked."""
        group = members.get(r, [r])
        counted, end = ends.get(r, (0, -1))
        for m in group[counted:]:
            end = max(end, last_read(m))
        ends[r] = (len(group), end)
        return end

    values = p.values
    for node in nodes:
        if node.kind != "op" or not node.results:
            continue
        rec = node.rec
        result = node.results[0]
        if not free(result):
            continue
        if rec.reshape and aliasable(node.operands[0]):
            join(result, node.operands[0], 0)
        elif rec.slice_offset is not None and aliasable(node.operands[0]):
            join(result, node.operands[0], rec.slice_offset)
        elif rec.inplace:
            here = node.step
            shape, size = values[result].shape, values[result].size
            for v in dict.fromkeys(node.operands):
                if not aliasable(v) or values[v].shape != shape or values[v].size != size:
                    continue
                r = root(v)
                if any(root(o) == r for o in node.operands if o != v):
                    continue
                if members_end(r) <= here:
                    join(result, v, 0)
                    break
    return roots


def _events(p: _Program, nodes: list[_Node], cache: dict) -> Block:
    """``cfmem.passes.dma_events.function_events`` of the built program."""
    values, owner, weights, offchip = p.values, p.owner, p.weights, p.offchip
    events: list = []
    for node in nodes:
        if node.resident:
            continue
        kind = node.kind
        if kind == "op":
            rec = node.rec
            if not rec.event:
                continue
            reads = []
            for v in node.operands:
                wait = owner.get(v)
                if wait is not None and wait.kind == "wait" and not wait.resident:
                    token = wait.name
                    if token not in reads:
                        reads.append(token)
            moved_off = sum(values[v].size for v in set(node.operands) if v in weights or v in offchip)
            moved_off += sum(values[r].size for r in node.results if r in offchip)
            key = (rec.index, moved_off, *reads)
            event = cache.get(key)
            if event is None:
                event = cache[key] = Compute(rec.label, rec.macs, rec.moved, moved_off, tuple(reads), rec.sliced)
            events.append(event)
        elif kind == "start":
            ranges = tuple((o, o + values[s].size) for o, s in zip(node.offsets, node.sources))
            events.append(Start(node.name, owner[node.buffer].name, ranges, sum(values[s].size for s in node.sources)))
        elif kind == "wait":
            events.append(Wait(node.name))
    return Block("@fn", events)
