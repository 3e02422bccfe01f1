"""``cfmem compile``: a tensor-level model to the flat form, within an on-chip budget."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cfmem.dma.timing import ASSUMED_TRIPS, Chip
from cfmem.errors import CfmemError
from cfmem.planning.control_flow import MODES
from cfmem.planning.option_checks import OptionError, check_budget, check_choice, check_loop_trips, parsed_int
from cfmem.planning.strategies import STRATEGY_NAMES
from cfmem.files import STDOUT


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "compile",
        help="compile a model into an on-chip budget: placement, slicing, DMA, planning, lowering",
        description=(
            "Run the budgeted pipeline down to the flat form: choose where every weight (resident,"
            " streamed whole with a DMA depth chosen automatically, streamed in slices, or read off"
            " chip) and every activation (on chip or in an off-chip arena) lives so that everything"
            " on chip fits the budget at the lowest modeled latency (nn-place), then slice, insert DMA,"
            " plan, check DMA and lower (nn-slice-weights, nn-insert-dma, nn-plan-memory,"
            " nn-check-dma, nn-lower-to-memref), and compute the slices of an op as an scf.for loop"
            " (nn-roll-slices). The flat function's cfmem.arena_size is its on-chip"
            " bytes, and its cfmem.onchip_budget the budget the flat interpreter enforces. A budget"
            " too small for what must stay on chip is an error naming it. The summary goes to"
            " standard error."
        ),
    )
    p.add_argument("model", help="the tensor-level .mlir module")
    p.add_argument("--budget", type=parsed_int(check_budget), metavar="BYTES", help="on-chip bytes (default: the chip's onchip_bytes)")
    p.add_argument("--chip", metavar="CHIP.json", help="chip description (default: a small edge NPU, see examples/chips)")
    p.add_argument("--mode", default="exact", help=f"control-flow mode: {', '.join(MODES)} (default: exact)")
    p.add_argument("--strategy", default="auto", help=f"planning strategy: {', '.join(STRATEGY_NAMES)} (default: auto)")
    p.add_argument("--unrolled", action="store_true", help="leave sliced compute unrolled, one op per slice (no loops)")
    p.add_argument(
        "--loop-trips", type=parsed_int(check_loop_trips), default=ASSUMED_TRIPS, metavar="N",
        help=f"iterations assumed for timing an nn.loop whose count the IR does not fix (default: {ASSUMED_TRIPS})",
    )
    p.add_argument(
        "--tile", action="store_true",
        help="also compile the model with its chains of convolutions, pools and elementwise ops computed in tiles of"
             " rows (nn-tile-rows) at a few tile sizes, and keep the fastest that fits (a compile per size)",
    )
    p.add_argument("-o", "--output", metavar="FLAT.mlir", help="write the flat module here instead of standard output")
    p.add_argument(
        "--graph", metavar="GRAPH.mlir",
        help="also write the placed tensor-level graph here: the model with its placement attributes and every"
             " sliced op cut, the graph the flat module computes bit for bit (cfmem run runs it with the reference"
             " interpreter; slicing reorders float sums, so it may differ from the model in the last bits)",
    )
    p.set_defaults(handler=main)


def loops_timed(path: dict) -> str:
    """``; loops timed at loop#0 32, loop#1 1 iterations`` when the timed path has loops."""
    loops = [f"{label} {n}" for label, n in path.items() if label.startswith("loop#")]
    return f"; loops timed at {', '.join(loops)} iterations" if loops else ""


def _same_file(a: str, b: str) -> bool:
    return a == b or Path(a).resolve() == Path(b).resolve()


def load_chip(path: str | None) -> Chip:
    if path is None:
        return Chip()
    try:
        return Chip.load(path)
    except (OSError, ValueError, TypeError) as err:
        raise CfmemError(f"not a chip description: {err}", path) from None


def main(args: argparse.Namespace) -> int:
    try:
        check_choice("--mode", args.mode, MODES)
        check_choice("--strategy", args.strategy, STRATEGY_NAMES)
    except OptionError as err:
        raise CfmemError(err.rule, err.option) from None
    from cfmem.fit import compile_for_budget, timing_path
    from cfmem.ir_io import is_flat, load_module, write_module
    from cfmem.tools.progress import placement_progress

    if args.graph == STDOUT and args.output in (None, STDOUT):
        raise CfmemError("standard output already carries the flat module: give -o a file to write the graph there", "--graph")
    if args.graph is not None and args.output is not None and _same_file(args.graph, args.output):
        raise CfmemError("--graph and -o name the same file", args.graph)
    chip = load_chip(args.chip)
    module, _ = load_module(args.model)
    if is_flat(module):
        raise CfmemError("the module is already lowered: compile the tensor-level module", args.model)
    path = timing_path(module, chip, assumed_trips=args.loop_trips)
    tiled = ""
    with placement_progress(f"{args.model}: placing") as measured:
        if args.tile:
            from cfmem.fit_tiled import compile_tiled

            chosen = compile_tiled(module, chip, args.budget, Path(args.model).parent, args.model, args.mode, args.strategy,
                                   path, not args.unrolled, measured)  # fmt: skip
            compiled = chosen.compiled
            tiled = f"; {chosen.describe()}"
        else:
            compiled = compile_for_budget(
                module, chip, args.budget, Path(args.model).parent, args.model, args.mode, args.strategy, path=path,
                roll=not args.unrolled, measured=measured,
            )
    write_module(compiled.flat, args.output)
    if args.graph is not None:
        write_module(compiled.graph, args.graph)
    print(
        f"{args.model}: {compiled.onchip_peak} of {compiled.budget} on-chip bytes;"
        f" {compiled.ms(chip):.3f} ms modeled on {chip.name}, bound {chip.milliseconds(compiled.bound_cycles):.3f} ms"
        f" (gap {compiled.gap_pct():.1f} %)" + tiled + loops_timed(path),
        file=sys.stderr,
    )
    return 0
