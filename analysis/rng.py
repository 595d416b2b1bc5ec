"""Counter-based random streams: deal ``index`` of a study with ``seed`` is a pure function of both.

A stream is SplitMix64 started from a state derived from ``(seed, index, lane)``; lanes separate
independent uses inside one deal (the cards, a random policy's choices, ...). The numba functions
carry the state as a plain ``uint64`` and return ``(state, value)``; :class:`Stream` is the same
generator in plain Python, used by the reference implementations and by tests.
"""
from __future__ import annotations

import numpy as np
from numba import njit

import analysis.numba_cache  # noqa: F401 - salon's kernels cached by source version

GAMMA = 0x9E3779B97F4A7C15
_SEED_SALT = 0x6A09E667F3BCC909
_MASK64 = (1 << 64) - 1

_U_GAMMA = np.uint64(GAMMA)
_U_SALT = np.uint64(_SEED_SALT)
_U_M1 = np.uint64(0xBF58476D1CE4E5B9)
_U_M2 = np.uint64(0x94D049BB133111EB)
_U30 = np.uint64(30)
_U27 = np.uint64(27)
_U31 = np.uint64(31)
_U32 = np.uint64(32)
_U8 = np.uint64(8)
_U1 = np.uint64(1)


@njit(cache=True, inline="always")
def mix64(z: np.uint64) -> np.uint64:
    """SplitMix64's finaliser: a bijective scramble of 64 bits."""
    z = (z ^ (z >> _U30)) * _U_M1
    z = (z ^ (z >> _U27)) * _U_M2
    return z ^ (z >> _U31)


@njit(cache=True, inline="always")
def stream_start(seed: np.uint64, index: np.uint64, lane: np.uint64) -> np.uint64:
    """Initial state of the stream for (study seed, deal index, lane < 256)."""
    a = mix64(seed * _U_GAMMA + _U_SALT)
    b = mix64(((index << _U8) | lane) * _U_GAMMA + _U1)
    return mix64(a ^ b)


@njit(cache=True, inline="always")
def next_u64(state: np.uint64):
    """Advance a stream: returns (new state, 64 random bits)."""
    state = state + _U_GAMMA
    return state, mix64(state)


@njit(cache=True, inline="always")
def below(state: np.uint64, n):
    """Advance a stream: returns (new state, integer uniform in [0, n)) for 1 <= n < 2**32."""
    state = state + _U_GAMMA
    r = ((mix64(state) >> _U32) * np.uint64(n)) >> _U32
    return state, np.int64(r)


EMPTY_HALF = np.uint64(1 << 32)
"""Marks an empty half-buffer (every buffered half is below 2**32)."""
_U_LOW32 = np.uint64(0xFFFFFFFF)


@njit(cache=True, inline="always")
def below32(state: np.uint64, half: np.uint64, n):
    """Like ``below`` but on 32-bit halves: one 64-bit output serves two calls, its high half
    first, then its low half (kept in ``half``; EMPTY_HALF when none is kept).
    Returns (state, half, integer uniform in [0, n)) for 1 <= n < 2**32."""
    if half == EMPTY_HALF:
        state = state + _U_GAMMA
        z = mix64(state)
        u = z >> _U32
        half = z & _U_LOW32
    else:
        u = half
        half = EMPTY_HALF
    return state, half, np.int64((u * np.uint64(n)) >> _U32)


def _mix64_py(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


class Stream:
    """The same random stream as the numba functions, in plain Python."""

    def __init__(self, seed: int, index: int, lane: int = 0) -> None:
        if not 0 <= lane < 256:
            raise ValueError("lane must be in 0..255")
        a = _mix64_py((seed * GAMMA + _SEED_SALT) & _MASK64)
        b = _mix64_py(((((index << 8) | lane) & _MASK64) * GAMMA + 1) & _MASK64)
        self.state = _mix64_py(a ^ b)
        self.half: int | None = None

    def next_u64(self) -> int:
        """64 random bits."""
        self.state = (self.state + GAMMA) & _MASK64
        return _mix64_py(self.state)

    def below(self, n: int) -> int:
        """An integer uniform in [0, n), for 1 <= n < 2**32."""
        return ((self.next_u64() >> 32) * n) >> 32

    def below32(self, n: int) -> int:
        """An integer uniform in [0, n) from 32 random bits: each 64-bit output serves two calls,
        high half first (the numba ``below32``)."""
        if self.half is None:
            z = self.next_u64()
            u, self.half = z >> 32, z & 0xFFFFFFFF
        else:
            u, self.half = self.half, None
        return (u * n) >> 32
