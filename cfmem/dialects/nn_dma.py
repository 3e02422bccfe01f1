"""DMA ops of the nn dialect: weight transfers from off-chip into on-chip buffers.

``nn.dma_buffer`` defines an on-chip byte buffer; it is an ordinary tensor for
liveness and planning, so a branch's buffers live inside the branch.
``nn.dma_start`` copies one op's weight tensors into a buffer at byte offsets
and returns a completion token; ``nn.dma_wait`` blocks on the token and
returns the on-chip copies, which alias the buffer (they are not planned on
their own: they keep the buffer live). Each transfer has its own token; that
it is waited exactly once, and the other ordering rules, are checked by
cfmem.dma.hazards after DMA insertion rather than by these verifiers.

The constructors call ``Operation.__init__`` with flat operand and result lists: the
IRDL builder's argument grouping costs more than the op itself (``nn-place`` builds
thousands), and none of these ops has segment sizes or regions to compute.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from xdsl.dialects.builtin import I64, DenseArrayBase, IntegerType, TensorType, i64
from xdsl.ir import Operation, ParametrizedAttribute, SSAValue, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    var_operand_def,
    var_result_def,
)
from xdsl.utils.exceptions import VerifyException

from cfmem.dialects.types import as_verify_error, element_bytes, static_shape, tensor_bytes


RELOAD_ATTR = "cfmem.reload"
"""On an ``nn.dma_start`` at the end of a loop body that loads again, into the same
bytes, the weights the next iteration's first op reads (loaded before the loop for
the first iteration, by a transfer with the same sources, buffer and offsets)."""

@functools.lru_cache(maxsize=4096)
def _byte_buffer_type(size: int) -> TensorType:
    """``tensor<SIZExi8>`` (attributes are immutable: one per size is shared)."""
    return TensorType(IntegerType(8), [size])


@functools.lru_cache(maxsize=4096)
def _offsets_attr(offsets: tuple[int, ...]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, list(offsets))


@irdl_attr_definition
class TokenType(ParametrizedAttribute, TypeAttribute):
    """Completion token of one ``nn.dma_start``."""

    name = "nn.token"


def _is_byte_buffer(ty) -> bool:
    return isinstance(ty, TensorType) and ty.get_element_type() == IntegerType(8) and len(ty.get_shape()) == 1


@irdl_op_definition
class DmaBufferOp(IRDLOperation):
    """An on-chip buffer of N bytes that DMA transfers write into."""

    name = "nn.dma_buffer"
    result = result_def(TensorType)
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, size: int):
        Operation.__init__(self, result_types=[_byte_buffer_type(size)])

    def verify_(self) -> None:
        if not _is_byte_buffer(self.result.type):
            raise VerifyException(f"a DMA buffer must be tensor<Nxi8>, got {self.result.type}")
        with as_verify_error():
            static_shape(self.result.type)


@irdl_op_definition
class DmaStartOp(IRDLOperation):
    """Start copying ``sources`` (off-chip weights) into ``buffer`` at ``offsets``."""

    name = "nn.dma_start"
    sources = var_operand_def(TensorType)
    buffer = operand_def(TensorType)
    offsets = prop_def(DenseArrayBase[I64])
    token = result_def(TokenType)
    assembly_format = (
        "$sources `into` $buffer `at` $offsets attr-dict `:` type($sources) `into` type($buffer)"
    )

    def __init__(self, sources: Sequence[SSAValue], buffer: SSAValue, offsets: Sequence[int]):
        Operation.__init__(
            self,
            operands=[*sources, buffer],
            result_types=[TokenType()],
            properties={"offsets": _offsets_attr(tuple(offsets))},
        )

    @property
    def byte_offsets(self) -> tuple[int, ...]:
        return tuple(int(v) for v in self.offsets.get_values())

    def byte_ranges(self) -> list[tuple[int, int]]:
        """``[start, end)`` of each source inside the buffer."""
        return [(o, o + tensor_bytes(s.type)) for o, s in zip(self.byte_offsets, self.sources)]

    def transfer_bytes(self) -> int:
        return sum(tensor_bytes(s.type) for s in self.sources)

    def verify_(self) -> None:
        if not _is_byte_buffer(self.buffer.type):
            raise VerifyException(f"the destination must be a tensor<Nxi8> buffer, got {self.buffer.type}")
        if len(self.byte_offsets) != len(self.sources):
            raise VerifyException(f"{len(self.sources)} sources need {len(self.sources)} offsets")
        with as_verify_error():
            size = static_shape(self.buffer.type)[0]
            ranges = self.byte_ranges()
        for (lo, hi), src in zip(ranges, self.sources):
            if lo < 0 or hi > size:
                raise VerifyException(f"bytes [{lo}, {hi}) do not fit the buffer of {size} bytes")
            if lo % element_bytes(src.type.get_element_type()):
                raise VerifyException(f"offset {lo} is not aligned to the element size")
        ordered = sorted(ranges)
        for (_, hi), (lo, _) in zip(ordered, ordered[1:]):
            if lo < hi:
                raise VerifyException("two sources overlap in the buffer")


@irdl_op_definition
class DmaWaitOp(IRDLOperation):
    """Wait for a transfer; its results are the on-chip copies of its sources."""

    name = "nn.dma_wait"
    token = operand_def(TokenType)
    values = var_result_def(TensorType)
    assembly_format = "$token attr-dict `:` type($values)"

    def __init__(self, start: DmaStartOp):
        Operation.__init__(self, operands=[start.token], result_types=[s.type for s in start.sources])

    @property
    def start(self) -> DmaStartOp | None:
        owner = self.token.owner
        return owner if isinstance(owner, DmaStartOp) else None

    def verify_(self) -> None:
        start = self.start
        if start is None:
            raise VerifyException("the token must come from an nn.dma_start")
        if tuple(self.values.types) != tuple(start.sources.types):
            raise VerifyException("results must have the types of the transfer's sources")


DMA_OPS: tuple[type[IRDLOperation], ...] = (DmaBufferOp, DmaStartOp, DmaWaitOp)
DMA_ATTRS = (TokenType,)
