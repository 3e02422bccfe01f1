"""Row tiling of op chains (cfmem.planning.tiling): each tile computed on exactly the rows
``chain_rows`` names, with the padding ``RowWindow.padding`` names, gives the untiled result
bit for bit, for every tile size, with stride 2, dilation, padding at both borders and a last
shorter tile; the rows named are exactly those some output row reads."""

import itertools

import numpy as np
import pytest

from cfmem.planning.tiling import RowGraph, RowWindow, chain_rows, largest_tile, recomputed_rows, rolling_tiles, tile_bytes, tiles


def out_rows(in_rows: int, kernel: int, stride: int, dilation: int, pad_top: int, pad_bottom: int) -> int:
    return (in_rows + pad_top + pad_bottom - dilation * (kernel - 1) - 1) // stride + 1


def window(in_rows, kernel=1, stride=1, dilation=1, pad_top=0, pad_bottom=0) -> RowWindow:
    return RowWindow(in_rows, out_rows(in_rows, kernel, stride, dilation, pad_top, pad_bottom), kernel, stride, dilation, pad_top)


def run_op(op: RowWindow, kind: str, weights: np.ndarray, x: np.ndarray, top: int, bottom: int) -> np.ndarray:
    """``op`` along the rows of ``x`` (rows x columns) with ``top`` / ``bottom`` padding rows:
    a convolution (taps ``weights``, zero padding, taps summed in order), a max pool (padding
    -inf) or an elementwise op; columns untouched."""
    fill = -np.inf if kind == "max" else 0.0
    padded = np.concatenate([np.full((top, x.shape[1]), fill, x.dtype), x, np.full((bottom, x.shape[1]), fill, x.dtype)])
    count = (padded.shape[0] - op.dilation * (op.kernel - 1) - 1) // op.stride + 1
    rows = []
    for r in range(count):
        taps = [padded[r * op.stride + t * op.dilation] for t in range(op.kernel)]
        if kind == "conv":
            acc = np.zeros(x.shape[1], x.dtype)
            for w, tap in zip(weights, taps):
                acc = acc + w * tap
            rows.append(acc)
        elif kind == "max":
            rows.append(np.maximum.reduce(taps))
        else:
            rows.append(np.tanh(taps[0]))
    return np.stack(rows) if rows else np.zeros((0, x.shape[1]), x.dtype)


def whole(chain, kinds, weights, x):
    for op, kind, w in zip(chain, kinds, weights):
        x = run_op(op, kind, w, x, op.pad_top, op.pad_bottom)
    return x


def tiled(chain, kinds, weights, x, tile_rows):
    """The chain's output computed tile by tile; every tensor of a tile only on its rows."""
    out = np.full((chain[-1].out_rows, x.shape[1]), np.nan, x.dtype)
    for tile in tiles(chain, tile_rows):
        lo, hi = tile[0]
        data = x[lo:hi]
        for k, (op, kind, w) in enumerate(zip(chain, kinds, weights)):
            top, bottom = op.padding(tile[k + 1])
            data = run_op(op, kind, w, data, top, bottom)
            assert data.shape[0] == tile[k + 1][1] - tile[k + 1][0]
        lo, hi = tile[-1]
        assert np.isnan(out[lo:hi]).all(), "an output row computed twice"
        out[lo:hi] = data
    return out


def rolled(chain, kinds, weights, x, tile_rows):
    """The chain's output computed tile by tile on ``rolling_tiles``: each tile computes only
    its new rows of every tensor, reading the rows earlier tiles left; a row computed twice,
    or read before it is computed, fails."""
    tensors = [x] + [np.full((op.out_rows, x.shape[1]), np.nan, x.dtype) for op in chain]
    for tile in rolling_tiles(chain, tile_rows):
        assert tile[0] == (tile[0][0], tile[0][1])
        for k, (op, kind, w) in enumerate(zip(chain, kinds, weights)):
            lo, hi = tile[k + 1]
            if hi <= lo:
                continue
            first, end = op.reads((lo, hi))
            source = tensors[k][first:end]
            assert not np.isnan(source).any(), "a row read before it was computed"
            top, bottom = op.padding((lo, hi))
            assert np.isnan(tensors[k + 1][lo:hi]).all(), "a row computed twice"
            tensors[k + 1][lo:hi] = run_op(op, kind, w, source, top, bottom)
    return tensors[-1]


CHAINS = {
    "3x3 convs": [("conv", dict(kernel=3, pad_top=1, pad_bottom=1)), ("conv", dict(kernel=3, pad_top=1, pad_bottom=1))],
    "stride 2 then pool": [("conv", dict(kernel=3, stride=2, pad_top=1, pad_bottom=1)), ("max", dict(kernel=3, stride=2, pad_top=1, pad_bottom=1))],
    "dilation and uneven padding": [("conv", dict(kernel=3, dilation=2, pad_top=2, pad_bottom=1)), ("tanh", {}), ("conv", dict(kernel=2, stride=2))],
    "pad op then valid conv": [("conv", dict(kernel=1, pad_top=2, pad_bottom=3)), ("conv", dict(kernel=5, stride=3))],
    "large padding": [("max", dict(kernel=2, pad_top=1, pad_bottom=1)), ("conv", dict(kernel=4, stride=1, pad_top=3, pad_bottom=3))],
}


def build(spec, height: int, seed: int):
    rng = np.random.default_rng(seed)
    chain, kinds, weights, rows = [], [], [], height
    for kind, params in spec:
        op = window(rows, **params)
        chain.append(op)
        kinds.append(kind)
        weights.append(rng.standard_normal(op.kernel).astype(np.float32))
        rows = op.out_rows
    return chain, kinds, weights, rng.standard_normal((height, 5)).astype(np.float32)


@pytest.mark.parametrize("name", CHAINS)
@pytest.mark.parametrize("height", [13, 16])
@pytest.mark.parametrize("run", [tiled, rolled], ids=["halos recomputed", "rolling buffers"])
def test_every_tile_size_gives_the_untiled_result_bit_for_bit(name, height, run):
    """Recomputing halos (``tiles``) or computing every row once (``rolling_tiles``)."""
    chain, kinds, weights, x = build(CHAINS[name], height, seed=height)
    want = whole(chain, kinds, weights, x)
    for tile_rows in range(1, chain[-1].out_rows + 1):
        assert np.array_equal(run(chain, kinds, weights, x, tile_rows), want), (name, tile_rows)


def test_a_rolling_tile_computes_only_the_rows_no_earlier_tile_did():
    chain = [window(16, kernel=3, pad_top=1, pad_bottom=1), window(16, kernel=3, pad_top=1, pad_bottom=1)]
    assert [tile[1] for tile in rolling_tiles(chain, 4)] == [(0, 5), (5, 9), (9, 13), (13, 16)]
    assert [tile[0] for tile in rolling_tiles(chain, 4)] == [(0, 6), (6, 10), (10, 14), (14, 16)]


def test_the_last_tile_is_shorter_when_the_rows_do_not_divide():
    chain = [window(10, kernel=3, pad_top=1, pad_bottom=1)]
    assert [tile[-1] for tile in tiles(chain, 4)] == [(0, 4), (4, 8), (8, 10)]
    assert [tile[0] for tile in tiles(chain, 4)] == [(0, 5), (3, 9), (7, 10)]


@pytest.mark.parametrize("name", CHAINS)
def test_the_rows_a_tile_names_are_exactly_the_span_its_outputs_read(name):
    """Brute force: output rows [lo, hi) read the rows their taps land on; the tile holds the
    span from the first to the last (a dilated kernel's gaps inside it), and the padding is the
    span's part outside the input. A window one row too small or too large fails."""
    chain, _, _, _ = build(CHAINS[name], 16, seed=0)
    for op in chain:
        for lo, hi in itertools.combinations(range(op.out_rows + 1), 2):
            read = {r * op.stride - op.pad_top + t * op.dilation for r in range(lo, hi) for t in range(op.kernel)}
            span = range(min(read), max(read) + 1)
            inside = [v for v in span if 0 <= v < op.in_rows]
            first, end = op.reads((lo, hi))
            assert list(range(first, end)) == inside, (op, lo, hi)
            assert op.padding((lo, hi)) == (sum(v < 0 for v in span), sum(v >= op.in_rows for v in span)), (op, lo, hi)


def test_halos_are_recomputed_and_a_tile_holds_less_than_the_whole_tensors():
    """Two 3x3 convs over 16 rows of 100 bytes: tiles of 4 output rows compute 6 rows of the
    intermediate (4 + a halo row each side, less at the borders): 6 recomputed rows over 4
    tiles; a tile holds its input window's rows and its intermediate rows, beside the whole
    input and output."""
    chain = [window(16, kernel=3, pad_top=1, pad_bottom=1), window(16, kernel=3, pad_top=1, pad_bottom=1)]
    assert [tile[1] for tile in tiles(chain, 4)] == [(0, 5), (3, 9), (7, 13), (11, 16)]
    assert recomputed_rows(chain, 4) == 5 + 6 + 6 + 5 - 16
    assert recomputed_rows(chain, 16) == 0
    sizes = [100, 100, 100]
    assert tile_bytes(chain, sizes, 4) == 1600 + 1600 + 6 * 100
    assert tile_bytes(chain, sizes, 16) == 1600 + 1600 + 1600


def test_the_largest_tile_fits_the_budget_and_one_row_more_does_not():
    chain = [window(64, kernel=3, pad_top=1, pad_bottom=1), window(64, kernel=3, stride=2, pad_top=1, pad_bottom=1)]
    sizes = [64, 256, 128]
    for budget in (64 * 64 + 32 * 128 + 3 * 256, 64 * 64 + 32 * 128 + 10 * 256, 10**6):
        rows = largest_tile(chain, sizes, budget)
        assert tile_bytes(chain, sizes, rows) <= budget
        assert rows == chain[-1].out_rows or tile_bytes(chain, sizes, rows + 1) > budget
    assert largest_tile(chain, sizes, 64 * 64 + 32 * 128) is None
    exact = tile_bytes(chain, sizes, 5)
    assert tile_bytes(chain, sizes, 6) > exact and largest_tile(chain, sizes, exact) == 5  # a budget met exactly fits


def test_a_chain_whose_ops_disagree_on_rows_is_refused():
    with pytest.raises(ValueError, match="op 0 writes 8 rows, op 1 reads 9"):
        chain_rows([window(8), window(9)], (0, 1))
    with pytest.raises(ValueError, match="not a row window"):
        RowWindow(8, 8, kernel=0)


def diamond(height: int, seed: int):
    """x -> a (3x3 conv) -> b (3x3 conv, stride 2) and c (1x1 conv, stride 2), both reading a;
    d = b + c, which reads both along the same rows: a RowGraph of 4 ops over one input."""
    a = window(height, kernel=3, pad_top=1, pad_bottom=1)
    b = window(height, kernel=3, stride=2, pad_top=1, pad_bottom=1)
    c = window(height, kernel=1, stride=2)
    d = RowWindow(b.out_rows, b.out_rows)
    graph = RowGraph(1, (((0, a),), ((1, b),), ((1, c),), ((2, d), (3, d))))
    rng = np.random.default_rng(seed)
    weights = [rng.standard_normal(w.kernel).astype(np.float32) for w in (a, b, c)]
    return graph, weights, rng.standard_normal((height, 5)).astype(np.float32)


def run_graph_op(graph: RowGraph, k: int, weights, sources: list[np.ndarray], rows) -> np.ndarray:
    """Op ``k`` of ``diamond`` on output ``rows``, from its operands' rows it reads."""
    if k == 3:
        return sources[0] + sources[1]
    window = graph.reads[k][0][1]
    top, bottom = window.padding(rows)
    return run_op(window, "conv", weights[k], sources[0], top, bottom)


def graph_whole(graph, weights, x):
    tensors = [x]
    for k, reads in enumerate(graph.reads):
        rows = (0, reads[0][1].out_rows)
        tensors.append(run_graph_op(graph, k, weights, [tensors[t] for t, _ in reads], rows))
    return tensors[-1]


def graph_tiled(graph, weights, x, tile_rows, roll):
    """The graph's output tile by tile: every tensor held in one array, NaN until computed;
    a row an op reads before it is computed fails, and with rolling buffers so does a row
    computed twice."""
    tensors = [x] + [np.full((graph.height_of(graph.inputs + k), x.shape[1]), np.nan, x.dtype) for k in range(len(graph.reads))]
    for tile in (rolling_tiles if roll else tiles)(graph, tile_rows):
        fresh = [np.full_like(t, np.nan) for t in tensors[1:]] if not roll else tensors[1:]
        current = [x, *fresh]
        for k, reads in enumerate(graph.reads):
            lo, hi = tile[graph.inputs + k]
            if hi <= lo:
                continue
            sources = []
            for t, window in reads:
                first, end = window.reads((lo, hi))
                assert not np.isnan(current[t][first:end]).any(), "a row read before it was computed"
                sources.append(current[t][first:end])
            target = current[graph.inputs + k]
            assert not roll or np.isnan(target[lo:hi]).all(), "a row computed twice"
            target[lo:hi] = run_graph_op(graph, k, weights, sources, (lo, hi))
        if not roll:
            lo, hi = tile[-1]
            tensors[-1][lo:hi] = current[-1][lo:hi]
    return tensors[-1]


@pytest.mark.parametrize("height", [11, 16])
@pytest.mark.parametrize("roll", [False, True], ids=["halos recomputed", "rolling buffers"])
def test_a_graph_whose_tensor_two_ops_read_is_computed_on_the_hull_of_their_rows(height, roll):
    """The diamond tile by tile, every tile size: each tensor on the rows ``chain_rows`` names
    (for ``a``, the hull of what ``b`` and ``c`` read) gives the untiled output bit for bit."""
    graph, weights, x = diamond(height, seed=height)
    want = graph_whole(graph, weights, x)
    for tile_rows in range(1, graph.height + 1):
        assert np.array_equal(graph_tiled(graph, weights, x, tile_rows, roll), want), tile_rows


def test_a_tensor_two_ops_read_is_needed_on_the_hull_of_their_rows():
    graph, _, _ = diamond(16, seed=0)
    rows = chain_rows(graph, (2, 4))
    b_reads, c_reads = graph.reads[1][0][1].reads((2, 4)), graph.reads[2][0][1].reads((2, 4))
    assert b_reads == (3, 8) and c_reads == (4, 7)
    assert rows[1] == (3, 8) and rows[0] == (2, 9)  # a on the hull; x on what a reads of it
    assert tiles(graph, 4)[1][1] == (7, 16)  # the second tile's rows of a: b reads 7-15, c 8-14
    assert recomputed_rows(graph, 4) == (8 + 9) - 16  # a's halo row, computed by both tiles; b and c none


def test_a_graph_reading_a_tensor_not_yet_written_or_of_other_rows_is_refused():
    a, b = window(8, kernel=3, pad_top=1, pad_bottom=1), window(8)
    with pytest.raises(ValueError, match="op 0 reads tensor 1"):
        RowGraph(1, (((1, a),), ((1, b),)))
    with pytest.raises(ValueError, match="op 0 writes 8 rows, op 1 reads 9"):
        RowGraph(1, (((0, a),), ((1, window(9)),)))
    with pytest.raises(ValueError, match="every window writing the same rows"):
        RowGraph(1, (((0, a),), ((1, b), (0, window(8, stride=2))),))
    with pytest.raises(ValueError, match="input 0 has 8 rows, op 1 reads 16"):  # two readers of one input disagree
        RowGraph(1, (((0, a),), ((1, b), (0, window(16, stride=2)))))
