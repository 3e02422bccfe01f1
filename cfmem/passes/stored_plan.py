"""The plan ``nn-plan-memory`` stored on a function, read back and verified.

Plans are attributes, so they can be edited by hand between ``xdsl-opt``
calls. Before a pass relies on one, ``check_stored_plan`` reads it back and
checks it with the planners' own verifier (``cfmem.planning.verify``) under
path-exact conflicts: one offset per result, -1 (off chip) or a non-negative
offset, every tensor that must be on chip has an offset, only on-chip tensors
have one, and every planned tensor fits in ``cfmem.arena_size`` without
sharing a byte with a tensor that can be live at the same time. The off-chip
activation arena (``cfmem.offchip_offsets``, ``cfmem.offchip_arena_size``) is
checked the same way by ``check_offchip_plan``. Alignment is not rechecked:
the option it was planned with is not stored.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, i64
from xdsl.ir import Operation, SSAValue
from xdsl.utils.exceptions import PassFailedException

from cfmem.passes.liveness import analyze_function, op_position
from cfmem.passes.plan_memory import (
    ARENA_ATTR,
    ARG_OFFSETS_ATTR,
    OFFCHIP_ARENA_ATTR,
    OFFCHIP_OFFSETS_ATTR,
    OFFSETS_ATTR,
)
from cfmem.planning.control_flow import timeline
from cfmem.planning.verify import PlanError, verify_plan

OFF_CHIP = -1
"""The offset ``nn-plan-memory`` stores for a result it does not plan."""


def describe(value: SSAValue) -> str:
    """``'nn.relu' result %y`` or ``argument %x``, for messages."""
    name = f"%{value.name_hint}" if value.name_hint else f"#{value.index}"
    owner = value.owner
    return f"'{owner.name}' result {name}" if isinstance(owner, Operation) else f"argument {name}"


def _stored_offsets(owner: str, attr, values: list[SSAValue]) -> dict[SSAValue, int]:
    """The offsets in ``attr`` by value, checking their count and sign."""
    if not (isinstance(attr, DenseArrayBase) and attr.elt_type == i64):
        raise PassFailedException(f"{owner} has offsets {attr}, not an array<i64: ...>")
    offsets = [int(v) for v in attr.get_values()]
    if len(offsets) != len(values):
        raise PassFailedException(f"{owner} has {len(offsets)} offsets for {len(values)} value(s): one each")
    for value, offset in zip(values, offsets):
        if offset < OFF_CHIP:
            raise PassFailedException(f"{describe(value)} has negative offset {offset} (-1 means off chip)")
    return dict(zip(values, offsets))


def check_stored_plan(fn: func.FuncOp) -> int:
    """Verify ``fn``'s stored plan; return its arena size.

    Raises ``PassFailedException`` naming the function, the value or the
    buffers at fault.
    """
    where = f"function @{fn.sym_name.data}"
    arena = fn.attributes.get(ARENA_ATTR)
    if not isinstance(arena, IntegerAttr):
        raise PassFailedException(f"{where} has no memory plan: run nn-plan-memory before nn-lower-to-memref")
    arena_size = arena.value.data
    if arena_size < 0:
        raise PassFailedException(f"{where} has a negative {ARENA_ATTR} {arena_size}")

    _check_arena(fn, "onchip", OFFSETS_ATTR, arena_size)
    return arena_size


def check_offchip_plan(fn: func.FuncOp) -> int:
    """Verify ``fn``'s stored off-chip activation plan; return that arena's size (0 if none)."""
    arena = fn.attributes.get(OFFCHIP_ARENA_ATTR, IntegerAttr(0, i64))
    if not isinstance(arena, IntegerAttr) or arena.value.data < 0:
        raise PassFailedException(f"function @{fn.sym_name.data} has a bad {OFFCHIP_ARENA_ATTR} {arena}")
    _check_arena(fn, "offchip", OFFCHIP_OFFSETS_ATTR, arena.value.data)
    return arena.value.data


def _check_arena(fn: func.FuncOp, space: str, attr_name: str, arena_size: int) -> None:
    """Check the offsets ``attr_name`` of ``fn``'s tensors in ``space`` against an arena of ``arena_size``."""
    where = f"function @{fn.sym_name.data}"
    offsets: dict[SSAValue, int] = {}
    args = list(fn.body.block.args)
    if space == "onchip" and ARG_OFFSETS_ATTR in fn.attributes:
        offsets.update(_stored_offsets(f"{where} ({ARG_OFFSETS_ATTR})", fn.attributes[ARG_OFFSETS_ATTR], args))
    for op in fn.walk():
        if op is not fn and attr_name in op.attributes:
            owner = f"'{op.name}' {op_position(op)}"
            offsets.update(_stored_offsets(owner, op.attributes[attr_name], list(op.results)))

    info = analyze_function(fn, io_on_chip=space == "onchip", space=space)
    ret = fn.body.block.last_op
    io = set(args) | set(ret.operands if isinstance(ret, func.ReturnOp) else ())
    memory = "an on-chip" if space == "onchip" else "an off-chip activation"
    for value, offset in offsets.items():
        if offset != OFF_CHIP and value not in info.tensor_of:
            raise PassFailedException(f"{describe(value)} has offset {offset} but is not {memory} tensor")
    for value in info.tensor_of:
        if value not in io and offsets.get(value, OFF_CHIP) == OFF_CHIP:
            raise PassFailedException(f"{describe(value)} has no planned offset: plan the function first")

    by_id = {t.id: offsets[v] for v, t in info.tensor_of.items() if offsets.get(v, OFF_CHIP) != OFF_CHIP}
    buffers = [b for b in timeline(info.tree, "exact") if b.id in by_id]
    try:
        verify_plan(buffers, by_id, arena_size)
    except PlanError as err:
        which = "plan" if space == "onchip" else "off-chip plan"
        raise PassFailedException(f"{where}: the stored {which} is wrong: {err}") from None
