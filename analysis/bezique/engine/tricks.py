"""Trick rules in the Bezique kernel: a player's options and the end phase's legal follows. The
heuristic's lead and follow are in ``players/heuristic.py``.
"""
from __future__ import annotations

from numba import njit

from analysis.bezique.engine.cards import (
    LOW32,
    bit,
    both_copies,
    suit_mask,
)
from analysis.bezique.engine.layout import S_HAND, S_KINDS, S_TABLE
from analysis.bits import lowest_bit, popcount


@njit(cache=True, _nrt=False)
def options_of(seat, S):
    """The player's distinct cards: per face his lowest hand copy and his first table copy."""
    h = S[S_HAND + seat]
    t = S[S_TABLE + seat]
    lo = h & LOW32
    hi = (h >> 32) & LOW32
    opts = lo | ((hi & ~lo) << 32)
    tlo = t & LOW32
    thi = (t >> 32) & LOW32
    both = tlo & thi
    opts |= (tlo & ~both) | ((thi & ~both) << 32)
    while both != 0:
        f = lowest_bit(both)
        both &= both - 1
        if popcount(S[S_KINDS + f + 32]) > popcount(S[S_KINDS + f]):
            opts |= bit(f + 32)
        else:
            opts |= bit(f)
    return opts


@njit(cache=True, inline="always")
def end_legal(opts, led, trump, must_win):
    """BZ-END: the follower's legal options in the end phase."""
    suited = opts & suit_mask((led >> 3) & 3)
    if suited != 0:
        if must_win:
            higher = suited & both_copies(((0xFF << ((led & 7) + 1)) & 0xFF) << (8 * ((led >> 3) & 3)))
            if higher != 0:
                return higher
        return suited
    trumps = opts & suit_mask(trump)
    if trumps != 0:
        return trumps
    return opts
