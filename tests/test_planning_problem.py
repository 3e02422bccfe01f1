"""Buffers, problems and the lower bound, checked by hand and against a brute-force bound."""

from __future__ import annotations

import itertools
import random

import pytest

from cfmem.planning.problem import Buffer, Problem, Solution, align_up, conflicts, lower_bound, paths_compatible, peak_of


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("a", 3, 3, 4), "buffer a: end 3 must be after start 3"),
        (("a", 3, 2, 4), "buffer a: end 2 must be after start 3"),
        (("a", 0, 1, -1), "buffer a: negative size -1"),
        (("a", 0, 1, 4, 0), "buffer a: alignment must be >= 1"),
    ],
)
def test_a_malformed_buffer_is_refused_with_its_id(args, message):
    with pytest.raises(ValueError) as err:
        Buffer(*args)
    assert str(err.value) == message


def test_the_smallest_valid_buffer():
    assert Buffer("a", 3, 4, 0, 1).size == 0


def test_buffer_ids_must_be_unique():
    with pytest.raises(ValueError) as err:
        Problem([Buffer("a", 0, 1, 4), Buffer("a", 1, 2, 4)])
    assert str(err.value) == "buffer ids must be unique"


def test_no_buffers_need_no_bytes():
    assert peak_of([], {}) == 0
    assert lower_bound([]) == 0
    assert Solution({}, 0, 0).gap_pct == 0.0


def test_the_gap_is_in_percent_of_the_bound():
    assert Solution({}, 150, 120).gap_pct == 25.0


def test_align_up_rounds_to_the_next_multiple():
    assert [align_up(v, 16) for v in (0, 1, 16, 17)] == [0, 16, 16, 32]


def test_paths_conflict_only_on_a_common_path():
    then0, else0, then1 = ((0, 0),), ((0, 1),), ((1, 0),)
    assert paths_compatible(then0, then0 + then1) and paths_compatible((), else0)
    assert not paths_compatible(then0, else0) and not paths_compatible(else0 + then1, then0)
    a, b = Buffer("a", 0, 2, 4, path=then0), Buffer("b", 1, 3, 4, path=else0)
    assert not conflicts(a, b) and conflicts(a, Buffer("c", 1, 3, 4))
    assert not conflicts(a, Buffer("d", 2, 3, 4))  # half-open: a ends where d starts


def test_the_bound_counts_starts_after_ends_at_the_same_step():
    assert lower_bound([Buffer("a", 0, 2, 5), Buffer("b", 2, 4, 7), Buffer("c", 1, 2, 1)]) == 7


def test_the_bound_on_paths_takes_the_best_branch_of_each_if():
    then0, else0 = ((0, 0),), ((0, 1),)
    buffers = [
        Buffer("x", 0, 4, 10),
        Buffer("t", 1, 3, 6, path=then0),
        Buffer("tt", 2, 3, 5, path=then0 + ((1, 0),)),
        Buffer("te", 2, 3, 8, path=then0 + ((1, 1),)),
        Buffer("e", 1, 3, 9, path=else0),
    ]
    assert lower_bound(buffers) == 10 + 6 + 8  # x, then branch, its inner else


def brute_force_bound(buffers: list[Buffer]) -> int:
    """Max over every execution path (a choice per if) and step of the bytes live on that path."""
    ifs = sorted({if_id for b in buffers for if_id, _ in b.path})
    steps = {b.start for b in buffers}
    best = 0
    for choice in itertools.product((0, 1), repeat=len(ifs)):
        chosen = dict(zip(ifs, choice))
        on_path = [b for b in buffers if all(chosen[i] == branch for i, branch in b.path)]
        for step in steps:
            best = max(best, sum(b.size for b in on_path if b.start <= step < b.end))
    return best


def random_nested_buffers(rng: random.Random) -> list[Buffer]:
    """Buffers under up to three ifs, nested as a tree (if 1 and 2 inside branches of if 0)."""
    paths = [(), ((0, 0),), ((0, 1),), ((0, 0), (1, 0)), ((0, 0), (1, 1)), ((0, 1), (2, 0)), ((0, 1), (2, 1))]
    buffers = []
    for k in range(rng.randrange(1, 12)):
        start = rng.randrange(8)
        buffers.append(Buffer(f"b{k}", start, start + rng.randrange(1, 5), rng.randrange(0, 20), path=rng.choice(paths)))
    return buffers


@pytest.mark.parametrize("seed", range(40))
def test_the_bound_matches_brute_force_over_every_path(seed):
    buffers = random_nested_buffers(random.Random(seed))
    assert lower_bound(buffers) == brute_force_bound(buffers)
