"""``cfmem import MODEL.tflite``: a TFLite model to an nn-dialect module and its weight blob.

The ``import`` command's parser lives in :mod:`cfmem.tools.import_onnx`; its ``main`` hands a
TFLite file here (``is_tflite``: a ``.tflite`` name, or the flatbuffer's ``TFL3`` identifier).
Of its options, ``-o`` and ``--input-shape`` apply; the ONNX-only ones are refused.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from cfmem.errors import CfmemError
from cfmem.files import atomic_write_bytes, atomic_write_text

ONNX_ONLY = (("dim", "--dim"), ("input_value", "--input-value"))
"""Options of the import command that TFLite models do not take: (argument, option)."""


def is_tflite(path: str) -> bool:
    """Whether ``path`` names a TFLite model: a ``.tflite`` file, or a regular file whose bytes
    4-8 are ``TFL3`` (a pipe is not looked into: the bytes read would be gone for the importer)."""
    from cfmem.tflite.model_file import FILE_IDENTIFIER

    if path.lower().endswith(".tflite"):
        return True
    if not os.path.isfile(path):
        return False
    try:
        with open(path, "rb") as f:
            return f.read(8)[4:8] == FILE_IDENTIFIER
    except OSError:
        return False


def main(args: argparse.Namespace, out: Path, blob_path: Path, shapes: dict[str, tuple[int, ...]]) -> int:
    from cfmem.importers.tflite import TfliteImportError, import_tflite
    from cfmem.tflite.model_file import TfliteFileError

    for dest, option in ONNX_ONLY:
        if getattr(args, dest):
            raise CfmemError(f"{option} applies to ONNX models; a TFLite model's inputs take --input-shape only", option)
    if args.recurrence != "unroll":
        raise CfmemError("--recurrence applies to ONNX models (a TFLite model has no LSTM or GRU op cfmem imports)", "--recurrence")
    try:
        imported = import_tflite(args.model, blob_file=blob_path.name, input_shapes=shapes)
    except TfliteFileError as err:
        raise CfmemError(err.message.removeprefix(f"{args.model}: "), args.model) from None
    except TfliteImportError as err:
        raise CfmemError(str(err), args.model) from None
    from cfmem.dialects.nn_control import LoopOp

    loops = sum(isinstance(op, LoopOp) for op in imported.module.walk())
    atomic_write_bytes(blob_path, imported.blob)
    atomic_write_text(out, str(imported.module) + "\n")
    print(
        f"cfmem: wrote {out} and {blob_path.name} ({len(imported.blob):,} bytes of weights);"
        f" {imported.kept_ifs} if(s), {loops} loop(s)",
        file=sys.stderr,
    )
    return 0
