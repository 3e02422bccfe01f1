"""The command line run in the test process (``run_cfmem``'s default) shows what a child process shows.

Every subcommand runs once through the real entry point (``python -m cfmem.tools.cli``) and
once in process, each in its own copy of the same directory: the exit code, standard output,
standard error and every file left behind must be the same. The other cases check what the
in-process runner itself captures and restores, with a stand-in for ``cli.main``.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import warnings
from pathlib import Path

import pytest
from conftest import ROOT, run_cfmem, run_cfmem_in_process

SMALL = ROOT / "tests" / "data" / "small_if.mlir"
PROBLEM = ROOT / "benchmarks" / "minimalloc" / "input.12.csv"


def onnx_relu(path: Path) -> None:
    import onnx
    from onnx import TensorProto as T
    from onnx import helper as h

    graph = h.make_graph(
        [h.make_node("Relu", ["x"], ["y"])], "g",
        [h.make_tensor_value_info("x", T.FLOAT, [1, 4])], [h.make_tensor_value_info("y", T.FLOAT, [1, 4])],
    )  # fmt: skip
    onnx.save(h.make_model(graph, opset_imports=[h.make_opsetid("", 17)], ir_version=8), str(path))


def inputs(d: Path) -> Path:
    d.mkdir()
    shutil.copy(SMALL, d / "m.mlir")
    shutil.copy(PROBLEM, d / "p.csv")
    onnx_relu(d / "m.onnx")
    return d


def files(d: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(d.iterdir())}


SECONDS = re.compile(r"\b\d+\.\d+ s\b")
"""A measured time (``plan`` prints how long it searched): the one part of an output that differs between runs."""


@pytest.mark.parametrize(
    "argv",
    [
        ["import", "m.onnx", "-o", "imported.mlir"],
        ["compile", "m.mlir", "-o", "flat.mlir"],
        ["run", "m.mlir", "--seed", "0", "-o", "out.npz"],
        ["report", "m.mlir", "--csv", "gantt.csv"],
        ["plan", "p.csv", "-o", "offsets.csv"],
        ["opt", "m.mlir", "-p", "nn-plan-memory,nn-lower-to-memref", "-o", "-"],
        ["check-mlir", "m.mlir", "--no-mlir"],
        ["check-arena", "m.mlir"],
        ["run", "missing.mlir"],
        ["report", "m.mlir", "--align", "x"],
        ["frobnicate"],
        ["plan", "--help"],
    ],
    ids=lambda argv: "-".join(argv[:2]),
)
def test_a_command_in_process_gives_what_its_child_process_gives(tmp_path, argv):
    child_dir, here_dir = inputs(tmp_path / "child"), inputs(tmp_path / "here")
    child = run_cfmem(*argv, cwd=child_dir, process=True)
    here = run_cfmem(*argv, cwd=here_dir)
    shown = [(done.returncode, SECONDS.sub("<time>", done.stdout), done.stderr) for done in (child, here)]
    assert shown[1] == shown[0]
    assert files(here_dir) == files(child_dir)


@pytest.fixture
def stand_in(monkeypatch):
    """``cli.main`` replaced by the function given to the returned setter."""
    from cfmem.tools import cli

    return lambda main: monkeypatch.setattr(cli, "main", main)


def test_warnings_are_printed_on_standard_error_as_a_fresh_interpreter_prints_them(stand_in):
    def main(argv):
        warnings.warn("shown", RuntimeWarning)
        warnings.warn("hidden", DeprecationWarning)
        return 0

    stand_in(main)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the test process's filters do not apply to the command
        done = run_cfmem_in_process([])
    assert done.returncode == 0
    assert "RuntimeWarning: shown" in done.stderr and "hidden" not in done.stderr


def test_what_is_written_to_the_file_descriptors_is_captured_too(stand_in):
    def main(argv):
        print("text\r\nmore")
        sys.stdout.buffer.write(b"bytes\n")
        os.write(1, b"descriptor 1\n")
        print("error text", file=sys.stderr)
        os.write(2, b"descriptor 2\n")
        return 3

    stand_in(main)
    done = run_cfmem_in_process([])
    assert done.returncode == 3
    assert done.stdout == "text\nmore\nbytes\ndescriptor 1\n"
    assert done.stderr == "error text\ndescriptor 2\n"


def test_the_directory_and_environment_are_restored(stand_in, tmp_path):
    seen = []

    def main(argv):
        seen.append(os.getcwd())
        os.environ["CFMEM_TEST_SET_BY_COMMAND"] = "1"
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
        raise SystemExit(2)

    stand_in(main)
    here, environment = os.getcwd(), dict(os.environ)
    done = run_cfmem_in_process(["x"], tmp_path)
    assert done.returncode == 2 and seen == [str(tmp_path)]
    assert os.getcwd() == here and dict(os.environ) == environment
