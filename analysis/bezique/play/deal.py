"""One Bezique deal in numba: the shuffle, the 24 stock tricks with announced sevens, the seven
exchange, melds and draws, the 8 end-phase tricks and the brisques (docs/bezique-engine.md, "One
deal, step by step"); and ``deal_outcomes``, the outcome vectors the differential test compares.

The state of a deal lives in one small int64 array (``S_*`` slots of ``layout``): both hands, both
tables, the cards played, the cards won and, per table card, the mask of meld kinds it has been
used in. ``run_deal`` writes the deal's outcome into ``scr.out`` (``O_*``, ``OUT_FIELDS``).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from analysis.bezique.engine.cards import NO_TARGET
from analysis.bezique.engine.layout import OUTCOME_LENGTH
from analysis.bezique.players.search import search_deal, search_mask
from analysis.bezique.players.trick_loop import (
    new_scratch,
    play_on,
    setup_deal,
)
from analysis.rng import stream_start


@njit(cache=True)
def run_deal(scr, stc, sto, rules, pe, pd, start_e, start_d, target):
    """One deal (docs/bezique-engine.md, "One deal, step by step") in the arrays ``scr``
    (``DealScratch``); fills ``scr.out`` (O_* layout, N_OUT entries). ``pe``, ``pd``: elder's and
    dealer's policy arrays; ``start_e``, ``start_d``: their game totals before the deal and
    ``target`` the game target (NO_TARGET for single deals). Returns the seat that reached the
    target during the stock phase (0 elder, 1 dealer) or -1. A search player (players/search.py)
    in either seat plays the deal through ``search_deal``."""
    mask = search_mask(pe, pd)
    if mask != 0:
        return search_deal(scr, stc, sto, rules, pe, pd, start_e, start_d, target, mask)
    gw = setup_deal(scr, stc, rules, pe, pd, start_d, target)
    if gw >= 0:
        return gw
    sto, gw = play_on(scr, sto, rules, pe, pd, start_e, start_d, target, np.int64(0))
    return gw


@njit(cache=True, nogil=True)  # called from Python: Ctrl-C can end the process meanwhile
def deal_outcomes(seed, start, n, rules, elder, dealer):
    """Outcome vectors (n, OUTCOME_LENGTH) of single deals start..start+n-1: cards from lane 0,
    choices from lane 1; ``elder`` and ``dealer`` are the policy arrays (reference.play_deal's
    argument order)."""
    res = np.zeros((n, OUTCOME_LENGTH), dtype=np.int64)
    scr = new_scratch()
    useed = np.uint64(seed)
    zero, no_target = np.int64(0), np.int64(NO_TARGET)  # typed: literals would compile run_deal again
    for k in range(n):
        i = np.uint64(start + k)
        stc = stream_start(useed, i, np.uint64(0))
        sto = stream_start(useed, i, np.uint64(1))
        run_deal(scr, stc, sto, rules, elder, dealer, zero, zero, no_target)
        res[k, :] = scr.out[:OUTCOME_LENGTH]
    return res
