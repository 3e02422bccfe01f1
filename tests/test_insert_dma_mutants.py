"""nn-insert-dma in detail: option errors, packing at the i64 limit, the helpers' contracts, the
names and marks of every inserted op, weight views moved to the entry, loop weights at and over
the budget, resident weights, copies of prefetched results started right after they are
computed, evictions next to a loop, and the back-edge prefetch of a streamed loop body (which
bodies get it, with evicted activations and deeper rotations)."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import StringAttr, UnitAttr
from xdsl.utils.exceptions import PassFailedException

from cfmem.dialects.nn_control import IfOp
from cfmem.dialects.nn_dma import RELOAD_ATTR, DmaBufferOp, DmaStartOp, DmaWaitOp
from cfmem.interp.golden import run_function
from cfmem.ir_io import make_context, parse_module
from cfmem.passes.dma_events import check_function
from cfmem.passes.insert_dma import (
    HOISTED_ATTR,
    InsertDmaPass,
    _insert_buffers,
    packed_offsets,
    segments,
    streamed_operands,
)
from cfmem.passes.liveness import functions
from cfmem.passes.placement import OFFCHIP_ATTR, RESIDENT_ATTR, WEIGHTS_ATTR, set_offchip
from cfmem.planning.option_checks import I64_MAX
from test_loops import RECURRENT as LOOP  # a loop body of two ops with weights: the gemm's take
# 320 bytes packed at align 64, the matmul's 256, all three 576

UNNAMED = LOOP.replace("%w1", "%0").replace("%b1", "%1")
"""The same loop, the gemm's weights without names."""


def _parse(text: str):
    module, _ = parse_module(text)
    return module


def _inserted(text: str, **options):
    module = _parse(text)
    InsertDmaPass(**options).apply(make_context(), module)
    module.verify()
    check_function(functions(module)[0])
    return module


def _same_numbers(text: str, module, trips=(0, 1, 3)) -> None:
    x = np.linspace(-1, 1, 8, dtype=np.float32).reshape(1, 8)
    for n in trips:
        inputs = {"n": np.array(n, dtype=np.int64), "x": x}
        want = run_function(_parse(text), inputs).outputs
        got = run_function(module, inputs).outputs
        for name in want:
            np.testing.assert_array_equal(got[name], want[name])


def _assert_defined_before_use(module) -> None:
    for op in module.walk():
        for operand in op.operands:
            owner = operand.owner
            if isinstance(owner, DmaWaitOp | DmaStartOp) and owner.parent_block() is op.parent_block():
                assert owner.is_before_in_block(op), f"{op.name} reads %{operand.name_hint} before its definition"


def _ops(module, kind):
    return [op for op in module.walk() if isinstance(op, kind)]


def _names(values) -> list:
    return [v.name_hint for v in values]


# --- options --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"mode": "fast"}, "unknown mode 'fast' (choose from pingpong, sync)"),
        ({"buffers": "heap"}, "unknown buffer placement 'heap' (choose from region, fixed)"),
        ({"loop_weights": "cache"}, "unknown loop-weights 'cache' (choose from hoist, stream)"),
        ({"depth": 1}, "depth must be an integer from 2"),
        ({"dma_budget": -1}, "dma-budget must be an integer from 0"),
        ({"align": 0}, "align must be an integer from 1"),
    ],
)
def test_a_bad_option_is_refused_by_its_name(options, message):
    with pytest.raises(PassFailedException) as err:
        InsertDmaPass(**options).apply(make_context(), _parse(LOOP))
    assert str(err.value).startswith(message)


# --- helpers ----------------------------------------------------------------------------------


def _views(module) -> dict:
    return {op.results[0].name_hint: op.results[0] for op in module.walk() if op.name == "nn.view"}


def test_packing_aligns_every_offset_to_align_and_the_element_size():
    w = _views(_parse(LOOP))
    # at align 5, the 32 bytes of b1 take 35; w1 then needs a multiple of lcm(5, 4) = 20
    assert packed_offsets([w["b1"], w["w1"]], 5) == ([0, 40], 300)


def test_packing_fills_an_i64_exactly_but_refuses_one_byte_more():
    w = _views(_parse(LOOP))
    assert packed_offsets([w["b1"]], I64_MAX) == ([0], I64_MAX)
    with pytest.raises(PassFailedException, match=rf"^align {I64_MAX} packs weights into \d+ bytes, more than"):
        packed_offsets([w["b1"], w["w1"]], I64_MAX)


def test_segments_leave_out_the_cuts_and_the_terminator():
    module = _parse(LOOP)
    fn = functions(module)[0]
    parts = segments(fn.body.block)
    assert [[op.name for op in part][-1] for part in parts] == ["nn.relu", "nn.sigmoid"]
    body = next(op for op in module.walk() if op.name == "nn.loop").body.block
    assert [op.name for op in segments(body)[0]] == ["nn.gemm", "nn.tanh", "nn.matmul", "nn.add"]


def test_loops_and_terminators_reading_a_prefetched_copy_load_nothing_themselves():
    module = _parse(LOOP)  # %x0, evicted, is the loop's initial value
    set_offchip(next(op for op in module.walk() if op.name == "nn.relu"), True, evict=True)
    InsertDmaPass().apply(make_context(), module)
    loop = next(op for op in module.walk() if op.name == "nn.loop")
    body_yield = loop.body.block.last_op
    assert _names(loop.operands) == ["n", "t", "x0_off"] and streamed_operands(loop) == []
    body_yield.operands[1] = loop.operands[2]  # a terminator reading the copy
    assert streamed_operands(body_yield) == []


def test_weights_placed_off_chip_are_not_streamed():
    module = _parse(LOOP)
    gemm = next(op for op in module.walk() if op.name == "nn.gemm")
    gemm.attributes[WEIGHTS_ATTR] = StringAttr("offchip")
    assert streamed_operands(gemm) == []
    InsertDmaPass(loop_weights="stream").apply(make_context(), module)
    assert _names(gemm.operands[1:]) == ["w1", "b1"]
    assert [_names(s.sources) for s in _ops(module, DmaStartOp)] == [["w2"]]


def test_a_buffer_is_made_for_every_used_slot_even_after_an_unused_one():
    module = _parse(LOOP)
    relu = next(op for op in module.walk() if op.name == "nn.relu")
    buffers = _insert_buffers([1, 0, 8], relu)
    assert buffers[1] is None
    assert [(b.type.get_shape()[0], b.name_hint) for b in (buffers[0], buffers[2])] == [(1, "dma0"), (8, "dma2")]
    assert relu.prev_op is buffers[2].owner and buffers[2].owner.prev_op is buffers[0].owner


VIEW_IN_THE_BODY = LOOP.replace(
    "    %w2 = nn.view %weights[256] bytes(256) : tensor<4096xi8> to tensor<8x8xf32>\n", ""
).replace(
    "      %m = nn.matmul",
    "      %w2 = nn.view %weights[256] bytes(256) : tensor<4096xi8> to tensor<8x8xf32>\n      %m = nn.matmul",
)
"""The loop body views %w2 itself, right before the matmul reads it."""


@pytest.mark.parametrize("loop_weights", ["hoist", "stream"])
def test_weight_views_move_to_the_entry_in_order_so_every_transfer_can_read_them(loop_weights):
    assert VIEW_IN_THE_BODY != LOOP
    module = _inserted(VIEW_IN_THE_BODY, loop_weights=loop_weights)
    entry = functions(module)[0].body.block
    views = [op.results[0].name_hint for op in module.walk() if op.name == "nn.view"]
    assert views == ["w1", "b1", "w2"]
    assert [op.name for op in entry.ops][:4] == ["nn.get_global"] + ["nn.view"] * 3
    _assert_defined_before_use(module)
    _same_numbers(VIEW_IN_THE_BODY, module)


# --- loop weights -----------------------------------------------------------------------------


def test_hoisted_loop_weights_are_marked_and_named():
    module = _inserted(LOOP)
    buffer, start, wait = (op for op in module.walk() if HOISTED_ATTR in op.attributes)
    assert isinstance(buffer, DmaBufferOp) and buffer.result.name_hint == "loop_weights"
    assert isinstance(start, DmaStartOp) and start.token.name_hint == "load_loop"
    assert isinstance(wait, DmaWaitOp) and wait.next_op.name == "nn.loop"
    assert _names(start.sources) == ["w1", "b1", "w2"] and list(start.byte_offsets) == [0, 256, 320]
    _same_numbers(LOOP, module)


def test_loop_weights_over_the_budget_are_streamed_each_iteration():
    module = _inserted(LOOP, dma_budget=400)  # each op's weights fit, all three (576) do not
    assert not any(HOISTED_ATTR in op.attributes for op in module.walk())
    loop = next(op for op in module.walk() if op.name == "nn.loop")
    assert sum(isinstance(op, DmaStartOp) for op in loop.body.walk()) == 2
    _same_numbers(LOOP, module)


def test_loop_weights_exactly_at_the_budget_are_hoisted():
    module = _inserted(LOOP, dma_budget=576)
    start = next(op for op in module.walk() if isinstance(op, DmaStartOp) and HOISTED_ATTR in op.attributes)
    assert _names(start.sources) == ["w1", "b1", "w2"]
    _same_numbers(LOOP, module)


def test_a_hoisted_loop_leaves_the_weights_of_an_op_placed_off_chip_off_chip():
    module = _parse(LOOP)
    gemm = next(op for op in module.walk() if op.name == "nn.gemm")
    gemm.attributes[WEIGHTS_ATTR] = StringAttr("offchip")
    InsertDmaPass().apply(make_context(), module)
    (start,) = _ops(module, DmaStartOp)
    assert HOISTED_ATTR in start.attributes and _names(start.sources) == ["w2"]
    assert _names(gemm.operands[1:]) == ["w1", "b1"]
    _same_numbers(LOOP, module)


# --- resident weights -------------------------------------------------------------------------


def test_resident_weights_load_once_right_after_the_weight_views_and_keep_their_marks_in_print():
    module = _parse(LOOP)
    matmul = next(op for op in module.walk() if op.name == "nn.matmul")
    matmul.attributes[WEIGHTS_ATTR] = StringAttr("resident")
    InsertDmaPass().apply(make_context(), module)
    entry = functions(module)[0].body.block
    names = [op.name for op in entry.ops][:7]
    assert names == ["nn.get_global"] + ["nn.view"] * 3 + ["nn.dma_buffer", "nn.dma_start", "nn.dma_wait"]
    buffer, start, wait = list(entry.ops)[4:7]
    assert buffer.result.name_hint == "resident" and start.token.name_hint == "load_resident"
    assert _names(start.sources) == ["w2"] and _names(matmul.operands[1:]) == ["w2_sram"]
    _same_numbers(LOOP, module)
    # lowering finds the resident load by its marks in the printed IR
    printed = _parse(str(module))
    assert [op.name for op in printed.walk() if RESIDENT_ATTR in op.attributes] == names[4:]
    assert [op.name for op in printed.walk() if HOISTED_ATTR in op.attributes] == names[4:]


# --- the back-edge prefetch of a streamed loop body -------------------------------------------


def _reload(module) -> DmaStartOp | None:
    found = [s for s in _ops(module, DmaStartOp) if RELOAD_ATTR in s.attributes]
    assert len(found) <= 1
    return found[0] if found else None


def test_a_two_op_body_reloads_its_first_weights_during_its_last_op():
    module = _inserted(LOOP, loop_weights="stream")
    reload = _reload(module)
    assert reload is not None and reload.attributes[RELOAD_ATTR] == UnitAttr()
    assert reload.token.name_hint == "reload" and reload.next_op.name == "nn.matmul"
    wait = next(iter(reload.token.uses)).operation
    assert _names(wait.results) == ["w1_next", "b1_next"] and wait.next_op.name == "nn.yield"
    gemm = next(op for op in module.walk() if op.name == "nn.gemm")
    assert _names(gemm.operands[1:]) == ["w1_sram", "b1_sram"]
    _same_numbers(LOOP, module)


def test_weights_without_names_get_names_from_w():
    module = _inserted(UNNAMED, loop_weights="stream")
    wait = next(iter(_reload(module).token.uses)).operation
    assert _names(wait.results) == ["w_next", "w_next"]
    gemm = next(op for op in module.walk() if op.name == "nn.gemm")
    assert _names(gemm.operands[1:]) == ["w_sram", "w_sram"]


def test_three_buffers_prefetch_a_two_op_body_too():
    module = _inserted(LOOP, loop_weights="stream", depth=3)
    assert _reload(module) is not None
    _same_numbers(LOOP, module)


def test_a_body_whose_second_op_reads_an_evicted_copy_still_prefetches_its_first_weights():
    text = LOOP.replace("%r = nn.tanh %g", "%r = nn.tanh %a")  # the gemm's result is read by the matmul only
    text = text.replace("%m = nn.matmul %r, %w2", "%m = nn.matmul %g, %w2")
    module = _parse(text)
    set_offchip(next(op for op in module.walk() if op.name == "nn.gemm"), True, evict=True)
    InsertDmaPass(loop_weights="stream").apply(make_context(), module)
    module.verify()
    _assert_defined_before_use(module)
    assert _reload(module) is not None
    matmul = next(op for op in module.walk() if op.name == "nn.matmul")
    assert _names(matmul.operands) == ["g_off_sram", "w2_sram"]
    _same_numbers(text, module)


THREE_LOADS = LOOP.replace(
    "%s = nn.add %m, %a",
    """%p = nn.relu %m : (tensor<1x8xf32>) -> tensor<1x8xf32>
      %q = nn.matmul %p, %w2 : (tensor<1x8xf32>, tensor<8x8xf32>) -> tensor<1x8xf32>
      %s = nn.add %q, %a""",
)
"""A body of three loaded ops: the gemm, the matmul, and a second matmul reading %p, computed after the first."""


def test_a_prefetched_body_copies_in_a_late_result_only_after_it_is_computed():
    module = _parse(THREE_LOADS)
    relu = next(op for op in module.walk() if op.name == "nn.relu" and op.results[0].name_hint == "p")
    set_offchip(relu, True, prefetch=True)  # the second matmul reads %p by DMA
    InsertDmaPass(loop_weights="stream", depth=3).apply(make_context(), module)
    module.verify()
    assert _reload(module) is not None
    copy = next(s for s in _ops(module, DmaStartOp) if "p" in _names(s.sources))
    assert copy.prev_op is relu
    _same_numbers(THREE_LOADS, module)


# --- evicted activations ----------------------------------------------------------------------

EVICTIONS = """
func.func @main(%x: tensor<1x8xf32>) -> tensor<1x8xf32> {
  %a = nn.relu %x : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %0 = nn.tanh %x : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %b = nn.sigmoid %x : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %y = nn.add %a, %0 : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
  %d = nn.relu %y : (tensor<1x8xf32>) -> tensor<1x8xf32>
  func.return %y : tensor<1x8xf32>
}
"""
"""%a and an unnamed result read by the add; %d, last before the return, read by nothing."""


def test_evicted_results_are_copied_out_under_their_names_and_a_last_one_waited_before_the_return():
    module = _parse(EVICTIONS)
    for op in list(module.walk()):
        if op.name in ("nn.relu", "nn.tanh"):
            set_offchip(op, True, evict=True)
    InsertDmaPass().apply(make_context(), module)
    module.verify()
    buffers = [b for b in _ops(module, DmaBufferOp) if OFFCHIP_ATTR in b.attributes]
    assert [b.result.name_hint for b in buffers[:3]] == ["a_out", "t_out", "d_out"]
    starts = [s for s in _ops(module, DmaStartOp) if s.buffer in {b.result for b in buffers[:3]}]
    assert [s.token.name_hint for s in starts] == ["evict"] * 3
    waits = [next(iter(s.token.uses)).operation for s in starts]
    assert [w.results[0].name_hint for w in waits] == ["a_off", "t_off", "d_off"]
    assert waits[2].next_op.name == "func.return"
    x = np.linspace(-1, 1, 8, dtype=np.float32).reshape(1, 8)
    np.testing.assert_array_equal(
        run_function(module, {"x": x}).outputs["y"], run_function(_parse(EVICTIONS), {"x": x}).outputs["y"]
    )


IDLE_OVER_THE_LOOP = LOOP.replace("%h = nn.loop %n, %t (%x0)", "%h = nn.loop %n, %t (%x)").replace(
    "%y = nn.sigmoid %h : (tensor<1x8xf32>) -> tensor<1x8xf32>",
    "%y = nn.add %h, %x0 : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>",
)
"""%x0 is computed right before the loop and read only after it."""


@pytest.mark.parametrize("loop_weights", ["hoist", "stream"])
def test_a_result_evicted_right_before_a_loop_that_does_not_read_it_is_written_out_before_the_loop(loop_weights):
    module = _parse(IDLE_OVER_THE_LOOP)
    set_offchip(next(op for op in module.walk() if op.name == "nn.relu"), True, evict=True)
    InsertDmaPass(loop_weights=loop_weights).apply(make_context(), module)  # checks the hazards
    module.verify()
    loop = next(op for op in module.walk() if op.name == "nn.loop")
    wait = next(w for w in _ops(module, DmaWaitOp) if _names(w.results) == ["x0_off"])
    assert wait.is_before_in_block(loop)
    add = functions(module)[0].body.block.last_op.operands[0].owner
    assert _names(add.operands) == ["h", "x0_off_sram"]
    _same_numbers(IDLE_OVER_THE_LOOP, module)


def test_a_prefetched_result_is_copied_in_right_after_the_op_that_computes_it():
    module = _parse(LOOP)
    gemm = next(op for op in module.walk() if op.name == "nn.gemm")
    set_offchip(gemm, True, prefetch=True)  # the tanh after it reads %g by DMA
    InsertDmaPass(loop_weights="stream").apply(make_context(), module)
    module.verify()
    copy = next(s for s in _ops(module, DmaStartOp) if _names(s.sources) == ["g"])
    assert copy.prev_op is gemm
    _same_numbers(LOOP, module)


# --- segments, slots and buffer placement -----------------------------------------------------

AFTER_A_LOOP = LOOP.replace(
    "%y = nn.sigmoid %h : (tensor<1x8xf32>) -> tensor<1x8xf32>",
    "%y = nn.matmul %h, %w2 : (tensor<1x8xf32>, tensor<8x8xf32>) -> tensor<1x8xf32>",
)
"""The first segment loads nothing; the one after the loop does."""


def test_a_segment_after_one_without_weights_still_loads():
    module = _inserted(AFTER_A_LOOP, loop_weights="stream")
    matmul = functions(module)[0].body.block.last_op.operands[0].owner
    assert matmul.name == "nn.matmul" and _names(matmul.operands) == ["h", "w2_sram"]
    _same_numbers(AFTER_A_LOOP, module)



TWO_LOOPS = LOOP.replace(
    "    %y = nn.sigmoid %h : (tensor<1x8xf32>) -> tensor<1x8xf32>",
    """    %h2 = nn.loop %n, %t (%h) : (tensor<i64>, tensor<i1>, tensor<1x8xf32>) -> (tensor<1x8xf32>) {
    ^bb0(%i2: tensor<i64>, %c2: tensor<i1>, %a2: tensor<1x8xf32>):
      %g2 = nn.gemm %a2, %w1, %b1 {trans_b = true} : (tensor<1x8xf32>, tensor<8x8xf32>, tensor<8xf32>) -> tensor<1x8xf32>
      %m2 = nn.matmul %g2, %w2 : (tensor<1x8xf32>, tensor<8x8xf32>) -> tensor<1x8xf32>
      nn.yield %t, %m2 : tensor<i1>, tensor<1x8xf32>
    }
    %y = nn.sigmoid %h2 : (tensor<1x8xf32>) -> tensor<1x8xf32>""",
)
"""Two loops one after the other, each body of two ops with weights (both prefetch across their back edge)."""


def test_every_loop_body_prefetching_across_its_back_edge_gets_its_transfers():
    module = _inserted(TWO_LOOPS, loop_weights="stream")
    reloads = [op for op in _ops(module, DmaStartOp) if RELOAD_ATTR in op.attributes]
    assert len(reloads) == 2
    second = next(op for op in module.walk() if op.results and op.results[0].name_hint == "m2")
    assert _names(second.operands) == ["g2", "w2_sram"]
    _same_numbers(TWO_LOOPS, module)

def test_only_used_slots_get_a_buffer():
    module = _inserted(LOOP, loop_weights="stream", depth=4)  # two loaded ops, four slots
    assert sorted(b.result.name_hint for b in _ops(module, DmaBufferOp)) == ["dma0", "dma1"]


def test_region_buffers_live_in_the_loop_body():
    module = _inserted(LOOP, loop_weights="stream", loop_prefetch=False)
    loop = next(op for op in module.walk() if op.name == "nn.loop")
    assert all(b.parent_block() is loop.body.block for b in _ops(module, DmaBufferOp))
    assert len(_ops(module, DmaBufferOp)) == 2


def test_fixed_buffers_are_defined_once_after_the_weight_views():
    module = _inserted(AFTER_A_LOOP, loop_weights="stream", loop_prefetch=False, buffers="fixed")
    entry = functions(module)[0].body.block
    names = [op.name for op in entry.ops]
    assert names[:7] == ["nn.get_global"] + ["nn.view"] * 3 + ["nn.dma_buffer"] * 2 + ["nn.constant"]
    assert [b.result.type.get_shape()[0] for b in _ops(module, DmaBufferOp)] == [320, 256]
    _same_numbers(AFTER_A_LOOP, module)


def test_a_module_with_transfers_is_refused():
    module = _inserted(LOOP)
    with pytest.raises(PassFailedException) as err:
        InsertDmaPass().apply(make_context(), module)
    assert str(err.value) == "the module already has DMA transfers"


# --- the DMA budget -----------------------------------------------------------------------------


def test_an_op_at_the_budget_streams_and_one_after_an_op_over_it_too(capfd):
    text = LOOP.replace("%g", "%5")  # the gemm's result without a name
    module = _inserted(text, loop_weights="stream", dma_budget=256)
    assert "'nn.gemm' (%?) needs 320 bytes of weights, more than the DMA budget of 256" in capfd.readouterr().err
    gemm = next(op for op in module.walk() if op.name == "nn.gemm")
    matmul = next(op for op in module.walk() if op.name == "nn.matmul")
    assert _names(gemm.operands[1:]) == ["w1", "b1"] and _names(matmul.operands[1:]) == ["w2_sram"]
    _same_numbers(text, module)


# --- rotation depth and the hazard check ------------------------------------------------------


def test_sync_mode_loads_each_op_right_before_it_through_one_buffer():
    module = _inserted(LOOP, mode="sync", loop_weights="stream")
    body = next(op for op in module.walk() if op.name == "nn.loop").body.block
    assert [op.name for op in body.ops][:6] == ["nn.dma_buffer", "nn.dma_start", "nn.dma_wait", "nn.gemm", "nn.tanh",
                                                "nn.dma_start"]  # fmt: skip
    assert len(_ops(module, DmaBufferOp)) == 1 and _reload(module) is None
    _same_numbers(LOOP, module)


def test_a_function_depth_out_of_range_is_refused_by_its_name():
    from cfmem.passes.placement import DEPTH_ATTR, set_function_int

    module = _parse(LOOP)
    set_function_int(functions(module)[0], DEPTH_ATTR, 0)
    with pytest.raises(PassFailedException) as err:
        InsertDmaPass().apply(make_context(), module)
    assert str(err.value).startswith(f"function @main: {DEPTH_ATTR} must be an integer from 1 to ")
    assert "(1 is sync), not 0" in str(err.value)


def test_an_unchecked_insertion_leaves_out_the_hazard_check(monkeypatch):
    import cfmem.passes.insert_dma as insert_dma

    checked = []
    monkeypatch.setattr(insert_dma, "check_inserted", checked.append)
    InsertDmaPass().insert_module(_parse(LOOP), checked=False)
    assert checked == []
    InsertDmaPass().insert_module(_parse(LOOP))
    assert len(checked) == 1
