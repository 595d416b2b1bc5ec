"""Proposals, exchanges and kings in the Écarté kernel (EC-PROPOSE, EC-STOCK, EC-DEALER-MIN,
EC-KING): each seat's decision by its policy array (forced, a discard table's, a random player's,
or the heuristic's: ``players/heuristic.py``) and the proposal rounds.
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from analysis.bits import popcount
from analysis.ecarte.engine.deal import draw
from analysis.ecarte.engine.layout import (
    EH_FINAL,
    EH_ROUND0,
    EH_ROUNDS,
    EHR_DHI,
    EHR_DK,
    EHR_DLO,
    EHR_EHI,
    EHR_EK,
    EHR_SIZE,
    FINAL_NONE,
    FINAL_PLAYED,
    FINAL_REFUSED,
)
from analysis.ecarte.players.heuristic import dealer_refuses, elder_proposes, policy_discard, random_discard
from analysis.ecarte.policies import (
    KIND_RANDOM,
    P_ANNOUNCE_KING,
    P_KIND,
)
from analysis.ecarte.rules import R_DEALER_MIN_DISCARD
from analysis.rng import below

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
    search.py uses them). ``hist``: an N_EXCHANGE_HIST array to receive the public history
    (engine/layout.py EH_*), or None."""
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
            hist[EH_ROUND0 + EHR_SIZE * rnd + EHR_EK] = k
            hist[EH_ROUND0 + EHR_SIZE * rnd + EHR_EHI] = hi
            hist[EH_ROUND0 + EHR_SIZE * rnd + EHR_DK] = 0
            hist[EH_ROUND0 + EHR_SIZE * rnd + EHR_DLO] = 0
            hist[EH_ROUND0 + EHR_SIZE * rnd + EHR_DHI] = 0
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
                hist[EH_ROUND0 + EHR_SIZE * rnd + EHR_DK] = k
                hist[EH_ROUND0 + EHR_SIZE * rnd + EHR_DLO] = lo
                hist[EH_ROUND0 + EHR_SIZE * rnd + EHR_DHI] = hi
            dealer &= ~disc
            d_disc |= disc
            for _ in range(k):
                stc, stb, c = draw(deck, p, stc, stb)
                p += 1
                dealer |= 1 << c
            stock_left -= k
        rnd += 1
    if hist is not None:
        hist[EH_ROUNDS] = rnd
        hist[EH_FINAL] = final
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
