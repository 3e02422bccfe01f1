"""``nn-lower-to-memref``: the planned tensor graph as one byte arena and views.

Runs after ``nn-plan-memory`` (and ``nn-insert-dma``). Each function becomes:

- one on-chip arena, ``memref.global @arena_<fn> : memref<Nxi8, 1>`` (N the
  planned size, memory space 1 = on chip), and every planned tensor a
  ``memref.view`` of it at its planned byte offset, tagged
  ``{cfmem.tensor = "<name>"}`` so checkers can say whose bytes they are;
- each weight blob a constant ``memref.global`` in the default memory space
  (off chip), weight tensors views of it: a blob read from a file stays there
  (the global names the file, the offset and the SHA-256 of its bytes; see
  ``cfmem.weight_file``), a seeded or inline one holds its bytes; ``nn.constant`` (and a
  reshape of one) a constant global of its own;
- each compute op an ``nn.apply`` writing into its result's buffer
  (destination-passing), given its kernel's scratch (``cfmem.dialects.scratch``) as a view
  of the arena at its ``cfmem.scratch_offset``, tagged ``<result>#scratch``; a reshape of a read-only tensor a new view of the
  same bytes;
- ``nn.if`` an ``scf.if`` on the loaded condition; its results are buffers
  planned in the parent, and each branch copies its yielded values into them;
- ``nn.loop`` an ``scf.for`` from 0 to the loaded trip count when it tests no
  condition (``LoopOp.is_counted``), else an ``scf.while`` that tests
  ``i < trip count`` and the condition's slot before each iteration; both are
  marked ``cfmem.loop = "loop#k"``. The initial values are copied into the
  carried results' buffers before the loop, and the body reads them there; at
  the end of each iteration the body copies each scan element into row ``i``
  of its result (a view at ``base + i * row bytes``; first, since an element
  may be a carried value as the iteration found it), then the next condition
  into its slot and the next carried values into the results' buffers (a
  value carried into another position is refused: copies would overwrite each
  other); the iteration number is stored into its slot as i64 when the body
  reads it;
- ``nn.dma_start`` one ``memref.dma_start`` per transfer (bytes from the blob
  into the buffer, tag element k), ``nn.dma_wait`` the matching waits, and the
  waited tensors views of the buffer;
- results placed off chip (``cfmem.offchip``) views of a second arena,
  ``memref.global @offchip_arena_<fn> : memref<Mxi8>`` in the default (off-chip)
  memory space, at their ``cfmem.offchip_offsets``;
- the transfer of resident weights (``cfmem.resident``) a function of its own,
  ``@load_resident_<fn>`` (marked ``cfmem.init_of``, named by the function's
  ``cfmem.init``), which a runtime calls once before the first inference: it
  writes the resident buffer's bytes of the same on-chip arena, and the
  function reads them through views;
- aliases (ops marked ``cfmem.alias`` by ``nn-plan-memory``) copy nothing: a
  reshape or slice alias is a view of its source's bytes, an in-place
  elementwise op an ``nn.apply`` whose output view is its input's (marked
  ``cfmem.inplace``), a concat of inputs computed into their parts copies
  only its other inputs, and a branch yields its aliased values without a
  copy. A view that holds bytes other tensors wrote lists them in
  ``cfmem.reads`` (the source of a reshape or slice, the parts of a concat,
  the values yielded into an if's result), for the flat interpreter's checks;
- arguments and results stay memrefs of their own: results become trailing
  output arguments (named by ``cfmem.output_names``) that the function writes; values
  planned on chip (``io-on-chip``) are copied in at entry and out at return.

Assumes every function has been planned; a function without a plan is an
error that names it.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects.builtin import (
    ArrayAttr,
    BytesAttr,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StringAttr,
    TensorType,
    UnitAttr,
    i8,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint
from xdsl.utils.exceptions import PassFailedException

from cfmem.dialects.flat_form import INIT_ATTR, INPLACE_ATTR, LOOP_ATTR, ON_CHIP, READS_ATTR, TENSOR_ATTR, is_inplace_op
from cfmem.dialects.nn_compute import ComputeOp, ConcatOp, ConstantOp, SliceOp
from cfmem.dialects.nn_control import IfOp, LoopOp, YieldOp, loop_labels
from cfmem.dialects.nn_dma import DmaBufferOp, DmaStartOp, DmaWaitOp
from cfmem.dialects.nn_memref import ApplyOp
from cfmem.dialects.nn_quant import QConcatOp
from cfmem.dialects.nn_weights import GetGlobalOp, GlobalOp, ReshapeOp, ViewOp
from cfmem.dialects.scratch import scratch_bytes
from cfmem.dialects.types import tensor_bytes
from cfmem.gc_pause import cyclic_gc_paused
from cfmem.interp.weights import WeightError, blob_bytes
from cfmem.passes.aliases import concat_parts, slice_byte_offset
from cfmem.passes.dma_reloads import reloaded_transfers
from cfmem.passes.failures import OpFailure
from cfmem.passes.liveness import functions, is_read_only, scratch_id
from cfmem.passes.names import ValueNames
from cfmem.passes.placement import SLICE_OF_ATTR, is_resident
from cfmem.passes.plan_memory import (
    ALIAS_ATTR,
    ARENA_ATTR,
    OFFCHIP_ARENA_ATTR,
    OFFCHIP_OFFSETS_ATTR,
    SCRATCH_ATTR,
    planned_offset,
    scratch_offset,
)
from cfmem.passes.stored_plan import check_offchip_plan, check_stored_plan, describe
from cfmem.signature import OUTPUT_NAMES_ATTR, result_names
from cfmem.weight_file import FILE_ATTR, OFFSET_ATTR, SHA256_ATTR, resolve, sha256_of

INIT_OF_ATTR = "cfmem.init_of"
"""On a resident-weight loader: the function it loads for."""


def _is_alias(value: SSAValue) -> bool:
    return isinstance(value.owner, Operation) and ALIAS_ATTR in value.owner.attributes


@functools.cache
def memref_of(ty: Attribute, space: Attribute | None = None) -> MemRefType:
    """The memref type with the shape and element type of tensor type ``ty``
    (attributes are immutable: one is built per type and space)."""
    assert isinstance(ty, TensorType)
    return MemRefType(ty.get_element_type(), ty.get_shape(), memory_space=space or NoneAttr())


def byte_memref(size: int, space: Attribute | None = None) -> MemRefType:
    return MemRefType(i8, [size], memory_space=space or NoneAttr())


def check_tensor_signature(fn: func.FuncOp) -> None:
    """Fail unless every argument and result of ``fn`` is a tensor."""
    for arg in fn.body.block.args:
        if not isinstance(arg.type, TensorType):
            raise OpFailure(fn,
                f"function @{fn.sym_name.data}: {describe(arg)} has type {arg.type}, not a tensor"
                " (nn-lower-to-memref lowers tensor functions once)"
            )
    for k, ty in enumerate(fn.function_type.outputs.data):
        if not isinstance(ty, TensorType):
            raise OpFailure(fn, f"function @{fn.sym_name.data}: result {k} has type {ty}, not a tensor")


def flat_symbol(name: str) -> str:
    """``name`` as an ASCII symbol for the globals of the flat form.

    xDSL prints a non-ASCII string in the generic form of ``memref.global``
    (``sym_name = "w\\C3\\A9"``) as byte escapes that its parser reads back
    as bytes, not a string, so the flat form names such globals by their
    punycode, prefixed ``xn--`` as in IDNA (``wé`` becomes ``xn--w-bga``).
    """
    return name if name.isascii() else "xn--" + name.encode("punycode").decode("ascii")


def arena_name(fn: func.FuncOp) -> str:
    return flat_symbol(f"arena_{fn.sym_name.data}")


def offchip_arena_name(fn: func.FuncOp) -> str:
    return flat_symbol(f"offchip_arena_{fn.sym_name.data}")


@dataclass
class _Bytes:
    """Where a read-only tensor's bytes are: ``base`` (1-D i8 memref) + offset."""

    base: SSAValue
    offset: int


class _FunctionLowering:
    """Builds the flat body of one planned function."""

    def __init__(
        self, fn: func.FuncOp, blobs: dict[str, memref.GlobalOp], constants: list[memref.GlobalOp], check_plan: bool,
        loop_labels: dict[LoopOp, str],
    ):
        self.fn = fn
        self.loop_labels = loop_labels
        """Every ``nn.loop`` of the module by its label, counted before any function is lowered."""
        self.blobs = blobs
        self.constants = constants
        self.names = ValueNames()
        self.mem: dict[SSAValue, SSAValue] = {}
        self.bytes_of: dict[SSAValue, _Bytes] = {}
        self.constant_values: dict[SSAValue, DenseIntOrFPElementsAttr] = {}
        """Each constant, and each reshape of one, by its value (lowered to a global of its own)."""
        self.tags: dict[SSAValue, tuple[SSAValue, SSAValue, DmaStartOp]] = {}
        self.index_consts: dict[int, SSAValue] = {}
        self.reads: dict[SSAValue, list[str]] = {}
        """Planned values whose bytes other tensors wrote: their names (``cfmem.reads``)."""
        self.prologue: list[Operation] = []
        self.reloaded: dict[DmaStartOp, DmaStartOp] = {}
        """Each reload (``cfmem.reload``) and the transfer before its loop it loads again."""
        check_tensor_signature(fn)
        self.arena_size = check_stored_plan(fn) if check_plan else _stored_arena_size(fn)
        arena_get = memref.GetGlobalOp(arena_name(fn), byte_memref(self.arena_size, ON_CHIP))
        arena_get.memref.name_hint = "arena"
        self.prologue.append(arena_get)
        self.arena = arena_get.memref
        self.offchip_size = check_offchip_plan(fn)
        self.offchip_arena: SSAValue | None = None
        if OFFCHIP_ARENA_ATTR in fn.attributes:  # values off chip, if only of 0 bytes
            offchip_get = memref.GetGlobalOp(offchip_arena_name(fn), byte_memref(self.offchip_size))
            offchip_get.memref.name_hint = "offchip_arena"
            self.prologue.append(offchip_get)
            self.offchip_arena = offchip_get.memref
        self.init: func.FuncOp | None = None
        """The resident-weight loader, once the function has one."""
        ret = fn.body.block.last_op
        assert isinstance(ret, func.ReturnOp)
        self.returned = list(ret.operands)

    # --- helpers -------------------------------------------------------------

    def index(self, value: int) -> SSAValue:
        if value not in self.index_consts:
            op = arith.ConstantOp(IntegerAttr(value, IndexType()))
            op.result.name_hint = f"c{value}"
            self.prologue.append(op)
            self.index_consts[value] = op.result
        return self.index_consts[value]

    def view(self, b: Builder, base: SSAValue, offset: int, ty: MemRefType, name: str | None) -> SSAValue:
        # create(): the generic constructor, as the parser builds ops; the flat form's
        # most common op, the module is verified after the pass
        op = b.insert(memref.ViewOp.create(operands=[base, self.index(offset)], result_types=[ty]))
        if name is not None:
            op.attributes[TENSOR_ATTR] = StringAttr(name)
            op.result.name_hint = name
        return op.result

    def destination(self, b: Builder, value: SSAValue) -> SSAValue:
        """The buffer ``value`` is computed into: its arena view or an output."""
        offset = planned_offset(value)
        offchip = planned_offset(value, OFFCHIP_OFFSETS_ATTR)
        if offset is not None:
            dest = self.view(b, self.arena, offset, memref_of(value.type, ON_CHIP), self.names(value))
            self.bytes_of[value] = _Bytes(self.arena, offset)  # a transfer may evict it
        elif offchip is not None and self.offchip_arena is not None:
            dest = self.view(b, self.offchip_arena, offchip, memref_of(value.type), self.names(value))
            self.bytes_of[value] = _Bytes(self.offchip_arena, offchip)  # a transfer may prefetch it
        elif value in self.returned:
            dest = self.outputs[self.returned.index(value)]
        else:
            raise PassFailedException(f"{describe(value)} has no planned offset: plan the function first")
        self.mem[value] = dest
        return dest

    # --- the walk ------------------------------------------------------------

    def lower(self) -> None:
        old_entry = self.fn.body.block
        self.result_names = result_names(self.fn)
        arg_types = [memref_of(a.type) for a in old_entry.args] + [memref_of(v.type) for v in self.returned]
        entry = Block(arg_types=arg_types)
        n_in = len(old_entry.args)
        for old, new in zip(old_entry.args, entry.args[:n_in]):
            new.name_hint = old.name_hint
        self.outputs = list(entry.args[n_in:])
        for k, (out, value) in enumerate(zip(self.outputs, self.returned)):
            out.name_hint = f"out_{value.name_hint}" if value.name_hint else f"out{k}"
        b = Builder(InsertPoint.at_end(entry))
        for old, new in zip(old_entry.args, entry.args[:n_in]):
            if planned_offset(old) is not None:
                b.insert(memref.CopyOp(new, self.destination(b, old)))
            else:
                self.mem[old] = new
        self.lower_block(old_entry, b)
        for op in reversed(self.prologue):
            entry.insert_op_before(op, entry.first_op) if entry.first_op else entry.add_op(op)
        for value, names in self.reads.items():
            self.mem[value].owner.attributes[READS_ATTR] = ArrayAttr([StringAttr(n) for n in dict.fromkeys(names)])
        self.fn.body.detach_block(old_entry)
        self.fn.body.add_block(entry)
        self.fn.function_type = func.FunctionType.from_lists(arg_types, [])
        self.fn.attributes[OUTPUT_NAMES_ATTR] = ArrayAttr([StringAttr(n) for n in self.result_names])

    def lower_block(self, block: Block, b: Builder) -> None:
        for op in block.ops:
            self.lower_op(op, b)

    def lower_op(self, op: Operation, b: Builder) -> None:
        if isinstance(op, func.ReturnOp):
            for value, out in zip(op.operands, self.outputs):
                if self.mem[value] is not out:
                    b.insert(memref.CopyOp(self.mem[value], out))
            b.insert(func.ReturnOp())
        elif isinstance(op, GetGlobalOp):
            glob = self.blobs[op.global_name.string_value()]
            get = b.insert(memref.GetGlobalOp(glob.sym_name.data, glob.type))
            get.memref.name_hint = op.result.name_hint
            self.mem[op.result] = get.memref
            self.bytes_of[op.result] = _Bytes(get.memref, 0)
        elif isinstance(op, ViewOp):
            src = self.bytes_of[op.source]
            offset = src.offset + op.offset.value.data
            self.mem[op.result] = self.view(b, src.base, offset, memref_of(op.result.type), None)
            self.mem[op.result].name_hint = op.result.name_hint
            self.bytes_of[op.result] = _Bytes(src.base, offset)
        elif isinstance(op, ReshapeOp) and op.input in self.constant_values:
            self.lower_constant(op.result, self.constant_values[op.input], b)  # a constant of its own
        elif isinstance(op, ReshapeOp) and is_read_only(op.result):
            src = self.bytes_of[op.input]
            self.mem[op.result] = self.view(b, src.base, src.offset, memref_of(op.result.type), None)
            self.mem[op.result].name_hint = op.result.name_hint
            self.bytes_of[op.result] = src
        elif isinstance(op, ConstantOp):
            self.lower_constant(op.result, op.value, b)
        elif isinstance(op, ReshapeOp | SliceOp) and self.is_view_alias(op):
            self.destination(b, op.result)
            self.add_reads(op.result, [op.input])
        elif isinstance(op, ConcatOp | QConcatOp) and self.lower_concat_in_place(op, b):
            pass
        elif isinstance(op, ComputeOp | ReshapeOp):
            ins = [self.mem[v] for v in op.operands]
            out = self.destination(b, op.results[0])
            apply = b.insert(ApplyOp.wrap(op, ins, out, self.scratch(b, op)))
            if self.is_in_place(op):
                apply.attributes[INPLACE_ATTR] = UnitAttr()
            if SLICE_OF_ATTR in op.attributes:  # nn-roll-slices finds the slices by it
                apply.attributes[SLICE_OF_ATTR] = op.attributes[SLICE_OF_ATTR]
        elif isinstance(op, IfOp):
            self.lower_if(op, b)
        elif isinstance(op, LoopOp):
            self.lower_loop(op, b)
        elif isinstance(op, DmaBufferOp):
            self.destination(b, op.result)
        elif isinstance(op, DmaStartOp) and is_resident(op):
            self.lower_resident_load(op)
        elif isinstance(op, DmaWaitOp) and is_resident(op):
            start = op.start
            assert start is not None
            for result, slot in zip(op.results, start.byte_offsets):
                self.mem[result] = self.view(b, self.mem[start.buffer], slot, memref_of(result.type, ON_CHIP), self.names(result))
        elif isinstance(op, DmaStartOp):
            self.lower_dma_start(op, b)
        elif isinstance(op, DmaWaitOp):
            self.lower_dma_wait(op, b)
        else:
            raise OpFailure(op, f"nn-lower-to-memref cannot lower '{op.name}'")

    def scratch(self, b: Builder, op: Operation) -> SSAValue | None:
        """The bytes of ``op``'s kernel scratch: a view of the arena where the plan put them."""
        size = scratch_bytes(op)
        if not size:
            return None
        offset = scratch_offset(op)
        if offset is None:
            raise OpFailure(op, f"'{op.name}' needs {size} bytes of kernel scratch but has no {SCRATCH_ATTR}: plan the function again")
        view = self.view(b, self.arena, offset, byte_memref(size, ON_CHIP), None)
        view.owner.attributes[TENSOR_ATTR] = StringAttr(scratch_id(self.names(op.results[0])))
        view.name_hint = "scratch"
        return view

    def add_reads(self, value: SSAValue, writers: list[SSAValue]) -> None:
        """``value``'s bytes hold what ``writers`` (and whoever wrote theirs) wrote."""
        names = self.reads.setdefault(value, [])
        for writer in writers:
            names += [self.names(writer), *self.reads.get(writer, [])]

    def is_view_alias(self, op: ReshapeOp | SliceOp) -> bool:
        """A reshape or slice planned on its source's bytes."""
        source, at = planned_offset(op.input), planned_offset(op.result)
        if not _is_alias(op.result) or source is None:
            return False
        delta = 0 if isinstance(op, ReshapeOp) else slice_byte_offset(op)
        return delta is not None and at == source + delta

    def is_in_place(self, op: Operation) -> bool:
        """An elementwise alias planned on the bytes of one of its operands."""
        at = planned_offset(op.results[0])
        return _is_alias(op.results[0]) and is_inplace_op(op) and at in {planned_offset(v) for v in op.operands}

    def lower_concat_in_place(self, op: ConcatOp | QConcatOp, b: Builder) -> bool:
        """Copy only the inputs not computed into their parts; False if none was."""
        base, parts = planned_offset(op.result), concat_parts(op)
        if base is None or parts is None:
            return False
        placed = [_is_alias(v) and planned_offset(v) == base + part for v, part in zip(op.operands, parts)]
        if not any(placed):
            return False
        self.destination(b, op.result)
        for value, part, done in zip(op.operands, parts, placed):
            if not done:
                ty = memref_of(value.type, ON_CHIP)
                b.insert(memref.CopyOp(self.mem[value], self.view(b, self.arena, base + part, ty, self.names(op.result))))
        self.add_reads(op.result, [v for v, done in zip(op.operands, placed) if done])
        return True

    def lower_constant(self, result: SSAValue, value: DenseIntOrFPElementsAttr, b: Builder) -> None:
        """``result`` as a constant global holding ``value``'s elements in ``result``'s shape."""
        name = flat_symbol(f"cst_{self.fn.sym_name.data}_{len(self.constants)}")
        ty = memref_of(result.type)
        value = DenseIntOrFPElementsAttr(result.type, value.data)
        glob = memref.GlobalOp.get(StringAttr(name), ty, value, StringAttr("private"), constant=UnitAttr())
        self.constants.append(glob)
        get = b.insert(memref.GetGlobalOp(name, ty))
        get.memref.name_hint = result.name_hint
        self.mem[result] = get.memref
        self.constant_values[result] = value

    def lower_if(self, op: IfOp, b: Builder) -> None:
        dests = [self.destination(b, r) for r in op.results]
        cond = self.load_scalar(b, self.mem[op.cond])
        branches: list[Region] = []
        for region in op.branches:
            block = Block()
            inner = Builder(InsertPoint.at_end(block))
            for child in region.block.ops:
                if isinstance(child, YieldOp):
                    for value, result, dest in zip(child.operands, op.results, dests):
                        at = planned_offset(result)
                        if _is_alias(value) and at is not None and planned_offset(value) == at:
                            self.add_reads(result, [value])
                        else:
                            inner.insert(memref.CopyOp(self.mem[value], dest))
                    inner.insert(scf.YieldOp())
                else:
                    self.lower_op(child, inner)
            branches.append(Region(block))
        b.insert(scf.IfOp(cond, [], branches[0], branches[1]))

    def first_element(self, mem: SSAValue) -> list[SSAValue]:
        """The indices of the first element of memref ``mem`` (all zero)."""
        return [self.index(0)] * len(mem.type.get_shape())

    def load_scalar(self, b: Builder, mem: SSAValue) -> SSAValue:
        """The one element of one-element memref ``mem``."""
        return b.insert(memref.LoadOp.get(mem, self.first_element(mem))).res

    def lower_loop(self, op: LoopOp, b: Builder) -> None:
        self.reloaded.update({reload: first for first, reload in reloaded_transfers(op)})
        dests = [self.destination(b, r) for r in op.outputs]
        for arg, dest in zip(op.carried_args, dests):
            self.mem[arg] = dest
        for init, dest in zip(op.inits, dests):
            if self.mem[init] is not dest:
                b.insert(memref.CopyOp(self.mem[init], dest))
        cond_slot = self.destination(b, op.cond_arg) if planned_offset(op.cond_arg) is not None else None
        if cond_slot is not None:
            b.insert(memref.CopyOp(self.mem[op.cond], self.cond_slot_as(b, op, op.cond)))
        iteration_slot = self.destination(b, op.iteration_arg) if planned_offset(op.iteration_arg) is not None else None
        trips = b.insert(arith.IndexCastOp(self.load_scalar(b, self.mem[op.trip_count]), IndexType())).result
        trips.name_hint = "trips"
        body = Block(arg_types=[IndexType()])
        iteration = body.args[0]
        iteration.name_hint = "i"
        inner = Builder(InsertPoint.at_end(body))
        if iteration_slot is not None:
            as_i64 = inner.insert(arith.IndexCastOp(iteration, i64)).result
            inner.insert(memref.StoreOp.get(as_i64, iteration_slot, self.first_element(iteration_slot)))
        for child in op.body.block.ops:
            if isinstance(child, YieldOp):
                self.lower_loop_yield(op, child, dests, cond_slot, iteration, inner)
            else:
                self.lower_op(child, inner)
        label = StringAttr(self.loop_labels[op])
        if op.is_counted():
            inner.insert(scf.YieldOp())
            loop = b.insert(scf.ForOp(self.index(0), trips, self.index(1), [], Region(body)))
        else:
            inner.insert(scf.YieldOp(inner.insert(arith.AddiOp(iteration, self.index(1))).result))
            test = Block(arg_types=[IndexType()])
            t = Builder(InsertPoint.at_end(test))
            assert cond_slot is not None  # a loop that tests a condition has a slot for it
            below = t.insert(arith.CmpiOp(test.args[0], trips, "slt")).result
            held = self.load_scalar(t, cond_slot)
            t.insert(scf.ConditionOp(t.insert(arith.AndIOp(below, held)).result, test.args[0]))
            loop = b.insert(scf.WhileOp([self.index(0)], [IndexType()], Region(test), Region(body)))
        loop.attributes[LOOP_ATTR] = label

    def cond_slot_as(self, b: Builder, op: LoopOp, value: SSAValue) -> SSAValue:
        """The condition's slot, viewed with the shape of ``value`` (any one-element i1 shape)."""
        slot = self.mem[op.cond_arg]
        if value.type == op.cond_arg.type:
            return slot
        offset = planned_offset(op.cond_arg)
        assert offset is not None
        return self.view(b, self.arena, offset, memref_of(value.type, ON_CHIP), self.names(op.cond_arg))

    def lower_loop_yield(
        self, op: LoopOp, end: YieldOp, dests: list[SSAValue], cond_slot: SSAValue | None, i: SSAValue, b: Builder
    ) -> None:
        """The copies at the end of an iteration: scan rows first (a row may be a carried value as the
        iteration found it), then the condition and the carried values."""
        values = list(end.values)
        n = len(op.inits)
        slots = [*dests[:n], *([cond_slot] if cond_slot is not None else [])]
        pairs = [(values[1 + k], dests[k]) for k in range(n)]
        if cond_slot is not None:
            pairs.append((values[0], self.cond_slot_as(b, op, values[0])))
        for value, dest in pairs:
            source = self.mem[value]
            if source is not dest and source in slots:
                raise OpFailure(op,
                    f"{self.loop_labels[op]} in @{self.fn.sym_name.data} carries {describe(value)} into another"
                    " position: copy it first (the iteration's copies would overwrite each other)"
                )
        for value, result in zip(values[1 + n :], op.scans):
            base = planned_offset(result)
            assert base is not None  # liveness plans every scan output on chip
            row = tensor_bytes(value.type)
            shift = b.insert(arith.AddiOp(self.index(base), b.insert(arith.MuliOp(i, self.index(row))).result)).result
            view = b.insert(memref.ViewOp(self.arena, shift, [], memref_of(value.type, ON_CHIP)))
            view.attributes[TENSOR_ATTR] = StringAttr(self.names(result))
            b.insert(memref.CopyOp(self.mem[value], view.result))
        for value, dest in pairs:
            if self.mem[value] is not dest:
                b.insert(memref.CopyOp(self.mem[value], dest))

    def lower_dma_start(self, op: DmaStartOp, b: Builder) -> None:
        count = len(op.sources)
        tag = b.insert(memref.AllocaOp.get(i32, shape=[count])).memref
        tag.name_hint = "tag"
        buffer = self.mem[op.buffer]
        names = self.transfer_names(op)
        for k, (source, slot) in enumerate(zip(op.sources, op.byte_offsets)):
            src = self.bytes_of[source]
            size = tensor_bytes(source.type)
            start = b.insert(
                memref.DmaStartOp.get(
                    src.base, [self.index(src.offset)], buffer, [self.index(slot)], self.index(size), tag, [self.index(k)]
                )
            )
            start.attributes[TENSOR_ATTR] = StringAttr(names[k])
        self.tags[op.token] = (tag, buffer, op)

    def lower_resident_load(self, op: DmaStartOp) -> None:
        """``@load_resident_<fn>``: the transfer ``op`` of resident weights into their buffer.

        Reads the blobs and writes the bytes of this function's arena where
        the plan put the resident buffer; the views the function reads them
        through are made at its wait.
        """
        name = self.fn.sym_name.data
        block = Block()
        b = Builder(InsertPoint.at_end(block))
        indices: dict[int, SSAValue] = {}

        def index(value: int) -> SSAValue:
            if value not in indices:
                indices[value] = b.insert(arith.ConstantOp(IntegerAttr(value, IndexType()))).result
            return indices[value]

        arena = b.insert(memref.GetGlobalOp(arena_name(self.fn), byte_memref(self.arena_size, ON_CHIP))).memref
        offset = planned_offset(op.buffer)
        assert offset is not None  # the plan was checked: every planned tensor has an offset
        buffer_type = memref_of(op.buffer.type, ON_CHIP)
        buffer = b.insert(memref.ViewOp(arena, index(offset), [], buffer_type)).result
        tag = b.insert(memref.AllocaOp.get(i32, shape=[len(op.sources)])).memref
        wait = next(use.operation for use in op.token.uses)
        for k, (source, slot) in enumerate(zip(op.sources, op.byte_offsets)):
            src = self.bytes_of[source]
            glob = src.base.owner
            assert isinstance(glob, memref.GetGlobalOp)
            base = b.insert(memref.GetGlobalOp(glob.name_.string_value(), glob.memref.type)).memref
            start = b.insert(
                memref.DmaStartOp.get(
                    base, [index(src.offset)], buffer, [index(slot)], index(tensor_bytes(source.type)), tag, [index(k)]
                )
            )
            start.attributes[TENSOR_ATTR] = StringAttr(self.names(wait.results[k]))
        for k, source in enumerate(op.sources):
            b.insert(memref.DmaWaitOp.get(tag, [index(k)], index(tensor_bytes(source.type))))
        b.insert(func.ReturnOp())
        init_name = flat_symbol(f"load_resident_{name}")
        self.init = func.FuncOp(init_name, func.FunctionType.from_lists([], []), Region(block))
        self.init.attributes[INIT_OF_ATTR] = StringAttr(name)
        self.fn.attributes[INIT_ATTR] = StringAttr(init_name)

    def transfer_names(self, op: DmaStartOp) -> list[str]:
        """The tensor names of the data ``op`` transfers: its wait's results, or for a reload
        (``cfmem.reload``) those of the transfer before the loop it loads again."""
        first = self.reloaded.get(op)
        waits = [use.operation for use in (first or op).token.uses if isinstance(use.operation, DmaWaitOp)]
        return [self.names(r) for r in waits[0].results] if waits else [self.names(s) for s in op.sources]

    def lower_dma_wait(self, op: DmaWaitOp, b: Builder) -> None:
        tag, buffer, start = self.tags[op.token]
        for k, source in enumerate(start.sources):
            b.insert(memref.DmaWaitOp.get(tag, [self.index(k)], self.index(tensor_bytes(source.type))))
        place = self.bytes_of.get(start.buffer)  # set for every planned buffer, on chip or off
        names = self.transfer_names(start)
        for result, slot, name in zip(op.results, start.byte_offsets, names):
            space = buffer.type.memory_space if isinstance(buffer.type, MemRefType) else None
            self.mem[result] = self.view(b, buffer, slot, memref_of(result.type, space), name)
            if place is not None:
                self.bytes_of[result] = _Bytes(place.base, place.offset + slot)  # may be prefetched


def blob_global(glob: GlobalOp, weights_dir: Path | None) -> memref.GlobalOp:
    """``nn.global`` blob ``glob`` as an off-chip memref global.

    A ``file(...)`` blob stays in its file: an uninitialized constant global
    that names the file (relative to the current directory, as ``weights_dir``
    is), the offset and the SHA-256 of its bytes; a seeded or inline blob
    becomes a constant global of its bytes.
    """
    try:
        data = blob_bytes(glob, weights_dir)
    except WeightError as err:
        raise PassFailedException(f"{err.message} ({err.location})") from err
    size = glob.size.value.data
    ty = byte_memref(size)
    name = StringAttr(flat_symbol(glob.sym_name.data))
    if glob.file is None:
        value = DenseIntOrFPElementsAttr(TensorType(i8, [size]), BytesAttr(data.tobytes()))
        return memref.GlobalOp.get(name, ty, value, StringAttr("private"), constant=UnitAttr())
    assert glob.file_offset is not None
    lowered = memref.GlobalOp.get(name, ty, UnitAttr(), StringAttr("private"), constant=UnitAttr())
    lowered.attributes[FILE_ATTR] = StringAttr(str(resolve(glob.file.data, weights_dir)))
    lowered.attributes[OFFSET_ATTR] = IntegerAttr(glob.file_offset.value.data, i64)
    lowered.attributes[SHA256_ATTR] = StringAttr(sha256_of(data))
    return lowered


def _stored_arena_size(fn: func.FuncOp) -> int:
    size = fn.attributes.get(ARENA_ATTR)
    if not isinstance(size, IntegerAttr):
        raise OpFailure(fn, f"function @{fn.sym_name.data} has no memory plan: run nn-plan-memory first")
    return size.value.data


def lower_module(module: ModuleOp, weights_dir: Path | None = None, check_plan: bool = True) -> None:
    """Lower every planned function of ``module`` and its weights in place.

    Each function's stored plan is verified first; ``check_plan=False`` lowers
    it as it is, so that tests can give the flat interpreter a wrong plan. The
    cyclic garbage collector is paused meanwhile: the new ops all live on, and
    it would rescan the whole module again and again for nothing.
    """
    with cyclic_gc_paused():
        _lower_module(module, weights_dir, check_plan)


def _lower_module(module: ModuleOp, weights_dir: Path | None, check_plan: bool) -> None:
    blobs: dict[str, memref.GlobalOp] = {}
    for op in list(module.ops):
        if isinstance(op, GlobalOp):
            lowered = blob_global(op, weights_dir)
            blobs[op.sym_name.data] = lowered
            module.body.block.insert_op_before(lowered, op)
            module.body.block.erase_op(op)
    constants: list[memref.GlobalOp] = []
    labels = loop_labels(module)  # as the reference interpreter counts them, module-wide
    for fn in functions(module):
        lowering = _FunctionLowering(fn, blobs, constants, check_plan, labels)
        lowering.lower()
        arena = memref.GlobalOp.get(
            StringAttr(arena_name(fn)), byte_memref(lowering.arena_size, ON_CHIP), UnitAttr(), StringAttr("private")
        )
        module.body.block.insert_op_before(arena, fn)
        if lowering.offchip_arena is not None:
            offchip = memref.GlobalOp.get(
                StringAttr(offchip_arena_name(fn)), byte_memref(lowering.offchip_size), UnitAttr(), StringAttr("private")
            )
            module.body.block.insert_op_before(offchip, fn)
        if lowering.init is not None:
            module.body.block.insert_op_after(lowering.init, fn)
    for glob in constants:
        module.body.block.insert_op_before(glob, module.body.block.first_op)


@dataclass(frozen=True)
class LowerToMemrefPass(ModulePass):
    """Lowers planned functions to one byte arena with views at planned offsets.

    Option ``weights-dir``: directory that ``file(...)`` blobs are read from
    (default: the current directory).
    """

    name = "nn-lower-to-memref"
    weights_dir: str = ""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        lower_module(op, Path(self.weights_dir) if self.weights_dir else None)
