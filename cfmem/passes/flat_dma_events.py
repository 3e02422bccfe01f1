"""The DMA events of a flat function (after ``nn-lower-to-memref``), for
``cfmem.dma.flat_hazards``.

Every memref value is traced to the memory it lives in (a global, an
argument, an alloca) and a byte range of it: ``memref.view`` with a constant
byte shift narrows the range; any other op that returns a memref from a
memref (subview, cast, ...) is taken to alias the whole range of its first
memref operand, which only makes the check stricter. Ops returning no memref
access the memrefs they take: ``nn.apply`` reads its ins and writes its outs,
``memref.copy``/``load``/``store`` as named, anything else "uses" them.
"""

from __future__ import annotations

from xdsl.dialects import func, memref, scf
from xdsl.dialects.builtin import MemRefType, StringAttr
from xdsl.ir import Block as IRBlock
from xdsl.ir import BlockArgument, Operation, SSAValue

from cfmem.dialects.nn_memref import ApplyOp
from cfmem.dialects.types import element_bytes, tensor_bytes
from cfmem.dma.events import Block, IfEvent, LoopEvent
from cfmem.dma.flat_hazards import Access, Bytes, FlatStart, FlatWait
from cfmem.passes.lower_to_memref import LOOP_ATTR, TENSOR_ATTR
from cfmem.passes.slice_loops import index_constant, unroll_loops

UNBOUNDED = 1 << 62


def _name(value: SSAValue) -> str:
    op = value.owner
    tag = op.attributes.get(TENSOR_ATTR) if isinstance(op, Operation) else None
    return tag.data if isinstance(tag, StringAttr) else (value.name_hint or "?")


def _item_bytes(ty) -> int:
    try:
        return element_bytes(ty.get_element_type())
    except ValueError:
        return 1


class _Memories:
    """Where each memref value of one function lives."""

    def __init__(self) -> None:
        self.of: dict[SSAValue, Bytes] = {}
        self.allocas = 0

    def __call__(self, value: SSAValue) -> Bytes:
        if value not in self.of:
            self.of[value] = self.trace(value)
        return self.of[value]

    def trace(self, value: SSAValue) -> Bytes:
        op = value.owner
        if isinstance(op, memref.GetGlobalOp):
            return Bytes(f"@{op.name_.string_value()}", 0, self.size(value), _name(value))
        if isinstance(op, memref.ViewOp):
            base, shift = self(op.source), index_constant(op.byte_shift)
            if shift is None:
                return Bytes(base.memory, base.lo, base.hi, _name(value))
            lo = base.lo + shift
            return Bytes(base.memory, lo, lo + self.size(value), _name(value))
        if isinstance(op, Operation) and not isinstance(op, memref.AllocaOp | memref.AllocOp):
            source = next((v for v in op.operands if isinstance(v.type, MemRefType)), None)
            if source is not None:
                base = self(source)
                return Bytes(base.memory, base.lo, base.hi, _name(value))
        if isinstance(op, Operation):
            self.allocas += 1
            return Bytes(f"{op.name}#{self.allocas}", 0, self.size(value), _name(value))
        assert isinstance(value, BlockArgument)
        return Bytes(f"%{_name(value)}", 0, self.size(value), _name(value))

    @staticmethod
    def size(value: SSAValue) -> int:
        try:
            return tensor_bytes(value.type)
        except (AssertionError, ValueError):
            return UNBOUNDED


def _tag(op: memref.DmaStartOp | memref.DmaWaitOp, memories: _Memories):
    index = index_constant(op.tag_indices[0]) if len(op.tag_indices) == 1 else None
    return (memories(op.tag).memory, index)


def _accesses(op: Operation, memories: _Memories) -> list[Access]:
    label = f"'{op.name}' ({op.compute.name})" if isinstance(op, ApplyOp) else f"'{op.name}'"
    if isinstance(op, ApplyOp):
        pairs = [(v, "reads") for v in op.ins] + [(v, "writes") for v in op.outs]
    elif isinstance(op, memref.CopyOp):
        pairs = [(op.source, "reads"), (op.destination, "writes")]
    elif isinstance(op, memref.LoadOp):
        pairs = [(op.memref, "reads")]
    elif isinstance(op, memref.StoreOp):
        pairs = [(op.memref, "writes")]
    else:
        pairs = [(v, "uses") for v in op.operands if isinstance(v.type, MemRefType)]
    return [Access(label, verb, memories(v)) for v, verb in pairs]


def _transferred(op: memref.DmaStartOp, memories: _Memories, side: str) -> Bytes:
    """The bytes a transfer writes (``side`` "dest") or reads ("src"): its element range of
    that memref (the whole memref if the range is not constant), named by the transfer."""
    value, indices = (op.dest, op.dest_indices) if side == "dest" else (op.src, op.src_indices)
    whole = memories(value)
    tag = op.attributes.get(TENSOR_ATTR)
    name = tag.data if isinstance(tag, StringAttr) else whole.name
    first = index_constant(indices[0]) if len(indices) == 1 else None
    count = index_constant(op.num_elements)
    if first is None or count is None:
        return Bytes(whole.memory, whole.lo, whole.hi, name)
    item = _item_bytes(value.type)
    return Bytes(whole.memory, whole.lo + first * item, whole.lo + (first + count) * item, name)


def block_events(block: IRBlock, label: str, memories: _Memories, if_labels: dict[scf.IfOp, str]) -> Block:
    events = Block(label)
    for op in block.ops:
        if isinstance(op, memref.DmaStartOp):
            source = _transferred(op, memories, "src")
            events.events.append(Access("'memref.dma_start'", "reads", source))
            events.events.append(FlatStart(_tag(op, memories), _transferred(op, memories, "dest"), source))
        elif isinstance(op, memref.DmaWaitOp):
            events.events.append(FlatWait(_tag(op, memories)))
        elif isinstance(op, scf.IfOp):
            tag = if_labels[op]
            branches = [
                block_events(r.block, f"{label}/{tag}.{side}", memories, if_labels)
                for r, side in ((op.true_region, "then"), (op.false_region, "else"))
                if r.blocks
            ]
            events.events.append(IfEvent(tag, branches))
        elif isinstance(op, scf.ForOp | scf.WhileOp) and LOOP_ATTR in op.attributes:
            tag = op.attributes[LOOP_ATTR].data
            body = op.body.block if isinstance(op, scf.ForOp) else op.after_region.block
            events.events.append(LoopEvent(tag, block_events(body, f"{label}/{tag}.body", memories, if_labels)))
        elif not any(isinstance(r.type, MemRefType) for r in op.results):
            events.events.extend(_accesses(op, memories))
    return events


def flat_function_events(fn: func.FuncOp) -> Block:
    """The flat DMA events of ``fn``; ``scf.if`` ops are labelled ``if#k`` in pre-order.
    Loops (``nn-roll-slices``) are checked trip by trip, on an unrolled copy."""
    if any(isinstance(op, scf.ForOp) and LOOP_ATTR not in op.attributes for op in fn.walk()):
        fn = fn.clone()
        unroll_loops(fn)
    if_labels = {op: f"if#{k}" for k, op in enumerate(o for o in fn.walk() if isinstance(o, scf.IfOp))}
    return block_events(fn.body.block, f"@{fn.sym_name.data}", _Memories(), if_labels)
