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
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException

from cfmem.gc_pause import cyclic_gc_paused
from cfmem.ir_io import CfmemError, SourceMap, check_dominance, make_context, verify
from cfmem.passes import DEFAULT_PLAN_PIPELINE, PASSES  # noqa: F401 (the default is re-exported)
from cfmem.passes.failures import OpFailure
from cfmem.passes.lower_to_memref import LowerToMemrefPass

GRAPH_REWRITES = ("nn-place", "nn-slice-weights")
"""Passes that change which ops compute a result (and so, in float, the rounding):
``nn-slice-weights``, and ``nn-place``, which decides what it slices."""


def apply_pipeline(
    module: ModuleOp, spec: str, where: str | None = None, base_dir: Path | None = None, source: SourceMap | None = None
) -> None:
    """Run pipeline ``spec`` on ``module`` in place and verify the result (dominance too).

    A bad spec or a failing pass raises ``CfmemError`` (located at ``where``, or at
    the op a pass refused when ``source`` is the map ``module`` was parsed with).
    ``base_dir`` (the model file's directory) is where ``nn-lower-to-memref``
    reads ``file(...)`` blobs unless the spec gives ``weights-dir``.
    """
    try:
        pipeline = PassPipeline.parse_spec(PASSES, spec)
    except (Exception, ArgSpecParseError) as err:  # ArgSpecParseError derives from BaseException
        raise CfmemError(f"bad pipeline '{spec}': {_spec_error_message(err)}", "-p") from None
    if base_dir is not None:
        pipeline = PassPipeline(
            tuple(
                replace(p, weights_dir=str(base_dir)) if isinstance(p, LowerToMemrefPass) and not p.weights_dir else p
                for p in pipeline.passes
            )
        )
    with cyclic_gc_paused():  # passes and the verifier build long-lived objects and free few
        try:
            pipeline.apply(make_context(), module)
        except DiagnosticException as err:
            raise pass_error(err, where, source) from None
        try:
            verify(module)
            check_dominance(module)  # xDSL's verifier does not check that a definition comes first
        except CfmemError as err:  # a pass produced IR that does not verify
            raise CfmemError(f"{err.message} (after '{spec}')", where) from None


def pass_error(err: DiagnosticException, where: str | None, source: SourceMap | None = None) -> CfmemError:
    """A pass's refusal as one line, at the op it names (an ``OpFailure``) when ``source``
    maps that op to its place in the file, else at ``where``."""
    if source is not None and isinstance(err, OpFailure):
        where = source.locate(err.op)
    return CfmemError(str(err).strip().splitlines()[0], where)


def _spec_error_message(err: BaseException) -> str:
    """One line from xDSL's error for a bad pipeline spec.

    ``ArgSpecParseError`` prints ``pass-pipeline:LINE:COL``, the spec, a caret
    and the message on separate lines; the column and the message are kept.
    """
    lines = [line.strip() for line in str(err).strip().splitlines() if line.strip()]
    if not lines:
        return type(err).__name__
    if isinstance(err, ArgSpecParseError):
        column = next((line.rsplit(":", 1)[-1] for line in lines if line.startswith("pass-pipeline:")), None)
        message = (lines[-1][0].lower() + lines[-1][1:]).removesuffix(" here")
        return f"{message} at column {column}" if column else message
    return lines[-1]


def rewritten_graph(module: ModuleOp, spec: str, where: str | None = None) -> ModuleOp:
    """A copy of ``module`` after the ``GRAPH_REWRITES`` passes of pipeline ``spec``, in
    order (``module`` itself when it has none): the graph a lowered module must compute
    bit for bit, since planning, DMA and lowering keep every op's numbers."""
    try:
        passes = PassPipeline.parse_spec(PASSES, spec).passes
    except (Exception, ArgSpecParseError) as err:
        raise CfmemError(f"bad pipeline '{spec}': {_spec_error_message(err)}", "-p") from None
    rewrites = PassPipeline(tuple(p for p in passes if p.name in GRAPH_REWRITES))
    if not rewrites.passes:
        return module
    graph = module.clone()
    try:
        rewrites.apply(make_context(), graph)
    except DiagnosticException as err:
        raise pass_error(err, where) from None
    return graph


def lower_model(module: ModuleOp, plan_pipeline: str, base_dir: Path | None, where: str | None = None) -> ModuleOp:
    """A planned, lowered (flat) copy of tensor-level ``module``.

    ``plan_pipeline`` runs first (it must include ``nn-plan-memory``), then
    ``nn-lower-to-memref`` reading ``file(...)`` blobs from ``base_dir``.
    """
    flat = module.clone()
    lower = "nn-lower-to-memref"
    apply_pipeline(flat, f"{plan_pipeline},{lower}" if plan_pipeline else lower, where, base_dir)
    return flat
