"""Compiling a block of the flat form into steps over slots.

Each op becomes a function of the run's values (a list with a slot per SSA value), with its
attributes, kernel and result types resolved once; a constant, a global's memref and a
view of it at a constant shift are computed now and kept in ``statics``. A view of a
global's memory made at run time is kept per source, byte shift and tensor name. An
``nn.apply`` runs its op's kernel (``prepare_kernel``); in checking mode its output must not
overlap its inputs (unless marked ``cfmem.inplace``, exactly over one of them) nor its
scratch any operand. Loops and DMA transfers are compiled by :mod:`cfmem.interp.flat.loops`
and :mod:`cfmem.interp.flat.transfers`.
"""

from __future__ import annotations

import operator
from collections.abc import Callable

import numpy as np
from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, StringAttr
from xdsl.ir import Block, Operation, SSAValue

from cfmem.dialects.flat_form import INPLACE_ATTR, READS_ATTR, TENSOR_ATTR, TENSOR_INDEX_ATTR, is_inplace_op, tensor_name
from cfmem.dialects.nn_memref import ApplyOp
from cfmem.interp.flat.loops import LoopSteps
from cfmem.interp.flat.machine import FlatMachine, Step, Values
from cfmem.interp.flat.memory import FILLED, ClobberError, Ref, _shape_dtype
from cfmem.interp.flat.transfers import TransferSteps
from cfmem.interp.golden import InterpError, prepare_kernel

SLT = 2
"""``arith.cmpi`` predicate number of signed less-than."""


class _Compiler(LoopSteps, TransferSteps):
    """Compiles the ops of a block, and the blocks they hold, into steps over slots."""

    def __init__(self, interp: FlatMachine):
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
