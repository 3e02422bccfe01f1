"""Pass options checked by the rules the command line uses too.

The rules live in ``cfmem.planning.option_checks``; here a broken rule
becomes the ``PassFailedException`` that ``xdsl-opt`` and ``cfmem`` report.
"""

from collections.abc import Iterator
from contextlib import contextmanager

from xdsl.utils.exceptions import PassFailedException

from cfmem.planning.option_checks import OptionError


@contextmanager
def checked_options() -> Iterator[None]:
    """Run option checks; an ``OptionError`` fails the pass with its message."""
    try:
        yield
    except OptionError as err:
        raise PassFailedException(str(err)) from None
