"""TFLite Micro's lifetimes and offline plan, without running TFLM: which tensors are planned
and when they live (``cfmem/tflite/lifetimes.py``), and the writer of the plan
(``cfmem/tflite/offline_plan.py``): every other field stays as it was, buffers stay
16-byte aligned, an existing plan is replaced, and a wrong plan is refused before anything
is written."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from cfmem.planning.problem import Solution
from cfmem.planning.strategies import solve
from cfmem.testing.tflite_models import sine_float_model
from cfmem.planning.problem import lower_bound
from cfmem.testing.tflm_models import example_models, if_model, while_model, while_swap_model
from cfmem.tflite.aliases import aliased_problem, reshape_aliases, with_aliases
from cfmem.tflite.lifetimes import arena_problem, arena_tensors, operator_scopes
from cfmem.tflite.model_file import TfliteFileError, builtin_name, parse_tflite, schema
from cfmem.tflite.offline_plan import (
    METADATA_NAME,
    OfflinePlanError,
    decode_plan,
    plan_metadata,
    planned_model,
    read_plan,
)
from cfmem.tflite.repack import BUFFER_ALIGNMENT, pack_model, tree_differences
from conftest import run_cfmem_in_process

MODELS = {**{name: path.read_bytes() for name, path in example_models().items()}, "sine_float": sine_float_model().read_bytes()}


def built_models() -> dict[str, bytes]:
    return {"if": if_model(), "while": while_model()}


def all_models() -> dict[str, bytes]:
    return {**MODELS, **built_models()}


def plan(data: bytes) -> tuple[object, list, Solution, bytes]:
    model = parse_tflite(data)
    tensors = arena_tensors(model)
    solution = solve(arena_problem(tensors))
    return model, tensors, solution, planned_model(model, tensors, solution.offsets)


def without_plan(model):
    """A copy of ``model`` without its OfflineMemoryAllocation entries, their buffers at the
    end of the list dropped and the others emptied (no metadata and an empty list alike)."""
    stripped = copy.copy(model)
    entries = plan_metadata(model)
    plan_buffers = {model.metadata[k].buffer for k in entries}
    stripped.metadata = [m for k, m in enumerate(model.metadata or []) if k not in entries] or None
    buffers = list(model.buffers)
    while buffers and len(buffers) - 1 in plan_buffers:
        buffers.pop()
    stripped.buffers = [schema().BufferT() if k in plan_buffers else b for k, b in enumerate(buffers)]
    return stripped


def buffer_data_offsets(data: bytes) -> list[int]:
    """Where each non-empty buffer's data starts in the file."""
    root = schema().Model.GetRootAs(data, 0)
    offsets = []
    for k in range(root.BuffersLength()):
        buffer = root.Buffers(k)
        field = buffer._tab.Offset(4)  # Buffer.data
        if field and buffer.DataLength():
            offsets.append(buffer._tab.Vector(field))
    return offsets


# ---------------------------------------------------------------------------- lifetimes


def test_if_lifetimes_walk_both_branches_in_their_own_scopes():
    tensors = arena_tensors(parse_tflite(if_model()))
    lives = {(t.subgraph, t.name): (t.first_created, t.last_used) for t in tensors}
    # main: ADD at scope 1, IF at 2 (then at 3..6, else at 7..9), MUL at 10
    assert lives[(0, "c")] == (0, 9) and lives[(0, "x")] == (0, 10)
    assert lives[(0, "doubled")] == (1, 9) and lives[(0, "chosen")] == (2, 10) and lives[(0, "y")] == (10, 10)
    assert lives[(1, "a")] == (3, 6) and lives[(1, "then_result")] == (6, 6)
    assert lives[(2, "a")] == (7, 8) and lives[(2, "else_result")] == (9, 9)
    assert operator_scopes(parse_tflite(if_model()))[(0, 1)] == (2, 9)  # the IF's own scratch would span both


def test_while_lifetimes_and_kinds():
    tensors = arena_tensors(parse_tflite(while_model()))
    by_name = {(t.subgraph, t.name): t for t in tensors}
    assert by_name[(0, "zero")].kind == "constant" and by_name[(0, "zero")].first_created == -1
    assert (by_name[(1, "going")].first_created, by_name[(1, "going")].last_used) == (3, 3)
    assert (by_name[(2, "x")].first_created, by_name[(2, "x")].last_used) == (4, 7)  # a body output: to the end
    assert [t.subgraph for t in tensors] == sorted(t.subgraph for t in tensors)  # TFLM's order


def test_every_tensor_kind_is_found():
    kinds = {t.kind for t in arena_tensors(parse_tflite(MODELS["trained_lstm_int8"]))}
    assert kinds == {"planned", "constant", "variable", "empty"}


def test_a_buffer_covers_the_closed_lifetime_aligned():
    problem = arena_problem(arena_tensors(parse_tflite(MODELS["hello_world_int8"])))
    assert all(b.size % 16 == 0 and b.align == 16 and b.size > 0 for b in problem.buffers)
    first = arena_tensors(parse_tflite(MODELS["hello_world_int8"]))
    planned = [t for t in first if t.planned]
    assert [(b.start, b.end) for b in problem.buffers] == [(t.first_created, t.last_used + 1) for t in planned]


def unreached(model):
    """A fourth subgraph no operator invokes, with one tensor."""
    spare = copy.deepcopy(model.subgraphs[1])
    model.subgraphs.append(spare)
    return model


def test_a_subgraph_no_operator_invokes_keeps_the_uninitialized_lifetime():
    tensors = arena_tensors(unreached(parse_tflite(if_model())))
    assert {(t.first_created, t.last_used) for t in tensors if t.subgraph == 3} == {(-1, -1)}


def bad(change) -> bytes:
    model = parse_tflite(if_model())
    change(model)
    return model


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda m: setattr(m.subgraphs[1].operators[0], "inputs", [0, 99]), "input of operator 0 is tensor 99"),
        (lambda m: setattr(m.subgraphs[0].tensors[1], "type", schema().TensorType.STRING), "type STRING"),
        (lambda m: setattr(m.subgraphs[0].operators[1].builtinOptions, "thenSubgraphIndex", 7), "subgraph 7"),
        (lambda m: setattr(m.subgraphs[0].operators[1].builtinOptions, "thenSubgraphIndex", 0), "invokes itself"),
        (lambda m: setattr(m.subgraphs[0].operators[0], "intermediates", [2]), "intermediate tensor 2 of 256 bytes"),
        (lambda m: setattr(m.operatorCodes[m.subgraphs[0].operators[1].opcodeIndex], "builtinCode", 0), "deprecated"),
        (lambda m: setattr(m.subgraphs[0].tensors[1], "buffer", 50), "buffer 50"),
    ],
    ids=["tensor-index", "string", "missing-subgraph", "recursion", "intermediate", "deprecated-code", "buffer-index"],
)
def test_what_tflm_refuses_is_a_one_line_error(change, message):
    with pytest.raises(TfliteFileError) as caught:
        arena_tensors(bad(change))
    assert message in str(caught.value) and "\n" not in str(caught.value)


# ---------------------------------------------------------------------------- the writer


@pytest.mark.parametrize("name", sorted(all_models()))
def test_everything_but_the_plan_stays_as_it_was(name):
    data = all_models()[name]
    model, tensors, solution, planned = plan(data)
    written = parse_tflite(planned)
    original = parse_tflite(data)
    assert tree_differences(without_plan(original), without_plan(written)) == []
    for k, buffer in enumerate(original.buffers):  # the tensor data, byte for byte
        if buffer.data is not None and k not in {original.metadata[e].buffer for e in plan_metadata(original)}:
            assert np.asarray(written.buffers[k].data).tobytes() == np.asarray(buffer.data).tobytes()
    assert len(plan_metadata(written)) == 1
    entries = read_plan(written)
    assert len(entries) == len(tensors)
    assert entries == [solution.offsets[t.buffer_id] if t.planned else -1 for t in tensors]
    assert all(e % 16 == 0 for e in entries if e != -1)
    assert all(offset % BUFFER_ALIGNMENT == 0 for offset in buffer_data_offsets(planned))


def test_the_header_is_version_subgraphs_count():
    model, tensors, _, planned = plan(if_model())
    written = parse_tflite(planned)
    words = np.frombuffer(np.asarray(written.buffers[written.metadata[-1].buffer].data).tobytes(), "<i4")
    assert list(words[:3]) == [1, 3, len(tensors)]
    assert written.metadata[-1].name == METADATA_NAME


def test_a_plan_is_replaced_in_its_own_buffer():
    _, _, _, once = plan(MODELS["person_detect"])
    model, tensors, _, twice = plan(once)
    first, second = parse_tflite(once), parse_tflite(twice)
    assert len(second.buffers) == len(first.buffers) and len(second.metadata) == len(first.metadata)
    assert tree_differences(first, second) == []  # the same plan again: the same model


def test_a_plan_in_a_shared_buffer_gets_a_new_one_and_only_one_entry_stays():
    model = parse_tflite(MODELS["simple_add_model"])
    entry = schema().MetadataT()
    entry.name, entry.buffer = METADATA_NAME, 0  # buffer 0 is everyone's empty buffer
    model.metadata = [entry, *model.metadata, copy.copy(entry)]
    tensors = arena_tensors(model)
    planned = parse_tflite(planned_model(model, tensors, solve(arena_problem(tensors)).offsets))
    assert len(planned.buffers) == len(model.buffers) + 1
    assert [m.name for m in planned.metadata].count(METADATA_NAME) == 1
    assert planned.buffers[0].data is None or len(planned.buffers[0].data) == 0


def test_an_overlapping_plan_is_refused_with_one_line():
    model, tensors, solution, _ = plan(if_model())
    offsets = dict(solution.offsets)
    offsets["1:2"] = offsets["1:0"]  # 'square' onto 'a', both live at scope 4
    with pytest.raises(OfflinePlanError) as caught:
        planned_model(model, tensors, offsets)
    text = str(caught.value)
    assert "\n" not in text and "refusing to write a wrong plan" in text
    assert "'1:0' (a)" in text and "'1:2' (square)" in text and "overlap" in text


def aliased_plan(data: bytes) -> tuple[object, list, dict[str, str], dict[str, int]]:
    """A plan with every RESHAPE output on its input's bytes."""
    model = parse_tflite(data)
    tensors = arena_tensors(model)
    roots = reshape_aliases(model, tensors)
    offsets = solve(aliased_problem(arena_problem(tensors), roots)).offsets
    return model, tensors, roots, with_aliases(offsets, roots)


def test_reshape_outputs_and_only_they_alias_their_inputs():
    model, tensors, roots, _ = aliased_plan(while_swap_model())
    assert roots == {"2:6": "2:1"}  # the body's 'moved' on its input 'a', both subgraph borders
    for name, path in example_models().items():
        model = parse_tflite(path.read_bytes())
        tensors = arena_tensors(model)
        reshaped = {
            f"{sg}:{op.outputs[0]}"
            for sg, subgraph in enumerate(model.subgraphs)
            for op in subgraph.operators or []
            if builtin_name(model, op.opcodeIndex) == "RESHAPE"
        }
        assert set(reshape_aliases(model, tensors)) <= reshaped, name
    assert reshape_aliases(parse_tflite(if_model()), arena_tensors(parse_tflite(if_model()))) == {}


def test_a_chain_of_reshapes_shares_one_root():
    model = parse_tflite(while_swap_model())
    body = model.subgraphs[2]
    moved = body.tensors[6]
    again = copy.copy(moved)
    again.name = b"moved_again"
    body.tensors.append(again)
    second = copy.copy(body.operators[1])
    second.inputs, second.outputs = [6, 4], [len(body.tensors) - 1]
    body.operators.append(second)
    body.outputs = [5, 2, len(body.tensors) - 1]
    tensors = arena_tensors(model)
    assert reshape_aliases(model, tensors) == {"2:6": "2:1", "2:7": "2:1"}


def test_the_aliased_bound_is_below_the_plain_one_and_the_plan_is_accepted():
    model, tensors, roots, offsets = aliased_plan(example_models()["person_detect"].read_bytes())
    assert roots
    plain, merged = arena_problem(tensors), aliased_problem(arena_problem(tensors), roots)
    assert len(merged.buffers) == len(plain.buffers) - len(roots)
    assert lower_bound(merged.buffers) <= lower_bound(plain.buffers)
    assert read_plan(parse_tflite(planned_model(model, tensors, offsets))) is not None


def test_a_reshape_output_beside_its_input_is_refused():
    model, tensors, _, offsets = aliased_plan(while_swap_model())
    assert offsets["2:6"] == offsets["2:1"]
    planned_model(model, tensors, offsets)
    shifted = {**offsets, "2:6": offsets["2:1"] + 16}  # overlaps 'a' by all but 16 bytes
    with pytest.raises(OfflinePlanError, match="overlap"):
        planned_model(model, tensors, shifted)


def test_a_misaligned_plan_is_refused():
    model, tensors, solution, _ = plan(if_model())
    offsets = {**solution.offsets, "0:1": solution.offsets["0:1"] + 8}
    with pytest.raises(OfflinePlanError, match="not aligned to 16 bytes"):
        planned_model(model, tensors, offsets)


def test_a_variable_tflm_would_read_the_wrong_entry_of_is_refused():
    model = parse_tflite(if_model())
    model.subgraphs[1].tensors[2].isVariable = True  # entry 2 belongs to subgraph 0's planned 'doubled'
    tensors = arena_tensors(model)
    with pytest.raises(OfflinePlanError, match="reads a variable's plan entry at its index within its subgraph"):
        planned_model(model, tensors, solve(arena_problem(tensors)).offsets)


def test_decode_refuses_a_malformed_entry():
    with pytest.raises(OfflinePlanError, match="announces 5 offsets but holds 1"):
        decode_plan(np.array([1, 1, 5, 0], "<i4").tobytes())
    with pytest.raises(OfflinePlanError, match="not a header"):
        decode_plan(b"\x00" * 6)


def test_pack_keeps_a_model_without_buffers_data():
    model = parse_tflite(MODELS["simple_add_model"])
    assert tree_differences(model, parse_tflite(pack_model(model))) == []


def test_tree_differences_names_the_field():
    a, b = parse_tflite(MODELS["simple_add_model"]), parse_tflite(MODELS["simple_add_model"])
    b.subgraphs[0].tensors[1].shape = np.array([1, 2, 3], dtype=np.int32)
    assert tree_differences(a, b)[0].startswith("model.subgraphs[0].tensors[1].shape:")


# ---------------------------------------------------------------------------- the command


def test_a_wrong_plan_from_the_planner_is_refused_before_anything_is_written(tmp_path, monkeypatch):
    from cfmem.tflite import arena_plan

    real_solve = arena_plan.solve

    def overlapping(problem, strategy="auto", options=None):
        solution = real_solve(problem, strategy, options)
        if strategy == "tflm":
            return solution
        return Solution({b.id: 0 for b in problem.buffers}, solution.peak, solution.lower_bound, strategy)

    monkeypatch.setattr(arena_plan, "solve", overlapping)
    source = tmp_path / "if.tflite"
    source.write_bytes(if_model())
    out = tmp_path / "planned.tflite"
    res = run_cfmem_in_process(["plan-tflite", str(source), "-o", str(out), "--no-tflm"], tmp_path)
    assert res.returncode == 1, res.stderr
    assert res.stderr.count("\n") == 1 and "refusing to write a wrong plan" in res.stderr
    assert not out.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["if.tflite"]


@pytest.mark.parametrize(
    "damage, message",
    [
        (lambda d: d[:100], "malformed TFLite model: operatorCodes points past the end of the file (100 bytes)"),
        (lambda d: d[:4] + b"XXXX" + d[8:], "not a TFLite model: file identifier b'XXXX'"),
        (lambda d: (len(d) + 4).to_bytes(4, "little") + d[4:], "root offset"),
        (lambda d: d[:6], "too short"),
    ],
    ids=["truncated", "wrong-identifier", "bad-root-offset", "short"],
)
def test_a_malformed_file_is_a_one_line_error(tmp_path, damage, message, cfmem):
    source = tmp_path / "bad.tflite"
    source.write_bytes(damage(MODELS["hello_world_int8"]))
    res = cfmem("plan-tflite", str(source), "-o", str(tmp_path / "out.tflite"), "--no-tflm")
    assert res.returncode == 1
    assert res.stderr.count("\n") == 1 and res.stderr.startswith(f"cfmem: {source}: error: ") and message in res.stderr
    assert not (tmp_path / "out.tflite").exists()


def test_the_command_never_writes_over_its_input(tmp_path, cfmem):
    source = tmp_path / "model.tflite"
    source.write_bytes(MODELS["hello_world_int8"])
    res = cfmem("plan-tflite", str(source), "-o", str(source), "--no-tflm")
    assert res.returncode == 1 and "never writes over its input" in res.stderr
    assert source.read_bytes() == MODELS["hello_world_int8"]


def test_the_command_without_tflm(tmp_path, cfmem):
    source = tmp_path / "model.tflite"
    source.write_bytes(MODELS["trained_lstm_int8"])
    res = cfmem("plan-tflite", str(source), "-o", str(tmp_path / "planned.tflite"), "--no-tflm")
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert lines[0] == "model.tflite: 1 subgraph, 27 tensors: 5 in the arena, 15 constants, 2 variables, 5 empty"
    assert "not measured (--no-tflm)" in res.stdout and "variable tensors are not in the plan" in res.stdout
    assert read_plan(parse_tflite((tmp_path / "planned.tflite").read_bytes())) is not None
