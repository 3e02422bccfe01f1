"""One zoo model through the whole of cfmem, compared with onnxruntime.

:func:`run_zoo_model` imports the model, plans it under every control-flow mode with
ping-pong DMA, lowers each plan to the flat form, and runs every input set through the
reference interpreter and through each flat form with ownership checks, comparing each
output with onnxruntime's. A model cfmem refuses comes back with the refusal as its
status, so a table can show it; nothing is counted as checked that was not run.

A QDQ model is compared with onnxruntime running the QOperator graph cfmem computes
(:func:`cfmem.importers.onnx.qdq.fuse_qdq`), which fixes the integer arithmetic, with its
basic graph optimizations only (its extended fusions of float subgraphs, a Gelu say, round
differently, and a quantizer after them turns that into whole steps); its difference from
onnxruntime's own run of the QDQ file, which computes some of those groups in float
instead, is recorded apart (``qdq_error``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import onnx
from onnx import numpy_helper

from cfmem.dma.timing import Chip
from cfmem.importers.onnx import OnnxImportError, import_onnx
from cfmem.importers.onnx.qdq import fuse_qdq, has_qdq
from cfmem.importers.onnx.reference import cfmem_inputs, max_abs_error, onnxruntime_runs
from cfmem.interp.flat import run_flat
from cfmem.interp.golden import find_function, run_function
from cfmem.ir_io import CfmemError
from cfmem.passes.plan_memory import ARENA_ATTR, BOUND_ATTR, plan_function
from cfmem.pipeline import lower_model
from cfmem.planning.control_flow import MODES
from cfmem.reports.timing import VARIANTS, timing_report
from cfmem.testing.zoo import ZooModel

BLOB = "weights.bin"
FLOAT_TOLERANCE = 1e-4
"""Largest difference from onnxruntime accepted on a float output."""


def output_tolerance(model: onnx.ModelProto) -> float:
    """The difference from onnxruntime a model's outputs may show: ``FLOAT_TOLERANCE``, or for an
    output made by a DequantizeLinear of a known scale, one quantization step of it (the largest
    scale of a per-axis one): float ops between quantizers (LayerNorm, Erf) may round one value
    to the next step, and that is where the step shows."""
    known = {init.name: numpy_helper.to_array(init) for init in model.graph.initializer}
    producers = {out: node for node in model.graph.node for out in node.output}
    tolerance = FLOAT_TOLERANCE
    for output in model.graph.output:
        node = producers.get(output.name)
        if node is not None and node.op_type == "DequantizeLinear" and node.input[1] in known:
            tolerance = max(tolerance, float(np.max(known[node.input[1]])))
    return tolerance


@dataclass
class ModeResult:
    """The plans of one control-flow mode and the worst flat-form error under it.

    ``activation_peak``/``activation_bound``: activations alone, weights read in place;
    ``peak``/``lower_bound``: with ping-pong DMA buffers for the weights, as lowered.
    """

    activation_peak: int
    activation_bound: int
    peak: int
    lower_bound: int
    flat_error: float
    flat_equals_reference: bool
    """Every flat run took the reference's branches and computed bit-identical outputs."""


@dataclass
class ZooResult:
    """What running one zoo model showed; ``status`` is ``ok`` or why it stopped."""

    model: ZooModel
    status: str = "ok"
    tolerance: float = FLOAT_TOLERANCE
    """The largest difference from onnxruntime that counts as agreement (see ``output_tolerance``)."""
    ops: int = 0
    kept_ifs: int = 0
    folded_ifs: int = 0
    weight_bytes: int = 0
    paths: int = 0
    input_sets: int = 0
    reference_error: float = 0.0
    qdq_error: float | None = None
    """For a QDQ model: the reference's largest difference from onnxruntime's run of the QDQ file."""
    modes: dict[str, ModeResult] = field(default_factory=dict)
    sync_ms: float = 0.0
    pingpong_ms: float = 0.0
    import_s: float = 0.0
    plan_lower_s: float = 0.0

    @property
    def flat_error(self) -> float:
        return max((m.flat_error for m in self.modes.values()), default=0.0)


def _nn_ops(module) -> int:
    skip = ("nn.view", "nn.yield", "nn.get_global", "nn.global")
    return sum(1 for op in module.walk() if op.name.startswith("nn.") and op.name not in skip)


def run_zoo_model(model: ZooModel, work: Path, modes: tuple[str, ...] = MODES, chip: Chip | None = None) -> ZooResult:
    """Run ``model`` as the module docstring says, in directory ``work`` (it must exist)."""
    result = ZooResult(model)
    path = model.path()
    began = time.perf_counter()
    try:
        imported = import_onnx(path, blob_file=BLOB, input_shapes=model.shapes, input_values={})
    except (OnnxImportError, CfmemError) as err:
        result.status = f"import: {err}"
        return result
    result.import_s = time.perf_counter() - began
    (work / BLOB).write_bytes(imported.blob)
    result.ops, result.weight_bytes = _nn_ops(imported.module), len(imported.blob)
    result.kept_ifs, result.folded_ifs = imported.kept_ifs, imported.folded_ifs
    feeds = model.feeds()
    compared = path
    proto = onnx.load(str(path))
    result.tolerance = output_tolerance(proto)
    fused = fuse_qdq(proto) if has_qdq(proto) else proto
    if fused.graph.node != proto.graph.node:  # a QDQ group was fused
        compared = work / "qoperator.onnx"
        onnx.save(fused, str(compared))
        result.qdq_error = 0.0
    expected = onnxruntime_runs(compared, feeds, fusions=result.qdq_error is None)
    own_runs = onnxruntime_runs(path, feeds) if result.qdq_error is not None else []
    inputs, references, branches = [], [], []
    for k, feed in enumerate(feeds):
        inputs.append(cfmem_inputs(feed, {}))
        golden = run_function(imported.module, inputs[-1], base_dir=work)
        references.append(golden.outputs)
        branches.append(golden.branches)
        result.reference_error = max(result.reference_error, max_abs_error(expected[k], golden.outputs))
        if own_runs:
            result.qdq_error = max(result.qdq_error, max_abs_error(own_runs[k], golden.outputs))
    result.paths, result.input_sets = len({tuple(b) for b in branches}), len(feeds)
    for mode in modes:
        began = time.perf_counter()
        try:
            flat = lower_model(imported.module, f"nn-insert-dma,nn-plan-memory{{mode={mode}}}", work)
        except CfmemError as err:
            result.status = f"plan ({mode}): {err}"
            return result
        result.plan_lower_s += time.perf_counter() - began
        fn = find_function(flat)
        _, activations = plan_function(find_function(imported.module), mode)
        worst, same = 0.0, True
        for want, given, reference, taken in zip(expected, inputs, references, branches, strict=True):
            run = run_flat(flat, given, check=True)
            worst = max(worst, max_abs_error(want, run.outputs))
            same = same and run.branches == taken and all(np.array_equal(run.outputs[k], reference[k]) for k in reference)
        planned = (fn.attributes[ARENA_ATTR].value.data, fn.attributes[BOUND_ATTR].value.data)
        result.modes[mode] = ModeResult(activations.peak, activations.lower_bound, *planned, worst, same)
    timing = timing_report(find_function(imported.module), chip or Chip(), VARIANTS[:2])
    result.sync_ms, result.pingpong_ms = (row["ms"] for row in timing["variants"])
    return result
