"""A function's model signature: its named inputs and results.

A tensor-level function takes its inputs as arguments and returns its
results. A lowered (flat) function returns nothing: its results are trailing
output-buffer arguments, named by its ``cfmem.output_names`` attribute.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, BytesAttr, StringAttr
from xdsl.ir import BlockArgument

OUTPUT_NAMES_ATTR = "cfmem.output_names"
"""On a lowered function: the names of its results, which are its trailing arguments."""

INPUT_NAMES_ATTR = "cfmem.input_names"
RESULT_NAMES_ATTR = "cfmem.result_names"
"""Optional: the names callers use for a function's inputs and results where SSA names
cannot carry them (an imported model's own tensor names); they win over SSA names."""


def _names(fn: func.FuncOp, attr_name: str) -> list[str] | None:
    """The strings of an array attribute; non-ASCII names print as escaped bytes and
    parse back as ``BytesAttr``s of their UTF-8."""
    names = fn.attributes.get(attr_name)
    if not isinstance(names, ArrayAttr):
        return None
    return [n.data.decode(errors="replace") if isinstance(n, BytesAttr) else n.data for n in names.data if isinstance(n, StringAttr | BytesAttr)]


def _given_names(fn: func.FuncOp, attr_name: str, count: int) -> list[str] | None:
    names = _names(fn, attr_name)
    return names if names is not None and len(names) == count else None


def input_args(fn: func.FuncOp) -> list[BlockArgument]:
    """The arguments that are model inputs (a lowered function's trailing
    arguments are its output buffers)."""
    args = list(fn.body.block.args)
    outputs = fn.attributes.get(OUTPUT_NAMES_ATTR)
    return args[: len(args) - len(outputs.data)] if isinstance(outputs, ArrayAttr) else args


def argument_names(fn: func.FuncOp) -> list[str]:
    args = input_args(fn)
    return _given_names(fn, INPUT_NAMES_ATTR, len(args)) or [arg.name_hint or f"arg{i}" for i, arg in enumerate(args)]


def result_names(fn: func.FuncOp) -> list[str]:
    outputs = _names(fn, OUTPUT_NAMES_ATTR)
    if outputs is not None:
        return outputs
    ret = fn.body.block.last_op
    assert ret is not None
    given = _given_names(fn, RESULT_NAMES_ATTR, len(ret.operands))
    if given is not None:
        return given
    names: list[str] = []
    for i, value in enumerate(ret.operands):
        name = value.name_hint or f"result{i}"
        names.append(name if name not in names else f"{name}_{i}")
    return names
