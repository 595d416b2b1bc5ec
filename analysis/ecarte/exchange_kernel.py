"""Proposals, exchanges and kings in the Écarté kernel (EC-PROPOSE, EC-STOCK, EC-DEALER-MIN,
EC-KING): the discards (heuristic, chosen by a table or forced, random) and the proposal rounds.
"""
from __future__ import annotations

from collections import namedtuple

from numba import njit

from analysis.bits import lowest_bit, popcount, rank_of_mask
from analysis.ecarte.deal_kernel import COLUMN, draw, strength, weakest
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


Exchanged = namedtuple("Exchanged", ("p", "stc", "stb", "sto", "elder", "dealer", "rounds", "ending", "pwp",
                                     "refused_round", "proposed_first", "e_disc", "d_disc"))
"""What ``exchanges`` returns: the next deck position and the streams (cards with its half-buffer,
choices), both final hands, the rounds played, the ending (0 elder plays, 1 the dealer refused),
1 if elder played without proposing, the round refused (-1 none), 1 if elder proposed first, and
each player's discards over all rounds. A tuple: it unpacks in this order."""


@njit(cache=True, inline="always")
def exchanges(deck, p, stc, stb, sto, elder, dealer, t, rules, pe, pd):
    """EC-PROPOSE / EC-STOCK / EC-DEALER-MIN: the proposal rounds, exchanges and draws.

    Returns an ``Exchanged`` (p, stc, stb, sto, elder, dealer, rounds, ending, played without
    proposing, refused round, proposed first, elder's discards, the dealer's discards): the
    discards are the cards each player put out over all rounds (what he knows to be out of play;
    search.py uses them)."""
    force = pe[P_FORCE_FIRST]
    stock_left = 32 - p
    rnd = 0
    ending = 0
    pwp = 0
    refused_round = -1
    proposed_first = 0
    e_disc = 0
    d_disc = 0
    # EC-PROPOSE / EC-STOCK / EC-DEALER-MIN
    while True:
        if stock_left == 0:
            break
        if rnd == 0 and force >= 0:
            propose = force >= 1
        elif rnd == 1 and pe[P_FORCE_SECOND] >= 0:
            propose = pe[P_FORCE_SECOND] >= 1
        elif pe[P_KIND] == KIND_RANDOM:
            sto, r = below(sto, 2)
            propose = r == 1
        else:
            propose = strength(elder, t) < pe[P_ELDER_PLAY_THRESHOLD]
        if rnd == 0:
            proposed_first = 1 if propose else 0
        if not propose:
            if rnd == 0:
                pwp = 1
            break
        if rnd == 0 and pd[P_FORCE_RESPONSE] >= 0:
            refuse = pd[P_FORCE_RESPONSE] == 1
        elif pd[P_KIND] == KIND_RANDOM:
            sto, r = below(sto, 2)
            refuse = r != 0
        else:
            refuse = strength(dealer, t) >= pd[P_DEALER_REFUSE_THRESHOLD]
        if refuse:
            ending = 1
            refused_round = rnd
            break
        hi = min(5, stock_left)
        if pe[P_KIND] == KIND_RANDOM:
            sto, disc = random_discard(elder, 1, hi, sto)
        else:
            disc = chosen_discard(pe, elder, t, 1, hi, rnd)
            if disc < 0:
                disc = heuristic_discard(elder, t, 1, hi, pe[P_KEEP_PLAIN_MIN_RANK])
        k = popcount(disc)
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
                disc = chosen_discard(pd, dealer, t, lo, hi, rnd)
                if disc < 0:
                    disc = heuristic_discard(dealer, t, lo, hi, pd[P_KEEP_PLAIN_MIN_RANK])
            k = popcount(disc)
            dealer &= ~disc
            d_disc |= disc
            for _ in range(k):
                stc, stb, c = draw(deck, p, stc, stb)
                p += 1
                dealer |= 1 << c
            stock_left -= k
        rnd += 1
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
