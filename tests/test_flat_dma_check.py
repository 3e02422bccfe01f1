"""``nn-check-dma`` on the flat form: memref.dma_start/dma_wait against the bytes ops touch."""

from __future__ import annotations

import pytest
from conftest import EXAMPLES
from xdsl.dialects import memref

from cfmem.dma.events import Block, IfEvent, LoopEvent
from cfmem.dma.flat_hazards import Access, Bytes, FlatStart, FlatWait, check_flat
from cfmem.dma.hazards import HazardError
from cfmem.ir_io import CfmemError, load_module
from cfmem.pipeline import apply_pipeline


@pytest.fixture(scope="module")
def flat_text():
    module, _ = load_module(EXAMPLES / "wakeword.mlir")
    apply_pipeline(module, "nn-insert-dma,nn-plan-memory,nn-lower-to-memref")
    return module


def check(module):
    apply_pipeline(module, "nn-check-dma", "flat.mlir")


def test_a_correct_flat_module_passes(flat_text):
    check(flat_text.clone())


def test_a_removed_wait_is_caught(flat_text):
    module = flat_text.clone()
    next(op for op in module.walk() if isinstance(op, memref.DmaWaitOp)).detach()
    with pytest.raises(CfmemError) as err:
        check(module)
    assert err.value.message == (
        "DMA hazard in @main: 'nn.apply' (nn.conv2d) reads %det1_w_sram before the wait on the"
        " transfer of %det1_w_sram into the same bytes (region @main)"
    )


def test_every_wait_removed_inside_a_branch_is_caught(flat_text):
    module = flat_text.clone()
    for op in [op for op in module.walk() if isinstance(op, memref.DmaWaitOp) and op.parent_op().name == "scf.if"]:
        op.detach()
    with pytest.raises(CfmemError, match=r"before the wait on the transfer of .* \(region @main/if#0\.(then|else)\)"):
        check(module)


def span(lo, hi, name="t", memory="arena"):
    return Bytes(memory, lo, hi, name)


def program(*events):
    return Block("@f", list(events))


@pytest.mark.parametrize(
    "events, message",
    [
        ([FlatStart(("tag", 0), span(0, 8, "w")), Access("'nn.apply'", "reads", span(4, 12, "w"))],
         "'nn.apply' reads %w before the wait on the transfer of %w"),
        ([FlatStart(("tag", 0), span(0, 8, "w")), Access("'nn.apply'", "writes", span(0, 4, "y"))],
         "'nn.apply' writes %y before the wait"),
        ([FlatStart(("tag", 0), span(0, 8, "w")), FlatStart(("tag", 1), span(4, 8, "v"))],
         "transfer of %v overwrites bytes of arena that the transfer of %w is still writing"),
        ([FlatStart(("tag", 0), span(0, 8, "w")), FlatStart(("tag", 0), span(8, 16, "v"))],
         "transfer of %v reuses tag tag[0] before the wait on the transfer of %w"),
        ([FlatStart(("tag", 0), span(0, 8, "w"), span(0, 8, "x", memory="offchip")),
          Access("'nn.apply'", "writes", span(4, 12, "y", memory="offchip"))],
         "'nn.apply' writes %y while the transfer of %w is still reading the same bytes"),
        ([FlatStart(("tag", 0), span(0, 8, "w"), span(0, 8, "x", memory="offchip")),
          FlatStart(("tag", 1), span(0, 8, "v", memory="offchip"))],
         "transfer of %v overwrites bytes of offchip that the transfer of %w is still reading"),
        ([FlatWait(("tag", 0))], "wait on tag tag[0] with no transfer outstanding"),
        ([FlatStart(("tag", 0), span(0, 8, "w"))], "transfer of %w is never waited for"),
        ([FlatStart(("tag", 0), span(0, 8, "w")),
          IfEvent("if#0", [Block("@f/if#0.then", [FlatWait(("tag", 0))]), Block("@f/if#0.else", [])]),
          Access("'nn.apply'", "reads", span(0, 8, "w"))],
         "'nn.apply' reads %w before the wait"),
        # a loop body that prefetches for the next iteration without waiting first: the second
        # iteration reads what the first one's transfer is still writing
        ([LoopEvent("for#0", Block("@f/for#0", [Access("'nn.apply'", "reads", span(0, 8, "w")), FlatStart(("tag", 0), span(0, 8, "w"))])),
          FlatWait(("tag", 0))],
         "'nn.apply' reads %w before the wait on the transfer of %w into the same bytes"),
        # a transfer started in the body and still in flight after the loop
        ([FlatStart(("tag", 1), span(8, 16, "u")),
          LoopEvent("for#0", Block("@f/for#0", [FlatWait(("tag", 1)), FlatStart(("tag", 1), span(16, 24, "v"))])),
          Access("'nn.apply'", "reads", span(16, 24, "v"))],
         "'nn.apply' reads %v before the wait on the transfer of %v"),
    ],
)
def test_flat_rules(events, message):
    with pytest.raises(HazardError, match=message.replace("[", r"\[").replace("(", r"\(")):
        check_flat(program(*events))


def test_flat_rules_accept_a_ping_pong_loop_whose_body_waits_before_it_reads_and_prefetches_after():
    check_flat(program(
        FlatStart(("tag", 0), span(0, 8, "w")),
        LoopEvent("for#0", Block("@f/for#0", [
            FlatWait(("tag", 0)),
            Access("'nn.apply'", "reads", span(0, 8, "w")),
            FlatStart(("tag", 0), span(0, 8, "w")),
        ])),
        FlatWait(("tag", 0)),
        Access("'nn.apply'", "reads", span(0, 8, "w")),
    ))  # fmt: skip


def test_flat_rules_accept_a_wait_on_every_path_and_other_memories():
    check_flat(program(
        FlatStart(("tag", 0), span(0, 8, "w")),
        Access("'nn.apply'", "reads", span(0, 8, "x", memory="other")),
        Access("'nn.apply'", "writes", span(8, 16, "y")),
        IfEvent("if#0", [Block("a", [FlatWait(("tag", 0))]), Block("b", [FlatWait(("tag", 0))])]),
        Access("'nn.apply'", "reads", span(0, 8, "w")),
        FlatStart(("tag", 1), span(16, 24, "p"), span(0, 8, "x", memory="offchip")),
        Access("'nn.apply'", "reads", span(0, 8, "x", memory="offchip")),  # reading a source is fine
        FlatWait(("tag", 1)),
        Access("'nn.apply'", "writes", span(0, 8, "z", memory="offchip")),  # after the wait, so is writing it
    ))  # fmt: skip
