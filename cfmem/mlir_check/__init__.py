"""Upstream MLIR as an independent checker of cfmem's lowered modules.

``prepare`` (xDSL, in process) turns a lowered module into one upstream can
JIT; ``jit`` runs it in a subprocess (``worker``), so the MLIR bindings are
never imported into the calling process.
"""

from cfmem.mlir_check.errors import MlirCheckError
from cfmem.mlir_check.jit import mlir_available, run_many_with_mlir, run_with_mlir, verify_with_mlir

__all__ = ["MlirCheckError", "mlir_available", "run_many_with_mlir", "run_with_mlir", "verify_with_mlir"]
