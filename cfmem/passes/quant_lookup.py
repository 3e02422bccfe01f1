"""``nn-fuse-quantized-elementwise``: dequantize, elementwise float ops, quantize as one table.

Where an ``nn.quantize`` reads float values computed only by elementwise ops from one
per-tensor ``nn.dequantize`` (and constants of one element), each of the 256 values the
quantized input can hold maps to one output value. The chain becomes an ``nn.qlookup`` of
that table, computed by the ops' own kernels, so it gives the numbers the chain gave while no
f32 tensor is left between the two (HardSigmoid or Sigmoid between quantizers, a
requantization from one scale to another). The importer runs it on every model; ops with
users outside the chain, constants of more than one element or chains that change the shape
stay as they are.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from cfmem.dialects import nn_compute as nc
from cfmem.dialects import nn_quant as nq
from cfmem.dialects.types import static_shape
from cfmem.interp import kernels
from cfmem.interp.weights import dense_to_array, numpy_dtype

ELEMENTWISE = (nc.ElementwiseUnaryOp, nc.ElementwiseBinaryOp)


@dataclass
class Chain:
    """The ops from ``source`` (a dequantize) to ``sink`` (a quantize), in program order."""

    source: nq.DequantizeOp
    ops: list[Operation]
    constants: dict[SSAValue, np.ndarray]
    sink: nq.QuantizeOp


def _one_scale(op: Operation, prefix: str) -> bool:
    return len(nq.floats(op.properties[f"{prefix}_scale"])) == 1


def chain_to(sink: nq.QuantizeOp) -> Chain | None:
    """The fusable chain ending at ``sink``, or None."""
    if not _one_scale(sink, "y"):
        return None
    shape = static_shape(sink.result.type)
    source: nq.DequantizeOp | None = None
    ops: list[Operation] = []
    constants: dict[SSAValue, np.ndarray] = {}
    pending = [sink.input]
    while pending:
        value = pending.pop()
        owner = value.owner
        if isinstance(owner, nq.DequantizeOp):
            if source not in (None, owner) or not _one_scale(owner, "x") or not nq.is_quantized(owner.input.type):
                return None
            source = owner
        elif isinstance(owner, nc.ConstantOp) and np.prod(static_shape(value.type)) == 1:
            constants[value] = dense_to_array(owner.value).reshape(())
        elif isinstance(owner, ELEMENTWISE) and not isinstance(owner, nc.CmpOp) and owner not in ops:
            if static_shape(owner.results[0].type) != shape:
                return None
            ops.append(owner)
            pending.extend(owner.operands)
        elif not (isinstance(owner, ELEMENTWISE) and owner in ops):
            return None
    if source is None or static_shape(source.result.type) != shape:
        return None
    inside = set(ops) | {sink}
    if any(use.operation not in inside for op in ops for use in op.results[0].uses):
        return None
    block = sink.parent_block()
    if any(op.parent_block() is not block for op in ops):
        return None
    ops.sort(key=lambda op: block.get_operation_index(op))
    return Chain(source, ops, constants, sink)


def lookup_table(chain: Chain) -> np.ndarray:
    """The sink's value for each value the source's input can hold, in increasing order."""
    dtype = numpy_dtype(chain.source.input.type.get_element_type())
    info = np.iinfo(dtype)
    values: dict[SSAValue, np.ndarray] = dict(chain.constants)
    values[chain.source.result] = kernels.KERNELS[nq.DequantizeOp](chain.source, np.arange(info.min, info.max + 1, dtype=dtype))
    with np.errstate(all="ignore"):  # as in the interpreters: IEEE results, not errors
        for op in chain.ops:
            values[op.results[0]] = np.asarray(kernels.KERNELS[type(op)](op, *(values[v] for v in op.operands)), np.float32)
        table = kernels.KERNELS[nq.QuantizeOp](chain.sink, values[chain.sink.input])
    return np.asarray(table).reshape(-1)


def fuse(chain: Chain) -> nq.QLookupOp:
    """Replace ``chain`` by an ``nn.qlookup`` of its table; the source and constants go once unused."""
    table = lookup_table(chain)
    sink = chain.sink
    lookup = nq.QLookupOp.create(
        operands=[chain.source.input],
        result_types=[TensorType(sink.element, static_shape(sink.result.type))],
        properties={"table": nc.i64_array([int(v) for v in table]), "element": sink.element},
    )
    sink.parent_block().insert_op_before(lookup, sink)
    lookup.result.name_hint = sink.result.name_hint
    sink.result.replace_all_uses_with(lookup.result)
    for op in (sink, *reversed(chain.ops)):
        op.detach()
        op.erase()
    for op in (chain.source, *(value.owner for value in chain.constants)):
        if not op.results[0].uses:  # the dequantize and constants only the chain read
            op.detach()
            op.erase()
    return lookup


def fuse_quantized_elementwise(module: ModuleOp) -> int:
    """Fuse every fusable chain in ``module``; the number fused."""
    count = 0
    for sink in [op for op in module.walk() if isinstance(op, nq.QuantizeOp)]:
        chain = chain_to(sink)
        if chain is not None:
            fuse(chain)
            count += 1
    return count


@dataclass(frozen=True)
class FuseQuantizedElementwisePass(ModulePass):
    """Dequantize, elementwise float ops, quantize chains as ``nn.qlookup`` tables."""

    name = "nn-fuse-quantized-elementwise"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        fuse_quantized_elementwise(op)
