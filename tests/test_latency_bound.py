"""The latency bound under a budget (cfmem.fit.latency_bound): activations above the budget
cost traffic (written out and read back), resident weights take the budget's room, the
off-chip port stalls compute; and no compile is ever faster than it."""

from pathlib import Path

import pytest

from cfmem.dma.timing import Chip
from cfmem.fit import activation_peak, compile_for_budget, latency_bound, timing_path
from cfmem.interp.golden import find_function
from cfmem.ir_io import parse_module
from cfmem.passes.plan_memory import BOUND_ATTR
from cfmem.pipeline import apply_pipeline

from test_tile_rows import CHAIN  # a pad, convolutions and pools: 1,632 bytes of weights

CHIP = Chip()
DMA, PORT = CHIP.dma_bytes_per_cycle, CHIP.offchip_bytes_per_cycle


def _module():
    return parse_module(CHAIN)[0]


def test_the_activation_peak_is_the_planners_lower_bound_of_the_activations():
    """At the max pool: %r (1,920 bytes, the relu in place over %c1) and %m (1,728)."""
    module = _module()
    planned = module.clone()
    apply_pipeline(planned, "nn-plan-memory", None, Path("."))
    peak = activation_peak(find_function(module))
    assert peak == find_function(planned).attributes[BOUND_ATTR].value.data == 1920 + 1728


def test_below_the_activation_peak_each_missing_byte_costs_a_write_and_a_read():
    """Well above the peak the bound is compute; below it, every byte less adds 2 bytes of
    traffic over DMA and port together (2.5 bytes a cycle)."""
    module = _module()
    path = timing_path(module, CHIP)
    peak = activation_peak(find_function(module))
    assert latency_bound(module, CHIP, 10**6, path) == latency_bound(module, CHIP, peak + 1632, path)
    low, lower = latency_bound(module, CHIP, peak // 2, path), latency_bound(module, CHIP, peak // 2 - 100, path)
    assert lower - low == pytest.approx(2 * 100 / (DMA + PORT))
    assert latency_bound(module, CHIP, peak // 2, path) > latency_bound(module, CHIP, peak, path)


@pytest.mark.parametrize("fraction", [1.0, 0.5, 0.25])
def test_no_compile_is_faster_than_its_bound(fraction):
    module = _module()
    path = timing_path(module, CHIP)
    budget = int((activation_peak(find_function(module)) + 1632) * fraction)
    compiled = compile_for_budget(module, CHIP, budget, Path("."), path=path)
    assert compiled.bound_cycles == latency_bound(module, CHIP, budget, path) <= compiled.cycles


BRANCHES = """
nn.global @w size(64) seed(1)
func.func @main(%c: tensor<i1>, %x: tensor<1x64xf32>) -> tensor<1x64xf32> {
  %a = nn.relu %x : (tensor<1x64xf32>) -> tensor<1x64xf32>
  %y = nn.if %c : tensor<i1> -> (tensor<1x64xf32>) {
    %b = nn.tanh %a : (tensor<1x64xf32>) -> tensor<1x64xf32>
    %e = nn.concat %b, %a {axis = 1 : i64} : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x128xf32>
    %s = nn.reduce_sum %e {axes = array<i64: 1>, keepdims = true} : (tensor<1x128xf32>) -> tensor<1x1xf32>
    %d = nn.add %a, %s : (tensor<1x64xf32>, tensor<1x1xf32>) -> tensor<1x64xf32>
    nn.yield %d : tensor<1x64xf32>
  } else {
    nn.yield %a : tensor<1x64xf32>
  }
  func.return %y : tensor<1x64xf32>
}
"""
"""The then branch holds its concatenation of %b (planned inside it) and %a, and the sum,
beside %a; the else branch computes nothing."""


def test_with_an_if_the_activation_peak_is_the_timed_paths():
    from cfmem.passes.aliases import find_aliases
    from cfmem.passes.liveness import analyze_function
    from cfmem.planning.regions import peak_tensors

    fn = find_function(parse_module(BRANCHES)[0])
    then, other = activation_peak(fn, {"if#0": True}), activation_peak(fn, {"if#0": False})
    assert then == activation_peak(fn, {}) == peak_tensors(analyze_function(fn, aliases=find_aliases(fn)).tree)[0]
    assert (then, other) == (256 + 512 + 4, 256)  # %a, the concatenation (%b in its bytes) and %s; %a alone
    with pytest.raises(ValueError, match="per path"):
        activation_peak(fn)


@pytest.mark.parametrize("taken", [True, False])
def test_with_an_if_no_compile_is_faster_than_its_bound_and_below_the_peak_the_bound_rises(taken):
    module = parse_module(BRANCHES)[0]
    path = {"if#0": taken}
    peak = activation_peak(find_function(module), path)
    for budget in (peak * 2, peak, peak * 3 // 4):
        compiled = compile_for_budget(module, CHIP, budget, Path("."), path=path)
        assert compiled.bound_cycles == latency_bound(module, CHIP, budget, path) <= compiled.cycles
    assert latency_bound(module, CHIP, peak // 2, path) > latency_bound(module, CHIP, peak, path)


def test_a_loop_body_counts_when_the_loop_runs():
    from test_loops import RECURRENT

    module = parse_module(RECURRENT)[0]
    fn = find_function(module)
    outside = activation_peak(fn, {}, {"loop#0": 0})
    inside = activation_peak(fn, {}, {"loop#0": 3})
    assert outside < inside
    assert activation_peak(fn, {}, {}) == outside  # trips unknown: the body may not run
    path = {"loop#0": 3}
    assert latency_bound(module, CHIP, inside // 2, path) > latency_bound(module, CHIP, inside, path)
    for budget in (inside, inside * 3 // 4):
        compiled = compile_for_budget(module, CHIP, budget, Path("."), path=path)
        assert compiled.bound_cycles <= compiled.cycles
