"""The rules for planning and DMA options, shared by the passes and the CLI.

Each check takes the option's name as the caller spells it (``time-limit`` in
a pass pipeline, ``--time-limit`` on the command line) and raises
``OptionError`` with a one-line message naming it. A budget is ``None`` when
there is none; 0 is a real budget of 0 bytes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence


class OptionError(ValueError):
    """Option ``option`` breaks its rule; ``str()`` names the option, ``rule`` does not."""

    def __init__(self, option: str, rule: str, message: str | None = None):
        super().__init__(message or f"{option} {rule}")
        self.option = option
        self.rule = rule


def check_choice(what: str, value: str, choices: Sequence[str]) -> None:
    """``value`` must be one of ``choices``."""
    if value not in choices:
        message = f"unknown {what.removeprefix('--')} '{value}' (choose from {', '.join(choices)})"
        raise OptionError(what, message, message)


def check_at_least(name: str, value: int, minimum: int, why: str = "") -> None:
    """``value`` must be an integer (not a bool) of at least ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise OptionError(name, f"must be an integer, not {value!r}")
    if value < minimum:
        raise OptionError(name, f"must be at least {minimum}{f' ({why})' if why else ''}, not {value}")


def check_align(name: str, value: int) -> None:
    check_at_least(name, value, 1)


def check_power_of_two_align(name: str, value: int) -> None:
    """An alignment that memory must honour (a ``memref.global``'s): a power of two."""
    check_align(name, value)
    if value & (value - 1):
        raise OptionError(name, f"must be a power of two (an arena's alignment), not {value}")


def check_index_bitwidth(name: str, value: int) -> None:
    """Bits of an ``index``: a whole number of bytes."""
    check_at_least(name, value, 8)
    if value % 8:
        raise OptionError(name, f"must be a multiple of 8 (whole bytes), not {value}")


def check_beam_width(name: str, value: int) -> None:
    check_at_least(name, value, 1)


def check_depth(name: str, value: int) -> None:
    """Buffers in a ping-pong rotation."""
    check_at_least(name, value, 2, "two buffers make ping-pong")


def check_loop_trips(name: str, value: int) -> None:
    """Iterations assumed for a loop: 0 or more."""
    check_at_least(name, value, 0, "a loop runs 0 or more iterations")


def check_time_limit(name: str, value: float) -> None:
    """Seconds: a finite number above 0."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise OptionError(name, f"must be a number of seconds, not {value!r}")
    if not (math.isfinite(value) and value > 0):
        raise OptionError(name, f"must be a positive number of seconds, not {value:g}")


I64_MAX = 2**63 - 1


def check_stored_budget(name: str, value: int | None) -> None:
    """A budget that is stored on the IR as an i64 (``cfmem.onchip_budget``)."""
    check_budget(name, value)
    if value is not None and value > I64_MAX:
        raise OptionError(name, f"must be at most {I64_MAX} bytes, not {value}")


def check_budget(name: str, value: int | None) -> None:
    """Bytes, or ``None`` for no budget."""
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int):
        raise OptionError(name, f"must be a number of bytes, not {value!r}")
    if value < 0:
        raise OptionError(name, f"must not be negative, not {value}")
