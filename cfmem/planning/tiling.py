"""Row tiling of a chain of spatial ops: which rows of every tensor a tile of the last output
needs, the tiles that cover it, what a tile holds on chip and what it recomputes.

A chain is ops ``0..n-1`` where op ``i`` reads tensor ``i`` and writes tensor ``i + 1``, each
seen along one spatial axis (the rows, H of NCHW) as a ``RowWindow``: a convolution or pool
(kernel, stride, dilation, top padding), a pad (kernel 1, its top padding), or an elementwise
op (kernel 1). Computing output rows ``[lo, hi)`` of an op reads input rows
``[lo * stride - pad_top, (hi - 1) * stride - pad_top + (kernel - 1) * dilation + 1)``; the
rows outside the input are padding, which no tile stores. A tile of the chain's last output
computes each earlier tensor on exactly the rows it needs: the halo between neighbouring
tiles is recomputed (``tiles``). Or each tile computes only the rows of every tensor that no
earlier tile computed, and reads the halo rows an earlier tile left (``rolling_tiles``): the
rows of an intermediate stay until the last tile that reads them, a rolling buffer.

A ``RowGraph`` is the general case: ops whose results several later ops read, and ops that
read several tensors row by row (a residual add, a concatenation of channels). A tensor is
computed on the rows every reader needs (their hull). Plain data, no xDSL.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

Rows = tuple[int, int]
"""A half-open row range ``[lo, hi)``."""


@dataclass(frozen=True)
class RowWindow:
    """One op of a chain along the rows: ``out_rows`` rows computed from ``in_rows``."""

    in_rows: int
    out_rows: int
    kernel: int = 1
    stride: int = 1
    dilation: int = 1
    pad_top: int = 0

    def __post_init__(self):
        if min(self.in_rows, self.out_rows, self.kernel, self.stride, self.dilation) < 1 or self.pad_top < 0:
            raise ValueError(f"not a row window: {self}")

    @property
    def pad_bottom(self) -> int:
        """Padding rows below the input that the last output row reads."""
        last = (self.out_rows - 1) * self.stride - self.pad_top + (self.kernel - 1) * self.dilation
        return max(0, last + 1 - self.in_rows)

    def reads(self, rows: Rows) -> Rows:
        """The input rows output ``rows`` read, padding left out (empty as ``(k, k)`` when they
        read padding only)."""
        first, end = self._span(rows)
        first = min(max(first, 0), self.in_rows)
        return (first, max(first, min(end, self.in_rows)))

    def padding(self, rows: Rows) -> tuple[int, int]:
        """The padding rows above and below the input that output ``rows`` read: computing
        them is the op with this padding on the input rows ``reads`` gives."""
        first, end = self._span(rows)
        top = min(max(0, -first), end - first)
        return top, min(max(0, end - self.in_rows), end - first - top)

    def _span(self, rows: Rows) -> Rows:
        lo, hi = rows
        first = lo * self.stride - self.pad_top
        return first, (hi - 1) * self.stride - self.pad_top + (self.kernel - 1) * self.dilation + 1


@dataclass(frozen=True)
class RowGraph:
    """Ops in order along the rows: tensors ``0..inputs-1`` come from outside, op ``k`` writes
    tensor ``inputs + k`` and reads ``reads[k]``, each a (tensor, window) pair; the last op's
    result is the output. A chain is the graph whose op ``k`` reads tensor ``k`` alone."""

    inputs: int
    reads: tuple[tuple[tuple[int, RowWindow], ...], ...]

    def __post_init__(self):
        if not self.reads:
            raise ValueError("an empty chain")
        for k, reads in enumerate(self.reads):
            if not reads or len({w.out_rows for _, w in reads}) != 1:
                raise ValueError(f"op {k} must read at least one tensor, every window writing the same rows")
            for t, window in reads:
                if not 0 <= t < self.inputs + k:
                    raise ValueError(f"op {k} reads tensor {t}, which is not written before it")
                height = self.height_of(t)
                if height != window.in_rows:
                    writer = f"op {t - self.inputs} writes" if t >= self.inputs else f"input {t} has"
                    raise ValueError(f"{writer} {height} rows, op {k} reads {window.in_rows}")

    @classmethod
    def chain(cls, windows: Sequence[RowWindow]) -> RowGraph:
        return cls(1, tuple(((k, w),) for k, w in enumerate(windows)))

    @property
    def height(self) -> int:
        """Rows of the output."""
        return self.reads[-1][0][1].out_rows

    def height_of(self, tensor: int) -> int:
        """Rows of a tensor: those its op writes, or an input's as its first reader reads it
        (every reader must read as many)."""
        if tensor >= self.inputs:
            return self.reads[tensor - self.inputs][0][1].out_rows
        first = next((w for reads in self.reads for t, w in reads if t == tensor), None)
        if first is None:
            raise ValueError(f"input {tensor} is read by no op")
        return first.in_rows

    @property
    def intermediates(self) -> range:
        """The tensors ops write, the output left out."""
        return range(self.inputs, self.inputs + len(self.reads) - 1)


Chain = Sequence[RowWindow] | RowGraph
"""A chain's windows, or a row graph."""


def _graph(chain: Chain) -> RowGraph:
    return chain if isinstance(chain, RowGraph) else RowGraph.chain(chain)


def chain_rows(chain: Chain, rows: Rows) -> list[Rows]:
    """The rows of every tensor (the inputs first, the output last) that output ``rows`` of
    the last op need: for a tensor several ops read, the hull of what they read (a range
    they read that holds padding only, ``(k, k)``, adds no row)."""
    graph = _graph(chain)
    needed: list[Rows | None] = [None] * (graph.inputs + len(graph.reads))
    needed[-1] = rows
    for k in reversed(range(len(graph.reads))):
        out = needed[graph.inputs + k]
        if out is None:
            continue
        for t, window in graph.reads[k]:
            read = window.reads(out)
            needed[t] = read if needed[t] is None else _hull(needed[t], read)
    return [(0, 0) if r is None else r for r in needed]


def _hull(a: Rows, b: Rows) -> Rows:
    if b[1] <= b[0]:
        return a
    if a[1] <= a[0]:
        return b
    return min(a[0], b[0]), max(a[1], b[1])


def tiles(chain: Chain, tile_rows: int) -> list[list[Rows]]:
    """The tiles of ``tile_rows`` output rows that cover the chain's output, top to bottom
    (the last one shorter when the rows do not divide), each as ``chain_rows``."""
    if tile_rows < 1:
        raise ValueError(f"a tile has at least one row, not {tile_rows}")
    graph = _graph(chain)
    height = graph.height
    return [chain_rows(graph, (lo, min(lo + tile_rows, height))) for lo in range(0, height, tile_rows)]


def rolling_tiles(chain: Chain, tile_rows: int) -> list[list[Rows]]:
    """The tiles of ``tile_rows`` output rows, top to bottom, each as the rows of every tensor
    (inputs first) that it computes and no earlier tile did: ``[hi', hi)``, ``hi`` the end of
    the rows the outputs so far need (``chain_rows`` of ``(0, end)``), ``hi'`` the previous
    tile's. A range may be empty (the tile needs no new row of that tensor); an input's rows
    are its new rows to read. Every row a tile's op reads was computed by then."""
    if tile_rows < 1:
        raise ValueError(f"a tile has at least one row, not {tile_rows}")
    graph = _graph(chain)
    height = graph.height
    done = [0] * (graph.inputs + len(graph.reads))
    schedule = []
    for lo in range(0, height, tile_rows):
        ends = [hi for _, hi in chain_rows(graph, (0, min(lo + tile_rows, height)))]
        schedule.append([(d, max(d, e)) for d, e in zip(done, ends)])
        done = [max(d, e) for d, e in zip(done, ends)]
    return schedule


def recomputed_rows(chain: Chain, tile_rows: int) -> int:
    """Rows of the chain's intermediate tensors computed more than once over all tiles (the
    halos): the rows the tiles compute minus each tensor's height."""
    graph = _graph(chain)
    schedule = tiles(graph, tile_rows)
    inner = graph.intermediates
    computed = sum(tile[t][1] - tile[t][0] for tile in schedule for t in inner)
    return computed - sum(graph.height_of(t) for t in inner)


def tile_bytes(chain: list[RowWindow], row_bytes: list[int], tile_rows: int) -> int:
    """On-chip bytes of the largest tile, the chain's input and output held whole: while op
    ``i`` runs, the tile's rows of its input and of its output are live (an intermediate's
    rows live from the op writing them to the op reading them). ``row_bytes[i]`` is a row of
    tensor ``i`` (input first)."""
    if len(row_bytes) != len(chain) + 1:
        raise ValueError(f"{len(chain) + 1} tensors, {len(row_bytes)} row sizes")
    whole = chain[0].in_rows * row_bytes[0] + chain[-1].out_rows * row_bytes[-1]
    largest = 0
    for tile in tiles(chain, tile_rows):
        held = [(hi - lo) * size for (lo, hi), size in zip(tile, row_bytes)]
        held[0] = held[-1] = 0  # held whole, counted once
        largest = max(largest, max(held[i] + held[i + 1] for i in range(len(chain))))
    return whole + largest


def largest_tile(chain: list[RowWindow], row_bytes: list[int], budget: int) -> int | None:
    """The most output rows per tile whose ``tile_bytes`` fit ``budget`` (a tile's windows
    only grow with its rows), or None when one row does not fit."""
    height = chain[-1].out_rows
    if tile_bytes(chain, row_bytes, 1) > budget:
        return None
    lo, hi = 1, height  # tile_bytes(lo) fits
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if tile_bytes(chain, row_bytes, mid) <= budget:
            lo = mid
        else:
            hi = mid - 1
    return lo
