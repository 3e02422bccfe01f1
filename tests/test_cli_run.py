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


def one_error_line(res, location: str) -> str:
    """The single error line of a failed command, checked for its location."""
    assert res.returncode == 1, res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"cfmem: {location}: error: "), res.stderr
    return lines[0]


def test_negative_seed_is_refused(cfmem):
    line = one_error_line(cfmem("run", str(SMALL), "--seed", "-1"), "--seed")
    assert line.endswith("must be an integer from 0 to 9223372036854775807, not -1")


def write_inputs(path, x, mode=np.zeros(1, np.float32)):
    np.savez(path, x=x, mode=mode)
    return str(path)


@pytest.mark.parametrize(
    "x, mode",
    [
        (np.zeros((1, 4, 8, 8), np.int32), np.ones(1, np.bool_)),  # int32 and bool into f32: exact
        (np.full((1, 4, 8, 8), 0.5, np.float16), np.zeros(1, np.int8)),
        (np.full((1, 4, 8, 8), 0.25), np.zeros(1)),  # float64 whose values are float32 values
        (np.full((1, 4, 8, 8), 2.0 + 0j, np.complex64), np.zeros(1, np.float32)),  # no imaginary part
        (np.full((1, 4, 8, 8), 2**40, np.int64), np.zeros(1, np.float32)),  # fits float32 exactly
    ],
)
def test_lossless_dtypes_are_accepted_quietly(cfmem, tmp_path, x, mode):
    res = cfmem("run", str(SMALL), "--inputs", write_inputs(tmp_path / "in.npz", x, mode))
    assert res.returncode == 0 and res.stderr == "", res.stderr


@pytest.mark.parametrize(
    "x, message",
    [
        (np.full((1, 4, 8, 8), 0.1), "input 'x' has dtype float64, expected float32: 0.1 at (0, 0, 0, 0) does not convert exactly"),
        (np.full((1, 4, 8, 8), 1 + 2j, np.complex64), "input 'x' has dtype complex64, expected float32: it has non-zero imaginary parts"),
        (np.full((1, 4, 8, 8), 2**40 + 1, np.int64), "input 'x' has dtype int64, expected float32: 1099511627777 at"),
        (np.full((1, 4, 8, 8), 1e300), "input 'x' has dtype float64, expected float32: 1e+300 at"),
    ],
)  # fmt: skip
def test_lossy_dtypes_are_one_line_naming_input_and_dtypes(cfmem, tmp_path, x, message):
    line = one_error_line(cfmem("run", str(SMALL), "--inputs", write_inputs(tmp_path / "in.npz", x)), str(SMALL))
    assert message in line


def test_integer_input_takes_whole_numbers_only(cfmem, tmp_path):
    model = tmp_path / "m.mlir"
    model.write_text(
        "func.func @main(%n: tensor<2xi8>) -> tensor<2xi8> {\n  func.return %n : tensor<2xi8>\n}\n"
    )
    np.savez(tmp_path / "ok.npz", n=np.array([3.0, -128.0]))
    assert cfmem("run", str(model), "--inputs", str(tmp_path / "ok.npz")).returncode == 0
    np.savez(tmp_path / "bad.npz", n=np.array([3, 200], np.int32))
    line = one_error_line(cfmem("run", str(model), "--inputs", str(tmp_path / "bad.npz")), str(model))
    assert "input 'n' has dtype int32, expected int8: 200 at (1,) does not convert exactly" in line


@pytest.mark.parametrize(
    "save, message",
    [
        (lambda p: np.save(p, np.zeros(3)), "holds one array, not an .npz archive"),
        (lambda p: np.savez(p, x=np.array(["a", "b"]), mode=np.zeros(1)), "input 'x' has dtype <U1, not numbers"),
        (lambda p: np.savez(p, x=np.array([1, None], dtype=object)), "input 'x' holds Python objects, not numbers"),
    ],
)
def test_inputs_that_are_not_numbers_name_the_file_and_input(cfmem, tmp_path, save, message):
    path = tmp_path / "in.npz"
    with open(path, "wb") as f:  # keep the name: np.save and np.savez would add a suffix
        save(f)
    line = one_error_line(cfmem("run", str(SMALL), "--inputs", str(path)), str(path))
    assert message in line


HUGE_INPUT = """func.func @main(%x: tensor<100000x100000x2xf32>) -> tensor<100000x100000x2xf32> {
  %y = nn.relu %x : (tensor<100000x100000x2xf32>) -> tensor<100000x100000x2xf32>
  func.return %y : tensor<100000x100000x2xf32>
}
"""
HUGE_VALUE = """func.func @main(%x: tensor<100000x1xf32>, %y: tensor<1x100000xf32>) -> tensor<100000x100000xf32> {
  %z = nn.add %x, %y : (tensor<100000x1xf32>, tensor<1x100000xf32>) -> tensor<100000x100000xf32>
  func.return %z : tensor<100000x100000xf32>
}
"""
OVERFLOWING_INPUT = """func.func @main(%x: tensor<10000000000000x10000000000xf32>) -> tensor<10000000000000x10000000000xf32> {
  func.return %x : tensor<10000000000000x10000000000xf32>
}
"""


@pytest.mark.parametrize(
    "text, message",
    [
        (HUGE_INPUT, "input 'x' (tensor<100000x100000x2xf32>) takes 74.5 GiB"),
        (HUGE_VALUE, "running @main needs up to 37.3 GiB (the largest, %z, 37.3 GiB)"),
        (OVERFLOWING_INPUT, "input 'x' (tensor<10000000000000x10000000000xf32>) takes"),
    ],
)
def test_huge_shapes_are_refused_before_allocating(cfmem, tmp_path, text, message):
    model = tmp_path / "m.mlir"
    model.write_text(text)
    line = one_error_line(cfmem("run", str(model), "--seed", "0"), str(model))
    assert message in line


def test_zero_size_and_empty_mean_print_no_warning(cfmem, tmp_path):
    model = tmp_path / "m.mlir"
    model.write_text(
        "func.func @main(%x: tensor<1x0xf32>) -> (tensor<1x1xf32>, tensor<1x0xf32>) {\n"
        "  %m = nn.reduce_mean %x {axes = array<i64: 1>} : (tensor<1x0xf32>) -> tensor<1x1xf32>\n"
        "  %r = nn.relu %x : (tensor<1x0xf32>) -> tensor<1x0xf32>\n"
        "  func.return %m, %r : tensor<1x1xf32>, tensor<1x0xf32>\n}\n"
    )
    res = cfmem("run", str(model))
    assert res.returncode == 0 and res.stderr == "", res.stderr
    assert "m: float32[1, 1] min nan max nan mean nan" in res.stdout
    assert "r: float32[1, 0]\n" in res.stdout


def test_an_if_that_ran_several_times_is_one_line_with_its_counts():
    from cfmem.tools.run import branch_lines

    trace = [("if#1", True), ("if#0", False), ("if#1", False), ("if#1", True)]
    assert branch_lines(trace) == ["if#1: then x2, else x1", "if#0: else"]


def test_a_full_device_behind_standard_output_is_one_line_and_exit_1():
    """``run`` prints its outputs: a write that fails (a full disk) is the command's one-line
    error, not an internal error, and nothing is printed at exit after it."""
    import subprocess
    from pathlib import Path

    from conftest import CFMEM

    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    example = str(ROOT / "examples" / "wakeword.mlir")
    with open("/dev/full", "w") as full:
        done = subprocess.run([*CFMEM, "run", example, "--seed", "0"], stdout=full, stderr=subprocess.PIPE, text=True)
    assert done.returncode == 1
    assert done.stderr.splitlines() == ["cfmem: standard output: error: cannot write: No space left on device"]
