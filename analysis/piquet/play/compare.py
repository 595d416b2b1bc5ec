"""Piquet's compare kernel: policies A and B on the same deals, both seats (analysis.compare)."""
from __future__ import annotations

import numpy as np
from numba import njit

from analysis.blocks import chunk_rows, runs
from analysis.compare import N_COMPARE, run_compare
from analysis.compare_kernel import add_compare
from analysis.piquet.engine.layout import N_OUT, O_TOTAL
from analysis.piquet.play.deal import play_deal
from analysis.piquet.players.heuristic import card_values
from analysis.piquet.players.search import play_scratch, uses_solver
from analysis.rng import stream_start


@njit(cache=True, nogil=True)
def compare_chunk(useed, start, count, rules, pa, pb):
    """The compare tally row (analysis.compare layout) of deals start..start+count-1: each deal
    played with A as elder against B, then with B as elder against A, from the same streams."""
    deck = np.empty(32, dtype=np.int8)
    scratch = play_scratch(uses_solver(pa) or uses_solver(pb))
    out = np.zeros(N_OUT, dtype=np.int64)
    row = np.zeros(N_COMPARE, dtype=np.int64)
    va_e, va_y = card_values(pa, np.bool_(False)), card_values(pa, np.bool_(True))
    vb_e, vb_y = card_values(pb, np.bool_(False)), card_values(pb, np.bool_(True))
    for i in range(start, start + count):
        ui = np.uint64(i)
        play_deal(deck, stream_start(useed, ui, np.uint64(0)), stream_start(useed, ui, np.uint64(1)), rules, pa, pb,
                  va_e, vb_y, out, scratch, np.bool_(False))
        first = out[O_TOTAL] - out[O_TOTAL + 1]
        play_deal(deck, stream_start(useed, ui, np.uint64(0)), stream_start(useed, ui, np.uint64(1)), rules, pb, pa,
                  vb_e, va_y, out, scratch, np.bool_(False))
        second = out[O_TOTAL + 1] - out[O_TOTAL]
        add_compare(row, first, second)
    return row


@runs(compare_chunk)
def compare_block(seed, starts, counts, rules, pa, pb):
    """Compare rows (N_COMPARE per chunk) of the deals in each chunk (``run_tallies`` block)."""
    return chunk_rows(compare_chunk, seed, starts, counts, rules, pa, pb)


def compare_tallies(n: int, seed: int, rules, a, b, *, start: int = 0, chunk: int | None = None,
                    threads: int | None = None, quiet: bool = True) -> np.ndarray:
    """The summed compare tallies of deals start..start+n-1 (``chunk``: deals per chunk)."""
    from analysis.piquet.policies import deals_per_chunk

    return run_compare(compare_block, n, seed, rules, a, b, start=start, chunk=chunk or deals_per_chunk(1 << 12, a, b),
                       threads=threads, quiet=quiet, desc="deals, both seats")
