"""The one writer of small TFLite models, with the flatbuffer schema's object API (no
TensorFlow needed): for tests of what the openwakeword models lack (IF and WHILE made by hand,
int8 operators with per-tensor and per-channel quantization, unsupported operators, malformed
files) and for the IF and WHILE models of :mod:`cfmem.testing.tflm_models`.

::

    w = TfliteWriter()
    main = w.subgraph("main")
    x = main.tensor("x", (1, 4), np.float32)
    y = main.tensor("y", (1, 4), np.float32)
    main.op("RELU", [x], [y])
    main.io([x], [y])
    data = w.pack()

Buffer 0 is the empty buffer TFLite reserves; every constant gets a buffer of its own, its
data 16-byte aligned in the file (:func:`cfmem.tflite.repack.pack_model`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from cfmem.tflite.model_file import SCHEMA_VERSION, schema
from cfmem.tflite.repack import pack_model

TENSOR_TYPES = {np.dtype(np.float32): "FLOAT32", np.dtype(np.int32): "INT32", np.dtype(np.int64): "INT64",
                np.dtype(np.bool_): "BOOL", np.dtype(np.int8): "INT8", np.dtype(np.uint8): "UINT8",
                np.dtype(np.int16): "INT16"}  # fmt: skip


def options(kind: str, **fields: Any) -> Any:
    """A ``<kind>T`` options object of the schema (``options("Conv2DOptions", strideW=2)``)."""
    value = getattr(schema(), f"{kind}T")()
    for name, field in fields.items():
        if not hasattr(value, name):
            raise AttributeError(f"{kind} has no field {name!r}")
        setattr(value, name, field)
    return value


class SubgraphWriter:
    """One subgraph of a :class:`TfliteWriter`: its tensors, operators, inputs and outputs."""

    def __init__(self, writer: TfliteWriter, subgraph: Any, index: int):
        self.writer = writer
        self.sg = subgraph
        self.index = index

    def tensor(self, name: str, shape: Sequence[int], dtype: Any = np.float32, data: np.ndarray | None = None, *,
               scale: Sequence[float] | float | None = None, zero_point: Sequence[int] | int | None = None,
               axis: int = 0, variable: bool = False) -> int:  # fmt: skip
        """A new tensor (constant when ``data`` is given), quantized when ``scale`` is, a
        variable (state TFLite Micro keeps between invocations) when ``variable``; its index."""
        s = schema()
        t = s.TensorT()
        t.name = name.encode()
        t.shape = np.array(shape, np.int32)
        t.type = getattr(s.TensorType, TENSOR_TYPES[np.dtype(dtype)])
        t.buffer = 0
        t.isVariable = variable
        if data is not None:
            array = np.asarray(data, np.dtype(dtype)).reshape(tuple(shape))
            buffer = s.BufferT()
            buffer.data = np.frombuffer(np.ascontiguousarray(array, array.dtype.newbyteorder("<")).tobytes(), np.uint8)
            self.writer.model.buffers.append(buffer)
            t.buffer = len(self.writer.model.buffers) - 1
        if scale is not None:
            q = s.QuantizationParametersT()
            q.scale = np.atleast_1d(np.asarray(scale, np.float32))
            q.zeroPoint = np.atleast_1d(np.asarray(0 if zero_point is None else zero_point, np.int64))
            if q.zeroPoint.size == 1 and q.scale.size > 1:
                q.zeroPoint = np.repeat(q.zeroPoint, q.scale.size)
            q.quantizedDimension = axis
            t.quantization = q
        self.sg.tensors.append(t)
        return len(self.sg.tensors) - 1

    def const(self, name: str, array: np.ndarray, **quantization: Any) -> int:
        array = np.asarray(array)
        return self.tensor(name, array.shape, array.dtype, array, **quantization)

    def op(self, builtin: str, inputs: Sequence[int], outputs: Sequence[int], opts: Any = None) -> None:
        """An operator ``builtin`` (``"CONV_2D"``) reading ``inputs`` (-1: omitted) and writing ``outputs``."""
        s = schema()
        o = s.OperatorT()
        o.opcodeIndex = self.writer.opcode(builtin)
        o.inputs = np.array(inputs, np.int32)
        o.outputs = np.array(outputs, np.int32)
        if opts is not None:
            o.builtinOptionsType = getattr(s.BuiltinOptions, type(opts).__name__.removesuffix("T"))
            o.builtinOptions = opts
        self.sg.operators.append(o)

    def io(self, inputs: Sequence[int], outputs: Sequence[int]) -> None:
        self.sg.inputs = np.array(inputs, np.int32)
        self.sg.outputs = np.array(outputs, np.int32)


class TfliteWriter:
    """A TFLite model under construction; :meth:`pack` gives its bytes."""

    def __init__(self) -> None:
        s = schema()
        self.model = s.ModelT()
        self.model.version = SCHEMA_VERSION
        self.model.description = b"cfmem test model"
        self.model.buffers = [s.BufferT()]
        self.model.operatorCodes = []
        self.model.subgraphs = []

    def subgraph(self, name: str) -> SubgraphWriter:
        sg = schema().SubGraphT()
        sg.name = name.encode()
        sg.tensors, sg.operators, sg.inputs, sg.outputs = [], [], [], []
        self.model.subgraphs.append(sg)
        return SubgraphWriter(self, sg, len(self.model.subgraphs) - 1)

    def opcode(self, builtin: str) -> int:
        s = schema()
        code = getattr(s.BuiltinOperator, builtin)
        for k, existing in enumerate(self.model.operatorCodes):
            if existing.builtinCode == code:
                return k
        entry = s.OperatorCodeT()
        entry.builtinCode = code
        entry.deprecatedBuiltinCode = min(code, s.BuiltinOperator.PLACEHOLDER_FOR_GREATER_OP_CODES)
        entry.version = 1
        self.model.operatorCodes.append(entry)
        return len(self.model.operatorCodes) - 1

    def pack(self) -> bytes:
        """The model's bytes, every buffer's data 16-byte aligned (as TFLite Micro assumes)."""
        return pack_model(self.model)
