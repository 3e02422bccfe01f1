"""The TFLite importer's entry points: ``import_tflite`` and an :class:`Importer` whose
operators go to the registry's handlers (``tflite_importer``).

This module sits above the core (:mod:`cfmem.importers.tflite.core`) and the registry of
operator handlers (:mod:`cfmem.importers.tflite.registry`), and joins them: the core is given
the registry's ``translate`` as an argument, so it does not import the registry, which imports
the core as every handler module does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from cfmem.importers.imported import ImportedModel
import numpy as np

from cfmem.importers.tflite.core import Importer, variable_initial_state
from cfmem.importers.tflite.registry import translate
from cfmem.importers.tflite.signal import kernel_initial_state
from cfmem.tflite.model_file import read_tflite


def tflite_importer(model: Any, data: bytes, blob_file: str, func_name: str = "main") -> Importer:
    """An :class:`Importer` of ``model`` (a ``ModelT`` read from ``data``) that translates each
    operator with the registry's handlers."""
    return Importer(model, data, blob_file, translate=translate, func_name=func_name)


def import_tflite(path: str | Path, *, blob_file: str, input_shapes: Mapping[str, Sequence[int]] | None = None) -> ImportedModel:
    """Import the model at ``path``; its weights are read from ``blob_file`` (a path relative
    to the module file) by the returned module. ``input_shapes`` fixes inputs' shapes by
    their TFLite tensor names (for dimensions the file marks dynamic). A file that is no
    readable TFLite model raises :class:`~cfmem.tflite.model_file.TfliteFileError`."""
    data, model = read_tflite(path)
    return tflite_importer(model, data, blob_file).import_model(input_shapes or {})


def initial_state(model: Any) -> list[np.ndarray]:
    """The state TFLite Micro starts from after allocating ``model`` (``ModelT``) and after each
    reset, in the order of the imported function's state inputs: the variable tensors'
    (:func:`~cfmem.importers.tflite.core.variable_initial_state`), then the state kept inside
    kernels (:func:`~cfmem.importers.tflite.signal.kernel_initial_state`)."""
    return [*variable_initial_state(model), *kernel_initial_state(model)]
