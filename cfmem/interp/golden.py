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


def find_function(module: ModuleOp, func_name: str | None = None) -> func.FuncOp:
    """The function ``func_name``, or the module's only (or ``main``) function."""
    funcs = [op for op in module.ops if isinstance(op, func.FuncOp)]
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
    """Inputs from ``seed``: standard-normal floats, uniform bits for i1 and
    uniform integers in [-100, 100) for wider integers."""
    rng = np.random.default_rng(seed)
    inputs: dict[str, np.ndarray] = {}
    for name, arg in zip(argument_names(fn), input_args(fn)):
        ty = arg.type
        assert isinstance(ty, TensorType | MemRefType)
        dtype = numpy_dtype(ty.get_element_type())
        shape = tuple(ty.get_shape())
        if dtype == np.bool_:
            inputs[name] = rng.integers(0, 2, shape).astype(np.bool_)
        elif np.issubdtype(dtype, np.integer):
            inputs[name] = rng.integers(-100, 100, shape).astype(dtype)
        else:
            inputs[name] = rng.standard_normal(shape).astype(dtype)
    return inputs


def check_inputs(fn: func.FuncOp, inputs: dict[str, np.ndarray]) -> list[np.ndarray]:
    """The arguments of ``fn`` from ``inputs``, checked for name and shape, in
    the argument's dtype; an integer or i1 argument takes only values that
    convert exactly (a float array of whole numbers is fine, 0.5 is not)."""
    args: list[np.ndarray] = []
    for name, arg in zip(argument_names(fn), input_args(fn)):
        if name not in inputs:
            raise InterpError(f"missing input '{name}' (inputs given: {', '.join(sorted(inputs)) or 'none'})")
        ty = arg.type
        assert isinstance(ty, TensorType | MemRefType)
        value = np.asarray(inputs[name])
        want = tuple(ty.get_shape())
        if value.shape != want:
            raise InterpError(f"input '{name}' has shape {value.shape}, expected {want}")
        dtype = numpy_dtype(ty.get_element_type())
        converted = value.astype(dtype, copy=False)
        if dtype.kind in "biu" and not np.array_equal(converted, value):
            raise InterpError(f"input '{name}' has values that are not exact {dtype} values")
        args.append(converted)
    extra = set(inputs) - set(argument_names(fn))
    if extra:
        raise InterpError(f"unknown input(s) {', '.join(sorted(extra))}")
    return args


class GoldenInterpreter:
    """Runs one function of a tensor-level module on numpy arrays."""

    def __init__(self, module: ModuleOp, base_dir: Path | None = None):
        self.module = module
        self.base_dir = base_dir
        self.globals = {op.sym_name.data: op for op in module.ops if isinstance(op, nw.GlobalOp)}
        self.if_labels = {op: f"if#{k}" for k, op in enumerate(o for o in module.walk() if isinstance(o, ncf.IfOp))}
        self._blobs: dict[str, np.ndarray] = {}
        self.branches: list[tuple[str, bool]] = []

    def blob(self, name: str) -> np.ndarray:
        if name not in self._blobs:
            self._blobs[name] = blob_bytes(self.globals[name], self.base_dir)
        return self._blobs[name]

    def run(self, fn: func.FuncOp, inputs: dict[str, np.ndarray]) -> RunResult:
        self.branches = []
        env: dict[SSAValue, np.ndarray] = dict(zip(fn.body.block.args, check_inputs(fn, inputs)))
        outputs = self.run_block(fn.body.block, env)
        return RunResult(dict(zip(result_names(fn), outputs)), list(self.branches))

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
            return [kernels.evaluate(op, args)]
        raise InterpError(f"cannot interpret '{op.name}'", op)


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
