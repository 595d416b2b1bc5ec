"""Écarté's compare kernel: policies A and B on the same hands, both seats (analysis.compare)."""
from __future__ import annotations

import numpy as np
from numba import njit

from analysis.blocks import chunk_rows, runs
from analysis.compare import N_COMPARE, run_compare
from analysis.compare_kernel import add_compare
from analysis.ecarte.engine.deal import deal
from analysis.ecarte.engine.layout import N_OUT, O_DEALER_POINTS, O_ELDER_POINTS
from analysis.ecarte.play.hand import play_hand
from analysis.rng import EMPTY_HALF, stream_start


@njit(cache=True)
def _net(deck, useed, ui, rules, pe, pd, out):
    """Elder's points minus the dealer's in hand ``ui`` with policies pe (elder) and pd (dealer)."""
    stc = stream_start(useed, ui, np.uint64(0))
    sto = stream_start(useed, ui, np.uint64(1))
    stc, stb, elder, dealer, turnup = deal(deck, stc, EMPTY_HALF)
    play_hand(deck, np.int64(11), (stc, stb, sto), elder, dealer, turnup, rules, pe, pd, out, np.bool_(False))
    return out[O_ELDER_POINTS] - out[O_DEALER_POINTS]


@njit(cache=True, nogil=True)
def compare_chunk(useed, start, count, rules, pa, pb):
    """The compare tally row (analysis.compare layout) of hands start..start+count-1: each hand
    played with A as elder against B as dealer, then with B as elder against A, from the same streams."""
    deck = np.empty(32, dtype=np.int8)
    out = np.zeros(N_OUT, dtype=np.int64)
    row = np.zeros(N_COMPARE, dtype=np.int64)
    for i in range(start, start + count):
        ui = np.uint64(i)
        first = _net(deck, useed, ui, rules, pa, pb, out)
        second = -_net(deck, useed, ui, rules, pb, pa, out)
        add_compare(row, first, second)
    return row


@runs(compare_chunk)
def compare_block(seed, starts, counts, rules, pa, pb):
    """Compare rows (N_COMPARE per chunk) of the hands in each chunk (``run_tallies`` block)."""
    return chunk_rows(compare_chunk, seed, starts, counts, rules, pa, pb)


def compare_tallies(n: int, seed: int, rules, a, b, *, start: int = 0, chunk: int | None = None,
                    threads: int | None = None, quiet: bool = True) -> np.ndarray:
    """The summed compare tallies of hands start..start+n-1 (``chunk``: hands per chunk)."""
    return run_compare(compare_block, n, seed, rules, a, b, start=start, chunk=chunk or 1 << 13, threads=threads,
                       quiet=quiet, desc="hands, both seats")
