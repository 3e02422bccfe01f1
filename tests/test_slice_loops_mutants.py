"""nn-roll-slices in detail: which runs roll and how far, the loop's bounds and names, the
constants and views it leaves behind, and unroll_loops on loops the pass does not make itself."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import StringAttr

from cfmem.interp.flat import run_flat
from cfmem.interp.golden import run_function
from cfmem.ir_io import parse_module
from cfmem.passes.lower_to_memref import TENSOR_ATTR
from cfmem.passes.slice_loops import (
    MAX_GROUP,
    TENSOR_INDEX_ATTR,
    RollSlicesPass,
    index_constant,
    roll_slices,
    unroll_loops,
)
from cfmem.pipeline import apply_pipeline

LOWER = "nn-slice-weights,{dma},nn-plan-memory{{strategy=sequential}},nn-lower-to-memref"
STREAMED = "nn-insert-dma"
OFFCHIP = "nn-insert-dma{dma-budget=16}"


def _gemm(rows: int, slices: int, name: str = "fc", weight: str = "k") -> str:
    """One GEMM of ``rows`` output rows cut into ``slices``, its result named ``name``."""
    return f"""
nn.global @w size(8192) seed(1)
func.func @main(%x: tensor<1x16xf32>) -> tensor<1x{rows}xf32> {{
  %blob = nn.get_global @w : tensor<8192xi8>
  %{weight} = nn.view %blob[0] bytes({rows * 64}) : tensor<8192xi8> to tensor<{rows}x16xf32>
  %b = nn.view %blob[{rows * 64}] bytes({rows * 4}) : tensor<8192xi8> to tensor<{rows}xf32>
  %{name} = nn.gemm %x, %{weight}, %b {{trans_b = true, cfmem.slices = {slices} : i64}} : (tensor<1x16xf32>, tensor<{rows}x16xf32>, tensor<{rows}xf32>) -> tensor<1x{rows}xf32>
  %y = nn.relu %{name} : (tensor<1x{rows}xf32>) -> tensor<1x{rows}xf32>
  func.return %y : tensor<1x{rows}xf32>
}}
"""


TWO_GEMMS = """
nn.global @w size(8192) seed(2)
func.func @main(%x: tensor<1x16xf32>) -> tensor<1x8xf32> {
  %blob = nn.get_global @w : tensor<8192xi8>
  %k1 = nn.view %blob[0] bytes(1024) : tensor<8192xi8> to tensor<16x16xf32>
  %b1 = nn.view %blob[1024] bytes(64) : tensor<8192xi8> to tensor<16xf32>
  %k2 = nn.view %blob[1088] bytes(512) : tensor<8192xi8> to tensor<8x16xf32>
  %b2 = nn.view %blob[1600] bytes(32) : tensor<8192xi8> to tensor<8xf32>
  %fc1 = nn.gemm %x, %k1, %b1 {trans_b = true, cfmem.slices = 8 : i64} : (tensor<1x16xf32>, tensor<16x16xf32>, tensor<16xf32>) -> tensor<1x16xf32>
  %fc2 = nn.gemm %fc1, %k2, %b2 {trans_b = true, cfmem.slices = 8 : i64} : (tensor<1x16xf32>, tensor<8x16xf32>, tensor<8xf32>) -> tensor<1x8xf32>
  %y = nn.relu %fc2 : (tensor<1x8xf32>) -> tensor<1x8xf32>
  func.return %y : tensor<1x8xf32>
}
"""

GEMM_IN_A_BRANCH = """
nn.global @w size(8192) seed(3)
func.func @main(%x: tensor<1x16xf32>, %c: tensor<1xi1>) -> tensor<1x8xf32> {
  %y = nn.if %c : tensor<1xi1> -> (tensor<1x8xf32>) {
    %blob = nn.get_global @w : tensor<8192xi8>
    %k = nn.view %blob[0] bytes(512) : tensor<8192xi8> to tensor<8x16xf32>
    %b = nn.view %blob[512] bytes(32) : tensor<8192xi8> to tensor<8xf32>
    %fc = nn.gemm %x, %k, %b {trans_b = true, cfmem.slices = 8 : i64} : (tensor<1x16xf32>, tensor<8x16xf32>, tensor<8xf32>) -> tensor<1x8xf32>
    nn.yield %fc : tensor<1x8xf32>
  } else {
    %r = nn.relu %x : (tensor<1x16xf32>) -> tensor<1x16xf32>
    %s = nn.slice %r {starts = array<i64: 0, 0>, ends = array<i64: 1, 8>} : (tensor<1x16xf32>) -> tensor<1x8xf32>
    nn.yield %s : tensor<1x8xf32>
  }
  func.return %y : tensor<1x8xf32>
}
"""


def _models(source: str, dma: str):
    """The sliced tensor-level module (the reference), its flat form, and the flat form rolled."""
    model, _ = parse_module(source)
    apply_pipeline(model, "nn-slice-weights")
    flat = model.clone()
    apply_pipeline(flat, LOWER.format(dma=dma).removeprefix("nn-slice-weights,"))
    rolled = flat.clone()
    made = roll_slices(rolled)
    rolled.verify()
    return model, flat, rolled, made


def _loops(module) -> list[scf.ForOp]:
    return [op for op in module.walk() if isinstance(op, scf.ForOp)]


def _shape(loop: scf.ForOp) -> tuple[int | None, int | None, int | None, int]:
    """(lower, upper, step, slices a trip)."""
    slices = sum(1 for op in loop.body.block.ops if "cfmem.slice_of" in op.attributes)
    return index_constant(loop.lb), index_constant(loop.ub), index_constant(loop.step), slices


def _unrolled_slices(module) -> int:
    return sum(1 for op in module.walk() if "cfmem.slice_of" in op.attributes and not isinstance(op.parent_op(), scf.ForOp))


def _same_numbers(model, *flats, seeds=(0, 1), extra=None) -> None:
    for seed in seeds:
        inputs = {"x": np.random.default_rng(seed).standard_normal((1, 16)).astype(np.float32), **(extra or {})}
        want = run_function(model, inputs).outputs["y"]
        for flat in flats:
            assert np.array_equal(run_flat(flat, inputs).outputs["y"], want)


def _entry(module):
    return next(op for op in module.ops if op.name == "func.func").body.block


# Which runs roll, and how far.


@pytest.mark.parametrize(
    ("slices", "depth"),
    [(6, 2), (7, 2), (8, 2), (16, 2), (8, 3), (18, 3), (MAX_GROUP + 15, MAX_GROUP)],
)
def test_streamed_slices_roll_in_groups_of_the_buffer_rotation(slices, depth):
    """With ``depth`` DMA buffers, slice k starts slice k + depth - 1's transfer, so every slice but
    the last depth - 1 is the same iteration; a trip holds ``depth`` of them (the buffers are the same
    on every trip), and the loop takes as many whole groups as those slices make."""
    dma = STREAMED if depth == 2 else f"nn-insert-dma{{depth={depth}}}"
    model, flat, rolled, made = _models(_gemm(2 * slices, slices), dma)
    trips = (slices - depth + 1) // depth
    assert made == 1
    assert [_shape(loop) for loop in _loops(rolled)] == [(0, trips, 1, depth)]
    assert _unrolled_slices(rolled) == slices - trips * depth
    _same_numbers(model, rolled)


def test_a_rotation_deeper_than_max_group_stays_unrolled():
    _, _, rolled, made = _models(_gemm(2 * (MAX_GROUP + 6), MAX_GROUP + 6), f"nn-insert-dma{{depth={MAX_GROUP + 1}}}")
    assert made == 0 and not _loops(rolled)


@pytest.mark.parametrize("slices", [2, 8])
def test_offchip_slices_roll_one_slice_a_trip(slices):
    """Read in place (no DMA buffers rotate), every slice is the same iteration: one slice a trip."""
    model, flat, rolled, made = _models(_gemm(2 * slices, slices), OFFCHIP)
    assert made == 1
    assert [_shape(loop) for loop in _loops(rolled)] == [(0, slices, 1, 1)]
    assert _unrolled_slices(rolled) == 0
    _same_numbers(model, rolled)


def test_every_sliced_op_of_a_block_gets_its_own_loop():
    model, flat, rolled, made = _models(TWO_GEMMS, STREAMED)
    assert made == 2
    assert [_shape(loop) for loop in _loops(rolled)] == [(0, 3, 1, 2), (0, 3, 1, 2)]
    slice_of = [{op.attributes["cfmem.slice_of"].data for op in loop.body.block.ops if "cfmem.slice_of" in op.attributes} for loop in _loops(rolled)]  # fmt: skip
    assert slice_of == [{"fc1"}, {"fc2"}]
    _same_numbers(model, rolled)


def test_slices_inside_a_branch_are_rolled():
    """Off chip, the branch block starts with the first slice's first op."""
    model, flat, rolled, made = _models(GEMM_IN_A_BRANCH, OFFCHIP)
    assert made == 1
    (loop,) = _loops(rolled)
    assert isinstance(loop.parent_op(), scf.IfOp)
    assert _shape(loop) == (0, 8, 1, 1)
    for cond in (True, False):
        _same_numbers(model, rolled, extra={"c": np.array([cond])})


def test_a_run_ends_where_the_slice_names_stop_counting():
    """A slice whose tensor has another name (same digits, other letters) is not one of the run."""
    _, flat, _, _ = _models(_gemm(16, 8), OFFCHIP)
    renamed = 0
    for op in flat.walk():
        if op.attributes.get(TENSOR_ATTR) == StringAttr("fc_s5"):
            op.attributes[TENSOR_ATTR] = StringAttr("fd_s5")
            renamed += 1
    assert renamed == 1
    roll_slices(flat)
    assert [_shape(loop) for loop in _loops(flat)] == [(0, 5, 1, 1)]


@pytest.mark.parametrize(("dma", "rows", "slices"), [(STREAMED, 6, 5), (STREAMED, 10, 9), (OFFCHIP, 24, 20)])
def test_a_bigger_first_slice_never_makes_a_transfer_size_step(dma, rows, slices):
    """The first slice has two rows, the rest one: a loop must not make a DMA size step between
    its first trip and the rest (only offsets step)."""
    model, _, rolled, _ = _models(_gemm(rows, slices), dma)
    for loop in _loops(rolled):
        for transfer in (op for op in loop.walk() if isinstance(op, memref.DmaStartOp | memref.DmaWaitOp)):
            assert isinstance(transfer.num_elements.owner, arith.ConstantOp)
    _same_numbers(model, rolled)


# Names.


def test_rolling_then_unrolling_gives_back_every_tensor_name_even_with_digits_in_names():
    """Op names with digits of their own (fc1, k1) count only the slice number."""
    model, flat, rolled, _ = _models(TWO_GEMMS, STREAMED)
    templates = {op.attributes[TENSOR_ATTR].data for loop in _loops(rolled) for op in loop.body.block.ops if TENSOR_INDEX_ATTR in op.attributes}  # fmt: skip
    assert {"k1_s{}_sram", "fc1_s{}", "k2_s{}_sram", "fc2_s{}"} <= templates
    back = rolled.clone()
    unroll_loops(next(op for op in back.ops if op.name == "func.func"))

    def names(module):
        return sorted(op.attributes[TENSOR_ATTR].data for op in module.walk() if TENSOR_ATTR in op.attributes)

    assert names(back) == names(flat)
    _same_numbers(model, back)


def test_the_loop_names_its_trip_and_its_values_like_the_unrolled_code():
    _, flat, rolled, _ = _models(_gemm(16, 8), STREAMED)
    (loop,) = _loops(rolled)
    assert loop.body.block.args[0].name_hint == "trip"
    assert "scf.for %trip = %c0 to %c3 step %c1" in str(rolled)
    hints = [r.name_hint for op in loop.body.block.ops for r in op.results]
    # a templated value is named after its template without the slice number
    assert {"k_s_sram", "b_s_sram", "fc_s"} <= set(hints)
    # an untemplated one (the next group's DMA tag) keeps its name
    allocas = [op for op in loop.body.block.ops if isinstance(op, memref.AllocaOp)]
    assert allocas and all((a.results[0].name_hint or "").startswith("tag") for a in allocas)


def test_the_loop_reuses_the_entry_constants_and_names_new_ones_by_value():
    _, _, rolled, _ = _models(_gemm(16, 8), STREAMED)
    constants = [op for op in _entry(rolled).ops if isinstance(op, arith.ConstantOp)]
    values = [index_constant(op.result) for op in constants]
    assert len(values) == len(set(values))  # the entry's own c0 and c1 serve as bounds, none twice
    assert all(op.result.name_hint == f"c{v}" for op, v in zip(constants, values))
    (loop,) = _loops(rolled)
    assert loop.ub.name_hint == "c3" and loop.ub.owner.parent_block() is _entry(rolled)


def test_offchip_weight_views_in_the_loop_keep_their_weight_names_and_unused_ones_go():
    model, _, rolled, _ = _models(_gemm(16, 8), OFFCHIP)
    (loop,) = _loops(rolled)
    weight_views = [op for op in loop.body.block.ops if isinstance(op, memref.ViewOp) and TENSOR_ATTR not in op.attributes]
    assert sorted(op.result.name_hint.split("_s")[0] for op in weight_views) == ["b", "k"]
    for op in _entry(rolled).ops:
        if isinstance(op, arith.ConstantOp | memref.ViewOp):
            assert any(r.uses for r in op.results), f"{op.results[0].name_hint} is left unused"
    assert not any(isinstance(op, memref.ViewOp) and op.result.name_hint.startswith(("k_s", "b_s")) for op in _entry(rolled).ops)
    _same_numbers(model, rolled)


# unroll_loops on loops of any bounds.

HAND_LOOP = """
builtin.module {
  func.func @f(%n: index, %buf: memref<64xi8>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c7 = arith.constant 7 : index
    scf.for %t = %c1 to %c7 step %c2 {
      %off = arith.muli %t, %c4 : index
      %end = arith.addi %off, %n : index
      %w = memref.view %buf[%off][] {cfmem.tensor = "w_s{}", cfmem.tensor_index = array<i64: 5, 3>} : memref<64xi8> to memref<1xf32>
      %s = memref.view %buf[%c0][] {cfmem.tensor = "scratch"} : memref<64xi8> to memref<1xf32>
    }
    func.return
  }
}
"""


def _hand_loop(text: str = HAND_LOOP):
    module, _ = parse_module(text)
    return module, next(op for op in module.ops if op.name == "func.func")


def test_unrolling_counts_trips_from_the_lower_bound_by_the_step():
    """Trips t = 1, 3, 5 are trips 0, 1, 2: tensor w_s{5 + 3 * trip}, offset 4 * t."""
    module, fn = _hand_loop()
    unroll_loops(fn)
    module.verify()
    assert not _loops(module)
    views = [op for op in fn.walk() if isinstance(op, memref.ViewOp)]
    names = [op.attributes[TENSOR_ATTR].data for op in views]
    assert names == ["w_s5", "scratch", "w_s8", "scratch", "w_s11", "scratch"]
    assert not any(TENSOR_INDEX_ATTR in op.attributes for op in views)
    assert [index_constant(op.byte_shift) for op in views[::2]] == [4, 12, 20]
    assert [op.result.name_hint for op in views] == ["w", "s"] * 3
    # arithmetic on a value that is not a constant stays as it is, on the folded offset
    ends = [op for op in fn.walk() if isinstance(op, arith.AddiOp)]
    assert [index_constant(op.lhs) for op in ends] == [4, 12, 20] and all(op.rhs is fn.args[0] for op in ends)
    assert all(op.result.name_hint == "end" for op in ends)


@pytest.mark.parametrize(
    "change",
    [("scf.for %t = %c1 to %c7", "scf.for %t = %c1 to %n"), ("scf.for %t = %c1 to %c7 step %c2", "scf.for %t = %n to %c7 step %c2")],
)
def test_unrolling_refuses_a_loop_without_constant_bounds(change):
    module, fn = _hand_loop(HAND_LOOP.replace(*change))
    with pytest.raises(ValueError, match=r"^unroll_loops: a loop without constant bounds or with results$"):
        unroll_loops(fn)


# Hand-written flat modules: runs the lowering does not make but the pass must still get right.


def _relu_slices(offsets: list[int], distinct: bool = True) -> str:
    """A flat module computing one relu slice into ``o_s{k}`` at byte ``offsets[k]`` of the arena,
    each offset its own constant op (``distinct``) or one constant op a value."""
    lines, made = [], {}
    for k, offset in enumerate(offsets):
        name = f"%off{k}" if distinct else f"%c{offset}"
        if distinct or offset not in made:
            lines.append(f"    {name} = arith.constant {offset} : index")
            made[offset] = name
    for k, offset in enumerate(offsets):
        name = f"%off{k}" if distinct else made[offset]
        lines.append(f"""    %o_s{k} = memref.view %arena[{name}][] {{cfmem.tensor = "o_s{k}"}} : memref<256xi8, 1 : i64> to memref<1x1xf32, 1 : i64>
    nn.apply ins(%x : memref<1x1xf32>) outs(%o_s{k} : memref<1x1xf32, 1 : i64>) attributes {{cfmem.slice_of = "o"}} {{
    ^bb0(%a{k}: tensor<1x1xf32>):
      %r{k} = nn.relu %a{k} : (tensor<1x1xf32>) -> tensor<1x1xf32>
      nn.yield %r{k} : tensor<1x1xf32>
    }}""")
    body = "\n".join(lines)
    return f"""builtin.module {{
  "memref.global"() <{{sym_name = "arena_main", type = memref<256xi8, 1 : i64>, initial_value, sym_visibility = "private"}}> : () -> ()
  func.func @main(%x: memref<1x1xf32>) {{
    %arena = memref.get_global @arena_main : memref<256xi8, 1 : i64>
{body}
    func.return
  }}
}}"""


def _views(module) -> list[tuple[str, int | None]]:
    return [(op.attributes[TENSOR_ATTR].data, index_constant(op.byte_shift)) for op in module.walk() if isinstance(op, memref.ViewOp)]


@pytest.mark.parametrize(
    ("offsets", "distinct", "shape"),
    [
        ([0, 1, 2, 3], True, (0, 4, 1, 1)),  # offsets stepping by one byte
        ([8, 8, 8], True, (0, 3, 1, 1)),  # three constant ops of one value: a step of zero
        ([0, 4, 16, 20, 32, 36], True, (0, 3, 1, 2)),  # pairs step evenly, single slices do not
        ([4, 4, 4], False, (0, 3, 1, 1)),  # one constant op: the same value on every trip
    ],
)
def test_a_rolled_hand_written_run_unrolls_to_the_same_offsets_and_names(offsets, distinct, shape):
    module, _ = parse_module(_relu_slices(offsets, distinct))
    want = _views(module)
    assert roll_slices(module) == 1
    module.verify()
    assert [_shape(loop) for loop in _loops(module)] == [shape]
    unroll_loops(next(op for op in module.ops if op.name == "func.func"))
    module.verify()
    assert _views(module) == want


def test_a_run_of_one_op_iterations_rolls():
    """Slices that are a single op each (every operand made before the run) are a run too."""
    text = _relu_slices([0, 0, 0], distinct=False)
    one_out = text.replace("outs(%o_s1 ", "outs(%o_s0 ").replace("outs(%o_s2 ", "outs(%o_s0 ")
    module, _ = parse_module(one_out)
    applies_before = [op for op in module.walk() if "cfmem.slice_of" in op.attributes]
    for name in ("%o_s1", "%o_s2"):  # drop the views nothing reads, so the applies are adjacent
        view = next(op for op in module.walk() if isinstance(op, memref.ViewOp) and f"%{op.result.name_hint}" == name)
        view.detach()
        view.erase()
    assert len(applies_before) == 3
    assert roll_slices(module) == 1
    module.verify()
    assert [_shape(loop) for loop in _loops(module)] == [(0, 3, 1, 1)]
    assert [op.name for op in _loops(module)[0].body.block.ops] == ["nn.apply", "scf.yield"]


@pytest.mark.parametrize(
    "change",
    [
        ("%r1 = nn.relu %a1", "%r1 = nn.sigmoid %a1"),  # another computation
        ('attributes {cfmem.slice_of = "o"} {\n    ^bb0(%a1', 'attributes {cfmem.slice_of = "o", extra} {\n    ^bb0(%a1'),
    ],
    ids=["region", "attribute"],
)
def test_a_second_slice_unlike_the_first_is_not_rolled_with_it(change):
    text = _relu_slices([0, 4, 8])
    assert change[0] in text
    module, _ = parse_module(text.replace(*change))
    assert roll_slices(module) == 0 and not _loops(module)


def test_a_run_whose_value_is_read_after_it_is_not_rolled():
    text = _relu_slices([0, 4, 8]).replace(
        "    func.return",
        """    nn.apply ins(%o_s1 : memref<1x1xf32, 1 : i64>) outs(%x : memref<1x1xf32>) {
    ^bb0(%z: tensor<1x1xf32>):
      %zr = nn.relu %z : (tensor<1x1xf32>) -> tensor<1x1xf32>
      nn.yield %zr : tensor<1x1xf32>
    }
    func.return""",
    )
    module, _ = parse_module(text)
    assert roll_slices(module) == 0 and not _loops(module)


def _flat(body: str, args: str = "", first: str = "") -> str:
    """A flat module whose ``main`` runs ``first``, makes the arena and the index constants
    ``%c0``, ``%c4`` and ``%c8``, then runs ``body``; ``args`` are arguments after ``%x``."""
    return f"""builtin.module {{
  "memref.global"() <{{sym_name = "arena_main", type = memref<256xi8, 1 : i64>, initial_value, sym_visibility = "private"}}> : () -> ()
  func.func @main(%x: memref<1x1xf32>{args}) {{
{first}
    %arena = memref.get_global @arena_main : memref<256xi8, 1 : i64>
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
{body}
    func.return
  }}
}}"""


def _relu(k: int, ins: str = "%x", out: str | None = None, slice_of: str = "o", region: str = "") -> str:
    """One ``nn.apply`` computing relu of ``ins`` into ``out`` (``%o_s{k}``), ``region`` ops added to its body."""
    out = out or f"%o_s{k}"
    attrs = f' attributes {{cfmem.slice_of = "{slice_of}"}}' if slice_of else ""
    return f"""    nn.apply ins({ins} : memref<1x1xf32>) outs({out} : memref<1x1xf32, 1 : i64>){attrs} {{
    ^bb0(%a{k}: tensor<1x1xf32>):
      %r{k} = nn.relu %a{k} : (tensor<1x1xf32>) -> tensor<1x1xf32>
{region}      nn.yield %r{k} : tensor<1x1xf32>
    }}"""


def _out(k: int, offset: str, name: str = "o", type_: str = "memref<1x1xf32, 1 : i64>") -> str:
    return f'    %{name}_s{k} = memref.view %arena[{offset}][] {{cfmem.tensor = "{name}_s{k}"}} : memref<256xi8, 1 : i64> to {type_}'


def _rolls(text: str) -> int:
    module, _ = parse_module(text)
    made = roll_slices(module)
    module.verify()
    assert made == len(_loops(module))
    return made


def test_slices_alternating_between_two_spacings_roll_only_the_evenly_spaced_stretch():
    """Slices at gaps 2, 4, 2, 4, 2 (every other slice followed by two more ops): only the first two
    anchors are evenly spaced, so each pair of like slices rolls on its own (a trip never spans
    the unlike spacing, though pairs of pairs would repeat)."""
    body = []
    for k in range(6):
        body += [_out(k, f"%off{k}"), _relu(k)]
        if k % 2:
            body += [_out(k, f"%off{k}", "p"), _out(k, f"%off{k}", "q")]
    offsets = "\n".join(f"    %off{k} = arith.constant {4 * k} : index" for k in range(6))
    module, _ = parse_module(_flat(offsets + "\n" + "\n".join(body)))
    assert roll_slices(module) == 3
    assert [_shape(loop) for loop in _loops(module)] == [(0, 2, 1, 1)] * 3


def test_a_rotation_one_deeper_than_max_group_never_rolls():
    """Slice k reads argument k mod (MAX_GROUP + 1): only a trip of MAX_GROUP + 1 slices repeats."""
    depth = MAX_GROUP + 1
    args = "".join(f", %in{j}: memref<1x1xf32>" for j in range(depth))
    offsets = [f"    %off{k} = arith.constant {4 * k} : index" for k in range(2 * depth)]
    body = [line for k in range(2 * depth) for line in (_out(k, f"%off{k}"), _relu(k, ins=f"%in{k % depth}"))]
    assert _rolls(_flat("\n".join(offsets + body), args)) == 0


def test_applies_that_are_not_slices_are_never_rolled():
    """Two like applies without ``cfmem.slice_of`` first in the block are no run."""
    same = "\n".join([_relu(0, out="%y", slice_of=""), _relu(1, out="%y", slice_of="")])
    assert _rolls(_flat("", ", %y: memref<1x1xf32, 1 : i64>", first=same)) == 0


def _two_slices(extra) -> str:
    """Two relu slices, slice k starting with the ops ``extra(k)``."""
    offsets = "\n".join(f"    %off{k} = arith.constant {4 * k} : index" for k in range(2))
    body = [line for k in range(2) for line in (extra(k), _out(k, f"%off{k}"), _relu(k))]
    return _flat(offsets + "\n" + "\n".join(body), ", %cond: i1")


@pytest.mark.parametrize(
    "extra",
    [
        lambda k: "    scf.if %cond {\n    }",  # an op with regions other than nn.apply, alike in both
        lambda k: f"    %t{k} = arith.{('addi', 'subi')[k]} %c4, %c8 : index",  # another op
        lambda k: f"    %t{k} = arith.constant {k} : index",  # another value (a property)
        lambda k: _out(k, "%c8", "t", ("memref<1xf32, 1 : i64>", "memref<2xf32, 1 : i64>")[k]),  # another type
    ],
    ids=["regions", "name", "properties", "result-type"],
)
def test_slices_with_an_unlike_op_are_not_rolled(extra):
    assert _rolls(_two_slices(lambda k: "")) == 1
    assert _rolls(_two_slices(extra)) == 0


def _weights_read_in_place(sources=("%blob", "%blob"), attributes=("", ""), offsets=("%c0", "%c4")) -> str:
    """Two relu slices reading weight views made before them, view k of ``sources[k]`` with
    ``attributes[k]`` at byte ``offsets[k]``."""
    views = [
        f"    %w{k} = memref.view {sources[k]}[{offsets[k]}][] {attributes[k]}: memref<64xi8> to memref<1x1xf32>" for k in range(2)
    ]
    body = [line for k in range(2) for line in (_out(k, ("%c0", "%c4")[k]), _relu(k, ins=f"%w{k}"))]
    return _flat("\n".join(views + body), ", %blob: memref<64xi8>, %blob2: memref<64xi8>, %n: index")


@pytest.mark.parametrize(
    "change",
    [{"sources": ("%blob", "%blob2")}, {"attributes": ("{a} ", "{b} ")}, {"offsets": ("%c0", "%n")}],
    ids=["source", "attributes", "offset-not-constant"],
)
def test_weight_views_that_do_not_step_alike_are_not_rolled(change):
    assert _rolls(_weights_read_in_place()) == 1
    assert _rolls(_weights_read_in_place(**change)) == 0


def test_a_value_one_slice_makes_for_the_next_is_not_rolled_unless_it_is_a_tag():
    """Every slice makes the constant 4; the second slice's offset is the first slice's constant
    (offsets 0, 4, 8 still step): only a DMA tag may pass from one iteration to the next."""
    body = [
        line
        for k in range(3)
        for line in (f"    %k{k} = arith.constant 4 : index", _out(k, ("%c0", "%k0", "%c8")[k]), _relu(k))
    ]
    assert _rolls(_flat("\n".join(body))) == 0
    assert _rolls(_flat("\n".join(body).replace("[%k0]", "[%c4]"))) == 1


def _ahead(value, op) -> bool:
    block = op.parent_block()
    while value.owner.parent_block() is not block:
        op = op.parent_op()
        block = op.parent_block()
    ops = list(block.ops)
    return ops.index(value.owner) < ops.index(op)


@pytest.mark.parametrize("where", ["in-the-run", "after-the-run"])
def test_a_loop_uses_only_index_constants_made_ahead_of_it(where):
    """The run sits in the entry block, which holds constants of the loop's step (12) inside the
    run or after it: the loop must make its own, ahead of it."""
    offsets = "\n".join(f"    %off{k} = arith.constant {4 + 12 * k} : index" for k in range(3))
    inside = "    %k{k} = arith.constant 12 : index\n" if where == "in-the-run" else ""
    body = [inside.format(k=k) + _out(k, f"%off{k}") + "\n" + _relu(k) for k in range(3)]
    late = "\n    %late = arith.constant 12 : index" if where == "after-the-run" else ""
    module, _ = parse_module(_flat(offsets + "\n" + "\n".join(body) + late))
    assert roll_slices(module) == 1
    module.verify()
    (loop,) = _loops(module)
    used = [v for op in loop.walk() for v in op.operands if isinstance(v.owner, arith.ConstantOp)]
    assert used and all(_ahead(v, loop) for v in used)
    unroll_loops(next(op for op in module.ops if op.name == "func.func"))
    assert [offset for _, offset in _views(module)] == [4, 16, 28]


def test_a_slice_reading_its_own_value_where_the_next_reads_an_earlier_one_is_not_rolled():
    body = [
        line
        for k in range(2)
        for line in (
            f"    %i{k} = memref.view %blob[%c0][] : memref<64xi8> to memref<1x1xf32>",
            _out(k, ("%c0", "%c4")[k]),
            _relu(k, ins=("%i0", "%x")[k]),
        )
    ]
    assert _rolls(_flat("\n".join(body), ", %blob: memref<64xi8>")) == 0


TAG = "memref<2xi32>"


def _waits(
    first: tuple[tuple[str, str], ...] = (("%tag", TAG),), sizes=("%c4", "%c4", "%c4"), after: str = ""
) -> str:
    """Three relu slices, slice k waiting (once for each of ``first``) on the DMA tag slice k - 1
    allocates, for ``sizes[k]`` elements, slice 0 on the ``first`` tags. ``%tag`` (an alloca),
    ``%tag2`` (another), ``%tag4`` (a ``memref<4xi32>``) and the argument ``%arg_tag`` are made before
    the run; ``after`` follows it."""
    body = [
        f"    %tag = memref.alloca() : {TAG}",
        f"    %tag2 = memref.alloca() : {TAG}",
        "    %tag4 = memref.alloca() : memref<4xi32>",
    ]
    for k in range(3):
        for name, type_ in first:
            tag, tag_type = (name, type_) if k == 0 else (f"%t{k - 1}", TAG)
            body.append(f'    "memref.dma_wait"({tag}, %c0, {sizes[k]}) : ({tag_type}, index, index) -> ()')
        body += [f"    %t{k} = memref.alloca() : {TAG}", _out(k, ("%c0", "%c4", "%c8")[k]), _relu(k)]
    return _flat("\n".join(body) + after, f", %arg_tag: {TAG}, %cond: i1")


def test_a_run_carries_the_dma_tag_each_slice_allocates_for_the_next():
    module, _ = parse_module(_waits())
    assert roll_slices(module) == 1
    (loop,) = _loops(module)
    waits = [op for op in loop.body.block.ops if isinstance(op, memref.DmaWaitOp)]
    assert [op.tag.name_hint for op in waits] == ["tag"]
    assert not any(isinstance(op, memref.AllocaOp) for op in loop.body.block.ops)


@pytest.mark.parametrize(
    "change",
    [
        {"first": (("%arg_tag", TAG),)},  # the first tag is no alloca
        {"first": (("%tag4", "memref<4xi32>"),)},  # nor of the type the slices allocate
        {"first": (("%tag", TAG), ("%arg_tag", TAG))},  # a second wait on another tag: no alloca,
        {"first": (("%tag", TAG), ("%tag4", "memref<4xi32>"))},  # of another type,
        {"first": (("%tag", TAG), ("%tag2", TAG))},  # another alloca
        {"sizes": ("%c0", "%c4", "%c8")},  # the waits' element counts step
    ],
    ids=["argument", "type", "second-argument", "second-type", "second-alloca", "sizes-step"],
)
def test_waits_that_carry_no_one_tag_or_step_a_size_are_not_rolled(change):
    assert _rolls(_waits(**change)) == 0


def test_the_last_slices_tag_waited_on_in_a_branch_after_the_run_becomes_the_carried_tag():
    after = f'\n    scf.if %cond {{\n      "memref.dma_wait"(%t2, %c0, %c4) : ({TAG}, index, index) -> ()\n    }}'
    module, _ = parse_module(_waits(after=after))
    assert roll_slices(module) == 1
    module.verify()
    (branch,) = [op for op in module.walk() if isinstance(op, scf.IfOp)]
    wait = branch.true_region.block.first_op
    assert isinstance(wait, memref.DmaWaitOp) and wait.tag.name_hint == "tag"


def test_names_holding_braces_of_their_own_come_back_from_rolling_and_unrolling():
    text = _relu_slices([0, 4, 8]).replace('cfmem.tensor = "o_s', 'cfmem.tensor = "o{}_s')
    module, _ = parse_module(text)
    want = _views(module)
    assert [name for name, _ in want] == ["o{}_s0", "o{}_s1", "o{}_s2"]
    roll_slices(module)
    unroll_loops(next(op for op in module.ops if op.name == "func.func"))
    assert _views(module) == want


def test_unrolling_fills_in_the_first_braces_of_a_template_only():
    module, fn = _hand_loop(HAND_LOOP.replace('"w_s{}"', '"w{}_s{}"'))
    unroll_loops(fn)
    names = [op.attributes[TENSOR_ATTR].data for op in fn.walk() if isinstance(op, memref.ViewOp)]
    assert names[::2] == ["w5_s{}", "w8_s{}", "w11_s{}"]


def test_slices_that_roll_once_another_ops_slices_have_rolled_are_rolled():
    """The offsets of b's slices sit between a's slices (so a's slices are not alike) until rolling
    b's slices leaves them unused and erases them: then a's slices roll too."""
    body = [
        _out(0, "%c0", "a"), _relu(0, out="%a_s0", slice_of="a"),
        "    %b0 = arith.constant 0 : index",
        _out(1, "%c4", "a"), _relu(1, out="%a_s1", slice_of="a"),
        "    %b1 = arith.constant 4 : index",
        _out(2, "%c8", "a"), _relu(2, out="%a_s2", slice_of="a"),
        _out(0, "%b0", "b"), _relu(3, out="%b_s0", slice_of="b"),
        _out(1, "%b1", "b"), _relu(4, out="%b_s1", slice_of="b"),
    ]  # fmt: skip
    module, _ = parse_module(_flat("\n".join(body)))
    assert roll_slices(module) == 2
    module.verify()
    assert [_shape(loop) for loop in _loops(module)] == [(0, 3, 1, 1), (0, 2, 1, 1)]


def test_a_slice_that_allocates_no_tag_where_the_first_did_is_not_rolled():
    """The second slice waits on the first one's tag but makes no tag of its own (an op without
    results stands where the first slice allocates)."""
    wait = f'"memref.dma_wait"(%tag2, %c0, %c4) : ({TAG}, index, index) -> ()'
    text = _waits().replace(f"%t1 = memref.alloca() : {TAG}", wait).replace("dma_wait\"(%t1,", "dma_wait\"(%tag2,")
    assert "%t1" not in text
    assert _rolls(text) == 0


def test_slices_whose_value_another_ops_slices_stop_using_are_rolled():
    """b's first slice reads the offset a's first slice makes (so a's run is used after it: its
    slices do not roll) until rolling b's slices steps that offset in the loop body: then a's
    slices roll too, though none of a's ops changed (only the ops after them)."""
    body = [
        "    %c12 = arith.constant 12 : index",
        "    %c16 = arith.constant 16 : index",
        "    %p0 = arith.constant 12 : index", _out(0, "%p0", "a"), _relu(0, out="%a_s0", slice_of="a"),
        "    %p1 = arith.constant 12 : index", _out(1, "%p1", "a"), _relu(1, out="%a_s1", slice_of="a"),
        "    %p2 = arith.constant 12 : index", _out(2, "%p2", "a"), _relu(2, out="%a_s2", slice_of="a"),
        _out(0, "%p0", "b"), _relu(3, out="%b_s0", slice_of="b"),
        _out(1, "%c16", "b"), _relu(4, out="%b_s1", slice_of="b"),
    ]  # fmt: skip
    module, _ = parse_module(_flat("\n".join(body)))
    assert roll_slices(module) == 2
    module.verify()
    assert [_shape(loop) for loop in _loops(module)] == [(0, 3, 1, 1), (0, 2, 1, 1)]


@pytest.mark.parametrize(("second", "rolls"), [("memref<1x4xf32>", 1), ("memref<2x2xf32>", 0)])
def test_weight_views_of_another_type_are_not_rolled(second, rolls):
    """Two slices each start a transfer from a weight view made before them (the views step by 8
    bytes, neither has dynamic sizes); views of another shape cannot be one view in the loop."""
    types = ("memref<1x4xf32>", second)
    lines = ["    %tag = memref.alloca() : memref<2xi32>"]
    lines += [f"    %w{k} = memref.view %blob[{('%c0', '%c8')[k]}][] : memref<64xi8> to {types[k]}" for k in range(2)]
    for k in range(2):
        lines += [
            _out(k, ("%c0", "%c4")[k]),
            f'    "memref.dma_start"(%w{k}, %c0, %c0, %o_s{k}, %c0, %c0, %c4, %tag, %c0)'
            " {operandSegmentSizes = array<i32: 1, 2, 1, 2, 1, 1, 1>} : "
            f"({types[k]}, index, index, memref<1x1xf32, 1 : i64>, index, index, index, memref<2xi32>, index) -> ()",
            _relu(k),
        ]
    assert _rolls(_flat("\n".join(lines), ", %blob: memref<64xi8>")) == rolls


def test_the_pass_rolls_the_slices_of_the_module_it_is_given():
    module, _ = parse_module(_relu_slices([0, 4, 8]))
    RollSlicesPass().apply(Context(), module)
    module.verify()
    assert [_shape(loop) for loop in _loops(module)] == [(0, 3, 1, 1)]


def test_slices_whose_last_view_another_ops_slices_stop_reading_are_rolled():
    """b's first slice reads the view a's last slice writes (so a's run is used after it) until
    rolling b's slices steps that view in the loop body: then a's slices roll too."""
    space = "memref<1x1xf32, 1 : i64>"
    body = [
        "    %c12 = arith.constant 12 : index",
        "    %c16 = arith.constant 16 : index",
        "    %p0 = arith.constant 12 : index", _out(0, "%p0", "a"), _relu(0, out="%a_s0", slice_of="a"),
        "    %p1 = arith.constant 12 : index", _out(1, "%p1", "a"), _relu(1, out="%a_s1", slice_of="a"),
        f'    %v = memref.view %arena[%c16][] {{cfmem.tensor = "a_s1"}} : memref<256xi8, 1 : i64> to {space}',
        _out(0, "%c0", "b"), _relu(3, ins="%a_s1", out="%b_s0", slice_of="b"),
        _out(1, "%c4", "b"), _relu(4, ins="%v", out="%b_s1", slice_of="b"),
    ]  # fmt: skip
    text = _flat("\n".join(body)).replace("%a_s1 : memref<1x1xf32>)", f"%a_s1 : {space})")
    module, _ = parse_module(text.replace("%v : memref<1x1xf32>)", f"%v : {space})"))
    assert roll_slices(module) == 2
    module.verify()
    assert [_shape(loop) for loop in _loops(module)] == [(0, 2, 1, 1), (0, 2, 1, 1)]


def test_slices_that_failed_are_not_tried_again_after_another_ops_slices_roll(monkeypatch):
    """a's slices cannot roll (the second computes another function); b's after them do. Once b's
    have rolled, nothing a's run reads has changed, so the pass stops after looking at a's once more."""
    from cfmem.passes import slice_loops

    calls = []
    reads = slice_loops._reads

    def counted(ops, anchors):
        calls.append(anchors)
        assert len(calls) < 50, "the pass keeps looking at the same slices"
        return reads(ops, anchors)

    monkeypatch.setattr(slice_loops, "_reads", counted)
    body = [
        _out(0, "%c0", "a"), _relu(0, out="%a_s0", slice_of="a"),
        _out(1, "%c4", "a"), _relu(1, out="%a_s1", slice_of="a").replace("nn.relu", "nn.sigmoid"),
        _out(0, "%c8", "b"), _relu(2, out="%b_s0", slice_of="b"),
        _out(1, "%c8", "b"), _relu(3, out="%b_s1", slice_of="b"),
    ]  # fmt: skip
    module, _ = parse_module(_flat("\n".join(body)))
    assert roll_slices(module) == 1
    module.verify()
    assert [_shape(loop) for loop in _loops(module)] == [(0, 2, 1, 1)]
    assert len(calls) == 3  # a, b, then a once more
