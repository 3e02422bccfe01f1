"""DMA rules for the flat form, where transfers write bytes of named memories.

After ``nn-lower-to-memref`` a transfer is a ``memref.dma_start`` into a byte
range of a memory (the arena, a global, an argument), finished by the
``memref.dma_wait`` on the same tag element; ops read and write byte ranges
of the same memories through views. The rules, on every execution path:

1. No op reads or writes bytes a transfer is still writing (so a transfer's
   data is read only after its wait, and its buffer is reused only after it),
   and no op or transfer writes bytes a transfer is still reading (the
   source of a prefetch from the off-chip activation arena).
2. A tag element is not reused while its transfer is outstanding, and every
   wait finds a transfer on its tag element.
3. Every transfer is waited for before the function ends.

Branches start from the transfers outstanding before the if; after it, a
transfer counts as outstanding if it is on some path. A loop's body runs from
the transfers outstanding before it, then again from those left by the first
iteration (the back edge); after it, the transfers of zero, one or two
iterations count. No xDSL here.
"""

from __future__ import annotations

from dataclasses import dataclass

from cfmem.dma.events import Block, IfEvent, LoopEvent
from cfmem.dma.hazards import HazardError

Tag = tuple[str, int | None]
"""A tag memory and the element used in it (None if not a constant)."""


@dataclass(frozen=True)
class Bytes:
    """``[lo, hi)`` of ``memory``, and whose bytes they are, for messages."""

    memory: str
    lo: int
    hi: int
    name: str

    def overlaps(self, other: Bytes) -> bool:
        return self.memory == other.memory and self.lo < other.hi and other.lo < self.hi


@dataclass(frozen=True)
class FlatStart:
    tag: Tag
    dest: Bytes
    source: Bytes | None = None


@dataclass(frozen=True)
class FlatWait:
    tag: Tag


@dataclass(frozen=True)
class Access:
    """Op ``op`` (as messages name it) reads, writes or uses (``verb``) ``target``."""

    op: str
    verb: str
    target: Bytes


def _tag_text(tag: Tag) -> str:
    return f"{tag[0]}[{tag[1] if tag[1] is not None else '?'}]"


def _run(block: Block, in_flight: dict[Tag, FlatStart]) -> dict[Tag, FlatStart]:
    for event in block.events:
        if isinstance(event, FlatStart):
            if event.tag in in_flight:
                raise HazardError(
                    f"transfer of %{event.dest.name} reuses tag {_tag_text(event.tag)} before the wait on the"
                    f" transfer of %{in_flight[event.tag].dest.name} (region {block.label})"
                )
            for prior in in_flight.values():
                if prior.dest.overlaps(event.dest):
                    raise HazardError(
                        f"transfer of %{event.dest.name} overwrites bytes of {event.dest.memory} that the"
                        f" transfer of %{prior.dest.name} is still writing (region {block.label})"
                    )
                if prior.source is not None and prior.source.overlaps(event.dest):
                    raise HazardError(
                        f"transfer of %{event.dest.name} overwrites bytes of {event.dest.memory} that the"
                        f" transfer of %{prior.dest.name} is still reading (region {block.label})"
                    )
            in_flight[event.tag] = event
        elif isinstance(event, FlatWait):
            if in_flight.pop(event.tag, None) is None:
                raise HazardError(f"wait on tag {_tag_text(event.tag)} with no transfer outstanding (region {block.label})")
        elif isinstance(event, Access):
            for prior in in_flight.values():
                if prior.dest.overlaps(event.target):
                    raise HazardError(
                        f"{event.op} {event.verb} %{event.target.name} before the wait on the transfer of"
                        f" %{prior.dest.name} into the same bytes (region {block.label})"
                    )
                if event.verb != "reads" and prior.source is not None and prior.source.overlaps(event.target):
                    raise HazardError(
                        f"{event.op} {event.verb} %{event.target.name} while the transfer of %{prior.dest.name}"
                        f" is still reading the same bytes (region {block.label})"
                    )
        elif isinstance(event, IfEvent):
            after: dict[Tag, FlatStart] = {}
            for branch in event.branches:
                after.update(_run(branch, dict(in_flight)))
            in_flight = after
        elif isinstance(event, LoopEvent):  # no iteration, one, or two in a row (the back edge)
            once = _run(event.body, dict(in_flight))
            twice = _run(event.body, dict(once))
            in_flight = {**in_flight, **once, **twice}
    return in_flight


def check_flat(program: Block) -> None:
    """Raise ``HazardError`` at the first broken rule in ``program``."""
    left = _run(program, {})
    if left:
        start = next(iter(left.values()))
        raise HazardError(f"transfer of %{start.dest.name} is never waited for (region {program.label})")
