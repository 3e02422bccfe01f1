"""A pytest plugin that runs, for each mutmut mutant, only its module's tests.

mutmut runs every selected test that calls the mutated function; a planner test
calls the plan verifier too, so a verifier mutant would wait on hundreds of
planner tests. ``[tool.cfmem.mutation_tests]`` in pyproject.toml maps a module
(path glob) to the test files that target it (a pattern with ``::`` selects tests
of a file by node id, e.g. ``tests/test_x.py::test_fast*``); while mutmut tests a mutant
(``MUTANT_UNDER_TEST`` names one), tests outside its module's files are
deselected. In every other run mutmut makes (stats collection, the clean run,
listing tests) only tests in some module's files are kept (in the files of the
modules named by ``CFMEM_MUTATION_MODULES``, when ``make mutation MODULE=...`` sets it), so the table is the
one place that says which tests mutation testing uses; mutmut itself collects
all of ``tests/``.

A quick round (``CFMEM_MUTATION_QUICK_SECONDS`` set, as ``make mutation`` does first) keeps
only the tests that took at most that many seconds in mutmut's stats run
(``mutmut-stats.json``), so most mutants are killed in a second; the mutants that survive
it, or that no quick test reaches (pytest's exit 5), run again with every test of the table.

Loaded by mutmut through ``pytest_add_cli_args = ["-p", "bench.mutation_selection"]``.
"""

from __future__ import annotations

import fnmatch
import json
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
    return test_files_for_module(module_path(mutant_name), table)


def tables_in_scope(table: dict[str, list[str]]) -> list[list[str]]:
    """The test files of the modules in ``CFMEM_MUTATION_MODULES`` (paths separated by spaces,
    set by ``make mutation MODULE=...``), or of every module when it is unset."""
    modules = os.environ.get("CFMEM_MUTATION_MODULES", "").split()
    if not modules:
        return list(table.values())
    return [files for module in modules if (files := test_files_for_module(module, table)) is not None]


def test_files_for_module(module: str, table: dict[str, list[str]]) -> list[str] | None:
    """The test files of the first entry matching a module path; None if none does."""
    for pattern, files in table.items():
        if fnmatch.fnmatch(module, pattern):
            return files
    return None


def selects(pattern: str, nodeid: str) -> bool:
    """A file pattern selects every test of its files; a ``file::name`` pattern matches node ids."""
    if "::" in pattern:
        return fnmatch.fnmatchcase(nodeid, pattern)
    return fnmatch.fnmatch(nodeid.split("::", 1)[0], pattern)


def pytest_collection_modifyitems(config, items):
    mutant = os.environ.get("MUTANT_UNDER_TEST", "")
    table = load_table(Path(config.rootpath) / "pyproject.toml")
    if MUTANT_MARK in mutant:
        files = test_files_for(mutant, table)
        if files is None:
            return
    else:
        files = sorted({f for entry in tables_in_scope(table) for f in entry})
    quick = quick_limit() if MUTANT_MARK in mutant else None
    durations = recorded_durations(Path(config.rootpath)) if quick is not None else {}
    keep, drop = [], []
    for item in items:
        wanted = any(selects(f, item.nodeid) for f in files)
        if quick is not None and durations.get(item.nodeid, 0.0) > quick:
            wanted = False
        (keep if wanted else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def quick_limit() -> float | None:
    """The quick round's limit in seconds per test, or None outside a quick round."""
    value = os.environ.get("CFMEM_MUTATION_QUICK_SECONDS", "")
    return float(value) if value else None


def recorded_durations(root: Path) -> dict[str, float]:
    """Seconds per test node id from mutmut's stats run (empty before there is one)."""
    stats = root / "mutmut-stats.json"
    if not stats.exists():
        return {}
    return json.loads(stats.read_text()).get("duration_by_test", {})
