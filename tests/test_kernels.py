"""Kernels against naive loop implementations, on the attribute corners
(stride, padding, dilation, groups) the examples do not all reach."""

import itertools

import numpy as np
import pytest
from numpy.lib.stride_tricks import sliding_window_view

from cfmem.interp.golden import run_function
from cfmem.ir_io import parse_module


def conv_naive(x, w, b, stride, pads, dil, groups):
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])))
    oh = (h + pads[0] + pads[2] - dil[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (wd + pads[1] + pads[3] - dil[1] * (kw - 1) - 1) // stride[1] + 1
    out = np.zeros((n, o, oh, ow), np.float64)
    og = o // groups
    for oc, i, j in itertools.product(range(o), range(oh), range(ow)):
        g = oc // og
        for ci, p, q in itertools.product(range(cg), range(kh), range(kw)):
            out[0, oc, i, j] += (
                xp[0, g * cg + ci, i * stride[0] + p * dil[0], j * stride[1] + q * dil[1]] * w[oc, ci, p, q]
            )
        out[0, oc, i, j] += b[oc]
    return out


def conv_einsum(x, w, b, stride, pads, dil, groups):
    """The convolution as one plain ``np.einsum(optimize=True)`` per group: the kernel,
    which plans the contraction once, must give these bits."""
    o, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])))
    win = sliding_window_view(xp, ((kh - 1) * dil[0] + 1, (kw - 1) * dil[1] + 1), axis=(2, 3))
    win = win[:, :, :: stride[0], :: stride[1], :: dil[0], :: dil[1]]
    og = o // groups
    parts = [np.einsum("ncxykl,ockl->noxy", win[:, g * cg : (g + 1) * cg], w[g * og : (g + 1) * og], optimize=True)
             for g in range(groups)]  # fmt: skip
    return np.concatenate(parts, axis=1) + b.reshape(1, o, 1, 1)


def tensor(shape):
    return "tensor<" + "x".join(map(str, shape)) + "xf32>"


@pytest.mark.parametrize(
    "cin,cout,k,stride,pads,dil,groups",
    [
        (3, 4, 3, 1, (1, 1, 1, 1), 1, 1),
        (4, 6, 3, 2, (0, 1, 2, 0), 1, 2),
        (4, 4, 3, 1, (2, 2, 2, 2), 2, 4),
        (2, 3, 1, 3, (0, 0, 0, 0), 1, 1),
        (16, 24, 3, 2, (0, 1, 0, 1), 1, 1),
    ],
)
def test_conv2d_matches_naive_loops(cin, cout, k, stride, pads, dil, groups):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((1, cin, 9, 8)).astype(np.float32)
    w = rng.standard_normal((cout, cin // groups, k, k)).astype(np.float32)
    b = rng.standard_normal(cout).astype(np.float32)
    ref = conv_naive(x, w, b, (stride, stride), pads, (dil, dil), groups)
    text = f"""
    nn.global @p size({w.nbytes + b.nbytes}) data(dense<{list(map(float, np.concatenate([w.ravel(), b])))}> : tensor<{w.size + b.size}xf32>)
    func.func @main(%x: {tensor(x.shape)}) -> {tensor(ref.shape)} {{
      %blob = nn.get_global @p : tensor<{w.nbytes + b.nbytes}xi8>
      %w = nn.view %blob[0] bytes({w.nbytes}) : tensor<{w.nbytes + b.nbytes}xi8> to {tensor(w.shape)}
      %b = nn.view %blob[{w.nbytes}] bytes({b.nbytes}) : tensor<{w.nbytes + b.nbytes}xi8> to {tensor(b.shape)}
      %y = nn.conv2d %x, %w, %b {{strides = array<i64: {stride}, {stride}>, pads = array<i64: {", ".join(map(str, pads))}>,
        dilations = array<i64: {dil}, {dil}>, groups = {groups} : i64}} : ({tensor(x.shape)}, {tensor(w.shape)}, {tensor(b.shape)}) -> {tensor(ref.shape)}
      func.return %y : {tensor(ref.shape)}
    }}"""
    module, _ = parse_module(text)
    out = run_function(module, {"x": x}).outputs["y"]
    np.testing.assert_allclose(out, ref, rtol=1e-4, atol=1e-5)
    assert out.tobytes() == conv_einsum(x, w, b, (stride, stride), pads, (dil, dil), groups).tobytes()


def test_pooling_padding_is_excluded_from_max_and_average():
    x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4) - 20.0  # all negative
    text = f"""
    func.func @main(%x: tensor<1x1x4x4xf32>) -> (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) {{
      %mx = nn.max_pool2d %x {{kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 0, 0>}} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
      %av = nn.avg_pool2d %x {{kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 0, 0>}} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
      func.return %mx, %av : tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>
    }}"""
    module, _ = parse_module(text)
    out = run_function(module, {"x": x}).outputs
    xp = np.pad(x[0, 0], ((1, 0), (1, 0)), constant_values=np.nan)
    for name, reduce in (("mx", np.nanmax), ("av", np.nanmean)):
        want = np.array([[reduce(xp[i : i + 3, j : j + 3]) for j in (0, 2)] for i in (0, 2)])
        np.testing.assert_allclose(out[name][0, 0], want, rtol=1e-6)


def test_elementwise_reductions_and_layout_ops():
    rng = np.random.default_rng(2)
    a = rng.standard_normal((2, 3, 4)).astype(np.float32)
    b = rng.standard_normal((3, 1)).astype(np.float32)
    text = """
    func.func @main(%a: tensor<2x3x4xf32>, %b: tensor<3x1xf32>) -> (tensor<2x3x4xf32>, tensor<4x2x3xf32>, tensor<2x4xf32>, tensor<2x6x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xi1>) {
      %d = nn.div %a, %b : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
      %t = nn.transpose %d {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
      %m = nn.reduce_mean %a {axes = array<i64: 1>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
      %c = nn.concat %a, %d {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x6x4xf32>
      %s = nn.softmax %a {axis = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
      %g = nn.cmp %a, %b {predicate = "ge"} : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xi1>
      func.return %d, %t, %m, %c, %s, %g : tensor<2x3x4xf32>, tensor<4x2x3xf32>, tensor<2x4xf32>, tensor<2x6x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xi1>
    }"""
    module, _ = parse_module(text)
    out = run_function(module, {"a": a, "b": b}).outputs
    np.testing.assert_allclose(out["d"], a / b, rtol=1e-6)
    np.testing.assert_allclose(out["t"], np.transpose(a / b, (2, 0, 1)), rtol=1e-6)
    np.testing.assert_allclose(out["m"], a.mean(axis=1), rtol=1e-6)
    np.testing.assert_allclose(out["c"], np.concatenate([a, a / b], axis=1), rtol=1e-6)
    e = np.exp(a - a.max(axis=1, keepdims=True))
    np.testing.assert_allclose(out["s"], e / e.sum(axis=1, keepdims=True), rtol=1e-5)
    np.testing.assert_array_equal(out["g"], a >= b)


def test_a_sum_over_negative_axes_adds_in_the_order_its_positive_axes_do():
    """nn IR may name reduced axes from the end: they take the same (onnxruntime's) order as
    the axes they name, which on these rows differs from numpy's."""
    from cfmem.interp.kernels import float_sum

    x = np.random.default_rng(4).standard_normal((6, 5, 169)).astype(np.float32) * np.float32(10)
    for negative, positive in (((-1,), (2,)), ((-2, -1), (1, 2))):
        for keepdims in (False, True):
            np.testing.assert_array_equal(float_sum(x, negative, keepdims), float_sum(x, positive, keepdims))
    assert not np.array_equal(float_sum(x, (-1,), False), np.sum(x, -1, np.float32))


def test_reflect_padding_is_numpys_for_every_width_shorter_than_its_axis():
    from cfmem.interp.kernels.movement import _reflect, _reflects

    rng = np.random.default_rng(3)
    for shape in [(1, 256), (3, 5), (2, 3, 4), (1, 1, 7), (2,)]:
        for _ in range(40):
            widths = [(int(rng.integers(0, n)), int(rng.integers(0, n))) for n in shape]
            x = rng.standard_normal(shape).astype(np.float32)
            assert _reflects(x, widths)
            got, want = _reflect(x, widths), np.pad(x, widths, mode="reflect")
            assert got.shape == want.shape and got.tobytes() == want.tobytes(), (shape, widths)
    assert not _reflects(np.zeros((2, 3)), [(0, 0), (3, 0)])
