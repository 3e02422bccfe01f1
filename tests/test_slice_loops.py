"""nn-roll-slices: sliced compute as scf.for loops in the flat form, run, checked and unrolled."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import EXAMPLES
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import DenseArrayBase, StringAttr, i64

from cfmem.differential import check
from cfmem.dma.timing import Chip
from cfmem.fit import compile_for_budget
from cfmem.interp.coverage import branch_covering_inputs
from cfmem.interp.flat import ClobberError, run_flat
from cfmem.interp.golden import run_function
from cfmem.ir_io import CfmemError, load_module, parse_module
from cfmem.mlir_check.jit import mlir_available
from cfmem.passes.lower_to_memref import TENSOR_ATTR
from cfmem.passes.slice_loops import TENSOR_INDEX_ATTR, roll_slices, unroll_loops
from cfmem.pipeline import apply_pipeline

GEMM_IN_EIGHT_SLICES = """
nn.global @w size(4096) seed(1)
func.func @main(%x: tensor<1x16xf32>) -> tensor<1x8xf32> {
  %blob = nn.get_global @w : tensor<4096xi8>
  %k = nn.view %blob[0] bytes(512) : tensor<4096xi8> to tensor<8x16xf32>
  %b = nn.view %blob[512] bytes(32) : tensor<4096xi8> to tensor<8xf32>
  %fc = nn.gemm %x, %k, %b {trans_b = true, cfmem.slices = 8 : i64} : (tensor<1x16xf32>, tensor<8x16xf32>, tensor<8xf32>) -> tensor<1x8xf32>
  %y = nn.relu %fc : (tensor<1x8xf32>) -> tensor<1x8xf32>
  func.return %y : tensor<1x8xf32>
}
"""
LOWER = "nn-slice-weights,nn-insert-dma,nn-plan-memory{strategy=sequential},nn-lower-to-memref"


def _gemm(rows: int, slices: int) -> str:
    """GEMM_IN_EIGHT_SLICES with ``rows`` output rows cut into ``slices``."""
    return (GEMM_IN_EIGHT_SLICES.replace("cfmem.slices = 8", f"cfmem.slices = {slices}")
            .replace("8x16xf32", f"{rows}x16xf32").replace("1x8xf32", f"1x{rows}xf32")
            .replace("bytes(512)", f"bytes({rows * 64})").replace("[512] bytes(32)", f"[{rows * 64}] bytes({rows * 4})")
            .replace("tensor<8xf32>", f"tensor<{rows}xf32>"))  # fmt: skip


def _flat_pair(slices: int = 8, loops: int | None = 1, rows: int = 8):
    """The sliced tensor-level module (the reference), its flat form unrolled, and the same rolled."""
    model, _ = parse_module(_gemm(rows, slices))
    apply_pipeline(model, "nn-slice-weights")
    unrolled = model.clone()
    apply_pipeline(unrolled, LOWER.removeprefix("nn-slice-weights,"))
    rolled = unrolled.clone()
    made = roll_slices(rolled)
    assert loops is None or made == loops
    rolled.verify()
    return model, unrolled, rolled


def _inputs(seed: int) -> dict[str, np.ndarray]:
    return {"x": np.random.default_rng(seed).standard_normal((1, 16)).astype(np.float32)}


def _loop(module) -> scf.ForOp:
    loops = [op for op in module.walk() if isinstance(op, scf.ForOp)]
    assert len(loops) == 1
    return loops[0]


def test_the_rolled_loop_computes_the_unrolled_slices_bit_for_bit():
    model, unrolled, rolled = _flat_pair()
    loop = _loop(rolled)
    applies = [op for op in loop.body.block.ops if op.name == "nn.apply"]
    assert len(applies) == 2  # two slices a trip: the DMA buffers alternate
    assert sum(1 for _ in rolled.walk()) < sum(1 for _ in unrolled.walk())
    for seed in range(3):
        inputs = _inputs(seed)
        want = run_function(model, inputs).outputs["y"]
        assert np.array_equal(run_flat(unrolled, inputs).outputs["y"], want)
        assert np.array_equal(run_flat(rolled, inputs).outputs["y"], want)


@pytest.mark.parametrize("slices", [12, 16, 20])
def test_uneven_slices_roll_only_where_transfer_sizes_stay_constant(slices):
    """24 rows in 12 to 20 slices: of two rows, then of one. Two groups' sizes always form a
    progression; a loop must still never make a transfer's size step (upstream MLIR needs it constant)."""
    model, _, rolled = _flat_pair(slices, loops=None, rows=24)
    for loop in (op for op in rolled.walk() if isinstance(op, scf.ForOp)):
        for transfer in (op for op in loop.walk() if isinstance(op, memref.DmaStartOp | memref.DmaWaitOp)):
            assert isinstance(transfer.num_elements.owner, arith.ConstantOp)
    for seed in range(2):
        inputs = _inputs(seed)
        assert np.array_equal(run_flat(rolled, inputs).outputs["y"], run_function(model, inputs).outputs["y"])


def test_unrolling_gives_straight_line_code_with_every_slice_named_again():
    model, _, rolled = _flat_pair()
    back = rolled.clone()
    fn = next(op for op in back.ops if op.name == "func.func")
    unroll_loops(fn)
    back.verify()
    assert not any(isinstance(op, scf.ForOp) for op in back.walk())
    names = {op.attributes[TENSOR_ATTR].data for op in back.walk() if TENSOR_ATTR in op.attributes}
    assert {f"k_s{k}_sram" for k in range(8)} <= names and {f"fc_s{k}" for k in range(8)} <= names
    assert not any(TENSOR_INDEX_ATTR in op.attributes for op in back.walk())
    inputs = _inputs(7)
    assert np.array_equal(run_flat(back, inputs).outputs["y"], run_function(model, inputs).outputs["y"])


def test_a_trip_named_for_the_wrong_slice_is_an_ownership_error():
    _, _, rolled = _flat_pair()
    view = next(op for op in _loop(rolled).body.block.ops
                if isinstance(op, memref.ViewOp) and op.attributes.get(TENSOR_ATTR) == StringAttr("k_s{}_sram"))  # fmt: skip
    view.attributes[TENSOR_INDEX_ATTR] = DenseArrayBase.from_list(i64, [1, 2])  # reads slice 1's name, DMA wrote slice 0
    with pytest.raises(ClobberError, match=r"reads %k_s1_sram but %k_s0_sram overwrote"):
        run_flat(rolled, _inputs(0))


def test_a_wrong_output_offset_in_the_loop_leaves_slice_bytes_unwritten():
    _, _, rolled = _flat_pair()
    out_view = next(op for op in _loop(rolled).body.block.ops
                    if isinstance(op, memref.ViewOp) and op.attributes.get(TENSOR_ATTR) == StringAttr("fc_s{}"))  # fmt: skip
    offset = out_view.byte_shift.owner
    assert isinstance(offset, arith.AddiOp)
    second = next(op for op in _loop(rolled).body.block.ops
                  if isinstance(op, memref.ViewOp) and op is not out_view and op.attributes.get(TENSOR_ATTR) == StringAttr("fc_s{}"))  # fmt: skip
    offset.operands[1] = second.byte_shift.owner.operands[1]  # both slices of a trip written to the second's bytes
    with pytest.raises(ClobberError, match="nothing wrote"):
        run_flat(rolled, _inputs(0))


def test_a_loop_reading_a_buffer_before_its_wait_is_a_dma_hazard_and_a_clobber():
    _, _, rolled = _flat_pair()
    body = _loop(rolled).body.block
    for wait in [op for op in body.ops if isinstance(op, memref.DmaWaitOp)][:2]:
        wait.detach()
        wait.erase()
    with pytest.raises(CfmemError, match="DMA hazard"):
        apply_pipeline(rolled.clone(), "nn-check-dma")
    with pytest.raises(ClobberError, match="has not been waited for"):
        run_flat(rolled, _inputs(0))


def test_cfmem_compile_rolls_by_default_and_keeps_the_slices_with_unrolled():
    model, _ = load_module(EXAMPLES / "bigfc.mlir")
    rolled = compile_for_budget(model, Chip(), 262_144, EXAMPLES)
    unrolled = compile_for_budget(model, Chip(), 262_144, EXAMPLES, roll=False)
    assert sum(isinstance(op, scf.ForOp) for op in rolled.flat.walk()) == 1
    assert not any(isinstance(op, scf.ForOp) for op in unrolled.flat.walk())
    for inputs, _ in branch_covering_inputs(model, base_dir=EXAMPLES):
        a, b = run_flat(rolled.flat, inputs).outputs, run_flat(unrolled.flat, inputs).outputs
        assert all(np.array_equal(a[k], b[k]) for k in a)


@pytest.mark.skipif(not mlir_available(), reason="needs the mlir extra")
def test_upstream_mlir_runs_the_rolled_loop_like_the_flat_interpreter():
    model, _, rolled = _flat_pair()
    rows = check(model, rolled, [_inputs(seed) for seed in range(2)])
    assert all(row.ok() for row in rows), rows


def _swap_weight_offsets(flat, a: int, b: int) -> None:
    """Slices ``a`` and ``b`` of %k read each other's weights: the blob offsets of their DMA
    sources (or, read off chip, of their weight views) swapped."""
    readers = {}
    for op in flat.walk():
        if isinstance(op, memref.DmaStartOp) and op.attributes.get(TENSOR_ATTR) in (StringAttr(f"k_s{a}_sram"), StringAttr(f"k_s{b}_sram")):  # fmt: skip
            readers[op.attributes[TENSOR_ATTR].data.removesuffix("_sram")] = op
        elif isinstance(op, memref.ViewOp) and op.result.name_hint in (f"k_s{a}", f"k_s{b}") and op.source.name_hint == "blob":  # fmt: skip
            readers[op.result.name_hint] = op
    first, second = readers[f"k_s{a}"], readers[f"k_s{b}"]
    offset = first.operands[1]
    first.operands[1] = second.operands[1]
    second.operands[1] = offset


@pytest.mark.parametrize("dma", ["nn-insert-dma", "nn-insert-dma{dma-budget=16}"], ids=["streamed", "offchip"])
def test_offsets_that_stop_stepping_after_the_first_two_slices_are_not_rolled_as_a_progression(dma):
    """The last two slices' weight offsets swapped: the first groups still step evenly, so a roll
    that checked only the first two offsets would compute the unswapped slices."""
    model, _ = parse_module(_gemm(8, 8))
    apply_pipeline(model, LOWER.replace("nn-insert-dma", dma))
    swapped = model.clone()
    _swap_weight_offsets(swapped, 5, 7)  # streamed: the second slice of the last two groups of two
    rolled = swapped.clone()
    roll_slices(rolled)
    rolled.verify()
    for seed in range(2):
        inputs = _inputs(seed)
        want = run_flat(swapped, inputs).outputs["y"]
        assert not np.array_equal(want, run_flat(model, inputs).outputs["y"])  # the swap changes the numbers
        assert np.array_equal(run_flat(rolled, inputs).outputs["y"], want)


TWO_UNNAMED_GEMMS = """nn.global @w size(4096) seed(1)
func.func @main(%0: tensor<1x8xf32>) -> tensor<1x8xf32> {
  %1 = nn.get_global @w : tensor<4096xi8>
  %2 = nn.view %1[0] bytes(256) : tensor<4096xi8> to tensor<8x8xf32>
  %3 = nn.view %1[512] bytes(32) : tensor<4096xi8> to tensor<8xf32>
  %4 = nn.gemm %0, %2, %3 {trans_b = true, cfmem.slices = 8 : i64} : (tensor<1x8xf32>, tensor<8x8xf32>, tensor<8xf32>) -> tensor<1x8xf32>
  %5 = nn.view %1[1024] bytes(256) : tensor<4096xi8> to tensor<8x8xf32>
  %6 = nn.view %1[1536] bytes(32) : tensor<4096xi8> to tensor<8xf32>
  %7 = nn.gemm %0, %5, %6 {trans_b = true, cfmem.slices = 8 : i64} : (tensor<1x8xf32>, tensor<8x8xf32>, tensor<8xf32>) -> tensor<1x8xf32>
  %8 = nn.add %4, %7 : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
  func.return %8 : tensor<1x8xf32>
}
"""


def test_slices_of_unnamed_ops_roll_op_by_op():
    """Without value names each sliced op still has an id of its own, so every op's slices are
    tried as a run (under one shared id only runs from the first op's first slice were)."""
    model, _ = parse_module(TWO_UNNAMED_GEMMS)
    apply_pipeline(model, "nn-slice-weights")
    rolled = model.clone()
    apply_pipeline(rolled, LOWER.removeprefix("nn-slice-weights,"))
    assert roll_slices(rolled) >= 1
    rolled.verify()
    for loop in (op for op in rolled.walk() if isinstance(op, scf.ForOp)):
        assert len({op.attributes["cfmem.slice_of"] for op in loop.walk() if "cfmem.slice_of" in op.attributes}) == 1
    for seed in range(2):
        inputs = {"arg0": _inputs(seed)["x"][:, :8]}
        assert np.array_equal(run_flat(rolled, inputs).outputs["result0"], run_function(model, inputs).outputs["result0"])
