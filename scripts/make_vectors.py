#!/usr/bin/env python3
"""Write the golden vectors of the differential tests (tests/vectors/GAME.json).

For every case the differential tests check (tests/reference_pool.py: game, variant and switches,
policy pairing, seed, deal count), the plain-Python reference plays every deal (or game) and the
sha256 of its int64 outcome rows is recorded per block of 1,000, with a hash of the reference's
sources and of each case's inputs. Run it after a change to a game's reference, rules or policies
(the tests then fail with "golden vectors stale: run scripts/make_vectors.py").

    .venv/bin/python scripts/make_vectors.py                  # every game, one process per core
    .venv/bin/python scripts/make_vectors.py bezique -j 2     # one game, two processes
    .venv/bin/python scripts/make_vectors.py --check          # recompute and compare, write nothing

A whole run plays about 110,000 Bezique deals, 310,000 Piquet deals and 280,000 Écarté hands
(and their games) through the reference: about 8 minutes on two quiet cores.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import reference_pool as RP  # noqa: E402


def block_digest(case: RP.Case, start: int, n: int) -> str:
    """The digest of one block of the reference's rows (run in a pool worker)."""
    return RP.digest(RP.case_reference_rows(case, start, n))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="*", help=f"games (default all: {', '.join(RP.GAMES)})")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    parser.add_argument("--check", action="store_true", help="recompute and compare with the files, write nothing")
    args = parser.parse_args(argv)
    args.games = args.games or list(RP.GAMES)
    unknown = [g for g in args.games if g not in RP.GAMES]
    if unknown:
        parser.error(f"unknown game {unknown[0]!r} (choose from {', '.join(RP.GAMES)})")
    for var in RP.COUNT_VARIABLES.values():
        if var in os.environ:
            parser.error(f"{var} is set: the vectors record the differential tests' default deal counts")
    bad = 0
    with RP.open_pool(args.jobs) as pool:
        for game in args.games:
            t0 = time.perf_counter()
            every = RP.cases(game)
            jobs = {c.id: [pool.submit(block_digest, c, s, n) for s, n in RP.blocks(c.n)] for c in every}
            records = {c.id: RP.vector_record(c, [j.result() for j in jobs[c.id]]) for c in every}
            deals = sum(c.n for c in every)
            took = time.perf_counter() - t0
            vec = {"game": game, "block": RP.BLOCK, "sources": RP.source_hashes(game), "cases": records}
            path = RP.vectors_path(game)
            if args.check:
                old = json.loads(path.read_text()) if path.exists() else {}
                diff = [cid for cid in records if old.get("cases", {}).get(cid) != records[cid]]
                same_sources = old.get("sources") == vec["sources"]
                bad += bool(diff) or not same_sources
                print(f"{game}: {deals:,} deals/games in {took:.0f} s: "
                      + ("sources unchanged" if same_sources else "sources changed")
                      + (f", {len(diff)} cases differ: {diff[:3]}" if diff else ", every digest as recorded"))
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(json.dumps(vec, indent=1) + "\n")
                print(f"{game}: {len(every)} cases, {deals:,} deals/games in {took:.0f} s -> {path}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
