"""Running a function of the flat form: ``FlatInterpreter``, ``run_flat`` and ``measure_flat``.

A function whose ``cfmem.init`` names a resident-weight loader runs it first, on the same
memories, as a runtime would before the first inference. The on-chip memories (space 1) are
measured: ``onchip_bytes`` is their total size and ``onchip_touched`` one past the highest
byte any op or transfer wrote in them. A function with ``cfmem.onchip_budget`` is refused
before it runs when its on-chip memories exceed the budget.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import func, memref
from xdsl.dialects.builtin import IntegerAttr, MemRefType, ModuleOp, StringAttr
from xdsl.ir import Block

from cfmem.dialects.flat_form import BUDGET_ATTR, INIT_ATTR, ON_CHIP
from cfmem.gc_pause import cyclic_gc_paused
from cfmem.interp.flat.compiler import _Compiler
from cfmem.interp.flat.machine import FlatMachine, Step, Values
from cfmem.interp.flat.memory import CapacityError, Ref, Transfer, _shape_dtype
from cfmem.interp.footprint import type_bytes
from cfmem.interp.golden import (
    MAX_ITERATIONS,
    InputSpec,
    InterpError,
    IterationLimit,
    RunResult,
    check_inputs,
    find_function,
    input_spec,
)
from cfmem.signature import input_args, result_names


class FlatInterpreter(FlatMachine):
    """Runs one function of a lowered module; ``check`` enables clobber detection.

    Each function is compiled once, on its first run, into steps with its ops'
    attributes, kernels and views resolved; the memories of the globals are kept
    between runs and put back to their initial bytes when a run first uses them. An
    interpreter assumes its module does not change between runs (make a new one for
    a changed module)."""

    max_iterations = MAX_ITERATIONS
    """The most loop iterations one run executes (see :class:`IterationLimit`)."""

    def __init__(self, module: ModuleOp, check: bool = True):
        super().__init__(module, check)
        self.functions = {op.sym_name.data: op for op in module.ops if isinstance(op, func.FuncOp)}
        self._blocks: dict[Block, list[Step]] = {}
        self._onchip_sizes: dict[func.FuncOp, dict[str, int]] = {}
        self._input_specs: dict[func.FuncOp, InputSpec] = {}
        self._result_names: dict[func.FuncOp, list[str]] = {}
        self.output_refs: list[Ref] = []
        """The output buffers of the last run, in result order."""

    def onchip_globals(self, fn: func.FuncOp) -> list[memref.GlobalOp]:
        """The on-chip memories ``fn`` (and its loader) use."""
        used = {op.name_.string_value() for f in (fn, self.init_of(fn)) if f is not None
                for op in f.walk() if isinstance(op, memref.GetGlobalOp)}
        return [g for name, g in self.global_ops.items()
                if name in used and isinstance(g.type, MemRefType) and g.type.memory_space == ON_CHIP]

    def init_of(self, fn: func.FuncOp) -> func.FuncOp | None:
        attr = fn.attributes.get(INIT_ATTR)
        if not isinstance(attr, StringAttr):
            return None
        init = self.functions.get(attr.data)
        if init is None:
            raise InterpError(f"@{fn.sym_name.data} names loader @{attr.data}, which the module does not have")
        return init

    def check_capacity(self, fn: func.FuncOp) -> None:
        budget = fn.attributes.get(BUDGET_ATTR)
        if not isinstance(budget, IntegerAttr):
            return
        if fn not in self._onchip_sizes:
            self._onchip_sizes[fn] = {g.sym_name.data: type_bytes(g.type) for g in self.onchip_globals(fn)}
        sizes = self._onchip_sizes[fn]
        if sum(sizes.values()) > budget.value.data:
            raise CapacityError(
                f"@{fn.sym_name.data} needs {sum(sizes.values())} bytes of on-chip memory"
                f" ({', '.join(f'@{k} {v}' for k, v in sizes.items())}) but its budget is {budget.value.data}"
            )

    @property
    def onchip_bytes(self) -> int:
        """Total size of the on-chip memories the last run used."""
        return sum(m.data.size for m in self.memories.values() if m.on_chip)

    @property
    def onchip_touched(self) -> int:
        """Highest on-chip byte written in the last run, plus one (summed over on-chip memories)."""
        return sum(m.touched for m in self.memories.values() if m.on_chip)

    def run(self, fn: func.FuncOp, inputs: dict[str, np.ndarray]) -> RunResult:
        with cyclic_gc_paused():  # a run only allocates (memories; steps and kernels on first use)
            return self._run(fn, inputs)

    def _run(self, fn: func.FuncOp, inputs: dict[str, np.ndarray]) -> RunResult:
        self.memories = {}
        self.in_flight: dict[tuple[int, int], Transfer] = {}
        self.branches: list[tuple[str, bool]] = []
        self.loops: list[tuple[str, int]] = []
        self.iterations = IterationLimit(self.max_iterations)
        self.check_capacity(fn)
        init = self.init_of(fn)
        if fn not in self._input_specs:
            self._input_specs[fn], self._result_names[fn] = input_spec(fn), result_names(fn)
        arguments = check_inputs(self._input_specs[fn], inputs)
        loader = None if init is None else self.compiled(init.body.block)
        body = self.compiled(fn.body.block)
        with np.errstate(all="ignore"):  # NaN and inf are IEEE results here, not errors
            if loader is not None:
                self.run_steps(loader, self.fresh_values())
                if self.in_flight:
                    raise InterpError(f"loader @{init.sym_name.data} leaves a DMA transfer outstanding", init)
            values: Values = self.fresh_values()
            args = list(fn.body.block.args)
            n_in = len(input_args(fn))
            for arg, value in zip(args[:n_in], arguments):
                values[self.slots[id(arg)]] = self.own_memory(arg.name_hint or "input", value)
            outputs: list[Ref] = []
            for arg in args[n_in:]:
                shape, dtype = _shape_dtype(arg.type)
                ref = self.own_memory(arg.name_hint or "output", np.zeros(shape, dtype))
                values[self.slots[id(arg)]] = ref
                outputs.append(ref)
            self.run_steps(body, values)
        self.output_refs = outputs
        results = {name: ref.array().copy() for name, ref in zip(self._result_names[fn], outputs)}
        return RunResult(results, list(self.branches), list(self.loops))

    def compiled(self, block: Block) -> list[Step]:
        """The steps of ``block`` and of the blocks it holds (compiled on first use, with
        a slot for each of their values)."""
        if block not in self._blocks:
            self._blocks[block] = _Compiler(self).block(block)
        return self._blocks[block]


def run_flat(module: ModuleOp, inputs: dict[str, np.ndarray], *, func_name: str | None = None,
             check: bool = True) -> RunResult:
    """Run a lowered function (default: the only or ``main`` one) on ``inputs``."""
    fn = find_function(module, func_name)
    return FlatInterpreter(module, check).run(fn, inputs)


def measure_flat(module: ModuleOp, inputs: dict[str, np.ndarray], *, func_name: str | None = None
                 ) -> tuple[RunResult, int, int]:
    """A checking run of a lowered function, with its on-chip bytes: the total size of
    its on-chip memories and one past the highest on-chip byte written."""
    fn = find_function(module, func_name)
    interp = FlatInterpreter(module)  # checking is the default
    result = interp.run(fn, inputs)
    return result, interp.onchip_bytes, interp.onchip_touched
