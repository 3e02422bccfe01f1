"""cfmem's parser reads dense arrays of decimal literals with one regular expression; every
array it reads must come out as xDSL's own parser reads it, and every array xDSL refuses is
refused with xDSL's error."""

import pytest
from xdsl.parser import Parser

from cfmem.ir_io import _LocatingParser, make_context, parse_module

CASES = [
    "array<f32: 1.5, -2.0e-3, 3.>",
    "array<f64: 0.1, 1.0E+10, -0.0>",
    "array<f16: 1.0 , 2.5>",
    "array<bf16: 1.0>",
    "array<f32: 1.0,\n 2.0>",
    "array<f32>",
    "array<i64: 1, -2, 3>",
    "array<i8: -128, 255>",
    "array<i16: 5 >",
    "array<i32: 0x10, 2>",
    "array<i1: true, false>",
    "array<f32: 1, 2>",
    "array<f32: 1.0, 2>",
    "array<f64: 0x7FF0000000000000, 1.0>",
    "array<i8: 1, 300>",
    "array<i64: 1.5>",
    "array<i64: 1, 2",
    "array<f32: 1.0 2.0>",
]


def read(parser_class, text: str):
    try:
        return parser_class(make_context(), text, "x").parse_attribute()
    except Exception as err:  # noqa: BLE001 - the error is the result compared
        return f"{type(err).__name__}: {str(err).splitlines()[-1].strip()}"


class _Plain(_LocatingParser):
    """cfmem's parser with xDSL's dense array reading."""

    _parse_builtin_densearray_attr = Parser._parse_builtin_densearray_attr


def _locating(ctx, text, name):
    return _LocatingParser(ctx, text, name, {})


def _plain(ctx, text, name):
    return _Plain(ctx, text, name, {})


@pytest.mark.parametrize("text", CASES)
def test_an_array_reads_as_xdsl_reads_it(text):
    assert read(_locating, text) == read(_plain, text)


def test_a_module_with_long_arrays_reads_as_xdsl_reads_it():
    scales = ", ".join(f"{0.001 * i:.7e}" for i in range(1, 500))
    zeros = ", ".join(str(i % 7 - 3) for i in range(499))
    text = (
        'func.func @f() {\n'
        f'  "test.op"() {{s = array<f32: {scales}>, z = array<i64: {zeros}>, n = array<f32: 1.0, 2.0>}} : () -> ()\n'
        "  func.return\n}\n"
    )
    ctx = make_context()
    ctx.allow_unregistered = True
    module, _ = parse_module(text, ctx=ctx)
    op = module.body.block.first_op.body.block.first_op  # the test op
    assert list(op.attributes["s"].get_values()) == pytest.approx([0.001 * i for i in range(1, 500)], rel=1e-6)
    assert list(op.attributes["z"].get_values()) == [i % 7 - 3 for i in range(499)]
    plain = _Plain(ctx, text, "x", {}).parse_module()
    assert str(plain) == str(module)
