"""nn-fuse-quantized-elementwise: a dequantize, elementwise float ops and a quantize become one
nn.qlookup whose numbers are the chain's on every one of the 256 inputs; chains it must not
touch stay as they are."""

from __future__ import annotations

import numpy as np
import pytest

from cfmem.dialects import nn_quant as nq
from cfmem.interp.golden import run_function
from cfmem.ir_io import parse_module
from cfmem.passes.quant_lookup import fuse_quantized_elementwise

EVERY_I8 = np.arange(-128, 128, dtype=np.int8).reshape(1, 256)
EVERY_U8 = np.arange(0, 256, dtype=np.uint8).reshape(1, 256)


def module_of(body: str, element: str = "i8", out: str = "i8", extra_outputs: str = "") -> str:
    results = f"tensor<1x256x{out}>" + (f", {extra_outputs.split(':')[1]}" if extra_outputs else "")
    returned = "%y" + (f", {extra_outputs.split(':')[0]}" if extra_outputs else "")
    return f"""builtin.module {{
  func.func @main(%q: tensor<1x256x{element}>) -> ({results}) {{
{body}
    func.return {returned} : {results}
  }}
}}"""


HARD_SIGMOID = """    %x = nn.dequantize %q {x_scale = array<f32: 0.05>, x_zero_point = array<i64: 3>} : (tensor<1x256xi8>) -> tensor<1x256xf32>
    %a = nn.constant dense<0.1666667> : tensor<f32>
    %b = nn.constant dense<0.5> : tensor<1xf32>
    %m = nn.mul %x, %a : (tensor<1x256xf32>, tensor<f32>) -> tensor<1x256xf32>
    %s = nn.add %m, %b : (tensor<1x256xf32>, tensor<1xf32>) -> tensor<1x256xf32>
    %c = nn.clamp %s {min = 0.0 : f32, max = 1.0 : f32} : (tensor<1x256xf32>) -> tensor<1x256xf32>
    %y = nn.quantize %c {element = i8, y_scale = array<f32: 0.0078>, y_zero_point = array<i64: -128>} : (tensor<1x256xf32>) -> tensor<1x256xi8>"""


def fused(text: str) -> tuple[object, object, int]:
    original, _ = parse_module(text)
    module = original.clone()
    return original, module, fuse_quantized_elementwise(module)


def ops_named(module, name: str) -> int:
    return sum(op.name == name for op in module.walk())


@pytest.mark.parametrize(
    "body, element, out, inputs",
    [
        (HARD_SIGMOID, "i8", "i8", EVERY_I8),
        ("""    %x = nn.dequantize %q {x_scale = array<f32: 0.02>, x_zero_point = array<i64: 128>} : (tensor<1x256xui8>) -> tensor<1x256xf32>
    %e = nn.sigmoid %x : (tensor<1x256xf32>) -> tensor<1x256xf32>
    %t = nn.tanh %x : (tensor<1x256xf32>) -> tensor<1x256xf32>
    %p = nn.mul %e, %t : (tensor<1x256xf32>, tensor<1x256xf32>) -> tensor<1x256xf32>
    %y = nn.quantize %p {element = ui8, y_scale = array<f32: 0.004>, y_zero_point = array<i64: 0>} : (tensor<1x256xf32>) -> tensor<1x256xui8>""",
         "ui8", "ui8", EVERY_U8),
        ("""    %x = nn.dequantize %q {x_scale = array<f32: 0.05>, x_zero_point = array<i64: 3>} : (tensor<1x256xi8>) -> tensor<1x256xf32>
    %y = nn.quantize %x {element = ui8, y_scale = array<f32: 0.07>, y_zero_point = array<i64: 100>} : (tensor<1x256xf32>) -> tensor<1x256xui8>""",
         "i8", "ui8", EVERY_I8),
    ],
    ids=["hard sigmoid", "two branches joined", "requantization"],
)
def test_a_chain_becomes_one_lookup_with_the_chains_numbers(body, element, out, inputs):
    original, module, count = fused(module_of(body, element, out))
    assert count == 1
    assert ops_named(module, "nn.qlookup") == 1
    assert ops_named(module, "nn.dequantize") == ops_named(module, "nn.quantize") == 0
    assert {op.name for op in module.walk()} <= {"builtin.module", "func.func", "func.return", "nn.qlookup"}
    module.verify()
    want = run_function(original, {"q": inputs}).outputs["y"]
    got = run_function(module, {"q": inputs}).outputs["y"]
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)  # every one of the 256 inputs
    assert len(np.unique(want)) > 2  # the table is not trivially constant


PER_POSITION = """    %x = nn.dequantize %q {x_scale = array<f32: 0.05>, x_zero_point = array<i64: 3>} : (tensor<1x256xi8>) -> tensor<1x256xf32>
    %w = nn.constant dense<0.5> : tensor<256xf32>
    %m = nn.mul %x, %w : (tensor<1x256xf32>, tensor<256xf32>) -> tensor<1x256xf32>
    %y = nn.quantize %m {element = i8, y_scale = array<f32: 0.1>, y_zero_point = array<i64: 0>} : (tensor<1x256xf32>) -> tensor<1x256xi8>"""


@pytest.mark.parametrize(
    "text",
    [module_of(HARD_SIGMOID, extra_outputs="%m:tensor<1x256xf32>"), module_of(PER_POSITION)],
    ids=["intermediate used outside", "constant of one value per position"],
)
def test_chains_that_cannot_be_a_table_stay(text):
    original, module, count = fused(text)
    assert count == 0
    assert str(module) == str(original)


def small(body: str, out_shape: str = "2x4") -> str:
    return f"""builtin.module {{
  func.func @main(%q: tensor<2x4xi8>) -> tensor<{out_shape}xi8> {{
{body}
    func.return %y : tensor<{out_shape}xi8>
  }}
}}"""


DEQUANTIZE = "    %x = nn.dequantize %q {x_scale = array<f32: 0.05>, x_zero_point = array<i64: 3>} : (tensor<2x4xi8>) -> tensor<2x4xf32>\n"
QUANTIZE = "    %y = nn.quantize %{v} {{element = i8, y_scale = array<f32: 0.1>, y_zero_point = array<i64: 0>}} : (tensor<{s}xf32>) -> tensor<{s}xi8>"


@pytest.mark.parametrize(
    "text",
    [
        small(DEQUANTIZE.replace("array<f32: 0.05>, x_zero_point = array<i64: 3>}", "array<f32: 0.05, 0.1>, x_zero_point = array<i64: 3, 0>, axis = 0}")
              + QUANTIZE.format(v="x", s="2x4")),
        small(DEQUANTIZE + "    %z = nn.constant dense<0.0> : tensor<3x1x1xf32>\n"
              "    %b = nn.add %x, %z : (tensor<2x4xf32>, tensor<3x1x1xf32>) -> tensor<3x2x4xf32>\n" + QUANTIZE.format(v="b", s="3x2x4"), "3x2x4"),
        small(DEQUANTIZE + "    %r = nn.softmax %x {axis = 1 : i64} : (tensor<2x4xf32>) -> tensor<2x4xf32>\n" + QUANTIZE.format(v="r", s="2x4")),
    ],
    ids=["per-axis dequantize", "shape grows", "not elementwise"],
)
def test_per_axis_scales_shape_changes_and_other_ops_stay(text):
    original, module, count = fused(text)
    assert count == 0
    assert str(module) == str(original)


def test_a_one_element_scale_with_an_axis_is_per_tensor():
    text = small(DEQUANTIZE.replace("x_zero_point = array<i64: 3>}", "x_zero_point = array<i64: 3>, axis = 0}") + QUANTIZE.format(v="x", s="2x4"))
    original, module, count = fused(text)
    assert count == 1
    q = np.arange(-4, 4, dtype=np.int8).reshape(2, 4)
    np.testing.assert_array_equal(run_function(module, {"q": q}).outputs["y"], run_function(original, {"q": q}).outputs["y"])


def test_the_importer_fuses_what_onnxruntimes_quantizer_leaves_in_float():
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto as T
    from onnx import helper as h
    from onnx import numpy_helper as nh

    from cfmem.importers.onnx import onnx_importer

    nodes = [h.make_node("DequantizeLinear", ["q", "s", "z"], ["x"]), h.make_node("HardSigmoid", ["x"], ["hs"]),
             h.make_node("QuantizeLinear", ["hs", "s2", "z"], ["y"])]  # fmt: skip
    inits = [nh.from_array(np.array(0.05, np.float32), "s"), nh.from_array(np.array(0.004, np.float32), "s2"),
             nh.from_array(np.array(0, np.int8), "z")]  # fmt: skip
    graph = h.make_graph(nodes, "g", [h.make_tensor_value_info("q", T.INT8, [1, 256])], [h.make_tensor_value_info("y", T.INT8, [1, 256])], inits)
    imported = onnx_importer(h.make_model(graph, opset_imports=[h.make_opsetid("", 17)], ir_version=8), "w.bin").import_graph({}, {})
    assert [op.name for op in imported.module.walk() if op.name.startswith("nn.")] == ["nn.qlookup"]
    assert isinstance(next(op for op in imported.module.walk() if op.name == "nn.qlookup"), nq.QLookupOp)
