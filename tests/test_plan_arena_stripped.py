"""memref-plan-arena on cfmem's own lowered examples with their plan taken out.

Each example is planned by ``nn-plan-memory`` (without aliases), lowered to linalg and
prepared for upstream's JIT; ``strip_arena`` then turns every tensor's views of the
arena back into one allocation, and ``memref-plan-arena`` plans them again. On the
example's inputs the re-planned module's outputs must be bit-identical to the
original's under upstream's JIT. The loop-free examples run on their branch-covering
inputs and each arena is at its lower bound. seqkws' loops (a condition slot read with
two shapes, carried values in their results' bytes) run 0, 1, 2 and many times, and a
scan model checks that rows become views of their output's allocation, which a strip
that puts every row at the output's start fails. Each arena (in ``exact``) is no larger
than cfmem's plan (kernel scratch is planned in both, a tensor like the others).
"""

import hashlib

import numpy as np
import pytest
from xdsl.passes import PassPipeline

from cfmem.differential import linalg_text, run_mlir
from cfmem.ir_io import make_context, parse_module
from cfmem.mlir_check import mlir_available
from cfmem.mlir_check.prepare import prepare_for_jit
from cfmem.passes import PASSES
from cfmem.pipeline import lower_model
from cfmem.testing import stripped_plans
from cfmem.testing.stripped_plans import PLAN_TO_STRIP, NotStrippable, stripped_linalg
from conftest import EXAMPLES
from test_loops import SCAN, trip_cases  # noqa: F401 (a fixture: inputs running each loop of seqkws 0, 1, 2, many times)

pytestmark = pytest.mark.skipif(
    not mlir_available(), reason="upstream MLIR python bindings not installed (pip install 'cfmem[mlir]')"
)

LOOP_FREE = ["wakeword", "denoise", "facedetect", "fusiondetect", "bigfc"]


def main_of(module, name="main"):
    return next(op for op in module.walk() if op.name == "func.func" and op.sym_name.data == name)


MODES = ("exact", "linearize", "hoist", "conservative", "naive")


_LOWERED = {}
"""The flat module and its linalg text of each example, lowered once (read, never changed)."""


def flat_and_linalg(example):
    name = example.path.stem
    if name not in _LOWERED:
        flat = lower_model(example.module.clone(), PLAN_TO_STRIP, EXAMPLES)
        _LOWERED[name] = flat, linalg_text(flat)
    return _LOWERED[name]


def replan(text, mode="exact"):
    """``text`` stripped and planned again by memref-plan-arena in ``mode``."""
    stripped = stripped_linalg(text)
    PassPipeline.parse_spec(PASSES, f"memref-plan-arena{{mode={mode}}}").apply(make_context(), stripped)
    stripped.verify()
    return stripped


_ORIGINAL_OUTPUTS = {}
"""The JIT's outputs of a lowered module (by its text and input sets), run once: every mode
re-plans the same module."""


def original_outputs(text, flat, inputs):
    """``run_mlir(text, flat, inputs)``, the first time for ``text`` and ``inputs``."""
    digest = hashlib.sha256(text.encode())
    for input_set in inputs:
        digest.update(f"set of {len(input_set)}".encode())
        for name in sorted(input_set):
            array = np.asarray(input_set[name])
            digest.update(f"{name} {array.dtype.str} {array.shape}".encode())
            digest.update(np.ascontiguousarray(array).tobytes())
    key = digest.hexdigest()
    if key not in _ORIGINAL_OUTPUTS:
        _ORIGINAL_OUTPUTS[key] = run_mlir(text, flat, inputs)
    return _ORIGINAL_OUTPUTS[key]


def assert_same_bits(text, replanned, flat, inputs):
    """Upstream's JIT gives ``replanned`` the outputs of the lowered module ``text`` on each input set."""
    original, after = original_outputs(text, flat, inputs), run_mlir(str(prepare_for_jit(replanned)), flat, inputs)
    for before, got in zip(original, after):
        assert before.keys() == got.keys()
        for k in before:
            np.testing.assert_array_equal(got[k], before[k])




def arena_sizes(replanned, flat, name="main"):
    """The re-planned arena and cfmem's."""
    return tuple(main_of(m, name).attributes["cfmem.arena_size"].value.data for m in (replanned, flat))


def tensors_with_several_views(module):
    """Each tensor name on several memref.views of one allocation (before planning), and those views."""
    views = {}
    for op in module.walk():
        if op.name == "memref.view" and op.operands[0].owner.name == "memref.alloc" and "cfmem.tensor" in op.attributes:
            views.setdefault(op.attributes["cfmem.tensor"].data, []).append(op)
    return {name: ops for name, ops in views.items() if len(ops) > 1 and len({op.operands[0] for op in ops}) == 1}


@pytest.mark.parametrize("name", LOOP_FREE)
def test_cfmem_buffers_replanned_compute_the_same_bits(name, shared_examples):
    example = shared_examples(name)
    flat, text = flat_and_linalg(example)
    assert not any(op.name == "memref.get_global" and "arena_" in str(op.attributes) for op in stripped_linalg(text).walk())
    replanned = replan(text)
    assert_same_bits(text, replanned, flat, example.inputs)
    arena, cfmem_arena = arena_sizes(replanned, flat)
    assert arena == main_of(replanned).attributes["cfmem.lower_bound"].value.data
    assert arena <= cfmem_arena


@pytest.mark.parametrize("mode", MODES)
def test_seqkws_replanned_computes_the_same_bits_with_each_loop_run_0_1_2_and_many_times(mode, shared_examples, trip_cases):
    example = shared_examples("seqkws")
    flat, text = flat_and_linalg(example)
    # the while loop's condition slot is one tensor read as i8 and written as 1x1xi8: one allocation, three views
    assert {name: len(views) for name, views in tensors_with_several_views(stripped_linalg(text)).items()} == {"c.1": 3}
    replanned = replan(text, mode)
    assert_same_bits(text, replanned, flat, [*example.inputs, *trip_cases.values()])
    arena, cfmem_arena = arena_sizes(replanned, flat)
    if mode == "exact":
        assert arena <= cfmem_arena


@pytest.fixture(scope="module")
def scan():
    """The SCAN model planned, lowered to linalg, and an input running its 3 iterations (read, never changed)."""
    module, _ = parse_module(SCAN)
    flat = lower_model(module, "nn-plan-memory{aliases=false}", None)
    return flat, linalg_text(flat), [{"n": np.array(3), "x": np.linspace(-1, 1, 4, dtype=np.float32)}]


@pytest.mark.parametrize("mode", MODES)
def test_scan_rows_become_views_of_their_outputs_allocation(mode, scan):
    flat, text, inputs = scan
    views = tensors_with_several_views(stripped_linalg(text))
    assert [op.operands[1].owner.name for op in views["ys"]] == ["arith.constant", "arith.muli"]  # %ys, row i * 16 bytes
    replanned = replan(text, mode)
    assert_same_bits(text, replanned, flat, inputs)
    arena, cfmem_arena = arena_sizes(replanned, flat, "acc")
    if mode == "exact":  # 116 bytes, as cfmem's plan
        assert arena <= cfmem_arena


def test_a_strip_that_puts_every_row_at_the_outputs_start_is_caught(scan, monkeypatch):
    flat, text, inputs = scan
    shift = stripped_plans._shift
    monkeypatch.setattr(stripped_plans, "_shift", lambda view: (shift(view)[0], None))
    with pytest.raises(AssertionError, match="Arrays are not equal"):
        assert_same_bits(text, replan(text), flat, inputs)


def test_a_view_at_an_offset_of_another_form_is_not_strippable(scan):
    _, text, _ = scan
    broken = text.replace("arith.addi %c0, ", "arith.muli %c0, ")
    assert broken != text
    with pytest.raises(NotStrippable, match="tensor 'ys' is viewed at an offset not of the form constant \\+ computed"):
        stripped_linalg(broken)
