#!/usr/bin/env python3
"""Dask overhead on one machine: a Piquet simulation with the local backend (2 threads) against a
local Dask cluster on loopback (2 workers x 1 thread), the same deals, alternating, medians.
Usage: .venv/bin/python scripts/bench_dask.py [--deals N] [--repeats R]
"""
from __future__ import annotations

import argparse
import os
import statistics
import time


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=40_000_000)
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args()
    os.environ["SALON_RESULTS"] = "off"
    from analysis import runner
    from analysis.dask_backend import DaskBackend
    from analysis.piquet.play.tallies import deals_block
    from analysis.piquet.policies import HeuristicPolicy
    from analysis.piquet.rules import get_rules

    args = (get_rules().to_array(), HeuristicPolicy().to_array(), HeuristicPolicy().to_array())
    runner.run_tallies(deals_block, args, 100_000, 1)
    backend = DaskBackend(workers=2)
    rates = {"local": [], "dask": []}
    try:
        runner.use_backend(backend)
        runner.run_tallies(deals_block, args, 4_000_000, 1)  # the workers load the kernel
        for _ in range(a.repeats):
            for name, b in (("local", None), ("dask", backend)):
                runner.use_backend(b)
                t = time.perf_counter()
                tallies = runner.run_tallies(deals_block, args, a.deals, 5, threads=2)
                rates[name].append(a.deals / (time.perf_counter() - t))
                if name == "local":
                    want = tallies
                elif not (tallies == want).all():
                    raise SystemExit("the Dask tallies differ from the local ones")
    finally:
        runner.use_backend(None)
        backend.close()
    local, dask = statistics.median(rates["local"]), statistics.median(rates["dask"])
    print(f"local, 2 threads:            {local:,.0f} deals/s (median of {a.repeats})")
    print(f"Dask, 2 workers x 1 thread:  {dask:,.0f} deals/s; identical tallies")
    print(f"Dask overhead: {1 - dask / local:.1%} (batches of {runner.BATCH_DEALS:,} deals)")


if __name__ == "__main__":
    main()
