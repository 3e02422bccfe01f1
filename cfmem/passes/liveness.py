"""Use-def liveness over nested regions, and the ``nn-liveness`` pass.

Conventions (see cfmem.planning.regions): each block numbers its ops from 0,
terminator included; a tensor lives on ``[step of its def, step of its last
use]`` in its own block, where a use nested in an ``nn.if`` counts at the
step of the enclosing op in the tensor's block. Weights (``nn.get_global``,
``nn.view``), constants and reshapes of them are read-only off-chip data and
are not planned; so, by default, are the function's arguments and returned
values (the model's inputs and outputs), except an ``nn.loop``'s results, which
the loop builds on chip iteration by iteration. ``nn.dma_buffer`` results are planned
like any tensor and stay live while the weights DMA'd into them are read; the
buffer of resident weights (``cfmem.resident``) stays live for the whole
function. Results of ops placed off chip (``cfmem.offchip``) are planned in a
second tree, the off-chip activation arena's (``analyze_function(...,
space="offchip")``).

An ``nn.loop``'s body is a region like a branch (cfmem.planning.regions):
its tensors live within one iteration. What crosses iterations lives in the
parent at the loop's step: each carried value in its result's bytes (the
body's argument is the result's tensor; the loop copies the initial value in
before the first iteration and the yielded value in at the end of each), the
condition in a slot of its own (only for a loop that tests one, or whose
body reads it) and the iteration number (only when the body reads it).

Given aliases (``cfmem.passes.aliases``), an alias is no tensor of its own: its
root lives from the first definition to the last use of any value of its group,
each counted in the root's block.

A compute op whose kernel needs scratch (``cfmem.dialects.scratch``) gets an on-chip
tensor of those bytes, ``<result>#scratch``, live at the op's step only: beside the
op's operands and its result. A reshape or slice alias, lowered as a view, runs no
kernel and needs none.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import DenseArrayBase, ModuleOp, TensorType, i64
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass

from cfmem.dialects.nn_compute import ComputeOp, ConstantOp, SliceOp
from cfmem.dialects.nn_control import REGION_OPS, IfOp, LoopOp
from cfmem.dialects.nn_dma import DmaStartOp, DmaWaitOp
from cfmem.dialects.nn_weights import GetGlobalOp, ReshapeOp, ViewOp
from cfmem.dialects.scratch import scratch_bytes
from cfmem.dialects.types import tensor_bytes
from cfmem.passes.failures import OpFailure
from cfmem.passes.names import ValueNames
from cfmem.passes.placement import is_offchip_activation, is_resident
from cfmem.planning.regions import Alias, IfNode, RegionTree, Tensor

LIVE_ATTR = "cfmem.live"


_READ_ONLY_SOURCES = frozenset({GetGlobalOp, ViewOp, ConstantOp})
_WEIGHT_SOURCES = frozenset({GetGlobalOp, ViewOp})
"""Op classes, compared by exact type: the search calls these predicates millions of times,
and ``isinstance`` against xDSL's ABC-based op classes is slow when it fails (none of these
classes has a subclass)."""


def _source(value: SSAValue) -> type:
    """The class of the op ``value`` reaches through ``nn.reshape``s (a block argument's class
    when it reaches one)."""
    op = value.owner
    while type(op) is ReshapeOp:
        op = op.input.owner
    return type(op)


def is_read_only(value: SSAValue) -> bool:
    """Weights, constants and reshapes of them: never copied on chip here."""
    return _source(value) in _READ_ONLY_SOURCES


def is_weight(value: SSAValue) -> bool:
    """Read-only data that lives in off-chip memory (constants stay in the IR)."""
    return _source(value) in _WEIGHT_SOURCES


def memory_readers(value: SSAValue) -> list[Operation]:
    """Ops that use ``value`` or memory aliasing it.

    The results of ``nn.dma_wait`` live inside the buffer their transfer
    wrote, so their uses keep that buffer live; a transfer reads its sources
    (an activation prefetched from off chip) until its wait.
    """
    readers: list[Operation] = []
    for use in value.uses:
        readers.append(use.operation)
        start = use.operation
        if isinstance(start, DmaStartOp) and start.buffer is value:
            for token_use in start.token.uses:
                wait = token_use.operation
                readers.append(wait)
                for result in wait.results:  # an evicted copy may itself be the source of a prefetch
                    readers.extend(memory_readers(result))
        elif isinstance(start, DmaStartOp):  # a transfer reads its sources until its wait
            readers.extend(u.operation for u in start.token.uses)
    return readers


@dataclass
class FunctionLiveness:
    """Liveness of one function: its region tree and how IR maps onto it."""

    tree: RegionTree
    tensor_of: dict[SSAValue, Tensor] = field(default_factory=dict)
    region_of: dict[Block, RegionTree] = field(default_factory=dict)
    if_node_of: dict[IfOp | LoopOp, IfNode] = field(default_factory=dict)
    """Each nn.if and nn.loop and its node of the tree."""
    aliases: dict[SSAValue, tuple[SSAValue, int]] = field(default_factory=dict)
    """Alias -> (root, byte offset); roots are in ``tensor_of``, aliases are not."""
    kinds: tuple[str, ...] = ()
    """The alias kinds ``aliases`` was found with (see ``cfmem.passes.aliases``)."""
    scratch_of: dict[Operation, Tensor] = field(default_factory=dict)
    """Each op whose kernel needs scratch, and the tensor of its scratch (on chip only)."""


SPACES = ("onchip", "offchip")


class _Analysis:
    def __init__(
        self, fn: func.FuncOp, io_on_chip: bool, space: str, aliases: dict[SSAValue, tuple[SSAValue, int]]
    ):
        self.space = space
        self.tensor_of: dict[SSAValue, Tensor] = {}
        self.region_of: dict[Block, RegionTree] = {}
        self.if_node_of: dict[IfOp | LoopOp, IfNode] = {}
        self.io_on_chip = io_on_chip
        self.outputs = set(fn.body.block.last_op.operands)  # func.return's
        self.step: dict[Operation, int] = {}
        self.unique_id = ValueNames(scope=fn)  # ids of the IR alone: every analysis of fn agrees
        self.scratch_of: dict[Operation, Tensor] = {}
        self.next_if = 0
        self.labels = {"if": 0, "loop": 0}
        self.aliases = aliases
        self.members: dict[SSAValue, list[SSAValue]] = {}
        for value, (root, _) in aliases.items():
            self.members.setdefault(root, []).append(value)

    def planned(self, value: SSAValue) -> bool:
        if not isinstance(value.type, TensorType):
            return False  # DMA tokens
        if is_read_only(value) or isinstance(value.owner, DmaWaitOp):
            return False
        if not self.io_on_chip and is_function_arg(value):
            return False
        if not self.io_on_chip and value in self.outputs and not isinstance(value.owner, LoopOp):
            return False  # a loop's results are built on chip, iteration by iteration
        return is_offchip_activation(value) == (self.space == "offchip")

    def step_in(self, op: Operation, block: Block) -> int:
        """The step of ``op``, or of the op of ``block`` that holds it."""
        inner: Operation | None = op
        while inner is not None and inner.parent_block() is not block:
            inner = inner.parent_op()
        assert inner is not None  # SSA dominance and aliases: nested in the root's block
        return self.step[inner]

    def last_use(self, value: SSAValue, block: Block, start: int) -> int:
        return max([start, *(self.step_in(reader, block) for reader in memory_readers(value))])

    def lifetime(self, value: SSAValue, block: Block, start: int) -> tuple[int, int]:
        """``[start, end]`` of ``value`` with all its aliases, in ``block``."""
        end = self.last_use(value, block, start)
        for member in self.members.get(value, ()):
            defined = self.step_in(member.owner, block)
            start, end = min(start, defined), max(end, self.last_use(member, block, defined))
        return start, end

    def region(self, block: Block) -> RegionTree:
        ops = list(block.ops)
        for k, op in enumerate(ops):
            self.step[op] = k
        tree = RegionTree(len(ops))
        self.region_of[block] = tree
        if isinstance(block.parent_op(), func.FuncOp):
            self.add_tensors(tree, block, block.args, 0)
        for k, op in enumerate(ops):
            refuse_foreign_region(op)
            if isinstance(op, REGION_OPS):
                if_id = self.next_if  # numbered in walk order: an if before the ifs inside it
                self.next_if += 1
                kind = "loop" if isinstance(op, LoopOp) else "if"
                label = f"{kind}#{self.labels[kind]}"
                self.labels[kind] += 1
                node = IfNode(if_id, k, [self.region(r.block) for r in op.branches], kind, label)
                self.if_node_of[op] = node
                tree.ifs.append(node)
            self.add_tensors(tree, block, op.results, k)
            if isinstance(op, LoopOp):
                self.add_loop_slots(tree, op, k)
            elif self.space == "onchip":
                self.add_scratch(tree, op, k)
        return tree

    def add_scratch(self, tree: RegionTree, op: Operation, step: int) -> None:
        """The tensor of ``op``'s kernel scratch, live at its step only (see the module docstring)."""
        if not isinstance(op, ComputeOp | ReshapeOp) or is_read_only(op.results[0]):
            return
        if isinstance(op, ReshapeOp | SliceOp) and op.results[0] in self.aliases:
            return  # a view of its source's bytes
        size = scratch_bytes(op)
        if size:
            t = Tensor(scratch_id(self.unique_id(op.results[0])), size, step, step)
            tree.tensors.append(t)
            self.scratch_of[op] = t

    def add_loop_slots(self, tree: RegionTree, op: LoopOp, step: int) -> None:
        """The parent's tensors of what crosses ``op``'s iterations (see the module docstring)."""
        for arg, result in zip(op.carried_args, op.carried):
            if result in self.tensor_of:
                self.tensor_of[arg] = self.tensor_of[result]
        if self.space != "onchip":
            return
        for value in loop_slots(op):
            t = Tensor(self.unique_id(value), tensor_bytes(value.type), step, step)
            tree.tensors.append(t)
            self.tensor_of[value] = t

    def add_tensors(self, tree: RegionTree, block: Block, values, start: int) -> None:
        for value in values:
            if self.planned(value) and value not in self.aliases:
                first, end = self.lifetime(value, block, start)
                if isinstance(value.owner, Operation) and is_resident(value.owner):
                    end = len(block.ops) - 1  # kept for the whole function
                t = Tensor(self.unique_id(value), tensor_bytes(value.type), first, end)
                tree.tensors.append(t)
                self.tensor_of[value] = t


def scratch_id(result_id: str) -> str:
    """The id of the scratch tensor of the op whose result has id ``result_id`` (``#`` is in
    no value's id)."""
    return f"{result_id}#scratch"


def loop_slots(op: LoopOp) -> list[SSAValue]:
    """The body arguments of ``op`` that get bytes of their own in the parent: the
    iteration number when the body reads it, the condition when the loop tests it."""
    slots = [op.iteration_arg] if op.iteration_arg.uses else []
    read = any(use.operation is not op.yield_op for use in op.cond_arg.uses)
    if not op.is_counted() or read:
        slots.append(op.cond_arg)
    return slots


def is_function_arg(value: SSAValue) -> bool:
    owner = value.owner
    return isinstance(owner, Block) and isinstance(owner.parent_op(), func.FuncOp)


def op_position(op: Operation) -> str:
    """Where ``op`` is, for messages: ``defining %r in @main`` or ``after %y in @main``."""
    fn = op.parent_op()
    while fn is not None and not isinstance(fn, func.FuncOp):
        fn = fn.parent_op()
    where = f"in @{fn.sym_name.data}" if fn is not None else "outside any function"
    if op.results and op.results[0].name_hint:
        return f"defining %{op.results[0].name_hint} {where}"
    before = op.prev_op
    while before is not None and not (before.results and before.results[0].name_hint):
        before = before.prev_op
    return f"after %{before.results[0].name_hint} {where}" if before is not None else f"{where}"


def analyze_function(
    fn: func.FuncOp,
    io_on_chip: bool = False,
    space: str = "onchip",
    aliases: dict[SSAValue, tuple[SSAValue, int]] | None = None,
) -> FunctionLiveness:
    """Liveness of ``fn``'s tensors in memory ``space`` (``onchip`` or ``offchip``, see
    ``SPACES``); ``io_on_chip`` also plans its arguments and results on chip;
    ``aliases`` (alias -> (root, byte offset), all in ``space``) merges each alias into its root.

    Raises ``PassFailedException`` at an op with regions other than ``nn.if`` and
    ``nn.loop`` (e.g. an upstream ``scf.if``): the tensors inside it would go unplanned.
    """
    aliases = aliases or {}
    analysis = _Analysis(fn, io_on_chip, space, aliases)
    tree = analysis.region(fn.body.block)
    for value, (root, offset) in aliases.items():
        alias = Alias(analysis.unique_id(value), analysis.tensor_of[root].id, offset, tensor_bytes(value.type))
        tree.aliases.append(alias)
    return FunctionLiveness(
        tree, analysis.tensor_of, analysis.region_of, analysis.if_node_of, aliases, scratch_of=analysis.scratch_of
    )


def functions(module: ModuleOp) -> list[func.FuncOp]:
    """The functions of ``module`` with a body, in pre-order. A function's body is not
    searched (functions do not nest), so the cost does not grow with the functions' size."""
    found: list[func.FuncOp] = []

    def visit(op: Operation) -> None:
        for region in op.regions:
            for block in region.blocks:
                for inner in block.ops:
                    if isinstance(inner, func.FuncOp):
                        if inner.body.blocks:
                            found.append(inner)
                    else:
                        visit(inner)

    visit(module)
    return found


@dataclass(frozen=True)
class LivenessPass(ModulePass):
    """Annotates each op with ``cfmem.live = array<i64: start, end, ...>``:
    the closed step interval of each of its planned results, in its block."""

    name = "nn-liveness"
    io_on_chip: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in functions(op):
            info = analyze_function(fn, self.io_on_chip)
            for inner in fn.walk():
                tensors = [info.tensor_of.get(r) for r in inner.results]
                if any(tensors):
                    pairs = [x for t in tensors for x in ((t.start, t.end) if t else (-1, -1))]
                    inner.attributes[LIVE_ATTR] = DenseArrayBase.from_list(i64, pairs)


def refuse_foreign_region(op: Operation) -> None:
    """Fail on an op with regions other than nn.if and nn.loop: cfmem cannot see into its control flow."""
    if op.regions and not isinstance(op, REGION_OPS):
        raise OpFailure(op,
            f"'{op.name}' {op_position(op)}: only nn.if and nn.loop regions can be planned"
            " (write this control flow as nn.if or nn.loop)"
        )
