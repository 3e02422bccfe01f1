"""A warm parent for MLIR workers: it imports the bindings once and forks a child per request.

Run as ``python -m cfmem.mlir_check.zygote``. It reads one JSON request per line on its
standard input, ``{"dir": DIR, "cwd": CWD}``, and forks; the child changes to ``CWD``, writes
its standard output and error to ``DIR/stderr.txt`` and runs ``worker.main(DIR)`` (see
``cfmem.mlir_check.worker``). The zygote answers ``{"pid": PID}`` at once and
``{"pid": PID, "status": CODE}`` when the child ends (``-N``: killed by signal ``N``), one JSON line
each; it ends at the end of its input. A crash in JIT-compiled code costs the child only,
as it would cost a fresh process: the zygote itself never creates an MLIR context.

Starting Python and loading the bindings takes about half a CPU-second; a fork takes
milliseconds. ``cfmem.mlir_check.jit`` starts one zygote per process, on first use.
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from typing import TextIO

from cfmem.mlir_check import worker

try:  # loaded here once, so that every child starts with them
    from mlir import execution_engine, ir, passmanager, runtime

    PRELOADED = (execution_engine, ir, passmanager, runtime)
except ImportError:  # the worker reports it, one line
    PRELOADED = ()


def serve(requests: TextIO, replies: TextIO) -> None:
    for line in requests:
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            _child(request)
        _reply(replies, {"pid": pid})
        _, status = os.waitpid(pid, 0)
        _reply(replies, {"pid": pid, "status": os.waitstatus_to_exitcode(status)})


def _child(request: dict) -> None:
    """Run one request in this forked child and leave the process; never returns."""
    code = 1
    try:
        os.chdir(request["cwd"])
        log = os.open(os.path.join(request["dir"], "stderr.txt"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(log, 1)
        os.dup2(log, 2)
        code = worker.main(request["dir"])
    except BaseException:  # noqa: BLE001 - whatever happens, the child must not return into the loop
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def _reply(replies: TextIO, message: dict) -> None:
    replies.write(json.dumps(message) + "\n")
    replies.flush()


if __name__ == "__main__":
    serve(sys.stdin, sys.stdout)
