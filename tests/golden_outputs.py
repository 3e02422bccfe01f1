"""What cfmem makes of its bundled examples and of onnx's backend models, kept as goldens.

A restructuring of the code must leave every output byte for byte as it was. This module
produces the outputs; ``test_golden_outputs`` compares them with the files under
``tests/data/golden`` and ``python tests/golden_outputs.py`` rewrites those files (only when
a change of output is intended and reviewed).

Outputs, per bundled example: the flat module of ``cfmem compile`` on the default chip, its
lowering to linalg (what ``check-mlir`` JIT-runs) and the flat run's outputs on seed 0; bigfc
also compiled into a 256 KiB budget (weights streamed in slices) and a row chain compiled with
``--tile`` (``test_tile_rows.CHAIN``). Per backend model of the onnx wheel: the imported module and its weight blob.

Long weight literals are replaced by a digest of their text, so the goldens stay small and a
change still shows in a readable diff.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
GOLDEN = Path(__file__).resolve().parent / "data" / "golden"
BACKEND_DIGESTS = GOLDEN / "onnx_backend_imports.json"
BUDGETED = {"bigfc": 262144}
TILED_BUDGET = 3000

_LONG_HEX = re.compile(r'"0x([0-9A-Fa-f]{64,})"')
_LONG_LIST = re.compile(r"dense<(\[[^<>]{200,}?\])>")


def normalized(text: str) -> str:
    """``text`` with long weight literals replaced by the first 16 hex digits of their sha256."""
    text = _LONG_HEX.sub(lambda m: f'"0x~{_digest(m.group(1))}"', text)
    return _LONG_LIST.sub(lambda m: f"dense<~{_digest(m.group(1))}>", text)


def _digest(text: str | bytes) -> str:
    data = text.encode() if isinstance(text, str) else text
    return hashlib.sha256(data).hexdigest()[:16]


def cfmem(*args: str, cwd: Path) -> str:
    """Run the command line in this process, in ``cwd``; its stdout (it must succeed)."""
    from conftest import run_cfmem_in_process

    done = run_cfmem_in_process(list(args), cwd)
    if done.returncode != 0:
        raise AssertionError(f"cfmem {' '.join(args)} failed: {done.stderr}")
    return done.stdout


def example_names() -> list[str]:
    return sorted(p.stem for p in EXAMPLES.glob("*.mlir"))


def example_outputs(name: str, work: Path) -> dict[str, str]:
    """``{golden file name: normalized text}`` for the bundled example ``name``."""
    from cfmem.differential import linalg_text
    from cfmem.interp.flat import run_flat
    from cfmem.interp.golden import random_inputs, find_function
    from cfmem.ir_io import load_module

    source = EXAMPLES / name
    flat_path = work / f"{name}.flat.mlir"
    cfmem("compile", str(source.with_suffix(".mlir")), "-o", str(flat_path), cwd=work)
    flat, _ = load_module(flat_path)
    fn = find_function(flat, None)
    outputs = run_flat(flat, random_inputs(fn, 0), check=True).outputs
    numbers = "\n".join(f"{key} {value.dtype} {list(value.shape)} {_digest(np.ascontiguousarray(value).tobytes())}"
                        for key, value in sorted(outputs.items()))  # fmt: skip
    found = {
        f"{name}.flat.mlir": normalized(flat_path.read_text()),
        f"{name}.linalg.mlir": normalized(linalg_text(flat)),
        f"{name}.outputs.txt": numbers + "\n",
    }
    if name in BUDGETED:
        budgeted = work / f"{name}.budget.mlir"
        cfmem("compile", str(source.with_suffix(".mlir")), "--budget", str(BUDGETED[name]), "-o", str(budgeted), cwd=work)
        found[f"{name}.budget{BUDGETED[name]}.flat.mlir"] = normalized(budgeted.read_text())
    return found


def tiled_output(work: Path) -> dict[str, str]:
    """The row chain compiled with ``--tile`` into ``TILED_BUDGET`` bytes."""
    model = work / "chain.mlir"
    from test_tile_rows import CHAIN

    model.write_text(CHAIN)
    out = work / "chain.tiled.mlir"
    cfmem("compile", str(model), "--budget", str(TILED_BUDGET), "--tile", "-o", str(out), cwd=work)
    return {f"chain.tile{TILED_BUDGET}.flat.mlir": normalized(out.read_text())}


def backend_digests() -> dict[str, str]:
    """``{case label: digest of its imported module and blob}`` for every backend model that
    imports with its first data set's shapes (refusals give their message's digest)."""
    from cfmem.errors import CfmemError
    from cfmem.importers.onnx import OnnxImportError, import_onnx
    from cfmem.testing.onnx_backend import BLOB, cases, data_sets

    found = {}
    for case in cases():
        try:
            shapes = {name: value.shape for name, value in data_sets(case)[0][0].items()}
            imported = import_onnx(case.model, blob_file=BLOB, input_shapes=shapes)
            found[case.label] = _digest(str(imported.module).encode() + b"\0" + bytes(imported.blob))
        except (CfmemError, OnnxImportError, ValueError) as err:
            found[case.label] = "refused " + _digest(str(err).splitlines()[0])
    return found


def write_goldens() -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        found: dict[str, str] = {}
        for name in example_names():
            found.update(example_outputs(name, Path(tmp)))
        found.update(tiled_output(Path(tmp)))
    for file, text in found.items():
        (GOLDEN / file).write_text(text)
    BACKEND_DIGESTS.write_text(json.dumps(backend_digests(), indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(found)} goldens and {BACKEND_DIGESTS.name} to {GOLDEN}", file=sys.stderr)


if __name__ == "__main__":
    write_goldens()
