"""Planning problems and solutions as CSV files.

Problems use the minimalloc format: a header naming at least ``id``,
``lower``, ``upper`` and ``size`` (in any order; other columns such as
``offset`` are ignored), then one buffer a row, live on the half-open
interval ``[lower, upper)``; a row may leave trailing columns out but has no
more fields than the header. Solutions add an ``offset`` column. The Gantt
format ``tensor_name,size,offset,start_time,end_time`` is for plotting tools;
its ``end_time`` is exclusive, like ``upper``.

Rows are numbered as a spreadsheet shows them: the header is row 1.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from pathlib import Path

from cfmem.planning.option_checks import I64_MAX, OptionError, check_int
from cfmem.planning.problem import Buffer, Problem

REQUIRED = ("id", "lower", "upper", "size")


class CsvError(ValueError):
    """A malformed CSV file: ``where`` is the file, ``rule`` names the row and what is wrong."""

    def __init__(self, where: str | Path, rule: str):
        super().__init__(f"{where}: {rule}")
        self.where = str(where)
        self.rule = rule


def parse_problem_csv(text: str, name: str = "<csv>") -> Problem:
    """Read a problem from CSV ``text``; ``name`` is used in error messages."""
    reader = csv.reader(io.StringIO(text))
    try:
        rows = iter(list(reader))
    except csv.Error as err:
        raise CsvError(name, f"row {reader.line_num}: {err}") from None
    numbered = enumerate(rows, start=1)
    header_row, header_cells = next(((n, row) for n, row in numbered if any(cell.strip() for cell in row)), (None, None))
    if header_cells is None:
        raise CsvError(name, f"empty file (expected a header {','.join(REQUIRED)})")
    header = [cell.strip() for cell in header_cells]
    missing = [column for column in REQUIRED if column not in header]
    if missing:
        plural = "s" if len(missing) > 1 else ""
        raise CsvError(
            name, f"row {header_row}: missing column{plural} {', '.join(repr(m) for m in missing)}"
            f" in header (need {','.join(REQUIRED)})"
        )
    where = {column: header.index(column) for column in REQUIRED}
    buffers: list[Buffer] = []
    first_row: dict[str, int] = {}
    for row_number, row in numbered:
        if not any(cell.strip() for cell in row):
            continue  # blank line
        if len(row) > len(header):
            raise CsvError(name, f"row {row_number}: {len(row)} fields, but the header has {len(header)}")

        def field(column: str) -> str:
            index = where[column]
            if index >= len(row) or not row[index].strip():
                raise CsvError(name, f"row {row_number}: missing value for '{column}'")
            return row[index].strip()

        def integer(column: str) -> int:
            """The column's integer, an int64 as the planners compute in."""
            value = field(column)
            try:
                number = int(value)
            except ValueError:
                raise CsvError(name, f"row {row_number}: {column} {value!r} is not an integer") from None
            try:
                check_int(column, number, -I64_MAX - 1)
            except OptionError as err:
                raise CsvError(name, f"row {row_number}: {err}") from None
            return number

        buffer_id = field("id")
        lower, upper, size = integer("lower"), integer("upper"), integer("size")
        if size < 0:
            raise CsvError(name, f"row {row_number}: buffer '{buffer_id}' has negative size {size}")
        if upper <= lower:
            raise CsvError(
                name, f"row {row_number}: buffer '{buffer_id}' has upper {upper} <= lower {lower}"
                " (lifetimes are half-open [lower, upper))"
            )
        if buffer_id in first_row:
            raise CsvError(
                name, f"row {row_number}: duplicate id '{buffer_id}' (first on row {first_row[buffer_id]})"
            )
        first_row[buffer_id] = row_number
        buffers.append(Buffer(buffer_id, lower, upper, size))
    return Problem(buffers, name=Path(name).stem)


def read_problem_csv(path: str | Path) -> Problem:
    """Read a problem from the CSV file at ``path``."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except OSError as err:
        raise CsvError(path, f"cannot read: {err.strerror or err}") from None
    except UnicodeDecodeError:
        raise CsvError(path, "not a text file") from None
    return parse_problem_csv(text, str(path))


def _table(header: Sequence[str], rows: list[Sequence[object]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def solution_csv(buffers: Sequence[Buffer], offsets: Mapping[str, int]) -> str:
    """``id,lower,upper,size,offset``, one row per buffer in the given order."""
    return _table(
        ("id", "lower", "upper", "size", "offset"),
        [(b.id, b.start, b.end, b.size, offsets[b.id]) for b in buffers],
    )


def gantt_csv(buffers: Sequence[Buffer], offsets: Mapping[str, int]) -> str:
    """``tensor_name,size,offset,start_time,end_time`` (end exclusive), one row per buffer."""
    return _table(
        ("tensor_name", "size", "offset", "start_time", "end_time"),
        [(b.id, b.size, offsets[b.id], b.start, b.end) for b in buffers],
    )

