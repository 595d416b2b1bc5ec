"""Bit tricks on card masks for the numba kernels (a suit is an 8-bit lane of a 32-bit mask).

``popcount``, ``lowest_bit`` and ``highest_bit`` compile to the processor's own instructions
(LLVM's ctpop, cttz and ctlz), which the kernels use in every trick.
"""
from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

import analysis.numba_cache  # noqa: F401 - salon's kernels cached by source version


@intrinsic
def _ctpop(typingctx, x):
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return x(x), codegen


@intrinsic
def _cttz(typingctx, x):
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return x(x), codegen


@intrinsic
def _ctlz(typingctx, x):
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

    return x(x), codegen


@njit(cache=True, inline="always")
def popcount(x: int) -> int:
    """Number of set bits of a non-negative mask."""
    return _ctpop(x)


@njit(cache=True, inline="always")
def lowest_bit(x: int) -> int:
    """Index of the lowest set bit of a non-zero mask."""
    return _cttz(x)


@njit(cache=True, inline="always")
def highest_bit(x: int) -> int:
    """Index of the highest set bit of a non-zero 64-bit signed mask (-1 for 0)."""
    return 63 - _ctlz(x)


@njit(cache=True, inline="always")
def nth_bit(x: int, n: int) -> int:
    """Index of the n-th (0-based) lowest set bit of x."""
    for _ in range(n):
        x &= x - 1
    return lowest_bit(x)


BINOM = np.zeros((65, 6), dtype=np.int64)
"""BINOM[n, k] = C(n, k) for k <= 5 (ranks of five-card masks)."""
for _n in range(65):
    for _k in range(6):
        BINOM[_n, _k] = 1 if _k == 0 else (BINOM[_n - 1, _k - 1] + BINOM[_n - 1, _k] if _n else 0)


@njit(cache=True, inline="always")
def rank_of_mask(mask):
    """Index of a mask of up to five bits among the masks of as many bits (colexicographic):
    for five of 32 cards, 0 .. C(32, 5) - 1."""
    r = 0
    k = 1
    m = mask
    while m:
        r += BINOM[lowest_bit(m), k]
        k += 1
        m &= m - 1
    return r
