"""ui8 read as i8 once a module is lowered: upstream arith takes signless integers only.

The lowerings chose the unsigned ops (``extui``, ``uitofp``, ``fptoui``, ``maxui``) while the
types still said ui8; ``erase_signedness`` then retypes every ui8 value, constant, global and
function signature as i8 (the same bytes), so the numbers do not change.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    FunctionType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    TensorType,
    i8,
)
from xdsl.ir import Attribute
from xdsl.rewriter import Rewriter

from cfmem.dialects.nn_quant import ui8 as UI8


def signless(ty: Attribute) -> Attribute:
    """``ty`` with ui8 (as element) read as i8: the same bytes."""
    if ty == UI8:
        return i8
    if isinstance(ty, MemRefType) and ty.get_element_type() == UI8:
        return MemRefType(i8, ty.get_shape(), ty.layout, ty.memory_space)
    if isinstance(ty, TensorType) and ty.get_element_type() == UI8:
        return TensorType(i8, ty.get_shape())
    return ty


def erase_signedness(module: ModuleOp) -> None:
    """Every ui8 in ``module`` as i8, since upstream arith takes signless integers only; the
    lowering chose the unsigned ops (extui, uitofp, fptoui, maxui) while the types still said
    ui8, so the numbers do not change."""
    for op in list(module.walk()):
        for value in [*op.results, *(arg for region in op.regions for block in region.blocks for arg in block.args)]:
            if signless(value.type) != value.type:
                Rewriter.replace_value_with_new_type(value, signless(value.type))
        if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr) and op.value.type == UI8:
            op.value = IntegerAttr(int(np.array(op.value.value.data, np.uint8).astype(np.int8)), i8)
        elif isinstance(op, memref.GlobalOp) and signless(op.type) != op.type:
            op.type = signless(op.type)
            if isinstance(op.initial_value, DenseIntOrFPElementsAttr):
                op.initial_value = DenseIntOrFPElementsAttr(signless(op.initial_value.type), op.initial_value.data)
        elif isinstance(op, func.FuncOp):
            kind = op.function_type
            op.function_type = FunctionType.from_lists([signless(t) for t in kind.inputs], [signless(t) for t in kind.outputs])
