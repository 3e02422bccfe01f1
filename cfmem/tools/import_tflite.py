"""``cfmem import MODEL.tflite``: a TFLite model to an nn-dialect module and its weight blob.

The ``import`` command's parser lives in :mod:`cfmem.tools.import_onnx`; its ``main`` hands a
TFLite file here (``is_tflite``: a ``.tflite`` name, or the flatbuffer's ``TFL3`` identifier)
and writes what ``imported_model`` gives. Of its options, ``-o`` and ``--input-shape`` apply;
the ONNX-only ones are refused.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING

from cfmem.errors import CfmemError

if TYPE_CHECKING:
    from cfmem.importers.imported import ImportedModel

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


def imported_model(args: argparse.Namespace, blob_path: Path, shapes: dict[str, tuple[int, ...]]) -> ImportedModel:
    """The TFLite model ``args.model`` imported, its weights to be read from ``blob_path``."""
    from cfmem.importers.tflite import TfliteImportError, import_tflite
    from cfmem.tflite.model_file import TfliteFileError

    for dest, option in ONNX_ONLY:
        if getattr(args, dest):
            raise CfmemError(f"{option} applies to ONNX models; a TFLite model's inputs take --input-shape only", option)
    if args.recurrence != "unroll":
        raise CfmemError("--recurrence applies to ONNX models (a TFLite model has no LSTM or GRU op cfmem imports)", "--recurrence")
    try:
        return import_tflite(args.model, blob_file=blob_path.name, input_shapes=shapes)
    except TfliteFileError as err:
        raise CfmemError(err.message.removeprefix(f"{args.model}: "), args.model) from None
    except TfliteImportError as err:
        raise CfmemError(str(err), args.model) from None
