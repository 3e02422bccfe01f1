"""``cfmem check-mlir`` end to end: agreement, a broken plan, bad input."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

from cfmem.differential import max_abs_diff, scaled_error
from conftest import EXAMPLES, run_cfmem


def test_example_agrees_on_every_branch_with_real_mlir():
    result = run_cfmem("check-mlir", str(EXAMPLES / "wakeword.mlir"))
    assert result.returncode == 0, result.stderr
    rows = [line for line in result.stdout.splitlines() if line.startswith("#")]
    assert [row.split()[-1] for row in rows] == ["if#0:else", "if#0:then"]
    for row in rows:
        assert "bit-identical" in row
        fraction = float(re.search(r"([0-9.e+-]+) of bound", row).group(1))
        assert fraction <= 1.0
    assert result.stdout.rstrip().endswith("ok: 2 input set(s), every run agrees, every branch outcome ran (2 of 2)")
    assert result.stderr == ""


def test_flat_module_with_a_clobbered_tensor_fails_with_both_names(tmp_path):
    flat = tmp_path / "flat.mlir"
    assert run_cfmem("opt", str(EXAMPLES / "fusiondetect.mlir"), "-p", "nn-plan-memory,nn-lower-to-memref",
                     "-o", str(flat)).returncode == 0
    text = flat.read_text()
    # put the second planned tensor on the bytes of the first one
    views = re.findall(r'memref.view %arena\[(%c\d+)\]\[\] \{cfmem.tensor = "(\w+)"\}', text)
    (first_offset, first), (second_offset, second) = views[0], next(v for v in views[1:] if v[0] != views[0][0])
    text = text.replace(f'%arena[{second_offset}][] {{cfmem.tensor = "{second}"}}',
                        f'%arena[{first_offset}][] {{cfmem.tensor = "{second}"}}', 1)
    flat.write_text(text)
    result = run_cfmem("check-mlir", str(flat), "--no-mlir")
    assert result.returncode == 1
    assert len(result.stderr.strip().splitlines()) == 1
    assert result.stderr.startswith(f"cfmem: {flat}:") and f"%{first}" in result.stderr and f"%{second}" in result.stderr


def test_bad_pipeline_is_one_line():
    result = run_cfmem("check-mlir", str(EXAMPLES / "denoise.mlir"), "-p", "nn-plan-memory{mode=bogus}")
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and "mode" in result.stderr and "bogus" in result.stderr


IF_ON = """func.func @main(%x: tensor<1x4xf32>, %c: tensor<1xi1>) -> tensor<1x4xf32> {{
  {cond}
  %r = nn.if %p : tensor<1xi1> -> (tensor<1x4xf32>) {{
    %t = nn.relu %x : (tensor<1x4xf32>) -> tensor<1x4xf32>
    nn.yield %t : tensor<1x4xf32>
  }} else {{
    nn.yield %x : tensor<1x4xf32>
  }}
  func.return %r : tensor<1x4xf32>
}}
"""
ARGUMENT_IF = IF_ON.format(cond="%p = nn.reshape %c : tensor<1xi1> to tensor<1xi1>")
CONSTANT_IF = IF_ON.format(cond="%p = nn.constant dense<true> : tensor<1xi1>")


def nested_thresholds(depth: int, first: float) -> str:
    """``depth`` ifs, each in the then-branch of the one before, on ``%m > first + k``:
    far from where normal inputs land, so only steering reaches the inner ones."""
    lines = ["func.func @main(%x: tensor<1x4xf32>, %m: tensor<1xf32>) -> tensor<1x4xf32> {"]
    for k in range(depth):
        lines += [
            f"%k{k} = nn.constant dense<{first + k:e}> : tensor<1xf32>",
            f'%p{k} = nn.cmp %m, %k{k} {{predicate = "gt"}} : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xi1>',
            f"%r{k} = nn.if %p{k} : tensor<1xi1> -> (tensor<1x4xf32>) {{",
        ]
    lines.append("%t = nn.relu %x : (tensor<1x4xf32>) -> tensor<1x4xf32>")
    result = "%t"
    for k in reversed(range(depth)):
        lines += [
            f"nn.yield {result} : tensor<1x4xf32>",
            "} else {",
            f"%e{k} = nn.sigmoid %x : (tensor<1x4xf32>) -> tensor<1x4xf32>",
            f"nn.yield %e{k} : tensor<1x4xf32>",
            "}",
        ]
        result = f"%r{k}"
    lines += [f"func.return {result} : tensor<1x4xf32>", "}"]
    return "\n".join(lines) + "\n"


def model(tmp_path, text: str) -> str:
    path = tmp_path / "m.mlir"
    path.write_text(text)
    return str(path)


def last_line(result) -> str:
    return result.stdout.rstrip().splitlines()[-1]


def test_condition_that_is_an_argument_is_steered_both_ways(tmp_path):
    result = run_cfmem("check-mlir", model(tmp_path, ARGUMENT_IF), "--no-mlir")
    assert result.returncode == 0 and result.stderr == "", result.stderr
    assert last_line(result) == "ok: 2 input set(s), every run agrees, every branch outcome ran (2 of 2)"


def test_ten_nested_ifs_far_from_the_data_are_all_reached(tmp_path):
    result = run_cfmem("check-mlir", model(tmp_path, nested_thresholds(10, 1000.0)), "--no-mlir")
    assert result.returncode == 0 and result.stderr == "", result.stderr
    assert last_line(result).endswith("every branch outcome ran (20 of 20)")


def test_the_flat_form_is_searched_too(tmp_path):
    flat = tmp_path / "flat.mlir"
    lowered = run_cfmem("opt", model(tmp_path, nested_thresholds(3, 50.0)), "-p", "nn-plan-memory,nn-lower-to-memref",
                        "-o", str(flat))  # fmt: skip
    assert lowered.returncode == 0, lowered.stderr
    result = run_cfmem("check-mlir", str(flat), "--no-mlir")
    assert result.returncode == 0, result.stderr
    assert last_line(result).endswith("every branch outcome ran (6 of 6)")


def test_unreached_outcome_is_an_error_unless_allowed(tmp_path):
    path = model(tmp_path, CONSTANT_IF)
    result = run_cfmem("check-mlir", path, "--no-mlir")
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"cfmem: {path}: error: 1 of 2 branch outcomes never ran: if#0:else")
    allowed = run_cfmem("check-mlir", path, "--no-mlir", "--allow-untested")
    assert allowed.returncode == 0, allowed.stderr
    assert last_line(allowed) == (
        "untested: 1 input set(s), every run agrees, but 1 of 2 branch outcomes never ran: if#0:else (--allow-untested)"
    )


GATED_LOOP = """
func.func @main(%x: tensor<1x8xf32>) -> tensor<1x8xf32> {{
  %n = nn.constant dense<4> : tensor<i64>
  {cond}
  %h = nn.loop %n, %go (%x) : (tensor<i64>, tensor<1x1xi1>, tensor<1x8xf32>) -> (tensor<1x8xf32>) {{
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %a: tensor<1x8xf32>):
    %t = nn.tanh %a : (tensor<1x8xf32>) -> tensor<1x8xf32>
    nn.yield %c, %t : tensor<i1>, tensor<1x8xf32>
  }}
  func.return %h : tensor<1x8xf32>
}}
"""
LOUD_LOOP = GATED_LOOP.format(cond="""%level = nn.reduce_mean %x {axes = array<i64: 0, 1>} : (tensor<1x8xf32>) -> tensor<1x1xf32>
  %limit = nn.constant dense<1.000000e+03> : tensor<1xf32>
  %go = nn.cmp %level, %limit {predicate = "gt"} : (tensor<1x1xf32>, tensor<1xf32>) -> tensor<1x1xi1>""")
"""Runs its body only when the input's mean is above 1000, which no grid input reaches."""
IDLE_LOOP = GATED_LOOP.format(cond="%go = nn.constant dense<false> : tensor<1x1xi1>")


def test_a_loop_body_far_from_the_data_is_run_by_the_search(tmp_path):
    result = run_cfmem("check-mlir", model(tmp_path, LOUD_LOOP), "--no-mlir")
    assert result.returncode == 0, result.stderr
    ran = last_line(result).split("loop iterations run: loop#0 ")[1]
    assert any(int(n) > 0 for n in ran.split(" (")[0].split(", "))


def test_a_loop_body_no_input_runs_is_an_error_unless_allowed(tmp_path):
    path = model(tmp_path, IDLE_LOOP)
    result = run_cfmem("check-mlir", path, "--no-mlir")
    assert result.returncode == 1 and not last_line(result).startswith("ok")
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"cfmem: {path}: error: the body of loop#0 never ran")
    allowed = run_cfmem("check-mlir", path, "--no-mlir", "--allow-untested")
    assert allowed.returncode == 0, allowed.stderr
    assert last_line(allowed).startswith("untested: 1 input set(s), every run agrees, but the body of loop#0 never ran")


@pytest.mark.parametrize("how", [["--seed", "0"], ["--inputs", "IN"]])
def test_one_input_set_says_which_outcomes_ran(tmp_path, how):
    np.savez(tmp_path / "in.npz", x=np.ones((1, 4), np.float32), c=np.zeros(1, np.bool_))
    how = [str(tmp_path / "in.npz") if arg == "IN" else arg for arg in how]
    result = run_cfmem("check-mlir", model(tmp_path, ARGUMENT_IF), "--no-mlir", *how)
    assert result.returncode == 0, result.stderr
    line = last_line(result)
    ran, missing = re.fullmatch(r"ok: 1 input set\(s\), every run agrees; branch outcomes run: (\S+); not run: (\S+)",
                                line).groups()  # fmt: skip
    assert {ran, missing} == {"if#0:then", "if#0:else"}


@pytest.mark.parametrize(
    "option, value, message",
    [
        ("--rtol", "nan", "must be a finite number >= 0, not nan"),
        ("--atol", "inf", "must be a finite number >= 0, not inf"),
        ("--rtol", "-0.5", "must be a finite number >= 0, not -0.5"),
        ("--rtol", "-1e-5", "must be a finite number >= 0, not -1e-05"),  # a number, not an option
        ("--seed", "-1", "must be an integer from 0 to 9223372036854775807, not -1"),
        ("--timeout", "0", "must be a positive number of seconds, not 0"),
        ("--timeout", "inf", "must be a positive number of seconds, not inf"),
    ],
)
def test_bad_tolerance_or_seed_is_refused(tmp_path, option, value, message):
    result = run_cfmem("check-mlir", model(tmp_path, ARGUMENT_IF), option, value)
    assert result.returncode == 1
    assert result.stderr == f"cfmem: {option}: error: {message}\n"


def test_float64_inputs_with_float32_values_reach_upstream_mlir(tmp_path):
    np.savez(tmp_path / "in.npz", x=np.array([[0.5, -2.0, 3.0, 0.25]]), c=np.ones(1, np.int64))
    result = run_cfmem("check-mlir", model(tmp_path, ARGUMENT_IF), "--inputs", str(tmp_path / "in.npz"))
    assert result.returncode == 0, result.stderr
    assert "branch outcomes run: if#0:then; not run: if#0:else" in last_line(result)
    np.savez(tmp_path / "in.npz", x=np.full((1, 4), 0.1), c=np.ones(1, np.int64))
    lossy = run_cfmem("check-mlir", model(tmp_path, ARGUMENT_IF), "--inputs", str(tmp_path / "in.npz"), "--no-mlir")
    assert lossy.returncode == 1 and "input 'x' has dtype float64, expected float32" in lossy.stderr


def test_comparisons_treat_nan_and_infinities_without_warnings():
    ref = {"y": np.array([1.0, np.inf, -np.inf, np.nan, 0.0], np.float32)}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert max_abs_diff(ref, ref) == 0.0
        assert scaled_error(ref, ref, rtol=0.0, atol=0.0) == 0.0
        one_nan = {"y": np.array([1.0, np.inf, -np.inf, 0.0, 0.0], np.float32)}
        assert max_abs_diff(ref, one_nan) == np.inf and scaled_error(ref, one_nan, 1e-5, 1e-6) == np.inf
        flipped = {"y": np.array([1.0, np.inf, np.inf, np.nan, 0.0], np.float32)}
        assert scaled_error(ref, flipped, 1e-5, 1e-6) == np.inf
        off_at_zero = {"y": np.array([1.0, np.inf, -np.inf, np.nan, 1e-7], np.float32)}
        assert scaled_error(ref, off_at_zero, rtol=0.0, atol=0.0) == np.inf
        assert scaled_error(ref, off_at_zero, rtol=1e-5, atol=1e-6) == pytest.approx(0.1, rel=1e-3)


INTEGER_ARITHMETIC = """func.func @main(%a: tensor<2x3xi64>, %b: tensor<3xi64>, %c: tensor<2x3xi32>) -> (tensor<2x3xi64>, tensor<2x3xi32>) {
  %s = nn.add %a, %b : (tensor<2x3xi64>, tensor<3xi64>) -> tensor<2x3xi64>
  %m = nn.mul %s, %a : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
  %d = nn.sub %m, %b : (tensor<2x3xi64>, tensor<3xi64>) -> tensor<2x3xi64>
  %e = nn.mul %c, %c : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  func.return %d, %e : tensor<2x3xi64>, tensor<2x3xi32>
}
"""


def test_integer_add_sub_mul_agree_with_numpy_and_real_mlir(tmp_path):
    model = tmp_path / "ints.mlir"
    model.write_text(INTEGER_ARITHMETIC)
    a = np.array([[1, -2, 3], [4, 5, -6]], np.int64)
    b = np.array([7, 8, 9], np.int64)
    c = np.array([[2**16, 3, -4], [5, 6, 7]], np.int32)
    np.savez(tmp_path / "in.npz", a=a, b=b, c=c)
    result = run_cfmem("check-mlir", str(model), "--inputs", str(tmp_path / "in.npz"))
    assert result.returncode == 0, result.stderr
    assert "bit-identical" in result.stdout and result.stdout.rstrip().endswith("(no ifs)")
    out = run_cfmem("run", str(model), "--inputs", str(tmp_path / "in.npz"), "-o", str(tmp_path / "out.npz"))
    assert out.returncode == 0, out.stderr
    got = np.load(tmp_path / "out.npz")
    np.testing.assert_array_equal(got["d"], (a + b) * a - b)
    np.testing.assert_array_equal(got["e"], c * c)  # 2**32 wraps to 0 in i32


def test_the_input_search_runs_each_loop_zero_one_two_and_many_times_where_it_can():
    """seqkws: the frame loop's count is an input (0, 1, 2, 32 found); the while loop's is
    decided by data the search does not reach every way, and the verdict says which."""
    result = run_cfmem("check-mlir", str(EXAMPLES / "seqkws.mlir"))
    assert result.returncode == 0, result.stderr
    rows = [line for line in result.stdout.splitlines() if line.startswith("#")]
    assert all("bit-identical" in row for row in rows)
    verdict = result.stdout.rstrip().splitlines()[-1]
    assert verdict.startswith(f"ok: {len(rows)} input set(s), every run agrees, every branch outcome ran (4 of 4)")
    frames = re.search(r"loop#0 ([0-9, ]+?)(;| \(|$)", verdict).group(1)
    assert [int(n) for n in frames.split(", ")][:3] == [0, 1, 2] and int(frames.split(", ")[-1]) >= 3
    assert re.search(r"loop#1 [0-9, ]+( \(never [0-9a-z ]+\))?$", verdict)


def test_a_timeout_too_short_for_upstream_mlir_is_one_line_and_the_default_is_the_one_documented(tmp_path):
    from cfmem.mlir_check.jit import MLIR_TIMEOUT

    result = run_cfmem("check-mlir", model(tmp_path, ARGUMENT_IF), "--timeout", "0.01")
    assert result.returncode == 1
    assert result.stderr.endswith("error: upstream MLIR: upstream MLIR did not finish within 0.01 s\n")
    assert result.stderr.count("\n") == 1
    from cfmem.mlir_check.jit import ATOL, RTOL

    help_text = " ".join(run_cfmem("check-mlir", "--help").stdout.split())
    assert f"(default: {MLIR_TIMEOUT:g})" in help_text and f"rtol {RTOL:g}, atol {ATOL:g}" in help_text


LONG_SUM = """func.func @main(%a: tensor<4x4096xf32>, %b: tensor<4096x4xf32>) -> tensor<4x4xf32> {
  %y = nn.matmul %a, %b : (tensor<4x4096xf32>, tensor<4096x4xf32>) -> tensor<4x4xf32>
  func.return %y : tensor<4x4xf32>
}
"""


def test_a_long_cancelling_sum_passes_its_computed_bound_where_the_fixed_tolerance_fails(tmp_path):
    """4096 products of order 100 that cancel to about 1: the JIT's loop adds them in
    another order than numpy's matmul, some 1e-3 apart, far beyond rtol 1e-5 of the result
    but well inside the bound the sum's terms give."""
    rng = np.random.default_rng(3)
    a = rng.standard_normal((4, 4096)) * 100
    b = rng.choice([-1.0, 1.0], (4096, 4))
    a[:, -1] = -(a[:, :-1] @ b[:-1, 0]) * b[-1, 0] + rng.standard_normal(4)
    (tmp_path / "long.mlir").write_text(LONG_SUM)
    np.savez(tmp_path / "in.npz", a=a.astype(np.float32), b=b.astype(np.float32))
    args = ("check-mlir", str(tmp_path / "long.mlir"), "--inputs", str(tmp_path / "in.npz"))
    computed = run_cfmem(*args)
    assert computed.returncode == 0, computed.stderr
    assert "MLIR vs flat (computed bound)" in computed.stdout
    ratio = float(re.search(r"([0-9.e+-]+) of bound", computed.stdout).group(1))
    assert 0 < ratio < 0.5
    fixed = run_cfmem(*args, "--rtol", "1e-5", "--atol", "1e-6")
    assert fixed.returncode == 1 and "MLIR vs flat (rtol 1e-05, atol 1e-06)" in fixed.stdout
    assert float(re.search(r"([0-9.e+-]+) of tolerance", fixed.stdout).group(1)) > 1
    assert fixed.stderr.endswith("error: the runs disagree on input set(s) #0\n")
