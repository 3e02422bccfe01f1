"""Fast cases for nn-place's search, each on a few ops where the right answer can be worked out
by hand: the order moves are taken back in, growing from the floor, deeper DMA rotations, the
budget checks, the shrink step, evicted and prefetched results, ifs and loops, refusals, and
that a chosen placement fits and computes what the unplanned program does. The search runs in
process (one ``_Search`` at a time: ``place_module`` runs five), measuring a placement in a
few milliseconds."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from xdsl.dialects.builtin import IntegerAttr, i64
from xdsl.utils.exceptions import PassFailedException

from cfmem.dma.timing import Chip
from cfmem.interp.flat import run_flat
from cfmem.interp.golden import run_function
from cfmem.ir_io import parse_module
from cfmem.passes.liveness import functions
from cfmem.passes.place_grow import _undos
from cfmem.passes.place_measure import KEY_ATTR, MAX_DEPTH, Config, PlacementError, _apply, _slicer
from cfmem.passes.place_search import _Search
from cfmem.passes.plan_memory import ARENA_ATTR
from cfmem.pipeline import lower_model
from test_fast_mutants import THREE_LAYERS  # three matmuls of 1, 2 and 2 KiB of weights

CHIP = Chip()


def placement_search(text: str, budget: int, slicing: bool = True):
    """nn-place's search for @main of ``text`` in ``budget`` bytes (slicing weights or not), its
    module, and the key of each op by its result's name."""
    module, _ = parse_module(text)
    keyed = [op for fn in functions(module) for op in fn.walk() if op is not fn]
    for k, op in enumerate(keyed):
        op.attributes[KEY_ATTR] = IntegerAttr(k, i64)
    keys = {op.results[0].name_hint: k for k, op in enumerate(keyed) if op.results and op.results[0].name_hint}
    measured = _MEASURED.setdefault(text, {})  # a placement's need and latency do not depend on the budget
    return _Search(module, "main", CHIP, budget, _slicer() if slicing else None, measured=measured), keys


_MEASURED: dict[str, dict] = {}


def placed_and_run(search: _Search, config: Config, cases: list[dict]) -> int:
    """``config`` written onto a copy of the search's module, planned and lowered; asserts that
    the flat program computes every case's outputs as the unplanned one does, bit for bit
    (slicing adds partial sums in the same order here), and returns its on-chip arena."""
    module = search.module.clone()
    fn = search.function(module)
    _apply(config, fn, search.weighted)
    for op in fn.walk():
        op.attributes.pop(KEY_ATTR, None)
    unplanned, _ = parse_module(str(module))
    plan = ("nn-slice-weights," if config.slices else "") + "nn-insert-dma,nn-plan-memory,nn-check-dma"
    flat = lower_model(module, plan, None)
    for inputs in cases:
        want = run_function(unplanned, inputs).outputs
        got = run_flat(flat, inputs).outputs
        for name, value in want.items():
            np.testing.assert_allclose(got[name], value, rtol=1e-6, atol=1e-6, err_msg=name)
    return functions(flat)[0].attributes[ARENA_ATTR].value.data


"""Weights of 1, 2 and 2 KiB (%a, %b, %c), activations of 64 and 128 bytes: streamed whole
through one buffer (sync) the function needs 2048 + 64 + 128 = 2240 bytes; the DMA engine,
not compute, sets the pace (a transfer is 200 cycles plus 2 bytes a cycle)."""
X16 = [{"x": np.linspace(-1, 1, 16, dtype=np.float32).reshape(1, 16)}]

MIXED = """
nn.global @w size(1024) seed(2)
func.func @main(%x: tensor<1x16xf32>) -> tensor<1x16xf32> {
  %blob = nn.get_global @w : tensor<1024xi8>
  %w1 = nn.view %blob[0] bytes(1024) : tensor<1024xi8> to tensor<16x16xf32>
  %a = nn.relu %x : (tensor<1x16xf32>) -> tensor<1x16xf32>
  %b = nn.matmul %a, %w1 : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>
  %c = nn.tanh %b : (tensor<1x16xf32>) -> tensor<1x16xf32>
  %d = nn.add %a, %c : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
  func.return %d : tensor<1x16xf32>
}
"""
"""One 1 KiB weight (%b's) and three 64-byte results: %a read twice, %b and %c once each."""

IFS = """
func.func @main(%x: tensor<1x64xf32>, %c: tensor<1xi1>) -> tensor<1x64xf32> {
  %a = nn.relu %x : (tensor<1x64xf32>) -> tensor<1x64xf32>
  %b = nn.tanh %x : (tensor<1x64xf32>) -> tensor<1x64xf32>
  %r = nn.if %c : tensor<1xi1> -> (tensor<1x64xf32>) {
    %h = nn.relu %a : (tensor<1x64xf32>) -> tensor<1x64xf32>
    nn.yield %h : tensor<1x64xf32>
  } else {
    %k = nn.sigmoid %a : (tensor<1x64xf32>) -> tensor<1x64xf32>
    nn.yield %k : tensor<1x64xf32>
  }
  %y = nn.add %r, %b : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
  func.return %y : tensor<1x64xf32>
}
"""
"""Three 256-byte tensors live as the if ends: %a, %b and the if's result %r, which stays on chip."""
IF_CASES = [{"x": np.linspace(-2, 2, 64, dtype=np.float32).reshape(1, 64), "c": np.array([t])} for t in (True, False)]


def deep_rotation(light: int = 10) -> str:
    """A 128 KiB relu (4096 cycles of moving bytes, no weights) and then a chain of ``light``
    matmuls with 64-byte weights (232 cycles a transfer, a few of compute): a rotation of d
    buffers loads d weights during the relu, and every one more saves one transfer after it."""
    size = 64 * light
    lines = [
        f"nn.global @w size({size}) seed(3)",
        "func.func @main(%x: tensor<1x4xf32>, %big: tensor<1x32768xf32>) -> (tensor<1x4xf32>, tensor<1x32768xf32>) {",
        f"  %blob = nn.get_global @w : tensor<{size}xi8>",
        "  %h = nn.relu %big : (tensor<1x32768xf32>) -> tensor<1x32768xf32>",
    ]
    prev = "%x"
    for i in range(light):
        lines.append(f"  %w{i} = nn.view %blob[{64 * i}] bytes(64) : tensor<{size}xi8> to tensor<4x4xf32>")
        lines.append(f"  %m{i} = nn.matmul {prev}, %w{i} : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32>")
        prev = f"%m{i}"
    lines += [f"  func.return {prev}, %h : tensor<1x4xf32>, tensor<1x32768xf32>", "}"]
    return "\n".join(lines)


# --- Config and the undo list --------------------------------------------------------------------


def test_one_slice_is_no_slicing():
    c = Config().with_slices(3, 2)
    assert c.slices == ((3, 2),)
    assert c.with_slices(3, 1) == Config()  # the same placement, one key in the cache
    assert Config().with_slices(5, 1).slices == ()
    assert Config().with_slices(5, 4).with_slices(2, 2).slices == ((2, 2), (5, 4))


def test_a_search_that_does_not_slice_can_still_read_weights_off_chip():
    """Reading a weight off chip drops its slice count to one: in a search without slicing that
    must leave the config without slices, or the move cannot be built. In 2000 bytes the 2 KiB
    buffer cannot stay, and without slicing the way out is reading %b's weights in place."""
    search, keys = placement_search(THREE_LAYERS, 2000, slicing=False)
    shrunk = search.shrink(search.measure(Config(depth=1)))
    assert shrunk.need <= 2000 and not shrunk.config.slices
    assert dict(shrunk.config.weights)[keys["b"]] == "offchip"


def undo_configs(c: Config, **kwargs) -> list[list[Config]]:
    return [undo(c) for undo in _undos(c, **kwargs)]


def test_undos_take_weights_back_first_whole_then_in_ever_finer_slices():
    """One weight read off chip (key 4), one streamed in 8 slices (6), one resident (7), results
    2 and 3 off chip (3 prefetched and evicted), depth 6: in order, key 4 streamed whole then in
    2 ... 64 slices, key 6 in 4 slices, results 2 then 3 on chip, depth 7, depth 8. Nothing
    for the resident weight (it is no move), nor for depths already reached."""
    c = Config(
        depth=6,
        weights=((4, "offchip"), (7, "resident")),
        slices=((6, 8),),
        offchip=frozenset({2, 3}),
        prefetch=frozenset({3}),
        evict=frozenset({3}),
    )
    streamed = replace_weights(c, ((7, "resident"),))
    on_chip = [
        Config(6, c.weights, c.slices, frozenset({3}), frozenset({3}), frozenset({3})),
        Config(6, c.weights, c.slices, frozenset({2})),
    ]
    want = [
        [streamed] + [streamed.with_slices(4, 2**n) for n in range(1, 7)],
        [c.with_slices(6, 4)],
        [on_chip[0]],
        [on_chip[1]],
        [Config(7, c.weights, c.slices, c.offchip, c.prefetch, c.evict)],
        [Config(8, c.weights, c.slices, c.offchip, c.prefetch, c.evict)],
    ]
    assert undo_configs(c) == want
    assert [cs[-1].slices_of(4) for cs in want[:1]] == [64]  # 2**UNDO_SLICE_DOUBLINGS
    assert undo_configs(c, results_first=True) == want[2:4] + want[:2] + want[4:]
    assert undo_configs(c, order=lambda keys: sorted(keys, reverse=True)) == want[:2] + want[2:4][::-1] + want[4:]
    assert all(type(n) is int for _, n in undo_configs(c)[1][0].slices)  # the table would read "4.0 slices"
    two = Config(slices=((6, 2),))
    halved = [undo(two)[0] for undo in _undos(two)]  # 2 slices halve to one: whole
    assert halved == [Config()] + [Config(depth=d, slices=two.slices) for d in range(3, MAX_DEPTH + 1)]


def replace_weights(c: Config, weights) -> Config:
    return Config(c.depth, weights, c.slices, c.offchip, c.prefetch, c.evict)


def test_results_come_back_on_chip_most_read_first_then_smallest():
    """In MIXED %a is read twice (by %b and %d), %b and %c once; %b and %c are equal in size,
    so the key breaks their tie. A larger result read as often comes after a smaller one."""
    search, keys = placement_search(MIXED, 0)
    a, b, c = keys["a"], keys["b"], keys["c"]
    assert search.back_on_chip_order({c, b, a}) == [a, b, c]
    assert search.back_on_chip_order([c, b]) == [b, c]
    search, keys = placement_search(THREE_LAYERS, 0)  # %b (128 bytes) and %a (64), each read once
    assert search.back_on_chip_order([keys["b"], keys["a"]]) == [keys["a"], keys["b"]]
    search, keys = placement_search(LATER_FIRST, 0)
    assert search.back_on_chip_order({keys["p"], keys["q"], keys["r"]}) == [keys["r"], keys["q"], keys["p"]]


LATER_FIRST = """
func.func @main(%x: tensor<1x32xf32>, %z: tensor<1x16xf32>) -> (tensor<1x32xf32>, tensor<1x16xf32>) {
  %p = nn.relu %x : (tensor<1x32xf32>) -> tensor<1x32xf32>
  %q = nn.relu %z : (tensor<1x16xf32>) -> tensor<1x16xf32>
  %r = nn.tanh %z : (tensor<1x16xf32>) -> tensor<1x16xf32>
  %s = nn.add %q, %r : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
  %t = nn.add %s, %r : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
  func.return %p, %t : tensor<1x32xf32>, tensor<1x16xf32>
}
"""
"""%p (128 bytes), then %q (64) read once, %r (64) read twice: the order runs against the ops'."""


# --- growing from the floor ----------------------------------------------------------------------


def test_growing_from_the_floor_three_ways_at_64_bytes():
    """MIXED's floor (weight read in place, %a %b %c off chip) in 64 bytes: one result fits on
    chip at a time. Weights first: the weight streamed needs 1 KiB, or 64 slices of 16 bytes
    next to %a's... none fits; then %a (most read) comes back, and %b or %c beside it no longer
    fit. Results first, most read first: the same. Results first, latest first: %c, then %b
    (%c's bytes are %b's again by then), and %a beside them does not fit."""
    search, keys = placement_search(MIXED, 64)
    floor = search.floor_measure()
    assert floor.config.offchip == {keys["a"], keys["b"], keys["c"]} and floor.need == 0
    grown = search.grow(floor)
    offchip = [g.config.offchip for g in grown]
    assert offchip == [{keys["b"], keys["c"]}, {keys["b"], keys["c"]}, {keys["a"]}]
    assert all(g.need <= 64 and g.config.weights == ((keys["b"], "offchip"),) for g in grown)
    assert grown[2].cycles < grown[0].cycles  # two results read in place instead of one, yet faster


def test_growing_from_the_floor_three_ways_at_1100_bytes():
    """Weights first, the weight streamed whole (1 KiB) takes all but 76 bytes: %a comes back
    (1088), %b not (1152), %c does (it is live only after the transfer); a second buffer (depth
    2) is faster and fits. Results first: all three come back (128 bytes), and then the weight
    streams in 2 slices of 512 bytes (704; whole needs 1152)."""
    search, keys = placement_search(MIXED, 1100)
    grown = search.grow(search.floor_measure())
    weights_first, results_first, latest_first = (g.config for g in grown)
    assert weights_first == Config(depth=2, offchip=frozenset({keys["b"]}))
    assert grown[0].need == 1088
    assert results_first == latest_first == Config(depth=1, slices=((keys["b"], 2),))
    assert grown[1].need == 704
    assert placed_and_run(search, results_first, X16) <= 1100
    assert placed_and_run(search, weights_first, X16) <= 1100


def test_undoing_moves_takes_a_second_pass_when_the_first_made_room_for_one_it_passed_over():
    """MIXED in 504 bytes, weights first from the floor (the weight read in place, %a %b %c off
    chip: 2954 cycles). The weight streamed whole (1024 bytes) or in 2 slices (512) does not fit;
    in 4 slices (256) it fits but is slower while every result is read in place (4406 cycles), so
    the first pass keeps it in place and brings the three results back (128 bytes, 2058 cycles).
    Only a second pass finds the 4 slices faster beside them (448 bytes, 1334 cycles)."""
    search, keys = placement_search(MIXED, 504)
    grown = search.undo_moves(search.floor_measure())
    assert grown.config == Config(depth=1, slices=((keys["b"], 4),))
    assert (grown.need, grown.cycles) == (448, 1334)


TWO_CHAINS = """
func.func @main(%x: tensor<1x16xf32>, %y: tensor<1x256xf32>) -> (tensor<1x16xf32>, tensor<1x256xf32>) {
  %x1 = nn.relu %x : (tensor<1x16xf32>) -> tensor<1x16xf32>
  %x2 = nn.relu %x1 : (tensor<1x16xf32>) -> tensor<1x16xf32>
  %x3 = nn.relu %x2 : (tensor<1x16xf32>) -> tensor<1x16xf32>
  %x4 = nn.relu %x3 : (tensor<1x16xf32>) -> tensor<1x16xf32>
  %x5 = nn.relu %x4 : (tensor<1x16xf32>) -> tensor<1x16xf32>
  %x6 = nn.relu %x5 : (tensor<1x16xf32>) -> tensor<1x16xf32>
  %x7 = nn.relu %x6 : (tensor<1x16xf32>) -> tensor<1x16xf32>
  %x8 = nn.relu %x7 : (tensor<1x16xf32>) -> tensor<1x16xf32>
  %y1 = nn.relu %y : (tensor<1x256xf32>) -> tensor<1x256xf32>
  %y2 = nn.relu %y1 : (tensor<1x256xf32>) -> tensor<1x256xf32>
  %y3 = nn.relu %y2 : (tensor<1x256xf32>) -> tensor<1x256xf32>
  func.return %x8, %y3 : tensor<1x16xf32>, tensor<1x256xf32>
}
"""
"""Two chains of relus: %x1..%x8 of 64 bytes, %y1..%y3 of 1 KiB (%x8 and %y3 returned)."""


def test_moves_are_taken_back_in_runs_that_double_and_a_run_that_fails_one_at_a_time():
    """TWO_CHAINS in 512 bytes from the floor (every result off chip): the 64-byte results come
    back first (the smallest), %x1 alone, then %x2 %x3 together, then %x4..%x7 together; the
    run of %y1 and %y2 (1 KiB each) does not fit, and each alone does not either."""
    search, keys = placement_search(TWO_CHAINS, 512)
    grown = search.undo_moves(search.floor_measure(), results_first=True)
    xs = [keys[f"x{i}"] for i in range(1, 8)]
    ys = frozenset(keys[f"y{i}"] for i in (1, 2))
    assert grown.config == Config(depth=1, offchip=ys)
    runs = [frozenset(xs[1:]) | ys, frozenset(xs[3:]) | ys, ys, frozenset()]
    assert all(Config(depth=1, offchip=off) in search.cache for off in runs)
    singles = [frozenset(xs[k + 1:]) | ys for k in (1, 3, 4, 5)]  # %x3, %x5, %x6 and %x7 never alone
    assert not any(Config(depth=1, offchip=off) in search.cache for off in singles)
    assert Config(depth=1, offchip=frozenset(xs[5:]) | ys) not in search.cache  # %x4 %x5: no run of two
    assert Config(depth=1, offchip=frozenset({keys["y2"]})) in search.cache  # %y1 alone: too large
    assert Config(depth=1, offchip=frozenset({keys["y1"]})) in search.cache


# --- deeper rotations ----------------------------------------------------------------------------


@pytest.mark.parametrize(("budget", "depth"), [(10**6, MAX_DEPTH), (544, 8), (543, 7), (300, 4)])
def test_deepen_takes_the_deepest_rotation_that_fits(budget, depth):
    """Each buffer holds one 64-byte weight; with the two 16-byte activations a rotation of d
    buffers needs 32 + 64 d bytes, and every buffer more saves a 232-cycle transfer: the
    deepest that fits wins, up to MAX_DEPTH (9 buffers would be faster still). Below d = 5 in
    300 bytes, cutting the first weight (the largest; ties go to the first) in 2, 4 and 8
    slices does not help (the other buffers still hold 64 bytes); the rotation stops at 4."""
    search, keys = placement_search(deep_rotation(), budget)
    sync = search.measure(Config(depth=1))
    assert sync.need == 96
    best = search.deepen(sync)
    assert best.config == Config(depth=depth)
    assert best.need == 32 + 64 * depth <= budget
    assert best.cycles < search.measure(Config(depth=depth - 1)).cycles
    if depth < MAX_DEPTH + 1:
        assert search.measure(Config(depth=depth + 1)).cycles == best.cycles - 232  # one 64-byte transfer less
    assert search.reasons[("depth", 0)] == (
        f"deeper rotation with finer slices: {best.cycles:,.0f} cycles instead of {sync.cycles:,.0f}"
    )
    if budget == 300:
        first = keys["m0"]
        assert Config(depth=5, slices=((first, 4),)) in search.cache
        assert {c.slices for c in search.cache} == {(), ((first, 2),), ((first, 4),), ((first, 8),)}
    assert search.deepen(best) is best and len(search.reasons) == 1


def test_deepen_cuts_the_largest_streamed_weight_in_slices_when_a_deeper_rotation_does_not_fit():
    """THREE_LAYERS with %b's weights read off chip, sync: %c's 2 KiB buffer and %a's 1 KiB one
    at depth 2 need 3136 bytes; %c, the largest weight streamed, in 2 slices fits in exactly
    2240 (one byte less does not) and overlaps its halves with compute: faster. From depth 3 the
    halves do not fit (3136 again), and the counts double up to 8 (DEEPEN_DOUBLINGS), which
    fit from depth 3 on but are slower (every slice another 200-cycle transfer)."""
    b, c = 5, 6
    search, keys = placement_search(THREE_LAYERS, 2240)
    assert (keys["b"], keys["c"]) == (b, c)
    start = search.measure(Config(depth=1, weights=((b, "offchip"),)))
    assert start.need == 2240
    best = search.deepen(start)
    assert best.config == Config(depth=2, weights=start.config.weights, slices=((c, 2),))
    assert best.need == 2240 and best.cycles < start.cycles
    assert search.reasons == {("depth", 0): f"deeper rotation with finer slices: {best.cycles:,.0f} cycles instead of {start.cycles:,.0f}"}
    cuts = [(), ((c, 2),), ((c, 4),), ((c, 8),)]
    tried = {(1, ()), (2, ()), (2, cuts[1])} | {(d, s) for d in range(3, MAX_DEPTH + 1) for s in cuts}
    assert {(x.depth, x.slices) for x in search.cache} == tried
    assert all(x.weights == start.config.weights for x in search.cache)

    unsliced, _ = placement_search(THREE_LAYERS, 2240, slicing=False)  # tries each depth once
    assert unsliced.deepen(start) is start
    assert set(unsliced.cache) == {replace(start.config, depth=d) for d in range(2, MAX_DEPTH + 1)}

    tight, _ = placement_search(THREE_LAYERS, 2239)
    assert tight.deepen(start) is start and tight.reasons == {}
    assert Config(depth=2, weights=start.config.weights, slices=((c, 4),)) in tight.cache  # 2 slices: one byte over


def test_deepen_keeps_the_best_so_far_when_the_search_may_build_no_more():
    """Past its count of placements a search refuses new ones like ones that cannot be built."""
    search, _ = placement_search(deep_rotation(), 10**6)
    sync = search.measure(Config(depth=1))
    search.max_placements = 3
    assert search.deepen(sync).config == Config(depth=3)


def test_a_deeper_rotation_can_be_taken_back_one_buffer_at_a_time_down_to_sync():
    """The first move tried at a rotation of d buffers is d - 1 buffers (in deep_rotation every
    buffer holds a 64-byte weight beside 32 bytes of activations: 32 + 64 d at its peak);
    sync (one buffer) has no fewer."""
    search, _ = placement_search(deep_rotation(), 10**6)
    for depth in (3, 2):
        m = search.measure(Config(depth=depth))
        config, key, why = search.moves(m)[0]
        assert (config, key, why) == (Config(depth=depth - 1), None, f"fewer DMA buffers at the on-chip peak of {32 + 64 * depth} bytes")
    assert all(config.depth == 1 for config, _, _ in search.moves(search.measure(Config(depth=1))))


# --- budgets, the shrink step, results off chip, ifs, loops, refusals -----------------------------


def test_a_weight_is_made_resident_in_exactly_its_bytes_and_not_in_one_less():
    """Streamed sync THREE_LAYERS needs 2240 bytes; %a's 1 KiB resident beside the 2 KiB buffer
    needs 3264."""
    for budget, resident in ((3264, True), (3263, False)):
        search, keys = placement_search(THREE_LAYERS, budget)
        placed = search.add_resident(search.measure(Config(depth=1)))
        assert placed.config.weights == (((keys["a"], "resident"),) if resident else ())
        assert placed.need == (3264 if resident else 2240)


def test_only_weights_streamed_whole_are_made_resident():
    """THREE_LAYERS with %a's weights read in place needs 2240 bytes (4516 cycles); resident they
    would fit in 3264 and be faster (2468 cycles), but a weight read in place is undo_moves'
    to take back (streamed first): add_resident leaves it, and neither of the 2 KiB streamed
    weights fits resident beside the other's buffer."""
    search, keys = placement_search(THREE_LAYERS, 3264)
    in_place = search.measure(Config(depth=1, weights=((keys["a"], "offchip"),)))
    assert (in_place.need, in_place.cycles) == (2240, 4516)
    resident = search.measure(Config(depth=1, weights=((keys["a"], "resident"),)))
    assert (resident.need, resident.cycles) == (3264, 2468)
    assert search.add_resident(in_place) is in_place


def test_a_weight_streamed_in_slices_is_not_made_resident():
    """Slices were asked for to make a weight's buffer small: with room for everything, the two
    2 KiB weights become resident and %a's, in 2 slices, stays streamed."""
    search, keys = placement_search(THREE_LAYERS, 10**6)
    sliced = search.measure(Config(depth=1, slices=((keys["a"], 2),)))
    placed = search.add_resident(sliced)
    assert placed.config == Config(depth=1, weights=((keys["b"], "resident"), (keys["c"], "resident")), slices=sliced.config.slices)


BIG_THEN_SMALL = """
nn.global @w size(3072) seed(6)
func.func @main(%x: tensor<1x32xf32>) -> tensor<1x16xf32> {
  %blob = nn.get_global @w : tensor<3072xi8>
  %w1 = nn.view %blob[0] bytes(2048) : tensor<3072xi8> to tensor<32x16xf32>
  %w2 = nn.view %blob[2048] bytes(1024) : tensor<3072xi8> to tensor<16x16xf32>
  %a = nn.matmul %x, %w1 : (tensor<1x32xf32>, tensor<32x16xf32>) -> tensor<1x16xf32>
  %b = nn.matmul %a, %w2 : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>
  func.return %b : tensor<1x16xf32>
}
"""
"""A 2 KiB weight read first, then a 1 KiB one."""


def test_resident_weights_are_tried_smallest_first_and_past_one_that_cannot_be_built():
    """With one placement left to build, add_resident builds %b's (1 KiB) resident first,
    though %a's op comes first. With none left, the placement measured before (%b's resident,
    in THREE_LAYERS) is still taken after %a's cannot be built."""
    search, keys = placement_search(BIG_THEN_SMALL, 10**6)
    sync = search.measure(Config(depth=1))
    search.max_placements = len(search.cache) + 1
    assert search.add_resident(sync).config == Config(depth=1, weights=((keys["b"], "resident"),))

    search, keys = placement_search(THREE_LAYERS, 10**6)
    sync = search.measure(Config(depth=1))
    resident_b = search.measure(Config(depth=1, weights=((keys["b"], "resident"),)))
    search.max_placements = len(search.cache)
    assert search.add_resident(sync) is resident_b


SHARED_WEIGHT = """
nn.global @w size(3072) seed(8)
func.func @main(%x: tensor<2x16xf32>) -> tensor<2x16xf32> {
  %blob = nn.get_global @w : tensor<3072xi8>
  %w1 = nn.view %blob[0] bytes(1024) : tensor<3072xi8> to tensor<16x16xf32>
  %w2 = nn.view %blob[1024] bytes(2048) : tensor<3072xi8> to tensor<16x32xf32>
  %x0 = nn.slice %x {starts = array<i64: 0>, ends = array<i64: 1>, axes = array<i64: 0>} : (tensor<2x16xf32>) -> tensor<1x16xf32>
  %a = nn.matmul %x0, %w1 : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>
  %x1 = nn.slice %x {starts = array<i64: 1>, ends = array<i64: 2>, axes = array<i64: 0>} : (tensor<2x16xf32>) -> tensor<1x16xf32>
  %b = nn.matmul %x1, %w1 : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>
  %y = nn.concat %a, %b {axis = 0 : i64} : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<2x16xf32>
  func.return %y : tensor<2x16xf32>
}
"""
"""One 1 KiB weight read by two ops, as the tiles of a tiled chain read theirs (%w2 is unread)."""


def test_ops_reading_the_same_weights_are_made_resident_together_in_one_placement():
    """%a and %b share one resident copy of %w1: add_resident measures the one placement with
    both resident (not one op first), and it computes what the unplanned program does."""
    search, keys = placement_search(SHARED_WEIGHT, 10**6)
    sync = search.measure(Config(depth=1))
    before = len(search.cache)
    placed = search.add_resident(sync)
    assert placed.config.weights == ((keys["a"], "resident"), (keys["b"], "resident"))
    assert len(search.cache) == before + 1 and placed.cycles < sync.cycles
    cases = [{"x": np.arange(32, dtype=np.float32).reshape(2, 16) / 7}]
    assert placed_and_run(search, placed.config, cases) <= placed.need + 64


def test_shrinking_evicts_the_result_idle_longest_and_only_where_that_lowers_the_peak():
    """IFS in 512 bytes (768 on chip): each of %a and %b off chip saves 256 bytes. %b read in
    place costs its write and its read at 0.5 bytes a cycle (1024 cycles), prefetched the read
    becomes a transfer (512 + 328), evicted the write too (2 x 328): cheapest. %a, read inside
    the if, needs its bytes back on chip there when prefetched or evicted: no byte saved."""
    search, keys = placement_search(IFS, 512)
    start = search.measure(Config(depth=1))
    assert start.need == 768
    b = keys["b"]
    ways = [search.measure(c) for c, key, _ in search.moves(start) if key == ("result", b)]
    assert [m.cycles - start.cycles for m in ways] == [1024, 512 + 328, 2 * 328]
    shrunk = search.shrink(start)
    assert shrunk.config == Config(depth=1, offchip=frozenset({b}), prefetch=frozenset({b}), evict=frozenset({b}))
    assert search.reasons == {("result", b): "live at the on-chip peak of 768 bytes, idle between its write and its reads"}
    assert placed_and_run(search, shrunk.config, IF_CASES) <= 512
    assert search.deepen(shrunk) is shrunk  # no weights: no slices to try at any depth
    assert all(not c.slices for c in search.cache)


def test_shrinking_takes_the_move_that_adds_the_least_latency_per_byte_saved():
    """THREE_LAYERS from a rotation of two buffers (4288 bytes) into 2680: %a off chip saves 64
    bytes for no cycle (its one read overlaps the transfers), one buffer fewer saves 2048 for 12
    cycles; the results moved to a larger peak or to none are passed over (one is evicted above
    the peak: skipped, not the end of the list). Then one buffer fewer fits (2176)."""
    search, keys = placement_search(THREE_LAYERS, 2680)
    shrunk = search.shrink(search.measure(Config(depth=2)))
    assert shrunk.config == Config(depth=1, offchip=frozenset({keys["a"]}))
    assert shrunk.need == 2176
    assert search.reasons == {
        ("result", keys["a"]): "live at the on-chip peak of 4288 bytes",
        ("depth", 0): "fewer DMA buffers at the on-chip peak of 4224 bytes",
    }


def test_shrinking_builds_at_most_its_count_of_placements(monkeypatch):
    """The first step of the case above measures 9 placements: with SHRINK_EVALUATIONS = 9 the
    second step runs, with 8 shrinking stops before it, at the peak it reached."""
    import cfmem.passes.place_shrink as place_shrink

    monkeypatch.setattr(place_shrink, "SHRINK_EVALUATIONS", 9)
    search, _ = placement_search(THREE_LAYERS, 2680)
    assert search.shrink(search.measure(Config(depth=2))).need == 2176
    monkeypatch.setattr(place_shrink, "SHRINK_EVALUATIONS", 8)
    search, _ = placement_search(THREE_LAYERS, 2680)
    with pytest.raises(PlacementError) as stopped:
        search.shrink(search.measure(Config(depth=2)))
    assert str(stopped.value) == "shrinking took more than 8 placements" and stopped.value.need == 4224


def test_a_move_the_search_cannot_build_is_passed_over_for_the_next():
    """With no placement left to build, every move but the one measured before (%a off chip)
    is refused: shrinking still takes that one, then finds nothing it may build."""
    search, keys = placement_search(THREE_LAYERS, 2680)
    start = search.measure(Config(depth=2))
    search.measure(Config(depth=2, offchip=frozenset({keys["a"]})))
    search.max_placements = len(search.cache)
    with pytest.raises(PlacementError) as stuck:
        search.shrink(start)
    assert stuck.value.need == 4224
    assert search.reasons == {("result", keys["a"]): "live at the on-chip peak of 4288 bytes"}


def test_on_a_plateau_only_results_move():
    """LATER_FIRST in 16 bytes from two DMA buffers (it has no weights: the rotation holds
    nothing). One buffer fewer saves no byte and is never taken; the results (%p and %t are
    returned, not planned) leave one by one: %r at 128 bytes, then %q and %s each on a plateau
    of 64."""
    search, keys = placement_search(LATER_FIRST, 16)
    shrunk = search.shrink(search.measure(Config(depth=2)))
    assert shrunk.config == Config(depth=2, offchip=frozenset({keys["q"], keys["r"], keys["s"]}))
    assert search.reasons == {
        ("result", keys["r"]): "live at the on-chip peak of 128 bytes",
        ("result", keys["q"]): "live at the on-chip peak of 64 bytes",
        ("result", keys["s"]): "live at the on-chip peak of 64 bytes",
    }


def test_a_shrink_with_nothing_left_to_move_is_refused_with_the_peak_it_reached():
    search, _ = placement_search(IFS, 96)
    with pytest.raises(PlacementError) as stuck:
        search.shrink(search.measure(Config(depth=1)))
    assert stuck.value.need == 512
    assert str(stuck.value) == (
        "function @main needs at least 512 bytes of on-chip memory, more than the budget of 96:"
        " what stays on chip at its peak (nothing movable) cannot move"
    )


def test_growing_with_no_placement_left_to_build_keeps_the_floor():
    search, _ = placement_search(MIXED, 504)
    floor = search.floor_measure()
    search.max_placements = len(search.cache)
    assert search.undo_moves(floor) is floor


def test_a_move_that_lowers_the_peak_beats_any_that_keeps_it():
    """FOUR_LAYERS from two DMA buffers (2176 bytes) into 1216: one buffer fewer saves 960 bytes
    for 12 cycles; %a off chip costs no cycle but keeps the peak, so it is not taken."""
    from test_place_report_mutants import FOUR_LAYERS

    search, _ = placement_search(FOUR_LAYERS, 1216)
    shrunk = search.shrink(search.measure(Config(depth=2)))
    assert shrunk.config == Config(depth=1) and shrunk.need == 1216
    assert search.reasons == {("depth", 0): "fewer DMA buffers at the on-chip peak of 2176 bytes"}


def test_of_two_moves_as_cheap_per_byte_the_first_tried_is_taken():
    """THREE_LAYERS with every weight read in place (192 bytes) into 128: %b off chip saves 128
    bytes for 512 cycles, %a 64 for 256, 4 cycles a byte each; %b's, the larger, comes first."""
    search, keys = placement_search(THREE_LAYERS, 128)
    in_place = tuple((keys[n], "offchip") for n in "abc")
    shrunk = search.shrink(search.measure(Config(depth=1, weights=in_place)))
    assert shrunk.config == Config(depth=1, weights=in_place, offchip=frozenset({keys["b"]})) and shrunk.need == 64


ONE_BYTE = """
func.func @main(%x: tensor<1xf32>) -> tensor<1xf32> {
  %q = nn.quantize %x {element = i8, y_scale = array<f32: 0.5>, y_zero_point = array<i64: 1>} : (tensor<1xf32>) -> tensor<1xi8>
  %r = nn.relu %x : (tensor<1xf32>) -> tensor<1xf32>
  %d = nn.dequantize %q {x_scale = array<f32: 0.5>, x_zero_point = array<i64: 1>} : (tensor<1xi8>) -> tensor<1xf32>
  %s = nn.add %r, %r : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
  %e = nn.add %d, %s : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
  %f = nn.add %e, %d : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
  func.return %f : tensor<1xf32>
}
"""
"""%q (1 byte), %r and %d (4 bytes each) live together: 9 bytes."""


def test_a_move_that_saves_one_byte_lowers_the_peak():
    """ONE_BYTE into 8 bytes: %q off chip saves 1 byte for 4 cycles (written and read once at
    half a byte a cycle), %r 1 byte for 16, %d 4 bytes for 24 (read twice): %q's is cheapest."""
    search, keys = placement_search(ONE_BYTE, 8)
    shrunk = search.shrink(search.measure(Config(depth=1)))
    assert shrunk.config == Config(depth=1, offchip=frozenset({keys["q"]})) and shrunk.need == 8
    assert search.reasons == {("result", keys["q"]): "live at the on-chip peak of 9 bytes"}


def test_shrinking_runs_before_growing_and_growing_keeps_a_whole_share_of_its_own():
    """ONE_BYTE into 8 bytes: shrinking from the top (a few moves) runs first, then growing
    from the floor with the search's cap raised by what shrinking spent, so neither starves
    the other (growing a model with hundreds of ops from its floor can take the whole cap)."""
    search, keys = placement_search(ONE_BYTE, 8)
    cap, calls = search.max_placements, []
    shrink, grow = search.shrink, search.grow

    def shrinking(m):
        calls.append(("shrink", search.spent))
        return shrink(m)

    def growing(floor):
        calls.append(("grow", search.spent, search.max_placements))
        return grow(floor)

    search.shrink, search.grow = shrinking, growing
    best = search.run()
    (first, before), (second, after, allowed) = calls
    assert (first, second) == ("shrink", "grow") and after > before
    assert allowed == cap + (after - before)
    assert best.config.offchip == frozenset({keys["q"]}) and best.need <= 8


def test_an_if_result_stays_on_chip_and_a_budget_below_it_is_refused_by_name():
    search, keys = placement_search(IFS, 256)
    best = search.run()
    assert best.need == 256 and best.config.offchip == {keys["a"], keys["b"]} and not best.config.prefetch
    assert placed_and_run(search, best.config, IF_CASES) <= 256
    search, _ = placement_search(IFS, 255)
    with pytest.raises(PlacementError) as refused:
        search.run()
    assert refused.value.need == 256
    assert str(refused.value) == (
        "function @main needs at least 256 bytes of on-chip memory, more than the budget of 255: what stays"
        " on chip at its peak ('nn.if' %r (256 bytes)) cannot move"
    )


def test_a_loop_body_placed_from_the_floor_fits_and_computes_every_trip_count():
    """RECURRENT's loop body reads two 8x8 weights (%g's with its bias, 288 bytes; %m's, 256) every
    iteration, on 32-byte activations. In 300 bytes both weights cannot be loaded, so growing from
    the floor brings every result back (the loop's carried value included) and leaves the weights
    read in place."""
    from test_loops import RECURRENT

    search, keys = placement_search(RECURRENT, 300)
    floor = search.floor_measure()
    assert dict(floor.config.weights) == {keys["g"]: "offchip", keys["m"]: "offchip"}
    grown = search.undo_moves(floor, results_first=True)
    assert grown.config == Config(depth=1, weights=floor.config.weights)
    assert grown.need <= 300 and grown.cycles < floor.cycles
    x = np.linspace(-1, 1, 8, dtype=np.float32).reshape(1, 8)
    cases = [{"n": np.array(n), "x": x} for n in (0, 3)]
    assert placed_and_run(search, grown.config, cases) <= 300
    assert placed_and_run(search, floor.config, cases) <= floor.need


# --- the pass and its entry points -----------------------------------------------------------------

TWO_FUNCTIONS = IFS + IFS.replace("@main", "@wide").replace("1x64", "1x128")
"""@main's floor keeps its if result of 256 bytes on chip, @wide's one of 512."""


def test_the_floor_need_is_the_largest_floor_of_any_function_and_leaves_the_module_as_it_was():
    from cfmem.passes.place import floor_need

    module, _ = parse_module(TWO_FUNCTIONS)
    before = str(module)
    assert floor_need(module, CHIP) == 512
    assert str(module) == before
    only_main, _ = parse_module(IFS)
    assert floor_need(only_main, CHIP) == 256
    assert floor_need(parse_module("nn.global @w size(4) seed(1)")[0], CHIP) == 0


def test_the_pass_places_every_function_in_the_budget_or_the_chips_and_refuses_what_cannot_fit(tmp_path):
    from xdsl.utils.exceptions import PassFailedException

    from cfmem.ir_io import make_context
    from cfmem.passes.place import PlacePass
    from cfmem.dialects.flat_form import BUDGET_ATTR

    def placed(**options):
        module, _ = parse_module(TWO_FUNCTIONS)
        PlacePass(**options).apply(make_context(), module)
        return {fn.sym_name.data: fn for fn in functions(module)}

    fns = placed(budget=512)
    assert {name: fn.attributes[BUDGET_ATTR].value.data for name, fn in fns.items()} == {"main": 512, "wide": 512}
    assert not any(KEY_ATTR in op.attributes for fn in fns.values() for op in fn.walk())
    assert placed()["main"].attributes[BUDGET_ATTR].value.data == CHIP.onchip_bytes  # the default chip's
    chip = tmp_path / "chip.json"
    chip.write_text('{"onchip_bytes": 600}')
    assert placed(chip=str(chip))["wide"].attributes[BUDGET_ATTR].value.data == 600
    with pytest.raises(PlacementError) as refused:
        placed(budget=511)
    assert refused.value.need == 512 and "function @wide needs at least 512 bytes" in str(refused.value)
    with pytest.raises(PassFailedException, match=r"^nn-place: cannot read chip '[^']*missing\.json': "):
        placed(chip=str(tmp_path / "missing.json"))
    chip.write_text('{"onchip_bites": 600}')
    with pytest.raises(PassFailedException, match=r"chip\.json': unknown chip keys onchip_bites"):
        placed(chip=str(chip))


def test_a_negative_budget_is_refused_by_its_option_name():
    from xdsl.utils.exceptions import PassFailedException

    from cfmem.ir_io import make_context
    from cfmem.passes.place import PlacePass

    module, _ = parse_module(IFS)
    with pytest.raises(PassFailedException) as refused:
        PlacePass(budget=-1).apply(make_context(), module)
    assert str(refused.value) == "budget must be an integer from 0 to 9223372036854775807, not -1"


@pytest.fixture
def builds(monkeypatch) -> list:
    """The placements ``_Search`` measures from here on (built or from records), in order."""
    built: list = []
    measure_new = _Search._measure_new
    monkeypatch.setattr(_Search, "_measure_new", lambda self, config: built.append(config) or measure_new(self, config))
    return built


def test_placements_measured_once_are_shared_by_the_searches_and_the_calls_given_the_same_store(builds):
    """floor_need and place_module fill the store they are given (``measured``), the five
    searches of one place_module share it, and a second call with the same store builds
    nothing; without a store each call builds its own."""
    from cfmem.passes.place import floor_need, place_module

    built = builds
    store: dict = {}
    module, _ = parse_module(MIXED)
    assert floor_need(module, CHIP, measured=store) == 0
    assert len(built) == 1 and len(store) == 1
    place_module(module, CHIP, 504, measured=store)
    assert len(built) == len(set(built)) == len(store) > 1  # no placement built twice by the five searches
    again, _ = parse_module(MIXED)
    count = len(built)
    place_module(again, CHIP, 504, measured=store)
    assert len(built) == count
    place_module(parse_module(MIXED)[0], CHIP, 504)
    assert len(built) == 2 * count  # all again, the floor (measured by floor_need before) included


def test_with_no_rotation_fitting_the_search_shrinks_the_smallest_sync_included():
    """THREE_LAYERS in 1296 bytes: no rotation fits (sync, the smallest, needs 2240). Shrinking
    sync slices every weight (%a in 2, %b and %c in 4): 4616 cycles, the fastest found; from a
    rotation of two buffers the search would end with %a off chip (4648)."""
    search, keys = placement_search(THREE_LAYERS, 1296)
    best = search.run()
    assert best.config == Config(depth=1, slices=((keys["a"], 2), (keys["b"], 4), (keys["c"], 4)))
    assert best.cycles == 4616



def test_with_a_rotation_fitting_the_search_finishes_it_and_does_not_grow_from_the_floor():
    """THREE_LAYERS in 4536 bytes: every rotation fits, so the search finishes the fastest one
    (two buffers, 3168 cycles) in 26 placements and measures nothing built from the floor:
    growing from it as well would take 62 here (and find sync with %a resident, 2468 cycles),
    and hundreds more on a real model, at every budget a rotation fits. Apart from the floor
    itself, no measured placement moves a result or a weight off chip."""
    search, keys = placement_search(THREE_LAYERS, 4536)
    search.measured = {}  # count this search's own placements
    best = search.run()
    assert best.config == Config(depth=2) and best.cycles == 3168
    floor = search.floor()
    grown = [c for c in search.cache if c != floor and (c.offchip or any(p == "offchip" for _, p in c.weights))]
    assert grown == []

WEIGHT_IN_THEN = """
nn.global @w size(1024) seed(7)
func.func @main(%x: tensor<1x16xf32>, %c: tensor<1xi1>) -> tensor<1x16xf32> {
  %blob = nn.get_global @w : tensor<1024xi8>
  %w1 = nn.view %blob[0] bytes(1024) : tensor<1024xi8> to tensor<16x16xf32>
  %r = nn.if %c : tensor<1xi1> -> (tensor<1x16xf32>) {
    %h = nn.matmul %x, %w1 : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>
    nn.yield %h : tensor<1x16xf32>
  } else {
    %k = nn.relu %x : (tensor<1x16xf32>) -> tensor<1x16xf32>
    nn.yield %k : tensor<1x16xf32>
  }
  func.return %r : tensor<1x16xf32>
}
"""
"""A 1 KiB weight read only by the then branch."""


def test_a_function_is_placed_for_the_path_it_is_timed_on():
    """In 200 bytes, timed on the slower path (the then branch), reading the weight in place
    (2052 cycles) beats streaming it in slices; timed on the else branch, which reads no weight,
    every placement takes 2 cycles and the one with least compute off that path streams the
    weight in 16 slices."""
    from cfmem.passes.place import place_module

    module, _ = parse_module(WEIGHT_IN_THEN)
    slower = place_module(module, CHIP, 200)["main"]
    module, _ = parse_module(WEIGHT_IN_THEN)
    on_else = place_module(module, CHIP, 200, {"main": {"if#0": False}})["main"]
    w = placement_search(WEIGHT_IN_THEN, 200)[1]["h"]  # keyed as place_module keys them
    assert (slower.config.weights, slower.config.slices, slower.cycles) == (((w, "offchip"),), (), 2052)
    assert (on_else.config.weights, on_else.config.slices, on_else.cycles) == ((), ((w, 16),), 2)


def test_the_floor_measured_for_a_path_is_not_built_again_for_that_path(builds):
    from cfmem.passes.place import floor_need, place_module

    built = builds
    store: dict = {}
    paths = {"main": {"if#0": False}}
    module, _ = parse_module(WEIGHT_IN_THEN)
    assert floor_need(module, CHIP, paths, store) == 0
    [floor] = built
    place_module(module, CHIP, 200, paths, store)
    assert floor not in built[1:] and len(built) > 1


def test_the_search_starts_from_the_deepest_rotations_too():
    """deep_rotation() in 493 bytes: a rotation of 7 buffers fits and is the fastest placement
    (5024.5 cycles); starting from at most 6 would end with 6 and a resident weight (5025)."""
    search, _ = placement_search(deep_rotation(), 493)
    best = search.run()
    assert best.config == Config(depth=7) and best.cycles == 5024.5


RESHAPES = """
nn.global @w size(64) seed(1)
func.func @main(%x: tensor<1x16xf32>) -> tensor<4x4xf32> {
  %blob = nn.get_global @w : tensor<64xi8>
  %wv = nn.view %blob[0] bytes(64) : tensor<64xi8> to tensor<1x16xf32>
  %wr = nn.reshape %wv : tensor<1x16xf32> to tensor<4x4xf32>
  %a = nn.relu %x : (tensor<1x16xf32>) -> tensor<1x16xf32>
  %ar = nn.reshape %a : tensor<1x16xf32> to tensor<4x4xf32>
  %s = nn.add %ar, %wr : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  func.return %s : tensor<4x4xf32>
}
"""


def test_a_reshape_of_an_activation_may_leave_the_chip_and_one_of_weights_may_not():
    search, keys = placement_search(RESHAPES, 10**6)
    assert keys["ar"] in search.movable and keys["a"] in search.movable
    assert keys["wr"] not in search.movable and keys["s"] not in search.movable  # %s is returned


def test_only_a_weight_cut_in_slices_is_marked_with_its_count():
    from cfmem.passes.placement import SLICES_ATTR

    search, keys = placement_search(THREE_LAYERS, 10**6)
    module = search.module.clone()
    fn = search.function(module)
    _apply(Config(depth=1, slices=((keys["b"], 4),)), fn, search.weighted)
    marked = {op.results[0].name_hint: op.attributes[SLICES_ATTR].value.data for op in fn.walk() if SLICES_ATTR in op.attributes}
    assert marked == {"b": 4}


def test_a_measure_names_what_is_live_at_its_peak():
    """THREE_LAYERS with %a's weights resident and the others streamed sync: the resident bytes,
    the 2 KiB DMA buffer serving %b and %c, and the two activations."""
    search, keys = placement_search(THREE_LAYERS, 10**6)
    m = search.measure(Config(depth=1, weights=((keys["a"], "resident"),)))
    assert sorted(m.peak, key=str) == sorted(
        [("resident", 1024, None), ("dma", 2048, None), ("activation", 64, keys["a"]), ("activation", 128, keys["b"])], key=str
    )
    dma = next(i for i, (kind, _, _) in enumerate(m.peak) if kind == "dma")
    assert sorted(m.peak_ops[dma]) == [keys["b"], keys["c"]]


def test_the_cap_on_placements_is_a_share_of_a_budget_of_ops_and_at_least_the_minimum():
    from cfmem.passes.place_measure import MIN_PLACEMENTS, PLACEMENT_OPS

    search, _ = placement_search(THREE_LAYERS, 10**6)
    ops = sum(1 for _ in search.function(search.module).walk())
    assert search.max_placements == PLACEMENT_OPS // ops and type(search.max_placements) is int
    assert PLACEMENT_OPS // ops > MIN_PLACEMENTS


def test_a_sliced_placement_counts_its_ops_after_slicing_against_the_cap():
    """An unsliced placement costs one placement's worth of ops; %a cut in 4 costs its ops
    after slicing over the function's (its 4 slices, their weight views and the concat), so
    the cap refuses the next placement sooner."""
    search, keys = placement_search(THREE_LAYERS, 10**6)
    search.measure(Config(depth=1))
    assert search.spent == 1
    sliced = search.measure(Config(depth=1, slices=((keys["a"], 4),)))
    assert sliced.ops > search.function_ops
    assert search.spent == pytest.approx(1 + sliced.ops / search.function_ops)
    search.max_placements = 2  # two placements measured, but more than two placements' worth of ops
    with pytest.raises(PassFailedException, match="worth of ops"):
        search.measure(Config(depth=2))


def test_a_search_refuses_placements_past_its_cap_and_slices_it_cannot_cut():
    from xdsl.utils.exceptions import PassFailedException

    search, keys = placement_search(THREE_LAYERS, 10**6)
    search.max_placements = 0
    with pytest.raises(PassFailedException, match=r"^the search measured its 0 placements' worth of ops$"):
        search.measure(Config(depth=1))
    unsliced, keys = placement_search(THREE_LAYERS, 10**6, slicing=False)
    with pytest.raises(PassFailedException, match=r"^this search does not slice$"):
        unsliced.measure(Config(depth=1, slices=((keys["b"], 2),)))


def test_a_store_shared_by_searches_on_different_paths_keeps_their_timings_apart():
    from cfmem.passes.place import place_module

    store: dict = {}
    slower = place_module(parse_module(WEIGHT_IN_THEN)[0], CHIP, 200, measured=store)["main"]
    on_else = place_module(parse_module(WEIGHT_IN_THEN)[0], CHIP, 200, {"main": {"if#0": False}}, store)["main"]
    assert (slower.cycles, on_else.cycles) == (2052, 2)


def test_the_search_goes_no_deeper_than_its_deepest_rotation():
    """deep_rotation() in 1152 bytes: the search ends at MAX_DEPTH buffers with three weights
    resident (4101 cycles); from a rotation of 9 it would keep 9 buffers and two."""
    search, keys = placement_search(deep_rotation(), 1152)
    best = search.run()
    assert best.config.depth == MAX_DEPTH and best.cycles == 4101
    assert best.config.weights == tuple((keys[f"m{i}"], "resident") for i in (0, 1, 2))
