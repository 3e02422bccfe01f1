"""ONNX LSTM and GRU: each direction's cell unrolled over the sequence, one cell per time
step, or run as the body of an ``nn.loop`` (the importer's ``recurrence``, ``--recurrence
loop``), in either layout.

Only the default activations; no clip, LSTM peepholes or input_forget. W, R, B and
``sequence_lens`` are known, and every sequence has the full length.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import onnx
from xdsl.ir import SSAValue

from cfmem.importers.onnx.core import OnnxImportError, Value
from cfmem.importers.onnx.helpers import attr, f32_operand, known, number, out_name, reshape, shape_of

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
