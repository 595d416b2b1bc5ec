"""Proposals, exchanges and kings in the Écarté kernel (EC-PROPOSE, EC-STOCK, EC-DEALER-MIN,
EC-KING): the discards (heuristic, chosen by a table or forced, random) and the proposal rounds.
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from analysis.bits import lowest_bit, popcount, rank_of_mask
from analysis.ecarte.engine.deal import COLUMN, draw, strength, weakest
from analysis.ecarte.policies import (
    KIND_RANDOM,
    N_POLICY_SLOTS,
    P_ANNOUNCE_KING,
    P_DEALER_REFUSE_THRESHOLD,
    P_ELDER_PLAY_THRESHOLD,
    P_FORCE_DISCARD,
    P_FORCE_FIRST,
    P_FORCE_RESPONSE,
    P_FORCE_SECOND,
    P_KEEP_PLAIN_MIN_RANK,
    P_KIND,
)
from analysis.ecarte.rules import R_DEALER_MIN_DISCARD
from analysis.rng import below


@njit(cache=True, inline="always")
def heuristic_discard(hand, t, lo, hi, keep_min_rank):
    """Discard the non-trumps below keep_min_rank, trimmed or padded weakest-first to lo..hi."""
    low = ((1 << keep_min_rank) - 1) * COLUMN
    cand = hand & ~(0xFF << (8 * t)) & low
    n = popcount(cand)
    if n > hi:
        out = 0
        for _ in range(hi):
            c = weakest(cand, t)
            out |= 1 << c
            cand &= ~(1 << c)
        return out
    while n < lo:
        c = weakest(hand & ~cand, t)
        cand |= 1 << c
        n += 1
    return cand


@njit(cache=True, inline="always")
def chosen_discard(p, hand, t, lo, hi, rnd):
    """A discard the policy array fixes: the forced first discard, or its discard table's entry
    for the hand; -1 when the policy's rule decides."""
    if rnd == 0 and p[P_FORCE_DISCARD] >= 0:
        return p[P_FORCE_DISCARD]
    if p.shape[0] > N_POLICY_SLOTS:
        return table_discard(p, hand, t, lo, hi)
    return -1


@njit(cache=True)
def table_discard(p, hand, t, lo, hi):
    """The discard table's entry for the hand (taken relative to trumps), or -1 where the table
    leaves it to the rule or its discard has the wrong size.

    Not inlined: inlined, its loop slowed the exchanges of every hand by about 15 ns, table or not."""
    sh = 8 * t
    rel = ((hand >> sh) | (hand << (32 - sh))) & 0xFFFFFFFF
    d = p[N_POLICY_SLOTS + rank_of_mask(rel)]
    if d >= 0:
        d = ((d << sh) | (d >> (32 - sh))) & 0xFFFFFFFF
        if lo <= popcount(d) <= hi:
            return d
    return -1


@njit(cache=True, inline="always")
def random_discard(hand, lo, hi, st):
    """A uniformly random discard of lo..hi cards (rejection on 5-bit masks over the hand)."""
    while True:
        st, m = below(st, 32)
        k = popcount(m)
        if lo <= k <= hi:
            break
    out = 0
    idx = 0
    x = hand
    while x:
        c = lowest_bit(x)
        if (m >> idx) & 1:
            out |= 1 << c
        idx += 1
        x &= x - 1
    return st, out


# The public history of the proposal rounds, written by ``exchanges`` into ``hist`` when given: the
# rounds accepted, how the last began (FINAL_*), and per accepted round each player's discard count
# with the bounds he chose it within. The search player conditions on it (players/search_inference.py).
H_ROUNDS, H_FINAL, H_ROUND0 = 0, 1, 2
HR_EK, HR_EHI, HR_DK, HR_DLO, HR_DHI = 0, 1, 2, 3, 4
HR_SIZE = 5
MAX_ROUNDS = 11  # each round takes at least elder's one card of the 21 in the stock
N_HIST = H_ROUND0 + HR_SIZE * MAX_ROUNDS
FINAL_NONE, FINAL_PLAYED, FINAL_REFUSED = 0, 1, 2  # stock empty; elder played; the dealer refused


@njit(cache=True, inline="always")
def elder_proposes(pe, elder, t, rnd):
    """EC-PROPOSE: 1 if elder's policy proposes at round ``rnd``, 0 if it plays, -1 when a random
    policy draws it."""
    if rnd == 0 and pe[P_FORCE_FIRST] >= 0:
        return 1 if pe[P_FORCE_FIRST] >= 1 else 0
    if rnd == 1 and pe[P_FORCE_SECOND] >= 0:
        return 1 if pe[P_FORCE_SECOND] >= 1 else 0
    if pe[P_KIND] == KIND_RANDOM:
        return -1
    return 1 if strength(elder, t) < pe[P_ELDER_PLAY_THRESHOLD] else 0


@njit(cache=True, inline="always")
def dealer_refuses(pd, dealer, t, rnd):
    """EC-PROPOSE: 1 if the dealer's policy refuses at round ``rnd``, 0 if it accepts, -1 when a
    random policy draws it."""
    if rnd == 0 and pd[P_FORCE_RESPONSE] >= 0:
        return 1 if pd[P_FORCE_RESPONSE] == 1 else 0
    if pd[P_KIND] == KIND_RANDOM:
        return -1
    return 1 if strength(dealer, t) >= pd[P_DEALER_REFUSE_THRESHOLD] else 0


@njit(cache=True, inline="always")
def policy_discard(p, hand, t, lo, hi, rnd):
    """EC-STOCK: the discard of a policy that is not random: forced, its table's, or the rule's."""
    disc = chosen_discard(p, hand, t, lo, hi, rnd)
    if disc < 0:
        disc = heuristic_discard(hand, t, lo, hi, p[P_KEEP_PLAIN_MIN_RANK])
    return disc


Exchanged = namedtuple("Exchanged", ("p", "stc", "stb", "sto", "elder", "dealer", "rounds", "ending", "pwp",
                                     "refused_round", "proposed_first", "e_disc", "d_disc"))
"""What ``exchanges`` returns: the next deck position and the streams (cards with its half-buffer,
choices), both final hands, the rounds played, the ending (0 elder plays, 1 the dealer refused),
1 if elder played without proposing, the round refused (-1 none), 1 if elder proposed first, and
each player's discards over all rounds. A tuple: it unpacks in this order."""


@njit(cache=True, inline="always")
def exchanges(deck, p, stc, stb, sto, elder, dealer, t, rules, pe, pd, hist=None):
    """EC-PROPOSE / EC-STOCK / EC-DEALER-MIN: the proposal rounds, exchanges and draws.

    Returns an ``Exchanged`` (p, stc, stb, sto, elder, dealer, rounds, ending, played without
    proposing, refused round, proposed first, elder's discards, the dealer's discards): the
    discards are the cards each player put out over all rounds (what he knows to be out of play;
    search.py uses them). ``hist``: an N_HIST array to receive the public history (H_*), or None."""
    stock_left = 32 - p
    rnd = 0
    ending = 0
    pwp = 0
    refused_round = -1
    proposed_first = 0
    e_disc = 0
    d_disc = 0
    # EC-PROPOSE / EC-STOCK / EC-DEALER-MIN
    final = FINAL_NONE
    while True:
        if stock_left == 0:
            break
        d = elder_proposes(pe, elder, t, rnd)
        if d < 0:
            sto, r = below(sto, 2)
            d = r
        propose = d == 1
        if rnd == 0:
            proposed_first = 1 if propose else 0
        if not propose:
            if rnd == 0:
                pwp = 1
            final = FINAL_PLAYED
            break
        d = dealer_refuses(pd, dealer, t, rnd)
        if d < 0:
            sto, r = below(sto, 2)
            d = 1 if r != 0 else 0
        if d == 1:
            ending = 1
            refused_round = rnd
            final = FINAL_REFUSED
            break
        hi = min(5, stock_left)
        if pe[P_KIND] == KIND_RANDOM:
            sto, disc = random_discard(elder, 1, hi, sto)
        else:
            disc = policy_discard(pe, elder, t, np.int64(1), hi, rnd)
        k = popcount(disc)
        if hist is not None:
            hist[H_ROUND0 + HR_SIZE * rnd + HR_EK] = k
            hist[H_ROUND0 + HR_SIZE * rnd + HR_EHI] = hi
            hist[H_ROUND0 + HR_SIZE * rnd + HR_DK] = 0
            hist[H_ROUND0 + HR_SIZE * rnd + HR_DLO] = 0
            hist[H_ROUND0 + HR_SIZE * rnd + HR_DHI] = 0
        elder &= ~disc
        e_disc |= disc
        for _ in range(k):
            stc, stb, c = draw(deck, p, stc, stb)
            p += 1
            elder |= 1 << c
        stock_left -= k
        hi = min(5, stock_left)
        if hi > 0:
            lo = min(rules[R_DEALER_MIN_DISCARD], stock_left)
            if pd[P_KIND] == KIND_RANDOM:
                sto, disc = random_discard(dealer, lo, hi, sto)
            else:
                disc = policy_discard(pd, dealer, t, lo, hi, rnd)
            k = popcount(disc)
            if hist is not None:
                hist[H_ROUND0 + HR_SIZE * rnd + HR_DK] = k
                hist[H_ROUND0 + HR_SIZE * rnd + HR_DLO] = lo
                hist[H_ROUND0 + HR_SIZE * rnd + HR_DHI] = hi
            dealer &= ~disc
            d_disc |= disc
            for _ in range(k):
                stc, stb, c = draw(deck, p, stc, stb)
                p += 1
                dealer |= 1 << c
            stock_left -= k
        rnd += 1
    if hist is not None:
        hist[H_ROUNDS] = rnd
        hist[H_FINAL] = final
    return Exchanged(p, stc, stb, sto, elder, dealer, rnd, ending, pwp, refused_round, proposed_first, e_disc, d_disc)


@njit(cache=True, inline="always")
def announce_kings(elder, dealer, t, sto, pe, pd):
    """EC-KING: elder first, then the dealer; returns (sto, announced: 1 elder | 2 dealer)."""
    king = 8 * t + 7
    announced = 0
    if (elder >> king) & 1:
        if pe[P_KIND] == KIND_RANDOM:
            sto, r = below(sto, 2)
            if r == 1:
                announced |= 1
        elif pe[P_ANNOUNCE_KING]:
            announced |= 1
    if (dealer >> king) & 1:
        if pd[P_KIND] == KIND_RANDOM:
            sto, r = below(sto, 2)
            if r == 1:
                announced |= 2
        elif pd[P_ANNOUNCE_KING]:
            announced |= 2
    return sto, announced
