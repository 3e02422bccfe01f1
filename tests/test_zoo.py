"""The representative part of the model zoo (``bench/zoo.py`` runs all of it): each model
imported, planned under every control-flow mode with ping-pong DMA, lowered, and run on
every input set by the reference and the checking flat interpreter, within 1e-4 of
onnxruntime (an int8 output: within one quantization step of it), each flat run
bit-identical to the reference on the same branches."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")

from onnx import TensorProto as T  # noqa: E402
from onnx import helper as h  # noqa: E402

from cfmem.planning.control_flow import MODES  # noqa: E402
from cfmem.testing import zoo, zoo_run  # noqa: E402
from cfmem.testing.zoo import ZooModel  # noqa: E402
from cfmem.testing.zoo_run import run_zoo_model  # noqa: E402

REPRESENTATIVE = [m for m in zoo.models() if m.representative]


def test_representative_part_spans_the_families_and_formats():
    """A float model of every family; an int8 one of every family that has them; both int8 formats."""
    for family in {m.family for m in zoo.models()}:
        kept = {m.precision for m in REPRESENTATIVE if m.family == family}
        assert "float" in kept, family
        if any(m.precision != "float" for m in zoo.models() if m.family == family):
            assert kept - {"float"}, family
    assert {m.precision for m in REPRESENTATIVE} >= {"int8 qdq", "int8 qoperator"}


@pytest.mark.parametrize("model", REPRESENTATIVE, ids=lambda m: m.name)
def test_zoo_model_matches_onnxruntime_under_every_mode(model: ZooModel, tmp_path: Path):
    result = run_zoo_model(model, tmp_path)
    assert result.status == "ok"
    assert result.input_sets >= 3 and result.paths == model.branch_paths
    assert result.reference_error <= result.tolerance
    assert set(result.modes) == set(MODES)
    for mode, planned in result.modes.items():
        assert planned.flat_error <= result.tolerance, mode
        assert planned.flat_equals_reference, mode
        assert planned.activation_bound <= planned.activation_peak, mode
        assert planned.lower_bound <= planned.peak, mode
        assert planned.activation_peak <= planned.peak, mode
    assert result.modes["exact"].activation_peak <= result.modes["naive"].activation_peak
    if model.precision == "int8 qdq":  # measured, not bounded: onnxruntime's own QDQ run rounds in float
        assert result.qdq_error is not None and np.isfinite(result.qdq_error)
    else:
        assert result.qdq_error is None


def _tiny(tmp_path: Path, op: str, domain: str = "") -> ZooModel:
    """A one-node zoo model ``y = op(x)`` written to ``tmp_path``."""
    graph = h.make_graph([h.make_node(op, ["x"], ["y"], name=f"{op}_0", domain=domain)], "g",
                         [h.make_tensor_value_info("x", T.FLOAT, (2, 3))], [h.make_tensor_value_info("y", T.FLOAT, (2, 3))])
    opsets = [h.make_opsetid("", 17)] + ([h.make_opsetid(domain, 1)] if domain else [])
    path = tmp_path / f"{op}.onnx"
    path.write_bytes(h.make_model(graph, opset_imports=opsets, ir_version=8).SerializeToString())
    feeds = lambda: zoo.normal_feeds("x", (2, 3))  # noqa: E731
    return ZooModel(op, "test", "float", lambda: path, feeds, {}, 1, False)


def test_a_refused_model_reports_where_it_stopped_and_claims_nothing(tmp_path: Path):
    work = tmp_path / "work"
    work.mkdir()
    result = run_zoo_model(_tiny(tmp_path, "Frobnicate", "example.custom"), work)
    assert result.status == "import: node Frobnicate_0 (Frobnicate): unsupported op domain 'example.custom'"
    assert result.modes == {} and result.input_sets == 0


def test_a_wrong_number_shows_as_an_error(tmp_path: Path, monkeypatch):
    """The comparison is real: onnxruntime answers shifted by 0.5 show as a 0.5 error everywhere."""
    real = zoo_run.onnxruntime_runs

    def shifted(path, feed_sets, fusions=True):
        return [{k: v + np.float32(0.5) for k, v in run.items()} for run in real(path, feed_sets, fusions)]

    monkeypatch.setattr(zoo_run, "onnxruntime_runs", shifted)
    work = tmp_path / "work"
    work.mkdir()
    result = run_zoo_model(_tiny(tmp_path, "Relu"), work, modes=("hoist",))
    assert result.status == "ok"
    assert result.reference_error == pytest.approx(0.5) and result.flat_error == pytest.approx(0.5)
    assert result.modes["hoist"].flat_equals_reference
