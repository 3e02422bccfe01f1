"""Assembly-format directives shared by nn ops.

``custom<Int64>($prop)`` reads and prints an ``IntegerAttr`` of type i64 as a
bare integer, like ``$prop`` does, but an integer outside the signed 64-bit
range is a parse error at that integer (xDSL's own ``$prop`` raises a
verifier error without a position while parsing).
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, i64
from xdsl.irdl import IRDLOperation
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    ParsingState,
    PrintingState,
    irdl_custom_directive,
)
from xdsl.parser import Parser
from xdsl.printer import Printer

I64_MIN, I64_MAX = -(2**63), 2**63 - 1


@irdl_custom_directive
class Int64(CustomDirective):
    value: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        start = parser.pos
        number = parser.parse_integer(allow_boolean=False)
        if not I64_MIN <= number <= I64_MAX:
            parser.raise_error(f"integer {number} does not fit in 64 bits (i64)", start, parser.pos)
        self.value.set(state, IntegerAttr(number, i64))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        attr = self.value.get(op)
        assert isinstance(attr, IntegerAttr)
        state.print_whitespace(printer)
        printer.print_string(str(attr.value.data))

    def is_present(self, op: IRDLOperation) -> bool:
        return self.value.is_present(op)

    def is_anchorable(self) -> bool:
        return self.value.is_anchorable()
