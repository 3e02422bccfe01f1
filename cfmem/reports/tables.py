"""Plain-text tables and JSON-ready dicts for memory plans (no xDSL).

Every peak is reported next to the control-flow lower bound of its function
(``cf_lower_bound``: the largest byte total live at one step on one execution
path) and the gap between them, ``100 * (peak - bound) / bound``.

Regions are named by the branches that lead to them: the function body by the
function's name (``main``), a branch by ``if#K.then`` / ``if#K.else``, a loop's
body by ``loop#K.body``, a nested region by its chain (``if#0.then/loop#0.body``;
ifs and loops are each counted in walk order, as the interpreters label them). Step intervals are
closed and local to a tensor's region (``[def, last use]``); global intervals
are half-open on the exact timeline of ``control_flow.timeline(tree,
"exact")``, where the branches of an if run side by side in time.

``function_report`` and ``compare`` build dicts (the JSON of ``cfmem report``);
``render_function``, ``render_comparison`` and ``render_models`` turn them into
aligned text.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from cfmem.planning.control_flow import MODES, TreePlan, plan_smallest, timeline
from cfmem.planning.problem import Path, PlanOptions
from cfmem.planning.regions import RegionTree, cf_lower_bound

DEFAULT_STRATEGIES = ("sequential", "large-first", "short-first", "best-fit", "tflm", "by-size", "auto")
"""Rows of the comparison table (``search`` and ``beam`` only when asked)."""

MODE_ABBREVIATIONS = {"naive": "naive", "conservative": "cons", "linearize": "lin", "hoist": "hoist", "exact": "exact"}


def gap_pct(peak: int, bound: int) -> float:
    return 0.0 if bound == 0 else 100.0 * (peak - bound) / bound


def branch_name(index: int) -> str:
    return ("then", "else")[index] if index < 2 else f"branch{index}"


def regions(tree: RegionTree, root: str = "main") -> Iterator[tuple[str, Path, RegionTree]]:
    """Every region of ``tree`` with its label and branch path, parents first."""

    def visit(region: RegionTree, label: str, path: Path) -> Iterator[tuple[str, Path, RegionTree]]:
        yield label, path, region
        for node in region.ifs:
            for b, branch in enumerate(node.branches):
                name = f"{node.name}.{node.branch_labels()[b]}"
                yield from visit(branch, f"{label}/{name}" if path else name, (*path, (node.id, b)))

    yield from visit(tree, root, ())


def if_spans(tree: RegionTree) -> tuple[dict[int, tuple[int, int]], int]:
    """Half-open global time span of every if on the exact timeline, and its length.

    Mirrors ``timeline(tree, "exact")``: an op takes one time step, an if as
    many as its longest branch (at least one), all branches starting together.
    """
    spans: dict[int, tuple[int, int]] = {}

    def visit(region: RegionTree, t0: int) -> int:
        if_at = {node.step: node for node in region.ifs}
        t = t0
        for step in range(region.num_steps):
            node = if_at.get(step)
            if node is None:
                t += 1
                continue
            length = max([1, *(visit(branch, t) for branch in node.branches)])
            spans[node.id] = (t, t + length)
            t += length
        return t - t0

    return spans, visit(tree, 0)


def function_report(name: str, tree: RegionTree, plan: TreePlan, align: int) -> dict:
    """Every number of one function's plan, as a JSON-ready dict.

    ``tensors`` are in order of their global start time; ``blocks`` (hoist
    mode, or exact mode when the hoisted plan won) are the regions each if
    reserves in its parent, with the if's global time span.
    """
    exact = {b.id: b for b in timeline(tree, "exact", align)}
    rows: list[tuple[tuple[int, int, int], dict]] = []
    for order, (label, path, region) in enumerate(regions(tree, name)):
        for t in region.tensors:
            offset, when = plan.offsets[t.id], exact[t.id]
            row = {
                "tensor": t.id,
                "size": t.size,
                "region": label,
                "path": [list(choice) for choice in path],
                "step_start": t.start,
                "step_end": t.end,
                "global_start": when.start,
                "global_end": when.end,
                "offset": offset,
                "end_offset": offset + t.size,
            }
            rows.append(((when.start, order, t.start), row))
    rows.sort(key=lambda item: item[0])
    spans, length = if_spans(tree)
    names = {node.id: node.name for region in tree.walk() for node in region.ifs}
    blocks = [
        {"if": if_id, "name": names[if_id], "offset": offset, "size": size,
         "global_start": spans[if_id][0], "global_end": spans[if_id][1]}
        for if_id, (offset, size) in sorted(plan.blocks.items())
    ]
    aliases = [
        {
            "tensor": a.id,
            "alias_of": a.root,
            "byte_offset": a.offset,
            "size": a.size,
            "offset": plan.offsets[a.root] + a.offset,
        }
        for a in tree.aliases
    ]
    return {
        "function": name,
        "mode": plan.mode,
        "strategy": plan.strategy,
        "chosen": plan.chosen,
        "align": align,
        "peak": plan.peak,
        "lower_bound": plan.lower_bound,
        "gap_pct": plan.gap_pct,
        "proven_optimal": plan.proven_optimal,
        "naive_bytes": sum(t.size for t in tree.all_tensors()),
        "time_steps": length,
        "tensors": [row for _, row in rows],
        "blocks": blocks,
        "aliases": aliases,
        "unaliased_peak": plan.peak if plan.unaliased_peak is None else plan.unaliased_peak,
    }


def compare(
    name: str,
    tree: RegionTree,
    strategies: Sequence[str] = DEFAULT_STRATEGIES,
    modes: Sequence[str] = MODES,
    align: int = 16,
    options: PlanOptions | None = None,
    aliased: Sequence[RegionTree] = (),
) -> dict:
    """Peak of every strategy under every control-flow mode, with the bound.

    With ``aliased`` trees of the same tensors, ``tree`` is the one without aliases and
    each cell the smallest plan as ``nn-plan-memory`` chooses it (``plan_smallest``); the
    bound is the least of the trees'. ``best`` is the first smallest cell in reading order
    (rows, then columns).
    """
    peaks: dict[str, dict[str, int]] = {}
    exact_chose: dict[str, str] = {}
    for strategy in strategies:
        peaks[strategy] = {}
        for mode in modes:
            _, plan = plan_smallest(tree, aliased, mode, strategy, options, align)
            peaks[strategy][mode] = plan.peak
            if mode == "exact":
                exact_chose[strategy] = plan.chosen
    bound = min(cf_lower_bound(t) for t in (tree, *aliased))
    cells = [(peaks[s][m], s, m) for s in strategies for m in modes]
    best_peak, best_strategy, best_mode = min(cells, key=lambda cell: cell[0]) if cells else (0, "", "")
    return {
        "function": name,
        "align": align,
        "strategies": list(strategies),
        "modes": list(modes),
        "peaks": peaks,
        "exact_chose": exact_chose,
        "lower_bound": bound,
        "best": {
            "peak": best_peak,
            "strategy": best_strategy,
            "mode": best_mode,
            "gap_pct": gap_pct(best_peak, bound),
        },
    }


# --- rendering -------------------------------------------------------------------------

Cell = str | int | float
RULE = None
"""A row of ``format_table`` that draws a rule."""


def format_pct(value: float) -> str:
    """Two decimals; a tiny non-zero gap keeps two significant digits."""
    return f"{value:.2g}" if 0 < abs(value) < 0.01 else f"{value:.2f}"


def _text(cell: Cell) -> str:
    return format_pct(cell) if isinstance(cell, float) else str(cell)


def format_table(
    header: Sequence[str],
    rows: Sequence[Sequence[Cell] | None],
    groups: Sequence[tuple[str, int]] | None = None,
) -> str:
    """Aligned columns: numbers right-aligned, text left-aligned.

    A ``None`` row draws a rule. ``groups`` adds a line above the header with
    labels spanning consecutive columns, ``(label, number of columns)``.
    """
    texts = [None if row is None else [_text(c) for c in row] for row in rows]
    numeric = [
        any(row is not None and isinstance(row[i], int | float) for row in rows) for i in range(len(header))
    ]
    widths = [max([len(h), *(len(r[i]) for r in texts if r is not None)]) for i, h in enumerate(header)]
    gutter = 2
    if groups:
        col = 0
        for label, span in groups:
            width = sum(widths[col : col + span]) + gutter * (span - 1)
            if label and len(label) + 2 > width:
                widths[col + span - 1] += len(label) + 2 - width
            col += span

    def line(cells: Sequence[str]) -> str:
        parts = [c.rjust(w) if numeric[i] else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths))]
        return (" " * gutter).join(parts).rstrip()

    out = []
    if groups:
        parts, col = [], 0
        for label, span in groups:
            width = sum(widths[col : col + span]) + gutter * (span - 1)
            parts.append(f" {label} ".center(width, "-") if label else " " * width)
            col += span
        out.append((" " * gutter).join(parts).rstrip())
    out.append(line(list(header)))
    rule = (" " * gutter).join("-" * w for w in widths)
    out.append(rule)
    for row in texts:
        out.append(rule if row is None else line(row))
    return "\n".join(out)


def _mode_line(report: dict) -> str:
    mode = report["mode"]
    if mode == "exact" and report["chosen"] and report["chosen"] != "exact":
        mode = f"exact (kept the {report['chosen']} plan)"
    return f"mode {mode}, strategy {report['strategy']}, align {report['align']}"


def summary_line(peak: int, bound: int) -> str:
    return f"peak {peak} bytes, lower bound {bound} bytes, gap {format_pct(gap_pct(peak, bound))} %"


def render_function(report: dict) -> str:
    """One function's plan: a row per tensor, then peak, bound, gap and blocks."""
    out = [f"@{report['function']}: {_mode_line(report)}"]
    if report["tensors"]:
        header = ("tensor", "size", "region", "steps", "global", "offset", "end")
        rows = [
            (
                t["tensor"],
                t["size"],
                t["region"],
                f"[{t['step_start']},{t['step_end']}]",
                f"[{t['global_start']},{t['global_end']})",
                t["offset"],
                t["end_offset"],
            )
            for t in report["tensors"]
        ]
        out.append(format_table(header, rows))
    else:
        out.append("(no on-chip tensors)")
    out.append(summary_line(report["peak"], report["lower_bound"]) + f" (no reuse: {report['naive_bytes']} bytes)")
    if report["blocks"]:
        out.append("hoisted blocks (one per if, shared by its branches, or per loop):")
        rows = [
            (b["name"], b["offset"], b["size"], b["offset"] + b["size"], f"[{b['global_start']},{b['global_end']})")
            for b in report["blocks"]
        ]
        out.append(_indent(format_table(("if", "offset", "size", "end", "global"), rows)))
    if report["aliases"]:
        out.append("aliases (no bytes of their own):")
        rows = [(a["tensor"], a["size"], a["alias_of"], a["byte_offset"], a["offset"]) for a in report["aliases"]]
        out.append(_indent(format_table(("alias", "size", "alias of", "at byte", "offset"), rows)))
    saved = report["unaliased_peak"] - report["peak"]
    out.append(f"saved by aliasing: {saved} bytes (peak {report['unaliased_peak']} bytes without aliases)")
    return "\n".join(out)


def comparison_table(grid: dict) -> tuple[tuple[str, ...], list[Sequence[Cell] | None]]:
    """The header and rows of ``render_comparison`` (a ``RULE`` row draws a rule)."""
    strategies, modes, peaks, bound = grid["strategies"], grid["modes"], grid["peaks"], grid["lower_bound"]
    header = ("strategy", *modes, "best", "gap %")
    rows: list[Sequence[Cell] | None] = []
    for s in strategies:
        row_best = min(peaks[s][m] for m in modes)
        rows.append((s, *(peaks[s][m] for m in modes), row_best, gap_pct(row_best, bound)))
    column_best = [min(peaks[s][m] for s in strategies) for m in modes]
    best = grid["best"]
    rows += [
        RULE,
        ("best", *column_best, best["peak"], best["gap_pct"]),
        ("gap %", *(gap_pct(p, bound) for p in column_best), best["gap_pct"], ""),
        ("lower bound", *([bound] * len(modes)), bound, ""),
    ]
    return header, rows


def render_comparison(grid: dict) -> str:
    """Paper Tables 1 and 2 for one function: strategies down, modes across.

    Each row ends with its best cell and that cell's gap to the lower bound;
    below the rows come each column's best, its gap, and the bound.
    """
    header, rows = comparison_table(grid)
    best, bound = grid["best"], grid["lower_bound"]
    out = [
        f"@{grid['function']}: peak bytes by strategy (rows) and control-flow mode (columns), align {grid['align']}",
        format_table(header, rows),
        f"best {best['peak']} bytes ({best['strategy']}, {best['mode']}); "
        + summary_line(best["peak"], bound),
    ]
    if grid.get("exact_chose"):
        kept = ", ".join(f"{s}: {c}" for s, c in grid["exact_chose"].items())
        out.append(f"exact kept the plan of: {kept}")
    return "\n".join(out)


def models_table(entries: Sequence[tuple[str, dict]]) -> tuple[list[str], list[list[Cell]]]:
    """The columns and rows of ``render_models``; a strategy x mode column is
    named ``strategy/mode``."""
    strategies, modes = entries[0][1]["strategies"], entries[0][1]["modes"]
    reused = [m for m in modes if m != "naive"]
    columns = ["model", *(["naive"] if "naive" in modes else []), *(f"{s}/{m}" for s in strategies for m in reused)]
    columns += ["bound", "best", "gap %"]
    rows = []
    for label, grid in entries:
        if grid["strategies"] != strategies or grid["modes"] != modes:
            raise ValueError(f"{label}: every model must be compared on the same strategies and modes")
        peaks = grid["peaks"]
        row: list[Cell] = [label]
        if "naive" in modes:
            row.append(min(peaks[s]["naive"] for s in strategies))
        row += [peaks[s][m] for s in strategies for m in reused]
        row += [grid["lower_bound"], grid["best"]["peak"], grid["best"]["gap_pct"]]
        rows.append(row)
    return columns, rows


def render_models(entries: Sequence[tuple[str, dict]]) -> str:
    """One row per model: naive, then every strategy x mode, bound, best and gap.

    ``entries`` are ``(model label, compare(...) dict)`` with the same
    strategies and modes.
    """
    if not entries:
        return "(no models)"
    columns, rows = models_table(entries)
    strategies, modes = entries[0][1]["strategies"], entries[0][1]["modes"]
    reused = [m for m in modes if m != "naive"]
    header = [MODE_ABBREVIATIONS.get(c.split("/")[1], c.split("/")[1]) if "/" in c else c for c in columns]
    groups: list[tuple[str, int]] = [("", 1), *([("", 1)] if "naive" in modes else [])]
    groups += [(s, len(reused)) for s in strategies] + [("", 3)]
    legend = ", ".join(f"{a} = {m}" for m, a in MODE_ABBREVIATIONS.items() if m in reused and a != m)
    out = ["peak bytes by model; columns: naive (no reuse), then strategy x control-flow mode"]
    out.append(format_table(header, rows, groups))
    out.append(f"bound = control-flow lower bound; best = smallest cell; gap % = best over bound. {legend}".rstrip())
    return "\n".join(out)


def _indent(text: str, prefix: str = "  ") -> str:
    return "\n".join(prefix + line for line in text.splitlines())
