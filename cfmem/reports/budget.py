"""The budget sweep of ``cfmem report --budget-sweep``: table and PNG curve."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

from cfmem.fit_sweep import SweepRow
from cfmem.fit_tiled import TiledChain
from cfmem.passes.place_measure import Decision


def sweep_json(rows: list[SweepRow]) -> list[dict]:
    return [{**asdict(r), "speedup_over_offchip_arena": r.speedup_over_offchip()} for r in rows]


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def render_sweep(name: str, rows: list[SweepRow], tiled: bool = False) -> str:
    """The sweep table; ``tiled``: rows of ``budget_sweep(tile=True)``, with the untiled latency
    and the tile size kept beside the latency."""
    tiling = " untiled ms | rows per tile |" if tiled else ""
    lines = [
        f"budget sweep of {name}: modeled latency against on-chip budget (slowest-compute path)",
        "",
        f"| budget (bytes) | fits | ms |{tiling} on-chip peak | bound ms | gap to bound | (a) arena off chip ms | speedup over (a) | (b) ping-pong ms | placement of |",
        "|---:|:---:|---:|" + ("---:|---:|" if tiled else "") + "---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        gap = "-" if r.gap_to_bound_pct is None else f"{r.gap_to_bound_pct:.1f} %"
        speedup = r.speedup_over_offchip()
        tile = f" {_ms(r.untiled_ms)} | {_tile(r.tile_rows, r.branching)} |" if tiled else ""
        lines.append(
            f"| {r.budget:,} | {'yes' if r.feasible else 'no'} | {_ms(r.ms)} |{tile} "
            f"{'-' if r.onchip_peak is None else f'{r.onchip_peak:,}'} | {_ms(r.bound_ms)} | {gap} | "
            f"{_ms(r.offchip_arena_ms)} | {'-' if speedup is None else f'{speedup:.2f}x'} | {_ms(r.pingpong_ms)} | "
            f"{'-' if r.placement_of is None else ('itself' if r.placement_of == r.budget else f'{r.placement_of:,}')} |"
        )
    lines += [
        "",
        "(a) every activation off chip and every weight read in place; (b) every weight streamed whole"
        " with two DMA buffers and everything on chip, where its peak fits. 'placement of' names a smaller"
        " budget when its placement is faster than the one found for this budget."
        + (" 'ms' is the fastest of the untiled compile and the tiled ones (compile --tile); the bound is the"
           " least of the graphs tried; 'runs' marks tiles of runs only (no chain that branches)." if tiled else ""),
    ]
    return "\n".join(lines)


def _tile(rows: int | None, branching: bool) -> str:
    return "-" if rows is None else f"{rows}" + ("" if branching else " (runs)")


def render_tiled_chains(name: str, chains: list[TiledChain]) -> str:
    """The chains the kept compile tiles (``cfmem.fit_tiled.tiled_chains``)."""
    if not chains:
        return f"{name}: the untiled compile is the fastest that fits; no chain is tiled"
    lines = [
        f"chains of {name} computed in tiles of {chains[0].tile_rows} rows",
        "",
        "| first op | last op | ops | tiles | input rows a tile reads | halo rows recomputed |",
        "|---|---|---:|---:|---:|---:|",
    ]
    lines += [
        f"| {c.first} | {c.last}{' (reduced per tile)' if c.reduced else ''} | {c.ops} | {c.tiles} | {c.window_rows} |"
        f" {c.recompute_pct:.1f} % |"
        for c in chains
    ]
    return "\n".join(lines)


def render_decisions(name: str, budget: int, rows: list[Decision]) -> str:
    lines = [
        f"placement of {name} in {budget:,} on-chip bytes",
        "",
        "| what | where | why | bytes | cycles |",
        "|---|---|---|---:|---:|",
    ]
    lines += [f"| {d.what} | {d.where} | {d.why} | {d.nbytes:,} | {d.cycles:,.0f} |" for d in rows]
    return "\n".join(lines)


def write_sweep_png(path: str | Path, rows: list[SweepRow], title: str) -> None:
    """Latency against budget: cfmem, its bound, and the two baselines."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from cfmem.files import atomic_write_bytes

    fits = sorted((r for r in rows if r.feasible), key=lambda r: r.budget)
    kib = [r.budget / 1024 for r in fits]
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(kib, [r.ms for r in fits], "o-", label="cfmem")
    ax.plot(kib, [r.bound_ms for r in fits], "--", label="latency bound")
    ax.plot(kib, [r.offchip_arena_ms for r in fits], ":", label="(a) whole arena off chip")
    pingpong = [(r.budget / 1024, r.pingpong_ms) for r in fits if r.pingpong_ms is not None]
    if pingpong:
        ax.plot(*zip(*pingpong), "s", label="(b) whole-weight ping-pong")
    ax.set_xlabel("on-chip budget (KiB)")
    ax.set_ylabel("modeled latency (ms)")
    ax.set_yscale("log")
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    import io

    data = io.BytesIO()
    fig.savefig(data, format="png", dpi=110)
    plt.close(fig)
    atomic_write_bytes(path, data.getvalue())
