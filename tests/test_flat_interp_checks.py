"""The flat interpreter's checks at their edges: DMA sources away from byte 0, of one byte,
of bytes no single tensor wrote, overwritten in one byte; what ``check=False`` leaves out;
an in-place op's other input over its output; boolean globals; a weight-file global without
its hash; a missing loader; names of rolled-loop tensors on a loop not starting at 0; views
made at run time that name the tensors they read; the on-chip bytes a run wrote."""

from __future__ import annotations

import numpy as np
import pytest

from cfmem.interp.flat import ClobberError, FlatInterpreter, run_flat
from cfmem.interp.golden import InterpError, find_function
from cfmem.ir_io import parse_module
from test_flat_interp_mutants import ALIASED, FROM_SLOW, OVERWRITE, X, only

AT_16 = FROM_SLOW.replace("%p = memref.view %slow[%c0]", "%p = memref.view %slow[%c16]").replace(
    '"memref.dma_start"(%slow, %c0,', '"memref.dma_start"(%slow, %c16,'
)
"""FROM_SLOW with %p, the DMA's source, at byte 16 of @slow instead of 0."""


def _module(text: str):
    module, _ = parse_module(text)
    return module


# --- a DMA's source ----------------------------------------------------------------------


def test_a_prefetch_from_the_middle_of_its_source_arrives_whole():
    module = _module(AT_16.replace("BEFORE", "").replace("AFTER", ""))
    np.testing.assert_array_equal(run_flat(module, {"x": X}).outputs["o"], X)


def test_a_source_away_from_byte_0_overwritten_before_its_wait_is_a_clobber():
    """%r covers bytes 8 to 24 of @slow; the transfer reads 16 to 32."""
    module = _module(AT_16.replace("BEFORE", OVERWRITE).replace("AFTER", ""))
    with pytest.raises(ClobberError) as err:
        run_flat(module, {"x": X})
    assert str(err.value) == "%r overwrote bytes of slow that the DMA of %q was still reading (first at byte 16)"


def test_a_source_overwritten_in_one_byte_names_the_tensor_that_wrote_it():
    one_byte = """%c20 = arith.constant 20 : index
  %r = memref.view %slow[%c20][] {cfmem.tensor = "r"} : memref<32xi8> to memref<1xi8>
  %seven = arith.constant 7 : i8
  memref.store %seven, %r[%c0] : memref<1xi8>"""
    module = _module(AT_16.replace("BEFORE", one_byte).replace("AFTER", ""))
    with pytest.raises(ClobberError) as err:
        run_flat(module, {"x": X})
    assert str(err.value) == "%r overwrote bytes of slow that the DMA of %q was still reading (first at byte 20)"


def test_a_dma_reading_bytes_nothing_wrote_is_a_clobber_named_at_its_start():
    unwritten = AT_16.replace('"memref.copy"(%x, %p) : (memref<4xf32>, memref<4xf32>) -> ()', "")
    module = _module(unwritten.replace("BEFORE", "").replace("AFTER", ""))
    with pytest.raises(ClobberError) as err:
        run_flat(module, {"x": X})
    assert str(err.value) == "the DMA of %q reads bytes 16 to 32 of slow, which no single tensor wrote"
    assert err.value.op is only(module, "memref.dma_start")


def test_a_dma_reading_bytes_of_two_tensors_is_a_clobber():
    """%p owns bytes 16 to 32 of @slow, then %s the last 4: the transfer reads both."""
    second = """%c28 = arith.constant 28 : index
  %s = memref.view %slow[%c28][] {cfmem.tensor = "s"} : memref<32xi8> to memref<4xi8>
  %seven = arith.constant 7 : i8
  memref.store %seven, %s[%c0] : memref<4xi8>
  "memref.dma_start\""""
    text = AT_16.replace('"memref.dma_start"', second, 1)
    module = _module(text.replace("BEFORE", "").replace("AFTER", ""))
    with pytest.raises(ClobberError, match=r"^the DMA of %q reads bytes 16 to 32 of slow, which no single tensor wrote$"):
        run_flat(module, {"x": X})


def test_a_one_byte_transfer_of_a_written_byte_runs():
    one = AT_16.replace("%c16, %c16, %tag, %c0)", "%c16, %c1, %tag, %c0)").replace(
        '"memref.dma_wait"(%tag, %c0, %c16)', '"memref.dma_wait"(%tag, %c0, %c1)'
    )
    one = one.replace("%c8 = arith.constant 8 : index", "%c8 = arith.constant 8 : index\n  %c1 = arith.constant 1 : index")
    one = one.replace('"memref.copy"(%q, %o)', '"memref.copy"(%x, %o)').replace(
        "(memref<4xf32, 1 : i64>, memref<4xf32>) -> ()\n  func.return", "(memref<4xf32>, memref<4xf32>) -> ()\n  func.return"
    )
    module = _module(one.replace("BEFORE", "").replace("AFTER", ""))
    np.testing.assert_array_equal(run_flat(module, {"x": X}).outputs["o"], X)


# --- what a run without checks leaves out ------------------------------------------------------

STORE_INTO_DEST = """%q0 = memref.view %arena[%c16][] {cfmem.tensor = "q"} : memref<32xi8, 1 : i64> to memref<16xi8, 1 : i64>
  %seven = arith.constant 7 : i8
  memref.store %seven, %q0[%c0] : memref<16xi8, 1 : i64>"""


@pytest.mark.parametrize("check", [True, False])
def test_a_store_into_a_transfers_destination_is_refused_only_by_a_checking_run(check):
    """Unchecked, the transfer lands at its wait over the stored byte."""
    module = _module(FROM_SLOW.replace("BEFORE", STORE_INTO_DEST).replace("AFTER", ""))
    if check:
        with pytest.raises(ClobberError, match="overwrites %q while the DMA"):
            run_flat(module, {"x": X})
    else:
        np.testing.assert_array_equal(run_flat(module, {"x": X}, check=False).outputs["o"], X)


OVER_ITS_INPUT = """
"memref.global"() <{sym_name = "arena", type = memref<32xi8, 1 : i64>, initial_value, sym_visibility = "private"}> : () -> ()
func.func @main(%x: memref<4xf32>, %o: memref<4xf32>) attributes {cfmem.output_names = ["o"]} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %arena = memref.get_global @arena : memref<32xi8, 1 : i64>
  %y = memref.view %arena[%c0][] {cfmem.tensor = "y"} : memref<32xi8, 1 : i64> to memref<4xf32, 1 : i64>
  "memref.copy"(%x, %y) : (memref<4xf32>, memref<4xf32, 1 : i64>) -> ()
  %z = memref.view %arena[%c4][] {cfmem.tensor = "z"} : memref<32xi8, 1 : i64> to memref<4xf32, 1 : i64>
  nn.apply ins(INS) outs(%z : memref<4xf32, 1 : i64>) ATTRS {
  ^bb0(ARGS):
    %r = BODY
    nn.yield %r : tensor<4xf32>
  }
  "memref.copy"(%z, %o) : (memref<4xf32, 1 : i64>, memref<4xf32>) -> ()
  func.return
}
"""
"""An op writing %z (bytes 4 to 20 of the arena) while reading %y (bytes 0 to 16)."""

RELU_OVER_Y = (
    OVER_ITS_INPUT.replace("INS", "%y : memref<4xf32, 1 : i64>").replace("ATTRS", "")
    .replace("ARGS", "%t: tensor<4xf32>").replace("BODY", "nn.relu %t : (tensor<4xf32>) -> tensor<4xf32>")
)


def test_an_op_over_its_own_input_is_refused_only_by_a_checking_run():
    module = _module(RELU_OVER_Y)
    with pytest.raises(ClobberError, match="^'nn.relu' writes %z over its own input %y$"):
        run_flat(module, {"x": X})
    unchecked = run_flat(module, {"x": X}, check=False).outputs["o"]
    np.testing.assert_array_equal(unchecked, np.maximum(X, 0))


def test_an_in_place_op_is_refused_when_its_other_input_overlaps_its_output():
    """%z's first input is exactly its output (in place, allowed); its second, %y, overlaps it."""
    text = (
        OVER_ITS_INPUT.replace("INS", "%z, %y : memref<4xf32, 1 : i64>, memref<4xf32, 1 : i64>")
        .replace("ATTRS", "attributes {cfmem.inplace}")
        .replace("ARGS", "%a: tensor<4xf32>, %b: tensor<4xf32>")
        .replace("BODY", "nn.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>")
    )
    text = text.replace(
        '  %z = memref.view %arena[%c4][] {cfmem.tensor = "z"} : memref<32xi8, 1 : i64> to memref<4xf32, 1 : i64>\n',
        '  %z = memref.view %arena[%c4][] {cfmem.tensor = "z"} : memref<32xi8, 1 : i64> to memref<4xf32, 1 : i64>\n'
        '  "memref.copy"(%x, %z) : (memref<4xf32>, memref<4xf32, 1 : i64>) -> ()\n',
    )
    with pytest.raises(ClobberError, match="^'nn.add' writes %z over its own input %y$"):
        run_flat(_module(text), {"x": X})


# --- globals and loaders -----------------------------------------------------------------------

BOOLS = """
"memref.global"() <{sym_name = "m", type = memref<4xi1>, initial_value = dense<[true, false, true, false]> : tensor<4xi1>, sym_visibility = "private", constant}> : () -> ()
func.func @main(%o: memref<4xi1>) attributes {cfmem.output_names = ["o"]} {
  %m = memref.get_global @m : memref<4xi1>
  "memref.copy"(%m, %o) : (memref<4xi1>, memref<4xi1>) -> ()
  func.return
}
"""


def test_a_boolean_global_holds_its_true_and_false_values():
    got = run_flat(_module(BOOLS), {}).outputs["o"]
    assert got.tolist() == [True, False, True, False]


FROM_FILE = """
"memref.global"() <{sym_name = "w", type = memref<16xi8>, initial_value, sym_visibility = "private", constant}> {ATTRS} : () -> ()
func.func @main(%o: memref<16xi8>) attributes {cfmem.output_names = ["o"]} {
  %w = memref.get_global @w : memref<16xi8>
  "memref.copy"(%w, %o) : (memref<16xi8>, memref<16xi8>) -> ()
  func.return
}
"""


@pytest.mark.parametrize(
    "attrs",
    [
        'cfmem.weights_file = "m.weights.bin", cfmem.weights_offset = 0 : i64',
        'cfmem.weights_file = "m.weights.bin", cfmem.weights_sha256 = "00"',
    ],
)
def test_a_global_naming_a_weight_file_without_its_offset_or_hash_is_refused_at_the_global(attrs):
    module = _module(FROM_FILE.replace("ATTRS", attrs))
    with pytest.raises(InterpError) as err:
        run_flat(module, {})
    assert str(err.value) == (
        "memref.global @w names a weight file without cfmem.weights_offset and cfmem.weights_sha256"
    )
    assert err.value.op is only(module, "memref.global")


def test_a_function_naming_a_loader_the_module_lacks_is_refused():
    text = FROM_FILE.replace(" {ATTRS}", "").replace(
        'attributes {cfmem.output_names = ["o"]}', 'attributes {cfmem.output_names = ["o"], cfmem.init = "load_nothing"}'
    )
    with pytest.raises(InterpError, match="^@main names loader @load_nothing, which the module does not have$"):
        run_flat(_module(text), {})


# --- rolled-loop names, views made at run time, bytes written ------------------------------------

ROLLED_FROM_2 = """
"memref.global"() <{sym_name = "arena", type = memref<32xi8, 1 : i64>, initial_value, sym_visibility = "private"}> : () -> ()
func.func @main(%o: memref<4xf32>) attributes {cfmem.output_names = ["o"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %arena = memref.get_global @arena : memref<32xi8, 1 : i64>
  scf.for %i = %c2 to %c3 step %c1 {
    %v = memref.view %arena[%c0][] {cfmem.tensor = "t_s{}", cfmem.tensor_index = array<i64: 0, 1>} : memref<32xi8, 1 : i64> to memref<4xf32, 1 : i64>
    "memref.copy"(%v, %o) : (memref<4xf32, 1 : i64>, memref<4xf32>) -> ()
  }
  func.return
}
"""


def test_a_rolled_tensor_is_named_for_its_trip_counted_from_the_loops_lower_bound():
    """The loop runs once, %i = 2: its first trip, so the view is %t_s0."""
    with pytest.raises(ClobberError, match=r"^'memref.copy' reads %t_s0 but nothing wrote byte 0 of arena$"):
        run_flat(_module(ROLLED_FROM_2), {})


def test_a_view_made_at_run_time_may_read_the_tensors_it_names():
    """ALIASED with %v's shift computed at run time: its view is made by a step, not ahead."""
    dynamic = ALIASED.replace("READS", '["a"]').replace(
        "%v = memref.view %arena[%c0][]", "%z = arith.addi %c0, %c0 : index\n  %v = memref.view %arena[%z][]"
    )
    y = np.array([7.0, 8.0], np.float32)
    got = run_flat(_module(dynamic), {"x": X, "y": y})
    np.testing.assert_array_equal(got.outputs["o"], [7.0, 8.0, X[2], X[3]])


GETS_ONLY = """
"memref.global"() <{sym_name = "arena", type = memref<32xi8, 1 : i64>, initial_value, sym_visibility = "private"}> : () -> ()
func.func @main(%x: memref<4xf32>, %o: memref<4xf32>) attributes {cfmem.output_names = ["o"]} {
  %arena = memref.get_global @arena : memref<32xi8, 1 : i64>
  "memref.copy"(%x, %o) : (memref<4xf32>, memref<4xf32>) -> ()
  func.return
}
"""


def test_a_run_writing_no_on_chip_byte_reports_none_written_on_every_run():
    module = _module(GETS_ONLY)
    interp = FlatInterpreter(module)
    assert interp.onchip_bytes == 0 and interp.onchip_touched == 0  # no run yet
    for _ in range(2):
        interp.run(find_function(module), {"x": X})
        assert interp.onchip_bytes == 32 and interp.onchip_touched == 0
