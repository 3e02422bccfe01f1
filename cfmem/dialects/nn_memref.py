"""``nn.apply``: a tensor compute op run in destination-passing style on memrefs.

The flat form (after ``nn-lower-to-memref``) keeps every nn compute op but
moves it into an ``nn.apply`` whose operands are memrefs: the op reads the
``ins`` buffers and its result is written into the ``outs`` buffer. The body
is one block whose arguments are the ins as tensors, holding exactly one
compute op (or an ``nn.reshape`` of a tensor that lives on chip) and an ``nn.yield`` of its result::

    nn.apply ins(%x, %w : memref<1x8xf32, 1>, memref<8x4xf32>) outs(%y : memref<1x4xf32, 1>) {
    ^bb0(%a : tensor<1x8xf32>, %b : tensor<8x4xf32>):
      %r = nn.matmul %a, %b : (tensor<1x8xf32>, tensor<8x4xf32>) -> tensor<1x4xf32>
      nn.yield %r : tensor<1x4xf32>
    }

An op whose kernel needs scratch (``cfmem.dialects.scratch``) also takes its scratch
bytes, a 1-D i8 memref (a view of the arena where the plan put them), after its output::

    nn.apply ins(%x : memref<1x1x8x8xf32, 1>) outs(%y : memref<1x1x8x8xf32, 1>) scratch(%s : memref<400xi8, 1>) {
    ...

Keeping the tensor op whole means the same numpy kernel runs in the
tensor-level and the flat interpreter, and ``nn-lower-to-linalg`` can read
every attribute from it.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Self

from xdsl.dialects.builtin import DenseArrayBase, MemRefType, TensorType, i8, i32
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    opt_operand_def,
    region_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from cfmem.dialects.nn_compute import ComputeOp
from cfmem.dialects.nn_control import YieldOp
from cfmem.dialects.nn_weights import ReshapeOp
from cfmem.dialects.scratch import scratch_bytes


@functools.cache
def tensor_of_memref(ty: Attribute) -> TensorType:
    """The tensor type with the shape and element type of memref type ``ty``
    (attributes are immutable: one is built per memref type)."""
    assert isinstance(ty, MemRefType)
    return TensorType(ty.get_element_type(), ty.get_shape())


@irdl_op_definition
class ApplyOp(IRDLOperation):
    """Runs the compute op in its body on ``ins``, writing the result to ``outs``, with the
    bytes of ``scratch`` for its kernel's own use."""

    name = "nn.apply"
    ins = var_operand_def(MemRefType)
    outs = var_operand_def(MemRefType)
    scratch = opt_operand_def(MemRefType)
    body = region_def("single_block")
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(self, ins: Sequence[SSAValue], outs: Sequence[SSAValue], body: Region, scratch: SSAValue | None = None):
        super().__init__(operands=[ins, outs, [scratch] if scratch is not None else []], regions=[body])

    @staticmethod
    def wrap(op: ComputeOp | ReshapeOp, ins: Sequence[SSAValue], out: SSAValue, scratch: SSAValue | None = None) -> ApplyOp:
        """An ``nn.apply`` running a clone of ``op`` on ``ins`` into ``out`` (with ``scratch``)."""
        block = Block(arg_types=[tensor_of_memref(v.type) for v in ins])
        inner = op.clone()
        for key in [k for k in inner.attributes if k.startswith("cfmem.")]:
            del inner.attributes[key]
        for k, arg in enumerate(block.args):
            inner.operands[k] = arg
        # create(): the generic constructor, as the parser builds ops (lowering builds
        # thousands; the module is verified after the pass)
        block.add_ops([inner, YieldOp.create(operands=[inner.results[0]])])
        extra = [scratch] if scratch is not None else []
        segments = DenseArrayBase.from_list(i32, [len(ins), 1, len(extra)])
        return ApplyOp.create(operands=[*ins, out, *extra], properties={"operandSegmentSizes": segments}, regions=[Region(block)])

    @property
    def compute(self) -> Operation:
        """The compute op of the body."""
        op = self.body.block.first_op
        assert op is not None
        return op

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        def operand_list() -> list[SSAValue]:
            parser.parse_punctuation("(")
            names = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
            parser.parse_punctuation(")")
            if len(names) != len(types):
                parser.raise_error(f"{len(names)} operands but {len(types)} types")
            return [parser.resolve_operand(n, t) for n, t in zip(names, types)]

        parser.parse_keyword("ins")
        ins = operand_list()
        parser.parse_keyword("outs")
        outs = operand_list()
        scratch = operand_list() if parser.parse_optional_keyword("scratch") else []
        if len(scratch) > 1:
            parser.raise_error(f"expected one scratch buffer, got {len(scratch)}")
        attrs = parser.parse_optional_attr_dict_with_keyword()
        body = parser.parse_region()
        op = cls(ins, outs, body, scratch[0] if scratch else None)
        if attrs is not None:
            op.attributes.update(attrs.data)
        return op

    def print(self, printer: Printer):
        groups = [("ins", self.ins), ("outs", self.outs)] + ([("scratch", [self.scratch])] if self.scratch else [])
        for keyword, values in groups:
            printer.print_string(f" {keyword}(")
            printer.print_list(values, printer.print_operand)
            printer.print_string(" : ")
            printer.print_list([v.type for v in values], printer.print_attribute)
            printer.print_string(")")
        if self.attributes:
            printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=True)

    def verify_(self) -> None:
        block = self.body.block
        if len(self.outs) != 1:
            raise VerifyException(f"expected one output buffer, got {len(self.outs)}")
        if tuple(block.arg_types) != tuple(tensor_of_memref(v.type) for v in self.ins):
            raise VerifyException("body arguments must be the input buffers' tensor types")
        ops = list(block.ops)
        if len(ops) != 2 or not isinstance(ops[0], ComputeOp | ReshapeOp) or not isinstance(ops[1], YieldOp):
            raise VerifyException("body must hold one nn compute op and an nn.yield of its result")
        compute, yield_op = ops
        if tuple(compute.operands) != tuple(block.args):
            raise VerifyException("the compute op must take the body arguments in order")
        if tuple(yield_op.operands) != tuple(compute.results):
            raise VerifyException("the body must yield the compute op's result")
        if compute.results[0].type != tensor_of_memref(self.outs[0].type):
            raise VerifyException(
                f"result type {compute.results[0].type} does not match the output buffer {self.outs[0].type}"
            )
        need = scratch_bytes(compute)
        if need and self.scratch is None:
            raise VerifyException(f"'{compute.name}' needs {need} bytes of scratch but the op has no scratch buffer")
        if self.scratch is not None:
            ty = self.scratch.type
            if not isinstance(ty, MemRefType) or ty.get_element_type() != i8 or len(ty.get_shape()) != 1:
                raise VerifyException(f"the scratch buffer must be a 1-D memref of i8, got {ty}")
            if ty.get_shape()[0] < need:
                raise VerifyException(f"'{compute.name}' needs {need} bytes of scratch, its scratch buffer has {ty.get_shape()[0]}")


MEMREF_OPS: tuple[type[IRDLOperation], ...] = (ApplyOp,)
