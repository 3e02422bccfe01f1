"""nn-lower-to-memref at module level: the globals it makes (blobs, constants, arenas), where
it puts them and the functions, the ASCII symbols of the flat form, and its one-line
refusals of signatures it cannot lower."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import func, memref
from xdsl.dialects.builtin import IntegerAttr, MemRefType, ModuleOp, NoneAttr, StringAttr, i8

from cfmem.dialects.nn_weights import GlobalOp
from cfmem.errors import CfmemError
from cfmem.interp.flat import run_flat
from cfmem.interp.golden import run_function
from cfmem.interp.weights import blob_bytes
from cfmem.ir_io import parse_module
from cfmem.passes.lower_to_memref import ON_CHIP
from cfmem.pipeline import apply_pipeline
from test_flat_symbols import MODEL as NON_ASCII_MODEL
from test_flat_symbols import printed

PIPELINE = "nn-insert-dma,nn-plan-memory,nn-lower-to-memref"

# Two functions: @"fé" (non-ASCII name, reads the non-ASCII blob by DMA: test_flat_symbols'
# model) and @main (resident weights of blob @w loaded by @load_resident_main, an activation
# prefetched from off chip).
MODEL = NON_ASCII_MODEL.replace(
    "seed(1)\n", "seed(1)\nnn.global @w size(512) seed(3) scale(3.000000e-01 : f64)\n", 1
) + """func.func @main(%x: tensor<1x8xf32>) -> tensor<1x8xf32> {
  %weights = nn.get_global @w : tensor<512xi8>
  %w1 = nn.view %weights[0] bytes(256) : tensor<512xi8> to tensor<8x8xf32>
  %b1 = nn.view %weights[256] bytes(32) : tensor<512xi8> to tensor<8xf32>
  %r = nn.relu %x {cfmem.offchip, cfmem.prefetch} : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %g = nn.gemm %r, %w1, %b1 {trans_b = true, cfmem.weights = "resident"} : (tensor<1x8xf32>, tensor<8x8xf32>, tensor<8xf32>) -> tensor<1x8xf32>
  %c3 = nn.constant dense<3.0> : tensor<1x8xf32>
  %y = nn.mul %g, %c3 : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
  func.return %y : tensor<1x8xf32>
}
"""


def unicode_name(symbol: str) -> str:
    """The name a flat symbol stands for: ``xn--`` + punycode, as in IDNA, or itself."""
    return symbol[4:].encode("ascii").decode("punycode") if symbol.startswith("xn--") else symbol


@pytest.fixture(scope="module")
def model() -> tuple[ModuleOp, ModuleOp]:
    """The tensor module and its flat form."""
    module, _ = parse_module(MODEL, "m.mlir")
    flat = module.clone()
    apply_pipeline(flat, PIPELINE)
    return module, flat


def _globals(flat: ModuleOp) -> dict[str, memref.GlobalOp]:
    return {op.sym_name.data: op for op in flat.ops if isinstance(op, memref.GlobalOp)}


def _functions(flat: ModuleOp) -> dict[str, func.FuncOp]:
    return {op.sym_name.data: op for op in flat.ops if isinstance(op, func.FuncOp)}


def _size(fn: func.FuncOp, attr: str) -> int:
    size = fn.attributes[attr]
    assert isinstance(size, IntegerAttr)
    return size.value.data


def test_constants_then_blobs_then_each_functions_arenas_before_it_and_its_loader_after(model):
    _, flat = model
    ops = list(flat.ops)
    constants = [op for op in ops if isinstance(op, memref.GlobalOp) and "cst_" in unicode_name(op.sym_name.data)]
    assert len(constants) == 2 and ops[:2] == constants
    assert [(type(op).__name__, unicode_name(op.sym_name.data)) for op in ops[2:]] == [
        ("GlobalOp", "wé"),
        ("GlobalOp", "w"),
        ("GlobalOp", "arena_fé"),
        ("FuncOp", "fé"),
        ("GlobalOp", "arena_main"),
        ("GlobalOp", "offchip_arena_main"),
        ("FuncOp", "main"),
        ("FuncOp", "load_resident_main"),
    ]
    fns = _functions(flat)
    assert fns["main"].attributes["cfmem.init"] == StringAttr("load_resident_main")
    assert fns["load_resident_main"].attributes["cfmem.init_of"] == StringAttr("main")


def test_global_symbols_are_ascii_and_private(model):
    _, flat = model
    globs = _globals(flat)
    assert {"xn--w-bga", "w", "xn--arena_f-hya", "arena_main", "offchip_arena_main"} <= set(globs)
    for name, glob in globs.items():
        assert name.isascii(), name
        assert glob.sym_visibility == StringAttr("private"), name


def test_blobs_are_constant_off_chip_bytes_of_their_nn_global(model):
    module, flat = model
    globs = _globals(flat)
    blobs = [op for op in module.ops if isinstance(op, GlobalOp)]
    assert len(blobs) == 2
    for blob in blobs:
        want = blob_bytes(blob, None)
        glob = globs[{"wé": "xn--w-bga"}.get(blob.sym_name.data, blob.sym_name.data)]
        assert glob.constant is not None
        assert glob.type == MemRefType(i8, [len(want)])
        assert isinstance(glob.type.memory_space, NoneAttr)
        got = np.array(glob.initial_value.get_values(), dtype=np.int64).astype(np.uint8)
        assert got.tobytes() == want.tobytes()


def test_arenas_are_writable_globals_of_the_planned_sizes_in_their_memory_spaces(model):
    _, flat = model
    globs, fns = _globals(flat), _functions(flat)
    for fn_name, arena in (("fé", "xn--arena_f-hya"), ("main", "arena_main")):
        size = _size(fns[fn_name], "cfmem.arena_size")
        glob = globs[arena]
        assert glob.constant is None
        assert glob.type == MemRefType(i8, [size], memory_space=ON_CHIP)
    offchip = globs["offchip_arena_main"]
    assert offchip.constant is None
    assert offchip.type == MemRefType(i8, [_size(fns["main"], "cfmem.offchip_arena_size")])
    assert _size(fns["main"], "cfmem.offchip_arena_size") == 32  # the prefetched 1x8xf32
    assert [n for n in globs if "offchip" in n] == ["offchip_arena_main"]  # none for @"fé"


def test_functions_get_their_arenas_as_named_values_of_the_globals_types(model):
    _, flat = model
    globs, fns = _globals(flat), _functions(flat)
    text = printed(flat)
    arena_f = globs["xn--arena_f-hya"].type
    assert f'%arena = memref.get_global @"xn--arena_f-hya" : {arena_f}' in text
    assert f"%arena = memref.get_global @arena_main : {globs['arena_main'].type}" in text
    assert f"%offchip_arena = memref.get_global @offchip_arena_main : {globs['offchip_arena_main'].type}" in text
    for fn in fns.values():
        for op in fn.walk():
            if isinstance(op, memref.GetGlobalOp):
                assert op.memref.type == globs[op.name_.string_value()].type


def test_the_flat_run_of_each_function_is_the_reference_run(model):
    module, flat = model
    again, _ = parse_module(printed(flat), "flat.mlir")
    for name, shape in (("fé", (4,)), ("main", (1, 8))):
        inputs = {"x": np.linspace(-1, 1, int(np.prod(shape)), dtype=np.float32).reshape(shape)}
        want = run_function(module, inputs, func_name=name).outputs
        for lowered in (flat, again):
            got = run_flat(lowered, inputs, func_name=name).outputs
            assert want.keys() == got.keys()
            assert all(want[k].tobytes() == got[k].tobytes() for k in want)


def test_lowering_a_flat_module_again_is_refused_at_its_first_function(model):
    _, flat = model
    text = printed(flat)
    again, source = parse_module(text, "flat.mlir")
    with pytest.raises(CfmemError) as err:
        apply_pipeline(again, "nn-lower-to-memref", source=source)
    assert err.value.message == (
        "function @fé: argument %x has type memref<4xf32>, not a tensor"
        " (nn-lower-to-memref lowers tensor functions once)"
    )
    line = text[: text.index('func.func @"f')].count("\n") + 1
    assert err.value.location == f"flat.mlir:{line}:3"


def test_a_result_that_is_not_a_tensor_is_refused_at_its_function():
    text = """func.func @g(%x: tensor<4xf32>) -> (tensor<4xf32>, i64) {
  %c = arith.constant 1 : i64
  func.return %x, %c : tensor<4xf32>, i64
}
"""
    module, source = parse_module(text, "g.mlir")
    with pytest.raises(CfmemError) as err:
        apply_pipeline(module, "nn-lower-to-memref", source=source)
    assert (err.value.message, err.value.location) == ("function @g: result 1 has type i64, not a tensor", "g.mlir:1:1")


def test_a_blob_file_that_cannot_be_read_is_named_with_its_path(tmp_path: Path):
    text = """nn.global @w size(16) file("missing.bin", 0)
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %b = nn.get_global @w : tensor<16xi8>
  %k = nn.view %b[0] bytes(16) : tensor<16xi8> to tensor<4xf32>
  %y = nn.add %x, %k : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %y : tensor<4xf32>
}
"""
    module, source = parse_module(text, "b.mlir")
    with pytest.raises(CfmemError) as err:
        apply_pipeline(module, PIPELINE, base_dir=tmp_path, source=source)
    assert err.value.message == f"blob @w: cannot read: No such file or directory ({tmp_path / 'missing.bin'})"


def test_an_off_chip_tensor_of_no_bytes_gets_an_empty_off_chip_arena():
    text = """func.func @main(%x: tensor<0xf32>) -> tensor<0xf32> {
  %r = nn.relu %x {cfmem.offchip} : (tensor<0xf32>) -> tensor<0xf32>
  %y = nn.tanh %r : (tensor<0xf32>) -> tensor<0xf32>
  func.return %y : tensor<0xf32>
}
"""
    module, _ = parse_module(text, "z.mlir")
    flat = module.clone()
    apply_pipeline(flat, PIPELINE)
    offchip = _globals(flat)["offchip_arena_main"]
    assert offchip.type == MemRefType(i8, [0]) and offchip.sym_visibility == StringAttr("private")
    inputs = {"x": np.zeros(0, np.float32)}
    assert run_flat(flat, inputs).outputs["y"].shape == run_function(module, inputs).outputs["y"].shape == (0,)
