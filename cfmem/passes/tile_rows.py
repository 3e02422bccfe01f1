"""``nn-tile-rows``: compute each chain of row-tileable ops (``cfmem.passes.spatial_chains``)
tile by tile, so no intermediate of the chain is ever whole.

Each tile of ``tile-rows`` rows of the chain's last output becomes a copy of the chain on the
rows it needs (``cfmem.planning.tiling.chain_rows``): the chain's input sliced to its rows
(``nn.slice``), every op with the padding its window reads at the tensor's borders (a
convolution's or pool's ``pads``, a pad's ``pads``) and its result cut to the tile's rows; the
tiles' outputs are joined along the rows, which replaces the chain's result: by an
``nn.concat``, or for an int8 result by an ``nn.qconcat`` with the same parameters for every
input and the output (scale 1, zero point 0: each value passes through exactly). Halos between tiles are recomputed. The tiles are ordinary nn ops: liveness, DMA and
the memory plan see a tile's intermediates die at its end, and the planner reuses their bytes
for the next tile. Each new op is verified, so a window that disagreed with an op's shape
rule would fail here.

Assumptions: tensors are NCHW and tiled along H; a chain whose last result is neither a
float nor an 8-bit tensor, or one with a tile whose window holds no input row, is left as it
is.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import Float16Type, Float32Type, IntegerAttr, ModuleOp, TensorType, i64
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from cfmem.dialects.nn_compute import ConcatOp, ConvWindowOp, PadOp, Pool2dOp, SliceOp, i64_array
from cfmem.dialects.nn_quant import QUANT_TYPES, QConcatOp, f32_array
from cfmem.passes.options import checked_options
from cfmem.passes.spatial_chains import SpatialChain, module_chains
from cfmem.planning.option_checks import check_int
from cfmem.planning.tiling import Rows, tiles

ROWS = 2
"""The tiled axis of NCHW."""


@dataclass(frozen=True)
class TileRowsPass(ModulePass):
    """Options: ``tile-rows`` (output rows per tile, at least 1; a chain with no more rows is
    left whole) and ``shortest`` (the fewest ops of a chain tiled, default 2)."""

    name = "nn-tile-rows"
    tile_rows: int = 0
    shortest: int = 2

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        with checked_options():
            check_int("tile-rows", self.tile_rows, 1)
            check_int("shortest", self.shortest, 1)
        for chain in module_chains(op, self.shortest):  # disjoint: tiling one leaves the others as found
            tile_chain(chain, self.tile_rows)


def tile_chain(chain: SpatialChain, tile_rows: int) -> bool:
    """Replace ``chain`` by its tiles of ``tile_rows`` output rows; False (nothing changed) when
    it has no more rows, its result is neither a float nor an 8-bit tensor, or a tile would
    read no input row."""
    windows = list(chain.windows)
    last = chain.ops[-1]
    element = last.results[0].type.get_element_type()
    if windows[-1].out_rows <= tile_rows or not (isinstance(element, Float32Type | Float16Type) or element in QUANT_TYPES):
        return False
    schedule = tiles(windows, tile_rows)
    if any(hi <= lo for tile in schedule for lo, hi in tile[:-1]):
        return False
    new_ops: list[Operation] = []
    parts: list[SSAValue] = []
    source = chain.ops[0].operands[0]
    for t, tile in enumerate(schedule):
        value = _rows_of(source, tile[0], new_ops, t)
        for op, window, rows in zip(chain.ops, windows, tile[1:]):
            value = _tile_op(op, window.padding(rows), value, rows, new_ops, t)
        parts.append(value)
    result = last.results[0]
    concat = _join_rows(parts, result.type)
    concat.results[0].name_hint = result.name_hint
    new_ops.append(concat)
    for new in new_ops:
        new.verify()
    Rewriter.insert_op(new_ops, InsertPoint.before(last))
    result.replace_all_uses_with(concat.results[0])
    for op in reversed(chain.ops):
        Rewriter.erase_op(op)
    return True


def _join_rows(parts: list[SSAValue], result_type: TensorType) -> Operation:
    """The tiles' results joined along the rows into ``result_type``."""
    axis = {"axis": IntegerAttr(ROWS, i64)}
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
    if (lo, hi) == (0, shape[ROWS]):
        return value
    props = {"starts": i64_array([lo]), "ends": i64_array([hi]), "axes": i64_array([ROWS])}
    cut = SliceOp.create(operands=[value], result_types=[_with_rows(value.type, hi - lo)], properties=props)
    cut.results[0].name_hint = f"{value.name_hint or 'in'}_rows{t}"
    new_ops.append(cut)
    return cut.results[0]


def _tile_op(op: Operation, padding: tuple[int, int], value: SSAValue, rows: Rows, new_ops: list[Operation], t: int) -> SSAValue:
    """A copy of ``op`` reading ``value`` (its input's rows for this tile) with ``padding``
    rows above and below, writing ``rows`` of its result."""
    top, bottom = padding
    properties = dict(op.properties)
    pads = [int(v) for v in op.pads.get_values()] if isinstance(op, ConvWindowOp | Pool2dOp | PadOp) else []
    if isinstance(op, ConvWindowOp | Pool2dOp):
        properties["pads"] = i64_array([top, pads[1], bottom, pads[3]])
    elif isinstance(op, PadOp):
        half = len(pads) // 2
        pads[ROWS], pads[half + ROWS] = top, bottom
        properties["pads"] = i64_array(pads)
    result_type = _with_rows(op.results[0].type, rows[1] - rows[0])
    copy = type(op).create(
        operands=[value, *op.operands[1:]], result_types=[result_type], properties=properties,
        attributes=dict(op.attributes),
    )  # fmt: skip
    copy.results[0].name_hint = f"{op.results[0].name_hint or 't'}_tile{t}"
    new_ops.append(copy)
    return copy.results[0]


def _with_rows(ty: TensorType, rows: int) -> TensorType:
    shape = list(ty.get_shape())
    shape[ROWS] = rows
    return TensorType(ty.get_element_type(), shape)
