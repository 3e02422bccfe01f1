"""The flat form of a module with non-ASCII symbols prints and parses back."""

from __future__ import annotations

import io

import numpy as np
from xdsl.printer import Printer

from cfmem.interp.flat import run_flat
from cfmem.interp.golden import run_function
from cfmem.ir_io import parse_module
from cfmem.passes.lower_to_memref import flat_symbol
from cfmem.pipeline import apply_pipeline

MODEL = """nn.global @"wé" size(64) seed(1)
func.func @"fé"(%x: tensor<4xf32>) -> tensor<4xf32> {
  %b = nn.get_global @"wé" : tensor<64xi8>
  %k = nn.view %b[0] bytes(16) : tensor<64xi8> to tensor<4xf32>
  %y = nn.add %x, %k : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %c = nn.constant dense<2.0> : tensor<4xf32>
  %z = nn.mul %y, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %z : tensor<4xf32>
}
"""


def printed(module) -> str:
    text = io.StringIO()
    Printer(stream=text).print_op(module)
    return text.getvalue()


def test_non_ascii_symbols_survive_lowering_printing_and_parsing():
    module, _ = parse_module(MODEL, "m.mlir")
    flat = module.clone()
    apply_pipeline(flat, "nn-insert-dma,nn-plan-memory,nn-lower-to-memref")
    again, _ = parse_module(printed(flat), "flat.mlir")
    inputs = {"x": np.arange(4, dtype=np.float32)}
    want = run_function(module, inputs).outputs
    got = run_flat(again, inputs).outputs
    assert all(np.array_equal(want[k], got[k]) for k in want)


def test_flat_symbols_are_ascii_and_keep_ascii_names():
    assert flat_symbol("arena_main") == "arena_main"
    assert flat_symbol("wé") == "xn--w-bga" and flat_symbol("wé").isascii()
