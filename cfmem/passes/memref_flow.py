"""How buffers flow in bufferized upstream MLIR: which ops make, view and free them, what an
operand becomes through a view or scf control flow, and how messages name a value (for
``memref-plan-arena``)."""

from __future__ import annotations

from collections.abc import Sequence

from collections.abc import Iterable

from xdsl.dialects.builtin import MemRefType, UnrankedMemRefType
from xdsl.ir import BlockArgument, Operation, SSAValue

ALLOCATIONS = ("memref.alloc", "memref.alloca")
VIEWS = (
    "memref.subview",
    "memref.cast",
    "memref.reinterpret_cast",
    "memref.collapse_shape",
    "memref.expand_shape",
    "memref.transpose",
    "memref.view",
    "memref.reshape",
    "memref.memory_space_cast",
    "memref.assume_alignment",
    "memref.extract_strided_metadata",
)
"""Ops whose first result points into the bytes of their first operand (the base buffer
of ``memref.extract_strided_metadata``, which the deallocation pipeline frees)."""
LOOPS = ("scf.for", "scf.while")
PLANNED_REGIONS = ("scf.if", *LOOPS)
"""The region ops whose regions memref-plan-arena plans through (an if's branches, a loop's
iteration); any other region op counts as one op."""
FREE = "memref.dealloc"
POINTER = "memref.extract_aligned_pointer_as_index"
"""A buffer's address as an index (see cfmem.passes.memref_addresses)."""


def flows_into(op: Operation, index: int) -> list[SSAValue]:
    """The values operand ``index`` of ``op`` becomes or points into: a view's result, or the
    region results and block arguments scf control flow passes it to (none for other operands)."""
    if op.name in VIEWS:
        return list(op.results[:1]) if index == 0 else []
    if op.name == "scf.for":  # an initial value: the body's argument and the loop's result
        return [op.regions[0].block.args[index - 2], op.results[index - 3]] if index >= 3 else []
    if op.name == "scf.while":
        return [op.regions[0].block.args[index]]
    owner = op.parent_op()
    if op.name == "scf.condition" and index > 0 and owner is not None:  # the after block's and the result
        return [*_at(owner.regions[1].block.args, index - 1), *_at(owner.results, index - 1)]
    if op.name == "scf.yield" and owner is not None:
        if owner.name == "scf.if":
            return _at(owner.results, index)
        if owner.name == "scf.for":
            return [*_at(owner.results, index), *_at(owner.regions[0].block.args, index + 1)]
        if owner.name == "scf.while":  # from the after block to the next iteration's before block
            return _at(owner.regions[0].block.args, index)
    return []


def _at(values: Sequence[SSAValue], index: int) -> list[SSAValue]:
    """``[values[index]]``, or none where a malformed terminator passes more values than there are."""
    return [values[index]] if index < len(values) else []


def points_into(ops: Iterable[Operation], seeds: dict[SSAValue, set[SSAValue]]) -> dict[SSAValue, set[SSAValue]]:
    """``seeds`` (a value -> the buffers it may point into) extended to every value ``ops``
    pass them on to through ``flows_into``, to a fixed point (loops flow backwards)."""
    points = {value: set(into) for value, into in seeds.items()}
    ops = list(ops)
    grew = True
    while grew:
        grew = False
        for op in ops:
            for index, value in enumerate(op.operands):
                source = points.get(value)
                for target in flows_into(op, index) if source else ():
                    known = points.setdefault(target, set())
                    if not source <= known:
                        known |= source
                        grew = True
    return points


def is_memref(value: SSAValue) -> bool:
    return isinstance(value.type, MemRefType | UnrankedMemRefType)


def describe(value: SSAValue) -> str:
    """``%name``, ``a buffer`` or ``a value``; ``argument ...`` for a block argument."""
    name = f"%{value.name_hint}" if value.name_hint else ("a buffer" if is_memref(value) else "a value")
    return f"argument {name}" if isinstance(value, BlockArgument) else name
