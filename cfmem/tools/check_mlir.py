"""``cfmem check-mlir``: prove a plan correct against two independent runs."""

from __future__ import annotations

import argparse
from pathlib import Path

from cfmem.differential import check
from cfmem.interp.coverage import branch_covering_inputs
from cfmem.interp.flat import is_flat
from cfmem.interp.golden import InterpError, find_function, random_inputs
from cfmem.ir_io import CfmemError, load_module
from cfmem.pipeline import DEFAULT_PLAN_PIPELINE, lower_model
from cfmem.tools.run import load_inputs


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "check-mlir",
        help="plan, lower and run a model three ways (reference, flat arena, real MLIR JIT) and compare",
        description=(
            "Plan a tensor-level model with PIPELINE, lower it to the flat form and run it"
            " three ways: the reference interpreter on the unplanned graph, the checking flat"
            " interpreter on the planned byte arena (must be bit-identical), and upstream MLIR"
            " (nn-lower-to-linalg, lowered to LLVM and JIT-executed in a subprocess; must agree"
            " within --rtol). Without --inputs, inputs are searched that take every branch of"
            " every if. A module already in the flat form skips planning and the reference run."
            " Needs the optional extra: pip install 'cfmem[mlir]'."
        ),
    )
    p.add_argument("model", help="the .mlir module (tensor-level, or lowered by nn-lower-to-memref)")
    p.add_argument(
        "-p", "--passes", default=DEFAULT_PLAN_PIPELINE, metavar="PIPELINE",
        help=f"planning pipeline run before nn-lower-to-memref (default: {DEFAULT_PLAN_PIPELINE})",
    )
    p.add_argument("--inputs", metavar="IN.npz", help="one input set keyed by argument name")
    p.add_argument("--seed", type=int, help="one seeded random input set instead of the branch search")
    p.add_argument("--func", metavar="NAME", help="function to check (default: the only one, or @main)")
    p.add_argument("--rtol", type=float, default=1e-5, help="relative tolerance for the MLIR run (default: 1e-5)")
    p.add_argument("--atol", type=float, default=1e-6, help="absolute tolerance for the MLIR run (default: 1e-6)")
    p.add_argument("--no-mlir", action="store_true", help="skip the MLIR run (reference vs flat only)")
    p.set_defaults(handler=main)


def main(args: argparse.Namespace) -> int:
    from cfmem.mlir_check.jit import MlirCheckError

    module, source = load_module(args.model)
    base_dir = Path(args.model).parent
    try:
        if is_flat(module):
            model, flat = None, module
        else:
            model, flat = module, lower_model(module, args.passes, base_dir, args.model)
        fn = find_function(flat, args.func)
        if args.inputs:
            input_sets = [load_inputs(args.inputs)]
        elif args.seed is not None or model is None:
            input_sets = [random_inputs(fn, args.seed or 0)]
        else:
            input_sets = [inputs for inputs, _ in branch_covering_inputs(model, args.func, base_dir=base_dir)]
        rows = check(model, flat, input_sets, with_mlir=not args.no_mlir, rtol=args.rtol, atol=args.atol,
                     base_dir=base_dir, func_name=args.func)
    except InterpError as err:
        raise CfmemError(str(err), source.locate(err.op) if err.op else args.model) from None
    except MlirCheckError as err:
        raise CfmemError(f"upstream MLIR: {err}", args.model) from None
    print(f"{'set':<4} {'branches':<40} {'reference = flat':<18} MLIR vs flat (rtol {args.rtol:g}, atol {args.atol:g})")
    failed = []
    for k, row in enumerate(rows):
        branches = " ".join(f"{label}:{'then' if taken else 'else'}" for label, taken in row.trace) or "-"
        if row.golden_vs_flat is None:
            same = "not run"
        else:
            same = "bit-identical" if row.golden_vs_flat == 0.0 else f"DIFFERS by {row.golden_vs_flat:.3g}"
        mlir = "not run" if row.mlir_vs_flat is None else f"{row.mlir_vs_flat:.3f} of tolerance"
        print(f"#{k:<3} {branches:<40} {same:<18} {mlir}")
        if not row.ok():
            failed.append(k)
    if failed:
        raise CfmemError(f"the runs disagree on input set(s) {', '.join(f'#{k}' for k in failed)}", args.model)
    print(f"ok: {len(rows)} input set(s), every run agrees")
    return 0
