"""Readable, unique names for SSA values, for reports and planning ids."""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.ir import Operation, SSAValue


def defined_values(scope: Operation) -> Iterator[SSAValue]:
    """The values defined inside ``scope``, in the order the printer numbers them:
    each block's arguments, then each op's results before the values inside its regions."""
    for region in scope.regions:
        for block in region.blocks:
            yield from block.args
            for op in block.ops:
                yield from op.results
                yield from defined_values(op)


class ValueNames:
    """Names each value once: ``prefix`` + its name hint (or ``fallback`` + the number
    of values named by ``fallback`` before it), with ``separator`` + a counter appended
    when that is taken.

    Names depend on the order values are first asked for. Given a ``scope``, every
    value defined in it is named up front, in ``defined_values`` order: a value's name
    then depends only on the IR, not on which values are asked for or when, so
    analyses of the same function that name different subsets agree (an unnamed
    value is ``fallback`` + the number the printer gives it, ``t3`` for ``%3``).
    """

    def __init__(self, separator: str = "_", fallback: str = "t", prefix: str = "", scope: Operation | None = None):
        self.separator = separator
        self.prefix = prefix
        self.fallback = fallback
        self.names: dict[SSAValue, str] = {}
        self.taken: set[str] = set()
        self.counters: dict[str, int] = {}
        """Base -> the counter of its last suffixed name: names are never freed, so the
        next free counter of a base is above it."""
        self.unnamed = 0
        """Values named by ``fallback`` so far."""
        if scope is not None:
            for value in defined_values(scope):
                self(value)

    def __call__(self, value: SSAValue) -> str:
        name = self.names.get(value)
        if name is None:
            hint = value.name_hint
            if hint is None:
                hint = f"{self.fallback}{self.unnamed}"
                self.unnamed += 1
            base = self.prefix + hint
            name, n = base, self.counters.get(base, 0)
            while name in self.taken:
                n += 1
                name = f"{base}{self.separator}{n}"
            if n:
                self.counters[base] = n
            self.taken.add(name)
            self.names[value] = name
        return name
