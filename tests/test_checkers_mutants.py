"""Broken and borderline cases for the checkers, found by mutation testing.

Each test feeds the plan verifier, a DMA hazard checker or the flat interpreter
a case one of its rules decides, so that a checker which lost or bent that rule
fails here (``make mutation`` lists the mutants these tests kill).
"""

from __future__ import annotations

import numpy as np
import pytest

from cfmem.dma.events import Block, Compute, IfEvent, LoopEvent, Start, Wait
from cfmem.dma.flat_hazards import Bytes, FlatStart, FlatWait, check_flat
from cfmem.dma.hazards import HazardError, check
from cfmem.interp.flat import ClobberError, FlatInterpreter
from cfmem.interp.golden import InterpError, find_function
from cfmem.ir_io import parse_module
from cfmem.planning.problem import Buffer
from cfmem.planning.verify import PlanError, verify_plan


def test_two_live_buffers_on_the_same_bytes_are_refused():
    buffers = [Buffer("a", 0, 2, 4), Buffer("b", 1, 3, 4)]
    with pytest.raises(PlanError, match="'a' .* and 'b' .* overlap"):
        verify_plan(buffers, {"a": 0, "b": 2})


# --- DMA hazards on events -------------------------------------------------------


def test_a_transfer_just_below_data_still_to_be_read_is_allowed():
    """Ranges [0, 4) and [4, 8) share no byte, whichever transfer came first."""
    check(Block("@f", [
        Start("t1", "buf", ((4, 8),), 4),
        Wait("t1"),
        Start("t2", "buf", ((0, 4),), 4),
        Wait("t2"),
        Compute("op", reads=("t1", "t2")),
    ]))  # fmt: skip


def reload_loop(reloads: dict[str, str]) -> Block:
    """Weights ``p`` loaded before a loop whose every iteration reads the weights and then
    reloads them (``q``) into the same bytes for the next: iteration 2 reads ``q`` of
    iteration 1, never ``p`` again."""
    body = Block("body", [Compute("use", reads=("p",)), Start("q", "buf", ((0, 8),), 8), Wait("q")])
    return Block("@f", [Start("p", "buf", ((0, 8),), 8), Wait("p"), LoopEvent("loop#0", body, reloads=reloads)])


def test_a_reload_across_the_back_edge_is_what_the_next_iteration_reads():
    check(reload_loop({"p": "q"}))
    # without the back edge's renaming, iteration 2 would still read p, which q overwrote
    with pytest.raises(HazardError, match="transfer q@1 overwrites bytes of buf that are still to be read from transfer p"):
        check(reload_loop({}))


def test_a_transfer_outstanding_at_a_loop_names_the_loop():
    body = Block("body", [Compute("use")])
    with pytest.raises(HazardError, match="transfer p into buf is still outstanding at the loop#0 of region @f"):
        check(Block("@f", [Start("p", "buf", ((0, 8),), 8), LoopEvent("loop#0", body), Wait("p")]))


# --- DMA hazards on the flat form -------------------------------------------------


def test_a_tag_element_that_is_not_a_constant_is_shown_as_a_question_mark():
    start = FlatStart(("tags", None), Bytes("arena", 0, 8, "w"))
    with pytest.raises(HazardError, match=r"reuses tag tags\[\?\] before"):
        check_flat(Block("@f", [start, FlatStart(("tags", None), Bytes("arena", 8, 16, "v"))]))
    with pytest.raises(HazardError, match=r"wait on tag tags\[\?\] with no transfer"):
        check_flat(Block("@f", [FlatWait(("tags", None))]))


# --- the flat interpreter's DMA in-flight checks ----------------------------------

FLAT_TEMPLATE = """
"memref.global"() <{sym_name = "w", type = memref<32xi8>, initial_value = dense<7> : tensor<32xi8>, sym_visibility = "private", constant}> : () -> ()
"memref.global"() <{sym_name = "arena", type = memref<32xi8, 1 : i64>, initial_value, sym_visibility = "private"}> : () -> ()
func.func @main(%x: memref<4xf32>, %o: memref<4xf32>) attributes {cfmem.output_names = ["o"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %w = memref.get_global @w : memref<32xi8>
  %arena = memref.get_global @arena : memref<32xi8, 1 : i64>
  %tag = memref.alloca() : memref<2xi32>
  BODY
  func.return
}
"""
DMA = ('"memref.dma_start"(%w, %c0, %arena, %{at}, %{count}, %tag, %{element}) {{operandSegmentSizes = array<i32: 1, 1, 1,'
       ' 1, 1, 1, 1>{attrs}}} : (memref<32xi8>, index, memref<32xi8, 1 : i64>, index, index, memref<2xi32>, index) -> ()')
WAIT = '"memref.dma_wait"(%tag, %{element}, %{count}) : (memref<2xi32>, index, index) -> ()'
VIEW = '%{name} = memref.view %arena[%{at}][] {{cfmem.tensor = "{name}"}} : memref<32xi8, 1 : i64> to memref<4xf32, 1 : i64>'
COPY = '"memref.copy"(%{src}, %{dst}) : ({src_type}, {dst_type}) -> ()'
ON_CHIP = "memref<4xf32, 1 : i64>"
OFF_CHIP = "memref<4xf32>"


def dma(at="c0", count="c16", element="c0", tensor="a"):
    attrs = f', cfmem.tensor = "{tensor}"' if tensor else ""
    return DMA.format(at=at, count=count, element=element, attrs=attrs)


def run_body(*lines):
    module, _ = parse_module(FLAT_TEMPLATE.replace("BODY", "\n  ".join(lines)))
    ops = [op for op in find_function(module).body.block.ops]
    x = np.arange(4, dtype=np.float32)
    return ops, lambda: FlatInterpreter(module).run(find_function(module), {"x": x})


def test_a_dma_over_bytes_another_dma_still_writes_is_a_clobber():
    ops, run = run_body(dma(tensor="a"), dma(at="c8", element="c1", tensor="b"))
    with pytest.raises(ClobberError) as err:
        run()
    assert str(err.value) == (
        "'memref.dma_start' overwrites %b while the DMA of %a into the same bytes has not been waited for"
    )
    assert err.value.op is [op for op in ops if op.name == "memref.dma_start"][1]


def test_reusing_a_busy_tag_element_is_refused_at_the_second_start():
    ops, run = run_body(dma(count="c8", tensor="a"), dma(at="c16", count="c8", tensor="b"))
    with pytest.raises(InterpError) as err:
        run()
    assert str(err.value) == "reuses a DMA tag whose transfer has not been waited for"
    assert err.value.op is [op for op in ops if op.name == "memref.dma_start"][1]


def test_a_copy_over_bytes_a_dma_still_writes_is_a_clobber():
    ops, run = run_body(dma(tensor="a"), VIEW.format(name="y", at="c8"), COPY.format(src="x", dst="y", src_type=OFF_CHIP, dst_type=ON_CHIP))
    with pytest.raises(ClobberError) as err:
        run()
    assert str(err.value) == (
        "'memref.copy' overwrites %y while the DMA of %a into the same bytes has not been waited for"
    )
    assert err.value.op is next(op for op in ops if op.name == "memref.copy")


def test_a_dma_without_a_tensor_name_runs_and_delivers_its_bytes():
    """Unnamed DMAs and views (hand-written flat IR) carry no owner but still move data."""
    ops, run = run_body(dma(tensor=None), WAIT.format(element="c0", count="c16"),
                        '%y = memref.view %arena[%c0][] : memref<32xi8, 1 : i64> to memref<4xf32, 1 : i64>',
                        COPY.format(src="y", dst="o", src_type=ON_CHIP, dst_type=OFF_CHIP))
    got = run().outputs["o"]
    assert got.tobytes() == bytes([7] * 16)


RELU = """nn.apply ins(%{src} : memref<4xf32, 1 : i64>) outs(%{dst} : memref<4xf32, 1 : i64>) {{
  ^bb0(%t: tensor<4xf32>):
    %r = nn.relu %t : (tensor<4xf32>) -> tensor<4xf32>
    nn.yield %r : tensor<4xf32>
  }}"""


def test_an_op_writing_over_its_own_input_is_named_with_both_tensors():
    ops, run = run_body(VIEW.format(name="y", at="c0"), COPY.format(src="x", dst="y", src_type=OFF_CHIP, dst_type=ON_CHIP),
                        VIEW.format(name="z", at="c8"), RELU.format(src="y", dst="z"))
    with pytest.raises(ClobberError) as err:
        run()
    assert str(err.value) == "'nn.relu' writes %z over its own input %y"
    assert err.value.op is next(op for op in ops if op.name == "nn.apply")


def test_an_op_writing_into_bytes_a_dma_still_writes_is_a_clobber():
    ops, run = run_body(VIEW.format(name="y", at="c0"), COPY.format(src="x", dst="y", src_type=OFF_CHIP, dst_type=ON_CHIP),
                        dma(at="c16", tensor="a"), VIEW.format(name="z", at="c16"), RELU.format(src="y", dst="z"))
    with pytest.raises(ClobberError) as err:
        run()
    assert str(err.value) == (
        "'nn.apply' overwrites %z while the DMA of %a into the same bytes has not been waited for"
    )
    assert err.value.op is next(op for op in ops if op.name == "nn.apply")


def test_named_views_of_a_scratch_buffer_are_not_owned_but_still_hold_data():
    """Only globals get an owner map; a named view of an alloca is written and read freely."""
    ops, run = run_body(
        "%scratch = memref.alloca() : memref<16xi8>",
        '%s = memref.view %scratch[%c0][] {cfmem.tensor = "s"} : memref<16xi8> to memref<4xf32>',
        COPY.format(src="x", dst="s", src_type=OFF_CHIP, dst_type=OFF_CHIP),
        COPY.format(src="s", dst="o", src_type=OFF_CHIP, dst_type=OFF_CHIP),
    )
    np.testing.assert_array_equal(run().outputs["o"], np.arange(4, dtype=np.float32))


# --- the plan verifier's messages and the DMA checker's resident data -------------


def test_the_overlap_message_names_both_buffers_and_their_bytes():
    with pytest.raises(PlanError) as err:
        verify_plan([Buffer("a", 0, 2, 4), Buffer("b", 1, 3, 4)], {"a": 0, "b": 2})
    assert str(err.value) == (
        "buffers 'a' [0, 2) bytes [0, 4) and 'b' [1, 3) bytes [2, 6) are live together and overlap"
    )


def test_a_buffer_id_given_twice_is_refused():
    with pytest.raises(PlanError) as err:
        verify_plan([Buffer("a", 0, 1, 4), Buffer("a", 1, 2, 4)], {"a": 0})
    assert str(err.value) == "buffer id 'a' appears twice"


def test_a_non_integer_offset_is_refused():
    with pytest.raises(PlanError) as err:
        verify_plan([Buffer("a", 0, 1, 4)], {"a": 1.5})
    assert str(err.value) == "buffer 'a' has a non-integer offset 1.5"


def test_a_token_started_twice_is_named():
    with pytest.raises(HazardError) as err:
        check(Block("@f", [Start("t", "buf", ((0, 4),), 4), Start("t", "buf", ((4, 8),), 4)]))
    assert str(err.value) == "token t is started twice in region @f"


def test_overwriting_data_nobody_reads_is_allowed():
    check(Block("@f", [
        Start("t1", "buf", ((0, 4),), 4), Wait("t1"),
        Start("t2", "buf", ((0, 4),), 4), Wait("t2"),
        Compute("op", reads=("t2",)),
    ]))  # fmt: skip


def test_data_still_to_be_read_stays_guarded_after_a_transfer_beside_it():
    """t2 lands next to t1's bytes; t3 then overwrites t1's bytes before their reader."""
    with pytest.raises(HazardError, match="transfer t3 overwrites bytes of buf that are still to be read from transfer t1"):
        check(Block("@f", [
            Start("t1", "buf", ((0, 4),), 4), Wait("t1"),
            Start("t2", "buf", ((4, 8),), 4), Wait("t2"),
            Start("t3", "buf", ((0, 4),), 4), Wait("t3"),
            Compute("op", reads=("t1", "t2", "t3")),
        ]))  # fmt: skip


def test_a_transfer_waited_in_the_other_branch_is_outstanding_at_the_end_of_its_own():
    with pytest.raises(HazardError) as err:
        check(Block("@f", [IfEvent("if#0", [
            Block("if#0.then", [Start("t", "buf", ((0, 4),), 4)]),
            Block("if#0.else", [Wait("t")]),
        ])]))  # fmt: skip
    assert str(err.value) == "transfer t into buf is still outstanding at the end of region if#0.then"


def overwrite_in_else(*reads_after: Compute) -> Block:
    """t1 is read in the then branch; the else branch overwrites its bytes with t2."""
    return Block("@f", [
        Start("t1", "buf", ((0, 4),), 4), Wait("t1"),
        IfEvent("if#0", [
            Block("if#0.then", [Compute("a", reads=("t1",))]),
            Block("if#0.else", [Start("t2", "buf", ((0, 4),), 4), Wait("t2"), Compute("b", reads=("t2",))]),
        ]),
        *reads_after,
    ])  # fmt: skip


def test_data_read_only_in_a_sibling_branch_may_be_overwritten():
    check(overwrite_in_else())


def test_data_read_after_the_if_stays_guarded_in_every_branch():
    with pytest.raises(HazardError, match="transfer t2 overwrites bytes of buf that are still to be read from transfer t1"):
        check(overwrite_in_else(Compute("c", reads=("t1",))))


def test_data_read_twice_stays_guarded_until_its_second_reader():
    first_read = [Start("t1", "buf", ((0, 4),), 4), Wait("t1"), Compute("a", reads=("t1",))]
    overwrite = [Start("t2", "buf", ((0, 4),), 4), Wait("t2")]
    check(Block("@f", first_read + [Compute("b", reads=("t1",))] + overwrite))
    with pytest.raises(HazardError, match="still to be read from transfer t1"):
        check(Block("@f", first_read + overwrite + [Compute("b", reads=("t1",))]))
