"""Compiling into an on-chip budget: every budget fits, computes the same numbers, and the
checkers catch a placement that breaks the rules."""

import subprocess
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import IntegerAttr, i64

from cfmem.dma.timing import Chip
from cfmem.errors import CfmemError
from cfmem.fit import BudgetError, baseline_offchip, baseline_pingpong, compile_for_budget, smallest_budget, timing_path
from cfmem.interp.coverage import loop_trip_cases
from cfmem.interp.flat import CapacityError, measure_flat, run_flat
from cfmem.interp.golden import find_function, run_function
from cfmem.ir_io import load_module, make_context
from cfmem.passes.insert_dma import InsertDmaPass, weight_operands
from cfmem.passes.lower_to_memref import INIT_ATTR
from cfmem.dialects.flat_form import BUDGET_ATTR
from cfmem.passes.placement import set_offchip, set_weight_place
from cfmem.passes.plan_memory import OFFCHIP_OFFSETS_ATTR, PlanMemoryPass
from cfmem.passes.stored_plan import check_offchip_plan
from cfmem.pipeline import lower_model
from xdsl.utils.exceptions import PassFailedException

from conftest import CFMEM, EXAMPLES, run_cfmem

CHIP = Chip()
MODELS = [EXAMPLES / f"{name}.mlir" for name in ("bigfc", "denoise")]
"""Two examples (a weight larger than the budget, nested ifs) at every budget, and seqkws (loops)
at half its peak; bench/fit_chip.py runs every example (facedetect, the slowest to compile, among
them) and imported model at every budget. Each example's tests share one worker
(``xdist_group``), so it is compiled once per budget."""


def pingpong_peak(module) -> int:
    return baseline_pingpong(module, CHIP, timing_path(module, CHIP))[0]


@pytest.fixture(params=[pytest.param(p, marks=pytest.mark.xdist_group(p.stem)) for p in MODELS], ids=lambda p: p.stem)
def example(request, shared_examples):
    """The path, module and cases of one of MODELS (shared, read-only: see ``SharedExamples``)."""
    shared = shared_examples(request.param.stem)
    return request.param, shared.module, shared.cases


_COMPILED: dict = {}


def compiled_at(path: Path, module, fraction: float | None):
    """``module`` compiled at ``fraction`` of its ping-pong peak (None: the smallest budget), once per run."""
    key = (path, fraction)
    if key not in _COMPILED:
        if fraction is None:
            _COMPILED[key] = smallest_budget(module, CHIP, path.parent)
        else:
            _COMPILED[key] = compile_for_budget(module, CHIP, int(pingpong_peak(module) * fraction), path.parent)
    return _COMPILED[key]


@pytest.mark.parametrize("fraction", [1.0, 0.5, 0.25, None], ids=["100%", "50%", "25%", "smallest"])
def test_every_budget_fits_and_computes_the_same_numbers_on_every_branch_path(example, fraction):
    """(75 % and every imported model are measured by bench/fit_chip.py.)"""
    path, module, cases = example
    compiled = compiled_at(path, module, fraction)
    budget = compiled.budget
    if fraction is None and budget:
        with pytest.raises(BudgetError, match="needs at least"):
            compile_for_budget(module, CHIP, budget - 1, path.parent)
    assert compiled.onchip_peak <= budget
    traces = set()
    for case in cases:
        inputs, reference = case.inputs, case.reference
        sliced = run_function(compiled.graph, inputs, base_dir=path.parent)
        result, onchip, touched = measure_flat(compiled.flat, inputs)
        assert onchip <= budget and touched <= budget  # measured on the flat module
        traces.add(tuple(result.branches))
        for name, value in reference.outputs.items():
            assert np.array_equal(sliced.outputs[name], result.outputs[name]), name  # planning keeps every bit
            np.testing.assert_allclose(result.outputs[name], value, rtol=1e-5, atol=1e-6)  # slicing reorders sums
    assert len(traces) == len(cases)


def test_a_model_with_loops_fits_half_its_peak_with_every_loop_run_zero_one_two_and_many_times():
    path = EXAMPLES / "seqkws.mlir"
    module, _ = load_module(path)
    compiled = compile_for_budget(module, CHIP, pingpong_peak(module) // 2, path.parent)
    assert compiled.onchip_peak <= compiled.budget
    rng = np.random.default_rng(0)
    candidates = ({"feats": (scale * rng.standard_normal((32, 1, 40))).astype(np.float32), "frames": np.array(n)}
                  for n in (0, 1, 2, 32) for scale in (2.0, 0.6, 0.3, 0.1) for _ in range(3))
    cases = loop_trip_cases(module, candidates)
    assert {klass for (label, klass) in cases if label == "loop#0"} == {"0", "1", "2", "many"}
    for inputs in cases.values():
        reference = run_function(module, inputs)
        result, onchip, touched = measure_flat(compiled.flat, inputs)
        assert onchip <= compiled.budget and touched <= compiled.budget
        assert result.loops == reference.loops
        np.testing.assert_allclose(result.outputs["out"], reference.outputs["out"], rtol=1e-5, atol=1e-6)


def test_latency_never_rises_with_the_budget_and_beats_the_off_chip_arena(example):
    path, module, _ = example
    timed = timing_path(module, CHIP)
    compiled = [compiled_at(path, module, f) for f in (None, 0.25, 0.5, 1.0)]
    assert all(c.cycles >= c.bound_cycles > 0 for c in compiled)  # no compile beats its bound
    cycles = [c.cycles for c in compiled]
    assert cycles[0] >= cycles[1]
    cycles = cycles[1:]
    assert cycles[0] >= cycles[1] >= cycles[2]
    assert cycles[2] <= baseline_pingpong(module, CHIP, timed)[1]  # no slower than today's ping-pong
    assert 2 * cycles[1] <= baseline_offchip(module, CHIP, timed)[1]  # at half the peak, 2x the whole arena off chip


def test_a_weight_larger_than_the_whole_budget_still_runs(shared_examples):
    example = shared_examples("bigfc")
    path, module = example.path, example.module
    largest = max(sum(_bytes(w) for w in weight_operands(op)) for op in find_function(module).walk() if weight_operands(op))
    budget = largest // 2
    compiled = compile_for_budget(module, CHIP, budget, path.parent)
    assert compiled.onchip_peak <= budget
    fc = next(op for op in compiled.graph.walk() if op.results and op.results[0].name_hint == "fc")
    assert fc.name == "nn.concat" or fc.attributes["cfmem.weights"].data == "offchip"  # sliced, or read in place
    for case in example.cases:
        got = run_flat(compiled.flat, case.inputs)
        for name, value in case.reference.outputs.items():
            np.testing.assert_allclose(got.outputs[name], value, rtol=1e-5, atol=1e-6)


def _bytes(value) -> int:
    from cfmem.dialects.types import tensor_bytes

    return tensor_bytes(value.type)


def test_resident_weights_are_loaded_once_by_a_loader_and_read_in_place():
    path = EXAMPLES / "facedetect.mlir"
    module, _ = load_module(path)
    for op in find_function(module).walk():
        if weight_operands(op):
            set_weight_place(op, "resident")
    flat = lower_model(module, "nn-insert-dma,nn-plan-memory", path.parent)
    fn = find_function(flat)
    assert INIT_ATTR in fn.attributes
    assert not any(op.name == "memref.dma_start" for op in fn.walk())  # the function itself loads nothing
    original, _ = load_module(path)
    inputs = {a.name_hint: np.ones(a.type.get_shape(), np.float32) for a in find_function(original).body.block.args}
    reference = run_function(original, inputs, base_dir=path.parent)
    got = run_flat(flat, inputs)
    assert all(np.array_equal(reference.outputs[k], got.outputs[k]) for k in reference.outputs)


def test_the_flat_interpreter_refuses_a_module_above_its_budget():
    path = EXAMPLES / "facedetect.mlir"
    module, _ = load_module(path)
    flat = lower_model(module, "nn-insert-dma,nn-plan-memory", path.parent)
    fn = find_function(flat)
    arena = fn.attributes["cfmem.arena_size"].value.data
    fn.attributes[BUDGET_ATTR] = IntegerAttr(arena - 1, i64)
    inputs = {a.name_hint: np.ones(a.type.get_shape(), np.float32) for a in find_function(module).body.block.args}
    with pytest.raises(CapacityError, match=f"but its budget is {arena - 1}"):
        run_flat(flat, inputs)
    fn.attributes[BUDGET_ATTR] = IntegerAttr(arena, i64)
    run_flat(flat, inputs)


def test_a_wrong_off_chip_plan_is_caught_by_the_verifier():
    module, _ = load_module(EXAMPLES / "facedetect.mlir")
    fn = find_function(module)
    compute = [op for op in fn.walk() if op.name in ("nn.conv2d", "nn.relu")][:4]
    for op in compute:
        set_offchip(op, True)
    InsertDmaPass().apply(make_context(), module)
    PlanMemoryPass().apply(make_context(), module)
    assert check_offchip_plan(fn) > 0
    placed = [op for op in fn.walk() if OFFCHIP_OFFSETS_ATTR in op.attributes]
    for op in placed:  # every off-chip tensor on the same bytes
        op.attributes[OFFCHIP_OFFSETS_ATTR] = type(op.attributes[OFFCHIP_OFFSETS_ATTR]).from_list(i64, [0])
    with pytest.raises(PassFailedException, match="stored off-chip plan is wrong"):
        check_offchip_plan(fn)


def test_offchip_activations_cost_time_and_resident_loads_do_not():
    from cfmem.passes.dma_events import function_events, resident_bytes
    from cfmem.dma.timing import simulate

    module, _ = load_module(EXAMPLES / "facedetect.mlir")
    base = module.clone()
    InsertDmaPass().apply(make_context(), base)
    slow = module.clone()
    for op in find_function(slow).walk():
        if op.name == "nn.conv2d":
            set_offchip(op, True)
    InsertDmaPass().apply(make_context(), slow)
    assert simulate(function_events(find_function(slow)), CHIP).cycles > simulate(function_events(find_function(base)), CHIP).cycles
    resident = module.clone()
    for op in find_function(resident).walk():
        if weight_operands(op):
            set_weight_place(op, "resident")
    InsertDmaPass().apply(make_context(), resident)
    fn = find_function(resident)
    assert resident_bytes(fn) > 0
    assert simulate(function_events(fn), CHIP).cycles < simulate(function_events(find_function(base)), CHIP).cycles


def test_a_budget_below_what_must_stay_on_chip_names_it(tmp_path):
    text = """
    func.func @main(%x: tensor<1x64xf32>, %c: tensor<1xi1>) -> tensor<1x64xf32> {
      %r = nn.if %c : tensor<1xi1> -> (tensor<1x64xf32>) {
        %a = nn.relu %x : (tensor<1x64xf32>) -> tensor<1x64xf32>
        nn.yield %a : tensor<1x64xf32>
      } else {
        %b = nn.tanh %x : (tensor<1x64xf32>) -> tensor<1x64xf32>
        nn.yield %b : tensor<1x64xf32>
      }
      %y = nn.sigmoid %r : (tensor<1x64xf32>) -> tensor<1x64xf32>
      func.return %y : tensor<1x64xf32>
    }
    """
    model = tmp_path / "m.mlir"
    model.write_text(text)
    module, _ = load_module(model)
    with pytest.raises(CfmemError, match=r"needs at least 256 bytes .* budget of 100: .*'nn.if' %r \(256 bytes\)"):
        compile_for_budget(module, CHIP, 100, tmp_path)
    assert compile_for_budget(module, CHIP, 256, tmp_path).onchip_peak <= 256


def test_compile_command_writes_the_flat_module_and_refuses_bad_budgets(tmp_path):
    out = tmp_path / "flat.mlir"
    done = run_cfmem("compile", str(EXAMPLES / "bigfc.mlir"), "--budget", "262144", "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert "of 262144 on-chip bytes" in done.stderr
    flat, _ = load_module(out)
    assert find_function(flat).attributes[BUDGET_ATTR].value.data == 262144
    bad = run_cfmem("compile", str(EXAMPLES / "bigfc.mlir"), "--budget", "-5", "-o", str(tmp_path / "x.mlir"))
    assert bad.returncode == 1 and bad.stderr.count("\n") == 1 and "--budget" in bad.stderr
    assert not (tmp_path / "x.mlir").exists()


def test_compile_writes_the_placed_graph_the_flat_module_computes_bit_for_bit(tmp_path):
    """``--graph``: the tensor-level graph with its sliced ops cut, which the reference
    interpreter runs to the flat module's outputs exactly; never over -o or the input."""
    flat, graph = tmp_path / "flat.mlir", tmp_path / "graph.mlir"
    done = run_cfmem("compile", str(EXAMPLES / "bigfc.mlir"), "--budget", "262144", "-o", str(flat), "--graph", str(graph))
    assert done.returncode == 0, done.stderr
    placed, _ = load_module(graph)
    assert any("cfmem.slice_of" in op.attributes for op in placed.walk())  # the weight larger than the budget is cut
    outputs = []
    for module in (flat, graph):
        ran = run_cfmem("run", str(module), "--seed", "0", "-o", str(module.with_suffix(".npz")))
        assert ran.returncode == 0, ran.stderr
        outputs.append(dict(np.load(module.with_suffix(".npz"))))
    assert outputs[0].keys() == outputs[1].keys() and all(np.array_equal(outputs[0][k], outputs[1][k]) for k in outputs[0])
    same = run_cfmem("compile", str(EXAMPLES / "bigfc.mlir"), "-o", str(tmp_path / "x.mlir"), "--graph", str(tmp_path / "x.mlir"))
    assert same.returncode == 1 and "--graph and -o name the same file" in same.stderr
    assert not (tmp_path / "x.mlir").exists()
    model = tmp_path / "model.mlir"
    model.write_text((EXAMPLES / "bigfc.mlir").read_text())
    before = model.read_bytes()
    over = run_cfmem("compile", str(model), "-o", str(tmp_path / "y.mlir"), "--graph", str(model))
    assert over.returncode == 1 and model.read_bytes() == before and not (tmp_path / "y.mlir").exists()


def test_compile_refuses_a_graph_on_standard_output_beside_the_flat_module_and_says_when_stdout_is_full(tmp_path):
    """Two modules would run together on standard output: refused before any work. A full
    device behind standard output is one line and exit 1, not an internal error."""
    both = run_cfmem("compile", str(EXAMPLES / "bigfc.mlir"), "--graph", "-")
    assert both.returncode == 1 and both.stdout == "" and "standard output already carries the flat module" in both.stderr
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    with open("/dev/full", "w") as full:
        done = subprocess.run([*CFMEM, "compile", str(EXAMPLES / "bigfc.mlir")], stdout=full, stderr=subprocess.PIPE, text=True)
    assert done.returncode == 1 and done.stderr.splitlines()[-1] == "cfmem: standard output: error: cannot write: No space left on device"


def _readers_without_transfer_sources(value):
    """``memory_readers`` as it would be if a transfer stopped reading its sources at its start."""
    from cfmem.dialects.nn_dma import DmaStartOp

    readers = []
    for use in value.uses:
        readers.append(use.operation)
        start = use.operation
        if isinstance(start, DmaStartOp) and start.buffer is value:
            for token_use in start.token.uses:
                readers.append(token_use.operation)
                for result in token_use.operation.results:
                    readers.extend(u.operation for u in result.uses)
    return readers


def prefetched_facedetect():
    path = EXAMPLES / "facedetect.mlir"
    module, _ = load_module(path)
    for op in find_function(module).walk():
        if op.name in ("nn.relu", "nn.conv2d", "nn.max_pool2d"):
            set_offchip(op, True, prefetch=True)
    return path, module


def test_prefetched_activations_are_read_back_by_dma_and_keep_every_bit():
    path, module = prefetched_facedetect()
    flat = lower_model(module, "nn-insert-dma,nn-plan-memory,nn-check-dma", path.parent)
    from_offchip = [op for op in flat.walk() if op.name == "memref.dma_start" and "offchip_arena" in str(op.operands[0])]
    assert len(from_offchip) > 10
    inputs = {a.name_hint: np.ones(a.type.get_shape(), np.float32) for a in find_function(module).body.block.args}
    reference = run_function(module, inputs, base_dir=path.parent)
    got = run_flat(flat, inputs)
    assert all(np.array_equal(reference.outputs[k], got.outputs[k]) for k in reference.outputs)


def test_a_plan_that_reuses_a_prefetch_source_before_its_wait_is_caught(monkeypatch):
    """Liveness that ends a source at its transfer's start lets the off-chip plan put another
    tensor there while the DMA still reads it: the flat interpreter and nn-check-dma catch it."""
    import cfmem.passes.liveness as liveness
    from cfmem.interp.flat import ClobberError

    path, module = prefetched_facedetect()
    monkeypatch.setattr(liveness, "memory_readers", _readers_without_transfer_sources)
    flat = lower_model(module, "nn-insert-dma,nn-plan-memory", path.parent)
    inputs = {a.name_hint: np.ones(a.type.get_shape(), np.float32) for a in find_function(module).body.block.args}
    with pytest.raises(ClobberError, match="was still reading"):
        run_flat(flat, inputs)
    from cfmem.passes.dma_events import CheckDmaPass

    with pytest.raises(PassFailedException, match="still reading"):
        CheckDmaPass().apply(make_context(), flat)


def test_evicted_results_are_written_out_and_read_back_by_dma_and_agree_with_mlir():
    from cfmem.differential import check
    from cfmem.dialects.nn_dma import DmaWaitOp

    path = EXAMPLES / "facedetect.mlir"
    module, _ = load_module(path)
    evicted = [op for op in find_function(module).walk() if op.name in ("nn.relu", "nn.conv2d")][::2]
    for op in evicted:
        set_offchip(op, True, evict=True)
    planned = module.clone()
    InsertDmaPass().apply(make_context(), planned)
    copies = [op for op in planned.walk() if isinstance(op, DmaWaitOp) and "cfmem.offchip" in op.attributes]
    assert len(copies) == len(evicted)
    for wait in copies:  # waited for before the first reader of the copy
        readers = [use.operation for use in wait.results[0].uses]
        block = wait.parent_block()
        assert all(block.get_operation_index(wait) < block.get_operation_index(r) for r in readers if r.parent_block() is block)
    flat = lower_model(module, "nn-insert-dma,nn-plan-memory,nn-check-dma", path.parent)
    inputs = {a.name_hint: np.ones(a.type.get_shape(), np.float32) for a in find_function(module).body.block.args}
    (agreement,) = check(module, flat, [inputs], base_dir=path.parent)
    assert agreement.ok() and agreement.golden_vs_flat == 0.0
