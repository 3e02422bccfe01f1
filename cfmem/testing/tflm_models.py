"""``.tflite`` models for the TFLite Micro tests and the TFLM bench, fetched, found or built.

* :func:`openwakeword_models` are the ``.tflite`` models of the ``openwakeword`` wheel, by
  name (``cfmem.testing.tflite_models`` fetches them into the cache; nothing is committed).
* :func:`example_models` are TFLM's example models under ``tests/data/tflite/`` (see its
  README for their source and licence).
* :func:`if_model` and :func:`while_model` build small float models with an ``IF`` and a
  ``WHILE`` from the schema's object API, without TensorFlow: TFLM's interpreter runs them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from cfmem.testing.tflite_models import OPENWAKEWORD_MODELS, openwakeword_model
from cfmem.tflite.model_file import SCHEMA_VERSION, schema
from cfmem.tflite.repack import pack_model

EXAMPLES = Path(__file__).resolve().parents[2] / "tests" / "data" / "tflite"


def openwakeword_models() -> dict[str, Path]:
    """The cached openwakeword ``.tflite`` models by name (``embedding_model`` ...), fetched on a
    cache miss (``RuntimeError`` if that is impossible)."""
    return {name: openwakeword_model(name) for name in OPENWAKEWORD_MODELS}


def example_models() -> dict[str, Path]:
    """TFLM's example models committed under ``tests/data/tflite/``, by file stem."""
    return {path.stem: path for path in sorted(EXAMPLES.glob("*.tflite"))}


# ---------------------------------------------------------------------------- built models


class _Builder:
    """A ``ModelT`` under construction: operator codes, buffers and subgraphs."""

    def __init__(self) -> None:
        self.s = schema()
        self.model = self.s.ModelT()
        self.model.version = SCHEMA_VERSION
        self.model.operatorCodes = []
        self.model.subgraphs = []
        self.model.buffers = [self.s.BufferT()]
        self.model.description = b"built by cfmem.testing.tflm_models"

    def code(self, name: str) -> int:
        number = getattr(self.s.BuiltinOperator, name)
        for k, code in enumerate(self.model.operatorCodes):
            if code.builtinCode == number:
                return k
        code = self.s.OperatorCodeT()
        code.builtinCode = number
        code.deprecatedBuiltinCode = min(number, 127)
        self.model.operatorCodes.append(code)
        return len(self.model.operatorCodes) - 1

    def subgraph(self, name: str) -> Any:
        subgraph = self.s.SubGraphT()
        subgraph.name, subgraph.tensors, subgraph.operators = name.encode(), [], []
        self.model.subgraphs.append(subgraph)
        return subgraph

    def tensor(self, subgraph: Any, name: str, shape: list[int], type_name: str = "FLOAT32",
               data: np.ndarray | None = None) -> int:  # fmt: skip
        tensor = self.s.TensorT()
        tensor.name, tensor.shape = name.encode(), np.array(shape, dtype=np.int32)
        tensor.type = getattr(self.s.TensorType, type_name)
        tensor.buffer = 0
        if data is not None:
            buffer = self.s.BufferT()
            buffer.data = np.frombuffer(np.ascontiguousarray(data).tobytes(), dtype=np.uint8).copy()
            self.model.buffers.append(buffer)
            tensor.buffer = len(self.model.buffers) - 1
        subgraph.tensors.append(tensor)
        return len(subgraph.tensors) - 1

    def op(self, subgraph: Any, name: str, inputs: list[int], outputs: list[int], options: Any = None) -> None:
        op = self.s.OperatorT()
        op.opcodeIndex = self.code(name)
        op.inputs, op.outputs = list(inputs), list(outputs)
        if options is not None:
            op.builtinOptionsType = getattr(self.s.BuiltinOptions, type(options).__name__.removesuffix("T"))
            op.builtinOptions = options
        subgraph.operators.append(op)

    def bytes(self) -> bytes:
        return pack_model(self.model)


def if_model(width: int = 64) -> bytes:
    """``y = IF(c, x + x, x) * x``: the then branch ``(a*a + b) * a``, the else branch
    ``(a - b) * (a - b)``; inputs ``c`` (bool [1]) and ``x`` (float [width])."""
    b = _Builder()
    main, then, other = b.subgraph("main"), b.subgraph("then"), b.subgraph("else")
    c, x = b.tensor(main, "c", [1], "BOOL"), b.tensor(main, "x", [width])
    doubled, chosen, y = b.tensor(main, "doubled", [width]), b.tensor(main, "chosen", [width]), b.tensor(main, "y", [width])
    b.op(main, "ADD", [x, x], [doubled], b.s.AddOptionsT())
    options = b.s.IfOptionsT()
    options.thenSubgraphIndex, options.elseSubgraphIndex = 1, 2
    b.op(main, "IF", [c, doubled, x], [chosen], options)
    b.op(main, "MUL", [chosen, x], [y], b.s.MulOptionsT())
    main.inputs, main.outputs = [c, x], [y]

    a, bb = b.tensor(then, "a", [width]), b.tensor(then, "b", [width])
    square, total, result = (b.tensor(then, name, [width]) for name in ("square", "total", "then_result"))
    b.op(then, "MUL", [a, a], [square], b.s.MulOptionsT())
    b.op(then, "ADD", [square, bb], [total], b.s.AddOptionsT())
    b.op(then, "MUL", [total, a], [result], b.s.MulOptionsT())
    then.inputs, then.outputs = [a, bb], [result]

    a, bb = b.tensor(other, "a", [width]), b.tensor(other, "b", [width])
    difference, result = b.tensor(other, "difference", [width]), b.tensor(other, "else_result", [width])
    b.op(other, "SUB", [a, bb], [difference], b.s.SubOptionsT())
    b.op(other, "MUL", [difference, difference], [result], b.s.MulOptionsT())
    other.inputs, other.outputs = [a, bb], [result]
    return b.bytes()


def while_model(width: int = 64, trips: int = 5) -> bytes:
    """``(i, acc) = WHILE(i < trips) (i + 1, acc * 0.5 + x)`` from ``i = 0``, ``acc = x``;
    then ``y = acc + x``; input ``x`` (float [width])."""
    b = _Builder()
    main, cond, body = b.subgraph("main"), b.subgraph("cond"), b.subgraph("body")
    x = b.tensor(main, "x", [width])
    zero = b.tensor(main, "zero", [1], "INT32", np.array([0], dtype=np.int32))
    i_out, acc_out = b.tensor(main, "i_out", [1], "INT32"), b.tensor(main, "acc_out", [width])
    y = b.tensor(main, "y", [width])
    options = b.s.WhileOptionsT()
    options.condSubgraphIndex, options.bodySubgraphIndex = 1, 2
    b.op(main, "WHILE", [zero, x, x], [i_out, acc_out, b.tensor(main, "x_out", [width])], options)
    b.op(main, "ADD", [acc_out, x], [y], b.s.AddOptionsT())
    main.inputs, main.outputs = [x], [y]

    i, acc, xx = b.tensor(cond, "i", [1], "INT32"), b.tensor(cond, "acc", [width]), b.tensor(cond, "x", [width])
    limit = b.tensor(cond, "limit", [1], "INT32", np.array([trips], dtype=np.int32))
    going = b.tensor(cond, "going", [1], "BOOL")
    b.op(cond, "LESS", [i, limit], [going], b.s.LessOptionsT())
    cond.inputs, cond.outputs = [i, acc, xx], [going]

    i, acc, xx = b.tensor(body, "i", [1], "INT32"), b.tensor(body, "acc", [width]), b.tensor(body, "x", [width])
    one = b.tensor(body, "one", [1], "INT32", np.array([1], dtype=np.int32))
    half = b.tensor(body, "half", [1], "FLOAT32", np.array([0.5], dtype=np.float32))
    next_i, halved, next_acc = b.tensor(body, "next_i", [1], "INT32"), b.tensor(body, "halved", [width]), b.tensor(body, "next_acc", [width])
    b.op(body, "ADD", [i, one], [next_i], b.s.AddOptionsT())
    b.op(body, "MUL", [acc, half], [halved], b.s.MulOptionsT())
    b.op(body, "ADD", [halved, xx], [next_acc], b.s.AddOptionsT())
    body.inputs, body.outputs = [i, acc, xx], [next_i, next_acc, xx]
    return b.bytes()


def while_swap_model(width: int = 64, trips: int = 3) -> bytes:
    """``(i, a, b) = WHILE(i < trips) (i + 1, b, RESHAPE(a))`` from ``i = 0``, ``a = x``,
    ``b = x * 2``: the body swaps ``a`` and ``b``, passing ``a`` on through a RESHAPE of a
    body input into a body output; the outputs are ``a`` and ``b``."""
    b = _Builder()
    main, cond, body = b.subgraph("main"), b.subgraph("cond"), b.subgraph("body")
    x = b.tensor(main, "x", [width])
    two = b.tensor(main, "two", [1], "FLOAT32", np.array([2.0], dtype=np.float32))
    doubled = b.tensor(main, "doubled", [width])
    zero = b.tensor(main, "zero", [1], "INT32", np.array([0], dtype=np.int32))
    i_out, a_out, b_out = b.tensor(main, "i_out", [1], "INT32"), b.tensor(main, "a_out", [width]), b.tensor(main, "b_out", [width])
    b.op(main, "MUL", [x, two], [doubled], b.s.MulOptionsT())
    options = b.s.WhileOptionsT()
    options.condSubgraphIndex, options.bodySubgraphIndex = 1, 2
    b.op(main, "WHILE", [zero, x, doubled], [i_out, a_out, b_out], options)
    main.inputs, main.outputs = [x], [a_out, b_out]

    i, a, bb = b.tensor(cond, "i", [1], "INT32"), b.tensor(cond, "a", [width]), b.tensor(cond, "b", [width])
    limit = b.tensor(cond, "limit", [1], "INT32", np.array([trips], dtype=np.int32))
    going = b.tensor(cond, "going", [1], "BOOL")
    b.op(cond, "LESS", [i, limit], [going], b.s.LessOptionsT())
    cond.inputs, cond.outputs = [i, a, bb], [going]

    i, a, bb = b.tensor(body, "i", [1], "INT32"), b.tensor(body, "a", [width]), b.tensor(body, "b", [width])
    one = b.tensor(body, "one", [1], "INT32", np.array([1], dtype=np.int32))
    shape = b.tensor(body, "shape", [1], "INT32", np.array([width], dtype=np.int32))
    next_i, moved = b.tensor(body, "next_i", [1], "INT32"), b.tensor(body, "moved", [width])
    b.op(body, "ADD", [i, one], [next_i], b.s.AddOptionsT())
    b.op(body, "RESHAPE", [a, shape], [moved])
    body.inputs, body.outputs = [i, a, bb], [next_i, bb, moved]
    return b.bytes()
