"""Every command's bad inputs, end to end, against the table in docs/bad-inputs.md.

Each row of the table names a case built here; the command must exit with the
documented code, print exactly one line on stderr that contains the documented
message (``<dir>`` stands for the case's directory), no traceback, and leave no
file behind (no output, no temporary file).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from conftest import EXAMPLES, ROOT, run_cfmem

DOC = ROOT / "docs" / "bad-inputs.md"

TINY = """nn.global @w size(64) {where}
func.func @main(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {{
  %b = nn.get_global @w : tensor<64xi8>
  %k = nn.view %b[0] bytes(16) : tensor<64xi8> to tensor<4xf32>
  %y = nn.add %x, %k : (tensor<1x4xf32>, tensor<4xf32>) -> tensor<1x4xf32>
  func.return %y : tensor<1x4xf32>
}}
"""


def write(d: Path, name: str, text: str | bytes) -> str:
    path = d / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return name


def onnx_model(d: Path, name: str, op: str = "Relu", batch: int | str = 1) -> str:
    import onnx
    from onnx import TensorProto as T
    from onnx import helper as h

    node = h.make_node(op, ["x"], ["y"], name=f"the_{op.lower()}")
    graph = h.make_graph([node], "g", [h.make_tensor_value_info("x", T.FLOAT, [batch, 4])],
                         [h.make_tensor_value_info("y", T.FLOAT, [batch, 4])])  # fmt: skip
    onnx.save(h.make_model(graph, opset_imports=[h.make_opsetid("", 17)], ir_version=8), str(d / name))
    return name


def csv(d: Path, text: str) -> str:
    return write(d, "p.csv", text)


def flat_with_other_weights(d: Path) -> str:
    """flat.mlir compiled from m.mlir with w.bin all zeros, then w.bin rewritten (another model's weights)."""
    write(d, "w.bin", bytes(64))
    done = run_cfmem("compile", write(d, "m.mlir", TINY.format(where='file("w.bin", 0)')), "-o", "flat.mlir", cwd=d)
    assert done.returncode == 0, done.stderr
    write(d, "w.bin", bytes([1]) * 64)
    return "flat.mlir"


def npz(d: Path, **arrays) -> str:
    np.savez(d / "in.npz", **arrays)
    return "in.npz"


ESCAPE = """func.func @main() -> memref<4xf32> {
  %r = memref.alloc() : memref<4xf32>
  func.return %r : memref<4xf32>
}
"""
DYNAMIC_ALLOC = """func.func @main(%n: index) {
  %d = memref.alloc(%n) : memref<?xf32>
  func.return
}
"""
ADDRESS_OUT = """func.func @main(%o: memref<1xindex>) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4xf32>
  %addr = "memref.extract_aligned_pointer_as_index"(%a) : (memref<4xf32>) -> index
  memref.store %addr, %o[%c0] : memref<1xindex>
  func.return
}
"""
EXAMPLE = str(EXAMPLES / "wakeword.mlir")
LOOPS = str(EXAMPLES / "seqkws.mlir")

SWAP_LOOP = """func.func @main(%n: tensor<i64>, %x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %t = nn.constant dense<true> : tensor<i1>
  %a, %b = nn.loop %n, %t (%x, %y) : (tensor<i64>, tensor<i1>, tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %p: tensor<4xf32>, %q: tensor<4xf32>):
    nn.yield %c, %q, %p : tensor<i1>, tensor<4xf32>, tensor<4xf32>
  }
  func.return %a, %b : tensor<4xf32>, tensor<4xf32>
}
"""
SCAN_LOOP = """func.func @main(%n: tensor<i64>, %x: tensor<4xf32>) -> tensor<3x4xf32> {
  %t = nn.constant dense<true> : tensor<i1>
  %h, %ys = nn.loop %n, %t (%x) : (tensor<i64>, tensor<i1>, tensor<4xf32>) -> (tensor<4xf32>, tensor<3x4xf32>) {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %a: tensor<4xf32>):
    %b = nn.tanh %a : (tensor<4xf32>) -> tensor<4xf32>
    nn.yield %c, %b, %b : tensor<i1>, tensor<4xf32>, tensor<4xf32>
  }
  func.return %ys : tensor<3x4xf32>
}
"""

CASES: dict[str, Callable[[Path], list[str]]] = {
    "malformed-mlir": lambda d: ["run", write(d, "m.mlir", "func.func @main( {\n")],
    "unknown-op": lambda d: ["run", write(d, "m.mlir", '"nn.frobnicate"() : () -> ()\n')],
    "failing-verifier": lambda d: ["run", write(d, "m.mlir", TINY.format(where="seed(1)").replace("[0] bytes(16)", "[56] bytes(16)"))],
    "dynamic-shape": lambda d: ["opt", write(d, "m.mlir", TINY.format(where="seed(1)").replace("%x: tensor<1x4xf32>", "%x: tensor<?x4xf32>").replace("(tensor<1x4xf32>, tensor<4xf32>)", "(tensor<?x4xf32>, tensor<4xf32>)")), "-p", "nn-plan-memory", "-o", "out.mlir"],
    "unknown-pass": lambda d: ["opt", EXAMPLE, "-p", "nn-nope", "-o", "out.mlir"],
    "bad-pass-option": lambda d: ["opt", EXAMPLE, "-p", "nn-plan-memory{mode=bogus}", "-o", "out.mlir"],
    "unknown-pass-option": lambda d: ["opt", EXAMPLE, "-p", "nn-plan-memory{colour=red}", "-o", "out.mlir"],
    "over-budget": lambda d: ["opt", EXAMPLE, "-p", "nn-plan-memory{budget=100}", "-o", "out.mlir"],
    "arena-escape": lambda d: ["opt", write(d, "m.mlir", ESCAPE), "-p", "memref-plan-arena", "-o", "out.mlir"],
    "arena-dynamic-size": lambda d: ["opt", write(d, "m.mlir", DYNAMIC_ALLOC), "-p", "memref-plan-arena", "-o", "out.mlir"],
    "arena-address-out": lambda d: ["opt", write(d, "m.mlir", ADDRESS_OUT), "-p", "memref-plan-arena", "-o", "out.mlir"],
    "missing-model": lambda d: ["run", "absent.mlir"],
    "missing-blob": lambda d: ["run", write(d, "m.mlir", TINY.format(where='file("w.bin", 0)'))],
    "truncated-blob": lambda d: ["run", write(d, "m.mlir", TINY.format(where='file("w.bin", 0)')), "--seed", write(d, "w.bin", bytes(40)) and "0"],
    "weights-of-another-model": lambda d: ["run", flat_with_other_weights(d), "--seed", "0", "-o", "y.npz"],
    "missing-input": lambda d: ["run", EXAMPLE, "--inputs", npz(d, nothing=np.zeros(1))],
    "wrong-input-shape": lambda d: ["run", write(d, "m.mlir", TINY.format(where="seed(1)")), "--inputs", npz(d, x=np.zeros((2, 4), np.float32))],
    "missing-output-dir": lambda d: ["opt", EXAMPLE, "-p", "nn-plan-memory", "-o", "nodir/out.mlir"],
    "unsupported-onnx-op": lambda d: ["import", onnx_model(d, "m.onnx", "Bernoulli"), "-o", "out.mlir"],
    "corrupt-onnx": lambda d: ["import", write(d, "m.onnx", b"\x08\x07garbage" * 10), "-o", "out.mlir"],
    "symbolic-onnx-input": lambda d: ["import", onnx_model(d, "m.onnx", batch="N"), "-o", "out.mlir"],
    "bad-input-shape-option": lambda d: ["import", onnx_model(d, "m.onnx"), "-o", "out.mlir", "--input-shape", "x=1,a"],
    "csv-missing-column": lambda d: ["plan", csv(d, "id,lower,upper\n0,0,1\n"), "-o", "out.csv"],
    "csv-not-an-integer": lambda d: ["plan", csv(d, "id,lower,upper,size\n0,0,x,4\n"), "-o", "out.csv"],
    "csv-empty-interval": lambda d: ["plan", csv(d, "id,lower,upper,size\n0,3,3,4\n"), "-o", "out.csv"],
    "csv-duplicate-id": lambda d: ["plan", csv(d, "id,lower,upper,size\n0,0,1,4\n0,1,2,4\n"), "-o", "out.csv"],
    "plan-over-budget": lambda d: ["plan", csv(d, "id,lower,upper,size\n0,0,2,64\n1,1,3,64\n"), "--budget", "100", "-o", "out.csv"],
    "output-is-the-input": lambda d: ["run", write(d, "m.mlir", TINY.format(where="seed(1)")), "-o", "m.mlir"],
    "output-links-to-the-input": lambda d: ["report", write(d, "m.mlir", TINY.format(where="seed(1)")), "--csv", symlink(d, "link.csv", "m.mlir")],
    "import-blob-over-its-input": lambda d: ["import", write(d, "m.weights.bin", (d / onnx_model(d, "m.onnx")).read_bytes()), "-o", "m.mlir"],
    "output-is-a-fifo": lambda d: ["run", write(d, "m.mlir", TINY.format(where="seed(1)")), "-o", os.mkfifo(d / "fifo") or "fifo"],
    "output-is-a-directory": lambda d: ["import", onnx_model(d, "m.onnx"), "-o", (d / "D").mkdir() or "D"],
    "output-trailing-slash": lambda d: ["run", write(d, "m.mlir", TINY.format(where="seed(1)")), "-o", "newdir/"],
    "output-read-only": lambda d: ["run", write(d, "m.mlir", TINY.format(where="seed(1)")), "-o", write(d, "ro.npz", b"keep") and os.chmod(d / "ro.npz", 0o444) or "ro.npz"],
    "import-to-stdout": lambda d: ["import", onnx_model(d, "m.onnx"), "-o", "-"],
    "usage-error": lambda d: ["run", write(d, "m.mlir", TINY.format(where="seed(1)")), "--seed", "x"],
    "missing-argument": lambda d: ["run"],
    "malformed-pipeline": lambda d: ["opt", EXAMPLE, "-p", "nn-plan-memory{", "-o", "out.mlir"],
    "bad-time-limit": lambda d: ["opt", EXAMPLE, "-p", "nn-plan-memory{time-limit=0.0}", "-o", "out.mlir"],
    "dma-align-zero": lambda d: ["opt", EXAMPLE, "-p", "nn-insert-dma{align=0}", "-o", "out.mlir"],
    "plan-bad-time-limit": lambda d: ["plan", csv(d, "id,lower,upper,size\n0,0,2,64\n"), "--time-limit", "0", "-o", "out.csv"],
    "hand-edited-plan": lambda d: ["opt", write(d, "m.mlir", "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> attributes {cfmem.arena_size = 16 : i64} {\n  %a = nn.relu %x {cfmem.offsets = array<i64: 16>} : (tensor<4xf32>) -> tensor<4xf32>\n  %b = nn.relu %a : (tensor<4xf32>) -> tensor<4xf32>\n  func.return %b : tensor<4xf32>\n}\n"), "-p", "nn-lower-to-memref", "-o", "out.mlir"],
    "lowered-twice": lambda d: ["opt", EXAMPLE, "-p", "nn-plan-memory,nn-lower-to-memref,nn-lower-to-memref", "-o", "out.mlir"],
    "use-before-def": lambda d: ["opt", write(d, "m.mlir", TINY.format(where="seed(1)").replace(
        "  %k = nn.view %b[0] bytes(16) : tensor<64xi8> to tensor<4xf32>\n  %y = nn.add %x, %k",
        "  %y = nn.add %x, %k").replace("  func.return", "  %k = nn.view %b[0] bytes(16) : tensor<64xi8> to tensor<4xf32>\n  func.return")),
        "-p", "nn-plan-memory", "-o", "out.mlir"],  # fmt: skip
    "scf-if": lambda d: ["opt", write(d, "m.mlir", "func.func @main(%x: tensor<4xf32>, %c: i1) -> tensor<4xf32> {\n  %r = scf.if %c -> (tensor<4xf32>) {\n    %t = nn.relu %x : (tensor<4xf32>) -> tensor<4xf32>\n    scf.yield %t : tensor<4xf32>\n  } else {\n    scf.yield %x : tensor<4xf32>\n  }\n  %b = nn.relu %r : (tensor<4xf32>) -> tensor<4xf32>\n  func.return %b : tensor<4xf32>\n}\n"), "-p", "nn-plan-memory", "-o", "out.mlir"],
    "view-offset-beyond-i64": lambda d: ["run", write(d, "m.mlir", TINY.format(where="seed(1)").replace("[0] bytes", "[99999999999999999999] bytes"))],
    "flat-missing-dma-wait": lambda d: ["opt", write(d, "flat.mlir", "".join(line for line in run_cfmem("opt", write(d, "m.mlir", TINY.format(where="seed(1)")), "-p", "nn-insert-dma,nn-plan-memory,nn-lower-to-memref", cwd=d).stdout.splitlines(True) if "dma_wait" not in line)), "-p", "nn-check-dma"],
    "negative-seed": lambda d: ["run", write(d, "m.mlir", TINY.format(where="seed(1)")), "--seed", "-1"],
    "inputs-npy": lambda d: ["run", write(d, "m.mlir", TINY.format(where="seed(1)")), "--inputs", np.save(d / "in.npy", np.zeros(4)) or "in.npy"],
    "inputs-strings": lambda d: ["run", write(d, "m.mlir", TINY.format(where="seed(1)")), "--inputs", npz(d, x=np.array(["a", "b"]))],
    "inputs-objects": lambda d: ["run", write(d, "m.mlir", TINY.format(where="seed(1)")), "--inputs", npz(d, x=np.array([1, None], dtype=object))],
    "lossy-input-dtype": lambda d: ["run", write(d, "m.mlir", TINY.format(where="seed(1)")), "--inputs", npz(d, x=np.full((1, 4), 0.1))],
    "huge-input": lambda d: ["run", write(d, "m.mlir", "func.func @main(%x: tensor<100000x100000x2xf32>) -> tensor<100000x100000x2xf32> {\n  func.return %x : tensor<100000x100000x2xf32>\n}\n")],
    "huge-value": lambda d: ["run", write(d, "m.mlir", "func.func @main(%x: tensor<100000x1xf32>, %y: tensor<1x100000xf32>) -> tensor<100000x100000xf32> {\n  %z = nn.add %x, %y : (tensor<100000x1xf32>, tensor<1x100000xf32>) -> tensor<100000x100000xf32>\n  func.return %z : tensor<100000x100000xf32>\n}\n")],
    "check-mlir-bad-tolerance": lambda d: ["check-mlir", write(d, "m.mlir", TINY.format(where="seed(1)")), "--rtol", "nan"],
    "check-mlir-untested-branch": lambda d: ["check-mlir", write(d, "m.mlir", "func.func @main(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {\n  %c = nn.constant dense<true> : tensor<1xi1>\n  %r = nn.if %c : tensor<1xi1> -> (tensor<1x4xf32>) {\n    %t = nn.relu %x : (tensor<1x4xf32>) -> tensor<1x4xf32>\n    nn.yield %t : tensor<1x4xf32>\n  } else {\n    nn.yield %x : tensor<1x4xf32>\n  }\n  func.return %r : tensor<1x4xf32>\n}\n"), "--no-mlir"],
    "check-mlir-untested-loop": lambda d: ["check-mlir", write(d, "m.mlir", "func.func @main(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {\n  %n = nn.constant dense<3> : tensor<i64>\n  %c = nn.constant dense<false> : tensor<i1>\n  %h = nn.loop %n, %c (%x) : (tensor<i64>, tensor<i1>, tensor<1x4xf32>) -> (tensor<1x4xf32>) {\n  ^bb0(%i: tensor<i64>, %k: tensor<i1>, %a: tensor<1x4xf32>):\n    %t = nn.relu %a : (tensor<1x4xf32>) -> tensor<1x4xf32>\n    nn.yield %k, %t : tensor<i1>, tensor<1x4xf32>\n  }\n  func.return %h : tensor<1x4xf32>\n}\n"), "--no-mlir"],
    "report-flat-module": lambda d: ["report", run_cfmem("opt", write(d, "m.mlir", TINY.format(where="seed(1)")), "-p", "nn-plan-memory,nn-lower-to-memref", "-o", "flat.mlir", cwd=d) and "flat.mlir"],
    "csv-extra-field": lambda d: ["plan", csv(d, "id,lower,upper,size\n0,0,1,4,9\n"), "-o", "out.csv"],
    "attribute-out-of-range": lambda d: ["run", write(d, "m.mlir", HUGE_AXIS)],
    "report-scf-if": lambda d: ["report", write(d, "m.mlir", SCF_IF)],
    "loop-swap": lambda d: ["opt", write(d, "m.mlir", SWAP_LOOP), "-p", "nn-plan-memory,nn-lower-to-memref", "-o", "out.mlir"],
    "scan-length": lambda d: ["run", write(d, "m.mlir", SCAN_LOOP), "--inputs", npz(d, n=np.array(2), x=np.zeros(4, np.float32))],
    "negative-loop-trips": lambda d: ["compile", LOOPS, "--loop-trips", "-1", "-o", "out.mlir"],
    "bad-chip": lambda d: ["report", EXAMPLE, "--timing", "--chip", write(d, "chip.json", '{"x":\n')],
    "huge-splat": lambda d: ["run", write(d, "m.mlir", HUGE_AXIS.replace("nn.softmax %x {axis = 99999999999999999999 : i64} : (tensor<1x4xf32>) -> tensor<1x4xf32>", "nn.constant dense<1.0> : tensor<50000x50000xf32>").replace("%y : tensor<1x4xf32>", "%y : tensor<50000x50000xf32>").replace("-> tensor<1x4xf32> {", "-> tensor<50000x50000xf32> {"))],
    "onnx-op-version": lambda d: ["import", onnx_case(d, "op-version"), "-o", "out.mlir"],
    "onnx-dropout-training": lambda d: ["import", onnx_case(d, "dropout-training"), "-o", "out.mlir"],
    "onnx-dropout-training-at-run-time": lambda d: ["import", onnx_case(d, "dropout-training-at-run-time"), "-o", "out.mlir"],
    "onnx-dropout-mask": lambda d: ["import", onnx_case(d, "dropout-mask"), "-o", "out.mlir"],
    "onnx-non-positive-dimension": lambda d: ["import", onnx_model(d, "m.onnx", batch=0), "-o", "out.mlir"],
    "onnx-huge-known-tensor": lambda d: ["import", onnx_case(d, "huge-known-tensor"), "-o", "out.mlir"],
    "onnx-input-value-out-of-range": lambda d: ["import", onnx_model(d, "m.onnx"), "-o", "out.mlir", "--input-value", "x=1e50"],
    "nul-byte": lambda d: ["run", write(d, "m.mlir", b"\x00" + TINY.format(where="seed(1)").encode())],
    "compile-below-what-must-stay-on-chip": lambda d: ["compile", write(d, "m.mlir", IF_RESULT), "--budget", "100", "-o", "out.mlir"],
    "compile-negative-budget": lambda d: ["compile", write(d, "m.mlir", IF_RESULT), "--budget", "-1", "-o", "out.mlir"],
    "compile-budget-beyond-i64": lambda d: ["compile", write(d, "m.mlir", IF_RESULT), "--budget", "99999999999999999999999", "-o", "out.mlir"],
    "compile-flat-module": lambda d: ["compile", run_cfmem("opt", write(d, "m.mlir", TINY.format(where="seed(1)")), "-p", "nn-plan-memory,nn-lower-to-memref", "-o", "flat.mlir", cwd=d) and "flat.mlir", "-o", "out.mlir"],
    "report-budget-sweep-with-compare": lambda d: ["report", write(d, "m.mlir", IF_RESULT), "--budget-sweep", "--compare"],
    "root-usage-error": lambda d: ["run", write(d, "m.mlir", TINY.format(where="seed(1)")), "--frobnicate"],
    "depth-beyond-range": lambda d: ["report", EXAMPLE, "--timing", "--depth", "99999999999999999999"],
    "pass-depth-beyond-range": lambda d: ["opt", EXAMPLE, "-p", "nn-insert-dma{depth=99999999999999999999}", "-o", "out.mlir"],
    "arena-beyond-i64": lambda d: ["opt", EXAMPLE, "-p", "nn-plan-memory{align=4611686018427387904}", "-o", "out.mlir"],
    "chip-fractional-count": lambda d: ["compile", EXAMPLE, "--chip", write(d, "chip.json", '{"onchip_bytes": 1.5}'), "-o", "out.mlir"],
    "chip-denormal-rate": lambda d: ["report", EXAMPLE, "--timing", "--chip", write(d, "chip.json", '{"dma_bytes_per_cycle": 1e-320}')],
    "csv-beyond-int64": lambda d: ["plan", csv(d, "id,lower,upper,size\n0,0,99999999999999999999,4\n"), "-o", "out.csv"],
    "input-is-a-device": lambda d: ["import", "/dev/zero", "-o", "out.mlir"],
    "tflite-truncated": lambda d: ["import", tflite_case(d, "truncated"), "-o", "out.mlir"],
    "tflite-wrong-identifier": lambda d: ["plan-tflite", tflite_case(d, "wrong-identifier"), "-o", "out.tflite", "--no-tflm"],
    "tflite-vector-longer-than-the-file": lambda d: ["plan-tflite", tflite_case(d, "long-vector"), "-o", "out.tflite", "--no-tflm"],
    "tflite-of-another-schema": lambda d: ["import", tflite_case(d, "another-schema"), "-o", "out.mlir"],
    "plan-tflite-of-an-onnx-model": lambda d: ["plan-tflite", onnx_model(d, "m.onnx"), "-o", "out.tflite", "--no-tflm"],
    "plan-tflite-over-a-link-to-its-input": lambda d: ["plan-tflite", tflite_case(d, "sine"), "-o", symlink(d, "link.tflite", "m.tflite"), "--no-tflm"],
    "tflite-omitted-input": lambda d: ["import", tflite_case(d, "omitted-input"), "-o", "out.mlir"],
    "tflite-missing-input": lambda d: ["import", tflite_case(d, "missing-input"), "-o", "out.mlir"],
    "tflite-unknown-operator-code": lambda d: ["plan-tflite", tflite_case(d, "unknown-operator-code"), "-o", "out.tflite", "--no-tflm"],
    "tflite-if-without-options": lambda d: ["plan-tflite", tflite_case(d, "if-without-options"), "-o", "out.tflite", "--no-tflm"],
}  # fmt: skip

IF_RESULT = """func.func @main(%x: tensor<1x64xf32>, %c: tensor<1xi1>) -> tensor<1x64xf32> {
  %r = nn.if %c : tensor<1xi1> -> (tensor<1x64xf32>) {
    %a = nn.relu %x : (tensor<1x64xf32>) -> tensor<1x64xf32>
    nn.yield %a : tensor<1x64xf32>
  } else {
    nn.yield %x : tensor<1x64xf32>
  }
  %y = nn.sigmoid %r : (tensor<1x64xf32>) -> tensor<1x64xf32>
  func.return %y : tensor<1x64xf32>
}
"""

SCF_IF = """func.func @main(%x: tensor<4xf32>, %c: i1) -> tensor<4xf32> {
  %r = scf.if %c -> (tensor<4xf32>) {
    %t = nn.relu %x : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %t : tensor<4xf32>
  } else {
    scf.yield %x : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}
"""

HUGE_AXIS = """func.func @main(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %y = nn.softmax %x {axis = 99999999999999999999 : i64} : (tensor<1x4xf32>) -> tensor<1x4xf32>
  func.return %y : tensor<1x4xf32>
}
"""


def symlink(d: Path, name: str, target: str) -> str:
    os.symlink(target, d / name)
    return name


def documented_rows() -> list[tuple[str, str, int]]:
    """(case, message, exit code) from the table in docs/bad-inputs.md."""
    rows = []
    for line in DOC.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0].startswith("`") and cells[0] != "`case`":
            rows.append((cells[0].strip("`"), cells[3].strip("`").replace("\\|", "|"), int(cells[4])))
    return rows


def test_the_table_documents_every_case_once():
    names = [name for name, _, _ in documented_rows()]
    assert sorted(names) == sorted(CASES)


@pytest.mark.parametrize("case, message, code", documented_rows(), ids=[r[0] for r in documented_rows()])
def test_bad_input_gives_the_documented_line_and_leaves_nothing(tmp_path, case, message, code):
    argv = CASES[case](tmp_path)
    before = snapshot(tmp_path)
    done = run_cfmem(*argv, cwd=tmp_path)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == code, done.stderr
    assert len(lines) == 1 and re.match(r"cfmem: \S.*?: error: \S", lines[0]), done.stderr  # cfmem: <where>: error: <what>
    assert "Traceback" not in done.stderr
    expected = message.replace("<dir>", str(tmp_path)).replace("<examples>", str(EXAMPLES))
    assert expected in lines[0], f"\n  documented: {expected}\n  printed:    {lines[0]}"
    assert snapshot(tmp_path) == before  # every file as it was: no output, no temporary file


def snapshot(d: Path) -> dict[str, bytes | str | None]:
    """Each entry of ``d``: a file's bytes, a link's target, None for anything else."""
    return {
        p.name: os.readlink(p) if p.is_symlink() else p.read_bytes() if p.is_file() else None
        for p in sorted(d.iterdir())
    }


def normalise(line: str, d: Path) -> str:
    return re.sub(re.escape(str(d)), "<dir>", line).replace(str(EXAMPLES), "<examples>")


def onnx_case(d: Path, kind: str) -> str:
    """m.onnx for one of the importer's refusals: an op version it does not implement,
    Dropout in training, a Dropout mask before version 12, a huge known tensor."""
    import onnx
    from onnx import TensorProto as T
    from onnx import helper as h
    from onnx import numpy_helper as nh

    x, y = h.make_tensor_value_info("x", T.FLOAT, [1, 4]), h.make_tensor_value_info("y", T.FLOAT, [1, 4])
    inputs, inits, opset = [x], [], 17
    if kind == "op-version":
        nodes, opset = [h.make_node("QuantizeLinear", ["x", "scale"], ["y"], name="the_quantize")], 23
        inits.append(nh.from_array(np.array(0.5, np.float32), "scale"))
        y = h.make_tensor_value_info("y", T.UINT8, [1, 4])
    elif kind.startswith("dropout-training"):
        nodes = [h.make_node("Dropout", ["x", "", "training"], ["y"], name="the_dropout")]
        if kind.endswith("at-run-time"):
            inputs.append(h.make_tensor_value_info("training", T.BOOL, []))
        else:
            inits.append(nh.from_array(np.array(True), "training"))
    elif kind == "dropout-mask":
        nodes, opset = [h.make_node("Dropout", ["x"], ["y", "mask"], name="the_dropout")], 10
    else:
        shape = nh.from_array(np.array([50000, 50000], np.int64), "shape")
        nodes = [h.make_node("ConstantOfShape", ["shape"], ["big"], name="the_fill"), h.make_node("Add", ["x", "big"], ["y"])]
        inits.append(shape)
    outputs = [y] + [h.make_tensor_value_info("mask", T.BOOL, [1, 4])] * (kind == "dropout-mask")
    graph = h.make_graph(nodes, "g", inputs, outputs, inits)
    onnx.save(h.make_model(graph, opset_imports=[h.make_opsetid("", opset)], ir_version=8), str(d / "m.onnx"))
    return "m.onnx"


def tflite_case(d: Path, kind: str) -> str:
    """m.tflite: TFLM's sine model damaged (cut in half, another identifier, the length of
    subgraph 0's tensors made 2**30 - 1), a flatbuffer of another schema with TFLite's
    identifier, or a small model with an omitted or a missing input, an unknown operator code,
    or an IF without options."""
    pytest.importorskip("tflite_micro")
    import flatbuffers

    from cfmem.testing.tflite_models import sine_float_model
    from cfmem.testing.tflite_writer import TfliteWriter, options
    from cfmem.tflite.model_file import FILE_IDENTIFIER, schema

    data = bytearray(sine_float_model().read_bytes())
    if kind == "truncated":
        data = data[: len(data) // 2]
    elif kind == "wrong-identifier":
        data[4:8] = b"ONNX"
    elif kind == "long-vector":
        subgraph = schema().Model.GetRootAs(data, 0).Subgraphs(0)
        at = subgraph._tab.Vector(subgraph._tab.Offset(4)) - 4  # the length of its tensors (field 0)
        data[at : at + 4] = (2**30 - 1).to_bytes(4, "little")
    elif kind == "another-schema":
        b = flatbuffers.Builder(64)
        text = b.CreateString("hello")
        b.StartObject(2)
        b.PrependUOffsetTRelativeSlot(0, text, 0)
        b.PrependInt32Slot(1, 7, 0)
        b.Finish(b.EndObject(), file_identifier=FILE_IDENTIFIER)
        data = b.Output()
    elif kind != "sine":
        w = TfliteWriter()
        main = w.subgraph("main")
        x, y = main.tensor("x", (1, 4)), main.tensor("y", (1, 4))
        if kind == "omitted-input":
            main.op("ADD", [x, -1], [y], options("AddOptions"))
        elif kind == "missing-input":
            main.op("FULLY_CONNECTED", [x], [y])
        elif kind == "unknown-operator-code":
            main.op("RELU", [x], [y])
            w.model.subgraphs[0].operators[0].opcodeIndex = 5
        else:
            main.op("IF", [main.tensor("c", (1,), np.bool_), x], [y])
            other = w.subgraph("then")
            a = other.tensor("a", (1, 4))
            other.io([a], [a])
        main.io([x], [y])
        data = w.pack()
    return write(d, "m.tflite", bytes(data))
