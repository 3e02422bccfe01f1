"""Hand-edited plans and unplannable functions fail with one error naming the op.

``nn-lower-to-memref`` verifies the stored plan with the planners' verifier;
``nn-plan-memory`` and ``nn-liveness`` refuse ops with regions other than nn.if.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from cfmem.interp.flat import run_flat
from cfmem.interp.golden import find_function, random_inputs, run_function
from cfmem.ir_io import CfmemError, load_module, parse_module
from cfmem.passes.plan_memory import ALIAS_ATTR
from cfmem.pipeline import apply_pipeline

PLANNED = """nn.global @w size(64) seed(1)
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> attributes {cfmem.arena_size = 32 : i64} {
  %bl = nn.get_global @w : tensor<64xi8>
  %k = nn.view %bl[0] bytes(16) : tensor<64xi8> to tensor<4xf32>
  %a = nn.relu %x {cfmem.offsets = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32>
  %b = nn.add %a, %k {cfmem.offsets = array<i64: 16>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %c = nn.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %c : tensor<4xf32>
}
"""


def lower(text: str, spec: str = "nn-lower-to-memref"):
    module, _ = parse_module(text, "m.mlir")
    apply_pipeline(module, spec, "m.mlir")
    return module


def test_the_valid_plan_lowers():
    lower(PLANNED)


@pytest.mark.parametrize(
    "old, new, message",
    [
        ("array<i64: 16>", "array<i64: 32>", "buffer 'b' [3, 5) bytes [32, 48) does not fit in the arena of 32 bytes"),
        ("cfmem.arena_size = 32", "cfmem.arena_size = 16", "does not fit in the arena of 16 bytes"),
        ("array<i64: 16>", "array<i64: 0>", "buffers 'a' [2, 5) bytes [0, 16) and 'b' [3, 5) bytes [0, 16) are live together and overlap"),
        ("array<i64: 16>", "array<i64: 16, 48>", "'nn.add' defining %b in @main has 2 offsets for 1 value(s)"),
        ("array<i64: 16>", "array<i64: -16>", "'nn.add' result %b has negative offset -16 (-1 means off chip)"),
        ("array<i64: 16>", "array<i64: -1>", "'nn.add' result %b has no planned offset"),
        ("cfmem.arena_size = 32", "cfmem.arena_size = -1", "function @main has a negative cfmem.arena_size -1"),
        ("bytes(16) :", "bytes(16) {cfmem.offsets = array<i64: 0>} :", "'nn.view' result %k has offset 0 but is not an on-chip tensor"),
        (" attributes {cfmem.arena_size = 32 : i64}", "", "function @main has no memory plan"),
    ],
)
def test_a_hand_edited_plan_is_refused_before_lowering(old, new, message):
    with pytest.raises(CfmemError) as err:
        lower(PLANNED.replace(old, new, 1))
    assert message in err.value.message


@pytest.mark.parametrize(
    "text, message",
    [
        (PLANNED, "function @main: argument %x has type memref<4xf32>, not a tensor"),
        (PLANNED.replace("%x: tensor<4xf32>", "%x: tensor<4xf32>, %n: i32"), "argument %n has type i32, not a tensor"),
    ],
)
def test_lowering_a_non_tensor_function_is_one_error(text, message):
    spec = "nn-lower-to-memref,nn-lower-to-memref" if text == PLANNED else "nn-lower-to-memref"
    with pytest.raises(CfmemError) as err:
        lower(text, spec)
    assert message in err.value.message


SCF_IF = """func.func @main(%x: tensor<4xf32>, %c: i1) -> tensor<4xf32> {
  %a = nn.relu %x : (tensor<4xf32>) -> tensor<4xf32>
  %r = scf.if %c -> (tensor<4xf32>) {
    %t = nn.relu %a : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %t : tensor<4xf32>
  } else {
    scf.yield %a : tensor<4xf32>
  }
  %b = nn.relu %r : (tensor<4xf32>) -> tensor<4xf32>
  func.return %b : tensor<4xf32>
}
"""


@pytest.mark.parametrize("spec", ["nn-plan-memory", "nn-liveness"])
def test_an_upstream_scf_if_is_refused_by_name(spec):
    with pytest.raises(CfmemError) as err:
        lower(SCF_IF, spec)
    assert err.value.message == "'scf.if' defining %r in @main: only nn.if and nn.loop regions can be planned (write this control flow as nn.if or nn.loop)"


TWO_SLICED_GEMMS = """nn.global @w size(4096) seed(1)
func.func @main(%x: tensor<1x16xf32>) -> tensor<1x8xf32> {
  %blob = nn.get_global @w : tensor<4096xi8>
  %k = nn.view %blob[0] bytes(512) : tensor<4096xi8> to tensor<8x16xf32>
  %b = nn.view %blob[512] bytes(32) : tensor<4096xi8> to tensor<8xf32>
  %fc = nn.gemm %x, %k, %b {trans_b = true, cfmem.slices = 4 : i64} : (tensor<1x16xf32>, tensor<8x16xf32>, tensor<8xf32>) -> tensor<1x8xf32>
  %j = nn.view %blob[1024] bytes(256) : tensor<4096xi8> to tensor<8x8xf32>
  %c = nn.view %blob[1536] bytes(32) : tensor<4096xi8> to tensor<8xf32>
  %y = nn.gemm %fc, %j, %c {trans_b = true, cfmem.slices = 4 : i64} : (tensor<1x8xf32>, tensor<8x8xf32>, tensor<8xf32>) -> tensor<1x8xf32>
  func.return %y : tensor<1x8xf32>
}
"""


def _numbered(text: str) -> str:
    """``text`` with every value renamed ``%0``, ``%1``...: the parser keeps no name hints."""
    for k, name in enumerate(dict.fromkeys(re.findall(r"%([A-Za-z_]\w*)", text))):
        text = re.sub(rf"%{name}\b", f"%{k}", text)
    return text


def _clear_hints(module) -> None:
    for op in module.walk():
        for value in [*op.results, *(a for r in op.regions for blk in r.blocks for a in blk.args)]:
            value.name_hint = None


@pytest.mark.parametrize("unnamed", ["numbered", "hints cleared after slicing"])
def test_a_sliced_program_without_value_names_lowers_and_computes_the_reference(unnamed):
    """Planning and the check of the stored plan analyse different tensors (the check also
    plans the function's inputs and outputs); alias roots must keep their ids."""
    text = _numbered(TWO_SLICED_GEMMS) if unnamed == "numbered" else TWO_SLICED_GEMMS
    model, _ = parse_module(text, "m.mlir")
    apply_pipeline(model, "nn-slice-weights", "m.mlir")
    _clear_hints(model)
    flat = model.clone()
    apply_pipeline(flat, "nn-insert-dma,nn-plan-memory{strategy=sequential}", "m.mlir")
    assert any(ALIAS_ATTR in op.attributes for op in flat.walk())  # slices written in place into their concat
    apply_pipeline(flat, "nn-lower-to-memref", "m.mlir")
    for seed in range(2):
        inputs = random_inputs(find_function(model), seed)
        want = run_function(model, inputs).outputs
        got = run_flat(flat, inputs).outputs
        assert want.keys() == got.keys() and all(np.array_equal(got[k], want[k]) for k in want)


def test_cfmem_compile_of_a_sliced_program_without_value_names_computes_what_the_named_one_does(cfmem, tmp_path):
    """Through the command line too (there ``nn-place`` decides the slicing, and at this budget
    ``nn-roll-slices`` rolls a loop): the same numbers as the named program's flat module, close to the reference's."""
    flats = []
    for name, text in (("named", TWO_SLICED_GEMMS), ("numbered", _numbered(TWO_SLICED_GEMMS))):
        source, out = tmp_path / f"{name}.mlir", tmp_path / f"{name}_flat.mlir"
        source.write_text(text)
        done = cfmem("compile", str(source), "--budget", "400", "-o", str(out))
        assert done.returncode == 0, done.stderr
        flats.append(load_module(out)[0])
    assert any(op.name == "scf.for" for op in flats[1].walk())
    model, _ = parse_module(_numbered(TWO_SLICED_GEMMS), "numbered.mlir")
    for seed in range(2):
        x = random_inputs(find_function(model), seed)["arg0"]
        want = run_function(model, {"arg0": x}).outputs["result0"]
        named, numbered = run_flat(flats[0], {"x": x}).outputs["y"], run_flat(flats[1], {"arg0": x}).outputs["result0"]
        assert np.array_equal(numbered, named)
        np.testing.assert_allclose(numbered, want, rtol=1e-5, atol=1e-5)
