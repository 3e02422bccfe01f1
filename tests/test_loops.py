"""nn.loop through the whole pipeline: liveness, every control-flow mode, DMA, lowering, checkers.

The example seqkws has an if inside a counted loop and a data-dependent while loop inside
an if; it is run with 0, 1, 2 and 32 frames. Each checker is also fed a broken case that
only a second iteration exposes.
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import scf
from xdsl.dialects.builtin import DenseArrayBase, i64

from cfmem.dialects.nn_control import LoopOp
from cfmem.dma.events import Block, Compute, LoopEvent, Start, Wait
from cfmem.dma.flat_hazards import check_flat
from cfmem.dma.hazards import HazardError, check
from cfmem.dma.timing import Chip, simulate
from cfmem.errors import CfmemError
from cfmem.differential import check as differential_check
from cfmem.interp.coverage import TRIP_CLASSES, loop_trip_cases, trip_class
from cfmem.interp.flat import ClobberError, run_flat
from cfmem.interp.golden import InterpError, run_function
from cfmem.ir_io import parse_module
from cfmem.mlir_check.jit import mlir_available
from cfmem.passes.dma_events import function_events
from cfmem.passes.flat_dma_events import flat_function_events
from cfmem.passes.liveness import analyze_function, functions
from cfmem.passes.lower_to_memref import LOOP_ATTR, lower_module
from cfmem.passes.plan_memory import OFFSETS_ATTR, SLOT_OFFSETS_ATTR, plan_function
from cfmem.pipeline import apply_pipeline
from conftest import EXAMPLES

MODES = ("naive", "conservative", "linearize", "hoist", "exact")
TRIPS = (0, 1, 2, 32)


def seqkws():
    module, _ = parse_module((EXAMPLES / "seqkws.mlir").read_text())
    return module


def seqkws_inputs(frames: int, scale: float, seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {"feats": (scale * rng.standard_normal((32, 1, 40))).astype(np.float32), "frames": np.array(frames)}


@pytest.fixture(scope="module")
def trip_cases():
    """Input sets making each loop of seqkws run 0, 1, 2 and many times."""
    candidates = (seqkws_inputs(f, scale, seed) for f in (0, 1, 2, 32) for scale in (2.0, 0.6, 0.3, 0.1)
                  for seed in range(3))
    found = loop_trip_cases(seqkws(), candidates)
    assert sorted(found) == [(label, c) for label in ("loop#0", "loop#1") for c in TRIP_CLASSES]
    return found


def lowered(module, pipeline: str):
    module = module.clone()
    apply_pipeline(module, pipeline + ",nn-lower-to-memref,nn-check-dma")
    return module


RECURRENT = """
builtin.module {
  nn.global @weights size(4096) seed(3) scale(3.000000e-01 : f64)
  func.func @main(%n: tensor<i64>, %x: tensor<1x8xf32>) -> (tensor<1x8xf32>) {
    %weights = nn.get_global @weights : tensor<4096xi8>
    %w1 = nn.view %weights[0] bytes(256) : tensor<4096xi8> to tensor<8x8xf32>
    %w2 = nn.view %weights[256] bytes(256) : tensor<4096xi8> to tensor<8x8xf32>
    %b1 = nn.view %weights[512] bytes(32) : tensor<4096xi8> to tensor<8xf32>
    %t = nn.constant dense<true> : tensor<i1>
    %x0 = nn.relu %x : (tensor<1x8xf32>) -> tensor<1x8xf32>
    %h = nn.loop %n, %t (%x0) : (tensor<i64>, tensor<i1>, tensor<1x8xf32>) -> (tensor<1x8xf32>) {
    ^bb0(%i: tensor<i64>, %c: tensor<i1>, %a: tensor<1x8xf32>):
      %g = nn.gemm %a, %w1, %b1 {trans_b = true} : (tensor<1x8xf32>, tensor<8x8xf32>, tensor<8xf32>) -> tensor<1x8xf32>
      %r = nn.tanh %g : (tensor<1x8xf32>) -> tensor<1x8xf32>
      %m = nn.matmul %r, %w2 : (tensor<1x8xf32>, tensor<8x8xf32>) -> tensor<1x8xf32>
      %s = nn.add %m, %a : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
      nn.yield %t, %s : tensor<i1>, tensor<1x8xf32>
    }
    %y = nn.sigmoid %h : (tensor<1x8xf32>) -> tensor<1x8xf32>
    func.return %y : tensor<1x8xf32>
  }
}
"""

SCAN = """
func.func @acc(%n: tensor<i64>, %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<3x4xf32>) {
  %t = nn.constant dense<true> : tensor<i1>
  %h, %ys = nn.loop %n, %t (%x) : (tensor<i64>, tensor<i1>, tensor<4xf32>) -> (tensor<4xf32>, tensor<3x4xf32>) {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %a: tensor<4xf32>):
    %b = nn.tanh %a : (tensor<4xf32>) -> tensor<4xf32>
    %k = nn.cast %i : (tensor<i64>) -> tensor<f32>
    %y = nn.add %b, %k : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    nn.yield %c, %b, %y : tensor<i1>, tensor<4xf32>, tensor<4xf32>
  }
  func.return %h, %ys : tensor<4xf32>, tensor<3x4xf32>
}
"""

SWAP = """
func.func @swap(%n: tensor<i64>, %x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %t = nn.constant dense<true> : tensor<i1>
  %a, %b = nn.loop %n, %t (%x, %y) : (tensor<i64>, tensor<i1>, tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %p: tensor<4xf32>, %q: tensor<4xf32>):
    nn.yield %c, %q, %p : tensor<i1>, tensor<4xf32>, tensor<4xf32>
  }
  func.return %a, %b : tensor<4xf32>, tensor<4xf32>
}
"""


# --- reference semantics ---------------------------------------------------------------


def test_scan_outputs_stack_one_row_per_iteration_and_must_be_full():
    module, _ = parse_module(SCAN)
    x = np.linspace(-1, 1, 4, dtype=np.float32)
    run = run_function(module, {"n": np.array(3), "x": x})
    h = x
    for i in range(3):
        h = np.tanh(h)
        np.testing.assert_array_equal(run.outputs["ys"][i], h + np.float32(i))
    np.testing.assert_array_equal(run.outputs["h"], h)
    assert run.loops == [("loop#0", 3)]
    with pytest.raises(InterpError, match="loop#0 ran 2 iterations but its scan outputs hold 3"):
        run_function(module, {"n": np.array(2), "x": x})


@pytest.mark.parametrize("frames", TRIPS)
def test_seqkws_reference_runs_the_frames_it_is_given(frames):
    run = run_function(seqkws(), seqkws_inputs(frames, 2.0))
    assert run.loops[0] == ("loop#0", frames)
    assert [label for label, _ in run.branches].count("if#0") == frames


# --- liveness and planning --------------------------------------------------------------


def test_carried_values_live_in_their_results_bytes_and_slots_only_where_needed():
    module = seqkws()
    fn = functions(module)[0]
    info, plan = plan_function(fn)
    frames_loop, settle_loop = [op for op in fn.walk() if isinstance(op, LoopOp)]
    for loop in (frames_loop, settle_loop):
        for arg, result in zip(loop.carried_args, loop.carried):
            assert info.tensor_of[arg] is info.tensor_of[result]
    # the counted loop needs neither slot (its body reads the frame number though)
    assert frames_loop.is_counted() and frames_loop.cond_arg not in info.tensor_of
    assert frames_loop.iteration_arg in info.tensor_of
    # the while loop keeps its condition, and never reads its iteration number
    assert not settle_loop.is_counted() and settle_loop.cond_arg in info.tensor_of
    assert settle_loop.iteration_arg not in info.tensor_of


@pytest.mark.parametrize("mode", MODES)
def test_every_mode_plans_loops_and_exact_is_within_one_percent_of_the_bound(mode):
    module = seqkws()
    apply_pipeline(module, f"nn-insert-dma,nn-plan-memory{{mode={mode}}}")
    fn = functions(module)[0]
    peak = fn.attributes["cfmem.arena_size"].value.data
    bound = fn.attributes["cfmem.lower_bound"].value.data
    assert peak >= bound
    if mode in ("exact", "linearize", "hoist"):
        assert peak <= 1.01 * bound, (mode, peak, bound)


def test_hoist_mode_reserves_a_block_at_each_loop_holding_its_body():
    module = seqkws()
    apply_pipeline(module, "nn-insert-dma,nn-plan-memory{mode=hoist}")
    fn = functions(module)[0]
    for loop in (op for op in fn.walk() if isinstance(op, LoopOp)):
        base, size = loop.attributes["cfmem.block"].get_values()
        for op in loop.body.walk():
            attr = op.attributes.get(OFFSETS_ATTR)
            for offset, result in zip(attr.get_values() if attr else (), op.results):
                if offset >= 0 and "cfmem.alias" not in op.attributes:
                    assert base <= offset and offset + result.type.element_count() * 4 <= base + size + 16


def test_the_lower_bound_counts_what_crosses_iterations():
    """The while loop's body, its carried state and its condition slot all live at the loop's step."""
    module = seqkws()
    info = analyze_function(functions(module)[0])
    tree = info.tree
    node = next(n for region in tree.walk() for n in region.ifs if n.kind == "loop" and n.label == "loop#1")
    assert node.branch_labels() == ("body",)


# --- lowering and the flat interpreter -------------------------------------------------


@pytest.mark.parametrize("pipeline", [
    "nn-insert-dma,nn-plan-memory",
    "nn-insert-dma{loop-weights=stream},nn-plan-memory",
    "nn-insert-dma{mode=sync},nn-plan-memory{mode=hoist}",
    "nn-plan-memory{mode=conservative}",
    "nn-insert-dma{buffers=fixed},nn-plan-memory{mode=linearize}",
])
def test_flat_run_is_bit_identical_with_each_loop_run_zero_one_two_and_many_times(pipeline, trip_cases):
    module = seqkws()
    flat = lowered(module, pipeline)
    kinds = {type(op) for op in flat.walk() if LOOP_ATTR in op.attributes}
    assert kinds == {scf.ForOp, scf.WhileOp}
    for inputs in trip_cases.values():
        reference = run_function(module, inputs)
        got = run_flat(flat, inputs)
        np.testing.assert_array_equal(got.outputs["out"], reference.outputs["out"])
        assert got.loops == reference.loops and got.branches == reference.branches


def test_scan_outputs_and_the_iteration_number_lower_to_views_at_computed_offsets():
    module, _ = parse_module(SCAN)
    flat = lowered(module, "nn-plan-memory")
    x = np.linspace(-1, 1, 4, dtype=np.float32)
    got = run_flat(flat, {"n": np.array(3), "x": x})
    want = run_function(module, {"n": np.array(3), "x": x})
    for name in ("h", "ys"):
        np.testing.assert_array_equal(got.outputs[name], want.outputs[name])
    with pytest.raises(ClobberError, match="reads %ys but nothing wrote"):
        run_flat(flat, {"n": np.array(2), "x": x})  # a row the loop never wrote


SCAN_OF_CARRIED = """
func.func @trace(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<3x4xf32>) {
  %n = nn.constant dense<3> : tensor<i64>
  %t = nn.constant dense<true> : tensor<i1>
  %h, %ys = nn.loop %n, %t (%x) : (tensor<i64>, tensor<i1>, tensor<4xf32>) -> (tensor<4xf32>, tensor<3x4xf32>) {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %a: tensor<4xf32>):
    %b = nn.tanh %a : (tensor<4xf32>) -> tensor<4xf32>
    nn.yield %c, %b, %a : tensor<i1>, tensor<4xf32>, tensor<4xf32>
  }
  func.return %h, %ys : tensor<4xf32>, tensor<3x4xf32>
}
"""


@pytest.mark.parametrize("pipeline", ["nn-plan-memory", "nn-plan-memory{mode=conservative aliases=false}"])
def test_a_scan_row_of_a_carried_value_holds_the_value_the_iteration_started_with(pipeline):
    module, _ = parse_module(SCAN_OF_CARRIED)
    flat = lowered(module, pipeline)
    x = np.linspace(-1, 1, 4, dtype=np.float32)
    got = run_flat(flat, {"x": x})
    want = run_function(module, {"x": x})
    np.testing.assert_array_equal(want.outputs["ys"][0], x)
    for name in ("h", "ys"):
        np.testing.assert_array_equal(got.outputs[name], want.outputs[name])


def test_a_value_carried_into_another_position_is_refused():
    module, _ = parse_module(SWAP)
    with pytest.raises(CfmemError, match="loop#0 in @swap carries argument %q into another position"):
        apply_pipeline(module, "nn-plan-memory,nn-lower-to-memref")


def test_the_flat_interpreter_catches_a_clobber_only_the_second_iteration_sees():
    """A body tensor written after the last read of the hoisted weights, planned on their
    bytes: the first iteration is fine, the second reads overwritten weights."""
    module, _ = parse_module(RECURRENT)
    apply_pipeline(module, "nn-insert-dma,nn-plan-memory")
    fn = functions(module)[0]
    buffer = next(op for op in fn.walk() if op.results and op.results[0].name_hint == "loop_weights")
    late = next(op for op in fn.walk() if op.results and op.results[0].name_hint == "s")
    at = buffer.attributes[OFFSETS_ATTR].get_values()[0]
    late.attributes[OFFSETS_ATTR] = DenseArrayBase.from_list(i64, [at])
    lower_module(module, check_plan=False)
    x = np.linspace(-1, 1, 8, dtype=np.float32).reshape(1, 8)
    run_flat(module, {"n": np.array(1), "x": x})
    with pytest.raises(ClobberError, match="reads %w1_sram but %s overwrote"):
        run_flat(module, {"n": np.array(2), "x": x})


def test_the_stored_plan_check_refuses_a_bad_slot_offset():
    module = seqkws()
    apply_pipeline(module, "nn-plan-memory")
    fn = functions(module)[0]
    settle = [op for op in fn.walk() if isinstance(op, LoopOp)][1]
    size = fn.attributes["cfmem.arena_size"].value.data
    settle.attributes[SLOT_OFFSETS_ATTR] = DenseArrayBase.from_list(i64, [-1, size])
    with pytest.raises(CfmemError, match="stored plan is wrong"):
        apply_pipeline(module, "nn-lower-to-memref")


# --- DMA --------------------------------------------------------------------------------


def test_loop_weights_are_loaded_once_before_the_loop_or_every_iteration():
    for loop_weights, inside in (("hoist", 0), ("stream", 2)):
        module, _ = parse_module(RECURRENT)
        apply_pipeline(module, f"nn-insert-dma{{loop-weights={loop_weights}}}")
        loop = next(op for op in module.walk() if isinstance(op, LoopOp))
        starts = [op for op in loop.body.walk() if op.name == "nn.dma_start"]
        assert len(starts) == inside


def test_loading_loop_weights_once_is_much_faster_over_many_iterations():
    chip = Chip()
    cycles = {}
    for loop_weights in ("hoist", "stream"):
        module = seqkws()
        apply_pipeline(module, f"nn-insert-dma{{loop-weights={loop_weights}}}")
        events = function_events(functions(module)[0])
        cycles[loop_weights] = simulate(events, chip, {"loop#0": 32, "if#0": True, "if#1": True, "loop#1": 8}).cycles
    assert cycles["stream"] > 10 * cycles["hoist"]


def test_the_hazard_checker_follows_the_back_edge():
    """Iteration 1 reads the hoisted weights, then a body transfer overwrites them:
    harmless once, a hazard when iteration 2 reads them again."""
    body = Block("body", [Compute("use", reads=("load",)), Start("scratch", "buf", ((0, 64),), 64),
                          Wait("scratch"), Compute("other", reads=("scratch",))])
    program = Block("@main", [Start("load", "buf", ((0, 128),), 128), Wait("load"), LoopEvent("loop#0", body)])
    check(Block("@main", [Start("load", "buf", ((0, 128),), 128), Wait("load"), *body.events]))  # run once: fine
    with pytest.raises(HazardError, match=r"transfer scratch@1 overwrites bytes of buf that are still to be read"
                                          r" from transfer load \(region body@1\)"):
        check(program)
    fine = Block("@main", [Start("load", "buf", ((0, 128),), 128), Wait("load"),
                           LoopEvent("loop#0", Block("body", [Compute("use", reads=("load",))]))])
    check(fine)


def test_the_flat_hazard_checker_catches_a_transfer_left_running_into_the_next_iteration():
    module, _ = parse_module(RECURRENT)
    flat = lowered(module, "nn-insert-dma{loop-weights=stream},nn-plan-memory")
    fn = functions(flat)[0]
    check_flat(flat_function_events(fn))
    loop = next(op for op in fn.walk() if LOOP_ATTR in op.attributes)
    waits = [op for op in loop.body.walk() if op.name == "memref.dma_wait"]
    waits[-1].detach()
    loop.parent_block().insert_op_after(waits[-1], loop)  # waited after the loop instead
    with pytest.raises(HazardError):
        check_flat(flat_function_events(fn))


@pytest.mark.skipif(not mlir_available(), reason="upstream MLIR python bindings not installed (pip install 'cfmem[mlir]')")
def test_upstream_mlir_runs_the_loops_with_every_trip_case(trip_cases):
    """nn-lower-to-linalg output JIT-compiled by upstream MLIR: scf.for and scf.while over the
    arena agree with the flat run for each loop run 0, 1, 2 and many times."""
    module = seqkws()
    flat = lowered(module, "nn-insert-dma,nn-plan-memory")
    sets = list(trip_cases.values())
    rows = differential_check(module, flat, sets)
    assert [row.ok() for row in rows] == [True] * len(sets)
    assert {(label, trip_class(n)) for row in rows for label, n in row.loops} == set(trip_cases)


FOUR_LAYERS = """
builtin.module {
  nn.global @weights size(8192) seed(3) scale(3.000000e-01 : f64)
  func.func @main(%n: tensor<i64>, %x: tensor<1x16xf32>) -> (tensor<1x16xf32>) {
    %weights = nn.get_global @weights : tensor<8192xi8>
    %w1 = nn.view %weights[0] bytes(1024) : tensor<8192xi8> to tensor<16x16xf32>
    %w2 = nn.view %weights[1024] bytes(1024) : tensor<8192xi8> to tensor<16x16xf32>
    %w3 = nn.view %weights[2048] bytes(1024) : tensor<8192xi8> to tensor<16x16xf32>
    %w4 = nn.view %weights[3072] bytes(1024) : tensor<8192xi8> to tensor<16x16xf32>
    %t = nn.constant dense<true> : tensor<i1>
    %h = nn.loop %n, %t (%x) : (tensor<i64>, tensor<i1>, tensor<1x16xf32>) -> (tensor<1x16xf32>) {
    ^bb0(%i: tensor<i64>, %c: tensor<i1>, %a: tensor<1x16xf32>):
      %m1 = nn.matmul %a, %w1 : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>
      %r1 = nn.tanh %m1 : (tensor<1x16xf32>) -> tensor<1x16xf32>
      %m2 = nn.matmul %r1, %w2 : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>
      %m3 = nn.matmul %m2, %w3 : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>
      %m4 = nn.matmul %m3, %w4 : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>
      %s = nn.add %m4, %a : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
      nn.yield %t, %s : tensor<i1>, tensor<1x16xf32>
    }
    func.return %h : tensor<1x16xf32>
  }
}
"""


def streamed_four_layers(prefetch: bool = True):
    module, _ = parse_module(FOUR_LAYERS)
    apply_pipeline(module, f"nn-insert-dma{{loop-weights=stream loop-prefetch={str(prefetch).lower()}}}")
    return module


def test_a_streamed_body_reloads_its_first_weights_during_its_last_op():
    module = streamed_four_layers()
    loop = next(op for op in module.walk() if isinstance(op, LoopOp))
    before = [op.name for op in module.walk() if op.parent_op() is loop.parent_op() and op.name.startswith("nn.dma")]
    assert before == ["nn.dma_buffer", "nn.dma_buffer", "nn.dma_start", "nn.dma_wait"]  # w1 for iteration 1
    body = list(loop.body.block.ops)
    first_compute = next(op for op in body if op.name == "nn.matmul")
    assert all(op.name != "nn.dma_wait" for op in body[: body.index(first_compute)])  # no stall at the start
    reload = next(op for op in body if "cfmem.reload" in op.attributes)
    assert reload.next_op.results[0].name_hint == "m4"  # overlaps the last matmul
    assert body[-2].name == "nn.dma_wait" and body[-2].token is reload.token  # nothing outstanding at the end


def test_the_reload_hides_each_iterations_first_load():
    chip = Chip()

    def per_iteration(module) -> float:
        events = function_events(functions(module)[0])
        return simulate(events, chip, {"loop#0": 9}).cycles - simulate(events, chip, {"loop#0": 8}).cycles

    with_reload = per_iteration(streamed_four_layers())
    without = per_iteration(streamed_four_layers(False))
    assert with_reload < without


def test_reloaded_weights_run_bit_identical_and_each_checker_sees_a_missing_reload():
    module, _ = parse_module(FOUR_LAYERS)
    flat = lowered(module, "nn-insert-dma{loop-weights=stream},nn-plan-memory")
    x = np.linspace(-1, 1, 16, dtype=np.float32).reshape(1, 16)
    for n in (0, 1, 2, 7):
        want = run_function(module, {"n": np.array(n), "x": x}).outputs["h"]
        np.testing.assert_array_equal(run_flat(flat, {"n": np.array(n), "x": x}).outputs["h"], want)
    # the flat interpreter: without the reload, iteration 2 reads w3's bytes as w1's
    fn = functions(flat)[0]
    reload = next(op for op in fn.walk() if op.name == "memref.dma_start" and op.parent_op() is not fn
                  and op.attributes["cfmem.tensor"].data == "w1_sram")
    wait = next(op for op in fn.walk() if op.name == "memref.dma_wait" and op.tag is reload.tag)
    wait.detach()
    wait.erase()
    reload.detach()
    reload.erase()
    run_flat(flat, {"n": np.array(1), "x": x})
    with pytest.raises(ClobberError, match="reads %w1_sram but %w3_sram overwrote"):
        run_flat(flat, {"n": np.array(2), "x": x})
    # the event checker: a reload it cannot pair with the load before the loop
    events = function_events(functions(streamed_four_layers())[0])
    loop = next(e for e in events.events if isinstance(e, LoopEvent))
    check(events)
    loop.reloads.clear()
    with pytest.raises(HazardError, match="overwrites bytes of %dma0 that are still to be read from transfer %load"):
        check(events)


def test_a_budget_below_what_must_stay_on_chip_names_it_even_with_loop_slots():
    from cfmem.fit import BudgetError, compile_for_budget

    with pytest.raises(BudgetError, match=r"needs at least \d+ bytes of on-chip memory, more than the budget of 100:"
                                          r" what stays on chip at its peak \(.*\) cannot move"):
        compile_for_budget(seqkws(), Chip(), 100)


def test_loops_keep_their_module_wide_labels_through_lowering():
    """Two functions with a loop each: the second's is loop#1 to the reference interpreter,
    and the flat form labels it the same (the lowering counts before lowering any function)."""
    text = SCAN.replace("@acc", "@first") + SCAN.replace("@acc", "@main")
    module, _ = parse_module(text)
    flat = lowered(module, "nn-plan-memory")
    x = np.linspace(-1, 1, 4, dtype=np.float32)
    inputs = {"n": np.array(3), "x": x}
    want = run_function(module, inputs, func_name="main")
    got = run_flat(flat, inputs, func_name="main")
    assert want.loops == got.loops == [("loop#1", 3)]


THREE_LAYERS = FOUR_LAYERS.replace(
    "      %m4 = nn.matmul %m3, %w4 : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>\n", ""
).replace("nn.add %m4, %a", "nn.add %m3, %a")


def test_a_body_whose_last_op_reads_the_first_buffer_is_not_reloaded_into_it():
    """Three streamed matmuls over two buffers: the last reads buffer 0, so a reload of the first
    weights during it would overwrite what it reads; the body loads them again at its start instead."""
    module, _ = parse_module(THREE_LAYERS)
    streamed = module.clone()
    apply_pipeline(streamed, "nn-insert-dma{loop-weights=stream}")
    assert not any("cfmem.reload" in op.attributes for op in streamed.walk())
    check(function_events(functions(streamed)[0]))
    flat = lowered(module, "nn-insert-dma{loop-weights=stream},nn-plan-memory")
    x = np.linspace(-1, 1, 16, dtype=np.float32).reshape(1, 16)
    for n in (0, 1, 2, 3):
        want = run_function(module, {"n": np.array(n), "x": x}).outputs["h"]
        np.testing.assert_array_equal(run_flat(flat, {"n": np.array(n), "x": x}).outputs["h"], want)


def test_a_reload_into_the_buffer_the_last_op_reads_is_a_hazard_to_every_checker(monkeypatch):
    """The same body with the back-edge prefetch forced: the pass refuses its own output, and
    with its check skipped, the event checker, the flat one and the flat interpreter each see it."""
    import cfmem.passes.insert_dma as insert_dma

    def any_loop(seg, slots):
        block = seg.first.parent_block()
        return block.parent_op() if isinstance(block.parent_op(), LoopOp) else None

    monkeypatch.setattr(insert_dma, "_prefetching_loop", any_loop)
    module, _ = parse_module(THREE_LAYERS)
    with pytest.raises(CfmemError, match="nn-insert-dma produced a DMA hazard"):
        apply_pipeline(module.clone(), "nn-insert-dma{loop-weights=stream}")
    monkeypatch.setattr(insert_dma, "check_inserted", lambda events: None)
    streamed = module.clone()
    apply_pipeline(streamed, "nn-insert-dma{loop-weights=stream}")
    assert any("cfmem.reload" in op.attributes for op in streamed.walk())
    with pytest.raises(HazardError, match="overwrites bytes of %dma0 that are still to be read"):
        check(function_events(functions(streamed)[0]))
    apply_pipeline(streamed, "nn-plan-memory,nn-lower-to-memref")
    with pytest.raises(HazardError, match="reads %w3_sram before the wait on the transfer of %w1_sram"):
        check_flat(flat_function_events(functions(streamed)[0]))
    x = np.linspace(-1, 1, 16, dtype=np.float32).reshape(1, 16)
    with pytest.raises(ClobberError, match="reads %w3_sram while the DMA of %w1_sram"):
        run_flat(streamed, {"n": np.array(1), "x": x})
