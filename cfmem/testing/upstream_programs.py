"""Small linalg-on-tensors programs with control flow, bufferized and run by upstream MLIR.

Each program is a ``func.func @main`` on static ``f32`` tensors (``4x8`` data,
``8x8`` weights; trip counts, loop limits and branch selectors come in as small
``i32``/``f32`` tensors) that returns its results. ``bufferize`` turns it into
memrefs in destination-passing style: the results become out-params that @main
writes, so no allocation escapes, and every temporary is a ``memref.alloc`` freed
by a ``memref.dealloc`` where upstream's ownership-based deallocation puts it. In
the control-flow programs allocs sit inside ``scf`` regions and are yielded out of
them; their deallocs may be conditional (``scf.if`` on an ``i1`` ownership flag
carried by the loop), may free the base buffer ``memref.extract_strided_metadata``
gives, and may follow a call to the ``@dealloc_helper`` that upstream adds, which
compares buffer pointers (``memref.extract_aligned_pointer_as_index``).

Every program has a numpy reference and named input sets that between them take
every branch of every ``scf.if`` and run every loop 0, 1, 2 and 3 or more times.

Importing this module loads neither xDSL nor MLIR: the MLIR bindings run in a
child process (``cfmem.mlir_check.worker``), and xDSL is imported by the
functions that parse.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from xdsl.context import Context
    from xdsl.dialects.builtin import ModuleOp

BUFFERIZE = (
    "builtin.module("
    "one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map"
    " unknown-type-conversion=identity-layout-map allow-return-allocs-from-loops},"
    "buffer-results-to-out-params{hoist-static-allocs modify-public-functions},"
    "buffer-deallocation-pipeline,"
    "canonicalize)"
)
"""Upstream passes (MLIR 22) from tensors to memrefs with out-params, allocs and deallocs."""



# ---------------------------------------------------------------- program text

D = "tensor<4x8xf32>"
DYN = "tensor<4x?xf32>"
W = "tensor<8x8xf32>"
COUNT = "tensor<1xi32>"
HEADER = "#id = affine_map<(d0, d1) -> (d0, d1)>\n"
CONSTANTS = """\
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %quarter = arith.constant 0.25 : f32
  %half = arith.constant 0.5 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
"""
SCALARS = ("%zero", "%one", "%quarter", "%half")
"""The ``f32`` constants every program defines, which a ``linalg.generic`` body may use."""


def _func(args: str, results: str, body: str) -> str:
    return f"{HEADER}func.func @main({args}) -> ({results}) {{\n{CONSTANTS}{body}}}\n"


def _ew(res: str, op: str, *operands: str, columns: str = "") -> str:
    """``res = op(operands)`` elementwise on 4x8 tensors, or on ``4 x columns`` ones when
    ``columns`` (an index value) is given: a ``tensor.empty`` of dynamic size, an allocation
    of dynamic size once bufferized. An operand in ``SCALARS`` is used by the body as it is,
    the others are the generic's inputs."""
    ty = DYN if columns else D
    tensors = [x for x in operands if x not in SCALARS]
    args = {x: f"%bx{i}" for i, x in enumerate(tensors)}
    body_operands = ", ".join(args.get(x, x) for x in operands)
    maps = ", ".join(["#id"] * (len(tensors) + 1))
    ins = ", ".join(tensors)
    block_args = ", ".join([f"{args[x]}: f32" for x in tensors] + ["%bo: f32"])
    return (
        f"  {res}_init = tensor.empty({columns}) : {ty}\n"
        f'  {res} = linalg.generic {{indexing_maps = [{maps}], iterator_types = ["parallel", "parallel"]}}'
        f" ins({ins} : {', '.join([ty] * len(tensors))}) outs({res}_init : {ty}) {{\n"
        f"  ^bb0({block_args}):\n"
        f"    %bv = {op} {body_operands} : f32\n"
        f"    linalg.yield %bv : f32\n"
        f"  }} -> {ty}\n"
    )


def _matmul(res: str, x: str, w: str = "%w") -> str:
    """``res = x @ w`` into a zero-filled fresh tensor."""
    return (
        f"  {res}_init = tensor.empty() : {D}\n"
        f"  {res}_zero = linalg.fill ins(%zero : f32) outs({res}_init : {D}) -> {D}\n"
        f"  {res} = linalg.matmul ins({x}, {w} : {D}, {W}) outs({res}_zero : {D}) -> {D}\n"
    )


def _fill(res: str, scalar: str) -> str:
    return f"  {res}_init = tensor.empty() : {D}\n  {res} = linalg.fill ins({scalar} : f32) outs({res}_init : {D}) -> {D}\n"


def _positive(res: str, tensor: str, index: str = "%c0, %c0", ty: str = D) -> str:
    """``res = tensor[index] > 0`` as an ``i1``."""
    return f"  {res}_x = tensor.extract {tensor}[{index}] : {ty}\n  {res} = arith.cmpf ogt, {res}_x, %zero : f32\n"


def _trip_count(res: str, counts: str, k: int = 0, ty: str = COUNT) -> str:
    """``res = counts[k]`` as an ``index``."""
    return (
        f"  %k{res[1:]} = arith.constant {k} : index\n"
        f"  {res}_i32 = tensor.extract {counts}[%k{res[1:]}] : {ty}\n"
        f"  {res} = arith.index_cast {res}_i32 : i32 to index\n"
    )


def _indent(text: str, by: int = 2) -> str:
    return "".join(" " * by + line if line.strip() else line for line in text.splitlines(keepends=True))


Trace = list[tuple[str, bool | int]]
"""What a reference did: (site, branch taken) per ``scf.if``, (site, trips) per loop run."""


def _taken(trace: Trace, site: str, x: np.floating) -> bool:
    """Whether the ``scf.if`` at ``site``, on ``x > 0``, takes its then-branch; noted in ``trace``."""
    trace.append((site, bool(x > 0)))
    return bool(x > 0)


def _loop(trace: Trace, site: str, trips: np.integer) -> range:
    """The iterations of the loop at ``site``; noted in ``trace``."""
    trace.append((site, int(trips)))
    return range(int(trips))


CHAIN = _func(
    f"%a: {D}, %w: {W}, %b: {D}",
    f"{D}, {D}",
    _matmul("%t1", "%a")
    + _ew("%t2", "arith.addf", "%t1", "%b")
    + _ew("%t3", "arith.maximumf", "%t2", "%zero")
    + _matmul("%t4", "%t3")
    + _fill("%q", "%quarter")
    + _ew("%t5", "arith.mulf", "%t4", "%q")
    + _ew("%t6", "arith.addf", "%t5", "%t2")
    + f"  return %t6, %t3 : {D}, {D}\n",
)


def _chain(trace, a, w, b):
    t2 = a @ w + b
    t3 = np.maximum(t2, 0)
    return [(t3 @ w) * np.float32(0.25) + t2, t3]


BRANCH = _func(
    f"%a: {D}, %w: {W}, %b: {D}",
    D,
    _positive("%p", "%a")
    + f"  %s = scf.if %p -> ({D}) {{\n"
    + _indent(_matmul("%tu", "%a") + _ew("%tv", "arith.addf", "%tu", "%b") + f"  scf.yield %tv : {D}\n")
    + "  } else {\n"
    + _indent(_ew("%eu", "arith.negf", "%a") + _ew("%ev", "arith.mulf", "%eu", "%b") + f"  scf.yield %ev : {D}\n")
    + "  }\n"
    + _ew("%r", "arith.addf", "%s", "%a")
    + f"  return %r : {D}\n",
)


def _branch(trace, a, w, b):
    s = a @ w + b if _taken(trace, "if", a[0, 0]) else -a * b
    return [s + a]


COUNTED_LOOP = _func(
    f"%a: {D}, %w: {W}, %b: {D}, %n: {COUNT}",
    D,
    _trip_count("%trips", "%n")
    + f"  %r = scf.for %i = %c0 to %trips step %c1 iter_args(%acc = %a) -> ({D}) {{\n"
    + _indent(
        _matmul("%m", "%acc")
        + _ew("%h", "arith.mulf", "%m", "%quarter")
        + _ew("%s", "arith.addf", "%h", "%b")
        + f"  scf.yield %s : {D}\n"
    )
    + "  }\n"
    + f"  return %r : {D}\n",
)


def _counted_loop(trace, a, w, b, n):
    acc = a
    for _ in _loop(trace, "for", n[0]):
        acc = (acc @ w) * np.float32(0.25) + b
    return [acc]


WHILE_LOOP = _func(
    f"%a: {D}, %w: {W}, %n: {COUNT}",
    D,
    "  %i0 = arith.constant 0 : i32\n"
    + f"  %n0 = tensor.extract %n[%c0] : {COUNT}\n"
    + f"  %r:2 = scf.while (%t = %a, %i = %i0) : ({D}, i32) -> ({D}, i32) {{\n"
    + _indent(
        _ew("%d", "arith.mulf", "%t", "%half")
        + "  %go = arith.cmpi slt, %i, %n0 : i32\n"
        + f"  scf.condition(%go) %d, %i : {D}, i32\n"
    )
    + "  } do {\n"
    + f"  ^bb0(%dd: {D}, %j: i32):\n"
    + _indent(
        _matmul("%u", "%dd")
        + _ew("%v", "arith.addf", "%u", "%dd")
        + "  %j1 = arith.addi %j, %c1_i32 : i32\n"
        + f"  scf.yield %v, %j1 : {D}, i32\n"
    )
    + "  }\n"
    + f"  return %r#0 : {D}\n",
)


def _while_loop(trace, a, w, n):
    t, i = a, 0
    while True:
        d = t * np.float32(0.5)
        if not i < int(n[0]):
            trace.append(("while", i))
            return [d]
        t, i = d @ w + d, i + 1


DATA_WHILE = _func(
    f"%a: {D}, %limit: tensor<1xf32>",
    D,
    "  %lim = tensor.extract %limit[%c0] : tensor<1xf32>\n"
    + f"  %r = scf.while (%t = %a) : ({D}) -> ({D}) {{\n"
    + _indent(
        f"  %x = tensor.extract %t[%c0, %c0] : {D}\n"
        + "  %go = arith.cmpf olt, %x, %lim : f32\n"
        + f"  scf.condition(%go) %t : {D}\n"
    )
    + "  } do {\n"
    + f"  ^bb0(%tt: {D}):\n"
    + _indent(_fill("%o", "%one") + _ew("%u", "arith.addf", "%tt", "%o") + f"  scf.yield %u : {D}\n")
    + "  }\n"
    + f"  return %r : {D}\n",
)


def _data_while(trace, a, limit):
    t, i = a, 0
    while t[0, 0] < limit[0]:
        t, i = t + np.float32(1), i + 1
    trace.append(("while", i))
    return [t]


IF_IN_FOR = _func(
    f"%a: {D}, %w: {W}, %b: {D}, %sel: tensor<8xf32>, %n: {COUNT}",
    D,
    _trip_count("%trips", "%n")
    + f"  %r = scf.for %i = %c0 to %trips step %c1 iter_args(%acc = %a) -> ({D}) {{\n"
    + _indent(
        _positive("%p", "%sel", "%i", "tensor<8xf32>")
        + f"  %s = scf.if %p -> ({D}) {{\n"
        + _indent(_matmul("%tu", "%acc") + _ew("%tv", "arith.addf", "%tu", "%b") + f"  scf.yield %tv : {D}\n")
        + "  } else {\n"
        + _indent(_ew("%eu", "arith.mulf", "%acc", "%b") + _ew("%ev", "arith.subf", "%eu", "%b") + f"  scf.yield %ev : {D}\n")
        + "  }\n"
        + f"  scf.yield %s : {D}\n"
    )
    + "  }\n"
    + f"  return %r : {D}\n",
)


def _if_in_for(trace, a, w, b, sel, n):
    acc = a
    for i in _loop(trace, "for", n[0]):
        acc = acc @ w + b if _taken(trace, "if", sel[i]) else acc * b - b
    return [acc]


FOR_IN_IF = _func(
    f"%a: {D}, %w: {W}, %b: {D}, %n: {COUNT}",
    D,
    _positive("%p", "%a")
    + f"  %s = scf.if %p -> ({D}) {{\n"
    + _indent(
        _trip_count("%trips", "%n")
        + f"  %l = scf.for %i = %c0 to %trips step %c1 iter_args(%acc = %b) -> ({D}) {{\n"
        + _indent(_ew("%t", "arith.mulf", "%acc", "%a") + _ew("%u", "arith.addf", "%t", "%b") + f"  scf.yield %u : {D}\n")
        + "  }\n"
        + f"  scf.yield %l : {D}\n"
    )
    + "  } else {\n"
    + _indent(_ew("%v", "arith.negf", "%a") + _matmul("%x", "%v") + f"  scf.yield %x : {D}\n")
    + "  }\n"
    + _ew("%r", "arith.addf", "%s", "%a")
    + f"  return %r : {D}\n",
)


def _for_in_if(trace, a, w, b, n):
    if _taken(trace, "if", a[0, 0]):
        s = b
        for _ in _loop(trace, "for", n[0]):
            s = s * a + b
    else:
        s = (-a) @ w
    return [s + a]


NESTED_LOOPS = _func(
    f"%a: {D}, %w: {W}, %b: {D}, %n: tensor<2xi32>",
    D,
    _trip_count("%outer", "%n", 0, "tensor<2xi32>")
    + _trip_count("%inner", "%n", 1, "tensor<2xi32>")
    + f"  %r = scf.for %i = %c0 to %outer step %c1 iter_args(%acc = %a) -> ({D}) {{\n"
    + _indent(
        f"  %in = scf.for %j = %c0 to %inner step %c1 iter_args(%acc2 = %acc) -> ({D}) {{\n"
        + _indent(_matmul("%m", "%acc2") + _ew("%h", "arith.mulf", "%m", "%half") + f"  scf.yield %h : {D}\n")
        + "  }\n"
        + _ew("%v", "arith.addf", "%in", "%b")
        + f"  scf.yield %v : {D}\n"
    )
    + "  }\n"
    + f"  return %r : {D}\n",
)


def _nested_loops(trace, a, w, b, n):
    acc = a
    for _ in _loop(trace, "outer for", n[0]):
        for _ in _loop(trace, "inner for", n[1]):
            acc = (acc @ w) * np.float32(0.5)
        acc = acc + b
    return [acc]


def _columns(res: str, tensor: str, columns: str) -> str:
    return f"  {res} = tensor.extract_slice {tensor}[0, 0] [4, {columns}] [1, 1] : {D} to {DYN}\n"


def _clamped_count(res: str, counts: str) -> str:
    """``res = min(counts[0], 8)`` as an ``index`` (compared unsigned: a negative count gives 8)."""
    return _trip_count(f"{res}_n", counts) + f"  %c8 = arith.constant 8 : index\n  {res} = arith.minui {res}_n, %c8 : index\n"


def _clamp(n: np.integer) -> int:
    return 8 if int(n) < 0 else min(int(n), 8)


CLAMPED_COLUMNS = _func(
    f"%a: {D}, %n: {COUNT}",
    D,
    _clamped_count("%m", "%n")
    + _columns("%s", "%a", "%m")
    + _positive("%p", "%a")
    + f"  %r = scf.if %p -> ({DYN}) {{\n"
    + _indent(
        _ew("%t", "arith.mulf", "%s", "%half", columns="%m")
        + _ew("%q", "arith.mulf", "%s", "%quarter", columns="%m")
        + _ew("%u", "arith.addf", "%t", "%q", columns="%m")
        + f"  scf.yield %u : {DYN}\n"
    )
    + "  } else {\n"
    + _indent(_ew("%e", "arith.mulf", "%s", "%quarter", columns="%m") + f"  scf.yield %e : {DYN}\n")
    + "  }\n"
    + _fill("%z", "%zero")
    + f"  %out = tensor.insert_slice %r into %z[0, 0] [4, %m] [1, 1] : {DYN} into {D}\n"
    + f"  return %out : {D}\n",
)


def _clamped_columns(trace, a, n):
    m = _clamp(n[0])
    s = a[:, :m]
    out = np.zeros_like(a)
    out[:, :m] = s * np.float32(0.5) + s * np.float32(0.25) if _taken(trace, "if", a[0, 0]) else s * np.float32(0.25)
    return [out]


GROWING_COLUMNS = _func(
    f"%a: {D}, %b: {D}, %n: {COUNT}",
    D,
    _clamped_count("%trips", "%n")
    + f"  %r = scf.for %i = %c0 to %trips step %c1 iter_args(%acc = %b) -> ({D}) {{\n"
    + _indent(
        "  %k = arith.addi %i, %c1 : index\n"
        + _columns("%s", "%a", "%k")
        + _columns("%old", "%acc", "%k")
        + _ew("%t", "arith.mulf", "%s", "%half", columns="%k")
        + _ew("%u", "arith.addf", "%t", "%old", columns="%k")
        + f"  %next = tensor.insert_slice %u into %acc[0, 0] [4, %k] [1, 1] : {DYN} into {D}\n"
        + f"  scf.yield %next : {D}\n"
    )
    + "  }\n"
    + f"  return %r : {D}\n",
)


def _growing_columns(trace, a, b, n):
    acc = b.copy()
    for i in _loop(trace, "for", _clamp(n[0])):
        acc[:, : i + 1] += a[:, : i + 1] * np.float32(0.5)
    return [acc]


CALLED_LAYER = (
    HEADER
    + f"func.func private @layer(%x: {D}, %w: {W}, %b: {D}) -> ({D}) {{\n"
    + CONSTANTS
    + _matmul("%m", "%x")
    + _ew("%h", "arith.mulf", "%m", "%half")
    + _ew("%s", "arith.addf", "%h", "%b")
    + f"  return %s : {D}\n}}\n"
    + f"func.func @main(%a: {D}, %w: {W}, %b: {D}, %n: {COUNT}) -> ({D}) {{\n"
    + CONSTANTS
    + _trip_count("%trips", "%n")
    + f"  %r = scf.for %i = %c0 to %trips step %c1 iter_args(%acc = %a) -> ({D}) {{\n"
    + f"    %y = func.call @layer(%acc, %w, %b) : ({D}, {W}, {D}) -> {D}\n"
    + f"    scf.yield %y : {D}\n"
    + "  }\n"
    + _positive("%p", "%r")
    + f"  %out = scf.if %p -> ({D}) {{\n"
    + _indent(_ew("%t", "arith.negf", "%r") + f"  %z = func.call @layer(%t, %w, %b) : ({D}, {W}, {D}) -> {D}\n"
              + f"  scf.yield %z : {D}\n")
    + f"  }} else {{\n    scf.yield %r : {D}\n  }}\n"
    + f"  return %out : {D}\n}}\n"
)
"""A function called in a loop and in a branch: after bufferization each call writes an out-param
the caller allocates, and the callee's temporaries are its own allocations."""


def _called_layer(trace, a, w, b, n):
    def layer(x):
        return (x @ w) * np.float32(0.5) + b

    r = a
    for _ in _loop(trace, "for", n[0]):
        r = layer(r)
    return [layer(-r) if _taken(trace, "if", r[0, 0]) else r]


# ---------------------------------------------------------------- programs and inputs


@dataclass(frozen=True)
class Program:
    """A tensor program, its numpy reference and named input sets (in @main's argument order).

    ``reference(trace, *inputs)`` returns the results and notes in ``trace``
    each branch it takes and each loop's trip count, under the names ``sites``.
    """

    name: str
    text: str
    reference: Callable[..., list[np.ndarray]]
    cases: dict[str, list[np.ndarray]]
    sites: tuple[str, ...] = ()

    def expected(self, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        return self.reference([], *inputs)

    def trace(self, inputs: Sequence[np.ndarray]) -> Trace:
        trace: Trace = []
        self.reference(trace, *inputs)
        return trace


def coverage_gaps(program: Program, cases: Sequence[Sequence[np.ndarray]]) -> list[str]:
    """What ``cases`` leave out: a branch of an ``scf.if`` never taken, a loop
    never run 0, 1, 2 or 3+ times (per run of the loop), a site never reached."""
    seen: dict[str, set] = {site: set() for site in program.sites}
    for inputs in cases:
        for site, value in program.trace(inputs):
            seen[site].add(value if isinstance(value, bool) else min(value, 3))
    gaps = []
    for site, values in seen.items():
        wanted = {True, False} if site.endswith("if") else {0, 1, 2, 3}
        gaps += [f"{program.name}: {site} {_outcome(v)}" for v in sorted(wanted - values)]
    return gaps


def _outcome(value: bool | int) -> str:
    if isinstance(value, bool):
        return f"never takes its {'then' if value else 'else'} branch"
    return "never runs " + {0: "0 times", 1: "once", 2: "twice", 3: "3 or more times"}[value]


def _data(seed: int, first: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``a`` (with ``a[0, 0] = first``), ``w`` and ``b`` of order one."""
    rng = np.random.default_rng(seed)
    a = rng.uniform(-1, 1, (4, 8)).astype(np.float32)
    a[0, 0] = first
    w = (rng.uniform(-1, 1, (8, 8)) / np.sqrt(8)).astype(np.float32)
    b = rng.uniform(-1, 1, (4, 8)).astype(np.float32)
    return a, w, b


def _count(*trips: int) -> np.ndarray:
    return np.array(trips, dtype=np.int32)


def _programs() -> dict[str, Program]:
    a, w, b = _data(0, 0.75)
    na, nw, nb = _data(1, -0.75)
    loops = (0, 1, 2, 3, 5)
    sel = np.array([1, -1, -1, 1, 1, -1, 1, -1], dtype=np.float32)
    programs = [
        Program("chain", CHAIN, _chain, {"positive": [a, w, b], "negative": [na, nw, nb]}),
        Program("branch", BRANCH, _branch, {"then": [a, w, b], "else": [na, nw, nb]}, ("if",)),
        Program(
            "counted_loop", COUNTED_LOOP, _counted_loop, {f"trips={n}": [a, w, b, _count(n)] for n in loops}, ("for",)
        ),
        Program("while_loop", WHILE_LOOP, _while_loop, {f"trips={n}": [a, w, _count(n)] for n in loops}, ("while",)),
        Program(
            "data_while",
            DATA_WHILE,
            _data_while,
            {f"trips={n}": [a, np.array([n + 0.25], dtype=np.float32)] for n in loops},
            ("while",),
        ),
        Program(
            "if_in_for",
            IF_IN_FOR,
            _if_in_for,
            {
                **{f"trips={n}": [a, w, b, sel, _count(n)] for n in loops},
                "trips=3 all then": [a, w, b, np.ones(8, np.float32), _count(3)],
                "trips=3 all else": [a, w, b, -np.ones(8, np.float32), _count(3)],
            },
            ("for", "if"),
        ),
        Program(
            "for_in_if",
            FOR_IN_IF,
            _for_in_if,
            {**{f"then trips={n}": [a, w, b, _count(n)] for n in loops}, "else": [na, nw, nb, _count(3)]},
            ("if", "for"),
        ),
        Program(
            "nested_loops",
            NESTED_LOOPS,
            _nested_loops,
            {f"trips={n},{m}": [a, w, b, _count(n, m)] for n, m in ((0, 2), (1, 0), (1, 1), (2, 2), (3, 1), (2, 3))},
            ("outer for", "inner for"),
        ),
        Program(
            "called_layer",
            CALLED_LAYER,
            _called_layer,
            {
                **{f"trips={n}": [a, w, b, _count(n)] for n in loops},
                "trips=0 else": [na, nw, nb, _count(0)],
            },
            ("for", "if"),
        ),
        Program(
            "clamped_columns",
            CLAMPED_COLUMNS,
            _clamped_columns,
            {
                **{f"then columns={n}": [a, _count(n)] for n in (0, 3, 8, 20, -1)},
                **{f"else columns={n}": [na, _count(n)] for n in (0, 5)},
            },
            ("if",),
        ),
        Program(
            "growing_columns",
            GROWING_COLUMNS,
            _growing_columns,
            {f"trips={n}": [a, b, _count(n)] for n in (*loops, 8, 30)},
            ("for",),
        ),
    ]
    return {p.name: p for p in programs}


PROGRAMS = _programs()


# ---------------------------------------------------------------- upstream MLIR


def bufferize(text: str, pipeline: str = BUFFERIZE, timeout: float = 120.0) -> str:
    """``text`` after upstream ``pipeline``, in the generic op form; raise MlirCheckError if it fails."""
    from cfmem.mlir_check.jit import _run_worker

    with tempfile.TemporaryDirectory(prefix="cfmem-bufferize-") as tmp:
        result = Path(tmp) / "result.mlir"
        _run_worker(text, {"mode": "pipeline", "pipeline": pipeline, "result": str(result)}, {}, timeout)
        return result.read_text()


def program_context() -> Context:
    """The context bufferized programs parse in: ``cfmem.ir_io.make_context``'s (linalg included)."""
    from cfmem.ir_io import make_context

    return make_context()


def parse_program(text: str) -> ModuleOp:
    """A bufferized program (or one planned from it) parsed and verified by xDSL."""
    from cfmem.ir_io import parse_module

    return parse_module(text, "<bufferized>", program_context())[0]


def run_program(text: str, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """The out-params @main of the memref module ``text`` writes, run by upstream MLIR's JIT on ``inputs``."""
    return run_program_many(text, [inputs])[0]


def run_program_many(text: str, input_sets: Sequence[Sequence[np.ndarray]]) -> list[list[np.ndarray]]:
    """``run_program`` on each input set, compiling ``text`` once.

    @main takes the inputs, then one static-shape memref per result (its
    out-params) and, after ``memref-plan-arena{arena=argument}``, its arena, which
    is passed zeroed and not returned; the module goes through xDSL and
    ``prepare_for_jit`` first. An uninitialized arena global starts as bytes 0xff
    (NaN in every float), so a plan that reads bytes before writing them shows.
    """
    from xdsl.dialects.builtin import MemRefType

    from cfmem.passes.memref_liveness import is_arena_parameter

    from cfmem.interp.weights import numpy_dtype
    from cfmem.mlir_check.errors import MlirCheckError
    from cfmem.mlir_check.jit import run_many_with_mlir
    from cfmem.mlir_check.prepare import poison_arenas, prepare_for_jit

    module = parse_program(text)
    poison_arenas(module)
    main = _main(module)
    counts = {len(inputs) for inputs in input_sets}
    if len(counts) != 1:
        raise MlirCheckError(f"cannot run @main: the input sets hold {sorted(counts)} arrays, not one count")
    specs, results = [], []
    first = counts.pop()
    for index, ty in enumerate(main.function_type.inputs.data[first:], first):
        if not isinstance(ty, MemRefType):
            raise MlirCheckError(f"cannot run @main: its out-param of type {ty} is not a memref")
        specs.append((tuple(ty.get_shape()), numpy_dtype(ty.get_element_type())))
        if not is_arena_parameter(main, index):  # an arena is scratch, no result
            results.append(len(specs) - 1)
    outputs = run_many_with_mlir(str(prepare_for_jit(module)), input_sets, specs, func_name="main")
    return [[out[k] for k in results] for out in outputs]


def jit_mismatches(program: Program, text: str, rtol: float = 1e-5, atol: float = 1e-6) -> list[str]:
    """The input sets on which @main of ``text``, JIT-run, differs from ``program``'s reference, one line each."""
    names = list(program.cases)
    got = run_program_many(text, [program.cases[name] for name in names])
    wrong = []
    for name, outputs in zip(names, got):
        expected = program.expected(program.cases[name])
        if len(outputs) != len(expected):
            wrong.append(f"{program.name} [{name}]: {len(outputs)} out-params, expected {len(expected)} results")
            continue
        for index, (out, ref) in enumerate(zip(outputs, expected)):
            if out.shape != ref.shape or not np.allclose(out, ref, rtol=rtol, atol=atol):
                error = np.abs(out - ref).max() if out.shape == ref.shape else "shape"
                wrong.append(f"{program.name} [{name}]: out-param {index} differs from the reference ({error})")
    return wrong


def allocs_in_regions(module: ModuleOp) -> list[str]:
    """``memref.alloc``s of @main nested in an ``scf`` op, as ``<type> in <scf op>``."""
    from xdsl.dialects import memref

    found = []
    for op in _main(module).walk():
        parent = op.parent_op()
        if isinstance(op, memref.AllocOp) and parent is not None and parent.name.startswith("scf."):
            found.append(f"{op.memref.type} in {parent.name}")
    return found


def _main(module: ModuleOp):
    """The ``func.func @main`` of ``module``; MlirCheckError if there is none."""
    from xdsl.dialects import func

    from cfmem.mlir_check.errors import MlirCheckError

    for op in module.ops:
        if isinstance(op, func.FuncOp) and op.sym_name.data == "main":
            return op
    raise MlirCheckError("the module has no func.func @main")
