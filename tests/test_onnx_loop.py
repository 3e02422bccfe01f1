"""ONNX Loop and Scan as nn.loop, and LSTM/GRU imported as loops: onnxruntime, the
reference interpreter on the import (within 1e-4) and the planned flat form (bit-identical to
the reference) on trip counts 0, 1, 2 and many; refused forms by their one-line message."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")
from onnx import TensorProto as T  # noqa: E402
from onnx import helper as h  # noqa: E402
from onnx import numpy_helper as nh  # noqa: E402
from test_onnx_ops_lstm import lstm_model  # noqa: E402
from test_onnx_ops_mapping import refusal  # noqa: E402

from cfmem.dialects.nn_control import LoopOp  # noqa: E402
from cfmem.dialects.nn_dma import DmaStartOp  # noqa: E402
from cfmem.importers.onnx import onnx_importer  # noqa: E402
from cfmem.importers.onnx.reference import max_abs_error, onnxruntime_outputs  # noqa: E402
from cfmem.interp.flat import run_flat  # noqa: E402
from cfmem.interp.golden import run_function  # noqa: E402
from cfmem.pipeline import apply_pipeline, lower_model  # noqa: E402

TOLERANCE = 1e-4


@pytest.fixture
def rng():
    return np.random.default_rng(0)


def vi(name: str, elem: int, shape) -> onnx.ValueInfoProto:
    return h.make_tensor_value_info(name, elem, shape)


def model(nodes, inputs, outputs, inits=(), opset: int = 17) -> onnx.ModelProto:
    graph = h.make_graph(nodes, "g", inputs, outputs, [nh.from_array(v, k) for k, v in dict(inits).items()])
    m = h.make_model(graph, opset_imports=[h.make_opsetid("", opset)], ir_version=8)
    onnx.checker.check_model(m)
    return m


def body(nodes, inputs, outputs, inits=()) -> onnx.GraphProto:
    return h.make_graph(nodes, "body", inputs, outputs, [nh.from_array(v, k) for k, v in dict(inits).items()])


def loop_body_inputs(*carried) -> list[onnx.ValueInfoProto]:
    return [vi("i", T.INT64, []), vi("c_in", T.BOOL, []), *carried]


def runs(tmp_path: Path, m: onnx.ModelProto, feeds: dict[str, np.ndarray], recurrence: str = "unroll", ort: bool = True):
    """onnxruntime's outputs (None without ``ort``), the reference interpreter's on the import,
    the planned flat form's, the reference run's iteration count of each loop, and the import."""
    path = tmp_path / "m.onnx"
    onnx.save(m, str(path))
    imported = onnx_importer(onnx.load(str(path)), "w.bin", recurrence=recurrence).import_graph({}, {})
    (tmp_path / "w.bin").write_bytes(imported.blob)
    ref = run_function(imported.module, dict(feeds), base_dir=tmp_path)
    flat = run_flat(lower_model(imported.module, "nn-insert-dma,nn-plan-memory", tmp_path), dict(feeds), check=True)
    want = onnxruntime_outputs(path, feeds) if ort else None
    return want, ref.outputs, flat.outputs, [count for _, count in ref.loops], imported


def check(tmp_path: Path, m: onnx.ModelProto, feeds: dict[str, np.ndarray], recurrence: str = "unroll",
          ort: bool = True) -> list[int]:  # fmt: skip
    """The runs agree (see the module docstring); the loops' iteration counts."""
    want, ref, flat, counts, _ = runs(tmp_path, m, feeds, recurrence, ort)
    if want is not None:
        assert {k: (v.shape, v.dtype) for k, v in ref.items()} == {k: (v.shape, v.dtype) for k, v in want.items()}
        test = os.environ.get("PYTEST_CURRENT_TEST", "?").split("::")[-1].split("[")[0].split(" ")[0]
        ERRORS[test] = max(ERRORS.get(test, 0.0), max_abs_error(want, ref))
        assert max_abs_error(want, ref) <= TOLERANCE
    assert same(ref, flat)
    return counts


def same(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> bool:
    """Bit-identical outputs of the same names and shapes."""
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


ERRORS: dict[str, float] = {}
"""The largest |reference - onnxruntime| of each test function (``-s`` prints them at the end)."""


@pytest.fixture(scope="module", autouse=True)
def report_errors():
    yield
    for test, error in ERRORS.items():
        print(f"\nmax |reference - onnxruntime| {error:.3g} in {test}", end="")


# --- Loop ---------------------------------------------------------------------------------------

W = (2 * np.eye(4) + 0.01).astype(np.float32)


def while_model() -> onnx.ModelProto:
    """h <- relu(h W) while sum(h) < 100 (tested before the first iteration too), at most M
    times; W comes from the outer graph."""
    b = body(
        [h.make_node("MatMul", ["h_in", "W"], ["mm"]), h.make_node("Relu", ["mm"], ["h_out"]),
         h.make_node("ReduceSum", ["h_out"], ["s"], keepdims=0), h.make_node("Less", ["s", "limit"], ["c_out"])],
        loop_body_inputs(vi("h_in", T.FLOAT, [1, 4])), [vi("c_out", T.BOOL, []), vi("h_out", T.FLOAT, [1, 4])],
    )  # fmt: skip
    nodes = [h.make_node("ReduceSum", ["x"], ["s0"], keepdims=0), h.make_node("Less", ["s0", "limit"], ["c0"]),
             h.make_node("Loop", ["M", "c0", "x"], ["y"], body=b, name="while")]  # fmt: skip
    return model(nodes, [vi("x", T.FLOAT, [1, 4]), vi("M", T.INT64, [])], [vi("y", T.FLOAT, [1, 4])],
                 {"W": W, "limit": np.array(100, np.float32)})  # fmt: skip


@pytest.mark.parametrize("scale, trips", [(30.0, 0), (20.0, 1), (10.0, 2), (0.01, 11)])
def test_a_while_loop_stops_when_its_data_says(tmp_path, scale, trips):
    feeds = {"x": np.full((1, 4), scale, np.float32), "M": np.array(50, np.int64)}
    assert check(tmp_path, while_model(), feeds) == [trips]


@pytest.mark.parametrize("limit", [0, 1, 2, 3])
def test_the_trip_count_M_also_stops_a_while_loop(tmp_path, limit):
    feeds = {"x": np.full((1, 4), 0.01, np.float32), "M": np.array(limit, np.int64)}
    assert check(tmp_path, while_model(), feeds) == [limit]


def counted_model(cond: str = "") -> onnx.ModelProto:
    """M only (or M and a known-true cond): h <- h + i * x, and a second carried value
    whose body passes the first one's old value on (a carried value moving position)."""
    b = body(
        [h.make_node("Cast", ["i"], ["fi"], to=T.FLOAT), h.make_node("Mul", ["fi", "x"], ["ix"]),
         h.make_node("Add", ["h_in", "ix"], ["h_out"]), h.make_node("Identity", ["c_in"], ["c_out"])],
        loop_body_inputs(vi("h_in", T.FLOAT, [2, 3]), vi("g_in", T.FLOAT, [2, 3])),
        [vi("c_out", T.BOOL, []), vi("h_out", T.FLOAT, [2, 3]), vi("h_in", T.FLOAT, [2, 3])],
    )  # fmt: skip
    inits = {"go": np.array(True)} if cond else {}
    nodes = [h.make_node("Loop", ["M", cond, "x", "x"], ["y", "z"], body=b, name="counted")]
    return model(nodes, [vi("x", T.FLOAT, [2, 3]), vi("M", T.INT64, [])],
                 [vi("y", T.FLOAT, [2, 3]), vi("z", T.FLOAT, [2, 3])], inits)  # fmt: skip


@pytest.mark.parametrize("cond", ["", "go"])
@pytest.mark.parametrize("trips", [0, 1, 2, 9])
def test_a_loop_with_a_trip_count_only_runs_M_times(tmp_path, rng, cond, trips):
    feeds = {"x": rng.standard_normal((2, 3)).astype(np.float32), "M": np.array(trips, np.int64)}
    assert check(tmp_path, counted_model(cond), feeds) == [trips]


def test_a_loop_without_a_condition_is_counted(tmp_path):
    _, _, _, _, imported = runs(tmp_path, counted_model(), {"x": np.ones((2, 3), np.float32), "M": np.array(2, np.int64)})
    (loop,) = [op for op in imported.module.walk() if isinstance(op, LoopOp)]
    assert loop.is_counted()


def swap_model() -> onnx.ModelProto:
    """(a, b) <- (b, a + b): a carried value yielded at another position."""
    b = body([h.make_node("Add", ["a_in", "b_in"], ["ab"])],
             loop_body_inputs(vi("a_in", T.FLOAT, [3]), vi("b_in", T.FLOAT, [3])),
             [vi("c_in", T.BOOL, []), vi("b_in", T.FLOAT, [3]), vi("ab", T.FLOAT, [3])])  # fmt: skip
    nodes = [h.make_node("Loop", ["M", "", "a", "b"], ["a_n", "b_n"], body=b, name="fib")]
    return model(nodes, [vi("a", T.FLOAT, [3]), vi("b", T.FLOAT, [3]), vi("M", T.INT64, [])],
                 [vi("a_n", T.FLOAT, [3]), vi("b_n", T.FLOAT, [3])])  # fmt: skip


@pytest.mark.parametrize("trips", [0, 1, 2, 10])
def test_swapped_carried_values_are_copied(tmp_path, rng, trips):
    feeds = {"a": rng.standard_normal(3).astype(np.float32), "b": rng.standard_normal(3).astype(np.float32),
             "M": np.array(trips, np.int64)}  # fmt: skip
    assert check(tmp_path, swap_model(), feeds) == [trips]


def lagging_condition_model() -> onnx.ModelProto:
    """h <- 2 h, f <- sum(h) < 10, and the next condition is the carried f of the iteration
    before (a carried value yielded as the condition, and the condition carried on as g)."""
    b = body(
        [h.make_node("Add", ["h_in", "h_in"], ["h_out"]), h.make_node("ReduceSum", ["h_out"], ["s"], keepdims=0),
         h.make_node("Less", ["s", "ten"], ["f_out"])],
        loop_body_inputs(vi("h_in", T.FLOAT, [2]), vi("f_in", T.BOOL, []), vi("g_in", T.BOOL, [])),
        [vi("f_in", T.BOOL, []), vi("h_out", T.FLOAT, [2]), vi("f_out", T.BOOL, []), vi("c_in", T.BOOL, [])],
    )  # fmt: skip
    nodes = [h.make_node("Loop", ["M", "go", "x", "go", "go"], ["y", "f", "g"], body=b, name="lagging")]
    return model(nodes, [vi("x", T.FLOAT, [2]), vi("go", T.BOOL, [])],
                 [vi("y", T.FLOAT, [2]), vi("f", T.BOOL, []), vi("g", T.BOOL, [])],
                 {"M": np.array(40, np.int64), "ten": np.array(10, np.float32)})  # fmt: skip


@pytest.mark.parametrize("x, go, trips", [(1.0, False, 0), (3.0, True, 2), (0.001, True, 14)])
def test_a_carried_value_that_becomes_the_condition_is_copied(tmp_path, x, go, trips):
    feeds = {"x": np.array([x, x], np.float32), "go": np.array(go)}
    assert check(tmp_path, lagging_condition_model(), feeds) == [trips]


def scan_loop_model(trips: int) -> onnx.ModelProto:
    """A constant M: h <- tanh(h + x), with scan outputs h and the iteration number."""
    b = body(
        [h.make_node("Add", ["h_in", "x"], ["hx"]), h.make_node("Tanh", ["hx"], ["h_out"]),
         h.make_node("Cast", ["i"], ["fi"], to=T.FLOAT), h.make_node("Relu", ["h_out"], ["r"])],
        loop_body_inputs(vi("h_in", T.FLOAT, [2, 2])),
        [vi("c_in", T.BOOL, []), vi("h_out", T.FLOAT, [2, 2]), vi("r", T.FLOAT, [2, 2]), vi("fi", T.FLOAT, [])],
    )  # fmt: skip
    nodes = [h.make_node("Loop", ["M", "", "h0"], ["h", "rs", "is"], body=b, name="scans")]
    return model(nodes, [vi("h0", T.FLOAT, [2, 2]), vi("x", T.FLOAT, [2, 2])],
                 [vi("h", T.FLOAT, [2, 2]), vi("rs", T.FLOAT, [trips, 2, 2]), vi("is", T.FLOAT, [trips])],
                 {"M": np.array(trips, np.int64)})  # fmt: skip


@pytest.mark.parametrize("trips", [1, 2, 7])
def test_scan_outputs_of_a_loop_stack_every_iteration(tmp_path, rng, trips):
    feeds = {"h0": rng.standard_normal((2, 2)).astype(np.float32), "x": rng.standard_normal((2, 2)).astype(np.float32)}
    assert check(tmp_path, scan_loop_model(trips), feeds) == [trips]


def loop_in_if_model() -> onnx.ModelProto:
    """if sum(x) > 0: the counted loop of ``counted_model`` (M from the outer graph) else -x."""
    inner = counted_model().graph.node[0]
    then = h.make_graph([inner], "then", [], [vi("y", T.FLOAT, [2, 3])])
    other = h.make_graph([h.make_node("Neg", ["x"], ["n"])], "else", [], [vi("n", T.FLOAT, [2, 3])])
    nodes = [h.make_node("ReduceSum", ["x"], ["s"], keepdims=0), h.make_node("Greater", ["s", "zero"], ["pos"]),
             h.make_node("If", ["pos"], ["out"], then_branch=then, else_branch=other, name="branch")]  # fmt: skip
    return model(nodes, [vi("x", T.FLOAT, [2, 3]), vi("M", T.INT64, [])], [vi("out", T.FLOAT, [2, 3])],
                 {"zero": np.array(0, np.float32)})  # fmt: skip


@pytest.mark.parametrize("sign", [1, -1])
@pytest.mark.parametrize("trips", [0, 1, 2, 6])
def test_a_loop_inside_an_if(tmp_path, sign, trips):
    feeds = {"x": sign * np.arange(1, 7, dtype=np.float32).reshape(2, 3) / 4, "M": np.array(trips, np.int64)}
    assert check(tmp_path, loop_in_if_model(), feeds) == ([trips] if sign > 0 else [])


def if_in_loop_model() -> onnx.ModelProto:
    """h <- (i even ? 2 h : h + w) while max(h) < 50, w from the outer graph."""
    then = h.make_graph([h.make_node("Mul", ["h_in", "two"], ["t"])], "even", [], [vi("t", T.FLOAT, [3])])
    other = h.make_graph([h.make_node("Add", ["h_in", "w"], ["e"])], "odd", [], [vi("e", T.FLOAT, [3])])
    b = body(
        [h.make_node("Mod", ["i", "two_i"], ["parity"]), h.make_node("Equal", ["parity", "zero_i"], ["even"]),
         h.make_node("If", ["even"], ["h_out"], then_branch=then, else_branch=other, name="step"),
         h.make_node("ReduceMax", ["h_out"], ["mx"], keepdims=0), h.make_node("Less", ["mx", "fifty"], ["c_out"])],
        loop_body_inputs(vi("h_in", T.FLOAT, [3])), [vi("c_out", T.BOOL, []), vi("h_out", T.FLOAT, [3])],
        {"two_i": np.array(2, np.int64), "zero_i": np.array(0, np.int64)},
    )  # fmt: skip
    nodes = [h.make_node("Loop", ["M", "go", "x"], ["y"], body=b, name="outer")]
    return model(nodes, [vi("x", T.FLOAT, [3]), vi("go", T.BOOL, [])], [vi("y", T.FLOAT, [3])],
                 {"M": np.array(100, np.int64), "two": np.array(2, np.float32), "w": np.array([0.5, 1, 1.5], np.float32),
                  "fifty": np.array(50, np.float32)})  # fmt: skip


@pytest.mark.parametrize("x, go, trips", [(3.0, False, 0), (30.0, True, 1), (24.9, True, 2), (1.0, True, 9)])
def test_an_if_inside_a_loop(tmp_path, x, go, trips):
    feeds = {"x": np.array([x, x / 2, x / 3], np.float32), "go": np.array(go)}
    assert check(tmp_path, if_in_loop_model(), feeds) == [trips]


def nested_loop_model() -> onnx.ModelProto:
    """An outer loop (M times) whose body runs an inner loop of 3 steps with a scan output
    (h + j * i for inner step j) and carries on the inner scan's sum."""
    inner = body(
        [h.make_node("Cast", ["j"], ["fj"], to=T.FLOAT), h.make_node("Cast", ["i"], ["fi"], to=T.FLOAT),
         h.make_node("Mul", ["fj", "fi"], ["ji"]), h.make_node("Add", ["h_in", "ji"], ["row"])],
        [vi("j", T.INT64, []), vi("c_j", T.BOOL, [])], [vi("c_j", T.BOOL, []), vi("row", T.FLOAT, [2])],
    )  # fmt: skip
    outer = body(
        [h.make_node("Loop", ["three", ""], ["rows"], body=inner, name="inner"),
         h.make_node("ReduceSum", ["rows"], ["h_sum"], axes=[0], keepdims=0),
         h.make_node("Mul", ["h_sum", "tenth"], ["h_out"])],
        loop_body_inputs(vi("h_in", T.FLOAT, [2])), [vi("c_in", T.BOOL, []), vi("h_out", T.FLOAT, [2])],
    )  # fmt: skip
    nodes = [h.make_node("Loop", ["M", "", "x"], ["y"], body=outer, name="outer")]
    return model(nodes, [vi("x", T.FLOAT, [2]), vi("M", T.INT64, [])], [vi("y", T.FLOAT, [2])],
                 {"three": np.array(3, np.int64), "tenth": np.array(0.1, np.float32)}, opset=11)  # fmt: skip


@pytest.mark.parametrize("trips", [0, 1, 2, 5])
def test_a_loop_with_scan_outputs_inside_a_loop(tmp_path, trips):
    feeds = {"x": np.array([1.0, -2.0], np.float32), "M": np.array(trips, np.int64)}
    assert check(tmp_path, nested_loop_model(), feeds) == [3] * trips + [trips]


# --- Scan ---------------------------------------------------------------------------------------


def scan_model(length: int, reverse_in: int, axes_out: tuple[int, int], reverse_out: tuple[int, int],
               opset: int = 17) -> onnx.ModelProto:  # fmt: skip
    """State s[3] <- s + a_t * sum(b_t); a[T, 3] on axis 0 forward, b[2, T] on axis 1 (or
    -1) in direction ``reverse_in``; outputs s per step and 2 a_t, on ``axes_out``."""
    b = body(
        [h.make_node("ReduceSum", ["bt"], ["sb"], keepdims=1), h.make_node("Mul", ["at", "sb"], ["ab"]),
         h.make_node("Add", ["s_in", "ab"], ["s_out"]), h.make_node("Add", ["at", "at"], ["a2"]),
         h.make_node("Identity", ["s_out"], ["s_step"])],
        [vi("s_in", T.FLOAT, [3]), vi("at", T.FLOAT, [3]), vi("bt", T.FLOAT, [2])],
        [vi("s_out", T.FLOAT, [3]), vi("s_step", T.FLOAT, [3]), vi("a2", T.FLOAT, [3])],
    )  # fmt: skip
    node = h.make_node("Scan", ["s0", "a", "b"], ["s", "ss", "as"], body=b, num_scan_inputs=2, name="scan",
                       scan_input_axes=[0, 1 if reverse_in else -1], scan_input_directions=[0, reverse_in],
                       scan_output_axes=list(axes_out), scan_output_directions=list(reverse_out))  # fmt: skip
    shapes = {0: [length, 3], -2: [length, 3], 1: [3, length], -1: [3, length]}
    return model([node], [vi("s0", T.FLOAT, [3]), vi("a", T.FLOAT, [length, 3]), vi("b", T.FLOAT, [2, length])],
                 [vi("s", T.FLOAT, [3]), vi("ss", T.FLOAT, shapes[axes_out[0]]), vi("as", T.FLOAT, shapes[axes_out[1]])],
                 opset=opset)  # fmt: skip


@pytest.mark.parametrize("length", [1, 2, 6])
@pytest.mark.parametrize("reverse_in, axes_out, reverse_out", [
    (0, (0, 0), (0, 0)), (1, (0, 1), (0, 0)), (0, (1, -1), (1, 0)), (1, (-2, 1), (0, 1)),
])  # fmt: skip
def test_scan_forward_and_reverse_on_any_axis(tmp_path, rng, length, reverse_in, axes_out, reverse_out):
    feeds = {"s0": rng.standard_normal(3).astype(np.float32), "a": rng.standard_normal((length, 3)).astype(np.float32),
             "b": rng.standard_normal((2, length)).astype(np.float32)}  # fmt: skip
    assert check(tmp_path, scan_model(length, reverse_in, axes_out, reverse_out), feeds) == [length]


@pytest.mark.parametrize("out_axis, shape", [(1, [2, 4, 3]), (2, [2, 3, 4]), (-3, [4, 2, 3])])
def test_a_scan_output_of_rank_3_moves_its_stacking_axis_to_its_place(tmp_path, rng, out_axis, shape):
    """x[2, 3, T] scanned on axis 2 (reversed): each [2, 3] element doubled and stacked on ``out_axis``."""
    b = body([h.make_node("Add", ["xt", "xt"], ["x2"]), h.make_node("Add", ["s_in", "x2"], ["s_out"])],
             [vi("s_in", T.FLOAT, [2, 3]), vi("xt", T.FLOAT, [2, 3])],
             [vi("s_out", T.FLOAT, [2, 3]), vi("x2", T.FLOAT, [2, 3])])  # fmt: skip
    node = h.make_node("Scan", ["s0", "x"], ["s", "ys"], body=b, num_scan_inputs=1, scan_input_axes=[2],
                       scan_input_directions=[1], scan_output_axes=[out_axis])  # fmt: skip
    m = model([node], [vi("s0", T.FLOAT, [2, 3]), vi("x", T.FLOAT, [2, 3, 4])],
              [vi("s", T.FLOAT, [2, 3]), vi("ys", T.FLOAT, shape)])  # fmt: skip
    feeds = {"s0": rng.standard_normal((2, 3)).astype(np.float32), "x": rng.standard_normal((2, 3, 4)).astype(np.float32)}
    assert check(tmp_path, m, feeds) == [4]


@pytest.mark.parametrize("opset", [9, 11, 16])
def test_scan_at_older_opsets(tmp_path, rng, opset):
    feeds = {"s0": rng.standard_normal(3).astype(np.float32), "a": rng.standard_normal((3, 3)).astype(np.float32),
             "b": rng.standard_normal((2, 3)).astype(np.float32)}  # fmt: skip
    assert check(tmp_path, scan_model(3, 1, (0, 1), (1, 0), opset), feeds) == [3]


# --- LSTM and GRU as loops ------------------------------------------------------------------------


def gru_model(seq: int, batch: int, **attrs) -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:
    rng = np.random.default_rng(seq)
    hidden, size, directions = 3, 2, 2 if attrs.get("direction") == "bidirectional" else 1
    layout = attrs.get("layout", 0)
    x_shape = [batch, seq, size] if layout else [seq, batch, size]
    state = [batch, directions, hidden] if layout else [directions, batch, hidden]
    inits = {"W": rng.standard_normal((directions, 3 * hidden, size)).astype(np.float32),
             "R": rng.standard_normal((directions, 3 * hidden, hidden)).astype(np.float32),
             "B": rng.standard_normal((directions, 6 * hidden)).astype(np.float32)}  # fmt: skip
    node = h.make_node("GRU", ["x", "W", "R", "B", "", "h0"], ["y", "y_h"], hidden_size=hidden, name="gru", **attrs)
    y = [batch, seq, directions, hidden] if layout else [seq, directions, batch, hidden]
    m = model([node], [vi("x", T.FLOAT, x_shape), vi("h0", T.FLOAT, state)], [vi("y", T.FLOAT, y), vi("y_h", T.FLOAT, state)],
              inits, opset=14)  # fmt: skip
    return m, {"x": rng.standard_normal(x_shape).astype(np.float32), "h0": rng.standard_normal(state).astype(np.float32)}


def recurrent_model(op: str, seq: int, attrs: dict):
    if op == "LSTM":
        return lstm_bidirectional(seq, 2, 2 if attrs["direction"] == "bidirectional" else 1, **attrs)
    return gru_model(seq, 2, **attrs)


DIRECTIONS = [{"direction": "forward"}, {"direction": "reverse"}, {"direction": "bidirectional"}]


@pytest.mark.parametrize("op", ["LSTM", "GRU"])
@pytest.mark.parametrize("attrs", DIRECTIONS, ids=lambda a: a["direction"])
@pytest.mark.parametrize("seq", [1, 2, 5])
def test_recurrences_as_loops_match_onnxruntime_and_the_unrolled_import(tmp_path, op, attrs, seq):
    """The loop's body is the unrolled import's time step: the same numbers, bit for bit."""
    m, feeds = recurrent_model(op, seq, attrs)
    loops = [seq] * (2 if attrs["direction"] == "bidirectional" else 1) if seq > 1 else []
    assert check(tmp_path, m, feeds, recurrence="loop") == loops
    assert check(tmp_path, m, feeds) == []
    _, unrolled, _, _, _ = runs(tmp_path, m, feeds, ort=False)
    _, looped, _, _, _ = runs(tmp_path, m, feeds, "loop", ort=False)
    assert same(unrolled, looped)


@pytest.mark.parametrize("op", ["LSTM", "GRU"])
@pytest.mark.parametrize("attrs", DIRECTIONS, ids=lambda a: a["direction"])
def test_batch_major_recurrences_as_loops_match_the_unrolled_import(tmp_path, op, attrs):
    """Layout 1, which onnxruntime does not run: the loop against the unrolled import, bit for bit."""
    m, feeds = recurrent_model(op, 4, {**attrs, "layout": 1})
    _, unrolled, _, _, _ = runs(tmp_path, m, feeds, ort=False)
    assert check(tmp_path, m, feeds, recurrence="loop", ort=False) == [4] * (2 if attrs["direction"] == "bidirectional" else 1)
    _, looped, _, _, _ = runs(tmp_path, m, feeds, "loop", ort=False)
    assert same(unrolled, looped)


def lstm_bidirectional(seq: int, batch: int, directions: int, **attrs):
    """An LSTM with ``directions`` directions and every output (``lstm_model``'s weights repeated
    per direction), in layout 0 or 1."""
    m, feeds = lstm_model(seq, batch, opset=14)
    layout = attrs.get("layout", 0)
    graph = m.graph
    for init in graph.initializer:
        array = nh.to_array(init)
        init.CopyFrom(nh.from_array(np.concatenate([array, array[:, ::-1] * 0.5])[:directions].copy(), init.name))
    hidden = 3
    x = feeds["x"] if not layout else feeds["x"].transpose(1, 0, 2).copy()
    states = {k: np.concatenate([feeds[k], -feeds[k]])[:directions] for k in ("h0", "c0")}
    if layout:
        states = {k: v.transpose(1, 0, 2).copy() for k, v in states.items()}
    new_feeds = {"x": x, **states}
    node = graph.node[0]
    del node.attribute[:]
    node.attribute.extend([h.make_attribute("hidden_size", hidden), h.make_attribute("direction", attrs["direction"]),
                           h.make_attribute("layout", layout)])  # fmt: skip
    y = [batch, seq, directions, hidden] if layout else [seq, directions, batch, hidden]
    state = list(states["h0"].shape)
    del graph.input[:]
    graph.input.extend([vi(k, T.FLOAT, list(v.shape)) for k, v in new_feeds.items()])
    del graph.output[:]
    graph.output.extend([vi("y", T.FLOAT, y), vi("y_h", T.FLOAT, state), vi("y_c", T.FLOAT, state)])
    onnx.checker.check_model(m)
    return m, new_feeds


def test_the_import_command_takes_the_recurrence(tmp_path, capsys):
    from cfmem.tools.cli import main

    m, _ = gru_model(3, 1)
    onnx.save(m, str(tmp_path / "g.onnx"))
    assert main(["import", str(tmp_path / "g.onnx"), "-o", str(tmp_path / "unroll.mlir")]) == 0
    assert "0 folded, 0 loop(s)" in capsys.readouterr().err
    assert main(["import", str(tmp_path / "g.onnx"), "-o", str(tmp_path / "loop.mlir"), "--recurrence", "loop"]) == 0
    assert "0 folded, 1 loop(s)" in capsys.readouterr().err
    assert "nn.loop" in (tmp_path / "loop.mlir").read_text()
    assert "nn.loop" not in (tmp_path / "unroll.mlir").read_text()
    capsys.readouterr()
    assert main(["import", str(tmp_path / "g.onnx"), "-o", str(tmp_path / "x.mlir"), "--recurrence", "scan"]) != 0
    assert "--recurrence: error: invalid choice: 'scan'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["import", "--help"])
    assert "--recurrence {unroll,loop}" in capsys.readouterr().out


# --- refusals -----------------------------------------------------------------------------------


def test_scan_outputs_of_a_while_loop_are_refused_by_node():
    m = scan_loop_model(3)
    b = m.graph.node[0].attribute[0].g
    b.node.append(h.make_node("ReduceSum", ["h_out"], ["s"], keepdims=0))
    b.node.append(h.make_node("Less", ["s", "lim"], ["c_out"]))
    b.initializer.append(nh.from_array(np.array(1, np.float32), "lim"))
    b.output[0].name = "c_out"
    assert refusal(m) == "node scans (Loop): scan output 'rs' has a dynamic length: the loop's condition depends on data"


def test_scan_outputs_with_a_run_time_trip_count_are_refused_by_node():
    m = scan_loop_model(3)
    del m.graph.initializer[:]
    m.graph.input.append(vi("M", T.INT64, []))
    assert refusal(m) == "node scans (Loop): scan output 'rs' has a dynamic length: the trip count M is computed at run time"


def test_scan_outputs_without_a_trip_count_are_refused_by_node():
    m = scan_loop_model(3)
    m.graph.node[0].input[0] = ""
    assert refusal(m) == "node scans (Loop): scan output 'rs' has a dynamic length: the Loop has no trip count M"


def test_a_carried_value_that_changes_shape_is_refused_by_node():
    m = swap_model()
    b = m.graph.node[0].attribute[0].g
    b.node.append(h.make_node("Concat", ["ab", "ab"], ["grown"], axis=0))
    b.output[2].name = "grown"
    assert refusal(m) == (
        "node fib (Loop): body output 'grown' is tensor<6xf32> but the value it carries is tensor<3xf32>"
        " (carried values must keep their type and shape)"
    )


def test_scan_before_opset_9_is_refused_by_version():
    m = scan_model(2, 0, (0, 0), (0, 0))
    m.opset_import[0].version = 8
    assert refusal(m) == (
        "node scan (Scan): Scan version 8 (the model's opset 8) is not supported;"
        " supported versions: 9, 11, 16, 19, 21, 23, 24, 25"
    )


def test_a_bad_scan_direction_is_refused_by_node():
    m = scan_model(2, 0, (0, 0), (0, 0))
    node = m.graph.node[0]
    for a in node.attribute:
        if a.name == "scan_input_directions":
            a.ints[1] = 2
    assert refusal(m) == "node scan (Scan): Scan scan_input_directions [0, 2] must be 0 (forward) or 1 (reverse)"


def test_an_error_inside_a_body_names_the_inner_node():
    m = while_model()
    b = m.graph.node[2].attribute[0].g
    b.node[0].op_type = "Det"
    b.node[0].name = "inner"
    assert refusal(m) == "node inner (Det): unsupported ONNX op Det"


# --- a torch while_loop exported by torch.onnx (dynamo) ---------------------------------------


def exported_while_loop(tmp_path: Path, counter: str) -> onnx.ModelProto:
    """``torch._higher_order_ops.while_loop`` over (i, h): h <- tanh(linear(h)) + h while
    i < n and sum |h| < 50, exported with ``torch.onnx.export(..., dynamo=True)``; the
    counter i is a float or an int64 tensor."""
    torch = pytest.importorskip("torch")
    from torch._higher_order_ops import while_loop

    class WhileNet(torch.nn.Module):
        def __init__(self):
            super().__init__()
            torch.manual_seed(0)
            self.lin = torch.nn.Linear(4, 4)

        def forward(self, n, x):
            def cond_fn(i, h):
                return (i < n) & (h.abs().sum() < 50.0)

            def body_fn(i, h):
                return i + 1, torch.tanh(self.lin(h)) + h

            i, h = while_loop(cond_fn, body_fn, (torch.zeros((), dtype=n.dtype), x))
            return h, i

    dtype = torch.float32 if counter == "float" else torch.int64
    path = tmp_path / "while.onnx"
    program = torch.onnx.export(WhileNet().eval(), (torch.tensor(3, dtype=dtype), torch.zeros(2, 4)), dynamo=True)
    program.save(str(path))
    return onnx.load(str(path))


@pytest.mark.parametrize("counter, dtype", [("float", np.float32), ("int", np.int64)])
def test_a_torch_while_loop_exports_to_a_loop_that_imports(tmp_path, counter, dtype):
    """A float or an int64 counter (the int64 one adds 1 with nn.add on integers)."""
    m = exported_while_loop(tmp_path, counter)
    assert [n.op_type for n in m.graph.node if n.op_type == "Loop"] == ["Loop"]
    x = np.linspace(-0.5, 0.5, 8, dtype=np.float32).reshape(2, 4)
    for n, trips in ((0, 0), (1, 1), (2, 2), (9, 9)):
        assert check(tmp_path, m, {"n": np.array(n, dtype), "x": x}) == [trips]
    assert check(tmp_path, m, {"n": np.array(1000, dtype), "x": x}) == [13]  # sum |h| reaches 50 first


def test_a_body_output_never_computed_is_refused_by_node():
    m = swap_model()
    m.graph.node[0].attribute[0].g.output[2].name = "nowhere"
    assert refusal(m) == "node fib (Loop): body 'body' output 'nowhere' is never computed"


def test_a_known_carried_value_of_another_shape_is_refused_by_node():
    m = swap_model()
    b = m.graph.node[0].attribute[0].g
    b.initializer.append(nh.from_array(np.zeros(2, np.float32), "two"))
    b.output[2].name = "two"
    assert refusal(m) == (
        "node fib (Loop): body output 'two' is tensor<2xf32> but the value it carries is tensor<3xf32>"
        " (carried values must keep their type and shape)"
    )


def test_a_scan_axis_out_of_range_is_refused_by_node():
    m = scan_model(2, 0, (0, 0), (0, 0))
    for a in m.graph.node[0].attribute:
        if a.name == "scan_output_axes":
            a.ints[1] = 2
    assert refusal(m) == "node scan (Scan): Scan scan_output_axes has axis 2, out of range for rank 2"


def test_scan_outputs_of_a_loop_that_never_runs_are_refused_by_node():
    """ONNX gives them zero rows; cfmem tensors have no empty axes."""
    m = scan_loop_model(1)
    m.graph.initializer[0].CopyFrom(nh.from_array(np.array(0, np.int64), "M"))
    assert refusal(m) == "node scans (Loop): scan output 'rs' would stack 0 rows; cfmem takes 1 to 2147483647"


# --- a torch scan exported by torch.onnx (dynamo) ---------------------------------------------


def exported_scan(tmp_path: Path, steps: int) -> onnx.ModelProto:
    """``torch._higher_order_ops.scan`` of h <- tanh(linear(h) + x) over ``steps`` rows of xs,
    stacking 2 h, exported with ``torch.onnx.export(..., dynamo=True)``."""
    torch = pytest.importorskip("torch")
    from torch._higher_order_ops.scan import scan

    class ScanNet(torch.nn.Module):
        def __init__(self):
            super().__init__()
            torch.manual_seed(0)
            self.lin = torch.nn.Linear(4, 4)

        def forward(self, h0, xs):
            def step(h, x):
                h2 = torch.tanh(self.lin(h) + x)
                return h2, h2 * 2

            return scan(step, h0, xs)

    path = tmp_path / "scan.onnx"
    torch.onnx.export(ScanNet().eval(), (torch.zeros(2, 4), torch.zeros(steps, 2, 4)), dynamo=True).save(str(path))
    return onnx.load(str(path))


@pytest.mark.parametrize("steps", [1, 2, 6])
def test_a_torch_scan_exports_to_a_scan_that_imports(tmp_path, rng, steps):
    m = exported_scan(tmp_path, steps)
    assert [n.op_type for n in m.graph.node] == ["Scan"]
    feeds = {"h0": rng.standard_normal((2, 4)).astype(np.float32),
             "xs": rng.standard_normal((steps, 2, 4)).astype(np.float32)}
    assert check(tmp_path, m, feeds) == [steps]


@pytest.mark.parametrize("op, steps", [("LSTM", 16), ("GRU", 50)])
def test_a_keyword_spotter_length_recurrence_as_a_loop_loads_its_weights_once(tmp_path, op, steps):
    """16 and 50 steps, as a keyword spotter runs: onnxruntime's numbers, the flat form
    bit-identical, and the loop's weights loaded once before it (none inside the body)."""
    m, feeds = recurrent_model(op, steps, {"direction": "forward"})
    assert check(tmp_path, m, feeds, recurrence="loop") == [steps]
    _, _, _, _, imported = runs(tmp_path, m, feeds, "loop", ort=False)
    module = imported.module.clone()
    apply_pipeline(module, "nn-insert-dma", base_dir=tmp_path)
    (loop,) = [o for o in module.walk() if isinstance(o, LoopOp)]
    assert not [o for o in loop.body.walk() if isinstance(o, DmaStartOp)]
    assert any(isinstance(o, DmaStartOp) and "cfmem.hoisted" in o.attributes for o in module.walk())
