"""Turn mutmut's results into bench/results/mutation.md.

Reads mutmut's own result store (``mutants/<module>.py.meta``, the exit code of
every mutant) and its diffs (``mutmut.mutation.diff_apply``), so it must run
from the repository root after ``mutmut run``. Each module's counts and
survivors are kept in ``bench/results/mutation.json``: a module with results in
``mutants/`` replaces its record there, every other module keeps the record of
its last run, so modules can be run one at a time (``make mutation
MODULE=cfmem/passes/place.py``) on different days and machines. Each surviving
mutant gets a row with its line, the mutation and the explanation from
``bench/mutation_survivors.toml`` (keyed by mutant name); a survivor without one
is marked UNEXPLAINED.

A module listed under ``[tool.cfmem.mutation_functions]`` in pyproject.toml is
mutated in those functions only (``--patterns`` prints mutmut's name patterns).

Kill rate = (killed + timeout + segfault) / checked, where checked excludes
mutants not run yet; a timeout is a mutant that made its tests hang, a segfault
one that made the test process die by a signal (SIGSEGV, or SIGKILL from the
out-of-memory killer), so they caught it. The last column leaves out the
survivors explained as equivalent (no input can tell them from the original):
100 % there means every mutant that can be caught is.

    .venv/bin/python bench/mutation_report.py [--out bench/results/mutation.md]
    .venv/bin/python bench/mutation_report.py --patterns cfmem/passes/place.py
"""

from __future__ import annotations

import argparse
import ast
import fnmatch
import hashlib
import json
import os
import sys
import tempfile
import tomllib
from collections import Counter
from pathlib import Path

from mutmut.configuration import config
from mutmut.mutation.data import SourceFileMutationData
from mutmut.mutation.diff_apply import get_diff_for_mutant
from mutmut.stats import status_by_exit_code
from mutmut.utils.format_utils import orig_function_and_class_names_from_key

ROOT = Path(__file__).resolve().parent.parent
NOTES = ROOT / "bench" / "mutation_survivors.toml"
PYTEST_NO_TESTS = 5
"""pytest's exit code when no test was selected: in a quick round, no quick test reached the mutant."""
RECORDS = ROOT / "bench" / "results" / "mutation.json"
PYPROJECT = ROOT / "pyproject.toml"

CHECKERS = [
    "cfmem/planning/verify.py",
    "cfmem/dma/hazards.py",
    "cfmem/dma/flat_hazards.py",
    "cfmem/interp/flat/memory.py",
    "cfmem/interp/flat/machine.py",
    "cfmem/interp/flat/compiler.py",
    "cfmem/interp/flat/loops.py",
    "cfmem/interp/flat/transfers.py",
    "cfmem/interp/flat/interpreter.py",
    "cfmem/tools/check_arena.py",
    "cfmem/weight_file.py",
]
"""Modules held to no surviving mutant but equivalent ones."""

DETECTED = ("killed", "timeout", "segfault")
"""Outcomes where the selected tests did not pass: the mutant was caught."""


def module_paths() -> list[Path]:
    """Every module mutmut is configured to mutate, checkers first."""
    paths = sorted({p for p in _walk(config().source_paths) if config().should_mutate(p)}, key=str)
    checkers = [Path(p) for p in CHECKERS if Path(p) in paths]
    rest = [p for p in paths if p not in checkers and p.name != "__init__.py"]
    return checkers + rest


def _walk(roots: list[Path]) -> list[Path]:
    return [p for root in roots for p in sorted(Path(root).rglob("*.py"))]


def function_scopes() -> dict[str, list[str]]:
    """Module path -> the only functions mutated in it (``[tool.cfmem.mutation_functions]``)."""
    data = tomllib.loads(PYPROJECT.read_text())
    return data.get("tool", {}).get("cfmem", {}).get("mutation_functions", {})


def mutant_patterns(module: str, scopes: dict[str, list[str]]) -> list[str]:
    """mutmut's name patterns for the mutants of one module (all, or its scoped functions)."""
    dotted = module.removesuffix(".py").replace("/", ".")
    functions = scopes.get(module)
    if not functions:
        return [f"{dotted}.*"]
    return [f"{dotted}.x_{name}__mutmut_*" for name in functions]


def load_exit_codes(path: Path, scopes: dict[str, list[str]]) -> dict[str, int | None]:
    """mutmut's exit code of every mutant of ``path`` in its scope (None if never run)."""
    data = SourceFileMutationData(path=path)
    data.load()
    patterns = mutant_patterns(str(path), scopes)
    return {name: code for name, code in data.exit_code_by_key.items() if any(fnmatch.fnmatchcase(name, p) for p in patterns)}


def load_results(path: Path, scopes: dict[str, list[str]]) -> dict[str, str]:
    """Status of every mutant of ``path`` in its scope ('not checked' if never run)."""
    return {name: status_by_exit_code[code] for name, code in load_exit_codes(path, scopes).items()}


def function_spans(path: Path) -> dict[tuple[str | None, str], tuple[int, int]]:
    """(class, function) -> its first and last line in the original source."""
    spans: dict[tuple[str | None, str], tuple[int, int]] = {}
    tree = ast.parse(path.read_text())
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            spans[(None, node.name)] = (node.lineno, node.end_lineno or node.lineno)
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    spans[(node.name, item.name)] = (item.lineno, item.end_lineno or item.lineno)
    return spans


def mutation_of(name: str, path: Path, spans: dict, source_lines: list[str]) -> tuple[int | None, list[str]]:
    """The source line a mutant changes and its diff lines (``-`` old, ``+`` new)."""
    diff = get_diff_for_mutant(name, path=path).splitlines()
    changed = [d for d in diff if d[:1] in "-+" and not d.startswith(("---", "+++"))]
    function, cls = orig_function_and_class_names_from_key(name)
    first, last = spans.get((cls, function), (1, len(source_lines)))
    removed = next((d[1:] for d in changed if d.startswith("-")), None)
    line = None
    if removed is not None:
        for number in range(first, last + 1):
            if source_lines[number - 1].strip() == removed.strip():
                line = number
                break
    return line, changed


def cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", "<br>")


def snippet(changed: list[str], width: int = 100) -> str:
    """The diff lines, each cut to a window around where the old and new lines first differ."""
    texts = [line[1:].strip() for line in changed]
    longest = max((len(t) for t in texts), default=0)
    first_difference = 0
    if len(texts) >= 2:
        while first_difference < min(len(t) for t in texts) and len({t[first_difference] for t in texts}) == 1:
            first_difference += 1
    start = 0 if longest <= width else max(0, min(first_difference - width // 3, longest - width))
    shown = []
    for sign, text in zip((line[:1] for line in changed), texts):
        piece = text[start : start + width]
        piece = ("..." if start else "") + piece + ("..." if start + width < len(text) else "")
        shown.append(f"`{cell(sign + ' ' + piece)}`")
    return "<br>".join(shown)


def module_record(path: Path, results: dict[str, str]) -> dict:
    """Counts and survivors (line, shown mutation) of one module's run."""
    counts = Counter(results.values())
    spans = function_spans(path)
    source_lines = path.read_text().splitlines()
    survivors = []
    for name in sorted(results, key=_mutant_order):
        if results[name] == "survived":
            line, changed = mutation_of(name, path, spans, source_lines)
            survivors.append({"name": name, "line": line, "mutation": snippet(changed)})
    return {"total": len(results), "counts": dict(sorted(counts.items())), "survivors": survivors,
            "source": source_digest(path)}


def source_digest(path: Path) -> str:
    """A short hash of the module's text, to tell a record made on other code."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


def update_records(records: dict[str, dict], scopes: dict[str, list[str]]) -> dict[str, dict]:
    """Replace the record of every module with results in ``mutants/`` (only of the modules in
    ``CFMEM_MUTATION_MODULES`` when it names some: reading a module's survivors parses its
    mutated copy once per survivor); keep the others'."""
    updated = dict(records)
    just_run = os.environ.get("CFMEM_MUTATION_MODULES", "").split()
    for path in module_paths():
        if just_run and str(path) not in just_run:
            continue
        results = load_results(path, scopes)
        if any(status != "not checked" for status in results.values()):
            record = module_record(path, results)
            if str(path) in just_run:
                record["quick_only"] = os.environ.get("CFMEM_MUTATION_SECOND_ROUND", "yes") == "no"
            elif "quick_only" in records.get(str(path), {}):
                record["quick_only"] = records[str(path)]["quick_only"]
            updated[str(path)] = record
    return updated


def build_report(records: dict[str, dict], notes: dict[str, str], scopes: dict[str, list[str]]) -> tuple[str, list[str]]:
    summary_rows: list[str] = []
    survivor_rows: list[str] = []
    not_run: list[str] = []
    partly_run: list[str] = []
    quick_only: list[str] = []
    changed: list[str] = []
    unexplained: list[str] = []
    totals: Counter = Counter()
    for path in module_paths():
        module = str(path)
        record = records.get(module)
        if record is None:
            not_run.append(f"`{module}`")
            continue
        counts = Counter(record["counts"])
        total = record["total"]
        checked = total - counts["not checked"]
        if counts["not checked"]:
            partly_run.append(f"`{module}` ({checked} of {total} mutants checked)")
        if record.get("quick_only"):
            quick_only.append(f"`{module}`")
        detected = sum(counts[s] for s in DETECTED)
        rate = f"{100 * detected / checked:.1f} %" if checked else "-"
        equivalent = sum(1 for s in record["survivors"] if notes.get(s["name"], "").startswith("equivalent"))
        catchable = checked - equivalent
        rate_catchable = f"{100 * detected / catchable:.1f} %" if catchable else "-"
        totals["equivalent"] += equivalent
        other_text = ", ".join(
            f"{v} {k}" for k, v in sorted(counts.items()) if k not in (*DETECTED, "survived")
        ) or "-"
        role = "checker" if module in CHECKERS else ""
        scope = f" ({', '.join(scopes[module])})" if module in scopes else ""
        if record.get("source") != source_digest(path):
            changed.append(f"`{module}`")
        summary_rows.append(
            f"| `{module}`{scope} | {role} | {total} | {counts['killed']} | {counts['survived']} | {counts['timeout']}"
            f" | {other_text} | {rate} | {rate_catchable} |"
        )
        totals.update(counts)
        totals["total"] += total
        for survivor in record["survivors"]:
            note = notes.get(survivor["name"])
            if note is None:
                unexplained.append(survivor["name"])
                note = "UNEXPLAINED"
            short = survivor["name"].rpartition(".")[2]
            line = survivor["line"] if survivor["line"] is not None else "?"
            survivor_rows.append(f"| `{module}` | {line} | `{short}` | {survivor['mutation']} | {cell(note)} |")
    checked_all = totals["total"] - totals["not checked"]
    detected_all = sum(totals[s] for s in DETECTED)
    lines = [
        "# Mutation testing",
        "",
        "Made by `make mutation` (mutmut 3.8.1, configured under `[tool.mutmut]` in pyproject.toml) and",
        "`bench/mutation_report.py`, which reads mutmut's own result files (`mutants/*.meta`) and keeps",
        "each module's last run in `bench/results/mutation.json`, so `make mutation MODULE=path` updates",
        "one module's row. Each mutant runs only the selected tests that call the mutated function",
        "(mutmut's per-function test map, narrowed to its module's files by `[tool.cfmem.mutation_tests]`);",
        "a module with functions listed under `[tool.cfmem.mutation_functions]` is mutated in those only.",
        "Kill rate = (killed + timeout + segfault) / checked: a test process that hung or died by a",
        "signal (segfault: SIGSEGV, or SIGKILL from the out-of-memory killer) caught its mutant.",
        "The last column leaves out the survivors explained as equivalent (no input can tell them",
        "from the original), so 100 % means every mutant that can be caught is. Explanations of",
        "survivors live in `bench/mutation_survivors.toml`.",
        "",
        "| module | | mutants | killed | survived | timeout | other | kill rate | equivalent excluded |",
        "| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: |",
        *summary_rows,
    ]
    if checked_all:
        catchable_all = checked_all - totals["equivalent"]
        rate_catchable_all = f"{100 * detected_all / catchable_all:.1f} %" if catchable_all else "-"
        lines.append(
            f"| all run | | {totals['total']} | {totals['killed']} | {totals['survived']} | {totals['timeout']}"
            f" | | {100 * detected_all / checked_all:.1f} % | {rate_catchable_all} |"
        )
    lines += ["", "Other: `no tests` means no selected test calls the function, `not checked` that the run"
              " stopped before the mutant."]
    if partly_run:
        lines += ["", "Partly run (the kill rate counts the checked mutants only): " + ", ".join(partly_run) + "."]
    if quick_only:
        lines += ["", "Quick round only (`MUTATION_SECOND_ROUND=no`: survivors were not run again against the tests slower"
                  " than `MUTATION_QUICK_SECONDS`, so some may be killed by those): " + ", ".join(quick_only) + "."]
    if not_run:
        lines += ["", "Not run: " + ", ".join(not_run) + "."]
    if changed:
        lines += ["", "Changed since their last run (their rows count mutants of the earlier code): "
                  + ", ".join(changed) + "."]
    lines += ["", "## Surviving mutants", ""]
    if survivor_rows:
        lines += [
            "| module | line | mutant | mutation | why it survives |",
            "| --- | ---: | --- | --- | --- |",
            *survivor_rows,
        ]
    else:
        lines.append("None.")
    return "\n".join(lines) + "\n", unexplained


def _mutant_order(name: str) -> tuple[str, int]:
    stem, _, number = name.rpartition("__mutmut_")
    return stem, int(number) if number.isdigit() else 0


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to a temporary file beside ``path``, then rename it over ``path``."""
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w") as handle:
            handle.write(text)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "mutation.md")
    parser.add_argument("--survivors", nargs="*", metavar="MODULE",
                        help="print the surviving mutants' names, and those no quick test reached, of these module"
                             " paths or of all (to run them again with every test), and stop")
    parser.add_argument("--patterns", nargs="+", metavar="MODULE",
                        help="print mutmut's name patterns for these module paths and stop")
    args = parser.parse_args(argv)
    scopes = function_scopes()
    if args.patterns:
        known = {str(p) for p in module_paths()}
        for module in args.patterns:
            if module not in known:
                print(f"error: {module} is not a module mutmut mutates (see [tool.mutmut] only_mutate)", file=sys.stderr)
                return 1
            print(*mutant_patterns(module, scopes))
        return 0
    if args.survivors is not None:
        for path in module_paths():
            if args.survivors and str(path) not in args.survivors:
                continue
            for name, code in sorted(load_exit_codes(path, scopes).items(), key=lambda item: _mutant_order(item[0])):
                if status_by_exit_code[code] == "survived" or code == PYTEST_NO_TESTS:
                    print(name)
        return 0
    notes = tomllib.loads(NOTES.read_text()) if NOTES.exists() else {}
    records = json.loads(RECORDS.read_text()) if RECORDS.exists() else {}
    records = update_records(records, scopes)
    text, unexplained = build_report(records, notes, scopes)
    write_atomically(RECORDS, json.dumps(records, indent=1, sort_keys=True) + "\n")
    write_atomically(args.out, text)
    print(f"wrote {args.out} and {RECORDS}")
    if unexplained:
        print(f"{len(unexplained)} surviving mutants have no explanation:", *unexplained, sep="\n  ")
    return 0


if __name__ == "__main__":
    sys.exit(main())
