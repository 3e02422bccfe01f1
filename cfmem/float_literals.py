"""Hexadecimal literals in dense float attributes are bit patterns, as in MLIR.

xDSL 0.74 prints a float without a decimal form of its own (inf, -inf, NaN) inside
``dense<...>`` as its bit pattern, ``0x7f800000``, but parses that literal back as the integer
2139095040 made a float: a module holding an infinity computes other numbers after one print
and parse. Importing this module makes xDSL's parser read such a literal as MLIR does, as the
element's bits (scalar float attributes already are); ``cfmem.universe`` (so plain
``xdsl-opt``) and ``cfmem.ir_io`` import it.
"""

from __future__ import annotations

from xdsl.dialects.builtin import AnyFloat
from xdsl.parser.attribute_parser import AttrParser

_Element = AttrParser._TensorLiteralElement
_xdsl_to_type = _Element.to_type


def _to_type_reading_bits(self, parser: AttrParser, element_type):
    """A hexadecimal integer element of a float type: its bits; anything else as xDSL reads it."""
    hexadecimal = self.span.text.lstrip("-").lower().startswith("0x")
    if isinstance(element_type, AnyFloat) and hexadecimal and isinstance(self.value, int) and not isinstance(self.value, bool):
        if self.is_negative:
            parser.raise_error("a hexadecimal float literal is a bit pattern and cannot be negated", at_position=self.span)
        size = element_type.compile_time_size
        if self.value.bit_length() > 8 * size:
            parser.raise_error(f"a hexadecimal literal wider than the {8 * size} bits of {element_type}", at_position=self.span)
        return next(element_type.iter_unpack(self.value.to_bytes(size, "little")))
    return _xdsl_to_type(self, parser, element_type)


_Element.to_type = _to_type_reading_bits
