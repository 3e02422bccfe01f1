"""Reading an op's attributes as Python values, for the kernels."""

from __future__ import annotations


def _ints(attr) -> tuple[int, ...]:
    return tuple(int(v) for v in attr.get_values())
