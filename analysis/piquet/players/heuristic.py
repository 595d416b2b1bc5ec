"""The players' choices in the Piquet kernel: the discard (heuristic keep values, random,
forced; docs/piquet-engine.md, "Policies") and the card to lead or follow (heuristic, random);
and the trick-point events of one trick, which every play loop scores with.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from analysis.bits import highest_bit, lowest_bit, nth_bit, popcount
from analysis.piquet.engine.cards import (
    ALL,
    COLUMN,
    LANE_GUARDS,
    LANE_SEQ_MEMBERS,
    lane_counts,
    point_suit,
    smear_down,
)
from analysis.piquet.players.learned import (
    MODEL_SIZE,
    TABLES,
    learned_discard,
    learned_tables,
    ordering_discard,
)
from analysis.piquet.players.learned_features import N_MODELS
from analysis.piquet.policies import (
    KIND_RANDOM,
    P_ACE_BONUS,
    P_ELDER_KEEP,
    P_EXCHANGE,
    P_FORCE_COUNT,
    P_FORCE_DISCARD,
    P_FORCE_MASK,
    P_GUARD_BONUS,
    P_KIND,
    P_LEARNED,
    P_LEN_WEIGHT,
    P_POINT_BONUS,
    P_SEQUENCE_BONUS,
    P_SET_BONUS,
    P_YOUNGER_KEEP,
)
from analysis.piquet.rules import R_CAPOT, R_CARDS_BONUS
from analysis.rng import below

VALUES_SIZE = 2048 + TABLES * N_MODELS // 2
"""card_values' length: the keep values, then the learned exchange's int32 tables of every model, two
to a slot."""


@njit(cache=True)
def card_values(p, is_younger):
    """The part of the heuristic's keep value that depends on a card's own suit only, for every
    lane and rank: table[8 * lane + rank] (the point-suit and set bonuses are added per hand); with
    the learned exchange, its suit-only tables follow (``players.learned.learned_tables``)."""
    table = np.zeros(VALUES_SIZE, dtype=np.int64)
    if p[P_EXCHANGE] >= 1:
        table[2048:] = learned_tables(seat_weights(p, is_younger), 2 if p[P_EXCHANGE] == 1 else 1).view(np.int64)
    gb = p[P_GUARD_BONUS] if is_younger else 0
    for lane in range(256):
        n = popcount(lane)
        for r in range(8):
            table[8 * lane + r] = (r + p[P_LEN_WEIGHT] * n + p[P_SEQUENCE_BONUS] * ((LANE_SEQ_MEMBERS[lane] >> r) & 1)
                                   + (p[P_ACE_BONUS] if r == 7 else 0) + gb * ((LANE_GUARDS[lane] >> r) & 1))
    return table


@njit(cache=True, inline="always")
def heuristic_discard(hand, lo, hi, p, values, is_younger, scratch):
    """The heuristic exchange: throw the cards valued below the keep threshold, clamped to lo..hi,
    lowest (value, code) first (docs/piquet-engine.md). ``values`` is ``card_values(p, seat)``."""
    ps = point_suit(hand)
    sets = 0
    for r in range(3, 8):
        col = (hand >> r) & COLUMN
        if popcount(col) >= 3:
            sets |= col << r
    keep = p[P_YOUNGER_KEEP] if is_younger else p[P_ELDER_KEEP]
    pb = p[P_POINT_BONUS]
    stb = p[P_SET_BONUS]
    n = 0
    low = 0
    for s in range(4):
        lane = (hand >> (8 * s)) & 0xFF
        base = pb if s == ps else 0
        row = 8 * lane
        x = lane
        while x:
            r = lowest_bit(x)
            x &= x - 1
            c = 8 * s + r
            v = values[row + r] + base + stb * ((sets >> c) & 1)
            scratch[n] = v * 32 + c
            n += 1
            low += v < keep
    k = min(max(low, lo), hi)
    if k == 0:
        return 0
    # The k smallest keys: those with fewer than k smaller keys (branch-free counting).
    out = 0
    for i in range(12):  # an exchanging hand always holds 12 cards
        key = scratch[i]
        smaller = 0
        for j in range(12):
            smaller += scratch[j] < key
        out |= (1 << (key & 31)) if smaller < k else 0
    return out


@njit(cache=True, inline="always")
def random_discard(hand, lo, hi, sto):
    """A random discard: the count uniform in lo..hi, then the cards one by one."""
    sto, k = below(sto, hi - lo + 1)
    k += lo
    out = 0
    rest = hand
    for i in range(k):
        sto, j = below(sto, popcount(hand) - i)
        c = nth_bit(rest, j)
        rest &= ~(1 << c)
        out |= 1 << c
    return sto, out


@njit(cache=True, inline="always")
def seat_weights(p, is_younger):
    """The learned exchange's weights of the seat, every model (a view of the policy array)."""
    a = P_LEARNED + (N_MODELS * MODEL_SIZE if is_younger else 0)
    return p[a:a + N_MODELS * MODEL_SIZE]


@njit(cache=True, inline="always")
def choose_discard(hand, lo, hi, p, values, is_younger, sto, scratch, force, model):
    """The discard of the player with policy p: ``force`` (a mask) when it is not -1, else the
    policy's forced discard or count if set, else the random, learned (``model``: the rule set's,
    ``players.learned_features.exchange_model``; ``scratch``: 64 int32 slots) or heuristic choice."""
    if force >= 0:
        return sto, force
    if p[P_FORCE_DISCARD]:
        return sto, p[P_FORCE_MASK]
    if p[P_FORCE_COUNT] >= 0:
        lo = min(p[P_FORCE_COUNT], hi)  # a count above the most allowed: take all allowed
        hi = lo
    if p[P_KIND] == KIND_RANDOM:
        return random_discard(hand, lo, hi, sto)
    if p[P_EXCHANGE] >= 1:
        tables = values[2048:].view(np.int32)  # learned_tables
        if p[P_EXCHANGE] == 1:
            return sto, learned_discard(hand, lo, hi, seat_weights(p, is_younger), tables, model, scratch)
        return sto, ordering_discard(hand, lo, hi, seat_weights(p, is_younger), tables, model, scratch)
    return sto, heuristic_discard(hand, lo, hi, p, values, is_younger, scratch)


@njit(cache=True, inline="always")
def heuristic_lead(hand, unknown):
    """Highest card of the longest master suit; else lowest card of the longest suit.

    The master suits are found for all four lanes at once: a held suit is master when no card
    above its highest card may be with the opponent."""
    below_top = smear_down(hand)
    threat = smear_down(unknown & ~below_top & ALL) & COLUMN  # lane bit 0: a higher card is out
    masters = below_top & ~threat & COLUMN  # lane bit 0: a held suit with nothing above its top
    if masters:
        # Key per lane: 4 * cards + 3 - suit (most cards, then the lower suit), masters only.
        keys = ((lane_counts(hand) << 2) | 0x00010203) & (masters * 0xFF)
        best = keys & 0xFF
        for s in range(1, 4):
            k = (keys >> (8 * s)) & 0xFF
            best = k if k > best else best
        s = 3 - (best & 3)
        return 8 * s + highest_bit((hand >> (8 * s)) & 0xFF)
    best_o = 0
    card_o = 0
    for s in range(4):
        lane = (hand >> (8 * s)) & 0xFF
        key = (popcount(lane) * 64 + highest_bit(lane | 1) * 4 + 4 - s) if lane else 0
        if key > best_o:
            best_o = key
            card_o = 8 * s + lowest_bit(lane)
    return card_o


@njit(cache=True, inline="always")
def heuristic_follow(hand, led):
    """Win as cheaply as possible, else play low; void: the lowest card, from the shortest suit on ties."""
    s = led >> 3
    lane = (hand >> (8 * s)) & 0xFF
    if lane:
        w = lane >> ((led & 7) + 1)
        if w:
            return led + 1 + lowest_bit(w)
        return 8 * s + lowest_bit(lane)
    best = 1 << 20
    card = 0
    for s2 in range(4):
        l2 = (hand >> (8 * s2)) & 0xFF
        if l2:
            key = lowest_bit(l2) * 64 + popcount(l2) * 4 + s2
            if key < best:
                best = key
                card = 8 * s2 + lowest_bit(l2)
    return card


@njit(cache=True, inline="always")
def random_card(cards, sto):
    """The below(n)-th lowest code of n cards."""
    sto, j = below(sto, popcount(cards))
    return sto, nth_bit(cards, j)


@njit(cache=True, inline="always")
def trick_events(e, y, elder_leads, follower_wins, elder_wins, t, every_lead, last, pique_value, pique_open):
    """PQ-TRICK, PQ-LAST, PQ-PIQUE: the running scores after trick t (0-based): the lead point,
    then the win (and last-trick) point, the pique checked after each; returns (e, y, pique open).
    ``every_lead``, ``last``, ``pique_value``: the rules' R_LEAD_POINTS_EVERY_TRICK, R_LAST_TRICK,
    R_PIQUE, read once before the loop (kept in registers: the loop writes arrays)."""
    if every_lead:
        e += elder_leads
        y += not elder_leads
    else:
        e += t == 0
    hit = pique_open & (y == 0) & (e >= 30)
    e += pique_value if hit else 0
    pique_open &= not hit
    win_pt = (1 if (follower_wins or not every_lead) else 0) + (last if t == 11 else 0)
    e += win_pt if elder_wins else 0
    y += 0 if elder_wins else win_pt
    hit = pique_open & (y == 0) & (e >= 30)
    e += pique_value if hit else 0
    pique_open &= not hit
    return e, y, pique_open


@njit(cache=True, inline="always")
def cards_and_capot(e_tricks, rules):
    """PQ-CARDS from the tricks elder won: (elder's cards bonus, younger's, elder's capot, younger's)."""
    if e_tricks == 12:
        return 0, 0, rules[R_CAPOT], 0
    if e_tricks >= 7:
        return rules[R_CARDS_BONUS], 0, 0, 0
    if e_tricks == 0:
        return 0, 0, 0, rules[R_CAPOT]
    if e_tricks <= 5:
        return 0, rules[R_CARDS_BONUS], 0, 0
    return 0, 0, 0, 0
