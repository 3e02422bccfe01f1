"""The timing side of a report: sync vs ping-pong DMA on a chip model.

For one function of a model (without DMA yet), each variant inserts DMA on a
copy (a model with loops adds ping-pong with the loops' weights loaded in every
iteration, so the gain of loading them once before the loop shows), plans memory with the DMA buffers as tensors, and simulates one path:
cycles, milliseconds, gain over sync, the overlap lower bound and the gap to
it, and the on-chip peak (with the DMA buffers) against its lower bound. A
region run by the steady-state iterations of a loop is listed once with its
``repeats`` (each run's cycles, compute and transfer).
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from xdsl.dialects import func

from cfmem.dma.timing import ASSUMED_TRIPS, Chip, Timeline, simulate
from cfmem.ir_io import make_context
from cfmem.passes.dma_events import function_events
from cfmem.passes.insert_dma import InsertDmaPass
from cfmem.passes.plan_memory import plan_function
from cfmem.files import atomic_write_bytes


@dataclass(frozen=True)
class Variant:
    name: str
    mode: str
    depth: int = 2
    buffers: str = "region"
    loop_weights: str = "hoist"


VARIANTS = (
    Variant("sync", "sync"),
    Variant("pingpong", "pingpong"),
    Variant("pingpong-fixed", "pingpong", buffers="fixed"),
)
LOOP_VARIANT = Variant("loops-streamed", "pingpong", loop_weights="stream")
"""Ping-pong with each loop's weights loaded in every iteration instead of once before it."""


def _variant_function(fn: func.FuncOp, variant: Variant) -> func.FuncOp:
    """A copy of ``fn``'s module with DMA inserted; returns the copied function."""
    module = fn.parent_op()
    assert module is not None
    copy = module.clone()
    InsertDmaPass(
        mode=variant.mode, depth=variant.depth, buffers=variant.buffers, loop_weights=variant.loop_weights
    ).apply(make_context(), copy)
    return next(op for op in copy.walk() if isinstance(op, func.FuncOp) and op.sym_name == fn.sym_name)


def timing_report(
    fn: func.FuncOp,
    chip: Chip,
    variants: tuple[Variant, ...] = VARIANTS,
    branches: dict[str, bool] | None = None,
    mode: str = "exact",
    strategy: str = "auto",
    align: int = 16,
    assumed_trips: int = ASSUMED_TRIPS,
) -> dict:
    """Numbers for every variant; the first one is the baseline for gains. Loops
    ``branches`` does not name run ``assumed_trips`` times unless the IR fixes their count."""
    rows: list[dict] = []
    timelines: dict[str, Timeline] = {}
    for variant in variants:
        copy = _variant_function(fn, variant)
        timeline = simulate(function_events(copy), chip, branches, assumed_trips)
        _, plan = plan_function(copy, mode, strategy, align)
        timelines[variant.name] = timeline
        rows.append(
            {
                "variant": variant.name,
                "cycles": round(timeline.cycles),
                "ms": timeline.milliseconds(chip),
                "bound_cycles": round(timeline.bound),
                "gap_to_bound_pct": 100.0 * (timeline.cycles / timeline.bound - 1) if timeline.bound else 0.0,
                "peak": plan.peak,
                "lower_bound": plan.lower_bound,
                "peak_gap_pct": plan.gap_pct,
                "regions": [
                    {
                        "region": r.label,
                        "cycles": round(r.end - r.start),
                        "compute": round(r.compute),
                        "transfer": round(r.transfer),
                        "bound": round(r.bound),
                        "repeats": r.repeats,
                    }
                    for r in timeline.regions
                ],
            }
        )
    base = rows[0]["cycles"]
    for row in rows:
        row["gain_pct"] = 100.0 * (1 - row["cycles"] / base) if base else 0.0
    return {"function": fn.sym_name.data, "chip": chip.name, "variants": rows, "_timelines": timelines}


def render_timing(report: dict) -> str:
    head = f"timing of @{report['function']} on {report['chip']} (slowest path unless chosen)"
    cols = ("variant", "ms", "cycles", "gain %", "bound", "gap %", "peak", "lower bound", "peak gap %")
    lines = [head, "  ".join(f"{c:>14}" for c in cols)]
    for r in report["variants"]:
        cells = (
            r["variant"],
            f"{r['ms']:.3f}",
            r["cycles"],
            f"{r['gain_pct']:.1f}",
            r["bound_cycles"],
            f"{r['gap_to_bound_pct']:.1f}",
            r["peak"],
            r["lower_bound"],
            f"{r['peak_gap_pct']:.2f}",
        )
        lines.append("  ".join(f"{c:>14}" for c in cells))
    return "\n".join(lines)


def write_timeline_png(path: str, report: dict, variant: str = "pingpong") -> None:
    """Compute and DMA lanes of one variant over time, one bar per event."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    timeline: Timeline = report["_timelines"][variant]
    fig, ax = plt.subplots(figsize=(12, 2.8))
    lanes = {"compute": 1, "dma": 0}
    colors = {"compute": "#4c72b0", "dma": "#dd8452"}
    for lane in timeline.lanes:
        ax.broken_barh([(lane.start, lane.end - lane.start)], (lanes[lane.lane] - 0.4, 0.8),
                       facecolors=colors[lane.lane], edgecolors="white", linewidth=0.3)
    for region in timeline.regions:
        ax.axvline(region.start, color="grey", linewidth=0.5, linestyle=":")
    ax.set_yticks([0, 1], ["DMA", "compute"])
    ax.set_xlabel("cycles")
    row = next(r for r in report["variants"] if r["variant"] == variant)
    ax.set_title(
        f"@{report['function']} {variant}: {row['cycles']} cycles ({row['ms']:.3f} ms),"
        f" overlap bound {row['bound_cycles']}, gain {row['gain_pct']:.1f} % over sync"
    )
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110)
    plt.close(fig)
    atomic_write_bytes(path, buffer.getvalue())
