"""IF and WHILE, whose subgraphs become the regions of ``nn.if`` and ``nn.loop``.

IF: a constant condition picks the subgraph, whose operators run in place; any other
condition (a one-element bool tensor) becomes ``nn.if``, each branch its subgraph run on the
IF's other inputs (values of the enclosing block, which the branch reads where they are; a
constant input, such as a weight, becomes a weight viewed inside the branch that reads it).
Both branches yield their outputs in TFLite's axis order, of equal types.

WHILE: ``nn.loop`` with no trip limit (INT64_MAX) whose condition before the first iteration
is the condition subgraph run on the initial values; the body runs the body subgraph on the
carried values, then the condition subgraph on its results, and yields that condition and
those results. Carried values keep their type and shape (TFLite's WHILE may change shapes;
cfmem refuses that) and are held in TFLite's axis order.
"""

from __future__ import annotations

import numpy as np
from xdsl.ir import SSAValue

from cfmem.builder import GraphBuilder
from cfmem.importers.imported import moves_argument
from cfmem.importers.tflite.core import Importer, Operator, TfliteImportError, Value, text
from cfmem.importers.tflite.helpers import out_name
from cfmem.importers.tflite.layout import Tensor

INT64_MAX = np.iinfo(np.int64).max


def condition_value(imp: Importer, value: Value, what: str) -> SSAValue | bool:
    """A condition as a rank-0 bool SSA value, or the bool it is when it is a constant."""
    if isinstance(value, np.ndarray):
        if value.size != 1:
            raise TfliteImportError(f"{what} has {value.size} elements, not 1")
        return bool(value.reshape(-1)[0])
    shape = imp.logical_shape(value)
    if imp.dtype(value) != np.bool_ or int(np.prod(shape)) != 1:
        raise TfliteImportError(f"{what} must be a one-element bool tensor, got {imp.dtype(value)} of shape {list(shape)}")
    held = imp.held(value, None, "cond")
    return held if not shape else imp.b.reshape(held, (), imp.name("cond"))


def subgraph_name(imp: Importer, index: int) -> str:
    return text(imp.model.subgraphs[index].name) if 0 <= index < len(imp.model.subgraphs) else str(index)


def translate_if(imp: Importer, op: Operator, inputs: list[Value]) -> list[Value]:
    then_index, else_index = op.option("thenSubgraphIndex", -1), op.option("elseSubgraphIndex", -1)
    cond = condition_value(imp, inputs[0], "IF condition")
    args = inputs[1:]
    if isinstance(cond, bool):
        return imp.run_subgraph(then_index if cond else else_index, args)
    imp.kept_ifs += 1

    def branch(index: int):
        def build(_: GraphBuilder) -> list[SSAValue]:
            values = imp.run_subgraph(index, args)
            if len(values) != len(op.outputs):
                raise TfliteImportError(f"subgraph {index} has {len(values)} outputs, the IF {len(op.outputs)}")
            return [imp.runtime(v, f"{subgraph_name(imp, index)}_out{k}") for k, v in enumerate(values)]

        return build

    names = [out_name(imp, op, k) for k in range(len(op.outputs))]
    return [Tensor(v) for v in imp.b.if_(cond, branch(then_index), branch(else_index), names=names)]


def translate_while(imp: Importer, op: Operator, inputs: list[Value]) -> list[Value]:
    cond_index, body_index = op.option("condSubgraphIndex", -1), op.option("bodySubgraphIndex", -1)
    hint = op.output_name()
    inits = [imp.runtime(v, f"{hint}_init{k}") for k, v in enumerate(inputs)]

    def condition(values: list[SSAValue]) -> SSAValue:
        (result,) = imp.run_subgraph(cond_index, [Tensor(v) for v in values])[:1] or [None]
        if result is None:
            raise TfliteImportError(f"condition subgraph {cond_index} has no output")
        cond = condition_value(imp, result, "WHILE condition")
        return imp.b.constant(np.array(cond), imp.name(f"{hint}_go")) if isinstance(cond, bool) else cond

    first = condition(inits)

    def body(b: GraphBuilder, iteration: SSAValue, go: SSAValue, *carried: SSAValue) -> list[SSAValue]:
        values = imp.run_subgraph(body_index, [Tensor(v) for v in carried])
        if len(values) != len(carried):
            raise TfliteImportError(f"body subgraph {body_index} has {len(values)} outputs for {len(carried)} loop values")
        results = []
        for k, (value, arg) in enumerate(zip(values, carried)):
            result = imp.runtime(value, f"{hint}_next{k}")
            if result.type != arg.type:
                raise TfliteImportError(f"loop value #{k} is {arg.type} but the body gives {result.type}; cfmem's loops keep types and shapes")
            results.append(result)
        next_go = condition(results)
        if moves_argument(next_go, go):
            next_go = b.cast(next_go, np.bool_, imp.name(f"{hint}_go_copy"))
        copies = [b.cast(v, b._dtype(v), imp.name(f"{hint}_copy{k}")) if moves_argument(v, arg) else v
                  for k, (v, arg) in enumerate(zip(results, carried))]  # fmt: skip
        return [next_go, *copies]

    imp.loops += 1
    names = [out_name(imp, op, k) for k in range(len(op.outputs))]
    return [Tensor(v) for v in imp.b.loop(INT64_MAX, inits, body, cond=first, names=names)]
