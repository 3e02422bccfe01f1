"""What one ``nn.apply``'s lowering works with: the constant globals the pass adds to the
module, and the op's kernel scratch buffers (f16 operands widened into f32 ones among them).

Scratch buffers (softmax max and sum, arg_max's best values, top_k ranks, the i32 sums of one
output row of an int8 convolution or gemm, f16 widened copies) are planned like tensors: each
``nn.apply`` whose op needs any takes its scratch bytes as an operand (a view of the arena where
the plan put them, live at that op only), and each buffer is a ``memref.view`` of it at the
offset ``cfmem.dialects.scratch.scratch_buffers`` gives; ``OpLowering.scratch`` checks that the
lowering asks for exactly those buffers, in their order.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import (
    BytesAttr,
    DenseIntOrFPElementsAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    TensorType,
    UnitAttr,
    f32,
    i8,
    i32,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint
from xdsl.traits import SymbolTable

from cfmem.dialects.nn_quant import ui8 as UI8
from cfmem.dialects.scratch import Scratch
from cfmem.passes.linalg.helpers import Shape, elementwise, fill, index_const, shape_of


def global_element(array: np.ndarray) -> Attribute:
    return {np.dtype(np.int8): i8, np.dtype(np.uint8): UI8, np.dtype(np.int32): i32}.get(array.dtype, f32)


class ConstantGlobals:
    """Constant f32 (or i8, ui8, i32) ``memref.global``s this pass adds to ``module``, one per distinct content."""

    def __init__(self, module: ModuleOp):
        self.module = module
        self.names: dict[tuple[str, Shape, bytes], str] = {}
        self.pending: list[tuple[str, np.ndarray]] = []

    def get(self, prefix: str, array: np.ndarray) -> SSAValue:
        """A ``memref.get_global`` of ``array`` as f32 (int8, uint8 and int32 arrays as i8, ui8
        and i32); ``insert_pending`` adds a new global."""
        array = array if array.dtype in (np.int8, np.uint8, np.int32) else array.astype(np.float32)
        key = (prefix, array.shape, array.tobytes())
        if key not in self.names:
            taken = set(self.names.values())
            k = 0
            while f"{prefix}_{k}" in taken or SymbolTable.lookup_symbol(self.module, f"{prefix}_{k}"):
                k += 1
            self.names[key] = f"{prefix}_{k}"
            self.pending.append((self.names[key], array))
        return memref.GetGlobalOp(self.names[key], MemRefType(global_element(array), array.shape)).memref

    def insert_pending(self, rewriter: PatternRewriter) -> None:
        """Add the globals ``get`` asked for at the top of the module."""
        for name, array in self.pending:
            element = global_element(array)
            value = DenseIntOrFPElementsAttr(TensorType(element, array.shape), BytesAttr(array.tobytes()))
            glob = memref.GlobalOp.get(
                StringAttr(name), MemRefType(element, array.shape), value, StringAttr("private"), constant=UnitAttr()
            )
            rewriter.insert(glob, InsertPoint.at_start(self.module.body.block))
        self.pending.clear()


class OpLowering:
    """Emits the ops for one compute op at the current implicit builder.

    Scratch buffers are views of ``scratch_base``, the op's scratch bytes (the
    ``nn.apply``'s scratch operand), laid out as ``layout`` says
    (``cfmem.dialects.scratch.scratch_buffers`` of the op).
    """

    def __init__(self, globals_: ConstantGlobals, scratch_base: SSAValue | None = None, layout: Sequence[Scratch] = ()):
        self.globals = globals_
        self.scratch_base = scratch_base
        self.layout = list(layout)
        self.scratch_used = 0
        """How many buffers of ``layout`` the lowering has taken."""

    def scratch(self, name: str, shape: Shape, value: float | SSAValue | None = None, element: Attribute = f32) -> SSAValue:
        """The next scratch buffer, of ``shape`` (f32 unless ``element`` says otherwise), filled
        with ``value`` unless None; it must be the next one of ``layout``."""
        assert self.scratch_used < len(self.layout), f"scratch {name} beyond the op's scratch layout"
        planned = self.layout[self.scratch_used]
        assert (planned.name, planned.shape, planned.element) == (name, tuple(shape), element), (planned, name, shape, element)
        assert self.scratch_base is not None
        self.scratch_used += 1
        space = self.scratch_base.type.memory_space
        buffer = memref.ViewOp(self.scratch_base, index_const(planned.offset), [], MemRefType(element, shape, memory_space=space)).result
        buffer.name_hint = name
        if value is not None:
            fill(value, buffer)
        return buffer

    def widened(self, x: SSAValue) -> SSAValue:
        """An f32 scratch copy of f16 ``x`` (``arith.extf``, exact)."""
        wide = self.scratch("wide", shape_of(x))
        elementwise([x], wide, lambda v, _: arith.ExtFOp(v, f32).result)
        return wide
