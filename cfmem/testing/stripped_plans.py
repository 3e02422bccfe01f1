"""cfmem's own plans taken back out of its lowered modules: test inputs for ``memref-plan-arena``.

``strip_arena`` turns a module that ``nn-lower-to-linalg`` and ``prepare_for_jit``
produced (plain upstream memref and linalg ops) back into one with an allocation per
planned buffer: each ``memref.view`` of a function's arena (``memref.get_global
@arena_<fn>``) at a constant offset becomes a ``memref.alloc`` of the view's type,
and the arena global goes. Views of those views (weights inside a DMA buffer) stay
views. Assumes the module was planned without aliases (``nn-plan-memory{aliases=false}``):
aliased tensors share bytes on purpose, which separate allocations would not.
"""

from __future__ import annotations

from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.rewriter import Rewriter

from cfmem.passes.lower_to_memref import TENSOR_ATTR


class NotStrippable(ValueError):
    """The module's arena is used in a way a set of allocations cannot stand for."""


def strip_arena(module: ModuleOp) -> ModuleOp:
    """A copy of ``module`` with each function's arena views as allocations (see the module docstring)."""
    module = module.clone()
    arenas = [op for op in module.walk() if isinstance(op, memref.GetGlobalOp) and op.name_.string_value().startswith("arena_")]
    for get in arenas:
        names = [use.operation.attributes.get(TENSOR_ATTR) for use in get.memref.uses]
        named = [n for n in names if n is not None]
        if len(set(named)) != len(named):  # a loop's carried values and rows: one tensor, several views
            raise NotStrippable("a tensor with several views of the arena (a loop's carried values or rows)")
        for use in list(get.memref.uses):
            view = use.operation
            if not isinstance(view, memref.ViewOp) or view.source is not get.memref:
                raise NotStrippable(f"'{view.name}' uses the arena @{get.name_.string_value()} directly")
            shift = view.byte_shift.owner
            if not (isinstance(shift, arith.ConstantOp) and isinstance(shift.value, IntegerAttr)):
                raise NotStrippable("a view of the arena at a computed offset (a loop's rows)")
            alloc = memref.AllocOp.get(view.result.type.element_type, shape=view.result.type.get_shape())
            alloc.memref.name_hint = view.result.name_hint
            Rewriter.replace_op(view, alloc)
        name = get.name_.string_value()
        Rewriter.erase_op(get)
        for glob in [op for op in module.walk() if isinstance(op, memref.GlobalOp) and op.sym_name.data == name]:
            Rewriter.erase_op(glob)
    return module
