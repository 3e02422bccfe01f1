"""inf, -inf, -0.0 and NaN through Pow, MaxPool, GlobalMaxPool, the quantizers, Min, Max and
every reduction: onnxruntime's outputs, bit for bit (any NaN matching any NaN), from the
reference interpreter, the planned flat form and the upstream MLIR JIT of
``nn-lower-to-linalg``.

Where onnxruntime's own answer depends on which of its vector kernels runs, the inputs keep
to the cases its kernels agree on: reductions over an axis of two or three elements (longer
ones go through its vector loop, whose lanes scan the elements in another order), and
max-pool windows whose NaN taps are followed by a number and that are not all -inf (its
kernels start from -FLT_MAX, or from the first tap, or let a NaN tap reset the scan)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")
from onnx import TensorProto as T  # noqa: E402
from onnx import helper as h  # noqa: E402
from onnx import numpy_helper as nh  # noqa: E402
from test_lower_to_linalg import check_lowered, needs_mlir, to_linalg  # noqa: E402
from test_onnx_ops_mapping import cfmem_runs  # noqa: E402

from cfmem.differential import run_mlir  # noqa: E402
from cfmem.importers.onnx.reference import onnxruntime_outputs  # noqa: E402
from cfmem.importers.onnx import onnx_importer  # noqa: E402
from cfmem.mlir_check.prepare import prepare_for_jit  # noqa: E402
from cfmem.pipeline import lower_model  # noqa: E402

SPECIAL = [np.inf, -np.inf, -0.0, 0.0, np.nan]
VALUES = np.array([*SPECIAL, -1.0, 1.0, 2.5], np.float32)
"""The special values and a few ordinary ones, each paired with each below."""


def pairs(values: np.ndarray = VALUES) -> tuple[np.ndarray, np.ndarray]:
    """Every ordered pair of ``values``: the first and the second elements."""
    first, second = np.meshgrid(values, values, indexing="ij")
    return first.reshape(-1).copy(), second.reshape(-1).copy()


def model(nodes, inputs: dict[str, tuple[int, list[int]]], outputs: dict[str, tuple[int, list[int]]],
          inits: dict[str, np.ndarray] = {}, opset: int = 13) -> onnx.ModelProto:
    graph = h.make_graph(
        nodes, "g", [h.make_tensor_value_info(k, e, s) for k, (e, s) in inputs.items()],
        [h.make_tensor_value_info(k, e, s) for k, (e, s) in outputs.items()],
        [nh.from_array(v, k) for k, v in inits.items()],
    )  # fmt: skip
    return h.make_model(graph, opset_imports=[h.make_opsetid("", opset)], ir_version=8)


def pow_case():
    bases = np.array([-np.inf, np.inf, -0.0, 0.0, np.nan, -1.0, 1.0], np.float32)
    exponents = np.array([0.5, 2.0, 3.0, -1.0, 0.0, np.inf, -np.inf, np.nan], np.float32)
    base, exponent = np.meshgrid(bases, exponents, indexing="ij")
    n = base.size
    nodes = [h.make_node("Pow", ["x", "e"], ["each"]), h.make_node("Pow", ["b", "half"], ["root"]),
             h.make_node("Pow", ["b", "cube"], ["cubed"])]  # fmt: skip
    inputs = {"x": (T.FLOAT, [n]), "e": (T.FLOAT, [n]), "b": (T.FLOAT, [bases.size])}
    outputs = {"each": (T.FLOAT, [n]), "root": (T.FLOAT, [bases.size]), "cubed": (T.FLOAT, [bases.size])}
    inits = {"half": np.array(0.5, np.float32), "cube": np.array([3.0], np.float32)}  # one exponent for every base
    feeds = {"x": base.reshape(-1).copy(), "e": exponent.reshape(-1).copy(), "b": bases}
    return model(nodes, inputs, outputs, inits, opset=15), feeds


POOL_WINDOWS = np.array([
    [np.nan, 3.0, 1.0, -2.0],
    [np.nan, np.inf, 1.0, -2.0],
    [0.0, -0.0, -1.0, -np.inf],
    [np.nan, -0.0, -1.0, -np.inf],
    [np.nan, np.nan, np.nan, np.nan],
    [-np.inf, np.nan, -np.inf, -np.inf],
    [1.0, np.nan, np.nan, 2.0],
    [-np.inf, -0.0, np.nan, 0.0],
], np.float32)
"""One 2x2 window a row (row-major), NaN never last, none all -inf."""


def max_pool_case():
    """Four 2x2 windows (stride 2) per channel: the windows above, two to a channel."""
    channels = len(POOL_WINDOWS) // 2
    x = np.empty((1, channels, 2, 4), np.float32)
    for c in range(channels):
        for k in range(2):
            x[0, c, :, 2 * k : 2 * k + 2] = POOL_WINDOWS[2 * c + k].reshape(2, 2)
    nodes = [h.make_node("MaxPool", ["x"], ["y"], kernel_shape=[2, 2], strides=[2, 2])]
    return model(nodes, {"x": (T.FLOAT, list(x.shape))}, {"y": (T.FLOAT, [1, channels, 1, 2])}), {"x": x}


def global_max_pool_case():
    x = POOL_WINDOWS.reshape(1, len(POOL_WINDOWS), 2, 2).copy()
    nodes = [h.make_node("GlobalMaxPool", ["x"], ["y"])]
    return model(nodes, {"x": (T.FLOAT, list(x.shape))}, {"y": (T.FLOAT, [1, len(POOL_WINDOWS), 1, 1])}), {"x": x}


def quantize_case():
    """QuantizeLinear to int8 and uint8 (zero point 0 and not), DequantizeLinear of them,
    and QLinearMul requantizing their products."""
    x = np.array([*SPECIAL, 1e9, -1e9, 0.25, -0.25, 3e38], np.float32)
    n = x.size
    inits = {"s": np.array(0.1, np.float32), "i0": np.array(0, np.int8), "i3": np.array(3, np.int8),
             "u0": np.array(0, np.uint8), "u130": np.array(130, np.uint8), "ys": np.array(0.5, np.float32)}  # fmt: skip
    nodes = [
        h.make_node("QuantizeLinear", ["x", "s", "i0"], ["q_i0"]), h.make_node("QuantizeLinear", ["x", "s", "i3"], ["q_i3"]),
        h.make_node("QuantizeLinear", ["x", "s", "u0"], ["q_u0"]), h.make_node("QuantizeLinear", ["x", "s", "u130"], ["q_u130"]),
        h.make_node("DequantizeLinear", ["q_i3", "s", "i3"], ["dq_i3"]), h.make_node("DequantizeLinear", ["q_u130", "s", "u130"], ["dq_u130"]),
        h.make_node("QLinearMul", ["q_i3", "s", "i3", "q_i3", "s", "i3", "ys", "i0"], ["product"], domain="com.microsoft"),
    ]  # fmt: skip
    outputs = {"q_i0": (T.INT8, [n]), "q_i3": (T.INT8, [n]), "q_u0": (T.UINT8, [n]), "q_u130": (T.UINT8, [n]),
               "dq_i3": (T.FLOAT, [n]), "dq_u130": (T.FLOAT, [n]), "product": (T.INT8, [n])}  # fmt: skip
    m = model(nodes, {"x": (T.FLOAT, [n])}, outputs, inits)
    m.opset_import.append(h.make_opsetid("com.microsoft", 1))
    return m, {"x": x}


def extreme_case(op: str):
    """Binary ``op`` on every pair, and variadic ``op`` of three inputs (the pairs and a third
    input of every value)."""
    a, b = pairs()
    c = np.resize(VALUES[::-1], a.size)
    n = a.size
    nodes = [h.make_node(op, ["a", "b"], ["binary"]), h.make_node(op, ["a", "b", "c"], ["variadic"])]
    inputs = {k: (T.FLOAT, [n]) for k in "abc"}
    return model(nodes, inputs, {"binary": (T.FLOAT, [n]), "variadic": (T.FLOAT, [n])}), {"a": a, "b": b, "c": c}


REDUCTIONS = ["ReduceMax", "ReduceMin", "ReduceSum", "ReduceMean", "ReduceProd", "ReduceL1", "ReduceL2",
              "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare"]  # fmt: skip


def reduce_case(op: str):
    """``op`` over the last axis of every pair (kept) and over the first axis of every pair
    and a third value (dropped)."""
    a, b = pairs()
    x = np.stack([a, b], 1)
    triples = np.stack([a, b, np.resize(VALUES[::-1], a.size)], 0)
    axes_input = op == "ReduceSum"  # ReduceSum takes its axes as an input from version 13
    node = lambda x_name, axes, keepdims, out: h.make_node(  # noqa: E731
        op, [x_name, f"{out}_axes"] if axes_input else [x_name], [out], keepdims=keepdims, **({} if axes_input else {"axes": axes}))
    nodes = [node("x", [1], 1, "pairs"), node("t", [0], 0, "triples")]
    inits = {"pairs_axes": np.array([1], np.int64), "triples_axes": np.array([0], np.int64)} if axes_input else {}
    inputs = {"x": (T.FLOAT, list(x.shape)), "t": (T.FLOAT, list(triples.shape))}
    outputs = {"pairs": (T.FLOAT, [a.size, 1]), "triples": (T.FLOAT, [a.size])}
    return model(nodes, inputs, outputs, inits), {"x": x, "t": triples}


CASES = {
    "Pow": pow_case,
    "MaxPool": max_pool_case,
    "GlobalMaxPool": global_max_pool_case,
    "QuantizeLinear": quantize_case,
    "Max": lambda: extreme_case("Max"),
    "Min": lambda: extreme_case("Min"),
    **{op: (lambda op=op: reduce_case(op)) for op in REDUCTIONS},
}


def assert_same_bits(got: dict[str, np.ndarray], want: dict[str, np.ndarray], inputs: dict[str, np.ndarray], who: str) -> None:
    """Equal names, shapes and dtypes; equal bits (-0.0 is not 0.0, NaN matching any NaN)
    where onnxruntime's value is not a finite non-zero number, within 4 ulps where it is
    (its exp and log round their own way); a mismatch names the output, the positions and
    both values."""
    assert got.keys() == want.keys(), who
    for name, expected in want.items():
        value = got[name]
        assert (value.shape, value.dtype) == (expected.shape, expected.dtype), f"{who} {name}"
        if expected.dtype.kind == "f":
            same = (value.view(np.uint32) == expected.view(np.uint32)) | (np.isnan(value) & np.isnan(expected))
            ordinary = np.isfinite(expected) & (expected != 0) & np.isfinite(value)  # (exp and log: a few ulps)
            with np.errstate(invalid="ignore"):
                same |= ordinary & (np.abs(value - expected) <= 4 * np.spacing(np.abs(expected)))
        else:
            same = value == expected
        wrong = np.flatnonzero(~same)
        assert not wrong.size, (
            f"{who} {name}: at {wrong[:6].tolist()} onnxruntime gives {expected.reshape(-1)[wrong[:6]].tolist()},"
            f" cfmem {value.reshape(-1)[wrong[:6]].tolist()}"
        )


@pytest.mark.parametrize("name", sorted(CASES))
def test_reference_and_flat_interpreters_match_onnxruntime(tmp_path, name):
    onnx_model, feeds = CASES[name]()
    path, reference, flat = cfmem_runs(tmp_path, onnx_model, feeds, checked=name != "QuantizeLinear")
    want = onnxruntime_outputs(path, feeds)
    assert_same_bits(reference, want, feeds, "reference")
    assert_same_bits(flat, want, feeds, "flat")


@needs_mlir
@pytest.mark.xdist_group("special_values_mlir")
@pytest.mark.parametrize("name", sorted(CASES))
def test_upstream_jit_matches_onnxruntime(tmp_path, name):
    onnx_model, feeds = CASES[name]()
    path = tmp_path / "m.onnx"
    onnx.save(onnx_model, str(path))
    imported = onnx_importer(onnx.load(str(path)), "w.bin").import_graph({}, {})
    (tmp_path / "w.bin").write_bytes(imported.blob)
    flat = lower_model(imported.module, "nn-plan-memory", tmp_path)
    lowered = to_linalg(flat)
    check_lowered(lowered)
    (got,) = run_mlir(str(prepare_for_jit(lowered)), flat, [feeds])
    assert_same_bits(got, onnxruntime_outputs(path, feeds), feeds, "mlir")
