"""Every mode and strategy on the bundled examples: verified plans, the
orderings between modes the design promises, and the gap to the bound."""

import pytest

from cfmem.interp.golden import find_function
from cfmem.ir_io import load_module
from cfmem.passes.plan_memory import plan_function
from cfmem.planning.control_flow import MODES, timeline
from cfmem.planning.verify import verify_plan

from conftest import EXAMPLES

MODELS = sorted(EXAMPLES.glob("*.mlir"))
STRATEGIES = ("sequential", "large-first", "short-first", "best-fit", "tflm", "by-size", "auto")


@pytest.fixture(scope="module", params=MODELS, ids=lambda p: p.stem)
def peaks(request):
    fn = find_function(load_module(request.param)[0])
    table = {}
    for strategy in STRATEGIES:
        for mode in MODES:
            info, plan = plan_function(fn, mode, strategy, align=16)
            # independent re-check under path-exact conflicts
            verify_plan(timeline(info.tree, "exact", 16), plan.offsets, arena_size=plan.peak)
            assert plan.peak >= plan.lower_bound > 0
            table[strategy, mode] = (plan.peak, plan.lower_bound)
    return table


def test_hoist_never_worse_than_conservative(peaks):
    for strategy in STRATEGIES:
        assert peaks[strategy, "hoist"][0] <= peaks[strategy, "conservative"][0], strategy


def test_exact_never_worse_than_any_mode(peaks):
    for strategy in STRATEGIES:
        assert peaks[strategy, "exact"][0] == min(peaks[strategy, m][0] for m in MODES), strategy


def test_exact_auto_within_three_percent_of_the_bound(peaks):
    peak, bound = peaks["auto", "exact"]
    assert peak <= 1.03 * bound, (peak, bound)
