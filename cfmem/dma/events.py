"""A program as a tree of DMA and compute events (no xDSL).

This is what the hazard checker and the timing model read. A ``Block`` is one
region's event list in program order; an ``IfEvent`` holds one ``Block`` per
branch. Transfers name the buffer they write and the byte ranges; compute
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


Event = Start | Wait | Compute | IfEvent


@dataclass
class Block:
    """One region (function body or branch) and the events in it."""

    label: str
    events: list[Event] = field(default_factory=list)
