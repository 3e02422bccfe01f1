"""TFLite (``.tflite`` flatbuffers) to the nn dialect, with IF and WHILE as ``nn.if`` and ``nn.loop``.

The import runs the main subgraph's operators once, in order, every tensor either *known* (a
constant buffer of the file, a numpy array) or a run-time value of static shape, held in an
axis order of cfmem's choosing: TFLite's images are NHWC, nn's convolutions NCHW, and a value
stays NCHW between convolutions, returning to NHWC only at the model's edges and where an op
needs TFLite's order (:mod:`~cfmem.importers.tflite.layout`). Filters are transposed at
import; constants that run-time ops read become weights in one blob written next to the
module, as for ONNX. Tensor names are kept: the function's ``cfmem.input_names`` and
``cfmem.result_names`` are the TFLite names, SSA names ASCII renderings of them. Variable
(state) tensors are extra inputs and results (see :mod:`~cfmem.importers.tflite.core`).

The modules, from the bottom up (each imports only those before it):

- ``layout``: the axis order a run-time value is held in (:class:`Tensor`);
- ``core``: :class:`Importer` (one import's state), running a subgraph, the inputs' shapes;
- ``helpers``: reading constant inputs, fused activations, SAME padding;
- one module per operator family: ``elementwise``, ``tensor``, ``nn`` (convolutions, pooling,
  matrix products), ``reduce``, ``quantized`` (int8, as TFLite Micro computes it, bit for bit),
  ``svdf`` (integer SVDF and its state), ``lstm`` (integer UNIDIRECTIONAL_SEQUENCE_LSTM and its
  states), ``signal`` (TFLite Micro's signal library custom operators and their kernel state),
  ``control_flow`` (IF, WHILE);
- ``registry``: the tables of handlers and ``translate``, which takes an operator to its handler;
- ``entry``: :func:`import_tflite` and :func:`tflite_importer`, which give the core the
  registry's ``translate``.

The file is read by :mod:`cfmem.tflite.model_file` (one-line errors for malformed files).
"""

from cfmem.importers.tflite.core import Importer, TfliteImportError
from cfmem.importers.tflite.entry import import_tflite, initial_state, tflite_importer
from cfmem.importers.tflite.layout import Tensor

__all__ = ["Importer", "Tensor", "TfliteImportError", "import_tflite", "initial_state", "tflite_importer"]
