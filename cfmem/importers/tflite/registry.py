"""The TFLite operator registry: which handler translates each builtin operator
(``FLOAT_HANDLERS`` for float32 and integer tensors, ``QUANTIZED_HANDLERS`` for int8 ones) and
``translate``, which takes one operator to its handler.

``translate`` is what :class:`~cfmem.importers.tflite.core.Importer` is given to run each
operator: an operator reading or writing a quantized (int8) tensor goes to the quantized
table, any other to the float table (QUANTIZE and DEQUANTIZE are in the quantized table
only); an operator in neither is refused in one line naming it, as is an omitted input
(tensor index -1) that the operator does not allow to be omitted. No handler module imports
this one.

A new operator: its handler in the module of its family and its entry in a table here.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from cfmem.importers.tflite.control_flow import translate_if, translate_while
from cfmem.importers.tflite.core import Importer, Operator, TfliteImportError, Value
from cfmem.importers.tflite.elementwise import ARITHMETIC, COMPARISONS, UNARY, activation, binary, compare, squared_difference, unary
from cfmem.importers.tflite.lstm import ABSENT as LSTM_ABSENT
from cfmem.importers.tflite.lstm import unidirectional_sequence_lstm
from cfmem.importers.tflite.nn import batch_matmul, conv, fully_connected, pool
from cfmem.importers.tflite.quantized import dequantize, qadd, qconv, qfully_connected, qpool, qsoftmax, quantize
from cfmem.importers.tflite.reduce import REDUCTIONS, reduce, softmax
from cfmem.importers.tflite.signal import SIGNAL_HANDLERS
from cfmem.importers.tflite.svdf import svdf
from cfmem.importers.tflite.tensor import cast, concatenation, expand_dims, pad, reshape, squeeze, strided_slice, transpose

Handler = Callable[[Importer, Operator, list], list]

FLOAT_HANDLER_OPS: tuple[tuple[tuple[str, ...], Handler], ...] = (
    ((*ARITHMETIC,), binary),
    (("SQUARED_DIFFERENCE",), squared_difference),
    ((*COMPARISONS,), compare),
    ((*UNARY,), unary),
    (("RSQRT", "RELU6", "RELU_N1_TO_1", "RELU_0_TO_1", "LEAKY_RELU", "HARD_SWISH"), activation),
    (("CONV_2D", "DEPTHWISE_CONV_2D"), conv),
    (("MAX_POOL_2D", "AVERAGE_POOL_2D"), pool),
    (("FULLY_CONNECTED",), fully_connected),
    (("BATCH_MATMUL",), batch_matmul),
    ((*REDUCTIONS,), reduce),
    (("SOFTMAX",), softmax),
    (("RESHAPE",), reshape),
    (("SQUEEZE",), squeeze),
    (("EXPAND_DIMS",), expand_dims),
    (("TRANSPOSE",), transpose),
    (("PAD", "PADV2"), pad),
    (("CONCATENATION",), concatenation),
    (("CAST",), cast),
    (("STRIDED_SLICE",), strided_slice),
    (("IF",), translate_if),
    (("WHILE",), translate_while),
)
FLOAT_HANDLERS: dict[str, Handler] = {name: handler for names, handler in FLOAT_HANDLER_OPS for name in names}

QUANTIZED_HANDLER_OPS: tuple[tuple[tuple[str, ...], Handler], ...] = (
    (("CONV_2D", "DEPTHWISE_CONV_2D"), qconv),
    (("FULLY_CONNECTED",), qfully_connected),
    (("ADD",), qadd),
    (("MAX_POOL_2D", "AVERAGE_POOL_2D"), qpool),
    (("QUANTIZE",), quantize),
    (("DEQUANTIZE",), dequantize),
    (("SOFTMAX",), qsoftmax),
    (("SVDF",), svdf),
    (("UNIDIRECTIONAL_SEQUENCE_LSTM",), unidirectional_sequence_lstm),
    (("RESHAPE",), reshape),
    (("SQUEEZE",), squeeze),
    (("EXPAND_DIMS",), expand_dims),
    (("TRANSPOSE",), transpose),
    (("PAD", "PADV2"), pad),
    (("CAST",), cast),
    (("IF",), translate_if),
    (("WHILE",), translate_while),
)
QUANTIZED_HANDLERS: dict[str, Handler] = {name: handler for names, handler in QUANTIZED_HANDLER_OPS for name in names}

QUANTIZED_TYPES = (np.dtype(np.int8), np.dtype(np.uint8), np.dtype(np.int16))

OMITTABLE_INPUTS: dict[str, tuple[int, ...]] = {
    "CONV_2D": (2,), "DEPTHWISE_CONV_2D": (2,), "FULLY_CONNECTED": (2,), "SVDF": (3,), "RESHAPE": (1,), "PADV2": (2,),
    "UNIDIRECTIONAL_SEQUENCE_LSTM": LSTM_ABSENT,
}  # fmt: skip
"""The inputs each operator may omit (tensor index -1): a bias (SVDF's handler refuses its
absence itself), a RESHAPE's shape (its options or its output's shape give it then), PADV2's pad
value (zero), the LSTM inputs TFLite Micro's integer LSTM does without. Every other input is
required."""


def is_quantized(imp: Importer, tensor) -> bool:
    """Whether a tensor (``TensorT``) holds quantized values: an 8- or 16-bit integer type."""
    return tensor is not None and imp.dtypes.get(tensor.type) in QUANTIZED_TYPES


def translate(imp: Importer, op: Operator, inputs: list[Value]) -> list[Value]:
    for k, value in enumerate(inputs):
        if value is None and k not in OMITTABLE_INPUTS.get(op.builtin, ()):
            raise TfliteImportError(f"input #{k} is omitted (tensor index -1), but {op.builtin} needs it")
    if op.builtin in SIGNAL_HANDLERS:
        return SIGNAL_HANDLERS[op.builtin](imp, op, inputs)
    quantized = any(is_quantized(imp, t) for t in (*op.inputs, *op.outputs))
    table = QUANTIZED_HANDLERS if quantized or op.builtin in ("QUANTIZE", "DEQUANTIZE") else FLOAT_HANDLERS
    handler = table.get(op.builtin)
    if handler is None:
        kind = "int8 " if quantized else ""
        raise TfliteImportError(f"{kind}{op.builtin} is not supported by cfmem import")
    return handler(imp, op, inputs)
