"""Build nn modules from Python.

``GraphBuilder`` writes one ``func.func`` and one ``nn.global`` weight blob.
Each method adds one op at the current insertion point and returns its
result; result types come from the shape functions of
:mod:`cfmem.dialects.shapes`, so a shape mistake raises a
:class:`GraphBuildError` naming the op at the line that made it, not later in
the verifier::

    b = GraphBuilder("main", seed=1, scale=0.1)
    x = b.input("image", (1, 3, 64, 64))
    y = b.relu(b.conv2d(x, 16, 3, stride=2, pad=1, name="conv1"))
    loud = b.cmp("gt", b.reduce_mean(x, axes=(1, 2, 3)), 0.5)
    (z,) = b.if_(loud, lambda b: [b.relu(y)], lambda b: [b.sigmoid(y)])
    b.output(z, names=["out"])
    module = b.build()

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
from math import prod

import numpy as np
import numpy.typing as npt
from xdsl.builder import Builder
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    BoolAttr,
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
from cfmem.dialects import shapes
from cfmem.dialects.nn_control import IfOp, LoopOp, YieldOp
from cfmem.dialects.nn_weights import GetGlobalOp, GlobalOp, ReshapeOp, ViewOp
from cfmem.dialects.types import static_shape, tensor_bytes
from cfmem.interp.weights import numpy_dtype

Shape = tuple[int, ...]
Operand = SSAValue | float | int | np.ndarray
BranchFn = Callable[["GraphBuilder"], "Sequence[SSAValue] | SSAValue | None"]

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


def _pair(value: int | Sequence[int], what: str) -> tuple[int, int]:
    if isinstance(value, int | np.integer):
        return (int(value), int(value))
    if len(value) != 2:
        raise GraphBuildError(f"{what} must be an int or a pair, got {value!r}")
    return (int(value[0]), int(value[1]))


def _pads(value: int | Sequence[int]) -> tuple[int, int, int, int]:
    """``p``, ``(ph, pw)`` or ``(top, left, bottom, right)``."""
    if isinstance(value, int | np.integer):
        return (int(value),) * 4
    if len(value) == 2:
        return (int(value[0]), int(value[1]), int(value[0]), int(value[1]))
    if len(value) == 4:
        return tuple(int(v) for v in value)  # type: ignore[return-value]
    raise GraphBuildError(f"pad must be an int, a pair or 4 values, got {value!r}")


def _element_type(dtype: np.dtype) -> Attribute:
    if dtype == np.bool_:
        return i1
    if dtype == np.float16:
        return f16
    if np.issubdtype(dtype, np.signedinteger):
        return IntegerType(dtype.itemsize * 8)
    if dtype == np.uint8:
        return IntegerType(8, Signedness.UNSIGNED)
    raise GraphBuildError(f"unsupported element type {dtype}: use float32, float16, a signed integer, uint8 or bool")


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


class GraphBuilder:
    """Builds one function of nn ops and the weight blob it reads."""

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

    # --- compute ops ------------------------------------------------------------

    def conv2d(
        self,
        x: SSAValue,
        out_channels: int,
        kernel: int | Sequence[int],
        stride: int | Sequence[int] = 1,
        pad: int | Sequence[int] = 0,
        dilation: int | Sequence[int] = 1,
        groups: int = 1,
        bias: bool = True,
        name: str | None = None,
    ) -> SSAValue:
        """Convolution with new weights ``<name>_w`` (OIHW) and ``<name>_b``."""
        self._check_visible(x, "conv2d input")
        name = self._name(name, "conv")
        xs = self.shape(x)
        kh, kw = _pair(kernel, "kernel")
        strides, pads, dilations = _pair(stride, "stride"), _pads(pad), _pair(dilation, "dilation")
        in_per_group = xs[1] // groups if len(xs) == 4 and groups > 0 else 0
        w_shape = (out_channels, in_per_group, kh, kw)
        out = self._infer(
            "nn.conv2d", name, shapes.conv2d, xs, w_shape, strides, pads, dilations, groups
        )
        w = self.weight(f"{name}_w", w_shape)
        b = self.weight(f"{name}_b", (out_channels,)) if bias else None
        props: dict[str, Attribute] = {}
        if strides != (1, 1):
            props["strides"] = nc.i64_array(strides)
        if pads != (0, 0, 0, 0):
            props["pads"] = nc.i64_array(pads)
        if dilations != (1, 1):
            props["dilations"] = nc.i64_array(dilations)
        if groups != 1:
            props["groups"] = IntegerAttr(groups, i64)
        op = nc.Conv2dOp(operands=[x, w, b], result_types=[_float(out, x)], properties=props)
        return self._emit(op, name)

    def dense(
        self, x: SSAValue, out_features: int, *, bias: bool = True, name: str | None = None
    ) -> SSAValue:
        """``x @ W.T + b`` (nn.gemm, trans_b) with new ``<name>_w`` [out, in] and ``<name>_b``.

        Without ``bias`` the gemm adds a zero constant.
        """
        self._check_visible(x, "dense input")
        name = self._name(name, "fc")
        xs = self.shape(x)
        w_shape = (out_features, xs[-1] if xs else 0)
        c_shape = (out_features,)
        self._infer("nn.gemm", name, shapes.gemm, xs, w_shape, c_shape, True)
        w = self.weight(f"{name}_w", w_shape)
        c = (
            self.weight(f"{name}_b", c_shape)
            if bias
            else self.constant(np.zeros(c_shape), f"{name}_zero")
        )
        return self._gemm(x, w, c, True, name)

    def gemm(
        self,
        a: SSAValue,
        b: SSAValue,
        c: Operand,
        *,
        trans_b: bool = False,
        name: str | None = None,
    ) -> SSAValue:
        """``a @ (b.T if trans_b else b) + c`` on existing values (see ``dense``)."""
        if not isinstance(b, SSAValue):
            raise GraphBuildError(
                "gemm takes existing values; use dense(x, out_features) for new weights"
            )
        self._check_visible(a, "gemm a")
        self._check_visible(b, "gemm b")
        name = self._name(name, "gemm")
        return self._gemm(a, b, self._operand(c, "gemm c", _float_dtype(a, b)), trans_b, name)

    def _gemm(
        self, a: SSAValue, b: SSAValue, c: SSAValue | np.ndarray, trans_b: bool, name: str
    ) -> SSAValue:
        c_shape = self._operand_shape(c)
        out = self._infer(
            "nn.gemm", name, shapes.gemm, self.shape(a), self.shape(b), c_shape, trans_b
        )
        c = self._materialize(c, f"{name}_c")
        props = {"trans_b": BoolAttr.from_bool(True)} if trans_b else {}
        op = nc.GemmOp(operands=[a, b, c], result_types=[_float(out, a, b, c)], properties=props)
        return self._emit(op, name)

    def matmul(self, a: SSAValue, b: SSAValue, name: str | None = None) -> SSAValue:
        """numpy ``a @ b`` for operands of rank >= 2."""
        self._check_visible(a, "matmul lhs")
        self._check_visible(b, "matmul rhs")
        name = self._name(name, "matmul")
        out = self._infer("nn.matmul", name, shapes.matmul, self.shape(a), self.shape(b))
        return self._emit(nc.MatmulOp(operands=[a, b], result_types=[_float(out, a, b)]), name)

    def _binary(
        self, cls: type[nc.ElementwiseBinaryOp], kind: str, a: Operand, b: Operand, name: str | None
    ) -> SSAValue:
        name = self._name(name, kind)
        dtype = _float_dtype(a, b)
        a, b = self._operand(a, f"{kind} lhs", dtype), self._operand(b, f"{kind} rhs", dtype)
        out = self._infer(
            cls.name, name, shapes.broadcast, self._operand_shape(a), self._operand_shape(b)
        )
        a, b = self._materialize(a, f"{name}_a"), self._materialize(b, f"{name}_b")
        return self._emit(cls(a, b, _float(out, a, b)), name)

    def add(self, a: Operand, b: Operand, name: str | None = None) -> SSAValue:
        """Elementwise ``a + b`` with broadcasting; a number becomes a constant."""
        return self._binary(nc.AddOp, "add", a, b, name)

    def sub(self, a: Operand, b: Operand, name: str | None = None) -> SSAValue:
        return self._binary(nc.SubOp, "sub", a, b, name)

    def mul(self, a: Operand, b: Operand, name: str | None = None) -> SSAValue:
        return self._binary(nc.MulOp, "mul", a, b, name)

    def div(self, a: Operand, b: Operand, name: str | None = None) -> SSAValue:
        return self._binary(nc.DivOp, "div", a, b, name)

    def pow(self, a: Operand, b: Operand, name: str | None = None) -> SSAValue:
        """Elementwise ``a ** b`` with broadcasting."""
        return self._binary(nc.PowOp, "pow", a, b, name)

    def max(self, a: Operand, b: Operand, name: str | None = None) -> SSAValue:
        """Elementwise ``max(a, b)`` with broadcasting (NaN wins; of equal values, ``b``)."""
        return self._binary(nc.MaxOp, "max", a, b, name)

    def min(self, a: Operand, b: Operand, name: str | None = None) -> SSAValue:
        """Elementwise ``min(a, b)`` with broadcasting (NaN wins; of equal values, ``b``)."""
        return self._binary(nc.MinOp, "min", a, b, name)

    def cmp(self, predicate: str, a: Operand, b: Operand, name: str | None = None) -> SSAValue:
        """Elementwise comparison (eq, ne, lt, le, gt, ge) giving an i1 tensor.

        Values compare as f32 or as signed integers (both of one type); a
        number or array becomes a constant of the other operand's type.
        """
        if predicate not in nc.CMP_PREDICATES:
            raise GraphBuildError(
                f"unknown predicate {predicate!r}, expected one of {', '.join(nc.CMP_PREDICATES)}"
            )
        name = self._name(name, "cond")
        like = next((v for v in (a, b) if isinstance(v, SSAValue)), None)
        dtype = np.float32 if like is None else self._dtype(like)
        a, b = self._operand(a, "cmp lhs", dtype), self._operand(b, "cmp rhs", dtype)
        out = self._infer(
            "nn.cmp", name, shapes.broadcast, self._operand_shape(a), self._operand_shape(b)
        )
        a, b = self._materialize(a, f"{name}_a"), self._materialize(b, f"{name}_b")
        return self._emit(nc.CmpOp(predicate, a, b, TensorType(i1, list(out))), name)

    def _logical(self, cls: type[nc.LogicalBinaryOp], kind: str, a: SSAValue, b: SSAValue, name: str | None) -> SSAValue:
        name = self._name(name, kind)
        self._check_visible(a, f"{kind} lhs")
        self._check_visible(b, f"{kind} rhs")
        out = self._infer(cls.name, name, shapes.broadcast, self.shape(a), self.shape(b))
        return self._emit(cls(a, b, TensorType(i1, list(out))), name)

    def logical_and(self, a: SSAValue, b: SSAValue, name: str | None = None) -> SSAValue:
        """Elementwise ``a and b`` of i1 tensors, with broadcasting."""
        return self._logical(nc.AndOp, "and", a, b, name)

    def logical_or(self, a: SSAValue, b: SSAValue, name: str | None = None) -> SSAValue:
        return self._logical(nc.OrOp, "or", a, b, name)

    def logical_xor(self, a: SSAValue, b: SSAValue, name: str | None = None) -> SSAValue:
        return self._logical(nc.XorOp, "xor", a, b, name)

    def cast(self, x: SSAValue, dtype: npt.DTypeLike, name: str | None = None) -> SSAValue:
        """``x`` converted to ``dtype`` (float32, float16, bool, int8, uint8, int32 or int64) as ONNX Cast does."""
        self._check_visible(x, "cast input")
        result = TensorType(_element_type(np.dtype(dtype)) if np.dtype(dtype) != np.float32 else f32, self.shape(x))
        return self._emit(nc.CastOp(x, result), self._name(name, "cast"))

    def logical_not(self, x: SSAValue, name: str | None = None) -> SSAValue:
        self._check_visible(x, "not input")
        return self._emit(nc.NotOp(x), self._name(name, "not"))

    def select(self, cond: SSAValue, on_true: Operand, on_false: Operand, name: str | None = None) -> SSAValue:
        """``on_true`` where the i1 ``cond`` holds, else ``on_false``; all three broadcast
        together, and a number becomes an f32 constant."""
        name = self._name(name, "select")
        self._check_visible(cond, "select condition")
        dtype = _float_dtype(on_true, on_false)
        a, b = self._operand(on_true, "select on_true", dtype), self._operand(on_false, "select on_false", dtype)
        out = self._infer(
            "nn.select", name, shapes.broadcast, self.shape(cond), self._operand_shape(a), self._operand_shape(b)
        )
        a, b = self._materialize(a, f"{name}_t"), self._materialize(b, f"{name}_f")
        return self._emit(nc.SelectOp(cond, a, b, _float(out, a, b)), name)

    def fmod(self, a: Operand, b: Operand, name: str | None = None) -> SSAValue:
        """Elementwise C ``fmod(a, b)`` (the sign of ``a``) with broadcasting."""
        return self._binary(nc.FmodOp, "fmod", a, b, name)

    def mod(self, a: SSAValue, b: Operand, name: str | None = None) -> SSAValue:
        """Elementwise ``a mod b`` of integer tensors (the sign of ``b``) with broadcasting;
        a number or array becomes a constant of ``a``'s type."""
        name = self._name(name, "mod")
        self._check_visible(a, "mod lhs")
        dtype = self._dtype(a)
        b = self._operand(b, "mod rhs", dtype)
        out = self._infer("nn.mod", name, shapes.broadcast, self.shape(a), self._operand_shape(b))
        b = self._materialize(b, f"{name}_b")
        return self._emit(nc.ModOp(a, b, TensorType(a.type.get_element_type(), list(out))), name)

    def cumsum(
        self, x: SSAValue, axis: int, exclusive: bool = False, reverse: bool = False, name: str | None = None
    ) -> SSAValue:
        """Running sums of ``x`` along ``axis`` (ONNX CumSum)."""
        self._check_visible(x, "cumsum input")
        name = self._name(name, "cumsum")
        try:
            axis = shapes.normalize_axis(axis, len(self.shape(x)))
        except ValueError as err:
            raise GraphBuildError(f"nn.cumsum %{name}: {err}") from None
        props = {"axis": IntegerAttr(axis, i64)}
        if exclusive:
            props["exclusive"] = BoolAttr.from_bool(True)
        if reverse:
            props["reverse"] = BoolAttr.from_bool(True)
        return self._emit(nc.CumsumOp(operands=[x], result_types=[x.type], properties=props), name)

    def _unary(
        self,
        cls: type[nc.ElementwiseUnaryOp],
        kind: str,
        x: SSAValue,
        name: str | None,
        *args: float,
    ) -> SSAValue:
        self._check_visible(x, f"{kind} input")
        return self._emit(cls(x, *args), self._name(name, kind))

    def relu(self, x: SSAValue, name: str | None = None) -> SSAValue:
        return self._unary(nc.ReluOp, "relu", x, name)

    def sigmoid(self, x: SSAValue, name: str | None = None) -> SSAValue:
        return self._unary(nc.SigmoidOp, "sigmoid", x, name)

    def tanh(self, x: SSAValue, name: str | None = None) -> SSAValue:
        return self._unary(nc.TanhOp, "tanh", x, name)

    def sqrt(self, x: SSAValue, name: str | None = None) -> SSAValue:
        return self._unary(nc.SqrtOp, "sqrt", x, name)

    def exp(self, x: SSAValue, name: str | None = None) -> SSAValue:
        return self._unary(nc.ExpOp, "exp", x, name)

    def neg(self, x: SSAValue, name: str | None = None) -> SSAValue:
        return self._unary(nc.NegOp, "neg", x, name)

    def log(self, x: SSAValue, name: str | None = None) -> SSAValue:
        return self._unary(nc.LogOp, "log", x, name)

    def abs(self, x: SSAValue, name: str | None = None) -> SSAValue:
        return self._unary(nc.AbsOp, "abs", x, name)

    def floor(self, x: SSAValue, name: str | None = None) -> SSAValue:
        return self._unary(nc.FloorOp, "floor", x, name)

    def ceil(self, x: SSAValue, name: str | None = None) -> SSAValue:
        return self._unary(nc.CeilOp, "ceil", x, name)

    def round(self, x: SSAValue, name: str | None = None) -> SSAValue:
        return self._unary(nc.RoundOp, "round", x, name)

    def sign(self, x: SSAValue, name: str | None = None) -> SSAValue:
        return self._unary(nc.SignOp, "sign", x, name)

    def erf(self, x: SSAValue, name: str | None = None) -> SSAValue:
        return self._unary(nc.ErfOp, "erf", x, name)

    def sin(self, x: SSAValue, name: str | None = None) -> SSAValue:
        return self._unary(nc.SinOp, "sin", x, name)

    def cos(self, x: SSAValue, name: str | None = None) -> SSAValue:
        return self._unary(nc.CosOp, "cos", x, name)

    def reciprocal(self, x: SSAValue, name: str | None = None) -> SSAValue:
        return self._unary(nc.ReciprocalOp, "reciprocal", x, name)

    def clamp(self, x: SSAValue, lo: float, hi: float, name: str | None = None) -> SSAValue:
        """``min(max(x, lo), hi)``; ``clamp(x, 0, 6)`` is relu6."""
        if lo > hi:
            raise GraphBuildError(f"clamp: min {lo} exceeds max {hi}")
        return self._unary(nc.ClampOp, "clamp", x, name, lo, hi)

    def _pool(
        self,
        cls: type[nc.Pool2dOp],
        kind: str,
        x: SSAValue,
        kernel: int | Sequence[int],
        stride: int | Sequence[int] | None,
        pad: int | Sequence[int],
        name: str | None,
        dilation: int | Sequence[int] = 1,
    ) -> SSAValue:
        self._check_visible(x, f"{kind} input")
        name = self._name(name, kind)
        kernel = _pair(kernel, "kernel")
        strides = kernel if stride is None else _pair(stride, "stride")
        pads = _pads(pad)
        dilations = _pair(dilation, "dilation")
        out = self._infer(cls.name, name, shapes.pool2d, self.shape(x), kernel, strides, pads, dilations)
        props: dict[str, Attribute] = {"kernel": nc.i64_array(kernel)}
        if strides != (1, 1):
            props["strides"] = nc.i64_array(strides)
        if pads != (0, 0, 0, 0):
            props["pads"] = nc.i64_array(pads)
        if dilations != (1, 1):
            props["dilations"] = nc.i64_array(dilations)
        return self._emit(cls(operands=[x], result_types=[_float(out, x)], properties=props), name)

    def max_pool2d(
        self, x: SSAValue, kernel, stride=None, pad=0, name: str | None = None, dilation=1
    ) -> SSAValue:
        """Max pooling; ``stride`` defaults to the kernel."""
        return self._pool(nc.MaxPool2dOp, "maxpool", x, kernel, stride, pad, name, dilation)

    def avg_pool2d(
        self, x: SSAValue, kernel, stride=None, pad=0, name: str | None = None, dilation=1
    ) -> SSAValue:
        """Average pooling (padding not counted); ``stride`` defaults to the kernel."""
        return self._pool(nc.AvgPool2dOp, "avgpool", x, kernel, stride, pad, name, dilation)

    def global_avg_pool(self, x: SSAValue, name: str | None = None) -> SSAValue:
        """Mean over H and W of an NCHW tensor, giving N x C x 1 x 1."""
        self._check_visible(x, "global_avg_pool input")
        name = self._name(name, "gap")
        xs = self.shape(x)
        if len(xs) != 4:
            raise GraphBuildError(
                f"nn.global_avg_pool %{name}: expects a rank-4 input, got {list(xs)}"
            )
        out = self._infer(
            "nn.global_avg_pool", name, shapes.pool2d, xs, xs[2:], (1, 1), (0, 0, 0, 0)
        )
        return self._emit(nc.GlobalAvgPoolOp(operands=[x], result_types=[_float(out, x)]), name)

    def _reduce(
        self, cls: type[nc.ReduceOp], kind: str, x: SSAValue, axes: Sequence[int], keepdims: bool, name: str | None
    ) -> SSAValue:
        self._check_visible(x, f"{cls.name[3:]} input")
        name = self._name(name, kind)
        axes = [int(a) for a in axes]
        out = self._infer(cls.name, name, shapes.reduce, self.shape(x), axes, keepdims)
        props: dict[str, Attribute] = {"axes": nc.i64_array(axes)}
        if not keepdims:
            props["keepdims"] = BoolAttr.from_bool(False)
        return self._emit(cls(operands=[x], result_types=[_float(out, x)], properties=props), name)

    def reduce_mean(
        self, x: SSAValue, axes: Sequence[int], keepdims: bool = True, name: str | None = None
    ) -> SSAValue:
        return self._reduce(nc.ReduceMeanOp, "mean", x, axes, keepdims, name)

    def reduce_sum(
        self, x: SSAValue, axes: Sequence[int], keepdims: bool = True, name: str | None = None
    ) -> SSAValue:
        return self._reduce(nc.ReduceSumOp, "sum", x, axes, keepdims, name)

    def reduce_max(
        self, x: SSAValue, axes: Sequence[int], keepdims: bool = True, name: str | None = None
    ) -> SSAValue:
        """Maximum over ``axes``, scanned from the first element in row-major order (NaN only
        from a first element that is NaN; of equal elements, the first)."""
        return self._reduce(nc.ReduceMaxOp, "rmax", x, axes, keepdims, name)

    def reduce_min(
        self, x: SSAValue, axes: Sequence[int], keepdims: bool = True, name: str | None = None
    ) -> SSAValue:
        """Minimum over ``axes``, scanned as :meth:`reduce_max` (NaN only from a first element
        that is NaN; of equal elements, the first)."""
        return self._reduce(nc.ReduceMinOp, "rmin", x, axes, keepdims, name)

    def reduce_prod(
        self, x: SSAValue, axes: Sequence[int], keepdims: bool = True, name: str | None = None
    ) -> SSAValue:
        return self._reduce(nc.ReduceProdOp, "prod", x, axes, keepdims, name)

    def _arg_extreme(
        self, cls: type[nc.ArgExtremeOp], kind: str, x: SSAValue, axis: int, keepdims: bool, select_last_index: bool,
        name: str | None,
    ) -> SSAValue:
        self._check_visible(x, f"{cls.name[3:]} input")
        name = self._name(name, kind)
        out = self._infer(cls.name, name, shapes.reduce, self.shape(x), [int(axis)], keepdims)
        props: dict[str, Attribute] = {"axis": IntegerAttr(int(axis), i64)}
        if not keepdims:
            props["keepdims"] = BoolAttr.from_bool(False)
        if select_last_index:
            props["select_last_index"] = BoolAttr.from_bool(True)
        return self._emit(cls(operands=[x], result_types=[TensorType(i64, list(out))], properties=props), name)

    def arg_max(
        self, x: SSAValue, axis: int, keepdims: bool = True, select_last_index: bool = False, name: str | None = None
    ) -> SSAValue:
        """The i64 index of the largest element along ``axis`` (the first of ties, or the last)."""
        return self._arg_extreme(nc.ArgMaxOp, "argmax", x, axis, keepdims, select_last_index, name)

    def arg_min(
        self, x: SSAValue, axis: int, keepdims: bool = True, select_last_index: bool = False, name: str | None = None
    ) -> SSAValue:
        """The i64 index of the smallest element along ``axis`` (the first of ties, or the last)."""
        return self._arg_extreme(nc.ArgMinOp, "argmin", x, axis, keepdims, select_last_index, name)

    def softmax(self, x: SSAValue, axis: int = -1, name: str | None = None) -> SSAValue:
        self._check_visible(x, "softmax input")
        name = self._name(name, "softmax")

        def check_axis(shape: Shape, axis: int) -> Shape:
            shapes.normalize_axis(axis, len(shape))
            return shape

        self._infer("nn.softmax", name, check_axis, self.shape(x), axis)
        props = {"axis": IntegerAttr(axis, i64)} if axis != -1 else {}
        return self._emit(nc.SoftmaxOp(operands=[x], result_types=[x.type], properties=props), name)

    def concat(self, values: Sequence[SSAValue], axis: int, name: str | None = None) -> SSAValue:
        for v in values:
            self._check_visible(v, "concat operand")
        name = self._name(name, "concat")
        out = self._infer("nn.concat", name, shapes.concat, [self.shape(v) for v in values], axis)
        props = {"axis": IntegerAttr(axis, i64)}
        return self._emit(
            nc.ConcatOp(operands=[list(values)], result_types=[_float(out, *values)], properties=props), name
        )

    def transpose(self, x: SSAValue, perm: Sequence[int], name: str | None = None) -> SSAValue:
        self._check_visible(x, "transpose input")
        name = self._name(name, "transpose")
        perm = [int(p) for p in perm]
        out = self._infer("nn.transpose", name, shapes.transpose, self.shape(x), perm)
        props = {"perm": nc.i64_array(perm)}
        return self._emit(
            nc.TransposeOp(operands=[x], result_types=[TensorType(x.type.get_element_type(), list(out))], properties=props), name
        )

    def reshape(self, x: SSAValue, shape: Sequence[int], name: str | None = None) -> SSAValue:
        """Same elements in a new shape; one dimension may be -1 (inferred)."""
        self._check_visible(x, "reshape input")
        name = self._name(name, "reshape")
        count = prod(self.shape(x))
        dims = [int(d) for d in shape]
        if dims.count(-1) > 1 or any(d == 0 or d < -1 for d in dims):
            raise GraphBuildError(f"nn.reshape %{name}: bad target shape {dims}")
        if -1 in dims:
            known = prod(d for d in dims if d != -1)
            if count % known:
                raise GraphBuildError(
                    f"nn.reshape %{name}: cannot reshape {list(self.shape(x))} to {dims}"
                )
            dims[dims.index(-1)] = count // known
        if prod(dims) != count:
            raise GraphBuildError(
                f"nn.reshape %{name}: {list(self.shape(x))} has {count} elements,"
                f" {dims} has {prod(dims)}"
            )
        ty = TensorType(x.type.get_element_type(), dims)
        return self._emit(ReshapeOp(x, ty), name)

    def slice(
        self,
        x: SSAValue,
        starts: Sequence[int],
        ends: Sequence[int],
        axes: Sequence[int] | None = None,
        steps: Sequence[int] | None = None,
        name: str | None = None,
    ) -> SSAValue:
        """ONNX Slice of ``x`` (any element type); see ``shapes.slice_bounds``.

        ``axes`` and ``steps`` are recorded only where they differ from their
        defaults (the first ``len(starts)`` axes, steps of 1).
        """
        self._check_visible(x, "slice input")
        name = self._name(name, "slice")
        starts, ends = [int(v) for v in starts], [int(v) for v in ends]
        axes = None if axes is None else [int(a) for a in axes]
        steps = None if steps is None else [int(s) for s in steps]
        out = self._infer("nn.slice", name, shapes.slice_, self.shape(x), starts, ends, axes, steps)
        props: dict[str, Attribute] = {"starts": nc.i64_array(starts), "ends": nc.i64_array(ends)}
        if axes is not None and axes != list(range(len(starts))):
            props["axes"] = nc.i64_array(axes)
        if steps is not None and any(s != 1 for s in steps):
            props["steps"] = nc.i64_array(steps)
        ty = TensorType(x.type.get_element_type(), list(out))
        return self._emit(nc.SliceOp(operands=[x], result_types=[ty], properties=props), name)

    def _indexed_read(
        self, cls: type[nc.IndexedReadOp], kind: str, shape_rule: Callable[..., Shape],
        data: SSAValue, indices: SSAValue, axis: int, name: str | None,
    ) -> SSAValue:  # fmt: skip
        self._check_visible(data, f"{kind} data")
        self._check_visible(indices, f"{kind} indices")
        name = self._name(name, kind)
        out = self._infer(cls.name, name, shape_rule, self.shape(data), self.shape(indices), int(axis))
        ty = TensorType(data.type.get_element_type(), list(out))
        props = {"axis": IntegerAttr(int(axis), i64)}
        return self._emit(cls(operands=[data, indices], result_types=[ty], properties=props), name)

    def gather(self, data: SSAValue, indices: SSAValue, axis: int = 0, name: str | None = None) -> SSAValue:
        """ONNX Gather of ``data`` (any element type) at the run-time integer ``indices`` along ``axis``."""
        return self._indexed_read(nc.GatherOp, "gather", shapes.gather, data, indices, axis, name)

    def gather_elements(self, data: SSAValue, indices: SSAValue, axis: int = 0, name: str | None = None) -> SSAValue:
        """ONNX GatherElements of ``data`` at the run-time integer ``indices`` along ``axis``."""
        return self._indexed_read(nc.GatherElementsOp, "gather_elements", shapes.gather_elements, data, indices, axis, name)

    def top_k(self, x: SSAValue, k: int, axis: int = -1, largest: bool = True, name: str | None = None) -> SSAValue:
        """The i64 positions of the ``k`` largest (smallest) elements of ``x`` along ``axis``,
        best first, ties by position (ONNX TopK's Indices)."""
        self._check_visible(x, "top_k input")
        name = self._name(name, "top_k")
        out = self._infer("nn.top_k", name, shapes.top_k, self.shape(x), int(k), int(axis))
        props: dict[str, Attribute] = {"k": IntegerAttr(int(k), i64), "axis": IntegerAttr(int(axis), i64)}
        if not largest:
            props["largest"] = BoolAttr.from_bool(False)
        return self._emit(nc.TopKOp(operands=[x], result_types=[TensorType(i64, list(out))], properties=props), name)

    def pad(
        self,
        x: SSAValue,
        pads: Sequence[int],
        mode: str = "constant",
        value: float = 0.0,
        name: str | None = None,
    ) -> SSAValue:
        """ONNX Pad: ``pads`` holds every axis' begin pad, then every axis' end pad;
        ``mode`` is constant (``value``), reflect (numpy's) or edge."""
        self._check_visible(x, "pad input")
        name = self._name(name, "pad")
        pads = [int(p) for p in pads]
        out = self._infer("nn.pad", name, shapes.pad, self.shape(x), pads, mode)
        props: dict[str, Attribute] = {"pads": nc.i64_array(pads)}
        if mode != "constant":
            props["mode"] = StringAttr(mode)
        elif value != 0.0:
            props["value"] = FloatAttr(float(value), f32)
        return self._emit(nc.PadOp(operands=[x], result_types=[_float(out, x)], properties=props), name)

    def flatten(self, x: SSAValue, name: str | None = None) -> SSAValue:
        """``N x ...`` to ``N x (product of the rest)``."""
        return self.reshape(x, (self.shape(x)[0], -1), name)

    # --- control flow -------------------------------------------------------------

    def if_(
        self,
        cond: SSAValue,
        then_fn: BranchFn,
        else_fn: BranchFn,
        *,
        names: Sequence[str] | None = None,
        name: str | None = None,
    ) -> list[SSAValue]:
        """``nn.if``: each callable builds its branch with this builder and
        returns the values to yield (a list, one value, or None for none).

        Both branches must yield the same types. Returns the if's results,
        named ``names`` or ``<name>`` / ``<name>r<i>``.
        """
        self._check_open()
        self._check_visible(cond, "if condition")
        ct = cond.type
        if not (
            isinstance(ct, TensorType) and ct.get_element_type() == i1 and prod(ct.get_shape()) == 1
        ):
            raise GraphBuildError(
                f"if condition must be a one-element i1 tensor (from cmp), got {ct}"
            )
        base = self._name(name, "if")
        n_weights, blob_end = len(self.weights), self._blob_end
        blocks: list[Block] = []
        try:
            then_vals = self._branch(then_fn, f"then branch of %{base}", blocks)
            else_vals = self._branch(else_fn, f"else branch of %{base}", blocks)
            then_types = [v.type for v in then_vals]
            else_types = [v.type for v in else_vals]
            if then_types != else_types:
                fmt = lambda ts: "(" + ", ".join(map(str, ts)) + ")"  # noqa: E731
                raise GraphBuildError(
                    f"nn.if %{base}: the then branch yields {fmt(then_types)}"
                    f" but the else branch yields {fmt(else_types)}"
                )
            if names is not None and len(names) != len(then_vals):
                raise GraphBuildError(
                    f"nn.if %{base}: {len(names)} names for {len(then_vals)} results"
                )
        except BaseException:
            # Leave no trace of the failed if: no uses of outer values, no weights.
            for block in blocks:
                for op in reversed(list(block.ops)):
                    block.erase_op(op, safe_erase=False)
            del self.weights[n_weights:]
            self._blob_end = blob_end
            raise
        op = IfOp(cond, then_types, Region(blocks[0]), Region(blocks[1]))
        self._builder.insert(op)
        for i, result in enumerate(op.results):
            if names is not None:
                result.name_hint = self._unique(names[i])
            else:
                result.name_hint = base if len(op.results) == 1 else self._unique(f"{base}r{i}")
        return list(op.results)

    def loop(
        self,
        trip_count: SSAValue | int,
        inits: Sequence[SSAValue],
        body_fn: Callable[..., Sequence[SSAValue]],
        *,
        cond: SSAValue | None = None,
        scan_length: int | None = None,
        names: Sequence[str] | None = None,
        name: str | None = None,
    ) -> list[SSAValue]:
        """``nn.loop``: ``body_fn(b, i, c, *carried)`` builds one iteration with this
        builder and returns ``[next condition, *next carried values, *scan elements]``.

        ``trip_count`` is a one-element i64 tensor or an int (a constant);
        ``cond`` the condition before the first iteration (default: a constant
        true, so with a constant-true next condition the loop is counted).
        Scan elements are stacked into results of leading length ``scan_length``.
        Returns the final carried values, then the scan outputs.
        """
        self._check_open()
        base = self._name(name, "loop")
        if isinstance(trip_count, int):
            trip_count = self.constant(np.array(trip_count), name=f"{base}_trips", dtype=np.int64)
        if cond is None:
            cond = self.constant(np.array(True), name=f"{base}_go")
        for v in (trip_count, cond, *inits):
            self._check_visible(v, f"operand of %{base}")
        arg_types = [TensorType(i64, []), TensorType(i1, []), *(v.type for v in inits)]
        n_weights, blob_end = len(self.weights), self._blob_end
        blocks: list[Block] = []
        op: LoopOp | None = None
        try:
            values = self._branch(
                lambda b: body_fn(b, *blocks[0].args), f"body of %{base}", blocks, arg_types
            )
            scans = values[1 + len(inits) :]
            if scans and scan_length is None:
                raise GraphBuildError(f"nn.loop %{base}: scan elements need a scan_length")
            result_types = [v.type for v in inits] + [
                TensorType(v.type.get_element_type(), [scan_length, *v.type.get_shape()]) for v in scans
            ]
            op = LoopOp(trip_count, cond, inits, result_types, Region(blocks[0]))
            op.verify_()  # its own rules; the blob is sized when the module is built
        except BaseException as err:
            for block in blocks:
                for inner in reversed(list(block.ops)):
                    block.erase_op(inner, safe_erase=False)
            if op is not None:  # no uses of the operands either
                op.drop_all_references()
            del self.weights[n_weights:]
            self._blob_end = blob_end
            if isinstance(err, VerifyException):
                raise GraphBuildError(f"nn.loop %{base}: {err}") from None
            raise
        self._builder.insert(op)
        for i, result in enumerate(op.results):
            result.name_hint = self._unique(names[i]) if names is not None else (
                base if len(op.results) == 1 else self._unique(f"{base}r{i}"))
        return list(op.results)

    def _branch(
        self, fn: BranchFn, what: str, blocks: list[Block], arg_types: Sequence[Attribute] = ()
    ) -> list[SSAValue]:
        block = Block(arg_types=arg_types)
        for arg, hint in zip(block.args, ("i", "c", *(f"carried{k}" for k in range(len(arg_types))))):
            arg.name_hint = self._unique(hint)
        blocks.append(block)
        saved = self._builder.insertion_point
        self._builder.insertion_point = InsertPoint.at_end(block)
        self._scopes.append(block)
        try:
            got = fn(self)
            values = [] if got is None else [got] if isinstance(got, SSAValue) else list(got)
            for v in values:
                self._check_visible(v, f"value yielded by the {what}")
            self._builder.insert(YieldOp(*values))
        finally:
            self._scopes.pop()
            self._builder.insertion_point = saved
        return values

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


__all__ = ["GraphBuildError", "GraphBuilder", "WeightInfo"]
