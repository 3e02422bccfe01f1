"""``cfmem check-arena``: run a plain MLIR module before and after memref-plan-arena and compare."""

from __future__ import annotations

import argparse
from itertools import islice

from cfmem.errors import CfmemError
from cfmem.planning.option_checks import check_seed, check_sets, parsed_int

DEFAULT_PIPELINE = "memref-plan-arena"
ARENA_FILLS = (0xFF, 0xA5)
"""The bytes the planned runs start their arena as: 0xff is NaN in every float and -1 in every
integer, 0xa5 a small negative float and a large negative integer. A result that depends on
bytes read before they are written differs between them unless that dependence is on a value
both happen to give."""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "check-arena",
        help="run a bufferized MLIR module before and after memref-plan-arena under upstream's JIT and compare",
        description=(
            "Plan a bufferized upstream-MLIR module (memref, linalg, scf) with PIPELINE, or take the"
            " planned module given with --planned, and run the unplanned and the planned function"
            " under upstream MLIR's JIT on --sets seeded random input sets: every argument is a"
            " static-shape memref, filled with normal floats, integers 0..3 and random booleans, and"
            " after the call each must hold the same bits in both runs. The planned function runs"
            " twice on every set, its arena starting as bytes 0xff (NaN in every float) and as bytes"
            " 0xa5, so bytes read before they are written show."
            " Each row shows the branch every scf.if took and every loop's iterations in the"
            " unplanned run (counted in a copy of the function); the last line says which if"
            " outcomes no set ran. A loop whose body no random set runs is run by a set searched"
            " near the first (small trip counts, the function's constants), or the check fails."
            " Needs the optional extra: pip install 'cfmem[mlir]'."
        ),
    )
    p.add_argument("model", help="the bufferized .mlir module, before planning")
    p.add_argument(
        "-p", "--passes", default=DEFAULT_PIPELINE, metavar="PIPELINE",
        help=f"the planning pipeline (default: {DEFAULT_PIPELINE})",
    )  # fmt: skip
    p.add_argument("--planned", metavar="PLANNED.mlir", help="compare with this planned module instead of running -p")
    p.add_argument("--func", metavar="NAME", help="function to run (default: @main, or the only one)")
    p.add_argument("--sets", type=parsed_int(check_sets), default=8, help="random input sets (default: 8)")
    p.add_argument("--seed", type=parsed_int(check_seed), default=0, help="seed of the first set (default: 0)")
    p.set_defaults(handler=main)


def main(args: argparse.Namespace) -> int:
    import numpy as np

    from cfmem.interp.coverage import idle_loops
    from cfmem.ir_io import load_module
    from cfmem.mlir_check.errors import MlirCheckError
    from cfmem.mlir_check.jit import run_in_place_with_mlir
    from cfmem.mlir_check.prepare import poison_arenas, prepare_for_jit
    from cfmem.pipeline import apply_pipeline

    module, _ = load_module(args.model)
    fn = _memref_arguments_only(_function(module, args.func, args.model), args.model)
    if args.planned:
        planned, _ = load_module(args.planned)
    else:
        planned, source = load_module(args.model)  # parsed again: its source map locates a pass's refusal
        apply_pipeline(planned, args.passes, args.model, source=source)
    where = args.planned or args.model
    planned_fn = _memref_arguments_only(_function(planned, fn.sym_name.data, where), where)
    arena_shapes = _arena_arguments(planned_fn, len(fn.args), where)
    _refuse_huge_runs(fn, args.sets, args.model)
    sets = _input_sets(fn, args.sets, args.seed)
    counted = module.clone()
    labels = _count_control_flow(_function(counted, fn.sym_name.data, args.model))
    try:
        counts = np.zeros(max(len(labels), 1), np.int64)
        ran = run_in_place_with_mlir(str(prepare_for_jit(counted)), [[*s, counts.copy()] for s in sets], fn.sym_name.data)
        sets, ran = _cover_loops(counted, fn, labels, sets, ran)
        after = []  # per fill, per set: the arguments as the planned run left them
        for fill in ARENA_FILLS:
            poisoned = planned.clone()
            poison_arenas(poisoned, fill)
            arenas = [np.full(shape, fill, np.uint8) for shape in arena_shapes]
            after.append(run_in_place_with_mlir(
                str(prepare_for_jit(poisoned)), [[*s, *(a.copy() for a in arenas)] for s in sets], fn.sym_name.data
            ))  # fmt: skip
    except MlirCheckError as err:
        raise CfmemError(f"upstream MLIR: {err}", args.model) from None
    before, per_set = [r[:-1] for r in ran], [dict(zip(labels, r[-1].tolist())) for r in ran]
    names = [f"%{a.name_hint}" if a.name_hint else f"argument {k}" for k, a in enumerate(fn.args)]
    differing = []
    print(f"{'set':<4} {'after the call':<16} {'control flow (iterations per loop)':<36} differing")
    for k, old in enumerate(before):
        wrong = [name for i, name in enumerate(names) if any(old[i].tobytes() != run[k][i].tobytes() for run in after)]
        flow = _control_flow(per_set[k])
        print(f"#{k:<3} {'bit-identical' if not wrong else 'DIFFERENT':<16} {flow:<36} {', '.join(wrong) or '-'}")
        differing += [(k, name) for name in wrong]
    if differing:
        k, name = differing[0]
        early = [(s, n) for s, n in differing if len({run[s][names.index(n)].tobytes() for run in after}) > 1]
        reason = ""
        if early:
            s, n = early[0]
            reason = (f"; it reads arena bytes before writing them: {n} after set #{s} has other bits with"
                      f" the arena starting as bytes {' than as '.join(f'0x{fill:02x}' for fill in ARENA_FILLS)}")  # fmt: skip
        raise CfmemError(
            f"the planned @{fn.sym_name.data} leaves other bits than the unplanned one: {name} after set #{k}"
            f" ({len(differing)} argument(s) in {len({s for s, _ in differing})} set(s) differ){reason}", args.model
        )  # fmt: skip
    idle = idle_loops(_loop_counters(labels), map(_loop_runs, per_set))
    if idle:
        raise CfmemError(
            f"the body of {' and '.join(l.split()[0] for l in idle)} never ran on any input set, nor on the sets"
            " searched for it: nothing checked the buffers it uses", args.model
        )  # fmt: skip
    searched = f" and {len(sets) - args.sets} searched" if len(sets) > args.sets else ""
    print(f"ok: {args.sets} random{searched} input set(s), every argument bit-identical after @{fn.sym_name.data}"
          f"{_arena_summary(planned)}; {_coverage(labels, per_set)}")  # fmt: skip
    return 0


def _control_flow(counts: dict[str, int]) -> str:
    """What one run did: the branch each if took (``if#0:then``, ``if#1:both`` in a loop) and
    each loop's iterations (``loop#0:3``, ``loop#0:7/2`` over two runs of it)."""
    parts = []
    for label in dict.fromkeys(key.split()[0] for key in counts):
        if label.startswith("if"):
            taken = [b for b in ("then", "else") if counts[f"{label} {b}"]]
            if taken:
                parts.append(f"{label}:{'both' if len(taken) == 2 else taken[0]}")
        elif counts[f"{label} runs"]:
            runs, iterations = counts[f"{label} runs"], counts[f"{label} iterations"]
            parts.append(f"{label}:{iterations}" + (f"/{runs}" if runs > 1 else ""))
    return " ".join(parts) or "-"


LOOP_CANDIDATES = 128
"""Input sets tried at most, in one run, to make the loops no random set entered run."""


def _loop_counters(labels: list[str]) -> list[str]:
    """The counters of loop iterations among ``labels`` (``loop#0 iterations``)."""
    return [label for label in labels if label.startswith("loop") and label.endswith(" iterations")]


def _loop_runs(counts: dict[str, int]) -> list[tuple[str, int]]:
    """``(loop counter, iterations)`` of one run's counters."""
    return [(key, counts[key]) for key in _loop_counters(list(counts))]


def _cover_loops(counted, fn, labels: list[str], sets: list[list], ran: list[list]) -> tuple[list[list], list[list]]:
    """``sets`` and the counted runs ``ran``, plus for each loop whose body no set entered
    the first set near the first one that enters it (``trip_variations``: integers set to
    small trip counts, each argument filled with the function's constants and their
    neighbours, floats scaled and shifted), with its run. Candidates whose run fails
    count as entering nothing."""
    import numpy as np
    from xdsl.dialects.builtin import FloatData, IntAttr

    from cfmem.interp.coverage import idle_loops, threshold_candidates, trip_variations
    from cfmem.interp.footprint import MAX_RUN_BYTES, type_bytes
    from cfmem.mlir_check.errors import MlirCheckError
    from cfmem.mlir_check.jit import run_in_place_with_mlir
    from cfmem.mlir_check.prepare import prepare_for_jit

    loops = _loop_counters(labels)
    runs = [_loop_runs(dict(zip(labels, r[-1].tolist()))) for r in ran]
    if not idle_loops(loops, runs):
        return sets, ran
    constants = [op.value.value.data for op in fn.walk() if op.name == "arith.constant"
                 and isinstance(getattr(op.value, "value", None), IntAttr | FloatData)]  # fmt: skip
    thresholds = threshold_candidates(constants) + [0]
    per_set = max(1, sum(type_bytes(arg.type) for arg in fn.args))
    limit = min(LOOP_CANDIDATES, MAX_RUN_BYTES // (3 * per_set))
    base = {str(k): a for k, a in enumerate(sets[0])}
    candidates = [[c[str(k)] for k in range(len(sets[0]))] for c in islice(trip_variations(fn, [base], thresholds), limit)]
    if not candidates:
        return sets, ran
    counts = np.zeros_like(ran[0][-1])
    try:
        tried = run_in_place_with_mlir(str(prepare_for_jit(counted)), [[*c, counts.copy()] for c in candidates],
                                       fn.sym_name.data)  # fmt: skip
    except MlirCheckError:
        return sets, ran
    sets, ran = list(sets), list(ran)
    for candidate, result in zip(candidates, tried):
        loop_runs = _loop_runs(dict(zip(labels, result[-1].tolist())))
        if set(idle_loops(loops, runs)) - set(idle_loops(loops, [loop_runs])):
            sets.append(candidate)
            ran.append(result)
            runs.append(loop_runs)
    return sets, ran


def _coverage(labels: list[str], per_set: list[dict[str, int]]) -> str:
    """Which if outcomes the sets ran, and which none did."""
    outcomes = [label for label in labels if label.startswith("if")]
    never = [label for label in outcomes if not any(counts[label] for counts in per_set)]
    if not outcomes:
        return "no scf.if to cover"
    ran = f"{len(outcomes) - len(never)} of {len(outcomes)} if outcomes ran"
    return ran + (f" (never: {', '.join(never)})" if never else "")


def _function(module, name: str | None, path: str):
    """The function to run: ``name``, else @main, else the only function with a body."""
    from xdsl.dialects import func

    fns = [op for op in module.walk() if isinstance(op, func.FuncOp) and op.body.blocks]
    chosen = [f for f in fns if f.sym_name.data == (name or "main")] or (fns if name is None and len(fns) == 1 else [])
    if not chosen:
        listed = ", ".join(f"@{f.sym_name.data}" for f in fns) or "none"
        raise CfmemError(f"no function @{name or 'main'} to run (functions: {listed}); choose one with --func", path)
    return chosen[0]


def _memref_arguments_only(fn, path: str):
    """``fn``, when it returns nothing and every argument is a static-shape memref of an element
    type the JIT harness fills and passes (the JIT is given buffers only, and reads no result)."""
    from xdsl.dialects.builtin import Float16Type, Float32Type, Float64Type, IntegerType, MemRefType, Signedness

    def passable(element) -> bool:
        if isinstance(element, IntegerType):
            return element.signedness.data != Signedness.UNSIGNED and element.width.data in (1, 8, 16, 32, 64)
        return isinstance(element, Float16Type | Float32Type | Float64Type)

    results = fn.function_type.outputs.data
    if results:
        raise CfmemError(
            f"@{fn.sym_name.data} returns result 0 of type {results[0]}: check-arena runs functions that"
            " return nothing (pass results back through memref arguments)", path
        )  # fmt: skip
    for k, arg in enumerate(fn.args):
        ty = arg.type
        if not (isinstance(ty, MemRefType) and all(d >= 0 for d in ty.get_shape()) and passable(ty.get_element_type())):
            shown = f"%{arg.name_hint}" if arg.name_hint else f"argument {k}"
            raise CfmemError(
                f"@{fn.sym_name.data} takes {shown} of type {ty}: check-arena runs functions whose arguments"
                " are all static-shape memrefs of f16, f32, f64, i1, i8, i16, i32 or i64", path
            )  # fmt: skip
    return fn


def _arena_arguments(planned_fn, count: int, where: str) -> list[tuple[int, ...]]:
    """The shape of each argument the planned function has beyond the first ``count`` (its
    arena, ``arena=argument``); an error for any other extra argument."""
    from cfmem.passes.memref_liveness import ARENA_PARAMETER, is_arena_parameter

    extra = []
    for k, arg in enumerate(planned_fn.args[count:], count):
        if not is_arena_parameter(planned_fn, k):
            raise CfmemError(
                f"the planned @{planned_fn.sym_name.data} has argument {k} that the unplanned one has not,"
                f" and it is no arena ({{{ARENA_PARAMETER}}})", where
            )  # fmt: skip
        extra.append(tuple(arg.type.get_shape()))
    return extra


def _count_control_flow(fn) -> list[str]:
    """Give ``fn`` a last argument ``memref<Kxi64>`` it counts its control
    flow in: each scf.if's then and else runs, each loop's runs and iterations. Returns one
    label per counter, in slot order; ifs and loops are named as memref-plan-arena names them
    (``if#k`` / ``loop#k``, inner ones first)."""
    from xdsl.dialects import arith, memref, scf
    from xdsl.dialects.builtin import IndexType, IntegerAttr, MemRefType, i64
    from xdsl.ir import Block
    from xdsl.rewriter import InsertPoint, Rewriter

    from cfmem.passes.memref_flow import LOOPS
    from cfmem.passes.memref_plan_arena import append_argument

    sites: list[tuple[str, object]] = []  # (label, where to count)
    numbers = {"if": 0, "loop": 0}

    def visit(op) -> None:
        for region in op.regions:
            for block in region.blocks:
                for inner in list(block.ops):
                    visit(inner)
        kind = "if" if op.name == "scf.if" else "loop" if op.name in LOOPS else None
        if kind is None:
            return
        label = f"{kind}#{numbers[kind]}"
        numbers[kind] += 1
        if kind == "if":
            for branch, region in zip(("then", "else"), op.regions):
                if not region.blocks:
                    region.add_block(Block([scf.YieldOp()]))
                sites.append((f"{label} {branch}", InsertPoint.at_start(region.blocks[0])))
        else:
            sites.append((f"{label} runs", InsertPoint.before(op)))
            sites.append((f"{label} iterations", InsertPoint.at_start(op.regions[-1].blocks[0])))

    for op in list(fn.body.block.ops):
        visit(op)
    ty = MemRefType(i64, [max(len(sites), 1)])
    counts = append_argument(fn, ty)
    for slot, (_, point) in enumerate(sites):
        ops = [
            index := arith.ConstantOp(IntegerAttr(slot, IndexType())),
            one := arith.ConstantOp(IntegerAttr(1, i64)),
            old := memref.LoadOp.get(counts, [index]),
            new := arith.AddiOp(old, one),
            memref.StoreOp.get(new, counts, [index]),
        ]
        Rewriter.insert_op(ops, point)
    return [label for label, _ in sites]


def _refuse_huge_runs(fn, count: int, path: str) -> None:
    """Refuse, before allocating, ``count`` sets of ``fn``'s buffers that the cap on a run's
    bytes cannot hold (every set is held three times: the inputs and both runs' results)."""
    from cfmem.interp.footprint import MAX_RUN_BYTES, format_bytes, type_bytes

    per_set = sum(type_bytes(arg.type) for arg in fn.args)
    if 3 * count * per_set > MAX_RUN_BYTES:
        raise CfmemError(
            f"{count} input set(s) of @{fn.sym_name.data}'s arguments ({format_bytes(per_set)} each) would take"
            f" {format_bytes(3 * count * per_set)}; check-arena holds at most {format_bytes(MAX_RUN_BYTES)}", path
        )  # fmt: skip


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
