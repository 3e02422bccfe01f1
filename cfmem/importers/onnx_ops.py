"""Translation of single ONNX nodes for :mod:`cfmem.importers.onnx.core`.

``translate`` folds a node whose inputs are all known with onnx's reference
evaluator, and otherwise emits nn ops through the importer's GraphBuilder.
Each handler receives the importer, the node, its input values (``None`` for
an omitted optional input) and returns one value per node output.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import onnx
from onnx import helper
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, TensorType, f32, i64
from xdsl.ir import Attribute, SSAValue

from cfmem.dialects import nn_compute as nc
from cfmem.dialects import nn_quant as nq
from cfmem.dialects.shapes import normalize_axis
from cfmem.importers.onnx.core import Importer, OnnxImportError, Scope, Value, add_initializers, constant
from cfmem.importers.onnx.elementwise import (
    BINARY,
    COMPARE,
    LOGICAL,
    UNARY,
    activation,
    binary,
    cast,
    clip,
    compare,
    logical,
    mod,
    unary,
    variadic,
    where,
)
from cfmem.importers.onnx.folding import FOLDED_BY_HANDLER, NOT_FOLDED, fold
from cfmem.importers.onnx.helpers import (
    QUANT_ELEMENTS,
    attr,
    dtype_of,
    f32_operand,
    known,
    make,
    number,
    optional_input,
    out_name,
    reshape,
    shape_of,
)
from cfmem.importers.onnx.matmul import einsum, gemm, matmul
from cfmem.importers.onnx.nn import (
    as_nchw,
    conv,
    conv_transpose,
    conv_window,
    from_nchw,
    global_avg_pool,
    global_max_pool,
    pool,
)
from cfmem.importers.onnx.normalization import (
    batch_normalization,
    group_normalization,
    instance_normalization,
    layer_normalization,
    lp_normalization,
    lrn,
)
from cfmem.importers.onnx.reduce import (
    ALONG_AXIS,
    ARG_OPS,
    REDUCE_OPS,
    arg_extreme,
    cumsum,
    reduce,
    softmax,
    softmax_along,
)
from cfmem.importers.onnx.resize import resize
from cfmem.importers.onnx.tensor import (
    concat,
    depth_to_space,
    dropout,
    expand,
    flatten,
    gather,
    gather_elements,
    identity,
    pad,
    reshape_op,
    shape_op,
    size_op,
    slice_op,
    space_to_depth,
    split,
    squeeze,
    tile,
    top_k,
    transpose,
    unsqueeze,
)
from cfmem.importers.onnx_opsets import check_operator_version
from cfmem.interp import kernels

Handler = Callable[[Importer, onnx.NodeProto, list], list]


MICROSOFT = "com.microsoft"
MICROSOFT_OPS = ("QGemm", "QLinearAdd", "QLinearMul", "QLinearConcat", "QLinearSigmoid", "QLinearSoftmax")
"""onnxruntime's contrib ops that its quantizer writes (version 1 of their domain)."""


def translate(imp: Importer, node: onnx.NodeProto, inputs: list, scope: Scope) -> list[Value]:
    if node.domain == MICROSOFT and node.op_type in MICROSOFT_OPS:
        return HANDLERS[node.op_type](imp, node, inputs)
    if node.domain not in ("", "ai.onnx"):
        raise OnnxImportError(f"unsupported op domain {node.domain!r}")
    from cfmem.importers.onnx_sequences import SEQUENCE_OPS, TensorList, translate_sequence

    if node.op_type in SEQUENCE_OPS:
        check_operator_version(node.op_type, imp.opset)
        return translate_sequence(imp, node, inputs)
    if any(isinstance(v, TensorList) for v in inputs):
        raise OnnxImportError(f"{node.op_type} reads a sequence; only the sequence ops do")
    present = [v for v in inputs if v is not None]
    folded = node.op_type in NOT_FOLDED or node.op_type in FOLDED_BY_HANDLER
    if not folded and all(isinstance(v, np.ndarray) for v in present):
        return fold(imp, node, inputs)
    check_operator_version(node.op_type, imp.opset)
    imp.float_dtype = np.dtype(np.float16 if any(dtype_of(v) == np.float16 for v in present) else np.float32)
    if imp.float_dtype == np.float16 and (node.op_type in FLOAT16_VIA_FLOAT32 or scaled_gemm(node)):
        return via_float32(imp, node, inputs)
    if imp.float_dtype == np.float16 and node.op_type not in FLOAT16_OPS:
        supported = ", ".join((*FLOAT16_OPS, *FLOAT16_VIA_FLOAT32))
        raise OnnxImportError(f"{node.op_type} of float16 tensors is not supported (float16 models may use {supported})")
    if node.op_type == "If":
        return translate_if(imp, node, inputs, scope)
    if node.op_type in ("Loop", "Scan"):
        from cfmem.importers import onnx_loops  # it imports this module's helpers

        translate_loop = onnx_loops.translate_loop if node.op_type == "Loop" else onnx_loops.translate_scan
        return translate_loop(imp, node, inputs, scope)
    return HANDLERS[node.op_type](imp, node, inputs)


FLOAT16_OPS = (
    "Add", "Sub", "Mul", "Div", "Max", "Min", "Relu", "Sigmoid", "Tanh", "Sqrt", "Exp", "Log", "Neg", "Abs",
    "Floor", "Ceil", "Reciprocal", "Clip", "Equal", "Greater", "Less", "GreaterOrEqual", "LessOrEqual",
    "Conv", "Gemm", "MatMul", "MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool", "ReduceMean",
    "ReduceSum", "ReduceMax", "ReduceMin", "Softmax", "Concat", "Reshape", "Flatten", "Transpose", "Squeeze",
    "Unsqueeze", "Slice", "Split", "Pad", "Gather", "Identity", "Shape", "Cast",
)  # fmt: skip
"""Ops that take float16 tensors as nn ops on f16: each nn op computes in float32 and rounds
its result to float16 once (onnxruntime's CPU kernels upcast likewise); these ops are one nn
op each, or only move values. Others are refused by name, but ``FLOAT16_VIA_FLOAT32``."""

FLOAT16_VIA_FLOAT32 = (
    "LogSoftmax", "LeakyRelu", "PRelu", "Elu", "HardSigmoid", "HardSwish", "Softplus",
    "BatchNormalization", "LayerNormalization", "ReduceL2", "ReduceLogSumExp",
)  # fmt: skip
"""Ops that become several nn ops: on float16 tensors their inputs are cast to f32, the
float32 ops computed and the first result cast back to f16, so the op rounds to float16
once, as onnxruntime's upcasting kernels do (and not after every nn op it becomes)."""


def scaled_gemm(node: onnx.NodeProto) -> bool:
    """A Gemm with alpha or beta other than 1, whose operands the import scales in float32
    (on float16 tensors the scaled operands would otherwise round to float16 a second time)."""
    return node.op_type == "Gemm" and (attr(node, "alpha", 1.0) != 1.0 or attr(node, "beta", 1.0) != 1.0)


def via_float32(imp: Importer, node: onnx.NodeProto, inputs: list) -> list[Value]:
    """``node`` translated on float32 copies of its float16 inputs, its first result cast
    back to float16 (LayerNormalization's Mean and InvStdDev are float32 in ONNX already)."""
    widened = []
    for k, value in enumerate(inputs):
        if isinstance(value, np.ndarray) and value.dtype == np.float16:
            value = value.astype(np.float32)
        elif value is not None and dtype_of(value) == np.float16:
            value = imp.b.cast(value, np.float32, imp.name(f"{node.input[k]}_f32"))
        widened.append(value)
    imp.float_dtype = np.dtype(np.float32)
    results = HANDLERS[node.op_type](imp, node, widened)
    first = results[0]
    if isinstance(first, np.ndarray):
        return [first.astype(np.float16), *results[1:]]
    return [imp.b.cast(first, np.float16, imp.name(node.output[0])), *results[1:]]


# --- helpers -------------------------------------------------------------------------------


# --- aliases ---------------------------------------------------------------------------------


# --- elementwise ---------------------------------------------------------------------------


# --- logic and selection --------------------------------------------------------------------


# --- sliding windows (Conv, pooling) -----------------------------------------------------------


# --- linear algebra ----------------------------------------------------------------------------


# --- pooling, reductions ---------------------------------------------------------------------


# --- resizing ----------------------------------------------------------------------------------


# --- normalization ----------------------------------------------------------------------------


# --- data movement --------------------------------------------------------------------------


# --- recurrent ------------------------------------------------------------------------------

DEFAULT_ACTIVATIONS = {"LSTM": ("Sigmoid", "Tanh", "Tanh"), "GRU": ("Sigmoid", "Tanh")}
"""Each recurrent op's activations per direction when none are given: the only ones supported."""

GATES = {"LSTM": 4, "GRU": 3}
"""How many gates each recurrent op stacks in its W, R and (twice) B."""


def string_attr(node: onnx.NodeProto, name: str, default: str) -> str:
    """A string attribute as text (onnx gives bytes)."""
    value = attr(node, name, default)
    return value.decode() if isinstance(value, bytes) else value


@dataclass(frozen=True)
class Recurrence:
    """One recurrent node's static shape: ``directions`` run in order (forward first when
    bidirectional), ``batch_major`` is layout 1 (X ``[batch, seq, input]``, states
    ``[batch, directions, hidden]``) rather than layout 0 (``[seq, batch, input]``,
    ``[directions, batch, hidden]``)."""

    directions: tuple[str, ...]
    batch_major: bool
    seq: int
    batch: int
    hidden: int


def recurrent_directions(node: onnx.NodeProto) -> tuple[str, ...]:
    direction = string_attr(node, "direction", "forward")
    if direction == "bidirectional":
        return ("forward", "reverse")
    if direction not in ("forward", "reverse"):
        raise OnnxImportError(f"{node.op_type} direction {direction!r} is not one of forward, reverse, bidirectional")
    return (direction,)


def check_recurrent_attributes(node: onnx.NodeProto, directions: int) -> None:
    """Refuse clip and any activations but the defaults (spelled out or not)."""
    op = node.op_type
    if attr(node, "clip") is not None:
        raise OnnxImportError(f"{op} clip is not supported")
    given = [a.decode() if isinstance(a, bytes) else a for a in attr(node, "activations", [])]
    defaults = DEFAULT_ACTIVATIONS[op]
    if given and given != list(defaults) * directions:
        raise OnnxImportError(f"{op} activations {', '.join(given)} are not supported (only {', '.join(defaults)} per direction)")


def recurrence(imp, node, x: Value, w: Value, seq_lens: Value | None) -> Recurrence:
    """The node's directions, layout and sizes; refuses what the unrolling cannot follow."""
    op = node.op_type
    directions = recurrent_directions(node)
    check_recurrent_attributes(node, len(directions))
    layout = attr(node, "layout", 0)
    if layout not in (0, 1):
        raise OnnxImportError(f"{op} layout {layout} is not 0 or 1")
    xs = shape_of(imp, x)
    if len(xs) != 3:
        expected = "batch_size, seq_length" if layout else "seq_length, batch_size"
        raise OnnxImportError(f"{op} input X has shape {list(xs)}, expected [{expected}, input_size]")
    batch, seq = (xs[0], xs[1]) if layout else (xs[1], xs[0])
    if seq_lens is not None and np.any(known(seq_lens, f"{op} sequence_lens") != seq):
        raise OnnxImportError(f"{op} sequence_lens shorter than the sequence are not supported")
    hidden = known(w, f"{op} W").shape[1] // GATES[op]
    return Recurrence(directions, bool(layout), seq, batch, hidden)


def direction_weights(node, rec: Recurrence, value: Value, what: str, direction: int) -> np.ndarray:
    """Known weights ``what`` (W, R or B) of one direction, as float32."""
    weights = known(value, f"{node.op_type} {what}")
    if weights.shape[0] != len(rec.directions):
        raise OnnxImportError(f"{node.op_type} {what} holds {weights.shape[0]} direction(s), the node runs {len(rec.directions)}")
    return weights[direction].astype(np.float32)


def recurrent_weights(node, rec: Recurrence, w: Value, r: Value, bias: Value | None, direction: int) -> tuple[np.ndarray, ...]:
    """W, R and the input and recurrence biases of one direction (no B: zeros)."""
    w_d, r_d = direction_weights(node, rec, w, "W", direction), direction_weights(node, rec, r, "R", direction)
    rows = w_d.shape[0]
    b_d = direction_weights(node, rec, bias, "B", direction) if bias is not None else np.zeros(2 * rows, np.float32)
    return w_d, r_d, b_d[:rows], b_d[rows:]


def initial_state(imp, rec: Recurrence, state: Value | None, direction: int, hint: str) -> SSAValue:
    """Direction ``direction`` of an initial state as ``[batch, hidden]`` (omitted: zeros). A
    known state is cut in numpy: the flat lowering cannot reshape a one-element ``nn.constant``."""
    axis = int(rec.batch_major)
    if state is None or isinstance(state, np.ndarray):
        value = np.zeros((rec.batch, rec.hidden)) if state is None else np.take(state, direction, axis)
        return imp.runtime(value.astype(np.float32), hint)
    value = f32_operand(imp, state, hint)
    if len(rec.directions) > 1:
        value = imp.b.slice(value, [direction], [direction + 1], [axis], [1])
    return reshape(imp, value, (rec.batch, rec.hidden))


def step_input(imp, rec: Recurrence, x: SSAValue, t: int) -> SSAValue:
    """X at time step ``t`` as ``[batch, input]``."""
    return reshape(imp, imp.b.slice(x, [t], [t + 1], [int(rec.batch_major)], [1]), (rec.batch, -1))


Step = Callable[[SSAValue, tuple[SSAValue, ...]], tuple[SSAValue, ...]]
"""One time step of a cell: (X at that step, states) -> new states, the hidden state first."""


def unroll(imp, rec: Recurrence, x: SSAValue, step: Step, states: tuple[SSAValue, ...], reverse: bool):
    """``step`` over every time step, last to first when ``reverse``; the hidden state of each
    time step in time order, and the final states."""
    hs: list[SSAValue] = [states[0]] * rec.seq
    for t in reversed(range(rec.seq)) if reverse else range(rec.seq):
        states = step(step_input(imp, rec, x, t), states)
        hs[t] = states[0]
    return hs, states


def loop_over(imp, rec: Recurrence, x: SSAValue, step: Step, states: tuple[SSAValue, ...], reverse: bool, hint: str):
    """``step`` as the body of an ``nn.loop`` over the time steps (last to first when
    ``reverse``), reading the weights defined before it; the hidden states stacked in time
    order as ``[seq, batch, hidden]``, and the final states."""
    b = imp.b
    backwards = imp.runtime(np.arange(rec.seq - 1, -1, -1, dtype=np.int64), f"{hint}_back") if reverse else None

    def body(b, i: SSAValue, go: SSAValue, *carried: SSAValue) -> list[SSAValue]:
        t = b.gather(backwards, i, 0, imp.name(f"{hint}_t")) if reverse else i
        new = step(b.gather(x, t, int(rec.batch_major), imp.name(f"{hint}_x")), carried)
        return [go, *new, new[0]]

    *finals, hs = b.loop(rec.seq, list(states), body, scan_length=rec.seq, name=imp.name(hint))
    if reverse:
        hs = b.gather(hs, backwards, 0, imp.name(f"{hint}_hs"))
    return hs, tuple(finals)


def stacked_y(imp, rec: Recurrence, stacks: list[SSAValue], shape: Sequence[int], name: str) -> SSAValue:
    """Y from each direction's ``[seq, batch, hidden]`` hidden states: ``[seq, directions,
    batch, hidden]``, transposed to ``[batch, seq, directions, hidden]`` when batch-major."""
    parts = [reshape(imp, s, (rec.seq, 1, rec.batch, rec.hidden)) for s in stacks]
    joined = parts[0] if len(parts) == 1 else imp.b.concat(parts, 1, None if rec.batch_major else name)
    if rec.batch_major:
        return imp.b.transpose(joined, (2, 0, 1, 3), name)
    return reshape(imp, joined, shape, name)


def gate(imp, gates: SSAValue, k: int, hidden: int, count: int = 1) -> SSAValue:
    """Gates ``k`` to ``k + count`` of stacked ``[batch, gates * hidden]`` values."""
    return imp.b.slice(gates, [k * hidden], [(k + count) * hidden], [1], [1])


def lstm_step(imp, hidden: int, w: SSAValue, r: SSAValue, bias: SSAValue, zero: SSAValue) -> Step:
    """ONNX LSTM gates i, o, f, c; no peepholes: c' = f c + i g, h' = o tanh(c')."""
    b = imp.b

    def step(xt: SSAValue, states: tuple[SSAValue, ...]) -> tuple[SSAValue, ...]:
        h, c = states
        gates = b.add(b.gemm(xt, w, bias, trans_b=True), b.gemm(h, r, zero, trans_b=True))
        iof = b.sigmoid(gate(imp, gates, 0, hidden, 3))
        i, o, f = (gate(imp, iof, k, hidden) for k in range(3))
        c = b.add(b.mul(f, c), b.mul(i, b.tanh(gate(imp, gates, 3, hidden))))
        return b.mul(o, b.tanh(c)), c

    return step


def gru_step(imp, hidden: int, w: SSAValue, r_zr: SSAValue, r_h: SSAValue, bias: SSAValue, bias_rh: SSAValue | None,
             zero: SSAValue) -> Step:  # fmt: skip
    """ONNX GRU gates z, r, h: h' = (1 - z) n + z h with n = tanh(x Wh + (r h) Rh + Rbh + Wbh),
    or with ``bias_rh`` (linear_before_reset) n = tanh(x Wh + r (h Rh + Rbh) + Wbh); ``bias``
    holds every other bias."""
    b = imp.b

    def step(xt: SSAValue, states: tuple[SSAValue, ...]) -> tuple[SSAValue, ...]:
        (h,) = states
        xw = b.gemm(xt, w, bias, trans_b=True)
        zr = b.sigmoid(b.add(gate(imp, xw, 0, hidden, 2), b.gemm(h, r_zr, zero, trans_b=True)))
        z, reset = gate(imp, zr, 0, hidden), gate(imp, zr, 1, hidden)
        if bias_rh is None:
            recurrent = b.gemm(b.mul(reset, h), r_h, zero, trans_b=True)
        else:
            recurrent = b.mul(reset, b.gemm(h, r_h, bias_rh, trans_b=True))
        n = b.tanh(b.add(gate(imp, xw, 2, hidden), recurrent))
        return (b.add(n, b.mul(z, b.sub(h, n))),)

    return step


def stack_states(imp, rec: Recurrence, states: list[SSAValue], shape: Sequence[int], name: str) -> SSAValue:
    """``[batch, hidden]`` states joined along the directions axis of the layout (0, or 1 when
    batch-major), as ``shape``."""
    axis = int(rec.batch_major)
    piece = (rec.batch, 1, rec.hidden) if rec.batch_major else (1, rec.batch, rec.hidden)
    parts = [reshape(imp, s, piece) for s in states]
    joined_shape = list(piece)
    joined_shape[axis] = len(parts)
    joined = parts[0] if len(parts) == 1 else imp.b.concat(parts, axis, name if tuple(joined_shape) == tuple(shape) else None)
    return reshape(imp, joined, shape, name)


def recurrent_outputs(imp, node, rec: Recurrence, y: Callable[[Sequence[int], str], SSAValue],
                      finals: list[tuple[SSAValue, ...]]) -> list:  # fmt: skip
    """Y (every hidden state, built by ``y`` as the given shape), then one output per final
    state (Y_h, Y_c), each only if asked for."""
    directions = len(rec.directions)
    per_direction = (rec.batch, directions, rec.hidden) if rec.batch_major else (directions, rec.batch, rec.hidden)
    results: list[SSAValue | None] = []
    for k in range(1 + len(finals[0])):
        if k >= len(node.output) or not node.output[k]:
            results.append(None)
        elif k == 0:
            shape = (rec.batch, rec.seq, directions, rec.hidden) if rec.batch_major else (rec.seq, directions, rec.batch, rec.hidden)
            results.append(y(shape, out_name(imp, node, 0)))
        else:
            states = [final[k - 1] for final in finals]
            results.append(stack_states(imp, rec, states, per_direction, out_name(imp, node, k)))
    return results


def run_recurrence(imp, node, rec: Recurrence, x: Value, cells: list[tuple[Step, tuple[SSAValue, ...]]]) -> list:
    """Each direction's cell (its step and initial states) over X, unrolled or as a loop
    (``imp.recurrence``), then the outputs."""
    x = f32_operand(imp, x, node.input[0])
    finals = []
    if imp.recurrence == "loop" and rec.seq > 1:
        stacks = []
        for direction, (step, states) in zip(rec.directions, cells):
            hs, final = loop_over(imp, rec, x, step, states, direction == "reverse", f"{node.name or node.op_type.lower()}_{direction}")
            stacks.append(hs)
            finals.append(final)
        return recurrent_outputs(imp, node, rec, lambda shape, name: stacked_y(imp, rec, stacks, shape, name), finals)
    hs = []
    for direction, (step, states) in zip(rec.directions, cells):
        h_all, final = unroll(imp, rec, x, step, states, direction == "reverse")
        hs.append(h_all)
        finals.append(final)

    def y(shape: Sequence[int], name: str) -> SSAValue:
        states = [hs[d][t] for t in range(rec.seq) for d in range(len(rec.directions))]
        return stack_states(imp, rec, states, shape, name)

    return recurrent_outputs(imp, node, rec, y, finals)


def lstm(imp, node, inputs):
    """LSTM with the default activations, no peepholes, clip or input_forget: unrolled over
    the sequence, in each direction."""
    x, w, r, bias, seq_lens, h0, c0, peepholes = (inputs + [None] * 8)[:8]
    if attr(node, "input_forget", 0):
        raise OnnxImportError("LSTM input_forget is not supported")
    if peepholes is not None:
        raise OnnxImportError("LSTM peepholes are not supported")
    rec = recurrence(imp, node, x, w, seq_lens)
    name = node.name or "lstm"  # a hint for the weights' names; the outputs take the ONNX ones
    zero = number(imp, 0.0, f"{name}_zero")
    cells = []
    for d in range(len(rec.directions)):
        w_d, r_d, wb, rb = recurrent_weights(node, rec, w, r, bias, d)
        step = lstm_step(imp, rec.hidden, imp.runtime(w_d, f"{name}_W"), imp.runtime(r_d, f"{name}_R"),
                         imp.runtime(wb + rb, f"{name}_B"), zero)  # fmt: skip
        states = (initial_state(imp, rec, h0, d, f"{name}_h0"), initial_state(imp, rec, c0, d, f"{name}_c0"))
        cells.append((step, states))
    return run_recurrence(imp, node, rec, x, cells)


def gru(imp, node, inputs):
    """GRU with the default activations and no clip, either linear_before_reset: unrolled
    over the sequence, in each direction."""
    x, w, r, bias, seq_lens, h0 = (inputs + [None] * 6)[:6]
    rec = recurrence(imp, node, x, w, seq_lens)
    name = node.name or "gru"  # a hint for the weights' names; the outputs take the ONNX ones
    zero = number(imp, 0.0, f"{name}_zero")
    before_reset = bool(attr(node, "linear_before_reset", 0))
    hidden, cells = rec.hidden, []
    for d in range(len(rec.directions)):
        w_d, r_d, wb, rb = recurrent_weights(node, rec, w, r, bias, d)
        x_bias = np.concatenate([wb[: 2 * hidden] + rb[: 2 * hidden], wb[2 * hidden :] + (0 if before_reset else rb[2 * hidden :])])
        step = gru_step(
            imp, hidden, imp.runtime(w_d, f"{name}_W"), imp.runtime(r_d[: 2 * hidden], f"{name}_Rzr"),
            imp.runtime(r_d[2 * hidden :], f"{name}_Rh"), imp.runtime(x_bias, f"{name}_B"),
            imp.runtime(rb[2 * hidden :], f"{name}_Rbh") if before_reset else None, zero,
        )  # fmt: skip
        cells.append((step, (initial_state(imp, rec, h0, d, f"{name}_h0"),)))
    return run_recurrence(imp, node, rec, x, cells)


# --- control flow ------------------------------------------------------------------------------


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


# --- quantized ops ----------------------------------------------------------------------------


@dataclass(frozen=True)
class QuantParams:
    """A known scale and zero point: one element, or one per slice along an axis."""

    scale: np.ndarray
    zero_point: np.ndarray

    def props(self, prefix: str) -> dict:
        return {f"{prefix}_scale": nq.f32_array(self.scale), f"{prefix}_zero_point": nc.i64_array(self.zero_point)}

    @property
    def element(self) -> Attribute:
        return QUANT_ELEMENTS[self.zero_point.dtype]


def quant_params(node: onnx.NodeProto, inputs: list, k: int, what: str, default_type=np.uint8) -> QuantParams:
    """The scale at input ``k`` and the zero point after it (zeros of ``default_type``
    when omitted); both must be known; a zero point is int8 or uint8, except a bias's int32."""
    scale = known(optional_input(inputs, k), f"{node.op_type} {what} scale").astype(np.float32).reshape(-1)
    zero_point = optional_input(inputs, k + 1)
    if zero_point is None:
        zero_point = np.zeros(scale.shape, default_type)
    zero_point = known(zero_point, f"{node.op_type} {what} zero point").reshape(-1)
    if zero_point.dtype not in QUANT_ELEMENTS and zero_point.dtype != np.int32:
        raise OnnxImportError(f"{node.op_type} {what} zero point of type {zero_point.dtype} is not supported (int8, uint8)")
    return QuantParams(scale, zero_point)


def check_no_blocks(node: onnx.NodeProto) -> None:
    if attr(node, "block_size", 0):
        raise OnnxImportError(f"{node.op_type} with block_size {attr(node, 'block_size')} is not supported")


def quantized_operand(imp: Importer, value: Value, hint: str, params: QuantParams) -> SSAValue:
    """A quantized tensor as an SSA value, known ones stored in their own type."""
    if params.zero_point.dtype not in QUANT_ELEMENTS:
        raise OnnxImportError(f"{hint} has a zero point of type {params.zero_point.dtype} (int8 or uint8 expected)")
    if isinstance(value, np.ndarray):
        if value.dtype not in QUANT_ELEMENTS:
            raise OnnxImportError(f"expected an int8 or uint8 tensor for {hint}, got {value.dtype}")
        if value.dtype != params.zero_point.dtype:
            raise OnnxImportError(f"{hint} has type {value.dtype}, but its zero point is {params.zero_point.dtype}")
        return imp.runtime(value, hint, dtype=value.dtype)
    if value.type.get_element_type() != params.element:
        raise OnnxImportError(f"{hint} has type {value.type}, but its zero point is {params.zero_point.dtype}")
    return value


def quantize_linear(imp, node, inputs):
    check_no_blocks(node)
    output_dtype = attr(node, "output_dtype", 0)
    default = helper.tensor_dtype_to_np_dtype(output_dtype) if output_dtype else np.uint8
    params = quant_params(node, inputs, 1, "y", default)
    if params.zero_point.dtype not in QUANT_ELEMENTS:
        raise OnnxImportError(f"QuantizeLinear to {params.zero_point.dtype} is not supported (int8, uint8)")
    props = {"element": params.element, "axis": IntegerAttr(int(attr(node, "axis", 1)), i64), **params.props("y")}
    x = inputs[0]
    if isinstance(x, np.ndarray):
        return [run_quant_op(nq.QuantizeOp, x.astype(np.float32), props, params.element)]
    return [make(imp, nq.QuantizeOp, [f32_operand(imp, x, node.input[0])], props, out_name(imp, node))]


def dequantize_linear(imp, node, inputs):
    check_no_blocks(node)
    x = inputs[0]
    params = quant_params(node, inputs, 1, "x", dtype_of(x))
    props = {"axis": IntegerAttr(int(attr(node, "axis", 1)), i64), **params.props("x")}
    if isinstance(x, np.ndarray):
        return [run_quant_op(nq.DequantizeOp, x, props, f32)]
    return [make(imp, nq.DequantizeOp, [x], props, out_name(imp, node))]


def run_quant_op(cls: type[nc.ComputeOp], x: np.ndarray, props: dict, element: Attribute) -> np.ndarray:
    """A (de)quantize of known ``x`` by its reference kernel, as the run time computes it."""
    op = cls.create(result_types=[TensorType(element, list(x.shape))], properties=props)
    return kernels.KERNELS[cls](op, x)


def qlinear_conv(imp, node, inputs):
    x_params = quant_params(node, inputs, 1, "x")
    w = known(inputs[3], "QLinearConv weights", imp)
    w_params = quant_params(node, inputs, 4, "w")
    y_params = quant_params(node, inputs, 6, "y")
    x = quantized_operand(imp, inputs[0], node.input[0], x_params)
    x, props = conv_window(imp, node, x, w)
    operands = [x, quantized_operand(imp, w.reshape(as_nchw(w.shape)), node.input[3], w_params)]
    bias = optional_input(inputs, 8)
    if bias is not None:
        operands.append(imp.runtime(known(bias, "QLinearConv bias").astype(np.int32), node.input[8], dtype=np.int32))
    props |= {"element": y_params.element, **x_params.props("x"), **w_params.props("w"), **y_params.props("y")}
    name = out_name(imp, node)
    y = make(imp, nq.QConv2dOp, operands, props, name + ("_2d" if w.ndim == 3 else ""))
    return [from_nchw(imp, y, w.ndim - 2, name)]


def qgemm(imp, node, inputs):
    """onnxruntime QGemm (A, a_scale, a_zp, B, b_scale, b_zp, C, y_scale, y_zp); ONNX
    QLinearMatMul (a, a_scale, a_zp, b, b_scale, b_zp, y_scale, y_zp) on 2-D operands."""
    matmul_form = node.op_type == "QLinearMatMul"
    if attr(node, "transA", 0):
        raise OnnxImportError(f"{node.op_type} with transA is not supported")
    a_params, b_params = quant_params(node, inputs, 1, "a"), quant_params(node, inputs, 4, "b")
    a = quantized_operand(imp, inputs[0], node.input[0], a_params)
    b = quantized_operand(imp, inputs[3], node.input[3], b_params)
    if matmul_form and (len(shape_of(imp, inputs[0])) != 2 or len(shape_of(imp, inputs[3])) != 2):
        return [qlinear_matmul_batched(imp, node, inputs, a, b)]
    if len(shape_of(imp, inputs[0])) != 2 or len(shape_of(imp, inputs[3])) != 2:
        raise OnnxImportError(f"{node.op_type} of operands of rank other than 2 is not supported")
    props = {"trans_b": IntegerAttr(int(attr(node, "transB", 0)), i64), **a_params.props("a"), **b_params.props("b")}
    if attr(node, "alpha", 1.0) != 1.0:
        props["alpha"] = FloatAttr(float(attr(node, "alpha")), f32)
    operands = [a, b]
    c = None if matmul_form else optional_input(inputs, 6)
    if c is not None:
        operands.append(imp.runtime(known(c, "QGemm C").astype(np.int32), node.input[6], dtype=np.int32))
    k_y = 6 if matmul_form else 7
    if not matmul_form and optional_input(inputs, k_y) is not None and optional_input(inputs, k_y + 1) is None:
        raise OnnxImportError("QGemm with y_scale and no y_zero_point is not supported (onnxruntime gives float results over y_scale)")
    if optional_input(inputs, k_y) is not None:
        y_params = quant_params(node, inputs, k_y, "y")
        props |= {"element": y_params.element, **y_params.props("y")}
    return [make(imp, nq.QGemmOp, operands, props, out_name(imp, node))]


def qlinear_matmul_batched(imp, node, inputs, a: SSAValue, b: SSAValue) -> SSAValue:
    """QLinearMatMul of operands of other ranks (batched, broadcast): the i32 products
    (``nn.matmul_integer``), then requantized as ``nn.qgemm`` requantizes, the accumulator in
    f32 times ``a_scale * b_scale / y_scale`` rounded into y (a quantize of scale 1)."""
    params = [quant_params(node, inputs, k, p) for k, p in ((1, "a"), (4, "b"), (6, "y"))]
    if any(p.scale.size != 1 for p in params):
        raise OnnxImportError(f"{node.op_type} of operands of rank other than 2 with a per-axis scale is not supported")
    a_params, b_params, y_params = params
    name = out_name(imp, node)
    zeros = [constant(imp, p.zero_point.astype(dtype_of(v)).reshape(1), f"{name}_{k}_zero") for k, v, p in (("a", a, a_params), ("b", b, b_params))]
    products = make(imp, nq.MatmulIntegerOp, [a, b, *zeros], {}, imp.name(f"{name}_products"))
    ratio = np.float32(1.0) * a_params.scale[0] * b_params.scale[0] / y_params.scale[0]
    real = imp.b.mul(imp.b.cast(products, np.float32), number(imp, float(ratio), f"{name}_ratio"))
    unit = QuantParams(np.ones(1, np.float32), y_params.zero_point)
    return make(imp, nq.QuantizeOp, [real], {"element": y_params.element, **unit.props("y")}, name)


def qlinear_softmax(imp, node, inputs):
    """onnxruntime QLinearSoftmax (X, x_scale, x_zp, y_scale, y_zp; ``opset`` 13 or later: per
    axis): dequantized, the float softmax, quantized again."""
    if attr(node, "opset", 13) < 13:
        raise OnnxImportError(f"QLinearSoftmax with opset {attr(node, 'opset')} (the input coerced to 2-D) is not supported")
    x_params, y_params = quant_params(node, inputs, 1, "x"), quant_params(node, inputs, 3, "y")
    x = quantized_operand(imp, inputs[0], node.input[0], x_params)
    name = out_name(imp, node)
    real = make(imp, nq.DequantizeOp, [x], x_params.props("x"), f"{name}_real")
    y = softmax_along(imp, real, normalize_axis(attr(node, "axis", -1), len(imp.b.shape(real))), imp.name(f"{name}_softmax"))
    return [make(imp, nq.QuantizeOp, [y], {"element": y_params.element, **y_params.props("y")}, name)]


def per_tensor(node: onnx.NodeProto, *params: tuple[QuantParams, str]) -> None:
    """Refuse per-axis parameters where onnxruntime takes one scale and zero point."""
    for p, what in params:
        if p.scale.size != 1:
            raise OnnxImportError(f"{node.op_type} with a per-axis {what} scale is not supported")


def qlinear_binary(imp, node, inputs):
    """onnxruntime QLinearAdd and QLinearMul (A, a_scale, a_zp, B, b_scale, b_zp, y_scale, y_zp)."""
    a_params, b_params, y_params = (quant_params(node, inputs, k, p) for k, p in ((1, "a"), (4, "b"), (6, "y")))
    per_tensor(node, (a_params, "A"), (b_params, "B"), (y_params, "Y"))
    a = quantized_operand(imp, inputs[0], node.input[0], a_params)
    b = quantized_operand(imp, inputs[3], node.input[3], b_params)
    props = {"element": y_params.element, **a_params.props("a"), **b_params.props("b"), **y_params.props("y")}
    cls = nq.QAddOp if node.op_type == "QLinearAdd" else nq.QMulOp
    return [make(imp, cls, [a, b], props, out_name(imp, node))]


def integer_data(imp: Importer, value: Value, hint: str) -> SSAValue:
    """An int8 or uint8 operand of an integer product, known ones stored in their own type."""
    dtype = dtype_of(value)
    if dtype not in QUANT_ELEMENTS:
        raise OnnxImportError(f"{hint} must be an int8 or uint8 tensor, got {dtype}")
    return imp.runtime(value, hint, dtype=dtype) if isinstance(value, np.ndarray) else value


def integer_zero_point(imp: Importer, node: onnx.NodeProto, inputs: list, k: int, data: SSAValue) -> SSAValue:
    """Input ``k``, one zero point of ``data``'s type, known or computed at run time (0 when
    omitted); per-row or per-column zero points are refused by name."""
    dtype = dtype_of(data)
    zero_point = optional_input(inputs, k)
    if zero_point is None:
        zero_point = np.zeros((1,), dtype)
    if int(np.prod(shape_of(imp, zero_point))) != 1:
        raise OnnxImportError(f"{node.op_type} with a zero point of shape {list(shape_of(imp, zero_point))} is not supported (one value)")
    if dtype_of(zero_point) != dtype:
        raise OnnxImportError(f"{node.op_type} zero point of type {dtype_of(zero_point)} for {dtype} data")
    if isinstance(zero_point, np.ndarray):
        return constant(imp, zero_point.reshape(1), f"{node.input[k] if len(node.input) > k and node.input[k] else out_name(imp, node)}_zero_point")
    return zero_point


def matmul_integer(imp, node, inputs):
    """MatMulInteger: the i32 matmul of zero-point-centred int8/uint8 operands."""
    a, b = integer_data(imp, inputs[0], node.input[0]), integer_data(imp, inputs[1], node.input[1])
    zeros = [integer_zero_point(imp, node, inputs, k, v) for k, v in ((2, a), (3, b))]
    return [make(imp, nq.MatmulIntegerOp, [a, b, *zeros], {}, out_name(imp, node))]


def conv_integer(imp, node, inputs):
    """ConvInteger: the i32 convolution of zero-point-centred int8/uint8 data and known weights."""
    w = known(inputs[1], "ConvInteger weights", imp)
    x, props = conv_window(imp, node, integer_data(imp, inputs[0], node.input[0]), w)
    weight = integer_data(imp, w.reshape(as_nchw(w.shape)), node.input[1])
    zeros = [integer_zero_point(imp, node, inputs, k, v) for k, v in ((2, x), (3, weight))]
    name = out_name(imp, node)
    y = make(imp, nq.ConvIntegerOp, [x, weight, *zeros], props, name + ("_2d" if w.ndim == 3 else ""))
    return [from_nchw(imp, y, w.ndim - 2, name)]


def dynamic_quantize_linear(imp, node, inputs):
    """DynamicQuantizeLinear as onnxruntime computes it: the range of ``x`` widened to hold 0,
    ``scale = (max - min) / 255`` (1 when the range is empty), ``zero_point =
    round(clamp(-min / scale, 0, 255))``, ``y = clamp(round(x / scale) + zero_point, 0, 255)``
    in uint8; rounding half to even."""
    b = imp.b
    x = f32_operand(imp, inputs[0], node.input[0])
    axes, name = list(range(len(b.shape(x)))), out_name(imp, node)
    low = b.min(b.reduce_min(x, axes, keepdims=False), number(imp, 0.0, f"{name}_zero"))
    high = b.max(b.reduce_max(x, axes, keepdims=False), number(imp, 0.0, f"{name}_zero"))
    empty = b.cmp("eq", high, low)
    scale = b.select(empty, number(imp, 1.0, f"{name}_one"), b.div(b.sub(high, low), number(imp, 255.0, f"{name}_255")),
                     imp.name(out_name(imp, node, 1)))
    zero = b.clamp(b.round(b.neg(b.div(low, scale))), 0.0, 255.0)
    y = b.clamp(b.add(b.round(b.div(x, scale)), zero), 0.0, 255.0)
    return [b.cast(y, np.uint8, name), scale, b.cast(zero, np.uint8, imp.name(out_name(imp, node, 2)))]


def qlinear_sigmoid(imp, node, inputs):
    """onnxruntime QLinearSigmoid (X, x_scale, x_zp, y_scale, y_zp): dequantized, the float
    sigmoid, quantized again (onnxruntime tabulates the same per 8-bit value)."""
    x_params, y_params = quant_params(node, inputs, 1, "x"), quant_params(node, inputs, 3, "y")
    per_tensor(node, (x_params, "X"), (y_params, "Y"))
    x = quantized_operand(imp, inputs[0], node.input[0], x_params)
    name = out_name(imp, node)
    real = make(imp, nq.DequantizeOp, [x], x_params.props("x"), f"{name}_real")
    y = imp.b.sigmoid(real, name=f"{name}_sigmoid")
    props = {"element": y_params.element, **y_params.props("y")}
    return [make(imp, nq.QuantizeOp, [y], props, name)]


def qlinear_concat(imp, node, inputs):
    """onnxruntime QLinearConcat (y_scale, y_zp, then (X, x_scale, x_zp) per input)."""
    y_params = quant_params(node, inputs, 0, "y")
    if (len(inputs) - 2) % 3 or len(inputs) < 5:
        raise OnnxImportError(f"QLinearConcat needs y_scale, y_zero_point and triples of X, scale, zero point; got {len(inputs)} inputs")
    parts, scales, zero_points = [], [], []
    for k in range(2, len(inputs), 3):
        params = quant_params(node, inputs, k + 1, f"input {(k - 2) // 3}")
        per_tensor(node, (params, f"input {(k - 2) // 3}"))
        parts.append(quantized_operand(imp, inputs[k], node.input[k], params))
        scales.append(params.scale.item())
        zero_points.append(params.zero_point.item())
    rank = len(imp.b.shape(parts[0]))
    props = {"element": y_params.element, "axis": IntegerAttr(normalize_axis(int(attr(node, "axis")), rank), i64),
             "x_scale": nq.f32_array(scales), "x_zero_point": nc.i64_array(zero_points), **y_params.props("y")}  # fmt: skip
    return [make(imp, nq.QConcatOp, parts, props, out_name(imp, node))]


HANDLER_OPS: tuple[tuple[tuple[str, ...], Handler], ...] = (
    (("Identity",), identity),
    (("Dropout",), dropout),
    (("Cast",), cast),
    (("Shape",), shape_op),
    (("Size",), size_op),
    ((*BINARY, "Pow"), binary),
    ((*UNARY, "Sqrt", "Exp", "Neg", "Log", "Abs", "Floor", "Ceil", "Round", "Sign", "Erf", "Sin", "Cos", "Reciprocal"), unary),
    (("LeakyRelu", "PRelu", "Elu", "Selu", "Celu", "HardSigmoid", "HardSwish", "Softplus", "Softsign", "Gelu", "Mish", "ThresholdedRelu", "Shrink"), activation),
    (("LRN",), lrn),
    (("Max", "Min", "Sum", "Mean"), variadic),
    (("Clip",), clip),
    ((*COMPARE,), compare),
    (("Mod",), mod),
    (("Not", *LOGICAL), logical),
    (("Where",), where),
    (("Conv",), conv),
    (("ConvTranspose",), conv_transpose),
    (("Gemm",), gemm),
    (("MatMul",), matmul),
    (("Einsum",), einsum),
    (("MaxPool", "AveragePool"), pool),
    (("GlobalAveragePool",), global_avg_pool),
    (("GlobalMaxPool",), global_max_pool),
    (("CumSum",), cumsum),
    (("Resize", "Upsample"), resize),
    ((*REDUCE_OPS, "ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare"), reduce),
    ((*ALONG_AXIS,), softmax),
    ((*ARG_OPS,), arg_extreme),
    (("BatchNormalization",), batch_normalization),
    (("InstanceNormalization",), instance_normalization),
    (("LayerNormalization",), layer_normalization),
    (("GroupNormalization",), group_normalization),
    (("LpNormalization",), lp_normalization),
    (("Concat",), concat),
    (("Transpose",), transpose),
    (("Tile",), tile),
    (("Expand",), expand),
    (("DepthToSpace",), depth_to_space),
    (("SpaceToDepth",), space_to_depth),
    (("Reshape",), reshape_op),
    (("Flatten",), flatten),
    (("Squeeze",), squeeze),
    (("Unsqueeze",), unsqueeze),
    (("Slice",), slice_op),
    (("Split",), split),
    (("Gather",), gather),
    (("GatherElements",), gather_elements),
    (("TopK",), top_k),
    (("Pad",), pad),
    (("LSTM",), lstm),
    (("GRU",), gru),
    (("QuantizeLinear",), quantize_linear),
    (("DequantizeLinear",), dequantize_linear),
    (("QLinearConv",), qlinear_conv),
    (("QGemm", "QLinearMatMul"), qgemm),
    (("QLinearAdd", "QLinearMul"), qlinear_binary),
    (("QLinearConcat",), qlinear_concat),
    (("QLinearSigmoid",), qlinear_sigmoid),
    (("QLinearSoftmax",), qlinear_softmax),
    (("MatMulInteger",), matmul_integer),
    (("ConvInteger",), conv_integer),
    (("DynamicQuantizeLinear",), dynamic_quantize_linear),
)
"""Which ops each handler translates (a table, not decorators, so the handlers are
plain functions that mutation testing reaches)."""
HANDLERS: dict[str, Handler] = {op: fn for ops, fn in HANDLER_OPS for op in ops}
