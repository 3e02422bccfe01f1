"""ONNX to the nn dialect, with ``If`` kept as ``nn.if`` where it depends on data.

The import walks the graph once, in order, with every tensor either *known*
(a numpy array: initializers, ``Constant`` nodes, fixed inputs, and anything
computed from known values only, folded with onnx's reference evaluator) or a
*runtime* value (an SSA value of static shape). Shape-only subgraphs
(``Shape``, ``Gather``, ``Concat``, ``Equal`` ... on static shapes) fold this way,
and an ``If`` whose condition folds is replaced by the branch it takes.
``Loop`` and ``Scan`` become ``nn.loop``; LSTM and GRU are unrolled, or loops with
``recurrence="loop"``. Known tensors that runtime ops read become weights in one blob, in
execution order, written to a binary file next to the module (tiny ones stay
``nn.constant``).

The function keeps the model's own input and output names (``cfmem.input_names``,
``cfmem.result_names``), so ``cfmem run`` reads and writes them; SSA names are
ASCII renderings of the ONNX names.

Assumptions: every graph input has a static shape once ``input_shapes`` and
``dims`` are applied; runtime tensors are f32 (or f16, see ``FLOAT16_OPS`` in
:mod:`~cfmem.importers.onnx.registry`) except integer or bool values feeding comparisons
and reshapes; branches of a data-dependent ``If`` yield equal types;
no known tensor, and not the weight blob, exceeds ``MAX_WEIGHT_BYTES``.

The modules, from the bottom up (each imports only those before it):

- ``legacy`` (a model of an opset below 7 brought to opset 7) and ``qdq`` (QDQ groups fused
  into QLinear ops): rewrites of the model before import;
- ``core``: :class:`Importer` (one import's state), :class:`Scope`, loading a model file and
  its inputs;
- ``helpers``: reading a node's attributes and inputs, emitting nn ops; ``folding``: nodes of
  known inputs computed at import time;
- one module per op family: ``elementwise``, ``tensor``, ``resize``, ``nn`` (convolutions and
  pooling), ``matmul``, ``reduce``, ``normalization``, ``recurrent``, ``quantized``,
  ``control_flow`` (If, Loop, Scan), ``sequences``;
- ``registry``: the table of handlers and of the op versions they implement, and
  ``translate``, which takes a node to its handler;
- ``entry``: :func:`import_onnx` and :func:`onnx_importer`, which give the core the
  registry's ``translate``; the command's option specs.

``reference`` runs onnxruntime on a model for comparison.
"""

from cfmem.importers.imported import ssa_name
from cfmem.importers.onnx.core import ImportedModel, Importer, OnnxImportError, Scope, load_onnx
from cfmem.importers.onnx.entry import (
    import_onnx,
    onnx_importer,
    parse_dim_spec,
    parse_shape_spec,
    parse_value_spec,
)

__all__ = [
    "ImportedModel",
    "Importer",
    "OnnxImportError",
    "Scope",
    "import_onnx",
    "load_onnx",
    "onnx_importer",
    "parse_dim_spec",
    "parse_shape_spec",
    "parse_value_spec",
    "ssa_name",
]
