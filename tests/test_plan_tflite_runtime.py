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

from cfmem.planning.strategies import solve
from cfmem.testing.tflm_models import OPENWAKEWORD_MODELS, example_models, if_model, openwakeword_models, sine_model, while_model
from cfmem.tflite.lifetimes import arena_problem, arena_tensors
from cfmem.tflite.model_file import parse_tflite
from cfmem.tflite.offline_plan import planned_model
from cfmem.tflite.scratch_probe import measure_scratch
from cfmem.tflite.tflm_runtime import ArenaProbe, identical, random_inputs, run

CFMEM_SMALLER = {"embedding_model", "melspectrogram"}
"""Where TFLM's greedy planner stays above the lower bound and cfmem reaches it."""


@pytest.fixture(scope="module")
def probe():
    with ArenaProbe() as arena_probe:
        yield arena_probe


@pytest.fixture(scope="module")
def wakeword_models():
    try:
        return openwakeword_models()
    except RuntimeError as err:
        pytest.skip(f"the openwakeword models cannot be fetched: {err}")


def check_in_tflm(data: bytes, probe: ArenaProbe, inputs: list[list[np.ndarray]] | None = None) -> tuple[int, int]:
    """Plan ``data``, run both models in TFLM, check; the two smallest arenas (own, cfmem's)."""
    model = parse_tflite(data)
    tensors = arena_tensors(model)
    scratch = measure_scratch(model, probe)
    assert scratch.unmeasured == []
    problem = arena_problem(tensors, scratch.blocks)
    solution = solve(problem)
    planned = planned_model(model, tensors, solution.offsets)

    own, mine = probe.smallest_arena(data), probe.smallest_arena(planned)
    own_report, my_report = probe.allocate(data, own), probe.allocate(planned, mine)
    assert own_report is not None and my_report is not None
    # TFLM's own head is what its planner gives on cfmem's buffers: lifetimes and scratch are TFLM's
    assert solve(problem, "tflm").peak == own_report.head
    # TFLM puts the tensors where the plan says and fits its scratch buffers into the room left
    assert my_report.head == solution.peak <= own_report.head
    assert my_report.tail == own_report.tail
    assert mine <= own
    if probe.allocate(data, own_report.head + own_report.tail) is not None:
        # where TFLM's set-up fits in head + tail, cfmem's head and TFLM's persistent part are enough
        assert probe.allocate(planned, solution.peak + my_report.tail) is not None
    for values in inputs or [random_inputs(data, own, seed) for seed in range(3)]:
        assert identical(run(data, own, values), run(planned, mine, values))
    return own, mine


@pytest.mark.parametrize("name", sorted(example_models()))
def test_tflm_examples(name, probe):
    check_in_tflm(example_models()[name].read_bytes(), probe)


def test_sine(probe):
    check_in_tflm(sine_model().read_bytes(), probe)


def test_if_model_both_branches(probe):
    x = np.linspace(-2, 2, 64).astype(np.float32)
    inputs = [[np.array([taken]), x] for taken in (True, False)]
    data = if_model()
    outputs = [run(data, 1 << 20, values)[0] for values in inputs]
    assert not np.array_equal(outputs[0], outputs[1])  # the two branches do differ
    check_in_tflm(data, probe, inputs)


def test_while_model(probe):
    x = np.linspace(-2, 2, 64).astype(np.float32)
    data = while_model(trips=5)
    acc = x.copy()
    for _ in range(5):
        acc = acc * np.float32(0.5) + x
    np.testing.assert_allclose(run(data, 1 << 20, [x])[0], acc + x, rtol=1e-6)
    check_in_tflm(data, probe, [[x]])


@pytest.mark.parametrize("name", OPENWAKEWORD_MODELS)
def test_openwakeword(name, probe, wakeword_models):
    own, mine = check_in_tflm(wakeword_models[name].read_bytes(), probe)
    if name in CFMEM_SMALLER:
        assert mine < own


def test_the_command_reports_tflm_arenas(tmp_path, cfmem, wakeword_models):
    out = tmp_path / "planned.tflite"
    res = cfmem("plan-tflite", str(wakeword_models["embedding_model"]), "-o", str(out))
    assert res.returncode == 0, res.stderr
    text = res.stdout
    assert "arena head: 454656 bytes planned by cfmem" in text and "lower bound 454656 bytes" in text
    assert "TFLite Micro's own planner on the same buffers: 663552 bytes (cfmem 31.48 % smaller)" in text
    assert "(head 454656, tail " in text and "(head 663552)" in text
    assert "outputs of both models in TFLite Micro on a random input: identical" in text
    assert text.splitlines()[-1] == f"wrote {out}"


def test_the_command_measures_scratch(tmp_path, cfmem):
    source = example_models()["audio_preprocessor_int8"]
    res = cfmem("plan-tflite", str(source), "-o", str(tmp_path / "planned.tflite"))
    assert res.returncode == 0, res.stderr
    assert "scratch buffers (TFLite Micro's reference kernels): 1024 bytes for 1 operator" in res.stdout
