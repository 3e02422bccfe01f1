"""A user's files are sacred: what every cfmem command may and may not write.

The command-line cases run cfmem as a user would and check every file in the
directory byte for byte afterwards; the unit cases drive cfmem.files
directly where a real device or a failing disk cannot be arranged safely.
"""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

import pytest
from conftest import CFMEM, EXAMPLES, run_cfmem

from cfmem.errors import CfmemError
from cfmem import files
from cfmem.files import atomic_write_bytes, check_output_path, note_input, output_session

MODEL = EXAMPLES / "wakeword.mlir"


def snapshot(d: Path) -> dict[str, tuple[str, bytes | str, int]]:
    """Every entry of ``d``: its kind, its bytes (or link target), its permission bits."""
    result = {}
    for p in sorted(d.iterdir()):
        st = os.lstat(p)
        if stat.S_ISLNK(st.st_mode):
            result[p.name] = ("link", os.readlink(p), 0)
        elif stat.S_ISREG(st.st_mode):
            result[p.name] = ("file", p.read_bytes(), stat.S_IMODE(st.st_mode))
        else:
            result[p.name] = ("other", "", stat.S_IFMT(st.st_mode))
    return result


def one_error_line(done: subprocess.CompletedProcess, where: str) -> str:
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 1, done.stderr
    assert len(lines) == 1 and lines[0].startswith(f"cfmem: {where}: error: "), done.stderr
    return lines[0]


def onnx_relu(path: Path) -> None:
    import onnx
    from onnx import TensorProto as T
    from onnx import helper as h

    graph = h.make_graph(
        [h.make_node("Relu", ["x"], ["y"])], "g",
        [h.make_tensor_value_info("x", T.FLOAT, [1, 4])], [h.make_tensor_value_info("y", T.FLOAT, [1, 4])],
    )  # fmt: skip
    onnx.save(h.make_model(graph, opset_imports=[h.make_opsetid("", 17)]), str(path))


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    (tmp_path / "m.mlir").write_bytes(MODEL.read_bytes())
    return tmp_path


@pytest.mark.parametrize(
    "argv, where",
    [
        (["run", "m.mlir", "-o", "m.mlir"], "m.mlir"),
        (["report", "m.mlir", "--csv", "m.mlir"], "m.mlir"),
        (["opt", "m.mlir", "-p", "nn-plan-memory", "-o", "m.mlir"], "m.mlir"),
    ],
)
def test_a_command_never_writes_over_its_own_input(workdir, argv, where):
    before = snapshot(workdir)
    done = run_cfmem(*argv, cwd=workdir)
    assert "never writes over its input" in one_error_line(done, where)
    assert snapshot(workdir) == before


def test_an_output_linked_to_the_input_is_refused(workdir):
    os.symlink("m.mlir", workdir / "link.mlir")
    before = snapshot(workdir)
    one_error_line(run_cfmem("run", "m.mlir", "-o", "link.mlir", cwd=workdir), "link.mlir")
    one_error_line(run_cfmem("run", "link.mlir", "-o", "m.mlir", cwd=workdir), "m.mlir")
    os.link(workdir / "m.mlir", workdir / "hard.mlir")
    before = snapshot(workdir)
    one_error_line(run_cfmem("report", "m.mlir", "--csv", "hard.mlir", cwd=workdir), "hard.mlir")
    assert snapshot(workdir) == before


def test_import_never_writes_over_the_model_or_puts_its_blob_on_it(tmp_path):
    onnx_relu(tmp_path / "m.onnx")
    (tmp_path / "m.weights.bin").write_bytes((tmp_path / "m.onnx").read_bytes())
    before = snapshot(tmp_path)
    one_error_line(run_cfmem("import", "m.onnx", "-o", "m.onnx", cwd=tmp_path), "m.onnx")
    one_error_line(run_cfmem("import", "m.weights.bin", "-o", "m.mlir", cwd=tmp_path), "m.weights.bin")
    one_error_line(run_cfmem("import", "m.onnx", "-o", "-", cwd=tmp_path), "-o")
    assert snapshot(tmp_path) == before


def test_import_into_a_directory_leaves_no_blob_behind(tmp_path):
    onnx_relu(tmp_path / "m.onnx")
    (tmp_path / "D").mkdir()
    before = snapshot(tmp_path)
    one_error_line(run_cfmem("import", "m.onnx", "-o", "D", cwd=tmp_path), "D")
    assert snapshot(tmp_path) == before and not list((tmp_path / "D").iterdir())


def test_a_symlinked_output_is_written_through_and_the_link_kept(workdir):
    (workdir / "real.npz").write_bytes(b"old")
    os.chmod(workdir / "real.npz", 0o640)
    os.symlink("real.npz", workdir / "link.npz")
    done = run_cfmem("run", "m.mlir", "-o", "link.npz", cwd=workdir)
    assert done.returncode == 0, done.stderr
    assert os.readlink(workdir / "link.npz") == "real.npz"
    assert (workdir / "real.npz").read_bytes()[:2] == b"PK"
    assert stat.S_IMODE(os.stat(workdir / "real.npz").st_mode) == 0o640  # the file keeps its mode


@pytest.mark.parametrize("name, make", [("fifo", os.mkfifo), ("dir", os.mkdir)])
def test_a_fifo_or_directory_output_is_refused(workdir, name, make):
    make(workdir / name)
    before = snapshot(workdir)
    line = one_error_line(run_cfmem("run", "m.mlir", "-o", name, cwd=workdir), name)
    assert ("FIFO" if name == "fifo" else "directory") in line
    assert snapshot(workdir) == before


def test_a_trailing_slash_is_refused_not_turned_into_a_file(workdir):
    before = snapshot(workdir)
    one_error_line(run_cfmem("run", "m.mlir", "-o", "newdir/", cwd=workdir), "newdir/")
    one_error_line(run_cfmem("opt", "m.mlir", "-p", "nn-liveness", "-o", "newdir/", cwd=workdir), "newdir/")
    assert snapshot(workdir) == before


def test_a_read_only_file_is_refused_and_unchanged(workdir):
    (workdir / "ro.npz").write_bytes(b"keep me")
    os.chmod(workdir / "ro.npz", 0o444)
    before = snapshot(workdir)
    assert "read-only" in one_error_line(run_cfmem("run", "m.mlir", "-o", "ro.npz", cwd=workdir), "ro.npz")
    assert snapshot(workdir) == before


def test_a_device_is_refused_before_anything_is_written():
    with pytest.raises(CfmemError, match="is a device"):
        check_output_path(os.devnull)


@pytest.mark.parametrize(
    "argv",
    [["run", "/dev/zero"], ["import", "/dev/zero", "-o", "m.mlir"], ["plan-tflite", "/dev/zero", "-o", "m.tflite", "--no-tflm"]],
    ids=["run", "import", "plan-tflite"],
)
def test_an_input_that_is_a_device_is_refused_not_read_for_ever(workdir, argv):
    before = snapshot(workdir)
    line = one_error_line(run_cfmem(*argv, cwd=workdir), "/dev/zero")
    assert line.endswith("is a device, not a file: cfmem reads files and pipes")
    assert snapshot(workdir) == before


def test_a_model_read_from_a_pipe_is_imported_whole(tmp_path):
    """`cat m.onnx | cfmem import /dev/stdin`: whether the model is TFLite is not looked for in a
    pipe (what is read of it would be gone for the importer)."""
    onnx_relu(tmp_path / "m.onnx")
    done = subprocess.run([*CFMEM, "import", "/dev/stdin", "-o", "m.mlir"], cwd=tmp_path, capture_output=True,
                          input=(tmp_path / "m.onnx").read_bytes())  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "m.mlir").exists() and (tmp_path / "m.weights.bin").exists()


def test_standard_output_is_dash(workdir):
    done = run_cfmem("opt", "m.mlir", "-p", "nn-liveness", "-o", "-", cwd=workdir)
    assert done.returncode == 0 and "func.func" in done.stdout, done.stderr
    assert not (workdir / "-").exists()


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into a read-only directory")
def test_a_read_only_directory_is_one_line(workdir):
    (workdir / "ro").mkdir(mode=0o555)
    one_error_line(run_cfmem("run", "m.mlir", "-o", "ro/out.npz", cwd=workdir), "ro/out.npz")


def test_a_failing_disk_is_one_line_and_leaves_nothing(tmp_path, monkeypatch):
    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.tempfile, "mkstemp", full)
    with pytest.raises(CfmemError, match="No space left on device"):
        atomic_write_bytes(tmp_path / "out.bin", b"data")
    assert list(tmp_path.iterdir()) == []


def test_a_failed_command_removes_every_staged_output(tmp_path):
    with pytest.raises(CfmemError), output_session():
        atomic_write_bytes(tmp_path / "module.mlir", b"module")
        atomic_write_bytes(tmp_path / "module.weights.bin", b"blob")
        assert sorted(p.name.startswith(".") for p in tmp_path.iterdir()) == [True, True]  # staged, hidden
        atomic_write_bytes(tmp_path / "missing" / "third", b"x")
    assert list(tmp_path.iterdir()) == []


def test_a_session_writes_everything_on_success_and_refuses_its_inputs(tmp_path):
    (tmp_path / "in.txt").write_text("input")
    with output_session():
        note_input(tmp_path / "in.txt")
        atomic_write_bytes(tmp_path / "a", b"A")
        with pytest.raises(CfmemError, match="never writes over its input"):
            atomic_write_bytes(tmp_path / "in.txt", b"clobbered")
        with pytest.raises(CfmemError, match="written twice"):
            atomic_write_bytes(tmp_path / "a", b"again")
    assert (tmp_path / "a").read_bytes() == b"A" and (tmp_path / "in.txt").read_text() == "input"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a", "in.txt"]


def test_a_closed_standard_output_ends_quietly(workdir):
    process = subprocess.Popen([*CFMEM, "run", "m.mlir"], cwd=workdir, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.close()  # like `cfmem run m.mlir | true`
    stderr = process.stderr.read().decode()
    assert process.wait() == 141 and stderr == ""


@pytest.mark.parametrize(
    "argv, where",
    [(["run"], "run"), (["run", "m.mlir", "--seed", "x"], "--seed"), (["frobnicate"], "COMMAND"), (["plan", "p.csv", "--strategy", "magic"], "--strategy")],
)
def test_usage_errors_are_one_line_with_exit_1(workdir, argv, where):
    one_error_line(run_cfmem(*argv, cwd=workdir), where)


def test_a_bug_is_exit_2_with_one_line(monkeypatch, capsys):
    from cfmem.tools import cli, run

    def broken(args):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(run, "main", broken)
    assert cli.main(["run", str(MODEL)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cfmem: internal error: ZeroDivisionError: a bug") and len(err.splitlines()) == 1


def test_a_binary_output_on_standard_output_is_alone_there(workdir):
    import io

    import numpy as np

    done = subprocess.run([*CFMEM, "run", "m.mlir", "-o", "-"], cwd=workdir, capture_output=True)
    assert done.returncode == 0, done.stderr
    assert np.load(io.BytesIO(done.stdout)).files  # the npz and nothing else
    assert b"if#0" in done.stderr  # the summary moved to standard error


def test_running_out_of_memory_is_one_line_at_the_model(monkeypatch, capsys):
    from cfmem.tools import cli, run

    def hungry(args):
        raise MemoryError

    monkeypatch.setattr(run, "main", hungry)
    assert cli.main(["run", str(MODEL)]) == 1
    assert capsys.readouterr().err == f"cfmem: {MODEL}: error: out of memory: the model or its inputs are too large for this machine\n"


def test_outputs_named_like_numpy_parameters_are_saved(tmp_path):
    import numpy as np

    from cfmem.files import atomic_save_npz

    arrays = {"file": np.arange(3.0), "allow_pickle": np.ones((2, 2), np.float32), "出力/0": np.zeros(1, np.int64)}
    atomic_save_npz(tmp_path / "out.npz", arrays)
    with np.load(tmp_path / "out.npz") as saved:
        assert sorted(saved.files) == sorted(arrays)
        for name, value in arrays.items():
            assert saved[name].dtype == value.dtype and (saved[name] == value).all()


def test_a_command_started_without_standard_output_says_so_in_one_line(workdir):
    """`cfmem run m.mlir >&-`: what it was asked to print cannot be written, so it fails (exit 1)
    with one line and writes nothing; with every output in a file it succeeds."""
    closed = {"cwd": workdir, "stderr": subprocess.PIPE, "preexec_fn": lambda: os.close(1)}
    process = subprocess.run([*CFMEM, "run", "m.mlir", "-o", "out.npz"], **closed)
    assert process.returncode == 1, process.stderr
    assert process.stderr.decode().splitlines() == ["cfmem: standard output: error: cannot write: it is closed"]
    assert not (workdir / "out.npz").exists()
    process = subprocess.run([*CFMEM, "opt", "m.mlir", "-p", "nn-liveness", "-o", "live.mlir"], **closed)
    assert process.returncode == 0, process.stderr
    assert (workdir / "live.mlir").exists()


@pytest.mark.parametrize(
    "outputs, where",
    [
        (["--csv", "-", "--png", "-"], "--png"),
        (["--png", "-", "--timeline", "-", "--timing"], "--timeline"),
        (["--csv", "-", "--png", "-", "--timeline", "-", "--timing"], "--png"),
    ],
)
def test_two_outputs_to_standard_output_are_refused_before_anything_is_written(workdir, outputs, where):
    """Their bytes would run together on one stream, as two outputs to one file would."""
    done = run_cfmem("report", "m.mlir", *outputs, cwd=workdir)
    line = one_error_line(done, where)
    assert line.endswith("one output at most may be '-'") and done.stdout == ""
    done = run_cfmem("report", "m.mlir", *outputs[:2], cwd=workdir)
    assert done.returncode == 0 and done.stdout, done.stderr  # one of them alone is fine
