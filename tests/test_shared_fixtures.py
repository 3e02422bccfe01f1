"""The suite's sharing: examples built once per process stay unchanged, and xdist groups
reach the scheduler (so a group's tests share one worker and its fixtures)."""

import numpy as np
import pytest
from xdsl.dialects.builtin import UnitAttr

from cfmem.interp.golden import find_function, run_function
from conftest import SharedExamples, pytest_collection_modifyitems


def test_a_shared_example_holds_its_covering_inputs_and_their_reference_runs():
    example = SharedExamples()("denoise")
    assert len(example.cases) == 4 and len({case.trace for case in example.cases}) == 4
    for case in example.cases:
        run = run_function(example.module, case.inputs, base_dir=example.path.parent)
        assert tuple(run.branches) == case.trace
        assert all(np.array_equal(run.outputs[k], case.reference.outputs[k]) for k in run.outputs)


def test_shared_arrays_cannot_be_written():
    case = SharedExamples()("wakeword").cases[0]
    for array in [*case.inputs.values(), *case.reference.outputs.values()]:
        with pytest.raises(ValueError, match="read-only"):
            array[...] = 0


def test_a_changed_shared_module_is_named():
    shared = SharedExamples()
    shared("bigfc").module.clone()  # a clone may change freely
    shared.check_unchanged()
    find_function(shared("bigfc").module).attributes["changed"] = UnitAttr()
    with pytest.raises(AssertionError, match=r"changed the shared example modules \['bigfc'\]"):
        shared.check_unchanged()


class _Item:
    """What the group hook reads of a pytest item."""

    def __init__(self, node_id, groups):
        self._id, self._groups = node_id, groups

    @property
    def nodeid(self):
        return str(self._id)

    def iter_markers(self, name):
        assert name == "xdist_group"
        return [getattr(pytest.mark, name)(group).mark for group in self._groups]


class _Config:
    def __init__(self, loadgroup):
        self.loadgroup = loadgroup

    def getoption(self, name, default=None):
        return self.loadgroup if name == "loadgroup" else default


def test_the_group_suffix_is_written_where_pytest_reads_the_node_id(request):
    parse = type(request.node._id).parse
    items = [_Item(parse("t.py::test_a[x]"), ["denoise"]), _Item(parse("t.py::test_b"), ["b", "a"]),
             _Item(parse("t.py::test_c[y]@c"), ["c"]), _Item(parse("t.py::test_d"), [])]  # fmt: skip
    pytest_collection_modifyitems(_Config(False), items)
    assert [item.nodeid for item in items] == ["t.py::test_a[x]", "t.py::test_b", "t.py::test_c[y]@c", "t.py::test_d"]
    pytest_collection_modifyitems(_Config(True), items)
    assert [item.nodeid for item in items] == ["t.py::test_a[x]@denoise", "t.py::test_b@a_b", "t.py::test_c[y]@c", "t.py::test_d"]


@pytest.mark.xdist_group("shared-fixtures")
def test_a_grouped_test_runs_under_its_group_id(request):
    """Under ``--dist loadgroup`` (``make test``) the scheduler sees the group in the node id."""
    if request.config.getoption("loadgroup", False):
        assert request.node.nodeid.endswith("@shared-fixtures")
