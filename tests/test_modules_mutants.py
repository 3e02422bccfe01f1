"""Cases mutation testing found unguarded in the planners, DMA tools, liveness and ONNX op mappings."""

from __future__ import annotations

from cfmem.planning.problem import Buffer, paths_compatible


def test_paths_on_other_branches_of_one_if_are_incompatible():
    assert not paths_compatible(((0, 0),), ((0, 1),))
    assert paths_compatible(((0, 0),), ((1, 1),))
    assert Buffer("a", 0, 1, 4).path == ()
