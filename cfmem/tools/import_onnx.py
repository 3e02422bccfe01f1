"""``cfmem import``: an ONNX model to an nn-dialect module and its weight blob; a TFLite model
is imported by :mod:`cfmem.tools.import_tflite`. Either way the module and the blob are
written here, with one summary line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from cfmem.errors import CfmemError
from cfmem.files import STDOUT, atomic_write_bytes, atomic_write_text, check_output_path

if TYPE_CHECKING:
    from cfmem.importers.imported import ImportedModel


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "import",
        help="import an ONNX or TFLite model (with If, Loop and Scan; IF and WHILE) into the nn dialect",
        description=(
            "Translate an ONNX model into an nn-dialect module. Initializers and tensor-valued"
            " Constant nodes go, in execution order, into one weight blob written next to the"
            " module (OUT.weights.bin) and read through nn.view at their offsets. Shape-only"
            " computations are folded; an If whose condition folds is replaced by the branch it"
            " takes; an If that depends on data becomes nn.if; Loop and Scan become nn.loop. Every input needs a static shape:"
            " fix symbolic dimensions by name with --dim, or whole shapes with --input-shape. A TFLite model (a .tflite file,"
            " or one with the TFL3 identifier) is imported likewise, IF and WHILE becoming nn.if and nn.loop; its"
            " dynamic dimensions take the file's sizes unless --input-shape fixes them."
        ),
    )
    p.add_argument("model", metavar="MODEL", help="the ONNX model (MODEL.onnx) or TFLite model (MODEL.tflite)")
    p.add_argument("-o", "--output", required=True, metavar="OUT.mlir", help="the module to write")
    p.add_argument(
        "--input-shape", action="append", default=[], metavar="NAME=D0,D1,...",
        help="fix the shape of input NAME (for symbolic or, in a TFLite model, dynamic dimensions); repeatable",
    )  # fmt: skip
    p.add_argument(
        "--dim", action="append", default=[], metavar="NAME=SIZE",
        help="fix the symbolic dimension NAME (as the model names it) to SIZE in every input that has it; repeatable",
    )  # fmt: skip
    p.add_argument(
        "--input-value", action="append", default=[], metavar="NAME=NUMBER[,NUMBER...]",
        help="fix input NAME to a value, every element of it, or each element of a 1-D input given as a list (it stops"
             " being an input: Ifs that depend on it fold, and a shape it gives becomes known); repeatable",
    )  # fmt: skip
    p.add_argument(
        "--recurrence", choices=("unroll", "loop"), default="unroll",
        help="how LSTM and GRU run over a sequence of more than one step: unrolled, one cell per step"
        " (the default), or as one nn.loop per direction whose body reads the weights defined before it",
    )  # fmt: skip
    p.set_defaults(handler=main)


def main(args: argparse.Namespace) -> int:
    from cfmem.importers.onnx import OnnxImportError, parse_shape_spec
    from cfmem.tools import import_tflite

    if args.output == STDOUT:
        raise CfmemError("the module needs a file name: its weights are written beside it", "-o")
    out = Path(args.output)
    blob_path = out.with_name(out.stem + ".weights.bin")
    check_output_path(blob_path)
    try:
        shapes = dict(parse_shape_spec(s) for s in args.input_shape)
    except OnnxImportError as err:
        raise CfmemError(str(err), "--input-shape") from None
    if import_tflite.is_tflite(args.model):
        imported = import_tflite.imported_model(args, blob_path, shapes)
        ifs = f"{imported.kept_ifs} if(s)"
    else:
        imported = _imported_onnx(args, blob_path, shapes)
        ifs = f"{imported.kept_ifs} if(s) kept, {imported.folded_ifs} folded"
    from cfmem.dialects.nn_control import LoopOp

    loops = sum(isinstance(op, LoopOp) for op in imported.module.walk())
    atomic_write_bytes(blob_path, imported.blob)
    atomic_write_text(out, str(imported.module) + "\n")
    print(f"cfmem: wrote {out} and {blob_path.name} ({len(imported.blob):,} bytes of weights); {ifs}, {loops} loop(s)", file=sys.stderr)
    return 0


def _imported_onnx(args: argparse.Namespace, blob_path: Path, shapes: dict[str, tuple[int, ...]]) -> ImportedModel:
    from cfmem.importers.onnx import OnnxImportError, import_onnx, parse_dim_spec, parse_value_spec

    try:
        dims = dict(parse_dim_spec(s) for s in args.dim)
    except OnnxImportError as err:
        raise CfmemError(str(err), "--dim") from None
    try:
        values = dict(parse_value_spec(s) for s in args.input_value)
    except OnnxImportError as err:
        raise CfmemError(str(err), "--input-value") from None
    try:
        return import_onnx(args.model, blob_file=blob_path.name, input_shapes=shapes, input_values=values, dims=dims,
                           recurrence=args.recurrence)
    except OnnxImportError as err:
        raise CfmemError(str(err), args.model) from None
