"""The flat interpreter's refusals and bookkeeping, each with its exact message and op.

Hand-written flat modules in the style of tests/test_checkers_mutants.py: one
32-byte arena (memory space 1), one constant 32-byte weight global, an input
%x and an output %o of four f32 each.
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import memref
from xdsl.dialects.builtin import BytesAttr, DenseIntOrFPElementsAttr, TensorType, f32

from cfmem.interp.flat import ClobberError, FlatInterpreter, run_flat
from cfmem.interp.golden import InterpError, find_function
from cfmem.ir_io import parse_module
from test_checkers_mutants import COPY, FLAT_TEMPLATE, OFF_CHIP, ON_CHIP, RELU, VIEW, WAIT, dma, run_body

X = np.arange(4, dtype=np.float32)


def refusal(lines, error=InterpError):
    ops, run = run_body(*lines)
    with pytest.raises(error) as err:
        run()
    return ops, err.value


def op_named(ops, name, k=0):
    return [op for op in ops if op.name == name][k]


def test_a_float_constant_is_refused_at_the_constant():
    ops, err = refusal(["%f = arith.constant 1.5 : f32"])
    assert str(err).startswith("the flat interpreter runs integer constants only, got 1.5")
    assert err.op is op_named(ops, "arith.constant", 4)


def test_a_view_running_past_its_source_is_refused_at_the_view():
    ops, err = refusal(['%v = memref.view %arena[%c16][] : memref<32xi8, 1 : i64> to memref<8xf32, 1 : i64>'])
    assert str(err) == "view of 32 bytes at 16 runs past its source"
    assert err.op is op_named(ops, "memref.view")


def test_a_view_ending_exactly_at_the_end_of_its_source_is_fine():
    run_body('%v = memref.view %arena[%c16][] : memref<32xi8, 1 : i64> to memref<4xf32, 1 : i64>')[1]()


def test_a_scratch_buffer_has_its_own_size_in_bytes():
    ops, err = refusal([
        "%s = memref.alloca() : memref<16xi8>",
        "%v = memref.view %s[%c8][] : memref<16xi8> to memref<4xf32>",
    ])  # fmt: skip
    assert str(err) == "view of 16 bytes at 8 runs past its source"


def test_a_wait_without_a_transfer_is_refused_at_the_wait():
    ops, err = refusal([WAIT.format(element="c1", count="c16")])
    assert str(err) == "waits on a DMA tag no transfer is using"
    assert err.op is op_named(ops, "memref.dma_wait")


def test_an_op_it_cannot_run_is_named():
    ops, err = refusal(["%z = arith.subi %c0, %c1 : index"])
    assert str(err) == "the flat interpreter cannot run 'arith.subi'"
    assert err.op is op_named(ops, "arith.subi")


def test_a_loop_with_loop_carried_values_is_refused_at_the_loop():
    ops, err = refusal(["%s = scf.for %i = %c0 to %c1 step %c1 iter_args(%a = %c0) -> (index) {", "scf.yield %a : index", "}"])
    assert str(err) == "the flat interpreter runs scf.for loops with a positive step and no iter_args"
    assert err.op is op_named(ops, "scf.for")


def test_a_global_missing_from_the_module_is_named():
    module, _ = parse_module(FLAT_TEMPLATE.replace("BODY", "%g = memref.get_global @w : memref<32xi8>"))
    interp = FlatInterpreter(module)
    interp.global_ops.pop("w")
    with pytest.raises(InterpError) as err:
        interp.run(find_function(module), {"x": X})
    assert str(err.value) == "no memref.global @w in the module"


def test_reading_bytes_nobody_wrote_names_the_first_such_byte_and_the_reader():
    """y's first 8 bytes come from a DMA named y; bytes 16..24 of the arena were never written."""
    ops, err = refusal(
        [dma(at="c8", count="c8", tensor="y"), WAIT.format(element="c0", count="c8"),
         VIEW.format(name="y", at="c8"), COPY.format(src="y", dst="o", src_type=ON_CHIP, dst_type=OFF_CHIP)],
        ClobberError,
    )  # fmt: skip
    assert str(err) == "'memref.copy' reads %y but nothing wrote byte 16 of arena"
    assert err.op is op_named(ops, "memref.copy")


def test_an_overwritten_tensor_names_both_and_the_reader():
    ops, err = refusal(
        [VIEW.format(name="a", at="c0"), COPY.format(src="x", dst="a", src_type=OFF_CHIP, dst_type=ON_CHIP),
         VIEW.format(name="b", at="c8"), COPY.format(src="x", dst="b", src_type=OFF_CHIP, dst_type=ON_CHIP),
         COPY.format(src="a", dst="o", src_type=ON_CHIP, dst_type=OFF_CHIP)],
        ClobberError,
    )  # fmt: skip
    assert str(err) == "'memref.copy' reads %a but %b overwrote 8 of its 16 bytes (first at byte 8 of arena)"
    assert err.op is op_named(ops, "memref.copy", 2)


def test_a_load_of_bytes_nobody_wrote_is_located_at_the_load():
    ops, err = refusal([VIEW.format(name="y", at="c0"), "%v = memref.load %y[%c1] : memref<4xf32, 1 : i64>"], ClobberError)
    assert str(err) == "'memref.load' reads %y but nothing wrote byte 0 of arena"
    assert err.op is op_named(ops, "memref.load")


def test_a_named_view_of_a_constant_global_is_read_without_an_owner():
    """Constants are not owner-tracked: their bytes were 'written' by the module itself."""
    _, run = run_body(
        '%wv = memref.view %w[%c0][] {cfmem.tensor = "wv"} : memref<32xi8> to memref<4xf32>',
        COPY.format(src="wv", dst="o", src_type=OFF_CHIP, dst_type=OFF_CHIP),
    )
    assert run().outputs["o"].tobytes() == bytes([7] * 16)


def test_the_owner_map_keeps_two_bytes_per_arena_byte():
    module, _ = parse_module(FLAT_TEMPLATE.replace("BODY", ""))
    interp = FlatInterpreter(module)
    interp.run(find_function(module), {"x": X})
    memory = interp.memory("arena")
    assert memory.owner.dtype == np.int16 and memory.owner.shape == (32,)
    assert interp.memory("w").owner is None
    unchecked = FlatInterpreter(module, check=False)
    unchecked.run(find_function(module), {"x": X})
    assert unchecked.memory("arena").owner is None


CLOBBER = [VIEW.format(name="a", at="c0"), COPY.format(src="x", dst="a", src_type=OFF_CHIP, dst_type=ON_CHIP),
           VIEW.format(name="b", at="c8"), COPY.format(src="x", dst="b", src_type=OFF_CHIP, dst_type=ON_CHIP),
           COPY.format(src="a", dst="o", src_type=ON_CHIP, dst_type=OFF_CHIP)]  # fmt: skip


def test_past_32767_tensors_the_owner_map_widens_and_still_names_the_clobber():
    module, _ = parse_module(FLAT_TEMPLATE.replace("BODY", "\n  ".join(CLOBBER)))
    interp = FlatInterpreter(module)
    for k in range(32767):  # the run's a and b are tensors 32767 and 32768
        interp.tensor_id(f"earlier{k}")
    with pytest.raises(ClobberError, match="reads %a but %b overwrote 8 of its 16 bytes"):
        interp.run(find_function(module), {"x": X})
    assert interp.memory("arena").owner.dtype == np.int32
    assert interp.tensor_ids["b"] == 32768


def test_a_second_run_of_one_interpreter_starts_from_fresh_memories():
    """Global memories are kept between runs and put back to their first bytes and no
    owners when a run first uses them."""
    module, _ = parse_module(FLAT_TEMPLATE.replace("BODY", "\n  ".join(CLOBBER[:2] + [
        '%r = memref.view %arena[%c0][] : memref<32xi8, 1 : i64> to memref<4xf32, 1 : i64>',
        COPY.format(src="r", dst="o", src_type=ON_CHIP, dst_type=OFF_CHIP)])))
    interp = FlatInterpreter(module)
    fn = find_function(module)
    assert interp.run(fn, {"x": X}).outputs["o"].tolist() == X.tolist()
    assert interp.run(fn, {"x": X + 1}).outputs["o"].tolist() == (X + 1).tolist()
    interp.memories = {}  # as a third run starts
    arena = interp.memory("arena")
    assert (arena.data == 0xFF).all() and (arena.owner == -1).all()


UNNAMED = """
func.func @main(%0: memref<4xf32>, %1: memref<4xf32>) attributes {cfmem.output_names = ["out"]} {
  BODY
  func.return
}
"""
RELU_OFF_CHIP = RELU.replace(", 1 : i64", "")


@pytest.mark.parametrize(("arg", "name"), [("%0", "input"), ("%1", "output")])
def test_unnamed_arguments_are_called_input_and_output_in_messages(arg, name):
    module, _ = parse_module(UNNAMED.replace("BODY", RELU_OFF_CHIP.format(src=arg[1:], dst=arg[1:]).replace("%%", "%")))
    with pytest.raises(ClobberError) as err:
        run_flat(module, {"arg0": X})
    assert str(err.value) == f"'nn.relu' writes %{name} over its own input %{name}"


def test_a_scratch_buffer_is_called_alloca_in_messages():
    lines = ["%s = memref.alloca() : memref<4xf32>", RELU_OFF_CHIP.format(src="s", dst="s")]
    _, err = refusal(lines, ClobberError)
    assert str(err) == "'nn.relu' writes %alloca over its own input %alloca"


TWO_D = """
func.func @main(%x: memref<2x3xf32>, %o: memref<2x3xf32>) attributes {cfmem.output_names = ["o"]} {
  "memref.copy"(%x, %o) : (memref<2x3xf32>, memref<2x3xf32>) -> ()
  func.return
}
func.func @other(%x: memref<2x3xf32>, %o: memref<2x3xf32>) attributes {cfmem.output_names = ["o"]} {
  func.return
}
"""


def test_inputs_and_outputs_with_several_rows_keep_their_values():
    module, _ = parse_module(TWO_D)
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_array_equal(run_flat(module, {"x": x}).outputs["o"], x)
    np.testing.assert_array_equal(run_flat(module, {"x": x.T.copy().T}).outputs["o"], x)  # Fortran order


def test_the_function_to_run_can_be_named():
    module, _ = parse_module(TWO_D)
    x = np.ones((2, 3), np.float32)
    assert not run_flat(module, {"x": x}, func_name="other").outputs["o"].any()


SPLAT = """
"memref.global"() <{sym_name = "s", type = memref<COUNTxf32>, initial_value = dense<0.0> : tensor<COUNTxf32>, sym_visibility = "private", constant}> : () -> ()
func.func @main(%o: memref<COUNTxf32>) attributes {cfmem.output_names = ["o"]} {
  %s = memref.get_global @s : memref<COUNTxf32>
  "memref.copy"(%s, %o) : (memref<COUNTxf32>, memref<COUNTxf32>) -> ()
  func.return
}
"""


@pytest.mark.parametrize("count", [2, 4])
def test_a_splat_global_fills_every_element(count):
    """xDSL's parser stores every element; a splat built in Python holds one."""
    module, _ = parse_module(SPLAT.replace("COUNT", str(count)))
    splat = next(op for op in module.ops if isinstance(op, memref.GlobalOp))
    splat.properties["initial_value"] = DenseIntOrFPElementsAttr(TensorType(f32, [count]), BytesAttr(np.float32(1.5).tobytes()))
    np.testing.assert_array_equal(run_flat(module, {}).outputs["o"], np.full(count, 1.5, np.float32))


BRANCH_ON_LOAD = """
"memref.global"() <{sym_name = "one", type = memref<1xf32>, initial_value = dense<1.0> : tensor<1xf32>, sym_visibility = "private", constant}> : () -> ()
"memref.global"() <{sym_name = "two", type = memref<1xf32>, initial_value = dense<2.0> : tensor<1xf32>, sym_visibility = "private", constant}> : () -> ()
func.func @main(%c: memref<3xi1>, %o: memref<1xf32>) attributes {cfmem.output_names = ["o"]} {
  %c1 = arith.constant 1 : index
  %b = memref.load %c[%c1] : memref<3xi1>
  scf.if %b {
    %g = memref.get_global @one : memref<1xf32>
    "memref.copy"(%g, %o) : (memref<1xf32>, memref<1xf32>) -> ()
  } else {
    %g = memref.get_global @two : memref<1xf32>
    "memref.copy"(%g, %o) : (memref<1xf32>, memref<1xf32>) -> ()
  }
  func.return
}
"""


@pytest.mark.parametrize(("flags", "taken", "value"), [([False, True, False], True, 1.0), ([True, False, True], False, 2.0)])
def test_a_load_reads_the_element_at_its_index(flags, taken, value):
    module, _ = parse_module(BRANCH_ON_LOAD)
    result = run_flat(module, {"c": np.array(flags)})
    assert result.outputs["o"].tolist() == [value]
    assert result.branches == [("if#0", taken)]


def test_a_kept_interpreter_reports_the_same_clobber_on_every_run():
    module, _ = parse_module(FLAT_TEMPLATE.replace("BODY", "\n  ".join(CLOBBER)))
    interp = FlatInterpreter(module)
    for _ in range(2):
        with pytest.raises(ClobberError, match="reads %a but %b overwrote 8 of its 16 bytes"):
            interp.run(find_function(module), {"x": X})


def test_a_transfer_from_a_constant_delivers_its_bytes_at_the_start_though_a_copy_overwrites_them():
    """A DMA reads a constant in place; a write into the constant before the wait copies the
    transfer's bytes first, and the next run starts from the constant's own bytes again."""
    module, _ = parse_module(FLAT_TEMPLATE.replace("BODY", "\n  ".join([
        dma(tensor="a"),
        '%wv = memref.view %w[%c0][] : memref<32xi8> to memref<4xf32>',
        COPY.format(src="x", dst="wv", src_type=OFF_CHIP, dst_type=OFF_CHIP),
        WAIT.format(element="c0", count="c16"),
        VIEW.format(name="a", at="c0"),
        COPY.format(src="a", dst="o", src_type=ON_CHIP, dst_type=OFF_CHIP),
    ])))  # fmt: skip
    for check in (True, False):
        interp = FlatInterpreter(module, check=check)
        for _ in range(2):
            assert interp.run(find_function(module), {"x": X}).outputs["o"].tobytes() == bytes([7] * 16)
