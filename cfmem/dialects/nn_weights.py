"""Weight ops of the nn dialect: off-chip blobs, typed views into them, reshape.

A model's weights live in one or more ``nn.global`` blobs in off-chip memory.
Compute ops never read a blob directly: ``nn.get_global`` names the blob as a
``tensor<Nxi8>`` and ``nn.view`` slices a typed tensor out of it at a byte
offset. Views and constants are read-only and never take on-chip arena space.
"""

from __future__ import annotations

import functools
from math import prod

from xdsl.dialects.builtin import (
    I64,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure, SymbolOpInterface, SymbolTable
from xdsl.utils.exceptions import VerifyException

from cfmem.dialects.assembly import Int64
from cfmem.dialects.types import as_verify_error, element_bytes, static_shape, tensor_bytes


def blob_type(size: int) -> TensorType:
    """The type under which ``nn.get_global`` returns a blob of ``size`` bytes."""
    return TensorType(IntegerType(8), [size])


@irdl_op_definition
class GlobalOp(IRDLOperation):
    """A weight blob of ``size`` bytes in off-chip memory.

    Its bytes come from exactly one source:
    ``seed(S)`` deterministic pseudo-random f32 values uniform in
    [-scale, scale] (so examples need no binary file),
    ``file("name.bin", OFFSET)`` a binary file resolved next to the model,
    ``data(dense<...>)`` inline little-endian data for tiny tests.
    """

    name = "nn.global"
    sym_name = prop_def(SymbolNameConstraint())
    size = prop_def(IntegerAttr[I64])
    seed = opt_prop_def(IntegerAttr[I64])
    scale = opt_prop_def(FloatAttr)
    file = opt_prop_def(StringAttr)
    file_offset = opt_prop_def(IntegerAttr[I64])
    data = opt_prop_def(DenseIntOrFPElementsAttr)

    traits = traits_def(SymbolOpInterface())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$sym_name `size` `(` custom<Int64>($size) `)`"
        " (`seed` `(` custom<Int64>($seed)^ `)`)? (`scale` `(` $scale^ `)`)?"
        " (`file` `(` $file^ `,` custom<Int64>($file_offset) `)`)?"
        " (`data` `(` $data^ `)`)? attr-dict"
    )
    custom_directives = (Int64,)

    def verify_(self) -> None:
        size = self.size.value.data
        if size <= 0:
            raise VerifyException(f"blob @{self.sym_name.data} must have a positive size")
        sources = [s for s in (self.seed, self.file, self.data) if s is not None]
        if len(sources) != 1:
            raise VerifyException(
                f"blob @{self.sym_name.data} needs exactly one of seed(...), file(...), data(...)"
            )
        if self.scale is not None and self.seed is None:
            raise VerifyException("scale(...) only applies to seed(...) blobs")
        if (self.file is None) != (self.file_offset is None):
            raise VerifyException("file(...) needs a file name and a byte offset")
        if self.file_offset is not None and self.file_offset.value.data < 0:
            raise VerifyException("the file offset must not be negative")
        if self.scale is not None and not self.scale.value.data > 0:
            raise VerifyException("scale(...) must be positive")
        if self.data is not None:
            with as_verify_error():
                data_bytes = tensor_bytes(self.data.type)
            if data_bytes != size:
                raise VerifyException(
                    f"blob @{self.sym_name.data} has size {size} but its data holds {data_bytes} bytes"
                )


@irdl_op_definition
class GetGlobalOp(IRDLOperation):
    """The whole blob ``@name`` as a ``tensor<SIZExi8>`` in off-chip memory."""

    name = "nn.get_global"
    global_name = prop_def(SymbolRefAttr, prop_name="name")
    result = result_def(TensorType)
    traits = traits_def(Pure())
    assembly_format = "$name attr-dict `:` type($result)"

    def __init__(self, name: str, size: int):
        super().__init__(properties={"name": SymbolRefAttr(name)}, result_types=[blob_type(size)])

    def verify_(self) -> None:
        glob = SymbolTable.lookup_symbol(self, self.global_name)
        if not isinstance(glob, GlobalOp):
            raise VerifyException(f"{self.global_name} does not name an nn.global")
        expected = blob_type(glob.size.value.data)
        if self.result.type != expected:
            raise VerifyException(f"{self.global_name} has type {expected}, not {self.result.type}")


@functools.lru_cache(maxsize=4096)
def _i64_attr(value: int) -> IntegerAttr:
    """An i64 attribute (attributes are immutable: one per value is shared; a new
    IntegerAttr costs more than the view it goes on)."""
    return IntegerAttr(value, i64)


@irdl_op_definition
class ViewOp(IRDLOperation):
    """A typed weight tensor read from ``length`` bytes of a blob at ``offset``."""

    name = "nn.view"
    source = operand_def(TensorType)
    offset = prop_def(IntegerAttr[I64])
    length = prop_def(IntegerAttr[I64])
    result = result_def(TensorType)
    traits = traits_def(Pure())
    assembly_format = (
        "$source `[` custom<Int64>($offset) `]` `bytes` `(` custom<Int64>($length) `)` attr-dict"
        " `:` type($source) `to` type($result)"
    )
    custom_directives = (Int64,)

    def __init__(self, source: SSAValue, offset: int, result_type: TensorType):
        Operation.__init__(  # flat lists, as the DMA ops (see cfmem.dialects.nn_dma): slicing builds many views
            self,
            operands=[source],
            result_types=[result_type],
            properties={
                "offset": _i64_attr(offset),
                "length": _i64_attr(tensor_bytes(result_type)),
            },
        )

    def verify_(self) -> None:
        src = self.source.type
        if not (
            isinstance(src, TensorType)
            and src.get_element_type() == IntegerType(8)
            and len(src.get_shape()) == 1
        ):
            raise VerifyException(f"source must be a blob tensor<Nxi8>, got {src}")
        offset, length = self.offset.value.data, self.length.value.data
        with as_verify_error():
            blob = static_shape(src)[0]
            want = tensor_bytes(self.result.type)
        if length != want:
            raise VerifyException(
                f"length {length} does not match {self.result.type} ({want} bytes)"
            )
        if offset < 0 or offset + length > blob:
            raise VerifyException(
                f"bytes [{offset}, {offset + length}) are outside the blob of {blob} bytes"
            )
        if offset % element_bytes(self.result.type.get_element_type()):
            raise VerifyException(f"offset {offset} is not aligned to the element size")


@irdl_op_definition
class ReshapeOp(IRDLOperation):
    """Same elements, new static shape (the paper's expand-shape op).

    Reshaping a weight view or a constant keeps it read-only data.
    """

    name = "nn.reshape"
    input = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())
    assembly_format = "$input attr-dict `:` type($input) `to` type($result)"

    def __init__(self, input: SSAValue, result_type: Attribute):
        super().__init__(operands=[input], result_types=[result_type])

    def verify_(self) -> None:
        src, dst = self.input.type, self.result.type
        with as_verify_error():
            n_src, n_dst = prod(static_shape(src)), prod(static_shape(dst))
        if src.get_element_type() != dst.get_element_type():
            raise VerifyException("reshape must keep the element type")
        if n_src != n_dst:
            raise VerifyException(f"reshape from {src} to {dst} changes the element count")

    def macs(self) -> int:
        return 0

    def bytes_read(self) -> int:
        return tensor_bytes(self.input.type)

    def bytes_written(self) -> int:
        return tensor_bytes(self.result.type)


WEIGHT_OPS: tuple[type[IRDLOperation], ...] = (GlobalOp, GetGlobalOp, ViewOp, ReshapeOp)
