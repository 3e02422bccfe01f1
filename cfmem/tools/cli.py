"""The ``cfmem`` command: subcommands, and the one error boundary they all share.

A user-caused failure is one line on standard error,
``cfmem: <where>: error: <what>``, and exit code 1; exit code 2 is kept for
bugs in cfmem. A closed standard output (``cfmem run m.mlir | head -1``) ends
the command quietly, as it does for Unix tools. Every command runs inside an
output session (``cfmem.files``): its outputs appear together when it
succeeds and not at all when it fails, and never over a file it reads.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import importlib
import re
import sys

from cfmem.errors import CfmemError
from cfmem.planning.option_checks import RuleTypeError
from cfmem.files import STDOUT, StdoutWriteError, check_input_path, check_output_path, note_input, output_session, stdout_errors

# The subcommands in --help order, each with the module under cfmem.tools that defines it.
COMMANDS = {
    "import": "import_onnx",
    "compile": "compile",
    "run": "run",
    "report": "report",
    "plan": "plan",
    "plan-tflite": "plan_tflite",
    "opt": "opt",
    "check-mlir": "check_mlir",
    "check-arena": "check_arena",
}

# Arguments naming files a command reads, and files it writes.
INPUT_ARGUMENTS = ("model", "models", "problem", "inputs", "chip")
OUTPUT_ARGUMENTS = ("output", "csv", "png", "timeline", "graph")

EXIT_BAD_INPUT = 1
EXIT_BUG = 2
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141  # what a shell reports for a command ended by SIGPIPE


class ArgumentParser(argparse.ArgumentParser):
    """argparse, but a usage error is a CfmemError (one line, exit 1), not exit 2,
    and ``-1e-5`` is a negative number, not an option."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._negative_number_matcher = re.compile(r"^-(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")

    def _get_value(self, action: argparse.Action, arg_string: str):
        """An option's value that breaks its rule (``parsed_int``) is the rule's one line."""
        try:
            return super()._get_value(action, arg_string)
        except argparse.ArgumentError as err:
            if isinstance(err.__context__, RuleTypeError):
                raise CfmemError(str(err.__context__), (action.option_strings or [action.dest])[-1]) from None
            raise

    def error(self, message: str):
        where = self.prog.removeprefix("cfmem").strip() or "command line"
        match = re.match(r"argument ([^:]+): (.*)", message)
        if match:
            where, message = match.group(1).split("/")[-1], match.group(2)
        raise CfmemError(f"{message} (see '{self.prog} --help')", where)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line; with ``only`` naming a subcommand, just that one is set up,
    so a command imports what it runs and nothing more (start-up time)."""
    parser = ArgumentParser(
        prog="cfmem",
        description=(
            "Plan on-chip memory for neural-network graphs with control flow."
            " The passes also run inside xdsl-opt (see `xdsl-opt -p nn-...`)."
            " Errors are one line, 'cfmem: <where>: error: <what>', with exit code 1."
        ),
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in [only] if only in COMMANDS else COMMANDS:
        importlib.import_module(f"cfmem.tools.{COMMANDS[name]}").add_parser(subparsers)
    return parser


def _check_files(args: argparse.Namespace) -> None:
    """Refuse unusable files before any work: an input that is a device; an output that is a
    directory, a device or an input, and a second output to standard output (its bytes would
    run into the first's)."""
    for name in INPUT_ARGUMENTS:
        value = getattr(args, name, None)
        for path in value if isinstance(value, list) else [value]:
            if path is not None:
                check_input_path(path)
                note_input(path)
    to_stdout = [f"--{name}" if name != "output" else "-o" for name in OUTPUT_ARGUMENTS if getattr(args, name, None) == STDOUT]
    if len(to_stdout) > 1:
        raise CfmemError(f"standard output already carries {to_stdout[0]}: one output at most may be '-'", to_stdout[1])
    for name in OUTPUT_ARGUMENTS:
        path = getattr(args, name, None)
        if path is not None:
            check_output_path(path)


def _run(argv: list[str] | None) -> int:
    words = sys.argv[1:] if argv is None else argv
    args = build_parser(words[0] if words else None).parse_args(argv)
    try:
        with output_session():
            _check_files(args)
            if any(getattr(args, name, None) == STDOUT for name in OUTPUT_ARGUMENTS):
                with contextlib.redirect_stdout(sys.stderr):  # standard output carries the file
                    return args.handler(args)
            return args.handler(args)
    except MemoryError:
        where = getattr(args, "model", None) or (getattr(args, "models", None) or [None])[0] or args.command
        raise CfmemError("out of memory: the model or its inputs are too large for this machine", where) from None


class _ClosedStdout:
    """Standard output when the process started without one (``>&-``): a write is the
    command's one-line error, so no output it was asked for is lost without a word."""

    @property
    def buffer(self) -> _ClosedStdout:
        return self

    def write(self, data) -> int:
        raise CfmemError("cannot write: it is closed", "standard output")

    def flush(self) -> None:
        pass


class _CheckedStdout:
    """Standard output whose write errors are the command's one-line error (``stdout_errors``);
    everything else is the stream's."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, data) -> int:
        with stdout_errors():
            return self._stream.write(data)

    def flush(self) -> None:
        with stdout_errors():
            self._stream.flush()

    def __getattr__(self, name):
        return getattr(self._stream, name)


def main(argv: list[str] | None = None) -> int:
    # cfmem's kernels work on small tensors; one BLAS thread starts numpy about 40 ms
    # sooner and keeps a loaded machine's other cores free. A user's setting wins.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    if sys.stdout is None:
        sys.stdout = _ClosedStdout()  # type: ignore[assignment]
    stdout = sys.stdout
    sys.stdout = _CheckedStdout(stdout)  # type: ignore[assignment]
    try:
        code = _run(argv)
        sys.stdout.flush()  # a full device fails here, not at exit
        return code
    except StdoutWriteError as err:
        _error_line(str(err))
        _silence_stdout()  # what is still buffered cannot be written either
        return EXIT_BAD_INPUT
    except CfmemError as err:
        _error_line(str(err))
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except KeyboardInterrupt:
        _error_line("interrupted")
        return EXIT_INTERRUPTED
    except (SystemExit, GeneratorExit):
        raise
    except BaseException as err:  # a bug in cfmem: still one line, traceback on request
        if os.environ.get("CFMEM_DEBUG"):
            import traceback

            traceback.print_exc()
        message = str(err).strip().splitlines()[0] if str(err).strip() else ""
        _error_line(f"internal error: {type(err).__name__}: {message} (set CFMEM_DEBUG=1 for a traceback)")
        return EXIT_BUG
    finally:
        if isinstance(sys.stdout, _CheckedStdout):
            sys.stdout = stdout


def _error_line(text: str) -> None:
    """Print ``cfmem: text`` as one line, control characters (a NUL from a bad file) escaped."""
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in " ".join(text.splitlines()))
    try:
        print(f"cfmem: {text}", file=sys.stderr, flush=True)
    except (BrokenPipeError, OSError):
        pass


def _silence_stdout() -> None:
    """Point stdout at /dev/null so Python's exit-time flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(main())
