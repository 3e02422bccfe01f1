"""memref-plan-arena: fast cases that pin down what the liveness, the call check and the rewrite
decide (each tells a small change of the code from the code, without the JIT)."""

import pytest
from xdsl.dialects.builtin import DictionaryAttr, IndexType, UnitAttr
from xdsl.utils.exceptions import PassFailedException

from cfmem.passes.liveness import functions
from cfmem.passes.memref_liveness import analyze_allocations
from cfmem.passes.memref_flow import flows_into
from cfmem.passes.memref_plan_arena import append_argument
from tests.test_plan_arena import BRANCHES, PARALLEL_CALL, STORED_POINTER, parse, run
from tests.test_plan_arena import CALLER as ARENA_CALLER

UNSEEN = "'func.call' after %t in @main uses %t: its aliasing cannot be seen (memref-plan-arena plans memref, linalg and scf ops)"

CALLER = "func.func private @elsewhere(memref<2xf32, strided<[1]>>)\n" + ARENA_CALLER
LOAD = "%v{k} = memref.load %x[%c0] : memref<4xf32>"
PASS_ON = 'func.call @elsewhere(%{view}) : (memref<2xf32, strided<[1]>>) -> ()'


def refused_as_unseen(text: str) -> None:
    with pytest.raises(PassFailedException) as err:
        run(text, "memref-plan-arena")
    assert str(err.value) == UNSEEN
    assert err.value.op.name == "func.call"


def test_a_use_that_keeps_a_pointer_is_found_among_accesses_before_and_after_it():
    """The callee's loads do not end the walk over its parameter's uses: the call in between,
    to a function only declared, is found whichever order the uses are visited in."""
    body = "\n  ".join([
        "%c0 = arith.constant 0 : index",
        LOAD.format(k=0),
        '%s = memref.subview %x[0] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1]>>',
        PASS_ON.format(view="s"),
        LOAD.format(k=1),
    ])  # fmt: skip
    refused_as_unseen(CALLER.format(body=body))


@pytest.mark.parametrize("kept", [0, 1], ids=["first-view-passed-on", "second-view-passed-on"])
def test_every_view_of_a_parameter_is_followed(kept):
    """Two views of the parameter are pending at once; the one passed to a function only declared
    is refused whether it was made first or second."""
    body = "\n  ".join([
        '%s0 = "memref.cast"(%x) : (memref<4xf32>) -> memref<?xf32>',
        '%s1 = "memref.cast"(%x) : (memref<4xf32>) -> memref<?xf32>',
        f'func.call @dynamic(%s{kept}) : (memref<?xf32>) -> ()',
    ])  # fmt: skip
    refused_as_unseen(CALLER.format(body=body) + "func.func private @dynamic(memref<?xf32>)\n")


STORED = """
"memref.global"() <{sym_name = "slot", type = memref<memref<4xf32>>, initial_value, sym_visibility = "private"}> : () -> ()
func.func private @keep(%x: memref<4xf32>) {
  %g = memref.get_global @slot : memref<memref<4xf32>>
  memref.store %x, %g[] : memref<memref<4xf32>>
  func.return
}
func.func @main(%out: memref<4xf32>) {
  %t = memref.alloc() : memref<4xf32>
  func.call @keep(%t) : (memref<4xf32>) -> ()
  "memref.copy"(%t, %out) : (memref<4xf32>, memref<4xf32>) -> ()
  func.return
}
"""


def test_a_callee_that_stores_the_buffer_into_memory_keeps_a_pointer():
    refused_as_unseen(STORED)


def test_a_buffer_passed_through_a_chain_of_calls_that_only_access_it_is_planned():
    text = """
func.func private @inner(%y: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %v = memref.load %y[%c0] : memref<4xf32>
  memref.store %v, %y[%c0] : memref<4xf32>
  func.return
}
func.func private @outer(%f: f32, %x: memref<4xf32>) {
  func.call @inner(%x) : (memref<4xf32>) -> ()
  func.return
}
func.func @main(%out: memref<4xf32>) {
  %one = arith.constant 1.0 : f32
  %t = memref.alloc() : memref<4xf32>
  func.call @outer(%one, %t) : (f32, memref<4xf32>) -> ()
  "memref.copy"(%t, %out) : (memref<4xf32>, memref<4xf32>) -> ()
  func.return
}
"""
    main = functions(run(text, "memref-plan-arena"))[2]
    assert not any(op.name == "memref.alloc" for op in main.walk())
    assert main.attributes["cfmem.arena_size"].value.data == 16


RECURSIVE = """
func.func private @callee(%x: memref<4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %go = arith.cmpi sgt, %n, %c0 : index
  scf.if %go {
    %m = arith.subi %n, %c1 : index
    func.call @callee(%x, %m) : (memref<4xf32>, index) -> ()
  }
  func.return
}
func.func @main(%out: memref<4xf32>, %n: index) {
  %t = memref.alloc() : memref<4xf32>
  func.call @callee(%t, %n) : (memref<4xf32>, index) -> ()
  "memref.copy"(%t, %out) : (memref<4xf32>, memref<4xf32>) -> ()
  func.return
}
"""


def test_a_buffer_passed_to_a_recursive_callee_is_refused_in_one_line():
    """The walk into callees does not enter a callee it is already in, so recursion ends in a refusal."""
    refused_as_unseen(RECURSIVE)


def test_a_call_passing_more_operands_than_its_callee_takes_is_refused_in_one_line():
    """xDSL's verifier does not compare a call with its callee; the extra operand has no parameter."""
    text = """
func.func private @callee(%x: memref<4xf32>) {
  func.return
}
func.func @main(%out: memref<4xf32>) {
  %t = memref.alloc() : memref<4xf32>
  func.call @callee(%out, %t) : (memref<4xf32>, memref<4xf32>) -> ()
  func.return
}
"""
    refused_as_unseen(text)


def test_a_parameter_of_another_type_used_by_a_planned_region_op_is_still_checked_for_its_other_uses():
    """A call whose operand types differ from its callee's (which xDSL's verifier lets through)
    hands the buffer to an i1 parameter; its use as an scf.if condition passes nothing on, and
    the walk goes on to the later use that passes it to a function only declared."""
    text = """
func.func private @flag(i1)
func.func private @callee(%c: i1) {
  func.call @flag(%c) : (i1) -> ()
  scf.if %c {
  }
  func.return
}
func.func @main(%out: memref<4xf32>) {
  %t = memref.alloc() : memref<4xf32>
  func.call @callee(%t) : (memref<4xf32>) -> ()
  func.return
}
"""
    refused_as_unseen(text)


def test_an_unnamed_buffer_is_called_a_buffer():
    text = """
func.func @main() -> memref<4xf32> {
  %0 = memref.alloc() : memref<4xf32>
  func.return %0 : memref<4xf32>
}
"""
    with pytest.raises(PassFailedException) as err:
        run(text, "memref-plan-arena")
    assert str(err.value) == (
        "'func.return' in @main: a buffer escapes the function (return results through out-params to plan them)"
    )
    assert err.value.op.name == "func.return"


def test_a_memref_block_argument_of_another_region_op_is_refused_naming_that_op():
    text = """
func.func @main(%out: memref<4xf32>) {
  %r = affine.for %i = 0 to 4 iter_args(%p = %out) -> (memref<4xf32>) {
    affine.yield %p : memref<4xf32>
  }
  func.return
}
"""
    with pytest.raises(PassFailedException) as err:
        run(text, "memref-plan-arena")
    assert str(err.value) == (
        "'affine.for' defining %r in @main holds a memref block argument of 'affine.for': buffers are planned"
        " through scf.if, scf.for and scf.while regions, and other region ops only use them"
    )
    assert err.value.op.name == "affine.for"


def test_a_refusal_inside_another_region_op_names_that_op():
    text = """
func.func @main(%out: memref<4xf32>) {
  affine.for %i = 0 to 4 {
    %in = memref.alloc() : memref<4xf32>
  }
  func.return
}
"""
    module = parse(text)
    with pytest.raises(PassFailedException) as err:
        analyze_allocations(functions(module)[0])
    assert err.value.op is next(op for op in module.walk() if op.name == "affine.for")


def test_a_new_argument_keeps_the_attributes_of_the_others_and_adds_none_where_there_were_none():
    module = parse("""
func.func @marked(%x: memref<4xf32> {llvm.noalias}) {
  func.return
}
func.func @plain(%x: memref<4xf32>) {
  func.return
}
""")
    marked, plain = functions(module)
    append_argument(marked, IndexType(), {"cfmem.arena": UnitAttr()})
    assert [set(d.data) for d in marked.arg_attrs.data] == [{"llvm.noalias"}, {"cfmem.arena"}]
    append_argument(marked, IndexType())
    assert [set(d.data) for d in marked.arg_attrs.data] == [{"llvm.noalias"}, {"cfmem.arena"}, set()]
    append_argument(plain, IndexType())
    assert plain.arg_attrs is None and len(plain.body.block.args) == 2
    append_argument(plain, IndexType(), {"cfmem.arena": UnitAttr()})
    assert plain.arg_attrs.data == (DictionaryAttr({}), DictionaryAttr({}), DictionaryAttr({"cfmem.arena": UnitAttr()}))
    module.verify()


CARRIED_FROM_A_BRANCH_OF_A_WHILE = """
func.func @main(%x: memref<4xf32>, %nn: memref<1xi32>, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %true = arith.constant true
  %ni = memref.load %nn[%c0] : memref<1xi32>
  %n = arith.index_cast %ni : i32 to index
  %a = memref.alloc() : memref<4xf32>
  "memref.copy"(%x, %a) : (memref<4xf32>, memref<4xf32>) -> ()
  %r:2 = scf.while (%p = %a, %i = %c0) : (memref<4xf32>, index) -> (memref<4xf32>, index) {
    %go = arith.cmpi slt, %i, %n : index
    scf.condition(%go) %p, %i : memref<4xf32>, index
  } do {
  ^bb0(%q: memref<4xf32>, %j: index):
    %m = scf.if %true -> (memref<4xf32>) {
      %t = memref.alloc() : memref<4xf32>
      linalg.add ins(%q, %q : memref<4xf32>, memref<4xf32>) outs(%t : memref<4xf32>)
      scf.yield %t : memref<4xf32>
    } else {
      scf.yield %x : memref<4xf32>
    }
    %next = arith.addi %j, %c1 : index
    scf.yield %m, %next : memref<4xf32>, index
  }
  "memref.copy"(%r#0, %out) : (memref<4xf32>, memref<4xf32>) -> ()
  func.return
}
"""


def test_a_buffer_a_while_carries_out_of_a_branch_of_its_after_block_takes_that_blocks_flag():
    """%t, made in an scf.if of the after block, alternates between two slots chosen by the after
    block's parity flag (the new last argument of the block that holds the if)."""
    fn = functions(run(CARRIED_FROM_A_BRANCH_OF_A_WHILE, "memref-plan-arena"))[0]
    loop = next(op for op in fn.walk() if op.name == "scf.while")
    after = loop.regions[1].block
    view = next(op for op in fn.walk() if op.name == "memref.view" and op.results[0].name_hint == "t")
    select = view.operands[1].owner
    assert select.name == "arith.select" and select.operands[0] is after.args[-1]


def carried_loop(body: str, yielded: str, carried_type: str = "memref<4xf32>") -> str:
    """@main with an scf.for carrying one buffer (%p, starting as %a) whose iteration is ``body``
    and yields ``yielded``."""
    return f"""
func.func @main(%x: memref<4xf32>, %n: index, %out: memref<4xf32>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<4xf32>
  "memref.copy"(%x, %a) : (memref<4xf32>, memref<4xf32>) -> ()
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%p = %a) -> ({carried_type}) {{
    {body}
    scf.yield {yielded} : {carried_type}
  }}
  "memref.copy"(%r, %out) : (memref<4xf32>, memref<4xf32>) -> ()
  func.return
}}
"""


def refusal(text: str) -> PassFailedException:
    with pytest.raises(PassFailedException) as err:
        run(text, "memref-plan-arena")
    return err.value


CARRIED = "'memref.alloc' defining %t in @main: the buffer is carried into the next iteration of 'scf.for' defining %r in @main"
NOT_ENOUGH = f"{CARRIED} more than once, or with the previous iteration's buffer (two slots are not enough)"
NEW = """%t = memref.alloc() : memref<4xf32>
    linalg.fill ins(%zero : f32) outs(%t : memref<4xf32>)
    linalg.add ins(%t, %p : memref<4xf32>, memref<4xf32>) outs(%t : memref<4xf32>)"""


def test_a_buffer_carried_from_an_inner_loop_is_refused_naming_it():
    body = """%s = scf.for %j = %c0 to %c2 step %c1 iter_args(%q = %p) -> (memref<4xf32>) {
      %t = memref.alloc() : memref<4xf32>
      "memref.copy"(%q, %t) : (memref<4xf32>, memref<4xf32>) -> ()
      scf.yield %t : memref<4xf32>
    }"""
    err = refusal(carried_loop(body, "%s"))
    assert str(err) == f"{CARRIED} from an inner loop (its slots would alternate twice)"
    assert err.op.name == "memref.alloc"


def test_a_buffer_carried_in_two_positions_is_refused_naming_it():
    text = carried_loop(NEW, "%t, %t", "memref<4xf32>, memref<4xf32>")
    text = text.replace("iter_args(%p = %a)", "iter_args(%p = %a, %p2 = %a)").replace("%r = scf.for", "%r, %r2 = scf.for")
    err = refusal(text)
    assert str(err) == NOT_ENOUGH
    assert err.op.name == "memref.alloc"


@pytest.mark.parametrize(
    "choose",
    [
        "%s = scf.if %odd -> (memref<4xf32>) {\n      scf.yield %p : memref<4xf32>\n    } else {\n      scf.yield %t : memref<4xf32>\n    }",
        "%s = scf.for %j = %c0 to %k step %c1 iter_args(%z = %t) -> (memref<4xf32>) {\n      scf.yield %p : memref<4xf32>\n    }",
    ],
    ids=["scf.if", "loop yielding a captured value"],
)
def test_a_buffer_carried_with_the_previous_iterations_is_refused(choose):
    """The iteration yields its new buffer or the one it received: iteration k + 2 would take the
    slot of iteration k's buffer while reading it. Whether the received buffer flows out through a
    branch or through an inner loop that yields it as a captured value (and starts from the new one)."""
    parity = "%k = arith.remui %i, %c2 : index\n    %odd = arith.cmpi ne, %k, %c0 : index"
    err = refusal(carried_loop(f"{NEW}\n    {parity}\n    {choose}", "%s"))
    assert str(err) == NOT_ENOUGH
    assert err.op.name == "memref.alloc"


def test_a_carried_buffer_that_may_also_be_one_from_outside_the_loop_still_gets_two_slots():
    """The iteration yields its new %t or the buffer %a made before the loop: %t alternates between
    two slots whichever of its roots is looked at first."""
    choose = "%s = scf.if %odd -> (memref<4xf32>) {\n      scf.yield %a : memref<4xf32>\n    } else {\n      scf.yield %t : memref<4xf32>\n    }"
    parity = "%k = arith.remui %i, %c2 : index\n    %odd = arith.cmpi ne, %k, %c0 : index"
    for _ in range(4):  # the roots are a set: parse anew to meet other orders
        live = analyze_allocations(functions(parse(carried_loop(f"{NEW}\n    {parity}\n    {choose}", "%s")))[0])
        assert set(live.alternating) == {"t"}


SELF_FED_WHILE = """
func.func @main(%x: memref<4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %true = arith.constant true
  %init = memref.alloc() : memref<4xf32>
  %r:2 = scf.while (%p = %init, %i = %c0) : (memref<4xf32>, index) -> (memref<4xf32>, index) {
    MAKE
    "memref.copy"(%p, %b) : (memref<4xf32>, memref<4xf32>) -> ()
    %go = arith.cmpi slt, %i, %n : index
    scf.condition(%go) %b, %i : memref<4xf32>, index
  } do {
  ^bb0(%q: memref<4xf32>, %j: index):
    %next = arith.addi %j, %c1 : index
    scf.yield %r#0, %next : memref<4xf32>, index
  }
  "memref.copy"(%r#0, %x) : (memref<4xf32>, memref<4xf32>) -> ()
  func.return
}
"""
"""The after block yields the loop's own result (xDSL's verifier lets that through), so %b, made in
the before block, reaches the next iteration without passing a block argument of the after block."""


@pytest.mark.parametrize(
    "make",
    [
        "%b = memref.alloc() : memref<4xf32>",
        "%b = scf.if %true -> (memref<4xf32>) {\n      %m = memref.alloc() : memref<4xf32>\n      scf.yield %m : memref<4xf32>\n"
        "    } else {\n      scf.yield %x : memref<4xf32>\n    }",
    ],
    ids=["in the before block", "in a branch of the before block"],
)
def test_a_buffer_a_while_carries_from_its_before_block_takes_that_blocks_flag(make):
    fn = functions(run(SELF_FED_WHILE.replace("MAKE", make), "memref-plan-arena"))[0]
    before = next(op for op in fn.walk() if op.name == "scf.while").regions[0].block
    made = "b" if "alloc" in make.split("\n")[0] else "m"
    view = next(op for op in fn.walk() if op.name == "memref.view" and op.results[0].name_hint == made)
    select = view.operands[1].owner
    assert select.name == "arith.select" and select.operands[0] is before.args[-1]


def _main(body: str, args: str = "%out: memref<4xf32>") -> str:
    return f"func.func @main({args}) {{\n{body}\n  func.return\n}}\n"


RECURSIVE_MAIN = BRANCHES.replace(
    "func.return", "func.call @main(%c, %x, %out) : (i1, memref<4xf32>, memref<4xf32>) -> ()\n  func.return", 1
)
REFUSALS = {
    "blocks": (
        BRANCHES.replace("%out: memref<4xf32>) {", "%out: memref<4xf32>) {\n  cf.br ^bb1\n^bb1:", 1), "memref-plan-arena",
        "func.func", "'func.func' @main: its body has 2 blocks (branches such as cf.br); only scf control flow is planned"
        " (upstream's lift-cf-to-scf turns them into scf)",
    ),
    "stored": (
        STORED_POINTER.replace("STORE", "memref.store %a, %g[] : memref<memref<4xf32>>"), "memref-plan-arena",
        "memref.store", "'memref.store' after %a in @main stores %a into memory: a buffer loaded back is used where its"
        " lifetime cannot be seen",
    ),
    "layout": (
        _main("  %r = memref.alloc() : memref<4xf32, strided<[2]>>"), "memref-plan-arena",
        "memref.alloc", "'memref.alloc' defining %r in @main: memref<4xf32, strided<[2]>> has a layout (only identity"
        " layouts are planned)",
    ),
    "memory space": (
        _main("  %r = memref.alloc() : memref<4xf32, 1>"), "memref-plan-arena",
        "memref.alloc", "'memref.alloc' defining %r in @main: memref<4xf32, 1 : i64> is in memory space 1 : i64 (one"
        " arena, the default space)",
    ),
    "element": (
        _main("  %r = memref.alloc() : memref<4xcomplex<f32>>"), "memref-plan-arena",
        "memref.alloc", "'memref.alloc' defining %r in @main: unsupported element type complex<f32>",
    ),
    "unbounded": (
        _main("  %r = memref.alloc(%n) : memref<?xf32>", "%n: index"), "memref-plan-arena",
        "memref.alloc", "'memref.alloc' defining %r in @main: memref<?xf32> has a dynamic size %n with no upper bound to"
        " plan it with (clamp it, e.g. arith.minui %n, %c64)",
    ),
    "unbounded unnamed": (
        _main("  %r = memref.alloc(%0) : memref<?xf32>", "%0: index"), "memref-plan-arena",
        "memref.alloc", "'memref.alloc' defining %r in @main: memref<?xf32> has a dynamic size with no upper bound to"
        " plan it with (clamp it, e.g. arith.minui %n, %c64)",
    ),
    "one too large": (
        _main("  %r = memref.alloc() : memref<4611686018427387904xf32>"), "memref-plan-arena",
        "memref.alloc", "'memref.alloc' defining %r in @main: memref<4611686018427387904xf32> takes"
        " 18,446,744,073,709,551,616 bytes, more than an arena can address",
    ),
    "two too large": (
        _main("  %c0 = arith.constant 0 : index\n"
              + "".join(f"  %a{k} = memref.alloc() : memref<576460752303423488xf32>\n" for k in range(2))
              + "".join(f"  %v{k} = memref.load %a{k}[%c0] : memref<576460752303423488xf32>\n" for k in range(2))),
        "memref-plan-arena",
        "func.func", "@main needs 4,611,686,018,427,387,904 bytes of arena, more than it can address",
    ),
    "call at once": (
        PARALLEL_CALL.replace("CALLEE", "layer"), "memref-plan-arena",
        "func.call", "'func.call' after %r in @main calls @layer, whose buffers have fixed bytes in an arena, inside"
        " 'scf.parallel' after %c4 in @main: its iterations may run at once",
    ),
    "recursive, global": (
        RECURSIVE_MAIN, "memref-plan-arena",
        "func.call", "'func.call' after %r in @main: the call is recursive (@main -> @main); a recursive function's"
        " buffers cannot have fixed addresses",
    ),
    "recursive, argument": (
        RECURSIVE_MAIN, "memref-plan-arena{arena=argument}",
        "func.call", "'func.call' after %r in @main: the call is recursive (@main -> @main); its arena would have to"
        " hold itself",
    ),
}


@pytest.mark.parametrize(("text", "spec", "op", "message"), list(REFUSALS.values()), ids=list(REFUSALS))
def test_each_refusal_gives_its_whole_message_and_the_op_at_fault(text, spec, op, message):
    with pytest.raises(PassFailedException) as err:
        run(text, spec)
    assert str(err.value) == message
    assert err.value.op.name == op


FLOWS = """
func.func @main(%o: index) {
  %a = memref.alloc() : memref<64xi8>
  %v = memref.view %a[%o][] : memref<64xi8> to memref<4xf32>
  %base, %offset, %size, %stride = memref.extract_strided_metadata %v : memref<4xf32> -> memref<f32>, index, index, index
  %r = scf.while (%x = %v) : (memref<4xf32>) -> memref<4xf32> {
    %c = arith.constant false
    scf.condition(%c) %x : memref<4xf32>
  } do {
  ^bb0(%y: memref<4xf32>):
    scf.yield %y : memref<4xf32>
  }
  func.return
}
"""


def test_flows_into_names_only_the_values_a_buffer_becomes():
    """A view's first result (not an extract_strided_metadata's offset, size or stride; nothing
    for its index operands), a while's before-block argument (not the after block's), and for
    a condition only the values after its i1."""
    ops = {op.name: op for op in parse(FLOWS).walk()}
    view, metadata, loop = ops["memref.view"], ops["memref.extract_strided_metadata"], ops["scf.while"]
    condition = ops["scf.condition"]
    assert flows_into(view, 0) == [view.results[0]]
    assert flows_into(view, 1) == []
    assert flows_into(metadata, 0) == [metadata.results[0]]
    assert flows_into(loop, 0) == [loop.regions[0].block.args[0]]
    assert flows_into(condition, 0) == []
    assert flows_into(condition, 1) == [loop.regions[1].block.args[0], loop.results[0]]


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("mode=bogus", "unknown mode 'bogus' (choose from naive, conservative, linearize, hoist, exact)"),
        ("strategy=bogus", "unknown strategy 'bogus' (choose from sequential, large-first, short-first, best-fit, tflm,"
         " by-size, beam, search, auto)"),
        ("arena=bogus", "unknown arena 'bogus' (choose from global, argument)"),
        ("budget=-1", "budget must be an integer from 0 to 9223372036854775807, not -1"),
        ("time-limit=0", "time-limit must be a positive number of seconds, not 0"),
    ],
)
def test_a_bad_option_is_refused_under_its_own_name(option, message):
    with pytest.raises(PassFailedException) as err:
        run(BRANCHES, f"memref-plan-arena{{{option}}}")
    assert str(err.value) == message


def test_the_options_reach_the_planner(monkeypatch):
    """mode, strategy, time-limit and the alignment (the larger of align and an allocation's own)
    are what plan_tree is given."""
    import cfmem.passes.memref_plan_arena as arena_pass

    seen, plan_tree = [], arena_pass.plan_tree

    def spy(tree, mode, strategy, options, align):
        seen.append((mode, strategy, options.time_limit, align))
        return plan_tree(tree, mode, strategy, options, align)

    monkeypatch.setattr(arena_pass, "plan_tree", spy)
    run(BRANCHES, "memref-plan-arena{mode=linearize strategy=best-fit time-limit=0.5 align=64}")
    aligned = BRANCHES.replace("%a = memref.alloc() :", "%a = memref.alloc() {alignment = 128 : i64} :")
    run(aligned, "memref-plan-arena{mode=linearize strategy=best-fit time-limit=0.5 align=64}")
    assert seen == [("linearize", "best-fit", 0.5, 64), ("linearize", "best-fit", 0.5, 128)]


def test_the_arena_global_is_private_aligned_and_read_at_entry_then_its_offsets_in_order_of_use():
    """The global has the plan's alignment; the function's entry reads it as %arena, then makes each
    offset once, named c<offset>, in the order the buffers first take them."""
    module = run(BRANCHES, "memref-plan-arena{align=64}")
    glob = next(op for op in module.walk() if op.name == "memref.global")
    assert glob.sym_name.data == "arena_main" and glob.sym_visibility.data == "private"
    assert glob.alignment.value.data == 64
    fn = functions(module)[0]
    views = [op for op in fn.walk() if op.name == "memref.view"]
    offsets = list(dict.fromkeys(v.operands[1].owner.value.value.data for v in views))
    assert len(offsets) == 3
    entry = list(fn.body.block.ops)[: 1 + len(offsets)]
    assert entry[0].name == "memref.get_global" and entry[0].results[0].name_hint == "arena"
    assert [op.value.value.data for op in entry[1:]] == offsets
    assert [op.results[0].name_hint for op in entry[1:]] == [f"c{k}" for k in offsets]


def test_with_arena_argument_the_offsets_open_the_function_in_order_of_use_and_the_argument_is_named_arena():
    fn = functions(run(BRANCHES, "memref-plan-arena{arena=argument}"))[0]
    assert fn.body.block.args[-1].name_hint == "arena"
    views = [op for op in fn.walk() if op.name == "memref.view"]
    offsets = list(dict.fromkeys(v.operands[1].owner.value.value.data for v in views))
    entry = list(fn.body.block.ops)[: len(offsets)]
    assert [op.value.value.data for op in entry] == offsets
    assert [op.results[0].name_hint for op in entry] == [f"c{k}" for k in offsets]


@pytest.mark.parametrize("taken", [["arena_main"], ["arena_main", "arena_main_1"]])
def test_an_arena_global_takes_the_first_free_name(taken):
    decls = "".join(
        f'"memref.global"() <{{sym_name = "{name}", type = memref<1xi8>, initial_value, sym_visibility = "private"}}>'
        " : () -> ()\n" for name in taken
    )
    module = run(decls + BRANCHES, "memref-plan-arena")
    names = [op.sym_name.data for op in module.walk() if op.name == "memref.global"]
    assert names == [*taken, f"arena_main_{len(taken)}"]


INDEX_BUFFER = _main("  %c0 = arith.constant 0 : index\n  %r = memref.alloc() : memref<4xindex>\n"
                     "  %v = memref.load %r[%c0] : memref<4xindex>")


@pytest.mark.parametrize(("bits", "size"), [(64, 32), (32, 16)])
def test_index_bitwidth_sizes_index_buffers(bits, size):
    fn = functions(run(INDEX_BUFFER, f"memref-plan-arena{{index-bitwidth={bits}}}"))[0]
    assert fn.attributes["cfmem.arena_size"].value.data == size


def test_a_recursive_function_without_buffers_is_not_refused():
    """Only functions that allocate, or call one that does, are planned callee first and checked for
    recursion and for calls that may run at once."""
    text = RECURSIVE.split("func.func @main")[0] + """
func.func @other(%out: memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  "memref.copy"(%out, %a) : (memref<4xf32>, memref<4xf32>) -> ()
  func.return
}
"""
    module = run(text, "memref-plan-arena")
    assert functions(module)[-1].attributes["cfmem.arena_size"].value.data == 16
    run(PARALLEL_CALL.replace("CALLEE", "plain") + "func.func @plain(%x: memref<4xf32>) {\n  func.return\n}\n",
        "memref-plan-arena")


CALLS_A_LAYER = """
func.func private @plain(%x: memref<4xf32>) {
  func.return
}
func.func private @layer(%x: memref<4xf32>) {
  %a = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
  "memref.copy"(%x, %a) : (memref<4xf32>, memref<4xf32>) -> ()
  "memref.copy"(%a, %x) : (memref<4xf32>, memref<4xf32>) -> ()
  memref.dealloc %a : memref<4xf32>
  func.return
}
func.func @main(%x: memref<4xf32>, %out: memref<4xf32>) {
  %t = memref.alloc() : memref<4xf32>
  "memref.copy"(%x, %t) : (memref<4xf32>, memref<4xf32>) -> ()
  func.call @plain(%t) : (memref<4xf32>) -> ()
  CALL
  "memref.copy"(%t, %out) : (memref<4xf32>, memref<4xf32>) -> ()
  func.return
}
"""
LAYER_CALL = "func.call @layer(%t) : (memref<4xf32>) -> ()"


def test_a_caller_passes_each_callee_with_an_arena_a_new_aligned_one_after_calls_of_others():
    """The call of @plain (no arena) comes first; the call of @layer still gets an allocation of
    @layer's arena size and alignment (64, an allocation's own), planned by @main as %arena_layer
    next to %t, which is live across the call."""
    module = run(CALLS_A_LAYER.replace("CALL", LAYER_CALL), "memref-plan-arena{arena=argument}")
    plain, layer, main = functions(module)
    calls = {op.callee.root_reference.data: op for op in main.walk() if op.name == "func.call"}
    assert len(calls["plain"].operands) == 1 and len(calls["layer"].operands) == 2
    passed = calls["layer"].operands[-1].owner
    assert passed.name == "memref.view" and passed.results[0].name_hint == "arena_layer"
    offsets = {v.results[0].name_hint: v.operands[1].owner.value.value.data for v in main.walk() if v.name == "memref.view"}
    assert offsets["t"] != offsets["arena_layer"] and offsets["arena_layer"] % 64 == 0
    assert main.attributes["cfmem.arena_size"].value.data == 64 + layer.attributes["cfmem.arena_size"].value.data


def test_an_arena_passed_inside_a_loop_inside_another_region_op_is_made_before_the_outermost_one():
    """The call sits in an scf.for inside an affine.for: its arena is allocated before the
    affine.for (an allocation inside it would be refused), in @main's entry block."""
    loop = """%c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  affine.for %i = 0 to 2 {
    scf.for %j = %c0 to %c2 step %c1 {
      LAYER
    }
  }""".replace("LAYER", LAYER_CALL)
    module = run(CALLS_A_LAYER.replace("CALL", loop), "memref-plan-arena{arena=argument}")
    main = functions(module)[-1]
    view = next(v for v in main.walk() if v.name == "memref.view" and v.results[0].name_hint == "arena_layer")
    assert view.parent_block() is main.body.block


def test_a_call_in_a_sequential_loop_inside_a_parallel_one_is_refused_naming_the_parallel_one():
    text = PARALLEL_CALL.replace("CALLEE", "layer").replace(
        "    func.call @layer(%r) : (memref<4xf32>) -> ()",
        "    scf.for %j = %c0 to %c4 step %c1 {\n      func.call @layer(%r) : (memref<4xf32>) -> ()\n    }",
    )
    with pytest.raises(PassFailedException) as err:
        run(text, "memref-plan-arena")
    assert str(err.value) == (
        "'func.call' in @main calls @layer, whose buffers have fixed bytes in an arena, inside"
        " 'scf.parallel' after %c4 in @main: its iterations may run at once"
    )
    assert err.value.op.name == "func.call"
