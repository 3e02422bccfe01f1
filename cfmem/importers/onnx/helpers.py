"""What the ONNX op handlers share: reading a node's attributes and inputs, and emitting nn ops.

A handler receives the :class:`~cfmem.importers.onnx.core.Importer`, the node and its input
values (``None`` for an omitted optional input), and returns one value per node output; these
functions read the node (``attr``, ``text_attr``, ``known``, ``ints``, ``version``), turn
inputs into operands of the node's float type (``f32_operand``, ``bool_operand``) and emit nn
ops with their shapes inferred (``make``, ``reshape``, ``number``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np
import onnx
from onnx import helper
from xdsl.dialects.builtin import TensorType, i8
from xdsl.ir import Operation, SSAValue

from cfmem.dialects import nn_compute as nc
from cfmem.dialects.nn_quant import ui8
from cfmem.importers.onnx.core import Importer, OnnxImportError, Value
from cfmem.interp.weights import numpy_dtype

QUANT_ELEMENTS = {np.dtype(np.int8): i8, np.dtype(np.uint8): ui8}


@cache
def operator_version(op_type: str, opset: int) -> int:
    """The schema version of ``op_type`` in force at ``opset`` of the default domain."""
    try:
        return onnx.defs.get_schema(op_type, opset).since_version
    except onnx.defs.SchemaError:
        raise OnnxImportError(f"ONNX op {op_type} does not exist at opset {opset}") from None


def version(imp: Importer, node: onnx.NodeProto) -> int:
    """The schema version of ``node``'s op at the model's opset."""
    return operator_version(node.op_type, imp.opset)


def optional_input(inputs: list, k: int) -> Value | None:
    """Input ``k``, or None when it is omitted."""
    return inputs[k] if len(inputs) > k else None


def attr(node: onnx.NodeProto, name: str, default=None):
    for a in node.attribute:
        if a.name == name:
            return helper.get_attribute_value(a)
    return default


def known(value: Value | None, what: str, imp: Importer | None = None) -> np.ndarray:
    """``value`` when the import knows it; else a one-line error, which says how to fix it when
    ``value`` is an input of the model (``imp`` given)."""
    if not isinstance(value, np.ndarray):
        given = imp is not None and isinstance(value, SSAValue) and imp.b.is_input(value)
        how = "; it is an input of the model: fix it with --input-value" if given else ""
        raise OnnxImportError(f"{what} must be a constant (it is computed at run time{how})")
    return value


def ints(value: Value | None, what: str, imp: Importer | None = None) -> list[int]:
    return [int(v) for v in known(value, what, imp).reshape(-1)]


def shape_of(imp: Importer, value: Value) -> tuple[int, ...]:
    return tuple(value.shape) if isinstance(value, np.ndarray) else imp.b.shape(value)


def dtype_of(value: Value) -> np.dtype:
    if isinstance(value, np.ndarray):
        return value.dtype
    return numpy_dtype(value.type.get_element_type()).newbyteorder("=")


def out_name(imp: Importer, node: onnx.NodeProto, k: int = 0) -> str:
    return imp.name(node.output[k] if k < len(node.output) else node.name, node.op_type.lower())


def f32_operand(imp: Importer, value: Value, hint: str) -> SSAValue:
    """A float operand in the node's float type (``imp.float_dtype``, float32 or float16);
    a known one is converted to it."""
    if isinstance(value, np.ndarray):
        return imp.runtime(value.astype(imp.float_dtype), hint)
    if dtype_of(value) != imp.float_dtype:
        what = "float16" if imp.float_dtype == np.float16 else "float"
        raise OnnxImportError(f"expected a {what} tensor, got {value.type}")
    return value


def bool_operand(imp: Importer, value: Value, hint: str) -> SSAValue:
    """A run-time bool (i1) tensor, such as a comparison's result, or a known bool tensor."""
    if isinstance(value, np.ndarray):
        return imp.runtime(value.astype(np.bool_), hint)
    if dtype_of(value) != np.bool_:
        raise OnnxImportError(f"expected a bool tensor, got {value.type}")
    return value


def text_attr(node: onnx.NodeProto, name: str, default: str) -> str:
    """A string attribute, decoded."""
    value = attr(node, name, default)
    return value.decode() if isinstance(value, bytes) else value


def make(imp: Importer, cls: type[nc.ComputeOp], operands: list[SSAValue], props: dict, name: str) -> SSAValue:
    """Emit a compute op, its result shape inferred by the op's own rule."""
    probe = cls.create(operands=operands, properties=props)  # infer_shape reads operands and properties only
    try:
        shape, element = probe.infer_shape(), probe.result_element_type()
    except ValueError as err:
        raise OnnxImportError(f"{cls.name}: {err}") from None
    finally:
        probe.drop_all_references()
    op: Operation = cls.create(operands=operands, result_types=[TensorType(element, list(shape))], properties=props)
    return imp.b._emit(op, name)


def reshape(imp: Importer, x: SSAValue, shape: Sequence[int], name: str | None = None) -> SSAValue:
    if tuple(shape) == imp.b.shape(x):
        return x
    return imp.b.reshape(x, [int(d) for d in shape], name or imp.name("reshape"))


def number(imp, value: float, hint: str) -> SSAValue:
    """``value`` as a rank-0 constant of the node's float type, which broadcasts to any
    shape, rank 0 included."""
    return imp.runtime(np.array(value, imp.float_dtype), hint)
