"""cfmem's own plans taken back out of its lowered modules: test inputs for ``memref-plan-arena``.

``strip_arena`` turns a module that ``nn-lower-to-linalg`` and ``prepare_for_jit``
produced (plain upstream memref and linalg ops) back into one with an allocation per
planned tensor, and the arena global goes. The views of a function's arena
(``memref.get_global @arena_<fn>``) are grouped by the tensor they name
(``cfmem.tensor``):

- a tensor with one view, at a constant offset, becomes a ``memref.alloc`` of the
  view's type in its place;
- a tensor with several views (a loop's condition slot, read with two shapes; a scan
  output and the rows ``base + i * row bytes`` its iterations write) becomes one
  ``memref.alloc`` of bytes, from its lowest constant offset to the end of its
  furthest view, placed before the first of its views in the innermost block holding
  them all; each view becomes a ``memref.view`` of it at the same offset relative to
  that base (``i * row bytes`` for a row).

A loop's carried value is one tensor (the body reads the result's bytes, and each
iteration ends with a copy into them), so it stays one allocation before the loop.
Views of those views (weights inside a DMA buffer) stay views. Assumes the module was
planned without aliases (``nn-plan-memory{aliases=false}``): aliased tensors share
bytes on purpose, which separate allocations would not; and that a row offset stays
within its tensor, as cfmem's plan verifier checked.
"""

from __future__ import annotations

from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp, i8
from xdsl.ir import Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from cfmem.dialects.types import tensor_bytes
from cfmem.passes.lower_to_memref import TENSOR_ATTR


PLAN_TO_STRIP = "nn-insert-dma,nn-plan-memory{aliases=false}"
"""The pipeline a model is planned with before its plan is stripped (no aliases, see above)."""


class NotStrippable(ValueError):
    """The module's arena is used in a way a set of allocations cannot stand for."""


def strip_arena(module: ModuleOp) -> ModuleOp:
    """A copy of ``module`` with each function's arena views as allocations (see the module docstring)."""
    module = module.clone()
    arenas = [op for op in module.walk() if isinstance(op, memref.GetGlobalOp) and op.name_.string_value().startswith("arena_")]
    for get in arenas:
        name = get.name_.string_value()
        tensors: dict[object, list[memref.ViewOp]] = {}
        for use in get.memref.uses:
            view = use.operation
            if not isinstance(view, memref.ViewOp) or view.source is not get.memref:
                raise NotStrippable(f"'{view.name}' uses the arena @{name} directly")
            tensors.setdefault(view.attributes.get(TENSOR_ATTR, view), []).append(view)
        for views in tensors.values():
            _strip_tensor(views)
        Rewriter.erase_op(get)
        for glob in [op for op in module.walk() if isinstance(op, memref.GlobalOp) and op.sym_name.data == name]:
            Rewriter.erase_op(glob)
    return module


def stripped_linalg(text: str) -> ModuleOp:
    """The ``nn-lower-to-linalg`` text ``text`` parsed, with its arena stripped."""
    from xdsl.parser import Parser

    from cfmem.ir_io import make_context

    return strip_arena(Parser(make_context(), text).parse_module())


def _strip_tensor(views: list[memref.ViewOp]) -> None:
    """Replace the arena views of one tensor by one allocation (and views of it)."""
    shifts = [_shift(view) for view in views]
    hint = next((view.result.name_hint for view in views if view.result.name_hint), None)
    if len(views) == 1 and shifts[0][1] is None:
        alloc = memref.AllocOp.get(views[0].result.type.element_type, shape=views[0].result.type.get_shape())
        alloc.memref.name_hint = hint
        Rewriter.replace_op(views[0], alloc)
        return
    constant = [start for start, step in shifts if step is None]
    if not constant:
        raise NotStrippable(f"tensor {_name(views[0])} has no view of the arena at a constant offset to find its bytes by")
    base = min(constant)
    size = max(start - base + tensor_bytes(view.result.type) for view, (start, _) in zip(views, shifts))
    alloc = memref.AllocOp.get(i8, shape=[size])
    alloc.memref.name_hint = hint
    Rewriter.insert_op(alloc, InsertPoint.before(_first_dominating(views)))
    for view, (start, step) in zip(views, shifts):
        if step is None:
            offset = _constant(start - base, view)
        elif start == base:
            offset = step
        else:
            offset = _insert_before(arith.AddiOp(_constant(start - base, view), step), view)
        replacement = memref.ViewOp(alloc.memref, offset, [], view.result.type)
        replacement.attributes[TENSOR_ATTR] = view.attributes[TENSOR_ATTR]
        replacement.result.name_hint = view.result.name_hint
        shift = view.byte_shift.owner
        Rewriter.replace_op(view, replacement)
        if step is not None and not shift.results[0].uses:
            Rewriter.erase_op(shift)


def _shift(view: memref.ViewOp) -> tuple[int, SSAValue | None]:
    """A view's byte offset as ``start + step``: ``step`` None for a constant, else the
    computed part (``i * row bytes``) of ``arith.addi(constant, step)``."""
    value = view.byte_shift
    if (start := _constant_value(value)) is not None:
        return start, None
    add = value.owner
    if isinstance(add, arith.AddiOp):
        for constant, step in ((add.lhs, add.rhs), (add.rhs, add.lhs)):
            if (start := _constant_value(constant)) is not None:
                return start, step
    raise NotStrippable(f"tensor {_name(view)} is viewed at an offset not of the form constant + computed")


def _constant_value(value: SSAValue) -> int | None:
    op = value.owner
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
        return op.value.value.data
    return None


def _constant(value: int, before: Operation) -> SSAValue:
    return _insert_before(arith.ConstantOp(IntegerAttr(value, IndexType())), before)


def _insert_before(op: Operation, before: Operation) -> SSAValue:
    Rewriter.insert_op(op, InsertPoint.before(before))
    return op.results[0]


def _first_dominating(views: list[memref.ViewOp]) -> Operation:
    """The op, in the innermost block holding every view, that holds the first of them."""
    chains = [_ancestors(view) for view in views]
    blocks = [dict(chain) for chain in chains]
    block = next(b for b, _ in chains[0] if all(b in others for others in blocks))
    return min((others[block] for others in blocks), key=block.get_operation_index)


def _ancestors(op: Operation) -> list[tuple[Block, Operation]]:
    """Each block around ``op``, innermost first, with the op in it that holds ``op``."""
    chain = []
    while (block := op.parent_block()) is not None:
        chain.append((block, op))
        if (parent := block.parent_op()) is None:
            break
        op = parent
    return chain


def _name(view: memref.ViewOp) -> str:
    tag = view.attributes.get(TENSOR_ATTR)
    return f"'{tag.data}'" if tag is not None else f"%{view.result.name_hint}"
