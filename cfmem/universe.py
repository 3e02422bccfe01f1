"""Registers the nn dialect and the cfmem passes with ``xdsl-opt``.

Found through the ``xdsl.universe`` entry point in pyproject.toml.
"""

from xdsl.universe import Universe

from cfmem.passes import PASSES

import cfmem.float_literals  # noqa: F401 (dense float hex literals are bits)


def _nn_dialect():
    from cfmem.dialects.nn import NN

    return NN


CFMEM_UNIVERSE = Universe(all_dialects={"nn": _nn_dialect}, all_passes=PASSES)
