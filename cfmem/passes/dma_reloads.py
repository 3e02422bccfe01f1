"""Which transfer before a loop each reload at the end of its body loads again.

``nn-insert-dma`` lets a streamed loop body's first weights cross the back edge:
they are loaded before the loop, and each iteration ends by loading them again
(``cfmem.reload``) into the same bytes for the next one. Checkers and the
lowering pair the two transfers by their sources, buffer and offsets.
"""

from __future__ import annotations

from cfmem.dialects.nn_control import LoopOp
from cfmem.dialects.nn_dma import RELOAD_ATTR, DmaStartOp


def reloaded_transfers(op: LoopOp) -> list[tuple[DmaStartOp, DmaStartOp]]:
    """``(transfer before the loop, its reload at the end of each iteration)`` pairs of
    ``op`` (``cfmem.reload``): same sources, same buffer, same offsets."""
    pairs = []
    for reload in (o for o in op.body.block.ops if isinstance(o, DmaStartOp) and RELOAD_ATTR in o.attributes):
        key = (tuple(reload.sources), reload.buffer, tuple(reload.byte_offsets))
        before = op.prev_op
        while before is not None and not (
            isinstance(before, DmaStartOp) and (tuple(before.sources), before.buffer, tuple(before.byte_offsets)) == key
        ):
            before = before.prev_op
        if before is not None:
            pairs.append((before, reload))
    return pairs
