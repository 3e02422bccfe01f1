"""Run a module under upstream MLIR's JIT in a subprocess and read its outputs.

The MLIR bindings are only ever imported by ``cfmem.mlir_check.worker``, in a
child process: they bring their own libLLVM, and a crash in JIT-compiled code
(or an assertion in MLIR) then costs one child, not the caller. Module,
arrays and results travel through a temporary directory (text and ``.npz``).
Each child is forked from a warm parent (``cfmem.mlir_check.zygote``, one per
process, started on first use) that has the bindings loaded already; if that
parent cannot be started or dies, the child is a fresh Python process.
"""

from __future__ import annotations

import importlib.util
import atexit
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from numpy.typing import DTypeLike

from cfmem.mlir_check.errors import MlirCheckError

INSTALL_HINT = "install with pip install 'cfmem[mlir]'"
MLIR_TIMEOUT = 300.0
"""Default seconds a worker may take to compile a module and run it on every input set."""
RTOL, ATOL = 1e-5, 1e-6
"""``check-mlir``'s fixed tolerance ``atol + rtol |flat|``: each part when only the other is given."""
OutputSpec = tuple[Sequence[int], DTypeLike]


def mlir_available() -> bool:
    """Whether the upstream MLIR python bindings are installed (nothing is imported)."""
    spec = importlib.util.find_spec("mlir")
    if spec is None or not spec.submodule_search_locations:
        return False
    return any((Path(p) / "_mlir_libs" / "__init__.py").is_file() for p in spec.submodule_search_locations)


def verify_with_mlir(module_text: str, timeout: float = 120.0) -> None:
    """Parse and verify ``module_text`` with upstream MLIR; raise MlirCheckError if it fails."""
    _run_worker(module_text, {"mode": "verify"}, {}, timeout)


def run_with_mlir(
    module_text: str,
    inputs: Sequence[np.ndarray],
    output_specs: Sequence[OutputSpec],
    func_name: str | None = None,
    timeout: float = MLIR_TIMEOUT,
) -> list[np.ndarray]:
    """JIT-run one function of ``module_text`` and return its output buffers.

    The module must already be prepared (``prepare_for_jit``). The function
    (``func_name``; by default ``main``, or the module's only function) takes
    ``inputs`` then one buffer per ``(shape, dtype)`` in ``output_specs``,
    which it writes. Booleans are passed as numpy ``bool`` (one byte, 0 or 1).
    """
    return run_many_with_mlir(module_text, [inputs], output_specs, func_name, timeout)[0]


def run_many_with_mlir(
    module_text: str,
    input_sets: Sequence[Sequence[np.ndarray]],
    output_specs: Sequence[OutputSpec],
    func_name: str | None = None,
    timeout: float = MLIR_TIMEOUT,
    run_seconds: list[float] | None = None,
) -> list[list[np.ndarray]]:
    """``run_with_mlir`` on each input set in turn, compiling the module once.

    Output buffers start zeroed for every set; globals (the arena) keep their
    bytes from one call to the next, as they would on a device. If given,
    ``run_seconds`` receives the wall-clock seconds of each compiled call.
    """
    request = {
        "mode": "run",
        "func": func_name,
        "sets": len(input_sets),
        "outputs": [[[int(d) for d in shape], np.dtype(dtype).str] for shape, dtype in output_specs],
    }
    arrays = {f"set{k}_arg{i}": np.asarray(a) for k, inputs in enumerate(input_sets) for i, a in enumerate(inputs)}
    results = _run_worker(module_text, request, arrays, timeout)
    if run_seconds is not None:
        run_seconds.extend(float(s) for s in results["run_seconds"])
    return [[results[f"set{k}_out{j}"] for j in range(len(output_specs))] for k in range(len(input_sets))]


def run_in_place_with_mlir(
    module_text: str, input_sets: Sequence[Sequence[np.ndarray]], func_name: str | None = None, timeout: float = MLIR_TIMEOUT
) -> list[list[np.ndarray]]:
    """Call the function of ``module_text`` (see ``run_with_mlir``) once per input set, every
    argument a given buffer, and return the buffers as each call left them."""
    request = {"mode": "run", "func": func_name, "sets": len(input_sets), "outputs": [], "return_inputs": True}
    arrays = {f"set{k}_arg{i}": np.asarray(a) for k, inputs in enumerate(input_sets) for i, a in enumerate(inputs)}
    results = _run_worker(module_text, request, arrays, timeout)
    return [[results[f"set{k}_in{i}"] for i in range(len(inputs))] for k, inputs in enumerate(input_sets)]


def _run_worker(module_text: str, request: dict, arrays: dict[str, np.ndarray], timeout: float) -> dict[str, np.ndarray]:
    if not mlir_available():
        raise MlirCheckError(f"the upstream MLIR python bindings are not installed; {INSTALL_HINT}")
    with tempfile.TemporaryDirectory(prefix="cfmem-mlir-") as tmp:
        work = Path(tmp)
        (work / "module.mlir").write_text(module_text)
        (work / "request.json").write_text(json.dumps(request))
        np.savez(work / "inputs.npz", **arrays)
        returncode, stderr = _run_child(work, timeout)
        error = work / "error.txt"
        if returncode == 1 and error.is_file():
            raise MlirCheckError(error.read_text().strip() + _jit_errors(stderr))
        if returncode != 0:
            raise MlirCheckError(f"the MLIR worker {_death(returncode)}: {_last_line(stderr)}")
        if request["mode"] != "run":
            return {}
        with np.load(work / "outputs.npz") as data:
            return {key: data[key] for key in data.files}


def _run_child(work: Path, timeout: float) -> tuple[int, str]:
    """Run the worker on ``work`` in a child process: its exit code and its standard error."""
    with _ZYGOTE_LOCK:
        global _zygote
        if _zygote is None or not _zygote.alive() or _zygote.owner != os.getpid():  # a forked copy starts its own
            _zygote = _Zygote.start()
        if _zygote is not None:
            try:
                return _zygote.run(work, timeout), _read(work / "stderr.txt")
            except _ZygoteGone:
                _zygote = None
    try:
        done = subprocess.run(
            [sys.executable, "-m", "cfmem.mlir_check.worker", str(work)],
            capture_output=True,
            text=True,
            timeout=timeout,  # run where the caller runs: its relative paths, its project settings
            env=_worker_env(),
        )
    except subprocess.TimeoutExpired:
        raise MlirCheckError(f"upstream MLIR did not finish within {timeout:g} s") from None
    return done.returncode, done.stderr


class _ZygoteGone(Exception):
    """The warm parent ended or stopped answering; the request was not run."""


class _Zygote:
    """The client side of ``cfmem.mlir_check.zygote``."""

    def __init__(self, process: subprocess.Popen):
        self.process = process
        self.owner = os.getpid()
        self.pending = b""

    @classmethod
    def start(cls) -> _Zygote | None:
        try:
            process = subprocess.Popen(
                [sys.executable, "-m", "cfmem.mlir_check.zygote"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=_worker_env(),
            )
        except OSError:
            return None
        zygote = cls(process)
        atexit.register(zygote.stop)
        return zygote

    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self) -> None:
        if self.owner == os.getpid() and self.alive():  # at exit: its input ends, so does it
            self.process.stdin.close()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()

    def run(self, work: Path, timeout: float) -> int:
        """The exit code of a child run on ``work`` (``-N``: killed by signal ``N``)."""
        try:
            self.process.stdin.write((json.dumps({"dir": str(work), "cwd": os.getcwd()}) + "\n").encode())
            self.process.stdin.flush()
        except OSError:
            raise _ZygoteGone from None
        try:
            pid = self._answer(time.monotonic() + 60.0)["pid"]
        except TimeoutError:
            self.process.kill()
            raise _ZygoteGone from None
        try:
            answer = self._answer(time.monotonic() + timeout)
            if answer.get("pid") != pid:
                self.process.kill()
                raise _ZygoteGone
            return answer["status"]
        except TimeoutError:
            os.kill(pid, signal.SIGKILL)
            self._answer(time.monotonic() + 60.0)
            raise MlirCheckError(f"upstream MLIR did not finish within {timeout:g} s") from None

    def _answer(self, deadline: float) -> dict:
        """The zygote's next line (``TimeoutError`` past ``deadline``, ``_ZygoteGone`` if it ended)."""
        while b"\n" not in self.pending:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            ready, _, _ = select.select([self.process.stdout], [], [], left)
            if ready:
                chunk = os.read(self.process.stdout.fileno(), 4096)
                if not chunk:
                    self.process.kill()
                    raise _ZygoteGone
                self.pending += chunk
        line, self.pending = self.pending.split(b"\n", 1)
        return json.loads(line)


_zygote: _Zygote | None = None
_ZYGOTE_LOCK = threading.Lock()


def _read(path: Path) -> str:
    return path.read_text(errors="replace") if path.is_file() else ""


def _worker_env() -> dict[str, str]:
    """This environment, with the directory holding ``cfmem`` first on the path."""
    root = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    return env


def _death(code: int) -> str:
    if code < 0:
        try:
            return f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with status {code}"


def _jit_errors(stderr: str) -> str:
    """LLVM's JIT reports unresolved symbols on stderr only; carry the first over."""
    found = [line.strip() for line in stderr.splitlines() if line.strip().startswith("JIT session error")]
    return f" ({found[0]})" if found else ""


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else "no output"
