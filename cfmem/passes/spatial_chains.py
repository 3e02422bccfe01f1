"""The chains of nn ops a tile of rows can flow through, read from a block: each op as a
``cfmem.planning.tiling.RowWindow`` along the rows (H of NCHW) of its operand 0.

An op has a row window when a tile of its result's rows is computed from a window of its
input's rows alone: a convolution (float or int8, any groups), a max or average pool, a
constant pad, a unary elementwise op (float, or an int8 table lookup), a quantize or
dequantize whose parameters are not per row, a binary elementwise op (float or int8)
whose other operand is the same for every row (it has one row or fewer than three axes), and
a reshape or transpose that keeps the last two axes (a channel shuffle). The rows are the
second-to-last axis of a tensor of four or more axes (H of NCHW; a channel shuffle's
five-axis intermediate keeps H there too). A
chain is a run of such ops in which each result is read by the next op only, as its operand 0;
the intermediates of a chain are what tiling keeps off the chip whole. When the run's last
result is read only by a sum, mean, max or min over axes that include the rows, that
reduction ends the chain (each tile reduced on its own, the partial results combined), and
no tensor of the chain is ever whole. Otherwise its last result is whole beside its tiles'
parts, so the run ends where that costs least (``cheapest_end``): an int8 run that ends in a
dequantize ends before it.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Block, Operation

from cfmem.dialects.nn_compute import (
    ConvWindowOp,
    ElementwiseBinaryOp,
    ElementwiseUnaryOp,
    PadOp,
    Pool2dOp,
    ReduceMaxOp,
    ReduceMeanOp,
    ReduceMinOp,
    ReduceSumOp,
    TransposeOp,
)
from cfmem.dialects.nn_quant import DequantizeOp, QBinaryOp, QLookupOp, QuantizeOp
from cfmem.dialects.nn_weights import ReshapeOp
from cfmem.dialects.types import static_shape, tensor_bytes
from cfmem.passes.insert_dma import all_blocks
from cfmem.passes.liveness import functions
from cfmem.planning.tiling import RowWindow


@dataclass(frozen=True)
class SpatialChain:
    """Ops of a block computed one after the other, each reading the last one's result."""

    ops: tuple[Operation, ...]
    windows: tuple[RowWindow, ...]
    """Each op along the rows."""
    row_bytes: tuple[int, ...]
    """Bytes of one row of each tensor, the chain's input first (every image of the batch and
    every channel)."""
    reduction: Operation | None = None
    """The reduction over the rows that reads the last result (``ROW_REDUCTIONS``), if it ends the chain."""

    def tiled_bytes(self) -> int:
        """Bytes of the tensors no tile holds whole: the intermediates, and the last result
        when a reduction ends the chain."""
        last = len(self.windows) if self.reduction is not None else len(self.windows) - 1
        return sum(w.out_rows * size for w, size in zip(self.windows[:last], self.row_bytes[1:]))


ROW_REDUCTIONS = (ReduceSumOp, ReduceMeanOp, ReduceMaxOp, ReduceMinOp)


def row_window(op: Operation) -> RowWindow | None:
    """``op`` along the rows of its operand 0 and its result, or None when a tile of its rows
    needs more than a window of its input's rows (or either has no rows, ``rows_axis``)."""
    if len(op.results) != 1 or not op.operands:
        return None
    x, y = _with_rows(op.operands[0].type), _with_rows(op.results[0].type)
    if x is None or y is None:
        return None
    h_in, h_out = x[-2], y[-2]
    if isinstance(op, ReshapeOp | TransposeOp):
        return RowWindow(h_in, h_out) if _keeps_rows(op, x, y) else None
    if isinstance(op, ElementwiseUnaryOp | QLookupOp) and h_in == h_out:
        return RowWindow(h_in, h_out)
    if isinstance(op, ElementwiseBinaryOp | QBinaryOp) and h_in == h_out and all(_row_invariant(v.type) for v in op.operands[1:]):
        return RowWindow(h_in, h_out)
    if len(x) != 4 or len(y) != 4:
        return None
    if isinstance(op, ConvWindowOp):
        kernel = static_shape(op.operands[1].type)[2]
        return RowWindow(h_in, h_out, kernel, _first(op.strides), _first(op.dilations), _first(op.pads))
    if isinstance(op, Pool2dOp):
        return RowWindow(h_in, h_out, _first(op.kernel), _first(op.strides), _first(op.dilations), _first(op.pads))
    if isinstance(op, PadOp):
        before, _ = op.before_after()  # never negative (nn.pad's verifier)
        if op.mode.data != "constant" or len(before) != 4:
            return None
        return RowWindow(h_in, h_out, pad_top=before[2])
    if h_in == h_out and isinstance(op, QuantizeOp | DequantizeOp) and (op.axis.value.data % 4 != 2 or _per_tensor(op)):
        return RowWindow(h_in, h_out)
    return None


def _keeps_rows(op: ReshapeOp | TransposeOp, x: tuple[int, ...], y: tuple[int, ...]) -> bool:
    """A reshape or transpose that leaves the last two axes where they are, the same size: a
    tile of rows maps to the same rows of its result."""
    if isinstance(op, TransposeOp):
        rank = len(x)
        return [int(p) for p in op.perm.get_values()][-2:] == [rank - 2, rank - 1]
    return x[-2:] == y[-2:]


def _per_tensor(op: QuantizeOp | DequantizeOp) -> bool:
    scale = op.y_scale if isinstance(op, QuantizeOp) else op.x_scale
    return len(scale.get_values()) == 1


def spatial_chains(block: Block, shortest: int = 2) -> list[SpatialChain]:
    """The longest chains of ops with a row window in ``block``, in block order, of at least
    ``shortest`` ops (a single op has no intermediate to keep off the chip)."""
    windows = {op: w for op in block.ops if (w := row_window(op)) is not None}
    chains: list[SpatialChain] = []
    taken: set[Operation] = set()
    for op in block.ops:
        if op not in windows or op in taken:
            continue
        ops = [op]
        while (following := _only_reader(ops[-1])) is not None and following in windows:
            ops.append(following)
        taken.update(ops)
        reduction = _row_reduction(ops[-1])
        if len(ops) + (reduction is not None) >= shortest:
            tensors = [ops[0].operands[0], *(o.results[0] for o in ops)]
            end = len(ops) if reduction is not None else cheapest_end([tensor_bytes(v.type) for v in tensors], shortest)
            row_bytes = tuple(tensor_bytes(v.type) // _with_rows(v.type)[-2] for v in tensors[: end + 1])
            chains.append(SpatialChain(tuple(ops[:end]), tuple(windows[o] for o in ops[:end]), row_bytes, reduction))
    return chains


def _row_reduction(op: Operation) -> Operation | None:
    """The only reader of ``op``'s result when it is a ``ROW_REDUCTIONS`` op over axes that
    include the rows."""
    reader = _only_reader(op)
    if not isinstance(reader, ROW_REDUCTIONS) or _nchw(reader.operands[0].type) is None:
        return None
    return reader if 2 in {int(a) % 4 for a in reader.axes.get_values()} else None


def cheapest_end(sizes: list[int], shortest: int) -> int:
    """How many ops of a run over tensors of ``sizes`` bytes (op ``i`` reads tensor ``i`` and
    writes ``i + 1``) to tile, at least ``shortest``: ending at tensor ``k`` holds it twice (whole,
    and its tiles' parts) and computes the ops after it whole (an input and a result at once);
    the fewest bytes of the two, the longest run of equals."""
    def held(k: int) -> int:
        return max([2 * sizes[k], *(sizes[i] + sizes[i + 1] for i in range(k, len(sizes) - 1))])

    return min(range(shortest, len(sizes)), key=lambda k: (held(k), -k))


def module_chains(module: ModuleOp, shortest: int = 2) -> list[SpatialChain]:
    """``spatial_chains`` of every block of every function of ``module`` (if branches and loop
    bodies included)."""
    return [c for fn in functions(module) for block in all_blocks(fn.body.block) for c in spatial_chains(block, shortest)]


def _only_reader(op: Operation) -> Operation | None:
    """The op reading ``op``'s result, when it is the only use and reads it as operand 0 in
    the same block."""
    uses = list(op.results[0].uses)
    if len(uses) != 1 or uses[0].index != 0:
        return None
    reader = uses[0].operation
    return reader if reader.parent_block() is op.parent_block() else None


def rows_axis(ty: TensorType) -> int:
    """The axis of a chain's tensor that tiles cut: the second-to-last."""
    return len(ty.get_shape()) - 2


def _with_rows(ty) -> tuple[int, ...] | None:
    """The shape of a tensor with rows: four or more axes, at least one row."""
    if not isinstance(ty, TensorType):
        return None
    shape = static_shape(ty)
    return shape if len(shape) >= 4 and shape[-2] > 0 else None


def _nchw(ty) -> tuple[int, ...] | None:
    shape = _with_rows(ty)
    return shape if shape is not None and len(shape) == 4 else None


def _row_invariant(ty) -> bool:
    """A broadcast operand the same for every row: fewer than three axes, or one row."""
    if not isinstance(ty, TensorType):
        return False
    shape = static_shape(ty)
    return len(shape) < 3 or shape[-2] == 1


def _first(attr) -> int:
    return int(attr.get_values()[0])
