"""Pass options and the CLI follow one set of rules (cfmem.planning.option_checks)."""

from __future__ import annotations

import pytest
from conftest import EXAMPLES

from cfmem.ir_io import CfmemError, load_module
from cfmem.pipeline import apply_pipeline
from cfmem.planning.option_checks import OptionError, check_budget, check_time_limit

TINY = EXAMPLES / "wakeword.mlir"


def run(spec: str):
    module, _ = load_module(TINY)
    apply_pipeline(module, spec, "m.mlir")
    return module


@pytest.mark.parametrize(
    "spec, message",
    [
        ("nn-plan-memory{time-limit=-1.0}", "time-limit must be a positive number of seconds, not -1"),
        ("nn-plan-memory{time-limit=0.0}", "time-limit must be a positive number of seconds, not 0"),
        ("nn-plan-memory{beam-width=0}", "beam-width must be an integer from 1 to 9223372036854775807, not 0"),
        ("nn-plan-memory{align=0}", "align must be an integer from 1 to 9223372036854775807, not 0"),
        ("nn-plan-memory{budget=-1}", "budget must be an integer from 0 to 9223372036854775807, not -1"),
        ("nn-insert-dma{dma-budget=-1}", "dma-budget must be an integer from 0 to 9223372036854775807, not -1"),
        ("nn-insert-dma{align=0}", "align must be an integer from 1 to 9223372036854775807, not 0"),
        ("nn-insert-dma{depth=1}", "depth must be an integer from 2 to 65536 (two buffers make ping-pong), not 1"),
        ("nn-plan-memory{mode=bogus}", "unknown mode 'bogus'"),
        ("nn-plan-memory{align=99999999999999999999}", "align must be an integer from 1 to 9223372036854775807, not 99999999999999999999"),
        ("nn-insert-dma{depth=99999999999999999999}", "depth must be an integer from 2 to 65536 (two buffers make ping-pong), not 99999999999999999999"),
        ("nn-insert-dma{depth=65537}", "depth must be an integer from 2 to 65536 (two buffers make ping-pong), not 65537"),
        ("nn-slice-weights{max-slice-bytes=9223372036854775808}", "max-slice-bytes must be an integer from 1 to 9223372036854775807, not 9223372036854775808"),
        ("memref-plan-arena{index-bitwidth=99999999999999999992}", "index-bitwidth must be an integer from 8 to 9223372036854775807, not 99999999999999999992"),
        ("nn-place{budget=9223372036854775808}", "budget must be an integer from 0 to 9223372036854775807, not 9223372036854775808"),
        ("nn-plan-memory{align=4611686018427387904}", "more than the i64 of cfmem.arena_size holds (9223372036854775807)"),
        ("nn-insert-dma{align=9223372036854775807}", "more than the i64 of a buffer's size holds"),
    ],
)
def test_bad_pass_option_is_one_error(spec, message):
    with pytest.raises(CfmemError) as err:
        run(spec)
    assert message in err.value.message and err.value.location == "m.mlir"


def test_integer_time_limit_is_accepted():
    run("nn-plan-memory{time-limit=5}")


def test_budget_zero_is_a_budget_and_absent_is_none():
    with pytest.raises(CfmemError, match="but the budget is 0"):
        run("nn-plan-memory{budget=0}")
    module = run("nn-plan-memory")
    assert all("cfmem.arena_size" in op.attributes for op in module.walk() if op.name == "func.func")


def test_dma_budget_zero_keeps_every_weight_off_chip(capfd):
    module = run("nn-insert-dma{dma-budget=0}")
    assert not [op for op in module.walk() if op.name == "nn.dma_start"]
    assert "more than the DMA budget of 0" in capfd.readouterr().err


@pytest.mark.parametrize("spec", ["nn-plan-memory{", "a,,b", "nn-plan-memory{mode=hoist"])
def test_malformed_pipeline_is_one_line(spec):
    with pytest.raises(CfmemError) as err:
        run(spec)
    assert err.value.message.startswith(f"bad pipeline '{spec}': ") and "column" in err.value.message
    assert "\n" not in err.value.message


def test_the_cli_uses_the_same_rules(cfmem, tmp_path):
    csv = tmp_path / "p.csv"
    csv.write_text("id,lower,upper,size\n0,0,2,64\n")
    res = cfmem("plan", str(csv), "--time-limit", "0")
    assert res.returncode == 1 and "--time-limit: error: must be a positive number of seconds, not 0" in res.stderr
    res = cfmem("plan", str(csv), "--budget", "0")
    assert res.returncode == 1 and "exceeds the budget of 0 bytes" in res.stderr
    res = cfmem("report", str(TINY), "--depth", "1")
    assert res.returncode == 1 and "--depth: error: must be an integer from 2 to 65536 (two buffers make ping-pong), not 1" in res.stderr


@pytest.mark.parametrize("value", [float("nan"), float("inf"), True])
def test_time_limit_rule(value):
    with pytest.raises(OptionError):
        check_time_limit("t", value)


def test_budget_rule():
    check_budget("b", None)
    check_budget("b", 0)
    with pytest.raises(OptionError):
        check_budget("b", -1)
