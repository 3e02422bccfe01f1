"""Readable, unique names for SSA values, for reports and planning ids."""

from __future__ import annotations

from xdsl.ir import SSAValue


class ValueNames:
    """Names each value once: ``prefix`` + its name hint (or ``fallback`` + a
    number), with ``separator`` + a counter appended when that is taken."""

    def __init__(self, separator: str = "_", fallback: str = "t", prefix: str = ""):
        self.separator = separator
        self.prefix = prefix
        self.fallback = fallback
        self.names: dict[SSAValue, str] = {}
        self.taken: set[str] = set()
        self.counters: dict[str, int] = {}
        """Base -> the counter of its last suffixed name: names are never freed, so the
        next free counter of a base is above it."""

    def __call__(self, value: SSAValue) -> str:
        name = self.names.get(value)
        if name is None:
            base = self.prefix + (value.name_hint or f"{self.fallback}{len(self.taken)}")
            name, n = base, self.counters.get(base, 0)
            while name in self.taken:
                n += 1
                name = f"{base}{self.separator}{n}"
            if n:
                self.counters[base] = n
            self.taken.add(name)
            self.names[value] = name
        return name
