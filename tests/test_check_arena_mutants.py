"""Fast cases for ``cfmem check-arena``'s report and its search for sets that enter idle loops:
the text of each row and of the last line worked out by hand, and the cap on searched sets
(at most ``LOOP_CANDIDATES``, fewer when the arguments are large) seen moving by one."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import run_cfmem_in_process
from test_cli_check_arena import LATE_LOOP

from cfmem.mlir_check import mlir_available
from cfmem.testing.upstream_programs import parse_program
from cfmem.tools.check_arena import _arena_summary, _control_flow, _coverage, _loop_counters, _loop_runs

# --- the report's text -----------------------------------------------------------------------------


def test_a_row_names_each_branch_taken_and_each_loops_iterations_and_runs():
    counts = {
        "if#0 then": 1, "if#0 else": 3,  # both branches (an if in a loop)
        "if#1 then": 0, "if#1 else": 2,
        "if#2 then": 0, "if#2 else": 0,  # never reached: not shown
        "loop#0 runs": 1, "loop#0 iterations": 3,
        "loop#1 runs": 2, "loop#1 iterations": 7,
        "loop#2 runs": 0, "loop#2 iterations": 0,
    }  # fmt: skip
    assert _control_flow(counts) == "if#0:both if#1:else loop#0:3 loop#1:7/2"
    assert _control_flow({"if#0 then": 4, "if#0 else": 0}) == "if#0:then"
    assert _control_flow({"if#0 then": 0, "if#0 else": 0, "loop#0 runs": 0, "loop#0 iterations": 0}) == "-"
    assert _control_flow({}) == "-"


def test_loop_counters_are_the_iteration_counters_only():
    labels = ["if#0 then", "if#0 else", "loop#0 runs", "loop#0 iterations", "loop#1 runs", "loop#1 iterations"]
    assert _loop_counters(labels) == ["loop#0 iterations", "loop#1 iterations"]
    assert _loop_counters(["if#0 iterations", "loops iterations", "loop#0 iteration"]) == ["loops iterations"]
    assert _loop_runs(dict(zip(labels, [1, 0, 2, 5, 1, 0]))) == [("loop#0 iterations", 5), ("loop#1 iterations", 0)]


def test_the_last_line_counts_the_if_outcomes_run_and_names_those_never_run():
    labels = ["if#0 then", "if#0 else", "loop#0 runs", "loop#0 iterations", "if#1 then", "if#1 else"]
    sets = [dict(zip(labels, [1, 0, 1, 1, 0, 0])), dict(zip(labels, [2, 0, 1, 4, 0, 0]))]
    assert _coverage(labels, sets) == "1 of 4 if outcomes ran (never: if#0 else, if#1 then, if#1 else)"
    sets.append(dict(zip(labels, [0, 1, 1, 0, 1, 1])))
    assert _coverage(labels, sets) == "4 of 4 if outcomes ran"
    assert _coverage(["loop#0 runs", "loop#0 iterations"], sets) == "no scf.if to cover"


def test_the_arena_summary_lists_each_planned_function_with_its_lower_bound():
    module = parse_program("""
func.func @a() attributes {cfmem.arena_size = 64 : i64, cfmem.lower_bound = 48 : i64} {
  func.return
}
func.func @half() attributes {cfmem.lower_bound = 16 : i64} {
  func.return
}
func.func @b() attributes {cfmem.arena_size = 0 : i64, cfmem.lower_bound = 0 : i64} {
  func.return
}
""")
    assert _arena_summary(module) == " (arena: @a 64 bytes (lower bound 48); @b 0 bytes (lower bound 0))"
    assert _arena_summary(parse_program("func.func @c() {\n  func.return\n}\n")) == ""


# --- the search for a set that enters an idle loop -------------------------------------------------

needs_mlir = pytest.mark.skipif(not mlir_available(), reason="upstream MLIR python bindings not installed")


def check_arena(tmp_path, text: str, *args: str):
    model = tmp_path / "m.mlir"
    model.write_text(text)
    return run_cfmem_in_process(["check-arena", str(model), *args], None)


@needs_mlir
@pytest.mark.parametrize(("run_bytes", "found"), [(3 * 36 * 11, True), (3 * 36 * 11 - 1, False)])
def test_the_searched_sets_are_capped_by_the_bytes_a_run_may_hold(cfmem_in_process_bytes, tmp_path, run_bytes, found):
    """LATE_LOOP's loop runs when %n holds more than 100. The search tries %n = 0, 1, 2, 3, 8,
    then the constants 0, 1, 100 and their neighbours: 0, 1, -1, 2, 100, then 101, the 11th
    set. Its three arguments take 36 bytes, held three times a set: a run of 3 x 36 x 11 bytes
    may try 11 sets and finds it; one byte less, 10 sets, and the check fails."""
    cfmem_in_process_bytes(run_bytes)
    res = check_arena(tmp_path, LATE_LOOP, "--sets", "1")
    if found:
        assert res.returncode == 0, res.stderr
        assert res.stdout.strip().splitlines()[-1].startswith("ok: 1 random and 1 searched input set(s)")
    else:
        assert res.returncode == 1 and "error: the body of loop#0 never ran on any input set" in res.stderr


@pytest.fixture
def cfmem_in_process_bytes(monkeypatch):
    """Sets the cap on a run's bytes that check-arena reads (it imports the cap when it runs)."""
    import cfmem.interp.footprint

    return lambda size: monkeypatch.setattr(cfmem.interp.footprint, "MAX_RUN_BYTES", size)


MINUS_ONE_LOOP = """
func.func @main(%x: memref<4xf32>) {
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  scf.while () : () -> () {
    %v = memref.load %x[%c3] : memref<4xf32>
    %s = arith.addf %v, %one : f32
    %d = arith.addf %s, %s : f32
    %zero = arith.cmpf oeq, %d, %s : f32
    scf.condition(%zero)
  } do {
    memref.store %one, %x[%c3] : memref<4xf32>
    scf.yield
  }
  func.return
}
"""
"""A loop entered only when %x[3] is -1 (s + s == s only for s = 0), with no constant near -1
(3 and 1.0): only 0, which the search always adds to the constants, has -1 as a neighbour."""


@needs_mlir
def test_zero_is_always_a_threshold_of_the_search(tmp_path):
    res = check_arena(tmp_path, MINUS_ONE_LOOP, "--sets", "2")
    assert res.returncode == 0, res.stderr
    rows = [line.split() for line in res.stdout.strip().splitlines()[1:-1]]
    assert [row[2] for row in rows] == ["loop#0:0", "loop#0:0", "loop#0:1"]
    assert res.stdout.strip().splitlines()[-1].startswith("ok: 2 random and 1 searched input set(s)")


@needs_mlir
def test_the_searched_sets_run_the_function_asked_for(tmp_path):
    """With --func the search runs that function's sets, not @main's (which takes other arguments)."""
    text = LATE_LOOP.replace("@main", "@late") + "func.func @main(%y: memref<2xf32>) {\n  func.return\n}\n"
    res = check_arena(tmp_path, text, "--func", "late", "--sets", "1")
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip().splitlines()[-1].startswith("ok: 1 random and 1 searched input set(s), every argument bit-identical after @late")


@needs_mlir
def test_the_table_has_its_header_and_a_difference_is_an_error_at_the_model(tmp_path):
    """A plan that reads its arena before writing it (MAX_OF_INPUTS without its fill), in process."""
    from test_cli_check_arena import MAX_OF_INPUTS
    from xdsl.passes import PassPipeline

    from cfmem.passes import PASSES
    from cfmem.testing.upstream_programs import program_context

    module = parse_program(MAX_OF_INPUTS)
    PassPipeline.parse_spec(PASSES, "memref-plan-arena").apply(program_context(), module)
    fill = next(op for op in module.walk() if op.name == "linalg.fill")
    fill.detach()
    fill.erase()
    (tmp_path / "broken.mlir").write_text(str(module))
    res = check_arena(tmp_path, MAX_OF_INPUTS, "--planned", str(tmp_path / "broken.mlir"), "--sets", "1")
    assert res.stdout.splitlines()[0] == f"{'set':<4} {'after the call':<16} {'control flow (iterations per loop)':<36} differing"
    assert res.returncode == 1 and res.stderr.startswith(f"cfmem: {tmp_path / 'm.mlir'}: error: the planned @main leaves other bits")


TWO_IDLE_LOOPS = """
func.func @main(%x: memref<4xf32>) {
  %no = arith.constant false
  scf.while () : () -> () {
    scf.condition(%no)
  } do {
    scf.yield
  }
  scf.while () : () -> () {
    scf.condition(%no)
  } do {
    scf.yield
  }
  func.return
}
"""


@needs_mlir
def test_every_idle_loop_is_named(tmp_path):
    res = check_arena(tmp_path, TWO_IDLE_LOOPS, "--sets", "1")
    assert res.returncode == 1
    assert res.stderr == (
        f"cfmem: {tmp_path / 'm.mlir'}: error: the body of loop#0 and loop#1 never ran on any input set, nor on the"
        " sets searched for it: nothing checked the buffers it uses\n"
    )


@needs_mlir
def test_a_run_upstream_mlir_fails_is_an_error_at_the_model(tmp_path):
    """A run that aborts (a failed cf.assert) under upstream MLIR's JIT."""
    text = "func.func @main(%x: memref<4xf32>) {\n  %no = arith.constant false\n  cf.assert %no, \"stop\"\n  func.return\n}\n"
    res = check_arena(tmp_path, text, "--sets", "1")
    assert res.returncode == 1 and len(res.stderr.strip().splitlines()) == 1, res.stderr
    assert res.stderr.startswith(f"cfmem: {tmp_path / 'm.mlir'}: error: upstream MLIR: ")


def test_the_function_to_run_is_main_or_the_one_named_and_a_missing_one_lists_those_there_are(tmp_path):
    text = "func.func @a(%x: memref<4xf32>) {\n  func.return\n}\nfunc.func @b(%x: memref<4xf32>) {\n  func.return\n}\n"
    where = f"cfmem: {tmp_path / 'm.mlir'}: error:"
    res = check_arena(tmp_path, text)
    assert res.returncode == 1
    assert res.stderr == f"{where} no function @main to run (functions: @a, @b); choose one with --func\n"
    res = check_arena(tmp_path, text, "--func", "c")
    assert res.stderr == f"{where} no function @c to run (functions: @a, @b); choose one with --func\n"


def test_an_argument_without_a_name_is_named_by_its_position(tmp_path):
    res = check_arena(tmp_path, "func.func @main(%0: memref<4xf32>, %1: index) {\n  func.return\n}\n")
    assert res.returncode == 1 and "@main takes argument 1 of type index: check-arena runs functions" in res.stderr


@needs_mlir
def test_a_buffer_with_no_elements_is_an_argument_like_any_other(tmp_path):
    text = "func.func @main(%x: memref<0x4xf32>, %y: memref<4xf32>) {\n  func.return\n}\n"
    res = check_arena(tmp_path, text, "--sets", "1")
    assert res.returncode == 0, res.stderr


def test_each_if_and_loop_gets_its_own_counters_inner_ones_first():
    from cfmem.tools.check_arena import _count_control_flow

    module = parse_program("""
func.func @main(%x: memref<4xf32>, %c: memref<3xi1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %p = memref.load %c[%c0] : memref<3xi1>
  %q = memref.load %c[%c1] : memref<3xi1>
  scf.for %i = %c0 to %c2 step %c1 {
    scf.if %p {
      scf.for %j = %c0 to %c2 step %c1 {
      }
    }
  }
  scf.if %q {
  } else {
  }
  scf.if %p {
  }
  func.return
}
""")
    fn = next(op for op in module.walk() if op.name == "func.func")
    assert _count_control_flow(fn) == [
        "loop#0 runs", "loop#0 iterations", "if#0 then", "if#0 else", "loop#1 runs", "loop#1 iterations",
        "if#1 then", "if#1 else", "if#2 then", "if#2 else",
    ]  # fmt: skip
    assert len(fn.args) == 3 and str(fn.args[2].type) == "memref<10xi64>"


def test_input_sets_are_seeded_normal_floats_integers_0_to_3_and_even_booleans():
    from cfmem.tools.check_arena import _input_sets

    module = parse_program("func.func @main(%f: memref<4000xf32>, %i: memref<4000xi32>, %b: memref<4000xi1>) {\n  func.return\n}\n")
    fn = next(op for op in module.walk() if op.name == "func.func")
    sets = _input_sets(fn, 2, 7)
    again = _input_sets(fn, 2, 7)
    assert all(a.tobytes() == b.tobytes() for s, t in zip(sets, again) for a, b in zip(s, t))  # seeded
    assert sets[0][0].tobytes() != sets[1][0].tobytes()  # each set its own seed
    for floats, ints, bools in sets:
        assert floats.dtype == "float32" and abs(floats.mean()) < 0.1 and 0.9 < floats.std() < 1.1
        assert ints.dtype == "int32" and set(np.unique(ints)) == {0, 1, 2, 3}
        assert bools.dtype == bool and 0.45 < bools.mean() < 0.55


@needs_mlir
def test_a_planned_function_with_an_argument_that_is_no_arena_is_refused_at_the_planned_file(tmp_path):
    planned = tmp_path / "planned.mlir"
    planned.write_text("func.func @main(%x: memref<4xf32>, %extra: memref<4xf32>) {\n  func.return\n}\n")
    res = check_arena(tmp_path, "func.func @main(%x: memref<4xf32>) {\n  func.return\n}\n", "--planned", str(planned))
    assert res.returncode == 1
    assert res.stderr == (
        f"cfmem: {planned}: error: the planned @main has argument 1 that the unplanned one has not,"
        " and it is no arena ({cfmem.arena})\n"
    )


def test_a_pipeline_that_fails_is_an_error_at_the_op_it_refused(tmp_path):
    text = """func.func @main(%x: memref<4xf32>, %n: memref<1xi64>) {
  %c0 = arith.constant 0 : index
  %k64 = memref.load %n[%c0] : memref<1xi64>
  %k = arith.index_cast %k64 : i64 to index
  %t = memref.alloc(%k) : memref<?xf32>
  memref.dealloc %t : memref<?xf32>
  func.return
}
"""
    res = check_arena(tmp_path, text)
    assert res.returncode == 1
    assert res.stderr.startswith(f"cfmem: {tmp_path / 'm.mlir'}:5:3: error: 'memref.alloc' defining %t in @main: memref<?xf32> has a dynamic size")


@pytest.mark.parametrize(("run_bytes", "refused"), [(192, False), (191, True)])
def test_input_sets_are_refused_one_byte_over_what_a_run_may_hold(cfmem_in_process_bytes, tmp_path, run_bytes, refused):
    """Two sets of two 16-byte buffers, each held three times: 192 bytes."""
    cfmem_in_process_bytes(run_bytes)
    text = ('func.func @main(%x: memref<4xf32>, %y: memref<4xf32>) {\n  "memref.copy"(%x, %y) : (memref<4xf32>, memref<4xf32>) -> ()\n'
            "  func.return\n}\n")  # fmt: skip
    res = check_arena(tmp_path, text, "--sets", "2")
    message = (f"cfmem: {tmp_path / 'm.mlir'}: error: 2 input set(s) of @main's arguments (32 bytes each) would take"
               " 192 bytes; check-arena holds at most 191 bytes\n")  # fmt: skip
    assert (res.stderr == message) if refused else ("would take" not in res.stderr)


def test_what_is_wrong_with_the_planned_module_is_an_error_at_the_planned_file(tmp_path):
    planned = tmp_path / "planned.mlir"
    model = "func.func @main(%x: memref<4xf32>) {\n  func.return\n}\n"
    planned.write_text("func.func @other(%x: memref<4xf32>) {\n  func.return\n}\nfunc.func @more(%x: memref<4xf32>) {\n  func.return\n}\n")
    res = check_arena(tmp_path, model, "--planned", str(planned))
    assert res.stderr == f"cfmem: {planned}: error: no function @main to run (functions: @other, @more); choose one with --func\n"
    planned.write_text("func.func @main(%x: index) {\n  func.return\n}\n")
    res = check_arena(tmp_path, model, "--planned", str(planned))
    assert res.stderr.startswith(f"cfmem: {planned}: error: @main takes %x of type index: check-arena runs functions")


@needs_mlir
def test_the_planned_function_compared_is_the_one_asked_for(tmp_path):
    """Planned with its arena as an argument, @late takes one more argument than the unplanned
    one, and @main (which allocates nothing) none: the arena passed is @late's."""
    text = LATE_LOOP.replace("@main", "@late") + "func.func @main(%y: memref<2xf32>) {\n  func.return\n}\n"
    res = check_arena(tmp_path, text, "--func", "late", "-p", "memref-plan-arena{arena=argument}", "--sets", "1")
    assert res.returncode == 0, res.stderr
    assert "every argument bit-identical after @late (arena: @late 32 bytes" in res.stdout


def test_a_pass_option_refused_is_an_error_at_the_model(tmp_path):
    text = "func.func @main(%x: memref<4xf32>) {\n  func.return\n}\n"
    res = check_arena(tmp_path, text, "-p", "memref-plan-arena{budget=-1}")
    assert res.returncode == 1
    assert res.stderr == f"cfmem: {tmp_path / 'm.mlir'}: error: budget must be an integer from 0 to 9223372036854775807, not -1\n"


def _planned_max_of_inputs(tmp_path, text: str, clobber_first_argument: bool = False) -> str:
    """``text`` (MAX_OF_INPUTS, perhaps with other argument names) planned, its running maximum
    started from 1e30 instead of -inf: the same wrong bits whatever the arena held first; with
    ``clobber_first_argument`` it also fills its first argument with that value."""
    from xdsl.dialects import arith
    from xdsl.dialects.builtin import FloatAttr, f32
    from xdsl.dialects.linalg.ops import FillOp
    from xdsl.passes import PassPipeline

    from cfmem.passes import PASSES
    from cfmem.testing.upstream_programs import program_context

    module = parse_program(text)
    PassPipeline.parse_spec(PASSES, "memref-plan-arena").apply(program_context(), module)
    start = next(op for op in module.walk() if isinstance(op, arith.ConstantOp) and op.result.type == f32)
    start.value = FloatAttr(1e30, f32)
    if clobber_first_argument:
        fill = next(op for op in module.walk() if op.name == "linalg.fill")
        main = fill.parent_block()
        main.insert_op_before(FillOp((start.result,), (main.args[0],), ()), main.last_op)
    (tmp_path / "wrong.mlir").write_text(str(module))
    return str(tmp_path / "wrong.mlir")


@needs_mlir
def test_a_difference_the_arena_does_not_explain_is_reported_without_a_reason(tmp_path):
    """The same wrong bits from every arena fill: a row saying DIFFERENT and naming the argument,
    and an error without the read-before-write reason."""
    from test_cli_check_arena import MAX_OF_INPUTS

    planned = _planned_max_of_inputs(tmp_path, MAX_OF_INPUTS)
    res = check_arena(tmp_path, MAX_OF_INPUTS, "--planned", planned, "--sets", "1")
    assert res.stdout.splitlines()[1] == f"#0   {'DIFFERENT':<16} {_control_flow({}):<36} %out"
    assert res.returncode == 1 and res.stderr == (
        f"cfmem: {tmp_path / 'm.mlir'}: error: the planned @main leaves other bits than the unplanned one:"
        " %out after set #0 (1 argument(s) in 1 set(s) differ)\n"
    )


@needs_mlir
def test_every_differing_argument_is_listed_and_one_without_a_name_by_its_position(tmp_path):
    from test_cli_check_arena import MAX_OF_INPUTS

    text = MAX_OF_INPUTS.replace("%x", "%0").replace("%out", "%1")
    planned = _planned_max_of_inputs(tmp_path, text, clobber_first_argument=True)
    res = check_arena(tmp_path, text, "--planned", planned, "--sets", "1")
    assert res.stdout.splitlines()[1].endswith(" argument 0, argument 1"), res.stdout
    assert res.returncode == 1 and "one: argument 0 after set #0 (2 argument(s) in 1 set(s) differ)\n" in res.stderr


@needs_mlir
def test_a_module_with_one_function_runs_it_unless_another_is_asked_for(tmp_path):
    text = "func.func @only(%x: memref<4xf32>) {\n  func.return\n}\n"
    res = check_arena(tmp_path, text, "--sets", "1")
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines()[1] == f"#0   {'bit-identical':<16} {_control_flow({}):<36} -"
    res = check_arena(tmp_path, text, "--func", "other")
    assert res.returncode == 1
    assert res.stderr == f"cfmem: {tmp_path / 'm.mlir'}: error: no function @other to run (functions: @only); choose one with --func\n"


def test_a_module_without_a_function_body_says_there_is_none(tmp_path):
    res = check_arena(tmp_path, "func.func private @external(memref<4xf32>)\n")
    assert res.returncode == 1
    assert res.stderr == f"cfmem: {tmp_path / 'm.mlir'}: error: no function @main to run (functions: none); choose one with --func\n"
