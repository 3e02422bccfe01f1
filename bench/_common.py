"""Helpers shared by the planning benchmarks (not part of the cfmem package).

- reading the minimalloc CSV format (``id,lower,upper,size``, half-open
  lifetimes) into a ``cfmem.planning.problem.Problem``;
- converting a problem to the input of the peer, omnimalloc 1.0.0
  (``omnimalloc.Allocation`` with half-open ``[start, end)`` lifetimes, the
  same convention), and reading its offsets back by buffer id;
- running one planner in a forked child with a hard wall-clock cap, so that a
  planner that overruns its time limit (or never returns) is killed and
  reported instead of stalling the whole run;
- small markdown and file helpers.

Every plan, ours or the peer's, is checked by ``cfmem.planning.verify.verify_plan``
in the parent process and its peak is recomputed there from the offsets.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import platform
import statistics
import subprocess
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cfmem.planning.csvio import read_problem_csv
from cfmem.planning.problem import Problem, lower_bound, peak_of
from cfmem.planning.verify import verify_plan
from cfmem.files import atomic_write_text

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = Path(os.environ.get("CFMEM_BENCHMARKS", ROOT / "benchmarks"))
PEER_VERSION = "1.0.0"


# --------------------------------------------------------------------------
# Problems


def read_csv_problem(path: str | Path) -> Problem:
    """A minimalloc-format CSV as a Problem (ids kept as written)."""
    return read_problem_csv(path)


def to_peer(problem: Problem) -> tuple:
    """The problem as omnimalloc allocations; allocation id = index in ``problem.buffers``."""
    from omnimalloc import Allocation

    if any(b.path for b in problem.buffers) or any(b.align != 1 for b in problem.buffers):
        raise ValueError("the peer takes plain interval problems (no branch paths, alignment 1)")
    return tuple(Allocation(id=i, size=b.size, start=b.start, end=b.end) for i, b in enumerate(problem.buffers))


def from_peer(problem: Problem, placed) -> dict[str, int]:
    """Offsets by buffer id from the peer's placed allocations."""
    return {problem.buffers[a.id].id: int(a.offset) for a in placed}


# --------------------------------------------------------------------------
# Planners run in a child process


@dataclass
class Run:
    """One planner on one problem."""

    planner: str
    status: str  # ok | error | killed | skipped | n/a
    peak: int | None = None
    seconds: float | None = None
    cpu_seconds: float | None = None
    proven_optimal: bool = False
    note: str = ""
    stats: dict[str, float] = field(default_factory=dict)

    def gap_pct(self, bound: int) -> float | None:
        if self.peak is None:
            return None
        return 0.0 if bound == 0 else 100.0 * (self.peak - bound) / bound


def run_cfmem(problem: Problem, strategy: str, time_limit: float) -> dict[str, Any]:
    """Plan with one cfmem strategy, timing the strategy call alone.

    The strategy comes from the registry ``cfmem.planning.strategies.solve``
    uses; what ``solve`` adds (verification, lower bound) is done by the
    parent, so it is not in the time. Wall-clock and CPU seconds of the same call.
    """
    from cfmem.planning.strategies import PlanOptions, get_strategy

    plan = get_strategy(strategy)
    began, cpu = time.perf_counter(), time.process_time()
    placement = plan(problem, PlanOptions(time_limit=time_limit))
    seconds, cpu = time.perf_counter() - began, time.process_time() - cpu
    return {
        "offsets": placement.offsets,
        "seconds": seconds,
        "cpu_seconds": cpu,
        "proven_optimal": placement.proven_optimal,
        "stats": dict(placement.stats),
    }


def run_peer_greedy(problem: Problem, time_limit: float) -> dict[str, Any]:
    """omnimalloc's ``greedy_by_size``: largest first, first fit (C++ placer)."""
    from omnimalloc.allocators import GreedyBySizeAllocator

    allocations = to_peer(problem)
    began, cpu = time.perf_counter(), time.process_time()
    placed = GreedyBySizeAllocator().allocate(allocations)
    seconds, cpu = time.perf_counter() - began, time.process_time() - cpu
    return {"offsets": from_peer(problem, placed), "seconds": seconds, "cpu_seconds": cpu,
            "proven_optimal": False, "stats": {}}


def run_peer_supermalloc(problem: Problem, time_limit: float) -> dict[str, Any]:
    """omnimalloc's SuperMalloc (portfolio branch and bound), one thread, ``time_limit`` seconds."""
    from omnimalloc.allocators import SupermallocAllocator

    allocations = to_peer(problem)
    began, cpu = time.perf_counter(), time.process_time()
    result = SupermallocAllocator(timeout=time_limit, num_threads=1).solve(allocations)
    seconds, cpu = time.perf_counter() - began, time.process_time() - cpu
    return {
        "offsets": from_peer(problem, result.allocations),
        "seconds": seconds,
        "cpu_seconds": cpu,
        "proven_optimal": bool(result.proved_optimal),
        "stats": {"peer_lower_bound": float(result.lower_bound), "peer_peak": float(result.peak)},
    }


def _child(conn, fn: Callable, args: tuple) -> None:
    try:
        conn.send(("ok", fn(*args)))
    except BaseException as e:  # report everything, including import errors
        last = traceback.format_exception_only(type(e), e)[-1].strip()
        conn.send(("error", last))
    finally:
        conn.close()


def run_isolated(fn: Callable, args: tuple, hard_cap: float) -> tuple[str, Any, float]:
    """Run ``fn(*args)`` in a forked child; kill it after ``hard_cap`` seconds.

    Returns ``(status, payload, wall seconds)``: status ``ok`` with fn's result,
    ``error`` with the exception's last line, or ``killed``.
    """
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(child, fn, args), daemon=True)
    began = time.perf_counter()
    proc.start()
    child.close()
    try:
        if parent.poll(hard_cap):
            try:
                status, payload = parent.recv()
            except EOFError:
                status, payload = "error", f"child died (exit code {proc.exitcode})"
        else:
            status, payload = "killed", None
    finally:
        wall = time.perf_counter() - began
        if proc.is_alive() and status == "killed":
            proc.terminate()
            proc.join(5)
            if proc.is_alive():
                proc.kill()
        proc.join()
        parent.close()
    return status, payload, wall


def checked_run(planner: str, problem: Problem, fn: Callable, args: tuple, hard_cap: float) -> Run:
    """Run a planner isolated, then verify its plan and recompute its peak here."""
    status, payload, wall = run_isolated(fn, args, hard_cap)
    if status == "killed":
        return Run(planner, "killed", note=f"killed after {wall:.0f} s (hard cap {hard_cap:.0f} s)")
    if status == "error":
        if "No module named" in payload:
            return Run(planner, "n/a", note=payload)
        return Run(planner, "error", note=payload)
    offsets = payload["offsets"]
    peak = peak_of(problem.buffers, offsets)
    try:
        verify_plan(problem.buffers, offsets, arena_size=peak)
    except ValueError as e:
        return Run(planner, "error", note=f"plan rejected by verify_plan: {e}")
    bound = lower_bound(problem.buffers)
    return Run(
        planner,
        "ok",
        peak=peak,
        seconds=payload["seconds"],
        cpu_seconds=payload.get("cpu_seconds"),
        proven_optimal=payload["proven_optimal"] or peak == bound,
        stats=payload["stats"],
    )


# --------------------------------------------------------------------------
# Reporting


def environment() -> dict[str, str]:
    """What the numbers were measured on and with."""
    try:
        commit = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(ROOT), "status", "--porcelain", "cfmem"], capture_output=True, text=True, check=True
        ).stdout.strip()
        commit += " + uncommitted changes in cfmem/" if dirty else ""
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    try:
        from importlib.metadata import version

        peer = version("omnimalloc")
    except Exception:
        peer = "not installed"
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:
        cpus = os.cpu_count() or 0
    try:
        load = "%.1f %.1f %.1f" % os.getloadavg()
    except OSError:
        load = "?"
    return {
        "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "python": platform.python_version(),
        "machine": f"{platform.machine()}, {cpus} CPUs usable, load average {load} at start",
        "cfmem": commit,
        "omnimalloc": peer,
    }


def planner_fingerprints() -> dict[str, str]:
    """Short hashes of the planner sources (they may change while a run goes on)."""
    out = {}
    for name in ("greedy", "search", "beam", "strategies"):
        path = ROOT / "cfmem" / "planning" / f"{name}.py"
        out[name] = hashlib.sha256(path.read_bytes()).hexdigest()[:10] if path.exists() else "absent"
    return out


def median_seconds(fn, repeat: int) -> float:
    """Median wall-clock seconds of ``repeat`` calls of ``fn`` after one warm-up call."""
    fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def machine_section() -> str:
    """The closing section of a results file: what the numbers were measured on and with."""
    return "## Machine\n\n" + "\n".join(f"- {k}: {v}" for k, v in environment().items())


def md_table(header: list[str], rows: list[list[str]], align: str | None = None) -> str:
    """A markdown table; ``align`` is one character per column (l or r)."""
    align = align or "l" + "r" * (len(header) - 1)
    sep = ["---:" if a == "r" else "---" for a in align]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(sep) + " |"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def fmt_seconds(s: float | None) -> str:
    if s is None:
        return "-"
    if s < 0.01:
        return f"{s * 1000:.1f} ms"
    if s < 10:
        return f"{s:.2f} s"
    return f"{s:.1f} s"


def write_atomic(path: str | Path, text: str) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, text)


def report_main(doc: str, run: Callable[[], str], results_name: str) -> int:
    """The command line of a bench script that writes one Markdown report: ``--out`` (default
    ``bench/results/<results_name>``), written atomically and printed."""
    import argparse

    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent / "results" / results_name))
    args = parser.parse_args()
    report = run()
    write_atomic(args.out, report + "\n")
    print(report)
    return 0


def each_in_work_dir(items: list, prefix: str, run, label=lambda item: item.name) -> list:
    """``run(item, work)`` for each item, ``work`` a fresh directory of one temporary folder
    (removed afterwards); progress on stderr, ``[k/n] label``."""
    import sys
    import tempfile

    results = []
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        for k, item in enumerate(items):
            print(f"[{k + 1}/{len(items)}] {label(item)}", file=sys.stderr, flush=True)
            work = Path(tmp) / f"m{k}"
            work.mkdir()
            results.append(run(item, work))
    return results
