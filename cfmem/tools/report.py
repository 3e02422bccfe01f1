"""``cfmem report``: tables, JSON, Gantt CSV and picture of a model's memory plan."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from cfmem.dma.timing import ASSUMED_TRIPS
from cfmem.errors import CfmemError
from cfmem.planning.control_flow import MODES
from cfmem.planning.option_checks import (
    OptionError,
    check_align,
    check_budget,
    check_choice,
    check_depth,
    check_loop_trips,
    check_time_limit,
    parsed_int,
)
from cfmem.planning.problem import PlanOptions
from cfmem.planning.strategies import STRATEGY_NAMES, get_strategy
from cfmem.reports import tables
from cfmem.tools.compile import load_chip
from cfmem.tools.run import load_inputs


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "report",
        help="show where every tensor lives: tables, JSON, Gantt CSV and PNG",
        description=(
            "Plan on-chip memory for a model (as nn-plan-memory does) and report it: one row per"
            " tensor with its region, lifetime and byte range, then the peak with the control-flow"
            " lower bound and the gap. --compare shows the peak of every strategy under every"
            " control-flow mode instead; with several models, one row per model."
        ),
    )
    p.add_argument("models", nargs="+", metavar="MODEL.mlir", help="the nn module(s) to report on")
    p.add_argument("--func", metavar="NAME", help="only this function (default: every function)")
    p.add_argument("--mode", default="exact", help=f"control-flow mode: {', '.join(MODES)} (default: exact)")
    p.add_argument(
        "--strategy",
        default="auto",
        help=(
            f"planning strategy: {', '.join(STRATEGY_NAMES)} (default: auto); with --compare a strategy"
            f" outside {', '.join(tables.DEFAULT_STRATEGIES)} adds a row"
        ),
    )
    p.add_argument("--align", type=parsed_int(check_align), default=16, metavar="N", help="alignment of every offset in bytes (default: 16)")
    p.add_argument("--time-limit", type=float, default=10.0, metavar="S", help="seconds for search (default: 10)")
    p.add_argument("--compare", action="store_true", help="the strategy x mode table instead of the tensor table")
    p.add_argument("--png", metavar="OUT.png", help="write a Gantt picture (time across, address up)")
    p.add_argument("--csv", metavar="OUT.csv", help="write tensor_name,size,offset,start_time,end_time")
    p.add_argument("--json", action="store_true", help="print every number as one JSON object, nothing else")
    timing = p.add_argument_group("timing (sync vs ping-pong DMA on a chip model)")
    timing.add_argument("--timing", action="store_true", help="add the timing table of every function")
    timing.add_argument("--chip", metavar="CHIP.json", help="chip description (default: a small edge NPU, see examples/chips)")
    timing.add_argument("--depth", type=parsed_int(check_depth), metavar="N", help="also show ping-pong with N buffers in rotation")
    timing.add_argument(
        "--inputs", metavar="IN.npz",
        help="time the path these inputs take, each loop with the iterations it ran (default: the slowest path,"
             " each loop with the iterations the IR fixes or --loop-trips)",
    )
    timing.add_argument(
        "--loop-trips", type=parsed_int(check_loop_trips), default=ASSUMED_TRIPS, metavar="N",
        help=f"iterations assumed for an nn.loop whose count the IR does not fix (default: {ASSUMED_TRIPS})",
    )
    timing.add_argument("--timeline", metavar="OUT.png", help="write the compute and DMA lanes of ping-pong")
    fit = p.add_argument_group("fitting an on-chip budget (see cfmem compile)")
    fit.add_argument(
        "--budget-sweep",
        action="store_true",
        help=(
            "latency against on-chip budget, from the unconstrained ping-pong peak down to the smallest"
            " budget that compiles, beside (a) the whole arena off chip and (b) whole-weight ping-pong;"
            " with --png, the curve; with --json, the rows under 'budget_sweep'"
        ),
    )
    fit.add_argument(
        "--budget", type=parsed_int(check_budget), metavar="BYTES",
        help="the placement cfmem compile chooses for this budget: what, where, why, bytes, cycles",
    )  # fmt: skip
    fit.add_argument(
        "--tile", action="store_true",
        help="as cfmem compile --tile: with --budget, also each chain the kept compile tiles (its ops, rows per"
             " tile, tiles, input rows a tile reads, halo rows recomputed); with --budget-sweep, the latency"
             " with and without tiling at every budget (a compile per tile size)",
    )  # fmt: skip
    p.set_defaults(handler=main)


def _check_options(args: argparse.Namespace) -> None:
    try:
        check_choice("--mode", args.mode, MODES)
        check_choice("--strategy", args.strategy, STRATEGY_NAMES)
        check_time_limit("--time-limit", args.time_limit)
    except OptionError as err:
        raise CfmemError(err.rule, err.option) from None
    for name in {args.strategy, *(_strategies(args) if args.compare else ())}:
        try:
            get_strategy(name)
        except (ImportError, AttributeError) as err:  # registered, but its module is not there yet
            raise CfmemError(f"strategy '{name}' is not available: {err}", "--strategy") from None
    if len(args.models) > 1 and (args.png or args.csv):
        raise CfmemError("take one model", "--png/--csv")
    if (args.timing or args.timeline) and len(args.models) > 1:
        raise CfmemError("take one model", "--timing/--timeline")
    if len(args.models) > 1 and not args.compare:
        raise CfmemError("several models need --compare (one row per model)", "report")


def _select(module, path: str, name: str | None, one: bool) -> list:
    """The functions to report on (``func.FuncOp``): ``name``, or every one."""
    from cfmem.passes.liveness import functions

    """The functions to report: ``name``, or all (``one``: the only one or @main)."""
    fns = functions(module)
    if name is not None:
        fns = [f for f in fns if f.sym_name.data == name]
        if not fns:
            raise CfmemError(f"no function @{name} in the module", path)
    if not fns:
        raise CfmemError("the module has no function to plan", path)
    if one and len(fns) > 1:
        fns = [f for f in fns if f.sym_name.data == "main"]
        if len(fns) != 1:
            raise CfmemError("the module has several functions and none is @main: pick one with --func", path)
    return fns


def _strategies(args: argparse.Namespace) -> tuple[str, ...]:
    extra = () if args.strategy in tables.DEFAULT_STRATEGIES else (args.strategy,)
    return (*tables.DEFAULT_STRATEGIES, *extra)


def _refuse_flat(module, path: str) -> None:
    from xdsl.dialects.builtin import IntegerAttr

    from cfmem.ir_io import is_flat
    from cfmem.passes.liveness import functions

    """A lowered module has no tensors left to plan: name the arena it was given."""
    if not is_flat(module):
        return
    arenas = []
    for fn in functions(module):
        size, bound = fn.attributes.get("cfmem.arena_size"), fn.attributes.get("cfmem.lower_bound")
        if isinstance(size, IntegerAttr):
            lower = f", lower bound {bound.value.data}" if isinstance(bound, IntegerAttr) else ""
            arenas.append(f"@{fn.sym_name.data} {size.value.data} bytes{lower}")
    planned = f" (planned arena: {'; '.join(arenas)})" if arenas else ""
    raise CfmemError(
        f"the module is already lowered by nn-lower-to-memref{planned}: report the tensor-level module", path
    )


def _report_model(path: str, args: argparse.Namespace, options: PlanOptions) -> dict:
    """The JSON object of one model."""
    from xdsl.utils.exceptions import DiagnosticException

    from cfmem.ir_io import load_module
    from cfmem.pipeline import pass_error

    module, source = load_module(path)
    _refuse_flat(module, path)
    try:
        return _plan_and_report(module, source, path, args, options)
    except DiagnosticException as err:  # a pass refused the module (e.g. control flow it cannot plan)
        raise pass_error(err, path, source) from None


def _plan_and_report(module, source, path: str, args: argparse.Namespace, options: PlanOptions) -> dict:
    """The report of one model (``source``: its ``SourceMap``)."""
    from cfmem.dialects.nn_control import LoopOp
    from cfmem.passes.liveness import analyze_function
    from cfmem.passes.plan_memory import aliased_liveness, plan_function
    from cfmem.reports import timing as timing_reports

    one = bool(args.png or args.csv)
    result: dict = {"model": path, "functions": {}}
    fns = _select(module, path, args.func, one or bool(args.timeline))
    for fn in fns:
        name = fn.sym_name.data
        info, plan = plan_function(fn, args.mode, args.strategy, args.align, options)
        result["functions"][name] = tables.function_report(name, info.tree, plan, args.align)
    if args.timing or args.timeline:
        chip = load_chip(args.chip)
        branches = _branches(module, source, fns[0], path, args.inputs) if args.inputs else None
        variants = timing_reports.VARIANTS
        if any(isinstance(op, LoopOp) for op in module.walk()):
            variants += (timing_reports.LOOP_VARIANT,)
        if args.depth:
            variants += (timing_reports.Variant(f"pingpong-depth{args.depth}", "pingpong", args.depth),)
        result["timing"] = {
            fn.sym_name.data: timing_reports.timing_report(
                fn, chip, variants, branches, args.mode, args.strategy, args.align, args.loop_trips
            )
            for fn in fns
        }
    if args.compare:
        result["comparison"] = {}
        for fn in fns:
            plain = analyze_function(fn).tree
            aliased = [info.tree for info in aliased_liveness(fn)]
            name = fn.sym_name.data
            result["comparison"][name] = tables.compare(name, plain, _strategies(args), MODES, args.align, options, aliased)
    return result


def _table_json(header, rows) -> dict:
    return {"columns": list(header), "rows": [list(row) for row in rows if row is not tables.RULE]}


def _model_entries(results: list[dict]) -> list[tuple[str, dict]]:
    """``(label, comparison)`` per model and function: the model's stem, with
    ``@function`` when the model has several."""
    entries = []
    for result in results:
        stem = Path(result["model"]).stem
        for name, grid in result["comparison"].items():
            entries.append((stem if len(result["comparison"]) == 1 else f"{stem}@{name}", grid))
    return entries


def _json(results: list[dict], compare: bool) -> dict:
    """The JSON object printed by --json; with --compare every comparison also
    carries its table as printed, and several models the table of models."""
    if compare:
        for result in results:
            for grid in result["comparison"].values():
                grid["table"] = _table_json(*tables.comparison_table(grid))
    if len(results) == 1:
        return results[0]
    return {"models": results, "table": _table_json(*tables.models_table(_model_entries(results)))}


def _branches(module, source, fn, path: str, inputs: str) -> dict:
    """The branch each if took and the iterations each loop ran when the reference
    interpreter ran ``inputs``."""
    from cfmem.interp.footprint import check_run_bytes
    from cfmem.interp.golden import GoldenInterpreter, InterpError

    interpreter = GoldenInterpreter(module, Path(path).parent)
    given = load_inputs(inputs)
    try:
        check_run_bytes(module, fn)
        run = interpreter.run(fn, given)
        return dict(run.branches) | dict(run.loops)
    except InterpError as err:
        raise CfmemError(f"cannot run on {inputs}: {err}", source.locate(err.op)) from None


def _write(path: str, writer, *data) -> None:
    try:
        writer(path, *data)
    except OSError as err:
        raise CfmemError(f"cannot write {path}: {err.strerror or err}") from None


def _fit_report(args: argparse.Namespace) -> int:
    """--budget-sweep and --budget: one tensor-level model, placed by cfmem.fit."""
    from cfmem.fit import compile_for_budget, timing_path
    from cfmem.fit_sweep import budget_sweep
    from cfmem.fit_tiled import compile_tiled, tiled_chains
    from cfmem.ir_io import load_module
    from cfmem.reports import budget as budget_reports
    from cfmem.tools.progress import placement_progress

    if len(args.models) > 1 or args.compare or args.timing or args.csv or args.timeline:
        raise CfmemError("takes one model and no --compare, --timing, --csv or --timeline", "--budget-sweep/--budget")
    path = args.models[0]
    module, _ = load_module(path)
    _refuse_flat(module, path)
    chip = load_chip(args.chip)
    name = Path(path).stem
    result: dict = {"model": path, "chip": chip.name}
    sections = []
    if args.budget is not None:
        tile_rows, branching = None, True
        with placement_progress(f"{path}: placing") as measured:
            if args.tile:
                chosen = compile_tiled(module, chip, args.budget, Path(path).parent, path, "exact", "auto",
                                       timing_path(module, chip), True, measured)  # fmt: skip
                compiled, tile_rows, branching = chosen.compiled, chosen.tile_rows, chosen.branching
            else:
                compiled = compile_for_budget(module, chip, args.budget, Path(path).parent, path, measured=measured)
        decisions = compiled.placement[next(iter(compiled.placement))].decisions
        result["placement"] = {
            "budget": args.budget, "onchip_peak": compiled.onchip_peak, "ms": compiled.ms(chip),
            "rows": [vars(d) for d in decisions],
        }  # fmt: skip
        sections.append(budget_reports.render_decisions(name, args.budget, decisions))
        if args.tile:
            chains = [] if tile_rows is None else tiled_chains(module, tile_rows, branching)
            result["placement"]["tiled_chains"] = [vars(c) for c in chains]
            sections.append(budget_reports.render_tiled_chains(name, chains))
    elif args.tile and not args.budget_sweep:
        raise CfmemError("--tile reports on a budget: add --budget or --budget-sweep", "--tile")
    if args.budget_sweep:
        with placement_progress(f"{path}: sweeping budgets") as measured:
            rows = budget_sweep(module, chip, Path(path).parent, measured=measured, tile=args.tile)
        result["budget_sweep"] = budget_reports.sweep_json(rows)
        sections.append(budget_reports.render_sweep(name, rows, tiled=args.tile))
        if args.png:
            _write(args.png, budget_reports.write_sweep_png, rows, f"{name} on {chip.name}")
    elif args.png:
        raise CfmemError("--png with --budget draws nothing: add --budget-sweep", "--png")
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        print("\n\n".join(sections))
    if args.png:
        print(f"wrote {args.png}", file=sys.stderr if args.json else sys.stdout)
    return 0


def main(args: argparse.Namespace) -> int:
    from cfmem.reports import gantt
    from cfmem.reports import timing as timing_reports

    if args.budget_sweep or args.budget is not None or args.tile:
        return _fit_report(args)
    _check_options(args)
    options = PlanOptions(time_limit=args.time_limit)
    results = [_report_model(path, args, options) for path in args.models]
    notes = sys.stderr if args.json else sys.stdout
    if args.png or args.csv:  # one model, one function (checked above)
        report = next(iter(results[0]["functions"].values()))
        if args.csv:
            _write(args.csv, gantt.write_gantt_csv, report)
        if args.png:
            _write(args.png, gantt.write_gantt_png, report, Path(args.models[0]).stem)
    if args.timeline:
        _write(args.timeline, timing_reports.write_timeline_png, next(iter(results[0]["timing"].values())))
    for result in results:
        for report in result.get("timing", {}).values():
            report.pop("_timelines", None)
    if args.json:
        print(json.dumps(_json(results, args.compare), indent=1))
    elif len(results) > 1:
        print(tables.render_models(_model_entries(results)))
    else:
        sections = (
            [tables.render_comparison(grid) for grid in results[0]["comparison"].values()]
            if args.compare
            else [tables.render_function(report) for report in results[0]["functions"].values()]
        )
        sections += [timing_reports.render_timing(t) for t in results[0].get("timing", {}).values()]
        print("\n\n".join(sections))
    for out in (args.csv, args.png, args.timeline):
        if out:
            print(f"wrote {out}", file=notes)
    return 0
