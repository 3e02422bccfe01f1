"""Inputs that drive a model down every outcome of its branches.

An outcome is one branch of one if (``if#3:then``). The branch an if takes
depends on data, so random inputs alone may always take the same one. The
search runs the model (the reference interpreter, or the flat one on a
lowered module) and keeps the first input set of each new branch trace, in
stages, stopping as soon as every outcome ran:

1. seeded normal inputs, scaled and shifted over a small grid (conditions that
   respond to the scale or sign of the data);
2. steering, from an input set that reaches the if: a condition that is an
   input, or compares an input (through reshapes, slices and transposes) with
   a constant, is set directly by filling that input with the constant and
   its neighbours on either side;
3. from an input set that reaches the if, each input its condition depends on
   alone scaled and shifted over the grid, then filled with each constant of
   the function and its neighbours.

Stages 2 and 3 repeat while they find new outcomes (a nested if is reached
once its parent's branch is), within ``MAX_RUNS`` runs in all. Loops are
covered apart (``loop_trip_cases`` over ``trip_variations``): input sets that run
each loop 0, 1, 2 and 3 or more times, where some input reaches them; ``idle_loops`` names
the loops whose body no run entered. Outcomes that stay
unreached, unreachable ones such as a branch behind a constant condition
among them, are listed in ``Coverage.missing``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import product

import numpy as np
from xdsl.dialects import func, memref, scf
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, ModuleOp
from xdsl.ir import BlockArgument, Operation, SSAValue

from cfmem.dialects import nn_compute as nc
from cfmem.dialects import nn_weights as nw
from cfmem.dialects.nn_control import IfOp
from cfmem.dialects.nn_control import loop_labels as nn_loop_labels
from cfmem.interp.flat import run_flat
from cfmem.interp.golden import find_function, random_inputs, run_function
from cfmem.interp.weights import dense_to_array
from cfmem.ir_io import is_flat
from cfmem.dialects.flat_form import LOOP_ATTR
from cfmem.signature import argument_names, input_args

Inputs = dict[str, np.ndarray]
Trace = tuple[tuple[str, bool], ...]

SCALES = (1.0, -1.0, 10.0, -10.0, 0.1, 100.0)
SHIFTS = (0.0, 1.0, -1.0, 3.0, -3.0)
MAX_RUNS = 600
"""Runs one search may spend, the grid's included."""
MAX_THRESHOLDS = 16
"""Distinct constant values tried as thresholds of one condition."""

PASS_THROUGH = (nw.ReshapeOp, nc.SliceOp, nc.TransposeOp)
"""Ops whose every result element is an element of their first operand."""


def outcome(label: str, taken: bool) -> str:
    return f"{label}:{'then' if taken else 'else'}"


def trace_outcomes(trace: Trace) -> list[str]:
    return [outcome(label, taken) for label, taken in trace]


def if_ops(module: ModuleOp, fn: func.FuncOp) -> dict[str, Operation]:
    """The ifs of ``fn`` by label, labelled as the interpreters label them
    (``if#k``: the k-th if of the module in walk order)."""
    ifs = (op for op in module.walk() if isinstance(op, IfOp | scf.IfOp))
    return {f"if#{k}": op for k, op in enumerate(ifs) if fn.is_ancestor(op)}


def branch_outcomes(module: ModuleOp, fn: func.FuncOp) -> list[str]:
    """Every outcome of every if of ``fn``, then before else."""
    return [outcome(label, taken) for label in if_ops(module, fn) for taken in (True, False)]


def missing_outcomes(outcomes: list[str], traces: list[Trace]) -> list[str]:
    """The ``outcomes`` that none of ``traces`` took, in their order."""
    taken = {o for trace in traces for o in trace_outcomes(trace)}
    return [o for o in outcomes if o not in taken]


@dataclass
class Coverage:
    """Input sets with their traces, first found first, and what they leave out."""

    found: list[tuple[Inputs, Trace]]
    outcomes: list[str]
    """Every outcome of the function."""

    @property
    def missing(self) -> list[str]:
        return missing_outcomes(self.outcomes, [trace for _, trace in self.found])


def _grid(value: np.ndarray, scale: float, shift: float) -> np.ndarray:
    if value.dtype == np.bool_:
        return value if scale > 0 else ~value
    with np.errstate(over="ignore", invalid="ignore"):  # a saturated input is still an input
        return (value * scale + shift).astype(value.dtype)


def _source(value: SSAValue) -> SSAValue:
    """``value`` traced back through element-preserving ops."""
    while isinstance(value.owner, PASS_THROUGH):
        value = value.owner.operands[0]
    return value


def _depends_on(value: SSAValue, names: dict[SSAValue, str]) -> list[str]:
    """The inputs (by name) that ``value`` is computed from."""
    found, seen, stack = set(), set(), [value]
    while stack:
        v = stack.pop()
        if v in seen:
            continue
        seen.add(v)
        if v in names:
            found.add(names[v])
        elif not isinstance(v, BlockArgument):
            stack.extend(operand for op in v.owner.walk() for operand in op.operands)
    return [name for name in names.values() if name in found]


def _near(thresholds: list, dtype: np.dtype) -> list:
    """Each threshold that ``dtype`` holds, and its neighbours on either side, in ``dtype``."""
    if dtype.kind not in "fi":
        return []
    info = np.finfo(dtype) if dtype.kind == "f" else np.iinfo(dtype)
    number = float if dtype.kind == "f" else int
    low, high = number(info.min), number(info.max)  # Python numbers: no cast to ``dtype`` when compared
    values = []
    for t in thresholds:
        if not (np.isfinite(t) and low <= t <= high):
            continue
        if dtype.kind == "f":
            t, one = dtype.type(t), dtype.type(1)
            values += [t, t + one, t - one]
            values += [np.nextafter(t, dtype.type(side)) for side in (high, low) if t != side]
        else:
            values += [int(t), int(t) + 1, int(t) - 1]
    kept = [dtype.type(v) for v in values if np.isfinite(v) and low <= v <= high]
    return list(dict.fromkeys(kept))


def _small_constants(module: ModuleOp, fn: func.FuncOp) -> list[np.ndarray]:
    """The constants of ``fn`` (``nn.constant``) and, in the flat form, the
    module's small constant globals, where those constants live."""
    arrays = [dense_to_array(op.value) for op in fn.walk() if isinstance(op, nc.ConstantOp)]
    for op in module.ops:
        if isinstance(op, memref.GlobalOp) and op.constant and isinstance(op.initial_value, DenseIntOrFPElementsAttr):
            if math.prod(op.initial_value.type.get_shape()) <= MAX_THRESHOLDS:
                arrays.append(dense_to_array(op.initial_value))
    return arrays


def _constants(value: SSAValue | None, module: ModuleOp, fn: func.FuncOp) -> list:
    """Threshold candidates: the values of ``value`` if it is a constant, else
    every small constant of the function, and 0."""
    source = _source(value) if value is not None else None
    if source is not None and isinstance(source.owner, nc.ConstantOp):
        arrays = [dense_to_array(source.owner.value)]
    else:
        arrays = _small_constants(module, fn)
    return threshold_candidates([v.item() for a in arrays for v in a.reshape(-1)[:MAX_THRESHOLDS]] + [0])


def threshold_candidates(values: Iterable) -> list:
    """``values`` without booleans or repeats, in order, at most ``MAX_THRESHOLDS`` of them."""
    return list(dict.fromkeys(v for v in values if not isinstance(v, bool)))[:MAX_THRESHOLDS]


def _steering(
    if_op: Operation, module: ModuleOp, fn: func.FuncOp, names: dict[SSAValue, str], dtypes: dict[str, np.dtype]
) -> Iterator[tuple[str, object]]:
    """``(input, fill value)`` pairs that may set the condition of ``if_op``."""
    if not isinstance(if_op, IfOp):
        return
    cond = _source(if_op.cond)
    if cond in names:
        yield from ((names[cond], value) for value in (True, False))
    elif isinstance(cond.owner, nc.CmpOp):
        lhs, rhs = cond.owner.lhs, cond.owner.rhs
        for mine, other in ((lhs, rhs), (rhs, lhs)):
            source = _source(mine)
            if source in names:
                name = names[source]
                yield from ((name, v) for v in _near(_constants(other, module, fn), dtypes[name]))


class _Search:
    """The state of one search: traces found, runs spent."""

    def __init__(self, module: ModuleOp, fn: func.FuncOp, run: Callable[[Inputs], Trace]):
        self.module, self.fn, self.run = module, fn, run
        self.ifs = if_ops(module, fn)
        self.outcomes = branch_outcomes(module, fn)
        self.found: dict[Trace, Inputs] = {}
        self.ran: set[str] = set()
        self.runs = 0

    def done(self) -> bool:
        return len(self.ran) == len(self.outcomes)

    def covered(self, label: str) -> bool:
        return {outcome(label, True), outcome(label, False)} <= self.ran

    def attempt(self, inputs: Inputs, keep_any_new_trace: bool) -> bool:
        """Run ``inputs`` and keep them for a new trace (any new one, or only one
        with a new outcome); whether they took an outcome not seen before."""
        self.runs += 1
        trace = self.run(inputs)
        new = set(trace_outcomes(trace)) - self.ran
        if new or keep_any_new_trace:
            self.found.setdefault(trace, inputs)
        self.ran |= new
        return bool(new)

    def grid(self, seeds: int) -> None:
        for seed, scale, shift in product(range(seeds), SCALES, SHIFTS):
            inputs = {name: _grid(value, scale, shift) for name, value in random_inputs(self.fn, seed).items()}
            self.attempt(inputs, keep_any_new_trace=True)
            if self.done():
                return

    def variations(self, label: str, base: Inputs) -> Iterator[Inputs]:
        """Input sets near ``base`` (which reaches ``label``) that may flip its condition."""
        if_op = self.ifs[label]
        names = dict(zip(input_args(self.fn), argument_names(self.fn)))
        dtypes = {name: value.dtype for name, value in base.items()}
        for name, fill in _steering(if_op, self.module, self.fn, names, dtypes):
            yield {**base, name: np.full_like(base[name], fill)}
        depends = _depends_on(if_op.operands[0], names) if isinstance(if_op, IfOp) else list(base)
        for name in depends:
            for scale, shift in product(SCALES, SHIFTS):
                yield {**base, name: _grid(base[name], scale, shift)}
            for fill in _near(_constants(None, self.module, self.fn), dtypes[name]):
                yield {**base, name: np.full_like(base[name], fill)}

    def flip(self, label: str) -> bool:
        """Try to take the outcome of ``label`` not yet taken; whether anything new ran."""
        progress = False
        for base in [inputs for trace, inputs in self.found.items() if label in dict(trace)]:
            for inputs in self.variations(label, base):
                if self.covered(label) or self.runs >= MAX_RUNS:
                    return progress
                progress |= self.attempt(inputs, keep_any_new_trace=False)
        return progress

    def steer(self) -> None:
        progress = True
        while progress and not self.done() and self.runs < MAX_RUNS:
            progress = False
            for label in self.ifs:
                if not self.covered(label):
                    progress |= self.flip(label)


def cover_branches(module: ModuleOp, func_name: str | None = None, seeds: int = 3, base_dir=None) -> Coverage:
    """Input sets for ``func_name`` that together take as many branch outcomes
    as the search reaches; ``module`` is tensor-level or flat."""
    fn = find_function(module, func_name)
    if is_flat(module):
        def run(inputs: Inputs) -> Trace:
            return tuple(run_flat(module, inputs, func_name=func_name, check=False).branches)
    else:
        def run(inputs: Inputs) -> Trace:
            return tuple(run_function(module, inputs, base_dir=base_dir, func_name=func_name).branches)
    search = _Search(module, fn, run)
    search.grid(seeds)
    search.steer()
    return Coverage([(inputs, trace) for trace, inputs in search.found.items()], search.outcomes)


def branch_covering_inputs(
    module: ModuleOp, func_name: str | None = None, seeds: int = 3, base_dir=None
) -> list[tuple[Inputs, Trace]]:
    """One ``(inputs, branch trace)`` per distinct trace found, first found first."""
    return cover_branches(module, func_name, seeds, base_dir).found


TRIP_CLASSES = ("0", "1", "2", "many")
"""How often a loop ran, as the cases loop tests cover: not at all, once, twice, 3 or more times."""


def trip_class(iterations: int) -> str:
    return str(iterations) if iterations < 3 else "many"


def loop_labels(module: ModuleOp, fn: func.FuncOp) -> list[str]:
    """The loops of ``fn`` as the interpreters label them: ``loop#k`` in walk order of the
    ``nn.loop`` ops, or in a flat module the ``cfmem.loop`` of each lowered loop."""
    if is_flat(module):
        return [op.attributes[LOOP_ATTR].data for op in fn.walk() if LOOP_ATTR in op.attributes]
    return [label for op, label in nn_loop_labels(module).items() if fn.is_ancestor(op)]


def loop_trip_cases(
    module: ModuleOp, candidates: Iterable[Inputs], func_name: str | None = None, base_dir=None
) -> dict[tuple[str, str], Inputs]:
    """The first of ``candidates`` that makes each loop run each of ``TRIP_CLASSES``,
    by ``(loop label, class)``; a class no candidate reaches is absent. Runs the
    reference interpreter (the flat one on a lowered module), at most ``MAX_RUNS``
    times, stopping once every loop of the function has every class."""
    fn = find_function(module, func_name)
    wanted = {(label, c) for label in loop_labels(module, fn) for c in TRIP_CLASSES}
    found: dict[tuple[str, str], Inputs] = {}
    for runs, inputs in enumerate(candidates):
        if wanted <= found.keys() or runs >= MAX_RUNS:
            break
        if is_flat(module):
            loops = run_flat(module, inputs, func_name=func_name, check=False).loops
        else:
            loops = run_function(module, inputs, base_dir=base_dir, func_name=func_name).loops
        for label, n in loops:
            found.setdefault((label, trip_class(n)), inputs)
    return found


def function_constants(module: ModuleOp, fn: func.FuncOp) -> list:
    """The values a condition of ``fn`` may compare an input with: its small constants, and 0."""
    return _constants(None, module, fn)


def idle_loops(labels: list[str], runs: Iterable[Iterable[tuple[str, int]]]) -> list[str]:
    """The loops of ``labels`` whose body ran in none of ``runs`` (each a run's
    ``(loop label, iterations)`` pairs), in their order."""
    entered = {label for loops in runs for label, n in loops if n > 0}
    return [label for label in labels if label not in entered]


def trip_variations(fn: func.FuncOp, bases: list[Inputs], thresholds: list = ()) -> Iterator[Inputs]:
    """Input sets near ``bases`` that may run loops other numbers of times: each integer
    input (a trip count, or what one is computed from) filled with 0, 1, 2, 3 and 8; each
    boolean input (a condition) filled with true and false; each input filled with each of
    ``thresholds`` (what a loop's condition may compare it with) and its neighbours; then
    each other input scaled and shifted over the grid."""
    for base in bases:
        for name, value in base.items():
            if value.dtype.kind in "iu":
                for count in (0, 1, 2, 3, 8):
                    yield {**base, name: np.full_like(value, count)}
            elif value.dtype == np.bool_:
                for fill in (True, False):
                    yield {**base, name: np.full_like(value, fill)}
    for base in bases:
        for name, value in base.items():
            for fill in _near(list(thresholds), value.dtype):
                yield {**base, name: np.full_like(value, fill)}
    for base in bases:
        for name, value in base.items():
            if value.dtype.kind == "f":
                for scale, shift in product(SCALES, SHIFTS):
                    yield {**base, name: _grid(value, scale, shift)}
