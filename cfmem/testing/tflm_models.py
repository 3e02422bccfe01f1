"""``.tflite`` models for the TFLite Micro tests and the TFLM bench, fetched, found or built.

* :func:`openwakeword_models` are the ``.tflite`` models of the ``openwakeword`` wheel, by
  name (``cfmem.testing.tflite_models`` fetches them into the cache; nothing is committed).
* :func:`example_models` are TFLM's example models under ``tests/data/tflite/`` (see its
  README for their source and licence).
* :func:`if_model`, :func:`while_model` and :func:`while_swap_model` are small float models
  with an ``IF`` or a ``WHILE``, written with :class:`cfmem.testing.tflite_writer.TfliteWriter`
  (no TensorFlow): TFLM's interpreter runs them.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from cfmem.testing.tflite_models import OPENWAKEWORD_MODELS, openwakeword_model
from cfmem.testing.tflite_writer import SubgraphWriter, TfliteWriter, options

EXAMPLES = Path(__file__).resolve().parents[2] / "tests" / "data" / "tflite"


def openwakeword_models() -> dict[str, Path]:
    """The cached openwakeword ``.tflite`` models by name (``embedding_model`` ...), fetched on a
    cache miss (``RuntimeError`` if that is impossible)."""
    return {name: openwakeword_model(name) for name in OPENWAKEWORD_MODELS}


def example_models() -> dict[str, Path]:
    """TFLM's example models committed under ``tests/data/tflite/``, by file stem."""
    return {path.stem: path for path in sorted(EXAMPLES.glob("*.tflite"))}


# ---------------------------------------------------------------------------- built models


def if_model(width: int = 64) -> bytes:
    """``y = IF(c, x + x, x) * x``: the then branch ``(a*a + b) * a``, the else branch
    ``(a - b) * (a - b)``; inputs ``c`` (bool [1]) and ``x`` (float [width])."""
    w = TfliteWriter()
    main, then, other = w.subgraph("main"), w.subgraph("then"), w.subgraph("else")
    c, x = main.tensor("c", [1], np.bool_), main.tensor("x", [width])
    doubled, chosen, y = main.tensor("doubled", [width]), main.tensor("chosen", [width]), main.tensor("y", [width])
    main.op("ADD", [x, x], [doubled], options("AddOptions"))
    main.op("IF", [c, doubled, x], [chosen], options("IfOptions", thenSubgraphIndex=then.index, elseSubgraphIndex=other.index))
    main.op("MUL", [chosen, x], [y], options("MulOptions"))
    main.io([c, x], [y])

    a, b = then.tensor("a", [width]), then.tensor("b", [width])
    square, total, result = (then.tensor(name, [width]) for name in ("square", "total", "then_result"))
    then.op("MUL", [a, a], [square], options("MulOptions"))
    then.op("ADD", [square, b], [total], options("AddOptions"))
    then.op("MUL", [total, a], [result], options("MulOptions"))
    then.io([a, b], [result])

    a, b = other.tensor("a", [width]), other.tensor("b", [width])
    difference, result = other.tensor("difference", [width]), other.tensor("else_result", [width])
    other.op("SUB", [a, b], [difference], options("SubOptions"))
    other.op("MUL", [difference, difference], [result], options("MulOptions"))
    other.io([a, b], [result])
    return w.pack()


def while_model(width: int = 64, trips: int = 5) -> bytes:
    """``(i, acc) = WHILE(i < trips) (i + 1, acc * 0.5 + x)`` from ``i = 0``, ``acc = x``;
    then ``y = acc + x``; input ``x`` (float [width])."""
    w = TfliteWriter()
    main, cond, body = w.subgraph("main"), w.subgraph("cond"), w.subgraph("body")
    x = main.tensor("x", [width])
    zero = main.const("zero", np.array([0], np.int32))
    i_out, acc_out = main.tensor("i_out", [1], np.int32), main.tensor("acc_out", [width])
    y = main.tensor("y", [width])
    loop = options("WhileOptions", condSubgraphIndex=cond.index, bodySubgraphIndex=body.index)
    main.op("WHILE", [zero, x, x], [i_out, acc_out, main.tensor("x_out", [width])], loop)
    main.op("ADD", [acc_out, x], [y], options("AddOptions"))
    main.io([x], [y])

    _counts_to(cond, trips, [("acc", width), ("x", width)])

    i, acc, xx = body.tensor("i", [1], np.int32), body.tensor("acc", [width]), body.tensor("x", [width])
    one = body.const("one", np.array([1], np.int32))
    half = body.const("half", np.array([0.5], np.float32))
    next_i, halved, next_acc = body.tensor("next_i", [1], np.int32), body.tensor("halved", [width]), body.tensor("next_acc", [width])
    body.op("ADD", [i, one], [next_i], options("AddOptions"))
    body.op("MUL", [acc, half], [halved], options("MulOptions"))
    body.op("ADD", [halved, xx], [next_acc], options("AddOptions"))
    body.io([i, acc, xx], [next_i, next_acc, xx])
    return w.pack()


def while_swap_model(width: int = 64, trips: int = 3) -> bytes:
    """``(i, a, b) = WHILE(i < trips) (i + 1, b, RESHAPE(a))`` from ``i = 0``, ``a = x``,
    ``b = x * 2``: the body swaps ``a`` and ``b``, passing ``a`` on through a RESHAPE of a
    body input into a body output; the outputs are ``a`` and ``b``."""
    w = TfliteWriter()
    main, cond, body = w.subgraph("main"), w.subgraph("cond"), w.subgraph("body")
    x = main.tensor("x", [width])
    two = main.const("two", np.array([2.0], np.float32))
    doubled = main.tensor("doubled", [width])
    zero = main.const("zero", np.array([0], np.int32))
    i_out, a_out, b_out = main.tensor("i_out", [1], np.int32), main.tensor("a_out", [width]), main.tensor("b_out", [width])
    main.op("MUL", [x, two], [doubled], options("MulOptions"))
    loop = options("WhileOptions", condSubgraphIndex=cond.index, bodySubgraphIndex=body.index)
    main.op("WHILE", [zero, x, doubled], [i_out, a_out, b_out], loop)
    main.io([x], [a_out, b_out])

    _counts_to(cond, trips, [("a", width), ("b", width)])

    i, a, b = body.tensor("i", [1], np.int32), body.tensor("a", [width]), body.tensor("b", [width])
    one = body.const("one", np.array([1], np.int32))
    shape = body.const("shape", np.array([width], np.int32))
    next_i, moved = body.tensor("next_i", [1], np.int32), body.tensor("moved", [width])
    body.op("ADD", [i, one], [next_i], options("AddOptions"))
    body.op("RESHAPE", [a, shape], [moved])
    body.io([i, a, b], [next_i, b, moved])
    return w.pack()


def _counts_to(cond: SubgraphWriter, trips: int, carried: list[tuple[str, int]]) -> None:
    """``cond`` as a WHILE condition ``i < trips`` of the loop values ``(i, *carried)``: a
    counter ``i`` (int32 [1]), then float vectors (name, width) it does not read."""
    i = cond.tensor("i", [1], np.int32)
    values = [cond.tensor(name, [width]) for name, width in carried]
    limit = cond.const("limit", np.array([trips], np.int32))
    going = cond.tensor("going", [1], np.bool_)
    cond.op("LESS", [i, limit], [going], options("LessOptions"))
    cond.io([i, *values], [going])
