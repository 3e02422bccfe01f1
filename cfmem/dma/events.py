"""A program as a tree of DMA and compute events (no xDSL).

This is what the hazard checker and the timing model read. A ``Block`` is one
region's event list in program order; an ``IfEvent`` holds one ``Block`` per
branch, a ``LoopEvent`` the ``Block`` of its body (one iteration). Transfers name the buffer they write and the byte ranges; compute
events name the transfers whose data they read.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Start:
    """A transfer ``token`` of ``nbytes`` into ``ranges`` of ``buffer`` begins."""

    token: str
    buffer: str
    ranges: tuple[tuple[int, int], ...]
    nbytes: int


@dataclass(frozen=True)
class Wait:
    token: str


@dataclass(frozen=True)
class Compute:
    """An op; ``reads`` are the tokens whose transferred data it uses."""

    name: str
    macs: int = 0
    bytes_moved: int = 0
    offchip_bytes: int = 0
    """Bytes it reads or writes straight in off-chip memory (weights read in place, off-chip activations)."""
    reads: tuple[str, ...] = ()
    slice: bool = False
    """One slice of an op computed slice by slice (charged the chip's per-slice overhead)."""


@dataclass
class IfEvent:
    label: str
    branches: list[Block]


@dataclass
class LoopEvent:
    label: str
    body: Block
    trips: int | None = None
    """The iterations it runs when the IR fixes them (a scan, a constant trip count)."""
    limit: int | None = None
    """The most iterations it can run, when its trip count is a constant."""
    reloads: dict[str, str] = field(default_factory=dict)
    """Token of a transfer before the loop -> token of the transfer at the end of each
    iteration that loads the same data into the same bytes again: from the second
    iteration on, the body's reads of the first read the second's previous iteration."""


Event = Start | Wait | Compute | IfEvent | LoopEvent


def iterations(body: Block, count: int, reloads: dict[str, str] | None = None) -> list[Block]:
    """``count`` copies of a loop body, one per iteration, each renaming the tokens
    started inside it (``load`` becomes ``load@2`` in iteration 2), and from iteration
    2 on reading a reloaded token (``LoopEvent.reloads``) as the previous iteration's
    reload, so that checkers can follow the back edge as straight-line code."""
    started = {e.token for e in _walk(body) if isinstance(e, Start)}
    reloads = reloads or {}

    def rename(block: Block, k: int) -> Block:
        def token(t: str) -> str:
            if t in reloads and k > 1:
                return f"{reloads[t]}@{k - 1}"
            return f"{t}@{k}" if t in started else t

        out = Block(f"{block.label}@{k}")
        for e in block.events:
            if isinstance(e, Start):
                out.events.append(Start(token(e.token), e.buffer, e.ranges, e.nbytes))
            elif isinstance(e, Wait):
                out.events.append(Wait(token(e.token)))
            elif isinstance(e, Compute):
                out.events.append(Compute(e.name, e.macs, e.bytes_moved, e.offchip_bytes,
                                          tuple(token(t) for t in e.reads), e.slice))
            elif isinstance(e, IfEvent):
                out.events.append(IfEvent(e.label, [rename(b, k) for b in e.branches]))
            else:
                inner = {token(a): token(b) for a, b in e.reloads.items()}
                out.events.append(LoopEvent(e.label, rename(e.body, k), e.trips, e.limit, inner))
        return out

    return [rename(body, k) for k in range(1, count + 1)]


def _walk(block: Block):
    for e in block.events:
        yield e
        if isinstance(e, IfEvent):
            for b in e.branches:
                yield from _walk(b)
        elif isinstance(e, LoopEvent):
            yield from _walk(e.body)


@dataclass
class Block:
    """One region (function body or branch) and the events in it."""

    label: str
    events: list[Event] = field(default_factory=list)
