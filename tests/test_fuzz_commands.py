"""Fuzzing every cfmem command with hostile arguments and mutated files.

Each case draws a command, an argv built from that command's own argparse
spec (and, for pipelines, from each pass's own options), and input files
mutated from the examples: MLIR text, ONNX protos, planning CSVs, npz inputs
and chip descriptions. The command runs in a forked child (isolated, with a
memory cap and a time limit) and must

- exit 0 or 1; on 1, print exactly one ``cfmem: ... error: ...`` line;
- never print a traceback, an internal error or a warning;
- leave every input byte-identical, and create no file but the outputs asked for.

``CFMEM_FUZZ_EXAMPLES`` sets the number of cases (default 300, derandomized so
CI is repeatable); ``CFMEM_FUZZ_RANDOM=1`` draws new cases on every run.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import io
import os
import re
import resource
import signal
import stat
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import onnx
import pytest
from conftest import EXAMPLES, ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from onnx import TensorProto as T
from onnx import helper as h

from cfmem.passes import PASSES
from cfmem.testing.onnx_models import SILERO_MODELS, silero_model
from cfmem.tools import cli

EXAMPLES_COUNT = int(os.environ.get("CFMEM_FUZZ_EXAMPLES", "300"))
RANDOM = os.environ.get("CFMEM_FUZZ_RANDOM") == "1"
CASE_SECONDS = 60
MEMORY_CAP = 6 << 30

MLIR_SOURCES = [ROOT / "tests" / "data" / "small_if.mlir", EXAMPLES / "wakeword.mlir", EXAMPLES / "facedetect.mlir"]
CSV_SOURCE = ROOT / "benchmarks" / "minimalloc" / "input.12.csv"
CHIP_SOURCE = EXAMPLES / "chips" / "edge-npu.json"

HOSTILE_INTS = ["-1", "0", "1", "2", "3", "7", "64", "4096", "65536", "65537", "2147483648", "4611686018427387904",
                "9223372036854775807", "9223372036854775808", "-9223372036854775809", "99999999999999999999", "1e3", "x", ""]  # fmt: skip
HOSTILE_FLOATS = ["nan", "inf", "-inf", "-1", "0", "0.0", "1e-9", "0.05", "1", "1e308", "1e999", "x", ""]
HOSTILE_STRINGS = ["", "main", "wé", "a b", "-", "--", "{", "}", "\x7f", "x" * 300, "../", "nope"]
HOSTILE_NUMBERS = ["0", "-1", "1", "3", "17", "255", "65536", "2147483647", "4294967296", "1152921504606846976",
                   "9223372036854775807", "9223372036854775808", "99999999999999999999", "-9223372036854775808",
                   "-9223372036854775809", "1.5", "nan", "1e40"]  # fmt: skip
EXTREME_CHIP_VALUES = ["0", "-2", "1.5", "2.0", "1e300", "1e400", "1e-320", "1e-9", "1e9", "9223372036854775807",
                       "9223372036854775808", "99999999999999999999", "true", '"x"', "null", "[]"]  # fmt: skip


# ---------------------------------------------------------------- input files


def onnx_models() -> list[onnx.ModelProto]:
    """Small ONNX models that import today: a conv chain and a data-dependent If."""
    x = h.make_tensor_value_info("x", T.FLOAT, [1, 2, 6, 6])
    w = h.make_tensor("w", T.FLOAT, [3, 2, 3, 3], np.linspace(-1, 1, 54).astype(np.float32).tolist())
    nodes = [
        h.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1], name="conv"),
        h.make_node("Relu", ["c"], ["r"], name="relu"),
        h.make_node("MaxPool", ["r"], ["y"], kernel_shape=[2, 2], strides=[2, 2], name="pool"),
    ]
    conv = h.make_graph(nodes, "conv", [x], [h.make_tensor_value_info("y", T.FLOAT, [1, 3, 3, 3])], [w])

    then = h.make_graph([h.make_node("Relu", ["a"], ["t"])], "then", [], [h.make_tensor_value_info("t", T.FLOAT, [1, 4])])
    other = h.make_graph([h.make_node("Neg", ["a"], ["e"])], "else", [], [h.make_tensor_value_info("e", T.FLOAT, [1, 4])])
    zero = h.make_tensor("zero", T.FLOAT, [], [0.0])
    branch = h.make_graph(
        [
            h.make_node("Sigmoid", ["x"], ["a"], name="sig"),
            h.make_node("ReduceSum", ["x"], ["s"], keepdims=0, name="sum"),
            h.make_node("Greater", ["s", "zero"], ["cond"], name="gt"),
            h.make_node("If", ["cond"], ["y"], then_branch=then, else_branch=other, name="if"),
        ],
        "branch", [h.make_tensor_value_info("x", T.FLOAT, [1, 4])], [h.make_tensor_value_info("y", T.FLOAT, [1, 4])], [zero],
    )  # fmt: skip
    return [h.make_model(g, opset_imports=[h.make_opsetid("", 17)], ir_version=8) for g in (conv, branch)]


SMALL_MODELS = onnx_models()
# Real test models, and the arguments they need to import: two torch.cond exports (If nested
# 2 deep) and silero-vad (a data-dependent If on the sample rate).
REAL_MODELS = {
    "cond_mlp": [],
    "cond_chain": [],
    "silero_vad.onnx": ["--input-shape", "input=1,256", "--input-shape", "state=2,1,128"],
}


@functools.cache
def real_model(name: str) -> onnx.ModelProto:
    """A real test model, loaded once; torch exports run in a subprocess, so the forking test process never imports torch."""
    if name in SILERO_MODELS:
        return onnx.load(str(silero_model(name)))
    script = f"from cfmem.testing.onnx_models import cond_model; print(cond_model({name!r}))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    return onnx.load(done.stdout.strip())


SEARCHING_PASSES = {"nn-place"}
"""Passes that search placements (seconds to a minute on the examples at small budgets):
left out of fuzzed pipelines; their options are checked by test_pass_options and
test_fit_chip, and cfmem compile is fuzzed on the smallest model."""
SEARCHING_OPTIONS = {"--budget-sweep", "--budget"}
"""cfmem report options that search placements, left out for the same reason."""
SEARCHING_COMMANDS = {"compile"}
"""Commands fuzzed on the smallest model only."""


@st.composite
def mlir_text(draw, small: bool = False) -> bytes:
    text = draw(st.sampled_from(MLIR_SOURCES[:1] if small else MLIR_SOURCES)).read_text()
    for _ in range(draw(st.sampled_from([0, 0, 0, 1, 2, 3]))):
        lines = text.splitlines()
        if not lines:
            break
        at = draw(st.integers(0, len(lines) - 1))
        kind = draw(st.sampled_from(["number", "delete", "duplicate", "swap-type", "op-name", "truncate", "symbol"]))
        if kind == "number":
            digits = [k for k, c in enumerate(text) if c.isdigit() and not text[k - 1].isdigit()]
            if not digits:
                continue
            k = draw(st.sampled_from(digits))
            end = k
            while end < len(text) and text[end].isdigit():
                end += 1
            text = text[:k] + draw(st.sampled_from(HOSTILE_NUMBERS)) + text[end:]
        elif kind == "delete":
            text = "\n".join(lines[:at] + lines[at + 1 :])
        elif kind == "duplicate":
            text = "\n".join(lines[: at + 1] + lines[at:])
        elif kind == "swap-type":
            old, new = draw(st.sampled_from([("f32", "f64"), ("f32", "i1"), ("f32", "f16"), ("xf32", "x?xf32"), ("1x", "0x"), ("i1", "i32"), ("tensor", "memref")]))
            text = text.replace(old, new, draw(st.integers(1, 3)))
        elif kind == "op-name":
            old, new = draw(st.sampled_from([("nn.relu", "nn.frob"), ("nn.if", "scf.if"), ("nn.yield", "scf.yield"), ("func.return", "nn.yield"), ("nn.view", "nn.get_global")]))
            text = text.replace(old, new, 1)
        elif kind == "truncate":
            text = text[: draw(st.integers(0, len(text)))]
        else:
            text = text.replace("@main", draw(st.sampled_from(['@"wé"', "@_", '@"a b"', "@main2"])))
    data = text.encode()
    if draw(st.integers(0, 19)) == 0:
        k = draw(st.integers(0, len(data)))
        data = data[:k] + draw(st.sampled_from([b"\xff\xfe", b"\x00", "é".encode(), b"\r\n"])) + data[k:]
    return data


@st.composite
def onnx_bytes(draw, case: Case) -> bytes:
    model = onnx.ModelProto()
    source = draw(st.sampled_from([0, 0, 1, 1, *REAL_MODELS]))
    if isinstance(source, int):
        model.CopyFrom(SMALL_MODELS[source])
    else:
        model.CopyFrom(real_model(source))
        if draw(st.integers(0, 4)) != 0:
            case.argv_tail += REAL_MODELS[source]
    graph = model.graph
    for _ in range(draw(st.sampled_from([0, 0, 0, 1, 2, 3]))):
        kind = draw(st.sampled_from(["opset", "dim", "attr", "rename", "drop-node", "dtype", "bytes"]))
        if kind == "opset":
            model.opset_import[0].version = draw(st.sampled_from([1, 6, 7, 9, 10, 11, 12, 13, 18, 21, 99]))
        elif kind == "dim":
            dims = graph.input[0].type.tensor_type.shape.dim
            dim = dims[draw(st.integers(0, len(dims) - 1))]
            choice = draw(st.sampled_from(["0", "-1", "1", "3", "100000", "N"]))
            if choice == "N":
                dim.dim_param = "N"
            else:
                dim.dim_value = int(choice)
        elif kind == "attr":
            attrs = [a for n in graph.node for a in n.attribute if a.type == onnx.AttributeProto.INTS or a.type == onnx.AttributeProto.INT]
            if attrs:
                attr = draw(st.sampled_from(attrs))
                value = draw(st.sampled_from([0, -1, 2, 7, 1 << 40]))
                if attr.type == onnx.AttributeProto.INT:
                    attr.i = value
                elif attr.ints:
                    attr.ints[draw(st.integers(0, len(attr.ints) - 1))] = value
        elif kind == "rename":
            name = draw(st.sampled_from(["input_1", "a b", "53", "wé", "", "x.y"]))
            old = graph.input[0].name
            graph.input[0].name = name
            for node in graph.node:
                node.input[:] = [name if i == old else i for i in node.input]
        elif kind == "drop-node" and len(graph.node) > 1:
            del graph.node[draw(st.integers(0, len(graph.node) - 1))]
        elif kind == "dtype":
            graph.input[0].type.tensor_type.elem_type = draw(st.sampled_from([T.DOUBLE, T.INT64, T.BOOL, T.STRING, T.FLOAT16, 0]))
    data = model.SerializeToString()
    if draw(st.integers(0, 9)) == 0:
        k = draw(st.integers(0, len(data)))
        data = data[:k] + draw(st.sampled_from([b"", b"\xff", b"\x08\x07"])) + data[k + draw(st.integers(0, 8)) :]
    return data


@st.composite
def csv_text(draw) -> bytes:
    lines = CSV_SOURCE.read_text().splitlines()
    for _ in range(draw(st.sampled_from([0, 0, 0, 1, 2, 3]))):
        if not lines:
            break
        at = draw(st.integers(0, len(lines) - 1))
        kind = draw(st.sampled_from(["cell", "extra", "short", "blank", "dup", "header"]))
        cells = lines[at].split(",")
        if kind == "cell":
            cells[draw(st.integers(0, len(cells) - 1))] = draw(st.sampled_from(HOSTILE_NUMBERS + ["", "x", " 3", "é"]))
            lines[at] = ",".join(cells)
        elif kind == "extra":
            lines[at] += ",9"
        elif kind == "short":
            lines[at] = ",".join(cells[:-1])
        elif kind == "blank":
            lines.insert(at, "")
        elif kind == "dup":
            lines.insert(at, lines[at])
        else:
            lines[0] = draw(st.sampled_from(["id,lower,upper", "lower,upper,size,id", "id,lower,upper,size,offset", ""]))
    return ("\n".join(lines) + "\n").encode()


@st.composite
def npz_bytes(draw) -> bytes:
    arrays = {}
    for name in draw(st.lists(st.sampled_from(["x", "mode", "mfcc", "input", "wé", "a b", "53"]), max_size=3, unique=True)):
        shape = draw(st.sampled_from([(1, 4, 8, 8), (1, 4), (1,), (), (0,), (2, 3)]))
        kind = draw(st.sampled_from(["f4", "f8", "i4", "i8", "b1", "c8", "f2", "U3"]))
        if kind == "U3":
            arrays[name] = np.full(shape, "abc")
        else:
            arrays[name] = np.ones(shape).astype(kind) * draw(st.sampled_from([1, -1, 0.5, np.nan]))
    buffer = io.BytesIO()
    if draw(st.booleans()) and arrays:
        np.save(buffer, next(iter(arrays.values())))  # a .npy where an .npz belongs
    else:
        np.savez(buffer, **arrays)
    return buffer.getvalue()


@st.composite
def chip_text(draw) -> bytes:
    text = CHIP_SOURCE.read_text()
    if draw(st.booleans()):
        text = text.replace("2", draw(st.sampled_from(["0", "-2", "1e400", '"x"', "null"])), 1)
    if draw(st.booleans()):  # one field at an extreme value
        lines = text.splitlines()
        fields = [k for k, line in enumerate(lines) if ":" in line]
        if fields:
            k = draw(st.sampled_from(fields))
            key, _, rest = lines[k].partition(":")
            lines[k] = f"{key}: {draw(st.sampled_from(EXTREME_CHIP_VALUES))}{',' if rest.rstrip().endswith(',') else ''}"
            text = "\n".join(lines)
    if draw(st.booleans()):
        text = text[: draw(st.integers(0, len(text)))]
    return text.encode()


# ---------------------------------------------------------------- argv from each command's own spec


@dataclass
class Case:
    """Files to create in a fresh directory, and the argv to run there."""

    files: dict[str, bytes] = field(default_factory=dict)
    argv: list[str] = field(default_factory=list)
    argv_tail: list[str] = field(default_factory=list)
    outputs: set[str] = field(default_factory=set)


OUTPUT_CHOICES = ["out.dat"] * 6 + ["sub/out.dat", "dir", "dir/", "missing/out.dat", "fifo", "-", "link", "same-as-input"]
SANE_INTS = ["1", "2", "4", "16", "64"]
SANE_FLOATS = ["0.5", "1", "2"]
SANE_STRINGS = ["main", "exact", "hoist", "naive", "conservative", "linearize", "auto", "large-first", "search", "beam"]


def subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = cli.build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


COMMANDS = subparsers()


@st.composite
def pipeline(draw) -> str:
    parts = []
    for name in draw(st.lists(st.sampled_from(sorted(set(PASSES) - SEARCHING_PASSES)), min_size=1, max_size=4)):
        options = []
        for f in dataclasses.fields(PASSES[name]()):
            if draw(st.integers(0, 3)) == 0:
                values = {"int": HOSTILE_INTS, "float": HOSTILE_FLOATS, "bool": ["true", "false", "2"]}.get(
                    str(f.type), ["exact", "hoist", "naive", "search", "beam", "auto", "pingpong", "sync", "region", "wé", ""]
                )
                options.append(f"{f.name.replace('_', '-')}={draw(st.sampled_from(values))}")
        parts.append(f"{name}{{{' '.join(options)}}}" if options else name)
    spec = ",".join(parts)
    return draw(st.sampled_from([spec, spec, spec, spec + "{", ",".join([spec, "", spec]), "nn-plan-memory,"]))


@st.composite
def model_file(draw, case: Case, kind: str, small: bool = False) -> str:
    """A model of the kind the command reads (sometimes the wrong kind), written to the case."""
    choice = draw(st.sampled_from([kind] * 20 + ["mlir", "onnx", "csv", "missing", "dir"]))
    if choice == "missing":
        return "absent.file"
    if choice == "dir":
        return "dir"
    name = {"mlir": "m.mlir", "onnx": "m.onnx", "csv": "p.csv"}[choice]
    maker = {"mlir": mlir_text(small), "onnx": onnx_bytes(case), "csv": csv_text()}[choice]
    case.files[name] = draw(maker)
    return name


@st.composite
def cases(draw) -> Case:
    command = draw(st.sampled_from(sorted(COMMANDS)))
    case = Case(argv=[command])
    parser = COMMANDS[command]
    first_input = None
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        if not action.option_strings:  # positional: what the command reads
            kind = {"import": "onnx", "plan": "csv"}.get(command, "mlir")
            count = draw(st.integers(1, 2)) if action.nargs == "+" else 1
            names = [draw(model_file(case, kind, command in SEARCHING_COMMANDS)) for _ in range(count)]
            first_input = first_input or names[0]
            case.argv += names
            continue
        required = action.required
        if not required and (draw(st.integers(0, 3)) != 0 or set(action.option_strings) & SEARCHING_OPTIONS):
            continue
        flag = draw(st.sampled_from(action.option_strings))
        if action.nargs == 0:
            case.argv.append(flag)
            continue
        if action.dest in cli.OUTPUT_ARGUMENTS:
            value = draw(st.sampled_from(OUTPUT_CHOICES))
            if value == "same-as-input":
                value = first_input or "m.mlir"
            elif value in ("out.dat", "sub/out.dat"):
                value = value.replace("out", action.dest)
                case.outputs.add(value)
                if command == "import":
                    case.outputs.add(str(Path(value).with_name(Path(value).stem + ".weights.bin")))
        elif action.dest == "inputs":
            case.files["in.npz"] = draw(npz_bytes())
            value = draw(st.sampled_from(["in.npz"] * 4 + ["absent.npz", "dir", first_input or "m.mlir"]))
        elif action.dest == "chip":
            case.files["chip.json"] = draw(chip_text())
            value = "chip.json"
        elif action.dest == "passes":
            value = draw(pipeline())
        elif action.dest in ("input_shape", "input_value"):
            pool = {
                "input_shape": ["x=1,4", "x=1,2,6,6", "x=0,4", "x=-1,4", "x=1,a", "y=1", "x=", "=3", "wé=1",
                                "x=99999,99999,99999", "input=1,512", "state=2,1,0", "x=1,4,1"],
                "input_value": ["x=1", "x=0.5", "x=nan", "x=", "y=3", "x=1e400", "x=abc", "sr=16000", "sr=8000", "sr=7"],
            }[action.dest]  # fmt: skip
            values = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=2))
            case.argv += [part for value in values for part in (flag, value)]
            continue
        else:
            hostile = draw(st.integers(0, 2)) == 0
            if action.choices:
                value = draw(st.sampled_from([*map(str, action.choices), *(["nope", ""] if hostile else [])]))
            elif action.type is int:
                value = draw(st.sampled_from(HOSTILE_INTS if hostile else SANE_INTS))
            elif action.type is float:
                value = draw(st.sampled_from(HOSTILE_FLOATS if hostile else SANE_FLOATS))
            else:
                value = draw(st.sampled_from(HOSTILE_STRINGS if hostile else SANE_STRINGS))
        case.argv += [flag, value]
    if command == "check-mlir" and draw(st.integers(0, 9)) != 0:
        case.argv.append("--no-mlir")  # the JIT costs seconds; a tenth of the cases use it
    case.argv += case.argv_tail
    return case


# ---------------------------------------------------------------- running and checking


def prepare(directory: Path, case: Case) -> None:
    for name, data in case.files.items():
        (directory / name).write_bytes(data)
    (directory / "dir").mkdir()
    (directory / "sub").mkdir()
    os.mkfifo(directory / "fifo")
    os.symlink(next(iter(case.files), "m.mlir"), directory / "link")


def snapshot(directory: Path) -> dict[str, tuple]:
    result = {}
    for root, dirs, names in os.walk(directory):
        for name in dirs + names:
            path = Path(root) / name
            st_ = os.lstat(path)
            rel = str(path.relative_to(directory))
            if stat.S_ISLNK(st_.st_mode):
                result[rel] = ("link", os.readlink(path))
            elif stat.S_ISREG(st_.st_mode):
                result[rel] = ("file", path.read_bytes(), stat.S_IMODE(st_.st_mode))
            else:
                result[rel] = ("other", stat.S_IFMT(st_.st_mode))
    return result


def run_forked(argv: list[str], cwd: Path) -> tuple[int, str, str]:
    """Run ``cfmem argv`` in a forked child; (exit code, stdout, stderr)."""
    out_path, err_path = cwd.parent / "stdout", cwd.parent / "stderr"
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child: never return into pytest
        code = 99
        try:
            os.chdir(cwd)
            resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
            sys.stdout = io.TextIOWrapper(open(out_path, "wb"), encoding="utf-8", write_through=True)
            sys.stderr = io.TextIOWrapper(open(err_path, "wb"), encoding="utf-8", write_through=True)
            code = cli.main(argv)
            sys.stdout.flush()
            sys.stderr.flush()
        except BaseException as err:  # noqa: BLE001 - reported through the exit code and stderr
            try:
                sys.stderr.write(f"escaped the error boundary: {type(err).__name__}: {err}\n")
                sys.stderr.flush()
            except BaseException:  # noqa: BLE001
                pass
            code = 98
        finally:
            os._exit(code if isinstance(code, int) else 97)
    deadline = time.monotonic() + CASE_SECONDS
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return -1, "", f"timed out after {CASE_SECONDS} s"
        time.sleep(0.005)
    code = os.waitstatus_to_exitcode(status)
    read = lambda p: p.read_bytes().decode("utf-8", "replace") if p.exists() else ""  # noqa: E731
    return code, read(out_path), read(err_path)


def check(case: Case, code: int, stderr: str, before: dict, after: dict) -> None:
    shown = f"\n  argv: {case.argv}\n  exit: {code}\n  stderr: {stderr[-2000:]}"
    assert code in (0, 1), shown
    assert "Traceback" not in stderr and "internal error" not in stderr, shown
    assert "Warning" not in stderr, shown
    if code == 1:
        lines = stderr.strip().splitlines()
        assert len(lines) == 1 and re.match(r"cfmem: \S.*?: error: \S", lines[0]), shown  # cfmem: <where>: error: <what>
    for name, entry in before.items():
        assert after.get(name) == entry, f"{name} changed{shown}"
    new = set(after) - set(before)
    assert new <= case.outputs, f"unexpected files {sorted(new - case.outputs)}{shown}"
    if code == 1:
        assert not new, f"a failed command left {sorted(new)}{shown}"


@settings(
    max_examples=EXAMPLES_COUNT,
    deadline=None,
    derandomize=not RANDOM,
    database=None,
    suppress_health_check=list(HealthCheck),
)
@given(case=cases())
def test_every_command_survives_hostile_arguments_and_files(case):
    run_case(case)


# ---------------------------------------------------------------- extreme numbers, where each is parsed

EXTREME_INTS = ["-1", "0", "1", "2", "65536", "65537", "1152921504606846976", "4611686018427387904",
                "9223372036854775807", "9223372036854775808", "-9223372036854775808", "99999999999999999999", "1.5", "x"]  # fmt: skip
EXTREME_CASES = int(os.environ.get("CFMEM_FUZZ_EXTREME_EXAMPLES", "40"))


@st.composite
def extreme_chip(draw) -> bytes:
    """A chip whose fields are each sane or extreme (counts beyond int64, denormal or huge rates)."""
    chip = {}
    for key in ("onchip_bytes", "macs_per_cycle", "move_bytes_per_cycle", "dma_bytes_per_cycle", "dma_latency_cycles",
                "offchip_bytes_per_cycle", "clock_mhz", "slice_overhead_cycles"):  # fmt: skip
        if draw(st.integers(0, 2)) == 0:
            chip[key] = draw(st.sampled_from(EXTREME_CHIP_VALUES))
    return ("{" + ", ".join(f'"{k}": {v}' for k, v in chip.items()) + "}").encode()


@st.composite
def extreme_csv(draw) -> bytes:
    """A planning problem with int64-extreme lifetimes and sizes (2**60-step lifetimes among them)."""
    rows = ["id,lower,upper,size"]
    for k in range(draw(st.integers(1, 4))):
        lower = draw(st.sampled_from(["0", "3", "-9223372036854775808", "-9223372036854775809"]))
        upper = draw(st.sampled_from(["5", "1152921504606846976", "9223372036854775807", "9223372036854775808", "99999999999999999999"]))
        size = draw(st.sampled_from(["1", "8", "4611686018427387904", "9223372036854775807", "9223372036854775808"]))
        rows.append(f"b{k},{lower},{upper},{size}")
    return ("\n".join(rows) + "\n").encode()


@st.composite
def extreme_cases(draw) -> Case:
    """A command given an extreme integer where it parses one: a chip field, a plan CSV cell,
    --loop-trips, --depth, --align, --budget, --seed, --sets, or a pass's align or depth."""
    case = Case(files={"m.mlir": MLIR_SOURCES[0].read_bytes()})
    kind = draw(st.sampled_from(["chip", "csv", "flag", "pass"]))
    number = draw(st.sampled_from(EXTREME_INTS))
    if kind == "chip":
        case.files["chip.json"] = draw(extreme_chip())
        case.argv = draw(st.sampled_from([["compile", "m.mlir", "-o", "out.mlir"], ["report", "m.mlir", "--timing"],
                                          ["report", "m.mlir", "--budget", "4096"]])) + ["--chip", "chip.json"]  # fmt: skip
    elif kind == "csv":
        case.files["p.csv"] = draw(extreme_csv())
        strategy = draw(st.sampled_from(["auto", "search", "beam", "tflm", "best-fit", "large-first"]))
        case.argv = ["plan", "p.csv", "--strategy", strategy, "--time-limit", "0.5", "-o", "out.csv"]
    elif kind == "flag":
        case.argv = draw(st.sampled_from([
            ["report", "m.mlir", "--timing", "--loop-trips"], ["report", "m.mlir", "--timing", "--depth"],
            ["report", "m.mlir", "--align"], ["compile", "m.mlir", "-o", "out.mlir", "--loop-trips"],
            ["compile", "m.mlir", "-o", "out.mlir", "--budget"], ["run", "m.mlir", "--seed"],
            ["check-arena", "m.mlir", "--sets"], ["plan", "p.csv", "--align"], ["plan", "p.csv", "--beam-width"],
        ])) + [number]  # fmt: skip
        case.files["p.csv"] = CSV_SOURCE.read_bytes()
    else:
        spec = draw(st.sampled_from(["nn-insert-dma{{depth={}}}", "nn-insert-dma{{align={}}}", "nn-plan-memory{{align={}}}",
                                     "nn-insert-dma,nn-plan-memory{{align={}}}", "nn-plan-memory{{budget={}}}",
                                     "nn-slice-weights{{max-slice-bytes={}}}"]))  # fmt: skip
        case.argv = ["opt", "m.mlir", "-p", spec.format(number), "-o", "out.mlir"]
    case.outputs |= {"out.mlir", "out.csv"}
    return case


@settings(max_examples=EXTREME_CASES, deadline=None, derandomize=not RANDOM, database=None,
          suppress_health_check=list(HealthCheck))  # fmt: skip
@given(case=extreme_cases())
def test_extreme_numbers_are_refused_in_one_line_or_handled(case):
    run_case(case)


def run_case(case) -> None:
    """Run one drawn command in a scratch folder and check what it did (see ``check``)."""
    with tempfile.TemporaryDirectory(prefix="cfmem-fuzz-") as scratch:
        work = Path(scratch) / "work"
        work.mkdir()
        prepare(work, case)
        before = snapshot(work)
        code, _, stderr = run_forked(case.argv, work)
        check(case, code, stderr, before, snapshot(work))


@pytest.fixture(autouse=True, scope="module")
def _warm_imports():
    """Import what commands load lazily once, so each forked case starts fast."""
    import matplotlib

    matplotlib.use("Agg")
    import cfmem.importers.onnx  # noqa: F401
    import cfmem.mlir_check.jit  # noqa: F401
    import cfmem.reports.gantt  # noqa: F401
