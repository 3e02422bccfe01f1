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


def test_a_function_with_an_if_counts_weights_only():
    text = """
nn.global @w size(64) seed(1)
func.func @main(%c: tensor<i1>, %x: tensor<1x64xf32>) -> tensor<1x64xf32> {
  %a = nn.relu %x : (tensor<1x64xf32>) -> tensor<1x64xf32>
  %y = nn.if %c : tensor<i1> -> (tensor<1x64xf32>) {
    %b = nn.tanh %a : (tensor<1x64xf32>) -> tensor<1x64xf32>
    nn.yield %b : tensor<1x64xf32>
  } else {
    nn.yield %a : tensor<1x64xf32>
  }
  func.return %y : tensor<1x64xf32>
}
"""
    module = parse_module(text)[0]
    assert activation_peak(find_function(module)) == 0
