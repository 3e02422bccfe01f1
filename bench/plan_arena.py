"""memref-plan-arena on programs bufferized by upstream MLIR, against upstream's own answers.

For each linalg-on-tensors program of ``cfmem.testing.upstream_programs`` (bufferized
by upstream MLIR 22: one-shot-bufferize, buffer-results-to-out-params,
buffer-deallocation-pipeline), the table gives:

- its allocations, how many sit inside ``scf`` regions, and the sum of their
  bytes (each rounded to the 64-byte alignment upstream gives them): what the
  program holds if nothing is reused;
- cfmem's arena under each control-flow mode and its lower bound (the largest
  byte total live at once on one path); the exact arena is JIT-checked against
  the numpy reference on every input set;
- upstream's alternatives on the same bufferized module: ``buffer-hoisting``
  (how many allocations it moves out of regions: it moves, it does not share),
  and ``promote-buffers-to-stack`` (how many become ``memref.alloca`` and their
  bytes: a stack frame without reuse between them).

A second table takes cfmem's own examples, planned by ``nn-plan-memory`` without
aliases, lowered to linalg, with the plan taken back out
(``cfmem.testing.stripped_plans``): memref-plan-arena's exact arena and the time it
takes beside cfmem's arena (kernel scratch planned in both), and whether upstream's
JIT gives the re-planned module the original's bits on the branch-covering inputs.

    .venv/bin/python bench/plan_arena.py [--out bench/results/plan_arena.md]
"""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path

from xdsl.passes import PassPipeline
from xdsl.utils.exceptions import PassFailedException

from cfmem.passes.memref_liveness import allocation_bytes
from cfmem.passes import PASSES
from cfmem.planning.control_flow import MODES
from cfmem.testing.upstream_programs import (
    BUFFERIZE,
    PROGRAMS,
    bufferize,
    jit_mismatches,
    parse_program,
    program_context,
)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine_section, md_table, report_main  # noqa: E402

ALIGN = 64
SHOWN_MODES = tuple(m for m in MODES if m != "naive")


def aligned_bytes(op) -> int:
    """Bytes of an allocation (dynamic sizes at their bounds) rounded up to ``ALIGN``
    (``index`` elements: 8 bytes, as on the JIT)."""
    try:
        size = allocation_bytes(op)
    except PassFailedException:
        size = 8 * math.prod(op.results[0].type.get_shape())
    return -(-size // ALIGN) * ALIGN


def allocations(module, name: str) -> list:
    return [op for op in module.walk() if op.name == name]


def upstream_row(text: str) -> tuple[str, str]:
    """(buffer-hoisting, promote-buffers-to-stack) cells for the program ``text`` (tensors)."""
    hoisted = parse_program(bufferize(text, BUFFERIZE.removesuffix(")") + ",func.func(buffer-hoisting))"))
    moved = sum(1 for op in allocations(hoisted, "memref.alloc") if op.parent_op().name == "func.func")
    promoted = parse_program(
        bufferize(text, BUFFERIZE.removesuffix(")") + ",func.func(promote-buffers-to-stack{max-alloc-size-in-bytes=65536}))")
    )
    stack = allocations(promoted, "memref.alloca")
    return (
        f"{moved} in the entry block",
        f"{len(stack)} allocas, {sum(aligned_bytes(op) for op in stack):,} B",
    )


EXAMPLES = ROOT / "examples"
EXAMPLE_NAMES = ("wakeword", "denoise", "facedetect", "fusiondetect", "bigfc", "seqkws")


def stripped_rows() -> list[list[str]]:
    """One row per example of ``EXAMPLE_NAMES`` (see the module docstring)."""
    import numpy as np

    from cfmem.differential import linalg_text, run_mlir
    from cfmem.interp.coverage import branch_covering_inputs
    from cfmem.ir_io import load_module, make_context
    from cfmem.mlir_check.prepare import prepare_for_jit
    from cfmem.pipeline import lower_model
    from cfmem.testing.stripped_plans import PLAN_TO_STRIP, stripped_linalg

    rows = []
    for name in EXAMPLE_NAMES:
        module, _ = load_module(EXAMPLES / f"{name}.mlir")
        inputs = [found for found, _ in branch_covering_inputs(module, base_dir=EXAMPLES)]
        flat = lower_model(module, PLAN_TO_STRIP, EXAMPLES)
        text = linalg_text(flat)
        stripped = stripped_linalg(text)
        main = next(op for op in stripped.walk() if op.name == "func.func" and op.sym_name.data == "main")
        allocs = [op for op in main.walk() if op.name == "memref.alloc"]
        began = time.perf_counter()
        PassPipeline.parse_spec(PASSES, "memref-plan-arena").apply(make_context(), stripped)
        seconds = time.perf_counter() - began
        attrs = main.attributes
        arena, bound = attrs["cfmem.arena_size"].value.data, attrs["cfmem.lower_bound"].value.data
        cfmem = next(op for op in flat.walk() if op.name == "func.func" and op.sym_name.data == "main")
        before, after = run_mlir(text, flat, inputs), run_mlir(str(prepare_for_jit(stripped)), flat, inputs)
        same = all(b.keys() == a.keys() and all(np.array_equal(b[k], a[k]) for k in b) for b, a in zip(before, after))
        rows.append([
            name, f"{len(allocs)}", f"{sum(allocation_bytes(op) for op in allocs):,}", f"{arena:,}", f"{bound:,}",
            f"{arena - bound:,}", f"{cfmem.attributes['cfmem.arena_size'].value.data:,}",
            f"{seconds:.2f}", f"{len(inputs)} input sets, {'bit-identical' if same else 'DIFFERENT'}",
        ])  # fmt: skip
        print(f"{name} (stripped): {seconds:.2f} s to plan", file=sys.stderr)
    return rows


def arena_and_bound(module, only: str | None = None) -> tuple[int, int]:
    """The bytes of every function's arena and of their lower bounds, summed (with
    ``arena=global`` each function has its own; with ``arena=argument`` pass ``only`` to
    get each function's ``cfmem.arena_size``: the top one holds the whole call tree)."""
    fns = [op for op in module.walk() if op.name == "func.func" and "cfmem.arena_size" in op.attributes]
    if only is not None:
        return tuple(fn.attributes[only].value.data for fn in fns)  # type: ignore[return-value]
    return (
        sum(fn.attributes["cfmem.arena_size"].value.data for fn in fns),
        sum(fn.attributes["cfmem.lower_bound"].value.data for fn in fns),
    )


def run() -> str:
    rows = []
    refusals: dict[str, str] = {}
    at_bound = 0
    for name, program in PROGRAMS.items():
        began = time.perf_counter()
        text = bufferize(program.text)
        original = parse_program(text)
        allocs = allocations(original, "memref.alloc")
        nested = sum(1 for op in allocs if op.parent_op().name != "func.func")
        total = sum(aligned_bytes(op) for op in allocs)
        cells, bound, checked = [], None, "refused"
        for mode in SHOWN_MODES:
            module = parse_program(text)
            try:
                PassPipeline.parse_spec(PASSES, f"memref-plan-arena{{mode={mode}}}").apply(program_context(), module)
            except PassFailedException as err:
                cells += ["refused"] * (2 if mode == "exact" else 1)
                refusals[name] = str(err)
                continue
            arena, bound = arena_and_bound(module)
            cells.append(f"{arena:,}")
            if mode == "exact":
                at_bound += arena == bound
                passed = parse_program(text)
                PassPipeline.parse_spec(PASSES, "memref-plan-arena{arena=argument}").apply(program_context(), passed)
                cells.append(f"{max(arena_and_bound(passed, 'cfmem.arena_size')):,}")
                wrong = jit_mismatches(program, str(module))
                checked = f"{len(program.cases)} input sets equal" if not wrong else f"{len(wrong)} differ"
        hoisting, stack = upstream_row(program.text)
        rows.append([name, f"{len(allocs)} ({nested} nested)", f"{total:,}", *cells,
                     "-" if bound is None else f"{bound:,}", checked, hoisting, stack])  # fmt: skip
        print(f"{name}: {time.perf_counter() - began:.1f} s", file=sys.stderr)
    header = ["program", "allocations", "sum of allocations (B)", *(f"arena, {m}" for m in SHOWN_MODES),
              "exact, arena=argument",
              "lower bound", "exact arena under upstream's JIT", "upstream buffer-hoisting",
              "upstream promote-buffers-to-stack"]  # fmt: skip
    return "\n\n".join(
        [
            "# memref-plan-arena on upstream-bufferized programs",
            f"`bench/plan_arena.py`: the programs of `cfmem/testing/upstream_programs.py`, bufferized by"
            f" upstream MLIR (`{BUFFERIZE}`). Bytes; allocations rounded to {ALIGN} bytes, the alignment"
            " upstream gives them. A carried buffer (a loop's `iter_args`) takes two slots in cfmem's arena.",
            md_table(header, rows),
            "The sum of allocations counts each allocation op once. In a loop each iteration allocates"
            " again, and a buffer carried into the next iteration is live in two iterations at once, so a"
            f" loop's arena can be above that sum. The exact arena is at its lower bound in {at_bound} of"
            f" the {len(PROGRAMS) - len(refusals)} planned programs.",
            "\n".join(f"- {name} refused: {message}" for name, message in refusals.items()) or "No program is refused.",
            "A program with several functions has an arena per function with `arena=global` (the"
            " columns give their sum, as does the bound); with `arena=argument` a caller passes its"
            " callee an allocation it plans with its own buffers, and the column gives the top"
            " function's arena, which holds the whole call tree.",
            "buffer-hoisting moves allocations up without sharing bytes; promote-buffers-to-stack turns"
            " them into allocas, one stack slot each (LLVM may still overlap slots whose lifetimes it can"
            " prove disjoint, which it cannot do across the loops' iterations here).",
            "## cfmem's own examples, their plan stripped and planned again",
            "Each example is planned by `nn-plan-memory{aliases=false}`, lowered to linalg, and every"
            " tensor's views of the arena become one allocation again; `memref-plan-arena` (exact) then"
            " plans them. Kernel scratch is a tensor of cfmem's arena like the others, so the stripped module"
            " holds it as an allocation too.",
            md_table(["example", "allocations", "sum (B)", "arena, exact", "lower bound", "gap",
                      "cfmem arena", "planning (s)", "upstream's JIT vs the original"],
                     stripped_rows()),  # fmt: skip
            machine_section(),
        ]
    )


def main() -> int:
    return report_main(__doc__, run, "plan_arena.md")

if __name__ == "__main__":
    sys.exit(main())
