"""Bezique's compare kernel: policies A and B on the same deals, both seats (analysis.compare).

``analysis.bezique.play.paired`` measures many quantities for up to 16 options; this is the lean case
of one pair of policies and the net points only."""
from __future__ import annotations

import numpy as np
from numba import njit

from analysis.bezique.engine.cards import NO_TARGET
from analysis.bezique.engine.layout import O_TOTAL
from analysis.bezique.play.deal import run_deal
from analysis.bezique.players.trick_loop import new_scratch
from analysis.blocks import chunk_rows, runs
from analysis.compare import N_COMPARE, run_compare
from analysis.compare_kernel import add_compare
from analysis.rng import stream_start


@njit(cache=True, nogil=True)
def compare_chunk(useed, start, count, rules, pa, pb):
    """The compare tally row (analysis.compare layout) of deals start..start+count-1: each deal
    played with A as elder against B as dealer, then with B as elder against A, from the same streams."""
    scr = new_scratch()
    out = scr.out
    zero, no_target = np.int64(0), np.int64(NO_TARGET)  # typed: literals would compile run_deal again
    row = np.zeros(N_COMPARE, dtype=np.int64)
    for i in range(start, start + count):
        ui = np.uint64(i)
        run_deal(scr, stream_start(useed, ui, np.uint64(0)), stream_start(useed, ui, np.uint64(1)), rules, pa, pb,
                 zero, zero, no_target)
        first = out[O_TOTAL] - out[O_TOTAL + 1]
        run_deal(scr, stream_start(useed, ui, np.uint64(0)), stream_start(useed, ui, np.uint64(1)), rules, pb, pa,
                 zero, zero, no_target)
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
    return run_compare(compare_block, n, seed, rules, a, b, start=start, chunk=chunk or 1 << 9, threads=threads,
                       quiet=quiet, desc="deals, both seats")
