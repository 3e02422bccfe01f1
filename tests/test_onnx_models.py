"""The real ONNX models used by importer tests: fetched or exported, valid, and runnable.

The Silero tests download a wheel with pip on a cold cache; the torch.cond tests need
the ``torch`` extra and are skipped without it.
"""

import importlib.metadata
import subprocess
import sys
from collections import Counter
from itertools import combinations

import numpy as np
import onnx
import onnxruntime as ort
import pytest

from cfmem.testing import onnx_models as om
from conftest import ROOT

needs_torch = pytest.mark.skipif(not om.torch_available(), reason="needs the torch extra")

# Every op the torch.cond models contain, subgraphs included: the importer must support each.
COND_MODEL_OPS = {
    "Add", "AveragePool", "Concat", "Conv", "Gemm", "Greater", "If", "MatMul", "MaxPool", "Mul",
    "ReduceMean", "ReduceSum", "Relu", "Reshape", "Sigmoid", "Softmax", "Squeeze", "Sub", "Tanh",
}


def op_counts(graph: onnx.GraphProto) -> Counter:
    """Op types in ``graph`` and, recursively, in its nodes' subgraphs."""
    ops = Counter()
    for node in graph.node:
        ops[node.op_type] += 1
        for attr in node.attribute:
            for sub in [attr.g] * (attr.type == onnx.AttributeProto.GRAPH) + list(attr.graphs):
                ops += op_counts(sub)
    return ops


def if_depth(graph: onnx.GraphProto) -> int:
    """The deepest nesting of If nodes in ``graph``."""
    depth = 0
    for node in graph.node:
        for attr in node.attribute:
            for sub in [attr.g] * (attr.type == onnx.AttributeProto.GRAPH) + list(attr.graphs):
                depth = max(depth, if_depth(sub) + (node.op_type == "If"))
        if node.op_type == "If":
            depth = max(depth, 1)
    return depth


def test_cache_dir_follows_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("CFMEM_CACHE", str(tmp_path / "c"))
    assert om.cache_dir() == tmp_path / "c" and (tmp_path / "c").is_dir()
    monkeypatch.delenv("CFMEM_CACHE")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert om.cache_dir() == tmp_path / ".cache" / "cfmem"


@pytest.mark.parametrize(("name", "ifs", "depth"),
                         [("silero_vad_op18_ifless.onnx", 1, 1), ("silero_vad.onnx", 25, 4)])
def test_silero_model(name, ifs, depth):
    path = om.silero_model(name)
    assert path.name == name and path.parent.parent == om.cache_dir() / "silero"
    model = onnx.load(path)
    onnx.checker.check_model(model)
    assert op_counts(model.graph)["If"] == ifs
    assert if_depth(model.graph) == depth
    assert om.silero_model(name) == path


def test_silero_rejects_unknown_name():
    with pytest.raises(ValueError, match="unknown Silero model"):
        om.silero_model("silero_vad.jit")


def test_silero_download_failure_is_one_line(monkeypatch, tmp_path):
    monkeypatch.setenv("CFMEM_CACHE", str(tmp_path))
    monkeypatch.setattr(om, "SILERO_VERSION", "0.0.0.999")
    with pytest.raises(RuntimeError, match=r"could not download silero-vad==0\.0\.0\.999") as err:
        om.silero_model("silero_vad.onnx")
    assert "\n" not in str(err.value)
    assert not list(tmp_path.rglob("*.onnx"))


def test_torch_free_helpers_cover_every_path():
    for name, spec in om.COND_MODELS.items():
        inputs = om.cond_inputs(name)
        assert set(inputs) == set(spec.knobs)
        for feed in inputs.values():
            assert feed["x"].shape == spec.input_shape and feed["x"].dtype == np.float32


@needs_torch
@pytest.mark.parametrize(("name", "min_depth"), [("cond_mlp", 2), ("cond_conv", 3), ("cond_chain", 2)])
def test_cond_model_exports_valid_nested_ifs(name, min_depth):
    path = getattr(om, name)()
    assert path.parent == om.cache_dir() / "torch_cond" and path.name.startswith(f"{name}-")
    model = onnx.load(path)
    onnx.checker.check_model(model, full_check=True)
    assert [(o.domain, o.version) for o in model.opset_import] == [("", om.OPSET)]
    ops = op_counts(model.graph)
    assert ops["If"] >= 2
    assert if_depth(model.graph) >= min_depth
    assert set(ops) <= COND_MODEL_OPS, set(ops) - COND_MODEL_OPS
    assert [i.name for i in model.graph.input] == ["x"]
    shape = [d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim]
    assert tuple(shape) == om.COND_MODELS[name].input_shape
    inode = path.stat().st_ino  # a second export would replace the file with a new one
    assert getattr(om, name)() == path and path.stat().st_ino == inode


@needs_torch
def test_a_cached_model_is_found_without_importing_torch():
    """The cache key reads the installed versions, and only a miss builds the example input:
    a process that finds every exported model in the cache never loads torch."""
    import onnxscript
    import torch

    from cfmem.testing import zoo

    assert (importlib.metadata.version("torch"), importlib.metadata.version("onnxscript")) == (
        torch.__version__, onnxscript.__version__)  # the key names the versions torch itself reports
    made = [om.cond_model("cond_mlp"), zoo.float_model("dscnn")]  # exported here on a cold cache
    script = ("import sys; from cfmem.testing import onnx_models as om, zoo; "
              "print(om.cond_model('cond_mlp')); print(zoo.float_model('dscnn')); print('torch' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [*map(str, made), "False"]


@needs_torch
@pytest.mark.parametrize("name", list(om.COND_MODELS))
def test_cond_model_inputs_take_every_path(name):
    session = ort.InferenceSession(str(om.cond_model(name)), providers=["CPUExecutionProvider"])
    outputs = {}
    for path, feed in om.cond_inputs(name).items():
        (got,) = session.run(None, feed)
        taken, expected = om.branch_path(name, feed["x"])
        assert taken == path
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
        outputs[path] = got
    for a, b in combinations(outputs, 2):
        assert not np.allclose(outputs[a], outputs[b], atol=1e-3), (a, b)


def test_the_cache_keeps_other_keys_in_use_and_drops_only_long_unused_ones(monkeypatch, tmp_path):
    """Two checkouts of different sources share the cache: making one key's model must not
    delete the other's while it is in use; only a file unused for STALE_DAYS goes."""
    import os
    import time

    monkeypatch.setenv("CFMEM_CACHE", str(tmp_path))

    def make(path):
        path.write_bytes(b"model")

    old = om.cached_file("f", "m", "aaaa", make)
    recent = om.cached_file("f", "m", "bbbb", make)
    assert old.exists() and recent.exists()
    long_ago = time.time() - (om.STALE_DAYS + 1) * 86400
    os.utime(old, (long_ago, long_ago))
    om.cached_file("f", "m", "cccc", make)
    assert not old.exists() and recent.exists()
    os.utime(recent, (long_ago, long_ago))
    assert om.cached_file("f", "m", "bbbb", make) == recent and time.time() - recent.stat().st_mtime < 60  # a hit marks it used
