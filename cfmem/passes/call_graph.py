"""The direct calls between a module's functions, callees first (for ``memref-plan-arena``).

Only ``func.call`` is followed. A function whose symbol is taken as a value
(``func.constant``) may be called through ``func.call_indirect`` from any
function that makes such calls, so those are edges too. A call to a function the
module only declares is no edge: it is assumed not to call back into the module.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, SymbolRefAttr
from xdsl.ir import Attribute, Operation
from xdsl.traits import SymbolTable

from cfmem.passes.failures import OpFailure
from cfmem.passes.liveness import op_position


CallEdges = dict[func.FuncOp, list[tuple[func.FuncOp, func.CallOp | None]]]
"""Each defined function -> the defined functions it may call, with the call (see ``callees``)."""


def callees(module: ModuleOp) -> CallEdges:
    """Each defined function -> the defined functions it may call, with the call (None: indirect)."""
    defined = [fn for fn in module.walk() if isinstance(fn, func.FuncOp) and fn.body.blocks]
    taken = [_defined(op, op.properties["value"]) for op in module.walk() if op.name == "func.constant"]
    edges: CallEdges = {}
    for fn in defined:
        out = edges.setdefault(fn, [])
        for op in fn.walk():
            if isinstance(op, func.CallOp) and (callee := _defined(op, op.callee)) is not None:
                out.append((callee, op))
            elif op.name == "func.call_indirect":
                out += [(target, None) for target in taken if target is not None]
    return edges


def _defined(op: Operation, symbol: Attribute) -> func.FuncOp | None:
    """The function with a body that ``symbol``, seen from ``op``, names (None: declared only)."""
    target = SymbolTable.lookup_symbol(op, symbol) if isinstance(symbol, SymbolRefAttr) else None
    return target if isinstance(target, func.FuncOp) and target.body.blocks else None


def reaching(edges: CallEdges, targets: set[func.FuncOp]) -> set[func.FuncOp]:
    """The defined functions that are in ``targets`` or may call one of them, directly or not."""
    reached = set(targets)
    grew = True
    while grew:
        grew = False
        for fn, out in edges.items():
            if fn not in reached and any(target in reached for target, _ in out):
                reached.add(fn)
                grew = True
    return reached


def callee_first(edges: CallEdges, planned: set[func.FuncOp], why: str) -> list[func.FuncOp]:
    """The functions of ``edges``, each after every function it may call.

    Raises ``PassFailedException`` when a function of ``planned`` may call itself
    (directly or through others): ``why`` says why that cannot be planned."""
    order: list[func.FuncOp] = []
    state: dict[func.FuncOp, str] = {}
    path: list[tuple[func.FuncOp, func.CallOp | None]] = []

    def visit(fn: func.FuncOp) -> None:
        state[fn] = "open"
        for target, call in edges[fn]:
            if state.get(target) == "open":
                callers = [f for f, _ in path] + [fn]
                cycle = callers[callers.index(target) :]
                if any(f in planned for f in cycle):
                    where = f"'func.call' {op_position(call)}" if call is not None else f"'func.call_indirect' in @{fn.sym_name.data}"
                    through = " -> ".join(f"@{f.sym_name.data}" for f in [*cycle, target])
                    raise OpFailure(call or fn, f"{where}: the call is recursive ({through}); {why}")
            elif target not in state:
                path.append((fn, call))
                visit(target)
                path.pop()
        state[fn] = "done"
        order.append(fn)

    for fn in edges:
        if fn not in state:
            visit(fn)
    return order
