"""Every output of the bundled examples and onnx's backend models is what it was when the
goldens were written (``tests/golden_outputs.py`` says what they cover and how to rewrite them)."""

from __future__ import annotations

import difflib
import json

import pytest

from golden_outputs import BACKEND_DIGESTS, GOLDEN, backend_digests, example_names, example_outputs, tiled_output


def _same_as_golden(found: dict[str, str]) -> None:
    for file, text in found.items():
        want = (GOLDEN / file).read_text()
        if text != want:
            diff = difflib.unified_diff(want.splitlines(), text.splitlines(), f"golden/{file}", "now", lineterm="", n=1)
            pytest.fail(f"{file} changed:\n" + "\n".join(list(diff)[:40]))


@pytest.mark.parametrize("name", example_names())
def test_an_example_compiles_lowers_and_runs_as_its_goldens_say(name, tmp_path):
    found = example_outputs(name, tmp_path)
    assert len(found) >= 3
    _same_as_golden(found)


def test_the_tiled_chain_compiles_as_its_golden_says(tmp_path):
    _same_as_golden(tiled_output(tmp_path))


def test_every_backend_model_imports_as_its_golden_says():
    want = json.loads(BACKEND_DIGESTS.read_text())
    found = backend_digests()
    changed = sorted(label for label in want.keys() | found.keys() if want.get(label) != found.get(label))
    assert len(want) >= 140 and not changed, f"imports changed: {changed[:10]}"


def test_a_changed_output_is_caught(tmp_path):
    """The comparison fails on one changed character."""
    file = "seqkws.outputs.txt"
    text = (GOLDEN / file).read_text()
    with pytest.raises(pytest.fail.Exception, match="seqkws.outputs.txt changed"):
        _same_as_golden({file: text.replace("float32", "float16", 1)})
