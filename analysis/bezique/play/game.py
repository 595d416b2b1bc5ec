"""Bezique games to the target (BZ-GAME) in numba: ``play_game``, the outcome vectors
``game_results`` (``GAME_OUTCOME_FIELDS``) and the tallies ``games_block`` (``G_*``,
``GAME_TALLY_FIELDS``). B deals first: A is elder in deals 0, 2, 4, ...
"""
from __future__ import annotations

import numpy as np
from numba import njit

from analysis.bezique.engine.layout import (
    G_DEALS,
    G_DEALS_SQ,
    G_FIRST_DEALER_WINS,
    G_GAMES,
    G_IN_STOCK,
    G_UNDECIDED,
    MAX_GAME_DEALS,
    N_GAME_OUT,
    N_GAME_TALLY,
    O_TOTAL,
)
from analysis.bezique.play.deal import run_deal
from analysis.bezique.players.trick_loop import new_scratch
from analysis.bezique.rules import R_TARGET
from analysis.blocks import chunk_rows, runs
from analysis.rng import stream_start


@njit(cache=True)
def play_game(useed, g, rules, pa, pb, scr, res):
    """Game g in the deal arrays ``scr`` (``DealScratch``); res = [total A, total B, deals, winner
    (0 A, 1 B, -1 undecided), ended in a stock phase] (``GAME_OUTCOME_FIELDS``)."""
    out = scr.out
    ug = np.uint64(g)
    ta = np.int64(0)  # typed: a literal 0 would compile run_deal once more
    tb = np.int64(0)
    target = rules[R_TARGET]
    for d in range(MAX_GAME_DEALS):
        stc = stream_start(useed, ug, np.uint64(2 * d))
        sto = stream_start(useed, ug, np.uint64(2 * d + 1))
        a_elder = d % 2 == 0
        if a_elder:
            gw = run_deal(scr, stc, sto, rules, pa, pb, ta, tb, target)
            ta += out[O_TOTAL]
            tb += out[O_TOTAL + 1]
        else:
            gw = run_deal(scr, stc, sto, rules, pb, pa, tb, ta, target)
            tb += out[O_TOTAL]
            ta += out[O_TOTAL + 1]
        res[0] = ta
        res[1] = tb
        res[2] = d + 1
        if gw >= 0:
            res[3] = gw if a_elder else 1 - gw
            res[4] = 1
            return
        if max(ta, tb) >= target and ta != tb:
            res[3] = 0 if ta > tb else 1
            res[4] = 0
            return
    res[3] = -1
    res[4] = 0


@njit(cache=True)
def game_results(seed, start, n, rules, a, b):
    """Game outcome vectors (n, 5) of games start..start+n-1 (reference.play_game)."""
    res = np.zeros((n, N_GAME_OUT), dtype=np.int64)
    scr = new_scratch()
    for k in range(n):
        play_game(np.uint64(seed), start + k, rules, a, b, scr, res[k])
    return res


@njit(cache=True, nogil=True)
def games_chunk(useed, start, count, rules, a, b):
    """The tally row (N_GAME_TALLY) of games start..start+count-1."""
    scr = new_scratch()
    res = np.zeros(N_GAME_OUT, dtype=np.int64)
    row = np.zeros(N_GAME_TALLY, dtype=np.int64)
    for g in range(start, start + count):
        play_game(useed, g, rules, a, b, scr, res)
        row[G_GAMES] += 1
        row[G_DEALS] += res[2]
        row[G_DEALS_SQ] += res[2] * res[2]
        row[G_FIRST_DEALER_WINS] += res[3] == 1
        row[G_UNDECIDED] += res[3] == -1
        row[G_IN_STOCK] += res[4]
    return row


@runs(games_chunk)
def games_block(seed, starts, counts, rules, a, b):
    """Tallies (N_GAME_TALLY per chunk) of the games in each chunk."""
    return chunk_rows(games_chunk, seed, starts, counts, rules, a, b)
