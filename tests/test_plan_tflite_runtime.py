"""Planned ``.tflite`` models in TFLite Micro itself (the ``tflite-micro`` package's
interpreter): TFLM's own plan is what cfmem's model of its lifetimes and scratch buffers
predicts, TFLM places cfmem's offline plan as planned, the planned model needs no larger an
arena than the original, and its outputs are bit for bit the original's.

Models: TFLM's sine model (in its wheel), TFLM's examples under ``tests/data/tflite/``, an
``IF`` and a ``WHILE`` model built with the schema, and the eight openwakeword 0.5.1 models
(downloaded into the cache at test time; skipped, with the reason, if that is impossible)."""

from __future__ import annotations

import numpy as np
import pytest

from cfmem.testing.tflite_models import sine_float_model
from cfmem.planning.strategies import solve
from cfmem.testing.tflm_models import (
    OPENWAKEWORD_MODELS,
    example_models,
    if_model,
    openwakeword_models,
    while_model,
    while_swap_model,
)
from cfmem.tflite.aliases import aliased_problem, reshape_aliases, with_aliases
from cfmem.tflite.lifetimes import arena_problem, arena_tensors
from cfmem.tflite.offline_plan import planned_model
from cfmem.tflite.arena_plan import TflmComparison, compare_in_tflm, plan_for_tflm
from cfmem.tflite.model_file import parse_tflite
from cfmem.tflite import tflm_runtime
from cfmem.tflite.repack import pack_model
from cfmem.tflite.tflm_runtime import TflmError, TflmWorker, identical

CFMEM_SMALLER = {
    "embedding_model", "melspectrogram",  # TFLM's greedy planner stays above the lower bound, cfmem reaches it
    "alexa_v0.1", "hey_jarvis_v0.1", "hey_mycroft_v0.1", "hey_rhasspy_v0.1", "timer_v0.1", "weather_v0.1",  # RESHAPE in place
}  # fmt: skip


@pytest.fixture(scope="module")
def tflm():
    with TflmWorker() as worker:
        yield worker


@pytest.fixture(scope="module")
def wakeword_models():
    try:
        return openwakeword_models()
    except RuntimeError as err:
        pytest.skip(f"the openwakeword models cannot be fetched: {err}")


def check_in_tflm(data: bytes, tflm: TflmWorker, inputs: list[list[np.ndarray]] | None = None) -> TflmComparison:
    """Plan ``data``, run both models in TFLM, check."""
    plan = plan_for_tflm(parse_tflite(data), tflm)
    assert plan.scratch.unmeasured == []
    compared = compare_in_tflm(tflm, data, plan.planned, inputs)
    # TFLM's own head is what its planner gives on cfmem's buffers: lifetimes and scratch are TFLM's
    assert plan.tflm_peak == compared.own.head
    # TFLM puts the tensors where the plan says and fits its scratch buffers into the room left
    assert compared.planned.head == plan.solution.peak <= compared.own.head
    assert compared.planned.tail == compared.own.tail
    assert compared.planned_arena <= compared.own_arena
    if tflm.allocate(data, compared.own.total) is not None:
        # where TFLM's set-up fits in head + tail, cfmem's head and TFLM's persistent part are enough
        assert tflm.allocate(plan.planned, plan.solution.peak + compared.planned.tail) is not None
    assert compared.identical
    return compared


@pytest.mark.parametrize("name", sorted(example_models()))
def test_tflm_examples(name, tflm):
    check_in_tflm(example_models()[name].read_bytes(), tflm)


def test_sine(tflm):
    check_in_tflm(sine_float_model().read_bytes(), tflm)


def test_if_model_both_branches(tflm):
    x = np.linspace(-2, 2, 64).astype(np.float32)
    inputs = [[np.array([taken]), x] for taken in (True, False)]
    data = if_model()
    outputs = [tflm.run(data, 1 << 20, values)[0] for values in inputs]
    assert not np.array_equal(outputs[0], outputs[1])  # the two branches do differ
    check_in_tflm(data, tflm, inputs)


def test_while_model(tflm):
    x = np.linspace(-2, 2, 64).astype(np.float32)
    data = while_model(trips=5)
    acc = x.copy()
    for _ in range(5):
        acc = acc * np.float32(0.5) + x
    np.testing.assert_allclose(tflm.run(data, 1 << 20, [x])[0], acc + x, rtol=1e-6)
    check_in_tflm(data, tflm, [[x]])


def test_a_reshape_in_place_across_a_while_bodys_inputs_and_outputs(tflm):
    data = while_swap_model(trips=3)
    model = parse_tflite(data)
    tensors = arena_tensors(model)
    roots = reshape_aliases(model, tensors)
    assert roots == {"2:6": "2:1"}
    solution = solve(aliased_problem(arena_problem(tensors), roots))
    planned = planned_model(model, tensors, with_aliases(solution.offsets, roots))
    x = np.linspace(-2, 2, 64).astype(np.float32)
    a, b = tflm.run(data, 1 << 20, [x])
    np.testing.assert_array_equal(a, 2 * x)  # three swaps
    np.testing.assert_array_equal(b, x)
    assert identical(tflm.run(planned, 1 << 20, [x]), [a, b])
    assert tflm.allocate(planned, 1 << 20).head == solution.peak


@pytest.mark.parametrize("name", OPENWAKEWORD_MODELS)
def test_openwakeword(name, tflm, wakeword_models):
    compared = check_in_tflm(wakeword_models[name].read_bytes(), tflm)
    assert (compared.planned_arena < compared.own_arena) == (name in CFMEM_SMALLER)


def test_the_command_reports_tflm_arenas(tmp_path, cfmem, wakeword_models):
    out = tmp_path / "planned.tflite"
    res = cfmem("plan-tflite", str(wakeword_models["embedding_model"]), "-o", str(out))
    assert res.returncode == 0, res.stderr
    text = res.stdout
    assert "arena head planned by cfmem (strategy auto (large-first)): peak 454656 bytes, lower bound 454656 bytes" in text
    assert "TFLite Micro's own planner on the same buffers: 663552 bytes (cfmem 31.48 % smaller)" in text
    assert "(head 454656, tail " in text and "(head 663552)" in text
    assert "outputs of both models in TFLite Micro on 3 random input sets: identical" in text
    assert text.splitlines()[-1] == f"wrote {out}"
    assert "RESHAPE outputs on their inputs' bytes" not in text  # no RESHAPE: nothing shares bytes


def test_the_command_puts_a_reshape_in_place(tmp_path, cfmem, wakeword_models):
    out = tmp_path / "planned.tflite"
    res = cfmem("plan-tflite", str(wakeword_models["alexa_v0.1"]), "-o", str(out))
    assert res.returncode == 0, res.stderr
    text = res.stdout
    assert "): peak 6656 bytes, lower bound 6656 bytes, gap 0.00 %" in text
    assert "RESHAPE outputs on their inputs' bytes (TFLite Micro's RESHAPE then copies nothing): 1 tensor;" in text
    assert "each tensor on bytes of its own: 12288 bytes" in text
    assert "(head 6656, tail 1664); the model as it was: 13952 bytes (head 12288)" in text


def test_the_command_measures_scratch(tmp_path, cfmem):
    source = example_models()["audio_preprocessor_int8"]
    res = cfmem("plan-tflite", str(source), "-o", str(tmp_path / "planned.tflite"))
    assert res.returncode == 0, res.stderr
    assert "scratch buffers (TFLite Micro's reference kernels): 1024 bytes for 1 operator" in res.stdout


def test_a_run_tflm_never_finishes_is_a_one_line_error(monkeypatch, tflm):
    monkeypatch.setattr(tflm_runtime, "ANSWER_SECONDS", 2)
    endless = while_model(trips=2**31 - 1)
    with pytest.raises(TflmError, match="did not finish in 2 s"):
        tflm.run(endless, 1 << 20, [np.ones(64, np.float32)])
    assert tflm.smallest_arena(endless) == tflm.smallest_arena(while_model())  # a new child answers


def test_a_model_tflm_cannot_allocate_is_a_one_line_error(tflm):
    model = parse_tflite(example_models()["hello_world_int8"].read_bytes())
    model.operatorCodes[model.subgraphs[0].operators[0].opcodeIndex].builtinCode = 200  # no such operator
    model.operatorCodes[model.subgraphs[0].operators[0].opcodeIndex].deprecatedBuiltinCode = 127
    with pytest.raises(TflmError) as caught:
        tflm.smallest_arena(pack_model(model))
    assert "\n" not in str(caught.value) and "cannot allocate the model" in str(caught.value)


def test_the_command_plans_a_model_tflm_here_cannot_load(tmp_path, cfmem):
    model = parse_tflite(example_models()["hello_world_int8"].read_bytes())
    code = model.operatorCodes[model.subgraphs[0].operators[0].opcodeIndex]
    code.builtinCode, code.deprecatedBuiltinCode = 32, 32  # CUSTOM, with a name no build registers
    code.customCode = b"only-on-the-target"
    source = tmp_path / "custom.tflite"
    source.write_bytes(pack_model(model))
    res = cfmem("plan-tflite", str(source), "-o", str(tmp_path / "planned.tflite"))
    assert res.returncode == 0, res.stderr
    assert "scratch not measured for (TFLite Micro cannot run them alone): 0:0 CUSTOM:only-on-the-target" in res.stdout
    assert "not measured: the tflite-micro package's TFLite Micro cannot load the model:" in res.stdout
    assert (tmp_path / "planned.tflite").exists()
