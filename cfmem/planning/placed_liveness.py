"""Liveness, aliases, peak and events of a placed program (``cfmem.planning.placed_program``).

Each function mirrors the IR analysis of the same name on the program ``placed_program``
built, in the same order: ``cfmem.passes.liveness`` (a region tree, a use nested in an if
counting at the if's step), ``cfmem.passes.aliases`` (concat and yield links first, then
reshape, slice and in-place in walk order), an op's kernel scratch a tensor live at its step, ``cfmem.planning.regions.peak_tensors`` and
``cfmem.passes.dma_events`` (ifs labelled ``if#k`` in walk order). Plain data, no xDSL.
"""

from __future__ import annotations

from typing import Protocol

from cfmem.dma.events import Block, Compute, IfEvent, Start, Wait
from cfmem.planning.placed_nodes import Node, Placed, ValueInfo, all_heads, block_nodes, in_block, walk
from cfmem.planning.regions import IfNode, RegionTree, Tensor, peak_tensors


class _Program(Protocol):
    """What measuring reads of a placed program (``cfmem.planning.placed_program._Program``)."""

    values: dict[int, ValueInfo]
    weights: frozenset[int]
    read_only: frozenset[int]
    head: Node
    owner: dict[int, Node]
    offchip: set[int]


def measure(p: _Program, cache: dict) -> Placed:
    """The need, events and peak of ``p``, its transfers inserted."""
    blocks: dict[int, list[Node]] = {}
    uses: dict[int, list[Node]] = {}
    for head in all_heads(p.head):
        nodes = blocks[id(head)] = block_nodes(head)
        for i, n in enumerate(nodes):
            n.step = i
    everything = walk(p.head)
    for n in everything:
        for v in n.operands:
            uses.setdefault(v, []).append(n)
    outputs = set(blocks[id(p.head)][-1].operands)  # func.return's
    values, read_only, offchip = p.values, p.read_only, p.offchip
    read_until: dict[tuple[int, int], int] = {}

    def last_read(v: int, head: Node) -> int:
        """The step in block ``head`` of the last op reading ``v`` or the bytes it lives in
        (``liveness.memory_readers``, a nested reader at the op of ``head`` holding it)."""
        memo = (v, id(head))
        end = read_until.get(memo)
        if end is not None:
            return end
        end = -1
        for reader in uses.get(v, ()):
            at = (reader if reader.block is head else in_block(reader, head)).step
            if at > end:
                end = at
            if reader.kind == "start":
                wait = reader.wait
                end = max(end, in_block(wait, head).step)
                if reader.buffer == v:
                    for r in wait.results:
                        end = max(end, last_read(r, head))
        read_until[memo] = end
        return end

    def aliasable(v: int) -> bool:
        node = p.owner.get(v)
        return (
            node is not None and node.kind == "op" and len(node.results) == 1 and values[v].size > 0
            and v not in outputs and v not in read_only and v not in offchip
        )

    aliases = _aliases(p, everything, uses, aliasable, last_read)
    members: dict[int, list[int]] = {}
    for v, (root, _) in aliases.items():
        members.setdefault(root, []).append(v)

    def planned(v: int) -> bool:
        node = p.owner.get(v)
        if node is None or node.kind in ("start", "wait") or v in read_only or v in outputs:
            return False
        return v not in offchip

    value_of: dict[str, int] = {}
    scratch_of: dict[str, Node] = {}
    counters = {"if": 0}

    def region(head: Node) -> RegionTree:
        nodes = blocks[id(head)]
        tree = RegionTree(len(nodes))
        for k, node in enumerate(nodes):
            if node.branches:
                if_id = counters["if"]
                counters["if"] += 1
                tree.ifs.append(IfNode(if_id, k, [region(b) for b in node.branches], "if", f"if#{if_id}"))
            for v in node.results:
                if not planned(v) or v in aliases:
                    continue
                first, end = k, max(k, last_read(v, head))
                for member in members.get(v, ()):
                    defined = in_block(p.owner[member], head).step
                    first, end = min(first, defined), max(end, defined, last_read(member, head))
                if node.resident:
                    end = len(nodes) - 1
                tree.tensors.append(Tensor(str(v), values[v].size, first, end))
                value_of[str(v)] = v
            if needs_scratch(node):
                scratch = Tensor(f"{node.results[0]}#scratch", node.rec.scratch, k, k)
                tree.tensors.append(scratch)
                scratch_of[scratch.id] = node
        return tree

    def needs_scratch(node: Node) -> bool:
        """An op whose kernel runs with scratch (``liveness``'s ``add_scratch``): not a reshape or
        slice alias, which is a view."""
        if node.kind != "op" or not node.rec.scratch or not node.rec.movable:
            return False
        view = node.rec.reshape or node.rec.slice_offset is not None
        return not (view and node.results[0] in aliases)

    tree = region(p.head)
    need, tensors = peak_tensors(tree)
    peak: list[tuple[str, int, int | None]] = []
    peak_ops: dict[int, list[int]] = {}
    for t in tensors:
        if t.id in scratch_of:
            peak.append(("scratch", t.size, scratch_of[t.id].rec.key))
            continue
        v = value_of[t.id]
        node = p.owner[v]
        if node.kind == "buffer":
            peak_ops[len(peak)] = _served_keys(v, uses)
            peak.append(("resident" if node.resident else "dma", t.size, None))
        elif node.rec.key is not None and node.rec.movable:
            peak.append(("activation", t.size, node.rec.key))
        else:
            peak.append(("fixed", t.size, node.rec.key))
    labels = {id(n): f"if#{k}" for k, n in enumerate(n for n in everything if n.branches)}
    events = _events(p, p.head, "@fn", blocks, labels, offchip, cache)
    return Placed(need, events, peak, peak_ops)


def _served_keys(buffer: int, uses: dict[int, list[Node]]) -> list[int]:
    """Keys of the ops reading what ``buffer`` holds, in the order the IR lists its readers
    (its transfers latest first: a value's uses iterate newest first)."""
    keys: list[int] = []
    for start in reversed(uses.get(buffer, [])):
        for r in start.wait.results:
            for reader in reversed(uses.get(r, [])):
                if reader.kind == "op" and reader.rec.key is not None and reader.rec.key not in keys:
                    keys.append(reader.rec.key)
    return keys


def _aliases(p: _Program, everything: list[Node], uses, aliasable, last_read) -> dict[int, tuple[int, int]]:
    """``cfmem.passes.aliases.find_aliases`` of the built program.

    Each alias's root and offset are kept as links are made: a value taking part in a
    reshape, slice or in-place link is never itself a root then (only concat and yield
    links, made first, give a value members), so a root once found stays the root."""
    parent: dict[int, tuple[int, int]] = {}
    owner = p.owner

    def free(v: int) -> bool:
        return v not in parent and aliasable(v)

    def single_use_in(v: int, head: Node) -> bool:
        producer = owner.get(v)
        return free(v) and producer is not None and producer.block is head and len(uses.get(v, ())) == 1

    for node in everything:
        rec = node.rec
        if node.kind != "op":
            continue
        if rec.concat_parts is not None and aliasable(node.results[0]):
            for v, offset in zip(node.operands, rec.concat_parts):
                producer = owner.get(v)
                if producer is not None and producer.kind == "op" and producer.rec.compute and single_use_in(v, node.block):
                    parent[v] = (node.results[0], offset)
        for branch in node.branches:
            end = block_nodes(branch)[-1]  # its nn.yield
            for v, result in zip(end.operands, node.results):
                if aliasable(result) and single_use_in(v, branch):
                    parent[v] = (result, 0)

    def chain(v: int) -> tuple[int, int]:
        offset = 0
        while v in parent:
            v, delta = parent[v]
            offset += delta
        return v, offset

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

    def members_end(r: int, head: Node) -> int:
        """The last step of block ``head`` reading ``r`` or a member of it, from the members
        added since last asked (``head`` is always ``r``'s block)."""
        group = members.get(r, [r])
        counted, end = ends.get(r, (0, -1))
        for m in group[counted:]:
            end = max(end, last_read(m, head))
        ends[r] = (len(group), end)
        return end

    values = p.values
    for node in everything:
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
            shape, size = values[result].shape, values[result].size
            for v in dict.fromkeys(node.operands):
                if not aliasable(v) or values[v].shape != shape or values[v].size != size:
                    continue
                r = root(v)
                if owner[r].block is not node.block:
                    continue
                if any(root(o) == r for o in node.operands if o != v):
                    continue
                if members_end(r, node.block) <= node.step:
                    join(result, v, 0)
                    break
    return roots


def _events(p: _Program, head: Node, label: str, blocks, labels, offchip: set[int], cache: dict) -> Block:
    """``cfmem.passes.dma_events.block_events`` of the block ``head`` heads."""
    values, owner, weights = p.values, p.owner, p.weights
    events: list = []
    for node in blocks[id(head)]:
        if node.resident:
            continue
        kind = node.kind
        if node.branches:
            tag = labels[id(node)]
            events.append(IfEvent(tag, [
                _events(p, b, f"{label}/{tag}.{side}", blocks, labels, offchip, cache)
                for b, side in zip(node.branches, ("then", "else"))
            ]))
        elif kind == "op":
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
    return Block(label, events)
