"""Pausing Python's cyclic garbage collector around work that only allocates.

Building many long-lived objects (placements, compiled steps, new ops) triggers
collections that rescan every tracked object, a large module included, again and
again, and find nothing to free. Reference counting still frees what it can.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def cyclic_gc_paused() -> Iterator[None]:
    """Run the block with the cyclic collector off; restore its state after."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
