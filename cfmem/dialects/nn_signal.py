"""TFLite Micro's signal library operators (its audio front end's custom operators) as nn ops.

Each op is one of TFLM's ``signal/micro/kernels`` kernels, computed bit for bit by
:mod:`cfmem.interp.kernels.signal`; the options TFLM reads from the operator's flexbuffer are
integer properties. Samples are i16, energies ui32, filter-bank sums ui64 (unsigned element
types: the kernels' C types). Two TFLM operators with two outputs are two ops each:
``nn.signal_fft_auto_scale`` and ``nn.signal_fft_scale_bits`` (FftAutoScale's samples and its
shift), ``nn.signal_noise_estimate`` and ``nn.signal_spectral_subtraction`` (the noise estimate
after the call, which TFLM keeps inside the kernel between invocations, and the output
computed from it). Shapes are those TFLM's kernels accept: one-dimensional channel vectors,
and for the window and the FFT any number of leading rows.
"""

from __future__ import annotations

from math import prod
from typing import ClassVar

from xdsl.dialects.builtin import I64, IntegerAttr, IntegerType, Signedness, TensorType, i16, i32
from xdsl.ir import Attribute
from xdsl.irdl import irdl_op_definition, operand_def, prop_def, result_def

from cfmem.dialects import shapes
from cfmem.dialects.nn_compute.base import ComputeOp

ui32 = IntegerType(32, Signedness.UNSIGNED)
ui64 = IntegerType(64, Signedness.UNSIGNED)


def _element(op: ComputeOp, k: int) -> Attribute:
    return op.operands[k].type.get_element_type()  # type: ignore[attr-defined]


def _expect(op: ComputeOp, k: int, element: Attribute, rank: int | None = None) -> shapes.Shape:
    """Operand ``k``'s shape, after checking its element type (and rank)."""
    shape = op.operand_shape(k)
    if _element(op, k) != element or (rank is not None and len(shape) != rank):
        ranked = f"rank-{rank} " if rank is not None else ""
        raise ValueError(f"operand #{k} must be a {ranked}{element} tensor, got {op.operands[k].type}")
    return shape


def _int(op: ComputeOp, name: str) -> int:
    return int(op.properties[name].value.data)  # type: ignore[attr-defined]


class SignalOp(ComputeOp):
    """A signal op: its result element type is ``RESULT``."""

    RESULT: ClassVar[Attribute] = i16

    def result_element_type(self) -> Attribute:
        return self.RESULT

    def macs(self) -> int:
        return prod(self.out_shape)


@irdl_op_definition
class SignalWindowOp(SignalOp):
    """``Window``: each run of ``len(weights)`` i16 samples times the i16 weights, as int32,
    shifted right by ``shift`` (arithmetic), saturated to i16."""

    name = "nn.signal_window"
    input = operand_def(TensorType)
    weights = operand_def(TensorType)
    result = result_def(TensorType)
    shift = prop_def(IntegerAttr[I64])

    def infer_shape(self) -> shapes.Shape:
        x, (n,) = _expect(self, 0, i16), _expect(self, 1, i16, 1)
        if n == 0 or prod(x) % n:
            raise ValueError(f"the input's {prod(x)} samples are no whole number of windows of {n}")
        if not 0 <= _int(self, "shift") <= 31:
            raise ValueError("shift must be in [0, 31]")
        return x


@irdl_op_definition
class SignalFftAutoScaleOp(SignalOp):
    """``FftAutoScale``'s samples: the i16 input times ``1 << bits`` (wrapping), ``bits`` as
    ``nn.signal_fft_scale_bits`` computes it."""

    name = "nn.signal_fft_auto_scale"
    input = operand_def(TensorType)
    result = result_def(TensorType)

    def infer_shape(self) -> shapes.Shape:
        return _expect(self, 0, i16)


@irdl_op_definition
class SignalFftScaleBitsOp(SignalOp):
    """``FftAutoScale``'s shift, an i32 scalar: ``15 - bit length of MaxAbs16(input)``, at
    least 0."""

    name = "nn.signal_fft_scale_bits"
    RESULT: ClassVar[Attribute] = i32
    input = operand_def(TensorType)
    result = result_def(TensorType)

    def infer_shape(self) -> shapes.Shape:
        _expect(self, 0, i16)
        return ()


@irdl_op_definition
class SignalRfftOp(SignalOp):
    """``Rfft`` (int16): each row of the i16 input zero-padded to ``fft_length`` (a power of two
    at least 4), kiss_fft's fixed-point real FFT: ``fft_length / 2 + 1`` bins as interleaved
    (real, imaginary) i16 pairs."""

    name = "nn.signal_rfft"
    input = operand_def(TensorType)
    result = result_def(TensorType)
    fft_length = prop_def(IntegerAttr[I64])

    def infer_shape(self) -> shapes.Shape:
        x = _expect(self, 0, i16)
        n = _int(self, "fft_length")
        if n < 4 or n & (n - 1) or not x or x[-1] > n:
            raise ValueError(f"fft_length must be a power of two, at least 4 and the rows' length, got {n} for {shapes.format_shape(x)}")
        return (*x[:-1], n + 2)

    def macs(self) -> int:
        n = _int(self, "fft_length")
        return prod(self.out_shape) // (n + 2) * n * max(1, n.bit_length())


@irdl_op_definition
class SignalEnergyOp(SignalOp):
    """``Energy``: ``re**2 + im**2`` (ui32) of the bins ``start_index`` to ``end_index`` of
    interleaved i16 pairs; the other bins are 0 (TFLM leaves them unwritten)."""

    name = "nn.signal_energy"
    RESULT: ClassVar[Attribute] = ui32
    input = operand_def(TensorType)
    result = result_def(TensorType)
    start_index = prop_def(IntegerAttr[I64])
    end_index = prop_def(IntegerAttr[I64])

    def infer_shape(self) -> shapes.Shape:
        (n,) = _expect(self, 0, i16, 1)
        if n % 2 or not 0 <= _int(self, "start_index") <= _int(self, "end_index") <= n // 2:
            raise ValueError(f"need an even number of values and 0 <= start_index <= end_index <= bins, got {n} values")
        return (n // 2,)


@irdl_op_definition
class SignalFilterBankOp(SignalOp):
    """``FilterBank``: ``num_channels`` ui64 sums; channel ``c`` adds its weighted ui32 input
    run and channel ``c - 1``'s unweighted one (i16 weights, ``channel_frequency_starts``,
    ``channel_weight_starts``, ``channel_widths`` for ``num_channels + 1`` channels)."""

    name = "nn.signal_filter_bank"
    RESULT: ClassVar[Attribute] = ui64
    input = operand_def(TensorType)
    weights = operand_def(TensorType)
    unweights = operand_def(TensorType)
    frequency_starts = operand_def(TensorType)
    weight_starts = operand_def(TensorType)
    widths = operand_def(TensorType)
    result = result_def(TensorType)
    num_channels = prop_def(IntegerAttr[I64])

    def infer_shape(self) -> shapes.Shape:
        _expect(self, 0, ui32, 1)
        (w,), (u,) = _expect(self, 1, i16, 1), _expect(self, 2, i16, 1)
        channels = _int(self, "num_channels")
        if w != u or channels < 1:
            raise ValueError("weights and unweights must agree and num_channels be positive")
        for k in (3, 4, 5):
            if _expect(self, k, i16, 1) != (channels + 1,):
                raise ValueError(f"operand #{k} must have num_channels + 1 = {channels + 1} entries")
        return (channels,)


@irdl_op_definition
class SignalFilterBankSquareRootOp(SignalOp):
    """``FilterBankSquareRoot``: TFLM's rounded integer square root of each ui64 sum, shifted
    right by the i32 scalar ``scale_bits``, as ui32."""

    name = "nn.signal_filter_bank_square_root"
    RESULT: ClassVar[Attribute] = ui32
    input = operand_def(TensorType)
    scale_bits = operand_def(TensorType)
    result = result_def(TensorType)

    def infer_shape(self) -> shapes.Shape:
        if _expect(self, 1, i32) not in ((), (1,)):
            raise ValueError("scale_bits must be one i32 value")
        return _expect(self, 0, ui64, 1)


class SpectralSubtractionOp(SignalOp):
    """The options of ``FilterBankSpectralSubtraction``."""

    RESULT: ClassVar[Attribute] = ui32
    input = operand_def(TensorType)
    noise_estimate = operand_def(TensorType)
    result = result_def(TensorType)
    smoothing = prop_def(IntegerAttr[I64])
    one_minus_smoothing = prop_def(IntegerAttr[I64])
    alternate_smoothing = prop_def(IntegerAttr[I64])
    alternate_one_minus_smoothing = prop_def(IntegerAttr[I64])
    min_signal_remaining = prop_def(IntegerAttr[I64])
    smoothing_bits = prop_def(IntegerAttr[I64])
    spectral_subtraction_bits = prop_def(IntegerAttr[I64])
    clamping = prop_def(IntegerAttr[I64])

    def infer_shape(self) -> shapes.Shape:
        x = _expect(self, 0, ui32, 1)
        if _expect(self, 1, ui32, 1) != x:
            raise ValueError("input and noise_estimate must have the same shape")
        for name in ("smoothing_bits", "spectral_subtraction_bits"):
            if not 0 <= _int(self, name) <= 31:
                raise ValueError(f"{name} must be in [0, 31]")
        return x

    def options(self) -> dict[str, int]:
        names = ("smoothing", "one_minus_smoothing", "alternate_smoothing", "alternate_one_minus_smoothing",
                 "min_signal_remaining", "smoothing_bits", "spectral_subtraction_bits")  # fmt: skip
        return {**{n: _int(self, n) for n in names}, "clamping": bool(_int(self, "clamping"))}


@irdl_op_definition
class SignalNoiseEstimateOp(SpectralSubtractionOp):
    """The noise estimate ``FilterBankSpectralSubtraction`` keeps after a call, from the ui32
    input and the estimate before the call (even channels ``smoothing``, odd ones
    ``alternate_smoothing``; clamped to the scaled input when ``clamping``)."""

    name = "nn.signal_noise_estimate"


@irdl_op_definition
class SignalSpectralSubtractionOp(SpectralSubtractionOp):
    """``FilterBankSpectralSubtraction``'s output from the ui32 input and the noise estimate
    after the call (``nn.signal_noise_estimate``): the input less the estimate, at least
    ``min_signal_remaining`` of it."""

    name = "nn.signal_spectral_subtraction"


@irdl_op_definition
class SignalPcanOp(SignalOp):
    """``PCAN``: each ui32 channel times the gain of its noise estimate (the i16 ``gain_lut``,
    TFLM's ``WideDynamicFunction``), shifted right by ``snr_shift``, then ``PcanShrink``."""

    name = "nn.signal_pcan"
    RESULT: ClassVar[Attribute] = ui32
    input = operand_def(TensorType)
    noise_estimate = operand_def(TensorType)
    gain_lut = operand_def(TensorType)
    result = result_def(TensorType)
    snr_shift = prop_def(IntegerAttr[I64])

    def infer_shape(self) -> shapes.Shape:
        x = _expect(self, 0, ui32, 1)
        if _expect(self, 1, ui32, 1) != x:
            raise ValueError("input and noise_estimate must have the same shape")
        (n,) = _expect(self, 2, i16, 1)
        if n < 4 * 32 - 3 or not 0 <= _int(self, "snr_shift") <= 63:
            raise ValueError(f"gain_lut needs at least {4 * 32 - 3} entries and snr_shift be in [0, 63]")
        return x


@irdl_op_definition
class SignalFilterBankLogOp(SignalOp):
    """``FilterBankLog``: ``output_scale * ln(x << input_correction_bits)`` in TFLM's fixed
    point (``Log32``), at most 32767, 0 where the shifted input is 0 or 1; i16."""

    name = "nn.signal_filter_bank_log"
    input = operand_def(TensorType)
    result = result_def(TensorType)
    output_scale = prop_def(IntegerAttr[I64])
    input_correction_bits = prop_def(IntegerAttr[I64])

    def infer_shape(self) -> shapes.Shape:
        if not 0 <= _int(self, "input_correction_bits") <= 31:
            raise ValueError("input_correction_bits must be in [0, 31]")
        return _expect(self, 0, ui32, 1)


SIGNAL_OPS = (SignalWindowOp, SignalFftAutoScaleOp, SignalFftScaleBitsOp, SignalRfftOp, SignalEnergyOp, SignalFilterBankOp,
              SignalFilterBankSquareRootOp, SignalNoiseEstimateOp, SignalSpectralSubtractionOp, SignalPcanOp,
              SignalFilterBankLogOp)  # fmt: skip
