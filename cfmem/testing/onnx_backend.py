"""The ONNX backend test data that ships in the onnx wheel, run through cfmem.

Four folders of ``onnx/backend/test/data``: ``real`` (nine ImageNet CNNs whose models are in
``light/``), ``pytorch-converted``, ``pytorch-operator`` and ``simple``. Each case is a model
and one or more data sets of inputs and expected outputs; a ``real`` case has none on disk:
its input is what onnx's own runner feeds it (``Runner.generate_dummy_data``, not random) and
its expected output is ``light_<model>_output_0.pb``. Tolerances are onnx's own for the case.

A case is imported (its inputs' shapes from the first data set; when the import asks for an
input's value, as a shape or a position given as a model input, its integer inputs of one
element or one axis are fixed to the data sets' values as ``--input-value`` does), run by the reference
interpreter, planned with ping-pong DMA, lowered and run by the checking flat interpreter on
every data set. Its outcome is ``pass`` (both interpreters within the tolerances on every
output of every set), ``wrong`` (a number outside them, or the flat run differs from the
reference), ``refused`` (cfmem said no, with its one-line reason) or ``crash`` (anything else).
"""

from __future__ import annotations

import glob
import os
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

import numpy as np

FOLDERS = ("real", "pytorch-converted", "pytorch-operator", "simple")
BLOB = "case.weights.bin"


@dataclass(frozen=True)
class Case:
    folder: str
    name: str
    model: Path
    rtol: float
    atol: float
    case_dir: Path | None
    """The folder with ``test_data_set_*`` (None for a ``real`` case)."""

    @property
    def label(self) -> str:
        return f"{self.folder}/{self.name}"


@dataclass
class Outcome:
    label: str
    status: str
    """pass, wrong, refused or crash."""
    detail: str = ""
    seconds: float = 0.0
    sets: int = 0


def data_dir() -> Path:
    import onnx

    return Path(onnx.__file__).parent / "backend" / "test" / "data"


def cases(folders: tuple[str, ...] = FOLDERS) -> list[Case]:
    """Every case of ``folders``, sorted by label, with onnx's tolerances for it."""
    from onnx.backend.test.loader import load_model_tests

    root = data_dir()
    found = []
    for folder in folders:
        for test in load_model_tests(str(root), kind=folder):
            if test.model_dir is not None:
                found.append(Case(folder, test.name, Path(test.model_dir) / "model.onnx", test.rtol, test.atol, Path(test.model_dir)))
            else:  # url: onnx/backend/test/data/light/light_<name>.onnx
                model = root / "light" / Path(test.url).name
                found.append(Case(folder, test.name, model, test.rtol, test.atol, None))
    return sorted(found, key=lambda c: c.label)


def data_sets(case: Case) -> list[tuple[dict[str, np.ndarray], dict[str, np.ndarray]]]:
    """The case's (inputs, expected outputs) by ONNX name, set by set."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(case.model), load_external_data=False)
    initializers = {i.name for i in model.graph.initializer}
    inputs = [i for i in model.graph.input if i.name not in initializers]
    outputs = list(model.graph.output)
    if case.case_dir is None:
        from onnx.backend.test.runner import Runner

        feeds = {x.name: Runner.generate_dummy_data(x, seed=0, random=False) for x in inputs}
        prefix = str(case.model)[: -len(".onnx")]
        want = {o.name: numpy_helper.to_array(_tensor(f"{prefix}_output_{k}.pb")) for k, o in enumerate(outputs)}
        return [(feeds, want)]
    sets = []
    for folder in sorted(glob.glob(os.path.join(case.case_dir, "test_data_set*"))):
        count_in = len(glob.glob(os.path.join(folder, "input_*.pb")))
        count_out = len(glob.glob(os.path.join(folder, "output_*.pb")))
        feeds = {inputs[k].name: numpy_helper.to_array(_tensor(os.path.join(folder, f"input_{k}.pb"))) for k in range(count_in)}
        want = {outputs[k].name: numpy_helper.to_array(_tensor(os.path.join(folder, f"output_{k}.pb"))) for k in range(count_out)}
        sets.append((feeds, want))
    return sets


def _tensor(path: str):
    from onnx import TensorProto

    tensor = TensorProto()
    tensor.ParseFromString(Path(path).read_bytes())
    return tensor


def run_case(case: Case, work: Path) -> Outcome:
    """Import, reference run and checking flat run of ``case`` on every data set (see the
    module docstring); files go to ``work``."""
    from cfmem.builder import GraphBuildError
    from cfmem.errors import CfmemError
    from cfmem.importers.onnx import OnnxImportError, import_onnx
    from cfmem.importers.onnx.reference import cfmem_inputs
    from cfmem.interp.flat import run_flat
    from cfmem.interp.golden import run_function
    from cfmem.pipeline import lower_model

    began = time.perf_counter()
    outcome = Outcome(case.label, "pass")
    try:
        sets = data_sets(case)
        work.mkdir(parents=True, exist_ok=True)
        shapes = {name: value.shape for name, value in sets[0][0].items()}
        try:
            fixed: dict = {}
            imported = import_onnx(case.model, blob_file=BLOB, input_shapes=shapes, input_values=fixed)
        except OnnxImportError as err:
            fixed = _fixable(err, sets)
            if not fixed:
                raise
            imported = import_onnx(case.model, blob_file=BLOB, input_shapes={n: s for n, s in shapes.items() if n not in fixed}, input_values=fixed)
        (work / BLOB).write_bytes(imported.blob)
        flat = lower_model(imported.module, "nn-insert-dma,nn-plan-memory", work)
        for feeds, want in sets:
            inputs = cfmem_inputs(feeds, fixed)
            golden = run_function(imported.module, inputs, base_dir=work).outputs
            got = run_flat(flat, inputs, check=True).outputs
            for side, outputs in (("reference", golden), ("flat", got)):
                problem = _mismatch(want, outputs, case.rtol, case.atol)
                if problem:
                    outcome.status, outcome.detail = "wrong", f"{side}: {problem}"
                    break
            if outcome.status == "pass" and any(not np.array_equal(golden[n], got[n], equal_nan=True) for n in want):
                outcome.status, outcome.detail = "wrong", "the flat run differs from the reference run"
            if outcome.status != "pass":
                break
            outcome.sets += 1
    except (CfmemError, OnnxImportError, GraphBuildError) as err:
        outcome.status, outcome.detail = "refused", str(err).splitlines()[0]
    except Exception as err:  # noqa: BLE001 - a crash is an outcome to report
        where = traceback.extract_tb(err.__traceback__)[-1]
        outcome.status = "crash"
        outcome.detail = f"{type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''} (at {Path(where.filename).name}:{where.lineno})"
    outcome.seconds = time.perf_counter() - began
    return outcome


def _fixable(err: Exception, sets: list) -> dict:
    """What a user does when the import asks for a model input's value (``--input-value``): the
    integer inputs of one element or one axis fixed to their values, when every data set gives
    the same; else {}."""
    if "fix it with --input-value" not in str(err):
        return {}
    fixed: dict = {}
    for name, value in sets[0][0].items():
        if value.dtype.kind in "iu" and (value.size == 1 or value.ndim == 1) and all(np.array_equal(feeds[name], value) for feeds, _ in sets):
            fixed[name] = int(value.reshape(-1)[0]) if value.size == 1 else tuple(int(v) for v in value)
    return fixed


def _mismatch(want: dict[str, np.ndarray], got: dict[str, np.ndarray], rtol: float, atol: float) -> str:
    """'' when every output is within ``rtol``/``atol`` (numpy's rule, as onnx's runner), else
    what differs first."""
    for name, expected in want.items():
        if name not in got:
            return f"no output {name}"
        actual = np.asarray(got[name])
        if actual.shape != expected.shape:
            return f"{name}: shape {actual.shape}, expected {expected.shape}"
        if expected.dtype.kind in "fc":
            ok = np.isclose(actual, expected, rtol=rtol, atol=atol, equal_nan=True)
        else:
            ok = actual == expected
        if not np.all(ok):
            worst = np.max(np.abs(actual.astype(np.float64) - expected.astype(np.float64)))
            return f"{name}: {int(np.size(ok) - np.count_nonzero(ok))} of {np.size(ok)} outside rtol {rtol:g} atol {atol:g} (largest difference {worst:.3g})"
    return ""


FLOAT64 = "float64 tensors: not computed in float32 in their place, and no edge AI chip has float64 units"
REFUSALS: dict[str, tuple[str, str]] = {
    # label: (what cfmem's one-line refusal says, why it is refused)
    **{
        f"pytorch-operator/test_operator_{name}": ("DOUBLE", FLOAT64)
        for name in ("add_broadcast", "add_size1_broadcast", "add_size1_right_broadcast",
                     "add_size1_singleton_broadcast", "addconstant")
    },
    **{
        f"simple/test_gradient_of_{name}": ("ai.onnx.preview.training", "a training op: onnxruntime refuses it too")
        for name in ("add", "add_and_mul")
    },
    "simple/test_sequence_model7": ("DOUBLE", FLOAT64),
    "simple/test_sequence_model8": ("must be positive", "not yet: empty tensors (a dimension of 0)"),
    **{
        f"simple/test_strnorm_model_{name}": ("STRING", "string tensors: an edge AI chip computes numbers only")
        for name in (
            "monday_casesensintive_lower", "monday_casesensintive_nochangecase", "monday_casesensintive_upper",
            "monday_empty_output", "monday_insensintive_upper_twodim", "nostopwords_nochangecase",
        )
    },
}  # fmt: skip
"""Every case cfmem refuses, by label: a test checks that exactly these are refused, each for
its reason, and that every other case passes."""
