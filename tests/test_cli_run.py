"""``cfmem run`` end to end: inputs, outputs, branches, and bad input."""

import numpy as np
import pytest

from conftest import ROOT

SMALL = ROOT / "tests" / "data" / "small_if.mlir"


def test_run_saves_outputs_keyed_by_result_name(cfmem, tmp_path):
    x = np.random.default_rng(0).standard_normal((1, 4, 8, 8)).astype(np.float32)
    outs = {}
    for mode, branch in ((1.0, "then"), (0.0, "else")):
        np.savez(tmp_path / "in.npz", x=x, mode=np.array([mode], np.float32))
        res = cfmem("run", str(SMALL), "--inputs", str(tmp_path / "in.npz"), "-o", str(tmp_path / "out.npz"))
        assert res.returncode == 0, res.stderr
        assert f"if#0: {branch}" in res.stdout
        with np.load(tmp_path / "out.npz") as data:
            assert data.files == ["r"]
            outs[branch] = data["r"]
    # then = relu(conv(x)), else = conv(x): they agree where the conv is positive
    assert (outs["then"] >= 0).all() and (outs["else"] < 0).any()
    np.testing.assert_array_equal(outs["then"], np.maximum(outs["else"], 0))


def test_seeded_random_inputs_are_deterministic(cfmem):
    first = cfmem("run", str(SMALL), "--seed", "3").stdout
    assert first == cfmem("run", str(SMALL), "--seed", "3").stdout
    assert first != cfmem("run", str(SMALL), "--seed", "4").stdout


@pytest.mark.parametrize(
    "inputs, message",
    [
        ({"x": np.zeros((1, 4, 8, 8), np.float32)}, "missing input 'mode'"),
        ({"x": np.zeros((1, 4, 8, 7), np.float32), "mode": np.zeros(1, np.float32)}, "input 'x' has shape"),
        ({"x": np.zeros((1, 4, 8, 8), np.float32), "mode": np.zeros(1, np.float32), "y": np.zeros(1)}, "unknown input(s) y"),
    ],
)
def test_bad_inputs_give_one_line(cfmem, tmp_path, inputs, message):
    np.savez(tmp_path / "in.npz", **inputs)
    res = cfmem("run", str(SMALL), "--inputs", str(tmp_path / "in.npz"), "-o", str(tmp_path / "out.npz"))
    assert res.returncode == 1
    assert message in res.stderr and len(res.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "out.npz").exists()


def test_unreadable_inputs_file(cfmem, tmp_path):
    (tmp_path / "in.npz").write_text("not a zip")
    res = cfmem("run", str(SMALL), "--inputs", str(tmp_path / "in.npz"))
    assert res.returncode == 1 and "cannot read inputs" in res.stderr
