"""The turn-up's bucket relative to a hand, which Écarté's proposal game splits its information
sets on (``studies/equilibrium/branches.py``) and the reading search reads: the king turned
(``KING_TURNED``), a turn-up above the hand's highest trump (``ABOVE``; every turn-up but the king
when the hand holds no trump) or below it (``BELOW``)."""
from __future__ import annotations

from numba import njit

from analysis.bits import highest_bit
from analysis.ecarte.rules import KING

KING_TURNED, ABOVE, BELOW = 0, 1, 2
N_BUCKETS = 3
BUCKET_NAMES = ("king turned", "turn-up above my top trump", "turn-up below my top trump")


@njit(cache=True, inline="always")
def turnup_bucket(hand, r):
    """The bucket of a turn-up of rank r (Écarté rank index, K = 7) for a hand whose trumps are
    lane 0."""
    if r == KING:
        return KING_TURNED
    trumps = hand & 0xFF
    if trumps == 0 or r > highest_bit(trumps):
        return ABOVE
    return BELOW


@njit(cache=True)
def bucket_turnups(hand, b):
    """The ranks (a lane mask) a turn-up of bucket b can have beside this hand."""
    out = 0
    for r in range(8):
        if not (hand >> r) & 1 and turnup_bucket(hand, r) == b:
            out |= 1 << r
    return out
