"""The named ops of ``nn-lower-to-linalg``: convolution, matrix products and pooling.

- ``conv2d``: the output filled with the bias (broadcast over N, H, W) or 0,
  then one generic over (n, o, y, x, c, ky, kx) accumulating input channel
  ``(o floordiv og) * cg + c`` (og, cg: output and input channels per group) at
  row ``y * sh + ky * dh``, column ``x * sw + kx * dw``; with pads the input is no
  generic operand: each tap is loaded (``memref.load``) at that position less the top
  and left pads, clamped into the input, and replaced by the pad value where it falls
  outside (a select), so no padded copy is made. With ``sum_order = "sequential"``
  (TFLite Micro's order) the output is filled with 0, the loops are (n, o, y, x, ky,
  kx, c) and the bias is added to the finished sums by a generic after.
- ``matmul``: ``linalg.fill`` 0 then ``linalg.matmul`` for 2-D operands, a
  generic with broadcast batch dimensions otherwise (the contraction loop innermost,
  TFLite Micro's order already); ``gemm``: the output
  filled with ``c`` (broadcast), then the same contraction, ``b`` read
  transposed for ``trans_b``; with ``sum_order = "sequential"`` filled with 0 and ``c``
  added after.
- ``max_pool2d``: NaN fill, then a generic folding each window's taps (tap ``ky`` at row
  ``y * sh + ky * dh``, columns alike; row by row) into it, a tap replacing the best so
  far unless it is NaN or the best is larger (NaN taps skipped, the later of 0.0 and
  -0.0; i8/ui8 data: ``maxsi``/``maxui``); ``avg_pool2d``: the sum over each window,
  divided by the number of unpadded elements in the window, read from a constant
  ``memref.global @avg_pool_count_K`` this pass adds (i8/ui8 data: the i32 sum of each
  window taken in the body of one generic over the output, divided with halves away from
  zero, as TFLite does). The window's loops take their range
  from a window operand whose values are not read: a ``1 x 1 x kh x kw`` subview of the
  input, or with pads (taps loaded as for ``conv2d``, padded with NaN, the integer minimum
  or 0) a constant ``@pool_window_K`` of zeros. The sums start at 0 and add the taps row by
  row: TFLite Micro's order, so ``avg_pool2d``'s ``sum_order`` asks for nothing more.

The quantized convolutions and products (:mod:`cfmem.passes.linalg.quantized`) reuse
``convolve`` and ``contract`` with an integer body. Assumes NCHW data and OIHW weights.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import AffineMapAttr, IntegerType, f32, i32
from xdsl.dialects.linalg.ops import IndexOp, MatmulOp
from xdsl.ir import SSAValue
from xdsl.ir.affine import AffineExpr

from cfmem.dialects import nn_compute as nc
from cfmem.dialects import nn_quant as nq
from cfmem.dialects.shapes import window_counts
from cfmem.passes.linalg.helpers import (
    Body,
    Shape,
    accumulate,
    affine_map,
    beats,
    broadcast_exprs,
    broadcast_map,
    copy,
    dims,
    f32_const,
    fill,
    generic,
    identity,
    index_const,
    int_const,
    integer_range,
    ints,
    is_unsigned,
    shape_of,
    subview,
    widened,
)
from cfmem.passes.linalg.op_lowering import OpLowering


def multiply_accumulate(lhs: SSAValue, rhs: SSAValue, acc: SSAValue) -> SSAValue:
    return arith.AddfOp(acc, arith.MulfOp(lhs, rhs)).result


def contract(a: SSAValue, b: SSAValue, out: SSAValue, trans_b: bool, body: Body | None = None) -> None:
    """``out += a @ b`` (``b.T`` if ``trans_b``), numpy matmul batch dims broadcast; ``body``
    (a, b, acc) accumulates each product when it is not the float multiply-add."""
    out_shape = shape_of(out)
    if len(out_shape) == 2 and not trans_b and body is None:
        MatmulOp([a, b], [out])
        return
    batch = len(out_shape) - 2
    loops = dims(batch + 3)
    m, n, k = loops[batch:]
    b_rows = [n, k] if trans_b else [k, n]
    maps = [
        affine_map(batch + 3, [*broadcast_exprs(shape_of(a)[:-2], out_shape[:-2]), m, k]),
        affine_map(batch + 3, [*broadcast_exprs(shape_of(b)[:-2], out_shape[:-2]), *b_rows]),
        affine_map(batch + 3, loops[: batch + 2]),
    ]
    generic([a, b], [out], maps, body or multiply_accumulate, reduced=(batch + 2,))


def window_position(out_index: SSAValue, tap: SSAValue, stride: int, dilation: int) -> SSAValue:
    """``out_index * stride + tap * dilation``: a window tap's position in the padded input."""
    return arith.AddiOp(arith.MuliOp(out_index, index_const(stride)), arith.MuliOp(tap, index_const(dilation))).result


def padded_load(x: SSAValue, n: SSAValue, c: SSAValue, row: SSAValue, col: SSAValue, pads: Sequence[int],
                pad_value: float | SSAValue) -> SSAValue:
    """Element (n, c, row, col) of NCHW ``x`` padded by ``pads`` (top, left, bottom, right) with
    ``pad_value`` (a number of ``x``'s element type, or a value of it): ``x`` is loaded at the
    position clamped into it, and the pad value taken where the position is outside."""
    _, _, height, width = shape_of(x)
    element = x.type.get_element_type()
    zero = index_const(0)
    inside: SSAValue | None = None
    clamped = []
    for position, before, size in ((row, pads[0], height), (col, pads[1], width)):
        at = arith.SubiOp(position, index_const(before)).result if before else position
        both = arith.AndIOp(arith.CmpiOp(at, zero, "sge"), arith.CmpiOp(at, index_const(size), "slt")).result
        inside = both if inside is None else arith.AndIOp(inside, both).result
        clamped.append(arith.MinSIOp(arith.MaxSIOp(at, zero), index_const(size - 1)).result)
    value = memref.LoadOp.get(x, [n, c, *clamped]).res
    if isinstance(pad_value, SSAValue):
        pad = pad_value
    else:
        pad = f32_const(pad_value) if element == f32 else int_const(int(pad_value), element)
    return arith.SelectOp(inside, value, pad).result


def window_of(x: SSAValue, kh: int, kw: int) -> SSAValue:
    """A ``1 x 1 x kh x kw`` subview of NCHW ``x`` (which is at least that large): a pooling
    generic's window operand, whose shape gives the window's loops and whose values are not read."""
    window = subview(x, [0, 0, 0, 0], [1, 1, kh, kw])
    window.name_hint = "window"
    return window


def convolve(lowering: OpLowering, op: nc.Conv2dOp | nq.QConv2dOp | nq.ConvIntegerOp, x: SSAValue, w: SSAValue,
             bias: list[SSAValue], acc: SSAValue, pad_value: float | SSAValue, body: Body,
             out_row: SSAValue | None = None, sequential: bool = False) -> None:
    """``acc`` filled with the bias (broadcast over N, H, W) or 0, then ``body`` accumulating
    every tap of ``x`` (padded with ``pad_value``) and ``w`` into it: one generic over
    (n, o, y, x, c, ky, kx); with pads, or for the one output row ``out_row`` given
    (``acc`` of height 1), the taps are loaded (``padded_load``). ``sequential``: ``acc``
    filled with 0, the loops (n, o, y, x, ky, kx, c), the bias added after."""
    (sh, sw), (dh, dw) = ints(op.strides), ints(op.dilations)
    groups = op.groups.value.data
    out_per_group, cg = shape_of(w)[0] // groups, shape_of(w)[1]
    if bias and not sequential:
        copy(bias[0], acc, affine_map(4, [AffineExpr.dimension(1)]), identity(4))
    else:
        fill(0, acc)
    loop_of = (0, 1, 2, 3, 6, 4, 5) if sequential else tuple(range(7))  # the loop of n, o, y, x, c, ky, kx
    n, oc, y, xx, c, ky, kx = (AffineExpr.dimension(d) for d in loop_of)
    pads = ints(op.pads)
    if any(pads) or out_row is not None:
        def tap(wv: SSAValue, a: SSAValue) -> SSAValue:
            i_n, i_o, i_y, i_x, i_c, i_ky, i_kx = (IndexOp(d).result for d in loop_of)
            if out_row is not None:
                i_y = out_row
            channel = i_c
            if groups != 1:
                group = i_o if out_per_group == 1 else arith.DivUIOp(i_o, index_const(out_per_group)).result
                channel = arith.AddiOp(arith.MuliOp(group, index_const(cg)), i_c).result
            row, col = window_position(i_y, i_ky, sh, dh), window_position(i_x, i_kx, sw, dw)
            return body(padded_load(x, i_n, channel, row, col, pads, pad_value), wv, a)

        maps = [affine_map(7, [oc, c, ky, kx]), affine_map(7, [n, oc, y, xx])]
        generic([w], [acc], maps, tap, reduced=(4, 5, 6))
    else:
        group = oc if out_per_group == 1 else oc // out_per_group
        channel = c if groups == 1 else group * cg + c
        maps = [
            affine_map(7, [n, channel, y * sh + ky * dh, xx * sw + kx * dw]),
            affine_map(7, [oc, c, ky, kx]),
            affine_map(7, [n, oc, y, xx]),
        ]
        generic([x, w], [acc], maps, body, reduced=(4, 5, 6))
    if bias and sequential:
        add_after(bias[0], acc, affine_map(4, [AffineExpr.dimension(1)]))


def add_after(addend: SSAValue, out: SSAValue, addend_map: AffineMapAttr) -> None:
    """``out += addend`` element by element, ``addend`` read through ``addend_map`` over
    ``out``'s loops: a bias added to finished sums."""
    generic([addend], [out], [addend_map, identity(len(shape_of(out)))], lambda v, acc: arith.AddfOp(acc, v).result)


def conv2d(lowering: OpLowering, op: nc.Conv2dOp, ins: list[SSAValue], out: SSAValue) -> None:
    x, w, *bias = ins
    convolve(lowering, op, x, w, bias, out, 0.0, multiply_accumulate, sequential=op.sums_sequentially())


def matmul(lowering: OpLowering, op: nc.MatmulOp, ins: list[SSAValue], out: SSAValue) -> None:
    fill(0.0, out)
    contract(*ins, out, trans_b=False)


def gemm(lowering: OpLowering, op: nc.GemmOp, ins: list[SSAValue], out: SSAValue) -> None:
    a, b, c = ins
    c_map = broadcast_map(shape_of(c), shape_of(out))
    if op.sums_sequentially():
        fill(0.0, out)
        contract(a, b, out, trans_b=bool(op.trans_b.value.data))
        add_after(c, out, c_map)
        return
    copy(c, out, c_map, identity(2))
    contract(a, b, out, trans_b=bool(op.trans_b.value.data))


def pool(lowering: OpLowering, op: nc.Pool2dOp, ins: list[SSAValue], out: SSAValue) -> None:
    (x,) = ins
    (kh, kw), (sh, sw), (dh, dw) = ints(op.kernel), ints(op.strides), ints(op.dilations)
    is_max = isinstance(op, nc.MaxPool2dOp)
    element = x.type.get_element_type()
    quantized = isinstance(element, IntegerType)  # i8/ui8 max pooling: padding is the lowest value
    if quantized and not is_max:
        integer_avg_pool(lowering, op, x, out)
        return
    pad_value = (integer_range(element)[0] if quantized else float("nan")) if is_max else 0.0
    fill(pad_value, out)
    n, c, y, xx, ky, kx = dims(6)
    maps = [
        affine_map(6, [n, c, y * sh + ky * dh, xx * sw + kx * dw]),
        affine_map(6, [AffineExpr.constant(0), AffineExpr.constant(0), ky, kx]),
        affine_map(6, [n, c, y, xx]),
    ]
    if is_max and not quantized:  # the tap unless it is NaN or the best so far is larger
        def combine(v: SSAValue, _: SSAValue, acc: SSAValue) -> SSAValue:
            return arith.SelectOp(beats(v, acc, "olt"), acc, v).result
    else:
        op_type = ((arith.MaxUIOp if is_unsigned(element) else arith.MaxSIOp) if quantized else arith.MaximumfOp) if is_max else arith.AddfOp

        def combine(v: SSAValue, _: SSAValue, acc: SSAValue) -> SSAValue:
            return op_type(acc, v).result
    pads = ints(op.pads)
    if any(pads):  # the taps loaded, the window a constant global (only its shape is read)
        def tap(_: SSAValue, acc: SSAValue) -> SSAValue:
            i_n, i_c, i_y, i_x, i_ky, i_kx = (IndexOp(d).result for d in range(6))
            row, col = window_position(i_y, i_ky, sh, dh), window_position(i_x, i_kx, sw, dw)
            return combine(padded_load(x, i_n, i_c, row, col, pads, pad_value), _, acc)

        window = lowering.globals.get("pool_window", np.zeros((kh, kw), np.float32))
        generic([window], [out], [affine_map(6, [ky, kx]), maps[2]], tap, reduced=(4, 5))
    else:
        generic([x, window_of(x, kh, kw)], [out], maps, combine, reduced=(4, 5))
    if not is_max:
        counts = avg_pool_counts(lowering, op, shape_of(x), shape_of(out))
        generic([counts], [out], [affine_map(4, [y, xx]), identity(4)], lambda k, s: arith.DivfOp(s, k).result)


def integer_avg_pool(lowering: OpLowering, op: nc.AvgPool2dOp, x: SSAValue, out: SSAValue) -> None:
    """i8/ui8 average pooling as TFLite rounds it, with no buffer for the sums: one generic over
    the output whose body sums the element's window in i32 (two ``scf.for`` loops carrying the
    sum; taps outside the input, with pads, are 0), then divides by the window's count of
    unpadded taps with halves away from zero: ``(sum + count / 2) / count`` for a positive sum,
    ``(sum - count / 2) / count`` otherwise, ``arith.divsi`` truncating toward zero."""
    (kh, kw), (sh, sw), (dh, dw) = ints(op.kernel), ints(op.strides), ints(op.dilations)
    pads = ints(op.pads)
    element = out.type.get_element_type()
    counts = avg_pool_counts(lowering, op, shape_of(x), shape_of(out))
    _, _, y, xx = dims(4)

    def body(count: SSAValue, _: SSAValue) -> SSAValue:
        i_n, i_c, i_y, i_x = (IndexOp(d).result for d in range(4))

        def tap(ky: SSAValue, kx: SSAValue, total: SSAValue) -> SSAValue:
            row, col = window_position(i_y, ky, sh, dh), window_position(i_x, kx, sw, dw)
            value = padded_load(x, i_n, i_c, row, col, pads, 0) if any(pads) else memref.LoadOp.get(x, [i_n, i_c, row, col]).res
            return arith.AddiOp(total, widened(value)).result

        total = accumulate(kh, int_const(0, i32), lambda ky, s: accumulate(kw, s, lambda kx, t: tap(ky, kx, t)))
        divisor = arith.FPToSIOp(count, i32).result
        half = arith.DivSIOp(divisor, int_const(2, i32)).result
        positive = arith.CmpiOp(total, int_const(0, i32), "sgt").result
        adjusted = arith.SelectOp(positive, arith.AddiOp(total, half), arith.SubiOp(total, half)).result
        return arith.TruncIOp(arith.DivSIOp(adjusted, divisor), element).result

    generic([counts], [out], [affine_map(4, [y, xx]), identity(4)], body)


def avg_pool_counts(lowering: OpLowering, op: nc.AvgPool2dOp, in_shape: Shape, out_shape: Shape) -> SSAValue:
    """A constant global [OH, OW]: the unpadded elements in each window (f32, exact)."""
    (kh, kw), (sh, sw), (dh, dw) = ints(op.kernel), ints(op.strides), ints(op.dilations)
    top, left, _, _ = ints(op.pads)
    rows = window_counts(in_shape[2], kh, sh, top, out_shape[2], dh)
    cols = window_counts(in_shape[3], kw, sw, left, out_shape[3], dw)
    return lowering.globals.get("avg_pool_count", np.outer(rows, cols))
