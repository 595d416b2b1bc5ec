"""Card masks of the Piquet kernel: 32-bit masks (code = 8 * suit + rank, 7 8 9 10 J Q K A =
0..7, a suit an 8-bit lane), the 256-entry lane tables (point value, sequences, guards) and
per-lane bit tricks.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from analysis import bits  # noqa: F401 - installs salon's numba cache locator before the kernels below
from analysis.piquet.rules import POINT_VALUES, SEQUENCE_SCORES

ALL = 0xFFFFFFFF
COLUMN = 0x01010101
COURTS = 0x70707070  # J, Q, K of every suit


def _lane_tables():
    """256-entry tables over one suit's 8-bit lane: point value, sequence score and best key,
    the cards in sequences, and the guards of an unaccompanied K or Q (heuristic exchange)."""
    value = np.zeros(256, dtype=np.int64)
    seq_score = np.zeros(256, dtype=np.int64)
    seq_best = np.zeros(256, dtype=np.int64)
    seq_members = np.zeros(256, dtype=np.int64)
    guards = np.zeros(256, dtype=np.int64)
    for lane in range(256):
        ranks = [r for r in range(8) if lane >> r & 1]
        value[lane] = sum(POINT_VALUES[r] for r in ranks)
        r = 0
        while r < 8:
            if lane >> r & 1:
                top = r
                while top + 1 < 8 and lane >> (top + 1) & 1:
                    top += 1
                length = top - r + 1
                if length >= 3:
                    seq_score[lane] += SEQUENCE_SCORES[length]
                    seq_best[lane] = max(seq_best[lane], length * 8 + top)
                    seq_members[lane] |= ((1 << length) - 1) << r
                r = top + 1
            else:
                r += 1
        if ranks and ranks[-1] == 6 and len(ranks) >= 2:
            guards[lane] = 1 << ranks[0]
        elif ranks and ranks[-1] == 5 and len(ranks) >= 3:
            guards[lane] = (1 << ranks[0]) | (1 << ranks[1])
    return value, seq_score, seq_best, seq_members, guards


LANE_VALUE, LANE_SEQ_SCORE, LANE_SEQ_BEST, LANE_SEQ_MEMBERS, LANE_GUARDS = _lane_tables()
LANE_RUN = np.array([max(len(run) for run in f"{lane:08b}".split("0")) for lane in range(256)], dtype=np.int64)
"""The longest run of consecutive ranks in a lane."""
POINT_KEY = np.array([bin(lane).count("1") * 128 + LANE_VALUE[lane] for lane in range(256)], dtype=np.int64)
"""A lane's point key, cards * 128 + point value: the point suit has the highest (``point_suit``)."""


@njit(cache=True, inline="always")
def smear_down(x):
    """In every 8-bit lane, set all bits below the lane's highest set bit."""
    x |= (x >> 1) & 0x7F7F7F7F
    x |= (x >> 2) & 0x3F3F3F3F
    return x | ((x >> 4) & 0x0F0F0F0F)


@njit(cache=True, inline="always")
def lane_counts(x):
    """The number of set bits of every 8-bit lane, in that lane."""
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    return (x + (x >> 4)) & 0x0F0F0F0F


@njit(cache=True, inline="always")
def point_suit(hand):
    """The heuristic's point suit: most cards, then the higher point value, then the lower suit
    (branch-free: the highest of key * 4 + 3 - suit)."""
    a = POINT_KEY[hand & 0xFF] * 4 + 3
    b = POINT_KEY[(hand >> 8) & 0xFF] * 4 + 2
    c = POINT_KEY[(hand >> 16) & 0xFF] * 4 + 1
    d = POINT_KEY[(hand >> 24) & 0xFF] * 4
    return 3 - (max(max(a, b), max(c, d)) & 3)
