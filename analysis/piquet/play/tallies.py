"""Tallies of single Piquet deals: ``tally_deal`` adds a deal's outcome to a tally row (``T_*``,
``TALLY_FIELDS`` in ``layout``); ``deals_chunk`` and ``deals_block`` play chunks of deals, in
parallel, for ``analysis.runner``.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from analysis.blocks import chunk_rows, runs
from analysis.piquet.engine.layout import (
    N_BINS,
    N_OUT,
    N_TALLY,
    O_CARTE_BLANCHE,
    O_ELDER_TRICKS,
    O_PIQUE,
    O_POINT,
    O_REPIQUE,
    O_SEQUENCES,
    O_SETS,
    O_TOOK,
    O_TOTAL,
    T_BINS,
    T_CAPOT_ELDER,
    T_CAPOT_YOUNGER,
    T_CARDS_DIVIDED,
    T_CARDS_ELDER,
    T_CARDS_YOUNGER,
    T_CB_ELDER,
    T_CB_YOUNGER,
    T_DEALS,
    T_DECL_NET,
    T_DECL_NET_SQ,
    T_ELDER_DECL,
    T_ELDER_PLAY,
    T_ELDER_SCORE,
    T_ELDER_SCORE_SQ,
    T_ELDER_TOOK,
    T_ELDER_TRICKS,
    T_NET,
    T_NET_BY_CARDS,
    T_NET_SQ,
    T_NET_SQ_BY_CARDS,
    T_PIQUE,
    T_PLAY_NET,
    T_PLAY_NET_BY_CARDS,
    T_PLAY_NET_SQ,
    T_PLAY_NET_SQ_BY_CARDS,
    T_POINT_ELDER,
    T_POINT_YOUNGER,
    T_REPIQUE_ELDER,
    T_REPIQUE_YOUNGER,
    T_SEQ_ELDER,
    T_SEQ_YOUNGER,
    T_SET_ELDER,
    T_SET_YOUNGER,
    T_YOUNGER_DECL,
    T_YOUNGER_PLAY,
    T_YOUNGER_SCORE,
    T_YOUNGER_SCORE_SQ,
    T_YOUNGER_TOOK,
)
from analysis.piquet.play.deal import play_deal
from analysis.piquet.players.heuristic import card_values
from analysis.piquet.players.search import play_scratch, uses_solver
from analysis.rng import stream_start


@njit(cache=True, inline="always")
def tally_deal(row, out):
    """Add one deal's outcome to a tally row (T_* layout)."""
    e = out[O_TOTAL]
    y = out[O_TOTAL + 1]
    row[T_DEALS] += 1
    row[T_CB_ELDER] += out[O_CARTE_BLANCHE] > 0
    row[T_CB_YOUNGER] += out[O_CARTE_BLANCHE + 1] > 0
    row[T_ELDER_SCORE] += e
    row[T_ELDER_SCORE_SQ] += e * e
    row[T_YOUNGER_SCORE] += y
    row[T_YOUNGER_SCORE_SQ] += y * y
    row[T_NET] += e - y
    row[T_NET_SQ] += (e - y) * (e - y)
    row[T_REPIQUE_ELDER] += out[O_REPIQUE] > 0
    row[T_REPIQUE_YOUNGER] += out[O_REPIQUE + 1] > 0
    row[T_PIQUE] += out[O_PIQUE] > 0
    et = out[O_ELDER_TRICKS]
    row[T_CAPOT_ELDER] += et == 12
    row[T_CAPOT_YOUNGER] += et == 0
    row[T_CARDS_ELDER] += et >= 7
    row[T_CARDS_YOUNGER] += et <= 5
    row[T_CARDS_DIVIDED] += et == 6
    ed = (out[O_CARTE_BLANCHE] + out[O_POINT] + out[O_SEQUENCES] + out[O_SETS] + out[O_REPIQUE])
    yd = (out[O_CARTE_BLANCHE + 1] + out[O_POINT + 1] + out[O_SEQUENCES + 1] + out[O_SETS + 1]
          + out[O_REPIQUE + 1])
    row[T_ELDER_DECL] += ed
    row[T_YOUNGER_DECL] += yd
    row[T_ELDER_PLAY] += e - ed
    row[T_YOUNGER_PLAY] += y - yd
    row[T_DECL_NET] += ed - yd
    row[T_DECL_NET_SQ] += (ed - yd) * (ed - yd)
    pn = (e - ed) - (y - yd)
    row[T_PLAY_NET] += pn
    row[T_PLAY_NET_SQ] += pn * pn
    cat = 0 if et >= 7 else (1 if et <= 5 else 2)
    row[T_NET_BY_CARDS + cat] += e - y
    row[T_NET_SQ_BY_CARDS + cat] += (e - y) * (e - y)
    row[T_PLAY_NET_BY_CARDS + cat] += pn
    row[T_PLAY_NET_SQ_BY_CARDS + cat] += pn * pn
    row[T_ELDER_TOOK] += out[O_TOOK]
    row[T_YOUNGER_TOOK] += out[O_TOOK + 1]
    row[T_ELDER_TRICKS] += et
    row[T_POINT_ELDER] += out[O_POINT] > 0
    row[T_POINT_YOUNGER] += out[O_POINT + 1] > 0
    row[T_SEQ_ELDER] += out[O_SEQUENCES] > 0
    row[T_SEQ_YOUNGER] += out[O_SEQUENCES + 1] > 0
    row[T_SET_ELDER] += out[O_SETS] > 0
    row[T_SET_YOUNGER] += out[O_SETS + 1] > 0
    row[T_BINS + min(e // 10, N_BINS - 1)] += 1
    row[T_BINS + N_BINS + min(y // 10, N_BINS - 1)] += 1


@njit(cache=True, nogil=True)
def deals_chunk(useed, start, count, rules, pe, py):
    """The tally row of deals start..start+count-1."""
    deck = np.empty(32, dtype=np.int8)
    scratch = play_scratch(uses_solver(pe) or uses_solver(py))
    out = np.zeros(N_OUT, dtype=np.int64)
    row = np.zeros(N_TALLY, dtype=np.int64)
    ve = card_values(pe, np.bool_(False))
    vy = card_values(py, np.bool_(True))
    for i in range(start, start + count):
        ui = np.uint64(i)
        stc = stream_start(useed, ui, np.uint64(0))
        sto = stream_start(useed, ui, np.uint64(1))
        play_deal(deck, stc, sto, rules, pe, py, ve, vy, out, scratch, np.bool_(False))
        tally_deal(row, out)
    return row


@runs(deals_chunk)
def deals_block(seed, starts, counts, rules, pe, py):
    """Tally rows (N_TALLY per chunk) of the deals in each chunk [starts[c], starts[c] + counts[c])."""
    return chunk_rows(deals_chunk, seed, starts, counts, rules, pe, py)
