"""Upper bounds of index values (cfmem.passes.index_bounds), one rule at a time.

Each case defines ``%v`` from a function's arguments (``%n``: an unknown index,
``%w``: an unknown i32) and states the interval the analysis must give; a bound
that is too small would let memref-plan-arena give a buffer too few bytes.
"""

import pytest
from xdsl.parser import Parser

from cfmem.ir_io import make_context
from cfmem.passes.index_bounds import IndexBounds

CASES = {
    "constant": ("%v = arith.constant 12 : index", (12, 12)),
    "unknown argument": ("%v = arith.addi %n, %n : index", (None, None)),
    "unsigned min clamps an unknown": ("%v = arith.minui %n, %c8 : index", (0, 8)),
    "signed min bounds only above": ("%v = arith.minsi %n, %c8 : index", (None, 8)),
    "signed max bounds only below": ("%v = arith.maxsi %n, %c8 : index", (8, None)),
    "max of clamps": ("%a = arith.minui %n, %c8 : index\n%v = arith.maxsi %a, %c3 : index", (3, 8)),
    "add": ("%a = arith.minui %n, %c8 : index\n%v = arith.addi %a, %c3 : index", (3, 11)),
    "sub": ("%a = arith.minui %n, %c8 : index\n%v = arith.subi %c3, %a : index", (-5, 3)),
    "mul": ("%a = arith.minui %n, %c8 : index\n%v = arith.muli %a, %c3 : index", (0, 24)),
    "unsigned division": ("%a = arith.minui %n, %c8 : index\n%v = arith.divui %a, %c3 : index", (0, 3)),
    "unsigned division of a maybe-negative value": (
        "%a = arith.minsi %n, %c8 : index\n%b = arith.maxsi %a, %cm4 : index\n%v = arith.divui %b, %c3 : index",
        (None, None),
    ),
    "signed ceil division": ("%a = arith.minui %n, %c8 : index\n%v = arith.ceildivsi %a, %c3 : index", (0, 3)),
    "unsigned remainder": ("%v = arith.remui %n, %c3 : index", (0, 2)),
    "signed remainder of an unknown": ("%v = arith.remsi %n, %c3 : index", (-2, 2)),
    "and with a mask": ("%v = arith.andi %n, %c8 : index", (0, 8)),
    "select": ("%a = arith.minui %n, %c8 : index\n%p = arith.cmpi slt, %n, %c3 : index\n%v = arith.select %p, %a, %c12 : index", (0, 12)),
    "select with an unknown side": ("%p = arith.cmpi slt, %n, %c3 : index\n%v = arith.select %p, %n, %c12 : index", (None, None)),
    "i32 widened": ("%a = arith.constant 7 : i32\n%v = arith.index_cast %a : i32 to index", (7, 7)),
    "loaded i32": ("%v = arith.index_cast %w : i32 to index", (None, None)),
    "static dim": ("%m = memref.alloc() : memref<5x6xf32>\n%v = memref.dim %m, %c1 : memref<5x6xf32>", (6, 6)),
    "affine min": ("%v = affine.min affine_map<(d0) -> (d0, 10)>(%n)", (None, 10)),
    "affine apply": (
        "%a = arith.minui %n, %c8 : index\n%v = affine.apply affine_map<(d0) -> (d0 * 2 + 1)>(%a)",
        (1, 17),
    ),
    "affine ceildiv": ("%a = arith.minui %n, %c8 : index\n%v = affine.apply affine_map<(d0) -> (d0 ceildiv 3)>(%a)", (0, 3)),
}


def interval_of(lines: str, loop: bool = False):
    body = "\n".join(f"    {line}" for line in lines.splitlines())
    if loop:
        body = f"    scf.for %i = %c3 to %c8 step %c1 {{\n  {body}\n      %sink = memref.alloc(%v) : memref<?xi8>\n    }}"
    else:
        body += '\n    %sink = memref.alloc(%v) : memref<?xi8>'
    text = (
        "func.func @f(%n: index, %w: i32) {\n"
        "    %c1 = arith.constant 1 : index\n    %c3 = arith.constant 3 : index\n"
        "    %c8 = arith.constant 8 : index\n    %c12 = arith.constant 12 : index\n    %cm4 = arith.constant -4 : index\n"
        f"{body}\n    func.return\n}}\n"
    )
    module = Parser(make_context(), text).parse_module()
    sink = next(op for op in module.walk() if op.name == "memref.alloc" and op.operands)
    return IndexBounds().interval(sink.operands[0])


@pytest.mark.parametrize("name", CASES)
def test_each_rule_gives_its_interval(name):
    lines, expected = CASES[name]
    assert interval_of(lines) == expected


def test_a_loop_induction_variable_is_below_the_upper_bound():
    assert interval_of("%v = arith.addi %i, %c1 : index", loop=True) == (4, 8)


def test_a_long_chain_is_unknown_past_the_depth_but_never_wrong():
    lines = ["%v0 = arith.minui %n, %c8 : index"] + [f"%v{k + 1} = arith.addi %v{k}, %c1 : index" for k in range(100)]
    lines.append("%v = arith.addi %v100, %c1 : index")
    assert interval_of("\n".join(lines)) == (None, None)
    shorter = lines[:40] + ["%v = arith.addi %v39, %c1 : index"]
    assert interval_of("\n".join(shorter)) == (40, 48)


def test_an_interval_does_not_depend_on_what_was_asked_before():
    """Looking at the end of a chain longer than the depth stops short of its start; a value
    in the middle, asked next, is still looked at through its whole (shorter) chain."""
    lines = ["%v0 = arith.minui %n, %c8 : index"] + [f"%v{k + 1} = arith.addi %v{k}, %c1 : index" for k in range(100)]
    text = "func.func @f(%n: index) {\n  %c1 = arith.constant 1 : index\n  %c8 = arith.constant 8 : index\n  "
    module = Parser(make_context(), text + "\n  ".join(lines) + "\n  func.return\n}\n").parse_module()
    value = {op.results[0].name_hint: op.results[0] for op in module.walk() if op.results}
    bounds = IndexBounds()
    assert bounds.interval(value["v100"]) == (None, None)
    assert bounds.interval(value["v50"]) == IndexBounds().interval(value["v50"]) == (50, 58)
    assert bounds.interval(value["v100"]) == (None, None)


def test_a_chain_that_doubles_back_is_looked_at_once_per_depth():
    """Each value adds its predecessor to itself: 2**100 paths through 100 values, so a look that
    reached a value again by another path would never end."""
    lines = ["%v0 = arith.minui %n, %c8 : index"] + [f"%v{k + 1} = arith.addi %v{k}, %v{k} : index" for k in range(100)]
    text = "func.func @f(%n: index) {\n  %c8 = arith.constant 8 : index\n  "
    module = Parser(make_context(), text + "\n  ".join(lines) + "\n  func.return\n}\n").parse_module()
    value = {op.results[0].name_hint: op.results[0] for op in module.walk() if op.results}
    assert IndexBounds().interval(value["v100"]) == (None, None)
    assert IndexBounds().interval(value["v40"]) == (0, 8 << 40)
