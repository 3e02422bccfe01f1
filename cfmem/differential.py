"""Differential check of a plan: three independent runs must agree.

1. the tensor-level reference interpreter on the unplanned model (what the
   graph means);
2. the flat interpreter on the planned, lowered module (one real byte arena,
   with ownership checks): bit-identical to 1, since both use the same kernels
   in the same order;
3. real upstream MLIR, JIT-compiled from the ``nn-lower-to-linalg`` form: within
   each output element's error bound of 2, derived from the computation by
   :mod:`cfmem.interp.flat_bounds` (its kernels are loops, so sums round
   differently), or within a fixed ``atol + rtol |flat|`` when one is given.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.dialects.builtin import MemRefType, ModuleOp

from cfmem.interp.flat import FlatInterpreter
from cfmem.interp.flat_bounds import BoundedFlatInterpreter
from cfmem.interp.golden import find_function, run_function
from cfmem.interp.weights import numpy_dtype
from cfmem.ir_io import make_context
from cfmem.mlir_check.jit import ATOL, MLIR_TIMEOUT, RTOL
from cfmem.signature import input_args

Inputs = dict[str, np.ndarray]


@dataclass
class Agreement:
    """How the runs on one input set compare."""

    trace: tuple[tuple[str, bool], ...]
    golden_vs_flat: float | None
    """Largest absolute difference (0.0: bit-identical); None without a golden run."""
    mlir_vs_flat: float | None
    """Largest difference relative to its tolerance (the element's bound, or ``atol + rtol *
    |flat|``; <= 1 passes); None if not run."""

    loops: tuple[tuple[str, int], ...] = ()
    """Each finished loop of the flat run and its iterations."""
    same_iterations: bool = True
    """The reference run finished the same loops after the same iterations (True without one)."""

    def ok(self) -> bool:
        return (self.golden_vs_flat in (None, 0.0) and self.same_iterations
                and (self.mlir_vs_flat is None or self.mlir_vs_flat <= 1.0))


def _differences(reference: np.ndarray, other: np.ndarray) -> np.ndarray:
    """|other - reference| per element in float64: 0 where they are equal (NaN
    matches NaN, an infinity the same infinity), inf where only one is NaN."""
    ref, got = np.asarray(reference, np.float64), np.asarray(other, np.float64)
    differs = ~((ref == got) | (np.isnan(ref) & np.isnan(got)))
    diff = np.subtract(got, ref, out=np.zeros_like(ref), where=differs)
    np.abs(diff, out=diff)
    diff[np.isnan(diff)] = np.inf
    return diff


def max_abs_diff(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> float:
    """Largest |a - b| over all outputs (0.0: bit-identical up to NaN payloads)."""
    worst = 0.0
    for key in a:
        x, y = np.asarray(a[key]), np.asarray(b[key])
        if x.shape != y.shape:
            return float("inf")
        if x.size:
            worst = max(worst, float(_differences(x, y).max()))
    return worst


def scaled_error(reference: dict[str, np.ndarray], other: dict[str, np.ndarray], rtol: float, atol: float) -> float:
    """max |other - reference| / (atol + rtol |reference|) over all outputs; a
    difference where the allowance is 0 (or a NaN in one run only) is inf. A float16 output
    is allowed one float16 spacing more: its two float32 computations, within the tolerance
    of each other, may round one float16 ulp apart."""
    worst = 0.0
    for key, ref in reference.items():
        ref64 = np.asarray(ref, np.float64)
        diff = _differences(ref64, other[key]) if ref64.shape == np.shape(other[key]) else None
        if diff is None:
            return float("inf")
        if not diff.size:
            continue
        allowed = atol + rtol * np.abs(np.where(np.isfinite(ref64), ref64, 0.0))  # an infinity must match exactly
        if np.asarray(ref).dtype == np.float16:
            finite = np.where(np.isfinite(ref64), np.abs(ref64), 0.0)
            allowed = allowed + np.spacing(finite.astype(np.float16)).astype(np.float64)
        ratio = np.divide(diff, allowed, out=np.where(diff > 0, np.inf, 0.0), where=allowed > 0)
        worst = max(worst, float(ratio.max()))
    return worst


def fixed_tolerance(rtol: float | None, atol: float | None) -> tuple[float, float] | None:
    """``(rtol, atol)`` of a fixed tolerance if either is given (the other at its default,
    ``RTOL`` or ``ATOL``), or None: compare within each element's computed bound."""
    if rtol is None and atol is None:
        return None
    return (RTOL if rtol is None else rtol), (ATOL if atol is None else atol)


def bounded_error(reference: dict[str, np.ndarray], other: dict[str, np.ndarray], bounds: dict[str, np.ndarray]) -> float:
    """max |other - reference| / bound over all outputs: 0 where the bound is 0 and they are
    equal or where the bound is inf, inf where a difference exceeds its bound (or one is NaN)."""
    worst = 0.0
    for key, ref in reference.items():
        if np.shape(ref) != np.shape(other[key]):
            return float("inf")
        diff = _differences(ref, other[key])
        if not diff.size:
            continue
        bound = np.broadcast_to(bounds[key], diff.shape)
        within = diff <= bound
        if not within.all():
            return float("inf")
        ratio = np.divide(diff, bound, out=np.zeros_like(diff), where=(bound > 0) & np.isfinite(bound))
        worst = max(worst, float(ratio.max()))
    return worst


def linalg_text(flat: ModuleOp) -> str:
    """The module upstream MLIR runs: ``flat`` lowered to linalg and prepared for the JIT
    (``CfmemError``, one line, for an op the lowering refuses)."""
    from xdsl.utils.exceptions import DiagnosticException

    from cfmem.mlir_check.prepare import prepare_for_jit
    from cfmem.passes.linalg import LowerToLinalgPass
    from cfmem.pipeline import pass_error

    module = flat.clone()
    try:
        LowerToLinalgPass().apply(make_context(), module)
    except DiagnosticException as err:
        raise pass_error(err, None) from None
    module.verify()
    return str(prepare_for_jit(module))


def run_mlir(
    text: str,
    flat: ModuleOp,
    input_sets: list[Inputs],
    func_name: str | None = None,
    run_seconds: list[float] | None = None,
    timeout: float = MLIR_TIMEOUT,
) -> list[dict[str, np.ndarray]]:
    """Outputs of the JIT-compiled module ``text`` (lowered from ``flat``) on each input set;
    ``run_seconds`` (if given) receives the seconds of each compiled call; ``timeout`` bounds
    the compile and the runs together."""
    from cfmem.mlir_check.jit import run_many_with_mlir
    from cfmem.signature import argument_names, result_names

    fn = find_function(flat, func_name)
    args = list(fn.body.block.args)
    specs = []
    for arg in args[len(input_args(fn)) :]:
        assert isinstance(arg.type, MemRefType)
        specs.append((tuple(arg.type.get_shape()), numpy_dtype(arg.type.get_element_type())))
    arrays = [[np.require(inputs[name], requirements="C") for name in argument_names(fn)] for inputs in input_sets]
    outputs = run_many_with_mlir(text, arrays, specs, func_name=fn.sym_name.data, timeout=timeout, run_seconds=run_seconds)
    return [dict(zip(result_names(fn), out)) for out in outputs]


def check(
    model: ModuleOp | None,
    flat: ModuleOp,
    input_sets: list[Inputs],
    *,
    with_mlir: bool = True,
    rtol: float | None = None,
    atol: float | None = None,
    base_dir=None,
    func_name: str | None = None,
    timeout: float = MLIR_TIMEOUT,
) -> list[Agreement]:
    """Compare the runs on every input set; ``model`` None skips the golden run; ``timeout``:
    seconds for the MLIR compile and runs. MLIR must agree with the flat run within each
    element's computed bound, or, if ``rtol`` or ``atol`` is given, within ``atol + rtol
    |flat|`` (the other at its default, ``RTOL`` or ``ATOL``)."""
    fixed = fixed_tolerance(rtol, atol)
    mlir_runs = run_mlir(linalg_text(flat), flat, input_sets, func_name, timeout=timeout) if with_mlir else [None] * len(input_sets)
    fn = find_function(flat, func_name)
    interp = FlatInterpreter(flat) if fixed is not None or not with_mlir else BoundedFlatInterpreter(flat)
    rows = []
    for inputs, mlir in zip(input_sets, mlir_runs):
        flat_run = interp.run(fn, inputs)
        golden = None
        if model is not None:
            golden = run_function(model, inputs, base_dir=base_dir, func_name=func_name)
        if mlir is None:
            error = None
        elif fixed is not None:
            error = scaled_error(flat_run.outputs, mlir, *fixed)
        else:
            error = bounded_error(flat_run.outputs, mlir, interp.output_bounds)
        rows.append(
            Agreement(
                tuple(flat_run.branches),
                max_abs_diff(golden.outputs, flat_run.outputs) if golden else None,
                error,
                tuple(flat_run.loops),
                golden is None or golden.loops == flat_run.loops,
            )
        )
    return rows
