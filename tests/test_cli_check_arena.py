"""``cfmem check-arena``: a plain MLIR module run before and after memref-plan-arena under upstream's JIT."""

import pytest
from xdsl.passes import PassPipeline

from cfmem.mlir_check import mlir_available
from cfmem.passes import PASSES
from cfmem.testing.upstream_programs import PROGRAMS, bufferize, parse_program, program_context

pytestmark = pytest.mark.skipif(
    not mlir_available(), reason="upstream MLIR python bindings not installed (pip install 'cfmem[mlir]')"
)


@pytest.fixture(scope="module")
def bufferized(tmp_path_factory):
    """nested_loops and called_layer, bufferized, as files."""
    folder = tmp_path_factory.mktemp("bufferized")
    paths = {}
    for name in ("nested_loops", "called_layer"):
        paths[name] = folder / f"{name}.mlir"
        paths[name].write_text(bufferize(PROGRAMS[name].text))
    return paths


@pytest.mark.parametrize("pipeline", ["memref-plan-arena", "memref-plan-arena{arena=argument mode=linearize}"])
def test_a_correct_plan_is_bit_identical_on_every_set(cfmem, bufferized, pipeline):
    res = cfmem("check-arena", str(bufferized["called_layer"]), "-p", pipeline, "--sets", "3")
    assert res.returncode == 0, res.stderr
    lines = res.stdout.strip().splitlines()
    assert [line.split()[1] for line in lines[1:4]] == ["bit-identical"] * 3
    assert lines[-1].startswith("ok: 3 random input set(s), every argument bit-identical after @main (arena: @layer 256 bytes")
    assert lines[-1].endswith("if outcomes ran") or "if outcomes ran (never: " in lines[-1]


def test_each_row_shows_the_branches_and_loop_iterations_of_its_set(cfmem, tmp_path):
    """A hand-written loop whose trip count is an input and an if on an input: the counts are
    read from the run, so sets with other data show other control flow."""
    model = tmp_path / "m.mlir"
    model.write_text("""
func.func @main(%n: memref<1xi32>, %x: memref<4xf32>, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %count = memref.load %n[%c0] : memref<1xi32>
  %trips = arith.index_cast %count : i32 to index
  %t = memref.alloc() : memref<4xf32>
  "memref.copy"(%x, %t) : (memref<4xf32>, memref<4xf32>) -> ()
  scf.for %i = %c0 to %trips step %c1 {
    %v = memref.load %t[%c0] : memref<4xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %t[%c0] : memref<4xf32>
  }
  %first = memref.load %x[%c0] : memref<4xf32>
  %pos = arith.cmpf ogt, %first, %zero : f32
  scf.if %pos {
    "memref.copy"(%t, %out) : (memref<4xf32>, memref<4xf32>) -> ()
  }
  memref.dealloc %t : memref<4xf32>
  func.return
}
""")
    res = cfmem("check-arena", str(model), "--sets", "6")
    assert res.returncode == 0, res.stderr
    rows = [line.split() for line in res.stdout.strip().splitlines()[1:-1]]
    flows = [row[2:-1] for row in rows]
    assert {f[0] for f in flows} <= {"loop#0:0", "loop#0:1", "loop#0:2", "loop#0:3"}  # trip counts 0..3
    assert all(f[1] in ("if#0:then", "if#0:else") for f in flows)
    assert len({f[0] for f in flows}) > 1 and len({f[1] for f in flows}) == 2  # the data decides both
    assert res.stdout.strip().splitlines()[-1].endswith("; 2 of 2 if outcomes ran")


def test_a_plan_that_shares_bytes_wrongly_is_caught(cfmem, bufferized, tmp_path, arena_offsets_all_zero):
    """The broken case: every buffer at offset 0, handed in with --planned."""
    module = parse_program(bufferized["nested_loops"].read_text())
    PassPipeline.parse_spec(PASSES, "memref-plan-arena").apply(program_context(), module)
    broken = tmp_path / "broken.mlir"
    broken.write_text(str(module))
    # a child process: the command must not see this process's broken planner
    res = cfmem("check-arena", str(bufferized["nested_loops"]), "--planned", str(broken), "--sets", "4", process=True)
    assert res.returncode == 1
    assert "DIFFERENT" in res.stdout
    assert len(res.stderr.strip().splitlines()) == 1
    assert "error: the planned @main leaves other bits than the unplanned one: %arg15 after set #" in res.stderr


def test_a_function_with_a_scalar_argument_is_refused(cfmem, tmp_path):
    model = tmp_path / "m.mlir"
    model.write_text("func.func @main(%n: index, %out: memref<4xf32>) {\n  func.return\n}\n")
    res = cfmem("check-arena", str(model))
    assert res.returncode == 1
    assert "@main takes %n of type index: check-arena runs functions whose arguments are all static-shape memrefs" in res.stderr


def test_input_sets_larger_than_a_run_may_hold_are_refused_before_anything_is_allocated(cfmem, tmp_path):
    model = tmp_path / "m.mlir"
    model.write_text("func.func @main(%x: memref<1000000000xf32>) {\n  func.return\n}\n")
    res = cfmem("check-arena", str(model), "--sets", "2")
    assert res.returncode == 1 and len(res.stderr.strip().splitlines()) == 1
    assert "2 input set(s) of @main's arguments (3.7 GiB each) would take 22.4 GiB; check-arena holds at most 4.0 GiB" in res.stderr


MAX_OF_INPUTS = """
func.func @main(%x: memref<4xf32>, %out: memref<4xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %t = memref.alloc() : memref<4xf32>
  linalg.fill ins(%ninf : f32) outs(%t : memref<4xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : memref<4xf32>) outs(%t : memref<4xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %m = arith.maxnumf %acc, %v : f32
    linalg.yield %m : f32
  }
  "memref.copy"(%t, %out) : (memref<4xf32>, memref<4xf32>) -> ()
  memref.dealloc %t : memref<4xf32>
  func.return
}
"""
"""A running maximum from -inf: maxnumf of a NaN and x is x, as of -inf and x, so without its
fill it still computes the same from an arena of bytes 0xff."""


@pytest.mark.parametrize("arena", ["argument", "global"])
def test_a_plan_that_reads_its_arena_before_writing_it_is_refused(cfmem, tmp_path, arena):
    model = tmp_path / "max.mlir"
    model.write_text(MAX_OF_INPUTS)
    module = parse_program(MAX_OF_INPUTS)
    PassPipeline.parse_spec(PASSES, f"memref-plan-arena{{arena={arena}}}").apply(program_context(), module)
    fill = next(op for op in module.walk() if op.name == "linalg.fill")
    fill.detach()
    fill.erase()
    broken = tmp_path / "broken.mlir"
    broken.write_text(str(module))
    res = cfmem("check-arena", str(model), "--planned", str(broken), "--sets", "2")
    assert res.returncode == 1, res.stdout
    assert len(res.stderr.strip().splitlines()) == 1
    assert "error: the planned @main leaves other bits than the unplanned one: %out after set #0" in res.stderr
    assert ("; it reads arena bytes before writing them: %out after set #0 has other bits with the arena starting"
            " as bytes 0xff than as 0xa5" in res.stderr), res.stderr  # fmt: skip


LATE_LOOP = """
func.func @main(%n: memref<1xi32>, %x: memref<4xf32>, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %base = arith.constant 100 : i32
  %count = memref.load %n[%c0] : memref<1xi32>
  %over = arith.subi %count, %base : i32
  %trips = arith.index_cast %over : i32 to index
  scf.for %i = %c0 to %trips step %c1 {
    %a = memref.alloc() : memref<4xf32>
    %b = memref.alloc() : memref<4xf32>
    "memref.copy"(%x, %a) : (memref<4xf32>, memref<4xf32>) -> ()
    %v = memref.load %a[%c0] : memref<4xf32>
    %w = arith.addf %v, %v : f32
    "memref.copy"(%x, %b) : (memref<4xf32>, memref<4xf32>) -> ()
    memref.store %w, %b[%c0] : memref<4xf32>
    "memref.copy"(%a, %out) : (memref<4xf32>, memref<4xf32>) -> ()
    memref.dealloc %a : memref<4xf32>
    memref.dealloc %b : memref<4xf32>
  }
  func.return
}
"""
"""A loop that runs only when %n holds more than 100 (random integers are 0..3), using two
buffers live together: a plan putting both at offset 0 changes %out."""

IDLE_WHILE = """
func.func @main(%x: memref<4xf32>) {
  %no = arith.constant false
  scf.while () : () -> () {
    scf.condition(%no)
  } do {
    %t = memref.alloc() : memref<4xf32>
    "memref.copy"(%x, %t) : (memref<4xf32>, memref<4xf32>) -> ()
    "memref.copy"(%t, %x) : (memref<4xf32>, memref<4xf32>) -> ()
    memref.dealloc %t : memref<4xf32>
    scf.yield
  }
  func.return
}
"""


def test_a_loop_no_random_set_enters_is_run_by_a_searched_set(cfmem, tmp_path):
    model = tmp_path / "m.mlir"
    model.write_text(LATE_LOOP)
    res = cfmem("check-arena", str(model), "--sets", "4")
    assert res.returncode == 0, res.stderr
    rows = [line.split() for line in res.stdout.strip().splitlines()[1:-1]]
    assert [row[2] for row in rows[:4]] == ["loop#0:0"] * 4 and rows[4][2] != "loop#0:0"  # the search's set
    assert res.stdout.strip().splitlines()[-1].startswith("ok: 4 random and 1 searched input set(s)")


def test_a_wrong_plan_inside_a_loop_no_random_set_enters_is_caught(cfmem, tmp_path, arena_offsets_all_zero):
    module = parse_program(LATE_LOOP)
    PassPipeline.parse_spec(PASSES, "memref-plan-arena").apply(program_context(), module)
    model, broken = tmp_path / "m.mlir", tmp_path / "broken.mlir"
    model.write_text(LATE_LOOP)
    broken.write_text(str(module))
    res = cfmem("check-arena", str(model), "--planned", str(broken), process=True)  # not this process's broken planner
    assert res.returncode == 1 and "DIFFERENT" in res.stdout
    assert len(res.stderr.strip().splitlines()) == 1
    assert "error: the planned @main leaves other bits than the unplanned one: %out after set #8" in res.stderr


def test_a_loop_whose_body_no_set_runs_is_an_error(cfmem, tmp_path):
    model = tmp_path / "m.mlir"
    model.write_text(IDLE_WHILE)
    res = cfmem("check-arena", str(model), "--sets", "2")
    assert res.returncode == 1 and not res.stdout.strip().splitlines()[-1].startswith("ok")
    assert len(res.stderr.strip().splitlines()) == 1
    assert f"cfmem: {model}: error: the body of loop#0 never ran on any input set" in res.stderr


def copied_through_a_buffer(element: str) -> str:
    m = f"memref<4x{element}>"
    return (f'func.func @main(%x: {m}, %y: {m}) {{\n  %t = memref.alloc() : {m}\n'
            f'  "memref.copy"(%x, %t) : ({m}, {m}) -> ()\n  "memref.copy"(%t, %y) : ({m}, {m}) -> ()\n'
            f"  memref.dealloc %t : {m}\n  func.return\n}}\n")  # fmt: skip


@pytest.mark.parametrize("element", ["i1", "i8", "i16", "i32", "i64", "f16", "f32", "f64"])
def test_every_element_type_the_harness_fills_runs(cfmem, tmp_path, element):
    model = tmp_path / "m.mlir"
    model.write_text(copied_through_a_buffer(element))
    res = cfmem("check-arena", str(model), "--sets", "2")
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip().splitlines()[-1].startswith("ok: 2 random input set(s), every argument bit-identical")


@pytest.mark.parametrize("element", ["index", "bf16", "f8E4M3FN", "i4", "ui8", "ui16"])
def test_an_element_type_the_harness_cannot_pass_is_refused_by_argument(cfmem, tmp_path, element):
    model = tmp_path / "m.mlir"
    model.write_text(copied_through_a_buffer(element))
    res = cfmem("check-arena", str(model))
    assert res.returncode == 1 and len(res.stderr.strip().splitlines()) == 1, res.stderr
    assert f"m.mlir: error: @main takes %x of type memref<4x{element}>: check-arena runs functions" in res.stderr


@pytest.mark.parametrize(
    "result, body",
    [("i32", "%c = arith.constant 0 : i32"), ("f32", "%c = arith.constant 0.0 : f32"), ("memref<4xf32>", None)],
)
def test_a_function_with_a_result_is_refused_naming_it(cfmem, tmp_path, result, body):
    """The worker calls functions for their effect on their buffers; a result crashed it."""
    model = tmp_path / "m.mlir"
    value = "%c" if body else "%x"
    model.write_text(f"func.func @main(%x: memref<4xf32>) -> {result} {{\n  {body or ''}\n  func.return {value} : {result}\n}}\n")
    res = cfmem("check-arena", str(model))
    assert res.returncode == 1 and len(res.stderr.strip().splitlines()) == 1, res.stderr
    assert f"m.mlir: error: @main returns result 0 of type {result}: check-arena runs functions that return nothing" in res.stderr
