"""Which planned tensors live inside another's bytes instead of their own.

``find_aliases`` maps each alias to ``(root, byte offset)``: the alias's bytes
are ``[offset, offset + its size)`` of the root's, and the root is planned with
the union of its aliases' lifetimes. Kinds (``ALIAS_KINDS``):

``reshape``
    an ``nn.reshape`` of a planned tensor: the same bytes, a new type.
``slice``
    an ``nn.slice`` selecting one contiguous byte range of its input: every
    axis with more than one element has step 1, and before the last axis the
    slice cuts short, every axis has one element.
``inplace``
    an elementwise op (``INPLACE_OPS``) writes its result over an operand of
    the result's shape and byte size whose whole alias group dies at this op
    (no later use in the block, none inside a later ``nn.if``); the group's
    root is defined in the op's block and no other operand shares it.
``concat``
    an input of ``nn.concat`` (or of an ``nn.qconcat`` whose every input has
    the output's scale and zero point) made by a compute op in the concat's
    block and used only by it is computed straight into its part of the
    result, when that part is contiguous (all result dims before the axis are 1).
``yield``
    a value made by an op of a branch and used only by the branch's
    ``nn.yield`` is computed straight into the if's result.

Function arguments and results, read-only data, DMA buffers, results placed
off chip (``cfmem.offchip``) and values of ops with several results never take part. Consumer-side kinds (concat,
yield) are decided first; reshape, slice and in-place follow in program order.
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.dialects import func
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Block, Operation, SSAValue

from cfmem.dialects.flat_form import is_inplace_op
from cfmem.dialects.nn_compute import ComputeOp, ConcatOp, SliceOp
from cfmem.dialects.nn_control import IfOp, YieldOp
from cfmem.dialects.nn_dma import DmaBufferOp, DmaWaitOp
from cfmem.dialects.nn_quant import QConcatOp
from cfmem.dialects.nn_weights import ReshapeOp
from cfmem.dialects.types import element_bytes, static_shape, tensor_bytes
from cfmem.passes.liveness import is_read_only, memory_readers
from cfmem.passes.placement import is_offchip_activation

ALIAS_KINDS = ("reshape", "slice", "inplace", "concat", "yield")
SAFE_KINDS = ("reshape", "inplace", "yield")
"""Kinds that never lengthen a byte's lifetime (slice and concat can)."""

Aliases = dict[SSAValue, tuple[SSAValue, int]]


def slice_byte_offset(op: SliceOp) -> int | None:
    """Where ``op``'s result starts in its input's bytes, or None if not one contiguous range."""
    shape = static_shape(op.input.type)
    bounds = op.bounds()
    if any(count > 1 and step != 1 for _, step, count in bounds):
        return None
    cut = [a for a, (_, _, count) in enumerate(bounds) if count < shape[a]]
    if cut and any(bounds[a][2] != 1 for a in range(cut[-1])):
        return None
    offset, stride = 0, element_bytes(op.input.type.get_element_type())
    for a in reversed(range(len(shape))):
        offset += bounds[a][0] * stride
        stride *= shape[a]
    return offset


def concat_parts(op: ConcatOp | QConcatOp) -> list[int] | None:
    """Byte offset of each input's part of the result, or None if the parts are not contiguous."""
    shape = static_shape(op.results[0].type)
    axis = op.axis.value.data % len(shape)
    if any(d != 1 for d in shape[:axis]):
        return None
    offsets, at = [], 0
    for value in op.operands:
        offsets.append(at)
        at += tensor_bytes(value.type)
    return offsets


def _same_quantization(op: QConcatOp) -> bool:
    scales = [float(v) for v in op.x_scale.get_values()]
    zeros = [int(v) for v in op.x_zero_point.get_values()]
    y = (float(op.y_scale.get_values()[0]), int(op.y_zero_point.get_values()[0]))
    types = {v.type.get_element_type() for v in op.operands}
    return all((s, z) == y for s, z in zip(scales, zeros)) and types == {op.element}


class _Finder:
    def __init__(self, fn: func.FuncOp, kinds: Iterable[str]):
        self.fn = fn
        self.kinds = set(kinds)
        unknown = self.kinds - set(ALIAS_KINDS)
        if unknown:
            raise ValueError(f"unknown alias kind(s) {', '.join(sorted(unknown))}")
        self.io = set(fn.body.block.args) | set(fn.body.block.last_op.operands)
        self.parent: Aliases = {}
        self.members: dict[SSAValue, list[SSAValue]] = {}
        self.ends: dict[SSAValue, tuple[int, int]] = {}
        """Per root: how many of its members ``members_end`` has read, and the last step they reach."""
        self.step: dict[Operation, int] = {}
        for op in fn.walk():
            for region in op.regions:
                for block in region.blocks:
                    for k, inner in enumerate(block.ops):
                        self.step[inner] = k

    def aliasable(self, value: SSAValue) -> bool:
        owner = value.owner
        return (
            isinstance(value.type, TensorType)
            and isinstance(owner, Operation)
            and len(owner.results) == 1
            and value not in self.io
            and not is_read_only(value)
            and not isinstance(owner, DmaWaitOp | DmaBufferOp)
            and not is_offchip_activation(value)
        )

    def free(self, value: SSAValue) -> bool:
        """Aliasable and not yet an alias."""
        return self.aliasable(value) and value not in self.parent

    def root(self, value: SSAValue) -> tuple[SSAValue, int]:
        offset = 0
        while value in self.parent:
            value, delta = self.parent[value]
            offset += delta
        return value, offset

    def link(self, value: SSAValue, target: SSAValue, offset: int) -> None:
        self.parent[value] = (target, offset)

    # --- consumer side: concat and yield ---------------------------------------

    def consumer_side(self) -> None:
        for op in self.fn.walk():
            if "concat" in self.kinds and isinstance(op, ConcatOp | QConcatOp):
                self.concat(op)
            if "yield" in self.kinds and isinstance(op, IfOp):
                for branch in op.branches:
                    self.yields(op, branch.block)

    def single_use_in(self, value: SSAValue, block: Block) -> bool:
        return (
            self.free(value)
            and isinstance(value.owner, Operation)
            and value.owner.parent_block() is block
            and len(list(value.uses)) == 1
        )

    def concat(self, op: ConcatOp | QConcatOp) -> None:
        result = op.results[0]
        if not self.aliasable(result) or (isinstance(op, QConcatOp) and not _same_quantization(op)):
            return
        parts = concat_parts(op)
        if parts is None:
            return
        for value, offset in zip(op.operands, parts):
            if isinstance(value.owner, ComputeOp) and self.single_use_in(value, op.parent_block()):
                self.link(value, result, offset)

    def yields(self, op: IfOp, block: Block) -> None:
        end = block.last_op
        assert isinstance(end, YieldOp)
        for value, result in zip(end.operands, op.results):
            if self.aliasable(result) and self.single_use_in(value, block):
                self.link(value, result, 0)

    # --- producer side: reshape, slice, in place ---------------------------------

    def producer_side(self) -> None:
        for root in {self.root(v)[0] for v in self.parent}:
            self.members[root] = [root]
        for value in self.parent:
            self.members[self.root(value)[0]].append(value)
        for op in self.fn.walk():
            if op is self.fn or not op.results or not self.free(op.results[0]):
                continue
            result = op.results[0]
            if isinstance(op, ReshapeOp) and "reshape" in self.kinds and self.aliasable(op.input):
                self.join(result, op.input, 0)
            elif isinstance(op, SliceOp) and "slice" in self.kinds and self.aliasable(op.input):
                offset = slice_byte_offset(op)
                if offset is not None:
                    self.join(result, op.input, offset)
            elif is_inplace_op(op) and "inplace" in self.kinds:
                source = next((v for v in dict.fromkeys(op.operands) if self.can_overwrite(op, v)), None)
                if source is not None:
                    self.join(result, source, 0)

    def join(self, value: SSAValue, target: SSAValue, offset: int) -> None:
        self.link(value, target, offset)
        root = self.root(target)[0]
        self.members.setdefault(root, [root]).append(value)

    def can_overwrite(self, op: Operation, value: SSAValue) -> bool:
        result = op.results[0]
        if not self.aliasable(value) or value.type.get_shape() != result.type.get_shape():
            return False
        if tensor_bytes(value.type) != tensor_bytes(result.type):
            return False
        root = self.root(value)[0]
        block = op.parent_block()
        if root.owner.parent_block() is not block:
            return False
        if any(self.root(other)[0] is root for other in op.operands if other is not value):
            return False
        return self.members_end(root, block) <= self.step[op]

    def members_end(self, root: SSAValue, block: Block) -> int:
        """The last step in ``block`` (the root's block) that reads ``root`` or a member of it.
        Members are only added, and a member's readers do not change while aliases are found,
        so the maximum is kept per root and only the members added since are read: a long
        chain of in-place ops costs time in proportion to its length, not its square."""
        members = self.members.get(root, [root])
        counted, end = self.ends.get(root, (0, -1))
        for member in members[counted:]:
            end = max(end, self.last_step(member, block))
        self.ends[root] = (len(members), end)
        return end

    def last_step(self, value: SSAValue, block: Block) -> int:
        """The step in ``block`` of the last op reading ``value`` (a nested read counts at its if)."""
        end = -1
        for reader in memory_readers(value):
            while reader.parent_block() is not block:
                reader = reader.parent_op()
            end = max(end, self.step[reader])
        return end


def find_aliases(fn: func.FuncOp, kinds: Iterable[str] = ALIAS_KINDS) -> Aliases:
    """Every alias of ``fn`` of the given kinds, as alias -> (root, byte offset in the root)."""
    finder = _Finder(fn, kinds)
    finder.consumer_side()
    finder.producer_side()
    return {value: finder.root(value) for value in finder.parent}
