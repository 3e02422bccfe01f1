"""Planning quality benchmark: cfmem's strategies against omnimalloc 1.0.0 on public CSV problems.

For every CSV problem in the repository's ``benchmarks/`` folder (minimalloc A..K and
input.12, idealloc resnet50 / G_1 / S_1, omnimalloc-small a..g) this runs each
cfmem strategy and, in the same run on the same problems, two planners of the
peer omnimalloc 1.0.0: ``greedy_by_size`` (largest first, first fit: the
TFLite Micro greedy) and SuperMalloc (its MiniMalloc-style branch and bound,
one thread, the same time limit as ``search``).

Every planner runs in a forked child with a hard wall-clock cap; every plan is
checked in the parent by ``cfmem.planning.verify.verify_plan`` and its peak is
recomputed there from the offsets. The lower bound (largest live byte total) is
computed once per problem by ``cfmem.planning.problem.lower_bound``.

Usage::

    .venv/bin/python bench/plan_benchmarks.py [--time-limit 10] [--only A,B]
        [--skip-peer] [--planners search,best-fit] [--out bench/results/planning.md]

Writes the markdown report (and a JSON file next to it with every number)
atomically and prints the report.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

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
    run_peer_supermalloc,
    write_atomic,
)

from cfmem.planning.problem import Buffer, Problem, lower_bound

SUITES: list[tuple[str, str, list[str]]] = [
    # (title, folder, files in display order)
    ("minimalloc (challenging suite A..K, and input.12)", "minimalloc",
     [f"{c}.1048576.csv" for c in "ABCDEFGHIJK"] + ["input.12.csv"]),
    ("idealloc", "idealloc", ["resnet50.csv", "G_1.csv", "S_1.csv"]),
    ("omnimalloc-small", "omnimalloc-small",
     ["a.6.csv", "b.6.csv", "c.8.csv", "d.9.csv", "e.12.csv", "f.14.csv", "g.7.csv"]),
]
CHALLENGING = list("ABCDEFGHIJK")

CFMEM_PLANNERS = ["sequential", "large-first", "short-first", "best-fit", "tflm", "by-size", "beam", "auto", "search"]
PEER_PLANNERS = ["omni-greedy", "omni-supermalloc"]
SLOW = {"search", "beam", "omni-supermalloc"}
TIMED = {"search", "omni-supermalloc"}
"""Planners given ``--time-limit``."""
"""Planners whose run time grows with the time limit or the problem (capped harder)."""


def label(planner: str, time_limit: float) -> str:
    t = f"{time_limit:g} s"
    return {
        "search": f"search {t}",
        "omni-greedy": "omni greedy_by_size",
        "omni-supermalloc": f"omni SuperMalloc {t}",
    }.get(planner, planner)


def display_name(csv_name: str) -> str:
    return csv_name.removesuffix(".csv").removesuffix(".1048576")


def selected(name: str, only: set[str] | None) -> bool:
    return only is None or name in only or name.split(".")[0] in only


def run_planner(planner: str, problem: Problem, args) -> Run:
    n = len(problem.buffers)
    if planner in SLOW and n > args.exact_max_buffers:
        return Run(planner, "skipped", note=f"{n} buffers > --exact-max-buffers {args.exact_max_buffers}")
    if planner in SLOW:
        cap = slow_cap(args)
    else:
        cap = args.greedy_cap
    if planner == "omni-greedy":
        return checked_run(planner, problem, run_peer_greedy, (problem, args.time_limit), cap)
    if planner == "omni-supermalloc":
        return checked_run(planner, problem, run_peer_supermalloc, (problem, args.time_limit), cap)
    return checked_run(planner, problem, run_cfmem, (problem, planner, args.time_limit), cap)


def slow_cap(args) -> float:
    return args.hard_cap if args.hard_cap is not None else 3 * args.time_limit + 30


def as_run(d: dict) -> Run:
    return Run(**{k: v for k, v in d.items() if k != "gap_pct"})


def cell(run: Run, bound: int) -> str:
    """``gap % · seconds`` (``opt`` when proven optimal above the bound)."""
    if run.status != "ok":
        return {"n/a": "n/a", "skipped": "skipped", "killed": "killed", "error": "ERROR"}[run.status]
    gap = run.gap_pct(bound)
    mark = " (opt)" if run.proven_optimal and run.peak != bound else ""
    return f"{gap:.2f} %{mark} · {fmt_seconds(run.seconds)}"


def summary_rows(files: list[dict], planners: list[str], title: str) -> list[list[str]]:
    """Mean / worst gap and mean / max time over ``files`` for each planner."""
    rows = {"mean": [f"**mean gap {title}**", "", ""], "worst": [f"**worst gap {title}**", "", ""],
            "at": [f"**at lower bound {title}**", "", ""], "time": [f"**mean time {title}**", "", ""]}
    for p in planners:
        runs = [f["runs"][p] for f in files]
        ok = [r for r in runs if r["status"] == "ok"]
        if len(ok) < len(runs) or not runs:
            for key in rows:
                rows[key].append(f"({len(ok)}/{len(runs)} ran)" if key == "mean" else "-")
            continue
        gaps = [r["gap_pct"] for r in ok]
        rows["mean"].append(f"**{statistics.fmean(gaps):.2f} %**")
        rows["worst"].append(f"**{max(gaps):.2f} %**")
        rows["at"].append(f"{sum(g == 0 for g in gaps)}/{len(gaps)}")
        rows["time"].append(fmt_seconds(statistics.fmean(r["seconds"] for r in ok)))
    return list(rows.values())


def render(results: dict, planners: list[str], args) -> str:
    env = results["environment"]
    tl = args.time_limit
    out = [
        "# Planning benchmark: cfmem strategies vs omnimalloc " + PEER_VERSION,
        "",
        f"Generated by `bench/plan_benchmarks.py {' '.join(sys.argv[1:])}`".rstrip() + f" on {env['date']}.",
        f"Machine: {env['machine']}; Python {env['python']}; cfmem {env['cfmem']}; "
        f"omnimalloc {env['omnimalloc']}.",
        "Planner sources (sha256 prefix) at start: "
        + ", ".join(f"{k} {v}" for k, v in results["fingerprints_start"].items())
        + "; at end: "
        + ", ".join(f"{k} {v}" for k, v in results["fingerprints_end"].items())
        + ".",
        "",
        f"Each cell: **gap % above the lower bound · seconds**. The lower bound is the largest byte total "
        f"live at one step (no plan can be smaller); gap = (peak − bound) / bound. `(opt)` = proven optimal "
        f"although above the bound. `search` and SuperMalloc get {tl:g} s (`--time-limit`); SuperMalloc runs "
        f"with one thread. Seconds are wall-clock seconds of the planner call alone (cfmem: the strategy function "
        f"that `solve` runs, from its registry; omnimalloc: `allocate`/`solve` on prepared allocations); "
        f"verification and the bound are computed outside the timed call (CPU seconds are in the JSON). `auto` runs the six greedy "
        f"orders and keeps the best. Every plan was accepted by `cfmem.planning.verify.verify_plan`; the "
        f"peaks are recomputed from the offsets. `killed` = exceeded the hard wall-clock cap "
        f"({slow_cap(args):g} s for search/beam/SuperMalloc, {args.greedy_cap:g} s for the greedies); "
        f"`skipped` = not run (see notes); `n/a` = planner not available in this checkout.",
        "",
    ]
    for suite in results["suites"]:
        files = suite["files"]
        if not files:
            continue
        out += [f"## {suite['title']}", ""]
        header = ["file", "buffers", "lower bound"] + [label(p, tl) for p in planners]
        rows = [[f["name"], f"{f['buffers']:,}", f"{f['lower_bound']:,}"]
                + [cell(as_run(f["runs"][p]), f["lower_bound"]) for p in planners] for f in files]
        challenging = [f for f in files if f["name"] in CHALLENGING]
        if challenging:
            rows += summary_rows(challenging, planners, "A..K" if len(challenging) == 11 else
                                 f"({', '.join(f['name'] for f in challenging)})")
        elif len(files) > 1:
            rows += summary_rows(files, planners, "(suite)")
        out += [md_table(header, rows), ""]
        out += ["Peaks (bytes):", ""]
        header = ["file", "lower bound"] + [label(p, tl) for p in planners]
        rows = [[f["name"], f"{f['lower_bound']:,}"]
                + [f"{f['runs'][p]['peak']:,}" if f["runs"][p]["peak"] is not None else "-" for p in planners]
                for f in files]
        out += [md_table(header, rows), ""]
    out += comparisons(results, planners, tl)
    grouped: dict[tuple[str, str, str], list[str]] = {}
    for s in results["suites"]:
        for f in s["files"]:
            for p, r in f["runs"].items():
                if r["note"]:
                    grouped.setdefault((label(p, tl), r["status"], r["note"]), []).append(f["name"])
    notes = [f"- {p}, {status} on {', '.join(names)}: {note}" for (p, status, note), names in grouped.items()]
    if notes:
        out += ["## Notes", ""] + notes + [""]
    out += [
        "## Reference points (published / measured earlier, not in this run)",
        "",
        "From `benchmarks/PROVENANCE.md`, mean / worst gap over A..K: TFLite Micro greedy 33.8 % / 41.0 %; "
        "omnimalloc hill_climb 10 s 24.6 % / 36.4 %; simulated_annealing 10 s 21.6 % / 29.1 %; SuperMalloc 10 s, "
        "1 thread 15.5 % / 38.8 %; TVM 0.27 135 % / 292 %; MiniMalloc (C++) 1.1 % / 6.3 % (1.7-18 s).",
        "",
    ]
    return "\n".join(out)


def comparisons(results: dict, planners: list[str], tl: float) -> list[str]:
    """Per-file checks on A..K that the headline claims rest on."""
    files = {f["name"]: f for s in results["suites"] for f in s["files"] if f["name"] in CHALLENGING}
    if not files or "omni-greedy" not in planners:
        return []
    out = ["## Per-file comparisons on A..K", ""]
    mine = [p for p in ("best-fit", "auto", "large-first", "search") if p in planners]
    header = ["file", "omni greedy_by_size gap"] + [f"{label(p, tl)} − greedy_by_size" for p in mine]
    if "omni-supermalloc" in planners and "search" in planners:
        header.append("search − SuperMalloc")
    rows = []
    worse = {p: [] for p in mine}
    for name, f in files.items():
        g = f["runs"]["omni-greedy"]
        if g["status"] != "ok":
            continue
        row = [name, f"{g['gap_pct']:.2f} %"]
        for p in mine:
            r = f["runs"][p]
            if r["status"] != "ok":
                row.append(r["status"])
                continue
            d = r["gap_pct"] - g["gap_pct"]
            row.append(f"{d:+.2f} pp")
            if r["peak"] > g["peak"]:
                worse[p].append(name)
        if len(header) > len(row):
            s, m = f["runs"].get("search", {}), f["runs"].get("omni-supermalloc", {})
            row.append(f"{s['gap_pct'] - m['gap_pct']:+.2f} pp"
                       if s.get("status") == m.get("status") == "ok" else "-")
        rows.append(row)
    out += [md_table(header, rows), ""]
    out += ["(pp = percentage points of gap; negative = cfmem is better.)", ""]
    for p in mine:
        out.append(f"- {label(p, tl)} has a larger peak than omnimalloc greedy_by_size (the TFLite Micro greedy) "
                   f"on {len(worse[p])} of {len(rows)} files of A..K"
                   + (f": {', '.join(worse[p])}" if worse[p] else "") + ".")
    everywhere = [f for s in results["suites"] for f in s["files"] if f["runs"]["omni-greedy"]["status"] == "ok"]
    for p in mine:
        names = [f["name"] for f in everywhere
                 if f["runs"][p]["status"] == "ok" and f["runs"][p]["peak"] > f["runs"]["omni-greedy"]["peak"]]
        better = [f["name"] for f in everywhere
                  if f["runs"][p]["status"] == "ok" and f["runs"][p]["peak"] < f["runs"]["omni-greedy"]["peak"]]
        out.append(f"- over all {len(everywhere)} files, {label(p, tl)}: larger peak on "
                   + (", ".join(names) if names else "none") + f"; smaller on {len(better)}.")
    out.append("")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--time-limit", type=float, default=10.0, help="seconds for search and SuperMalloc (10)")
    ap.add_argument("--only", help="comma-separated files, e.g. A,B,input.12,S_1,a.6")
    ap.add_argument("--skip-peer", action="store_true", help="do not run omnimalloc")
    ap.add_argument("--planners", help="comma-separated subset of " + ",".join(CFMEM_PLANNERS + PEER_PLANNERS))
    ap.add_argument("--out", default=str(Path(__file__).parent / "results" / "planning.md"))
    ap.add_argument("--hard-cap", type=float, default=None,
                    help="kill search/beam/SuperMalloc after this many seconds (3 x time limit + 30)")
    ap.add_argument("--greedy-cap", type=float, default=300.0, help="kill a greedy after this many seconds (300)")
    ap.add_argument("--exact-max-buffers", type=int, default=10**9,
                    help="skip search/beam/SuperMalloc on problems with more buffers (no limit)")
    ap.add_argument("--benchmarks", default=str(BENCHMARKS), help="folder of the CSV suites")
    args = ap.parse_args(argv)

    planners = CFMEM_PLANNERS + ([] if args.skip_peer else PEER_PLANNERS)
    if args.planners:
        wanted = args.planners.split(",")
        unknown = set(wanted) - set(CFMEM_PLANNERS + PEER_PLANNERS)
        if unknown:
            ap.error(f"unknown planners: {', '.join(sorted(unknown))}")
        planners = [p for p in planners if p in wanted]
    only = set(args.only.split(",")) if args.only else None

    # Warm the strategies up once here, so forked children do not pay first-call costs.
    from cfmem.planning.strategies import PlanOptions, get_strategy

    tiny = Problem([Buffer("a", 0, 2, 8), Buffer("b", 1, 3, 16), Buffer("c", 2, 4, 8)])
    for p in CFMEM_PLANNERS:
        if p not in SLOW:
            try:
                get_strategy(p)(tiny, PlanOptions(time_limit=0.1))
            except Exception:
                pass

    if not args.skip_peer:
        import omnimalloc.allocators  # noqa: F401  (import once here, not in every child; starts no threads)

    results = {"environment": environment(), "fingerprints_start": planner_fingerprints(),
               "time_limit": args.time_limit, "planners": planners, "suites": []}
    began = time.perf_counter()
    for title, folder, names in SUITES:
        suite = {"title": title, "folder": folder, "files": []}
        results["suites"].append(suite)
        for csv_name in names:
            name = display_name(csv_name)
            if not selected(name, only):
                continue
            problem = read_csv_problem(Path(args.benchmarks) / folder / csv_name)
            bound = lower_bound(problem.buffers)
            entry = {"name": name, "file": f"{folder}/{csv_name}", "buffers": len(problem.buffers),
                     "lower_bound": bound, "runs": {}}
            for p in planners:
                run = run_planner(p, problem, args)
                if p in TIMED and run.status == "ok" and run.seconds > 1.5 * args.time_limit + 1:
                    run.note = f"overran its {args.time_limit:g} s time limit ({run.seconds:.1f} s)"
                d = run.__dict__ | {"gap_pct": run.gap_pct(bound)}
                entry["runs"][p] = d
                print(f"[{time.perf_counter() - began:7.1f} s] {name:9} {label(p, args.time_limit):24} "
                      f"{cell(run, bound)}{'  ' + run.note if run.note else ''}", file=sys.stderr, flush=True)
            suite["files"].append(entry)
    results["fingerprints_end"] = planner_fingerprints()
    results["total_seconds"] = time.perf_counter() - began

    report = render(results, planners, args)
    write_atomic(args.out, report + "\n")
    write_atomic(Path(args.out).with_suffix(".json"), json.dumps(results, indent=1) + "\n")
    print(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
