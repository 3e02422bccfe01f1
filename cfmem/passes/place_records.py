"""Records of a keyed function for ``cfmem.planning.placed_program``: read once, measured often.

``nn-place`` measures hundreds of placements of one function. ``FunctionRecords`` reads the
function's ops once into plain records, and the slices ``nn-slice-weights`` cuts an op into once
per slice count (slicing is op-local: the real pass cuts a copy of the module, and the new ops
are read like the others), so a placement is measured without copying or rewriting IR.

Functions whose only regions are ``nn.if`` branches are read (``supports``): an if's record
holds its branches' records. ``nn-place`` builds the IR for the others (``nn.loop``).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace

from xdsl.dialects import func
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, TensorType, i64
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.traits import IsTerminator
from xdsl.utils.exceptions import PassFailedException

from cfmem.dialects.nn_compute import ComputeOp, ConcatOp, ConstantOp, SliceOp
from cfmem.dialects.nn_control import IfOp
from cfmem.dialects.nn_quant import QConcatOp
from cfmem.dialects.nn_weights import GetGlobalOp, ReshapeOp, ViewOp
from cfmem.dialects.scratch import scratch_bytes
from cfmem.dialects.types import element_bytes, tensor_bytes
from cfmem.dialects.flat_form import is_inplace_op
from cfmem.passes.aliases import _same_quantization, concat_parts, slice_byte_offset
from cfmem.passes.failures import OpFailure
from cfmem.passes.insert_dma import weight_operands
from cfmem.passes.liveness import functions, is_read_only, is_weight
from cfmem.passes.placement import SLICE_OF_ATTR, SLICES_ATTR
from cfmem.passes.names import ValueNames
from cfmem.passes.slice_weights import SliceWeightsPass, checked_plan
from cfmem.planning.placed_nodes import Flags, OpRecord, ValueInfo, Values, all_records, program_ops


def supports(fn: func.FuncOp) -> bool:
    """Whether ``fn`` is one block whose only ops with regions are ``nn.if``s (of one block each)."""
    if len(fn.body.blocks) != 1:
        return False
    return all(not op.regions or (isinstance(op, IfOp) and all(len(r.blocks) == 1 for r in op.regions))
               for op in fn.walk() if op is not fn)


class FunctionRecords:
    """The ops of function ``fn_name`` of ``module`` (whose ops carry ``key_attr``) as records,
    and, on demand (with ``slicing``), the records of each op cut into N slices by
    ``nn-slice-weights``."""

    def __init__(self, module: ModuleOp, fn_name: str, key_attr: str, slicing: bool):
        self.module = module
        self.fn_name = fn_name
        self.key_attr = key_attr
        self.slicing = slicing
        self.values = Values()
        self.counter = itertools.count()
        """Numbers the records (``OpRecord.index``)."""
        self.events: dict = {}
        """Compute events handed out again (``measure_program``'s cache)."""
        fn = self.function(module)
        ids = {v: self.add_value(v, is_arg=isinstance(v, BlockArgument)) for v in _values(fn)}
        self.originals = len(self.values.info)
        """Values of the function itself (ids below it); slices' values come after."""
        self.records = self.block(fn.body.block, ids)
        self.ops = program_ops(self.records)
        """Records of the function unsliced."""
        self.by_key = {rec.key: rec for rec in all_records(self.records) if rec.key is not None}
        self.sliced: dict[tuple[int, int], list[OpRecord] | PassFailedException] = {}
        self.unsliceable: dict[int, PassFailedException] = {}
        """Why the ops the slicer cannot cut cannot be, by key."""
        self.scratch: dict[int, _Scratch] = {}
        """Per slice count: the copy of the module ops are cut in."""
        for op in fn.walk():  # the slicer's refusals are known at once
            key, weights = _key(op, key_attr), weight_operands(op)
            if key is None or not weights:
                continue
            try:
                checked_plan(op, weights)
            except OpFailure as refusal:
                self.unsliceable[key] = refusal

    def function(self, module: ModuleOp) -> func.FuncOp:
        return next(f for f in functions(module) if f.sym_name.data == self.fn_name)

    def block(self, block: Block, ids: dict[SSAValue, int]) -> tuple[OpRecord, ...]:
        return tuple(self.record(op, ids) for op in block.ops)

    def add_value(self, value: SSAValue, is_arg: bool = False) -> int:
        ty = value.type
        if isinstance(ty, TensorType):
            source = "weight" if is_weight(value) else "const" if is_read_only(value) else "data"
            info = ValueInfo(tensor_bytes(ty), element_bytes(ty.get_element_type()), tuple(ty.get_shape()), source, is_arg)
        else:
            info = ValueInfo(0, arg=is_arg)
        return self.values.add(info)

    def record(self, op: Operation, ids: dict[SSAValue, int]) -> OpRecord:
        key = _key(op, self.key_attr)
        name = op.results[0].name_hint if op.results and op.results[0].name_hint else "?"
        terminator = op.has_trait(IsTerminator)
        weight_result = bool(op.results) and is_weight(op.results[0])
        parts = None
        if isinstance(op, ConcatOp) or (isinstance(op, QConcatOp) and _same_quantization(op)):
            found = concat_parts(op)
            parts = tuple(found) if found is not None else None
        return OpRecord(
            key=key,
            label=f"{op.name} %{name}",
            operands=tuple(ids[v] for v in op.operands),
            results=tuple(ids[r] for r in op.results),
            macs=op.macs() if hasattr(op, "macs") else 0,
            moved=op.bytes_written() if hasattr(op, "bytes_written") else 0,
            sliced=SLICE_OF_ATTR in op.attributes,
            defines_weight=isinstance(op, GetGlobalOp | ViewOp) or (isinstance(op, ReshapeOp) and weight_result),
            event=not (isinstance(op, GetGlobalOp | ViewOp | ConstantOp | IfOp) or terminator or weight_result),
            terminator=terminator,
            movable=isinstance(op, ComputeOp) or (isinstance(op, ReshapeOp) and not is_read_only(op.result)),
            compute=isinstance(op, ComputeOp),
            reshape=isinstance(op, ReshapeOp),
            slice_offset=slice_byte_offset(op) if isinstance(op, SliceOp) else None,
            inplace=is_inplace_op(op),
            concat_parts=parts,
            weights=tuple(ids[v] for v in weight_operands(op)),
            scratch=scratch_bytes(op) if isinstance(op, ComputeOp | ReshapeOp) else 0,
            index=next(self.counter),
            branches=tuple(self.block(r.block, ids) for r in op.branches) if isinstance(op, IfOp) else (),
        )

    # --- slices -----------------------------------------------------------------------

    def slices(self, key: int, count: int) -> list[OpRecord]:
        """The records replacing op ``key`` cut into ``count`` slices; raises the slicer's
        ``PassFailedException`` when it cannot be cut."""
        if key in self.unsliceable:
            raise self.unsliceable[key]
        found = self.sliced.get((key, count))
        if found is None:
            self.cut([key], count)
            found = self.sliced[(key, count)]
        if isinstance(found, PassFailedException):
            raise found
        return found

    def cut(self, keys: list[int], count: int) -> None:
        """Cut every op of ``keys`` in ``count`` slices in this count's copy of the module (made
        on first use and kept: an op cut there stays cut, and its slices read the values the
        others' slices replaced) and read the new ops of each. Each op is cut alone, in walk
        order, by ``nn-slice-weights``' own rewrite of one op; an op it refuses gets the
        refusal, and the copy (perhaps cut half way) is made again for the next."""
        if not self.slicing:
            raise PassFailedException("this search does not slice")
        for key in sorted(keys, key=lambda k: self.by_key[k].index):
            scratch = self.scratch.get(count) or self._scratch(count)
            op = scratch.ops[key]
            op.attributes[SLICES_ATTR] = IntegerAttr(count, i64)
            try:
                fragment = _SLICE_WEIGHTS.slice_op(op, False, scratch.names)
            except PassFailedException as err:
                del self.scratch[count]
                self.sliced[(key, count)] = err
                continue
            if not fragment:  # one slice: the op is left as it is
                self.sliced[(key, count)] = [self.by_key[key]]
                continue
            ids = scratch.ids
            ids[fragment[-1].results[0]] = self.by_key[key].results[0]  # the last new op's result replaces the op's
            for new in fragment:
                for r in new.results:
                    if r not in ids:
                        ids[r] = self.add_value(r)
            self.sliced[(key, count)] = [self.record(new, ids) for new in fragment]

    def _scratch(self, count: int) -> _Scratch:
        clone = self.module.clone()
        fn = self.function(clone)
        ops = {key: op for op in fn.walk() if (key := _key(op, self.key_attr)) is not None}
        made = self.scratch[count] = _Scratch(fn, dict(zip(_values(fn), range(self.originals))), ValueNames(scope=fn), ops)
        return made

    def program(self, slices: dict[int, int]) -> tuple[OpRecord, ...]:
        """The function's records with each op of ``slices`` replaced by its slices (the ops not
        cut yet at their count are cut together, in one copy of the module)."""
        missing: dict[int, list[int]] = {}
        for key, count in slices.items():
            if count > 1 and (key, count) not in self.sliced and key not in self.unsliceable:
                missing.setdefault(count, []).append(key)
        for count, keys in missing.items():
            self.cut(keys, count)
        return self.substituted(self.records, slices) if slices else self.records

    def substituted(self, records: tuple[OpRecord, ...], slices: dict[int, int]) -> tuple[OpRecord, ...]:
        out: list[OpRecord] = []
        for rec in records:
            count = slices.get(rec.key, 1) if rec.key is not None else 1
            if count > 1:
                out.extend(self.slices(rec.key, count))
            elif rec.branches:
                out.append(replace(rec, branches=tuple(self.substituted(b, slices) for b in rec.branches)))
            else:
                out.append(rec)
        return tuple(out)

    def flags(self, weights: dict[int, str], offchip: frozenset[int], prefetch: frozenset[int], evict: frozenset[int]) -> dict[int, Flags]:
        """Each keyed op's placement, as ``nn-place``'s ``_apply`` writes it (``set_offchip``:
        prefetched when evicted, both only when off chip)."""
        keys = set(weights) | set(offchip)
        return {
            k: Flags(weights.get(k, "stream"), k in offchip, k in offchip and (k in prefetch or k in evict), k in offchip and k in evict)
            for k in keys
        }


@dataclass
class _Scratch:
    """A copy of the module that ops are cut in, for one slice count."""

    fn: func.FuncOp
    ids: dict[SSAValue, int]
    """The record id of each of its values."""
    names: ValueNames
    """Names the slicer marks slices with (unique in the copy)."""
    ops: dict[int, Operation]
    """Its keyed ops, by key (as copied: an op is cut at most once per copy)."""


_SLICE_WEIGHTS = SliceWeightsPass()


def _values(fn: func.FuncOp) -> list[SSAValue]:
    """``fn``'s arguments and the results of its ops in walk order: how its values are numbered."""
    return [*fn.body.block.args, *(r for op in fn.walk() if op is not fn for r in op.results)]


def _key(op: Operation, key_attr: str) -> int | None:
    attr = op.attributes.get(key_attr)
    return attr.value.data if isinstance(attr, IntegerAttr) else None

