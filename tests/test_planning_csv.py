"""CSV problems and solutions: round trips and one-line errors naming the row."""

import csv
import io

import pytest

from cfmem.planning.csvio import (
    CsvError,
    gantt_csv,
    parse_problem_csv,
    read_problem_csv,
    solution_csv,
)
from cfmem.planning.problem import Buffer, Problem
from conftest import ROOT

BENCHMARKS = ROOT / "benchmarks"


def test_reads_a_benchmark():
    problem = read_problem_csv(BENCHMARKS / "minimalloc" / "input.12.csv")
    assert problem.name == "input.12"
    assert problem.buffers[0] == Buffer("b1", 0, 3, 4)
    assert [b.id for b in problem.buffers] == ["b1", "b2", "b3", "b4", "b5"]


def test_columns_in_any_order_and_extra_columns_ignored():
    text = "size,offset,upper,id,lower,note\n64,128,5,x,2,hello\n8,0,3,y,0,\n"
    problem = parse_problem_csv(text)
    assert problem.buffers == [Buffer("x", 2, 5, 64), Buffer("y", 0, 3, 8)]


def test_blank_lines_and_spaces_are_tolerated():
    problem = parse_problem_csv("\nid, lower, upper, size\n\n a , 0 , 2 , 16 \n")
    assert problem.buffers == [Buffer("a", 0, 2, 16)]


def test_header_only_is_an_empty_problem():
    assert parse_problem_csv("id,lower,upper,size\n").buffers == []


def test_solution_round_trip(tmp_path):
    buffers = [Buffer("a", 0, 3, 64), Buffer("b", 2, 5, 32), Buffer("t10", 1, 9, 0)]
    offsets = {"a": 0, "b": 64, "t10": 0}
    out = tmp_path / "solution.csv"
    out.write_text(solution_csv(buffers, offsets))
    lines = out.read_text().splitlines()
    assert lines[0] == "id,lower,upper,size,offset"
    assert lines[2] == "b,2,5,32,64"
    # a solution is also a problem (offset ignored) and keeps its offsets
    again = read_problem_csv(out)
    assert again.buffers == buffers
    assert "\r" not in solution_csv(buffers, offsets)
    rows = list(csv.DictReader(io.StringIO(solution_csv(again.buffers, offsets))))
    assert {r["id"]: int(r["offset"]) for r in rows} == offsets


def test_benchmark_round_trip(tmp_path):
    problem = read_problem_csv(BENCHMARKS / "idealloc" / "resnet50.csv")
    offsets = {b.id: i for i, b in enumerate(problem.buffers)}
    out = tmp_path / "r.csv"
    out.write_text(solution_csv(problem.buffers, offsets))
    assert read_problem_csv(out).buffers == problem.buffers


def test_gantt_csv():
    buffers = [Buffer("conv1", 0, 3, 64), Buffer("relu", 2, 5, 32)]
    text = gantt_csv(buffers, {"conv1": 0, "relu": 64})
    assert text.splitlines() == [
        "tensor_name,size,offset,start_time,end_time",
        "conv1,64,0,0,3",
        "relu,32,64,2,5",
    ]


def test_ids_with_commas_are_quoted():
    buffers = [Buffer("a,b", 0, 1, 4)]
    text = solution_csv(buffers, {"a,b": 0})
    assert parse_problem_csv(text).buffers == buffers


@pytest.mark.parametrize(
    "text, message",
    [
        ("id,lower,upper,size\na,0,2,8\nb,1,x,8\n", "f.csv: row 3: upper 'x' is not an integer"),
        ("id,lower,upper,size\na,0,2,8\nb,1,2.5,8\n", "f.csv: row 3: upper '2.5' is not an integer"),
        ("id,lower,upper,size\na,0,2,-8\n", "f.csv: row 2: buffer 'a' has negative size -8"),
        ("id,lower,upper,size\na,0,2,8\nb,0,9223372036854775808,8\n",
         "f.csv: row 3: upper must be an integer from -9223372036854775808 to 9223372036854775807, not 9223372036854775808"),
        ("id,lower,upper,size\na,-9223372036854775809,2,8\n",
         "f.csv: row 2: lower must be an integer from -9223372036854775808 to 9223372036854775807, not -9223372036854775809"),
        ("id,lower,upper,size\na,0,2,99999999999999999999\n",
         "f.csv: row 2: size must be an integer from -9223372036854775808 to 9223372036854775807, not 99999999999999999999"),
        ("id,lower,upper,size\na,0,2,8\nb,4,4,8\n", "f.csv: row 3: buffer 'b' has upper 4 <= lower 4 (lifetimes are half-open [lower, upper))"),
        ("id,lower,upper,size\na,5,2,8\n", "f.csv: row 2: buffer 'a' has upper 2 <= lower 5 (lifetimes are half-open [lower, upper))"),
        ("id,lower,upper,size\na,0,2,8\nb,0,2,8\n\na,1,2,8\n", "f.csv: row 5: duplicate id 'a' (first on row 2)"),
        ("id,lower,upper,size\na,0,2\n", "f.csv: row 2: missing value for 'size'"),
        ("id,lower,upper,size\n,0,2,4\n", "f.csv: row 2: missing value for 'id'"),
        ("id,lower,upper,size\na,0,2,8\nb,0,2,8,9\n", "f.csv: row 3: 5 fields, but the header has 4"),
        ("id,lower,upper,size\na,0,2,8,\n", "f.csv: row 2: 5 fields, but the header has 4"),
        ("id,lower,size\na,0,2\n", "f.csv: row 1: missing column 'upper' in header (need id,lower,upper,size)"),
        ("name,start,end,bytes\n", "f.csv: row 1: missing columns 'id', 'lower', 'upper', 'size' in header (need id,lower,upper,size)"),
        ("id,lower\n", "f.csv: row 1: missing columns 'upper', 'size' in header (need id,lower,upper,size)"),
        ("\n\nid,lower,size\n", "f.csv: row 3: missing column 'upper' in header (need id,lower,upper,size)"),
        ("", "f.csv: empty file (expected a header id,lower,upper,size)"),
        ("\n\n", "f.csv: empty file (expected a header id,lower,upper,size)"),
    ],
)
def test_bad_input_names_the_file_and_row(text, message):
    with pytest.raises(CsvError) as err:
        parse_problem_csv(text, "f.csv")
    assert str(err.value) == message
    assert err.value.where == "f.csv" and f"f.csv: {err.value.rule}" == message
    assert "\n" not in str(err.value)
    assert isinstance(err.value, ValueError)


def test_a_field_the_csv_module_refuses_names_its_row():
    with pytest.raises(CsvError) as err:
        parse_problem_csv("id,lower,upper,size\na,0,1," + "4" * 200_000 + "\n", "f.csv")
    assert str(err.value) == "f.csv: row 2: field larger than field limit (131072)"
    assert err.value.where == "f.csv"


def test_bad_file_on_disk(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("id,lower,upper,size\na,0,2,8\nb,0,2,eight\n")
    with pytest.raises(CsvError, match=r"bad\.csv: row 3: size 'eight' is not an integer"):
        read_problem_csv(bad)


def test_missing_file(tmp_path):
    with pytest.raises(CsvError) as err:
        read_problem_csv(tmp_path / "nothing.csv")
    assert str(err.value) == f"{tmp_path / 'nothing.csv'}: cannot read: No such file or directory"


def test_a_binary_file_is_not_text(tmp_path):
    path = tmp_path / "blob.csv"
    path.write_bytes(b"id,lower,upper,size\n\xff\xfe,0,1,4\n")
    with pytest.raises(CsvError) as err:
        read_problem_csv(path)
    assert (str(err.value), err.value.where, err.value.rule) == (f"{path}: not a text file", str(path), "not a text file")


def test_a_byte_order_mark_is_not_part_of_the_first_column(tmp_path):
    path = tmp_path / "excel.csv"
    path.write_bytes("id,lower,upper,size\na,0,1,4\n".encode("utf-8-sig"))
    assert read_problem_csv(path).buffers == [Buffer("a", 0, 1, 4)]


def test_text_without_a_name_is_called_csv_in_errors():
    with pytest.raises(CsvError) as err:
        parse_problem_csv("")
    assert str(err.value) == "<csv>: empty file (expected a header id,lower,upper,size)"


def test_empty_file_on_disk(tmp_path):
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    with pytest.raises(CsvError, match=r"empty\.csv: empty file"):
        read_problem_csv(empty)


def test_problem_name_from_file(tmp_path):
    path = tmp_path / "net.csv"
    path.write_text("id,lower,upper,size\n0,0,1,1\n")
    assert read_problem_csv(path) == Problem([Buffer("0", 0, 1, 1)], name="net")
