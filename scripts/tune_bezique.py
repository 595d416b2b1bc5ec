#!/usr/bin/env python3
"""Tune the Bezique heuristic's parameters by paired coordinate search (how the defaults were chosen).

Each round tries, parameter by parameter, every listed value against the current policy on the
same deals (analysis.bezique.play.paired: both seats, the current policy as the opponent) and moves to
the best value only when its paired 95% interval of net points per deal lies wholly above 0.
Usage: .venv/bin/python scripts/tune_bezique.py [--deals N] [--rounds R] [--rules V] [--seed S]
       [--start heuristic|tuned|tuned-exact] [--params a,b,...] [--record FILE.json]

The meld-aware heuristic (meld_chance) was tuned from tuned-exact with
``--start tuned-exact --params meld_chance,meld_keep,four_keep_min,trump_keep,brisque_keep
--deals 40000 --record scripts/records/tune_bezique_meld.json``; the record keeps every step.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import time

from analysis.bezique.play.paired import compare
from analysis.bezique.policies import get_policy
from analysis.bezique.rules import get_rules

GRID = {
    "meld_win": [True, False], "meld_win_min": [20, 40, 80, 250], "brisque_win": [True, False],
    "greedy_win": [False, True], "trump_win": [True, False], "trump_keep": [0, 2, 4, 6, 8, 10, 14, 20],
    "brisque_keep": [0, 2, 4, 6, 8, 12], "meld_keep": [0, 2, 4, 6, 8, 10, 14, 20], "four_keep_min": [2, 3, 4],
    "lead_low": [True, False], "hold_bezique": [True, False], "hold_bezique_stock": [0, 10, 20, 30],
    "exchange_seven": [True, False], "meld_chance": [0, 10, 25, 50, 100, 200],
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--rules", default="seed-de")
    ap.add_argument("--seed", type=int, default=20261129)
    ap.add_argument("--start", default="heuristic", choices=["heuristic", "tuned", "tuned-exact"])
    ap.add_argument("--params", default=",".join(GRID), help="the parameters to tune, in order")
    ap.add_argument("--record", default=None, help="write every step to this JSON file")
    a = ap.parse_args()
    rules = get_rules(a.rules)
    policy = get_policy(a.start)
    names = a.params.split(",")
    seed = a.seed
    steps = []
    t0 = time.time()
    for rnd in range(a.rounds):
        moved = False
        for name in names:
            current = getattr(policy, name)
            others = [v for v in GRID[name] if v != current]
            options = [policy] + [dataclasses.replace(policy, **{name: v}) for v in others]
            seed += 1
            p = compare(a.deals, seed, rules, options, policy)
            gains = [(p.diff(i + 1, 0), v) for i, v in enumerate(others)]
            best, value = max(gains, key=lambda g: g[0].value)
            line = ", ".join(f"{v}: {e.value:+.2f}" for e, v in gains)
            print(f"round {rnd + 1} {name} = {current} -> [{line}]", flush=True)
            step = {"round": rnd + 1, "parameter": name, "current": current, "seed": seed, "deals": a.deals,
                    "gains": {str(v): e.to_dict() for e, v in gains}, "moved_to": None}
            if best.lo > 0:
                policy = dataclasses.replace(policy, **{name: value})
                moved = True
                step["moved_to"] = value
                print(f"    moved to {name} = {value}: {best.value:+.2f} [{best.lo:+.2f}, {best.hi:+.2f}]", flush=True)
            steps.append(step)
        if not moved:
            break
    print("tuned:", policy.describe())
    if a.record:
        with open(a.record, "w", encoding="utf-8") as f:
            json.dump({"start": a.start, "rules": a.rules, "deals": a.deals, "seed": a.seed, "params": names,
                       "steps": steps, "result": policy.describe(), "seconds": round(time.time() - t0)}, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
