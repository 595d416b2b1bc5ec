#!/usr/bin/env python3
"""Tune the Bezique heuristic's parameters by paired coordinate search (how the defaults were chosen).

Each round tries, parameter by parameter, every listed value against the current policy on the
same deals (analysis.bezique.paired: both seats, the current policy as the opponent) and moves to
the best value only when its paired 95% interval of net points per deal lies wholly above 0.
Usage: .venv/bin/python scripts/tune_bezique.py [--deals N] [--rounds R] [--rules V] [--seed S]
"""
from __future__ import annotations

import argparse
import dataclasses

from analysis.bezique.paired import compare
from analysis.bezique.policies import HeuristicPolicy
from analysis.bezique.rules import get_rules

GRID = {
    "meld_win": [True, False], "meld_win_min": [20, 40, 80, 250], "brisque_win": [True, False],
    "greedy_win": [False, True], "trump_win": [True, False], "trump_keep": [0, 2, 4, 6, 8, 10, 14, 20],
    "brisque_keep": [0, 2, 4, 6, 8, 12], "meld_keep": [0, 2, 4, 6, 8, 10, 14, 20], "four_keep_min": [2, 3, 4],
    "lead_low": [True, False], "hold_bezique": [True, False], "hold_bezique_stock": [0, 10, 20, 30],
    "exchange_seven": [True, False],
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--rules", default="seed-de")
    ap.add_argument("--seed", type=int, default=20261129)
    a = ap.parse_args()
    rules = get_rules(a.rules)
    policy = HeuristicPolicy()
    seed = a.seed
    for rnd in range(a.rounds):
        moved = False
        for name, values in GRID.items():
            current = getattr(policy, name)
            others = [v for v in values if v != current]
            options = [policy] + [dataclasses.replace(policy, **{name: v}) for v in others]
            seed += 1
            p = compare(a.deals, seed, rules, options, policy)
            gains = [(p.diff(i + 1, 0), v) for i, v in enumerate(others)]
            best, value = max(gains, key=lambda g: g[0].value)
            line = ", ".join(f"{v}: {e.value:+.2f}" for e, v in gains)
            print(f"round {rnd + 1} {name} = {current} -> [{line}]", flush=True)
            if best.lo > 0:
                policy = dataclasses.replace(policy, **{name: value})
                moved = True
                print(f"    moved to {name} = {value}: {best.value:+.2f} [{best.lo:+.2f}, {best.hi:+.2f}]", flush=True)
        if not moved:
            break
    print("tuned:", policy.describe())


if __name__ == "__main__":
    main()
