"""``cfmem plan``: plan a buffer-assignment problem given as CSV."""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from pathlib import Path

from cfmem.errors import CfmemError
from cfmem.planning.csvio import CsvError, read_problem_csv, solution_csv
from cfmem.planning.option_checks import (
    OptionError,
    check_align,
    check_beam_width,
    check_budget,
    check_time_limit,
    parsed_int,
)
from cfmem.planning.problem import PlanOptions, Problem, Solution
from cfmem.planning.strategies import AUTO_CANDIDATES, STRATEGY_NAMES, get_strategy, solve
from cfmem.reports.tables import summary_line
from cfmem.planning.verify import PlanError
from cfmem.files import atomic_write_text


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "plan",
        help="assign offsets to the buffers of a CSV problem (id,lower,upper,size)",
        description=(
            "Read a static memory-planning problem in the minimalloc CSV format (id,lower,upper,size;"
            " buffer live on [lower, upper)), give every buffer an offset so that buffers live at the"
            " same time do not overlap, verify the plan, and report its peak against the lower bound."
        ),
    )
    p.add_argument("problem", metavar="FILE.csv", help="the problem: header id,lower,upper,size")
    p.add_argument(
        "--strategy",
        default="auto",
        choices=STRATEGY_NAMES,
        help="planning strategy (default: auto, the best of the greedy ones)",
    )
    p.add_argument("--align", type=parsed_int(check_align), default=1, metavar="N", help="alignment of every offset in bytes (default: 1)")
    add_strategy_options(p)
    p.add_argument("-o", "--output", metavar="OUT.csv", help="write the solution: id,lower,upper,size,offset")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object, nothing else")
    p.add_argument("--budget", type=parsed_int(check_budget), metavar="BYTES", help="fail, writing nothing, if the peak exceeds this")
    p.set_defaults(handler=main)


def add_strategy_options(p: argparse.ArgumentParser) -> None:
    """``--time-limit`` and ``--beam-width``: the knobs of the strategies (``plan_options``)."""
    p.add_argument(
        "--time-limit", type=float, default=PlanOptions.time_limit, metavar="SECONDS",
        help=f"seconds the search strategy may spend (default: {PlanOptions.time_limit:g})",
    )  # fmt: skip
    p.add_argument(
        "--beam-width", type=parsed_int(check_beam_width), default=PlanOptions.beam_width, metavar="W",
        help=f"states kept per step by the beam strategy (default: {PlanOptions.beam_width})",
    )  # fmt: skip


def plan_options(args: argparse.Namespace) -> PlanOptions:
    """The strategies' options from ``add_strategy_options``'s arguments (one-line error for a
    bad time limit)."""
    try:
        check_time_limit("--time-limit", args.time_limit)
    except OptionError as err:
        raise CfmemError(err.rule, err.option) from None
    return PlanOptions(time_limit=args.time_limit, beam_width=args.beam_width)


def _solve(problem: Problem, strategy: str, options: PlanOptions) -> Solution:
    try:
        for name in AUTO_CANDIDATES if strategy == "auto" else (strategy,):
            get_strategy(name)  # import it now, not inside the timed run
        return solve(problem, strategy, options)
    except ModuleNotFoundError as err:
        if err.name and err.name.startswith("cfmem.planning"):
            raise CfmemError(f"strategy '{strategy}' is not available in this installation", "--strategy") from None
        raise
    except PlanError as err:
        raise CfmemError(f"strategy '{strategy}' produced an invalid plan (a bug in cfmem): {err}") from None


def main(args: argparse.Namespace) -> int:
    options = plan_options(args)
    try:
        problem = read_problem_csv(args.problem)
    except CsvError as err:
        raise CfmemError(err.rule, err.where) from None
    if args.align > 1:
        problem = Problem([replace(b, align=args.align) for b in problem.buffers], name=problem.name)
    solution = _solve(problem, args.strategy, options)

    if args.budget is not None and solution.peak > args.budget:
        raise CfmemError(
            f"peak {solution.peak} bytes exceeds the budget of {args.budget} bytes"
            f" (lower bound {solution.lower_bound} bytes, strategy {args.strategy})",
            args.problem,
        )
    if args.output:
        atomic_write_text(args.output, solution_csv(problem.buffers, solution.offsets))

    chosen = None
    if args.strategy == "auto" and "auto_choice" in solution.stats:
        chosen = AUTO_CANDIDATES[int(solution.stats["auto_choice"])]
    if args.json:
        result = {
            "file": args.problem,
            "buffers": len(problem.buffers),
            "strategy": args.strategy,
            "peak": solution.peak,
            "lower_bound": solution.lower_bound,
            "gap_pct": round(solution.gap_pct, 4),
            "seconds": round(solution.seconds, 6),
            "proven_optimal": solution.proven_optimal,
        }
        if chosen:
            result["chosen"] = chosen
        print(json.dumps(result))
        return 0
    strategy = f"{args.strategy} ({chosen})" if chosen else args.strategy
    print(f"{Path(args.problem).name}: {len(problem.buffers)} buffers, strategy {strategy}")
    print(f"{summary_line(solution.peak, solution.lower_bound)}, {solution.seconds:.3f} s")
    if solution.proven_optimal:
        print("proven optimal")
    if args.output:
        print(f"wrote {args.output}")
    return 0
