"""``cfmem report`` end to end, checked against what ``nn-plan-memory`` writes.

The reference numbers come from running the real pass in process (offsets,
arena size, lower bound and hoisted blocks as IR attributes) and from the IR
itself (which nn.if branch holds each tensor), not from the report's code.
"""

import csv
import functools
import io
import json
import re
import struct
from pathlib import Path

import pytest
from xdsl.dialects.builtin import DenseArrayBase
from xdsl.ir import Block
from xdsl.passes import PassPipeline

from cfmem.dialects.nn_control import IfOp, LoopOp
from cfmem.dialects.scratch import scratch_bytes
from cfmem.dialects.types import tensor_bytes
from cfmem.ir_io import load_module, make_context
from cfmem.passes import PASSES
from cfmem.passes.liveness import analyze_function, functions
from cfmem.passes.plan_memory import ARENA_ATTR, BLOCK_ATTR, BOUND_ATTR, planned_offset, scratch_offset
from cfmem.passes.stored_plan import declared_aliases
from cfmem.planning.control_flow import MODES, plan_tree
from cfmem.planning.problem import paths_compatible
from cfmem.planning.regions import IfNode, RegionTree, Tensor
from cfmem.planning.strategies import get_strategy
from cfmem.reports.tables import format_pct
from conftest import EXAMPLES, run_cfmem

EXAMPLE_FILES = sorted(EXAMPLES.glob("*.mlir"))
STRATEGIES = ("sequential", "large-first", "short-first", "best-fit", "tflm", "by-size", "auto")
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def has_ifs(path: Path) -> bool:
    module, _ = load_module(path)
    return any(isinstance(op, IfOp) for op in module.walk())


WITH_IFS = [p for p in EXAMPLE_FILES if has_ifs(p)]


def test_the_examples_are_there():
    assert len(EXAMPLE_FILES) >= 4 and len(WITH_IFS) >= 3


@functools.cache
def reference(path: Path, mode: str, strategy: str, align: int) -> dict:
    """What nn-plan-memory writes into the IR for ``@main``, by tensor id (computed once per
    process for each set of options; read, never changed)."""
    module, _ = load_module(path)
    spec = f"nn-plan-memory{{mode={mode} strategy={strategy} align={align}}}"
    PassPipeline.parse_spec(PASSES, spec).apply(make_context(), module)
    (fn,) = functions(module)
    info = analyze_function(fn, aliases=declared_aliases(fn))
    def region_of(op) -> str:
        """The nn.if branches and loop bodies around ``op``."""
        region = []
        while not isinstance(op.parent_op(), type(fn)):
            block = op.parent_block()
            if_op = block.parent_op()
            index = [r.block for r in if_op.branches].index(block)
            kind = "loop" if isinstance(if_op, LoopOp) else "if"
            count = [o for o in fn.walk() if isinstance(o, type(if_op))].index(if_op)
            region.append(f"{kind}#{count}.{'body' if kind == 'loop' else ('then', 'else')[index]}")
            op = if_op
        return "/".join(reversed(region)) or fn.sym_name.data

    tensors = {}
    for value, tensor in info.tensor_of.items():
        op = value.owner
        if isinstance(op, Block):  # a loop's body argument: a tensor of the loop's region
            op = op.parent_op()
        tensors[tensor.id] = {
            "offset": planned_offset(value),
            "size": tensor_bytes(value.type),
            "region": region_of(op),
            "steps": (tensor.start, tensor.end),
        }
    for op, tensor in info.scratch_of.items():  # kernel scratch: at its op's step only
        assert tensor.start == tensor.end and tensor.size == scratch_bytes(op) > 0
        tensors[tensor.id] = {
            "offset": scratch_offset(op),
            "size": tensor.size,
            "region": region_of(op),
            "steps": (tensor.start, tensor.end),
        }
    blocks = {
        info.if_node_of[op].name: tuple(op.attributes[BLOCK_ATTR].get_values())
        for op in fn.walk()
        if isinstance(op, IfOp | LoopOp) and isinstance(op.attributes.get(BLOCK_ATTR), DenseArrayBase)
    }
    return {
        "tensors": tensors,
        "arena": fn.attributes[ARENA_ATTR].value.data,
        "bound": fn.attributes[BOUND_ATTR].value.data,
        "blocks": blocks,
        "first_if_step": min((node.step for node in info.tree.ifs), default=info.tree.num_steps),
    }


def parse_tensor_table(stdout: str) -> tuple[list[list[str]], list[str]]:
    """Rows of the tensor table, and the lines after it."""
    lines = stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.split()[:2] == ["tensor", "size"])
    assert set(lines[start + 1].replace(" ", "")) == {"-"}
    rows = []
    for i in range(start + 2, len(lines)):
        if lines[i].startswith("peak "):
            return rows, lines[i:]
        rows.append(lines[i].split())
    raise AssertionError("no peak line after the table")


def report_json(cfmem, *args: str) -> dict:
    res = cfmem("report", *args, "--json")
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)  # the whole of stdout is one JSON object


@functools.cache
def compared(*args: str):
    """``cfmem report ARGS --compare`` (it writes no file), run once per process: several tests
    read the same comparison, as text and as JSON."""
    return run_cfmem("report", *args, "--compare")


def compared_json(*args: str) -> dict:
    res = compared(*args, "--json")
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


same_comparisons = pytest.mark.xdist_group("report-compare")
"""The tests reading ``compared``'s outputs, on one worker so that each comparison runs once."""


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.stem)
@pytest.mark.parametrize(
    "mode, strategy, align", [("hoist", "best-fit", 16), ("exact", "auto", 32), ("conservative", "sequential", 16)]
)
def test_table_rows_match_plan_memory(cfmem, path, mode, strategy, align):
    res = cfmem("report", str(path), "--mode", mode, "--strategy", strategy, "--align", str(align))
    assert res.returncode == 0, res.stderr
    ref = reference(path, mode, strategy, align)
    rows, after = parse_tensor_table(res.stdout)
    assert sorted(r[0] for r in rows) == sorted(ref["tensors"])  # one row per planned tensor
    for name, size, region, steps, global_, offset, end in rows:
        want = ref["tensors"][name]
        assert int(size) == want["size"] and region == want["region"], name
        assert steps == f"[{want['steps'][0]},{want['steps'][1]}]", name
        assert int(offset) == want["offset"] and int(end) == want["offset"] + want["size"], name
        assert global_.startswith("[") and global_.endswith(")")
    peak = max(int(r[6]) for r in rows)
    gap = 100 * (ref["arena"] - ref["bound"]) / ref["bound"]
    assert after[0].startswith(f"peak {ref['arena']} bytes, lower bound {ref['bound']} bytes, gap ")
    assert peak == ref["arena"]
    assert float(after[0].split("gap ")[1].split()[0]) == pytest.approx(gap, rel=0.01, abs=0.005)
    assert f"mode {mode}" in res.stdout.splitlines()[0] and f"strategy {strategy}" in res.stdout.splitlines()[0]
    blocks = {line.split()[0]: (int(line.split()[1]), int(line.split()[2]))
              for line in after if line.strip().startswith(("if#", "loop#"))}
    assert blocks == ref["blocks"]
    if mode != "exact":
        assert bool(blocks) == (mode == "hoist" and path in WITH_IFS)


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.stem)
@pytest.mark.parametrize("mode", MODES)
def test_json_has_every_number_and_a_valid_plan(cfmem, path, mode):
    data = report_json(cfmem, str(path), "--mode", mode, "--strategy", "large-first")
    ref = reference(path, mode, "large-first", 16)
    assert data["model"] == str(path) and list(data["functions"]) == ["main"] and "comparison" not in data
    f = data["functions"]["main"]
    assert (f["mode"], f["strategy"], f["align"]) == (mode, "large-first", 16)
    assert f["peak"] == ref["arena"] >= f["lower_bound"] == ref["bound"] > 0
    assert f["gap_pct"] == pytest.approx(100 * (f["peak"] - f["lower_bound"]) / f["lower_bound"])
    assert {t["tensor"]: t["offset"] for t in f["tensors"]} == {k: v["offset"] for k, v in ref["tensors"].items()}
    assert f["naive_bytes"] == sum(v["size"] for v in ref["tensors"].values())
    assert f["peak"] == max(t["end_offset"] for t in f["tensors"])
    assert {b["name"]: (b["offset"], b["size"]) for b in f["blocks"]} == ref["blocks"]
    for t in f["tensors"]:
        assert t["end_offset"] == t["offset"] + t["size"] and t["offset"] % 16 == 0
        assert 0 <= t["global_start"] < t["global_end"] <= f["time_steps"]
        if t["region"] == "main" and t["step_end"] < ref["first_if_step"]:  # nothing stretches time yet
            assert (t["global_start"], t["global_end"]) == (t["step_start"], t["step_end"] + 1), t["tensor"]
    early = sum(t["region"] == "main" and t["step_end"] < ref["first_if_step"] for t in f["tensors"])
    assert early >= 1 or f["aliases"]  # in-place chains may carry every early tensor past the first if
    # independent check on the report's own numbers: tensors that can be live together never overlap
    ts = f["tensors"]
    for i, a in enumerate(ts):
        for b in ts[i + 1 :]:
            live_together = a["global_start"] < b["global_end"] and b["global_start"] < a["global_end"]
            same_path = paths_compatible(tuple(map(tuple, a["path"])), tuple(map(tuple, b["path"])))
            if live_together and same_path and a["size"] and b["size"]:
                assert a["end_offset"] <= b["offset"] or b["end_offset"] <= a["offset"], (a["tensor"], b["tensor"])


@same_comparisons
@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.stem)
def test_comparison_grid_orders_the_modes(path):
    data = compared_json(str(path))
    grid = data["comparison"]["main"]
    assert grid["strategies"] == list(STRATEGIES) and grid["modes"] == list(MODES)
    bound, peaks = grid["lower_bound"], grid["peaks"]
    assert bound == data["functions"]["main"]["lower_bound"]
    for s in STRATEGIES:
        row = peaks[s]
        assert row["hoist"] <= row["conservative"], s
        assert row["exact"] <= row["hoist"] and row["exact"] <= row["linearize"], s
        assert all(bound <= p <= row["naive"] for p in row.values()), s
    # every cell is what nn-plan-memory gives for the same options
    for s in ("sequential", "auto"):
        for m in MODES:
            assert peaks[s][m] == reference(path, m, s, 16)["arena"], (s, m)
    best = min(p for row in peaks.values() for p in row.values())
    assert grid["best"]["peak"] == best == peaks[grid["best"]["strategy"]][grid["best"]["mode"]]
    assert grid["best"]["gap_pct"] == pytest.approx(100 * (best - bound) / bound)


@same_comparisons
@pytest.mark.parametrize("path", WITH_IFS[:1], ids=lambda p: p.stem)
def test_comparison_text_table(path):
    res = compared(str(path))
    assert res.returncode == 0, res.stderr
    grid = compared_json(str(path))["comparison"]["main"]
    lines = res.stdout.splitlines()
    assert lines[1].split() == ["strategy", *MODES, "best", "gap", "%"]
    rows = {line.split()[0]: line.split() for line in lines[3:]}
    for s in STRATEGIES:
        assert [int(x) for x in rows[s][1:7]] == [*(grid["peaks"][s][m] for m in MODES), min(grid["peaks"][s].values())]
    bound_row = next(line for line in lines if line.startswith("lower bound"))
    assert bound_row.split()[2:] == [str(grid["lower_bound"])] * (len(MODES) + 1)
    assert f"lower bound {grid['lower_bound']} bytes, gap " in res.stdout


@same_comparisons
@pytest.mark.parametrize("path", WITH_IFS[:1], ids=lambda p: p.stem)
def test_json_comparison_carries_the_printed_table(path):
    printed = [line.split() for line in compared(str(path)).stdout.splitlines()]
    table = compared_json(str(path))["comparison"]["main"]["table"]
    assert table["columns"] == ["strategy", *MODES, "best", "gap %"]
    assert [row[0] for row in table["rows"]] == [*STRATEGIES, "best", "gap %", "lower bound"]
    for row in table["rows"]:
        cells = " ".join(format_pct(c) if isinstance(c, float) else str(c) for c in row).split()
        assert cells in printed, row


@same_comparisons
def test_json_of_several_models_carries_the_table_of_models():
    data = compared_json(*map(str, EXAMPLE_FILES))
    table = data["table"]
    assert table["columns"][:3] == ["model", "naive", "sequential/conservative"]
    assert table["columns"][-3:] == ["bound", "best", "gap %"]
    assert [row[0] for row in table["rows"]] == [p.stem for p in EXAMPLE_FILES]
    for model, row in zip(data["models"], table["rows"]):
        grid = model["comparison"]["main"]
        assert row[table["columns"].index("auto/exact")] == grid["peaks"]["auto"]["exact"]
        assert row[-3:] == [grid["lower_bound"], grid["best"]["peak"], grid["best"]["gap_pct"]]


def test_flat_module_is_refused_naming_its_arena(cfmem, tmp_path):
    flat = tmp_path / "flat.mlir"
    assert cfmem("opt", str(WITH_IFS[0]), "-p", "nn-plan-memory,nn-lower-to-memref", "-o", str(flat)).returncode == 0
    arena = reference(WITH_IFS[0], "exact", "auto", 16)["arena"]
    for extra in ([], ["--json"]):
        res = cfmem("report", str(flat), *extra)
        assert res.returncode == 1 and res.stdout == ""
        assert res.stderr == (
            f"cfmem: {flat}: error: the module is already lowered by nn-lower-to-memref"
            f" (planned arena: @main {arena} bytes, lower bound {reference(WITH_IFS[0], 'exact', 'auto', 16)['bound']}):"
            " report the tensor-level module\n"
        )


def test_compare_adds_an_asked_strategy_as_a_row(cfmem):
    try:
        get_strategy("search")
    except (ImportError, AttributeError):
        pytest.skip("the search strategy is not available yet")
    data = report_json(cfmem, str(WITH_IFS[0]), "--compare", "--strategy", "search", "--time-limit", "1")
    grid = data["comparison"]["main"]
    assert grid["strategies"] == [*STRATEGIES, "search"]
    assert all(grid["lower_bound"] <= p for p in grid["peaks"]["search"].values())


@same_comparisons
def test_several_models_give_one_row_each():
    res = compared(*map(str, EXAMPLE_FILES))
    assert res.returncode == 0, res.stderr
    rows = {line.split()[0]: line.split() for line in res.stdout.splitlines() if line.split()[:1]}
    data = compared_json(*map(str, EXAMPLE_FILES))
    assert [m["model"] for m in data["models"]] == list(map(str, EXAMPLE_FILES))
    for model in data["models"]:
        grid = model["comparison"]["main"]
        row = rows[Path(model["model"]).stem]
        cells = [grid["peaks"]["sequential"]["naive"]]
        cells += [grid["peaks"][s][m] for s in STRATEGIES for m in MODES if m != "naive"]
        cells += [grid["lower_bound"], grid["best"]["peak"]]
        assert [int(x) for x in row[1:-1]] == cells
        assert float(row[-1]) == pytest.approx(grid["best"]["gap_pct"], abs=0.005, rel=0.01)


@pytest.mark.parametrize("path", WITH_IFS, ids=lambda p: p.stem)
def test_png_is_written(cfmem, tmp_path, path):
    out = tmp_path / "plan.png"
    res = cfmem("report", str(path), "--mode", "hoist", "--png", str(out))
    assert res.returncode == 0, res.stderr
    assert f"wrote {out}" in res.stdout
    data = out.read_bytes()
    assert data[:8] == PNG_MAGIC and data[12:16] == b"IHDR" and data.endswith(b"IEND\xaeB`\x82")
    width, height = struct.unpack(">II", data[16:24])
    assert width >= 800 and height >= 500 and len(data) > 30_000
    assert [p.name for p in tmp_path.iterdir()] == ["plan.png"]  # no temporary file left behind


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.stem)
def test_csv_has_one_row_per_tensor(cfmem, tmp_path, path):
    out = tmp_path / "plan.csv"
    data = report_json(cfmem, str(path), "--mode", "hoist", "--csv", str(out))
    ref = reference(path, "hoist", "auto", 16)
    rows = list(csv.reader(io.StringIO(out.read_text())))
    assert rows[0] == ["tensor_name", "size", "offset", "start_time", "end_time"]
    assert sorted(r[0] for r in rows[1:]) == sorted(ref["tensors"])
    by_name = {t["tensor"]: t for t in data["functions"]["main"]["tensors"]}
    for name, size, offset, start, end in rows[1:]:
        assert int(size) == ref["tensors"][name]["size"] and int(offset) == ref["tensors"][name]["offset"]
        assert (int(start), int(end)) == (by_name[name]["global_start"], by_name[name]["global_end"])
        assert int(start) < int(end)


@pytest.mark.parametrize(
    "args, message",
    [
        (["missing.mlir"], "missing.mlir: error: cannot read: No such file"),
        (["{ex}", "--mode", "fancy"], "--mode: error: unknown mode 'fancy'"),
        (["{ex}", "--strategy", "fancy"], "--strategy: error: unknown strategy 'fancy'"),
        (["{ex}", "--align", "0"], "--align: error: must be an integer from 1 to 9223372036854775807, not 0"),
        (["{ex}", "--func", "nope"], "no function @nope"),
        (["{ex}", "{ex}"], "several models need --compare"),
        (["{ex}", "{ex}", "--compare", "--png", "x.png"], "--png/--csv: error: take one model"),
        (["{ex}", "--png", "no/such/dir/x.png"], "no/such/dir/x.png: error: there is no directory no/such/dir"),
    ],
)
def test_bad_input_gives_one_line(cfmem, tmp_path, args, message):
    ex = str(WITH_IFS[0])
    res = cfmem("report", *(a.replace("{ex}", ex) for a in args), cwd=tmp_path)
    assert res.returncode == 1, res.stderr
    assert res.stderr.startswith("cfmem: ") and message in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_parse_errors_are_located(cfmem, tmp_path):
    bad = tmp_path / "bad.mlir"
    bad.write_text("builtin.module {\n  func.func @main() {\n    %x = nn.relu\n  }\n}\n")
    res = cfmem("report", str(bad))
    assert res.returncode == 1 and re.match(rf"cfmem: {re.escape(str(bad))}:\d+:\d+: error: ", res.stderr)
    assert len(res.stderr.strip().splitlines()) == 1


# --- the pure table functions on a hand-made nested tree -----------------------------------


def nested_tree() -> RegionTree:
    inner = IfNode(1, 1, [RegionTree(2, [Tensor("it", 10, 0, 1)]), RegionTree(1, [Tensor("ie", 5, 0, 0)])])
    then = RegionTree(3, [Tensor("a", 100, 0, 2)], [inner])
    return RegionTree(
        3,
        [Tensor("x", 1000, 0, 2), Tensor("y", 3, 2, 2)],
        [IfNode(0, 1, [then, RegionTree(1, [Tensor("b", 7, 0, 0)])])],
    )


def test_region_labels_and_global_intervals():
    from cfmem.reports.tables import function_report, render_function

    tree = nested_tree()
    report = function_report("f", tree, plan_tree(tree, "exact", "sequential"), 1)
    rows = {t["tensor"]: t for t in report["tensors"]}
    assert {k: r["region"] for k, r in rows.items()} == {
        "x": "f", "y": "f", "a": "if#0.then", "b": "if#0.else", "it": "if#0.then/if#1.then", "ie": "if#0.then/if#1.else"
    }
    # if#0 sits at step 1 of f and lasts as long as its longer branch: a (3 steps, one an if of 2)
    assert {k: (r["global_start"], r["global_end"]) for k, r in rows.items()} == {
        "x": (0, 6), "a": (1, 5), "b": (1, 2), "it": (2, 4), "ie": (2, 3), "y": (5, 6)
    }
    assert report["time_steps"] == 6 and report["lower_bound"] == 1110
    text = render_function(report)
    assert "if#0.then/if#1.else" in text and "peak 1110 bytes, lower bound 1110 bytes, gap 0.00 %" in text


def test_nested_hoisted_blocks_hold_their_branches():
    from cfmem.reports.tables import function_report

    tree = nested_tree()
    report = function_report("f", tree, plan_tree(tree, "hoist", "sequential"), 1)
    rows = {t["tensor"]: t for t in report["tensors"]}
    members = {0: ("a", "b", "it", "ie"), 1: ("it", "ie")}
    for block in report["blocks"]:
        for name in members[block["if"]]:
            assert block["offset"] <= rows[name]["offset"] and rows[name]["end_offset"] <= block["offset"] + block["size"]


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.stem)
def test_aliases_are_listed_with_their_roots_and_the_bytes_aliasing_saves(cfmem, path):
    res = cfmem("report", str(path))
    assert res.returncode == 0, res.stderr
    module, _ = load_module(path)
    PassPipeline.parse_spec(PASSES, "nn-plan-memory").apply(make_context(), module)
    (fn,) = functions(module)
    without, _ = load_module(path)
    PassPipeline.parse_spec(PASSES, "nn-plan-memory{aliases=false}").apply(make_context(), without)
    unaliased = functions(without)[0].attributes[ARENA_ATTR].value.data
    peak = fn.attributes[ARENA_ATTR].value.data
    assert f"saved by aliasing: {unaliased - peak} bytes (peak {unaliased} bytes without aliases)" in res.stdout
    lines = res.stdout.splitlines()
    start = lines.index("aliases (no bytes of their own):") + 3
    listed = {line.split()[0]: (line.split()[2], int(line.split()[4])) for line in lines[start:] if not line.startswith("saved")}
    want = {op.results[0].name_hint: (op.attributes["cfmem.alias"].data, planned_offset(op.results[0]))
            for op in fn.walk() if "cfmem.alias" in op.attributes}
    assert listed == want and want


# three tensors at the if's step: short-first's direct plan needs 27 bytes, hoist reaches the lower
# bound 26 and linearize's floor is 26 too, so it is pruned while it ties the best
PRUNED_TIE = RegionTree(
    1,
    [Tensor("t1", 2, 0, 0), Tensor("t2", 8, 0, 0), Tensor("t3", 4, 0, 0)],
    [
        IfNode(1, 0, [
            RegionTree(1, [Tensor("t4", 8, 0, 0), Tensor("t5", 3, 0, 0)]),
            RegionTree(1, [Tensor("t6", 2, 0, 0), Tensor("t7", 2, 0, 0), Tensor("t8", 8, 0, 0)]),
        ])
    ],
)  # fmt: skip


def test_the_chosen_column_names_the_first_smallest_candidate_when_a_pruned_one_ties_it():
    """Exact mode keeps the first smallest of its candidates' plans (exact, hoist, linearize,
    conservative), each planned here on its own; the report names that one."""
    from cfmem.planning.problem import Problem
    from cfmem.planning.control_flow import timeline
    from cfmem.planning.strategies import solve
    from cfmem.reports.tables import compare, function_report, render_comparison, render_function

    strategies = ("sequential", "short-first", "large-first")
    expected = {}
    for strategy in strategies:
        peaks = {"exact": solve(Problem(timeline(PRUNED_TIE, "exact")), strategy).peak}
        peaks.update({m: plan_tree(PRUNED_TIE, m, strategy).peak for m in ("hoist", "linearize", "conservative")})
        expected[strategy] = next(m for m, p in peaks.items() if p == min(peaks.values()))
        if strategy == "short-first":
            assert peaks["hoist"] == peaks["linearize"] == 26 < peaks["exact"]  # the tie
    assert expected == {"sequential": "exact", "short-first": "hoist", "large-first": "hoist"}
    grid = compare("main", PRUNED_TIE, strategies, align=1)
    assert grid["exact_chose"] == expected
    assert grid["peaks"]["short-first"]["exact"] == 26
    assert render_comparison(grid).splitlines()[-1] == (
        "exact kept the plan of: sequential: exact, short-first: hoist, large-first: hoist"
    )
    for strategy in strategies:
        report = function_report("main", PRUNED_TIE, plan_tree(PRUNED_TIE, "exact", strategy), 1)
        assert report["chosen"] == expected[strategy]
        kept = "" if expected[strategy] == "exact" else f" (kept the {expected[strategy]} plan)"
        assert render_function(report).splitlines()[0] == f"@main: mode exact{kept}, strategy {strategy}, align 1"
