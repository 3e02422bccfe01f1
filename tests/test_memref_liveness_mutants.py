"""memref-plan-arena's liveness (cfmem.passes.memref_liveness): fast cases for sizes at their
limits, buffers with no use, buffers of an if's branches whose result is unused, the names
messages give ifs and loops, hoisted loops and malformed IR. Each runs the pass on a few ops."""

import pytest
from xdsl.passes import PassPipeline
from xdsl.utils.exceptions import PassFailedException

from cfmem.ir_io import make_context
from cfmem.passes import PASSES
from cfmem.passes.liveness import functions
from tests.test_plan_arena import parse, run


def arena_size(text: str, spec: str = "memref-plan-arena") -> int:
    (fn,) = functions(run(text, spec))
    assert not any(op.name in ("memref.alloc", "memref.dealloc") for op in fn.walk())
    return fn.attributes["cfmem.arena_size"].value.data


def refusal(text: str, spec: str = "memref-plan-arena") -> PassFailedException:
    with pytest.raises(PassFailedException) as err:
        run(text, spec)
    return err.value


def copies(*pairs: tuple[str, str], ty: str = "memref<4xf32>") -> str:
    return "\n".join(f'  "memref.copy"({a}, {b}) : ({ty}, {ty}) -> ()' for a, b in pairs)


def test_a_dynamic_size_bounded_by_zero_takes_no_bytes():
    """%z is live together with %a; at its bound, 0 elements, it needs no bytes of its own."""
    text = f"""
func.func @main(%out: memref<4xf32>) {{
  %c0 = arith.constant 0 : index
  %z = memref.alloc(%c0) : memref<?xf32>
  %a = memref.alloc() : memref<4xf32>
{copies(("%out", "%a"))}
  "memref.copy"(%z, %z) : (memref<?xf32>, memref<?xf32>) -> ()
{copies(("%a", "%out"))}
  func.return
}}
"""
    assert arena_size(text) == 16


TOO_LARGE = """
func.func @main() {
  %c0 = arith.constant 0 : index
  %t = memref.alloc() : memref<SIZExi8>
  %v = memref.load %t[%c0] : memref<SIZExi8>
  func.return
}
"""


def test_an_allocation_of_two_to_the_62_bytes_is_refused_at_the_allocation():
    """Offsets and the arena's size are index values: 2**62 - 1 bytes is the most one allocation takes."""
    err = refusal(TOO_LARGE.replace("SIZE", str(1 << 62)))
    assert str(err) == (
        "'memref.alloc' defining %t in @main: memref<4611686018427387904xi8> takes 4,611,686,018,427,387,904 bytes,"
        " more than an arena can address"
    )
    assert err.op.name == "memref.alloc"
    assert arena_size(TOO_LARGE.replace("SIZE", str((1 << 62) - 1))) == (1 << 62) - 1


def test_an_index_element_takes_the_bytes_of_index_bitwidth():
    """16 bits are 2 bytes; 24 bits, 3 bytes, are stored in 4 (a power of two, as LLVM does)."""
    text = """
func.func @main() {
  %c0 = arith.constant 0 : index
  %r = memref.alloc() : memref<4xindex>
  %v = memref.load %r[%c0] : memref<4xindex>
  func.return
}
"""
    assert [arena_size(text, f"memref-plan-arena{{index-bitwidth={bits}}}") for bits in (8, 16, 24)] == [4, 8, 16]


def test_with_align_1_buffers_are_packed_byte_by_byte():
    """No allocation asks for an alignment, so two 3-byte buffers live together take 6 bytes."""
    text = f"""
func.func @main(%out: memref<3xi8>) {{
  %a = memref.alloc() : memref<3xi8>
  %b = memref.alloc() : memref<3xi8>
{copies(("%out", "%a"), ("%a", "%b"), ("%b", "%out"), ty="memref<3xi8>")}
  func.return
}}
"""
    assert arena_size(text, "memref-plan-arena{align=1}") == 6
    assert arena_size(text.replace("memref.alloc()", "memref.alloc() {alignment = 4 : i64}", 1), "memref-plan-arena{align=1}") == 7


def test_a_buffer_only_deallocated_is_planned():
    text = """
func.func @main(%out: memref<4xf32>) {
  %t = memref.alloc() : memref<4xf32>
  memref.dealloc %t : memref<4xf32>
  func.return
}
"""
    assert arena_size(text) == 16


def test_buffers_of_both_branches_yielded_as_an_unused_result_share_a_slot():
    """Each buffer is used only in its own branch, so the two slots' common region is the if's parent."""
    text = f"""
func.func @main(%c: i1, %out: memref<4xf32>) {{
  %r = scf.if %c -> (memref<4xf32>) {{
    %t = memref.alloc() : memref<4xf32>
{copies(("%out", "%t"))}
    scf.yield %t : memref<4xf32>
  }} else {{
    %e = memref.alloc() : memref<4xf32>
    scf.yield %e : memref<4xf32>
  }}
  func.return
}}
"""
    assert arena_size(text) == 16


def test_a_bound_does_not_depend_on_the_allocations_planned_before():
    """%a's bound looks back through the whole chain, past the depth bounds look through; %b's
    size, in the chain's middle, is still bounded by its own (shorter) look back."""
    chain = "\n".join(f"  %x{k} = arith.addi %x{k - 1}, %c1 : index" for k in range(1, 81))
    a = '  %m = arith.minui %x80, %c64 : index\n  %a = memref.alloc(%m) : memref<?xf32>\n  "memref.copy"(%a, %a) : (memref<?xf32>, memref<?xf32>) -> ()'
    b = '  %b = memref.alloc(%x30) : memref<?xf32>\n  "memref.copy"(%b, %b) : (memref<?xf32>, memref<?xf32>) -> ()'
    head = "func.func @main() {\n  %c1 = arith.constant 1 : index\n  %c64 = arith.constant 64 : index\n  %x0 = arith.constant 0 : index\n"
    sizes = [arena_size(f"{head}{chain}\n{first}\n{second}\n  func.return\n}}\n") for first, second in ((a, b), (b, a))]
    assert sizes == [256, 256]  # 64 floats, then 30 in the same bytes


# --- how messages name ifs and loops -------------------------------------------------------

LOOP_AND_IF = """
func.func @main(%c: i1, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  FIRST
  SECOND
  func.return
}
"""
LOOP = """scf.for %i = %c0 to %c4 step %c1 {
    %l = memref.alloc() : memref<SIZExf32>
    "memref.copy"(%l, %l) : (memref<SIZExf32>, memref<SIZExf32>) -> ()
  }"""
IF = LOOP.replace("scf.for %i = %c0 to %c4 step %c1", "scf.if %c").replace("%l", "%t")


@pytest.mark.parametrize(
    ("first", "second", "where"),
    [(LOOP, IF, "step 4 > if#0.then > step 0"), (IF, LOOP, "step 4 > loop#0.body > step 0")],
    ids=["if after a loop", "loop after an if"],
)
def test_the_budget_message_counts_ifs_and_loops_apart(first, second, where):
    text = LOOP_AND_IF.replace("FIRST", first.replace("SIZE", "4")).replace("SECOND", second.replace("SIZE", "16"))
    err = refusal(text, "memref-plan-arena{budget=8}")
    assert str(err) == f"function @main needs 64 bytes of arena (lower bound 64, reached at {where}) but the budget is 8"
    assert err.op.name == "func.func"


def test_two_loops_of_one_region_are_hoisted_as_two_blocks():
    """mode=hoist plans each loop's body apart and places it as one block; the two loops run one
    after the other, so their blocks share bytes."""
    text = LOOP_AND_IF.replace("FIRST", LOOP.replace("SIZE", "4")).replace("SECOND", LOOP.replace("SIZE", "16").replace("%l", "%m"))
    module = run(text, "memref-plan-arena{mode=hoist}")
    (fn,) = functions(module)
    assert fn.attributes["cfmem.arena_size"].value.data == 64
    loops = [op for op in fn.body.block.ops if op.name == "scf.for"]
    assert [[op.name for op in loop.body.block.ops if op.name.startswith("memref.")] for loop in loops] == [
        ["memref.view", "memref.copy"], ["memref.view", "memref.copy"]
    ]


# --- malformed IR, as a pass applied without verifying sees it ----------------------------


def test_an_allocation_of_a_tensor_is_refused_at_the_allocation():
    """xDSL's verifier refuses it, but a pipeline built in Python may apply the pass unverified."""
    text = """
func.func @main() {
  %t = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> tensor<4xf32>
  func.return
}
"""
    module = parse(text)
    with pytest.raises(PassFailedException) as err:
        PassPipeline.parse_spec(PASSES, "memref-plan-arena").apply(make_context(), module)
    assert str(err.value) == "'memref.alloc' defining %t in @main: result type tensor<4xf32> is not a memref"
    assert err.value.op is next(op for op in module.walk() if op.name == "memref.alloc")


def test_a_use_outside_the_function_is_refused_at_the_use():
    text = """
"memref.copy"(%a, %x) : (memref<4xf32>, memref<4xf32>) -> ()
func.func @main(%x: memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  func.return
}
"""
    module = parse(text)
    with pytest.raises(PassFailedException) as err:
        PassPipeline.parse_spec(PASSES, "memref-plan-arena").apply(make_context(), module)
    assert str(err.value) == "'memref.copy' outside any function uses %a outside @main, which defines it"
    assert err.value.op is module.body.block.first_op


def test_a_buffer_made_in_a_linalg_body_is_refused_as_in_any_region_op_but_scf():
    """A linalg op's body is one step, as an affine.for's: the loads of a captured buffer there are
    the linalg op's uses, and a buffer made there could have no fixed bytes (its iterations may
    run at once)."""
    text = """
func.func @main(%x: memref<4xf32>, %out: memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  "memref.copy"(%x, %a) : (memref<4xf32>, memref<4xf32>) -> ()
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%out : memref<4xf32>) {
  ^bb0(%o: f32):
    %c0 = arith.constant 0 : index
    %s = memref.alloca() : memref<f32>
    %v = memref.load %a[%c0] : memref<4xf32>
    memref.store %v, %s[] : memref<f32>
    %w = memref.load %s[] : memref<f32>
    linalg.yield %w : f32
  }
  func.return
}
"""
    err = refusal(text)
    assert str(err) == (
        "'linalg.generic' after %a in @main holds 'memref.alloca' defining %s in @main: buffers are planned through"
        " scf.if, scf.for and scf.while regions, and other region ops only use them"
    )
    assert err.op.name == "linalg.generic"
    without_scratch = text.replace("    %s = memref.alloca() : memref<f32>\n", "").replace(
        "    memref.store %v, %s[] : memref<f32>\n    %w = memref.load %s[] : memref<f32>\n", "").replace("%w : f32", "%v : f32")
    assert arena_size(without_scratch) == 16


@pytest.mark.parametrize(("block", "label"), [(LOOP, "loop#2.body"), (IF, "if#2.then")], ids=["loops", "ifs"])
def test_the_budget_message_numbers_each_if_and_loop_in_turn(block, label):
    """Three loops (or ifs) in a row, the third's buffer the largest: it is the third named."""
    blocks = "\n  ".join(block.replace("SIZE", size).replace("%l", f"%l{k}").replace("%t", f"%t{k}") for k, size in enumerate(("4", "4", "16")))
    text = LOOP_AND_IF.replace("FIRST", blocks).replace("SECOND", "")
    err = refusal(text, "memref-plan-arena{budget=8}")
    assert str(err) == f"function @main needs 64 bytes of arena (lower bound 64, reached at step 5 > {label} > step 0) but the budget is 8"
