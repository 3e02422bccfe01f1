"""The chains of nn ops a tile of rows can flow through, read from a block: each op as a
``cfmem.planning.tiling.RowWindow`` along the rows (H of NCHW) of its operand 0.

An op has a row window when a tile of its result's rows is computed from a window of its
input's rows alone: a convolution (float or int8, any groups), a max or average pool, a
constant pad, a unary elementwise op (float, or an int8 table lookup), a quantize or
dequantize whose parameters are not per row, a binary elementwise op (float or int8)
whose other operand is the same for every row (it has one row or fewer than three axes), and
a reshape or transpose that keeps the last two axes (a channel shuffle). The rows are the
second-to-last axis of a tensor of four or more axes (H of NCHW; a channel shuffle's
five-axis intermediate keeps H there too). A residual add, and a concatenation along the
channels, read several tensors on the rows they write (``row_reads``). A chain is a run of such
ops in which each result is read by the next op only, as its operand 0, or a group of them that
branches and joins again (``spatial_chains``); the intermediates of a chain are what tiling
keeps off the chip whole. When the run's last
result is read only by a sum, mean, max or min over axes that include the rows, that
reduction ends the chain (each tile reduced on its own, the partial results combined), and
no tensor of the chain is ever whole. Otherwise its last result is whole beside its tiles'
parts, so the run ends where that costs least (``cheapest_end``): an int8 run that ends in a
dequantize ends before it.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Block, Operation, SSAValue, Use

from cfmem.dialects.nn_compute import (
    ConcatOp,
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
from cfmem.dialects.nn_quant import DequantizeOp, QBinaryOp, QConcatOp, QLookupOp, QuantizeOp
from cfmem.dialects.nn_weights import ReshapeOp
from cfmem.dialects.types import static_shape, tensor_bytes
from cfmem.passes.insert_dma import all_blocks
from cfmem.passes.liveness import functions
from cfmem.planning.tiling import RowGraph, RowWindow, recomputed_rows


@dataclass(frozen=True)
class SpatialChain:
    """Ops of a block computed one after the other along the rows: a run in which each op
    reads the last one's result, or a graph of them (``RowGraph``)."""

    ops: tuple[Operation, ...]
    graph: RowGraph
    """Each op along the rows of the tensors it reads."""
    operands: tuple[tuple[int, ...], ...]
    """For each op, the operand each of its ``graph.reads`` is (the graph's inputs are the
    tensors from outside the chain, read whole)."""
    row_bytes: tuple[int, ...]
    """Bytes of one row of each tensor, the inputs first (every image of the batch and every
    channel)."""
    reduction: Operation | None = None
    """The reduction over the rows that reads the last result (``ROW_REDUCTIONS``), if it ends the chain."""

    @property
    def windows(self) -> tuple[RowWindow, ...]:
        """Each op along the rows of the first tensor it reads."""
        return tuple(reads[0][1] for reads in self.graph.reads)

    def tensor_bytes(self) -> list[int]:
        """Bytes of each tensor of the chain, the inputs first."""
        return [self.graph.height_of(t) * size for t, size in enumerate(self.row_bytes)]

    def tiled_bytes(self) -> int:
        """Bytes of the tensors no tile holds whole: the intermediates, and the last result
        when a reduction ends the chain."""
        sizes = self.tensor_bytes()
        held = [*self.graph.intermediates, *([len(sizes) - 1] if self.reduction is not None else [])]
        return sum(sizes[t] for t in held)


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


def spatial_chains(block: Block, shortest: int = 2, tile_rows: int | None = None, branching: bool = True) -> list[SpatialChain]:
    """The chains of ops with rows in ``block``, in block order, of at least ``shortest`` ops
    (a single op has no intermediate to keep off the chip).

    Ops are grouped with the ops that read their result when every reader reads it along the
    rows (``row_reads``). A group that branches and joins again (a residual block, a
    concatenation of branches) is cut into chains at tensors where every other tensor of the
    group before it is dead (``_cuts``): each chain reads the tensors before it whole and ends
    at the cut whose tensor holds the fewest bytes among those that keep its recomputed halos
    at most ``MAX_RECOMPUTE`` of its rows in tiles of ``tile_rows`` output rows (half its rows
    when not given). The other ops form runs, each op reading the last one's
    result alone as its operand 0, each run one chain ending where ``cheapest_end`` says.
    ``branching`` False: runs only, a group that branches left to the runs inside it."""
    reads = {op: r for op in block.ops if (r := row_reads(op)) is not None}
    chains: list[SpatialChain] = []
    for ops in _groups(block, reads) if branching else []:
        if not _is_run(ops, reads):
            chains += _graph_chains(ops, reads, shortest, tile_rows)
    taken = {op for chain in chains for op in chain.ops}

    def reads_operand_0(op: Operation) -> bool:
        return op in reads and op not in taken and [i for i, _ in reads[op]] == [0]

    for op in block.ops:
        if reads_operand_0(op):
            run = [op]
            while (following := _only_reader(run[-1])) is not None and reads_operand_0(following):
                run.append(following)
            taken.update(run)
            chains += _run_chain(run, reads, shortest)
    order = {op: k for k, op in enumerate(block.ops)}
    return sorted(chains, key=lambda chain: order[chain.ops[0]])


MAX_RECOMPUTE = 0.5
"""The most rows of a branching chain's intermediates its tiles compute again, as a fraction of their rows."""


def row_reads(op: Operation) -> tuple[tuple[int, RowWindow], ...] | None:
    """The operands ``op`` reads along the rows, each with its window: operand 0 when the op
    has a ``row_window``; every operand with rows of an elementwise op or a concatenation that
    writes the same rows as it reads (``_aligned``); None otherwise."""
    if (window := row_window(op)) is not None:
        return ((0, window),)
    return _aligned(op)


def _aligned(op: Operation) -> tuple[tuple[int, RowWindow], ...] | None:
    """An elementwise op whose operands with rows have the result's rows and axes, the others
    the same for every row; or a concatenation of tensors with the result's rows and axes
    (so not along the rows)."""
    if len(op.results) != 1 or not op.operands or (y := _with_rows(op.results[0].type)) is None:
        return None
    if isinstance(op, ElementwiseBinaryOp | QBinaryOp):
        positions = [i for i, v in enumerate(op.operands) if not _row_invariant(v.type)]
    elif isinstance(op, ConcatOp | QConcatOp):  # along another axis than the rows: they keep their count
        positions = list(range(len(op.operands)))
    else:
        return None
    shapes = [_with_rows(op.operands[i].type) for i in positions]
    if not positions or any(x is None or len(x) != len(y) or x[-2] != y[-2] for x in shapes):
        return None
    return tuple((i, RowWindow(y[-2], y[-2])) for i in positions)


def _along_rows(use: Use, reads: dict[Operation, tuple]) -> bool:
    """Whether ``use`` reads its value along the rows (an operand of the reader's ``row_reads``)."""
    return use.index in {i for i, _ in reads.get(use.operation, ())}


def _groups(block: Block, reads: dict[Operation, tuple]) -> list[list[Operation]]:
    """The ops with rows joined to the readers of their result when every use reads it along
    the rows, in block order."""
    parent = {op: op for op in reads}

    def root(op: Operation) -> Operation:
        while parent[op] is not op:
            parent[op] = op = parent[parent[op]]
        return op

    for op in reads:
        uses = list(op.results[0].uses)
        if uses and all(_along_rows(u, reads) for u in uses):
            for use in uses:
                parent[root(use.operation)] = root(op)
    groups: dict[Operation, list[Operation]] = {}
    for op in block.ops:
        if op in reads:
            groups.setdefault(root(op), []).append(op)
    return list(groups.values())


def _is_run(ops: list[Operation], reads: dict[Operation, tuple]) -> bool:
    """Each op reads one tensor along the rows, the last op's result (the first op: any)."""
    return all(len(reads[op]) == 1 for op in ops) and all(
        op.operands[reads[op][0][0]] is before.results[0] for before, op in zip(ops, ops[1:])
    )


def _run_chain(ops: list[Operation], reads: dict[Operation, tuple], shortest: int) -> list[SpatialChain]:
    """A run as one chain: it ends in the reduction that reads its last result, or at ``cheapest_end``."""
    reduction = _row_reduction(ops[-1])
    if len(ops) + (reduction is not None) < shortest:
        return []
    tensors = [ops[0].operands[reads[ops[0]][0][0]], *(o.results[0] for o in ops)]
    end = len(ops) if reduction is not None else cheapest_end([tensor_bytes(v.type) for v in tensors], shortest)
    return [_chain(ops[:end], reads, reduction if end == len(ops) else None)]


def _graph_chains(ops: list[Operation], reads: dict[Operation, tuple], shortest: int, tile_rows: int | None) -> list[SpatialChain]:
    """A branching group cut into chains (see ``spatial_chains``), first to last."""
    cuts = _cuts(ops, reads)
    chains: list[SpatialChain] = []
    start = 0
    while start < len(ops):
        allowed: list[SpatialChain] = []
        for end in (c for c in cuts if c - start + 1 >= shortest and c >= start):
            chain = _chain(ops[start : end + 1], reads, _row_reduction(ops[end]) if end == len(ops) - 1 else None)
            rows = tile_rows or -(-chain.graph.height // 2)
            if chain.graph.height <= rows:
                continue
            recomputed = recomputed_rows(chain.graph, rows)
            if recomputed <= MAX_RECOMPUTE * sum(chain.graph.height_of(t) for t in chain.graph.intermediates) and _held_tiled(chain) < _held_whole(chain):
                allowed.append(chain)
        if allowed:
            best = min(allowed, key=lambda c: (0 if c.reduction is not None else tensor_bytes(c.ops[-1].results[0].type), -len(c.ops)))
            chains.append(best)
            start += len(best.ops)
        else:
            start = next((c for c in cuts if c >= start), len(ops)) + 1
    return chains


def _held_tiled(chain: SpatialChain) -> int:
    """Bytes a tiled chain holds whole: its inputs, and its last result twice (whole, and in its
    tiles' parts) unless a reduction ends it."""
    graph, sizes = chain.graph, chain.tensor_bytes()
    return sum(sizes[: graph.inputs]) + (0 if chain.reduction is not None else 2 * sizes[-1])


def _held_whole(chain: SpatialChain) -> int:
    """The most bytes the chain's tensors hold at one op when computed whole: each from the op
    writing it (an input: from the start) to the last op reading it."""
    graph, sizes = chain.graph, chain.tensor_bytes()
    last_read = {t: k for k, reads in enumerate(graph.reads) for t, _ in reads}
    peak = 0
    for k in range(len(graph.reads)):
        written = graph.inputs + k
        live = [t for t in range(written + 1) if t == written or last_read.get(t, -1) >= k]
        peak = max(peak, sum(sizes[t] for t in live))
    return peak


def _cuts(ops: list[Operation], reads: dict[Operation, tuple]) -> list[int]:
    """The ops after which no result of the group's earlier ops is read again, by the group
    or by anything else: a chain can end there, its last result the only one that lives on.
    A result an op of the group reads other than along the rows (a squeeze-and-excite scale
    of one row) counts as read outside it: only a chain's last result may be."""
    index = {op: k for k, op in enumerate(ops)}
    cuts, reach = [], -1
    for k, op in enumerate(ops):
        if reach <= k:
            cuts.append(k)
        uses = [index.get(u.operation) if _along_rows(u, reads) else None for u in op.results[0].uses]
        reach = max(reach, len(ops) if None in uses else max(uses, default=k))
    return cuts


def _chain(ops: list[Operation], reads: dict[Operation, tuple], reduction: Operation | None) -> SpatialChain:
    """``ops`` as a chain: the tensors they read that no op of them writes are its inputs."""
    made = {op.results[0]: k for k, op in enumerate(ops)}
    inputs: list[SSAValue] = []
    for op in ops:
        for i, _ in reads[op]:
            if op.operands[i] not in made and op.operands[i] not in inputs:
                inputs.append(op.operands[i])
    tensor = {v: t for t, v in enumerate(inputs)} | {v: len(inputs) + k for v, k in made.items()}
    graph = RowGraph(len(inputs), tuple(tuple((tensor[op.operands[i]], w) for i, w in reads[op]) for op in ops))
    values = [*inputs, *made]
    row_bytes = tuple(tensor_bytes(v.type) // _with_rows(v.type)[-2] for v in values)
    return SpatialChain(tuple(ops), graph, tuple(tuple(i for i, _ in reads[op]) for op in ops), row_bytes, reduction)


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


def module_chains(module: ModuleOp, shortest: int = 2, tile_rows: int | None = None, branching: bool = True) -> list[SpatialChain]:
    """``spatial_chains`` of every block of every function of ``module`` (if branches and loop
    bodies included)."""
    blocks = [block for fn in functions(module) for block in all_blocks(fn.body.block)]
    return [c for block in blocks for c in spatial_chains(block, shortest, tile_rows, branching)]


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
