"""Piquet parties in numba (PQ-PARTIE, PQ-TIE, PQ-RUBICON): ``play_partie``, the outcomes
``partie_results`` (``PARTIE_OUTCOME_FIELDS``) and the tallies ``parties_block`` (``G_*``,
``PARTIE_TALLY_FIELDS``). PQ-FIRST: the first dealer is drawn per partie (the cut, a fair coin
from lane FIRST_DEALER_LANE); the other player is elder in deal 0 and the deal alternates.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from analysis.blocks import chunk_rows, runs
from analysis.piquet.engine.layout import (
    FIRST_DEALER_LANE,
    G_DEALS,
    G_DRAWN,
    G_EXTRA,
    G_FIRST_DEALER_MARGIN,
    G_FIRST_DEALER_MARGIN_SQ,
    G_FIRST_DEALER_WINS,
    G_MARGIN,
    G_MARGIN_SQ,
    G_PARTIES,
    G_RUBICON,
    N_OUT,
    N_PARTIE_OUT,
    N_PARTIE_TALLY,
    O_TOTAL,
)
from analysis.piquet.play.deal import play_deal
from analysis.piquet.players.heuristic import VALUES_SIZE, card_values
from analysis.piquet.players.search import S_PARTIE, play_scratch, uses_solver
from analysis.piquet.rules import (
    R_PARTIE_DEALS,
    R_RUBICON,
    R_RUBICON_BONUS,
    R_TIE_EXTRA_DEALS,
)
from analysis.rng import below, stream_start


@njit(cache=True)
def partie_values(pa, pb):
    """card_values of A as elder, A as younger, B as elder, B as younger (rows 0..3)."""
    v = np.empty((4, VALUES_SIZE), dtype=np.int64)
    v[0] = card_values(pa, np.bool_(False))
    v[1] = card_values(pa, np.bool_(True))
    v[2] = card_values(pb, np.bool_(False))
    v[3] = card_values(pb, np.bool_(True))
    return v


@njit(cache=True)
def play_partie(useed, g, rules, pa, pb, values, deck, out, scratch, res):
    """Play partie g; fills res = [total A, total B, deals, winner (0 A, 1 B, -1 drawn), margin,
    rubiconed, first dealer (0 A, 1 B)]. ``values``: ``partie_values(pa, pb)``."""
    ug = np.uint64(g)
    _, first = below(stream_start(useed, ug, np.uint64(FIRST_DEALER_LANE)), 2)
    a_elder_even = first == 1  # B deals first: A is elder in deals 0, 2, 4, ...
    a = 0
    b = 0
    n = rules[R_PARTIE_DEALS]
    d = 0
    while True:
        while d < n:
            stc = stream_start(useed, ug, np.uint64(2 * d))
            sto = stream_start(useed, ug, np.uint64(2 * d + 1))
            a_elder = (d % 2 == 0) == a_elder_even
            # The deciding deals: the partie's totals before the deal, by seat (players/search).
            scratch[S_PARTIE] = 1 if d >= rules[R_PARTIE_DEALS] - 1 else 0
            scratch[S_PARTIE + 1] = a if a_elder else b
            scratch[S_PARTIE + 2] = b if a_elder else a
            if a_elder:
                play_deal(deck, stc, sto, rules, pa, pb, values[0], values[3], out, scratch, np.bool_(False))
                a += out[O_TOTAL]
                b += out[O_TOTAL + 1]
            else:
                play_deal(deck, stc, sto, rules, pb, pa, values[2], values[1], out, scratch, np.bool_(False))
                b += out[O_TOTAL]
                a += out[O_TOTAL + 1]
            d += 1
        if a != b or n > rules[R_PARTIE_DEALS]:
            break
        n += rules[R_TIE_EXTRA_DEALS]
        if n == d:
            break
    scratch[S_PARTIE] = 0
    res[0] = a
    res[1] = b
    res[2] = d
    res[6] = first
    if a == b:
        res[3] = -1
        res[4] = 0
        res[5] = 0
    else:
        w = max(a, b)
        lo = min(a, b)
        res[3] = 0 if a > b else 1
        rubiconed = lo < rules[R_RUBICON]
        res[4] = (w + lo if rubiconed else w - lo) + rules[R_RUBICON_BONUS]
        res[5] = 1 if rubiconed else 0


@njit(cache=True)
def partie_results(seed, start, n, rules, pa, pb):
    """Partie outcome vectors of parties start..start+n-1 (for the differential test)."""
    res = np.zeros((n, N_PARTIE_OUT), dtype=np.int64)
    deck = np.empty(32, dtype=np.int8)
    scratch = play_scratch(uses_solver(pa) or uses_solver(pb))
    out = np.zeros(N_OUT, dtype=np.int64)
    values = partie_values(pa, pb)
    for k in range(n):
        play_partie(np.uint64(seed), start + k, rules, pa, pb, values, deck, out, scratch, res[k])
    return res


@njit(cache=True, nogil=True)
def parties_chunk(useed, start, count, rules, pa, pb):
    """The tally row (N_PARTIE_TALLY) of parties start..start+count-1."""
    deck = np.empty(32, dtype=np.int8)
    scratch = play_scratch(uses_solver(pa) or uses_solver(pb))
    out = np.zeros(N_OUT, dtype=np.int64)
    res = np.zeros(N_PARTIE_OUT, dtype=np.int64)
    row = np.zeros(N_PARTIE_TALLY, dtype=np.int64)
    deals0 = rules[R_PARTIE_DEALS]
    values = partie_values(pa, pb)
    for g in range(start, start + count):
        play_partie(useed, g, rules, pa, pb, values, deck, out, scratch, res)
        row[G_PARTIES] += 1
        row[G_FIRST_DEALER_WINS] += res[3] == res[6]
        row[G_DRAWN] += res[3] == -1
        row[G_RUBICON] += res[5]
        row[G_MARGIN] += res[4]
        row[G_MARGIN_SQ] += res[4] * res[4]
        fd = res[4] if res[3] == res[6] else -res[4]
        row[G_FIRST_DEALER_MARGIN] += fd
        row[G_FIRST_DEALER_MARGIN_SQ] += fd * fd
        row[G_DEALS] += res[2]
        row[G_EXTRA] += res[2] > deals0
    return row


@runs(parties_chunk)
def parties_block(seed, starts, counts, rules, pa, pb):
    """Tallies (N_PARTIE_TALLY per chunk) of the parties in each chunk."""
    return chunk_rows(parties_chunk, seed, starts, counts, rules, pa, pb)
