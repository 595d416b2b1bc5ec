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
def exchange_cards(deck, p, stc, stb, sto, hand, lo, hi, pol, t, rnd):
    """One player's exchange (either seat): his discard of lo..hi cards (random, or his policy's),
    thrown, and as many cards drawn from deck[p:]; returns (p, stc, stb, sto, hand, discard)."""
    if pol[P_KIND] == KIND_RANDOM:
        sto, disc = random_discard(hand, lo, hi, sto)
    else:
        disc = policy_discard(pol, hand, t, lo, hi, rnd)
    hand &= ~disc
    for _ in range(popcount(disc)):
        stc, stb, c = draw(deck, p, stc, stb)
        p += 1
        hand |= 1 << c
    return p, stc, stb, sto, hand, disc


@njit(cache=True, _nrt=False)
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
        p, stc, stb, sto, elder, disc = exchange_cards(deck, p, stc, stb, sto, elder, np.int64(1), hi, pe, t, rnd)
        k = popcount(disc)
        if hist is not None:
            hist[EH_ROUND0 + EHR_SIZE * rnd + EHR_EK] = k
            hist[EH_ROUND0 + EHR_SIZE * rnd + EHR_EHI] = hi
            hist[EH_ROUND0 + EHR_SIZE * rnd + EHR_DK] = 0
            hist[EH_ROUND0 + EHR_SIZE * rnd + EHR_DLO] = 0
            hist[EH_ROUND0 + EHR_SIZE * rnd + EHR_DHI] = 0
        e_disc |= disc
        stock_left -= k
        hi = min(5, stock_left)
        if hi > 0:
            lo = min(rules[R_DEALER_MIN_DISCARD], stock_left)
            p, stc, stb, sto, dealer, disc = exchange_cards(deck, p, stc, stb, sto, dealer, lo, hi, pd, t, rnd)
            k = popcount(disc)
            if hist is not None:
                hist[EH_ROUND0 + EHR_SIZE * rnd + EHR_DK] = k
                hist[EH_ROUND0 + EHR_SIZE * rnd + EHR_DLO] = lo
                hist[EH_ROUND0 + EHR_SIZE * rnd + EHR_DHI] = hi
            d_disc |= disc
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
    sto, e = announces(elder, king, sto, pe)
    sto, d = announces(dealer, king, sto, pd)
    return sto, (1 if e else 0) | (2 if d else 0)


@njit(cache=True, inline="always")
def announces(hand, king, sto, pol):
    """Whether a player (either seat) holding ``hand`` announces the trump king: a coin of the
    choices stream for a random player, else his policy's; returns (sto, announced)."""
    if not (hand >> king) & 1:
        return sto, False
    if pol[P_KIND] == KIND_RANDOM:
        sto, r = below(sto, 2)
        return sto, r == 1
    return sto, pol[P_ANNOUNCE_KING] != 0
