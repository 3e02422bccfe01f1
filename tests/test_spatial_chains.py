"""Chains of row-tileable ops read from nn IR (cfmem.passes.spatial_chains): which ops have a
row window and what it is, where a chain stops, and on the zoo's CNNs that every chain's windows
agree with the tensors' shapes."""

import pytest

from cfmem.ir_io import parse_module
from cfmem.passes.liveness import functions
from cfmem.passes.spatial_chains import cheapest_end, row_window, spatial_chains
from cfmem.planning.tiling import RowWindow, chain_rows, tiles

CHAINS = """
nn.global @w size(4096) seed(1)
func.func @main(%x: tensor<1x2x16x8xf32>, %s: tensor<1x4x1x1xf32>) -> (tensor<1x4x4x4xf32>, tensor<1x4x8x4xf32>) {
  %blob = nn.get_global @w : tensor<4096xi8>
  %w1 = nn.view %blob[0] bytes(288) : tensor<4096xi8> to tensor<4x2x3x3xf32>
  %w2 = nn.view %blob[512] bytes(576) : tensor<4096xi8> to tensor<4x4x3x3xf32>
  %p = nn.pad %x {pads = array<i64: 0, 0, 1, 0, 0, 0, 2, 0>} : (tensor<1x2x16x8xf32>) -> tensor<1x2x19x8xf32>
  %c1 = nn.conv2d %p, %w1 {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x19x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x10x4xf32>
  %r = nn.relu %c1 : (tensor<1x4x10x4xf32>) -> tensor<1x4x10x4xf32>
  %b = nn.mul %r, %s : (tensor<1x4x10x4xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x10x4xf32>
  %m = nn.max_pool2d %b {kernel = array<i64: 3, 3>, pads = array<i64: 0, 0, 0, 0>} : (tensor<1x4x10x4xf32>) -> tensor<1x4x8x2xf32>
  %c2 = nn.conv2d %b, %w2 {dilations = array<i64: 2, 2>, pads = array<i64: 0, 2, 0, 2>} : (tensor<1x4x10x4xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x4xf32>
  %t = nn.tanh %c2 : (tensor<1x4x6x4xf32>) -> tensor<1x4x6x4xf32>
  %u = nn.add %t, %t : (tensor<1x4x6x4xf32>, tensor<1x4x6x4xf32>) -> tensor<1x4x6x4xf32>
  %q = nn.max_pool2d %u {kernel = array<i64: 2, 1>, strides = array<i64: 1, 1>} : (tensor<1x4x6x4xf32>) -> tensor<1x4x5x4xf32>
  %v = nn.avg_pool2d %q {kernel = array<i64: 2, 1>} : (tensor<1x4x5x4xf32>) -> tensor<1x4x4x4xf32>
  %z = nn.max_pool2d %m {kernel = array<i64: 1, 1>} : (tensor<1x4x8x2xf32>) -> tensor<1x4x8x2xf32>
  %zz = nn.relu %z : (tensor<1x4x8x2xf32>) -> tensor<1x4x8x2xf32>
  %y = nn.pad %zz {pads = array<i64: 0, 0, 0, 0, 0, 0, 0, 2>} : (tensor<1x4x8x2xf32>) -> tensor<1x4x8x4xf32>
  func.return %v, %y : tensor<1x4x4x4xf32>, tensor<1x4x8x4xf32>
}
"""
"""%p..%b end where %b has two readers; %c2 %t end at %u (it reads %t twice, not as one row
window); %q %v; %m %z %zz, not %y: the pad doubles the rows' bytes, and ending at it would hold
its 512 bytes twice (whole and in tiles) where computing it whole after %zz holds 768."""


def _ops(text):
    module, _ = parse_module(text)
    fn = functions(module)[0]
    return fn, {op.results[0].name_hint: op for op in fn.walk() if op.results and op.results[0].name_hint}


def test_each_op_has_the_row_window_of_its_padding_stride_dilation_and_kernel():
    _, ops = _ops(CHAINS)
    assert row_window(ops["p"]) == RowWindow(16, 19, pad_top=1)
    assert row_window(ops["c1"]) == RowWindow(19, 10, kernel=3, stride=2, pad_top=1)
    assert row_window(ops["r"]) == RowWindow(10, 10)
    assert row_window(ops["b"]) == RowWindow(10, 10)  # %s is the same for every row
    assert row_window(ops["m"]) == RowWindow(10, 8, kernel=3)
    assert row_window(ops["c2"]) == RowWindow(10, 6, kernel=3, dilation=2)
    assert row_window(ops["u"]) is None  # its second operand needs the same rows: not a window of one input
    assert row_window(ops["v"]) == RowWindow(5, 4, kernel=2)
    assert row_window(ops["w1"]) is None


def test_a_chain_ends_where_a_result_has_another_reader_or_the_next_op_has_no_window():
    fn, ops = _ops(CHAINS)
    found = [[op.results[0].name_hint for op in chain.ops] for chain in spatial_chains(fn.body.block)]
    assert found == [["p", "c1", "r", "b"], ["m", "z", "zz"], ["c2", "t"], ["q", "v"]]
    first = spatial_chains(fn.body.block)[0]
    assert first.row_bytes == (2 * 8 * 4, 2 * 8 * 4, 4 * 4 * 4, 4 * 4 * 4, 4 * 4 * 4)
    assert [len(c.ops) for c in spatial_chains(fn.body.block, shortest=4)] == [4, 4]
    assert spatial_chains(fn.body.block, shortest=5) == []


BROADCAST_READER = """
func.func @main(%x: tensor<1x4x6x6xf32>, %s: tensor<1x4x1x1xf32>) -> tensor<1x4x6x6xf32> {
  %g0 = nn.relu %s : (tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
  %g = nn.tanh %g0 : (tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
  %h = nn.mul %x, %g : (tensor<1x4x6x6xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x6x6xf32>
  %k = nn.relu %h : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  func.return %k : tensor<1x4x6x6xf32>
}
"""

@pytest.mark.parametrize("name", ["dscnn", "mobilenet_v2", "squeezenet1_1_int8_qdq"])
def test_the_zoos_chains_agree_with_their_tensors_shapes(name):
    """Every chain of a real CNN: consecutive windows agree on rows, each window's rows are its
    tensors' heights, and the tiles of one row cover every output row once."""
    from cfmem.dialects.types import static_shape
    from cfmem.importers.onnx import import_onnx
    from cfmem.testing import onnx_models as om
    from cfmem.testing import zoo

    if not om.torch_available():
        pytest.skip("needs the torch extra")
    model = zoo.zoo_model(name)
    module = import_onnx(model.path(), blob_file="w.bin", input_shapes=model.shapes).module
    chains = [c for fn in functions(module) for c in spatial_chains(fn.body.block)]
    assert chains, f"{name} has no chain of row-tileable ops"
    for chain in chains:
        for op, window in zip(chain.ops, chain.windows):
            assert (window.in_rows, window.out_rows) == (static_shape(op.operands[0].type)[2], static_shape(op.results[0].type)[2])
        chain_rows(list(chain.windows), (0, 1))
        covered = [tile[-1] for tile in tiles(list(chain.windows), 1)]
        assert covered == [(r, r + 1) for r in range(chain.windows[-1].out_rows)]


def test_a_run_ends_where_its_last_result_twice_and_the_ops_after_it_whole_hold_the_fewest_bytes():
    assert cheapest_end([4, 8, 8, 8], 2) == 3  # equals: the longest run
    assert cheapest_end([2, 8, 8, 8, 32], 2) == 3  # an int8 run before its dequantize: 8+32 < 2*32
    assert cheapest_end([2, 8, 8, 8, 9], 2) == 3  # ending at 9 holds 18; before it, 8 + 9 = 17
    assert cheapest_end([2, 32, 4], 1) == 2  # ending at 32 holds 64, at 4 holds 8
    assert cheapest_end([2, 32, 4], 2) == 2  # never fewer than shortest ops
