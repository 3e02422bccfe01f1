"""Random nn programs with nested control flow, for differential and property tests.

A program is built with :class:`cfmem.builder.GraphBuilder` from a ``random.Random``
(so hypothesis can drive it with ``st.randoms()``). It mixes image-like
``1 x C x H x W`` and vector-like ``1 x F`` values; values are reused several times,
values defined above are read deep inside branches, some results are never used,
branches differ in size and weights range from a few bytes to tens of kilobytes.

Every ``nn.if`` is controlled by its own function input ``c<k>`` (shape ``[1]``, taken
when positive), so every branch outcome is reachable and :func:`covering_input_sets`
reaches each one directly. Ifs appear by chance; ``GraphShape.min_depth`` also places one
chain of ifs nested that deep (so ``min_depth=1`` guarantees an if).

With ``GraphShape.loops``, counted ``nn.loop`` ops appear by chance too (the first at the
top level is placed for sure): each runs as many times as its own input ``n<k>`` (an i64
scalar) says, carries one visible value, and its body holds random ops (ifs among them) on
the carried value and values from above; the covering sets run each loop 0, 1, 2 and 3
times in turn.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, OpResult, SSAValue

from cfmem.builder import GraphBuilder
from cfmem.dialects.nn_compute import CmpOp, ConstantOp
from cfmem.dialects.nn_control import IfOp
from cfmem.interp.golden import find_function, random_inputs
from cfmem.interp.weights import dense_to_array
from cfmem.signature import argument_names, input_args


PICK_WINDOW = 128
"""Operands come from this many most recent visible values, so that generating
very large programs stays linear."""


@dataclass(frozen=True)
class GraphShape:
    """Size limits of a generated program."""

    ops: int = 14
    """Compute ops at the top level (branches add their own)."""
    ifs: int = 3
    """Most ``nn.if`` ops in the whole program."""
    depth: int = 3
    """Deepest nesting of ``nn.if``."""
    branch_ops: int = 6
    """Most compute ops in one branch before its yields are built."""
    min_depth: int = 0
    """Nest one chain of ``nn.if`` at least this deep, starting at the top level
    (capped by ``ifs`` and ``depth``); 0 leaves every if to chance."""
    loops: int = 0
    """Most ``nn.loop`` ops in the whole program (nesting counts towards ``depth``)."""


TRIP_COUNTS = (0, 1, 2, 3)
"""The iterations the covering input sets give each loop, in turn."""


class _Generator:
    def __init__(self, rng: random.Random, limits: GraphShape, name: str):
        self.rng = rng
        self.limits = limits
        self.b = GraphBuilder(name, seed=rng.randrange(1 << 16), align=rng.choice((4, 16, 64)))
        self.ifs_left = limits.ifs
        self.loops_left = limits.loops
        self.chain = max(0, min(limits.min_depth, limits.ifs, limits.depth))
        """Ifs of the required chain not placed yet (kept out of the chance budget)."""
        self.scopes: list[list[SSAValue]] = []

    # --- the value pool ------------------------------------------------------------

    def visible(self) -> list[SSAValue]:
        return [v for scope in self.scopes for v in scope]

    def pick(self, want=lambda s: True) -> SSAValue | None:
        """A visible value whose shape satisfies ``want``, recent values more likely
        (only the last ``PICK_WINDOW`` visible values are candidates)."""
        pool = [v for v in self.visible()[-PICK_WINDOW:] if want(self.b.shape(v))]
        if not pool:
            return None
        return pool[min(len(pool) - 1, int(len(pool) * self.rng.random() ** 0.5))]

    def add(self, value: SSAValue) -> SSAValue:
        self.scopes[-1].append(value)
        return value

    # --- ops --------------------------------------------------------------------------

    def random_op(self, depth: int, chain: int = 0) -> None:
        """A random op, or the next ``chain`` ifs of the required chain when ``chain > 0``."""
        rng, b = self.rng, self.b
        if chain > 0:
            self.random_if(depth, chain)
            return
        if self.ifs_left > self.chain and depth < self.limits.depth and rng.random() < 0.25:
            self.random_if(depth)
            return
        first_loop = self.loops_left == self.limits.loops  # placed at the top level, before any other
        if self.loops_left and depth < self.limits.depth and (depth == 0 if first_loop else rng.random() < 0.15):
            self.random_loop(depth)
            return
        x = self.pick()
        assert x is not None
        shape = b.shape(x)
        image = len(shape) == 4
        kind = rng.choice(
            ("conv", "conv", "act", "binary", "pool", "gap", "concat") if image
            else ("dense", "dense", "act", "binary", "softmax", "concat")
        )
        if kind == "conv":
            k = rng.choice((1, 3))
            self.add(b.conv2d(x, rng.choice((2, 4, 8, 16, 32)), k, pad=k // 2, bias=rng.random() < 0.7))
        elif kind == "dense":
            self.add(b.dense(x, rng.choice((3, 8, 16, 64, 128)), bias=rng.random() < 0.7))
        elif kind == "act":
            act = rng.choice((b.relu, b.sigmoid, b.tanh))
            self.add(act(x))
        elif kind == "binary":
            y = self.pick(lambda s: s == shape) or x
            op = rng.choice((b.add, b.mul, b.sub))
            self.add(op(x, y))
        elif kind == "pool" and shape[2] % 2 == 0 and shape[3] % 2 == 0:
            self.add(b.max_pool2d(x, 2))
        elif kind == "gap":
            self.add(b.flatten(b.global_avg_pool(x)))
        elif kind == "softmax":
            self.add(b.softmax(x))
        elif kind == "concat":
            axis_ok = (lambda s: len(s) == 4 and s[2:] == shape[2:]) if image else (lambda s: len(s) == 2)
            y = self.pick(axis_ok) or x
            self.add(b.concat([x, y], axis=1))
        else:
            self.add(b.relu(x))

    def make_like(self, shape: tuple[int, ...]) -> SSAValue:
        """A value of ``shape`` computed from visible values (an existing one if any)."""
        b, rng = self.b, self.rng
        same = self.pick(lambda s: s == shape)
        if same is not None and rng.random() < 0.6:
            return same
        if len(shape) == 4:
            source = self.pick(lambda s: len(s) == 4 and s[2:] == shape[2:])
            assert source is not None  # the shape came from a visible value
            return self.add(b.conv2d(source, shape[1], 1))
        source = self.pick(lambda s: len(s) == 2) or self.add(b.flatten(b.global_avg_pool(self.pick())))
        return self.add(b.dense(source, shape[1]))

    def random_if(self, depth: int, chain: int = 0) -> None:
        """An if at nesting ``depth``; with ``chain > 1`` one of its branches (either)
        holds the rest of the required chain."""
        rng, b = self.rng, self.b
        self.ifs_left -= 1
        if chain > 0:
            self.chain -= 1
        k = self.limits.ifs - self.ifs_left - 1
        cond = b.cmp("gt", b.input(f"c{k}", (1,)), 0.0, name=f"take{k}")
        choices = self.visible()
        result_shapes = [b.shape(rng.choice(choices)) for _ in range(rng.choice((0, 1, 1, 2)))]
        chain_branch = rng.randrange(2) if chain > 1 else None
        branches_built = 0

        def branch(_: GraphBuilder) -> list[SSAValue]:
            nonlocal branches_built
            holds_chain = branches_built == chain_branch
            branches_built += 1
            self.scopes.append([])
            try:
                if holds_chain:
                    count = rng.randint(1, max(1, self.limits.branch_ops))
                    chain_at = rng.randrange(count)
                    for i in range(count):
                        self.random_op(depth + 1, chain - 1 if i == chain_at else 0)
                else:
                    for _ in range(rng.randint(0, self.limits.branch_ops)):
                        self.random_op(depth + 1)
                return [self.make_like(s) for s in result_shapes]
            finally:
                self.scopes.pop()

        for value in b.if_(cond, branch, branch, name=f"if{k}"):
            self.add(value)

    def random_loop(self, depth: int) -> None:
        """A counted loop at nesting ``depth`` carrying one visible value through random ops."""
        rng, b = self.rng, self.b
        self.loops_left -= 1
        k = self.limits.loops - self.loops_left - 1
        trips = b.input(f"n{k}", (), np.int64)
        carried = self.pick()
        assert carried is not None
        shape = b.shape(carried)

        def body(_: GraphBuilder, i: SSAValue, c: SSAValue, value: SSAValue) -> list[SSAValue]:
            self.scopes.append([value])
            try:
                for _ in range(rng.randint(1, max(1, self.limits.branch_ops))):
                    self.random_op(depth + 1)
                return [c, self.make_like(shape)]
            finally:
                self.scopes.pop()

        for value in b.loop(trips, [carried], body, name=f"loop{k}"):
            self.add(value)

    def build(self, inputs: int) -> ModuleOp:
        rng, b = self.rng, self.b
        self.scopes.append([])
        for i in range(inputs):
            if rng.random() < 0.6:
                shape = (1, rng.choice((1, 3, 4)), rng.choice((4, 6, 8)), rng.choice((4, 8)))
            else:
                shape = (1, rng.choice((4, 16, 32)))
            self.add(b.input(f"x{i}", shape))
        top_ops = max(self.limits.ops, 1 if self.chain else 0)
        chain_at = rng.randrange(top_ops) if self.chain else None
        for i in range(top_ops):
            self.random_op(0, self.chain if i == chain_at else 0)
        computed = [v for v in self.scopes[0] if isinstance(v, OpResult)] or [self.pick()]
        outputs = {computed[-1]: None}
        for v in rng.sample(computed, min(len(computed), rng.randint(0, 2))):
            outputs[v] = None
        b.output(*outputs)
        return b.build()


def random_graph(seed: int | random.Random, limits: GraphShape = GraphShape(), name: str = "main") -> ModuleOp:
    """A verified random program (see the module docstring) from ``seed``."""
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    return _Generator(rng, limits, name).build(inputs=rng.randint(1, 2))


@dataclass
class _IfNode:
    """One ``nn.if`` of a generated program: the input that controls it and the ifs
    directly inside each of its branches (then, else)."""

    condition: str
    inside: tuple[list[_IfNode], list[_IfNode]]


def _is_condition_name(name: str) -> bool:
    return name.startswith("c") and name[1:].isdigit()


def _is_trip_count_name(name: str) -> bool:
    return name.startswith("n") and name[1:].isdigit()


def _condition_input(if_op: IfOp, names: dict[SSAValue, str]) -> str:
    """The ``c<k>`` input that decides ``if_op`` (``cmp gt c<k>, 0``, as generated)."""
    cmp = if_op.cond.owner
    if isinstance(cmp, CmpOp) and cmp.predicate.data == "gt" and _is_condition_name(names.get(cmp.lhs, "")):
        threshold = cmp.rhs.owner
        if isinstance(threshold, ConstantOp) and not dense_to_array(threshold.value).any():
            return names[cmp.lhs]
    raise ValueError(f"an nn.if whose condition is not 'cmp gt c<k>, 0' on an input: {if_op.cond}")


def _if_tree(block: Block, names: dict[SSAValue, str]) -> list[_IfNode]:
    """The outermost ifs of ``block`` (and of ops nested in it), in order."""
    found = []
    for op in block.ops:
        if isinstance(op, IfOp):
            inside = tuple(_if_tree(region.block, names) for region in op.branches)
            found.append(_IfNode(_condition_input(op, names), inside))
        else:
            for region in op.regions:
                for inner in region.blocks:
                    found.extend(_if_tree(inner, names))
    return found


def _uncovered(node: _IfNode, taken: bool, covered: set[tuple[str, bool]]) -> int:
    """Outcomes not yet covered that choosing ``taken`` at ``node`` can reach."""
    own = (node.condition, taken) not in covered
    return own + sum(_uncovered(inner, t, covered) for inner in node.inside[not taken] for t in (True, False))


def _cover_pattern(ifs: list[_IfNode], covered: set[tuple[str, bool]], pattern: dict[str, bool]) -> None:
    """Choose outcomes for ``ifs`` and the ifs they reach, each towards the most
    uncovered outcomes (then on ties); mark them covered."""
    for node in ifs:
        taken = _uncovered(node, True, covered) >= _uncovered(node, False, covered)
        pattern[node.condition] = taken
        covered.add((node.condition, taken))
        _cover_pattern(node.inside[not taken], covered, pattern)


def _path(ifs: list[_IfNode], pattern: dict[str, bool]) -> tuple[tuple[str, bool], ...]:
    """The outcomes ``pattern`` runs, in execution order."""
    path: list[tuple[str, bool]] = []
    for node in ifs:
        taken = pattern[node.condition]
        path += [(node.condition, taken), *_path(node.inside[not taken], pattern)]
    return tuple(path)


def _conditions_in(ifs: list[_IfNode]) -> list[str]:
    """The condition inputs of ``ifs`` and of every if inside them."""
    return [name for node in ifs for name in (node.condition, *_conditions_in([*node.inside[0], *node.inside[1]]))]


def covering_input_sets(module: ModuleOp, seed: int = 0, limit: int | None = 16) -> list[dict[str, np.ndarray]]:
    """Input sets that between them take every branch of every if (every outcome
    of a generated program is reachable), then further ones down other paths.

    The first sets are a greedy cover: each walks the ifs it reaches towards the
    most outcomes not yet taken, so together they take both branches of every if
    (usually in far fewer sets than there are paths). Random condition patterns
    down paths not yet run follow, up to ``limit`` sets in all; ``limit=None`` stops
    after the cover. A ``limit`` below the cover's size cuts the cover short (for
    callers that want any input set, not coverage). The data inputs are standard
    normal; a condition input not reached is 1. Raises ``ValueError`` for an if that
    is not decided by its own ``c<k>`` input, as the generator makes them.
    """
    fn = find_function(module)
    data = random_inputs(fn, seed)
    names = dict(zip(input_args(fn), argument_names(fn)))
    ifs = _if_tree(fn.body.block, names)
    conditions = [name for name in data if _is_condition_name(name)]
    deciding = _conditions_in(ifs)
    if len(set(deciding)) < len(deciding):
        raise ValueError("two nn.ifs are decided by the same condition input")
    all_outcomes = {(name, t) for name in deciding for t in (True, False)}
    covered: set[tuple[str, bool]] = set()
    patterns: list[dict[str, bool]] = []
    while covered != all_outcomes or not patterns:
        pattern = dict.fromkeys(conditions, True)
        _cover_pattern(ifs, covered, pattern)
        patterns.append(pattern)
    paths = {_path(ifs, p) for p in patterns}
    rng = random.Random(seed)
    for _ in range(4 * (limit or 0)):
        if len(patterns) >= (limit or 0):
            break
        pattern = {name: rng.random() < 0.5 for name in conditions}
        if _path(ifs, pattern) not in paths:
            paths.add(_path(ifs, pattern))
            patterns.append(pattern)
    trip_counts = [name for name in data if _is_trip_count_name(name)]
    while trip_counts and len(patterns) < len(TRIP_COUNTS):  # every loop 0, 1, 2 and 3 times
        patterns.append(dict(patterns[len(patterns) % len(patterns)]))
    sets = []
    for j, pattern in enumerate(patterns[: limit if not trip_counts else max(limit or 0, len(TRIP_COUNTS))]):
        inputs = dict(data)
        for name, taken in pattern.items():
            inputs[name] = np.array([1.0 if taken else -1.0], dtype=np.float32)
        for name in trip_counts:
            inputs[name] = np.array(TRIP_COUNTS[j % len(TRIP_COUNTS)], dtype=np.int64)
        sets.append(inputs)
    return sets


__all__ = ["GraphShape", "covering_input_sets", "random_graph"]
