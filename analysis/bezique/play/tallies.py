"""Tallies of single Bezique deals: ``tally_deal`` adds a deal's outcome to a tally row (``T_*``,
``TALLY_FIELDS`` in ``layout``); ``deals_chunk`` and ``deals_block`` play chunks of deals, in
parallel, for ``analysis.runner``.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from analysis.bezique.engine.cards import NO_TARGET, SEVEN
from analysis.bezique.engine.layout import (
    N_KINDS,
    N_TALLY,
    O_BRISQUE,
    O_ELDER_STOCK,
    O_EXCHANGE,
    O_LAST,
    O_MELD,
    O_MELD_COUNT,
    O_SEVEN,
    O_TOTAL,
    O_TRICKS,
    O_TURN_UP,
    T_BRISQUE,
    T_BRISQUE_SQ,
    T_DEALER,
    T_DEALER_SQ,
    T_DEALS,
    T_ELDER,
    T_ELDER_SQ,
    T_ELDER_STOCK_TRICKS,
    T_ELDER_TRICKS,
    T_EXCHANGES,
    T_LAST,
    T_LAST_SQ,
    T_MELD_COUNT,
    T_MELD_DEALS,
    T_MELD_POINTS,
    T_NET,
    T_NET_SQ,
    T_SEVEN,
    T_SEVEN_SQ,
    T_TURN_UP_SEVEN,
)
from analysis.bezique.play.deal import run_deal
from analysis.bezique.players.trick_loop import new_scratch
from analysis.blocks import chunk_rows, runs
from analysis.rng import stream_start


@njit(cache=True, inline="always")
def tally_deal(row, out):
    """Add one deal's outcome to a tally row (T_* layout)."""
    e = out[O_TOTAL]
    d = out[O_TOTAL + 1]
    row[T_DEALS] += 1
    row[T_ELDER] += e
    row[T_ELDER_SQ] += e * e
    row[T_DEALER] += d
    row[T_DEALER_SQ] += d * d
    row[T_NET] += e - d
    row[T_NET_SQ] += (e - d) * (e - d)
    for s in range(2):
        row[T_BRISQUE + s] += out[O_BRISQUE + s]
        row[T_LAST + s] += out[O_LAST + s]
        row[T_SEVEN + s] += out[O_SEVEN + s]
    row[T_TURN_UP_SEVEN] += (out[O_TURN_UP] & 7) == SEVEN
    row[T_EXCHANGES] += out[O_EXCHANGE] > 0
    row[T_ELDER_TRICKS] += out[O_TRICKS]
    row[T_ELDER_STOCK_TRICKS] += out[O_ELDER_STOCK]
    for i in range(2 * N_KINDS):
        row[T_MELD_COUNT + i] += out[O_MELD_COUNT + i]
        row[T_MELD_POINTS + i] += out[O_MELD + i]
    b = out[O_BRISQUE] + out[O_BRISQUE + 1]
    last = out[O_LAST] + out[O_LAST + 1]
    seven = out[O_SEVEN] + out[O_SEVEN + 1]
    row[T_BRISQUE_SQ] += b * b
    row[T_LAST_SQ] += last * last
    row[T_SEVEN_SQ] += seven * seven
    for k in range(N_KINDS):
        row[T_MELD_DEALS + k] += (out[O_MELD_COUNT + 2 * k] + out[O_MELD_COUNT + 2 * k + 1]) > 0


@njit(cache=True, nogil=True)
def deals_chunk(useed, start, count, rules, elder, dealer):
    """The tally row of deals start..start+count-1."""
    scr = new_scratch()
    row = np.zeros(N_TALLY, dtype=np.int64)
    zero, no_target = np.int64(0), np.int64(NO_TARGET)  # typed: literals would compile run_deal again
    for i in range(start, start + count):
        ui = np.uint64(i)
        stc = stream_start(useed, ui, np.uint64(0))
        sto = stream_start(useed, ui, np.uint64(1))
        run_deal(scr, stc, sto, rules, elder, dealer, zero, zero, no_target)
        tally_deal(row, scr.out)
    return row


@runs(deals_chunk)
def deals_block(seed, starts, counts, rules, elder, dealer):
    """Tally rows (N_TALLY per chunk) of the deals in each chunk [starts[c], starts[c] + counts[c])."""
    return chunk_rows(deals_chunk, seed, starts, counts, rules, elder, dealer)
