"""Build nn modules from Python.

``GraphBuilder`` writes one ``func.func`` and one ``nn.global`` weight blob.
Each method adds one op at the current insertion point and returns its
result; result types come from the shape functions of
:mod:`cfmem.dialects.shapes`, so a shape mistake raises a
:class:`GraphBuildError` naming the op at the line that made it, not later in
the verifier::

    b = GraphBuilder("main", seed=1, scale=0.1)
    x = b.input("image", (1, 3, 64, 64))
    y = b.relu(b.conv2d(x, 16, 3, stride=2, pad=1, name="conv1"))
    loud = b.cmp("gt", b.reduce_mean(x, axes=(1, 2, 3)), 0.5)
    (z,) = b.if_(loud, lambda b: [b.relu(y)], lambda b: [b.sigmoid(y)])
    b.output(z, names=["out"])
    module = b.build()

``GraphBuilder`` is one mixin per op family over :class:`GraphBuilderCore` (``core``: names,
scopes, inputs, weights, constants, ``output`` and ``build``): ``elementwise``, ``logic``,
``nn`` (convolution, matrix products, pooling), ``reduce``, ``tensor`` (data movement) and
``control_flow`` (``if_``, ``loop``), each holding its ops and their shape checks.
"""

from __future__ import annotations

from cfmem.builder.control_flow import ControlFlow
from cfmem.builder.core import GraphBuildError, GraphBuilderCore, WeightInfo
from cfmem.builder.elementwise import ElementwiseOps
from cfmem.builder.logic import LogicOps
from cfmem.builder.nn import NnOps
from cfmem.builder.reduce import ReduceOps
from cfmem.builder.tensor import TensorOps


class GraphBuilder(ElementwiseOps, LogicOps, NnOps, ReduceOps, TensorOps, ControlFlow, GraphBuilderCore):
    """Builds one function of nn ops and the weight blob it reads."""


__all__ = ["GraphBuildError", "GraphBuilder", "WeightInfo"]
