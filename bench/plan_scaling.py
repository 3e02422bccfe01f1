"""How the greedy planners scale: seconds against problem size.

Generates interval problems of 1,000 .. 100,000 buffers (deterministic seed)
with the structure of real traces: one buffer defined per step, most live for a
few steps (log-uniform 1 .. 1,000 steps), a few (4 %) live long (log-uniform
1,000 .. 8,000 steps, cut at the end of the trace); sizes log-uniform from 64 B
to 1 MiB; a few hundred buffers live at once. Each greedy strategy of cfmem
(sequential, large-first, short-first, best-fit, tflm, by-size, auto) and omnimalloc
1.0.0's ``greedy_by_size`` plans each problem; the table gives the seconds and
the empirical exponent between consecutive sizes, log(t2 / t1) / log(n2 / n1)
(1 = linear, 2 = quadratic). The idealloc trace S_1 (28,526 buffers) is timed
the same way, and so is any CSV trace given with ``--traces``.

Every planner runs in a forked child with a hard cap (``--cap``), every plan is
verified by ``cfmem.planning.verify.verify_plan``, and the gap to the lower
bound is reported in a second table, with a check that ``auto`` (which runs
``tflm`` and ``by-size`` among its orders) is never above either. Times are the best of
``--repeat`` runs for problems up to 10,000 buffers and of one run above.

Usage::

    .venv/bin/python bench/plan_scaling.py [--sizes 1000,3000,...] [--seed 0]
        [--skip-peer] [--no-s1] [--traces a.csv,b.csv] [--out bench/results/scaling.md]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np
from _common import (
    BENCHMARKS,
    PEER_VERSION,
    Run,
    checked_run,
    environment,
    fmt_seconds,
    md_table,
    planner_fingerprints,
    read_csv_problem,
    run_cfmem,
    run_peer_greedy,
    write_atomic,
)

from cfmem.planning.problem import Buffer, Problem, lower_bound

STRATEGIES = ["sequential", "large-first", "short-first", "best-fit", "tflm", "by-size", "auto"]
PEER = "omni-greedy"
LABEL = {PEER: "omni greedy_by_size"}

SHORT_MAX = 1000
LONG_SHARE = 0.04
LONG_RANGE = (1_000, 8_000)
SIZE_RANGE = (64, 1 << 20)


def generate(n: int, seed: int = 0) -> Problem:
    """A deterministic trace of ``n`` buffers (see the module docstring)."""
    rng = np.random.default_rng([seed, n])
    start = np.arange(n, dtype=np.int64)
    short = np.exp(rng.uniform(0.0, math.log(SHORT_MAX), n))
    long_ = np.exp(rng.uniform(math.log(LONG_RANGE[0]), math.log(LONG_RANGE[1]), n))
    duration = np.where(rng.random(n) < LONG_SHARE, long_, short).round().astype(np.int64)
    end = np.minimum(start + np.maximum(duration, 1), n + 1)
    size = np.exp(rng.uniform(math.log(SIZE_RANGE[0]), math.log(SIZE_RANGE[1]), n)).round().astype(np.int64)
    buffers = [Buffer(str(i), int(s), int(e), int(z)) for i, (s, e, z) in enumerate(zip(start, end, size))]
    return Problem(buffers, name=f"gen{n}")


def live_counts(problem: Problem) -> tuple[float, int]:
    """Mean and largest number of buffers live at one step."""
    horizon = max(b.end for b in problem.buffers) + 1
    delta = np.zeros(horizon + 1, dtype=np.int64)
    for b in problem.buffers:
        delta[b.start] += 1
        delta[b.end] -= 1
    live = np.cumsum(delta)[:horizon]
    return float(live.mean()), int(live.max())


def time_planner(planner: str, problem: Problem, repeat: int, cap: float) -> Run:
    """Best of ``repeat`` isolated runs (each verified)."""
    best: Run | None = None
    for _ in range(repeat):
        if planner == PEER:
            run = checked_run(planner, problem, run_peer_greedy, (problem, 0.0), cap)
        else:
            run = checked_run(planner, problem, run_cfmem, (problem, planner, 0.0), cap)
        if run.status != "ok":
            return run
        if best is None or run.cpu_seconds < best.cpu_seconds:  # type: ignore[operator]
            best = run
    assert best is not None
    return best


def exponent(t1: float | None, t2: float | None, n1: int, n2: int) -> str:
    if not t1 or not t2:
        return "-"
    return f"{math.log(t2 / t1) / math.log(n2 / n1):.2f}"


def cell(run: Run, key: str = "cpu_seconds") -> str:
    return fmt_seconds(getattr(run, key)) if run.status == "ok" else run.status


def seconds_table(rows_data: list[dict], planners: list[str], key: str) -> str:
    """One row per problem: ``key`` seconds per planner, each with its exponent column."""
    header = ["problem", "buffers", "live (mean / max)"]
    for p in planners:
        header += [LABEL.get(p, p), "^"]
    rows = []
    prev = None
    for d in rows_data:
        row = [d["name"], f"{d['buffers']:,}", f"{d['mean_live']:.0f} / {d['max_live']}"]
        for p in planners:
            r = d["runs"][p]
            row.append(fmt_seconds(r[key]) if r["status"] == "ok" else r["status"])
            if d["generated"] and prev is not None:
                row.append(exponent(prev["runs"][p][key], r[key], prev["buffers"], d["buffers"]))
            else:
                row.append("")
        rows.append(row)
        prev = d if d["generated"] else prev
    return md_table(header, rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="1000,3000,10000,30000,100000")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=3, help="runs per planner up to 10,000 buffers (best kept)")
    ap.add_argument("--cap", type=float, default=900.0, help="kill one planner run after this many seconds")
    ap.add_argument("--skip-peer", action="store_true")
    ap.add_argument("--no-s1", action="store_true", help="do not time idealloc S_1")
    ap.add_argument("--traces", default="", help="comma-separated CSV traces to time like S_1")
    ap.add_argument("--out", default=str(Path(__file__).parent / "results" / "scaling.md"))
    ap.add_argument("--benchmarks", default=str(BENCHMARKS))
    args = ap.parse_args(argv)

    planners = STRATEGIES + ([] if args.skip_peer else [PEER])
    sizes = [int(s) for s in args.sizes.split(",")]

    from cfmem.planning.strategies import PlanOptions, get_strategy

    warm = generate(200, args.seed)
    for p in STRATEGIES:  # first-call costs paid here, before the children fork
        get_strategy(p)(warm, PlanOptions())
    if not args.skip_peer:
        import omnimalloc.allocators  # noqa: F401

    env = environment()
    fp_start = planner_fingerprints()
    began = time.perf_counter()
    problems: list[tuple[str, Problem, bool]] = [(f"{n:,}", generate(n, args.seed), True) for n in sizes]
    if not args.no_s1:
        problems.append(("S_1", read_csv_problem(Path(args.benchmarks) / "idealloc" / "S_1.csv"), False))
    for trace in filter(None, args.traces.split(",")):
        problems.append((Path(trace).stem, read_csv_problem(trace), False))

    rows_data = []
    for name, problem, generated in problems:
        n = len(problem.buffers)
        bound = lower_bound(problem.buffers)
        mean_live, max_live = live_counts(problem)
        repeat = args.repeat if n <= 10_000 else 1
        runs = {}
        for p in planners:
            run = time_planner(p, problem, repeat, args.cap)
            runs[p] = run.__dict__ | {"gap_pct": run.gap_pct(bound)}
            print(f"[{time.perf_counter() - began:7.1f} s] {name:>8} {LABEL.get(p, p):20} {cell(run):>10} CPU {cell(run, 'seconds'):>10} wall"
                  f"  gap {run.gap_pct(bound) if run.peak is not None else float('nan'):.2f} %"
                  f"{'  ' + run.note if run.note else ''}", file=sys.stderr, flush=True)
        rows_data.append({"name": name, "buffers": n, "lower_bound": bound, "mean_live": mean_live,
                          "max_live": max_live, "generated": generated, "runs": runs})
    fp_end = planner_fingerprints()

    out = [
        f"# Greedy planner scaling: cfmem vs omnimalloc {PEER_VERSION} greedy_by_size",
        "",
        f"Generated by `bench/plan_scaling.py {' '.join(sys.argv[1:])}`".rstrip() + f" on {env['date']}.",
        f"Machine: {env['machine']}; Python {env['python']}; cfmem {env['cfmem']}; omnimalloc {env['omnimalloc']}.",
        "Planner sources (sha256 prefix) at start: " + ", ".join(f"{k} {v}" for k, v in fp_start.items())
        + "; at end: " + ", ".join(f"{k} {v}" for k, v in fp_end.items()) + ".",
        "",
        f"Generated problems (seed {args.seed}): one buffer defined per step; lifetimes log-uniform 1..{SHORT_MAX} "
        f"steps, except {LONG_SHARE:.0%} log-uniform {LONG_RANGE[0]:,}..{LONG_RANGE[1]:,} steps (cut at the end); "
        f"sizes log-uniform {SIZE_RANGE[0]} B..{SIZE_RANGE[1] // 1024} KiB. Seconds = the planner call alone "
        f"(best of {args.repeat} runs up to 10,000 buffers, one run above); `auto` runs the six greedy orders. "
        "Exponent columns (`^`) = log(t2/t1) / log(n2/n1) between a size and the one before it "
        "(1 = linear, 2 = quadratic). Every plan passed `verify_plan`.",
        "",
        "CPU seconds (process time of the planner call, all its threads) are the figure to compare: "
        "the machine is shared, and wall-clock time also counts the time other processes held the CPU. "
        "Both are given. omnimalloc's native placer may use several threads (its default `max_threads`), "
        "so its CPU time can exceed its wall time.",
        "",
    ]
    for key, title in (("cpu_seconds", "CPU seconds"), ("seconds", "Wall-clock seconds")):
        out += [f"## {title}", ""]
        out += [seconds_table(rows_data, planners, key), ""]
    out += ["## Peak above the lower bound (gap %)", ""]
    header = ["problem", "lower bound"] + [LABEL.get(p, p) for p in planners]
    rows = [[d["name"], f"{d['lower_bound']:,}"]
            + [f"{d['runs'][p]['gap_pct']:.2f} %" if d["runs"][p]["gap_pct"] is not None else d["runs"][p]["status"]
               for p in planners] for d in rows_data]
    out += [md_table(header, rows), ""]
    for peer, what in (("tflm", "TFLite Micro's order"), ("by-size", "its ties in problem order"),
                       (PEER, "omnimalloc's greedy_by_size")):  # fmt: skip
        if "auto" in planners and peer in planners:
            above = [d["name"] for d in rows_data if d["runs"]["auto"]["peak"] is not None
                     and d["runs"][peer]["peak"] is not None and d["runs"]["auto"]["peak"] > d["runs"][peer]["peak"]]
            out += [f"`auto` above `{peer}` ({what}): {', '.join(above) if above else 'on no problem'}.", ""]
    notes = [f"- {d['name']} · {LABEL.get(p, p)}: {r['status']}: {r['note']}"
             for d in rows_data for p, r in d["runs"].items() if r["note"]]
    if notes:
        out += ["## Notes", ""] + notes + [""]
    report = "\n".join(out)
    write_atomic(args.out, report + "\n")
    write_atomic(Path(args.out).with_suffix(".json"),
                 json.dumps({"environment": env, "seed": args.seed, "rows": rows_data}, indent=1) + "\n")
    print(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
