"""Where buffer addresses flow in a bufferized function (for ``memref-plan-arena``).

Planned buffers may share bytes, so a value computed from an address
(``memref.extract_aligned_pointer_as_index``) may differ after planning. Upstream's
buffer-deallocation-pipeline takes addresses only to decide which buffers to free, and the
rewrite erases every free of a planned buffer: an address that decides nothing but such
frees cannot change what the program computes. This module checks that it decides nothing
else, following it through values, memory and calls.

A value is *tainted* when it may depend on an address that planning moves: the pointer of
a buffer that may be one of the function's allocations (others stay where they are); a
comparison, boolean op or select of a tainted value; what scf control flow passes a tainted
value to; a load from a tainted buffer; a result of an ``scf.if`` whose condition is tainted
(a *guarded* if). A
buffer (the memory a memref value may point into, through views and scf) is tainted when a
tainted value is stored into it, when a guarded if stores into it, or when it is passed to a
call that receives anything tainted. Such a call is seen through when its callee is defined
in the module and only loads, stores and measures (``memref.dim``) its own arguments with
arith and scf, returning nothing: it keeps no pointer, its effects stay in the buffers passed
to it, which all become tainted, and its own body is checked with every argument tainted.

Refused, with one line naming the op: a tainted value used by anything else (an index, a loop
bound, an ``scf.while`` condition, a linalg op, a call it is not seen through, ...); a tainted
buffer used by anything but loads, stores, dims, views, frees, pointers, scf and calls seen
through (a copy, a linalg op, a return); taint reaching memory the function did not allocate
(an argument, a global); a guarded if that does more than free planned buffers, load, store
and combine flags.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.ir import Operation, SSAValue
from xdsl.traits import SymbolTable

from cfmem.passes.failures import OpFailure
from cfmem.passes.liveness import op_position
from cfmem.passes.memref_flow import ALLOCATIONS, FREE, POINTER, VIEWS, describe, flows_into, is_memref, points_into

COMBINE = ("arith.cmpi", "arith.andi", "arith.ori", "arith.xori", "arith.select")
SCALAR_ACCESSES = ("memref.load", "memref.store", "memref.dim")
"""Ops that read or write one element of a buffer, or measure it."""
BUFFER_USES = (*SCALAR_ACCESSES, FREE, POINTER, *VIEWS)
GUARDED = (*SCALAR_ACCESSES, FREE, "arith.constant", "scf.if", "scf.for", "scf.yield", *COMBINE)
"""What a guarded if may hold."""
CALLEE = (*SCALAR_ACCESSES, "memref.cast", "func.return", "scf.if", "scf.for", "scf.while", "scf.yield", "scf.condition")
"""What the body of a callee seen through may hold, besides arith ops."""
WHY = "planned buffers may share addresses: what depends on one may only decide which buffers to free"


def calls_seen_through(fn: func.FuncOp) -> set[Operation]:
    """Check where addresses flow in ``fn`` (see the module docstring); the ``func.call``s
    it sees through. Raises ``PassFailedException`` on what is refused."""
    if not any(op.name == POINTER for op in fn.body.walk()):
        return set()
    return _Taint(fn, callee=False).run()


class _Taint:
    def __init__(self, fn: func.FuncOp, callee: bool):
        self.fn = fn
        self.callee = callee
        """Whether ``fn`` is a callee seen through (its arguments are the memory it may taint)."""
        self.ops = list(fn.body.walk())
        self.origins = self.memory()
        self.values: set[SSAValue] = set()
        self.buffers: set[SSAValue] = set()
        """The tainted origins."""
        self.guarded: set[Operation] = set()
        self.calls: set[Operation] = set()

    def memory(self) -> dict[SSAValue, set[SSAValue]]:
        """Each memref value -> what made the memory it may point into: an allocation, an
        argument, or any other op's memref result that is no view's or scf op's."""
        origins = {a: {a} for a in self.fn.body.block.args if is_memref(a)}
        for op in self.ops:
            if op.name not in VIEWS and not op.name.startswith("scf."):
                origins.update({r: {r} for r in op.results if is_memref(r)})
        return points_into(self.ops, origins)

    def run(self) -> set[Operation]:
        if self.callee:
            self.values.update(a for a in self.fn.body.block.args if not is_memref(a))
            self.buffers.update(a for a in self.fn.body.block.args if is_memref(a))
        grew = True
        while grew:
            grew = False
            for op in self.ops:
                grew = self.spread(op) or grew
        for value in self.values:
            for use in value.uses:
                self.check_value_use(use.operation, use.index, value)
        for value, origins in self.origins.items():
            if origins & self.buffers:
                for use in value.uses:
                    self.check_buffer_use(use.operation, use.index, value)
        for op in self.guarded:
            self.check_guarded(op)
        return self.calls

    def spread(self, op: Operation) -> bool:
        """Taint what ``op`` makes of tainted operands; whether anything new is tainted."""
        before = len(self.values), len(self.buffers), len(self.guarded)
        made: list[SSAValue] = []
        if op.name == POINTER and any(_allocated(o) for o in self.origins.get(op.operands[0], ())):
            made += op.results
        elif op.name in COMBINE and any(v in self.values for v in op.operands):
            made += op.results
        elif op.name == "memref.load" and self.holds_taint(op.operands[0]):
            made += op.results
        elif op.name == "memref.store" and (op.operands[0] in self.values or self.is_guarded(op)):
            self.taint(op, op.operands[1])
        elif op.name == "func.call" and any(v in self.values or self.holds_taint(v) for v in op.operands):
            if op not in self.calls:
                self.see_through(op)
                self.calls.add(op)
            for value in op.operands:
                if is_memref(value):
                    self.taint(op, value)
        elif op.name == "scf.if" and op.operands[0] in self.values:
            self.guarded.add(op)
            made += op.results
        for index, value in enumerate(op.operands):
            if value in self.values:
                made += flows_into(op, index)
        self.values.update(made)
        return (len(self.values), len(self.buffers), len(self.guarded)) != before

    def holds_taint(self, value: SSAValue) -> bool:
        return bool(self.origins.get(value, set()) & self.buffers)

    def is_guarded(self, op: Operation) -> bool:
        holder = op.parent_op()
        while holder is not None and holder is not self.fn:
            if holder in self.guarded:
                return True
            holder = holder.parent_op()
        return False

    def taint(self, op: Operation, buffer: SSAValue) -> None:
        """Taint the memory ``buffer`` may point into, which ``op`` writes or passes on."""
        for origin in self.origins.get(buffer) or {buffer}:
            if origin in self.buffers:
                continue
            if not (origin in self.fn.body.block.args if self.callee else _allocated(origin)):
                raise OpFailure(op,
                    f"'{op.name}' {op_position(op)} puts values that depend on buffer addresses into"
                    f" {describe(buffer)}, which may be memory the function did not allocate ({WHY})"
                )
            self.buffers.add(origin)

    def see_through(self, call: Operation) -> None:
        """Refuse a call whose callee may keep or spread what it receives (a callee seen
        through holds no call, so this is the planned function's)."""
        name = call.callee.string_value()
        where = f"'func.call' {op_position(call)} passes values that depend on buffer addresses to @{name}"
        callee = SymbolTable.lookup_symbol(call, call.callee)
        if not isinstance(callee, func.FuncOp) or not callee.body.blocks:
            raise OpFailure(call,
                f"{where}, which is not defined in the module (its body must show it keeps no pointer)"
            )
        for inner in callee.body.walk():
            if not (inner.name.startswith("arith.") or inner.name in CALLEE) or (
                inner.name == "func.return" and inner.operands
            ):
                raise OpFailure(inner,
                    f"{where}, whose '{inner.name}' {op_position(inner)} may keep or spread them"
                    " (a callee may only load, store and measure its own arguments with arith and scf)"
                )
        _Taint(callee, callee=True).run()

    def check_value_use(self, user: Operation, index: int, value: SSAValue) -> None:
        if user.name in COMBINE or flows_into(user, index) or user in self.calls:
            return
        if (user.name, index) in (("scf.if", 0), ("memref.store", 0)):  # checked as guarded, spread as taint
            return
        raise OpFailure(user,
            f"'{user.name}' {op_position(user)} uses {describe(value)}, which depends on buffer addresses ({WHY})"
        )

    def check_buffer_use(self, user: Operation, index: int, value: SSAValue) -> None:
        if user.name in BUFFER_USES or flows_into(user, index) or user in self.calls:
            return
        raise OpFailure(user,
            f"'{user.name}' {op_position(user)} uses {describe(value)}, which holds values that depend on buffer"
            f" addresses ({WHY})"
        )

    def check_guarded(self, if_op: Operation) -> None:
        for inner in if_op.walk():
            if inner is if_op:
                continue
            kept_free = inner.name == FREE and not any(_allocated(o) for o in self.origins.get(inner.operands[0], ()))
            if inner.name not in GUARDED or kept_free:
                raise OpFailure(if_op,
                    f"'scf.if' {op_position(if_op)} decides on buffer addresses but does more than free planned"
                    f" buffers: it holds '{inner.name}' {op_position(inner)} ({WHY})"
                )


def _allocated(origin: SSAValue) -> bool:
    return isinstance(origin.owner, Operation) and origin.owner.name in ALLOCATIONS

