"""The machine the flat interpreter's compiled steps run on, with its ownership checks.

In checking mode every byte of every writable memory records which tensor (the
``cfmem.tensor`` name of the view or DMA that wrote it) owns it. A read of a view some of
whose bytes are neither its tensor's nor those of a tensor its ``cfmem.reads`` names
(another tensor overwrote them, or nothing wrote them), a read or write of bytes a DMA
transfer in flight is writing, and a transfer whose source is overwritten before its wait
stop the run with a ``ClobberError`` naming the tensors.

Hooks (``applied``, ``copying``, ``transfer_started``, ``transfer_ending``) do nothing
here: a subclass that tracks something beside the values (error bounds,
:mod:`cfmem.interp.flat_bounds`) overrides them.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from xdsl.dialects import memref, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from cfmem.dialects.flat_form import ON_CHIP
from cfmem.dialects.nn_memref import ApplyOp
from cfmem.interp.flat.memory import UNWRITTEN, ClobberError, Memory, Ref, Transfer, _global_bytes
from cfmem.interp.golden import InterpError

Values = list
"""The values of a run: a ``Ref``, an int or a bool per SSA value, at its slot."""
Step = Callable[[Values], None]


class FlatMachine:
    """What the compiled steps of a flat function run on: the memories of a run, the tensor
    that owns each byte (checking mode), and the reads and writes of views, which check it.

    A global's memory is made on first use and kept between runs, put back to its initial
    bytes when a run first uses it. The run's DMA transfers in flight (``in_flight``) are
    set by the interpreter's run."""

    def __init__(self, module: ModuleOp, check: bool = True):
        self.check = check
        self.global_ops = {op.sym_name.data: op for op in module.ops if isinstance(op, memref.GlobalOp)}
        self.if_labels = {op: f"if#{k}" for k, op in enumerate(o for o in module.walk() if isinstance(o, scf.IfOp))}
        self.tensor_ids: dict[str, int] = {}
        self.tensor_names: list[str] = []
        self.owner_dtype = np.dtype(np.int16)
        """Owner ids: 16 bits (half the bytes to write and compare) until there are more tensors."""
        self.memories: dict[str, Memory] = {}
        self._kept: dict[str, Memory] = {}
        self.statics: dict[int, object] = {}
        """Values the same in every run, by slot: integer constants, global memrefs, views of them at constant shifts."""
        self._template: Values = []
        self.slots: dict[int, int] = {}
        """The index in a run's values of each SSA value (by ``id``: the module holds them) of a compiled function."""

    def tensor_id(self, name: str) -> int:
        if name not in self.tensor_ids:
            self.tensor_ids[name] = len(self.tensor_names)
            self.tensor_names.append(name)
            if len(self.tensor_names) > np.iinfo(self.owner_dtype).max:
                self.owner_dtype = np.dtype(np.int32)
                for memory in self._kept.values():
                    if memory.owner is not None:
                        memory.owner = memory.owner.astype(np.int32)
        return self.tensor_ids[name]

    def own_memory(self, name: str, array: np.ndarray) -> Ref:
        """A buffer of its own for ``array`` (viewed in place when C-contiguous, else copied)."""
        memory = Memory(name, array.ravel().view(np.uint8))
        return Ref(memory, 0, array.shape, array.dtype)

    def memory(self, name: str) -> Memory:
        """The memory of global ``name``, as a run starts with it (kept between runs)."""
        memory = self.memories.get(name)
        if memory is not None:
            return memory
        fresh = name not in self._kept
        memory = self.global_memory(name)
        if not fresh:
            memory.reset()
        self.memories[name] = memory
        return memory

    def global_memory(self, name: str) -> Memory:
        """The memory kept for global ``name`` (made on first use), in whatever state it is."""
        memory = self._kept.get(name)
        if memory is None:
            op = self.global_ops.get(name)
            if op is None:
                raise InterpError(f"no memref.global @{name} in the module")
            memory = Memory(name, _global_bytes(op), on_chip=op.type.memory_space == ON_CHIP,
                            initial=lambda op=op: _global_bytes(op),
                            constant=op.constant is not None)
            if op.constant is None and self.check:
                memory.owner = np.full(memory.data.shape, UNWRITTEN, self.owner_dtype)
            self._kept[name] = memory
        return memory

    def fresh_values(self) -> Values:
        """A run's values: the constants, global memrefs and fixed views, and room for the rest."""
        if len(self._template) != len(self.slots):
            self._template = [None] * len(self.slots)
            for k, value in self.statics.items():
                self._template[k] = value
        return self._template.copy()

    # --- ownership checks ------------------------------------------------------

    def owner_ids(self, ref: Ref) -> tuple[int, ...]:
        """The tensor ids whose bytes ``ref`` may read: its tensor's and its ``reads``'."""
        if not ref.owner_ids:
            ref.owner_ids = tuple(self.tensor_id(name) for name in (ref.tensor, *ref.reads))
        return ref.owner_ids

    def read(self, ref: Ref, op: Operation) -> np.ndarray:
        if self.check:
            if self.in_flight:
                self.check_not_in_flight(ref, op, "reads")
            owner = ref.memory.owner
            if owner is not None and ref.tensor is not None and ref.nbytes:
                segment = owner[ref.offset : ref.end]
                allowed = self.owner_ids(ref)
                # all bytes one allowed tensor's: the least owner is the greatest (no byte mask made)
                least = np.minimum.reduce(segment)
                if least != np.maximum.reduce(segment) or least not in allowed:
                    self.check_owners(ref, segment, allowed, op)
        return ref.array()

    def check_owners(self, ref: Ref, segment: np.ndarray, allowed: tuple[int, ...], op: Operation) -> None:
        """Every byte of ``segment`` (``ref``'s owners) is owned by one of ``allowed``."""
        foreign = segment != allowed[0]
        for other in allowed[1:]:
            foreign &= segment != other
        if foreign.any():
            bad = np.flatnonzero(foreign)
            first = int(segment[bad[0]])
            where = f"byte {ref.offset + int(bad[0])} of {ref.memory.name}"
            if first == UNWRITTEN:
                raise ClobberError(f"'{op.name}' reads %{ref.tensor} but nothing wrote {where}", op)
            raise ClobberError(
                f"'{op.name}' reads %{ref.tensor} but %{self.tensor_names[first]} overwrote"
                f" {bad.size} of its {ref.nbytes} bytes (first at {where})",
                op,
            )

    def write(self, ref: Ref, value: np.ndarray, op: Operation) -> None:
        if self.check and self.in_flight:
            self.check_not_in_flight(ref, op, "overwrites")
        self.store(ref, value)

    def store(self, ref: Ref, value: np.ndarray) -> None:
        """Put ``value`` in ``ref``'s bytes; in checking mode its tensor now owns them."""
        memory = ref.memory
        if memory.constant and self.in_flight:  # only a constant memory is ever viewed by a transfer
            for transfer in self.in_flight.values():
                if transfer.viewed is memory:  # it read the bytes at its start
                    transfer.source, transfer.viewed = transfer.source.copy(), None
        if self.check and memory.owner is not None and ref.tensor is not None:
            memory.owner[ref.offset : ref.end] = self.owner_ids(ref)[0]
        ref.array()[...] = value
        memory.written = True
        if ref.end > memory.touched:
            memory.touched = ref.end

    def check_source_kept(self, transfer: Transfer, op: Operation) -> None:
        """A transfer reads its source until its wait: nothing may have overwritten it."""
        if transfer.source_memory is None or transfer.source_owners is None or transfer.source_memory.owner is None:
            return
        start = transfer.source_start
        now = transfer.source_memory.owner[start : start + transfer.source_owners.size]
        changed = np.flatnonzero(now != transfer.source_owners)
        if changed.size:
            raise ClobberError(
                f"%{self.tensor_names[int(now[changed[0]])]} overwrote bytes of {transfer.source_memory.name}"
                f" that the DMA of %{transfer.dest.tensor} was still reading (first at byte {start + int(changed[0])})",
                op,
            )

    def check_not_in_flight(self, ref: Ref, op: Operation, verb: str) -> None:
        for transfer in self.in_flight.values():
            if transfer.dest.overlaps(ref):
                raise ClobberError(
                    f"'{op.name}' {verb} %{ref.tensor or ref.memory.name} while the DMA of"
                    f" %{transfer.dest.tensor} into the same bytes has not been waited for",
                    op,
                )

    # --- hooks ------------------------------------------------------------------
    # Nothing here: a subclass that tracks something alongside the values (error
    # bounds, say) overrides them. Each is called before the bytes it concerns are
    # stored (``store``), so an in-place op's inputs still hold their values.

    def applied(self, op: ApplyOp, refs: list[Ref], args: list[np.ndarray], result: np.ndarray) -> None:
        """``op`` computed ``result`` from ``args`` (the arrays its kernel read from ``refs``)."""

    def copying(self, source: Ref) -> None:
        """A ``memref.copy`` is about to store the elements of ``source``."""

    def transfer_started(self, transfer: Transfer, source: Memory, start: int) -> None:
        """``transfer`` took its bytes from ``source`` at byte ``start``."""

    def transfer_ending(self, transfer: Transfer) -> None:
        """``transfer`` is about to store its bytes at its destination."""

    # --- execution -------------------------------------------------------------

    @staticmethod
    def run_steps(steps: list[Step], values: Values) -> None:
        for step in steps:
            step(values)
