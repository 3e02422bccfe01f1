"""``cfmem compile --tile``: the model compiled as it is and with its chains tiled along the
rows (``nn-tile-rows``) at a few tile sizes; the fastest compile that fits wins.

Tiling a chain keeps only a tile of its intermediates on chip, and costs its recomputed halos
and its weights streamed again for every tile; the placement search prices both when it
places the tiled graph, so each candidate is simply compiled and timed. Candidates cut the
rows of the chain with the largest intermediates, and of the largest intermediate, into
``TILE_SPLITS`` tiles (one tile size for every chain of the model).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from cfmem.dma.timing import Chip
from cfmem.fit import BudgetError, Compiled, compile_for_budget, latency_bound
from cfmem.passes.place_measure import Measured
from cfmem.passes.spatial_chains import module_chains
from cfmem.passes.tile_rows import TileRowsPass, tileable
from cfmem.planning.tiling import recomputed_rows, tiles

TILE_SPLITS = (2, 3, 4)
"""Tiles of rows the candidates cut a chain's rows into."""
RUNS_ONLY_SIZES = 2
"""Tile sizes compiled again with runs only: the fastest that fit with branching chains (on
shufflenet on the 2 MiB chip the second fastest, 14 rows, is the one runs win at)."""


@dataclass(frozen=True)
class TiledChain:
    """One chain as ``nn-tile-rows`` tiles it (for reports)."""

    first: str
    last: str
    ops: int
    tile_rows: int
    """Rows of the chain's last result per tile (the last tile may have fewer)."""
    tiles: int
    window_rows: int
    """The most rows of the chain's (first) input one tile reads (its tile and the halo)."""
    recompute_pct: float
    """Rows of the intermediates computed more than once, in % of their rows."""
    reduced: bool
    """Ends in a reduction over the rows (its last result is never whole)."""


def tiled_chains(module: ModuleOp, tile_rows: int, branching: bool = True) -> list[TiledChain]:
    """The chains of ``module`` that ``nn-tile-rows{tile-rows=... branching=...}`` tiles, as it
    tiles them."""
    found = []
    for chain in module_chains(module, tile_rows=tile_rows, branching=branching):
        if not tileable(chain, tile_rows):
            continue
        graph = chain.graph
        schedule = tiles(graph, tile_rows)
        needed = sum(graph.height_of(t) for t in graph.intermediates)
        found.append(TiledChain(
            _label(chain.ops[0]), _label(chain.reduction or chain.ops[-1]), len(chain.ops) + (chain.reduction is not None),
            tile_rows, len(schedule), max(hi - lo for (lo, hi), *_ in schedule),
            100.0 * recomputed_rows(graph, tile_rows) / needed if needed else 0.0, chain.reduction is not None,
        ))  # fmt: skip
    return found


def _label(op) -> str:
    return f"{op.name} %{op.results[0].name_hint or '?'}"


@dataclass
class TiledCompile:
    compiled: Compiled
    tile_rows: int | None
    """Output rows per tile of the chosen compile; None: untiled."""
    tried: list[tuple[int | None, bool, float | None]]
    """Every candidate compiled (tile rows, None untiled; whether chains may branch) and its
    cycles (None: it did not fit); a candidate that tiles nothing is not compiled."""
    branching: bool = True
    """Whether the chosen compile's chains may branch and join (False: runs only)."""

    @property
    def untiled_cycles(self) -> float | None:
        """The untiled compile's cycles, None when it did not fit."""
        return next((cycles for rows, _, cycles in self.tried if rows is None), None)

    def describe(self) -> str:
        """The tiling kept, in words."""
        if self.tile_rows is None:
            return "untiled"
        return f"tiled, {self.tile_rows} rows per tile" + ("" if self.branching else ", runs only")


def tile_candidates(module: ModuleOp) -> list[int]:
    """Tile sizes to try, largest first: the output rows of the chain whose intermediates hold
    the most bytes, and the rows of the largest intermediate of any chain, each cut into
    ``TILE_SPLITS`` tiles (none when the model has no chain)."""
    chains = module_chains(module)
    if not chains:
        return []
    top = max(chains, key=lambda chain: chain.tiled_bytes())
    largest = max(
        ((size, chain.graph.height_of(t)) for chain in chains for t, size in enumerate(chain.tensor_bytes()) if t in chain.graph.intermediates),
        default=(0, top.graph.height),
    )  # fmt: skip
    heights = {top.graph.height, largest[1]}
    return sorted({-(-height // k) for height in heights for k in TILE_SPLITS if height >= k}, reverse=True)


def compile_tiled(module: ModuleOp, chip: Chip, budget: int | None, base_dir: Path | None, where: str | None,
                  mode: str, strategy: str, path: dict, roll: bool, measured: Measured | None = None) -> TiledCompile:
    """The fastest of the untiled compile and one per ``tile_candidates`` size (each with its own
    placement search), with the least latency bound of the graphs tried (``latency_bound``:
    tiling adds halos and weights streamed per tile, but may keep activations on chip that the
    untiled graph must spill); the untiled compile's ``BudgetError`` when none fits.

    Candidates tile chains that branch and join. The ``RUNS_ONLY_SIZES`` fastest tile sizes
    that fit are compiled once more with runs only: a branching chain's tiles hold more at
    once, and stream more weights per tile, than the runs inside it, which the search for where
    a chain ends does not price."""
    tried: list[tuple[int | None, bool, float | None]] = []
    best: TiledCompile | None = None
    refusal: BudgetError | None = None
    budget = chip.onchip_bytes if budget is None else budget
    bounds: list[float] = []
    size = _op_count(module)
    counts: dict[int, int] = {}
    """Ops of each tile size's graph with branching chains."""

    def attempt(rows: int | None, branching: bool) -> None:
        nonlocal best, refusal
        candidate = module
        if rows is not None:
            candidate = module.clone()
            TileRowsPass(tile_rows=rows, branching=branching).apply(Context(), candidate)
            count = _op_count(candidate)
            if count == size or (not branching and count == counts[rows]):  # nothing tiled, or no chain branches
                return
            counts[rows] = count
        try:
            compiled = compile_for_budget(candidate, chip, budget, base_dir, where, mode, strategy, path=path, roll=roll,
                                          measured=measured if rows is None else None)  # fmt: skip
        except BudgetError as err:
            refusal = refusal or err
            tried.append((rows, branching, None))
            bounds.append(latency_bound(candidate, chip, budget, path))  # a compile gives its graph's bound
            return
        tried.append((rows, branching, compiled.cycles))
        bounds.append(compiled.bound_cycles)
        if best is None or compiled.cycles < best.compiled.cycles:
            best = TiledCompile(compiled, rows, tried, branching)

    candidates = tile_candidates(module)
    for rows in [None, *candidates]:
        attempt(rows, True)
    fitting = sorted((cycles, rows) for rows, _, cycles in tried if rows is not None and cycles is not None)
    for _, rows in fitting[:RUNS_ONLY_SIZES]:
        attempt(rows, False)
    if best is None:
        assert refusal is not None
        raise refusal
    return replace(best, compiled=replace(best.compiled, bound_cycles=min(bounds)))


def _op_count(module: ModuleOp) -> int:
    return sum(1 for _ in module.walk())
