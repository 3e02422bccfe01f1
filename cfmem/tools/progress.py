"""Progress on standard error, shown only when it is a terminal: the placements a search
has measured, or the steps of a command that takes seconds."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO


class _Counting(dict):
    """A store of measured placements (cfmem.passes.place_measure.Measured) that counts each new one
    on a progress bar."""

    def __init__(self, bar):
        super().__init__()
        self.bar = bar

    def __setitem__(self, key, value) -> None:
        super().__setitem__(key, value)
        self.bar.update(1)


@contextmanager
def placement_progress(what: str, stream: TextIO | None = None) -> Iterator[dict]:
    """A store to pass as ``measured`` to cfmem.fit's compiles: while the block runs, a tqdm
    counter of the placements measured on ``stream`` (default standard error) when it is a
    terminal, cleared at the end; else a plain store and nothing written."""
    stream = sys.stderr if stream is None else stream
    if not stream.isatty():
        yield {}
        return
    from tqdm import tqdm

    with tqdm(desc=what, unit=" placements", file=stream, leave=False, dynamic_ncols=True) as bar:
        yield _Counting(bar)


@contextmanager
def step_progress(what: str, steps: int, stream: TextIO | None = None) -> Iterator[Callable[[str], None]]:
    """A function ``step(label)`` to call before each of ``steps`` steps: while the block runs,
    a tqdm bar of the steps begun, showing the label, on ``stream`` (default standard error)
    when it is a terminal, cleared at the end; else a function that writes nothing."""
    stream = sys.stderr if stream is None else stream
    if not stream.isatty():
        yield lambda label: None
        return
    from tqdm import tqdm

    with tqdm(desc=what, total=steps, unit=" steps", file=stream, leave=False, dynamic_ncols=True) as bar:
        begun = [0]

        def step(label: str) -> None:
            if begun[0]:
                bar.update(1)
            begun[0] += 1
            bar.set_postfix_str(label)

        yield step
