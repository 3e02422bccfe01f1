"""Progress: the placement search's counter and a command's steps on standard error when it
is a terminal, and nothing else written when it is not."""

import io

from cfmem.dma.timing import Chip
from cfmem.fit import compile_for_budget
from cfmem.ir_io import parse_module
from cfmem.tools.progress import placement_progress, step_progress

from conftest import run_cfmem
from test_loops import SCAN


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_terminal_sees_every_placement_measured_counted():
    module, _ = parse_module(SCAN)
    terminal = _Terminal()
    with placement_progress("scan: placing", terminal) as measured:
        compile_for_budget(module, Chip(), 100, measured=measured)
        counted = measured.bar.n
    assert counted == len(measured) > 0
    assert "scan: placing" in terminal.getvalue() and "placements" in terminal.getvalue()


def test_a_pipe_gets_a_plain_store_and_no_progress(tmp_path):
    pipe = io.StringIO()
    with placement_progress("scan: placing", pipe) as measured:
        assert type(measured) is dict
    assert pipe.getvalue() == ""
    model = tmp_path / "scan.mlir"
    model.write_text(SCAN)
    done = run_cfmem("compile", str(model), "--budget", "100", "-o", str(tmp_path / "flat.mlir"))
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and "on-chip bytes" in lines[0]  # the summary only


def test_a_terminal_sees_each_step_begun_and_a_pipe_nothing():
    terminal, pipe = _Terminal(), io.StringIO()
    with step_progress("model.tflite", 3, terminal) as step:
        step("first")
        step("second")
    shown = terminal.getvalue()
    assert "model.tflite" in shown and "1/3" in shown and "second" in shown
    with step_progress("model.tflite", 3, pipe) as step:
        step("first")
    assert pipe.getvalue() == ""


def test_plan_tflite_writes_only_its_report_when_standard_error_is_not_a_terminal(tmp_path):
    from pathlib import Path

    source = Path(__file__).parent / "data" / "tflite" / "hello_world_int8.tflite"
    done = run_cfmem("plan-tflite", str(source), "-o", str(tmp_path / "planned.tflite"))
    assert done.returncode == 0, done.stderr
    assert done.stderr == "" and done.stdout.splitlines()[-1].startswith("wrote ")
