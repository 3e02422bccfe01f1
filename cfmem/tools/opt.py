"""``cfmem opt``: run a cfmem pass pipeline, with one-line errors and atomic output."""

from __future__ import annotations

import argparse
from pathlib import Path

from cfmem.passes import PASSES


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "opt",
        help="run a pipeline of cfmem passes on a model (like xdsl-opt, with one-line errors)",
        description=(
            "Parse and verify a model, run the pipeline (xdsl-opt syntax, e.g."
            " 'nn-insert-dma,nn-plan-memory{mode=hoist strategy=search}'), verify the result and"
            f" print it or write it atomically. Passes: {', '.join(PASSES)}."
        ),
    )
    p.add_argument("model", help="the .mlir module")
    p.add_argument("-p", "--passes", required=True, metavar="PIPELINE", help="comma-separated passes with {options}")
    p.add_argument("-o", "--output", metavar="OUT.mlir", help="write here instead of standard output")
    p.set_defaults(handler=main)


def main(args: argparse.Namespace) -> int:
    from cfmem.ir_io import load_module, write_module
    from cfmem.pipeline import apply_pipeline

    module, source = load_module(args.model)
    apply_pipeline(module, args.passes, args.model, Path(args.model).parent, source)
    write_module(module, args.output)
    return 0
