"""Hand-edited plans and unplannable functions fail with one error naming the op.

``nn-lower-to-memref`` verifies the stored plan with the planners' verifier;
``nn-plan-memory`` and ``nn-liveness`` refuse ops with regions other than nn.if.
"""

from __future__ import annotations

import pytest

from cfmem.ir_io import CfmemError, parse_module
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
