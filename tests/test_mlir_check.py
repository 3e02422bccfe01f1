"""Upstream MLIR as an independent checker: prepare in xDSL, JIT in a subprocess.

The fixtures in tests/data/mlir are hand-written in the form cfmem's lowering
prints (xDSL 0.74): an on-chip byte arena in memory space 1, views at byte
offsets, weight blobs as constant globals, DMA in generic form.
"""

import sys
from pathlib import Path

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects import arith, builtin, func, math, memref, scf
from xdsl.dialects.linalg import Linalg
from xdsl.dialects.builtin import ModuleOp, UnitAttr
from xdsl.parser import Parser

from cfmem.mlir_check import (
    MlirCheckError,
    jit,
    mlir_available,
    run_many_with_mlir,
    run_with_mlir,
    verify_with_mlir,
)
from cfmem.mlir_check.prepare import prepare_for_jit

DATA = Path(__file__).parent / "data" / "mlir"
needs_mlir = pytest.mark.skipif(
    not mlir_available(), reason="upstream MLIR python bindings not installed (pip install 'cfmem[mlir]')"
)


def parse(name: str) -> ModuleOp:
    ctx = Context()
    for dialect in (builtin.Builtin, func.Func, arith.Arith, scf.Scf, memref.MemRef, Linalg, math.Math):
        ctx.load_dialect(dialect)
    module = Parser(ctx, (DATA / name).read_text(), name).parse_module()
    module.verify()
    return module


def prepared(name: str) -> str:
    module = prepare_for_jit(parse(name))
    module.verify()
    return str(module)


def unprepared(name: str) -> str:
    """The fixture as xDSL prints it, with only the C interface the JIT needs added."""
    module = parse(name)
    for op in module.walk():
        if isinstance(op, func.FuncOp):
            op.attributes["llvm.emit_c_interface"] = UnitAttr()
    return str(module)


def blob(module: ModuleOp, offset: int, shape: tuple[int, ...], name: str = "weights") -> np.ndarray:
    """float32 values of shape ``shape`` at byte ``offset`` of constant global ``name``."""
    glob = next(op for op in module.walk() if isinstance(op, memref.GlobalOp) and op.sym_name.data == name)
    data = np.frombuffer(glob.initial_value.data.data, dtype=np.uint8)
    return data[offset : offset + 4 * int(np.prod(shape))].view("<f4").reshape(shape)


@needs_mlir
def test_add_of_input_and_weight_view_through_the_arena():
    x = np.random.default_rng(0).standard_normal((2, 8)).astype(np.float32)
    (y,) = run_with_mlir(prepared("add.mlir"), [x], [((2, 8), np.float32)])
    np.testing.assert_array_equal(y, x + blob(parse("add.mlir"), 0, (2, 8)))
    assert not any(name == "mlir" or name.startswith("mlir.") for name in sys.modules)


@needs_mlir
def test_scf_if_on_a_loaded_i1_and_i1_buffers():
    x = np.array([1.5, -2.0, 0.0, 3.0], dtype=np.float32)
    specs = [((4,), np.float32), ((4,), np.bool_), ((4,), np.float32)]
    sets = [[np.array([cond]), x] for cond in (True, False)]
    (y_then, pos, r), (y_else, _, _) = run_many_with_mlir(prepared("if.mlir"), sets, specs)
    np.testing.assert_array_equal(y_then, 2 * x)
    np.testing.assert_array_equal(y_else, np.full(4, -1, np.float32))
    assert pos.dtype == np.bool_
    np.testing.assert_array_equal(pos, x > 0)
    np.testing.assert_array_equal(r, np.where(x > 0, x, 0))


@needs_mlir
def test_dma_into_the_arena_then_matmul_and_bias():
    module = parse("dma_matmul.mlir")
    x = np.random.default_rng(1).standard_normal((2, 8)).astype(np.float32)
    (y,) = run_with_mlir(prepared("dma_matmul.mlir"), [x], [((2, 4), np.float32)])
    expected = x @ blob(module, 0, (8, 4)) + blob(module, 160, (4,))
    np.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-6)


@needs_mlir
def test_exp_and_tanh_in_a_generic_body():
    x = np.linspace(-4, 4, 15, dtype=np.float32).reshape(3, 5)
    e, t = run_with_mlir(prepared("math.mlir"), [x], [((3, 5), np.float32)] * 2)
    np.testing.assert_allclose(e, np.exp(x.astype(np.float64)), rtol=1e-5)
    np.testing.assert_allclose(t, np.tanh(x.astype(np.float64)), rtol=1e-5, atol=1e-7)


@needs_mlir
def test_upstream_rejection_carries_the_mlir_diagnostic():
    text = (DATA / "bad_global.mlir").read_text()
    parse("bad_global.mlir")  # xDSL accepts it
    with pytest.raises(MlirCheckError) as err:
        verify_with_mlir(text)
    message = str(err.value)
    assert "\n" not in message
    assert "line 4:3: 'memref.global' op initial value shape expected to be 64 but was 32" in message
    with pytest.raises(MlirCheckError, match="initial value shape expected to be 64 but was 32"):
        run_with_mlir(prepared("bad_global.mlir"), [np.zeros((2, 8), np.float32)], [((2, 8), np.float32)])


@needs_mlir
def test_upstream_accepts_xdsl_dma_form_but_cannot_lower_it():
    text = str(parse("dma_matmul.mlir"))
    assert '"memref.dma_start"' in text and "1 : i64>" in text
    verify_with_mlir(text)
    with pytest.raises(MlirCheckError, match=r"no lowering to LLVM for 'memref.dma_start'"):
        run_with_mlir(unprepared("dma_matmul.mlir"), [np.zeros((2, 8), np.float32)], [((2, 4), np.float32)])


@needs_mlir
def test_i1_buffers_abort_upstream_lowering_unless_prepared():
    with pytest.raises(MlirCheckError, match="worker was killed by SIGABRT"):
        run_with_mlir(
            unprepared("if.mlir"),
            [np.array([True]), np.zeros(4, np.float32)],
            [((4,), np.float32), ((4,), np.bool_), ((4,), np.float32)],
        )


@needs_mlir
def test_copy_out_of_a_subview_needs_no_runtime_library():
    x = np.arange(16, dtype=np.float32).reshape(4, 4)
    text = prepared("strided_copy.mlir")
    assert "linalg.copy" in text and "memref.copy" not in text
    (y,) = run_with_mlir(text, [x], [((2, 2), np.float32)])
    np.testing.assert_array_equal(y, x[1:3, 2:4])
    with pytest.raises(MlirCheckError, match=r"Symbols not found: \[ memrefCopy \]"):
        run_with_mlir(unprepared("strided_copy.mlir"), [x], [((2, 2), np.float32)])


@needs_mlir
def test_arrays_that_do_not_match_the_signature_are_refused():
    with pytest.raises(MlirCheckError, match=r"cannot run @main: argument 0 is memref<2x8xf32>, given a float32 array"):
        run_with_mlir(prepared("add.mlir"), [np.zeros((3, 8), np.float32)], [((2, 8), np.float32)])
    with pytest.raises(MlirCheckError, match=r"cannot run @main: it lacks llvm.emit_c_interface"):
        run_with_mlir(str(parse("add.mlir")), [np.zeros((2, 8), np.float32)], [((2, 8), np.float32)])


def test_missing_bindings_say_how_to_install(monkeypatch):
    monkeypatch.setattr(jit, "mlir_available", lambda: False)
    with pytest.raises(MlirCheckError, match=r"pip install 'cfmem\[mlir\]'"):
        verify_with_mlir("module {}")


def test_prepare_replaces_dma_and_drops_memory_spaces():
    original = parse("dma_matmul.mlir")
    text = prepared("dma_matmul.mlir")
    for gone in ("memref.dma_start", "memref.dma_wait", "memref.alloca", "1 : i64>"):
        assert gone not in text
    assert text.count('"memref.copy"') == 2
    assert "(memref<128xi8>, memref<128xi8>) -> ()" in text
    assert "(memref<16xi8>, memref<16xi8>) -> ()" in text
    assert "llvm.emit_c_interface" in text
    assert "memref.dma_start" in str(original)  # the input module is left alone


def test_prepare_stores_booleans_as_bytes():
    text = prepared("if.mlir")
    assert "xi1" not in text
    assert "func.func @main(%cond: memref<1xi8>" in text
    assert "arith.trunci %b : i8 to i1" in text  # the loaded condition
    assert "arith.extui %p : i1 to i8" in text  # the yielded mask
    assert "^bb0(%m: i8, %a_2: f32, %acc_2: f32):\n      %m_1 = arith.trunci %m : i8 to i1" in text  # the mask read by the select


CHAIN = """func.func @main(%x: tensor<4x64xf32>, %w: tensor<64xf32>) -> tensor<4x64xf32> {
  %e = nn.exp %x : (tensor<4x64xf32>) -> tensor<4x64xf32>
  %a1 = nn.add %x, %w : (tensor<4x64xf32>, tensor<64xf32>) -> tensor<4x64xf32>
  %a2 = nn.add %a1, %w : (tensor<4x64xf32>, tensor<64xf32>) -> tensor<4x64xf32>
  %a3 = nn.add %a2, %w : (tensor<4x64xf32>, tensor<64xf32>) -> tensor<4x64xf32>
  %a4 = nn.add %a3, %e : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
  func.return %a4 : tensor<4x64xf32>
}
"""


def off_by_an_ulp_add(a, b):
    """A wrong ``nn.add`` lowering: the sum times ``1 + 2**-23``, one or two ulps too large."""
    from xdsl.dialects.builtin import FloatAttr, f32

    total = arith.AddfOp(a, b).result
    return arith.MulfOp(total, arith.ConstantOp(FloatAttr(1.0 + 2.0**-23, f32)).result)


@needs_mlir
def test_an_add_lowered_one_ulp_wrong_fails_the_computed_bound(tmp_path, monkeypatch):
    """Four adds and an exp: the first three add exact values, so both runs must give the
    same bits there; an add lowered one ulp wrong is outside the bound, the right one inside."""
    from cfmem.differential import check
    from cfmem.dialects import nn_compute as nc
    from cfmem.ir_io import parse_module
    from cfmem.passes.linalg import elementwise
    from cfmem.pipeline import lower_model

    module, _ = parse_module(CHAIN)
    flat = lower_model(module, "nn-plan-memory", tmp_path)
    rng = np.random.default_rng(1)
    sets = [{"x": rng.standard_normal((4, 64)).astype(np.float32), "w": rng.standard_normal(64).astype(np.float32)}]
    right = check(None, flat, sets)[0]
    assert right.ok() and 0 < right.mlir_vs_flat <= 1  # exp: numpy and libm differ a little
    monkeypatch.setitem(elementwise.FLOAT_BINARY, nc.AddOp, off_by_an_ulp_add)
    wrong = check(None, flat, sets)[0]
    assert not wrong.ok() and wrong.mlir_vs_flat == np.inf
    fixed = check(None, flat, sets, rtol=1e-5, atol=1e-6)[0]
    assert fixed.ok()  # the fixed tolerance lets the wrong add through


@needs_mlir
def test_workers_fork_from_one_warm_parent_which_survives_crashes_and_is_replaced_when_gone():
    add = prepared("add.mlir")
    x = np.arange(16, dtype=np.float32).reshape(2, 8)
    expected = run_with_mlir(add, [x], [((2, 8), np.float32)])[0]
    zygote = jit._zygote
    assert zygote is not None and zygote.alive() and zygote.owner == __import__("os").getpid()
    with pytest.raises(MlirCheckError, match="worker was killed by SIGABRT"):  # a child dies, not the parent
        run_with_mlir(unprepared("if.mlir"), [np.array([True]), np.zeros(4, np.float32)],
                      [((4,), np.float32), ((4,), np.bool_), ((4,), np.float32)])  # fmt: skip
    np.testing.assert_array_equal(run_with_mlir(add, [x], [((2, 8), np.float32)])[0], expected)
    assert jit._zygote is zygote
    zygote.process.kill()  # gone: the next run starts another
    zygote.process.wait()
    np.testing.assert_array_equal(run_with_mlir(add, [x], [((2, 8), np.float32)])[0], expected)
    assert jit._zygote is not zygote and jit._zygote.alive()


@needs_mlir
def test_a_worker_past_its_time_is_killed_and_the_next_run_is_answered():
    add = prepared("add.mlir")
    x = np.ones((2, 8), np.float32)
    with pytest.raises(MlirCheckError, match=r"did not finish within 0.001 s"):
        run_with_mlir(add, [x], [((2, 8), np.float32)], timeout=0.001)
    np.testing.assert_array_equal(run_with_mlir(add, [x], [((2, 8), np.float32)])[0], x + blob(parse("add.mlir"), 0, (2, 8)))
