"""The linalg-on-tensors programs of cfmem.testing.upstream_programs, bufferized by upstream MLIR.

Each program bufferizes into a memref module that xDSL (cfmem's context plus
linalg) and upstream MLIR both parse, whose temporaries are plain allocs (inside
``scf`` regions for the control-flow programs), and whose JIT-run out-params
equal the numpy reference on input sets that take every branch and run every
loop 0, 1, 2 and 3+ times.
"""

import subprocess
import sys

import pytest
from xdsl.dialects import func

from cfmem.mlir_check import MlirCheckError, mlir_available, verify_with_mlir
from cfmem.testing.upstream_programs import (
    BUFFERIZE,
    PROGRAMS,
    allocs_in_regions,
    bufferize,
    coverage_gaps,
    jit_mismatches,
    parse_program,
    run_program,
    run_program_many,
)

pytestmark = pytest.mark.skipif(
    not mlir_available(), reason="upstream MLIR python bindings not installed (pip install 'cfmem[mlir]')"
)

NAMES = list(PROGRAMS)


@pytest.fixture(
    scope="module", params=[pytest.param(n, marks=pytest.mark.xdist_group("upstream-programs")) for n in NAMES]
)
def bufferized(request) -> tuple[str, str]:
    """(program name, its bufferized text), made once per program."""
    return request.param, bufferize(PROGRAMS[request.param].text)


def test_import_loads_neither_xdsl_nor_mlir():
    code = (
        "import sys, cfmem.testing.upstream_programs;"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'xdsl', 'mlir'}))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_programs_cover_every_kind_of_control_flow():
    texts = {name: p.text for name, p in PROGRAMS.items()}
    assert not any(word in texts["chain"] for word in ("scf.", "tensor.extract"))
    assert "scf.if" in texts["branch"] and "scf.for" in texts["counted_loop"] and "scf.while" in texts["while_loop"]
    for_body = texts["if_in_for"].split("scf.for", 1)[1]
    assert "scf.if" in for_body
    if_body = texts["for_in_if"].split("scf.if", 1)[1].split("} else {", 1)[0]
    assert "scf.for" in if_body


@pytest.mark.parametrize("name", NAMES)
def test_input_sets_take_every_branch_and_trip_count(name):
    program = PROGRAMS[name]
    cases = list(program.cases.values())
    assert coverage_gaps(program, cases) == []
    if program.sites:  # one input set alone leaves something out
        assert coverage_gaps(program, cases[:1])


def test_coverage_gaps_name_what_is_missing():
    program = PROGRAMS["for_in_if"]
    then_only = [program.cases["then trips=0"], program.cases["then trips=2"]]
    assert coverage_gaps(program, then_only) == [
        "for_in_if: if never takes its else branch",
        "for_in_if: for never runs once",
        "for_in_if: for never runs 3 or more times",
    ]
    assert coverage_gaps(program, [program.cases["else"]]) == [
        "for_in_if: if never takes its then branch",
        *(f"for_in_if: for never runs {n}" for n in ("0 times", "once", "twice", "3 or more times")),
    ]


def test_bufferized_program_parses_and_has_out_params(bufferized):
    name, text = bufferized
    module = parse_program(text)
    main = next(op for op in module.ops if isinstance(op, func.FuncOp) and op.sym_name.data == "main")
    results = PROGRAMS[name].expected(next(iter(PROGRAMS[name].cases.values())))
    inputs = len(next(iter(PROGRAMS[name].cases.values())))
    assert main.function_type.outputs.data == ()
    assert len(main.function_type.inputs.data) == inputs + len(results)
    names = {op.name for op in module.walk()}
    assert "memref.alloc" in names and "memref.dealloc" in names
    assert not any(n.split(".")[0] in ("tensor", "bufferization") for n in names)
    verify_with_mlir(text)


def test_control_flow_programs_allocate_inside_scf_regions(bufferized):
    name, text = bufferized
    found = allocs_in_regions(parse_program(text))
    if PROGRAMS[name].sites:
        assert found and all(f.startswith(("memref<4x8xf32> in scf.", "memref<4x?xf32> in scf.")) for f in found[:2])
    else:
        assert found == []


def test_jit_outputs_equal_the_reference(bufferized):
    name, text = bufferized
    assert jit_mismatches(PROGRAMS[name], text) == []


def test_jit_mismatches_report_a_wrong_program():
    program = PROGRAMS["branch"]
    assert program.text.count("arith.mulf") == 1  # in the else branch only
    text = bufferize(program.text.replace("arith.mulf", "arith.addf"))
    [wrong] = jit_mismatches(program, text)
    assert wrong.startswith("branch [else]: out-param 0 differs from the reference (")


def test_run_program_returns_every_out_param():
    program = PROGRAMS["chain"]
    inputs = program.cases["positive"]
    outputs = run_program(bufferize(program.text), inputs)
    assert [o.shape for o in outputs] == [(4, 8), (4, 8)]
    assert (outputs[1] >= 0).all() and (outputs[1] > 0).any()  # the relu result


def test_run_program_refuses_what_it_cannot_run():
    text = bufferize(PROGRAMS["branch"].text)
    inputs = PROGRAMS["branch"].cases["then"]
    with pytest.raises(MlirCheckError, match=r"^cannot run @main: the input sets hold \[2, 3\] arrays"):
        run_program_many(text, [inputs, inputs[:2]])
    with pytest.raises(MlirCheckError, match="^the module has no func.func @main$"):
        run_program(text.replace('"main"', '"other"'), inputs)


def test_bufferize_fails_in_one_line():
    strict = BUFFERIZE.replace(" allow-return-allocs-from-loops", "")
    failed = r"^upstream MLIR's pass pipeline failed: line \d+:\d+: Yield operand #0 is not equivalent"
    with pytest.raises(MlirCheckError, match=failed) as err:
        bufferize(PROGRAMS["counted_loop"].text, pipeline=strict)
    assert "\n" not in str(err.value)
    with pytest.raises(MlirCheckError, match="^upstream MLIR rejected the module: line 1:"):
        bufferize("func.func @main(")
