"""Bit tricks on card masks for the numba kernels (a suit is an 8-bit lane of a 32-bit mask)."""
from __future__ import annotations

import numpy as np
from numba import njit

POP8 = np.array([bin(i).count("1") for i in range(256)], dtype=np.int64)
HIGH8 = np.array([i.bit_length() - 1 for i in range(256)], dtype=np.int64)  # -1 for 0
LOW8 = np.array([(i & -i).bit_length() - 1 for i in range(256)], dtype=np.int64)  # -1 for 0
RANK_COLUMN = 0x01010101  # one bit per suit lane, rank 0


@njit(cache=True, inline="always")
def popcount(x: np.int64) -> np.int64:
    """Number of set bits of a 32-bit mask."""
    return POP8[x & 0xFF] + POP8[(x >> 8) & 0xFF] + POP8[(x >> 16) & 0xFF] + POP8[(x >> 24) & 0xFF]


_DEBRUIJN32 = 0x077CB531
DEBRUIJN_INDEX = np.zeros(32, dtype=np.int64)
for _i in range(32):
    DEBRUIJN_INDEX[((_DEBRUIJN32 << _i) & 0xFFFFFFFF) >> 27] = _i


@njit(cache=True, inline="always")
def lowest_bit(x: np.int64) -> np.int64:
    """Index of the lowest set bit of a non-zero 32-bit mask (de Bruijn multiplication, no branches)."""
    return DEBRUIJN_INDEX[((((x & -x) * _DEBRUIJN32) & 0xFFFFFFFF) >> 27)]


@njit(cache=True, inline="always")
def nth_bit(x: np.int64, n: np.int64) -> np.int64:
    """Index of the n-th (0-based) lowest set bit of x."""
    for _ in range(n):
        x &= x - 1
    return lowest_bit(x)
