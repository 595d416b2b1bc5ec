"""One Écarté hand in numba: ``play_hand`` plays a dealt hand through the exchanges, the kings and
the five tricks and scores it (EC-POINT, EC-PENALTY, EC-KING) into an outcome vector (``O_*``,
``OUTCOME_FIELDS``); ``hand_outcomes`` gives those vectors for the differential test.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from analysis.ecarte.engine.deal import deal
from analysis.ecarte.engine.layout import (
    N_OUT,
    O_ANNOUNCED,
    O_DEALER_DEALT,
    O_DEALER_FINAL,
    O_DEALER_POINTS,
    O_DEALER_TRICK_POINTS,
    O_ELDER_DEALT,
    O_ELDER_FINAL,
    O_ELDER_POINTS,
    O_ELDER_TRICK_POINTS,
    O_ELDER_TRICKS,
    O_ENDING,
    O_PLAYED_WITHOUT_PROPOSING,
    O_PROPOSED_FIRST,
    O_ROUNDS,
    O_STOCK_DRAWN,
    O_TURNUP,
    O_TURNUP_KING,
)
from analysis.ecarte.engine.tricks import trick_points
from analysis.ecarte.play.exchange import announce_kings, exchanges
from analysis.ecarte.play.tricks import play_tricks
from analysis.ecarte.players.learned import opening_of, play_tricks_learned
from analysis.ecarte.policies import KIND_RANDOM, P_KIND, P_LEADS
from analysis.ecarte.rules import (
    R_REFUSAL_PENALISES_DEALER,
    R_REFUSAL_PENALTY_FIRST_ONLY,
)
from analysis.rng import EMPTY_HALF, stream_start


@njit(cache=True, inline="always")
def penalties(ending, pwp, refused_round, rules):
    """EC-PENALTY: (elder penalised, dealer penalised) for the hand's ending (write_result, the solver).

    ``ending`` 1 = the dealer refused (in ``refused_round``); ``pwp`` 1 = elder played without
    proposing."""
    first_ok = (rules[R_REFUSAL_PENALTY_FIRST_ONLY] == 0) | (refused_round == 0)
    refused = ending == 1
    on_dealer = rules[R_REFUSAL_PENALISES_DEALER] != 0
    pen_elder = (pwp == 1) | (refused & (not on_dealer) & first_ok)
    pen_dealer = refused & on_dealer & first_ok
    return np.int64(pen_elder), np.int64(pen_dealer)


@njit(cache=True, inline="always")
def hand_points(turnup, etricks, ending, announced, pwp, refused_round, rules):
    """EC-POINT / EC-PENALTY / EC-KING: (elder's points, the dealer's, elder's trick points, the
    dealer's, 1 if the turn-up is a king) of a finished hand."""
    pen_elder, pen_dealer = penalties(ending, pwp, refused_round, rules)
    ept, dpt = trick_points(etricks, pen_elder, pen_dealer, rules)
    tk = 1 if (turnup & 7) == 7 else 0
    return ept + (announced & 1), dpt + (announced >> 1) + tk, ept, dpt, tk


@njit(cache=True, inline="always")
def write_result(out, turnup, etricks, ending, rnd, announced, drawn, proposed_first, pwp, refused_round, rules):
    """EC-POINT / EC-PENALTY: score the hand and write the outcome fields of ``out``."""
    ep, dp, ept, dpt, tk = hand_points(turnup, etricks, ending, announced, pwp, refused_round, rules)
    out[O_ELDER_POINTS] = ep
    out[O_DEALER_POINTS] = dp
    out[O_ELDER_TRICKS] = etricks
    out[O_ENDING] = ending
    out[O_ROUNDS] = rnd
    out[O_ANNOUNCED] = announced
    out[O_STOCK_DRAWN] = drawn
    out[O_PROPOSED_FIRST] = proposed_first
    out[O_PLAYED_WITHOUT_PROPOSING] = pwp
    out[O_ELDER_TRICK_POINTS] = ept
    out[O_DEALER_TRICK_POINTS] = dpt
    out[O_TURNUP_KING] = tk


@njit(cache=True, _nrt=False)
def policy_tricks(elder, dealer, turnup, discards, announced, opening, sto, rules, pe, pd, out, record):
    """The five tricks as the policies play them: play/tricks.play_tricks, or, when a player
    leads by the learned score, players/learned.play_tricks_learned (``discards``: elder's and the
    dealer's; ``opening``: the first decisions, players/learned.OPENING_*); returns (sto, elder's
    tricks)."""
    if pe[P_LEADS] or pd[P_LEADS]:
        return play_tricks_learned(elder, dealer, turnup, discards, announced, opening, sto, rules, pe, pd, out,
                                   record)
    return play_tricks(elder, dealer, turnup >> 3, sto, rules, pe, pd, out, record)


@njit(cache=True, _nrt=False)
def play_hand(deck, p, streams, elder, dealer, turnup, rules, pe, pd, out, record=True):
    """Play one dealt hand to the end and write its outcome vector (O_*) into ``out``.

    ``deck[p:]`` holds the undealt cards (the stock is fixed lazily from position p); ``streams``:
    (the cards stream, its half-buffer, the choices stream); ``pe``/``pd`` the elder's and dealer's
    policy arrays. Without ``record`` the final hands and the cards of the tricks are not written
    (speed). Compiled without reference counting (see hands_chunk); it allocates nothing.
    """
    stc, stb, sto = streams
    t = turnup >> 3
    out[O_TURNUP] = turnup
    out[O_ELDER_DEALT] = elder
    out[O_DEALER_DEALT] = dealer
    p0 = p
    p, stc, stb, sto, elder, dealer, rnd, ending, pwp, refused_round, proposed_first, e_disc, d_disc = exchanges(
        deck, p, stc, stb, sto, elder, dealer, t, rules, pe, pd)
    if record:
        out[O_ELDER_FINAL] = elder
        out[O_DEALER_FINAL] = dealer
    sto, announced = announce_kings(elder, dealer, t, sto, pe, pd)
    sto, etricks = policy_tricks(elder, dealer, turnup, (e_disc, d_disc), announced, opening_of(pwp, refused_round),
                                 sto, rules, pe, pd, out, record)
    write_result(out, turnup, etricks, ending, rnd, announced, p - p0, proposed_first, pwp, refused_round, rules)


@njit(cache=True, inline="always")
def uses_choices(pe, pd):
    """True when a policy draws from the choices stream (heuristic players never do)."""
    return pe[P_KIND] == KIND_RANDOM or pd[P_KIND] == KIND_RANDOM


@njit(cache=True)
def hand_outcomes(seed, start, n, rules, pe, pd):
    """Outcome vectors of hands start..start+n-1 (for the differential test and records)."""
    res = np.zeros((n, N_OUT), dtype=np.int64)
    deck = np.empty(32, dtype=np.int8)
    useed = np.uint64(seed)
    for k in range(n):
        i = np.uint64(start + k)
        stc = stream_start(useed, i, np.uint64(0))
        sto = stream_start(useed, i, np.uint64(1))
        stc, stb, elder, dealer, turnup = deal(deck, stc, EMPTY_HALF)
        play_hand(deck, np.int64(11), (stc, stb, sto), elder, dealer, turnup, rules, pe, pd, res[k], np.bool_(True))
    return res
