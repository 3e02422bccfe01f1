"""``cfmem run``: execute a model and save or summarise its outputs."""

from __future__ import annotations

import argparse
import zipfile
from collections import Counter, defaultdict
from pathlib import Path
from typing import TYPE_CHECKING

from cfmem.errors import CfmemError
from cfmem.planning.option_checks import check_seed, parsed_int
from cfmem.files import atomic_save_npz

if TYPE_CHECKING:
    import numpy as np


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
    p.add_argument("--seed", type=parsed_int(check_seed), default=0, help="seed for random inputs (default: 0)")
    p.add_argument("--func", metavar="NAME", help="function to run (default: the only one, or @main)")
    p.add_argument(
        "--no-check",
        action="store_true",
        help="flat form only: skip the byte-ownership checks (faster; a wrong plan then shows only as wrong numbers)",
    )
    p.add_argument("-o", "--output", metavar="OUT.npz", help="save outputs keyed by result name")
    p.set_defaults(handler=main)


def load_inputs(path: str) -> dict[str, np.ndarray]:
    """The arrays of the .npz archive ``path`` by name. Each must hold numbers,
    and together they must fit the run-size cap, checked from the archive's
    directory before any array is read."""
    import numpy as np
    from numpy.lib.npyio import NpzFile

    from cfmem.interp.footprint import MAX_RUN_BYTES, format_bytes

    try:
        data = np.load(path, allow_pickle=False)
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as err:
        raise CfmemError(f"cannot read inputs: {err}", path) from None
    if not isinstance(data, NpzFile):
        raise CfmemError(
            "holds one array, not an .npz archive of inputs keyed by argument name (write it with numpy.savez)", path
        )
    with data:
        sizes = {info.filename.removesuffix(".npy"): info.file_size for info in data.zip.infolist()}
        if sum(sizes.values()) > MAX_RUN_BYTES:
            name = max(sizes, key=sizes.__getitem__)
            raise CfmemError(
                f"input '{name}' takes {format_bytes(sizes[name])}; inputs may take at most"
                f" {format_bytes(MAX_RUN_BYTES)} in total", path,
            )  # fmt: skip
        inputs = {}
        for name in data.files:
            try:
                value = data[name]
            except ValueError:  # object arrays need pickle, which is never loaded
                raise CfmemError(f"input '{name}' holds Python objects, not numbers", path) from None
            except (OSError, EOFError, zipfile.BadZipFile) as err:
                raise CfmemError(f"cannot read input '{name}': {err}", path) from None
            if value.dtype.kind not in "biufc":
                raise CfmemError(f"input '{name}' has dtype {value.dtype}, not numbers", path)
            inputs[name] = value
        return inputs


def summary(value: np.ndarray) -> str:
    """dtype and shape, with min, max and mean of a non-empty numeric array."""
    import numpy as np

    text = f"{value.dtype}{list(value.shape)}"
    if value.size and value.dtype.kind in "iuf":
        with np.errstate(invalid="ignore", over="ignore"):  # the mean of +inf and -inf is NaN
            mean = value.mean(dtype=np.float64)
        text += f" min {value.min():.6g} max {value.max():.6g} mean {mean:.6g}"
    return text


def branch_lines(branches: list[tuple[str, bool]]) -> list[str]:
    """``if#0: then`` per if that ran once; ``if#1: then x20, else x12`` for one that ran
    several times (inside a loop), in the order each if first ran."""
    runs: dict[str, Counter[str]] = defaultdict(Counter)
    for label, taken in branches:
        runs[label]["then" if taken else "else"] += 1
    lines = []
    for label, sides in runs.items():
        if sum(sides.values()) == 1:
            lines.append(f"{label}: {next(iter(sides))}")
        else:
            lines.append(f"{label}: " + ", ".join(f"{side} x{n}" for side, n in sides.items()))
    return lines


def main(args: argparse.Namespace) -> int:
    from cfmem.interp.footprint import FootprintError, check_run_bytes
    from cfmem.interp.golden import GoldenInterpreter, InterpError, find_function, random_inputs
    from cfmem.ir_io import is_flat, load_module

    module, source = load_module(args.model)
    try:
        fn = find_function(module, args.func)
        check_run_bytes(module, fn)
        inputs = load_inputs(args.inputs) if args.inputs else random_inputs(fn, args.seed)
        if is_flat(module):
            from cfmem.interp.flat import FlatInterpreter

            result = FlatInterpreter(module, check=not args.no_check).run(fn, inputs)
        else:
            result = GoldenInterpreter(module, Path(args.model).parent).run(fn, inputs)
    except InterpError as err:
        raise CfmemError(str(err), source.locate(err.op)) from None
    except FootprintError as err:
        raise CfmemError(str(err), args.model) from None
    for line in branch_lines(result.branches):
        print(line)
    for label, iterations in result.loops:
        print(f"{label}: {iterations} iteration{'' if iterations == 1 else 's'}")
    for name, value in result.outputs.items():
        print(f"{name}: {summary(value)}")
    if args.output:
        atomic_save_npz(args.output, result.outputs)
        print(f"wrote {args.output}")
    return 0
