"""A pass's refusal that names the op at fault, so a tool can give its place in the source.

``OpFailure`` is a ``PassFailedException`` (what ``xdsl-opt`` reports) that also carries
the op; ``cfmem opt`` turns it into ``file:line:col`` through the parsed module's source
map (``cfmem.ir_io.SourceMap``). The message already names the op in IR terms
(``'memref.alloc' defining %d in @main``), so nothing is lost where no source map is.
"""

from __future__ import annotations

from xdsl.ir import Operation
from xdsl.utils.exceptions import PassFailedException


class OpFailure(PassFailedException):
    """``message`` about ``op``."""

    def __init__(self, op: Operation, message: str):
        super().__init__(message)
        self.op = op
