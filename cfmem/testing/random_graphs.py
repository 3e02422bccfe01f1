"""Random nn programs with nested control flow, for differential and property tests.

A program is built with :class:`cfmem.builder.GraphBuilder` from a ``random.Random``
(so hypothesis can drive it with ``st.randoms()``). It mixes image-like
``1 x C x H x W`` and vector-like ``1 x F`` values; values are reused several times,
values defined above are read deep inside branches, some results are never used,
branches differ in size and weights range from a few bytes to tens of kilobytes.

Every ``nn.if`` is controlled by its own function input ``c<k>`` (shape ``[1]``, taken
when positive), so :func:`covering_input_sets` can reach every branch outcome directly.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import product

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import OpResult, SSAValue

from cfmem.builder import GraphBuilder
from cfmem.interp.golden import find_function, random_inputs


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


class _Generator:
    def __init__(self, rng: random.Random, limits: GraphShape, name: str):
        self.rng = rng
        self.limits = limits
        self.b = GraphBuilder(name, seed=rng.randrange(1 << 16), align=rng.choice((4, 16, 64)))
        self.ifs_left = limits.ifs
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

    def random_op(self, depth: int) -> None:
        rng, b = self.rng, self.b
        if self.ifs_left > 0 and depth < self.limits.depth and rng.random() < 0.25:
            self.random_if(depth)
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

    def random_if(self, depth: int) -> None:
        rng, b = self.rng, self.b
        self.ifs_left -= 1
        k = self.limits.ifs - self.ifs_left - 1
        cond = b.cmp("gt", b.input(f"c{k}", (1,)), 0.0, name=f"take{k}")
        choices = self.visible()
        result_shapes = [b.shape(rng.choice(choices)) for _ in range(rng.choice((0, 1, 1, 2)))]

        def branch(_: GraphBuilder) -> list[SSAValue]:
            self.scopes.append([])
            try:
                for _ in range(rng.randint(0, self.limits.branch_ops)):
                    self.random_op(depth + 1)
                return [self.make_like(s) for s in result_shapes]
            finally:
                self.scopes.pop()

        for value in b.if_(cond, branch, branch, name=f"if{k}"):
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
        for _ in range(self.limits.ops):
            self.random_op(0)
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


def covering_input_sets(module: ModuleOp, seed: int = 0, limit: int = 16) -> list[dict[str, np.ndarray]]:
    """Input sets that between them take every branch of every if.

    All condition patterns when there are at most four ifs, else all-taken,
    none-taken and random patterns until every outcome of every if has been
    chosen (at most ``limit`` sets). The data inputs are standard normal.
    """
    fn = find_function(module)
    data = random_inputs(fn, seed)
    conds = sorted(name for name in data if name.startswith("c") and name[1:].isdigit())
    if len(conds) <= 4:
        patterns = list(product((True, False), repeat=len(conds)))
    else:
        rng = np.random.default_rng(seed)
        patterns = [(True,) * len(conds), (False,) * len(conds)]
        while len(patterns) < limit:
            patterns.append(tuple(bool(t) for t in rng.integers(0, 2, len(conds))))
    sets = []
    for pattern in patterns[:limit] or [()]:
        inputs = dict(data)
        for name, taken in zip(conds, pattern):
            inputs[name] = np.array([1.0 if taken else -1.0], dtype=np.float32)
        sets.append(inputs)
    return sets


__all__ = ["GraphShape", "covering_input_sets", "random_graph"]
