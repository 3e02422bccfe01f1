"""``cfmem check-arena``: run a plain MLIR module before and after memref-plan-arena and compare."""

from __future__ import annotations

import argparse

from cfmem.errors import CfmemError
from cfmem.tools.run import check_seed

DEFAULT_PIPELINE = "memref-plan-arena"


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "check-arena",
        help="run a bufferized MLIR module before and after memref-plan-arena under upstream's JIT and compare",
        description=(
            "Plan a bufferized upstream-MLIR module (memref, linalg, scf) with PIPELINE, or take the"
            " planned module given with --planned, and run the unplanned and the planned function"
            " under upstream MLIR's JIT on --sets seeded random input sets: every argument is a"
            " static-shape memref, filled with normal floats, integers 0..3 and random booleans, and"
            " after the call each must hold the same bits in both runs. The planned run starts its"
            " arena as bytes 0xff (NaN in every float), so bytes read before they are written show."
            " Which branches and how many"
            " loop iterations the sets reach is not measured. Needs the optional extra:"
            " pip install 'cfmem[mlir]'."
        ),
    )
    p.add_argument("model", help="the bufferized .mlir module, before planning")
    p.add_argument(
        "-p", "--passes", default=DEFAULT_PIPELINE, metavar="PIPELINE",
        help=f"the planning pipeline (default: {DEFAULT_PIPELINE})",
    )  # fmt: skip
    p.add_argument("--planned", metavar="PLANNED.mlir", help="compare with this planned module instead of running -p")
    p.add_argument("--func", metavar="NAME", help="function to run (default: @main, or the only one)")
    p.add_argument("--sets", type=int, default=8, help="random input sets (default: 8)")
    p.add_argument("--seed", type=int, default=0, help="seed of the first set (default: 0)")
    p.set_defaults(handler=main)


def main(args: argparse.Namespace) -> int:
    from cfmem.ir_io import load_module
    from cfmem.mlir_check.errors import MlirCheckError
    from cfmem.mlir_check.jit import run_in_place_with_mlir
    from cfmem.mlir_check.prepare import poison_arenas, prepare_for_jit
    from cfmem.pipeline import apply_pipeline

    check_seed(args.seed)
    if args.sets < 1:
        raise CfmemError(f"must be 1 or more, not {args.sets}", "--sets")
    module, source = load_module(args.model)
    fn = _function(module, args.func, args.model)
    if args.planned:
        planned, _ = load_module(args.planned)
    else:
        planned = module.clone()
        apply_pipeline(planned, args.passes, args.model, source=source)
    where = args.planned or args.model
    arenas = _arena_arguments(_function(planned, fn.sym_name.data, where), len(fn.args), where)
    poison_arenas(planned)
    sets = _input_sets(fn, args.sets, args.seed)
    try:
        before = run_in_place_with_mlir(str(prepare_for_jit(module)), sets, fn.sym_name.data)
        after = run_in_place_with_mlir(
            str(prepare_for_jit(planned)), [[*s, *(a.copy() for a in arenas)] for s in sets], fn.sym_name.data
        )
    except MlirCheckError as err:
        raise CfmemError(f"upstream MLIR: {err}", args.model) from None
    names = [f"%{a.name_hint}" if a.name_hint else f"argument {k}" for k, a in enumerate(fn.args)]
    differing = []
    print(f"{'set':<4} {'after the call':<16} arguments")
    for k, (old, new) in enumerate(zip(before, after)):
        wrong = [name for name, a, b in zip(names, old, new) if a.tobytes() != b.tobytes()]
        print(f"#{k:<3} {'bit-identical' if not wrong else 'DIFFERENT':<16} {', '.join(wrong or names)}")
        differing += [(k, name) for name in wrong]
    if differing:
        k, name = differing[0]
        raise CfmemError(
            f"the planned @{fn.sym_name.data} leaves other bits than the unplanned one: {name} after set #{k}"
            f" ({len(differing)} argument(s) in {len({s for s, _ in differing})} set(s) differ)", args.model
        )  # fmt: skip
    print(f"ok: {len(sets)} random input set(s), every argument bit-identical after @{fn.sym_name.data}"
          f"{_arena_summary(planned)}; branches and loop trips reached were not measured")  # fmt: skip
    return 0


def _function(module, name: str | None, path: str):
    """The function to run: ``name``, else @main, else the only function with a body."""
    from xdsl.dialects import func
    from xdsl.dialects.builtin import MemRefType

    fns = [op for op in module.walk() if isinstance(op, func.FuncOp) and op.body.blocks]
    chosen = [f for f in fns if f.sym_name.data == (name or "main")] or (fns if name is None and len(fns) == 1 else [])
    if not chosen:
        listed = ", ".join(f"@{f.sym_name.data}" for f in fns) or "none"
        raise CfmemError(f"no function @{name or 'main'} to run (functions: {listed}); choose one with --func", path)
    fn = chosen[0]
    for k, arg in enumerate(fn.args):
        if not (isinstance(arg.type, MemRefType) and all(d >= 0 for d in arg.type.get_shape())):
            shown = f"%{arg.name_hint}" if arg.name_hint else f"argument {k}"
            raise CfmemError(
                f"@{fn.sym_name.data} takes {shown} of type {arg.type}: check-arena runs functions whose"
                " arguments are all static-shape memrefs", path
            )  # fmt: skip
    return fn


def _arena_arguments(planned_fn, count: int, where: str) -> list:
    """A buffer of bytes 0xff for each argument the planned function has beyond the first
    ``count`` (its arena, ``arena=argument``); an error for any other extra argument."""
    import numpy as np

    from cfmem.passes.memref_liveness import ARENA_PARAMETER

    attrs = planned_fn.arg_attrs.data if planned_fn.arg_attrs is not None else ()
    extra = []
    for k, arg in enumerate(planned_fn.args[count:], count):
        if k >= len(attrs) or ARENA_PARAMETER not in attrs[k].data:
            raise CfmemError(
                f"the planned @{planned_fn.sym_name.data} has argument {k} that the unplanned one has not,"
                f" and it is no arena ({{{ARENA_PARAMETER}}})", where
            )  # fmt: skip
        extra.append(np.full(tuple(arg.type.get_shape()), 0xFF, np.uint8))
    return extra


def _input_sets(fn, count: int, seed: int) -> list[list]:
    """``count`` sets of seeded random buffers, one per argument of ``fn``."""
    import numpy as np

    from cfmem.interp.weights import numpy_dtype

    sets = []
    for k in range(count):
        rng = np.random.default_rng(seed + k)
        arrays = []
        for arg in fn.args:
            shape, dtype = tuple(arg.type.get_shape()), np.dtype(numpy_dtype(arg.type.get_element_type()))
            if dtype.kind == "f":
                arrays.append(rng.standard_normal(shape).astype(dtype))
            elif dtype.kind == "b":
                arrays.append(rng.integers(0, 2, shape).astype(dtype))
            else:
                arrays.append(rng.integers(0, 4, shape).astype(dtype))
        sets.append(arrays)
    return sets


def _arena_summary(planned) -> str:
    """``(arena: N bytes, lower bound B)`` per planned function, or nothing."""
    sizes = [
        f"@{op.sym_name.data} {op.attributes['cfmem.arena_size'].value.data} bytes"
        f" (lower bound {op.attributes['cfmem.lower_bound'].value.data})"
        for op in planned.walk()
        if op.name == "func.func" and "cfmem.arena_size" in op.attributes and "cfmem.lower_bound" in op.attributes
    ]
    return f" (arena: {'; '.join(sizes)})" if sizes else ""
