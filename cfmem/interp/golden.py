"""Reference interpreter for the tensor-level nn dialect.

Every value is a fresh numpy array; nothing is shared, so the result is what
the graph means, independent of any memory plan. The branch of each ``nn.if``
is chosen by the condition's data at run time and recorded, so callers can
check which paths a set of inputs exercised.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, MemRefType, ModuleOp, TensorType
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from cfmem.dialects import nn_compute as nc
from cfmem.dialects import nn_control as ncf
from cfmem.dialects import nn_dma as nd
from cfmem.dialects import nn_weights as nw
from cfmem.interp import kernels
from cfmem.interp.footprint import check_input_bytes
from cfmem.signature import argument_names, input_args, result_names
from cfmem.interp.weights import blob_bytes, dense_to_array, numpy_dtype, view_array


class InterpError(Exception):
    """The interpreter cannot run ``op``; the message says why."""

    def __init__(self, message: str, op: Operation | None = None):
        super().__init__(message)
        self.op = op


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


def conform_inputs(fn: func.FuncOp, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The inputs of ``fn`` by argument name, checked for name and shape and in
    each argument's dtype (``conform_input``); the one input policy of every
    command that runs a model."""
    conformed: dict[str, np.ndarray] = {}
    for name, arg in zip(argument_names(fn), input_args(fn)):
        if name not in inputs:
            raise InterpError(f"missing input '{name}' (inputs given: {', '.join(sorted(inputs)) or 'none'})")
        ty = arg.type
        assert isinstance(ty, TensorType | MemRefType)
        value = np.asarray(inputs[name])
        want = tuple(ty.get_shape())
        if value.shape != want:
            raise InterpError(f"input '{name}' has shape {value.shape}, expected {want}")
        conformed[name] = conform_input(name, value, numpy_dtype(ty.get_element_type()))
    extra = set(inputs) - set(argument_names(fn))
    if extra:
        raise InterpError(f"unknown input(s) {', '.join(sorted(extra))}")
    return conformed


def check_inputs(fn: func.FuncOp, inputs: dict[str, np.ndarray]) -> list[np.ndarray]:
    """The arguments of ``fn`` from ``inputs`` (``conform_inputs``), in argument order."""
    return list(conform_inputs(fn, inputs).values())


class GoldenInterpreter:
    """Runs one function of a tensor-level module on numpy arrays."""

    def __init__(self, module: ModuleOp, base_dir: Path | None = None):
        self.module = module
        self.base_dir = base_dir
        self.globals = {op.sym_name.data: op for op in module.ops if isinstance(op, nw.GlobalOp)}
        self.if_labels = {op: f"if#{k}" for k, op in enumerate(o for o in module.walk() if isinstance(o, ncf.IfOp))}
        self._blobs: dict[str, np.ndarray] = {}
        self.branches: list[tuple[str, bool]] = []
        self.loop_labels = ncf.loop_labels(module)
        self.loops: list[tuple[str, int]] = []
        self.env: dict[SSAValue, np.ndarray] = {}

    def blob(self, name: str) -> np.ndarray:
        if name not in self._blobs:
            self._blobs[name] = blob_bytes(self.globals[name], self.base_dir)
        return self._blobs[name]

    def run(self, fn: func.FuncOp, inputs: dict[str, np.ndarray]) -> RunResult:
        self.branches, self.loops = [], []
        env: dict[SSAValue, np.ndarray] = dict(zip(fn.body.block.args, check_inputs(fn, inputs)))
        self.env = env
        outputs = self.run_block(fn.body.block, env)
        return RunResult(dict(zip(result_names(fn), outputs)), list(self.branches), list(self.loops))

    def run_block(self, block: Block, env: dict[SSAValue, np.ndarray]) -> list[np.ndarray]:
        """Execute ``block``; return the operands of its terminator."""
        for op in block.ops:
            if isinstance(op, ncf.YieldOp | func.ReturnOp):
                return [env[v] for v in op.operands]
            for result, value in zip(op.results, self.run_op(op, env)):
                env[result] = value
        raise InterpError("block has no terminator")

    def run_op(self, op: Operation, env: dict[SSAValue, np.ndarray]) -> list[np.ndarray]:
        args = [env[v] for v in op.operands]
        if isinstance(op, ncf.IfOp):
            taken = bool(args[0].reshape(-1)[0])
            self.branches.append((self.if_labels[op], taken))
            region = op.then_region if taken else op.else_region
            return self.run_block(region.block, env)
        if isinstance(op, ncf.LoopOp):
            return self.run_loop(op, args)
        if isinstance(op, nw.GetGlobalOp):
            return [self.blob(op.global_name.string_value())]
        if isinstance(op, nw.ViewOp):
            return [view_array(args[0], op.offset.value.data, op.result.type)]
        if isinstance(op, nw.ReshapeOp):
            return [args[0].reshape(tuple(op.result.type.get_shape())).copy()]
        if isinstance(op, nc.ConstantOp):
            return [dense_to_array(op.value)]
        if isinstance(op, nd.DmaBufferOp):
            return [np.zeros(op.result.type.get_shape(), np.uint8)]
        if isinstance(op, nd.DmaStartOp):
            # a token carries copies of the sources: the meaning of a transfer
            return [[a.copy() for a in args[:-1]]]
        if isinstance(op, nd.DmaWaitOp):
            return list(args[0])
        if type(op) in kernels.KERNELS:
            return [evaluate(op, args)]
        raise InterpError(f"cannot interpret '{op.name}'", op)


    def run_loop(self, op: ncf.LoopOp, args: list[np.ndarray]) -> list[np.ndarray]:
        """Iterations run while ``i < trip_count`` and the condition holds; each
        scan output stacks one element per iteration and must be full."""
        limit, cond, carried = int(args[0].reshape(-1)[0]), bool(args[1].reshape(-1)[0]), args[2:]
        scans: list[list[np.ndarray]] = [[] for _ in op.scans]
        env = self.env
        i = 0
        while i < limit and cond:
            block = op.body.block
            env[block.args[0]] = np.full(block.args[0].type.get_shape(), i, np.int64)
            env[block.args[1]] = np.full(block.args[1].type.get_shape(), True)
            env.update(zip(block.args[2:], carried))
            yielded = self.run_block(block, env)
            cond, carried = bool(yielded[0].reshape(-1)[0]), yielded[1 : 1 + len(carried)]
            for stack, element in zip(scans, yielded[1 + len(carried) :]):
                stack.append(element)
            i += 1
        self.loops.append((self.loop_labels[op], i))
        length = op.scan_length()
        if length is not None and i != length:
            raise InterpError(f"{self.loop_labels[op]} ran {i} iterations but its scan outputs hold {length}", op)
        stacked = [np.stack(s) if s else np.zeros(r.type.get_shape(), numpy_dtype(r.type.get_element_type()))
                   for s, r in zip(scans, op.scans)]
        return [*carried, *stacked]


def evaluate(op: Operation, args: list[np.ndarray]) -> np.ndarray:
    """``kernels.evaluate``, with an index out of range (a gather's) as an ``InterpError`` at ``op``."""
    try:
        return kernels.evaluate(op, args)
    except IndexError as err:
        raise InterpError(f"'{op.name}': {err}", op) from None


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
