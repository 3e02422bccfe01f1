"""nn-slice-weights keeps the numbers, cuts transfers to the slice budget and refuses in one line."""

import re

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from cfmem.dialects.nn_compute import AddOp, ConcatOp, SliceOp
from cfmem.dialects.nn_dma import DmaStartOp
from cfmem.dialects.nn_quant import QConcatOp
from cfmem.dialects.nn_weights import ViewOp
from cfmem.dialects.types import tensor_bytes
from cfmem.interp.coverage import branch_covering_inputs, trace_outcomes
from cfmem.interp.flat import run_flat
from cfmem.interp.golden import find_function, random_inputs, run_function
from cfmem.ir_io import CfmemError, load_module, parse_module
from cfmem.pipeline import apply_pipeline, lower_model, rewritten_graph
from cfmem.passes.placement import SLICE_OF_ATTR
from cfmem.passes.slice_weights import SLICES_ATTR, equal_ranges

from conftest import EXAMPLES

MODELS = sorted(EXAMPLES.glob("*.mlir"))
RNG = np.random.default_rng(0)


def _blob(*arrays: np.ndarray) -> tuple[str, list[int]]:
    """An inline ``nn.global @w`` holding ``arrays`` at 64-byte aligned offsets, and the offsets."""
    data, offsets = b"", []
    for a in arrays:
        data += b"\0" * (-len(data) % 64)
        offsets.append(len(data))
        data += a.tobytes()
    values = ", ".join(str(v) for v in np.frombuffer(data, np.int8))
    return f"nn.global @w size({len(data)}) data(dense<[{values}]> : tensor<{len(data)}xi8>)", offsets


def _float(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def _ty(shape, element="f32"):
    return f"tensor<{'x'.join(map(str, shape))}x{element}>"


def _module(weights: list[tuple[str, np.ndarray, str]], args: list[tuple[str, tuple, str]], body: str, result: str) -> str:
    """A function of ``args`` computing ``%y`` by ``body`` from weight views named as given."""
    glob, offsets = _blob(*(a for _, a, _ in weights))
    size = int(glob.split("size(")[1].split(")")[0])
    views = "\n".join(
        f"  %{name} = nn.view %blob[{off}] bytes({a.nbytes}) : tensor<{size}xi8> to {_ty(a.shape, el)}"
        for (name, a, el), off in zip(weights, offsets)
    )
    params = ", ".join(f"%{name}: {_ty(shape, el)}" for name, shape, el in args)
    return (f"{glob}\nfunc.func @main({params}) -> {result} {{\n  %blob = nn.get_global @w : tensor<{size}xi8>\n"
            f"{views}\n  {body}\n  func.return %y : {result}\n}}")  # fmt: skip


Q = "x_scale = array<f32: 0.05>, x_zero_point = array<i64: 3>, y_scale = array<f32: 0.4>, y_zero_point = array<i64: -2>, element = i8"


def _ints8(*shape):
    return RNG.integers(-128, 128, shape).astype(np.int8)


def _bias32(n):
    return RNG.integers(-2000, 2000, n).astype(np.int32)


def cases() -> dict[str, tuple[str, int, bool]]:
    """name: (module text with ``ATTRS`` where the slicing attribute goes, units, bit-identical).

    Not bit-identical: reductions split into partial sums (gemm without trans_b, matmul), and
    the float conv2d with one group and gemm with trans_b, whose BLAS products in the reference
    kernels round differently for a different number of output channels."""
    c = {}
    c["conv"] = (_module([("k", _float(6, 4, 3, 3), "f32"), ("b", _float(6), "f32")], [("x", (1, 4, 7, 7), "f32")],
                         "%y = nn.conv2d %x, %k, %b {pads = array<i64: 1, 1, 1, 1>, ATTRS} : (tensor<1x4x7x7xf32>, tensor<6x4x3x3xf32>, tensor<6xf32>) -> tensor<1x6x7x7xf32>",
                         "tensor<1x6x7x7xf32>"), 6, False)  # fmt: skip
    c["conv_bias_input"] = (_module([("k", _float(5, 3, 1, 1), "f32")], [("x", (1, 3, 4, 4), "f32"), ("b", (5,), "f32")],
                         "%y = nn.conv2d %x, %k, %b {ATTRS} : (tensor<1x3x4x4xf32>, tensor<5x3x1x1xf32>, tensor<5xf32>) -> tensor<1x5x4x4xf32>",
                         "tensor<1x5x4x4xf32>"), 5, False)  # fmt: skip
    c["conv_grouped"] = (_module([("k", _float(6, 2, 3, 3), "f32")], [("x", (1, 6, 5, 5), "f32")],
                         "%y = nn.conv2d %x, %k {strides = array<i64: 2, 2>, groups = 3 : i64, ATTRS} : (tensor<1x6x5x5xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x2x2xf32>",
                         "tensor<1x6x2x2xf32>"), 3, True)  # fmt: skip
    c["conv_depthwise"] = (_module([("k", _float(8, 1, 3, 3), "f32"), ("b", _float(8), "f32")], [("x", (1, 8, 6, 6), "f32")],
                         "%y = nn.conv2d %x, %k, %b {pads = array<i64: 2, 2, 2, 2>, dilations = array<i64: 2, 2>, groups = 8 : i64, ATTRS} : (tensor<1x8x6x6xf32>, tensor<8x1x3x3xf32>, tensor<8xf32>) -> tensor<1x8x6x6xf32>",
                         "tensor<1x8x6x6xf32>"), 8, True)  # fmt: skip
    c["gemm_trans_b"] = (_module([("k", _float(7, 9), "f32"), ("b", _float(7), "f32")], [("x", (3, 9), "f32")],
                         "%y = nn.gemm %x, %k, %b {trans_b = true, ATTRS} : (tensor<3x9xf32>, tensor<7x9xf32>, tensor<7xf32>) -> tensor<3x7xf32>",
                         "tensor<3x7xf32>"), 7, False)  # fmt: skip
    c["gemm_trans_b_broadcast_bias"] = (_module([("k", _float(5, 9), "f32"), ("b", _float(1), "f32")], [("x", (1, 9), "f32")],
                         "%y = nn.gemm %x, %k, %b {trans_b = true, ATTRS} : (tensor<1x9xf32>, tensor<5x9xf32>, tensor<1xf32>) -> tensor<1x5xf32>",
                         "tensor<1x5xf32>"), 5, False)  # fmt: skip
    c["gemm_trans_b_input_bias"] = (_module([("k", _float(5, 9), "f32")], [("x", (2, 9), "f32"), ("b", (2, 5), "f32")],
                         "%y = nn.gemm %x, %k, %b {trans_b = true, ATTRS} : (tensor<2x9xf32>, tensor<5x9xf32>, tensor<2x5xf32>) -> tensor<2x5xf32>",
                         "tensor<2x5xf32>"), 5, False)  # fmt: skip
    c["gemm"] = (_module([("k", _float(9, 4), "f32"), ("b", _float(4), "f32")], [("x", (3, 9), "f32")],
                         "%y = nn.gemm %x, %k, %b {ATTRS} : (tensor<3x9xf32>, tensor<9x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>",
                         "tensor<3x4xf32>"), 9, False)  # fmt: skip
    c["matmul"] = (_module([("k", _float(8, 5), "f32")], [("x", (2, 3, 8), "f32")],
                         "%y = nn.matmul %x, %k {ATTRS} : (tensor<2x3x8xf32>, tensor<8x5xf32>) -> tensor<2x3x5xf32>",
                         "tensor<2x3x5xf32>"), 8, False)  # fmt: skip
    scales = ", ".join(f"{s:.4f}" for s in RNG.uniform(0.005, 0.02, 6))
    scales5 = ", ".join(f"{s:.4f}" for s in RNG.uniform(0.005, 0.02, 5))
    c["qconv_per_channel"] = (_module([("k", _ints8(6, 2, 3, 3), "i8"), ("b", _bias32(6), "i32")], [("x", (1, 4, 5, 5), "i8")],
                         f"%y = nn.qconv2d %x, %k, %b {{pads = array<i64: 1, 1, 1, 1>, groups = 2 : i64, {Q}, w_scale = array<f32: {scales}>, w_zero_point = array<i64: 0, 1, 2, 3, 4, 5>, ATTRS}} : (tensor<1x4x5x5xi8>, tensor<6x2x3x3xi8>, tensor<6xi32>) -> tensor<1x6x5x5xi8>",
                         "tensor<1x6x5x5xi8>"), 2, True)  # fmt: skip
    c["qconv_depthwise"] = (_module([("k", _ints8(4, 1, 3, 3), "i8")], [("x", (1, 4, 5, 5), "i8")],
                         f"%y = nn.qconv2d %x, %k {{groups = 4 : i64, {Q}, w_scale = array<f32: 0.01>, w_zero_point = array<i64: 0>, ATTRS}} : (tensor<1x4x5x5xi8>, tensor<4x1x3x3xi8>) -> tensor<1x4x3x3xi8>",
                         "tensor<1x4x3x3xi8>"), 4, True)  # fmt: skip
    qg = "a_scale = array<f32: 0.05>, a_zero_point = array<i64: 3>, trans_b = 1 : i64"
    c["qgemm"] = (_module([("k", _ints8(5, 6), "i8"), ("b", _bias32(5), "i32")], [("x", (2, 6), "i8")],
                         f"%y = nn.qgemm %x, %k, %b {{{qg}, b_scale = array<f32: {scales5}>, b_zero_point = array<i64: 0, 0, 1, 0, -1>, element = i8, y_scale = array<f32: 0.3>, y_zero_point = array<i64: 1>, ATTRS}} : (tensor<2x6xi8>, tensor<5x6xi8>, tensor<5xi32>) -> tensor<2x5xi8>",
                         "tensor<2x5xi8>"), 5, True)  # fmt: skip
    c["qgemm_float_result"] = (_module([("k", _ints8(5, 6), "i8")], [("x", (2, 6), "i8")],
                         f"%y = nn.qgemm %x, %k {{{qg}, b_scale = array<f32: 0.01>, b_zero_point = array<i64: 0>, alpha = 0.5 : f32, ATTRS}} : (tensor<2x6xi8>, tensor<5x6xi8>) -> tensor<2x5xf32>",
                         "tensor<2x5xf32>"), 5, True)  # fmt: skip
    return c


CASES = cases()


def parse(text: str) -> ModuleOp:
    return parse_module(text)[0]


def sliced(text: str, n: int) -> ModuleOp:
    module = parse(text.replace("ATTRS", f"{SLICES_ATTR} = {n} : i64"))
    apply_pipeline(module, "nn-slice-weights")
    return module


def assert_close(got: np.ndarray, want: np.ndarray, exact: bool) -> None:
    """Bit-identical, or within 1e-5 of the output's largest magnitude."""
    if exact:
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5 * float(np.abs(want).max()))


def outputs(module: ModuleOp, seed: int = 1) -> dict:
    return run_function(module, random_inputs(find_function(module), seed)).outputs


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("parts", [1, 2, 3, "units", 1000])
def test_slices_compute_what_the_op_computes(name, parts):
    text, units, exact = CASES[name]
    n = units if parts == "units" else parts
    original = parse(text.replace(", ATTRS", "").replace("{ATTRS}", ""))
    module = sliced(text, n)
    assert SLICES_ATTR not in str(module)
    parts = [o for o in module.walk() if o.results and not isinstance(o, ViewOp | SliceOp) and re.fullmatch(r"y_s\d+", o.results[0].name_hint or "")]
    assert len(parts) == (min(n, units) if n > 1 else 0)
    views = [o for o in module.walk() if isinstance(o, ViewOp)]
    assert sum(tensor_bytes(v.result.type) for v in views) == sum(
        tensor_bytes(v.result.type) for v in original.walk() if isinstance(v, ViewOp))  # each weight byte read once
    for seed in (1, 2):
        want, got = outputs(original, seed), outputs(module, seed)
        for key in want:
            assert_close(got[key], want[key], exact)


def test_slices_are_named_and_joined_under_the_original_name():
    module = sliced(CASES["conv_depthwise"][0], 3)
    names = [o.results[0].name_hint for o in module.walk() if o.name == "nn.conv2d"]
    assert names == ["y_s0", "y_s1", "y_s2"]
    concat = next(o for o in module.walk() if isinstance(o, ConcatOp))
    assert concat.result.name_hint == "y" and concat.axis.value.data == 1
    inputs = [o for o in module.walk() if isinstance(o, SliceOp)]
    assert [o.result.type.get_shape()[1] for o in inputs] == [3, 3, 2]
    assert [o.properties["groups"].value.data for o in module.walk() if o.name == "nn.conv2d"] == [3, 3, 2]
    quant = sliced(CASES["qgemm"][0], 2)
    assert any(isinstance(o, QConcatOp) for o in quant.walk())
    summed = sliced(CASES["matmul"][0], 3)
    adds = [o for o in summed.walk() if isinstance(o, AddOp)]
    assert [o.result.name_hint for o in adds] == ["y_sum1", "y"]


@pytest.mark.parametrize("name", ["conv", "conv_bias_input", "gemm_trans_b", "gemm", "matmul"])
def test_slices_keep_the_sum_order(name):
    """Every slice keeps ``sum_order = "sequential"`` (TFLite Micro's order of float sums); cut
    along output channels, the op's bits come out (each output adds the same terms in the same
    order), where numpy's products round differently for fewer channels."""
    text, units, _ = CASES[name]
    text = text.replace("ATTRS", 'sum_order = "sequential", ATTRS')
    original = parse(text.replace(", ATTRS", ""))
    module = sliced(text, 3)
    products = [o for o in module.walk() if o.name in ("nn.conv2d", "nn.gemm", "nn.matmul")]
    assert len(products) == 3 and all(o.properties["sum_order"].data == "sequential" for o in products)
    reduced = name in ("gemm", "matmul")  # cut along K: partial sums, added in another order
    for seed in (1, 2):
        want, got = outputs(original, seed), outputs(module, seed)
        for key in want:
            assert_close(got[key], want[key], exact=not reduced)


TWO_UNNAMED_GEMMS = """nn.global @w size(1024) seed(1)
func.func @main(%0: tensor<1x8xf32>) -> tensor<1x8xf32> {
  %1 = nn.get_global @w : tensor<1024xi8>
  %2 = nn.view %1[0] bytes(256) : tensor<1024xi8> to tensor<8x8xf32>
  %3 = nn.view %1[256] bytes(32) : tensor<1024xi8> to tensor<8xf32>
  %4 = nn.view %1[512] bytes(256) : tensor<1024xi8> to tensor<8x8xf32>
  %5 = nn.view %1[768] bytes(32) : tensor<1024xi8> to tensor<8xf32>
  %6 = nn.gemm %0, %2, %3 {trans_b = true, ATTRS} : (tensor<1x8xf32>, tensor<8x8xf32>, tensor<8xf32>) -> tensor<1x8xf32>
  %7 = nn.gemm %0, %4, %5 {trans_b = true, ATTRS} : (tensor<1x8xf32>, tensor<8x8xf32>, tensor<8xf32>) -> tensor<1x8xf32>
  %8 = nn.add %6, %7 : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
  func.return %8 : tensor<1x8xf32>
}
"""


def test_slices_of_unnamed_ops_tell_their_op_apart():
    """``cfmem.slice_of`` is what ``nn-roll-slices`` groups slices by: each op has its own id,
    the name of its result (``%6`` is ``t6``), even when no value has a name."""
    module = sliced(TWO_UNNAMED_GEMMS, 4)
    slice_of = [o.attributes[SLICE_OF_ATTR].data for o in module.walk() if SLICE_OF_ATTR in o.attributes]
    assert slice_of == ["t6"] * 4 + ["t7"] * 4


def test_equal_ranges():
    assert equal_ranges(7, 3) == [(0, 3), (3, 5), (5, 7)]
    assert equal_ranges(4, 4) == [(0, 1), (1, 2), (2, 3), (3, 4)]
    with pytest.raises(AssertionError):  # a checker that can fail
        assert equal_ranges(7, 3) == [(0, 2), (2, 4), (4, 7)]


def test_ops_in_branches_are_sliced():
    module = load_module(EXAMPLES / "wakeword.mlir")[0]
    apply_pipeline(module, "nn-slice-weights{max-slice-bytes=4096}")
    branch_ops = [o for o in module.walk() if o.name == "nn.gemm" and o.parent_op().name == "nn.if"]
    assert any(o.results[0].name_hint.startswith("ver_fc1_s") for o in branch_ops)


@pytest.fixture(params=MODELS, ids=lambda p: p.stem)
def example(request, shared_examples):
    """The module and cases of one example (shared, read-only: see ``SharedExamples``)."""
    shared = shared_examples(request.param.stem)
    return shared.module, shared.cases


def test_examples_sliced_run_flat_as_the_reference(example, capfd):
    module, cases = example
    flat = lower_model(module, "nn-slice-weights{max-slice-bytes=4096},nn-insert-dma,nn-plan-memory", None)
    for case in cases:
        inputs, want = case.inputs, case.reference.outputs
        got = run_flat(flat, inputs).outputs
        for key in want:
            assert_close(got[key], want[key], exact=False)  # the float conv2d slices of one group: BLAS


def test_examples_transfers_fit_the_slice_budget(example, capfd):
    module = example[0].clone()
    apply_pipeline(module, "nn-slice-weights{max-slice-bytes=4096},nn-insert-dma")
    warned = capfd.readouterr().err
    starts = [o for o in module.walk() if isinstance(o, DmaStartOp)]
    assert starts
    warned_ops = set(re.findall(r"defining %(\w+) in", warned))
    for start in starts:  # a transfer over the budget is one channel or row of an op warned about
        if sum(tensor_bytes(v.type) for v in start.sources) > 4096:
            reader = next(u.operation for u in next(iter(start.token.uses)).operation.results[0].uses)
            assert reader.results[0].name_hint.rsplit("_s", 1)[0] in warned_ops


def test_a_channel_over_the_budget_is_warned_about(capfd):
    module = parse(CASES["conv"][0].replace(", ATTRS", ""))
    apply_pipeline(module, "nn-slice-weights{max-slice-bytes=100}")
    err = capfd.readouterr().err
    assert err.count("\n") == 1 and "'nn.conv2d' defining %y in @main: one output channel needs 148 bytes" in err
    assert sum(o.name == "nn.conv2d" for o in module.walk()) == 6


def test_fewest_slices_that_fit():
    module = parse(CASES["conv"][0].replace(", ATTRS", ""))
    apply_pipeline(module, "nn-slice-weights{max-slice-bytes=300}")  # 148 bytes a channel: 2 fit, 6 -> 3 slices
    assert sum(o.name == "nn.conv2d" for o in module.walk()) == 3
    module = parse(CASES["conv"][0].replace(", ATTRS", ""))
    apply_pipeline(module, "nn-slice-weights{max-slice-bytes=888}")  # the whole op fits: untouched
    assert sum(o.name == "nn.conv2d" for o in module.walk()) == 1


REFUSED = {
    "qgemm without trans_b": (
        _module([("k", _ints8(6, 5), "i8")], [("x", (2, 6), "i8")],
                "%y = nn.qgemm %x, %k {a_scale = array<f32: 0.05>, a_zero_point = array<i64: 3>, b_scale = array<f32: 0.01>, b_zero_point = array<i64: 0>, cfmem.slices = 2 : i64} : (tensor<2x6xi8>, tensor<6x5xi8>) -> tensor<2x5xf32>",
                "tensor<2x5xf32>"),
        "'nn.qgemm' defining %y in @main: cannot slice its weight: its weight [K, N] is not trans_b"),  # fmt: skip
    "no weight": (
        _module([("k", _float(4), "f32")], [("x", (4,), "f32")],
                "%y = nn.relu %x {cfmem.slices = 2 : i64} : (tensor<4xf32>) -> tensor<4xf32>", "tensor<4xf32>"),
        "'nn.relu' defining %y in @main: cannot slice its weight: it reads no weight"),  # fmt: skip
    "unsupported op": (
        _module([("k", _float(4), "f32")], [("x", (4,), "f32")],
                "%y = nn.add %x, %k {cfmem.slices = 2 : i64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>", "tensor<4xf32>"),
        "'nn.add' defining %y in @main: cannot slice its weight: this op kind cannot be sliced"),  # fmt: skip
    "weight lhs": (
        _module([("k", _float(3, 4), "f32"), ("j", _float(4, 2), "f32")], [],
                "%y = nn.matmul %k, %j {cfmem.slices = 2 : i64} : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>", "tensor<3x2xf32>"),
        "'nn.matmul' defining %y in @main: cannot slice its weight: operand #0 is a weight that is not sliced with it"),  # fmt: skip
    "bad count": (CASES["conv"][0].replace("ATTRS", f"{SLICES_ATTR} = 0 : i64"),
                  "'nn.conv2d' defining %y in @main: cfmem.slices must be an integer of at least 1"),
}


@pytest.mark.parametrize("case", REFUSED)
def test_refusals_are_one_line(case):
    text, message = REFUSED[case]
    with pytest.raises(CfmemError) as err:
        apply_pipeline(parse(text), "nn-slice-weights")
    assert message in str(err.value) and "\n" not in str(err.value)


def test_unsliceable_ops_are_left_alone_unless_they_need_it():
    text = REFUSED["unsupported op"][0].replace(" {cfmem.slices = 2 : i64}", "")
    module = parse(text)
    apply_pipeline(module, "nn-slice-weights{max-slice-bytes=16}")  # 16 bytes of weight: fits
    with pytest.raises(CfmemError, match="this op kind cannot be sliced"):
        apply_pipeline(parse(text), "nn-slice-weights{max-slice-bytes=15}")
    with pytest.raises(CfmemError, match="max-slice-bytes"):
        apply_pipeline(parse(text), "nn-slice-weights{max-slice-bytes=0}")


def test_check_mlir_runs_the_reference_on_the_sliced_graph(cfmem):
    """The float conv2d slices round apart from the unsliced graph, so the bit-for-bit
    reference = flat check needs the reference on the sliced graph."""
    spec = "nn-slice-weights{max-slice-bytes=16384},nn-insert-dma,nn-plan-memory"
    result = cfmem("check-mlir", str(EXAMPLES / "wakeword.mlir"), "-p", spec)
    assert result.returncode == 0, result.stdout + result.stderr
    rows = [line for line in result.stdout.splitlines() if line.startswith("#")]
    assert len(rows) == 2 and all("bit-identical" in row for row in rows)
    module = load_module(EXAMPLES / "wakeword.mlir")[0]
    assert rewritten_graph(module, "nn-insert-dma,nn-plan-memory") is module
    graph = rewritten_graph(module, spec)
    assert graph is not module and not any(isinstance(o, DmaStartOp) for o in graph.walk())
    inputs = [i for i, trace in branch_covering_inputs(module) if "if#0:then" in trace_outcomes(trace)][0]
    want, got = run_function(module, inputs).outputs, run_function(graph, inputs).outputs
    assert any(not np.array_equal(got[k], want[k]) for k in want)  # why the unsliced graph would not do
