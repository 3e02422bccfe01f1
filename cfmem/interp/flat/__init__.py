"""Byte-accurate interpreter for the flat form of ``nn-lower-to-memref``.

Every ``memref.global`` is one real byte buffer, and every ``memref.view`` a
numpy view into it at its byte offset, so two tensors a plan puts on the same
bytes really overwrite each other. Compute runs through the same kernels as
the tensor-level interpreter (``nn.apply`` evaluates its body op), so with a
correct plan both give bit-identical outputs.

In checking mode the interpreter also records, for every byte of every
writable buffer, which tensor (the ``cfmem.tensor`` name of the view or DMA
that wrote it) owns it. It stops with a ``ClobberError`` naming both tensors
when a view is read whose bytes another tensor has overwritten (or nobody
wrote), when an op's output overlaps one of its inputs, when bytes of a
DMA transfer are read or overwritten before its ``memref.dma_wait``, and
when the source of a transfer from a writable memory (an activation
prefetched from the off-chip arena) is not one tensor's bytes at the start
or is overwritten before the wait.

A function whose ``cfmem.init`` names a resident-weight loader runs it first,
on the same memories, as a runtime would before the first inference. The
on-chip memories (space 1) are measured: ``onchip_bytes`` is their total
size and ``onchip_touched`` one past the highest byte any op or transfer
wrote in them. A function with ``cfmem.onchip_budget`` is refused before it
runs when its on-chip memories exceed the budget.

An ``nn.apply`` with a scratch buffer writes its bytes while it runs (they then hold
``ARENA_FILL``), and in checking mode must not have them on its inputs or output.

Aliases: a view may also read bytes owned by the tensors its ``cfmem.reads``
names (a reshape's source, a concat's parts, the values yielded into an if's
result), and an ``nn.apply`` marked ``cfmem.inplace`` running an elementwise
op may write exactly over one of its inputs (no other overlap).

Loops: ``scf.for`` (positive step, no iter_args) and ``scf.while`` over index
values run iteration by iteration on the same memories, so every iteration's
reads are checked, not only the first; those of an ``nn.loop``
(``cfmem.loop``) are recorded with the iterations they ran.

- :mod:`~cfmem.interp.flat.memory`: memories, views and transfers in flight, the errors;
- :mod:`~cfmem.interp.flat.machine`: the memories of a run and the checked reads and writes;
- :mod:`~cfmem.interp.flat.compiler`: each op of a block compiled into a step over slots,
  with :mod:`~cfmem.interp.flat.loops` (``scf.for``, ``scf.while``) and
  :mod:`~cfmem.interp.flat.transfers` (DMA start and wait);
- :mod:`~cfmem.interp.flat.interpreter`: ``FlatInterpreter``, ``run_flat`` and ``measure_flat``.

The package exports the names a caller of the interpreter uses.
"""

from __future__ import annotations

from cfmem.interp.flat.interpreter import FlatInterpreter, measure_flat, run_flat
from cfmem.interp.flat.memory import ARENA_FILL, CapacityError, ClobberError, Memory, Ref, Transfer

__all__ = [
    "ARENA_FILL", "CapacityError", "ClobberError", "FlatInterpreter", "Memory", "Ref", "Transfer", "measure_flat",
    "run_flat",
]
