"""nn-liveness against an independent reference walk, and its messages.

The reference numbers each block's ops from 0 and, for every planned value,
takes the step of its def and the latest step (in the def's block) of an
ancestor of any reader; the readers of a DMA buffer include the waits on its
transfers and their results' users. A loop's results are planned even when
returned, its carried body arguments share its results' intervals, and its
iteration number (when read) and condition (when tested or read) live at its step. Run on every example and liveness lit
input, with and without the model's inputs and outputs on chip.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.utils.exceptions import PassFailedException

from cfmem.dialects.nn_compute import ConstantOp
from cfmem.dialects.nn_control import LoopOp
from cfmem.dialects.nn_dma import DmaStartOp, DmaWaitOp
from cfmem.dialects.nn_weights import GetGlobalOp, ReshapeOp, ViewOp
from cfmem.dialects.scratch import scratch_bytes
from cfmem.dialects.types import tensor_bytes
from cfmem.ir_io import parse_module
from cfmem.passes.liveness import LIVE_ATTR, analyze_function, functions, is_read_only, is_weight, op_position
from cfmem.pipeline import apply_pipeline
from conftest import ROOT

SOURCES = sorted((ROOT / "examples").glob("*.mlir"))
LIT = (ROOT / "lit_tests" / "passes" / "liveness.mlir").read_text().split("// -----")


def modules() -> list[tuple[str, ModuleOp]]:
    found = []
    for path in SOURCES:
        module, _ = parse_module(path.read_text(), str(path))
        found.append((path.stem, module))
        with_dma, _ = parse_module(path.read_text(), str(path))
        apply_pipeline(with_dma, "nn-insert-dma", base_dir=path.parent)
        found.append((f"{path.stem}+dma", with_dma))
    for k, chunk in enumerate(LIT):
        module, _ = parse_module(chunk, f"liveness.mlir#{k}")
        found.append((f"lit{k}", module))
    return found


MODULES = modules()


def reference_read_only(value: SSAValue) -> bool:
    owner = value.owner
    if isinstance(owner, ReshapeOp):
        return reference_read_only(owner.input)
    return isinstance(owner, GetGlobalOp | ViewOp | ConstantOp)


def readers(value: SSAValue) -> list[Operation]:
    found = []
    for use in value.uses:
        found.append(use.operation)
        if isinstance(use.operation, DmaStartOp) and use.operation.buffer is value:
            for wait_use in use.operation.token.uses:
                found.append(wait_use.operation)
                found.extend(u.operation for r in wait_use.operation.results for u in r.uses)
    return found


def step_in(block: Block, op: Operation) -> int:
    ancestors = [op]
    while ancestors[-1].parent_block() is not block:
        ancestors.append(ancestors[-1].parent_op())
    return list(block.ops).index(ancestors[-1])


def reference(fn: func.FuncOp, io_on_chip: bool) -> dict[SSAValue, tuple[int, int]]:
    returned = set(fn.body.block.last_op.operands)
    intervals = {}

    def visit(value: SSAValue, block: Block, start: int) -> None:
        if not isinstance(value.type, TensorType) or reference_read_only(value) or isinstance(value.owner, DmaWaitOp):
            return
        if not io_on_chip and (value in returned and not isinstance(value.owner, LoopOp) or isinstance(value.owner, Block)):
            return
        intervals[value] = (start, max([start] + [step_in(block, r) for r in readers(value)]))

    for op in fn.walk():
        if op is fn:
            for arg in fn.body.block.args:
                visit(arg, fn.body.block, 0)
            continue
        if op.parent_op() is not None and op.parent_block() is not None and not isinstance(op, func.FuncOp):
            block = op.parent_block()
            for result in op.results:
                visit(result, block, list(block.ops).index(op))
            if isinstance(op, LoopOp):
                step = list(block.ops).index(op)
                args = op.body.block.args
                for arg, result in zip(args[2:], op.results):
                    if result in intervals:
                        intervals[arg] = intervals[result]
                if args[0].uses:
                    intervals[args[0]] = (step, step)
                end = op.body.block.last_op
                if not op.is_counted() or any(u.operation is not end for u in args[1].uses):
                    intervals[args[1]] = (step, step)
    return intervals




def reference_scratch(fn: func.FuncOp) -> dict[str, tuple[int, int, int]]:
    """Per op whose kernel needs scratch: the tensor ``<result>#scratch`` of its bytes, live at
    the op's step of its block only."""
    found = {}
    for op in fn.walk():
        if op is not fn and op.results and scratch_bytes(op):
            step = list(op.parent_block().ops).index(op)
            found[f"{op.results[0].name_hint}#scratch"] = (step, step, scratch_bytes(op))
    return found


@pytest.mark.parametrize("io_on_chip", [False, True])
@pytest.mark.parametrize(("name", "module"), MODULES, ids=[n for n, _ in MODULES])
def test_every_interval_matches_the_reference_walk(name, module, io_on_chip):
    checked = 0
    for fn in functions(module):
        info = analyze_function(fn, io_on_chip)
        expected = reference(fn, io_on_chip)
        got = {value: (t.start, t.end) for value, t in info.tensor_of.items()}
        assert got == expected
        for value, tensor in info.tensor_of.items():
            assert tensor.size == tensor_bytes(value.type)
        all_tensors = [t.id for t in info.tree.all_tensors()]
        scratch = {t.id: (t.start, t.end, t.size) for t in info.scratch_of.values()}
        assert scratch == reference_scratch(fn)
        assert sorted(all_tensors) == sorted({t.id for t in info.tensor_of.values()} | set(scratch))  # carried args share
        assert len(set(all_tensors)) == len(all_tensors)
        checked += len(expected)
    assert checked


@pytest.mark.parametrize(("name", "module"), MODULES, ids=[n for n, _ in MODULES])
def test_the_region_tree_mirrors_the_blocks_and_numbers_ifs_in_walk_order(name, module):
    for fn in functions(module):
        info = analyze_function(fn)
        assert info.region_of[fn.body.block] is info.tree
        for block, region in info.region_of.items():
            assert region.num_steps == len(list(block.ops))
            assert [info.if_node_of[op] for op in block.ops if op in info.if_node_of] == region.ifs
            for node in region.ifs:
                op = next(o for o, n in info.if_node_of.items() if n is node)
                assert node.step == list(block.ops).index(op)
                assert node.branches == [info.region_of[r.block] for r in op.regions]
        ifs_in_walk_order = [op for op in fn.walk() if op in info.if_node_of]
        assert [info.if_node_of[op].id for op in ifs_in_walk_order] == list(range(len(ifs_in_walk_order)))


@pytest.mark.parametrize("io_on_chip", [False, True])
def test_the_pass_writes_each_ops_intervals_with_minus_one_for_unplanned_results(io_on_chip):
    name, module = next((n, m) for n, m in MODULES if n == "wakeword+dma")
    module = module.clone()
    apply_pipeline(module, f"nn-liveness{{io-on-chip={'true' if io_on_chip else 'false'}}}")
    for fn in functions(module):
        expected = reference(fn, io_on_chip)
        for op in fn.walk():
            pairs = [x for r in op.results for x in expected.get(r, (-1, -1))]
            if any(r in expected for r in op.results):
                assert list(op.attributes[LIVE_ATTR].get_values()) == pairs
            else:
                assert LIVE_ATTR not in op.attributes


READ_ONLY = """
builtin.module {
  nn.global @w size(64) seed(1) scale(1.0 : f64)
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    %w = nn.get_global @w : tensor<64xi8>
    %v = nn.view %w[0] bytes(16) : tensor<64xi8> to tensor<4xf32>
    %vr = nn.reshape %v : tensor<4xf32> to tensor<2x2xf32>
    %vrr = nn.reshape %vr : tensor<2x2xf32> to tensor<4xf32>
    %k = nn.constant dense<1.0> : tensor<4xf32>
    %kr = nn.reshape %k : tensor<4xf32> to tensor<2x2xf32>
    %a = nn.relu %x : (tensor<4xf32>) -> tensor<4xf32>
    %ar = nn.reshape %a : tensor<4xf32> to tensor<2x2xf32>
    func.return %a : tensor<4xf32>
  }
}
"""


def test_weights_constants_and_reshapes_of_them_are_read_only_and_only_globals_are_weights():
    module, _ = parse_module(READ_ONLY)
    values = {r.name_hint: r for op in module.walk() for r in op.results if r.name_hint}
    read_only = {name for name, value in values.items() if is_read_only(value)}
    weights = {name for name, value in values.items() if is_weight(value)}
    assert read_only == {"w", "v", "vr", "vrr", "k", "kr"}
    assert weights == {"w", "v", "vr", "vrr"}
    fn = next(iter(functions(module)))
    assert not is_read_only(fn.body.block.args[0])


SCF = """
func.func @g(%x: tensor<4xf32>, %c: i1) -> tensor<4xf32> {
  PREFIX
  RESULT = scf.if %c -> (tensor<4xf32>) {
    scf.yield %x : tensor<4xf32>
  } else {
    scf.yield %x : tensor<4xf32>
  }
  func.return RESULT : tensor<4xf32>
}
"""


@pytest.mark.parametrize(
    ("prefix", "result", "where"),
    [
        ("", "%s", "defining %s in @g"),
        ("%a = nn.relu %x : (tensor<4xf32>) -> tensor<4xf32>", "%1", "after %a in @g"),
        ("%0 = nn.relu %x : (tensor<4xf32>) -> tensor<4xf32>", "%1", "in @g"),
    ],
)
def test_control_flow_other_than_nn_if_is_refused_where_it_is(prefix, result, where):
    module, _ = parse_module(SCF.replace("PREFIX", prefix).replace("RESULT", result))
    fn = next(iter(functions(module)))
    with pytest.raises(PassFailedException) as err:
        analyze_function(fn)
    assert str(err.value) == f"'scf.if' {where}: only nn.if and nn.loop regions can be planned (write this control flow as nn.if or nn.loop)"


POSITIONS = """
func.func @h(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = nn.relu %x : (tensor<4xf32>) -> tensor<4xf32>
  %a = nn.relu %0 : (tensor<4xf32>) -> tensor<4xf32>
  %1 = nn.tanh %a : (tensor<4xf32>) -> tensor<4xf32>
  %2 = nn.tanh %1 : (tensor<4xf32>) -> tensor<4xf32>
  func.return %a : tensor<4xf32>
}
"""


def test_an_op_is_placed_by_its_own_name_or_the_last_named_op_before_it():
    module, _ = parse_module(POSITIONS)
    fn = next(iter(functions(module)))
    ops = list(fn.body.block.ops)
    assert [op_position(op) for op in ops] == [
        "in @h", "defining %a in @h", "after %a in @h", "after %a in @h", "after %a in @h",
    ]  # fmt: skip
    assert op_position(fn) == "outside any function"


TWO_RESULTS = """
func.func @two(%x: tensor<4xf32>, %c: tensor<1xi1>) -> tensor<4xf32> {
  %kept, %out = nn.if %c : tensor<1xi1> -> (tensor<4xf32>, tensor<4xf32>) {
    %t = nn.relu %x : (tensor<4xf32>) -> tensor<4xf32>
    nn.yield %t, %t : tensor<4xf32>, tensor<4xf32>
  } else {
    nn.yield %x, %x : tensor<4xf32>, tensor<4xf32>
  }
  %y = nn.add %kept, %out : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %z = nn.add %y, %out : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %out : tensor<4xf32>
}
"""


def test_an_unplanned_result_beside_a_planned_one_is_written_as_minus_one():
    module, _ = parse_module(TWO_RESULTS)
    apply_pipeline(module, "nn-liveness")
    fn = next(iter(functions(module)))
    if_op = next(op for op in fn.walk() if op.name == "nn.if")
    assert list(if_op.attributes[LIVE_ATTR].get_values()) == [0, 1, -1, -1]  # %out is returned: off chip
    inner = next(op for op in fn.walk() if op.name == "nn.relu")
    assert op_position(inner) == "defining %t in @two"
