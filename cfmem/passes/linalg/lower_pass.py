"""``nn-lower-to-linalg``: every ``nn.apply`` as upstream ops on its memrefs.

Runs after ``nn-lower-to-memref``. Each ``nn.apply`` becomes ops that read its
input buffers and write its output buffer with the numbers of the numpy
kernels in :mod:`cfmem.interp.kernels`, so the module holds no ``nn`` op and
is plain upstream MLIR (linalg, memref, arith, math, scf, func). The lowering of
each op is in the module of its family, found through ``LOWERINGS``
(:mod:`cfmem.passes.linalg.dispatch`): :mod:`~cfmem.passes.linalg.elementwise`,
:mod:`~cfmem.passes.linalg.reductions`, :mod:`~cfmem.passes.linalg.named` (convolution,
matrix products, pooling), :mod:`~cfmem.passes.linalg.data_movement` and
:mod:`~cfmem.passes.linalg.quantized`. Control flow needs no lowering here:
``nn-lower-to-memref`` already made each ``nn.if`` and ``nn.loop`` an ``scf`` op, and the
``nn.apply`` ops in their bodies are lowered where they are.

Scratch buffers (softmax max and sum, arg_max's best values, top_k ranks, the i32 sums
of one output row of an int8 convolution or gemm, f16 widened copies) are planned like tensors: each ``nn.apply`` whose op
needs any takes its scratch bytes as an operand (a view of the arena where the plan put
them, live at that op only), and each buffer is a ``memref.view`` of it at the offset
``cfmem.dialects.scratch.scratch_buffers`` gives; the lowering checks that it asks for
exactly those buffers.

Quantized data is i8 or ui8; the lowering picks the unsigned ops for ui8 (``extui``,
``uitofp``, ``fptoui``, ``maxui``) and then reads every ui8 as i8 (the same bytes), as
upstream arith takes signless integers only.

f16 data: an ``nn.apply`` that reads or writes f16 widens each f16 input into an f32
scratch copy (``arith.extf``, exact), runs the op's f32 lowering into an f32 scratch output
and rounds it into the f16 output (``arith.truncf``, to nearest even): the kernels'
float32 computation and one rounding. Ops that only move elements (concat, transpose,
slice, the gathers, reshape copies) run on f16 as it is.

Assumes static shapes, f32 data (f16 widened as above; ``slice`` and the gathers take any element
type, ``cmp`` also signless integers, ``mod`` only them, the logical ops and
``select``'s condition i1) and an output buffer that overlaps none of
the inputs (the memory plan guarantees it; several lowerings write the output
before they have read every input).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import ImplicitBuilder
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from cfmem.dialects.nn_memref import ApplyOp
from cfmem.dialects.scratch import scratch_buffers
from cfmem.passes.failures import OpFailure
from cfmem.passes.linalg.dispatch import lower
from cfmem.passes.linalg.op_lowering import ConstantGlobals, OpLowering
from cfmem.passes.linalg.signedness import erase_signedness


class LowerApply(RewritePattern):
    """Replaces one ``nn.apply`` by the ops of its compute op's lowering."""

    def __init__(self, module: ModuleOp):
        self.globals = ConstantGlobals(module)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ApplyOp, rewriter: PatternRewriter) -> None:
        layout = scratch_buffers(op.compute)
        if layout and op.scratch is None:
            raise OpFailure(op, f"'{op.compute.name}' needs kernel scratch but its nn.apply has no scratch buffer")
        lowering = OpLowering(self.globals, op.scratch, layout)
        block = Block()
        with ImplicitBuilder(block):
            lower(lowering, op.compute, list(op.ins), op.outs[0])
        assert lowering.scratch_used == len(layout), f"'{op.compute.name}' used {lowering.scratch_used} of its {len(layout)} scratch buffers"
        self.globals.insert_pending(rewriter)
        ops = list(block.ops)
        for child in ops:
            child.detach()
        rewriter.replace(op, ops, [])


@dataclass(frozen=True)
class LowerToLinalgPass(ModulePass):
    """Replaces every ``nn.apply`` of a flat module by upstream linalg, memref, arith and math ops."""

    name = "nn-lower-to-linalg"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(LowerApply(op), apply_recursively=False).rewrite_module(op)
        erase_signedness(op)
