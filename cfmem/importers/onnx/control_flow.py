"""ONNX ``If``, ``Loop`` and ``Scan``.

``If``: a condition known at import time picks the branch, whose nodes run in place
(``folded_ifs``); any other becomes ``nn.if``, each branch a subgraph run in a scope below the
node's, both yielding values of equal types. ``run_branch`` runs a subgraph (a branch, or a
Loop or Scan body) for the three.

``Loop``: M (absent: INT64_MAX), cond (absent: true) and the carried values
become the loop's operands; the body graph runs in a scope whose parent is the
node's, so it reads the values of every enclosing graph (as ``If``'s branches
do), with the iteration number and the condition as its first two inputs (both
rank 0, as in ONNX). Scan outputs need a static trip count: a known M and a
condition that is a known true and that the body passes on unchanged (or
yields as a known true). Carried values keep their type and shape.

``Scan`` (opset 9 on): a counted ``nn.loop`` over the scan inputs' common
length T whose body gathers element i of each scan input along its axis (T-1-i,
read from a reversed index table, for a reversed input); each scan output
stacks on axis 0 and is reversed (``scan_output_directions`` 1) and moved to
its axis after the loop.

A body that yields one of its inputs at another position (a swap of carried
values, or the condition carried on) yields a copy (a same-type ``nn.cast``):
nn-lower-to-memref refuses values carried between positions.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import onnx
from xdsl.ir import SSAValue

from cfmem.builder import GraphBuilder
from cfmem.dialects.shapes import normalize_axis
from cfmem.importers.imported import moves_argument
from cfmem.importers.onnx.core import Importer, OnnxImportError, Scope, Value, add_initializers
from cfmem.importers.onnx.helpers import attr, dtype_of, optional_input, out_name, reshape, shape_of

INT64_MAX = np.iinfo(np.int64).max
MAX_SCAN_LENGTH = 2**31 - 1
"""The most rows a Loop's scan output stacks (its static trip count)."""


def translate_if(imp: Importer, node: onnx.NodeProto, inputs: list, scope: Scope) -> list[Value]:
    cond = inputs[0]
    then_graph, else_graph = attr(node, "then_branch"), attr(node, "else_branch")
    if isinstance(cond, np.ndarray):
        if cond.size != 1:
            raise OnnxImportError(f"If condition has {cond.size} elements, not 1")
        imp.folded_ifs += 1
        return run_branch(imp, then_graph if bool(cond.reshape(-1)[0]) else else_graph, scope)
    if imp.b.shape(cond) and int(np.prod(imp.b.shape(cond))) != 1:
        raise OnnxImportError(f"If condition has shape {list(imp.b.shape(cond))}, not one element")
    if dtype_of(cond) != np.bool_:
        raise OnnxImportError(f"If condition must be bool, got {cond.type}")
    imp.kept_ifs += 1
    names = [out_name(imp, node, k) for k in range(len(node.output))]

    def branch(graph):
        def build(_):
            values = run_branch(imp, graph, scope)
            return [imp.runtime(v, f"{graph.name}_{k}") for k, v in enumerate(values)]

        return build

    return list(imp.b.if_(cond, branch(then_graph), branch(else_graph), names=names))


def run_branch(imp: Importer, graph: onnx.GraphProto, scope: Scope, args: Sequence[Value] = (),
               what: str = "branch") -> list[Value]:  # fmt: skip
    """The outputs of subgraph ``graph`` (an If branch, a Loop or Scan body) run in a scope
    below ``scope``, its inputs bound to ``args``. An initializer of ``graph`` may not reuse a
    name of the enclosing graphs: onnxruntime resolves such a name to the enclosing tensor in
    an If branch but to the subgraph's own in a Loop body."""
    for init in graph.initializer:
        if scope.lookup(init.name) is not None:
            raise OnnxImportError(f"{what} {graph.name!r} initializer {init.name!r} shadows a tensor of an enclosing graph")
    inner = Scope(parent=scope)
    add_initializers(inner, graph)
    for graph_input, value in zip(graph.input, args):
        inner.values[graph_input.name] = value
    imp.run_nodes(graph.node, inner)
    results = []
    for out in graph.output:
        value = inner.lookup(out.name)
        if value is None:
            raise OnnxImportError(f"{what} {graph.name!r} output {out.name!r} is never computed")
        results.append(value)
    return results


def scalar(imp: Importer, value: Value, dtype: type, what: str, hint: str) -> SSAValue:
    """A one-element ``dtype`` value as a rank-0 SSA value (ONNX Loop's M and cond)."""
    if isinstance(value, np.ndarray):
        if value.size != 1:
            raise OnnxImportError(f"Loop {what} has {value.size} elements, not 1")
        return imp.runtime(value.reshape(()).astype(dtype), hint)
    if dtype_of(value) != np.dtype(dtype) or int(np.prod(shape_of(imp, value))) != 1:
        raise OnnxImportError(f"Loop {what} must be a one-element {np.dtype(dtype)} tensor, got {value.type}")
    return reshape(imp, value, ())


def next_values(imp: Importer, graph: onnx.GraphProto, values: Sequence[Value], args: Sequence[SSAValue],
                first: int) -> list[SSAValue]:  # fmt: skip
    """The yielded carried values (graph outputs ``first``, ``first + 1``, ...), of the types
    of the body arguments they replace."""
    result = []
    for k, (value, arg) in enumerate(zip(values, args)):
        name = graph.output[first + k].name
        value = imp.runtime(value.astype(dtype_of(arg)) if isinstance(value, np.ndarray) else value, name)
        if value.type != arg.type:
            raise OnnxImportError(
                f"body output {name!r} is {value.type} but the value it carries is {arg.type}"
                " (carried values must keep their type and shape)"
            )
        result.append(unmoved(imp, value, arg, name))
    return result


def unmoved(imp: Importer, value: SSAValue, arg: SSAValue, name: str) -> SSAValue:
    """``value`` yielded in place of body argument ``arg``: a copy if it is another argument
    of the same body (:func:`~cfmem.importers.imported.moves_argument`)."""
    if moves_argument(value, arg):
        return imp.b.cast(value, dtype_of(value), imp.name(f"{name}_copy"))
    return value


def check_counts(node: onnx.NodeProto, got: int, want: int, what: str) -> None:
    if got != want:
        raise OnnxImportError(f"{node.op_type} body has {got} {what}, expected {want}")


def translate_loop(imp: Importer, node: onnx.NodeProto, inputs: list, scope: Scope) -> list[Value]:
    body = attr(node, "body")
    m, cond, inits = optional_input(inputs, 0), optional_input(inputs, 1), inputs[2:]
    n = len(inits)
    check_counts(node, len(body.input), n + 2, "inputs (the iteration number, the condition and the carried values)")
    scans = len(body.output) - 1 - n
    if scans < 0:
        raise OnnxImportError(f"Loop body has {len(body.output)} outputs, fewer than the condition and {n} carried values")
    length = static_scan_length(node, m, n) if scans else None
    hint = node.name or "loop"
    trips = scalar(imp, np.array(INT64_MAX, np.int64) if m is None else m, np.int64, "trip count M", f"{hint}_M")
    go = scalar(imp, np.array(True) if cond is None else cond, np.bool_, "condition", f"{hint}_cond")
    carried = [imp.runtime(v, node.input[2 + k]) for k, v in enumerate(inits)]

    def build(b: GraphBuilder, iteration: SSAValue, go_in: SSAValue, *state: SSAValue) -> list[SSAValue]:
        values = run_branch(imp, body, scope, [iteration, go_in, *state], "body")
        go_out = values[0]
        go_out = imp.runtime(go_out.astype(np.bool_) if isinstance(go_out, np.ndarray) else go_out, body.output[0].name)
        carried_out = next_values(imp, body, values[1 : 1 + n], state, 1)
        scan_out = [imp.runtime(v, body.output[1 + n + k].name) for k, v in enumerate(values[1 + n :])]
        return [unmoved(imp, go_out, go_in, body.output[0].name), *carried_out, *scan_out]

    names = [out_name(imp, node, k) for k in range(n + scans)]
    results = imp.b.loop(trips, carried, build, cond=go, scan_length=length, names=names)
    if scans and not results[0].owner.is_counted():
        raise OnnxImportError(f"scan output {output_name(node, n)!r} has a dynamic length: the loop's condition depends on data")
    return results


def static_scan_length(node: onnx.NodeProto, m: Value | None, n: int) -> int:
    """The trip count that a Loop's scan outputs stack: M, which must be known and positive."""
    what = f"scan output {output_name(node, n)!r}"
    if m is None:
        raise OnnxImportError(f"{what} has a dynamic length: the Loop has no trip count M")
    if not isinstance(m, np.ndarray):
        raise OnnxImportError(f"{what} has a dynamic length: the trip count M is computed at run time")
    length = int(m.reshape(-1)[0])
    if not 0 < length <= MAX_SCAN_LENGTH:
        raise OnnxImportError(f"{what} would stack {length} rows; cfmem takes 1 to {MAX_SCAN_LENGTH}")
    return length


def output_name(node: onnx.NodeProto, k: int) -> str:
    return node.output[k] if k < len(node.output) else f"#{k}"


def translate_scan(imp: Importer, node: onnx.NodeProto, inputs: list, scope: Scope) -> list[Value]:
    body = attr(node, "body")
    m = int(attr(node, "num_scan_inputs"))
    n = len(inputs) - m
    if n < 0:
        raise OnnxImportError(f"Scan has {len(inputs)} inputs, fewer than num_scan_inputs {m}")
    check_counts(node, len(body.input), len(inputs), "inputs (the states and one element per scan input)")
    k_out = len(body.output) - n
    if k_out < 0:
        raise OnnxImportError(f"Scan body has {len(body.output)} outputs, fewer than its {n} states")
    in_axes = axis_list(node, "scan_input_axes", m)
    in_dirs = direction_list(node, "scan_input_directions", m)
    out_axes = axis_list(node, "scan_output_axes", k_out)
    out_dirs = direction_list(node, "scan_output_directions", k_out)
    hint = node.name or "scan"
    xs = [imp.runtime(v, node.input[n + k]) for k, v in enumerate(inputs[n:])]
    axes = [scan_axis(a, len(imp.b.shape(x)), "scan_input_axes") for a, x in zip(in_axes, xs)]
    lengths = sorted({imp.b.shape(x)[a] for x, a in zip(xs, axes)})
    if len(lengths) != 1:
        raise OnnxImportError(f"Scan inputs have different lengths {lengths} along their scan axes")
    (length,) = lengths
    reversed_index = None
    if any(in_dirs) or any(out_dirs):
        reversed_index = imp.runtime(np.arange(length - 1, -1, -1, dtype=np.int64), f"{hint}_reversed")
    states = [imp.runtime(v, node.input[k]) for k, v in enumerate(inputs[:n])]

    def build(b: GraphBuilder, iteration: SSAValue, go_in: SSAValue, *carried: SSAValue) -> list[SSAValue]:
        back = b.gather(reversed_index, iteration, 0, imp.name(f"{hint}_back")) if any(in_dirs) else None
        elements = [
            b.gather(x, back if d else iteration, a, imp.name(f"{node.input[n + k]}_t"))
            for k, (x, a, d) in enumerate(zip(xs, axes, in_dirs))
        ]
        values = run_branch(imp, body, scope, [*carried, *elements], "body")
        yielded = next_values(imp, body, values[:n], carried, 0)
        return [go_in, *yielded, *(imp.runtime(v, body.output[n + k].name) for k, v in enumerate(values[n:]))]

    names = [out_name(imp, node, k) for k in range(n)]
    for k, (axis, d) in enumerate(zip(out_axes, out_dirs)):
        stacked_only = not d and axis == 0  # else reversed or moved after the loop
        names.append(out_name(imp, node, n + k) if stacked_only else imp.name(f"{output_name(node, n + k)}_stacked"))
    results = imp.b.loop(length, states, build, scan_length=length, names=names, name=imp.name(hint))
    outputs: list[Value] = list(results[:n])
    for k, (stack, axis, d) in enumerate(zip(results[n:], out_axes, out_dirs)):
        axis = scan_axis(axis, len(imp.b.shape(stack)), "scan_output_axes")
        if d or axis:
            stack = place_scan_output(imp, stack, axis, d, reversed_index, out_name(imp, node, n + k))
        outputs.append(stack)
    return outputs


def scan_axis(axis: int, rank: int, what: str) -> int:
    if not -rank <= axis < rank:
        raise OnnxImportError(f"Scan {what} has axis {axis}, out of range for rank {rank}")
    return normalize_axis(axis, rank)


def place_scan_output(imp: Importer, stack: SSAValue, axis: int, reverse: int, reversed_index: SSAValue | None,
                      name: str) -> SSAValue:  # fmt: skip
    """A scan output stacked on axis 0 in iteration order, reversed if asked and moved to
    ``axis`` (normalized)."""
    rank = len(imp.b.shape(stack))
    if reverse:
        stack = imp.b.gather(stack, reversed_index, 0, name if axis == 0 else None)
    if axis:
        perm = [*range(1, axis + 1), 0, *range(axis + 1, rank)]
        stack = imp.b.transpose(stack, perm, name)
    return stack


def axis_list(node: onnx.NodeProto, name: str, count: int) -> list[int]:
    values = [int(v) for v in attr(node, name, [0] * count)]
    if len(values) != count:
        raise OnnxImportError(f"Scan {name} has {len(values)} entries, expected {count}")
    return values


def direction_list(node: onnx.NodeProto, name: str, count: int) -> list[int]:
    values = axis_list(node, name, count)
    if any(v not in (0, 1) for v in values):
        raise OnnxImportError(f"Scan {name} {values} must be 0 (forward) or 1 (reverse)")
    return values
