"""Écarté games to the target (EC-GAME) in numba: ``play_game``, the tallies ``games_block``
(``G_*``, ``GAME_TALLY_FIELDS``) and the outcomes ``game_results`` (``GAME_OUTCOME_FIELDS``).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from analysis.blocks import chunk_rows, runs
from analysis.ecarte.engine.deal import deal
from analysis.ecarte.engine.layout import (
    G_FIRST_DEALER_WINS,
    G_GAMES,
    G_HANDS,
    G_HANDS_SQ,
    G_WINNER_MARGIN,
    N_GAME_TALLY,
    N_OUT,
    O_ANNOUNCED,
    O_DEALER_TRICK_POINTS,
    O_ELDER_TRICK_POINTS,
    O_TURNUP_KING,
)
from analysis.ecarte.play.hand import play_hand
from analysis.ecarte.rules import R_TARGET
from analysis.rng import EMPTY_HALF, stream_start


@njit(cache=True)
def play_game(seed, g, rules, pa, pb, deck, out):
    """EC-GAME: play game g to the target; returns (A's score, B's score, hands played)."""
    target = rules[R_TARGET]
    score = np.zeros(2, dtype=np.int64)  # 0 = A (elder in hand 0), 1 = B (first dealer)
    useed = np.uint64(seed)
    ug = np.uint64(g)
    h = 0
    while True:
        elder_is_a = h % 2 == 0
        e_idx = 0 if elder_is_a else 1
        d_idx = 1 - e_idx
        stc = stream_start(useed, ug, np.uint64(2 * h))
        sto = stream_start(useed, ug, np.uint64(2 * h + 1))
        stc, stb, elder, dealer, turnup = deal(deck, stc, EMPTY_HALF)
        if elder_is_a:
            play_hand(deck, np.int64(11), (stc, stb, sto), elder, dealer, turnup, rules, pa, pb, out, np.bool_(False))
        else:
            play_hand(deck, np.int64(11), (stc, stb, sto), elder, dealer, turnup, rules, pb, pa, out, np.bool_(False))
        h += 1
        # Points in the order they are scored; the game ends the moment one reaches the target.
        score[d_idx] += out[O_TURNUP_KING]
        if score[d_idx] >= target:
            break
        score[e_idx] += out[O_ANNOUNCED] & 1
        if score[e_idx] >= target:
            break
        score[d_idx] += out[O_ANNOUNCED] >> 1
        if score[d_idx] >= target:
            break
        score[e_idx] += out[O_ELDER_TRICK_POINTS]
        score[d_idx] += out[O_DEALER_TRICK_POINTS]
        if score[0] >= target or score[1] >= target:
            break
    return score[0], score[1], h


@njit(cache=True, nogil=True)
def games_chunk(useed, start, count, rules, pa, pb):
    """The tally row (N_GAME_TALLY) of games start..start+count-1."""
    seed = np.int64(useed)  # play_game takes the seed as game_results passes it
    deck = np.empty(32, dtype=np.int8)
    out = np.empty(N_OUT, dtype=np.int64)
    row = np.zeros(N_GAME_TALLY, dtype=np.int64)
    for g in range(start, start + count):
        a, b, h = play_game(seed, g, rules, pa, pb, deck, out)
        row[G_GAMES] += 1
        row[G_FIRST_DEALER_WINS] += 1 if b > a else 0
        row[G_HANDS] += h
        row[G_HANDS_SQ] += h * h
        row[G_WINNER_MARGIN] += abs(a - b)
    return row


@runs(games_chunk)
def games_block(seed, starts, counts, rules, pa, pb):
    """Tallies (N_GAME_TALLY per chunk) of the games in each chunk."""
    return chunk_rows(games_chunk, seed, starts, counts, rules, pa, pb)


@njit(cache=True)
def game_results(seed, start, n, rules, pa, pb):
    """Per game: A's score, B's score, hands played (for the differential test)."""
    res = np.zeros((n, 3), dtype=np.int64)
    deck = np.empty(32, dtype=np.int8)
    out = np.empty(N_OUT, dtype=np.int64)
    for k in range(n):
        a, b, h = play_game(seed, start + k, rules, pa, pb, deck, out)
        res[k, 0] = a
        res[k, 1] = b
        res[k, 2] = h
    return res
