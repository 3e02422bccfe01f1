"""Control flow of the nn dialect: ``nn.if``, ``nn.loop`` and their ``nn.yield``.

``nn.if`` is ``scf.if`` for tensor graphs: the condition is a one-element i1
tensor computed by the graph (so the branch is decided by data at run time),
both regions are single blocks ending in ``nn.yield``, and the yielded types
must equal the if's result types. Ifs nest to any depth; a branch may use any
value defined above it.

``nn.loop`` is ONNX ``Loop`` (``scf.while`` with a trip limit): it runs its
body while the iteration number is below ``trip_count`` and the condition
holds; both may be data. The body takes the iteration number, the condition
and the loop-carried values, and yields the next condition, the next carried
values and one element of each scan output. Results are the final carried
values, then the scan outputs, each stacking its per-iteration elements on a
new leading axis of static length (the loop must run exactly that many times).
Loops and ifs nest both ways.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod
from typing import Self

from xdsl.dialects.builtin import TensorType, i1, i64
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, OpTrait, Pure, RecursiveMemoryEffect
from xdsl.utils.exceptions import VerifyException

from cfmem.dialects.nn_compute import ConstantOp


def _parse_result_types(parser: Parser) -> list[Attribute]:
    """``-> (type, ...)``, or no results when there is no arrow."""
    if not parser.parse_optional_punctuation("->"):
        return []
    return parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)


def _print_result_types(printer: Printer, types: Sequence[Attribute]) -> None:
    if types:
        printer.print_string(" -> (")
        printer.print_list(types, printer.print_attribute)
        printer.print_string(")")


@dataclass(frozen=True)
class HasParentNamed(OpTrait):
    """The op's parent (when it has one) is one of the ops ``names``: ``HasParent`` by op
    name, for a parent defined in a dialect that builds on this one (``nn.apply``)."""

    names: tuple[str, ...]

    def verify(self, op: Operation) -> None:
        parent = op.parent_op()
        if parent is not None and parent.name not in self.names:
            expected = ", ".join(f"'{name}'" for name in self.names)
            raise VerifyException(f"'{op.name}' expects parent op to be one of {expected}")


@irdl_op_definition
class YieldOp(IRDLOperation):
    """Ends an ``nn.if`` branch (its values become the if's results), an
    ``nn.loop`` body (the next condition, carried values and scan elements) or
    an ``nn.apply`` body (its value is written to the output buffer)."""

    name = "nn.yield"
    values = var_operand_def(TensorType)
    traits = traits_def(IsTerminator(), Pure(), HasParentNamed(("nn.if", "nn.loop", "nn.apply")))
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
        result_types = _parse_result_types(parser)
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
        _print_result_types(printer, self.outputs.types)
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


def _one_element(ty: Attribute, element: Attribute) -> bool:
    return isinstance(ty, TensorType) and ty.get_element_type() == element and ty.has_static_shape() \
        and prod(ty.get_shape()) == 1


def _types(types) -> str:
    return ", ".join(map(str, types))


@irdl_op_definition
class LoopOp(IRDLOperation):
    """Runs ``body`` while ``iteration < trip_count`` and the condition holds.

    Syntax::

        %h, %ys = nn.loop %n, %go (%h0) : (tensor<i64>, tensor<i1>, tensor<4xf32>)
            -> (tensor<4xf32>, tensor<8x4xf32>) {
        ^bb0(%i: tensor<i64>, %c: tensor<i1>, %h: tensor<4xf32>):
          ...
          nn.yield %c2, %h2, %y : tensor<i1>, tensor<4xf32>, tensor<4xf32>
        }

    ``trip_count`` is a one-element i64 tensor, ``cond`` a one-element i1
    tensor (the condition before the first iteration). The body's arguments
    are the iteration number (one-element i64), the current condition and the
    carried values; it yields the next condition, the next carried values and
    one element per scan output. With zero iterations the carried results are
    the initial values.
    """

    name = "nn.loop"
    trip_count = operand_def(TensorType)
    cond = operand_def(TensorType)
    inits = var_operand_def(TensorType)
    outputs = var_result_def(TensorType)
    body = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect())

    def __init__(
        self,
        trip_count: SSAValue,
        cond: SSAValue,
        inits: Sequence[SSAValue],
        result_types: Sequence[Attribute],
        body: Region,
    ):
        super().__init__(operands=[trip_count, cond, inits], result_types=[result_types], regions=[body])

    @property
    def branches(self) -> tuple[Region]:
        """The one region, under the name the region walkers share with ``nn.if``."""
        return (self.body,)

    @property
    def carried(self) -> tuple[SSAValue, ...]:
        """The final carried values (the results that are not scan outputs)."""
        return tuple(self.outputs[: len(self.inits)])

    @property
    def scans(self) -> tuple[SSAValue, ...]:
        return tuple(self.outputs[len(self.inits) :])

    @property
    def iteration_arg(self) -> SSAValue:
        return self.body.block.args[0]

    @property
    def cond_arg(self) -> SSAValue:
        return self.body.block.args[1]

    @property
    def carried_args(self) -> tuple[SSAValue, ...]:
        return tuple(self.body.block.args[2:])

    @property
    def yield_op(self) -> YieldOp:
        end = self.body.block.last_op
        assert isinstance(end, YieldOp)
        return end

    def scan_length(self) -> int | None:
        """The static trip count that the scan outputs stack (None without scans)."""
        return self.scans[0].type.get_shape()[0] if self.scans else None

    def is_counted(self) -> bool:
        """True when the condition is a constant true before and after every
        iteration: the loop runs exactly ``trip_count`` times (an ``scf.for``)."""
        after = self.yield_op.values[0]
        return _is_true_constant(self.cond) and (after is self.cond_arg or _is_true_constant(after))

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        operands = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
        inits = []
        if parser.parse_optional_punctuation("("):
            if not parser.parse_optional_punctuation(")"):
                inits = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
                parser.parse_punctuation(")")
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
        unresolved = [*operands, *inits]
        if len(operands) != 2 or len(types) != len(unresolved):
            parser.raise_error("expected 'nn.loop %trips, %cond (inits) : (types of all of them)'")
        resolved = [parser.resolve_operand(u, t) for u, t in zip(unresolved, types)]
        result_types = _parse_result_types(parser)
        body = parser.parse_region()
        attrs = parser.parse_optional_attr_dict()
        op = cls(resolved[0], resolved[1], resolved[2:], result_types, body)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer):
        printer.print_string(" ")
        printer.print_list((self.trip_count, self.cond), printer.print_operand)
        printer.print_string(" (")
        printer.print_list(self.inits, printer.print_operand)
        printer.print_string(") : (")
        printer.print_list(self.operand_types, printer.print_attribute)
        printer.print_string(")")
        _print_result_types(printer, self.outputs.types)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=True)
        if self.attributes:
            printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        if not _one_element(self.trip_count.type, i64):
            raise VerifyException(f"trip count must be a one-element i64 tensor, got {self.trip_count.type}")
        if not _one_element(self.cond.type, i1):
            raise VerifyException(f"condition must be a one-element i1 tensor, got {self.cond.type}")
        n = len(self.inits)
        init_types = tuple(self.inits.types)
        if tuple(self.outputs.types[:n]) != init_types:
            raise VerifyException(
                f"the loop returns ({_types(self.outputs.types)}) but its results must start with"
                f" the carried types ({_types(init_types)})"
            )
        block = self.body.block
        arg_types = tuple(a.type for a in block.args)
        if len(arg_types) != n + 2 or not _one_element(arg_types[0], i64) or not _one_element(arg_types[1], i1) \
                or arg_types[2:] != init_types:
            raise VerifyException(
                f"the body takes ({_types(arg_types)}) but must take the iteration number (one-element i64),"
                f" the condition (one-element i1) and the carried values ({_types(init_types)})"
            )
        scan_elements = []
        lengths = set()
        for ty in self.outputs.types[n:]:
            shape = ty.get_shape() if isinstance(ty, TensorType) else ()
            if not shape or shape[0] < 0:
                raise VerifyException(f"scan output {ty} needs a static leading axis (the trip count)")
            lengths.add(shape[0])
            scan_elements.append(TensorType(ty.get_element_type(), shape[1:]))
        if len(lengths) > 1:
            raise VerifyException(f"scan outputs stack different trip counts {sorted(lengths)}")
        end = block.last_op
        if not isinstance(end, YieldOp):
            raise VerifyException("the body must end in nn.yield")
        got = tuple(end.values.types)
        if not got or not _one_element(got[0], i1) or got[1:] != (*init_types, *scan_elements):
            want = ("tensor<i1>", *map(str, init_types), *map(str, scan_elements))
            raise VerifyException(
                f"the body yields ({_types(got)}) but must yield the next condition, the carried values"
                f" and one element per scan output ({', '.join(want)})"
            )


def _is_true_constant(value: SSAValue) -> bool:
    op = value.owner
    return isinstance(op, ConstantOp) and all(bool(v) for v in op.value.get_values())


def new_branch() -> Region:
    """An empty single-block region for building an ``nn.if`` branch."""
    return Region(Block())


def if_labels(root: Operation) -> dict[IfOp, str]:
    """The ``nn.if`` ops under ``root`` by the label every report and interpreter gives
    them: ``if#k``, k counting ifs in walk order (an if before the ifs inside it)."""
    return {op: f"if#{k}" for k, op in enumerate(o for o in root.walk() if isinstance(o, IfOp))}


def loop_labels(root: Operation) -> dict[LoopOp, str]:
    """The ``nn.loop`` ops under ``root`` by the label every report and interpreter gives
    them: ``loop#k``, k counting loops in walk order (a loop before the loops inside it)."""
    return {op: f"loop#{k}" for k, op in enumerate(o for o in root.walk() if isinstance(o, LoopOp))}


REGION_OPS = (IfOp, LoopOp)
"""The nn ops with regions; each has ``branches`` (an if's two, a loop's body)."""

CONTROL_OPS: tuple[type[IRDLOperation], ...] = (IfOp, LoopOp, YieldOp)
