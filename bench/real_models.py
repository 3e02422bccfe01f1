"""Real ONNX models through cfmem: memory (paper Tables 1-2 layout), DMA timing
(Table 3 layout), agreement with onnxruntime on every branch, and speed.

Models: silero-vad 6.2.3 (``silero_vad_op18_ifless.onnx`` and ``silero_vad.onnx``,
fetched into the cache by ``cfmem.testing.onnx_models``), with the sample rate
left as an input (one data-dependent If) and fixed (no If), and the exported
``torch.cond`` models of ``cfmem.testing.onnx_models`` (if torch is installed).

    .venv/bin/python bench/real_models.py [--repeat 20] [--out bench/results/real_models.md]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from cfmem.dma.timing import Chip
from cfmem.importers.onnx import import_onnx
from cfmem.importers.onnx.reference import cfmem_inputs, max_abs_error, onnxruntime_outputs, onnxruntime_session
from cfmem.interp.flat import FlatInterpreter, run_flat
from cfmem.interp.golden import GoldenInterpreter, find_function, run_function
from cfmem.pipeline import lower_model
from cfmem.testing import onnx_models
from cfmem.files import atomic_write_text

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine_section, md_table, median_seconds  # noqa: E402
from examples_report import memory_table, timing_table  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
Feeds = dict[str, np.ndarray]


@dataclass
class RealModel:
    label: str
    path: Callable[[], Path]
    shapes: dict[str, tuple[int, ...]]
    values: dict[str, float]
    feeds: list[Feeds]
    """Input sets (ONNX names) that between them take every branch."""


def silero_feeds(samples: int, rates: tuple[int, ...]) -> list[Feeds]:
    rng = np.random.default_rng(0)
    return [
        {
            "input": (rng.standard_normal((1, samples)) * 0.3).astype(np.float32),
            "state": (rng.standard_normal((2, 1, 128)) * 0.5).astype(np.float32),
            "sr": np.array(sr, np.int64),
        }
        for sr in rates
    ]


def models() -> list[RealModel]:
    silero = lambda name: lambda: onnx_models.silero_model(name)  # noqa: E731
    state = (2, 1, 128)
    found = [
        RealModel("silero ifless, sr input", silero("silero_vad_op18_ifless.onnx"),
                  {"input": (1, 256), "state": state}, {}, silero_feeds(256, (16000, 8000))),
        RealModel("silero, sr input", silero("silero_vad.onnx"),
                  {"input": (1, 256), "state": state}, {}, silero_feeds(256, (16000, 8000))),
        RealModel("silero, 16 kHz", silero("silero_vad.onnx"),
                  {"input": (1, 576), "state": state}, {"sr": 16000}, silero_feeds(576, (16000,))),
        RealModel("silero, 8 kHz", silero("silero_vad.onnx"),
                  {"input": (1, 288), "state": state}, {"sr": 8000}, silero_feeds(288, (8000,))),
    ]  # fmt: skip
    if onnx_models.torch_available():
        for name in ("cond_mlp", "cond_conv", "cond_chain"):
            feeds = list(onnx_models.cond_inputs(name).values())
            found.append(RealModel(f"torch.cond {name}", lambda n=name: onnx_models.cond_model(n), {}, {}, feeds))
    return found


def median_ms(fn, repeat: int) -> float:
    return median_seconds(fn, repeat) * 1e3


def best_cpu_ms(fn, repeat: int) -> float:
    """Smallest process CPU milliseconds of ``repeat`` calls of ``fn`` after one warm-up call."""
    fn()
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best * 1e3


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=20, help="timed runs per runtime (20)")
    parser.add_argument("--align", type=int, default=16)
    parser.add_argument("--depth", type=int, default=4, help="the deeper DMA rotation to show (4)")
    parser.add_argument("--out", default=str(ROOT / "bench/results/real_models.md"))
    args = parser.parse_args()
    began = time.perf_counter()
    functions, agreement, speed, failures = [], [], [], 0
    with tempfile.TemporaryDirectory(prefix="cfmem-real-") as tmp:
        for k, model in enumerate(models()):
            print(f"{model.label}", file=sys.stderr)
            work = Path(tmp) / f"m{k}"
            work.mkdir()
            path = model.path()
            start = time.perf_counter()
            imported = import_onnx(path, blob_file="w.bin", input_shapes=model.shapes, input_values=model.values)
            import_s = time.perf_counter() - start
            (work / "w.bin").write_bytes(imported.blob)
            start = time.perf_counter()
            flat = lower_model(imported.module, "nn-insert-dma,nn-plan-memory", work)
            lower_s = time.perf_counter() - start
            fn = find_function(imported.module)
            functions.append((model.label, fn))
            worst_golden = worst_flat = 0.0
            branches = set()
            for feeds in model.feeds:
                want = onnxruntime_outputs(path, feeds)
                inputs = cfmem_inputs(feeds, model.values)
                golden = run_function(imported.module, inputs, base_dir=work)
                got = run_flat(flat, inputs, check=True)
                worst_golden = max(worst_golden, max_abs_error(want, golden.outputs))
                worst_flat = max(worst_flat, max_abs_error(want, got.outputs))
                branches.add(tuple(golden.branches))
            failures += worst_golden > 1e-4 or worst_flat > 1e-4
            ops = sum(1 for op in imported.module.walk() if op.name.startswith("nn.") and op.name not in ("nn.view", "nn.yield", "nn.get_global", "nn.global"))
            agreement.append([
                model.label, str(ops), str(imported.kept_ifs), str(imported.folded_ifs), str(len(branches)),
                f"{worst_golden:.1e}", f"{worst_flat:.1e}", f"{len(imported.blob):,}", f"{import_s:.2f}", f"{lower_s:.2f}",
            ])  # fmt: skip
            feeds = model.feeds[0]
            inputs = cfmem_inputs(feeds, model.values)
            session = onnxruntime_session(path)
            reference = GoldenInterpreter(imported.module, work)
            flat_fn = find_function(flat)
            unchecked, checked = FlatInterpreter(flat, check=False), FlatInterpreter(flat, check=True)
            runs = {
                "ort": lambda: session.run(None, feeds),
                "reference": lambda: reference.run(fn, inputs),
                "flat": lambda: unchecked.run(flat_fn, inputs),
                "checked": lambda: checked.run(flat_fn, inputs),
            }
            ms = {name: median_ms(run, args.repeat) for name, run in runs.items()}
            cpu = {name: best_cpu_ms(run, args.repeat) for name, run in runs.items()}
            speed.append([
                model.label,
                *(f"{ms[k]:.2f}" for k in ("reference", "flat", "checked")),
                f"{ms['ort']:.3f}",
                *(f"{ms[k] / ms['ort']:.1f}" for k in ("reference", "flat", "checked")),
                *(f"{cpu[k] / cpu['ort']:.1f}" for k in ("reference", "flat", "checked")),
            ])  # fmt: skip
    chip = Chip()
    memory = memory_table(functions, args.align)
    timing, details = timing_table(functions, chip, args.depth)
    text = "\n\n".join(
        [
            "# Real models",
            f"Generated by `bench/real_models.py --repeat {args.repeat}` in {time.perf_counter() - began:.0f} s.",
            "## Import and agreement with onnxruntime",
            "`ops`: nn ops after import (weight views not counted); `ifs kept / folded`: data-dependent Ifs"
            " kept as nn.if / Ifs replaced by the branch their constant condition takes; `paths`: distinct"
            " branch paths the input sets took; errors are the largest absolute difference from"
            " onnxruntime over all outputs and input sets (target <= 1e-4) for the reference interpreter on the"
            " imported module and for the checking flat interpreter on the planned, lowered module.",
            md_table(["model", "ops", "ifs kept", "ifs folded", "paths", "reference err", "flat err",
                      "weight bytes", "import s", "plan+lower s"], agreement),  # fmt: skip
            f"## Peak on-chip bytes (paper Tables 1 and 2 layout), align {args.align}",
            f"```\n{memory}\n```",
            f"## Execution time, sync vs ping-pong DMA (paper Table 3 layout), chip `{chip.name}`",
            timing,
            "## Speed per inference (ms, median of the timed runs, first input set)",
            "Each interpreter is made once and run repeatedly (it compiles the function on its first run)."
            " Ratios to onnxruntime: `x ORT` from the median wall-clock times, `cpu x ORT` from the"
            " smallest process CPU times of the same number of runs (less disturbed by other load);"
            " targets: reference <= 5, flat <= 10, flat + checks <= 20.",
            md_table(["model", "reference", "flat", "flat + checks", "onnxruntime", "reference x ORT", "flat x ORT",
                      "checks x ORT", "reference cpu x ORT", "flat cpu x ORT", "checks cpu x ORT"], speed),
            *details,
            machine_section(),
        ]
    )
    atomic_write_text(args.out, text + "\n")
    print(text)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
