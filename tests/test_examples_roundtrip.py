"""Every example round-trips through plain xdsl-opt, custom and generic form.

xdsl-opt's main (``xDSLOptMain``, cfmem loaded as its plugin) runs in the test process;
one test runs the installed ``xdsl-opt`` program and compares."""

import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from xdsl.xdsl_opt_main import xDSLOptMain

from conftest import EXAMPLES

XDSL_OPT = str(Path(sys.executable).parent / "xdsl-opt")
MODELS = sorted(EXAMPLES.glob("*.mlir"))


def xdsl_opt(text: str, *flags: str) -> str:
    """``xdsl-opt`` on ``text`` (in this process): its output."""
    with tempfile.TemporaryDirectory() as tmp:
        source, out = Path(tmp) / "in.mlir", Path(tmp) / "out.mlir"
        source.write_text(text)
        xDSLOptMain(args=[str(source), *flags, "-o", str(out)]).run()
        return out.read_text()


def xdsl_opt_process(text: str, *flags: str) -> str:
    """The installed ``xdsl-opt`` program on ``text`` as standard input: its standard output."""
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


def test_the_installed_xdsl_opt_prints_what_its_main_prints_in_process():
    text = (EXAMPLES / "wakeword.mlir").read_text()
    for flags in ((), ("--print-op-generic",)):
        assert xdsl_opt_process(text, *flags) == xdsl_opt(text, *flags)
