"""The kernel of every nn compute op by its type, and :func:`prepare`, which runs one.

``PREPARERS`` holds the kernels that read their op's attributes once and then compute on
arrays alone; ``KERNELS`` every kernel in the ``kernel(op, *arrays)`` form, the one-call
element-by-element kernels written in place. A new op's kernel goes in its family's module
and is registered here.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import numpy as np
from xdsl.dialects.builtin import Float16Type, ShapedType
from xdsl.ir import Operation

from cfmem.dialects import nn_compute as nc
from cfmem.dialects import nn_lstm as nl
from cfmem.dialects import nn_quant as nq
from cfmem.dialects import nn_weights as nw
from cfmem.interp.kernels.elementwise import _CMP, _prepare_clamp, cast, divide, erf, power, sigmoid
from cfmem.interp.kernels.movement import (
    _prepare_concat,
    _prepare_reshape,
    _prepare_transpose,
    gather,
    gather_elements,
    prepare_pad,
    prepare_slice,
)
from cfmem.interp.kernels.fixed_point import TfliteAbort
from cfmem.interp.kernels.lstm import qlstm, qlstm_state
from cfmem.interp.kernels.signal import SIGNAL_KERNELS
from cfmem.interp.kernels.nn import avg_pool2d, global_avg_pool, matmul, max_pool2d, prepare_conv2d, prepare_gemm, softmax
from cfmem.interp.kernels.quantized import (
    conv_integer,
    dequantize,
    matmul_integer,
    qadd,
    qconcat,
    qconv2d,
    qgemm,
    qlookup,
    qrequantize,
    qsoftmax,
    qsvdf,
    qsvdf_state,
    qmul,
    quantize,
    tflite_qadd,
)
from cfmem.interp.kernels.reduce import arg_extreme, cumsum, prepare_reduce, top_k
from cfmem.interp.weights import numpy_dtype


Kernel = Callable[..., np.ndarray]


def _with_op(prepare_kernel: Callable[[Operation], Callable[..., np.ndarray]]) -> Kernel:
    """The ``kernel(op, *args)`` form of a kernel that resolves its attributes first."""
    return lambda op, *args: prepare_kernel(op)(*args)


PREPARERS: dict[type[Operation], Callable[[Operation], Callable[..., np.ndarray]]] = {
    nc.CmpOp: lambda op: _CMP[op.predicate.data],
    nc.ClampOp: _prepare_clamp,
    nc.Conv2dOp: prepare_conv2d,
    nc.GemmOp: prepare_gemm,
    nc.ReduceMeanOp: prepare_reduce,
    nc.ReduceSumOp: prepare_reduce,
    nc.ReduceMaxOp: prepare_reduce,
    nc.ReduceMinOp: prepare_reduce,
    nc.ReduceProdOp: prepare_reduce,
    nc.ConcatOp: _prepare_concat,
    nc.TransposeOp: _prepare_transpose,
    nc.SliceOp: prepare_slice,
    nc.PadOp: prepare_pad,
    nw.ReshapeOp: _prepare_reshape,
}
"""Kernels that read their op's attributes once: ``PREPARERS[type](op)`` computes on arrays alone."""


KERNELS: dict[type[Operation], Kernel] = {
    **{op_type: _with_op(prepare_kernel) for op_type, prepare_kernel in PREPARERS.items()},
    nc.CastOp: cast,
    nc.AddOp: lambda op, a, b: a + b,
    nc.SubOp: lambda op, a, b: a - b,
    nc.MulOp: lambda op, a, b: a * b,
    nc.DivOp: divide,
    nc.PowOp: power,
    nc.MaxOp: lambda op, a, b: np.where((a > b) | (a != a), a, b),  # NaN wins; of equals, b
    nc.MinOp: lambda op, a, b: np.where((a < b) | (a != a), a, b),
    nc.ReluOp: lambda op, x: np.maximum(x, np.float32(0)),
    nc.SigmoidOp: sigmoid,
    nc.TanhOp: lambda op, x: np.tanh(x),
    nc.SqrtOp: lambda op, x: np.sqrt(x),
    nc.ExpOp: lambda op, x: np.exp(x),
    nc.NegOp: lambda op, x: np.negative(x),
    nc.LogOp: lambda op, x: np.log(x),
    nc.AbsOp: lambda op, x: np.abs(x),
    nc.FloorOp: lambda op, x: np.floor(x),
    nc.CeilOp: lambda op, x: np.ceil(x),
    nc.RoundOp: lambda op, x: np.round(x),  # halves to even, as ONNX Round
    nc.SignOp: lambda op, x: np.sign(x),
    nc.ErfOp: erf,
    nc.SinOp: lambda op, x: np.sin(x),
    nc.CosOp: lambda op, x: np.cos(x),
    nc.ReciprocalOp: lambda op, x: np.reciprocal(x),
    nc.AndOp: lambda op, a, b: np.logical_and(a, b),
    nc.OrOp: lambda op, a, b: np.logical_or(a, b),
    nc.XorOp: lambda op, a, b: np.logical_xor(a, b),
    nc.NotOp: lambda op, x: np.logical_not(x),
    nc.SelectOp: lambda op, c, a, b: np.where(c, a, b),
    nc.FmodOp: lambda op, a, b: np.fmod(a, b),
    nc.ModOp: lambda op, a, b: np.mod(a, b),
    nc.CumsumOp: cumsum,
    nc.MatmulOp: matmul,
    nc.MaxPool2dOp: max_pool2d,
    nc.AvgPool2dOp: avg_pool2d,
    nc.GlobalAvgPoolOp: lambda op, x: global_avg_pool(x),
    nc.ArgMaxOp: arg_extreme,
    nc.ArgMinOp: arg_extreme,
    nc.SoftmaxOp: softmax,
    nc.GatherOp: gather,
    nc.GatherElementsOp: gather_elements,
    nc.TopKOp: top_k,
    nq.QuantizeOp: quantize,
    nq.DequantizeOp: dequantize,
    nq.QConv2dOp: qconv2d,
    nq.QGemmOp: qgemm,
    nq.QAddOp: lambda op, a, b: tflite_qadd(op, a, b) if op.left_shift is not None else qadd(op, a, b),
    nq.QMulOp: qmul,
    nq.QConcatOp: qconcat,
    nq.QLookupOp: qlookup,
    nq.QSoftmaxOp: qsoftmax,
    nq.QRequantizeOp: qrequantize,
    nq.QSvdfStateOp: qsvdf_state,
    nq.QSvdfOp: qsvdf,
    nl.QLstmOp: qlstm,
    nl.QLstmStateOp: qlstm_state,
    nq.MatmulIntegerOp: matmul_integer,
    nq.ConvIntegerOp: conv_integer,
    **SIGNAL_KERNELS,
}


def prepare(op: Operation, run_error: Callable[[Exception], Exception] | None = None
            ) -> Callable[[list[np.ndarray]], np.ndarray]:
    """A function from ``op``'s arguments to its result as a fresh contiguous array, with
    the kernel, the op's attributes and its result type resolved once; the caller runs it
    under ``np.errstate(all="ignore")``. An index out of range (a gather's) or a row TFLite
    Micro stops on (``TfliteAbort``, an int8 softmax's) raises ``run_error(err)`` when given.

    float16 arguments are given to the kernel as float32 and a float32 result of an op
    whose result type is f16 is rounded to float16 once: float32 computation, one
    rounding (``nn.cast`` to f16 rounds its own input directly)."""
    op_type = type(op)
    if op_type in PREPARERS:
        kernel = PREPARERS[op_type](op)
    elif op_type in KERNELS:
        kernel = partial(KERNELS[op_type], op)
    else:
        raise NotImplementedError(f"no kernel for '{op.name}'")
    result_type = op.results[0].type
    want = tuple(result_type.get_shape())
    dtype = numpy_dtype(result_type.get_element_type())
    round_to_f16 = dtype == np.float16
    widen = any(isinstance(v.type, ShapedType) and isinstance(v.type.get_element_type(), Float16Type) for v in op.operands)
    name = op.name

    def run(args: list[np.ndarray]) -> np.ndarray:
        if widen:
            args = [a.astype(np.float32) if a.dtype == np.float16 else a for a in args]
        try:
            result = kernel(*args)
        except (IndexError, TfliteAbort) as err:
            if run_error is None:
                raise
            raise run_error(err) from None
        if type(result) is not np.ndarray:
            result = np.asarray(result)
        if round_to_f16 and result.dtype == np.float32:
            result = result.astype(np.float16)
        if not result.flags.c_contiguous:  # (np.ascontiguousarray would make a 0-d result 1-d)
            result = result.copy(order="C")
        assert result.shape == want, f"{name} produced {result.shape}, expected {want}"
        assert result.dtype == dtype, f"{name} produced {result.dtype}, expected {dtype}"
        return result

    return run
