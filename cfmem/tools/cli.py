"""The ``cfmem`` command: subcommands, and one-line errors instead of tracebacks."""

from __future__ import annotations

import argparse
import os
import sys
import traceback

from cfmem.interp.weights import WeightError
from cfmem.ir_io import CfmemError
from cfmem.tools import check_mlir, import_onnx, opt, plan, report, run


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cfmem",
        description=(
            "Plan on-chip memory for neural-network graphs with control flow."
            " The passes also run inside xdsl-opt (see `xdsl-opt -p nn-...`)."
        ),
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    import_onnx.add_parser(subparsers)
    run.add_parser(subparsers)
    report.add_parser(subparsers)
    plan.add_parser(subparsers)
    opt.add_parser(subparsers)
    check_mlir.add_parser(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.handler(args)
    except CfmemError as err:
        print(f"cfmem: {err}", file=sys.stderr)
        return 1
    except WeightError as err:
        print(f"cfmem: error: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("cfmem: interrupted", file=sys.stderr)
        return 130
    except Exception as err:  # a bug in cfmem: still one line, traceback on request
        if os.environ.get("CFMEM_DEBUG"):
            traceback.print_exc()
        print(f"cfmem: internal error: {type(err).__name__}: {err} (set CFMEM_DEBUG=1 for a traceback)", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
