"""Dense float attributes holding inf, -inf and NaN keep their bits through a print and parse
(xDSL prints them as hexadecimal bit patterns; cfmem.float_literals reads those back as bits)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from cfmem.interp.golden import run_function
from cfmem.ir_io import parse_module

SPECIAL = np.array([np.inf, -np.inf, np.nan, -0.0, 1.5], np.float32)
MODEL = """
func.func @main(%x: tensor<5xf32>) -> tensor<5xf32> {{
  %k = nn.constant dense<{values}> : tensor<5xf32>
  %y = nn.add %x, %k : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
  func.return %y : tensor<5xf32>
}}
"""


def constant_bits(module) -> bytes:
    op = next(o for o in module.walk() if o.name == "nn.constant")
    return op.properties["value"].data.data if "value" in op.properties else op.attributes["value"].data.data


def test_special_floats_keep_their_bits_through_print_and_parse():
    module, _ = parse_module(MODEL.format(values="[0x7F800000, 0xFF800000, 0x7FC00000, 0x80000000, 1.5]"))
    assert np.frombuffer(constant_bits(module), np.float32).tobytes() == SPECIAL.tobytes()
    again, _ = parse_module(str(module))
    assert constant_bits(again) == SPECIAL.tobytes()
    got = run_function(again, {"x": np.zeros(5, np.float32)}).outputs
    np.testing.assert_array_equal(next(iter(got.values())), np.zeros(5, np.float32) + SPECIAL)


def test_the_flat_form_written_by_xdsl_opt_keeps_an_infinity(tmp_path):
    """Plain xdsl-opt (cfmem loaded as its plugin) writes the flat module; cfmem run reads it."""
    source = tmp_path / "inf.mlir"
    source.write_text(MODEL.format(values="[0x7F800000, 0xFF800000, 0x7FC00000, 0x80000000, 1.5]"))
    flat = tmp_path / "flat.mlir"
    opt = subprocess.run([str(Path(sys.executable).parent / "xdsl-opt"), str(source), "-p", "nn-plan-memory,nn-lower-to-memref",
                          "-o", str(flat)], capture_output=True, text=True)  # fmt: skip
    assert opt.returncode == 0, opt.stderr
    from conftest import run_cfmem

    run = run_cfmem("run", str(flat), "--seed", "0", "-o", str(tmp_path / "o.npz"))
    assert run.returncode == 0, run.stderr
    out = np.load(tmp_path / "o.npz")
    y = out[out.files[0]]
    assert np.isposinf(y[0]) and np.isneginf(y[1]) and np.isnan(y[2])


@pytest.mark.parametrize(
    ("values", "message"),
    [("[-0x7F800000, 0, 0, 0, 0]", "cannot be negated"), ("[0x17F800000, 0, 0, 0, 0]", "wider than the 32 bits of f32")],
)
def test_a_hexadecimal_float_that_is_no_bit_pattern_is_refused(values, message):
    from cfmem.errors import CfmemError

    with pytest.raises(CfmemError, match=message):
        parse_module(MODEL.format(values=values))
