"""Declarations in the Piquet kernel (PQ-POINT, PQ-SEQ, PQ-SET, PQ-REPIQUE): each player's
best point, sequence and set as comparable keys with their scores, and a declaration's score
with the repique it may bring.
"""
from __future__ import annotations

from numba import njit

from analysis.bits import popcount
from analysis.piquet.engine.cards import COLUMN, LANE_SEQ_BEST, LANE_SEQ_SCORE, LANE_VALUE


@njit(cache=True, inline="always")
def point_key(hand):
    """PQ-POINT: 128 * length + value of the player's point suit (largest key wins)."""
    best = 0
    for s in range(4):
        lane = (hand >> (8 * s)) & 0xFF
        key = popcount(lane) * 128 + LANE_VALUE[lane]
        if key > best:
            best = key
    return best


@njit(cache=True, inline="always")
def sequence_key_and_score(hand):
    """PQ-SEQ: (8 * length + top rank of the best sequence or 0, score of all sequences)."""
    best = 0
    score = 0
    for s in range(4):
        lane = (hand >> (8 * s)) & 0xFF
        score += LANE_SEQ_SCORE[lane]
        if LANE_SEQ_BEST[lane] > best:
            best = LANE_SEQ_BEST[lane]
    return best, score


@njit(cache=True, inline="always")
def set_key_and_score(hand):
    """PQ-SET: (16 + rank of the best quatorze, else 8 + rank of the best trio, else 0; score)."""
    best = 0
    score = 0
    for r in range(3, 8):
        n = popcount((hand >> r) & COLUMN)
        if n == 4:
            score += 14
            best = 16 + r
        elif n == 3:
            score += 3
            if best < 16:
                best = 8 + r
    return best, score


@njit(cache=True, inline="always")
def declaration_event(me, opp, pts, rep_done, rep_value):
    """Add a declaration score; returns (new total, repique gained) per PQ-REPIQUE."""
    if pts <= 0:
        return me, 0
    me += pts
    if not rep_done and me >= 30 and opp == 0:
        return me + rep_value, rep_value
    return me, 0
