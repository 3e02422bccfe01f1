"""The scratch buffers TFLite Micro's kernels ask for, measured operator by operator.

A kernel asks for scratch buffers while it prepares, from the shapes and parameters of its
tensors; the model file does not hold their sizes. They are measured in TFLM itself (the
reference kernels of the ``tflite-micro`` package, through ``tflm_runtime.TflmWorker``):
each operator is put alone into a model of its own (its tensors, the constants it reads,
the same operator codes), which TFLM allocates without an offline plan. In such a model
every tensor and every scratch buffer is live at the operator's one scope, so TFLM's
planner stacks them without a gap, and the head of its arena minus the tensors' aligned
bytes is the aligned total of the operator's scratch buffers.

``IF``, ``WHILE`` and ``CALL_ONCE`` ask for none and are not measured. An operator whose
model TFLM cannot allocate (a custom operator it lacks, a kernel that needs the rest of the
graph) is left out and named in ``ScratchSizes.unmeasured``; a missing scratch buffer only
costs arena bytes, since TFLM always plans scratch buffers online, around the offline plan.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from cfmem.planning.problem import align_up
from cfmem.tflite.lifetimes import ARENA_ALIGNMENT, ArenaScratch, arena_tensors, operator_scopes
from cfmem.tflite.model_file import builtin_name, schema
from cfmem.tflite.repack import pack_model
from cfmem.tflite.tflm_runtime import TflmWorker

NOT_MEASURED = ("IF", "WHILE", "CALL_ONCE")
SPARE_ARENA = 4 << 20
"""Bytes given to each one-operator model beyond twice its tensors: room for its scratch."""


@dataclass
class ScratchSizes:
    blocks: list[ArenaScratch] = field(default_factory=list)
    """One block per operator that asks for scratch bytes, in TFLM's order."""
    unmeasured: list[str] = field(default_factory=list)
    """``<subgraph>:<operator> <NAME>`` of the operators TFLM could not allocate alone."""


def measure_scratch(model: Any, tflm: TflmWorker) -> ScratchSizes:
    """The scratch blocks of every operator of every subgraph that TFLM's walk reaches."""
    scopes = operator_scopes(model)
    sizes = ScratchSizes()
    for (sg, k), (first, last) in sorted(scopes.items()):
        name = builtin_name(model, model.subgraphs[sg].operators[k].opcodeIndex)
        if name in NOT_MEASURED:
            continue
        alone = operator_model(model, sg, k)
        tensor_bytes = sum(align_up(t.bytes, ARENA_ALIGNMENT) for t in arena_tensors(alone) if t.planned)
        report = tflm.allocate(pack_model(alone), 2 * tensor_bytes + SPARE_ARENA)
        if report is None:
            sizes.unmeasured.append(f"{sg}:{k} {name}")
        elif report.head > tensor_bytes:
            sizes.blocks.append(ArenaScratch(sg, k, name, report.head - tensor_bytes, first, last))
    return sizes


def operator_model(model: Any, sg: int, k: int) -> Any:
    """Operator ``k`` of subgraph ``sg`` alone in a model: its tensors (constants with their
    data, variables as variables), its non-constant inputs as the subgraph's inputs, its
    outputs as the subgraph's outputs."""
    s = schema()
    subgraph = model.subgraphs[sg]
    op = subgraph.operators[k]
    inputs = [int(i) for i in _list(op.inputs)]
    outputs = [int(i) for i in _list(op.outputs)]
    intermediates = [int(i) for i in _list(op.intermediates)]
    used = list(dict.fromkeys(i for i in inputs + outputs + intermediates if i >= 0))
    index = {old: new for new, old in enumerate(used)}

    buffers = [s.BufferT()]
    tensors = []
    for old in used:
        tensor = copy.copy(subgraph.tensors[old])
        data = model.buffers[tensor.buffer].data
        if data is not None and len(data):
            tensor.buffer = len(buffers)
            buffers.append(model.buffers[subgraph.tensors[old].buffer])
        else:
            tensor.buffer = 0
        tensors.append(tensor)

    alone_op = copy.copy(op)
    alone_op.inputs = [index[i] if i >= 0 else -1 for i in inputs]
    alone_op.outputs = [index[i] for i in outputs]
    alone_op.intermediates = None if op.intermediates is None else [index[i] for i in intermediates]
    alone_op.mutatingVariableInputs = None

    alone_subgraph = s.SubGraphT()
    alone_subgraph.tensors = tensors
    alone_subgraph.operators = [alone_op]
    alone_subgraph.inputs = [
        index[i] for i in dict.fromkeys(inputs)
        if i >= 0 and tensors[index[i]].buffer == 0 and not tensors[index[i]].isVariable
    ]  # fmt: skip
    alone_subgraph.outputs = [index[i] for i in outputs]
    alone_subgraph.name = b"operator"

    alone = copy.copy(model)
    alone.subgraphs = [alone_subgraph]
    alone.buffers = buffers
    alone.metadata = None
    alone.metadataBuffer = None
    alone.signatureDefs = None
    return alone


def _list(values: Any) -> list:
    return [] if values is None else list(values)
