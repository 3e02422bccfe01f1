"""Turn a lowered cfmem module into one upstream MLIR can lower to LLVM and JIT.

``prepare_for_jit`` works on a copy, in xDSL:

- each ``memref.dma_start`` becomes a plain byte copy done at once: a
  ``memref.view`` of ``n`` bytes of the source at the source index, one of the
  destination at the destination index, and a ``memref.copy`` between them
  (identity layouts, so upstream lowers it to a memcpy without runtime
  libraries). Copying at the start is one legal timing of the transfer: the
  DMA hazard checker already guarantees that nothing reads the destination's
  old bytes after the start, nor the new ones before the wait;
- every ``memref.dma_wait`` is erased, and so is each tag ``memref.alloca``
  left without uses;
- a ``memref.copy`` to or from a memref with a layout (a subview) becomes a
  ``linalg.copy``, which lowers to loops instead of a runtime-library call;
- every memory space is dropped from every type (globals, ``get_global``,
  views, block arguments, allocas, function types), so LLVM sees plain
  pointers in one address space;
- every ``i1`` buffer becomes an ``i8`` buffer of 0/1 bytes (upstream MLIR 22's
  ``finalize-memref-to-llvm`` aborts on loads and stores of ``i1`` memrefs):
  loads are followed by ``arith.trunci``, stored values, ``linalg.fill``
  values and ``linalg.generic`` yields go through ``arith.extui``, and
  ``linalg.generic`` body arguments are truncated on entry. The bytes are
  what LLVM stores for ``i1`` and what numpy stores for ``bool``;
- a global whose bytes stay in a weight file (``cfmem.weights_file``) is no
  longer constant and gets a filler, ``@fill_<name>(%bytes)`` (marked
  ``cfmem.fills``), which copies its argument into it: the worker reads and
  checks the file and calls the filler once, before anything else runs;
- every function with a body gets ``llvm.emit_c_interface``, which
  ``ExecutionEngine.invoke`` needs.

Assumes the input contract of cfmem's lowering: DMA source and destination are
1-D ``i8`` memrefs with one index each, and the byte count is an
``arith.constant``; ``i1`` buffers are used only by memref ops,
``linalg.generic``, ``linalg.fill`` and ``linalg.copy`` (any other linalg op
on one is an error). ``cfmem.*`` attributes are kept: upstream accepts them as
discardable attributes.
"""

from __future__ import annotations

from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StringAttr,
    TensorType,
    UnitAttr,
    i1,
    i8,
)
from xdsl.dialects.linalg.ops import CopyOp, FillOp, GenericOp, YieldOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    TypeConversionPattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from cfmem.mlir_check.errors import MlirCheckError
from cfmem.weight_file import FILE_ATTR

C_INTERFACE = "llvm.emit_c_interface"
FILLS_ATTR = "cfmem.fills"
"""On a filler function: the global whose bytes it copies in from its argument."""


def poison_arenas(module: ModuleOp, fill: int = 0xFF) -> None:
    """Start every uninitialized ``memref.global @arena_*`` (memref-plan-arena's) as bytes
    ``fill`` (0xff by default, NaN in every float), so a run that reads arena bytes before
    writing them shows."""
    signed = fill - 256 if fill > 127 else fill
    for glob in module.walk():
        if isinstance(glob, memref.GlobalOp) and glob.sym_name.data.startswith("arena_") and glob.initial_value == UnitAttr():
            size = glob.type.get_shape()[0]
            glob.initial_value = DenseIntOrFPElementsAttr.from_list(TensorType(i8, [size]), [signed] * size)


def prepare_for_jit(module: ModuleOp) -> ModuleOp:
    """A copy of ``module`` that upstream MLIR can lower and JIT (see the module docstring)."""
    module = module.clone()
    tags: list[SSAValue] = []
    patterns = GreedyRewritePatternApplier([_DmaToCopy(tags), _LaidOutCopyToLinalg()])
    PatternRewriteWalker(patterns, apply_recursively=False).rewrite_module(module)
    for tag in tags:
        if not tag.uses and isinstance(tag.owner, memref.AllocaOp):
            tag.owner.detach()
            tag.owner.erase()
    PatternRewriteWalker(_WidenBooleans(), apply_recursively=False).rewrite_module(module)
    PatternRewriteWalker(_PlainMemRefs(recursive=True), apply_recursively=False).rewrite_module(module)
    _add_weight_fillers(module)
    for op in module.walk():
        if isinstance(op, func.FuncOp) and op.body.blocks:
            op.attributes[C_INTERFACE] = UnitAttr()
    return module


def _add_weight_fillers(module: ModuleOp) -> None:
    """A filler function for every global kept in a weight file (see the module docstring)."""
    for glob in list(module.ops):
        if not isinstance(glob, memref.GlobalOp) or FILE_ATTR not in glob.attributes:
            continue
        glob.constant = None
        name = glob.sym_name.data
        filler = func.FuncOp(f"fill_{name}", ((glob.type,), ()))
        filler.attributes[FILLS_ATTR] = StringAttr(name)
        source = filler.body.block.args[0]
        target = memref.GetGlobalOp(name, glob.type)
        filler.body.block.add_ops([target, memref.CopyOp(source, target.memref), func.ReturnOp()])
        module.body.block.add_op(filler)


class _DmaToCopy(RewritePattern):
    """``dma_start`` as view + view + copy; ``dma_wait`` erased. Records the tags."""

    def __init__(self, tags: list[SSAValue]):
        self.tags = tags

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.DmaStartOp | memref.DmaWaitOp, rewriter: PatternRewriter) -> None:
        if op.tag not in self.tags:
            self.tags.append(op.tag)
        if isinstance(op, memref.DmaWaitOp):
            rewriter.erase(op)
            return
        size = _constant_index(op.num_elements, "byte count")
        if len(op.src_indices) != 1 or len(op.dest_indices) != 1:
            raise MlirCheckError("memref.dma_start: expected one source and one destination index (1-D byte buffers)")
        views = [
            memref.ViewOp(buffer, index, [], MemRefType(i8, [size], memory_space=_byte_buffer(buffer).memory_space))
            for buffer, index in ((op.src, op.src_indices[0]), (op.dest, op.dest_indices[0]))
        ]
        rewriter.replace(op, [*views, memref.CopyOp(views[0], views[1])], [])


class _LaidOutCopyToLinalg(RewritePattern):
    """``memref.copy`` with a laid-out side as ``linalg.copy``, which lowers to loops.

    Upstream lowers such a copy to a call of ``memrefCopy`` from the MLIR
    runtime library, which the bindings do not ship.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.CopyOp, rewriter: PatternRewriter) -> None:
        types = (op.source.type, op.destination.type)
        if all(isinstance(ty, MemRefType) and isinstance(ty.layout, NoneAttr) for ty in types):
            return
        rewriter.replace(op, CopyOp([op.source], [op.destination], res=[], attributes=dict(op.attributes)))


class _WidenBooleans(RewritePattern):
    """Scalar ``i1`` values in and out of buffers that are about to hold ``i8``."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, memref.LoadOp) and op.res.type == i1:
            load = memref.LoadOp.build(operands=[op.memref, op.indices], result_types=[i8], properties=op.properties)
            rewriter.replace(op, [load, trunc := arith.TruncIOp(load, i1)], [trunc.result])
        elif isinstance(op, memref.StoreOp) and op.value.type == i1:
            rewriter.insert(widened := arith.ExtUIOp(op.value, i8), InsertPoint.before(op))
            op.operands[0] = widened.result
        elif isinstance(op, memref.GlobalOp) and _is_bool_buffer_type(op.type):
            _widen_global(op)
        elif isinstance(op, FillOp) and op.inputs[0].type == i1 and any(map(_is_bool_buffer, op.outputs)):
            rewriter.insert(widened := arith.ExtUIOp(op.inputs[0], i8), InsertPoint.before(op))
            op.operands[0] = widened.result
        elif isinstance(op, GenericOp):
            _widen_generic(op, rewriter)
        elif op.name.startswith("linalg.") and not isinstance(op, CopyOp | YieldOp):
            if any(_is_bool_buffer(v) for v in op.operands):
                raise MlirCheckError(f"{op.name} on an i1 buffer: only linalg.generic, fill and copy are supported")


def _widen_generic(op: GenericOp, rewriter: PatternRewriter) -> None:
    block = op.body.block
    operands = [*op.inputs, *op.outputs]
    for index, operand in enumerate(operands):
        if not _is_bool_buffer(operand) or block.args[index].type != i1:
            continue
        arg = rewriter.replace_value_with_new_type(block.args[index], i8)
        if arg.uses:
            rewriter.insert(trunc := arith.TruncIOp(arg, i1), InsertPoint.at_start(block))
            arg.replace_uses_with_if(trunc.result, lambda use: use.operation is not trunc)
    yield_op = block.last_op
    assert isinstance(yield_op, YieldOp)
    for index, output in enumerate(op.outputs):
        if _is_bool_buffer(output) and yield_op.operands[index].type == i1:
            rewriter.insert(widened := arith.ExtUIOp(yield_op.operands[index], i8), InsertPoint.before(yield_op))
            yield_op.operands[index] = widened.result


def _widen_global(op: memref.GlobalOp) -> None:
    value = op.initial_value
    if isinstance(value, DenseIntOrFPElementsAttr) and value.get_element_type() == i1:
        shape = value.type.get_shape()
        bits = [int(bool(v)) for v in value.get_values()]
        op.initial_value = DenseIntOrFPElementsAttr.from_list(TensorType(i8, shape), bits)


class _PlainMemRefs(TypeConversionPattern):
    """Memrefs without a memory space, and of ``i8`` where they were of ``i1``."""

    def convert_type(self, typ: Attribute, /) -> Attribute | None:
        if not isinstance(typ, MemRefType):
            return None
        element = i8 if typ.element_type == i1 else typ.element_type
        if isinstance(typ.memory_space, NoneAttr) and element == typ.element_type:
            return None
        return MemRefType(element, typ.shape, typ.layout, NoneAttr())


def _is_bool_buffer(value: SSAValue) -> bool:
    return _is_bool_buffer_type(value.type)


def _is_bool_buffer_type(ty: Attribute) -> bool:
    return isinstance(ty, MemRefType) and ty.element_type == i1


def _byte_buffer(value: SSAValue) -> MemRefType[Attribute]:
    ty = value.type
    if not isinstance(ty, MemRefType) or ty.element_type != i8 or len(ty.shape) != 1:
        raise MlirCheckError(f"memref.dma_start: expected 1-D i8 buffers, got {ty}")
    return ty


def _constant_index(value: SSAValue, what: str) -> int:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    raise MlirCheckError(f"memref.dma_start: the {what} must be an arith.constant")
