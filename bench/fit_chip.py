"""Fit the chip: every example, imported test model and (some) zoo model compiled into
budgets of 100, 75, 50 and 25 % of its unconstrained ping-pong peak and into the smallest
budget the placement search finds, on the default chip, each compile checked.

At each budget (``cfmem.fit.compile_for_budget``; ``smallest_budget`` for the last):

- the checking flat run (``measure_flat``) on every input set: its on-chip memories and the
  highest on-chip byte written, both <= the budget;
- that run bit-identical to the reference run of ``Compiled.graph`` (placed and sliced), and
  within rtol 1e-5 / atol 1e-6 of the reference run of the original model;
- upstream MLIR (``cfmem.differential.check``, check-mlir's criterion) agreeing;
- the modeled latency, its lower bound (``latency_bound``) and the gap, beside baseline (a)
  (``baseline_offchip``) and (b) (``baseline_pingpong``).

Input sets: for an example, ``branch_covering_inputs``; for an imported model, the zoo's
input sets (they take the model's known branch paths). The targets are computed from the
rows. A crash is recorded with its one-line reason and where in cfmem it happened.

    .venv/bin/python bench/fit_chip.py            # examples, test models, DEFAULT_ZOO
    .venv/bin/python bench/fit_chip.py --all      # and every zoo model
    .venv/bin/python bench/fit_chip.py --only resnet18 --out /tmp/r.md
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from xdsl.dialects import scf

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine_section, md_table, write_atomic  # noqa: E402

from cfmem.differential import check, max_abs_diff, scaled_error  # noqa: E402
from cfmem.dialects.types import tensor_bytes  # noqa: E402
from cfmem.dma.timing import Chip, simulate  # noqa: E402
from cfmem.fit import (  # noqa: E402
    BudgetError,
    Compiled,
    baseline_offchip,
    baseline_pingpong,
    compile_for_budget,
    latency_bound,
    smallest_budget,
    timing_path,
)
from cfmem.interp.coverage import branch_covering_inputs, branch_outcomes, missing_outcomes  # noqa: E402
from cfmem.interp.flat import measure_flat  # noqa: E402
from cfmem.interp.golden import find_function, run_function  # noqa: E402
from cfmem.ir_io import load_module  # noqa: E402
from cfmem.passes.dma_events import function_events  # noqa: E402
from cfmem.passes.insert_dma import weight_operands  # noqa: E402
from cfmem.passes.plan_memory import ARENA_ATTR  # noqa: E402
from cfmem.passes.placement import SLICE_OF_ATTR  # noqa: E402
from cfmem.pipeline import apply_pipeline  # noqa: E402
from cfmem.testing.zoo_run import FLOAT_TOLERANCE  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
FRACTIONS = (1.0, 0.75, 0.5, 0.25)
RTOL, ATOL = 1e-5, 1e-5
"""Against the original model: the issue's tolerance where slicing reorders a reduction (1e-5).
The flat run must still equal the placed graph bit for bit."""
MLIR_ATOL = {"example": 1e-6, "imported": FLOAT_TOLERANCE}
"""Upstream MLIR against the flat run: check-mlir's default for the examples; for imported
models the zoo's tolerance against onnxruntime. Upstream's loop order rounds silero's LSTM state
differently: on one input set the flat run is 1.2e-5 from onnxruntime and MLIR 3.5e-6, 1.5e-5
apart."""
TEST_MODELS = ("silero_vad_op18_ifless.onnx", "silero_vad.onnx", "cond_mlp", "cond_conv", "cond_chain")
"""The imported test models of cfmem.testing.onnx_models (the first zoo entries)."""
DEFAULT_ZOO = ("squeezenet1_1", "squeezenet1_1_int8_qdq", "dscnn", "transformer")
"""Zoo models run by default: a torchvision float net, its int8 QDQ form, dscnn and the
transformer, which fit the default run's time (all 34 zoo models take well over an hour)."""
SLOW = {"gru_kws": "left out of the default run: its 25 % budget alone took about 16 minutes (compile and checks, 2 cores)"}
"""Zoo models of a family the default run leaves out, and why."""
FACEDETECT_DEPTH = 8
Inputs = dict[str, np.ndarray]


@dataclass
class Subject:
    """One model: its tensor-level module, the directory its weights are read from, input sets."""

    name: str
    group: str
    module: object
    base_dir: Path
    input_sets: list[Inputs]


@dataclass
class Row:
    """One budget of one model; ``error`` says why the rest is empty."""

    label: str
    budget: int
    compiled: Compiled | None = None
    compile_s: float = 0.0
    onchip: int = 0
    touched: int = 0
    flat_equals_graph: bool = False
    diff_vs_original: float = 0.0
    within_tolerance: bool = False
    mlir_ok: bool | None = None
    mlir_note: str = ""
    paths: int = 0
    outcomes: str = ""
    loops: str = ""
    """Sliced ops computed by an scf.for / sliced ops (``nn-roll-slices``)."""
    error: str = ""

    @property
    def fits(self) -> bool:
        return self.compiled is not None and max(self.onchip, self.touched, self.compiled.onchip_peak) <= self.budget

    @property
    def checked(self) -> bool:
        return self.fits and self.flat_equals_graph and self.within_tolerance and self.mlir_ok is not False


@dataclass
class Result:
    """Every budget of one model, its baselines and what stopped it, if anything."""

    subject: Subject
    peak: int = 0
    pingpong_cycles: float = 0.0
    offchip_need: int = 0
    offchip_cycles: float = 0.0
    largest_weight: int = 0
    rows: list[Row] = field(default_factory=list)
    error: str = ""
    facedetect: dict | None = None


def crash(err: BaseException) -> str:
    """The exception's last line and the deepest cfmem frame it came from."""
    frames = [f for f in traceback.extract_tb(err.__traceback__) if "/cfmem/" in f.filename]
    where = f" (at {Path(frames[-1].filename).name}:{frames[-1].lineno} in {frames[-1].name})" if frames else ""
    text = traceback.format_exception_only(type(err), err)[-1].strip().replace("\n", " ")
    return (text[:400] + "...") if len(text) > 400 else text + where


def largest_weight(module) -> int:
    """Bytes of the largest single weight tensor any op reads."""
    return max((tensor_bytes(w.type) for op in module.walk() for w in weight_operands(op)), default=0)


def check_row(row: Row, subject: Subject, with_mlir: bool) -> None:
    """Run the compiled module on every input set and fill in what the runs showed."""
    compiled = row.compiled
    assert compiled is not None
    module, base = subject.module, subject.base_dir
    same, worst, within, traces = True, 0.0, True, []
    for inputs in subject.input_sets:
        original = run_function(module, inputs, base_dir=base).outputs
        graph = run_function(compiled.graph, inputs, base_dir=base).outputs
        run, onchip, touched = measure_flat(compiled.flat, inputs)
        row.onchip, row.touched = max(row.onchip, onchip), max(row.touched, touched)
        traces.append(tuple(run.branches))
        same = same and all(np.array_equal(graph[k], run.outputs[k]) for k in graph)
        worst = max(worst, max_abs_diff(original, run.outputs))
        within = within and scaled_error(original, run.outputs, RTOL, ATOL) <= 1.0
    row.flat_equals_graph, row.diff_vs_original, row.within_tolerance = same, worst, within
    outcomes = branch_outcomes(compiled.flat, find_function(compiled.flat))
    missing = missing_outcomes(outcomes, traces)
    row.paths = len(set(traces))
    row.outcomes = f"{len(outcomes) - len(missing)}/{len(outcomes)}"
    sliced = {op.attributes[SLICE_OF_ATTR] for op in compiled.flat.walk() if SLICE_OF_ATTR in op.attributes}
    rolled = {op.attributes[SLICE_OF_ATTR] for loop in compiled.flat.walk() if isinstance(loop, scf.ForOp)
              for op in loop.walk() if SLICE_OF_ATTR in op.attributes}  # fmt: skip
    row.loops = f"{len(rolled)}/{len(sliced)}"
    if with_mlir:
        try:
            agreements = check(compiled.graph, compiled.flat, subject.input_sets, base_dir=base, rtol=RTOL,
                               atol=MLIR_ATOL["example" if subject.group == "example" else "imported"])
            row.mlir_ok = all(a.ok() for a in agreements)
            if not row.mlir_ok:
                row.mlir_note = "; ".join(
                    f"set {k}: ref-flat {a.golden_vs_flat}, mlir {a.mlir_vs_flat}" for k, a in enumerate(agreements) if not a.ok()
                )
        except Exception as err:  # noqa: BLE001 - a crash is a result here
            row.mlir_ok, row.mlir_note = False, crash(err)


def facedetect_target(subject: Subject, chip: Chip, path: dict[str, bool], with_mlir: bool) -> dict:
    """Today's depth-8 plan's peak as the budget: cfmem's latency against that plan's overlap bound."""
    planned = subject.module.clone()
    apply_pipeline(planned, f"nn-insert-dma{{depth={FACEDETECT_DEPTH}}},nn-plan-memory", None, subject.base_dir)
    fn = find_function(planned)
    peak8 = fn.attributes[ARENA_ATTR].value.data
    timeline = simulate(function_events(fn), chip, path)
    row = Row(f"depth-{FACEDETECT_DEPTH} peak", peak8)
    began = time.perf_counter()
    try:
        row.compiled = compile_for_budget(subject.module, chip, peak8, subject.base_dir)
        row.compile_s = time.perf_counter() - began
        check_row(row, subject, with_mlir)
    except Exception as err:  # noqa: BLE001
        row.compile_s, row.error = time.perf_counter() - began, crash(err)
    depth = None
    if row.compiled is not None:
        depth = max(m.config.depth for m in row.compiled.placement.values())
    return {"peak8": peak8, "cycles8": timeline.cycles, "bound8": timeline.bound, "row": row, "depth": depth}


def run_subject(subject: Subject, chip: Chip, with_mlir: bool) -> Result:
    """Every budget of one model (see the module docstring)."""
    result = Result(subject)
    module = subject.module
    try:
        path = timing_path(module, chip)
        result.peak, result.pingpong_cycles = baseline_pingpong(module, chip, path)
        result.offchip_need, result.offchip_cycles = baseline_offchip(module, chip, path)
        result.largest_weight = largest_weight(module)
    except Exception as err:  # noqa: BLE001
        result.error = f"baselines: {crash(err)}"
        return result
    plans: list[tuple[str, int | None]] = [(f"{f:.0%}", int(result.peak * f)) for f in FRACTIONS]
    plans.append(("smallest", None))
    for label, budget in plans:
        print(f"  {subject.name} {label}", file=sys.stderr, flush=True)
        row = Row(label, budget if budget is not None else 0)
        began = time.perf_counter()
        try:
            row.compiled = (
                compile_for_budget(module, chip, budget, subject.base_dir)
                if budget is not None
                else smallest_budget(module, chip, subject.base_dir)
            )
            row.budget = row.compiled.budget
        except BudgetError as err:
            row.error = f"infeasible: {err.message}"
        except Exception as err:  # noqa: BLE001
            row.error = f"compile crashed: {crash(err)}"
        row.compile_s = time.perf_counter() - began
        if row.compiled is not None:
            try:
                check_row(row, subject, with_mlir)
            except Exception as err:  # noqa: BLE001
                row.error = f"check crashed: {crash(err)}"
        result.rows.append(row)
    if subject.name == "facedetect":
        result.facedetect = facedetect_target(subject, chip, path, with_mlir)
    return result


# --------------------------------------------------------------------------
# Models


def example_subjects() -> list[Subject]:
    found = []
    for path in sorted((ROOT / "examples").glob("*.mlir")):
        module, _ = load_module(path)
        inputs = [i for i, _ in branch_covering_inputs(module, base_dir=path.parent)]
        found.append(Subject(path.stem, "example", module, path.parent, inputs))
    return found


def zoo_subject(name: str, group: str, work: Path) -> Subject:
    """A zoo model imported the way cfmem.testing.zoo_run does, with the zoo's input sets."""
    from cfmem.importers.onnx import import_onnx
    from cfmem.importers.onnx.reference import cfmem_inputs
    from cfmem.testing import zoo
    from cfmem.testing.zoo_run import BLOB

    model = zoo.zoo_model(name)
    imported = import_onnx(model.path(), blob_file=BLOB, input_shapes=model.shapes, input_values={})
    work.mkdir(parents=True, exist_ok=True)
    (work / BLOB).write_bytes(imported.blob)
    inputs = [cfmem_inputs(feed, {}) for feed in model.feeds()]
    return Subject(name, group, imported.module, work, inputs)


# --------------------------------------------------------------------------
# Report


def _kib(n: int | None) -> str:
    return "-" if n is None else f"{n / 1024:,.1f}"


HEADER = ["model", "budget", "% of P", "fits", "on-chip measured / budget KiB", "ms", "bound ms", "gap %",
          "speedup over (a)", "(b) ms", "flat==graph", "max diff vs original", "MLIR ok", "paths (outcomes)",
          "sliced ops as loops", "compile s", "largest weight > budget"]  # fmt: skip


def table_row(result: Result, row: Row, chip: Chip) -> list[str]:
    name = result.subject.name
    pct = f"{100.0 * row.budget / result.peak:.1f}" if result.peak else "-"
    head = [name, row.label, pct]
    if row.compiled is None:
        return head + [f"NO: {row.error}"] + [""] * 11 + [f"{row.compile_s:.1f}", ""]
    c = row.compiled
    measured = max(row.onchip, row.touched)
    speedup = result.offchip_cycles / c.cycles if c.cycles else float("inf")
    return head + [
        "yes" if row.fits else "NO",
        f"{_kib(row.onchip)} (written {_kib(row.touched)}) / {_kib(row.budget)}" if measured else f"0 / {_kib(row.budget)}",
        f"{c.ms(chip):.3f}", f"{chip.milliseconds(c.bound_cycles):.3f}", f"{c.gap_pct():.1f}",
        f"{speedup:.2f}x", f"{chip.milliseconds(result.pingpong_cycles):.3f}",
        "yes" if row.flat_equals_graph else "NO",
        f"{row.diff_vs_original:.1e}" + ("" if row.within_tolerance else " (OUT OF TOLERANCE)"),
        {True: "ok", False: "FAIL", None: "not run"}[row.mlir_ok],
        f"{row.paths} ({row.outcomes})",
        row.loops,
        f"{row.compile_s:.1f}",
        "yes" if result.largest_weight > row.budget else "no",
    ] + ([f"check: {row.error}"] if row.error else [])  # fmt: skip


def targets(result: Result, chip: Chip) -> list[tuple[str, bool | None, str]]:
    """(target, PASS/FAIL/None for n/a, the numbers) for one model."""
    out: list[tuple[str, bool | None, str]] = []
    if result.error:
        return [("runs at all", False, result.error)]
    rows = [r for r in result.rows if r.compiled is not None]
    failed = [r for r in result.rows if r.compiled is None or r.error or not r.checked]
    out.append((
        "every budget compiles, fits and checks", not failed and len(result.rows) == len(FRACTIONS) + 1,
        "all five" if not failed else "; ".join(f"{r.label}: {r.error or _what_failed(r)}" for r in failed),
    ))  # fmt: skip
    ascending = sorted(rows, key=lambda r: r.budget)
    rises = [
        f"{a.label} {a.compiled.ms(chip):.3f} ms -> {b.label} {b.compiled.ms(chip):.3f} ms"
        for a, b in zip(ascending, ascending[1:])
        if b.compiled.cycles > a.compiled.cycles
    ]
    out.append(("latency never rises as the budget grows", not rises, "; ".join(rises) or
                " >= ".join(f"{r.compiled.ms(chip):.3f}" for r in ascending) + " ms"))  # fmt: skip
    full = next((r for r in rows if r.label == "100%"), None)
    if full is None:
        out.append(("at 100 % no slower than baseline (b)", False, "100 % did not compile"))
    else:
        out.append(("at 100 % no slower than baseline (b)", full.compiled.cycles <= result.pingpong_cycles,
                    f"{full.compiled.ms(chip):.3f} ms vs (b) {chip.milliseconds(result.pingpong_cycles):.3f} ms"))
    half = next((r for r in rows if r.label == "50%"), None)
    if half is None:
        out.append(("at 50 % speedup over (a) >= 2x", False, "50 % did not compile"))
    elif result.offchip_need > half.budget:
        out.append(("at 50 % speedup over (a) >= 2x", None,
                    f"(a) does not apply: it needs {result.offchip_need} on-chip bytes, budget {half.budget}"))
    else:
        speedup = result.offchip_cycles / half.compiled.cycles
        out.append(("at 50 % speedup over (a) >= 2x", speedup >= 2.0,
                    f"{speedup:.2f}x ((a) {chip.milliseconds(result.offchip_cycles):.3f} ms, cfmem {half.compiled.ms(chip):.3f} ms)"))
    if result.subject.name == "bigfc":
        for label in ("25%", "smallest"):
            r = next((x for x in result.rows if x.label == label), None)
            if r is not None:
                out.append((f"largest weight larger than the {label} budget", result.largest_weight > r.budget,
                            f"{result.largest_weight:,} bytes vs budget {r.budget:,}"))
    if result.facedetect is not None:
        fd = result.facedetect
        r: Row = fd["row"]
        if r.compiled is None:
            out.append(("facedetect at the depth-8 peak: within 5 % of its bound, peak <= it", False, r.error))
        else:
            ratio = r.compiled.cycles / fd["bound8"] if fd["bound8"] else float("inf")
            ok = ratio <= 1.05 and r.compiled.onchip_peak <= fd["peak8"] and r.checked
            out.append((
                "facedetect at the depth-8 peak: within 5 % of its bound, peak <= it", ok,
                f"budget {fd['peak8']:,} B; cfmem {r.compiled.ms(chip):.3f} ms vs depth-8 overlap bound"
                f" {chip.milliseconds(fd['bound8']):.3f} ms ({100 * (ratio - 1):+.1f} %; depth-8 plan simulated"
                f" {chip.milliseconds(fd['cycles8']):.3f} ms); cfmem peak {r.compiled.onchip_peak:,} B, measured"
                f" {max(r.onchip, r.touched):,} B; depth chosen {fd['depth']}; checked: {'yes' if r.checked else 'NO'}"
                f"{(' (' + r.error + ')') if r.error else ''}",
            ))  # fmt: skip
    return out


def _what_failed(r: Row) -> str:
    parts = []
    if not r.fits:
        parts.append(f"measured {max(r.onchip, r.touched)} > budget {r.budget}")
    if not r.flat_equals_graph:
        parts.append("flat != graph")
    if not r.within_tolerance:
        parts.append(f"diff vs original {r.diff_vs_original:.2e} beyond rtol {RTOL:g} / atol {ATOL:g}")
    if r.mlir_ok is False:
        parts.append(f"MLIR: {r.mlir_note}")
    return ", ".join(parts)


def _verdict(ok: bool | None) -> str:
    return {True: "PASS", False: "FAIL", None: "n/a"}[ok]


def report(results: list[Result], chip: Chip, ran: list[str], skipped: list[str], seconds: float, argv: str) -> str:
    rows = []
    for result in results:
        if result.error:
            rows.append([result.subject.name, "-", "-", f"NO: {result.error}"] + [""] * (len(HEADER) - 4))
        for row in result.rows:
            rows.append(table_row(result, row, chip))
        if result.facedetect is not None:
            rows.append(table_row(result, result.facedetect["row"], chip))
    width = max(len(r) for r in rows) if rows else len(HEADER)
    header = HEADER + ["note"] * (width > len(HEADER))
    rows = [r + [""] * (len(header) - len(r)) for r in rows]
    target_lines, failures = [], 0
    for result in results:
        for name, ok, numbers in targets(result, chip):
            failures += ok is False
            target_lines.append(f"- {_verdict(ok)} {result.subject.name}: {name}: {numbers}")
    baselines = md_table(
        ["model", "group", "P (ping-pong peak) KiB", "(b) ms", "(a) on-chip KiB", "(a) ms", "largest weight KiB", "input sets"],
        [[r.subject.name, r.subject.group, _kib(r.peak), f"{chip.milliseconds(r.pingpong_cycles):.3f}", _kib(r.offchip_need),
          f"{chip.milliseconds(r.offchip_cycles):.3f}", _kib(r.largest_weight), str(len(r.subject.input_sets))] for r in results],
    )  # fmt: skip
    text = "\n\n".join([
        "# Fit the chip",
        f"Generated by `bench/fit_chip.py {argv}`".rstrip() + f" in {seconds:.0f} s on chip `{chip.name}`"
        f" (cfmem.dma.timing.Chip()). {failures} target(s) failed.",
        f"Models run ({len(ran)}): {', '.join(ran)}.",
        f"Zoo models not run ({len(skipped)}; `--all` or `--only NAME` runs them): {', '.join(skipped) or 'none'}."
        + "".join(f" {name}: {why}." for name, why in SLOW.items() if name in skipped),
        "Budgets: 100, 75, 50, 25 % of P, the unconstrained ping-pong peak (`baseline_pingpong`), and the smallest"
        " budget the placement search fits (`smallest_budget`). `fits`: the on-chip memories of the flat module"
        " (`measure_flat`), the highest on-chip byte it wrote and the planned arena all <= the budget."
        " `flat==graph`: every output of the checking flat run bit-identical to the reference run of"
        " `Compiled.graph` on every input set; `max diff vs original`: largest |flat - reference run of the"
        f" original model| (target rtol {RTOL:g} / atol {ATOL:g}); `MLIR ok`: `cfmem.differential.check` on"
        f" `Compiled.graph` and `Compiled.flat` all ok (check-mlir's criterion; MLIR within rtol {RTOL:g} / atol"
        f" {MLIR_ATOL['example']:g} of the flat run on the examples, atol {MLIR_ATOL['imported']:g}, the zoo's"
        " tolerance against onnxruntime, on imported models). `ms`: modeled latency on the"
        " timed path (`timing_path`), `bound ms`: `latency_bound`, `gap %`: above the bound. (a): the whole arena"
        " off chip, weights read in place (`baseline_offchip`); (b): today's whole-weight ping-pong, everything on"
        " chip. `paths (outcomes)`: distinct branch paths the input sets took (branch outcomes run / all). `sliced ops as loops`: ops computed in slices whose slices"
        " `nn-roll-slices` made an `scf.for` / all sliced ops (one whose slices cannot share a loop trip, such as"
        " four slices in a rotation of four buffers, stays unrolled)."
        " Examples use `branch_covering_inputs`, imported models the zoo's input sets."
        " `compile s`: wall seconds of `compile_for_budget` (`smallest_budget`: its whole search).",
        "## Targets",
        "\n".join(target_lines),
        "## Baselines per model",
        baselines,
        "## Every budget",
        md_table(header, rows, "l" * 2 + "r" * (len(header) - 2)),
        machine_section(),
    ])  # fmt: skip
    return text + "\n"


def results_section_draft(results: list[Result], chip: Chip) -> str:
    """A draft of the section *Fitting the chip: measured* of docs/results.md: headline numbers per
    example, the facedetect line, what failed."""
    lines = []
    failed = []
    for result in results:
        for name, ok, numbers in targets(result, chip):
            if ok is False:
                failed.append(f"- {result.subject.name}: {name}: {numbers}")
        if result.subject.group != "example":
            continue
        by = {r.label: r for r in result.rows}

        def ms(label: str) -> str:
            r = by.get(label)
            return f"{r.compiled.ms(chip):.2f}" if r is not None and r.compiled is not None else "does not fit"

        half = by.get("50%")
        speed = f"{result.offchip_cycles / half.compiled.cycles:.1f}x" if half is not None and half.compiled else "-"
        lines.append([result.subject.name, _kib(result.peak), ms("100%"), ms("50%"), ms("25%"),
                      f"{chip.milliseconds(result.offchip_cycles):.2f}", speed])  # fmt: skip
    face = next((r.facedetect for r in results if r.facedetect is not None), None)
    face_line = ""
    if face is not None and face["row"].compiled is not None:
        c = face["row"].compiled
        face_line = (
            f"facedetect at the budget of today's depth-{FACEDETECT_DEPTH} plan ({face['peak8']:,} bytes): cfmem"
            f" {c.ms(chip):.2f} ms against that plan's overlap bound of {chip.milliseconds(face['bound8']):.2f} ms"
            f" ({100 * (c.cycles / face['bound8'] - 1):+.1f} %), on-chip peak {c.onchip_peak:,} bytes, DMA depth"
            f" {face['depth']}."
        )
    text = "\n\n".join([
        "## Fitting the chip: measured (bench/fit_chip.py)",
        f"Each example compiled into a fraction of P, its unconstrained ping-pong peak, on the default chip"
        f" (`{chip.name}`); (a) is the whole arena off chip with weights read in place. Every compile is run by"
        " the checking flat interpreter (on-chip bytes measured within the budget, bit-identical to the placed"
        " graph) and by upstream MLIR. Full table: bench/results/fit_chip.md.",
        md_table(["example", "P KiB", "ms at 100 %", "ms at 50 %", "ms at 25 %", "(a) ms", "speedup at 50 %"], lines),
        face_line,
        "Failed targets:\n" + "\n".join(failed) if failed else "Every target passed.",
    ])  # fmt: skip
    return text + "\n"


def main() -> int:
    from cfmem.testing import zoo

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", metavar="NAME", help="only these models (example stems or zoo names)")
    parser.add_argument("--all", action="store_true", help="every zoo model, not just DEFAULT_ZOO")
    parser.add_argument("--no-mlir", action="store_true", help="skip the upstream MLIR runs")
    parser.add_argument("--out", default=str(ROOT / "bench/results/fit_chip.md"))
    parser.add_argument("--section", default=str(ROOT / "bench/results/fit_chip_section.md"),
                        help="where to write the draft of docs/results.md's section on fitting the chip")
    args = parser.parse_args()
    chip = Chip()
    began = time.perf_counter()
    every_zoo = [m.name for m in zoo.models()]
    zoo_names = [n for n in every_zoo if n not in TEST_MODELS]
    wanted_zoo = zoo_names if args.all else [n for n in DEFAULT_ZOO if n in zoo_names]
    plan: list[tuple[str, str | None, str]] = []  # (name, zoo name or None, group)
    examples = {p.stem for p in (ROOT / "examples").glob("*.mlir")}
    plan += [(n, None, "example") for n in sorted(examples)]
    plan += [(n, n, "test model") for n in TEST_MODELS if n in every_zoo]
    plan += [(n, n, "zoo") for n in wanted_zoo]
    if args.only:
        unknown = [n for n in args.only if n not in examples and n not in every_zoo]
        if unknown:
            parser.error(f"unknown model(s): {', '.join(unknown)}")
        plan = [(n, None if n in examples else n, "example" if n in examples else
                 ("test model" if n in TEST_MODELS else "zoo")) for n in args.only]  # fmt: skip
    results: list[Result] = []
    failures = 0
    example_cache = {s.name: s for s in example_subjects()} if any(z is None for _, z, _ in plan) else {}
    with tempfile.TemporaryDirectory(prefix="cfmem-fit-") as tmp:
        for k, (name, zoo_name, group) in enumerate(plan):
            print(f"[{k + 1}/{len(plan)}] {name}", file=sys.stderr, flush=True)
            started = time.perf_counter()
            try:
                subject = example_cache[name] if zoo_name is None else zoo_subject(zoo_name, group, Path(tmp) / f"m{k}")
            except Exception as err:  # noqa: BLE001
                failed = Result(Subject(name, group, None, Path(tmp), []), error=f"import: {crash(err)}")
                results.append(failed)
            else:
                results.append(run_subject(subject, chip, not args.no_mlir))
            print(f"  {name}: {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
            pending = [n for n, _, _ in plan[k + 1 :]]
            failures = write_results(args, results, chip, zoo_names, pending, time.perf_counter() - began)
    return 1 if failures else 0


def write_results(args, results: list[Result], chip: Chip, zoo_names: list[str], pending: list[str], seconds: float) -> int:
    """Write the results so far (after every model, so a stopped run leaves them); the failed targets."""
    ran = [r.subject.name for r in results]
    skipped = [n for n in zoo_names if n not in ran]
    argv = " ".join(sys.argv[1:])
    text = report(results, chip, ran, skipped, seconds, argv)
    if pending:
        text = text.replace("\n\n", f"\n\nPARTIAL: still to run when this was written: {', '.join(pending)}.\n\n", 1)
    write_atomic(args.out, text)
    write_atomic(args.section, results_section_draft(results, chip))
    if not pending:
        print(text)
    return sum(ok is False for r in results for _, ok, _ in targets(r, chip))


if __name__ == "__main__":
    sys.exit(main())
