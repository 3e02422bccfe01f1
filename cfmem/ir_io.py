"""Reading nn modules with source positions, one-line diagnostics, and writing modules.

xDSL's parser does not keep the position of each op, and its verifier reports
errors with a dump of the whole module. cfmem's commands want
``file:line:col: error: message``, so this module parses with a parser that
records where every op starts and verifies op by op, innermost first.
"""

from __future__ import annotations

import io
import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects import builtin, get_all_dialects
from xdsl.dialects.builtin import BFloat16Type, DenseArrayBase, Float16Type, Float32Type, Float64Type, IntegerType, ModuleOp, StringAttr
from xdsl.ir import BlockArgument, Operation
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import DiagnosticException, ParseError

import cfmem.float_literals  # noqa: F401 (dense float hex literals are bits)
from cfmem.dialects.nn import NN
from cfmem.errors import CfmemError
from cfmem.interp.footprint import MAX_RUN_BYTES, format_bytes
from cfmem.files import STDOUT, atomic_write_text, note_input
from cfmem.weight_file import FILE_ATTR

__all__ = ["CfmemError", "SourceMap", "is_flat", "load_module", "make_context", "parse_module", "rebase_weight_files", "verify", "write_module"]


FLAT_OPS = ("nn.apply", "memref.global")


def is_flat(module: ModuleOp) -> bool:
    """Whether ``module`` is in the lowered flat form (has nn.apply or memref globals);
    by op name, so that asking needs no dialect of the flat form loaded."""
    return any(op.name in FLAT_OPS for op in module.walk())


def make_context() -> Context:
    """A context with every dialect cfmem reads or writes: builtin and nn loaded; func,
    arith, scf and memref (the flat form's), linalg, math, affine, cf and vector (bufferized upstream
    programs, ``nn-lower-to-linalg``'s output) loaded when the parser first meets them."""
    ctx = Context()
    for dialect in (builtin.Builtin, NN):
        ctx.load_dialect(dialect)
    factories = get_all_dialects()  # xDSL's loaders: each imports its dialect when called
    for name in ("func", "arith", "scf", "memref", "linalg", "math", "affine", "cf", "vector"):
        ctx.register_dialect(name, factories[name])
    return ctx


@dataclass
class SourceMap:
    """Where each parsed op starts in its source text."""

    path: str
    text: str
    starts: dict[Operation, int] = field(default_factory=dict)

    def position(self, offset: int) -> str:
        line = self.text.count("\n", 0, offset) + 1
        col = offset - (self.text.rfind("\n", 0, offset) + 1) + 1
        return f"{self.path}:{line}:{col}"

    def locate(self, op: Operation | None) -> str:
        """``file:line:col`` of ``op`` or of its nearest parsed ancestor."""
        while op is not None:
            if op in self.starts:
                return self.position(self.starts[op])
            op = op.parent_op()
        return self.path


class _LocatingParser(Parser):
    def __init__(self, ctx: Context, text: str, name: str, starts: dict[Operation, int]):
        super().__init__(ctx, text, name)
        self._starts = starts

    @property
    def position(self) -> int:
        """Offset of the token the parser stopped at."""
        return self._current_token.span.start

    def parse_operation(self) -> Operation:
        start = self._current_token.span.start
        op = super().parse_operation()
        self._starts[op] = start
        return op

    def _parse_builtin_densearray_attr(self) -> DenseArrayBase | None:
        """``array<f32: 0.5, -1.25e-3>`` and ``array<i64: 0, -3>`` read with one regular
        expression instead of a token per element (per-channel scales and zero points run to
        tens of thousands of elements). Anything else (booleans, hexadecimal, inf, nan, an
        integer out of its type's range, an error) is read by xDSL. Elements are ``float`` and
        ``int`` of their text, as xDSL's ``parse_float`` and ``parse_integer`` give them."""
        found = _DENSE_ARRAY.match(self.lexer.input.content, self.pos)
        if found is None:
            return super()._parse_builtin_densearray_attr()
        name, texts = found.group(1), found.group(2).split(",")
        if name.startswith("i"):
            element_type = IntegerType(int(name[1:]))
            low, high = element_type.value_range()
            if not all(_DECIMAL_INTEGER.fullmatch(text.strip()) for text in texts):
                return super()._parse_builtin_densearray_attr()  # a float among integers: its error
            values = [int(text) for text in texts]
            if not all(low <= v < high for v in values):
                return super()._parse_builtin_densearray_attr()  # its error
        else:
            element_type = _FLOAT_TYPES[name]
            if not all(_DECIMAL_FLOAT.fullmatch(text.strip()) for text in texts):
                return super()._parse_builtin_densearray_attr()  # an integer among floats: its error
            values = [float(text) for text in texts]
        self._resume_from(found.end())
        return DenseArrayBase.from_list(element_type, values)


_FLOAT_TYPES = {"f16": Float16Type(), "bf16": BFloat16Type(), "f32": Float32Type(), "f64": Float64Type()}
_DECIMAL_INTEGER = re.compile(r"-?[0-9]+")
_DECIMAL_FLOAT = re.compile(r"-?[0-9]+\.[0-9]*(?:[eE][-+]?[0-9]+)?")
_ELEMENT = r"-?[0-9]+(?:\.[0-9]*(?:[eE][-+]?[0-9]+)?)?"
_DENSE_ARRAY = re.compile(rf"<\s*(f16|bf16|f32|f64|i8|i16|i32|i64)\s*:\s*({_ELEMENT}(?:\s*,\s*{_ELEMENT})*)\s*>")
"""A dense array of decimal literals, from its ``<``: MLIR's integer and float literal forms."""


def parse_module(text: str, path: str = "<stdin>", ctx: Context | None = None) -> tuple[ModuleOp, SourceMap]:
    """Parse and verify ``text``; raise CfmemError pointing at the bad op."""
    source = SourceMap(path, text)
    _refuse_huge_splats(source)
    parser = None
    try:
        parser = _LocatingParser(ctx or make_context(), text, path, source.starts)  # lexes the first token
        module = parser.parse_module()
    except ParseError as err:
        raise CfmemError(_first_line(err.msg), source.position(err.span.start)) from None
    except (DiagnosticException, ValueError, OverflowError) as err:  # an attribute refused while parsing
        raise CfmemError(_first_line(str(err)), source.position(parser.position if parser else 0)) from None
    verify(module, source)
    check_dominance(module, source)
    return module, source


def _blocks(module: ModuleOp):
    for op in module.walk():
        for region in op.regions:
            yield from region.blocks


def check_dominance(module: ModuleOp, source: SourceMap | None = None) -> None:
    """Refuse a use of a value its definition does not dominate (xDSL's verifier leaves SSA
    dominance unchecked): within single-block regions, a value is visible after its op in its
    block and in every region nested there. Regions of several blocks (``cf`` branches) are
    not checked."""
    step = {op: k for block in _blocks(module) for k, op in enumerate(block.ops)}
    for op in module.walk():
        for index, value in enumerate(op.operands):
            block = value.block if isinstance(value, BlockArgument) else value.owner.parent_block()
            if block is None or (block.parent is not None and len(block.parent.blocks) > 1):
                continue
            user = op
            while user is not None and user.parent_block() is not block:
                user = user.parent_op()
            if user is None or not (isinstance(value, BlockArgument) or step[value.owner] < step[user]):
                where = source.locate(op) if source else None
                name = f"%{value.name_hint}" if value.name_hint else f"operand {index}"
                raise CfmemError(f"'{op.name}' uses {name} where its definition does not dominate the use", where)


# A splat literal, ``dense<1.0> : tensor<50000x50000xf32>``, which xDSL's parser expands in memory.
_SPLAT = re.compile(r"dense<\s*([^\[\]<>]*?)\s*>\s*:\s*(?:tensor|vector)<((?:\d+x)+)[a-z]*?(\d+)>")


def _refuse_huge_splats(source: SourceMap) -> None:
    """Refuse, before parsing, a splat constant too large to hold (the parser would expand it)."""
    for match in _SPLAT.finditer(source.text):
        count = math.prod(int(d) for d in match.group(2).rstrip("x").split("x"))
        size = count * max(1, int(match.group(3)) // 8)
        if size > MAX_RUN_BYTES:
            raise CfmemError(
                f"a dense constant of {count:,} elements ({format_bytes(size)}) is larger than the"
                f" {format_bytes(MAX_RUN_BYTES)} cfmem holds in memory",
                source.position(match.start()),
            )


def load_module(path: str | Path) -> tuple[ModuleOp, SourceMap]:
    """Read, parse and verify the module in file ``path``."""
    note_input(path)
    try:
        text = Path(path).read_text()
    except (OSError, UnicodeDecodeError) as err:
        reason = "not UTF-8 text" if isinstance(err, UnicodeDecodeError) else err.strerror or str(err)
        raise CfmemError(f"cannot read: {reason}", str(path)) from None
    module, source = parse_module(text, str(path))
    rebase_weight_files(module, Path(path).parent, Path("."))
    return module, source


def rebase_weight_files(module: ModuleOp, old_dir: Path, new_dir: Path) -> None:
    """Make the relative weight-file paths of flat globals (``cfmem.weights_file``),
    which a module in ``old_dir`` resolves, resolve the same from ``new_dir``.

    In memory a path is relative to the current directory: ``load_module``
    rebases from the file's directory, ``write_module`` to the output's.
    """
    if old_dir.resolve() == new_dir.resolve():
        return
    for op in module.ops:
        name = op.attributes.get(FILE_ATTR) if op.name == "memref.global" else None
        if isinstance(name, StringAttr) and not os.path.isabs(name.data):
            moved = os.path.relpath(os.path.abspath(old_dir / name.data), os.path.abspath(new_dir))
            op.attributes[FILE_ATTR] = StringAttr(moved)


def write_module(module: ModuleOp, output: str | None) -> None:
    """Print ``module`` to file ``output`` (atomically) or, if None, to standard output,
    with its weight-file paths relative to the output's directory."""
    target = Path(output).parent if output else Path(".")
    rebase_weight_files(module, Path("."), target)
    try:
        text = io.StringIO()
        Printer(stream=text).print_op(module)
        text.write("\n")
    finally:
        rebase_weight_files(module, target, Path("."))
    atomic_write_text(output or STDOUT, text.getvalue())  # standard output too: staged, its write errors one line


def verify(module: ModuleOp, source: SourceMap | None = None) -> None:
    """Verify op by op, innermost first, so the error names the op at fault."""
    for op in module.walk(region_first=True):
        try:
            op.verify(verify_nested_ops=False)
        except (DiagnosticException, ValueError) as err:
            where = source.locate(op) if source else None
            message = _first_line(str(err)).removeprefix("Operation does not verify: ")
            raise CfmemError(f"'{op.name}': {message}", where) from None


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else "unknown error"
