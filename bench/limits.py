"""A generated model of about 10,000 ops with nested ifs through the whole pipeline:
seconds and peak RSS of each stage, and how the pipeline's time grows with the model.

Stages: generate, print, parse, DMA insertion, planning (each control-flow mode
that scales; ``exact`` plans every path), DMA hazard check, lowering to the
flat form (each pass one ``apply_pipeline`` call, which verifies the module
after it), xDSL's verifier alone on the lowered module (what any pipeline
ending in the flat form pays), a reference run and a checking flat run on one input set; then the
pipeline nn-insert-dma, nn-plan-memory (exact), nn-check-dma,
nn-lower-to-memref in one ``apply_pipeline`` call (one verification at the end,
as ``cfmem opt -p`` runs it). The peer is printing and parsing the same module,
measured in the same run: times are CPU seconds of this process (wall seconds
beside them), compared as ratios.

``--scaling`` instead runs the pipeline and the peer on models of about 1k, 3k,
10k and 30k ops (best of ``--repeat`` runs below 20,000 ops) and fits the
exponent of the pipeline's time (least-squares slope of log t against log ops,
and per step).

    .venv/bin/python bench/limits.py [--ops 4000] [--ifs 200] [--out bench/results/limits.md]
    .venv/bin/python bench/limits.py --scaling [--out bench/results/pipeline_scaling.md]
"""

from __future__ import annotations

import argparse
import math
import random
import resource
import sys
import time
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from cfmem.interp.flat import run_flat
from cfmem.interp.golden import run_function
from cfmem.ir_io import make_context, verify
from cfmem.pipeline import apply_pipeline
from cfmem.testing.random_graphs import GraphShape, covering_input_sets, random_graph
from cfmem.files import atomic_write_text

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine_section, md_table  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PIPELINE = "nn-insert-dma,nn-plan-memory{mode=exact},nn-check-dma,nn-lower-to-memref"
PIPELINE_STAGES = ("nn-insert-dma", "nn-plan-memory mode=exact", "nn-check-dma", "nn-lower-to-memref")
SCALING_SIZES = ((340, 17), (1000, 50), (3400, 170), (10000, 500))
"""(top-level ops, ifs) giving about 1k, 3k, 10k and 30k ops in all."""


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def timed(action) -> tuple[object, float, float]:
    """``action()``'s result, CPU seconds and wall seconds."""
    cpu, wall = time.process_time(), time.perf_counter()
    result = action()
    return result, time.process_time() - cpu, time.perf_counter() - wall


def model_of(ops: int, ifs: int, seed: int) -> ModuleOp:
    return random_graph(random.Random(seed), GraphShape(ops=ops, ifs=ifs, depth=4, branch_ops=12))


def parse(text: str) -> ModuleOp:
    module = Parser(make_context(), text).parse_module()
    module.verify()
    return module


def count_ops(module: ModuleOp) -> int:
    return sum(1 for _ in module.walk())


def slope(xs: list[float], ys: list[float]) -> float:
    """Least-squares slope of log y against log x."""
    lx, ly = [math.log(x) for x in xs], [math.log(y) for y in ys]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly)) / sum((a - mx) ** 2 for a in lx)


def limits(args) -> str:
    rows: list[list[str]] = []
    cpu_of: dict[str, float] = {}

    def stage(name: str, action):
        result, cpu, wall = timed(action)
        cpu_of[name] = cpu
        rows.append([name, f"{cpu:.2f}", f"{wall:.2f}", f"{peak_rss_mb():.0f}"])
        print(f"{name}: {cpu:.2f} s CPU, {wall:.2f} s wall, peak RSS {peak_rss_mb():.0f} MB", file=sys.stderr)
        return result

    model = stage("generate", lambda: model_of(args.ops, args.ifs, args.seed))
    ops = count_ops(model)
    ifs = sum(op.name == "nn.if" for op in model.walk())
    text = stage("print", lambda: str(model))
    stage("parse + verify", lambda: parse(text))
    with_dma = model.clone()
    stage("nn-insert-dma", lambda: apply_pipeline(with_dma, "nn-insert-dma"))
    peaks = {}
    for mode in ("conservative", "linearize", "hoist", "exact"):
        planned = with_dma.clone()
        stage(f"nn-plan-memory mode={mode}", lambda: apply_pipeline(planned, f"nn-plan-memory{{mode={mode}}}"))
        fn = next(op for op in planned.walk() if op.name == "func.func")
        peaks[mode] = (fn.attributes["cfmem.arena_size"].value.data, fn.attributes["cfmem.lower_bound"].value.data)
    stage("nn-check-dma", lambda: apply_pipeline(planned, "nn-check-dma"))
    stage("nn-lower-to-memref", lambda: apply_pipeline(planned, "nn-lower-to-memref"))
    stage("verify the lowered module again (xDSL's verifier alone)", lambda: verify(planned))
    lowered_ops = count_ops(planned)
    inputs = covering_input_sets(model, args.seed, limit=1)[0]
    stage("reference run", lambda: run_function(model, inputs))
    stage("checking flat run", lambda: run_flat(planned, inputs, check=True))
    whole = model.clone()
    stage("the four passes in one pipeline", lambda: apply_pipeline(whole, PIPELINE))

    peer = cpu_of["print"] + cpu_of["parse + verify"]
    stages = sum(cpu_of[s] for s in PIPELINE_STAGES)
    ratios = [
        ["the four passes, one stage each (each verifies the module)", f"{stages:.2f}", f"{stages / peer:.2f}", "1.5"],
        ["the four passes in one pipeline", f"{cpu_of['the four passes in one pipeline']:.2f}",
         f"{cpu_of['the four passes in one pipeline'] / peer:.2f}", "1.5"],
    ]  # fmt: skip
    exact, hoist = cpu_of["nn-plan-memory mode=exact"], cpu_of["nn-plan-memory mode=hoist"]
    floor = cpu_of["verify the lowered module again (xDSL's verifier alone)"]
    return "\n\n".join(
        [
            "# Limits: one very large generated model",
            f"`bench/limits.py --ops {args.ops} --ifs {args.ifs} --seed {args.seed}`: {ops:,} ops in all"
            f" (weights views and constants included), {ifs} nn.if nested up to 4 deep.",
            md_table(["stage", "CPU seconds", "wall seconds", "peak RSS so far (MB)"], rows),
            f"Pipeline against the peer, print + parse + verify of the same module ({peer:.2f} CPU seconds, same run):",
            md_table(["pipeline", "CPU seconds", "x peer", "target"], ratios),
            f"nn-plan-memory mode=exact takes {exact / hoist:.2f} x mode=hoist's CPU time (target 2).",
            f"Verifying the lowered module ({lowered_ops:,} ops) alone takes {floor:.2f} CPU seconds,"
            f" {floor / peer:.2f} x the peer: part of every pipeline that ends in the flat form.",
            "Peak on-chip bytes of each mode (with DMA buffers), its lower bound and the gap:",
            md_table(
                ["mode", "peak", "lower bound", "gap"],
                [[m, f"{p:,}", f"{b:,}", f"{(p - b) / b * 100:.2f} %"] for m, (p, b) in peaks.items()],
            ),
            machine_section(),
        ]
    )


def scaling(args) -> str:
    rows: list[list[str]] = []
    sizes: list[int] = []
    times: list[float] = []
    for top, ifs in SCALING_SIZES:
        model = model_of(top, ifs, args.seed)
        ops = count_ops(model)
        repeat = args.repeat if ops < 20_000 else 1
        text, print_cpu, _ = min((timed(lambda: str(model)) for _ in range(repeat)), key=lambda r: r[1])
        parse_cpu = min(timed(lambda: parse(text))[1] for _ in range(repeat))
        runs = []
        for _ in range(repeat):
            module = model.clone()
            runs.append(timed(lambda: apply_pipeline(module, PIPELINE)))
        _, cpu, wall = min(runs, key=lambda r: r[1])
        peer = print_cpu + parse_cpu
        sizes.append(ops)
        times.append(cpu)
        step = f"{slope(sizes[-2:], times[-2:]):.2f}" if len(sizes) > 1 else "-"
        rows.append(
            [f"{ops:,}", str(ifs), f"{cpu:.2f}", f"{wall:.2f}", f"{peer:.2f}", f"{cpu / peer:.2f}", step, f"{peak_rss_mb():.0f}"]
        )
        print(f"{ops} ops: pipeline {cpu:.2f} s CPU, peer {peer:.2f} s, step exponent {step}", file=sys.stderr)
    fitted = slope(sizes, times)
    return "\n\n".join(
        [
            "# Pipeline scaling",
            f"`bench/limits.py --scaling --seed {args.seed} --repeat {args.repeat}`: generated models with ifs nested"
            f" up to 4 deep, through `{PIPELINE}` in one `apply_pipeline` call (verified once, at the end).",
            "The peer, printing the module and parsing and verifying it again, is measured in the same run."
            f" CPU seconds of this process, best of {args.repeat} below 20,000 ops.",
            md_table(
                ["ops", "nn.if", "pipeline CPU s", "pipeline wall s", "peer CPU s", "x peer",
                 "exponent from the previous size", "peak RSS so far (MB)"],
                rows,
            ),  # fmt: skip
            f"Fitted exponent of the pipeline's time (least-squares slope of log t against log ops): **{fitted:.2f}**"
            " (target 1.2).",
            machine_section(),
        ]
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ops", type=int, default=4000, help="top-level compute ops (4000; branches add more)")
    parser.add_argument("--ifs", type=int, default=200, help="nn.if ops, nested up to 4 deep (200)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--scaling", action="store_true", help="time the pipeline on 1k .. 30k ops instead")
    parser.add_argument("--repeat", type=int, default=3, help="runs per size below 20,000 ops, best kept (3)")
    parser.add_argument("--out", default=None, help="limits.md, or pipeline_scaling.md with --scaling")
    args = parser.parse_args()
    report = scaling(args) if args.scaling else limits(args)
    default = "pipeline_scaling.md" if args.scaling else "limits.md"
    atomic_write_text(args.out or str(ROOT / "bench/results" / default), report + "\n")
    print(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
