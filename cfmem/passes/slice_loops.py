"""``nn-roll-slices``: sliced compute of a flat module as ``scf.for`` loops, and back.

``nn-slice-weights`` computes an op slice by slice; after ``nn-lower-to-memref``
every slice is the same few ops (DMA waits, views, the next slice's DMA
start, one ``nn.apply``) at other offsets. ``roll_slices`` finds, in every
block, the longest run of such iterations and replaces it by one loop over
groups of ``m`` iterations, ``m`` being the number of DMA buffers the slices
rotate through (so a group's buffers are the same on every trip):

- an index constant or a weight view (``memref.view`` of a blob made before
  the run) that steps by the same amount from group to group becomes
  ``base + i * step`` in the body;
- a DMA tag a group allocates for the next group's wait is one tag, the
  one the run's first wait already uses (reused only after that wait);
- a ``cfmem.tensor`` name that counts with the slices is kept as a template,
  ``cfmem.tensor = "w_s{}_sram"`` with ``cfmem.tensor_index = [a, b]``: the
  name on trip ``i`` has ``a + b * i`` in place of ``{}``, so the flat
  interpreter's ownership checks still tell every slice apart (names holding a
  ``{}`` of their own do not count: the template could not say which is which).

Anything else that differs between iterations (a transfer's element count
among them: only offsets step), a value of the run used after it, or an op
with regions other than ``nn.apply`` ends the run there, and
runs of fewer than two groups stay as they are. ``unroll_loops`` is the
inverse (constant trip counts), used where a checker wants straight-line code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects.builtin import DenseArrayBase, IndexType, IntegerAttr, ModuleOp, StringAttr, i64
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from cfmem.dialects.nn_memref import ApplyOp
from cfmem.dialects.flat_form import LOOP_ATTR, TENSOR_ATTR, TENSOR_INDEX_ATTR, tensor_name
from cfmem.passes.placement import SLICE_OF_ATTR

MAX_GROUP = 8
"""Most iterations per trip tried (the deepest DMA rotation)."""
_NUMBER = re.compile(r"\d+")


def index_constant(value: SSAValue) -> int | None:
    """The value of an ``arith.constant`` of index type, or None."""
    op = value.owner
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr) and isinstance(op.value.type, IndexType):
        return op.value.value.data
    return None


def _counting(names: list[str]) -> tuple[str, tuple[int, int]] | None:
    """``names`` as one template whose number steps evenly, or None."""
    parts = [_NUMBER.split(n) for n in names]
    numbers = [[int(x) for x in _NUMBER.findall(n)] for n in names]
    if any(p != parts[0] for p in parts) or any(len(x) != len(numbers[0]) for x in numbers):
        return None
    varying = [k for k in range(len(numbers[0])) if len({x[k] for x in numbers}) > 1]
    if len(varying) != 1:
        return None
    k = varying[0]
    a, b = numbers[0][k], numbers[1][k] - numbers[0][k]
    if any(x[k] != a + b * g for g, x in enumerate(numbers)):
        return None
    pieces = _NUMBER.findall(names[0])
    text = parts[0][0]
    for j, piece in enumerate(pieces):
        text += ("{}" if j == k else piece) + parts[0][j + 1]
    if text.count("{}") != 1:
        return None  # a name with a "{}" of its own: the template would not say which one counts
    return text, (a, b)


def _stepping(values: list[int]) -> tuple[int, int] | None:
    step = values[1] - values[0]
    return (values[0], step) if all(v == values[0] + step * g for g, v in enumerate(values)) else None


@dataclass
class _Plan:
    """How the operands and names of the run's first group vary across its groups."""

    groups: list[list[Operation]]
    progressions: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)
    """(position, operand) -> (base, step) of an index constant."""
    views: dict[tuple[int, int], tuple[memref.ViewOp, int]] = field(default_factory=dict)
    """(position, operand) -> (the first group's weight view, step of its byte shift)."""
    carried: dict[int, SSAValue] = field(default_factory=dict)
    """position of a tag alloca -> the tag every group uses instead."""
    names: dict[int, tuple[str, tuple[int, int]]] = field(default_factory=dict)


class _Run:
    """Checks that the groups of one candidate run are the same iteration."""

    def __init__(self, groups: list[list[Operation]], after: set[Operation]):
        self.groups = groups
        self.where: dict[Operation, tuple[int, int]] = {
            op: (g, p) for g, group in enumerate(groups) for p, op in enumerate(group)
        }
        self.after = after

    def position(self, value: SSAValue) -> tuple[int, int] | None:
        owner = value.owner
        return self.where.get(owner) if isinstance(owner, Operation) else None

    def plan(self) -> _Plan | None:
        first = self.groups[0]
        plan = _Plan(self.groups)
        for p, op in enumerate(first):
            peers = [group[p] for group in self.groups]
            if not self.same_kind(peers):
                return None
            names = [peer.attributes.get(TENSOR_ATTR) for peer in peers]
            if any(n != names[0] for n in names):
                if not all(isinstance(n, StringAttr) for n in names):
                    return None
                counted = _counting([n.data for n in names])  # type: ignore[union-attr]
                if counted is None:
                    return None
                plan.names[p] = counted
            for j in range(len(op.operands)):
                if not self.operand(plan, p, j):
                    return None
        return plan if self.nothing_escapes(plan) else None

    @staticmethod
    def same_kind(peers: list[Operation]) -> bool:
        op = peers[0]
        if any(r.regions for r in peers) and not isinstance(op, ApplyOp):
            return False
        keep = {TENSOR_ATTR}
        attrs = {k: v for k, v in op.attributes.items() if k not in keep}
        for peer in peers[1:]:
            if peer.name != op.name or peer.properties != op.properties or len(peer.operands) != len(op.operands):
                return False
            if [r.type for r in peer.results] != [r.type for r in op.results]:
                return False
            if {k: v for k, v in peer.attributes.items() if k not in keep} != attrs:
                return False
            if any(not a.is_structurally_equivalent(b) for a, b in zip(op.regions, peer.regions)):
                return False
        return True

    def operand(self, plan: _Plan, p: int, j: int) -> bool:
        values = [group[p].operands[j] for group in self.groups]
        where = [self.position(v) for v in values]
        if all(w is not None and w == (g, where[0][1]) for g, w in enumerate(where)):  # type: ignore[index]
            return True  # made by the same op of the same group
        if all(v is values[0] for v in values) and where[0] is None:
            return True  # the same value, made before the run
        if where[0] is None and all(w is not None and w[0] == g - 1 for g, w in enumerate(where) if g):
            return self.carried_tag(plan, values, [w[1] for w in where[1:] if w is not None])
        constants = [index_constant(v) for v in values]
        if all(c is not None for c in constants) and j not in _sizes(self.groups[0][p]):
            stepping = _stepping(constants)  # type: ignore[arg-type]
            if stepping is None:
                return False
            plan.progressions[(p, j)] = stepping
            return True
        owners = [v.owner for v in values]
        if all(isinstance(o, memref.ViewOp) and w is None for o, w in zip(owners, where)):
            return self.weight_view(plan, p, j, owners)  # type: ignore[arg-type]
        return False

    def carried_tag(self, plan: _Plan, values: list[SSAValue], positions: list[int]) -> bool:
        """A tag made by the previous group (the first group's made before the run)."""
        q = positions[0]
        if any(x != q for x in positions) or not isinstance(values[0].owner, memref.AllocaOp):
            return False
        if not isinstance(self.groups[0][q], memref.AllocaOp) or values[0].type != self.groups[0][q].results[0].type:
            return False
        if plan.carried.get(q, values[0]) is not values[0]:
            return False
        plan.carried[q] = values[0]
        return True

    def weight_view(self, plan: _Plan, p: int, j: int, views: list[memref.ViewOp]) -> bool:
        first = views[0]
        if any(v.source is not first.source or v.result.type != first.result.type or v.sizes for v in views):
            return False
        if any(v.attributes != first.attributes for v in views):
            return False
        shifts = [index_constant(v.byte_shift) for v in views]
        if any(s is None for s in shifts):
            return False
        stepping = _stepping(shifts)  # type: ignore[arg-type]
        if stepping is None:
            return False
        plan.views[(p, j)] = (first, stepping[1])
        return True

    def top(self, op: Operation) -> Operation | None:
        """The op of the run's block that is or holds ``op``."""
        block = self.groups[0][0].parent_block()
        while op is not None and op.parent_block() is not block:
            op = op.parent_op()
        return op

    def nothing_escapes(self, plan: _Plan) -> bool:
        """Only carried tags leave a group: into the next group, or after the run from the last."""
        last = len(self.groups) - 1
        for g, group in enumerate(self.groups):
            for p, op in enumerate(group):
                for result in op.results:
                    for use in result.uses:
                        user = self.top(use.operation)
                        w = self.where.get(user) if user is not None else None
                        if w is None:
                            if not (p in plan.carried and g == last and user in self.after):
                                return False
                        elif w[0] != g and not (p in plan.carried and w[0] == g + 1):
                            return False
        return True


def _sizes(op: Operation) -> set[int]:
    """Positions of a transfer's element count: it stays a constant (only offsets step)."""
    if isinstance(op, memref.DmaStartOp):
        return {2 + len(op.src_indices) + len(op.dest_indices)}
    if isinstance(op, memref.DmaWaitOp):
        return {1 + len(op.tag_indices)}
    return set()


def _anchor(op: Operation) -> str | None:
    """The op a sliced ``nn.apply`` computes a slice of."""
    if not isinstance(op, ApplyOp):
        return None
    attr = op.attributes.get(SLICE_OF_ATTR)
    return attr.data if isinstance(attr, StringAttr) else None


def _run_start(anchors: list[int]) -> int:
    """Where the run at these anchors starts: one slice's ops (as many as lie between the first
    two anchors) before the first anchor's successor; negative if the block starts later."""
    return 2 * anchors[0] - anchors[1] + 1


def _best_run(ops: list[Operation], anchors: list[int]) -> _Plan | None:
    """The plan of the run at these anchors that rolls the most slices, or None."""
    best: tuple[int, _Plan] | None = None
    period = anchors[1] - anchors[0]
    regular = 1
    while regular < len(anchors) and anchors[regular] - anchors[regular - 1] == period:
        regular += 1
    start = _run_start(anchors)
    if start < 0:
        return None
    for per_group in range(1, MAX_GROUP + 1):
        length = period * per_group
        for count in range(regular // per_group, 1, -1):
            groups = [ops[start + g * length : start + (g + 1) * length] for g in range(count)]
            after = set(ops[start + count * length :])
            plan = _Run(groups, after).plan()
            if plan is not None:
                if best is None or count * per_group > best[0]:
                    best = (count * per_group, plan)
                break
    return best[1] if best is not None else None


def _reads(ops: list[Operation], anchors: list[int]) -> tuple[tuple[object, ...], ...]:
    """What ``_best_run`` reads at these anchors that rolling other slices can change: the ops
    from the run's start to the last anchor, the values they use, and the uses of their results
    (a value of the run used after it ends the run). Rolling changes none of the other ops it
    reads (those making the values) in place."""
    window = ops[max(0, _run_start(anchors)) : anchors[-1] + 1]
    return (
        tuple(window),
        tuple(value for op in window for value in op.operands),
        tuple(use for op in window for result in op.results for use in result.uses),
    )


def roll_block(block: Block, entry: Block) -> int:
    """Roll every run of sliced iterations in ``block`` (not nested blocks), making new index
    constants in its function's ``entry`` block; loops made. An op's slices that did not roll are
    tried again once what ``_best_run`` reads of them changes (a loop erases the offsets it no
    longer needs, which may have kept them apart, and the slices that used a value of their run)."""
    made = 0
    failed: dict[str, tuple[tuple[object, ...], ...]] = {}
    while True:
        ops = list(block.ops)
        anchors: dict[str, list[int]] = {}
        for k, op in enumerate(ops):
            name = _anchor(op)
            if name is not None:
                anchors.setdefault(name, []).append(k)
        for name, positions in anchors.items():
            if len(positions) < 2:
                continue
            read = _reads(ops, positions)
            if failed.get(name) == read:
                continue
            plan = _best_run(ops, positions)
            if plan is not None:
                _build_loop(plan, entry)
                made += 1
                break
            failed[name] = read
        else:
            return made


def _constants_ahead(entry: Block, op: Operation) -> dict[int, SSAValue]:
    """The index constants of ``entry`` ahead of the op that is or holds ``op`` (nested in ``entry``):
    the ones a loop put before ``op`` may use (not the run's own, not ones made after it)."""
    while op.parent_block() is not entry:
        parent = op.parent_op()
        assert parent is not None
        op = parent
    consts: dict[int, SSAValue] = {}
    for ahead in entry.ops:
        if ahead is op:
            break
        if ahead.results and (c := index_constant(ahead.results[0])) is not None:
            consts.setdefault(c, ahead.results[0])
    return consts


def _build_loop(plan: _Plan, entry: Block) -> None:
    first = plan.groups[0]
    consts = _constants_ahead(entry, first[0])

    def const(value: int) -> SSAValue:
        """An index constant at the function's entry (the one there already if any)."""
        if value not in consts:
            op = arith.ConstantOp(IntegerAttr(value, IndexType()))
            op.result.name_hint = f"c{value}"
            Rewriter.insert_op(op, InsertPoint.at_start(entry))
            consts[value] = op.result
        return consts[value]

    lower, upper, one = const(0), const(len(plan.groups)), const(1)
    body = Block(arg_types=[IndexType()])
    trip = body.args[0]
    trip.name_hint = "trip"
    scaled: dict[int, SSAValue] = {}
    shifted: dict[tuple[int, int], SSAValue] = {}

    def stepped(base: int, step: int) -> SSAValue:
        """``base + trip * step`` in the body, each product and sum made once."""
        if step == 0:
            return const(base)
        if step not in scaled:
            body.add_op(product := arith.MuliOp(trip, const(step)))
            scaled[step] = product.result
        if (base, step) not in shifted:
            body.add_op(total := arith.AddiOp(scaled[step], const(base)))
            shifted[(base, step)] = total.result
        return shifted[(base, step)]

    mapping: dict[SSAValue, SSAValue] = {first[q].results[0]: tag for q, tag in plan.carried.items()}
    for p, op in enumerate(first):
        if p in plan.carried:
            continue  # every group uses the tag the run starts with
        operands = []
        for j, value in enumerate(op.operands):
            if (p, j) in plan.progressions:
                operands.append(stepped(*plan.progressions[(p, j)]))
            elif (p, j) in plan.views:
                view, step = plan.views[(p, j)]
                base = index_constant(view.byte_shift)
                assert base is not None
                new_view = memref.ViewOp(view.source, stepped(base, step), [], view.result.type)
                new_view.attributes.update(view.attributes)
                new_view.result.name_hint = view.result.name_hint
                body.add_op(new_view)
                operands.append(new_view.result)
            else:
                operands.append(mapping.get(value, value))
        clone = op.clone()
        for j, value in enumerate(operands):  # by position: one value may fill two roles
            clone.operands[j] = value
        for old, new in zip(op.results, clone.results):
            mapping[old] = new
            new.name_hint = old.name_hint
        if p in plan.names:
            template, index = plan.names[p]
            clone.attributes[TENSOR_ATTR] = StringAttr(template)
            for new in clone.results:
                new.name_hint = template.replace("{}", "")
            clone.attributes[TENSOR_INDEX_ATTR] = DenseArrayBase.from_list(i64, list(index))
        body.add_op(clone)
    body.add_op(scf.YieldOp())
    Rewriter.insert_op(scf.ForOp(lower, upper, one, [], Region(body)), InsertPoint.before(first[0]))
    for q, tag in plan.carried.items():
        plan.groups[-1][q].results[0].replace_all_uses_with(tag)
    dropped = [op for group in plan.groups for op in group]
    feeding = {v.owner for op in dropped for v in op.operands if isinstance(v.owner, Operation)}
    for op in reversed(dropped):  # users before what they use
        Rewriter.erase_op(op)
    _erase_unused(feeding - set(dropped))


def _erase_unused(ops: set[Operation]) -> None:
    """Erase the index constants and views among ``ops`` that nothing uses any more."""
    pending = [o for o in ops if isinstance(o, arith.ConstantOp | memref.ViewOp)]
    while pending:
        op = pending.pop()
        if op.parent is None or any(r.uses for r in op.results):
            continue
        feeds = [v.owner for v in op.operands if isinstance(v.owner, arith.ConstantOp | memref.ViewOp)]
        op.detach()
        op.erase()
        pending.extend(feeds)


def _blocks(fn: func.FuncOp) -> list[Block]:
    """The function's block and every ``scf.if`` branch block in it."""
    found = [fn.body.block]
    for op in fn.walk():
        if isinstance(op, scf.IfOp):
            found.extend(r.block for r in op.regions if r.blocks)
    return found


def roll_slices(module: ModuleOp) -> int:
    """Roll the sliced compute of every function of flat ``module``; loops made."""
    return sum(
        roll_block(block, fn.body.block) for fn in module.ops if isinstance(fn, func.FuncOp) for block in _blocks(fn)
    )


def _resolve(op: Operation, trip: int) -> None:
    index = op.attributes.pop(TENSOR_INDEX_ATTR, None)
    name = op.attributes.get(TENSOR_ATTR)
    if isinstance(index, DenseArrayBase) and isinstance(name, StringAttr):
        a, b = index.get_values()
        op.attributes[TENSOR_ATTR] = StringAttr(tensor_name(name.data, (a, b), trip))


def _fold(op: Operation) -> Operation:
    """``arith.addi`` / ``arith.muli`` of two index constants as one constant."""
    if isinstance(op, arith.AddiOp | arith.MuliOp):
        a, b = index_constant(op.lhs), index_constant(op.rhs)
        if a is not None and b is not None:
            folded = arith.ConstantOp(IntegerAttr(a + b if isinstance(op, arith.AddiOp) else a * b, IndexType()))
            return folded
    return op


def unroll_loops(fn: func.FuncOp) -> None:
    """Replace every slice loop (an ``scf.for`` not marked ``cfmem.loop``) of ``fn`` by its trips,
    the trip count folded into index arithmetic and tensor names (innermost loops first)."""
    loops = [op for op in fn.walk() if isinstance(op, scf.ForOp) and LOOP_ATTR not in op.attributes]
    for loop in reversed(loops):
        bounds = [index_constant(v) for v in (loop.lb, loop.ub, loop.step)]
        if any(b is None for b in bounds) or loop.results:
            raise ValueError("unroll_loops: a loop without constant bounds or with results")
        lower, upper, step = bounds  # type: ignore[misc]
        body = loop.body.block
        for trip in range(lower, upper, step):  # type: ignore[arg-type]
            index = arith.ConstantOp(IntegerAttr(trip, IndexType()))
            Rewriter.insert_op(index, InsertPoint.before(loop))
            mapping: dict[SSAValue, SSAValue] = {body.args[0]: index.result}
            for op in body.ops:
                if isinstance(op, scf.YieldOp):
                    break
                clone = op.clone(value_mapper=mapping)
                _resolve(clone, (trip - lower) // step)  # type: ignore[operator]
                folded = _fold(clone)
                if folded is not clone:
                    clone.erase()
                    clone = folded
                for old, new in zip(op.results, clone.results):
                    mapping[old] = new
                    new.name_hint = old.name_hint
                Rewriter.insert_op(clone, InsertPoint.before(loop))
        loop.detach()
        loop.erase()


class RollSlicesPass(ModulePass):
    """Sliced compute of a flat module (after ``nn-lower-to-memref``) as ``scf.for`` loops."""

    name = "nn-roll-slices"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        roll_slices(op)
