"""Liveness of the allocations of a bufferized upstream-MLIR function (for ``memref-plan-arena``).

Input: a ``func.func`` whose buffers come from ``memref.alloc`` / ``memref.alloca``
of static shape and identity layout in the default memory space, with control flow
in ``scf.if``, ``scf.for`` and ``scf.while``. Each allocation is a *root*. Its
*aliases* are the values that may point into its bytes: results of view-like ops
(``memref.subview``, ``memref.cast``, reshapes, ...) and values that flow through
``scf.yield`` / ``scf.condition`` into region results and block arguments.

Regions (see cfmem.planning.regions) are the function body, each branch of an
``scf.if`` and each loop's iteration: ``scf.for``'s body, and ``scf.while``'s
before block followed by its after block. Ops are numbered per region. A root
lives in its *home* region, the innermost one that holds its definition and every
use of it and of its aliases, from the step of the op there that holds its
definition to the step of the op that holds its last use (a ``memref.dealloc``
is no use; a ``memref.load`` in a linalg op's body is a use by the linalg op).
So a buffer built in a branch and yielded out lives in the parent from the if's
step on, and a buffer used within one iteration has its bytes reused by every
iteration. Any other region op (a linalg op, ``affine.for``, ``scf.parallel``, ...) is one
step, the uses inside it counted there, provided no buffer is made, freed or
handed on inside it (refused otherwise).

An allocation of dynamic size takes the bytes of its largest size: each dynamic
size must have an upper bound that ``cfmem.passes.index_bounds`` can see (a
constant, a clamp such as ``arith.minui %n, %c64``, a loop's induction variable).

Refused, with one line naming the op: an allocation with a dynamic size without
such a bound, a layout or a memory space, or of elements without a byte size; an allocation
that escapes (returned, stored into memory, or used by an op whose aliasing is not known here, such
as a call to a function that may keep a pointer to it). Where buffer addresses flow is checked by cfmem.passes.memref_addresses:
the calls it sees through (the deallocation pipeline's helper) keep no pointer.

A buffer allocated in a loop and carried into its next iteration (as bufferized
``iter_args`` are) gets two slots that even and odd iterations take in turn:
iteration k writes one while it reads iteration k-1's in the other, so both are held for
the whole iteration (or the loop's step, when the buffer outlives the loop). That is
refused when two slots are not enough or cannot be told apart: from an inner
loop, carried in two positions, or together with a value the iteration received
(a block argument of the loop's).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import func
from xdsl.dialects.builtin import IndexType, MemRefType, NoneAttr, StridedLayoutAttr
from xdsl.ir import Operation, SSAValue
from xdsl.traits import SymbolTable

from cfmem.dialects.shapes import row_major_strides
from cfmem.dialects.types import element_bytes
from cfmem.passes.failures import OpFailure
from cfmem.passes.index_bounds import IndexBounds
from cfmem.passes.liveness import op_position
from cfmem.passes.memref_addresses import calls_seen_through
from cfmem.passes.memref_flow import (
    ALLOCATIONS,
    FREE,
    LOOPS,
    PLANNED_REGIONS,
    POINTER,
    VIEWS,
    describe,
    flows_into,
    is_memref,
    points_into,
)
from cfmem.passes.names import ValueNames
from cfmem.planning.regions import IfNode, RegionTree, Tensor

ACCESSES = (
    "memref.load", "memref.store", "memref.copy", "memref.dim", "memref.prefetch", "memref.atomic_rmw",
    "affine.load", "affine.store", "affine.prefetch", "affine.vector_load", "affine.vector_store",
    "vector.load", "vector.store", "vector.transfer_read", "vector.transfer_write",
)  # fmt: skip
"""Ops that read or write a buffer and keep no pointer to it."""
ARENA_PARAMETER = "cfmem.arena"
"""The argument attribute of a function's arena parameter (``memref-plan-arena{arena=argument}``):
the function only makes views of it for its own buffers, so a call keeps no pointer to it."""


@dataclass
class _Region:
    """One region's ops in execution order, and where it sits in its parent."""

    ops: list[Operation]
    parent: tuple[_Region, int] | None
    tree: RegionTree = field(init=False)

    def __post_init__(self) -> None:
        self.tree = RegionTree(len(self.ops))
        self.depth = 0 if self.parent is None else self.parent[0].depth + 1


@dataclass
class AllocationLiveness:
    """The region tree of a function's allocations, and which op each tensor id is."""

    tree: RegionTree
    allocation_of: dict[str, Operation]
    """Tensor id -> its ``memref.alloc`` / ``memref.alloca``."""
    alignment: int
    """The largest ``alignment`` an allocation asks for (1 when none does)."""
    frees: list[Operation]
    """The ``memref.dealloc`` ops of the allocations (the arena's bytes need none)."""
    alternating: dict[str, tuple[str, Operation]] = field(default_factory=dict)
    """Tensor id of a buffer a loop carries into its next iteration -> the id of its second
    slot and the loop: even iterations allocate in the first, odd ones in the second."""
    slot_of: dict[str, str] = field(default_factory=dict)
    """Tensor id of an allocation that shares a slot -> the id of the slot's tensor (buffers
    made in different branches of one scf.if and yielded as the same result of it)."""


def analyze_allocations(fn: func.FuncOp, index_bitwidth: int = 64) -> AllocationLiveness:
    """The allocations of ``fn`` as a region tree, an ``index`` element taking
    ``index_bitwidth`` bits; raises ``PassFailedException`` on what cannot be planned (see
    the module docstring)."""
    return _Analysis(fn, index_bitwidth).run()


class _Analysis:
    def __init__(self, fn: func.FuncOp, index_bitwidth: int):
        self.fn = fn
        self.position: dict[Operation, tuple[_Region, int]] = {}
        """Every op of the function (nested ones included) and its region and step."""
        self.roots_of: dict[SSAValue, set[SSAValue]] = {}
        self.loops: list[tuple[Operation, _Region]] = []
        self.labels = {"if": 0, "loop": 0}
        self.next_node = 0
        self.names = ValueNames()
        self.index_bitwidth = index_bitwidth
        self.calls: set[Operation] = set()
        self.bounds = IndexBounds()
        self.nbytes: dict[Operation, int] = {}
        """Each allocation's bytes (of its largest size, when dynamic)."""

    def run(self) -> AllocationLiveness:
        if len(self.fn.body.blocks) > 1:
            raise OpFailure(self.fn,
                f"'func.func' @{self.fn.sym_name.data}: its body has {len(self.fn.body.blocks)} blocks (branches such as"
                " cf.br); only scf control flow is planned (upstream's lift-cf-to-scf turns them into scf)"
            )
        top = self.region(list(self.fn.body.block.ops), None)
        allocations = {op.results[0]: {op.results[0]} for op in self.position if op.name in ALLOCATIONS}
        self.roots_of = points_into(self.position, allocations)  # every value -> the allocations it may point into
        self.calls = calls_seen_through(self.fn)
        carried: dict[SSAValue, Operation] = {}
        iterations = dict(self.loops)
        for loop, iteration in self.loops:
            carried.update(self.carried(loop, iteration))
        allocation_of: dict[str, Operation] = {}
        alternating: dict[str, tuple[str, Operation]] = {}
        alignment = 1
        uses = self.uses_by_root()
        allocations = [op for op in self.position if op.name in ALLOCATIONS]
        for op in allocations:
            self.check_allocation(op)
        leader = self.exclusive_groups(carried)
        members: dict[SSAValue, list[Operation]] = {}  # each slot's first root -> its allocations
        for op in allocations:
            members.setdefault(leader.get(op.results[0], op.results[0]), []).append(op)
            allocation_of[self.names(op.results[0])] = op
            requested = op.properties.get("alignment")
            if requested is not None:
                alignment = max(alignment, requested.value.data)
        for first, ops in members.items():
            sites = {op: uses.get(op.results[0], []) for op in ops}
            home = self.common_region([self.position[o][0] for op in ops for o in (op, *sites[op])])
            start = min(self.step_in(op, home) for op in ops)
            end = max([start, *(self.step_in(u, home) for op in ops for u in sites[op])])
            if first in carried and home is iterations[carried[first]]:
                start, end = 0, len(home.ops) - 1  # the previous slot is read from the iteration's start
            size = max(self.nbytes[op] for op in ops)
            name = self.names(first)
            home.tree.tensors.append(Tensor(name, size, start, end))
            if first in carried:  # a second slot, live as long: the iterations alternate
                second = f"{name}#odd"
                home.tree.tensors.append(Tensor(second, size, start, end))
                alternating[name] = (second, carried[first])
        slot_of = {self.names(member): self.names(first) for member, first in leader.items()}
        frees = [op for op in self.fn.walk() if op.name == FREE and self.roots(op.operands[0])]
        return AllocationLiveness(top.tree, allocation_of, alignment, frees, alternating, slot_of)

    def exclusive_groups(self, carried: dict[SSAValue, Operation]) -> dict[SSAValue, SSAValue]:
        """Buffers that can share one slot because at most one of them exists: each is made in a
        different branch of one ``scf.if`` and leaves it only as the same result of that if (and
        is not carried by a loop). Member -> the group's first member, for groups of two or more."""
        exits: dict[SSAValue, set[tuple[Operation, int]]] = {}
        for op in self.position:
            if op.name == "scf.if":
                for region in op.regions:
                    for k, value in enumerate(region.block.last_op.operands if region.blocks else ()):
                        for root in self.roots(value):
                            exits.setdefault(root, set()).add((op, k))
        groups: dict[tuple[Operation, int], list[SSAValue]] = {}
        for root, pairs in exits.items():
            (if_op, k), *more = pairs
            if not more and root not in carried and if_op.is_ancestor(root.owner):
                groups.setdefault((if_op, k), []).append(root)
        leader: dict[SSAValue, SSAValue] = {}
        for (if_op, _), roots in groups.items():
            branches = {next(i for i, r in enumerate(if_op.regions) if r.is_ancestor(root.owner)) for root in roots}
            if len(roots) > 1 and len(branches) == len(roots):
                leader.update({root: roots[0] for root in roots})
        return leader

    # --- regions and positions ---------------------------------------------------

    def region(self, ops: list[Operation], parent: tuple[_Region, int] | None) -> _Region:
        """Number ``ops`` and build the regions nested in them."""
        region = _Region(ops, parent)
        for step, op in enumerate(ops):
            self.position[op] = (region, step)
            if op.name == "scf.if":
                branches = [self.region(list(r.block.ops) if r.blocks else [], (region, step)) for r in op.regions]
                node = IfNode(self.next_node, step, [b.tree for b in branches], "if", self.label("if"))
            elif op.name in LOOPS:  # one iteration: the body, or before then after
                iteration = self.region([o for r in op.regions for o in r.block.ops], (region, step))
                self.loops.append((op, iteration))
                node = IfNode(self.next_node, step, [iteration.tree], "loop", self.label("loop"))
            elif op.regions:  # a linalg op's body, an affine.for, ...
                self.check_leaf(op)
                continue
            else:
                continue
            self.next_node += 1
            region.tree.ifs.append(node)
        return region

    def check_leaf(self, op: Operation) -> None:
        """Accept a region op other than scf.if, scf.for and scf.while (a linalg op,
        ``affine.for``, ``scf.parallel``, ...) as one op, its nested uses counted at its step: refused when
        buffers could be made, freed or handed on inside it (an allocation or a dealloc, a
        memref result or block argument)."""
        for inner in op.walk():
            memref_args = [a for r in inner.regions for b in r.blocks for a in b.args if is_memref(a)]
            what = (
                f"'{inner.name}' {op_position(inner)}" if inner.name in (*ALLOCATIONS, FREE)
                else f"a memref block argument of '{inner.name}'" if memref_args
                else f"a memref result of '{inner.name}'" if inner is op and any(is_memref(r) for r in op.results)
                else None
            )  # fmt: skip
            if what is not None:
                raise OpFailure(op,
                    f"'{op.name}' {op_position(op)} holds {what}: buffers are planned through scf.if, scf.for"
                    " and scf.while regions, and other region ops only use them"
                )

    def step_in(self, op: Operation, region: _Region) -> int:
        """The step in ``region`` of the op there that holds ``op``."""
        here, step = self.position[op]
        while here is not region:
            assert here.parent is not None  # region holds op
            here, step = here.parent
        return step

    @staticmethod
    def common_region(regions: list[_Region]) -> _Region:
        """The innermost region holding all of ``regions``."""
        common = regions[0]
        for other in regions[1:]:
            while other.depth > common.depth:
                other = other.parent[0]
            while common.depth > other.depth:
                common = common.parent[0]
            while common is not other:
                common, other = common.parent[0], other.parent[0]
        return common

    def holds(self, region: _Region, op: Operation) -> bool:
        here: _Region | None = self.position[op][0]
        while here is not None and here is not region:
            here = here.parent[0] if here.parent else None
        return here is region

    def label(self, kind: str) -> str:
        label = f"{kind}#{self.labels[kind]}"
        self.labels[kind] += 1
        return label

    # --- roots ---------------------------------------------------------------------

    def roots(self, value: SSAValue) -> set[SSAValue]:
        return self.roots_of.get(value, set())

    def carried(self, loop: Operation, iteration: _Region) -> dict[SSAValue, Operation]:
        """The buffers allocated in ``loop`` that reach its next iteration, each to be given
        two slots; refuses what two slots cannot hold (see the module docstring)."""
        yielded = list(loop.regions[-1].block.last_op.operands)  # scf.yield of the body, or of the after block
        from_before = self.derived(iteration, [a for r in loop.regions for a in r.block.args])
        carried: dict[SSAValue, Operation] = {}
        for position, value in enumerate(yielded):
            for root in self.roots(value):
                owner = root.owner
                if not (isinstance(owner, Operation) and self.holds(iteration, owner)):
                    continue
                where = f"'{owner.name}' {op_position(owner)}: the buffer is carried into the next iteration of"
                where += f" '{loop.name}' {op_position(loop)}"
                if self.innermost_loop(owner) is not loop:
                    raise OpFailure(owner, f"{where} from an inner loop (its slots would alternate twice)")
                if value in from_before or root in carried:
                    raise OpFailure(owner,
                        f"{where} more than once, or with the previous iteration's buffer (two slots are not enough)"
                    )
                carried[root] = loop
        return carried

    @staticmethod
    def derived(iteration: _Region, sources: list[SSAValue]) -> set[SSAValue]:
        """The values of ``iteration`` that may point into what ``sources`` point into, through
        every flow the roots follow (``points_into``): a region's yield of a captured value too."""
        nested = [inner for op in iteration.ops for inner in op.walk()]
        return set(points_into(nested, {source: {source} for source in sources}))

    def innermost_loop(self, op: Operation) -> Operation | None:
        """The innermost loop holding ``op``."""
        region = self.position[op][0]
        while region.parent is not None:
            holder = region.parent[0].ops[region.parent[1]]
            if holder.name in LOOPS:
                return holder
            region = region.parent[0]
        return None

    # --- uses ----------------------------------------------------------------------

    def uses_by_root(self) -> dict[SSAValue, list[Operation]]:
        """Every op that uses a root or one of its aliases (deallocs aside), by root; a use in
        a linalg op's body (a ``memref.load`` of a captured buffer) counts as the linalg op's."""
        uses: dict[SSAValue, list[Operation]] = {}
        for value, roots in self.roots_of.items():
            for use in value.uses:
                user = use.operation
                if user.name == FREE:
                    continue
                self.check_use(user, value, use.index)
                while user not in self.position:
                    user = user.parent_op()
                    if user is None:  # malformed IR the verifier let through
                        outside = use.operation
                        raise OpFailure(outside,
                            f"'{outside.name}' {op_position(outside)} uses {describe(value)} outside"
                            f" @{self.fn.sym_name.data}, which defines it"
                        )
                for root in roots:
                    uses.setdefault(root, []).append(user)
        return uses

    def check_use(self, user: Operation, value: SSAValue, index: int) -> None:
        """Refuse a use (operand ``index`` of ``user``) through which the buffer escapes or
        aliasing is not known."""
        if isinstance(user, func.ReturnOp):
            raise OpFailure(user,
                f"'func.return' {op_position(user)}: {describe(value)} escapes the function"
                " (return results through out-params to plan them)"
            )
        if _stores_buffer(user, index):
            raise OpFailure(user,
                f"'{user.name}' {op_position(user)} stores {describe(value)} into memory: a buffer loaded back"
                " is used where its lifetime cannot be seen"
            )
        known = user.name in VIEWS or user.name in ACCESSES or user.name.startswith("linalg.")
        known = known or user.name == POINTER or user in self.calls  # checked by calls_seen_through
        known = known or user.name in ("scf.yield", "scf.condition", *PLANNED_REGIONS)
        known = known or (isinstance(user, func.CallOp) and _call_keeps_no_pointer(user, index))
        if not known:
            raise OpFailure(user,
                f"'{user.name}' {op_position(user)} uses {describe(value)}: its aliasing cannot be seen"
                " (memref-plan-arena plans memref, linalg and scf ops)"
            )

    def check_allocation(self, op: Operation) -> None:
        ty = op.results[0].type
        where = f"'{op.name}' {op_position(op)}"
        if not isinstance(ty, MemRefType):
            raise OpFailure(op, f"{where}: result type {ty} is not a memref")
        if not isinstance(ty.layout, NoneAttr) and not (
            isinstance(ty.layout, StridedLayoutAttr) and ty.layout == StridedLayoutAttr(row_major_strides(ty.get_shape()), 0)
        ):
            raise OpFailure(op, f"{where}: {ty} has a layout (only identity layouts are planned)")
        if not isinstance(ty.memory_space, NoneAttr):
            raise OpFailure(op, f"{where}: {ty} is in memory space {ty.memory_space} (one arena, the default space)")
        self.nbytes[op] = allocation_bytes(op, self.bounds, self.index_bitwidth)


def allocation_bytes(op: Operation, bounds: IndexBounds | None = None, index_bitwidth: int = 64) -> int:
    """The bytes of allocation ``op`` (a memref type), each dynamic size taken at its upper
    bound and an ``index`` element as ``index_bitwidth`` bits; ``PassFailedException`` naming
    ``op`` when a size has none or elements no byte size.

    An element takes the bytes of its bits rounded up to a power of two: LLVM steps through a
    memref by its type's allocation size (i33 and f80 are 8 and 16 bytes apart on x86-64,
    not 5 and 10), which is never more than that."""
    ty = op.results[0].type
    assert isinstance(ty, MemRefType)
    where = f"'{op.name}' {op_position(op)}"
    try:
        element = ty.get_element_type()
        stored = index_bitwidth // 8 if isinstance(element, IndexType) else element_bytes(element)
    except ValueError as err:
        raise OpFailure(op, f"{where}: {err}") from None
    size = 1 << (max(stored, 1) - 1).bit_length()
    bounds = bounds or IndexBounds()
    dynamic = iter(op.operands)  # one size per dynamic dimension, in order
    for dim in ty.get_shape():
        if dim < 0:
            value = next(dynamic)
            bound = bounds.upper_bound(value)
            if bound is None:
                raise OpFailure(op,
                    f"{where}: {ty} has a dynamic size{f' %{value.name_hint}' if value.name_hint else ''}"
                    " with no upper bound to plan it with (clamp it, e.g. arith.minui %n, %c64)"
                )
            dim = max(bound, 0)
        size *= dim
    if size >= 1 << 62:  # offsets and the arena's size are index values
        raise OpFailure(op, f"{where}: {ty} takes {size:,} bytes, more than an arena can address")
    return size


def is_arena_parameter(fn: func.FuncOp, index: int) -> bool:
    """Whether argument ``index`` of ``fn`` is marked ``ARENA_PARAMETER``."""
    attrs = fn.arg_attrs.data if fn.arg_attrs is not None else ()
    return index < len(attrs) and ARENA_PARAMETER in attrs[index].data


def _call_keeps_no_pointer(call: func.CallOp, index: int, seen: frozenset[Operation] = frozenset()) -> bool:
    """Whether the callee of ``call`` only reads and writes its operand ``index`` during the
    call: it is defined in the module, and the argument, through its views and scf control
    flow, is only accessed (memref accesses, linalg ops) or passed to calls that keep no
    pointer either; never returned, freed, stored or taken the address of. An arena
    parameter (``ARENA_PARAMETER``) qualifies as it is."""
    callee = SymbolTable.lookup_symbol(call, call.callee)
    if not isinstance(callee, func.FuncOp) or not callee.body.blocks or callee in seen or index >= len(callee.args):
        return False
    if is_arena_parameter(callee, index):
        return True
    todo, reached = [callee.args[index]], {callee.args[index]}
    while todo:
        for use in todo.pop().uses:
            user = use.operation
            if user.name in ACCESSES or user.name.startswith("linalg."):
                if _stores_buffer(user, use.index):
                    return False
                continue
            flows = flows_into(user, use.index)
            if flows:
                todo += [v for v in flows if v not in reached]
                reached.update(flows)
            elif user.name in PLANNED_REGIONS:
                continue  # an operand such an op passes nothing on
            elif not (isinstance(user, func.CallOp) and _call_keeps_no_pointer(user, use.index, seen | {callee})):
                return False
    return True



def _stores_buffer(user: Operation, index: int) -> bool:
    """Whether operand ``index`` of ``user`` is the value a store writes (a buffer stored into
    memory of memrefs), not the memory it writes into."""
    return user.name in ("memref.store", "affine.store") and index == 0
