"""The shortcuts that keep ``nn-place``'s many builds cheap give what the long way gives.

The DMA ops and views are built by ``Operation.__init__`` on flat lists, some attributes
and packings are cached, and ``functions`` does not search function bodies: each is
checked here against the IRDL builder, an uncached computation or a full walk.
"""

import io
import math
from dataclasses import replace

from xdsl.dialects import func
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, IntegerType, ModuleOp, TensorType, f32, i64
from xdsl.ir import Block, Region
from xdsl.irdl import IRDLOperation
from xdsl.printer import Printer

from cfmem.dialects.nn_dma import DmaBufferOp, DmaStartOp, DmaWaitOp
from cfmem.dialects.nn_weights import ViewOp
from cfmem.dialects.types import element_bytes, tensor_bytes
from cfmem.ir_io import load_module
from cfmem.passes.insert_dma import packed_offsets
from cfmem.passes.liveness import functions
from cfmem.passes.place_measure import Config
from cfmem.passes.place_search import _Search

from conftest import EXAMPLES


def _text(op) -> str:
    out = io.StringIO()
    Printer(stream=out, print_generic_format=True).print_op(op)
    return out.getvalue()


def _weights_of(path):
    module, _ = load_module(path)
    return module, [op.result for op in module.walk() if isinstance(op, ViewOp)]


def test_the_flat_constructors_build_what_the_irdl_builder_builds():
    module, views = _weights_of(EXAMPLES / "wakeword.mlir")
    sources = views[:3]
    offsets, size = packed_offsets(sources, 64)

    buffer = DmaBufferOp(size)
    long_buffer = DmaBufferOp.__new__(DmaBufferOp)
    IRDLOperation.__init__(long_buffer, result_types=[TensorType(IntegerType(8), [size])])
    assert _text(buffer) == _text(long_buffer)

    start = DmaStartOp(sources, buffer.result, offsets)
    long_start = DmaStartOp.__new__(DmaStartOp)
    IRDLOperation.__init__(
        long_start,
        operands=[sources, buffer.result],
        result_types=[start.token.type],
        properties={"offsets": DenseArrayBase.from_list(i64, offsets)},
    )
    assert list(start.sources) == list(long_start.sources) and start.buffer is long_start.buffer
    assert start.properties == long_start.properties and start.byte_offsets == tuple(offsets)

    wait = DmaWaitOp(start)
    long_wait = DmaWaitOp.__new__(DmaWaitOp)
    IRDLOperation.__init__(long_wait, operands=[start.token], result_types=[[s.type for s in sources]])
    assert [r.type for r in wait.results] == [r.type for r in long_wait.results] == [s.type for s in sources]
    for op in (buffer, start, wait):
        op.verify()

    root = views[0].owner
    view = ViewOp(root.source, 128, TensorType(f32, [4]))
    long_view = ViewOp.__new__(ViewOp)
    IRDLOperation.__init__(
        long_view,
        operands=[root.source],
        result_types=[TensorType(f32, [4])],
        properties={"offset": IntegerAttr(128, i64), "length": IntegerAttr(16, i64)},
    )
    assert view.properties == long_view.properties and view.source is long_view.source
    assert _text(view) == _text(long_view)


def test_packed_offsets_depend_on_types_and_align_only():
    _, views = _weights_of(EXAMPLES / "wakeword.mlir")
    a, b = views[0], views[1]

    def uncached(values, align):  # the packing, spelled out
        offsets, top = [], 0
        for v in values:
            unit = math.lcm(align, element_bytes(v.type.get_element_type()))
            start = -(-top // unit) * unit
            offsets.append(start)
            top = -(-(start + tensor_bytes(v.type)) // align) * align
        return offsets, top

    for align in (64, 3, 1):
        for values in ([a, b], [b, a], [a], [a, a]):
            assert packed_offsets(values, align) == uncached(values, align)
            assert packed_offsets(values, align) == uncached(values, align)  # answered from the cache


def test_functions_are_those_a_full_walk_finds():
    module, _ = load_module(EXAMPLES / "denoise.mlir")
    inner = ModuleOp([])
    declared = func.FuncOp.external("declared", [], [])
    nested = func.FuncOp("nested", ((), ()), Region(Block()))
    nested.body.block.add_op(func.ReturnOp())
    inner.body.block.add_op(nested)
    module.body.block.add_ops([declared, inner])
    walked = [op for op in module.walk() if isinstance(op, func.FuncOp) and op.body.blocks]
    assert functions(module) == walked
    assert nested in walked and declared not in walked


def test_a_move_is_seen_by_the_next_measure_whatever_was_measured_before():
    """Measures in one order, with every cache warm, equal measures taken fresh: a placement's
    weight places and slice counts (cached per config) and the attributes, types and packings
    cached across builds never carry one placement's state into the next."""
    from test_place_mutants import THREE_LAYERS, placement_search

    search, keys = placement_search(THREE_LAYERS, 10**6)
    a, c = keys["a"], keys["c"]
    base = Config(depth=2)
    moved = [
        base,
        base.with_weight(a, "offchip"),
        base.with_weight(a, "offchip").with_weight(a, "stream"),  # back: the same as base
        base.with_slices(c, 2),
        base.with_slices(c, 4),
        base.with_weight(a, "resident"),
        replace(base, depth=3),
        replace(base, offchip=frozenset({a}), prefetch=frozenset({a})),
    ]
    warm = [search.measure(config) for config in moved]
    assert warm[2] is warm[0] and warm[1].cycles != warm[0].cycles and warm[3].need != warm[4].need
    for config, seen in zip(moved, warm):
        fresh = _Search(search.module, "main", search.chip, 10**6, search.slicer).measure(config)
        assert (fresh.need, fresh.cycles, fresh.work, fresh.peak, fresh.peak_ops) == (
            seen.need, seen.cycles, seen.work, seen.peak, seen.peak_ops
        ), config
        assert config.weight_of(a) == dict(config.weights).get(a, "stream")
        assert config.slices_of(c) == dict(config.slices).get(c, 1)
