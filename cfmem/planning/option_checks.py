"""The rules for planning and DMA options, shared by the passes and the CLI.

Each check takes the option's name as the caller spells it (``time-limit`` in
a pass pipeline, ``--time-limit`` on the command line) and raises
``OptionError`` with a one-line message naming it. A budget is ``None`` when
there is none; 0 is a real budget of 0 bytes.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Sequence


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


I64_MAX = 2**63 - 1
"""The largest integer any option or chip field may take: the IR stores budgets, sizes and
offsets as i64, and the planners and the timing model compute in int64."""

MAX_DEPTH = 1 << 16
"""Buffers in a DMA rotation at most (each is a slot every segment of weights keeps)."""


def check_int(name: str, value: object, minimum: int, maximum: int = I64_MAX, why: str = "") -> None:
    """The one rule of every integer option and chip field: an integer (not a bool) from
    ``minimum`` to ``maximum``, or ``<name> must be an integer from <minimum> to <maximum>
    (<why>), not <value>``."""
    if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= maximum:
        reason = f" ({why})" if why else ""
        raise OptionError(name, f"must be an integer from {minimum} to {maximum}{reason}, not {value!r}")


class RuleTypeError(argparse.ArgumentTypeError):
    """An option's value broke its rule while argparse parsed it (``parsed_int``)."""


def parsed_int(check: Callable[[str, object], None]) -> Callable[[str], int]:
    """An argparse ``type=`` that parses an integer option and applies ``check`` (one of the
    rules here) to it: the option is range-checked where it is parsed. A broken rule raises
    ``RuleTypeError``, which cfmem's parser reports as the rule alone, as if checked later."""

    def parse(text: str) -> int:
        try:
            value: object = int(text)
        except ValueError:
            value = text
        try:
            check("", value)
        except OptionError as err:
            raise RuleTypeError(err.rule) from None
        return value  # type: ignore[return-value]

    parse.__name__ = "integer"
    return parse


def check_align(name: str, value: int) -> None:
    check_int(name, value, 1)


def check_power_of_two_align(name: str, value: int) -> None:
    """An alignment that memory must honour (a ``memref.global``'s): a power of two."""
    check_align(name, value)
    if value & (value - 1):
        raise OptionError(name, f"must be a power of two (an arena's alignment), not {value}")


def check_index_bitwidth(name: str, value: int) -> None:
    """Bits of an ``index``: a whole number of bytes."""
    check_int(name, value, 8)
    if value % 8:
        raise OptionError(name, f"must be a multiple of 8 (whole bytes), not {value}")


def check_beam_width(name: str, value: int) -> None:
    check_int(name, value, 1)


def check_depth(name: str, value: int) -> None:
    """Buffers in a ping-pong rotation."""
    check_int(name, value, 2, MAX_DEPTH, "two buffers make ping-pong")


def check_loop_trips(name: str, value: int) -> None:
    """Iterations assumed for a loop: 0 or more."""
    check_int(name, value, 0, why="a loop runs 0 or more iterations")


def check_seed(name: str, value: int) -> None:
    """A seed of random inputs (numpy's are not negative)."""
    check_int(name, value, 0)


MAX_SETS = 1 << 16
"""Input sets one check runs at most (each is a run under upstream MLIR's JIT)."""


def check_sets(name: str, value: int) -> None:
    """Random input sets of a check."""
    check_int(name, value, 1, MAX_SETS)


def check_time_limit(name: str, value: float) -> None:
    """Seconds: a finite number above 0."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise OptionError(name, f"must be a number of seconds, not {value!r}")
    if not (math.isfinite(value) and value > 0):
        raise OptionError(name, f"must be a positive number of seconds, not {value:g}")


def check_budget(name: str, value: int | None) -> None:
    """Bytes, or ``None`` for no budget."""
    if value is not None:
        check_int(name, value, 0)


MIN_RATE, MAX_RATE = 1e-9, 1e9
"""Rates of a chip (bytes or MACs per cycle, MHz) from a byte per billion cycles to a billion
per cycle: below, the cycles of an int64 byte count overflow a float."""


def check_rate(name: str, value: object) -> None:
    """A rate of a chip: a number (not a bool) from ``MIN_RATE`` to ``MAX_RATE``."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not MIN_RATE <= value <= MAX_RATE:
        raise OptionError(name, f"must be a number from {MIN_RATE:g} to {MAX_RATE:g}, not {value!r}")
