"""Inputs that drive a model down each of its branches.

The branch of an ``nn.if`` depends on data, so random inputs alone may always
take the same one. This search runs the tensor-level interpreter on seeded
normal inputs, scaled and shifted over a small grid, and keeps the first
input set for each distinct branch trace. It assumes conditions respond to
the scale or sign of the inputs, which holds for thresholded models; a branch
that no input on the grid reaches is simply not covered (the caller can
compare ``traces`` with the number of ifs).
"""

from __future__ import annotations

from itertools import product

import numpy as np
from xdsl.dialects import scf
from xdsl.dialects.builtin import ModuleOp

from cfmem.dialects.nn_control import IfOp
from cfmem.interp.golden import find_function, random_inputs, run_function

SCALES = (1.0, -1.0, 10.0, -10.0, 0.1, 100.0)
SHIFTS = (0.0, 1.0, -1.0, 3.0, -3.0)


def branch_covering_inputs(
    module: ModuleOp, func_name: str | None = None, seeds: int = 3, base_dir=None
) -> list[tuple[dict[str, np.ndarray], tuple[tuple[str, bool], ...]]]:
    """One ``(inputs, branch trace)`` per distinct trace found, first found first."""
    fn = find_function(module, func_name)
    if_count = sum(isinstance(op, IfOp | scf.IfOp) for op in fn.walk())
    found: dict[tuple[tuple[str, bool], ...], dict[str, np.ndarray]] = {}
    for seed, scale, shift in product(range(seeds), SCALES, SHIFTS):
        inputs = {
            name: (value * scale + shift).astype(value.dtype) if value.dtype != np.bool_ else value
            for name, value in random_inputs(fn, seed).items()
        }
        trace = tuple(run_function(module, inputs, base_dir=base_dir, func_name=func_name).branches)
        found.setdefault(trace, inputs)
        outcomes = {step for trace in found for step in trace}
        if len(outcomes) == 2 * if_count:
            break
    return [(inputs, trace) for trace, inputs in found.items()]
