"""The ``nn`` dialect: tensor graphs with control flow and off-chip weights."""

from xdsl.ir import Dialect

from cfmem.dialects.nn_compute import *  # noqa: F403
from cfmem.dialects.nn_compute import COMPUTE_OPS
from cfmem.dialects.nn_control import *  # noqa: F403
from cfmem.dialects.nn_control import CONTROL_OPS
from cfmem.dialects.nn_dma import *  # noqa: F403
from cfmem.dialects.nn_dma import DMA_ATTRS, DMA_OPS
from cfmem.dialects.nn_lstm import *  # noqa: F403
from cfmem.dialects.nn_lstm import LSTM_OPS
from cfmem.dialects.nn_memref import *  # noqa: F403
from cfmem.dialects.nn_memref import MEMREF_OPS
from cfmem.dialects.nn_quant import *  # noqa: F403
from cfmem.dialects.nn_quant import QUANT_OPS
from cfmem.dialects.nn_signal import *  # noqa: F403
from cfmem.dialects.nn_signal import SIGNAL_OPS
from cfmem.dialects.nn_weights import *  # noqa: F403
from cfmem.dialects.nn_weights import WEIGHT_OPS

NN = Dialect("nn", [*CONTROL_OPS, *WEIGHT_OPS, *COMPUTE_OPS, *QUANT_OPS, *LSTM_OPS, *SIGNAL_OPS, *DMA_OPS, *MEMREF_OPS], [*DMA_ATTRS])
