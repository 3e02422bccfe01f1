"""Scale: how the ``cfmem`` commands scale to real-size models, step by step, each step a
separate ``cfmem`` process whose own wall seconds, CPU seconds (user + system) and peak RSS
are measured (``os.wait4`` on the child, forked from a small launcher: its own resource usage,
nothing of this script's).

Models: ``resnet50, densenet121, inception_v2, shufflenet, squeezenet, vgg19`` from the onnx
wheel's backend test data (``light_*.onnx``: real architectures whose weights are
``ConstantOfShape`` fills, so their outputs are nearly constant and the numeric check is weak
there; the flat interpreter's byte-ownership and DMA checks are not), and every model of the
zoo (``cfmem.testing.zoo``: torchvision nets, keyword spotters, a transformer block, silero and
models with ifs, float and int8). Per model, in order:

1. ``import``: ``cfmem import MODEL.onnx -o DIR/m.mlir`` (with the zoo's ``--input-shape``s);
   the weight bytes are the size of the ``m.weights.bin`` it writes.
2. ``P``: the unconstrained ping-pong peak (``cfmem.fit.baseline_pingpong`` on
   ``timing_path``, as ``bench/fit_chip.py`` computes it), in a forked child of this script
   (wall seconds only; not a ``cfmem`` command).
3. ``compile``: ``cfmem compile DIR/m.mlir -o DIR/flat.mlir`` (the default chip's 2 MiB).
4. ``compile --budget``: at 50 % of P for the light models; at 100, 75, 50 and 25 % of P for
   the zoo models (``bench/fit_chip.py``'s fractions).
5. ``reference run``: ``cfmem run DIR/m.mlir --seed 0`` (the reference interpreter); a zoo
   model runs on the zoo's first input set instead (``--inputs``).
6. ``check``: ``cfmem run`` of every flat module on the same inputs (the flat
   interpreter with its default checks: no tensor read after another overwrote its bytes, no
   DMA buffer read before its wait), its outputs compared with the reference run's within
   ``bench/fit_chip.py``'s rtol / atol. Upstream MLIR (``cfmem check-mlir``) is not run.
   A flat module out of tolerance is compiled again with ``--graph`` (the flat module must come
   out byte-identical) and its placed graph run by the reference interpreter: the check passes
   when the flat outputs are the graph's bit for bit, so the difference is ``nn-slice-weights``
   reordering float sums and not the plan (said in its note), and fails otherwise.

A step that fails or runs past ``--timeout`` shows its one-line reason; the model's later
steps are not run. The per-model table gives the weight bytes, P, the wall seconds of each
compile, how many checks passed, the largest peak RSS of any step and its ratio to the RSS
target. Columns of the step table:

- ``wall s``, ``CPU s``: the child's elapsed and user + system seconds;
- ``peak RSS MiB``: the child's ``ru_maxrss``;
- ``RSS / limit``: the peak's ratio to the target, at most 3 x the weight bytes + 1 GiB, and
  pass or FAIL;
- ``wall / time limit``: the wall seconds' ratio to the target where the project sets one
  (light models: each compile at most 20 s; zoo models: each ``compile --budget`` at most 5 s,
  ``gru_kws`` at 25 % at most 30 s), and pass or FAIL;
- ``note``: the compile's summary (on-chip bytes of the budget, modeled ms), the check's
  largest difference, or why the step failed (one line; ``--memory-cap`` caps each step's
  address space, by default at half the physical memory, so that a model too big for the
  machine fails its own step).

    .venv/bin/python bench/scale.py                          # every model (tens of minutes)
    .venv/bin/python bench/scale.py --only squeezenet dscnn --out /tmp/scale.md
    .venv/bin/python bench/scale.py --timeout 1200 --memory-cap 0    # no address-space cap
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import ROOT, machine_section, md_table, run_isolated, write_atomic  # noqa: E402
from fit_chip import ATOL, FRACTIONS, RTOL  # noqa: E402

from cfmem.differential import max_abs_diff, scaled_error  # noqa: E402

LIGHT = ("resnet50", "densenet121", "inception_v2", "shufflenet", "squeezenet", "vgg19")
"""Models of the onnx wheel's backend test data (``light_NAME.onnx``)."""
def zoo_names() -> tuple[str, ...]:
    from cfmem.testing import zoo

    return tuple(m.name for m in zoo.models())


ZOO = zoo_names()
"""Every model of the zoo (``cfmem.testing.zoo``: float, int8 QDQ, QOperator and dynamic, some
with ifs); their budgets are ``FRACTIONS`` of P, their inputs the zoo's first input set."""
LIGHT_FRACTIONS = (0.5,)
COMPILE_LIMIT_S = 20.0
"""Light models: each compile, with or without a budget."""
ZOO_BUDGET_LIMIT_S = {("gru_kws", 0.25): 30.0}
"""Zoo models: each ``compile --budget`` at most 5 s, except these."""
ZOO_BUDGET_DEFAULT_S = 5.0
RSS_SLACK = 2**30
"""Peak RSS target: at most 3 x the weight bytes + this."""
SEED = 0
DEFAULT_CAP_FRACTION = 0.5
"""Each step's address space is capped at this fraction of the physical memory by default, so
that a model too big for the machine fails its step instead of waking the out-of-memory killer
(which may pick another process). The address space exceeds the RSS, so a cap can stop a step
whose RSS would have fit."""


def physical_memory() -> int:
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def light_path(name: str) -> Path:
    import onnx

    return Path(onnx.__file__).parent / "backend/test/data/light" / f"light_{name}.onnx"


def model_path(name: str) -> Path:
    if name in ZOO:
        from cfmem.testing import zoo

        return Path(zoo.zoo_model(name).path())
    return light_path(name)


def import_args(name: str) -> list[str]:
    """``cfmem import`` options a zoo model needs: its input shapes."""
    if name not in ZOO:
        return []
    from cfmem.testing import zoo

    shapes = zoo.zoo_model(name).shapes
    return [arg for k, dims in shapes.items() for arg in ("--input-shape", f"{k}={','.join(map(str, dims))}")]


def input_args(name: str, work: Path) -> list[str]:
    """``cfmem run`` options giving the inputs: the zoo's first input set (written to
    ``work/inputs.npz``), or seeded random ones for the light models."""
    if name not in ZOO:
        return ["--seed", str(SEED)]
    from cfmem.importers.onnx.reference import cfmem_inputs
    from cfmem.testing import zoo

    feeds = cfmem_inputs(zoo.zoo_model(name).feeds()[0], {})
    np.savez(work / "inputs.npz", **feeds)
    return ["--inputs", str(work / "inputs.npz")]


# --------------------------------------------------------------------------
# One step: a cfmem child process


@dataclass
class Step:
    """One measured step of one model."""

    label: str
    wall: float | None = None
    cpu: float | None = None
    rss: int | None = None
    """Peak RSS in bytes."""
    ok: bool = False
    note: str = ""
    time_limit: float | None = None


def cfmem_argv(*args: str) -> list[str]:
    return [sys.executable, "-m", "cfmem.tools.cli", *args]


LAUNCHER = r"""
import os, resource, sys, time
began = time.perf_counter()
pid = os.fork()
if pid == 0:
    cap = int(sys.argv[2])
    if cap:
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    os.execv(sys.argv[3], sys.argv[3:])
_, status, usage = os.wait4(pid, 0)
with open(sys.argv[1], "w") as out:
    out.write(f"{os.waitstatus_to_exitcode(status)} {time.perf_counter() - began} {usage.ru_utime + usage.ru_stime} {usage.ru_maxrss}")
"""
"""Runs the command given, its address space capped at the bytes given (0: no cap), and writes
its exit code, wall seconds, CPU seconds and ``ru_maxrss`` (KiB) to the file given. The command is forked from this small process, not from the script:
Linux counts the RSS of the process a child was forked from into the child's ``ru_maxrss``
(the copied address space's high-water mark), which would put the script's own RSS under
every step."""


def run_child(label: str, argv: list[str], timeout: float, work: Path, memory_cap: int = 0) -> tuple[Step, str]:
    """Run ``argv`` through ``LAUNCHER``, killing its process group after ``timeout`` seconds
    and capping its address space at ``memory_cap`` bytes (0: no cap); the step measured from
    the child's own rusage, and its standard error."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    stem = work / f".{label.replace(' ', '_').replace(':', '')}"
    err_path, usage_path = stem.with_suffix(".stderr"), stem.with_suffix(".usage")
    usage_path.unlink(missing_ok=True)
    launcher = [sys.executable, "-S", "-c", LAUNCHER, str(usage_path), str(memory_cap), *argv]
    with open(err_path, "wb") as err:
        began = time.perf_counter()
        proc = subprocess.Popen(launcher, stdout=subprocess.DEVNULL, stderr=err, env=env, start_new_session=True)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            step = Step(label, time.perf_counter() - began, note=f"timed out after {timeout:.0f} s")
            return step, err_path.read_text(errors="replace")
    stderr = err_path.read_text(errors="replace")
    if not usage_path.exists():
        return Step(label, time.perf_counter() - began, note=f"the launcher failed (exit {proc.returncode})"), stderr
    code, wall, cpu, maxrss = usage_path.read_text().split()
    step = Step(label, float(wall), float(cpu), int(maxrss) * 1024)
    if int(code) < 0:
        killer = " (the kernel's out-of-memory killer?)" if int(code) == -signal.SIGKILL else ""
        step.note = f"killed by {signal.Signals(-int(code)).name}{killer}"
    elif int(code) != 0:
        lines = [line for line in stderr.splitlines() if line.strip()]
        last = lines[-1].strip().replace(str(work), "DIR") if lines else "no message"
        step.note = f"exit {code}: " + ("out of memory (the address-space cap)" if last == "MemoryError" else last)
    else:
        step.ok = True
    return step, stderr


def summary_of(stderr: str, source: str) -> str:
    """The compile's summary line without the module's path."""
    lines = [line for line in stderr.splitlines() if "on-chip bytes" in line]
    return lines[-1].replace(f"{source}: ", "", 1).strip() if lines else ""


def pingpong_peak(path: str) -> int:
    """P, as bench/fit_chip.py computes it: ``baseline_pingpong`` on the default chip's timing path."""
    from cfmem.dma.timing import Chip
    from cfmem.fit import baseline_pingpong, timing_path
    from cfmem.ir_io import load_module

    module, _ = load_module(path)
    chip = Chip()
    peak, _ = baseline_pingpong(module, chip, timing_path(module, chip))
    return peak


# --------------------------------------------------------------------------
# One model


@dataclass
class Result:
    name: str
    group: str
    weight_bytes: int | None = None
    peak: int | None = None
    steps: list[Step] = field(default_factory=list)
    check: str = "flat interpreter (default checks) vs reference interpreter, seed 0"

    @property
    def rss_limit(self) -> int | None:
        return None if self.weight_bytes is None else 3 * self.weight_bytes + RSS_SLACK

    def failed(self) -> bool:
        return any(not s.ok for s in self.steps)


def budget_limit(name: str, fraction: float) -> float:
    if name in ZOO:
        return ZOO_BUDGET_LIMIT_S.get((name, fraction), ZOO_BUDGET_DEFAULT_S)
    return COMPILE_LIMIT_S


def run_model(name: str, work: Path, timeout: float, memory_cap: int = 0) -> Result:
    """Every step of one model (see the module docstring), stopping at the first failure."""
    result = Result(name, "zoo" if name in ZOO else "light")
    fractions = FRACTIONS if name in ZOO else LIGHT_FRACTIONS
    work.mkdir(parents=True, exist_ok=True)
    module = str(work / "m.mlir")
    flats: list[tuple[str, str, list[str]]] = []  # (compile step label, flat module, budget arguments)

    def step(label: str, *args: str, limit: float | None = None) -> tuple[Step, str] | None:
        print(f"  {name}: {label} ...", file=sys.stderr, flush=True)
        measured, stderr = run_child(label, cfmem_argv(*args), timeout, work, memory_cap)
        measured.time_limit = limit
        result.steps.append(measured)
        usage = f", {measured.cpu:.1f} s CPU, {measured.rss / 2**20:,.0f} MiB" if measured.rss is not None else ""
        print(f"  {name}: {label}: {measured.wall:.1f} s wall{usage}{'' if measured.ok else ' FAILED: ' + measured.note}",
              file=sys.stderr, flush=True)  # fmt: skip
        return (measured, stderr) if measured.ok else None

    try:
        source = str(model_path(name))
    except Exception as err:  # noqa: BLE001 - a missing model is a result here
        result.steps.append(Step("import", note=f"no model file: {str(err).splitlines()[0]}"))
        return result
    if step("import", "import", source, "-o", module, *import_args(name)) is None:
        return result
    result.weight_bytes = (work / "m.weights.bin").stat().st_size if (work / "m.weights.bin").exists() else 0

    print(f"  {name}: P ...", file=sys.stderr, flush=True)
    status, payload, wall = run_isolated(pingpong_peak, (module,), timeout)
    p_step = Step("P (ping-pong peak, forked child)", wall)
    result.steps.append(p_step)
    if status != "ok":
        p_step.note = f"timed out after {timeout:.0f} s" if status == "killed" else payload
        return result
    p_step.ok, result.peak = True, payload
    p_step.note = f"P = {payload:,} bytes"

    limit = COMPILE_LIMIT_S if name in LIGHT else None
    done = step("compile", "compile", module, "-o", str(work / "flat.mlir"), limit=limit)
    if done is None:
        return result
    done[0].note = summary_of(done[1], module)
    flats.append(("compile", str(work / "flat.mlir"), []))
    for fraction in fractions:
        budget = int(result.peak * fraction)
        label = f"compile --budget {fraction:.0%} of P"
        flat = str(work / f"flat{round(100 * fraction)}.mlir")
        done = step(label, "compile", module, "--budget", str(budget), "-o", flat, limit=budget_limit(name, fraction))
        if done is None:
            return result
        done[0].note = summary_of(done[1], module)
        flats.append((label, flat, ["--budget", str(budget)]))

    reference = work / "reference.npz"
    inputs = input_args(name, work)
    if step("reference run", "run", module, *inputs, "-o", str(reference)) is None:
        return result
    want = dict(np.load(reference))
    for label, flat, budget_args in flats:
        out = str(Path(flat).with_suffix(".npz"))
        done = step(f"check: {label}", "run", flat, *inputs, "-o", out)
        if done is None:
            return result
        got = dict(np.load(out))
        error, diff = scaled_error(want, got, RTOL, ATOL), max_abs_diff(want, got)
        spread = max((float(np.ptp(v)) for v in want.values() if v.size and v.dtype.kind == "f"), default=0.0)
        done[0].ok = error <= 1.0
        done[0].note = (f"max |flat - reference| {diff:.1e}" + ("" if done[0].ok else f" (OUT OF rtol {RTOL:g} / atol {ATOL:g})")
                        + f"; reference outputs span {spread:.1e}")  # fmt: skip
        if not done[0].ok and not explained_by_graph(step, module, flat, budget_args, inputs, got, done[0]):
            return result
    return result


def explained_by_graph(step, module: str, flat: str, budget_args: list[str], inputs: list[str], got: dict, check: Step) -> bool:
    """Whether ``flat``'s outputs ``got``, out of tolerance of the imported model's, are its
    placed graph's bit for bit: the same compile again with ``--graph`` (its flat module must
    come out byte-identical), the graph run by the reference interpreter. Then the difference
    is ``nn-slice-weights`` reordering float sums, not the plan, and ``check`` passes with
    that said; else it stays failed."""
    again, graph = str(Path(flat).with_suffix(".again.mlir")), str(Path(flat).with_suffix(".graph.mlir"))
    if step(f"graph of {Path(flat).name}", "compile", module, *budget_args, "-o", again, "--graph", graph) is None:
        return False
    if Path(again).read_bytes() != Path(flat).read_bytes():
        check.note += "; compiling again gave another flat module"
        return False
    out = str(Path(graph).with_suffix(".npz"))
    if step(f"reference run of {Path(graph).name}", "run", graph, *inputs, "-o", out) is None:
        return False
    placed = dict(np.load(out))
    same = placed.keys() == got.keys() and all(np.array_equal(placed[k], got[k]) for k in got)
    check.note += "; flat = its placed graph bit for bit (the difference is slicing's float order)" if same else (
        f"; flat differs from its placed graph by {max_abs_diff(placed, got):.1e}")
    check.ok = same
    return same


# --------------------------------------------------------------------------
# Report


def _mib(n: int | None) -> str:
    return "-" if n is None else f"{n / 2**20:,.1f}"


def _ratio(value: float | None, limit: float | None, unit: str) -> str:
    """``value / limit`` as a ratio with its verdict; ``-`` where there is no target."""
    if value is None or limit is None:
        return "-"
    ratio = value / limit
    return f"{ratio:.2f}x of {limit:g}{unit} {'pass' if ratio <= 1 else 'FAIL'}"


def step_rows(result: Result) -> list[list[str]]:
    rows = []
    limit = result.rss_limit
    for s in result.steps:
        measured = s.wall is not None
        rss = s.rss if s.rss is not None else None
        rows.append([
            result.name, s.label,
            f"{s.wall:.1f}" if measured else "-",
            f"{s.cpu:.1f}" if s.cpu is not None else "-",
            _mib(rss),
            _ratio(rss / 2**20 if rss is not None else None, limit / 2**20 if limit else None, " MiB"),
            _ratio(s.wall if s.ok or s.note.startswith("timed out") else None, s.time_limit, " s"),
            ("" if s.ok else "FAILED: ") + s.note,
        ])  # fmt: skip
    return rows


STEP_HEADER = ["model", "step", "wall s", "CPU s", "peak RSS MiB", "RSS / limit (3 x weights + 1 GiB)",
               "wall / time limit", "note"]  # fmt: skip


def targets(result: Result) -> list[tuple[str, bool, str]]:
    """(target, met, the numbers) for one model; a step that did not run misses every target it had."""
    out = []
    done = not result.failed()
    steps = "every step ran and checked" if done else "; ".join(f"{s.label}: {s.note}" for s in result.steps if not s.ok)
    out.append(("every step runs and checks", done, steps))
    cfmem_steps = [s for s in result.steps if s.rss is not None]
    if cfmem_steps and result.rss_limit:
        worst = max(cfmem_steps, key=lambda s: s.rss)
        out.append((
            "peak RSS <= 3 x weights + 1 GiB", worst.rss <= result.rss_limit,
            f"{_mib(worst.rss)} MiB ({worst.label}) of {_mib(result.rss_limit)} MiB, {worst.rss / result.rss_limit:.2f}x",
        ))  # fmt: skip
    for s in result.steps:
        if s.time_limit is not None:
            met = s.ok and s.wall <= s.time_limit
            out.append((f"{s.label} <= {s.time_limit:g} s", met, f"{s.wall:.1f} s, {s.wall / s.time_limit:.2f}x"
                        + ("" if s.ok else f" ({s.note})")))  # fmt: skip
    return out


def summary_row(result: Result) -> list[str]:
    by = {s.label: s for s in result.steps}

    def wall(label: str) -> str:
        s = by.get(label)
        return "-" if s is None else (f"{s.wall:.1f}" if s.ok else f"FAILED ({s.wall:.0f} s)" if s.wall else "FAILED")

    compiles = [s for s in result.steps if s.label.startswith("compile --budget")]
    checks = [s for s in result.steps if s.label.startswith("check")]
    rss = max((s.rss for s in result.steps if s.rss is not None), default=None)
    ratio = f"{rss / result.rss_limit:.2f}x" if rss is not None and result.rss_limit else "-"
    missed = sum(not met for _, met, _ in targets(result))
    return [
        result.name, result.group,
        f"{result.weight_bytes:,}" if result.weight_bytes is not None else "-",
        f"{result.peak:,}" if result.peak is not None else "-",
        wall("import"), wall("compile"),
        ", ".join(f"{s.label.split()[2]} {s.wall:.1f}" + ("" if s.ok else " FAILED") for s in compiles) or "-",
        f"{sum(s.ok for s in checks)}/{len(checks)} ok" if checks else "not run",
        _mib(rss), ratio,
        "all met" if not missed else f"{missed} missed",
    ]  # fmt: skip


SUMMARY_HEADER = ["model", "group", "weight bytes", "P bytes", "import s", "compile s", "compile --budget s (% of P)",
                  "checks", "max peak RSS MiB", "RSS / limit", "targets"]  # fmt: skip


def report(results: list[Result], argv: str, seconds: float, pending: list[str], timeout: float, memory_cap: int) -> str:
    target_lines = [
        f"- {'PASS' if met else 'FAIL'} {r.name}: {what}: {numbers}" for r in results for what, met, numbers in targets(r)
    ]
    failed = sum(line.startswith("- FAIL") for line in target_lines)
    rows = [row for r in results for row in step_rows(r)]
    parts = [
        "# Scale: real-size models through every cfmem command",
        f"Generated by `{' '.join(['bench/scale.py', *argv.split()])}` in {seconds:.0f} s"
        f" (per-step timeout {timeout:g} s, address space"
        f" {'not capped' if not memory_cap else f'capped at {memory_cap / 2**30:.1f} GiB'})."
        f" {failed} target(s) missed.",
    ]
    if pending:
        parts.append(f"PARTIAL: still to run when this was written: {', '.join(pending)}.")
    parts += [
        "Each step is a separate `cfmem` process, measured by `os.wait4` in a small launcher it is forked from"
        " (its own wall seconds, user + system CPU seconds and peak RSS; forked from this script, Linux would count"
        " the script's RSS into the child's), except P, computed in a forked child of the script with"
        " `cfmem.fit.baseline_pingpong` as `bench/fit_chip.py` does (wall seconds only). Weight bytes: the size of"
        " the `.weights.bin` that `cfmem import` writes. The light models' weights are `ConstantOfShape` fills, so"
        " their outputs are nearly constant (the span of the reference outputs is shown) and the numeric check is"
        " weak there; the flat interpreter's byte-ownership and DMA-wait checks are not. Check: `cfmem run` of each"
        f" flat module (flat interpreter, default checks) against `cfmem run` of the imported module (reference"
        f" interpreter) on the same inputs (`--seed {SEED}`; a zoo model's first input set), within rtol {RTOL:g} /"
        f" atol {ATOL:g}; upstream MLIR"
        " (`cfmem check-mlir`) is not run. A flat module out of that tolerance is compiled again with `--graph`"
        " (its flat module must come out byte-identical) and checked against its placed graph run by the reference"
        " interpreter: it passes when the flat outputs are the graph's bit for bit (the difference from the model is"
        " then slicing's float order, said in the note) and fails otherwise. A failed step stops its model.",
        "## Targets",
        "\n".join(target_lines) or "none",
        "## Per model",
        md_table(SUMMARY_HEADER, [summary_row(r) for r in results], "ll" + "r" * (len(SUMMARY_HEADER) - 2)),
        "## Every step",
        md_table(STEP_HEADER, rows, "ll" + "r" * (len(STEP_HEADER) - 3) + "l"),
        machine_section(),
    ]
    return "\n\n".join(parts) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", metavar="NAME", choices=LIGHT + ZOO, help="only these models")
    parser.add_argument("--out", default=str(ROOT / "bench/results/scale.md"))
    parser.add_argument("--timeout", type=float, default=600.0, metavar="S", help="seconds per step (600)")
    parser.add_argument("--memory-cap", type=float, default=DEFAULT_CAP_FRACTION * physical_memory() / 2**30, metavar="GIB",
                        help="address space of each cfmem step, GiB (default: half the physical memory; 0: no cap)")
    args = parser.parse_args()
    if args.timeout <= 0:
        parser.error("--timeout must be positive")
    if args.memory_cap < 0:
        parser.error("--memory-cap must be 0 or more")
    memory_cap = int(args.memory_cap * 2**30)
    names = list(args.only or (*LIGHT, *ZOO))
    argv = " ".join(sys.argv[1:])
    began = time.perf_counter()
    results: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="cfmem-scale-") as tmp:
        for k, name in enumerate(names):
            print(f"[{k + 1}/{len(names)}] {name}", file=sys.stderr, flush=True)
            results.append(run_model(name, Path(tmp) / name, args.timeout, memory_cap))
            for leftover in (Path(tmp) / name).glob("*"):
                leftover.unlink()  # a big model's weights and flat modules: gigabytes of /tmp
            text = report(results, argv, time.perf_counter() - began, names[k + 1 :], args.timeout, memory_cap)
            write_atomic(args.out, text)
    print(text)
    return 1 if any(not met for r in results for _, met, _ in targets(r)) else 0


if __name__ == "__main__":
    sys.exit(main())
