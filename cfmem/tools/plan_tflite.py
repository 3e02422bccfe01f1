"""``cfmem plan-tflite``: plan a ``.tflite`` model's arena with cfmem and write the offsets as
TFLite Micro's offline memory plan."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from cfmem.errors import CfmemError
from cfmem.files import atomic_write_bytes
from cfmem.planning.strategies import AUTO_CANDIDATES, STRATEGY_NAMES
from cfmem.planning.verify import PlanError
from cfmem.reports.tables import summary_line
from cfmem.tools.plan import add_strategy_options, plan_options
from cfmem.tools.progress import step_progress

DESCRIPTION = (
    "Plan the arena of a TFLite model for TFLite Micro (TFLM) and write the offsets into a copy of the"
    " model as TFLM's offline memory plan (the OfflineMemoryAllocation metadata entry), which TFLM then"
    " uses instead of planning those tensors itself. Tensors live as TFLM's allocator decides (from the"
    " operator that creates them to the last that reads them, the subgraphs of IF, WHILE and CALL_ONCE"
    " walked in place); every tensor of every subgraph gets an entry, 16-byte aligned. A RESHAPE's output"
    " may share its input's bytes (TFLM's RESHAPE kernel then copies nothing) when that makes the arena"
    " smaller; no other tensors share bytes while live. Constants and"
    " variable tensors (which TFLM keeps in its persistent part) get -1. The scratch buffers kernels ask"
    " for are measured in TFLM's reference kernels (the tflite-micro package) and left room for; TFLM"
    " places them itself, around the plan. The plan is checked by cfmem's verifier before anything is"
    " written, the written file is read back and compared field by field with the input, and both files"
    " are run in TFLM: the report gives the arena each needs and whether their outputs are identical."
    " Everything but the plan's metadata entry and its buffer stays as it was; an existing plan is"
    " replaced. See docs/tflite.md."
)


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "plan-tflite",
        help="plan a .tflite model's arena and write it as TFLite Micro's offline memory plan",
        description=DESCRIPTION,
    )
    p.add_argument("model", metavar="MODEL.tflite", help="the TFLite model (flatbuffer)")
    p.add_argument("-o", "--output", required=True, metavar="PLANNED.tflite", help="the planned model to write")
    p.add_argument("--strategy", default="auto", choices=STRATEGY_NAMES, help="planning strategy (default: auto)")
    add_strategy_options(p)
    p.add_argument(
        "--no-tflm", action="store_true",
        help="do not run TFLite Micro: plan the tensors alone (no room is left for scratch buffers), and"
        " measure neither arena nor outputs",
    )  # fmt: skip
    p.set_defaults(handler=main)


def main(args: argparse.Namespace) -> int:
    from cfmem.tflite.arena_plan import compare_in_tflm, plan_for_tflm
    from cfmem.tflite.model_file import TfliteFileError, read_tflite
    from cfmem.tflite.offline_plan import OfflinePlanError, plan_metadata
    from cfmem.tflite.tflm_runtime import TflmWorker, TflmError

    options = plan_options(args)
    with TflmWorker() as tflm, step_progress(Path(args.model).name, 3) as step:
        try:
            data, model = read_tflite(args.model)
            own_arena, not_run = 0, "--no-tflm" if args.no_tflm else ""
            if not not_run:
                step("TFLite Micro: the model's smallest arena")
                try:
                    own_arena = tflm.smallest_arena(data)
                except TflmError as err:
                    not_run = f"the tflite-micro package's TFLite Micro cannot load the model: {err.reason}"
            step("scratch buffers and the plan")
            plan = plan_for_tflm(model, None if args.no_tflm else tflm, args.strategy, options)
            if not not_run:
                step("TFLite Micro: the planned model's arena and outputs")
            compared = None if not_run else compare_in_tflm(tflm, data, plan.planned, own_arena=own_arena)
        except TfliteFileError as err:
            # the reader's messages start with the file's name: it becomes the error's location
            raise CfmemError(err.message.removeprefix(f"{args.model}: "), err.location or args.model) from None
        except OfflinePlanError as err:
            raise CfmemError(err.message, args.model) from None
        except TflmError as err:
            raise CfmemError(f"{err.message} (--no-tflm plans without running TFLite Micro)", args.model) from None
        except PlanError as err:
            raise CfmemError(f"strategy '{args.strategy}' produced an invalid plan (a bug in cfmem): {err}") from None
    if compared is not None and not compared.identical:
        raise CfmemError(
            "TFLite Micro's outputs of the planned model differ from the original's on the same inputs:"
            " nothing written (a bug in cfmem's model of TFLM's lifetimes)",
            args.model,
        )
    atomic_write_bytes(args.output, plan.planned)
    _report(args, model, plan, not_run, compared, replaced=bool(plan_metadata(model)))
    return 0


def _report(args: argparse.Namespace, model: Any, plan: Any, not_run: str, compared: Any, replaced: bool) -> None:
    tensors, scratch, solution = plan.tensors, plan.scratch, plan.solution
    kinds = {kind: sum(t.kind == kind for t in tensors) for kind in ("planned", "constant", "variable", "empty")}
    subgraphs = len(model.subgraphs)
    print(
        f"{Path(args.model).name}: {subgraphs} subgraph{'s' * (subgraphs != 1)}, {len(tensors)} tensors:"
        f" {kinds['planned']} in the arena, {kinds['constant']} constants, {kinds['variable']} variables,"
        f" {kinds['empty']} empty"
    )
    if args.no_tflm:
        print("scratch buffers: not measured (--no-tflm); TFLite Micro places them around the plan")
    else:
        total, count = sum(b.bytes for b in scratch.blocks), len(scratch.blocks)
        print(f"scratch buffers (TFLite Micro's reference kernels): {total} bytes for {count} operator{'s' * (count != 1)}")
    if scratch.unmeasured:
        print(f"scratch not measured for (TFLite Micro cannot run them alone): {', '.join(scratch.unmeasured)}")
    chosen = ""
    if args.strategy == "auto" and "auto_choice" in solution.stats:
        chosen = f" ({AUTO_CANDIDATES[int(solution.stats['auto_choice'])]})"
    print(f"arena head planned by cfmem (strategy {args.strategy}{chosen}): {summary_line(solution.peak, solution.lower_bound)}")
    if plan.aliases:
        count = len(plan.aliases)
        print(
            f"RESHAPE outputs on their inputs' bytes (TFLite Micro's RESHAPE then copies nothing): {count}"
            f" tensor{'s' * (count != 1)}; each tensor on bytes of its own: {plan.plain_peak} bytes"
        )
    saved = 100.0 * (plan.tflm_peak - solution.peak) / plan.tflm_peak if plan.tflm_peak else 0.0
    print(f"TFLite Micro's own planner on the same buffers: {plan.tflm_peak} bytes (cfmem {saved:.2f} % smaller)")
    if compared is None:
        print(f"arena TFLite Micro needs: the head above, plus its persistent part (not measured: {not_run})")
    else:
        print(
            f"arena TFLite Micro needs (smallest that allocates, reference kernels): {compared.planned_arena} bytes"
            f" (head {compared.planned.head}, tail {compared.planned.tail}); the model as it was:"
            f" {compared.own_arena} bytes (head {compared.own.head})"
        )
        print("outputs of both models in TFLite Micro on 3 random input sets: identical")
    if kinds["variable"]:
        print("variable tensors are not in the plan: TFLite Micro keeps them in its persistent part")
    if replaced:
        print("replaced the model's existing OfflineMemoryAllocation plan")
    print(f"wrote {args.output}")
