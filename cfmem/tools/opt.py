"""``cfmem opt``: run a cfmem pass pipeline, with one-line errors and atomic output."""

from __future__ import annotations

import argparse
import io

from xdsl.passes import PassPipeline
from xdsl.printer import Printer
from xdsl.utils.exceptions import DiagnosticException

from cfmem.ir_io import CfmemError, load_module, make_context, verify
from cfmem.passes import PASSES
from cfmem.tools.files import atomic_write_text


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
    module, source = load_module(args.model)
    try:
        pipeline = PassPipeline.parse_spec(PASSES, args.passes)
    except Exception as err:  # xDSL raises ValueError or its own parse errors for a bad spec
        message = str(err).strip().splitlines()[-1] if str(err).strip() else type(err).__name__
        raise CfmemError(f"bad pipeline '{args.passes}': {message}") from None
    ctx = make_context()
    try:
        pipeline.apply(ctx, module)
    except DiagnosticException as err:
        raise CfmemError(str(err).strip().splitlines()[0], args.model) from None
    verify(module)
    text = io.StringIO()
    Printer(stream=text).print_op(module)
    text.write("\n")
    if args.output:
        atomic_write_text(args.output, text.getvalue())
    else:
        print(text.getvalue(), end="")
    return 0
