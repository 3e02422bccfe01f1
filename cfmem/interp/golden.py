"""Reference interpreter for the tensor-level nn dialect.

Every value is a fresh numpy array; nothing is shared, so the result is what
the graph means, independent of any memory plan. The branch of each ``nn.if``
is chosen by the condition's data at run time and recorded, so callers can
check which paths a set of inputs exercised.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import MemRefType, ModuleOp, TensorType
from xdsl.ir import Block, Operation, SSAValue

from cfmem.dialects import nn_compute as nc
from cfmem.dialects import nn_control as ncf
from cfmem.dialects import nn_dma as nd
from cfmem.dialects import nn_weights as nw
from cfmem.gc_pause import cyclic_gc_paused
from cfmem.interp import kernels
from cfmem.interp.footprint import check_input_bytes
from cfmem.signature import argument_names, input_args, result_names
from cfmem.interp.weights import blob_bytes, dense_to_array, numpy_dtype, view_array


class InterpError(Exception):
    """The interpreter cannot run ``op``; the message says why."""

    def __init__(self, message: str, op: Operation | None = None):
        super().__init__(message)
        self.op = op


MAX_ITERATIONS = 1_000_000
"""The most loop iterations one interpreter run executes, all its loops together: each takes
microseconds in Python even for a one-op body, so 10**9 would run for hours; the timing model
(``cfmem report --timing``) costs any trip count without running it."""


class IterationLimit:
    """Counts the iterations of one run's loops; past ``limit`` it raises :class:`InterpError`."""

    def __init__(self, limit: int = MAX_ITERATIONS):
        self.limit = limit
        self.count = 0

    def step(self, label: str | None, op: Operation) -> None:
        """Count one iteration of the loop ``op`` (``label`` as the passes name it)."""
        self.count += 1
        if self.count > self.limit:
            raise InterpError(
                f"{label or 'a loop'} goes past {self.limit:,} loop iterations in one run, the most an"
                " interpreter runs; cfmem report --timing costs any trip count without running it",
                op,
            )


@dataclass
class RunResult:
    outputs: dict[str, np.ndarray]
    """Returned values, keyed by the SSA name of each returned value."""
    branches: list[tuple[str, bool]] = field(default_factory=list)
    """Each executed ``nn.if`` in order: its label ``if#k`` and whether then ran."""
    loops: list[tuple[str, int]] = field(default_factory=list)
    """Each finished ``nn.loop`` in order: its label ``loop#k`` and how many iterations ran."""


def find_function(module: ModuleOp, func_name: str | None = None) -> func.FuncOp:
    """The function ``func_name``, or the module's only (or ``main``) function.

    Resident-weight loaders of the flat form (``cfmem.init_of``) are not
    candidates: they run as part of the function they load for.
    """
    funcs = [op for op in module.ops if isinstance(op, func.FuncOp) and "cfmem.init_of" not in op.attributes]
    if func_name is not None:
        funcs = [f for f in funcs if f.sym_name.data == func_name]
        if not funcs:
            raise InterpError(f"no function @{func_name} in the module")
    elif len(funcs) > 1:
        funcs = [f for f in funcs if f.sym_name.data == "main"] or funcs
        if len(funcs) > 1:
            raise InterpError("the module has several functions and none is @main: pick one")
    if not funcs:
        raise InterpError("the module has no function to run")
    return funcs[0]


def random_inputs(fn: func.FuncOp, seed: int) -> dict[str, np.ndarray]:
    """Inputs from ``seed``, drawn in each argument's own dtype: standard-normal
    floats, uniform bits for i1 and uniform integers in [-100, 100) (uint8: [0, 200))
    for wider integers. Inputs over the size cap are refused before anything is drawn."""
    check_input_bytes(fn)
    rng = np.random.default_rng(seed)
    inputs: dict[str, np.ndarray] = {}
    for name, arg in zip(argument_names(fn), input_args(fn)):
        ty = arg.type
        assert isinstance(ty, TensorType | MemRefType)
        dtype = numpy_dtype(ty.get_element_type())
        shape = tuple(ty.get_shape())
        if dtype == np.bool_:
            inputs[name] = rng.integers(0, 2, shape, dtype=np.bool_)
        elif dtype.kind in "iu":
            low = -100 if dtype.kind == "i" else 0
            inputs[name] = rng.integers(low, low + 200, shape, dtype=dtype)
        elif dtype in (np.float32, np.float64):
            inputs[name] = rng.standard_normal(shape, dtype=dtype)
        else:  # float16: numpy draws no narrower than float32
            inputs[name] = rng.standard_normal(shape, dtype=np.float32).astype(dtype)
    return inputs


def conform_input(name: str, value: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """``value`` in ``dtype``: as it is, or cast when every element survives the
    cast exactly (bool to i1, int8 to int32, float16 to float32, float64 or
    integers whose values fit, complex with zero imaginary parts); otherwise an
    error naming the input, its dtype and the expected one."""
    value = np.asarray(value)
    if value.dtype == dtype:
        return value
    expected = f"input '{name}' has dtype {value.dtype}, expected {dtype}"
    if value.dtype.kind not in "biufc":
        raise InterpError(f"{expected}: its elements are not numbers")
    if np.can_cast(value.dtype, dtype, "safe"):
        return value.astype(dtype)
    source = value
    if value.dtype.kind == "c" and dtype.kind != "c":
        if np.any(value.imag):
            raise InterpError(f"{expected}: it has non-zero imaginary parts")
        source = value.real
    with np.errstate(over="ignore", invalid="ignore"):  # overflow and NaN show as a failed round trip
        converted = source.astype(dtype)
        same = converted.astype(source.dtype) == source
    if source.dtype.kind == "f":
        same |= np.isnan(source) & np.isnan(converted)
    if not same.all():
        where = np.unravel_index(int(np.argmin(same)), same.shape)
        raise InterpError(f"{expected}: {source[where].item()!r} at {tuple(map(int, where))} does not convert exactly")
    return converted


InputSpec = list[tuple[str, tuple[int, ...], np.dtype]]
"""Name, shape and dtype of each input argument of a function, in order."""


def input_spec(fn: func.FuncOp) -> InputSpec:
    specs = []
    for name, arg in zip(argument_names(fn), input_args(fn)):
        ty = arg.type
        assert isinstance(ty, TensorType | MemRefType)
        specs.append((name, tuple(ty.get_shape()), numpy_dtype(ty.get_element_type())))
    return specs


def conform_inputs(fn: func.FuncOp, inputs: dict[str, np.ndarray], spec: InputSpec | None = None
                   ) -> dict[str, np.ndarray]:
    """The inputs of ``fn`` (``spec``: its ``input_spec``) by argument name, checked for
    name and shape and in each argument's dtype (``conform_input``); the one input policy
    of every command that runs a model."""
    return conform_to_spec(input_spec(fn) if spec is None else spec, inputs)


def conform_to_spec(spec: InputSpec, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """``conform_inputs`` for a function whose ``input_spec`` is ``spec``."""
    conformed: dict[str, np.ndarray] = {}
    for name, want, dtype in spec:
        if name not in inputs:
            raise InterpError(f"missing input '{name}' (inputs given: {', '.join(sorted(inputs)) or 'none'})")
        value = np.asarray(inputs[name])
        if value.shape != want:
            raise InterpError(f"input '{name}' has shape {value.shape}, expected {want}")
        conformed[name] = conform_input(name, value, dtype)
    if len(inputs) != len(conformed):
        extra = set(inputs) - {name for name, _, _ in spec}
        raise InterpError(f"unknown input(s) {', '.join(sorted(extra))}")
    return conformed


def check_inputs(spec: InputSpec, inputs: dict[str, np.ndarray]) -> list[np.ndarray]:
    """The arguments of a function whose ``input_spec`` is ``spec``, from ``inputs``
    (``conform_to_spec``), in argument order."""
    return list(conform_to_spec(spec, inputs).values())


Env = list
"""Values of a run, one slot per SSA value of the function (``_Compiler.slot``)."""
Step = Callable[[Env], None]


@dataclass
class _Block:
    """A block compiled to steps; ``results`` are the slots its terminator returns
    (None: the block has no terminator)."""

    steps: list[Step]
    results: list[int] | None

    def run(self, env: Env) -> list:
        for step in self.steps:
            step(env)
        if self.results is None:
            raise InterpError("block has no terminator")
        return [env[k] for k in self.results]


class GoldenInterpreter:
    """Runs one function of a tensor-level module on numpy arrays.

    Each function is compiled once, on its first run, into a list of steps with the
    kernels, attributes and shapes of its ops resolved, and its weights decoded on
    first use and kept: an interpreter assumes its module does not change between runs
    (make a new one for a changed module)."""

    max_iterations = MAX_ITERATIONS
    """The most loop iterations one run executes (see :class:`IterationLimit`)."""

    def __init__(self, module: ModuleOp, base_dir: Path | None = None):
        self.module = module
        self.base_dir = base_dir
        self.globals = {op.sym_name.data: op for op in module.ops if isinstance(op, nw.GlobalOp)}
        self.if_labels = ncf.if_labels(module)
        self._blobs: dict[str, np.ndarray] = {}
        self.branches: list[tuple[str, bool]] = []
        self.loop_labels = ncf.loop_labels(module)
        self.loops: list[tuple[str, int]] = []
        self.iterations = IterationLimit(self.max_iterations)
        self._programs: dict[func.FuncOp, tuple[InputSpec, list[str], _Block, list[int], Env]] = {}

    def blob(self, name: str) -> np.ndarray:
        if name not in self._blobs:
            self._blobs[name] = blob_bytes(self.globals[name], self.base_dir)
        return self._blobs[name]

    def run(self, fn: func.FuncOp, inputs: dict[str, np.ndarray]) -> RunResult:
        with cyclic_gc_paused():  # a run only allocates (values; steps and kernels on first use)
            return self._run(fn, inputs)

    def _run(self, fn: func.FuncOp, inputs: dict[str, np.ndarray]) -> RunResult:
        if fn not in self._programs:
            self._programs[fn] = (input_spec(fn), result_names(fn), *_Compiler(self).function(fn))
        spec, names, body, argument_slots, template = self._programs[fn]
        arguments = check_inputs(spec, inputs)
        self.branches, self.loops, self.iterations = [], [], IterationLimit(self.max_iterations)
        env = template.copy()
        for k, value in zip(argument_slots, arguments):
            env[k] = value
        with np.errstate(all="ignore"):  # NaN and inf are IEEE results here, not errors
            outputs = body.run(env)
        return RunResult(dict(zip(names, outputs)), list(self.branches), list(self.loops))


class _Compiler:
    """Compiles the blocks of one function into steps over slot-indexed values."""

    def __init__(self, interp: GoldenInterpreter):
        self.interp = interp
        self.slots: dict[SSAValue, int] = {}
        self.statics: dict[int, np.ndarray] = {}
        """Values the same in every run, by slot: weights, views of them, constants."""

    def slot(self, value: SSAValue) -> int:
        if value not in self.slots:
            self.slots[value] = len(self.slots)
        return self.slots[value]

    def function(self, fn: func.FuncOp) -> tuple[_Block, list[int], Env]:
        """The body's steps, the arguments' slots and the values a run starts with."""
        arguments = [self.slot(a) for a in fn.body.block.args]
        body = self.block(fn.body.block)
        template: Env = [None] * len(self.slots)
        for k, value in self.statics.items():
            template[k] = value
        return body, arguments, template

    def block(self, block: Block) -> _Block:
        steps: list[Step] = []
        for op in block.ops:
            if isinstance(op, ncf.YieldOp | func.ReturnOp):
                return _Block(steps, [self.slot(v) for v in op.operands])
            step = self.op(op)
            if step is not None:  # None: the op's value is in ``statics``
                steps.append(step)
        return _Block(steps, None)

    def op(self, op: Operation) -> Step | None:
        ins = [self.slot(v) for v in op.operands]
        outs = [self.slot(r) for r in op.results]
        interp = self.interp
        if isinstance(op, ncf.IfOp):
            label, then, other = interp.if_labels[op], self.block(op.then_region.block), self.block(op.else_region.block)

            def run_if(env: Env) -> None:
                taken = bool(env[ins[0]].reshape(-1)[0])
                interp.branches.append((label, taken))
                for k, value in zip(outs, (then if taken else other).run(env)):
                    env[k] = value

            return run_if
        if isinstance(op, ncf.LoopOp):
            return self.loop(op, ins, outs)
        if isinstance(op, nw.GetGlobalOp):
            name, dtype = op.global_name.string_value(), numpy_dtype(op.result.type.get_element_type())
            return self.fixed(ins, outs[0], lambda env: interp.blob(name).view(dtype))  # i8: signed, as typed
        if isinstance(op, nw.ViewOp):
            offset, result_type = op.offset.value.data, op.result.type
            return self.fixed(ins, outs[0], lambda env: view_array(env[ins[0]], offset, result_type))
        if isinstance(op, nc.ConstantOp):
            return self.fixed(ins, outs[0], lambda env: _read_only(dense_to_array(op.value)))
        if isinstance(op, nw.ReshapeOp):
            shape = tuple(op.result.type.get_shape())
            return lambda env: env.__setitem__(outs[0], env[ins[0]].reshape(shape).copy())
        if isinstance(op, nd.DmaBufferOp):
            shape = tuple(op.result.type.get_shape())
            return lambda env: env.__setitem__(outs[0], np.zeros(shape, np.uint8))
        if isinstance(op, nd.DmaStartOp):
            # a token carries copies of the sources: the meaning of a transfer
            return lambda env: env.__setitem__(outs[0], [env[k].copy() for k in ins[:-1]])

        if isinstance(op, nd.DmaWaitOp):
            def wait(env: Env) -> None:
                for k, value in zip(outs, env[ins[0]]):
                    env[k] = value

            return wait
        if type(op) in kernels.KERNELS:
            kernel, out = prepare_kernel(op), outs[0]
            if len(ins) == 1:
                (a,) = ins
                return lambda env: env.__setitem__(out, kernel[0]([env[a]]))
            if len(ins) == 2:
                a, b = ins
                return lambda env: env.__setitem__(out, kernel[0]([env[a], env[b]]))
            return lambda env: env.__setitem__(out, kernel[0]([env[k] for k in ins]))

        def refuse(env: Env) -> None:
            raise InterpError(f"cannot interpret '{op.name}'", op)

        return refuse

    def fixed(self, ins: list[int], out: int, make: Callable[[Env], np.ndarray]) -> Step | None:
        """A value (a weight, a view of one, a constant) made now when its operands are fixed
        (None: it is in ``statics``); otherwise, or when making it fails, a step that makes it
        in every run (and fails there)."""
        if all(k in self.statics for k in ins):
            try:
                self.statics[out] = make(self.statics)
                return None
            except Exception:  # noqa: BLE001 (raised again by the step, where the op runs)
                pass
        return lambda env: env.__setitem__(out, make(env))

    def loop(self, op: ncf.LoopOp, ins: list[int], outs: list[int]) -> Step:
        """Iterations run while ``i < trip_count`` and the condition holds; each
        scan output stacks one element per iteration and must be full."""
        interp, block = self.interp, op.body.block
        label, length = interp.loop_labels[op], op.scan_length()
        index_slot, cond_slot, *carried_slots = [self.slot(a) for a in block.args]
        index_shape, cond_shape = block.args[0].type.get_shape(), block.args[1].type.get_shape()
        body = self.block(block)
        empty = [(r.type.get_shape(), numpy_dtype(r.type.get_element_type())) for r in op.scans]
        n_carried = len(ins) - 2

        def run_loop(env: Env) -> None:
            limit, cond = int(env[ins[0]].reshape(-1)[0]), bool(env[ins[1]].reshape(-1)[0])
            carried = [env[k] for k in ins[2:]]
            scans: list[list[np.ndarray]] = [[] for _ in empty]
            i = 0
            while i < limit and cond:
                interp.iterations.step(label, op)
                env[index_slot] = np.full(index_shape, i, np.int64)
                env[cond_slot] = np.full(cond_shape, True)
                for k, value in zip(carried_slots, carried):
                    env[k] = value
                yielded = body.run(env)
                cond, carried = bool(yielded[0].reshape(-1)[0]), yielded[1 : 1 + n_carried]
                for stack, element in zip(scans, yielded[1 + n_carried :]):
                    stack.append(element)
                i += 1
            interp.loops.append((label, i))
            if length is not None and i != length:
                raise InterpError(f"{label} ran {i} iterations but its scan outputs hold {length}", op)
            stacked = [np.stack(s) if s else np.zeros(shape, dtype) for s, (shape, dtype) in zip(scans, empty)]
            for k, value in zip(outs, [*carried, *stacked]):
                env[k] = value

        return run_loop


def _read_only(array: np.ndarray) -> np.ndarray:
    """``array``, no longer writable: one constant serves every run."""
    array.flags.writeable = False
    return array


def prepare_kernel(op: Operation) -> list[Callable[[list[np.ndarray]], np.ndarray]]:
    """A one-element list holding ``kernels.prepare(op)`` (with an index out of range or a row
    TFLite Micro stops on as an ``InterpError`` at ``op``); until its first call it holds the preparer, which puts the
    kernel in its place: an op that never runs costs nothing."""

    def first(args: list[np.ndarray]) -> np.ndarray:
        box[0] = kernels.prepare(op, lambda err: InterpError(f"'{op.name}': {err}", op))
        return box[0](args)

    box = [first]
    return box


def run_function(
    module: ModuleOp,
    inputs: dict[str, np.ndarray],
    *,
    base_dir: Path | None = None,
    func_name: str | None = None,
) -> RunResult:
    """Run ``func_name`` (default: the only or ``main`` function) on ``inputs``."""
    fn = find_function(module, func_name)
    return GoldenInterpreter(module, base_dir).run(fn, inputs)
