"""One Piquet deal in numba: the shuffle (PQ-DEAL), the exchanges, the declarations with
repique, twelve tricks with pique, the cards (docs/piquet-engine.md, "One deal"); and
``deal_outcomes``, the outcome vectors (``O_*``, ``OUTCOME_FIELDS``) the differential test compares.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from analysis.bits import popcount
from analysis.piquet.engine.cards import ALL, COURTS
from analysis.piquet.engine.declarations import (
    declaration_event,
    point_key,
    sequence_key_and_score,
    set_key_and_score,
)
from analysis.piquet.engine.layout import (
    N_OUT,
    O_CAPOT,
    O_CARDS,
    O_CARTE_BLANCHE,
    O_DEALT,
    O_ELDER_TRICKS,
    O_FINAL,
    O_PIQUE,
    O_PLAYED,
    O_POINT,
    O_REPIQUE,
    O_SEQUENCES,
    O_SETS,
    O_TOOK,
    O_TOTAL,
    O_TRICK_POINTS,
)
from analysis.piquet.players.heuristic import (
    card_values,
    cards_and_capot,
    choose_discard,
    heuristic_follow,
    heuristic_lead,
    random_card,
    trick_events,
)
from analysis.piquet.players.learned_features import exchange_model
from analysis.piquet.players.search import S_DISCARD, play_scratch, strong_tricks, uses_solver
from analysis.piquet.policies import (
    KIND_RANDOM,
    P_KIND,
    P_TRACK_CARDS,
)
from analysis.piquet.rules import (
    R_CARTE_BLANCHE,
    R_LAST_TRICK,
    R_LEAD_POINTS_EVERY_TRICK,
    R_PIQUE,
    R_REPIQUE,
    R_YOUNGER_MIN,
    R_YOUNGER_TAKES_LEFTOVERS,
)
from analysis.rng import EMPTY_HALF, stream_start
from analysis.shuffle import shuffle_first


@njit(cache=True)
def shuffle(deck, stc):
    """PQ-DEAL: the whole Fisher–Yates shuffle of deck (31 half draws); returns (elder, younger)."""
    for i in range(32):
        deck[i] = i
    shuffle_first(deck, 32, 31, stc, EMPTY_HALF)
    elder = 0
    younger = 0
    for p in range(12):
        elder |= 1 << np.int64(deck[p])
        younger |= 1 << np.int64(deck[12 + p])
    return elder, younger


@njit(cache=True, inline="always")
def talon_cards(deck, a, b):
    """Mask of talon indices a..b-1 (talon index t is deck position 24 + t)."""
    m = 0
    for t in range(a, b):
        m |= 1 << np.int64(deck[24 + t])
    return m


@njit(cache=True)
def play_deal(deck, stc, sto, rules, pe, py, ve, vy, out, scratch, record):
    """One whole deal (docs/piquet-engine.md, "One deal"); fills ``out`` (O_* layout).

    ``ve``, ``vy``: ``card_values`` of elder's and younger's policies in their seats. ``record``:
    also write the dealt and final hands and the 24 cards played."""
    elder, younger = shuffle(deck, stc)
    none = np.int64(-1)  # typed: literals would compile play_dealt once more
    play_dealt(deck, elder, younger, sto, rules, (pe, py), (ve, vy), out, scratch, record, (none, none))


@njit(cache=True, _nrt=False)
def play_dealt(deck, elder, younger, sto, rules, policies, values, out, scratch, record, forced):
    """A deal whose cards are already in ``deck`` (positions 0-11 elder's, 12-23 younger's, 24-31
    the talon, top first; ``elder`` and ``younger`` their masks), from carte blanche to the end.
    Per seat, elder's then younger's: ``policies`` (the policy arrays), ``values`` (their
    ``card_values``) and ``forced`` (a discard mask, or -1 for the policy's choice)."""
    pe, py = policies
    ve, vy = values
    e_force, y_force = forced
    if record:
        out[O_DEALT] = elder
        out[O_DEALT + 1] = younger

    # PQ-CB: judged on the dealt hands.
    cb = rules[R_CARTE_BLANCHE]
    e_cb = cb if (elder & COURTS) == 0 else 0
    y_cb = cb if (younger & COURTS) == 0 else 0

    # PQ-EX-E, PQ-EX-Y (the exchange's work space: 64 int32 slots, which it compares faster).
    work = scratch[S_DISCARD:S_DISCARD + 32].view(np.int32)
    model = exchange_model(rules[R_YOUNGER_TAKES_LEFTOVERS], rules[R_LEAD_POINTS_EVERY_TRICK])
    sto, e_disc = choose_discard(elder, 1, 5, pe, ve, False, sto, work, e_force, model)
    k = popcount(e_disc)
    elder = (elder & ~e_disc) | talon_cards(deck, 0, k)
    leftovers = rules[R_YOUNGER_TAKES_LEFTOVERS]
    y_from = k if leftovers else 5
    y_hi = 8 - k if leftovers else 3
    sto, y_disc = choose_discard(younger, rules[R_YOUNGER_MIN], y_hi, py, vy, True, sto, work, y_force, model)
    m = popcount(y_disc)
    younger = (younger & ~y_disc) | talon_cards(deck, y_from, y_from + m)
    if record:
        out[O_FINAL] = elder
        out[O_FINAL + 1] = younger
    out[O_TOOK] = k
    out[O_TOOK + 1] = m

    # Declarations, scored as events in PQ-ORDER (PQ-REPIQUE).
    rep = rules[R_REPIQUE]
    e = 0
    y = 0
    e_rep = 0
    y_rep = 0
    e, g = declaration_event(e, y, e_cb, False, rep)
    e_rep += g
    y, g = declaration_event(y, e, y_cb, e_rep > 0, rep)
    y_rep += g
    ep = point_key(elder)
    yp = point_key(younger)
    e_pt = (ep >> 7) if ep > yp else 0
    y_pt = (yp >> 7) if yp > ep else 0
    e, g = declaration_event(e, y, e_pt, (e_rep + y_rep) > 0, rep)
    e_rep += g
    y, g = declaration_event(y, e, y_pt, (e_rep + y_rep) > 0, rep)
    y_rep += g
    esk, ess = sequence_key_and_score(elder)
    ysk, yss = sequence_key_and_score(younger)
    e_seq = ess if esk > ysk else 0
    y_seq = yss if ysk > esk else 0
    e, g = declaration_event(e, y, e_seq, (e_rep + y_rep) > 0, rep)
    e_rep += g
    y, g = declaration_event(y, e, y_seq, (e_rep + y_rep) > 0, rep)
    y_rep += g
    etk, ets = set_key_and_score(elder)
    ytk, yts = set_key_and_score(younger)
    e_set = ets if etk > ytk else 0
    y_set = yts if ytk > etk else 0
    e, g = declaration_event(e, y, e_set, (e_rep + y_rep) > 0, rep)
    e_rep += g
    y, g = declaration_event(y, e, y_set, (e_rep + y_rep) > 0, rep)
    y_rep += g

    # Card tracking: what each player knows is not in the opponent's hand (PQ-SEE).
    if leftovers:
        e_seen = talon_cards(deck, k + m, 5) if k + m < 5 else 0
        y_seen = talon_cards(deck, k + m, 8)
    else:
        e_seen = talon_cards(deck, k, 5)
        y_seen = talon_cards(deck, 5 + m, 8)
    e_track = pe[P_TRACK_CARDS] != 0 and pe[P_KIND] != KIND_RANDOM
    y_track = py[P_TRACK_CARDS] != 0 and py[P_KIND] != KIND_RANDOM
    e_unknown = ALL & ~(elder | e_disc | e_seen)
    y_unknown = ALL & ~(younger | y_disc | y_seen)

    # PQ-PLAY, PQ-TRICK, PQ-LAST, PQ-PIQUE.
    every_lead = rules[R_LEAD_POINTS_EVERY_TRICK]
    pique_value = rules[R_PIQUE]
    last = rules[R_LAST_TRICK]
    # Pique stays open while elder has no repique; it closes when given or once younger scores.
    # Checking after every event is the same as checking after elder's: only his points raise e.
    pique_open = e_rep == 0
    e_play = e
    y_play = y
    if uses_solver(pe) or uses_solver(py):
        # The dd and search players (players/search): their own loop, so that this one stays as fast.
        sto, e, y, pique_open, e_tricks = strong_tricks(elder, younger, (e_unknown, y_unknown), (e_track, y_track),
                                                        sto, rules, pe, py, scratch, out, record, (e, y, pique_open))
    else:
        e_random = pe[P_KIND] == KIND_RANDOM
        y_random = py[P_KIND] == KIND_RANDOM
        e_tricks = 0
        elder_leads = True
        for t in range(12):
            if not e_track:
                e_unknown = ALL & ~elder
            if not y_track:
                y_unknown = ALL & ~younger
            lh = elder if elder_leads else younger
            fh = younger if elder_leads else elder
            if e_random if elder_leads else y_random:
                sto, led = random_card(lh, sto)
            else:
                led = heuristic_lead(lh, e_unknown if elder_leads else y_unknown)
            suit = 0xFF << (8 * (led >> 3))
            in_suit = fh & suit
            if y_random if elder_leads else e_random:
                sto, fol = random_card(in_suit if in_suit else fh, sto)
            else:
                fol = heuristic_follow(fh, led)
            if record:
                out[O_PLAYED + 2 * t] = led
                out[O_PLAYED + 2 * t + 1] = fol
            played = ~((1 << led) | (1 << fol))
            # A follower who shows out of the suit led tells the leader he holds none of it.
            shown_out = 0 if in_suit else suit
            e_unknown &= played & ~(shown_out if elder_leads else 0)
            y_unknown &= played & ~(0 if elder_leads else shown_out)
            elder &= played
            younger &= played
            follower_wins = ((fol ^ led) < 8) & (fol > led)
            elder_wins = follower_wins != elder_leads
            e, y, pique_open = trick_events(e, y, elder_leads, follower_wins, elder_wins, t, every_lead, last,
                                           pique_value, pique_open)
            e_tricks += elder_wins
            elder_leads = elder_wins
    pique = 0 if pique_open or e_rep else pique_value
    e_tp = e - e_play - pique
    y_tp = y - y_play

    # PQ-CARDS.
    e_cards, y_cards, e_capot, y_capot = cards_and_capot(e_tricks, rules)
    e += e_cards + e_capot
    y += y_cards + y_capot

    out[O_TOTAL] = e
    out[O_TOTAL + 1] = y
    out[O_CARTE_BLANCHE] = e_cb
    out[O_CARTE_BLANCHE + 1] = y_cb
    out[O_POINT] = e_pt
    out[O_POINT + 1] = y_pt
    out[O_SEQUENCES] = e_seq
    out[O_SEQUENCES + 1] = y_seq
    out[O_SETS] = e_set
    out[O_SETS + 1] = y_set
    out[O_REPIQUE] = e_rep
    out[O_REPIQUE + 1] = y_rep
    out[O_PIQUE] = pique
    out[O_TRICK_POINTS] = e_tp
    out[O_TRICK_POINTS + 1] = y_tp
    out[O_ELDER_TRICKS] = e_tricks
    out[O_CARDS] = e_cards
    out[O_CARDS + 1] = y_cards
    out[O_CAPOT] = e_capot
    out[O_CAPOT + 1] = y_capot


@njit(cache=True, nogil=True)  # called from Python: Ctrl-C can end the process meanwhile
def deal_outcomes(seed, start, n, rules, pe, py):
    """Outcome vectors of deals start..start+n-1 (for the differential test and records)."""
    res = np.zeros((n, N_OUT), dtype=np.int64)
    deck = np.empty(32, dtype=np.int8)
    scratch = play_scratch(uses_solver(pe) or uses_solver(py))
    ve = card_values(pe, np.bool_(False))
    vy = card_values(py, np.bool_(True))
    useed = np.uint64(seed)
    for k in range(n):
        i = np.uint64(start + k)
        stc = stream_start(useed, i, np.uint64(0))
        sto = stream_start(useed, i, np.uint64(1))
        play_deal(deck, stc, sto, rules, pe, py, ve, vy, res[k], scratch, np.bool_(True))
    return res
