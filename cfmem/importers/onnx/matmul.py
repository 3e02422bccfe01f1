"""ONNX Gemm, MatMul and Einsum as nn's gemm and matmul, with transposes and reshapes.

Gemm's alpha and beta other than 1 scale a known B and C, and transA transposes a known A.
Einsum takes matmul-like products of two operands and transposes of one: no ellipsis, no
index repeated in a term, no index summed over one operand only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.dialects.builtin import BoolAttr
from xdsl.ir import SSAValue

from cfmem.dialects import nn_compute as nc
from cfmem.importers.onnx.core import Importer, OnnxImportError
from cfmem.importers.onnx.helpers import attr, f32_operand, known, make, out_name, reshape, shape_of


def gemm(imp, node, inputs):
    a, b, c = (inputs + [None])[:3]
    alpha, beta = attr(node, "alpha", 1.0), attr(node, "beta", 1.0)
    trans_a, trans_b = attr(node, "transA", 0), attr(node, "transB", 0)
    if trans_a:
        if not isinstance(a, np.ndarray):
            raise OnnxImportError("Gemm with transA on a run-time tensor is not supported")
        a = a.T
    if alpha != 1.0:
        b = known(b, "Gemm B with alpha != 1") * np.float32(alpha)
    n = shape_of(imp, b)[0 if trans_b else 1]
    if c is None or beta == 0.0:  # onnxruntime does not read C then: its NaNs do not propagate
        c = np.zeros((n,), imp.float_dtype)
    elif beta != 1.0:
        c = known(c, "Gemm C with beta != 1") * np.float32(beta)
    hints = [*node.input, f"{node.output[0]}_c"]
    operands = [f32_operand(imp, v, hints[k]) for k, v in enumerate((a, b, c))]
    props = {"trans_b": BoolAttr.from_bool(True)} if trans_b else {}
    return [make(imp, nc.GemmOp, operands, props, out_name(imp, node))]


def matmul(imp, node, inputs):
    a, b = (f32_operand(imp, v, node.input[k]) for k, v in enumerate(inputs[:2]))
    return [make(imp, nc.MatmulOp, [a, b], {}, out_name(imp, node))]


EINSUM_FORMS = "only matmul-like products of two operands and transposes of one are supported"


@dataclass(frozen=True)
class EinsumTerms:
    """An Einsum equation's index letters: one string per operand, and the output's."""

    equation: str
    operands: tuple[str, ...]
    output: str

    def refusal(self, reason: str) -> OnnxImportError:
        return einsum_refusal(self.equation, reason)


def einsum_refusal(equation: str, reason: str) -> OnnxImportError:
    return OnnxImportError(f"Einsum {equation!r}: {reason}; {EINSUM_FORMS}")


def einsum_terms(equation: str) -> EinsumTerms:
    """The terms of ``equation`` (spaces ignored); without ``->`` the output is every letter
    that occurs once, in alphabetical order. Refuses ellipses, other than one or two
    operands, and letters repeated in one term (diagonals)."""
    lhs, arrow, output = equation.replace(" ", "").partition("->")
    operands = tuple(lhs.split(","))
    if "." in lhs + output:
        raise einsum_refusal(equation, "an ellipsis")
    if len(operands) not in (1, 2):
        raise einsum_refusal(equation, f"{len(operands)} operands")
    letters = "".join(operands)
    if not arrow:
        output = "".join(sorted(c for c in set(letters) if letters.count(c) == 1))
    for term in (*operands, output):
        repeated = sorted({c for c in term if term.count(c) > 1})
        if repeated:
            raise einsum_refusal(equation, f"index {repeated[0]!r} repeated in the term {term!r}")
    return EinsumTerms(equation, operands, output)


def einsum_sizes(terms: EinsumTerms, shapes: Sequence[Sequence[int]]) -> dict[str, int]:
    """The size of each index letter; refuses terms that do not match their operand's rank,
    letters of unequal sizes, output letters no operand has, and letters summed over one
    operand only (not a matmul)."""
    sizes: dict[str, int] = {}
    for k, (term, shape) in enumerate(zip(terms.operands, shapes)):
        if len(term) != len(shape):
            raise terms.refusal(f"operand {k} has rank {len(shape)}, not the {len(term)} of {term!r}")
        for c, d in zip(term, shape):
            if sizes.setdefault(c, d) != d:
                raise terms.refusal(f"index {c!r} has sizes {sizes[c]} and {d}")
    for c in terms.output:
        if c not in sizes:
            raise terms.refusal(f"output index {c!r} is in no operand")
    for c in sizes:
        if c not in terms.output and sum(c in term for term in terms.operands) == 1:
            raise terms.refusal(f"index {c!r} is summed over one operand only")
    return sizes


def permuted(imp: Importer, x: SSAValue, have: str, want: str, name: str) -> SSAValue:
    """``x``, whose axes are the letters of ``have``, with its axes in the order of ``want``."""
    perm = [have.index(c) for c in want]
    if perm == list(range(len(perm))):
        return x
    return make(imp, nc.TransposeOp, [x], {"perm": nc.i64_array(perm)}, name)


def einsum(imp, node, inputs):
    """Einsum as Transpose, Reshape and MatMul: one operand is transposed; of two, each is
    transposed to (batch, free, summed) letters, resp. (batch, summed, free), and flattened to
    one axis per group, the matmul's result unflattened and transposed to the output."""
    equation = attr(node, "equation")
    terms = einsum_terms(equation.decode() if isinstance(equation, bytes) else equation)
    operands = [f32_operand(imp, v, node.input[k]) for k, v in enumerate(inputs)]
    sizes = einsum_sizes(terms, [imp.b.shape(v) for v in operands])
    name = out_name(imp, node)
    if len(operands) == 1:
        return [permuted(imp, operands[0], terms.operands[0], terms.output, name)]
    (a, b), (a_term, b_term), out = operands, terms.operands, terms.output
    batch = "".join(c for c in out if c in a_term and c in b_term)
    rows = "".join(c for c in out if c not in b_term)
    cols = "".join(c for c in out if c not in a_term)
    summed = "".join(c for c in a_term if c not in out)

    def grouped(x: SSAValue, term: str, matrix: tuple[str, str], hint: str) -> SSAValue:
        """``x`` transposed to the batch letters, then ``matrix``'s two groups, and flattened
        to one axis per group (no batch axis without batch letters)."""
        groups = [batch, *matrix] if batch else list(matrix)
        x = permuted(imp, x, term, "".join(groups), imp.name(f"{node.output[0]}_{hint}"))
        dims = [math.prod(sizes[c] for c in group) for group in groups]
        return reshape(imp, x, dims, imp.name(f"{node.output[0]}_{hint}_flat"))

    lhs, rhs = grouped(a, a_term, (rows, summed), "a"), grouped(b, b_term, (summed, cols), "b")
    product = make(imp, nc.MatmulOp, [lhs, rhs], {}, imp.name(f"{node.output[0]}_matmul"))
    order = batch + rows + cols
    unflat_name = name if order == out else imp.name(f"{node.output[0]}_unflat")
    return [permuted(imp, reshape(imp, product, [sizes[c] for c in order], unflat_name), order, out, name)]
