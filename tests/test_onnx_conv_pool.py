"""Conv and pooling attributes on tiny models against onnxruntime: asymmetric pads, strides,
dilations, groups, every ``auto_pad``, ``ceil_mode`` and ``count_include_pad``, 1-D and 2-D
(and 3-D Conv and MaxPool),
imported and also lowered and planned; what the importer refuses is refused by op and node
in one line."""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from onnx import TensorProto as T  # noqa: E402
from onnx import helper as h  # noqa: E402
from onnx import numpy_helper as nh  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402

from cfmem.importers.onnx import OnnxImportError, onnx_importer  # noqa: E402
from cfmem.importers.onnx.reference import max_abs_error, onnxruntime_outputs  # noqa: E402
from cfmem.interp.flat import run_flat  # noqa: E402
from cfmem.interp.golden import run_function  # noqa: E402
from cfmem.pipeline import lower_model  # noqa: E402
from cfmem.tools import cli  # noqa: E402

TOLERANCE = 1e-5


@dataclass(frozen=True)
class Node:
    """One node ``op`` named ``n`` on a run-time input ``x``; a Conv's ``weight`` (and bias) known."""

    op: str
    x: tuple[int, ...]
    attrs: dict = field(default_factory=dict)
    weight: tuple[int, ...] | None = None
    bias: bool = True
    opset: int = 17
    outputs: tuple[str, ...] = ("y",)

    def model(self) -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:
        """The model and its feeds, data drawn from a generator seeded by the node itself."""
        rng = np.random.default_rng(zlib.crc32(repr(self).encode()))
        inits, names = [], ["x"]
        if self.weight is not None:
            inits.append(nh.from_array(rng.standard_normal(self.weight).astype(np.float32), "w"))
            names.append("w")
            if self.bias:
                inits.append(nh.from_array(rng.standard_normal(self.weight[0]).astype(np.float32), "b"))
                names.append("b")
        node = h.make_node(self.op, names, list(self.outputs), name="n", **self.attrs)
        outputs = [h.make_tensor_value_info(name, T.FLOAT if k == 0 else T.INT64, None) for k, name in enumerate(self.outputs)]
        graph = h.make_graph([node], "g", [h.make_tensor_value_info("x", T.FLOAT, self.x)], outputs, inits)
        model = h.make_model(graph, opset_imports=[h.make_opsetid("", self.opset)], ir_version=8)
        return onnx.shape_inference.infer_shapes(model), {"x": rng.standard_normal(self.x).astype(np.float32)}


def save(tmp_path: Path, model: onnx.ModelProto) -> Path:
    onnx.checker.check_model(model)
    path = tmp_path / "m.onnx"
    onnx.save(model, str(path))
    return path


def onnxruntime_refuses(node: Node) -> bool:
    """onnxruntime runs no Conv with SAME padding and a dilation; onnx's reference evaluator
    follows the spec (the padding of the dilated kernel), as the importer does."""
    same = str(node.attrs.get("auto_pad", "")).startswith("SAME")
    return node.op == "Conv" and same and any(d != 1 for d in node.attrs.get("dilations", []))


def imported_and_reference(tmp_path: Path, node: Node, lowered: bool = False) -> tuple[dict, dict]:
    """The node's outputs run by the reference interpreter on its import (and, if ``lowered``,
    checked equal to the planned flat form's), and by onnxruntime (or, where onnxruntime
    refuses the node, onnx's reference evaluator)."""
    model, feeds = node.model()
    path = save(tmp_path, model)
    imported = onnx_importer(onnx.load(str(path)), "w.bin").import_graph({}, {})
    (tmp_path / "w.bin").write_bytes(imported.blob)
    got = run_function(imported.module, feeds, base_dir=tmp_path).outputs
    if lowered:
        flat = lower_model(imported.module, "nn-insert-dma,nn-plan-memory", tmp_path)
        assert max_abs_error(got, run_flat(flat, feeds, check=True).outputs) <= TOLERANCE
    if onnxruntime_refuses(node):
        (want,) = ReferenceEvaluator(model).run(None, feeds)
        return got, {"y": want}
    return got, onnxruntime_outputs(path, feeds)


def conv(x, weight, bias=True, opset=17, **attrs) -> Node:
    return Node("Conv", x, attrs, weight, bias, opset)


def pool(op, x, opset=17, **attrs) -> Node:
    return Node(op, x, attrs, opset=opset)


AUTO_PADS = ("NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID")

SUPPORTED = {
    # 2-D Conv: pads (top, left, bottom, right) all different, so any misreading changes the result
    "conv3d-groups-strides-dilations-asymmetric-pads": conv(
        (2, 4, 5, 6, 5), (6, 2, 2, 3, 2), group=2, strides=[2, 1, 2], dilations=[2, 1, 1], pads=[1, 0, 2, 0, 1, 1]
    ),
    "conv3d-SAME_UPPER-no-bias": conv((1, 2, 4, 5, 3), (3, 2, 3, 2, 2), bias=False, strides=[2, 2, 1], auto_pad="SAME_UPPER"),
    "globalavgpool3d": pool("GlobalAveragePool", (2, 3, 2, 3, 4)),
    "globalavgpool1d": pool("GlobalAveragePool", (2, 3, 5)),
    "avgpool3d-strides-pads": pool(
        "AveragePool", (2, 3, 5, 6, 4), kernel_shape=[3, 2, 2], strides=[2, 2, 1], pads=[2, 0, 1, 1, 1, 0]
    ),
    "avgpool3d-strides-pads-count-include-pad": pool(
        "AveragePool", (1, 2, 5, 4, 4), kernel_shape=[3, 3, 2], strides=[1, 2, 1], pads=[1, 2, 0, 2, 1, 1], count_include_pad=1
    ),
    "maxpool3d-strides-pads-dilations": pool(
        "MaxPool", (2, 3, 5, 6, 4), kernel_shape=[3, 2, 2], strides=[2, 2, 1], dilations=[1, 2, 1], pads=[1, 0, 1, 2, 1, 0]
    ),
    "conv2d-asymmetric-pads": conv((1, 2, 6, 7), (3, 2, 3, 3), pads=[0, 1, 2, 3]),
    "conv2d-asymmetric-pads-other-way": conv((1, 2, 5, 6), (2, 2, 2, 3), pads=[2, 0, 1, 2]),
    "conv2d-strides-pads": conv((1, 2, 7, 8), (3, 2, 3, 2), strides=[2, 3], pads=[1, 0, 0, 2]),
    "conv2d-dilations": conv((1, 2, 7, 7), (2, 2, 3, 2), dilations=[2, 3]),
    "conv2d-dilations-strides-pads": conv((1, 1, 8, 9), (2, 1, 2, 3), dilations=[3, 2], strides=[2, 1], pads=[1, 2, 0, 1]),
    "conv2d-groups": conv((1, 4, 5, 5), (6, 2, 3, 3), group=2, pads=[1, 0, 0, 1]),
    "conv2d-depthwise": conv((1, 3, 6, 5), (3, 1, 3, 3), group=3, pads=[0, 1, 1, 2], strides=[2, 1]),
    "conv2d-depthwise-multiplier": conv((1, 2, 5, 5), (4, 1, 2, 2), group=2, dilations=[2, 1]),
    "conv2d-no-bias": conv((2, 2, 4, 5), (3, 2, 2, 2), bias=False, pads=[1, 0, 0, 0]),
    "conv2d-kernel-shape-given": conv((1, 2, 5, 5), (2, 2, 3, 2), kernel_shape=[3, 2], pads=[0, 0, 1, 1]),
    **{
        f"conv2d-{auto_pad}-{label}": conv(x, w, auto_pad=auto_pad, **extra)
        for auto_pad in AUTO_PADS[1:]
        for label, x, w, extra in (
            ("even-kernel-stride-2", (1, 2, 7, 6), (2, 2, 2, 4), {"strides": [2, 2]}),
            ("odd-kernel", (1, 2, 5, 6), (3, 2, 3, 3), {}),
            ("dilated", (1, 1, 6, 7), (2, 1, 2, 3), {"dilations": [3, 2]}),
            ("strides-2-3", (1, 2, 8, 7), (2, 2, 3, 2), {"strides": [2, 3]}),
            ("depthwise", (1, 3, 6, 6), (3, 1, 4, 2), {"group": 3}),
            ("stride-past-kernel", (1, 2, 3, 6), (2, 2, 1, 1), {"strides": [2, 4]}),
        )
    },
    "conv2d-opset-7": conv((1, 2, 5, 6), (2, 2, 3, 3), opset=7, pads=[1, 0, 2, 1], strides=[1, 2], dilations=[1, 2]),
    "conv2d-opset-7-SAME_LOWER": conv((1, 2, 5, 6), (2, 2, 2, 2), opset=7, auto_pad="SAME_LOWER", strides=[2, 1]),
    "conv2d-opset-11-SAME_UPPER": conv((1, 2, 5, 6), (2, 2, 2, 3), opset=11, auto_pad="SAME_UPPER", strides=[2, 1]),
    "conv2d-opset-22": conv((1, 2, 5, 6), (2, 2, 3, 3), opset=22, pads=[0, 2, 1, 0], dilations=[2, 1]),
    # 1-D Conv: begin and end pads differ
    "conv1d-asymmetric-pads": conv((1, 2, 7), (3, 2, 3), pads=[1, 2]),
    "conv1d-asymmetric-pads-end-first": conv((1, 2, 6), (2, 2, 2), pads=[0, 3]),
    "conv1d-strides-pads": conv((1, 2, 9), (2, 2, 3), strides=[2], pads=[2, 0]),
    "conv1d-dilations": conv((1, 2, 9), (2, 2, 3), dilations=[3]),
    "conv1d-dilations-pads": conv((2, 1, 7), (2, 1, 2), dilations=[2], pads=[1, 3], strides=[2]),
    "conv1d-groups": conv((1, 4, 6), (2, 2, 3), group=2, pads=[2, 1]),
    "conv1d-depthwise": conv((1, 3, 8), (3, 1, 3), group=3, pads=[0, 1], dilations=[2]),
    **{
        f"conv1d-{auto_pad}-{label}": conv(x, w, auto_pad=auto_pad, **extra)
        for auto_pad in AUTO_PADS[1:]
        for label, x, w, extra in (
            ("even-kernel-stride-2", (1, 2, 7), (2, 2, 4), {"strides": [2]}),
            ("odd-kernel", (1, 2, 6), (3, 2, 3), {}),
            ("dilated-stride-3", (1, 2, 10), (2, 2, 2), {"dilations": [3], "strides": [3]}),
            ("stride-past-kernel", (1, 2, 6), (2, 2, 1), {"strides": [4]}),
        )
    },
    "conv1d-opset-7": conv((1, 2, 7), (2, 2, 3), opset=7, pads=[2, 1], dilations=[2]),
    # MaxPool
    "maxpool2d-asymmetric-pads": pool("MaxPool", (1, 2, 6, 7), kernel_shape=[3, 4], pads=[0, 1, 2, 3]),
    "maxpool2d-strides-pads": pool("MaxPool", (1, 2, 7, 8), kernel_shape=[3, 2], strides=[2, 3], pads=[1, 0, 2, 1]),
    "maxpool2d-ceil-mode": pool("MaxPool", (1, 2, 6, 7), kernel_shape=[3, 2], strides=[2, 2], ceil_mode=1),
    "maxpool2d-ceil-mode-pads": pool("MaxPool", (1, 1, 7, 6), kernel_shape=[3, 3], strides=[2, 3], pads=[1, 0, 0, 2], ceil_mode=1),
    "maxpool2d-ceil-mode-last-window-dropped": pool("MaxPool", (1, 1, 4, 5), kernel_shape=[3, 3], strides=[2, 2], pads=[0, 0, 2, 2], ceil_mode=1),
    "maxpool2d-ceil-mode-floor-exact": pool("MaxPool", (1, 1, 5, 5), kernel_shape=[3, 3], strides=[2, 2], ceil_mode=1),
    "maxpool2d-dilations-1": pool("MaxPool", (1, 1, 5, 5), kernel_shape=[2, 2], dilations=[1, 1], pads=[1, 0, 0, 1]),
    **{
        f"maxpool2d-{auto_pad}-{label}": pool("MaxPool", x, auto_pad=auto_pad, **extra)
        for auto_pad in AUTO_PADS[1:]
        for label, x, extra in (
            ("stride-2", (1, 2, 7, 6), {"kernel_shape": [2, 3], "strides": [2, 2]}),
            ("stride-1", (1, 1, 5, 6), {"kernel_shape": [4, 3]}),
            ("ceil-mode", (1, 1, 7, 6), {"kernel_shape": [2, 3], "strides": [3, 2], "ceil_mode": 1}),
        )
    },
    "maxpool1d-asymmetric-pads": pool("MaxPool", (1, 2, 7), kernel_shape=[3], pads=[0, 2]),
    "maxpool1d-strides-ceil-mode": pool("MaxPool", (1, 2, 8), kernel_shape=[3], strides=[2], pads=[1, 0], ceil_mode=1),
    **{f"maxpool1d-{auto_pad}": pool("MaxPool", (1, 2, 7), kernel_shape=[4], strides=[2], auto_pad=auto_pad) for auto_pad in AUTO_PADS[1:]},
    "maxpool2d-opset-7": pool("MaxPool", (1, 2, 5, 6), opset=7, kernel_shape=[2, 3], pads=[1, 0, 0, 2], strides=[2, 1]),
    "maxpool2d-opset-8-SAME_LOWER": pool("MaxPool", (1, 2, 5, 6), opset=8, kernel_shape=[2, 2], auto_pad="SAME_LOWER", strides=[2, 2]),
    "maxpool2d-opset-10-ceil-mode": pool("MaxPool", (1, 2, 6, 7), opset=10, kernel_shape=[3, 2], strides=[2, 2], ceil_mode=1),
    "maxpool2d-opset-11": pool("MaxPool", (1, 2, 6, 7), opset=11, kernel_shape=[3, 2], pads=[2, 0, 0, 1]),
    "maxpool2d-opset-12-ceil-mode": pool("MaxPool", (1, 1, 4, 5), opset=12, kernel_shape=[3, 3], strides=[2, 2], pads=[0, 0, 2, 2], ceil_mode=1),
    "maxpool2d-opset-22": pool("MaxPool", (1, 2, 6, 7), opset=22, kernel_shape=[2, 3], pads=[0, 1, 1, 0], strides=[1, 2]),
    # AveragePool
    **{
        f"avgpool2d-count-include-pad-{count}-{label}": pool("AveragePool", x, count_include_pad=count, **extra)
        for count in (0, 1)
        for label, x, extra in (
            ("asymmetric-pads", (1, 2, 6, 7), {"kernel_shape": [3, 4], "pads": [0, 1, 2, 3]}),
            ("strides-pads", (1, 2, 7, 8), {"kernel_shape": [3, 2], "strides": [2, 3], "pads": [1, 0, 2, 1]}),
            ("no-pads", (1, 2, 6, 6), {"kernel_shape": [2, 3], "strides": [2, 1]}),
            ("ceil-mode", (1, 2, 6, 7), {"kernel_shape": [3, 2], "strides": [2, 2], "ceil_mode": 1}),
            ("ceil-mode-pads", (1, 1, 5, 7), {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [0, 1, 1, 0], "ceil_mode": 1}),
            ("ceil-mode-last-window-dropped", (1, 1, 4, 5), {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [0, 0, 2, 2], "ceil_mode": 1}),
            ("SAME_UPPER", (1, 2, 7, 6), {"kernel_shape": [2, 3], "strides": [2, 2], "auto_pad": "SAME_UPPER"}),
            ("SAME_LOWER", (1, 2, 7, 6), {"kernel_shape": [2, 3], "strides": [2, 2], "auto_pad": "SAME_LOWER"}),
            ("SAME_LOWER-stride-1", (1, 1, 5, 5), {"kernel_shape": [4, 3], "auto_pad": "SAME_LOWER"}),
            ("VALID", (1, 2, 7, 6), {"kernel_shape": [2, 3], "strides": [2, 2], "auto_pad": "VALID"}),
            ("VALID-ceil-mode", (1, 2, 7, 6), {"kernel_shape": [2, 3], "strides": [2, 2], "auto_pad": "VALID", "ceil_mode": 1}),
            ("SAME_UPPER-ceil-mode", (1, 2, 7, 6), {"kernel_shape": [2, 3], "strides": [3, 2], "auto_pad": "SAME_UPPER", "ceil_mode": 1}),
            ("1d-asymmetric-pads", (1, 2, 7), {"kernel_shape": [3], "pads": [2, 0]}),
            ("1d-ceil-mode-pads", (1, 2, 8), {"kernel_shape": [3], "strides": [2], "pads": [0, 1], "ceil_mode": 1}),
            ("1d-SAME_LOWER", (1, 2, 7), {"kernel_shape": [4], "strides": [2], "auto_pad": "SAME_LOWER"}),
            ("1d-SAME_UPPER", (1, 2, 7), {"kernel_shape": [4], "strides": [2], "auto_pad": "SAME_UPPER"}),
            ("1d-VALID", (1, 2, 7), {"kernel_shape": [4], "strides": [2], "auto_pad": "VALID"}),
        )
    },
    "avgpool2d-opset-7-count-include-pad": pool("AveragePool", (1, 2, 5, 6), opset=7, kernel_shape=[2, 3], pads=[1, 0, 0, 2], count_include_pad=1),
    "avgpool2d-opset-10-ceil-mode": pool("AveragePool", (1, 2, 6, 7), opset=10, kernel_shape=[3, 2], strides=[2, 2], pads=[1, 0, 0, 1], ceil_mode=1),
    "avgpool2d-opset-11-SAME_LOWER": pool("AveragePool", (1, 2, 5, 6), opset=11, kernel_shape=[2, 2], auto_pad="SAME_LOWER", strides=[2, 2]),
    "avgpool2d-opset-19-dilations-1": pool("AveragePool", (1, 2, 5, 6), opset=19, kernel_shape=[2, 3], dilations=[1, 1], pads=[0, 1, 1, 0]),
    "avgpool2d-opset-22-ceil-mode": pool("AveragePool", (1, 1, 4, 5), opset=22, kernel_shape=[3, 3], strides=[2, 2], pads=[0, 0, 2, 2], ceil_mode=1, count_include_pad=1),
    # GlobalAveragePool
    "globalavgpool2d": pool("GlobalAveragePool", (2, 3, 4, 5)),
    "globalavgpool2d-opset-22": pool("GlobalAveragePool", (1, 2, 3, 1), opset=22),
}


@pytest.mark.parametrize("node", list(SUPPORTED.values()), ids=list(SUPPORTED))
def test_conv_and_pooling_attributes_match_onnxruntime(tmp_path, node):
    got, want = imported_and_reference(tmp_path, node, lowered=True)
    assert {k: v.shape for k, v in got.items()} == {k: v.shape for k, v in want.items()}
    assert max_abs_error(want, got) <= TOLERANCE


@st.composite
def conv_nodes(draw) -> Node:
    """A Conv of 1, 2 or 3 spatial dimensions with any supported window and grouping."""
    spatial = draw(st.sampled_from((1, 2, 3)))
    groups = draw(st.sampled_from((1, 2)))
    per_group_in, per_group_out = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    kernel = draw(st.lists(st.integers(1, 3), min_size=spatial, max_size=spatial))
    dilations = draw(st.lists(st.integers(1, 3), min_size=spatial, max_size=spatial))
    strides = draw(st.lists(st.integers(1, 3), min_size=spatial, max_size=spatial))
    spans = [(k - 1) * d + 1 for k, d in zip(kernel, dilations)]
    sizes = [draw(st.integers(span, span + 4)) for span in spans]
    auto_pad = draw(st.sampled_from(AUTO_PADS))
    attrs = {"strides": strides, "dilations": dilations, "group": groups}
    if auto_pad == "NOTSET":
        attrs["pads"] = draw(st.lists(st.integers(0, 3), min_size=2 * spatial, max_size=2 * spatial))
    else:
        attrs["auto_pad"] = auto_pad
    x = (1, groups * per_group_in, *sizes)
    weight = (groups * per_group_out, per_group_in, *kernel)
    return Node("Conv", x, attrs, weight, draw(st.booleans()))


@st.composite
def pool_nodes(draw) -> Node:
    """A MaxPool or AveragePool of 1 or 2 spatial dimensions with any supported window, or a
    3-D one with explicit pads."""
    op = draw(st.sampled_from(("MaxPool", "AveragePool")))
    spatial = draw(st.sampled_from((1, 2, 3)))
    kernel = draw(st.lists(st.integers(1, 3), min_size=spatial, max_size=spatial))
    auto_pad = draw(st.sampled_from(AUTO_PADS if spatial < 3 else ("NOTSET",)))
    # a SAME pooling with a stride past the kernel may need a negative padding: refused
    stride_limits = kernel if auto_pad.startswith("SAME") else [3] * spatial
    attrs = {"kernel_shape": kernel, "strides": [draw(st.integers(1, limit)) for limit in stride_limits]}
    attrs["ceil_mode"] = draw(st.sampled_from((0, 1) if spatial < 3 else (0,)))
    if spatial == 3 and op == "MaxPool":  # AveragePool takes dilations from opset 19
        attrs["dilations"] = [draw(st.integers(1, 2)) for _ in kernel]
    if op == "AveragePool":
        attrs["count_include_pad"] = draw(st.sampled_from((0, 1)))
    if auto_pad == "NOTSET":
        attrs["pads"] = [draw(st.integers(0, k - 1)) for k in kernel * 2]
    else:
        attrs["auto_pad"] = auto_pad
    sizes = [draw(st.integers(k, k + 4)) for k in kernel]
    return Node(op, (1, 2, *sizes), attrs)


@settings(max_examples=80, derandomize=True, deadline=None, database=None)
@given(node=st.one_of(conv_nodes(), pool_nodes()))
def test_drawn_conv_and_pooling_attributes_match_onnxruntime(tmp_path_factory, node):
    got, want = imported_and_reference(tmp_path_factory.mktemp("drawn"), node)
    assert max_abs_error(want, got) <= TOLERANCE, node


REFUSED = {
    "conv4d": (
        conv((1, 2, 3, 3, 3, 3), (2, 2, 2, 2, 2, 2)),
        "node n (Conv): Conv with 4 spatial dimensions is not supported (1, 2 or 3)",
    ),
    "maxpool1d-dilations-SAME_UPPER": (
        pool("MaxPool", (1, 1, 6), kernel_shape=[2], dilations=[2], auto_pad="SAME_UPPER"),
        "node n (MaxPool): MaxPool with auto_pad SAME_UPPER and dilations [2] is not supported"
        " (onnxruntime pads for the undilated kernel, against the ONNX spec)",
    ),
    "maxpool-indices": (
        Node("MaxPool", (1, 1, 4, 4), {"kernel_shape": [2, 2]}, outputs=("y", "indices")),
        "node n (MaxPool): the Indices output of MaxPool is not supported",
    ),
    "maxpool3d-ceil-mode": (
        pool("MaxPool", (1, 1, 3, 3, 3), kernel_shape=[2, 2, 2], strides=[2, 2, 2], ceil_mode=1),
        "node n (MaxPool): a 3-D MaxPool with ceil_mode or auto_pad is not supported",
    ),
    "avgpool3d-ceil-mode": (
        pool("AveragePool", (1, 1, 3, 3, 3), kernel_shape=[2, 2, 2], strides=[2, 2, 2], ceil_mode=1),
        "node n (AveragePool): a 3-D AveragePool with ceil_mode or auto_pad is not supported",
    ),
    "globalavgpool-rank2": (
        pool("GlobalAveragePool", (2, 3)),
        "node n (GlobalAveragePool): GlobalAveragePool needs an input (N, C, spatial...) of rank 3 or more, not 2",
    ),
    "maxpool-SAME_LOWER-negative-padding": (
        pool("MaxPool", (1, 1, 4, 6), kernel_shape=[1, 1], strides=[3, 4], auto_pad="SAME_LOWER"),
        "node n (MaxPool): MaxPool with auto_pad SAME_LOWER needs a negative padding [0, -1]"
        " (a stride past the kernel); not supported, as onnxruntime does not run it",
    ),
    "avgpool1d-SAME_UPPER-negative-padding": (
        pool("AveragePool", (1, 1, 9), kernel_shape=[2], strides=[5], auto_pad="SAME_UPPER"),
        "node n (AveragePool): AveragePool with auto_pad SAME_UPPER needs a negative padding [-2]"
        " (a stride past the kernel); not supported, as onnxruntime does not run it",
    ),
    "conv-rank-mismatch": (
        conv((1, 2, 5), (2, 2, 3, 3)),
        "node n (Conv): Conv over 2 spatial dimensions needs an input of rank 4, not 3",
    ),
}


@pytest.mark.parametrize("node, message", list(REFUSED.values()), ids=list(REFUSED))
def test_unsupported_conv_and_pooling_are_refused_by_op_and_node(node, message):
    model, _ = node.model()
    with pytest.raises(OnnxImportError) as err:
        onnx_importer(model, "w.bin").import_graph({}, {})
    assert str(err.value) == message


@pytest.mark.parametrize("refused", ["maxpool-SAME_LOWER-negative-padding", "avgpool1d-SAME_UPPER-negative-padding"])
def test_onnxruntime_does_not_run_a_pooling_the_importer_refuses(tmp_path, refused):
    model, feeds = REFUSED[refused][0].model()
    with pytest.raises(Exception, match="padding values must be non-negative"):
        onnxruntime_outputs(save(tmp_path, model), feeds)


def test_onnxruntime_does_not_run_a_conv_with_same_padding_and_a_dilation(tmp_path):
    """The rows checked against onnx's reference evaluator instead."""
    node = SUPPORTED["conv2d-SAME_UPPER-dilated"]
    assert onnxruntime_refuses(node)
    model, feeds = node.model()
    with pytest.raises(Exception, match="Dilation not supported for AutoPadType::SAME_UPPER"):
        onnxruntime_outputs(save(tmp_path, model), feeds)


def test_cfmem_import_reports_a_refused_conv_in_one_located_line(tmp_path, capsys):
    node, message = REFUSED["conv4d"]
    model, _ = node.model()
    path = save(tmp_path, model)
    assert cli.main(["import", str(path), "-o", str(tmp_path / "m.mlir")]) == 1
    assert capsys.readouterr().err.strip() == f"cfmem: {path}: error: {message}"
