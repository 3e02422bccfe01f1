"""The ops ONNX imports need (slice, pad, pow, sqrt, exp, neg, integer cmp)
against numpy slicing, np.pad and plain Python loops, through the builder and
the reference interpreter; their costs, error messages and integer inputs."""

import itertools
import re

import numpy as np
import pytest

from cfmem.builder import GraphBuilder, GraphBuildError
from cfmem.interp.golden import InterpError, find_function, random_inputs, run_function
from cfmem.ir_io import make_context
from cfmem.passes.annotate_costs import AnnotateCostsPass

END = 2**63 - 1
"""ONNX's INT64_MAX: "to the end" (and -END "from the start")."""


def run(build, inputs: dict[str, np.ndarray], shapes: dict[str, tuple]) -> list[np.ndarray]:
    """Outputs of the graph ``build(b, *inputs)`` on ``inputs`` (dtypes from the arrays)."""
    b = GraphBuilder("main")
    args = [b.input(name, shapes[name], dtype=inputs[name].dtype) for name in inputs]
    outputs = build(b, *args)
    b.output(*outputs, names=[f"out{k}" for k in range(len(outputs))])
    result = run_function(b.build(), inputs).outputs
    return [result[f"out{k}"] for k in range(len(outputs))]


def run1(build, **inputs: np.ndarray) -> np.ndarray:
    (out,) = run(lambda b, *xs: [build(b, *xs)], inputs, {k: v.shape for k, v in inputs.items()})
    return out


X = np.arange(4 * 6, dtype=np.float32).reshape(4, 6)

# (starts, ends, axes, steps) and the same selection written as numpy basic slicing
SLICES = [
    (([1], [3], None, None), np.s_[1:3]),
    (([1, 2], [3, 5], None, None), np.s_[1:3, 2:5]),
    (([2], [END], [1], None), np.s_[:, 2:]),
    (([-2], [END], [-1], None), np.s_[:, 4:]),
    (([-END], [-1], [0], None), np.s_[:3]),
    (([0], [100], [1], [4]), np.s_[:, 0:6:4]),
    (([-100], [100], [0], [3]), np.s_[0:4:3]),
    (([-1], [-END], [1], [-1]), np.s_[:, ::-1]),
    (([-1], [-END], [0], [-2]), np.s_[3::-2]),
    (([10], [-10], [1], [-1]), np.s_[:, 5::-1]),  # both bounds clamped
    (([4], [0], [1], [-2]), np.s_[:, 4:0:-2]),
    (([3, -2], [0, 0], [-2, 1], [-1, -3]), np.s_[3:0:-1, 4:0:-3]),
    (([END], [-END], [0], [-1]), np.s_[::-1]),
    (([-END], [END], [1], [1]), np.s_[:, :]),
]


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.bool_])
@pytest.mark.parametrize("args,index", SLICES, ids=[str(i) for i in range(len(SLICES))])
def test_slice_matches_numpy_slicing(args, index, dtype):
    x = (X % 3 == 0) if dtype == np.bool_ else X.astype(dtype)
    starts, ends, axes, steps = args
    out = run1(lambda b, v: b.slice(v, starts, ends, axes, steps), x=x)
    assert out.dtype == x.dtype
    np.testing.assert_array_equal(out, x[index])


def test_slice_of_a_compare_keeps_i1():
    x = np.array([[1.0, -1.0, 2.0], [-3.0, 4.0, 0.0]], np.float32)
    out = run1(lambda b, v: b.slice(b.cmp("gt", v, 0.0), [-1], [-END], [1], [-1]), x=x)
    np.testing.assert_array_equal(out, (x > 0)[:, ::-1])


def pad_naive(x: np.ndarray, pads, mode, value):
    """Each output element from its source index in ``x``, one at a time."""
    rank = x.ndim
    before, after = pads[:rank], pads[rank:]
    out = np.empty([d + b + a for d, b, a in zip(x.shape, before, after)], np.float32)
    for index in itertools.product(*map(range, out.shape)):
        src = []
        for i, b, n in zip(index, before, x.shape):
            j = i - b
            if mode == "edge":
                j = min(max(j, 0), n - 1)
            elif mode == "reflect":
                j = -j if j < 0 else 2 * (n - 1) - j if j >= n else j
            src.append(j)
        inside = all(0 <= j < n for j, n in zip(src, x.shape))
        out[index] = x[tuple(src)] if inside else value
    return out


PADS = [
    ([1, 2, 0, 3], "constant", 0.0),
    ([0, 0, 2, 1], "constant", -2.5),
    ([2, 3, 3, 5], "reflect", 0.0),
    ([3, 0, 0, 5], "reflect", 0.0),
    ([1, 4, 2, 7], "edge", 0.0),
    ([0, 0, 0, 0], "edge", 0.0),
]


@pytest.mark.parametrize("pads,mode,value", PADS)
def test_pad_matches_np_pad_and_naive_loops(pads, mode, value):
    x = np.random.default_rng(3).standard_normal((4, 6)).astype(np.float32)
    out = run1(lambda b, v: b.pad(v, pads, mode=mode, value=value), x=x)
    widths = list(zip(pads[:2], pads[2:]))
    kwargs = {"constant_values": value} if mode == "constant" else {}
    np.testing.assert_array_equal(out, np.pad(x, widths, mode=mode, **kwargs))
    np.testing.assert_array_equal(out, pad_naive(x, pads, mode, value))


def test_pow_broadcasts_like_python_loops():
    rng = np.random.default_rng(4)
    a = rng.uniform(0.1, 3.0, (2, 3, 4)).astype(np.float32)
    e = rng.uniform(-2.0, 2.0, (3, 1)).astype(np.float32)
    out = run1(lambda b, x, y: b.pow(x, y), a=a, e=e)
    want = np.empty_like(a)
    for i, j, k in itertools.product(range(2), range(3), range(4)):
        want[i, j, k] = float(a[i, j, k]) ** float(e[j, 0])
    np.testing.assert_allclose(out, want, rtol=1e-6)


def test_pow_with_a_number_and_negative_bases():
    a = np.array([-2.0, -0.5, 0.0, 3.0], np.float32)
    squared, rooted = run(lambda b, x: [b.pow(x, 2.0), b.pow(x, 0.5)], {"a": a}, {"a": (4,)})
    np.testing.assert_array_equal(squared, [4.0, 0.25, 0.0, 9.0])
    np.testing.assert_array_equal(np.isnan(rooted), [True, True, False, False])  # numpy: NaN


def test_sqrt_exp_neg_match_numpy():
    x = np.array([[-1.0, 0.0, 0.25], [2.0, 9.0, -0.0]], np.float32)
    sqrt, exp, neg = run(lambda b, v: [b.sqrt(v), b.exp(v), b.neg(v)], {"x": x}, {"x": (2, 3)})
    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal(sqrt, np.sqrt(x))
    np.testing.assert_array_equal(exp, np.exp(x))
    np.testing.assert_array_equal(neg, -x)
    assert np.signbit(neg[1, 1]) and not np.signbit(neg[1, 2])
    assert sqrt.dtype == exp.dtype == neg.dtype == np.float32


@pytest.mark.parametrize("dtype", [np.int64, np.int32])
@pytest.mark.parametrize("predicate", ["eq", "ne", "lt", "le", "gt", "ge"])
def test_integer_cmp_is_exact_and_broadcasts(predicate, dtype):
    big = 2**40 if dtype == np.int64 else 2**30  # neighbours f32 cannot tell apart
    a = np.array([[big, big + 1, -3], [0, -big, 7]], dtype)
    b = np.array([big + 1, big + 1, -3], dtype)
    out = run1(lambda g, x, y: g.cmp(predicate, x, y), a=a, b=b)
    ops = {"eq": int.__eq__, "ne": int.__ne__, "lt": int.__lt__, "le": int.__le__, "gt": int.__gt__, "ge": int.__ge__}
    want = [[ops[predicate](int(a[i, j]), int(b[j])) for j in range(3)] for i in range(2)]
    assert out.dtype == np.bool_
    np.testing.assert_array_equal(out, want)


def test_integer_cmp_decides_an_if():
    def build(b, n, x):
        (y,) = b.if_(b.cmp("ge", n, 3), lambda b: [b.exp(x)], lambda b: [b.neg(x)])
        return [y]

    x = np.array([0.5, -1.0], np.float32)
    shapes = {"n": (1,), "x": (2,)}
    (then,) = run(build, {"n": np.array([3], np.int64), "x": x}, shapes)
    (other,) = run(build, {"n": np.array([2], np.int64), "x": x}, shapes)
    np.testing.assert_array_equal(then, np.exp(x))
    np.testing.assert_array_equal(other, -x)


def test_integer_constants_keep_their_type():
    b = GraphBuilder("main")
    n = b.input("n", (3,), dtype=np.int32)
    b.output(b.cmp("lt", n, b.constant([1, 2, 3], dtype=np.int32)), b.cmp("eq", n, 2), names=["lt", "eq"])
    module = b.build()
    text = str(module)
    assert "dense<[1, 2, 3]> : tensor<3xi32>" in text and "dense<2> : tensor<1xi32>" in text
    out = run_function(module, {"n": np.array([0, 2, 5], np.int32)}).outputs
    np.testing.assert_array_equal(out["lt"], [True, False, False])
    np.testing.assert_array_equal(out["eq"], [False, True, False])


def test_integer_inputs_are_random_integers_and_must_convert_exactly():
    b = GraphBuilder("main")
    n = b.input("n", (50,), dtype=np.int64)
    b.output(b.cmp("gt", n, 0), names=["pos"])
    module = b.build()
    fn = find_function(module)
    inputs = random_inputs(fn, seed=0)
    assert inputs["n"].dtype == np.int64 and -100 <= inputs["n"].min() and inputs["n"].max() < 100
    assert len(set(inputs["n"].tolist())) > 10
    ok = run_function(module, {"n": np.arange(50.0) - 25}).outputs["pos"]  # whole floats convert
    np.testing.assert_array_equal(ok, np.arange(50) > 25)
    with pytest.raises(InterpError, match=r"input 'n' has dtype float64, expected int64: 0.5 at \(0,\) does not convert exactly"):
        run_function(module, {"n": np.full(50, 0.5)})


def test_cfmem_run_loads_integer_inputs(tmp_path, cfmem):
    b = GraphBuilder("main")
    n, x = b.input("n", (1,), dtype=np.int64), b.input("x", (3,))
    (y,) = b.if_(b.cmp("gt", n, 0), lambda b: [b.sqrt(x)], lambda b: [b.neg(x)])
    b.output(b.slice(y, [-1], [-END], steps=[-1]), names=["y"])
    model = tmp_path / "m.mlir"
    model.write_text(str(b.build()))
    np.savez(tmp_path / "in.npz", n=np.array([4], np.int64), x=np.array([1.0, 4.0, 9.0], np.float32))
    done = cfmem("run", str(model), "--inputs", str(tmp_path / "in.npz"), "-o", str(tmp_path / "out.npz"))
    assert done.returncode == 0, done.stderr
    assert "if#0: then" in done.stdout
    np.testing.assert_array_equal(np.load(tmp_path / "out.npz")["y"], [3.0, 2.0, 1.0])
    done = cfmem("run", str(model), "--seed", "1")
    assert done.returncode == 0, done.stderr


def test_costs_of_the_new_ops():
    b = GraphBuilder("main")
    x = b.input("x", (4, 6))
    outs = [b.slice(x, [1], [3]), b.pad(x, [1, 1, 1, 1], mode="edge"), b.pow(x, x), b.sqrt(x), b.exp(x), b.neg(x)]
    b.output(*outs)
    module = b.build()
    AnnotateCostsPass().apply(make_context(), module)
    got = {op.name: (op.attributes["cfmem.macs"].value.data, op.attributes["cfmem.bytes_written"].value.data)
           for op in module.walk() if "cfmem.macs" in op.attributes}
    assert got == {
        "nn.slice": (0, 2 * 6 * 4),
        "nn.pad": (0, 6 * 8 * 4),
        "nn.pow": (24, 96),
        "nn.sqrt": (24, 96),
        "nn.exp": (24, 96),
        "nn.neg": (24, 96),
    }


@pytest.mark.parametrize(
    "build,message",
    [
        (lambda b, x: b.slice(x, [0], [2], steps=[0]), "slice step on axis 0 must not be 0"),
        (lambda b, x: b.slice(x, [3], [1]), "slice selects no element on axis 0 (size 4)"),
        (lambda b, x: b.slice(x, [0, 0], [1, 1], axes=[1, -1]), "slice axes [1, -1] repeat an axis"),
        (lambda b, x: b.slice(x, [0], [1], axes=[2]), "axis 2 is out of range for rank 2"),
        (lambda b, x: b.slice(x, [0, 1], [2]), "slice needs as many starts, ends, axes and steps, got 2, 1, 2 and 2"),
        (lambda b, x: b.pad(x, [0, -1, 0, 0]), "pads [0, -1, 0, 0] must not be negative"),
        (lambda b, x: b.pad(x, [0, 0, 0]), "pad of a rank-2 input needs 4 pads, got 3"),
        (lambda b, x: b.pad(x, [4, 0, 0, 0], mode="reflect"), "reflect pad of 4 on axis 0 needs a dimension larger"),
        (lambda b, x: b.pad(x, [1, 0, 0, 0], mode="wrap"), "unknown pad mode 'wrap'"),
        (lambda b, x: b.cmp("lt", x, b.input("n", (6,), dtype=np.int64)), "operands must have one element type, got f32 and i64"),
        (lambda b, x: b.cmp("eq", b.input("n", (6,), dtype=np.int64), 0.5), "cmp rhs: 0.5 does not convert exactly to int64"),
        (lambda b, x: b.cmp("eq", b.input("f", (6,), dtype=np.bool_), True), "operands must be f32, f16 or signless integers"),
    ],
)
def test_builder_errors_name_the_op_and_the_problem(build, message):
    b = GraphBuilder("main")
    with pytest.raises(GraphBuildError, match=re.escape(message)):
        build(b, b.input("x", (4, 6)))
