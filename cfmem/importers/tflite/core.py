"""The TFLite import's core: the state every operator handler reads and writes.

:class:`Importer` holds one import: the model (the schema's ``ModelT``) and the file's bytes, the
GraphBuilder the nn ops go to, the weight blob, the SSA names given so far, and how values become
IR (``runtime``: a known tensor becomes a blob weight, or an ``nn.constant`` when it has one
element; ``held``: a run-time tensor in the axis order an op needs, see
:mod:`~cfmem.importers.tflite.layout`). It runs a subgraph's operators in order
(``run_subgraph``), each through the ``translate`` function it is given
(:func:`cfmem.importers.tflite.registry.translate`), so this module knows no operator. It checks
every result's shape against the file's, where the file fixes it.

A tensor is *known* (a numpy array: a constant buffer of the file) or a run-time
:class:`~cfmem.importers.tflite.layout.Tensor`. Inputs of the main subgraph (subgraph 0) are the
function's inputs, with the file's shapes; a dimension the file marks dynamic (-1 in its shape
signature) takes the size the file stores (the size TFLite Micro runs) unless ``--input-shape``
fixes it.

State: TFLite Micro keeps a *variable* tensor of the main subgraph (an SVDF's memory) across
invocations, updating it in place. nn functions are stateless, so each variable tensor becomes
an extra function input, the state before the call, named after the tensor
(``variable<index>`` when it has no name), after the model's inputs, and an extra result, the
state after the call, named ``<that name>_next``, after the model's outputs (the functional
form ONNX gives recurrent state). An operator that updates a variable says so
(:meth:`Importer.write_variable`); operators after it read the updated value. A caller runs
the function with the state TFLite Micro starts from (:func:`~cfmem.importers.tflite.entry.initial_state`: each int8
variable filled with its zero point, any other with zeros) and feeds each call the state
results of the one before.

Assumptions: tensors of the main subgraph's inputs and of run-time values are float32, int8,
uint8, int16, int32, int64 or bool; only the main subgraph has variable tensors; subgraphs
call no subgraph recursively.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, StringAttr, f32
from xdsl.ir import SSAValue

from cfmem.builder import GraphBuilder, GraphBuildError
from cfmem.builder.core import _element_type
from cfmem.importers.imported import ImportedModel, blob_bytes, point_blob_at_file, unused_ssa_name
from cfmem.importers.tflite.layout import Perm, Tensor, logical_shape, moving, reorder
from cfmem.signature import INPUT_NAMES_ATTR, RESULT_NAMES_ATTR
from cfmem.tflite.model_file import builtin_name, schema

Value = Tensor | np.ndarray
"""A tensor during import: run-time (a :class:`Tensor`) or known (numpy)."""

CONSTANT_MAX_ELEMENTS = 1
"""Known tensors up to this many elements stay ``nn.constant``; larger ones go to the blob."""

BLOB_DTYPES = tuple(np.dtype(t) for t in (np.float32, np.int8, np.uint8, np.int16, np.int32))
"""Element types of known tensors stored in the blob; others (bools, int64) stay ``nn.constant``."""


def tensor_dtypes() -> dict[int, np.dtype]:
    """The numpy dtype of each TFLite ``TensorType`` cfmem reads."""
    kinds = schema().TensorType
    return {
        kinds.FLOAT32: np.dtype(np.float32), kinds.INT32: np.dtype(np.int32), kinds.INT64: np.dtype(np.int64),
        kinds.BOOL: np.dtype(np.bool_), kinds.INT8: np.dtype(np.int8), kinds.UINT8: np.dtype(np.uint8),
        kinds.INT16: np.dtype(np.int16), kinds.FLOAT16: np.dtype(np.float16),
        kinds.UINT32: np.dtype(np.uint32), kinds.UINT64: np.dtype(np.uint64),
    }  # fmt: skip


class TfliteImportError(Exception):
    """The model cannot be imported; the message is one line naming the operator."""


def listed(values: Any) -> list:
    """A vector of the object tree (a numpy array, a list or None) as a list."""
    return [] if values is None else list(values)


def text(name: bytes | str | None) -> str:
    """A name of the flatbuffer (bytes) as text."""
    if name is None:
        return ""
    return name.decode(errors="replace") if isinstance(name, bytes) else name


class Operands(list):
    """An operator's inputs or outputs: a position the operator does not have is its one-line
    error (a file may list fewer operands than its builtin takes), not an ``IndexError``."""

    def __init__(self, values: Sequence[Any], kind: str):
        super().__init__(values)
        self.kind = kind

    def __getitem__(self, k):
        if isinstance(k, int) and not -len(self) <= k < len(self):
            raise TfliteImportError(f"{self.kind} #{k} is missing: the operator has {len(self)} {self.kind}{'s' * (len(self) != 1)}")
        return super().__getitem__(k)


@dataclass
class Operator:
    """One operator being translated: its builtin name, where it is, its options and the
    tensors (``TensorT``) it reads (``None`` for an omitted optional input) and writes."""

    builtin: str
    index: int
    subgraph: int
    options: Any
    inputs: Operands
    outputs: Operands
    readers: list[list[tuple[str, int]]]
    """For each output, who reads it in the subgraph: (builtin name, input position) of each
    operator, and ``("OUTPUT", k)`` for output ``k`` of the subgraph."""
    input_indices: list[int]
    """The subgraph's tensor index of each input (-1 for an omitted one)."""
    custom_options: bytes = b""
    """A custom operator's options (a flexbuffer), empty for a builtin one."""

    @property
    def where(self) -> str:
        return f"operator {self.index} ({self.builtin}) of subgraph {self.subgraph}"

    def output_name(self, k: int = 0) -> str:
        return text(self.outputs[k].name) or f"{self.builtin.lower()}{self.index}"

    def option(self, name: str, default: Any = None) -> Any:
        return default if self.options is None else getattr(self.options, name, default)


Translate = Callable[["Importer", Operator, list], list]
"""How an :class:`Importer` turns one operator into values: (importer, operator, its input
values, ``None`` for an omitted optional one) -> one value per operator output."""


class Importer:
    """One import; see the module docstring."""

    def __init__(self, model: Any, data: bytes, blob_file: str, *, translate: Translate, func_name: str = "main"):
        self.model = model
        self.data = data
        """The file's bytes (buffers stored outside the flatbuffer are read from them)."""
        self.blob_file = blob_file
        self.translate = translate
        self.b = GraphBuilder(func_name, align=64)
        self.blob_parts: list[tuple[int, np.ndarray]] = []
        self.names: set[str] = set()
        self.materialized: dict[tuple[int, int], tuple[np.ndarray, SSAValue]] = {}
        """(id of a known array, id of the block it was emitted in) -> (the array, its SSA value)."""
        self.reordered: dict[tuple[int, Perm | None, int], tuple[SSAValue, SSAValue]] = {}
        """(id of a value, the order asked for, id of the block) -> (the value, the reordered one)."""
        self.kept_ifs = 0
        self.loops = 0
        self.running: list[int] = []
        """The subgraphs being run, outermost first."""
        self.dtypes = tensor_dtypes()
        self.input_shapes_given = False
        self.shapes: dict[tuple[int, int], tuple[int, ...]] = {}
        """(subgraph, tensor index) -> the TFLite shape computed for each run-time tensor."""
        self.variables: dict[int, Value] = {}
        """Tensor index of each variable tensor of the main subgraph -> its current value."""
        self.kernel_states: dict[str, Value] = {}
        """State kept inside kernels (not in tensors), by function input name (:meth:`kernel_state`)."""

    # --- names -------------------------------------------------------------------------------

    def name(self, tflite_name: str, fallback: str = "t") -> str:
        """A valid, not yet used SSA name derived from a TFLite tensor name."""
        return unused_ssa_name(tflite_name, self.names, self.b._names, fallback)

    # --- values becoming IR --------------------------------------------------------------------

    def _visible(self, table: dict, key: tuple) -> Any:
        for block in reversed(self.b._scopes):  # emitted here or in an enclosing block
            hit = table.get((*key, id(block)))
            if hit is not None:
                return hit
        return None

    def runtime(self, value: Value, hint: str) -> SSAValue:
        """``value`` as an SSA value in the TFLite axis order: a known tensor becomes a constant
        or a blob weight (once per block that sees it)."""
        if isinstance(value, Tensor):
            return self.held(value, None, hint)
        hit = self._visible(self.materialized, (id(value),))
        if hit is not None:
            return hit[1]
        array = np.asarray(value)
        if array.dtype in BLOB_DTYPES and array.size > CONSTANT_MAX_ELEMENTS:
            element = f32 if array.dtype == np.float32 else _element_type(array.dtype)
            result = self.b.weight(self.name(hint, "w"), array.shape, element)
            self.blob_parts.append((self.b.weights[-1].offset, array))
        else:
            result = self.b.constant(array, self.name(hint, "cst"), array.dtype)
        self.materialized[(id(value), id(self.b._scopes[-1]))] = (value, result)
        return result

    def held(self, t: Tensor, perm: Perm | None, hint: str) -> SSAValue:
        """The run-time tensor ``t`` held in order ``perm`` (its pending pads applied)."""
        if t.pads is not None:
            t = self.padded(t, hint)
        rank = len(self.b.shape(t.value))
        move = moving(t.perm, perm, rank)
        if move == tuple(range(rank)):
            return t.value
        key = (id(t.value), perm)
        hit = self._visible(self.reordered, key)
        if hit is not None:
            return hit[1]
        result = reorder(self.b, t.value, move, self.name(f"{hint}_{'nhwc' if perm is None else 'nchw'}"))
        self.reordered[(*key, id(self.b._scopes[-1]))] = (t.value, result)
        return result

    def padded(self, t: Tensor, hint: str) -> Tensor:
        """``t`` with its pending pads applied (an ``nn.pad`` of zeros)."""
        top, left, bottom, right = t.pads
        rank = len(self.b.shape(t.value))
        before, after = [0] * rank, [0] * rank
        perm = t.perm if t.perm is not None else tuple(range(rank))
        for axis, low, high in ((1, top, bottom), (2, left, right)):
            before[perm.index(axis)], after[perm.index(axis)] = low, high
        if self.b._dtype(t.value) != np.float32:
            raise TfliteImportError(f"padding of a {self.b._dtype(t.value)} tensor read by other ops than convolutions is not supported")
        return Tensor(self.b.pad(t.value, before + after, name=self.name(f"{hint}_padded")), t.perm)

    def logical_shape(self, value: Value) -> tuple[int, ...]:
        """The TFLite shape of a value, pending pads included."""
        if isinstance(value, np.ndarray):
            return tuple(value.shape)
        shape = list(logical_shape(self.b, value))
        if value.pads is not None:
            top, left, bottom, right = value.pads
            shape[1] += top + bottom
            shape[2] += left + right
        return tuple(shape)

    def dtype(self, value: Value) -> np.dtype:
        return value.dtype if isinstance(value, np.ndarray) else self.b._dtype(value.value)

    # --- tensors of the file -------------------------------------------------------------------

    def tensor_dtype(self, tensor: Any) -> np.dtype:
        dtype = self.dtypes.get(tensor.type)
        if dtype is None:
            kinds = {v: k for k, v in vars(schema().TensorType).items() if not k.startswith("_")}
            raise TfliteImportError(f"tensor {text(tensor.name)!r} has type {kinds.get(tensor.type, tensor.type)}, which cfmem does not read")
        return dtype

    def known_tensor(self, tensor: Any) -> np.ndarray | None:
        """The constant data of ``tensor`` (``TensorT``), or None when it has none."""
        shape = tuple(int(d) for d in listed(tensor.shape))
        if 0 in shape:  # no elements, no data (an empty shape tensor, say)
            return np.zeros(shape, self.tensor_dtype(tensor))
        buffers = listed(self.model.buffers)
        buffer = buffers[tensor.buffer] if 0 <= tensor.buffer < len(buffers) else None
        if buffer is None:
            return None
        if buffer.data is not None and len(buffer.data):
            raw = bytes(np.asarray(buffer.data, np.uint8))
        elif buffer.offset > 1 and buffer.size:
            if buffer.offset + buffer.size > len(self.data):
                raise TfliteImportError(f"tensor {text(tensor.name)!r}: its buffer lies past the end of the file")
            raw = self.data[buffer.offset : buffer.offset + buffer.size]
        else:
            return None
        dtype = self.tensor_dtype(tensor).newbyteorder("<")
        count = int(np.prod(shape, dtype=np.int64))
        if len(raw) != count * dtype.itemsize:
            raise TfliteImportError(f"tensor {text(tensor.name)!r} of shape {list(shape)} has {len(raw)} bytes of data, expected {count * dtype.itemsize}")
        return np.frombuffer(raw, dtype).astype(dtype.newbyteorder("=")).reshape(shape)

    # --- subgraphs -----------------------------------------------------------------------------

    def run_subgraph(self, index: int, args: Sequence[Value]) -> list[Value]:
        """The outputs of subgraph ``index`` run with its inputs bound to ``args``."""
        if not 0 <= index < len(self.model.subgraphs):
            raise TfliteImportError(f"subgraph {index} does not exist (the model has {len(self.model.subgraphs)})")
        if index in self.running:
            raise TfliteImportError(f"subgraph {index} calls itself (through subgraphs {self.running}); cfmem imports no recursion")
        sg = self.model.subgraphs[index]
        inputs = listed(sg.inputs)
        if len(inputs) != len(args):
            raise TfliteImportError(f"subgraph {index} takes {len(inputs)} inputs, given {len(args)}")
        self.running.append(index)
        try:
            values: dict[int, Value] = dict(zip(inputs, args))
            self.shapes.update(((index, int(t)), self.logical_shape(v)) for t, v in zip(inputs, args))
            readers = self._readers(sg)
            for k, op in enumerate(listed(sg.operators)):
                self._run_operator(index, k, op, sg, values, readers)
            return [self._value(sg, t, values, f"output of subgraph {index}") for t in listed(sg.outputs)]
        finally:
            self.running.pop()

    def _readers(self, sg: Any) -> dict[int, list[tuple[str, int]]]:
        """Who reads each tensor of ``sg`` (see :attr:`Operator.readers`)."""
        readers: dict[int, list[tuple[str, int]]] = {}
        for op in listed(sg.operators):
            name = builtin_name(self.model, op.opcodeIndex)
            for k, t in enumerate(listed(op.inputs)):
                readers.setdefault(int(t), []).append((name, k))
        for k, t in enumerate(listed(sg.outputs)):
            readers.setdefault(int(t), []).append(("OUTPUT", k))
        return readers


    def _value(self, sg: Any, index: int, values: dict[int, Value], what: str) -> Value:
        if index in values:
            return values[index]
        tensors = listed(sg.tensors)
        if not 0 <= index < len(tensors):
            raise TfliteImportError(f"{what}: tensor index {index} out of range ({len(tensors)} tensors)")
        tensor = tensors[index]
        if tensor.isVariable:
            if sg is self.model.subgraphs[0] and index in self.variables:
                return self.variables[index]
            raise TfliteImportError(f"{what}: tensor {text(tensor.name)!r} is a variable of a subgraph other than the main one;"
                                    " cfmem imports the main subgraph's state only")  # fmt: skip
        known = self.known_tensor(tensor)
        if known is None:
            raise TfliteImportError(f"{what}: tensor {text(tensor.name)!r} is read before it is computed")
        values[index] = known
        return known

    def _run_operator(self, sg_index: int, k: int, op: Any, sg: Any, values: dict[int, Value],
                      readers: dict[int, list[tuple[str, int]]]) -> None:  # fmt: skip
        inputs = [int(i) for i in listed(op.inputs)]
        outputs = [int(i) for i in listed(op.outputs)]
        tensors = listed(sg.tensors)
        operator = Operator(builtin_name(self.model, op.opcodeIndex), k, sg_index, op.builtinOptions,
                            Operands([tensors[i] if 0 <= i < len(tensors) else None for i in inputs], "input"),
                            Operands([tensors[i] for i in outputs if 0 <= i < len(tensors)], "output"),
                            [readers.get(i, []) for i in outputs], inputs,
                            bytes(np.asarray(op.customOptions, np.uint8)) if op.customOptions is not None else b"")  # fmt: skip
        try:
            if len(operator.outputs) != len(outputs):
                raise TfliteImportError(f"output tensor index out of range ({len(tensors)} tensors)")
            args = [None if i == -1 else self._value(sg, i, values, f"input #{n}") for n, i in enumerate(inputs)]
            results = self.translate(self, operator, Operands(args, "input"))
            for tensor, value in zip(operator.outputs, results):
                self._check_shape(tensor, value)
            for index, value in zip(outputs, results):
                self.shapes[(sg_index, index)] = self.logical_shape(value)
        except (TfliteImportError, GraphBuildError, ValueError) as err:  # shape rules raise ValueError
            message = " ".join(str(err).split())  # verifier messages span lines
            raise TfliteImportError(message if message.startswith("operator ") else f"{operator.where}: {message}") from None
        values.update(zip(outputs, results))

    def write_variable(self, op: Operator, k: int, value: Value) -> None:
        """Input ``k`` of ``op``, a variable tensor of the main subgraph, holds ``value`` after
        ``op`` (TFLite Micro's in-place update)."""
        index = op.input_indices[k] if k < len(op.input_indices) else -1
        if op.subgraph != 0 or index not in self.variables:
            raise TfliteImportError(f"input #{k} must be a variable tensor of the main subgraph (the operator's state)")
        self.variables[index] = value

    def kernel_state(self, op: Operator, shape: tuple[int, ...], dtype: np.dtype) -> Tensor:
        """State ``op``'s kernel keeps between invocations outside any tensor: a new function
        input (the state before the call), named ``<op's first output>_state``, after the
        variables; :meth:`write_kernel_state` gives its value after the call."""
        if op.subgraph != 0:
            raise TfliteImportError("an operator with state is supported in the main subgraph only")
        name = f"{op.output_name()}_state"
        value = Tensor(self.b.input(self.name(name, "state"), shape, dtype))
        self.kernel_states[name] = value
        return value

    def write_kernel_state(self, op: Operator, value: Value) -> None:
        """``op``'s kernel state (:meth:`kernel_state`) holds ``value`` after ``op``."""
        self.kernel_states[f"{op.output_name()}_state"] = value

    def _check_shape(self, tensor: Any, value: Value) -> None:
        """The shape computed for ``tensor`` agrees with the file's, in every dimension the file
        fixes (a -1 in its shape signature is dynamic; with ``--input-shape`` given, a tensor
        without a signature fixes none)."""
        if tensor.shape is None:
            return
        stored = [int(d) for d in tensor.shape]
        signature = [int(d) for d in tensor.shapeSignature] if tensor.shapeSignature is not None else None
        if signature is None and self.input_shapes_given:
            return
        got = self.logical_shape(value)
        fixed = signature if signature is not None else stored
        if len(got) != len(stored) or any(f != -1 and s != g for f, s, g in zip(fixed, stored, got)):
            raise TfliteImportError(f"tensor {text(tensor.name)!r}: cfmem computes shape {list(got)}, the file says {stored}")

    def import_model(self, input_shapes: Mapping[str, Sequence[int]]) -> ImportedModel:
        """The main subgraph as a function; the file's shapes, or ``input_shapes`` by input name."""
        sg = self.model.subgraphs[0]
        every = listed(sg.tensors)
        for k, index in enumerate(listed(sg.inputs)):
            if not 0 <= index < len(every):
                raise TfliteImportError(f"input #{k} of subgraph 0: tensor index {index} out of range ({len(every)} tensors)")
        tensors = [every[i] for i in listed(sg.inputs)]
        names = [text(t.name) for t in tensors]
        for given in input_shapes:
            if given not in names:
                raise TfliteImportError(f"the model has no input {given!r} (inputs: {', '.join(names) or 'none'})")
        self.input_shapes_given = bool(input_shapes)
        args: list[Value] = []
        dynamic = []
        for tensor, name in zip(tensors, names):
            shape, is_dynamic = input_shape(tensor, name, input_shapes.get(name))
            if is_dynamic:
                dynamic.append(f"{name!r} {list(shape)}")
            value = self.b.input(self.name(name, "in"), shape, self.tensor_dtype(tensor))
            args.append(Tensor(value))
        state_names = self._state_inputs(sg)
        try:
            outputs = self.run_subgraph(0, args)
        except TfliteImportError as err:
            if not dynamic:
                raise
            raise TfliteImportError(f"{err} (dynamic input dimensions took the file's sizes: {', '.join(dynamic)};"
                                    " fix them with --input-shape NAME=D0,D1,...)") from None  # fmt: skip
        output_names = [text(every[i].name) for i in listed(sg.outputs)]
        state_names += list(self.kernel_states)
        outputs = [*outputs, *self.variables.values(), *self.kernel_states.values()]
        output_names += [f"{name}_next" for name in state_names]
        names += state_names
        try:
            results = [self.runtime(v, name) for v, name in zip(outputs, output_names)]
            self.b.output(*results)
            module = self.b.build()
        except GraphBuildError as err:
            raise TfliteImportError(str(err)) from None
        fn = next(op for op in module.ops if isinstance(op, func.FuncOp))
        fn.attributes[INPUT_NAMES_ATTR] = ArrayAttr([StringAttr(n) for n in names])
        fn.attributes[RESULT_NAMES_ATTR] = ArrayAttr([StringAttr(n) for n in output_names])
        blob = blob_bytes(self.b.blob_size, self.blob_parts)
        point_blob_at_file(module, self.blob_file)
        return ImportedModel(module, blob, self.blob_file, 0, self.kept_ifs)

    def _state_inputs(self, sg: Any) -> list[str]:
        """The variable tensors of the main subgraph ``sg`` as function inputs (after the
        model's), in tensor order; their names. A variable of another subgraph is refused."""
        for k, other in enumerate(self.model.subgraphs[1:], start=1):
            if any(t.isVariable for t in listed(other.tensors)):
                raise TfliteImportError(f"subgraph {k} has a variable tensor; cfmem imports the main subgraph's state only")
        names = []
        for index, tensor in enumerate(listed(sg.tensors)):
            if not tensor.isVariable:
                continue
            name = text(tensor.name) or f"variable{index}"
            shape = tuple(int(d) for d in listed(tensor.shape))
            if any(d <= 0 for d in shape):
                raise TfliteImportError(f"variable tensor {name!r} has shape {list(shape)}; its shape must be static")
            self.variables[index] = Tensor(self.b.input(self.name(name, "state"), shape, self.tensor_dtype(tensor)))
            names.append(name)
        return names


def variable_initial_state(model: Any) -> list[np.ndarray]:
    """The variable tensors TFLite Micro starts from after allocating ``model`` (``ModelT``) and
    after each reset, one array per variable tensor of the main subgraph, in the order of the
    imported function's state inputs: every byte set to the tensor's zero point when it is int8, to 0
    otherwise (``ResetTensorData``)."""
    state = []
    for tensor in listed(model.subgraphs[0].tensors):
        if not tensor.isVariable:
            continue
        dtype = tensor_dtypes()[tensor.type]
        q = tensor.quantization
        zero = int(q.zeroPoint[0]) if dtype == np.int8 and q is not None and q.zeroPoint is not None and len(q.zeroPoint) else 0
        state.append(np.full(tuple(int(d) for d in listed(tensor.shape)), zero, dtype))
    return state


def input_shape(tensor: Any, name: str, given: Sequence[int] | None) -> tuple[tuple[int, ...], bool]:
    """An input's static shape and whether the file marks a dimension of it dynamic: ``given``
    (``--input-shape``), which must keep the file's fixed dimensions, or the file's shape."""
    stored = tuple(int(d) for d in listed(tensor.shape))
    signature = tuple(int(d) for d in tensor.shapeSignature) if tensor.shapeSignature is not None else stored
    if given is None:
        if any(d <= 0 for d in stored):
            raise TfliteImportError(f"input {name!r} has shape {list(stored)} in the file: fix it with --input-shape {name}=D0,D1,...")
        return stored, -1 in signature
    given = tuple(int(d) for d in given)
    if len(given) != len(stored):
        raise TfliteImportError(f"--input-shape {name}: the model's input has rank {len(stored)}, not {len(given)}")
    for k, (fixed, size) in enumerate(zip(signature, given)):
        if fixed != -1 and fixed != size:
            raise TfliteImportError(f"--input-shape {name}: dimension {k} is fixed to {fixed} in the model, not {size}")
    return given, False
