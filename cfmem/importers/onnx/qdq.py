"""QDQ models in the QOperator form the importer translates.

A QDQ model (onnxruntime's default quantization format) computes every quantized op in
float between a DequantizeLinear of each input and a QuantizeLinear of its output.
:func:`fuse_qdq` rewrites each such group whose op has a quantized counterpart into that
QLinear node, as onnxruntime's QDQ transformer does before it runs the model, so the
tensors between groups stay int8 (one byte each) and the arithmetic is onnxruntime's:

* Conv -> QLinearConv, MatMul (batched and broadcast too) -> QLinearMatMul, Gemm -> com.microsoft QGemm (also when its output is not
  quantized: a float QGemm), Add/Mul -> QLinearAdd/QLinearMul, Concat -> QLinearConcat;
* MaxPool, Reshape, Transpose, Flatten, Squeeze, Unsqueeze and Split between a
  DequantizeLinear and QuantizeLinears of the same scale and zero point run on the int8
  data directly (they move or pick values, and the max commutes with dequantizing).

A group is fused only when its op's output feeds nothing but its per-tensor
QuantizeLinear (or, for a float QGemm, is not quantized that way), every input comes from
a per-tensor DequantizeLinear (weights may be per output channel: axis 0 of Conv
weights, the N axis of Gemm's B), and a bias is an int32 DequantizeLinear of
scale ``x_scale * w_scale`` and zero point 0. Everything else stays as it is: the
remaining QuantizeLinear/DequantizeLinear nodes become ``nn.quantize``/``nn.dequantize``
and the op between them runs in float. Only the main graph is rewritten.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import numpy as np
import onnx
from onnx import helper, numpy_helper

MICROSOFT = "com.microsoft"
DATA_MOVEMENT = ("MaxPool", "Reshape", "Transpose", "Flatten", "Squeeze", "Unsqueeze", "Split")


class _Graph:
    """Producers, consumers and known tensors of a graph's nodes."""

    def __init__(self, graph: onnx.GraphProto) -> None:
        self.graph = graph
        self.producer = {out: node for node in graph.node for out in node.output}
        self.consumers: dict[str, list[onnx.NodeProto]] = {}
        for node in graph.node:
            for name in node.input:
                self.consumers.setdefault(name, []).append(node)
        self.uses: Counter[str] = Counter(name for node in graph.node for name in _all_inputs(node))
        self.known = {init.name: numpy_helper.to_array(init) for init in graph.initializer}
        for node in graph.node:
            if node.op_type == "Constant" and node.attribute and node.attribute[0].name == "value":
                self.known[node.output[0]] = numpy_helper.to_array(node.attribute[0].t)

    def dequantized(self, name: str) -> onnx.NodeProto | None:
        """The DequantizeLinear producing ``name`` with known parameters, if any."""
        node = self.producer.get(name)
        if node is None or node.op_type != "DequantizeLinear" or node.domain not in ("", "ai.onnx"):
            return None
        if any(a.name == "block_size" and a.i for a in node.attribute):
            return None
        if not all(i in self.known for i in node.input[1:] if i):
            return None
        return node

    def only_quantizer(self, name: str) -> onnx.NodeProto | None:
        """The per-tensor QuantizeLinear that is ``name``'s only consumer, if so."""
        if self.uses[name] != 1 or any(out.name == name for out in self.graph.output):
            return None
        consumers = self.consumers.get(name, [])
        if len(consumers) != 1:
            return None
        node = consumers[0]
        ok = node.op_type == "QuantizeLinear" and node.domain in ("", "ai.onnx") and node.input[0] == name
        return node if ok and all(i in self.known for i in node.input[1:] if i) and self.scalar(node.input[1]) else None

    def along(self, node: onnx.NodeProto, axis: int) -> bool:
        """Whether dequantizer ``node``'s scale is per tensor or runs along ``axis`` of its
        known input (the QLinear ops take per-axis weights along output channels only)."""
        if self.scalar(self.params(node)[0]):
            return True
        attrs = {a.name: a.i for a in node.attribute}
        return attrs.get("axis", 1) % self.known[node.input[0]].ndim == axis

    def scalar(self, name: str) -> bool:
        """Whether the known scale ``name`` has one element."""
        return self.known[name].size == 1

    def params(self, node: onnx.NodeProto) -> tuple[str, str]:
        """A (de)quantizer's scale and zero point input names ('' for an omitted zero point)."""
        return node.input[1], node.input[2] if len(node.input) > 2 else ""

    def same_params(self, a: onnx.NodeProto, b: onnx.NodeProto) -> bool:
        """Whether two per-tensor (de)quantizers have equal scales and zero points (an omitted
        zero point is uint8 0, as in ONNX)."""
        (sa, za), (sb, zb) = self.params(a), self.params(b)
        zero = lambda z: self.known[z] if z else np.zeros((), np.uint8)  # noqa: E731
        return self.known[sa] == self.known[sb] and zero(za).dtype == zero(zb).dtype and zero(za) == zero(zb)


def _all_inputs(node: onnx.NodeProto) -> list[str]:
    """The node's inputs and every name its subgraphs read."""
    names = list(node.input)
    for attr in node.attribute:
        for sub in ([attr.g] if attr.type == onnx.AttributeProto.GRAPH else list(attr.graphs)):
            for inner in sub.node:
                names.extend(_all_inputs(inner))
    return names


Fusion = tuple[list[onnx.NodeProto], list[onnx.NodeProto]]
"""The new nodes replacing an op, and the quantizers they make unneeded."""


def _conv(g: _Graph, node: onnx.NodeProto) -> Fusion | None:
    x, w = g.dequantized(node.input[0]), g.dequantized(node.input[1])
    q = g.only_quantizer(node.output[0])
    if x is None or w is None or q is None or not g.scalar(g.params(x)[0]) or w.input[0] not in g.known:
        return None
    if not g.along(w, 0):
        return None
    inputs = [x.input[0], *g.params(x), w.input[0], *g.params(w), *g.params(q)]
    if len(node.input) > 2 and node.input[2]:
        bias = _bias(g, node.input[2], x, w)
        if bias is None:
            return None
        inputs.append(bias)
    fused = helper.make_node("QLinearConv", inputs, [q.output[0]], name=node.name)
    fused.attribute.extend(node.attribute)
    return [fused], [q]


def _bias(g: _Graph, name: str, x: onnx.NodeProto, w: onnx.NodeProto) -> str | None:
    """The int32 tensor behind a dequantized bias of scale ``x_scale * w_scale`` (within a
    relative 1e-6 of the exact product, per channel or for all), zero point 0."""
    b = g.dequantized(name)
    if b is None or b.input[0] not in g.known or g.known[b.input[0]].dtype != np.int32:
        return None
    scale, zero = g.params(b)
    want = g.known[g.params(x)[0]].astype(np.float64) * g.known[g.params(w)[0]].astype(np.float64)  # exact
    if zero and np.any(g.known[zero]):
        return None
    return b.input[0] if np.allclose(g.known[scale], want, rtol=1e-6, atol=0) else None


def _gemm(g: _Graph, node: onnx.NodeProto) -> Fusion | None:
    a, b = g.dequantized(node.input[0]), g.dequantized(node.input[1])
    attrs = {at.name: helper.get_attribute_value(at) for at in node.attribute}
    if a is None or b is None or attrs.get("transA") or not g.scalar(g.params(a)[0]) or b.input[0] not in g.known:
        return None
    if not g.along(b, 0 if attrs.get("transB") else 1):
        return None
    inputs = [a.input[0], *g.params(a), b.input[0], *g.params(b)]
    bias = ""
    if len(node.input) > 2 and node.input[2]:
        if attrs.get("beta", 1.0) != 1.0 or attrs.get("alpha", 1.0) != 1.0:
            return None
        bias = _bias(g, node.input[2], a, b)
        if bias is None:
            return None
    q = g.only_quantizer(node.output[0])
    outputs, quantizers = ([q.output[0]], [q]) if q is not None else ([node.output[0]], [])
    inputs += [bias, *(g.params(q) if q is not None else ())]
    fused = helper.make_node("QGemm", inputs, outputs, name=node.name, domain=MICROSOFT,
                             alpha=float(attrs.get("alpha", 1.0)), transB=int(attrs.get("transB", 0)))  # fmt: skip
    return [fused], quantizers


def _per_tensor_inputs(g: _Graph, node: onnx.NodeProto) -> list[onnx.NodeProto] | None:
    found = [g.dequantized(name) for name in node.input]
    if any(d is None or not g.scalar(g.params(d)[0]) for d in found):
        return None
    return found  # type: ignore[return-value]


def _binary(g: _Graph, node: onnx.NodeProto) -> Fusion | None:
    found, q = _per_tensor_inputs(g, node), g.only_quantizer(node.output[0])
    if found is None or q is None or len(found) != 2:
        return None
    inputs = [found[0].input[0], *g.params(found[0]), found[1].input[0], *g.params(found[1]), *g.params(q)]
    fused = helper.make_node(f"QLinear{node.op_type}", inputs, [q.output[0]], name=node.name, domain=MICROSOFT)
    return [fused], [q]


def _matmul(g: _Graph, node: onnx.NodeProto) -> Fusion | None:
    found, q = _per_tensor_inputs(g, node), g.only_quantizer(node.output[0])
    if found is None or q is None:
        return None
    inputs = [found[0].input[0], *g.params(found[0]), found[1].input[0], *g.params(found[1]), *g.params(q)]
    return [helper.make_node("QLinearMatMul", inputs, [q.output[0]], name=node.name)], [q]


def _concat(g: _Graph, node: onnx.NodeProto) -> Fusion | None:
    found, q = _per_tensor_inputs(g, node), g.only_quantizer(node.output[0])
    if found is None or q is None:
        return None
    inputs = [*g.params(q)]
    for d in found:
        inputs += [d.input[0], *g.params(d)]
    fused = helper.make_node("QLinearConcat", inputs, [q.output[0]], name=node.name, domain=MICROSOFT)
    fused.attribute.extend(node.attribute)
    return [fused], [q]


def _data_movement(g: _Graph, node: onnx.NodeProto) -> Fusion | None:
    """The op on the quantized data itself, when each output's quantizer matches the input's."""
    x = g.dequantized(node.input[0])
    quantizers = [g.only_quantizer(out) for out in node.output if out]
    if x is None or not g.scalar(g.params(x)[0]) or not quantizers or any(q is None for q in quantizers):
        return None
    if not all(g.same_params(x, q) for q in quantizers):  # type: ignore[arg-type]
        return None
    # A MaxPool whose indices are used stays: its int64 indices have no quantizer above.
    by_output = {q.input[0]: q.output[0] for q in quantizers}  # type: ignore[union-attr]
    moved = helper.make_node(node.op_type, [x.input[0], *node.input[1:]], [by_output.get(o, o) for o in node.output],
                             name=node.name)  # fmt: skip
    moved.attribute.extend(node.attribute)
    return [moved], quantizers  # type: ignore[return-value]


FUSIONS: dict[str, Callable[[_Graph, onnx.NodeProto], Fusion | None]] = {
    "Conv": _conv,
    "Gemm": _gemm,
    "MatMul": _matmul,
    "Add": _binary,
    "Mul": _binary,
    "Concat": _concat,
    **{op: _data_movement for op in DATA_MOVEMENT},
}


def has_qdq(model: onnx.ModelProto) -> bool:
    return any(n.op_type in ("QuantizeLinear", "DequantizeLinear") for n in model.graph.node)


def fuse_qdq(model: onnx.ModelProto) -> onnx.ModelProto:
    """A copy of ``model`` with its main graph's QDQ groups fused (see the module docstring);
    DequantizeLinear nodes left without consumers are dropped."""
    fused_model = onnx.ModelProto()
    fused_model.CopyFrom(model)
    g = _Graph(fused_model.graph)
    replaced: dict[int, list[onnx.NodeProto]] = {}
    dropped: set[str] = set()  # outputs of the quantizers fused into their op
    for k, node in enumerate(g.graph.node):
        fuse = FUSIONS.get(node.op_type) if node.domain in ("", "ai.onnx") else None
        result = fuse(g, node) if fuse else None
        if result is not None:
            replaced[k] = result[0]
            dropped.update(q.output[0] for q in result[1])
    nodes = []
    for k, node in enumerate(g.graph.node):
        if not (node.op_type == "QuantizeLinear" and node.output[0] in dropped):
            nodes.extend(replaced.get(k, [node]))
    nodes = _without_dead_dequantizers(nodes, g.graph)
    del g.graph.node[:]
    g.graph.node.extend(nodes)
    if any(n.domain == MICROSOFT for n in nodes) and not any(o.domain == MICROSOFT for o in fused_model.opset_import):
        fused_model.opset_import.append(helper.make_opsetid(MICROSOFT, 1))
    return fused_model


def _without_dead_dequantizers(nodes: list[onnx.NodeProto], graph: onnx.GraphProto) -> list[onnx.NodeProto]:
    used = Counter(name for node in nodes for name in _all_inputs(node))
    used.update(out.name for out in graph.output)
    return [n for n in nodes if n.op_type != "DequantizeLinear" or any(used[o] for o in n.output)]
