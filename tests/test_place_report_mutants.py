"""Fast cases for nn-place's placement table (the rows ``cfmem report --budget`` prints): for
each kind of row, what it names, where the tensor lives, why, its bytes and its cycles per
inference, the cycles worked out here from the chip's rates. Placements are written by hand
onto a search of a few ops (no search runs), except for two small ``place_module`` calls."""

from __future__ import annotations

from dataclasses import replace

from xdsl.dialects.builtin import IntegerAttr, i64

from cfmem.dma.timing import Chip
from cfmem.ir_io import parse_module
from cfmem.passes.liveness import functions
from cfmem.passes.place import _decisions, place_module
from cfmem.passes.place_measure import KEY_ATTR, Config, Decision, Measure, _slicer
from cfmem.passes.place_search import _Search

LATENCY, DMA_RATE, OFFCHIP_RATE = 100, 4.0, 0.25
"""Cycles a transfer waits before its first byte, bytes per cycle by DMA and read or written in
place off chip. None is 1, so a product and a quotient of them differ."""
CHIP = Chip(dma_latency_cycles=LATENCY, dma_bytes_per_cycle=DMA_RATE, offchip_bytes_per_cycle=OFFCHIP_RATE)

FOUR_LAYERS = """
nn.global @w size(4096) seed(1)
func.func @main(%x: tensor<1x16xf32>) -> tensor<1x16xf32> {
  %blob = nn.get_global @w : tensor<4096xi8>
  %w1 = nn.view %blob[0] bytes(1024) : tensor<4096xi8> to tensor<16x16xf32>
  %w2 = nn.view %blob[1024] bytes(1024) : tensor<4096xi8> to tensor<16x16xf32>
  %w3 = nn.view %blob[2048] bytes(1024) : tensor<4096xi8> to tensor<16x16xf32>
  %w4 = nn.view %blob[3072] bytes(1024) : tensor<4096xi8> to tensor<16x16xf32>
  %a = nn.matmul %x, %w1 : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>
  %b = nn.matmul %a, %w2 : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>
  %c = nn.matmul %b, %w3 : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>
  %0 = nn.matmul %c, %w4 : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>
  %s = nn.add %0, %b : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
  %e = nn.add %s, %c : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
  func.return %e : tensor<1x16xf32>
}
"""
"""Four matmuls with 1 KiB of weights each and 64-byte results: %b and %c are read twice, the
unnamed one (the table calls it %?) once."""
WEIGHT, RESULT = 1024, 64


def keyed_search(text: str, budget: int = 1 << 20) -> tuple[_Search, dict[str, int]]:
    """nn-place's search for @main of ``text`` (slicing allowed), and each op's key by its
    result's name ('unnamed' for the op whose result has none)."""
    module, _ = parse_module(text)
    keyed = [op for fn in functions(module) for op in fn.walk() if op is not fn]
    for k, op in enumerate(keyed):
        op.attributes[KEY_ATTR] = IntegerAttr(k, i64)
    keys = {op.results[0].name_hint or "unnamed": k for k, op in enumerate(keyed) if op.results}
    return _Search(module, "main", CHIP, budget, _slicer()), keys


def table(search: _Search, config: Config) -> list[Decision]:
    return _decisions(search, Measure(config, 0, 0.0, 0.0), CHIP)


def transfer(nbytes: int) -> float:
    return LATENCY + nbytes / DMA_RATE


def every_kind(keys: dict[str, int], depth: int, slices: int) -> Config:
    """%a's weights streamed in ``slices`` slices, %b's resident, %c's read off chip, the
    unnamed op's streamed whole; %b's result evicted, %c's prefetched, the unnamed one's read in
    place off chip (no sliced op reads or writes an off-chip result)."""
    a, b, c, unnamed = keys["a"], keys["b"], keys["c"], keys["unnamed"]
    return Config(
        depth=depth,
        weights=((b, "resident"), (c, "offchip")),
        slices=((a, slices),),
        offchip=frozenset({b, c, unnamed}),
        prefetch=frozenset({b, c}),
        evict=frozenset({b}),
    )


def test_a_placement_of_every_kind_shows_one_row_per_weighted_op_and_off_chip_result():
    """Sync DMA, and no move the search explains: each row's fixed reason, or none."""
    search, keys = keyed_search(FOUR_LAYERS)
    assert table(search, every_kind(keys, depth=1, slices=4)) == [
        Decision("DMA rotation", "sync (1 buffer)", "the fastest that fits", 0, 0.0),
        Decision("weights of nn.matmul %a", "streamed in 4 slices", "", WEIGHT, 4 * transfer(WEIGHT // 4)),
        Decision("weights of nn.matmul %b", "resident", "room left: loaded once, no transfer per inference", WEIGHT, 0.0),
        Decision("weights of nn.matmul %c", "read off chip", "", WEIGHT, WEIGHT / OFFCHIP_RATE),
        Decision("weights of nn.matmul %?", "streamed whole", "fits in the DMA rotation", WEIGHT, transfer(WEIGHT)),
        # written out once, brought back before each of its two reads
        Decision("nn.matmul %b", "evicted to the off-chip arena and prefetched by DMA", "", RESULT, 3 * transfer(RESULT)),
        # written in place, brought back before each of its two reads
        Decision("nn.matmul %c", "off-chip arena, prefetched by DMA", "", RESULT, RESULT / OFFCHIP_RATE + 2 * transfer(RESULT)),
        # written and read once in place
        Decision("nn.matmul %?", "off-chip arena, read in place", "", RESULT, 2 * RESULT / OFFCHIP_RATE),
    ]


def test_rows_give_the_reason_the_search_recorded_for_each_move():
    """A DMA rotation of 2 buffers, weights in 2 slices; every move explained by the search.
    Resident and whole weights keep their fixed reasons."""
    search, keys = keyed_search(FOUR_LAYERS)
    for key in keys.values():
        search.reasons[("weights", key)] = f"weights {key}"
        search.reasons[("result", key)] = f"result {key}"
    search.reasons[("depth", 0)] = "fewer DMA buffers"
    rows = table(search, every_kind(keys, depth=2, slices=2))
    assert [(row.what, row.where, row.why) for row in rows] == [
        ("DMA rotation", "2 buffer(s)", "fewer DMA buffers"),
        ("weights of nn.matmul %a", "streamed in 2 slices", f"weights {keys['a']}"),
        ("weights of nn.matmul %b", "resident", "room left: loaded once, no transfer per inference"),
        ("weights of nn.matmul %c", "read off chip", f"weights {keys['c']}"),
        ("weights of nn.matmul %?", "streamed whole", "fits in the DMA rotation"),
        ("nn.matmul %b", "evicted to the off-chip arena and prefetched by DMA", f"result {keys['b']}"),
        ("nn.matmul %c", "off-chip arena, prefetched by DMA", f"result {keys['c']}"),
        ("nn.matmul %?", "off-chip arena, read in place", f"result {keys['unnamed']}"),
    ]
    assert rows[1].cycles == 2 * transfer(WEIGHT // 2)
    assert table(search, Config(depth=8))[0] == Decision("DMA rotation", "8 buffer(s)", "fewer DMA buffers", 0, 0.0)


def test_an_off_chip_result_read_more_often_costs_more():
    """Every activation of a chain off chip, each read in place by the next op (and the first
    twice); the read counts are what differ between rows."""
    search, keys = keyed_search(FOUR_LAYERS)
    offchip = frozenset({keys["a"], keys["b"], keys["c"]})
    rows = table(search, Config(depth=1, offchip=offchip))
    assert [(row.what, row.nbytes, row.cycles) for row in rows[5:]] == [
        ("nn.matmul %a", RESULT, 2 * RESULT / OFFCHIP_RATE),
        ("nn.matmul %b", RESULT, 3 * RESULT / OFFCHIP_RATE),
        ("nn.matmul %c", RESULT, 3 * RESULT / OFFCHIP_RATE),
    ]


# --- the move that un-prefetches a result --------------------------------------------------


def test_the_result_taken_back_from_prefetching_is_one_the_largest_dma_buffer_reads():
    """The largest DMA buffer at the peak serves the unnamed op, which reads %c: of the two
    prefetched results, only %c can shrink that buffer (the tie of their sizes would pick %b);
    none can when the buffer serves %a, which reads neither."""
    search, keys = keyed_search(FOUR_LAYERS)
    prefetch = frozenset({keys["b"], keys["c"]})
    config = Config(depth=1, offchip=prefetch, prefetch=prefetch)
    peak = [("dma", 1088, None), ("dma", 64, None)]
    m = Measure(config, 1152, 0.0, 0.0, peak=peak, peak_ops={0: [keys["unnamed"]], 1: [keys["s"]]})
    results = [(moved, key) for moved, key, _ in search.moves(m) if key and key[0] == "result"]
    assert results == [(Config(depth=1, offchip=prefetch, prefetch=frozenset({keys["b"]})), ("result", keys["c"]))]
    m.peak_ops = {0: [keys["a"]], 1: [keys["c"]]}
    assert not [key for _, key, _ in search.moves(m) if key and key[0] == "result"]


# --- the table of a placement the search chose ----------------------------------------------


def test_place_module_tables_the_placement_it_chose():
    """Far from fitting, a chain's activations go off chip, each with the peak it cleared; with
    room, one op's weights stay resident."""
    chain = """
func.func @main(%x: tensor<1x64xf32>) -> tensor<1x64xf32> {
  %a = nn.relu %x : (tensor<1x64xf32>) -> tensor<1x64xf32>
  %0 = nn.tanh %a : (tensor<1x64xf32>) -> tensor<1x64xf32>
  %c = nn.sigmoid %0 : (tensor<1x64xf32>) -> tensor<1x64xf32>
  func.return %c : tensor<1x64xf32>
}
"""
    module, _ = parse_module(chain)
    rows = place_module(module, CHIP, 200)["main"].decisions
    assert rows == [
        Decision("DMA rotation", "sync (1 buffer)", "the fastest that fits", 0, 0.0),
        Decision("nn.relu %a", "off-chip arena, read in place", "live at the on-chip peak of 256 bytes", 256, 2 * 256 / OFFCHIP_RATE),
        Decision("nn.tanh %?", "off-chip arena, read in place", "live at the on-chip peak of 256 bytes", 256, 2 * 256 / OFFCHIP_RATE),
    ]
    one_layer = """
nn.global @w size(1024) seed(1)
func.func @main(%x: tensor<1x16xf32>) -> tensor<1x16xf32> {
  %blob = nn.get_global @w : tensor<1024xi8>
  %w = nn.view %blob[0] bytes(1024) : tensor<1024xi8> to tensor<16x16xf32>
  %y = nn.matmul %x, %w : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>
  func.return %y : tensor<1x16xf32>
}
"""
    module, _ = parse_module(one_layer)
    rows = place_module(module, CHIP, 4096)["main"].decisions
    assert rows[1:] == [Decision("weights of nn.matmul %y", "resident", "room left: loaded once, no transfer per inference", WEIGHT, 0.0)]


# --- the moves tried at a peak, and the refusal naming what cannot move ----------------------------


def test_every_kind_of_move_at_a_peak_in_the_order_tried():
    """A peak (written by hand) with a rotation of 3 buffers, the largest DMA buffer serving the
    unnamed op, %s, %c and %b, two prefetched results both read there (%b and %c, equal in size:
    the first key is taken back), %c's and %b's weights streamed in 3 slices each (341 bytes a
    slice, a count that does not divide 1024, as 8 slices of a 108-byte weight would not: both
    size the buffer), the unnamed op's weights read in place (no move), %a's resident, and three
    activations (%b's, off chip already, is none)."""
    search, k = keyed_search(FOUR_LAYERS)
    a, b, c, unnamed, s = k["a"], k["b"], k["c"], k["unnamed"], k["s"]
    config = (
        Config(depth=3, offchip=frozenset({b, c}), prefetch=frozenset({b, c}), evict=frozenset({b, c}))
        .with_weight(a, "resident").with_weight(unnamed, "offchip").with_slices(b, 3).with_slices(c, 3)
    )  # fmt: skip
    peak = [
        ("dma", 64, None), ("dma", 1088, None), ("resident", 1024, None), ("fixed", 16, None),
        ("activation", 64, a), ("activation", 96, s), ("activation", 32, unnamed), ("activation", 64, b),
    ]  # fmt: skip
    m = Measure(config, 1500, 0.0, 0.0, peak=peak, peak_ops={0: [a], 1: [unnamed, s, c, b]})
    at = "at the on-chip peak of 1500 bytes"
    largest = f"its weights size the largest DMA buffer {at}"
    want = [
        (replace(config, depth=2), None, f"fewer DMA buffers {at}"),
        (replace(config, prefetch=frozenset({c}), evict=frozenset({c})), ("result", b), f"it sizes the largest DMA buffer {at}"),
        (config.with_slices(c, 6).with_slices(b, 6), ("weights", c), largest),
        (config.with_slices(c, 1).with_weight(c, "offchip").with_slices(b, 1).with_weight(b, "offchip"), ("weights", c), largest),
    ]
    for key in (s, a, unnamed):  # the largest first
        off = replace(config, offchip=config.offchip | {key})
        prefetched = replace(off, prefetch=config.prefetch | {key})
        want += [
            (off, ("result", key), f"live {at}"),
            (prefetched, ("result", key), f"live {at}, idle until read"),
            (replace(prefetched, evict=config.evict | {key}), ("result", key), f"live {at}, idle between its write and its reads"),
        ]
    want.append((config.with_weight(a, "stream"), ("weights", a), f"resident bytes {at}"))
    assert search.moves(m) == want
    assert search.moves(replace(m, config=replace(config, depth=2)))[0][0].depth == 1
    assert search.moves(replace(m, config=replace(config, depth=1)))[0][0] != replace(config, depth=0)


def test_a_refusal_names_the_three_largest_tensors_that_cannot_move():
    search, k = keyed_search(FOUR_LAYERS, budget=100)
    peak = [("fixed", 64, k["c"]), ("fixed", 32, None), ("activation", 512, k["a"]), ("fixed", 128, k["unnamed"]), ("fixed", 16, k["b"])]
    assert search.stuck_message(Measure(Config(), 752, 0.0, 0.0, peak=peak)) == (
        "function @main needs at least 752 bytes of on-chip memory, more than the budget of 100: what stays on"
        " chip at its peak ('nn.matmul' %? (128 bytes), 'nn.matmul' %c (64 bytes), 32 bytes) cannot move"
    )


def test_far_over_the_budget_every_activation_at_the_peak_leaves_in_one_move():
    """Five activations at the peak, more than ACTIVATION_CANDIDATES (3): the three largest get
    their three moves each, and one more move takes all five off chip, named by the first."""
    search, k = keyed_search(FOUR_LAYERS)
    sizes = {"a": 64, "s": 96, "unnamed": 32, "b": 48, "c": 80}
    peak = [("activation", size, k[name]) for name, size in sizes.items()]
    m = Measure(Config(depth=1), 320, 0.0, 0.0, peak=peak)
    moves = search.moves(m)
    assert [key for _, key, _ in moves[:9]] == [("result", k[n]) for n in ("s", "c", "a") for _ in range(3)]
    assert moves[9:] == [
        (Config(depth=1, offchip=frozenset(k[n] for n in sizes)), ("result", k["a"]), "live at the on-chip peak of 320 bytes with 4 more")
    ]


def test_the_largest_resident_weight_streams_again_only_when_resident_bytes_are_at_the_peak():
    from test_place_mutants import BIG_THEN_SMALL

    search, k = keyed_search(BIG_THEN_SMALL)
    config = Config(depth=1).with_weight(k["a"], "resident").with_weight(k["b"], "resident")
    at_peak = Measure(config, 3072, 0.0, 0.0, peak=[("resident", 3072, None), ("activation", 64, k["a"])])
    assert search.moves(at_peak)[-1] == (
        config.with_weight(k["a"], "stream"), ("weights", k["a"]), "resident bytes at the on-chip peak of 3072 bytes"
    )  # %a's 2 KiB, not %b's 1 KiB
    elsewhere = Measure(config, 64, 0.0, 0.0, peak=[("activation", 64, k["a"])])
    assert [key for _, key, _ in search.moves(elsewhere)] == [("result", k["a"])] * 3
