"""A pytest plugin that runs, for each mutmut mutant, only its module's tests.

mutmut runs every selected test that calls the mutated function; a planner test
calls the plan verifier too, so a verifier mutant would wait on hundreds of
planner tests. ``[tool.cfmem.mutation_tests]`` in pyproject.toml maps a module
(path glob) to the test files that target it; while mutmut tests a mutant
(``MUTANT_UNDER_TEST`` names one), tests outside its module's files are
deselected. In every other run mutmut makes (stats collection, the clean run,
listing tests) only tests in some module's files are kept, so the table is the
one place that says which tests mutation testing uses; mutmut itself collects
all of ``tests/``.

Loaded by mutmut through ``pytest_add_cli_args = ["-p", "bench.mutation_selection"]``.
"""

from __future__ import annotations

import fnmatch
import os
import tomllib
from pathlib import Path

MUTANT_MARK = "__mutmut_"


def module_path(mutant_name: str) -> str:
    """``cfmem.dma.hazards.x_check__mutmut_3`` -> ``cfmem/dma/hazards.py``."""
    stem = mutant_name.partition(MUTANT_MARK)[0]
    parts = stem.split(".")
    while parts and not parts[-1].startswith(("x_", "x\u01c1")):
        parts.pop()
    return "/".join(parts[:-1]) + ".py"


def load_table(pyproject: Path) -> dict[str, list[str]]:
    data = tomllib.loads(pyproject.read_text())
    return data.get("tool", {}).get("cfmem", {}).get("mutation_tests", {})


def test_files_for(mutant_name: str, table: dict[str, list[str]]) -> list[str] | None:
    """The test files of the first entry matching the mutant's module; None if none does."""
    path = module_path(mutant_name)
    for pattern, files in table.items():
        if fnmatch.fnmatch(path, pattern):
            return files
    return None


def pytest_collection_modifyitems(config, items):
    mutant = os.environ.get("MUTANT_UNDER_TEST", "")
    table = load_table(Path(config.rootpath) / "pyproject.toml")
    if MUTANT_MARK in mutant:
        files = test_files_for(mutant, table)
        if files is None:
            return
    else:
        files = sorted({f for entry in table.values() for f in entry})
    keep, drop = [], []
    for item in items:
        test_file = item.nodeid.split("::", 1)[0]
        (keep if any(fnmatch.fnmatch(test_file, f) for f in files) else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
