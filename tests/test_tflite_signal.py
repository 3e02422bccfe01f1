"""TFLite Micro's signal library (its audio front end's custom operators) against TFLite Micro
bit for bit: TFLM's example audio_preprocessor_int8 (window, FFT auto scale, int16 RFFT,
energy, CAST, STRIDED_SLICE, int32 CONCATENATION, filter bank, square root, spectral
subtraction, PCAN, log, then int32 MUL, ADD, DIV, MINIMUM, MAXIMUM and a CAST to int8).

Spectral subtraction keeps its noise estimate inside its kernel between invocations; cfmem
imports it as an extra function input and result (zeros to start, as TFLM resets it). The
model runs six consecutive invocations (quiet and loud noise, silence, a full-scale sine, a
constant -32768) in one TFLM interpreter and in the reference and the checking flat
interpreter, each fed its own previous state: every output and every state (TFLM's copy of the
estimate in the operator's second output, read back with ``kPreserveAllTensors``) is the same
bytes. Each signal kernel also matches TFLM's own intermediate tensors call by call, and the
scalar kernels (square root, log, PCAN's gain) match a transcription of TFLM's C loops on
hostile values. A state not carried between calls differs, so the comparison can fail.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("tflite_micro")

from test_tflite_import import import_bytes, run_both  # noqa: E402

from cfmem.dialects import nn_signal as ns  # noqa: E402
from cfmem.importers.tflite import initial_state  # noqa: E402
from cfmem.interp.kernels import signal as sg  # noqa: E402
from cfmem.testing import tflite_models as tm  # noqa: E402
from cfmem.testing.tflm_models import example_models  # noqa: E402
from cfmem.tflite.model_file import parse_tflite  # noqa: E402

NOISE_TENSOR = 32
"""The spectral subtraction's second output: TFLM's copy of the noise estimate after a call."""


def frames() -> list[np.ndarray]:
    rng = np.random.default_rng(1)
    t = np.arange(480)
    noise = [rng.normal(0, s, 480).clip(-32768, 32767).astype(np.int16) for s in (300, 3000, 20000)]
    sine = (32767 * np.sin(t / 3.0)).astype(np.int16)
    return [x.reshape(1, 480) for x in (noise[0], np.zeros(480, np.int16), noise[1], noise[2], sine, np.full(480, -32768, np.int16))]


@pytest.fixture(scope="module")
def preprocessor(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("audio")
    data = example_models()["audio_preprocessor_int8"].read_bytes()
    _, imported = import_bytes(data, tmp_path)
    inputs = [[x] for x in frames()]
    tensors = list(range(len(parse_tflite(data).subgraphs[0].tensors)))
    return data, imported, tmp_path, inputs, tm.tflm_invocations(data, inputs, tensors=tensors)


def cfmem_calls(imported, tmp_path: Path, data: bytes, inputs, carry: bool = True):
    """Both interpreters' (output, state) per call, each fed its own state results."""
    start = initial_state(parse_tflite(data))
    golden_state, flat_state, calls = start, start, []
    for x in inputs:
        golden = run_both(imported, tmp_path, [*x, *golden_state])[0]
        flat = run_both(imported, tmp_path, [*x, *flat_state])[1]
        calls.append((golden, flat))
        if carry:
            golden_state, flat_state = golden[1:], flat[1:]
    return calls


def assert_same(calls, want) -> None:
    for k, ((golden, flat), tflm) in enumerate(zip(calls, want, strict=True)):
        expected = [tflm[0], tflm[1 + NOISE_TENSOR]]
        for got in (golden, flat):
            for g, w in zip(got, expected, strict=True):
                assert g.dtype == w.dtype and g.tobytes() == w.reshape(g.shape).tobytes(), f"call {k}"


def test_imports_with_the_noise_estimate_as_state(preprocessor):
    data, imported, *_ = preprocessor
    fn = next(op for op in imported.module.ops if op.name == "func.func")
    names = [a.data for a in fn.attributes["cfmem.input_names"].data]
    results = [a.data for a in fn.attributes["cfmem.result_names"].data]
    assert names[1:] == ["signal_filter_bank_spectral_subtraction_state"]
    assert results[1:] == ["signal_filter_bank_spectral_subtraction_state_next"]
    ops = {type(op) for op in imported.module.walk()}
    assert set(ns.SIGNAL_OPS) <= ops
    assert [s.dtype for s in initial_state(parse_tflite(data))] == [np.uint32]


def test_matches_tflm_over_consecutive_calls(preprocessor):
    data, imported, tmp_path, inputs, want = preprocessor
    assert_same(cfmem_calls(imported, tmp_path, data, inputs), want)
    assert len({w[0].tobytes() for w in want}) == len(want)
    assert not np.array_equal(want[0][1 + NOISE_TENSOR], want[2][1 + NOISE_TENSOR])


def test_a_state_not_carried_between_calls_differs(preprocessor):
    data, imported, tmp_path, inputs, want = preprocessor
    calls = cfmem_calls(imported, tmp_path, data, inputs[:3], carry=False)
    assert_same(calls[:1], want[:1])
    with pytest.raises(AssertionError):
        assert_same(calls[2:3], want[2:3])


def constant(data: bytes, index: int) -> np.ndarray:
    model = parse_tflite(data)
    tensor = model.subgraphs[0].tensors[index]
    dtype = {7: np.int16, 2: np.int32}[tensor.type]
    return np.frombuffer(bytes(np.asarray(model.buffers[tensor.buffer].data, np.uint8)), dtype)


def test_each_kernel_matches_tflm_intermediate_tensors(preprocessor):
    """Each kernel on TFLM's own input tensor gives TFLM's output tensor, call by call."""
    data, _, _, inputs, want = preprocessor
    options = dict(smoothing=409, one_minus_smoothing=15975, alternate_smoothing=983, alternate_one_minus_smoothing=15401,
                   min_signal_remaining=819, smoothing_bits=10, spectral_subtraction_bits=14, clamping=False)  # fmt: skip
    noise = np.zeros(40, np.uint32)
    for (x,), run in zip(inputs, want, strict=True):
        t = run[1:]
        scaled, bits = sg.fft_auto_scale(t[20])
        energy = sg.energy(t[23], 5, 241)
        out, noise = sg.spectral_subtraction(t[30], noise, **options)
        pairs = [(sg.window(x, constant(data, 1), 12), t[19]), (scaled, t[21]), (bits, t[22]),
                 (sg.rfft_int16(t[21], 512), t[23]), (energy[5:241], t[24][5:241]),
                 (sg.filter_bank(t[28], *(constant(data, k) for k in (13, 12, 11, 10, 9)), 40), t[29]),
                 (sg.filter_bank_square_root(t[29], int(t[22])), t[30]), (out, t[31]), (noise, t[32]),
                 (sg.pcan(t[31], t[32], constant(data, 8), 6), t[33]), (sg.filter_bank_log(t[33], 64, 3), t[34])]  # fmt: skip
        for k, (got, expected) in enumerate(pairs):
            assert got.dtype == expected.dtype and got.tobytes() == expected.reshape(got.shape).tobytes(), k


# --- scalar transcriptions of TFLM's C loops ----------------------------------------------------


def sqrt_c(num: int, width: int) -> int:
    """``Sqrt32`` / ``Sqrt64`` of ``signal/src/square_root_*.cc``, one value."""
    if num == 0:
        return 0
    res, top = 0, (width - num.bit_length()) | 1
    bit = 1 << (width - 1 - top)
    for _ in range((width - 1 - top) // 2 + 1):
        if num >= res + bit:
            num, res = num - (res + bit), (res >> 1) + bit
        else:
            res >>= 1
        bit >>= 2
    return res + 1 if num > res and res != (1 << width // 2) - 1 else res


def log32_c(x: int, out_scale: int) -> int:
    """``Log32`` of ``signal/src/log.cc``, one value above 1."""
    integer = x.bit_length() - 1
    frac = x - (1 << integer)
    frac = frac << (16 - integer) if integer < 16 else frac >> (integer - 16)
    base = frac >> 9
    c0, c1 = int(sg.LOG_LUT[base]), int(sg.LOG_LUT[base + 1])
    fraction = (frac + c0 + (((c1 - c0) * (frac - 512 * base)) >> 16)) & 0xFFFFFFFF
    log2 = ((integer << 16) + fraction) & 0xFFFFFFFF
    loge = ((45426 * log2 + 32768) >> 16) & 0xFFFFFFFF
    return (((out_scale * loge) & 0xFFFFFFFF) + 32768 & 0xFFFFFFFF) >> 16


def hostile_u32() -> np.ndarray:
    edges = [0, 1, 2, 3, 4, 7, 8, 2047, 2048, 2049, 65535, 65536, 65537, (1 << 31) - 1, 1 << 31, (1 << 32) - 1]
    rng = np.random.default_rng(3)
    return np.array(edges + list(rng.integers(0, 1 << 32, 200, dtype=np.uint64)), dtype=np.uint64)


def test_square_root_matches_tflm_transcription():
    small = hostile_u32()
    large = np.concatenate([small << np.uint64(32), small | np.uint64(1 << 32), np.array([2**64 - 1], np.uint64)])
    values = np.concatenate([small, large])
    want = [sqrt_c(int(v), 32) if int(v) >> 32 == 0 else sqrt_c(int(v), 64) for v in values]
    assert sg.filter_bank_square_root(values, 0).tolist() == [w & 0xFFFFFFFF for w in want]
    wrong = [int(np.sqrt(float(v))) for v in values]  # truncating, unrounded
    assert sg.filter_bank_square_root(values, 0).tolist() != wrong


def test_log_matches_tflm_transcription():
    values = hostile_u32()
    values = values[values > 1]
    for scale in (1, 64, 1 << 16, (1 << 32) - 1):
        assert sg.log32(values, scale).tolist() == [log32_c(int(v), scale) for v in values]


def test_pcan_gain_matches_tflm_transcription(preprocessor):
    data = preprocessor[0]
    lut = constant(data, 8).astype(np.int64)

    def gain_c(x: int) -> int:
        if x <= 2:
            return int(lut[x])
        interval = x.bit_length()
        base = 4 * interval - 6
        frac = ((x << (11 - interval)) & 0xFFFFFFFF if interval < 11 else x >> (interval - 11)) & 0x3FF
        result = (int(lut[base + 2]) * frac) >> 5
        result = ((result + ((int(lut[base + 1]) & 0xFFFFFFFF) << 5)) + 2**31) % 2**32 - 2**31
        result = ((result * frac) + 2**31) % 2**32 - 2**31
        result = ((result + (1 << 14)) >> 15) + int(lut[base])
        return ((result + 2**15) % 2**16 - 2**15) & 0xFFFFFFFF

    values = hostile_u32()
    assert sg.wide_dynamic_function(values, constant(data, 8)).tolist() == [gain_c(int(v)) for v in values]


def test_linalg_lowering_refuses_the_signal_ops(preprocessor):
    from cfmem.errors import CfmemError
    from cfmem.pipeline import apply_pipeline, lower_model

    _, imported, tmp_path, *_ = preprocessor
    flat = lower_model(imported.module, "nn-plan-memory", tmp_path)
    with pytest.raises(CfmemError, match=r"nn-lower-to-linalg: 'nn.signal_\w+' \(TFLite Micro's signal library\) is not supported"):
        apply_pipeline(flat, "nn-lower-to-linalg", "m.mlir", tmp_path)


def with_rfft_options(data: bytes, options: dict) -> bytes:
    """``data`` with the RFFT's flexbuffer options replaced by ``options``."""
    import flatbuffers
    from flatbuffers import flexbuffers

    from cfmem.tflite.model_file import FILE_IDENTIFIER

    model = parse_tflite(data)
    rfft = next(op for op in model.subgraphs[0].operators if model.operatorCodes[op.opcodeIndex].customCode == b"SignalRfft")
    rfft.customOptions = list(flexbuffers.Dumps(options))
    builder = flatbuffers.Builder(len(data) + 1024)
    builder.Finish(model.Pack(builder), file_identifier=FILE_IDENTIFIER)
    return bytes(builder.Output())


@pytest.mark.parametrize(("options", "message"), [
    ({"T": 7, "fft_length": 500}, "fft_length must be a power of two"),
    ({"T": 7, "fft_length": 256}, "fft_length must be a power of two, at least 4 and the rows' length"),
    ({"T": 1, "fft_length": 512}, "only the int16 RFFT is supported"),
    ({"T": 7}, "custom option 'fft_length' is missing"),
])  # fmt: skip
def test_the_importer_refuses_what_tflm_does_not_run(preprocessor, tmp_path, options, message):
    from cfmem.importers.tflite import TfliteImportError

    with pytest.raises(TfliteImportError, match=message):
        import_bytes(with_rfft_options(preprocessor[0], options), tmp_path)


def test_integer_division_truncates_toward_zero_as_c():
    from cfmem.interp.kernels.elementwise import divide

    a = np.array([7, -7, 7, -7, 0, -2**31, 2**31 - 1, -1, 5], np.int32)
    b = np.array([2, 2, -2, -2, 3, 7, -3, 2, 0], np.int32)
    assert divide(None, a, b).tolist() == [3, -3, -3, 3, 0, -306783378, -715827882, 0, 0]
    assert divide(None, a, b).dtype == np.int32
    assert (a // np.where(b == 0, 1, b)).tolist()[:4] != divide(None, a, b).tolist()[:4]  # floor division differs
