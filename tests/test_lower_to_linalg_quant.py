"""nn-lower-to-linalg on the quantized ops, on int8 and on uint8 data: each lowers to verified
upstream ops (uint8 as i8 bytes with the unsigned arith ops), and the upstream JIT computes
exactly the flat interpreter's integers (and its f32 numbers
where a result is float) on i8 data, per-tensor and per-channel parameters, padding
(with a zero point computed at run time for conv_integer), strides, groups, biases,
batched and broadcast products, saturation and ties."""

from __future__ import annotations

import numpy as np
import pytest
from test_lower_to_linalg import check_lowered, flat_form, needs_mlir, to_linalg

from cfmem.differential import run_mlir
from cfmem.interp.flat import run_flat
from cfmem.interp.golden import find_function, random_inputs, run_function
from cfmem.ir_io import parse_module
from cfmem.mlir_check.prepare import prepare_for_jit

QUANTIZED = """builtin.module {
  func.func @main(%x: tensor<1x3x6x6xf32>, %q: tensor<1x3x6x6xi8>, %w: tensor<4x3x3x3xi8>, %dw: tensor<3x1x3x3xi8>,
                  %bias: tensor<4xi32>, %a: tensor<2x5xi8>, %b: tensor<4x5xi8>, %c: tensor<4xi32>, %row: tensor<6xi8>,
                  %za: tensor<1xi8>, %zb: tensor<i8>, %batched: tensor<3x2x5xi8>, %right: tensor<5x4xi8>)
      -> (tensor<1x3x6x6xi8>, tensor<1x3x6x6xi8>, tensor<1x3x6x6xf32>, tensor<1x4x3x3xi8>, tensor<1x3x6x6xi8>,
          tensor<2x4xi8>, tensor<2x4xf32>, tensor<1x3x6x6xi8>, tensor<1x3x6x6xi8>, tensor<1x6x6x6xi8>, tensor<1x3x3x3xi8>,
          tensor<3x2x4xi32>, tensor<1x4x3x3xi32>, tensor<1x3x6x6xi8>) {
    %per_tensor = nn.quantize %x {element = i8, y_scale = array<f32: 0.02>, y_zero_point = array<i64: 5>} : (tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xi8>
    %per_axis = nn.quantize %x {element = i8, y_scale = array<f32: 0.01, 0.05, 0.1>, y_zero_point = array<i64: -3, 0, 7>, axis = 1} : (tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xi8>
    %real = nn.dequantize %q {x_scale = array<f32: 0.5, 0.25, 0.125>, x_zero_point = array<i64: 1, -2, 0>, axis = -3} : (tensor<1x3x6x6xi8>) -> tensor<1x3x6x6xf32>
    %conv = nn.qconv2d %q, %w, %bias {element = i8, x_scale = array<f32: 0.05>, x_zero_point = array<i64: 3>, w_scale = array<f32: 0.01, 0.02, 0.015, 0.03>, w_zero_point = array<i64: 0, 0, 0, 0>, y_scale = array<f32: 0.4>, y_zero_point = array<i64: -4>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 0, 0>} : (tensor<1x3x6x6xi8>, tensor<4x3x3x3xi8>, tensor<4xi32>) -> tensor<1x4x3x3xi8>
    %depthwise = nn.qconv2d %q, %dw {element = i8, x_scale = array<f32: 0.05>, x_zero_point = array<i64: -7>, w_scale = array<f32: 0.02>, w_zero_point = array<i64: 2>, y_scale = array<f32: 0.1>, y_zero_point = array<i64: 0>, pads = array<i64: 1, 1, 1, 1>, groups = 3 : i64} : (tensor<1x3x6x6xi8>, tensor<3x1x3x3xi8>) -> tensor<1x3x6x6xi8>
    %gemm = nn.qgemm %a, %b, %c {a_scale = array<f32: 0.1>, a_zero_point = array<i64: 2>, b_scale = array<f32: 0.01, 0.02, 0.03, 0.04>, b_zero_point = array<i64: 0, 0, 0, 0>, trans_b = 1 : i64, element = i8, y_scale = array<f32: 0.3>, y_zero_point = array<i64: 1>} : (tensor<2x5xi8>, tensor<4x5xi8>, tensor<4xi32>) -> tensor<2x4xi8>
    %float_gemm = nn.qgemm %a, %b {a_scale = array<f32: 0.1>, a_zero_point = array<i64: 2>, b_scale = array<f32: 0.02>, b_zero_point = array<i64: -1>, trans_b = 1 : i64, alpha = 0.5 : f32} : (tensor<2x5xi8>, tensor<4x5xi8>) -> tensor<2x4xf32>
    %sum = nn.qadd %q, %row {element = i8, a_scale = array<f32: 0.05>, a_zero_point = array<i64: 3>, b_scale = array<f32: 0.07>, b_zero_point = array<i64: -5>, y_scale = array<f32: 0.09>, y_zero_point = array<i64: 2>} : (tensor<1x3x6x6xi8>, tensor<6xi8>) -> tensor<1x3x6x6xi8>
    %product = nn.qmul %q, %row {element = i8, a_scale = array<f32: 0.05>, a_zero_point = array<i64: 3>, b_scale = array<f32: 0.07>, b_zero_point = array<i64: -5>, y_scale = array<f32: 0.2>, y_zero_point = array<i64: -1>} : (tensor<1x3x6x6xi8>, tensor<6xi8>) -> tensor<1x3x6x6xi8>
    %joined = nn.qconcat %q, %per_tensor {element = i8, x_scale = array<f32: 0.05, 0.02>, x_zero_point = array<i64: 3, 5>, y_scale = array<f32: 0.04>, y_zero_point = array<i64: 0>, axis = 1 : i64} : (tensor<1x3x6x6xi8>, tensor<1x3x6x6xi8>) -> tensor<1x6x6x6xi8>
    %pooled = nn.max_pool2d %q {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 0, 0>} : (tensor<1x3x6x6xi8>) -> tensor<1x3x3x3xi8>
    %products = nn.matmul_integer %batched, %right, %za, %zb : (tensor<3x2x5xi8>, tensor<5x4xi8>, tensor<1xi8>, tensor<i8>) -> tensor<3x2x4xi32>
    %sums = nn.conv_integer %q, %w, %za, %zb {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 0, 0>} : (tensor<1x3x6x6xi8>, tensor<4x3x3x3xi8>, tensor<1xi8>, tensor<i8>) -> tensor<1x4x3x3xi32>
    %looked_up = nn.qlookup %q {table = array<i64: TABLE>, element = i8} : (tensor<1x3x6x6xi8>) -> tensor<1x3x6x6xi8>
    func.return %per_tensor, %per_axis, %real, %conv, %depthwise, %gemm, %float_gemm, %sum, %product, %joined, %pooled, %products, %sums, %looked_up : tensor<1x3x6x6xi8>, tensor<1x3x6x6xi8>, tensor<1x3x6x6xf32>, tensor<1x4x3x3xi8>, tensor<1x3x6x6xi8>, tensor<2x4xi8>, tensor<2x4xf32>, tensor<1x3x6x6xi8>, tensor<1x3x6x6xi8>, tensor<1x6x6x6xi8>, tensor<1x3x3x3xi8>, tensor<3x2x4xi32>, tensor<1x4x3x3xi32>, tensor<1x3x6x6xi8>
  }
}""".replace("TABLE", ", ".join(str((k * 37) % 256 - 128) for k in range(256)))


def quantized_inputs(module, seed: int) -> dict[str, np.ndarray]:
    """Random inputs; ``x`` scaled so that some quantized values saturate and some tie."""
    inputs = random_inputs(find_function(module), seed)
    inputs["x"] = inputs["x"] * np.float32(3.0)
    inputs["x"].flat[:4] = [0.01, -0.03, 0.05, 1e9]  # halves of the 0.02 step, and far past the range
    inputs["q"].flat[:2] = [-128, 127]
    return inputs


def test_quantized_ops_lower_to_verified_upstream_ops():
    module, _ = parse_module(QUANTIZED)
    check_lowered(to_linalg(flat_form(module)))


@needs_mlir
@pytest.mark.parametrize("seed", [0, 1])
def test_upstream_jit_computes_the_flat_interpreters_integers(seed):
    module, _ = parse_module(QUANTIZED)
    flat = flat_form(module)
    inputs = quantized_inputs(module, seed)
    want = run_flat(flat, inputs).outputs
    for key, value in run_function(module, inputs).outputs.items():
        np.testing.assert_array_equal(value, want[key], err_msg=key)  # the plan changes no number
    assert want["per_tensor"].flat[:4].tolist() == [5, 3, 7, 127]  # 0.5, -1.5 and 2.5 round to even; saturated
    (got,) = run_mlir(str(prepare_for_jit(to_linalg(flat))), flat, [inputs])
    assert got.keys() == want.keys()
    for key, value in want.items():
        assert got[key].dtype == value.dtype, key
        if value.dtype == np.float32:
            np.testing.assert_allclose(got[key], value, rtol=1e-6, atol=0, err_msg=key)
        else:
            np.testing.assert_array_equal(got[key], value, err_msg=key)


UNSIGNED = """builtin.module {
  func.func @main(%x: tensor<1x3x6x6xf32>, %u: tensor<1x3x6x6xui8>, %w: tensor<4x3x3x3xi8>, %uw: tensor<4x3x3x3xui8>,
                  %a: tensor<2x5xui8>, %b: tensor<4x5xui8>, %row: tensor<6xui8>, %zu: tensor<1xui8>, %s: tensor<2x3xi8>)
      -> (tensor<1x3x6x6xui8>, tensor<1x3x6x6xui8>, tensor<1x3x6x6xf32>, tensor<1x4x3x3xui8>, tensor<1x4x3x3xui8>,
          tensor<2x4xui8>, tensor<1x3x6x6xui8>, tensor<1x3x6x6xui8>, tensor<1x6x6x6xui8>, tensor<1x3x3x3xui8>,
          tensor<1x3x6x6xui8>, tensor<2x4xi32>, tensor<1x4x3x3xi32>, tensor<1x3x6x6xf32>, tensor<1x3x6x6xi32>,
          tensor<1x3x6x6xi8>, tensor<2x3xui8>) {
    %per_tensor = nn.quantize %x {element = ui8, y_scale = array<f32: 0.02>, y_zero_point = array<i64: 128>} : (tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xui8>
    %per_axis = nn.quantize %x {element = ui8, y_scale = array<f32: 0.01, 0.05, 0.1>, y_zero_point = array<i64: 0, 128, 255>, axis = 1} : (tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xui8>
    %real = nn.dequantize %u {x_scale = array<f32: 0.5, 0.25, 0.125>, x_zero_point = array<i64: 1, 200, 0>, axis = 1} : (tensor<1x3x6x6xui8>) -> tensor<1x3x6x6xf32>
    %u8s8 = nn.qconv2d %u, %w {element = ui8, x_scale = array<f32: 0.05>, x_zero_point = array<i64: 131>, w_scale = array<f32: 0.01, 0.02, 0.015, 0.03>, w_zero_point = array<i64: 0, 0, 0, 0>, y_scale = array<f32: 0.4>, y_zero_point = array<i64: 120>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 0, 0>} : (tensor<1x3x6x6xui8>, tensor<4x3x3x3xi8>) -> tensor<1x4x3x3xui8>
    %u8u8 = nn.qconv2d %u, %uw {element = ui8, x_scale = array<f32: 0.05>, x_zero_point = array<i64: 131>, w_scale = array<f32: 0.02>, w_zero_point = array<i64: 127>, y_scale = array<f32: 0.5>, y_zero_point = array<i64: 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 0, 0>} : (tensor<1x3x6x6xui8>, tensor<4x3x3x3xui8>) -> tensor<1x4x3x3xui8>
    %gemm = nn.qgemm %a, %b {a_scale = array<f32: 0.1>, a_zero_point = array<i64: 130>, b_scale = array<f32: 0.02>, b_zero_point = array<i64: 110>, trans_b = 1 : i64, element = ui8, y_scale = array<f32: 0.3>, y_zero_point = array<i64: 128>} : (tensor<2x5xui8>, tensor<4x5xui8>) -> tensor<2x4xui8>
    %sum = nn.qadd %u, %row {element = ui8, a_scale = array<f32: 0.05>, a_zero_point = array<i64: 131>, b_scale = array<f32: 0.07>, b_zero_point = array<i64: 100>, y_scale = array<f32: 0.09>, y_zero_point = array<i64: 127>} : (tensor<1x3x6x6xui8>, tensor<6xui8>) -> tensor<1x3x6x6xui8>
    %product = nn.qmul %u, %row {element = ui8, a_scale = array<f32: 0.05>, a_zero_point = array<i64: 131>, b_scale = array<f32: 0.07>, b_zero_point = array<i64: 100>, y_scale = array<f32: 0.2>, y_zero_point = array<i64: 128>} : (tensor<1x3x6x6xui8>, tensor<6xui8>) -> tensor<1x3x6x6xui8>
    %joined = nn.qconcat %u, %per_tensor {element = ui8, x_scale = array<f32: 0.05, 0.02>, x_zero_point = array<i64: 131, 128>, y_scale = array<f32: 0.04>, y_zero_point = array<i64: 128>, axis = 1 : i64} : (tensor<1x3x6x6xui8>, tensor<1x3x6x6xui8>) -> tensor<1x6x6x6xui8>
    %pooled = nn.max_pool2d %u {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 0, 0>} : (tensor<1x3x6x6xui8>) -> tensor<1x3x3x3xui8>
    %looked_up = nn.qlookup %u {table = array<i64: TABLE>, element = ui8} : (tensor<1x3x6x6xui8>) -> tensor<1x3x6x6xui8>
    %products = nn.matmul_integer %a, %b_t, %zu, %zu : (tensor<2x5xui8>, tensor<5x4xui8>, tensor<1xui8>, tensor<1xui8>) -> tensor<2x4xi32>
    %sums = nn.conv_integer %u, %uw, %zu, %zu {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 0, 0>} : (tensor<1x3x6x6xui8>, tensor<4x3x3x3xui8>, tensor<1xui8>, tensor<1xui8>) -> tensor<1x4x3x3xi32>
    %as_float = nn.cast %u : (tensor<1x3x6x6xui8>) -> tensor<1x3x6x6xf32>
    %as_i32 = nn.cast %u : (tensor<1x3x6x6xui8>) -> tensor<1x3x6x6xi32>
    %as_i8 = nn.cast %u : (tensor<1x3x6x6xui8>) -> tensor<1x3x6x6xi8>
    %from_i8 = nn.cast %s : (tensor<2x3xi8>) -> tensor<2x3xui8>
    func.return %per_tensor, %per_axis, %real, %u8s8, %u8u8, %gemm, %sum, %product, %joined, %pooled, %looked_up, %products, %sums, %as_float, %as_i32, %as_i8, %from_i8 : tensor<1x3x6x6xui8>, tensor<1x3x6x6xui8>, tensor<1x3x6x6xf32>, tensor<1x4x3x3xui8>, tensor<1x4x3x3xui8>, tensor<2x4xui8>, tensor<1x3x6x6xui8>, tensor<1x3x6x6xui8>, tensor<1x6x6x6xui8>, tensor<1x3x3x3xui8>, tensor<1x3x6x6xui8>, tensor<2x4xi32>, tensor<1x4x3x3xi32>, tensor<1x3x6x6xf32>, tensor<1x3x6x6xi32>, tensor<1x3x6x6xi8>, tensor<2x3xui8>
  }
}""".replace("TABLE", ", ".join(str((k * 91) % 256) for k in range(256))).replace(
    "%b_t, ", "%bt, ").replace("%products = nn.matmul_integer", "%bt = nn.transpose %b {perm = array<i64: 1, 0>} : (tensor<4x5xui8>) -> tensor<5x4xui8>\n    %products = nn.matmul_integer")


def unsigned_inputs(module, seed: int) -> dict[str, np.ndarray]:
    """uint8 data over the whole range, the ends among it; ``x`` scaled so that some values saturate."""
    rng = np.random.default_rng(seed)
    inputs = random_inputs(find_function(module), seed)
    for name in ("u", "uw", "a", "b", "row", "zu"):
        inputs[name] = rng.integers(0, 256, inputs[name].shape).astype(np.uint8)
    inputs["u"].flat[:2] = [0, 255]
    inputs["x"] = inputs["x"] * np.float32(3.0)
    return inputs


def test_uint8_ops_lower_to_signless_upstream_ops():
    module, _ = parse_module(UNSIGNED)
    lowered = to_linalg(flat_form(module))
    check_lowered(lowered)
    assert "ui8" not in str(lowered)  # every ui8 read as i8 bytes; the unsigned ops carry the meaning
    assert "arith.extui" in str(lowered) and "arith.fptoui" in str(lowered) and "arith.maxui" in str(lowered)


@needs_mlir
@pytest.mark.parametrize("seed", [0, 1])
def test_upstream_jit_computes_the_flat_interpreters_uint8_numbers(seed):
    module, _ = parse_module(UNSIGNED)
    flat = flat_form(module)
    inputs = unsigned_inputs(module, seed)
    want = run_flat(flat, inputs).outputs
    (got,) = run_mlir(str(prepare_for_jit(to_linalg(flat))), flat, [inputs])
    for key, value in want.items():
        assert got[key].dtype == value.dtype, key
        if value.dtype == np.float32:
            np.testing.assert_allclose(got[key], value, rtol=1e-6, atol=0, err_msg=key)
        else:
            np.testing.assert_array_equal(got[key], value, err_msg=key)
