"""The import's core: the state every ONNX op handler reads and writes.

:class:`Importer` holds one import: the GraphBuilder the nn ops go to, the weight blob, the
SSA names given so far, and how known tensors become IR (``runtime``: a blob weight, or an
``nn.constant`` when tiny). It walks a graph in order (``run_nodes``), each node through the
``translate`` function it is given (:func:`cfmem.importers.onnx.registry.translate`), so this
module knows no op. :class:`Scope` maps tensor names to values, a subgraph's scope reading its
parents'. Also here: the model file's loading and checks, the inputs' shapes (``--input-shape``,
``--dim``) and fixed values (``--input-value``), and the cap on known tensors and weights.

Assumptions: every graph input has a static shape once ``input_shapes`` and ``dims`` are
applied; no known tensor, and not the weight blob, exceeds ``MAX_WEIGHT_BYTES``.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import onnx
from onnx import numpy_helper
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ArrayAttr,
    BytesAttr,
    DenseIntOrFPElementsAttr,
    IntegerType,
    StringAttr,
    TensorType,
    f16,
    f32,
    i1,
)
from xdsl.ir import Attribute, SSAValue

from cfmem.builder import GraphBuilder, GraphBuildError
from cfmem.dialects import nn_compute as nc
from cfmem.dialects.nn_quant import ui8
from cfmem.importers.imported import ImportedModel, blob_bytes, point_blob_at_file, unused_ssa_name
from cfmem.importers.onnx.legacy import upgraded
from cfmem.importers.onnx.qdq import fuse_qdq, has_qdq
from cfmem.passes.quant_lookup import fuse_quantized_elementwise
from cfmem.interp.footprint import format_bytes
from cfmem.signature import INPUT_NAMES_ATTR, RESULT_NAMES_ATTR

Value = SSAValue | np.ndarray
"""A tensor during import: runtime (SSA) or known (numpy)."""

CONSTANT_MAX_ELEMENTS = 1
"""Known float tensors up to this many elements (scalars) stay ``nn.constant``; all
others, initializers and ``Constant`` tensors among them, go to the blob."""

BLOB_DTYPES = (np.dtype(np.float32), np.dtype(np.float16), np.dtype(np.int8), np.dtype(np.uint8), np.dtype(np.int32))
"""Element types of known tensors stored in the blob (float16 weights in 2 bytes, quantized
weights and their i32 biases among them); other ones (bools, int64 indices) stay ``nn.constant``."""

MAX_WEIGHT_BYTES = 2 * 2**30
"""The largest weight blob an import writes, and the largest known tensor it computes
(checked from the shape before anything that large is allocated)."""

RECURRENCES = ("unroll", "loop")
"""How LSTM and GRU run over the sequence: unrolled, one cell per time step, or as an
``nn.loop`` per direction (for sequences longer than one step)."""


class OnnxImportError(Exception):
    """The model cannot be imported; the message is one line naming the node."""


@dataclass
class Scope:
    """Tensor names visible in one graph; subgraphs see their parents' names."""

    values: dict[str, Value] = field(default_factory=dict)
    parent: Scope | None = None

    def lookup(self, name: str) -> Value | None:
        scope: Scope | None = self
        while scope is not None:
            if name in scope.values:
                return scope.values[name]
            scope = scope.parent
        return None


def load_onnx(path: str | Path) -> onnx.ModelProto:
    """Read and check a model file (onnx's checker, and its shape inference comparing operand
    types), converted to opset 7 if older (:mod:`cfmem.importers.onnx.legacy`); one-line
    errors (without the path) for missing, corrupt, invalid or unconvertible files."""
    path = Path(path)
    try:
        model = onnx.load(str(path))
    except FileNotFoundError:
        raise OnnxImportError("no such file") from None
    except Exception as err:  # protobuf decode errors have many types
        raise OnnxImportError(f"not a readable ONNX model ({_first_line(err)})") from None
    if not model.graph.node and not model.graph.output:
        raise OnnxImportError("not a readable ONNX model (no graph)")
    try:
        onnx.checker.check_model(model)
        onnx.shape_inference.infer_shapes(model, check_type=True)  # operand types the checker does not compare
    except Exception as err:
        raise OnnxImportError(f"invalid ONNX model: {_first_line(err)}") from None
    try:
        return upgraded(model)
    except ValueError as err:
        raise OnnxImportError(str(err)) from None


def _first_line(err: BaseException) -> str:
    text = str(err).strip().splitlines()
    return text[0] if text else type(err).__name__


def check_known_size(name: str, shape: Sequence[int], dtype: np.dtype, what: str = "tensor") -> None:
    """Refuse a known tensor of more than ``MAX_WEIGHT_BYTES``, before it is allocated."""
    size = math.prod(int(d) for d in shape) * np.dtype(dtype).itemsize
    if size > MAX_WEIGHT_BYTES:
        raise OnnxImportError(
            f"{what} {name!r} of shape {list(shape)} ({np.dtype(dtype)}) takes {format_bytes(size)};"
            f" cfmem import holds known tensors and weights of at most {format_bytes(MAX_WEIGHT_BYTES)}"
        )


InputValue = int | float | tuple[int | float, ...]
"""A value fixed for an input: one number for every element, or each element of a 1-D input."""


Translate = Callable[["Importer", onnx.NodeProto, list, Scope], list]
"""How an :class:`Importer` turns one node into values: (importer, node, its input values,
``None`` for an omitted optional one, the scope it runs in) -> one value per node output."""


class Importer:
    """One import; see the module docstring."""

    def __init__(self, model: onnx.ModelProto, blob_file: str, func_name: str = "main", recurrence: str = "unroll", *,
                 translate: Translate):  # fmt: skip
        self.translate = translate
        """Each node's translation (see :data:`Translate`)."""
        if recurrence not in RECURRENCES:
            raise OnnxImportError(f"recurrence {recurrence!r} is not one of {', '.join(RECURRENCES)}")
        self.recurrence = recurrence
        """How LSTM and GRU are imported (``RECURRENCES``)."""
        self.model = fuse_qdq(model) if has_qdq(model) else model
        self.opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 18)
        self.blob_file = blob_file
        self.b = GraphBuilder(func_name, align=64)
        self.blob_parts: list[tuple[int, np.ndarray]] = []
        self.materialized: dict[tuple[int, int], tuple[np.ndarray, SSAValue]] = {}
        """(id of a known array, id of the block it was emitted in) -> (the array, its SSA value)."""
        self.folded_ifs = 0
        self.kept_ifs = 0
        self.names: set[str] = set()
        self.float_dtype = np.dtype(np.float32)
        """The float type of the node being translated: float16 if any of its inputs is."""

    @functools.cached_property
    def read_names(self) -> frozenset[str]:
        """Every tensor name the model reads (:func:`read_names`), computed once."""
        return frozenset(read_names(self.model.graph))

    # --- names -------------------------------------------------------------------------

    def name(self, onnx_name: str, fallback: str = "t") -> str:
        """A valid, not yet used SSA name derived from an ONNX tensor name."""
        return unused_ssa_name(onnx_name, self.names, self.b._names, fallback)

    # --- known tensors becoming IR -----------------------------------------------------------

    def runtime(self, value: Value, hint: str, dtype: np.dtype | None = None) -> SSAValue:
        """``value`` as an SSA value: known tensors become a constant or a blob weight."""
        if isinstance(value, SSAValue):
            return value
        array = np.asarray(value)
        if dtype is not None:
            array = array.astype(dtype)
        elif array.dtype == np.float64:
            array = array.astype(np.float32)
        if dtype is None:
            for block in reversed(self.b._scopes):  # visible: emitted here or in an enclosing block
                hit = self.materialized.get((id(value), id(block)))
                if hit is not None:
                    return hit[1]
        if array.dtype in BLOB_DTYPES and array.size > CONSTANT_MAX_ELEMENTS:
            if self.b.blob_size + array.nbytes > MAX_WEIGHT_BYTES:
                raise OnnxImportError(
                    f"weight {hint!r} ({format_bytes(array.nbytes)}) would grow the weight blob past"
                    f" {format_bytes(MAX_WEIGHT_BYTES)}, the most cfmem import writes"
                )
            result = self.b.weight(self.name(hint, "w"), array.shape, element_type(array.dtype))
            self.blob_parts.append((self.b.weights[-1].offset, array))
        else:
            result = constant(self, array, hint)
        if dtype is None:
            self.materialized[(id(value), id(self.b._scopes[-1]))] = (value, result)
        return result

    # --- graphs -----------------------------------------------------------------------------

    def import_graph(
        self,
        input_shapes: Mapping[str, Sequence[int]],
        input_values: Mapping[str, InputValue],
        dims: Mapping[str, int] | None = None,
    ) -> ImportedModel:
        graph = self.model.graph
        scope = Scope()
        add_initializers(scope, graph)
        known_inputs = {i.name for i in graph.initializer}
        graph_inputs = [i for i in graph.input if i.name not in known_inputs]
        names = {i.name for i in graph_inputs}
        for given in (*input_shapes, *input_values):
            if given not in names:
                raise OnnxImportError(
                    f"the model has no input {given!r} (inputs: {', '.join(sorted(names)) or 'none'})"
                )
        shapes = input_shapes_of(graph_inputs, input_shapes, dims or {}, scalar_ok=set(input_values))
        input_names = []
        for inp in graph_inputs:
            dtype = _tensor_dtype(inp.type.tensor_type.elem_type, f"input {inp.name!r}")
            if inp.name in input_values:
                scope.values[inp.name] = _fixed_input(inp.name, input_values[inp.name], shapes[inp.name], dtype)
                continue
            scope.values[inp.name] = function_input(self, self.name(inp.name, "in"), shapes[inp.name], dtype)
            input_names.append(inp.name)
        self.run_nodes(graph.node, scope)
        outputs = []
        for out in graph.output:
            value = scope.lookup(out.name)
            if value is None:
                raise OnnxImportError(f"graph output {out.name!r} is never computed")
            if not isinstance(value, SSAValue | np.ndarray):
                raise OnnxImportError(f"graph output {out.name!r} is a sequence; cfmem's outputs are tensors")
            declared = out.type.tensor_type.elem_type  # a double one: runtime() would narrow it to float32
            if isinstance(value, np.ndarray) and value.dtype == np.float64 and declared in (0, onnx.TensorProto.DOUBLE):
                raise OnnxImportError(f"graph output {out.name!r} is a known float64 tensor; cfmem computes in float32 at most")
            outputs.append(self.runtime(value, out.name))
        try:
            self.b.output(*outputs)
            module = self.b.build()
        except GraphBuildError as err:
            raise OnnxImportError(str(err)) from None
        fuse_quantized_elementwise(module)
        fn = next(op for op in module.ops if isinstance(op, func.FuncOp))
        fn.attributes[INPUT_NAMES_ATTR] = ArrayAttr([StringAttr(name) for name in input_names])
        fn.attributes[RESULT_NAMES_ATTR] = ArrayAttr([StringAttr(out.name) for out in graph.output])
        blob = blob_bytes(self.b.blob_size, self.blob_parts)
        point_blob_at_file(module, self.blob_file)
        return ImportedModel(module, blob, self.blob_file, self.folded_ifs, self.kept_ifs)

    def run_nodes(self, nodes: Sequence[onnx.NodeProto], scope: Scope) -> None:
        for index, node in enumerate(nodes):
            where = f"node {node.name or '#' + str(index)} ({node.op_type})"
            inputs = []
            for name in node.input:
                if not name:
                    inputs.append(None)
                    continue
                value = scope.lookup(name)
                if value is None:
                    raise OnnxImportError(f"{where}: input {name!r} is not defined before use")
                inputs.append(value)
            try:
                results = self.translate(self, node, inputs, scope)
            except (OnnxImportError, GraphBuildError, ValueError) as err:  # shape rules raise ValueError
                message = " ".join(str(err).split())  # verifier messages span lines
                raise OnnxImportError(message if message.startswith("node ") else f"{where}: {message}") from None
            for name, value in zip(node.output, results):
                if name:
                    scope.values[name] = value


def input_shapes_of(
    inputs: Sequence[onnx.ValueInfoProto],
    given: Mapping[str, Sequence[int]],
    dims: Mapping[str, int],
    scalar_ok: set[str],
) -> dict[str, tuple[int, ...]]:
    """Every input's static shape: ``given`` (``--input-shape``) wins, then the model's
    sizes, then ``dims`` (``--dim``) by symbolic name. Inputs in ``scalar_ok`` may be given
    as one element whatever their rank. Every dimension left unfixed is listed in one error,
    with options that fix them all."""
    # a dimension holds either a dim_value or a dim_param (a protobuf oneof)
    symbolic = {d.dim_param for inp in inputs for d in inp.type.tensor_type.shape.dim if d.dim_param}
    for name in dims:
        if name not in symbolic:
            known = ", ".join(sorted(symbolic)) or "none"
            raise OnnxImportError(f"--dim {name}: the model's inputs have no symbolic dimension {name!r} (symbolic: {known})")
    shapes: dict[str, tuple[int, ...]] = {}
    partial: dict[str, list[int | None]] = {}
    unfixed: list[tuple[str, int, onnx.TensorShapeProto.Dimension]] = []
    for inp in inputs:
        proto = inp.type.tensor_type.shape.dim
        if inp.name in given:
            shapes[inp.name] = _given_shape(inp.name, proto, tuple(given[inp.name]), dims, inp.name in scalar_ok)
            continue
        shape: list[int | None] = []
        for k, d in enumerate(proto):
            if d.HasField("dim_value") and d.dim_value > 0:
                shape.append(d.dim_value)
            elif d.dim_param in dims:
                shape.append(dims[d.dim_param])
            else:
                shape.append(None)
                unfixed.append((inp.name, k, d))
        partial[inp.name] = shape
        if None not in shape:
            shapes[inp.name] = tuple(shape)  # type: ignore[arg-type]
    if unfixed:
        raise OnnxImportError(_unfixed_message(unfixed, partial))
    return shapes


def _given_shape(name: str, proto, shape: tuple[int, ...], dims: Mapping[str, int], scalar_ok: bool) -> tuple[int, ...]:
    """``--input-shape NAME=...`` checked against the model's fixed sizes and the ``--dim`` sizes."""
    if len(shape) != len(proto) and not (scalar_ok and math.prod(shape) == 1):
        raise OnnxImportError(f"--input-shape {name}: the model's input has rank {len(proto)}, not {len(shape)}")
    for k, (d, g) in enumerate(zip(proto, shape)):
        if d.HasField("dim_value") and d.dim_value > 0 and d.dim_value != g:
            raise OnnxImportError(f"--input-shape {name}: dimension {k} is fixed to {d.dim_value} in the model, not {g}")
        if d.dim_param in dims and dims[d.dim_param] != g:
            raise OnnxImportError(
                f"--input-shape {name}: dimension {k} is {d.dim_param!r}, which --dim {d.dim_param}={dims[d.dim_param]} fixes, not {g}"
            )
    return shape


def _unfixed_message(unfixed, partial: dict[str, list[int | None]]) -> str:
    """One line naming every unfixed input dimension and the options that fix them all
    (each at size 1: ready to paste, to be changed where the model needs other sizes)."""
    what = []
    named: dict[str, None] = {}
    by_shape: dict[str, None] = {}
    for name, k, d in unfixed:
        if d.dim_param:
            what.append(f"input {name!r} has a symbolic dimension {d.dim_param!r} at position {k}")
            named[d.dim_param] = None
        else:
            size = f"of size {d.dim_value}" if d.HasField("dim_value") else "of unknown size"
            what.append(f"input {name!r} has a dimension {size} at position {k}")
            by_shape[name] = None
    fixes = [f"--dim {n}=1" for n in named]
    for name in by_shape:
        shape = ",".join("1" if x is None else str(x) for x in partial[name])
        fixes.append(f"--input-shape {name}={shape}")
    it = "it" if len(what) == 1 else "them"
    sizes = "size" if len(what) == 1 else "sizes"
    return f"{', '.join(what)}: fix {it} with {' '.join(fixes)} (or any other positive {sizes})"


def read_names(graph: onnx.GraphProto) -> set[str]:
    """The names ``graph`` reads: its nodes' inputs and its outputs, and those of every
    subgraph (If branches, Loop and Scan bodies), which may read their parents' names.
    A name shadowed in a subgraph counts as read in its parent too (which errs on the
    side of "read")."""
    names = {out.name for out in graph.output}
    for node in graph.node:
        names.update(name for name in node.input if name)
        for attribute in node.attribute:
            subgraphs = [attribute.g] if attribute.type == onnx.AttributeProto.GRAPH else list(attribute.graphs)
            for sub in subgraphs:
                names |= read_names(sub)
    return names


def add_initializers(scope: Scope, graph: onnx.GraphProto) -> None:
    """``graph``'s initializers as known tensors of ``scope``, each checked for size first."""
    for init in graph.initializer:
        check_known_size(init.name, init.dims, onnx.helper.tensor_dtype_to_np_dtype(init.data_type), "initializer")
        try:
            scope.values[init.name] = numpy_helper.to_array(init)
        except Exception as err:
            raise OnnxImportError(f"initializer {init.name!r} cannot be read: {_first_line(err)}") from None


def _fixed_input(name: str, value: InputValue, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """``--input-value``: every element of the input is ``value``, or, for a tuple, the 1-D
    input's elements are its numbers. An integer or bool input takes a whole number in its
    range, exactly; a float input the nearest float, if finite."""
    if isinstance(value, tuple):
        if len(shape) != 1 or shape[0] != len(value):
            raise OnnxImportError(f"--input-value {name}: {len(value)} numbers for an input of shape {list(shape)} (a list fixes a 1-D input of as many elements)")
        return np.concatenate([_fixed_input(name, v, (1,), dtype) for v in value])
    check_known_size(name, shape, dtype, "input")
    dtype = np.dtype(dtype)
    shown = str(value) if isinstance(value, int) else f"{value:g}"
    if dtype.kind in "biu":
        whole = isinstance(value, int) or (math.isfinite(value) and value.is_integer())
        low, high = (0, 1) if dtype.kind == "b" else (int(np.iinfo(dtype).min), int(np.iinfo(dtype).max))
        if not (whole and low <= int(value) <= high):
            raise OnnxImportError(f"--input-value {name}: {shown} does not fit the input's type {dtype}")
        return np.full(shape, int(value), dtype)
    try:
        number = float(value)
    except OverflowError:  # an integer beyond every float
        number = math.inf if value > 0 else -math.inf
    with np.errstate(over="ignore"):
        converted = np.array(number, np.float64).astype(dtype)
    if not math.isfinite(float(converted)) and (isinstance(value, int) or math.isfinite(value)):
        raise OnnxImportError(f"--input-value {name}: {shown} does not fit the input's type {dtype}")
    return np.full(shape, converted, dtype)


_ELEMENT_DTYPES = {
    onnx.TensorProto.FLOAT: np.float32,
    onnx.TensorProto.FLOAT16: np.float16,
    onnx.TensorProto.INT64: np.int64,
    onnx.TensorProto.INT32: np.int32,
    onnx.TensorProto.INT8: np.int8,
    onnx.TensorProto.UINT8: np.uint8,
    onnx.TensorProto.BOOL: np.bool_,
}


def _tensor_dtype(elem_type: int, what: str) -> np.dtype:
    if elem_type not in _ELEMENT_DTYPES:
        name = onnx.TensorProto.DataType.Name(elem_type)
        raise OnnxImportError(f"{what} has element type {name}; supported: float, float16, int64, int32, int8, uint8, bool")
    return np.dtype(_ELEMENT_DTYPES[elem_type])


def element_type(dtype: np.dtype) -> Attribute:
    if dtype == np.bool_:
        return i1
    if dtype == np.float32:
        return f32
    if dtype == np.float16:
        return f16
    if dtype == np.uint8:
        return ui8
    if np.issubdtype(dtype, np.signedinteger):
        return IntegerType(dtype.itemsize * 8)
    raise OnnxImportError(f"unsupported element type {dtype}")


def constant(imp: Importer, array: np.ndarray, hint: str) -> SSAValue:
    """An ``nn.constant`` of any supported element type."""
    ty = TensorType(element_type(array.dtype), list(array.shape))
    if array.dtype == np.bool_:
        attr_ = DenseIntOrFPElementsAttr.from_list(ty, [int(v) for v in array.reshape(-1)])
    else:
        data = np.ascontiguousarray(array, dtype=array.dtype.newbyteorder("<")).tobytes()
        attr_ = DenseIntOrFPElementsAttr(ty, BytesAttr(data))
    return imp.b._emit(nc.ConstantOp(attr_), imp.name(hint, "cst"))


def function_input(imp: Importer, name: str, shape: Sequence[int], dtype: np.dtype) -> SSAValue:
    return imp.b.input(name, shape, dtype=dtype)

