"""Paired comparisons in the Piquet kernel: elder's net score under two policies on the same deals
against the same younger (``N_PAIRED``, ``PAIRED_FIELDS``).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from analysis.blocks import chunk_rows, runs
from analysis.piquet.engine.layout import (
    N_OUT,
    N_PAIRED,
    O_TOTAL,
)
from analysis.piquet.play.deal import play_deal
from analysis.piquet.players.heuristic import card_values
from analysis.piquet.players.search import play_scratch, uses_solver
from analysis.rng import stream_start


@njit(cache=True, nogil=True)
def paired_chunk(useed, start, count, rules, pa, pb, py):
    """[deals, Σd, Σd²] of d = elder's net score (elder minus younger) with policy pa minus with
    pb, deals start..start+count-1 (cards and choices streams as in ``deals_chunk``)."""
    deck = np.empty(32, dtype=np.int8)
    scratch = play_scratch(uses_solver(pa) or uses_solver(pb) or uses_solver(py))
    out = np.zeros(N_OUT, dtype=np.int64)
    row = np.zeros(N_PAIRED, dtype=np.int64)
    va = card_values(pa, np.bool_(False))
    vb = card_values(pb, np.bool_(False))
    vy = card_values(py, np.bool_(True))
    for i in range(start, start + count):
        ui = np.uint64(i)
        play_deal(deck, stream_start(useed, ui, np.uint64(0)), stream_start(useed, ui, np.uint64(1)), rules, pa, py,
                  va, vy, out, scratch, np.bool_(False))
        d = out[O_TOTAL] - out[O_TOTAL + 1]
        play_deal(deck, stream_start(useed, ui, np.uint64(0)), stream_start(useed, ui, np.uint64(1)), rules, pb, py,
                  vb, vy, out, scratch, np.bool_(False))
        d -= out[O_TOTAL] - out[O_TOTAL + 1]
        row[0] += 1
        row[1] += d
        row[2] += d * d
    return row


@runs(paired_chunk)
def paired_block(seed, starts, counts, rules, pa, pb, py):
    """Paired rows (N_PAIRED per chunk) of the deals in each chunk (``run_tallies`` block)."""
    return chunk_rows(paired_chunk, seed, starts, counts, rules, pa, pb, py)
