"""DMA insertion keeps the numbers, and the hazard checker catches each broken rule."""

import numpy as np
import pytest
from xdsl.rewriter import InsertPoint, Rewriter

from cfmem.dialects.nn_control import IfOp
from cfmem.dialects.nn_dma import DmaStartOp, DmaWaitOp
from cfmem.dma.events import Block, Compute, IfEvent, Start, Wait
from cfmem.dma.hazards import HazardError, check
from cfmem.interp.golden import find_function, random_inputs, run_function
from cfmem.ir_io import load_module, make_context
from cfmem.passes.dma_events import check_function
from cfmem.passes.insert_dma import InsertDmaPass

from conftest import EXAMPLES

MODELS = sorted(EXAMPLES.glob("*.mlir"))


def with_dma(path, **options):
    module, _ = load_module(path)
    InsertDmaPass(**options).apply(make_context(), module)
    module.verify()
    return module


@pytest.mark.parametrize("model", MODELS, ids=lambda p: p.stem)
@pytest.mark.parametrize(
    "options",
    [{}, {"mode": "sync"}, {"buffers": "fixed"}, {"align": 3}],
    ids=["pingpong", "sync", "fixed", "align-not-a-multiple-of-the-element-size"],
)
def test_insertion_keeps_outputs_and_passes_the_checker(model, options):
    original, _ = load_module(model)
    module = with_dma(model, **options)
    fn = find_function(module)
    check_function(fn)
    starts = [op for op in fn.walk() if isinstance(op, DmaStartOp)]
    assert starts and len(starts) == sum(isinstance(op, DmaWaitOp) for op in fn.walk())
    inputs = random_inputs(fn, 3)
    want = run_function(original, inputs).outputs
    got = run_function(module, inputs).outputs
    for name in want:
        np.testing.assert_array_equal(got[name], want[name])


def test_ops_over_the_budget_read_off_chip(capfd):
    module = with_dma(EXAMPLES / "wakeword.mlir", dma_budget=100_000)
    err = capfd.readouterr().err
    assert "'nn.conv2d' (%ver4)" in err and "more than the DMA budget of 100000" in err
    consumer = next(op for op in module.walk() if op.results and op.results[0].name_hint == "ver4")
    assert not any(isinstance(v.owner, DmaWaitOp) for v in consumer.operands)
    check_function(find_function(module))


# --- mutations of a correct program, each breaking one rule ---------------------


def straight_line():
    module = with_dma(EXAMPLES / "facedetect.mlir")
    return module, find_function(module)


def test_checker_rejects_a_wait_moved_after_its_consumer():
    module, fn = straight_line()
    wait = next(op for op in fn.walk() if isinstance(op, DmaWaitOp))
    consumer = next(iter(wait.results[0].uses)).operation
    wait.detach()
    Rewriter.insert_op(wait, InsertPoint.after(consumer))
    with pytest.raises(HazardError, match=r"reads the data of transfer %load.* before its wait"):
        check_function(fn)


def test_checker_rejects_a_transfer_into_a_buffer_still_being_read():
    module, fn = straight_line()
    starts = [op for op in fn.walk() if isinstance(op, DmaStartOp)]
    # the third transfer reuses buffer 0: start it before the first op has read it
    first_reader = next(iter(next(iter(starts[0].token.uses)).operation.results[0].uses)).operation
    starts[2].detach()
    Rewriter.insert_op(starts[2], InsertPoint.before(first_reader))
    with pytest.raises(HazardError, match=r"overwrites bytes of %dma0 that are still to be read from transfer %load"):
        check_function(fn)


def test_checker_rejects_a_transfer_outstanding_at_a_branch_end():
    module = with_dma(EXAMPLES / "wakeword.mlir")
    fn = find_function(module)
    branch = next(op for op in fn.walk() if isinstance(op, IfOp)).then_region.block
    start = next(op for op in branch.ops if isinstance(op, DmaStartOp))
    extra = DmaStartOp(list(start.sources), start.buffer, start.byte_offsets)
    Rewriter.insert_op(extra, InsertPoint.before(branch.last_op))
    with pytest.raises(HazardError, match=r"still outstanding at the end of region @main/if#0.then"):
        check_function(fn)


def test_checker_event_rules_directly():
    s = Start("t", "buf", ((0, 64),), 64)
    check(Block("f", [s, Wait("t"), Compute("op", reads=("t",))]))
    with pytest.raises(HazardError, match="waited twice"):
        check(Block("f", [s, Wait("t"), Wait("t")]))
    with pytest.raises(HazardError, match="before its start"):
        check(Block("f", [Wait("t")]))
    with pytest.raises(HazardError, match="outstanding at the if#0 of region f"):
        check(Block("f", [s, IfEvent("if#0", [Block("f/then"), Block("f/else")]), Wait("t")]))
    # a transfer into other bytes of the same buffer is fine while the first is read
    s2 = Start("u", "buf", ((64, 128),), 64)
    check(Block("f", [s, Wait("t"), s2, Compute("a", reads=("t",)), Wait("u"), Compute("b", reads=("u",))]))


SCF_IF = """nn.global @w size(64) seed(1)
func.func @main(%x: tensor<4xf32>, %c: i1) -> tensor<4xf32> {
  %r = scf.if %c -> (tensor<4xf32>) {
    %b = nn.get_global @w : tensor<64xi8>
    %k = nn.view %b[0] bytes(16) : tensor<64xi8> to tensor<4xf32>
    %t = nn.add %x, %k : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    scf.yield %t : tensor<4xf32>
  } else {
    scf.yield %x : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}
"""


def test_insertion_refuses_control_flow_it_cannot_see_into():
    from xdsl.utils.exceptions import PassFailedException

    from cfmem.ir_io import parse_module

    module, _ = parse_module(SCF_IF)
    with pytest.raises(PassFailedException, match="'scf.if' .*only nn.if and nn.loop regions"):
        InsertDmaPass().apply(make_context(), module)
