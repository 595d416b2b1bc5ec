#!/usr/bin/env python3
"""Choose the meld-aware heuristic's meld_chance with meld_keep on one seed, check it on others.

scripts/tune_bezique.py's coordinate search from tuned-exact left meld_chance at 0 (every value
of its grid, 10 and up, lost with meld_keep at 6). This tries the pairs jointly against
tuned-exact (paired, both seats): first on the choosing seed (seed-de), then the pairs near the
best on fresh seeds under both variants. Writes scripts/records/check_meld_chance.json.
Usage: .venv/bin/python scripts/check_meld_chance.py [--deals 40000]
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import time

from analysis.bezique.play.paired import compare
from analysis.bezique.policies import TUNED_EXACT
from analysis.bezique.rules import get_rules

CHOOSE = ((0, 25), (0, 50), (0, 100), (0, 200), (2, 50), (4, 25), (6, 5))
CHECK = ((6, 2), (6, 3), (6, 5), (6, 7), (8, 3), (8, 5))


def run(pairs, rules: str, seed: int, deals: int) -> list[dict]:
    base = dataclasses.replace(TUNED_EXACT, meld_chance=0)
    opts = [base] + [dataclasses.replace(base, meld_keep=mk, meld_chance=mc) for mk, mc in pairs]
    p = compare(deals, seed, get_rules(rules), opts, base)
    out = []
    for i, (mk, mc) in enumerate(pairs, 1):
        e = p.diff(i, 0)
        out.append({"rules": rules, "seed": seed, "deals": deals, "meld_keep": mk, "meld_chance": mc,
                    "net_vs_base": e.to_dict()})
        print(f"{rules} seed {seed}: meld_keep {mk}, meld_chance {mc}: {e.value:+.2f} [{e.lo:+.2f}, {e.hi:+.2f}]",
              flush=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=40_000)
    a = ap.parse_args()
    t0 = time.time()
    record = {"base": "tuned-exact with meld_chance 0 (tuned, exact end game)", "unit": "net points per deal and seat",
              "choose": run(CHOOSE, "seed-de", 777, a.deals),
              "check": run(CHECK, "seed-de", 778, a.deals) + run(CHECK, "classic", 779, a.deals)}
    record["seconds"] = round(time.time() - t0)
    with open("scripts/records/check_meld_chance.json", "w", encoding="utf-8") as f:
        json.dump(record, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
