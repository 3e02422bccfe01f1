"""Which function lowers which compute op (``LOWERINGS``, the one table), and ``lower``, which
runs it, on f32 copies of f16 operands where the op computes in f32.

A lowering function takes the ``OpLowering`` (constant globals, scratch buffers), the compute
op, the memrefs of its inputs and the memref of its output, and emits its ops at the current
implicit builder. A new op's lowering goes in the module of its family and into ``LOWERINGS``.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith
from xdsl.dialects.builtin import f16
from xdsl.ir import Operation, SSAValue

from cfmem.dialects import nn_compute as nc
from cfmem.dialects import nn_lstm as nl
from cfmem.dialects import nn_quant as nq
from cfmem.dialects import nn_signal as ns
from cfmem.dialects.nn_weights import ReshapeOp
from cfmem.dialects.scratch import widens_f16
from cfmem.passes.failures import OpFailure
from cfmem.passes.linalg.data_movement import concat, gather, gather_elements, pad, reshape, slice, transpose
from cfmem.passes.linalg.elementwise import (
    binary,
    cast,
    clamp,
    fmod,
    logical,
    logical_not,
    mod,
    reciprocal,
    relu,
    select,
    sigmoid,
    sign,
    tanh,
    unary,
)
from cfmem.passes.linalg.helpers import elementwise, shape_of
from cfmem.passes.linalg.named import conv2d, gemm, matmul, pool
from cfmem.passes.linalg.op_lowering import OpLowering
from cfmem.passes.linalg.quantized import (
    conv_integer,
    dequantize,
    matmul_integer,
    qadd,
    qconcat,
    qconv2d,
    qgemm,
    qlookup,
    qmul,
    qrequantize,
    qsoftmax,
    quantize,
    tflite_only,
)
from cfmem.passes.linalg.reductions import arg_extreme, cumsum, mean, reduce, softmax, top_k
from cfmem.passes.linalg.svdf import qsvdf, qsvdf_state

Lowering = Callable[..., None]
"""``(lowering: OpLowering, op, ins: list[SSAValue], out: SSAValue) -> None``."""

LOWERINGS: dict[type[Operation], Lowering] = {
    nc.AddOp: binary,
    nc.SubOp: binary,
    nc.MulOp: binary,
    nc.DivOp: binary,
    nc.PowOp: binary,
    nc.MaxOp: binary,
    nc.MinOp: binary,
    nc.CmpOp: binary,
    nc.ReluOp: relu,
    nc.SigmoidOp: sigmoid,
    nc.TanhOp: tanh,
    nc.SqrtOp: unary,
    nc.ExpOp: unary,
    nc.NegOp: unary,
    nc.LogOp: unary,
    nc.AbsOp: unary,
    nc.FloorOp: unary,
    nc.CeilOp: unary,
    nc.RoundOp: unary,
    nc.ErfOp: unary,
    nc.SinOp: unary,
    nc.CosOp: unary,
    nc.ReciprocalOp: reciprocal,
    nc.SignOp: sign,
    nc.ClampOp: clamp,
    nc.AndOp: logical,
    nc.OrOp: logical,
    nc.XorOp: logical,
    nc.NotOp: logical_not,
    nc.SelectOp: select,
    nc.FmodOp: fmod,
    nc.ModOp: mod,
    nc.CumsumOp: cumsum,
    nc.Conv2dOp: conv2d,
    nc.MatmulOp: matmul,
    nc.GemmOp: gemm,
    nc.MaxPool2dOp: pool,
    nc.AvgPool2dOp: pool,
    nc.GlobalAvgPoolOp: mean,
    nc.ReduceMeanOp: mean,
    nc.ReduceSumOp: reduce,
    nc.ReduceMaxOp: reduce,
    nc.ReduceMinOp: reduce,
    nc.ReduceProdOp: reduce,
    nc.ArgMaxOp: arg_extreme,
    nc.ArgMinOp: arg_extreme,
    nc.SoftmaxOp: softmax,
    nc.ConcatOp: concat,
    nc.TransposeOp: transpose,
    nc.SliceOp: slice,
    nc.PadOp: pad,
    nc.GatherOp: gather,
    nc.GatherElementsOp: gather_elements,
    nc.TopKOp: top_k,
    ReshapeOp: reshape,
    nc.CastOp: cast,
    nq.QuantizeOp: quantize,
    nq.DequantizeOp: dequantize,
    nq.QConv2dOp: qconv2d,
    nq.QGemmOp: qgemm,
    nq.QAddOp: qadd,
    nq.QMulOp: qmul,
    nq.QConcatOp: qconcat,
    nq.QLookupOp: qlookup,
    nq.QSoftmaxOp: qsoftmax,
    nq.QRequantizeOp: qrequantize,
    nq.QSvdfStateOp: qsvdf_state,
    nq.QSvdfOp: qsvdf,
    nl.QLstmOp: tflite_only,
    nl.QLstmStateOp: tflite_only,
    **{op: tflite_only for op in ns.SIGNAL_OPS},
    nq.MatmulIntegerOp: matmul_integer,
    nq.ConvIntegerOp: conv_integer,
}


def lower(lowering: OpLowering, op: Operation, ins: list[SSAValue], out: SSAValue) -> None:
    """``op``'s ops at the current implicit builder, reading ``ins`` and writing ``out``; an op
    that computes in f32 (``widens_f16``) reads f32 copies of its f16 inputs and writes an f32
    copy of an f16 output, rounded into it once (``arith.truncf``)."""
    function = LOWERINGS.get(type(op))
    if function is None:
        raise OpFailure(op, f"nn-lower-to-linalg cannot lower '{op.name}'")
    if not widens_f16(op) or not any(v.type.get_element_type() == f16 for v in (*ins, out)):
        function(lowering, op, ins, out)
        return
    wide = [lowering.widened(v) if v.type.get_element_type() == f16 else v for v in ins]
    wide_out = lowering.scratch("wide_out", shape_of(out)) if out.type.get_element_type() == f16 else out
    function(lowering, op, wide, wide_out)
    if wide_out is not out:
        elementwise([wide_out], out, lambda x, _: arith.TruncFOp(x, f16).result)
