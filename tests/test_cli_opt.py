"""``cfmem opt``: pipelines as in xdsl-opt, but one-line errors and no partial output."""

import pytest

from conftest import EXAMPLES

MODEL = str(EXAMPLES / "wakeword.mlir")


def test_pipeline_output_parses_and_carries_the_plan(cfmem, tmp_path):
    out = tmp_path / "planned.mlir"
    res = cfmem("opt", MODEL, "-p", "nn-insert-dma,nn-plan-memory{mode=hoist}", "-o", str(out))
    assert res.returncode == 0, res.stderr
    text = out.read_text()
    assert "nn.dma_start" in text and "cfmem.block = array<i64:" in text and "cfmem.arena_size" in text
    again = cfmem("opt", str(out), "-p", "nn-check-dma")
    assert again.returncode == 0 and again.stdout.strip() == text.strip()


@pytest.mark.parametrize(
    "pipeline, message",
    [
        ("nn-foo", "bad pipeline 'nn-foo': Unrecognized passes: ['nn-foo']"),
        ("nn-plan-memory{strat=x}", 'Provided arguments ["strat"] not found'),
        ("nn-plan-memory{align=x}", "Incompatible types"),
        ("nn-plan-memory{mode=x}", "unknown mode 'x'"),
        ("nn-plan-memory{budget=1000}", "but the budget is 1000"),
    ],
)
def test_bad_pipeline_gives_one_line_and_no_file(cfmem, tmp_path, pipeline, message):
    out = tmp_path / "out.mlir"
    res = cfmem("opt", MODEL, "-p", pipeline, "-o", str(out))
    assert res.returncode == 1
    assert len(res.stderr.strip().splitlines()) == 1 and message in res.stderr, res.stderr
    assert not out.exists()
