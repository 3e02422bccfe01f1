"""cfmem's offline plans in TFLite Micro, against TFLM's own plan, model by model.

For every model: cfmem plans it as ``cfmem plan-tflite`` does (TFLM's lifetimes, the
scratch buffers TFLM's reference kernels ask for, strategy ``auto``), and the original and
the planned model are loaded in TFLM (the ``tflite-micro`` package's interpreter). The
table gives TFLM's own arena (its recording allocator's head and tail, and the smallest
``arena_size`` it allocates the model in), the same for cfmem's plan, their ratio, how many
RESHAPE outputs cfmem's plan puts on their inputs' bytes, the lower bound of the head, and whether both models give identical outputs (bit for bit) on
three random input sets (both branches for the IF model).

Models: the eight openwakeword 0.5.1 ``.tflite`` models (downloaded into the cache with
``pip download --no-deps``), TFLM's ``sine_float.tflite`` (in its wheel), TFLM's example
models under ``tests/data/tflite/``, and the IF and WHILE models of
``cfmem.testing.tflm_models``.

    .venv/bin/python bench/tflm.py [--out bench/results/tflm.md]
"""

from __future__ import annotations

import importlib.metadata
import sys
import time
from pathlib import Path

import numpy as np

from cfmem.testing.tflite_models import sine_float_model
from cfmem.testing.tflm_models import example_models, if_model, openwakeword_models, while_model
from cfmem.tflite.arena_plan import compare_in_tflm, plan_for_tflm
from cfmem.tflite.model_file import parse_tflite
from cfmem.tflite.tflm_runtime import TflmWorker

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine_section, md_table, report_main  # noqa: E402


def models() -> list[tuple[str, str, bytes, list | None]]:
    """(name, source, bytes, input sets or None for random ones)."""
    found = []
    try:
        for name, path in openwakeword_models().items():
            found.append((name, "openwakeword 0.5.1", path.read_bytes(), None))
    except RuntimeError as err:
        print(f"openwakeword models skipped: {err}", file=sys.stderr)
    found.append(("sine_float", "tflite-micro wheel", sine_float_model().read_bytes(), None))
    for name, path in example_models().items():
        found.append((name, "TFLM example", path.read_bytes(), None))
    x = np.linspace(-2, 2, 64).astype(np.float32)
    found.append(("if (both branches)", "built, IF", if_model(), [[np.array([taken]), x] for taken in (True, False)]))
    found.append(("while", "built, WHILE", while_model(), [[x]]))
    return found


def row(tflm: TflmWorker, name: str, source: str, data: bytes, inputs) -> tuple[list[str], dict]:
    began = time.perf_counter()
    model = parse_tflite(data)
    plan = plan_for_tflm(model, tflm)
    compared = compare_in_tflm(tflm, data, plan.planned, inputs)
    seconds = time.perf_counter() - began
    scratch = sum(b.bytes for b in plan.scratch.blocks)
    cells = [
        name, source, str(len(model.subgraphs)), str(sum(t.planned for t in plan.tensors)), str(scratch),
        str(len(plan.aliases)), str(compared.own.head), str(compared.planned.head), str(plan.solution.lower_bound),
        str(compared.own.tail),
        f"{compared.own.total}", f"{compared.own_arena}", f"{compared.planned_arena}",
        f"{compared.planned_arena / compared.own_arena:.4f}", "yes" if compared.identical else "**no**",
        f"{seconds:.1f}",
    ]  # fmt: skip
    facts = {"own": compared.own_arena, "mine": compared.planned_arena, "identical": compared.identical,
             "own_head": compared.own.head, "head": compared.planned.head}  # fmt: skip
    return cells, facts


def run() -> str:
    rows, facts = [], []
    with TflmWorker() as tflm:
        for k, (name, source, data, inputs) in enumerate(entries := models()):
            print(f"[{k + 1}/{len(entries)}] {name}", file=sys.stderr, flush=True)
            cells, fact = row(tflm, name, source, data, inputs)
            rows.append(cells)
            facts.append((name, fact))
    header = [
        "model", "source", "subgraphs", "tensors in the arena", "scratch (B)", "RESHAPEs in place",
        "TFLM head, own plan (B)",
        "TFLM head, cfmem's plan (B)", "head lower bound (B)", "tail (B)", "TFLM's own arena, report (B)",
        "TFLM's own arena, smallest (B)", "cfmem's arena in TFLM, smallest (B)", "ratio", "outputs identical", "seconds",
    ]  # fmt: skip
    smaller = [name for name, f in facts if f["mine"] < f["own"]]
    larger = [name for name, f in facts if f["mine"] > f["own"]]
    different = [name for name, f in facts if not f["identical"]]
    saved = {name: f["own_head"] - f["head"] for name, f in facts if f["head"] < f["own_head"]}
    lines = [
        "# cfmem's offline plans in TFLite Micro",
        "",
        "`bench/tflm.py`: each model planned as `cfmem plan-tflite` plans it (TFLM's lifetimes, the scratch"
        " buffers TFLM's reference kernels ask for, strategy `auto`) and loaded in TFLite Micro (the"
        f" `tflite-micro` {importlib.metadata.version('tflite-micro')} interpreter, reference kernels) with and"
        " without the plan. *Head*: the"
        " recording allocator's non-persistent part (tensors and scratch buffers); *tail*: its persistent part;"
        " *report*: head + tail, the arena TFLM's allocation report gives; *smallest*: the smallest `arena_size`"
        " TFLM allocates the model in (bisection; it also holds TFLM's temporary set-up allocations, which"
        " exceed the head on the smallest models). *Ratio*: cfmem's smallest arena over TFLM's own."
        " *RESHAPEs in place*: RESHAPE outputs the plan puts on their inputs' bytes (TFLM's RESHAPE kernel then"
        " copies nothing; cfmem takes them only where the arena gets smaller); the lower bound is that of the"
        " buffers with these aliases, at most the one without. Outputs: three random input sets (both branches"
        " for the IF model), compared bit for bit.",
        "",
        md_table(header, rows, "ll" + "r" * 12 + "lr"),
        "",
        f"cfmem's arena is larger than TFLM's own on {len(larger)} of {len(facts)} models"
        f"{': ' + ', '.join(larger) if larger else ''}, and smaller on {len(smaller)}"
        f"{': ' + ', '.join(smaller) if smaller else ''}"
        f" (head bytes saved: {', '.join(f'{n} {b}' for n, b in saved.items()) or 'none'}). Outputs differ on"
        f" {len(different)} models{': ' + ', '.join(different) if different else ''}.",
        "",
        "TFLM's greedy planner gives every tensor bytes of its own. On the wake-word heads the first operator"
        " is a RESHAPE of the input, so TFLM holds two copies of the largest tensor; cfmem's plan holds one."
        " On embedding_model and melspectrogram TFLM's order stays above the lower bound and cfmem reaches"
        " it. Elsewhere both reach it. On hey_jarvis the IF passes the branch weights as operands: TFLM"
        " copies them into the branch subgraph's input tensors in the arena, which the lower bound counts;"
        " an offline plan cannot take them out.",
        "",
        machine_section(),
    ]
    return "\n".join(lines)


def main() -> int:
    return report_main(__doc__, run, "tflm.md")

if __name__ == "__main__":
    sys.exit(main())
