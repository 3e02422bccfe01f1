"""Where each weight and activation lives: the attributes ``nn-place`` writes.

The placement is stored on the IR so every later pass, in one ``xdsl-opt``
call or several, reads the same decisions:

- ``cfmem.weights = "stream" | "resident" | "offchip"`` on an op that reads
  weights: streamed by DMA before each use (the default when absent), loaded
  once before the first inference into on-chip bytes kept for the whole
  function, or read by the op straight from off-chip memory;
- ``cfmem.offchip`` (unit) on an op: its results live in the off-chip
  activation arena, written by compute at off-chip cost and read in place
  at off-chip cost, or, with ``cfmem.prefetch`` (unit) too, read back by
  DMA into the reading op's buffers in time for each reader, as weights are
  streamed; with ``cfmem.evict`` (unit) as well, the op computes its results
  on chip and a DMA transfer copies them out (``nn-insert-dma`` makes the
  off-chip copy, which readers prefetch);
- ``cfmem.slices = N`` on an op: compute it in N slices of its weights
  (``nn-slice-weights`` cuts it; each slice carries ``cfmem.slice_of``);
- ``cfmem.dma_depth = N`` on a function: buffers in rotation for streamed
  weights (1 = sync);
- ``cfmem.onchip_budget = N`` on a function: the on-chip bytes everything
  must fit in (activations, DMA buffers, resident weights); the flat form
  keeps it and the flat interpreter enforces it.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import IntegerAttr, StringAttr, UnitAttr, i64
from xdsl.ir import Operation, SSAValue

from cfmem.passes.failures import OpFailure

WEIGHTS_ATTR = "cfmem.weights"
OFFCHIP_ATTR = "cfmem.offchip"
DEPTH_ATTR = "cfmem.dma_depth"
PREFETCH_ATTR = "cfmem.prefetch"
EVICT_ATTR = "cfmem.evict"
SLICES_ATTR = "cfmem.slices"
SLICE_OF_ATTR = "cfmem.slice_of"
"""On each slice op: the name of the op it is a slice of (the timing model charges each slice)."""
RESIDENT_ATTR = "cfmem.resident"
"""Unit attribute on the DMA buffer and transfers of resident weights."""

WEIGHT_PLACES = ("stream", "resident", "offchip")


def weight_place(op: Operation) -> str:
    """How ``op`` gets its weights: ``stream`` unless ``cfmem.weights`` says otherwise."""
    attr = op.attributes.get(WEIGHTS_ATTR)
    if attr is None:
        return "stream"
    if not isinstance(attr, StringAttr) or attr.data not in WEIGHT_PLACES:
        raise OpFailure(op,
            f"'{op.name}': {WEIGHTS_ATTR} must be one of {', '.join(repr(p) for p in WEIGHT_PLACES)}, not {attr}"
        )
    return attr.data


def set_weight_place(op: Operation, place: str) -> None:
    assert place in WEIGHT_PLACES
    if place == "stream":
        op.attributes.pop(WEIGHTS_ATTR, None)
    else:
        op.attributes[WEIGHTS_ATTR] = StringAttr(place)


def is_offchip_activation(value: SSAValue) -> bool:
    """Whether ``value`` is a result of an op placed in the off-chip activation arena (an
    evicted op computes on chip: its off-chip copy is another value)."""
    owner = value.owner
    return isinstance(owner, Operation) and OFFCHIP_ATTR in owner.attributes and EVICT_ATTR not in owner.attributes


def is_evicted(op: Operation) -> bool:
    return EVICT_ATTR in op.attributes


def is_prefetched(value: SSAValue) -> bool:
    """Whether ``value`` lives off chip and its readers get it by DMA."""
    owner = value.owner
    return is_offchip_activation(value) and PREFETCH_ATTR in owner.attributes  # type: ignore[union-attr]


def set_offchip(op: Operation, offchip: bool, prefetch: bool = False, evict: bool = False) -> None:
    """Put ``op``'s results off chip (read in place, prefetched by DMA, or also written out
    by DMA) or back on chip."""
    prefetch = offchip and (prefetch or evict)
    for name, on in ((OFFCHIP_ATTR, offchip), (PREFETCH_ATTR, prefetch), (EVICT_ATTR, offchip and evict)):
        if on:
            op.attributes[name] = UnitAttr()
        else:
            op.attributes.pop(name, None)


def is_resident(op: Operation) -> bool:
    return RESIDENT_ATTR in op.attributes


def function_int(fn: func.FuncOp, name: str) -> int | None:
    """The integer attribute ``name`` of ``fn``, or None when absent."""
    attr = fn.attributes.get(name)
    if attr is None:
        return None
    if not isinstance(attr, IntegerAttr):
        raise OpFailure(fn, f"function @{fn.sym_name.data}: {name} must be an integer, not {attr}")
    return attr.value.data


def set_function_int(fn: func.FuncOp, name: str, value: int | None) -> None:
    if value is None:
        fn.attributes.pop(name, None)
    else:
        fn.attributes[name] = IntegerAttr(value, i64)
