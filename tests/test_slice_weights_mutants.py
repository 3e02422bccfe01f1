"""nn-slice-weights outside its plans: budgets, names, attributes, dead weights, refusals (fast).

Each model is a few ops on a seeded blob; the sliced program is run by the reference
interpreter against the unsliced one where the slices could change numbers.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from cfmem.dialects.nn_dma import DmaStartOp
from cfmem.dialects.nn_weights import ReshapeOp, ViewOp
from cfmem.dialects.types import tensor_bytes
from cfmem.interp.golden import find_function, random_inputs, run_function
from cfmem.ir_io import CfmemError, parse_module
from cfmem.passes.insert_dma import weight_operands
from cfmem.passes.placement import SLICE_OF_ATTR, WEIGHTS_ATTR
from cfmem.pipeline import apply_pipeline
from cfmem.signature import result_names

PATH = "m.mlir"


def _model(body: str, args: str, result: str, size: int = 4096) -> str:
    """A function of ``args`` returning ``%y`` of type ``result``, computed by ``body`` from
    ``%blob``, a seeded blob of ``size`` bytes."""
    return (f"nn.global @w size({size}) seed(1)\nfunc.func @main({args}) -> {result} {{\n"
            f"  %blob = nn.get_global @w : tensor<{size}xi8>\n{body}\n  func.return %y : {result}\n}}\n")  # fmt: skip


def _run_pass(text: str, spec: str = "nn-slice-weights") -> ModuleOp:
    module = parse_module(text, PATH)[0]
    apply_pipeline(module, spec)
    return module


def _refusal(text: str, spec: str = "nn-slice-weights") -> CfmemError:
    module, source = parse_module(text, PATH)
    with pytest.raises(CfmemError) as err:
        apply_pipeline(module, spec, PATH, source=source)
    assert "\n" not in str(err.value)
    return err.value


def _outputs(module: ModuleOp) -> dict[str, np.ndarray]:
    return run_function(module, random_inputs(find_function(module), 1)).outputs


def _computes(module: ModuleOp, name: str) -> list:
    return [o for o in module.walk() if o.name == name]


def _views(module: ModuleOp) -> list[tuple[int, tuple[int, ...]]]:
    """(offset into the blob, shape) of every weight view, by offset."""
    return sorted((o.offset.value.data, tuple(o.result.type.get_shape())) for o in module.walk() if isinstance(o, ViewOp))


def _names(module: ModuleOp, name: str) -> list[str | None]:
    return [o.results[0].name_hint for o in module.walk() if o.name == name]


# a gemm with a weight [8, 16] (64 bytes a row) and a bias of 8 (4 bytes a row)
GEMM = _model(
    "  %k = nn.view %blob[0] bytes(512) : tensor<4096xi8> to tensor<8x16xf32>\n"
    "  %b = nn.view %blob[512] bytes(32) : tensor<4096xi8> to tensor<8xf32>\n"
    "  %y = nn.gemm %x, %k, %b {trans_b = true ATTRS} : (tensor<2x16xf32>, tensor<8x16xf32>, tensor<8xf32>) -> tensor<2x8xf32>",
    "%x: tensor<2x16xf32>", "tensor<2x8xf32>")  # fmt: skip


def _gemm(attrs: str = "") -> str:
    return GEMM.replace(" ATTRS", f", {attrs}" if attrs else "")


# --- the budget -----------------------------------------------------------------------------------


def test_a_budget_of_one_row_makes_a_slice_a_row_without_a_warning(capsys):
    module = _run_pass(_gemm(), "nn-slice-weights{max-slice-bytes=68}")
    assert len(_computes(module, "nn.gemm")) == 8
    assert capsys.readouterr().err == ""
    module = _run_pass(_gemm(), "nn-slice-weights{max-slice-bytes=67}")
    assert len(_computes(module, "nn.gemm")) == 8
    warned = capsys.readouterr().err
    assert warned.count("\n") == 1 and "one row needs 68 bytes of weights, more than max-slice-bytes 67" in warned


def test_the_fewest_slices_fit_beside_a_weight_every_slice_reads():
    """A reduction over K = 9 rows of 16 bytes, with a 16-byte bias read by the first slice: in
    64 bytes, 48 bytes of rows fit beside the bias, so 3 rows a slice and 3 slices."""
    text = _model(
        "  %k = nn.view %blob[0] bytes(144) : tensor<4096xi8> to tensor<9x4xf32>\n"
        "  %b = nn.view %blob[192] bytes(16) : tensor<4096xi8> to tensor<4xf32>\n"
        "  %y = nn.gemm %x, %k, %b : (tensor<3x9xf32>, tensor<9x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>",
        "%x: tensor<3x9xf32>", "tensor<3x4xf32>")  # fmt: skip
    module = _run_pass(text, "nn-slice-weights{max-slice-bytes=64}")
    slices = [o for o in module.walk() if o.name in ("nn.gemm", "nn.matmul")]
    assert len(slices) == 3
    assert all(sum(tensor_bytes(w.type) for w in weight_operands(o)) <= 64 for o in slices)
    assert _views(module) == [(0, (3, 4)), (48, (3, 4)), (96, (3, 4)), (192, (4,))]
    want = _outputs(_run_pass(text, "nn-slice-weights"))["y"]
    np.testing.assert_allclose(_outputs(module)["y"], want, rtol=1e-5, atol=1e-5 * float(np.abs(want).max()))


def test_a_weight_of_no_bytes_a_row_is_left_whole():
    """Rows of K = 0 columns hold no bytes: more slices cannot make the broadcast bias fit."""
    text = _model(
        "  %k = nn.view %blob[0] bytes(0) : tensor<4096xi8> to tensor<4x0xf32>\n"
        "  %b = nn.view %blob[64] bytes(4) : tensor<4096xi8> to tensor<1xf32>\n"
        "  %y = nn.gemm %x, %k, %b {trans_b = true} : (tensor<1x0xf32>, tensor<4x0xf32>, tensor<1xf32>) -> tensor<1x4xf32>",
        "%x: tensor<1x0xf32>", "tensor<1x4xf32>")  # fmt: skip
    module = _run_pass(text, "nn-slice-weights{max-slice-bytes=3}")
    assert len(_computes(module, "nn.gemm")) == 1 and _views(module) == [(0, (4, 0)), (64, (1,))]


def test_the_budget_option_is_checked_in_one_line():
    message = _refusal(_gemm(), "nn-slice-weights{max-slice-bytes=0}").message
    assert re.match(r"max-slice-bytes must be an integer from 1 to \d+, not 0$", message), message
    module = _run_pass(_gemm(), "nn-slice-weights{max-slice-bytes=1}")  # the least budget: a row a slice
    assert len(_computes(module, "nn.gemm")) == 8


# --- what the slices are called and carry ---------------------------------------------------------

GROUPED = _model(
    "  %k = nn.view %blob[0] bytes(32) : tensor<4096xi8> to tensor<4x2x1x1xf32>\n"
    "  %y = nn.conv2d %x, %k, %b {groups = 2 : i64, cfmem.slices = 2 : i64} : (tensor<1x4x3x3xf32>, tensor<4x2x1x1xf32>, tensor<4xf32>) -> tensor<1x4x3x3xf32>",
    "%x: tensor<1x4x3x3xf32>, %b: tensor<4xf32>", "tensor<1x4x3x3xf32>")  # fmt: skip


def test_slices_are_named_after_what_they_slice():
    """Names show in the printed IR and in later passes' messages ('defining %y_s1 in @main'):
    slice k of %y is %y_s<k>, the input it reads %y_s<k>_in, the slices of a weight or of a
    computed bias %k_s<k> and %b_s<k>; the joined result keeps %y, the model's output name."""
    module = _run_pass(GROUPED)
    assert _names(module, "nn.conv2d") == ["y_s0", "y_s1"]
    assert _names(module, "nn.slice") == ["y_s0_in", "b_s0", "y_s1_in", "b_s1"]
    assert _names(module, "nn.view") == ["k_s0", "k_s1"]
    assert _names(module, "nn.concat") == ["y"]
    fn = find_function(module)
    assert result_names(fn) == ["y"]
    np.testing.assert_array_equal(_outputs(module)["y"], _outputs(parse_module(GROUPED)[0])["y"])


def test_a_quantized_join_keeps_the_output_name():
    text = _model(
        "  %k = nn.view %blob[0] bytes(30) : tensor<4096xi8> to tensor<5x6xi8>\n"
        "  %y = nn.qgemm %x, %k {a_scale = array<f32: 0.05>, a_zero_point = array<i64: 3>, trans_b = 1 : i64,"
        " b_scale = array<f32: 0.01>, b_zero_point = array<i64: 0>, element = i8, y_scale = array<f32: 0.3>,"
        " y_zero_point = array<i64: 1>, cfmem.slices = 2 : i64} : (tensor<2x6xi8>, tensor<5x6xi8>) -> tensor<2x5xi8>",
        "%x: tensor<2x6xi8>", "tensor<2x5xi8>")  # fmt: skip
    module = _run_pass(text)
    assert _names(module, "nn.qconcat") == ["y"] and result_names(find_function(module)) == ["y"]
    np.testing.assert_array_equal(_outputs(module)["y"], _outputs(parse_module(text)[0])["y"])


def test_unnamed_values_give_unnamed_slices():
    text = GROUPED.replace("%x", "%0").replace("%b:", "%1:").replace("%b}", "%1}").replace(", %b ", ", %1 ")
    text = text.replace("%k", "%2").replace("%y", "%3")
    module = _run_pass(text)
    assert len(_computes(module, "nn.conv2d")) == 2
    assert "None" not in str(module)


def test_slices_keep_the_placement_and_name_the_op_they_slice():
    """A slice of an op that reads its weights off chip reads them off chip too: no transfers."""
    module = _run_pass(_gemm(f'{WEIGHTS_ATTR} = "offchip", cfmem.slices = 2 : i64'))
    made = [o for o in module.walk() if o.name in ("nn.gemm", "nn.concat")]
    assert [o.attributes[WEIGHTS_ATTR].data for o in made] == ["offchip"] * 3
    assert [o.attributes[SLICE_OF_ATTR].data for o in made if o.name == "nn.gemm"] == ["y", "y"]
    assert all(not o.attributes for o in module.walk() if isinstance(o, ViewOp))
    apply_pipeline(module, "nn-insert-dma")
    assert not any(isinstance(o, DmaStartOp) for o in module.walk())


# --- weights seen through reshapes ----------------------------------------------------------------

RESHAPED = _model(
    "  %flat = nn.view %blob[64] bytes(128) : tensor<4096xi8> to tensor<32xf32>\n"
    "  %k = nn.reshape %flat : tensor<32xf32> to tensor<8x4xf32>\n"
    "  %y = nn.matmul %x, %k {cfmem.slices = 2 : i64} : (tensor<3x8xf32>, tensor<8x4xf32>) -> tensor<3x4xf32>",
    "%x: tensor<3x8xf32>", "tensor<3x4xf32>")  # fmt: skip


def test_a_reshaped_view_is_sliced_and_the_whole_weight_erased():
    module = _run_pass(RESHAPED)
    assert _views(module) == [(64, (4, 4)), (128, (4, 4))]
    assert not any(isinstance(o, ReshapeOp) for o in module.walk())
    want = _outputs(parse_module(RESHAPED)[0])["y"]
    np.testing.assert_allclose(_outputs(module)["y"], want, rtol=1e-5, atol=1e-5 * float(np.abs(want).max()))


def _line_of(text: str, needle: str) -> str:
    """``PATH:line:col`` of the first ``needle`` in ``text``."""
    lines = text[: text.index(needle)].split("\n")
    return f"{PATH}:{len(lines)}:{len(lines[-1]) + 1}"


def test_a_weight_that_is_no_view_is_refused_at_its_op():
    text = _model(
        "  %k = nn.reshape %blob : tensor<30xi8> to tensor<5x6xi8>\n"
        "  %y = nn.qgemm %x, %k {a_scale = array<f32: 0.05>, a_zero_point = array<i64: 3>, trans_b = 1 : i64,"
        " b_scale = array<f32: 0.01>, b_zero_point = array<i64: 0>, cfmem.slices = 2 : i64} : (tensor<2x6xi8>, tensor<5x6xi8>) -> tensor<2x5xf32>",
        "%x: tensor<2x6xi8>", "tensor<2x5xf32>", size=30)  # fmt: skip
    err = _refusal(text)
    assert err.message == "'nn.qgemm' defining %y in @main: cannot slice its weight: its weight is not a view of a blob"
    assert err.location == _line_of(text, "%y =")


def test_a_bad_slice_count_is_refused_at_its_op():
    text = _gemm("cfmem.slices = 0 : i64")
    err = _refusal(text)
    assert err.message == "'nn.gemm' defining %y in @main: cfmem.slices must be an integer of at least 1, not 0 : i64"
    assert err.location == _line_of(text, "%y =")
