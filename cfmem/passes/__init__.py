"""cfmem's xDSL passes, by the name ``xdsl-opt -p`` knows them."""

from collections.abc import Callable

from xdsl.passes import ModulePass


def _annotate_costs() -> type[ModulePass]:
    from cfmem.passes.annotate_costs import AnnotateCostsPass

    return AnnotateCostsPass


PASSES: dict[str, Callable[[], type[ModulePass]]] = {
    "nn-annotate-costs": _annotate_costs,
}
