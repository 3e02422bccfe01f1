"""Gantt pictures and CSV of a plan: time across, address up.

Input is the dict of ``tables.function_report``: tensors with their global
half-open interval on the exact timeline (branches of an if side by side in
time) and their byte range. Parent tensors share one colour; every branch of
every if has its own colour family, shaded per tensor. Hoisted blocks are
dashed outlines; the peak and the lower bound are horizontal lines.

Uses matplotlib's Agg backend (no display needed); files are written
atomically.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from cfmem.reports.tables import format_pct
from cfmem.files import atomic_write_bytes, atomic_write_text

ROOT_COLOUR = "tab:blue"
BRANCH_COLOURS = (
    "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown", "tab:pink", "tab:olive", "tab:cyan", "tab:gray"
)
"""Each branch region takes the next base colour; its tensors are tints of it."""
CSV_HEADER = ("tensor_name", "size", "offset", "start_time", "end_time")


def gantt_csv(report: dict) -> str:
    """``tensor_name,size,offset,start_time,end_time``, one row per tensor.

    Times are the global exact timeline, ``end_time`` exclusive (as in the
    minimalloc CSV format).
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_HEADER)
    for t in report["tensors"]:
        writer.writerow((t["tensor"], t["size"], t["offset"], t["global_start"], t["global_end"]))
    return out.getvalue()


def write_gantt_csv(path: str | Path, report: dict) -> None:
    atomic_write_text(path, gantt_csv(report))


def _unit(peak: int) -> tuple[str, float]:
    if peak >= 4 * 1024 * 1024:
        return "MiB", 1024.0 * 1024.0
    if peak >= 4 * 1024:
        return "KiB", 1024.0
    return "bytes", 1.0


def _title(model: str, report: dict) -> str:
    mode = report["mode"]
    if mode == "exact" and report["chosen"] and report["chosen"] != "exact":
        mode = f"exact (kept {report['chosen']})"
    peak, bound = report["peak"], report["lower_bound"]
    return (
        f"{model} @{report['function']}: mode {mode}, strategy {report['strategy']}\n"
        f"peak {peak:,} B, lower bound {bound:,} B, gap {format_pct(report['gap_pct'])} %"
    )


def _tint(colour, amount: float) -> tuple[float, float, float]:
    """``colour`` mixed with ``amount`` of white."""
    from matplotlib.colors import to_rgb

    return tuple(c + (1.0 - c) * amount for c in to_rgb(colour))


def _region_colours(tensors: list[dict], root: str) -> dict[str, str]:
    """Base colour per region: the parent blue, branches in path order."""
    paths = {t["region"]: tuple(map(tuple, t["path"])) for t in tensors}
    branches = sorted((r for r in paths if r != root), key=lambda r: (len(paths[r]), paths[r]))
    colours = {r: BRANCH_COLOURS[k % len(BRANCH_COLOURS)] for k, r in enumerate(branches)}
    colours[root] = ROOT_COLOUR
    return colours


def render_gantt_png(report: dict, model: str = "") -> bytes:
    """The picture as PNG bytes."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch, Rectangle

    tensors, blocks, root = report["tensors"], report["blocks"], report["function"]
    peak, bound = report["peak"], report["lower_bound"]
    unit, scale = _unit(max(peak, bound, 1))
    length = max([report["time_steps"], *(t["global_end"] for t in tensors)], default=1)
    top = max(peak, bound, 1) / scale
    colours = _region_colours(tensors, root)

    fig = Figure(figsize=(13, 7), dpi=110)
    ax = fig.add_subplot()
    seen: dict[str, int] = {}
    for t in tensors:
        k = seen[t["region"]] = seen.get(t["region"], -1) + 1
        base = colours[t["region"]]
        ax.add_patch(
            Rectangle(
                (t["global_start"], t["offset"] / scale),
                t["global_end"] - t["global_start"],
                t["size"] / scale,
                facecolor=_tint(base, (0.1, 0.3, 0.5)[k % 3]),  # neighbours in a region differ
                edgecolor=_tint(base, 0.0),
                linewidth=0.8,
                alpha=0.85,
                hatch="///" if _is_else(t) else None,  # where branches share bytes, both stay visible
            )
        )

    for b in blocks:
        ax.add_patch(
            Rectangle(
                (b["global_start"], b["offset"] / scale),
                b["global_end"] - b["global_start"],
                b["size"] / scale,
                fill=False,
                edgecolor="black",
                linestyle=(0, (5, 3)),
                linewidth=1.4,
            )
        )
        ax.text(
            b["global_start"] + 0.1,
            (b["offset"] + b["size"]) / scale,
            b["name"],
            fontsize=8,
            va="bottom",
            ha="left",
            bbox={"facecolor": "white", "edgecolor": "none", "alpha": 0.8, "pad": 1},
        )

    ax.axhline(peak / scale, color="crimson", linewidth=1.5)
    ax.axhline(bound / scale, color="black", linewidth=1.2, linestyle=(0, (1, 2)))
    box = {"facecolor": "white", "edgecolor": "none", "alpha": 0.85, "pad": 1.5}
    right = length * 0.995
    if abs(peak - bound) / scale < 0.04 * top:  # too close for two labels
        ax.text(right, max(peak, bound) / scale, f"peak {peak:,} B, lower bound {bound:,} B", fontsize=9,
                ha="right", va="bottom", bbox=box)
    else:
        ax.text(right, peak / scale, f"peak {peak:,} B", color="crimson", fontsize=9, ha="right", va="bottom", bbox=box)
        ax.text(right, bound / scale, f"lower bound {bound:,} B", fontsize=9, ha="right",
                va="top" if bound < peak else "bottom", bbox=box)

    ax.set_xlim(0, length)
    ax.set_ylim(0, top * 1.12)
    ax.set_xlabel("time step on the exact timeline (the branches of an if run side by side)")
    ax.set_ylabel(f"address ({unit})")
    ax.grid(axis="y", color="0.9", linewidth=0.6)
    ax.set_axisbelow(True)
    ax.set_title(_title(model, report), fontsize=11)

    handles = [
        Patch(
            facecolor=_tint(colours[r], 0.3),
            edgecolor=colours[r],
            hatch="///" if r.endswith(".else") else None,
            label=_legend_label(r, root),
        )
        for r in colours
        if r in seen
    ]
    handles.sort(key=lambda h: h.get_label() != _legend_label(root, root))
    if blocks:
        handles.append(Patch(fill=False, edgecolor="black", linestyle="--", label="hoisted block (if#N, loop#N)"))
    handles.append(Line2D([], [], color="crimson", label="peak"))
    handles.append(Line2D([], [], color="black", linestyle=":", label="lower bound"))
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    fig.tight_layout()
    _label_tensors(fig, ax, tensors, scale)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    return buffer.getvalue()


def _label_tensors(fig, ax, tensors: list[dict], scale: float) -> None:
    """Names inside the rectangles that have room, larger first, never overlapping."""
    fig.canvas.draw()
    to_pixels = ax.transData.transform
    char_w, text_h = 7.5 * fig.dpi / 72 * 0.62, 7.5 * fig.dpi / 72 * 1.3
    placed: list[tuple[float, float, float, float]] = []
    for t in sorted(tensors, key=lambda t: -t["size"] * (t["global_end"] - t["global_start"])):
        (x0, y0), (x1, y1) = to_pixels((t["global_start"], t["offset"] / scale)), to_pixels(
            (t["global_end"], t["end_offset"] / scale)
        )
        w, h, rotation = char_w * len(t["tensor"]) + 4, text_h, 0
        if x1 - x0 < w or y1 - y0 < h:
            w, h, rotation = h, w, 90  # tall and narrow: write it upwards
            if x1 - x0 < w or y1 - y0 < h:
                continue
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        mine = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
        if any(mine[0] < o[2] and o[0] < mine[2] and mine[1] < o[3] and o[1] < mine[3] for o in placed):
            continue
        placed.append(mine)
        ax.text(
            (t["global_start"] + t["global_end"]) / 2,
            (t["offset"] + t["end_offset"]) / 2 / scale,
            t["tensor"],
            fontsize=7.5,
            ha="center",
            va="center",
            rotation=rotation,
            clip_on=True,
        )


def _is_else(tensor: dict) -> bool:
    return bool(tensor["path"]) and tensor["path"][-1][1] > 0


def _legend_label(region: str, root: str) -> str:
    return f"@{root} (outside any if)" if region == root else region


def write_gantt_png(path: str | Path, report: dict, model: str = "") -> None:
    atomic_write_bytes(path, render_gantt_png(report, model))
