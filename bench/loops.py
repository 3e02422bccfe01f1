"""Loops: memory, DMA timing and correctness of the models with ``nn.loop``.

For each model, on input sets that make each of its loops run 0, 1, 2 and many (3 or more)
times (``cfmem.interp.coverage.loop_trip_cases`` over a grid of candidates):

- memory (paper Tables 1 and 2 layout): the on-chip peak under every control-flow mode
  (DMA inserted, loop weights loaded once before each loop), the loop-aware lower bound and
  the gap of ``exact``; the peak with the loop weights streamed every iteration beside it;
- timing (paper Table 3 layout): sync, ping-pong with the loops' weights loaded once before
  the loop (``nn-insert-dma``'s default, ``loop-weights=hoist``), ping-pong with them loaded
  in every iteration (``loop-weights=stream``), with and without the prefetch across the back
  edge (``loop-prefetch``), and the gain of loading them once, each on the path the input
  set takes with the iterations it ran;
- correctness: the checking flat run bit-identical to the reference (same outputs, same
  branches, same iterations) under both DMA settings, upstream MLIR within check-mlir's
  tolerance of the flat run, and for an imported model the reference within 1e-4 of
  onnxruntime.

    .venv/bin/python bench/loops.py [--out bench/results/loops.md] [--no-mlir]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from itertools import product
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import environment, md_table, write_atomic  # noqa: E402

from cfmem.differential import check, max_abs_diff  # noqa: E402
from cfmem.dma.timing import Chip, simulate  # noqa: E402
from cfmem.interp.coverage import loop_trip_cases  # noqa: E402
from cfmem.interp.flat import run_flat  # noqa: E402
from cfmem.interp.golden import find_function, run_function  # noqa: E402
from cfmem.ir_io import load_module  # noqa: E402
from cfmem.passes.dma_events import function_events  # noqa: E402
from cfmem.pipeline import apply_pipeline  # noqa: E402
from cfmem.planning.control_flow import MODES  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ORT_ATOL = 1e-4
PIPELINES = {
    "hoist": "nn-insert-dma,nn-plan-memory",
    "stream": "nn-insert-dma{loop-weights=stream},nn-plan-memory",
}


@dataclass
class Subject:
    name: str
    module: object
    candidates: Callable[[], Iterator[dict[str, np.ndarray]]]
    """Input sets to pick the trip-count cases from."""
    onnx: Callable[[dict[str, np.ndarray]], dict[str, np.ndarray]] | None = None
    """onnxruntime on the same inputs, for an imported model."""
    base_dir: Path | None = None
    """Where an imported model's weight file is."""


def seqkws() -> Subject:
    module = load_module(ROOT / "examples" / "seqkws.mlir")[0]

    def candidates() -> Iterator[dict[str, np.ndarray]]:
        for frames, scale, seed in product((0, 1, 2, 32, 5), (2.0, 1.0, 0.6, 0.3, 0.1), range(4)):
            rng = np.random.default_rng(seed)
            yield {"feats": (scale * rng.standard_normal((32, 1, 40))).astype(np.float32), "frames": np.array(frames)}

    return Subject("seqkws", module, candidates)


def lstm_kws(work: Path) -> Subject:
    """A keyword spotter: an ONNX LSTM (hidden 64) over 25 frames of 40 features, then a
    12-class dense layer and softmax, imported with ``recurrence="loop"``."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    from cfmem.importers.onnx import onnx_importer
    from cfmem.importers.onnx.reference import onnxruntime_outputs

    steps, features, hidden, classes = 25, 40, 64, 12
    rng = np.random.default_rng(7)

    def init(name: str, shape: tuple[int, ...]):
        return numpy_helper.from_array((0.2 * rng.standard_normal(shape)).astype(np.float32), name)

    nodes = [
        helper.make_node("LSTM", ["feats", "W", "R", "B"], ["", "h_last"], hidden_size=hidden),
        helper.make_node("Reshape", ["h_last", "flat_shape"], ["h"]),
        helper.make_node("Gemm", ["h", "fc_w", "fc_b"], ["logits"], transB=1),
        helper.make_node("Softmax", ["logits"], ["probs"], axis=-1),
    ]
    inits = [init("W", (1, 4 * hidden, features)), init("R", (1, 4 * hidden, hidden)), init("B", (1, 8 * hidden)),
             numpy_helper.from_array(np.array([1, hidden], np.int64), "flat_shape"),
             init("fc_w", (classes, hidden)), init("fc_b", (classes,))]
    graph = helper.make_graph(
        nodes, "lstm_kws", [helper.make_tensor_value_info("feats", TensorProto.FLOAT, [steps, 1, features])],
        [helper.make_tensor_value_info("probs", TensorProto.FLOAT, [1, classes])], inits)
    path = work / "lstm_kws.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8), str(path))
    imported = onnx_importer(onnx.load(str(path)), "lstm_kws.weights.bin", recurrence="loop").import_graph({}, {})
    (work / "lstm_kws.weights.bin").write_bytes(imported.blob)

    def candidates() -> Iterator[dict[str, np.ndarray]]:
        for seed in range(3):
            yield {"feats": np.random.default_rng(seed).standard_normal((steps, 1, features)).astype(np.float32)}

    return Subject(f"lstm_kws ({steps} steps, ONNX)", imported.module, candidates,
                   lambda inputs: onnxruntime_outputs(path, inputs), work)


def onnx_while(work: Path) -> Subject:
    """An ONNX ``Loop`` whose data decides when it stops: ``h <- relu(h W) + h / 2`` while
    ``sum(h) < 100`` (tested before the first iteration too), at most ``M`` times."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    from cfmem.importers.onnx import onnx_importer
    from cfmem.importers.onnx.reference import onnxruntime_outputs

    width = 64
    rng = np.random.default_rng(11)
    w = numpy_helper.from_array((0.3 * rng.standard_normal((width, width))).astype(np.float32), "W")
    limit = numpy_helper.from_array(np.array(100, np.float32), "limit")
    half = numpy_helper.from_array(np.array(0.5, np.float32), "half")
    state = helper.make_tensor_value_info
    body = helper.make_graph(
        [helper.make_node("MatMul", ["h_in", "W"], ["mm"]), helper.make_node("Relu", ["mm"], ["r"]),
         helper.make_node("Mul", ["h_in", "half"], ["hh"]), helper.make_node("Add", ["r", "hh"], ["h_out"]),
         helper.make_node("ReduceSum", ["h_out"], ["s"], keepdims=0), helper.make_node("Less", ["s", "limit"], ["c_out"])],
        "body", [state("i", TensorProto.INT64, []), state("c_in", TensorProto.BOOL, []),
                 state("h_in", TensorProto.FLOAT, [1, width])],
        [state("c_out", TensorProto.BOOL, []), state("h_out", TensorProto.FLOAT, [1, width])])
    nodes = [helper.make_node("ReduceSum", ["x"], ["s0"], keepdims=0), helper.make_node("Less", ["s0", "limit"], ["c0"]),
             helper.make_node("Loop", ["M", "c0", "x"], ["y"], body=body, name="while")]
    graph = helper.make_graph(nodes, "onnx_while", [state("x", TensorProto.FLOAT, [1, width]), state("M", TensorProto.INT64, [])],
                              [state("y", TensorProto.FLOAT, [1, width])], [w, limit, half])
    path = work / "onnx_while.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8), str(path))
    imported = onnx_importer(onnx.load(str(path)), "onnx_while.weights.bin").import_graph({}, {})
    (work / "onnx_while.weights.bin").write_bytes(imported.blob)

    def candidates() -> Iterator[dict[str, np.ndarray]]:
        for scale, seed in product((3.0, 2.0, 1.0, 0.5, 0.2, 0.05, 0.01), range(3)):
            x = scale * np.abs(np.random.default_rng(seed).standard_normal((1, width)))
            yield {"x": x.astype(np.float32), "M": np.array(50, np.int64)}

    return Subject("onnx_while (ONNX Loop, data-decided)", imported.module, candidates,
                   lambda inputs: onnxruntime_outputs(path, inputs), work)


def cases(s: Subject) -> list[tuple[str, dict[str, np.ndarray]]]:
    """``(case, inputs)`` for each loop and trip class reached, e.g. ``loop#1 0``."""
    found = loop_trip_cases(s.module, s.candidates(), base_dir=s.base_dir)
    return [(f"{label} {klass}", inputs) for (label, klass), inputs in sorted(found.items())]


def subjects(work: Path) -> list[Subject]:
    return [seqkws(), lstm_kws(work), onnx_while(work)]


def planned(s: Subject, pipeline: str):
    copy = s.module.clone()
    apply_pipeline(copy, pipeline, base_dir=s.base_dir)
    return copy


def arena(module) -> tuple[int, int]:
    fn = find_function(module)
    return fn.attributes["cfmem.arena_size"].value.data, fn.attributes["cfmem.lower_bound"].value.data


def memory_row(s: Subject) -> list[str]:
    cells = [s.name]
    exact = None
    for mode in MODES:
        peak, bound = arena(planned(s, f"nn-insert-dma,nn-plan-memory{{mode={mode}}}"))
        cells.append(f"{peak:,}")
        if mode == "exact":
            exact = (peak, bound)
    assert exact is not None
    stream_peak, stream_bound = arena(planned(s, PIPELINES["stream"]))
    gap = 100.0 * (exact[0] - exact[1]) / exact[1] if exact[1] else 0.0
    return [*cells, f"{exact[1]:,}", f"{gap:.2f} %", f"{stream_peak:,} (bound {stream_bound:,})"]


def timing_rows(s: Subject, chip: Chip, sets: list[tuple[str, dict]]) -> list[list[str]]:
    rows = []
    variants = {"sync": "nn-insert-dma{mode=sync}", **{k: v.split(",")[0] for k, v in PIPELINES.items()},
                "no-prefetch": "nn-insert-dma{loop-weights=stream loop-prefetch=false}"}
    programs = {k: function_events(find_function(planned(s, v))) for k, v in variants.items()}
    for _, inputs in sets:
        run = run_function(s.module, inputs, base_dir=s.base_dir)
        path = dict(run.branches) | dict(run.loops)
        cycles = {k: simulate(p, chip, path).cycles for k, p in programs.items()}
        ran = ", ".join(f"{label} {n}" for label, n in run.loops)
        rows.append([
            s.name, ran, f"{chip.milliseconds(cycles['sync']):.3f}", f"{chip.milliseconds(cycles['hoist']):.3f}",
            f"{chip.milliseconds(cycles['stream']):.3f}", f"{chip.milliseconds(cycles['no-prefetch']):.3f}",
            f"{cycles['stream'] / cycles['hoist']:.2f}x" if cycles["hoist"] else "-",
        ])
    return rows


def correctness_rows(s: Subject, with_mlir: bool, named: list[tuple[str, dict]]) -> tuple[list[list[str]], int]:
    rows, failures = [], 0
    sets = [inputs for _, inputs in named]
    references = [run_function(s.module, inputs, base_dir=s.base_dir) for inputs in sets]
    for name, pipeline in PIPELINES.items():
        flat = planned(s, pipeline + ",nn-lower-to-memref,nn-check-dma")
        mlir = check(s.module, flat, sets, with_mlir=with_mlir, base_dir=s.base_dir) if with_mlir else None
        for k, (inputs, reference) in enumerate(zip(sets, references)):
            got = run_flat(flat, inputs)
            same = (max_abs_diff(reference.outputs, got.outputs) == 0.0 and got.loops == reference.loops
                    and got.branches == reference.branches)
            agree = "not run" if mlir is None else f"{mlir[k].mlir_vs_flat:.3g} of bound"
            ort = "-"
            if s.onnx is not None:
                diff = max_abs_diff(s.onnx(inputs), reference.outputs)
                ort = f"{diff:.1e}"
                same = same and diff <= ORT_ATOL
            ok = same and (mlir is None or mlir[k].ok())
            failures += not ok
            ran = ", ".join(f"{label} {n}" for label, n in reference.loops)
            rows.append([s.name, name, named[k][0], ran, "bit-identical" if same else "DIFFERS", agree, ort, "ok" if ok else "FAIL"])
    return rows, failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "loops.md"))
    parser.add_argument("--no-mlir", action="store_true", help="skip the upstream MLIR runs")
    args = parser.parse_args()
    began = time.perf_counter()
    chip = Chip()
    memory, timing, correct, failures = [], [], [], 0
    work = Path(tempfile.mkdtemp(prefix="cfmem-loops-"))
    for s in subjects(work):
        print(f"{s.name} ...", file=sys.stderr)
        memory.append(memory_row(s))
        sets = cases(s)
        timing.extend(timing_rows(s, chip, sets))
        rows, failed = correctness_rows(s, not args.no_mlir, sets)
        correct.extend(rows)
        failures += failed
    seconds = time.perf_counter() - began
    text = "\n\n".join([
        "# Loops",
        f"Generated by `bench/loops.py` in {seconds:.0f} s; {failures} check(s) failed. Machine: "
        + "; ".join(f"{k} {v}" for k, v in environment().items()) + ".",
        "## Peak on-chip bytes under every control-flow mode (paper Tables 1 and 2 layout), align 16",
        "DMA inserted with each loop's weights loaded once before it; the last column streams them every"
        " iteration instead. The lower bound is loop-aware: one iteration's peak, with what crosses"
        " iterations (carried values, the condition, the iteration number) live through the loop.",
        md_table(["model", *MODES, "lower bound", "gap of exact", "exact, loop weights streamed"], memory),
        f"## Execution time with the iterations each input set ran (paper Table 3 layout), chip `{chip.name}`",
        "Ping-pong DMA; `once` loads each loop's weights before it (the default), `every iteration`"
        " reloads them in each iteration, prefetching the first op's weights for the next iteration during"
        " the last op where the body allows (`loop-prefetch`), or not; the gain is every-iteration over once.",
        md_table(["model", "iterations run", "sync ms", "ping-pong, loop weights once ms",
                  "ping-pong, every iteration ms", "same, no prefetch across iterations ms",
                  "gain of loading once"], timing),
        "## Correctness with every loop run 0, 1, 2 and many times",
        md_table(["model", "loop weights", "case", "iterations run", "flat vs reference", "MLIR vs flat",
                  "reference vs onnxruntime", "verdict"], correct),
    ])
    write_atomic(Path(args.out), text + "\n")
    print(text)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
