"""numpy kernels for the nn compute ops, one function per op, in modules by op family.

Each kernel takes the op (for its attributes) and its operand arrays and
returns a new array with the op's result shape and dtype. Quantized kernels compute
what onnxruntime's x86 CPU kernels compute, bit for bit: integer sums in int32 (two's
complement, as MLAS accumulates), and the float32 operations of each op's MLAS kernel in
the same order, each rounded once (see the quantized kernels for which path each
follows). Both interpreters (tensor-level and flat) call these, so a result differs
between them only if the memory plan is wrong.

float16 follows onnxruntime's CPU kernels, most of which upcast to float32: a float op
with f16 operands runs its float32 kernel on them (the upcast is exact) and its result
is rounded to float16 once, to nearest even (see :func:`prepare`). Ops that only move
or compare values give the same bits either way.

- :mod:`~cfmem.interp.kernels.registry`: every kernel by op type (``KERNELS``, ``PREPARERS``)
  and :func:`prepare`, which runs one;
- :mod:`~cfmem.interp.kernels.elementwise`: element-by-element arithmetic, comparisons, casts;
- :mod:`~cfmem.interp.kernels.nn`: convolution, pooling, gemm, matmul, softmax;
- :mod:`~cfmem.interp.kernels.reduce`: reductions (float sums in onnxruntime's order), running
  sums, indices chosen along an axis;
- :mod:`~cfmem.interp.kernels.sequential`: the float sums of ops with ``sum_order =
  "sequential"``, in TFLite Micro's order (the TFLite importer asks for it);
- :mod:`~cfmem.interp.kernels.movement`: slices, pads, gathers, concatenation, transposes, reshapes;
- :mod:`~cfmem.interp.kernels.quantized`: the quantized ops, as onnxruntime's MLAS kernels
  compute them (with TFLite's fixed-point parameters, and ``nn.qsoftmax``, as TFLite Micro's
  reference kernels do);
- :mod:`~cfmem.interp.kernels.fixed_point`: TFLite's fixed-point arithmetic and gemmlowp's
  fixed-point functions, vectorized.

The package exports the public names of these modules.
"""

from __future__ import annotations

from cfmem.interp.kernels.elementwise import cast, erf, power, sigmoid
from cfmem.interp.kernels.movement import gather, gather_elements, prepare_pad, prepare_slice
from cfmem.interp.kernels.nn import (
    avg_pool2d, conv2d, global_avg_pool, max_pool2d, prepare_conv2d, prepare_gemm, softmax,
)
from cfmem.interp.kernels.quantized import (
    conv_integer, convert_and_pack, dequantize, matmul_integer, qadd, qadd_terms, qconcat, qconv2d, qgemm, qlookup,
    qmul, quant_params, quantize, requant_ratio, saturate, span_scalar,
)
from cfmem.interp.kernels.reduce import (
    EIGEN_PACKET, arg_extreme, cumsum, eigen_row_sums, first_extreme, float_sum, mean, prepare_reduce, top_k,
)
from cfmem.interp.kernels.registry import KERNELS, PREPARERS, Kernel, prepare

__all__ = [
    "EIGEN_PACKET", "KERNELS", "PREPARERS", "Kernel", "arg_extreme", "avg_pool2d", "cast", "conv2d", "conv_integer",
    "convert_and_pack", "cumsum", "dequantize", "eigen_row_sums", "erf", "first_extreme", "float_sum", "gather",
    "gather_elements", "global_avg_pool", "matmul_integer", "max_pool2d", "mean", "power", "prepare",
    "prepare_conv2d", "prepare_gemm", "prepare_pad", "prepare_reduce", "prepare_slice", "qadd", "qadd_terms",
    "qconcat", "qconv2d", "qgemm", "qlookup", "qmul", "quant_params", "quantize", "requant_ratio", "saturate",
    "sigmoid", "softmax", "span_scalar", "top_k",
]
