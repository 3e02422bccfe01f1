"""Start-up: each command imports what it runs and nothing more.

Timing belongs in ``bench/startup.py``; here the modules a command loads are checked,
since an eager import (onnx, the planners, the memref dialect) is what makes start-up slow.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import json, sys
from cfmem.tools import cli
code = cli.main(sys.argv[1:])
print(json.dumps({"code": code, "modules": sorted(sys.modules)}), file=sys.stderr)
"""


def loaded_modules(tmp_path: Path, *argv: str) -> set[str]:
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, cwd=tmp_path, timeout=120
    )
    report = json.loads(proc.stderr.strip().splitlines()[-1])
    assert report["code"] == 0, proc.stderr
    return set(report["modules"])


def test_help_loads_neither_xdsl_nor_numpy(tmp_path):
    """--help exits through SystemExit; the probe catches it to list what was imported."""
    proc = subprocess.run(
        [sys.executable, "-c", "import json, sys\nfrom cfmem.tools import cli\ntry:\n    cli.main(['--help'])\n"
         "except SystemExit as stop:\n    print(json.dumps({'code': stop.code, 'modules': sorted(sys.modules)}))"],
        capture_output=True, text=True, cwd=tmp_path, timeout=120,
    )  # fmt: skip
    assert "usage: cfmem" in proc.stdout
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    loaded = set(report["modules"])
    assert report["code"] == 0 and "cfmem.tools.cli" in loaded  # the probe saw the help printed
    for heavy in ("numpy", "xdsl", "onnx", "mlir", "cfmem.planning.search", "cfmem.planning.greedy", "cfmem.planning.beam"):
        assert heavy not in loaded, f"cfmem --help imported {heavy}"


def test_run_of_a_tensor_model_loads_only_the_reference_interpreter(tmp_path):
    model = tmp_path / "one.mlir"
    model.write_text(
        "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  %y = nn.relu %x : (tensor<4xf32>) -> tensor<4xf32>\n"
        "  func.return %y : tensor<4xf32>\n}\n"
    )
    loaded = loaded_modules(tmp_path, "run", str(model))
    assert "cfmem.interp.golden" in loaded  # the probe saw the run happen
    for unused in ("onnx", "cfmem.tools.report", "cfmem.tools.compile",
                   "cfmem.interp.flat", "xdsl.dialects.memref", "mlir"):  # fmt: skip
        assert unused not in loaded, f"cfmem run imported {unused}"
    # of the planning package only the argument rules its --seed is parsed with, no planner
    assert {m for m in loaded if m.startswith("cfmem.planning.")} == {"cfmem.planning.option_checks"}
