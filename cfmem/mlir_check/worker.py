"""Subprocess side of the upstream-MLIR checker: parse, verify, lower, JIT, run.

Run as ``python -m cfmem.mlir_check.worker DIR``. ``DIR`` holds
``module.mlir``, ``request.json`` (``{"mode": "verify" | "run", "func": name
or null, "sets": N, "outputs": [[shape, dtype], ...]}``) and, to run,
``inputs.npz`` with input ``i`` of set ``k`` as ``set<k>_arg<i>``. The module
is compiled once and called once per set. On success the worker writes output
``j`` of set ``k`` to ``outputs.npz`` as ``set<k>_out<j>`` (and, when the request
has ``"return_inputs": true``, input ``i`` as the call left it as ``set<k>_in<i>``)
and exits 0; on a failure it can name it writes one line to ``error.txt`` and exits 1.
The worker runs in its caller's directory, where the module's weight-file paths
start; each global kept in a weight file is filled from it by its filler
(``prepare_for_jit``) after the file is checked.

Mode ``"pipeline"`` (``{"mode": "pipeline", "pipeline": text, "result": path}``)
instead runs the upstream pass pipeline ``text`` (``builtin.module(...)``) on the
module and writes the result to ``path`` in the generic op form.

Assumes a module already prepared by ``prepare_for_jit``: the function to run
takes only static-shape memrefs, the inputs first, then the output buffers it
writes, returns nothing, and carries ``llvm.emit_c_interface``. Everything runs
in one fresh ``Context`` with no unregistered dialects. The JIT resolves the
libm functions the code calls (``expf``, ``erff``, ...) in this process; no
MLIR runtime library is loaded, so nothing may need one (``memref.copy``
between non-contiguous memrefs would).
"""

from __future__ import annotations

import ctypes
import json
import math
import re
import sys
import time
from pathlib import Path

import numpy as np

PIPELINE = (
    "builtin.module("
    "func.func(convert-linalg-to-loops),"
    "expand-strided-metadata,"
    "lower-affine,"
    "convert-scf-to-cf,"
    "convert-math-to-llvm,"
    "convert-math-to-libm,"
    "finalize-memref-to-llvm,"
    "convert-arith-to-llvm,"
    "convert-func-to-llvm,"
    "convert-cf-to-llvm,"
    "convert-index-to-llvm,"
    "reconcile-unrealized-casts)"
)
"""Upstream passes from linalg on memrefs down to the LLVM dialect (MLIR 22)."""


class _Failure(Exception):
    pass


def main(directory: str) -> int:
    work = Path(directory)
    try:
        request = json.loads((work / "request.json").read_text())
        outputs = _check(work, request)
    except _Failure as err:
        (work / "error.txt").write_text(str(err))
        return 1
    if outputs is not None:
        np.savez(work / "outputs.npz", **outputs)
    return 0


def _check(work: Path, request: dict) -> dict[str, np.ndarray] | None:
    try:
        from mlir import ir
        from mlir.execution_engine import ExecutionEngine
        from mlir.passmanager import PassManager
        from mlir.runtime import get_ranked_memref_descriptor
    except ImportError as err:
        raise _Failure(f"the MLIR python bindings are not installed ({err}); install with pip install 'cfmem[mlir]'")

    with ir.Context(), ir.Location.unknown():
        module = _stage("parse", lambda: ir.Module.parse((work / "module.mlir").read_text()))
        _stage("verify", module.operation.verify)
        if request["mode"] == "verify":
            return None
        if request["mode"] == "pipeline":
            _stage("pipeline", lambda: PassManager.parse(request["pipeline"]).run(module.operation))
            _stage("pipeline", module.operation.verify)
            Path(request["result"]).write_text(module.operation.get_asm(print_generic_op_form=True))
            return None
        name = _function_name(module, request.get("func"))
        init = _init_name(module, name)
        with np.load(work / "inputs.npz") as data:
            arrays = {key: np.require(data[key], requirements="C") for key in data.files}
        sets = []
        for k in range(request["sets"]):
            inputs = [arrays[f"set{k}_arg{i}"] for i in range(sum(key.startswith(f"set{k}_") for key in arrays))]
            outputs = [np.zeros(shape, dtype=np.dtype(dtype)) for shape, dtype in request["outputs"]]
            _check_signature(ir, module, name, inputs, outputs)
            sets.append((inputs, outputs))
        fills = _weight_fills(ir, module)
        _stage("lower", lambda: PassManager.parse(PIPELINE).run(module.operation))
        _check_lowered(ir, module)
        engine = _stage("jit", lambda: ExecutionEngine(module, opt_level=2))
        for filler, data in fills:  # weights kept in a file: copied in once, before anything runs
            _stage("run", lambda: engine.invoke(filler, ctypes.pointer(ctypes.pointer(get_ranked_memref_descriptor(data)))))
        if init is not None:  # resident weights: loaded once, before the first inference
            _stage("run", lambda: engine.invoke(init))
        results = {}
        seconds = []
        for k, (inputs, outputs) in enumerate(sets):
            descriptors = [get_ranked_memref_descriptor(a) for a in (*inputs, *outputs)]
            pointers = [ctypes.pointer(ctypes.pointer(d)) for d in descriptors]
            start = time.perf_counter()
            _stage("run", lambda: engine.invoke(name, *pointers))
            seconds.append(time.perf_counter() - start)
            results.update({f"set{k}_out{j}": out for j, out in enumerate(outputs)})
            if request.get("return_inputs"):  # what the call left in the buffers it was given
                results.update({f"set{k}_in{i}": array for i, array in enumerate(inputs)})
        results["run_seconds"] = np.array(seconds)
        return results


def _weight_fills(ir, module) -> list[tuple[str, np.ndarray]]:
    """Each filler (``cfmem.fills``) with the bytes of its global's weight file, read
    relative to the current directory and checked against the global's size and SHA-256."""
    from cfmem.weight_file import FILE_ATTR, OFFSET_ATTR, SHA256_ATTR, WeightFileError, map_checked, resolve

    globals_ = {op.attributes["sym_name"].value: op for op in module.body.operations if op.operation.name == "memref.global"}
    fills = []
    for op in module.body.operations:
        attributes = op.operation.attributes
        if op.operation.name != "func.func" or "cfmem.fills" not in attributes:
            continue
        glob = globals_[attributes["cfmem.fills"].value].operation.attributes
        size = math.prod(ir.MemRefType(ir.TypeAttr(glob["type"]).value).shape)
        path = resolve(glob[FILE_ATTR].value, None)
        try:
            data = map_checked(path, ir.IntegerAttr(glob[OFFSET_ATTR]).value, size, glob[SHA256_ATTR].value)
        except WeightFileError as err:
            raise _Failure(str(err)) from None
        fills.append((attributes["sym_name"].value, data.view(np.int8)))
    return fills


def _init_name(module, name: str) -> str | None:
    """The loader @name names in ``cfmem.init`` (resident weights), if any."""
    func = next(op for op in module.body.operations if op.attributes["sym_name"].value == name)
    attributes = func.operation.attributes
    return attributes["cfmem.init"].value if "cfmem.init" in attributes else None


def _function_name(module, requested: str | None) -> str:
    """``requested``, else ``main``, else the module's only function."""
    names = [
        op.attributes["sym_name"].value
        for op in module.body.operations
        if op.operation.name == "func.func"
        and "cfmem.init_of" not in op.operation.attributes
        and "cfmem.fills" not in op.operation.attributes
    ]
    if requested is not None and requested not in names:
        raise _Failure(f"cannot run @{requested}: the module has no such function ({', '.join(names) or 'none'})")
    if requested is not None:
        return requested
    if "main" in names:
        return "main"
    if len(names) == 1:
        return names[0]
    raise _Failure(f"cannot choose a function to run: no @main among {len(names)} functions")


def _check_signature(ir, module, name: str, inputs: list[np.ndarray], outputs: list[np.ndarray]) -> None:
    """The arrays match @name's memref arguments one to one, in shape and element type."""
    func = next(op for op in module.body.operations if op.attributes["sym_name"].value == name)
    if "llvm.emit_c_interface" not in func.attributes:
        raise _Failure(f"cannot run @{name}: it lacks llvm.emit_c_interface (prepare the module with prepare_for_jit)")
    params = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value).inputs
    arrays = [*inputs, *outputs]
    if len(params) != len(arrays):
        raise _Failure(
            f"cannot run @{name}: it takes {len(params)} arguments, given {len(inputs)} inputs and {len(outputs)} outputs"
        )
    for index, (param, array) in enumerate(zip(params, arrays)):
        try:
            memref = ir.MemRefType(param)
        except ValueError:
            raise _Failure(f"cannot run @{name}: argument {index} is {param}, not a memref") from None
        elements = _ELEMENT_TYPES.get(array.dtype.str, ())
        if list(memref.shape) != list(array.shape) or str(memref.element_type) not in elements:
            raise _Failure(
                f"cannot run @{name}: argument {index} is {param}, given a {array.dtype} array of shape {array.shape}"
            )


_ELEMENT_TYPES = {
    np.dtype(np.float32).str: ("f32",),
    np.dtype(np.float16).str: ("f16",),
    np.dtype(np.float64).str: ("f64",),
    np.dtype(np.bool_).str: ("i1", "i8"),
    np.dtype(np.int8).str: ("i8",),
    np.dtype(np.uint8).str: ("i8",),  # ui8 data, lowered to i8 of the same bytes
    np.dtype(np.int16).str: ("i16",),
    np.dtype(np.int32).str: ("i32",),
    np.dtype(np.int64).str: ("i64",),
}
"""MLIR element types with the memory layout of each numpy dtype the worker passes
(``prepare_for_jit`` stores booleans as ``i8`` bytes of 0/1, as numpy does)."""


def _check_lowered(ir, module) -> None:
    """Name the first op the pipeline left outside the LLVM dialect, if any."""
    left: list = []

    def visit(op):
        if op.name.split(".")[0] not in ("llvm", "builtin"):
            left.append(op)
            return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit, ir.WalkOrder.PRE_ORDER)
    if left:
        what = _located(left[0].location, f"no lowering to LLVM for '{left[0].name}'")
        raise _Failure(f"{_STAGES['lower']}: {what}")


_STAGES = {
    "parse": "upstream MLIR rejected the module",
    "verify": "upstream MLIR rejected the module",
    "pipeline": "upstream MLIR's pass pipeline failed",
    "lower": "upstream MLIR could not lower the module to LLVM",
    "jit": "upstream MLIR could not JIT-compile the module",
    "run": "upstream MLIR could not run the module",
}


def _stage(what: str, action):
    """Run ``action``; turn an MLIR error into a one-line ``_Failure``."""
    from mlir import ir

    try:
        return action()
    except ir.MLIRError as err:
        raise _Failure(f"{_STAGES[what]}: {_diagnostics(err)}") from None
    except (RuntimeError, ValueError) as err:
        raise _Failure(f"{_STAGES[what]}: {_one_line(str(err))}") from None


def _diagnostics(err) -> str:
    """MLIR's error diagnostics and their notes, less the dumps of whole ops."""
    parts = []
    for diag in err.error_diagnostics or ():
        parts.append(_located(diag.location, diag.message))
        parts.extend(
            _located(note.location, note.message)
            for note in diag.notes
            if not note.message.startswith("see current operation")
        )
    return _one_line("; ".join(parts) or str(err))


def _located(location, message: str) -> str:
    """``line L:C: message`` for a position in the module text."""
    message = message if len(message) <= _MAX_MESSAGE else message[:_MAX_MESSAGE] + "..."
    where = str(location)
    if match := re.fullmatch(r'loc\("-":(\d+):(\d+)\)', where):
        return f"line {match[1]}:{match[2]}: {message}"
    return message if where == "loc(unknown)" else f"{where}: {message}"


_MAX_MESSAGE = 400


def _one_line(text: str) -> str:
    return " ".join(text.split())


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
