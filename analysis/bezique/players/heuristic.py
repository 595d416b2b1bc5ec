"""The heuristic player of the Bezique kernel: its meld (``best_meld``, holding a single bezique
for the double, BZ-T5), its lead and follow, and the keep values they rank cards by
(docs/bezique-engine.md, "Policies")."""
from __future__ import annotations

import numpy as np
from numba import njit

from analysis.bezique.engine.cards import (
    ACE,
    COL32,
    JACK,
    JD,
    KING,
    LOW32,
    NO_TARGET,
    QS,
    QUEEN,
    TEN,
    beaters,
    bit,
    both_copies,
    faces_of,
    suit_mask,
)
from analysis.bezique.engine.layout import (
    K_BEZIQUE,
    S_HAND,
    S_KEEP,
    S_PLAYED,
    S_TABLE,
)
from analysis.bezique.engine.melds import (
    cards_before,
    double_possible,
    legal_melds,
    meld_value,
)
from analysis.bezique.engine.tricks import end_legal, options_of
from analysis.bezique.players.meld_chance import expected_meld_points, meld_outlook
from analysis.bezique.policies import (
    P_BRISQUE_KEEP,
    P_BRISQUE_WIN,
    P_FOUR_KEEP_MIN,
    P_GREEDY_WIN,
    P_HOLD_BEZIQUE,
    P_HOLD_BEZIQUE_STOCK,
    P_LEAD_LOW,
    P_MELD_CHANCE,
    P_MELD_KEEP,
    P_MELD_WIN,
    P_MELD_WIN_MIN,
    P_TRUMP_KEEP,
    P_TRUMP_WIN,
)
from analysis.bezique.rules import R_DOUBLE_AFTER_SINGLE, R_END_MUST_WIN
from analysis.bits import lowest_bit, popcount


@njit(cache=True, inline="always")
def meld_view(hold, trump, p):
    """The 32-bit mask of faces with a meld in view (docs: "Keep value"): a marriage partner held,
    Q♠ with J♦ held and J♦ with Q♠, a trump J..A with three of the five sequence faces held, a J, Q,
    K or A with ``four_keep_min`` cards of its rank held."""
    faces = faces_of(hold)
    view = ((faces >> 1) & (COL32 << QUEEN)) | ((faces << 1) & (COL32 << KING))
    if (faces >> JD) & 1:
        view |= 1 << QS
    if (faces >> QS) & 1:
        view |= 1 << JD
    seq = 0xF8 << (8 * trump)
    if popcount(faces & seq) >= 3:
        view |= seq
    for r in (JACK, QUEEN, KING, ACE):
        if popcount(hold & both_copies(COL32 << r)) >= p[P_FOUR_KEEP_MIN]:
            view |= COL32 << r
    return view


@njit(cache=True)
def set_keep_values(S, seat, trump, p):
    """The seat's keep values by face for this deal's trump: rank, + ``brisque_keep`` for aces
    and tens, + ``trump_keep`` for trumps (docs: "Keep value"; the meld bonus comes per decision)."""
    for f in range(32):
        r = f & 7
        v = r
        if r >= TEN:
            v += p[P_BRISQUE_KEEP]
        if (f >> 3) & 3 == trump:
            v += p[P_TRUMP_KEEP]
        S[S_KEEP + 32 * seat + f] = v


@njit(cache=True, _nrt=False)
def min_keep(cands, S, seat, trump, p, stock):
    """The candidate with the lowest (keep value, code): keys (value << 7 | code), the least."""
    if stock:
        view = meld_view(S[S_HAND + seat] | S[S_TABLE + seat], trump, p)
        mk = p[P_MELD_KEEP]
    else:
        view = 0
        mk = 0
    mc = p[P_MELD_CHANCE] if stock else 0
    hold, gone, unseen, draws = meld_outlook(S, seat)
    base = S_KEEP + 32 * seat
    least = NO_TARGET
    x = cands
    while x != 0:
        c = lowest_bit(x)
        x &= x - 1
        f = c & 31
        k = S[base + f]
        if not stock:
            k -= p[P_TRUMP_KEEP] if (f >> 3) & 3 == trump else 0
        if mc > 0:
            k += mc * expected_meld_points(f, hold, gone, unseen, draws, trump) // 100
        key = ((k + mk * ((view >> f) & 1)) << 7) | c
        least = min(least, key)
    return least & 127


@njit(cache=True, _nrt=False)
def min_rank_keep(cands, S, seat, trump, p):
    """The candidate with the lowest (rank, stock keep value, code)."""
    view = meld_view(S[S_HAND + seat] | S[S_TABLE + seat], trump, p)
    mk = p[P_MELD_KEEP]
    mc = p[P_MELD_CHANCE]
    hold, gone, unseen, draws = meld_outlook(S, seat)
    base = S_KEEP + 32 * seat
    least = NO_TARGET
    x = cands
    while x != 0:
        c = lowest_bit(x)
        x &= x - 1
        f = c & 31
        k = S[base + f] + mk * ((view >> f) & 1)
        if mc > 0:
            k += mc * expected_meld_points(f, hold, gone, unseen, draws, trump) // 100
        key = (((f & 7) << 20) + (k << 7)) | c
        least = min(least, key)
    return least & 127


@njit(cache=True, inline="always")
def max_rank(cands):
    """The highest-ranked candidate, ties lower code."""
    best = -1
    x = cands
    while x != 0:
        c = lowest_bit(x)
        x &= x - 1
        if best < 0 or (c & 7) > (best & 7):
            best = c
    return best


@njit(cache=True, inline="always")
def min_rank(cands):
    """The lowest-ranked candidate, ties lower code."""
    best = -1
    x = cands
    while x != 0:
        c = lowest_bit(x)
        x &= x - 1
        if best < 0 or (c & 7) < (best & 7):
            best = c
    return best


@njit(cache=True, _nrt=False)
def heuristic_lead(seat, S, trump, p, stock):
    opts = options_of(seat, S)
    plain = opts & ~suit_mask(trump)
    if stock:
        if p[P_LEAD_LOW] != 0 or plain == 0:
            return min_keep(opts, S, seat, trump, p, np.bool_(True))
        return max_rank(plain)
    # End lead: the highest master non-trump, else the lowest non-trump, else the highest trump.
    known = S[S_HAND + seat] | S[S_TABLE + seat] | S[S_PLAYED]
    gone = known & (known >> 32) & LOW32  # faces whose two copies he has seen
    masters = 0
    x = plain
    while x != 0:
        c = lowest_bit(x)
        x &= x - 1
        hm = ((0xFF << ((c & 7) + 1)) & 0xFF) << (8 * ((c >> 3) & 3))
        if (gone & hm) == hm:
            masters |= bit(c)
    if masters != 0:
        return max_rank(masters)
    if plain != 0:
        return min_rank(plain)
    return max_rank(opts)


@njit(cache=True, _nrt=False)
def heuristic_follow(seat, S, trump, rules, p, led, stock, drawn, ms, fo, nopt):
    opts = options_of(seat, S)
    if not stock:
        legal = end_legal(opts, led, trump, rules[R_END_MUST_WIN] != 0)
        winners = legal & beaters(led, trump)
        if winners != 0:
            return min_rank(winners)
        return min_keep(legal, S, seat, trump, p, np.bool_(False))
    winners = opts & beaters(led, trump)
    if winners == 0:
        return min_keep(opts, S, seat, trump, p, np.bool_(True))
    in_suit = winners & suit_mask((led >> 3) & 3)
    win_with = in_suit if in_suit != 0 else winners
    if p[P_GREEDY_WIN] != 0 or (p[P_BRISQUE_WIN] != 0 and (led & 7) >= TEN):
        if in_suit != 0 or p[P_TRUMP_WIN] != 0:
            return min_rank_keep(win_with, S, seat, trump, p)
    # Only a waiting meld can make him win now (the meld is listed only when it decides).
    if p[P_MELD_WIN] != 0:
        m = best_meld(seat, S, trump, rules, p, drawn, ms, fo, nopt)
        if m >= 0 and meld_value(rules, ms[0, m]) >= p[P_MELD_WIN_MIN]:
            return min_rank_keep(win_with, S, seat, trump, p)
    return min_keep(opts, S, seat, trump, p, np.bool_(True))


@njit(cache=True, _nrt=False)
def best_meld(seat, S, trump, rules, p, drawn, ms, fo, nopt):
    """The heuristic's meld: the row of ms, or -1 for none."""
    n = legal_melds(seat, S, trump, rules, ms, fo, nopt)
    if n == 0:
        return -1
    hold = (p[P_HOLD_BEZIQUE] != 0 and 47 - drawn >= p[P_HOLD_BEZIQUE_STOCK]
            and double_possible(seat, S, rules[R_DOUBLE_AFTER_SINGLE]))
    best = -1
    bp = 0
    bh = 0
    for i in range(n):
        k = ms[0, i]
        if hold and k == K_BEZIQUE:
            continue
        pts = meld_value(rules, k)
        hc = popcount(ms[2, i])
        if best < 0:
            better = True
        elif pts != bp:
            better = pts > bp
        elif hc != bh:
            better = hc < bh
        elif k != ms[0, best]:
            better = k < ms[0, best]
        else:
            better = cards_before(ms[1, i], ms[1, best])
        if better:
            best = i
            bp = pts
            bh = hc
    return best
