"""Bytes a run allocates, measured from the static types before anything is allocated.

Sizes are Python integers, so a shape whose element count overflows numpy's
index type is measured, not allocated. The cap is far above what the bundled
and imported models need (the largest example allocates under 100 MiB) and
below what makes numpy fail or a machine swap. The interpreters keep every
value of a run alive, so the run's bytes are bounded by the sum of every
value's size (both branches of an if counted), plus the weight blobs and, in
the flat form, the arenas and scratch buffers.
"""

from __future__ import annotations

import math

from xdsl.dialects import func
from xdsl.dialects.builtin import MemRefType, ModuleOp, TensorType
from xdsl.ir import Attribute

from cfmem.dialects import nn_weights as nw
from cfmem.interp.weights import numpy_dtype
from cfmem.signature import argument_names, input_args

MAX_RUN_BYTES = 4 * 2**30


class FootprintError(ValueError):
    """A run would allocate more than ``MAX_RUN_BYTES``; the message names what."""


def type_bytes(ty: Attribute) -> int:
    """Bytes of a statically shaped tensor or memref type (0 for anything else)."""
    if not isinstance(ty, TensorType | MemRefType):
        return 0
    return math.prod(ty.get_shape()) * numpy_dtype(ty.get_element_type()).itemsize


def format_bytes(n: int) -> str:
    """``n`` bytes in the largest binary unit that keeps a leading digit, e.g. 74.5 GiB."""
    for unit, scale in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} bytes"


def check_input_bytes(fn: func.FuncOp) -> None:
    """Refuse inputs of ``fn`` that together exceed the cap, naming the largest."""
    sizes = {name: type_bytes(arg.type) for name, arg in zip(argument_names(fn), input_args(fn))}
    if sum(sizes.values()) > MAX_RUN_BYTES:
        name = max(sizes, key=sizes.__getitem__)
        arg = input_args(fn)[argument_names(fn).index(name)]
        raise FootprintError(
            f"input '{name}' ({arg.type}) takes {format_bytes(sizes[name])}; the inputs of"
            f" @{fn.sym_name.data} may take at most {format_bytes(MAX_RUN_BYTES)} in total"
        )


VIEWS = ("memref.view", "memref.get_global", nw.GetGlobalOp.name)
"""Ops whose result is memory counted elsewhere (an arena, a global, a blob). Named, not
imported: a tensor-level run never loads the memref dialect."""


def check_run_bytes(module: ModuleOp, fn: func.FuncOp) -> None:
    """Refuse a run of ``fn`` whose inputs, values, blobs and buffers could exceed the cap."""
    check_input_bytes(fn)
    sizes = [(f"%{arg.name_hint or 'argument'}", type_bytes(arg.type)) for arg in fn.body.block.args]
    for op in fn.walk():
        if op.name not in VIEWS:
            sizes += [(f"%{r.name_hint or op.name}", type_bytes(r.type)) for r in op.results]
    for op in module.ops:
        if op.name == "memref.global":
            sizes.append((f"@{op.sym_name.data}", type_bytes(op.type)))  # type: ignore[attr-defined]
        elif isinstance(op, nw.GlobalOp):
            sizes.append((f"@{op.sym_name.data}", op.size.value.data))
    total = sum(size for _, size in sizes)
    if total > MAX_RUN_BYTES:
        largest, size = max(sizes, key=lambda item: item[1])
        raise FootprintError(
            f"running @{fn.sym_name.data} needs up to {format_bytes(total)} (the largest, {largest},"
            f" {format_bytes(size)}), more than the {format_bytes(MAX_RUN_BYTES)} cfmem allows"
        )
