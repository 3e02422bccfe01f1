import contextlib
import io
import os
import subprocess
import sys
import tempfile
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from hypothesis import settings
from xdsl.dialects.builtin import ModuleOp

from cfmem.interp.coverage import branch_covering_inputs
from cfmem.interp.golden import RunResult, run_function
from cfmem.ir_io import load_module

# The same examples on every run and machine: a property test fails for a reason in the
# code, never for the luck of one run's draws.
settings.register_profile("cfmem", derandomize=True, database=None)
settings.load_profile("cfmem")

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
# The pages a user reads: the README and the guides under docs/ (tests/test_readme.py runs them).
DOC_PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
CFMEM = [sys.executable, "-m", "cfmem.tools.cli"]


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """Under ``--dist loadgroup``, end each ``xdist_group`` test's node id with ``@<group>``.

    pytest-xdist 3.8 writes that suffix to ``item._nodeid``, which pytest 9 no longer reads
    (the id lives in ``item._id``), so its scheduler never sees a group and spreads a group's
    tests over every worker; each worker then builds the group's shared fixtures again."""
    if not config.getoption("loadgroup", False):  # set in xdist workers only
        return
    for item in items:
        names = sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default")) for m in item.iter_markers("xdist_group")})
        suffix = f"@{'_'.join(names)}"
        if names and not item.nodeid.endswith(suffix):
            item._id = type(item._id).parse(item.nodeid + suffix)


def run_cfmem(*args: str, cwd: Path | None = None, process: bool = False) -> subprocess.CompletedProcess:
    """Run the cfmem command line and capture its output, exit code and files.

    By default ``cli.main`` runs in this process (``run_cfmem_in_process``): the output,
    files and exit code are what a child process's would be, without a Python start-up
    per command. ``process=True`` runs ``python -m cfmem.tools.cli`` in a child process,
    for tests of the process itself (its start-up, exit, or what the test process
    changed that the command must not see). Under mutation testing
    (``MUTANT_UNDER_TEST`` set) every command runs in this process, so mutmut sees which
    of the command's functions a test calls."""
    if process and not os.environ.get("MUTANT_UNDER_TEST"):
        return subprocess.run([*CFMEM, *args], capture_output=True, text=True, cwd=cwd)
    return run_cfmem_in_process(list(args), cwd)


def run_cfmem_in_process(args: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess:
    """``cli.main(args)`` run in ``cwd`` with its output captured as a child process's would be:
    text and bytes written to ``sys.stdout``, ``sys.stderr``, and to file descriptors 1 and 2
    (by C code or child processes, appended), newlines translated as ``text=True`` does, and
    warnings printed to standard error under a fresh interpreter's filters. An ``argparse``
    exit gives its status. The working directory, environment and warning filters are
    restored after, so commands run in any order see the same process."""
    from cfmem.tools import cli

    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", write_through=True)
    err = io.StringIO()
    here, environment = os.getcwd(), dict(os.environ)
    try:
        if cwd is not None:
            os.chdir(cwd)
        with _fd_captured(1) as fd_out, _fd_captured(2) as fd_err, _process_warnings():
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                try:
                    code = cli.main(args)
                except SystemExit as exit_:
                    code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    finally:
        os.chdir(here)
        _restore_environment(environment)
    out.flush()
    stdout = out.buffer.getvalue() + fd_out.data
    stderr = err.getvalue().encode("utf-8", errors="backslashreplace") + fd_err.data
    return subprocess.CompletedProcess([*CFMEM, *args], code, _as_text(stdout), _as_text(stderr))


class _Captured:
    data = b""


@contextlib.contextmanager
def _fd_captured(fd: int):
    """File descriptor ``fd`` pointed at a temporary file for the block; its bytes in ``.data`` after."""
    captured = _Captured()
    saved = os.dup(fd)
    try:
        with tempfile.TemporaryFile() as tmp:
            os.dup2(tmp.fileno(), fd)
            try:
                yield captured
            finally:
                os.dup2(saved, fd)
                tmp.seek(0)
                captured.data = tmp.read()
    finally:
        os.close(saved)


@contextlib.contextmanager
def _process_warnings():
    """Warnings shown on ``sys.stderr`` as a fresh interpreter shows them (not collected by
    pytest); the filters and the display are restored after."""
    with warnings.catch_warnings():
        warnings.resetwarnings()
        warnings.simplefilter("default")
        for category in (DeprecationWarning, PendingDeprecationWarning, ImportWarning, ResourceWarning):
            warnings.simplefilter("ignore", category)

        def show(message, category, filename, lineno, file=None, line=None):
            (file or sys.stderr).write(warnings.formatwarning(message, category, filename, lineno, line))

        warnings.showwarning = show
        yield


def _restore_environment(environment: dict[str, str]) -> None:
    """``os.environ`` as ``environment`` again (``cli.main`` sets defaults in it)."""
    for name in set(os.environ) - set(environment):
        del os.environ[name]
    for name, value in environment.items():
        if os.environ.get(name) != value:
            os.environ[name] = value


def _as_text(data: bytes) -> str:
    """``data`` decoded as ``subprocess.run(..., text=True)`` does (universal newlines)."""
    return data.decode("utf-8", errors="replace").replace("\r\n", "\n").replace("\r", "\n")


@pytest.fixture
def cfmem():
    return run_cfmem


@dataclass(frozen=True)
class Case:
    """One input set of an example, the branch trace it takes, and the reference interpreter's run on it."""

    inputs: dict[str, np.ndarray]
    trace: tuple
    reference: RunResult


@dataclass(frozen=True)
class Example:
    """An example parsed once, its branch-covering input sets, and its text when parsed."""

    path: Path
    module: ModuleOp
    cases: tuple[Case, ...]
    text: str

    @property
    def inputs(self) -> list[dict[str, np.ndarray]]:
        return [case.inputs for case in self.cases]


def _frozen(arrays: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """``arrays`` with every array made read-only (numpy scalars are immutable already)."""
    for array in arrays.values():
        if isinstance(array, np.ndarray):
            array.flags.writeable = False
    return arrays


class SharedExamples:
    """``examples/<name>.mlir`` parsed, covered by ``branch_covering_inputs`` and run by the
    reference interpreter once per process, on first request.

    Shared and read-only: a test clones the module before changing it; the input and
    output arrays are not writable; ``check_unchanged`` finds a module a test changed."""

    def __init__(self, root: Path = EXAMPLES) -> None:
        self.root = root
        self._loaded: dict[str, Example] = {}

    def __call__(self, name: str) -> Example:
        if name not in self._loaded:
            path = self.root / f"{name}.mlir"
            module, _ = load_module(path)
            cases = tuple(
                Case(_frozen(inputs), tuple(trace), run_function(module, inputs, base_dir=self.root))
                for inputs, trace in branch_covering_inputs(module, base_dir=self.root)
            )
            for case in cases:
                _frozen(case.reference.outputs)
            self._loaded[name] = Example(path, module, cases, str(module))
        return self._loaded[name]

    def check_unchanged(self) -> None:
        """Raise AssertionError naming each shared module that no longer prints as when parsed."""
        changed = [name for name, example in self._loaded.items() if str(example.module) != example.text]
        assert not changed, f"a test changed the shared example modules {changed}; clone them before changing them"


_SHARED_EXAMPLES = SharedExamples()


@pytest.fixture
def shared_examples():
    """The process's :class:`SharedExamples` (shared, read-only), checked unchanged after each test."""
    yield _SHARED_EXAMPLES
    _SHARED_EXAMPLES.check_unchanged()


@pytest.fixture
def arena_offsets_all_zero(monkeypatch):
    """A broken memref-plan-arena for checkers to catch: every buffer of every plan at offset 0."""
    from cfmem.passes import memref_plan_arena

    original = memref_plan_arena.plan_tree

    def everything_at_zero(*args, **kwargs):
        plan = original(*args, **kwargs)
        plan.offsets = dict.fromkeys(plan.offsets, 0)
        return plan

    monkeypatch.setattr(memref_plan_arena, "plan_tree", everything_at_zero)
