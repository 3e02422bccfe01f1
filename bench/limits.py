"""A generated model of about 10,000 ops with nested ifs through the whole pipeline:
seconds and peak RSS of each stage.

Stages: generate, print, parse, DMA insertion, planning (each control-flow mode
that scales; ``exact`` plans every path), DMA hazard check, lowering to the
flat form, a reference run and a checking flat run on one input set.

    .venv/bin/python bench/limits.py [--ops 4000] [--ifs 200] [--out bench/results/limits.md]
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import time
from pathlib import Path

from xdsl.parser import Parser

from cfmem.interp.flat import run_flat
from cfmem.interp.golden import run_function
from cfmem.ir_io import make_context
from cfmem.passes.lower_to_memref import lower_module
from cfmem.pipeline import apply_pipeline
from cfmem.testing.random_graphs import GraphShape, covering_input_sets, random_graph
from cfmem.tools.files import atomic_write_text

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import environment, md_table  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ops", type=int, default=4000, help="top-level compute ops (4000; branches add more)")
    parser.add_argument("--ifs", type=int, default=200, help="nn.if ops, nested up to 4 deep (200)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=str(ROOT / "bench/results/limits.md"))
    args = parser.parse_args()
    rows: list[list[str]] = []

    def stage(name: str, action):
        start = time.perf_counter()
        result = action()
        seconds = time.perf_counter() - start
        rows.append([name, f"{seconds:.2f}", f"{peak_rss_mb():.0f}"])
        print(f"{name}: {seconds:.2f} s, peak RSS {peak_rss_mb():.0f} MB", file=sys.stderr)
        return result

    limits = GraphShape(ops=args.ops, ifs=args.ifs, depth=4, branch_ops=12)
    model = stage("generate", lambda: random_graph(random.Random(args.seed), limits))
    ops = sum(1 for _ in model.walk())
    ifs = sum(op.name == "nn.if" for op in model.walk())
    text = stage("print", lambda: str(model))
    stage("parse + verify", lambda: Parser(make_context(), text).parse_module().verify())
    with_dma = model.clone()
    stage("nn-insert-dma", lambda: apply_pipeline(with_dma, "nn-insert-dma"))
    peaks = {}
    for mode in ("conservative", "linearize", "hoist", "exact"):
        planned = with_dma.clone()
        stage(f"nn-plan-memory mode={mode}", lambda: apply_pipeline(planned, f"nn-plan-memory{{mode={mode}}}"))
        fn = next(op for op in planned.walk() if op.name == "func.func")
        peaks[mode] = (fn.attributes["cfmem.arena_size"].value.data, fn.attributes["cfmem.lower_bound"].value.data)
    stage("nn-check-dma", lambda: apply_pipeline(planned, "nn-check-dma"))
    stage("nn-lower-to-memref", lambda: lower_module(planned))
    inputs = covering_input_sets(model, args.seed, limit=1)[0]
    stage("reference run", lambda: run_function(model, inputs))
    stage("checking flat run", lambda: run_flat(planned, inputs, check=True))

    report = "\n\n".join(
        [
            "# Limits: one very large generated model",
            f"`bench/limits.py --ops {args.ops} --ifs {args.ifs} --seed {args.seed}`: {ops:,} ops in all"
            f" (weights views and constants included), {ifs} nn.if nested up to 4 deep.",
            md_table(["stage", "seconds", "peak RSS so far (MB)"], rows),
            "Peak on-chip bytes of each mode (with DMA buffers), its lower bound and the gap:",
            md_table(
                ["mode", "peak", "lower bound", "gap"],
                [[m, f"{p:,}", f"{b:,}", f"{(p - b) / b * 100:.2f} %"] for m, (p, b) in peaks.items()],
            ),
            "## Machine",
            "\n".join(f"- {k}: {v}" for k, v in environment().items()),
        ]
    )
    atomic_write_text(args.out, report + "\n")
    print(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
