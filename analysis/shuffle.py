"""The kernels' Fisher–Yates shuffle on the counter-based streams (``analysis/rng.py``), shared by
the games whose deal is a whole shuffle (Piquet, Bezique) and by Piquet's sampled deals."""
from __future__ import annotations

from numba import njit

from analysis.rng import below32


@njit(cache=True, inline="always")
def shuffle_first(items, n, k, stc, half):
    """Fix positions 0..k-1 of ``items[:n]`` by Fisher–Yates steps in place, each a half draw of
    the stream (``below32``); returns (stream state, half)."""
    for p in range(k):
        stc, half, j = below32(stc, half, n - p)
        j += p
        c = items[j]
        items[j] = items[p]
        items[p] = c
    return stc, half
