"""``memref-plan-arena``: plan a bufferized upstream-MLIR module's allocations into one byte arena.

For every function with a body, the allocations (``memref.alloc``,
``memref.alloca``) and their live ranges come from
``cfmem.passes.memref_liveness``, through views, region yields and loop-carried
values, across ``scf.if``, ``scf.for`` and ``scf.while``. ``cfmem.planning``
plans them under a control-flow mode (``exact`` by default: two buffers share
bytes unless some execution has both live; a loop's iteration reuses its bytes).
Then each allocation becomes ``memref.view %arena[%offset][sizes]`` of one i8
arena (an allocation of dynamic size keeps its sizes and is given the bytes of
their upper bounds) and every ``memref.dealloc`` of a planned buffer is erased.

The arena is a ``memref.global "private" @arena_<fn> : memref<Nxi8>`` read with
``memref.get_global`` at the function's entry (``arena=global``, the default),
or a new last argument of the function, marked ``{cfmem.arena}``
(``arena=argument``). With ``arena=argument`` functions are planned callees
first, and each ``func.call`` of a function given an arena passes a new
allocation of that size, which the caller then plans with its own buffers: a
callee's bytes are shared with every caller buffer not live across the call.
A function that may call itself is refused (its buffers cannot have fixed
addresses). A buffer passed to a call is planned when the callee only reads and
writes it during the call (see memref_liveness). The function records
``cfmem.arena_size``, ``cfmem.lower_bound`` and ``cfmem.plan``. What cannot be
proven safe is refused with a one-line error (see memref_liveness).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    UnitAttr,
    i1,
    i8,
    i64,
)
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import SymbolTable

from cfmem.passes.call_graph import callee_first, callees, reaching
from cfmem.passes.failures import OpFailure
from cfmem.passes.liveness import functions, op_position
from cfmem.passes.memref_flow import ALLOCATIONS, PLANNED_REGIONS
from cfmem.passes.memref_liveness import ARENA_PARAMETER, AllocationLiveness, analyze_allocations
from cfmem.passes.options import checked_options
from cfmem.passes.plan_memory import ARENA_ATTR, BOUND_ATTR, PLAN_ATTR, refuse_over_budget
from cfmem.planning.control_flow import MODES, TreePlan, plan_tree
from cfmem.planning.option_checks import (
    check_budget,
    check_choice,
    check_index_bitwidth,
    check_power_of_two_align,
    check_time_limit,
)
from cfmem.planning.problem import PlanOptions
from cfmem.planning.strategies import STRATEGY_NAMES

ARENA_SOURCES = ("global", "argument")


@dataclass(frozen=True)
class PlanArenaPass(ModulePass):
    """Plans every function's allocations into one i8 arena and rewrites them as views of it.

    Options: ``mode`` (naive, conservative, linearize, hoist, exact), ``strategy``
    (as ``nn-plan-memory``), ``align`` (bytes; an allocation's own ``alignment``
    is kept when larger), ``budget`` (bytes of arena at most; absent = none),
    ``arena`` (``global`` or ``argument``: where the arena comes from),
    ``time-limit`` (seconds, for ``search``), ``index-bitwidth`` (bits of an ``index``
    element in the arena: 64 as MLIR's LLVM lowering, unless told otherwise).
    """

    name = "memref-plan-arena"
    mode: str = "exact"
    strategy: str = "auto"
    align: int = 16
    budget: int | None = None
    arena: str = "global"
    time_limit: float | int = 10.0
    index_bitwidth: int = 64

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        with checked_options():
            check_choice("mode", self.mode, MODES)
            check_choice("strategy", self.strategy, STRATEGY_NAMES)
            check_choice("arena", self.arena, ARENA_SOURCES)
            check_power_of_two_align("align", self.align)
            check_budget("budget", self.budget)
            check_time_limit("time-limit", self.time_limit)
            check_index_bitwidth("index-bitwidth", self.index_bitwidth)
        allocating = {fn for fn in functions(op) if any(o.name in ALLOCATIONS for o in fn.walk())}
        edges = callees(op)
        calling = reaching(edges, allocating)  # functions whose buffers, or whose callees', get arena bytes
        _refuse_concurrent_calls(op, calling)
        if self.arena == "argument":  # a caller passes its callees' arenas, so it needs one too
            order = callee_first(edges, calling, "its arena would have to hold itself")
        else:
            order = callee_first(edges, allocating, "a recursive function's buffers cannot have fixed addresses")
        arenas: dict[func.FuncOp, tuple[int, int]] = {}  # function given an arena argument -> its size and alignment
        for fn in order:
            _pass_arenas(fn, arenas)
            live = analyze_allocations(fn, self.index_bitwidth)
            if not live.allocation_of:
                continue
            align = max(self.align, live.alignment)
            plan = plan_tree(live.tree, self.mode, self.strategy, PlanOptions(time_limit=self.time_limit), align)
            refuse_over_budget(fn, live.tree, plan, self.budget, "arena")
            if plan.peak >= 1 << 62:  # the arena's size and offsets are index values
                raise OpFailure(fn, f"@{fn.sym_name.data} needs {plan.peak:,} bytes of arena, more than it can address")
            arena = self.arena_of(op, fn, plan.peak, align)
            if self.arena == "argument":
                arenas[fn] = (plan.peak, align)
            rewrite(fn, live, plan, arena)

    def arena_of(self, module: ModuleOp, fn: func.FuncOp, size: int, align: int) -> SSAValue:
        """The arena of ``fn`` (``size`` bytes), made as the ``arena`` option says."""
        ty = MemRefType(i8, [size])
        entry = fn.body.block
        if self.arena == "argument":
            arg = append_argument(fn, ty, {ARENA_PARAMETER: UnitAttr()})
            arg.name_hint = "arena"
            return arg
        taken = {o.sym_name.data for o in module.walk() if isinstance(o, func.FuncOp | memref.GlobalOp)}
        name, k = f"arena_{fn.sym_name.data}", 0
        while name in taken:
            k += 1
            name = f"arena_{fn.sym_name.data}_{k}"
        glob = memref.GlobalOp.get(StringAttr(name), ty, UnitAttr(), StringAttr("private"), alignment=align)
        Rewriter.insert_op(glob, InsertPoint.before(fn))  # in the module that holds fn
        get = memref.GetGlobalOp(name, ty)
        get.memref.name_hint = "arena"
        Rewriter.insert_op(get, InsertPoint.at_start(entry))
        return get.memref


def append_argument(fn: func.FuncOp, ty: Attribute, attributes: dict[str, Attribute] | None = None) -> BlockArgument:
    """A new last argument of ``fn`` of type ``ty`` (its function type and, when given or
    already present, its argument attributes follow)."""
    entry = fn.body.block
    arg = entry.insert_arg(ty, len(entry.args))
    fn.function_type = func.FunctionType.from_lists([*fn.function_type.inputs.data, ty], list(fn.function_type.outputs.data))
    if attributes or fn.arg_attrs is not None:
        before = fn.arg_attrs.data if fn.arg_attrs is not None else [DictionaryAttr({}) for _ in entry.args[:-1]]
        fn.arg_attrs = ArrayAttr([*before, DictionaryAttr(attributes or {})])
    return arg


SEQUENTIAL = (*PLANNED_REGIONS, "scf.execute_region", "scf.index_switch", "affine.for", "affine.if")
"""Region ops that run their regions one at a time: a call inside them runs alone."""


def _refuse_concurrent_calls(module: ModuleOp, planned: set[func.FuncOp]) -> None:
    """Refuse a call of a function of ``planned`` (its buffers, or its callees', get fixed arena
    bytes) inside a region op that may run its iterations at once (``scf.parallel``,
    ``scf.forall``, a linalg body, ...): the calls would share those bytes."""
    for call in module.walk():
        if not (isinstance(call, func.CallOp) and SymbolTable.lookup_symbol(call, call.callee) in planned):
            continue
        holder = call.parent_op()
        while holder is not None and not isinstance(holder, func.FuncOp):
            if holder.name not in SEQUENTIAL:
                raise OpFailure(call,
                    f"'func.call' {op_position(call)} calls @{call.callee.root_reference.data}, whose buffers have"
                    f" fixed bytes in an arena, inside '{holder.name}' {op_position(holder)}: its iterations may run"
                    " at once"
                )
            holder = holder.parent_op()


def _pass_arenas(fn: func.FuncOp, arenas: dict[func.FuncOp, tuple[int, int]]) -> None:
    """Each call in ``fn`` of a function of ``arenas`` passes it a new allocation of its arena's
    size and alignment, freed after the call (``fn``'s own planning then places it). Inside a
    region op the liveness counts as one op (``affine.for``, ...), the allocation is made
    before the outermost such op and freed after it: its runs of the call take turns."""
    for call in [o for o in fn.walk() if isinstance(o, func.CallOp)]:
        callee = SymbolTable.lookup_symbol(call, call.callee)  # the nearest symbol table's, not any of that name
        if callee not in arenas:
            continue
        size, align = arenas[callee]
        alloc = memref.AllocOp.get(i8, align, [size])
        alloc.memref.name_hint = f"arena_{call.callee.root_reference.data}"
        with_arena = func.CallOp(call.callee, [*call.arguments, alloc.memref], [r.type for r in call.results])
        with_arena.attributes.update(call.attributes)
        Rewriter.replace_op(call, with_arena)
        around: Operation = with_arena
        holder = with_arena.parent_op()
        while holder is not None and holder is not fn:
            if holder.name not in PLANNED_REGIONS:
                around = holder
            holder = holder.parent_op()
        Rewriter.insert_op(alloc, InsertPoint.before(around))
        Rewriter.insert_op(memref.DeallocOp.get(alloc.memref), InsertPoint.after(around))


def rewrite(fn: func.FuncOp, live: AllocationLiveness, plan: TreePlan, arena: SSAValue) -> None:
    """Each planned allocation of ``fn`` a view of ``arena`` at its offset; their deallocs erased.

    A buffer with two slots (``live.alternating``) takes the first in even iterations of its
    loop and the second in odd ones (see ``_alternate``)."""
    entry = fn.body.block
    after_arena = arena.owner if isinstance(arena.owner, Operation) else None
    constants: dict[int, SSAValue] = {}

    def index(value: int) -> SSAValue:
        nonlocal after_arena
        if value not in constants:
            constant = arith.ConstantOp(IntegerAttr(value, IndexType()))
            constant.result.name_hint = f"c{value}"
            Rewriter.insert_op(constant, InsertPoint.after(after_arena) if after_arena else InsertPoint.at_start(entry))
            after_arena = constant
            constants[value] = constant.result
        return constants[value]

    parities: dict[Operation, tuple[SSAValue, SSAValue]] = {}  # scf.while -> its flags
    for name, alloc in live.allocation_of.items():
        offset = index(plan.offsets[live.slot_of.get(name, name)])
        if name in live.alternating:
            second, loop = live.alternating[name]
            odd_now = None
            if loop.name == "scf.while":
                if loop not in parities:
                    parities[loop] = _count_parity(loop)
                odd_now = _flag_for(alloc, *parities[loop])
            offset = _alternate(alloc, loop, offset, index(plan.offsets[second]), odd_now)
        ty = alloc.results[0].type
        plain = MemRefType(ty.element_type, ty.shape)  # a view has no layout; an identity strided one is cast on
        view = memref.ViewOp(arena, offset, list(alloc.operands), plain)  # its dynamic sizes
        ops: list[Operation] = [view] if plain == ty else [view, memref.CastOp(operands=[view.result], result_types=[ty])]
        ops[-1].results[0].name_hint = alloc.results[0].name_hint
        Rewriter.replace_op(alloc, ops)
    for op in live.frees:
        Rewriter.erase_op(op)
    fn.attributes[ARENA_ATTR] = IntegerAttr(plan.peak, i64)
    fn.attributes[BOUND_ATTR] = IntegerAttr(plan.lower_bound, i64)
    fn.attributes[PLAN_ATTR] = StringAttr(f"{plan.mode}/{plan.strategy}")


def _alternate(alloc: Operation, loop: Operation, even: SSAValue, odd: SSAValue, odd_now: SSAValue | None) -> SSAValue:
    """The offset ``alloc`` takes in the current iteration of ``loop``: ``even`` or ``odd``,
    chosen right before ``alloc`` by ``odd_now`` (an scf.while's flag, see ``_count_parity``)
    or, in an scf.for, by the parity of ``(iv - lb) / step``."""
    ops: list[Operation] = []
    if odd_now is None:
        lower, _, step = loop.operands[:3]
        iv = loop.regions[0].block.args[0]
        ops = [
            two := arith.ConstantOp(IntegerAttr(2, iv.type)),
            zero := arith.ConstantOp(IntegerAttr(0, iv.type)),
            count := arith.SubiOp(iv, lower),
            trip := arith.DivUIOp(count.result, step),
            parity := arith.RemUIOp(trip.result, two.result),
            is_odd := arith.CmpiOp(parity.result, zero.result, "ne"),
        ]
        odd_now = is_odd.result
    ops.append(chosen := arith.SelectOp(odd_now, odd, even))
    Rewriter.insert_op(ops, InsertPoint.before(alloc))
    return chosen.result


def _count_parity(loop: Operation) -> tuple[SSAValue, SSAValue]:
    """Thread an ``i1`` through ``loop`` (an scf.while), false in its first iteration and
    flipped at the end of each: its before and after blocks' new last arguments."""
    before, after = (r.block for r in loop.regions)
    false, true = arith.ConstantOp(IntegerAttr(0, i1)), arith.ConstantOp(IntegerAttr(1, i1))
    Rewriter.insert_op([false, true], InsertPoint.before(loop))
    in_before = before.insert_arg(i1, len(before.args))
    in_after = after.insert_arg(i1, len(after.args))
    condition = before.last_op
    Rewriter.replace_op(condition, scf.ConditionOp(condition.operands[0], *condition.operands[1:], in_before))
    flip = arith.XOrIOp(in_after, true.result)
    ending = after.last_op
    Rewriter.insert_op(flip, InsertPoint.before(ending))
    Rewriter.replace_op(ending, scf.YieldOp(*ending.operands, flip.result))
    rebuilt = scf.WhileOp(
        [*loop.operands, false.result],
        [*(r.type for r in loop.results), i1],
        loop.detach_region(loop.regions[0]),
        loop.detach_region(loop.regions[0]),
    )
    Rewriter.replace_op(loop, rebuilt, [*rebuilt.results[:-1]])
    return in_before, in_after


def _flag_for(alloc: Operation, in_before: SSAValue, in_after: SSAValue) -> SSAValue:
    """The parity flag of the while block that holds ``alloc``: its before or its after block's."""
    block = alloc.parent_block()
    while block is not None and block not in (in_before.owner, in_after.owner):
        holder = block.parent_op()
        block = holder.parent_block() if holder is not None else None
    assert block is not None  # the loop carries it, so it holds it
    return in_before if block is in_before.owner else in_after
