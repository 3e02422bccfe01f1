"""Reading a ``.tflite`` file into the schema's object tree, with one-line errors.

A flatbuffer carries no checksum and Python's flatbuffers has no verifier, so before the
schema's object API unpacks a model, ``_Walk`` reads every table, vector and string the unpack
will read, through the same generated accessors, and charges the bytes each takes to the
file's size. In a file a flatbuffer builder wrote they lie apart, so they never add up to
more. A corrupted vector length, or offsets that lead many entries to the same data (which
would make the unpack loop over billions of entries or copy one string a million times), fail
there, as does an offset past the end of the file, in one line naming the field by its path
from the model's root; the unpack that follows reads nothing the walk has not read.

Assumption: the generated reader of a table ``X`` has, for each field ``f`` of ``XT``, the
accessor ``F`` (``FAsNumpy`` for a vector of numbers, ``FLength`` for a vector of tables or
strings, ``FType`` beside a union), as flatc generates them.
"""

from __future__ import annotations

import struct
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from cfmem.errors import CfmemError

FILE_IDENTIFIER = b"TFL3"
"""Bytes 4-8 of every TFLite flatbuffer (the schema's ``file_identifier``)."""
SCHEMA_VERSION = 3

UNION_ENUMS = {"details": "QuantizationDetails", "arraySegments": "SparseIndexVector", "arrayIndices": "SparseIndexVector"}
"""The enum of each union field not named as its field (``builtinOptions`` is a ``BuiltinOptions``)."""


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
    buffer = bytearray(data)
    _Walk(where, len(data)).table(s.Model.GetRootAs(buffer, 0), "")
    model = s.ModelT.InitFromPackedBuf(buffer, 0)
    if model.version != SCHEMA_VERSION:
        raise TfliteFileError(f"{where}: TFLite schema version {model.version} is not supported (expected {SCHEMA_VERSION})")
    if not model.subgraphs:
        raise TfliteFileError(f"{where}: TFLite model without a subgraph")
    return model


class _Walk:
    """Every table, vector and string reachable from a table, each charged to the bytes of the
    file not yet taken (``left``): four for a table or a vector's length, four an offset, the
    size of each scalar, a string's length."""

    def __init__(self, where: str, size: int):
        self.where, self.size, self.left = where, size, size

    def table(self, reader: Any, path: str) -> None:
        self.take(4, path or "the root table", "the table")
        for field, accessor, kind in table_fields(type(reader)):
            at = f"{path}.{field}" if path else field
            try:
                if kind == "scalars":
                    values = getattr(reader, accessor + "AsNumpy")()
                    if isinstance(values, np.ndarray):
                        self.take(4 + values.nbytes, at, f"its {values.size} entries")
                elif kind == "offsets":
                    count = getattr(reader, accessor + "Length")()
                    self.take(4 + 4 * count, at, f"its {count} entries")
                    for k in range(count):
                        self.value(getattr(reader, accessor)(k), f"{at}[{k}]")
                elif kind == "union":
                    member = union_members(UNION_ENUMS.get(field, accessor)).get(getattr(reader, accessor + "Type")())
                    table = getattr(reader, accessor)()
                    if member is not None and table is not None:
                        self.table(_reader(member, table.Bytes, table.Pos), at)
                else:
                    self.value(getattr(reader, accessor)(), at)
            except (struct.error, ValueError, TypeError, OverflowError):  # what flatbuffers raises for a read out of bounds
                raise self.error(f"{at} points past the end of the file ({self.size} bytes)") from None

    def value(self, value: Any, path: str) -> None:
        if isinstance(value, bytes):
            self.take(4 + len(value), path, "the string")
        elif hasattr(value, "_tab"):
            self.table(value, path)

    def take(self, nbytes: int, path: str, what: str) -> None:
        self.left -= nbytes
        if nbytes > self.size:
            raise self.error(f"{path}: {what} take {nbytes} bytes, more than the file's {self.size}")
        if self.left < 0:
            raise self.error(
                f"{path}: {what} and what was read before take more than the file's {self.size} bytes:"
                " a length is too large, or offsets lead to the same data twice"
            )

    def error(self, detail: str) -> TfliteFileError:
        return TfliteFileError(f"{self.where}: malformed TFLite model: {detail}")


@cache
def table_fields(reader_class: type) -> tuple[tuple[str, str, str], ...]:
    """(field, accessor, kind) of each field of a table type, as its ``...T`` class unpacks it:
    ``scalars`` a vector of numbers, ``offsets`` a vector of tables or strings, ``union``, or
    ``single`` (a number, a string or a table)."""
    fields = vars(getattr(schema(), reader_class.__name__ + "T")())
    found = []
    for field in fields:
        accessor = field[0].upper() + field[1:]
        if field + "Type" in fields:
            kind = "union"
        elif hasattr(reader_class, accessor + "AsNumpy"):
            kind = "scalars"
        elif hasattr(reader_class, accessor + "Length"):
            kind = "offsets"
        else:
            kind = "single"
        found.append((field, accessor, kind))
    return tuple(found)


@cache
def union_members(enum: str) -> dict[int, type]:
    """The table type of each value of the union ``enum``."""
    s = schema()
    values = vars(getattr(s, enum)).items()
    return {value: getattr(s, name) for name, value in values if not name.startswith("_") and name != "NONE"}


def _reader(table_type: type, buffer: bytearray, position: int) -> Any:
    reader = table_type()
    reader.Init(buffer, position)
    return reader


def builtin_name(model: Any, opcode_index: int) -> str:
    """The builtin operator name (``CONV_2D``) of opcode ``opcode_index``, or ``CUSTOM:<name>``."""
    s = schema()
    codes = model.operatorCodes or []
    if not 0 <= opcode_index < len(codes):
        raise TfliteFileError(f"an operator names operator code {opcode_index}, but the model has {len(codes)}")
    code = codes[opcode_index]
    number = max(code.builtinCode, code.deprecatedBuiltinCode)
    if number == s.BuiltinOperator.CUSTOM:
        return f"CUSTOM:{(code.customCode or b'').decode(errors='replace')}"
    return _builtin_names().get(number, f"BUILTIN_{number}")


@cache
def _builtin_names() -> dict[int, str]:
    ops = schema().BuiltinOperator
    return {value: name for name, value in vars(ops).items() if not name.startswith("_")}
