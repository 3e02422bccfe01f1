"""Bad models give one located line on stderr and a non-zero exit, never a traceback.

Each case edits a valid model (textual replacements), then expects the error
at ``file:line[:col]`` with the given message."""

import pytest

from conftest import ROOT

SMALL = (ROOT / "tests" / "data" / "small_if.mlir").read_text()

CASES = {
    "malformed": (("nn.yield %t : tensor<1x4x8x8xf32>", "nn.yield %t : tensor<1x4x8x8xf32"), ":13:3:", "Expected '>'"),
    "unknown op": (("nn.relu %y", "nn.gelu %y"), ":11:", "nn.gelu is not registered"),
    "type mismatch": (
        ("bytes(576) : tensor<1024xi8> to tensor<4x4x3x3xf32>", "bytes(768) : tensor<1024xi8> to tensor<4x4x3x4xf32>"),
        ("tensor<4x4x3x3xf32>)", "tensor<4x4x3x4xf32>)"),
        ":6:3:",
        "result shape 1x4x8x8 does not match the inferred shape 1x4x8x7",
    ),
    "misspelt attribute": (
        ("{pads = array<i64: 1, 1, 1, 1>} :", "{pads = array<i64: 1, 1, 1, 1>, group = 4 : i64} :"),
        ":6:3:",
        "'nn.conv2d': unknown attribute group (did you mean groups? it takes dilations, groups, pads, strides, sum_order)",
    ),
    "unknown sum order": (
        ("{pads = array<i64: 1, 1, 1, 1>} :", '{pads = array<i64: 1, 1, 1, 1>, sum_order = "pairwise"} :'),
        ":6:3:",
        "sum_order must be one of 'sequential', got 'pairwise'",
    ),
    "view out of bounds": (("%b[0] bytes(576)", "%b[512] bytes(576)"), ":5:", "outside the blob of 1024 bytes"),
    "undefined value": (("nn.yield %y2 : tensor<1x4x8x8xf32>", "nn.yield %x2 : tensor<1x4x8x8xf32>"), ":", "values used but not defined: [%x2]"),
    "yield type": (
        ("nn.yield %y2 : tensor<1x4x8x8xf32>", "nn.yield %mode : tensor<1xf32>"),
        ":10:",
        "the else region yields (tensor<1xf32>) but the if returns (tensor<1x4x8x8xf32>)",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_model_gives_one_located_line(cfmem, tmp_path, case):
    *edits, where, message = CASES[case]
    text = SMALL
    for old, new in edits:
        assert old in text
        text = text.replace(old, new)
    path = tmp_path / "bad.mlir"
    path.write_text(text)
    res = cfmem("run", str(path), "-o", str(tmp_path / "out.npz"))
    assert res.returncode == 1, res.stdout
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith(f"cfmem: {path}{where}"), lines[0]
    assert message in lines[0]
    assert "Traceback" not in res.stderr
    assert not (tmp_path / "out.npz").exists()


def test_missing_file(cfmem, tmp_path):
    res = cfmem("run", str(tmp_path / "nope.mlir"))
    assert res.returncode == 1 and "cannot read" in res.stderr


def test_weight_file_missing_or_truncated(cfmem, tmp_path):
    model = SMALL.replace("nn.global @w size(1024) seed(7) scale(0.1)", 'nn.global @w size(1024) file("w.bin", 0)')
    (tmp_path / "m.mlir").write_text(model)
    res = cfmem("run", str(tmp_path / "m.mlir"))
    assert res.returncode == 1 and "blob @w: cannot read" in res.stderr
    (tmp_path / "w.bin").write_bytes(b"\0" * 1000)
    res = cfmem("run", str(tmp_path / "m.mlir"))
    assert res.returncode == 1 and "holds 1000 bytes at offset 0, expected 1024" in res.stderr
    (tmp_path / "w.bin").write_bytes(b"\0" * 1024)
    assert cfmem("run", str(tmp_path / "m.mlir")).returncode == 0


def test_dynamic_shape_is_rejected_at_the_op(cfmem, tmp_path):
    path = tmp_path / "dyn.mlir"
    path.write_text(
        "func.func @main(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {\n"
        "  %y = nn.relu %x : (tensor<?x4xf32>) -> tensor<?x4xf32>\n"
        "  func.return %y : tensor<?x4xf32>\n}\n"
    )
    res = cfmem("run", str(path))
    assert res.returncode == 1
    assert res.stderr.strip() == (
        f"cfmem: {path}:2:3: error: 'nn.relu': dynamic shape tensor<?x4xf32> is not supported: fix every dimension"
    )
