"""The flat form: lowering keeps the numbers, and a wrong plan is caught.

Every example is planned (several control-flow modes, with and without DMA),
lowered by ``nn-lower-to-memref`` and run by the byte-accurate flat
interpreter on inputs that take every branch; outputs must be bit-identical to
the tensor-level run. Then plans and lowered modules are broken on purpose
(two live tensors on the same bytes, a DMA wait after its consumer, a missing
yield copy, an output over its own input) and the checking interpreter must
name the tensors involved.
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import memref, scf
from xdsl.dialects.builtin import DenseArrayBase, ModuleOp, i64

from cfmem.dialects.nn_memref import ApplyOp
from cfmem.interp.flat import ClobberError, FlatInterpreter, run_flat
from cfmem.interp.golden import GoldenInterpreter, InterpError, find_function, run_function
from cfmem.ir_io import make_context, parse_module
from cfmem.passes.insert_dma import InsertDmaPass
from cfmem.passes.liveness import analyze_function
from cfmem.passes.lower_to_memref import INPLACE_ATTR, LowerToMemrefPass, lower_module
from cfmem.passes.plan_memory import OFFSETS_ATTR, PlanMemoryPass
from conftest import EXAMPLES, run_cfmem

MODELS = ["facedetect", "fusiondetect", "denoise", "wakeword"]


def lowered(module: ModuleOp, mode: str = "exact", dma: str | None = "pingpong", **plan) -> ModuleOp:
    module = module.clone()
    ctx = make_context()
    if dma:
        InsertDmaPass(mode=dma).apply(ctx, module)
    PlanMemoryPass(mode=mode, **plan).apply(ctx, module)
    LowerToMemrefPass().apply(ctx, module)
    module.verify()
    return module


@pytest.fixture
def examples(shared_examples):
    """Each of MODELS: its module and ``(inputs, trace, reference run)`` per branch-covering
    input set (shared, read-only: see ``SharedExamples``)."""
    return {name: (shared_examples(name).module, [(c.inputs, c.trace, c.reference) for c in shared_examples(name).cases])
            for name in MODELS}  # fmt: skip



@pytest.mark.parametrize("name", ["fusiondetect", "wakeword"])
def test_kept_interpreters_run_every_branch_as_fresh_ones(examples, name):
    """One interpreter of each kind, compiled once, runs the input sets one after the other
    (branches alternating) with the outputs and branch traces of a fresh interpreter per run."""
    module, cases = examples[name]
    flat = lowered(module)
    reference, checked, unchecked = GoldenInterpreter(module), FlatInterpreter(flat), FlatInterpreter(flat, check=False)
    for inputs, trace, want in cases + cases[::-1]:
        runs = [reference.run(find_function(module), inputs),
                checked.run(find_function(flat), inputs), unchecked.run(find_function(flat), inputs)]  # fmt: skip
        for got in runs:
            assert tuple(got.branches) == trace
            for key in want.outputs:
                assert got.outputs[key].tobytes() == want.outputs[key].tobytes()

@pytest.mark.parametrize("name", MODELS)
@pytest.mark.parametrize(
    "mode,dma", [("exact", "pingpong"), ("exact", None), ("hoist", "sync"), ("conservative", "pingpong"), ("linearize", None)]
)
def test_flat_run_is_bit_identical_on_every_branch(examples, name, mode, dma):
    module, cases = examples[name]
    flat = lowered(module, mode, dma)
    if_count = sum(isinstance(op, scf.IfOp) for op in flat.walk())
    assert {step for _, trace, _ in cases for step in trace} == {
        (f"if#{k}", taken) for k in range(if_count) for taken in (True, False)
    }, "the inputs do not reach both branches of every if"
    for inputs, trace, want in cases:
        got = run_flat(flat, inputs)
        assert tuple(got.branches) == trace
        assert want.outputs.keys() == got.outputs.keys()
        for key in want.outputs:
            np.testing.assert_array_equal(got.outputs[key], want.outputs[key])


def test_lowered_form_prints_and_parses_back(examples):
    module, _ = examples["denoise"]
    flat = lowered(module)
    reparsed, _ = parse_module(str(flat))
    inputs = examples["denoise"][1][0][0]
    np.testing.assert_array_equal(run_flat(reparsed, inputs).outputs["clean"], run_flat(flat, inputs).outputs["clean"])


def test_io_on_chip_copies_inputs_in_and_results_out(examples):
    module, cases = examples["fusiondetect"]
    flat = lowered(module, io_on_chip=True)
    fn = find_function(flat)
    copies = [op for op in fn.body.block.ops if isinstance(op, memref.CopyOp)]
    assert copies, "planned arguments must be copied into the arena"
    for inputs, _, reference in cases:
        want = reference.outputs
        got = run_flat(flat, inputs).outputs
        for key in want:
            np.testing.assert_array_equal(got[key], want[key])


# --- broken plans and broken lowered modules --------------------------------------


def overlapping_pair(module: ModuleOp):
    """Two top-level tensors (a, b): b is written while a is still to be read,
    by an op that does not itself read a."""
    fn = find_function(module)
    info = analyze_function(fn)
    top = [(v, t) for v, t in info.tensor_of.items() if t in info.tree.tensors and v.owner is not None]
    for va, a in top:
        for vb, b in top:
            if a.start < b.start < a.end and not hasattr(vb.owner, "branches") and va not in vb.owner.operands:
                return va, vb
    raise AssertionError("no overlapping pair")


def test_corrupted_offset_is_caught_with_both_names(examples):
    module, cases = examples["wakeword"]
    planned = module.clone()
    PlanMemoryPass().apply(make_context(), planned)
    a, b = overlapping_pair(planned)
    a_offset = a.owner.attributes[OFFSETS_ATTR].get_values()[a.index]
    b.owner.attributes[OFFSETS_ATTR] = DenseArrayBase.from_list(i64, [a_offset])
    lower_module(planned, check_plan=False)
    inputs, _, reference = cases[0]
    with pytest.raises(ClobberError) as err:
        run_flat(planned, inputs)
    assert f"reads %{a.name_hint} but %{b.name_hint} overwrote" in str(err.value)
    # without the checks the same plan silently computes wrong numbers
    unchecked = run_flat(planned, inputs, check=False).outputs
    want = reference.outputs
    assert any(not np.array_equal(unchecked[k], want[k]) for k in want)


def consumer_of(view: memref.ViewOp) -> ApplyOp:
    return next(use.operation for use in view.result.uses if isinstance(use.operation, ApplyOp))


def test_wait_moved_after_its_consumer_is_caught(examples):
    module, cases = examples["facedetect"]
    flat = lowered(module)
    fn = find_function(flat)
    wait = next(op for op in fn.walk() if isinstance(op, memref.DmaWaitOp))
    view = next(op for op in fn.walk() if isinstance(op, memref.ViewOp) and op.source.owner is not None
                and any(isinstance(u.operation, ApplyOp) for u in op.result.uses) and op.attributes.get("cfmem.tensor")
                and "_sram" in op.attributes["cfmem.tensor"].data)
    consumer = consumer_of(view)
    wait.detach()
    consumer.parent_block().insert_op_after(wait, consumer)
    with pytest.raises(ClobberError, match=r"reads %\w+_sram while the DMA of %\w+_sram .* not been waited for"):
        run_flat(flat, cases[0][0])


def test_missing_yield_copy_is_caught(examples):
    module, cases = examples["fusiondetect"]
    flat = lowered(module, dma=None)
    if_op = next(op for op in flat.walk() if isinstance(op, scf.IfOp))
    copy = next(op for op in if_op.false_region.block.ops if isinstance(op, memref.CopyOp))
    dest = copy.destination.owner.attributes["cfmem.tensor"].data
    copy.detach()
    else_inputs = next(inputs for inputs, trace, _ in cases if trace == (("if#0", False),))
    with pytest.raises(ClobberError, match=rf"reads %{dest} but (nothing wrote|%\w+ overwrote)"):
        run_flat(flat, else_inputs)


def test_output_over_its_own_input_is_caught(examples):
    module, cases = examples["facedetect"]
    flat = lowered(module, dma=None)
    apply = next(op for op in flat.walk() if isinstance(op, ApplyOp) and op.outs[0].owner is not None
                 and isinstance(op.outs[0].owner, memref.ViewOp) and isinstance(op.ins[0].owner, memref.ViewOp)
                 and op.ins[0].owner.source is op.outs[0].owner.source and INPLACE_ATTR not in op.attributes)
    apply.outs[0].owner.operands[1] = apply.ins[0].owner.byte_shift
    with pytest.raises(ClobberError, match="over its own input"):
        run_flat(flat, cases[0][0])


def test_lowering_an_unplanned_function_names_it(cfmem, tmp_path):
    result = cfmem("opt", str(EXAMPLES / "denoise.mlir"), "-p", "nn-lower-to-memref", "-o", str(tmp_path / "x.mlir"))
    assert result.returncode == 1
    assert "function @main has no memory plan: run nn-plan-memory before nn-lower-to-memref" in result.stderr
    assert not (tmp_path / "x.mlir").exists()


def test_file_blobs_are_read_from_the_weights_dir(tmp_path):
    weights = np.arange(16, dtype="<f4")
    (tmp_path / "w.bin").write_bytes(b"\0" * 8 + weights.tobytes())
    text = """
    nn.global @w size(64) file("w.bin", 8)
    func.func @main(%x: tensor<1x16xf32>) -> tensor<1x16xf32> {
      %b = nn.get_global @w : tensor<64xi8>
      %v = nn.view %b[0] bytes(64) : tensor<64xi8> to tensor<1x16xf32>
      %y = nn.add %x, %v : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
      func.return %y : tensor<1x16xf32>
    }"""
    module, _ = parse_module(text)
    PlanMemoryPass().apply(make_context(), module)
    lower_module(module, tmp_path)
    out = run_flat(module, {"x": np.ones((1, 16), np.float32)}).outputs["y"]
    np.testing.assert_array_equal(out, weights.reshape(1, 16) + 1)


def test_reshapes_of_a_constant_are_constants_of_their_own():
    """A reshaped scalar constant (as an import makes of a known one-element operand) is read
    from a global in its new shape, with its value; it took the lowering a KeyError before."""
    text = """
    func.func @main(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<1x1xi64>) {
      %c = nn.constant dense<2.5> : tensor<f32>
      %r = nn.reshape %c : tensor<f32> to tensor<1xf32>
      %rr = nn.reshape %r : tensor<1xf32> to tensor<1x1xf32>
      %y = nn.mul %x, %rr : (tensor<2x3xf32>, tensor<1x1xf32>) -> tensor<2x3xf32>
      %n = nn.constant dense<7> : tensor<1xi64>
      %nn = nn.reshape %n : tensor<1xi64> to tensor<1x1xi64>
      func.return %y, %nn : tensor<2x3xf32>, tensor<1x1xi64>
    }"""
    module, _ = parse_module(text)
    flat = lowered(module, dma=None)
    constants = [g for g in flat.body.ops if isinstance(g, memref.GlobalOp) and g.constant is not None]
    assert sorted(tuple(g.type.get_shape()) for g in constants) == [(), (1,), (1,), (1, 1), (1, 1)]
    outputs = run_flat(flat, {"x": np.ones((2, 3), np.float32)}, check=True).outputs
    assert outputs.keys() == {"y", "nn"}
    np.testing.assert_array_equal(outputs["y"], np.full((2, 3), 2.5, np.float32))
    np.testing.assert_array_equal(outputs["nn"], np.array([[7]], np.int64))


def test_cfmem_run_picks_the_flat_interpreter(tmp_path):
    flat_path = tmp_path / "flat.mlir"
    result = run_cfmem("opt", str(EXAMPLES / "wakeword.mlir"), "-p", "nn-insert-dma,nn-plan-memory,nn-lower-to-memref",
                       "-o", str(flat_path))
    assert result.returncode == 0, result.stderr
    runs = [run_cfmem("run", str(p), "--seed", "2", "-o", str(tmp_path / f"{k}.npz"))
            for k, p in enumerate([EXAMPLES / "wakeword.mlir", flat_path])]
    assert all(r.returncode == 0 for r in runs), [r.stderr for r in runs]
    assert runs[0].stdout.splitlines()[:-1] == runs[1].stdout.splitlines()[:-1]
    a, b = np.load(tmp_path / "0.npz"), np.load(tmp_path / "1.npz")
    assert all(np.array_equal(a[k], b[k]) for k in a.files)


def test_interpreter_names_an_op_it_cannot_run():
    module, _ = parse_module("""
    func.func @main(%x: memref<4xf32>, %o: memref<4xf32>) attributes {cfmem.output_names = ["o"]} {
      %c = arith.constant 1.0 : f32
      func.return
    }""")
    with pytest.raises(InterpError, match="integer constants only"):
        FlatInterpreter(module).run(find_function(module), {"x": np.zeros(4, np.float32)})


@pytest.mark.parametrize("shape", [(), (3,)])
def test_bool_constants_hold_true_as_numpy_does(shape):
    """xDSL stores a true i1 as the byte 0xff; the flat form must read it as numpy's true
    (1), or ops that compare the bytes (xor of two trues) answer wrongly."""
    from cfmem.builder import GraphBuilder

    b = GraphBuilder("main")
    x = b.input("x", (3,), dtype=np.bool_)
    b.output(b.logical_xor(x, b.constant(np.ones(shape, np.bool_))), names=["y"])
    module = b.build()
    inputs = {"x": np.array([True, False, True])}
    want = run_function(module, inputs).outputs["y"]
    np.testing.assert_array_equal(want, [False, True, False])
    np.testing.assert_array_equal(run_flat(lowered(module), inputs).outputs["y"], want)
