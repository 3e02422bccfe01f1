"""The mutation-testing selection plugin (bench/mutation_selection.py): which tests a mutant
runs, in the full round and in the quick round that keeps only the fast ones."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from bench import mutation_selection as selection

TABLE = """
[tool.cfmem.mutation_tests]
"cfmem/passes/place.py" = ["tests/test_fast.py", "tests/test_slow.py::test_budget*"]
"""
TESTS = ["tests/test_fast.py::test_a", "tests/test_slow.py::test_budget_fits", "tests/test_slow.py::test_other",
         "tests/test_unrelated.py::test_b"]  # fmt: skip
DURATIONS = {"tests/test_fast.py::test_a": 0.2, "tests/test_slow.py::test_budget_fits": 30.0}


def collected(tmp_path, monkeypatch, mutant: str, quick: str | None) -> list[str]:
    (tmp_path / "pyproject.toml").write_text(TABLE)
    (tmp_path / "mutmut-stats.json").write_text(json.dumps({"duration_by_test": DURATIONS}))
    monkeypatch.setenv("MUTANT_UNDER_TEST", mutant)
    if quick is None:
        monkeypatch.delenv("CFMEM_MUTATION_QUICK_SECONDS", raising=False)
    else:
        monkeypatch.setenv("CFMEM_MUTATION_QUICK_SECONDS", quick)
    monkeypatch.delenv("CFMEM_MUTATION_MODULES", raising=False)
    items = [SimpleNamespace(nodeid=t) for t in TESTS]
    deselected = []
    config = SimpleNamespace(rootpath=tmp_path, hook=SimpleNamespace(pytest_deselected=lambda items: deselected.extend(items)))
    selection.pytest_collection_modifyitems(config, items)
    assert {i.nodeid for i in deselected} | {i.nodeid for i in items} == set(TESTS)
    return [i.nodeid for i in items]


def test_a_mutant_runs_its_modules_tests_and_node_id_patterns_pick_tests_of_a_file(tmp_path, monkeypatch):
    got = collected(tmp_path, monkeypatch, "cfmem.passes.place.x_shrink__mutmut_3", None)
    assert got == ["tests/test_fast.py::test_a", "tests/test_slow.py::test_budget_fits"]


def test_the_quick_round_drops_tests_slower_than_its_limit(tmp_path, monkeypatch):
    got = collected(tmp_path, monkeypatch, "cfmem.passes.place.x_shrink__mutmut_3", "2")
    assert got == ["tests/test_fast.py::test_a"]


@pytest.mark.parametrize("quick", [None, "2"])
def test_outside_a_mutant_every_tested_module_keeps_all_its_tests(tmp_path, monkeypatch, quick):
    """The stats run must time the slow tests too, or the quick round could not tell them."""
    got = collected(tmp_path, monkeypatch, "", quick)
    assert got == ["tests/test_fast.py::test_a", "tests/test_slow.py::test_budget_fits"]


def test_module_path_of_a_method_mutant():
    assert selection.module_path("cfmem.importers.onnx.qdq.x\u01c1_Graph\u01c1scalar__mutmut_3") == "cfmem/importers/onnx/qdq.py"


@pytest.mark.parametrize("args", [["check-arena", "--help"], ["check-arena", "no-such-file.mlir"], ["--version"]])
def test_under_a_mutant_the_command_runs_in_the_test_process_with_the_same_output(monkeypatch, tmp_path, args):
    """mutmut maps a function to the tests that call it in the test process only, so the
    ``cfmem`` fixture runs the command in process under a mutant; its result must not change."""
    from conftest import run_cfmem

    from cfmem.tools import cli

    monkeypatch.delenv("MUTANT_UNDER_TEST", raising=False)
    child = run_cfmem(*args, cwd=tmp_path, process=True)
    calls = []
    real_main = cli.main
    monkeypatch.setattr(cli, "main", lambda argv: calls.append(argv) or real_main(argv))
    monkeypatch.setenv("MUTANT_UNDER_TEST", "cfmem.passes.place.x_nothing__mutmut_1")
    here = run_cfmem(*args, cwd=tmp_path, process=True)
    assert calls == [args]
    assert (here.returncode, here.stdout, here.stderr) == (child.returncode, child.stdout, child.stderr)
