"""The data ``nn-place`` measures placements with, shared by ``cfmem.planning.placed_program``
(which builds a placement's program) and ``cfmem.planning.placed_liveness`` (which measures
it): records of ops and values, an op's placement, the nodes of a program being built (one
linked list per block) and the walks over them. Plain data, no xDSL.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from cfmem.dma.events import Block


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
    scratch: int = 0
    """Bytes of scratch its kernel needs while it runs (``cfmem.dialects.scratch``)."""
    index: int = -1
    """Its number, unique among the records measured together: names its transfers, keys ``cache``."""
    branches: tuple[tuple[OpRecord, ...], ...] = ()
    """An ``nn.if``'s then and else blocks (each ending with its ``nn.yield``)."""


def program_ops(records: tuple[OpRecord, ...]) -> int:
    """How many ops ``records`` hold, those of if branches included, but weight views nothing
    reads (a sliced op's own views, which slicing erases)."""
    everything = list(all_records(records))
    read = {v for rec in everything for v in rec.operands}
    return sum(1 for rec in everything if not (rec.defines_weight and not set(rec.results) & read))


def all_records(records: tuple[OpRecord, ...]) -> Iterator[OpRecord]:
    """Every record of ``records`` and of the if branches nested in them, in pre-order."""
    for rec in records:
        yield rec
        for branch in rec.branches:
            yield from all_records(branch)


@dataclass(frozen=True)
class Flags:
    """The placement of one op key."""

    weights: str = "stream"
    offchip: bool = False
    prefetch: bool = False
    evict: bool = False


STAY = Flags()
"""On chip, weights streamed: an op no flag moves."""
OFF_CHIP = Flags(offchip=True)
PREFETCHED = Flags(offchip=True, prefetch=True)


@dataclass
class Placed:
    """What ``nn-place`` reads of a placement: the same fields as its ``Measure``."""

    need: int
    """The path-exact lower bound of the on-chip tensors (``regions.peak_tensors``)."""
    events: Block
    peak: list[tuple[str, int, int | None]]
    """The tensors at the peak: (kind, bytes, op key), kind ``dma``, ``resident``, ``activation``,
    ``fixed`` or ``scratch`` (an op's kernel scratch, keyed by the op)."""
    peak_ops: dict[int, list[int]]
    """For each DMA buffer at the peak (by index into ``peak``), the keys of the ops it serves."""


class Node:
    """An op of the program being built: a record's op, a transfer's buffer, start or wait, or
    the sentinel heading a block. What most nodes leave at its default is a class attribute
    (one node is made per op of every placement measured)."""

    resident = False
    buffer = -1
    """A transfer's destination."""
    sources: list[int] = []
    offsets: list[int] = []
    token = -1
    wait: Node | None = None
    """A transfer's wait."""
    step = -1
    """Its position in its block."""
    streamed: list[int] = []
    """What DMA brings on chip for it (``streamed_operands`` once the evictions are in place)."""
    name = ""
    """A transfer's (and its wait's) token name, a buffer's name: the same in every placement."""
    prev: Node | None = None
    next: Node | None = None
    block: Node | None = None
    """The sentinel heading its block."""
    branches: list[Node] = []
    """An if's blocks (their sentinels)."""
    parent_op: Node | None = None
    """A sentinel's: the if whose branch it heads (None for the function's body)."""

    def __init__(self, kind: str, rec: OpRecord | None, operands: list[int], results: tuple[int, ...], flags: Flags = STAY):
        self.kind = kind
        self.rec = rec
        self.operands = operands
        self.results = results
        self.flags = flags


def block_nodes(head: Node) -> list[Node]:
    """The nodes of the block ``head`` heads, in order."""
    out = []
    node = head.next
    while node is not None:
        out.append(node)
        node = node.next
    return out


def walk(head: Node) -> list[Node]:
    """Every node of the block ``head`` heads and of the blocks nested in it, in pre-order (an if
    before its branches' nodes), as ``Operation.walk`` goes."""
    out: list[Node] = []
    stack: list[Node | None] = [head.next]
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


def all_heads(head: Node) -> list[Node]:
    """``head`` and every block nested in its block, parents first (``insert_dma.all_blocks``)."""
    out = [head]
    for node in block_nodes(head):
        for branch in node.branches:
            out.extend(all_heads(branch))
    return out


def in_block(node: Node, head: Node) -> Node:
    """The node of block ``head`` that is ``node`` or holds it."""
    while node.block is not head:
        node = node.block.parent_op
    return node


def is_terminator(node: Node) -> bool:
    return node.kind == "op" and node.rec.terminator


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
