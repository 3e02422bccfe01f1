"""A function's model signature: its named inputs and results.

A tensor-level function takes its inputs as arguments and returns its
results. A lowered (flat) function returns nothing: its results are trailing
output-buffer arguments, named by its ``cfmem.output_names`` attribute.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr
from xdsl.ir import BlockArgument

OUTPUT_NAMES_ATTR = "cfmem.output_names"
"""On a lowered function: the names of its results, which are its trailing arguments."""


def input_args(fn: func.FuncOp) -> list[BlockArgument]:
    """The arguments that are model inputs (a lowered function's trailing
    arguments are its output buffers)."""
    args = list(fn.body.block.args)
    outputs = fn.attributes.get(OUTPUT_NAMES_ATTR)
    return args[: len(args) - len(outputs.data)] if isinstance(outputs, ArrayAttr) else args


def argument_names(fn: func.FuncOp) -> list[str]:
    return [arg.name_hint or f"arg{i}" for i, arg in enumerate(input_args(fn))]


def result_names(fn: func.FuncOp) -> list[str]:
    outputs = fn.attributes.get(OUTPUT_NAMES_ATTR)
    if isinstance(outputs, ArrayAttr):
        return [name.data for name in outputs.data]
    ret = fn.body.block.last_op
    assert ret is not None
    names: list[str] = []
    for i, value in enumerate(ret.operands):
        name = value.name_hint or f"result{i}"
        names.append(name if name not in names else f"{name}_{i}")
    return names
