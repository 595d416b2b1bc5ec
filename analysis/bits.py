"""Bit tricks on card masks for the numba kernels (a suit is an 8-bit lane of a 32-bit mask).

``popcount``, ``lowest_bit`` and ``highest_bit`` compile to the processor's own instructions
(LLVM's ctpop, cttz and ctlz), which the kernels use in every trick.
"""
from __future__ import annotations

from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic


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
