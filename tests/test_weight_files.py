"""Weights stay binary: a flat module names its weight file instead of holding the bytes,
and is never run with a file that does not hold them.

The model is a small ONNX network imported as a user would (``cfmem import`` writes
``m.mlir`` and ``m.weights.bin``); the flat module is compiled into another directory.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

import numpy as np
import pytest
from conftest import run_cfmem

from cfmem.weight_file import FILE_ATTR, SHA256_ATTR


def _onnx_model(path: Path) -> None:
    import onnx
    from onnx import TensorProto as T
    from onnx import helper as h
    from onnx import numpy_helper

    rng = np.random.default_rng(7)
    weights = [
        numpy_helper.from_array(rng.standard_normal((8, 3, 3, 3)).astype(np.float32), "w"),
        numpy_helper.from_array(rng.standard_normal(8).astype(np.float32), "b"),
        numpy_helper.from_array(rng.standard_normal((10, 512)).astype(np.float32), "w2"),
    ]
    nodes = [
        h.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1]),
        h.make_node("Relu", ["c"], ["r"]),
        h.make_node("Flatten", ["r"], ["f"]),
        h.make_node("Gemm", ["f", "w2"], ["y"], transB=1),
    ]
    graph = h.make_graph(
        nodes, "g", [h.make_tensor_value_info("x", T.FLOAT, [1, 3, 8, 8])],
        [h.make_tensor_value_info("y", T.FLOAT, [1, 10])], weights,
    )  # fmt: skip
    onnx.save(h.make_model(graph, opset_imports=[h.make_opsetid("", 13)]), str(path))


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``models/m.mlir`` and its weights, and ``out/flat.mlir`` compiled from them."""
    root = tmp_path_factory.mktemp("weights")
    (root / "models").mkdir()
    _onnx_model(root / "models" / "m.onnx")
    for args in (("import", "models/m.onnx", "-o", "models/m.mlir"), ("compile", "models/m.mlir", "-o", "out/flat.mlir")):
        (root / "out").mkdir(exist_ok=True)
        done = run_cfmem(*args, cwd=root)
        assert done.returncode == 0, done.stderr
    return root


def _weights_global(text: str) -> str:
    lines = [line for line in text.splitlines() if '"memref.global"' in line and 'sym_name = "weights"' in line]
    assert len(lines) == 1, text[:2000]
    return lines[0]


def test_flat_module_names_its_weight_file_and_holds_no_weight_bytes(compiled: Path) -> None:
    blob = (compiled / "models" / "m.weights.bin").read_bytes()
    text = (compiled / "out" / "flat.mlir").read_text()
    line = _weights_global(text)
    assert "dense<" not in line and "initial_value," in line  # uninitialized: the bytes are in the file
    assert f'{FILE_ATTR} = "../models/m.weights.bin"' in line  # relative to the flat module's directory
    assert f'{SHA256_ATTR} = "{hashlib.sha256(blob).hexdigest()}"' in line
    assert len(text) < len(blob)  # hex text would be twice the weights
    for start in range(0, len(blob) - 16, len(blob) // 7):  # no run of the weights appears as hex, in either case
        run = blob[start : start + 16].hex()
        assert run not in text.lower()


def test_flat_module_runs_from_any_directory_with_the_weights_of_the_model(compiled: Path) -> None:
    reference = run_cfmem("run", "models/m.mlir", "--seed", "3", "-o", "ref.npz", cwd=compiled)
    assert reference.returncode == 0, reference.stderr
    for cwd, flat, out in ((compiled, "out/flat.mlir", "a.npz"), (compiled / "out", "flat.mlir", "b.npz")):
        done = run_cfmem("run", flat, "--seed", "3", "-o", out, cwd=cwd)
        assert done.returncode == 0, done.stderr
        with np.load(compiled / "ref.npz") as ref, np.load(cwd / out) as got:
            assert ref.files == got.files and all(np.array_equal(ref[k], got[k]) for k in ref.files)


def test_opt_to_standard_output_names_the_file_from_the_current_directory(compiled: Path) -> None:
    done = run_cfmem("opt", "models/m.mlir", "-p", "nn-insert-dma,nn-plan-memory,nn-lower-to-memref", cwd=compiled)
    assert done.returncode == 0, done.stderr
    assert f'{FILE_ATTR} = "models/m.weights.bin"' in _weights_global(done.stdout)


def _tampered(blob: bytes) -> bytes:
    return blob[:100] + bytes([blob[100] ^ 1]) + blob[101:]


@pytest.mark.parametrize(
    "damage, message",
    [
        (_tampered, r"the weight file's 21,504 bytes at offset 0 are not the module's \(SHA-256 [0-9a-f]{12}\.\.\."),
        (lambda blob: blob[:1000], r"the weight file holds 1,000 bytes, the module needs 21,504 at offset 0"),
        (lambda blob: blob[::-1], r"are not the module's"),  # same size, other bytes: another model's file
        (None, r"cannot read the weight file: No such file or directory"),
    ],
    ids=["one-bit", "short", "other-model", "missing"],
)
def test_a_weight_file_that_is_not_the_modules_is_refused(compiled: Path, tmp_path: Path, damage, message: str) -> None:
    (tmp_path / "models").mkdir()
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "flat.mlir").write_bytes((compiled / "out" / "flat.mlir").read_bytes())
    if damage is not None:
        (tmp_path / "models" / "m.weights.bin").write_bytes(damage((compiled / "models" / "m.weights.bin").read_bytes()))
    done = run_cfmem("run", "out/flat.mlir", "--seed", "0", "-o", "y.npz", cwd=tmp_path)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 1 and len(lines) == 1, done.stderr
    assert lines[0].startswith("cfmem: models/m.weights.bin: error: weights of @weights: "), lines[0]
    assert re.search(message, lines[0]), lines[0]
    assert not (tmp_path / "y.npz").exists()


def test_upstream_mlir_reads_the_weight_file_and_refuses_another(compiled: Path, tmp_path: Path) -> None:
    from cfmem.differential import linalg_text, run_mlir
    from cfmem.interp.flat import run_flat
    from cfmem.interp.golden import find_function, random_inputs
    from cfmem.ir_io import load_module
    from cfmem.mlir_check import MlirCheckError, mlir_available

    if not mlir_available():
        pytest.skip("upstream MLIR python bindings not installed (pip install 'cfmem[mlir]')")
    (tmp_path / "models").mkdir()
    (tmp_path / "out").mkdir()
    blob = (compiled / "models" / "m.weights.bin").read_bytes()
    (tmp_path / "models" / "m.weights.bin").write_bytes(blob)
    (tmp_path / "out" / "flat.mlir").write_bytes((compiled / "out" / "flat.mlir").read_bytes())
    flat, _ = load_module(tmp_path / "out" / "flat.mlir")  # its weight path now starts from here
    inputs = random_inputs(find_function(flat, None), seed=5)
    text = linalg_text(flat)
    [jit] = run_mlir(text, flat, [inputs])
    expected = run_flat(flat, inputs).outputs
    assert jit.keys() == expected.keys()
    assert all(np.allclose(jit[k], expected[k], rtol=1e-5, atol=1e-5) for k in jit)
    assert not all(np.allclose(jit[k], 0) for k in jit)  # the weights were there, not zeros
    (tmp_path / "models" / "m.weights.bin").write_bytes(_tampered(blob))
    with pytest.raises(MlirCheckError, match=r"models/m.weights.bin: the weight file's 21,504 bytes .* not the module's"):
        run_mlir(text, flat, [inputs])


# --- the check itself, in process ------------------------------------------------------------


def _file(tmp_path: Path, data: bytes, name: str = "w.bin") -> Path:
    (tmp_path / name).write_bytes(data)
    return tmp_path / name


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_the_bytes_at_the_offset_are_mapped_and_writes_never_reach_the_file(tmp_path: Path) -> None:
    from cfmem.weight_file import map_checked

    data = bytes(range(256)) * 4
    path = _file(tmp_path, data)
    got = map_checked(path, 100, 300, _sha(data[100:400]))
    assert type(got) is np.ndarray and got.dtype == np.uint8 and got.tobytes() == data[100:400]
    got[:] = 7  # a constant global a run writes into
    assert path.read_bytes() == data
    one = map_checked(path, 5, 1, _sha(data[5:6]))
    assert one.tobytes() == data[5:6]


def test_an_empty_blob_needs_no_mapping(tmp_path: Path) -> None:
    from cfmem.weight_file import map_checked

    got = map_checked(_file(tmp_path, b""), 0, 0, _sha(b""))
    assert got.shape == (0,) and got.dtype == np.uint8


def test_each_refusal_is_one_line_naming_the_file(tmp_path: Path) -> None:
    from cfmem.weight_file import WeightFileError, map_checked

    path = _file(tmp_path, bytes(10))
    with pytest.raises(WeightFileError) as short:
        map_checked(path, 4, 8, _sha(bytes(8)))
    assert short.value.path == str(path)
    assert short.value.message == "the weight file holds 10 bytes, the module needs 8 at offset 4 (is it the weight file of this module?)"
    assert str(short.value) == f"{path}: {short.value.message}"
    with pytest.raises(WeightFileError) as directory:
        map_checked(tmp_path, 0, 1, _sha(bytes(1)))
    assert (directory.value.message, directory.value.path) == ("cannot map the weight file: Is a directory", str(tmp_path))
    with pytest.raises(WeightFileError) as other:
        map_checked(path, 1, 2, _sha(b"xy"))
    assert other.value.message.startswith("the weight file's 2 bytes at offset 1 are not the module's (SHA-256 ")


def test_a_file_is_hashed_once_until_it_is_rewritten_and_a_hash_vouches_for_its_file_only(tmp_path: Path, monkeypatch) -> None:
    import cfmem.weight_file as weight_file

    hashed = []
    real = weight_file.sha256_of
    monkeypatch.setattr(weight_file, "sha256_of", lambda data: hashed.append(len(data)) or real(data))
    monkeypatch.setattr(weight_file, "_verified", set())
    data = b"abcdefgh"
    path = _file(tmp_path, data)
    weight_file.map_checked(path, 0, 8, _sha(data))
    weight_file.map_checked(path, 0, 8, _sha(data))
    assert hashed == [8]
    other = _file(tmp_path, b"ABCDEFGH", "other.bin")  # never checked: the first file's check must not pass it
    with pytest.raises(weight_file.WeightFileError, match="are not the module's"):
        weight_file.map_checked(other, 0, 8, _sha(data))
    path.write_bytes(b"abcdefgX")
    os.utime(path, ns=(1, 1))  # rewritten: a new modification time
    with pytest.raises(weight_file.WeightFileError, match="are not the module's"):
        weight_file.map_checked(path, 0, 8, _sha(data))


def test_a_weight_file_is_found_beside_the_module_or_in_the_current_directory() -> None:
    from cfmem.weight_file import resolve

    assert resolve("w.bin", None) == Path("w.bin")
    assert resolve("w.bin", "models") == Path("models/w.bin")
