"""One Bezique deal in numba: the shuffle, the 24 stock tricks with announced sevens, the seven
exchange, melds and draws, the 8 end-phase tricks and the brisques (docs/bezique-engine.md, "One
deal, step by step"); and ``deal_outcomes``, the outcome vectors the differential test compares.

The state of a deal lives in one small int64 array (``S_*`` slots of ``layout``): both hands, both
tables, the cards played, the cards won and, per table card, the mask of meld kinds it has been
used in. ``play_deal`` writes the deal's outcome into ``out`` (``O_*``, ``OUT_FIELDS``).
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from analysis.bezique.card_masks import BRISQUES32, NO_TARGET, SEVEN, bit, both_copies, count32, follower_wins
from analysis.bezique.endgame import new_table
from analysis.bezique.endgame_play import exact_follow, exact_lead
from analysis.bezique.layout import (
    N_KINDS,
    N_OUT,
    N_STATE,
    O_BRISQUE,
    O_ELDER_STOCK,
    O_EXCHANGE,
    O_LAST,
    O_MELD,
    O_MELD_AT,
    O_MELD_COUNT,
    O_PLAYED,
    O_SEVEN,
    O_TOTAL,
    O_TRICKS,
    O_TRICKS_PLAYED,
    O_TURN_UP,
    OUTCOME_LENGTH,
    S_HAND,
    S_KINDS,
    S_PLAYED,
    S_TABLE,
    S_USED,
    S_WON,
)
from analysis.bezique.meld_kernel import MAX_MELDS, best_meld, legal_melds, meld_value, sort_melds
from analysis.bezique.play_kernel import (
    end_legal,
    heuristic_follow,
    heuristic_lead,
    options_of,
    set_keep_values,
)
from analysis.bezique.policies import KIND_RANDOM, P_EXACT_ENDGAME, P_EXCHANGE_SEVEN, P_KIND
from analysis.bezique.rules import R_BRISQUE, R_END_MUST_WIN, R_LAST_TRICK, R_LAST_TRICK_AT, R_SEVEN_POINTS
from analysis.bits import lowest_bit, nth_bit, popcount
from analysis.rng import EMPTY_HALF, below, below32, stream_start


@njit(cache=True, _nrt=False)
def shuffle(deck, stc):
    """BZ-DEAL: 63 half draws of the cards stream, the whole Fisher-Yates shuffle."""
    half = EMPTY_HALF
    for i in range(64):
        deck[i] = i
    for p in range(63):
        stc, half, j = below32(stc, half, 64 - p)
        j += p
        c = deck[j]
        deck[j] = deck[p]
        deck[p] = c


@njit(cache=True, inline="always")
def score(out, seat, slot, pts, base, target, gw):
    """A stock-phase scoring event (BZ-GAME check); returns the game winner so far (-1 none)."""
    if pts <= 0:
        return gw
    out[slot + seat] += pts
    out[O_TOTAL + seat] += pts
    if gw < 0 and base + out[O_TOTAL + seat] >= target:
        return seat
    return gw


@njit(cache=True, inline="always")
def take(S, seat, c):
    """Remove a played card from the player's hand or table."""
    b = bit(c)
    if S[S_HAND + seat] & b:
        S[S_HAND + seat] &= ~b
    else:
        S[S_TABLE + seat] &= ~b
        S[S_KINDS + c] = 0
        for k in range(N_KINDS):
            S[S_USED + k] &= ~b


DealScratch = namedtuple("DealScratch", ("deck", "S", "ms", "fo", "nopt", "order", "out", "tt"))
"""The arrays of one deal; ``tt``: the end-game solver's transposition table (endgame.py), kept
across deals (its entries are exact positions, valid for ever)."""
TT_BITS = 15
"""A deal's arrays (``_scratch``): the deck, the state (``S_*``), the melds listed (kind, cards,
hand cards), the face options and their counts, the melds' order, and the outcome (``O_*``)."""


@njit(cache=True, _nrt=False)
def run_deal(scr, stc, sto, rules, pe, pd, start_e, start_d, target):
    """One deal (docs/bezique-engine.md, "One deal, step by step") in the arrays ``scr``
    (``DealScratch``); fills ``scr.out`` (O_* layout, N_OUT entries). ``pe``, ``pd``: elder's and
    dealer's policy arrays; ``start_e``, ``start_d``: their game totals before the deal and
    ``target`` the game target (NO_TARGET for single deals). Returns the seat that reached the
    target during the stock phase (0 elder, 1 dealer) or -1."""
    deck, S, ms, fo, nopt, order, out, tt = scr
    for i in range(N_OUT):
        out[i] = 0
    for i in range(64):
        out[O_PLAYED + i] = -1
    for i in range(24):
        out[O_MELD_AT + i] = -1
    for i in range(N_STATE):
        S[i] = 0
    shuffle(deck, stc)
    for i in range(8):
        S[S_HAND] |= bit(deck[i])
        S[S_HAND + 1] |= bit(deck[8 + i])
    turnup = deck[16]
    trump = (turnup >> 3) & 3
    out[O_TURN_UP] = turnup
    set_keep_values(S, 0, trump, pe)
    set_keep_values(S, 1, trump, pd)
    sp = rules[R_SEVEN_POINTS]
    last = rules[R_LAST_TRICK]
    last_at = rules[R_LAST_TRICK_AT]
    must = 1 if rules[R_END_MUST_WIN] != 0 else 0
    bq = rules[R_BRISQUE]
    last_end = last if last_at == 32 else 0  # the end game's last-trick points
    sevens = both_copies(1 << (8 * trump))
    gw = -1
    if (turnup & 7) == SEVEN:
        gw = score(out, 1, O_SEVEN, sp, start_d, target, gw)
        if gw >= 0:
            return gw
    leader = 0
    drawn = 0
    nplayed = 0
    for n in range(1, 33):
        stock = n <= 24
        lead_p = pe if leader == 0 else pd
        fol_p = pd if leader == 0 else pe
        follower = 1 - leader
        # The lead.
        if lead_p[P_KIND] == KIND_RANDOM:
            opts = options_of(leader, S)
            sto, j = below(sto, popcount(opts))
            led = nth_bit(opts, j)
        elif not stock and lead_p[P_EXACT_ENDGAME] != 0:
            led = exact_lead(S[S_HAND + leader], S[S_HAND + follower], trump, must, bq, last_end,
                             tt)
        else:
            led = heuristic_lead(leader, S, trump, lead_p, stock)
        take(S, leader, led)
        out[O_PLAYED + nplayed] = led
        nplayed += 1
        S[S_PLAYED] |= bit(led)
        if stock and (sevens & bit(led)) != 0:
            gw = score(out, leader, O_SEVEN, sp, start_e if leader == 0 else start_d, target, gw)
            if gw >= 0:
                out[O_TRICKS_PLAYED] = n - 1
                return gw
        # The follow.
        if fol_p[P_KIND] == KIND_RANDOM:
            opts = options_of(follower, S)
            if not stock:
                opts = end_legal(opts, led, trump, rules[R_END_MUST_WIN] != 0)
            sto, j = below(sto, popcount(opts))
            fol = nth_bit(opts, j)
        elif not stock and fol_p[P_EXACT_ENDGAME] != 0:
            fol = exact_follow(S[S_HAND + leader], S[S_HAND + follower], led, trump, must, bq, last_end,
                               tt)
        else:
            fol = heuristic_follow(follower, S, trump, rules, fol_p, led, stock, drawn, ms, fo, nopt)
        take(S, follower, fol)
        out[O_PLAYED + nplayed] = fol
        nplayed += 1
        S[S_PLAYED] |= bit(fol)
        if stock and (sevens & bit(fol)) != 0:
            gw = score(out, follower, O_SEVEN, sp, start_e if follower == 0 else start_d, target, gw)
        w = follower if follower_wins(led, fol, trump) else leader
        S[S_WON + w] |= bit(led) | bit(fol)
        out[O_TRICKS + w] += 1
        leader = w
        base_w = start_e if w == 0 else start_d
        if stock:
            out[O_ELDER_STOCK] += w == 0
            if n == last_at:
                gw = score(out, w, O_LAST, last, base_w, target, gw)
            if gw >= 0:
                out[O_TRICKS_PLAYED] = n
                return gw
        else:
            if n == last_at and last > 0:
                out[O_LAST + w] += last
                out[O_TOTAL + w] += last
            continue
        pw = pe if w == 0 else pd
        # BZ-SEVEN: the exchange.
        if (turnup & 7) != SEVEN and (S[S_HAND + w] & sevens) != 0:
            if pw[P_KIND] == KIND_RANDOM:
                sto, x = below(sto, 2)
                ex = x == 1
            else:
                ex = pw[P_EXCHANGE_SEVEN] != 0
            if ex:
                seven = 8 * trump if (S[S_HAND + w] >> (8 * trump)) & 1 else 8 * trump + 32
                S[S_HAND + w] = (S[S_HAND + w] & ~bit(seven)) | bit(turnup)
                turnup = seven
                out[O_EXCHANGE] = n
                gw = score(out, w, O_SEVEN, sp, base_w, target, gw)
                if gw >= 0:
                    out[O_TRICKS_PLAYED] = n
                    return gw
        # BZ-MELD.
        chosen = -1
        if pw[P_KIND] == KIND_RANDOM:
            m = legal_melds(w, S, trump, rules, ms, fo, nopt)
            if m > 0:
                sort_melds(ms, m, order)
                sto, k = below(sto, m + 1)
                if k < m:
                    chosen = order[k]
        else:
            chosen = best_meld(w, S, trump, rules, pw, drawn, ms, fo, nopt)
        if chosen >= 0:
            kind = ms[0, chosen]
            cards = ms[1, chosen]
            S[S_HAND + w] &= ~cards
            S[S_TABLE + w] |= cards
            y = cards
            while y != 0:
                c = lowest_bit(y)
                y &= y - 1
                S[S_KINDS + c] |= 1 << kind
            S[S_USED + kind] |= cards
            out[O_MELD_AT + n - 1] = kind
            out[O_MELD_COUNT + 2 * kind + w] += 1
            gw = score(out, w, O_MELD + 2 * kind, meld_value(rules, kind), base_w, target, gw)
            if gw >= 0:
                out[O_TRICKS_PLAYED] = n
                return gw
        # BZ-DRAW.
        wc = deck[17 + drawn]
        drawn += 1
        if drawn < 47:
            lc = deck[17 + drawn]
            drawn += 1
        else:
            lc = turnup
        S[S_HAND + w] |= bit(wc)
        S[S_HAND + 1 - w] |= bit(lc)
        if n == 24:
            for seat in range(2):
                y = S[S_TABLE + seat]
                while y != 0:
                    c = lowest_bit(y)
                    y &= y - 1
                    S[S_KINDS + c] = 0
                S[S_HAND + seat] |= S[S_TABLE + seat]
                S[S_TABLE + seat] = 0
            for k in range(N_KINDS):
                S[S_USED + k] = 0
    out[O_TRICKS_PLAYED] = 32
    for seat in range(2):
        pts = count32(S[S_WON + seat], BRISQUES32) * bq
        out[O_BRISQUE + seat] = pts
        out[O_TOTAL + seat] += pts
    return -1


@njit(cache=True, inline="always")
def play_deal(deck, stc, sto, rules, pe, pd, S, ms, fo, nopt, order, out, tt, start_e, start_d, target):
    """``run_deal`` with the arrays of ``DealScratch`` one by one (paired.py's call)."""
    scr = DealScratch(deck, S, ms, fo, nopt, order, out, tt)
    return run_deal(scr, stc, sto, rules, pe, pd, start_e, start_d, target)


@njit(cache=True)
def _scratch():
    """A fresh ``DealScratch``."""
    deck = np.empty(64, dtype=np.int64)
    S = np.zeros(N_STATE, dtype=np.int64)
    ms = np.zeros((3, MAX_MELDS), dtype=np.int64)
    fo = np.zeros((3, 5, 4), dtype=np.int64)
    nopt = np.zeros(10, dtype=np.int64)  # options per face, then add_kind's odometer
    order = np.zeros(MAX_MELDS, dtype=np.int64)
    out = np.zeros(N_OUT, dtype=np.int64)
    return DealScratch(deck, S, ms, fo, nopt, order, out, new_table(TT_BITS))


@njit(cache=True)
def deal_outcomes(seed, start, n, rules, dealer, elder):
    """Outcome vectors (n, OUTCOME_LENGTH) of single deals start..start+n-1: cards from lane 0,
    choices from lane 1; ``dealer`` and ``elder`` are the policy arrays (reference.play_deal's
    argument order)."""
    res = np.zeros((n, OUTCOME_LENGTH), dtype=np.int64)
    scr = _scratch()
    useed = np.uint64(seed)
    for k in range(n):
        i = np.uint64(start + k)
        stc = stream_start(useed, i, np.uint64(0))
        sto = stream_start(useed, i, np.uint64(1))
        run_deal(scr, stc, sto, rules, elder, dealer, 0, 0, NO_TARGET)
        res[k, :] = scr.out[:OUTCOME_LENGTH]
    return res
