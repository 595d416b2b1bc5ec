"""The trick loop of a Bezique deal in numba, resumable: the shuffle and the deal's setup, then
``play_on``, which plays from the position saved in ``scr.pos`` (trick, phase within the trick,
leader, draws, turn-up, the card led) to the end of the deal, or until a seat in ``stop_mask``
has a stock-phase decision to make (a lead, a follow, or a meld after a won trick; with bits 2 and 3,
also the seven's exchange): it then saves the position and returns ``PAUSE``. A forced decision
(``pos[Q_FORCED]``) is played first on resuming.

``play.deal.run_deal`` plays a whole deal with it (no stops); the search player
(``players/search.py``) stops at its own decisions and plays rollouts from copies of the position.
The procedure is docs/bezique-engine.md, "One deal, step by step".
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from analysis.bezique.engine.cards import BRISQUES32, SEVEN, bit, both_copies, count32, follower_wins
from analysis.bezique.engine.layout import (
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
    S_HAND,
    S_KINDS,
    S_PLAYED,
    S_TABLE,
    S_USED,
    S_WON,
)
from analysis.bezique.engine.melds import MAX_MELDS, legal_melds, meld_value, sort_melds
from analysis.bezique.engine.tricks import end_legal, options_of
from analysis.bezique.players.heuristic import best_meld, heuristic_follow, heuristic_lead, set_keep_values
from analysis.bezique.players.solver import new_table
from analysis.bezique.players.solver_play import exact_follow, exact_lead
from analysis.bezique.policies import KIND_RANDOM, P_EXACT_ENDGAME, P_EXCHANGE_SEVEN, P_KIND
from analysis.bezique.rules import R_BRISQUE, R_END_MUST_WIN, R_LAST_TRICK, R_LAST_TRICK_AT, R_SEVEN_POINTS
from analysis.bits import lowest_bit, nth_bit, popcount
from analysis.rng import EMPTY_HALF, below
from analysis.shuffle import shuffle_first

DealScratch = namedtuple("DealScratch", ("deck", "S", "ms", "fo", "nopt", "order", "out", "tt", "pos"))
"""A deal's arrays (``new_scratch``): the deck, the state (``S_*``), the melds listed (kind, cards,
hand cards), the face options and their counts, the melds' order, the outcome (``O_*``), the
end-game solver's transposition table (players/solver.py; kept across deals, its entries are exact
positions) and the saved position (``Q_*``)."""
TT_BITS = 15

# The saved position (scr.pos).
Q_TRICK, Q_PHASE, Q_LEADER, Q_DRAWN, Q_NPLAYED, Q_TURNUP, Q_GW, Q_LED, Q_FORCED = range(9)
N_POS = 9
PH_LEAD, PH_FOLLOW, PH_EXCHANGE, PH_MELD = 0, 1, 2, 3
"""Phases of a trick: the lead, the follow (the card led in Q_LED), after a won stock trick the
seven's exchange, then the meld and the draws."""
NO_MELD = 1 << 20
"""A forced meld decision that lays none (otherwise the index in ``sort_melds`` order)."""
PAUSE = -2
"""``play_on``'s return when a stopping seat has a decision to make."""


@njit(cache=True, _nrt=False)
def shuffle(deck, stc):
    """BZ-DEAL: 63 half draws of the cards stream, the whole Fisher-Yates shuffle."""
    for i in range(64):
        deck[i] = i
    shuffle_first(deck, 64, 63, stc, EMPTY_HALF)


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


@njit(cache=True)
def new_scratch():
    """A fresh ``DealScratch``."""
    deck = np.empty(64, dtype=np.int64)
    S = np.zeros(N_STATE, dtype=np.int64)
    ms = np.zeros((3, MAX_MELDS), dtype=np.int64)
    fo = np.zeros((3, 5, 4), dtype=np.int64)
    nopt = np.zeros(10, dtype=np.int64)  # options per face, then add_kind's odometer
    order = np.zeros(MAX_MELDS, dtype=np.int64)
    out = np.zeros(N_OUT, dtype=np.int64)
    return DealScratch(deck, S, ms, fo, nopt, order, out, new_table(TT_BITS), np.zeros(N_POS, dtype=np.int64))


@njit(cache=True, _nrt=False)
def setup_deal(scr, stc, rules, pe, pd, start_d, target):
    """The shuffle, the hands, the turn-up (its seven scored for the dealer) and the saved
    position at trick 1; returns the game winner if the turn-up's seven reached the target, else -1."""
    shuffle(scr.deck, stc)
    return setup_from_deck(scr, rules, pe, pd, start_d, target)


@njit(cache=True, _nrt=False)
def setup_from_deck(scr, rules, pe, pd, start_d, target):
    """``setup_deal`` for the deck already in ``scr.deck`` (elder's 8, the dealer's 8, the turn-up,
    the stock in drawing order): a recorded deal replayed (``salon review``)."""
    deck, S, ms, fo, nopt, order, out, tt, pos = scr
    for i in range(N_OUT):
        out[i] = 0
    for i in range(64):
        out[O_PLAYED + i] = -1
    for i in range(24):
        out[O_MELD_AT + i] = -1
    for i in range(N_STATE):
        S[i] = 0
    for i in range(8):
        S[S_HAND] |= bit(deck[i])
        S[S_HAND + 1] |= bit(deck[8 + i])
    turnup = deck[16]
    trump = (turnup >> 3) & 3
    out[O_TURN_UP] = turnup
    set_keep_values(S, np.int64(0), trump, pe)
    set_keep_values(S, np.int64(1), trump, pd)
    for i in range(N_POS):
        pos[i] = 0
    pos[Q_TRICK] = 1
    pos[Q_TURNUP] = turnup
    pos[Q_GW] = -1
    pos[Q_LED] = -1
    pos[Q_FORCED] = -1
    if (turnup & 7) == SEVEN:
        pos[Q_GW] = score(out, 1, O_SEVEN, rules[R_SEVEN_POINTS], start_d, target, -1)
    return pos[Q_GW]


@njit(cache=True, _nrt=False)
def play_on(scr, sto, rules, pe, pd, start_e, start_d, target, stop_mask):
    """Play on from the saved position to the end of the deal (returns ``(sto, -1)``), until the
    game target is reached in the stock phase (``(sto, winner)``), or until a seat in
    ``stop_mask`` (bit 0 elder, bit 1 dealer) must decide a card or a meld (``(sto, PAUSE)``,
    position saved); bits 2 and 3 pause the same way when elder or the dealer may exchange the
    seven (``pos[Q_FORCED]`` then says 1 exchange, 0 not, when play resumes)."""
    deck, S, ms, fo, nopt, order, out, tt, pos = scr
    n = pos[Q_TRICK]
    phase = pos[Q_PHASE]
    leader = pos[Q_LEADER]
    drawn = pos[Q_DRAWN]
    nplayed = pos[Q_NPLAYED]
    turnup = pos[Q_TURNUP]
    gw = pos[Q_GW]
    led = pos[Q_LED]
    forced = pos[Q_FORCED]
    pos[Q_FORCED] = -1
    trump = (out[O_TURN_UP] >> 3) & 3
    sp = rules[R_SEVEN_POINTS]
    last = rules[R_LAST_TRICK]
    last_at = rules[R_LAST_TRICK_AT]
    must = 1 if rules[R_END_MUST_WIN] != 0 else 0
    bq = rules[R_BRISQUE]
    last_end = last if last_at == 32 else 0  # the end game's last-trick points
    sevens = both_copies(1 << (8 * trump))
    while n <= 32:
        stock = n <= 24
        lead_p = pe if leader == 0 else pd
        fol_p = pd if leader == 0 else pe
        follower = 1 - leader
        if phase == PH_LEAD:
            if forced >= 0:
                led = forced
                forced = -1
            elif stock and (stop_mask >> leader) & 1:
                _save(pos, n, phase, leader, drawn, nplayed, turnup, gw, led)
                return sto, PAUSE
            elif lead_p[P_KIND] == KIND_RANDOM:
                opts = options_of(leader, S)
                sto, j = below(sto, popcount(opts))
                led = nth_bit(opts, j)
            elif not stock and lead_p[P_EXACT_ENDGAME] != 0:
                led = exact_lead(S[S_HAND + leader], S[S_HAND + follower], trump, must, bq, last_end, tt)
            else:
                led = heuristic_lead(leader, S, trump, lead_p, stock)
            take(S, leader, led)
            out[O_PLAYED + nplayed] = led
            nplayed += 1
            S[S_PLAYED] |= bit(led)
            phase = PH_FOLLOW
            if stock and (sevens & bit(led)) != 0:
                gw = score(out, leader, O_SEVEN, sp, start_e if leader == 0 else start_d, target, gw)
                if gw >= 0:
                    out[O_TRICKS_PLAYED] = n - 1
                    _save(pos, n, phase, leader, drawn, nplayed, turnup, gw, led)
                    return sto, gw
        if phase == PH_FOLLOW:
            if forced >= 0:
                fol = forced
                forced = -1
            elif stock and (stop_mask >> follower) & 1:
                _save(pos, n, phase, leader, drawn, nplayed, turnup, gw, led)
                return sto, PAUSE
            elif fol_p[P_KIND] == KIND_RANDOM:
                opts = options_of(follower, S)
                if not stock:
                    opts = end_legal(opts, led, trump, must != 0)
                sto, j = below(sto, popcount(opts))
                fol = nth_bit(opts, j)
            elif not stock and fol_p[P_EXACT_ENDGAME] != 0:
                fol = exact_follow(S[S_HAND + leader], S[S_HAND + follower], led, trump, must, bq, last_end, tt)
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
            if stock:
                out[O_ELDER_STOCK] += w == 0
                if n == last_at:
                    gw = score(out, w, O_LAST, last, start_e if w == 0 else start_d, target, gw)
                if gw >= 0:
                    out[O_TRICKS_PLAYED] = n
                    _save(pos, n, PH_EXCHANGE, leader, drawn, nplayed, turnup, gw, led)
                    return sto, gw
                phase = PH_EXCHANGE
            else:
                if n == last_at and last > 0:
                    out[O_LAST + w] += last
                    out[O_TOTAL + w] += last
                n += 1
                phase = PH_LEAD
                continue
        w = leader  # the winner of this stock trick
        pw = pe if w == 0 else pd
        base_w = start_e if w == 0 else start_d
        if phase == PH_EXCHANGE:
            # BZ-SEVEN: the exchange.
            if (turnup & 7) != SEVEN and (S[S_HAND + w] & sevens) != 0:
                if forced >= 0:
                    ex = forced == 1
                    forced = -1
                elif (stop_mask >> (2 + w)) & 1:
                    _save(pos, n, phase, leader, drawn, nplayed, turnup, gw, led)
                    return sto, PAUSE
                elif pw[P_KIND] == KIND_RANDOM:
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
                        _save(pos, n, PH_MELD, leader, drawn, nplayed, turnup, gw, led)
                        return sto, gw
            phase = PH_MELD
        # BZ-MELD.
        chosen = -1
        if forced >= 0:
            if forced != NO_MELD:
                m = legal_melds(w, S, trump, rules, ms, fo, nopt)
                sort_melds(ms, m, order)
                chosen = order[forced]
            forced = -1
        elif (stop_mask >> w) & 1 and legal_melds(w, S, trump, rules, ms, fo, nopt) > 0:
            _save(pos, n, phase, leader, drawn, nplayed, turnup, gw, led)
            return sto, PAUSE
        elif pw[P_KIND] == KIND_RANDOM:
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
                _save(pos, n + 1, PH_LEAD, leader, drawn, nplayed, turnup, gw, led)
                return sto, gw
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
        n += 1
        phase = PH_LEAD
    out[O_TRICKS_PLAYED] = 32
    for seat in range(2):
        pts = count32(S[S_WON + seat], BRISQUES32) * bq
        out[O_BRISQUE + seat] = pts
        out[O_TOTAL + seat] += pts
    _save(pos, 33, PH_LEAD, leader, drawn, nplayed, turnup, gw, led)
    return sto, -1


@njit(cache=True, inline="always")
def _save(pos, n, phase, leader, drawn, nplayed, turnup, gw, led):
    pos[Q_TRICK] = n
    pos[Q_PHASE] = phase
    pos[Q_LEADER] = leader
    pos[Q_DRAWN] = drawn
    pos[Q_NPLAYED] = nplayed
    pos[Q_TURNUP] = turnup
    pos[Q_GW] = gw
    pos[Q_LED] = led
