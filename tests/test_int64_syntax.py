"""Integers of nn.view and nn.global outside i64 are parse errors at the integer."""

from __future__ import annotations

import pytest

from cfmem.ir_io import CfmemError, parse_module

VIEW = """nn.global @w size(64) seed(1)
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %b = nn.get_global @w : tensor<64xi8>
  %k = nn.view %b[OFFSET] bytes(16) : tensor<64xi8> to tensor<4xf32>
  func.return %k : tensor<4xf32>
}
"""


@pytest.mark.parametrize(
    "text, where",
    [
        (VIEW.replace("OFFSET", "99999999999999999999"), "m.mlir:4:19"),
        (VIEW.replace("OFFSET", "0").replace("bytes(16)", "bytes(18446744073709551615)"), "m.mlir:4:28"),
        ("nn.global @w size(99999999999999999999) seed(1)\n", "m.mlir:1:19"),
        ("nn.global @w size(64) seed(-99999999999999999999)\n", "m.mlir:1:28"),
        ('nn.global @w size(64) file("w.bin", 99999999999999999999)\n', "m.mlir:1:37"),
    ],
)
def test_an_integer_beyond_i64_is_a_located_parse_error(text, where):
    with pytest.raises(CfmemError) as err:
        parse_module(text, "m.mlir")
    assert err.value.location == where
    assert err.value.message.startswith("integer ") and err.value.message.endswith(" does not fit in 64 bits (i64)")


def test_the_largest_offset_still_parses_and_fails_in_the_verifier():
    with pytest.raises(CfmemError, match="outside the blob of 64 bytes"):
        parse_module(VIEW.replace("OFFSET", str(2**63 - 1)), "m.mlir")
