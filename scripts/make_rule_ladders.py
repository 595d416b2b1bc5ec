#!/usr/bin/env python3
"""Write analysis/ecarte/data/rule_ladders.json: the ladder of playing rules of Écarté's first
decisions (elder, dealer) under each variant, searched on the shipped equilibrium's fitted deals and
costed on its held-out ones (analysis/ecarte/studies/rule_ladder.py). Deterministic: the same
tables give the same file. About a minute a decision.
Usage: .venv/bin/python scripts/make_rule_ladders.py [--rules seed-de classic] [--out FILE]
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from analysis.ecarte.studies.rule_ladder import LADDERS_FILE, VARIANTS, make_ladders  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", nargs="+", default=list(VARIANTS))
    ap.add_argument("--out", default=LADDERS_FILE)
    args = ap.parse_args()
    t0 = time.perf_counter()
    res = make_ladders(args.rules)
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(res, f, indent=1, sort_keys=True)
        f.write("\n")
    for lad in res["ladders"]:
        costs = ", ".join(f"{r['lines']}: {r['cost']['value']:.4f}" for r in lad["rungs"])
        print(f"{lad['rules']:8} {lad['decision']:6} {costs} · moonshot met at {lad['moonshot']['met_at_lines']}")
    print(f"wrote {args.out} in {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
