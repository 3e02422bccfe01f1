"""Models of an opset below 7 (ONNX 1.0-1.1 exports), brought to opset 7 before import.

The importer implements opset 7 and later, as onnxruntime does. Older models differ in
attributes that opset 7 dropped (``broadcast``/``axis`` on binary ops and Gemm, ``is_test``
and ``spatial`` on BatchNormalization, ``consumed_inputs``); onnx's version converter
rewrites those, except a legacy broadcast along an ``axis`` that is not the trailing one,
which is made trailing here first (B unsqueezed on the axes after its own). It keeps one
difference: a PRelu slope of shape ``[C]`` on an input of rank
3 or more is per channel (axis 1) at opset 6, while opset 7 broadcasts it along the last
axis; such a slope is reshaped to ``[C, 1, ...]`` here. Everything else the model holds is
kept as it is.
"""

from __future__ import annotations

import onnx
from onnx import helper, numpy_helper, version_converter

FIRST_IMPORTED_OPSET = 7


def default_opset(model: onnx.ModelProto) -> int | None:
    """The version of the default domain the model imports (None if it imports none)."""
    return next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), None)


def upgraded(model: onnx.ModelProto) -> onnx.ModelProto:
    """``model`` itself if its opset is 7 or later, else a copy converted to opset 7.

    Raises ValueError (one line) if onnx's converter cannot convert it."""
    opset = default_opset(model)
    if opset is None or opset >= FIRST_IMPORTED_OPSET:
        return model
    model = _broadcast_axes_trailing(model)
    try:
        converted = version_converter.convert_version(model, FIRST_IMPORTED_OPSET)
    except Exception as err:  # the converter raises RuntimeError, IndexError, ...
        text = str(err).strip()
        detail = text.splitlines()[0].rpartition("failed: ")[2] if text else type(err).__name__
        raise ValueError(f"opset {opset} model: onnx's version converter cannot bring it to opset "
                         f"{FIRST_IMPORTED_OPSET} ({detail})") from None  # fmt: skip
    _prelu_slopes_per_channel(converted)
    return converted


def _broadcast_axes_trailing(model: onnx.ModelProto) -> onnx.ModelProto:
    """A copy of ``model`` in which every legacy broadcast (``broadcast=1``) of B along an
    ``axis`` before A's trailing dimensions reads B unsqueezed on the axes after its own, so
    the broadcast is the trailing one numpy's rules (and the converter) take."""
    model = onnx.ModelProto.FromString(model.SerializeToString())
    ranks = _ranks(model)
    nodes = []
    for node in model.graph.node:
        attrs = {a.name: a for a in node.attribute}
        if "broadcast" in attrs and attrs["broadcast"].i and "axis" in attrs and len(node.input) == 2:
            rank_a, rank_b = ranks.get(node.input[0], (0, None))[0], ranks.get(node.input[1], (0, None))[0]
            axis = attrs["axis"].i % rank_a if rank_a else attrs["axis"].i
            if rank_a and rank_b and axis + rank_b < rank_a:
                unsqueezed = f"{node.input[1]}_at_axis_{axis}_of_{node.output[0]}"
                trailing = list(range(rank_b, rank_a - axis))
                nodes.append(helper.make_node("Unsqueeze", [node.input[1]], [unsqueezed], axes=trailing))
                node.input[1] = unsqueezed
            node.attribute.remove(attrs["axis"])
        nodes.append(node)
    del model.graph.node[:]
    model.graph.node.extend(nodes)
    return model


def _prelu_slopes_per_channel(model: onnx.ModelProto) -> None:
    """Reshape each 1-D initializer slope of size C of a PRelu on an input of rank >= 3 with
    C channels to ``[C, 1, ..., 1]`` (a new initializer, so other readers keep the old one)."""
    graph = model.graph
    ranks = _ranks(model)
    initializers = {t.name: t for t in graph.initializer}
    for node in graph.node:
        if node.op_type != "PRelu" or len(node.input) < 2 or node.input[1] not in initializers:
            continue
        slope = numpy_helper.to_array(initializers[node.input[1]])
        rank, channels = ranks.get(node.input[0], (0, None))
        if slope.ndim != 1 or slope.size == 1 or rank < 3 or channels != slope.size:
            continue
        name = f"{node.input[1]}_per_channel"
        graph.initializer.append(numpy_helper.from_array(slope.reshape((-1,) + (1,) * (rank - 2)), name))
        node.input[1] = name


def _ranks(model: onnx.ModelProto) -> dict[str, tuple[int, int | None]]:
    """Rank and dimension 1 (if known) of every value onnx's shape inference types."""
    inferred = onnx.shape_inference.infer_shapes(model)
    out: dict[str, tuple[int, int | None]] = {}
    for info in (*inferred.graph.input, *inferred.graph.value_info, *inferred.graph.output):
        if info.type.HasField("tensor_type") and info.type.tensor_type.HasField("shape"):
            dims = info.type.tensor_type.shape.dim
            second = dims[1].dim_value if len(dims) > 1 and dims[1].HasField("dim_value") else None
            out[info.name] = (len(dims), second)
    return out
