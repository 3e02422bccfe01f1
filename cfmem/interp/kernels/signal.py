"""TFLite Micro's signal library operators (``signal/src`` in its repository), bit for bit.

Each function is the integer arithmetic of one of TFLM's signal kernels on numpy arrays, in
the C types the kernel uses (int16 samples, uint32 energies, uint64 filter-bank sums) with
C's wrap-around where the C code wraps: ``window``, ``fft_auto_scale``, ``rfft_int16`` (the
int16 fixed-point kiss_fft v130 real FFT that TFLM links, its rounding transcribed),
``energy``, ``filter_bank``, ``filter_bank_square_root``, ``spectral_subtraction`` (which
returns the noise estimate TFLM keeps in the kernel between invocations), ``pcan`` and
``filter_bank_log``. Python loops remain in the square root (element by element, digit by
digit, in Python integers), the filter bank (channel by channel) and the FFT's recursion (each
group of butterflies vectorized); the rest is vectorized numpy.

``most_significant_bit`` is GCC's build of TFLM's ``MostSignificantBit32/64``: the bit length,
and the full width for 0 (``__builtin_clz`` branch).
"""

from __future__ import annotations

import functools
import math

import numpy as np

from cfmem.dialects import nn_signal as ns

U32 = np.uint64(0xFFFFFFFF)


def most_significant_bit(x: np.ndarray, width: int) -> np.ndarray:
    """The bit length of each unsigned ``x`` (``width`` for 0, as TFLM's GCC build)."""
    x = np.asarray(x, dtype=np.uint64)
    out = np.zeros(x.shape, dtype=np.int64)
    rest = x.copy()
    for shift in (32, 16, 8, 4, 2, 1):
        big = rest >= (np.uint64(1) << np.uint64(shift))
        out += np.where(big, shift, 0)
        rest = np.where(big, rest >> np.uint64(shift), rest)
    out += (rest > 0).astype(np.int64)
    return np.where(x == 0, width, out)


def window(x: np.ndarray, weights: np.ndarray, shift: int) -> np.ndarray:
    """``ApplyWindow`` over each run of ``len(weights)`` samples: int32 product, arithmetic
    shift right, saturated to int16."""
    rows = x.reshape(-1, weights.size).astype(np.int64) * weights.astype(np.int64)
    return np.clip(rows >> shift, -32768, 32767).astype(np.int16).reshape(x.shape)


def fft_auto_scale(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``FftAutoScale``: the samples times ``1 << bits`` (wrapping to int16) and ``bits``, the
    left shift that brings the largest magnitude (``MaxAbs16``, which keeps -32768) under 2**15."""
    flat = x.reshape(-1).astype(np.int32)
    largest = int(np.max(np.abs(flat), initial=0))
    largest = largest - 65536 if largest == 32768 else largest  # MaxAbs16 keeps -32768 as int16
    bits = 16 - int(most_significant_bit(np.array(largest & 0xFFFFFFFF), 32)) - 1
    bits = max(bits, 0)
    return (x.astype(np.int32) * (1 << bits)).astype(np.int16), np.array(bits, dtype=np.int32)


# kiss_fft v130 with FIXED_POINT 16: FRACBITS 15, int32 products, SAMP_MAX 32767.
def _sround(x: np.ndarray) -> np.ndarray:
    """``sround``: the int32 product sum (wrapped) plus half, shifted right 15, cast to int16."""
    x = (np.asarray(x, dtype=np.int64) + (1 << 31)) % (1 << 32) - (1 << 31)
    return ((x + (1 << 14)) >> 15).astype(np.int16)


def _wrap16(x: np.ndarray) -> np.ndarray:
    return np.asarray(x, dtype=np.int64).astype(np.int16)


def _cexp(phase: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``kf_cexp``: ``floor(.5 + 32767 * cos/sin(phase))`` as int16."""
    return (np.floor(0.5 + 32767 * np.cos(phase)).astype(np.int16),
            np.floor(0.5 + 32767 * np.sin(phase)).astype(np.int16))  # fmt: skip


def _factors(n: int) -> list[tuple[int, int]]:
    """``kf_factor``: radices 4, then 2, then odd primes, with the remaining length."""
    out, p, floor_sqrt = [], 4, math.floor(math.sqrt(n))
    while True:
        while n % p:
            p = {4: 2, 2: 3}.get(p, p + 2)
            if p > floor_sqrt:
                p = n
        n //= p
        out.append((p, n))
        if n <= 1:
            return out


@functools.cache
def _fft_plan(nfft: int) -> tuple:
    phase = -2 * 3.141592653589793238462643383279502884197169399375105820974944 * np.arange(nfft) / nfft
    tw = _cexp(phase)
    super_phase = -3.14159265358979323846264338327 * ((np.arange(nfft // 2) + 1) / nfft + 0.5)
    return tw, _cexp(super_phase), _factors(nfft)


def _fixdiv(v: np.ndarray, k: int) -> np.ndarray:
    return _sround(v.astype(np.int64) * (32767 // k))


def _cmul(ar, ai, br, bi):
    ar, ai, br, bi = (np.asarray(v, dtype=np.int64) for v in (ar, ai, br, bi))
    return _sround(ar * br - ai * bi), _sround(ar * bi + ai * br)


def _kf_work(re, im, out_re, out_im, start, f, fstride, factors, tw) -> None:
    """``kf_work`` (in_stride 1): the sub-FFT of the inputs at ``f, f + fstride, ...`` into
    ``out[start:start + p * m]``."""
    p, m = factors[0]
    if m == 1:
        idx = f + fstride * np.arange(p)
        out_re[start:start + p], out_im[start:start + p] = re[idx], im[idx]
    else:
        for q in range(p):
            _kf_work(re, im, out_re, out_im, start + q * m, f + q * fstride, fstride * p, factors[1:], tw)
    if p == 4:
        _bfly4(out_re, out_im, start, fstride, m, tw)
    elif p == 2:
        _bfly2(out_re, out_im, start, fstride, m, tw)
    else:
        raise NotImplementedError(f"kiss_fft radix {p} (only lengths 2**k are transcribed)")


def _bfly2(r, i, s, fstride, m, tw) -> None:
    k = np.arange(m)
    a, b = s + k, s + m + k
    ar, ai, br, bi = _fixdiv(r[a], 2), _fixdiv(i[a], 2), _fixdiv(r[b], 2), _fixdiv(i[b], 2)
    tr, ti = _cmul(br, bi, tw[0][k * fstride], tw[1][k * fstride])
    r[b], i[b] = _wrap16(ar.astype(np.int64) - tr), _wrap16(ai.astype(np.int64) - ti)
    r[a], i[a] = _wrap16(ar.astype(np.int64) + tr), _wrap16(ai.astype(np.int64) + ti)


def _bfly4(r, i, s, fstride, m, tw) -> None:
    k = np.arange(m)
    idx = [s + k + q * m for q in range(4)]
    vr = [_fixdiv(r[j], 4).astype(np.int64) for j in idx]
    vi = [_fixdiv(i[j], 4).astype(np.int64) for j in idx]
    s0 = _cmul(vr[1], vi[1], tw[0][k * fstride], tw[1][k * fstride])
    s1 = _cmul(vr[2], vi[2], tw[0][k * fstride * 2], tw[1][k * fstride * 2])
    s2 = _cmul(vr[3], vi[3], tw[0][k * fstride * 3], tw[1][k * fstride * 3])
    s0, s1, s2 = ([v.astype(np.int64) for v in pair] for pair in (s0, s1, s2))
    s5 = (_wrap16(vr[0] - s1[0]).astype(np.int64), _wrap16(vi[0] - s1[1]).astype(np.int64))
    f0 = (_wrap16(vr[0] + s1[0]).astype(np.int64), _wrap16(vi[0] + s1[1]).astype(np.int64))
    s3 = (_wrap16(s0[0] + s2[0]).astype(np.int64), _wrap16(s0[1] + s2[1]).astype(np.int64))
    s4 = (_wrap16(s0[0] - s2[0]).astype(np.int64), _wrap16(s0[1] - s2[1]).astype(np.int64))
    r[idx[2]], i[idx[2]] = _wrap16(f0[0] - s3[0]), _wrap16(f0[1] - s3[1])
    r[idx[0]], i[idx[0]] = _wrap16(f0[0] + s3[0]), _wrap16(f0[1] + s3[1])
    r[idx[1]], i[idx[1]] = _wrap16(s5[0] + s4[1]), _wrap16(s5[1] - s4[0])
    r[idx[3]], i[idx[3]] = _wrap16(s5[0] - s4[1]), _wrap16(s5[1] + s4[0])


def rfft_int16(x: np.ndarray, fft_length: int) -> np.ndarray:
    """TFLM's int16 ``Rfft`` of each row of ``x`` (zero-padded to ``fft_length``): kiss_fftr's
    ``fft_length // 2 + 1`` bins as interleaved (real, imaginary) int16 pairs."""
    rows = x.reshape(-1, x.shape[-1])
    return np.stack([_rfft_row(row, fft_length) for row in rows]).reshape(*x.shape[:-1], fft_length + 2)


def _rfft_row(row: np.ndarray, fft_length: int) -> np.ndarray:
    ncfft = fft_length // 2
    tw, super_tw, factors = _fft_plan(ncfft)
    padded = np.zeros(fft_length, dtype=np.int16)
    padded[:row.size] = row
    re, im = padded[0::2].copy(), padded[1::2].copy()
    tr, ti = np.zeros(ncfft, dtype=np.int16), np.zeros(ncfft, dtype=np.int16)
    _kf_work(re, im, tr, ti, 0, 0, 1, factors, tw)
    out = np.zeros(2 * (ncfft + 1), dtype=np.int16)
    dc_r, dc_i = int(_fixdiv(tr[:1], 2)[0]), int(_fixdiv(ti[:1], 2)[0])
    out[0], out[2 * ncfft] = _wrap16(dc_r + dc_i), _wrap16(dc_r - dc_i)
    k = np.arange(1, ncfft // 2 + 1)
    fpk_r, fpk_i = _fixdiv(tr[k], 2).astype(np.int64), _fixdiv(ti[k], 2).astype(np.int64)
    fpnk_r = _fixdiv(tr[ncfft - k], 2).astype(np.int64)
    fpnk_i = _fixdiv(_wrap16(-ti[ncfft - k].astype(np.int64)), 2).astype(np.int64)
    f1 = (_wrap16(fpk_r + fpnk_r).astype(np.int64), _wrap16(fpk_i + fpnk_i).astype(np.int64))
    f2 = (_wrap16(fpk_r - fpnk_r), _wrap16(fpk_i - fpnk_i))
    twr, twi = (v.astype(np.int64) for v in _cmul(f2[0], f2[1], super_tw[0][k - 1], super_tw[1][k - 1]))
    # Bins k and ncfft - k meet at k = ncfft / 2; C writes bin k first, then ncfft - k.
    out[2 * k], out[2 * k + 1] = _wrap16((f1[0] + twr) >> 1), _wrap16((f1[1] + twi) >> 1)
    out[2 * (ncfft - k)], out[2 * (ncfft - k) + 1] = _wrap16((f1[0] - twr) >> 1), _wrap16((twi - f1[1]) >> 1)
    return out


def energy(spectrum: np.ndarray, start: int, end: int) -> np.ndarray:
    """``SpectrumToEnergy``: ``re**2 + im**2`` as uint32 for bins ``start:end`` (the int32 sum
    wraps); the other bins are left as they are in TFLM's output buffer, zero here."""
    pairs = spectrum.reshape(-1, 2).astype(np.int64)
    out = np.zeros(pairs.shape[0], dtype=np.uint32)
    out[start:end] = ((pairs[start:end, 0] ** 2 + pairs[start:end, 1] ** 2) & 0xFFFFFFFF).astype(np.uint32)
    return out


def filter_bank(x: np.ndarray, weights: np.ndarray, unweights: np.ndarray, freq_starts: np.ndarray,
                weight_starts: np.ndarray, widths: np.ndarray, channels: int) -> np.ndarray:  # fmt: skip
    """``FilterbankAccumulateChannels``: channel ``c``'s weighted sum plus channel ``c - 1``'s
    unweighted sum, in uint64 (int16 weights widened to uint64, as C converts them), channels
    1..``channels`` of the ``channels + 1`` computed."""
    x64 = x.astype(np.uint64)
    w, u = weights.astype(np.int64).astype(np.uint64), unweights.astype(np.int64).astype(np.uint64)
    weighted, unweighted = np.zeros(channels + 1, dtype=np.uint64), np.zeros(channels + 1, dtype=np.uint64)
    with np.errstate(over="ignore"):
        for c in range(channels + 1):
            f, s, n = int(freq_starts[c]), int(weight_starts[c]), int(widths[c])
            weighted[c] = np.sum(w[s:s + n] * x64[f:f + n], dtype=np.uint64)
            unweighted[c] = np.sum(u[s:s + n] * x64[f:f + n], dtype=np.uint64)
        out = weighted[1:] + unweighted[:-1]
    return out


def _sqrt_bits(num: np.ndarray, width: int) -> np.ndarray:
    """``Sqrt32`` / ``Sqrt64``: the digit-by-digit root with TFLM's rounding, of nonzero ``num``."""
    num = num.astype(object)
    out = []
    for n in num.reshape(-1):
        n = int(n)
        if n == 0:
            out.append(0)
            continue
        top = width - n.bit_length()
        top |= 1
        bit, res = 1 << (width - 1 - top), 0
        for _ in range((width - 1 - top) // 2 + 1):
            if n >= res + bit:
                n -= res + bit
                res = (res >> 1) + bit
            else:
                res >>= 1
            bit >>= 2
        if n > res and res != (1 << (width // 2)) - 1:
            res += 1
        out.append(res)
    return np.array(out, dtype=np.uint64).reshape(num.shape)


def filter_bank_square_root(x: np.ndarray, scale_down_bits: int) -> np.ndarray:
    """``FilterbankSqrt``: ``Sqrt64`` (``Sqrt32`` when the upper word is clear) shifted right."""
    x = x.astype(np.uint64)
    small = (x >> np.uint64(32)) == 0
    roots = np.where(small, _sqrt_bits(x & U32, 32), _sqrt_bits(x, 64))
    return ((roots >> np.uint64(scale_down_bits)) & U32).astype(np.uint32)


def spectral_subtraction(x: np.ndarray, noise: np.ndarray, **options) -> tuple[np.ndarray, np.ndarray]:
    """``FilterbankSpectralSubtraction``: the output and the updated noise estimate (uint32)."""
    estimate = noise_estimate(x, noise, **options)
    return spectral_subtraction_output(x, estimate, **options), estimate


def noise_estimate(x: np.ndarray, noise: np.ndarray, *, smoothing: int, one_minus_smoothing: int,
                   alternate_smoothing: int, alternate_one_minus_smoothing: int, smoothing_bits: int,
                   spectral_subtraction_bits: int, clamping: bool, **_) -> np.ndarray:  # fmt: skip
    """The noise estimate after a call: the scaled input and the estimate before, smoothed
    (alternate coefficients on odd channels), in uint64, shifted, kept as uint32; clamped to
    the scaled input when ``clamping``."""
    x = x.astype(np.uint64)
    odd = (np.arange(x.size) & 1) == 1
    smooth = np.where(odd, alternate_smoothing, smoothing).astype(np.uint64)
    rest = np.where(odd, alternate_one_minus_smoothing, one_minus_smoothing).astype(np.uint64)
    scaled = (x << np.uint64(smoothing_bits)) & U32
    with np.errstate(over="ignore"):
        estimate = ((scaled * smooth + noise.astype(np.uint64) * rest) >> np.uint64(spectral_subtraction_bits)) & U32
    if clamping:
        estimate = np.minimum(estimate, scaled)
    return estimate.astype(np.uint32)


def spectral_subtraction_output(x: np.ndarray, estimate: np.ndarray, *, min_signal_remaining: int, smoothing_bits: int,
                                spectral_subtraction_bits: int, **_) -> np.ndarray:  # fmt: skip
    """The output from the estimate after the call (at most the scaled input, clamped or not):
    the scaled input less it, shifted back, at least ``min_signal_remaining`` of the input."""
    x = x.astype(np.uint64)
    scaled = (x << np.uint64(smoothing_bits)) & U32
    limited = np.minimum(estimate.astype(np.uint64), scaled)
    floor = ((x * np.uint64(min_signal_remaining & 0xFFFFFFFF)) >> np.uint64(spectral_subtraction_bits)) & U32
    subtracted = (scaled - limited) >> np.uint64(smoothing_bits)
    return np.maximum(subtracted, floor).astype(np.uint32)


PCAN_SNR_BITS, PCAN_OUTPUT_BITS = 12, 6


def wide_dynamic_function(x: np.ndarray, lut: np.ndarray) -> np.ndarray:
    """``WideDynamicFunction``: the gain for each noise estimate from the piecewise-quadratic
    table (int16 result, as uint32 the way the caller widens it)."""
    x = x.astype(np.int64)
    lut = lut.astype(np.int64)
    interval = most_significant_bit(x, 32).astype(np.int64)
    base = np.clip(4 * interval - 6, 0, lut.size - 3)
    shifted = np.where(interval < 11, (x << np.clip(11 - interval, 0, 63)) & 0xFFFFFFFF, x >> np.clip(interval - 11, 0, 63))
    frac = shifted & 0x3FF
    result = (lut[base + 2] * frac) >> 5
    result = result + ((lut[base + 1] & 0xFFFFFFFF) << 5)
    result = ((result + (1 << 31)) % (1 << 32)) - (1 << 31)
    result = result * frac
    result = ((result + (1 << 31)) % (1 << 32)) - (1 << 31)
    result = (result + (1 << 14)) >> 15
    result = result + lut[base]
    gain = np.where(x <= 2, lut[np.clip(x, 0, 2)], result).astype(np.int16)
    return gain.astype(np.int64).astype(np.uint64) & U32


def pcan(x: np.ndarray, noise: np.ndarray, lut: np.ndarray, snr_shift: int) -> np.ndarray:
    """``ApplyPcanAutoGainControlFixed``: the input times its channel's gain, shifted, then
    ``PcanShrink`` (uint32 arithmetic)."""
    gain = wide_dynamic_function(noise, lut)
    with np.errstate(over="ignore"):
        snr = ((x.astype(np.uint64) * gain) >> np.uint64(snr_shift)) & U32
        small = snr < (2 << PCAN_SNR_BITS)
        squared = ((snr * snr) & U32) >> np.uint64(2 + 2 * PCAN_SNR_BITS - PCAN_OUTPUT_BITS)
        large = ((snr >> np.uint64(PCAN_SNR_BITS - PCAN_OUTPUT_BITS)) - np.uint64(1 << PCAN_OUTPUT_BITS)) & U32
    return np.where(small, squared, large).astype(np.uint32)


LOG_LUT = np.array([
    0, 224, 442, 654, 861, 1063, 1259, 1450, 1636, 1817, 1992, 2163, 2329, 2490, 2646, 2797, 2944, 3087, 3224,
    3358, 3487, 3611, 3732, 3848, 3960, 4068, 4172, 4272, 4368, 4460, 4549, 4633, 4714, 4791, 4864, 4934, 5001,
    5063, 5123, 5178, 5231, 5280, 5326, 5368, 5408, 5444, 5477, 5507, 5533, 5557, 5578, 5595, 5610, 5622, 5631,
    5637, 5640, 5641, 5638, 5633, 5626, 5615, 5602, 5586, 5568, 5547, 5524, 5498, 5470, 5439, 5406, 5370, 5332,
    5291, 5249, 5203, 5156, 5106, 5054, 5000, 4944, 4885, 4825, 4762, 4697, 4630, 4561, 4490, 4416, 4341, 4264,
    4184, 4103, 4020, 3935, 3848, 3759, 3668, 3575, 3481, 3384, 3286, 3186, 3084, 2981, 2875, 2768, 2659, 2549,
    2437, 2323, 2207, 2090, 1971, 1851, 1729, 1605, 1480, 1353, 1224, 1094, 963, 830, 695, 559, 421, 282, 142,
    0, 0], dtype=np.int64)  # fmt: skip
"""``kLogLut`` of TFLM's ``signal/src/log.cc``."""


def log32(x: np.ndarray, out_scale: int) -> np.ndarray:
    """``Log32``: ``out_scale * ln(x)`` in TFLM's fixed point, for ``x > 1`` (uint32 results)."""
    x = x.astype(np.int64)
    integer = most_significant_bit(x, 32).astype(np.int64) - 1
    frac = x - (np.int64(1) << integer)
    frac = np.where(integer < 16, frac << np.clip(16 - integer, 0, 63), frac >> np.clip(integer - 16, 0, 63))
    frac = ((frac + (1 << 31)) % (1 << 32)) - (1 << 31)
    base = (frac >> 9) & 0xFFFFFFFF
    base = np.clip(base, 0, LOG_LUT.size - 2)
    c0, c1 = LOG_LUT[base], LOG_LUT[base + 1]
    rel = (((c1 - c0) * (frac - 512 * base) + (1 << 31)) % (1 << 32) - (1 << 31)) >> 16
    fraction = (frac + c0 + rel) & 0xFFFFFFFF
    log2 = ((integer << 16) + fraction) & 0xFFFFFFFF
    loge = ((45426 * log2 + 32768) >> 16) & 0xFFFFFFFF
    return (((out_scale & 0xFFFFFFFF) * loge & 0xFFFFFFFF) + 32768 & 0xFFFFFFFF) >> 16


def filter_bank_log(x: np.ndarray, output_scale: int, correction_bits: int) -> np.ndarray:
    """``FilterbankLog``: ``Log32`` of the input shifted left (uint32), at most 32767, 0 for
    inputs that shift to 0 or 1."""
    scaled = (x.astype(np.int64) << correction_bits) & 0xFFFFFFFF
    logs = log32(np.maximum(scaled, 2), output_scale)
    return np.where(scaled > 1, np.minimum(logs, 32767), 0).astype(np.int16)


def _attr(op, name: str) -> int:
    return int(op.properties[name].value.data)


SIGNAL_KERNELS = {
    ns.SignalWindowOp: lambda op, x, w: window(x, w, _attr(op, "shift")),
    ns.SignalFftAutoScaleOp: lambda op, x: fft_auto_scale(x)[0],
    ns.SignalFftScaleBitsOp: lambda op, x: fft_auto_scale(x)[1],
    ns.SignalRfftOp: lambda op, x: rfft_int16(x, _attr(op, "fft_length")),
    ns.SignalEnergyOp: lambda op, x: energy(x, _attr(op, "start_index"), _attr(op, "end_index")),
    ns.SignalFilterBankOp: lambda op, x, *config: filter_bank(x, *config, _attr(op, "num_channels")),
    ns.SignalFilterBankSquareRootOp: lambda op, x, bits: filter_bank_square_root(x, int(bits.reshape(-1)[0])),
    ns.SignalNoiseEstimateOp: lambda op, x, noise: spectral_subtraction(x, noise, **op.options())[1],
    ns.SignalSpectralSubtractionOp: lambda op, x, noise: spectral_subtraction_output(x, noise, **op.options()),
    ns.SignalPcanOp: lambda op, x, noise, lut: pcan(x, noise, lut, _attr(op, "snr_shift")),
    ns.SignalFilterBankLogOp: lambda op, x: filter_bank_log(x, _attr(op, "output_scale"), _attr(op, "input_correction_bits")),
}
"""The kernel of each signal op (``kernel(op, *arrays)``)."""
