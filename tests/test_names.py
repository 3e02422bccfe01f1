"""Value names and planning ids: the same IR gets the same ids, however it is analysed."""

from __future__ import annotations

import pytest

from cfmem.interp.golden import find_function
from cfmem.ir_io import parse_module
from cfmem.passes.liveness import analyze_function
from cfmem.passes.names import ValueNames, defined_values
from cfmem.passes.aliases import find_aliases
from cfmem.passes.plan_memory import ALIAS_KINDS

NUMBERED = """func.func @main(%0: tensor<4xf32>, %1: tensor<1xi1>) -> tensor<4xf32> {
  %2 = nn.relu %0 : (tensor<4xf32>) -> tensor<4xf32>
  %t1 = nn.relu %2 : (tensor<4xf32>) -> tensor<4xf32>
  %3 = nn.if %1 : tensor<1xi1> -> (tensor<4xf32>) {
    %4 = nn.relu %t1 : (tensor<4xf32>) -> tensor<4xf32>
    nn.yield %4 : tensor<4xf32>
  } else {
    nn.yield %2 : tensor<4xf32>
  }
  %5 = nn.add %3, %2 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %5 : tensor<4xf32>
}
"""


def _function(text: str):
    module, _ = parse_module(text, "m.mlir")
    return find_function(module)


def test_unnamed_values_are_named_by_the_number_the_printer_gives_them():
    fn = _function(NUMBERED)
    names = ValueNames(scope=fn)
    values = list(defined_values(fn))
    # %t1's hint is taken by the argument numbered %1: it gets a suffix, and no number
    assert [names(v) for v in values] == ["t0", "t1", "t2", "t1_1", "t3", "t4", "t5"]


@pytest.mark.parametrize("order", ["forward", "backward", "every other"])
def test_scoped_names_do_not_depend_on_which_values_are_asked_for_or_when(order):
    fn = _function(NUMBERED)
    values = list(defined_values(fn))
    asked = {"forward": values, "backward": values[::-1], "every other": values[1::2]}[order]
    reference = ValueNames(scope=fn)
    names = ValueNames(scope=fn)
    assert {v: names(v) for v in asked} == {v: reference(v) for v in asked}


def test_analyses_planning_different_tensors_give_shared_tensors_the_same_ids():
    """The stored-plan check plans the function's arguments and results too
    (``io_on_chip``); the ids of the tensors both plan, alias roots among them, must agree."""
    fn = _function(NUMBERED.replace("%t1 =", "%6 =").replace("%t1 :", "%6 :"))
    aliases = find_aliases(fn, ALIAS_KINDS)
    inner = analyze_function(fn, io_on_chip=False, aliases=aliases)
    with_io = analyze_function(fn, io_on_chip=True, aliases=aliases)
    assert inner.tensor_of and set(with_io.tensor_of) > set(inner.tensor_of)
    assert {v: t.id for v, t in inner.tensor_of.items()} == {v: with_io.tensor_of[v].id for v in inner.tensor_of}
