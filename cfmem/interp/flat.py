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
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects.builtin import (
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
)
from xdsl.ir import Block, Operation, SSAValue

from cfmem.dialects.nn_memref import ApplyOp
from cfmem.gc_pause import cyclic_gc_paused
from cfmem.interp.footprint import type_bytes
from cfmem.interp.golden import (
    InputSpec,
    MAX_ITERATIONS,
    InterpError,
    IterationLimit,
    RunResult,
    check_inputs,
    find_function,
    input_spec,
    prepare_kernel,
)
from cfmem.ir_io import is_flat  # noqa: F401 (where the interpreters' users look for it)
from cfmem.interp.weights import WeightError, numpy_dtype
from cfmem.dialects.flat_form import (
    BUDGET_ATTR,
    INIT_ATTR,
    INPLACE_ATTR,
    LOOP_ATTR,
    ON_CHIP,
    READS_ATTR,
    TENSOR_ATTR,
    TENSOR_INDEX_ATTR,
    is_inplace_op,
    tensor_name,
)
from cfmem.signature import input_args, result_names
from cfmem.weight_file import FILE_ATTR, OFFSET_ATTR, SHA256_ATTR, WeightFileError, map_checked

UNWRITTEN = -1
SLT = 2
"""``arith.cmpi`` predicate number of signed less-than."""
ARENA_FILL = 0xFF
"""Fresh arena bytes: all-ones, so an f32 read of never-written bytes is NaN."""
FILLED = np.uint8(ARENA_FILL).view(np.int8)
"""``ARENA_FILL`` as an element of a scratch buffer (i8)."""


class ClobberError(InterpError):
    """The plan let one tensor's bytes be overwritten while still needed."""


class CapacityError(InterpError):
    """The flat module needs more on-chip memory than its function's budget."""


@dataclass(eq=False)
class Memory:
    """One buffer of bytes; ``owner`` (checking mode) holds a tensor id per byte."""

    name: str
    data: np.ndarray
    owner: np.ndarray | None = None
    on_chip: bool = False
    touched: int = 0
    """One past the highest byte written."""
    initial: Callable[[], np.ndarray] | None = None
    """A global's bytes before any run, made again when ``reset`` needs them."""
    written: bool = False
    """Some run wrote into the memory since its last reset."""
    constant: bool = False
    """A constant global: transfers read its bytes in place until something writes it."""

    def reset(self) -> None:
        """Back to the bytes (and owners) a run starts with."""
        if self.written and self.initial is not None:
            self.data[...] = self.initial()
        if self.owner is not None:
            self.owner.fill(UNWRITTEN)
        self.touched, self.written = 0, False


@dataclass(eq=False)
class Ref:
    """A memref value: ``shape`` x ``dtype`` at byte ``offset`` of ``memory``."""

    memory: Memory
    offset: int
    shape: tuple[int, ...]
    dtype: np.dtype
    tensor: str | None = None
    reads: tuple[str, ...] = ()
    """Other tensors whose bytes this view may hold."""
    nbytes: int = field(init=False)
    end: int = field(init=False)
    _array: np.ndarray | None = field(default=None, init=False, repr=False)
    owner_ids: tuple[int, ...] = field(default=(), init=False, repr=False)
    """Checking mode: the ids of ``tensor`` and ``reads`` (set by the interpreter)."""

    def __post_init__(self) -> None:
        self.nbytes = math.prod(self.shape) * self.dtype.itemsize
        self.end = self.offset + self.nbytes

    def array(self) -> np.ndarray:
        """The typed numpy view of the bytes (made once: a memory keeps its buffer)."""
        if self._array is None:
            raw = self.memory.data[self.offset : self.end]
            self._array = raw.view(self.dtype).reshape(self.shape)
        return self._array

    def overlaps(self, other: Ref) -> bool:
        return self.memory is other.memory and self.offset < other.end and other.offset < self.end


@dataclass
class Transfer:
    """A DMA transfer started but not yet waited for."""

    source: np.ndarray
    dest: Ref
    source_memory: Memory | None = None
    source_start: int = 0
    source_owners: np.ndarray | None = None
    """Checking mode, a writable source (a prefetched activation): who owned its bytes at the start."""
    viewed: Memory | None = None
    """The constant memory ``source`` is a view of (copied before anything writes that memory)."""


def _shape_dtype(ty) -> tuple[tuple[int, ...], np.dtype]:
    assert isinstance(ty, MemRefType)
    return tuple(ty.get_shape()), numpy_dtype(ty.get_element_type())


def _global_bytes(op: memref.GlobalOp) -> np.ndarray:
    """The bytes a run finds in global ``op``: its initial value, its weight file
    (mapped copy-on-write, after checking the file holds the module's bytes) or,
    uninitialized, ``ARENA_FILL``."""
    file = op.attributes.get(FILE_ATTR)
    if isinstance(file, StringAttr):
        offset, digest = op.attributes.get(OFFSET_ATTR), op.attributes.get(SHA256_ATTR)
        if not isinstance(offset, IntegerAttr) or not isinstance(digest, StringAttr):
            raise InterpError(f"memref.global @{op.sym_name.data} names a weight file without"
                              f" {OFFSET_ATTR} and {SHA256_ATTR}", op)
        try:
            return map_checked(file.data, offset.value.data, type_bytes(op.type), digest.data)
        except WeightFileError as err:
            raise WeightError(f"weights of @{op.sym_name.data}: {err.message}", err.path) from None
    value = op.initial_value
    if isinstance(value, DenseIntOrFPElementsAttr):
        shape, dtype = _shape_dtype(op.type)
        raw = np.frombuffer(value.data.data, np.uint8)
        if dtype == np.bool_:  # xDSL stores true as 0xff, numpy as 1
            raw = (raw != 0).astype(np.uint8)
        if raw.size == dtype.itemsize and int(np.prod(shape)) != 1:  # a splat
            return np.tile(raw, int(np.prod(shape)))
        return raw.copy()
    shape, dtype = _shape_dtype(op.type)
    return np.full(int(np.prod(shape)) * dtype.itemsize, ARENA_FILL, np.uint8)


Values = list
"""The values of a run: a ``Ref``, an int or a bool per SSA value, at its slot."""
Step = Callable[[Values], None]


class FlatInterpreter:
    """Runs one function of a lowered module; ``check`` enables clobber detection.

    Each function is compiled once, on its first run, into steps with its ops'
    attributes, kernels and views resolved; the memories of the globals are kept
    between runs and put back to their initial bytes when a run first uses them. An
    interpreter assumes its module does not change between runs (make a new one for
    a changed module)."""

    max_iterations = MAX_ITERATIONS
    """The most loop iterations one run executes (see :class:`IterationLimit`)."""

    def __init__(self, module: ModuleOp, check: bool = True):
        self.check = check
        self.global_ops = {op.sym_name.data: op for op in module.ops if isinstance(op, memref.GlobalOp)}
        self.functions = {op.sym_name.data: op for op in module.ops if isinstance(op, func.FuncOp)}
        self.if_labels = {op: f"if#{k}" for k, op in enumerate(o for o in module.walk() if isinstance(o, scf.IfOp))}
        self.tensor_ids: dict[str, int] = {}
        self.tensor_names: list[str] = []
        self.owner_dtype = np.dtype(np.int16)
        """Owner ids: 16 bits (half the bytes to write and compare) until there are more tensors."""
        self.memories: dict[str, Memory] = {}
        self._kept: dict[str, Memory] = {}
        self._blocks: dict[Block, list[Step]] = {}
        self.statics: dict[int, object] = {}
        """Values the same in every run, by slot: integer constants, global memrefs, views of them at constant shifts."""
        self._template: Values = []
        self.slots: dict[int, int] = {}
        """The index in a run's values of each SSA value (by ``id``: the module holds them) of a compiled function."""
        self._onchip_sizes: dict[func.FuncOp, dict[str, int]] = {}
        self._input_specs: dict[func.FuncOp, InputSpec] = {}
        self._result_names: dict[func.FuncOp, list[str]] = {}
        self.output_refs: list[Ref] = []
        """The output buffers of the last run, in result order."""

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

    def onchip_globals(self, fn: func.FuncOp) -> list[memref.GlobalOp]:
        """The on-chip memories ``fn`` (and its loader) use."""
        used = {op.name_.string_value() for f in (fn, self.init_of(fn)) if f is not None
                for op in f.walk() if isinstance(op, memref.GetGlobalOp)}
        return [g for name, g in self.global_ops.items()
                if name in used and isinstance(g.type, MemRefType) and g.type.memory_space == ON_CHIP]

    def init_of(self, fn: func.FuncOp) -> func.FuncOp | None:
        attr = fn.attributes.get(INIT_ATTR)
        if not isinstance(attr, StringAttr):
            return None
        init = self.functions.get(attr.data)
        if init is None:
            raise InterpError(f"@{fn.sym_name.data} names loader @{attr.data}, which the module does not have")
        return init

    def check_capacity(self, fn: func.FuncOp) -> None:
        budget = fn.attributes.get(BUDGET_ATTR)
        if not isinstance(budget, IntegerAttr):
            return
        if fn not in self._onchip_sizes:
            self._onchip_sizes[fn] = {g.sym_name.data: type_bytes(g.type) for g in self.onchip_globals(fn)}
        sizes = self._onchip_sizes[fn]
        if sum(sizes.values()) > budget.value.data:
            raise CapacityError(
                f"@{fn.sym_name.data} needs {sum(sizes.values())} bytes of on-chip memory"
                f" ({', '.join(f'@{k} {v}' for k, v in sizes.items())}) but its budget is {budget.value.data}"
            )

    @property
    def onchip_bytes(self) -> int:
        """Total size of the on-chip memories the last run used."""
        return sum(m.data.size for m in self.memories.values() if m.on_chip)

    @property
    def onchip_touched(self) -> int:
        """Highest on-chip byte written in the last run, plus one (summed over on-chip memories)."""
        return sum(m.touched for m in self.memories.values() if m.on_chip)

    def run(self, fn: func.FuncOp, inputs: dict[str, np.ndarray]) -> RunResult:
        with cyclic_gc_paused():  # a run only allocates (memories; steps and kernels on first use)
            return self._run(fn, inputs)

    def _run(self, fn: func.FuncOp, inputs: dict[str, np.ndarray]) -> RunResult:
        self.memories = {}
        self.in_flight: dict[tuple[int, int], Transfer] = {}
        self.branches: list[tuple[str, bool]] = []
        self.loops: list[tuple[str, int]] = []
        self.iterations = IterationLimit(self.max_iterations)
        self.check_capacity(fn)
        init = self.init_of(fn)
        if fn not in self._input_specs:
            self._input_specs[fn], self._result_names[fn] = input_spec(fn), result_names(fn)
        arguments = check_inputs(self._input_specs[fn], inputs)
        loader = None if init is None else self.compiled(init.body.block)
        body = self.compiled(fn.body.block)
        with np.errstate(all="ignore"):  # NaN and inf are IEEE results here, not errors
            if loader is not None:
                self.run_steps(loader, self.fresh_values())
                if self.in_flight:
                    raise InterpError(f"loader @{init.sym_name.data} leaves a DMA transfer outstanding", init)
            values: Values = self.fresh_values()
            args = list(fn.body.block.args)
            n_in = len(input_args(fn))
            for arg, value in zip(args[:n_in], arguments):
                values[self.slots[id(arg)]] = self.own_memory(arg.name_hint or "input", value)
            outputs: list[Ref] = []
            for arg in args[n_in:]:
                shape, dtype = _shape_dtype(arg.type)
                ref = self.own_memory(arg.name_hint or "output", np.zeros(shape, dtype))
                values[self.slots[id(arg)]] = ref
                outputs.append(ref)
            self.run_steps(body, values)
        self.output_refs = outputs
        results = {name: ref.array().copy() for name, ref in zip(self._result_names[fn], outputs)}
        return RunResult(results, list(self.branches), list(self.loops))

    def compiled(self, block: Block) -> list[Step]:
        """The steps of ``block`` and of the blocks it holds (compiled on first use, with
        a slot for each of their values)."""
        if block not in self._blocks:
            self._blocks[block] = _Compiler(self).block(block)
        return self._blocks[block]

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


class _Compiler:
    """Compiles the ops of a block, and the blocks they hold, into steps over slots."""

    def __init__(self, interp: FlatInterpreter):
        self.interp = interp

    def slot(self, value: SSAValue) -> int:
        slots, key = self.interp.slots, id(value)
        if key not in slots:
            slots[key] = len(slots)
        return slots[key]

    def block(self, block: Block) -> list[Step]:
        for arg in block.args:
            self.slot(arg)
        steps = []
        for op in block.ops:
            if isinstance(op, func.ReturnOp | scf.YieldOp | scf.ConditionOp):
                break
            step = self.op(op)
            if step is not None:  # None: the op's value is in ``statics``
                steps.append(step)
        return steps

    def op(self, op: Operation) -> Step | None:  # noqa: C901 (one case per op)
        interp = self.interp
        ins = [self.slot(v) for v in op.operands]
        outs = [self.slot(v) for v in op.results]
        if isinstance(op, arith.ConstantOp):
            if not isinstance(op.value, IntegerAttr):
                def refuse(values: Values) -> None:
                    raise InterpError(f"the flat interpreter runs integer constants only, got {op.value}", op)

                return refuse
            interp.statics[outs[0]] = op.value.value.data
            return None
        if isinstance(op, memref.GetGlobalOp):
            return self.get_global(op, outs[0])
        if isinstance(op, memref.ViewOp):
            return self.view(op, outs[0])
        if isinstance(op, memref.AllocaOp):
            shape, dtype = _shape_dtype(op.memref.type)
            out = outs[0]
            return lambda values: values.__setitem__(out, interp.own_memory("alloca", np.zeros(shape, dtype)))
        if isinstance(op, memref.LoadOp):
            source, indices, out = ins[0], ins[1:], outs[0]

            def load(values: Values) -> None:
                values[out] = interp.read(values[source], op)[tuple(values[i] for i in indices)]

            return load
        if isinstance(op, memref.CopyOp):
            source, destination = self.slot(op.source), self.slot(op.destination)

            def copy(values: Values) -> None:
                interp.copying(values[source])
                interp.write(values[destination], interp.read(values[source], op), op)

            return copy
        if isinstance(op, ApplyOp):
            scratch = self.slot(op.scratch) if op.scratch is not None else None
            return self.apply(op, [self.slot(v) for v in op.ins], self.slot(op.outs[0]), scratch)
        if isinstance(op, arith.AddiOp | arith.MuliOp | arith.AndIOp):
            combine = {arith.AddiOp: operator.add, arith.MuliOp: operator.mul, arith.AndIOp: operator.and_}[type(op)]
            lhs, rhs, out = ins[0], ins[1], outs[0]
            return lambda values: values.__setitem__(out, combine(values[lhs], values[rhs]))
        if isinstance(op, arith.CmpiOp) and op.predicate.value.data == SLT:
            lhs, rhs, out = ins[0], ins[1], outs[0]
            return lambda values: values.__setitem__(out, bool(values[lhs] < values[rhs]))
        if isinstance(op, arith.IndexCastOp):
            source, out = ins[0], outs[0]
            return lambda values: values.__setitem__(out, int(values[source]))
        if isinstance(op, memref.StoreOp):
            value, target, indices = self.slot(op.value), self.slot(op.memref), [self.slot(i) for i in op.indices]

            def store(values: Values) -> None:
                ref: Ref = values[target]
                index = tuple(values[i] for i in indices)
                flat = int(np.ravel_multi_index(index, ref.shape)) if ref.shape else 0
                element = Ref(ref.memory, ref.offset + flat * ref.dtype.itemsize, (), ref.dtype, ref.tensor)
                interp.write(element, values[value], op)  # the assignment converts to the element type

            return store
        if isinstance(op, scf.WhileOp):
            return self.while_loop(op, ins, outs)
        if isinstance(op, scf.ForOp):
            return self.for_loop(op)
        if isinstance(op, scf.IfOp):
            label, cond = interp.if_labels[op], ins[0]
            then, other = self.block(op.true_region.block), self.block(op.false_region.block)

            def run_if(values: Values) -> None:
                taken = bool(values[cond])
                interp.branches.append((label, taken))
                interp.run_steps(then if taken else other, values)

            return run_if
        if isinstance(op, memref.DmaStartOp):
            return self.dma_start(op)
        if isinstance(op, memref.DmaWaitOp):
            return self.dma_wait(op)

        def cannot(values: Values) -> None:
            raise InterpError(f"the flat interpreter cannot run '{op.name}'", op)

        return cannot

    def get_global(self, op: memref.GetGlobalOp, out: int) -> Step:
        """The memref of a global is fixed; the step puts its memory back as the run first uses it."""
        interp, name = self.interp, op.name_.string_value()
        shape, dtype = _shape_dtype(op.memref.type)
        if name in interp.global_ops:  # (otherwise the step refuses it, naming it)
            interp.statics[out] = Ref(interp.global_memory(name), 0, shape, dtype)
        return lambda values: interp.memory(name)

    def view(self, op: memref.ViewOp, out: int) -> Step | None:
        """A view of a global's memory is made once per source, byte shift and tensor name, and
        kept; one of a fixed source at a constant shift is made now (None: it is in ``statics``)."""
        source, shift = self.slot(op.source), self.slot(op.byte_shift)
        shape, dtype = _shape_dtype(op.result.type)
        reads_attr = op.attributes.get(READS_ATTR)
        reads = tuple(n.data for n in reads_attr.data) if reads_attr is not None else ()
        tensor, fixed = self.tensor_name(op)
        statics = self.interp.statics
        if source in statics and shift in statics and fixed:
            base, at = statics[source], statics[shift]
            ref = Ref(base.memory, base.offset + at, shape, dtype, tensor(None), reads)
            if ref.end <= base.end:
                statics[out] = ref
                return None
        made: dict[tuple[int, int, str | None], tuple[Ref, Ref]] = {}

        def view(values: Values) -> None:
            base: Ref = values[source]
            at, name = values[shift], tensor(values)
            key = (id(base), at, name)
            kept = made.get(key)
            if kept is not None and kept[0] is base:
                values[out] = kept[1]
                return
            ref = Ref(base.memory, base.offset + at, shape, dtype, name, reads)
            if ref.end > base.end:
                raise InterpError(f"view of {ref.nbytes} bytes at {at} runs past its source", op)
            if base.memory.initial is not None:  # a global's memory, kept between runs
                made[key] = (base, ref)
            values[out] = ref

        return view

    def apply(self, op: ApplyOp, ins: list[int], out_slot: int, scratch_slot: int | None) -> Step:
        """The kernel on the inputs into the output. The kernel's scratch bytes are written
        with ``ARENA_FILL`` once the inputs are read, as the lowered code writes them while
        it runs: in checking mode they then belong to the scratch's tensor, so a tensor the
        plan put on them is found overwritten when it is next read."""
        interp = self.interp
        in_place = INPLACE_ATTR in op.attributes and is_inplace_op(op.compute)
        kernel = prepare_kernel(op.compute)

        checked: list[tuple[Ref | None, ...]] = [()]

        def apply(values: Values) -> None:
            refs: list[Ref] = [values[k] for k in ins]
            out: Ref = values[out_slot]
            scratch: Ref | None = values[scratch_slot] if scratch_slot is not None else None
            if interp.check and checked[0] != (out, scratch, *refs):  # (the same views as last time: checked then)
                checked[0] = (out, scratch, *refs)
                for ref in refs:
                    if in_place and (ref.memory, ref.offset, ref.nbytes) == (out.memory, out.offset, out.nbytes):
                        continue
                    if ref.overlaps(out):
                        checked[0] = ()
                        raise ClobberError(
                            f"'{op.compute.name}' writes %{out.tensor or out.memory.name} over its own input"
                            f" %{ref.tensor or ref.memory.name}",
                            op,
                        )
                for ref in (*refs, out):
                    if scratch is not None and scratch.overlaps(ref):
                        checked[0] = ()
                        raise ClobberError(
                            f"'{op.compute.name}' has its scratch %{scratch.tensor or scratch.memory.name} on"
                            f" bytes of its operand %{ref.tensor or ref.memory.name}",
                            op,
                        )
            args = [interp.read(ref, op) for ref in refs]
            if scratch is not None:
                interp.write(scratch, FILLED, op)
            result = kernel[0](args)
            interp.applied(op, refs, args, result)
            interp.write(out, result, op)

        return apply

    def for_loop(self, op: scf.ForOp) -> Step:
        interp = self.interp
        lower, upper, step_slot = self.slot(op.lb), self.slot(op.ub), self.slot(op.step)
        induction = self.slot(op.body.block.args[0])
        body = self.block(op.body.block)
        label = op.attributes[LOOP_ATTR].data if LOOP_ATTR in op.attributes else None
        refused = bool(op.iter_args)

        def run_for(values: Values) -> None:
            step = values[step_slot]
            if refused or step <= 0:
                raise InterpError("the flat interpreter runs scf.for loops with a positive step and no iter_args", op)
            trips = 0
            for trip in range(values[lower], values[upper], step):
                interp.iterations.step(label, op)
                values[induction] = trip
                interp.run_steps(body, values)
                trips += 1
            if label is not None:
                interp.loops.append((label, trips))

        return run_for

    def while_loop(self, op: scf.WhileOp, ins: list[int], outs: list[int]) -> Step:
        """``scf.while`` with index arguments: the before region's ``scf.condition``
        decides and forwards, the after region's ``scf.yield`` feeds the next test."""
        interp = self.interp
        before_block, after_block = op.before_region.block, op.after_region.block
        before, after = self.block(before_block), self.block(after_block)
        before_args = [self.slot(a) for a in before_block.args]
        after_args = [self.slot(a) for a in after_block.args]
        test = before_block.last_op
        label = op.attributes[LOOP_ATTR].data if LOOP_ATTR in op.attributes else None
        if isinstance(test, scf.ConditionOp):
            condition, forwards = self.slot(test.condition), [self.slot(v) for v in test.args]
        yields = [self.slot(v) for v in after_block.last_op.operands] if after_block.last_op is not None else []

        def run_while(values: Values) -> None:
            carried = [values[k] for k in ins]
            trips = 0
            while True:
                for k, value in zip(before_args, carried):
                    values[k] = value
                interp.run_steps(before, values)
                if not isinstance(test, scf.ConditionOp):
                    raise InterpError("the before region of scf.while must end in scf.condition", op)
                forwarded = [values[k] for k in forwards]
                if not values[condition]:
                    break
                interp.iterations.step(label, op)
                for k, value in zip(after_args, forwarded):
                    values[k] = value
                interp.run_steps(after, values)
                carried = [values[k] for k in yields]
                trips += 1
            for k, value in zip(outs, forwarded):
                values[k] = value
            if label is not None:
                interp.loops.append((label, trips))

        return run_while

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

    def tensor_name(self, op: Operation) -> tuple[Callable[[Values], str | None], bool]:
        """``op``'s ``cfmem.tensor`` in a run, and whether it is the same in every run (a
        template of ``nn-roll-slices`` is named for the current trip)."""
        name = op.attributes.get(TENSOR_ATTR)
        if not isinstance(name, StringAttr):
            return (lambda values: None), True
        index = op.attributes.get(TENSOR_INDEX_ATTR)
        loop = op.parent_op()
        if not isinstance(index, DenseArrayBase) or not isinstance(loop, scf.ForOp):
            return (lambda values: name.data), True
        a, b = index.get_values()
        induction, lower, step = self.slot(loop.body.block.args[0]), self.slot(loop.lb), self.slot(loop.step)

        def rolled(values: Values) -> str:
            trip = (values[induction] - values[lower]) // values[step]
            return tensor_name(name.data, (a, b), trip)

        return rolled, False


def run_flat(module: ModuleOp, inputs: dict[str, np.ndarray], *, func_name: str | None = None,
             check: bool = True) -> RunResult:
    """Run a lowered function (default: the only or ``main`` one) on ``inputs``."""
    fn = find_function(module, func_name)
    return FlatInterpreter(module, check).run(fn, inputs)


def measure_flat(module: ModuleOp, inputs: dict[str, np.ndarray], *, func_name: str | None = None
                 ) -> tuple[RunResult, int, int]:
    """A checking run of a lowered function, with its on-chip bytes: the total size of
    its on-chip memories and one past the highest on-chip byte written."""
    fn = find_function(module, func_name)
    interp = FlatInterpreter(module)  # checking is the default
    result = interp.run(fn, inputs)
    return result, interp.onchip_bytes, interp.onchip_touched
