"""Running cfmem pass pipelines on a module, with one-line errors.

``apply_pipeline`` takes the ``xdsl-opt`` pipeline syntax; ``lower_model``
plans a tensor-level model and lowers it to the flat form, the steps every
end-to-end check starts with.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import PassPipeline
from xdsl.utils.exceptions import DiagnosticException

from cfmem.ir_io import CfmemError, make_context, verify
from cfmem.passes import PASSES
from cfmem.passes.lower_to_memref import LowerToMemrefPass

DEFAULT_PLAN_PIPELINE = "nn-insert-dma,nn-plan-memory"


def apply_pipeline(module: ModuleOp, spec: str, where: str | None = None, base_dir: Path | None = None) -> None:
    """Run pipeline ``spec`` on ``module`` in place and verify the result.

    A bad spec or a failing pass raises ``CfmemError`` (located at ``where``).
    ``base_dir`` (the model file's directory) is where ``nn-lower-to-memref``
    reads ``file(...)`` blobs unless the spec gives ``weights-dir``.
    """
    try:
        pipeline = PassPipeline.parse_spec(PASSES, spec)
    except Exception as err:  # xDSL raises ValueError or its own parse errors for a bad spec
        message = str(err).strip().splitlines()[-1] if str(err).strip() else type(err).__name__
        raise CfmemError(f"bad pipeline '{spec}': {message}") from None
    if base_dir is not None:
        pipeline = PassPipeline(
            tuple(
                replace(p, weights_dir=str(base_dir)) if isinstance(p, LowerToMemrefPass) and not p.weights_dir else p
                for p in pipeline.passes
            )
        )
    try:
        pipeline.apply(make_context(), module)
    except DiagnosticException as err:
        raise CfmemError(str(err).strip().splitlines()[0], where) from None
    verify(module)


def lower_model(module: ModuleOp, plan_pipeline: str, base_dir: Path | None, where: str | None = None) -> ModuleOp:
    """A planned, lowered (flat) copy of tensor-level ``module``.

    ``plan_pipeline`` runs first (it must include ``nn-plan-memory``), then
    ``nn-lower-to-memref`` reading ``file(...)`` blobs from ``base_dir``.
    """
    flat = module.clone()
    lower = "nn-lower-to-memref"
    apply_pipeline(flat, f"{plan_pipeline},{lower}" if plan_pipeline else lower, where, base_dir)
    return flat
