"""Quantized ops of the nn dialect: ONNX QuantizeLinear, DequantizeLinear and the
QLinear ops (QLinearConv, QLinearMatMul, and onnxruntime's QGemm, QLinearAdd,
QLinearMul and QLinearConcat).

A quantized tensor has element type i8 (int8) or ui8 (uint8); its element q stands
for ``(q - zero_point) * scale``. Scales (f32) and zero points are properties, since
they are known when a model is imported; a scale of more than one element runs along
``axis`` (per-channel weights). Each quantized operand and the result have their own
parameters, named by prefix (``x_scale``, ``w_zero_point``, ``y_scale`` ...).

Arithmetic follows the ONNX specification and onnxruntime's x86 kernels bit for bit:
integer products accumulate in int32, with an i32 bias of scale ``x_scale * w_scale``
added; an accumulator is requantized by multiplying it with the float32 ratio of the
scales, rounding half to even, adding the output zero point and saturating to the element
type. QLinearAdd and QLinearMul compute in float32 as onnxruntime's MLAS kernels do (the
zero point added in float before rounding). ``interp/kernels/quantized.py`` computes it
and says which onnxruntime path each kernel follows; the byte sizes the planner uses are
those of the real element types (one byte per i8 element).

TFLite's int8 kernels (TFLite Micro's reference kernels) requantize in fixed point instead: an
op that carries ``y_multiplier`` and ``y_shift`` (``nn.qconv2d``, ``nn.qgemm``; ``nn.qadd`` also
``a_``/``b_multiplier``, ``a_``/``b_shift`` and ``left_shift``) multiplies the int32 sum by the
Q31 multiplier with TFLite's ``MultiplyByQuantizedMultiplier`` (a rounding doubling high
multiply, then a rounding right shift), the importer having derived the multipliers from the
scales as TFLite Micro does; the scales stay for what reads them (slicing, reports).
``nn.quantize`` with ``rounding = "half_away_from_zero"`` rounds as TFLite's QUANTIZE does.
``nn.qsoftmax`` is TFLite's int8 SOFTMAX (to int8 or int16), gemmlowp's fixed-point exponential
and reciprocal. ``nn.qrequantize`` is TFLite's integer QUANTIZE (``Requantize``) between i8,
ui8, i16 and i32 tensors. ``nn.qsvdf_state`` and ``nn.qsvdf`` are TFLite's integer SVDF, its
state update and its output: TFLite's variable (state) tensor is an operand and a result, not
memory kept between calls.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar
from math import prod

from xdsl.dialects.builtin import (
    I64,
    DenseArrayBase,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    Signedness,
    StringAttr,
    TensorType,
    f32,
    i8,
    i16,
    i32,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.utils.exceptions import VerifyException

from cfmem.dialects import shapes
from cfmem.dialects.nn_compute.base import F32_TENSOR, ComputeOp, _ints
from cfmem.dialects.nn_compute.nn import ConvWindowOp
from cfmem.dialects.types import static_shape

ui8 = IntegerType(8, Signedness.UNSIGNED)
QUANT_TYPES: tuple[Attribute, ...] = (i8, ui8)
"""Element types of quantized tensors."""


def f32_array(values: Sequence[float]) -> DenseArrayBase:
    return DenseArrayBase.from_list(f32, [float(v) for v in values])


def floats(attr: DenseArrayBase) -> tuple[float, ...]:
    return tuple(float(v) for v in attr.get_values())


def is_quantized(ty: Attribute) -> bool:
    return isinstance(ty, TensorType) and ty.get_element_type() in QUANT_TYPES


def check_params(op: ComputeOp, prefix: str, element: Attribute, channels: int | None = None) -> None:
    """``<prefix>_scale`` and ``<prefix>_zero_point`` agree in length: one element, or
    ``channels`` elements when a per-axis scale is allowed; scales are positive; zero points
    are values of ``element``, the integer type of the tensor they belong to."""
    scale = floats(op.properties[f"{prefix}_scale"])
    zero_point = _ints(op.properties[f"{prefix}_zero_point"])
    lengths = (1,) if channels is None else (1, channels)
    if len(scale) not in lengths or len(zero_point) != len(scale):
        raise ValueError(
            f"{prefix}_scale and {prefix}_zero_point must have {' or '.join(map(str, lengths))} element(s),"
            f" got {len(scale)} and {len(zero_point)}"
        )
    if not all(s > 0 for s in scale):
        raise ValueError(f"{prefix}_scale must be positive, got {list(scale)}")
    check_zero_points(prefix, zero_point, element)


def check_zero_points(prefix: str, zero_point: Sequence[int], element: Attribute) -> None:
    """Every zero point is a value of the integer type ``element`` (a signless type is signed,
    as ONNX's int8 and int32 are); other element types are left to the operand checks."""
    if not isinstance(element, IntegerType):
        return
    width = element.width.data
    low, high = (0, 2**width) if element.signedness.data == Signedness.UNSIGNED else (-(2 ** (width - 1)), 2 ** (width - 1))
    if outside := [z for z in zero_point if not low <= z < high]:
        raise ValueError(f"{prefix}_zero_point {outside[0]} is not a value of {element} ({low} to {high - 1})")


ROUNDINGS = ("half_even", "half_away_from_zero")
"""How ``nn.quantize`` rounds ``x / scale``: onnxruntime's way, or TFLite's."""


def check_fixed_point(op: ComputeOp, prefix: str, channels: int | None = None) -> bool:
    """Whether ``op`` requantizes in fixed point with ``<prefix>_multiplier``/``<prefix>_shift``
    (checked: both or neither, one element or ``channels``, multipliers Q31 values from 0 to
    2^31 - 1 and shifts from -31 to 30)."""
    multiplier, shift = op.properties.get(f"{prefix}_multiplier"), op.properties.get(f"{prefix}_shift")
    if multiplier is None and shift is None:
        return False
    if multiplier is None or shift is None:
        raise ValueError(f"{prefix}_multiplier and {prefix}_shift come together")
    multipliers, shifts = _ints(multiplier), _ints(shift)
    lengths = (1,) if channels is None else (1, channels)
    if len(multipliers) not in lengths or len(shifts) != len(multipliers):
        raise ValueError(f"{prefix}_multiplier and {prefix}_shift must have {' or '.join(map(str, lengths))} element(s),"
                         f" got {len(multipliers)} and {len(shifts)}")  # fmt: skip
    if not all(0 <= m < 2**31 for m in multipliers) or not all(-31 <= v <= 30 for v in shifts):
        raise ValueError(f"{prefix}_multiplier must lie in [0, 2^31) and {prefix}_shift in [-31, 30]")
    return True


def element_of(value: SSAValue) -> Attribute:
    return value.type.get_element_type()  # type: ignore[attr-defined]


def axis_size(op: ComputeOp, prefix: str, shape: shapes.Shape) -> int | None:
    """The size of ``op.axis`` in ``shape`` when ``<prefix>_scale`` runs along it (more
    than one element); None for a per-tensor scale, whose axis is ignored (it may lie
    outside a tensor of low rank, as the default 1 does for rank 0 and 1)."""
    if len(floats(op.properties[f"{prefix}_scale"])) == 1:
        return None
    axis = op.axis.value.data
    if not -len(shape) <= axis < len(shape):
        raise ValueError(f"axis {axis} is out of range for a per-axis {prefix}_scale on a tensor of rank {len(shape)}")
    return shape[axis]


def check_quantized(op: ComputeOp, *indices: int) -> None:
    for k in indices:
        if not is_quantized(op.operands[k].type):
            raise ValueError(f"operand #{k} must be an i8 or ui8 tensor, got {op.operands[k].type}")


def check_one_element_type(op: ComputeOp, *indices: int) -> None:
    """Operands ``indices`` (quantized data combined elementwise) share one element type, as
    onnxruntime's QLinearAdd, QLinearMul and QLinearConcat require."""
    types = {op.operands[k].type.get_element_type() for k in indices}
    if len(types) > 1:
        raise ValueError(f"operands must share one element type, got {', '.join(sorted(map(str, types)))}")


class QuantizedResultOp(ComputeOp):
    """A compute op whose result is quantized with ``y_scale``/``y_zero_point`` into ``element``."""

    ELEMENTS: ClassVar[tuple[Attribute, ...]] = QUANT_TYPES
    """The element types the result may have."""
    element = prop_def(IntegerType)
    y_scale = prop_def(DenseArrayBase)
    y_zero_point = prop_def(DenseArrayBase[I64])

    def result_element_type(self) -> Attribute:
        return self.element

    def verify_(self) -> None:
        if self.element not in self.ELEMENTS:
            raise VerifyException(f"element must be {' or '.join(map(str, self.ELEMENTS))}, got {self.element}")
        super().verify_()


# --- conversions ------------------------------------------------------------------------


@irdl_op_definition
class QuantizeOp(QuantizedResultOp):
    """ONNX QuantizeLinear: ``saturate(round_half_even(x / scale) + zero_point)``; a
    per-axis ``y_scale`` runs along ``axis``; ``rounding = "half_away_from_zero"`` rounds as
    TFLite's QUANTIZE does."""

    name = "nn.quantize"
    input = operand_def(F32_TENSOR)
    result = result_def(TensorType)
    axis = opt_prop_def(IntegerAttr[I64], default_value=IntegerAttr(1, i64))
    rounding = opt_prop_def(StringAttr, default_value=StringAttr("half_even"))

    def infer_shape(self) -> shapes.Shape:
        x = self.operand_shape(0)
        check_params(self, "y", self.element, axis_size(self, "y", x))
        if self.rounding.data not in ROUNDINGS:
            raise ValueError(f"rounding must be one of {', '.join(ROUNDINGS)}, got {self.rounding.data!r}")
        return x


@irdl_op_definition
class DequantizeOp(ComputeOp):
    """ONNX DequantizeLinear: ``(x - zero_point) * scale`` of an i8, ui8 or i32 tensor."""

    name = "nn.dequantize"
    input = operand_def(TensorType)
    result = result_def(TensorType)
    x_scale = prop_def(DenseArrayBase)
    x_zero_point = prop_def(DenseArrayBase[I64])
    axis = opt_prop_def(IntegerAttr[I64], default_value=IntegerAttr(1, i64))

    def infer_shape(self) -> shapes.Shape:
        if self.input.type.get_element_type() not in (*QUANT_TYPES, i32):
            raise ValueError(f"input must be an i8, ui8 or i32 tensor, got {self.input.type}")
        x = self.operand_shape(0)
        check_params(self, "x", element_of(self.input), axis_size(self, "x", x))
        return x


# --- QLinear compute -------------------------------------------------------------------


@irdl_op_definition
class QConv2dOp(QuantizedResultOp, ConvWindowOp):
    """ONNX QLinearConv over NCHW/OIHW, with ``nn.conv2d``'s window properties; the
    weight scale is per tensor or per output channel; ``bias`` is i32 of scale
    ``x_scale * w_scale``. With ``y_multiplier``/``y_shift`` (one or one per output channel)
    the sum is requantized in fixed point, as TFLite's int8 CONV_2D does."""

    name = "nn.qconv2d"
    input = operand_def(TensorType)
    weight = operand_def(TensorType)
    bias = opt_operand_def(TensorType)
    result = result_def(TensorType)
    x_scale = prop_def(DenseArrayBase)
    x_zero_point = prop_def(DenseArrayBase[I64])
    w_scale = prop_def(DenseArrayBase)
    w_zero_point = prop_def(DenseArrayBase[I64])
    y_multiplier = opt_prop_def(DenseArrayBase[I64])
    y_shift = opt_prop_def(DenseArrayBase[I64])

    def infer_shape(self) -> shapes.Shape:
        check_quantized(self, 0, 1)
        out = self.window_shape()
        check_fixed_point(self, "y", out[1])
        if self.bias is not None and (self.bias.type.get_element_type() != i32 or static_shape(self.bias.type) != (out[1],)):
            raise ValueError(f"bias must be an i32 tensor of shape [{out[1]}]")
        check_params(self, "x", element_of(self.input))
        check_params(self, "w", element_of(self.weight), out[1])
        check_params(self, "y", self.element)
        return out


@irdl_op_definition
class QGemmOp(ComputeOp):
    """onnxruntime QGemm (and ONNX QLinearMatMul on 2-D operands): ``alpha * a @ b + c``
    on quantized ``a`` [M, K] and ``b`` [K, N] (``b.T`` with ``trans_b``), ``c`` an i32
    bias [N] of scale ``a_scale * b_scale``; the result is quantized with
    ``y_scale``/``y_zero_point`` into ``element``, or f32 when they are absent. With
    ``y_multiplier``/``y_shift`` (one or one per column) a quantized result is requantized in
    fixed point, as TFLite's int8 FULLY_CONNECTED does."""

    name = "nn.qgemm"
    a = operand_def(TensorType)
    b = operand_def(TensorType)
    c = opt_operand_def(TensorType)
    result = result_def(TensorType)
    a_scale = prop_def(DenseArrayBase)
    a_zero_point = prop_def(DenseArrayBase[I64])
    b_scale = prop_def(DenseArrayBase)
    b_zero_point = prop_def(DenseArrayBase[I64])
    alpha = opt_prop_def(FloatAttr, default_value=FloatAttr(1.0, f32))
    trans_b = opt_prop_def(IntegerAttr[I64], default_value=IntegerAttr(0, i64))
    element = opt_prop_def(IntegerType)
    y_scale = opt_prop_def(DenseArrayBase)
    y_zero_point = opt_prop_def(DenseArrayBase[I64])
    y_multiplier = opt_prop_def(DenseArrayBase[I64])
    y_shift = opt_prop_def(DenseArrayBase[I64])

    def result_element_type(self) -> Attribute:
        return f32 if self.element is None else self.element

    def infer_shape(self) -> shapes.Shape:
        check_quantized(self, 0, 1)
        a, b = self.operand_shape(0), self.operand_shape(1)
        trans = bool(self.trans_b.value.data)
        n = b[0] if trans else b[-1]
        out = shapes.gemm(a, b, (n,), trans)
        if self.c is not None and (self.c.type.get_element_type() != i32 or static_shape(self.c.type) != (n,)):
            raise ValueError(f"c must be an i32 tensor of shape [{n}]")
        check_params(self, "a", element_of(self.a))
        check_params(self, "b", element_of(self.b), n)
        if (self.element is None) != (self.y_scale is None) or (self.y_scale is None) != (self.y_zero_point is None):
            raise ValueError("element, y_scale and y_zero_point come together")
        if self.element is not None:
            if self.element not in QUANT_TYPES:
                raise ValueError(f"element must be i8 or ui8, got {self.element}")
            check_params(self, "y", self.element)
        if check_fixed_point(self, "y", n) and self.element is None:
            raise ValueError("y_multiplier and y_shift need a quantized result")
        return out

    def macs(self) -> int:
        return prod(self.out_shape) * self.operand_shape(0)[1]


class QBinaryOp(QuantizedResultOp):
    """Elementwise with broadcasting on two quantized tensors of per-tensor parameters."""

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    a_scale = prop_def(DenseArrayBase)
    a_zero_point = prop_def(DenseArrayBase[I64])
    b_scale = prop_def(DenseArrayBase)
    b_zero_point = prop_def(DenseArrayBase[I64])

    def infer_shape(self) -> shapes.Shape:
        check_quantized(self, 0, 1)
        check_one_element_type(self, 0, 1)
        for prefix, element in zip("aby", (element_of(self.lhs), element_of(self.rhs), self.element), strict=True):
            check_params(self, prefix, element)
        return shapes.broadcast(self.operand_shape(0), self.operand_shape(1))


@irdl_op_definition
class QAddOp(QBinaryOp):
    """onnxruntime QLinearAdd: ``a + b`` requantized to ``y``. With the fixed-point
    parameters (``left_shift``, ``a_``/``b_``/``y_multiplier`` and ``_shift``), TFLite's int8
    ADD: each centred operand shifted left by ``left_shift`` and scaled by its multiplier, the
    sum scaled by ``y_multiplier``, all with TFLite's ``MultiplyByQuantizedMultiplier``."""

    name = "nn.qadd"
    left_shift = opt_prop_def(IntegerAttr[I64])
    a_multiplier = opt_prop_def(DenseArrayBase[I64])
    a_shift = opt_prop_def(DenseArrayBase[I64])
    b_multiplier = opt_prop_def(DenseArrayBase[I64])
    b_shift = opt_prop_def(DenseArrayBase[I64])
    y_multiplier = opt_prop_def(DenseArrayBase[I64])
    y_shift = opt_prop_def(DenseArrayBase[I64])

    def infer_shape(self) -> shapes.Shape:
        out = super().infer_shape()
        fixed = [check_fixed_point(self, prefix) for prefix in "aby"]
        if any(fixed) and not (all(fixed) and self.left_shift is not None):
            raise ValueError("the fixed-point parameters (left_shift, a_, b_ and y_multiplier and _shift) come together")
        if self.left_shift is not None and not 0 <= self.left_shift.value.data <= 30:
            raise ValueError(f"left_shift must lie in [0, 30], got {self.left_shift.value.data}")
        return out


@irdl_op_definition
class QMulOp(QBinaryOp):
    """onnxruntime QLinearMul: ``a * b`` requantized to ``y``."""

    name = "nn.qmul"


@irdl_op_definition
class QConcatOp(QuantizedResultOp):
    """onnxruntime QLinearConcat: each input requantized to ``y``, joined along ``axis``;
    ``x_scale``/``x_zero_point`` hold one parameter per input."""

    name = "nn.qconcat"
    inputs = var_operand_def(TensorType)
    result = result_def(TensorType)
    x_scale = prop_def(DenseArrayBase)
    x_zero_point = prop_def(DenseArrayBase[I64])
    axis = prop_def(IntegerAttr[I64])

    def infer_shape(self) -> shapes.Shape:
        check_quantized(self, *range(len(self.inputs)))
        check_one_element_type(self, *range(len(self.inputs)))
        check_params(self, "y", self.element)
        if len(floats(self.x_scale)) != len(self.inputs) or len(_ints(self.x_zero_point)) != len(self.inputs):
            raise ValueError(f"x_scale and x_zero_point must have one element per input ({len(self.inputs)})")
        check_zero_points("x", _ints(self.x_zero_point), element_of(self.inputs[0]))
        return shapes.concat([static_shape(v.type) for v in self.inputs], self.axis.value.data)

    def macs(self) -> int:
        return prod(self.out_shape)


@irdl_op_definition
class QLookupOp(ComputeOp):
    """A quantized elementwise function as a table: element ``q`` of the input (i8 or ui8)
    becomes ``table[q - lowest]``, ``lowest`` the input type's smallest value (-128 or 0);
    the table holds one value of ``element`` for each of the 256 inputs. It stands for
    dequantize, float elementwise ops, quantize, with the same numbers."""

    name = "nn.qlookup"
    input = operand_def(TensorType)
    result = result_def(TensorType)
    table = prop_def(DenseArrayBase[I64])
    element = prop_def(IntegerType)

    def result_element_type(self) -> Attribute:
        return self.element

    def infer_shape(self) -> shapes.Shape:
        check_quantized(self, 0)
        if self.element not in QUANT_TYPES:
            raise ValueError(f"element must be i8 or ui8, got {self.element}")
        table = _ints(self.table)
        info = (-128, 127) if self.element == i8 else (0, 255)
        if len(table) != 256 or not all(info[0] <= v <= info[1] for v in table):
            raise ValueError(f"table must hold 256 values of {self.element}")
        return self.operand_shape(0)


@irdl_op_definition
class QSoftmaxOp(QuantizedResultOp):
    """TFLite's int8 SOFTMAX along ``axis``, as TFLite Micro's reference kernel computes it
    (int8 in, int8 or int16 out): each element's difference from the largest along the axis,
    scaled into Q5.26 by ``x_multiplier``/``x_shift`` (TFLite's ``PreprocessSoftmaxScaling`` of
    ``beta * x_scale``, a left shift), gemmlowp's fixed-point exponential, summed in Q12.19,
    times the fixed-point reciprocal of the sum; differences below ``-floor(31 * 2^26 /
    2^x_shift)`` count as 0. An i8 result has scale 1/256 and zero point -128, an i16 one scale
    1/65536 (within TFLite's 0.1 %) and zero point -32768, as TFLite requires;
    ``x_scale``/``x_zero_point`` stay for what reads them."""

    name = "nn.qsoftmax"
    ELEMENTS: ClassVar[tuple[Attribute, ...]] = (i8, i16)
    input = operand_def(TensorType)
    result = result_def(TensorType)
    x_scale = prop_def(DenseArrayBase)
    x_zero_point = prop_def(DenseArrayBase[I64])
    x_multiplier = prop_def(DenseArrayBase[I64])
    x_shift = prop_def(DenseArrayBase[I64])
    axis = opt_prop_def(IntegerAttr[I64], default_value=IntegerAttr(-1, i64))

    def infer_shape(self) -> shapes.Shape:
        if element_of(self.input) != i8:
            raise ValueError(f"input must be an i8 tensor, got {self.input.type}")
        x = self.operand_shape(0)
        shapes.normalize_axis(self.axis.value.data, len(x))
        check_params(self, "x", i8)
        check_params(self, "y", self.element)
        bits = self.element.width.data
        tolerance = 0.0 if bits == 8 else 1e-3  # TFLite Micro: 1/256 exactly, 1/65536 within 0.1 %
        if abs(floats(self.y_scale)[0] * 2**bits - 1) > tolerance or _ints(self.y_zero_point) != (-(2 ** (bits - 1)),):
            raise ValueError(f"the result must have y_scale 1/{2**bits} and y_zero_point {-(2 ** (bits - 1))} (TFLite's int8 softmax to {self.element})")
        multiplier, shift = _ints(self.x_multiplier), _ints(self.x_shift)
        if len(multiplier) != 1 or len(shift) != 1 or not 0 <= multiplier[0] < 2**31 or not 0 <= shift[0] <= 31:
            raise ValueError("x_multiplier must be one value in [0, 2^31) and x_shift one in [0, 31]")
        return x

    def macs(self) -> int:
        return 3 * prod(self.out_shape)


TFLITE_INTEGERS: tuple[Attribute, ...] = (i8, ui8, i16, i32)
"""Element types TFLite's integer QUANTIZE reads and writes."""


@irdl_op_definition
class QRequantizeOp(QuantizedResultOp):
    """TFLite's QUANTIZE of an integer tensor (``reference_ops::Requantize``), elementwise:
    ``x - x_zero_point`` (as int32) times the Q31 ``y_multiplier`` with ``y_shift`` (TFLite's
    ``MultiplyByQuantizedMultiplier`` of ``x_scale / y_scale``), plus ``y_zero_point`` (wrapping
    as int32), saturated to ``element``. Input and result are i8, ui8, i16 or i32."""

    name = "nn.qrequantize"
    ELEMENTS: ClassVar[tuple[Attribute, ...]] = TFLITE_INTEGERS
    input = operand_def(TensorType)
    result = result_def(TensorType)
    x_scale = prop_def(DenseArrayBase)
    x_zero_point = prop_def(DenseArrayBase[I64])
    y_multiplier = prop_def(DenseArrayBase[I64])
    y_shift = prop_def(DenseArrayBase[I64])

    def infer_shape(self) -> shapes.Shape:
        if element_of(self.input) not in TFLITE_INTEGERS:
            raise ValueError(f"input must be an i8, ui8, i16 or i32 tensor, got {self.input.type}")
        check_params(self, "x", element_of(self.input))
        check_params(self, "y", self.element)
        check_fixed_point(self, "y")
        return self.operand_shape(0)


SVDF_STATES: tuple[Attribute, ...] = (i8, i16)
"""Element types of an integer SVDF's state and time weights (TFLite Micro's two variants)."""


def svdf_filters_and_memory(state: shapes.Shape, filters: int, batch: int) -> tuple[int, int]:
    """The filters and memory length of an SVDF state of shape [batch, filters * memory]."""
    if len(state) != 2 or state[0] != batch or filters == 0 or state[1] % filters:
        raise ValueError(f"state must have shape [{batch}, {filters} * memory], got {shapes.format_shape(state)}")
    return filters, state[1] // filters


@irdl_op_definition
class QSvdfStateOp(ComputeOp):
    """The state update of TFLite's integer SVDF (``EvalIntegerSvdfReference``): ``state``
    [batch, filters * memory] (i8 or i16, each filter's ``memory`` values in a row, oldest
    first) shifted one place left, each filter's newest value the product of the i8 input
    [batch, input] (less ``x_zero_point``) with its row of the i8 ``weights_feature``
    [filters, input], summed in int32, times ``state_multiplier``/``state_shift``
    (``MultiplyByQuantizedMultiplier`` of ``x_scale * w_scale / state_scale``), saturated to the
    state's type, plus ``state_zero_point`` (wrapping to the state's type, as TFLite Micro's
    store does). The result is the state after the call."""

    name = "nn.qsvdf_state"
    input = operand_def(TensorType)
    weights_feature = operand_def(TensorType)
    state = operand_def(TensorType)
    result = result_def(TensorType)
    x_scale = prop_def(DenseArrayBase)
    x_zero_point = prop_def(DenseArrayBase[I64])
    w_scale = prop_def(DenseArrayBase)
    w_zero_point = prop_def(DenseArrayBase[I64])
    state_scale = prop_def(DenseArrayBase)
    state_zero_point = prop_def(DenseArrayBase[I64])
    state_multiplier = prop_def(DenseArrayBase[I64])
    state_shift = prop_def(DenseArrayBase[I64])

    def result_element_type(self) -> Attribute:
        return element_of(self.state)

    def infer_shape(self) -> shapes.Shape:
        if element_of(self.input) != i8 or element_of(self.weights_feature) != i8 or element_of(self.state) not in SVDF_STATES:
            raise ValueError("input and weights_feature must be i8 tensors, state an i8 or i16 one")
        x, w, state = self.operand_shape(0), self.operand_shape(1), self.operand_shape(2)
        if len(x) != 2 or len(w) != 2 or w[1] != x[1]:
            raise ValueError(f"input [batch, input] and weights_feature [filters, input] disagree: {shapes.format_shape(x)} and {shapes.format_shape(w)}")
        svdf_filters_and_memory(state, w[0], x[0])
        check_params(self, "x", i8)
        check_params(self, "w", i8)
        check_params(self, "state", element_of(self.state))
        check_fixed_point(self, "state")
        if "state_multiplier" not in self.properties:
            raise ValueError("state_multiplier and state_shift are required")
        return state

    def macs(self) -> int:
        return prod(self.operand_shape(1)) * self.operand_shape(0)[0]


@irdl_op_definition
class QSvdfOp(QuantizedResultOp):
    """The output of TFLite's integer SVDF from the state after the call (``nn.qsvdf_state``):
    for each filter, its ``memory`` state values (less ``state_zero_point``) times its row of
    ``weights_time`` [filters, memory] (the state's type), summed in int32; the i32 ``bias``
    [units] plus the sums of each unit's ``rank`` consecutive filters; times
    ``y_multiplier``/``y_shift`` (``MultiplyByQuantizedMultiplier`` of ``state_scale * w_scale /
    y_scale``), plus ``y_zero_point``, saturated to i8. TFLite Micro applies no fused activation
    to it. The result is [batch, filters / rank]."""

    name = "nn.qsvdf"
    ELEMENTS: ClassVar[tuple[Attribute, ...]] = (i8,)
    state = operand_def(TensorType)
    weights_time = operand_def(TensorType)
    bias = opt_operand_def(TensorType)
    result = result_def(TensorType)
    rank = prop_def(IntegerAttr[I64])
    state_scale = prop_def(DenseArrayBase)
    state_zero_point = prop_def(DenseArrayBase[I64])
    w_scale = prop_def(DenseArrayBase)
    w_zero_point = prop_def(DenseArrayBase[I64])
    y_multiplier = prop_def(DenseArrayBase[I64])
    y_shift = prop_def(DenseArrayBase[I64])

    def infer_shape(self) -> shapes.Shape:
        element = element_of(self.state)
        if element not in SVDF_STATES or element_of(self.weights_time) != element:
            raise ValueError(f"state and weights_time must be i8 or i16 tensors of one type, got {self.state.type} and {self.weights_time.type}")
        state, w = self.operand_shape(0), self.operand_shape(1)
        if len(w) != 2 or len(state) != 2:
            raise ValueError(f"weights_time must be [filters, memory], got {shapes.format_shape(w)}")
        _, memory = svdf_filters_and_memory(state, w[0], state[0])
        if memory != w[1]:
            raise ValueError(f"state {shapes.format_shape(state)} does not hold {w[0]} filters of memory {w[1]}")
        rank = self.rank.value.data
        if rank < 1 or w[0] % rank:
            raise ValueError(f"rank {rank} does not divide the {w[0]} filters")
        units = w[0] // rank
        if self.bias is not None and (element_of(self.bias) != i32 or self.operand_shape(2) != (units,)):
            raise ValueError(f"bias must be an i32 tensor of shape [{units}]")
        check_params(self, "state", element)
        check_params(self, "w", element)
        check_params(self, "y", i8)
        check_fixed_point(self, "y")
        return (state[0], units)

    def macs(self) -> int:
        return prod(self.operand_shape(0))


# --- integer products -------------------------------------------------------------------


def check_zero_point(op: ComputeOp, data: int, zero_point: int) -> None:
    """Operand ``zero_point`` holds one element of operand ``data``'s (quantized) type."""
    data_type, zero_type = op.operands[data].type, op.operands[zero_point].type
    if prod(static_shape(zero_type)) != 1 or zero_type.get_element_type() != data_type.get_element_type():
        raise ValueError(f"operand #{zero_point} must be one {data_type.get_element_type()} element, got {zero_type}")


@irdl_op_definition
class MatmulIntegerOp(ComputeOp):
    """ONNX MatMulInteger: numpy matmul of ``lhs - lhs_zero_point`` and ``rhs -
    rhs_zero_point`` accumulated in i32; i8 or ui8 data, each zero point a one-element
    tensor of its data's type (computed at run time, as DynamicQuantizeLinear gives it)."""

    name = "nn.matmul_integer"
    RESULT_ELEMENT_TYPE: ClassVar[Attribute] = i32
    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    lhs_zero_point = operand_def(TensorType)
    rhs_zero_point = operand_def(TensorType)
    result = result_def(TensorType)

    def infer_shape(self) -> shapes.Shape:
        check_quantized(self, 0, 1)
        check_zero_point(self, 0, 2)
        check_zero_point(self, 1, 3)
        return shapes.matmul(self.operand_shape(0), self.operand_shape(1))

    def macs(self) -> int:
        return prod(self.out_shape) * self.operand_shape(0)[-1]


@irdl_op_definition
class ConvIntegerOp(ConvWindowOp):
    """ONNX ConvInteger over NCHW/OIHW with ``nn.conv2d``'s window properties: the i32 sums of
    ``(input - input_zero_point) * (weight - weight_zero_point)``; padding counts as the input
    zero point. Zero points are one-element tensors of their data's type."""

    name = "nn.conv_integer"
    RESULT_ELEMENT_TYPE: ClassVar[Attribute] = i32
    input = operand_def(TensorType)
    weight = operand_def(TensorType)
    input_zero_point = operand_def(TensorType)
    weight_zero_point = operand_def(TensorType)
    result = result_def(TensorType)

    def infer_shape(self) -> shapes.Shape:
        check_quantized(self, 0, 1)
        check_zero_point(self, 0, 2)
        check_zero_point(self, 1, 3)
        return self.window_shape()


QUANT_OPS = (QuantizeOp, DequantizeOp, QConv2dOp, QGemmOp, QAddOp, QMulOp, QConcatOp, QLookupOp, QSoftmaxOp, QRequantizeOp,
             QSvdfStateOp, QSvdfOp, MatmulIntegerOp, ConvIntegerOp)  # fmt: skip
