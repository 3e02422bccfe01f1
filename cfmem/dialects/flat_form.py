"""The attributes that carry a plan into the flat form, and the op classes it may run in place.

``nn-lower-to-memref`` and the slicing and placement passes write these; the flat interpreter,
the flat DMA checker and the reports read them. Keeping them here, beside the ops, lets the
readers depend on the IR alone and not on the passes that write it.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, i64
from xdsl.ir import Operation

from cfmem.dialects.nn_compute import CastOp, ElementwiseBinaryOp, ElementwiseUnaryOp, LogicalOp, ModOp, SelectOp
from cfmem.dialects.nn_quant import QBinaryOp, QLookupOp

ON_CHIP = IntegerAttr(1, i64)
"""Memory space of the arena; the default space (none) is off-chip memory."""
TENSOR_ATTR = "cfmem.tensor"
"""On a ``memref.view`` or ``nn.apply`` result: the name of the planned tensor it holds."""
INIT_ATTR = "cfmem.init"
"""On a function: the name of the function that loads its resident weights."""
READS_ATTR = "cfmem.reads"
INPLACE_ATTR = "cfmem.inplace"
LOOP_ATTR = "cfmem.loop"
"""On the scf.for or scf.while of an ``nn.loop``: its label ``loop#k`` (slice loops carry none)."""
BUDGET_ATTR = "cfmem.onchip_budget"
"""On a function: the on-chip byte budget its plan was made for."""
TENSOR_INDEX_ATTR = "cfmem.tensor_index"
"""``[a, b]``: trip ``i`` of the enclosing loop names the tensor with ``a + b * i`` in place of the first ``{}``."""

INPLACE_OPS = (
    ElementwiseUnaryOp,
    ElementwiseBinaryOp,
    LogicalOp,
    CastOp,
    ModOp,
    SelectOp,
    QBinaryOp,
    QLookupOp,
)
"""Ops whose element ``i`` of the result depends on element ``i`` of a same-shaped operand only."""


def is_inplace_op(op: Operation) -> bool:
    return isinstance(op, INPLACE_OPS)


def tensor_name(template: str, index: tuple[int, int], trip: int) -> str:
    """The name a templated tensor has on trip ``trip`` (its first ``{}`` filled in)."""
    return template.replace("{}", str(index[0] + index[1] * trip), 1)
