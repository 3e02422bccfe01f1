"""The ONNX importer's entry points: ``import_onnx``, an :class:`Importer` whose nodes go to
the registry's handlers (``onnx_importer``), and the parsing of the import command's
``--input-shape``, ``--dim`` and ``--input-value`` specs.

This module sits above the core (:mod:`cfmem.importers.onnx.core`) and the registry of op
handlers (:mod:`cfmem.importers.onnx.registry`), and joins them: the core is given the
registry's ``translate`` as an argument, so it does not import the registry, which imports
the core as every handler module does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import onnx

from cfmem.importers.onnx.core import ImportedModel, Importer, InputValue, OnnxImportError, load_onnx
from cfmem.importers.onnx.registry import translate


def onnx_importer(model: onnx.ModelProto, blob_file: str, func_name: str = "main", recurrence: str = "unroll") -> Importer:
    """An :class:`Importer` of ``model`` that translates each node with the registry's handlers."""
    return Importer(model, blob_file, func_name, recurrence, translate=translate)


def parse_shape_spec(spec: str) -> tuple[str, tuple[int, ...]]:
    """``name=1,512`` to ``("name", (1, 512))``."""
    name, sep, dims = spec.partition("=")
    try:
        if not sep or not name:
            raise ValueError
        shape = tuple(int(d) for d in dims.split(",")) if dims.strip() else ()
        if any(d <= 0 for d in shape):
            raise ValueError
    except ValueError:
        raise OnnxImportError(f"bad --input-shape {spec!r}: expected name=d0,d1,... with positive sizes") from None
    return name, shape


def parse_dim_spec(spec: str) -> tuple[str, int]:
    """``batch=1`` to ``("batch", 1)``: a symbolic dimension and its size."""
    name, sep, size = spec.partition("=")
    try:
        if not sep or not name:
            raise ValueError
        value = int(size)
        if value <= 0:
            raise ValueError
    except ValueError:
        raise OnnxImportError(f"bad --dim {spec!r}: expected name=size with a positive size") from None
    return name, value


def parse_value_spec(spec: str) -> tuple[str, InputValue]:
    """``name=16000`` to ``("name", 16000)``, ``name=3,1`` to ``("name", (3, 1))``: an integer
    stays an exact ``int`` (an int64 input needs all its digits, which a float does not hold);
    any other number is a float."""
    name, sep, text = spec.partition("=")

    def number(item: str) -> int | float:
        try:
            return int(item)
        except ValueError:
            return float(item)

    try:
        if not sep or not name:
            raise ValueError
        items = [number(item) for item in text.split(",")]
        return name, items[0] if len(items) == 1 and "," not in text else tuple(items)
    except ValueError:
        raise OnnxImportError(f"bad --input-value {spec!r}: expected name=number or name=number,number,...") from None


def import_onnx(
    path: str | Path,
    *,
    blob_file: str,
    input_shapes: Mapping[str, Sequence[int]] | None = None,
    input_values: Mapping[str, InputValue] | None = None,
    dims: Mapping[str, int] | None = None,
    recurrence: str = "unroll",
) -> ImportedModel:
    """Import the model at ``path``; its weights are read from ``blob_file`` (a path
    relative to the module file) by the returned module. ``recurrence`` is how LSTM and
    GRU run over their sequence: ``unroll`` or ``loop`` (an ``nn.loop``)."""
    model = load_onnx(path)
    importer = onnx_importer(model, blob_file, recurrence=recurrence)
    return importer.import_graph(input_shapes or {}, input_values or {}, dims or {})
