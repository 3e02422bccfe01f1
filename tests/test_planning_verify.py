"""The independent plan verifier: what it rejects, what it accepts, how fast."""

import random
import time

import pytest

from cfmem.planning.problem import Buffer
from cfmem.planning.verify import PlanError, verify_plan


def test_accepts_a_valid_plan():
    buffers = [Buffer("a", 0, 3, 64), Buffer("b", 2, 5, 64), Buffer("c", 3, 6, 64)]
    # a and b overlap in time; c reuses a's bytes after a ends at 3
    verify_plan(buffers, {"a": 0, "b": 64, "c": 0}, arena_size=128)


def test_rejects_two_live_buffers_that_overlap_and_names_both():
    buffers = [Buffer("a", 0, 3, 64), Buffer("b", 2, 5, 64)]
    with pytest.raises(PlanError) as err:
        verify_plan(buffers, {"a": 0, "b": 32})
    message = str(err.value)
    assert "'a' [0, 3) bytes [0, 64)" in message
    assert "'b' [2, 5) bytes [32, 96)" in message
    assert "live together and overlap" in message


def test_half_open_lifetimes_may_share_bytes():
    # a ends at 3 where b starts: never live together
    verify_plan([Buffer("a", 0, 3, 64), Buffer("b", 3, 5, 64)], {"a": 0, "b": 0})


def test_same_offset_same_start_is_caught():
    buffers = [Buffer("x", 4, 5, 8), Buffer("y", 4, 9, 8)]
    with pytest.raises(PlanError, match="'x'.*'y'"):
        verify_plan(buffers, {"x": 16, "y": 16})


def test_collision_with_a_buffer_that_is_not_an_address_neighbour():
    # "big" spans bytes [0, 100); two small live buffers sit inside it
    buffers = [Buffer("s1", 0, 10, 10), Buffer("s2", 0, 10, 10), Buffer("big", 5, 6, 100)]
    with pytest.raises(PlanError, match="'s1'.*'big'|'s2'.*'big'"):
        verify_plan(buffers, {"s1": 20, "s2": 60, "big": 0})


def test_rejects_a_buffer_outside_the_arena():
    with pytest.raises(PlanError, match="'b'.*does not fit in the arena of 100 bytes"):
        verify_plan([Buffer("a", 0, 2, 50), Buffer("b", 2, 4, 60)], {"a": 0, "b": 50}, arena_size=100)


def test_rejects_a_negative_offset():
    with pytest.raises(PlanError, match="'a' has negative offset -4"):
        verify_plan([Buffer("a", 0, 2, 8)], {"a": -4})


def test_rejects_a_misaligned_offset():
    with pytest.raises(PlanError, match="'a' at offset 24 is not aligned to 16 bytes"):
        verify_plan([Buffer("a", 0, 2, 8, align=16)], {"a": 24})


def test_rejects_a_missing_offset():
    with pytest.raises(PlanError, match="'b' \\[1, 2\\) has no offset"):
        verify_plan([Buffer("a", 0, 2, 8), Buffer("b", 1, 2, 8)], {"a": 0})


def test_zero_size_buffers_never_collide():
    buffers = [Buffer("a", 0, 4, 64), Buffer("empty", 1, 3, 0)]
    verify_plan(buffers, {"a": 0, "empty": 32}, arena_size=64)


IF_THEN = ((7, 0),)
IF_ELSE = ((7, 1),)


def test_accepts_overlap_on_different_branches_of_one_if():
    buffers = [Buffer("then", 2, 5, 64, path=IF_THEN), Buffer("else", 2, 5, 64, path=IF_ELSE)]
    verify_plan(buffers, {"then": 0, "else": 0}, arena_size=64)


def test_accepts_nested_branch_under_the_other_branch():
    buffers = [
        Buffer("then", 2, 5, 64, path=IF_THEN),
        Buffer("else.inner", 3, 4, 64, path=((7, 1), (9, 0))),
    ]
    verify_plan(buffers, {"then": 0, "else.inner": 0})


def test_rejects_overlap_of_a_branch_buffer_with_a_pathless_one():
    buffers = [
        Buffer("then", 2, 5, 64, path=IF_THEN),
        Buffer("else", 2, 5, 64, path=IF_ELSE),
        Buffer("outer", 0, 9, 64),
    ]
    with pytest.raises(PlanError, match="'outer' \\[0, 9\\) bytes \\[32, 96\\) and '(then|else)'"):
        verify_plan(buffers, {"then": 0, "else": 0, "outer": 32})


def test_rejects_overlap_on_the_same_branch():
    buffers = [Buffer("t1", 2, 5, 64, path=IF_THEN), Buffer("t2", 3, 5, 64, path=IF_THEN)]
    with pytest.raises(PlanError, match="'t1'.*'t2'"):
        verify_plan(buffers, {"t1": 0, "t2": 63})


def test_rejects_overlap_with_an_enclosing_branch():
    buffers = [Buffer("then", 0, 9, 64, path=IF_THEN), Buffer("then.inner", 3, 4, 8, path=((7, 0), (9, 1)))]
    with pytest.raises(PlanError, match="'then'.*'then.inner'"):
        verify_plan(buffers, {"then": 0, "then.inner": 8})


def _brute_force_ok(buffers, offsets):
    from cfmem.planning.problem import conflicts

    for i, a in enumerate(buffers):
        for b in buffers[i + 1 :]:
            if a.size and b.size and conflicts(a, b):
                if offsets[a.id] < offsets[b.id] + b.size and offsets[b.id] < offsets[a.id] + a.size:
                    return False
    return True


@pytest.mark.parametrize("seed", range(40))
def test_agrees_with_brute_force_on_random_plans(seed):
    rng = random.Random(seed)
    paths = [(), (), ((1, 0),), ((1, 1),), ((1, 0), (2, 0)), ((1, 0), (2, 1)), ((3, 1),)]
    buffers = []
    for i in range(rng.randint(2, 14)):
        start = rng.randrange(10)
        buffers.append(Buffer(f"b{i}", start, start + rng.randint(1, 5), rng.choice([0, 4, 8, 16]), path=rng.choice(paths)))
    offsets = {b.id: rng.randrange(0, 40, 4) for b in buffers}
    expected = _brute_force_ok(buffers, offsets)
    try:
        verify_plan(buffers, offsets)
        assert expected, "verifier missed a collision"
    except PlanError:
        assert not expected, "verifier rejected a valid plan"


def test_fast_on_100k_buffers():
    rng = random.Random(0)
    buffers, offsets = [], {}
    # a valid plan by construction: each buffer gets a lane of its own among 64
    lanes_free_at = [0] * 64
    for i in range(100_000):
        lane = rng.randrange(64)
        start = lanes_free_at[lane] + rng.randint(0, 3)
        end = start + rng.randint(1, 20)
        lanes_free_at[lane] = end
        buffers.append(Buffer(str(i), start, end, rng.randint(1, 1024)))
        offsets[str(i)] = lane * 1024
    began = time.perf_counter()
    verify_plan(buffers, offsets, arena_size=64 * 1024)
    assert time.perf_counter() - began < 5.0
