"""TFLite Micro's signal library custom operators (``CUSTOM:Signal...``) as ``nn.signal_*`` ops.

Each operator's options are the flexbuffer map TFLM's ``Init`` reads (by key here; TFLM reads
the same values by their position in the key-sorted map). Accepted as TFLM's kernels run
them: int16 samples, uint32 energies, uint64 filter-bank sums, and for RFFT the int16 variant
with a power-of-two ``fft_length``. ``SignalFftAutoScale`` and
``SignalFilterBankSpectralSubtraction`` have two outputs, each imported as two ops (see
:mod:`cfmem.dialects.nn_signal`).

State: spectral subtraction keeps its noise estimate inside its kernel between invocations
(TFLM's persistent buffer, zeroed when the interpreter is set up or reset), not in a
variable tensor. It becomes an extra function input and result, as a variable does
(:meth:`~cfmem.importers.tflite.core.Importer.kernel_state`); :func:`kernel_initial_state`
gives the zeros a caller starts from.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from flatbuffers import flexbuffers
from xdsl.dialects.builtin import IntegerAttr, i64

from cfmem.dialects import nn_signal as ns
from cfmem.importers.tflite.core import Importer, Operator, TfliteImportError, Value, listed
from cfmem.importers.tflite.helpers import known, out_name
from cfmem.importers.tflite.layout import Tensor
from cfmem.tflite.model_file import builtin_name

SPECTRAL_SUBTRACTION = "CUSTOM:SignalFilterBankSpectralSubtraction"
SUBTRACTION_OPTIONS = ("smoothing", "one_minus_smoothing", "alternate_smoothing", "alternate_one_minus_smoothing",
                       "min_signal_remaining", "smoothing_bits", "spectral_subtraction_bits", "clamping")  # fmt: skip


def custom_options(data: bytes, where: str = "") -> dict[str, Any]:
    """A custom operator's flexbuffer options as a dict (empty when there are none)."""
    if not data:
        return {}
    try:
        options = flexbuffers.Loads(data)
    except Exception as err:  # a malformed flexbuffer raises anything
        raise TfliteImportError(f"{where}custom options are no readable flexbuffer ({type(err).__name__})") from None
    if not isinstance(options, dict):
        raise TfliteImportError(f"{where}custom options are no flexbuffer map")
    return options


def option(op: Operator, name: str) -> int:
    options = custom_options(op.custom_options)
    if name not in options:
        raise TfliteImportError(f"custom option {name!r} is missing")
    return int(options[name])


def props(op: Operator, *names: str) -> dict:
    return {name: IntegerAttr(option(op, name), i64) for name in names}


def runtime(imp: Importer, value: Value, dtype: type, what: str) -> Any:
    """A run-time input of the given type, as an SSA value in TFLite's order."""
    if not isinstance(value, Tensor):
        raise TfliteImportError(f"{what} is a constant; cfmem folds no constant operators")
    if imp.dtype(value) != dtype:
        raise TfliteImportError(f"{what} is {imp.dtype(value)}, TFLite Micro's kernel reads {np.dtype(dtype)}")
    return imp.held(value, None, what)


def constant(imp: Importer, op: Operator, value: Value, dtype: type, what: str) -> Any:
    array = known(value, what)
    if array.dtype != dtype:
        raise TfliteImportError(f"{what} is {array.dtype}, TFLite Micro's kernel reads {np.dtype(dtype)}")
    return imp.runtime(array, f"{op.output_name()}_{what}")


def window(imp: Importer, op: Operator, inputs: list[Value]) -> list[Value]:
    x = runtime(imp, inputs[0], np.int16, "input")
    weights = constant(imp, op, inputs[1], np.int16, "weights")
    return [Tensor(imp.b.compute(ns.SignalWindowOp, [x, weights], props(op, "shift"), out_name(imp, op)))]


def fft_auto_scale(imp: Importer, op: Operator, inputs: list[Value]) -> list[Value]:
    x = runtime(imp, inputs[0], np.int16, "input")
    scaled = imp.b.compute(ns.SignalFftAutoScaleOp, [x], {}, out_name(imp, op))
    return [Tensor(scaled), Tensor(imp.b.compute(ns.SignalFftScaleBitsOp, [x], {}, out_name(imp, op, 1)))]


def rfft(imp: Importer, op: Operator, inputs: list[Value]) -> list[Value]:
    if option(op, "T") != 7:  # TensorType INT16
        raise TfliteImportError("only the int16 RFFT is supported")
    x = runtime(imp, inputs[0], np.int16, "input")
    return [Tensor(imp.b.compute(ns.SignalRfftOp, [x], props(op, "fft_length"), out_name(imp, op)))]


def energy(imp: Importer, op: Operator, inputs: list[Value]) -> list[Value]:
    x = runtime(imp, inputs[0], np.int16, "input")
    return [Tensor(imp.b.compute(ns.SignalEnergyOp, [x], props(op, "start_index", "end_index"), out_name(imp, op)))]


def filter_bank(imp: Importer, op: Operator, inputs: list[Value]) -> list[Value]:
    if len(inputs) != 6:
        raise TfliteImportError(f"SignalFilterBank takes 6 inputs, not {len(inputs)}")
    x = runtime(imp, inputs[0], np.uint32, "input")
    names = ("weights", "unweights", "frequency_starts", "weight_starts", "widths")
    config = [constant(imp, op, v, np.int16, name) for v, name in zip(inputs[1:], names)]
    return [Tensor(imp.b.compute(ns.SignalFilterBankOp, [x, *config], props(op, "num_channels"), out_name(imp, op)))]


def filter_bank_square_root(imp: Importer, op: Operator, inputs: list[Value]) -> list[Value]:
    x = runtime(imp, inputs[0], np.uint64, "input")
    bits = runtime(imp, inputs[1], np.int32, "scale_bits") if isinstance(inputs[1], Tensor) else constant(imp, op, inputs[1], np.int32, "scale_bits")
    return [Tensor(imp.b.compute(ns.SignalFilterBankSquareRootOp, [x, bits], {}, out_name(imp, op)))]


def spectral_subtraction(imp: Importer, op: Operator, inputs: list[Value]) -> list[Value]:
    x = runtime(imp, inputs[0], np.uint32, "input")
    channels = option(op, "num_channels")
    if imp.logical_shape(inputs[0]) != (channels,):
        raise TfliteImportError(f"the input must be [{channels}] (num_channels), got {list(imp.logical_shape(inputs[0]))}")
    before = imp.kernel_state(op, (channels,), np.dtype(np.uint32))
    options = props(op, *SUBTRACTION_OPTIONS)
    after = imp.b.compute(ns.SignalNoiseEstimateOp, [x, imp.held(before, None, "noise")], options, out_name(imp, op, 1))
    imp.write_kernel_state(op, Tensor(after))
    output = imp.b.compute(ns.SignalSpectralSubtractionOp, [x, after], options, out_name(imp, op))
    return [Tensor(output), Tensor(after)]


def pcan(imp: Importer, op: Operator, inputs: list[Value]) -> list[Value]:
    x = runtime(imp, inputs[0], np.uint32, "input")
    noise = runtime(imp, inputs[1], np.uint32, "noise_estimate")
    lut = constant(imp, op, inputs[2], np.int16, "gain_lut")
    return [Tensor(imp.b.compute(ns.SignalPcanOp, [x, noise, lut], props(op, "snr_shift"), out_name(imp, op)))]


def filter_bank_log(imp: Importer, op: Operator, inputs: list[Value]) -> list[Value]:
    x = runtime(imp, inputs[0], np.uint32, "input")
    options = props(op, "output_scale", "input_correction_bits")
    return [Tensor(imp.b.compute(ns.SignalFilterBankLogOp, [x], options, out_name(imp, op)))]


SIGNAL_HANDLERS = {
    "CUSTOM:SignalWindow": window,
    "CUSTOM:SignalFftAutoScale": fft_auto_scale,
    "CUSTOM:SignalRfft": rfft,
    "CUSTOM:SignalEnergy": energy,
    "CUSTOM:SignalFilterBank": filter_bank,
    "CUSTOM:SignalFilterBankSquareRoot": filter_bank_square_root,
    SPECTRAL_SUBTRACTION: spectral_subtraction,
    "CUSTOM:SignalPCAN": pcan,
    "CUSTOM:SignalFilterBankLog": filter_bank_log,
}
"""The handler of each signal library operator, by its custom code."""


def kernel_initial_state(model: Any) -> list[np.ndarray]:
    """The kernel state TFLM starts from (zeros), one array per spectral subtraction of the
    main subgraph in operator order: the imported function's state inputs after the variables'."""
    state = []
    for op in listed(model.subgraphs[0].operators):
        if builtin_name(model, op.opcodeIndex) == SPECTRAL_SUBTRACTION:
            options = bytes(np.asarray(op.customOptions, np.uint8)) if op.customOptions is not None else b""
            state.append(np.zeros(int(custom_options(options).get("num_channels", 0)), np.uint32))
    return state
