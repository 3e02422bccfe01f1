"""The lowering's regression files (``lit_tests/lowering``) with ``xdsl-opt`` run in this
process and ``filecheck`` on its output, as lit runs them. lit starts ``xdsl-opt`` as a
program of its own; here the passes run inside the test, so that mutation testing, which maps
a function only to the tests that call it in process, counts these files too (the printed
names, loop bounds and steps they pin)."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from xdsl.xdsl_opt_main import xDSLOptMain

LOWERING = Path(__file__).resolve().parent.parent / "lit_tests" / "lowering"
FILECHECK = Path(sys.executable).parent / "filecheck"


def _one_stage(path: Path) -> list[str] | None:
    """The xdsl-opt arguments of ``path``'s RUN line when it pipes one xdsl-opt into filecheck."""
    line = re.search(r"// RUN: (.*)", path.read_text())
    stages = [s.strip() for s in line.group(1).split("|")] if line else []
    if len(stages) != 2 or not stages[0].startswith("xdsl-opt ") or stages[1] != "filecheck %s":
        return None
    return [str(path) if a == "%s" else a for a in shlex.split(stages[0])[1:]]


FILES = sorted(p for p in LOWERING.glob("*.mlir") if _one_stage(p) is not None)


def test_the_lowering_files_are_found():
    assert {p.name for p in FILES} >= {"lower_loop.mlir", "lower_to_memref.mlir", "lower_to_memref_dma.mlir"}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_a_lowering_file_passes_filecheck_with_the_passes_run_in_process(path, tmp_path):
    out = tmp_path / "out.mlir"
    xDSLOptMain(args=[*_one_stage(path), "-o", str(out)]).run()
    with out.open() as stdin:
        checked = subprocess.run([str(FILECHECK), str(path)], stdin=stdin, capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr[-2000:]
