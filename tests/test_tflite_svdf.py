"""TFLite's integer SVDF with its state, int16 QUANTIZE and int8 SOFTMAX to int16, against
TFLite Micro bit for bit.

TFLite Micro keeps a variable tensor (an SVDF's memory) between invocations; cfmem imports it
as an extra function input (the state before the call) and result (the state after it). Each
model runs several invocations in a row in one TFLite Micro interpreter, and in the reference
and the checking flat interpreter fed their own previous state results, starting from the
state TFLite Micro resets to (``initial_state``): every output and every state after every
call is the same bytes as TFLite Micro's (its variable tensors read back with
``kPreserveAllTensors``). The models: TFLM's keyword_scrambled_8bit example (int16 QUANTIZE,
seven SVDFs, int8 SOFTMAX to int16, QUANTIZE to int32) and single SVDFs written with the
schema's object API (rank above 1, batch 1 and 2, int8 and int16 state, an invocation that
saturates the state and wraps its zero point). QUANTIZE between 8-, 16- and 32-bit integers on
hostile values (the extremes, halfway cases) matches TFLite Micro and a scalar transcription of
``Requantize``; int8 SOFTMAX to int16 matches TFLite Micro on hostile rows. A state not carried
between calls, a saturation moved after the zero point, a float requantization and a truncating
division each differ, so these comparisons can fail. nn-lower-to-linalg's integer QUANTIZE and
SOFTMAX to int16 and its SVDF (over consecutive calls), JIT-run, give the flat interpreter's
bytes.
What TFLite Micro refuses to prepare, the importer and the verifier refuse.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("tflite_micro")

from test_lower_to_linalg import flat_form, needs_mlir, to_linalg  # noqa: E402
from test_tflite_import import import_bytes, run_both  # noqa: E402
from xdsl.dialects import arith  # noqa: E402
from test_tflite_int8 import reference_multiply  # noqa: E402
from test_tflite_softmax import hostile_rows  # noqa: E402

from cfmem.differential import run_mlir  # noqa: E402
from cfmem.dialects import nn_quant as nq  # noqa: E402
from cfmem.importers.tflite import TfliteImportError, initial_state  # noqa: E402
from cfmem.interp import kernels  # noqa: E402
from cfmem.interp.flat import run_flat  # noqa: E402
from cfmem.interp.kernels.fixed_point import fixed_point, multiply_by_quantized_multiplier, quantize_multiplier, wrap_int32  # noqa: E402
from cfmem.testing import tflite_models as tm  # noqa: E402
from cfmem.testing.tflite_writer import TfliteWriter, options  # noqa: E402
from cfmem.mlir_check.prepare import prepare_for_jit  # noqa: E402
from cfmem.testing.tflm_models import example_models  # noqa: E402
from cfmem.tflite.model_file import parse_tflite  # noqa: E402

CALLS = 4


def variables(data: bytes) -> list[int]:
    return [k for k, t in enumerate(parse_tflite(data).subgraphs[0].tensors) if t.isVariable]


def tflm_calls(data: bytes, inputs: list[list[np.ndarray]]) -> list[list[np.ndarray]]:
    """TFLite Micro's outputs, then its variable tensors, after each consecutive invocation."""
    return tm.tflm_invocations(data, inputs, tensors=variables(data))


def cfmem_calls(imported, tmp_path: Path, data: bytes, inputs: list[list[np.ndarray]], carry: bool = True):
    """The reference and flat interpreters' outputs and states after each call, each fed the
    state results of the call before (or, without ``carry``, the initial state every time)."""
    start = initial_state(parse_tflite(data))
    golden_state, flat_state, calls = start, start, []
    for x in inputs:
        golden, flat, _ = run_both(imported, tmp_path, [*x, *golden_state])
        if flat_state is not golden_state:
            flat = run_both(imported, tmp_path, [*x, *flat_state])[1]
        calls.append((golden, flat))
        if carry:
            golden_state, flat_state = golden[len(golden) - len(start):], flat[len(flat) - len(start):]
    return calls


def assert_same_calls(calls, want) -> None:
    for k, ((golden, flat), expected) in enumerate(zip(calls, want, strict=True)):
        for g, f, w in zip(golden, flat, expected, strict=True):
            w = w.reshape(g.shape)
            np.testing.assert_array_equal(g, w, err_msg=f"call {k}")
            np.testing.assert_array_equal(f, w, err_msg=f"call {k}")


# --- TFLM's keyword_scrambled_8bit ---------------------------------------------------------------


@pytest.fixture(scope="module")
def keyword(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("keyword")
    data = example_models()["keyword_scrambled_8bit"].read_bytes()
    _, imported = import_bytes(data, tmp_path)
    rng = np.random.default_rng(7)
    inputs = [[rng.integers(-limit, limit + 1, (1, 96)).astype(np.int16)] for limit in (3000, 9000, 32768, 1500)]
    return data, imported, tmp_path, inputs, tflm_calls(data, inputs)


def test_keyword_scrambled_matches_tflm_over_consecutive_calls(keyword):
    data, imported, tmp_path, inputs, want = keyword
    fn = next(op for op in imported.module.ops if op.name == "func.func")
    names = [a.data for a in fn.attributes["cfmem.input_names"].data]
    results = [a.data for a in fn.attributes["cfmem.result_names"].data]
    states = [f"variable{k}" for k in variables(data)]
    assert names == ["", *states] and results == ["", *(f"{s}_next" for s in states)]
    assert sum(isinstance(op, nq.QSvdfOp) for op in imported.module.walk()) == 7
    calls = cfmem_calls(imported, tmp_path, data, inputs)
    assert_same_calls(calls, want)
    first_states = [s.tobytes() for s in want[0][1:]]
    assert all(s.tobytes() != f for s, f in zip(want[-1][1:], first_states))  # the state moves on
    assert any(not (s == initial).all() for s, initial in zip(want[0][1:], initial_state(parse_tflite(data))))


def test_a_state_not_carried_between_calls_differs(keyword):
    data, imported, tmp_path, inputs, want = keyword
    calls = cfmem_calls(imported, tmp_path, data, inputs, carry=False)
    assert_same_calls(calls[:1], want[:1])
    with pytest.raises(AssertionError):
        assert_same_calls(calls[1:2], want[1:2])


# --- single SVDFs --------------------------------------------------------------------------------


def svdf_model(batch: int, rank: int, state_type, seed: int) -> bytes:
    """One SVDF: ``units`` of ``rank`` filters over a memory of 6, int8 or int16 state with a
    zero point far from 0 (saturated newest values wrap when it is added)."""
    rng = np.random.default_rng(seed)
    units, features, memory = 5, 20, 6
    filters = units * rank
    wide = state_type == np.int16
    state_scale, time_scale = (0.0015, 1e-5) if wide else (0.2, 0.02)
    time_limit = 2000 if wide else 127
    w = TfliteWriter()
    sg = w.subgraph("main")
    x = sg.tensor("features", (batch, features), np.int8, scale=0.05, zero_point=3)
    weights_feature = sg.const("weights_feature", rng.integers(-127, 128, (filters, features)).astype(np.int8), scale=0.01)
    weights_time = sg.const("weights_time", rng.integers(-time_limit, time_limit + 1, (filters, memory)).astype(state_type), scale=time_scale)
    bias = sg.const("bias", rng.integers(-20000, 20000, units).astype(np.int32), scale=float(np.float32(state_scale) * np.float32(time_scale)))
    state = sg.tensor("memory", (batch, filters * memory), state_type, scale=state_scale, zero_point=-100 if not wide else 700,
                      variable=True)  # fmt: skip
    y = sg.tensor("y", (batch, units), np.int8, scale=0.8 if not wide else 0.06, zero_point=-4)
    sg.op("SVDF", [x, weights_feature, weights_time, bias, state], [y], options("SVDFOptions", rank=rank, fusedActivationFunction=1))
    sg.io([x], [y])
    return w.pack()


def svdf_inputs(batch: int, seed: int) -> list[list[np.ndarray]]:
    """Random features, then all 127 (newest state values saturate), all -128, random again."""
    rng = np.random.default_rng(seed)
    shape = (batch, 20)
    fills = [rng.integers(-128, 128, shape), np.full(shape, 127), np.full(shape, -128), rng.integers(-128, 128, shape)]
    return [[f.astype(np.int8)] for f in fills]


@pytest.mark.parametrize(("batch", "rank", "state_type"), [(1, 2, np.int8), (1, 3, np.int16), (2, 3, np.int8)])
def test_one_svdf_matches_tflm_over_consecutive_calls(tmp_path, batch, rank, state_type):
    data = svdf_model(batch, rank, state_type, seed=rank)
    _, imported = import_bytes(data, tmp_path)
    inputs = svdf_inputs(batch, seed=rank)
    want = tflm_calls(data, inputs)
    assert_same_calls(cfmem_calls(imported, tmp_path, data, inputs), want)
    assert len({v for call in want for v in call[0].reshape(-1)}) > 8  # outputs spread over the int8 range


def test_svdf_saturating_after_the_zero_point_differs(tmp_path, monkeypatch):
    """Saturating the newest state value after adding the zero point (instead of before, and
    then wrapping as TFLite Micro's store does) gives other states on the saturating call."""
    data = svdf_model(1, 2, np.int8, seed=2)
    _, imported = import_bytes(data, tmp_path)
    inputs = svdf_inputs(1, seed=2)
    want = tflm_calls(data, inputs)
    right = kernels.KERNELS[nq.QSvdfStateOp]

    def saturating_late(op, x, weights_feature, state):
        zero = int(op.state_zero_point.get_values()[0])
        shifted = right(op, x, weights_feature, state).astype(np.int64)
        acc = wrap_int32((x.astype(np.int64) - int(op.x_zero_point.get_values()[0])) @ weights_feature.astype(np.int64).T)
        newest = multiply_by_quantized_multiplier(acc, *fixed_point(op, "state"))
        memory = shifted.shape[1] // weights_feature.shape[0]
        shifted[:, memory - 1 :: memory] = np.clip(newest + zero, -128, 127)
        return shifted.astype(np.int8)

    monkeypatch.setitem(kernels.KERNELS, nq.QSvdfStateOp, saturating_late)
    with pytest.raises(AssertionError):
        assert_same_calls(cfmem_calls(imported, tmp_path, data, inputs), want)


@pytest.mark.parametrize(("change", "message"), [
    ("no_bias", r"SVDF without a bias is not supported \(TFLite Micro's Prepare reads the bias's scale\)"),
    ("state_as_input", r"the state \(input #4\) must be a variable tensor of the main subgraph"),
])  # fmt: skip
def test_svdf_tflite_micro_does_not_run_is_refused(tmp_path, change, message):
    model = parse_tflite(svdf_model(1, 2, np.int8, seed=0))
    sg = model.subgraphs[0]
    if change == "no_bias":
        sg.operators[0].inputs[3] = -1
    else:  # the state a model input instead of a variable
        sg.tensors[sg.operators[0].inputs[4]].isVariable = False
        sg.inputs = np.array([*sg.inputs, sg.operators[0].inputs[4]], np.int32)
    data = _packed(model)
    with pytest.raises(TfliteImportError, match=rf"^operator 0 \(SVDF\) of subgraph 0: {message}$"):
        import_bytes(data, tmp_path)


def _packed(model) -> bytes:
    import flatbuffers

    from cfmem.tflite.model_file import FILE_IDENTIFIER

    builder = flatbuffers.Builder(1024)
    builder.Finish(model.Pack(builder), file_identifier=FILE_IDENTIFIER)
    return bytes(builder.Output())


# --- integer QUANTIZE and SOFTMAX to int16 -----------------------------------------------------------

REQUANTIZE_CASES = [  # (input type, its scale and zero point, output type, its scale and zero point)
    (np.int16, 0.5, 0, np.int8, 1.0, -3),  # halves on every odd input
    (np.int16, 1 / 256, 7, np.int8, 1.0, 0),  # halves at 128 mod 256
    (np.int16, 0.000625, 0, np.int8, 0.0592083335, -128),  # keyword_scrambled's input
    (np.int16, 1.5259022e-05, -32768, np.int32, 3.051851e-05, 0),  # keyword_scrambled's output
    (np.int16, 3.0, 5, np.int16, 1.0, -9),  # a multiplier above one, saturating
    (np.int8, 0.1, 2, np.int16, 0.00025, 11),
    (np.int8, 0.5, -1, np.int32, 0.25, 1000),
    (np.int32, 0.001, 0, np.int8, 0.5, 1),
    (np.int32, 1 / 64, 0, np.int16, 1.0, -2),
]


def hostile_values(dtype, seed: int) -> np.ndarray:
    info = np.iinfo(dtype)
    rng = np.random.default_rng(seed)
    edges = [info.min, info.min + 1, info.max, info.max - 1, 0, 1, -1, 2, -2, 3, -3, 127, 128, -128, -129, 383, -385, 640, -640]
    edges = [v for v in edges if info.min <= v <= info.max]
    return np.array([*edges, *rng.integers(info.min, info.max, 64 - len(edges), endpoint=True)], dtype).reshape(1, 64)


def requantize_model() -> bytes:
    w = TfliteWriter()
    sg = w.subgraph("main")
    ins, outs = [], []
    for k, (source, s_in, z_in, target, s_out, z_out) in enumerate(REQUANTIZE_CASES):
        ins.append(sg.tensor(f"x{k}", (1, 64), source, scale=s_in, zero_point=z_in))
        outs.append(sg.tensor(f"y{k}", (1, 64), target, scale=s_out, zero_point=z_out))
        sg.op("QUANTIZE", [ins[-1]], [outs[-1]])
    sg.io(ins, outs)
    return w.pack()


def scalar_requantize(x: int, case) -> int:
    """TFLite's ``Requantize`` of one value, with the scalar MultiplyByQuantizedMultiplier."""
    _, s_in, z_in, target, s_out, z_out = case
    multiplier, shift = quantize_multiplier(float(np.float32(s_in)) / float(np.float32(s_out)))
    info = np.iinfo(target)
    value = ((reference_multiply(x - z_in, multiplier, shift) + z_out + 2**31) % 2**32) - 2**31
    return min(max(value, int(info.min)), int(info.max))


def test_integer_quantize_matches_tflm_on_hostile_values(tmp_path):
    data = requantize_model()
    _, imported = import_bytes(data, tmp_path)
    assert sum(isinstance(op, nq.QRequantizeOp) for op in imported.module.walk()) == len(REQUANTIZE_CASES)
    xs = [hostile_values(case[0], k) for k, case in enumerate(REQUANTIZE_CASES)]
    want = tm.tflm_outputs(data, xs)
    golden, flat, _ = run_both(imported, tmp_path, xs)
    for x, g, f, w, case in zip(xs, golden, flat, want, REQUANTIZE_CASES, strict=True):
        np.testing.assert_array_equal(w, np.array([[scalar_requantize(int(v), case) for v in x[0]]], case[3]))
        np.testing.assert_array_equal(g, w)
        np.testing.assert_array_equal(f, w)
        assert g.dtype == np.dtype(case[3])
    float_rounding = np.clip(np.rint((xs[0].astype(np.float64) - 0) * 0.5) - 3, -128, 127)
    assert (float_rounding != want[0]).any()  # half to even is not TFLite's rounding


def test_quantize_tflite_micro_does_not_compute_is_refused(tmp_path):
    w = TfliteWriter()
    sg = w.subgraph("main")
    x = sg.tensor("x", (1, 4), np.int16, scale=0.1)
    y = sg.tensor("y", (1, 4), np.uint8, scale=0.1, zero_point=128)
    sg.op("QUANTIZE", [x], [y])
    sg.io([x], [y])
    with pytest.raises(TfliteImportError, match=r"^operator 0 \(QUANTIZE\) of subgraph 0: QUANTIZE of int16 to uint8 is not supported \(TFLite Micro does not compute it\)$"):
        import_bytes(w.pack(), tmp_path)


SOFTMAX_CASES = [(2, 0.0699627325), (10, 0.1), (511, 0.0125), (512, 0.7), (3, 100.0)]
"""(row length, input scale): 512 equal elements, which stop TFLite Micro's int8 SOFTMAX to int8, do not to int16."""


def softmax_to_int16_model(cases=SOFTMAX_CASES) -> bytes:
    w = TfliteWriter()
    sg = w.subgraph("main")
    ins, outs = [], []
    for k, (depth, scale) in enumerate(cases):
        ins.append(sg.tensor(f"x{k}", (14, depth), np.int8, scale=scale, zero_point=2))
        outs.append(sg.tensor(f"y{k}", (14, depth), np.int16, scale=1.5259022e-05, zero_point=-32768))
        sg.op("SOFTMAX", [ins[-1]], [outs[-1]], options("SoftmaxOptions", beta=1.0))
    sg.io(ins, outs)
    return w.pack()


def test_int8_softmax_to_int16_matches_tflm_on_hostile_rows(tmp_path):
    data = softmax_to_int16_model()
    _, imported = import_bytes(data, tmp_path)
    rows = [hostile_rows(depth, k) for k, (depth, _) in enumerate(SOFTMAX_CASES)]
    want = tm.tflm_outputs(data, rows)
    golden, flat, _ = run_both(imported, tmp_path, rows)
    for g, f, w in zip(golden, flat, want, strict=True):
        assert g.dtype == np.int16
        np.testing.assert_array_equal(g, w)
        np.testing.assert_array_equal(f, w)
    assert len(np.unique(want[1])) > 40
    differing = 0
    for x, w, (_, scale) in zip(rows, want, SOFTMAX_CASES, strict=True):  # a float softmax rounded to int16
        real = (x.astype(np.float64) - 2) * np.float32(scale)
        exact = np.exp(real - real.max(axis=1, keepdims=True))
        differing += int((np.clip(np.rint(exact / exact.sum(axis=1, keepdims=True) * 65536) - 32768, -32768, 32767) != w).sum())
    assert differing > 0


def test_softmax_to_int16_rounding_down_differs(tmp_path, monkeypatch):
    """The final division by a power of two truncated instead of rounded: other outputs."""
    from cfmem.interp.kernels import quantized

    data = softmax_to_int16_model()
    _, imported = import_bytes(data, tmp_path)
    rows = [hostile_rows(depth, k) for k, (depth, _) in enumerate(SOFTMAX_CASES)]
    want = tm.tflm_outputs(data, rows)
    monkeypatch.setattr(quantized, "rounding_divide_by_pot", lambda x, exponent: np.asarray(x, np.int64) >> exponent)
    golden = run_both(imported, tmp_path, rows)[0]
    assert any((g != w).any() for g, w in zip(golden, want, strict=True))


def lowered_runs(imported, feeds: dict[str, np.ndarray]) -> tuple[dict, dict]:
    """The JIT-run linalg lowering's outputs and the checking flat interpreter's on ``feeds``."""
    flat = flat_form(imported.module)
    (jit,) = run_mlir(str(prepare_for_jit(to_linalg(flat))), flat, [dict(feeds)])
    return jit, run_flat(flat, dict(feeds), check=True).outputs


@needs_mlir
def test_the_linalg_lowering_of_integer_quantize_and_softmax_to_int16_is_exact(tmp_path, monkeypatch):
    """``nn.qrequantize`` (every case above, on its hostile values) and ``nn.qsoftmax`` to int16
    (on hostile rows of 511 and 512) lowered by nn-lower-to-linalg and JIT-run: the flat interpreter's bytes,
    which are TFLite Micro's (the tests above); with the rounding division truncated, QUANTIZE's
    differ."""
    from cfmem.passes.linalg import fixed_point as linalg_fixed_point

    _, requantize = import_bytes(requantize_model(), tmp_path)
    feeds = {f"x{k}": hostile_values(case[0], k) for k, case in enumerate(REQUANTIZE_CASES)}
    jit, flat = lowered_runs(requantize, feeds)
    for name, want in flat.items():
        assert jit[name].dtype == want.dtype
        np.testing.assert_array_equal(jit[name], want, err_msg=name)
    cases = SOFTMAX_CASES[2:4]  # rows of 511 and of 512 (which stop TFLite Micro's SOFTMAX to int8)
    _, softmax = import_bytes(softmax_to_int16_model(cases), tmp_path)
    rows = {f"x{k}": hostile_rows(depth, k) for k, (depth, _) in enumerate(cases)}
    jit_rows, flat_rows = lowered_runs(softmax, rows)
    for name, want in flat_rows.items():
        assert want.dtype == np.int16
        np.testing.assert_array_equal(jit_rows[name], want, err_msg=name)
    monkeypatch.setattr(linalg_fixed_point, "rounding_divide_by_pot", lambda x, e: x if e == 0 else arith.ShRSIOp(x, linalg_fixed_point.as_i32(e)).result)
    wrong, _ = lowered_runs(requantize, feeds)
    assert any(not np.array_equal(wrong[name], want) for name, want in flat.items())


@needs_mlir
@pytest.mark.parametrize(("batch", "rank", "state_type"), [(1, 2, np.int8), (1, 3, np.int16), (2, 3, np.int8)])
def test_the_linalg_lowering_of_one_svdf_is_exact_over_consecutive_calls(tmp_path, batch, rank, state_type):
    """``nn.qsvdf_state`` and ``nn.qsvdf`` lowered by nn-lower-to-linalg, JIT-run on the four
    calls above (newest state values saturating and wrapping with the zero point), each fed the
    state the flat interpreter left: the flat interpreter's output and state, byte for byte."""
    from cfmem.pipeline import lower_model
    from cfmem.signature import argument_names

    data = svdf_model(batch, rank, state_type, seed=rank)
    _, imported = import_bytes(data, tmp_path)
    flat = lower_model(imported.module, "nn-plan-memory", tmp_path)
    fn = next(op for op in flat.ops if op.name == "func.func")
    names = argument_names(fn)
    state, sets, wants = initial_state(parse_tflite(data)), [], []
    for (x,) in svdf_inputs(batch, seed=rank):
        sets.append(dict(zip(names, [x, *state], strict=True)))
        wants.append(run_flat(flat, dict(sets[-1]), check=True).outputs)
        state = list(wants[-1].values())[1:]
    jit = run_mlir(str(prepare_for_jit(to_linalg(flat))), flat, sets)
    for k, (got, want) in enumerate(zip(jit, wants, strict=True)):
        for name, expected in want.items():
            np.testing.assert_array_equal(got[name], expected, err_msg=f"call {k}: {name}")
    assert any(not np.array_equal(a, b) for a, b in zip(wants[0].values(), wants[1].values()))  # the calls differ


STATE_TEXT = ("nn.qsvdf_state %x, %wf, %s {{x_scale = array<f32: 0.05>, x_zero_point = array<i64: 3>, w_scale = array<f32: 0.01>,"
              " w_zero_point = array<i64: 0>, state_scale = array<f32: 0.2>, state_zero_point = array<i64: {zero}>,"
              " state_multiplier = array<i64: 1374389632>, state_shift = array<i64: -8>}}"
              " : (tensor<1x20xi8>, tensor<10x20xi8>, tensor<1x{size}x{state}>) -> tensor<1x{size}x{state}>")  # fmt: skip
OUTPUT_TEXT = ("nn.qsvdf %s, %wt {{state_scale = array<f32: 0.2>, state_zero_point = array<i64: 0>, w_scale = array<f32: 0.02>,"
               " w_zero_point = array<i64: 0>, y_scale = array<f32: 0.8>, y_zero_point = array<i64: -4>, element = i8, rank = {rank} : i64,"
               " y_multiplier = array<i64: 1374389632>, y_shift = array<i64: -7>}}"
               " : (tensor<1x60x{state}>, tensor<10x6x{time}>) -> tensor<1x{units}xi8>")  # fmt: skip


@pytest.mark.parametrize(("text", "message"), [
    (STATE_TEXT.format(zero=-100, size=60, state="i8"), None),
    (STATE_TEXT.format(zero=-100, size=60, state="i16"), None),
    (STATE_TEXT.format(zero=-100, size=64, state="i8"), r"state must have shape \[1, 10 \* memory\], got 1x64"),
    (STATE_TEXT.format(zero=-200, size=60, state="i8"), "state_zero_point -200 is not a value of i8"),
    (STATE_TEXT.format(zero=0, size=60, state="i32"), "input and weights_feature must be i8 tensors, state an i8 or i16 one"),
    (OUTPUT_TEXT.format(rank=2, units=5, state="i8", time="i8"), None),
    (OUTPUT_TEXT.format(rank=3, units=3, state="i8", time="i8"), "rank 3 does not divide the 10 filters"),
    (OUTPUT_TEXT.format(rank=2, units=4, state="i8", time="i8"), "result shape 1x4 does not match the inferred shape 1x5"),
    (OUTPUT_TEXT.format(rank=2, units=5, state="i16", time="i8"), "state and weights_time must be i8 or i16 tensors of one type"),
])  # fmt: skip
def test_the_verifier_holds_the_svdf_ops_to_what_tflite_micro_computes(text, message):
    from cfmem.errors import CfmemError
    from cfmem.ir_io import parse_module

    types = text.split(" : (")[1].split(") -> ")[0].split(", ")
    names = [v.strip("%") for v in text.split(" {")[0].split(" ", 1)[1].split(", ")]
    args = ", ".join(f"%{n}: {t}" for n, t in zip(names, types, strict=True))
    module = f"func.func @f({args}) {{\n  %r = {text}\n  func.return\n}}"
    if message is None:
        parse_module(module)
        return
    with pytest.raises(CfmemError, match=message):
        parse_module(module)
