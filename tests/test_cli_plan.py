"""``cfmem plan`` end to end: summary, JSON, solution file, budget, bad input."""

import csv
import json
import re
import time
from pathlib import Path

import pytest

from cfmem.planning.csvio import read_problem_csv
from cfmem.planning.problem import Buffer, lower_bound, peak_of
from cfmem.planning.verify import verify_plan
from conftest import DOC_PAGES, ROOT

BENCHMARKS = ROOT / "benchmarks"
A = BENCHMARKS / "minimalloc" / "A.1048576.csv"
INPUT12 = BENCHMARKS / "minimalloc" / "input.12.csv"


def read_solution(path: Path) -> tuple[list[Buffer], dict[str, int]]:
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    buffers = [Buffer(r["id"], int(r["lower"]), int(r["upper"]), int(r["size"])) for r in rows]
    return buffers, {r["id"]: int(r["offset"]) for r in rows}


def test_summary(cfmem):
    res = cfmem("plan", str(A), "--strategy", "large-first")
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert lines[0] == "A.1048576.csv: 154 buffers, strategy large-first"
    assert lines[1].startswith("peak 1352704 bytes, lower bound 1048576 bytes, gap 29.00 %, ")
    assert lines[1].endswith(" s")
    assert "proven optimal" not in res.stdout
    assert res.stderr == ""


def test_summary_says_when_optimal(cfmem):
    res = cfmem("plan", str(INPUT12), "--strategy", "large-first")
    assert res.returncode == 0, res.stderr
    assert "peak 12 bytes, lower bound 12 bytes, gap 0.00 %" in res.stdout
    assert res.stdout.splitlines()[-1] == "proven optimal"


def test_auto_names_the_strategy_it_chose(cfmem):
    res = cfmem("plan", str(A))
    assert res.returncode == 0, res.stderr
    assert "strategy auto (large-first)" in res.stdout


def test_json_agrees_with_the_output_csv(cfmem, tmp_path):
    out = tmp_path / "A.solution.csv"
    began = time.perf_counter()
    res = cfmem("plan", str(A), "--strategy", "best-fit", "--json", "-o", str(out))
    wall = time.perf_counter() - began
    assert res.returncode == 0, res.stderr
    result = json.loads(res.stdout)  # one object, nothing else
    assert {"peak", "lower_bound", "gap_pct", "seconds", "proven_optimal", "strategy", "buffers", "file"} <= set(result)
    assert result["strategy"] == "best-fit"
    assert result["buffers"] == 154
    assert result["file"] == str(A)
    assert result["proven_optimal"] is False
    assert isinstance(result["seconds"], float)
    assert 0 < result["seconds"] <= wall  # planning time, inside the command's own run
    buffers, offsets = read_solution(out)
    problem = read_problem_csv(A)
    assert buffers == problem.buffers  # every buffer, in input order
    verify_plan(buffers, offsets)
    assert result["peak"] == peak_of(buffers, offsets)
    assert result["lower_bound"] == lower_bound(buffers) == 1048576
    assert result["gap_pct"] == pytest.approx(100 * (result["peak"] - 1048576) / 1048576, abs=1e-3)


def test_output_file_and_alignment(cfmem, tmp_path):
    out = tmp_path / "sol.csv"
    res = cfmem("plan", str(INPUT12), "--strategy", "sequential", "--align", "16", "-o", str(out))
    assert res.returncode == 0, res.stderr
    assert f"wrote {out}" in res.stdout
    buffers, offsets = read_solution(out)
    assert all(offset % 16 == 0 for offset in offsets.values())
    verify_plan(buffers, offsets)
    assert [p.name for p in tmp_path.iterdir()] == ["sol.csv"]  # no temporary left behind


def test_budget_exceeded_is_one_line_and_writes_nothing(cfmem, tmp_path):
    out = tmp_path / "sol.csv"
    res = cfmem("plan", str(A), "--strategy", "large-first", "--budget", "1100000", "-o", str(out))
    assert res.returncode == 1
    assert res.stdout == ""
    assert res.stderr.count("\n") == 1
    assert "peak 1352704 bytes exceeds the budget of 1100000 bytes" in res.stderr
    assert "lower bound 1048576 bytes" in res.stderr
    assert list(tmp_path.iterdir()) == []


def test_budget_met(cfmem):
    res = cfmem("plan", str(A), "--strategy", "large-first", "--budget", "1352704", "--json")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["peak"] == 1352704


@pytest.mark.parametrize(
    "content, message",
    [
        ("id,lower,upper,size\na,0,2,8\nb,1,zz,8\n", "bad.csv: error: row 3: upper 'zz' is not an integer"),
        ("id,lower,upper,size\na,0,2,8\na,1,3,8\n", "bad.csv: error: row 3: duplicate id 'a'"),
        ("id,lower,upper\na,0,2\n", "bad.csv: error: row 1: missing column 'size'"),
        ("id,lower,upper,size\na,0,2,8,1\n", "bad.csv: error: row 2: 5 fields, but the header has 4"),
        ("", "bad.csv: error: empty file"),
    ],
)
def test_bad_csv_is_one_line(cfmem, tmp_path, content, message):
    bad = tmp_path / "bad.csv"
    bad.write_text(content)
    out = tmp_path / "out.csv"
    res = cfmem("plan", str(bad), "-o", str(out))
    assert res.returncode == 1
    assert res.stderr.startswith("cfmem: ")
    assert message in res.stderr
    assert res.stderr.count("\n") == 1
    assert "Traceback" not in res.stderr
    assert not out.exists()


def test_missing_file_is_one_line(cfmem, tmp_path):
    res = cfmem("plan", str(tmp_path / "none.csv"))
    assert res.returncode == 1
    assert "none.csv: error: cannot read" in res.stderr
    assert res.stderr.count("\n") == 1


@pytest.mark.parametrize(
    "option, message",
    [(["--align", "0"], "--align: error: must be an integer from 1 to 9223372036854775807, not 0"),
     (["--budget", "-5"], "--budget: error: must be an integer from 0 to 9223372036854775807, not -5")],
)
def test_bad_options(cfmem, option, message):
    res = cfmem("plan", str(INPUT12), *option)
    assert res.returncode == 1
    assert message in res.stderr


def test_unknown_strategy_is_refused(cfmem):
    res = cfmem("plan", str(INPUT12), "--strategy", "magic")
    assert res.returncode == 1 and res.stderr.startswith("cfmem: --strategy: error: ")
    assert "invalid choice: 'magic'" in res.stderr


def test_documented_plan_commands_run_on_the_problems_shipped_in_the_repository(cfmem, tmp_path):
    pages = "\n".join(page.read_text() for page in DOC_PAGES)  # README.md and docs/*.md
    commands = re.findall(r"^cfmem plan (\S+\.csv)", pages, re.M)
    assert commands
    for relative in commands:
        problem = (ROOT / relative).resolve()
        assert problem.is_relative_to(ROOT), f"{relative} lies outside the repository"
        res = cfmem("plan", relative, "--strategy", "large-first", "-o", str(tmp_path / "out.csv"), cwd=ROOT)
        assert res.returncode == 0, res.stderr


def test_every_shipped_problem_is_documented_and_read():
    provenance = (BENCHMARKS / "PROVENANCE.md").read_text()
    files = sorted(BENCHMARKS.glob("*/*.csv"))
    assert len(files) == 22
    for path in files:
        assert f"`{path.parent.name}/`" in provenance
        assert read_problem_csv(path).buffers
