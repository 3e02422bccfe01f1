"""The ``nn-lower-to-linalg`` pass (:mod:`cfmem.passes.linalg.lower_pass`) and its lowerings,
one module per op family, registered in one table (:mod:`cfmem.passes.linalg.dispatch`)."""

from cfmem.passes.linalg.lower_pass import LowerToLinalgPass

__all__ = ["LowerToLinalgPass"]
