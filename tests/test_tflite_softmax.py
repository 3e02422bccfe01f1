"""int8 SOFTMAX as TFLite Micro computes it (``nn.qsoftmax``), bit for bit.

The vectorized kernel is checked against a scalar transcription of TFLite Micro's loop
(``reference_ops::Softmax`` for int8 in and out, with gemmlowp's ``exp_on_negative_values``,
``one_over_one_plus_x_for_x_in_0_1``, ``SaturatingRoundingDoublingHighMul`` and
``RoundingDivideByPOT`` written out from the C++ one int32 at a time) on hostile rows: all
equal, one 127 among -128s and the reverse, alternating extremes, ramps, at input scales from
1e-4 (every difference far above ``diff_min``) to 100 (the multiplier capped at 2^31 - 1, a
left shift of 31). A float softmax quantized afterwards, and the kernel with one rounding
changed, differ from it on these rows. A model of SOFTMAX operators over the same rows, and
TFLM's person_detect and micro_speech examples, match TFLite Micro's outputs exactly in the
reference interpreter and the checking flat interpreter. A row TFLite Micro aborts on is an
error of the interpreter; what TFLite Micro refuses to prepare, the importer refuses.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

pytest.importorskip("tflite_micro")

from test_tflite_import import import_bytes, run_both  # noqa: E402
from test_lower_to_linalg import flat_form, needs_mlir, to_linalg  # noqa: E402
from xdsl.dialects import arith  # noqa: E402
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i64  # noqa: E402
from xdsl.parser import Parser  # noqa: E402

from cfmem.dialects import nn_quant as nq  # noqa: E402
from cfmem.importers.tflite import TfliteImportError, tflite_importer  # noqa: E402
from cfmem.interp import kernels  # noqa: E402
from cfmem.interp.golden import InterpError, run_function  # noqa: E402
from cfmem.differential import run_mlir  # noqa: E402
from cfmem.interp.flat import run_flat  # noqa: E402
from cfmem.interp.kernels import fixed_point, quantized  # noqa: E402
from cfmem.ir_io import make_context  # noqa: E402
from cfmem.mlir_check.prepare import prepare_for_jit  # noqa: E402
from cfmem.passes.linalg import fixed_point as linalg_fixed_point  # noqa: E402
from cfmem.passes.linalg import quantized as linalg_quantized  # noqa: E402
from cfmem.testing import tflite_models as tm  # noqa: E402
from cfmem.testing.tflite_writer import TfliteWriter, options  # noqa: E402
from cfmem.testing.tflm_models import example_models  # noqa: E402
from cfmem.tflite.model_file import parse_tflite  # noqa: E402
from cfmem.tflite.tflm_runtime import TflmError, TflmWorker  # noqa: E402

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1

# --- TFLite Micro's loop, one int32 at a time ---------------------------------------------------


def i32(v: int) -> int:
    return (v + 2**31) % 2**32 - 2**31


def srdhm(a: int, b: int) -> int:  # gemmlowp::SaturatingRoundingDoublingHighMul<int32_t>
    if a == b == INT32_MIN:
        return INT32_MAX
    ab = a * b
    total = ab + ((1 << 30) if ab >= 0 else 1 - (1 << 30))
    return i32(total // 2**31 if total >= 0 else -(-total // 2**31))  # C division truncates


def rdbpot(x: int, exponent: int) -> int:  # gemmlowp::RoundingDivideByPOT
    mask = (1 << exponent) - 1
    threshold = (mask >> 1) + (1 if x < 0 else 0)
    return (x >> exponent) + (1 if (x & mask) > threshold else 0)


def srmbpot(x: int, exponent: int) -> int:  # gemmlowp::SaturatingRoundingMultiplyByPOT<exponent>
    if exponent < 0:
        return rdbpot(x, -exponent)
    threshold = (1 << (31 - exponent)) - 1
    return INT32_MAX if x > threshold else INT32_MIN if x < -threshold else x * (1 << exponent)


def exp_on_interval_between_negative_one_quarter_and_0_excl(a: int) -> int:
    constant_term, constant_1_over_3 = 1895147668, 715827883
    x = i32(a + (1 << 28))
    x2 = srdhm(x, x)
    x3 = srdhm(x2, x)
    x4 = srdhm(x2, x2)
    x4_over_4 = srmbpot(x4, -2)
    x4_over_24_plus_x3_over_6_plus_x2_over_2 = srmbpot(i32(srdhm(i32(x4_over_4 + x3), constant_1_over_3) + x2), -1)
    return i32(constant_term + srdhm(constant_term, i32(x + x4_over_24_plus_x3_over_6_plus_x2_over_2)))


def exp_on_negative_values(a: int, integer_bits: int) -> int:
    fractional_bits = 31 - integer_bits
    one_quarter = 1 << (fractional_bits - 2)
    a_mod_quarter_minus_one_quarter = i32((a & (one_quarter - 1)) - one_quarter)
    result = exp_on_interval_between_negative_one_quarter_and_0_excl(srmbpot(a_mod_quarter_minus_one_quarter, integer_bits))
    remainder = i32(a_mod_quarter_minus_one_quarter - a)
    for exponent, multiplier in ((-2, 1672461947), (-1, 1302514674), (0, 790015084), (1, 290630308), (2, 39332535),
                                 (3, 720401), (4, 242)):  # fmt: skip
        if integer_bits > exponent and remainder & (1 << (fractional_bits + exponent)):
            result = srdhm(result, multiplier)
    if integer_bits > 5 and a < -(1 << (36 - integer_bits)):
        result = 0
    return INT32_MAX if a == 0 else result


def one_over_one_plus_x_for_x_in_0_1(a: int) -> int:
    total = a + INT32_MAX  # RoundingHalfSum(a, F0::One())
    total += 1 if total >= 0 else -1
    half_denominator = total // 2 if total >= 0 else -(-total // 2)
    x = i32(1515870810 + srdhm(half_denominator, -1010580540))
    for _ in range(3):
        one_minus_half_denominator_times_x = i32((1 << 29) - srdhm(half_denominator, x))
        x = i32(x + srmbpot(srdhm(x, one_minus_half_denominator_times_x), 2))
    return srmbpot(x, 1)


def get_reciprocal(x: int, x_integer_digits: int) -> tuple[int, int]:
    headroom_plus_one = 32 - (x % 2**32).bit_length()  # CountLeadingZeros(uint32_t)
    shifted_sum_minus_one = i32((((x % 2**32) << headroom_plus_one) % 2**32) - 2**31)
    return one_over_one_plus_x_for_x_in_0_1(shifted_sum_minus_one), x_integer_digits - headroom_plus_one


def softmax_params(input_scale: float, beta: float) -> tuple[int, int, int]:
    """CalculateSoftmaxParams for int8: PreprocessSoftmaxScaling and CalculateInputRadius."""
    real = min(beta * input_scale * (1 << 26), (1 << 31) - 1.0)
    fraction, shift = math.frexp(real)
    q = math.floor(fraction * 2**31 + 0.5)
    if q == 2**31:
        q, shift = q // 2, shift + 1
    return q, shift, -math.floor(1.0 * 31 * (1 << 26) / (1 << shift))


def tflm_softmax_row(row: list[int], multiplier: int, shift: int, diff_min: int) -> list[int]:
    max_in_row = max(row, default=-128)
    sum_of_exps = 0
    for value in row:
        if value - max_in_row >= diff_min:
            rescaled = srdhm(i32((value - max_in_row) * (1 << shift)), multiplier)
            sum_of_exps = i32(sum_of_exps + srmbpot(exp_on_negative_values(rescaled, 5), -12))
    shifted_scale, num_bits_over_unit = get_reciprocal(sum_of_exps, 12)
    exponent = num_bits_over_unit + 31 - 8
    assert 0 <= exponent <= 31, "TFLITE_CHECK"
    out = []
    for value in row:
        if value - max_in_row >= diff_min:
            rescaled = srdhm(i32((value - max_in_row) * (1 << shift)), multiplier)
            unsat = rdbpot(srdhm(shifted_scale, exp_on_negative_values(rescaled, 5)), exponent)
            out.append(max(min(unsat - 128, 127), -128))
        else:
            out.append(-128)
    return out


# --- hostile rows --------------------------------------------------------------------------------

CASES = [(depth, scale, beta) for depth in (1, 2, 10, 511)
         for scale, beta in ((1e-4, 1.0), (0.0125, 1.0), (0.0917319208, 1.0), (0.7, 2.7), (100.0, 1.0))]  # fmt: skip
"""(row length, input scale, beta): 100 scales the differences past the cap (a shift of 31)."""


def hostile_rows(depth: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    rows = rng.integers(-128, 128, (14, depth))
    positions = np.arange(depth)
    rows[0], rows[1], rows[2] = -128, 0, 127  # all equal
    rows[3], rows[3, 0] = -128, 127  # one largest, the rest as far below as int8 goes
    rows[4], rows[4, -1] = 127, -128
    rows[5] = np.where(positions % 2, 127, -128)
    rows[6] = 127 - positions % 7
    rows[7] = -128 + positions % 3
    rows[8] = 100 - positions % 40
    return rows.astype(np.int8)


def qsoftmax_op(scale: float, beta: float, depth: int) -> nq.QSoftmaxOp:
    """The ``nn.qsoftmax`` the importer makes of one SOFTMAX (built alone in a model)."""
    data = softmax_model([(depth, scale, beta)])
    module = tflite_importer(parse_tflite(data), data, "w.bin").import_model({}).module
    return next(op for op in module.walk() if isinstance(op, nq.QSoftmaxOp))


def softmax_model(cases, y_scale: float = 1 / 256) -> bytes:
    """One SOFTMAX per case, each on an input ``x<k>`` of 14 rows with its scale and beta."""
    w = TfliteWriter()
    sg = w.subgraph("main")
    ins, outs = [], []
    for k, (depth, scale, beta) in enumerate(cases):
        ins.append(sg.tensor(f"x{k}", (14, depth), np.int8, scale=scale, zero_point=3))
        outs.append(sg.tensor(f"y{k}", (14, depth), np.int8, scale=y_scale, zero_point=-128))
        sg.op("SOFTMAX", [ins[-1]], [outs[-1]], options("SoftmaxOptions", beta=beta))
    sg.io(ins, outs)
    return w.pack()


@pytest.fixture(scope="module")
def cases_and_oracle():
    """Each case's op, rows and the scalar transcription's outputs."""
    found = []
    for k, (depth, scale, beta) in enumerate(CASES):
        op = qsoftmax_op(scale, beta, depth)
        multiplier, shift, diff_min = softmax_params(float(np.float32(scale)), float(np.float32(beta)))
        assert (op.x_multiplier.get_values(), op.x_shift.get_values()) == ((multiplier,), (shift,))
        rows = hostile_rows(depth, k)
        want = np.array([tflm_softmax_row([int(v) for v in row], multiplier, shift, diff_min) for row in rows], np.int8)
        found.append((op, rows, want))
    return found


def test_the_kernel_is_the_scalar_loop_of_tflite_micro(cases_and_oracle):
    for op, rows, want in cases_and_oracle:
        np.testing.assert_array_equal(kernels.KERNELS[nq.QSoftmaxOp](op, rows), want)
        transposed = op.clone()  # along another axis than the last
        transposed.properties["axis"] = IntegerAttr(0, i64)
        np.testing.assert_array_equal(quantized.qsoftmax(transposed, rows.T), want.T)
    shifts = {op.x_shift.get_values()[0] for op, _, _ in cases_and_oracle}
    assert {13, 23, 31} <= shifts  # no difference below diff_min (-253952), some (-248), the capped multiplier


def float_softmax_then_quantized(op: nq.QSoftmaxOp, rows: np.ndarray) -> np.ndarray:
    real = (rows.astype(np.float64) - rows.max(axis=-1, keepdims=True)) * nq.floats(op.x_scale)[0]
    e = np.exp(real)
    return np.clip(np.round(e / e.sum(axis=-1, keepdims=True) * 256) - 128, -128, 127).astype(np.int8)


def test_a_float_softmax_or_another_rounding_differs(cases_and_oracle, monkeypatch):
    """The comparison can fail: a float softmax rounded into int8 differs from TFLite Micro's
    on these rows, and so does the kernel with its last division rounding down."""
    assert any(not np.array_equal(float_softmax_then_quantized(op, rows), want) for op, rows, want in cases_and_oracle)
    monkeypatch.setattr(quantized, "rounding_divide_by_pot", lambda x, e: np.asarray(x, np.int64) >> np.asarray(e, np.int64))
    assert any(not np.array_equal(quantized.qsoftmax(op, rows), want) for op, rows, want in cases_and_oracle)


def test_gemmlowp_functions_match_their_scalar_versions():
    rng = np.random.default_rng(3)
    negative = np.concatenate([-rng.integers(0, 2**31, 3000), [0, -1, INT32_MIN, -(1 << 26), -(31 << 26), -(1 << 29)]])
    for bits in (0, 5, 12):
        got = fixed_point.exp_on_negative_values(negative, bits)
        assert [int(v) for v in got] == [exp_on_negative_values(int(a), bits) for a in negative]
    unit = np.concatenate([rng.integers(0, 2**31, 3000), [0, 1, INT32_MAX]])
    assert [int(v) for v in fixed_point.one_over_one_plus_x_for_x_in_0_1(unit)] == [one_over_one_plus_x_for_x_in_0_1(int(a)) for a in unit]
    sums = np.concatenate([rng.integers(1, 2**31, 3000), [1, 1 << 19, (1 << 28) - 1, INT32_MAX]])
    scale, bits_over_unit = fixed_point.get_reciprocal(sums, 12)
    assert [(int(s), int(b)) for s, b in zip(scale, bits_over_unit)] == [get_reciprocal(int(x), 12) for x in sums]


# --- against TFLite Micro ----------------------------------------------------------------------


def test_softmax_operators_match_tflm(tmp_path, cases_and_oracle):
    data = softmax_model(CASES)
    _, imported = import_bytes(data, tmp_path)
    rows = [rows for _, rows, _ in cases_and_oracle]
    want = tm.tflm_outputs(data, rows)
    golden, flat, _ = run_both(imported, tmp_path, rows)
    for g, f, w, (_, _, oracle) in zip(golden, flat, want, cases_and_oracle, strict=True):
        np.testing.assert_array_equal(w, oracle)
        np.testing.assert_array_equal(g, w)
        np.testing.assert_array_equal(f, w)


@pytest.mark.parametrize("name", ["person_detect", "micro_speech_quantized"])
def test_tflm_example_model_is_bit_exact(tmp_path, name):
    """The whole model (int8 convolutions, fully connected, pooling, SOFTMAX) on random int8
    inputs: the same bytes as TFLite Micro in both interpreters (after nn-plan-memory)."""
    data = example_models()[name].read_bytes()
    _, imported = import_bytes(data, tmp_path)
    assert sum(isinstance(op, nq.QSoftmaxOp) for op in imported.module.walk()) == 1
    graph = parse_tflite(data).subgraphs[0]
    shape = tuple(int(d) for d in graph.tensors[graph.inputs[0]].shape)
    outputs = set()
    for seed in range(3):
        x = np.random.default_rng(seed).integers(-128, 128, shape, endpoint=False).astype(np.int8)
        want = tm.tflm_outputs(data, [x])
        golden, flat, _ = run_both(imported, tmp_path, [x])
        for g, f, w in zip(golden, flat, want, strict=True):
            np.testing.assert_array_equal(g, w)
            np.testing.assert_array_equal(f, w)
        outputs.add(want[0].tobytes())
    assert len(outputs) > 1  # the inputs reach the output


def test_a_row_tflite_micro_stops_on_is_an_error_at_the_op(tmp_path):
    """512 equal elements sum to 2^28 in Q12.19: TFLite Micro's TFLITE_CHECK aborts (its child
    process crashes); the reference interpreter says why in one line."""
    data = softmax_model([(512, 0.1, 1.0)])
    _, imported = import_bytes(data, tmp_path)
    x = np.random.default_rng(0).integers(-128, 128, (14, 512)).astype(np.int8)
    x[5] = 9
    with TflmWorker() as worker, pytest.raises(TflmError, match="crashed"):
        worker.run(data, 1 << 17, [x])
    with pytest.raises(InterpError, match=r"^'nn.qsoftmax': TFLite Micro's int8 SOFTMAX stops on a row whose sum of exponentials takes 9 bits above one \(at most 8\)$"):
        run_function(imported.module, {"x0": x}, base_dir=tmp_path)
    x[5, 0] = 8
    run_function(imported.module, {"x0": x}, base_dir=tmp_path)  # one element lower: 2^28 - 2^19 + exp(-0.1)


@pytest.mark.parametrize(("scale", "y_scale", "message"), [
    (0.1, 1 / 128, r"int8 SOFTMAX writes scale 1/256 and zero point -128 in TFLite Micro, not 0.0078125 and -128"),
    (1e-9, 1 / 256, r"beta times the input scale 1e-09 is at most 2\^-26, which TFLite Micro refuses"),
])  # fmt: skip
def test_softmax_tflite_micro_does_not_compute_is_refused(tmp_path, scale, y_scale, message):
    """(SOFTMAX to int16 is refused too: ``tests/test_tflite_int8.py``.)"""
    with pytest.raises(TfliteImportError, match=rf"^operator 0 \(SOFTMAX\) of subgraph 0: {message}$"):
        import_bytes(softmax_model([(4, scale, 1.0)], y_scale), tmp_path)


LOWERED = [(15, 1), (17, 1), (18, 1), (19, 1), (8, 1), (12, 0)]
"""(case, axis) of the lowering's test: rows of 511 with no difference below ``diff_min``
(shift 13), some (23), most (27) and the capped multiplier (31), rows of 2, and rows of 10
softmaxed along axis 0 of their transpose (each op lowers to some 1,600 arith ops, which
the JIT's preparation takes about 0.6 s for)."""


def softmax_module(entries) -> ModuleOp:
    """``main`` with one ``nn.qsoftmax`` per entry ``(name, op, axis, shape)``: ``op``'s
    parameters along ``axis`` of an input ``name`` of ``shape``, its result ``y_<name>``."""
    args, results, ops = [], [], []
    for name, op, axis, shape in entries:
        params = (f"x_scale = array<f32: {nq.floats(op.x_scale)[0]!r}>, x_zero_point = array<i64: 3>, y_scale = array<f32: 0.00390625>,"
                  f" y_zero_point = array<i64: -128>, element = i8, x_multiplier = array<i64: {op.x_multiplier.get_values()[0]}>,"
                  f" x_shift = array<i64: {op.x_shift.get_values()[0]}>, axis = {axis} : i64")  # fmt: skip
        ty = f"tensor<{shape[0]}x{shape[1]}xi8>"
        args.append((name, ty))
        results.append((f"y_{name}", ty))
        ops.append(f"    %y_{name} = nn.qsoftmax %{name} {{{params}}} : ({ty}) -> {ty}")
    arg_list = ", ".join(f"%{n}: {t}" for n, t in args)
    types = ", ".join(t for _, t in results)
    names = {key: ", ".join(f'"{n}"' for n, _ in values) for key, values in (("in", args), ("out", results))}
    header = (f"  func.func @main({arg_list}) -> ({types}) attributes {{cfmem.input_names = [{names['in']}],"
              f" cfmem.result_names = [{names['out']}]}} {{")  # fmt: skip
    returned = f"    func.return {', '.join(f'%{n}' for n, _ in results)} : {types}"
    text = "\n".join(["builtin.module {", header, *ops, returned, "  }", "}"])
    return Parser(make_context(), text).parse_module()


def lowered_softmax(cases_and_oracle, chosen):
    """The flat form of :func:`softmax_module` over ``chosen`` (case, axis) pairs, its inputs
    (the case's rows, transposed along axis 0) and the scalar loop's outputs."""
    entries, feeds, wants = [], {}, {}
    for case, axis in chosen:
        op, rows, want = cases_and_oracle[case]
        name = f"x{case}_{axis}"
        feeds[name], wants[f"y_{name}"] = (rows, want) if axis == 1 else (np.ascontiguousarray(rows.T), want.T)
        entries.append((name, op, axis, feeds[name].shape))
    return flat_form(softmax_module(entries)), feeds, wants


@needs_mlir
def test_the_linalg_lowering_is_tflite_micros_softmax(cases_and_oracle, monkeypatch):
    """nn-lower-to-linalg's qsoftmax, JIT-run on hostile rows (along either axis), gives the
    scalar loop's bytes, as the flat interpreter does; with its last division rounding down (a
    plain shift), it does not."""
    flat, feeds, wants = lowered_softmax(cases_and_oracle, LOWERED)
    (jit,) = run_mlir(str(prepare_for_jit(to_linalg(flat))), flat, [feeds])
    checked = run_flat(flat, dict(feeds), check=True).outputs
    for name, want in wants.items():
        np.testing.assert_array_equal(jit[name], want, err_msg=name)
        np.testing.assert_array_equal(checked[name], want, err_msg=name)
    shifts = {cases_and_oracle[case][0].x_shift.get_values()[0] for case, _ in LOWERED}
    assert {13, 23, 31} <= shifts
    flat, feeds, wants = lowered_softmax(cases_and_oracle, [(17, 1)])
    monkeypatch.setattr(linalg_quantized, "rounding_divide_by_pot", lambda x, e: arith.ShRSIOp(x, linalg_fixed_point.as_i32(e)).result)
    (wrong,) = run_mlir(str(prepare_for_jit(to_linalg(flat))), flat, [feeds])
    assert not np.array_equal(wrong["y_x17_1"], wants["y_x17_1"])


SOFTMAX_TEXT = ("nn.qsoftmax %a0 {{x_scale = array<f32: 0.1>, x_zero_point = array<i64: 3>, y_scale = array<f32: {y_scale}>,"
                " y_zero_point = array<i64: -128>, element = i8, x_multiplier = array<i64: 1801439872>,"
                " x_shift = array<i64: {shift}>, axis = 1 : i64}} : ({input}) -> tensor<2x4xi8>")  # fmt: skip


@pytest.mark.parametrize(("y_scale", "shift", "input", "message"), [
    (0.00390625, 23, "tensor<2x4xi8>", None),
    (0.0078125, 23, "tensor<2x4xi8>", "the result must have y_scale 1/256 and y_zero_point -128"),
    (0.00390625, 32, "tensor<2x4xi8>", r"x_multiplier must be one value in \[0, 2\^31\) and x_shift one in \[0, 31\]"),
    (0.00390625, 23, "tensor<2x4xui8>", "input must be an i8 tensor"),
])  # fmt: skip
def test_the_verifier_holds_the_op_to_what_tflite_micro_computes(y_scale, shift, input, message):
    from cfmem.errors import CfmemError
    from cfmem.ir_io import parse_module

    text = f"func.func @f(%a0: {input}) {{\n  %r = {SOFTMAX_TEXT.format(y_scale=y_scale, shift=shift, input=input)}\n  func.return\n}}"
    if message is None:
        parse_module(text)
        return
    with pytest.raises(CfmemError, match=f"'nn.qsoftmax': {message}"):
        parse_module(text)
