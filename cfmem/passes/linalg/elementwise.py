"""The element-by-element ops of ``nn-lower-to-linalg``: one ``linalg.generic`` each.

- ``add``, ``sub``, ``mul``, ``div``, ``pow`` (``math.powf``), ``max``/``min``
  (a select: ``a`` where it is NaN or beyond ``b``, else ``b``, so NaN wins and of
  0.0 and -0.0 the second operand, as onnxruntime): one
  ``linalg.generic`` (``add``, ``sub``, ``mul`` of integers: ``arith.addi``, ``subi``, ``muli``); numpy broadcasting lives in the input maps (operands
  aligned to the last dimension, a size-1 dimension of a larger result read
  at index 0).
- ``cmp``: the same with ``arith.cmpf`` (eq, ne, lt, le, gt, ge as oeq, une,
  olt, ole, ogt, oge, so NaN compares as in numpy) writing i1; on integers
  ``arith.cmpi`` (eq, ne, slt, sle, sgt, sge).
- ``relu`` ``maximumf(x, 0)``, ``sigmoid`` ``1 / (1 + exp(-x))`` (``exp(x)`` below
  ``exp_below`` and 1 above ``one_above`` by selects, where given), ``tanh``
  ``math.tanh``, ``sqrt`` ``math.sqrt``, ``exp`` ``math.exp``, ``neg``
  ``arith.negf``, ``log``/``abs``/``floor``/``ceil``/``erf``/``sin``/``cos`` their
  ``math`` ops, ``round`` ``math.roundeven``, ``reciprocal`` ``1 / x``, ``sign``
  two selects (NaN kept), ``clamp`` ``minimumf(maximumf(x, min), max)``: one generic.
- ``and``/``or``/``xor`` ``arith.andi``/``ori``/``xori`` on i1, ``not`` ``xori`` with
  true, ``select`` ``arith.select``: one generic, broadcasting as above.
- ``fmod``: in f64, ``a - trunc(a / b) * b`` (the product taken as 0 where the
  quotient truncates to 0, so a finite ``a`` over an infinite ``b`` is ``a``),
  rounded to f32 and given ``a``'s sign; exact while ``|a / b| < 2**28`` (the f64
  quotient then truncates to the true integer, and the product and difference
  are exact). ``mod`` of integers: ``arith.remsi``, plus ``b`` where the
  remainder is not 0 and its sign differs from ``b``'s. One generic each.
- ``cast``: one generic of ``arith`` conversions (``fptosi``, ``sitofp``, ``extsi``,
  ``trunci``, ``extui``/``uitofp`` from i1, ``cmpf une``/``cmpi ne`` 0 to i1).

Assumes f32 data (``cmp`` also signless integers, ``mod`` only them, the logical ops and
``select``'s condition i1).
"""

from __future__ import annotations

from xdsl.dialects import arith, math
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, IntegerType, f32, f64, i1
from xdsl.ir import SSAValue

from cfmem.dialects import nn_compute as nc
from cfmem.passes.linalg.helpers import (
    EXTREMES,
    beats,
    elementwise,
    f32_const,
    i1_const,
    int_const,
    is_unsigned,
    to_float,
)
from cfmem.passes.linalg.op_lowering import OpLowering

FLOAT_BINARY = {
    nc.AddOp: arith.AddfOp,
    nc.SubOp: arith.SubfOp,
    nc.MulOp: arith.MulfOp,
    nc.DivOp: arith.DivfOp,
    nc.PowOp: math.PowFOp,
}
FLOAT_UNARY = {
    nc.SqrtOp: math.SqrtOp,
    nc.ExpOp: math.ExpOp,
    nc.NegOp: arith.NegfOp,
    nc.LogOp: math.LogOp,
    nc.AbsOp: math.AbsFOp,
    nc.FloorOp: math.FloorOp,
    nc.CeilOp: math.CeilOp,
    nc.RoundOp: math.RoundEvenOp,
    nc.ErfOp: math.ErfOp,
    nc.SinOp: math.SinOp,
    nc.CosOp: math.CosOp,
}
LOGICAL_BINARY = {nc.AndOp: arith.AndIOp, nc.OrOp: arith.OrIOp, nc.XorOp: arith.XOrIOp}
INTEGER_BINARY = {nc.AddOp: arith.AddiOp, nc.SubOp: arith.SubiOp, nc.MulOp: arith.MuliOp, nc.DivOp: arith.DivSIOp,
                  nc.MaxOp: arith.MaxSIOp, nc.MinOp: arith.MinSIOp}  # fmt: skip
"""``nn.add``, ``nn.sub``, ``nn.mul`` on integers: wrapping, as numpy; ``nn.div`` truncating toward
zero (a zero divisor is undefined here, 0 in the interpreters); ``nn.max``, ``nn.min`` signed."""
CMP_PREDICATES = {"eq": "oeq", "ne": "une", "lt": "olt", "le": "ole", "gt": "ogt", "ge": "oge"}
CMPI_PREDICATES = {"eq": "eq", "ne": "ne", "lt": "slt", "le": "sle", "gt": "sgt", "ge": "sge"}


def binary(lowering: OpLowering, op: nc.ElementwiseBinaryOp, ins: list[SSAValue], out: SSAValue) -> None:
    if isinstance(op, nc.CmpOp) and ins[0].type.get_element_type() == f32:
        predicate = CMP_PREDICATES[op.predicate.data]
        elementwise(ins, out, lambda a, b, _: arith.CmpfOp(a, b, predicate).result)
    elif isinstance(op, nc.CmpOp):
        predicate = CMPI_PREDICATES[op.predicate.data]
        elementwise(ins, out, lambda a, b, _: arith.CmpiOp(a, b, predicate).result)
    elif isinstance(op.results[0].type.get_element_type(), IntegerType):
        elementwise(ins, out, lambda a, b, _: INTEGER_BINARY[type(op)](a, b).result)
    elif type(op) in EXTREMES:
        predicate = EXTREMES[type(op)]
        elementwise(ins, out, lambda a, b, _: arith.SelectOp(beats(a, b, predicate), a, b).result)
    else:
        elementwise(ins, out, lambda a, b, _: FLOAT_BINARY[type(op)](a, b).result)


def unary(lowering: OpLowering, op: nc.ElementwiseUnaryOp, ins: list[SSAValue], out: SSAValue) -> None:
    elementwise(ins, out, lambda x, _: FLOAT_UNARY[type(op)](x).result)


def relu(lowering: OpLowering, op: nc.ReluOp, ins: list[SSAValue], out: SSAValue) -> None:
    elementwise(ins, out, lambda x, _: arith.MaximumfOp(x, f32_const(0.0)).result)


def sigmoid(lowering: OpLowering, op: nc.SigmoidOp, ins: list[SSAValue], out: SSAValue) -> None:
    exp_below, one_above = op.cutoffs()

    def body(x: SSAValue, _: SSAValue) -> SSAValue:
        one = f32_const(1.0)
        y = arith.DivfOp(one, arith.AddfOp(one, math.ExpOp(arith.NegfOp(x)))).result
        if exp_below is not None:
            y = arith.SelectOp(arith.CmpfOp(x, f32_const(exp_below), "olt"), math.ExpOp(x), y).result
        if one_above is not None:
            y = arith.SelectOp(arith.CmpfOp(x, f32_const(one_above), "ogt"), one, y).result
        return y

    elementwise(ins, out, body)


def tanh(lowering: OpLowering, op: nc.TanhOp, ins: list[SSAValue], out: SSAValue) -> None:
    elementwise(ins, out, lambda x, _: math.TanhOp(x).result)


def reciprocal(lowering: OpLowering, op: nc.ReciprocalOp, ins: list[SSAValue], out: SSAValue) -> None:
    elementwise(ins, out, lambda x, _: arith.DivfOp(f32_const(1.0), x).result)


def sign(lowering: OpLowering, op: nc.SignOp, ins: list[SSAValue], out: SSAValue) -> None:
    def body(x: SSAValue, _: SSAValue) -> SSAValue:
        zero = f32_const(0.0)
        positive = arith.SelectOp(arith.CmpfOp(x, zero, "ogt"), f32_const(1.0), zero)
        negative = arith.SelectOp(arith.CmpfOp(x, zero, "olt"), f32_const(-1.0), positive)
        return arith.SelectOp(arith.CmpfOp(x, x, "uno"), x, negative).result  # NaN stays NaN

    elementwise(ins, out, body)


def clamp(lowering: OpLowering, op: nc.ClampOp, ins: list[SSAValue], out: SSAValue) -> None:
    lo, hi = op.min.value.data, op.max.value.data
    elementwise(ins, out, lambda x, _: arith.MinimumfOp(arith.MaximumfOp(x, f32_const(lo)), f32_const(hi)).result)


def logical(lowering: OpLowering, op: nc.LogicalBinaryOp, ins: list[SSAValue], out: SSAValue) -> None:
    elementwise(ins, out, lambda a, b, _: LOGICAL_BINARY[type(op)](a, b).result)


def logical_not(lowering: OpLowering, op: nc.NotOp, ins: list[SSAValue], out: SSAValue) -> None:
    elementwise(ins, out, lambda x, _: arith.XOrIOp(x, i1_const(True)).result)


def select(lowering: OpLowering, op: nc.SelectOp, ins: list[SSAValue], out: SSAValue) -> None:
    elementwise(ins, out, lambda c, a, b, _: arith.SelectOp(c, a, b).result)


def fmod(lowering: OpLowering, op: nc.FmodOp, ins: list[SSAValue], out: SSAValue) -> None:
    def body(a: SSAValue, b: SSAValue, _: SSAValue) -> SSAValue:
        wide_a, wide_b = arith.ExtFOp(a, f64).result, arith.ExtFOp(b, f64).result
        quotient = math.TruncOp(arith.DivfOp(wide_a, wide_b)).result
        zero = arith.ConstantOp(FloatAttr(0.0, f64)).result
        product = arith.SelectOp(arith.CmpfOp(quotient, zero, "oeq"), zero, arith.MulfOp(quotient, wide_b))
        remainder = arith.TruncFOp(arith.SubfOp(wide_a, product), f32)
        return math.CopySignOp(remainder, a).result

    elementwise(ins, out, body)


def mod(lowering: OpLowering, op: nc.ModOp, ins: list[SSAValue], out: SSAValue) -> None:
    def body(a: SSAValue, b: SSAValue, _: SSAValue) -> SSAValue:
        zero = arith.ConstantOp(IntegerAttr(0, a.type)).result
        remainder = arith.RemSIOp(a, b).result
        signs_differ = arith.XOrIOp(arith.CmpiOp(remainder, zero, "slt"), arith.CmpiOp(b, zero, "slt"))
        adjust = arith.AndIOp(arith.CmpiOp(remainder, zero, "ne"), signs_differ)
        return arith.SelectOp(adjust, arith.AddiOp(remainder, b), remainder).result

    elementwise(ins, out, body)


def cast(lowering: OpLowering, op: nc.CastOp, ins: list[SSAValue], out: SSAValue) -> None:
    source, target = ins[0].type.get_element_type(), out.type.get_element_type()

    def body(x: SSAValue, _: SSAValue) -> SSAValue:
        if target == i1:
            if source == f32:
                return arith.CmpfOp(x, f32_const(0.0), "une").result
            return arith.CmpiOp(x, int_const(0, source), "ne").result
        if source == i1:
            return (arith.UIToFPOp(x, f32) if target == f32 else arith.ExtUIOp(x, target)).result
        if source == f32:
            return x if target == f32 else (arith.FPToUIOp if is_unsigned(target) else arith.FPToSIOp)(x, target).result
        if target == f32:
            return to_float(x)
        if target.width.data > source.width.data:
            return (arith.ExtUIOp if is_unsigned(source) else arith.ExtSIOp)(x, target).result
        if target.width.data < source.width.data:
            return arith.TruncIOp(x, target).result
        return x if target == source else arith.BitcastOp(x, target).result  # i8 and ui8: the same bits

    elementwise(ins, out, body)
