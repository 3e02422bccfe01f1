"""The ONNX backend test data shipped in the onnx wheel (cfmem.testing.onnx_backend): every
case passes in the reference and the checking flat interpreter within onnx's tolerances, or is
refused for the reason its ``REFUSALS`` entry gives; a new refusal, a wrong number or a crash
fails.

Eight of the nine ImageNet CNNs of ``real`` (seconds to tens of seconds each) run in
``bench/onnx_backend.py``, which runs every case; the smallest, squeezenet, keeps the
``real`` path (onnx's own dummy input, no data set on disk) in this suite."""

from __future__ import annotations

import pytest

pytest.importorskip("onnx")

from cfmem.testing import onnx_backend  # noqa: E402

CASES = onnx_backend.cases()
IN_THE_BENCH = {c.label for c in CASES if c.folder == "real"} - {"real/test_squeezenet"}
"""The large ImageNet CNNs: run by bench/onnx_backend.py, not here."""


def test_every_case_of_the_four_folders_is_found_and_every_refusal_names_one():
    assert len(CASES) == 149
    assert set(onnx_backend.REFUSALS) <= {c.label for c in CASES}
    assert len(IN_THE_BENCH) == 8


SUITE_CASES = [c for c in CASES if c.label not in IN_THE_BENCH]


@pytest.mark.parametrize("case", SUITE_CASES, ids=[c.label for c in SUITE_CASES])
def test_case_passes_or_is_refused_for_its_listed_reason(case, tmp_path):
    outcome = onnx_backend.run_case(case, tmp_path)
    if case.label in onnx_backend.REFUSALS:
        reason, _ = onnx_backend.REFUSALS[case.label]
        assert outcome.status == "refused" and reason in outcome.detail, outcome
    else:
        assert outcome.status == "pass" and outcome.sets >= 1, outcome


def test_a_wrong_number_is_reported_as_wrong(tmp_path, monkeypatch):
    """The comparison can fail: expected outputs nudged by 1 % make a passing case wrong."""
    case = next(c for c in CASES if c.label == "pytorch-converted/test_Conv2d")
    real = onnx_backend.data_sets

    def nudged(c):
        return [(feeds, {k: v * 1.01 for k, v in want.items()}) for feeds, want in real(c)]

    monkeypatch.setattr(onnx_backend, "data_sets", nudged)
    outcome = onnx_backend.run_case(case, tmp_path)
    assert outcome.status == "wrong" and "outside rtol 0.001" in outcome.detail, outcome
