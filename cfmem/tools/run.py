"""``cfmem run``: execute a model and save or summarise its outputs."""

from __future__ import annotations

import argparse
import zipfile
from pathlib import Path

import numpy as np

from cfmem.interp.flat import FlatInterpreter, is_flat
from cfmem.interp.golden import GoldenInterpreter, InterpError, find_function, random_inputs
from cfmem.ir_io import CfmemError, load_module
from cfmem.tools.files import atomic_save_npz


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "run",
        help="run a model on inputs and print or save its outputs",
        description=(
            "Run a function of an nn module. A tensor-level module runs in the reference"
            " interpreter; a module lowered by nn-lower-to-memref runs in the flat"
            " interpreter, on one real byte arena at the planned offsets, which by default"
            " also checks that no tensor is read after another overwrote its bytes and"
            " that no DMA buffer is read before its wait. Inputs come from an .npz keyed"
            " by the function's argument names, or are drawn from a seeded normal"
            " distribution. The branch of every if is decided by the data."
        ),
    )
    p.add_argument("model", help="the .mlir module to run")
    p.add_argument("--inputs", metavar="IN.npz", help="inputs keyed by argument name (default: seeded random)")
    p.add_argument("--seed", type=int, default=0, help="seed for random inputs (default: 0)")
    p.add_argument("--func", metavar="NAME", help="function to run (default: the only one, or @main)")
    p.add_argument(
        "--no-check",
        action="store_true",
        help="flat form only: skip the byte-ownership checks (faster; a wrong plan then shows only as wrong numbers)",
    )
    p.add_argument("-o", "--output", metavar="OUT.npz", help="save outputs keyed by result name")
    p.set_defaults(handler=main)


def load_inputs(path: str) -> dict[str, np.ndarray]:
    try:
        with np.load(path, allow_pickle=False) as data:
            return {k: data[k] for k in data.files}
    except (OSError, ValueError, zipfile.BadZipFile) as err:
        raise CfmemError(f"cannot read inputs from {path}: {err}") from None


def main(args: argparse.Namespace) -> int:
    module, source = load_module(args.model)
    try:
        fn = find_function(module, args.func)
        inputs = load_inputs(args.inputs) if args.inputs else random_inputs(fn, args.seed)
        if is_flat(module):
            result = FlatInterpreter(module, check=not args.no_check).run(fn, inputs)
        else:
            result = GoldenInterpreter(module, Path(args.model).parent).run(fn, inputs)
    except InterpError as err:
        raise CfmemError(str(err), source.locate(err.op) if err.op else args.model) from None
    for label, taken in result.branches:
        print(f"{label}: {'then' if taken else 'else'}")
    for name, value in result.outputs.items():
        stats = ""
        if value.size and np.issubdtype(value.dtype, np.number):
            stats = f" min {value.min():.6g} max {value.max():.6g} mean {value.mean():.6g}"
        print(f"{name}: {value.dtype}{list(value.shape)}{stats}")
    if args.output:
        atomic_save_npz(args.output, result.outputs)
        print(f"wrote {args.output}")
    return 0
