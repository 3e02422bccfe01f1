"""Data movement: RESHAPE, SQUEEZE, EXPAND_DIMS, TRANSPOSE, PAD, PADV2 and CONCATENATION.

None of them moves an element where it can be avoided: TRANSPOSE only changes the order the
value is held in (see :mod:`~cfmem.importers.tflite.layout`); a reshape that adds or drops
axes of size 1 (every SQUEEZE and EXPAND_DIMS, and many RESHAPEs) keeps the held order, so it
is an ``nn.reshape`` of the value as it is held; any other reshape reads the value in TFLite's
order. A zero PAD of H and W of an NHWC tensor that only convolutions read is left to them
(their padding grows); any other PAD is an ``nn.pad`` in the order the value is held.
CONCATENATION joins values held in one order along the axis that order gives.

Assumptions: shapes, axes and paddings are constants of the file.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from cfmem.importers.tflite.core import Importer, Operator, TfliteImportError, Value, listed
from cfmem.importers.tflite.helpers import activated, axes_of, ints, known, out_name, pre_activation_name
from cfmem.importers.tflite.layout import Perm, Tensor, composed

CONVOLUTIONS = ("CONV_2D", "DEPTHWISE_CONV_2D")
"""Operators that take pending zero pads of their input (operand 0) into their own padding."""


def runtime_input(value: Value, what: str = "input") -> Tensor:
    if not isinstance(value, Tensor):
        raise TfliteImportError(f"{what} is a constant; cfmem folds no constant operators")
    return value


def held_reshape(shape: Sequence[int], target: Sequence[int], perm: Perm) -> Perm | None:
    """For a reshape of a tensor of TFLite ``shape`` held in order ``perm`` to ``target`` that
    adds or drops axes of size 1 only: an order in which the result is held by reshaping the
    held value (axes of size 1 last); None for another reshape."""
    long_in = [a for a in range(len(shape)) if shape[a] != 1]
    long_out = [a for a in range(len(target)) if target[a] != 1]
    if [shape[a] for a in long_in] != [target[a] for a in long_out]:
        return None
    where = dict(zip(long_in, long_out))
    return tuple([where[a] for a in perm if shape[a] != 1] + [a for a in range(len(target)) if target[a] == 1])


def reshaped(imp: Importer, op: Operator, x: Tensor, target: Sequence[int]) -> Tensor:
    """``x`` reshaped to TFLite shape ``target`` (one -1 allowed), keeping its held order if it can."""
    shape = imp.logical_shape(x)
    target = [int(d) for d in target]
    count = int(np.prod(shape))
    if target.count(-1) == 1:
        rest = int(np.prod([d for d in target if d != -1]))
        if rest == 0 or count % rest:
            raise TfliteImportError(f"cannot reshape {list(shape)} to {target}")
        target[target.index(-1)] = count // rest
    if int(np.prod(target)) != count or any(d < 0 for d in target):
        raise TfliteImportError(f"cannot reshape {list(shape)} ({count} elements) to {target}")
    name = out_name(imp, op)
    perm = held_reshape(shape, target, x.perm) if x.perm is not None and x.pads is None else None
    if perm is not None:
        perm = None if perm == tuple(range(len(target))) else perm
        held = [target[a] for a in perm] if perm is not None else target
        return Tensor(imp.b.reshape(x.value, held, name), perm)
    return Tensor(imp.b.reshape(imp.held(x, None, op.output_name()), target, name))


def reshape(imp: Importer, op: Operator, inputs: list[Value]) -> list[Value]:
    x = runtime_input(inputs[0])
    if len(inputs) > 1 and inputs[1] is not None:
        target = ints(inputs[1], "new shape")
    else:
        target = [int(d) for d in listed(op.option("newShape"))]
        if not target and op.outputs[0].shape is not None:
            target = [int(d) for d in op.outputs[0].shape]
    return [reshaped(imp, op, x, target)]


def squeeze(imp: Importer, op: Operator, inputs: list[Value]) -> list[Value]:
    x = runtime_input(inputs[0])
    shape = imp.logical_shape(x)
    dims = op.option("squeezeDims")
    axes = axes_of(np.asarray(listed(dims), np.int64), len(shape), "squeeze dimension")
    if not axes:
        axes = [a for a, d in enumerate(shape) if d == 1]
    if any(shape[a] != 1 for a in axes):
        raise TfliteImportError(f"cannot squeeze axes {sorted(set(axes))} of shape {list(shape)}")
    return [reshaped(imp, op, x, [d for a, d in enumerate(shape) if a not in axes])]


def expand_dims(imp: Importer, op: Operator, inputs: list[Value]) -> list[Value]:
    x = runtime_input(inputs[0])
    shape = list(imp.logical_shape(x))
    if known(inputs[1], "axis").size != 1:
        raise TfliteImportError("axis must have one element")
    (axis,) = axes_of(inputs[1], len(shape) + 1, "axis")
    return [reshaped(imp, op, x, [*shape[:axis], 1, *shape[axis:]])]


def transpose(imp: Importer, op: Operator, inputs: list[Value]) -> list[Value]:
    x = runtime_input(inputs[0])
    rank = len(imp.logical_shape(x))
    perm = ints(inputs[1], "permutation")
    if sorted(perm) != list(range(rank)):
        raise TfliteImportError(f"permutation {perm} is not one of {rank} axes")
    if x.pads is not None:
        x = imp.padded(x, op.output_name())
    return [Tensor(x.value, composed(x.perm, perm))]


def pad(imp: Importer, op: Operator, inputs: list[Value]) -> list[Value]:
    """PAD and PADV2 (whose third input is the pad value); a quantized tensor pads with its
    zero point (a zero), and only where convolutions alone read it."""
    x = runtime_input(inputs[0])
    shape = imp.logical_shape(x)
    paddings = known(inputs[1], "paddings").astype(np.int64)
    if paddings.shape != (len(shape), 2) or (paddings < 0).any():
        raise TfliteImportError(f"paddings {paddings.tolist()} do not fit a tensor of rank {len(shape)}")
    quantized = imp.dtype(x) != np.float32
    zero = zero_point(op.inputs[0]) if quantized else 0
    value = known(inputs[2], "pad value").reshape(-1)[0].item() if len(inputs) > 2 and inputs[2] is not None else zero
    if quantized and (value != zero or not same_quantization(op.inputs[0], op.outputs[0])):
        raise TfliteImportError("a quantized PAD must pad with the zero point and keep its input's quantization")
    spatial = len(shape) == 4 and not paddings[[0, 3]].any()
    readers = op.readers[0]
    if spatial and value == zero and readers and all(r in CONVOLUTIONS and k == 0 for r, k in readers):
        (top, bottom), (left, right) = paddings[1], paddings[2]
        before = x.pads or (0, 0, 0, 0)
        return [Tensor(x.value, x.perm, tuple(int(p) for p in np.add(before, (top, left, bottom, right))))]
    if quantized:
        raise TfliteImportError(f"PAD of a {imp.dtype(x)} tensor is supported only where convolutions alone read it")
    if x.pads is not None:
        x = imp.padded(x, op.output_name())
    perm = x.perm if x.perm is not None else tuple(range(len(shape)))
    pads = [int(paddings[a, 0]) for a in perm] + [int(paddings[a, 1]) for a in perm]
    return [Tensor(imp.b.pad(x.value, pads, value=float(value), name=out_name(imp, op)), x.perm)]


def zero_point(tensor) -> int:
    q = tensor.quantization
    return int(q.zeroPoint[0]) if q is not None and q.zeroPoint is not None and len(q.zeroPoint) else 0


def same_quantization(a, b) -> bool:
    """Whether two tensors (``TensorT``) have the same scales and zero points."""
    qa, qb = a.quantization, b.quantization
    scales = [np.asarray(q.scale if q is not None and q.scale is not None else [], np.float32) for q in (qa, qb)]
    zeros = [np.asarray(q.zeroPoint if q is not None and q.zeroPoint is not None else [], np.int64) for q in (qa, qb)]
    return np.array_equal(*scales) and np.array_equal(*zeros)


def concatenation(imp: Importer, op: Operator, inputs: list[Value]) -> list[Value]:
    values = [v for v in inputs if v is not None]
    rank = len(imp.logical_shape(values[0]))
    (axis,) = axes_of(np.array([op.option("axis", 0)]), rank, "axis")
    runtime = [v for v in values if isinstance(v, Tensor)]
    if not runtime:
        raise TfliteImportError("every input is a constant; cfmem folds no constant operators")
    dtype = imp.dtype(values[0])
    if any(imp.dtype(v) != dtype for v in values) or not (dtype == np.float32 or dtype.kind == "i" and op.option("fusedActivationFunction", 0) == 0):
        raise TfliteImportError("CONCATENATION takes float32 tensors, or integer ones of one type without a fused activation")
    perms = {v.perm for v in runtime}
    perm = perms.pop() if len(perms) == 1 else None
    hint = op.output_name()
    operands = [imp.held(v, perm, hint) if isinstance(v, Tensor) else imp.runtime(np.ascontiguousarray(v.transpose(perm)) if perm else v, f"{hint}_in{k}")
                for k, v in enumerate(values)]  # fmt: skip
    held_axis = perm.index(axis) if perm is not None else axis
    return [Tensor(activated(imp, op, imp.b.concat(operands, held_axis, pre_activation_name(imp, op))), perm)]


def cast(imp: Importer, op: Operator, inputs: list[Value]) -> list[Value]:
    """CAST between integer types: C's conversion (the low bits kept), as TFLite Micro's
    ``static_cast``; float casts are refused."""
    x = runtime_input(inputs[0])
    source, target = imp.dtype(x), imp.tensor_dtype(op.outputs[0])
    if source.kind not in "iu" or target.kind not in "iu":
        raise TfliteImportError(f"CAST from {source} to {target} is not supported (integer types only)")
    return [Tensor(imp.b.cast(imp.held(x, x.perm, op.output_name()), target, out_name(imp, op)), x.perm)]


def strided_slice(imp: Importer, op: Operator, inputs: list[Value]) -> list[Value]:
    """STRIDED_SLICE with known begin, end and positive strides, begin and end masks; the
    ellipsis, new-axis and shrink masks and ``offset`` are refused."""
    x = runtime_input(inputs[0])
    for mask in ("ellipsisMask", "newAxisMask", "shrinkAxisMask"):
        if op.option(mask, 0):
            raise TfliteImportError(f"STRIDED_SLICE with {mask} is not supported")
    if op.option("offset", False):
        raise TfliteImportError("STRIDED_SLICE with offset is not supported")
    shape = imp.logical_shape(x)
    begin, end, strides = (ints(v, what) for v, what in zip(inputs[1:4], ("begin", "end", "strides")))
    if not len(begin) == len(end) == len(strides) == len(shape) or any(s <= 0 for s in strides):
        raise TfliteImportError(f"STRIDED_SLICE needs begin, end and positive strides for each of the {len(shape)} axes")
    begin = [0 if op.option("beginMask", 0) >> k & 1 else b for k, b in enumerate(begin)]
    end = [d if op.option("endMask", 0) >> k & 1 else e for k, (d, e) in enumerate(zip(shape, end))]
    value = imp.held(x, None, op.output_name())
    return [Tensor(imp.b.slice(value, begin, end, list(range(len(shape))), strides, out_name(imp, op)))]
