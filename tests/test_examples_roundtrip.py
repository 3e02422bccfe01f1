"""Every example round-trips through plain xdsl-opt, custom and generic form."""

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import EXAMPLES

XDSL_OPT = str(Path(sys.executable).parent / "xdsl-opt")
MODELS = sorted(EXAMPLES.glob("*.mlir"))


def xdsl_opt(text: str, *flags: str) -> str:
    res = subprocess.run([XDSL_OPT, *flags], input=text, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    return res.stdout


def test_there_are_examples():
    assert {p.stem for p in MODELS} >= {"facedetect", "fusiondetect", "denoise", "wakeword"}


@pytest.mark.parametrize("model", MODELS, ids=lambda p: p.stem)
def test_example_round_trips(model):
    custom = xdsl_opt(model.read_text())
    assert "nn.conv2d" in custom or "nn.loop" in custom
    assert xdsl_opt(custom) == custom
    generic = xdsl_opt(custom, "--print-op-generic")
    assert '"nn.get_global"' in generic and generic != custom
    assert xdsl_opt(generic) == custom
