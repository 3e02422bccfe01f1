"""Control flow of the nn dialect: ``nn.if`` and its ``nn.yield``.

``nn.if`` is ``scf.if`` for tensor graphs: the condition is a one-element i1
tensor computed by the graph (so the branch is decided by data at run time),
both regions are single blocks ending in ``nn.yield``, and the yielded types
must equal the if's result types. Ifs nest to any depth; a branch may use any
value defined above it.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod
from typing import Self

from xdsl.dialects.builtin import TensorType, i1
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsTerminator, Pure, RecursiveMemoryEffect
from xdsl.utils.exceptions import VerifyException


def _apply_op() -> type[IRDLOperation]:
    from cfmem.dialects.nn_memref import ApplyOp

    return ApplyOp


@irdl_op_definition
class YieldOp(IRDLOperation):
    """Ends an ``nn.if`` branch (its values become the if's results) or an
    ``nn.apply`` body (its value is written to the output buffer)."""

    name = "nn.yield"
    values = var_operand_def(TensorType)
    traits = lazy_traits_def(lambda: (IsTerminator(), Pure(), HasParent(IfOp, _apply_op())))
    assembly_format = "($values^ `:` type($values))? attr-dict"

    def __init__(self, *values: SSAValue):
        super().__init__(operands=[values])


@irdl_op_definition
class IfOp(IRDLOperation):
    """Runs ``then`` if the one-element i1 tensor ``cond`` is true, else ``else``.

    Syntax: ``%r = nn.if %c : tensor<i1> -> (tensor<...>) { ... } else { ... }``.
    """

    name = "nn.if"
    cond = operand_def(TensorType)
    outputs = var_result_def(TensorType)
    then_region = region_def("single_block")
    else_region = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect())

    def __init__(
        self,
        cond: SSAValue,
        result_types: Sequence[Attribute],
        then_region: Region,
        else_region: Region,
    ):
        super().__init__(
            operands=[cond], result_types=[result_types], regions=[then_region, else_region]
        )

    @property
    def branches(self) -> tuple[Region, Region]:
        return (self.then_region, self.else_region)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        unresolved = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        cond = parser.resolve_operand(unresolved, parser.parse_type())
        result_types: list[Attribute] = []
        if parser.parse_optional_punctuation("->"):
            result_types = parser.parse_comma_separated_list(
                parser.Delimiter.PAREN, parser.parse_type
            )
        then_region = parser.parse_region()
        parser.parse_keyword("else")
        else_region = parser.parse_region()
        attrs = parser.parse_optional_attr_dict()
        op = cls(cond, result_types, then_region, else_region)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer):
        printer.print_string(" ")
        printer.print_operand(self.cond)
        printer.print_string(" : ")
        printer.print_attribute(self.cond.type)
        if self.outputs:
            printer.print_string(" -> (")
            printer.print_list(self.outputs.types, printer.print_attribute)
            printer.print_string(")")
        printer.print_string(" ")
        printer.print_region(self.then_region, print_entry_block_args=False)
        printer.print_string(" else ")
        printer.print_region(self.else_region, print_entry_block_args=False)
        if self.attributes:
            printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        ctype = self.cond.type
        if not (
            isinstance(ctype, TensorType)
            and ctype.get_element_type() == i1
            and prod(ctype.get_shape()) == 1
        ):
            raise VerifyException(f"condition must be a one-element i1 tensor, got {ctype}")
        for label, region in (("then", self.then_region), ("else", self.else_region)):
            block = region.block
            if block.args:
                raise VerifyException(f"the {label} region must not have block arguments")
            yield_op = block.last_op
            if not isinstance(yield_op, YieldOp):
                raise VerifyException(f"the {label} region must end in nn.yield")
            got = tuple(yield_op.values.types)
            want = tuple(self.outputs.types)
            if got != want:
                raise VerifyException(
                    f"the {label} region yields ({', '.join(map(str, got))})"
                    f" but the if returns ({', '.join(map(str, want))})"
                )


def new_branch() -> Region:
    """An empty single-block region for building an ``nn.if`` branch."""
    return Region(Block())


CONTROL_OPS: tuple[type[IRDLOperation], ...] = (IfOp, YieldOp)
