"""Differential check of whole pipelines, and interpreter speed, in one run.

Part 1, examples: every bundled example under every control-flow mode and DMA
setting, on inputs that take every branch: the tensor-level reference run on the
unplanned model and the checking flat interpreter on the planned, lowered module
must be bit-identical; for one configuration per model, upstream MLIR's JIT
(from ``nn-lower-to-linalg``) must agree with the flat run within rtol 1e-5.

Part 2, random graphs (``cfmem.testing.random_graphs``): the same for ``--graphs``
generated programs with nested ifs, each under several strategy / mode / DMA
configurations, and one JIT run per graph.

Part 3, speed: seconds per inference of the reference interpreter, the flat
interpreter without and with its ownership checks, and the JIT-compiled module
(compile time apart), median of ``--repeat`` runs.

    .venv/bin/python bench/differential.py [--graphs 60] [--no-mlir] [--out bench/results/differential.md]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from cfmem.differential import linalg_text, max_abs_diff, run_mlir, scaled_error
from cfmem.interp.coverage import branch_covering_inputs
from cfmem.interp.flat import run_flat
from cfmem.interp.golden import run_function
from cfmem.ir_io import load_module
from cfmem.passes.lower_to_memref import lower_module
from cfmem.pipeline import apply_pipeline
from cfmem.planning.control_flow import MODES
from cfmem.testing.random_graphs import GraphShape, covering_input_sets, random_graph
from cfmem.files import atomic_write_text

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine_section, md_table, median_seconds  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
MODELS = ("facedetect", "fusiondetect", "denoise", "wakeword")
DMA = {"none": "", "pingpong": "nn-insert-dma,", "sync": "nn-insert-dma{mode=sync},"}
RANDOM_CONFIGS = (
    "nn-plan-memory{mode=exact}",
    "nn-insert-dma,nn-plan-memory{mode=hoist strategy=best-fit}",
    "nn-insert-dma{mode=sync},nn-plan-memory{mode=linearize strategy=large-first}",
    "nn-plan-memory{mode=conservative strategy=sequential}",
    "nn-insert-dma{depth=3},nn-plan-memory{mode=naive strategy=short-first}",
)
JIT_CONFIG = "nn-insert-dma,nn-plan-memory{mode=exact}"
RTOL, ATOL = 1e-5, 1e-6


def lowered(model: ModuleOp, spec: str, base_dir: Path | None) -> ModuleOp:
    module = model.clone()
    apply_pipeline(module, spec)
    lower_module(module, base_dir)
    return module


@dataclass
class Tally:
    """Agreement over many (model, configuration, input set) runs."""

    runs: int = 0
    identical: int = 0
    jit_runs: int = 0
    worst_jit: float = 0.0
    failures: list[str] = field(default_factory=list)

    def compare(self, what: str, golden: dict, flat: dict) -> None:
        self.runs += 1
        diff = max_abs_diff(golden, flat)
        if diff == 0.0:
            self.identical += 1
        else:
            self.failures.append(f"{what}: reference vs flat differ by {diff:g}")

    def compare_jit(self, what: str, flat: dict, jit: dict) -> None:
        self.jit_runs += 1
        err = scaled_error(flat, jit, RTOL, ATOL)
        self.worst_jit = max(self.worst_jit, err)
        if err > 1.0:
            self.failures.append(f"{what}: JIT vs flat at {err:.2f} x tolerance")


def check_model(tally: Tally, name: str, model: ModuleOp, specs, input_sets, base_dir, with_mlir: bool) -> None:
    golden = [run_function(model, inputs, base_dir=base_dir).outputs for inputs in input_sets]
    for spec in specs:
        try:
            flat = lowered(model, spec, base_dir)
            for k, inputs in enumerate(input_sets):
                tally.compare(f"{name} {spec} set {k}", golden[k], run_flat(flat, inputs, check=True).outputs)
        except Exception as err:  # a checker firing is a finding, not a crash of the benchmark
            tally.failures.append(f"{name} {spec}: {type(err).__name__}: {err}")
    if with_mlir:
        flat = lowered(model, JIT_CONFIG, base_dir)
        for k, jit in enumerate(run_mlir(linalg_text(flat), flat, input_sets)):
            tally.compare_jit(f"{name} set {k}", run_flat(flat, input_sets[k]).outputs, jit)


def example_specs() -> list[str]:
    return [f"{dma}nn-plan-memory{{mode={mode}}}" for dma in DMA.values() for mode in MODES]


def speed_row(name: str, repeat: int, with_mlir: bool) -> list[str]:
    path = ROOT / "examples" / f"{name}.mlir"
    model, _ = load_module(path)
    inputs = branch_covering_inputs(model, base_dir=path.parent)[0][0]
    flat = lowered(model, JIT_CONFIG, path.parent)
    ops = sum(1 for op in flat.walk() if op.name == "nn.apply")
    ref = median_seconds(lambda: run_function(model, inputs, base_dir=path.parent), repeat)
    fast = median_seconds(lambda: run_flat(flat, inputs, check=False), repeat)
    checked = median_seconds(lambda: run_flat(flat, inputs, check=True), repeat)
    row = [name, str(ops), f"{ref * 1e3:.1f}", f"{fast * 1e3:.1f}", f"{checked * 1e3:.1f}"]
    if with_mlir:
        seconds: list[float] = []
        start = time.perf_counter()
        run_mlir(linalg_text(flat), flat, [inputs] * (repeat + 1), run_seconds=seconds)
        total = time.perf_counter() - start
        jit = statistics.median(seconds[1:])
        row += [f"{jit * 1e3:.2f}", f"{total - sum(seconds):.1f}", f"{fast / jit:.0f}"]
    else:
        row += ["-", "-", "-"]
    return row + [f"{fast / ops * 1e6:.0f}"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--graphs", type=int, default=60, help="random graphs to check (60)")
    parser.add_argument("--seed", type=int, default=0, help="first random graph seed (0)")
    parser.add_argument("--repeat", type=int, default=7, help="timed runs per interpreter (7)")
    parser.add_argument("--no-mlir", action="store_true", help="skip the upstream MLIR JIT")
    parser.add_argument("--out", default=str(ROOT / "bench/results/differential.md"))
    args = parser.parse_args()
    with_mlir = not args.no_mlir
    started = time.perf_counter()

    examples = Tally()
    for name in MODELS:
        path = ROOT / "examples" / f"{name}.mlir"
        model, _ = load_module(path)
        sets = [inputs for inputs, _ in branch_covering_inputs(model, base_dir=path.parent)]
        print(f"examples: {name} ({len(sets)} input sets)", file=sys.stderr)
        check_model(examples, name, model, example_specs(), sets, path.parent, with_mlir)

    graphs = Tally()
    op_counts, if_counts = [], []
    for seed in range(args.seed, args.seed + args.graphs):
        model = random_graph(seed)
        op_counts.append(sum(1 for _ in model.walk()))
        if_counts.append(sum(op.name == "nn.if" for op in model.walk()))
        sets = covering_input_sets(model, seed)
        print(f"random graph {seed}: {op_counts[-1]} ops, {if_counts[-1]} ifs, {len(sets)} input sets", file=sys.stderr)
        check_model(graphs, f"graph {seed}", model, RANDOM_CONFIGS, sets, None, with_mlir)

    print("speed", file=sys.stderr)
    speed = [speed_row(name, args.repeat, with_mlir) for name in MODELS]
    elapsed = time.perf_counter() - started

    def agreement_row(what: str, t: Tally) -> list[str]:
        jit = f"{t.jit_runs} ({t.worst_jit:.3f})" if with_mlir else "not run"
        return [what, str(t.runs), str(t.identical), jit, str(len(t.failures))]

    report = "\n".join(
        [
            "# Differential check and interpreter speed",
            "",
            f"`bench/differential.py --graphs {args.graphs} --seed {args.seed} --repeat {args.repeat}"
            f"{' --no-mlir' if not with_mlir else ''}`, {elapsed:.0f} s in all.",
            "",
            "## Agreement",
            "",
            f"Examples: {len(MODELS)} models x {len(example_specs())} configurations (DMA none / pingpong / sync"
            f" x modes {', '.join(MODES)}) x the input sets that take every branch. Random graphs: {args.graphs}"
            f" programs of {min(op_counts)}-{max(op_counts)} ops (mean {np.mean(op_counts):.0f}) with"
            f" {min(if_counts)}-{max(if_counts)} ifs nested up to {GraphShape().depth} deep, x {len(RANDOM_CONFIGS)} configurations"
            " x every pattern of branch conditions. `identical`: the reference run on the unplanned model and"
            " the checking flat interpreter on the planned, lowered module give bit-identical outputs. `JIT`:"
            f" runs of the upstream-MLIR-compiled module ({JIT_CONFIG}), with the worst error as a fraction of"
            f" the tolerance (rtol {RTOL:g}, atol {ATOL:g}; <= 1 passes).",
            "",
            md_table(["set", "flat runs", "identical", "JIT runs (worst)", "failures"],
                     [agreement_row("examples", examples), agreement_row("random graphs", graphs)]),
            "",
            *(f"- {line}" for line in (examples.failures + graphs.failures)[:40]),
            "",
            "## Interpreter speed",
            "",
            "Milliseconds per inference on the first branch-covering input set, median of"
            f" {args.repeat} runs after a warm-up, all in this run: the tensor-level reference interpreter, the"
            " flat interpreter without and with byte-ownership checks, the JIT-compiled module (one call;"
            " compile seconds apart, including parse, lowering and process start), the flat/JIT ratio, and"
            " the flat interpreter's microseconds per op.",
            "",
            md_table(["model", "ops", "reference ms", "flat ms", "flat+check ms", "JIT ms", "JIT compile s",
                      "flat / JIT", "flat us/op"], speed),
            "",
            machine_section(),
            "",
        ]
    )
    atomic_write_text(Path(args.out), report)
    print(report)
    return 1 if examples.failures or graphs.failures else 0


if __name__ == "__main__":
    sys.exit(main())
