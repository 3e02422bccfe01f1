"""Real models: silero-vad 6.2.3 (both ONNX files) and exported torch.cond models.

Each is imported with its data-dependent Ifs kept, planned with ping-pong DMA,
lowered, and run on every branch by the reference interpreter and the checking
flat interpreter; both must match onnxruntime within 1e-4 absolute.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")

from cfmem.differential import check  # noqa: E402
from cfmem.importers.onnx import import_onnx  # noqa: E402
from cfmem.importers.onnx.reference import cfmem_inputs, max_abs_error, onnxruntime_outputs  # noqa: E402
from cfmem.interp.flat import run_flat  # noqa: E402
from cfmem.interp.flat_bounds import BoundedFlatInterpreter  # noqa: E402
from cfmem.interp.golden import find_function, run_function  # noqa: E402
from cfmem.mlir_check.jit import mlir_available  # noqa: E402
from cfmem.pipeline import lower_model  # noqa: E402
from cfmem.testing import onnx_models  # noqa: E402

TOLERANCE = 1e-4


def import_and_lower(path: Path, tmp_path: Path, shapes=None, values=None):
    imported = import_onnx(path, blob_file="model.weights.bin", input_shapes=shapes or {}, input_values=values or {})
    (tmp_path / "model.weights.bin").write_bytes(imported.blob)
    flat = lower_model(imported.module, "nn-insert-dma,nn-plan-memory", tmp_path)
    return imported, flat


def assert_matches_onnxruntime(path: Path, tmp_path: Path, imported, flat, feeds, fixed=None) -> tuple:
    want = onnxruntime_outputs(path, feeds)
    inputs = cfmem_inputs(feeds, fixed or {})
    golden = run_function(imported.module, inputs, base_dir=tmp_path)
    got = run_flat(flat, inputs, check=True)
    assert max_abs_error(want, golden.outputs) <= TOLERANCE, max_abs_error(want, golden.outputs)
    assert max_abs_error(want, got.outputs) <= TOLERANCE, max_abs_error(want, got.outputs)
    assert got.branches == golden.branches
    return tuple(golden.branches)


def silero_feeds(samples: int, sr: int, seed: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {
        "input": (rng.standard_normal((1, samples)) * 0.3).astype(np.float32),
        "state": (rng.standard_normal((2, 1, 128)) * 0.5).astype(np.float32),
        "sr": np.array(sr, dtype=np.int64),
    }


def silero_shapes(samples: int) -> dict[str, tuple[int, ...]]:
    return {"input": (1, samples), "state": (2, 1, 128)}


SHARED_SAMPLES = 256
"""One input length both sample-rate branches accept (silero_vad.onnx rejects
more than one encoder frame: above 336 samples at 8 kHz)."""
REAL_SAMPLES = {16000: 576, 8000: 288}
"""What the silero package feeds: 512 or 256 new samples plus 64 or 32 of context."""


@pytest.fixture(scope="module")
def silero(tmp_path_factory):
    try:
        return {name: onnx_models.silero_model(name) for name in ("silero_vad_op18_ifless.onnx", "silero_vad.onnx")}
    except RuntimeError as err:
        pytest.skip(str(err))


@pytest.mark.parametrize("name, folded", [("silero_vad_op18_ifless.onnx", 0), ("silero_vad.onnx", 12)])
def test_silero_with_the_sample_rate_as_input_keeps_one_if_and_matches_onnxruntime_on_both_branches(
    silero, tmp_path, name, folded
):
    path = silero[name]
    imported, flat = import_and_lower(path, tmp_path, shapes=silero_shapes(SHARED_SAMPLES))
    assert imported.kept_ifs == 1 and imported.folded_ifs == folded
    taken = {
        assert_matches_onnxruntime(path, tmp_path, imported, flat, silero_feeds(SHARED_SAMPLES, sr, seed))
        for sr in (16000, 8000)
        for seed in range(2)
    }
    assert taken == {(("if#0", True),), (("if#0", False),)}


@pytest.mark.parametrize("name", ["silero_vad_op18_ifless.onnx", "silero_vad.onnx"])
@pytest.mark.parametrize("sr", [16000, 8000])
def test_silero_at_a_fixed_sample_rate_and_its_real_input_length_has_no_if_left(silero, tmp_path, name, sr):
    path = silero[name]
    samples = REAL_SAMPLES[sr]
    imported, flat = import_and_lower(path, tmp_path, shapes=silero_shapes(samples), values={"sr": sr})
    assert imported.kept_ifs == 0 and not any(op.name == "nn.if" for op in imported.module.walk())
    assert_matches_onnxruntime(path, tmp_path, imported, flat, silero_feeds(samples, sr, 3), fixed={"sr": sr})


@pytest.mark.skipif(not onnx_models.torch_available(), reason="torch.cond models need the torch extra")
@pytest.mark.parametrize("name", ["cond_mlp", "cond_conv", "cond_chain"])
def test_torch_cond_models_keep_their_nested_ifs_and_match_onnxruntime_on_every_path(tmp_path, name):
    path = onnx_models.cond_model(name)
    imported, flat = import_and_lower(path, tmp_path)
    feeds = onnx_models.cond_inputs(name)
    paths = {assert_matches_onnxruntime(path, tmp_path, imported, flat, f) for f in feeds.values()}
    assert len(paths) == len(feeds)  # every input set takes its own path
    outcomes = {step for p in paths for step in p}
    assert outcomes == {(f"if#{k}", t) for k in range(imported.kept_ifs) for t in (True, False)}
    assert imported.kept_ifs >= 2


def test_cfmem_import_and_cfmem_run_reproduce_onnxruntime_on_both_silero_branches(silero, tmp_path):
    from conftest import run_cfmem

    path = silero["silero_vad_op18_ifless.onnx"]
    done = run_cfmem("import", str(path), "-o", "vad.mlir", "--input-shape", "input=1,256",
                     "--input-shape", "state=2,1,128", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    for sr, branch in ((16000, "then"), (8000, "else")):
        feeds = silero_feeds(SHARED_SAMPLES, sr, 5)
        np.savez(tmp_path / "in.npz", **cfmem_inputs(feeds))
        done = run_cfmem("run", "vad.mlir", "--inputs", "in.npz", "-o", "out.npz", cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert f"if#0: {branch}" in done.stdout
        got = dict(np.load(tmp_path / "out.npz"))
        assert max_abs_error(onnxruntime_outputs(path, feeds), got) <= TOLERANCE


@pytest.mark.skipif(not mlir_available(), reason="needs the mlir extra")
def test_imported_models_verify_and_run_under_upstream_mlir_like_the_flat_interpreter(silero, tmp_path):
    """Slices, reflect pads, integer compares and unrolled LSTMs of real models under the JIT,
    within check-mlir's computed bounds (silero's 256-tap STFT convolution and LSTM state
    sums round differently in loop order, beyond a fixed rtol 1e-5 / atol 1e-6), which are
    not loose: under 1e-3 of the typical output."""
    cases = [(silero["silero_vad_op18_ifless.onnx"], silero_shapes(SHARED_SAMPLES),
              [cfmem_inputs(silero_feeds(SHARED_SAMPLES, sr, 7)) for sr in (16000, 8000)])]  # fmt: skip
    if onnx_models.torch_available():
        name = "cond_conv"
        cases.append((onnx_models.cond_model(name), {}, [cfmem_inputs(f) for f in onnx_models.cond_inputs(name).values()]))
    for path, shapes, input_sets in cases:
        imported, flat = import_and_lower(path, tmp_path, shapes=shapes)
        rows = check(imported.module, flat, input_sets, base_dir=tmp_path)
        assert all(row.ok() for row in rows), [(row.trace, row.mlir_vs_flat) for row in rows]
        interp = BoundedFlatInterpreter(flat)
        for inputs in input_sets:
            outputs = interp.run(find_function(flat, None), inputs).outputs
            for name, value in outputs.items():
                typical = np.median(np.abs(value.astype(np.float64)))
                assert np.median(interp.output_bounds[name]) < 1e-3 * typical, name
        assert len({row.trace for row in rows}) == len(input_sets)


def test_a_length_only_one_silero_branch_accepts_is_a_located_one_line_error(silero, tmp_path):
    from conftest import run_cfmem

    done = run_cfmem("import", str(silero["silero_vad.onnx"]), "-o", "vad.mlir", "--input-shape", "input=1,512",
                     "--input-shape", "state=2,1,128", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 1 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "(LSTM): LSTM input X has shape [1, 1, 1, 128, 2], expected [seq_length, batch_size, input_size]" in done.stderr
    assert list(tmp_path.iterdir()) == []
