"""Which tensors TFLite Micro places in its arena, and when each is live, by TFLM's own rules.

A transcription of ``AllocationInfoBuilder`` (``micro_allocation_info.cc``) and of the
helpers it calls, over the schema's object tree (``ModelT``):

- **Which tensors.** A tensor is planned in the arena (``needs_allocating``) when its buffer
  holds no data, it is not a variable and its byte length is not 0. The byte length is the
  product of its ``shape`` times the size TFLM gives its type (``TfLiteTypeSizeOf``: INT4
  takes a whole byte); TFLM refuses a model with a type it has no size for, and one with an
  operator intermediate of non-zero size.
- **When.** One counter, the *allocation scope*, walks the graph from subgraph 0. A
  subgraph's inputs are created and used at its first scope; each operator opens a new
  scope, in which its outputs are created; an ``IF``, ``WHILE`` or ``CALL_ONCE`` then walks
  each subgraph it may invoke (then/else, cond/body, init), each in a scope of its own,
  before the operator's inputs and outputs are marked used at the scope reached; a
  subgraph's outputs are used at its last scope. Only the first creation counts, the last
  use wins. A tensor no walk reaches keeps ``[-1, -1]``. TFLM's planner treats lifetimes
  as closed intervals: two buffers conflict when ``[first, last]`` overlap.
- **Order.** All tensors of all subgraphs, subgraph by subgraph: the order of TFLM's
  allocation-info array, of its offline plan, and in which it adds buffers to its planner.

Kernels ask for scratch buffers while they prepare; their sizes are not in the model file
(``scratch_probe`` measures them). A scratch buffer of an operator lives from the scope the
operator opens to the scope reached after the subgraphs it invokes (``operator_scopes``);
TFLM adds them to its planner after all tensors and always plans them online. Every buffer
takes ``align_up(bytes, 16)`` bytes at a 16-byte aligned offset (``MicroArenaBufferAlignment``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from typing import Any

from cfmem.planning.problem import Buffer, Problem, align_up
from cfmem.tflite.model_file import TfliteFileError, builtin_name, schema

ARENA_ALIGNMENT = 16
"""``MicroArenaBufferAlignment()``: TFLM aligns every buffer's size and offset to it."""
UNINITIALIZED = -1
"""``kUninitializedLifetime``: the lifetime of a tensor no walk of the graph reaches."""

TYPE_BYTES = {
    "FLOAT16": 2, "BFLOAT16": 2, "FLOAT32": 4, "FLOAT64": 8, "INT16": 2, "UINT16": 2, "INT32": 4,
    "UINT32": 4, "UINT8": 1, "INT8": 1, "INT64": 8, "UINT64": 8, "BOOL": 1, "RESOURCE": 4,
    "COMPLEX64": 8, "COMPLEX128": 16, "INT4": 1,
}  # fmt: skip
"""Bytes per element by schema type name, as TFLM's ``TfLiteTypeSizeOf`` has them."""

_CONTROL_FLOW = {
    "IF": ("thenSubgraphIndex", "elseSubgraphIndex"),
    "WHILE": ("condSubgraphIndex", "bodySubgraphIndex"),
    "CALL_ONCE": ("initSubgraphIndex",),
}
"""The operators whose subgraphs TFLM walks, and the option fields naming them, in its order."""


@dataclass(frozen=True)
class ArenaTensor:
    """One tensor of the model as TFLM's allocator sees it."""

    subgraph: int
    index: int
    """Index within its subgraph."""
    name: str
    bytes: int
    first_created: int
    last_used: int
    kind: str
    """``planned`` (in the arena), ``constant`` (data in the file), ``variable`` (TFLM keeps
    it in the persistent part of the arena) or ``empty`` (0 bytes)."""

    @property
    def planned(self) -> bool:
        return self.kind == "planned"

    @property
    def buffer_id(self) -> str:
        return f"{self.subgraph}:{self.index}"


@dataclass(frozen=True)
class ArenaScratch:
    """The scratch buffers one operator's kernel asks for, as one block of their aligned sizes."""

    subgraph: int
    op: int
    name: str
    """The operator's builtin name."""
    bytes: int
    first_created: int
    last_used: int

    @property
    def buffer_id(self) -> str:
        return f"{self.subgraph}:op{self.op}"


def arena_tensors(model: Any) -> list[ArenaTensor]:
    """Every tensor of every subgraph, in TFLM's order, with TFLM's lifetimes and sizes."""
    walk = _LifetimeWalk(model)
    walk.mark_subgraph(0)
    tensors = []
    for sg, subgraph in enumerate(model.subgraphs):
        _check_intermediates(model, sg, subgraph)
        for i, tensor in enumerate(subgraph.tensors or []):
            first, last = walk.lifetimes.get((sg, i), (UNINITIALIZED, UNINITIALIZED))
            size = tensor_bytes(model, sg, i)
            if _has_data(model, tensor):
                kind = "constant"
            elif tensor.isVariable:
                kind = "variable"
            elif size == 0:
                kind = "empty"
            else:
                kind = "planned"
            tensors.append(ArenaTensor(sg, i, _name(tensor), size, first, last, kind))
    return tensors


def operator_scopes(model: Any) -> dict[tuple[int, int], tuple[int, int]]:
    """``(subgraph, operator) -> (first, last)``: the scopes a scratch buffer of the operator
    lives on (from the first walk that reaches it to the last)."""
    walk = _LifetimeWalk(model)
    walk.mark_subgraph(0)
    return walk.op_scopes


def arena_problem(tensors: list[ArenaTensor], scratch: list[ArenaScratch] | tuple = (), name: str = "") -> Problem:
    """The planned tensors, then the scratch blocks, as cfmem's buffer problem in TFLM's order:
    a buffer live on the closed scopes ``[first, last]`` is one on ``[first, last + 1)`` of its
    aligned size."""
    live = [t for t in tensors if t.planned] + list(scratch)
    buffers = [
        Buffer(b.buffer_id, b.first_created, b.last_used + 1, align_up(b.bytes, ARENA_ALIGNMENT), ARENA_ALIGNMENT)
        for b in live
    ]
    return Problem(buffers, name=name)


def tensor_bytes(model: Any, sg: int, i: int) -> int:
    """``TfLiteEvalTensorByteLength`` of tensor ``i`` of subgraph ``sg`` (a missing shape is a scalar)."""
    tensor = model.subgraphs[sg].tensors[i]
    type_name = _type_names().get(tensor.type, f"type {tensor.type}")
    if type_name not in TYPE_BYTES:
        raise TfliteFileError(
            f"tensor {i} '{_name(tensor)}' of subgraph {sg} has type {type_name}, which TFLite Micro has no size for"
        )
    shape = [] if tensor.shape is None else [int(d) for d in tensor.shape]
    if any(d < 0 for d in shape):
        raise TfliteFileError(f"tensor {i} '{_name(tensor)}' of subgraph {sg} has a negative dimension in its shape {shape}")
    return math.prod(shape) * TYPE_BYTES[type_name]


class _LifetimeWalk:
    """``MarkAllocationLifetimes`` and ``MarkSubgraphLifetimesIfNecessary``."""

    def __init__(self, model: Any):
        self.model = model
        self.scope = 0
        self.lifetimes: dict[tuple[int, int], tuple[int, int]] = {}
        self.op_scopes: dict[tuple[int, int], tuple[int, int]] = {}
        self.calling: list[int] = []

    def created(self, sg: int, i: int) -> None:
        first, last = self.lifetimes.get((sg, i), (UNINITIALIZED, UNINITIALIZED))
        if first == UNINITIALIZED:
            self.lifetimes[(sg, i)] = (self.scope, last)

    def used(self, sg: int, i: int) -> None:
        first, _ = self.lifetimes.get((sg, i), (UNINITIALIZED, UNINITIALIZED))
        self.lifetimes[(sg, i)] = (first, self.scope)

    def mark_subgraph(self, sg: int) -> None:
        if sg in self.calling:
            chain = " -> ".join(str(s) for s in [*self.calling, sg])
            raise TfliteFileError(f"subgraph {sg} invokes itself ({chain}): TFLite Micro cannot run it")
        self.calling.append(sg)
        subgraph = self.model.subgraphs[sg]
        for i in self._indices(sg, subgraph.inputs, "input of the subgraph"):
            self.created(sg, i)
            self.used(sg, i)
        for k, op in enumerate(subgraph.operators or []):
            self.scope += 1
            outputs = self._indices(sg, op.outputs, f"output of operator {k}")
            for i in outputs:
                self.created(sg, i)
            start = self.scope
            for called in self._called_subgraphs(sg, k, op):
                self.scope += 1
                self.mark_subgraph(called)
            for i in self._indices(sg, op.inputs, f"input of operator {k}"):
                self.used(sg, i)
            for i in outputs:
                self.used(sg, i)
            self.op_scopes[(sg, k)] = (self.op_scopes.get((sg, k), (start, 0))[0], self.scope)
        for i in self._indices(sg, subgraph.outputs, "output of the subgraph"):
            self.created(sg, i)
            self.used(sg, i)
        self.calling.pop()

    def _indices(self, sg: int, indices: Any, what: str) -> list[int]:
        """Tensor indices, without the ``-1`` of an omitted optional input."""
        count = len(self.model.subgraphs[sg].tensors or [])
        found = []
        for i in [] if indices is None else [int(i) for i in indices]:
            if i == -1 and what.startswith("input of operator"):
                continue
            if not 0 <= i < count:
                raise TfliteFileError(f"subgraph {sg}: {what} is tensor {i}, but the subgraph has {count} tensors")
            found.append(i)
        return found

    def _called_subgraphs(self, sg: int, k: int, op: Any) -> list[int]:
        name = builtin_name(self.model, op.opcodeIndex)
        if name not in _CONTROL_FLOW:
            return []
        if self.model.operatorCodes[op.opcodeIndex].builtinCode != getattr(schema().BuiltinOperator, name):
            raise TfliteFileError(
                f"subgraph {sg}: operator {k} ({name}) is named only by its deprecated builtin code,"
                " and TFLite Micro's planner would not see the subgraphs it invokes"
            )
        fields = _CONTROL_FLOW[name]
        if not all(hasattr(op.builtinOptions, field) for field in fields):
            raise TfliteFileError(f"subgraph {sg}: operator {k} ({name}) has no options naming the subgraphs it invokes")
        called = [int(getattr(op.builtinOptions, field)) for field in fields]
        for index in called:
            if not 0 <= index < len(self.model.subgraphs):
                raise TfliteFileError(f"subgraph {sg}: operator {k} ({name}) invokes subgraph {index}, which does not exist")
        return called


def _check_intermediates(model: Any, sg: int, subgraph: Any) -> None:
    """``ValidateSubgraph``: TFLM refuses an operator intermediate that takes bytes."""
    for k, op in enumerate(subgraph.operators or []):
        for i in [] if op.intermediates is None else [int(i) for i in op.intermediates]:
            if 0 <= i < len(subgraph.tensors) and tensor_bytes(model, sg, i):
                raise TfliteFileError(
                    f"subgraph {sg}: operator {k} has intermediate tensor {i} of {tensor_bytes(model, sg, i)} bytes,"
                    " which TFLite Micro does not support"
                )


def _has_data(model: Any, tensor: Any) -> bool:
    """``GetFlatbufferTensorBuffer``: whether the tensor's buffer holds data in the file."""
    buffers = model.buffers or []
    if not 0 <= tensor.buffer < len(buffers):
        raise TfliteFileError(f"tensor '{_name(tensor)}' names buffer {tensor.buffer}, but the model has {len(buffers)} buffers")
    buffer = buffers[tensor.buffer]
    if buffer.offset > 1:
        raise TfliteFileError(
            f"tensor '{_name(tensor)}' keeps its data outside the flatbuffer (buffer {tensor.buffer}, offset {buffer.offset}),"
            " which TFLite Micro does not read"
        )
    return buffer.data is not None and len(buffer.data) > 0


def _name(tensor: Any) -> str:
    return (tensor.name or b"").decode(errors="replace") if isinstance(tensor.name, bytes) else str(tensor.name or "")


@cache
def _type_names() -> dict[int, str]:
    types = schema().TensorType
    return {value: name for name, value in vars(types).items() if not name.startswith("_")}
