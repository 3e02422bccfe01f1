"""memref-plan-arena on cfmem's own lowered examples with their plan taken out.

Each loop-free example is planned by ``nn-plan-memory`` (without aliases), lowered to
linalg and prepared for upstream's JIT; ``strip_arena`` then turns every view of the
arena back into an allocation, and ``memref-plan-arena`` plans them again. On the
example's branch-covering inputs the re-planned module's outputs must be bit-identical
to the original's under upstream's JIT, and its arena no larger than cfmem's plan plus
the kernels' scratch buffer, which the flat form keeps outside the arena.
"""

import numpy as np
import pytest
from xdsl.parser import Parser
from xdsl.passes import PassPipeline

from cfmem.differential import linalg_text, run_mlir
from cfmem.ir_io import make_context
from cfmem.mlir_check import mlir_available
from cfmem.mlir_check.prepare import prepare_for_jit
from cfmem.passes import PASSES
from cfmem.pipeline import lower_model
from cfmem.testing.stripped_plans import NotStrippable, strip_arena
from conftest import EXAMPLES

pytestmark = pytest.mark.skipif(
    not mlir_available(), reason="upstream MLIR python bindings not installed (pip install 'cfmem[mlir]')"
)

LOOP_FREE = ["wakeword", "denoise", "facedetect", "fusiondetect", "bigfc"]


def main_of(module):
    return next(op for op in module.walk() if op.name == "func.func" and op.sym_name.data == "main")


def flat_and_linalg(example):
    flat = lower_model(example.module.clone(), "nn-insert-dma,nn-plan-memory{aliases=false}", EXAMPLES)
    return flat, linalg_text(flat)


@pytest.mark.parametrize("name", LOOP_FREE)
def test_cfmem_buffers_replanned_compute_the_same_bits(name, shared_examples):
    example = shared_examples(name)
    flat, text = flat_and_linalg(example)
    stripped = strip_arena(Parser(make_context(), text).parse_module())
    assert not any(op.name == "memref.get_global" and "arena_" in str(op.attributes) for op in stripped.walk())
    scratch = sum(op.results[0].type.get_shape()[0] for op in stripped.walk() if op.name == "memref.alloca")
    PassPipeline.parse_spec(PASSES, "memref-plan-arena").apply(make_context(), stripped)
    stripped.verify()
    inputs = [case.inputs for case in example.cases]
    original, replanned = run_mlir(text, flat, inputs), run_mlir(str(prepare_for_jit(stripped)), flat, inputs)
    for before, after in zip(original, replanned):
        assert before.keys() == after.keys()
        assert all(np.array_equal(before[k], after[k]) for k in before)
    replanned_main = main_of(stripped)
    arena = replanned_main.attributes["cfmem.arena_size"].value.data
    assert arena == replanned_main.attributes["cfmem.lower_bound"].value.data
    assert arena <= main_of(flat).attributes["cfmem.arena_size"].value.data + scratch


def test_a_loop_model_is_not_strippable(shared_examples):
    """seqkws' loops read their carried values through several views of one tensor's bytes."""
    _, text = flat_and_linalg(shared_examples("seqkws"))
    with pytest.raises(NotStrippable, match="a tensor with several views of the arena"):
        strip_arena(Parser(make_context(), text).parse_module())
