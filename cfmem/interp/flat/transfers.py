"""The steps of ``memref.dma_start`` and ``memref.dma_wait`` in the flat interpreter.

A transfer takes its source's bytes at its start (a constant global's in place, copied only
if something writes that memory first) and stores them at its wait. In checking mode its
destination may not be read or overwritten before the wait, and a source in a writable
memory (an activation prefetched from the off-chip arena) must be one tensor's bytes at the
start and stay so until the wait.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import memref

from cfmem.interp.flat.machine import Step, Values
from cfmem.interp.flat.memory import UNWRITTEN, ClobberError, Memory, Ref, Transfer
from cfmem.interp.golden import InterpError


class TransferSteps:
    """Compiles DMA transfers, for :class:`~cfmem.interp.flat.compiler._Compiler` (whose
    ``interp``, ``slot`` and ``tensor_name`` these use)."""

    def dma_start(self, op: memref.DmaStartOp) -> Step:
        interp = self.interp
        src_slot, dst_slot, tag_slot = self.slot(op.src), self.slot(op.dest), self.slot(op.tag)
        count_slot, src_at, dst_at = self.slot(op.num_elements), self.slot(op.src_indices[0]), self.slot(op.dest_indices[0])
        element = self.slot(op.tag_indices[0])
        tensor, _ = self.tensor_name(op)
        byte = np.dtype(np.uint8)
        dests: dict[tuple[Memory, int, int, str | None], Ref] = {}

        def dma_start(values: Values) -> None:
            src: Ref = values[src_slot]
            dst: Ref = values[dst_slot]
            count = values[count_slot] * src.dtype.itemsize
            s0 = src.offset + values[src_at] * src.dtype.itemsize
            d0 = dst.offset + values[dst_at] * dst.dtype.itemsize
            name = tensor(values)
            dest = dests.get((dst.memory, d0, count, name))
            if dest is None:
                dest = Ref(dst.memory, d0, (count,), byte, name)
                if dst.memory.initial is not None:  # a global's memory, kept between runs
                    dests[dst.memory, d0, count, name] = dest
            if interp.check and interp.in_flight:
                interp.check_not_in_flight(dest, op, "overwrites")
            key = (id(values[tag_slot].memory), values[element])
            if key in interp.in_flight:
                raise InterpError("reuses a DMA tag whose transfer has not been waited for", op)
            if src.memory.constant:
                transfer = Transfer(src.memory.data[s0 : s0 + count], dest, viewed=src.memory)
            else:
                transfer = Transfer(src.memory.data[s0 : s0 + count].copy(), dest)
            if interp.check and src.memory.owner is not None:
                owners = src.memory.owner[s0 : s0 + count].copy()
                if owners.size and (owners[0] == UNWRITTEN or (owners != owners[0]).any()):
                    raise ClobberError(
                        f"the DMA of %{dest.tensor} reads bytes {s0} to {s0 + count} of {src.memory.name},"
                        " which no single tensor wrote", op
                    )
                transfer.source_memory, transfer.source_start, transfer.source_owners = src.memory, s0, owners
            interp.transfer_started(transfer, src.memory, s0)
            interp.in_flight[key] = transfer

        return dma_start

    def dma_wait(self, op: memref.DmaWaitOp) -> Step:
        interp, tag_slot, element = self.interp, self.slot(op.tag), self.slot(op.tag_indices[0])

        def wait(values: Values) -> None:
            transfer = interp.in_flight.pop((id(values[tag_slot].memory), values[element]), None)
            if transfer is None:
                raise InterpError("waits on a DMA tag no transfer is using", op)
            interp.check_source_kept(transfer, op)
            interp.transfer_ending(transfer)
            interp.store(transfer.dest, transfer.source)  # no transfer in flight overlaps it: refused at its start

        return wait
