"""Real TFLite models for importer tests, and TFLite Micro runs to compare with.

Nothing here is committed: the openwakeword models are fetched into the cache on first use.

* :func:`openwakeword_model` extracts one of openwakeword 0.5.1's ``.tflite`` models from its
  wheel (downloaded with pip, no dependencies installed); the eight are fetched together.
* :func:`sine_float_model` is the example model the ``tflite-micro`` wheel ships.
* :func:`tflm_outputs` runs a model in TFLite Micro's Python interpreter, and
  :func:`tflm_invocations` several times in a row (its state carried between them).
* :func:`with_shapes` rewrites the shapes a model stores, so that TFLite Micro (which resizes
  no tensor) runs a model of dynamic input dimensions at other sizes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from cfmem.files import atomic_write_bytes
from cfmem.testing.onnx_models import cache_dir, wheel_members

OPENWAKEWORD_VERSION = "0.5.1"
OPENWAKEWORD_MODELS = ("alexa_v0.1", "embedding_model", "hey_jarvis_v0.1", "hey_mycroft_v0.1", "hey_rhasspy_v0.1",
                       "melspectrogram", "timer_v0.1", "weather_v0.1")  # fmt: skip
"""The ``.tflite`` models of the openwakeword wheel (all float32)."""

TFLM_ARENA = 8 << 20
"""The arena given to TFLite Micro: ample for every model here."""


def openwakeword_model(name: str) -> Path:
    """Path of the cached openwakeword model ``name`` (one of :data:`OPENWAKEWORD_MODELS`).

    On a cache miss, downloads the ``openwakeword`` wheel with pip (network access to the
    package index assumed) and extracts all its ``.tflite`` models.
    """
    if name not in OPENWAKEWORD_MODELS:
        raise ValueError(f"unknown openwakeword model {name!r}; expected one of {OPENWAKEWORD_MODELS}")
    folder = cache_dir() / "openwakeword" / OPENWAKEWORD_VERSION
    target = folder / f"{name}.tflite"
    if target.exists():
        return target
    members = {f"openwakeword/resources/models/{n}.tflite": folder / f"{n}.tflite" for n in OPENWAKEWORD_MODELS}
    folder.mkdir(parents=True, exist_ok=True)
    for member, data in wheel_members("openwakeword", OPENWAKEWORD_VERSION, list(members)).items():
        atomic_write_bytes(members[member], data)
    return target


def sine_float_model() -> Path:
    """The float sine model the ``tflite-micro`` wheel ships."""
    import tflite_micro

    return Path(tflite_micro.__file__).parent / "python" / "tflite_micro" / "sine_float.tflite"


def tflm_outputs(model: bytes | Path, inputs: Sequence[np.ndarray], arena_size: int = TFLM_ARENA) -> list[np.ndarray]:
    """The outputs of one TFLite Micro run of ``model`` (a file or its bytes) on ``inputs``,
    in the model's input and output order."""
    return tflm_invocations(model, [inputs], arena_size)[0]


def tflm_invocations(model: bytes | Path, input_sets: Sequence[Sequence[np.ndarray]], arena_size: int = TFLM_ARENA,
                     tensors: Sequence[int] = ()) -> list[list[np.ndarray]]:  # fmt: skip
    """The outputs of consecutive invocations of one TFLite Micro interpreter of ``model``, one
    list per set of inputs: its variable tensors (state) start as TFLite Micro resets them
    and carry over from one invocation to the next. With ``tensors`` (indices into the main
    subgraph), each list also holds those tensors after the invocation, after the outputs
    (TFLite Micro then keeps every tensor: ``kPreserveAllTensors``)."""
    from tflite_micro.python.tflite_micro import runtime

    from cfmem.tflite.model_file import parse_tflite

    data = model.read_bytes() if isinstance(model, Path) else model
    count = len(parse_tflite(data).subgraphs[0].outputs)
    config = runtime.InterpreterConfig.kPreserveAllTensors if tensors else runtime.InterpreterConfig.kAllocationRecording
    interpreter = runtime.Interpreter.from_bytes(data, arena_size=arena_size, intrepreter_config=config)
    runs = []
    for inputs in input_sets:
        for k, x in enumerate(inputs):
            interpreter.set_input(np.ascontiguousarray(x), k)
        interpreter.invoke()
        outputs = [np.array(interpreter.get_output(k)) for k in range(count)]
        runs.append(outputs + [np.array(interpreter.GetTensor(t, 0)["tensor_data"]) for t in tensors])
    return runs


def with_shapes(data: bytes, shapes: Mapping[tuple[int, int], Sequence[int]]) -> bytes:
    """The model ``data`` with the shape of tensor ``t`` of subgraph ``s`` set to
    ``shapes[(s, t)]`` (as :attr:`cfmem.importers.tflite.Importer.shapes` records them)."""
    import flatbuffers

    from cfmem.tflite.model_file import FILE_IDENTIFIER, parse_tflite

    model = parse_tflite(data)
    for (subgraph, tensor), shape in shapes.items():
        model.subgraphs[subgraph].tensors[tensor].shape = np.array(shape, np.int32)
    builder = flatbuffers.Builder(len(data) + 1024)
    builder.Finish(model.Pack(builder), file_identifier=FILE_IDENTIFIER)
    return bytes(builder.Output())
