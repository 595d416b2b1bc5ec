"""``salon bench``: the kernels' rates against their reference implementations, measured in the
same run, with the result store off (a benchmark plays every deal it reports). The game's own
figures are in ``analysis/<game>/bench.py``; this module holds what they share."""
from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable
from contextlib import contextmanager

import numpy as np


def median_rate(fn, n: int, repeats: int) -> float:
    """The median of ``repeats`` rates n / (seconds of one call of fn)."""
    rates = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        rates.append(n / (time.perf_counter() - t0))
    return statistics.median(rates)


def kernel_rates(game: str, block: Callable, args: tuple, reference: Callable, deals: int, reference_deals: int,
                 repeats: int, chunk: int) -> list[dict]:
    """Median deals/s of ``block`` at 1 and 2 threads and of ``reference`` (one call per deal)."""
    import numba

    from analysis.blocks import set_threads
    from analysis.runner import chunk_bounds

    starts, counts = chunk_bounds(0, deals, chunk)
    block(1, starts[:2], np.minimum(counts[:2], 64), *args)  # compile (or load from cache)

    def run_reference():
        for i in range(reference_deals):
            reference(i)

    ref_rate = median_rate(run_reference, reference_deals, repeats)
    results = []
    for threads in (1, 2):
        if threads > numba.config.NUMBA_NUM_THREADS:
            continue
        set_threads(threads)
        rate = median_rate(lambda: block(1, starts, counts, *args), deals, repeats)
        results.append({
            "game": game, "threads": threads, "deals_per_s": rate, "reference_deals_per_s": ref_rate,
            "speedup_vs_reference": rate / threads / ref_rate,
        })
    set_threads(None)
    return results


def ratios_text(base: list[dict], other: list[dict]) -> str:
    """"0.52 at 1 thread(s), 0.55 at 2 thread(s)": other's rate over base's, thread count by thread count."""
    return ", ".join(f"{o['deals_per_s'] / b['deals_per_s']:.2f} at {b['threads']} thread(s)"
                     for b, o in zip(base, other, strict=True))


@contextmanager
def store_off():
    """The result store off (``SALON_RESULTS=off``) inside the block, as it was after it."""
    before = os.environ.get("SALON_RESULTS")
    os.environ["SALON_RESULTS"] = "off"
    try:
        yield
    finally:
        if before is None:
            del os.environ["SALON_RESULTS"]
        else:
            os.environ["SALON_RESULTS"] = before


def run(game, deals: int | None, reference_deals: int | None, repeats: int, full: bool) -> dict:
    """``game``'s benchmark (an ``analysis.game.Game``), the store off: a figure is never read back."""
    with store_off():
        res = game.bench(deals, reference_deals, repeats, full)
    res["full"] = full
    res["result_store"] = "off"
    return res


def bench_text(game, res: dict) -> str:
    """``salon bench`` as text: the kernel's rates at 1 and 2 threads beside the reference's, then
    the game's own lines."""
    lines = [f"{r['game']}: {r['threads']} thread(s) {r['deals_per_s']:,.0f} deals/s · reference "
             f"{r['reference_deals_per_s']:,.0f} deals/s · speedup per thread {r['speedup_vs_reference']:,.0f}×"
             for r in res["results"]]
    more = game.bench_text(res)
    if not res["full"]:
        more += ("\n" if more else "") + "(the players' and solvers' figures: salon bench " + game.name + " --full)"
    return "\n".join(lines + ([more] if more else []))
