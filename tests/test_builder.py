"""GraphBuilder: shapes, names, weight layout, nesting and errors."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import Builtin, IntegerType, ModuleOp, TensorType, f32, i1
from xdsl.dialects.func import Func
from xdsl.parser import Parser

from cfmem.builder import GraphBuilder, GraphBuildError
from cfmem.dialects.nn import NN, ConstantOp, Conv2dOp, GetGlobalOp, GlobalOp, IfOp, ViewOp, YieldOp

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def parse(text: str) -> ModuleOp:
    ctx = Context()
    for dialect in (Builtin, Func, NN):
        ctx.load_dialect(dialect)
    module = Parser(ctx, text).parse_module()
    module.verify()
    return module


def main_func(module: ModuleOp) -> func.FuncOp:
    return next(op for op in module.ops if isinstance(op, func.FuncOp))


def names(module: ModuleOp) -> list[str]:
    fn = main_func(module)
    values = [*fn.body.block.args, *(r for op in fn.walk() for r in op.results)]
    return [v.name_hint for v in values]


def small_cnn() -> GraphBuilder:
    b = GraphBuilder("net", seed=7, scale=0.5)
    x = b.input("x", (1, 3, 32, 32))
    y = b.relu(b.conv2d(x, 8, 3, stride=2, pad=1, name="conv1"))
    y = b.conv2d(y, 8, 3, pad=1, groups=8, bias=False, name="dw")
    y = b.max_pool2d(y, 2)
    y = b.flatten(b.global_avg_pool(y))
    b.output(b.softmax(b.dense(y, 10, name="fc")), names=["probs"])
    return b


def test_shapes_names_and_weight_layout():
    b = small_cnn()
    module = b.build()
    fn = main_func(module)
    assert fn.sym_name.data == "net"
    assert fn.function_type.inputs.data == (TensorType(f32, [1, 3, 32, 32]),)
    assert fn.function_type.outputs.data == (TensorType(f32, [1, 10]),)

    conv1, dw = (op for op in fn.walk() if isinstance(op, Conv2dOp))
    assert conv1.result.type == TensorType(f32, [1, 8, 16, 16])
    assert dw.bias is None and dw.groups.value.data == 8

    layout = [(w.name, w.offset, w.shape, w.nbytes) for w in b.weights]
    assert layout == [
        ("conv1_w", 0, (8, 3, 3, 3), 864),
        ("conv1_b", 896, (8,), 32),
        ("dw_w", 960, (8, 1, 3, 3), 288),
        ("fc_w", 1280, (10, 8), 320),
        ("fc_b", 1600, (10,), 40),
    ]
    views = {op.result.name_hint: op for op in fn.walk() if isinstance(op, ViewOp)}
    assert {k: (v.offset.value.data, v.length.value.data) for k, v in views.items()} == {
        w.name: (w.offset, w.nbytes) for w in b.weights
    }
    (glob,) = (op for op in module.ops if isinstance(op, GlobalOp))
    assert (glob.sym_name.data, glob.size.value.data, glob.seed.value.data) == ("weights", 1664, 7)
    assert glob.scale.value.data == 0.5
    get_globals = [op for op in fn.walk() if isinstance(op, GetGlobalOp)]
    assert get_globals == [fn.body.block.first_op]
    assert get_globals[0].result.type == TensorType(IntegerType(8), [1664])

    assert names(module) == [
        "x", "weights", "conv1_w", "conv1_b", "conv1", "relu0", "dw_w", "dw", "maxpool0",
        "gap0", "reshape0", "fc_w", "fc_b", "fc", "probs",
    ]  # fmt: skip


def test_print_parse_round_trip_keeps_every_name():
    module = small_cnn().build()
    text = str(module)
    again = parse(text)
    assert str(again) == text
    assert names(again) == names(module)
    assert len(set(names(module))) == len(names(module))


def test_names_are_unique_and_readable():
    b = GraphBuilder()
    x = b.input("x", (1, 4))
    a = b.relu(x, name="act")
    c = b.relu(a, name="act")
    d = b.relu(c)
    assert (a.name_hint, c.name_hint, d.name_hint) == ("act", "act.1", "relu0")
    with pytest.raises(GraphBuildError, match=r"ends in _<digits>.*'act2'"):
        b.relu(d, name="act_2")
    with pytest.raises(GraphBuildError, match="invalid name"):
        b.relu(d, name="2act")
    with pytest.raises(GraphBuildError, match="input name 'act' is already used"):
        b.input("act", (1, 4))
    with pytest.raises(GraphBuildError, match="output name 'x' is already used"):
        b.output(d, names=["x"])
    with pytest.raises(GraphBuildError, match="ends in _<digits>"):
        b.output(c, d, names=["fine", "out_1"])
    with pytest.raises(GraphBuildError, match="inputs keep their names"):
        b.output(x, names=["y"])
    with pytest.raises(GraphBuildError, match="repeat a name"):
        b.output(c, d, names=["o", "o"])
    b.output(d, c, names=["out", "aux"])
    module = b.build()
    assert names(module) == ["x", "act", "aux", "out"]


def test_numbers_become_constants_and_cmp_gives_i1():
    b = GraphBuilder()
    x = b.input("x", (1, 3, 4, 4))
    m = b.reduce_mean(x, (1, 2, 3), keepdims=False, name="m")
    assert b.shape(m) == (1,)
    c = b.cmp("ge", m, 0.25, name="big")
    assert c.type == TensorType(i1, [1])
    const = c.owner.rhs.owner
    assert isinstance(const, ConstantOp) and const.result.name_hint == "big_b"
    assert const.value.get_values() == (0.25,)
    with pytest.raises(GraphBuildError, match="unknown predicate 'gte'"):
        b.cmp("gte", m, 0.25)
    flag = b.constant(np.array([True]), name="flag")
    assert flag.type == TensorType(i1, [1])


def test_every_op_shape():
    b = GraphBuilder()
    x = b.input("x", (1, 4, 9, 9))
    s = b.shape
    assert s(b.conv2d(x, 6, (3, 1), stride=(2, 1), pad=(1, 0))) == (1, 6, 5, 9)
    assert s(b.conv2d(x, 4, 3, pad=(0, 0, 2, 2), dilation=2)) == (1, 4, 7, 7)
    assert s(b.avg_pool2d(x, 3, stride=2, pad=1)) == (1, 4, 5, 5)
    assert s(b.max_pool2d(x, 2)) == (1, 4, 4, 4)
    assert s(b.global_avg_pool(x)) == (1, 4, 1, 1)
    assert s(b.reduce_mean(x, (2, 3))) == (1, 4, 1, 1)
    assert s(b.softmax(x, axis=1)) == (1, 4, 9, 9)
    assert s(b.concat([x, x], axis=1)) == (1, 8, 9, 9)
    assert s(b.transpose(x, (0, 2, 3, 1))) == (1, 9, 9, 4)
    assert s(b.reshape(x, (1, 4, -1))) == (1, 4, 81)
    assert s(b.matmul(b.reshape(x, (4, 81)), b.weight("m", (81, 5)))) == (4, 5)
    y = b.reshape(x, (1, -1))
    assert s(b.dense(y, 7, bias=False, name="nobias")) == (1, 7)
    assert s(b.gemm(y, b.weight("g", (324, 2)), 1.0)) == (1, 2)
    for op in (b.add, b.sub, b.mul, b.div):
        assert s(op(x, b.weight(f"w{op.__name__}", (4, 1, 1)))) == (1, 4, 9, 9)
    assert s(b.clamp(b.tanh(b.sigmoid(x)), 0.0, 6.0)) == (1, 4, 9, 9)
    b.output(x)
    b.build()


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (
            lambda b, x: b.conv2d(x, 8, 3, groups=2, name="c"),
            r"nn.conv2d %c: groups=2 must divide input channels 3",
        ),
        (
            lambda b, x: b.conv2d(x, 8, 40, name="c"),
            r"nn.conv2d %c: window 40 .* does not fit an input of 32",
        ),
        (
            lambda b, x: b.add(x, b.input("y", (1, 4, 32, 32)), name="s"),
            r"nn.add %s: shapes 1x3x32x32, 1x4x32x32 do not broadcast",
        ),
        (lambda b, x: b.matmul(x, b.weight("w", (3, 3))), r"matmul inner dimensions differ"),
        (lambda b, x: b.dense(x, 10), r"gemm expects 2-D operands"),
        (
            lambda b, x: b.reshape(x, (1, 100)),
            r"\[1, 3, 32, 32\] has 3072 elements, \[1, 100\] has 100",
        ),
        (lambda b, x: b.transpose(x, (0, 1, 2)), r"not a permutation"),
        (lambda b, x: b.softmax(x, axis=4), r"axis 4 is out of range"),
        (lambda b, x: b.max_pool2d(x, 2, pad=2), r"pads must be smaller than the kernel"),
        (lambda b, x: b.global_avg_pool(b.reshape(x, (3, 1024))), r"rank-4"),
        (lambda b, x: b.input("z", (1, 0)), r"must be positive"),
        (lambda b, x: b.gemm(b.reshape(x, (3, 1024)), 10, 0.0), r"use dense"),
    ],
)
def test_bad_shapes_raise_clear_errors(make, message):
    b = GraphBuilder()
    x = b.input("x", (1, 3, 32, 32))
    with pytest.raises(GraphBuildError, match=message):
        make(b, x)


def test_failed_op_allocates_no_weights():
    b = GraphBuilder()
    x = b.input("x", (1, 3, 8, 8))
    with pytest.raises(GraphBuildError):
        b.conv2d(x, 8, 3, groups=2)
    assert b.weights == [] and b.blob_size == 0


def nested(depth: int) -> GraphBuilder:
    """An if nested ``depth`` deep in then-branches, each with its own weights."""
    b = GraphBuilder(scale=0.2)
    x = b.input("x", (1, 2, 8, 8))
    t = b.input("t", (1,))

    def level(k: int):
        def then(b: GraphBuilder):
            y = b.relu(b.conv2d(x, 2, 3, pad=1, name=f"then{k}"))
            if k + 1 == depth:
                return [y]
            (inner,) = b.if_(b.cmp("gt", t, float(k + 1), name=f"c{k + 1}"), *level(k + 1))
            return [b.add(y, inner, name=f"sum{k}")]

        def otherwise(b: GraphBuilder):
            return b.sigmoid(x, name=f"else{k}")

        return then, otherwise

    (out,) = b.if_(b.cmp("gt", t, 0.0, name="c0"), *level(0), names=["out"])
    b.output(out)
    return b


@pytest.mark.parametrize("depth", [1, 2, 4])
def test_nested_ifs(depth):
    b = nested(depth)
    module = parse(str(b.build()))
    ifs = [op for op in module.walk() if isinstance(op, IfOp)]
    assert len(ifs) == depth
    for k, op in enumerate(ifs):
        # if k+1 sits in the then region of if k; the weights of a branch are viewed inside it
        if k + 1 < depth:
            assert ifs[k + 1].parent_op() is op and ifs[k + 1].parent_region() is op.then_region
        views = [v.result.name_hint for v in op.then_region.block.ops if isinstance(v, ViewOp)]
        assert views == [f"then{k}_w", f"then{k}_b"]
        assert op.cond.name_hint == f"c{k}"
        assert isinstance(op.else_region.block.last_op, YieldOp)
        assert op.outputs.types == (TensorType(f32, [1, 2, 8, 8]),)
    assert [w.name for w in b.weights] == [
        n for k in range(depth) for n in (f"then{k}_w", f"then{k}_b")
    ]
    assert all(w.offset % 64 == 0 for w in b.weights)
    assert ifs[0].results[0].name_hint == "out"


def test_if_errors():
    b = GraphBuilder()
    x = b.input("x", (1, 4))
    flag = b.cmp("gt", x, 0.0)  # 1x4 elements: not a condition
    with pytest.raises(GraphBuildError, match="one-element i1 tensor"):
        b.if_(flag, lambda b: [x], lambda b: [x])
    cond = b.cmp("gt", b.reduce_mean(x, (1,)), 0.0, name="cond")
    with pytest.raises(
        GraphBuildError,
        match=r"then branch yields \(tensor<1x4xf32>\) but the else branch yields"
        r" \(tensor<1x1xf32>\)",
    ):
        b.if_(cond, lambda b: [b.relu(x)], lambda b: [b.reduce_mean(x, (1,))])

    leaked = []

    def then(b):
        leaked.append(b.relu(x, name="inside"))
        return [leaked[0]]

    b.if_(cond, then, lambda b: [x])
    with pytest.raises(GraphBuildError, match="%inside is not visible here"):
        b.relu(leaked[0])
    with pytest.raises(GraphBuildError, match="%inside is not visible here"):
        b.if_(cond, lambda b: [x], lambda b: [leaked[0]])
    with pytest.raises(GraphBuildError, match="outside of if branches"):
        b.if_(cond, lambda b: b.output(x), lambda b: [])
    with pytest.raises(GraphBuildError, match="2 names for 1 results"):
        b.if_(cond, lambda b: [x], lambda b: [x], names=["a", "b"])


def test_failed_if_leaves_no_trace():
    b = GraphBuilder()
    x = b.input("x", (1, 4))
    cond = b.cmp("gt", b.reduce_mean(x, (0, 1), keepdims=False), 0.0, name="cond")
    uses_before = len(list(x.uses))

    def then(b):
        return [b.dense(x, 4, name="fc")]

    def bad_else(b):
        return [b.dense(x, 3, name="fc3")]

    with pytest.raises(GraphBuildError, match="yields"):
        b.if_(cond, then, bad_else)
    assert len(list(x.uses)) == uses_before
    assert b.weights == [] and b.blob_size == 0
    with pytest.raises(GraphBuildError, match="do not broadcast"):
        b.add(x, np.ones(3, np.float32))
    b.output(x)
    module = b.build()
    assert not any(isinstance(op, GlobalOp | GetGlobalOp | IfOp) for op in module.walk())
    assert [op.name for op in main_func(module).walk()][1:] == [
        "nn.reduce_mean", "nn.constant", "nn.cmp", "func.return"
    ]  # fmt: skip


def test_build_needs_output_and_finishes_the_graph():
    b = GraphBuilder()
    x = b.input("x", (2, 2))
    with pytest.raises(GraphBuildError, match=r"call output"):
        b.build()
    b.output(x)
    module = b.build()
    assert b.build() is module
    assert not any(isinstance(op, GlobalOp) for op in module.ops)  # no weights, no blob
    with pytest.raises(GraphBuildError, match="already built"):
        b.relu(x)


def _make_examples():
    spec = importlib.util.spec_from_file_location("make_examples", EXAMPLES / "make_examples.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", ["facedetect", "fusiondetect", "denoise", "wakeword"])
def test_examples_are_up_to_date(name):
    make = _make_examples()
    text = make.render(name)
    assert text == (EXAMPLES / f"{name}.mlir").read_text(), "run: python examples/make_examples.py"
    parse(text)


def test_a_loop_the_verifier_refuses_is_a_build_error_that_leaves_no_trace():
    b = GraphBuilder()
    x = b.input("x", (4,))
    uses_before = len(list(x.uses))
    with pytest.raises(GraphBuildError, match=r"nn.loop %bad: the body yields \(tensor<i1>, tensor<1xf32>\)"):
        b.loop(3, [x], lambda b, i, c, h: [c, b.reduce_mean(h, (0,))], name="bad")
    assert len(list(x.uses)) == uses_before
