"""``nn-tile-rows``: compute each chain of row-tileable ops (``cfmem.passes.spatial_chains``)
tile by tile, so no intermediate of the chain is ever whole.

Each tile of ``tile-rows`` rows of the chain's last output becomes a copy of the chain on the
rows it needs (``cfmem.planning.tiling.chain_rows``): the chain's input sliced to its rows
(``nn.slice``), every op with the padding its window reads at the tensor's borders (a
convolution's or pool's ``pads``, a pad's ``pads``) and its result cut to the tile's rows; the
tiles' outputs are joined along the rows, which replaces the chain's result: by an
``nn.concat``, or for an int8 result by an ``nn.qconcat`` with the same parameters for every
input and the output (scale 1, zero point 0: each value passes through exactly). A chain
that ends in a reduction over the rows reduces each tile as it is computed and combines the
partial results (``nn.add``, ``nn.max``, ``nn.min``; a mean is the sum of the tiles' sums
divided by the count once), so its last result is never whole either; a sum or mean then adds
in another order. Halos between tiles are recomputed (``halo=recompute``) or each row is
computed once and the halo rows later tiles read are kept (``halo=roll``). The tiles are
ordinary nn ops: liveness, DMA and the memory plan see a tile's intermediates die at its end,
and the planner reuses their bytes for the next tile. Each new op is verified, so a window
that disagreed with an op's shape rule would fail here.

Assumptions: tensors are tiled along their second-to-last axis (H of NCHW, ``rows_axis``); a chain whose last result is neither a
float nor an 8-bit tensor, or one with a tile whose window holds no input row, is left as it
is.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, Float16Type, Float32Type, IntegerAttr, ModuleOp, TensorType, f32, i64
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from cfmem.dialects.nn_compute import (
    AddOp,
    ConcatOp,
    ConstantOp,
    ConvWindowOp,
    DivOp,
    MaxOp,
    MinOp,
    PadOp,
    Pool2dOp,
    ReduceMaxOp,
    ReduceMeanOp,
    ReduceMinOp,
    ReduceSumOp,
    SliceOp,
    i64_array,
)
from cfmem.dialects.nn_quant import QUANT_TYPES, QConcatOp, f32_array
from cfmem.dialects.types import static_shape
from cfmem.passes.options import checked_options
from cfmem.passes.spatial_chains import SpatialChain, module_chains, rows_axis
from cfmem.planning.option_checks import check_int
from cfmem.planning.tiling import RowGraph, Rows, RowWindow, rolling_tiles, tiles

HALOS = ("recompute", "roll")
"""How a tile gets the rows its neighbour also reads: computed again, or kept from the neighbour."""


@dataclass(frozen=True)
class TileRowsPass(ModulePass):
    """Options: ``tile-rows`` (output rows per tile, at least 1; a chain with no more rows is
    left whole), ``halo`` (``recompute``, the default: every tile computes each tensor on all
    the rows it needs; ``roll``: only the rows no earlier tile computed, the others read from
    the earlier tiles' results), ``shortest`` (the fewest ops of a chain tiled, default 2) and
    ``branching`` (true, the default: chains may branch and join, as in a residual block; false:
    runs of ops each reading the last one's result only)."""

    name = "nn-tile-rows"
    tile_rows: int = 0
    halo: str = "recompute"
    shortest: int = 2
    branching: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        with checked_options():
            check_int("tile-rows", self.tile_rows, 1)
            check_int("shortest", self.shortest, 1)
            if self.halo not in HALOS:
                raise ValueError(f"halo must be one of {', '.join(HALOS)}, not {self.halo!r}")
        for chain in module_chains(op, self.shortest, self.tile_rows, self.branching):  # disjoint: tiling one leaves the others as found
            tile_chain(chain, self.tile_rows, self.halo == "roll")


Piece = tuple[int, int, SSAValue]
"""Rows ``[lo, hi)`` of a tensor of the chain, held by a value."""


def tile_chain(chain: SpatialChain, tile_rows: int, roll: bool = False) -> bool:
    """Replace ``chain`` by its tiles of ``tile_rows`` output rows (``roll``: each tensor's rows
    computed once, ``rolling_tiles``; else halos recomputed, ``tiles``); False (nothing
    changed) when it has no more rows, its result is neither a float nor an 8-bit tensor, or an
    op of a tile would read no input row."""
    if not tileable(chain, tile_rows, roll):
        return False
    graph = chain.graph
    last = chain.ops[-1]
    schedule = (rolling_tiles if roll else tiles)(graph, tile_rows)
    new_ops: list[Operation] = []
    kept: list[list[Piece]] = [[(0, _rows(v), v)] for v in _inputs(chain)] + [[] for _ in chain.ops]
    """Rows of each tensor that earlier tiles computed and later ones read (the rolling buffers)."""
    readers = _readers(graph)
    reduction = chain.reduction
    outputs: list[SSAValue] = []
    total: SSAValue | None = None
    for t, tile in enumerate(schedule):
        made: dict[int, Piece] = {}
        keeping: dict[int, list[Piece]] = {}
        later = {j: _first_read_later(readers[j], schedule, t) if roll else None for j in graph.intermediates}
        """The first row of each intermediate a later tile reads (None: none, or halos recomputed)."""
        for k, op in enumerate(chain.ops):
            j = graph.inputs + k
            rows = tile[j]
            if rows[1] <= rows[0]:
                continue
            values = {
                position: _gather_rows([*kept[i], *([made[i]] if i in made else [])], window.reads(rows), new_ops, t)
                for position, (i, window) in zip(chain.operands[k], graph.reads[k])
            }
            result = _tile_op(op, graph.reads[k][0][1].padding(rows), values, rows, new_ops, t)
            made[j] = (*rows, result)
            if k == len(chain.ops) - 1:
                outputs.append(result)
                if reduction is not None:
                    total = _reduce_tile(reduction, result, total, new_ops, t)
            elif (first := later[j]) is not None and first < rows[1]:
                lo = max(first, rows[0])  # cut now, so the piece itself dies with this tile
                keeping[j] = [(lo, rows[1], _rows_of(result, (lo - rows[0], rows[1] - rows[0]), new_ops, t))]
        for j, first in later.items():
            kept[j] = [] if first is None else [p for p in kept[j] if p[1] > first] + keeping.get(j, [])
    result = (reduction or last).results[0]
    if reduction is None:
        new_ops.append(_join_rows(outputs, result.type))
    elif isinstance(reduction, ReduceMeanOp):  # the sum of every tile's sum, divided by the count
        count = prod(static_shape(last.results[0].type)[int(a) % 4] for a in reduction.axes.get_values())
        divisor = ConstantOp(DenseIntOrFPElementsAttr.from_list(TensorType(f32, [1]), [float(count)]))
        new_ops += [divisor, DivOp(total, divisor.results[0], result.type)]
    final = new_ops[-1].results[0]
    final.name_hint = result.name_hint
    for new in new_ops:
        new.verify()
    Rewriter.insert_op(new_ops, InsertPoint.before(last))
    result.replace_all_uses_with(final)
    for op in reversed([*chain.ops, *([reduction] if reduction is not None else [])]):
        Rewriter.erase_op(op)
    return True


def tileable(chain: SpatialChain, tile_rows: int, roll: bool = False) -> bool:
    """Whether ``tile_chain`` tiles ``chain``: it has more rows than a tile, its result is a
    float or an 8-bit tensor, and no op of a tile reads only padding."""
    graph = chain.graph
    element = chain.ops[-1].results[0].type.get_element_type()
    if graph.height <= tile_rows or not (isinstance(element, Float32Type | Float16Type) or element in QUANT_TYPES):
        return False
    schedule = (rolling_tiles if roll else tiles)(graph, tile_rows)
    return all(
        w.reads(rows)[1] > w.reads(rows)[0]
        for tile in schedule
        for k, reads in enumerate(graph.reads)
        if (rows := tile[graph.inputs + k])[1] > rows[0]
        for _, w in reads
    )


def _readers(graph: RowGraph) -> dict[int, list[tuple[int, RowWindow]]]:
    """For each tensor, the tensors that ops reading it write, with their windows."""
    readers: dict[int, list[tuple[int, RowWindow]]] = {}
    for k, reads in enumerate(graph.reads):
        for i, window in reads:
            readers.setdefault(i, []).append((graph.inputs + k, window))
    return readers


def _first_read_later(readers: list[tuple[int, RowWindow]], schedule: list[list[Rows]], t: int) -> int | None:
    """The first row of a tensor its ``readers`` (the tensor each writes, its window) read in
    a tile after ``t``, or None when no later tile runs one."""
    later = [w.reads(tile[j])[0] for tile in schedule[t + 1 :] for j, w in readers if tile[j][1] > tile[j][0]]
    return min(later, default=None)


def _inputs(chain: SpatialChain) -> list[SSAValue]:
    """The chain's inputs as its ops read them now (tiling an earlier chain replaces its result)."""
    found: dict[int, SSAValue] = {}
    for op, positions, reads in zip(chain.ops, chain.operands, chain.graph.reads):
        for position, (i, _) in zip(positions, reads):
            if i < chain.graph.inputs:
                found.setdefault(i, op.operands[position])
    return [found[i] for i in range(chain.graph.inputs)]


def _rows(value: SSAValue) -> int:
    return value.type.get_shape()[rows_axis(value.type)]


def _gather_rows(pieces: list[Piece], rows: Rows, new_ops: list[Operation], t: int) -> SSAValue:
    """Rows ``rows`` of a tensor from the pieces holding them: one piece cut to them, or the
    pieces' parts joined along the rows."""
    lo, hi = rows
    parts = [_rows_of(v, (max(lo, a) - a, min(hi, b) - a), new_ops, t) for a, b, v in pieces if max(lo, a) < min(hi, b)]
    if sum(p.type.get_shape()[rows_axis(p.type)] for p in parts) != hi - lo:
        raise ValueError(f"rows {lo}..{hi} are not all computed before tile {t} reads them")
    if len(parts) == 1:
        return parts[0]
    joined = _join_rows(parts, _with_rows(parts[0].type, hi - lo))
    joined.results[0].name_hint = f"{parts[-1].name_hint or 't'}_window"
    new_ops.append(joined)
    return joined.results[0]


def _reduce_tile(reduction: Operation, tile: SSAValue, total: SSAValue | None, new_ops: list[Operation], t: int) -> SSAValue:
    """``reduction`` of one tile (a sum for a mean: ``tile_chain`` divides once at the end),
    combined with the earlier tiles' ``total``."""
    kind = ReduceSumOp if isinstance(reduction, ReduceMeanOp) else type(reduction)
    result_type = reduction.results[0].type
    part = kind.create(operands=[tile], result_types=[result_type], properties=dict(reduction.properties))
    part.results[0].name_hint = f"{reduction.results[0].name_hint or 'r'}_part{t}"
    new_ops.append(part)
    if total is None:
        return part.results[0]
    combine = _COMBINE[kind](total, part.results[0], result_type)
    combine.results[0].name_hint = f"{reduction.results[0].name_hint or 'r'}_upto{t}"
    new_ops.append(combine)
    return combine.results[0]


_COMBINE = {ReduceSumOp: AddOp, ReduceMaxOp: MaxOp, ReduceMinOp: MinOp}


def _join_rows(parts: list[SSAValue], result_type: TensorType) -> Operation:
    """The tiles' results joined along the rows into ``result_type``."""
    axis = {"axis": IntegerAttr(rows_axis(result_type), i64)}
    element = result_type.get_element_type()
    if element not in QUANT_TYPES:
        return ConcatOp.create(operands=parts, result_types=[result_type], properties=axis)
    identity = {
        "element": element,
        "x_scale": f32_array([1.0] * len(parts)),
        "x_zero_point": i64_array([0] * len(parts)),
        "y_scale": f32_array([1.0]),
        "y_zero_point": i64_array([0]),
    }
    return QConcatOp.create(operands=parts, result_types=[result_type], properties={**axis, **identity})


def _rows_of(value: SSAValue, rows: Rows, new_ops: list[Operation], t: int) -> SSAValue:
    """``value`` cut to ``rows`` (``value`` itself when they are all of its rows)."""
    lo, hi = rows
    shape = value.type.get_shape()
    axis = rows_axis(value.type)
    if (lo, hi) == (0, shape[axis]):
        return value
    props = {"starts": i64_array([lo]), "ends": i64_array([hi]), "axes": i64_array([axis])}
    cut = SliceOp.create(operands=[value], result_types=[_with_rows(value.type, hi - lo)], properties=props)
    cut.results[0].name_hint = f"{value.name_hint or 'in'}_rows{t}"
    new_ops.append(cut)
    return cut.results[0]


def _tile_op(op: Operation, padding: tuple[int, int], values: dict[int, SSAValue], rows: Rows, new_ops: list[Operation], t: int) -> SSAValue:
    """A copy of ``op`` reading ``values`` (operand position: its rows for this tile; the
    other operands as they are), with ``padding`` rows above and below its operand 0, writing
    ``rows`` of its result."""
    top, bottom = padding
    properties = dict(op.properties)
    pads = [int(v) for v in op.pads.get_values()] if isinstance(op, ConvWindowOp | Pool2dOp | PadOp) else []
    if isinstance(op, ConvWindowOp | Pool2dOp):
        properties["pads"] = i64_array([top, pads[1], bottom, pads[3]])
    elif isinstance(op, PadOp):
        half = len(pads) // 2
        pads[2], pads[half + 2] = top, bottom  # a pad in a chain has four axes (row_window)
        properties["pads"] = i64_array(pads)
    result_type = _with_rows(op.results[0].type, rows[1] - rows[0])
    copy = type(op).create(
        operands=[values.get(i, v) for i, v in enumerate(op.operands)], result_types=[result_type], properties=properties,
        attributes=dict(op.attributes),
    )  # fmt: skip
    copy.results[0].name_hint = f"{op.results[0].name_hint or 't'}_tile{t}"
    new_ops.append(copy)
    return copy.results[0]


def _with_rows(ty: TensorType, rows: int) -> TensorType:
    shape = list(ty.get_shape())
    shape[rows_axis(ty)] = rows
    return TensorType(ty.get_element_type(), shape)
