"""``cfmem check-mlir``: prove a plan correct against two independent runs."""

from __future__ import annotations

import argparse
import math
from collections import Counter
from itertools import chain
from pathlib import Path

from cfmem.errors import CfmemError
from cfmem.passes import DEFAULT_PLAN_PIPELINE
from cfmem.planning.option_checks import OptionError, check_seed, check_time_limit, parsed_int
from cfmem.tools.run import load_inputs


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "check-mlir",
        help="plan, lower and run a model three ways (reference, flat arena, real MLIR JIT) and compare",
        description=(
            "Plan a tensor-level model with PIPELINE, lower it to the flat form and run it"
            " three ways: the reference interpreter on the unplanned graph (after the pipeline's"
            " nn-slice-weights, if any), the checking flat"
            " interpreter on the planned byte arena (must be bit-identical), and upstream MLIR"
            " (nn-lower-to-linalg, lowered to LLVM and JIT-executed in a subprocess; each output"
            " element must agree within a bound derived from the computation: the float32 roundings"
            " of the ops that made it, from the number and size of the terms each sum adds, or"
            " within --rtol/--atol when given). Without --inputs or --seed, inputs are searched that take every branch of"
            " every if, and a branch outcome no input reaches is an error unless --allow-untested."
            " A module already in the flat form skips planning and the reference run."
            " Needs the optional extra: pip install 'cfmem[mlir]'."
        ),
    )
    p.add_argument("model", help="the .mlir module (tensor-level, or lowered by nn-lower-to-memref)")
    p.add_argument(
        "-p", "--passes", default=DEFAULT_PLAN_PIPELINE, metavar="PIPELINE",
        help=f"planning pipeline run before nn-lower-to-memref (default: {DEFAULT_PLAN_PIPELINE})",
    )
    p.add_argument("--inputs", metavar="IN.npz", help="one input set keyed by argument name")
    p.add_argument("--seed", type=parsed_int(check_seed), help="one seeded random input set instead of the branch search")
    p.add_argument("--func", metavar="NAME", help="function to check (default: the only one, or @main)")
    p.add_argument(
        "--rtol", type=float,
        help="compare the MLIR run within the fixed tolerance atol + rtol |flat| instead of the computed bound"
             " (the part not given: rtol 1e-05, atol 1e-06)",
    )  # fmt: skip
    p.add_argument("--atol", type=float, help="the fixed tolerance's absolute part (see --rtol)")
    p.add_argument("--no-mlir", action="store_true", help="skip the MLIR run (reference vs flat only)")
    p.add_argument(
        "--timeout", type=float, metavar="SECONDS",
        help="seconds the upstream MLIR compile and runs may take together (default: 300)",
    )  # fmt: skip
    p.add_argument(
        "--allow-untested", action="store_true",
        help="succeed even if the branch search leaves some branch outcome unrun (they are listed)",
    )  # fmt: skip
    p.set_defaults(handler=main)


def check_tolerance(value: float, option: str) -> None:
    """A tolerance is a finite number, 0 or more."""
    if not (math.isfinite(value) and value >= 0):
        raise CfmemError(f"must be a finite number >= 0, not {value:g}", option)


def input_sets(args: argparse.Namespace, model, flat, fn, base_dir: Path) -> list:
    """The given input set, the seeded one, or the sets of the branch search (arrays by input name)."""
    from cfmem.interp.coverage import cover_branches, function_constants, loop_trip_cases, trip_variations
    from cfmem.interp.golden import conform_inputs, find_function, random_inputs

    if args.inputs:
        return [conform_inputs(fn, load_inputs(args.inputs))]
    if args.seed is not None:
        return [random_inputs(fn, args.seed)]
    searched = model if model is not None else flat
    coverage = cover_branches(searched, args.func, base_dir=base_dir)
    sets = [inputs for inputs, _ in coverage.found]
    thresholds = function_constants(searched, find_function(searched, args.func))
    candidates = chain(sets, trip_variations(fn, sets, thresholds))  # the branch search's sets claim theirs first
    for inputs in loop_trip_cases(searched, candidates, args.func, base_dir).values():
        if not any(inputs is known for known in sets):  # each loop 0, 1, 2 and many times, where reachable
            sets.append(inputs)
    return sets


def verdict(args: argparse.Namespace, sets: int, outcomes: list[str], traces: list, idle: list[str]) -> str:
    """The last line: what agreed and which branch outcomes ran; an error if the
    search left some branch outcome or some loop body (``idle``) unrun and
    --allow-untested was not given."""
    from cfmem.interp.coverage import missing_outcomes

    missing = missing_outcomes(outcomes, traces)
    agrees = f"{sets} input set(s), every run agrees"
    if args.inputs or args.seed is not None:
        if not outcomes:
            return f"ok: {agrees} (no ifs)"
        done = [o for o in outcomes if o not in missing]
        return f"ok: {agrees}; branch outcomes run: {' '.join(done)}; not run: {' '.join(missing) or 'none'}"
    unrun = [f"{len(missing)} of {len(outcomes)} branch outcomes never ran: {' '.join(missing)}"] if missing else []
    unrun += [f"the body of {' and '.join(idle)} never ran"] if idle else []
    if not unrun:
        if not outcomes:
            return f"ok: {agrees} (no ifs)"
        return f"ok: {agrees}, every branch outcome ran ({len(outcomes)} of {len(outcomes)})"
    untested = "; ".join(unrun)
    if not args.allow_untested:
        raise CfmemError(
            f"{untested} (the input search reached no input that runs them: give such --inputs,"
            " or accept with --allow-untested)", args.model,
        )  # fmt: skip
    return f"untested: {agrees}, but {untested} (--allow-untested)"


def iterations_run(rows, labels: list[str]) -> str:
    """``; loop iterations run: loop#0 0, 1, 2, 32; loop#1 2, 3 (never 0 or 1)``: what the
    input sets made each loop do, and the trip classes (0, 1, 2, many) none reached."""
    from cfmem.interp.coverage import TRIP_CLASSES, trip_class

    seen: dict[str, set[int]] = {label: set() for label in labels}
    for row in rows:
        for label, n in row.loops:
            seen.setdefault(label, set()).add(n)
    if not seen:
        return ""
    parts = []
    for label, counts in seen.items():
        missed = [c for c in TRIP_CLASSES if c not in {trip_class(n) for n in counts}]
        ran = ", ".join(map(str, sorted(counts))) or "none"
        parts.append(f"{label} {ran}" + (f" (never {' or '.join(missed)})" if missed and counts else ""))
    return "; loop iterations run: " + "; ".join(parts)


def counted(outcomes: list[str]) -> list[str]:
    """Each outcome once, in first-run order, with ``xN`` when it ran N > 1 times (an if in a loop)."""
    return [o if n == 1 else f"{o}x{n}" for o, n in Counter(outcomes).items()]


def main(args: argparse.Namespace) -> int:
    from cfmem.differential import check
    from cfmem.interp.coverage import branch_outcomes, idle_loops, loop_labels, trace_outcomes
    from cfmem.interp.footprint import FootprintError, check_run_bytes
    from cfmem.interp.golden import InterpError, find_function
    from cfmem.ir_io import is_flat, load_module
    from cfmem.mlir_check.jit import MlirCheckError
    from cfmem.pipeline import lower_model, rewritten_graph

    from cfmem.differential import fixed_tolerance
    from cfmem.mlir_check.jit import MLIR_TIMEOUT

    fixed = fixed_tolerance(args.rtol, args.atol)
    for value, option in zip(fixed or (), ("--rtol", "--atol")):
        check_tolerance(value, option)
    timeout = MLIR_TIMEOUT if args.timeout is None else args.timeout
    try:
        check_time_limit("--timeout", timeout)
    except OptionError as err:
        raise CfmemError(err.rule, err.option) from None
    module, source = load_module(args.model)
    base_dir = Path(args.model).parent
    try:
        check_run_bytes(module, find_function(module, args.func))
        if is_flat(module):
            model, flat = None, module
        else:
            flat = lower_model(module, args.passes, base_dir, args.model)
            model = rewritten_graph(module, args.passes, args.model)
        fn = find_function(flat, args.func)
        sets = input_sets(args, model, flat, fn, base_dir)
        rows = check(model, flat, sets, with_mlir=not args.no_mlir, rtol=args.rtol, atol=args.atol,
                     base_dir=base_dir, func_name=args.func, timeout=timeout)
    except InterpError as err:
        raise CfmemError(str(err), source.locate(err.op)) from None
    except FootprintError as err:
        raise CfmemError(str(err), args.model) from None
    except MlirCheckError as err:
        raise CfmemError(f"upstream MLIR: {err}", args.model) from None
    except CfmemError as err:  # the linalg lowering's refusal names the op, not the file
        raise CfmemError(err.message, err.location or args.model) from None
    tolerance = f"rtol {fixed[0]:g}, atol {fixed[1]:g}" if fixed else "computed bound"
    print(f"{'set':<4} {'reference = flat':<18} {f'MLIR vs flat ({tolerance})':<38}"
          " branches (xN: runs), loops (loop:iterations)")
    failed = []
    for k, row in enumerate(rows):
        branches = " ".join([*counted(trace_outcomes(row.trace)), *(f"{label}:{n}" for label, n in row.loops)]) or "-"
        if row.golden_vs_flat is None:
            same = "not run"
        elif not row.same_iterations:
            same = "LOOPS DIFFER"
        else:
            same = "bit-identical" if row.golden_vs_flat == 0.0 else f"DIFFERS by {row.golden_vs_flat:.3g}"
        mlir = "not run" if row.mlir_vs_flat is None else f"{row.mlir_vs_flat:.3g} of {'tolerance' if fixed else 'bound'}"
        print(f"#{k:<3} {same:<18} {mlir:<38} {branches}")
        if not row.ok():
            failed.append(k)
    if failed:
        raise CfmemError(f"the runs disagree on input set(s) {', '.join(f'#{k}' for k in failed)}", args.model)
    labels = loop_labels(flat, fn)
    idle = idle_loops(labels, (row.loops for row in rows))
    print(verdict(args, len(rows), branch_outcomes(flat, fn), [row.trace for row in rows], idle) + iterations_run(rows, labels))
    return 0
