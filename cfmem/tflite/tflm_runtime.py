"""Running a model in TFLite Micro itself: the interpreter of the ``tflite-micro`` package.

That interpreter is TFLM's C++ runtime with its reference kernels and its recording
allocator, on the host. What is measured with it:

- ``TflmWorker.allocate``: whether TFLM allocates a model in an arena of a given size, and
  then the recording allocator's report (``print_allocations``): the head (planned tensors
  and the scratch buffers kernels asked for) and the tail (TFLM's persistent structures,
  kernel data, variable tensors).
- ``TflmWorker.smallest_arena``: the smallest ``arena_size`` with which TFLM allocates the
  model, by bisection. It is the arena a deployment needs: head, tail and, while the model
  is set up, TFLM's temporary allocations between them.
- ``TflmWorker.run``: the outputs of one invocation on given inputs (and
  ``random_inputs``, input sets of the model's shapes and types).

TFLM crashes outright (a segmentation fault) on some arena sizes just below what a model
needs, and may on a model it cannot run, so ``TflmWorker`` does all of it in a child
process: a crash there is one more size that does not work, or a one-line error, and the
next request goes to a new child.

TFLM writes its messages to the C standard error stream; they are captured (by redirecting
file descriptor 2) and put into reports and one-line errors, not printed. Kernels built for
a target (CMSIS-NN and others) may ask for other scratch buffers and keep other persistent
data than these reference kernels.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import select
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from cfmem.errors import CfmemError
from cfmem.tflite.model_file import parse_tflite

LARGEST_ARENA = 1 << 31
"""No arena is tried above this (TFLM's offsets are ``int``)."""
ANSWER_SECONDS = 120
"""How long one allocation or invocation may take before the child is stopped (a WHILE whose
condition a random input never makes false would run for ever)."""


class TflmError(CfmemError):
    """TFLite Micro could not load or run a model; ``reason`` is what TFLM said."""

    def __init__(self, message: str, reason: str = ""):
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True)
class AllocationReport:
    """The recording allocator's totals, in bytes."""

    head: int
    """Non-persistent part: the planned tensors and scratch buffers."""
    tail: int
    """Persistent part: TFLM's structures, kernel data, variable tensors."""

    @property
    def total(self) -> int:
        return self.head + self.tail


def runtime() -> Any:
    """The ``tflite_micro`` runtime module (TFLM's Python interpreter)."""
    try:
        from tflite_micro.python.tflite_micro import runtime as tflm
    except ImportError as err:
        raise TflmError("running TFLite Micro needs the tflite-micro package: pip install 'cfmem[tflite]'") from err
    return tflm


@contextlib.contextmanager
def captured_stderr() -> Iterator[list[str]]:
    """Everything written to file descriptor 2 inside, as one string in the yielded list."""
    text: list[str] = []
    with tempfile.TemporaryFile() as sink:
        saved = os.dup(2)
        try:
            os.dup2(sink.fileno(), 2)
            yield text
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            sink.seek(0)
            text.append(sink.read().decode(errors="replace"))


def interpreter(data: bytes, arena_size: int) -> Any:
    """A TFLM interpreter of ``data`` that has allocated its tensors in ``arena_size`` bytes
    (in the calling process: ``TflmWorker``'s child calls it)."""
    with captured_stderr() as messages:
        try:
            return runtime().Interpreter.from_bytes(data, arena_size=arena_size)
        except (RuntimeError, ValueError) as err:
            failure: Exception = err
    reason = _reason(messages[0], failure)
    raise TflmError(f"TFLite Micro cannot allocate the model in {arena_size} bytes: {reason}", reason)


def report_of(loaded: Any) -> AllocationReport:
    """The recording allocator's head and tail of an allocated interpreter."""
    with captured_stderr() as messages:
        loaded.print_allocations()
    found = dict(re.findall(r"Arena allocation (head|tail) (\d+) bytes", messages[0]))
    if set(found) != {"head", "tail"}:
        raise TflmError(f"TFLite Micro's allocation report has no head and tail: {messages[0].strip()[:200]!r}")
    return AllocationReport(head=int(found["head"]), tail=int(found["tail"]))


class TflmWorker:
    """TFLM in a child process (see the module's docstring); a context manager."""

    def __init__(self) -> None:
        self._child: subprocess.Popen | None = None
        self._files = tempfile.TemporaryDirectory(prefix="cfmem-tflm-")
        self._paths: dict[bytes, str] = {}
        self.last_failure = ""

    def __enter__(self) -> TflmWorker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._child is not None:
            with contextlib.suppress(OSError):
                self._child.stdin.close()  # type: ignore[union-attr]
            self._child.wait()
            self._child = None
        self._files.cleanup()

    def allocate(self, data: bytes, arena_size: int) -> AllocationReport | None:
        """The report if TFLM allocates ``data`` in ``arena_size`` bytes, else None
        (``last_failure`` then holds TFLM's reason)."""
        answer = self._ask({"op": "allocate", "model": self._path(data), "arena": arena_size})
        if not answer.get("ok"):
            self.last_failure = answer.get("reason", "no reason given")
            return None
        return AllocationReport(head=answer["head"], tail=answer["tail"])

    def smallest_arena(self, data: bytes) -> int:
        """The smallest arena size in bytes with which TFLM allocates the model (TflmError with
        TFLM's reason if it does not allocate it even in ``LARGEST_ARENA // 2`` bytes)."""
        high = max(1 << 20, 4 * len(data))
        if self.allocate(data, high) is None:
            high = LARGEST_ARENA // 2
            if self.allocate(data, high) is None:
                reason = self.last_failure
                raise TflmError(f"TFLite Micro cannot allocate the model: {reason}", reason)
        low = 0  # allocates nothing
        while high - low > 1:
            middle = (low + high) // 2
            if self.allocate(data, middle) is None:
                low = middle
            else:
                high = middle
        return high

    def run(self, data: bytes, arena_size: int, inputs: list[np.ndarray]) -> list[np.ndarray]:
        """The outputs of one invocation of subgraph 0 on ``inputs``."""
        folder = Path(self._files.name)
        np.savez(folder / "inputs.npz", *inputs)
        request = {"op": "run", "model": self._path(data), "arena": arena_size,
                   "inputs": str(folder / "inputs.npz"), "outputs": str(folder / "outputs.npz")}  # fmt: skip
        self._check(self._ask(request), "run the model")
        with np.load(folder / "outputs.npz") as saved:
            return [saved[f"arr_{k}"] for k in range(len(saved.files))]

    def random_inputs(self, data: bytes, arena_size: int, seed: int = 0) -> list[np.ndarray]:
        """One input per input of subgraph 0, with TFLM's shapes and types: floats normal, 8-
        and 16-bit integers over their whole range, wider integers small (they may be indices)."""
        answer = self._ask({"op": "inputs", "model": self._path(data), "arena": arena_size})
        self._check(answer, "read the model's inputs")
        rng = np.random.default_rng(seed)
        values = []
        for shape, name in answer["inputs"]:
            dtype = np.dtype(name)
            if dtype.kind == "f":
                values.append(rng.standard_normal(shape).astype(dtype))
            elif dtype.kind == "b":
                values.append(rng.integers(0, 2, shape).astype(dtype))
            elif dtype.itemsize <= 2:
                info = np.iinfo(dtype)
                values.append(rng.integers(info.min, info.max, shape, endpoint=True).astype(dtype))
            else:
                values.append(rng.integers(0, 4, shape).astype(dtype))
        return values

    def _path(self, data: bytes) -> str:
        path = self._paths.get(data)
        if path is None:
            path = str(Path(self._files.name) / f"model{len(self._paths)}.tflite")
            Path(path).write_bytes(data)
            self._paths[data] = path
        return path

    def _ask(self, request: dict) -> dict:
        """The child's answer, or ``{"ok": False}`` with a crash as the reason (the next
        request starts a new child)."""
        if self._child is None:
            runtime()  # a missing package is this process's one-line error, not the child's
            self._child = subprocess.Popen(
                [sys.executable, "-m", "cfmem.tflite.tflm_runtime"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
            )  # fmt: skip
        assert self._child.stdin is not None and self._child.stdout is not None
        line, reason = "", "TFLite Micro crashed"
        try:
            self._child.stdin.write(json.dumps(request) + "\n")
            self._child.stdin.flush()
            if select.select([self._child.stdout], [], [], ANSWER_SECONDS)[0]:
                line = self._child.stdout.readline()
            else:
                reason = f"TFLite Micro did not finish in {ANSWER_SECONDS} s"
                self._child.kill()
        except OSError:
            pass
        if not line:
            self._child.wait()
            self._child = None
            return {"ok": False, "reason": reason}
        return json.loads(line)

    @staticmethod
    def _check(answer: dict, what: str) -> None:
        if not answer.get("ok"):
            reason = answer.get("reason", "no reason given")
            raise TflmError(f"TFLite Micro failed to {what}: {reason}", reason)


def _serve() -> None:
    """The child of ``TflmWorker``: one JSON request per line in, one JSON answer out."""
    for line in sys.stdin:
        request = json.loads(line)
        try:
            loaded = interpreter(Path(request["model"]).read_bytes(), request["arena"])
            if request["op"] == "allocate":
                report = report_of(loaded)
                answer = {"ok": True, "head": report.head, "tail": report.tail}
            elif request["op"] == "inputs":
                count = len(parse_tflite(Path(request["model"]).read_bytes()).subgraphs[0].inputs)
                details = [loaded.get_input_details(k) for k in range(count)]
                answer = {"ok": True, "inputs": [[[int(d) for d in x["shape"]], np.dtype(x["dtype"]).name] for x in details]}
            else:
                answer = {"ok": True}
                _invoke(loaded, request)
        except TflmError as err:
            answer = {"ok": False, "reason": " ".join(err.reason.split()) or "no reason given"}
        print(json.dumps(answer), flush=True)


def _invoke(loaded: Any, request: dict) -> None:
    """Set the inputs of ``request``, invoke, save the outputs where it says."""
    count = len(parse_tflite(Path(request["model"]).read_bytes()).subgraphs[0].outputs)
    with np.load(request["inputs"]) as saved:
        inputs = [saved[f"arr_{k}"] for k in range(len(saved.files))]
    with captured_stderr() as messages:
        try:
            for k, value in enumerate(inputs):
                loaded.set_input(value, k)
            loaded.invoke()
            outputs = [np.array(loaded.get_output(k)) for k in range(count)]
        except (RuntimeError, ValueError) as err:
            failure: Exception = err
        else:
            failure = None
    if failure is not None:
        reason = _reason(messages[0], failure)
        raise TflmError(f"TFLite Micro failed to run the model: {reason}", reason)
    np.savez(request["outputs"], *outputs)


def identical(a: list[np.ndarray], b: list[np.ndarray]) -> bool:
    """Whether two runs' outputs agree bit for bit (dtype, shape and bytes)."""
    return len(a) == len(b) and all(
        x.dtype == y.dtype and x.shape == y.shape and x.tobytes() == y.tobytes() for x, y in zip(a, b)
    )


def _reason(messages: str, err: Exception) -> str:
    lines = [line.strip() for line in messages.splitlines() if line.strip()]
    return "; ".join(lines[:3]) if lines else str(err)


if __name__ == "__main__":
    _serve()
