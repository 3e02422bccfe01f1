"""``nn-plan-memory``: give every on-chip tensor an offset in one arena per function.

Liveness gives the region tree; cfmem.planning.control_flow plans it under the
chosen control-flow mode and strategy and verifies the plan under path-exact
conflicts. The result is stored as attributes, so it survives printing and
parsing and later passes can run in a separate ``xdsl-opt`` call:

- ``cfmem.offsets = array<i64: ...>`` on each op, one byte offset per result
  (-1 for a result that is not planned on chip);
- ``cfmem.arg_offsets`` on the function when arguments are planned
  (``io-on-chip``);
- ``cfmem.block = array<i64: offset, size>`` on each ``nn.if`` and ``nn.loop`` in hoist mode;
- ``cfmem.slot_offsets = array<i64: iteration, condition>`` on each ``nn.loop``:
  where its body's iteration number and condition live (-1 when they need no
  bytes); its carried body arguments live in the bytes of its results;
- ``cfmem.scratch_offset`` on each op whose kernel needs scratch
  (``cfmem.dialects.scratch``): where its scratch bytes start;
- ``cfmem.arena_size``, ``cfmem.lower_bound``, ``cfmem.plan`` on the function.

Results placed off chip (``cfmem.offchip``, see cfmem.passes.placement) are
planned the same way in a second arena: ``cfmem.offchip_offsets`` on their
ops, ``cfmem.offchip_arena_size`` and ``cfmem.offchip_lower_bound`` on the
function. The on-chip budget is the ``budget`` option or, when absent, the
function's ``cfmem.onchip_budget``.

With aliases (``cfmem.passes.aliases``, on chip only): ``cfmem.alias =
"<root tensor>"`` on each op whose result is an alias (its offset is the
root's plus the alias's byte offset), and ``cfmem.aliases = "<kinds>"`` on the
function. Aliasing never makes the plan worse: when the plan with every alias
kind needs more bytes than the plan without aliases, the kinds that never
lengthen a lifetime are tried, then none, and the smallest plan is kept.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, ModuleOp, StringAttr, i64
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass

from cfmem.dialects.nn_control import LoopOp
from cfmem.passes.aliases import ALIAS_KINDS, SAFE_KINDS, find_aliases
from cfmem.passes.failures import OpFailure
from cfmem.passes.liveness import FunctionLiveness, analyze_function, functions
from cfmem.passes.options import checked_options
from cfmem.dialects.flat_form import BUDGET_ATTR
from cfmem.passes.placement import function_int
from cfmem.planning.control_flow import MODES, TreePlan, plan_smallest, plan_tree
from cfmem.planning.option_checks import (
    I64_MAX,
    check_align,
    check_beam_width,
    check_budget,
    check_choice,
    check_time_limit,
)
from cfmem.planning.problem import PlanOptions
from cfmem.planning.regions import RegionTree, peak_path
from cfmem.planning.strategies import STRATEGY_NAMES

OFFSETS_ATTR = "cfmem.offsets"
ARG_OFFSETS_ATTR = "cfmem.arg_offsets"
BLOCK_ATTR = "cfmem.block"
SLOT_OFFSETS_ATTR = "cfmem.slot_offsets"
ARENA_ATTR = "cfmem.arena_size"
BOUND_ATTR = "cfmem.lower_bound"
PLAN_ATTR = "cfmem.plan"
ALIAS_ATTR = "cfmem.alias"
ALIAS_KINDS_ATTR = "cfmem.aliases"
SCRATCH_ATTR = "cfmem.scratch_offset"
OFFCHIP_OFFSETS_ATTR = "cfmem.offchip_offsets"
OFFCHIP_ARENA_ATTR = "cfmem.offchip_arena_size"
OFFCHIP_BOUND_ATTR = "cfmem.offchip_lower_bound"


def plan_function(
    fn: func.FuncOp,
    mode: str = "exact",
    strategy: str = "auto",
    align: int = 16,
    options: PlanOptions | None = None,
    io_on_chip: bool = False,
    space: str = "onchip",
    aliases: bool = True,
) -> tuple[FunctionLiveness, TreePlan]:
    """Liveness and a verified plan for ``fn``'s tensors in ``space`` (the IR is not changed).

    With ``aliases`` (on chip only), the smallest of the plans with all alias
    kinds, with the safe kinds and with none (in that order of preference on
    ties); the liveness's ``kinds`` says which was kept. Kinds whose lower
    bound is above the plain plan's peak could not be kept and are not planned.
    """
    plain = analyze_function(fn, io_on_chip, space)
    if not aliases or space != "onchip":
        return plain, plan_tree(plain.tree, mode, strategy, options, align)
    infos = [plain]
    kept, plan = plan_smallest(plain.tree, _trees(aliased_liveness(fn, io_on_chip, space), infos), mode, strategy, options, align)
    return infos[kept], plan


def aliased_liveness(fn: func.FuncOp, io_on_chip: bool = False, space: str = "onchip") -> Iterator[FunctionLiveness]:
    """The liveness of ``fn`` with every alias kind, then with the safe kinds (those that
    find any aliases), made as they are asked for."""
    for kinds in (ALIAS_KINDS, SAFE_KINDS):
        alias_map = find_aliases(fn, kinds)
        if alias_map:
            info = analyze_function(fn, io_on_chip, space, alias_map)
            info.kinds = kinds
            yield info


def _trees(infos: Iterable[FunctionLiveness], seen: list[FunctionLiveness]) -> Iterator[RegionTree]:
    """The trees of ``infos``, each info appended to ``seen`` as its tree is taken."""
    for info in infos:
        seen.append(info)
        yield info.tree


def refuse_over_budget(fn: func.FuncOp, tree: RegionTree, plan: TreePlan, budget: int | None, memory: str) -> None:
    """Fail, naming the path where the lower bound is reached, when ``plan`` needs more than
    ``budget`` bytes (None: no budget) of ``memory``, or more than the i64 attributes the
    plan is written in hold."""
    if plan.peak > I64_MAX:
        raise OpFailure(
            fn, f"function @{fn.sym_name.data} needs {plan.peak} bytes of {memory},"
            f" more than the i64 of {ARENA_ATTR} holds ({I64_MAX})",
        )  # fmt: skip
    if budget is not None and plan.peak > budget:
        _, where = peak_path(tree)
        raise OpFailure(fn,
            f"function @{fn.sym_name.data} needs {plan.peak} bytes of {memory}"
            f" (lower bound {plan.lower_bound}, reached at {where}) but the budget is {budget}"
        )


def annotate_offchip(fn: func.FuncOp, info: FunctionLiveness, plan: TreePlan) -> None:
    """Write the off-chip arena's ``plan`` onto ``fn`` (no attributes when it is empty)."""
    for op in fn.walk():
        if op is not fn and any(r in info.tensor_of for r in op.results):
            op.attributes[OFFCHIP_OFFSETS_ATTR] = DenseArrayBase.from_list(
                i64, [plan.offsets[info.tensor_of[r].id] if r in info.tensor_of else -1 for r in op.results]
            )
    if info.tensor_of:
        fn.attributes[OFFCHIP_ARENA_ATTR] = IntegerAttr(plan.peak, i64)
        fn.attributes[OFFCHIP_BOUND_ATTR] = IntegerAttr(plan.lower_bound, i64)


def annotate(fn: func.FuncOp, info: FunctionLiveness, plan: TreePlan) -> None:
    """Write ``plan`` onto ``fn`` as the attributes described above."""

    def offset(value: SSAValue) -> int:
        if value in info.aliases:
            root, delta = info.aliases[value]
            return plan.offsets[info.tensor_of[root].id] + delta
        return plan.offsets[info.tensor_of[value].id] if value in info.tensor_of else -1

    def offsets_of(values: list[SSAValue]) -> DenseArrayBase:
        return DenseArrayBase.from_list(i64, [offset(v) for v in values])

    for op in fn.walk():
        if op is not fn and any(r in info.tensor_of or r in info.aliases for r in op.results):
            op.attributes[OFFSETS_ATTR] = offsets_of(list(op.results))
        if op is not fn and op.results and op.results[0] in info.aliases:
            op.attributes[ALIAS_ATTR] = StringAttr(info.tensor_of[info.aliases[op.results[0]][0]].id)
        if op in info.scratch_of:
            op.attributes[SCRATCH_ATTR] = IntegerAttr(plan.offsets[info.scratch_of[op].id], i64)
        elif SCRATCH_ATTR in op.attributes:
            del op.attributes[SCRATCH_ATTR]  # planned before, with scratch it no longer needs
    for if_op, node in info.if_node_of.items():
        if node.id in plan.blocks:
            if_op.attributes[BLOCK_ATTR] = DenseArrayBase.from_list(i64, list(plan.blocks[node.id]))
        if isinstance(if_op, LoopOp):
            if_op.attributes[SLOT_OFFSETS_ATTR] = offsets_of([if_op.iteration_arg, if_op.cond_arg])
    args = list(fn.body.block.args)
    if any(a in info.tensor_of for a in args):
        fn.attributes[ARG_OFFSETS_ATTR] = offsets_of(args)
    fn.attributes[ARENA_ATTR] = IntegerAttr(plan.peak, i64)
    fn.attributes[BOUND_ATTR] = IntegerAttr(plan.lower_bound, i64)
    fn.attributes[PLAN_ATTR] = StringAttr(f"{plan.mode}/{plan.strategy}")
    if info.aliases:
        fn.attributes[ALIAS_KINDS_ATTR] = StringAttr(",".join(info.kinds))


def scratch_offset(op: Operation) -> int | None:
    """Where ``nn-plan-memory`` put ``op``'s kernel scratch in the on-chip arena, or None."""
    attr = op.attributes.get(SCRATCH_ATTR)
    return attr.value.data if isinstance(attr, IntegerAttr) else None


def planned_offset(value: SSAValue, attr_name: str = OFFSETS_ATTR) -> int | None:
    """The offset ``nn-plan-memory`` gave ``value`` in the arena whose offsets are
    ``attr_name`` (default: on chip), or None if it is not in that arena."""
    owner = value.owner
    loop = owner.parent_op() if isinstance(owner, Block) else None
    if isinstance(loop, LoopOp):  # a body argument: a slot of the loop's, or a carried result's bytes
        if value.index >= 2:
            return planned_offset(loop.outputs[value.index - 2], attr_name)
        attr, index = (loop.attributes.get(SLOT_OFFSETS_ATTR) if attr_name == OFFSETS_ATTR else None), value.index
    elif isinstance(owner, Operation):
        attr, index = owner.attributes.get(attr_name), value.index
    else:
        fn = owner.parent_op()
        on_chip = attr_name == OFFSETS_ATTR
        attr, index = (fn.attributes.get(ARG_OFFSETS_ATTR) if fn and on_chip else None), value.index
    if not isinstance(attr, DenseArrayBase):
        return None
    offset = int(attr.get_values()[index])
    return None if offset < 0 else offset


@dataclass(frozen=True)
class PlanMemoryPass(ModulePass):
    """Plans on-chip memory for every function.

    Options: ``mode`` (naive, conservative, linearize, hoist, exact),
    ``strategy`` (sequential, large-first, short-first, best-fit, tflm, by-size, beam, auto,
    search), ``align`` (bytes), ``time-limit`` (seconds for search),
    ``beam-width``, ``budget`` (bytes of arena at most; absent = no budget),
    ``io-on-chip``, ``aliases`` (default true: reshapes, slices, in-place
    elementwise ops, concat inputs and yielded values share bytes; false
    plans every tensor on bytes of its own).
    """

    name = "nn-plan-memory"
    mode: str = "exact"
    strategy: str = "auto"
    align: int = 16
    time_limit: float | int = 10.0
    beam_width: int = 8
    budget: int | None = None
    io_on_chip: bool = False
    aliases: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        with checked_options():
            check_choice("mode", self.mode, MODES)
            check_choice("strategy", self.strategy, STRATEGY_NAMES)
            check_align("align", self.align)
            check_time_limit("time-limit", self.time_limit)
            check_beam_width("beam-width", self.beam_width)
            check_budget("budget", self.budget)
        options = PlanOptions(time_limit=self.time_limit, beam_width=self.beam_width)
        for fn in functions(op):
            info, plan = plan_function(
                fn, self.mode, self.strategy, self.align, options, self.io_on_chip, aliases=self.aliases
            )
            budget = self.budget if self.budget is not None else function_int(fn, BUDGET_ATTR)
            refuse_over_budget(fn, info.tree, plan, budget, "on-chip memory")
            annotate(fn, info, plan)
            offchip_info, offchip_plan = plan_function(fn, self.mode, self.strategy, self.align, options, space="offchip")
            refuse_over_budget(fn, offchip_info.tree, offchip_plan, None, "off-chip memory")
            annotate_offchip(fn, offchip_info, offchip_plan)
