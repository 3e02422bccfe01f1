"""The event tree of a function (cfmem.dma.events) read off nn IR, and the
``nn-check-dma`` pass that runs the hazard checker on it.

A loop body ends with a compute event for the copies its iteration makes (the next
condition, carried values and scan elements, as ``nn-lower-to-memref`` lowers them).

The transfer of resident weights (``cfmem.resident``) is not an event of an
inference: it runs once before the first one (``resident_bytes`` gives its
size). An op's off-chip bytes are the weights it reads straight from off-chip
memory and the off-chip activations (``cfmem.offchip``) it reads and writes.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block as IRBlock
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.traits import IsTerminator
from xdsl.utils.exceptions import PassFailedException

from cfmem.dialects.nn_compute import ConstantOp
from cfmem.dialects.nn_control import IfOp, LoopOp, if_labels, loop_labels
from cfmem.dialects.nn_dma import DmaBufferOp, DmaStartOp, DmaWaitOp
from cfmem.dialects.nn_weights import GetGlobalOp, ViewOp
from cfmem.dialects.types import tensor_bytes
from cfmem.dma.events import Block, Compute, IfEvent, LoopEvent, Start, Wait
from cfmem.dma.flat_hazards import check_flat
from cfmem.dma.hazards import HazardError, check
from cfmem.passes.flat_dma_events import flat_function_events
from cfmem.passes.liveness import functions, is_weight
from cfmem.passes.dma_reloads import reloaded_transfers
from cfmem.passes.names import ValueNames
from cfmem.passes.placement import SLICE_OF_ATTR, is_offchip_activation, is_resident


def op_label(op: Operation, names: ValueNames) -> str:
    return f"{op.name} {names(op.results[0])}" if op.results else op.name


_NO_EVENT = frozenset({DmaBufferOp, GetGlobalOp, ViewOp, ConstantOp})
"""Ops that are no event. Op classes are compared by exact type here (none of these has a
subclass): ``isinstance`` against xDSL's ABC-based op classes is slow when it fails, and
``nn-place`` reads the events of every placement it measures."""


def _compute(op: Operation, names: ValueNames) -> Compute:
    reads = tuple(
        names(v.owner.token) for v in op.operands if type(v.owner) is DmaWaitOp and not is_resident(v.owner)
    )
    offchip = sum(tensor_bytes(v.type) for v in set(op.operands) if is_weight(v) or is_offchip_activation(v))
    offchip += sum(tensor_bytes(r.type) for r in op.results if is_offchip_activation(r))
    macs = op.macs() if hasattr(op, "macs") else 0
    moved = op.bytes_written() if hasattr(op, "bytes_written") else 0
    sliced = SLICE_OF_ATTR in op.attributes
    return Compute(op_label(op, names), macs, moved, offchip, tuple(dict.fromkeys(reads)), sliced)


def static_trips(op: LoopOp) -> int | None:
    """The iterations ``op`` runs whatever the inputs: its scan length, or a constant
    trip count of a loop that tests no condition."""
    if op.scan_length() is not None:
        return op.scan_length()
    limit = trip_limit(op)
    return limit if op.is_counted() else None


def iteration_copies(op: LoopOp) -> int:
    """Bytes an iteration of ``op`` copies at its end (the lowering's copies): the next
    condition, the next carried values and the scan elements."""
    return sum(tensor_bytes(v.type) for v in op.yield_op.values)


def trip_limit(op: LoopOp) -> int | None:
    """The most iterations ``op`` can run: its trip count when that is a constant."""
    count = op.trip_count.owner
    return max(0, int(count.value.get_values()[0])) if isinstance(count, ConstantOp) else None


def block_events(block: IRBlock, label: str, names: ValueNames, if_labels: dict[IfOp | LoopOp, str]) -> Block:
    events = Block(label)
    for op in block.ops:
        if is_resident(op):
            continue
        kind = type(op)  # exact classes: see _NO_EVENT
        if kind is DmaStartOp:
            events.events.append(
                Start(names(op.token), names(op.buffer), tuple(op.byte_ranges()), op.transfer_bytes())
            )
        elif kind is DmaWaitOp:
            events.events.append(Wait(names(op.token)))
        elif kind is IfOp:
            tag = if_labels[op]
            events.events.append(
                IfEvent(
                    tag,
                    [
                        block_events(r.block, f"{label}/{tag}.{side}", names, if_labels)
                        for r, side in zip(op.branches, ("then", "else"))
                    ],
                )
            )
        elif kind is LoopOp:
            tag = if_labels[op]
            body = block_events(op.body.block, f"{label}/{tag}.body", names, if_labels)
            body.events.append(Compute(f"{tag} end of iteration", bytes_moved=iteration_copies(op)))
            reloads = {names(first.token): names(reload.token) for first, reload in reloaded_transfers(op)}
            events.events.append(LoopEvent(tag, body, static_trips(op), trip_limit(op), reloads))
        elif not (
            kind in _NO_EVENT or op.has_trait(IsTerminator)
            or (op.results and is_weight(op.results[0]))
        ):
            events.events.append(_compute(op, names))
    return events


def function_events(fn: func.FuncOp) -> Block:
    """The event tree of ``fn``; ifs are labelled ``if#k`` and loops ``loop#k`` in pre-order."""
    labels: dict[IfOp | LoopOp, str] = {**if_labels(fn), **loop_labels(fn)}
    return block_events(fn.body.block, f"@{fn.sym_name.data}", ValueNames("#", "v", "%"), labels)


def resident_bytes(fn: func.FuncOp) -> int:
    """Bytes of weights ``fn`` loads once before its first inference."""
    return sum(op.transfer_bytes() for op in fn.walk() if isinstance(op, DmaStartOp) and is_resident(op))


def check_function(fn: func.FuncOp) -> None:
    """Raise HazardError if ``fn``'s transfers break a DMA rule."""
    check(function_events(fn))


@dataclass(frozen=True)
class CheckDmaPass(ModulePass):
    """Fails with the first DMA hazard found: in ``nn.dma_*`` transfers (see
    cfmem.dma.hazards) and, after nn-lower-to-memref, in ``memref.dma_*``
    transfers (see cfmem.dma.flat_hazards)."""

    name = "nn-check-dma"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in functions(op):
            try:
                check_function(fn)
                check_flat(flat_function_events(fn))
            except HazardError as err:
                raise PassFailedException(f"DMA hazard in @{fn.sym_name.data}: {err}") from err
