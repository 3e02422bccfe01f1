"""Greedy placement against a slow reference written from the module docstring.

The reference knows nothing of the time index: for each buffer it collects the
byte ranges of the placed buffers it conflicts with (``conflicts``), then

- first fit: the lowest offset among 0 and the aligned tops of those ranges
  at which the buffer overlaps none of them (the lowest aligned free offset
  is always one of these);
- best fit: the free gaps of their union (below the first range, between
  ranges), each from its aligned start; the smallest one that holds the
  buffer, lowest on ties, else the aligned top of the union.

Orders come from ``test_planning_orders.DOCUMENTED_ORDER`` (comparisons
written from the docstring, natural id order included). Problems are shaped
to reach every way the index finds placed bytes: many steps and long
lifetimes (runs across blocks, copies in many rows), many ranges in one read,
step numbers and sizes beyond what a float holds exactly, sizes beyond int64
(object arrays), ids with several runs of digits, branch paths.
"""

from __future__ import annotations

import gc
import random
from dataclasses import replace

import pytest

from cfmem.planning import greedy
from cfmem.planning.problem import Buffer, PlanOptions, Problem, conflicts
from cfmem.planning.verify import verify_plan
from test_planning_greedy import random_buffers
from test_planning_orders import DOCUMENTED_ORDER, PLANNERS

# --------------------------------------------------------------------------
# The reference


def align_up(value: int, align: int) -> int:
    return (value + align - 1) // align * align


def busy_ranges(placed: list[tuple[Buffer, int]], b: Buffer) -> list[tuple[int, int]]:
    """Byte ranges of the placed buffers that ``b`` must not overlap."""
    return [(x, x + p.size) for p, x in placed if p.size and conflicts(p, b)]


def first_fit(busy: list[tuple[int, int]], size: int, align: int) -> int:
    candidates = sorted({0} | {align_up(hi, align) for _, hi in busy})
    return next(x for x in candidates if all(x + size <= lo or hi <= x for lo, hi in busy))


def union(busy: list[tuple[int, int]]) -> list[list[int]]:
    merged: list[list[int]] = []
    for lo, hi in sorted(busy):
        if merged and lo <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], hi)
        else:
            merged.append([lo, hi])
    return merged


def best_fit(busy: list[tuple[int, int]], size: int, align: int) -> int:
    merged = union(busy)
    gaps = []  # (room above the aligned start, aligned start)
    below = 0
    for lo, hi in merged:
        x = align_up(below, align)
        if x + size <= lo:
            gaps.append((lo - x, x))
        below = hi
    if gaps:
        return min(gaps)[1]
    return align_up(below, align)


def reference_place(order: list[Buffer], best: bool) -> dict[str, int]:
    placed: list[tuple[Buffer, int]] = []
    offsets = {}
    for b in order:
        if b.size == 0:
            offsets[b.id] = 0
            continue
        busy = busy_ranges(placed, b)
        offsets[b.id] = (best_fit if best else first_fit)(busy, b.size, b.align)
        placed.append((b, offsets[b.id]))
    return offsets


def reference_plan(strategy: str, buffers: list[Buffer]) -> dict[str, int]:
    return reference_place(sorted(buffers, key=DOCUMENTED_ORDER[strategy]), strategy == "best-fit")


def planned(strategy: str, buffers: list[Buffer]) -> dict[str, int]:
    return PLANNERS[strategy](Problem(buffers), PlanOptions()).offsets


def test_reference_by_hand():
    # busy [0,4) [6,9) [12,20): first fit of 2 bytes -> 4; of 3 -> 9; aligned to 8 -> 24
    busy = [(12, 20), (0, 4), (6, 9)]
    assert first_fit(busy, 2, 1) == 4
    assert first_fit(busy, 3, 1) == 9
    assert first_fit(busy, 3, 8) == 24
    # gaps [4,6) (2 bytes) and [9,12) (3 bytes): best fit of 2 -> 4, of 3 -> 9, of 4 -> top 20
    assert best_fit(busy, 2, 1) == 4
    assert best_fit(busy, 3, 1) == 9
    assert best_fit(busy, 4, 1) == 20
    # aligned to 2: [4,6) holds 2 from 4; [9,12) only from 10 -> 2 bytes: the lower one wins
    assert best_fit(busy, 2, 2) == 4
    assert best_fit([(1, 3), (5, 9)], 1, 1) == 0  # [0,1) is a gap too
    assert best_fit([], 5, 4) == 0


# --------------------------------------------------------------------------
# Problems

# distinct ids whose natural order differs from their plain string order in
# every way the key can get wrong: digits only, digits first, several runs
ID_FORMS = ["{a}", "{a}A", "{a}a", "A{a}", "t{a}", "x{a}y{b}", "x{a}y{b}z", "a{a}b{b}c{c}", "Z{a}_{b}"]


def id_pool(rng: random.Random, n: int) -> list[str]:
    ids: set[str] = set()
    while len(ids) < n:
        form = rng.choice(ID_FORMS)
        ids.add(form.format(a=rng.randint(1, 12), b=rng.randint(1, 12), c=rng.randint(1, 12)))
    return sorted(ids)


def renamed(rng: random.Random, buffers: list[Buffer]) -> list[Buffer]:
    ids = id_pool(rng, len(buffers))
    rng.shuffle(ids)
    return [replace(b, id=name) for b, name in zip(buffers, ids)]


def tied(rng: random.Random, n: int) -> list[Buffer]:
    """Few distinct starts, ends and sizes: orders come down to ids."""
    buffers = []
    for name in id_pool(rng, n):
        start = rng.choice([0, 2, 2, 5])
        buffers.append(Buffer(name, start, start + rng.choice([1, 3, 3, 6]), rng.choice([1, 4, 4, 8])))
    return buffers


@pytest.mark.parametrize("strategy", list(PLANNERS))
@pytest.mark.parametrize("seed", range(10))
def test_ties_broken_by_natural_id_order(strategy, seed):
    rng = random.Random(seed)
    buffers = tied(rng, rng.randint(5, 40))
    assert planned(strategy, buffers) == reference_plan(strategy, buffers)


@pytest.mark.parametrize("strategy", list(PLANNERS))
@pytest.mark.parametrize("seed", range(6))
def test_random_problems_with_paths_alignment_and_many_steps(strategy, seed):
    rng = random.Random(1000 + seed)
    n = [40, 150, 300][seed % 3]
    buffers = renamed(rng, random_buffers(rng, n, horizon=[8, 60, 250][seed % 3], paths=seed % 2 == 0, align=seed < 3))
    offsets = planned(strategy, buffers)
    verify_plan(buffers, offsets)
    assert offsets == reference_plan(strategy, buffers)


@pytest.mark.parametrize("best", [False, True])
@pytest.mark.parametrize("seed", range(6))
def test_place_in_any_order(best, seed):
    """The engine under the strategies takes any order, not only theirs."""
    rng = random.Random(2000 + seed)
    n, horizon = rng.choice([30, 120, 250]), rng.choice([6, 40])
    buffers = random_buffers(rng, n, horizon=horizon, paths=True, align=seed % 2 == 0)
    rng.shuffle(buffers)
    assert greedy.place_in_order(buffers, best) == reference_place(buffers, best)


@pytest.mark.parametrize("best", [False, True])
@pytest.mark.parametrize("align", [16, 64])
def test_one_alignment_for_every_buffer(best, align):
    """When all buffers share an alignment the index keeps tops rounded up to it;
    the offsets are the reference's all the same (sizes that are not multiples of it)."""
    rng = random.Random(align + best)
    buffers = [replace(b, align=align) for b in random_buffers(rng, 250, horizon=40, paths=True, align=False)]
    rng.shuffle(buffers)
    assert greedy.place_in_order(buffers, best) == reference_place(buffers, best)


def test_place_in_order_is_first_fit_unless_asked():
    gap_maker = [
        Buffer("low", 0, 2, 4),
        Buffer("mid", 0, 3, 1),
        Buffer("high", 0, 2, 2),
        Buffer("top", 0, 3, 1),
        Buffer("b", 2, 3, 2),
    ]
    # stacked during [0,2); during [2,3) only mid [4,5) and top [7,8) remain:
    # gaps [0,4) and [5,7); first fit takes the lowest, best fit the smaller
    assert greedy.place_in_order(gap_maker) == {"low": 0, "mid": 4, "high": 5, "top": 7, "b": 0}
    assert greedy.place_in_order(gap_maker, best_fit=True)["b"] == 5
    for best in (False, True):
        assert greedy.place_in_order(gap_maker, best) == reference_place(gap_maker, best)
    many = random_buffers(random.Random(5), 200, horizon=30, paths=True, align=True)
    assert greedy.place_in_order(many) == reference_place(many, False)


# --------------------------------------------------------------------------
# Large numbers


@pytest.mark.parametrize("base", [1 << 60, (1 << 60) + 1, -(1 << 61) - 3])
@pytest.mark.parametrize("strategy", list(PLANNERS))
def test_step_numbers_far_from_zero(strategy, base):
    """Steps a float cannot tell apart (2**60 + k) stay distinct."""
    rng = random.Random(base % 1000)
    buffers = random_buffers(rng, 120, horizon=25, paths=False, align=False)
    buffers = [replace(b, start=b.start + base, end=b.end + base) for b in buffers]
    offsets = planned(strategy, buffers)
    verify_plan(buffers, offsets)
    assert offsets == reference_plan(strategy, buffers)


def comb(unit: int, teeth: int) -> list[Buffer]:
    """Buffers live through step 1 stacked by size (largest first), every
    other one also through step 2; at step 2 their bytes are ``teeth``
    separate ranges with gaps of decreasing size between them."""
    buffers = []
    for k in range(2 * teeth):
        buffers.append(Buffer(f"s{k}", 0, 3 if k % 2 else 2, unit + 3 * (2 * teeth - k) + 1))
    return buffers


@pytest.mark.parametrize("unit", [(1 << 54) + 1, 1 << 62, 1 << 70], ids=["2^54", "2^62", "2^70"])
@pytest.mark.parametrize("strategy", list(PLANNERS))
def test_huge_sizes_with_many_gaps(strategy, unit):
    """Sizes that float or int64 arithmetic would get wrong, in gap searches
    over many ranges."""
    buffers = comb(unit, 60) + [Buffer("late", 2, 4, 5), Buffer("later", 2, 5, unit // 3)]
    offsets = planned(strategy, buffers)
    verify_plan(buffers, offsets)
    assert offsets == reference_plan(strategy, buffers)


def test_huge_buffer_over_many_small_ranges():
    """A buffer too large for int64 gap arithmetic, placed over many ranges."""
    # p0..p99 stacked one byte each during step 0; the even ones stay through
    # step 1, where they are 50 separate one-byte ranges from 0 to 99
    teeth = [Buffer(f"p{k}", 0, 1 if k % 2 else 2, 1) for k in range(100)]
    for size, align in [((1 << 61) + 1, 1 << 40), ((1 << 62) + 7, 1), ((1 << 61) - 150, 1), (1 << 70, 8)]:
        order = [*teeth, Buffer("huge", 1, 2, size, align=align)]
        for best in (False, True):
            offsets = greedy.place_in_order(order, best)
            assert offsets == reference_place(order, best)
            assert offsets["huge"] == align_up(99, align)


# --------------------------------------------------------------------------
# The garbage collector


def test_planning_leaves_the_garbage_collector_as_it_was():
    buffers = random_buffers(random.Random(4), 50, horizon=10, paths=False, align=False)
    was = gc.isenabled()
    try:
        for state in (True, False, True):
            (gc.enable if state else gc.disable)()
            for strategy in PLANNERS:
                planned(strategy, buffers)
                assert gc.isenabled() is state
    finally:
        (gc.enable if was else gc.disable)()


# --------------------------------------------------------------------------
# What the time index keeps, against its description
#
# Offsets above show the reads are complete; here the layout itself is
# compared with the class docstring: blocks of compressed steps, one row per
# block holding a copy of every placed buffer live across the block's first
# slot, and the start-sorted arrays holding every placed buffer once.


def slots_of(order: list[Buffer]) -> tuple[dict[str, int], dict[str, int]]:
    times = sorted({b.start for b in order} | {b.end for b in order})
    return {b.id: times.index(b.start) for b in order}, {b.id: times.index(b.end) for b in order}


def layout_problems() -> list[list[Buffer]]:
    rng = random.Random(77)
    problems = [[Buffer("only", 3, 9, 4)], [Buffer("a", 0, 1, 4), Buffer("b", 0, 1, 2)]]
    for n, horizon in [(6, 4), (25, 12), (60, 40), (150, 120), (200, 300)]:
        for _ in range(3):
            buffers = random_buffers(rng, n, horizon=horizon, paths=True, align=False)
            rng.shuffle(buffers)
            problems.append(buffers)
    return problems


@pytest.mark.parametrize("block", [1, 2, 5, 512])
@pytest.mark.parametrize("k", range(len(layout_problems())))
def test_rows_hold_the_placed_buffers_live_across_each_block_start(monkeypatch, k, block):
    monkeypatch.setattr(greedy, "_BLOCK_MIN", block)
    order = layout_problems()[k]
    index = greedy._TimeIndex(order)
    first, last = slots_of(order)
    placed: list[tuple[Buffer, int]] = []
    for step, b in enumerate(order):
        if step % 7 == 0 or step == len(order) - 1:  # compare the layout now and then
            rows = index._row_len
            for row in range(len(rows)):
                boundary = row * index._block
                base = index._row_base[row]
                got = sorted(zip(index._copy_end[base : base + rows[row]].tolist(),
                                 index._copy_span[0, base : base + rows[row]].tolist()))
                expected = sorted((last[p.id], x) for p, x in placed
                                  if p.size and first[p.id] < boundary < last[p.id])
                assert got == expected, (row, boundary)
            ends = index._end.tolist()
            assert sorted(e for e in ends if e >= 0) == sorted(last[p.id] for p, _ in placed if p.size)
        placed.append((b, index.place(b, best_fit=step % 2 == 0)))


@pytest.mark.parametrize("copies", [0, 1, 8])
def test_blocks_grow_until_the_copies_fit_their_budget(monkeypatch, copies):
    monkeypatch.setattr(greedy, "_BLOCK_MIN", 1)
    monkeypatch.setattr(greedy, "_COPIES_PER_BUFFER", copies)
    order = random_buffers(random.Random(copies), 120, horizon=200, paths=False, align=False)
    index = greedy._TimeIndex(order)
    first, last = slots_of(order)
    slots = len({b.start for b in order} | {b.end for b in order})

    def copies_at(block: int) -> int:
        return sum(max(0, (last[b.id] - 1) // block - first[b.id] // block) for b in order)

    block = index._block
    assert copies_at(block) <= copies * len(order) + slots // block
    assert block == 1 or copies_at(block // 2) > copies * len(order) + slots // (block // 2)
    assert sum(index._row_len) == 0 and index._row_base[-1] == copies_at(block)
    for best in (False, True):
        assert greedy.place_in_order(order, best) == reference_place(order, best)


@pytest.mark.parametrize("block", [1, 3])
@pytest.mark.parametrize("seed", range(4))
def test_small_blocks_place_as_the_reference(monkeypatch, block, seed):
    """Blocks of one or a few steps: most buffers are copied into several rows."""
    monkeypatch.setattr(greedy, "_BLOCK_MIN", block)
    monkeypatch.setattr(greedy, "_COPIES_PER_BUFFER", 10**6)
    rng = random.Random(3000 + seed)
    buffers = random_buffers(rng, 200, horizon=60, paths=seed % 2 == 0, align=True)
    rng.shuffle(buffers)
    for best in (False, True):
        assert greedy.place_in_order(buffers, best) == reference_place(buffers, best)
