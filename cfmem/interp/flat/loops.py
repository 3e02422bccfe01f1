"""The steps of ``scf.for`` and ``scf.while`` in the flat interpreter.

A loop runs iteration by iteration on the same memories, so every iteration's reads are
checked, not only the first; ``scf.for`` needs a positive step and no iter_args, and
``scf.while`` carries index values. The trips of an ``nn.loop`` (``cfmem.loop``) are recorded
in the run, and every iteration counts against the run's iteration limit.
"""

from __future__ import annotations

from xdsl.dialects import scf

from cfmem.dialects.flat_form import LOOP_ATTR
from cfmem.interp.flat.machine import Step, Values
from cfmem.interp.golden import InterpError


class LoopSteps:
    """Compiles loops, for :class:`~cfmem.interp.flat.compiler._Compiler` (whose ``interp``,
    ``slot`` and ``block`` these use)."""

    def for_loop(self, op: scf.ForOp) -> Step:
        interp = self.interp
        lower, upper, step_slot = self.slot(op.lb), self.slot(op.ub), self.slot(op.step)
        induction = self.slot(op.body.block.args[0])
        body = self.block(op.body.block)
        label = op.attributes[LOOP_ATTR].data if LOOP_ATTR in op.attributes else None
        refused = bool(op.iter_args)

        def run_for(values: Values) -> None:
            step = values[step_slot]
            if refused or step <= 0:
                raise InterpError("the flat interpreter runs scf.for loops with a positive step and no iter_args", op)
            trips = 0
            for trip in range(values[lower], values[upper], step):
                interp.iterations.step(label, op)
                values[induction] = trip
                interp.run_steps(body, values)
                trips += 1
            if label is not None:
                interp.loops.append((label, trips))

        return run_for

    def while_loop(self, op: scf.WhileOp, ins: list[int], outs: list[int]) -> Step:
        """``scf.while`` with index arguments: the before region's ``scf.condition``
        decides and forwards, the after region's ``scf.yield`` feeds the next test."""
        interp = self.interp
        before_block, after_block = op.before_region.block, op.after_region.block
        before, after = self.block(before_block), self.block(after_block)
        before_args = [self.slot(a) for a in before_block.args]
        after_args = [self.slot(a) for a in after_block.args]
        test = before_block.last_op
        label = op.attributes[LOOP_ATTR].data if LOOP_ATTR in op.attributes else None
        if isinstance(test, scf.ConditionOp):
            condition, forwards = self.slot(test.condition), [self.slot(v) for v in test.args]
        yields = [self.slot(v) for v in after_block.last_op.operands] if after_block.last_op is not None else []

        def run_while(values: Values) -> None:
            carried = [values[k] for k in ins]
            trips = 0
            while True:
                for k, value in zip(before_args, carried):
                    values[k] = value
                interp.run_steps(before, values)
                if not isinstance(test, scf.ConditionOp):
                    raise InterpError("the before region of scf.while must end in scf.condition", op)
                forwarded = [values[k] for k in forwards]
                if not values[condition]:
                    break
                interp.iterations.step(label, op)
                for k, value in zip(after_args, forwarded):
                    values[k] = value
                interp.run_steps(after, values)
                carried = [values[k] for k in yields]
                trips += 1
            for k, value in zip(outs, forwarded):
                values[k] = value
            if label is not None:
                interp.loops.append((label, trips))

        return run_while
