"""cfmem's xDSL passes, by the name ``xdsl-opt -p`` knows them (each imported when first used)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from xdsl.passes import ModulePass


def _annotate_costs() -> type[ModulePass]:
    from cfmem.passes.annotate_costs import AnnotateCostsPass

    return AnnotateCostsPass


def _liveness() -> type[ModulePass]:
    from cfmem.passes.liveness import LivenessPass

    return LivenessPass


def _plan_memory() -> type[ModulePass]:
    from cfmem.passes.plan_memory import PlanMemoryPass

    return PlanMemoryPass


def _insert_dma() -> type[ModulePass]:
    from cfmem.passes.insert_dma import InsertDmaPass

    return InsertDmaPass


def _check_dma() -> type[ModulePass]:
    from cfmem.passes.dma_events import CheckDmaPass

    return CheckDmaPass


def _place() -> type[ModulePass]:
    from cfmem.passes.place import PlacePass

    return PlacePass


def _lower_to_memref() -> type[ModulePass]:
    from cfmem.passes.lower_to_memref import LowerToMemrefPass

    return LowerToMemrefPass


def _lower_to_linalg() -> type[ModulePass]:
    from cfmem.passes.linalg import LowerToLinalgPass

    return LowerToLinalgPass


def _slice_weights() -> type[ModulePass]:
    from cfmem.passes.slice_weights import SliceWeightsPass

    return SliceWeightsPass


def _tile_rows() -> type[ModulePass]:
    from cfmem.passes.tile_rows import TileRowsPass

    return TileRowsPass


def _roll_slices() -> type[ModulePass]:
    from cfmem.passes.slice_loops import RollSlicesPass

    return RollSlicesPass


def _fuse_quantized_elementwise() -> type[ModulePass]:
    from cfmem.passes.quant_lookup import FuseQuantizedElementwisePass

    return FuseQuantizedElementwisePass


def _plan_arena() -> type[ModulePass]:
    from cfmem.passes.memref_plan_arena import PlanArenaPass

    return PlanArenaPass


PASSES: dict[str, Callable[[], type[ModulePass]]] = {
    "nn-fuse-quantized-elementwise": _fuse_quantized_elementwise,
    "nn-annotate-costs": _annotate_costs,
    "nn-liveness": _liveness,
    "nn-plan-memory": _plan_memory,
    "nn-place": _place,
    "nn-slice-weights": _slice_weights,
    "nn-tile-rows": _tile_rows,
    "nn-insert-dma": _insert_dma,
    "nn-check-dma": _check_dma,
    "nn-lower-to-memref": _lower_to_memref,
    "nn-roll-slices": _roll_slices,
    "nn-lower-to-linalg": _lower_to_linalg,
    "memref-plan-arena": _plan_arena,
}

DEFAULT_PLAN_PIPELINE = "nn-insert-dma,nn-plan-memory"
"""What ``cfmem check-mlir`` plans a model with before lowering it."""
