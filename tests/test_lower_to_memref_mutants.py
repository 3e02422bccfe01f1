"""nn-lower-to-memref in detail: resident weights load once, in a function of their own
(``@load_resident_<fn>``) that copies each weight from its blob to its planned arena bytes."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import IntegerAttr, StringAttr

from cfmem.dialects.nn_dma import DmaStartOp
from cfmem.interp.flat import run_flat
from cfmem.interp.golden import run_function
from cfmem.ir_io import parse_module
from cfmem.passes.plan_memory import planned_offset
from cfmem.passes.placement import RESIDENT_ATTR, WEIGHTS_ATTR
from cfmem.pipeline import apply_pipeline
from test_loops import RECURRENT  # a loop body of a gemm (weight and bias) and a matmul

def _planned(text: str, strategy: str):
    module, _ = parse_module(text)
    for op in module.walk():
        if op.name in ("nn.gemm", "nn.matmul"):
            op.attributes[WEIGHTS_ATTR] = StringAttr("resident")
    apply_pipeline(module, f"nn-insert-dma,nn-plan-memory{{strategy={strategy}}}")
    return module


def _index(value) -> int:
    owner = value.owner
    assert isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr)
    return owner.value.value.data


def _function(module, name: str) -> func.FuncOp:
    return next(op for op in module.ops if isinstance(op, func.FuncOp) and op.sym_name.data == name)


@pytest.mark.parametrize("strategy", ["sequential", "large-first"])
def test_resident_weights_are_copied_once_from_their_blob_to_their_planned_bytes(strategy):
    text = RECURRENT
    planned = _planned(text, strategy)
    load = next(op for op in planned.walk() if isinstance(op, DmaStartOp) and RESIDENT_ATTR in op.attributes)
    base = planned_offset(load.buffer)
    assert base is not None
    want = [
        (source.owner.offset.value.data, slot, source.owner.length.value.data, k)
        for k, (source, slot) in enumerate(zip(load.sources, load.byte_offsets))
    ]
    wait = next(use.operation for use in load.token.uses)
    names = [r.name_hint for r in wait.results]
    lowered = planned.clone()
    apply_pipeline(lowered, "nn-lower-to-memref")
    main = _function(lowered, "main")
    init = _function(lowered, "load_resident_main")
    assert main.attributes["cfmem.init"] == StringAttr("load_resident_main")
    assert init.attributes["cfmem.init_of"] == StringAttr("main")
    assert not init.function_type.inputs.data and not init.function_type.outputs.data
    ops = list(init.body.block.ops)
    starts = [op for op in ops if isinstance(op, memref.DmaStartOp)]
    waits = [op for op in ops if isinstance(op, memref.DmaWaitOp)]
    got = [
        (_index(s.src_indices[0]), _index(s.dest_indices[0]), _index(s.num_elements), _index(s.tag_indices[0]))
        for s in starts
    ]
    assert got == want
    assert [s.attributes["cfmem.tensor"] for s in starts] == [StringAttr(n) for n in names]
    for s in starts:
        assert isinstance(s.src.owner, memref.GetGlobalOp) and s.src.owner.name_.string_value() == "weights"
        view = s.dest.owner
        assert isinstance(view, memref.ViewOp) and _index(view.byte_shift) == base
        assert view.source.owner.name_.string_value() == "arena_main"
        assert s.tag is starts[0].tag and s.tag.type.get_shape() == (len(want),)
    assert [(_index(w.tag_indices[0]), _index(w.num_elements)) for w in waits] == [(k, n) for _, _, n, k in want]
    assert all(w.tag is starts[0].tag for w in waits)
    assert isinstance(ops[-1], func.ReturnOp) and ops.index(waits[0]) > ops.index(starts[-1])
    x = np.linspace(-1, 1, 8, dtype=np.float32).reshape(1, 8)
    reference, _ = parse_module(text)
    for n in (0, 1, 3):
        inputs = {"n": np.array(n, dtype=np.int64), "x": x}
        want_y = run_function(reference, inputs).outputs["y"]
        np.testing.assert_array_equal(run_flat(lowered, inputs).outputs["y"], want_y)
