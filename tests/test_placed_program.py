"""``nn-place`` measures a straight-line function's placements from plain records
(``cfmem.planning.placed_program``, read by ``cfmem.passes.place_records``) instead of
building each as IR. These tests hold the two ways to the same answer: on random placements
of random graphs and of real models, the need, the latency, the compute on every path, the
tensors at the peak and the ops each DMA buffer there serves are equal, and a placement one
way cannot build the other way cannot either."""

from __future__ import annotations

import random

import pytest
from xdsl.utils.exceptions import PassFailedException

from cfmem.dialects.nn_compute import Conv2dOp, GemmOp, MatmulOp
from cfmem.dialects.nn_quant import QConv2dOp, QGemmOp
from cfmem.dma.events import Compute, Start, Wait
from cfmem.dma.timing import Chip
from cfmem.passes import place_search
from cfmem.passes.liveness import functions
from cfmem.passes.place import _keyed, place_module
from cfmem.passes.place_measure import KEY_ATTR, MAX_DEPTH, Config, PlacementError, _records, _slicer
from cfmem.passes.place_records import FunctionRecords, supports
from cfmem.passes.place_search import _Search
from cfmem.planning.placed_nodes import Flags, OpRecord, ValueInfo, Values
from cfmem.planning.placed_program import measure_program
from cfmem.testing.random_graphs import GraphShape, random_graph

SLICEABLE = (Conv2dOp, GemmOp, MatmulOp, QConv2dOp, QGemmOp)


def _random_config(search: _Search, rng: random.Random) -> Config:
    """A placement touching every kind of move: resident, off-chip and sliced weights, results
    off chip (read in place, prefetched, evicted), every rotation depth."""
    weights, slices = {}, {}
    for key in search.weighted:
        r = rng.random()
        if r < 0.2:
            weights[key] = "resident"
        elif r < 0.4:
            weights[key] = "offchip"
        elif r < 0.6 and isinstance(search.ops[key], SLICEABLE):
            slices[key] = rng.choice((2, 3, 4, 8, 64))
    offchip = [k for k in search.movable if rng.random() < 0.3]
    prefetch = [k for k in offchip if rng.random() < 0.5]
    evict = [k for k in prefetch if rng.random() < 0.5]
    return Config(
        depth=rng.randint(1, MAX_DEPTH),
        weights=tuple(sorted(weights.items())),
        slices=tuple(sorted(slices.items())),
        offchip=frozenset(offchip),
        prefetch=frozenset(prefetch),
        evict=frozenset(evict),
    )


def _outcome(measure, config):
    try:
        m = measure(config)
    except PassFailedException:
        return "cannot be built"
    return m.need, m.cycles, m.work, m.peak, m.peak_ops, m.ops


def _compare(module, placements: int, seed: int) -> int:
    """Measure ``placements`` random placements of every function of ``module`` both ways;
    returns how many functions were compared."""
    rng = random.Random(seed)
    compared = 0
    with _keyed(module):
        for fn in functions(module):
            if not supports(fn):
                continue
            name = fn.sym_name.data
            records = FunctionRecords(module, name, KEY_ATTR, slicing=True)
            search = _Search(module, name, Chip(), 1 << 40, _slicer(), None, {}, records)
            for k in range(placements):
                config = Config() if k == 0 else _random_config(search, rng)
                built = _outcome(search._measure_built, config)
                assert _outcome(search._measure_records, config) == built, config
            compared += 1
    return compared


SEEDS = range(6)
"""Random graphs of each kind: six run every line and branch of cfmem that twelve run."""


@pytest.mark.parametrize("seed", SEEDS)
def test_random_graphs_measure_the_same_from_records_as_built(seed):
    module = random_graph(seed, GraphShape(ops=24, ifs=0))
    assert _compare(module, 25, seed) == 1


@pytest.mark.parametrize("seed", SEEDS)
def test_random_graphs_with_nested_ifs_measure_the_same_from_records_as_built(seed):
    """Values from above read deep in branches, results yielded, each branch its own DMA
    segments, ifs between a block's segments."""
    module = random_graph(seed, GraphShape(ops=16, ifs=3, depth=2, min_depth=2))
    assert _compare(module, 25, seed) == 1


def _zoo_module(name: str):
    from cfmem.importers.onnx import import_onnx
    from cfmem.testing import onnx_models as om
    from cfmem.testing import zoo

    if not om.torch_available():
        pytest.skip("needs the torch extra")
    return import_onnx(zoo.float_model(name), blob_file="w.bin").module


@pytest.mark.parametrize("name", ["dscnn", "gru_kws"])
def test_zoo_models_measure_the_same_from_records_as_built(name):
    assert _compare(_zoo_module(name), 12, 1) == 1


def test_a_function_with_a_loop_is_built_and_one_with_ifs_alone_is_read_as_records():
    with_loop = random_graph(3, GraphShape(ops=10, ifs=0, loops=1))
    with_if = random_graph(3, GraphShape(ops=10, min_depth=1))
    straight = random_graph(3, GraphShape(ops=10, ifs=0))
    for module, expected in ((with_loop, False), (with_if, True), (straight, True)):
        with _keyed(module):
            name = functions(module)[0].sym_name.data
            assert (_records(module, name) is not None) is expected


@pytest.mark.parametrize("share, seed", [(0.6, 5), (0.6, 8), (0.3, 8)])
def test_a_search_chooses_the_same_placement_from_records_as_from_built_ir(monkeypatch, seed, share):
    """The whole search, at budgets where it must shrink, grow from the floor and finish: the
    same placement, need and latency both ways. (Seed 5 at 0.3 of its need runs no line or
    branch of cfmem that these three do not, at twice the time of seed 5 at 0.6.)"""
    module = random_graph(seed, GraphShape(ops=30, ifs=0))
    with _keyed(module):
        name = functions(module)[0].sym_name.data
        everything = _Search(module, name, Chip(), 0, None).measure(Config(depth=1))
    budget = int(everything.need * share)
    chosen = []
    for way in ("records", "built"):
        if way == "built":
            monkeypatch.setattr(place_search, "_records", lambda module, fn_name: None)
        try:
            (m,) = place_module(module.clone(), Chip(), budget).values()
            chosen.append((m.config, m.need, m.cycles))
        except PlacementError as err:
            chosen.append(("refused", err.need))
    assert chosen[0] == chosen[1]


def _two_convs(flags: dict[int, Flags], depth: int):
    """x -> op 0 (weight w0) -> a -> op 1 (weight w1) -> y, returned; sizes in bytes."""
    values = Values()
    x = values.add(ValueInfo(1000, 4, (250,), arg=True))
    w0 = values.add(ValueInfo(300, 4, (75,), "weight"))
    w1 = values.add(ValueInfo(100, 4, (25,), "weight"))
    a = values.add(ValueInfo(2000, 4, (500,)))
    y = values.add(ValueInfo(400, 4, (100,)))
    records = [
        OpRecord(None, "view w0", (), (w0,), defines_weight=True, event=False, index=0),
        OpRecord(None, "view w1", (), (w1,), defines_weight=True, event=False, index=1),
        OpRecord(0, "op0", (x, w0), (a,), macs=6400, movable=True, compute=True, weights=(w0,), index=2),
        OpRecord(1, "op1", (a, w1), (y,), macs=640, movable=True, compute=True, weights=(w1,), index=3),
        OpRecord(None, "return", (y,), (), event=False, terminator=True, index=4),
    ]
    return measure_program(records, values, flags, depth)


def test_two_ops_ping_pong_their_weights_and_the_peak_is_the_intermediate_and_both_buffers():
    placed = _two_convs({}, 2)
    kinds = [(type(e).__name__, getattr(e, "nbytes", getattr(e, "macs", None))) for e in placed.events.events]
    # op 1's transfer starts right after op 0's wait, before op 0 computes
    assert kinds == [("Start", 300), ("Wait", None), ("Start", 100), ("Compute", 6400), ("Wait", None), ("Compute", 640)]
    reads = [e.reads for e in placed.events.events if isinstance(e, Compute)]
    starts = [e.token for e in placed.events.events if isinstance(e, Start)]
    assert reads == [(starts[0],), (starts[1],)]
    # both buffers (320 and 128 bytes: 64-byte aligned) live from the start; a from op 0 to op 1
    assert placed.need == 320 + 128 + 2000
    assert sorted(placed.peak) == sorted([("dma", 320, None), ("dma", 128, None), ("activation", 2000, 0)])


def test_sync_loads_each_weight_right_before_its_op():
    placed = _two_convs({}, 1)
    kinds = [type(e).__name__ for e in placed.events.events]
    assert kinds == ["Start", "Wait", "Compute", "Start", "Wait", "Compute"]
    assert placed.need == 320 + 2000  # one buffer


def test_weights_read_in_place_and_a_result_off_chip_are_charged_as_off_chip_bytes():
    placed = _two_convs({0: Flags("offchip", offchip=True)}, 2)
    computes = [e for e in placed.events.events if isinstance(e, Compute)]
    assert [c.offchip_bytes for c in computes] == [300 + 2000, 2000]
    assert not any(isinstance(e, Wait) and e.token in computes[0].reads for e in placed.events.events)
    assert placed.need == 128  # op 1's buffer alone: a is off chip


def test_a_resident_weight_is_loaded_once_outside_the_events_and_stays_for_the_whole_function():
    placed = _two_convs({1: Flags("resident")}, 2)
    assert [type(e).__name__ for e in placed.events.events] == ["Start", "Wait", "Compute", "Compute"]
    assert ("resident", 128, None) in placed.peak
    assert placed.need == 320 + 128 + 2000
