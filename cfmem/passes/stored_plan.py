"""The plan ``nn-plan-memory`` stored on a function, read back and verified.

Plans are attributes, so they can be edited by hand between ``xdsl-opt``
calls. Before a pass relies on one, ``check_stored_plan`` reads it back and
checks it with the planners' own verifier (``cfmem.planning.verify``) under
path-exact conflicts: one offset per result, -1 (off chip) or a non-negative
offset, every tensor that must be on chip has an offset, only on-chip tensors
have one, every op whose kernel needs scratch has a ``cfmem.scratch_offset`` (and
no other op has one), and every planned tensor and scratch fits in ``cfmem.arena_size`` without
sharing a byte with a tensor that can be live at the same time. The off-chip
activation arena (``cfmem.offchip_offsets``, ``cfmem.offchip_arena_size``) is
checked the same way by ``check_offchip_plan``. Alignment is not rechecked:
the option it was planned with is not stored.

Aliases are the one allowed overlap (on chip). The ops marked ``cfmem.alias``
must be exactly the aliases ``cfmem.passes.aliases`` finds with the kinds
named by the function's ``cfmem.aliases``, each naming its root and placed at
its root's offset plus its byte offset, inside the root's bytes; roots are then
checked with the lifetimes of their whole alias group.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, StringAttr, i64
from xdsl.ir import Operation, SSAValue
from xdsl.utils.exceptions import PassFailedException

from cfmem.dialects.nn_control import LoopOp
from cfmem.dialects.types import tensor_bytes
from cfmem.passes.aliases import Aliases, find_aliases
from cfmem.passes.liveness import FunctionLiveness, analyze_function, op_position
from cfmem.passes.plan_memory import (
    ALIAS_ATTR,
    ALIAS_KINDS_ATTR,
    ARENA_ATTR,
    ARG_OFFSETS_ATTR,
    OFFCHIP_ARENA_ATTR,
    OFFCHIP_OFFSETS_ATTR,
    OFFSETS_ATTR,
    SCRATCH_ATTR,
    SLOT_OFFSETS_ATTR,
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
        if isinstance(op, LoopOp) and space == "onchip" and SLOT_OFFSETS_ATTR in op.attributes:
            owner = f"'{op.name}' {op_position(op)} ({SLOT_OFFSETS_ATTR})"
            offsets.update(_stored_offsets(owner, op.attributes[SLOT_OFFSETS_ATTR], [op.iteration_arg, op.cond_arg]))
    aliases = declared_aliases(fn) if space == "onchip" else {}
    in_alias = set()  # carried arguments of loop results that are aliases live in their aliases' bytes
    for op in fn.walk():
        if isinstance(op, LoopOp):  # carried body arguments live in their results' bytes
            offsets.update({arg: offsets[r] for arg, r in zip(op.carried_args, op.carried) if r in offsets})
            in_alias.update(arg for arg, r in zip(op.carried_args, op.carried) if r in aliases)

    info = analyze_function(fn, io_on_chip=space == "onchip", space=space, aliases=aliases)
    ret = fn.body.block.last_op
    io = set(args) | set(ret.operands if isinstance(ret, func.ReturnOp) else ())
    _check_aliases(info, offsets, where)
    memory = "an on-chip" if space == "onchip" else "an off-chip activation"
    for value, offset in offsets.items():
        if offset != OFF_CHIP and value not in info.tensor_of and value not in aliases and value not in in_alias:
            raise PassFailedException(f"{describe(value)} has offset {offset} but is not {memory} tensor")
    for value in info.tensor_of:
        if value not in io and offsets.get(value, OFF_CHIP) == OFF_CHIP:
            raise PassFailedException(f"{describe(value)} has no planned offset: plan the function first")

    by_id = {t.id: offsets[v] for v, t in info.tensor_of.items() if offsets.get(v, OFF_CHIP) != OFF_CHIP}
    if space == "onchip":
        by_id.update(_scratch_offsets(fn, info))
    buffers = [b for b in timeline(info.tree, "exact") if b.id in by_id]
    try:
        verify_plan(buffers, by_id, arena_size)
    except PlanError as err:
        which = "plan" if space == "onchip" else "off-chip plan"
        raise PassFailedException(f"{where}: the stored {which} is wrong: {err}") from None


def _scratch_offsets(fn: func.FuncOp, info: FunctionLiveness) -> dict[str, int]:
    """The stored scratch offset of each op that needs scratch, by its scratch tensor's id."""
    found: dict[str, int] = {}
    for op in fn.walk():
        attr = op.attributes.get(SCRATCH_ATTR)
        scratch = info.scratch_of.get(op)
        if attr is None and scratch is None:
            continue
        where = f"'{op.name}' {op_position(op)}"
        if scratch is None:
            raise PassFailedException(f"{where} has {SCRATCH_ATTR} but its kernel needs no scratch")
        if attr is None:
            raise PassFailedException(f"{where} has no {SCRATCH_ATTR} for its {scratch.size} bytes of kernel scratch: plan the function again")
        if not isinstance(attr, IntegerAttr) or attr.value.data < 0:
            raise PassFailedException(f"{where} has {SCRATCH_ATTR} {attr}, not a non-negative integer")
        found[scratch.id] = attr.value.data
    return found


def declared_aliases(fn: func.FuncOp) -> Aliases:
    """The aliases ``fn``'s stored plan declares, if they are exactly the ones its alias kinds allow."""
    where = f"function @{fn.sym_name.data}"
    kinds_attr = fn.attributes.get(ALIAS_KINDS_ATTR)
    if kinds_attr is not None and not isinstance(kinds_attr, StringAttr):
        raise PassFailedException(f"{where} has {ALIAS_KINDS_ATTR} {kinds_attr}, not a string of alias kinds")
    kinds = [k for k in kinds_attr.data.split(",") if k] if kinds_attr else []
    try:
        allowed = find_aliases(fn, kinds) if kinds else {}
    except ValueError as err:
        raise PassFailedException(f"{where} has a bad {ALIAS_KINDS_ATTR}: {err}") from None
    for op in fn.walk():
        if ALIAS_ATTR in op.attributes and (not op.results or op.results[0] not in allowed):
            raise PassFailedException(
                f"{where}: the stored plan is wrong: '{op.name}' {op_position(op)} declares an alias of"
                f" {op.attributes[ALIAS_ATTR]} that is not allowed (alias kinds: {','.join(kinds) or 'none'}):"
                " its result needs bytes of its own"
            )
    for value in allowed:
        if ALIAS_ATTR not in value.owner.attributes:
            raise PassFailedException(
                f"{where}: {describe(value)} {op_position(value.owner)} is an alias but has no {ALIAS_ATTR}:"
                " plan the function again"
            )
    return allowed


def _check_aliases(info: FunctionLiveness, offsets: dict[SSAValue, int], where: str) -> None:
    """Each alias names its root and lies at its place inside the root's bytes."""
    for value, (root, delta) in info.aliases.items():
        what = f"{where}: the stored plan is wrong: {describe(value)} {op_position(value.owner)}"
        root_id = info.tensor_of[root].id
        declared = value.owner.attributes[ALIAS_ATTR]
        if declared != StringAttr(root_id):
            raise PassFailedException(f"{what} declares an alias of {declared}, but its root is \"{root_id}\"")
        at, base = offsets.get(value, OFF_CHIP), offsets.get(root, OFF_CHIP)
        inside = base <= at and at + tensor_bytes(value.type) <= base + tensor_bytes(root.type)
        if base == OFF_CHIP or at != base + delta or not inside:
            raise PassFailedException(
                f"{what} has offset {at} but as an alias of \"{root_id}\" at byte {delta} it must be at"
                f" {base + delta} (inside its root's bytes)"
            )
