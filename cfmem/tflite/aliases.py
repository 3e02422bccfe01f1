"""Tensors an offline plan may put on another tensor's bytes in TFLite Micro: RESHAPE outputs.

TFLM's RESHAPE kernel copies its input to its output only when their data pointers differ
(``kernels/reshape.cc``: "Do nothing for in-place reshape"), so a RESHAPE's output may take
its input's bytes: nothing writes either tensor afterwards, and both hold the same bytes.
No other kernel promises this: SQUEEZE ``memcpy``s onto itself, which C leaves undefined,
and elementwise kernels are free to change how they walk their data.

A RESHAPE's output is aliased to its input (to the input's own root, along a chain of
RESHAPEs) when both are planned in the arena and have the same byte length. This holds in
every subgraph: TFLM writes a tensor only when it creates it, except a subgraph's inputs,
which ``IF`` and ``WHILE`` fill before the subgraph runs, when no tensor created inside it
is live yet (``WHILE`` copies a body's outputs into its own outputs first, and from there
into the body's inputs).

``aliased_problem`` folds each aliased tensor into its root: one buffer over the union of
their lifetimes. Its lower bound is below the plain problem's at every step, so it bounds
every plan that takes any subset of these aliases.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cfmem.planning.problem import Buffer, Problem
from cfmem.tflite.lifetimes import ArenaTensor
from cfmem.tflite.model_file import builtin_name

IN_PLACE_OPERATORS = ("RESHAPE",)
"""Builtin operators whose TFLM kernel skips its copy when output and input share bytes."""


def reshape_aliases(model: Any, tensors: list[ArenaTensor]) -> dict[str, str]:
    """``buffer id -> root buffer id`` for every tensor that may take another's bytes."""
    by_place = {(t.subgraph, t.index): t for t in tensors}
    roots: dict[str, str] = {}
    for sg, subgraph in enumerate(model.subgraphs):
        for op in subgraph.operators or []:
            if builtin_name(model, op.opcodeIndex) not in IN_PLACE_OPERATORS or op.inputs is None or op.outputs is None:
                continue
            if len(op.inputs) < 1 or len(op.outputs) != 1:
                continue
            source, result = by_place.get((sg, int(op.inputs[0]))), by_place.get((sg, int(op.outputs[0])))
            if source is None or result is None or source is result:
                continue
            if not (source.planned and result.planned and source.bytes == result.bytes):
                continue
            roots[result.buffer_id] = roots.get(source.buffer_id, source.buffer_id)
    return roots


def aliased_problem(problem: Problem, roots: Mapping[str, str]) -> Problem:
    """``problem`` with each buffer in ``roots`` folded into its root's buffer (the union of
    their lifetimes, the larger size and alignment), in the order of the roots."""
    members: dict[str, list[Buffer]] = {}
    for b in problem.buffers:
        members.setdefault(roots.get(b.id, b.id), []).append(b)
    merged = []
    for root, group in members.items():
        merged.append(
            Buffer(
                root,
                min(b.start for b in group),
                max(b.end for b in group),
                max(b.size for b in group),
                max(b.align for b in group),
            )
        )
    return Problem(merged, name=problem.name)


def with_aliases(offsets: Mapping[str, int], roots: Mapping[str, str]) -> dict[str, int]:
    """The offsets of a plan of ``aliased_problem``, with each aliased buffer at its root's."""
    return {**offsets, **{alias: offsets[root] for alias, root in roots.items()}}


def taken_aliases(offsets: Mapping[str, int], roots: Mapping[str, str]) -> dict[str, str]:
    """The aliases a plan takes: those whose buffer sits at its root's offset."""
    return {alias: root for alias, root in roots.items() if offsets.get(alias) == offsets.get(root)}

