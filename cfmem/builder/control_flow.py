"""Control flow for :class:`cfmem.builder.GraphBuilder`: ``nn.if`` and ``nn.loop``, whose
branches and bodies are built by callables with the same builder; a failed branch leaves
no trace (no uses of outer values, no weights)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import prod

import numpy as np
from xdsl.dialects.builtin import TensorType, i1, i64
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.rewriter import InsertPoint
from xdsl.utils.exceptions import VerifyException

from cfmem.builder.core import GraphBuildError, GraphBuilderCore
from cfmem.dialects.nn_control import IfOp, LoopOp, YieldOp

BranchFn = Callable[["GraphBuilder"], "Sequence[SSAValue] | SSAValue | None"]


class ControlFlow(GraphBuilderCore):
    """``nn.if`` and ``nn.loop``."""

    def if_(
        self,
        cond: SSAValue,
        then_fn: BranchFn,
        else_fn: BranchFn,
        *,
        names: Sequence[str] | None = None,
        name: str | None = None,
    ) -> list[SSAValue]:
        """``nn.if``: each callable builds its branch with this builder and
        returns the values to yield (a list, one value, or None for none).

        Both branches must yield the same types. Returns the if's results,
        named ``names`` or ``<name>`` / ``<name>r<i>``.
        """
        self._check_open()
        self._check_visible(cond, "if condition")
        ct = cond.type
        if not (
            isinstance(ct, TensorType) and ct.get_element_type() == i1 and prod(ct.get_shape()) == 1
        ):
            raise GraphBuildError(
                f"if condition must be a one-element i1 tensor (from cmp), got {ct}"
            )
        base = self._name(name, "if")
        n_weights, blob_end = len(self.weights), self._blob_end
        blocks: list[Block] = []
        try:
            then_vals = self._branch(then_fn, f"then branch of %{base}", blocks)
            else_vals = self._branch(else_fn, f"else branch of %{base}", blocks)
            then_types = [v.type for v in then_vals]
            else_types = [v.type for v in else_vals]
            if then_types != else_types:
                fmt = lambda ts: "(" + ", ".join(map(str, ts)) + ")"  # noqa: E731
                raise GraphBuildError(
                    f"nn.if %{base}: the then branch yields {fmt(then_types)}"
                    f" but the else branch yields {fmt(else_types)}"
                )
            if names is not None and len(names) != len(then_vals):
                raise GraphBuildError(
                    f"nn.if %{base}: {len(names)} names for {len(then_vals)} results"
                )
        except BaseException:
            # Leave no trace of the failed if: no uses of outer values, no weights.
            for block in blocks:
                for op in reversed(list(block.ops)):
                    block.erase_op(op, safe_erase=False)
            del self.weights[n_weights:]
            self._blob_end = blob_end
            raise
        op = IfOp(cond, then_types, Region(blocks[0]), Region(blocks[1]))
        self._builder.insert(op)
        for i, result in enumerate(op.results):
            if names is not None:
                result.name_hint = self._unique(names[i])
            else:
                result.name_hint = base if len(op.results) == 1 else self._unique(f"{base}r{i}")
        return list(op.results)

    def loop(
        self,
        trip_count: SSAValue | int,
        inits: Sequence[SSAValue],
        body_fn: Callable[..., Sequence[SSAValue]],
        *,
        cond: SSAValue | None = None,
        scan_length: int | None = None,
        names: Sequence[str] | None = None,
        name: str | None = None,
    ) -> list[SSAValue]:
        """``nn.loop``: ``body_fn(b, i, c, *carried)`` builds one iteration with this
        builder and returns ``[next condition, *next carried values, *scan elements]``.

        ``trip_count`` is a one-element i64 tensor or an int (a constant);
        ``cond`` the condition before the first iteration (default: a constant
        true, so with a constant-true next condition the loop is counted).
        Scan elements are stacked into results of leading length ``scan_length``.
        Returns the final carried values, then the scan outputs.
        """
        self._check_open()
        base = self._name(name, "loop")
        if isinstance(trip_count, int):
            trip_count = self.constant(np.array(trip_count), name=f"{base}_trips", dtype=np.int64)
        if cond is None:
            cond = self.constant(np.array(True), name=f"{base}_go")
        for v in (trip_count, cond, *inits):
            self._check_visible(v, f"operand of %{base}")
        arg_types = [TensorType(i64, []), TensorType(i1, []), *(v.type for v in inits)]
        n_weights, blob_end = len(self.weights), self._blob_end
        blocks: list[Block] = []
        op: LoopOp | None = None
        try:
            values = self._branch(
                lambda b: body_fn(b, *blocks[0].args), f"body of %{base}", blocks, arg_types
            )
            scans = values[1 + len(inits) :]
            if scans and scan_length is None:
                raise GraphBuildError(f"nn.loop %{base}: scan elements need a scan_length")
            result_types = [v.type for v in inits] + [
                TensorType(v.type.get_element_type(), [scan_length, *v.type.get_shape()]) for v in scans
            ]
            op = LoopOp(trip_count, cond, inits, result_types, Region(blocks[0]))
            op.verify_()  # its own rules; the blob is sized when the module is built
        except BaseException as err:
            for block in blocks:
                for inner in reversed(list(block.ops)):
                    block.erase_op(inner, safe_erase=False)
            if op is not None:  # no uses of the operands either
                op.drop_all_references()
            del self.weights[n_weights:]
            self._blob_end = blob_end
            if isinstance(err, VerifyException):
                raise GraphBuildError(f"nn.loop %{base}: {err}") from None
            raise
        self._builder.insert(op)
        for i, result in enumerate(op.results):
            result.name_hint = self._unique(names[i]) if names is not None else (
                base if len(op.results) == 1 else self._unique(f"{base}r{i}"))
        return list(op.results)

    def _branch(
        self, fn: BranchFn, what: str, blocks: list[Block], arg_types: Sequence[Attribute] = ()
    ) -> list[SSAValue]:
        block = Block(arg_types=arg_types)
        for arg, hint in zip(block.args, ("i", "c", *(f"carried{k}" for k in range(len(arg_types))))):
            arg.name_hint = self._unique(hint)
        blocks.append(block)
        saved = self._builder.insertion_point
        self._builder.insertion_point = InsertPoint.at_end(block)
        self._scopes.append(block)
        try:
            got = fn(self)
            values = [] if got is None else [got] if isinstance(got, SSAValue) else list(got)
            for v in values:
                self._check_visible(v, f"value yielded by the {what}")
            self._builder.insert(YieldOp(*values))
        finally:
            self._scopes.pop()
            self._builder.insertion_point = saved
        return values
