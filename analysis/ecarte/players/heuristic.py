"""The heuristic player of the Écarté kernel: its proposal and refusal thresholds (EC-PROPOSE), its
discard (EC-STOCK), its lead and follow (EC-FOLLOW), and two heuristic hands' tricks interleaved
(the table kernels' fast path). With them, what a policy array fixes otherwise: a decision forced
by a study, a discard table's entry, a random player's draw (``elder_proposes``,
``dealer_refuses``, ``policy_discard``, ``random_discard``)."""
from __future__ import annotations

import numpy as np
from numba import njit

from analysis.bits import highest_bit, lowest_bit, popcount, rank_of_mask
from analysis.ecarte.engine.deal import COLUMN, KINGS, strength, weakest
from analysis.ecarte.engine.tricks import beats, legal_follows
from analysis.ecarte.policies import (
    KIND_RANDOM,
    N_POLICY_SLOTS,
    P_DEALER_REFUSE_THRESHOLD,
    P_ELDER_PLAY_THRESHOLD,
    P_FORCE_DISCARD,
    P_FORCE_FIRST,
    P_FORCE_RESPONSE,
    P_FORCE_SECOND,
    P_KEEP_PLAIN_MIN_RANK,
    P_KIND,
)
from analysis.rng import below

# LEAD_KEY[lane] ranks a plain suit's lane for the lead: its length, then its top card (0 if empty).
LEAD_KEY = np.zeros(256, dtype=np.int64)
for _lane in range(1, 256):
    LEAD_KEY[_lane] = (bin(_lane).count("1") << 3) | (_lane.bit_length() - 1)


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
def heuristic_lead(hand, t, lead_trumps):
    """Highest trump with 2+ (if lead_trumps), else a plain king, else top of the longest plain suit.

    Written as selections rather than early returns, so it compiles to few unpredictable branches.
    """
    tl = (hand >> (8 * t)) & 0xFF
    top_trump = 8 * t + highest_bit(tl)
    plain = hand & ~(0xFF << (8 * t))
    kings = plain & KINGS
    # Longest plain suit, ties to the higher top card, then the lower suit: the largest key.
    k0 = (LEAD_KEY[plain & 0xFF] << 2) | 3
    k1 = (LEAD_KEY[(plain >> 8) & 0xFF] << 2) | 2
    k2 = (LEAD_KEY[(plain >> 16) & 0xFF] << 2) | 1
    k3 = LEAD_KEY[(plain >> 24) & 0xFF] << 2
    best = max(max(k0, k1), max(k2, k3))
    longest_top = 8 * (3 - (best & 3)) + ((best >> 2) & 7)
    card = top_trump if plain == 0 else longest_top
    card = lowest_bit(kings) if kings else card
    return top_trump if (lead_trumps and popcount(tl) >= 2) else card


@njit(cache=True, inline="always")
def heuristic_follow(legal, led, t):
    """The cheapest winning legal card, else the cheapest legal card (weakest-first order)."""
    ls = led >> 3
    higher_in_suit = (0xFF << (8 * ls)) & -(2 << led)
    win = higher_in_suit | ((0xFF << (8 * t)) & -np.int64(ls != t))
    winners = legal & win
    return weakest(winners if winners else legal, t)


@njit(cache=True, inline="always")
def heuristic_trick(hand_l, hand_f, elder_leads, t, e_lead_trumps, d_lead_trumps, must_trump):
    """One trick (not the last) between heuristic players: returns the hands and who leads next."""
    led = heuristic_lead(hand_l, t, e_lead_trumps if elder_leads else d_lead_trumps)
    fol = heuristic_follow(legal_follows(hand_f, led, t, must_trump), led, t)
    hand_l &= ~(1 << led)
    hand_f &= ~(1 << fol)
    swap = -np.int64(beats(fol, led, t))
    x = (hand_l ^ hand_f) & swap
    return hand_l ^ x, hand_f ^ x, elder_leads != (swap != 0)


@njit(cache=True, inline="always")
def heuristic_tricks_pair(a_elder, a_dealer, a_t, b_elder, b_dealer, b_t, e_lead_trumps, d_lead_trumps,
                          must_trump):
    """The tricks of two independent hands between heuristic players, interleaved so that the
    processor overlaps their chains of dependent steps; returns elder's tricks in each."""
    al, af, ae = a_elder, a_dealer, True
    bl, bf, be = b_elder, b_dealer, True
    a_tricks = 0
    b_tricks = 0
    for _ in range(4):
        al, af, ae = heuristic_trick(al, af, ae, a_t, e_lead_trumps, d_lead_trumps, must_trump)
        bl, bf, be = heuristic_trick(bl, bf, be, b_t, e_lead_trumps, d_lead_trumps, must_trump)
        a_tricks += 1 if ae else 0
        b_tricks += 1 if be else 0
    # The last trick is forced.
    a_last = ae != beats(lowest_bit(af), lowest_bit(al), a_t)
    b_last = be != beats(lowest_bit(bf), lowest_bit(bl), b_t)
    return a_tricks + (1 if a_last else 0), b_tricks + (1 if b_last else 0)


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
