"""ONNX Gather with run-time indices and GatherElements with run-time or known indices, as
``nn.gather`` and ``nn.gather_elements``, against onnxruntime on drawn shapes, axes, indices
(negative ones too, of any rank for Gather, i32 or i64) and data known or computed at run
time; Einsum in matmul-like forms (batch, free and summed letters in any order, the output
given or implicit) and transposes, as Transpose, Reshape and MatMul; TopK with a known k at
every accepted version, its Indices as ``nn.top_k`` (ties by position) and Values gathered
there: the reference interpreter and the planned flat form. Invalid axes, index shapes and
k, run-time k, and every Einsum that is not matmul-like are refused by their exact messages."""

from __future__ import annotations

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.extra.numpy import arrays  # noqa: E402
from onnx import TensorProto as T  # noqa: E402
from onnx import helper as h  # noqa: E402
from onnx import numpy_helper as nh  # noqa: E402
from test_onnx_ops_mapping import refusal, three_runs, unchecked_model  # noqa: E402

from cfmem.builder import GraphBuilder  # noqa: E402
from cfmem.dialects import nn_compute as nc  # noqa: E402
from cfmem.importers.onnx import onnx_importer  # noqa: E402
from cfmem.importers.onnx.registry import OPERATOR_VERSIONS  # noqa: E402

SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
DATA = st.floats(-8, 8, width=32)


def indexed_model(op: str, data: np.ndarray, indices: np.ndarray, known: set[str], opset: int, **attrs) -> onnx.ModelProto:
    """``op(data, indices)``; the tensors named in ``known`` are initializers, the others inputs."""
    tensors = {"data": data, "indices": indices}
    axis = attrs.get("axis", 0)
    out_shape = indices.shape if op == "GatherElements" else np.take(data, indices, axis=axis).shape
    inputs = [h.make_tensor_value_info(n, h.np_dtype_to_tensor_dtype(v.dtype), v.shape) for n, v in tensors.items() if n not in known]
    inits = [nh.from_array(v, n) for n, v in tensors.items() if n in known]
    graph = h.make_graph([h.make_node(op, ["data", "indices"], ["y"], name="n", **attrs)], "g", inputs,
                         [h.make_tensor_value_info("y", h.np_dtype_to_tensor_dtype(data.dtype), out_shape)], inits)  # fmt: skip
    return h.make_model(graph, opset_imports=[h.make_opsetid("", opset)], ir_version=8)


def check(tmp_path, model: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> None:
    """Gathers move elements: every run gives onnxruntime's exact numbers, shape and type."""
    want, got, ran = (outputs["y"] for outputs in three_runs(tmp_path, model, feeds))
    assert got.dtype == want.dtype and ran.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(ran, want)


def data_shapes(min_rank: int = 1) -> st.SearchStrategy[tuple[int, ...]]:
    return st.lists(st.integers(1, 4), min_size=min_rank, max_size=3).map(tuple)


def index_values(draw, shape: tuple[int, ...], size: int, label: str) -> np.ndarray:
    """Indices into an axis of ``size``, negative ones counting from the end, as i32 or i64."""
    dtype = draw(st.sampled_from([np.int32, np.int64]), label=f"{label} type")
    return draw(arrays(dtype, shape, elements=st.integers(-size, size - 1)), label=label)


def opset_of(draw, op: str) -> int:
    return max(7, draw(st.sampled_from(OPERATOR_VERSIONS[op]), label="version"))


@SETTINGS
@given(data=st.data())
def test_gather_at_run_time_indices_matches_onnxruntime(tmp_path, data):
    shape = data.draw(data_shapes(), label="data shape")
    axis = data.draw(st.integers(-len(shape), len(shape) - 1), label="axis")
    index_shape = data.draw(st.lists(st.integers(1, 3), max_size=2).map(tuple), label="index shape")
    indices = index_values(data.draw, index_shape, shape[axis], "indices")
    x = data.draw(arrays(np.float32, shape, elements=DATA), label="data")
    known = data.draw(st.sampled_from([set(), {"data"}]), label="known")
    attrs = {"axis": axis} if axis or data.draw(st.booleans(), label="axis given") else {}
    feeds = {"indices": indices} | ({} if known else {"data": x})
    check(tmp_path, indexed_model("Gather", x, indices, known, opset_of(data.draw, "Gather"), **attrs), feeds)


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.int8, np.bool_])
def test_gather_of_integer_data_at_known_indices_matches_onnxruntime(tmp_path, dtype):
    """Known indices into run-time data that is not float (shape arithmetic, masks)."""
    x = np.array([[3, -2, 7], [0, 1, -9]]).astype(dtype)
    model = indexed_model("Gather", x, np.array([[2, -1], [0, 0]], np.int64), {"indices"}, 13, axis=1)
    check(tmp_path, model, {"data": x})

@SETTINGS
@given(data=st.data())
def test_gather_elements_matches_onnxruntime(tmp_path, data):
    shape = data.draw(data_shapes(), label="data shape")
    axis = data.draw(st.integers(-len(shape), len(shape) - 1), label="axis")
    index_shape = tuple(
        data.draw(st.integers(1, 4) if k == axis % len(shape) else st.integers(1, d), label=f"index dim {k}")
        for k, d in enumerate(shape)
    )  # off the axis no larger than the data, along it any length
    indices = index_values(data.draw, index_shape, shape[axis], "indices")
    x = data.draw(arrays(np.float32, shape, elements=DATA), label="data")
    known = data.draw(st.sampled_from([set(), {"data"}, {"indices"}]), label="known")
    attrs = {"axis": axis} if axis or data.draw(st.booleans(), label="axis given") else {}
    feeds = {n: v for n, v in {"data": x, "indices": indices}.items() if n not in known}
    check(tmp_path, indexed_model("GatherElements", x, indices, known, opset_of(data.draw, "GatherElements"), **attrs), feeds)


@pytest.mark.parametrize("op", ["Gather", "GatherElements"])
def test_integer_data_keeps_its_type(tmp_path, op):
    x = np.arange(-6, 6, dtype=np.int64).reshape(3, 4)
    indices = np.array([[2, -1, 0, 1]], np.int64) if op == "GatherElements" else np.array([-1, 0], np.int32)
    check(tmp_path, indexed_model(op, x, indices, set(), 13, axis=0), {"data": x, "indices": indices})


@pytest.mark.parametrize("op, cls", [("Gather", nc.GatherOp), ("GatherElements", nc.GatherElementsOp)])
def test_run_time_indices_import_as_one_indexed_read(op, cls):
    model = indexed_model(op, np.zeros((3, 4), np.float32), np.zeros((2, 4), np.int64), set(), 13, axis=-2)
    imported = onnx_importer(model, "w.bin").import_graph({}, {})
    (read,) = [o for o in imported.module.walk() if isinstance(o, nc.IndexedReadOp)]
    assert type(read) is cls and read.normalized_axis() == 0


def invalid(op: str, data_shape: list[int], index_shape: list[int], **attrs) -> onnx.ModelProto:
    return unchecked_model(
        [h.make_node(op, ["data", "indices"], ["y"], name="n", **attrs)],
        [h.make_tensor_value_info("data", T.FLOAT, data_shape), h.make_tensor_value_info("indices", T.INT64, index_shape)],
        [h.make_tensor_value_info("y", T.FLOAT, None)],
        opset=13,
    )


@pytest.mark.parametrize(
    "op, data_shape, index_shape, axis, message",
    [
        ("Gather", [3, 4], [2], 2, "nn.gather: axis 2 is out of range for rank 2"),
        ("GatherElements", [3, 4], [2, 4], -3, "nn.gather_elements: axis -3 is out of range for rank 2"),
        ("GatherElements", [3, 4], [2], 0, "nn.gather_elements: indices of rank 1 must have the rank of the data, 2"),
        ("GatherElements", [3, 4], [2, 5], 0, "nn.gather_elements: indices have 5 elements on axis 1, more than the data's 4"),
    ],
)
def test_invalid_axes_and_index_shapes_are_refused(op, data_shape, index_shape, axis, message):
    assert refusal(invalid(op, data_shape, index_shape, axis=axis)) == f"node n ({op}): {message}"


def test_a_gather_reads_its_indices_and_one_data_element_per_result_element():
    """Not the whole data: an embedding lookup reads the rows it picks."""
    b = GraphBuilder("main")
    table = b.input("table", (100, 8))
    rows = b.gather(table, b.input("ids", (3,), dtype=np.int32))
    picked = b.gather_elements(table, b.input("at", (2, 8), dtype=np.int64))
    for value, index_bytes in ((rows, 3 * 4), (picked, 2 * 8 * 8)):
        out_bytes = value.type.element_count() * 4
        assert (value.owner.macs(), value.owner.bytes_read(), value.owner.bytes_written()) == (0, index_bytes + out_bytes, out_bytes)


# --- Einsum ----------------------------------------------------------------------------------


@st.composite
def matmul_like_equations(draw) -> tuple[str, list[tuple[int, ...]]]:
    """Two operands' batch, free and summed letters in drawn orders and sizes, the output
    given or implicit (then the batch letters are summed too); or one operand transposed."""
    letters = draw(st.permutations("abcdefghij"), label="letters")
    sizes = {c: draw(st.integers(1, 3), label=f"size {c}") for c in letters}
    if draw(st.booleans(), label="transpose"):
        term = "".join(letters[: draw(st.integers(0, 4), label="rank")])
        operands, output = [term], "".join(draw(st.permutations(term), label="output"))
    else:
        counts = [draw(st.integers(0, 2), label=group) for group in ("batch", "rows", "cols", "summed")]
        batch, rows, cols, summed = ("".join(letters[sum(counts[:k]) : sum(counts[: k + 1])]) for k in range(4))
        operands = ["".join(draw(st.permutations(t), label="term")) for t in (batch + rows + summed, batch + summed + cols)]
        output = "".join(draw(st.permutations(batch + rows + cols), label="output"))
    equation = ",".join(operands) + ("" if draw(st.booleans(), label="implicit") else f"->{output}")
    return equation, [tuple(sizes[c] for c in term) for term in operands]


@SETTINGS
@given(data=st.data())
def test_einsum_matches_onnxruntime_on_drawn_matmul_like_equations(tmp_path, data):
    equation, shapes = data.draw(matmul_like_equations(), label="equation")
    names = [f"x{k}" for k in range(len(shapes))]
    tensors = {n: data.draw(arrays(np.float32, s, elements=st.floats(-4, 4, width=32)), label=n) for n, s in zip(names, shapes)}
    known = data.draw(st.sampled_from(names[1:] + [None]), label="known")
    want_shape = np.einsum(equation, *tensors.values()).shape
    graph = h.make_graph([h.make_node("Einsum", names, ["y"], equation=equation)], "g",
                         [h.make_tensor_value_info(n, T.FLOAT, v.shape) for n, v in tensors.items() if n != known],
                         [h.make_tensor_value_info("y", T.FLOAT, want_shape)],
                         [nh.from_array(tensors[known], known)] if known else [])  # fmt: skip
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", 12)], ir_version=8)
    feeds = {n: v for n, v in tensors.items() if n != known}
    want, got, ran = (outputs["y"] for outputs in three_runs(tmp_path, model, feeds))
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5 * max(1.0, float(np.abs(want).max(initial=0))))
    np.testing.assert_array_equal(got, ran)


@pytest.mark.parametrize(
    "equation, shapes, reason",
    [
        ("ii->i", [[3, 3]], "index 'i' repeated in the term 'ii'"),
        ("ij,jk->ikk", [[2, 3], [3, 4]], "index 'k' repeated in the term 'ikk'"),
        ("ij->i", [[2, 3]], "index 'j' is summed over one operand only"),
        ("ij,jk->k", [[2, 3], [3, 4]], "index 'i' is summed over one operand only"),
        ("...ij,...jk->...ik", [[2, 3], [3, 4]], "an ellipsis"),
        ("ij,jk,kl->il", [[2, 3], [3, 4], [4, 5]], "3 operands"),
        ("ij,jk->ik", [[2, 3], [4, 5]], "index 'j' has sizes 3 and 4"),
        ("ijk,kl->il", [[2, 3], [3, 4]], "operand 0 has rank 2, not the 3 of 'ijk'"),
        ("ij,jk->iz", [[2, 3], [3, 4]], "output index 'z' is in no operand"),
    ],
)
def test_einsum_that_is_not_matmul_like_is_refused_with_its_equation(equation, shapes, reason):
    names = [f"x{k}" for k in range(len(shapes))]
    model = unchecked_model(
        [h.make_node("Einsum", names, ["y"], name="n", equation=equation)],
        [h.make_tensor_value_info(n, T.FLOAT, s) for n, s in zip(names, shapes)],
        [h.make_tensor_value_info("y", T.FLOAT, None)],
        opset=12,
    )
    assert refusal(model) == (
        f"node n (Einsum): Einsum {equation!r}: {reason}; only matmul-like products of two operands and transposes of one are supported"
    )


def test_einsum_of_a_batched_matmul_is_one_nn_matmul_and_no_transpose():
    graph = h.make_graph([h.make_node("Einsum", ["a", "b"], ["y"], equation="bhid,bhdj->bhij")], "g",
                         [h.make_tensor_value_info("a", T.FLOAT, [2, 3, 4, 5]), h.make_tensor_value_info("b", T.FLOAT, [2, 3, 5, 6])],
                         [h.make_tensor_value_info("y", T.FLOAT, [2, 3, 4, 6])])  # fmt: skip
    imported = onnx_importer(h.make_model(graph, opset_imports=[h.make_opsetid("", 12)], ir_version=8), "w.bin").import_graph({}, {})
    names = [op.name for op in imported.module.walk() if op.name.startswith("nn.")]
    assert names.count("nn.matmul") == 1 and "nn.transpose" not in names


# --- TopK ------------------------------------------------------------------------------------


def top_k_model(shape, k: int, version: int, **attrs) -> onnx.ModelProto:
    """TopK of a run-time ``x`` at the oldest opset with ``version`` of it; k an attribute
    before version 10, a known input from it."""
    opset = max(7, version)
    ins, inits = (["x"], []) if version < 10 else (["x", "k"], [nh.from_array(np.array([k], np.int64), "k")])
    attrs = attrs | ({"k": k} if version < 10 else {})
    out_shape = list(shape)
    out_shape[attrs.get("axis", -1)] = k
    graph = h.make_graph([h.make_node("TopK", ins, ["values", "indices"], name="n", **attrs)], "g",
                         [h.make_tensor_value_info("x", T.FLOAT, shape)],
                         [h.make_tensor_value_info("values", T.FLOAT, out_shape), h.make_tensor_value_info("indices", T.INT64, out_shape)],
                         inits)  # fmt: skip
    ir_version = 8 if opset < 19 else 9 if opset < 21 else 10
    return h.make_model(graph, opset_imports=[h.make_opsetid("", opset)], ir_version=ir_version)


@SETTINGS
@given(data=st.data())
def test_top_k_matches_onnxruntime_with_ties_broken_by_position(tmp_path, data):
    shape = data.draw(data_shapes(), label="shape")
    axis = data.draw(st.integers(-len(shape), len(shape) - 1), label="axis")
    k = data.draw(st.integers(1, shape[axis]), label="k")
    version = data.draw(st.sampled_from(OPERATOR_VERSIONS["TopK"]), label="version")
    attrs = {"axis": axis} if axis != -1 or data.draw(st.booleans(), label="axis given") else {}
    if version >= 11:
        attrs |= {a: data.draw(st.sampled_from([0, 1]), label=a) for a in ("largest", "sorted") if data.draw(st.booleans(), label=f"set {a}")}
    x = data.draw(arrays(np.float32, shape, elements=st.sampled_from([-1.5, 0.0, 2.0]) | DATA), label="x")  # ties
    runs = three_runs(tmp_path, top_k_model(shape, k, version, **attrs), {"x": x})
    if not attrs.get("sorted", 1):  # ONNX leaves the order open: the same elements, in any order
        runs = tuple({n: np.sort(v, axis=axis) for n, v in outputs.items()} for outputs in runs)
    want, got, ran = runs
    for name, dtype in (("values", np.float32), ("indices", np.int64)):
        assert want[name].dtype == got[name].dtype == ran[name].dtype == dtype
        np.testing.assert_array_equal(got[name], want[name])
        np.testing.assert_array_equal(ran[name], want[name])


@pytest.mark.parametrize(
    "shape, k, attrs, message",
    [
        ([2, 4], [5], {}, "nn.top_k: k 5 must be in [1, 4], the size of axis 1"),
        ([2, 4], [0], {"axis": 0}, "nn.top_k: k 0 must be in [1, 2], the size of axis 0"),
        ([2, 4], [1, 2], {}, "TopK K [1, 2] must hold one value"),
        ([2, 4], [1], {"axis": 2}, "nn.top_k: axis 2 is out of range for rank 2"),
    ],
)
def test_top_k_that_does_not_fit_the_input_is_refused(shape, k, attrs, message):
    model = unchecked_model(
        [h.make_node("TopK", ["x", "k"], ["values", "indices"], name="n", **attrs)],
        [h.make_tensor_value_info("x", T.FLOAT, shape)],
        [h.make_tensor_value_info("values", T.FLOAT, None), h.make_tensor_value_info("indices", T.INT64, None)],
        [nh.from_array(np.array(k, np.int64), "k")],
        opset=11,
    )
    assert refusal(model) == f"node n (TopK): {message}"


def test_top_k_at_run_time_k_is_refused_by_name():
    model = unchecked_model(
        [h.make_node("TopK", ["x", "k"], ["values", "indices"], name="n")],
        [h.make_tensor_value_info("x", T.FLOAT, [2, 4]), h.make_tensor_value_info("k", T.INT64, [1])],
        [h.make_tensor_value_info("values", T.FLOAT, None), h.make_tensor_value_info("indices", T.INT64, None)],
        opset=11,
    )
    assert refusal(model) == "node n (TopK): TopK K must be a constant (it is computed at run time; it is an input of the model: fix it with --input-value)"


def test_top_k_counts_a_comparison_per_pair_along_the_axis_and_per_rank_and_slot():
    b = GraphBuilder("main")
    op = b.top_k(b.input("x", (3, 5, 4)), 2, axis=1).owner
    assert op.macs() == 3 * 5 * 4 * (5 + 2)
    assert (op.bytes_read(), op.bytes_written()) == (3 * 5 * 4 * 4, 3 * 2 * 4 * 8)
