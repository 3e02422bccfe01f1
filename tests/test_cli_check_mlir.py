"""``cfmem check-mlir`` end to end: agreement, a broken plan, bad input."""

from __future__ import annotations

import re

from conftest import EXAMPLES, run_cfmem


def test_example_agrees_on_every_branch_with_real_mlir():
    result = run_cfmem("check-mlir", str(EXAMPLES / "wakeword.mlir"))
    assert result.returncode == 0, result.stderr
    rows = [line for line in result.stdout.splitlines() if line.startswith("#")]
    assert [row.split()[1] for row in rows] == ["if#0:else", "if#0:then"]
    for row in rows:
        assert "bit-identical" in row
        fraction = float(re.search(r"([0-9.]+) of tolerance", row).group(1))
        assert fraction <= 1.0
    assert result.stdout.rstrip().endswith("ok: 2 input set(s), every run agrees")


def test_flat_module_with_a_clobbered_tensor_fails_with_both_names(tmp_path):
    flat = tmp_path / "flat.mlir"
    assert run_cfmem("opt", str(EXAMPLES / "fusiondetect.mlir"), "-p", "nn-plan-memory,nn-lower-to-memref",
                     "-o", str(flat)).returncode == 0
    text = flat.read_text()
    # put the second planned tensor on the bytes of the first one
    views = re.findall(r'memref.view %arena\[(%c\d+)\]\[\] \{cfmem.tensor = "(\w+)"\}', text)
    (first_offset, first), (second_offset, second) = views[0], next(v for v in views[1:] if v[0] != views[0][0])
    text = text.replace(f'%arena[{second_offset}][] {{cfmem.tensor = "{second}"}}',
                        f'%arena[{first_offset}][] {{cfmem.tensor = "{second}"}}', 1)
    flat.write_text(text)
    result = run_cfmem("check-mlir", str(flat), "--no-mlir")
    assert result.returncode == 1
    assert len(result.stderr.strip().splitlines()) == 1
    assert result.stderr.startswith(f"cfmem: {flat}:") and f"%{first}" in result.stderr and f"%{second}" in result.stderr


def test_bad_pipeline_is_one_line():
    result = run_cfmem("check-mlir", str(EXAMPLES / "denoise.mlir"), "-p", "nn-plan-memory{mode=bogus}")
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and "mode" in result.stderr and "bogus" in result.stderr
