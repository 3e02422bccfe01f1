"""``nn-tile-rows``: a chain computed tile by tile gives the untiled numbers (to float order:
a kernel may sum in another order on fewer rows), every new op passes its shape rule, and the
planned, lowered module computes the tiled graph bit for bit on a real byte arena."""

from pathlib import Path

import numpy as np
import pytest
from xdsl.context import Context

from cfmem.errors import CfmemError
from cfmem.interp.flat import FlatInterpreter
from cfmem.interp.golden import GoldenInterpreter, find_function, random_inputs
from cfmem.ir_io import parse_module
from cfmem.passes.spatial_chains import module_chains
from cfmem.passes.tile_rows import TileRowsPass
from cfmem.planning.tiling import tiles
from cfmem.pipeline import apply_pipeline

CHAIN = """
nn.global @w size(4096) seed(3)
func.func @main(%x: tensor<1x2x17x6xf32>) -> tensor<1x4x4x6xf32> {
  %blob = nn.get_global @w : tensor<4096xi8>
  %w1 = nn.view %blob[0] bytes(576) : tensor<4096xi8> to tensor<8x2x3x3xf32>
  %w2 = nn.view %blob[576] bytes(128) : tensor<4096xi8> to tensor<4x8x1x1xf32>
  %p = nn.pad %x {pads = array<i64: 0, 0, 1, 0, 0, 0, 2, 0>} : (tensor<1x2x17x6xf32>) -> tensor<1x2x20x6xf32>
  %c1 = nn.conv2d %p, %w1 {strides = array<i64: 2, 1>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x20x6xf32>, tensor<8x2x3x3xf32>) -> tensor<1x8x10x6xf32>
  %r = nn.relu %c1 : (tensor<1x8x10x6xf32>) -> tensor<1x8x10x6xf32>
  %m = nn.max_pool2d %r {kernel = array<i64: 3, 1>, dilations = array<i64: 2, 1>, pads = array<i64: 1, 0, 2, 0>} : (tensor<1x8x10x6xf32>) -> tensor<1x8x9x6xf32>
  %c2 = nn.conv2d %m, %w2 {strides = array<i64: 2, 1>} : (tensor<1x8x9x6xf32>, tensor<4x8x1x1xf32>) -> tensor<1x4x5x6xf32>
  %a = nn.avg_pool2d %c2 {kernel = array<i64: 2, 1>} : (tensor<1x4x5x6xf32>) -> tensor<1x4x4x6xf32>
  func.return %a : tensor<1x4x4x6xf32>
}
"""
"""A pad, a strided convolution, a dilated max pool padded unevenly, a strided 1x1
convolution and an average pool: 4 output rows."""


def _tiled(text: str, rows: int):
    module, _ = parse_module(text)
    tiled = module.clone()
    TileRowsPass(tile_rows=rows).apply(Context(), tiled)
    return module, tiled


def _run(module, inputs):
    fn = find_function(module, None)
    return GoldenInterpreter(module, Path(".")).run(fn, inputs).outputs


@pytest.mark.parametrize("rows", [1, 2, 3])
def test_every_tile_size_computes_the_untiled_numbers(rows):
    module, tiled = _tiled(CHAIN, rows)
    ops = [op.name for op in tiled.walk()]
    tiles = -(-4 // rows)
    assert ops.count("nn.conv2d") == 2 * tiles and ops.count("nn.concat") == 1
    assert "nn.avg_pool2d" in ops and ops.count("nn.avg_pool2d") == tiles
    inputs = random_inputs(find_function(module, None), 0)
    want, got = _run(module, inputs), _run(tiled, inputs)
    np.testing.assert_allclose(got["a"], want["a"], rtol=1e-6, atol=1e-6)


def test_a_chain_with_no_more_rows_than_a_tile_is_left_whole():
    module, tiled = _tiled(CHAIN, 4)
    assert str(tiled) == str(module)


def test_the_planned_and_lowered_tiled_module_computes_the_tiled_graph_bit_for_bit():
    """The tiled graph through DMA insertion, planning and lowering, run by the checking flat
    interpreter (byte ownership, DMA waits): its outputs are the tiled graph's."""
    _, tiled = _tiled(CHAIN, 1)
    inputs = random_inputs(find_function(tiled, None), 1)
    want = _run(tiled, inputs)
    flat = tiled.clone()
    apply_pipeline(flat, "nn-insert-dma,nn-plan-memory,nn-lower-to-memref", None, Path("."))
    got = FlatInterpreter(flat, check=True).run(find_function(flat, None), inputs).outputs
    assert np.array_equal(got["a"], want["a"])


def test_tile_rows_must_be_given():
    module, _ = parse_module(CHAIN)
    with pytest.raises(Exception, match="tile-rows"):
        TileRowsPass().apply(Context(), module)


def test_compile_tile_keeps_the_fastest_compile_that_fits_and_its_flat_form_computes_its_graph():
    """CHAIN in 3,000 bytes: untiled, its activations go off chip (8,626 cycles); in tiles of 2
    rows they stay on chip (2,205). The bound is the least of the graphs tried: the tiled one's,
    whose activations fit. In 2,000 bytes the untiled compile is the fastest and is kept.
    The chosen flat module fits and computes its placed graph bit for bit on the checking flat
    interpreter."""
    from cfmem.dma.timing import Chip
    from cfmem.fit import latency_bound, timing_path
    from cfmem.fit_tiled import compile_tiled, tile_candidates

    module, _ = parse_module(CHAIN)
    chip = Chip()
    assert tile_candidates(module) == [5, 4, 3, 2, 1]  # the 10 rows of %c1, the 4 of the chain's output
    path = timing_path(module, chip)
    chosen = compile_tiled(module, chip, 3000, Path("."), None, "exact", "auto", path, True)
    untiled = chosen.untiled_cycles
    assert untiled == next(c for rows, _, c in chosen.tried if rows is None)
    assert chosen.tile_rows == 2 and chosen.compiled.cycles == min(c for _, _, c in chosen.tried) < untiled / 3
    assert all(branching for _, branching, _ in chosen.tried)  # a run only: no runs-only compile repeats one
    assert chosen.compiled.onchip_peak <= 3000
    tiled = {}
    for rows in tile_candidates(module):
        tiled[rows] = module.clone()
        TileRowsPass(tile_rows=rows).apply(Context(), tiled[rows])
    bounds = [latency_bound(m, chip, 3000, path) for m in (module, *tiled.values())]
    assert chosen.compiled.bound_cycles == min(bounds) <= chosen.compiled.cycles  # the least of the graphs tried
    assert latency_bound(tiled[2], chip, 3000, path) < bounds[0]  # untiled, activations above 3,000 bytes must leave the chip and come back
    inputs = random_inputs(find_function(module, None), 2)
    graph = chosen.compiled.graph
    want = GoldenInterpreter(graph, Path(".")).run(find_function(graph, None), inputs).outputs
    flat = chosen.compiled.flat
    got = FlatInterpreter(flat, check=True).run(find_function(flat, None), inputs).outputs
    assert np.array_equal(got["a"], want["a"])
    np.testing.assert_allclose(got["a"], _run(module, inputs)["a"], rtol=1e-6, atol=1e-6)
    assert compile_tiled(module, chip, 2000, Path("."), None, "exact", "auto", path, True).tile_rows is None


INT8_CHAIN = """
nn.global @w size(4096) seed(5)
func.func @main(%x: tensor<1x2x11x5xf32>, %s: tensor<1x4x1x1xi8>) -> tensor<1x4x4x5xf32> {
  %blob = nn.get_global @w : tensor<4096xi8>
  %w1 = nn.view %blob[0] bytes(72) : tensor<4096xi8> to tensor<4x2x3x3xi8>
  %b1 = nn.view %blob[128] bytes(16) : tensor<4096xi8> to tensor<4xi32>
  %w2 = nn.view %blob[256] bytes(36) : tensor<4096xi8> to tensor<4x1x3x3xi8>
  %q = nn.quantize %x {element = i8, y_scale = array<f32: 0.05>, y_zero_point = array<i64: 3>} : (tensor<1x2x11x5xf32>) -> tensor<1x2x11x5xi8>
  %c1 = nn.qconv2d %q, %w1, %b1 {strides = array<i64: 2, 1>, pads = array<i64: 1, 1, 1, 1>, element = i8, x_scale = array<f32: 0.05>, x_zero_point = array<i64: 3>, w_scale = array<f32: 0.01, 0.02, 0.015, 0.03>, w_zero_point = array<i64: 0, 0, 0, 0>, y_scale = array<f32: 0.04>, y_zero_point = array<i64: -5>} : (tensor<1x2x11x5xi8>, tensor<4x2x3x3xi8>, tensor<4xi32>) -> tensor<1x4x6x5xi8>
  %m = nn.qmul %c1, %s {element = i8, a_scale = array<f32: 0.04>, a_zero_point = array<i64: -5>, b_scale = array<f32: 0.01>, b_zero_point = array<i64: 0>, y_scale = array<f32: 0.03>, y_zero_point = array<i64: 2>} : (tensor<1x4x6x5xi8>, tensor<1x4x1x1xi8>) -> tensor<1x4x6x5xi8>
  %c2 = nn.qconv2d %m, %w2 {pads = array<i64: 2, 1, 0, 1>, dilations = array<i64: 2, 1>, groups = 4 : i64, element = i8, x_scale = array<f32: 0.03>, x_zero_point = array<i64: 2>, w_scale = array<f32: 0.02>, w_zero_point = array<i64: 0>, y_scale = array<f32: 0.05>, y_zero_point = array<i64: 0>} : (tensor<1x4x6x5xi8>, tensor<4x1x3x3xi8>) -> tensor<1x4x4x5xi8>
  %y = nn.dequantize %c2 {x_scale = array<f32: 0.05>, x_zero_point = array<i64: 0>} : (tensor<1x4x4x5xi8>) -> tensor<1x4x4x5xf32>
  func.return %y : tensor<1x4x4x5xf32>
}
"""
"""A quantize, a strided int8 convolution, an int8 multiply by a per-channel tensor, a dilated
depthwise int8 convolution padded at the top only, and the dequantize that makes it float:
4 output rows."""


@pytest.mark.parametrize("rows", [1, 3])
def test_an_int8_chain_computed_in_tiles_gives_the_untiled_numbers_bit_for_bit(rows):
    """int8 kernels sum exactly, so tiles change no bit; the chain ends before the dequantize
    (its float result is four times the bytes of its int8 input), joined by an nn.qconcat
    that passes every value through; the flat module computes the tiled graph."""
    module, tiled = _tiled(INT8_CHAIN, rows)
    ops = [op.name for op in tiled.walk()]
    assert ops.count("nn.qconcat") == 1 and ops.count("nn.qconv2d") == 2 * -(-4 // rows) and ops.count("nn.dequantize") == 1
    inputs = random_inputs(find_function(module, None), 4)
    want, got = _run(module, inputs), _run(tiled, inputs)
    assert np.array_equal(got["y"], want["y"]) and np.unique(want["y"]).size > 10
    flat = tiled.clone()
    apply_pipeline(flat, "nn-insert-dma,nn-plan-memory,nn-lower-to-memref", None, Path("."))
    assert np.array_equal(FlatInterpreter(flat, check=True).run(find_function(flat, None), inputs).outputs["y"], want["y"])


@pytest.mark.parametrize("rows", [1, 2, 3])
def test_rolling_halos_compute_every_row_once_and_give_the_untiled_numbers(rows):
    """halo=roll: each op's tiles together compute its result's rows once (the rows the output
    needs: the max pool's 9 rows are all read), reading halo rows earlier tiles cut off and
    kept; the flat module computes the tiled graph bit for bit."""
    module, _ = _tiled(CHAIN, rows)
    tiled = module.clone()
    TileRowsPass(tile_rows=rows, halo="roll").apply(Context(), tiled)
    ops = list(tiled.walk())
    computed = {}
    for op in ops:
        if op.name in ("nn.conv2d", "nn.relu", "nn.max_pool2d", "nn.avg_pool2d", "nn.pad"):
            computed[op.name] = computed.get(op.name, 0) + op.results[0].type.get_shape()[2]
    assert computed["nn.relu"] == 10 and computed["nn.max_pool2d"] == 9 and computed["nn.avg_pool2d"] == 4
    inputs = random_inputs(find_function(module, None), 5)
    want, got = _run(module, inputs), _run(tiled, inputs)
    np.testing.assert_allclose(got["a"], want["a"], rtol=1e-6, atol=1e-6)
    flat = tiled.clone()
    apply_pipeline(flat, "nn-insert-dma,nn-plan-memory,nn-lower-to-memref", None, Path("."))
    assert np.array_equal(FlatInterpreter(flat, check=True).run(find_function(flat, None), inputs).outputs["a"], got["a"])


def test_an_unknown_halo_mode_is_refused():
    module, _ = parse_module(CHAIN)
    with pytest.raises(Exception, match="halo must be one of recompute, roll"):
        TileRowsPass(tile_rows=2, halo="keep").apply(Context(), module)


REDUCED = """
nn.global @w size(4096) seed(7)
func.func @main(%x: tensor<1x2x9x4xf32>) -> (tensor<1x4xf32>, tensor<1x4x1x4xf32>) {
  %blob = nn.get_global @w : tensor<4096xi8>
  %w1 = nn.view %blob[0] bytes(288) : tensor<4096xi8> to tensor<4x2x3x3xf32>
  %w2 = nn.view %blob[512] bytes(288) : tensor<4096xi8> to tensor<4x2x3x3xf32>
  %c1 = nn.conv2d %x, %w1 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x9x4xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x9x4xf32>
  %r = nn.relu %c1 : (tensor<1x4x9x4xf32>) -> tensor<1x4x9x4xf32>
  %m = nn.reduce_mean %r {axes = array<i64: 2, 3>, keepdims = false} : (tensor<1x4x9x4xf32>) -> tensor<1x4xf32>
  %c2 = nn.conv2d %x, %w2 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x9x4xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x9x4xf32>
  %t = nn.tanh %c2 : (tensor<1x4x9x4xf32>) -> tensor<1x4x9x4xf32>
  %k = nn.reduce_max %t {axes = array<i64: -2>} : (tensor<1x4x9x4xf32>) -> tensor<1x4x1x4xf32>
  func.return %m, %k : tensor<1x4xf32>, tensor<1x4x1x4xf32>
}
"""
"""Two chains ending in reductions over the rows: a mean over rows and columns without kept
axes, and a max over the rows alone (axis -2)."""


@pytest.mark.parametrize("rows", [2, 4])
def test_a_chain_ending_in_a_reduction_over_the_rows_reduces_each_tile(rows):
    """No tensor of either chain is ever whole: each tile is reduced as it is made (a mean as a
    sum), the partial results combined (nn.add, nn.max) and a mean divided once by the 36
    elements; the max is exact, the mean to float order; the flat module computes the tiled
    graph bit for bit."""
    module, tiled = _tiled(REDUCED, rows)
    ops = [op for op in tiled.walk()]
    names = [op.name for op in ops]
    tiles = -(-9 // rows)
    assert "nn.concat" not in names and "nn.reduce_mean" not in names
    assert names.count("nn.reduce_sum") == tiles and names.count("nn.reduce_max") == tiles
    assert names.count("nn.add") == tiles - 1 and names.count("nn.max") == tiles - 1 and names.count("nn.div") == 1
    assert all(op.results[0].type.get_shape()[2:3] != (9,) for op in ops if op.results and op.name in ("nn.relu", "nn.tanh"))
    inputs = random_inputs(find_function(module, None), 6)
    want, got = _run(module, inputs), _run(tiled, inputs)
    np.testing.assert_allclose(got["m"], want["m"], rtol=1e-6, atol=1e-7)
    assert np.array_equal(got["k"], want["k"])
    flat = tiled.clone()
    apply_pipeline(flat, "nn-insert-dma,nn-plan-memory,nn-lower-to-memref", None, Path("."))
    out = FlatInterpreter(flat, check=True).run(find_function(flat, None), inputs).outputs
    assert np.array_equal(out["m"], got["m"]) and np.array_equal(out["k"], got["k"])


def test_report_tile_shows_the_chains_the_kept_compile_tiles_and_the_sweep_with_and_without_tiling(tmp_path):
    """CHAIN in 3,000 bytes is kept in tiles of 2 rows: one chain of 6 ops (pad to average pool)
    in 2 tiles, each reading up to 15 of the 17 input rows; 23 of the intermediates' 54 rows are
    computed twice (its strides and dilated pool read far). The sweep gives every budget its
    untiled latency beside the one kept."""
    import json

    from conftest import run_cfmem

    model = tmp_path / "chain.mlir"
    model.write_text(CHAIN)
    done = run_cfmem("report", str(model), "--budget", "3000", "--tile", "--json")
    assert done.returncode == 0, done.stderr
    chains = json.loads(done.stdout)["placement"]["tiled_chains"]
    assert [(c["first"], c["last"], c["ops"], c["tile_rows"], c["tiles"]) for c in chains] == [
        ("nn.pad %p", "nn.avg_pool2d %a", 6, 2, 2)
    ]
    from cfmem.planning.tiling import recomputed_rows

    module, _ = parse_module(CHAIN)
    windows = list(module_chains(module)[0].windows)
    assert chains[0]["window_rows"] == max(hi - lo for (lo, hi), *_ in tiles(windows, 2)) == 15
    assert chains[0]["recompute_pct"] == pytest.approx(100 * 23 / 54) and recomputed_rows(windows, 2) == 23
    sweep = run_cfmem("report", str(model), "--budget-sweep", "--tile", "--json")
    assert sweep.returncode == 0, sweep.stderr
    rows = json.loads(sweep.stdout)["budget_sweep"]
    assert all(r["ms"] <= r["untiled_ms"] for r in rows if r["feasible"] and r["untiled_ms"] is not None)
    assert any(r["tile_rows"] for r in rows)
    refused = run_cfmem("report", str(model), "--tile")
    assert refused.returncode == 1 and refused.stderr.strip().endswith("--tile reports on a budget: add --budget or --budget-sweep")


SHUFFLE = """
nn.global @w size(4096) seed(5)
func.func @main(%x: tensor<1x4x11x5xf32>) -> tensor<1x6x6x5xf32> {
  %blob = nn.get_global @w : tensor<4096xi8>
  %w1 = nn.view %blob[0] bytes(96) : tensor<4096xi8> to tensor<12x2x1x1xf32>
  %w2 = nn.view %blob[96] bytes(432) : tensor<4096xi8> to tensor<12x1x3x3xf32>
  %w3 = nn.view %blob[528] bytes(288) : tensor<4096xi8> to tensor<6x12x1x1xf32>
  %g = nn.conv2d %x, %w1 {groups = 2 : i64} : (tensor<1x4x11x5xf32>, tensor<12x2x1x1xf32>) -> tensor<1x12x11x5xf32>
  %r = nn.relu %g : (tensor<1x12x11x5xf32>) -> tensor<1x12x11x5xf32>
  %s1 = nn.reshape %r : tensor<1x12x11x5xf32> to tensor<1x2x6x11x5xf32>
  %s2 = nn.transpose %s1 {perm = array<i64: 0, 2, 1, 3, 4>} : (tensor<1x2x6x11x5xf32>) -> tensor<1x6x2x11x5xf32>
  %s3 = nn.reshape %s2 : tensor<1x6x2x11x5xf32> to tensor<1x12x11x5xf32>
  %d = nn.conv2d %s3, %w2 {groups = 12 : i64, strides = array<i64: 2, 1>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x12x11x5xf32>, tensor<12x1x3x3xf32>) -> tensor<1x12x6x5xf32>
  %c = nn.conv2d %d, %w3 : (tensor<1x12x6x5xf32>, tensor<6x12x1x1xf32>) -> tensor<1x6x6x5xf32>
  func.return %c : tensor<1x6x6x5xf32>
}
"""
"""A grouped 1x1 convolution, a channel shuffle (a reshape to five axes, a transpose of the
channel axes, a reshape back) and a strided depthwise convolution: the shuffle keeps the rows
where they are, so the chain runs through it."""


@pytest.mark.parametrize("halo", ["recompute", "roll"])
@pytest.mark.parametrize("rows", [1, 2, 4])
def test_a_channel_shuffle_is_tiled_with_the_chain_and_gives_the_untiled_numbers(rows, halo):
    module, _ = parse_module(SHUFFLE)
    (chain,) = module_chains(module)
    assert [op.name for op in chain.ops].count("nn.transpose") == 1 and len(chain.ops) == 7
    tiled = module.clone()
    TileRowsPass(tile_rows=rows, halo=halo).apply(Context(), tiled)
    ops = [op.name for op in tiled.walk()]
    assert ops.count("nn.transpose") == -(-6 // rows) and "tensor<1x2x6x11x5xf32>" not in str(tiled)
    inputs = random_inputs(find_function(module, None), 2)
    want, got = _run(module, inputs), _run(tiled, inputs)
    np.testing.assert_allclose(got["c"], want["c"], rtol=1e-6, atol=1e-6)


RESIDUAL = """
nn.global @w size(8192) seed(7)
func.func @main(%x: tensor<1x4x24x5xf32>) -> tensor<1x8x12x5xf32> {
  %blob = nn.get_global @w : tensor<8192xi8>
  %w1 = nn.view %blob[0] bytes(1152) : tensor<8192xi8> to tensor<8x4x3x3xf32>
  %w2 = nn.view %blob[1152] bytes(1152) : tensor<8192xi8> to tensor<4x8x3x3xf32>
  %w3 = nn.view %blob[2304] bytes(64) : tensor<8192xi8> to tensor<4x4x1x1xf32>
  %w4 = nn.view %blob[2368] bytes(576) : tensor<8192xi8> to tensor<4x4x3x3xf32>
  %a = nn.conv2d %x, %w1 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x24x5xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x24x5xf32>
  %r = nn.relu %a : (tensor<1x8x24x5xf32>) -> tensor<1x8x24x5xf32>
  %b = nn.conv2d %r, %w2 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x8x24x5xf32>, tensor<4x8x3x3xf32>) -> tensor<1x4x24x5xf32>
  %s = nn.add %b, %x : (tensor<1x4x24x5xf32>, tensor<1x4x24x5xf32>) -> tensor<1x4x24x5xf32>
  %t = nn.relu %s : (tensor<1x4x24x5xf32>) -> tensor<1x4x24x5xf32>
  %e1 = nn.conv2d %t, %w3 {strides = array<i64: 2, 1>} : (tensor<1x4x24x5xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x12x5xf32>
  %e3 = nn.conv2d %t, %w4 {strides = array<i64: 2, 1>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x24x5xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x12x5xf32>
  %c = nn.concat %e1, %e3 {axis = 1 : i64} : (tensor<1x4x12x5xf32>, tensor<1x4x12x5xf32>) -> tensor<1x8x12x5xf32>
  func.return %c : tensor<1x8x12x5xf32>
}
"""
"""A residual block (two convolutions, the block's input added back) and two strided branches
of different windows reading its result, joined along the channels: one chain of 8 ops whose
only input, %x, two of its ops read."""


def test_a_residual_block_and_branches_joined_along_the_channels_are_one_chain():
    module, _ = parse_module(RESIDUAL)
    (chain,) = module_chains(module)
    assert [op.results[0].name_hint for op in chain.ops] == ["a", "r", "b", "s", "t", "e1", "e3", "c"]
    assert chain.graph.inputs == 1 and chain.graph.reads[3] == ((2 + 1, chain.windows[3]), (0, chain.windows[3]))
    returned = RESIDUAL.replace("func.return %c : tensor<1x8x12x5xf32>", "func.return %c, %r : tensor<1x8x12x5xf32>, tensor<1x8x24x5xf32>")
    returned = returned.replace("-> tensor<1x8x12x5xf32> {", "-> (tensor<1x8x12x5xf32>, tensor<1x8x24x5xf32>) {")
    module, _ = parse_module(returned)  # %r lives on after the block: no chain may end past it
    assert all("s" not in [op.results[0].name_hint for op in chain.ops] for chain in module_chains(module))


def test_runs_only_leave_a_branching_group_to_the_runs_inside_it():
    """``branching=false``: the residual block's convolutions %a, %r, %b form a run (the add
    reads two tensors, %t has two readers), tiled alone; the numbers stay the untiled ones."""
    module, _ = parse_module(RESIDUAL)
    assert [[op.results[0].name_hint for op in c.ops] for c in module_chains(module, branching=False)] == [["a", "r", "b"]]
    tiled = module.clone()
    TileRowsPass(tile_rows=5, branching=False).apply(Context(), tiled)
    ops = [op.name for op in tiled.walk()]
    assert ops.count("nn.add") == 1 and ops.count("nn.relu") == 1 + -(-24 // 5) and "tensor<1x8x24x5xf32>" not in str(tiled)
    inputs = random_inputs(find_function(module, None), 4)
    np.testing.assert_allclose(_run(tiled, inputs)["c"], _run(module, inputs)["c"], rtol=1e-5, atol=1e-5)


def test_compile_tile_also_compiles_the_two_fastest_tile_sizes_with_runs_only():
    """At 75 % of the residual block's peak, runs only in tiles of 12 rows beat the branching
    chain in tiles of 12 (each tile of the whole block holds more at once); that compile is
    kept. Runs only are compiled at the two fastest tiled sizes, also at 90 %, where the
    untiled compile is the fastest."""
    from cfmem.dma.timing import Chip
    from cfmem.fit import baseline_pingpong, timing_path
    from cfmem.fit_tiled import compile_tiled

    module, _ = parse_module(RESIDUAL)
    chip = Chip()
    path = timing_path(module, chip)
    peak, _ = baseline_pingpong(module, chip, path)
    chosen = compile_tiled(module, chip, peak * 3 // 4, Path("."), None, "exact", "auto", path, True)
    fitting = {(rows, branching): c for rows, branching, c in chosen.tried if c is not None}
    fastest = sorted((c, rows) for (rows, branching), c in fitting.items() if rows is not None and branching)
    assert [(rows, b) for rows, b, _ in chosen.tried if not b] == [(rows, False) for _, rows in fastest[:2]]
    assert (chosen.tile_rows, chosen.branching) == (12, False) and chosen.compiled.cycles == min(fitting.values())
    assert chosen.describe() == "tiled, 12 rows per tile, runs only"
    chosen = compile_tiled(module, chip, peak * 9 // 10, Path("."), None, "exact", "auto", path, True)
    assert chosen.describe() == "untiled"  # runs only at the two fastest tiled sizes, neither faster
    fastest = sorted((c, rows) for rows, branching, c in chosen.tried if branching and rows is not None and c is not None)
    assert [(rows, b) for rows, b, _ in chosen.tried if not b] == [(rows, False) for _, rows in fastest[:2]]


EXCITE = """
nn.global @w size(4096) seed(9)
func.func @main(%x: tensor<1x4x8x5xf32>, %g: tensor<1x4x1x1xf32>) -> tensor<1x4x8x5xf32> {
  %blob = nn.get_global @w : tensor<4096xi8>
  %w1 = nn.view %blob[0] bytes(576) : tensor<4096xi8> to tensor<4x4x3x3xf32>
  %c = nn.conv2d %x, %w1 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x8x5xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x8x5xf32>
  %r = nn.relu %g : (tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
  %s = nn.sigmoid %r : (tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
  %m = nn.mul %s, %c : (tensor<1x4x1x1xf32>, tensor<1x4x8x5xf32>) -> tensor<1x4x8x5xf32>
  %t = nn.tanh %m : (tensor<1x4x8x5xf32>) -> tensor<1x4x8x5xf32>
  func.return %t : tensor<1x4x8x5xf32>
}
"""
"""A squeeze-and-excite scale: %s, one row, multiplies %c as the multiply's first operand, so
the multiply reads its rows from %c. The ops of one row before it are no chain of its rows."""


@pytest.mark.parametrize("rows", [2, 3])
def test_a_one_row_scale_read_as_operand_0_stays_out_of_the_chain(rows):
    module, _ = parse_module(EXCITE)
    assert all(not {"s", "m"} <= {op.results[0].name_hint for op in chain.ops} for chain in module_chains(module, 2, rows))
    tiled = module.clone()
    TileRowsPass(tile_rows=rows).apply(Context(), tiled)  # a run through the multiply's operand 0 left %s's readers without it
    inputs = random_inputs(find_function(module, None), 3)
    np.testing.assert_allclose(_run(tiled, inputs)["t"], _run(module, inputs)["t"], rtol=1e-6, atol=1e-6)


def test_a_concatenation_along_the_rows_is_not_a_row_op():
    """Joining tensors along the rows puts one input's rows after the other's: a tile of its
    rows is not the same rows of each input, so the chain ends before it."""
    from cfmem.passes.spatial_chains import row_reads

    module, _ = parse_module(RESIDUAL)
    (concat,) = [op for op in find_function(module, None).body.block.ops if op.name == "nn.concat"]
    assert [i for i, _ in row_reads(concat)] == [0, 1]
    text = RESIDUAL.replace("{axis = 1 : i64} : (tensor<1x4x12x5xf32>, tensor<1x4x12x5xf32>) -> tensor<1x8x12x5xf32>",
                            "{axis = 2 : i64} : (tensor<1x4x12x5xf32>, tensor<1x4x12x5xf32>) -> tensor<1x4x24x5xf32>")
    text = text.replace("-> tensor<1x8x12x5xf32> {", "-> tensor<1x4x24x5xf32> {").replace("func.return %c : tensor<1x8x12x5xf32>", "func.return %c : tensor<1x4x24x5xf32>")
    module, _ = parse_module(text)
    (concat,) = [op for op in find_function(module, None).body.block.ops if op.name == "nn.concat"]
    assert row_reads(concat) is None
    assert all(concat not in chain.ops for chain in module_chains(module))


@pytest.mark.parametrize("halo", ["recompute", "roll"])
@pytest.mark.parametrize("rows", [2, 3, 5])
def test_a_branching_chain_computed_in_tiles_gives_the_untiled_numbers(rows, halo):
    module, _ = parse_module(RESIDUAL)
    tiled = module.clone()
    TileRowsPass(tile_rows=rows, halo=halo).apply(Context(), tiled)
    ops = [op.name for op in tiled.walk()]
    assert ops.count("nn.add") == -(-12 // rows) and "tensor<1x8x24x5xf32>" not in str(tiled)  # no intermediate whole
    inputs = random_inputs(find_function(module, None), 4)
    want, got = _run(module, inputs), _run(tiled, inputs)
    np.testing.assert_allclose(got["c"], want["c"], rtol=1e-5, atol=1e-5)  # three convolutions, each summing in its own order


@pytest.mark.parametrize(
    "old, new",
    [
        ("perm = array<i64: 0, 2, 1, 3, 4>", "perm = array<i64: 0, 2, 1, 4, 3>"),  # rows and columns swapped
        ("reshape %r : tensor<1x12x11x5xf32> to tensor<1x2x6x11x5xf32>", "reshape %r : tensor<1x12x11x5xf32> to tensor<1x2x6x5x11xf32>"),
    ],
    ids=["transpose moves the rows", "reshape moves the rows"],
)
def test_a_shuffle_that_moves_the_rows_ends_the_chain(old, new):
    from cfmem.passes.spatial_chains import row_window

    text = SHUFFLE.replace(old, new).replace("1x6x2x11x5xf32", "1x6x2x5x11xf32")  # the transpose's result
    if "reshape" in old:
        text = text.replace("(tensor<1x2x6x11x5xf32>) ->", "(tensor<1x2x6x5x11xf32>) ->")
    module, _ = parse_module(text)
    shuffle = [op for op in find_function(module, None).body.block.ops if op.name in ("nn.transpose", "nn.reshape")]
    refused = {op.name for op in shuffle if row_window(op) is None}
    assert ("nn.transpose" if "perm" in old else "nn.reshape") in refused
    assert all(len(chain.ops) < 7 for chain in module_chains(module))


@pytest.mark.parametrize(
    "text, rows, halo",
    [
        (CHAIN, 1, "recompute"), (CHAIN, 3, "roll"), (INT8_CHAIN, 3, "recompute"), (REDUCED, 4, "roll"), (SHUFFLE, 2, "roll"),
        (RESIDUAL, 2, "recompute"), (RESIDUAL, 4, "roll"),
    ],
    ids=["halos recomputed", "rolling buffers", "int8", "reductions", "channel shuffle", "branches", "branches rolled"],
)
def test_upstream_mlir_computes_the_tiled_flat_module(text, rows, halo):
    """The tiled graph through DMA insertion, planning and lowering, then lowered to linalg and
    run by the MLIR JIT: within check-mlir's tolerance of the flat run, which is the tiled
    graph's bit for bit (the last tile shorter; stride 2, dilation, padding at both borders;
    an int8 chain; two reductions; a channel shuffle; a residual block and branches joined).
    RESIDUAL's three convolutions in a row sum in another order in MLIR's loops by more than
    the default rtol 1e-5 allows near zero, tiled or not (2.1 times the allowed difference
    untiled): it is compared within rtol 1e-4."""
    from cfmem.differential import check
    from cfmem.pipeline import lower_model

    module, _ = parse_module(text)
    TileRowsPass(tile_rows=rows, halo=halo).apply(Context(), module)
    flat = lower_model(module, "nn-insert-dma,nn-plan-memory,nn-check-dma", Path("."))
    inputs = random_inputs(find_function(module, None), 8)
    (agreement,) = check(module, flat, [inputs], base_dir=Path("."), rtol=1e-4 if text is RESIDUAL else 1e-5)
    assert agreement.ok() and agreement.golden_vs_flat == 0.0 and agreement.mlir_vs_flat is not None, agreement


@pytest.mark.parametrize("halo", ["recompute", "roll"])
def test_chains_inside_if_branches_are_tiled_and_every_branch_path_computes_the_tiled_graph(halo):
    """Three of the denoise example's convolution chains live inside nn.if branches: tiled there
    (in 11-row tiles), planned, lowered and run on inputs that take every branch, the flat
    module computes the tiled graph bit for bit on each of its 4 paths."""
    from cfmem.dialects.nn_control import IfOp
    from cfmem.interp.coverage import branch_covering_inputs
    from cfmem.interp.flat import run_flat
    from cfmem.ir_io import load_module
    from cfmem.pipeline import lower_model

    from conftest import EXAMPLES

    module, _ = load_module(EXAMPLES / "denoise.mlir")
    TileRowsPass(tile_rows=11, halo=halo).apply(Context(), module)
    joins = [op for op in module.walk() if op.name == "nn.concat" and not op.results[0].name_hint.endswith("_window")]
    inside = [op for op in joins if any(isinstance(p, IfOp) for p in _parents(op))]
    assert len(inside) == 3 and len(joins) == 4  # three chains in branches, one before the ifs
    flat = lower_model(module, "nn-insert-dma,nn-plan-memory,nn-check-dma", EXAMPLES)
    paths = set()
    for inputs, _ in branch_covering_inputs(module, base_dir=EXAMPLES):
        want = GoldenInterpreter(module, EXAMPLES).run(find_function(module, None), inputs).outputs
        got = run_flat(flat, inputs)
        paths.add(tuple(got.branches))
        assert all(np.array_equal(want[k], got.outputs[k]) for k in want)
    assert len(paths) == 4


def _parents(op):
    while (op := op.parent_op()) is not None:
        yield op
