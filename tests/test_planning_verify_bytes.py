"""The plan verifier on a 1-byte, 1-step grid, against a brute-force occupancy grid.

The reference shares nothing with the verifier or with ``problem.conflicts``:
for every way the ifs can go it marks, step by step and byte by byte, which
buffers exist there, and a plan is valid when no cell holds two buffers and
every buffer lies inside the arena.
"""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from cfmem.planning.problem import Buffer
from cfmem.planning.verify import PlanError, verify_plan

IF_IDS = (1, 2)
PATHS = [(), ((1, 0),), ((1, 1),), ((1, 0), (2, 0)), ((1, 0), (2, 1)), ((2, 1),)]


def executions(buffers: list[Buffer]) -> list[dict[int, int]]:
    """Every choice of branch for every if that some buffer's path mentions."""
    ifs = sorted({if_id for b in buffers for if_id, _ in b.path})
    return [dict(zip(ifs, branches)) for branches in itertools.product((0, 1), repeat=len(ifs))]


def runs_in(b: Buffer, execution: dict[int, int]) -> bool:
    return all(execution[if_id] == branch for if_id, branch in b.path)


def reference_collisions(buffers: list[Buffer], offsets: dict[str, int]) -> set[frozenset[str]]:
    """Pairs of buffers that some execution has on one byte at one step."""
    horizon = max((b.end for b in buffers), default=0)
    width = max((offsets[b.id] + b.size for b in buffers), default=0)
    collisions: set[frozenset[str]] = set()
    for execution in executions(buffers):
        grid = [[[] for _ in range(width)] for _ in range(horizon)]
        for b in buffers:
            if not runs_in(b, execution):
                continue
            for step in range(b.start, b.end):
                for byte in range(offsets[b.id], offsets[b.id] + b.size):
                    grid[step][byte].append(b.id)
        for row in grid:
            for cell in row:
                collisions.update(frozenset(pair) for pair in itertools.combinations(cell, 2))
    return collisions


def reference_outside(buffers: list[Buffer], offsets: dict[str, int], arena_size: int | None) -> set[str]:
    """Buffers that end past the arena (a zero-size one at its offset)."""
    if arena_size is None:
        return set()
    return {b.id for b in buffers if offsets[b.id] + b.size - 1 >= arena_size or offsets[b.id] > arena_size}


def verifier_verdict(buffers, offsets, arena_size=None) -> str | None:
    try:
        verify_plan(buffers, offsets, arena_size)
    except PlanError as err:
        return str(err)
    return None


def assert_agrees(buffers: list[Buffer], offsets: dict[str, int], arena_size: int | None = None) -> None:
    collisions = reference_collisions(buffers, offsets)
    outside = reference_outside(buffers, offsets, arena_size)
    message = verifier_verdict(buffers, offsets, arena_size)
    if not collisions and not outside:
        assert message is None, f"valid plan rejected: {message}"
        return
    assert message is not None, f"missed: collisions {sorted(map(sorted, collisions))}, outside {sorted(outside)}"
    named = re.findall(r"'([^']*)' \[", message)
    if "does not fit in the arena" in message:
        assert named[0] in outside, message
    else:
        assert "live together and overlap" in message, message
        assert frozenset(named) in collisions, message


# --------------------------------------------------------------------------
# Two buffers at every edge, each one placed first in the sweep


A = Buffer("a", 4, 8, 5)  # steps [4, 8), placed at bytes [10, 15)
A_OFFSET = 10


def b_at(start: int, end: int, size: int, path=()) -> Buffer:
    return Buffer("b", start, end, size, path=path)


SPACE_CASES = {
    # b live through all of a's steps; bytes around a's [10, 15)
    "adjacent above": (b_at(4, 8, 3), 15, True),
    "adjacent below": (b_at(4, 8, 3), 7, True),
    "one byte over a's high edge": (b_at(4, 8, 3), 14, False),
    "one byte over a's low edge": (b_at(4, 8, 3), 8, False),
    "1-byte b on a's last byte": (b_at(4, 8, 1), 14, False),
    "1-byte b on a's first byte": (b_at(4, 8, 1), 10, False),
    "1-byte b just above": (b_at(4, 8, 1), 15, True),
    "1-byte b just below": (b_at(4, 8, 1), 9, True),
    "b inside a": (b_at(4, 8, 2), 12, False),
    "a inside b": (b_at(4, 8, 9), 8, False),
}

TIME_CASES = {
    # b on a's bytes exactly; steps around a's [4, 8)
    "b starts where a ends": (b_at(8, 11, 5), A_OFFSET, True),
    "b ends where a starts": (b_at(1, 4, 5), A_OFFSET, True),
    "b starts at a's last step": (b_at(7, 11, 5), A_OFFSET, False),
    "b ends at a's first step": (b_at(1, 5, 5), A_OFFSET, False),
    "1-step b at a's last step": (b_at(7, 8, 5), A_OFFSET, False),
    "1-step b at a's first step": (b_at(4, 5, 5), A_OFFSET, False),
    "1-step b right after a": (b_at(8, 9, 5), A_OFFSET, True),
    "1-step b right before a": (b_at(3, 4, 5), A_OFFSET, True),
}

CORNER_CASES = {
    # one byte and one step in common, at each corner of a's rectangle
    "top right": (b_at(7, 10, 3), 14, False),
    "top left": (b_at(2, 5, 3), 14, False),
    "bottom right": (b_at(7, 10, 3), 8, False),
    "bottom left": (b_at(2, 5, 3), 8, False),
    "diagonal above": (b_at(8, 10, 3), 15, True),
    "diagonal below": (b_at(2, 4, 3), 7, True),
}

EDGE_CASES = {**SPACE_CASES, **TIME_CASES, **CORNER_CASES}


@pytest.mark.parametrize("case", list(EDGE_CASES))
@pytest.mark.parametrize("order", ["a first", "b first"])
def test_edges_of_two_buffers(case, order):
    b, b_offset, valid = EDGE_CASES[case]
    buffers = [A, b] if order == "a first" else [b, A]
    offsets = {"a": A_OFFSET, "b": b_offset}
    message = verifier_verdict(buffers, offsets)
    assert (message is None) == valid, message
    assert_agrees(buffers, offsets)


@pytest.mark.parametrize("case", list(SPACE_CASES))
def test_space_edges_with_the_same_start(case):
    b, b_offset, valid = SPACE_CASES[case]
    same_start = Buffer("b", A.start, A.start + 2, b.size)
    for buffers in ([A, same_start], [same_start, A]):
        assert (verifier_verdict(buffers, {"a": A_OFFSET, "b": b_offset}) is None) == valid


@pytest.mark.parametrize("case", list(EDGE_CASES))
def test_edges_between_branches(case):
    """Other branch of one if: never together; an enclosing branch: as without paths."""
    b, b_offset, valid = EDGE_CASES[case]
    a_then = Buffer("a", A.start, A.end, A.size, path=((1, 0),))
    offsets = {"a": A_OFFSET, "b": b_offset}
    b_else = Buffer("b", b.start, b.end, b.size, path=((1, 1),))
    b_nested = Buffer("b", b.start, b.end, b.size, path=((1, 0), (2, 1)))
    for buffers in ([a_then, b_else], [b_else, a_then]):
        assert verifier_verdict(buffers, offsets) is None
    for buffers in ([a_then, b_nested], [b_nested, a_then], [a_then, b], [b, a_then]):
        assert (verifier_verdict(buffers, offsets) is None) == valid
        assert_agrees(buffers, offsets)


@pytest.mark.parametrize("n_offset, collides_with", [(4, None), (3, "b"), (5, "c")])
def test_a_one_byte_buffer_in_a_one_byte_gap(n_offset, collides_with):
    # b holds bytes [0, 4), c [5, 9); the gap between them is byte 4
    buffers = [Buffer("b", 0, 9, 4), Buffer("c", 0, 9, 4), Buffer("n", 3, 5, 1)]
    message = verifier_verdict(buffers, {"b": 0, "c": 5, "n": n_offset})
    if collides_with is None:
        assert message is None, message
    else:
        assert message is not None and f"'{collides_with}'" in message and "'n'" in message


@pytest.mark.parametrize("size, arena, valid", [(5, 15, True), (5, 14, False), (1, 11, True), (1, 10, False)])
def test_arena_high_edge(size, arena, valid):
    buffers = [Buffer("a", 0, 2, size)]
    assert (verifier_verdict(buffers, {"a": 10}, arena) is None) == valid
    assert_agrees(buffers, {"a": 10}, arena)


# --------------------------------------------------------------------------
# Random plans on a 1-byte grid


@st.composite
def plans(draw):
    count = draw(st.integers(1, 7))
    buffers, offsets = [], {}
    for i in range(count):
        start = draw(st.integers(0, 8))
        buffers.append(
            Buffer(
                f"b{i}",
                start,
                start + draw(st.integers(1, 4)),
                draw(st.integers(0, 6)),
                path=draw(st.sampled_from(PATHS)),
            )
        )
        offsets[f"b{i}"] = draw(st.integers(0, 14))
    return buffers, offsets


@st.composite
def near_misses(draw):
    """A valid random plan, then one buffer moved by one byte or one step."""
    buffers, offsets = draw(plans())
    # spread out to a valid plan: each buffer above everything before it
    top = 0
    for b in buffers:
        offsets[b.id] = top
        top += b.size
    i = draw(st.integers(0, len(buffers) - 1))
    j = draw(st.integers(0, len(buffers) - 1))
    a, b = buffers[i], buffers[j]
    # put b right next to a in space or time, then maybe 1 over the edge
    over = draw(st.sampled_from([0, 1]))
    if i != j and draw(st.booleans()):
        offsets[b.id] = offsets[a.id] + a.size - over if draw(st.booleans()) else max(0, offsets[a.id] - b.size + over)
    elif i != j:
        length = b.end - b.start
        start = a.end - over if draw(st.booleans()) else max(0, a.start - length + over)
        buffers[j] = Buffer(b.id, start, start + length, b.size, path=b.path)
    return buffers, offsets


FAST = settings(max_examples=400, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(plans())
@example(([Buffer("x", 0, 2, 3), Buffer("y", 1, 3, 3)], {"x": 0, "y": 2}))
@example(([Buffer("x", 0, 2, 3), Buffer("y", 1, 3, 3)], {"x": 2, "y": 0}))
@example(([Buffer("x", 0, 2, 3), Buffer("y", 1, 3, 3)], {"x": 3, "y": 0}))
@example(([Buffer("x", 0, 2, 3), Buffer("y", 2, 3, 3)], {"x": 0, "y": 0}))
@example(([Buffer("x", 0, 2, 3), Buffer("y", 1, 2, 3)], {"x": 0, "y": 0}))
def test_random_plans_on_a_byte_grid(plan):
    buffers, offsets = plan
    assert_agrees(buffers, offsets)


@FAST
@given(near_misses())
def test_random_near_misses_by_one_byte_or_one_step(plan):
    buffers, offsets = plan
    assert_agrees(buffers, offsets)


@FAST
@given(plans(), st.integers(0, 20))
def test_random_plans_in_an_arena(plan, arena):
    buffers, offsets = plan
    assert_agrees(buffers, offsets, arena)
