"""The core of :class:`cfmem.builder.GraphBuilder`: the function being built, its insertion
point and scopes, value names, operand checks, inputs, weights and constants, and the
finished module (``output``, ``build``); the op families are mixins over it.

Weights are appended to the blob in creation order, each at an offset aligned
to ``align`` bytes, and read through ``nn.view`` of the function's single
``nn.get_global`` (placed at the top of the function). A view is placed where
the weight is created, so the weights of a branch are viewed inside it.

Every value gets a readable, unique SSA name: the one given, or the op kind
with a counter (``relu3``). A name already taken gets a ``.N`` suffix, except
for function inputs and outputs, whose names callers rely on (taken: an
error). Names ending in ``_<digits>`` are refused because printers treat that
ending as their own uniquing suffix and would not keep it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from xdsl.builder import Builder
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    BytesAttr,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerType,
    Signedness,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    TensorType,
    f16,
    f32,
    f64,
    i1,
    i64,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint
from xdsl.utils.exceptions import VerifyException

from cfmem.dialects import nn_compute as nc
from cfmem.dialects.nn_weights import GetGlobalOp, GlobalOp, ViewOp
from cfmem.dialects.types import static_shape, tensor_bytes
from cfmem.interp.weights import numpy_dtype

Shape = tuple[int, ...]
Operand = SSAValue | float | int | np.ndarray

_NAME = re.compile(r"[A-Za-z_$.-][\w$.-]*")
_PRINTER_SUFFIX = re.compile(r"_\d+$")


class GraphBuildError(ValueError):
    """A graph cannot be built as asked: bad shape, name, scope or argument."""


@dataclass(frozen=True)
class WeightInfo:
    """Where one weight tensor sits in the blob."""

    name: str
    offset: int
    shape: Shape
    nbytes: int


def _round_up(value: int, align: int) -> int:
    return -(-value // align) * align


def _element_type(dtype: np.dtype) -> Attribute:
    if dtype == np.bool_:
        return i1
    if dtype == np.float16:
        return f16
    if np.issubdtype(dtype, np.signedinteger):
        return IntegerType(dtype.itemsize * 8)
    if np.issubdtype(dtype, np.unsignedinteger) and dtype.itemsize in (1, 4, 8):
        return IntegerType(dtype.itemsize * 8, Signedness.UNSIGNED)
    raise GraphBuildError(f"unsupported element type {dtype}: use float32, float16, a signed integer, uint8, uint32, uint64 or bool")


def _float_dtype(*operands: object) -> np.dtype:
    """float16 when a value among ``operands`` is an f16 tensor, else float32: the type of
    a float op's result and of the constants its numbers become (the op's verifier checks
    that its float operands agree)."""
    for v in operands:
        if isinstance(v, SSAValue) and isinstance(v.type, TensorType) and v.type.get_element_type() == f16:
            return np.dtype(np.float16)
    return np.dtype(np.float32)


def _float(shape: Sequence[int], *operands: object) -> TensorType:
    """A float op's result type of ``shape``: f16 if an operand is f16, else f32."""
    return TensorType(f16 if _float_dtype(*operands) == np.float16 else f32, list(shape))


def _dense(array: np.ndarray) -> DenseIntOrFPElementsAttr:
    """An f32, f16, signed integer or bool (i1) array as a dense attribute."""
    if array.dtype == np.bool_:
        ty = TensorType(i1, list(array.shape))
        return DenseIntOrFPElementsAttr.from_list(ty, [int(v) for v in array.reshape(-1)])
    element = f32 if array.dtype == np.float32 else _element_type(array.dtype)
    data = np.ascontiguousarray(array, dtype=array.dtype.newbyteorder("<")).tobytes()
    return DenseIntOrFPElementsAttr(TensorType(element, list(array.shape)), BytesAttr(data))


class GraphBuilderCore:
    """The state of one function being built and the checks every op uses; adds inputs,
    weight views and constants, and leaves the other ops to the mixins of :mod:`cfmem.builder`."""

    def __init__(
        self,
        name: str = "main",
        *,
        blob: str = "weights",
        seed: int = 0,
        scale: float = 0.1,
        align: int = 64,
    ):
        if align < 4 or align & (align - 1):
            raise GraphBuildError(f"align must be a power of two >= 4, got {align}")
        self.func_name = name
        self.blob_name = blob
        self.seed = seed
        self.scale = scale
        self.align = align
        self.weights: list[WeightInfo] = []
        """The weight tensors in blob order."""
        self._blob_end = 0
        self._body = Block()
        self._builder = Builder(InsertPoint.at_end(self._body))
        self._scopes: list[Block] = [self._body]
        self._names: set[str] = set()
        self._counters: Counter[str] = Counter()
        self._args: list[BlockArgument] = []
        self._blob_op: GetGlobalOp | None = None
        self._outputs: list[SSAValue] | None = None
        self._module: ModuleOp | None = None

    # --- names, scopes, shapes ------------------------------------------------

    def _unique(self, name: str) -> str:
        self._check_name(name)
        unique, k = name, 0
        while unique in self._names:
            k += 1
            unique = f"{name}.{k}"
        self._names.add(unique)
        return unique

    @staticmethod
    def _check_name(name: str) -> None:
        if _NAME.fullmatch(name) is None:
            raise GraphBuildError(
                f"invalid name {name!r}: use [A-Za-z0-9_$.-] and do not start with a digit"
            )
        if _PRINTER_SUFFIX.search(name):
            raise GraphBuildError(
                f"name {name!r} ends in _<digits>, which printers use as their own uniquing"
                f" suffix and drop; write {_PRINTER_SUFFIX.sub(lambda m: m[0][1:], name)!r}"
            )

    def _claim(self, name: str, what: str) -> str:
        """``name`` exactly (for inputs, which callers look up by name)."""
        if name in self._names:
            raise GraphBuildError(f"{what} name {name!r} is already used by another value")
        return self._unique(name)

    def _name(self, name: str | None, kind: str) -> str:
        if name is not None:
            return self._unique(name)
        while True:
            candidate = f"{kind}{self._counters[kind]}"
            self._counters[kind] += 1
            if candidate not in self._names:
                return self._unique(candidate)

    def _check_open(self) -> None:
        if self._module is not None:
            raise GraphBuildError("the graph is already built")

    def _check_visible(self, value: SSAValue, what: str) -> None:
        if not isinstance(value, SSAValue):
            raise GraphBuildError(f"{what}: expected a value, got {value!r}")
        owner = value.owner
        block = owner if isinstance(owner, Block) else owner.parent_block()
        if not any(block is scope for scope in self._scopes):
            raise GraphBuildError(
                f"{what}: %{value.name_hint} is not visible here (it was defined in"
                " another branch, or by another builder)"
            )

    @staticmethod
    def shape(value: SSAValue) -> Shape:
        """The static shape of ``value``."""
        return static_shape(value.type)

    @staticmethod
    def _dtype(value: SSAValue) -> np.dtype:
        """The numpy dtype of ``value``'s elements (f32 for anything not a tensor)."""
        ty = value.type
        return numpy_dtype(ty.get_element_type()) if isinstance(ty, TensorType) else np.dtype(np.float32)

    def _infer(self, what: str, name: str, fn: Callable[..., Shape], *args: object) -> Shape:
        try:
            return tuple(fn(*args))
        except ValueError as err:
            raise GraphBuildError(f"{what} %{name}: {err}") from None

    def _operand(
        self, operand: Operand, what: str, dtype: npt.DTypeLike = np.float32
    ) -> SSAValue | np.ndarray:
        """A visible value, or a number or array as a ``dtype`` array of rank >= 1
        (for an integer ``dtype``, only if its values convert exactly)."""
        if isinstance(operand, SSAValue):
            self._check_visible(operand, what)
            return operand
        if isinstance(operand, int | float | np.ndarray | np.generic):
            array = self._exact(np.asarray(operand), np.dtype(dtype), what)
            return array.reshape(array.shape or (1,))
        raise GraphBuildError(f"{what}: expected a value or a number, got {operand!r}")

    @staticmethod
    def _exact(array: np.ndarray, dtype: np.dtype, what: str) -> np.ndarray:
        """``array`` as ``dtype``; to an integer type only if every value converts exactly."""
        converted = array.astype(dtype)
        if dtype.kind == "i" and not np.array_equal(converted, array):
            raise GraphBuildError(f"{what}: {array.tolist()!r} does not convert exactly to {dtype}")
        return converted

    def _operand_shape(self, operand: SSAValue | np.ndarray) -> Shape:
        return operand.shape if isinstance(operand, np.ndarray) else self.shape(operand)

    def _materialize(self, operand: SSAValue | np.ndarray, const_name: str) -> SSAValue:
        """The value, or a new ``nn.constant`` for an array (made once the op is known to fit)."""
        return self.constant(operand, const_name, operand.dtype) if isinstance(operand, np.ndarray) else operand

    def _emit(self, op: Operation, name: str, verify: bool = True) -> SSAValue:
        """Insert ``op`` (its operands already checked), name and verify it."""
        self._check_open()
        op.results[0].name_hint = name
        self._builder.insert(op)
        if verify:
            try:
                op.verify_()  # its own rules; the blob is sized when the module is built
            except VerifyException as err:
                raise GraphBuildError(f"{op.name} %{name}: {err}") from None
        return op.results[0]

    def compute(
        self, cls: type[nc.ComputeOp], operands: Sequence[SSAValue | None], properties: dict[str, Attribute],
        name: str | None = None,
    ) -> SSAValue:  # fmt: skip
        """Any compute op ``cls`` on existing values (``None`` for an absent trailing optional
        operand), its result's shape and element type given by the op's own rules."""
        name = self._name(name, cls.name.removeprefix("nn."))
        present = [v for v in operands if v is not None]  # an absent operand is a trailing optional one
        for k, v in enumerate(present):
            self._check_visible(v, f"{cls.name} operand #{k}")
        probe = cls.create(operands=present, properties=properties)
        try:  # infer_shape reads operands and properties only
            shape, element = probe.infer_shape(), probe.result_element_type()
        except ValueError as err:
            raise GraphBuildError(f"{cls.name} %{name}: {err}") from None
        finally:
            probe.drop_all_references()
        op = cls.create(operands=present, result_types=[TensorType(element, list(shape))], properties=properties)
        return self._emit(op, name)

    # --- function inputs, weights, constants ----------------------------------

    def input(self, name: str, shape: Sequence[int], dtype: npt.DTypeLike = np.float32) -> SSAValue:
        """A new function argument called ``name`` (f32 unless ``dtype`` says an integer or bool type)."""
        self._check_open()
        ty = self._tensor_type(shape, f"input {name!r}")
        if np.dtype(dtype) != np.float32:
            ty = TensorType(_element_type(np.dtype(dtype)), ty.get_shape())
        name = self._claim(name, "input")
        arg = self._body.insert_arg(ty, len(self._body.args))
        arg.name_hint = name
        self._args.append(arg)
        return arg

    def is_input(self, value: SSAValue) -> bool:
        """Whether ``value`` is an argument of the function being built."""
        return any(value is arg for arg in self._args)

    def _tensor_type(self, shape: Sequence[int], what: str, element: Attribute = f32) -> TensorType:
        if not all(isinstance(d, int | np.integer) and d > 0 for d in shape):
            raise GraphBuildError(f"{what}: shape {list(shape)} must be positive integers")
        return TensorType(element, [int(d) for d in shape])

    def _blob(self) -> SSAValue:
        if self._blob_op is None:
            # The blob's size is known only at build(): a placeholder until then.
            self._blob_op = GetGlobalOp(self.blob_name, 0)
            self._blob_op.result.name_hint = self._unique(self.blob_name)
            self._builder.insert(self._blob_op, InsertPoint.at_start(self._body))
        return self._blob_op.result

    def weight(self, name: str, shape: Sequence[int], element: Attribute = f32) -> SSAValue:
        """A new weight tensor (f32 unless ``element`` says) at the end of the blob, viewed here."""
        self._check_open()
        ty = self._tensor_type(shape, f"weight {name!r}", element)
        name = self._unique(name)
        offset = _round_up(self._blob_end, self.align)
        nbytes = tensor_bytes(ty)
        self._blob_end = offset + nbytes
        self.weights.append(WeightInfo(name, offset, static_shape(ty), nbytes))
        # Verified in build(), once the blob has its final size.
        return self._emit(ViewOp(self._blob(), offset, ty), name, verify=False)

    def constant(
        self,
        value: np.ndarray | Sequence[float] | float,
        name: str | None = None,
        dtype: npt.DTypeLike | None = None,
    ) -> SSAValue:
        """A constant tensor in the IR: f32 (i1 for a bool array) unless
        ``dtype`` names a signed integer type."""
        array = np.asarray(value)
        if dtype is not None:
            array = self._exact(array, np.dtype(dtype), "constant")
        elif array.dtype != np.bool_:
            array = array.astype(np.float32)
        if array.size == 0:
            raise GraphBuildError("a constant needs at least one element")
        return self._emit(nc.ConstantOp(_dense(array)), self._name(name, "cst"))

    @property
    def blob_size(self) -> int:
        """Bytes of the weight blob so far (the end of the last weight, aligned)."""
        return _round_up(self._blob_end, self.align)

    # --- finishing -----------------------------------------------------------------

    def output(self, *values: SSAValue, names: Sequence[str] | None = None) -> None:
        """Return ``values`` from the function, renamed to ``names`` if given."""
        self._check_open()
        if len(self._scopes) != 1:
            raise GraphBuildError("output() must be called outside of if branches")
        if self._outputs is not None:
            raise GraphBuildError("output() was already called")
        if names is not None and len(names) != len(values):
            raise GraphBuildError(f"{len(names)} names for {len(values)} outputs")
        for v in values:
            self._check_visible(v, "output")
        if names is not None:
            wanted: dict[SSAValue, str] = {}
            for v, n in zip(values, names, strict=True):
                if wanted.setdefault(v, n) != n:
                    raise GraphBuildError(
                        f"one value cannot be output as both {wanted[v]!r} and {n!r}"
                    )
            if len(set(wanted.values())) != len(wanted):
                raise GraphBuildError(f"output names {list(names)} repeat a name")
            for v, n in wanted.items():
                if n == v.name_hint:
                    continue
                self._check_name(n)
                if isinstance(v, BlockArgument):
                    raise GraphBuildError(
                        f"input %{v.name_hint} cannot be output as {n!r}: inputs keep their names"
                    )
                if n in self._names:
                    raise GraphBuildError(f"output name {n!r} is already used by another value")
            for v, n in wanted.items():
                if n != v.name_hint:
                    self._names.discard(v.name_hint)
                    v.name_hint = self._unique(n)
        self._outputs = list(values)

    def build(self) -> ModuleOp:
        """The verified module; the builder is finished afterwards."""
        if self._module is not None:
            return self._module
        if self._outputs is None:
            raise GraphBuildError("call output(...) before build()")
        self._builder.insert(func.ReturnOp(*self._outputs))
        ops: list[Operation] = []
        if self._blob_op is not None and not self.weights:  # its weights were rolled back
            self._body.erase_op(self._blob_op)
            self._blob_op = None
        if self._blob_op is not None:
            size = self.blob_size
            ops.append(
                GlobalOp(
                    properties={
                        "sym_name": StringAttr(self.blob_name),
                        "size": IntegerAttr(size, i64),
                        "seed": IntegerAttr(self.seed, i64),
                        "scale": FloatAttr(self.scale, f64),
                    }
                )
            )
            sized = GetGlobalOp(self.blob_name, size)
            sized.result.name_hint = self._blob_op.result.name_hint
            self._builder.insert(sized, InsertPoint.before(self._blob_op))
            self._blob_op.result.replace_all_uses_with(sized.result)
            self._body.erase_op(self._blob_op)
            self._blob_op = sized
        fn_type = ([a.type for a in self._args], [v.type for v in self._outputs])
        ops.append(func.FuncOp(self.func_name, fn_type, Region(self._body)))
        module = ModuleOp(ops)
        module.verify()
        self._module = module
        return module
