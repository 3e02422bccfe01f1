"""The DMA hazard checker: rules every program with transfers must obey.

1. An op reads transferred data only after the wait on that transfer.
2. A transfer overwrites bytes of a buffer only after the last reader of the
   data there has run.
3. No transfer is outstanding when a region ends: at an ``nn.if`` or
   ``nn.loop`` (the paper's region cut), at the end of a branch or of an
   iteration, at the end of the function.
4. Every token is waited exactly once, after its start.

Each violation is a ``HazardError`` naming the op, the token and the region.
A loop is checked as two iterations in a row (``cfmem.dma.events.iterations``),
so a transfer of iteration 2 that overwrites what iteration 1 loaded for
later iterations (a weight hoisted out of the loop) is caught.
"""

from __future__ import annotations

from collections import Counter

from cfmem.dma.events import Block, Compute, IfEvent, LoopEvent, Start, Wait, iterations


class HazardError(ValueError):
    """A DMA ordering rule is broken."""


def _overlaps(a: tuple[tuple[int, int], ...], b: tuple[tuple[int, int], ...]) -> bool:
    return any(lo1 < hi2 and lo2 < hi1 for lo1, hi1 in a for lo2, hi2 in b)


def _reads(block: Block) -> Counter[str]:
    """How many times each token's data is read (nested blocks included)."""
    reads: Counter[str] = Counter()
    for event in block.events:
        if isinstance(event, Compute):
            reads.update(event.reads)
        elif isinstance(event, IfEvent):
            for branch in event.branches:
                reads += _reads(branch)
    return reads


def unrolled(block: Block) -> Block:
    """``block`` with every loop as two iterations one after the other (an if whose
    branches run in turn, which is how ``check`` visits them)."""
    out = Block(block.label)
    for e in block.events:
        if isinstance(e, LoopEvent):
            out.events.append(IfEvent(e.label, [unrolled(b) for b in iterations(e.body, 2, e.reloads)]))
        elif isinstance(e, IfEvent):
            out.events.append(IfEvent(e.label, [unrolled(b) for b in e.branches]))
        else:
            out.events.append(e)
    return out


def check(program: Block) -> None:
    """Raise ``HazardError`` at the first broken rule in ``program``.

    Events are visited in program order, branches one after the other, so a
    token's reads still to come are those not yet visited. A token started and
    not yet waited is always in the current region's ``outstanding`` list: an
    enclosing region's list is empty at its cut, and a region ending with one
    is an error.
    """
    program = unrolled(program)
    reads_left = _reads(program)
    started: dict[str, Start] = {}
    waited: set[str] = set()
    # per buffer: transfers whose data may still be read, by token
    resident: dict[str, list[Start]] = {}

    def run(block: Block) -> None:
        outstanding: list[str] = []

        def region_end(where: str) -> None:
            if outstanding:
                raise HazardError(
                    f"transfer {outstanding[0]} into {started[outstanding[0]].buffer} is still"
                    f" outstanding at {where} of region {block.label}"
                )

        for event in block.events:
            if isinstance(event, Start):
                if event.token in started:
                    raise HazardError(f"token {event.token} is started twice in region {block.label}")
                for prior in resident.get(event.buffer, []):
                    if _overlaps(prior.ranges, event.ranges) and reads_left[prior.token]:
                        raise HazardError(
                            f"transfer {event.token} overwrites bytes of {event.buffer} that are"
                            f" still to be read from transfer {prior.token} (region {block.label})"
                        )
                resident[event.buffer] = [
                    p for p in resident.get(event.buffer, []) if not _overlaps(p.ranges, event.ranges)
                ] + [event]
                started[event.token] = event
                outstanding.append(event.token)
            elif isinstance(event, Wait):
                if event.token not in started:
                    raise HazardError(f"wait on token {event.token} before its start (region {block.label})")
                if event.token in waited:
                    raise HazardError(f"token {event.token} is waited twice (region {block.label})")
                waited.add(event.token)
                outstanding.remove(event.token)
            elif isinstance(event, Compute):
                for token in event.reads:
                    if token not in waited:
                        raise HazardError(
                            f"op {event.name} reads the data of transfer {token} before its wait"
                            f" (region {block.label})"
                        )
                    reads_left[token] -= 1
            else:
                region_end(f"the {event.label}")
                for branch in event.branches:
                    run(branch)
        region_end("the end")

    run(program)
