"""The flat interpreter with an error bound carried beside every element it stores.

Each memory has a shadow of float64 bounds, one per byte, an element's bound kept at its
first byte; a ``Ref``'s bounds are every ``itemsize``-th shadow entry from its offset. An
``nn.apply`` stores the bound :mod:`cfmem.interp.divergence` derives for its op from its
arguments' bounds, a ``memref.copy`` or DMA transfer copies the shadow with the bytes,
anything else (``memref.store`` of an index) stores 0. Inputs, weights and bytes no op
wrote have bound 0: both runs start from the same bits.

Assumes element types keep their alignment through the bytes (a view reads the elements
some op wrote at the same byte offsets, as the planner places whole tensors).
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import func

from cfmem.dialects.nn_memref import ApplyOp
from cfmem.interp.divergence import Bound, NoBoundError, prepare_bound
from cfmem.interp.flat import FlatInterpreter, Memory, Ref, Transfer
from cfmem.interp.golden import InterpError, RunResult


class BoundedFlatInterpreter(FlatInterpreter):
    """``FlatInterpreter`` whose runs also give ``output_bounds``: per output, how far another
    correct float32 run of the same ops may be from this one, element by element."""

    def __init__(self, module, check: bool = True):
        super().__init__(module, check)
        self.shadows: dict[Memory, np.ndarray] = {}
        self.output_bounds: dict[str, np.ndarray] = {}
        self._bounds: dict[ApplyOp, Bound] = {}
        self._next: np.ndarray | None = None
        self._in_flight: dict[int, np.ndarray | None] = {}

    def run(self, fn: func.FuncOp, inputs: dict[str, np.ndarray]) -> RunResult:
        self.shadows, self._in_flight, self._next = {}, {}, None
        result = super().run(fn, inputs)
        self.output_bounds = {name: self.bounds_of(ref).copy() for name, ref in zip(result.outputs, self.output_refs)}
        return result

    def bounds_of(self, ref: Ref, create: bool = False) -> np.ndarray:
        """The bounds of ``ref``'s elements (a view of the shadow; zeros if nothing wrote one)."""
        shadow = self.shadows.get(ref.memory)
        if shadow is None:
            if not create:
                return np.zeros(ref.shape)
            shadow = self.shadows[ref.memory] = np.zeros(ref.memory.data.size)
        return shadow[ref.offset : ref.end : ref.dtype.itemsize].reshape(ref.shape)

    def applied(self, op: ApplyOp, refs: list[Ref], args: list[np.ndarray], result: np.ndarray) -> None:
        bound = self._bounds.get(op)
        if bound is None:
            try:
                bound = self._bounds[op] = prepare_bound(op.compute)
            except NoBoundError as err:
                raise InterpError(str(err), op) from None
        with np.errstate(all="ignore"):
            self._next = bound(args, [self.bounds_of(ref) for ref in refs], result)

    def copying(self, source: Ref) -> None:
        self._next = self.bounds_of(source).copy()

    def transfer_started(self, transfer: Transfer, source: Memory, start: int) -> None:
        shadow = self.shadows.get(source)
        self._in_flight[id(transfer)] = None if shadow is None else shadow[start : start + transfer.dest.nbytes].copy()

    def transfer_ending(self, transfer: Transfer) -> None:
        self._next = self._in_flight.pop(id(transfer), None)

    def store(self, ref: Ref, value: np.ndarray) -> None:
        bound, self._next = self._next, None
        if bound is not None and np.any(bound):
            self.bounds_of(ref, create=True)[...] = np.broadcast_to(bound, ref.shape)
        elif ref.memory in self.shadows:
            self.bounds_of(ref)[...] = 0.0
        super().store(ref, value)
