"""The flat interpreter's loops, on-chip measures and checks, each against an independent answer.

Small nn programs lowered by cfmem's own pipeline are compared with the
tensor-level run of the unplanned graph (outputs and trip counts); hand-written
flat modules drive ``scf.for`` and ``scf.while`` with bounds, steps and carried
values taken from inputs, and are compared with the same loops written in
Python; views whose shift a loop computes (made at run time, and kept) must see
each trip's bytes and catch a clobber, and NaN and inf are results, not warnings.
Broken modules (a source overwritten during its transfer, a view whose bytes
belong to other tensors, a loop past the iteration limit, an on-chip budget too
small, a loader leaving a transfer outstanding) must be refused with the exact
message and op.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from xdsl.dialects import scf

from cfmem.interp.flat import compiler as flat_compiler
from cfmem.interp.flat import CapacityError, ClobberError, FlatInterpreter, measure_flat, run_flat
from cfmem.interp.golden import InterpError, find_function, run_function
from cfmem.ir_io import parse_module
from cfmem.pipeline import apply_pipeline
from test_checkers_mutants import FLAT_TEMPLATE, WAIT, dma
from test_loops import RECURRENT as LOOP_OF_TWO_GEMMS


def lowered(source: str, pipeline: str = "nn-plan-memory"):
    """The nn program ``source`` and its flat form under ``pipeline``."""
    module, _ = parse_module(source)
    flat = module.clone()
    apply_pipeline(flat, pipeline + ",nn-lower-to-memref")
    return module, flat


def only(module, name):
    found = [op for op in module.walk() if op.name == name]
    assert len(found) == 1
    return found[0]


# --- scf.while: a data-dependent nn.loop, lowered ------------------------------------------

HALVING = """
func.func @main(%n: tensor<i64>, %x: tensor<4xf32>) -> (tensor<4xf32>) {
  %lim = nn.constant dense<1.0> : tensor<1xf32>
  %s0 = nn.reduce_sum %x {axes = array<i64: 0>} : (tensor<4xf32>) -> tensor<1xf32>
  %go = nn.cmp %s0, %lim {predicate = "gt"} : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xi1>
  %h = nn.loop %n, %go (%x) : (tensor<i64>, tensor<1xi1>, tensor<4xf32>) -> (tensor<4xf32>) {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %a: tensor<4xf32>):
    %half = nn.constant dense<0.5> : tensor<1xf32>
    %k = nn.cast %i : (tensor<i64>) -> tensor<f32>
    %b = nn.mul %a, %half : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
    %s = nn.reduce_sum %b {axes = array<i64: 0>} : (tensor<4xf32>) -> tensor<1xf32>
    %m = nn.cmp %s, %lim {predicate = "gt"} : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xi1>
    %step = nn.constant dense<0.0625> : tensor<f32>
    %k16 = nn.mul %k, %step : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %d = nn.add %b, %k16 : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    nn.yield %m, %d : tensor<1xi1>, tensor<4xf32>
  }
  func.return %h : tensor<4xf32>
}
"""
"""Runs while the sum of x is above 1, at most n times: each trip halves x, tests the halved
sum, then adds the trip number / 16 (a loop whose condition the body computes: ``scf.while``)."""


@pytest.fixture(scope="module")
def halving():
    return lowered(HALVING)


@pytest.mark.parametrize(("n", "x", "trips"), [
    (5, [0.1, 0.2, 0.3, 0.1], 0),  # the condition is false at once
    (0, [1, 2, 3, 4], 0),  # no trips allowed
    (1, [1, 2, 3, 4], 1),
    (2, [1, 2, 3, 4], 2),
    (9, [1, 2, 3, 4], 4),  # the condition stops it
    (3, [8, 8, 8, 8], 3),  # the trip count stops it
])  # fmt: skip
def test_a_while_loop_computes_the_numbers_and_trips_of_the_unplanned_graph(halving, n, x, trips):
    module, flat = halving
    assert isinstance(only(flat, "scf.while"), scf.WhileOp)
    inputs = {"n": np.array(n), "x": np.array(x, np.float32)}
    want = run_function(module, inputs)
    # independently: the same loop in numpy
    a, k, go = np.array(x, np.float32), 0, sum(x) > 1
    while k < n and go:
        b = a * np.float32(0.5)
        go = b.sum(dtype=np.float32) > 1
        a, k = b + np.float32(k) * np.float32(0.0625), k + 1
    assert k == trips
    np.testing.assert_array_equal(want.outputs["h"], a)
    assert want.loops == [("loop#0", trips)]
    for check in (True, False):
        got = run_flat(flat, inputs, check=check)
        assert got.loops == [("loop#0", trips)]
        np.testing.assert_array_equal(got.outputs["h"], want.outputs["h"])


# --- scf.while by hand: several carried values, results used ---------------------------------

WHILE = """
func.func @main(%n: memref<i64>, %o: memref<2xi64>) attributes {cfmem.output_names = ["o"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %n0 = memref.load %n[] : memref<i64>
  %trips = arith.index_cast %n0 : i64 to index
  %r:2 = scf.while (%i = %c0, %s = %c5) : (index, index) -> (index, index) {
    %lt = arith.cmpi slt, %i, %trips : index
    scf.condition(%lt) %s, %i : index, index
  } do {
  ^bb0(%a: index, %b: index):
    %b1 = arith.addi %b, %c1 : index
    %a3 = arith.muli %a, %c3 : index
    scf.yield %b1, %a3 : index, index
  } LABEL
  %r0 = arith.index_cast %r#0 : index to i64
  %r1 = arith.index_cast %r#1 : index to i64
  memref.store %r0, %o[%c0] : memref<2xi64>
  memref.store %r1, %o[%c1] : memref<2xi64>
  func.return
}
"""
"""``(s, i)`` from ``(5, 0)``: the test forwards them swapped, the body yields them back
swapped again (``i + 1``, ``3 s``); the results are ``(5 * 3**n, n)``."""


def while_module(label: str | None = "loop#0"):
    attrs = f'attributes {{cfmem.loop = "{label}"}}' if label else ""
    return parse_module(WHILE.replace("LABEL", attrs))[0]


@pytest.mark.parametrize("n", [0, 1, 2, 4])
@pytest.mark.parametrize("label", ["loop#0", None])
def test_a_while_loop_carries_and_forwards_its_values_in_order(n, label):
    got = run_flat(while_module(label), {"n": np.array(n)})
    np.testing.assert_array_equal(got.outputs["o"], [5 * 3**n, n])
    assert got.loops == ([(label, n)] if label else [])


def test_a_while_loop_past_the_iteration_limit_is_stopped_at_the_loop():
    module = while_module()
    interp = FlatInterpreter(module)
    interp.max_iterations = 3
    fn = find_function(module)
    np.testing.assert_array_equal(interp.run(fn, {"n": np.array(3)}).outputs["o"], [135, 3])
    with pytest.raises(InterpError) as err:
        interp.run(fn, {"n": np.array(4)})
    assert str(err.value) == (
        "loop#0 goes past 3 loop iterations in one run, the most an interpreter runs;"
        " cfmem report --timing costs any trip count without running it"
    )
    assert err.value.op is only(module, "scf.while")


def test_a_before_region_without_scf_condition_is_refused_at_the_while():
    module = while_module()
    condition = only(module, "scf.condition")
    condition.detach()
    condition.erase()
    with pytest.raises(InterpError) as err:
        run_flat(module, {"n": np.array(2)})
    assert str(err.value) == "the before region of scf.while must end in scf.condition"
    assert err.value.op is only(module, "scf.while")


def test_a_while_loop_that_never_runs_its_body_needs_no_yield():
    module = while_module()
    loop = only(module, "scf.while")
    for op in reversed(list(loop.after_region.block.ops)):
        op.detach()
        op.erase(safe_erase=False)
    assert loop.after_region.block.last_op is None
    got = run_flat(module, {"n": np.array(0)})
    np.testing.assert_array_equal(got.outputs["o"], [5, 0])
    assert got.loops == [("loop#0", 0)]


# --- scf.for by hand: bounds and step from inputs, nested ---------------------------------

FOR = """
func.func @main(%b: memref<3xi64>, %o: memref<12xi64>) attributes {cfmem.output_names = ["o"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c10 = arith.constant 10 : index
  %l = memref.load %b[%c0] : memref<3xi64>
  %u = memref.load %b[%c1] : memref<3xi64>
  %s = memref.load %b[%c2] : memref<3xi64>
  %lb = arith.index_cast %l : i64 to index
  %ub = arith.index_cast %u : i64 to index
  %st = arith.index_cast %s : i64 to index
  scf.for %i = %lb to %ub step %st {
    %v = arith.addi %i, %c10 : index
    %w = arith.index_cast %v : index to i64
    memref.store %w, %o[%i] : memref<12xi64>
  } LABEL
  func.return
}
"""
"""Writes ``i + 10`` at ``o[i]`` for ``i`` in ``range(lb, ub, step)``, all three from ``%b``."""


def for_module(label: str | None = "loop#0"):
    attrs = f'{{cfmem.loop = "{label}"}}' if label else ""
    return parse_module(FOR.replace("LABEL", attrs))[0]


@pytest.mark.parametrize("bounds", [(0, 0, 1), (3, 2, 1), (2, 3, 1), (1, 7, 2), (0, 12, 5), (4, 12, 3), (0, 3, 1)])
@pytest.mark.parametrize("label", ["loop#0", None])
def test_a_for_loop_runs_its_body_for_each_value_of_its_range(bounds, label):
    got = run_flat(for_module(label), {"b": np.array(bounds)})
    want = np.zeros(12, np.int64)
    trips = list(range(*bounds))
    want[trips] = np.array(trips) + 10
    np.testing.assert_array_equal(got.outputs["o"], want)
    assert got.loops == ([(label, len(trips))] if label else [])


@pytest.mark.parametrize("step", [0, -1])
def test_a_for_loop_without_a_positive_step_is_refused_at_the_loop(step):
    module = for_module()
    with pytest.raises(InterpError) as err:
        run_flat(module, {"b": np.array([0, 3, step])})
    assert str(err.value) == "the flat interpreter runs scf.for loops with a positive step and no iter_args"
    assert err.value.op is only(module, "scf.for")


@pytest.mark.parametrize("label", ["loop#0", None])
def test_a_for_loop_past_the_iteration_limit_is_stopped_at_the_loop(label):
    module = for_module(label)
    interp = FlatInterpreter(module)
    interp.max_iterations = 3
    fn = find_function(module)
    interp.run(fn, {"b": np.array([0, 3, 1])})
    with pytest.raises(InterpError) as err:
        interp.run(fn, {"b": np.array([0, 4, 1])})
    assert str(err.value).startswith(f"{label or 'a loop'} goes past 3 loop iterations in one run")
    assert err.value.op is only(module, "scf.for")


NESTED = """
func.func @main(%n: memref<2xi64>, %o: memref<12xi64>) attributes {cfmem.output_names = ["o"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c100 = arith.constant 100 : index
  %p = memref.load %n[%c0] : memref<2xi64>
  %q = memref.load %n[%c1] : memref<2xi64>
  %rows = arith.index_cast %p : i64 to index
  %cols = arith.index_cast %q : i64 to index
  scf.for %i = %c0 to %rows step %c1 {
    scf.for %j = %c0 to %cols step %c1 {
      %k0 = arith.muli %i, %c4 : index
      %k = arith.addi %k0, %j : index
      %i100 = arith.muli %i, %c100 : index
      %v = arith.addi %i100, %j : index
      %w = arith.index_cast %v : index to i64
      memref.store %w, %o[%k] : memref<12xi64>
    } {cfmem.loop = "loop#1"}
  } {cfmem.loop = "loop#0"}
  func.return
}
"""


@pytest.mark.parametrize(("rows", "cols"), [(0, 2), (1, 0), (1, 1), (3, 2), (2, 4)])
def test_nested_for_loops_see_both_inductions_and_report_every_inner_run(rows, cols):
    module, _ = parse_module(NESTED)
    got = run_flat(module, {"n": np.array([rows, cols])})
    want = np.zeros(12, np.int64)
    for i in range(rows):
        for j in range(cols):
            want[4 * i + j] = 100 * i + j
    np.testing.assert_array_equal(got.outputs["o"], want)
    assert got.loops == [("loop#1", cols)] * rows + [("loop#0", rows)]


# --- scf.for lowered: a counted nn.loop streaming its weights by DMA ----------------------------

RECURRENT = LOOP_OF_TWO_GEMMS.replace(
    "      %s = nn.add %m, %a : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>",
    "      %k = nn.cast %i : (tensor<i64>) -> tensor<f32>\n"
    "      %s0 = nn.add %m, %a : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>\n"
    "      %s = nn.add %s0, %k : (tensor<1x8xf32>, tensor<f32>) -> tensor<1x8xf32>",
)
"""tests/test_loops.py's loop of two weighted ops, adding the trip number to each iteration's sum."""
assert RECURRENT != LOOP_OF_TWO_GEMMS


@pytest.fixture(scope="module")
def recurrent():
    return lowered(RECURRENT, "nn-insert-dma{loop-weights=stream},nn-plan-memory")


@pytest.mark.parametrize("n", [0, 1, 2, 5])
def test_a_for_loop_streaming_weights_by_dma_computes_the_unplanned_numbers(recurrent, n):
    module, flat = recurrent
    loop = only(flat, "scf.for")
    assert any(op.name == "memref.dma_start" for op in loop.body.walk())
    inputs = {"n": np.array(n), "x": np.linspace(-1, 1, 8, dtype=np.float32).reshape(1, 8)}
    want = run_function(module, inputs)
    assert want.loops == [("loop#0", n)]
    got = run_flat(flat, inputs)
    assert got.loops == want.loops
    np.testing.assert_array_equal(got.outputs["y"], want.outputs["y"])


# --- measure_flat and the on-chip budget ------------------------------------------------------

MEASURED = """
"memref.global"() <{sym_name = "arena", type = memref<32xi8, 1 : i64>, initial_value, sym_visibility = "private"}> : () -> ()
"memref.global"() <{sym_name = "resident", type = memref<16xi8, 1 : i64>, initial_value, sym_visibility = "private"}> : () -> ()
"memref.global"() <{sym_name = "spare", type = memref<8xi8, 1 : i64>, initial_value, sym_visibility = "private"}> : () -> ()
"memref.global"() <{sym_name = "slow", type = memref<64xi8>, initial_value, sym_visibility = "private"}> : () -> ()
func.func @load() {
  %c0 = arith.constant 0 : index
  %r = memref.get_global @resident : memref<16xi8, 1 : i64>
  %v = memref.view %r[%c0][] {cfmem.tensor = "kept"} : memref<16xi8, 1 : i64> to memref<2xi32, 1 : i64>
  %one = arith.constant 1 : i32
  memref.store %one, %v[%c0] : memref<2xi32, 1 : i64>
  func.return
}
func.func @main(%x: memref<4xf32>, %o: memref<4xf32>) attributes {cfmem.output_names = ["o"], cfmem.init = "load" BUDGET} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %arena = memref.get_global @arena : memref<32xi8, 1 : i64>
  %slow = memref.get_global @slow : memref<64xi8>
  %s = memref.view %slow[%c8][] {cfmem.tensor = "s"} : memref<64xi8> to memref<4xf32>
  "memref.copy"(%x, %s) : (memref<4xf32>, memref<4xf32>) -> ()
  %a = memref.view %arena[%c8][] {cfmem.tensor = "a"} : memref<32xi8, 1 : i64> to memref<4xf32, 1 : i64>
  "memref.copy"(%s, %a) : (memref<4xf32>, memref<4xf32, 1 : i64>) -> ()
  %a2 = memref.view %arena[%c8][] {cfmem.tensor = "READ_AS"} : memref<32xi8, 1 : i64> to memref<4xf32, 1 : i64>
  "memref.copy"(%a2, %o) : (memref<4xf32, 1 : i64>, memref<4xf32>) -> ()
  func.return
}
func.func @other(%x: memref<4xf32>, %o: memref<4xf32>) attributes {cfmem.output_names = ["o"]} {
  %c0 = arith.constant 0 : index
  %spare = memref.get_global @spare : memref<8xi8, 1 : i64>
  %a = memref.view %spare[%c0][] {cfmem.tensor = "a"} : memref<8xi8, 1 : i64> to memref<1xf32, 1 : i64>
  %x0 = memref.load %x[%c0] : memref<4xf32>
  memref.store %x0, %a[%c0] : memref<1xf32, 1 : i64>
  func.return
}
"""
"""@main (loader @load) uses the on-chip @arena (32 bytes, writes up to byte 24) and @resident
(16 bytes, its loader writes 4), and the off-chip @slow; @other only the on-chip @spare (8
bytes, writes 4). So @main needs 48 on-chip bytes and touches 28, @other 8 and 4. @main reads
%a back as READ_AS."""
X = np.array([1.5, -2.0, 3.25, 0.5], np.float32)


def measured(budget: int | None = None, read_as: str = "a"):
    text = MEASURED.replace("READ_AS", read_as).replace("BUDGET", f", cfmem.onchip_budget = {budget} : i64" if budget is not None else "")
    return parse_module(text)[0]


def test_measure_flat_returns_the_run_and_its_on_chip_bytes():
    module = measured()
    result, onchip, touched = measure_flat(module, {"x": X})
    np.testing.assert_array_equal(result.outputs["o"], X)
    assert (onchip, touched) == (32 + 16, 24 + 4)
    result, onchip, touched = measure_flat(module, {"x": X}, func_name="other")
    assert result.outputs["o"].tolist() == [0, 0, 0, 0]  # @other writes no result
    assert (onchip, touched) == (8, 4)


def test_measure_flat_checks_the_run():
    module = measured(read_as="b")
    with pytest.raises(ClobberError) as err:
        measure_flat(module, {"x": X})
    assert str(err.value) == "'memref.copy' reads %b but %a overwrote 16 of its 16 bytes (first at byte 8 of arena)"
    assert err.value.op is [op for op in find_function(module).body.block.ops if op.name == "memref.copy"][-1]


def test_the_on_chip_memories_are_those_the_function_and_its_loader_use():
    module = measured()
    interp = FlatInterpreter(module)
    assert [g.sym_name.data for g in interp.onchip_globals(find_function(module))] == ["arena", "resident"]
    assert [g.sym_name.data for g in interp.onchip_globals(find_function(module, "other"))] == ["spare"]


def test_a_budget_below_the_on_chip_memories_is_refused_before_the_run():
    module = measured(47)
    with pytest.raises(CapacityError) as err:
        run_flat(module, {"x": X})
    assert str(err.value) == "@main needs 48 bytes of on-chip memory (@arena 32, @resident 16) but its budget is 47"
    result = run_flat(measured(48), {"x": X})
    np.testing.assert_array_equal(result.outputs["o"], X)


# --- ownership: reads through aliases, a source overwritten during its transfer ----------------

ALIASED = """
"memref.global"() <{sym_name = "arena", type = memref<32xi8, 1 : i64>, initial_value, sym_visibility = "private"}> : () -> ()
func.func @main(%x: memref<4xf32>, %y: memref<2xf32>, %o: memref<4xf32>) attributes {cfmem.output_names = ["o"]} {
  %c0 = arith.constant 0 : index
  %arena = memref.get_global @arena : memref<32xi8, 1 : i64>
  %a = memref.view %arena[%c0][] {cfmem.tensor = "a"} : memref<32xi8, 1 : i64> to memref<4xf32, 1 : i64>
  "memref.copy"(%x, %a) : (memref<4xf32>, memref<4xf32, 1 : i64>) -> ()
  %v2 = memref.view %arena[%c0][] {cfmem.tensor = "v"} : memref<32xi8, 1 : i64> to memref<2xf32, 1 : i64>
  "memref.copy"(%y, %v2) : (memref<2xf32>, memref<2xf32, 1 : i64>) -> ()
  %v = memref.view %arena[%c0][] {cfmem.tensor = "v", cfmem.reads = READS} : memref<32xi8, 1 : i64> to memref<4xf32, 1 : i64>
  "memref.copy"(%v, %o) : (memref<4xf32, 1 : i64>, memref<4xf32>) -> ()
  func.return
}
"""
"""%v's first 8 bytes are its own, the last 8 still %a's: readable only when it names %a."""


@pytest.mark.parametrize("reads", [["a"], ["w", "a"], ["a", "w"]])
def test_a_view_may_read_bytes_of_its_own_and_of_each_tensor_it_names(reads):
    module, _ = parse_module(ALIASED.replace("READS", str(reads).replace("'", '"')))
    y = np.array([7.0, 8.0], np.float32)
    got = run_flat(module, {"x": X, "y": y})
    np.testing.assert_array_equal(got.outputs["o"], [7.0, 8.0, X[2], X[3]])


def test_a_view_reading_bytes_of_a_tensor_it_does_not_name_is_a_clobber():
    module, _ = parse_module(ALIASED.replace("READS", '["w"]'))
    with pytest.raises(ClobberError) as err:
        run_flat(module, {"x": X, "y": np.zeros(2, np.float32)})
    assert str(err.value) == "'memref.copy' reads %v but %a overwrote 8 of its 16 bytes (first at byte 8 of arena)"


FROM_SLOW = """
"memref.global"() <{sym_name = "arena", type = memref<32xi8, 1 : i64>, initial_value, sym_visibility = "private"}> : () -> ()
"memref.global"() <{sym_name = "slow", type = memref<32xi8>, initial_value, sym_visibility = "private"}> : () -> ()
func.func @main(%x: memref<4xf32>, %o: memref<4xf32>) attributes {cfmem.output_names = ["o"]} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %arena = memref.get_global @arena : memref<32xi8, 1 : i64>
  %slow = memref.get_global @slow : memref<32xi8>
  %tag = memref.alloca() : memref<1xi32>
  %p = memref.view %slow[%c0][] {cfmem.tensor = "p"} : memref<32xi8> to memref<4xf32>
  "memref.copy"(%x, %p) : (memref<4xf32>, memref<4xf32>) -> ()
  "memref.dma_start"(%slow, %c0, %arena, %c16, %c16, %tag, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "q"} : (memref<32xi8>, index, memref<32xi8, 1 : i64>, index, index, memref<1xi32>, index) -> ()
  BEFORE
  "memref.dma_wait"(%tag, %c0, %c16) : (memref<1xi32>, index, index) -> ()
  AFTER
  %q = memref.view %arena[%c16][] {cfmem.tensor = "q"} : memref<32xi8, 1 : i64> to memref<4xf32, 1 : i64>
  "memref.copy"(%q, %o) : (memref<4xf32, 1 : i64>, memref<4xf32>) -> ()
  func.return
}
"""
"""A prefetch of activation %p from the off-chip @slow into the arena as %q; OVERWRITE writes
%r over bytes 8 to 24 of @slow, before (a clobber) or after the wait (fine)."""
OVERWRITE = """%r = memref.view %slow[%c8][] {cfmem.tensor = "r"} : memref<32xi8> to memref<4xf32>
  "memref.copy"(%x, %r) : (memref<4xf32>, memref<4xf32>) -> ()"""


def test_a_prefetched_activation_arrives_when_its_source_is_kept_until_the_wait():
    module, _ = parse_module(FROM_SLOW.replace("BEFORE", "").replace("AFTER", OVERWRITE))
    np.testing.assert_array_equal(run_flat(module, {"x": X}).outputs["o"], X)


def test_a_source_overwritten_before_its_wait_is_a_clobber_named_at_the_wait():
    module, _ = parse_module(FROM_SLOW.replace("BEFORE", OVERWRITE).replace("AFTER", ""))
    with pytest.raises(ClobberError) as err:
        run_flat(module, {"x": X})
    assert str(err.value) == "%r overwrote bytes of slow that the DMA of %q was still reading (first at byte 8)"
    assert err.value.op is only(module, "memref.dma_wait")


def test_overlapping_transfers_are_refused_only_by_a_checking_run():
    body = [dma(tensor="a"), dma(at="c8", element="c1", tensor="b"),
            WAIT.format(element="c0", count="c16"), WAIT.format(element="c1", count="c16"),
            '%v = memref.view %arena[%c8][] : memref<32xi8, 1 : i64> to memref<4xf32, 1 : i64>',
            '"memref.copy"(%v, %o) : (memref<4xf32, 1 : i64>, memref<4xf32>) -> ()']  # fmt: skip
    module, _ = parse_module(FLAT_TEMPLATE.replace("BODY", "\n  ".join(body)))
    with pytest.raises(ClobberError, match="overwrites %b while the DMA of %a"):
        run_flat(module, {"x": X})
    got = run_flat(module, {"x": X}, check=False)
    np.testing.assert_array_equal(got.outputs["o"].view(np.uint8), np.full(16, 7, np.uint8))


def test_a_store_into_bytes_a_transfer_is_still_writing_is_a_clobber_named_at_the_store():
    store = """%q0 = memref.view %arena[%c16][] {cfmem.tensor = "q"} : memref<32xi8, 1 : i64> to memref<16xi8, 1 : i64>
  %seven = arith.constant 7 : i8
  memref.store %seven, %q0[%c0] : memref<16xi8, 1 : i64>"""
    module, _ = parse_module(FROM_SLOW.replace("BEFORE", store).replace("AFTER", ""))
    with pytest.raises(ClobberError) as err:
        run_flat(module, {"x": X})
    assert str(err.value) == "'memref.store' overwrites %q while the DMA of %q into the same bytes has not been waited for"
    assert err.value.op is only(module, "memref.store")
    after, _ = parse_module(FROM_SLOW.replace("BEFORE", "").replace("AFTER", store))
    want = X.copy()
    want.view(np.uint8)[0] = 7  # the first byte of the little-endian first element
    np.testing.assert_array_equal(run_flat(after, {"x": X}).outputs["o"], want)


# --- IEEE results: NaN and inf without warnings ---------------------------------------------

DIVIDE = """
func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>) {
  %q = nn.div %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %r = nn.mul %q, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}
"""


@pytest.mark.parametrize("check", [True, False])
def test_nan_and_inf_are_results_of_a_run_not_warnings(check):
    _, flat = lowered(DIVIDE)
    x, y = np.array([0, 1, -1, 6], np.float32), np.array([0, 0, 0, 2], np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = run_flat(flat, {"x": x, "y": y}, check=check)
    # independently: 0/0 is NaN, 1/0 inf, -1/0 -inf; inf * 0 is NaN again
    np.testing.assert_array_equal(got.outputs["r"], [np.nan, np.nan, np.nan, 6])
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(got.outputs["r"], (x / y) * y)


# --- the weight loader ------------------------------------------------------------------------

UNWAITED_LOADER = """
"memref.global"() <{sym_name = "w", type = memref<16xi8>, initial_value = dense<7> : tensor<16xi8>, sym_visibility = "private", constant}> : () -> ()
"memref.global"() <{sym_name = "resident", type = memref<16xi8, 1 : i64>, initial_value, sym_visibility = "private"}> : () -> ()
func.func @load() {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %w = memref.get_global @w : memref<16xi8>
  %r = memref.get_global @resident : memref<16xi8, 1 : i64>
  %tag = memref.alloca() : memref<1xi32>
  "memref.dma_start"(%w, %c0, %r, %c0, %c16, %tag, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, cfmem.tensor = "kept"} : (memref<16xi8>, index, memref<16xi8, 1 : i64>, index, index, memref<1xi32>, index) -> ()
  WAIT
  func.return
}
func.func @main(%x: memref<4xf32>, %o: memref<4xf32>) attributes {cfmem.output_names = ["o"], cfmem.init = "load"} {
  %c0 = arith.constant 0 : index
  %r = memref.get_global @resident : memref<16xi8, 1 : i64>
  %v = memref.view %r[%c0][] {cfmem.tensor = "kept"} : memref<16xi8, 1 : i64> to memref<4xf32, 1 : i64>
  "memref.copy"(%v, %o) : (memref<4xf32, 1 : i64>, memref<4xf32>) -> ()
  func.return
}
"""
"""The loader @load copies the constant @w (bytes 7) into @resident by DMA; WAIT waits for it or not."""


@pytest.mark.parametrize("check", [True, False])
def test_a_loader_leaving_a_transfer_outstanding_is_refused_at_the_loader(check):
    waited, _ = parse_module(UNWAITED_LOADER.replace(
        "WAIT", '"memref.dma_wait"(%tag, %c0, %c16) : (memref<1xi32>, index, index) -> ()'))
    got = run_flat(waited, {"x": X}, check=check)
    np.testing.assert_array_equal(got.outputs["o"].view(np.uint8), np.full(16, 7, np.uint8))
    module, _ = parse_module(UNWAITED_LOADER.replace("WAIT", ""))
    with pytest.raises(InterpError) as err:
        run_flat(module, {"x": X}, check=check)
    assert str(err.value) == "loader @load leaves a DMA transfer outstanding"
    assert err.value.op is find_function(module, "load")


# --- views made at run time: a shift computed in a loop -------------------------------------

RUNTIME_VIEWS = """
"memref.global"() <{sym_name = "arena", type = memref<32xi8, 1 : i64>, initial_value, sym_visibility = "private"}> : () -> ()
func.func @main(%x: memref<4xi64>, %n: memref<i64>, %o: memref<4xi64>) attributes {cfmem.output_names = ["o"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %c24 = arith.constant 24 : index
  %three = arith.constant 3 : i64
  %arena = memref.get_global @arena : memref<32xi8, 1 : i64>
  %all = memref.view %arena[%c0][] {cfmem.tensor = "acc"} : memref<32xi8, 1 : i64> to memref<4xi64, 1 : i64>
  "memref.copy"(%x, %all) : (memref<4xi64>, memref<4xi64, 1 : i64>) -> ()
  %n0 = memref.load %n[] : memref<i64>
  %trips = arith.index_cast %n0 : i64 to index
  scf.for %i = %c0 to %trips step %c1 {
    scf.for %j = %c0 to %c2 step %c1 {
      %at = arith.muli %j, %c16 : index
      %v = memref.view %arena[%at][] {cfmem.tensor = "acc"} : memref<32xi8, 1 : i64> to memref<2xi64, 1 : i64>
      %e0 = memref.load %v[%c0] : memref<2xi64, 1 : i64>
      %e1 = memref.load %v[%c1] : memref<2xi64, 1 : i64>
      %ii = arith.index_cast %i : index to i64
      %s = arith.addi %e0, %e1 : i64
      %s1 = arith.addi %s, %ii : i64
      %t = arith.muli %e1, %three : i64
      memref.store %s1, %v[%c0] : memref<2xi64, 1 : i64>
      memref.store %t, %v[%c1] : memref<2xi64, 1 : i64>
    }
    CLOBBER
  }
  %r = memref.view %arena[%c0][] {cfmem.tensor = "acc", cfmem.reads = ["junk"]} : memref<32xi8, 1 : i64> to memref<4xi64, 1 : i64>
  "memref.copy"(%r, %o) : (memref<4xi64, 1 : i64>, memref<4xi64>) -> ()
  func.return
}
"""
"""Each trip ``i`` updates both halves ``(a, b)`` of the arena, viewed at ``16 j`` (a shift the
loop computes: the view is made at run time), to ``(a + b + i, 3 b)``. CLOBBER may write %junk
over the last 8 bytes after each trip's updates (the result may read it)."""
JUNK = """%junk = memref.view %arena[%c24][] {cfmem.tensor = "junk"} : memref<32xi8, 1 : i64> to memref<1xi64, 1 : i64>
    memref.store %three, %junk[%c0] : memref<1xi64, 1 : i64>"""


def runtime_views(clobber: str = ""):
    return parse_module(RUNTIME_VIEWS.replace("CLOBBER", clobber))[0]


def halves_updated(x, trips):
    a = list(x)
    for i in range(trips):
        for j in (0, 2):
            a[j], a[j + 1] = a[j] + a[j + 1] + i, 3 * a[j + 1]
    return a


@pytest.mark.parametrize("check", [True, False])
def test_views_made_at_run_time_see_the_bytes_of_each_trip_and_run(check):
    module = runtime_views()
    interp = FlatInterpreter(module, check)
    fn = find_function(module)
    for x, trips in [([1, 2, 3, 4], 3), ([5, -1, 0, 7], 1), ([1, 2, 3, 4], 4), ([2, 2, 2, 2], 0)]:
        got = interp.run(fn, {"x": np.array(x), "n": np.array(trips)})
        np.testing.assert_array_equal(got.outputs["o"], halves_updated(x, trips))


def test_a_view_made_at_run_time_is_made_once_per_source_shift_and_name(monkeypatch):
    made = []

    class CountedRef(flat_compiler.Ref):
        def __post_init__(self):
            super().__post_init__()
            made.append((self.offset, self.shape, self.tensor))

    module = runtime_views()
    interp = FlatInterpreter(module)
    monkeypatch.setattr(flat_compiler, "Ref", CountedRef)
    fn = find_function(module)
    for trips in (3, 2):
        got = interp.run(fn, {"x": np.array([1, 2, 3, 4]), "n": np.array(trips)})
        np.testing.assert_array_equal(got.outputs["o"], halves_updated([1, 2, 3, 4], trips))
    assert [m for m in made if m[1] == (2,)] == [(0, (2,), "acc"), (16, (2,), "acc")]


def test_a_clobber_is_caught_through_a_view_made_at_run_time():
    module = runtime_views(JUNK)
    got = run_flat(module, {"x": np.array([1, 2, 3, 4]), "n": np.array(1)})  # %junk written after the last read
    want = halves_updated([1, 2, 3, 4], 1)
    want[3] = 3
    np.testing.assert_array_equal(got.outputs["o"], want)
    with pytest.raises(ClobberError) as err:
        run_flat(module, {"x": np.array([1, 2, 3, 4]), "n": np.array(2)})
    assert str(err.value) == "'memref.load' reads %acc but %junk overwrote 8 of its 16 bytes (first at byte 24 of arena)"
    assert err.value.op is [op for op in module.walk() if op.name == "memref.load"][1]
