"""Reading a ``.tflite`` file into the schema's object tree, with one-line errors.

A flatbuffer carries no checksum and Python's flatbuffers has no verifier, so the whole model
is unpacked eagerly: a truncated file, a wrong file identifier or an offset past the end fails
here, in one line naming the file, and not later inside an importer or a planner.
"""

from __future__ import annotations

import struct
from functools import cache
from pathlib import Path
from typing import Any

from cfmem.errors import CfmemError

FILE_IDENTIFIER = b"TFL3"
"""Bytes 4-8 of every TFLite flatbuffer (the schema's ``file_identifier``)."""
SCHEMA_VERSION = 3


class TfliteFileError(CfmemError):
    """A ``.tflite`` file that is not a TFLite model cfmem can read."""


def schema() -> Any:
    """The generated schema module (object API) of the ``tflite-micro`` package."""
    try:
        from tflite_micro.tensorflow.lite.micro.python import schema_py_generated
    except ImportError as err:
        raise TfliteFileError("reading .tflite files needs the tflite-micro package: pip install 'cfmem[tflite]'") from err
    return schema_py_generated


def read_tflite(path: str | Path) -> tuple[bytes, Any]:
    """The bytes of the model at ``path`` and its unpacked ``ModelT``."""
    where = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        raise TfliteFileError(f"{where}: cannot read: {err.strerror or err}") from err
    return data, parse_tflite(data, where)


def parse_tflite(data: bytes, where: str = "<bytes>") -> Any:
    """``data`` unpacked as a TFLite model (``ModelT``); one-line errors for anything else."""
    if len(data) < 8:
        raise TfliteFileError(f"{where}: not a TFLite model: {len(data)} bytes, too short for a flatbuffer header")
    if data[4:8] != FILE_IDENTIFIER:
        raise TfliteFileError(f"{where}: not a TFLite model: file identifier {bytes(data[4:8])!r}, expected {FILE_IDENTIFIER!r}")
    (root,) = struct.unpack_from("<I", data, 0)
    if root + 4 > len(data):
        raise TfliteFileError(f"{where}: malformed TFLite model: root offset {root} past the end of its {len(data)} bytes")
    s = schema()
    try:
        model = s.ModelT.InitFromPackedBuf(bytearray(data), 0)
    except Exception as err:  # noqa: BLE001 - any failure to unpack is a malformed file
        detail = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise TfliteFileError(f"{where}: malformed TFLite model (truncated or a bad offset): {detail}") from err
    if model.version != SCHEMA_VERSION:
        raise TfliteFileError(f"{where}: TFLite schema version {model.version} is not supported (expected {SCHEMA_VERSION})")
    if not model.subgraphs:
        raise TfliteFileError(f"{where}: TFLite model without a subgraph")
    return model


def builtin_name(model: Any, opcode_index: int) -> str:
    """The builtin operator name (``CONV_2D``) of opcode ``opcode_index``, or ``CUSTOM:<name>``."""
    s = schema()
    code = model.operatorCodes[opcode_index]
    number = max(code.builtinCode, code.deprecatedBuiltinCode)
    if number == s.BuiltinOperator.CUSTOM:
        return f"CUSTOM:{(code.customCode or b'').decode(errors='replace')}"
    return _builtin_names().get(number, f"BUILTIN_{number}")


@cache
def _builtin_names() -> dict[int, str]:
    ops = schema().BuiltinOperator
    return {value: name for name, value in vars(ops).items() if not name.startswith("_")}
