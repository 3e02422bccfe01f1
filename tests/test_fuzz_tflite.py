"""Fuzzing ``cfmem import`` and ``cfmem plan-tflite --no-tflm`` with damaged ``.tflite`` files.

Each case takes a small model (TFLite Micro's hello_world_int8 and simple_add, the sine model
of the tflite-micro wheel, and the IF and WHILE models of ``cfmem.testing.tflm_models``) and
damages it: bits flipped, the file cut short, bytes inserted or deleted, or one of the
flatbuffer's structural words set to a hostile value (an offset, a vector's or a string's
length, a table's offset to its vtable, a vtable entry, an index in a vector of indices; found
by recording what the schema's reader reads of the intact model). The command runs in this
process and must

- exit 0 with complete outputs (the planned model reads back with its plan; the module parses
  and its weight blob has the size the module declares), or
- exit 1 with one line ``cfmem: <where>: error: <what>`` and no file written;
- never print a traceback, an internal error or "out of memory", and never run longer than
  ``CASE_SECONDS``. Each case may grow the process by ``CASE_BYTES`` of address space at most
  (``RLIMIT_AS``, for the case): a larger allocation fails, and the command says "out of memory".

``CFMEM_FUZZ_TFLITE_EXAMPLES`` sets the number of cases (default 200, derandomized so a run
is repeatable); ``CFMEM_FUZZ_RANDOM=1`` draws new cases on every run.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import resource
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("tflite_micro")

import flatbuffers  # noqa: E402
from conftest import ROOT, run_cfmem  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from cfmem.ir_io import load_module  # noqa: E402
from cfmem.testing.tflite_models import sine_float_model  # noqa: E402
from cfmem.testing.tflm_models import if_model, while_model  # noqa: E402
from cfmem.tflite.model_file import (  # noqa: E402
    FILE_IDENTIFIER,
    UNION_ENUMS,
    TfliteFileError,
    parse_tflite,
    schema,
    table_fields,
    union_members,
)
from cfmem.tflite.offline_plan import read_plan  # noqa: E402

EXAMPLES_COUNT = int(os.environ.get("CFMEM_FUZZ_TFLITE_EXAMPLES", "200"))
RANDOM = os.environ.get("CFMEM_FUZZ_RANDOM") == "1"
CASE_SECONDS = 30
CASE_BYTES = 1 << 30

EXAMPLES = ROOT / "tests" / "data" / "tflite"
SOURCES = {
    "hello_world_int8": (EXAMPLES / "hello_world_int8.tflite").read_bytes(),
    "simple_add_model": (EXAMPLES / "simple_add_model.tflite").read_bytes(),
    "sine_float": sine_float_model().read_bytes(),
    "if_model": if_model(4),
    "while_model": while_model(4),
}


# ---------------------------------------------------------------- where the structure is


def structure_words(data: bytes) -> list[tuple[int, int]]:
    """(position, width) of every structural word the schema's reader reads of ``data``: the
    offsets to tables, vectors and strings, their lengths, each table's offset to its vtable,
    the vtable entries read, and the elements of short vectors of 32-bit numbers (tensor
    indices, shapes)."""
    table = flatbuffers.table.Table
    read = {name: getattr(table, name) for name in ("Offset", "Indirect", "String", "VectorLen", "Union", "GetVectorAsNumpy")}
    found: set[tuple[int, int]] = set()

    def word(buffer, at: int, signed: bool = False) -> int:
        return int.from_bytes(buffer[at : at + 4], "little", signed=signed)

    def offset(self, slot):
        vtable = self.Pos - word(self.Bytes, self.Pos, signed=True)
        found.update({(self.Pos, 4), (vtable, 2), (vtable + slot, 2)})
        return read["Offset"](self, slot)

    def indirect(self, at):
        found.add((at, 4))
        return read["Indirect"](self, at)

    def string(self, at):
        found.update({(at, 4), (at + word(self.Bytes, at), 4)})
        return read["String"](self, at)

    def vector_length(self, slot):
        at = self.Pos + slot
        found.update({(at, 4), (at + word(self.Bytes, at), 4)})
        return read["VectorLen"](self, slot)

    def union(self, t2, slot):
        found.add((self.Pos + slot, 4))
        return read["Union"](self, t2, slot)

    def numbers(self, flags, slot):
        if flags.bytewidth == 4:
            start, count = table.Vector(self, slot), read["VectorLen"](self, slot)
            found.update((start + 4 * k, 4) for k in range(min(count, 16)))
        return read["GetVectorAsNumpy"](self, flags, slot)

    patched = {"Offset": offset, "Indirect": indirect, "String": string, "VectorLen": vector_length, "Union": union,
               "GetVectorAsNumpy": numbers}  # fmt: skip
    try:
        for name, method in patched.items():
            setattr(table, name, method)
        parse_tflite(data)
    finally:
        for name, method in read.items():
            setattr(table, name, method)
    return sorted((at, width) for at, width in found if 0 <= at <= len(data) - width)


@functools.cache
def words_of(name: str) -> list[tuple[int, int]]:
    return structure_words(SOURCES[name])


def hostile_values(size: int, at: int) -> list[int]:
    return [0, 1, 2, 3, 5, 127, 255, 0xFFFF, 0x10000, 0x3FFFFFFF, 0x40000000, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF,
            0xFFFFFFFE, size, size - at, size - at - 4, 2 * size]  # fmt: skip


@st.composite
def damaged_models(draw) -> tuple[str, bytes]:
    """A source model's name and its damaged bytes."""
    name = draw(st.sampled_from(sorted(SOURCES)))
    data = bytearray(SOURCES[name])
    kind = draw(st.sampled_from(["word"] * 4 + ["flip", "truncate", "insert", "delete"]))
    if kind == "word":
        at, width = draw(st.sampled_from(words_of(name)))
        old = int.from_bytes(data[at : at + width], "little")
        value = draw(st.one_of(st.sampled_from(hostile_values(len(data), at)), st.sampled_from([-64, -8, -4, -1, 1, 4, 8, 64]).map(lambda d: old + d)))
        data[at : at + width] = (value % (1 << 8 * width)).to_bytes(width, "little")
    elif kind == "flip":
        for _ in range(draw(st.integers(1, 4))):
            data[draw(st.integers(0, len(data) - 1))] ^= 1 << draw(st.integers(0, 7))
    elif kind == "truncate":
        del data[draw(st.integers(0, len(data) - 1)) :]
    elif kind == "insert":
        at = draw(st.integers(0, len(data)))
        data[at:at] = draw(st.binary(min_size=1, max_size=8))
    else:
        at = draw(st.integers(0, len(data) - 1))
        del data[at : at + draw(st.integers(1, 8))]
    return name, bytes(data)


# ---------------------------------------------------------------- running and checking


class CaseTimeout(Exception):
    """A case ran longer than CASE_SECONDS."""


@contextlib.contextmanager
def limited_time(seconds: float) -> Iterator[None]:
    def expired(signum, frame):
        raise CaseTimeout(f"took longer than {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@contextlib.contextmanager
def limited_memory(extra: int) -> Iterator[None]:
    """Allocations beyond ``extra`` more bytes of address space fail (``MemoryError``) in the block."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    in_use = int(Path("/proc/self/statm").read_text().split()[0]) * resource.getpagesize()
    limit = in_use + extra if hard == resource.RLIM_INFINITY else min(in_use + extra, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def run_case(command: str, data: bytes, directory: Path) -> tuple[int, str]:
    """Run ``command`` on ``data`` as ``m.tflite`` in ``directory``: its exit code and standard error."""
    (directory / "m.tflite").write_bytes(data)
    argv = {
        "import": ["import", "m.tflite", "-o", "m.mlir"],
        "plan-tflite": ["plan-tflite", "m.tflite", "-o", "planned.tflite", "--no-tflm", "--time-limit", "1"],
    }[command]
    with limited_time(CASE_SECONDS), limited_memory(CASE_BYTES):
        done = run_cfmem(*argv, cwd=directory)
    return done.returncode, done.stderr


def check(command: str, directory: Path, code: int, stderr: str) -> None:
    """What a damaged model may make ``command`` do (see the module docstring)."""
    shown = f"\n  {command}, exit {code}\n  stderr: {stderr[-2000:]}"
    assert code in (0, 1), shown
    assert "Traceback" not in stderr and "internal error" not in stderr and "out of memory" not in stderr, shown
    written = sorted(p.name for p in directory.iterdir() if p.name != "m.tflite")
    if code == 1:
        lines = stderr.strip().splitlines()
        assert len(lines) == 1 and re.match(r"cfmem: \S.*?: error: \S", lines[0]), shown
        assert written == [], f"a failed command left {written}{shown}"
    elif command == "plan-tflite":
        assert written == ["planned.tflite"], shown
        assert read_plan(parse_tflite((directory / "planned.tflite").read_bytes())) is not None, shown
    else:
        assert written == ["m.mlir", "m.weights.bin"], shown
        load_module(directory / "m.mlir")  # parses and verifies
        declared = re.search(r'size\((\d+)\) file\("m\.weights\.bin", 0\)', (directory / "m.mlir").read_text())
        blob = (directory / "m.weights.bin").stat().st_size
        assert (int(declared.group(1)) if declared else 0) == blob, f"blob of {blob} bytes{shown}"


@settings(max_examples=EXAMPLES_COUNT, deadline=None, derandomize=not RANDOM, database=None,
          suppress_health_check=list(HealthCheck))  # fmt: skip
@given(model=damaged_models(), command=st.sampled_from(["import", "plan-tflite"]))
def test_a_damaged_model_is_planned_imported_or_refused_in_one_line(model, command, tmp_path_factory):
    directory = tmp_path_factory.mktemp("case")
    code, stderr = run_case(command, model[1], directory)
    check(command, directory, code, stderr)


def test_every_field_absent_in_turn(tmp_path):
    """Each vtable entry of simple_add_model set to 0, the field it locates absent (a vector the
    object tree then holds as None): each case imported and planned, or refused in one line."""
    for k, (at, width) in enumerate(w for w in words_of("simple_add_model") if w[1] == 2):
        data = bytearray(SOURCES["simple_add_model"])
        data[at : at + width] = bytes(width)
        for command in ("import", "plan-tflite"):
            directory = tmp_path / f"{k}-{command}"
            directory.mkdir()
            check(command, directory, *run_case(command, bytes(data), directory))


def test_the_structural_words_cover_every_kind():
    """Offsets, lengths and vtables of every table the reader visits: hundreds in each model."""
    for name in SOURCES:
        assert len(words_of(name)) > 100, name


@pytest.mark.parametrize(
    "stderr, files, code",
    [
        ("Traceback (most recent call last):\n", [], 1),
        ("cfmem: m.tflite: error: one\ncfmem: m.tflite: error: two\n", [], 1),
        ("cfmem: m.tflite: error: refused\n", ["m.mlir"], 1),
        ("cfmem: internal error: IndexError: list index out of range\n", [], 2),
        ("cfmem: m.tflite: error: out of memory: the model or its inputs are too large for this machine\n", [], 1),
        ("", ["planned.tflite"], 0),
    ],
    ids=["traceback", "two-lines", "left-a-file", "internal-error", "out-of-memory", "unreadable-output"],
)
def test_the_checks_catch_what_they_are_for(tmp_path, stderr, files, code):
    for name in files:
        (tmp_path / name).write_bytes(b"not a model")
    with pytest.raises((AssertionError, TfliteFileError)):  # an unreadable output fails as it is read
        check("plan-tflite", tmp_path, code, stderr)


def test_an_allocation_over_the_case_limit_fails():
    with limited_memory(CASE_BYTES), pytest.raises(MemoryError):
        bytearray(2 * CASE_BYTES)


def test_the_walk_knows_every_field_the_unpack_reads():
    """What ``model_file``'s walk assumes of the generated schema: each field of every table has
    its accessor, and each union field an enum of table types."""
    s = schema()
    tables = [name for name in dir(s) if hasattr(s, name + "T") and hasattr(getattr(s, name), "Init")]
    assert len(tables) > 150
    for name in tables:
        reader = getattr(s, name)
        for field, accessor, kind in table_fields(reader):
            assert hasattr(reader, accessor), f"{name}.{field}"
            if kind == "union":
                assert union_members(UNION_ENUMS.get(field, accessor)), f"{name}.{field}"


# ---------------------------------------------------------------- offsets that share data


def shared_offsets_model(count: int) -> bytes:
    """A model of ``count`` subgraphs that are all one subgraph, whose ``count`` tensors are all
    one tensor: 8 KB for 1000, which the schema's unpack would make a million tensors of."""
    s = schema()
    b = flatbuffers.Builder(1024)

    def repeated(start_vector, table: int) -> int:
        start_vector(b, count)
        for _ in range(count):
            b.PrependUOffsetTRelative(table)
        return b.EndVector()

    name = b.CreateString("t" * 64)
    s.TensorStart(b)
    s.TensorAddName(b, name)
    tensors = repeated(s.SubGraphStartTensorsVector, s.TensorEnd(b))
    s.SubGraphStart(b)
    s.SubGraphAddTensors(b, tensors)
    subgraphs = repeated(s.ModelStartSubgraphsVector, s.SubGraphEnd(b))
    s.ModelStart(b)
    s.ModelAddVersion(b, 3)
    s.ModelAddSubgraphs(b, subgraphs)
    b.Finish(s.ModelEnd(b), file_identifier=FILE_IDENTIFIER)
    return bytes(b.Output())


def test_offsets_that_share_data_are_refused_before_the_unpack():
    with pytest.raises(TfliteFileError) as info:
        parse_tflite(shared_offsets_model(1000), "bomb.tflite")
    assert str(info.value) == (
        "error: bomb.tflite: malformed TFLite model: subgraphs[0].tensors[1].name: the string and what was read before"
        " take more than the file's 8148 bytes: a length is too large, or offsets lead to the same data twice"
    )


def test_a_vector_longer_than_the_file_is_named():
    data = bytearray(SOURCES["simple_add_model"])
    model = schema().Model.GetRootAs(data, 0)
    subgraph = model.Subgraphs(0)
    at = subgraph._tab.Vector(subgraph._tab.Offset(4)) - 4  # the length of subgraph 0's tensors (field 0)
    data[at : at + 4] = (0x3FFFFFFF).to_bytes(4, "little")
    with pytest.raises(TfliteFileError) as info:
        parse_tflite(bytes(data), "m.tflite")
    assert str(info.value) == (
        "error: m.tflite: malformed TFLite model: subgraphs[0].tensors: its 1073741823 entries take 4294967296 bytes,"
        f" more than the file's {len(data)}"
    )
