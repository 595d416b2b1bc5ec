"""The end-game players' decisions from the exact solver (players/solver.py), and random positions for
its benchmark.

A player takes the lowest face among the optimal cards, as the code of its lowest copy: the same
choice as the reference's ``exact_lead`` / ``exact_follow`` (reference/solver.py), so the kernel
and the reference play the same deals. Finding the lowest costs a few null-window tests beyond the
solve; the table (kept across a deal's decisions and across deals) makes the later tricks cheap.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from analysis.bezique.players.solver import (
    LOW32,
    after_follow,
    best_follow,
    canonical,
    distinct,
    legal_faces,
    solve_masks,
)
from analysis.bits import lowest_bit
from analysis.rng import below, stream_start


@njit(cache=True)
def lead_reaches(L, F, led, v, trump, must, brisque, last, tt):
    """Does leading face ``led`` give the leader at least ``v``? (Null-window tests of the replies.)"""
    opts = distinct(legal_faces(F & LOW32, led, trump, must), L & LOW32)
    while opts != 0:
        f = lowest_bit(opts)
        opts &= opts - 1
        if after_follow(L, F, led, f, trump, must, brisque, last, -v, -v + 1, tt) > -v:
            return False
    return True


@njit(cache=True, inline="always")
def code_of(hand, f):
    """The lowest copy of face ``f`` in the 64-bit card mask ``hand``."""
    return f if (hand >> f) & 1 else f + 32


@njit(cache=True)
def exact_lead(hand, opp, trump, must, brisque, last, tt):
    """The end-game player's lead from 64-bit card masks: the lowest face among the optimal
    leads, as the code of its lowest copy (the reference's ``exact_lead``)."""
    L = canonical(hand)
    F = canonical(opp)
    v, rep = solve_masks(L, F, trump, must, brisque, last, tt)
    leads = distinct(L & LOW32, F & LOW32)
    while leads != 0:
        f = lowest_bit(leads)
        leads &= leads - 1
        if f == rep or lead_reaches(L, F, f, v, trump, must, brisque, last, tt):
            return code_of(hand, f)
    return code_of(hand, rep)


@njit(cache=True)
def exact_follow(leader, hand, led, trump, must, brisque, last, tt):
    """The end-game player's reply to the code ``led`` from 64-bit masks (``leader`` without the
    card led): the lowest face among the best legal replies, as the code of its lowest copy."""
    L = canonical(leader | (np.int64(1) << np.int64(led)))
    f, _ = best_follow(L, canonical(hand), led & 31, trump, must, brisque, last, tt)
    return code_of(hand, f)


@njit(cache=True)
def random_positions(n, seed, size):
    """n random positions of ``size`` cards a hand (2 x size of the 64 codes, canonical masks) and
    a trump: rows (leader, follower, trump)."""
    out = np.empty((n, 3), dtype=np.int64)
    for i in range(n):
        st = stream_start(np.uint64(seed), np.uint64(i), np.uint64(0))
        taken = np.int64(0)
        hands = np.zeros(2, dtype=np.int64)
        for k in range(2 * size):
            while True:
                st, c = below(st, 64)
                if not (taken >> c) & 1:
                    break
            taken |= np.int64(1) << np.int64(c)
            hands[k & 1] |= np.int64(1) << np.int64(c)
        st, t = below(st, 4)
        out[i, 0] = canonical(hands[0])
        out[i, 1] = canonical(hands[1])
        out[i, 2] = t
    return out


@njit(cache=True, nogil=True)  # called from Python: Ctrl-C can end the process meanwhile
def solve_all(pos, must, brisque, last, tt):
    """Solve every position of ``pos`` (``random_positions``); returns the sum of the values."""
    total = 0
    for i in range(pos.shape[0]):
        total += solve_masks(pos[i, 0], pos[i, 1], pos[i, 2], must, brisque, last, tt)[0]
    return total
