"""``nn-annotate-costs``: record each op's MACs and bytes moved as attributes.

Attaches ``cfmem.macs``, ``cfmem.bytes_read`` and ``cfmem.bytes_written`` to
every nn op that computes a tensor, and their totals to each function, so the
cost numbers the DMA model uses can be inspected and pinned in tests.
"""

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i64
from xdsl.passes import ModulePass

from cfmem.dialects.nn_compute import ComputeOp, ConstantOp
from cfmem.dialects.nn_weights import ReshapeOp

COST_KEYS = ("macs", "bytes_read", "bytes_written")
COSTED_OPS = (ComputeOp, ConstantOp, ReshapeOp)


@dataclass(frozen=True)
class AnnotateCostsPass(ModulePass):
    name = "nn-annotate-costs"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in op.walk():
            if not isinstance(fn, func.FuncOp):
                continue
            totals = dict.fromkeys(COST_KEYS, 0)
            for inner in fn.walk():
                if isinstance(inner, COSTED_OPS):
                    for key in COST_KEYS:
                        value = getattr(inner, key)()
                        inner.attributes[f"cfmem.{key}"] = IntegerAttr(value, i64)
                        totals[key] += value
            for key, value in totals.items():
                fn.attributes[f"cfmem.total_{key}"] = IntegerAttr(value, i64)
