"""Checks of pass options that xDSL's option parser cannot express."""

from collections.abc import Sequence

from xdsl.utils.exceptions import PassFailedException


def check_choice(what: str, value: str, choices: Sequence[str]) -> None:
    """Fail the pass unless ``value`` is one of ``choices``."""
    if value not in choices:
        raise PassFailedException(f"unknown {what} '{value}' (choose from {', '.join(choices)})")
